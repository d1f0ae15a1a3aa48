//! [`Timing`]: the console's clock as a cart reads it, and its calls, written once for both
//! contexts.

use std::ops::Deref;

use crate::{Render, Update};

/// The console's clock as a cart reads it: the tick counter, the update rate, and the seconds
/// and tick counts reckoned from them.
///
/// Both contexts answer these calls alike (`ctx.ticks()`, `ctx.time_seconds()` in `update` and
/// in `render`): [`Update`] and [`Render`] each lend their `Timing` through `Deref`, so the
/// calls are written once, here, and need no import. `render` adds
/// [`Render::render_alpha`], which only a frame has.
///
/// ```
/// use std::time::Duration;
///
/// use bt::host::Console;
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default().target_fps(30.0), 0);
/// let ctx = con.update_context(90);
/// assert_eq!((ctx.ticks(), ctx.target_fps()), (90, 30.0));
/// assert_eq!((ctx.time_seconds(), ctx.ticks_in(Duration::from_secs(2))), (3.0, 60));
/// let ctx = con.render_context(90, 0.5);
/// assert_eq!(ctx.delta_seconds(), 1.0 / 30.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub(crate) ticks: u64,
    pub(crate) target_fps: f64,
    /// Read by [`Render::render_alpha`]; 0 outside a frame.
    pub(crate) render_alpha: f64,
}

impl Timing {
    /// The tick counter: how many updates have completed since boot or the last
    /// `reset_ticks`. The first update sees 0.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Fixed updates per second.
    pub fn target_fps(&self) -> f64 {
        self.target_fps
    }

    /// Seconds per fixed update: `1 / target_fps`.
    pub fn delta_seconds(&self) -> f64 {
        1.0 / self.target_fps
    }

    /// Simulated seconds: `ticks × delta_seconds`.
    pub fn time_seconds(&self) -> f64 {
        self.ticks as f64 / self.target_fps
    }

    /// How many updates `duration` spans at this cart's rate, rounded to the nearest (at
    /// least 0, at most `u64::MAX`): a time in seconds for a [`Timer`](crate::Timer), which
    /// counts updates.
    pub fn ticks_in(&self, duration: std::time::Duration) -> u64 {
        // `as` saturates: a duration of years at 1000 updates a second still fits.
        (duration.as_secs_f64() * self.target_fps).round() as u64
    }
}

impl Deref for Update<'_> {
    type Target = Timing;

    /// The console's clock, for the timing calls both contexts share.
    fn deref(&self) -> &Timing {
        &self.con.clock
    }
}

impl Deref for Render<'_> {
    type Target = Timing;

    /// The frame's clock, for the timing calls both contexts share.
    fn deref(&self) -> &Timing {
        &self.clock
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::host::Console;
    use crate::Settings;

    #[test]
    fn both_contexts_answer_the_timing_calls_from_the_same_clock() {
        let mut con = Console::new(&Settings::default().target_fps(20.0), 0);
        let u = con.update_context(50);
        let from_update = (
            u.ticks(),
            u.target_fps(),
            u.delta_seconds(),
            u.time_seconds(),
        );
        let in_update = u.ticks_in(Duration::from_millis(250));
        let r = con.render_context(50, 0.25);
        let from_render = (
            r.ticks(),
            r.target_fps(),
            r.delta_seconds(),
            r.time_seconds(),
        );
        assert_eq!(from_update, (50, 20.0, 0.05, 2.5));
        assert_eq!(from_render, from_update);
        assert_eq!((in_update, r.ticks_in(Duration::from_millis(250))), (5, 5));
        assert_eq!(r.render_alpha(), 0.25);
    }
}
