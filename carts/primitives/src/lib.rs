//! `primitives`: every drawing primitive of the render context on one screen, with a clip
//! window, a hole cut with `clear_rect`, and a few things that move so each moment differs.

use bt::{Cart, Font, Rect, Render, Settings, TextStyle, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "lines, rectangles, circles, text and a clip window, all primitives";

/// The cart's state: only a turning angle and a sweep position, both moved in `update`.
#[derive(Debug, Clone, Default)]
pub struct Primitives {
    angle: f32,
    sweep: i32,
}

/// A fresh `primitives` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Primitives::default())
}

impl Cart for Primitives {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Primitives")
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        self.angle = (ctx.ticks() as f32 * 0.03) % std::f32::consts::TAU;
        self.sweep = (ctx.ticks() % 120) as i32;
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.print(4, 2, "primitives", 7);

        // A fan of lines from one corner: Bresenham, both end points drawn.
        for i in 0..12 {
            ctx.draw_line((8, 30), (8 + i * 9, 110), 8 + (i % 8) as u8);
        }
        // A line turning round a centre.
        let (cx, cy) = (160, 70);
        let (s, c) = bt::math::sin_cosf(self.angle);
        let tip = (cx + (c * 40.0) as i32, cy + (s * 40.0) as i32);
        ctx.draw_line((cx, cy), tip, 10);
        ctx.draw_pixel(tip.0, tip.1, 7);

        // Rectangles: outline, filled, and a filled one with a hole cut back to blank.
        ctx.draw_rect(Rect::new(220, 24, 40, 30), 12);
        ctx.draw_rect_fill(Rect::new(268, 24, 40, 30), 9);
        ctx.clear_rect(Rect::new(280, 32, 16, 14), 0);

        // Circles: outlines of growing radius and a filled one.
        for r in [2, 5, 9, 14] {
            ctx.draw_circle(240, 90, r, 11);
        }
        ctx.draw_circle_fill(290, 90, 16, 14);
        ctx.draw_circle(290, 90, 16, 7);

        // A clip window: everything drawn inside is cut to it.
        let window = Rect::new(16, 130, 120, 60);
        ctx.draw_rect(Rect::new(15, 129, 122, 62), 6);
        ctx.set_clip(window);
        ctx.draw_circle_fill(16 + self.sweep, 160, 30, 8);
        ctx.draw_line((0, 130), (200, 200), 10);
        ctx.print(20 + self.sweep / 2, 150, "clipped text runs off", 7);
        ctx.reset_clip();

        // Text: measured to centre it, several lines, and a glyph the font lacks.
        let text = "multi-line text\ncentred by measure\nmissing glyph: \u{2603}";
        let (w, h) = Font::system().measure(text, TextStyle::new());
        let (w, h) = (w as i32, h as i32);
        let (x, y) = (230 - w / 2, 150);
        ctx.draw_rect(Rect::new(x - 3, y - 3, w + 6, h + 4), 5);
        ctx.print(x, y, text, 15);

        // Shapes far off screen are clipped, never a panic.
        ctx.draw_circle_fill(i32::MIN, i32::MIN, i32::MAX, 3);
        ctx.draw_line((i32::MIN, 230), (i32::MAX, 230), 13);
        ctx.print(4, 224, format_args!("tick {}", ctx.ticks()), 6);
    }
}
