//! Where `render_at` counts from.

/// The starting point of [`crate::Engine::render_at`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// Replay from boot: a freshly built cart, the boot seed, tick 0.
    #[default]
    Start,
    /// Step forward from where the engine is now; the target may not lie behind it.
    Current,
}
