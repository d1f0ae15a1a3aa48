//! Glyphs written as pictures in the source: `art(top, "#.# .#. #.#")` is a glyph whose rows,
//! from row `top` down, are the space-separated words, `#` for ink and `.` for none, the
//! leftmost character the leftmost pixel. Evaluated when BT is compiled.

/// The rows of `picture` from row `top` of an `N`-row glyph: bit `x` of a row is column `x`.
/// A picture too tall or too wide for the glyph is a mistake in BT's source, refused when it
/// is compiled.
pub(crate) const fn art<const N: usize>(top: usize, picture: &str) -> [u8; N] {
    let bytes = picture.as_bytes();
    let mut rows = [0u8; N];
    let (mut row, mut col, mut i) = (top, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b' ' => {
                row += 1;
                col = 0;
            }
            b'#' => {
                assert!(row < N && col < 8, "glyph picture too large");
                rows[row] |= 1 << col;
                col += 1;
            }
            b'.' => col += 1,
            _ => panic!("glyph pictures hold only '#', '.' and spaces"),
        }
        i += 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::art;

    #[test]
    fn a_picture_becomes_rows_of_bits_from_its_top_row() {
        let rows: [u8; 4] = art(1, "#.# .#.");
        assert_eq!(rows, [0, 0b101, 0b010, 0]);
    }
}
