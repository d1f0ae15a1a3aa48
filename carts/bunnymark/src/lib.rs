//! `bunnymark`: the classic sprite stress test. N bunnies (16 × 16, with see-through pixels)
//! fall, bounce off the floor and the walls, and are all drawn every frame. N comes from the
//! cart argument `sprites` (`bt bench bunnymark --arg sprites=150000`).

use bt::{Cart, CartError, Palette, Rect, Render, Settings, SpriteParams, SpriteSheet, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "N bouncing 16x16 sprites with transparency (--arg sprites=N)";

/// The shared example sheet.
const SHEET_PNG: &[u8] = include_bytes!("../../assets/sheet.png");

/// Bunnies when no `sprites` argument is given.
pub const DEFAULT_SPRITES: usize = 1000;
/// The most bunnies the cart accepts (a 150,000-sprite benchmark fits easily).
pub const MAX_SPRITES: usize = 1_000_000;

const BUNNY: Rect = Rect::new(0, 16, 16, 16);
const SIZE: f32 = 16.0;
const GRAVITY: f32 = 0.5;

/// The bunnies, one array per field so the update loop runs straight through memory.
#[derive(Debug, Clone, Default)]
pub struct Bunnymark {
    sheet: Option<SpriteSheet>,
    x: Vec<f32>,
    y: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
}

/// A fresh `bunnymark` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Bunnymark::default())
}

impl Cart for Bunnymark {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn snapshot_bytes(&self) -> usize {
        let floats = self.x.len() + self.y.len() + self.vx.len() + self.vy.len();
        std::mem::size_of::<Bunnymark>() + floats * std::mem::size_of::<f32>()
    }

    fn configure(&self) -> Settings {
        let palette = Palette::pico8().resized(32).unwrap_or_default();
        Settings::default().title("Bunnymark").palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let n: usize = ctx.arg_or("sprites", DEFAULT_SPRITES)?;
        if n > MAX_SPRITES {
            return Err(CartError::msg(format!(
                "argument sprites={n}: at most {MAX_SPRITES}"
            )));
        }
        self.sheet = Some(ctx.decode_image("sheet.png", SHEET_PNG, 16)?);
        let (w, h) = ctx.display_size();
        let (max_x, max_y) = (w as f32 - SIZE, h as f32 - SIZE);
        let rng = ctx.rng_mut();
        // Spread over the whole screen from the start, every bunny fully on it.
        for _ in 0..n {
            // Positions and speeds are kept as `f32`s, as the Pyxel version keeps them.
            self.x.push(rng.float_range(0.0, f64::from(max_x)) as f32);
            self.y.push(rng.float_range(0.0, f64::from(max_y)) as f32);
            self.vx.push(rng.float_range(-5.0, 5.0) as f32);
            self.vy.push(rng.float_range(-5.0, 5.0) as f32);
        }
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let (w, h) = ctx.display_size();
        let (max_x, max_y) = (w as f32 - SIZE, h as f32 - SIZE);
        let rng = ctx.rng_mut();
        for i in 0..self.x.len() {
            let (mut x, mut y) = (self.x[i] + self.vx[i], self.y[i] + self.vy[i]);
            self.vy[i] += GRAVITY;
            if x > max_x {
                self.vx[i] = -self.vx[i];
                x = max_x;
            } else if x < 0.0 {
                self.vx[i] = -self.vx[i];
                x = 0.0;
            }
            if y > max_y {
                // Lose some speed on the floor, and sometimes jump.
                self.vy[i] *= -0.85;
                y = max_y;
                if rng.bool() {
                    self.vy[i] -= (rng.float() * 6.0) as f32;
                }
            } else if y < 0.0 {
                self.vy[i] = 0.0;
                y = 0.0;
            }
            self.x[i] = x;
            self.y[i] = y;
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let Some(sheet) = &self.sheet else { return };
        let params = SpriteParams::new();
        for (&x, &y) in self.x.iter().zip(&self.y) {
            ctx.draw_sprite(sheet, BUNNY, x as i32, y as i32, params);
        }
        // Index 0 is see-through for drawing; clear_rect is how to paint it.
        ctx.clear_rect(Rect::new(0, 0, 140, 12), 0);
        ctx.print(
            2,
            -1,
            format_args!("{} bunnies  tick {}", self.x.len(), ctx.ticks()),
            7,
        );
    }
}
