//! `tally`: counts player 1's presses of A (Z on the keyboard) in its save data, for the test
//! that save data a real window's run changes is written back. Hidden from `bt list`.
//!
//! Save data slot [`PRESSES`] holds the count, read at boot and raised by one for every press,
//! so a run booted with `n` that sees `k` presses leaves `n + k` there; the rest of the block
//! stays zeros. The screen shows the count.

use bt::{Button, Cart, CartError, Player, Render, Settings, Update};

/// What `tally` is for.
pub const DESCRIPTION: &str = "counts presses of A in save data slot 0, for the save test";
/// The save data slot holding the count.
pub const PRESSES: u8 = 0;

/// The count, as the save data holds it.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    presses: i32,
}

/// A fresh `tally` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Tally::default())
}

impl Cart for Tally {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default()
            .display(96, 32)
            .target_fps(60.0)
            .title("tally")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.presses = ctx.save().get(PRESSES);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_pressed(Button::A, Player::ONE) {
            self.presses = self.presses.saturating_add(1);
            ctx.save_mut().set(PRESSES, self.presses);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.print(4, 10, format_args!("A x {}", self.presses), 7);
    }
}
