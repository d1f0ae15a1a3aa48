//! Clocks: what decides how much simulated time each host frame is worth.
//!
//! The engine asks its one clock for a delta on every host tick. All times are milliseconds.
//! [`WallClock`] and [`PacedClock`] read the host's timestamp; [`ConstantClock`],
//! [`SequenceClock`] and [`JitterClock`] ignore it, so they give the same run whether the engine
//! is driven by a real window or stepped synchronously in a test, as does
//! [`capture::CaptureClock`], which plays a real run's frame times from a capture file.

pub mod capture;
/// Clocks as the command line names them (`paced:60`, `sequence:16,16,50`).
pub mod spec;

use std::fmt;
use thiserror::Error;

use crate::quote::number;

/// Decides each host tick's frame delta.
pub trait Clock {
    /// The delta for the host tick at `now_ms`, or `None` when this tick is not a frame (nothing
    /// runs and the frame count does not move).
    fn delta(&mut self, now_ms: f64) -> Option<f64>;

    /// When the clock will next deliver a frame, in host milliseconds, if it knows: a window host
    /// sleeps until then instead of asking every tick. `None` means "whenever the host next
    /// asks" (every clock but [`PacedClock`]).
    fn next_frame_ms(&self) -> Option<f64> {
        None
    }

    /// Forgets the host's last timestamp, so the next tick is taken as a first one: the engine
    /// calls it when play resumes after a pause, so the paused time is not caught up (as many
    /// updates at once as the clock's largest delta pays for: six at 60 a second under the
    /// default wall clock; a jump on screen and a burst of sound). Clocks that ignore
    /// timestamps keep their sequence.
    fn restart(&mut self) {}
}

impl fmt::Debug for dyn Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dyn Clock")
    }
}

/// Why a clock could not be made. Each message names the offending value.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ClockError {
    /// `WallClock` limit not finite and positive.
    #[error("WallClock max_delta_ms must be finite and positive, got {}", number(*.0))]
    WallMaxDelta(f64),
    /// `PacedClock` rate not finite and positive.
    #[error("PacedClock fps must be finite and positive, got {}", number(*.0))]
    PacedFps(f64),
    /// `PacedClock` resync threshold below 1.
    #[error("PacedClock resync_after must be at least 1, got {0}")]
    PacedResync(u32),
    /// `ConstantClock` step not finite and positive.
    #[error("ConstantClock step_ms must be finite and positive, got {}", number(*.0))]
    ConstantStep(f64),
    /// `SequenceClock` given no steps.
    #[error("SequenceClock needs at least one step, got none")]
    SequenceEmpty,
    /// A `SequenceClock` step not finite and positive.
    #[error(
        "SequenceClock step {index} must be finite and positive, got {}",
        number(*.value)
    )]
    SequenceStep {
        /// Position of the bad step in the list, from 0.
        index: usize,
        /// The bad step.
        value: f64,
    },
    /// `JitterClock` bounds not finite and positive, or `max_ms < min_ms`.
    #[error(
        "JitterClock bounds must be finite and positive with max_ms >= min_ms, \
         got min_ms {} and max_ms {}",
        number(*.min_ms),
        number(*.max_ms)
    )]
    JitterBounds {
        /// The lower bound given.
        min_ms: f64,
        /// The upper bound given.
        max_ms: f64,
    },
    /// `JitterClock` seed not finite.
    #[error("JitterClock seed must be finite, got {}", number(*.0))]
    JitterSeed(f64),
}

fn finite_positive(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// Real elapsed time since the previous host tick, floored at 0 and clamped to a maximum.
///
/// The first tick reports 0: there is no previous tick to measure from. The clamp bounds what
/// one frame can be worth, so returning from a long absence plays like a pause.
#[derive(Debug, Clone, PartialEq)]
pub struct WallClock {
    max_delta_ms: f64,
    last_ms: Option<f64>,
}

impl WallClock {
    /// A wall clock whose frames are worth at most `max_delta_ms`.
    ///
    /// # Errors
    /// [`ClockError::WallMaxDelta`] unless `max_delta_ms` is finite and positive.
    pub fn new(max_delta_ms: f64) -> Result<WallClock, ClockError> {
        if !finite_positive(max_delta_ms) {
            return Err(ClockError::WallMaxDelta(max_delta_ms));
        }
        Ok(WallClock {
            max_delta_ms,
            last_ms: None,
        })
    }
}

impl Default for WallClock {
    /// A wall clock clamped at 100 ms.
    fn default() -> WallClock {
        WallClock {
            max_delta_ms: 100.0,
            last_ms: None,
        }
    }
}

impl Clock for WallClock {
    fn delta(&mut self, now_ms: f64) -> Option<f64> {
        let delta = match self.last_ms {
            Some(last) if now_ms > last => (now_ms - last).min(self.max_delta_ms),
            _ => 0.0,
        };
        // A timestamp behind the last one does not move the baseline back.
        if self.last_ms.is_none_or(|last| now_ms > last) {
            self.last_ms = Some(now_ms);
        }
        Some(delta)
    }

    fn restart(&mut self) {
        self.last_ms = None;
    }
}

/// How early a host tick may arrive and still count as on its [`PacedClock`] slot: one
/// nanosecond, so that a host and a clock at the same rate, whose times are computed with
/// different float rounding (83.33333333333333 against 83.33333333333334), never miss a slot.
pub const SLOT_TOLERANCE_MS: f64 = 1e-6;

/// Options for [`PacedClock`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PacedOptions {
    /// How many intervals behind its grid the clock may fall before it drops the missed slots
    /// and restarts the grid at the current tick. At least 1; default 4.
    pub resync_after: u32,
}

impl Default for PacedOptions {
    fn default() -> PacedOptions {
        PacedOptions { resync_after: 4 }
    }
}

/// Frames on a fixed grid of `1000 / fps` ms, each worth exactly one interval.
///
/// Frame `n` is due at `t0 + n × interval`, where `t0` is the first host tick. A host tick before
/// the next due time is not a frame; the first tick at or after it delivers one interval and
/// moves the grid on by one slot, so an overrun shortens the next wait and the average rate
/// holds. Once the tick is `resync_after` intervals or more behind the slot it would fill, the
/// missed slots are dropped and the grid restarts at that tick.
#[derive(Debug, Clone, PartialEq)]
pub struct PacedClock {
    interval_ms: f64,
    resync_after: u32,
    origin_ms: Option<f64>,
    next_slot: u64,
}

impl PacedClock {
    /// A clock pacing frames at `fps`.
    ///
    /// # Errors
    /// [`ClockError::PacedFps`] unless `fps` is finite and positive;
    /// [`ClockError::PacedResync`] when `options.resync_after` is 0.
    pub fn new(fps: f64, options: PacedOptions) -> Result<PacedClock, ClockError> {
        if !finite_positive(fps) {
            return Err(ClockError::PacedFps(fps));
        }
        if options.resync_after < 1 {
            return Err(ClockError::PacedResync(options.resync_after));
        }
        Ok(PacedClock {
            interval_ms: 1000.0 / fps,
            resync_after: options.resync_after,
            origin_ms: None,
            next_slot: 0,
        })
    }

    /// Milliseconds per frame.
    pub fn interval_ms(&self) -> f64 {
        self.interval_ms
    }

    /// When the next frame is due, in host milliseconds (`None` before the first tick). A
    /// window host waits for it instead of spinning.
    pub fn next_due_ms(&self) -> Option<f64> {
        self.origin_ms
            .map(|t0| t0 + self.next_slot as f64 * self.interval_ms)
    }
}

impl Clock for PacedClock {
    fn next_frame_ms(&self) -> Option<f64> {
        self.next_due_ms()
    }

    fn delta(&mut self, now_ms: f64) -> Option<f64> {
        let Some(due) = self.next_due_ms() else {
            self.origin_ms = Some(now_ms);
            self.next_slot = 1;
            return Some(self.interval_ms);
        };
        if now_ms < due - SLOT_TOLERANCE_MS {
            return None;
        }
        if now_ms - due >= f64::from(self.resync_after) * self.interval_ms {
            self.origin_ms = Some(now_ms);
            self.next_slot = 1;
        } else {
            self.next_slot += 1;
        }
        Some(self.interval_ms)
    }

    fn restart(&mut self) {
        self.origin_ms = None;
        self.next_slot = 0;
    }
}

/// The same delta every frame.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantClock {
    step_ms: f64,
}

impl ConstantClock {
    /// Every frame is worth `step_ms`.
    ///
    /// # Errors
    /// [`ClockError::ConstantStep`] unless `step_ms` is finite and positive.
    pub fn new(step_ms: f64) -> Result<ConstantClock, ClockError> {
        if !finite_positive(step_ms) {
            return Err(ClockError::ConstantStep(step_ms));
        }
        Ok(ConstantClock { step_ms })
    }
}

impl Clock for ConstantClock {
    fn delta(&mut self, _now_ms: f64) -> Option<f64> {
        Some(self.step_ms)
    }
}

/// A list of deltas delivered in order, repeating: a reproducible stutter, burst or hitch.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceClock {
    steps_ms: Vec<f64>,
    next: usize,
}

impl SequenceClock {
    /// A clock cycling through `steps_ms`.
    ///
    /// # Errors
    /// [`ClockError::SequenceEmpty`] for an empty list; [`ClockError::SequenceStep`] naming the
    /// first step that is not finite and positive, and its index.
    pub fn new(steps_ms: Vec<f64>) -> Result<SequenceClock, ClockError> {
        if steps_ms.is_empty() {
            return Err(ClockError::SequenceEmpty);
        }
        if let Some((index, &value)) = steps_ms
            .iter()
            .enumerate()
            .find(|(_, &v)| !finite_positive(v))
        {
            return Err(ClockError::SequenceStep { index, value });
        }
        Ok(SequenceClock { steps_ms, next: 0 })
    }
}

impl Clock for SequenceClock {
    fn delta(&mut self, _now_ms: f64) -> Option<f64> {
        let d = self.steps_ms[self.next];
        self.next = (self.next + 1) % self.steps_ms.len();
        Some(d)
    }
}

/// Seeded random deltas drawn uniformly from `[min_ms, max_ms]`.
///
/// Frame `i`'s delta is a pure function of the seed and `i`, so a failing jittery run replays
/// exactly from its seed.
#[derive(Debug, Clone, PartialEq)]
pub struct JitterClock {
    min_ms: f64,
    max_ms: f64,
    key: u64,
    frame: u64,
}

impl JitterClock {
    /// A clock drawing deltas from `[min_ms, max_ms]` under `seed`.
    ///
    /// # Errors
    /// [`ClockError::JitterBounds`] naming both bounds when either is not finite and positive or
    /// `max_ms < min_ms`; [`ClockError::JitterSeed`] when `seed` is not finite.
    pub fn new(min_ms: f64, max_ms: f64, seed: f64) -> Result<JitterClock, ClockError> {
        if !finite_positive(min_ms) || !finite_positive(max_ms) || max_ms < min_ms {
            return Err(ClockError::JitterBounds { min_ms, max_ms });
        }
        if !seed.is_finite() {
            return Err(ClockError::JitterSeed(seed));
        }
        // -0.0 and 0.0 are the same seed.
        let bits = if seed == 0.0 { 0 } else { seed.to_bits() };
        Ok(JitterClock {
            min_ms,
            max_ms,
            key: splitmix64(bits),
            frame: 0,
        })
    }

    /// The delta of frame `index` (from 0), without advancing the clock.
    pub fn delta_at(&self, index: u64) -> f64 {
        let bits = splitmix64(self.key ^ splitmix64(index));
        // 53 random bits over 2^53 - 1: a uniform draw from the closed unit interval.
        let unit = (bits >> 11) as f64 / ((1u64 << 53) - 1) as f64;
        self.min_ms + (self.max_ms - self.min_ms) * unit
    }
}

impl Clock for JitterClock {
    fn delta(&mut self, _now_ms: f64) -> Option<f64> {
        let d = self.delta_at(self.frame);
        self.frame += 1;
        Some(d)
    }
}

/// SplitMix64's finaliser: a fast, well-mixed 64-bit hash.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(clock: &mut dyn Clock, times: &[f64]) -> Vec<Option<f64>> {
        times.iter().map(|&t| clock.delta(t)).collect()
    }

    #[test]
    fn wall_clock_first_frame_zero_backwards_zero_and_clamped() {
        let mut c = WallClock::new(50.0).unwrap();
        let got = run(&mut c, &[1000.0, 1016.0, 1010.0, 1026.0, 2000.0]);
        assert_eq!(
            got,
            [Some(0.0), Some(16.0), Some(0.0), Some(10.0), Some(50.0)]
        );
        assert_eq!(WallClock::default(), WallClock::new(100.0).unwrap());
    }

    #[test]
    fn a_restarted_clock_takes_its_next_tick_as_a_first_one() {
        let mut wall = WallClock::default();
        assert_eq!(run(&mut wall, &[0.0, 16.0]), [Some(0.0), Some(16.0)]);
        wall.restart();
        // A second later: no catching up.
        assert_eq!(run(&mut wall, &[1016.0, 1032.0]), [Some(0.0), Some(16.0)]);
        let mut paced = PacedClock::new(60.0, PacedOptions::default()).unwrap();
        let iv = paced.interval_ms();
        run(&mut paced, &[0.0, iv]);
        paced.restart();
        assert_eq!(paced.next_due_ms(), None);
        assert_eq!(run(&mut paced, &[1000.0]), [Some(iv)]);
        assert_eq!(paced.next_due_ms(), Some(1000.0 + iv));
    }

    #[test]
    fn paced_clock_delivers_on_first_tick_at_or_after_each_slot() {
        let mut c = PacedClock::new(30.0, PacedOptions::default()).unwrap();
        let iv = 1000.0 / 30.0;
        // A 60 Hz host: every other tick is a frame.
        let ticks: Vec<f64> = (0..8).map(|i| i as f64 * 1000.0 / 60.0).collect();
        let got = run(&mut c, &ticks);
        let want: Vec<Option<f64>> = (0..8).map(|i| (i % 2 == 0).then_some(iv)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn paced_clock_at_the_host_rate_delivers_on_every_tick() {
        for hz in [24.0, 30.0, 50.0, 60.0, 120.0, 144.0, 165.0, 240.0] {
            let mut c = PacedClock::new(hz, PacedOptions::default()).unwrap();
            let delivered = (0..10_000u32)
                .filter(|&i| c.delta(f64::from(i) * 1000.0 / hz).is_some())
                .count();
            assert_eq!(delivered, 10_000, "{hz} Hz");
        }
    }

    #[test]
    fn paced_overrun_shortens_the_next_wait() {
        let mut c = PacedClock::new(10.0, PacedOptions::default()).unwrap();
        // Slots at 0, 100, 200, 300. The 100 slot is served late at 150; 200 is still due at 200.
        let got = run(&mut c, &[0.0, 150.0, 190.0, 200.0, 250.0]);
        assert_eq!(got, [Some(100.0), Some(100.0), None, Some(100.0), None]);
    }

    #[test]
    fn paced_resyncs_after_falling_behind() {
        let mut c = PacedClock::new(10.0, PacedOptions { resync_after: 2 }).unwrap();
        // Slot 100 served at 350: 2.5 intervals late, so the grid restarts at 350.
        let got = run(&mut c, &[0.0, 350.0, 400.0, 449.0, 450.0]);
        assert_eq!(got, [Some(100.0), Some(100.0), None, None, Some(100.0)]);
        assert_eq!(c.next_due_ms(), Some(550.0));
    }

    #[test]
    fn constant_sequence_and_jitter_ignore_timestamps() {
        let mut c = ConstantClock::new(5.0).unwrap();
        assert_eq!(run(&mut c, &[0.0, -3.0, 1e9]), [Some(5.0); 3]);
        let mut s = SequenceClock::new(vec![10.0, 20.0, 50.0]).unwrap();
        let got = run(&mut s, &[0.0; 7]);
        let want = [10.0, 20.0, 50.0, 10.0, 20.0, 50.0, 10.0].map(Some);
        assert_eq!(got, want);
    }

    #[test]
    fn jitter_is_a_pure_function_of_seed_and_frame() {
        let mut a = JitterClock::new(10.0, 30.0, 7.0).unwrap();
        let mut b = JitterClock::new(10.0, 30.0, 7.0).unwrap();
        let da: Vec<f64> = (0..1000).map(|i| a.delta(i as f64).unwrap()).collect();
        let db: Vec<f64> = (0..1000).map(|i| b.delta(-(i as f64)).unwrap()).collect();
        assert_eq!(da, db);
        assert!(da.iter().all(|d| (10.0..=30.0).contains(d)));
        assert!(
            da.iter().any(|d| d.fract() != 0.0),
            "not whole milliseconds"
        );
        let lowest = da.iter().cloned().fold(f64::MAX, f64::min);
        assert!(lowest < 11.0, "draws reach the low end: {lowest}");
        assert_eq!(a.delta_at(500), da[500]);
        let other = JitterClock::new(10.0, 30.0, 8.0).unwrap();
        assert_ne!(other.delta_at(0), da[0]);
    }

    #[test]
    fn every_constructor_error_names_its_value() {
        let cases: Vec<(ClockError, &str)> = vec![
            (WallClock::new(0.0).unwrap_err(), "got 0"),
            (WallClock::new(f64::NAN).unwrap_err(), "got NaN"),
            (
                PacedClock::new(-60.0, PacedOptions::default()).unwrap_err(),
                "got -60",
            ),
            (
                PacedClock::new(f64::INFINITY, PacedOptions::default()).unwrap_err(),
                "got inf",
            ),
            (
                PacedClock::new(60.0, PacedOptions { resync_after: 0 }).unwrap_err(),
                "got 0",
            ),
            (ConstantClock::new(-1.5).unwrap_err(), "got -1.5"),
            (SequenceClock::new(vec![]).unwrap_err(), "got none"),
            (
                SequenceClock::new(vec![16.0, 0.0]).unwrap_err(),
                "step 1 must be finite and positive, got 0",
            ),
            (
                SequenceClock::new(vec![f64::NAN]).unwrap_err(),
                "step 0 must be finite and positive, got NaN",
            ),
            (
                JitterClock::new(0.0, 5.0, 1.0).unwrap_err(),
                "min_ms 0 and max_ms 5",
            ),
            (
                JitterClock::new(5.0, f64::INFINITY, 1.0).unwrap_err(),
                "min_ms 5 and max_ms inf",
            ),
            (
                JitterClock::new(9.0, 5.0, 1.0).unwrap_err(),
                "min_ms 9 and max_ms 5",
            ),
            (
                JitterClock::new(1.0, 5.0, f64::NAN).unwrap_err(),
                "seed must be finite, got NaN",
            ),
        ];
        for (err, needle) in cases {
            assert!(
                err.to_string().contains(needle),
                "{err:?}: {err} lacks {needle:?}"
            );
        }
        let boxed: Box<dyn std::error::Error> = Box::new(ClockError::SequenceEmpty);
        assert!(!boxed.to_string().is_empty());
    }
}
