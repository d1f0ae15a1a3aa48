//! The palette-indexed framebuffer and the drawing primitives that write into it.
//!
//! Every primitive takes integer coordinates and clips against the framebuffer and its clip
//! rectangle before touching memory, so no argument (negative sizes, `i32::MIN`, shapes far off
//! screen) can panic or write out of bounds. Index 0 is transparent: drawing with it changes
//! nothing. Coordinates here are screen coordinates; the render context adds the camera. Every
//! pixel goes through the pen (`pen.rs`): the draw-time remap and the fill pattern.

use crate::draw::Font;
use crate::draw::{InkTable, Pen};
use crate::draw::{Rect, Scratch};

/// A half-open box `[x0, x1) × [y0, y1)` in wide integers, already inside the framebuffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) x0: i64,
    pub(crate) y0: i64,
    pub(crate) x1: i64,
    pub(crate) y1: i64,
}

impl Bounds {
    #[inline]
    pub(crate) fn intersect(self, x0: i64, y0: i64, x1: i64, y1: i64) -> Option<Bounds> {
        let b = Bounds {
            x0: self.x0.max(x0),
            y0: self.y0.max(y0),
            x1: self.x1.min(x1),
            y1: self.y1.min(y1),
        };
        (b.x0 < b.x1 && b.y0 < b.y1).then_some(b)
    }
}

/// One byte per pixel, each a palette index, row by row from the top-left corner.
///
/// Two framebuffers are equal when their size, pixels, clip, remap and fill pattern are.
#[derive(Debug, Clone)]
pub struct Framebuffer {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) pixels: Vec<u8>,
    pub(crate) clip: Bounds,
    pub(crate) pen: Pen,
    /// The last sprite ink table built (see [`InkTable::prepare`]): a cache, not state. Made on
    /// the first draw that needs one.
    pub(crate) ink: Option<Box<InkTable>>,
    /// Working memory the flood fill reuses from frame to frame.
    pub(crate) scratch: Scratch,
    /// Images `Render::with_image` lends out, kept to be lent again: a cache, not state.
    pub(crate) images: Vec<crate::draw::Image>,
    /// The text `Render::print_styled` lays out, written here and reused from call to call
    /// so that formatted text allocates only past its longest: a cache, not state.
    pub(crate) text: String,
}

impl PartialEq for Framebuffer {
    fn eq(&self, other: &Framebuffer) -> bool {
        (self.width, self.height, self.clip) == (other.width, other.height, other.clip)
            && self.pixels == other.pixels
            && self.pen == other.pen
    }
}

impl Eq for Framebuffer {}

impl Framebuffer {
    /// A framebuffer of `width × height` pixels, all index 0, with no clip.
    ///
    /// Sizes are validated by the settings ([`crate::Settings::validate`]); a zero size makes an
    /// empty framebuffer that every primitive ignores.
    pub fn new(width: u32, height: u32) -> Framebuffer {
        let len = width as usize * height as usize;
        Framebuffer {
            width,
            height,
            pixels: vec![0; len],
            clip: Bounds {
                x0: 0,
                y0: 0,
                x1: i64::from(width),
                y1: i64::from(height),
            },
            pen: Pen::default(),
            ink: None,
            scratch: Scratch::default(),
            images: Vec::new(),
            text: String::new(),
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// All pixels, row by row.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The index at `(x, y)`, or `None` outside the framebuffer.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x as u32 >= self.width || y as u32 >= self.height {
            return None;
        }
        Some(self.pixels[y as usize * self.width as usize + x as usize])
    }

    fn full(&self) -> Bounds {
        Bounds {
            x0: 0,
            y0: 0,
            x1: i64::from(self.width),
            y1: i64::from(self.height),
        }
    }

    /// Limits drawing to `rect` (intersected with the screen) until the next [`Self::reset_clip`].
    pub fn set_clip(&mut self, rect: Rect) {
        let (x0, y0) = (i64::from(rect.x), i64::from(rect.y));
        let (x1, y1) = (x0 + i64::from(rect.w.max(0)), y0 + i64::from(rect.h.max(0)));
        self.clip = self.full().intersect(x0, y0, x1, y1).unwrap_or(Bounds {
            x0: 0,
            y0: 0,
            x1: 0,
            y1: 0,
        });
    }

    /// Lets drawing reach the whole screen again.
    pub fn reset_clip(&mut self) {
        self.clip = self.full();
    }

    /// The current clip rectangle.
    pub fn clip(&self) -> Rect {
        let c = self.clip;
        Rect::new(
            c.x0 as i32,
            c.y0 as i32,
            (c.x1 - c.x0) as i32,
            (c.y1 - c.y0) as i32,
        )
    }

    /// Sets every pixel to `index`, ignoring the clip (index 0 included: this is how a frame
    /// starts from a blank screen).
    pub fn clear(&mut self, index: u8) {
        self.pixels.fill(index);
    }

    /// Lays `top`, a layer of the same size drawn apart, over this framebuffer: each of its
    /// pixels other than 0 replaces this one's; 0 leaves it. Returns whether any pixel was
    /// laid. A layer of another size lays nothing.
    pub fn lay_over(&mut self, top: &Framebuffer) -> bool {
        if (top.width, top.height) != (self.width, self.height) {
            return false;
        }
        let mut laid = false;
        for (dst, &src) in self.pixels.iter_mut().zip(&top.pixels) {
            if src != 0 {
                *dst = src;
                laid = true;
            }
        }
        laid
    }

    /// Copies the pixels of `from` (a framebuffer of the same size) inside `rect` onto this
    /// one, index 0 included, ignoring the clip. Parts outside either framebuffer are left.
    pub fn copy_rect_from(&mut self, from: &Framebuffer, rect: Rect) {
        if (from.width, from.height) != (self.width, self.height) {
            return;
        }
        let (x0, y0, x1, y1) = rect.wide();
        let Some(b) = self.full().intersect(x0, y0, x1, y1) else {
            return;
        };
        let w = self.width as usize;
        for y in b.y0 as usize..b.y1 as usize {
            let span = y * w + b.x0 as usize..y * w + b.x1 as usize;
            self.pixels[span.clone()].copy_from_slice(&from.pixels[span]);
        }
    }

    fn fill_bounds(&mut self, b: Bounds, index: u8) {
        let w = self.width as usize;
        let (x0, x1) = (b.x0 as usize, b.x1 as usize);
        let at = b.y0 as usize * w;
        if b.y1 - b.y0 == 1 {
            // One row, as the shapes fill them: no row loop to set up.
            if let Some(span) = self.pixels.get_mut(at + x0..at + x1) {
                span.fill(index);
            }
            return;
        }
        let rows = &mut self.pixels[at..b.y1 as usize * w];
        for row in rows.chunks_exact_mut(w) {
            if let Some(span) = row.get_mut(x0..x1) {
                span.fill(index);
            }
        }
    }

    /// Fills the box `[x0, x1) × [y0, y1)` given in wide coordinates. Inlined: the shapes call
    /// it once a row, and its clip and the plain fill are a few instructions each.
    #[inline]
    pub(crate) fn fill_wide(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, index: u8) {
        if index == 0 {
            return;
        }
        if let Some(b) = self.clip.intersect(x0, y0, x1, y1) {
            if self.pen.pattern == 0 && !self.pen.blending {
                self.fill_bounds(b, self.pen.remap[usize::from(index)]);
            } else {
                self.fill_bounds_pen(b, index);
            }
        }
    }

    pub(crate) fn pixel_wide(&mut self, x: i64, y: i64, index: u8) {
        let c = self.clip;
        if index != 0 && x >= c.x0 && x < c.x1 && y >= c.y0 && y < c.y1 {
            if let Some(v) = self.pen.ink_at(x, y, index) {
                let i = y as usize * self.width as usize + x as usize;
                self.pixels[i] = self.pen.over(v, self.pixels[i]);
            }
        }
    }

    /// Sets one pixel.
    pub fn draw_pixel(&mut self, x: i32, y: i32, index: u8) {
        self.pixel_wide(i64::from(x), i64::from(y), index);
    }

    /// Fills a rectangle.
    pub fn draw_rect_fill(&mut self, rect: Rect, index: u8) {
        let (x0, y0, x1, y1) = rect.wide();
        self.fill_wide(x0, y0, x1, y1, index);
    }

    pub(crate) fn rect_wide(&mut self, x0: i64, y0: i64, w: i64, h: i64, index: u8) {
        if w <= 0 || h <= 0 {
            return;
        }
        let (x1, y1) = (x0 + w, y0 + h);
        self.fill_wide(x0, y0, x1, y0 + 1, index);
        self.fill_wide(x0, y1 - 1, x1, y1, index);
        self.fill_wide(x0, y0 + 1, x0 + 1, y1 - 1, index);
        self.fill_wide(x1 - 1, y0 + 1, x1, y1 - 1, index);
    }

    /// Draws a rectangle's one-pixel outline.
    pub fn draw_rect(&mut self, rect: Rect, index: u8) {
        let r = rect;
        self.rect_wide(r.x.into(), r.y.into(), r.w.into(), r.h.into(), index);
    }

    /// Fills a rectangle with `index`, index 0 included: the one primitive besides
    /// [`Self::clear`] that can put pixels back to blank. Clipped like every other primitive.
    pub fn clear_rect(&mut self, rect: Rect, index: u8) {
        let (x0, y0, x1, y1) = rect.wide();
        self.clear_rect_wide(x0, y0, x1, y1, index);
    }

    pub(crate) fn clear_rect_wide(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, index: u8) {
        if let Some(b) = self.clip.intersect(x0, y0, x1, y1) {
            self.fill_bounds(b, index);
        }
    }

    /// Draws the one-pixel outline of a circle centred on `(cx, cy)`. See
    /// [`Self::draw_circle_fill`] for which pixels belong to a circle; the outline is those of
    /// them with a neighbour (left, right, above or below) outside it. A negative radius draws
    /// nothing; radius 0 is one pixel.
    pub fn draw_circle(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        self.circle_wide(cx.into(), cy.into(), r.into(), index, false);
    }

    /// Fills a circle centred on `(cx, cy)`: every pixel `(x, y)` with
    /// `(x - cx)² + (y - cy)² <= r² + r`, which is the disc of radius `r + ½` as near as whole
    /// pixels allow (and exactly the pixels the midpoint circle algorithm encloses). Only the
    /// rows inside the clip are visited, so a huge radius costs no more than the screen.
    pub fn draw_circle_fill(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        self.circle_wide(cx.into(), cy.into(), r.into(), index, true);
    }

    pub(crate) fn circle_wide(&mut self, cx: i64, cy: i64, r: i64, index: u8, fill: bool) {
        if index == 0 || r < 0 {
            return;
        }
        let c = self.clip;
        let (y0, y1) = ((cy - r).max(c.y0), (cy + r).min(c.y1 - 1));
        if y0 > y1 {
            return;
        }
        if self.pen.pattern == 0 && !self.pen.blending && r < SMALL_CIRCLE {
            let ink = self.pen.remap[usize::from(index)];
            if fill {
                self.circle_plain::<true>(cx, cy, r, (y0, y1), ink);
            } else {
                self.circle_plain::<false>(cx, cy, r, (y0, y1), ink);
            }
            return;
        }
        // Half widths of the row above, this row and the row below, rolled down the circle so
        // each row's square root is taken once.
        let (mut above, mut here) = (
            circle_half_width(r, y0 - 1 - cy),
            circle_half_width(r, y0 - cy),
        );
        for y in y0..=y1 {
            let below = circle_half_width(r, y + 1 - cy);
            let hw = here;
            if fill {
                self.fill_wide(cx - hw, y, cx + hw + 1, y + 1, index);
            } else {
                // A pixel is on the outline when its row neighbour above or below is outside the
                // circle (|dx| beyond that row's half width) or it is the end of its own row.
                let lo = (above.min(below) + 1).clamp(0, hw);
                self.fill_wide(cx - hw, y, cx - lo + 1, y + 1, index);
                self.fill_wide(cx + lo, y, cx + hw + 1, y + 1, index);
            }
            (above, here) = (here, below);
        }
    }

    /// [`Self::circle_wide`] on rows `y0..=y1` (inside the clip and the circle), with no fill
    /// pattern and a radius below [`SMALL_CIRCLE`] (so every square below fits 64 bits): filled
    /// when `FILL`, else the outline. Each span of `ink` is written straight into the pixels, and
    /// each row's half width is walked from the row before's (see [`next_half_width`]) instead
    /// of taking a square root.
    #[inline(never)]
    fn circle_plain<const FILL: bool>(
        &mut self,
        cx: i64,
        cy: i64,
        r: i64,
        (y0, y1): (i64, i64),
        ink: u8,
    ) {
        let (c, w) = (self.clip, self.width as usize);
        // One span of row `at`, clipped left and right.
        let mut span = |at: usize, x0: i64, x1: i64| {
            let (x0, x1) = (x0.max(c.x0), x1.min(c.x1));
            if x0 < x1 {
                if let Some(span) = self.pixels.get_mut(at + x0 as usize..at + x1 as usize) {
                    span.fill(ink);
                }
            }
        };
        let (mut above, mut here) = (
            circle_half_width(r, y0 - 1 - cy),
            circle_half_width(r, y0 - cy),
        );
        // `r² + r - dy²` of the row below, rolled down with it.
        let mut room = r * r + r - (y0 + 1 - cy) * (y0 + 1 - cy);
        for y in y0..=y1 {
            let below = next_half_width(here, room);
            room -= 2 * (y + 1 - cy) + 1;
            let at = y as usize * w;
            if FILL {
                span(at, cx - here, cx + here + 1);
            } else {
                // As in `circle_wide`: the pixels whose neighbour above or below is outside.
                let lo = (above.min(below) + 1).clamp(0, here);
                span(at, cx - here, cx - lo + 1);
                span(at, cx + lo, cx + here + 1);
            }
            (above, here) = (here, below);
        }
    }

    /// Draws a line with both end points included, one pixel per step along the longer axis
    /// (the pixels Bresenham's algorithm picks). A line and its reverse cover the same pixels.
    /// Its ends are `(x, y)` pairs, as a triangle's corners are.
    pub fn draw_line(&mut self, from: (i32, i32), to: (i32, i32), index: u8) {
        self.line_wide(
            from.0.into(),
            from.1.into(),
            to.0.into(),
            to.1.into(),
            index,
        );
    }

    pub(crate) fn line_wide(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, index: u8) {
        if index == 0 {
            return;
        }
        // Walk from the end with the smaller major coordinate, so a line and its reverse are the
        // same pixels.
        let x_major = (x1 - x0).abs() >= (y1 - y0).abs();
        let swap = if x_major { x1 < x0 } else { y1 < y0 };
        let (x0, y0, x1, y1) = if swap {
            (x1, y1, x0, y0)
        } else {
            (x0, y0, x1, y1)
        };
        let (dx, dy) = (x1 - x0, y1 - y0);
        let c = self.clip;
        if x_major {
            // x-major: walk only the columns the clip can show.
            let (lo, hi) = (x0.min(x1).max(c.x0), x0.max(x1).min(c.x1 - 1));
            for x in lo..=hi {
                let y = y0 + minor_offset(x - x0, dx, dy);
                self.pixel_wide(x, y, index);
            }
        } else {
            let (lo, hi) = (y0.min(y1).max(c.y0), y0.max(y1).min(c.y1 - 1));
            for y in lo..=hi {
                let x = x0 + minor_offset(y - y0, dy, dx);
                self.pixel_wide(x, y, index);
            }
        }
    }

    /// Draws `text` (anything that displays: `&str`, a number, `format_args!`) with the system
    /// font ([`Font::system`]) in `index`, its top-left corner at `(x, y)`, without allocating.
    /// `\n` starts a new line 14 px lower at the same `x`. Characters the font lacks show as a
    /// hollow box. The same call as [`Render::print`](crate::Render::print), in screen
    /// coordinates; it draws through the one text path every font uses.
    pub fn print(&mut self, x: i32, y: i32, text: impl std::fmt::Display, index: u8) {
        let at = (i64::from(x), i64::from(y));
        self.font_print_fmt(Font::system(), at, index, format_args!("{text}"));
    }
}

/// The whole square root of `n` (the largest `s` with `s² <= n`) for `n` below 2⁶², as
/// `u64::isqrt` gives it, from the floating-point root corrected by at most a step each way.
/// IEEE 754 rounds a square root exactly, so this is the same on every machine; it is several
/// times cheaper than the integer method, once a row of every circle.
fn isqrt_small(n: u64) -> u64 {
    let mut s = (n as f64).sqrt() as u64;
    while s * s > n {
        s -= 1;
    }
    while (s + 1) * (s + 1) <= n {
        s += 1;
    }
    s
}

/// Radii below this (and rows less than this from the centre) keep `r² + r - dy²` and the
/// squares of half widths inside 64-bit integers, whose arithmetic and square root are much
/// cheaper than 128-bit ones; every circle on a screen is far below it.
const SMALL_CIRCLE: i64 = 1 << 30;

/// The whole square root of `room` (-1 when it is negative), given `hw`, the root of a nearby
/// value: one step up or down from `hw` when that is the answer, which it is for all but the
/// rows near a circle's top and bottom, else [`isqrt_small`]. `room` and `hw` are below 2⁶¹
/// and 2³¹, so no square here overflows.
#[inline(always)]
fn next_half_width(hw: i64, room: i64) -> i64 {
    let up = hw + 1;
    if up * up <= room {
        if (up + 1) * (up + 1) > room {
            return up;
        }
    } else if hw * hw <= room {
        return hw;
    } else if hw > 0 && (hw - 1) * (hw - 1) <= room {
        return hw - 1;
    }
    if room < 0 {
        -1
    } else {
        isqrt_small(room.unsigned_abs()) as i64
    }
}

/// The largest `dx` with `dx² + dy² <= r² + r`, or -1 when row `dy` misses the circle.
fn circle_half_width(r: i64, dy: i64) -> i64 {
    // On-screen circles fit 64-bit arithmetic, whose square root is much cheaper.
    const SMALL: i64 = SMALL_CIRCLE;
    if r < SMALL && dy.abs() < SMALL {
        let room = r * r + r - dy * dy;
        return if room < 0 {
            -1
        } else {
            isqrt_small(room.unsigned_abs()) as i64
        };
    }
    let (r, dy) = (i128::from(r), i128::from(dy));
    let room = r * r + r - dy * dy;
    if room < 0 {
        -1
    } else {
        room.isqrt() as i64
    }
}

/// The minor-axis offset of a line at `step` along its major axis: `round(step * minor / major)`
/// with halves rounded away from zero, in wide integers so no input can overflow.
fn minor_offset(step: i64, major: i64, minor: i64) -> i64 {
    if major == 0 {
        return 0;
    }
    // Every on-screen line takes this path: 64-bit division is several times cheaper than
    // 128-bit, and below 2^30 the products cannot overflow.
    const SMALL: i64 = 1 << 30;
    if step.abs() < SMALL && major.abs() < SMALL && minor.abs() < SMALL {
        let (num, den) = (step * minor * 2, major * 2);
        let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
        return if num >= 0 {
            (num + den / 2) / den
        } else {
            -((-num + den / 2) / den)
        };
    }
    let num = i128::from(step) * i128::from(minor) * 2;
    let den = i128::from(major) * 2;
    let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
    let q = if num >= 0 {
        (num + den / 2) / den
    } else {
        -((-num + den / 2) / den)
    };
    q as i64
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A circle one pixel at a time: filled, every pixel with `dx² + dy² <= r² + r`; the
    /// outline, those of them with a neighbour left, right, above or below outside.
    fn circle_per_pixel(fb: &mut Framebuffer, cx: i64, cy: i64, r: i64, index: u8, fill: bool) {
        let inside = |dx: i64, dy: i64| dx * dx + dy * dy <= r * r + r;
        let c = fb.clip;
        for y in c.y0..c.y1 {
            for x in c.x0..c.x1 {
                let (dx, dy) = (x - cx, y - cy);
                let on = inside(dx, dy)
                    && (fill
                        || !inside(dx - 1, dy)
                        || !inside(dx + 1, dy)
                        || !inside(dx, dy - 1)
                        || !inside(dx, dy + 1));
                if on {
                    fb.pixels[(y * i64::from(fb.width) + x) as usize] = index;
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The circle's span rows (each half width walked from the row before's) draw what the
        /// per-pixel rule draws, for radii small and large enough that the walk falls back to
        /// a square root, centred anywhere on or off a clip cut at any side.
        #[test]
        fn circles_draw_what_the_per_pixel_rule_draws(
            cx in -80..120i64,
            cy in -80..100i64,
            r in prop_oneof![0..12i64, 12..300i64],
            clip in (-4..60i32, -4..50i32, 0..70i32, 0..60i32),
            fill in any::<bool>(),
        ) {
            let mut fb = Framebuffer::new(64, 48);
            fb.set_clip(Rect::new(clip.0, clip.1, clip.2, clip.3));
            let mut want = fb.clone();
            fb.circle_wide(cx, cy, r, 9, fill);
            circle_per_pixel(&mut want, cx, cy, r, 9, fill);
            prop_assert_eq!(fb.pixels(), want.pixels());
        }
    }

    #[test]
    fn the_walked_half_width_is_the_square_root_on_every_row() {
        for r in 0..400i64 {
            let mut hw = circle_half_width(r, -r - 1);
            for dy in -r..=r + 1 {
                hw = next_half_width(hw, r * r + r - dy * dy);
                assert_eq!(hw, circle_half_width(r, dy), "r {r}, dy {dy}");
            }
        }
    }

    #[test]
    fn the_circle_square_root_is_the_integer_one() {
        // Every n up to 100,000, and around each square near the top of the range circles use.
        for n in 0..100_000u64 {
            assert_eq!(isqrt_small(n), n.isqrt(), "n = {n}");
        }
        for root in (1u64 << 30) - 2_000..(1u64 << 30) + 2 {
            for n in [
                root * root - 1,
                root * root,
                root * root + 1,
                root * root + 2 * root,
            ] {
                assert_eq!(isqrt_small(n), n.isqrt(), "n = {n}");
            }
        }
    }

    /// Every pixel not of index 0, row by row: what a drawing call inked.
    pub(crate) fn ink(fb: &Framebuffer) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for y in 0..fb.height() as i32 {
            for x in 0..fb.width() as i32 {
                if fb.get(x, y) != Some(0) {
                    out.push((x, y));
                }
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn minor_offset_fast_path_matches_wide_arithmetic(
            step in -5000i64..5000,
            major in -5000i64..5000,
            minor in -5000i64..5000,
        ) {
            // The rounding rule in 128-bit arithmetic, as the fallback computes it.
            let wide = |step: i64, major: i64, minor: i64| -> i64 {
                if major == 0 {
                    return 0;
                }
                let num = i128::from(step) * i128::from(minor) * 2;
                let den = i128::from(major) * 2;
                let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
                (if num >= 0 { (num + den / 2) / den } else { -((-num + den / 2) / den) }) as i64
            };
            proptest::prop_assert_eq!(minor_offset(step, major, minor), wide(step, major, minor));
        }
    }

    #[test]
    fn rect_fill_clips_to_screen_for_any_arguments() {
        let mut fb = Framebuffer::new(8, 6);
        fb.draw_rect_fill(Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX), 3);
        assert!(ink(&fb).is_empty());
        fb.draw_rect_fill(Rect::new(6, 4, i32::MAX, i32::MAX), 3);
        assert_eq!(ink(&fb), [(6, 4), (7, 4), (6, 5), (7, 5)]);
        fb.draw_rect_fill(Rect::new(0, 0, -5, 3), 4);
        assert_eq!(ink(&fb).len(), 4, "negative width draws nothing");
    }

    #[test]
    fn rect_outline_has_a_one_pixel_border() {
        let mut fb = Framebuffer::new(6, 6);
        fb.draw_rect(Rect::new(1, 1, 4, 3), 2);
        assert_eq!(
            ink(&fb),
            [
                (1, 1),
                (2, 1),
                (3, 1),
                (4, 1),
                (1, 2),
                (4, 2),
                (1, 3),
                (2, 3),
                (3, 3),
                (4, 3)
            ]
        );
    }

    #[test]
    fn index_zero_is_transparent_but_clear_is_not() {
        let mut fb = Framebuffer::new(4, 4);
        fb.clear(5);
        fb.draw_pixel(1, 1, 0);
        fb.draw_rect_fill(Rect::new(0, 0, 4, 4), 0);
        assert!(fb.pixels().iter().all(|&p| p == 5));
        fb.clear(0);
        assert!(fb.pixels().iter().all(|&p| p == 0));
    }

    #[test]
    fn clip_limits_every_primitive() {
        let mut fb = Framebuffer::new(10, 10);
        fb.set_clip(Rect::new(2, 2, 3, 3));
        fb.draw_rect_fill(Rect::new(0, 0, 10, 10), 1);
        fb.draw_line((0, 9), (9, 0), 2);
        fb.print(0, 0, "##", 3);
        assert!(ink(&fb)
            .iter()
            .all(|&(x, y)| (2..5).contains(&x) && (2..5).contains(&y)));
        assert_eq!(fb.clip(), Rect::new(2, 2, 3, 3));
        fb.reset_clip();
        fb.draw_pixel(9, 9, 1);
        assert_eq!(fb.get(9, 9), Some(1));
    }

    #[test]
    fn line_includes_both_ends_and_is_symmetric() {
        let mut a = Framebuffer::new(16, 16);
        a.draw_line((1, 2), (13, 7), 1);
        let mut b = Framebuffer::new(16, 16);
        b.draw_line((13, 7), (1, 2), 1);
        assert_eq!(a.get(1, 2), Some(1));
        assert_eq!(a.get(13, 7), Some(1));
        assert_eq!(ink(&a).len(), 13, "one pixel per column");
        assert_eq!(a, b);
    }

    #[test]
    fn huge_line_is_clipped_not_walked() {
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_line((i32::MIN, 3), (i32::MAX, 3), 1);
        assert_eq!(ink(&fb).len(), 8);
        fb.draw_line((i32::MIN, i32::MIN), (i32::MAX, i32::MAX), 2);
        assert!(ink(&fb).len() > 8);
    }

    #[test]
    fn text_measures_and_draws_in_its_box() {
        let plain = crate::TextStyle::new();
        assert_eq!(Font::system().measure("", plain), (0, 0));
        assert_eq!(Font::system().measure("abc", plain), (18, 14));
        assert_eq!(Font::system().measure("ab\nlonger", plain), (36, 28));
        let mut fb = Framebuffer::new(40, 30);
        fb.print(2, 1, "Hi\nok", 7);
        let pts = ink(&fb);
        assert!(!pts.is_empty());
        assert!(pts
            .iter()
            .all(|&(x, y)| (2..14).contains(&x) && (1..29).contains(&y)));
        assert!(pts.iter().any(|&(_, y)| y >= 15), "second line drawn lower");
    }

    #[test]
    fn formatted_print_matches_plain_print() {
        let mut a = Framebuffer::new(80, 30);
        a.print(1, 2, "T 42\nx 3", 7);
        let mut b = Framebuffer::new(80, 30);
        b.print(1, 2, format_args!("T {}\nx {}", 42, 3), 7);
        assert_eq!(a, b);
    }

    #[test]
    fn unknown_characters_draw_the_replacement_box() {
        let mut a = Framebuffer::new(6, 14);
        a.print(0, 0, "\u{4e00}", 1);
        let mut b = Framebuffer::new(6, 14);
        b.print(0, 0, "\u{1F600}", 1);
        assert_eq!(a, b);
        assert_eq!(ink(&a).len(), 2 * 5 + 2 * 7);
    }
}
