//! The shapes past lines, rectangles and circles: triangles, ellipses and the flood fill.
//!
//! Like every primitive they take integer coordinates, visit only the rows inside the clip and
//! go through the pen (remap and fill pattern). Arithmetic on coordinates is done in 128-bit
//! integers where a product of two of them could overflow 64.

use crate::draw::{Framebuffer, Rect};

/// Working memory for the flood fill, kept with the framebuffer so a fill each frame allocates
/// only the first time. Not part of the picture.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// Spans still to look at: `(y, x0, x1)`.
    stack: Vec<(i64, i64, i64)>,
    /// One byte per pixel: 1 once the fill has reached it.
    reached: Vec<u8>,
}

/// `ceil(n / d)` for `d > 0`.
fn div_ceil(n: i128, d: i128) -> i128 {
    -((-n).div_euclid(d))
}

impl Framebuffer {
    /// Draws a triangle's outline: the three lines between its corners.
    pub fn draw_triangle(&mut self, a: (i32, i32), b: (i32, i32), c: (i32, i32), index: u8) {
        self.triangle_wide(wide(a), wide(b), wide(c), index, false);
    }

    /// Fills a triangle: every pixel whose centre lies inside it or on its edges, and the
    /// pixels of its outline, so a filled triangle always covers its outline exactly. Corners
    /// in any order; three corners on a line fill that line.
    pub fn draw_triangle_fill(&mut self, a: (i32, i32), b: (i32, i32), c: (i32, i32), index: u8) {
        self.triangle_wide(wide(a), wide(b), wide(c), index, true);
    }

    pub(crate) fn triangle_wide(
        &mut self,
        a: (i64, i64),
        b: (i64, i64),
        c: (i64, i64),
        index: u8,
        fill: bool,
    ) {
        if index == 0 {
            return;
        }
        if fill {
            let mut v = [a, b, c];
            v.sort_by_key(|p| p.1);
            let [top, mid, bottom] = v;
            let clip = self.clip;
            let (y0, y1) = (top.1.max(clip.y0), bottom.1.min(clip.y1 - 1));
            for y in y0..=y1 {
                // Where the long edge (top to bottom) and the short edge of this half cross
                // row y, as exact fractions; the row spans the pixel centres between them.
                let long = edge_x(top, bottom, y);
                let short = if y < mid.1 || mid.1 == bottom.1 {
                    edge_x(top, mid, y)
                } else {
                    edge_x(mid, bottom, y)
                };
                let (Some(l), Some(s)) = (long, short) else {
                    continue;
                };
                let (lo, hi) = if cmp_frac(l, s).is_le() {
                    (l, s)
                } else {
                    (s, l)
                };
                let x0 = div_ceil(lo.0, lo.1);
                let x1 = hi.0.div_euclid(hi.1);
                if x0 <= x1 {
                    let x0 = x0.clamp(i128::from(i64::MIN / 2), i128::from(i64::MAX / 2)) as i64;
                    let x1 = x1.clamp(i128::from(i64::MIN / 2), i128::from(i64::MAX / 2)) as i64;
                    self.fill_wide(x0, y, x1 + 1, y + 1, index);
                }
            }
        }
        self.line_wide(a.0, a.1, b.0, b.1, index);
        self.line_wide(b.0, b.1, c.0, c.1, index);
        self.line_wide(c.0, c.1, a.0, a.1, index);
    }

    /// Draws the one-pixel outline of the ellipse that fills `rect` (Pyxel's `ellib`). See
    /// [`Self::draw_ellipse_fill`] for which pixels belong to it; the outline is those of them
    /// with a neighbour (left, right, above or below) outside it.
    pub fn draw_ellipse(&mut self, rect: Rect, index: u8) {
        self.ellipse_wide(rect, wide((rect.x, rect.y)), index, false);
    }

    /// Fills the ellipse inscribed in `rect` (Pyxel's `elli`): every pixel whose centre lies
    /// inside or on it. A `rect` of `2r + 1` a side is exactly [`Self::draw_circle_fill`] of
    /// radius `r`; an empty `rect` draws nothing.
    pub fn draw_ellipse_fill(&mut self, rect: Rect, index: u8) {
        self.ellipse_wide(rect, wide((rect.x, rect.y)), index, true);
    }

    /// The ellipse of `rect`'s size with its top-left corner at `at` (the camera applied).
    pub(crate) fn ellipse_wide(&mut self, rect: Rect, at: (i64, i64), index: u8, fill: bool) {
        if index == 0 || rect.w <= 0 || rect.h <= 0 {
            return;
        }
        let (w, h) = (i128::from(rect.w), i128::from(rect.h));
        let (x0, y0) = (i128::from(at.0), i128::from(at.1));
        // In doubled coordinates a pixel (x, y) has its centre at X = 2x + 1 - (2·x0 + w) from
        // the middle (likewise Y), and lies inside when X²h² + Y²w² <= w²h².
        let span = |y: i64| -> Option<(i64, i64)> {
            let dy = 2 * i128::from(y) + 1 - (2 * y0 + h);
            let room = h * h - dy * dy;
            if room < 0 {
                return None;
            }
            // Largest |X| with X²h² <= w²·room.
            let reach = ((w * w * room) / (h * h)).unsigned_abs().isqrt() as i128;
            let lo = div_ceil(2 * x0 + w - 1 - reach, 2);
            let hi = (2 * x0 + w - 1 + reach).div_euclid(2);
            (lo <= hi).then_some((lo as i64, hi as i64))
        };
        let c = self.clip;
        let top = at.1;
        let bottom = at.1 + i64::from(rect.h) - 1;
        let (ys, ye) = (top.max(c.y0), bottom.min(c.y1 - 1));
        if ys > ye {
            return;
        }
        let (mut above, mut here) = (span(ys - 1), span(ys));
        for y in ys..=ye {
            let below = span(y + 1);
            if let Some((lo, hi)) = here {
                if fill {
                    self.fill_wide(lo, y, hi + 1, y + 1, index);
                } else {
                    // Inside the outline: pixels whose row neighbours above and below are in
                    // the ellipse too, and which are not the ends of their own row.
                    let inner = match (above, below) {
                        (Some(a), Some(b)) => (a.0.max(b.0).max(lo + 1), a.1.min(b.1).min(hi - 1)),
                        _ => (hi + 1, hi),
                    };
                    if inner.0 > inner.1 {
                        self.fill_wide(lo, y, hi + 1, y + 1, index);
                    } else {
                        self.fill_wide(lo, y, inner.0, y + 1, index);
                        self.fill_wide(inner.1 + 1, y, hi + 1, y + 1, index);
                    }
                }
            }
            (above, here) = (here, below);
        }
    }

    /// Fills the area around `(x, y)` that holds the same index as that pixel (neighbours left,
    /// right, above and below; never past the clip) with `index` (Pyxel's `fill`). Nothing
    /// happens when `(x, y)` is outside the clip. Goes through the pen, so a fill pattern
    /// shades the area; the area is found first, so that never makes the fill run on.
    pub fn flood_fill(&mut self, x: i32, y: i32, index: u8) {
        self.flood_wide(x.into(), y.into(), index);
    }

    pub(crate) fn flood_wide(&mut self, x: i64, y: i64, index: u8) {
        let c = self.clip;
        if index == 0 || x < c.x0 || x >= c.x1 || y < c.y0 || y >= c.y1 {
            return;
        }
        let w = self.width as usize;
        let at = |x: i64, y: i64| y as usize * w + x as usize;
        let target = self.pixels[at(x, y)];
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.reached.clear();
        scratch.reached.resize(self.pixels.len(), 0);
        scratch.stack.clear();
        scratch.stack.push((y, x, x));
        // Span filling: take a run, widen it to the whole run of `target` pixels in its row, and
        // queue the rows above and below it.
        while let Some((sy, sx0, sx1)) = scratch.stack.pop() {
            let mut sx = sx0;
            while sx <= sx1 {
                let i = at(sx, sy);
                if scratch.reached[i] != 0 || self.pixels[i] != target {
                    sx += 1;
                    continue;
                }
                let (mut l, mut r) = (sx, sx);
                while l > c.x0
                    && scratch.reached[at(l - 1, sy)] == 0
                    && self.pixels[at(l - 1, sy)] == target
                {
                    l -= 1;
                }
                while r + 1 < c.x1
                    && scratch.reached[at(r + 1, sy)] == 0
                    && self.pixels[at(r + 1, sy)] == target
                {
                    r += 1;
                }
                scratch.reached[at(l, sy)..=at(r, sy)].fill(1);
                for ny in [sy - 1, sy + 1] {
                    if ny >= c.y0 && ny < c.y1 {
                        scratch.stack.push((ny, l, r));
                    }
                }
                sx = r + 1;
            }
        }
        for yy in c.y0..c.y1 {
            for xx in c.x0..c.x1 {
                let i = at(xx, yy);
                if scratch.reached[i] != 0 {
                    if let Some(v) = self.pen.ink_at(xx, yy, index) {
                        self.pixels[i] = self.pen.over(v, self.pixels[i]);
                    }
                }
            }
        }
        self.scratch = scratch;
    }
}

fn wide((x, y): (i32, i32)) -> (i64, i64) {
    (x.into(), y.into())
}

/// Where the edge from `p` to `q` crosses row `y`, as a fraction `(num, den)` with `den > 0`,
/// or `None` when the edge does not reach the row or lies along it.
fn edge_x(p: (i64, i64), q: (i64, i64), y: i64) -> Option<(i128, i128)> {
    let (p, q) = if p.1 <= q.1 { (p, q) } else { (q, p) };
    if y < p.1 || y > q.1 {
        return None;
    }
    if p.1 == q.1 {
        // A flat edge: its row is covered by the other two edges' crossings or the outline.
        return None;
    }
    let den = i128::from(q.1 - p.1);
    let num = i128::from(p.0) * den + i128::from(y - p.1) * i128::from(q.0 - p.0);
    Some((num, den))
}

fn cmp_frac(a: (i128, i128), b: (i128, i128)) -> std::cmp::Ordering {
    // Denominators are positive and below 2^33, numerators below 2^98: the products fit.
    (a.0 * b.1).cmp(&(b.0 * a.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::framebuffer::tests::ink;

    #[test]
    fn filled_triangle_covers_its_outline_and_corner_order_does_not_matter() {
        let (a, b, c) = ((1, 1), (14, 4), (5, 13));
        let mut outline = Framebuffer::new(16, 16);
        outline.draw_triangle(a, b, c, 3);
        let mut filled = Framebuffer::new(16, 16);
        filled.draw_triangle_fill(a, b, c, 3);
        let o = ink(&outline);
        let f = ink(&filled);
        assert!(o.iter().all(|p| f.contains(p)));
        assert!(f.len() > o.len() + 30, "the inside is filled");
        let mut other = Framebuffer::new(16, 16);
        other.draw_triangle_fill(c, a, b, 3);
        assert_eq!(other, filled);
    }

    #[test]
    fn a_right_triangle_fills_exactly_its_half_square() {
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_triangle_fill((0, 0), (4, 0), (0, 4), 1);
        // Rows 0..=4 hold 5, 4, 3, 2, 1 pixels from the left.
        for y in 0..8 {
            let n = (0..8).filter(|&x| fb.get(x, y) == Some(1)).count();
            assert_eq!(n, 5usize.saturating_sub(y as usize), "row {y}");
        }
    }

    #[test]
    fn degenerate_triangles_draw_their_line() {
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_triangle_fill((1, 1), (4, 4), (6, 6), 2);
        let mut line = Framebuffer::new(8, 8);
        line.draw_line((1, 1), (6, 6), 2);
        assert_eq!(fb, line);
        let mut dot = Framebuffer::new(8, 8);
        dot.draw_triangle_fill((3, 3), (3, 3), (3, 3), 2);
        assert_eq!(ink(&dot), [(3, 3)]);
    }

    #[test]
    fn huge_triangles_and_ellipses_are_clipped_not_walked() {
        let mut fb = Framebuffer::new(8, 8);
        fb.draw_triangle_fill((i32::MIN, i32::MIN), (i32::MAX, 0), (0, i32::MAX), 4);
        fb.draw_triangle((i32::MIN, i32::MAX), (i32::MAX, i32::MIN), (0, 0), 4);
        assert!(fb.pixels().iter().all(|&p| p == 4));
        let mut e = Framebuffer::new(8, 8);
        e.draw_ellipse_fill(Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX), 5);
        e.draw_ellipse(Rect::new(-4, -4, i32::MAX, i32::MAX), 5);
        e.draw_ellipse_fill(Rect::new(0, 0, -3, 5), 5);
    }

    #[test]
    fn an_odd_square_ellipse_is_the_circle() {
        for r in 0..7 {
            let side = 2 * r + 1;
            let mut e = Framebuffer::new(16, 16);
            e.draw_ellipse_fill(Rect::new(8 - r, 8 - r, side, side), 6);
            let mut c = Framebuffer::new(16, 16);
            c.draw_circle_fill(8, 8, r, 6);
            assert_eq!(e, c, "fill, radius {r}");
            let mut e = Framebuffer::new(16, 16);
            e.draw_ellipse(Rect::new(8 - r, 8 - r, side, side), 6);
            let mut c = Framebuffer::new(16, 16);
            c.draw_circle(8, 8, r, 6);
            assert_eq!(e, c, "outline, radius {r}");
        }
    }

    #[test]
    fn ellipses_stay_in_their_rect_and_touch_its_sides() {
        let rect = Rect::new(2, 3, 11, 6);
        let mut fb = Framebuffer::new(16, 12);
        fb.draw_ellipse_fill(rect, 1);
        let pts = ink(&fb);
        assert!(pts.iter().all(|&(x, y)| rect.contains(x, y)));
        for (x, y) in [(2, 5), (12, 5), (7, 3), (7, 8)] {
            assert_eq!(fb.get(x, y), Some(1), "({x}, {y})");
        }
        // Left-right and top-bottom symmetric.
        assert!(pts.iter().all(|&(x, y)| fb.get(14 - x, y) == Some(1)));
        assert!(pts.iter().all(|&(x, y)| fb.get(x, 11 - y) == Some(1)));
    }

    #[test]
    fn flood_fill_stops_at_other_colours_and_at_the_clip() {
        let mut fb = Framebuffer::new(10, 10);
        fb.draw_rect(Rect::new(1, 1, 6, 6), 7);
        fb.flood_fill(3, 3, 9);
        assert_eq!(fb.get(2, 2), Some(9));
        assert_eq!(fb.get(5, 5), Some(9));
        assert_eq!(fb.get(1, 1), Some(7), "the wall");
        assert_eq!(fb.get(8, 8), Some(0), "outside the wall");
        fb.set_clip(Rect::new(0, 0, 10, 8));
        fb.flood_fill(9, 0, 4);
        assert_eq!(fb.get(0, 0), Some(4));
        assert_eq!(fb.get(9, 7), Some(4));
        assert_eq!(fb.get(9, 8), Some(0), "below the clip");
        assert_eq!(fb.get(3, 3), Some(9), "inside the wall");
        fb.flood_fill(9, 9, 4);
        assert_eq!(
            fb.get(9, 9),
            Some(0),
            "a start outside the clip fills nothing"
        );
    }

    #[test]
    fn patterned_flood_fill_ends() {
        let mut fb = Framebuffer::new(8, 8);
        fb.set_fill_pattern(crate::FillPattern::new(0x5a5a), None);
        fb.flood_fill(0, 0, 3);
        assert_eq!(ink(&fb).len(), 32, "half the pixels, checkerboard");
    }
}
