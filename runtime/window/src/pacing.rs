//! When the window makes its next frame: a grid of the monitor's refreshes, and short waits.

use std::time::{Duration, Instant};

use super::IDLE_POLL;

/// How long to sleep when the next paced frame is `ms_ahead` away: at most [`IDLE_POLL`], so
/// gamepads and `--exit-after` are looked at while a slow clock waits, and never a panic for a
/// wait no `Duration` can hold.
pub(crate) fn paced_wait(ms_ahead: f64) -> Duration {
    Duration::try_from_secs_f64(ms_ahead / 1000.0)
        .unwrap_or(IDLE_POLL)
        .min(IDLE_POLL)
}

/// What the next frame's time is counted from, for a frame made at `now` that was due at `due`
/// with `interval` between frames: its due time, so frames keep to a grid of refreshes and one
/// that began late does not push every later one back (counted from when each began, a 60 Hz
/// window woken a little late each time presented 57 frames a second); `now` when it began a
/// whole interval or more late (the window was hidden, or the machine stalled), so the grid
/// starts again rather than hurrying to catch up. Frames are paced from when they begin, so a
/// frame's own cost does not stretch the interval.
pub(crate) fn paced_origin(
    due: Option<Instant>,
    interval: Option<Duration>,
    now: Instant,
) -> Instant {
    match (due, interval) {
        (Some(due), Some(interval)) if now >= due && now - due < interval => due,
        _ => now,
    }
}

/// One refresh of a monitor reporting `millihertz`, or of a 60 Hz one when it reports nothing
/// usable.
pub(crate) fn refresh_interval(millihertz: Option<u32>) -> Duration {
    let hz = millihertz
        .filter(|&mhz| mhz >= 1_000)
        .map_or(60.0, |mhz| f64::from(mhz) / 1000.0);
    Duration::from_secs_f64(1.0 / hz)
}
