//! The post-process stack: the effects a cart sets in `update`, and the pixel tier the console
//! runs on the framebuffer after `render` (the display tier is the host's: it works on the
//! picture at the output size).

use crate::draw::Framebuffer;
use crate::Color32;

/// One post-process effect, with its strength. Every parameter is a whole number, so the same
/// effect gives the same bytes on every machine.
///
/// Effects come in two tiers. The **pixel tier** ([`Effect::Glitch`], [`Effect::Mosaic`])
/// works on the framebuffer's palette indices at the display's size, before the overlay is
/// drawn. Then the palette resolves to colours and the picture is scaled to the output size
/// ([`Settings::output_scale`](crate::Settings::output_scale)), and the **display tier**
/// (every other effect) works on those colours. Within a tier the effects run in the order
/// of this list, whatever order a cart added them in, and the stack holds at most one effect
/// of each kind.
///
/// Strengths named `strength` run from 0 (nothing) to 255 (the most the effect does).
///
/// ```
/// use bt::host::Console;
/// use bt::{Effect, EffectKind, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// ctx.set_effects(bt::crt::GREEN);
/// ctx.add_effect(Effect::Noise { strength: 40 });
/// ctx.add_effect(Effect::Noise { strength: 90 }); // replaces the first
/// assert_eq!(ctx.effect(EffectKind::Noise), Some(Effect::Noise { strength: 90 }));
/// ctx.remove_effect(EffectKind::Noise);
/// assert_eq!(ctx.effect(EffectKind::Noise), None);
/// ctx.clear_effects();
/// assert_eq!(ctx.effects().count(), 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Effect {
    /// Pixel tier: on some ticks (`chance` in 256 of them) a few bands of rows slip sideways
    /// by up to `shift` pixels, wrapping around, as a bad signal does.
    Glitch {
        /// How many ticks in 256 glitch.
        chance: u8,
        /// The largest sideways slip, in display pixels.
        shift: u8,
    },
    /// Pixel tier: the picture in blocks of `size × size` display pixels, each the colour of
    /// its top-left pixel. Sizes 0 and 1 change nothing.
    Mosaic {
        /// The block side, in display pixels.
        size: u8,
    },
    /// Display tier: every colour becomes `color` at the colour's brightness, as on a
    /// one-colour phosphor screen.
    Phosphor {
        /// The phosphor's colour at full brightness.
        color: Color32,
    },
    /// Display tier: bright colours glow into their neighbours. Colours brighter than
    /// `threshold` (0 to 255) spread over about `radius` display pixels.
    Bloom {
        /// The brightness (0 to 255) above which a colour glows.
        threshold: u8,
        /// How strongly the glow adds to the picture.
        strength: u8,
        /// How far the glow reaches, in display pixels (0 counts as 1, at most 8).
        radius: u8,
    },
    /// Display tier: the picture bulges like the glass of a curved tube; the corners fall
    /// outside and show black.
    Barrel {
        /// How curved: 255 pulls the corners in by about a sixth of the picture.
        strength: u8,
    },
    /// Display tier: on some ticks (`chance` in 256 of them) rows of the output jitter
    /// sideways by up to `shift` output pixels, as with a nearby motor.
    Interference {
        /// How many ticks in 256 carry interference.
        chance: u8,
        /// The largest jitter, in output pixels.
        shift: u8,
    },
    /// Display tier: red drawn `offset` output pixels to the left of where it belongs and
    /// blue as far to the right, as a badly converged tube does.
    ChromaticAberration {
        /// The offset in output pixels (at most 16).
        offset: u8,
    },
    /// Display tier: the dark gaps between the tube's lines: each display row is brightest
    /// in its middle and darker towards its edges.
    Scanlines {
        /// How dark the gaps are.
        strength: u8,
    },
    /// Display tier: the tube's red, green and blue stripes, one output column each.
    RgbMask {
        /// How much the other two colours are dimmed in each stripe.
        strength: u8,
    },
    /// Display tier: the picture darkens towards its edges and corners.
    Vignette {
        /// How dark the corners get.
        strength: u8,
    },
    /// Display tier: the whole picture's brightness wavers from tick to tick.
    Flicker {
        /// The largest dip in brightness.
        strength: u8,
    },
    /// Display tier: a brighter band rolls down the screen, once every `period` ticks.
    RollLine {
        /// How much brighter the band is.
        strength: u8,
        /// Ticks for the band to cross the screen once (0 counts as 1).
        period: u16,
    },
    /// Display tier: every output pixel a little brighter or darker, anew every tick.
    Noise {
        /// The largest change, in colour levels (of 255).
        strength: u8,
    },
}

/// The kind of an [`Effect`], without its parameters: what [`Update::remove_effect`] and
/// [`Update::effect`] ask about. In the order the effects run.
///
/// [`Update::remove_effect`]: crate::Update::remove_effect
/// [`Update::effect`]: crate::Update::effect
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EffectKind {
    /// [`Effect::Glitch`].
    Glitch,
    /// [`Effect::Mosaic`].
    Mosaic,
    /// [`Effect::Phosphor`].
    Phosphor,
    /// [`Effect::Bloom`].
    Bloom,
    /// [`Effect::Barrel`].
    Barrel,
    /// [`Effect::Interference`].
    Interference,
    /// [`Effect::ChromaticAberration`].
    ChromaticAberration,
    /// [`Effect::Scanlines`].
    Scanlines,
    /// [`Effect::RgbMask`].
    RgbMask,
    /// [`Effect::Vignette`].
    Vignette,
    /// [`Effect::Flicker`].
    Flicker,
    /// [`Effect::RollLine`].
    RollLine,
    /// [`Effect::Noise`].
    Noise,
}

/// How many kinds of effect there are: the most effects the stack holds at once.
pub const EFFECT_KINDS: usize = 13;

impl Effect {
    /// This effect's kind.
    pub fn kind(&self) -> EffectKind {
        match self {
            Effect::Glitch { .. } => EffectKind::Glitch,
            Effect::Mosaic { .. } => EffectKind::Mosaic,
            Effect::Phosphor { .. } => EffectKind::Phosphor,
            Effect::Bloom { .. } => EffectKind::Bloom,
            Effect::Barrel { .. } => EffectKind::Barrel,
            Effect::Interference { .. } => EffectKind::Interference,
            Effect::ChromaticAberration { .. } => EffectKind::ChromaticAberration,
            Effect::Scanlines { .. } => EffectKind::Scanlines,
            Effect::RgbMask { .. } => EffectKind::RgbMask,
            Effect::Vignette { .. } => EffectKind::Vignette,
            Effect::Flicker { .. } => EffectKind::Flicker,
            Effect::RollLine { .. } => EffectKind::RollLine,
            Effect::Noise { .. } => EffectKind::Noise,
        }
    }

    /// Whether the effect works on the palette indices at the display's size (the pixel tier)
    /// rather than on colours at the output size.
    pub fn is_pixel_tier(&self) -> bool {
        matches!(self.kind(), EffectKind::Glitch | EffectKind::Mosaic)
    }
}

/// The effects set now, at most one of each kind, in the order they run. Copied whole into a
/// snapshot; it never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PostEffects {
    slots: [Option<Effect>; EFFECT_KINDS],
}

impl PostEffects {
    /// Adds `effect`, replacing the one of its kind.
    pub fn add(&mut self, effect: Effect) {
        self.slots[effect.kind() as usize] = Some(effect);
    }

    /// Removes the effect of `kind`, if one is set.
    pub fn remove(&mut self, kind: EffectKind) {
        self.slots[kind as usize] = None;
    }

    /// Removes every effect.
    pub fn clear(&mut self) {
        self.slots = [None; EFFECT_KINDS];
    }

    /// The effect of `kind`, if one is set.
    pub fn get(&self, kind: EffectKind) -> Option<Effect> {
        self.slots[kind as usize]
    }

    /// The effects set, in the order they run.
    pub fn iter(&self) -> impl Iterator<Item = Effect> + '_ {
        self.slots.iter().flatten().copied()
    }

    /// Whether no effect is set.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// Whether any display-tier effect is set.
    pub fn has_display_tier(&self) -> bool {
        self.iter().any(|e| !e.is_pixel_tier())
    }

    /// Runs the pixel tier on `fb` for the frame at `tick`: a glitch (when this tick glitches),
    /// then a mosaic. Never allocates.
    pub fn apply_pixel_tier(&self, fb: &mut Framebuffer, tick: u64) {
        if let Some(Effect::Glitch { chance, shift }) = self.get(EffectKind::Glitch) {
            glitch(fb, tick, chance, shift);
        }
        if let Some(Effect::Mosaic { size }) = self.get(EffectKind::Mosaic) {
            mosaic(fb, size);
        }
    }
}

/// The hash every effect draws its randomness from: a function of the tick and a position
/// (and a salt per use), never of the cart's generator or the wall clock, so a frame's
/// picture is a function of its tick. A 64-bit mix (SplitMix64's finaliser).
///
/// ```
/// use bt::host::effect_hash;
///
/// assert_eq!(effect_hash(5, 1, 2), effect_hash(5, 1, 2));
/// assert_ne!(effect_hash(5, 1, 2), effect_hash(6, 1, 2));
/// ```
#[inline]
pub fn effect_hash(tick: u64, salt: u64, at: u64) -> u64 {
    let mut z = tick
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(salt.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(at.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The most bands one glitching tick slips.
const GLITCH_BANDS: u64 = 3;

fn glitch(fb: &mut Framebuffer, tick: u64, chance: u8, shift: u8) {
    let (w, h) = (fb.width as usize, fb.height as usize);
    if w == 0 || h == 0 || shift == 0 || (effect_hash(tick, 1, 0) & 0xFF) >= u64::from(chance) {
        return;
    }
    let bands = 1 + effect_hash(tick, 2, 0) % GLITCH_BANDS;
    for band in 0..bands {
        let r = effect_hash(tick, 3, band);
        let top = (r % h as u64) as usize;
        // Bands of 1 to 1/8 of the height (at least 1 row).
        let tall = 1 + ((r >> 16) % (h as u64 / 8).max(1)) as usize;
        let by = 1 + ((r >> 32) % u64::from(shift)) as usize;
        let by = by % w;
        let left = (r >> 48) & 1 == 0;
        for row in fb.pixels.chunks_exact_mut(w).skip(top).take(tall) {
            if left {
                row.rotate_left(by);
            } else {
                row.rotate_right(by);
            }
        }
    }
}

fn mosaic(fb: &mut Framebuffer, size: u8) {
    let (w, s) = (fb.width as usize, usize::from(size));
    if s < 2 || w == 0 {
        return;
    }
    for (y, row) in fb.pixels.chunks_exact_mut(w).enumerate() {
        if y % s == 0 {
            for block in row.chunks_mut(s) {
                let first = block[0];
                block.fill(first);
            }
        }
    }
    // Rows below a block's first copy it.
    let h = fb.height as usize;
    for y in 0..h {
        let first = y - y % s;
        if first != y {
            fb.pixels.copy_within(first * w..(first + 1) * w, y * w);
        }
    }
}

/// Ready-made stacks, for [`Update::set_effects`](crate::Update::set_effects): the looks of
/// old screens.
///
/// ```
/// use bt::host::Console;
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.update_context(0).set_effects(bt::crt::PIPBOY);
/// assert_eq!(con.post_effects().iter().count(), bt::crt::PIPBOY.len());
/// ```
pub mod crt {
    use super::Effect;
    use crate::Color32;

    /// A phosphor terminal in `color`: its glow, scanlines, a gentle curve.
    const fn terminal(color: Color32) -> [Effect; 6] {
        [
            Effect::Phosphor { color },
            Effect::Bloom {
                threshold: 140,
                strength: 110,
                radius: 2,
            },
            Effect::Barrel { strength: 90 },
            Effect::Scanlines { strength: 150 },
            Effect::Vignette { strength: 120 },
            Effect::Noise { strength: 10 },
        ]
    }

    /// A green-phosphor terminal: green glow, scanlines, a gentle curve.
    pub const GREEN: &[Effect] = &terminal(Color32::rgb(0x33, 0xFF, 0x66));

    /// An amber terminal: as [`GREEN`] in amber.
    pub const AMBER: &[Effect] = &terminal(Color32::rgb(0xFF, 0xB0, 0x00));

    /// A worn wrist-computer screen: green phosphor, strong bloom, scanlines, a rolling band,
    /// flicker, noise and the odd glitch.
    pub const PIPBOY: &[Effect] = &[
        Effect::Glitch {
            chance: 6,
            shift: 12,
        },
        Effect::Phosphor {
            color: Color32::rgb(0x2E, 0xFF, 0x7A),
        },
        Effect::Bloom {
            threshold: 90,
            strength: 220,
            radius: 3,
        },
        Effect::Barrel { strength: 120 },
        Effect::Interference {
            chance: 10,
            shift: 6,
        },
        Effect::Scanlines { strength: 170 },
        Effect::Vignette { strength: 150 },
        Effect::Flicker { strength: 12 },
        Effect::RollLine {
            strength: 40,
            period: 240,
        },
        Effect::Noise { strength: 14 },
    ];

    /// A plain television: colour, a slight curve, scanlines, the tube's stripes and a little
    /// colour fringing.
    pub const TV: &[Effect] = &[
        Effect::Bloom {
            threshold: 170,
            strength: 70,
            radius: 2,
        },
        Effect::Barrel { strength: 70 },
        Effect::ChromaticAberration { offset: 1 },
        Effect::Scanlines { strength: 110 },
        Effect::RgbMask { strength: 90 },
        Effect::Vignette { strength: 90 },
        Effect::Noise { strength: 6 },
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mosaic_gives_each_block_its_top_left_index() {
        let mut fb = Framebuffer::new(5, 3);
        for (i, p) in fb.pixels.iter_mut().enumerate() {
            *p = i as u8;
        }
        mosaic(&mut fb, 2);
        assert_eq!(
            fb.pixels,
            [0, 0, 2, 2, 4, 0, 0, 2, 2, 4, 10, 10, 12, 12, 14]
        );
    }

    #[test]
    fn a_glitch_depends_on_the_tick_alone_and_keeps_every_row_s_indices() {
        let mut fb = Framebuffer::new(64, 64);
        for (i, p) in fb.pixels.iter_mut().enumerate() {
            *p = (i % 64) as u8;
        }
        let before = fb.pixels.clone();
        let tick = (0..1000)
            .find(|&t| (effect_hash(t, 1, 0) & 0xFF) < 255)
            .unwrap();
        let (mut a, mut b) = (fb.clone_pixels(), fb.clone_pixels());
        glitch(&mut a, tick, 255, 10);
        glitch(&mut b, tick, 255, 10);
        assert_eq!(a.pixels, b.pixels);
        assert_ne!(a.pixels, before, "a tick that glitches moves something");
        for (row, old) in a.pixels.chunks(64).zip(before.chunks(64)) {
            let (mut x, mut y) = (row.to_vec(), old.to_vec());
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y, "rows only slip sideways");
        }
        let mut none = fb.clone_pixels();
        glitch(&mut none, tick, 0, 10);
        assert_eq!(none.pixels, before, "chance 0 never glitches");
    }

    #[test]
    fn the_stack_holds_one_effect_of_each_kind_in_running_order() {
        let mut fx = PostEffects::default();
        fx.add(Effect::Noise { strength: 1 });
        fx.add(Effect::Mosaic { size: 2 });
        fx.add(Effect::Noise { strength: 2 });
        let kinds: Vec<_> = fx.iter().map(|e| e.kind()).collect();
        assert_eq!(kinds, [EffectKind::Mosaic, EffectKind::Noise]);
        assert!(fx.has_display_tier());
        fx.remove(EffectKind::Noise);
        assert!(!fx.has_display_tier());
        for preset in [crt::GREEN, crt::AMBER, crt::PIPBOY, crt::TV] {
            let mut p = PostEffects::default();
            for &e in preset {
                p.add(e);
            }
            assert_eq!(p.iter().count(), preset.len(), "no kind twice in a preset");
        }
    }

    impl Framebuffer {
        fn clone_pixels(&self) -> Framebuffer {
            let mut fb = Framebuffer::new(self.width, self.height);
            fb.pixels.copy_from_slice(&self.pixels);
            fb
        }
    }
}
