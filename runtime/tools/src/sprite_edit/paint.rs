//! What the tools do to a sheet's pixels: copy and put back an area, lines, rectangles,
//! ellipses, fills, flips, quarter-turns and shifts. Each keeps inside the area it is given.

use super::history::Area;
use super::Sheet;

/// The pixels of `area` (its part inside the sheet), row by row.
pub fn copy(sheet: &Sheet, area: Area) -> Vec<u8> {
    let mut out = Vec::with_capacity(area.len());
    for y in area.y..area.y + area.h {
        for x in area.x..area.x + area.w {
            out.push(sheet.get(x, y).unwrap_or(0));
        }
    }
    out
}

/// Puts `pixels` (row by row, `area`'s size) into `area`; what falls outside the sheet or
/// `clip` is left out.
pub fn put(sheet: &mut Sheet, area: Area, pixels: &[u8], clip: Area) {
    for (i, &p) in pixels.iter().enumerate().take(area.len()) {
        let x = area.x + i as i32 % area.w;
        let y = area.y + i as i32 / area.w;
        if clip.contains(x, y) {
            sheet.set(x, y, p);
        }
    }
}

/// Sets one pixel if it is inside `clip`.
fn plot(sheet: &mut Sheet, x: i32, y: i32, c: u8, clip: Area) {
    if clip.contains(x, y) {
        sheet.set(x, y, c);
    }
}

/// A line from `a` to `b`, both ends drawn.
pub fn line(sheet: &mut Sheet, a: (i32, i32), b: (i32, i32), c: u8, clip: Area) {
    let (mut x, mut y) = a;
    let (dx, dy) = ((b.0 - x).abs(), -(b.1 - y).abs());
    let (sx, sy) = ((b.0 - x).signum(), (b.1 - y).signum());
    let mut err = dx + dy;
    loop {
        plot(sheet, x, y, c, clip);
        if (x, y) == b {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// A rectangle with corners `a` and `b`: its outline, or filled.
pub fn rect(sheet: &mut Sheet, a: (i32, i32), b: (i32, i32), c: u8, filled: bool, clip: Area) {
    let r = Area::spanning(a, b);
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let edge = x == r.x || y == r.y || x == r.x + r.w - 1 || y == r.y + r.h - 1;
            if filled || edge {
                plot(sheet, x, y, c, clip);
            }
        }
    }
}

/// An ellipse inside the rectangle with corners `a` and `b`: its outline, or filled. A pixel
/// is inside when its centre is; the outline is the inside pixels beside an outside one.
pub fn ellipse(sheet: &mut Sheet, a: (i32, i32), b: (i32, i32), c: u8, filled: bool, clip: Area) {
    let r = Area::spanning(a, b);
    let (cx, cy) = (
        f64::from(r.x) + f64::from(r.w) / 2.0,
        f64::from(r.y) + f64::from(r.h) / 2.0,
    );
    let (rx, ry) = (f64::from(r.w) / 2.0, f64::from(r.h) / 2.0);
    let inside = |x: i32, y: i32| {
        let dx = (f64::from(x) + 0.5 - cx) / rx;
        let dy = (f64::from(y) + 0.5 - cy) / ry;
        dx * dx + dy * dy <= 1.0 + 1e-9
    };
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            if !inside(x, y) {
                continue;
            }
            let edge = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| !inside(x + dx, y + dy));
            if filled || edge {
                plot(sheet, x, y, c, clip);
            }
        }
    }
}

/// Fills the pixels joined to `at` (across and up and down) that have its colour, inside
/// `clip`, with `c`.
pub fn fill(sheet: &mut Sheet, at: (i32, i32), c: u8, clip: Area) {
    let Some(old) = sheet.get(at.0, at.1).filter(|_| clip.contains(at.0, at.1)) else {
        return;
    };
    if old == c {
        return;
    }
    let mut pending = vec![at];
    while let Some((x, y)) = pending.pop() {
        if !clip.contains(x, y) || sheet.get(x, y) != Some(old) {
            continue;
        }
        sheet.set(x, y, c);
        pending.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
    }
}

/// How the pixels of an area move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Mirrored left to right.
    FlipAcross,
    /// Mirrored top to bottom.
    FlipUpDown,
    /// A quarter-turn clockwise (a square area only).
    Quarter,
    /// Moved by (x, y) pixels, what leaves one side coming back on the other.
    Shift(i32, i32),
}

/// The pixels of an area `w` by `h` (row by row) moved as `turn` says.
pub fn turned(src: &[u8], w: i32, h: i32, turn: Turn) -> Vec<u8> {
    let at = |x: i32, y: i32| src[(y * w + x) as usize];
    let mut out = Vec::with_capacity(src.len());
    for y in 0..h {
        for x in 0..w {
            out.push(match turn {
                Turn::FlipAcross => at(w - 1 - x, y),
                Turn::FlipUpDown => at(x, h - 1 - y),
                // The pixel at (x, y) came from the column x would face before the turn.
                Turn::Quarter => at(y, h - 1 - x),
                Turn::Shift(dx, dy) => at((x - dx).rem_euclid(w), (y - dy).rem_euclid(h)),
            });
        }
    }
    out
}
