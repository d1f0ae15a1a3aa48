//! Sprites drawn off the whole-pixel grid: stretched to any rectangle, turned by any angle and
//! scaled by any factor about a pivot, and textured spans (the rows of a mode-7 floor).
//!
//! Each picks, for every screen pixel it may cover, one pixel of the sheet by a rule written
//! in whole numbers (the stretch, the span) or in fixed point computed once per draw from
//! `bt::math` and IEEE 754's correctly rounded operations (the turn), so the same call draws
//! the same pixels on every machine. The rules are the doc comments of the public calls; the
//! tests hold the row routines to them one pixel at a time.
//!
//! Like the blitter, each clips once (to the clip and to the part of the source on the sheet),
//! then gathers whole rows of stored indices into a line on the stack and blends the line
//! with the same inks as `draw_sprite`: colour key, palette offset, remap.

use super::rows::{Blend, Ink, Offset, Table};
use super::{Orientation, ORIENT};
use crate::draw::{Bounds, Framebuffer, Rect, SpriteParams, SpriteSheet};

/// Pixels gathered at a time: a line on the stack, no allocation.
const LINE: usize = 256;

/// Fractional bits of the turned sprite's fixed-point inverse map.
const FRAC: u32 = 32;

/// Fractional bits of a span's texture position and step (PICO-8's 16.16).
const SPAN_FRAC: u32 = 16;

/// Scales nearer zero than this draw nothing: the fixed-point inverse of a smaller one no
/// longer fits the whole numbers it is kept in.
const MIN_SCALE: f64 = 1.0 / 65536.0;

/// Pivots farther than this from the picture's corner draw nothing, for the same reason.
const MAX_PIVOT: f64 = (1u64 << 30) as f64;

/// How [`Framebuffer::draw_sprite_transformed`] turns and scales a sprite: an angle, a scale
/// on each axis and the pivot they turn about.
///
/// ```
/// use bt::Transform;
///
/// let t = Transform::new().angle(std::f64::consts::FRAC_PI_4).scale(2.0).pivot(0.0, 8.0);
/// assert_eq!(t.scale, (2.0, 2.0));
/// assert_eq!(t.pivot, Some((0.0, 8.0)));
/// assert_eq!(Transform::default(), Transform::new());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// The turn in radians, clockwise on screen (y points down): `FRAC_PI_2` is a quarter
    /// turn, as [`ROT_90`](crate::ROT_90). Default 0.
    pub angle: f64,
    /// How many screen pixels a sprite pixel spans across and down, before the turn. A
    /// negative factor mirrors that axis. Default `(1.0, 1.0)`.
    pub scale: (f64, f64),
    /// The point of the sprite (after its orientation flags, in its own pixels from its
    /// top-left corner) that lands on the position given to the draw, and that it turns and
    /// scales about. `None` (the default) is the sprite's centre, `(w / 2, h / 2)`.
    pub pivot: Option<(f64, f64)>,
}

impl Default for Transform {
    fn default() -> Transform {
        Transform::new()
    }
}

impl Transform {
    /// No turn, scale 1, pivot at the centre.
    pub const fn new() -> Transform {
        Transform {
            angle: 0.0,
            scale: (1.0, 1.0),
            pivot: None,
        }
    }

    /// Sets [`Transform::angle`], the turn: radians clockwise on screen (`FRAC_PI_2` is a
    /// quarter turn). Named for the field it fills, as every builder is.
    pub const fn angle(mut self, angle: f64) -> Transform {
        self.angle = angle;
        self
    }

    /// Sets the same scale on both axes.
    pub const fn scale(mut self, scale: f64) -> Transform {
        self.scale = (scale, scale);
        self
    }

    /// Sets the scale across and down.
    pub const fn scale_xy(mut self, x: f64, y: f64) -> Transform {
        self.scale = (x, y);
        self
    }

    /// Sets the pivot, in sprite pixels from its top-left corner.
    pub const fn pivot(mut self, x: f64, y: f64) -> Transform {
        self.pivot = Some((x, y));
        self
    }

    /// The inverse map from screen to sprite in fixed point, for a picture of `size`; `None`
    /// when it draws nothing (an angle, scale or pivot not finite, or out of range).
    fn fixed(&self, size: (i64, i64)) -> Option<Fixed> {
        let (sx, sy) = self.scale;
        let (px, py) = self
            .pivot
            .unwrap_or((size.0 as f64 / 2.0, size.1 as f64 / 2.0));
        let fine = |v: f64| v.is_finite();
        if !(fine(self.angle) && fine(sx) && fine(sy) && fine(px) && fine(py))
            || sx.abs() < MIN_SCALE
            || sy.abs() < MIN_SCALE
            || px.abs() > MAX_PIVOT
            || py.abs() > MAX_PIVOT
        {
            return None;
        }
        let (s, c) = crate::math::sin_cos(self.angle);
        let one = (1u64 << FRAC) as f64;
        // Round half away from zero (IEEE `round`), then a whole number: exact on every
        // machine. Every value here is below 2^48 in magnitude, so nothing saturates.
        let q = |v: f64| (v * one).round() as i64;
        Some(Fixed {
            m: [[q(c / sx), q(s / sx)], [q(-s / sy), q(c / sy)]],
            pivot: (q(px), q(py)),
        })
    }
}

/// A turned sprite's inverse map in fixed point ([`FRAC`] fractional bits): the sprite pixel
/// at screen offset `d` (from the pivot's pixel) is `pivot + m · d`.
#[derive(Debug, Clone, Copy)]
struct Fixed {
    m: [[i64; 2]; 2],
    pivot: (i64, i64),
}

/// The part of a source rectangle drawn from, after its orientation flags: the picture a cart
/// sees, of `size`, of which `on` (half-open `u0, v0, u1, v1`) lies on the sheet. Picture
/// pixel `(u, v)` is stored at `origin + u · step.0 + v · step.1`.
#[derive(Debug, Clone, Copy)]
struct Picture {
    size: (i64, i64),
    on: (i64, i64, i64, i64),
    origin: i64,
    step: (i64, i64),
}

impl Picture {
    /// `None` when no pixel of `src` is on the sheet.
    fn new(sheet: &SpriteSheet, src: Rect, flags: u8) -> Option<Picture> {
        let (w, h) = (i64::from(src.w), i64::from(src.h));
        let (sx, sy) = (i64::from(src.x), i64::from(src.y));
        let (lx0, ly0) = ((-sx).max(0), (-sy).max(0));
        let lx1 = (i64::from(sheet.width) - sx).min(w);
        let ly1 = (i64::from(sheet.height) - sy).min(h);
        if w <= 0 || h <= 0 || lx0 >= lx1 || ly0 >= ly1 {
            return None;
        }
        let o = Orientation::new(flags & ORIENT, w, h);
        let (a, b) = (o.forward(lx0, ly0), o.forward(lx1 - 1, ly1 - 1));
        let sw = i64::from(sheet.width);
        let (ox, oy) = o.inverse(0, 0);
        Some(Picture {
            size: o.size,
            on: (
                a.0.min(b.0),
                a.1.min(b.1),
                a.0.max(b.0) + 1,
                a.1.max(b.1) + 1,
            ),
            origin: (sy + oy) * sw + sx + ox,
            step: (o.m[0][0] + o.m[0][1] * sw, o.m[1][0] + o.m[1][1] * sw),
        })
    }

    #[inline(always)]
    fn index(&self, u: i64, v: i64) -> usize {
        (self.origin + u * self.step.0 + v * self.step.1) as usize
    }
}

/// Runs `$body` with `$ink` the ink `draw_sprite` would use for `$params` on `$sheet`: the
/// plain offset when only index 0 is see-through and nothing is remapped or blended, else the
/// table (built once and kept on the framebuffer, as the blitter keeps it), through the blend
/// table when one is set.
macro_rules! with_ink {
    ($fb:expr, $sheet:expr, $params:expr, |$ink:ident| $body:expr) => {{
        let key = $params.key.unwrap_or($sheet.key);
        if key.is_zero_only() && !$fb.pen.remapped && !$fb.pen.blending {
            let $ink = Offset($params.palette_offset);
            $body;
        } else {
            let mut table = $fb.ink.take().unwrap_or_default();
            table.prepare(key, $params.palette_offset, &$fb.pen);
            match $fb.pen.blend.take() {
                Some(over) if $fb.pen.blending => {
                    {
                        let $ink = Blend(&table.value, &over.over);
                        $body;
                    }
                    $fb.pen.blend = Some(over);
                }
                over => {
                    $fb.pen.blend = over;
                    let $ink = Table(&table.value);
                    $body;
                }
            }
            $fb.ink = Some(table);
        }
    }};
}

/// The stretch's rule on one axis: destination pixel `k` of `d` shows source pixel
/// `floor(((2k + 1) · n - 1) / (2d))` of `n`, the one under its centre (a centre exactly on a
/// border takes the pixel before it). This is the first `k >= 0` whose pixel is at least `t`.
fn stretch_first(t: i64, n: i64, d: i64) -> i64 {
    let num = 2 * i128::from(t) * i128::from(d) + 1 - i128::from(n);
    let den = 2 * i128::from(n);
    (-((-num).div_euclid(den))).clamp(0, i128::from(d)) as i64
}

/// The stretch's rule (see [`stretch_first`]) for `k`, `k + 1`, ... without a division each.
struct Walk {
    at: i64,
    rem: i64,
    q: i64,
    r: i64,
    den: i64,
}

impl Walk {
    fn new(k: i64, n: i64, d: i64) -> Walk {
        let num = (2 * i128::from(k) + 1) * i128::from(n) - 1;
        let den = 2 * i128::from(d);
        Walk {
            at: num.div_euclid(den) as i64,
            rem: num.rem_euclid(den) as i64,
            q: n / d,
            r: (2 * n) % (2 * d),
            den: 2 * d,
        }
    }

    #[inline(always)]
    fn next(&mut self) -> i64 {
        let at = self.at;
        self.at += self.q;
        self.rem += self.r;
        if self.rem >= self.den {
            self.rem -= self.den;
            self.at += 1;
        }
        at
    }
}

/// The steps `k` in `[0, n)` for which `lo <= base + step · k < hi`, as a half-open range.
fn steps_inside(base: i128, step: i128, (lo, hi): (i128, i128), n: i64) -> (i64, i64) {
    let n = i128::from(n);
    let ceil = |a: i128, b: i128| -floor_div(-a, b);
    let (a, b) = if step == 0 {
        if lo <= base && base < hi {
            (0, n)
        } else {
            (0, 0)
        }
    } else if step > 0 {
        (ceil(lo - base, step), ceil(hi - base, step))
    } else {
        let s = -step;
        (floor_div(base - hi, s) + 1, floor_div(base - lo, s) + 1)
    };
    (a.clamp(0, n) as i64, b.clamp(0, n) as i64)
}

/// `floor(a / b)` for `b > 0`, in 64-bit arithmetic when both fit (a turned sprite's rows
/// nearly always do), which is many times cheaper than 128-bit division.
#[inline]
fn floor_div(a: i128, b: i128) -> i128 {
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(a), Ok(b)) => i128::from(a.div_euclid(b)),
        _ => a.div_euclid(b),
    }
}

/// The screen rows a turned sprite can touch, a few rows wide on each side: the rows between
/// the highest and lowest of its on-sheet corners, found by inverting the fixed-point map in
/// floating point. Only a bound: each row's pixels are then solved for exactly, so a row the
/// bound takes in needlessly costs a little time and changes nothing drawn, and the margin
/// (two rows, plus far more than the floating-point error) keeps every drawn row inside.
/// `None` when the map cannot be inverted, and then every row is looked at.
fn rows_touched(map: &Fixed, (u0, v0, u1, v1): (i64, i64, i64, i64), y: i64) -> Option<(i64, i64)> {
    let one = (1u64 << FRAC) as f64;
    let [[a, b], [c, d]] = map.m.map(|row| row.map(|m| m as f64 / one));
    let det = a * d - b * c;
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let (px, py) = (map.pivot.0 as f64 / one, map.pivot.1 as f64 / one);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (u, v) in [(u0, v0), (u1, v0), (u0, v1), (u1, v1)] {
        let (du, dv) = (u as f64 - px, v as f64 - py);
        let dy = (a * dv - c * du) / det;
        lo = lo.min(dy);
        hi = hi.max(dy);
    }
    let margin = 2.0 + 1e-6 * (lo.abs() + hi.abs());
    let (lo, hi) = ((lo - margin).floor(), (hi + margin).ceil());
    // Beyond ±2^62 the bound means nothing on any screen: `as` saturates, the clip cuts.
    Some((y.saturating_add(lo as i64), y.saturating_add(hi as i64)))
}

impl Framebuffer {
    /// Draws the part `src` of `sheet` stretched (or squeezed) to fill `dst` (PICO-8's
    /// `sspr`, BLIT386's stretch box). The orientation flags of `params` apply first, as in
    /// [`Self::draw_sprite`]; then each pixel of `dst` shows the picture's pixel under its
    /// centre: across, pixel `k` of a `dst.w`-wide box shows column
    /// `floor(((2k + 1) · w - 1) / (2 · dst.w))` of a picture `w` wide, and likewise down (a
    /// centre exactly on a border between two pixels takes the first). So a `dst` of the
    /// picture's own size draws what `draw_sprite` draws, and one twice as wide doubles every
    /// column. `params.scale` does not apply: `dst` sets the size. The key, palette offset and
    /// remap work as in `draw_sprite`; parts of `src` outside the sheet draw nothing, as does
    /// a `dst` with no area.
    ///
    /// ```
    /// use bt::host::Framebuffer;
    /// use bt::{Rect, SpriteParams, SpriteSheet};
    ///
    /// let sheet = SpriteSheet::from_indexed(2, 1, vec![5, 6])?;
    /// let mut fb = Framebuffer::new(5, 1);
    /// fb.draw_sprite_stretched(&sheet, Rect::new(0, 0, 2, 1), Rect::new(0, 0, 5, 1), SpriteParams::new());
    /// assert_eq!(fb.pixels(), [5, 5, 5, 6, 6]);
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    pub fn draw_sprite_stretched(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        dst: Rect,
        params: SpriteParams,
    ) {
        let (x0, y0, ..) = dst.wide();
        let size = (i64::from(dst.w), i64::from(dst.h));
        self.stretch_wide(sheet, src, (x0, y0), size, params);
    }

    pub(crate) fn stretch_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        (x, y): (i64, i64),
        (dw, dh): (i64, i64),
        params: SpriteParams,
    ) {
        if dw <= 0 || dh <= 0 {
            return;
        }
        let Some(pic) = Picture::new(sheet, src, params.flags) else {
            return;
        };
        let ((ow, oh), (u0, v0, u1, v1)) = (pic.size, pic.on);
        // The destination pixels whose source is on the sheet: one box, as each axis's
        // sample only grows along it.
        let (kx0, kx1) = (stretch_first(u0, ow, dw), stretch_first(u1, ow, dw));
        let (ky0, ky1) = (stretch_first(v0, oh, dh), stretch_first(v1, oh, dh));
        let Some(c) = self.clip.intersect(x + kx0, y + ky0, x + kx1, y + ky1) else {
            return;
        };
        let fw = self.width as usize;
        with_ink!(self, sheet, params, |ink| stretch_rows(
            &mut self.pixels,
            fw,
            &sheet.pixels,
            &pic,
            c,
            ((x, y), (dw, dh)),
            ink
        ));
    }

    /// Draws the part `src` of `sheet` turned by `transform.angle` and scaled by
    /// `transform.scale` about `transform.pivot`, the pivot landing on `(x, y)` (Pyxel's `blt`
    /// with `rotate` and `scale`; Pyxel puts the sprite's top-left corner at `x, y` and turns
    /// about its centre, which is this call at `x + w / 2, y + h / 2`). The orientation flags
    /// of `params` apply first, and its whole-number scale multiplies `transform.scale` (scale
    /// 2 draws the turned sprite twice as large, as it does the unturned one in
    /// [`Self::draw_sprite`]; 0 draws nothing). The key, palette offset and remap work as in
    /// [`Self::draw_sprite`].
    ///
    /// Which sprite pixel each screen pixel shows is decided in whole numbers, the same on
    /// every machine. Once per draw, the inverse map is computed from `bt::math::sin_cos` and
    /// rounded to fixed point with 32 fractional bits (to nearest, halves away from zero):
    /// `a = c / sx`, `b = s / sx`, `d = -s / sy`, `e = c / sy` for the angle's sine `s` and
    /// cosine `c` and the scale `(sx, sy)`, and the pivot `(px, py)`. The screen pixel `(X, Y)`,
    /// taken at its centre, then shows sprite pixel `(u, v)` with
    /// `u = floor(px + a · (X - x + ½) + b · (Y - y + ½))` and
    /// `v = floor(py + d · (X - x + ½) + e · (Y - y + ½))`, computed exactly; nothing is drawn
    /// where that is outside the sprite or the sheet. At angle 0 and scale 1 the sprite so
    /// lands exactly where `draw_sprite` puts it, its pivot on `(x, y)`; at a quarter turn
    /// (`FRAC_PI_2`) it matches `ROT_90`.
    ///
    /// An angle, scale or pivot that is not finite, a scale nearer zero than 1/65536 and a
    /// pivot more than 2³⁰ pixels away draw nothing.
    ///
    /// ```
    /// use bt::host::Framebuffer;
    /// use bt::{Rect, SpriteParams, SpriteSheet, Transform, ROT_90};
    ///
    /// let px = (0..16).collect();
    /// let sheet = SpriteSheet::from_indexed(4, 4, px)?;
    /// let mut turned = Framebuffer::new(8, 8);
    /// let quarter = Transform::new().angle(std::f64::consts::FRAC_PI_2);
    /// turned.draw_sprite_transformed(&sheet, Rect::new(0, 0, 4, 4), 4, 4, quarter, SpriteParams::new());
    /// let mut flagged = Framebuffer::new(8, 8);
    /// flagged.draw_sprite(&sheet, Rect::new(0, 0, 4, 4), 2, 2, SpriteParams::new().flags(ROT_90));
    /// assert_eq!(turned, flagged);
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    pub fn draw_sprite_transformed(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        transform: Transform,
        params: SpriteParams,
    ) {
        self.transformed_wide(sheet, src, (x.into(), y.into()), transform, params);
    }

    pub(crate) fn transformed_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        at: (i64, i64),
        transform: Transform,
        params: SpriteParams,
    ) {
        let Some(pic) = Picture::new(sheet, src, params.flags) else {
            return;
        };
        // The params' scale multiplies the transform's, as it enlarges an unturned sprite.
        let k = f64::from(params.scale);
        let (sx, sy) = transform.scale;
        let scaled = Transform {
            scale: (sx * k, sy * k),
            ..transform
        };
        let Some(map) = scaled.fixed(pic.size) else {
            return;
        };
        let c = self.clip;
        if c.x0 >= c.x1 || c.y0 >= c.y1 {
            return;
        }
        let fw = self.width as usize;
        with_ink!(self, sheet, params, |ink| turned_rows(
            &mut self.pixels,
            fw,
            &sheet.pixels,
            &pic,
            c,
            (at, map),
            ink
        ));
    }

    /// Draws one row of `len` pixels from `(x, y)` rightwards, textured by walking the part
    /// `src` of `sheet` (PICO-8's `tline`, for the rows of a mode-7 floor). Pixel `k` of the
    /// row shows the pixel at `start + k · step` within `src` (in its pixels from its top-left
    /// corner), wrapping around inside `src` so the texture repeats. `start` and `step` are
    /// rounded to fixed point with 16 fractional bits (to nearest, halves away from zero)
    /// before anything is drawn, and the walk is exact from there:
    /// `u = floor((U + k · DU) / 65536)` taken modulo `src.w`, and likewise `v`. Samples whose
    /// pixel is outside the sheet draw nothing; the orientation flags and scale of `params`
    /// do not apply, its key and palette offset do, as does the remap. A `start` or `step`
    /// that is not finite, or beyond ±2³⁰ pixels, draws nothing.
    ///
    /// ```
    /// use bt::host::Framebuffer;
    /// use bt::{Rect, SpriteParams, SpriteSheet};
    ///
    /// let sheet = SpriteSheet::from_indexed(3, 1, vec![1, 2, 3])?;
    /// let mut fb = Framebuffer::new(8, 1);
    /// // Half a texture pixel a screen pixel, starting on the last one: it wraps.
    /// fb.draw_span(&sheet, Rect::new(0, 0, 3, 1), 0, 0, 8, (2.0, 0.0), (0.5, 0.0), SpriteParams::new());
    /// assert_eq!(fb.pixels(), [3, 3, 1, 1, 2, 2, 3, 3]);
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    #[allow(
        clippy::too_many_arguments,
        reason = "a span is where, how long, the texture and how it is walked"
    )]
    pub fn draw_span(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        len: i32,
        start: (f64, f64),
        step: (f64, f64),
        params: SpriteParams,
    ) {
        let walk = Span::new(src, start, step);
        self.span_wide(sheet, (x.into(), y.into(), len.into()), walk, params);
    }

    pub(crate) fn span_wide(
        &mut self,
        sheet: &SpriteSheet,
        (x, y, len): (i64, i64, i64),
        walk: Option<Span>,
        params: SpriteParams,
    ) {
        let Some(walk) = walk else {
            return;
        };
        let Some(c) = self.clip.intersect(x, y, x + len.max(0), y + 1) else {
            return;
        };
        let fw = self.width as usize;
        with_ink!(self, sheet, params, |ink| span_row(
            &mut self.pixels,
            fw,
            sheet,
            c,
            (x, walk),
            ink
        ));
    }
}

/// A span's walk through its texture, in fixed point ([`SPAN_FRAC`] fractional bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    src: Rect,
    start: (i64, i64),
    step: (i64, i64),
}

impl Span {
    /// `None` when it draws nothing: an empty `src`, or a position or step not finite or too
    /// far.
    pub(crate) fn new(src: Rect, start: (f64, f64), step: (f64, f64)) -> Option<Span> {
        const FAR: f64 = (1u64 << 30) as f64;
        let ok = |v: f64| v.is_finite() && v.abs() <= FAR;
        if src.w <= 0 || src.h <= 0 || ![start.0, start.1, step.0, step.1].into_iter().all(ok) {
            return None;
        }
        let one = f64::from(1u32 << SPAN_FRAC);
        let q = |v: f64| (v * one).round() as i64;
        Some(Span {
            src,
            start: (q(start.0), q(start.1)),
            step: (q(step.0), q(step.1)),
        })
    }
}

/// Gathers and blends the rows of a stretched sprite into the box `c` (already inside the
/// clip and the on-sheet part), the destination box at `at` of `size`.
fn stretch_rows<I: Ink>(
    dst: &mut [u8],
    fw: usize,
    px: &[u8],
    pic: &Picture,
    c: Bounds,
    (at, size): ((i64, i64), (i64, i64)),
    ink: I,
) {
    let mut offs = [0i64; LINE];
    let mut line = [0u8; LINE];
    let mut x0 = c.x0;
    while x0 < c.x1 {
        let x1 = (x0 + LINE as i64).min(c.x1);
        let n = (x1 - x0) as usize;
        // The columns' offsets once per chunk; each row adds its own.
        let mut cols = Walk::new(x0 - at.0, pic.size.0, size.0);
        for o in &mut offs[..n] {
            *o = cols.next() * pic.step.0;
        }
        let mut rows = Walk::new(c.y0 - at.1, pic.size.1, size.1);
        let mut gathered = None;
        for y in c.y0..c.y1 {
            let v = rows.next();
            // Rows showing the same sprite row (a sprite stretched downwards) gather once.
            if gathered != Some(v) {
                let base = pic.origin + v * pic.step.1;
                for (l, &o) in line[..n].iter_mut().zip(&offs[..n]) {
                    *l = px[(base + o) as usize];
                }
                gathered = Some(v);
            }
            let d = y as usize * fw + x0 as usize;
            ink.blend(&mut dst[d..d + n], &line[..n]);
        }
        x0 = x1;
    }
}

/// Gathers and blends the rows of a turned sprite inside the clip `c`: each row's span of
/// pixels inside the on-sheet part is solved for exactly, then walked by whole-number steps.
fn turned_rows<I: Ink>(
    dst: &mut [u8],
    fw: usize,
    px: &[u8],
    pic: &Picture,
    c: Bounds,
    ((x, y), map): ((i64, i64), Fixed),
    ink: I,
) {
    let mut line = [0u8; LINE];
    let (u0, v0, u1, v1) = pic.on;
    // Positions are kept doubled (FRAC + 1 fractional bits), so that pixel centres, at a half,
    // are whole numbers.
    let shift = FRAC + 1;
    let bound = |a: i64, b: i64| (i128::from(a) << shift, i128::from(b) << shift);
    let (u_in, v_in) = (bound(u0, u1), bound(v0, v1));
    let m = map.m.map(|row| row.map(i128::from));
    let (su, sv) = (2 * m[0][0], 2 * m[1][0]);
    let width = c.x1 - c.x0;
    let dx = 2 * i128::from(c.x0 - x) + 1;
    let (r0, r1) = rows_touched(&map, pic.on, y).unwrap_or((c.y0, c.y1));
    for row in c.y0.max(r0)..c.y1.min(r1) {
        let dy = 2 * i128::from(row - y) + 1;
        let bu = 2 * i128::from(map.pivot.0) + m[0][0] * dx + m[0][1] * dy;
        let bv = 2 * i128::from(map.pivot.1) + m[1][0] * dx + m[1][1] * dy;
        let (ua, ub) = steps_inside(bu, su, u_in, width);
        let (va, vb) = steps_inside(bv, sv, v_in, width);
        let (ka, kb) = (ua.max(va), ub.min(vb));
        if ka >= kb {
            continue;
        }
        // Inside the span every position is between the on-sheet bounds, below 2^47: 64 bits
        // hold them, and wrapping steps land on the exact values.
        let mut u = (bu + su * i128::from(ka)) as i64;
        let mut v = (bv + sv * i128::from(ka)) as i64;
        let (su, sv) = (su as i64, sv as i64);
        let mut k = ka;
        while k < kb {
            let n = ((kb - k) as usize).min(LINE);
            for l in &mut line[..n] {
                *l = px[pic.index(u >> shift, v >> shift)];
                u = u.wrapping_add(su);
                v = v.wrapping_add(sv);
            }
            let d = row as usize * fw + (c.x0 + k) as usize;
            ink.blend(&mut dst[d..d + n], &line[..n]);
            k += n as i64;
        }
    }
}

/// Gathers and blends one span into `c` (one row, inside the clip), the span starting at
/// screen `x`.
fn span_row<I: Ink>(
    dst: &mut [u8],
    fw: usize,
    sheet: &SpriteSheet,
    c: Bounds,
    (x, walk): (i64, Span),
    ink: I,
) {
    let src = walk.src;
    let (w, h) = (i64::from(src.w), i64::from(src.h));
    let (wf, hf) = (w << SPAN_FRAC, h << SPAN_FRAC);
    // The walk reduced modulo the texture, so it stays small, the first visible pixel's
    // position computed in wide numbers.
    let k0 = i128::from(c.x0 - x);
    let reduce = |start: i64, step: i64, size: i64| {
        let at = (i128::from(start) + k0 * i128::from(step)).rem_euclid(i128::from(size));
        (at as i64, step.rem_euclid(size))
    };
    let (mut u, du) = reduce(walk.start.0, walk.step.0, wf);
    let (mut v, dv) = reduce(walk.start.1, walk.step.1, hf);
    let (sx, sy) = (i64::from(src.x), i64::from(src.y));
    let (sw, sh) = (i64::from(sheet.width), i64::from(sheet.height));
    let on_sheet = sx >= 0 && sy >= 0 && sx + w <= sw && sy + h <= sh;
    let mut line = [0u8; LINE];
    let mut k = c.x0;
    while k < c.x1 {
        let n = ((c.x1 - k) as usize).min(LINE);
        let d = c.y0 as usize * fw + k as usize;
        let row = &mut dst[d..d + n];
        if on_sheet {
            for l in &mut line[..n] {
                let (tx, ty) = (sx + (u >> SPAN_FRAC), sy + (v >> SPAN_FRAC));
                *l = sheet.pixels[(ty * sw + tx) as usize];
                (u, v) = (step_wrap(u, du, wf), step_wrap(v, dv, hf));
            }
            ink.blend(row, &line[..n]);
        } else {
            // Part of the texture is off the sheet: those samples are skipped one by one.
            for p in row.iter_mut() {
                let (tx, ty) = (sx + (u >> SPAN_FRAC), sy + (v >> SPAN_FRAC));
                if (0..sw).contains(&tx) && (0..sh).contains(&ty) {
                    let s = sheet.pixels[(ty * sw + tx) as usize];
                    ink.blend(std::slice::from_mut(p), &[s]);
                }
                (u, v) = (step_wrap(u, du, wf), step_wrap(v, dv, hf));
            }
        }
        k += n as i64;
    }
}

/// `(at + step) mod size` for `at` and `step` in `[0, size)`. Without a branch: along a span
/// the wrap comes at no steady rhythm, and a mispredicted branch a pixel costs more than
/// the mask.
#[inline(always)]
fn step_wrap(at: i64, step: i64, size: i64) -> i64 {
    let next = at + step;
    next - (size & -i64::from(next >= size))
}

#[cfg(test)]
mod tests;
