//! The window's side of [`crate::host::persist`]: the [`Host`] says what a run keeps on disk
//! (the recording of `bt run --record`, the cart's save data) and [`DiskHost`] writes it.
//!
//! `bt run` promises that a recorded run is saved whatever ends it: a closed window, Ctrl+Q,
//! a signal, the cart quitting, an error before or after the window opens, or a panic of `bt`
//! itself unwinding. So the host is held in a [`DiskHost`] from the moment it is made; its
//! [`Drop`] performs [`Host::finish_writes`] when nothing did before.

use std::ops::{Deref, DerefMut};

use crate::host::persist::{self, PersistKind};
use crate::host::Host;

/// A [`Host`] whose writes go to disk. It derefs to the host.
#[derive(Debug)]
pub struct DiskHost(Host);

impl DiskHost {
    /// Holds `host`; from now on its writes are performed, at the latest when this is dropped.
    pub fn new(host: Host) -> DiskHost {
        DiskHost(host)
    }

    /// Writes what the host asks for now ([`Host::take_writes`]). A failure shows as the
    /// overlay's notice and on the error output ([`Host::write_failed`]).
    pub fn persist(&mut self) {
        for write in self.0.take_writes() {
            if let Err(e) = persist::write(&write) {
                self.0.write_failed(&write, &e);
            }
        }
    }

    /// The run ended: writes the last files ([`Host::finish_writes`]), saying on stdout how many
    /// updates the recording holds. Every file is tried.
    ///
    /// # Errors
    /// The first message naming a file that could not be written (the others are said on the
    /// error output).
    pub fn finish(&mut self) -> Result<(), String> {
        let mut failed = None;
        for write in self.0.finish_writes() {
            match persist::write(&write) {
                Ok(()) => {
                    if let PersistKind::Recording { updates } = write.kind {
                        println!(
                            "recorded {updates} updates to {}",
                            crate::quote::path(&write.path)
                        );
                    }
                }
                Err(e) if failed.is_none() => failed = Some(write.not_written(&e)),
                Err(e) => self.0.write_failed(&write, &e),
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

impl Deref for DiskHost {
    type Target = Host;

    fn deref(&self) -> &Host {
        &self.0
    }
}

impl DerefMut for DiskHost {
    fn deref_mut(&mut self) -> &mut Host {
        &mut self.0
    }
}

impl Drop for DiskHost {
    /// Whatever ended the run before [`DiskHost::finish`] (an error, a panic unwinding): the
    /// last files are written all the same, and a failure said on the error output.
    fn drop(&mut self) {
        for write in self.0.finish_writes() {
            if let Err(e) = persist::write(&write) {
                self.0.write_failed(&write, &e);
            }
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
        let mut host = DiskHost::new(Host::new(engine, KeyMap::default(), "blank"));
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
}
