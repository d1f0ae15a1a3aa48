//! Colours and the palette that turns framebuffer indices into them.

mod color;
pub(crate) mod effects;
mod json;
mod names;

pub use color::{Color32, ColorParseError};
pub use effects::{MAX_CYCLES, MAX_EFFECT};
pub use names::{ColorNameError, ColorNames};

use std::ops::RangeInclusive;

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
    /// A slot name must have 1 to [`MAX_NAME_CHARS`] characters, none of them a control
    /// character, and not begin or end with a space.
    #[error(
        "palette slot name {} must be 1 to {MAX_NAME_CHARS} characters, without control \
         characters or surrounding spaces",
        crate::quote::quoted(.0)
    )]
    BadName(String),
    /// Palette JSON that does not parse or does not describe a palette.
    #[error("palette JSON, line {line}, column {column}: {reason}")]
    Json {
        /// The line (from 1) where the problem starts.
        line: usize,
        /// The column (in characters, from 1).
        column: usize,
        /// What is wrong there.
        reason: String,
    },
    /// Palette bytes are 3 per colour (red, green, blue) for 2 to 256 colours.
    #[error(
        "palette bytes: {0} bytes are not 3 bytes (red, green, blue) for each of 2 to 256 colours"
    )]
    ByteCount(usize),
    /// A run of slots ([`Palette::fill_block`], [`Palette::apply_hud`]) that goes past the end
    /// of the palette.
    #[error(
        "palette slots {start} to {} do not fit a palette of {size} colours",
        usize::from(*start) + count - 1
    )]
    BlockOutOfRange {
        /// The first slot.
        start: u8,
        /// How many slots from there.
        count: usize,
        /// The palette's size.
        size: usize,
    },
    /// [`Palette::apply_hud`] asked to start at slot 0, the see-through slot.
    #[error("the HUD colours cannot start at slot 0, the see-through slot; start at 1 or later")]
    HudAtSlotZero,
}

/// The longest name [`Palette::set_name`] and [`ColorNames::set`] take, in characters.
pub const MAX_NAME_CHARS: usize = 64;

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
    /// Slot names ([`Palette::set_name`]), in the order first given.
    names: Vec<(String, u8)>,
}

impl Clone for Palette {
    fn clone(&self) -> Palette {
        Palette {
            colors: self.colors.clone(),
            names: self.names.clone(),
        }
    }

    /// Reuses the colour and name buffers, so copying one palette over another allocates
    /// nothing once they are large enough (the palette effects do this every update during a
    /// flash).
    fn clone_from(&mut self, source: &Palette) {
        self.colors.clone_from(&source.colors);
        // Name by name: a tuple's own `clone_from` would allocate a new string each time.
        self.names.truncate(source.names.len());
        for (to, from) in self.names.iter_mut().zip(&source.names) {
            to.0.clone_from(&from.0);
            to.1 = from.1;
        }
        let kept = self.names.len();
        self.names.extend(source.names[kept..].iter().cloned());
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
    /// Bytes held on the heap: the colours and the names (a snapshot's size).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.colors.capacity() * std::mem::size_of::<Color32>()
            + self.names.capacity() * std::mem::size_of::<(String, u8)>()
            + self.names.iter().map(|(n, _)| n.capacity()).sum::<usize>()
    }

    /// A palette of `size` opaque black colours.
    ///
    /// # Errors
    /// [`PaletteError::BadSize`] unless `2 <= size <= 256`.
    pub fn new(size: usize) -> Result<Palette, PaletteError> {
        if !(2..=256).contains(&size) {
            return Err(PaletteError::BadSize(size));
        }
        Ok(Palette::from_colors(vec![Color32::rgb(0, 0, 0); size]))
    }

    /// The 16-colour PICO-8 palette: 0 black, 1 dark blue, 2 dark purple, 3 dark green, 4 brown,
    /// 5 dark grey, 6 light grey, 7 white, 8 red, 9 orange, 10 yellow, 11 green, 12 blue,
    /// 13 lavender, 14 pink, 15 peach.
    pub fn pico8() -> Palette {
        Palette::from_hex(&PICO8)
    }

    fn from_hex(colors: &[u32]) -> Palette {
        Palette::from_colors(colors.iter().map(|&c| Color32::hex(c)).collect())
    }

    fn from_colors(colors: Vec<Color32>) -> Palette {
        Palette {
            colors,
            names: Vec::new(),
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
        Palette::from_colors(vga())
    }

    /// A copy with `size` slots: the colours that fit are kept, new slots are black, and the
    /// names of slots that fit are kept. Handy for a preset with room for a sprite sheet's
    /// colours after it.
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
        p.names = self
            .names
            .iter()
            .filter(|(_, slot)| usize::from(*slot) < size)
            .cloned()
            .collect();
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

    /// Sets the run of slots from `start` to the colours of `colors`, in order: a gradient,
    /// a sprite's colours or a preset's, put in one place. All or nothing: when the run does
    /// not fit, no slot changes.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let mut pal = Palette::new(32)?;
    /// // A ramp of eight blues in slots 16 to 23, darkest first.
    /// let ramp: [Color32; 8] = std::array::from_fn(|i| {
    ///     Color32::from_hsl(220.0, 0.7, 0.1 + 0.1 * i as f64)
    /// });
    /// pal.fill_block(16, &ramp)?;
    /// assert_eq!(pal.get(16), Some(ramp[0]));
    /// assert_eq!(pal.get(23), Some(ramp[7]));
    /// // PICO-8's colours after them, tinted warm on the way in.
    /// let warm = Color32::rgb(255, 220, 180);
    /// let tinted: Vec<Color32> = Palette::pico8().colors().iter().map(|c| c.multiply(warm)).collect();
    /// pal.fill_block(24, &tinted[..8])?;
    /// assert_eq!(pal.get(31), Some(Color32::hex(0xfff1e8).multiply(warm)));
    /// assert!(pal.fill_block(30, &tinted[..3]).is_err()); // 30 to 32: one past the end
    /// assert_eq!(pal.get(30), Some(tinted[6]), "nothing changed");
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    ///
    /// # Errors
    /// [`PaletteError::BlockOutOfRange`] when `start + colors.len()` is past the end (an
    /// empty `colors` changes nothing and always succeeds).
    pub fn fill_block(&mut self, start: u8, colors: &[Color32]) -> Result<(), PaletteError> {
        if colors.is_empty() {
            return Ok(());
        }
        let first = usize::from(start);
        let size = self.colors.len();
        match self.colors.get_mut(first..first + colors.len()) {
            Some(run) => {
                run.copy_from_slice(colors);
                Ok(())
            }
            _ => Err(PaletteError::BlockOutOfRange {
                start,
                count: colors.len(),
                size,
            }),
        }
    }

    /// The six HUD colours and their names, in the order [`Palette::apply_hud`] puts them:
    /// white text, a dark purple background, grey labels, golden headers, dim grey for
    /// secondary text (a frame counter) and slate blue for code. BLIT386's values.
    pub const HUD: [(&'static str, Color32); 6] = [
        ("hud_white", Color32::hex(0xffffff)),
        ("hud_bg", Color32::hex(0x1e1428)),
        ("hud_label", Color32::hex(0xc8c8c8)),
        ("hud_header", Color32::hex(0xffdc64)),
        ("hud_dim", Color32::hex(0x646464)),
        ("hud_code", Color32::hex(0x6496c8)),
    ];

    /// Puts the six [`Palette::HUD`] colours in slots `start` to `start + 5` and names each
    /// slot (`hud_white`, `hud_bg`, `hud_label`, `hud_header`, `hud_dim`, `hud_code`), so a
    /// cart's text and panels find their colours by name wherever they landed. All or
    /// nothing, as BLIT386's `applyHUD`: slot 0 (see-through) is refused, and so is a start
    /// that leaves fewer than six slots.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let mut pal = Palette::pico8().resized(32)?;
    /// pal.apply_hud(16)?;
    /// assert_eq!(pal.slot_named("hud_header"), Some(19));
    /// assert_eq!(pal.color_named("hud_bg"), Some(Color32::hex(0x1e1428)));
    /// assert!(pal.apply_hud(27).is_err()); // 27 to 32: one past the end
    /// assert!(pal.apply_hud(0).is_err());
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    ///
    /// # Errors
    /// [`PaletteError::HudAtSlotZero`] when `start` is 0; [`PaletteError::BlockOutOfRange`]
    /// when `start + 6` is past the end.
    pub fn apply_hud(&mut self, start: u8) -> Result<(), PaletteError> {
        let count = Palette::HUD.len();
        let size = self.colors.len();
        if start == 0 {
            return Err(PaletteError::HudAtSlotZero);
        }
        if usize::from(start) + count > size {
            return Err(PaletteError::BlockOutOfRange { start, count, size });
        }
        for (slot, (name, color)) in (start..).zip(Palette::HUD) {
            self.colors[usize::from(slot)] = color;
            self.set_name(name, slot)?;
        }
        Ok(())
    }

    /// All colours, slot 0 first.
    pub fn colors(&self) -> &[Color32] {
        &self.colors
    }

    /// Gives `slot` the name `name`, so code can say `slot_named("water")` rather than a
    /// number that changes when the palette is rearranged. A name names one slot; naming a
    /// new slot with it moves it. A slot may have several names. Names are matched exactly
    /// (case included).
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let mut pal = Palette::pico8();
    /// pal.set_name("water", 12)?;
    /// pal.set_name("player", 8)?;
    /// assert_eq!(pal.slot_named("water"), Some(12));
    /// assert_eq!(pal.color_named("player"), Some(Color32::hex(0xff004d)));
    /// assert_eq!(pal.slot_named("lava"), None);
    /// assert!(pal.set_name("", 3).is_err());
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    ///
    /// # Errors
    /// [`PaletteError::SlotOutOfRange`] for a slot past the end; [`PaletteError::BadName`]
    /// for an empty name, one longer than [`MAX_NAME_CHARS`] characters, or one with a
    /// control character or surrounding spaces.
    pub fn set_name(&mut self, name: &str, slot: u8) -> Result<(), PaletteError> {
        let size = self.colors.len();
        if usize::from(slot) >= size {
            return Err(PaletteError::SlotOutOfRange { slot, size });
        }
        let count = name.chars().count();
        if count == 0
            || count > MAX_NAME_CHARS
            || name.trim() != name
            || name.chars().any(char::is_control)
        {
            return Err(PaletteError::BadName(name.to_string()));
        }
        match self.names.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = slot,
            None => self.names.push((name.to_string(), slot)),
        }
        Ok(())
    }

    /// The slot called `name` ([`Palette::set_name`]), or `None`.
    pub fn slot_named(&self, name: &str) -> Option<u8> {
        self.names
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, slot)| slot)
    }

    /// The colour of the slot called `name`, or `None`.
    pub fn color_named(&self, name: &str) -> Option<Color32> {
        self.slot_named(name).and_then(|slot| self.get(slot))
    }

    /// Takes the name `name` away; returns the slot it named, if any.
    pub fn remove_name(&mut self, name: &str) -> Option<u8> {
        let i = self.names.iter().position(|(n, _)| n == name)?;
        Some(self.names.remove(i).1)
    }

    /// Every name and its slot, in the order the names were first given.
    pub fn names(&self) -> impl Iterator<Item = (&str, u8)> {
        self.names.iter().map(|(n, slot)| (n.as_str(), *slot))
    }

    /// The first slot holding exactly `color`'s red, green and blue (alpha is not compared:
    /// the screen shows every slot opaque), or `None`.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// assert_eq!(Palette::pico8().find(Color32::hex(0xff004d)), Some(8));
    /// assert_eq!(Palette::pico8().find(Color32::hex(0xff004e)), None);
    /// ```
    pub fn find(&self, color: Color32) -> Option<u8> {
        let rgb = |c: &Color32| (c.r, c.g, c.b);
        self.colors
            .iter()
            .position(|c| rgb(c) == rgb(&color))
            .map(|i| i as u8)
    }

    /// The slot whose colour is nearest to `color`: the smallest squared distance between the
    /// two as points in RGB space, `(r₁ - r₂)² + (g₁ - g₂)² + (b₁ - b₂)²` over the stored 8-bit
    /// (sRGB) channels, alpha not compared; a tie goes to the lower slot. A colour the
    /// palette holds is its own nearest.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// let pico = Palette::pico8();
    /// assert_eq!(pico.nearest(Color32::hex(0xff0040)), 8); // red, ff004d
    /// assert_eq!(pico.nearest(Color32::hex(0x0a0a0a)), 0); // black
    /// ```
    pub fn nearest(&self, color: Color32) -> u8 {
        // A palette has at least two slots, so there is always one.
        self.nearest_in(color, 0..=u8::MAX).unwrap_or(0)
    }

    /// Like [`Palette::nearest`] among `slots` only (cut to the palette's end); `None` when no
    /// slot of the range is in the palette.
    ///
    /// ```
    /// use bt::{Color32, Palette};
    ///
    /// // Black is slot 0, the see-through slot; among slots 1 to 15, dark blue is nearest.
    /// assert_eq!(Palette::pico8().nearest_in(Color32::BLACK, 1..=15), Some(1));
    /// assert_eq!(Palette::pico8().nearest_in(Color32::BLACK, 20..=30), None);
    /// ```
    pub fn nearest_in(&self, color: Color32, slots: RangeInclusive<u8>) -> Option<u8> {
        let distance = |c: &Color32| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(c.r, color.r) + d(c.g, color.g) + d(c.b, color.b)
        };
        let (start, end) = (usize::from(*slots.start()), usize::from(*slots.end()));
        let candidates = self.colors.get(start..=end.min(self.colors.len() - 1))?;
        let mut best: Option<(i32, usize)> = None;
        for (i, c) in candidates.iter().enumerate() {
            let d = distance(c);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i));
            }
        }
        best.map(|(_, i)| (start + i) as u8)
    }

    /// The palette as JSON text: its size, colours as hex strings and slot names.
    ///
    /// ```
    /// use bt::Palette;
    ///
    /// let mut pal = Palette::gameboy();
    /// pal.set_name("shadow", 1)?;
    /// let text = pal.to_json();
    /// assert!(text.contains("\"#0f380f\""));
    /// assert_eq!(Palette::from_json(&text)?, pal);
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    pub fn to_json(&self) -> String {
        json::write(self)
    }

    /// A palette from JSON text as [`Palette::to_json`] writes it:
    /// `{"version": 1, "size": N, "colors": ["#rrggbb", …], "names": {"name": slot, …}}`.
    /// `colors` is required and holds 2 to 256 colours, each any form [`Color32`] parses;
    /// `size`, when given, must equal their count; `names` and `version` (only 1 exists)
    /// are optional, so BLIT386's palette files read as they are. Other fields are refused.
    ///
    /// # Errors
    /// [`PaletteError::Json`] naming the line, the column and the problem.
    pub fn from_json(text: &str) -> Result<Palette, PaletteError> {
        json::read(text)
    }

    /// The colours as bytes, three per slot (red, green, blue), slot 0 first: the layout of
    /// a `.pal` file of raw RGB. Alpha and names are not kept.
    ///
    /// ```
    /// use bt::Palette;
    ///
    /// let bytes = Palette::gameboy().to_rgb_bytes();
    /// assert_eq!(&bytes[..3], &[0x0f, 0x38, 0x0f]);
    /// assert_eq!(Palette::from_rgb_bytes(&bytes)?, Palette::gameboy());
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    pub fn to_rgb_bytes(&self) -> Vec<u8> {
        self.colors.iter().flat_map(|c| [c.r, c.g, c.b]).collect()
    }

    /// A palette from bytes as [`Palette::to_rgb_bytes`] writes them, every colour opaque.
    ///
    /// # Errors
    /// [`PaletteError::ByteCount`] unless the length is 3 × a size from 2 to 256.
    pub fn from_rgb_bytes(bytes: &[u8]) -> Result<Palette, PaletteError> {
        if !bytes.len().is_multiple_of(3) || !(2..=256).contains(&(bytes.len() / 3)) {
            return Err(PaletteError::ByteCount(bytes.len()));
        }
        Ok(Palette::from_colors(
            bytes
                .chunks_exact(3)
                .map(|c| Color32::rgb(c[0], c[1], c[2]))
                .collect(),
        ))
    }

    /// Converts palette indices to opaque RGBA bytes, four per index: each slot as it shows
    /// on the screen ([`Color32::shown`]: a colour with alpha below 255 over black).
    ///
    /// Indices past the end of the palette show as opaque black. Only as many pixels as both
    /// slices hold are written.
    pub fn write_rgba(&self, indices: &[u8], rgba: &mut [u8]) {
        let mut lut = [[0u8, 0, 0, 255]; 256];
        for (entry, c) in lut.iter_mut().zip(&self.colors) {
            let c = c.shown();
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
    fn rgba_is_opaque_a_slots_alpha_shows_over_black_and_unknown_slots_are_black() {
        let mut p = Palette::new(3).unwrap();
        let slot = |a| Color32 {
            r: 100,
            g: 200,
            b: 30,
            a,
        };
        p.set(1, slot(0)).unwrap();
        p.set(2, slot(51)).unwrap();
        let mut out = [7u8; 16];
        p.write_rgba(&[2, 1, 0, 200], &mut out);
        // 51/255 of each channel, rounded: 20, 40, 6.
        assert_eq!(
            out,
            [20, 40, 6, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        );
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
    fn names_name_one_slot_each_and_bad_names_are_refused() {
        let mut p = Palette::pico8();
        p.set_name("hero", 8).unwrap();
        p.set_name("enemy", 8).unwrap();
        p.set_name("hero", 11).unwrap();
        assert_eq!(
            p.slot_named("hero"),
            Some(11),
            "naming again moves the name"
        );
        assert_eq!(p.slot_named("enemy"), Some(8));
        assert_eq!(p.slot_named("Hero"), None, "names match exactly");
        assert_eq!(p.names().collect::<Vec<_>>(), [("hero", 11), ("enemy", 8)]);
        assert_eq!(p.remove_name("hero"), Some(11));
        assert_eq!(p.remove_name("hero"), None);
        assert_eq!(
            p.set_name("sky", 16),
            Err(PaletteError::SlotOutOfRange { slot: 16, size: 16 })
        );
        for bad in ["", " sky", "a\nb", &"x".repeat(MAX_NAME_CHARS + 1)] {
            assert_eq!(
                p.set_name(bad, 1),
                Err(PaletteError::BadName(bad.to_string()))
            );
        }
        assert_eq!(
            p.set_name("", 1).unwrap_err().to_string(),
            "palette slot name \"\" must be 1 to 64 characters, without control characters \
             or surrounding spaces"
        );
        // Resizing keeps the names of the slots that stay.
        p.set_name("sky", 12).unwrap();
        let small = p.resized(10).unwrap();
        assert_eq!(small.slot_named("enemy"), Some(8));
        assert_eq!(small.slot_named("sky"), None);
    }

    #[test]
    fn copying_a_named_palette_over_another_reuses_its_buffers() {
        let mut a = Palette::pico8();
        a.set_name("water", 12).unwrap();
        let mut b = a.clone();
        b.set_name("water", 1).unwrap();
        b.clone_from(&a);
        assert_eq!(b, a);
    }

    #[test]
    fn nearest_is_the_smallest_rgb_distance_and_ties_go_low() {
        let mut p = Palette::new(4).unwrap();
        p.set(1, Color32::rgb(100, 0, 0)).unwrap();
        p.set(2, Color32::rgb(0, 100, 0)).unwrap();
        p.set(3, Color32::rgb(100, 0, 0)).unwrap();
        // (60, 40, 0): 40² + 40² = 3200 from slot 1, 60² + 60² = 7200 from slot 2, and
        // 60² + 40² = 5200 from black.
        assert_eq!(p.nearest(Color32::rgb(60, 40, 0)), 1);
        // (50, 50, 0) is 5000 from slots 0, 1, 2 and 3: the lowest wins.
        assert_eq!(p.nearest(Color32::rgb(50, 50, 0)), 0);
        assert_eq!(p.nearest_in(Color32::rgb(50, 50, 0), 2..=3), Some(2));
        assert_eq!(p.nearest_in(Color32::rgb(100, 0, 0), 2..=200), Some(3));
        assert_eq!(p.nearest_in(Color32::BLACK, 4..=9), None);
        for (slot, c) in Palette::pico8().colors().iter().enumerate() {
            assert_eq!(Palette::pico8().nearest(*c), slot as u8);
            assert_eq!(Palette::pico8().find(*c), Some(slot as u8));
        }
        let see_through = Color32 {
            a: 0,
            ..Color32::hex(0xff004d)
        };
        assert_eq!(
            Palette::pico8().find(see_through),
            Some(8),
            "alpha is not compared"
        );
    }

    #[test]
    fn json_round_trips_and_reads_blit386_files() {
        let mut p = Palette::vga();
        p.set(
            7,
            Color32 {
                r: 1,
                g: 2,
                b: 3,
                a: 4,
            },
        )
        .unwrap();
        p.set_name("quote \" and \\ and é", 255).unwrap();
        p.set_name("zero", 0).unwrap();
        assert_eq!(Palette::from_json(&p.to_json()), Ok(p.clone()));
        assert_eq!(
            Palette::from_json(&Palette::cga().to_json()),
            Ok(Palette::cga())
        );
        // BLIT386 writes #RRGGBBAA, a size, names, and no version.
        let blit = r##"{"colors":["#00000000","#FF004DFF","#29ADFFFF","#FFF1E8FF"],
                       "names":{"player":1,"sky":2},"size":4}"##;
        let p = Palette::from_json(blit).unwrap();
        assert_eq!(p.get(1), Some(Color32::hex(0xff004d)));
        assert_eq!(p.get(0), Some(Color32::TRANSPARENT));
        assert_eq!(p.slot_named("sky"), Some(2));
    }

    #[test]
    fn bad_json_is_refused_naming_line_column_and_problem() {
        let cases = [
            (
                "",
                "palette JSON, line 1, column 1: expected a value, found the end",
            ),
            (
                "[1, 2]",
                "palette JSON, line 1, column 1: a palette is an object, got an array",
            ),
            (
                "{\"colors\": [\"#000\", \"#fff\"],\n \"colours\": 1}",
                "palette JSON, line 2, column 13: unknown field \"colours\" (a palette has \
                 version, size, colors and names)",
            ),
            (
                "{\"colors\": [\"#000\", \"#ffg\"]}",
                "palette JSON, line 1, column 21: color 1: not a colour: \"#ffg\" (expected \
                 #rgb, #rgba, #rrggbb, #rrggbbaa or a name such as cornflowerblue)",
            ),
            (
                "{\"colors\": [\"#000\"]}",
                "palette JSON, line 1, column 12: a palette holds 2 to 256 colors, this one 1",
            ),
            (
                "{\"size\": 3, \"colors\": [\"#000\", \"#fff\"]}",
                "palette JSON, line 1, column 10: size is 3 but colors holds 2",
            ),
            (
                "{\"version\": 2, \"colors\": []}",
                "palette JSON, line 1, column 13: version 2 is not one this BT reads (only 1)",
            ),
            (
                "{\"colors\": [\"#000\", \"#fff\"], \"names\": {\"sky\": 2}}",
                "palette JSON, line 1, column 47: name \"sky\"'s slot must be a whole number \
                 below 2, got 2",
            ),
            (
                "{\"colors\": [\"#000\", \"#fff\"]} x",
                "palette JSON, line 1, column 30: more text after the palette",
            ),
            (
                "{\"colors\": [\"#000\"",
                "palette JSON, line 1, column 19: expected ',' or ']' in an array",
            ),
        ];
        for (text, message) in cases {
            let err = Palette::from_json(text).unwrap_err();
            assert_eq!(err.to_string(), message, "{text}");
        }
        let deep = "[".repeat(100_000);
        assert!(Palette::from_json(&deep)
            .unwrap_err()
            .to_string()
            .contains("nested too deeply"));
    }

    #[test]
    fn rgb_bytes_round_trip_and_bad_lengths_name_the_length() {
        let p = Palette::nes();
        let bytes = p.to_rgb_bytes();
        assert_eq!(bytes.len(), 64 * 3);
        assert_eq!(Palette::from_rgb_bytes(&bytes), Ok(p));
        for len in [0, 3, 7, 257 * 3] {
            assert_eq!(
                Palette::from_rgb_bytes(&vec![0; len]),
                Err(PaletteError::ByteCount(len))
            );
        }
        assert_eq!(
            Palette::from_rgb_bytes(&[1; 7]).unwrap_err().to_string(),
            "palette bytes: 7 bytes are not 3 bytes (red, green, blue) for each of 2 to 256 colours"
        );
    }

    #[test]
    fn default_is_pico8() {
        let p = Palette::default();
        assert_eq!(p.len(), 16);
        assert_eq!(p.get(8), Some(Color32::hex(0xff004d)));
    }

    #[test]
    fn fill_block_sets_a_run_of_slots_or_none_of_them() {
        let mut p = Palette::new(16).unwrap();
        let run = [Color32::RED, Color32::GREEN, Color32::BLUE];
        p.fill_block(13, &run).unwrap();
        assert_eq!(
            &p.colors()[12..],
            &[Color32::BLACK, Color32::RED, Color32::GREEN, Color32::BLUE]
        );
        let before = p.clone();
        assert_eq!(
            p.fill_block(14, &run),
            Err(PaletteError::BlockOutOfRange {
                start: 14,
                count: 3,
                size: 16
            })
        );
        assert_eq!(
            p.fill_block(255, &run).unwrap_err().to_string(),
            "palette slots 255 to 257 do not fit a palette of 16 colours"
        );
        assert_eq!(p, before, "a run that does not fit changes nothing");
        p.fill_block(200, &[]).unwrap();
        p.fill_block(0, &[Color32::WHITE; 16]).unwrap();
        assert!(p.colors().iter().all(|&c| c == Color32::WHITE));
    }

    #[test]
    fn apply_hud_puts_and_names_six_colours_from_its_start() {
        let mut p = Palette::new(7).unwrap();
        p.apply_hud(1).unwrap();
        for (i, (name, color)) in Palette::HUD.iter().enumerate() {
            assert_eq!(p.slot_named(name), Some(i as u8 + 1));
            assert_eq!(p.get(i as u8 + 1), Some(*color));
        }
        assert_eq!(p.get(0), Some(Color32::BLACK), "slot 0 untouched");
        assert_eq!(
            p.get(4),
            Some(Color32::hex(0xffdc64)),
            "hud_header is BLIT386's gold"
        );
        let before = p.clone();
        assert_eq!(
            p.apply_hud(2),
            Err(PaletteError::BlockOutOfRange {
                start: 2,
                count: 6,
                size: 7
            })
        );
        assert_eq!(p.apply_hud(0), Err(PaletteError::HudAtSlotZero));
        assert_eq!(p, before, "a refused start changes nothing");
        // Applying again elsewhere moves the names.
        let mut big = Palette::vga();
        big.apply_hud(1).unwrap();
        big.apply_hud(250).unwrap();
        assert_eq!(big.slot_named("hud_code"), Some(255));
        assert_eq!(big.names().count(), 6);
    }
}
