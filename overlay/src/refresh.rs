//! Missed display refreshes, counted against the display's refresh period, and a frame's grade
//! against the cart's budget: two separate questions.
//!
//! A frame that stays on screen for `delta` ms on a display refreshing every `P` ms spans
//! `delta / P` refreshes. Once `delta > 1.5 × P` ([`MISS_THRESHOLD`]) the frame missed
//! `round(delta / P) - 1` refreshes (at least one): refreshes that showed the previous picture
//! again. At 60 Hz (`P` = 16.67 ms) a 50 ms frame missed 2, a 20 ms frame none. A cart held to
//! half the display's rate misses every other refresh by design, and the count says so.
//!
//! The period comes from where it is best known ([`Refresh`]): the host or the user gives it,
//! a capture's display timing measures it, or it is estimated from frame times with
//! [`estimate_refresh_hz`], which takes the lower quartile of the intervals (never the
//! shortest: one short double present cannot make normal frames look late) and snaps it to a
//! common display rate. When no refresh grid exists (a capture that allows tearing) there is
//! nothing to miss and the count is `None`: shown as n/a.

use std::fmt;

/// How many recent deltas the rolling estimate is taken from (two seconds at 60 Hz).
pub const REFRESH_WINDOW: usize = 120;
/// Deltas the rolling estimate needs before it counts anything: the first
/// `REFRESH_WARMUP - 1` frames after start-up, often uneven, never report a missed refresh;
/// the `REFRESH_WARMUP`th is the first that can.
pub const REFRESH_WARMUP: usize = 8;
/// A frame longer than this many refresh periods missed at least one refresh. Below it,
/// ordinary jitter of a millisecond or two on a 16.7 ms display never counts.
pub const MISS_THRESHOLD: f64 = 1.5;
/// Deltas of this many milliseconds or more count no missed refresh and are left out of the
/// estimate: they come from a hidden window, a debugger pause or a suspended laptop.
pub const BACKGROUND_DELTA_MS: f64 = 1000.0;
/// Intervals shorter than this (a 500 Hz display) are double presents, not refreshes, and are
/// left out of the estimate.
pub const SHORTEST_REFRESH_MS: f64 = 2.0;
/// The estimate is snapped to a common display rate within this share of it, so a display's
/// jitter does not move the grid.
pub const SNAP_TOLERANCE: f64 = 0.03;
/// Display rates an estimate snaps to, in Hz.
pub const COMMON_REFRESH_HZ: [f64; 16] = [
    24.0, 30.0, 48.0, 50.0, 60.0, 72.0, 75.0, 90.0, 100.0, 120.0, 144.0, 165.0, 180.0, 240.0,
    360.0, 480.0,
];
/// A frame that took this share of its budget or more is graded [`Severity::Warning`].
pub const WARNING_RATIO: f64 = 1.10;
/// A frame that took this share of its budget or more is graded [`Severity::Error`].
pub const ERROR_RATIO: f64 = 1.50;

/// Where the display's refresh rate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum Refresh {
    /// Estimated as frames come, from the last [`REFRESH_WINDOW`] deltas with
    /// [`estimate_refresh_hz`] (the default: a window host that cannot ask its display).
    #[default]
    Rolling,
    /// Given, in Hz: by `--refresh-hz`, or the rate a simulated host ticks at.
    Given(f64),
    /// Measured, in Hz, from a capture's own display timing (the intervals between the
    /// refreshes that showed a new frame).
    Measured(f64),
    /// Estimated, in Hz, from all of a run's frame times before it ran.
    Estimated(f64),
    /// None can be told: the frames were presented with tearing allowed, off any refresh grid.
    /// Missed refreshes are n/a.
    Tearing,
    /// None can be told: the frames were presented with V-Sync off (a sync interval of 0, not
    /// waiting for a refresh) and there are no display times to measure a refresh from, so
    /// their intervals are the program's own pace, not the display's. Missed refreshes are n/a.
    SyncOff,
    /// None can be told: the capture's display times fit no refresh grid (a variable-refresh
    /// panel, or timing too noisy to tell), and the program's own frame rate is not the
    /// panel's. Missed refreshes are n/a until a rate or a range is given.
    NoGrid,
    /// A variable-refresh panel (adaptive sync) that follows the frames between `min_hz` and
    /// `max_hz`, given by the user: it has no grid, so a frame misses no refresh unless it
    /// comes later than the panel can hold a picture (`1000 / min_hz` ms), when the panel
    /// shows the last one again (see [`vrr_repeats`]).
    Variable {
        /// The slowest rate the panel follows.
        min_hz: f64,
        /// The fastest.
        max_hz: f64,
    },
}

impl Refresh {
    /// The rate this source fixes, in Hz (`None` for [`Refresh::Rolling`], a variable
    /// refresh and the sources that make missed refreshes n/a).
    pub fn hz(self) -> Option<f64> {
        match self {
            Refresh::Given(hz) | Refresh::Measured(hz) | Refresh::Estimated(hz) => Some(hz),
            Refresh::Rolling
            | Refresh::Tearing
            | Refresh::SyncOff
            | Refresh::NoGrid
            | Refresh::Variable { .. } => None,
        }
    }

    /// Whether missed refreshes can be counted against this source: not when none can be told
    /// ([`Refresh::Tearing`], [`Refresh::SyncOff`], [`Refresh::NoGrid`]), when they are n/a.
    pub fn counts_misses(self) -> bool {
        !matches!(self, Refresh::Tearing | Refresh::SyncOff | Refresh::NoGrid)
    }
}

impl fmt::Display for Refresh {
    /// How a summary names the source: `60 Hz (given)`, `n/a (tearing allowed)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refresh::Rolling => f.write_str("estimated as the frames came"),
            Refresh::Given(hz) => write!(f, "{hz:.1} Hz (given)"),
            Refresh::Measured(hz) => write!(f, "{hz:.1} Hz (measured from display times)"),
            Refresh::Estimated(hz) => write!(f, "{hz:.1} Hz (estimated from the frame times)"),
            Refresh::Tearing => f.write_str("n/a (tearing allowed: no refresh grid)"),
            Refresh::SyncOff => f.write_str(
                "n/a (V-Sync off: sync interval 0, and no display times to measure a refresh from)",
            ),
            Refresh::NoGrid => f.write_str("n/a (display times fit no refresh grid)"),
            Refresh::Variable { min_hz, max_hz } => write!(
                f,
                "a variable refresh of {min_hz:.0}-{max_hz:.0} Hz (given): repeats past its \
                 longest hold of {:.1} ms",
                1000.0 / min_hz
            ),
        }
    }
}

/// The display rate, in Hz, that frame intervals `deltas_ms` were most likely presented on, or
/// `None` when fewer than [`REFRESH_WARMUP`] of them are usable.
///
/// Usable intervals are those from [`SHORTEST_REFRESH_MS`] to below [`BACKGROUND_DELTA_MS`].
/// Their lower quartile (by nearest rank) is the period: on a display that mostly keeps up it
/// is the refresh period, and neither a few short double presents nor a run of long frames
/// moves it. A period within [`SNAP_TOLERANCE`] of one of [`COMMON_REFRESH_HZ`] is snapped to
/// it.
///
/// ```
/// use bt_overlay::estimate_refresh_hz;
///
/// // A 60 Hz capture with one 1.2 ms double present and a 30/60 oscillation.
/// let mut deltas = vec![16.6, 16.8, 1.2, 16.7, 33.3, 16.7, 33.4, 16.6, 16.7, 16.7];
/// assert_eq!(estimate_refresh_hz(&deltas), Some(60.0));
/// deltas.truncate(5);
/// assert_eq!(estimate_refresh_hz(&deltas), None, "too few to tell");
/// ```
pub fn estimate_refresh_hz(deltas_ms: &[f64]) -> Option<f64> {
    let mut usable: Vec<f64> = deltas_ms.iter().copied().filter(|&d| usable(d)).collect();
    lower_quartile_hz(&mut usable)
}

fn usable(delta_ms: f64) -> bool {
    (SHORTEST_REFRESH_MS..BACKGROUND_DELTA_MS).contains(&delta_ms)
}

/// The snapped rate of the lower quartile of `usable`, reordering it in place.
fn lower_quartile_hz(usable: &mut [f64]) -> Option<f64> {
    if usable.len() < REFRESH_WARMUP {
        return None;
    }
    let rank = usable.len().div_ceil(4).max(1) - 1;
    let (_, &mut period, _) = usable.select_nth_unstable_by(rank, f64::total_cmp);
    Some(snap_hz(1000.0 / period))
}

/// `hz`, or the common display rate within [`SNAP_TOLERANCE`] of it.
fn snap_hz(hz: f64) -> f64 {
    COMMON_REFRESH_HZ
        .into_iter()
        .find(|&common| (hz - common).abs() <= common * SNAP_TOLERANCE)
        .unwrap_or(hz)
}

/// Refreshes missed by a frame `delta_ms` long on a display refreshing every `period_ms`:
/// `round(delta / period) - 1` (at least 1) once `delta > 1.5 × period`, else 0. Deltas that
/// are not positive or reach [`BACKGROUND_DELTA_MS`] miss none.
///
/// ```
/// use bt_overlay::missed_refreshes;
///
/// let p = 1000.0 / 60.0;
/// assert_eq!(missed_refreshes(16.9, p), 0);
/// assert_eq!(missed_refreshes(33.3, p), 1);
/// assert_eq!(missed_refreshes(50.0, p), 2);
/// ```
pub fn missed_refreshes(delta_ms: f64, period_ms: f64) -> u32 {
    if !(delta_ms > 0.0 && delta_ms < BACKGROUND_DELTA_MS && period_ms > 0.0) {
        return 0;
    }
    if delta_ms > period_ms * MISS_THRESHOLD {
        // The ratio exceeds 1.5, so the rounded count is at least 2 and the result at least 1.
        ((delta_ms / period_ms).round() as u32)
            .saturating_sub(1)
            .max(1)
    } else {
        0
    }
}

/// Refreshes a variable-refresh panel whose slowest rate is `min_hz` showed the last picture
/// again while a frame `delta_ms` long was due: none while the frame comes within the panel's
/// longest hold (`hold = 1000 / min_hz` ms), else `ceil(delta / hold) - 1`, the refreshes the
/// panel had to make on its own (low-framerate compensation repeats frames the same way).
/// Deltas that are not positive or reach [`BACKGROUND_DELTA_MS`] repeat none.
///
/// ```
/// use bt_overlay::vrr_repeats;
///
/// // A 48-144 Hz panel holds a picture at most 20.8 ms.
/// assert_eq!(vrr_repeats(7.0, 48.0), 0);
/// assert_eq!(vrr_repeats(20.0, 48.0), 0, "50 fps: within the range");
/// assert_eq!(vrr_repeats(25.0, 48.0), 1);
/// assert_eq!(vrr_repeats(50.0, 48.0), 2);
/// ```
pub fn vrr_repeats(delta_ms: f64, min_hz: f64) -> u32 {
    if !(delta_ms > 0.0 && delta_ms < BACKGROUND_DELTA_MS && min_hz > 0.0) {
        return 0;
    }
    let hold = 1000.0 / min_hz;
    ((delta_ms / hold).ceil() as u32).saturating_sub(1)
}

/// Counts each frame's missed refreshes against a [`Refresh`] source.
///
/// ```
/// use bt_overlay::{Refresh, RefreshCounter};
///
/// let mut given = RefreshCounter::new(Refresh::Given(60.0));
/// assert_eq!(given.observe(50.0), Some(2));
/// let mut tearing = RefreshCounter::new(Refresh::Tearing);
/// assert_eq!(tearing.observe(50.0), None, "n/a");
/// let mut rolling = RefreshCounter::new(Refresh::Rolling);
/// for _ in 0..7 {
///     assert_eq!(rolling.observe(16.7), Some(0));
/// }
/// assert_eq!(rolling.observe(50.0), Some(2), "the 8th frame can count");
/// assert_eq!(rolling.refresh_hz(), Some(60.0));
/// ```
#[derive(Debug, Clone)]
pub struct RefreshCounter {
    source: Refresh,
    window: [f64; REFRESH_WINDOW],
    len: usize,
    next: usize,
}

impl Default for RefreshCounter {
    fn default() -> RefreshCounter {
        RefreshCounter::new(Refresh::Rolling)
    }
}

impl RefreshCounter {
    /// A counter against `source` that has seen nothing yet.
    pub const fn new(source: Refresh) -> RefreshCounter {
        RefreshCounter {
            source,
            window: [0.0; REFRESH_WINDOW],
            len: 0,
            next: 0,
        }
    }

    /// Where the refresh rate comes from.
    pub fn source(&self) -> Refresh {
        self.source
    }

    /// Takes one frame's delta in milliseconds and returns the refreshes it missed, or `None`
    /// when the source counts none ([`Refresh::counts_misses`]).
    ///
    /// A rolling counter takes the delta into its window first (when usable, see
    /// [`estimate_refresh_hz`]) and counts nothing until the window holds [`REFRESH_WARMUP`]
    /// deltas, this one included. Allocates nothing.
    pub fn observe(&mut self, delta_ms: f64) -> Option<u32> {
        if self.source == Refresh::Rolling && usable(delta_ms) {
            self.window[self.next] = delta_ms;
            self.next = (self.next + 1) % REFRESH_WINDOW;
            self.len = (self.len + 1).min(REFRESH_WINDOW);
        }
        match self.source {
            source if !source.counts_misses() => None,
            Refresh::Variable { min_hz, .. } => Some(vrr_repeats(delta_ms, min_hz)),
            _ => Some(
                self.refresh_hz()
                    .map_or(0, |hz| missed_refreshes(delta_ms, 1000.0 / hz)),
            ),
        }
    }

    /// The refresh rate counted against now, in Hz: the source's, or the rolling estimate
    /// (`None` while it warms up, and always for a source that counts no misses).
    pub fn refresh_hz(&self) -> Option<f64> {
        match self.source {
            Refresh::Rolling => {
                // A copy on the stack: the window keeps its order.
                let mut scratch = self.window;
                lower_quartile_hz(&mut scratch[..self.len])
            }
            other => other.hz(),
        }
    }
}

/// How far over the cart's budget a frame ran, for the chart's tint and for logs: a grade
/// against the budget alone (missed refreshes are counted apart, by [`RefreshCounter`]).
///
/// Ordered: `Normal < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Severity {
    /// Under [`WARNING_RATIO`] of the budget.
    #[default]
    Normal,
    /// At least [`WARNING_RATIO`] of the budget.
    Warning,
    /// At least [`ERROR_RATIO`] of the budget.
    Error,
}

impl Severity {
    /// Grades a frame that lasted `frame_ms` against a budget of `budget_ms` (the fixed update
    /// interval). A budget that is not a positive number grades every frame normal. The overlay
    /// passes the frame's delta from the clock as `frame_ms`, so a grade depends only on the
    /// clock and the cart, never on the display: a 16.7 ms frame is within a 60 fps budget on
    /// a 120 Hz display too.
    ///
    /// ```
    /// use bt_overlay::Severity;
    ///
    /// let budget = 1000.0 / 60.0;
    /// assert_eq!(Severity::classify(budget, budget), Severity::Normal);
    /// assert_eq!(Severity::classify(20.0, budget), Severity::Warning);
    /// assert_eq!(Severity::classify(25.0, budget), Severity::Error);
    /// ```
    pub fn classify(frame_ms: f64, budget_ms: f64) -> Severity {
        if !(budget_ms > 0.0 && budget_ms.is_finite()) {
            return Severity::Normal;
        }
        let ratio = frame_ms / budget_ms;
        if ratio >= ERROR_RATIO {
            Severity::Error
        } else if ratio >= WARNING_RATIO {
            Severity::Warning
        } else {
            Severity::Normal
        }
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

    const P60: f64 = 1000.0 / 60.0;

    #[test]
    fn missed_refreshes_follow_the_rounding_rule() {
        assert_eq!(
            missed_refreshes(25.0, P60),
            0,
            "exactly 1.5 periods is not a miss"
        );
        assert_eq!(
            missed_refreshes(25.1, P60),
            1,
            "round(1.506) - 1 would be 1"
        );
        assert_eq!(missed_refreshes(33.3, P60), 1);
        assert_eq!(missed_refreshes(41.7, P60), 2, "round(2.502) - 1");
        assert_eq!(missed_refreshes(418.0, P60), 24);
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY, 1000.0, 5000.0] {
            assert_eq!(missed_refreshes(bad, P60), 0, "{bad}");
        }
    }

    #[test]
    fn one_short_frame_never_makes_the_normal_frames_after_it_late() {
        // The regression: a 1.2 ms double present used to become the baseline for the next 59
        // frames, and every normal 16.7 ms frame counted as a miss.
        let mut c = RefreshCounter::default();
        let mut missed = 0;
        for i in 0..200 {
            let delta = if i == 50 { 1.2 } else { 16.7 };
            missed += c.observe(delta).unwrap();
        }
        assert_eq!(missed, 0);
        assert_eq!(c.refresh_hz(), Some(60.0));
    }

    #[test]
    fn a_given_rate_counts_from_the_first_frame_and_ignores_the_frames() {
        let mut c = RefreshCounter::new(Refresh::Given(120.0));
        assert_eq!(
            c.observe(16.7),
            Some(1),
            "a 60 fps frame spans two 120 Hz refreshes"
        );
        assert_eq!(c.observe(8.3), Some(0));
        assert_eq!(c.refresh_hz(), Some(120.0));
    }

    #[test]
    fn tearing_counts_nothing() {
        let mut c = RefreshCounter::new(Refresh::Tearing);
        assert_eq!(c.observe(100.0), None);
        assert_eq!(c.refresh_hz(), None);
        assert_eq!(
            Refresh::Tearing.to_string(),
            "n/a (tearing allowed: no refresh grid)"
        );
        for none in [Refresh::SyncOff, Refresh::NoGrid] {
            let mut c = RefreshCounter::new(none);
            assert_eq!((c.observe(100.0), c.refresh_hz()), (None, None), "{none}");
        }
    }

    #[test]
    fn the_rolling_estimate_warms_up_then_follows_the_display() {
        let mut c = RefreshCounter::default();
        for _ in 0..REFRESH_WARMUP - 1 {
            assert_eq!(c.observe(100.0), Some(0), "warming up");
        }
        // Eighth: 8 frames of 100 ms: the estimate is 10 Hz and 100 ms misses nothing.
        assert_eq!(c.observe(100.0), Some(0));
        // A 144 Hz display: once a quarter of the window is short, the estimate follows it.
        for _ in 0..REFRESH_WINDOW {
            c.observe(6.94);
        }
        assert_eq!(c.refresh_hz(), Some(144.0));
        assert_eq!(c.observe(13.9), Some(1));
    }

    #[test]
    fn the_estimate_is_the_lower_quartile_snapped_to_a_common_rate() {
        // Three in four frames at 30 fps on a 60 Hz display: the quartile is a 60 Hz frame.
        let mut deltas: Vec<f64> = (0..100)
            .map(|i| if i % 4 == 0 { 16.9 } else { 33.2 })
            .collect();
        assert_eq!(estimate_refresh_hz(&deltas), Some(60.0));
        // No common rate near: the quartile as is.
        deltas = vec![9.0; 20];
        let hz = estimate_refresh_hz(&deltas).unwrap();
        assert!((hz - 1000.0 / 9.0).abs() < 1e-9, "{hz}");
        // Double presents and background pauses are not refreshes.
        deltas = [vec![0.5; 50], vec![8.33; 20], vec![5000.0; 50]].concat();
        assert_eq!(estimate_refresh_hz(&deltas), Some(120.0));
        assert_eq!(estimate_refresh_hz(&[f64::NAN; 20]), None);
    }

    #[test]
    fn the_rolling_estimate_matches_the_whole_window_estimate() {
        let mut c = RefreshCounter::default();
        let mut history = Vec::new();
        let mut x: u32 = 12345;
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let delta = 4.0 + f64::from(x >> 16 & 0xff) / 8.0;
            c.observe(delta);
            history.push(delta);
            let tail = &history[history.len().saturating_sub(REFRESH_WINDOW)..];
            assert_eq!(c.refresh_hz(), estimate_refresh_hz(tail));
        }
    }

    #[test]
    fn severity_grades_against_the_budget_alone() {
        let budget = 10.0;
        assert_eq!(Severity::classify(10.9, budget), Severity::Normal);
        assert_eq!(Severity::classify(11.0, budget), Severity::Warning);
        assert_eq!(Severity::classify(14.9, budget), Severity::Warning);
        assert_eq!(Severity::classify(15.0, budget), Severity::Error);
        assert_eq!(Severity::classify(99.0, 0.0), Severity::Normal);
        assert_eq!(Severity::classify(99.0, f64::INFINITY), Severity::Normal);
        assert_eq!(Severity::Warning.to_string(), "warning");
    }
}
