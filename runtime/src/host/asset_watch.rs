//! Noticing that a cart's files changed on disk, so `bt run` can reload them while it plays.
//!
//! A background thread looks at the files' sizes and modification times four times a second
//! and raises a flag when anything differs; the frame loop reads the flag, which costs one
//! atomic load. Polling needs no platform API and works the same on every file system,
//! network shares included; a cart's asset folder holds a handful of files, so a look costs
//! microseconds.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, SystemTime};

/// How often the files are looked at: a change shows within about this long.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Files looked at, at most: a folder larger than this is not an asset folder.
const MAX_FILES: usize = 4096;

/// Watches a folder (and everything in it) and single files for changes.
#[derive(Debug)]
pub struct AssetWatcher {
    changed: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

/// One look at the watched files: path, size and modification time of each, in order.
type Snapshot = Vec<(PathBuf, u64, Option<SystemTime>)>;

fn look(roots: &[PathBuf]) -> Snapshot {
    let mut seen = Vec::new();
    let mut pending: Vec<PathBuf> = roots.to_vec();
    while let Some(path) = pending.pop() {
        if seen.len() >= MAX_FILES {
            break;
        }
        let Ok(meta) = std::fs::metadata(&path) else {
            // Gone (or not there yet): its absence is part of the picture.
            seen.push((path, u64::MAX, None));
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&path) {
                pending.extend(entries.flatten().map(|e| e.path()));
            }
        } else {
            seen.push((path, meta.len(), meta.modified().ok()));
        }
    }
    seen.sort();
    seen
}

/// The watched files and what they looked like last time: the watcher thread's state, kept
/// apart from the thread so a test can look synchronously.
struct Files {
    roots: Vec<PathBuf>,
    before: Snapshot,
}

impl Files {
    fn new(roots: Vec<PathBuf>) -> Files {
        let before = look(&roots);
        Files { roots, before }
    }

    /// Looks again: whether anything differs from the previous look.
    fn changed(&mut self) -> bool {
        let now = look(&self.roots);
        let changed = now != self.before;
        self.before = now;
        changed
    }
}

impl AssetWatcher {
    /// Starts watching `folder` (recursively) and `files`.
    pub fn new(folder: Option<&Path>, files: &[PathBuf]) -> AssetWatcher {
        let roots: Vec<PathBuf> = folder
            .map(Path::to_path_buf)
            .into_iter()
            .chain(files.iter().cloned())
            .collect();
        let changed = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, halt) = (changed.clone(), stop.clone());
        let spawned = thread::Builder::new()
            .name("bt-asset-watch".into())
            .spawn(move || {
                let mut files = Files::new(roots);
                while !halt.load(Ordering::Relaxed) {
                    thread::sleep(POLL_INTERVAL);
                    if files.changed() {
                        flag.store(true, Ordering::Release);
                    }
                }
            });
        if spawned.is_err() {
            // No thread, no reloads: the game itself is unaffected.
            stop.store(true, Ordering::Relaxed);
        }
        AssetWatcher { changed, stop }
    }

    /// Whether anything changed since the last call (and clears the flag).
    pub fn take_change(&self) -> bool {
        self.changed.load(Ordering::Acquire) && self.changed.swap(false, Ordering::AcqRel)
    }
}

impl Drop for AssetWatcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_added_or_removed_file_is_noticed_once() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let outside = dir.join("outside.hex");
        std::fs::write(&outside, "000000").unwrap();
        // The folder `assets` and one file beside it, looked at synchronously: no thread, no
        // waiting on the clock.
        std::fs::create_dir_all(dir.join("assets/sub")).unwrap();
        let assets = dir.join("assets");
        std::fs::write(assets.join("a.png"), "one").unwrap();
        let mut files = Files::new(vec![assets.clone(), outside.clone()]);
        assert!(!files.changed(), "nothing changed yet");
        std::fs::write(assets.join("a.png"), "two!").unwrap();
        assert!(files.changed(), "a rewritten file");
        assert!(!files.changed(), "seen once");
        std::fs::write(assets.join("sub/b.png"), "new").unwrap();
        assert!(files.changed(), "a new file in a subfolder");
        std::fs::write(&outside, "ffffff\n").unwrap();
        assert!(files.changed(), "a single watched file");
        std::fs::remove_file(assets.join("a.png")).unwrap();
        assert!(files.changed(), "a removed file");
        assert!(!files.changed());
    }

    #[test]
    fn the_change_flag_is_taken_once() {
        let w = AssetWatcher::new(None, &[]);
        assert!(!w.take_change());
        w.changed.store(true, Ordering::Release);
        assert!(w.take_change());
        assert!(!w.take_change(), "the flag clears");
    }
}
