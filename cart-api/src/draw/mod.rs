//! Drawing: the palette-indexed [`Framebuffer`] and everything that writes into it. Every
//! primitive clips before it touches memory and goes through the pen (the draw-time remap and
//! fill pattern).
//!
//! | file | its job |
//! | --- | --- |
//! | `framebuffer.rs` | the [`Framebuffer`], its clip, pixels, lines, rectangles, circles and text |
//! | `rect.rs` | [`Rect`], the one rectangle type, and what a game asks of two of them |
//! | `point.rs` | [`Point`], a position or offset in whole pixels, and its arithmetic |
//! | `shapes.rs` | triangles, ellipses and the flood fill |
//! | `pen.rs` | the remap and the fill pattern every pixel goes through |
//! | `font.rs` | the built-in system font's ASCII glyphs |
//! | `sprite.rs` | [`SpriteSheet`], [`SpriteParams`], [`ColorKey`], [`ColorMatch`] and the orientation flags |
//! | `image.rs` | [`Image`], an off-screen picture drawn into and drawn from |
//! | `nine_slice.rs` | [`NineSlice`] panels: corners 1:1, edges and centre stretched or tiled |
//! | `blend.rs` | [`BlendTable`], translucency for indexed colour |
//! | `counts.rs` | [`DrawCounts`], the drawing calls of a frame by kind |
//! | `blit/` | the blitter that draws sheets: clipping in `mod.rs`, row routines in `rows.rs`, free transforms (stretch, turn, span) in `transform.rs` |
//! | `fonts/` | [`Font`]: the built-in fonts, BDF and sheet fonts, text layout (see its `mod.rs`) |

mod blend;
mod blit;
mod counts;
mod font;
mod fonts;
mod framebuffer;
mod image;
mod nine_slice;
mod pen;
mod point;
mod rect;
mod shapes;
mod sprite;

pub use blend::BlendTable;
pub(crate) use blit::Orientation;
pub(crate) use blit::Span;
pub use blit::Transform;
pub use counts::DrawCounts;
pub use font::{GLYPH_ADVANCE, LINE_HEIGHT};
pub use fonts::{
    Align, Font, FontError, TextStyle, MAX_FONT_GLYPHS, MAX_GLYPH_EXTENT, MAX_GLYPH_WIDTH,
    MAX_TEXT_SCALE,
};
pub(crate) use framebuffer::Bounds;
pub use framebuffer::Framebuffer;
pub use image::{image_bytes_copied, Image};
pub use nine_slice::{NineSlice, NineSliceError, SliceFill};
pub use pen::FillPattern;
pub(crate) use pen::{blend_row_table, InkTable, Pen};
pub use point::Point;
pub use rect::Rect;
pub(crate) use shapes::Scratch;
pub use sprite::{
    ColorKey, ColorMatch, SpriteParams, SpriteSheet, DEFAULT_TILE, FLIP_H, FLIP_V, MAX_SHEET_SIDE,
    ROT_180, ROT_270, ROT_90,
};
