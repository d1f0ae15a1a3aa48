//! `crt`: the post-process stack. Two carts in one crate:
//!
//! - `crt` (320 × 240, output 4× = 1280 × 960): with `--arg scene=toggle` (the default) a
//!   simple scene whose CRT look switches on and off every two seconds, each time on with the
//!   next preset (TV, green, amber, PipBoy); with `--arg scene=pipboy` a faux terminal under
//!   the PipBoy preset: scanlines, glitches, bloom, a rolling band.
//! - `crt-logo` (80 × 60, output 3× = 240 × 180): a small logo under a black-and-white tube.
//!
//! The effects are set in `update`, so seeks, replays and `bt shot --size output` show what
//! the window shows.

use bt::{Cart, CartError, Color32, Effect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "CRT effects: presets switched every 2 s, or a PipBoy terminal";

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
}

/// The `crt` cart.
#[derive(Debug, Clone)]
pub struct Crt {
    scene: Scene,
    /// Which preset the toggle scene shows, and whether it is on (for the label).
    preset: Option<usize>,
}

/// Builds the `crt` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Crt {
        scene: Scene::Toggle,
        preset: None,
    })
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
            other => {
                return Err(CartError::msg(format!(
                    "argument scene={other}: expected toggle or pipboy"
                )))
            }
        };
        self.preset = None;
        if self.scene == Scene::Pipboy {
            ctx.set_effects(bt::crt::PIPBOY);
        }
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if self.scene != Scene::Toggle {
            return;
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
        }
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }
}

impl Crt {
    fn toggle_scene(&self, ctx: &mut Render<'_>) {
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
        ctx.draw_circle_fill(x, y + 4, 12, 0);
        ctx.draw_circle_fill(x, y, 12, 8);
        ctx.draw_circle_fill(x - 4, y - 4, 4, 7);
        let label = match self.preset {
            Some(which) => PRESETS[which].0,
            None => "OFF",
        };
        ctx.draw_rect_fill(bt::Rect::new(8, 8, 120, 24), 0);
        ctx.print(14, 13, "CRT:", 7);
        ctx.print(44, 13, label, 12);
    }
}

/// The faux terminal: a frame, a header and lines typed out a character at a time.
fn terminal(ctx: &mut Render<'_>) {
    ctx.clear(0);
    ctx.draw_rect(bt::Rect::new(6, 6, 308, 228), 6);
    ctx.draw_rect_fill(bt::Rect::new(6, 6, 308, 16), 6);
    ctx.print(12, 8, "BT-OS 1.0 WRIST TERMINAL", 1);
    // Characters typed so far, with a pause of 10 characters' time after each line.
    let mut budget = ctx.ticks() / TYPE_TICKS;
    let (mut x, mut y) = (14, 32);
    for (row, line) in TERMINAL.iter().enumerate() {
        let n = (line.len() as u64).min(budget) as usize;
        ctx.print(14, 32 + 16 * row as i32, &line[..n], 7);
        (x, y) = (14 + 6 * n as i32, 32 + 16 * row as i32);
        budget -= n as u64;
        if n < line.len() || budget < 10 {
            break;
        }
        budget -= 10;
    }
    // The cursor blinks twice a second.
    if (ctx.ticks() / 15).is_multiple_of(2) {
        ctx.draw_rect_fill(bt::Rect::new(x + 2, y, 5, 12), 7);
    }
    // A gauge across the bottom.
    let filled = (ctx.ticks() % 240) as i32;
    ctx.draw_rect(bt::Rect::new(14, 200, 244, 12), 6);
    ctx.draw_rect_fill(bt::Rect::new(16, 202, filled, 8), 7);
}

/// The `crt-logo` cart: a logo at 80 × 60 under a black-and-white stack.
#[derive(Debug, Clone, Copy)]
pub struct Logo;

/// Builds the `crt-logo` cart.
pub fn logo_cart() -> Box<dyn Cart> {
    Box::new(Logo)
}

/// The black-and-white tube of the logo cart.
pub const LOGO_STACK: &[Effect] = &[
    Effect::Phosphor {
        color: Color32::rgb(0xF0, 0xF0, 0xFF),
    },
    Effect::Bloom {
        threshold: 150,
        strength: 140,
        radius: 2,
    },
    Effect::Barrel { strength: 110 },
    Effect::Scanlines { strength: 200 },
    Effect::Vignette { strength: 140 },
    Effect::Flicker { strength: 10 },
    Effect::Noise { strength: 12 },
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
