//! The system font's box drawing (U+2500 to U+257F) and block elements (U+2580 to U+259F),
//! BT's own, worked out from rules rather than drawn one by one. They fill the whole 6 x 14
//! cell, the line gap included, so frames and bars join across characters and lines.
//!
//! A box-drawing character is four arms (up, right, down, left), each none, light, heavy or
//! double. Light lines run along column 2 and row 6 (where `|` and `-` are), heavy ones are two
//! pixels (columns 2 and 3, rows 6 and 7), double ones two lines with a gap (columns 1 and 3,
//! rows 5 and 7).

use crate::draw::font::GLYPH_ROWS;

type Rows = [u8; GLYPH_ROWS];

/// The first character here.
pub(crate) const FIRST: u32 = 0x2500;
/// The last character here.
pub(crate) const LAST: u32 = 0x259f;

/// Columns of the cell.
const W: usize = 6;
/// Rows of the cell.
const H: usize = GLYPH_ROWS;
/// The column and row light lines run along.
const CX: usize = 2;
const CY: usize = 6;

const N: u8 = 0;
const L: u8 = 1;
const B: u8 = 2; // heavy ("bold")
const D: u8 = 3;

/// Arms of U+2500 to U+257F as (up, right, down, left); dashed lines and the characters that
/// are not four arms are marked 255 and drawn apart.
#[rustfmt::skip]
const ARMS: [[u8; 4]; 128] = [
    [N, L, N, L], [N, B, N, B], [L, N, L, N], [B, N, B, N],             // ─ ━ │ ┃
    [255; 4], [255; 4], [255; 4], [255; 4],                             // ┄ ┅ ┆ ┇
    [255; 4], [255; 4], [255; 4], [255; 4],                             // ┈ ┉ ┊ ┋
    [N, L, L, N], [N, B, L, N], [N, L, B, N], [N, B, B, N],             // ┌ ┍ ┎ ┏
    [N, N, L, L], [N, N, L, B], [N, N, B, L], [N, N, B, B],             // ┐ ┑ ┒ ┓
    [L, L, N, N], [L, B, N, N], [B, L, N, N], [B, B, N, N],             // └ ┕ ┖ ┗
    [L, N, N, L], [L, N, N, B], [B, N, N, L], [B, N, N, B],             // ┘ ┙ ┚ ┛
    [L, L, L, N], [L, B, L, N], [B, L, L, N], [L, L, B, N],             // ├ ┝ ┞ ┟
    [B, L, B, N], [B, B, L, N], [L, B, B, N], [B, B, B, N],             // ┠ ┡ ┢ ┣
    [L, N, L, L], [L, N, L, B], [B, N, L, L], [L, N, B, L],             // ┤ ┥ ┦ ┧
    [B, N, B, L], [B, N, L, B], [L, N, B, B], [B, N, B, B],             // ┨ ┩ ┪ ┫
    [N, L, L, L], [N, L, L, B], [N, B, L, L], [N, B, L, B],             // ┬ ┭ ┮ ┯
    [N, L, B, L], [N, L, B, B], [N, B, B, L], [N, B, B, B],             // ┰ ┱ ┲ ┳
    [L, L, N, L], [L, L, N, B], [L, B, N, L], [L, B, N, B],             // ┴ ┵ ┶ ┷
    [B, L, N, L], [B, L, N, B], [B, B, N, L], [B, B, N, B],             // ┸ ┹ ┺ ┻
    [L, L, L, L], [L, L, L, B], [L, B, L, L], [L, B, L, B],             // ┼ ┽ ┾ ┿
    [B, L, L, L], [L, L, B, L], [B, L, B, L], [B, L, L, B],             // ╀ ╁ ╂ ╃
    [B, B, L, L], [L, L, B, B], [L, B, B, L], [B, B, L, B],             // ╄ ╅ ╆ ╇
    [L, B, B, B], [B, L, B, B], [B, B, B, L], [B, B, B, B],             // ╈ ╉ ╊ ╋
    [255; 4], [255; 4], [255; 4], [255; 4],                             // ╌ ╍ ╎ ╏
    [N, D, N, D], [D, N, D, N], [N, D, L, N], [N, L, D, N],             // ═ ║ ╒ ╓
    [N, D, D, N], [N, N, L, D], [N, N, D, L], [N, N, D, D],             // ╔ ╕ ╖ ╗
    [L, D, N, N], [D, L, N, N], [D, D, N, N], [L, N, N, D],             // ╘ ╙ ╚ ╛
    [D, N, N, L], [D, N, N, D], [L, D, L, N], [D, L, D, N],             // ╜ ╝ ╞ ╟
    [D, D, D, N], [L, N, L, D], [D, N, D, L], [D, N, D, D],             // ╠ ╡ ╢ ╣
    [N, D, L, D], [N, L, D, L], [N, D, D, D], [L, D, N, D],             // ╤ ╥ ╦ ╧
    [D, L, N, L], [D, D, N, D], [L, D, L, D], [D, L, D, L],             // ╨ ╩ ╪ ╫
    [D, D, D, D], [255; 4], [255; 4], [255; 4],                         // ╬ ╭ ╮ ╯
    [255; 4], [255; 4], [255; 4], [255; 4],                             // ╰ ╱ ╲ ╳
    [N, N, N, L], [L, N, N, N], [N, L, N, N], [N, N, L, N],             // ╴ ╵ ╶ ╷
    [N, N, N, B], [B, N, N, N], [N, B, N, N], [N, N, B, N],             // ╸ ╹ ╺ ╻
    [N, B, N, L], [L, N, B, N], [N, L, N, B], [B, N, L, N],             // ╼ ╽ ╾ ╿
];

/// Sets columns `x0..=x1` of rows `y0..=y1`.
const fn fill(mut rows: Rows, x0: usize, x1: usize, y0: usize, y1: usize) -> Rows {
    let mut mask = 0u8;
    let mut x = x0;
    while x <= x1 {
        mask |= 1 << x;
        x += 1;
    }
    let mut y = y0;
    while y <= y1 {
        rows[y] |= mask;
        y += 1;
    }
    rows
}

/// A character of four arms.
const fn arms(a: [u8; 4]) -> Rows {
    let [up, right, down, left] = a;
    let mut rows = [0; H];
    let all_double = (up == D || up == N)
        && (right == D || right == N)
        && (down == D || down == N)
        && (left == D || left == N);
    if all_double {
        return doubles(up == D, right == D, down == D, left == D);
    }
    let (across_double, along_double) = (left == D || right == D, up == D || down == D);
    // A single line meeting a double one that runs straight through stops at its near line;
    // one meeting a double corner reaches its far line, so the corner closes.
    let (through_h, through_v) = (left == D && right == D, up == D && down == D);
    let h_reach = if across_double {
        if through_h && down == N {
            CY - 1
        } else {
            CY + 1
        }
    } else if left == B || right == B {
        CY + 1
    } else {
        CY
    };
    let h_start = if across_double {
        if through_h && up == N {
            CY + 1
        } else {
            CY - 1
        }
    } else {
        CY
    };
    let v_reach = if along_double {
        if through_v && right == N {
            1
        } else {
            3
        }
    } else if up == B || down == B {
        CX + 1
    } else {
        CX
    };
    let v_start = if along_double {
        if through_v && left == N {
            3
        } else {
            1
        }
    } else {
        CX
    };
    // Vertical arms.
    if up != N {
        rows = vertical(rows, up, 0, h_reach);
    }
    if down != N {
        rows = vertical(rows, down, h_start, H - 1);
    }
    if left != N {
        rows = horizontal(rows, left, 0, v_reach);
    }
    if right != N {
        rows = horizontal(rows, right, v_start, W - 1);
    }
    rows
}

/// A vertical arm of `kind` over rows `y0..=y1`.
const fn vertical(rows: Rows, kind: u8, y0: usize, y1: usize) -> Rows {
    match kind {
        L => fill(rows, CX, CX, y0, y1),
        B => fill(rows, CX, CX + 1, y0, y1),
        _ => fill(fill(rows, 1, 1, y0, y1), 3, 3, y0, y1),
    }
}

/// A horizontal arm of `kind` over columns `x0..=x1`.
const fn horizontal(rows: Rows, kind: u8, x0: usize, x1: usize) -> Rows {
    match kind {
        L => fill(rows, x0, x1, CY, CY),
        B => fill(rows, x0, x1, CY, CY + 1),
        _ => fill(fill(rows, x0, x1, CY - 1, CY - 1), x0, x1, CY + 1, CY + 1),
    }
}

/// A character whose arms are all double: each of its four lines (top and bottom rows,
/// left and right columns) runs through unless an arm crosses it, so corners nest.
const fn doubles(up: bool, right: bool, down: bool, left: bool) -> Rows {
    let mut rows = [0; H];
    let (top, bottom, lcol, rcol) = (CY - 1, CY + 1, 1, 3);
    let (far_right, far_bottom) = (W - 1, H - 1);
    // The top line (row 5), cut by an arm going up; the bottom line (row 7) likewise.
    let mut pass = 0;
    while pass < 2 {
        let (row, cut) = if pass == 0 { (top, up) } else { (bottom, down) };
        if cut {
            if left {
                rows = fill(rows, 0, lcol, row, row);
            }
            if right {
                rows = fill(rows, rcol, far_right, row, row);
            }
        } else if left || right {
            let x0 = if left { 0 } else { lcol };
            let x1 = if right { far_right } else { rcol };
            rows = fill(rows, x0, x1, row, row);
        }
        pass += 1;
    }
    // The left column (1), cut by an arm going left; the right column (3) likewise.
    let mut pass = 0;
    while pass < 2 {
        let (col, cut) = if pass == 0 {
            (lcol, left)
        } else {
            (rcol, right)
        };
        if cut {
            if up {
                rows = fill(rows, col, col, 0, top);
            }
            if down {
                rows = fill(rows, col, col, bottom, far_bottom);
            }
        } else if up || down {
            let y0 = if up { 0 } else { top };
            let y1 = if down { far_bottom } else { bottom };
            rows = fill(rows, col, col, y0, y1);
        }
        pass += 1;
    }
    rows
}

/// A dashed line: horizontal ones repeat `pattern` over the 6 columns, vertical ones over the
/// 14 rows; `heavy` doubles the stroke.
const fn dashed(horizontal: bool, heavy: bool, pattern: u16) -> Rows {
    let mut rows = [0; H];
    let mut i = 0;
    let len = if horizontal { W } else { H };
    while i < len {
        if pattern & (1 << i) != 0 {
            rows = if horizontal {
                fill(rows, i, i, CY, if heavy { CY + 1 } else { CY })
            } else {
                fill(rows, CX, if heavy { CX + 1 } else { CX }, i, i)
            };
        }
        i += 1;
    }
    rows
}

/// A one-pixel line from `(x0, y0)` to `(x1, y1)` across the cell, a pixel a row.
const fn diagonal(mut rows: Rows, x0: i32, x1: i32) -> Rows {
    let mut y = 0;
    while y < H {
        // Round to the nearest column, halves up, in whole numbers.
        let span = (x1 - x0) * y as i32 * 2 + (H as i32 - 1);
        let x = x0 + span.div_euclid(2 * (H as i32 - 1));
        rows[y] |= 1 << x;
        y += 1;
    }
    rows
}

/// The characters of U+2500 to U+257F that are not four arms.
const fn special(code: u32) -> Rows {
    // Patterns of dashes: bit i set means column (or row) i is ink.
    const TWO_H: u16 = 0b011011;
    const THREE_H: u16 = 0b010101;
    const TWO_V: u16 = 0b01_1111_0011_1110;
    const THREE_V: u16 = 0b00_1110_0111_0011;
    const FOUR_V: u16 = 0b00_1101_1011_0110;
    match code {
        0x2504 => dashed(true, false, THREE_H),
        0x2505 => dashed(true, true, THREE_H),
        0x2506 => dashed(false, false, THREE_V),
        0x2507 => dashed(false, true, THREE_V),
        // Four dashes do not fit six columns: the horizontal ones look like three.
        0x2508 => dashed(true, false, THREE_H),
        0x2509 => dashed(true, true, THREE_H),
        0x250a => dashed(false, false, FOUR_V),
        0x250b => dashed(false, true, FOUR_V),
        0x254c => dashed(true, false, TWO_H),
        0x254d => dashed(true, true, TWO_H),
        0x254e => dashed(false, false, TWO_V),
        0x254f => dashed(false, true, TWO_V),
        // Rounded corners: the corner pixel moved in one step.
        0x256d => fill(fill([0; H], CX + 1, W - 1, CY, CY), CX, CX, CY + 1, H - 1),
        0x256e => fill(fill([0; H], 0, CX - 1, CY, CY), CX, CX, CY + 1, H - 1),
        0x256f => fill(fill([0; H], 0, CX - 1, CY, CY), CX, CX, 0, CY - 1),
        0x2570 => fill(fill([0; H], CX + 1, W - 1, CY, CY), CX, CX, 0, CY - 1),
        0x2571 => diagonal([0; H], W as i32 - 1, 0),
        0x2572 => diagonal([0; H], 0, W as i32 - 1),
        _ => diagonal(diagonal([0; H], W as i32 - 1, 0), 0, W as i32 - 1),
    }
}

/// The block elements, U+2580 to U+259F.
const fn block(code: u32) -> Rows {
    // Rows (from the top) or columns (from the left) covered by n eighths of the cell.
    const fn eighths_rows(n: usize) -> usize {
        (n * H + 4) / 8
    }
    const fn eighths_cols(n: usize) -> usize {
        (n * W + 4) / 8
    }
    let (hw, hh) = (W / 2, H / 2);
    match code {
        0x2580 => fill([0; H], 0, W - 1, 0, hh - 1),
        0x2581..=0x2588 => {
            let n = eighths_rows((code - 0x2580) as usize);
            fill([0; H], 0, W - 1, H - n, H - 1)
        }
        0x2589..=0x258f => {
            let n = eighths_cols((0x2590 - code) as usize);
            fill([0; H], 0, n - 1, 0, H - 1)
        }
        0x2590 => fill([0; H], hw, W - 1, 0, H - 1),
        0x2591..=0x2593 => {
            // Light, medium and dark shade: a quarter, half and three quarters of the pixels,
            // repeating every 2 columns so neighbouring cells continue the pattern.
            let mut rows = [0; H];
            let mut y = 0;
            while y < H {
                let light = match y % 4 {
                    0 => 0x15,
                    2 => 0x2a,
                    _ => 0,
                };
                rows[y] = match code {
                    0x2591 => light,
                    0x2592 => {
                        if y % 2 == 0 {
                            0x15
                        } else {
                            0x2a
                        }
                    }
                    _ => light ^ 0x3f,
                };
                y += 1;
            }
            rows
        }
        0x2594 => fill([0; H], 0, W - 1, 0, eighths_rows(1) - 1),
        0x2595 => fill([0; H], W - eighths_cols(1), W - 1, 0, H - 1),
        _ => {
            // Quadrants: bits upper left, upper right, lower left, lower right.
            const QUADS: [u8; 10] = [
                0b0100, 0b1000, 0b0001, 0b1101, 0b1001, 0b0111, 0b1011, 0b0010, 0b0110, 0b1110,
            ];
            let q = QUADS[(code - 0x2596) as usize];
            let mut rows = [0; H];
            if q & 0b0001 != 0 {
                rows = fill(rows, 0, hw - 1, 0, hh - 1);
            }
            if q & 0b0010 != 0 {
                rows = fill(rows, hw, W - 1, 0, hh - 1);
            }
            if q & 0b0100 != 0 {
                rows = fill(rows, 0, hw - 1, hh, H - 1);
            }
            if q & 0b1000 != 0 {
                rows = fill(rows, hw, W - 1, hh, H - 1);
            }
            rows
        }
    }
}

const fn build() -> [Rows; (LAST - FIRST + 1) as usize] {
    let mut out = [[0; H]; (LAST - FIRST + 1) as usize];
    let mut i = 0;
    while i < out.len() {
        let code = FIRST + i as u32;
        out[i] = if code >= 0x2580 {
            block(code)
        } else if ARMS[i][0] == 255 {
            special(code)
        } else {
            arms(ARMS[i])
        };
        i += 1;
    }
    out
}

/// U+2500 to U+259F, in order.
pub(crate) static BOXES: [Rows; (LAST - FIRST + 1) as usize] = build();
