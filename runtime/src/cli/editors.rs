//! BT's editors as carts: how each is made from the files it opened ([`OpenedFiles`]), for
//! its own command (saves going to the files) and for a replay of a recorded session (saves
//! kept in memory). A recording's header names the editor as its cart and holds the files as
//! its arguments, so `bt replay sound-edit session.btr --verify` needs nothing on disk.

use std::sync::Arc;

use bt::Cart;

use crate::edit::{FromArgs, Kept, OpenEditor, OpenedFiles, SaveTarget};
use crate::session::MakeCart;
use crate::sound_edit::{SoundDoc, SoundEditor};

/// Where the save of file `index` (of the opened files) goes.
pub(crate) type Targets = Arc<dyn Fn(usize) -> Box<dyn SaveTarget> + Send + Sync>;

/// The sound editor on the first of `files`: a sound file, or a new one when it had no bytes.
///
/// # Errors
/// The file's own error when it is not a sound file.
pub(crate) fn sound_editor(
    files: &OpenedFiles,
    targets: &Targets,
) -> Result<Box<dyn Cart>, String> {
    let file = &files.0[0];
    let doc = match &file.bytes {
        None => SoundDoc::new_file(&file.name),
        Some(bytes) => {
            let text = std::str::from_utf8(bytes).map_err(|e| {
                format!(
                    "{}: not UTF-8 text (invalid byte at offset {})",
                    file.name,
                    e.valid_up_to()
                )
            })?;
            SoundDoc::read(&file.name, text).map_err(|e| e.to_string())?
        }
    };
    Ok(Box::new(SoundEditor::new(doc, targets(0))))
}

/// The cart of editor `name`, opening its files from the session's arguments, its saves going
/// where `targets` says; `None` for a name that is no editor.
pub(crate) fn editor_cart(name: &str, targets: Targets) -> Option<MakeCart> {
    let (open, settings): (fn(&OpenedFiles, &Targets) -> _, _) = match name {
        "sound-edit" => (
            sound_editor,
            SoundEditor::new(SoundDoc::new_file("sounds.txt"), Box::new(Kept::new())).configure(),
        ),
        _ => return None,
    };
    let open: OpenEditor = Arc::new(move |files: &OpenedFiles| open(files, &targets));
    Some(Arc::new(move || {
        Box::new(FromArgs::new(settings.clone(), open.clone())) as Box<dyn Cart>
    }))
}

/// The cart of editor `name` for a replay: every save is kept in memory, none written.
pub(crate) fn replayed_editor(name: &str) -> Option<MakeCart> {
    editor_cart(
        name,
        Arc::new(|_| Box::new(Kept::new()) as Box<dyn SaveTarget>),
    )
}
