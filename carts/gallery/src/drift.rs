//! `drift`: a cart that breaks the loop's first rule on purpose, for `bt verify`'s own test.
//!
//! Its ball moves in `update`, as it should, but `render` also nudges it through a `Cell`: the
//! simulation then depends on how many frames were drawn, so a 240 Hz display moves it faster
//! than a 30 Hz one. `bt verify drift` must catch it. Hidden from `bt list`.

use std::cell::Cell;

use bt::{Cart, Render, Settings, Update};

/// What `drift` is for.
pub const DESCRIPTION: &str = "steps its simulation in render (wrongly); bt verify catches it";

/// The ball: moved one pixel per update, and (the bug) one more per frame drawn.
#[derive(Debug, Clone, Default)]
pub struct Drift {
    x: Cell<i32>,
}

/// A fresh `drift` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Drift::default())
}

impl Cart for Drift {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().display(64, 16)
    }

    fn update(&mut self, _ctx: &mut Update<'_>) {
        self.x.set((self.x.get() + 1) % 64);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        // The bug: drawing a frame moves the simulation.
        self.x.set((self.x.get() + 1) % 64);
        ctx.clear(1);
        ctx.draw_circle_fill(self.x.get(), 8, 3, 8);
    }
}
