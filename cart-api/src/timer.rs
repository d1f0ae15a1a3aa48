//! Tick-based timers for periodic gameplay events.

use thiserror::Error;

/// Why a [`Timer`] could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TimerError {
    /// The interval was zero ticks; a timer has to wait at least one tick between fires.
    #[error("Timer interval_ticks must be a positive number of ticks, got {0}")]
    ZeroInterval(u64),
}

/// Fires once every `interval_ticks` fixed updates.
///
/// A timer counts simulation ticks, never wall time or rendered frames, so it behaves the same at
/// any refresh rate and under `render_at`. Every method takes the tick it answers for: carts
/// pass `ctx.ticks()`, in `update` to fire and reset, in `render` too to draw progress. A time
/// in seconds becomes ticks with `ctx.ticks_in(Duration::from_millis(500))`, at the cart's rate.
///
/// A fire moves the baseline to the tick it fired on, not to `baseline + interval`: after a long
/// gap the timer fires once and then waits a whole interval again, it never fires in a burst to
/// catch up. When the tick it is asked about lies *before* its baseline (the cart called
/// `reset_ticks`, or the engine replayed from the start) it takes that tick as its new baseline
/// and does not fire.
///
/// ```
/// use bt::Timer;
///
/// let mut spawn = Timer::new(3, 0)?;
/// let fired: Vec<u64> = (0..10).filter(|&t| spawn.fire_if_elapsed(t)).collect();
/// assert_eq!(fired, [3, 6, 9]);
/// # Ok::<(), bt::TimerError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timer {
    interval_ticks: u64,
    last_fired_tick: u64,
}

impl Timer {
    /// A timer that first fires `interval_ticks` after `start_tick`.
    ///
    /// # Errors
    /// [`TimerError::ZeroInterval`] when `interval_ticks` is 0.
    pub fn new(interval_ticks: u64, start_tick: u64) -> Result<Timer, TimerError> {
        if interval_ticks == 0 {
            return Err(TimerError::ZeroInterval(interval_ticks));
        }
        Ok(Timer {
            interval_ticks,
            last_fired_tick: start_tick,
        })
    }

    /// Returns `true` once a whole interval has passed since the baseline, and moves the
    /// baseline to `tick`. A `tick` behind the baseline re-bases the timer and returns `false`.
    pub fn fire_if_elapsed(&mut self, tick: u64) -> bool {
        if tick < self.last_fired_tick {
            self.last_fired_tick = tick;
            return false;
        }
        if self.elapsed_ticks(tick) < self.interval_ticks {
            return false;
        }
        self.last_fired_tick = tick;
        true
    }

    /// Restarts the interval from `tick`.
    pub fn reset(&mut self, tick: u64) {
        self.last_fired_tick = tick;
    }

    /// Ticks since the last fire or reset; 0 when `tick` is behind the baseline.
    pub fn elapsed_ticks(&self, tick: u64) -> u64 {
        tick.saturating_sub(self.last_fired_tick)
    }

    /// Ticks left until the next fire, between 0 and the interval.
    pub fn remaining_ticks(&self, tick: u64) -> u64 {
        self.interval_ticks.saturating_sub(self.elapsed_ticks(tick))
    }

    /// The interval this timer was made with.
    pub fn interval_ticks(&self) -> u64 {
        self.interval_ticks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_interval_is_refused_and_named() {
        let err = Timer::new(0, 5).unwrap_err();
        assert_eq!(err, TimerError::ZeroInterval(0));
        assert!(err.to_string().contains("got 0"), "{err}");
    }

    #[test]
    fn fires_every_interval_from_the_start_tick() {
        let mut t = Timer::new(4, 10).unwrap();
        let fired: Vec<u64> = (10..30).filter(|&k| t.fire_if_elapsed(k)).collect();
        assert_eq!(fired, [14, 18, 22, 26]);
    }

    #[test]
    fn long_gap_fires_once_then_waits_a_whole_interval() {
        let mut t = Timer::new(10, 0).unwrap();
        assert!(t.fire_if_elapsed(95));
        assert!(!t.fire_if_elapsed(96), "no catch-up burst");
        assert!(!t.fire_if_elapsed(104));
        assert!(t.fire_if_elapsed(105));
    }

    #[test]
    fn tick_behind_baseline_rebases_without_firing() {
        let mut t = Timer::new(5, 0).unwrap();
        assert!(t.fire_if_elapsed(100));
        // reset_ticks: the counter starts again from 0.
        assert!(!t.fire_if_elapsed(0));
        assert_eq!(t.elapsed_ticks(3), 3);
        assert!(!t.fire_if_elapsed(4));
        assert!(t.fire_if_elapsed(5));
    }

    #[test]
    fn elapsed_and_remaining_stay_in_range() {
        let mut t = Timer::new(6, 20).unwrap();
        assert_eq!(t.elapsed_ticks(10), 0, "behind the baseline");
        assert_eq!(t.remaining_ticks(10), 6);
        assert_eq!(t.remaining_ticks(24), 2);
        assert_eq!(t.remaining_ticks(40), 0);
        t.reset(40);
        assert_eq!(t.remaining_ticks(40), 6);
        assert_eq!(t.interval_ticks(), 6);
    }
}
