//! Palette effects that run on the simulation clock: colour cycles, fades and flashes.
//!
//! Carts start effects from `update` (or `init`); the host advances them once per fixed update,
//! right after the cart's `update`, by one tick of `1000 / target_fps` ms. Their time is the
//! number of updates since boot times that tick, so a replay from the start (`render_at`)
//! reproduces every colour exactly, and the look does not depend on the display's refresh rate.

//!
//! None of them can fail. Arguments out of range are clamped as documented on each `Update`
//! method, the way PICO-8's `pal` never stops a game: a cart calls them from `update`, which has
//! no error to return, and a colour effect is never worth stopping a game for.

use std::time::Duration;

use super::color::{channel_to_linear, linear_to_channel};
use crate::{Color32, Easing, Palette};

/// The most colour cycles that can run at once; starting one more replaces the oldest.
pub const MAX_CYCLES: usize = 16;

/// The longest fade or flash: one day. Longer durations are cut to it.
pub const MAX_EFFECT: Duration = Duration::from_secs(86_400);

/// [`MAX_EFFECT`] in the milliseconds the effects count in.
const MAX_EFFECT_MS: f64 = 86_400_000.0;

/// A duration as the milliseconds the effects count in, no longer than [`MAX_EFFECT`].
pub(crate) fn effect_ms(duration: Duration) -> f64 {
    clamp_duration(duration.as_secs_f64() * 1000.0)
}

/// One slot fading from one colour to another.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SlotFade {
    from: Color32,
    to: Color32,
    /// When the slot starts to change (it shows `from` until then).
    start_ms: f64,
    duration_ms: f64,
    easing: Easing,
    /// Mixed in linear light (an exposure fade) rather than in the stored sRGB values.
    linear: bool,
}

/// A range of slots rotating.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cycle {
    start: usize,
    end: usize,
    steps_per_second: f64,
    start_ms: f64,
    /// Whole steps already applied.
    done: i64,
}

/// Every non-zero slot shown as one colour for a while.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Flash {
    color: Color32,
    start_ms: f64,
    duration_ms: f64,
}

/// The running effects and their clock. Sized up front, so starting and running effects never
/// allocates.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PaletteEffects {
    fades: Box<[Option<SlotFade>; 256]>,
    fading: usize,
    cycles: Vec<Cycle>,
    flash: Option<Flash>,
    /// The palette as shown while a flash runs.
    shown: Palette,
    /// Updates the effects have been advanced by since boot.
    steps: u64,
    step_ms: f64,
}

/// A duration an effect can run: NaN and negative ones are 0 (the change is immediate), and
/// none is longer than [`MAX_EFFECT_MS`].
pub(crate) fn clamp_duration(ms: f64) -> f64 {
    if ms.is_nan() {
        0.0
    } else {
        ms.clamp(0.0, MAX_EFFECT_MS)
    }
}

impl PaletteEffects {
    /// Bytes held on the heap: the fade table, the cycles and the palette shown while a flash
    /// runs (a snapshot's size).
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.fades)
            + self.cycles.capacity() * std::mem::size_of::<Cycle>()
            + self.shown.heap_bytes()
    }

    pub(crate) fn new(target_fps: f64, palette: &Palette) -> PaletteEffects {
        PaletteEffects {
            fades: Box::new([None; 256]),
            fading: 0,
            cycles: Vec::with_capacity(MAX_CYCLES),
            flash: None,
            shown: palette.clone(),
            steps: 0,
            step_ms: 1000.0 / target_fps,
        }
    }

    /// Stops everything and puts the clock back to boot.
    pub(crate) fn reset(&mut self) {
        self.clear();
        self.steps = 0;
    }

    /// Effect time now: the start time of an effect begun during the current update.
    fn now_ms(&self) -> f64 {
        self.steps as f64 * self.step_ms
    }

    pub(crate) fn cycle(
        &mut self,
        palette: &Palette,
        start: usize,
        end: usize,
        steps_per_second: f64,
    ) {
        let end = end.min(palette.len() - 1);
        if start >= end || !steps_per_second.is_finite() {
            return;
        }
        let cycle = Cycle {
            start,
            end,
            steps_per_second,
            start_ms: self.now_ms(),
            done: 0,
        };
        if let Some(c) = self
            .cycles
            .iter_mut()
            .find(|c| c.start == start && c.end == end)
        {
            *c = cycle;
        } else {
            if self.cycles.len() == MAX_CYCLES {
                self.cycles.remove(0);
            }
            self.cycles.push(cycle);
        }
    }

    pub(crate) fn fade_range(
        &mut self,
        palette: &Palette,
        start: usize,
        end: usize,
        target: &Palette,
        duration_ms: f64,
        easing: Easing,
    ) {
        let duration_ms = clamp_duration(duration_ms);
        self.fade_slots(palette, start..=end, target, |from, to, now| SlotFade {
            from,
            to,
            start_ms: now,
            duration_ms,
            easing,
            linear: false,
        });
    }

    /// Starts the fade `fade` makes of each slot in `slots` that both palettes have, from its
    /// colour in `palette` to its colour in `target` (given the time now).
    fn fade_slots(
        &mut self,
        palette: &Palette,
        slots: std::ops::RangeInclusive<usize>,
        target: &Palette,
        fade: impl Fn(Color32, Color32, f64) -> SlotFade,
    ) {
        let (start, end) = (*slots.start(), (*slots.end()).min(palette.len() - 1));
        if start > end {
            return;
        }
        let now = self.now_ms();
        for slot in start..=end.min(target.len().saturating_sub(1)) {
            let (Some(&from), Some(&to)) = (palette.colors().get(slot), target.colors().get(slot))
            else {
                continue;
            };
            if self.fades[slot].is_none() {
                self.fading += 1;
            }
            self.fades[slot] = Some(fade(from, to, now));
        }
    }

    /// An exposure fade of slots `start..=end` towards `target` over `duration_ms`: mixed in
    /// linear light, and staggered by brightness. A slot's own fade lasts `(1 - lead)` of the
    /// duration and starts `(1 - b) × lead` of it in, where `b` (0 to 1) is the brightness of
    /// the brighter of its two colours: the brightest slots lead, the darkest finish last.
    #[allow(
        clippy::too_many_arguments,
        reason = "the fade's parameters, as BLIT386 names them"
    )]
    pub(crate) fn fade_exposure_range(
        &mut self,
        palette: &Palette,
        start: usize,
        end: usize,
        target: &Palette,
        duration_ms: f64,
        lead: f64,
        easing: Easing,
    ) {
        let duration_ms = clamp_duration(duration_ms);
        let lead = if lead.is_nan() {
            0.0
        } else {
            lead.clamp(0.0, 1.0)
        };
        self.fade_slots(palette, start..=end, target, |from, to, now| {
            let bright = from.luminance().max(to.luminance()) / 255.0;
            SlotFade {
                from,
                to,
                start_ms: now + (1.0 - bright) * lead * duration_ms,
                duration_ms: (1.0 - lead) * duration_ms,
                easing,
                linear: true,
            }
        });
    }

    pub(crate) fn flash(&mut self, palette: &Palette, color: Color32, duration_ms: f64) {
        self.flash = Some(Flash {
            color,
            start_ms: self.now_ms(),
            duration_ms: clamp_duration(duration_ms),
        });
        self.refresh_shown(palette);
    }

    pub(crate) fn clear(&mut self) {
        self.fades.fill(None);
        self.fading = 0;
        self.cycles.clear();
        self.flash = None;
    }

    /// Advances every effect by one update: cycles, then fades, then the flash's timer.
    pub(crate) fn step(&mut self, palette: &mut Palette) {
        let now = self.now_ms();
        let colors = palette.colors_mut();
        for c in &mut self.cycles {
            let elapsed_s = (now - c.start_ms) / 1000.0;
            let due = (c.steps_per_second * elapsed_s).floor() as i64;
            let steps = due - c.done;
            c.done = due;
            let Some(range) = colors.get_mut(c.start..=c.end) else {
                continue;
            };
            let len = range.len() as i64;
            // Forward steps move every colour one slot down; the first wraps round to the end.
            range.rotate_left(steps.rem_euclid(len) as usize);
        }
        if self.fading > 0 {
            for (slot, fade) in self.fades.iter_mut().enumerate() {
                let Some(f) = fade else { continue };
                let t = if now < f.start_ms {
                    0.0
                } else if f.duration_ms == 0.0 {
                    1.0
                } else {
                    (now - f.start_ms) / f.duration_ms
                };
                if let Some(c) = colors.get_mut(slot) {
                    *c = if t >= 1.0 {
                        f.to
                    } else if f.linear {
                        lerp_linear(f.from, f.to, f.easing.apply(t))
                    } else {
                        f.from.lerp(f.to, f.easing.apply(t))
                    };
                }
                if t >= 1.0 {
                    *fade = None;
                    self.fading -= 1;
                }
            }
        }
        if let Some(f) = self.flash {
            if now - f.start_ms >= f.duration_ms {
                self.flash = None;
            }
        }
        self.steps += 1;
        self.refresh_shown(palette);
    }

    /// Brings the shown palette up to date with the live one (only needed while flashing).
    pub(crate) fn refresh_shown(&mut self, palette: &Palette) {
        if let Some(f) = self.flash {
            self.shown.clone_from(palette);
            for c in self.shown.colors_mut().iter_mut().skip(1) {
                *c = f.color;
            }
        }
    }

    /// The palette to show: the live one, or the flash over it.
    pub(crate) fn shown<'a>(&'a self, live: &'a Palette) -> &'a Palette {
        if self.flash.is_some() {
            &self.shown
        } else {
            live
        }
    }

    /// Whether any effect is running.
    pub(crate) fn is_active(&self) -> bool {
        self.fading > 0 || !self.cycles.is_empty() || self.flash.is_some()
    }
}

/// `from` to `to` at `t`, mixed in linear light (alpha mixed as stored).
fn lerp_linear(from: Color32, to: Color32, t: f64) -> Color32 {
    let t = if t.is_nan() { 0.0 } else { t };
    let ch = |x: u8, y: u8| {
        let (a, b) = (channel_to_linear(x), channel_to_linear(y));
        linear_to_channel(a + (b - a) * t)
    };
    Color32 {
        r: ch(from.r, to.r),
        g: ch(from.g, to.g),
        b: ch(from.b, to.b),
        a: from.lerp(to, t).a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exposure_fade_brings_bright_colours_in_first_in_linear_light() {
        // From black, slot 1 to white and slot 2 to a dark grey, over 60 updates at 60 a
        // second (1000 ms), half the time a highlight's lead.
        let black = Palette::new(3).unwrap();
        let mut target = Palette::new(3).unwrap();
        target.set(1, Color32::rgb(255, 255, 255)).unwrap();
        target.set(2, Color32::rgb(40, 40, 40)).unwrap();
        let mut pal = black.clone();
        let mut fx = PaletteEffects::new(60.0, &pal);
        fx.fade_exposure_range(&pal, 0, 2, &target, 1000.0, 0.5, Easing::Linear);
        // A step shows the time at its start: after 16 steps, 250 ms.
        for _ in 0..16 {
            fx.step(&mut pal);
        }
        // A quarter in: white is half-way (in linear light, 0.5 is sRGB 188), the grey, which
        // starts later, has not begun.
        assert_eq!(pal.colors()[1], Color32::rgb(188, 188, 188));
        assert_eq!(pal.colors()[2], Color32::rgb(0, 0, 0));
        for _ in 16..31 {
            fx.step(&mut pal);
        }
        assert_eq!(
            pal.colors()[1],
            Color32::rgb(255, 255, 255),
            "white is done by half-way"
        );
        assert!(pal.colors()[2].r < 40, "the grey is still on its way");
        for _ in 31..61 {
            fx.step(&mut pal);
        }
        assert_eq!(pal.colors()[2], Color32::rgb(40, 40, 40));
        assert!(!fx.is_active());
    }

    #[test]
    fn linear_light_round_trips_every_channel() {
        for c in 0..=255u8 {
            assert_eq!(linear_to_channel(channel_to_linear(c)), c);
        }
    }

    fn ramp(n: usize) -> Palette {
        let mut p = Palette::new(n).unwrap();
        for i in (0..=u8::MAX).take(n) {
            p.set(i, Color32::rgb(i, 0, 0)).unwrap();
        }
        p
    }

    fn reds(p: &Palette) -> Vec<u8> {
        p.colors().iter().map(|c| c.r).collect()
    }

    #[test]
    fn cycle_moves_colours_down_at_its_speed() {
        let mut pal = ramp(6);
        let mut fx = PaletteEffects::new(60.0, &pal);
        // 15 steps a second at 60 updates a second: one step every 4 updates.
        fx.cycle(&pal, 1, 4, 15.0);
        for _ in 0..4 {
            fx.step(&mut pal);
        }
        assert_eq!(
            reds(&pal),
            [0, 1, 2, 3, 4, 5],
            "the first step is due at update 4"
        );
        fx.step(&mut pal);
        assert_eq!(reds(&pal), [0, 2, 3, 4, 1, 5]);
        let mut back = ramp(6);
        let mut fx = PaletteEffects::new(60.0, &back);
        fx.cycle(&back, 1, 4, -60.0);
        fx.step(&mut back);
        fx.step(&mut back);
        assert_eq!(
            reds(&back),
            [0, 4, 1, 2, 3, 5],
            "backwards: the last wraps to the front"
        );
    }

    #[test]
    fn fade_reaches_its_target_after_its_duration() {
        let mut pal = Palette::new(4).unwrap();
        let mut white = Palette::new(4).unwrap();
        for i in 0..4 {
            white.set(i, Color32::rgb(200, 200, 200)).unwrap();
        }
        let mut fx = PaletteEffects::new(10.0, &pal);
        fx.fade_range(&pal, 0, 3, &white, 1000.0, Easing::Linear);
        fx.step(&mut pal);
        assert_eq!(
            pal.get(2),
            Some(Color32::rgb(0, 0, 0)),
            "starts where it was"
        );
        for _ in 0..5 {
            fx.step(&mut pal);
        }
        assert_eq!(
            pal.get(2),
            Some(Color32::rgb(100, 100, 100)),
            "half way at 500 ms"
        );
        for _ in 0..5 {
            fx.step(&mut pal);
        }
        assert_eq!(pal, white);
        assert!(!fx.is_active());
    }

    #[test]
    fn flash_covers_non_zero_slots_then_goes() {
        let mut pal = ramp(4);
        let mut fx = PaletteEffects::new(10.0, &pal);
        let white = Color32::rgb(255, 255, 255);
        fx.flash(&pal, white, 200.0);
        fx.step(&mut pal);
        assert_eq!(fx.shown(&pal).get(0), pal.get(0));
        assert_eq!(fx.shown(&pal).get(3), Some(white));
        fx.step(&mut pal);
        assert_eq!(fx.shown(&pal).get(3), Some(white));
        fx.step(&mut pal);
        assert_eq!(fx.shown(&pal), &ramp(4), "gone after 200 ms");
    }

    #[test]
    fn arguments_out_of_range_are_clamped_never_refused() {
        let pal = ramp(8);
        let mut fx = PaletteEffects::new(60.0, &pal);
        fx.cycle(&pal, 5, 5, 1.0);
        fx.cycle(&pal, 9, 20, 1.0);
        fx.cycle(&pal, 1, 3, f64::NAN);
        assert!(
            fx.cycles.is_empty(),
            "nothing to rotate, or no speed: no cycle"
        );
        fx.cycle(&pal, 6, 300, 1.0);
        assert_eq!(
            (fx.cycles[0].start, fx.cycles[0].end),
            (6, 7),
            "end cut to the palette"
        );

        let mut shown = pal.clone();
        fx.flash(&pal, Color32::rgb(1, 1, 1), -1.0);
        fx.step(&mut shown);
        assert_eq!(fx.shown(&shown), &shown, "a negative flash is over at once");
        fx.flash(&pal, Color32::rgb(1, 1, 1), f64::INFINITY);
        assert_eq!(fx.flash.map(|f| f.duration_ms), Some(MAX_EFFECT_MS));

        fx.fade_range(&pal, 4, 2, &ramp(8), 10.0, Easing::Linear);
        assert_eq!(fx.fading, 0, "an empty range fades nothing");
        fx.fade_range(&pal, 6, 99, &ramp(8), f64::NAN, Easing::Linear);
        assert_eq!(fx.fading, 2, "slots 6 and 7");
    }

    #[test]
    fn a_cycle_past_the_limit_replaces_the_oldest() {
        let pal = ramp(64);
        let mut fx = PaletteEffects::new(60.0, &pal);
        for i in 0..MAX_CYCLES + 1 {
            fx.cycle(&pal, 2 * i, 2 * i + 1, 1.0);
        }
        assert_eq!(fx.cycles.len(), MAX_CYCLES);
        assert_eq!(fx.cycles[0].start, 2, "the first cycle went");
        assert_eq!(fx.cycles[MAX_CYCLES - 1].start, 2 * MAX_CYCLES);
        fx.cycle(&pal, 4, 5, 3.0);
        assert_eq!(
            fx.cycles.len(),
            MAX_CYCLES,
            "the same range replaces in place"
        );
    }
}
