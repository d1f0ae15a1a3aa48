//! The blitter: draws part of a [`SpriteSheet`] into a [`Framebuffer`] in any of eight
//! orientations, at a whole-number scale, with a palette offset, a colour key and the pen's
//! remap. It clips once up front, then runs tight loops over whole rows. The common case (key
//! index 0 alone, no remap) blends with a select the compiler vectorises; any other key or a
//! remap goes through one lookup table built per run of draws that share it.

mod rows;
#[cfg(test)]
mod tests;
mod transform;

pub(crate) use transform::Span;
pub use transform::Transform;

use crate::draw::blend_row_table;
use crate::draw::{Bounds, Framebuffer, Rect};
use crate::draw::{SpriteParams, SpriteSheet, FLIP_H, FLIP_V, ROT_180, ROT_270, ROT_90};

use rows::*;

/// An orientation as a map from sprite-local pixels `l` to drawn pixels `o = M·l + t`, with `M`
/// a signed permutation matrix (so its inverse is its transpose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Orientation {
    m: [[i64; 2]; 2],
    t: [i64; 2],
    /// The drawn size.
    pub(crate) size: (i64, i64),
}

impl Orientation {
    pub(crate) fn new(flags: u8, w: i64, h: i64) -> Orientation {
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

    pub(crate) fn forward(&self, x: i64, y: i64) -> (i64, i64) {
        (
            self.m[0][0] * x + self.m[0][1] * y + self.t[0],
            self.m[1][0] * x + self.m[1][1] * y + self.t[1],
        )
    }

    /// The sprite-local pixel drawn at `(u, v)`.
    pub(crate) fn inverse(&self, u: i64, v: i64) -> (i64, i64) {
        let (a, b) = (u - self.t[0], v - self.t[1]);
        (
            self.m[0][0] * a + self.m[1][0] * b,
            self.m[0][1] * a + self.m[1][1] * b,
        )
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

    #[inline]
    pub(crate) fn sprite_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        params: SpriteParams,
    ) {
        // The common case decided first and drawn here, so its call stays small: no turn, no
        // mirror, scale 1, index 0 see-through, no remap. The key is looked at where it is,
        // not copied.
        let zero_key = match &params.key {
            None => sheet.key_is_zero,
            Some(key) => key.is_zero_only(),
        };
        let plain_pen = !self.pen.remapped && !self.pen.blending;
        if zero_key && plain_pen && params.scale == 1 && params.flags & ORIENT == 0 {
            self.blit_plain(sheet, src, x, y, Offset(params.palette_offset));
        } else {
            self.sprite_other(sheet, src, x, y, params);
        }
    }

    /// Every draw but the common one: turned, mirrored or scaled, another key, or a remap.
    /// Kept out of line so its working memory is not set up for every plain sprite.
    #[inline(never)]
    fn sprite_other(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        params: SpriteParams,
    ) {
        let flags = params.flags & ORIENT;
        let key = params.key.unwrap_or(sheet.key);
        if key.is_zero_only() && !self.pen.remapped && !self.pen.blending {
            let ink = Offset(params.palette_offset);
            if params.scale == 1 && flags == 0 {
                self.blit_plain(sheet, src, x, y, ink);
            } else {
                self.blit_general(sheet, src, x, y, flags, params.scale, ink);
            }
            return;
        }
        // Taken out while drawing, so the table and the pixels can be borrowed together; put
        // back after, so it is built once and kept.
        let key = params.key.unwrap_or(sheet.key);
        let mut table = self.ink.take().unwrap_or_default();
        table.prepare(key, params.palette_offset, &self.pen);
        match self.pen.blend.take() {
            Some(over) if self.pen.blending => {
                let ink = Blend(&table.value, &over.over);
                self.blit_any(sheet, src, (x, y), (flags, params.scale), ink);
                self.pen.blend = Some(over);
            }
            over => {
                self.pen.blend = over;
                let ink = Table(&table.value);
                self.blit_any(sheet, src, (x, y), (flags, params.scale), ink);
            }
        }
        self.ink = Some(table);
    }

    /// The plain blit or the general one, whichever `flags` and `scale` need, through `ink`.
    fn blit_any<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        (x, y): (i64, i64),
        (flags, scale): (u8, u32),
        ink: I,
    ) {
        if scale == 1 && flags == 0 {
            self.blit_plain(sheet, src, x, y, ink);
        } else {
            self.blit_general(sheet, src, x, y, flags, scale, ink);
        }
    }

    /// The common case: no turn, no mirror, scale 1. Clip once, then blend whole rows.
    #[inline(always)]
    fn blit_plain<I: Ink>(&mut self, sheet: &SpriteSheet, src: Rect, x: i64, y: i64, ink: I) {
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
        ink.blend_block(
            &mut self.pixels,
            (d0, fw),
            &sheet.pixels,
            (s0, sw),
            (n, rows),
        );
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the blitter's own inner call: the sprite, where, and how"
    )]
    fn blit_general<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        flags: u8,
        scale: u32,
        ink: I,
    ) {
        let scale = i64::from(scale);
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

        let sw = sheet.width as i64;
        let index_of = |u: i64, v: i64| {
            let (lx, ly) = part.inverse(u, v);
            ((sy0 + ly) * sw + sx0 + lx) as usize
        };
        // Moving one drawn pixel right moves this far through the sheet's pixels.
        let step_u = part.m[0][0] + part.m[0][1] * sw;

        if scale == 1 {
            // Moving one drawn pixel down moves this far through the sheet's pixels.
            let step_v = part.m[1][0] + part.m[1][1] * sw;
            let first = index_of(c.x0 - x, c.y0 - y) as i64;
            self.blit_turned(sheet, c, first, (step_u, step_v), ink);
            return;
        }

        self.blit_scaled(sheet, c, (x, y), scale, (index_of, step_u), ink);
    }

    /// [`Self::blit_general`] at scale 1 (a mirrored or turned sprite), into the box `c` of the
    /// screen: the sheet pixel drawn at the box's top-left corner is `first`, and one drawn
    /// pixel right or down moves `step_u` or `step_v` through the sheet's pixels. Each drawn
    /// row is gathered in drawing order, then blended. Rows of 16 and 8 pixels, the common
    /// sprite widths, are gathered into arrays of their size, and rows mirrored left to right
    /// are read as one run and reversed ([`mirrored`]).
    ///
    /// The width and direction are decided once, each case with a loop of its own: decided
    /// row by row in one loop, the compiler has been seen to lay the gathers out worse.
    #[inline(never)]
    fn blit_turned<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        c: Bounds,
        first: i64,
        (step_u, step_v): (i64, i64),
        ink: I,
    ) {
        let (n, fw) = ((c.x1 - c.x0) as usize, self.width as usize);
        let px = &sheet.pixels;
        let mut d = c.y0 as usize * fw + c.x0 as usize;
        let mut first = first;
        if step_u == -1 && (n == 16 || n == 8) {
            // Mirrored left to right: each row is a run of stored pixels, reversed.
            for _ in c.y0..c.y1 {
                let (Some(dst), at) = (self.pixels.get_mut(d..d + n), first as usize) else {
                    return;
                };
                d += fw;
                first += step_v;
                if let Ok(dst) = <&mut [u8; 16]>::try_from(&mut *dst) {
                    ink.blend16(
                        dst,
                        &mirrored::<16>(px, at).unwrap_or_else(|| gather(px, at, -1)),
                    );
                } else if let Ok(dst) = <&mut [u8; 8]>::try_from(dst) {
                    ink.blend8(
                        dst,
                        &mirrored::<8>(px, at).unwrap_or_else(|| gather(px, at, -1)),
                    );
                }
            }
            return;
        }
        if (step_v == 1 || step_v == -1) && (n == 16 || n == 8) {
            // Turned: a drawn row runs down a column of the sheet.
            let (rows, at) = ((c.y1 - c.y0) as usize, (d, fw));
            if n == 16 {
                turned_rows::<16, I>(&mut self.pixels, at, px, (first, step_u, step_v), rows, ink);
            } else {
                turned_rows::<8, I>(&mut self.pixels, at, px, (first, step_u, step_v), rows, ink);
            }
            return;
        }
        let rows = (c.y1 - c.y0) as usize;
        any_rows(
            &mut self.pixels,
            (d, fw, n),
            px,
            (first, step_u, step_v),
            rows,
            ink,
        );
    }

    /// [`Self::blit_general`] at a scale above 1, into the box `c` of the screen, the drawn
    /// picture's corner at `at`: `index_of(u, v)` is the sheet pixel of drawn sprite pixel
    /// `(u, v)`, and `step_u` how far one drawn pixel to the right moves through the sheet.
    /// Each sprite pixel covers `scale` screen pixels of `scale` rows: each distinct drawn row
    /// is built once and blended onto every screen row that shows it.
    ///
    /// Kept out of line like [`Self::blit_turned`], so that each is compiled on its own: sharing
    /// one function, a change to either has been seen to change the other's code.
    #[inline(never)]
    fn blit_scaled<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        c: Bounds,
        (x, y): (i64, i64),
        scale: i64,
        (index_of, step_u): (impl Fn(i64, i64) -> usize, i64),
        ink: I,
    ) {
        const LINE: usize = 256;
        // Room past the chunk for a run of up to `SHORT` pixels written whole.
        const SHORT: usize = 8;
        let fw = self.width as usize;
        let mut line = [0u8; LINE + SHORT];
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
                    let at = (px - px0) as usize;
                    if scale <= SHORT as i64 {
                        // A short run as one word: the pixels past its end are written over
                        // by the next run, or lie past the chunk and are not blended.
                        line[at..at + SHORT].copy_from_slice(&[value; SHORT]);
                    } else {
                        line[at..(run_end - px0) as usize].fill(value);
                    }
                    px = run_end;
                    u += 1;
                    i += step_u;
                }
                let width = (px1 - px0) as usize;
                for row in py..rows_end {
                    let d = row as usize * fw + px0 as usize;
                    ink.blend(&mut self.pixels[d..d + width], &line[..width]);
                }
                px0 = px1;
            }
            py = rows_end;
        }
    }
}
