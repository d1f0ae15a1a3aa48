//! The file an editor of BT's own (`bt sound-edit`, `bt sprite-edit`, `bt map-edit`) opened,
//! and the one way each of them writes it back.
//!
//! A save goes to the file atomically, as every output of BT does (a temporary file beside it
//! renamed over it, its permissions kept, a link written through to its target), and only over
//! what this editor last read or wrote there. A file changed on disk since (by a text editor,
//! another editor, git) is not written over: the save is refused with one line saying so, and
//! a second Ctrl+S with the file still as it was then writes over it, the user having been
//! told. A FIFO, a device or a socket put in the file's place is refused, never opened. Every
//! refusal is said on stderr too, whole, as the window's status line may cut it.
//!
//! [`run_editor`] runs any of them in a window, its files as the session's cart arguments.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::cli::args::EditorArgs;
use crate::cli::editors::{editor_cart, Targets};
use crate::config::manifest::SettingsPatch;
use crate::edit::{OpenedFiles, SaveTarget};
use crate::session::{BootSave, Session};

use super::{note, say, Failure};

/// An opened file and what this editor knows of it; clones share it (a seek from the start
/// builds the editor cart again, and the new one must know what is on disk).
#[derive(Clone)]
pub(super) struct EditedFile {
    path: PathBuf,
    /// What the file is, in messages ("sound file", "sprite sheet").
    kind: &'static str,
    /// The most bytes read back to check for a change.
    limit: u64,
    state: Arc<Mutex<Known>>,
}

/// What an [`EditedFile`] knows of its file.
struct Known {
    /// The file's bytes as last read or written here; `None` when there was no file.
    on_disk: Option<Vec<u8>>,
    /// After a save refused because the file had changed: what the file held then. A save
    /// that finds the file still so writes over it.
    told: Option<Option<Vec<u8>>>,
}

impl EditedFile {
    /// The file at `path` as opened, holding `on_disk` (`None`: there was no file yet).
    pub(super) fn new(
        path: PathBuf,
        kind: &'static str,
        limit: u64,
        on_disk: Option<Vec<u8>>,
    ) -> EditedFile {
        EditedFile {
            path,
            kind,
            limit,
            state: Arc::new(Mutex::new(Known {
                on_disk,
                told: None,
            })),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Known> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes `bytes` unless the file changed on disk since it was read or written here.
    ///
    /// # Errors
    /// One line naming the file: changed or removed on disk, not a regular file, or the
    /// write's own failure (the old file is then intact).
    pub(super) fn write(&self, bytes: &[u8]) -> Result<(), String> {
        let shown = crate::quote::path(&self.path);
        let now = on_disk(&self.path, self.kind, self.limit)?;
        let mut state = self.state();
        if now != state.on_disk && state.told.as_ref() != Some(&now) {
            let what = if now.is_none() {
                "was removed"
            } else {
                "changed on disk"
            };
            state.told = Some(now);
            return Err(format!(
                "{shown} {what} since it was opened: not saved; Ctrl+S again writes over that"
            ));
        }
        crate::export::safe_write::replace_file(&self.path, bytes).map_err(|e| e.to_string())?;
        state.on_disk = Some(bytes.to_vec());
        state.told = None;
        Ok(())
    }
}

impl SaveTarget for EditedFile {
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        match self.write(bytes) {
            Ok(()) => {
                let _ = say(format_args!("wrote {}\n", crate::quote::path(&self.path)));
                Ok(())
            }
            Err(e) => {
                note(format_args!("not saved: {e}"));
                Err(e)
            }
        }
    }
}

/// What the file at `path` holds now: `None` when there is none. Only a regular file is read
/// (a FIFO or a device is refused without waiting on it).
///
/// # Errors
/// One line naming the file, when it is not a regular file or cannot be read.
pub(super) fn on_disk(
    path: &Path,
    kind: &'static str,
    limit: u64,
) -> Result<Option<Vec<u8>>, String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "{}: not a regular file (a FIFO, a device or a socket), so not written",
                crate::quote::path(path)
            ))
        }
        _ => {}
    }
    // A file grown past the limit has changed too: only whether it did matters.
    crate::config::read::read_named(kind, path, limit + 1)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Runs editor `name` on `files` in a window, each file's saves going where `targets` says,
/// recording the session to `record` when given. The files travel as the session's cart
/// arguments, so the recording replays with `bt replay NAME FILE.btr`.
pub(super) fn run_editor(
    name: &str,
    files: &OpenedFiles,
    targets: Targets,
    args: &EditorArgs,
    shown: &Path,
) -> Result<(), Failure> {
    let make =
        editor_cart(name, targets).ok_or_else(|| format!("{name} is not one of BT's editors"))?;
    let (window_args, record) = (&args.window, args.record.as_deref());
    let record = record.map(super::play::recording_output).transpose()?;
    let session = Session::builder(name, make)
        .command_line(SettingsPatch {
            window_scale: window_args.scale,
            ..SettingsPatch::default()
        })
        .args(files.to_args())
        .save(BootSave::Empty)
        .overlay(true)
        .resolve()
        .map_err(|e| e.to_string())?;
    let mut engine = session.engine().map_err(|e| e.to_string())?;
    let window = crate::host::window::WindowOptions {
        // The editor's files are its own; nothing else is watched.
        no_watch: true,
        editor: true,
        record: record.map(|r| r.path().to_path_buf()),
        ..window_args.options()
    };
    if window.record.is_some() {
        engine.start_recording(crate::replay::DEFAULT_HASH_EVERY);
    }
    super::play::load_keys(window.keys.as_deref())?;
    say(format_args!("editing {}\n", crate::quote::path(shown)))?;
    crate::host::window::run_cart(engine, &session, &window)?;
    Ok(())
}

/// The most files of a cart's asset folder an editor looks at for the files it opens.
pub(super) const MAX_ASSET_FILES: usize = 4096;

/// What an editor opens from a cart's asset folder when it is given a cart, not a path.
pub(super) struct Wanted {
    /// One of them, in messages ("sound file").
    pub what: &'static str,
    /// Several ("sound files").
    pub several: &'static str,
    /// Whether a file of the folder is one.
    pub is_one: fn(&Path) -> bool,
    /// What to say after "has no FILE in FOLDER" (the folder given): how to make one.
    pub none_hint: fn(&Path) -> String,
    /// What to say to a cart with no asset folder: how to name one.
    pub example: &'static str,
}

/// What an editor's `target` names: a file, or a cart whose asset folder holds its files.
pub(super) enum Named {
    /// A path: it exists, or has a folder or an extension in it (a cart's name has none).
    File(PathBuf),
    /// The cart named (a cart crate's own binary: its cart, when none is named).
    Cart(Box<crate::cli::Chosen>),
}

/// Tells a file from a cart in `target`, and finds the cart.
///
/// # Errors
/// One line naming `target` when it is neither a file nor a cart, or asking for a `what` (a
/// file of the kind the editor edits) or a cart when none is named and the binary has several.
pub(super) fn named(
    offer: &crate::cli::Offer,
    target: Option<&Path>,
    what: &str,
) -> Result<Named, String> {
    let cart = match target {
        Some(t) if t.exists() || t.components().count() > 1 || t.extension().is_some() => {
            return Ok(Named::File(t.to_path_buf()))
        }
        Some(t) => Some(t.to_string_lossy().into_owned()),
        None => None,
    };
    offer
        .choose(cart.as_deref())
        .map(|chosen| Named::Cart(Box::new(chosen)))
        .map_err(|e| match &cart {
            Some(name) => format!(
                "{}: no such file, and not a cart ({e})",
                crate::quote::excerpt(name)
            ),
            None => format!("name a {what} to edit, or a cart: {e}"),
        })
}

/// The file `target` names: a path (it exists, or has a folder or an extension in it: a
/// cart's name has none), or the one file `wanted` of the asset folder of the cart it names
/// (a cart crate's own binary: its cart, when none is named).
///
/// # Errors
/// One line: no such file nor cart, a cart with no asset folder, or none or several files.
pub(super) fn one_file(
    offer: &crate::cli::Offer,
    target: Option<&Path>,
    wanted: &Wanted,
) -> Result<PathBuf, String> {
    let chosen = match named(offer, target, wanted.what)? {
        Named::File(path) => return Ok(path),
        Named::Cart(chosen) => *chosen,
    };
    let Some(assets) = chosen.assets else {
        return Err(format!(
            "the cart '{}' has no asset folder, so no {}; {}",
            chosen.name, wanted.what, wanted.example
        ));
    };
    let mut found = files_in(&assets, wanted.is_one);
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!(
            "the cart '{}' has no {} in {}{}",
            chosen.name,
            wanted.what,
            crate::quote::path(&assets),
            (wanted.none_hint)(&assets)
        )),
        _ => Err(format!(
            "the cart '{}' has {} {}; name the one to edit: {}",
            chosen.name,
            found.len(),
            wanted.several,
            found
                .iter()
                .map(|p| crate::quote::path(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The entries in `dir` and its folders (not following links to folders) that `keep` takes,
/// in name order; at most
/// [`MAX_ASSET_FILES`] entries are looked at.
pub(super) fn files_in(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    let mut looked = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            looked += 1;
            if looked > MAX_ASSET_FILES {
                break;
            }
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(path),
                // Links and other kinds too: the reader then refuses what it must, saying
                // why, rather than the file going unseen.
                Ok(_) if keep(&path) => found.push(path),
                _ => {}
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &[u8] = b"bt-sound 2\n";
    const LIMIT: u64 = 1 << 20;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bt-edited-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn opened(path: &Path) -> EditedFile {
        let bytes = on_disk(path, "sound file", LIMIT).expect("the file reads");
        EditedFile::new(path.to_path_buf(), "sound file", LIMIT, bytes)
    }

    #[test]
    fn a_change_made_on_disk_after_opening_is_not_saved_over_until_a_second_ctrl_s() {
        let dir = folder("changed");
        let path = dir.join("tune.txt");
        std::fs::write(&path, FIRST).unwrap();
        let mut target = opened(&path);
        target
            .save(b"bt-sound 2\n# mine\n")
            .expect("an unchanged file is saved over");
        target
            .save(b"bt-sound 2\n# mine, again\n")
            .expect("and again");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"bt-sound 2\n# mine, again\n"
        );

        let outside = "bt-sound 2\n# written in a text editor\n";
        std::fs::write(&path, outside).unwrap();
        let e = target
            .save(b"bt-sound 2\n# mine, a third time\n")
            .unwrap_err();
        assert!(e.contains("changed on disk since it was opened"), "{e}");
        assert!(e.contains("tune.txt"), "the message names the file: {e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), outside, "kept");

        // Told, the user saves again: now it is theirs to write over.
        target.save(b"bt-sound 2\n# mine, a third time\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "bt-sound 2\n# mine, a third time\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_editors_of_one_file_do_not_lose_each_others_saves() {
        let dir = folder("two");
        let path = dir.join("tune.txt");
        std::fs::write(&path, FIRST).unwrap();
        let mut one = opened(&path);
        let mut two = opened(&path);
        one.save(b"bt-sound 2\n# one\n").unwrap();
        assert!(two.save(b"bt-sound 2\n# two\n").is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "bt-sound 2\n# one\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_made_by_someone_else_after_opening_a_new_one_is_not_saved_over() {
        let dir = folder("new");
        let path = dir.join("tune.txt");
        let mut target = opened(&path);
        std::fs::write(&path, "bt-sound 2\n# theirs\n").unwrap();
        assert!(target.save(FIRST).is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "bt-sound 2\n# theirs\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_put_in_the_files_place_is_refused_at_save_without_waiting_on_it() {
        let dir = folder("fifo");
        let path = dir.join("tune.txt");
        std::fs::write(&path, FIRST).unwrap();
        let target = opened(&path);
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (sent, got) = std::sync::mpsc::channel();
        let mut saving = target.clone();
        std::thread::spawn(move || {
            let _ = sent.send(saving.save(FIRST));
        });
        // Twice: once as a changed file, once more as the user's second Ctrl+S.
        let first = got
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the save returns instead of waiting on the FIFO");
        let e = first.unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let mut again = target;
        let e = again.save(FIRST).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_fifo());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
