//! Nine-slice panels: a sheet region cut by an inner rectangle into four corners drawn 1:1,
//! four edges and a centre stretched or tiled to fill any box.

use thiserror::Error;

use crate::draw::{Framebuffer, Rect, SpriteParams, SpriteSheet};

/// How the edges or the centre of a [`NineSlice`] fill the room between the corners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SliceFill {
    /// Stretched (or squeezed) to fit, each pixel showing the source pixel under its centre
    /// (the rule of [`Framebuffer::draw_sprite_stretched`]).
    #[default]
    Stretch,
    /// Repeated from the top-left, the last repeat cut where the room ends.
    Tile,
}

/// A panel cut from a sheet: `outer` is the whole picture on the sheet and `inner` the part of
/// it that becomes the centre. The corners outside `inner` draw at their own size; the edges
/// between them and the centre fill the rest of the box drawn to (BLIT386's
/// `NineSlice.fromSheet`).
///
/// ```
/// use bt::{NineSlice, Rect, SliceFill};
///
/// // A 12 × 12 frame with 4-pixel borders; the centre tiled.
/// let panel = NineSlice::new(Rect::new(0, 0, 12, 12), Rect::new(4, 4, 4, 4))?.center(SliceFill::Tile);
/// assert_eq!(panel.borders(), (4, 4, 4, 4));
/// assert_eq!(panel.min_size(), (8, 8));
///
/// let err = NineSlice::new(Rect::new(0, 0, 12, 12), Rect::new(4, 4, 9, 4)).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "nine-slice: the inner rectangle 9x4 at (4, 4) is not inside the outer rectangle 12x12 at (0, 0)"
/// );
/// # Ok::<(), bt::NineSliceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NineSlice {
    outer: Rect,
    inner: Rect,
    edges: SliceFill,
    center: SliceFill,
}

/// Why [`NineSlice::new`] refused its rectangles.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NineSliceError {
    /// The outer rectangle has no area.
    #[error("nine-slice: the outer rectangle {}x{} at ({}, {}) has no area", .0.w, .0.h, .0.x, .0.y)]
    EmptyOuter(Rect),
    /// The inner rectangle has a negative size or reaches outside the outer one.
    #[error(
        "nine-slice: the inner rectangle {}x{} at ({}, {}) is not inside the outer rectangle \
         {}x{} at ({}, {})",
        inner.w, inner.h, inner.x, inner.y, outer.w, outer.h, outer.x, outer.y
    )]
    InnerOutside {
        /// The outer rectangle given.
        outer: Rect,
        /// The inner rectangle given.
        inner: Rect,
    },
}

impl NineSlice {
    /// A panel of `outer` on the sheet with centre `inner`, both in sheet pixels; edges and
    /// centre stretched. `inner` may be empty across or down (a three-slice bar, or corners
    /// alone).
    ///
    /// # Errors
    /// [`NineSliceError::EmptyOuter`] when `outer` has no area,
    /// [`NineSliceError::InnerOutside`] when `inner` has a negative size or is not inside
    /// `outer`.
    pub fn new(outer: Rect, inner: Rect) -> Result<NineSlice, NineSliceError> {
        if outer.w <= 0 || outer.h <= 0 {
            return Err(NineSliceError::EmptyOuter(outer));
        }
        let (ox0, oy0, ox1, oy1) = outer.wide();
        let (ix0, iy0, ix1, iy1) = inner.wide();
        if inner.w < 0 || inner.h < 0 || ix0 < ox0 || iy0 < oy0 || ix1 > ox1 || iy1 > oy1 {
            return Err(NineSliceError::InnerOutside { outer, inner });
        }
        Ok(NineSlice {
            outer,
            inner,
            edges: SliceFill::Stretch,
            center: SliceFill::Stretch,
        })
    }

    /// Sets how the four edges fill their room.
    pub const fn edges(mut self, fill: SliceFill) -> NineSlice {
        self.edges = fill;
        self
    }

    /// Sets how the centre fills its room.
    pub const fn center(mut self, fill: SliceFill) -> NineSlice {
        self.center = fill;
        self
    }

    /// The whole panel on the sheet.
    pub const fn outer(&self) -> Rect {
        self.outer
    }

    /// The centre on the sheet.
    pub const fn inner(&self) -> Rect {
        self.inner
    }

    /// The corners' sizes: left, top, right and bottom borders in pixels.
    pub const fn borders(&self) -> (i32, i32, i32, i32) {
        let (o, i) = (self.outer, self.inner);
        (
            i.x - o.x,
            i.y - o.y,
            o.x + o.w - (i.x + i.w),
            o.y + o.h - (i.y + i.h),
        )
    }

    /// The smallest box that shows the corners whole: the borders added up across and down.
    pub const fn min_size(&self) -> (i32, i32) {
        let (l, t, r, b) = self.borders();
        (l + r, t + b)
    }
}

/// One axis of a panel drawn `len` pixels long: the lengths of its start border, middle and
/// end border. When `len` is below the two borders together they share it in proportion
/// (the start's share rounded down) and the middle is empty.
fn split(len: i64, start: i64, end: i64) -> (i64, i64, i64) {
    if len >= start + end {
        (start, len - start - end, end)
    } else {
        let a = len * start / (start + end);
        (a, 0, len - a)
    }
}

impl Framebuffer {
    /// Draws `slice` of `sheet` to fill `dst`: the corners at their own size, the edges and
    /// the centre stretched or tiled between them ([`NineSlice::edges`],
    /// [`NineSlice::center`]). A box smaller than [`NineSlice::min_size`] shows the part of
    /// each corner nearest its own corner of the box, the two sharing the room in proportion
    /// to their sizes (rounded down for the left and top ones). The palette offset and key of
    /// `params` apply, as does the remap; its flags and scale do not.
    ///
    /// ```
    /// use bt::host::Framebuffer;
    /// use bt::{NineSlice, Rect, SpriteParams, SpriteSheet};
    ///
    /// // 3 × 3: corners 1, edges 2, centre 3.
    /// let sheet = SpriteSheet::from_indexed(3, 3, vec![1, 2, 1, 2, 3, 2, 1, 2, 1])?;
    /// let panel = NineSlice::new(Rect::new(0, 0, 3, 3), Rect::new(1, 1, 1, 1))?;
    /// let mut fb = Framebuffer::new(5, 3);
    /// fb.draw_nine_slice(&sheet, &panel, Rect::new(0, 0, 5, 3), SpriteParams::new());
    /// assert_eq!(fb.pixels(), [1, 2, 2, 2, 1, 2, 3, 3, 3, 2, 1, 2, 2, 2, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn draw_nine_slice(
        &mut self,
        sheet: &SpriteSheet,
        slice: &NineSlice,
        dst: Rect,
        params: SpriteParams,
    ) {
        let (x, y, ..) = dst.wide();
        let size = (i64::from(dst.w), i64::from(dst.h));
        self.nine_slice_wide(sheet, slice, (x, y), size, params);
    }

    pub(crate) fn nine_slice_wide(
        &mut self,
        sheet: &SpriteSheet,
        slice: &NineSlice,
        (x, y): (i64, i64),
        (w, h): (i64, i64),
        params: SpriteParams,
    ) {
        if w <= 0 || h <= 0 {
            return;
        }
        let params = SpriteParams {
            flags: 0,
            scale: 1,
            ..params
        };
        let (l, t, r, b) = slice.borders();
        let (o, i) = (slice.outer, slice.inner);
        let cols = split(w, l.into(), r.into());
        let rows = split(h, t.into(), b.into());
        // Each third of an axis: where it starts on the sheet, its length there, and where it
        // starts and how long it is in the box.
        let thirds = |(a, m, e): (i64, i64, i64), (o0, o1): (i32, i32), (i0, ilen): (i32, i32)| {
            let (o0, o1, i0) = (i64::from(o0), i64::from(o1), i64::from(i0));
            [
                (o0, a, 0, a),
                (i0, i64::from(ilen), a, m),
                (o1 - e, e, a + m, e),
            ]
        };
        let across = thirds(cols, (o.x, o.x + o.w), (i.x, i.w));
        let down = thirds(rows, (o.y, o.y + o.h), (i.y, i.h));
        for (row, &(sy, sh, dy, dh)) in down.iter().enumerate() {
            for (col, &(sx, sw, dx, dw)) in across.iter().enumerate() {
                if sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 {
                    continue;
                }
                // Sheet coordinates come from the slice's own `i32` rectangles.
                let src = Rect::new(sx as i32, sy as i32, sw as i32, sh as i32);
                let at = (x + dx, y + dy);
                let fill = match (row == 1, col == 1) {
                    (false, false) => SliceFill::Stretch, // a corner: same size, so 1:1
                    (true, true) => slice.center,
                    _ => slice.edges,
                };
                match fill {
                    SliceFill::Stretch => self.stretch_wide(sheet, src, at, (dw, dh), params),
                    SliceFill::Tile => self.tile_wide(sheet, src, at, (dw, dh), params),
                }
            }
        }
    }

    /// Repeats `src` over the box at `(x, y)` of `size` from its top-left corner, cutting the
    /// last column and row of repeats; only the repeats inside the clip are visited.
    fn tile_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        (x, y): (i64, i64),
        (w, h): (i64, i64),
        params: SpriteParams,
    ) {
        let (tw, th) = (i64::from(src.w), i64::from(src.h));
        let Some(c) = self.clip.intersect(x, y, x + w, y + h) else {
            return;
        };
        let (ax, ay) = ((c.x0 - x) / tw, (c.y0 - y) / th);
        let (bx, by) = ((c.x1 - x + tw - 1) / tw, (c.y1 - y + th - 1) / th);
        for ty in ay..by {
            let py = y + ty * th;
            let ch = th.min(y + h - py);
            for tx in ax..bx {
                let px = x + tx * tw;
                let cw = tw.min(x + w - px);
                let part = Rect::new(src.x, src.y, cw as i32, ch as i32);
                self.sprite_wide(sheet, part, px, py, params);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ColorKey, Rng};

    /// The panel's rule one screen pixel at a time: which sheet pixel each pixel of the box
    /// shows, axis by axis.
    fn per_pixel(
        fb: &mut Framebuffer,
        sheet: &SpriteSheet,
        s: &NineSlice,
        dst: Rect,
        key: ColorKey,
    ) {
        let (l, t, r, b) = s.borders();
        let axis = |k: i64,
                    len: i64,
                    (a, e): (i32, i32),
                    (o0, o1): (i32, i32),
                    (i0, il): (i32, i32),
                    fill| {
            let (a, m, _) = split(len, a.into(), e.into());
            if k < a {
                Some(i64::from(o0) + k)
            } else if k >= a + m {
                Some(i64::from(o1) - (len - k))
            } else if il == 0 {
                None
            } else {
                let (j, il) = (k - a, i64::from(il));
                Some(
                    i64::from(i0)
                        + match fill {
                            SliceFill::Stretch => ((2 * j + 1) * il - 1).div_euclid(2 * m),
                            SliceFill::Tile => j % il,
                        },
                )
            }
        };
        let (o, i) = (s.outer, s.inner);
        let c = fb.clip;
        for py in c.y0..c.y1 {
            for px in c.x0..c.x1 {
                let (k, j) = (px - i64::from(dst.x), py - i64::from(dst.y));
                if k < 0 || j < 0 || k >= dst.w.into() || j >= dst.h.into() {
                    continue;
                }
                let (lw, mw, _) = split(dst.w.into(), l.into(), r.into());
                let (th_, mh, _) = split(dst.h.into(), t.into(), b.into());
                let mid_col = k >= lw && k < lw + mw;
                let mid_row = j >= th_ && j < th_ + mh;
                let (fx, fy) = match (mid_col, mid_row) {
                    (true, true) => (s.center, s.center),
                    (false, false) => (SliceFill::Stretch, SliceFill::Stretch),
                    _ => (s.edges, s.edges),
                };
                let sx = axis(k, dst.w.into(), (l, r), (o.x, o.x + o.w), (i.x, i.w), fx);
                let sy = axis(j, dst.h.into(), (t, b), (o.y, o.y + o.h), (i.y, i.h), fy);
                let (Some(sx), Some(sy)) = (sx, sy) else {
                    continue;
                };
                if let Some(v) = sheet.get(sx as i32, sy as i32) {
                    if !key.contains(v) {
                        fb.pixels[(py * i64::from(fb.width) + px) as usize] = v;
                    }
                }
            }
        }
    }

    #[test]
    fn panels_draw_what_the_per_pixel_rule_draws() {
        let mut rng = Rng::new(0x9519);
        let mut drew = 0;
        for case in 0..3000 {
            let (sw, sh) = (rng.int_range(1, 20), rng.int_range(1, 20));
            let px = (0..sw * sh).map(|_| rng.int(6) as u8).collect();
            let sheet = SpriteSheet::from_indexed(sw as u32, sh as u32, px).unwrap();
            let outer = Rect::new(
                rng.int_range(-2, sw),
                rng.int_range(-2, sh),
                rng.int_range(1, sw + 3),
                rng.int_range(1, sh + 3),
            );
            let iw = rng.int_range(0, outer.w + 1);
            let ih = rng.int_range(0, outer.h + 1);
            let inner = Rect::new(
                outer.x + rng.int_range(0, outer.w - iw + 1),
                outer.y + rng.int_range(0, outer.h - ih + 1),
                iw,
                ih,
            );
            let fill = |rng: &mut Rng| {
                if rng.bool() {
                    SliceFill::Tile
                } else {
                    SliceFill::Stretch
                }
            };
            let slice = NineSlice::new(outer, inner)
                .unwrap()
                .edges(fill(&mut rng))
                .center(fill(&mut rng));
            let dst = Rect::new(
                rng.int_range(-10, 30),
                rng.int_range(-10, 30),
                rng.int_range(-1, 45),
                rng.int_range(-1, 45),
            );
            let mut fb = Framebuffer::new(40, 36);
            fb.clear(9);
            if rng.bool() {
                fb.set_clip(Rect::new(
                    rng.int_range(0, 20),
                    rng.int_range(0, 20),
                    20,
                    20,
                ));
            }
            let mut want = fb.clone();
            fb.draw_nine_slice(&sheet, &slice, dst, SpriteParams::new());
            per_pixel(&mut want, &sheet, &slice, dst, ColorKey::default());
            drew += usize::from(fb.pixels().iter().any(|&p| p != 9));
            assert_eq!(
                fb.pixels(),
                want.pixels(),
                "case {case}: {slice:?} to {dst:?}"
            );
        }
        assert!(drew > 1500, "only {drew} cases drew anything");
    }

    #[test]
    fn bad_rectangles_are_named() {
        let outer = Rect::new(0, 0, 8, 8);
        assert_eq!(
            NineSlice::new(Rect::new(1, 2, 0, 8), outer)
                .unwrap_err()
                .to_string(),
            "nine-slice: the outer rectangle 0x8 at (1, 2) has no area"
        );
        for inner in [
            Rect::new(-1, 0, 2, 2),
            Rect::new(2, 2, -1, 2),
            Rect::new(6, 6, 3, 1),
        ] {
            assert_eq!(
                NineSlice::new(outer, inner),
                Err(NineSliceError::InnerOutside { outer, inner })
            );
        }
        assert!(
            NineSlice::new(outer, Rect::new(8, 0, 0, 8)).is_ok(),
            "an empty centre at the edge"
        );
    }

    #[test]
    fn huge_boxes_cost_only_what_the_clip_shows() {
        let sheet = SpriteSheet::from_indexed(3, 3, vec![1; 9]).unwrap();
        let slice = NineSlice::new(Rect::new(0, 0, 3, 3), Rect::new(1, 1, 1, 1))
            .unwrap()
            .edges(SliceFill::Tile)
            .center(SliceFill::Tile);
        let mut fb = Framebuffer::new(16, 16);
        fb.draw_nine_slice(
            &sheet,
            &slice,
            Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX),
            SpriteParams::new(),
        );
        fb.draw_nine_slice(
            &sheet,
            &slice,
            Rect::new(-5, -5, i32::MAX, i32::MAX),
            SpriteParams::new(),
        );
        assert!(fb.pixels().iter().all(|&p| p == 1));
    }
}
