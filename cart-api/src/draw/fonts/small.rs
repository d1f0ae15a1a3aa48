//! The small built-in font: 3 x 5 glyphs in a 4 x 6 cell (PICO-8's size), printable ASCII,
//! BT's own design. It has one case, as PICO-8's has: small letters draw as capitals.

use super::art::art;

/// Rows of a small glyph: the whole 6-px line (the sixth is the gap).
pub(crate) const SMALL_ROWS: usize = 6;
/// Advance of every small glyph.
pub(crate) const SMALL_ADVANCE: i32 = 4;

type Rows = [u8; SMALL_ROWS];

const fn g(picture: &str) -> Rows {
    art(0, picture)
}

/// Drawn for characters the small font lacks: a hatched box.
pub(crate) const SMALL_REPLACEMENT: Rows = g("#.# .#. #.# .#. #.#");

/// Space (32) to backquote (96); the small letters (97 to 122) are the capitals (65 to 90),
/// and `{|}~` follow in [`SMALL_TAIL`].
#[rustfmt::skip]
pub(crate) static SMALL_ASCII: [Rows; 65] = [
    g(""),                      // ' '
    g(".#. .#. .#. ... .#."),   // !
    g("#.# #.#"),               // "
    g("#.# ### #.# ### #.#"),   // #
    g(".## ##. .#. .## ##."),   // $
    g("#.# ..# .#. #.. #.#"),   // %
    g(".#. #.# ##. #.# .##"),   // &
    g(".#. .#."),               // '
    g("..# .#. .#. .#. ..#"),   // (
    g("#.. .#. .#. .#. #.."),   // )
    g("... #.# .#. #.#"),       // *
    g("... .#. ### .#."),       // +
    g("... ... ... .#. #.."),   // ,
    g("... ... ###"),           // -
    g("... ... ... ... .#."),   // .
    g("..# ..# .#. #.. #.."),   // /
    g("### #.# #.# #.# ###"),   // 0
    g(".#. ##. .#. .#. ###"),   // 1
    g("##. ..# .#. #.. ###"),   // 2
    g("##. ..# .#. ..# ##."),   // 3
    g("#.# #.# ### ..# ..#"),   // 4
    g("### #.. ##. ..# ##."),   // 5
    g(".## #.. ### #.# ###"),   // 6
    g("### ..# .#. .#. .#."),   // 7
    g("### #.# ### #.# ###"),   // 8
    g("### #.# ### ..# ##."),   // 9
    g("... .#. ... .#."),       // :
    g("... .#. ... .#. #.."),   // ;
    g("..# .#. #.. .#. ..#"),   // <
    g("... ### ... ###"),       // =
    g("#.. .#. ..# .#. #.."),   // >
    g("##. ..# .#. ... .#."),   // ?
    g(".#. #.# ### #.. .##"),   // @
    g(".#. #.# ### #.# #.#"),   // A
    g("##. #.# ##. #.# ##."),   // B
    g(".## #.. #.. #.. .##"),   // C
    g("##. #.# #.# #.# ##."),   // D
    g("### #.. ##. #.. ###"),   // E
    g("### #.. ##. #.. #.."),   // F
    g(".## #.. #.# #.# .##"),   // G
    g("#.# #.# ### #.# #.#"),   // H
    g("### .#. .#. .#. ###"),   // I
    g("..# ..# ..# #.# .#."),   // J
    g("#.# #.# ##. #.# #.#"),   // K
    g("#.. #.. #.. #.. ###"),   // L
    g("#.# ### ### #.# #.#"),   // M
    g("##. #.# #.# #.# #.#"),   // N
    g(".#. #.# #.# #.# .#."),   // O
    g("##. #.# ##. #.. #.."),   // P
    g(".#. #.# #.# ##. .##"),   // Q
    g("##. #.# ##. #.# #.#"),   // R
    g(".## #.. .#. ..# ##."),   // S
    g("### .#. .#. .#. .#."),   // T
    g("#.# #.# #.# #.# .##"),   // U
    g("#.# #.# #.# .#. .#."),   // V
    g("#.# #.# ### ### #.#"),   // W
    g("#.# #.# .#. #.# #.#"),   // X
    g("#.# #.# .#. .#. .#."),   // Y
    g("### ..# .#. #.. ###"),   // Z
    g("##. #.. #.. #.. ##."),   // [
    g("#.. #.. .#. ..# ..#"),   // \
    g(".## ..# ..# ..# .##"),   // ]
    g(".#. #.#"),               // ^
    g("... ... ... ... ###"),   // _
    g("#.. .#."),               // `
];

/// `{`, `|`, `}` and `~` (123 to 126).
#[rustfmt::skip]
pub(crate) static SMALL_TAIL: [Rows; 4] = [
    g(".## .#. ##. .#. .##"),   // {
    g(".#. .#. .#. .#. .#."),   // |
    g("##. .#. .## .#. ##."),   // }
    g("... #.. ### ..#"),       // ~
];

/// The bitmap for `c`, or `None` when the small font lacks it.
pub(crate) const fn find(c: char) -> Option<&'static Rows> {
    match c as u32 {
        code @ 32..=96 => Some(&SMALL_ASCII[(code - 32) as usize]),
        code @ 97..=122 => Some(&SMALL_ASCII[(code - 64) as usize]),
        code @ 123..=126 => Some(&SMALL_TAIL[(code - 123) as usize]),
        _ => None,
    }
}
