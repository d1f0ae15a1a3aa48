//! The system font and the small font as [`Font`]s, their tables built when BT compiles, so
//! using them allocates nothing, ever.

use std::borrow::Cow;

use super::small::{self, SMALL_ADVANCE, SMALL_REPLACEMENT, SMALL_ROWS};
use super::{boxes, symbols, Font, Glyph};
use crate::draw::font::{self, GLYPH_ADVANCE, GLYPH_ROWS, LINE_HEIGHT, REPLACEMENT};

type Rows = [u8; GLYPH_ROWS];

/// Runs of the system font's characters, in code-point order; its scattered characters
/// ([`symbols::SYMBOLS`]) fall between and after them, and the replacement box, as U+FFFD,
/// comes last.
const SYSTEM_RANGES: [(u32, u32); 3] = [(32, 126), (0xa0, 0xff), (boxes::FIRST, boxes::LAST)];

const fn range_len(ranges: &[(u32, u32)]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ranges.len() {
        n += (ranges[i].1 - ranges[i].0 + 1) as usize;
        i += 1;
    }
    n
}

/// Glyphs of the system font: the ranges, the scattered characters and U+FFFD.
const SYSTEM_COUNT: usize = range_len(&SYSTEM_RANGES) + symbols::SYMBOLS.len() + 1;
/// Glyphs of the small font: printable ASCII and U+FFFD.
const SMALL_COUNT: usize = 95 + 1;

/// The code points of a font made of `ranges` and `scattered` (each in code-point order),
/// merged into one order, then U+FFFD.
const fn codes<const COUNT: usize>(
    ranges: &[(u32, u32)],
    scattered: &[(u32, Rows)],
) -> [u32; COUNT] {
    let mut out = [0xfffd; COUNT];
    let (mut n, mut r, mut s) = (0, 0, 0);
    while r < ranges.len() || s < scattered.len() {
        let take_range = s == scattered.len() || (r < ranges.len() && ranges[r].0 < scattered[s].0);
        if take_range {
            let mut code = ranges[r].0;
            while code <= ranges[r].1 {
                out[n] = code;
                n += 1;
                code += 1;
            }
            r += 1;
        } else {
            out[n] = scattered[s].0;
            n += 1;
            s += 1;
        }
    }
    assert!(n + 1 == COUNT, "a built-in font's glyph count is wrong");
    out
}

static SYSTEM_CODES: [u32; SYSTEM_COUNT] = codes(&SYSTEM_RANGES, &symbols::SYMBOLS);
static SMALL_CODES: [u32; SMALL_COUNT] = codes(&[(32, 126)], &[]);

const fn glyphs<const COUNT: usize>(
    codes: &[u32; COUNT],
    width: u8,
    height: u32,
    advance: i32,
) -> [Glyph; COUNT] {
    let mut out = [Glyph {
        code: 0,
        start: 0,
        width,
        height,
        x: 0,
        y: 0,
        advance,
        pixels: 0,
    }; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i].code = codes[i];
        out[i].start = (i * height as usize) as u32;
        i += 1;
    }
    out
}

const fn system_rows() -> [u64; SYSTEM_COUNT * GLYPH_ROWS] {
    let mut out = [0; SYSTEM_COUNT * GLYPH_ROWS];
    let mut i = 0;
    while i < SYSTEM_COUNT {
        let code = SYSTEM_CODES[i];
        let rows = match char::from_u32(code) {
            Some(c) => match font::find(c) {
                Some(rows) => rows,
                None => &REPLACEMENT,
            },
            None => &REPLACEMENT,
        };
        let mut r = 0;
        while r < GLYPH_ROWS {
            out[i * GLYPH_ROWS + r] = rows[r] as u64;
            r += 1;
        }
        i += 1;
    }
    out
}

const fn small_rows() -> [u64; SMALL_COUNT * SMALL_ROWS] {
    let mut out = [0; SMALL_COUNT * SMALL_ROWS];
    let mut i = 0;
    while i < SMALL_COUNT {
        let code = SMALL_CODES[i];
        let rows = match char::from_u32(code) {
            Some(c) => match small::find(c) {
                Some(rows) => rows,
                None => &SMALL_REPLACEMENT,
            },
            None => &SMALL_REPLACEMENT,
        };
        let mut r = 0;
        while r < SMALL_ROWS {
            out[i * SMALL_ROWS + r] = rows[r] as u64;
            r += 1;
        }
        i += 1;
    }
    out
}

static SYSTEM_GLYPHS: [Glyph; SYSTEM_COUNT] = glyphs(
    &SYSTEM_CODES,
    GLYPH_ADVANCE as u8,
    GLYPH_ROWS as u32,
    GLYPH_ADVANCE,
);
static SYSTEM_ROWS: [u64; SYSTEM_COUNT * GLYPH_ROWS] = system_rows();

static SMALL_GLYPHS: [Glyph; SMALL_COUNT] =
    glyphs(&SMALL_CODES, 3, SMALL_ROWS as u32, SMALL_ADVANCE);
static SMALL_ROWS_ALL: [u64; SMALL_COUNT * SMALL_ROWS] = small_rows();

/// The system font. Its fallback is its last glyph, U+FFFD.
pub(super) static SYSTEM: Font = Font {
    name: Cow::Borrowed("system"),
    line_height: LINE_HEIGHT,
    glyphs: Cow::Borrowed(&SYSTEM_GLYPHS),
    rows: Cow::Borrowed(&SYSTEM_ROWS),
    kerning: Cow::Borrowed(&[]),
    fallback: Some(SYSTEM_COUNT as u32 - 1),
    colors: Cow::Borrowed(&[]),
};

/// The small font. Its fallback is its last glyph, U+FFFD.
pub(super) static SMALL: Font = Font {
    name: Cow::Borrowed("small"),
    line_height: SMALL_ROWS as i32,
    glyphs: Cow::Borrowed(&SMALL_GLYPHS),
    rows: Cow::Borrowed(&SMALL_ROWS_ALL),
    kerning: Cow::Borrowed(&[]),
    fallback: Some(SMALL_COUNT as u32 - 1),
    colors: Cow::Borrowed(&[]),
};
