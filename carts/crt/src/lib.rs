//! `crt`: the post-process stack. Two carts in one crate:
//!
//! - `crt` (320 × 240, output 4× = 1280 × 960): with `--arg scene=toggle` (the default) a
//!   simple scene whose CRT look switches on and off every two seconds, each time on with the
//!   next preset (TV, green, amber, PipBoy); with `--arg scene=pipboy` a faux terminal in
//!   greens under the PipBoy preset, its interference kept for bursts; with `--arg
//!   scene=enhanced` the toggle scene's picture under a stack of eleven effects built by hand,
//!   which a small state machine drives: steady, a warning of interference, a burst of
//!   glitches and mosaic, and a recovery back to steady.
//! - `crt-logo` (80 × 60, output 3× = 240 × 180): a small logo under a black-and-white tube.
//!
//! The effects are set in `update`, so seeks, replays and `bt shot --size output` show what
//! the window shows.

use bt::{Cart, CartError, Effect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str =
    "CRT effects: presets every 2 s, a PipBoy terminal, a glitching stack";

/// One line for `bt list`, for the logo cart.
pub const LOGO_DESCRIPTION: &str = "an 80x60 logo scaled 3x under a black-and-white CRT stack";

/// Ticks between switches of the toggle scene: two seconds at 60 updates a second.
const TOGGLE_TICKS: u64 = 120;

/// The presets the toggle scene goes through, one each time it switches on.
const PRESETS: [(&str, &[Effect]); 4] = [
    ("TV", bt::crt::TV),
    ("GREEN", bt::crt::GREEN),
    ("AMBER", bt::crt::AMBER),
    ("PIPBOY", bt::crt::PIPBOY),
];

/// What the terminal types, a line at a time.
const TERMINAL: [&str; 9] = [
    "BT TERMINAL LINK: CONNECTION OPEN",
    "ENTER PASSWORD NOW",
    "",
    "> LOGON ADMIN",
    "ACCESS GRANTED",
    "",
    "> STATUS",
    "REACTOR ..... NOMINAL",
    "WATER CHIP .. FAILING",
];

/// Ticks a typed character takes.
const TYPE_TICKS: u64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scene {
    Toggle,
    Pipboy,
    Enhanced,
}

/// The enhanced scene's steady stack: eleven effects, built by hand rather than from a preset.
/// The state machine changes the glitch, mosaic, interference, fringes, flicker and noise
/// from these.
const STEADY: [Effect; 11] = [
    Effect::Glitch {
        chance: 0,
        shift: 0,
    },
    Effect::Mosaic { size: 1 },
    Effect::Glow {
        threshold: 0.63,
        strength: 1.3,
        radius: 3,
    },
    // Before the curve, so the lines bend with the glass.
    Effect::Scanlines {
        amount: 0.55,
        strength: -8.0,
        density: 0.0,
    },
    Effect::Barrel { curvature: 0.1 },
    Effect::Interference { amount: 0.0 },
    Effect::ChromaticAberration { aberration: 1.0 },
    Effect::RgbMask {
        intensity: 0.25,
        size: 3.0,
        border: 0.3,
    },
    Effect::Vignette { amount: 0.4 },
    Effect::Flicker { amount: 1.0 },
    Effect::Noise { amount: 0.02 },
];

/// The steady stack's interference, fringes, flicker and noise, and the burst's: what the
/// recovery eases between.
const CALM: [f32; 4] = [0.0, 1.0, 1.0, 0.02];
const STORM: [f32; 4] = [0.04, 5.0, 0.8, 0.24];

/// Where the enhanced scene's signal is: each state lasts a number of ticks drawn from the
/// cart's generator when it starts, so a replay or a seek sees the same glitches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    /// The steady stack, for 2 to 5 seconds.
    Steady,
    /// Interference and a stronger flicker: a burst is coming (0.5 to 1 s).
    Warning,
    /// Glitches every tick, blocks, wide fringes and heavy noise (0.25 to 0.6 s).
    Burst,
    /// The burst's effects easing back to the steady stack over one second.
    Recovery,
}

impl Signal {
    fn label(self) -> &'static str {
        match self {
            Signal::Steady => "STEADY",
            Signal::Warning => "WARNING",
            Signal::Burst => "BURST",
            Signal::Recovery => "RECOVERY",
        }
    }
}

/// Ticks the recovery takes.
const RECOVERY_TICKS: u64 = 60;

/// The `crt` cart.
#[derive(Debug, Clone)]
pub struct Crt {
    scene: Scene,
    /// Which preset the toggle scene shows, and whether it is on (for the label).
    preset: Option<usize>,
    /// The enhanced scene's state, the tick it began and the tick it ends.
    signal: (Signal, u64, u64),
}

impl Default for Crt {
    fn default() -> Crt {
        Crt {
            scene: Scene::Toggle,
            preset: None,
            signal: (Signal::Steady, 0, 0),
        }
    }
}

/// Builds the `crt` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Crt::default())
}

impl Cart for Crt {
    fn configure(&self) -> Settings {
        Settings::default()
            .display(320, 240)
            .output_scale(4)
            .title("CRT")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.scene = match ctx.arg("scene").unwrap_or("toggle") {
            "toggle" => Scene::Toggle,
            "pipboy" => Scene::Pipboy,
            "enhanced" => Scene::Enhanced,
            other => {
                return Err(CartError::msg(format!(
                    "argument scene={other}: expected toggle, pipboy or enhanced"
                )))
            }
        };
        self.preset = None;
        match self.scene {
            Scene::Pipboy => {
                ctx.set_effects(bt::crt::PIPBOY);
                set_interference(ctx, 0.0);
            }
            Scene::Enhanced => {
                ctx.set_effects(&STEADY);
                self.signal = (Signal::Steady, 0, steady_ticks(ctx));
            }
            Scene::Toggle => {}
        }
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        match self.scene {
            Scene::Toggle => {}
            Scene::Pipboy => return pipboy_bursts(ctx),
            Scene::Enhanced => return self.drive_signal(ctx),
        }
        let t = ctx.ticks();
        if t.is_multiple_of(TOGGLE_TICKS) && t > 0 {
            let switch = t / TOGGLE_TICKS;
            if switch % 2 == 1 {
                let which = (switch / 2) as usize % PRESETS.len();
                ctx.set_effects(PRESETS[which].1);
                self.preset = Some(which);
            } else {
                ctx.clear_effects();
                self.preset = None;
            }
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        match self.scene {
            Scene::Toggle => self.toggle_scene(ctx),
            Scene::Pipboy => terminal(ctx),
            Scene::Enhanced => {
                scene_picture(ctx);
                let (signal, ..) = self.signal;
                let c = if signal == Signal::Steady { 11 } else { 8 };
                ctx.print(14, 13, "SIGNAL:", 7);
                ctx.print(62, 13, signal.label(), c);
            }
        }
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    /// The enhanced scene's signal state (`STEADY`, `WARNING`, `BURST`, `RECOVERY`).
    fn test_state(&self) -> Option<String> {
        (self.scene == Scene::Enhanced).then(|| self.signal.0.label().to_string())
    }
}

impl Crt {
    /// The enhanced scene's state machine: moves on when a state's time is up, and sets the
    /// effects the state (and, in recovery, how far it has come) asks for.
    fn drive_signal(&mut self, ctx: &mut Update<'_>) {
        let t = ctx.ticks();
        if t >= self.signal.2 {
            let (next, ticks) = match self.signal.0 {
                Signal::Steady => (Signal::Warning, 30 + u64::from(ctx.rng_mut().int(31))),
                Signal::Warning => (Signal::Burst, 15 + u64::from(ctx.rng_mut().int(22))),
                Signal::Burst => (Signal::Recovery, RECOVERY_TICKS),
                Signal::Recovery => (Signal::Steady, steady_ticks(ctx)),
            };
            self.signal = (next, t, t + ticks);
            if next == Signal::Steady {
                ctx.set_effects(&STEADY);
            }
        }
        let (signal, start, _) = self.signal;
        match signal {
            Signal::Steady => {}
            Signal::Warning => {
                ctx.add_effect(Effect::Interference { amount: 0.01 });
                ctx.add_effect(Effect::Flicker { amount: 0.9 });
            }
            Signal::Burst => {
                ctx.add_effect(Effect::Glitch {
                    chance: 255,
                    shift: 24,
                });
                ctx.add_effect(Effect::Mosaic { size: 3 });
                set_signal(ctx, STORM);
            }
            Signal::Recovery => {
                // From the burst's values back to the steady stack's, a little every tick.
                let left = (start + RECOVERY_TICKS).saturating_sub(t) as f32;
                let k = left / RECOVERY_TICKS as f32;
                ctx.add_effect(Effect::Glitch {
                    chance: 0,
                    shift: 0,
                });
                ctx.add_effect(Effect::Mosaic { size: 1 });
                set_signal(
                    ctx,
                    std::array::from_fn(|i| CALM[i] + (STORM[i] - CALM[i]) * k),
                );
            }
        }
    }

    fn toggle_scene(&self, ctx: &mut Render<'_>) {
        scene_picture(ctx);
        let label = match self.preset {
            Some(which) => PRESETS[which].0,
            None => "OFF",
        };
        ctx.print(14, 13, "CRT:", 7);
        ctx.print(44, 13, label, 12);
    }
}

/// The toggle and enhanced scenes' picture: a checkered floor, a sun and a bouncing ball.
fn scene_picture(ctx: &mut Render<'_>) {
    let t = ctx.ticks() as i32;
    ctx.clear(1);
    // A checkered floor and a sun.
    for y in 0..6 {
        for x in 0..16 {
            let c = if (x + y) % 2 == 0 { 3 } else { 11 };
            ctx.draw_rect_fill(bt::Rect::new(x * 20, 150 + y * 15, 20, 15), c);
        }
    }
    ctx.draw_circle_fill(250, 60, 28, 10);
    ctx.draw_circle_fill(250, 60, 20, 9);
    // A ball bouncing across.
    let x = 20 + (t * 2) % 280;
    let phase = (t % 60) - 30;
    let y = 60 + phase * phase / 8;
    ctx.draw_circle_fill(x, y, 12, 8);
    ctx.draw_circle_fill(x - 4, y - 4, 4, 7);
}

/// Sets the interference, fringes, flicker and noise from `[interference, aberration,
/// flicker, noise]`, in place: the stack keeps its order.
fn set_signal(ctx: &mut Update<'_>, v: [f32; 4]) {
    for effect in ctx.effects_mut() {
        match effect {
            Effect::Interference { amount } => *amount = v[0],
            Effect::ChromaticAberration { aberration } => *aberration = v[1],
            Effect::Flicker { amount } => *amount = v[2],
            Effect::Noise { amount } => *amount = v[3],
            _ => {}
        }
    }
}

/// The PipBoy preset's interference (0.06 of the width, every row) is a burst's strength:
/// as BLIT386's terminal demo does, the terminal keeps it at 0 and spikes it for a third of a
/// second about every four seconds, when the cart's generator says so.
fn pipboy_bursts(ctx: &mut Update<'_>) {
    let t = ctx.ticks();
    if t.is_multiple_of(20) {
        let burst = ctx.rng_mut().int(12) == 0;
        set_interference(ctx, if burst { 0.06 } else { 0.0 });
    }
}

/// Sets the stack's interference to `amount`, in place.
fn set_interference(ctx: &mut Update<'_>, amount: f32) {
    for effect in ctx.effects_mut() {
        if let Effect::Interference { amount: a } = effect {
            *a = amount;
        }
    }
}

/// How long a steady spell lasts: 2 to 5 seconds at 60 updates a second.
fn steady_ticks(ctx: &mut Update<'_>) -> u64 {
    120 + u64::from(ctx.rng_mut().int(181))
}

/// The faux terminal: a frame, a header and lines typed out a character at a time.
fn terminal(ctx: &mut Render<'_>) {
    // In greens: the PipBoy preset, as BLIT386's, shows the cart's own colours.
    ctx.clear(0);
    ctx.draw_rect(bt::Rect::new(6, 6, 308, 228), 3);
    ctx.draw_rect_fill(bt::Rect::new(6, 6, 308, 16), 3);
    ctx.print(12, 8, "BT-OS 1.0 WRIST TERMINAL", 1);
    // Characters typed so far, with a pause of 10 characters' time after each line.
    let mut budget = ctx.ticks() / TYPE_TICKS;
    let (mut x, mut y) = (14, 32);
    for (row, line) in TERMINAL.iter().enumerate() {
        let n = (line.len() as u64).min(budget) as usize;
        ctx.print(14, 32 + 16 * row as i32, &line[..n], 11);
        (x, y) = (14 + 6 * n as i32, 32 + 16 * row as i32);
        budget -= n as u64;
        if n < line.len() || budget < 10 {
            break;
        }
        budget -= 10;
    }
    // The cursor blinks twice a second.
    if (ctx.ticks() / 15).is_multiple_of(2) {
        ctx.draw_rect_fill(bt::Rect::new(x + 2, y, 5, 12), 11);
    }
    // A gauge across the bottom.
    let filled = (ctx.ticks() % 240) as i32;
    ctx.draw_rect(bt::Rect::new(14, 200, 244, 12), 3);
    ctx.draw_rect_fill(bt::Rect::new(16, 202, filled, 8), 11);
}

/// The `crt-logo` cart: a logo at 80 × 60 under a black-and-white stack.
#[derive(Debug, Clone, Copy)]
pub struct Logo;

/// Builds the `crt-logo` cart.
pub fn logo_cart() -> Box<dyn Cart> {
    Box::new(Logo)
}

/// The black-and-white tube of the logo cart, in BLIT386's effects and with the values its
/// demos give a 1970s black-and-white set: a gentle curve, a roll band always on, soft
/// scanlines, a faint grille, a light vignette, snow and a little halation.
pub const LOGO_STACK: &[Effect] = &[
    Effect::Barrel { curvature: 0.07 },
    Effect::RollLine {
        amount: 0.26,
        speed: 0.92,
    },
    Effect::Scanlines {
        amount: 0.42,
        strength: -7.0,
        density: 0.0,
    },
    Effect::RgbMask {
        intensity: 0.07,
        size: 5.0,
        border: 0.45,
    },
    Effect::Vignette { amount: 0.1 },
    Effect::Noise { amount: 0.038 },
    Effect::Flicker { amount: 1.0 },
    Effect::Bloom {
        spread: 2.2,
        glow: 0.09,
    },
];

impl Cart for Logo {
    fn configure(&self) -> Settings {
        Settings::default()
            .display(80, 60)
            .output_scale(3)
            .title("CRT logo")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        ctx.set_effects(LOGO_STACK);
        Ok(())
    }

    fn update(&mut self, _ctx: &mut Update<'_>) {}

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        // A "B" and a "T" of blocks, and a line under them that sweeps across.
        for (x, y, w, h) in [
            (14, 12, 4, 26),
            (18, 12, 10, 4),
            (18, 23, 10, 4),
            (18, 34, 10, 4),
            (28, 15, 4, 8),
            (28, 27, 4, 8),
            (40, 12, 26, 4),
            (51, 16, 4, 22),
        ] {
            ctx.draw_rect_fill(bt::Rect::new(x, y, w, h), 7);
        }
        let sweep = (ctx.ticks() % 120) as i32;
        let len = (sweep * 52 / 120).max(1);
        ctx.draw_rect_fill(bt::Rect::new(14, 44, len, 2), 6);
        ctx.print(21, 49, "LOW RES", 5);
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }
}
