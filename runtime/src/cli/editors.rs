//! BT's editors as carts: how each is made from the files it opened ([`OpenedFiles`]), for
//! its own command (saves going to the files) and for a replay of a recorded session (saves
//! kept in memory). A recording's header names the editor as its cart and holds the files as
//! its arguments, so `bt replay sound-edit session.btr --verify` needs nothing on disk.

use std::sync::Arc;

use bt::Cart;

use crate::edit::{FromArgs, Kept, OpenEditor, OpenedFiles, SaveTarget};
use crate::map_edit::MapEditor;
use crate::session::MakeCart;
use crate::sound_edit::{SoundDoc, SoundEditor};
use crate::sprite_edit::SpriteEditor;
use crate::tiled_doc::TiledDoc;

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

/// The map editor on the first of `files`, a Tiled map; its tileset's file and its picture
/// are among the rest, by the names the map (or the tileset) gives them.
///
/// # Errors
/// The map's or the tileset's own error when it does not read.
pub(crate) fn map_editor(files: &OpenedFiles, targets: &Targets) -> Result<Box<dyn Cart>, String> {
    let map = &files.0[0];
    let named = |name: &str| {
        files.0[1..]
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| f.bytes.clone())
    };
    let bytes = map.bytes.as_deref().unwrap_or_default();
    let doc = TiledDoc::read(&map.name, bytes).map_err(|e| e.to_string())?;
    let first = doc.tilesets().first().cloned();
    let tileset = match first.as_ref().and_then(|t| t.source.clone()) {
        Some(source) => match named(&source) {
            Some(bytes) => Some(TiledDoc::read(&source, &bytes).map_err(|e| e.to_string())?),
            None => None,
        },
        None => None,
    };
    let image = match &tileset {
        Some(t) => t.tilesets().first().and_then(|t| t.image.clone()),
        None => first.and_then(|t| t.image),
    };
    let mut editor = MapEditor::new(doc, tileset, targets(0));
    if let Some((image, bytes)) = image.and_then(|i| named(&i).map(|b| (i, b))) {
        editor = editor.with_picture(&image, bytes);
    }
    Ok(Box::new(editor))
}

/// The sprite editor on `files`: PNG sheets, each followed by the Tiled files holding its
/// sprites' flags (see [`crate::sprite_edit::tabs`]).
///
/// # Errors
/// A sheet's or a Tiled file's own error when it does not read.
pub(crate) fn sprite_editor(
    files: &OpenedFiles,
    targets: &Targets,
) -> Result<Box<dyn Cart>, String> {
    let tabs = crate::sprite_edit::tabs(files, &|i| targets(i))?;
    Ok(Box::new(SpriteEditor::new(tabs)))
}

/// The cart of editor `name`, opening its files from the session's arguments, its saves going
/// where `targets` says; `None` for a name that is no editor.
pub(crate) fn editor_cart(name: &str, targets: Targets) -> Option<MakeCart> {
    let (open, settings): (fn(&OpenedFiles, &Targets) -> _, _) = match name {
        "sound-edit" => (
            sound_editor,
            SoundEditor::new(SoundDoc::new_file("sounds.txt"), Box::new(Kept::new())).configure(),
        ),
        "map-edit" => (map_editor, MapEditor::settings()),
        "sprite-edit" => (sprite_editor, SpriteEditor::settings()),
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
