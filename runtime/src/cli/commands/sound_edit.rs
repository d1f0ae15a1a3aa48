//! `bt sound-edit`: the sound editor in a window. This file is the platform's side of it: it
//! finds and reads the file, and writes what the editor saves; the editor itself is a cart
//! ([`crate::sound_edit`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::args::SoundEditArgs;
use crate::cli::editors::Targets;
use crate::cli::Offer;
use crate::edit::{OpenedFile, OpenedFiles, SaveTarget};
use crate::sound_edit::SoundDoc;

use super::edited_file::{run_editor, EditedFile};

use super::{note, Failure};

/// The longest sound file the editor opens: a file of 64 notes in each of a thousand sound
/// effects is under 1 MiB; a larger one is not a sound file (a wrong path).
pub const MAX_SOUND_FILE: u64 = 4 << 20;

/// The most files of a cart's asset folder looked at for its sound file.
const MAX_ASSET_FILES: usize = 4096;

pub(super) fn sound_edit(offer: &Offer, args: SoundEditArgs) -> Result<(), Failure> {
    let path = sound_file(offer, args.target.as_deref())?;
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
