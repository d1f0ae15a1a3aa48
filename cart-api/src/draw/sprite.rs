//! Sprite sheets: palette-indexed pictures that carts draw from (the blitter that draws them is
//! in `blit/`).
//!
//! A sheet stores one palette index per pixel, like the framebuffer. Index 0 is see-through. A
//! sheet is made from indexed pixels in code ([`SpriteSheet::from_indexed`]) or from RGBA pixels
//! whose colours are registered into a palette ([`SpriteSheet::from_rgba`]); the host decodes
//! image files into RGBA through an [`ImageLoader`], so this crate knows no file format.

use std::collections::HashMap;
use std::fmt;
use std::ops::{Range, RangeInclusive};

use crate::assets::{AssetError, AssetErrorKind};

use crate::draw::Rect;
use crate::settings::{MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE};
use crate::{Color32, Palette};

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

/// How a sprite is drawn: orientation flags, a whole-number scale, a palette offset and,
/// when it should not be the sheet's, the colour key.
///
/// ```
/// use bt::{ColorKey, SpriteParams, FLIP_H, ROT_90};
///
/// let p = SpriteParams::new().flags(FLIP_H | ROT_90).scale(2).palette_offset(16);
/// assert_eq!((p.flags, p.scale, p.palette_offset), (FLIP_H | ROT_90, 2, 16));
/// assert_eq!(SpriteParams::default(), SpriteParams::new());
/// let keyed = SpriteParams::new().key(ColorKey::single(11));
/// assert_eq!(keyed.key, Some(ColorKey::single(11)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpriteParams {
    /// Any of [`FLIP_H`], [`FLIP_V`], [`ROT_90`], [`ROT_180`], [`ROT_270`], or-ed together. The
    /// flips apply first (left-right, then top-bottom), then the turns, which add up modulo a
    /// full turn: eight orientations in all. Other bits are ignored.
    pub flags: u8,
    /// Each sprite pixel becomes a `scale × scale` square. 0 draws nothing. Default 1.
    ///
    /// It applies wherever a draw's size comes from the sprite: `draw_sprite`, `draw_tile`,
    /// the map draws, and `draw_sprite_transformed`, where it multiplies the transform's own
    /// scale. The draws given their size (`draw_sprite_stretched` by its `dst`, `draw_span`
    /// by its length and step, `draw_nine_slice` by its `dst`) have no size for it to
    /// change, and leave it alone.
    pub scale: u32,
    /// Added to every stored index except 0: stored index `i` draws `i + palette_offset`,
    /// capped at 255. Default 0.
    pub palette_offset: u8,
    /// The stored indices that are see-through for this draw, or `None` (the default) for the
    /// sheet's own ([`SpriteSheet::key`], index 0 unless changed). The key is looked up before
    /// the offset is added.
    pub key: Option<ColorKey>,
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
            key: None,
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

    /// Sets the palette offset ([`SpriteParams::palette_offset`]).
    pub const fn palette_offset(mut self, palette_offset: u8) -> SpriteParams {
        self.palette_offset = palette_offset;
        self
    }

    /// Sets the palette offset: the old name of [`SpriteParams::palette_offset`], which the
    /// builder method now shares with the field it sets.
    #[deprecated(note = "renamed to `palette_offset`, the name of the field it sets")]
    pub const fn offset(self, palette_offset: u8) -> SpriteParams {
        self.palette_offset(palette_offset)
    }

    /// Draws with `key` as the see-through indices instead of the sheet's.
    pub const fn key(mut self, key: ColorKey) -> SpriteParams {
        self.key = Some(key);
        self
    }
}

/// How [`SpriteSheet::from_rgba_matched`] finds a palette slot for each of an image's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColorMatch {
    /// The slot holding exactly the colour; a colour no slot holds is an error.
    Exact,
    /// The slot whose colour is nearest ([`Palette::nearest_in`]); never fails.
    Nearest,
}

/// A set of palette indices that a sprite or tile leaves see-through: the colour key.
///
/// Sheets start with index 0 alone ([`ColorKey::default`]); [`ColorKey::NONE`] draws every
/// pixel, index 0 included, as Pyxel's `blt` without a key does. Set one per sheet with
/// [`SpriteSheet::with_key`] or per draw with [`SpriteParams::key`].
///
/// ```
/// use bt::ColorKey;
///
/// let key = ColorKey::single(3).with(12);
/// assert!(key.contains(3) && key.contains(12) && !key.contains(0));
/// assert!(!key.without(3).contains(3));
/// assert!(ColorKey::default().contains(0));
/// assert!(!ColorKey::NONE.contains(0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColorKey([u64; 4]);

impl ColorKey {
    /// No see-through index: every pixel draws.
    pub const NONE: ColorKey = ColorKey([0; 4]);

    /// Index `index` alone.
    pub const fn single(index: u8) -> ColorKey {
        ColorKey::NONE.with(index)
    }

    /// This key with `index` see-through too.
    pub const fn with(mut self, index: u8) -> ColorKey {
        self.0[(index / 64) as usize] |= 1 << (index % 64);
        self
    }

    /// This key with `index` drawn.
    pub const fn without(mut self, index: u8) -> ColorKey {
        self.0[(index / 64) as usize] &= !(1 << (index % 64));
        self
    }

    /// Whether `index` is see-through.
    pub const fn contains(self, index: u8) -> bool {
        self.0[(index / 64) as usize] & (1 << (index % 64)) != 0
    }

    /// Whether this is index 0 alone, the key the fast blitter handles.
    pub(crate) fn is_zero_only(self) -> bool {
        self.0 == [1, 0, 0, 0]
    }
}

impl Default for ColorKey {
    /// Index 0 alone.
    fn default() -> ColorKey {
        ColorKey::single(0)
    }
}

impl fmt::Debug for ColorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries((0..=255u8).filter(|&i| self.contains(i)))
            .finish()
    }
}

pub(crate) fn check_size(name: &str, width: u64, height: u64) -> Result<(), AssetError> {
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
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Shared: a copy of the sheet (a cart's snapshot) costs no pixels. Only an off-screen
    /// image changes its pixels, copying them first if a copy shares them.
    pub(crate) pixels: std::sync::Arc<Vec<u8>>,
    tile: (u32, u32),
    slots: Range<usize>,
    pub(crate) key: ColorKey,
    /// Whether `key` is index 0 alone: the blitter's fast path, checked once here.
    pub(crate) key_is_zero: bool,
}

impl fmt::Debug for SpriteSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpriteSheet")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("tile", &self.tile)
            .field("slots", &self.slots)
            .field("key", &self.key)
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
            pixels: pixels.into(),
            tile: (DEFAULT_TILE, DEFAULT_TILE),
            slots: 0..0,
            key: ColorKey::default(),
            key_is_zero: true,
        })
    }

    /// Makes the sheet `width × height` with the tile size, palette range and key a new sheet
    /// has, keeping its pixels (which the caller has made `width × height` long).
    pub(crate) fn set_blank_header(&mut self, width: u32, height: u32) {
        debug_assert_eq!(self.pixels.len(), width as usize * height as usize);
        (self.width, self.height) = (width, height);
        self.tile = (DEFAULT_TILE, DEFAULT_TILE);
        self.slots = 0..0;
        self.key = ColorKey::default();
        self.key_is_zero = true;
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
    /// assert_eq!(sheet.palette_slots(), 14..=15);
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
        start_slot: u8,
    ) -> Result<SpriteSheet, AssetError> {
        check_size(name, width.into(), height.into())?;
        let first = start_slot;
        let start_slot = usize::from(start_slot);
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
                    slot: first,
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
                    start_slot: first,
                },
            ));
        }
        for (i, [r, g, b]) in order.iter().enumerate() {
            // In range: start_slot + i < size <= 256 was checked above.
            let _ = palette.set((start_slot + i) as u8, Color32::rgb(*r, *g, *b));
        }
        Ok(SpriteSheet {
            width,
            height,
            pixels: pixels.into(),
            tile: (DEFAULT_TILE, DEFAULT_TILE),
            slots: start_slot..start_slot + order.len(),
            key: ColorKey::default(),
            key_is_zero: true,
        })
    }

    /// A sheet from RGBA pixels drawn in colours the palette already has: each opaque pixel
    /// (alpha 128 or more) takes a slot among `slots` holding its colour, and the palette is
    /// not changed. Art drawn in the PICO-8 colours so lands on slots 0 to 15 of the default
    /// palette instead of taking 16 new ones, as BLIT386's `indexize` does. Pixels with alpha
    /// below 128 become index 0 (see-through), as in [`SpriteSheet::from_rgba`].
    ///
    /// With [`ColorMatch::Exact`] each colour must be in one of the slots (red, green and blue
    /// equal; the first such slot is used). With [`ColorMatch::Nearest`] each takes the slot
    /// [`Palette::nearest_in`] gives: the smallest squared RGB distance, ties to the lower
    /// slot. A colour that lands on slot 0 is see-through when drawn, as black is in PICO-8's
    /// sprites; leave slot 0 out of `slots` to keep it drawn.
    ///
    /// ```
    /// use bt::{ColorMatch, Palette, SpriteSheet};
    ///
    /// let pico = Palette::pico8();
    /// let red = [0xff, 0x00, 0x4d, 255]; // slot 8
    /// let near_blue = [0x20, 0xa0, 0xff, 255]; // not in the palette; blue (slot 12) is nearest
    /// let rgba = [red, near_blue].concat();
    /// let sheet = SpriteSheet::from_rgba_matched("art.png", 2, 1, &rgba, &pico, 0..=15, ColorMatch::Nearest)?;
    /// assert_eq!(sheet.pixels(), [8, 12]);
    ///
    /// let err = SpriteSheet::from_rgba_matched("art.png", 2, 1, &rgba, &pico, 0..=15, ColorMatch::Exact)
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "art.png: the colour #20a0ff at pixel (1, 0) is in none of palette slots 0 to 15"
    /// );
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    ///
    /// # Errors
    /// [`AssetErrorKind::TooLarge`], [`AssetErrorKind::PixelCount`] as for
    /// [`SpriteSheet::from_rgba`]; [`AssetErrorKind::SlotRange`] when `slots` holds no slot of
    /// the palette; [`AssetErrorKind::NoSlotForColor`] when matching exactly and a colour is
    /// in none of the slots. Each names `name`.
    pub fn from_rgba_matched(
        name: &str,
        width: u32,
        height: u32,
        rgba: &[u8],
        palette: &Palette,
        slots: RangeInclusive<u8>,
        matching: ColorMatch,
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
        let (first, last) = (*slots.start(), *slots.end());
        if first > last || usize::from(first) >= size {
            return Err(AssetError::new(
                name,
                AssetErrorKind::SlotRange { first, last, size },
            ));
        }
        let last = last.min((size - 1) as u8);
        let mut found: HashMap<[u8; 3], u8> = HashMap::new();
        let mut pixels = Vec::with_capacity(rgba.len() / 4);
        for (i, px) in rgba.chunks_exact(4).enumerate() {
            if px[3] < 128 {
                pixels.push(0);
                continue;
            }
            let key = [px[0], px[1], px[2]];
            let color = Color32::rgb(px[0], px[1], px[2]);
            let slot = match found.get(&key) {
                Some(&slot) => slot,
                None => {
                    let slot = match matching {
                        ColorMatch::Exact => (first..=last).find(|&s| {
                            palette
                                .get(s)
                                .is_some_and(|c| (c.r, c.g, c.b) == (px[0], px[1], px[2]))
                        }),
                        ColorMatch::Nearest => palette.nearest_in(color, first..=last),
                    };
                    let Some(slot) = slot else {
                        let width = width as usize;
                        return Err(AssetError::new(
                            name,
                            AssetErrorKind::NoSlotForColor {
                                color: color.to_string(),
                                x: (i % width) as u32,
                                y: (i / width) as u32,
                                first,
                                last,
                            },
                        ));
                    };
                    found.insert(key, slot);
                    slot
                }
            };
            pixels.push(slot);
        }
        Ok(SpriteSheet {
            width,
            height,
            pixels: pixels.into(),
            tile: (DEFAULT_TILE, DEFAULT_TILE),
            slots: 0..0,
            key: ColorKey::default(),
            key_is_zero: true,
        })
    }

    /// Sets the tile size [`SpriteSheet::tile_rect`] and `draw_tile` use (default 8 × 8). A side
    /// of 0 counts as 1.
    pub fn with_tile_size(mut self, width: u32, height: u32) -> SpriteSheet {
        self.tile = (width.max(1), height.max(1));
        self
    }

    /// Sets the indices this sheet leaves see-through when a draw does not choose its own
    /// ([`SpriteParams::key`]); index 0 alone until changed.
    ///
    /// ```
    /// use bt::host::Framebuffer;
    /// use bt::{ColorKey, Rect, SpriteParams, SpriteSheet};
    ///
    /// // A sheet drawn on a pink background (index 14), as Pyxel and PICO-8 art often is.
    /// let sheet = SpriteSheet::from_indexed(2, 1, vec![14, 7])?.with_key(ColorKey::single(14));
    /// let mut fb = Framebuffer::new(2, 1);
    /// fb.clear(1);
    /// fb.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), 0, 0, SpriteParams::new());
    /// assert_eq!(fb.pixels(), [1, 7]);
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    pub fn with_key(mut self, key: ColorKey) -> SpriteSheet {
        self.key = key;
        self.key_is_zero = key.is_zero_only();
        self
    }

    /// The indices this sheet leaves see-through.
    pub fn key(&self) -> ColorKey {
        self.key
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

    /// The palette slots [`SpriteSheet::from_rgba`] registered colours into, first to last, as
    /// the `u8` slots draw calls and [`Palette::get`] take (empty for a sheet made from indices
    /// or matched onto existing slots with [`SpriteSheet::from_rgba_matched`]).
    pub fn palette_slots(&self) -> RangeInclusive<u8> {
        match (self.slots.start, self.slots.end.checked_sub(1)) {
            // Slots are below 256: `from_rgba` registered them into a palette of at most 256.
            (first, Some(last)) if first <= last => first as u8..=last as u8,
            _ => RangeInclusive::new(1, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Framebuffer;

    /// One row of RGBA pixels, one per colour.
    fn row(colors: &[Color32]) -> Vec<u8> {
        colors.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect()
    }

    #[test]
    fn palette_offset_builder_sets_the_field_of_its_name_and_the_old_name_still_does() {
        let p = SpriteParams::new().palette_offset(16);
        assert_eq!(p.palette_offset, 16);
        #[allow(deprecated)]
        let old = SpriteParams::new().offset(16);
        assert_eq!(old, p);
    }

    #[test]
    fn art_in_the_palettes_colours_lands_on_its_slots_and_leaves_it_alone() {
        let pico = Palette::pico8();
        // Every PICO-8 colour, last first, then a see-through pixel.
        let mut colors: Vec<Color32> = pico.colors().iter().rev().copied().collect();
        colors.push(Color32::TRANSPARENT);
        let rgba = row(&colors);
        let before = pico.clone();
        for matching in [ColorMatch::Exact, ColorMatch::Nearest] {
            let sheet =
                SpriteSheet::from_rgba_matched("pico.png", 17, 1, &rgba, &pico, 0..=15, matching)
                    .unwrap();
            let want: Vec<u8> = (0..16).rev().chain([0]).collect();
            assert_eq!(sheet.pixels(), want, "{matching:?}");
            assert!(sheet.palette_slots().is_empty());
        }
        assert_eq!(pico, before, "the palette is not changed");
        // The registering loader would have taken 16 new slots for the same picture.
        let mut grown = Palette::pico8().resized(32).unwrap();
        let sheet = SpriteSheet::from_rgba("pico.png", 17, 1, &rgba, &mut grown, 16).unwrap();
        assert_eq!(sheet.palette_slots(), 16..=31);
    }

    #[test]
    fn nearest_matching_stays_in_the_slots_given() {
        let pico = Palette::pico8();
        let rgba = row(&[Color32::BLACK, Color32::hex(0xfe0050)]);
        let sheet =
            SpriteSheet::from_rgba_matched("a", 2, 1, &rgba, &pico, 1..=15, ColorMatch::Nearest)
                .unwrap();
        assert_eq!(
            sheet.pixels(),
            [1, 8],
            "black avoids slot 0 when slot 0 is left out"
        );
        let sheet =
            SpriteSheet::from_rgba_matched("a", 2, 1, &rgba, &pico, 8..=200, ColorMatch::Nearest)
                .unwrap();
        assert_eq!(sheet.pixels()[1], 8, "a range past the end is cut to it");
    }

    #[test]
    fn matching_errors_name_the_file_the_colour_the_pixel_and_the_slots() {
        let pico = Palette::pico8();
        let mut colors = vec![Color32::hex(0xff004d); 5];
        colors[4] = Color32::hex(0x123456);
        let rgba = row(&colors);
        let err = SpriteSheet::from_rgba_matched(
            "lvl.png",
            2,
            3,
            &rgba,
            &pico,
            0..=15,
            ColorMatch::Exact,
        );
        assert_eq!(
            err.unwrap_err().kind,
            AssetErrorKind::PixelCount {
                expected: 24,
                got: 20
            }
        );
        let rgba = [rgba, row(&[Color32::TRANSPARENT])].concat();
        let err = SpriteSheet::from_rgba_matched(
            "lvl.png",
            2,
            3,
            &rgba,
            &pico,
            0..=15,
            ColorMatch::Exact,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "lvl.png: the colour #123456 at pixel (0, 2) is in none of palette slots 0 to 15"
        );
        let err = SpriteSheet::from_rgba_matched(
            "lvl.png",
            2,
            3,
            &rgba,
            &pico,
            16..=20,
            ColorMatch::Nearest,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "lvl.png: palette slots 16 to 20 hold no slot of a palette of 16 colours"
        );
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = 5..=2;
        assert!(SpriteSheet::from_rgba_matched(
            "lvl.png",
            2,
            3,
            &rgba,
            &pico,
            backwards,
            ColorMatch::Nearest
        )
        .is_err());
    }

    #[test]
    fn tiles_count_row_by_row() {
        let px: Vec<u8> = (0..16 * 8).map(|i| ((i % 16) / 8 + 1) as u8).collect();
        let s = SpriteSheet::from_indexed(16, 8, px).unwrap();
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_tile(&s, 1, 0, 0, SpriteParams::new());
        assert!(fb.pixels().iter().all(|&p| p == 2));
        fb.draw_tile(&s, 2, 0, 0, SpriteParams::new().palette_offset(5));
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
