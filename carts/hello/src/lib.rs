//! `hello`: the smallest tour of BT. A greeting, a twinkling starfield from the seeded generator,
//! and a ball that bounces at 60 updates a second but is drawn between its last two positions
//! with `render_alpha`, so it glides on any display.

use bt::{Cart, Font, Rect, Render, Settings, TextStyle, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "greeting, seeded stars and a ball drawn smoothly with render_alpha";

const BALL: i32 = 12;
const STARS: usize = 40;

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Hello {
    stars: Vec<(i32, i32, u8)>,
    pos: (f32, f32),
    prev: (f32, f32),
    vel: (f32, f32),
    bounces: u32,
}

/// A fresh `hello` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Hello::default())
}

impl Cart for Hello {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Hello")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        let (w, h) = ctx.display_size();
        let (w, h) = (w as i32, h as i32);
        let rng = ctx.rng_mut();
        self.stars = (0..STARS)
            .map(|_| (rng.int_range(0, w), rng.int_range(0, h), rng.int(32) as u8))
            .collect();
        self.pos = (40.0, 60.0);
        self.prev = self.pos;
        self.vel = (1.75, 1.25);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let (w, h) = ctx.display_size();
        let max = ((w as i32 - BALL) as f32, (h as i32 - BALL) as f32);
        self.prev = self.pos;
        self.pos.0 += self.vel.0;
        self.pos.1 += self.vel.1;
        if self.pos.0 < 0.0 || self.pos.0 > max.0 {
            self.vel.0 = -self.vel.0;
            self.pos.0 = self.pos.0.clamp(0.0, max.0);
            self.bounces += 1;
        }
        if self.pos.1 < 0.0 || self.pos.1 > max.1 {
            self.vel.1 = -self.vel.1;
            self.pos.1 = self.pos.1.clamp(0.0, max.1);
            self.bounces += 1;
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let ticks = ctx.ticks();
        for &(x, y, phase) in &self.stars {
            // Each star brightens for a few ticks out of every 32.
            let lit = (ticks + u64::from(phase)) % 32 < 4;
            ctx.draw_pixel(x, y, if lit { 7 } else { 13 });
        }
        let (w, _) = ctx.display_size();
        let text = "Hello, BT!";
        let (tw, _) = Font::system().measure(text, TextStyle::new());
        ctx.print((w as i32 - tw as i32) / 2, 100, text, 7);

        let a = ctx.render_alpha() as f32;
        let x = self.prev.0 + (self.pos.0 - self.prev.0) * a;
        let y = self.prev.1 + (self.pos.1 - self.prev.1) * a;
        let ball = Rect::new(x.round() as i32, y.round() as i32, BALL, BALL);
        let color = 8 + (self.bounces % 4) as u8;
        ctx.draw_rect_fill(ball, color);
        ctx.draw_rect(ball, 7);

        ctx.print(4, 2, format_args!("tick {ticks}"), 6);
        ctx.print(4, 16, format_args!("{:.2} s", ctx.time_seconds()), 6);
    }
}
