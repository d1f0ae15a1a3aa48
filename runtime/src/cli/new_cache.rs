//! The build folder the carts of one BT checkout share, outside BT's tree and outside every
//! cart, and how it is seeded with what BT compiled.
//!
//! A cart made by `bt new` builds its programs into its own `target/` and everything else
//! Cargo compiles (BT's libraries and their dependencies, the cart's own library) into
//! `.bt/build`, Cargo's `build-dir`, which `bt attach` makes a link to
//! `<cache>/bt/builds/<checkout>-<hash>`. Every cart of that checkout uses the same folder, so
//! BT's libraries are compiled (or copied) into it once, and the cart's `.bt` workspace gives
//! them the same identity as in BT's own build (see `new_workspace`), so a folder seeded with
//! a copy of BT's build makes a new cart's first build compile only the cart.
//!
//! Why a copy of BT's build and not BT's `target/` itself: the cart then never writes into
//! BT's tree, and nothing run in the cart (`cargo clean` above all) can remove BT's build.
//! Why a link: `cargo clean` in the cart removes a build folder that is a link by removing the
//! link, not what it points to (Cargo 1.95), so the shared folder stays for the other carts;
//! `bt attach` makes the link again. `cargo clean --release` or `-p NAME` do reach through
//! the link and remove that profile or package from the shared folder, which the next build
//! compiles again (or the next `bt attach` copies again from BT's build).
//!
//! Seeding copies, for each profile BT built (`release`, `debug`), the compiled libraries in
//! `deps/` (not the test and program executables beside them), the build scripts' folders in
//! `build/` and Cargo's records in `.fingerprint/`, each only when BT's copy is newer than the
//! shared folder's, keeping every file's modification time, by which Cargo judges what is
//! fresh. A file is copied to a temporary name and renamed, so an interrupted seed never leaves
//! a half-written library under a real name; and the profile is locked with Cargo's own lock
//! file while it is seeded, so no build reads it half-seeded.

use std::fs::{self, File, FileTimes};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The shared build folder of the BT checkout at `root`:
/// `$XDG_CACHE_HOME/bt/builds/<checkout>-<hash>` (else under `~/.cache`), beside the folder
/// exported games unpack into, named after the checkout's folder and a hash of its path.
pub fn build_dir_for(root: &Path) -> PathBuf {
    super::bundle::cache_base()
        .unwrap_or_else(std::env::temp_dir)
        .join("bt")
        .join("builds")
        .join(key(root))
}

/// `<last part of root, letters, digits and - only>-<16 hex digits of FNV-1a of its path>`: a
/// name that differs for every checkout and still says which one it is.
fn key(root: &Path) -> String {
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    folder_key(&name, root)
}

/// `<name, letters, digits and - only>-<16 hex digits of FNV-1a of path>`: a folder's name that
/// differs for every `path` and still says whose it is (`bt` for an empty name).
pub(crate) fn folder_key(name: &str, path: &Path) -> String {
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(32)
        .collect();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in path.as_os_str().as_encoded_bytes() {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let name = if name.is_empty() { "bt" } else { &name };
    format!("{name}-{hash:016x}")
}

/// The build folders BT's libraries can be copied from: the checkout's own `target/`, and the
/// one this program was built in (a program in `<dir>/<profile>/` or `<dir>/<profile>/deps/`
/// beside Cargo's `CACHEDIR.TAG`), when that is another. Only folders that exist.
pub fn seed_sources(root: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = Vec::new();
    let own = std::env::current_exe().ok().and_then(|exe| {
        exe.ancestors()
            .skip(1)
            .take(3)
            .find(|dir| dir.join("CACHEDIR.TAG").is_file())
            .map(Path::to_path_buf)
    });
    for dir in std::iter::once(root.join("target")).chain(own) {
        if let Ok(dir) = dir.canonicalize() {
            if dir.is_dir() && !sources.contains(&dir) {
                sources.push(dir);
            }
        }
    }
    sources
}

/// What a seed copied, and what it could not.
#[derive(Debug, Default)]
pub struct Seeded {
    /// Files copied.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The profile folders copied from (`<source>/release`, ...), whether or not anything in
    /// them was newer.
    pub from: Vec<PathBuf>,
    /// One line for each profile that could not be seeded, and why.
    pub notes: Vec<String>,
}

/// Whether [`seed`] waits for a build that holds a folder it copies from or into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patience {
    /// Pass over a profile a build holds, and say so in [`Seeded::notes`].
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "bt new and bt attach wait; the tests pass over")
    )]
    PassOver,
    /// Wait for the build to finish, saying so on the error output at once and then every
    /// [`WAIT_NOTE_EVERY`]: a copy made after the build saves the cart's first build all of
    /// BT's libraries, where passing over leaves the user to guess when to `bt attach` again.
    /// Ctrl-C stops the wait; the cart is whole by then, and only unseeded.
    Wait,
}

/// How often a wait for a build says it is still waiting.
pub const WAIT_NOTE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// How often a wait for a build looks whether it has finished.
const WAIT_POLL: std::time::Duration = std::time::Duration::from_millis(250);

/// Copies into the shared build folder `dest` what the build folders `sources` hold that it
/// lacks or holds older, waiting for a build that holds one as `patience` says. Never fails:
/// the shared folder only saves time, so what cannot be copied is said in [`Seeded::notes`]
/// and Cargo compiles it instead.
pub fn seed(dest: &Path, sources: &[PathBuf], patience: Patience) -> Seeded {
    let mut seeded = Seeded::default();
    for source in sources {
        let Ok(entries) = fs::read_dir(source) else {
            continue;
        };
        let mut profiles: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join(".fingerprint").is_dir() && p.join("deps").is_dir())
            .collect();
        profiles.sort();
        for profile in profiles {
            let Some(name) = profile.file_name() else {
                continue;
            };
            match seed_profile(&profile, &dest.join(name), patience, &mut seeded) {
                Ok(()) => seeded.from.push(profile),
                Err(note) => seeded.notes.push(note),
            }
        }
    }
    seeded
}

/// Locks a profile folder with Cargo's lock file (`.cargo-lock`, which every build of it holds
/// alone), waiting for a build that holds it as `patience` says: BT's folder, read from,
/// shared (`create` false; `Ok(None)` when it has no lock file), the shared build folder,
/// written to, alone.
fn lock(profile: &Path, create: bool, patience: Patience) -> Result<Option<File>, String> {
    let path = profile.join(".cargo-lock");
    let file = if create {
        // Cargo's lock file, opened to be locked; no byte of it is read.
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
    } else {
        // As above: opened to be locked, never read.
        match File::open(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            other => other,
        }
    };
    let file = file.map_err(|e| format!("{}: {e}", crate::quote::path(&path)))?;
    let started = std::time::Instant::now();
    let mut said = None;
    loop {
        let locked = if create {
            file.try_lock()
        } else {
            file.try_lock_shared()
        };
        match locked {
            Ok(()) => return Ok(Some(file)),
            Err(fs::TryLockError::WouldBlock) if patience == Patience::Wait => {
                let waited = started.elapsed();
                let due = said.is_none_or(|at: std::time::Duration| waited >= at + WAIT_NOTE_EVERY);
                if due {
                    say_waiting(profile, waited);
                    said = Some(waited);
                }
                std::thread::sleep(WAIT_POLL);
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "{} is in use by a build: not copied (run `bt attach` in the cart once that \
                     build is done; it then waits for any build still running)",
                    crate::quote::path(profile)
                ))
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(format!("{}: {e}", crate::quote::path(&path)))
            }
        }
    }
}

/// Says on the error output that the seed waits for the build holding `profile`.
fn say_waiting(profile: &Path, waited: std::time::Duration) {
    use std::io::Write as _;
    let text = if waited.is_zero() {
        format!(
            "bt: waiting for the build using {} to finish, to copy what it compiled for the \
             cart (Ctrl-C stops waiting: the cart is made, and `bt attach` in it copies later)",
            crate::quote::path(profile)
        )
    } else {
        format!(
            "bt: still waiting for the build using {} ({} min so far)",
            crate::quote::path(profile),
            waited.as_secs() / 60
        )
    };
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Seeds one profile folder `to` from BT's `from`, both locked while it runs.
fn seed_profile(
    from: &Path,
    to: &Path,
    patience: Patience,
    seeded: &mut Seeded,
) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", crate::quote::path(to)))?;
    let _theirs = lock(from, false, patience)?;
    let _ours = lock(to, true, patience)?;
    let copy_error = |e: std::io::Error| {
        format!(
            "copying {} into {}: {e}; what is missing is compiled instead",
            crate::quote::path(from),
            crate::quote::path(to)
        )
    };
    // Build scripts and libraries first, Cargo's records of them last: a seed cut short leaves
    // outputs Cargo has no record of (and compiles again), never a record of a missing output.
    sync_units(&from.join("build"), &to.join("build"), seeded).map_err(copy_error)?;
    sync_libraries(&from.join("deps"), &to.join("deps"), seeded).map_err(copy_error)?;
    sync_units(&from.join(".fingerprint"), &to.join(".fingerprint"), seeded).map_err(copy_error)
}

/// The suffix of a file or folder being copied in, renamed to its real name once complete.
const PART: &str = ".bt-seed";

/// Copies each compiled library file of `from` (every regular file but executables, which
/// are BT's tests and programs: no extension, or `.exe`) that `to` lacks or has older.
fn sync_libraries(from: &Path, to: &Path, seeded: &mut Seeded) -> std::io::Result<()> {
    if !from.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        let meta = entry.metadata()?;
        let executable = path
            .extension()
            .is_none_or(|e| e.eq_ignore_ascii_case("exe"));
        if !meta.is_file() || executable {
            continue;
        }
        let dest = to.join(entry.file_name());
        let modified = meta.modified()?;
        if dest
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|ours| ours >= modified)
        {
            continue;
        }
        let part = part_of(&dest);
        copy_file(&path, &part, modified, seeded)?;
        fs::rename(&part, &dest)?;
    }
    Ok(())
}

/// Copies each unit folder of `from` (one per package and build step) that `to` lacks, or
/// holds with an older newest file, as a whole: a unit is never half BT's and half another's.
fn sync_units(from: &Path, to: &Path, seeded: &mut Seeded) -> std::io::Result<()> {
    if !from.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let dest = to.join(entry.file_name());
        let theirs = newest(&entry.path())?;
        if dest.is_dir() && newest(&dest).is_ok_and(|ours| ours >= theirs) {
            continue;
        }
        let part = part_of(&dest);
        if part.exists() {
            fs::remove_dir_all(&part)?;
        }
        copy_tree(&entry.path(), &part, seeded)?;
        if dest.symlink_metadata().is_ok() {
            fs::remove_dir_all(&dest)?;
        }
        fs::rename(&part, &dest)?;
    }
    Ok(())
}

fn part_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(PART);
    path.with_file_name(name)
}

/// The newest modification time of the files under `dir` (the epoch when it has none).
fn newest(dir: &Path) -> std::io::Result<SystemTime> {
    let mut latest = SystemTime::UNIX_EPOCH;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let time = if kind.is_dir() {
            newest(&entry.path())?
        } else {
            entry.metadata()?.modified()?
        };
        latest = latest.max(time);
    }
    Ok(latest)
}

/// Copies the folder `from` to the new folder `to`, files with their modification times;
/// links (Cargo makes none here) are left out.
fn copy_tree(from: &Path, to: &Path, seeded: &mut Seeded) -> std::io::Result<()> {
    fs::create_dir(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest, seeded)?;
        } else if kind.is_file() {
            copy_file(&entry.path(), &dest, entry.metadata()?.modified()?, seeded)?;
        }
    }
    Ok(())
}

/// Copies one file (with its permissions, so build scripts stay executable) and gives the
/// copy the original's modification time.
fn copy_file(
    from: &Path,
    to: &Path,
    modified: SystemTime,
    seeded: &mut Seeded,
) -> std::io::Result<()> {
    let bytes = fs::copy(from, to)?;
    File::options()
        .write(true)
        .open(to)?
        .set_times(FileTimes::new().set_modified(modified))?;
    seeded.files += 1;
    seeded.bytes += bytes;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bt-seed-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_at(path: &Path, text: &str, secs: u64) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        let time = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_times(FileTimes::new().set_modified(time))
            .unwrap();
    }

    fn mtime(path: &Path) -> u64 {
        let m = path.metadata().unwrap().modified().unwrap();
        m.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs()
    }

    /// A build folder as Cargo leaves it: a library, a test executable, a build script's
    /// folder, a record, and a program at the top.
    fn bts_build(target: &Path, secs: u64) {
        let release = target.join("release");
        write_at(&release.join("deps/libfoo-1.rlib"), "rlib", secs);
        write_at(&release.join("deps/libfoo-1.rmeta"), "rmeta", secs);
        write_at(&release.join("deps/foo-1.d"), "dep-info", secs);
        write_at(&release.join("deps/tests-2"), "a test executable", secs);
        write_at(&release.join("build/foo-3/out/gen.rs"), "generated", secs);
        write_at(&release.join("build/foo-3/output"), "cargo:rerun", secs);
        write_at(&release.join(".fingerprint/foo-1/lib-foo"), "hash", secs);
        write_at(&release.join("bt"), "BT's program", secs);
        write_at(&release.join(".cargo-lock"), "", secs);
        // Not a profile: no records of Cargo's.
        write_at(&target.join("web/page.html"), "<p>", secs);
    }

    #[test]
    fn a_seed_copies_libraries_build_scripts_and_records_with_their_times() {
        let dir = scratch("copies");
        let (bt, shared) = (dir.join("bt-target"), dir.join("shared"));
        bts_build(&bt, 1_000_000);
        let seeded = seed(&shared, std::slice::from_ref(&bt), Patience::PassOver);
        assert!(seeded.notes.is_empty(), "{:?}", seeded.notes);
        assert_eq!(seeded.from, [bt.join("release")]);
        for copied in [
            "deps/libfoo-1.rlib",
            "deps/libfoo-1.rmeta",
            "deps/foo-1.d",
            "build/foo-3/out/gen.rs",
            "build/foo-3/output",
            ".fingerprint/foo-1/lib-foo",
        ] {
            let path = shared.join("release").join(copied);
            assert_eq!(mtime(&path), 1_000_000, "{copied} keeps its time");
        }
        assert_eq!(seeded.files, 6);
        for left in ["release/deps/tests-2", "release/bt", "web"] {
            assert!(!shared.join(left).exists(), "{left} is not copied");
        }
        let parts: Vec<_> = fs::read_dir(shared.join("release/deps"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(PART))
            .collect();
        assert!(parts.is_empty(), "no part-copied file is left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_seed_copies_only_what_bt_compiled_since_and_keeps_what_is_newer() {
        let dir = scratch("newer");
        let (bt, shared) = (dir.join("bt-target"), dir.join("shared"));
        bts_build(&bt, 1_000_000);
        seed(&shared, std::slice::from_ref(&bt), Patience::PassOver);
        assert_eq!(
            seed(&shared, std::slice::from_ref(&bt), Patience::PassOver).files,
            0
        );
        // BT compiled foo again; a cart compiled its own bar into the shared folder later.
        write_at(&bt.join("release/deps/libfoo-1.rlib"), "rlib 2", 2_000_000);
        write_at(
            &shared.join("release/deps/libbar-9.rlib"),
            "a cart's",
            3_000_000,
        );
        let own = shared.join("release/.fingerprint/foo-1/lib-foo");
        write_at(&own, "the shared folder's own, newer", 4_000_000);
        let seeded = seed(&shared, std::slice::from_ref(&bt), Patience::PassOver);
        assert_eq!(seeded.files, 1, "only the newer library");
        let rlib = shared.join("release/deps/libfoo-1.rlib");
        assert_eq!(fs::read_to_string(rlib).unwrap(), "rlib 2");
        assert_eq!(
            fs::read_to_string(&own).unwrap(),
            "the shared folder's own, newer"
        );
        assert!(shared.join("release/deps/libbar-9.rlib").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_profile_a_build_holds_is_passed_over_and_said() {
        let dir = scratch("locked");
        let (bt, shared) = (dir.join("bt-target"), dir.join("shared"));
        bts_build(&bt, 1_000_000);
        // A build of BT's holds its profile's lock.
        let held = File::open(bt.join("release/.cargo-lock")).unwrap();
        held.lock().unwrap();
        let seeded = seed(&shared, std::slice::from_ref(&bt), Patience::PassOver);
        assert_eq!(seeded.files, 0);
        assert!(seeded.from.is_empty());
        assert_eq!(seeded.notes.len(), 1);
        assert!(
            seeded.notes[0].contains("release is in use by a build"),
            "{:?}",
            seeded.notes
        );
        held.unlock().unwrap();
        assert_eq!(
            seed(&shared, std::slice::from_ref(&bt), Patience::PassOver).files,
            6
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_seed_that_waits_copies_once_the_build_holding_bt_s_folder_is_done() {
        let dir = scratch("waits");
        let (bt, shared) = (dir.join("bt-target"), dir.join("shared"));
        bts_build(&bt, 1_000_000);
        let held = File::open(bt.join("release/.cargo-lock")).unwrap();
        held.lock().unwrap();
        let (sent, got) = std::sync::mpsc::channel();
        let seeding = {
            let (bt, shared) = (bt.clone(), shared.clone());
            std::thread::spawn(move || {
                let seeded = seed(&shared, std::slice::from_ref(&bt), Patience::Wait);
                let _ = sent.send(());
                seeded
            })
        };
        // The build goes on: the seed waits for it rather than giving up.
        assert!(got
            .recv_timeout(std::time::Duration::from_millis(600))
            .is_err());
        held.unlock().unwrap();
        let seeded = seeding.join().unwrap();
        assert!(seeded.notes.is_empty(), "{:?}", seeded.notes);
        assert_eq!(seeded.files, 6);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_checkout_has_its_own_shared_folder() {
        let a = key(Path::new("/home/ada/bt"));
        let b = key(Path::new("/home/ada/src/bt"));
        assert!(a.starts_with("bt-") && b.starts_with("bt-"), "{a} {b}");
        assert_ne!(a, b);
        assert_eq!(a, key(Path::new("/home/ada/bt")), "the same each time");
        assert!(key(Path::new("/")).starts_with("bt-"));
        assert!(key(Path::new("/x/my checkout!")).starts_with("my-checkout--"));
    }
}
