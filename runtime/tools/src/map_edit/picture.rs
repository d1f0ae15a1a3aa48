//! The tileset's picture as the editor shows it: in the colours it was drawn in, its key colour
//! see-through.

use bt::{Color32, ColorKey, Palette, SpriteSheet};

/// The editor's palette size: its own sixteen colours, then room for a picture's.
pub const PALETTE_SLOTS: usize = 256;
/// The first slot a tileset picture's colours go in: after the editor's own (PICO-8's sixteen).
pub const PICTURE_SLOT: u8 = 16;

/// The palette the editor runs with: PICO-8's colours, then free slots for the picture.
pub fn palette() -> Palette {
    Palette::pico8()
        .resized(PALETTE_SLOTS)
        .unwrap_or_else(|_| Palette::pico8())
}

/// The colour an indexed PNG gives its palette entry 0, which sprite tools (and BT's own
/// sheets) keep for the key colour; `None` for a PNG that is not indexed or not a PNG.
pub fn key_colour(png: &[u8]) -> Option<Color32> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    /// Colour type 3: one palette number a pixel.
    const INDEXED: u8 = 3;
    let mut rest = png.strip_prefix(SIGNATURE)?;
    let mut indexed = false;
    while rest.len() >= 8 {
        let len = u32::from_be_bytes(rest[..4].try_into().ok()?) as usize;
        let kind = &rest[4..8];
        let body = rest.get(8..8usize.checked_add(len)?)?;
        match kind {
            b"IHDR" => indexed = body.get(9) == Some(&INDEXED),
            b"PLTE" if indexed => {
                let rgb = body.get(..3)?;
                return Some(Color32::rgb(rgb[0], rgb[1], rgb[2]));
            }
            b"IDAT" | b"IEND" => return None,
            _ => {}
        }
        // The chunk's length, kind, body and check sum.
        rest = rest.get(12 + len..)?;
    }
    None
}

/// `sheet`'s key: index 0 (pixels see-through in the file) and the slot `palette` gave the
/// key colour of `png`, when the picture uses it.
pub fn key_of(sheet: &SpriteSheet, palette: &Palette, png: &[u8]) -> ColorKey {
    let key = ColorKey::default();
    let Some(colour) = key_colour(png) else {
        return key;
    };
    match sheet
        .palette_slots()
        .find(|&s| palette.get(s) == Some(colour))
    {
        Some(slot) => key.with(slot),
        None => key,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TILES: &[u8] = include_bytes!("../../../../carts/platformer/assets/tiles.png");

    #[test]
    fn an_indexed_pngs_first_palette_entry_is_its_key_colour() {
        assert_eq!(key_colour(TILES), Some(Color32::rgb(255, 0, 255)));
    }

    #[test]
    fn a_truncated_or_foreign_file_has_no_key_colour() {
        assert_eq!(key_colour(b"not a png"), None);
        for cut in [0, 8, 20, 33, 40] {
            assert_eq!(key_colour(&TILES[..cut.min(TILES.len())]), None, "{cut}");
        }
    }
}
