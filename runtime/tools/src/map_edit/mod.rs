//! The map editor, `bt map-edit`: a cart of BT's own that edits a Tiled map in place (see
//! `docs/map-editor.md` for its keys).
//!
//! [`MapEditor`] holds a [`TiledDoc`](crate::tiled_doc::TiledDoc), so a save changes only the
//! cells edited (and Tiled's `visible` when toggled); it draws the tiles with the tileset's
//! picture, and hands a save to a [`SaveTarget`](crate::edit::SaveTarget): `bt map-edit` writes
//! the file atomically, a test keeps the bytes.
//!
//! ```
//! use bt_tools::edit::Kept;
//! use bt_tools::map_edit::{MapEditor, KEYS};
//! use bt_tools::tiled_doc::TiledDoc;
//!
//! let text = "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\
//!     <tileset firstgid=\"1\" tilecount=\"4\"/><layer name=\"a\" width=\"2\" height=\"1\">\
//!     <data encoding=\"csv\">1,0</data></layer></map>";
//! let doc = TiledDoc::read("level.tmx", text.as_bytes())?;
//! let editor = MapEditor::new(doc, None, Box::new(Kept::new()));
//! assert!(!editor.is_dirty());
//! assert!(KEYS.iter().any(|(key, _)| *key == "Ctrl+S"));
//! # Ok::<(), bt_tools::tiled_doc::DocError>(())
//! ```

mod draw;
mod editor;
mod history;

pub use editor::{MapEditor, Tool, DISPLAY};
pub use history::MAX_UNDO;

/// Every key of the editor and what it does: the help screen (F1) shows this table, and
/// `docs/map-editor.md` lists the same.
pub const KEYS: &[(&str, &str)] = &[
    ("P", "paint tool: click or drag paints the chosen tile"),
    ("F", "fill tool: fills the area of one tile around the cell"),
    ("R", "rectangle tool: drag fills a rectangle"),
    ("S", "select tool: drag selects a rectangle"),
    (
        "Space",
        "use the tool at the cursor (rectangle, select: twice, corner to corner)",
    ),
    ("Arrows", "move the cursor (the view follows)"),
    ("Shift+Arrows", "pan the view a screen's quarter"),
    ("Wheel", "pan up and down (Shift: left and right)"),
    ("= / -", "zoom in and out (1x to 4x)"),
    (", / .", "choose the previous or next tile"),
    ("Delete", "choose the empty tile (paints erase)"),
    ("Click palette", "choose that tile"),
    ("Click minimap", "move the view there"),
    ("Ctrl+C", "copy the selection"),
    ("Ctrl+X", "cut the selection"),
    ("Ctrl+V", "paste at the cursor"),
    ("H", "mirror the selection's content left to right"),
    ("Shift+H", "flip the selection's content top to bottom"),
    ("Tab / Shift+Tab", "next or previous layer"),
    ("V", "hide or show the layer in the editor (not saved)"),
    ("Shift+V", "toggle Tiled's visible for the layer (saved)"),
    ("G", "show or hide the tiles' flags"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Y / Ctrl+Shift+Z", "redo"),
    (
        "Ctrl+S",
        "save (a second Ctrl+S writes over a file changed on disk)",
    ),
    ("F1", "this help"),
];
