//! `palette`: colour cycling, fades and a flash, all started from `update` and run by the
//! console on the tick clock, plus a panel of easing curves.
//!
//! The water and the fire are drawn once with fixed indices; only the palette moves. Slots 16 to
//! 23 hold a ramp of blues that cycles forwards, slots 24 to 31 a ramp of flame colours that
//! cycles backwards, faster. Every six seconds the first 16 slots fade to night and back, with a
//! flash of lightning in between. A lantern in slot 32 pulses its alpha once a second, so it
//! fades toward black and back (a slot's alpha shows over black).

use std::time::Duration;

use bt::{Cart, CartError, Color32, Easing, Palette, Rect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "cycling water and fire, a day-night fade, a flash, easing curves";

const WATER: u8 = 16;
const FIRE: u8 = 24;
const RAMP: u8 = 8;
/// The lantern's slot, whose alpha pulses.
const LANTERN: u8 = 32;
const LANTERN_COLOR: Color32 = Color32::rgb(255, 200, 60);

/// Ticks in one day-night round.
const ROUND: u64 = 360;

const CURVES: [(Easing, &str); 7] = [
    (Easing::Linear, "linear"),
    (Easing::QuadInOut, "quad in-out"),
    (Easing::CubicOut, "cubic out"),
    (Easing::SineIn, "sine in"),
    (Easing::BackOut, "back out"),
    (Easing::ElasticOut, "elastic out"),
    (Easing::BounceOut, "bounce out"),
];

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct PaletteCart {
    day: Option<Palette>,
    night: Option<Palette>,
    /// Progress through the easing panel's sweep, in [0, 1].
    sweep: f64,
}

/// A fresh `palette` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(PaletteCart::default())
}

fn boot_palette() -> Palette {
    let mut p = Palette::pico8().resized(33).unwrap_or_default();
    let _ = p.set(LANTERN, LANTERN_COLOR);
    for k in 0..RAMP {
        let _ = p.set(
            WATER + k,
            Color32::rgb(10 + k * 8, 40 + k * 22, 110 + k * 18),
        );
        let _ = p.set(FIRE + k, Color32::rgb(120 + k * 19, k * 30, k * 4));
    }
    p
}

impl Cart for PaletteCart {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Palette").palette(boot_palette())
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let day = ctx.palette().clone();
        let mut night = day.clone();
        for slot in 0..16 {
            let c = day.get(slot).unwrap_or_default();
            night.set(slot, Color32::rgb(c.r / 5, c.g / 4, c.b / 2 + 20))?;
        }
        self.day = Some(day);
        self.night = Some(night);
        ctx.cycle_palette(WATER, WATER + RAMP - 1, 8.0);
        ctx.cycle_palette(FIRE, FIRE + RAMP - 1, -14.0);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let t = ctx.ticks() % ROUND;
        self.sweep = (ctx.ticks() % 120) as f64 / 119.0;
        // Alpha from 255 down to 55 and back over 60 ticks.
        let phase = (ctx.ticks() % 60) as i64;
        let a = 55 + (200 * (30 - phase).abs() / 30) as u8;
        let _ = ctx
            .palette_mut()
            .set(LANTERN, Color32 { a, ..LANTERN_COLOR });
        let (Some(day), Some(night)) = (&self.day, &self.night) else {
            return;
        };
        match t {
            60 => {
                ctx.fade_palette_range(0, 15, night, Duration::from_millis(2000), Easing::SineInOut)
            }
            200 => ctx.flash_palette(Color32::hex(0xfff1e8), Duration::from_millis(100)),
            240 => ctx.fade_palette_range(0, 15, day, Duration::from_millis(1500), Easing::QuadOut),
            _ => {}
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(12);
        // Sky scene, drawn with the first 16 slots so the fade darkens it.
        ctx.draw_circle_fill(60, 44, 18, 10);
        ctx.draw_circle_fill(40, 150, 60, 3);
        ctx.draw_circle_fill(130, 160, 70, 11);
        ctx.print(4, 2, "palette effects", 7);
        // The lantern: a post and a light drawn in the pulsing slot.
        ctx.draw_rect_fill(Rect::new(118, 70, 2, 40), 4);
        ctx.draw_circle_fill(119, 66, 6, LANTERN);
        ctx.print(98, 78, "alpha", LANTERN);

        // Water: diagonal bands through the blue ramp.
        for y in 120..240 {
            for x in 0..160 {
                let band = ((x + y * 2) / 6) as u8 % RAMP;
                ctx.draw_pixel(x, y, WATER + band);
            }
        }
        // Fire: tongues rising through the flame ramp.
        for y in 120..240 {
            for x in 160..320 {
                let wave = ((x * 7) % 23) / 3;
                let band = ((240 - y + wave) / 8) as u8 % RAMP;
                ctx.draw_pixel(x, y, FIRE + band);
            }
        }
        ctx.print(4, 124, "cycle +8/s", 7);
        ctx.print(164, 124, "cycle -14/s", 7);

        // Easing panel: a dot per curve travelling left to right as the curve says.
        let panel = Rect::new(168, 14, 148, 102);
        ctx.draw_rect_fill(panel, 1);
        ctx.draw_rect(panel, 6);
        for (i, (easing, label)) in CURVES.iter().enumerate() {
            let y = 18 + i as i32 * 14;
            ctx.print(172, y, label, 6);
            let x0 = 246;
            ctx.draw_line((x0, y + 7), (x0 + 64, y + 7), 5);
            let x = x0 + (easing.apply(self.sweep) * 64.0).round() as i32;
            ctx.draw_circle_fill(x, y + 7, 2, 8);
        }
        ctx.print(4, 104, format_args!("tick {}", ctx.ticks()), 7);
    }
}
