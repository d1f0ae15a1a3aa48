//! `bt sound-edit`: the sound editor in a window. This file is the platform's side of it: it
//! finds and reads the file, and writes what the editor saves; the editor itself is a cart
//! ([`crate::sound_edit`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bt::Cart;

use crate::cli::args::SoundEditArgs;
use crate::cli::Offer;
use crate::config::manifest::SettingsPatch;
use crate::session::{BootSave, MakeCart, Session};
use crate::sound_edit::{SaveTarget, SoundDoc, SoundEditor};

use super::{note, say, Failure};

/// The longest sound file the editor opens: a file of 64 notes in each of a thousand sound
/// effects is under 1 MiB; a larger one is not a sound file (a wrong path).
pub const MAX_SOUND_FILE: u64 = 4 << 20;

/// The most files of a cart's asset folder looked at for its sound file.
const MAX_ASSET_FILES: usize = 4096;

pub(super) fn sound_edit(offer: &Offer, args: SoundEditArgs) -> Result<(), Failure> {
    let path = sound_file(offer, args.target.as_deref())?;
    let (doc, on_disk) = open(&path)?;
    let target = FileTarget::new(path.clone(), doc, on_disk);
    let make: MakeCart = Arc::new(move || {
        // A cart built again (a seek from the start) opens the file as last saved.
        let doc = target.last_saved();
        Box::new(SoundEditor::new(doc, Box::new(target.clone()))) as Box<dyn Cart>
    });
    let session = Session::builder("sound-edit", make)
        .command_line(SettingsPatch {
            window_scale: args.window.scale,
            ..SettingsPatch::default()
        })
        .save(BootSave::Empty)
        .overlay(true)
        .resolve()
        .map_err(|e| e.to_string())?;
    let engine = session.engine().map_err(|e| e.to_string())?;
    let window = crate::host::window::WindowOptions {
        // The editor's file is its own; nothing else is watched.
        no_watch: true,
        ..args.window.options()
    };
    super::play::load_keys(window.keys.as_deref())?;
    say(format_args!("editing {}\n", crate::quote::path(&path)))?;
    crate::host::window::run_cart(engine, &session, &window)?;
    Ok(())
}

/// Where Ctrl+S writes: the file, atomically, as every output of BT is written (a temporary
/// file beside it renamed over it, its permissions kept, a link written through to its
/// target), and only over what this editor last read or wrote there.
///
/// A file changed on disk since (by a text editor, another sound editor, git) is not written
/// over: the save is refused with one line saying so, and a second Ctrl+S with the file still
/// as it was then writes over it, the user having been told. A FIFO, a device or a socket put
/// in the file's place is refused, never opened. Every refusal is said on stderr too, whole,
/// as the window's status line may cut it.
#[derive(Clone)]
struct FileTarget {
    path: PathBuf,
    /// Shared by every editor built for the window (a seek from the start builds one again).
    state: Arc<Mutex<Saved>>,
}

/// What a [`FileTarget`] knows of its file.
struct Saved {
    /// The document as last saved, for an editor built again.
    doc: SoundDoc,
    /// The file's bytes as last read or written here; `None` when there was no file.
    on_disk: Option<Vec<u8>>,
    /// After a save refused because the file had changed: what the file held then. A save
    /// that finds the file still so writes over it.
    told: Option<Option<Vec<u8>>>,
}

impl FileTarget {
    fn new(path: PathBuf, doc: SoundDoc, on_disk: Option<Vec<u8>>) -> FileTarget {
        FileTarget {
            path,
            state: Arc::new(Mutex::new(Saved {
                doc,
                on_disk,
                told: None,
            })),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Saved> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn last_saved(&self) -> SoundDoc {
        self.state().doc.clone()
    }

    /// Writes `text` unless the file changed on disk since it was read or written here.
    fn write(&self, text: &str) -> Result<(), String> {
        let shown = crate::quote::path(&self.path);
        let now = on_disk(&self.path)?;
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
        crate::export::safe_write::replace_file(&self.path, text.as_bytes())
            .map_err(|e| e.to_string())?;
        state.on_disk = Some(text.as_bytes().to_vec());
        state.told = None;
        if let Ok(doc) = SoundDoc::read(&self.path.display().to_string(), text) {
            state.doc = doc;
        }
        Ok(())
    }
}

impl SaveTarget for FileTarget {
    fn save(&mut self, text: &str) -> Result<(), String> {
        match self.write(text) {
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
fn on_disk(path: &Path) -> Result<Option<Vec<u8>>, String> {
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
    // A file grown past a sound file's size has changed too: only whether it did matters.
    crate::config::read::read_named("sound file", path, MAX_SOUND_FILE + 1)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The file `target` names: a path, or a cart whose asset folder holds one sound file (a
/// cart crate's own binary: its cart, when none is named).
fn sound_file(offer: &Offer, target: Option<&Path>) -> Result<PathBuf, String> {
    let cart = match target {
        // A path: it exists, or has a folder or an extension in it (a cart's name has none).
        Some(t) if t.exists() || t.components().count() > 1 || t.extension().is_some() => {
            return Ok(t.to_path_buf())
        }
        Some(t) => Some(t.to_string_lossy().into_owned()),
        None => None,
    };
    let chosen = offer.choose(cart.as_deref()).map_err(|e| match &cart {
        Some(name) => format!(
            "{}: no such file, and not a cart ({e})",
            crate::quote::excerpt(name)
        ),
        None => format!("name a sound file to edit, or a cart: {e}"),
    })?;
    let Some(assets) = chosen.assets else {
        return Err(format!(
            "the cart '{}' has no asset folder, so no sound file; name one to make: bt \
             sound-edit PATH/sounds.txt",
            chosen.name
        ));
    };
    let mut found = sound_files_in(&assets);
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!(
            "the cart '{}' has no sound file in {} (a file starting 'bt-sound 2'); name one to \
             make: bt sound-edit {}",
            chosen.name,
            crate::quote::path(&assets),
            crate::quote::path(&assets.join("sounds.txt"))
        )),
        _ => Err(format!(
            "the cart '{}' has {} sound files; name the one to edit: {}",
            chosen.name,
            found.len(),
            found
                .iter()
                .map(|p| crate::quote::path(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The sound files in `dir` and its folders: files whose first line with words is a sound
/// file's header, in name order.
fn sound_files_in(dir: &Path) -> Vec<PathBuf> {
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
                Ok(_) if is_sound_file(&path) => found.push(path),
                _ => {}
            }
        }
    }
    found.sort();
    found
}

/// Whether `path` is a small text file whose first line with words is `bt-sound N`.
fn is_sound_file(path: &Path) -> bool {
    let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= MAX_SOUND_FILE);
    let Some(text) = small
        .then(|| crate::config::read::read_file(path, MAX_SOUND_FILE).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return false;
    };
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("bt-sound "))
}

/// The document for `path`, read and checked, or a new one when nothing is there yet; with
/// the file's bytes as read.
fn open(path: &Path) -> Result<(SoundDoc, Option<Vec<u8>>), String> {
    let shown = crate::quote::path(path);
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if !folder.is_dir() {
                return Err(format!(
                    "{shown}: there is no folder {} to make it in",
                    crate::quote::path(folder)
                ));
            }
            note(format_args!(
                "{shown} does not exist yet: it is made when you save (Ctrl+S)"
            ));
            return Ok((SoundDoc::new_file(&shown), None));
        }
        Err(e) => return Err(format!("{shown}: could not read it: {e}")),
    };
    if meta.is_dir() {
        return Err(format!("{shown} is a folder; name a sound file in it"));
    }
    if meta.len() > MAX_SOUND_FILE {
        return Err(format!(
            "{shown}: the file is {} bytes; a sound file is at most {MAX_SOUND_FILE}",
            meta.len()
        ));
    }
    let bytes = crate::config::read::read_named("sound file", path, MAX_SOUND_FILE)
        .map_err(|e| e.to_string())?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        format!(
            "{shown}: not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        )
    })?;
    let doc = SoundDoc::read(&shown, text).map_err(|e| e.to_string())?;
    Ok((doc, Some(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = "bt-sound 2\n";

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bt-sound-save-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn opened(path: &Path) -> FileTarget {
        let (doc, on_disk) = open(path).expect("the file opens");
        FileTarget::new(path.to_path_buf(), doc, on_disk)
    }

    #[test]
    fn a_change_made_on_disk_after_opening_is_not_saved_over_until_a_second_ctrl_s() {
        let dir = folder("changed");
        let path = dir.join("tune.txt");
        std::fs::write(&path, FIRST).unwrap();
        let mut target = opened(&path);
        target
            .save("bt-sound 2\n# mine\n")
            .expect("an unchanged file is saved over");
        target
            .save("bt-sound 2\n# mine, again\n")
            .expect("and again");

        let outside = "bt-sound 2\n# written in a text editor\n";
        std::fs::write(&path, outside).unwrap();
        let e = target
            .save("bt-sound 2\n# mine, a third time\n")
            .unwrap_err();
        assert!(e.contains("changed on disk since it was opened"), "{e}");
        assert!(e.contains("tune.txt"), "the message names the file: {e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), outside, "kept");

        // Told, the user saves again: now it is theirs to write over.
        target.save("bt-sound 2\n# mine, a third time\n").unwrap();
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
        one.save("bt-sound 2\n# one\n").unwrap();
        assert!(two.save("bt-sound 2\n# two\n").is_err());
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
