//! Where time becomes updates: the fixed-step accumulator that turns frame times into whole
//! simulation updates, and [`tick_at`], the one rule that turns a time of play into the update
//! it comes to (`bt shot --at`, `render_at`, every flag given in seconds).

use thiserror::Error;

use crate::quote::number;

/// The most updates one frame may run. Past this the frame's extra time is thrown away: catching
/// up on a long stall (a breakpoint, a suspended laptop, a slow load) would make the next frame
/// slower still and the game would stop responding, the "spiral of death".
pub const MAX_STEPS: u32 = 8;

/// A frame time within this many milliseconds of a whole number of update intervals counts as
/// exactly that many. Coarse timers report a 60 Hz display as 16, 17, 17, 16 ms; without the
/// snap that jitter becomes a visible 0/1/2-update beat.
pub const SNAP_MS: f64 = 2.0;

/// Slack when deciding whether the accumulator holds a whole interval, so float rounding cannot
/// make a display running exactly at `target_fps` alternate between 0 and 2 updates a frame.
pub const SLACK_MS: f64 = 0.001;

/// Why a loop could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum LoopError {
    /// `target_fps` was zero, negative, NaN or infinite.
    #[error("target_fps must be finite and positive, got {}", number(*.0))]
    TargetFps(f64),
}

/// The last update a time of play converts to: 2^53, the largest count below which an `f64`
/// holds every whole number, so that a tick and `tick / fps` seconds name one another exactly.
/// At 10,000 updates a second it is over 28,000 years of play.
pub const MAX_TICK: u64 = 1 << 53;

/// Why a time of play names no update.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum TimeError {
    /// Seconds that are negative, NaN or infinite.
    #[error("seconds must be finite and not negative, got {}", number(*.0))]
    Seconds(f64),
    /// An update rate that is zero, negative, NaN or infinite.
    #[error("target_fps must be finite and positive, got {}", number(*.0))]
    TargetFps(f64),
    /// Seconds that come to an update past [`MAX_TICK`].
    #[error(
        "{} s at {} updates a second is past update {MAX_TICK}, the last one counted",
        number(*.seconds),
        number(*.fps)
    )]
    Beyond {
        /// The seconds asked for.
        seconds: f64,
        /// The update rate.
        fps: f64,
    },
}

/// The update that `seconds` of simulated play at `fps` updates a second come to: the
/// nearest whole number of updates, `round(seconds × fps)`, halves rounded up. The frame at a
/// time is the frame after that many updates since `init`; every seek, every flag given in
/// seconds and [`Engine::render_at`](crate::Engine::render_at) counts with this one rule, so
/// two of them never disagree about a time.
///
/// ```
/// use bt_engine::fixed_loop::{tick_at, TimeError};
///
/// assert_eq!(tick_at(3.2, 60.0), Ok(192));
/// assert_eq!(tick_at(0.0083, 60.0), Ok(0)); // 0.498 of an update
/// assert_eq!(tick_at(0.025, 60.0), Ok(2)); // 1.5 updates round up
/// assert_eq!(tick_at(-1.0, 60.0), Err(TimeError::Seconds(-1.0)));
/// ```
///
/// # Errors
/// [`TimeError::Seconds`] for seconds that are negative, NaN or infinite,
/// [`TimeError::TargetFps`] for a rate that is not finite and positive, and
/// [`TimeError::Beyond`] past [`MAX_TICK`] updates.
pub fn tick_at(seconds: f64, fps: f64) -> Result<u64, TimeError> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(TimeError::TargetFps(fps));
    }
    // `-0.0 < 0.0` is false: minus zero is the start, as zero is.
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(TimeError::Seconds(seconds));
    }
    let tick = (seconds * fps).round();
    if tick > MAX_TICK as f64 {
        return Err(TimeError::Beyond { seconds, fps });
    }
    // A whole number from 0 to 2^53: `as` is exact.
    Ok(tick as u64)
}

/// What one frame of the loop did: the loop's own answer, with no clock or cart in it.
///
/// The engine files it into its [`FrameReport`](crate::FrameReport) (`render_alpha` there, the
/// other fields in the overlay's `FrameStats` beside the frame's measured times).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameTiming {
    /// How many updates ran (0 to [`MAX_STEPS`]).
    pub updates: u32,
    /// How far the leftover time reaches into the next update, in `[0, 1)`.
    pub render_alpha: f64,
    /// Whether the accumulator held more than [`MAX_STEPS`] intervals and was cut back.
    pub clamped: bool,
    /// Milliseconds thrown away by that cut (0 when not clamped).
    pub discarded_ms: f64,
}

/// What the loop does with its tick counter after an update returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickAction {
    /// Count the update: `ticks += 1`.
    Advance,
    /// The cart asked for a reset: the next update sees tick 0.
    Reset,
}

/// A fixed-step loop: pure, with no clock, window or sleep in it.
///
/// Feed it each displayed frame's duration; it runs the updates that time pays for and says how
/// far into the next update the leftover reaches.
///
/// ```
/// use bt_engine::{FixedLoop, TickAction};
///
/// let mut lp = FixedLoop::new(60.0)?;
/// let mut seen = Vec::new();
/// let t = lp.frame(1000.0 / 30.0, |tick| {
///     seen.push(tick);
///     TickAction::Advance
/// });
/// assert_eq!((t.updates, seen, lp.ticks()), (2, vec![0, 1], 2));
/// # Ok::<(), bt_engine::LoopError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FixedLoop {
    interval_ms: f64,
    accumulator_ms: f64,
    ticks: u64,
}

impl FixedLoop {
    /// A loop running `target_fps` updates per second.
    ///
    /// # Errors
    /// [`LoopError::TargetFps`] unless `target_fps` is finite and positive.
    pub fn new(target_fps: f64) -> Result<FixedLoop, LoopError> {
        if !(target_fps.is_finite() && target_fps > 0.0) {
            return Err(LoopError::TargetFps(target_fps));
        }
        Ok(FixedLoop {
            interval_ms: 1000.0 / target_fps,
            accumulator_ms: 0.0,
            ticks: 0,
        })
    }

    /// Milliseconds per update.
    pub fn interval_ms(&self) -> f64 {
        self.interval_ms
    }

    /// The tick counter: updates counted since the start or the last reset.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Unspent time, in milliseconds.
    pub fn accumulator_ms(&self) -> f64 {
        self.accumulator_ms
    }

    /// Sets the tick counter to 0 and drops the unspent time.
    pub fn reset(&mut self) {
        self.ticks = 0;
        self.accumulator_ms = 0.0;
    }

    /// Sets the tick counter to `ticks` and drops the unspent time: the loop as it was at a
    /// snapshot, between two frames.
    pub fn restore_ticks(&mut self, ticks: u64) {
        self.ticks = ticks;
        self.accumulator_ms = 0.0;
    }

    /// Drops the unspent time (used when the loop resumes after a pause).
    pub fn discard_leftover(&mut self) {
        self.accumulator_ms = 0.0;
    }

    /// The frame time after the snap: within [`SNAP_MS`] of a whole, non-zero number of
    /// intervals it becomes exactly that many intervals.
    pub fn snap(&self, delta_ms: f64) -> f64 {
        let k = (delta_ms / self.interval_ms).round();
        if k >= 1.0 && (delta_ms - k * self.interval_ms).abs() <= SNAP_MS {
            k * self.interval_ms
        } else {
            delta_ms
        }
    }

    /// Runs one displayed frame of `delta_ms` milliseconds, calling `update` with the current
    /// tick for every update it pays for. A negative or non-finite delta counts as 0.
    pub fn frame(
        &mut self,
        delta_ms: f64,
        mut update: impl FnMut(u64) -> TickAction,
    ) -> FrameTiming {
        let delta_ms = if delta_ms.is_finite() && delta_ms > 0.0 {
            delta_ms
        } else {
            0.0
        };
        self.accumulator_ms += self.snap(delta_ms);

        let cap = self.interval_ms * f64::from(MAX_STEPS);
        let (clamped, discarded_ms) = if self.accumulator_ms > cap {
            let discarded = self.accumulator_ms - cap;
            self.accumulator_ms = cap;
            (true, discarded)
        } else {
            (false, 0.0)
        };

        let due = ((self.accumulator_ms + SLACK_MS) / self.interval_ms).floor();
        let updates = (due as u32).min(MAX_STEPS);
        self.accumulator_ms =
            (self.accumulator_ms - f64::from(updates) * self.interval_ms).max(0.0);
        self.run(u64::from(updates), &mut update);

        FrameTiming {
            updates,
            render_alpha: self.render_alpha(),
            clamped,
            discarded_ms,
        }
    }

    /// Runs exactly `count` updates with no time accounting and no cap, and leaves no unspent
    /// time: how `render_at` and `Engine::step` reach a tick.
    pub fn step(&mut self, count: u64, mut update: impl FnMut(u64) -> TickAction) {
        self.accumulator_ms = 0.0;
        self.run(count, &mut update);
    }

    fn run(&mut self, count: u64, update: &mut impl FnMut(u64) -> TickAction) {
        for _ in 0..count {
            match update(self.ticks) {
                TickAction::Advance => self.ticks += 1,
                TickAction::Reset => self.ticks = 0,
            }
        }
    }

    /// The leftover as a fraction of an interval, kept in `[0, 1)`.
    pub fn render_alpha(&self) -> f64 {
        (self.accumulator_ms / self.interval_ms).clamp(0.0, 1.0 - f64::EPSILON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IV60: f64 = 1000.0 / 60.0;

    fn count(lp: &mut FixedLoop, delta: f64) -> FrameTiming {
        lp.frame(delta, |_| TickAction::Advance)
    }

    #[test]
    fn tick_at_rounds_to_the_nearest_update_and_halves_up() {
        assert_eq!(tick_at(3.2, 60.0), Ok(192));
        assert_eq!(tick_at(0.0083, 60.0), Ok(0));
        assert_eq!(tick_at(0.0084, 60.0), Ok(1));
        // Exact halves in binary: 1.5 and 0.5 updates.
        assert_eq!(tick_at(0.5, 3.0), Ok(2));
        assert_eq!(tick_at(0.25, 2.0), Ok(1));
        assert_eq!(tick_at(0.0, 60.0), Ok(0));
        assert_eq!(tick_at(-0.0, 60.0), Ok(0));
        assert_eq!(tick_at(MAX_TICK as f64, 1.0), Ok(MAX_TICK));
    }

    #[test]
    fn tick_at_refuses_what_is_no_time_of_play_and_names_it() {
        for bad in [-0.5, -1e-300, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            match tick_at(bad, 60.0) {
                Err(TimeError::Seconds(got)) => assert!(got.to_bits() == bad.to_bits(), "{got}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        assert_eq!(
            tick_at(-2.0, 60.0).unwrap_err().to_string(),
            "seconds must be finite and not negative, got -2"
        );
        assert_eq!(
            tick_at(f64::NAN, 60.0).unwrap_err().to_string(),
            "seconds must be finite and not negative, got NaN"
        );
        let far = tick_at(1e300, 60.0).unwrap_err();
        assert_eq!(
            far,
            TimeError::Beyond {
                seconds: 1e300,
                fps: 60.0
            }
        );
        assert_eq!(
            far.to_string(),
            "1e300 s at 60 updates a second is past update 9007199254740992, the last one counted"
        );
        assert!(matches!(
            tick_at(MAX_TICK as f64 * 2.0, 1.0),
            Err(TimeError::Beyond { .. })
        ));
        for fps in [0.0, -60.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(tick_at(1.0, fps), Err(TimeError::TargetFps(_))),
                "{fps}"
            );
        }
        assert_eq!(
            tick_at(1.0, 0.0).unwrap_err().to_string(),
            "target_fps must be finite and positive, got 0"
        );
    }

    #[test]
    fn bad_target_fps_is_named() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = FixedLoop::new(bad).unwrap_err();
            assert!(err.to_string().ends_with(&format!("got {bad}")), "{err}");
        }
    }

    #[test]
    fn cap_runs_eight_updates_and_reports_discarded_time() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        let t = count(&mut lp, 500.0);
        assert_eq!(t.updates, MAX_STEPS);
        assert!(t.clamped);
        assert!(
            (t.discarded_ms - (500.0 - 8.0 * IV60)).abs() < 1e-9,
            "{}",
            t.discarded_ms
        );
        assert_eq!(t.render_alpha, 0.0);
        assert_eq!(lp.ticks(), 8);
        // Nothing is owed afterwards: the next ordinary frame runs one update.
        let t = count(&mut lp, IV60);
        assert_eq!((t.updates, t.clamped, t.discarded_ms), (1, false, 0.0));
    }

    #[test]
    fn exactly_eight_intervals_is_not_clamped() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        let t = count(&mut lp, 8.0 * IV60);
        assert_eq!((t.updates, t.clamped), (8, false));
    }

    #[test]
    fn coarse_16_and_17_ms_frames_snap_to_one_update_each() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        for (i, d) in [16.0, 17.0, 17.0, 16.0, 17.0, 16.0]
            .into_iter()
            .cycle()
            .take(600)
            .enumerate()
        {
            assert_eq!(count(&mut lp, d).updates, 1, "frame {i} of {d} ms");
        }
    }

    #[test]
    fn snap_leaves_far_deltas_and_sub_interval_deltas_alone() {
        let lp = FixedLoop::new(60.0).unwrap();
        assert_eq!(lp.snap(2.0), 2.0, "no k = 0 case");
        assert_eq!(lp.snap(25.0), 25.0);
        assert_eq!(lp.snap(34.0), 2.0 * IV60);
        assert_eq!(lp.snap(IV60 - 2.0), IV60);
        assert_eq!(lp.snap(IV60 - 2.01), IV60 - 2.01);
    }

    #[test]
    fn two_ms_frames_still_move_the_game() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        let updates: u32 = (0..500).map(|_| count(&mut lp, 2.0).updates).sum();
        // 1000 ms of 2-ms frames is 60 updates (give or take the last partial interval).
        assert!((59..=60).contains(&updates), "{updates}");
    }

    #[test]
    fn sixty_hz_drives_sixty_fps_one_update_on_every_one_of_a_million_frames() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        for i in 0..1_000_000u32 {
            let t = count(&mut lp, IV60);
            assert_eq!(t.updates, 1, "frame {i}");
            assert!(t.render_alpha < 1e-6, "frame {i}: alpha {}", t.render_alpha);
        }
        assert_eq!(lp.ticks(), 1_000_000);
    }

    #[test]
    fn hundred_twenty_hz_alternates_zero_and_one_update() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        let pattern: Vec<u32> = (0..8).map(|_| count(&mut lp, IV60 / 2.0).updates).collect();
        assert_eq!(pattern, [0, 1, 0, 1, 0, 1, 0, 1]);
        // Half-way frames report alpha one half.
        let t = count(&mut lp, IV60 / 2.0);
        assert!((t.render_alpha - 0.5).abs() < 1e-9, "{}", t.render_alpha);
    }

    #[test]
    fn alpha_is_leftover_over_interval_and_below_one() {
        let mut lp = FixedLoop::new(50.0).unwrap();
        let t = count(&mut lp, 25.0);
        assert_eq!(t.updates, 1);
        assert!((t.render_alpha - 0.25).abs() < 1e-12);
        let t = count(&mut lp, 19.999);
        assert!(t.render_alpha < 1.0 && t.render_alpha >= 0.0);
    }

    #[test]
    fn bad_deltas_count_as_zero() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        for d in [f64::NAN, -5.0, f64::NEG_INFINITY, f64::INFINITY] {
            assert_eq!(count(&mut lp, d), FrameTiming::default());
        }
    }

    #[test]
    fn reset_action_restarts_the_counter_for_the_next_update() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        let mut seen = Vec::new();
        lp.frame(4.0 * IV60, |tick| {
            seen.push(tick);
            if tick == 1 {
                TickAction::Reset
            } else {
                TickAction::Advance
            }
        });
        assert_eq!(seen, [0, 1, 0, 1]);
    }

    #[test]
    fn step_runs_uncapped_and_leaves_no_leftover() {
        let mut lp = FixedLoop::new(60.0).unwrap();
        count(&mut lp, IV60 * 1.5);
        lp.step(100, |_| TickAction::Advance);
        assert_eq!(lp.ticks(), 101);
        assert_eq!(lp.render_alpha(), 0.0);
    }
}
