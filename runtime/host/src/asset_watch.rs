//! Noticing that a cart's files changed on disk, so `bt run` can reload them while it plays.
//!
//! A background thread looks at the files' sizes and modification times four times a second
//! and raises a flag when anything differs, keeping the names of the files that did; the frame
//! loop reads the flag, which costs one atomic load, and takes the names only when it is up. Polling needs no platform API and works the same on every file system,
//! network shares included; a cart's asset folder holds a handful of files, so a look costs
//! microseconds.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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
    /// The names of the files that changed since they were last taken.
    names: Arc<Mutex<Vec<String>>>,
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
    /// The watched folder, which the names of the files in it are relative to.
    folder: Option<PathBuf>,
    before: Snapshot,
}

impl Files {
    fn new(roots: Vec<PathBuf>, folder: Option<PathBuf>) -> Files {
        let before = look(&roots);
        Files {
            roots,
            folder,
            before,
        }
    }

    /// Looks again: the names of the files that were added, removed or changed since the
    /// previous look, sorted (empty: nothing changed). A file in the watched folder is named
    /// by its path in it, with `/` between folders, as a cart names it in `load_image`; a
    /// single watched file by its path as given.
    fn changed(&mut self) -> Vec<String> {
        let now = look(&self.roots);
        let mut names = Vec::new();
        if now != self.before {
            // Both looks are sorted by path: walk them side by side.
            let (old, new) = (&self.before, &now);
            let (mut i, mut j) = (0, 0);
            while i < old.len() || j < new.len() {
                let path = match (old.get(i), new.get(j)) {
                    (Some(a), Some(b)) if a.0 == b.0 => {
                        i += 1;
                        j += 1;
                        if a == b {
                            continue;
                        }
                        &b.0
                    }
                    (Some(a), Some(b)) if a.0 < b.0 => {
                        i += 1;
                        &a.0
                    }
                    (Some(a), None) => {
                        i += 1;
                        &a.0
                    }
                    (_, Some(b)) => {
                        j += 1;
                        &b.0
                    }
                    (None, None) => break,
                };
                names.push(self.name(path));
            }
        }
        self.before = now;
        names.sort();
        names.dedup();
        names
    }

    fn name(&self, path: &Path) -> String {
        match self
            .folder
            .as_deref()
            .and_then(|f| path.strip_prefix(f).ok())
        {
            Some(inside) => inside
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            None => path.display().to_string(),
        }
    }
}

impl AssetWatcher {
    /// Starts watching `folder` (recursively) and `files`, looking every [`POLL_INTERVAL`].
    pub fn new(folder: Option<&Path>, files: &[PathBuf]) -> AssetWatcher {
        AssetWatcher::every(folder, files, POLL_INTERVAL)
    }

    /// Starts watching `folder` (recursively) and `files`, looking every `interval`.
    pub fn every(folder: Option<&Path>, files: &[PathBuf], interval: Duration) -> AssetWatcher {
        let roots: Vec<PathBuf> = folder
            .map(Path::to_path_buf)
            .into_iter()
            .chain(files.iter().cloned())
            .collect();
        let changed = Arc::new(AtomicBool::new(false));
        let names = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, halt, kept) = (changed.clone(), stop.clone(), names.clone());
        let folder = folder.map(Path::to_path_buf);
        let spawned = thread::Builder::new()
            .name("bt-asset-watch".into())
            .spawn(move || {
                let mut files = Files::new(roots, folder);
                while !halt.load(Ordering::Relaxed) {
                    thread::sleep(interval);
                    let changed = files.changed();
                    if !changed.is_empty() {
                        let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                        for name in changed {
                            if !kept.contains(&name) {
                                kept.push(name);
                            }
                        }
                        flag.store(true, Ordering::Release);
                    }
                }
            });
        if spawned.is_err() {
            // No thread, no reloads: the game itself is unaffected.
            stop.store(true, Ordering::Relaxed);
        }
        AssetWatcher {
            changed,
            names,
            stop,
        }
    }

    /// The names of the files that changed since the last call, sorted; `None` when nothing
    /// did. Clears them. A file in the watched folder is named by its path in it, with `/`
    /// between folders, as a cart names it; a single watched file by its path as given.
    pub fn take_changes(&self) -> Option<Vec<String>> {
        if !(self.changed.load(Ordering::Acquire) && self.changed.swap(false, Ordering::AcqRel)) {
            return None;
        }
        let mut names = std::mem::take(&mut *self.names.lock().unwrap_or_else(|e| e.into_inner()));
        names.sort();
        Some(names)
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
        let mut files = Files::new(vec![assets.clone(), outside.clone()], Some(assets.clone()));
        let none: Vec<String> = Vec::new();
        assert_eq!(files.changed(), none, "nothing changed yet");
        std::fs::write(assets.join("a.png"), "two!").unwrap();
        assert_eq!(files.changed(), ["a.png"], "a rewritten file");
        assert_eq!(files.changed(), none, "seen once");
        std::fs::write(assets.join("sub/b.png"), "new").unwrap();
        assert_eq!(files.changed(), ["sub/b.png"], "a new file in a subfolder");
        std::fs::write(&outside, "ffffff\n").unwrap();
        assert_eq!(
            files.changed(),
            [outside.display().to_string()],
            "a single watched file, by its path"
        );
        std::fs::remove_file(assets.join("a.png")).unwrap();
        std::fs::write(assets.join("sub/b.png"), "newer").unwrap();
        assert_eq!(
            files.changed(),
            ["a.png", "sub/b.png"],
            "a removed file and a changed one"
        );
        assert_eq!(files.changed(), none);
    }

    #[test]
    fn the_changes_are_taken_once() {
        let w = AssetWatcher::new(None, &[]);
        assert_eq!(w.take_changes(), None);
        w.names.lock().unwrap().push("b.png".into());
        w.names.lock().unwrap().push("a.png".into());
        w.changed.store(true, Ordering::Release);
        assert_eq!(w.take_changes(), Some(vec!["a.png".into(), "b.png".into()]));
        assert_eq!(w.take_changes(), None, "the flag clears");
    }
}
