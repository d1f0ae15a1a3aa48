//! `paint`: draw with the pointer. Button A (left) paints in the chosen colour, B (right) erases,
//! C (middle) picks up the colour under the pointer, D (back/forward) clears the canvas. The wheel
//! or `[` and `]` change the brush; a click on the palette bar chooses a colour. Strokes join the
//! pointer's positions from one update to the next, so fast moves draw unbroken lines.
//!
//! The colour and the brush are kept in save data (slots [`COLOUR_SLOT`] and [`BRUSH_SLOT`]),
//! so the next run starts with them.

use bt::{Button, Cart, Key, Player, Rect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str =
    "pointer painting: A paints, B erases, C picks, D clears, wheel sizes";

/// The canvas colour.
pub const PAPER: u8 = 7;
/// Height of the palette bar at the bottom, in pixels.
pub const BAR: i32 = 16;
/// Width of one colour swatch.
pub const SWATCH: i32 = 14;
/// Where the swatches start: right of the overlay's toggle corner.
pub const SWATCH_LEFT: i32 = 24;
/// The largest brush, in pixels across.
pub const MAX_BRUSH: i32 = 9;
/// The save data slot keeping the chosen colour (0: none chosen yet).
pub const COLOUR_SLOT: u8 = 0;
/// The save data slot keeping the brush size (0: none chosen yet).
pub const BRUSH_SLOT: u8 = 1;
/// The colour and brush of a first run.
const FIRST: (u8, i32) = (8, 3);

/// Where the swatch of palette index `i` (1 to 15; index 0 draws nothing) is drawn, on a display `height` pixels high.
pub fn swatch_rect(i: u8, height: i32) -> Rect {
    Rect::new(
        SWATCH_LEFT + i32::from(i) * (SWATCH + 1),
        height - BAR + 1,
        SWATCH,
        BAR - 2,
    )
}

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Paint {
    w: i32,
    h: i32,
    canvas: Vec<u8>,
    colour: u8,
    brush: i32,
    /// Where the stroke in progress last reached, and its ink.
    last: Option<((i32, i32), u8)>,
    pointer: (i32, i32),
    wheel: f32,
    /// The colour and brush the save data holds.
    kept: (u8, i32),
}

/// A fresh `paint` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Paint::default())
}

impl Paint {
    /// The canvas colour at a pixel, if it is on the canvas.
    pub fn canvas_at(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.w || y >= self.h - BAR {
            return None;
        }
        self.canvas.get((y * self.w + x) as usize).copied()
    }

    fn dab(&mut self, x: i32, y: i32, colour: u8) {
        let r = self.brush / 2;
        for dy in -r..=r {
            for dx in -r..=r {
                let (px, py) = (x + dx, y + dy);
                if px >= 0 && py >= 0 && px < self.w && py < self.h - BAR {
                    self.canvas[(py * self.w + px) as usize] = colour;
                }
            }
        }
    }

    /// One update of the pointer, the wheel and the keys: brush, colour and strokes.
    fn follow(&mut self, ctx: &mut Update<'_>) {
        let pos = ctx.pointer_pos();
        self.pointer = pos;
        self.wheel += ctx.pointer_wheel().1;
        if !self.wheel.is_finite() {
            self.wheel = 0.0;
        }
        // Each whole line turned down shrinks the brush a size, up grows it; the part of a line
        // left over waits for more. Counted at once, not line by line: a wheel value however
        // large costs the same.
        let lines = self.wheel.trunc();
        self.wheel -= lines;
        let steps = lines.clamp(-(MAX_BRUSH as f32), MAX_BRUSH as f32) as i32;
        self.brush = (self.brush - 2 * steps).clamp(1, MAX_BRUSH);
        if ctx.is_key_pressed(Key::BracketLeft) {
            self.brush = (self.brush - 2).max(1);
        }
        if ctx.is_key_pressed(Key::BracketRight) {
            self.brush = (self.brush + 2).min(MAX_BRUSH);
        }
        if ctx.is_pressed(Button::POINTER_D, Player::ONE) {
            self.canvas.fill(PAPER);
        }
        if ctx.is_pressed(Button::POINTER_C, Player::ONE) {
            if let Some(c) = self.canvas_at(pos.0, pos.1) {
                self.colour = c;
            }
        }
        let size = ctx.palette().len() as u8;
        if ctx.is_pressed(Button::POINTER_A, Player::ONE) {
            if let Some(i) =
                (1..size.min(16)).find(|&i| swatch_rect(i, self.h).contains(pos.0, pos.1))
            {
                self.colour = i;
                self.last = None;
                return;
            }
        }
        let ink = if ctx.is_down(Button::POINTER_A, Player::ONE) {
            Some(self.colour)
        } else if ctx.is_down(Button::POINTER_B, Player::ONE) {
            Some(PAPER)
        } else {
            None
        };
        match ink {
            Some(c) => {
                // A tap seen as pressed and already released still leaves a dot.
                let from = match self.last {
                    Some((at, ink)) if ink == c => at,
                    _ => pos,
                };
                self.stroke(from, pos, c);
                let held = ctx.is_down(Button::POINTER_A | Button::POINTER_B, Player::ONE)
                    && !ctx.is_released(Button::POINTER_A | Button::POINTER_B, Player::ONE);
                self.last = held.then_some((pos, c));
            }
            None => self.last = None,
        }
    }

    /// Dabs the brush along the line from `a` to `b`, both ends included.
    fn stroke(&mut self, a: (i32, i32), b: (i32, i32), colour: u8) {
        let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).max(1);
        for i in 0..=steps {
            let x = a.0 + (b.0 - a.0) * i / steps;
            let y = a.1 + (b.1 - a.1) * i / steps;
            self.dab(x, y, colour);
        }
    }
}

impl Cart for Paint {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn snapshot_bytes(&self) -> usize {
        std::mem::size_of::<Paint>() + self.canvas.len()
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Paint")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        let (w, h) = ctx.display_size();
        (self.w, self.h) = (w as i32, h as i32);
        self.canvas = vec![PAPER; (w * h) as usize];
        // What an earlier run kept, when it is a colour and a brush this cart draws with.
        let colour = u8::try_from(ctx.save().get(COLOUR_SLOT))
            .ok()
            .filter(|c| (1..16).contains(c))
            .unwrap_or(FIRST.0);
        let brush = Some(ctx.save().get(BRUSH_SLOT))
            .filter(|b| (1..=MAX_BRUSH).contains(b) && b % 2 == 1)
            .unwrap_or(FIRST.1);
        (self.colour, self.brush) = (colour, brush);
        self.kept = (colour, brush);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        self.follow(ctx);
        if (self.colour, self.brush) != self.kept {
            self.kept = (self.colour, self.brush);
            ctx.save_mut().set(COLOUR_SLOT, i32::from(self.colour));
            ctx.save_mut().set(BRUSH_SLOT, self.brush);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        // Index 0 draws nothing, so the bar is the cleared screen and the canvas is filled over it.
        ctx.clear(0);
        ctx.draw_rect_fill(Rect::new(0, 0, self.w, self.h - BAR), PAPER);
        for y in 0..self.h - BAR {
            let row = &self.canvas[(y * self.w) as usize..((y + 1) * self.w) as usize];
            let mut x = 0;
            while x < self.w {
                let c = row[x as usize];
                let run = row[x as usize..].iter().take_while(|&&v| v == c).count() as i32;
                if c != PAPER {
                    ctx.draw_rect_fill(Rect::new(x, y, run, 1), c);
                }
                x += run;
            }
        }
        let size = ctx.palette().len().min(16) as u8;
        for i in 1..size {
            let r = swatch_rect(i, self.h);
            ctx.draw_rect_fill(r, i);
            if i == self.colour {
                ctx.draw_rect(Rect::new(r.x - 1, r.y - 1, r.w + 2, r.h + 2), 7);
            }
        }
        let right = SWATCH_LEFT + i32::from(size) * (SWATCH + 1) + 4;
        ctx.print(right, self.h - BAR + 2, format_args!("{}px", self.brush), 7);
        let (px, py) = self.pointer;
        if py < self.h - BAR {
            let r = self.brush / 2;
            let outline = 5;
            ctx.draw_rect(
                Rect::new(px - r - 1, py - r - 1, self.brush + 2, self.brush + 2),
                outline,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::host::Console;
    use bt::host::{Console as WheelConsole, TickInput as WheelTick};

    fn step(p: &mut Paint, con: &mut Console, tick: u64) {
        p.update(&mut con.update_context(tick));
    }

    #[test]
    fn a_drag_paints_a_joined_stroke_and_b_erases() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut p = Paint::default();
        p.init(&mut con.init_context()).unwrap();
        con.input_mut().set_pointer_pos(10, 10);
        con.input_mut()
            .set_buttons(Button::POINTER_A, Player::ONE, true);
        step(&mut p, &mut con, 0);
        con.input_mut().set_pointer_pos(60, 10);
        step(&mut p, &mut con, 1);
        for x in 10..=60 {
            assert_eq!(p.canvas_at(x, 10), Some(8), "x {x}");
        }
        con.input_mut()
            .set_buttons(Button::POINTER_A, Player::ONE, false);
        con.input_mut()
            .set_buttons(Button::POINTER_B, Player::ONE, true);
        con.input_mut().set_pointer_pos(30, 10);
        step(&mut p, &mut con, 2);
        assert_eq!(p.canvas_at(30, 10), Some(PAPER));
        assert_eq!(p.canvas_at(50, 10), Some(8));
    }

    #[test]
    fn a_swatch_click_chooses_the_colour_without_painting() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut p = Paint::default();
        p.init(&mut con.init_context()).unwrap();
        let r = swatch_rect(12, 240);
        con.input_mut().set_pointer_pos(r.x + 2, r.y + 2);
        con.input_mut()
            .set_buttons(Button::POINTER_A, Player::ONE, true);
        step(&mut p, &mut con, 0);
        assert_eq!(p.colour, 12);
    }

    #[test]
    fn the_colour_and_brush_are_kept_for_the_next_run() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut p = Paint::default();
        p.init(&mut con.init_context()).unwrap();
        assert_eq!((p.colour, p.brush), FIRST, "a first run");
        let r = swatch_rect(12, 240);
        con.input_mut().set_pointer_pos(r.x + 2, r.y + 2);
        con.input_mut()
            .set_buttons(Button::POINTER_A, Player::ONE, true);
        step(&mut p, &mut con, 0);
        assert_eq!(con.save().get(COLOUR_SLOT), 12);
        assert_eq!(con.save().get(BRUSH_SLOT), 3);
        let kept = con.save().bytes().to_vec();

        let mut next = Console::new(&Settings::default(), 1);
        next.set_boot_save(&kept).unwrap();
        let mut p = Paint::default();
        p.init(&mut next.init_context()).unwrap();
        assert_eq!((p.colour, p.brush), (12, 3));

        // What no run of this cart keeps starts as a first run.
        let mut odd = Console::new(&Settings::default(), 1);
        let mut block = 99i32.to_le_bytes().to_vec();
        block.extend_from_slice(&4i32.to_le_bytes());
        odd.set_boot_save(&block).unwrap();
        let mut p = Paint::default();
        p.init(&mut odd.init_context()).unwrap();
        assert_eq!((p.colour, p.brush), FIRST);
    }

    #[test]
    fn any_wheel_value_resizes_the_brush_at_once() {
        let mut cart = Paint::default();
        let settings = cart.configure();
        let mut console = WheelConsole::new(&settings, 0);
        cart.init(&mut console.init_context()).unwrap();
        let mut tick = WheelTick::default();
        for (wheel, brush) in [
            (-1.0, 5),
            (-1e30, MAX_BRUSH),
            (1e30, 1),
            (f32::MAX, 1),
            (-2.5, 5),
        ] {
            tick.pointer_wheel = (0.0, wheel);
            cart.update(&mut console.update_context_replayed(0, &tick));
            assert_eq!(cart.brush, brush, "after a wheel of {wheel}");
        }
    }
}
