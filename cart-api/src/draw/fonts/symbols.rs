//! The system font's scattered characters: Greek capitals, dashes, the ellipsis, arrows,
//! media and interface icons, musical notes and BT's private-use signal bars. BT's own design
//! in the style of its ASCII: strokes in the cell's first five columns, letters on rows 2 to
//! 10, icons centred on row 6. They are the characters of BLIT386's system font beyond
//! ASCII, so text written for it prints the same pictures in BT.
//!
//! Greek capitals that look like Latin ones are the Latin glyphs. U+E006 to U+E013 are
//! reserved, blank: a character that prints nothing rather than the replacement box.

use super::art::art;
use crate::draw::font::{ASCII, GLYPH_ROWS};

type Rows = [u8; GLYPH_ROWS];

const fn ascii(c: u8) -> Rows {
    ASCII[(c - 32) as usize]
}

const BLANK: Rows = [0; GLYPH_ROWS];

/// Three stacked bars, two rows thick, from the bottom: rows 9-10, 6-7, 3-4.
const fn stacked_bars(n: usize) -> Rows {
    let mut rows = BLANK;
    let mut i = 0;
    while i < n {
        rows[9 - 3 * i] = 0x1f;
        rows[10 - 3 * i] = 0x1f;
        i += 1;
    }
    rows
}

/// Up to three upright bars, one column wide, in columns 0, 2 and 4 over rows 3 to 10.
const fn upright_bars(n: usize) -> Rows {
    let mut rows = BLANK;
    let mut mask = 0;
    let mut i = 0;
    while i < n {
        mask |= 1 << (2 * i);
        i += 1;
    }
    let mut r = 3;
    while r <= 10 {
        rows[r] = mask;
        r += 1;
    }
    rows
}

/// The characters, in code-point order (checked by a test); `find` searches them.
#[rustfmt::skip]
pub(crate) static SYMBOLS: [(u32, Rows); 73] = [
    (0x0391, ascii(b'A')),                                              // Α
    (0x0392, ascii(b'B')),                                              // Β
    (0x0393, art(2, "##### #.... #.... #.... #.... #.... #.... #.... #....")), // Γ
    (0x0394, art(2, "..#.. ..#.. .#.#. .#.#. .#.#. #...# #...# #...# #####")), // Δ
    (0x0395, ascii(b'E')),                                              // Ε
    (0x0396, ascii(b'Z')),                                              // Ζ
    (0x0397, ascii(b'H')),                                              // Η
    (0x0398, art(2, ".###. #...# #...# #...# ##### #...# #...# #...# .###.")), // Θ
    (0x0399, ascii(b'I')),                                              // Ι
    (0x039a, ascii(b'K')),                                              // Κ
    (0x039b, art(2, "..#.. ..#.. .#.#. .#.#. .#.#. #...# #...# #...# #...#")), // Λ
    (0x039c, ascii(b'M')),                                              // Μ
    (0x039d, ascii(b'N')),                                              // Ν
    (0x039e, art(2, "##### ..... ..... ..... .###. ..... ..... ..... #####")), // Ξ
    (0x039f, ascii(b'O')),                                              // Ο
    (0x03a0, art(2, "##### #...# #...# #...# #...# #...# #...# #...# #...#")), // Π
    (0x03a1, ascii(b'P')),                                              // Ρ
    (0x03a3, art(2, "##### #.... .#... ..#.. ...#. ..#.. .#... #.... #####")), // Σ
    (0x03a4, ascii(b'T')),                                              // Τ
    (0x03a5, ascii(b'Y')),                                              // Υ
    (0x03a6, art(2, "..#.. .###. #.#.# #.#.# #.#.# #.#.# #.#.# .###. ..#..")), // Φ
    (0x03a7, ascii(b'X')),                                              // Χ
    (0x03a8, art(2, "#.#.# #.#.# #.#.# #.#.# .###. ..#.. ..#.. ..#.. ..#..")), // Ψ
    (0x03a9, art(2, ".###. #...# #...# #...# #...# #...# .#.#. .#.#. ##.##")), // Ω
    (0x2013, art(6, "#####")),                                          // – en dash
    (0x2014, art(6, "######")),                                         // — em dash: the whole cell, so dashes join
    (0x2022, art(5, "..#.. .###. ..#..")),                              // • bullet
    (0x2026, art(10, "#.#.#")),                                         // … ellipsis
    (0x203c, art(2, ".#.#. .#.#. .#.#. .#.#. .#.#. .#.#. .#.#. ..... .#.#.")), // ‼
    (0x2122, art(2, "####.# .#.### .#.#.# .#.#.#")),                    // ™
    (0x2190, art(4, "..#.. .#... ##### .#... ..#..")),                  // ←
    (0x2191, art(2, "..#.. .###. #.#.# ..#.. ..#.. ..#.. ..#.. ..#.. ..#..")), // ↑
    (0x2192, art(4, "..#.. ...#. ##### ...#. ..#..")),                  // →
    (0x2193, art(2, "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. #.#.# .###. ..#..")), // ↓
    (0x2196, art(4, "###.. ##... #.#.. ...#. ....#")),                  // ↖
    (0x2197, art(4, "..### ...## ..#.# .#... #....")),                  // ↗
    (0x2198, art(4, "#.... .#... ..#.# ...## ..###")),                  // ↘
    (0x2199, art(4, "....# ...#. #.#.. ##... ###..")),                  // ↙
    (0x23ce, art(2, "....# ....# ....# ..#.# .#..# ##### .#... ..#..")), // ⏎ return
    (0x23f8, art(4, "##.## ##.## ##.## ##.## ##.##")),                  // ⏸ pause
    (0x23f9, art(4, "##### ##### ##### ##### #####")),                  // ⏹ stop
    (0x23fa, art(4, ".###. ##### ##### ##### .###.")),                  // ⏺ record
    (0x25a0, art(5, ".###. .###. .###.")),                              // ■ square bullet
    (0x25b6, art(4, "#.... ###.. ##### ###.. #....")),                  // ▶ play
    (0x25cb, art(4, ".###. #...# #...# #...# .###.")),                  // ○
    (0x25cf, art(4, ".###. ##### ##### ##### .###.")),                  // ●
    (0x2639, art(3, ".###. #...# ##.## #...# #.#.# ##.## .###.")),      // ☹
    (0x263a, art(3, ".###. #...# ##.## #...# ##.## #.#.# .###.")),      // ☺
    (0x2665, art(4, ".#.#. ##### ##### ##### .###. ..#..")),            // ♥
    (0x2669, art(2, "..#.. ..#.. ..#.. ..#.. ..#.. .##.. ###.. ##...")), // ♩
    (0x266a, art(2, "..##. ..#.# ..#.# ..#.. ..#.. .##.. ###.. ##...")), // ♪
    (0x266b, art(2, ".#### .#### .#..# .#..# .#..# ##.## ##.##")),      // ♫
    (0x2713, art(5, "....# ....# ...#. #.#.. .#...")),                  // ✓
    (0xe000, stacked_bars(1)),                                          // signal, one bar of three
    (0xe001, stacked_bars(2)),                                          // signal, two bars
    (0xe002, stacked_bars(3)),                                          // signal, three bars
    (0xe003, upright_bars(1)),                                          // signal, one upright bar of three
    (0xe004, upright_bars(2)),                                          // signal, two upright bars
    (0xe005, upright_bars(3)),                                          // signal, three upright bars
    (0xe006, BLANK), (0xe007, BLANK), (0xe008, BLANK), (0xe009, BLANK), // reserved
    (0xe00a, BLANK), (0xe00b, BLANK), (0xe00c, BLANK), (0xe00d, BLANK), // reserved
    (0xe00e, BLANK), (0xe00f, BLANK), (0xe010, BLANK), (0xe011, BLANK), // reserved
    (0xe012, BLANK), (0xe013, BLANK),                                   // reserved
];

/// The bitmap for code point `code`, if it is one of these characters.
pub(crate) const fn find(code: u32) -> Option<&'static Rows> {
    let (mut lo, mut hi) = (0, SYMBOLS.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        let here = SYMBOLS[mid].0;
        if here == code {
            return Some(&SYMBOLS[mid].1);
        }
        if here < code {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symbols_are_in_code_point_order_each_once() {
        assert!(SYMBOLS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn every_symbol_but_the_reserved_ones_has_ink_and_leaves_the_line_gap() {
        for (code, rows) in &SYMBOLS {
            let reserved = (0xe006..=0xe013).contains(code);
            assert_eq!(rows.iter().all(|&r| r == 0), reserved, "U+{code:04X}");
            assert_eq!(rows[13], 0, "U+{code:04X} fills the line gap");
        }
    }
}
