//! `panic`: a cart that panics on purpose, for the tests of how BT reports a cart that panics.
//! It is in the gallery's list, so `bt shot panic ...` runs it, but hidden from `bt list`.
//!
//! Arguments: `panic_in` is `init`, `update` (the default) or `render`; `panic_at` is the tick
//! (default 0): the update that sees that tick panics, or the first render at or after it.
//! `quit_at` (a tick) makes it quit instead of panicking, in the update that sees that tick,
//! for the tests of how BT reports a cart that quits.

use bt::{Cart, CartError, Render, Update};

/// One line for the list (which hides it).
pub const DESCRIPTION: &str =
    "panics on purpose (--arg panic_in=init|update|render, --arg panic_at=TICK), or quits \
     (--arg quit_at=TICK), for tests";

/// Which of the cart's calls panics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Call {
    Init,
    #[default]
    Update,
    Render,
}

/// The cart's state: when to panic.
#[derive(Debug, Clone, Default)]
pub struct Panicky {
    call: Call,
    at: u64,
    /// Quit, rather than panic, in the update that sees this tick.
    quit_at: Option<u64>,
}

/// A fresh `panic` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Panicky::default())
}

impl Cart for Panicky {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.at = ctx.arg_or("panic_at", 0)?;
        if ctx.arg("quit_at").is_some() {
            self.quit_at = Some(ctx.arg_or("quit_at", 0)?);
        }
        self.call = match ctx.arg("panic_in").unwrap_or("update") {
            "init" => Call::Init,
            "update" => Call::Update,
            "render" => Call::Render,
            other => {
                return Err(CartError::msg(format!(
                    "argument panic_in={other}: expected init, update or render"
                )))
            }
        };
        if self.call == Call::Init && self.quit_at.is_none() {
            panic!("asked to panic in init");
        }
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if let Some(at) = self.quit_at {
            if ctx.ticks() == at {
                ctx.quit();
            }
            return;
        }
        if self.call == Call::Update && ctx.ticks() == self.at {
            panic!("asked to panic in update at tick {}", self.at);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.print(8, 8, format_args!("tick {}", ctx.ticks()), 7);
        if self.quit_at.is_none() && self.call == Call::Render && ctx.ticks() >= self.at {
            panic!("asked to panic in render at tick {}", self.at);
        }
    }
}
