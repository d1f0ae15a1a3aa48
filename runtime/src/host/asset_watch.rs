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
                let mut before = look(&roots);
                while !halt.load(Ordering::Relaxed) {
                    thread::sleep(POLL_INTERVAL);
                    let now = look(&roots);
                    if now != before {
                        flag.store(true, Ordering::Release);
                        before = now;
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
    use std::time::Instant;

    /// Waits up to five seconds for a change to be noticed.
    fn noticed(w: &AssetWatcher) -> bool {
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if w.take_change() {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }

    #[test]
    fn a_changed_added_or_removed_file_is_noticed_once() {
        let dir = std::env::temp_dir().join(format!("bt-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.png"), "one").unwrap();
        let outside = dir.with_extension("hex");
        std::fs::write(&outside, "000000").unwrap();
        let w = AssetWatcher::new(Some(&dir), std::slice::from_ref(&outside));
        thread::sleep(POLL_INTERVAL * 2);
        assert!(!w.take_change(), "nothing changed yet");
        std::fs::write(dir.join("a.png"), "two!").unwrap();
        assert!(noticed(&w), "a rewritten file");
        assert!(!w.take_change(), "the flag clears");
        std::fs::write(dir.join("sub/b.png"), "new").unwrap();
        assert!(noticed(&w), "a new file in a subfolder");
        std::fs::write(&outside, "ffffff\n").unwrap();
        assert!(noticed(&w), "a single watched file");
        std::fs::remove_file(dir.join("a.png")).unwrap();
        assert!(noticed(&w), "a removed file");
        drop(w);
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&outside).unwrap();
    }
}
