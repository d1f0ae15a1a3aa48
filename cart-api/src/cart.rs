//! The `Cart` trait, what a cart reports (errors, tags, overlay rows), and nothing of the host.

use std::fmt;

use thiserror::Error;

use crate::{Render, Settings, Update};

/// A failure a cart reports from [`Cart::init`]. Any error type converts into it with `?`.
pub struct CartError {
    message: String,
}

impl CartError {
    /// An error with a message of the cart's own.
    pub fn msg(message: impl Into<String>) -> CartError {
        CartError {
            message: message.into(),
        }
    }
}

impl<E: std::error::Error> From<E> for CartError {
    fn from(err: E) -> CartError {
        CartError::msg(err.to_string())
    }
}

impl fmt::Display for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CartError({:?})", self.message)
    }
}

/// A game for BT.
///
/// The console calls, in order: [`configure`](Cart::configure) once, [`init`](Cart::init) once,
/// then each displayed frame zero or more [`update`](Cart::update)s (the fixed step, `target_fps`
/// times a second however fast the display runs) followed by exactly one
/// [`render`](Cart::render).
///
/// Everything the game *is* changes in `update`. `render` gets `&self` and a context with no
/// input edges and no random numbers, so drawing can never change what happens next: the same
/// seed and the same per-tick input give the same run at any frame rate.
pub trait Cart {
    /// The console this cart wants. Called once, before `init`, on a freshly built cart.
    fn configure(&self) -> Settings {
        Settings::default()
    }

    /// Sets up the game. Runs with `ticks() == 0`, and again on a freshly built cart whenever the
    /// console replays from the start (`render_at` from the start).
    ///
    /// # Errors
    /// A [`CartError`] stops the console with its message.
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let _ = ctx;
        Ok(())
    }

    /// Advances the game by one fixed tick of [`delta_seconds`](crate::Timing::delta_seconds).
    fn update(&mut self, ctx: &mut Update<'_>);

    /// Draws the current state. The framebuffer starts each frame at index 0.
    fn render(&self, ctx: &mut Render<'_>);

    /// Loads the cart's files again after one changed on disk, keeping the game's state.
    ///
    /// `bt run` calls it between updates when a file in the cart's asset folder changes, so a
    /// sprite sheet saved from a paint program shows in the running game within a second. Load
    /// again what `init` loaded (a shared `load_assets` method serves both), and assign a new
    /// asset only once it loaded, so a broken file leaves the last good one in place. Headless
    /// commands never call it: they load assets once, in `init`.
    ///
    /// # Errors
    /// A [`CartError`] is shown on screen and the game plays on with what it had.
    fn reload(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let _ = ctx;
        Ok(())
    }

    /// Rows of the cart's own to show in the overlay; called only while the overlay is visible.
    fn overlay_rows(&self, rows: &mut OverlayRows) {
        let _ = rows;
    }

    /// What a test should know about the game now, as text the cart chooses (JSON reads well
    /// in a browser test): the player's position, the score, the level. The console never
    /// calls it while running; a cart's test reads it with `CartTest::test_state`, a web
    /// page's test with `window.bt.testState()`. `None` (the default) when the cart offers
    /// none.
    ///
    /// ```
    /// use bt::{Cart, Render, Update};
    ///
    /// struct Orbit {
    ///     angle: u32,
    /// }
    ///
    /// impl Cart for Orbit {
    ///     fn update(&mut self, ctx: &mut Update<'_>) {
    ///         self.angle = (ctx.ticks() / 16 % 360) as u32;
    ///     }
    ///     fn render(&self, ctx: &mut Render<'_>) {
    ///         ctx.clear(1);
    ///     }
    ///     fn test_state(&self) -> Option<String> {
    ///         Some(format!("{{\"angle\":{}}}", self.angle))
    ///     }
    /// }
    ///
    /// assert_eq!(Orbit { angle: 3 }.test_state().as_deref(), Some(r#"{"angle":3}"#));
    /// ```
    fn test_state(&self) -> Option<String> {
        None
    }

    /// A copy of the game as it is now, for the console to go back to: rewinding, seeking
    /// backwards, save states. A cart that derives `Clone` answers in one line with
    /// [`crate::cloned`]: `fn snapshot(&self) -> Option<Box<dyn Cart>> { bt::cloned(self) }`.
    ///
    /// The copy is taken between updates and never updated or rendered itself: the console
    /// restores it by asking it for a copy in turn. Keep large loaded data (sprite sheets,
    /// maps and sounds share theirs already) behind an `Arc` so a copy is cheap. `None` (the
    /// default) means the cart cannot be copied: seeks then replay from the start, and a
    /// rewind or a save state is refused with a message saying so.
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        None
    }

    /// About how many bytes a [`Cart::snapshot`] of the game holds, counted against the
    /// console's snapshot budget. The default counts the cart's own struct; a cart that keeps
    /// more than a few KiB on the heap (a list of thousands of things, a canvas) adds it.
    fn snapshot_bytes(&self) -> usize {
        std::mem::size_of_val(self)
    }
}

/// A tag placed on the overlay's timing chart by [`Update::assign_tag`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tick it was placed at.
    pub tick: u64,
    /// Its label.
    pub label: String,
}

/// Rows a cart adds to the overlay: a left text and an optional right text each.
///
/// The buffers are reused from frame to frame, so writing rows does not allocate once their
/// texts have reached their longest.
///
/// ```
/// use bt::OverlayRows;
///
/// let mut rows = OverlayRows::default();
/// rows.push(format_args!("Score {}", 120), "");
/// assert_eq!(rows.iter().next(), Some(("Score 120", "")));
/// ```
#[derive(Debug, Default)]
pub struct OverlayRows {
    rows: Vec<(String, String)>,
    len: usize,
}

impl OverlayRows {
    /// Adds a row.
    pub fn push(&mut self, left: impl fmt::Display, right: impl fmt::Display) {
        use fmt::Write as _;
        if self.len == self.rows.len() {
            self.rows.push((String::new(), String::new()));
        }
        let (l, r) = &mut self.rows[self.len];
        l.clear();
        r.clear();
        let _ = write!(l, "{left}");
        let _ = write!(r, "{right}");
        self.len += 1;
    }

    /// Removes all rows, keeping their buffers.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The rows, first pushed first.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.rows[..self.len]
            .iter()
            .map(|(l, r)| (l.as_str(), r.as_str()))
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A cart argument (`bt … --arg name=value`) whose value could not be read as the type wanted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("argument {name}={value}: {reason}")]
pub struct ArgError {
    /// The argument's name.
    pub name: String,
    /// The value given.
    pub value: String,
    /// Why it was refused.
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cart_error_converts_from_any_error() {
        fn parse() -> Result<u8, CartError> {
            Ok("300".parse::<u8>()?)
        }
        let err = parse().unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
    }
}
