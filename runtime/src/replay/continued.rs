//! Continuing a run in new code: the replay of the run so far plays from boot through the
//! engine's cart, at headless speed, and live play goes on from its last update. This is how
//! `bt dev` puts a rebuilt program at the tick the old one was on.

use crate::engine::{Engine, EngineError, Origin};

/// Where a continued run went live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Continued {
    /// Updates since `init` the replay held, all of them run.
    pub updates: u64,
    /// The tick counter there (which a cart that restarts itself sets back).
    pub ticks: u64,
}

/// Plays the replay `engine` was made with (see [`crate::session::SessionBuilder::replay`])
/// from boot to its last update, as one seek, then stops playing it and resumes live play: the
/// next update sees live input. An engine playing no replay goes live at boot. An engine that
/// records ([`Engine::start_recording`]) records the replayed updates too, so its recording
/// holds the whole run from boot.
///
/// # Errors
/// As [`Engine::render_at_tick`] from the start: [`EngineError::Panicked`] says the call and
/// the tick where the cart panicked on the way; the engine then stays paused with the panic.
pub fn play_to_end_then_live(engine: &mut Engine) -> Result<Continued, EngineError> {
    let updates = engine.replay().map_or(0, |r| r.ticks());
    engine.render_at_tick(updates, Origin::Start, |_, _| {})?;
    engine.stop_replay();
    engine.resume();
    Ok(Continued {
        updates,
        ticks: engine.ticks(),
    })
}
