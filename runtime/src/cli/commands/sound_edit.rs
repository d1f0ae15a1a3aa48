//! `bt sound-edit`: the sound editor in a window. This file is the platform's side of it: it
//! finds and reads the file, and writes what the editor saves; the editor itself is a cart
//! ([`crate::sound_edit`]).

use std::path::Path;
use std::sync::Arc;

use crate::cli::args::SoundEditArgs;
use crate::cli::editors::Targets;
use crate::cli::Offer;
use crate::edit::{OpenedFile, OpenedFiles, SaveTarget};
use crate::sound_edit::SoundDoc;

use super::edited_file::{one_file, run_editor, EditedFile, Wanted};

use super::{note, Failure};

/// The longest sound file the editor opens: a file of 64 notes in each of a thousand sound
/// effects is under 1 MiB; a larger one is not a sound file (a wrong path).
pub const MAX_SOUND_FILE: u64 = 4 << 20;

pub(super) fn sound_edit(offer: &Offer, args: SoundEditArgs) -> Result<(), Failure> {
    let path = one_file(offer, args.target.as_deref(), &SOUND_FILE)?;
    // Read and checked here, so a bad file is said before a window opens.
    let (_, on_disk) = open(&path)?;
    let files = OpenedFiles(vec![OpenedFile {
        name: path.display().to_string(),
        bytes: on_disk.clone(),
    }]);
    let file = EditedFile::new(path.clone(), "sound file", MAX_SOUND_FILE, on_disk);
    let targets: Targets = Arc::new(move |_| Box::new(file.clone()) as Box<dyn SaveTarget>);
    run_editor("sound-edit", &files, targets, &args.editor, &path)
}

/// What `bt sound-edit` opens from a cart: its one sound file.
const SOUND_FILE: Wanted = Wanted {
    what: "sound file",
    several: "sound files",
    is_one: is_sound_file,
    none_hint: |assets| {
        format!(
            " (a file starting 'bt-sound 2'); name one to make: bt sound-edit {}",
            crate::quote::path(&assets.join("sounds.txt"))
        )
    },
    example: "name one to make: bt sound-edit PATH/sounds.txt",
};

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
