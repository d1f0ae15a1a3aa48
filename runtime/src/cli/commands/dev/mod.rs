//! `bt dev`: the cart plays in a window; saving its source rebuilds it, and the new program
//! takes over at the tick the old one was on.
//!
//! A run is a function of the cart, the seed and the input each update saw, so the new code
//! gets to the same tick by playing the same input from boot. `bt dev` is a small process that
//! never opens a window itself. It watches the source, runs `cargo build`, and runs the cart's
//! own program as `run --record FILE --dev-link DIR`, ordering it over its standard input
//! ([`crate::host::window::dev_link`]). On a good build it orders the window to close, which
//! writes the recording of the whole run, and starts the new program with
//! `run --continue-from FILE`: it replays the recording at headless speed, opens its window
//! where the old one was, and plays on live, recording from boot again. On a failed build the
//! old program plays on with the first error across its picture.
//!
//! A process for each program, rather than loading new code into a running one, keeps each
//! program exactly what `cargo run` makes: no unsafe loading of libraries, nothing of the old
//! code's memory left behind, and a cart that crashes takes only its own process.

mod build;
mod watch;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::cli::args::DevArgs;
use crate::cli::{bundle, Offer, BT_ROOT};
use crate::config::read::{read_file, read_text, MAX_TEXT_FILE};
use crate::host::asset_watch::AssetWatcher;
use crate::host::window::dev_link::{CLOSE, NOTICE};
use crate::replay::MAX_REPLAY_BYTES;

use super::{note, Failure};
use build::{cargo, executable_in, first_error, without_progress, Target};
use watch::{is_source_change, watched, SOURCE_POLL};

/// How often `bt dev` looks at its program and its build while waiting.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// How long a program ordered to close may take to write its recording and go.
const CLOSE_PATIENCE: Duration = Duration::from_secs(10);

pub(in crate::cli) fn dev(offer: &Offer, args: DevArgs) -> Result<(), Failure> {
    if matches!(bundle::own(), Ok(Some(_))) {
        return Err(Failure::Usage(
            "an exported game carries no source to rebuild; run `dev` in the cart's folder"
                .to_string(),
        ));
    }
    if let Some(path) = &args.record {
        // Checked now, not after the play, when a bad name would lose the run.
        super::play::recording_output(path)?;
    }
    let project = Project::of(offer, args.cart.cart.as_deref())?;
    let folder = dev_folder(&std::env::temp_dir())?;
    let (src, files) = watched(&project.crate_dir);
    let watcher = AssetWatcher::every(Some(&src), &files, SOURCE_POLL);
    crate::host::signals::install();
    let mut dev = Dev {
        project,
        args,
        folder: folder.path().to_path_buf(),
        program: std::env::current_exe()
            .map_err(|e| format!("cannot find this program's file: {e}"))?,
        playing: None,
        runs: 0,
    };
    note(format_args!(
        "dev: watching {} (save a change to rebuild and play on from the same tick; close \
         the window to stop)",
        crate::quote::path(&dev.project.crate_dir)
    ));
    dev.launch(None)?;
    let ended = dev.watch(&watcher);
    // Whatever ended it, the window goes and the whole run is kept when asked.
    dev.close();
    let kept = dev.keep_recording();
    ended.and(kept)
}

/// What `bt dev` rebuilds and watches.
struct Project {
    /// The cart crate's folder: its `src/`, `Cargo.toml` and `cart.toml` are watched.
    crate_dir: PathBuf,
    target: Target,
    /// The cart's name on the program's command line (the gallery's programs run many).
    cart: Option<String>,
}

impl Project {
    fn of(offer: &Offer, name: Option<&str>) -> Result<Project, String> {
        let chosen = offer.choose(name)?;
        let bin = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .ok_or("cannot find this program's file")?;
        match offer {
            Offer::Single { dir, .. } => Ok(Project {
                // As Cargo names it in its messages, so an error's place is named from it.
                crate_dir: std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone()),
                target: Target {
                    manifest: dir.join("Cargo.toml"),
                    package: None,
                    bin,
                },
                cart: None,
            }),
            Offer::Gallery(_) => {
                let root = std::fs::canonicalize(BT_ROOT).unwrap_or_else(|_| BT_ROOT.into());
                let crate_dir = root.join("carts").join(&chosen.name);
                if !crate_dir.join("Cargo.toml").is_file() {
                    return Err(format!(
                        "the cart '{}' has no source at {} to rebuild",
                        chosen.name,
                        crate::quote::path(&crate_dir)
                    ));
                }
                Ok(Project {
                    crate_dir,
                    target: Target {
                        manifest: root.join("Cargo.toml"),
                        package: Some("bt-gallery".to_string()),
                        bin,
                    },
                    cart: Some(chosen.name),
                })
            }
        }
    }
}

/// The program playing in the window, and the orders it takes.
struct Playing {
    child: Child,
    orders: Option<ChildStdin>,
    /// The recording it writes.
    record: PathBuf,
}

impl Playing {
    /// Sends an order; a program that no longer listens has ended, which the loop notices.
    fn order(&mut self, line: &str) {
        if let Some(orders) = &mut self.orders {
            if writeln!(orders, "{line}")
                .and_then(|()| orders.flush())
                .is_err()
            {
                self.orders = None;
            }
        }
    }
}

struct Dev {
    project: Project,
    args: DevArgs,
    /// The folder the recordings and the window's place are kept in.
    folder: PathBuf,
    /// The cart's program: this one at first, then each new build.
    program: PathBuf,
    playing: Option<Playing>,
    /// Programs started so far: each records to its own file.
    runs: u32,
}

/// How a wait for a build or a program ended.
enum Waited<T> {
    Done(T),
    /// The program ended by itself, which ends `bt dev`: well (the player closed the window,
    /// or a signal asked `bt dev` to end), or with the program's failure.
    Stop(Result<(), String>),
}

impl Dev {
    /// Starts the program, continuing the run in `from` when given.
    fn launch(&mut self, from: Option<&Path>) -> Result<(), String> {
        self.runs += 1;
        let record = self.folder.join(format!("run-{}.btr", self.runs));
        let mut run = std::process::Command::new(&self.program);
        run.arg("run").args(&self.project.cart);
        run.arg("--record").arg(&record);
        run.arg("--dev-link").arg(&self.folder);
        if let Some(from) = from {
            run.arg("--continue-from").arg(from);
        }
        let cart = &self.args.cart;
        if let Some(seed) = cart.seed {
            run.args(["--seed", &seed.to_string()]);
        }
        if let Some(fps) = cart.fps {
            run.args(["--fps", &fps.to_string()]);
        }
        for (name, value) in &cart.args {
            run.arg("--arg").arg(format!("{name}={value}"));
        }
        if let Some(save) = &cart.save {
            run.arg("--save").arg(save);
        }
        // The window's flags as `bt dev` parsed them, every one of them.
        run.args(self.args.window.to_args());
        let mut child = run
            .stdin(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", crate::quote::path(&self.program)))?;
        let orders = child.stdin.take();
        self.playing = Some(Playing {
            child,
            orders,
            record,
        });
        // The recording before the one just continued from is of no more use.
        if let Some(older) = self.runs.checked_sub(2).filter(|&n| n > 0) {
            let _ = std::fs::remove_file(self.folder.join(format!("run-{older}.btr")));
        }
        Ok(())
    }

    /// Rebuilds on every change to the source until the player closes the window.
    fn watch(&mut self, watcher: &AssetWatcher) -> Result<(), Failure> {
        loop {
            if let Waited::Stop(ended) = self.look_at_program() {
                return ended.map_err(Failure::Run);
            }
            let changed = watcher
                .take_changes()
                .is_some_and(|names| names.iter().any(|n| is_source_change(n)));
            if !changed {
                std::thread::sleep(LOOK_EVERY);
                continue;
            }
            let saved = Instant::now();
            match self.build()? {
                Waited::Stop(ended) => return ended.map_err(Failure::Run),
                Waited::Done(Err(error)) => {
                    if let Some(playing) = &mut self.playing {
                        playing.order(&format!("{NOTICE} build failed: {error}"));
                    }
                }
                Waited::Done(Ok(program)) => {
                    note(format_args!(
                        "dev: built in {:.2} s; the new program plays on from the same tick",
                        saved.elapsed().as_secs_f64()
                    ));
                    self.program = program;
                    let from = self.close();
                    self.launch(from.as_deref())?;
                }
            }
        }
    }

    /// Whether the program still plays. One that ended by itself ends `bt dev` as it ended:
    /// well when the player closed it, else with its failure (it said why on stderr: no
    /// display, a panic the player closed, a run the new code cannot continue).
    fn look_at_program(&mut self) -> Waited<()> {
        if crate::host::signals::requested() {
            return Waited::Stop(Ok(()));
        }
        let Some(playing) = &mut self.playing else {
            return Waited::Done(());
        };
        match playing.child.try_wait() {
            Ok(None) => Waited::Done(()),
            Ok(Some(status)) if status.success() => Waited::Stop(Ok(())),
            Ok(Some(status)) => Waited::Stop(Err(format!(
                "the cart's program {} ended ({status})",
                crate::quote::path(&self.program)
            ))),
            Err(e) => Waited::Stop(Err(format!("cannot look at the cart's program: {e}"))),
        }
    }

    /// Runs `cargo build`, its output kept in the folder; the program built, or the first
    /// error (the rest of the output said on stderr).
    fn build(&mut self) -> Result<Waited<Result<PathBuf, String>>, String> {
        let out_path = self.folder.join("build.json");
        let err_path = self.folder.join("build.txt");
        let file = |p: &Path| {
            std::fs::File::create(p)
                .map_err(|e| format!("cannot write {}: {e}", crate::quote::path(p)))
        };
        let mut cargo_build = self.project.target.command(&cargo());
        let mut build = cargo_build
            .stdin(Stdio::null())
            .stdout(file(&out_path)?)
            .stderr(file(&err_path)?)
            .spawn()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let status = loop {
            if let Waited::Stop(ended) = self.look_at_program() {
                let _ = build.kill();
                let _ = build.wait();
                return Ok(Waited::Stop(ended));
            }
            match build.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => std::thread::sleep(LOOK_EVERY),
                Err(e) => return Err(format!("cannot wait for cargo: {e}")),
            }
        };
        let read = |p: &Path| read_text(p, MAX_TEXT_FILE).unwrap_or_default();
        let messages = read(&err_path);
        if !status.success() {
            let _ = std::io::stderr().write_all(without_progress(&messages).as_bytes());
            let error = first_error(&messages, &self.project.crate_dir)
                .unwrap_or_else(|| format!("cargo build {status}"));
            note(format_args!(
                "dev: the build failed; the old program plays on"
            ));
            return Ok(Waited::Done(Err(error)));
        }
        Ok(Waited::Done(executable_in(&read(&out_path)).ok_or_else(
            || "cargo built no program (is there a [[bin]] of this name?)".to_string(),
        )))
    }

    /// Orders the program to close and waits for it; the recording it wrote, if it did. A
    /// program that does not close in [`CLOSE_PATIENCE`] is ended.
    fn close(&mut self) -> Option<PathBuf> {
        let mut playing = self.playing.take()?;
        playing.order(CLOSE);
        // Closing its input too: a program between frames reads the end as the same order.
        playing.orders = None;
        let status = wait_within(&mut playing.child, CLOSE_PATIENCE);
        if status.is_none() {
            note(format_args!(
                "dev: the program did not close within {} s; ended it",
                CLOSE_PATIENCE.as_secs()
            ));
            let _ = playing.child.kill();
            let _ = playing.child.wait();
        }
        playing.record.is_file().then_some(playing.record)
    }

    /// The recording the last program wrote, when it wrote one.
    fn last_recording(&self) -> Option<PathBuf> {
        let last = self.folder.join(format!("run-{}.btr", self.runs));
        last.is_file().then_some(last)
    }

    /// Copies the last recording to `--record`'s file, when given.
    fn keep_recording(&self) -> Result<(), Failure> {
        let Some(path) = &self.args.record else {
            return Ok(());
        };
        let last = self
            .last_recording()
            .ok_or_else(|| "--record: the program wrote no recording to keep".to_string())?;
        let bytes = read_file(&last, MAX_REPLAY_BYTES).map_err(|e| {
            format!(
                "--record: {}: could not read it: {e}",
                crate::quote::path(&last)
            )
        })?;
        crate::export::safe_write::write_atomically(path, &bytes).map_err(|e| e.to_string())?;
        note(format_args!(
            "dev: kept the run in {}",
            crate::quote::path(path)
        ));
        Ok(())
    }
}

/// Waits for `child` at most `limit`; its status, or `None` when it is still running.
fn wait_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(LOOK_EVERY);
    }
}

/// What a `bt dev` folder's name starts with, in the system's temporary folder; the process
/// id and a random part follow, then `.bt-tmp`, as every temporary file of BT is named.
const DEV_FOLDER_PREFIX: &str = "bt-dev-";

/// Makes `bt dev`'s folder for its recordings in `tmp`, removed when it ends. A `bt dev` that
/// was killed outright (SIGKILL, a power cut) could not remove its own: the folders of
/// processes that are gone are removed first, as left-behind temporary files are
/// ([`crate::export::safe_write`]).
fn dev_folder(tmp: &Path) -> Result<tempfile::TempDir, String> {
    crate::export::safe_write::remove_left_behind(tmp, DEV_FOLDER_PREFIX);
    tempfile::Builder::new()
        .prefix(&format!("{DEV_FOLDER_PREFIX}{}-", std::process::id()))
        .suffix(".bt-tmp")
        .tempdir_in(tmp)
        .map_err(|e| {
            format!(
                "cannot make bt dev's folder in {}: {e}",
                crate::quote::path(tmp)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_of_a_killed_bt_dev_are_removed_and_no_other() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let tmp = std::env::temp_dir().join(format!("bt-dev-tmp-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        let folder = |name: &str| {
            let dir = tmp.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("run.btr"), "{}").unwrap();
            dir
        };
        // Past any process id Linux hands out (at most 2^22).
        let killed = folder("bt-dev-4000000000-abc.bt-tmp");
        let running = folder(&format!("bt-dev-{}-abc.bt-tmp", std::process::id()));
        let unknown = folder("bt-dev-unknown");
        let other = folder("not-bt-dev-4000000000-abc.bt-tmp");
        let target = folder("elsewhere");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, tmp.join("bt-dev-4000000001-abc.bt-tmp")).unwrap();

        let made = dev_folder(&tmp).unwrap();
        assert!(!killed.exists(), "the killed run's folder is gone");
        for kept in [&running, &unknown, &other, &target] {
            assert!(kept.join("run.btr").exists(), "{} is kept", kept.display());
        }
        let name = made
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with(&format!("bt-dev-{}-", std::process::id())),
            "{name} names its process"
        );
        let path = made.path().to_path_buf();
        drop(made);
        assert!(!path.exists(), "a run that ends removes its own");
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
