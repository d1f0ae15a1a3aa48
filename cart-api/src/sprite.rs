//! Sprite sheets: palette-indexed pictures that carts draw from, and the blitter that draws them.
//!
//! A sheet stores one palette index per pixel, like the framebuffer. Index 0 is see-through. A
//! sheet is made from indexed pixels in code ([`SpriteSheet::from_indexed`]) or from RGBA pixels
//! whose colours are registered into a palette ([`SpriteSheet::from_rgba`]); the host decodes
//! image files into RGBA through an [`ImageLoader`], so this crate knows no file format.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use thiserror::Error;

use crate::gfx::{Bounds, Framebuffer, Rect};
use crate::{Color32, Palette, MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE};

/// Mirror left to right.
pub const FLIP_H: u8 = 1;
/// Mirror top to bottom.
pub const FLIP_V: u8 = 2;
/// Turn a quarter clockwise.
pub const ROT_90: u8 = 4;
/// Turn half a turn.
pub const ROT_180: u8 = 8;
/// Turn three quarters clockwise (a quarter anticlockwise).
pub const ROT_270: u8 = 16;

/// The largest side a sprite sheet may have, in pixels.
pub const MAX_SHEET_SIDE: u32 = MAX_DISPLAY_SIDE;

/// How a sprite is drawn: orientation flags, a whole-number scale and a palette offset.
///
/// ```
/// use bt::{SpriteParams, FLIP_H, ROT_90};
///
/// let p = SpriteParams::new().flags(FLIP_H | ROT_90).scale(2).offset(16);
/// assert_eq!((p.flags, p.scale, p.palette_offset), (FLIP_H | ROT_90, 2, 16));
/// assert_eq!(SpriteParams::default(), SpriteParams::new());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpriteParams {
    /// Any of [`FLIP_H`], [`FLIP_V`], [`ROT_90`], [`ROT_180`], [`ROT_270`], or-ed together. The
    /// flips apply first (left-right, then top-bottom), then the turns, which add up modulo a
    /// full turn: eight orientations in all. Other bits are ignored.
    pub flags: u8,
    /// Each sprite pixel becomes a `scale × scale` square. 0 draws nothing. Default 1.
    pub scale: u32,
    /// Added to every stored index except 0: stored index `i` draws `i + palette_offset`,
    /// capped at 255. Default 0.
    pub palette_offset: u8,
}

impl Default for SpriteParams {
    fn default() -> SpriteParams {
        SpriteParams::new()
    }
}

impl SpriteParams {
    /// No flags, scale 1, no palette offset.
    pub const fn new() -> SpriteParams {
        SpriteParams {
            flags: 0,
            scale: 1,
            palette_offset: 0,
        }
    }

    /// Sets the orientation flags.
    pub const fn flags(mut self, flags: u8) -> SpriteParams {
        self.flags = flags;
        self
    }

    /// Sets the scale.
    pub const fn scale(mut self, scale: u32) -> SpriteParams {
        self.scale = scale;
        self
    }

    /// Sets the palette offset.
    pub const fn offset(mut self, palette_offset: u8) -> SpriteParams {
        self.palette_offset = palette_offset;
        self
    }
}

/// What went wrong making a sprite sheet. Always shown with the file (or name) it came from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{name}: {kind}")]
pub struct AssetError {
    /// The file path or name of the image.
    pub name: String,
    /// The problem.
    pub kind: AssetErrorKind,
}

impl AssetError {
    /// An error about the image called `name`.
    pub fn new(name: impl Into<String>, kind: AssetErrorKind) -> AssetError {
        AssetError {
            name: name.into(),
            kind,
        }
    }
}

/// The problem behind an [`AssetError`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AssetErrorKind {
    /// The file does not exist.
    #[error("file not found")]
    NotFound,
    /// The file exists but could not be read.
    #[error("could not read the file: {0}")]
    Read(String),
    /// The bytes are not an image the host can decode.
    #[error("not a PNG image: {0}")]
    NotPng(String),
    /// A side is 0 or above [`MAX_SHEET_SIDE`], or the area is above the display limit.
    #[error(
        "image is {width}x{height}; each side must be between 1 and {MAX_SHEET_SIDE} px and the \
         area at most {MAX_DISPLAY_PIXELS} px"
    )]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The pixel buffer does not match the size given.
    #[error("expected {expected} values for the size given, got {got}")]
    PixelCount {
        /// Values the size calls for.
        expected: u64,
        /// Values supplied.
        got: u64,
    },
    /// The start slot is 0 (the transparent slot) or past the end of the palette.
    #[error("start slot {slot} must be between 1 and {last} for a palette of {size} colours")]
    StartSlot {
        /// The slot asked for.
        slot: usize,
        /// The last usable slot.
        last: usize,
        /// The palette's size.
        size: usize,
    },
    /// The image has more opaque colours than the palette has slots from the start slot on.
    #[error(
        "{colors} opaque colours do not fit in the {free} palette slots from slot {start_slot}"
    )]
    TooManyColors {
        /// Distinct opaque colours in the image.
        colors: usize,
        /// Slots available from the start slot to the end of the palette.
        free: usize,
        /// The start slot.
        start_slot: usize,
    },
    /// The host gave the console no image loader.
    #[error("this host cannot load images")]
    NoLoader,
}

/// Decoded image pixels, four bytes (R, G, B, A) per pixel, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

/// Turns image files into RGBA pixels. The host (the runtime) provides one to the console;
/// carts reach it through [`crate::Update::load_indexed`] and [`crate::Update::decode_indexed`].
pub trait ImageLoader {
    /// Reads and decodes the image file at `path`.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing file, unreadable file, not an image, too large.
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError>;

    /// Decodes an image already in memory (for example from `include_bytes!`); `name` is used in
    /// errors.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`.
    fn decode(&self, name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError>;
}

fn check_size(name: &str, width: u64, height: u64) -> Result<(), AssetError> {
    let side = 1..=u64::from(MAX_SHEET_SIDE);
    if !side.contains(&width) || !side.contains(&height) || width * height > MAX_DISPLAY_PIXELS {
        return Err(AssetError::new(
            name,
            AssetErrorKind::TooLarge { width, height },
        ));
    }
    Ok(())
}

/// A picture of palette indices to draw sprites and tiles from.
///
/// ```
/// use bt::SpriteSheet;
///
/// // A 2×2 sheet: index 0 is see-through.
/// let sheet = SpriteSheet::from_indexed(2, 2, vec![0, 7, 7, 0])?;
/// assert_eq!(sheet.get(1, 0), Some(7));
/// assert_eq!(sheet.size(), (2, 2));
/// # Ok::<(), bt::AssetError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SpriteSheet {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    tile: (u32, u32),
    slots: Range<usize>,
}

impl fmt::Debug for SpriteSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpriteSheet")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("tile", &self.tile)
            .field("slots", &self.slots)
            .finish_non_exhaustive()
    }
}

/// The tile size a sheet starts with.
pub const DEFAULT_TILE: u32 = 8;

impl SpriteSheet {
    /// A sheet from palette indices, row by row from the top-left corner.
    ///
    /// # Errors
    /// [`AssetErrorKind::TooLarge`] when a side is 0 or above 8192 px,
    /// [`AssetErrorKind::PixelCount`] when `pixels` is not `width × height` long. The name in
    /// the error is `indexed pixels`.
    pub fn from_indexed(
        width: u32,
        height: u32,
        pixels: Vec<u8>,
    ) -> Result<SpriteSheet, AssetError> {
        const NAME: &str = "indexed pixels";
        check_size(NAME, width.into(), height.into())?;
        let expected = u64::from(width) * u64::from(height);
        if pixels.len() as u64 != expected {
            return Err(AssetError::new(
                NAME,
                AssetErrorKind::PixelCount {
                    expected,
                    got: pixels.len() as u64,
                },
            ));
        }
        Ok(SpriteSheet {
            width,
            height,
            pixels,
            tile: (DEFAULT_TILE, DEFAULT_TILE),
            slots: 0..0,
        })
    }

    /// A sheet from RGBA pixels, registering their colours into `palette`.
    ///
    /// Pixels with alpha below 128 become index 0 (see-through). Every other distinct colour, in
    /// the order it first appears reading row by row, is written into the palette from
    /// `start_slot` on (alpha forced to opaque), and its pixels take that slot's index.
    /// [`SpriteSheet::palette_slots`] then tells which slots were used. The palette is left
    /// untouched when an error is returned.
    ///
    /// ```
    /// use bt::{Color32, Palette, SpriteSheet};
    ///
    /// let mut pal = Palette::pico8();
    /// let red = [255, 0, 0, 255];
    /// let clear = [0, 0, 0, 0];
    /// let rgba = [red, clear, red, [0, 0, 255, 200]].concat();
    /// let sheet = SpriteSheet::from_rgba("tiny.png", 2, 2, &rgba, &mut pal, 16 - 2)?;
    /// assert_eq!(sheet.get(0, 0), Some(14));
    /// assert_eq!(sheet.get(1, 0), Some(0));
    /// assert_eq!(sheet.get(1, 1), Some(15));
    /// assert_eq!(pal.get(15), Some(Color32::rgb(0, 0, 255)));
    /// assert_eq!(sheet.palette_slots(), 14..16);
    ///
    /// let err = SpriteSheet::from_rgba("tiny.png", 2, 2, &rgba, &mut pal, 15).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "tiny.png: 2 opaque colours do not fit in the 1 palette slots from slot 15"
    /// );
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    ///
    /// # Errors
    /// [`AssetErrorKind::TooLarge`], [`AssetErrorKind::PixelCount`] (for `width × height × 4`
    /// bytes), [`AssetErrorKind::StartSlot`] when `start_slot` is 0 or past the palette,
    /// [`AssetErrorKind::TooManyColors`]. Each names `name`.
    pub fn from_rgba(
        name: &str,
        width: u32,
        height: u32,
        rgba: &[u8],
        palette: &mut Palette,
        start_slot: usize,
    ) -> Result<SpriteSheet, AssetError> {
        check_size(name, width.into(), height.into())?;
        let expected = u64::from(width) * u64::from(height) * 4;
        if rgba.len() as u64 != expected {
            return Err(AssetError::new(
                name,
                AssetErrorKind::PixelCount {
                    expected,
                    got: rgba.len() as u64,
                },
            ));
        }
        let size = palette.len();
        if start_slot == 0 || start_slot >= size {
            return Err(AssetError::new(
                name,
                AssetErrorKind::StartSlot {
                    slot: start_slot,
                    last: size - 1,
                    size,
                },
            ));
        }
        let free = size - start_slot;
        let mut slots: HashMap<[u8; 3], u8> = HashMap::new();
        let mut order: Vec<[u8; 3]> = Vec::new();
        let mut pixels = Vec::with_capacity(rgba.len() / 4);
        for px in rgba.chunks_exact(4) {
            if px[3] < 128 {
                pixels.push(0);
                continue;
            }
            let key = [px[0], px[1], px[2]];
            let next = order.len();
            let slot = *slots.entry(key).or_insert_with(|| {
                order.push(key);
                // Saturates once the palette is full; the count check below refuses that case.
                (start_slot + next).min(255) as u8
            });
            pixels.push(slot);
        }
        if order.len() > free {
            return Err(AssetError::new(
                name,
                AssetErrorKind::TooManyColors {
                    colors: order.len(),
                    free,
                    start_slot,
                },
            ));
        }
        for (i, [r, g, b]) in order.iter().enumerate() {
            // In range: start_slot + i < size was checked above.
            let _ = palette.set(start_slot + i, Color32::rgb(*r, *g, *b));
        }
        Ok(SpriteSheet {
            width,
            height,
            pixels,
            tile: (DEFAULT_TILE, DEFAULT_TILE),
            slots: start_slot..start_slot + order.len(),
        })
    }

    /// Sets the tile size [`SpriteSheet::tile_rect`] and `draw_tile` use (default 8 × 8). A side
    /// of 0 counts as 1.
    pub fn with_tile_size(mut self, width: u32, height: u32) -> SpriteSheet {
        self.tile = (width.max(1), height.max(1));
        self
    }

    /// The tile size.
    pub fn tile_size(&self) -> (u32, u32) {
        self.tile
    }

    /// Tiles per row of the sheet.
    pub fn tile_columns(&self) -> u32 {
        self.width / self.tile.0
    }

    /// How many whole tiles the sheet holds.
    pub fn tile_count(&self) -> u32 {
        self.tile_columns() * (self.height / self.tile.1)
    }

    /// The source rectangle of tile `index`, counting row by row from the top-left tile, or
    /// `None` past the last whole tile.
    ///
    /// ```
    /// use bt::{Rect, SpriteSheet};
    ///
    /// let sheet = SpriteSheet::from_indexed(32, 16, vec![1; 32 * 16])?;
    /// assert_eq!(sheet.tile_count(), 8);
    /// assert_eq!(sheet.tile_rect(5), Some(Rect::new(8, 8, 8, 8)));
    /// assert_eq!(sheet.tile_rect(8), None);
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    pub fn tile_rect(&self, index: u32) -> Option<Rect> {
        if index >= self.tile_count() {
            return None;
        }
        let cols = self.tile_columns();
        let (tw, th) = self.tile;
        Some(Rect::new(
            ((index % cols) * tw) as i32,
            ((index / cols) * th) as i32,
            tw as i32,
            th as i32,
        ))
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The index at `(x, y)`, or `None` outside the sheet.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x as u32 >= self.width || y as u32 >= self.height {
            return None;
        }
        Some(self.pixels[y as usize * self.width as usize + x as usize])
    }

    /// All indices, row by row.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The palette slots [`SpriteSheet::from_rgba`] registered colours into (empty for a sheet
    /// made from indices).
    pub fn palette_slots(&self) -> Range<usize> {
        self.slots.clone()
    }
}

/// An orientation as a map from sprite-local pixels `l` to drawn pixels `o = M·l + t`, with `M`
/// a signed permutation matrix (so its inverse is its transpose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Orientation {
    m: [[i64; 2]; 2],
    t: [i64; 2],
    /// The drawn size.
    size: (i64, i64),
}

impl Orientation {
    fn new(flags: u8, w: i64, h: i64) -> Orientation {
        let mut o = Orientation {
            m: [[1, 0], [0, 1]],
            t: [0, 0],
            size: (w, h),
        };
        if flags & FLIP_H != 0 {
            o.m[0] = [-o.m[0][0], -o.m[0][1]];
            o.t[0] = o.size.0 - 1 - o.t[0];
        }
        if flags & FLIP_V != 0 {
            o.m[1] = [-o.m[1][0], -o.m[1][1]];
            o.t[1] = o.size.1 - 1 - o.t[1];
        }
        let turns = (u32::from(flags & ROT_90 != 0)
            + 2 * u32::from(flags & ROT_180 != 0)
            + 3 * u32::from(flags & ROT_270 != 0))
            % 4;
        for _ in 0..turns {
            // A quarter turn clockwise: (x, y) -> (H - 1 - y, x) in an image H pixels high.
            let [row0, row1] = o.m;
            o.m = [[-row1[0], -row1[1]], row0];
            o.t = [o.size.1 - 1 - o.t[1], o.t[0]];
            o.size = (o.size.1, o.size.0);
        }
        o
    }

    fn forward(&self, x: i64, y: i64) -> (i64, i64) {
        (
            self.m[0][0] * x + self.m[0][1] * y + self.t[0],
            self.m[1][0] * x + self.m[1][1] * y + self.t[1],
        )
    }

    /// The sprite-local pixel drawn at `(u, v)`.
    fn inverse(&self, u: i64, v: i64) -> (i64, i64) {
        let (a, b) = (u - self.t[0], v - self.t[1]);
        (
            self.m[0][0] * a + self.m[1][0] * b,
            self.m[0][1] * a + self.m[1][1] * b,
        )
    }
}

/// Copies `src` over `dst` where `src` is not 0, adding `offset` (capped at 255).
///
/// Written as a select on every byte, not a branch, so the compiler turns it into vector code.
#[inline(always)]
fn blend_row(dst: &mut [u8], src: &[u8], offset: u8) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = if s == 0 { *d } else { s.saturating_add(offset) };
    }
}

/// [`blend_row`] over a block of `width × rows` pixels: row `r` of `src` starts at
/// `src_at.0 + r × src_at.1` and lands at `dst_at.0 + r × dst_at.1`.
///
/// Not inlined, on purpose: inlined into the blitter, the compiler can see a constant row width
/// of 8 or 16 for common sprites, unrolls the row into one branch per pixel and drops the vector
/// code it makes for a width known only at run time. Measured with `cargo bench --bench draw`:
/// a transparent 16 × 16 sprite took about 71 ns inlined and about 50 ns like this.
#[inline(never)]
fn blend_block(
    dst: &mut [u8],
    dst_at: (usize, usize),
    src: &[u8],
    src_at: (usize, usize),
    (width, rows): (usize, usize),
    offset: u8,
) {
    for row in 0..rows {
        let d = dst_at.0 + row * dst_at.1;
        let s = src_at.0 + row * src_at.1;
        let (Some(d), Some(s)) = (dst.get_mut(d..d + width), src.get(s..s + width)) else {
            return;
        };
        blend_row(d, s, offset);
    }
}

impl Framebuffer {
    /// Draws the part `src` of `sheet` with its top-left corner at `(x, y)` (the corner of the
    /// drawn picture, after any turn or mirror). See [`SpriteParams`]. The parts of `src` outside
    /// the sheet draw nothing, as do index-0 pixels.
    pub fn draw_sprite(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        params: SpriteParams,
    ) {
        self.sprite_wide(sheet, src, x.into(), y.into(), params);
    }

    /// Draws tile `index` of `sheet` (see [`SpriteSheet::tile_rect`]); an index past the last
    /// tile draws nothing.
    pub fn draw_tile(&mut self, sheet: &SpriteSheet, index: u32, x: i32, y: i32, p: SpriteParams) {
        if let Some(src) = sheet.tile_rect(index) {
            self.sprite_wide(sheet, src, x.into(), y.into(), p);
        }
    }

    pub(crate) fn sprite_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        params: SpriteParams,
    ) {
        let flags = params.flags & (FLIP_H | FLIP_V | ROT_90 | ROT_180 | ROT_270);
        if params.scale == 1 && flags == 0 {
            self.blit_plain(sheet, src, x, y, params.palette_offset);
        } else {
            self.blit_general(sheet, src, x, y, flags, params);
        }
    }

    /// The common case: no turn, no mirror, scale 1. Clip once, then blend whole rows.
    fn blit_plain(&mut self, sheet: &SpriteSheet, src: Rect, x: i64, y: i64, offset: u8) {
        let (sx, sy) = (i64::from(src.x), i64::from(src.y));
        // Where the sheet's pixels would land, intersected with the source rectangle's and the
        // clip's: one box in screen space.
        let (ox, oy) = (x - sx, y - sy);
        let visible = Bounds {
            x0: sx.max(0) + ox,
            y0: sy.max(0) + oy,
            x1: (sx + i64::from(src.w)).min(i64::from(sheet.width)) + ox,
            y1: (sy + i64::from(src.h)).min(i64::from(sheet.height)) + oy,
        };
        let Some(b) = self
            .clip
            .intersect(visible.x0, visible.y0, visible.x1, visible.y1)
        else {
            return;
        };
        let n = (b.x1 - b.x0) as usize;
        let (fw, sw) = (self.width as usize, sheet.width as usize);
        let d0 = b.y0 as usize * fw + b.x0 as usize;
        let s0 = (b.y0 - oy) as usize * sw + (b.x0 - ox) as usize;
        let rows = (b.y1 - b.y0) as usize;
        blend_block(
            &mut self.pixels,
            (d0, fw),
            &sheet.pixels,
            (s0, sw),
            (n, rows),
            offset,
        );
    }

    fn blit_general(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        flags: u8,
        params: SpriteParams,
    ) {
        let scale = i64::from(params.scale);
        let (w, h) = (i64::from(src.w), i64::from(src.h));
        if scale == 0 || w <= 0 || h <= 0 {
            return;
        }
        // Keep only the part of `src` on the sheet, and find where that part lands inside the
        // oriented whole.
        let (sx0, sy0) = (i64::from(src.x).max(0), i64::from(src.y).max(0));
        let sx1 = (i64::from(src.x) + w).min(i64::from(sheet.width));
        let sy1 = (i64::from(src.y) + h).min(i64::from(sheet.height));
        if sx0 >= sx1 || sy0 >= sy1 {
            return;
        }
        let whole = Orientation::new(flags, w, h);
        let (lx0, ly0) = (sx0 - i64::from(src.x), sy0 - i64::from(src.y));
        let a = whole.forward(lx0, ly0);
        let b = whole.forward(lx0 + (sx1 - sx0) - 1, ly0 + (sy1 - sy0) - 1);
        let part = Orientation::new(flags, sx1 - sx0, sy1 - sy0);
        let (x, y) = (x + a.0.min(b.0) * scale, y + a.1.min(b.1) * scale);
        let (ow, oh) = part.size;
        let Some(c) = self.clip.intersect(x, y, x + ow * scale, y + oh * scale) else {
            return;
        };

        let (fw, sw) = (self.width as usize, sheet.width as i64);
        let offset = params.palette_offset;
        let index_of = |u: i64, v: i64| {
            let (lx, ly) = part.inverse(u, v);
            ((sy0 + ly) * sw + sx0 + lx) as usize
        };
        // Moving one drawn pixel right moves this far through the sheet's pixels.
        let step_u = part.m[0][0] + part.m[0][1] * sw;

        // A row of sprite pixels as they will be drawn, left to right, gathered here (a chunk
        // of at most `LINE` pixels at a time) and then blended in one vectorised pass.
        const LINE: usize = 256;
        let mut line = [0u8; LINE];

        if scale == 1 {
            let n = (c.x1 - c.x0) as usize;
            for py in c.y0..c.y1 {
                let v = py - y;
                let first = index_of(c.x0 - x, v);
                let d = py as usize * fw + c.x0 as usize;
                let dst = &mut self.pixels[d..d + n];
                if step_u == 1 {
                    blend_row(dst, &sheet.pixels[first..first + n], offset);
                    continue;
                }
                // Mirrored or turned: gather the row first, then blend it.
                let mut i = first as i64;
                for chunk in dst.chunks_mut(LINE) {
                    let gathered = &mut line[..chunk.len()];
                    for g in gathered.iter_mut() {
                        *g = sheet.pixels[i as usize];
                        i += step_u;
                    }
                    blend_row(chunk, gathered, offset);
                }
            }
            return;
        }

        // Scaled: each sprite pixel covers `scale` screen pixels of `scale` rows. Build each
        // distinct drawn row once and blend it onto every screen row that shows it.
        let mut py = c.y0;
        while py < c.y1 {
            let v = (py - y) / scale;
            let rows_end = (y + (v + 1) * scale).min(c.y1);
            let mut px0 = c.x0;
            while px0 < c.x1 {
                let px1 = (px0 + LINE as i64).min(c.x1);
                // One division per chunk; after that each run is one sprite pixel further.
                let (mut px, mut u) = (px0, (px0 - x) / scale);
                let mut i = index_of(u, v) as i64;
                while px < px1 {
                    let run_end = (x + (u + 1) * scale).min(px1);
                    let value = sheet.pixels[i as usize];
                    line[(px - px0) as usize..(run_end - px0) as usize].fill(value);
                    px = run_end;
                    u += 1;
                    i += step_u;
                }
                let width = (px1 - px0) as usize;
                for row in py..rows_end {
                    let d = row as usize * fw + px0 as usize;
                    blend_row(&mut self.pixels[d..d + width], &line[..width], offset);
                }
                px0 = px1;
            }
            py = rows_end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×2 sheet with every pixel distinct:
    /// ```text
    /// 1 2 3
    /// 4 5 6
    /// ```
    fn sheet() -> SpriteSheet {
        SpriteSheet::from_indexed(3, 2, vec![1, 2, 3, 4, 5, 6]).unwrap()
    }

    fn drawn(flags: u8) -> Vec<Vec<u8>> {
        let mut fb = Framebuffer::new(3, 3);
        fb.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().flags(flags),
        );
        let turns = u8::from(flags & ROT_90 != 0)
            + 2 * u8::from(flags & ROT_180 != 0)
            + 3 * u8::from(flags & ROT_270 != 0);
        let (w, h) = if turns % 2 == 1 { (2, 3) } else { (3, 2) };
        (0..h)
            .map(|y| (0..w).map(|x| fb.get(x, y).unwrap()).collect())
            .collect()
    }

    #[test]
    fn the_eight_orientations() {
        assert_eq!(drawn(0), [[1, 2, 3], [4, 5, 6]]);
        assert_eq!(drawn(FLIP_H), [[3, 2, 1], [6, 5, 4]]);
        assert_eq!(drawn(FLIP_V), [[4, 5, 6], [1, 2, 3]]);
        assert_eq!(drawn(FLIP_H | FLIP_V), [[6, 5, 4], [3, 2, 1]]);
        assert_eq!(drawn(ROT_180), [[6, 5, 4], [3, 2, 1]]);
        assert_eq!(drawn(ROT_90), [[4, 1], [5, 2], [6, 3]]);
        assert_eq!(drawn(ROT_270), [[3, 6], [2, 5], [1, 4]]);
        // Flip first, then turn.
        assert_eq!(drawn(FLIP_H | ROT_90), [[6, 3], [5, 2], [4, 1]]);
        assert_eq!(drawn(FLIP_V | ROT_90), [[1, 4], [2, 5], [3, 6]]);
        // Turns add up modulo a full turn: 90 + 180 is 270, and 90 + 180 + 270 is 180.
        assert_eq!(drawn(ROT_90 | ROT_180), drawn(ROT_270));
        assert_eq!(drawn(ROT_90 | ROT_180 | ROT_270), drawn(ROT_180));
    }

    #[test]
    fn index_zero_is_see_through_and_offset_skips_it() {
        let s = SpriteSheet::from_indexed(2, 1, vec![0, 3]).unwrap();
        let mut fb = Framebuffer::new(2, 1);
        fb.clear(9);
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 2, 1),
            0,
            0,
            SpriteParams::new().offset(4),
        );
        assert_eq!(fb.pixels(), [9, 7]);
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 2, 1),
            0,
            0,
            SpriteParams::new().offset(255),
        );
        assert_eq!(fb.pixels(), [9, 255], "capped at 255");
    }

    #[test]
    fn scale_repeats_pixels_in_squares() {
        let mut fb = Framebuffer::new(6, 4);
        fb.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().scale(2),
        );
        assert_eq!(&fb.pixels()[..6], [1, 1, 2, 2, 3, 3]);
        assert_eq!(&fb.pixels()[6..12], [1, 1, 2, 2, 3, 3]);
        assert_eq!(&fb.pixels()[18..], [4, 4, 5, 5, 6, 6]);
        let mut none = Framebuffer::new(6, 4);
        none.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().scale(0),
        );
        assert!(none.pixels().iter().all(|&p| p == 0));
    }

    #[test]
    fn source_outside_the_sheet_draws_nothing_there() {
        let mut fb = Framebuffer::new(5, 4);
        // One column and one row before the sheet: they are see-through, the rest lands at +1.
        fb.draw_sprite(&sheet(), Rect::new(-1, -1, 5, 5), 0, 0, SpriteParams::new());
        assert_eq!(fb.get(0, 0), Some(0));
        assert_eq!(fb.get(1, 1), Some(1));
        assert_eq!(fb.get(3, 2), Some(6));
        let mut turned = Framebuffer::new(5, 5);
        turned.draw_sprite(
            &sheet(),
            Rect::new(-1, 0, 4, 2),
            0,
            0,
            SpriteParams::new().flags(FLIP_H),
        );
        // Mirrored, the missing column is on the right.
        assert_eq!(turned.get(0, 0), Some(3));
        assert_eq!(turned.get(3, 0), Some(0));
    }

    #[test]
    fn extreme_arguments_do_not_panic() {
        let mut fb = Framebuffer::new(8, 8);
        let s = sheet();
        for &(x, y) in &[(i32::MIN, i32::MIN), (i32::MAX, i32::MAX), (-2, 7), (7, -1)] {
            for flags in 0..32 {
                for scale in [0, 1, 3, u32::MAX] {
                    for src in [
                        Rect::new(0, 0, 3, 2),
                        Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX),
                        Rect::new(i32::MAX, 0, i32::MAX, 5),
                        Rect::new(1, 1, -4, 9),
                    ] {
                        let p = SpriteParams::new().flags(flags).scale(scale);
                        fb.draw_sprite(&s, src, x, y, p);
                    }
                }
            }
        }
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 3, 2),
            6,
            6,
            SpriteParams::new().scale(u32::MAX),
        );
        assert_eq!(fb.get(6, 6), Some(1));
        assert_eq!(fb.get(7, 7), Some(1));
    }

    #[test]
    fn tiles_count_row_by_row() {
        let px: Vec<u8> = (0..16 * 8).map(|i| ((i % 16) / 8 + 1) as u8).collect();
        let s = SpriteSheet::from_indexed(16, 8, px).unwrap();
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_tile(&s, 1, 0, 0, SpriteParams::new());
        assert!(fb.pixels().iter().all(|&p| p == 2));
        fb.draw_tile(&s, 2, 0, 0, SpriteParams::new().offset(5));
        assert!(
            fb.pixels().iter().all(|&p| p == 2),
            "no tile 2: nothing drawn"
        );
    }

    #[test]
    fn bad_sheets_are_named() {
        let e = SpriteSheet::from_indexed(2, 2, vec![0; 3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "indexed pixels: expected 4 values for the size given, got 3"
        );
        let e = SpriteSheet::from_indexed(8193, 1, vec![0; 8193]).unwrap_err();
        assert!(e.to_string().contains("8193x1"), "{e}");
        let mut pal = Palette::new(4).unwrap();
        let e = SpriteSheet::from_rgba("a.png", 1, 1, &[1, 2, 3, 255], &mut pal, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.png: start slot 0 must be between 1 and 3 for a palette of 4 colours"
        );
    }

    #[test]
    fn too_many_colours_leave_the_palette_alone() {
        let mut pal = Palette::new(4).unwrap();
        let before = pal.clone();
        let rgba: Vec<u8> = (0..4u8).flat_map(|i| [i * 10, 0, 0, 255]).collect();
        let e = SpriteSheet::from_rgba("four.png", 4, 1, &rgba, &mut pal, 1).unwrap_err();
        assert!(matches!(
            e.kind,
            AssetErrorKind::TooManyColors {
                colors: 4,
                free: 3,
                ..
            }
        ));
        assert_eq!(pal, before);
    }
}
