//! Colours and the palette that turns framebuffer indices into them.

mod color;
pub(crate) mod effects;

pub use color::{Color32, ColorParseError};
pub use effects::{MAX_CYCLES, MAX_EFFECT};

use thiserror::Error;

/// Why a palette operation was refused.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum PaletteError {
    /// Palettes hold between 2 and 256 colours.
    #[error("palette size must be between 2 and 256 colours, got {0}")]
    BadSize(usize),
    /// The slot is past the end of the palette.
    #[error("palette slot {slot} is out of range for a palette of {size} colours")]
    SlotOutOfRange {
        /// The slot asked for.
        slot: u8,
        /// The palette's size.
        size: usize,
    },
}

/// The colours a framebuffer index stands for: up to 256 of them, so a slot is a `u8`, the same
/// type as the index a draw call takes.
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
#[derive(Debug, PartialEq, Eq)]
pub struct Palette {
    colors: Vec<Color32>,
}

impl Clone for Palette {
    fn clone(&self) -> Palette {
        Palette {
            colors: self.colors.clone(),
        }
    }

    /// Reuses the colour buffer, so copying one palette over another allocates nothing once it
    /// is large enough (the palette effects do this every update during a flash).
    fn clone_from(&mut self, source: &Palette) {
        self.colors.clone_from(&source.colors);
    }
}

/// The 16 colours of the PICO-8 palette, BT's default.
const PICO8: [u32; 16] = [
    0x000000, 0x1d2b53, 0x7e2553, 0x008751, 0xab5236, 0x5f574f, 0xc2c3c7, 0xfff1e8, 0xff004d,
    0xffa300, 0xffec27, 0x00e436, 0x29adff, 0x83769c, 0xff77a8, 0xffccaa,
];

/// The 16 colours of IBM's CGA (also the first 16 of EGA and VGA): two intensities of the
/// eight RGB mixes, with dark yellow turned brown.
const CGA: [u32; 16] = [
    0x000000, 0x0000aa, 0x00aa00, 0x00aaaa, 0xaa0000, 0xaa00aa, 0xaa5500, 0xaaaaaa, 0x555555,
    0x5555ff, 0x55ff55, 0x55ffff, 0xff5555, 0xff55ff, 0xffff55, 0xffffff,
];

/// The Commodore 64's 16 colours as measured from a PAL machine ("Pepto"), in hardware order.
const C64: [u32; 16] = [
    0x000000, 0xffffff, 0x68372b, 0x70a4b2, 0x6f3d86, 0x588d43, 0x352879, 0xb8c76f, 0x6f4f25,
    0x433900, 0x9a6759, 0x444444, 0x6c6c6c, 0x9ad284, 0x6c5eb5, 0x959595,
];

/// The original Game Boy's four greens, darkest first.
const GAMEBOY: [u32; 4] = [0x0f380f, 0x306230, 0x8bac0f, 0x9bbc0f];

/// The NES's 64 colours in PPU order (four rows of 16: hue across, brightness down), as most
/// emulators show them.
const NES: [u32; 64] = [
    0x7c7c7c, 0x0000fc, 0x0000bc, 0x4428bc, 0x940084, 0xa80020, 0xa81000, 0x881400, 0x503000,
    0x007800, 0x006800, 0x005800, 0x004058, 0x000000, 0x000000, 0x000000, 0xbcbcbc, 0x0078f8,
    0x0058f8, 0x6844fc, 0xd800cc, 0xe40058, 0xf83800, 0xe45c10, 0xac7c00, 0x00b800, 0x00a800,
    0x00a844, 0x008888, 0x000000, 0x000000, 0x000000, 0xf8f8f8, 0x3cbcfc, 0x6888fc, 0x9878f8,
    0xf878f8, 0xf85898, 0xf87858, 0xfca044, 0xf8b800, 0xb8f818, 0x58d854, 0x58f898, 0x00e8d8,
    0x787878, 0x000000, 0x000000, 0xfcfcfc, 0xa4e4fc, 0xb8b8f8, 0xd8b8f8, 0xf8b8f8, 0xf8a4c0,
    0xf0d0b0, 0xfce0a8, 0xf8d878, 0xd8f878, 0xb8f8b8, 0xb8f8d8, 0x00fcfc, 0xf8d8f8, 0x000000,
    0x000000,
];

/// A 6-bit VGA DAC level (0 to 63) as an 8-bit channel, the way the DAC's output is usually
/// read back: the top bits repeated into the bottom.
const fn dac(v: u8) -> u8 {
    (v << 2) | (v >> 4)
}

/// The default palette of VGA mode 13h, built the way the BIOS lays it out: the 16 CGA colours,
/// a 16-step grey ramp, then 216 hue colours (three brightnesses × three saturations × a wheel of
/// 24 hues starting at blue), then 8 blacks.
fn vga() -> Vec<Color32> {
    const GREYS: [u8; 16] = [0, 5, 8, 11, 14, 17, 20, 24, 28, 32, 36, 40, 45, 50, 56, 63];
    // For each brightness, three five-step ramps (full, medium, low saturation), lowest first.
    const RAMPS: [[[u8; 5]; 3]; 3] = [
        [
            [0, 16, 31, 47, 63],
            [31, 39, 47, 55, 63],
            [45, 49, 54, 58, 63],
        ],
        [
            [0, 7, 14, 21, 28],
            [14, 17, 21, 24, 28],
            [20, 22, 24, 26, 28],
        ],
        [[0, 4, 8, 12, 16], [8, 10, 12, 14, 16], [11, 12, 13, 15, 16]],
    ];
    // The hue wheel as (r, g, b) steps into a ramp: blue, magenta, red, yellow, green, cyan.
    const WHEEL: [[usize; 3]; 24] = [
        [0, 0, 4],
        [1, 0, 4],
        [2, 0, 4],
        [3, 0, 4],
        [4, 0, 4],
        [4, 0, 3],
        [4, 0, 2],
        [4, 0, 1],
        [4, 0, 0],
        [4, 1, 0],
        [4, 2, 0],
        [4, 3, 0],
        [4, 4, 0],
        [3, 4, 0],
        [2, 4, 0],
        [1, 4, 0],
        [0, 4, 0],
        [0, 4, 1],
        [0, 4, 2],
        [0, 4, 3],
        [0, 4, 4],
        [0, 3, 4],
        [0, 2, 4],
        [0, 1, 4],
    ];
    let mut out: Vec<Color32> = CGA.iter().map(|&c| Color32::hex(c)).collect();
    out.extend(GREYS.iter().map(|&g| Color32::rgb(dac(g), dac(g), dac(g))));
    for brightness in RAMPS {
        for ramp in brightness {
            for [r, g, b] in WHEEL {
                out.push(Color32::rgb(dac(ramp[r]), dac(ramp[g]), dac(ramp[b])));
            }
        }
    }
    out.resize(256, Color32::rgb(0, 0, 0));
    out
}

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

    fn from_hex(colors: &[u32]) -> Palette {
        Palette {
            colors: colors.iter().map(|&c| Color32::hex(c)).collect(),
        }
    }

    /// IBM CGA's 16 colours: black, blue, green, cyan, red, magenta, brown, light grey, then the
    /// bright versions from dark grey to white.
    pub fn cga() -> Palette {
        Palette::from_hex(&CGA)
    }

    /// The Commodore 64's 16 colours in hardware order: black, white, red, cyan, purple, green,
    /// blue, yellow, orange, brown, light red, dark grey, grey, light green, light blue, light
    /// grey.
    pub fn c64() -> Palette {
        Palette::from_hex(&C64)
    }

    /// The original Game Boy's 4 greens, darkest in slot 0.
    pub fn gameboy() -> Palette {
        Palette::from_hex(&GAMEBOY)
    }

    /// The NES's 64 colours in PPU order.
    pub fn nes() -> Palette {
        Palette::from_hex(&NES)
    }

    /// VGA mode 13h's default 256 colours: CGA's 16, 16 greys, 216 hues, 8 blacks.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let vga = Palette::vga();
    /// assert_eq!(vga.len(), 256);
    /// assert_eq!(vga.get(15), Some(Color32::hex(0xffffff)));
    /// assert_eq!(vga.get(32), Some(Color32::hex(0x0000ff)));
    /// assert_eq!(Palette::gameboy().len(), 4);
    /// assert_eq!(Palette::nes().len(), 64);
    /// assert_eq!(Palette::cga().get(6), Some(Color32::hex(0xaa5500)));
    /// assert_eq!(Palette::c64().get(1), Some(Color32::hex(0xffffff)));
    /// ```
    pub fn vga() -> Palette {
        Palette { colors: vga() }
    }

    /// A copy with `size` slots: the colours that fit are kept, new slots are black. Handy for
    /// a preset with room for a sprite sheet's colours after it.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let p = Palette::pico8().resized(64)?;
    /// assert_eq!(p.len(), 64);
    /// assert_eq!(p.get(8), Palette::pico8().get(8));
    /// assert_eq!(p.get(40), Some(Color32::rgb(0, 0, 0)));
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    ///
    /// # Errors
    /// [`PaletteError::BadSize`] unless `2 <= size <= 256`.
    pub fn resized(&self, size: usize) -> Result<Palette, PaletteError> {
        let mut p = Palette::new(size)?;
        for (slot, c) in p.colors.iter_mut().zip(&self.colors) {
            *slot = *c;
        }
        Ok(p)
    }

    /// Swaps the colours of two slots.
    ///
    /// # Errors
    /// [`PaletteError::SlotOutOfRange`] for a slot past the end.
    pub fn swap(&mut self, a: u8, b: u8) -> Result<(), PaletteError> {
        let size = self.colors.len();
        for slot in [a, b] {
            if usize::from(slot) >= size {
                return Err(PaletteError::SlotOutOfRange { slot, size });
            }
        }
        self.colors.swap(usize::from(a), usize::from(b));
        Ok(())
    }

    pub(crate) fn colors_mut(&mut self) -> &mut [Color32] {
        &mut self.colors
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
    pub fn get(&self, slot: u8) -> Option<Color32> {
        self.colors.get(usize::from(slot)).copied()
    }

    /// Sets the colour in `slot`.
    ///
    /// # Errors
    /// [`PaletteError::SlotOutOfRange`] when `slot >= len()`.
    pub fn set(&mut self, slot: u8, color: Color32) -> Result<(), PaletteError> {
        let size = self.colors.len();
        match self.colors.get_mut(usize::from(slot)) {
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
    fn presets_have_their_sizes_and_landmark_colours() {
        assert_eq!(Palette::cga().get(6), Some(Color32::hex(0xaa5500)));
        assert_eq!(Palette::c64().get(1), Some(Color32::hex(0xffffff)));
        assert_eq!(Palette::gameboy().get(3), Some(Color32::hex(0x9bbc0f)));
        let nes = Palette::nes();
        assert_eq!(nes.get(0x30), Some(Color32::hex(0xfcfcfc)));
        let vga = Palette::vga();
        // Greys, the first medium and low saturation blues, the first dim blue, the blacks.
        assert_eq!(vga.get(16), Some(Color32::hex(0x000000)));
        assert_eq!(vga.get(24), Some(Color32::hex(0x717171)));
        assert_eq!(vga.get(33), Some(Color32::hex(0x4100ff)));
        assert_eq!(vga.get(56), Some(Color32::hex(0x7d7dff)));
        assert_eq!(vga.get(80), Some(Color32::hex(0xb6b6ff)));
        assert_eq!(vga.get(104), Some(Color32::hex(0x000071)));
        assert_eq!(vga.get(176), Some(Color32::hex(0x000041)));
        assert_eq!(vga.get(248), Some(Color32::hex(0x000000)));
        assert_eq!(vga.get(40), Some(Color32::hex(0xff0000)));
    }

    #[test]
    fn swap_exchanges_two_slots() {
        let mut p = Palette::pico8();
        p.swap(1, 8).unwrap();
        assert_eq!(p.get(1), Some(Color32::hex(0xff004d)));
        assert!(p.swap(1, 16).is_err());
    }

    #[test]
    fn default_is_pico8() {
        let p = Palette::default();
        assert_eq!(p.len(), 16);
        assert_eq!(p.get(8), Some(Color32::hex(0xff004d)));
    }
}
