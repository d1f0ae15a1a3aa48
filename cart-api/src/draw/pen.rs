//! The draw-time state a frame's drawing goes through: the palette remap and the fill pattern.
//!
//! Both start plain every frame (no remap, no pattern) and are put back when `render` ends, so
//! the overlay and the next frame never inherit them. While both are plain, every primitive
//! and the sprite blitter take the same paths as before the pen existed.

use crate::draw::ColorKey;
use crate::draw::{Bounds, Framebuffer};

/// The remap and fill pattern in force, kept with the framebuffer they apply to.
#[derive(Clone)]
pub(crate) struct Pen {
    /// Index `i` drawn by a shape, sprite, tile or text lands as `remap[i]`.
    pub(crate) remap: [u8; 256],
    /// Whether `remap` differs from the identity.
    pub(crate) remapped: bool,
    /// A 4 × 4 pattern, bit 15 the top-left pixel, reading left to right and down.
    pub(crate) pattern: u16,
    /// What the pattern's set bits draw: `None` leaves those pixels alone.
    pub(crate) pattern_alt: Option<u8>,
    /// Counts remap changes, so a cached sprite ink table knows when it is stale.
    pub(crate) generation: u32,
    /// Whether drawn pixels go through `blend` (`blend.rs`).
    pub(crate) blending: bool,
    /// The blend table in force while `blending`; kept when blending stops, so setting one
    /// again copies into it instead of allocating.
    pub(crate) blend: Option<Box<crate::draw::BlendTable>>,
}

impl PartialEq for Pen {
    /// The same remap and pattern, however many changes led there.
    fn eq(&self, other: &Pen) -> bool {
        self.remap == other.remap
            && (self.pattern, self.pattern_alt) == (other.pattern, other.pattern_alt)
            && self.blending == other.blending
            && (!self.blending || self.blend == other.blend)
    }
}

impl Eq for Pen {}

impl Default for Pen {
    fn default() -> Pen {
        Pen {
            remap: IDENTITY,
            remapped: false,
            pattern: 0,
            pattern_alt: None,
            generation: 0,
            blending: false,
            blend: None,
        }
    }
}

impl std::fmt::Debug for Pen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pen")
            .field("remapped", &self.remapped)
            .field("pattern", &format_args!("{:#06x}", self.pattern))
            .field("pattern_alt", &self.pattern_alt)
            .finish_non_exhaustive()
    }
}

const IDENTITY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

impl Pen {
    /// What a shape pixel of `index` at screen `(x, y)` draws, or `None` to leave it.
    #[inline]
    pub(crate) fn ink_at(&self, x: i64, y: i64, index: u8) -> Option<u8> {
        if self.pattern_bit(x, y) {
            self.pattern_alt.map(|alt| self.remap[usize::from(alt)])
        } else {
            Some(self.remap[usize::from(index)])
        }
    }

    /// What a pixel of `v` drawn over `dst` becomes: `v`, or the blend table's answer.
    #[inline]
    pub(crate) fn over(&self, v: u8, dst: u8) -> u8 {
        match &self.blend {
            Some(table) if self.blending => table.get(v, dst),
            _ => v,
        }
    }

    #[inline]
    fn pattern_bit(&self, x: i64, y: i64) -> bool {
        let bit = 15 - ((y & 3) * 4 + (x & 3));
        self.pattern & (1 << bit) != 0
    }
}

/// A sprite's stored indices turned into what lands on screen: the colour key, the palette
/// offset and the remap folded into one table, built once for a run of draws that share them.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct InkTable {
    /// `value[s]` is what stored index `s` draws, or 256 when `s` is see-through.
    pub(crate) value: [u16; 256],
    built_for: Option<(ColorKey, u8, u32)>,
}

impl Default for InkTable {
    fn default() -> InkTable {
        InkTable {
            value: [256; 256],
            built_for: None,
        }
    }
}

impl std::fmt::Debug for InkTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InkTable").finish_non_exhaustive()
    }
}

impl InkTable {
    /// Makes the table right for `key`, `offset` and `pen`, rebuilding it only when they
    /// changed since the last time.
    pub(crate) fn prepare(&mut self, key: ColorKey, offset: u8, pen: &Pen) {
        let want = (key, offset, pen.generation);
        if self.built_for == Some(want) {
            return;
        }
        for (s, v) in self.value.iter_mut().enumerate() {
            let s = s as u8;
            *v = if key.contains(s) {
                256
            } else {
                u16::from(pen.remap[usize::from(s.saturating_add(offset))])
            };
        }
        self.built_for = Some(want);
    }
}

/// Copies `src` over `dst` through `table`, leaving `dst` where the table says see-through.
#[inline]
pub(crate) fn blend_row_table(dst: &mut [u8], src: &[u8], table: &[u16; 256]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        let v = table[usize::from(s)];
        if v < 256 {
            *d = v as u8;
        }
    }
}

/// A 4 × 4 fill pattern for shapes, as PICO-8's `fillp` packs it: bit 15 is the top-left pixel
/// of each 4 × 4 block of the screen, bit 0 the bottom-right, reading left to right and down.
/// Pixels under a set bit are the ones *not* drawn in the shape's colour (see
/// [`Render::set_fill_pattern`](crate::Render::set_fill_pattern)).
///
/// ```
/// use bt::FillPattern;
///
/// assert_eq!(FillPattern::dither(1.0), FillPattern::SOLID, "everything drawn");
/// assert_eq!(FillPattern::dither(0.0).bits(), 0xffff, "nothing drawn");
/// assert_eq!(FillPattern::dither(0.5).bits().count_ones(), 8, "half");
/// assert_eq!(FillPattern::dither(f32::NAN).bits(), 0xffff);
/// assert_eq!(FillPattern::new(0x5a5a).bits(), 0x5a5a);
/// assert_eq!(FillPattern::default(), FillPattern::SOLID);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FillPattern(u16);

impl FillPattern {
    /// No bit set: every pixel drawn.
    pub const SOLID: FillPattern = FillPattern(0);

    /// The pattern of these 16 bits (PICO-8's `fillp` value).
    pub const fn new(bits: u16) -> FillPattern {
        FillPattern(bits)
    }

    /// The pattern closest to drawing `alpha` of the pixels (0 none, 1 all), from the 4 × 4
    /// ordered-dither (Bayer) matrix: what Pyxel's `dither(alpha)` does to later shapes. An
    /// `alpha` that is not a number draws none.
    pub fn dither(alpha: f32) -> FillPattern {
        // Thresholds of the 4 × 4 Bayer matrix, row by row.
        const BAYER: [u8; 16] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
        let alpha = if alpha.is_nan() {
            0.0
        } else {
            alpha.clamp(0.0, 1.0)
        };
        let drawn = (alpha * 16.0).round() as u8;
        let mut pattern = 0u16;
        for (i, &t) in BAYER.iter().enumerate() {
            if t >= drawn {
                pattern |= 1 << (15 - i);
            }
        }
        FillPattern(pattern)
    }

    /// The 16 bits.
    pub const fn bits(self) -> u16 {
        self.0
    }
}

impl Framebuffer {
    /// Makes every later shape, sprite, tile and text pixel of index `from` land as `to`
    /// (PICO-8's `pal(from, to)`). The colour key is decided before the remap: a sprite's
    /// see-through pixels stay see-through, and remapping to 0 writes index 0 (blank).
    pub fn set_remap(&mut self, from: u8, to: u8) {
        self.pen.remap[usize::from(from)] = to;
        self.pen.remapped = self
            .pen
            .remap
            .iter()
            .enumerate()
            .any(|(i, &v)| usize::from(v) != i);
        self.pen.generation = self.pen.generation.wrapping_add(1);
    }

    /// Undoes every remap.
    pub fn reset_remap(&mut self) {
        if self.pen.remapped {
            self.pen.remap = IDENTITY;
            self.pen.remapped = false;
            self.pen.generation = self.pen.generation.wrapping_add(1);
        }
    }

    /// What index `index` lands as under the remap in force.
    pub fn remap(&self, index: u8) -> u8 {
        self.pen.remap[usize::from(index)]
    }

    /// Sets the 4 × 4 fill pattern for later shapes (not sprites, tiles or text). Pixels under a
    /// set bit of `pattern` draw `alt`, or are left alone when `alt` is `None`;
    /// [`FillPattern::SOLID`] draws solid.
    pub fn set_fill_pattern(&mut self, pattern: FillPattern, alt: Option<u8>) {
        self.pen.pattern = pattern.bits();
        self.pen.pattern_alt = alt;
    }

    /// Draws solid again.
    pub fn reset_fill_pattern(&mut self) {
        self.set_fill_pattern(FillPattern::SOLID, None);
    }

    /// Puts the remap and the fill pattern back to plain.
    pub(crate) fn pen_reset(&mut self) {
        self.reset_remap();
        self.reset_fill_pattern();
        self.reset_blend();
    }

    /// Fills a box already inside the clip through the pen. Out of line, so the plain fill it
    /// sits beside stays small where that is inlined.
    #[inline(never)]
    pub(crate) fn fill_bounds_pen(&mut self, b: Bounds, index: u8) {
        let w = self.width as usize;
        for y in b.y0..b.y1 {
            let row = y as usize * w;
            for x in b.x0..b.x1 {
                if let Some(v) = self.pen.ink_at(x, y, index) {
                    let i = row + x as usize;
                    self.pixels[i] = self.pen.over(v, self.pixels[i]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Rect;

    #[test]
    fn remap_changes_what_lands_and_reset_undoes_it() {
        let mut fb = Framebuffer::new(4, 1);
        fb.set_remap(7, 9);
        fb.draw_rect_fill(Rect::new(0, 0, 2, 1), 7);
        fb.draw_pixel(2, 0, 8);
        assert_eq!(fb.pixels(), [9, 9, 8, 0]);
        fb.set_remap(7, 7);
        assert!(!fb.pen.remapped, "back to the identity");
        fb.set_remap(8, 10);
        fb.reset_remap();
        fb.draw_pixel(3, 0, 8);
        assert_eq!(fb.pixels(), [9, 9, 8, 8]);
    }

    #[test]
    fn pattern_bits_follow_the_screen_from_the_top_left() {
        let mut fb = Framebuffer::new(8, 4);
        // Top-left pixel of each block and the whole bottom row are skipped.
        fb.set_fill_pattern(FillPattern::new(0x800f), None);
        fb.draw_rect_fill(Rect::new(0, 0, 8, 4), 5);
        let at = |fb: &Framebuffer, x, y| fb.get(x, y).unwrap();
        assert_eq!((at(&fb, 0, 0), at(&fb, 4, 0), at(&fb, 1, 0)), (0, 0, 5));
        assert!((0..8).all(|x| at(&fb, x, 3) == 0));
        assert!((0..8).all(|x| at(&fb, x, 2) == 5));
        fb.set_fill_pattern(FillPattern::new(0xffff), Some(2));
        fb.draw_pixel(0, 3, 5);
        assert_eq!(at(&fb, 0, 3), 2, "set bits draw the second colour");
    }

    #[test]
    fn dither_patterns_cover_about_alpha() {
        for n in 0..=16 {
            let p = FillPattern::dither(n as f32 / 16.0).bits();
            assert_eq!(16 - p.count_ones(), n, "alpha {n}/16");
        }
        // Each step adds pixels to the last, so fades never flicker.
        for n in 0..16 {
            let (a, b) = (
                FillPattern::dither(n as f32 / 16.0).bits(),
                FillPattern::dither((n + 1) as f32 / 16.0).bits(),
            );
            assert_eq!(a & b, b);
        }
    }
}
