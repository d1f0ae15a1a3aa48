//! Spotting dropped frames from the clock's deltas, and grading how bad a frame was.

use std::fmt;

/// How many recent deltas the baseline is taken from (one second at 60 Hz).
pub const DROP_WINDOW: usize = 60;
/// Deltas needed in the window before any drop is reported, so the first few frames after
/// start-up, which are often uneven, cannot set off false alarms.
pub const DROP_WARMUP: usize = 8;
/// A delta longer than the baseline by this factor counts as a drop. Below it, ordinary jitter
/// of a millisecond or two on a 16.7 ms display never trips the detector.
pub const DROP_THRESHOLD: f64 = 1.5;
/// Deltas of this many milliseconds or more are left out altogether: they come from a hidden
/// window, a debugger pause or a suspended laptop, not from a slow frame.
pub const BACKGROUND_DELTA_MS: f64 = 1000.0;
/// A frame that took this share of its budget or more is graded [`Severity::Warning`].
pub const WARNING_RATIO: f64 = 1.10;
/// A frame that took this share of its budget or more is graded [`Severity::Error`].
pub const ERROR_RATIO: f64 = 1.50;

/// Counts the display refreshes missed between frames.
///
/// The baseline is the shortest delta among the last [`DROP_WINDOW`] accepted ones, which on a
/// steady display is the refresh period. A delta above [`DROP_THRESHOLD`] times the baseline
/// reports `round(delta / baseline) - 1` missed refreshes, at least one.
///
/// ```
/// use bt_overlay::DropDetector;
///
/// let mut drops = DropDetector::new();
/// for _ in 0..8 {
///     assert_eq!(drops.observe(16.7), 0);
/// }
/// assert_eq!(drops.baseline(), Some(16.7));
/// // Three refresh periods long: two frames were missed.
/// assert_eq!(drops.observe(50.0), 2);
/// ```
#[derive(Debug, Clone)]
pub struct DropDetector {
    window: [f64; DROP_WINDOW],
    len: usize,
    next: usize,
}

impl Default for DropDetector {
    fn default() -> DropDetector {
        DropDetector::new()
    }
}

impl DropDetector {
    /// A detector that has seen nothing yet.
    pub const fn new() -> DropDetector {
        DropDetector {
            window: [0.0; DROP_WINDOW],
            len: 0,
            next: 0,
        }
    }

    /// Takes one frame's delta in milliseconds and returns how many frames it dropped (0 when
    /// none).
    ///
    /// The delta joins the window first, then is compared with the window's minimum. Nothing is
    /// reported until the window holds [`DROP_WARMUP`] deltas, this one included. Deltas of
    /// [`BACKGROUND_DELTA_MS`] or more, and deltas that are not a positive number, are ignored
    /// and do not join the window.
    pub fn observe(&mut self, delta_ms: f64) -> u32 {
        if delta_ms.is_nan() || delta_ms <= 0.0 || delta_ms >= BACKGROUND_DELTA_MS {
            return 0;
        }
        self.window[self.next] = delta_ms;
        self.next = (self.next + 1) % DROP_WINDOW;
        self.len = (self.len + 1).min(DROP_WINDOW);
        if self.len < DROP_WARMUP {
            return 0;
        }
        let Some(baseline) = self.baseline() else {
            return 0;
        };
        if delta_ms > baseline * DROP_THRESHOLD {
            // The ratio exceeds 1.5, so the rounded count is at least 2 and the result at least 1.
            ((delta_ms / baseline).round() as u32)
                .saturating_sub(1)
                .max(1)
        } else {
            0
        }
    }

    /// The shortest delta in the window, or `None` before the first accepted one.
    pub fn baseline(&self) -> Option<f64> {
        self.window[..self.len].iter().copied().reduce(f64::min)
    }

    /// How many deltas the window holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// How troubled a frame was, for the chart's tint and for logs.
///
/// Ordered: `Normal < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Severity {
    /// Within budget and nothing dropped.
    #[default]
    Normal,
    /// At least [`WARNING_RATIO`] of the budget, or one dropped frame.
    Warning,
    /// At least [`ERROR_RATIO`] of the budget, or two or more dropped frames.
    Error,
}

impl Severity {
    /// Grades a frame that lasted `frame_ms` against a budget of `budget_ms` (the fixed update
    /// interval) and dropped `dropped` frames; the worse of the two gradings wins. A budget that
    /// is not a positive number grades on drops alone. The overlay passes the frame's delta from
    /// the clock as `frame_ms`, so a grade depends only on the clock and the cart.
    ///
    /// ```
    /// use bt_overlay::Severity;
    ///
    /// let budget = 1000.0 / 60.0;
    /// assert_eq!(Severity::classify(10.0, budget, 0), Severity::Normal);
    /// assert_eq!(Severity::classify(20.0, budget, 0), Severity::Warning);
    /// assert_eq!(Severity::classify(10.0, budget, 2), Severity::Error);
    /// ```
    pub fn classify(frame_ms: f64, budget_ms: f64, dropped: u32) -> Severity {
        let by_time = if budget_ms > 0.0 && budget_ms.is_finite() {
            let ratio = frame_ms / budget_ms;
            if ratio >= ERROR_RATIO {
                Severity::Error
            } else if ratio >= WARNING_RATIO {
                Severity::Warning
            } else {
                Severity::Normal
            }
        } else {
            Severity::Normal
        };
        let by_drops = match dropped {
            0 => Severity::Normal,
            1 => Severity::Warning,
            _ => Severity::Error,
        };
        by_time.max(by_drops)
    }

    /// A lower-case word for logs and CSV files: `normal`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Normal => "normal",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warmed(delta: f64) -> DropDetector {
        let mut d = DropDetector::new();
        for _ in 0..DROP_WARMUP {
            assert_eq!(d.observe(delta), 0);
        }
        d
    }

    #[test]
    fn nothing_is_reported_during_the_warm_up() {
        let mut d = DropDetector::new();
        for _ in 0..DROP_WARMUP - 2 {
            d.observe(16.0);
        }
        // Seventh sample: still warming up, however long it is.
        assert_eq!(d.observe(100.0), 0);
        // Eighth sample: the window is warm and the slow frame is reported.
        assert_eq!(d.observe(100.0), 5);
    }

    #[test]
    fn a_delta_just_over_one_and_a_half_baselines_counts_as_one_drop() {
        let mut d = warmed(16.0);
        assert_eq!(d.observe(24.0), 0, "exactly 1.5x is not a drop");
        assert_eq!(d.observe(24.5), 1, "round(1.53) - 1 would be 1");
        assert_eq!(d.observe(33.0), 1);
        assert_eq!(d.observe(40.0), 2, "round(2.5) - 1");
        assert_eq!(d.observe(64.0), 3);
    }

    #[test]
    fn background_pauses_are_neither_reported_nor_remembered() {
        let mut d = warmed(16.0);
        assert_eq!(d.observe(1000.0), 0);
        assert_eq!(d.observe(5000.0), 0);
        assert_eq!(d.observe(f64::INFINITY), 0);
        assert_eq!(d.observe(f64::NAN), 0);
        assert_eq!(d.observe(0.0), 0);
        assert_eq!(d.len(), DROP_WARMUP);
        assert_eq!(d.observe(999.0), 61);
    }

    #[test]
    fn the_baseline_is_the_window_minimum_and_forgets_old_samples() {
        let mut d = DropDetector::new();
        d.observe(8.0);
        for _ in 0..DROP_WINDOW - 1 {
            d.observe(16.0);
        }
        assert_eq!(d.baseline(), Some(8.0));
        // A 120 Hz baseline would call 16 ms a drop; once the 8 ms sample is evicted it is not.
        assert_eq!(d.observe(16.0), 0);
        assert_eq!(d.baseline(), Some(16.0));
        assert_eq!(d.len(), DROP_WINDOW);
    }

    #[test]
    fn the_baseline_matches_a_full_rescan_over_a_long_uneven_run() {
        let mut d = DropDetector::new();
        let mut history = Vec::new();
        let mut x: u32 = 12345;
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let delta = 8.0 + f64::from(x >> 16 & 0xff) / 8.0;
            d.observe(delta);
            history.push(delta);
            let tail = &history[history.len().saturating_sub(DROP_WINDOW)..];
            let min = tail.iter().copied().fold(f64::INFINITY, f64::min);
            assert_eq!(d.baseline(), Some(min));
        }
    }

    #[test]
    fn severity_takes_the_worse_of_time_and_drops() {
        let budget = 10.0;
        assert_eq!(Severity::classify(10.9, budget, 0), Severity::Normal);
        assert_eq!(Severity::classify(11.0, budget, 0), Severity::Warning);
        assert_eq!(Severity::classify(14.9, budget, 0), Severity::Warning);
        assert_eq!(Severity::classify(15.0, budget, 0), Severity::Error);
        assert_eq!(Severity::classify(1.0, budget, 1), Severity::Warning);
        assert_eq!(Severity::classify(1.0, budget, 2), Severity::Error);
        assert_eq!(Severity::classify(15.0, budget, 1), Severity::Error);
        assert_eq!(Severity::classify(99.0, 0.0, 0), Severity::Normal);
        assert_eq!(Severity::Warning.to_string(), "warning");
    }
}
