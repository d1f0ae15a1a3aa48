//! Colours and the palette that turns framebuffer indices into them.

use thiserror::Error;

/// An RGBA colour, 8 bits a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Color32 {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (255 = opaque).
    pub a: u8,
}

impl Color32 {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color32 {
        Color32 { r, g, b, a: 255 }
    }

    /// An opaque colour from `0xRRGGBB`.
    pub const fn hex(rgb: u32) -> Color32 {
        Color32::rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }
}

/// Why a palette operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PaletteError {
    /// Palettes hold between 2 and 256 colours.
    #[error("palette size must be between 2 and 256 colours, got {0}")]
    BadSize(usize),
    /// The slot is past the end of the palette.
    #[error("palette slot {slot} is out of range for a palette of {size} colours")]
    SlotOutOfRange {
        /// The slot asked for.
        slot: usize,
        /// The palette's size.
        size: usize,
    },
}

/// The colours a framebuffer index stands for: up to 256 of them.
///
/// Slot 0 is the transparent slot: drawing with index 0 leaves the pixel as it was (sprites use it
/// for their see-through pixels). The screen itself is opaque: a pixel that still holds 0 shows
/// slot 0's colour, black in the default palette.
///
/// ```
/// use bt::{Color32, Palette};
///
/// let mut pal = Palette::new(4)?;
/// pal.set(1, Color32::hex(0xff004d))?;
/// assert_eq!(pal.get(1), Some(Color32::rgb(255, 0, 77)));
/// assert_eq!(pal.get(4), None);
/// # Ok::<(), bt::PaletteError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    colors: Vec<Color32>,
}

/// The 16 colours of the PICO-8 palette, BT's default.
const PICO8: [u32; 16] = [
    0x000000, 0x1d2b53, 0x7e2553, 0x008751, 0xab5236, 0x5f574f, 0xc2c3c7, 0xfff1e8, 0xff004d,
    0xffa300, 0xffec27, 0x00e436, 0x29adff, 0x83769c, 0xff77a8, 0xffccaa,
];

impl Palette {
    /// A palette of `size` opaque black colours.
    ///
    /// # Errors
    /// [`PaletteError::BadSize`] unless `2 <= size <= 256`.
    pub fn new(size: usize) -> Result<Palette, PaletteError> {
        if !(2..=256).contains(&size) {
            return Err(PaletteError::BadSize(size));
        }
        Ok(Palette {
            colors: vec![Color32::rgb(0, 0, 0); size],
        })
    }

    /// The 16-colour PICO-8 palette: 0 black, 1 dark blue, 2 dark purple, 3 dark green, 4 brown,
    /// 5 dark grey, 6 light grey, 7 white, 8 red, 9 orange, 10 yellow, 11 green, 12 blue,
    /// 13 lavender, 14 pink, 15 peach.
    pub fn pico8() -> Palette {
        Palette {
            colors: PICO8.iter().map(|&c| Color32::hex(c)).collect(),
        }
    }

    /// How many colours the palette holds.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    /// Always `false`: a palette holds at least two colours.
    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    /// The colour in `slot`, or `None` past the end.
    pub fn get(&self, slot: usize) -> Option<Color32> {
        self.colors.get(slot).copied()
    }

    /// Sets the colour in `slot`.
    ///
    /// # Errors
    /// [`PaletteError::SlotOutOfRange`] when `slot >= len()`.
    pub fn set(&mut self, slot: usize, color: Color32) -> Result<(), PaletteError> {
        let size = self.colors.len();
        match self.colors.get_mut(slot) {
            Some(c) => {
                *c = color;
                Ok(())
            }
            None => Err(PaletteError::SlotOutOfRange { slot, size }),
        }
    }

    /// All colours, slot 0 first.
    pub fn colors(&self) -> &[Color32] {
        &self.colors
    }

    /// Converts palette indices to opaque RGBA bytes, four per index.
    ///
    /// Indices past the end of the palette show as opaque black. Only as many pixels as both
    /// slices hold are written.
    pub fn write_rgba(&self, indices: &[u8], rgba: &mut [u8]) {
        let mut lut = [[0u8, 0, 0, 255]; 256];
        for (entry, c) in lut.iter_mut().zip(&self.colors) {
            *entry = [c.r, c.g, c.b, 255];
        }
        for (out, &i) in rgba.chunks_exact_mut(4).zip(indices) {
            out.copy_from_slice(&lut[usize::from(i)]);
        }
    }
}

impl Default for Palette {
    fn default() -> Palette {
        Palette::pico8()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_outside_2_to_256_are_refused() {
        assert_eq!(Palette::new(1), Err(PaletteError::BadSize(1)));
        assert_eq!(Palette::new(257), Err(PaletteError::BadSize(257)));
        assert_eq!(Palette::new(256).unwrap().len(), 256);
    }

    #[test]
    fn set_past_the_end_names_slot_and_size() {
        let mut p = Palette::new(4).unwrap();
        let err = p.set(9, Color32::rgb(1, 2, 3)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "palette slot 9 is out of range for a palette of 4 colours"
        );
    }

    #[test]
    fn rgba_is_opaque_and_unknown_slots_are_black() {
        let mut p = Palette::new(2).unwrap();
        p.set(
            1,
            Color32 {
                r: 10,
                g: 20,
                b: 30,
                a: 0,
            },
        )
        .unwrap();
        let mut out = [7u8; 12];
        p.write_rgba(&[1, 0, 200], &mut out);
        assert_eq!(out, [10, 20, 30, 255, 0, 0, 0, 255, 0, 0, 0, 255]);
    }

    #[test]
    fn default_is_pico8() {
        let p = Palette::default();
        assert_eq!(p.len(), 16);
        assert_eq!(p.get(8), Some(Color32::hex(0xff004d)));
    }
}
