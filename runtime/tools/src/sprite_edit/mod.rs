//! The sprite editor, `bt sprite-edit`: a cart of BT's own that edits indexed PNG sprite
//! sheets (see `docs/sprite-editor.md` for its keys).
//!
//! [`Sheet`] holds a file: its pixels as palette numbers, its palette, and its chunks, so a
//! save with no edit gives back the very bytes read and an edited one changes only the
//! picture data. [`SpriteEditor`] is the cart: it draws with the cart API, keeps several
//! sheets open as tabs, and hands each save to the sheet's
//! [`SaveTarget`](crate::edit::SaveTarget), which the platform provides (`bt sprite-edit`
//! writes the file atomically; a test keeps the bytes). The flags of each sprite go to a
//! [`FlagStore`] when the platform found a tileset for the sheet.
//!
//! ```
//! use bt_tools::edit::Kept;
//! use bt_tools::sprite_edit::{Sheet, SheetTab, SpriteEditor};
//!
//! // A 1-bit sheet of 8x8 made by the conversion of a two-colour picture.
//! let rgba: Vec<u8> = (0..64).flat_map(|i| if i % 9 == 0 { [255; 4] } else { [0, 0, 0, 255] }).collect();
//! let png = bt_tools::sprite_edit::rgba_png(8, 8, &rgba);
//! let (sheet, mapped) = Sheet::convert("dots.png", &png, &[]).unwrap();
//! assert_eq!((sheet.depth(), mapped.len()), (1, 2));
//! let kept = Kept::new();
//! let editor = SpriteEditor::new(vec![SheetTab::new(sheet, Box::new(kept.clone()))]);
//! assert!(editor.is_dirty(), "a conversion is not on disk yet");
//! ```

mod chrome;
mod draw;
mod editor;
mod files;
mod history;
pub mod layout;
pub mod paint;
mod sheet;

pub use editor::{FlagStore, SheetTab, SpriteEditor, Tool, KEYS, TOOLS};
pub use files::{is_tiled_file, tabs, TilesetFlags};
pub use history::{Area, Change, History, Step, MAX_UNDO, MAX_UNDO_BYTES};
pub use sheet::{Mapped, Sheet};

/// An RGBA PNG of `width` x `height` pixels (`width * height * 4` bytes): a picture to
/// convert, in examples and tests.
///
/// # Panics
/// When `rgba` is not `width * height * 4` bytes.
pub fn rgba_png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().expect("a header in memory");
    writer
        .write_image_data(rgba)
        .expect("the pixels of the size given");
    writer.finish().expect("written to memory");
    out
}
