//! The system font's Latin-1 supplement (U+00A0 to U+00FF), BT's own design in the style of
//! its ASCII: 5-px strokes in a 6-px cell, capitals on rows 2 to 10, small letters from row 5.
//!
//! Accented letters are built from the ASCII letter and an accent: a small letter keeps its
//! shape and takes the accent on rows 2 and 3; a capital, which reaches row 2, gives up one of
//! its repeated rows (every Latin capital has one) to sit on rows 3 to 10 under an accent on
//! rows 0 and 1. The signs and the letters with no ASCII base are drawn whole.

use super::art::art;
use crate::draw::font::{ASCII, GLYPH_ROWS};

type Rows = [u8; GLYPH_ROWS];

/// Two rows of an accent, top first.
type Accent = [u8; 2];

const GRAVE: Accent = [0x02, 0x04];
const ACUTE: Accent = [0x08, 0x04];
const CIRCUMFLEX: Accent = [0x04, 0x0a];
const TILDE: Accent = [0x16, 0x09];
const DIAERESIS: Accent = [0x00, 0x0a];

const fn ascii(c: u8) -> Rows {
    ASCII[(c - 32) as usize]
}

/// `i` without its dot, for the accented i's.
const DOTLESS_I: Rows = art(5, ".##.. ..#.. ..#.. ..#.. ..#.. .###.");

/// A small letter with `accent` on rows 2 and 3.
const fn small(base: Rows, accent: Accent) -> Rows {
    let mut rows = base;
    rows[2] |= accent[0];
    rows[3] |= accent[1];
    rows
}

/// A capital, one repeated row shorter, on rows 3 to 10 under `accent` on rows 0 and 1.
const fn capital(base: Rows, accent: Accent) -> Rows {
    let mut rows = base;
    // The first of two equal neighbouring rows of the letter's nine (rows 2 to 10) goes.
    let mut cut = 2;
    while cut < 10 && base[cut] != base[cut + 1] {
        cut += 1;
    }
    assert!(cut < 10, "a capital with no repeated row");
    // Rows above the cut move down one; the cut row is covered.
    let mut r = cut;
    while r > 2 {
        rows[r] = base[r - 1];
        r -= 1;
    }
    rows[2] = 0;
    rows[0] = accent[0];
    rows[1] = accent[1];
    rows
}

/// A cedilla under rows 11 and 12.
const fn cedilla(base: Rows) -> Rows {
    let mut rows = base;
    rows[11] |= 0x04;
    rows[12] |= 0x06;
    rows
}

/// U+00A0 to U+00FF, in order.
#[rustfmt::skip]
pub(crate) static LATIN1: [Rows; 96] = [
    [0; GLYPH_ROWS],                                                    // A0 no-break space
    art(4, "..#.. ..... ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.."),   // A1 ¡
    art(4, "..#.. .###. #.#.# #.#.. #.#.# .###. ..#.."),               // A2 ¢
    art(2, "..##. .#..# .#... .#... ####. .#... .#... .#... #####"),   // A3 £
    art(4, "#...# .###. .#.#. .###. #...#"),                           // A4 ¤
    art(2, "#...# #...# .#.#. .#.#. ##### ..#.. ##### ..#.. ..#.."),   // A5 ¥
    art(2, "..#.. ..#.. ..#.. ..#.. ..... ..#.. ..#.. ..#.. ..#.."),   // A6 ¦
    art(1, ".###. #...# #.... .##.. #..#. #...# .#..# ..##. ....# #...# .###."), // A7 §
    art(2, ".#.#."),                                                    // A8 ¨
    art(3, ".###. #...# #.### ##..# #.### #...# .###."),               // A9 ©
    art(2, ".###. ....# .#### #...# .#### ..... #####"),               // AA ª
    art(5, "..#.# .#.#. #.#.. .#.#. ..#.#"),                           // AB «
    art(6, "##### ....# ....#"),                                        // AC ¬
    art(6, ".###."),                                                    // AD soft hyphen
    art(2, ".###. #...# ###.# ##.## ###.# ##.## #...# .###."),         // AE ®
    art(2, "#####"),                                                    // AF ¯
    art(2, "..#.. .#.#. ..#.."),                                        // B0 °
    art(3, "..#.. ..#.. ##### ..#.. ..#.. ..... #####"),               // B1 ±
    art(2, ".##. #..# ..#. .#.. ####"),                                 // B2 ²
    art(2, "###. ...# .##. ...# ###."),                                 // B3 ³
    art(2, "...#. ..#.."),                                              // B4 ´
    art(5, "#...# #...# #...# #...# ##..# #.##. #.... #...."),         // B5 µ
    art(2, ".#### ###.# ###.# ###.# .##.# ..#.# ..#.# ..#.# ..#.# ..#.#"), // B6 ¶
    art(6, "..#.."),                                                    // B7 ·
    art(11, "..#.. .##.."),                                             // B8 ¸
    art(2, ".#.. ##.. .#.. .#.. ###."),                                 // B9 ¹
    art(2, ".###. #...# #...# #...# .###. ..... #####"),               // BA º
    art(5, "#.#.. .#.#. ..#.# .#.#. #.#.."),                           // BB »
    art(2, "#...# #..#. #.#.. ..#.. .#... #..#. ..##. .#.#. ####."),   // BC ¼
    art(2, "#...# #..#. #.#.. ..#.. .#... ..##. ....# ...#. ..###"),   // BD ½
    art(2, "##..# .#.#. ###.. ..#.. .#... #..#. ..##. .#.#. ####."),   // BE ¾
    art(3, "..#.. ..... ..#.. ..#.. .#... #...# #...# .###."),         // BF ¿
    capital(ascii(b'A'), GRAVE),                                        // C0 À
    capital(ascii(b'A'), ACUTE),                                        // C1 Á
    capital(ascii(b'A'), CIRCUMFLEX),                                   // C2 Â
    capital(ascii(b'A'), TILDE),                                        // C3 Ã
    capital(ascii(b'A'), DIAERESIS),                                    // C4 Ä
    art(0, "..#.. .#.#. ..#.. .#.#. #...# #...# #...# ##### #...# #...# #...#"), // C5 Å
    art(2, ".#### #.#.. #.#.. #.### ###.. #.#.. #.#.. #.#.. #.###"),   // C6 Æ
    cedilla(ascii(b'C')),                                               // C7 Ç
    capital(ascii(b'E'), GRAVE),                                        // C8 È
    capital(ascii(b'E'), ACUTE),                                        // C9 É
    capital(ascii(b'E'), CIRCUMFLEX),                                   // CA Ê
    capital(ascii(b'E'), DIAERESIS),                                    // CB Ë
    capital(ascii(b'I'), GRAVE),                                        // CC Ì
    capital(ascii(b'I'), ACUTE),                                        // CD Í
    capital(ascii(b'I'), CIRCUMFLEX),                                   // CE Î
    capital(ascii(b'I'), DIAERESIS),                                    // CF Ï
    art(2, "####. .#..# .#..# .#..# ###.# .#..# .#..# .#..# ####."),   // D0 Ð
    capital(ascii(b'N'), TILDE),                                        // D1 Ñ
    capital(ascii(b'O'), GRAVE),                                        // D2 Ò
    capital(ascii(b'O'), ACUTE),                                        // D3 Ó
    capital(ascii(b'O'), CIRCUMFLEX),                                   // D4 Ô
    capital(ascii(b'O'), TILDE),                                        // D5 Õ
    capital(ascii(b'O'), DIAERESIS),                                    // D6 Ö
    art(5, "#...# .#.#. ..#.. .#.#. #...#"),                           // D7 ×
    art(2, ".###. #...# #..## #.#.# #.#.# #.#.# ##..# #...# .###."),   // D8 Ø
    capital(ascii(b'U'), GRAVE),                                        // D9 Ù
    capital(ascii(b'U'), ACUTE),                                        // DA Ú
    capital(ascii(b'U'), CIRCUMFLEX),                                   // DB Û
    capital(ascii(b'U'), DIAERESIS),                                    // DC Ü
    capital(ascii(b'Y'), ACUTE),                                        // DD Ý
    art(2, "#.... #.... ####. #...# #...# #...# ####. #.... #...."),   // DE Þ
    art(2, ".##.. #..#. #..#. #.#.. #.##. #...# #...# #...# #.##."),   // DF ß
    small(ascii(b'a'), GRAVE),                                          // E0 à
    small(ascii(b'a'), ACUTE),                                          // E1 á
    small(ascii(b'a'), CIRCUMFLEX),                                     // E2 â
    small(ascii(b'a'), TILDE),                                          // E3 ã
    small(ascii(b'a'), DIAERESIS),                                      // E4 ä
    art(1, "..#.. .#.#. ..#.. ..... .###. ....# .#### #...# #..## .##.#"), // E5 å
    art(5, ".#.#. ..#.# .#### #.#.. #.#.# .#.#."),                     // E6 æ
    cedilla(ascii(b'c')),                                               // E7 ç
    small(ascii(b'e'), GRAVE),                                          // E8 è
    small(ascii(b'e'), ACUTE),                                          // E9 é
    small(ascii(b'e'), CIRCUMFLEX),                                     // EA ê
    small(ascii(b'e'), DIAERESIS),                                      // EB ë
    small(DOTLESS_I, GRAVE),                                            // EC ì
    small(DOTLESS_I, ACUTE),                                            // ED í
    small(DOTLESS_I, CIRCUMFLEX),                                       // EE î
    small(DOTLESS_I, DIAERESIS),                                        // EF ï
    art(2, ".#.#. ..#.. .#.#. ....# .#### #...# #...# #...# .###."),   // F0 ð
    small(ascii(b'n'), TILDE),                                          // F1 ñ
    small(ascii(b'o'), GRAVE),                                          // F2 ò
    small(ascii(b'o'), ACUTE),                                          // F3 ó
    small(ascii(b'o'), CIRCUMFLEX),                                     // F4 ô
    small(ascii(b'o'), TILDE),                                          // F5 õ
    small(ascii(b'o'), DIAERESIS),                                      // F6 ö
    art(5, "..#.. ..... ##### ..... ..#.."),                           // F7 ÷
    art(5, ".###. #..## #.#.# #.#.# ##..# .###."),                     // F8 ø
    small(ascii(b'u'), GRAVE),                                          // F9 ù
    small(ascii(b'u'), ACUTE),                                          // FA ú
    small(ascii(b'u'), CIRCUMFLEX),                                     // FB û
    small(ascii(b'u'), DIAERESIS),                                      // FC ü
    small(ascii(b'y'), ACUTE),                                          // FD ý
    art(2, "#.... #.... #.... ####. #...# #...# #...# #...# ####. #.... #...."), // FE þ
    small(ascii(b'y'), DIAERESIS),                                      // FF ÿ
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The glyph as a picture, for messages.
    fn picture(rows: &Rows) -> String {
        rows.iter()
            .map(|r| {
                (0..6)
                    .map(|x| if r & (1 << x) != 0 { '#' } else { '.' })
                    .collect()
            })
            .collect::<Vec<String>>()
            .join("\n")
    }

    #[test]
    fn every_latin1_glyph_but_the_spaces_has_ink_inside_its_cell() {
        for (i, rows) in LATIN1.iter().enumerate() {
            let code = 0xa0 + i;
            if code == 0xa0 {
                assert_eq!(*rows, [0; GLYPH_ROWS]);
                continue;
            }
            assert!(rows.iter().any(|&r| r != 0), "U+{code:04X} is empty");
            assert!(
                rows.iter().all(|&r| r < 0x20),
                "U+{code:04X} reaches the sixth column, the gap:\n{}",
                picture(rows)
            );
            assert_eq!(rows[13], 0, "U+{code:04X} fills the line gap");
        }
    }

    #[test]
    fn accented_letters_are_their_base_letter_under_an_accent() {
        let e_acute = LATIN1[0xe9 - 0xa0];
        assert_eq!(e_acute[5..], ascii(b'e')[5..], "é keeps e's shape");
        assert_eq!(e_acute[2..4], ACUTE);
        let a_grave = LATIN1[0xc0 - 0xa0];
        assert_eq!(a_grave[..2], GRAVE, "À's accent on rows 0 and 1");
        assert_eq!(a_grave[2], 0, "a clear row between accent and letter");
        // A's nine rows with one of its three equal side rows gone.
        assert_eq!(
            a_grave[3..=10],
            [0x04, 0x0a, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11]
        );
        assert_eq!(LATIN1[0xc7 - 0xa0][..11], ascii(b'C')[..11], "Ç is C above");
    }
}
