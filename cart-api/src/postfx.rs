//! The post-process stack: the effects a cart sets in `update`, and the pixel tier the console
//! runs on the framebuffer after `render` (the display tier is the host's: it works on the
//! picture at the output size).

use crate::draw::Framebuffer;
use crate::Color32;

/// One post-process effect and its parameters.
///
/// Effects come in two tiers. The **pixel tier** ([`Effect::Glitch`], [`Effect::Mosaic`])
/// works on the framebuffer's palette indices at the display's size, before the overlay is
/// drawn. Then the palette resolves to colours, the picture is scaled to the output size
/// ([`Settings::output_scale`](crate::Settings::output_scale) or
/// [`Settings::output_size`](crate::Settings::output_size)), and the **display tier** (every
/// other effect) works on those colours, in linear light.
///
/// The stack is a list the cart orders (at most [`MAX_EFFECTS`]), and may hold more than one
/// effect of a kind. The pixel tier runs in the list's order. In the display tier, the place
/// of an effect that only scales brightness ([`Effect::Scanlines`], [`Effect::RgbMask`],
/// [`Effect::Vignette`], [`Effect::RollLine`], [`Effect::Flicker`], [`Effect::Flutter`])
/// matters against [`Effect::Barrel`]: before it, the effect is drawn on the picture and bends
/// with the glass; after it, it lies flat on the screen. Two barrels bend one after the other;
/// two scanline effects both darken. Docs/effects.md says how every kind is placed.
///
/// Parameters are floating point, so a cart can animate them every update (BLIT386's effects
/// take the same names and values). They become the same bytes on every machine: the display
/// tier turns them into tables with arithmetic that rounds the same everywhere. A parameter
/// that is not a number counts as 0, and each is held to its range.
///
/// ```
/// use bt::host::Console;
/// use bt::{Effect, EffectKind, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// ctx.set_effects(bt::crt::GREEN);
/// ctx.add_effect(Effect::Noise { amount: 0.02 }); // replaces the preset's noise
/// assert_eq!(ctx.effect(EffectKind::Noise), Some(Effect::Noise { amount: 0.02 }));
/// // Animate a parameter in place, as a BLIT386 demo sets `flicker.amount`.
/// for effect in ctx.effects_mut() {
///     if let Effect::Flicker { amount } = effect {
///         *amount = 0.9;
///     }
/// }
/// assert_eq!(ctx.effect(EffectKind::Flicker), Some(Effect::Flicker { amount: 0.9 }));
/// ctx.remove_effect(EffectKind::Noise);
/// assert_eq!(ctx.effect(EffectKind::Noise), None);
/// ctx.clear_effects();
/// assert_eq!(ctx.effects().count(), 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
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
    /// The glass of a curved tube: a point at `d` from the centre (the picture is 1 across)
    /// shows the picture at `d × (1 + curvature × |d|²)`; what falls outside shows black.
    /// 0.02 is a nearly flat screen, 0.05 a desktop monitor, 0.1 a small portable set.
    Barrel {
        /// How curved (0 to 1).
        curvature: f32,
    },
    /// Red seen `aberration` output pixels to the left of where it belongs and blue as far
    /// to the right, as a badly converged tube shows them. Fractions blend.
    ChromaticAberration {
        /// The offset in output pixels (0 to 16).
        aberration: f32,
    },
    /// Every output row jitters sideways by its own random amount, anew every tick, as a
    /// buzzing signal does.
    Interference {
        /// The largest jitter, as a fraction of the picture's width (0 to 0.5; 0.06 is
        /// strong).
        amount: f32,
    },
    /// A soft brighter band rolls slowly down the screen.
    RollLine {
        /// How much brighter the band is (0 to 1; at 1 the band's middle is 2.5 times as
        /// bright).
        amount: f32,
        /// How fast it rolls: 1 moves the pattern a third of the screen a second.
        speed: f32,
    },
    /// The dark gaps between the tube's lines: each line's brightness follows a bell over
    /// its height, brightest in its middle.
    Scanlines {
        /// How much of the bell shows (0: none, 1: all of it).
        amount: f32,
        /// How sharp the bell is, as a negative exponent: -8 leaves a quarter of the light
        /// at a line's edges, more negative darkens more of the gap.
        strength: f32,
        /// Lines over the picture's height; 0 means one per display row.
        density: f32,
    },
    /// The tube's grille: red, green and blue stripes in cells `size` output pixels wide,
    /// darker at the cells' borders.
    RgbMask {
        /// How strongly the stripes show (0 to 1).
        intensity: f32,
        /// A cell's width in output pixels (at least 1).
        size: f32,
        /// How much the cells' borders darken (0 to 1).
        border: f32,
    },
    /// Darker towards the edges and corners: the brightness is `((1 − x²)(1 − y²))^amount`,
    /// with `x` and `y` from -1 to 1 across the screen.
    Vignette {
        /// The exponent (0 to 8); 0.35 is gentle, 2 is heavy.
        amount: f32,
    },
    /// The whole picture's brightness times `amount`: a cart animates it (BLIT386's
    /// demos use `0.95 + 0.05 × sin(t)`).
    Flicker {
        /// The brightness factor (0 to 2).
        amount: f32,
    },
    /// Every output pixel a little brighter or darker, anew every tick.
    Noise {
        /// The largest change, as a fraction of full brightness (0 to 1; 0.025 is faint).
        amount: f32,
    },
    /// A soft phosphor glow: the picture mixed with its blur over a 5 × 5 grid of points
    /// `spread` output pixels apart, computed at the display's size.
    Bloom {
        /// How far apart the blur's points are, in output pixels (0 to 16).
        spread: f32,
        /// How much of the blur is mixed in (0 to 1).
        glow: f32,
    },
    /// Every colour becomes `color` at the colour's brightness, as on a one-colour phosphor
    /// screen.
    Phosphor {
        /// The phosphor's colour at full brightness.
        color: Color32,
    },
    /// Bright colours glow into their neighbours: colours brighter than `threshold` spread
    /// over about `radius` display pixels and are added to the picture.
    Glow {
        /// The brightness (0 to 1) above which a colour glows.
        threshold: f32,
        /// How strongly the glow adds (0 to 3).
        strength: f32,
        /// How far the glow reaches, in display pixels (1 to 8).
        radius: u8,
    },
    /// The whole picture's brightness dips by a random amount up to `amount`, anew every
    /// tick: a tired tube.
    Flutter {
        /// The largest dip (0 to 1).
        amount: f32,
    },
    /// On some ticks (`chance` of them) pairs of output rows tear sideways by up to `shift`
    /// output pixels, as with a motor nearby.
    Tear {
        /// The share of ticks that tear (0 to 1).
        chance: f32,
        /// The largest tear, in output pixels (0 to 64).
        shift: f32,
    },
}

/// The kind of an [`Effect`], without its parameters: what [`Update::remove_effect`] and
/// [`Update::effect`] ask about.
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
    /// [`Effect::Barrel`].
    Barrel,
    /// [`Effect::ChromaticAberration`].
    ChromaticAberration,
    /// [`Effect::Interference`].
    Interference,
    /// [`Effect::RollLine`].
    RollLine,
    /// [`Effect::Scanlines`].
    Scanlines,
    /// [`Effect::RgbMask`].
    RgbMask,
    /// [`Effect::Vignette`].
    Vignette,
    /// [`Effect::Flicker`].
    Flicker,
    /// [`Effect::Noise`].
    Noise,
    /// [`Effect::Bloom`].
    Bloom,
    /// [`Effect::Phosphor`].
    Phosphor,
    /// [`Effect::Glow`].
    Glow,
    /// [`Effect::Flutter`].
    Flutter,
    /// [`Effect::Tear`].
    Tear,
}

/// The most effects the stack holds at once. Past it, [`Update::push_effect`] adds nothing
/// and says so.
///
/// [`Update::push_effect`]: crate::Update::push_effect
pub const MAX_EFFECTS: usize = 24;

impl Effect {
    /// This effect's kind.
    pub fn kind(&self) -> EffectKind {
        match self {
            Effect::Glitch { .. } => EffectKind::Glitch,
            Effect::Mosaic { .. } => EffectKind::Mosaic,
            Effect::Barrel { .. } => EffectKind::Barrel,
            Effect::ChromaticAberration { .. } => EffectKind::ChromaticAberration,
            Effect::Interference { .. } => EffectKind::Interference,
            Effect::RollLine { .. } => EffectKind::RollLine,
            Effect::Scanlines { .. } => EffectKind::Scanlines,
            Effect::RgbMask { .. } => EffectKind::RgbMask,
            Effect::Vignette { .. } => EffectKind::Vignette,
            Effect::Flicker { .. } => EffectKind::Flicker,
            Effect::Noise { .. } => EffectKind::Noise,
            Effect::Bloom { .. } => EffectKind::Bloom,
            Effect::Phosphor { .. } => EffectKind::Phosphor,
            Effect::Glow { .. } => EffectKind::Glow,
            Effect::Flutter { .. } => EffectKind::Flutter,
            Effect::Tear { .. } => EffectKind::Tear,
        }
    }

    /// Whether the effect works on the palette indices at the display's size (the pixel tier)
    /// rather than on colours at the output size.
    pub fn is_pixel_tier(&self) -> bool {
        matches!(self.kind(), EffectKind::Glitch | EffectKind::Mosaic)
    }
}

/// The effects set now, in the order the cart gave them. Copied whole into a snapshot; it
/// never allocates.
#[derive(Clone, Copy)]
pub struct PostEffects {
    /// The effects in `..len`; the slots past it hold [`UNUSED`].
    list: [Effect; MAX_EFFECTS],
    len: usize,
}

/// What a slot past the stack's end holds: an effect that changes nothing.
const UNUSED: Effect = Effect::Mosaic { size: 0 };

impl Default for PostEffects {
    fn default() -> PostEffects {
        PostEffects {
            list: [UNUSED; MAX_EFFECTS],
            len: 0,
        }
    }
}

impl PartialEq for PostEffects {
    fn eq(&self, other: &PostEffects) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::fmt::Debug for PostEffects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PostEffects {
    /// Replaces the first effect of `effect`'s kind, or adds `effect` at the end when there is
    /// none. Returns `false` when the stack is full and nothing changed.
    pub fn add(&mut self, effect: Effect) -> bool {
        let kind = effect.kind();
        if let Some(slot) = self.as_mut_slice().iter_mut().find(|e| e.kind() == kind) {
            *slot = effect;
            return true;
        }
        self.push(effect)
    }

    /// Adds `effect` at the end, after any of its kind. Returns `false` when the stack is
    /// full ([`MAX_EFFECTS`]) and nothing changed.
    pub fn push(&mut self, effect: Effect) -> bool {
        if self.len == MAX_EFFECTS {
            return false;
        }
        self.list[self.len] = effect;
        self.len += 1;
        true
    }

    /// Removes every effect of `kind`, keeping the others' order.
    pub fn remove(&mut self, kind: EffectKind) {
        let mut kept = PostEffects::default();
        for &e in self.as_slice() {
            if e.kind() != kind {
                kept.push(e);
            }
        }
        *self = kept;
    }

    /// Removes every effect.
    pub fn clear(&mut self) {
        *self = PostEffects::default();
    }

    /// The first effect of `kind`, if one is set.
    pub fn get(&self, kind: EffectKind) -> Option<Effect> {
        self.iter().find(|e| e.kind() == kind)
    }

    /// The effects set, in their order.
    pub fn iter(&self) -> impl Iterator<Item = Effect> + '_ {
        self.as_slice().iter().copied()
    }

    /// The effects set, in their order.
    pub fn as_slice(&self) -> &[Effect] {
        &self.list[..self.len]
    }

    /// The effects set, to change in place (a parameter animated from update to update).
    pub fn as_mut_slice(&mut self) -> &mut [Effect] {
        &mut self.list[..self.len]
    }

    /// How many effects are set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no effect is set.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether any display-tier effect is set.
    pub fn has_display_tier(&self) -> bool {
        self.iter().any(|e| !e.is_pixel_tier())
    }

    /// Runs the pixel tier on `fb` for the frame at `tick`: glitches and mosaics in the
    /// stack's order. Never allocates.
    pub fn apply_pixel_tier(&self, fb: &mut Framebuffer, tick: u64) {
        let mut glitches = 0;
        for e in self.iter() {
            match e {
                Effect::Glitch { chance, shift } => {
                    // Each glitch in the stack draws its own randomness.
                    glitch(fb, tick, glitches, chance, shift);
                    glitches += 1;
                }
                Effect::Mosaic { size } => mosaic(fb, size),
                _ => {}
            }
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

/// Glitches `fb` at `tick`: `nth` tells a stack's glitches apart, so each draws its own.
fn glitch(fb: &mut Framebuffer, tick: u64, nth: u64, chance: u8, shift: u8) {
    let (w, h) = (fb.width as usize, fb.height as usize);
    if w == 0 || h == 0 || shift == 0 || (effect_hash(tick, 1, nth) & 0xFF) >= u64::from(chance) {
        return;
    }
    let bands = 1 + effect_hash(tick, 2, nth) % GLITCH_BANDS;
    for band in 0..bands {
        let r = effect_hash(tick, 3, band + nth * GLITCH_BANDS);
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
/// old screens. [`PIPBOY`](crt::PIPBOY), [`GREEN`](crt::GREEN) and [`AMBER`](crt::AMBER) are
/// BLIT386's presets of those names, effect for effect; the others are BT's own.
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

    /// BLIT386's PipBoy look on the cart's own colours: a gentle curve, colour fringes,
    /// buzzing rows, a rolling band, scanlines, the grille, noise and a soft glow.
    pub const PIPBOY: &[Effect] = &[
        Effect::Barrel { curvature: 0.05 },
        Effect::ChromaticAberration { aberration: 1.0 },
        Effect::Interference { amount: 0.06 },
        Effect::RollLine {
            amount: 0.1,
            speed: 1.0,
        },
        Effect::Scanlines {
            amount: 0.55,
            strength: -8.0,
            density: 0.0,
        },
        Effect::RgbMask {
            intensity: 0.18,
            size: 6.0,
            border: 0.5,
        },
        Effect::Noise { amount: 0.025 },
        Effect::Flicker { amount: 1.0 },
        Effect::Bloom {
            spread: 3.0,
            glow: 0.18,
        },
    ];

    /// BLIT386's green monitor: a slight curve, scanlines, vignette, noise and glow. Like
    /// BLIT386's, it leaves the colours as they are: draw in greens, or add
    /// [`Effect::Phosphor`] (as [`GREEN_PHOSPHOR`] does).
    pub const GREEN: &[Effect] = &[
        Effect::Barrel { curvature: 0.04 },
        Effect::Scanlines {
            amount: 0.55,
            strength: -7.5,
            density: 0.0,
        },
        Effect::Vignette { amount: 0.35 },
        Effect::Noise { amount: 0.018 },
        Effect::Flicker { amount: 1.0 },
        Effect::Bloom {
            spread: 3.0,
            glow: 0.16,
        },
    ];

    /// BLIT386's amber monitor: as [`GREEN`], a little warmer in its glow and softer in its
    /// lines.
    pub const AMBER: &[Effect] = &[
        Effect::Barrel { curvature: 0.04 },
        Effect::Scanlines {
            amount: 0.5,
            strength: -7.0,
            density: 0.0,
        },
        Effect::Vignette { amount: 0.4 },
        Effect::Noise { amount: 0.012 },
        Effect::Flicker { amount: 1.0 },
        Effect::Bloom {
            spread: 3.5,
            glow: 0.2,
        },
    ];

    /// A phosphor terminal in `color`: its glow, scanlines that bend with the glass, a curve.
    const fn terminal(color: Color32) -> [Effect; 6] {
        [
            Effect::Phosphor { color },
            Effect::Glow {
                threshold: 0.55,
                strength: 1.3,
                radius: 2,
            },
            Effect::Scanlines {
                amount: 0.6,
                strength: -8.0,
                density: 0.0,
            },
            Effect::Barrel { curvature: 0.12 },
            Effect::Vignette { amount: 0.35 },
            Effect::Noise { amount: 0.01 },
        ]
    }

    /// A green-phosphor terminal: every colour in green, glowing, on a curved tube.
    pub const GREEN_PHOSPHOR: &[Effect] = &terminal(Color32::rgb(0x33, 0xFF, 0x66));

    /// An amber terminal: as [`GREEN_PHOSPHOR`] in amber.
    pub const AMBER_PHOSPHOR: &[Effect] = &terminal(Color32::rgb(0xFF, 0xB0, 0x00));

    /// A worn wrist computer: green phosphor, strong glow, a deep curve, scanlines, a rolling
    /// band, a tired tube's dips, tearing rows, noise and the odd glitch.
    pub const WRIST_TERMINAL: &[Effect] = &[
        Effect::Glitch {
            chance: 6,
            shift: 12,
        },
        Effect::Phosphor {
            color: Color32::rgb(0x2E, 0xFF, 0x7A),
        },
        Effect::Glow {
            threshold: 0.35,
            strength: 2.6,
            radius: 3,
        },
        Effect::Scanlines {
            amount: 0.65,
            strength: -9.0,
            density: 0.0,
        },
        Effect::Barrel { curvature: 0.16 },
        Effect::Tear {
            chance: 0.04,
            shift: 6.0,
        },
        Effect::Vignette { amount: 0.45 },
        Effect::Flutter { amount: 0.05 },
        Effect::RollLine {
            amount: 0.16,
            speed: 1.0,
        },
        Effect::Noise { amount: 0.03 },
    ];

    /// A plain television: colour, scanlines that bend with the glass, a slight curve, the
    /// grille flat on the screen, a little fringing and glow.
    pub const TV: &[Effect] = &[
        Effect::Glow {
            threshold: 0.67,
            strength: 0.8,
            radius: 2,
        },
        Effect::Scanlines {
            amount: 0.5,
            strength: -8.0,
            density: 0.0,
        },
        Effect::Barrel { curvature: 0.1 },
        Effect::ChromaticAberration { aberration: 1.0 },
        Effect::RgbMask {
            intensity: 0.3,
            size: 3.0,
            border: 0.3,
        },
        Effect::Vignette { amount: 0.25 },
        Effect::Noise { amount: 0.01 },
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
        glitch(&mut a, tick, 0, 255, 10);
        glitch(&mut b, tick, 0, 255, 10);
        assert_eq!(a.pixels, b.pixels);
        assert_ne!(a.pixels, before, "a tick that glitches moves something");
        for (row, old) in a.pixels.chunks(64).zip(before.chunks(64)) {
            let (mut x, mut y) = (row.to_vec(), old.to_vec());
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y, "rows only slip sideways");
        }
        let mut none = fb.clone_pixels();
        glitch(&mut none, tick, 0, 0, 10);
        assert_eq!(none.pixels, before, "chance 0 never glitches");
    }

    #[test]
    fn the_stack_keeps_the_carts_order_and_add_replaces_the_first_of_a_kind() {
        let mut fx = PostEffects::default();
        fx.add(Effect::Noise { amount: 0.1 });
        fx.add(Effect::Mosaic { size: 2 });
        fx.add(Effect::Noise { amount: 0.2 });
        assert_eq!(
            fx.as_slice(),
            [Effect::Noise { amount: 0.2 }, Effect::Mosaic { size: 2 }]
        );
        fx.push(Effect::Noise { amount: 0.3 });
        let kinds: Vec<_> = fx.iter().map(|e| e.kind()).collect();
        assert_eq!(
            kinds,
            [EffectKind::Noise, EffectKind::Mosaic, EffectKind::Noise]
        );
        assert!(fx.has_display_tier());
        fx.remove(EffectKind::Noise);
        assert_eq!(fx.as_slice(), [Effect::Mosaic { size: 2 }]);
        assert!(!fx.has_display_tier());
        for _ in 0..MAX_EFFECTS {
            fx.push(Effect::Mosaic { size: 3 });
        }
        assert_eq!(fx.len(), MAX_EFFECTS);
        assert!(
            !fx.push(Effect::Noise { amount: 0.1 }),
            "a full stack takes no more"
        );
        assert_eq!(fx.get(EffectKind::Noise), None);
    }

    #[test]
    fn two_glitches_in_one_stack_draw_their_own_bands() {
        let mut fb = Framebuffer::new(64, 64);
        for (i, p) in fb.pixels.iter_mut().enumerate() {
            *p = (i % 61) as u8;
        }
        let (mut one, mut two) = (fb.clone_pixels(), fb.clone_pixels());
        glitch(&mut one, 5, 0, 255, 20);
        glitch(&mut two, 5, 1, 255, 20);
        assert_ne!(one.pixels, two.pixels);
    }

    impl Framebuffer {
        fn clone_pixels(&self) -> Framebuffer {
            let mut fb = Framebuffer::new(self.width, self.height);
            fb.pixels.copy_from_slice(&self.pixels);
            fb
        }
    }
}
