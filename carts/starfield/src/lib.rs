//! `starfield`: parallax scrolling built from stateless randomness. Three layers of stars placed
//! by hashing their number, two ranges of hills shaped by value noise, each layer scrolling at
//! its own speed, and shooting stars rolled by the seeded generator in `update`.

use bt::noise::{hash1_u32, ValueNoise};
use bt::{Cart, CartError, Rect, Render, Rng, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "parallax stars and hills from hashes and value noise";

/// Star layers, far to near: (count, pixels scrolled per tick, colour).
const LAYERS: [(u32, f64, u8); 3] = [(90, 0.15, 5), (50, 0.45, 13), (25, 1.1, 7)];
/// Hill ranges, far to near: (noise seed, pixels per tick, base height, colour).
const HILLS: [(u32, f64, i32, u8); 2] = [(11, 0.7, 30, 2), (23, 1.6, 4, 1)];
/// At most this many shooting stars at once (room is made once, in `init`).
const MAX_SHOOTING: usize = 8;

#[derive(Debug, Clone, Copy)]
struct Shooting {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    life: u32,
}

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Starfield {
    shooting: Vec<Shooting>,
}

/// A fresh `starfield` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Starfield::default())
}

fn spawn(rng: &mut Rng, w: f32) -> Shooting {
    Shooting {
        x: rng.float_range(f64::from(w * 0.2), f64::from(w)) as f32,
        y: rng.float_range(0.0, 80.0) as f32,
        vx: -(rng.gaussian(4.0, 1.0).abs() as f32 + 1.0),
        vy: rng.gaussian(1.5, 0.4) as f32,
        life: rng.int_range(20, 40) as u32,
    }
}

impl Cart for Starfield {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Starfield")
    }

    fn init(&mut self, _ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.shooting = Vec::with_capacity(MAX_SHOOTING);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let w = ctx.display_size().0 as f32;
        for s in &mut self.shooting {
            s.x += s.vx;
            s.y += s.vy;
            s.life = s.life.saturating_sub(1);
        }
        self.shooting.retain(|s| s.life > 0);
        let rng = ctx.rng_mut();
        if self.shooting.len() < MAX_SHOOTING && rng.chance(0.03) {
            let s = spawn(rng, w);
            self.shooting.push(s);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let (w, h) = ctx.display_size();
        let (w, h) = (w as i32, h as i32);
        // Smooth scrolling: the tick plus how far into the next one this frame is.
        let time = ctx.ticks() as f64 + ctx.render_alpha();

        for (layer, &(count, speed, colour)) in LAYERS.iter().enumerate() {
            let scroll = (time * speed) as i64;
            for i in 0..count {
                let seed = layer as u32 + 1;
                let bx = i64::from(hash1_u32(seed, i as i32) % w as u32);
                let y = (hash1_u32(seed + 100, i as i32) % h as u32) as i32;
                let x = (bx - scroll).rem_euclid(i64::from(w)) as i32;
                ctx.draw_pixel(x, y, colour);
                if layer == 2 && i % 5 == 0 {
                    // The brightest near stars get a small cross.
                    ctx.draw_pixel(x - 1, y, 6);
                    ctx.draw_pixel(x + 1, y, 6);
                    ctx.draw_pixel(x, y - 1, 6);
                    ctx.draw_pixel(x, y + 1, 6);
                }
            }
        }

        for s in &self.shooting {
            let (x, y) = (s.x as i32, s.y as i32);
            ctx.draw_line(
                (x, y),
                (x - (s.vx * 3.0) as i32, y - (s.vy * 3.0) as i32),
                12,
            );
            ctx.draw_pixel(x, y, 7);
        }

        for &(seed, speed, base, colour) in &HILLS {
            let noise = ValueNoise::new(seed);
            let scroll = time * speed;
            for x in 0..w {
                let wx = (f64::from(x) + scroll) as f32;
                let height = base as f32 + noise.fbm1(wx / 60.0, 4, 0.5, 2.0) * 70.0;
                ctx.draw_line((x, h - height as i32), (x, h - 1), colour);
            }
        }

        ctx.draw_rect_fill(Rect::new(0, 0, w, 12), 1);
        ctx.print(
            4,
            -1,
            format_args!(
                "starfield  tick {}  shooting {}",
                ctx.ticks(),
                self.shooting.len()
            ),
            7,
        );
    }
}
