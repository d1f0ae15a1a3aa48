//! The window's side of the host's outbox ([`crate::host::outbox`]): the [`Host`] makes every
//! file of a run (F2, F8, F9, F3, the pictures a cart asks for, the recording of
//! `bt run --record`, the cart's save data) and [`DiskHost`] writes them, once per frame: files
//! to keep into the captures folder under the first free number ([`crate::captures`]), the
//! others over the file at their path.
//!
//! `bt run` promises that a recorded run is saved whatever ends it: a closed window, Ctrl+Q,
//! a signal, the cart quitting, an error before or after the window opens, or a panic of `bt`
//! itself unwinding. So the host is held in a [`DiskHost`] from the moment it is made; its
//! [`Drop`] performs [`Host::finish`] when nothing did before.

use std::io::Write as _;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use crate::captures::save_numbered;
use crate::host::outbox::{self, Destination, FileKind, OutFile};
use crate::host::Host;

/// A [`Host`] whose files go to disk. It derefs to the host.
#[derive(Debug)]
pub struct DiskHost {
    host: Host,
    /// Where files to keep go (`--captures`).
    captures: PathBuf,
    /// Whether [`DiskHost::finish`] ran.
    finished: bool,
}

impl DiskHost {
    /// Holds `host`, keeping its files to keep in `captures`; from now on its files are
    /// written, at the latest when this is dropped.
    pub fn new(host: Host, captures: &Path) -> DiskHost {
        DiskHost {
            host,
            captures: captures.to_path_buf(),
            finished: false,
        }
    }

    /// Writes what the host's outbox holds now ([`Host::take_outbox`]), saying on stdout where
    /// each kept file went. A failure shows as the overlay's notice and on the error output
    /// ([`Host::write_failed`]). Returns the first failure's message, when one failed.
    pub fn persist(&mut self) -> Option<String> {
        let files = self.host.take_outbox();
        if files.is_empty() {
            return None;
        }
        let mut failed = None;
        let mut rest = files.as_slice();
        while let Some(first) = rest.first() {
            // Files made together (F8's report and trace) share a number.
            let together = rest.iter().take_while(|f| f.set == first.set).count();
            let (set, after) = rest.split_at(together);
            rest = after;
            if let Err(message) = self.write(set) {
                failed.get_or_insert(message);
            }
        }
        failed
    }

    /// Writes one set of files; the message of a failure.
    fn write(&mut self, set: &[OutFile]) -> Result<(), String> {
        let first = &set[0];
        if let Destination::Replace(path) = &first.destination {
            return match outbox::replace(first) {
                Ok(()) => {
                    if let FileKind::Recording { updates } = first.kind {
                        if self.finished {
                            say(&format!(
                                "recorded {updates} updates to {}",
                                crate::quote::path(path)
                            ));
                        }
                    }
                    Ok(())
                }
                Err(e) => {
                    self.host.write_failed(first, &e);
                    Err(first.not_written(&e))
                }
            };
        }
        match save_numbered(&self.captures, set) {
            Ok(paths) => {
                say(&saved_line(set, &paths));
                for (file, path) in set.iter().zip(&paths) {
                    self.host.kept(file, path);
                }
                Ok(())
            }
            Err(e) => {
                self.host.write_failed(first, &e);
                Err(first.not_written(&e))
            }
        }
    }

    /// The run ended: writes the last files ([`Host::finish`]), saying on stdout how many
    /// updates the recording holds. Every file is tried.
    ///
    /// # Errors
    /// The first message naming a file that could not be written (the others are said on the
    /// error output).
    pub fn finish(&mut self) -> Result<(), String> {
        self.host.finish();
        self.finished = true;
        self.persist().map_or(Ok(()), Err)
    }
}

/// What stdout says of files kept in the captures folder.
fn saved_line(files: &[OutFile], paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| crate::quote::path(p)).collect();
    let timings = files.first().map(|f| f.kind) == Some(FileKind::TimingReport);
    match (timings, shown.as_slice()) {
        (true, [report, trace]) => format!("saved timings {report} and {trace}"),
        _ => format!("saved {}", shown.join(" and ")),
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

impl Deref for DiskHost {
    type Target = Host;

    fn deref(&self) -> &Host {
        &self.host
    }
}

impl DerefMut for DiskHost {
    fn deref_mut(&mut self) -> &mut Host {
        &mut self.host
    }
}

impl Drop for DiskHost {
    /// Whatever ended the run before [`DiskHost::finish`] (an error, a panic unwinding): the
    /// last files are written all the same, and a failure said on the error output.
    fn drop(&mut self) {
        if !self.finished {
            self.host.finish();
            self.finished = true;
            self.persist();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ConstantClock;
    use crate::host::keymap::KeyMap;
    use crate::replay::Replay;
    use crate::{Engine, EngineOptions};
    use bt::{Cart, Render, Update};

    struct Blank;
    impl Cart for Blank {
        fn update(&mut self, _ctx: &mut Update<'_>) {}
        fn render(&self, ctx: &mut Render<'_>) {
            ctx.clear(1);
        }
    }

    fn recorded(path: &std::path::Path) -> DiskHost {
        let options = EngineOptions {
            overlay: false,
            ..EngineOptions::default()
        };
        let mut engine = Engine::new(Box::new(|| Box::new(Blank) as Box<dyn Cart>), options)
            .expect("a blank cart boots");
        engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
        let captures = path.parent().unwrap().join("captures");
        let mut host = DiskHost::new(Host::new(engine, KeyMap::default(), "blank"), &captures);
        host.record_to(path.to_path_buf(), None);
        host
    }

    #[test]
    fn a_recorded_run_is_saved_when_a_panic_unwinds_through_the_window() {
        let dir = bt_test_support::ScratchDir::new("disk-host-unwind");
        let path = dir.join("run.btr");
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut host = recorded(&path);
            for f in 0..30 {
                host.frame(f64::from(f) * 1000.0 / 60.0);
            }
            assert!(!path.exists(), "nothing written before it is due");
            panic!("a bug in the window");
        }));
        assert!(unwound.is_err());
        let replay = Replay::load(&path).expect("written while unwinding");
        assert_eq!(replay.ticks(), 30);
    }

    #[test]
    fn the_end_of_a_run_writes_the_recording_once() {
        let dir = bt_test_support::ScratchDir::new("disk-host-finish");
        let path = dir.join("run.btr");
        let mut host = recorded(&path);
        for f in 0..10 {
            host.frame(f64::from(f) * 1000.0 / 60.0);
            host.persist();
        }
        host.finish().unwrap();
        assert_eq!(Replay::load(&path).unwrap().ticks(), 10);
        std::fs::remove_file(&path).unwrap();
        drop(host);
        assert!(!path.exists(), "finished: dropping it writes nothing more");
    }

    #[test]
    fn one_keys_files_take_one_number_in_the_captures_folder() {
        let dir = bt_test_support::ScratchDir::new("disk-host-set");
        let captures = dir.join("captures");
        let mut host = recorded(&dir.join("run.btr"));
        host.captures = captures.clone();
        host.set_timing_report(|_, _| Ok("<html></html>".to_string()));
        host.frame(0.0);
        // The trace alone could take 0001; the report beside it could not.
        std::fs::create_dir_all(&captures).unwrap();
        std::fs::write(captures.join("blank-timings-0001.html"), "mine").unwrap();
        for _ in 0..2 {
            for down in [true, false] {
                host.handle(crate::host::HostEvent::Key {
                    key: bt::Key::F8,
                    down,
                });
            }
            assert_eq!(host.persist(), None);
        }
        let mut names: Vec<String> = std::fs::read_dir(&captures)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "blank-timings-0001.html",
                "blank-timings-0002.html",
                "blank-timings-0002.json",
                "blank-timings-0003.html",
                "blank-timings-0003.json",
            ]
        );
        assert_eq!(
            std::fs::read_to_string(captures.join("blank-timings-0001.html")).unwrap(),
            "mine"
        );
    }
}
