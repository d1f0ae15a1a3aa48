//! The frame-pacing figures people compare between tools: 1% and 0.1% lows, stutter counts and
//! frames per second over the run.
//!
//! Each figure is defined here once, with its arithmetic, and used by the summary, the report
//! and `bt trace --format summary`:
//!
//! - **BT's lows**, in two forms, each named by what it is. For a share `s` (1% or 0.1%) of `n`
//!   frames:
//!   - the *mean of the slowest share*: 1000 / the mean of the slowest `⌈s × n⌉` frame times;
//!   - the *frame at the share's rank*: with the frame times sorted slowest first, 1000 / the
//!     one at index `max(0, ⌊s × n⌋ - 1)`.
//!
//!   Neither is any other tool's number; their own figures are the next item.
//! - **CapFrameX's own figures**, by the names CapFrameX gives them (see [`CapFrameXLows`]):
//!   "P1" and "P0.1", the percentile of the per-frame rates interpolated as Hyndman and Fan's
//!   type 8 ([`quantile_r8`]); the "1% low average" and "0.1% low average" over the frames at or
//!   past that percentile of frame time; and the "1% low integral" and "0.1% low integral",
//!   MSI Afterburner's reading, where the slowest frames are walked until they cover the share
//!   of the run's time. A 0.1% figure of fewer than [`FEWEST_FRAMES_FOR_TENTH_PERCENT`] frames
//!   rests on less than one frame and is flagged as such ([`tenth_percent_caveat`]).
//! - **Stutters**: frames longer than twice the median frame time, and frames longer than
//!   33.3, 50 and 100 ms.
//! - **Frames per second over the run**: frames whose end falls in each second of the clock's
//!   timeline, the first second from 0; the last second may be partial.
//! - **Animation error**, for a capture with display timing: for each displayed frame, how far
//!   the game time it showed moved since the previous displayed frame, less how far display
//!   time moved (its `MsBetweenDisplayChange`). A perfect display of a perfectly paced game
//!   gives 0; a frame that showed 16.7 ms of motion but stayed on screen for 33.3 ms gives
//!   -16.7 ms, a judder the eye sees.
//! - **Time below a rate** (CapFrameX's "time below X FPS"): the share of the run's time spent
//!   in frames longer than `1000 / rate` ms. A run that is 1% of frames at 10 fps spends far
//!   more than 1% of its time there, which is what a player feels.
//! - **Frame-to-frame changes** (CapFrameX's frame time variance): the change from each frame
//!   time to the next, `|t[i] - t[i-1]|`, counted in bins under 2, 4, 8 and 12 ms and from
//!   12 ms up, as shares of the changes. A steady 30 fps and a steady 60 fps both put every
//!   change in the first bin; alternating 10 and 23 ms frames put every one in the last.
//! - **CPU- or GPU-bound**, for a capture with busy times (PresentMon 2's `CPUBusy` and
//!   `GPUBusy`): a frame is bound by whichever was busy for at least 80% of its frame time
//!   (the GPU when both were), else by neither (it waited: vsync, a frame cap).
//! - **Displayed frames**, for a capture with display timing: the frames that reached the
//!   screen, their rate (shown frames over the time their display intervals cover) and the
//!   percentiles of their display intervals, beside the present intervals a game's own
//!   timing sees. A game presenting at 60 fps whose frames are shown at 30 is found here.
//!
//! ```
//! use bt_timing::pacing::Low;
//!
//! let mut frames = vec![10.0; 98];
//! frames.extend([50.0, 100.0]);
//! let low = Low::of(&frames, 0.01);
//! assert_eq!(low.average_fps, 10.0); // the slowest 1 frame: 100 ms
//! assert_eq!(low.percentile_fps, 10.0); // index 0 of the slowest first
//! ```

/// The stutter thresholds in ms: a 30 fps frame, 50 ms and 100 ms.
pub const STUTTER_MS: [f64; 3] = [1000.0 / 30.0, 50.0, 100.0];

/// BT's low figure in both its forms, in frames per second (0 when there are no frames).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Low {
    /// The mean of the slowest share: 1000 / the mean of the slowest `⌈share × n⌉` frame
    /// times.
    pub average_fps: f64,
    /// The frame at the share's rank: 1000 / the frame time at index `max(0, ⌊share × n⌋ - 1)`
    /// of the frame times sorted slowest first.
    pub percentile_fps: f64,
}

impl Low {
    /// The low of `frames_ms` (in any order) for `share` (0.01 for 1%).
    pub fn of(frames_ms: &[f64], share: f64) -> Low {
        let mut longest_first = frames_ms.to_vec();
        longest_first.sort_by(|a, b| b.total_cmp(a));
        Low::of_sorted(&longest_first, share)
    }

    /// As [`Low::of`], for frame times already sorted longest first.
    pub fn of_sorted(longest_first: &[f64], share: f64) -> Low {
        let n = longest_first.len();
        if n == 0 {
            return Low::default();
        }
        let worst = ((share * n as f64).ceil() as usize).clamp(1, n);
        let mean = longest_first[..worst].iter().sum::<f64>() / worst as f64;
        let index = ((share * n as f64).floor() as usize)
            .saturating_sub(1)
            .min(n - 1);
        Low {
            average_fps: fps(mean),
            percentile_fps: fps(longest_first[index]),
        }
    }
}

impl Low {
    /// As [`Low::of_sorted`], for frame times sorted shortest first, read from their end: the
    /// same figures, summed in the same order, with no reversed copy of the run.
    pub fn of_ascending(shortest_first: &[f64], share: f64) -> Low {
        let n = shortest_first.len();
        if n == 0 {
            return Low::default();
        }
        let worst = ((share * n as f64).ceil() as usize).clamp(1, n);
        let mean = shortest_first.iter().rev().take(worst).sum::<f64>() / worst as f64;
        let index = ((share * n as f64).floor() as usize)
            .saturating_sub(1)
            .min(n - 1);
        Low {
            average_fps: fps(mean),
            percentile_fps: fps(shortest_first[n - 1 - index]),
        }
    }
}

fn fps(ms: f64) -> f64 {
    if ms > 0.0 {
        1000.0 / ms
    } else {
        0.0
    }
}

/// A 0.1% figure of fewer frames than this rests on less than one frame: it is the slowest
/// frame, or a blend of the slowest two, and says nothing a longer run would repeat.
pub const FEWEST_FRAMES_FOR_TENTH_PERCENT: usize = 1000;

/// The flag a 0.1% figure of `frames` frames carries, `from 300 frames: too few for 0.1 %`,
/// or `None` from [`FEWEST_FRAMES_FOR_TENTH_PERCENT`] frames up.
///
/// ```
/// use bt_timing::pacing::tenth_percent_caveat;
///
/// assert_eq!(tenth_percent_caveat(300).unwrap(), "from 300 frames: too few for 0.1 %");
/// assert_eq!(tenth_percent_caveat(1000), None);
/// ```
pub fn tenth_percent_caveat(frames: usize) -> Option<String> {
    (frames < FEWEST_FRAMES_FOR_TENTH_PERCENT)
        .then(|| format!("from {frames} frames: too few for 0.1 %"))
}

/// The `p`-quantile (0 to 1) of `ascending` (sorted shortest first), interpolated as Hyndman
/// and Fan's type 8, the approximately median-unbiased estimate (R's `type = 8`, and the
/// `Quantile` of Math.NET Numerics that CapFrameX calls): with `h = (n + 1/3) p + 1/3`, the
/// value `x[⌊h⌋] + (h - ⌊h⌋)(x[⌊h⌋ + 1] - x[⌊h⌋])` counting from 1; the smallest value when
/// `⌊h⌋ < 1`, the largest when `⌊h⌋ ≥ n`. NaN when empty.
///
/// ```
/// use bt_timing::pacing::quantile_r8;
///
/// assert_eq!(quantile_r8(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
/// // R: quantile(1:10, 0.1, type = 8) is 1.366667.
/// let tenths: Vec<f64> = (1..=10).map(f64::from).collect();
/// assert!((quantile_r8(&tenths, 0.1) - (1.0 + 11.0 / 30.0)).abs() < 1e-12);
/// ```
pub fn quantile_r8(ascending: &[f64], p: f64) -> f64 {
    quantile_r8_of(ascending.len(), p, |i| ascending[i])
}

/// [`quantile_r8`] of the `n` values `at(0) ..= at(n - 1)`, shortest first, read in place.
fn quantile_r8_of(n: usize, p: f64, at: impl Fn(usize) -> f64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    let h = (n as f64 + 1.0 / 3.0) * p + 1.0 / 3.0;
    let whole = h.floor();
    if whole < 1.0 || p <= 0.0 {
        return at(0);
    }
    if whole >= n as f64 || p >= 1.0 {
        return at(n - 1);
    }
    let i = whole as usize;
    let (a, b) = (at(i - 1), at(i));
    a + (h - whole) * (b - a)
}

/// The frame times of `frames_ms` a rate can be taken of (finite and above 0), shortest first.
fn positive_ascending(frames_ms: &[f64]) -> Vec<f64> {
    let mut sorted: Vec<f64> = frames_ms
        .iter()
        .copied()
        .filter(|ms| ms.is_finite() && *ms > 0.0)
        .collect();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// CapFrameX's "P1" (`share` 0.01) and "P0.1" (0.001): the `share` quantile, by
/// [`quantile_r8`], of the per-frame rates `1000 / frame time`. 0 when no frame has a time
/// above 0.
pub fn capframex_percentile_fps(frames_ms: &[f64], share: f64) -> f64 {
    percentile_fps_of(&positive_ascending(frames_ms), share)
}

/// CapFrameX's "1% low average" (`share` 0.01) and "0.1% low average" (0.001): 1000 / the mean
/// of the frame times at or above their `1 - share` quantile by [`quantile_r8`] (the slowest
/// `share` of frames, the boundary interpolated). 0 when no frame has a time above 0.
pub fn capframex_low_average_fps(frames_ms: &[f64], share: f64) -> f64 {
    low_average_fps_of(&positive_ascending(frames_ms), share)
}

/// CapFrameX's "1% low integral" (`share` 0.01) and "0.1% low integral" (0.001), the x% low
/// of MSI Afterburner: walking the frames slowest first and adding up their times, 1000 / the
/// time of the frame at which the sum first reaches `share` of the run's whole time. 0 when no
/// frame has a time above 0.
pub fn capframex_low_integral_fps(frames_ms: &[f64], share: f64) -> f64 {
    low_integral_fps_of(&positive_ascending(frames_ms), share)
}

/// [`capframex_percentile_fps`] of positive frame times sorted shortest first. The rates
/// shortest first are the times longest first, read in place.
fn percentile_fps_of(sorted: &[f64], share: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return 0.0;
    }
    quantile_r8_of(n, share, |i| 1000.0 / sorted[n - 1 - i])
}

/// [`capframex_low_average_fps`] of positive frame times sorted shortest first.
fn low_average_fps_of(sorted: &[f64], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let bound = quantile_r8(sorted, 1.0 - share);
    let slow = &sorted[sorted.partition_point(|&ms| ms < bound)..];
    fps(slow.iter().sum::<f64>() / slow.len() as f64)
}

/// [`capframex_low_integral_fps`] of positive frame times sorted shortest first.
fn low_integral_fps_of(sorted: &[f64], share: f64) -> f64 {
    let target = share * sorted.iter().sum::<f64>();
    let mut covered = 0.0;
    for &ms in sorted.iter().rev() {
        covered += ms;
        if covered >= target {
            return fps(ms);
        }
    }
    sorted.first().map_or(0.0, |&ms| fps(ms))
}

/// The 1% and 0.1% figures CapFrameX reports, under its own names, in frames per second
/// (unrounded; CapFrameX rounds them for display).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CapFrameXLows {
    /// Frames the figures rest on (those with a time above 0).
    pub frames: usize,
    /// "P1": see [`capframex_percentile_fps`].
    pub p1_fps: f64,
    /// "P0.1": see [`capframex_percentile_fps`].
    pub p0_1_fps: f64,
    /// "1% low average": see [`capframex_low_average_fps`].
    pub low_1_average_fps: f64,
    /// "0.1% low average": see [`capframex_low_average_fps`].
    pub low_0_1_average_fps: f64,
    /// "1% low integral": see [`capframex_low_integral_fps`].
    pub low_1_integral_fps: f64,
    /// "0.1% low integral": see [`capframex_low_integral_fps`].
    pub low_0_1_integral_fps: f64,
}

impl CapFrameXLows {
    /// CapFrameX's figures of `frames_ms`, in any order.
    pub fn of(frames_ms: &[f64]) -> CapFrameXLows {
        CapFrameXLows::of_ascending(&positive_ascending(frames_ms))
    }

    /// CapFrameX's figures of frame times already sorted shortest first (as by
    /// `f64::total_cmp`), read in place: a summary of millions of frames makes no copy of
    /// them. Times that are not finite and above 0 are left out.
    pub fn of_ascending(ascending: &[f64]) -> CapFrameXLows {
        let usable = |ms: &f64| ms.is_finite() && *ms > 0.0;
        let start = ascending.iter().position(usable).unwrap_or(ascending.len());
        let end = ascending.iter().rposition(usable).map_or(start, |i| i + 1);
        let sorted = &ascending[start..end];
        CapFrameXLows {
            frames: sorted.len(),
            p1_fps: percentile_fps_of(sorted, 0.01),
            p0_1_fps: percentile_fps_of(sorted, 0.001),
            low_1_average_fps: low_average_fps_of(sorted, 0.01),
            low_0_1_average_fps: low_average_fps_of(sorted, 0.001),
            low_1_integral_fps: low_integral_fps_of(sorted, 0.01),
            low_0_1_integral_fps: low_integral_fps_of(sorted, 0.001),
        }
    }

    /// The figures as a summary line says them, the 0.1% ones flagged when too few frames
    /// carry them.
    pub fn text(&self) -> String {
        let mut text = format!(
            "CapFrameX's own figures  P1 {:.2} fps  1% low average {:.2} fps  1% low integral \
             {:.2} fps  P0.1 {:.2} fps  0.1% low average {:.2} fps  0.1% low integral {:.2} fps",
            self.p1_fps,
            self.low_1_average_fps,
            self.low_1_integral_fps,
            self.p0_1_fps,
            self.low_0_1_average_fps,
            self.low_0_1_integral_fps
        );
        if let Some(caveat) = tenth_percent_caveat(self.frames) {
            text.push_str(&format!(" (0.1 % figures {caveat})"));
        }
        text
    }
}

/// Stutter counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stutters {
    /// Frames longer than twice the median frame time.
    pub over_twice_median: usize,
    /// Frames longer than each of [`STUTTER_MS`].
    pub over_ms: [usize; 3],
}

impl Stutters {
    /// The counts over `frames_ms`, whose median frame time is `median_ms`.
    pub fn of(frames_ms: &[f64], median_ms: f64) -> Stutters {
        let mut s = Stutters::default();
        for &ms in frames_ms {
            s.over_twice_median += usize::from(ms > 2.0 * median_ms);
            for (count, limit) in s.over_ms.iter_mut().zip(STUTTER_MS) {
                *count += usize::from(ms > limit);
            }
        }
        s
    }
}

/// The upper ends of the frame-to-frame change bins, in ms; the last bin takes the rest.
pub const CHANGE_BINS_MS: [f64; 4] = [2.0, 4.0, 8.0, 12.0];

/// The share of the time `frames_ms` covers spent in frames longer than `1000 / fps` ms, in
/// percent (0 for no time).
///
/// ```
/// use bt_timing::pacing::time_below_percent;
///
/// // Three 20 ms frames and one 40 ms frame: 40 of 100 ms is spent below 30 fps.
/// assert_eq!(time_below_percent(&[20.0, 20.0, 20.0, 40.0], 30.0), 40.0);
/// assert!(time_below_percent(&[20.0], 30.0).is_sign_positive());
/// ```
pub fn time_below_percent(frames_ms: &[f64], fps: f64) -> f64 {
    let total: f64 = frames_ms.iter().sum();
    if total <= 0.0 || fps <= 0.0 {
        return 0.0;
    }
    let limit = 1000.0 / fps;
    // Folded from +0, since a sum of no floats is -0, which would print as "-0.0 %".
    let below = frames_ms
        .iter()
        .filter(|&&ms| ms > limit)
        .fold(0.0, |sum, ms| sum + ms);
    100.0 * below / total
}

/// The changes from each frame time to the next, as percent shares in the bins of
/// [`CHANGE_BINS_MS`] and a last bin for the rest; all 0 for fewer than two frames.
///
/// ```
/// use bt_timing::pacing::frame_to_frame_changes;
///
/// // Changes of 0.5, 3, 0 and 20 ms.
/// let shares = frame_to_frame_changes(&[16.0, 16.5, 19.5, 19.5, 39.5]);
/// assert_eq!(shares, [50.0, 25.0, 0.0, 0.0, 25.0]);
/// ```
pub fn frame_to_frame_changes(frames_ms: &[f64]) -> [f64; 5] {
    let mut counts = [0usize; 5];
    for pair in frames_ms.windows(2) {
        let change = (pair[1] - pair[0]).abs();
        let bin = CHANGE_BINS_MS
            .iter()
            .position(|&limit| change < limit)
            .unwrap_or(CHANGE_BINS_MS.len());
        counts[bin] += 1;
    }
    let n = frames_ms.len().saturating_sub(1);
    counts.map(|c| {
        if n == 0 {
            0.0
        } else {
            100.0 * c as f64 / n as f64
        }
    })
}

/// The value at `q` (0 to 1) of `sorted` by nearest rank: the `ceil(q × n)`th smallest (the
/// smallest for `q` = 0); 0 when empty.
///
/// ```
/// use bt_timing::pacing::nearest_rank;
///
/// assert_eq!(nearest_rank(&[10.0, 20.0, 30.0, 40.0], 0.5), 20.0);
/// assert_eq!(nearest_rank(&[10.0, 20.0, 30.0, 40.0], 0.99), 40.0);
/// ```
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// What reached the screen, from a capture's display intervals.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Displayed {
    /// Frames shown: those with a display interval (a frame never displayed has none, nor
    /// the first one shown of a file whose intervals start at it).
    pub shown: usize,
    /// The time their display intervals cover, in ms.
    pub span_ms: f64,
    /// Shown frames a second over that time: the displayed frame rate.
    pub fps: f64,
    /// Display intervals: median, 95th and 99th percentiles (nearest rank) and the largest,
    /// in ms.
    pub p50_ms: f64,
    /// See [`Displayed::p50_ms`].
    pub p95_ms: f64,
    /// See [`Displayed::p50_ms`].
    pub p99_ms: f64,
    /// See [`Displayed::p50_ms`].
    pub max_ms: f64,
}

impl Displayed {
    /// The displayed frames of `display_ms` (one interval a frame, 0 for one never shown);
    /// `None` when none was shown.
    ///
    /// ```
    /// use bt_timing::pacing::Displayed;
    ///
    /// // Four presents, every other one shown, each shown for two 60 Hz refreshes.
    /// let shown = Displayed::of(&[33.3, 0.0, 33.3, 0.0]).unwrap();
    /// assert_eq!((shown.shown, shown.p50_ms), (2, 33.3));
    /// assert!((shown.fps - 30.03).abs() < 0.01);
    /// ```
    pub fn of(display_ms: &[f64]) -> Option<Displayed> {
        let mut sorted: Vec<f64> = display_ms.iter().copied().filter(|&d| d > 0.0).collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let span_ms: f64 = sorted.iter().sum();
        let at = |q: f64| nearest_rank(&sorted, q);
        Some(Displayed {
            shown: sorted.len(),
            span_ms,
            fps: sorted.len() as f64 * 1000.0 / span_ms,
            p50_ms: at(0.50),
            p95_ms: at(0.95),
            p99_ms: at(0.99),
            max_ms: sorted[sorted.len() - 1],
        })
    }
}

/// How long a capture's frames took to reach the screen, from one of its latency columns.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Latency {
    /// Frames with a latency (a frame never displayed, or with no click behind it, has none).
    pub frames: usize,
    /// Median, 95th and 99th percentiles (nearest rank) and the largest, in ms.
    pub p50_ms: f64,
    /// See [`Latency::p50_ms`].
    pub p95_ms: f64,
    /// See [`Latency::p50_ms`].
    pub p99_ms: f64,
    /// See [`Latency::p50_ms`].
    pub max_ms: f64,
}

impl Latency {
    /// The figures of the finite values of `latency_ms` (a NaN is a frame with none); `None`
    /// when no frame has one.
    ///
    /// ```
    /// use bt_timing::pacing::Latency;
    ///
    /// let l = Latency::of(&[30.0, f64::NAN, 20.0, 25.0]).unwrap();
    /// assert_eq!((l.frames, l.p50_ms, l.max_ms), (3, 25.0, 30.0));
    /// assert_eq!(Latency::of(&[f64::NAN]), None);
    /// ```
    pub fn of(latency_ms: &[f64]) -> Option<Latency> {
        let mut sorted: Vec<f64> = latency_ms
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| nearest_rank(&sorted, q);
        Some(Latency {
            frames: sorted.len(),
            p50_ms: at(0.50),
            p95_ms: at(0.95),
            p99_ms: at(0.99),
            max_ms: sorted[sorted.len() - 1],
        })
    }
}

/// A frame is bound by the CPU or the GPU when that one was busy for at least this share of
/// the frame time (PresentMon's reading: a busy time close to the frame time is the limit).
pub const BOUND_SHARE: f64 = 0.8;

/// Where a capture's frames went: how long the CPU and the GPU were busy on each, and which
/// of them bounded the frame rate.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Busy {
    /// Frames with a busy time of either kind.
    pub frames: usize,
    /// CPU busy time p50, p95 and p99 (nearest rank), in ms, when the capture has it.
    pub cpu_ms: Option<[f64; 3]>,
    /// GPU busy time p50, p95 and p99, in ms, when the capture has it.
    pub gpu_ms: Option<[f64; 3]>,
    /// Percent of those frames the GPU bounded: busy for at least [`BOUND_SHARE`] of the frame
    /// time, and at least as long as the CPU.
    pub gpu_bound: f64,
    /// Percent the CPU bounded, when the capture has CPU busy times.
    pub cpu_bound: Option<f64>,
}

impl Busy {
    /// The busy figures of frames lasting `frames_ms`, with per-frame CPU and GPU busy times
    /// (NaN where unknown); `None` when no frame has either.
    ///
    /// ```
    /// use bt_timing::pacing::Busy;
    ///
    /// // 16.7 ms frames: the GPU busy 16 ms on two (bound), 8 ms on the third (waiting).
    /// let frames = [16.7, 16.7, 16.7];
    /// let busy = Busy::of(&frames, Some(&[4.0, 4.0, 4.0]), Some(&[16.0, 16.0, 8.0])).unwrap();
    /// assert_eq!(busy.gpu_ms, Some([16.0, 16.0, 16.0]));
    /// assert!((busy.gpu_bound - 200.0 / 3.0).abs() < 1e-9);
    /// assert_eq!(busy.cpu_bound, Some(0.0));
    /// ```
    pub fn of(frames_ms: &[f64], cpu_ms: Option<&[f64]>, gpu_ms: Option<&[f64]>) -> Option<Busy> {
        let at = |v: Option<&[f64]>, i: usize| {
            v.and_then(|v| v.get(i)).copied().filter(|x| x.is_finite())
        };
        let (mut frames, mut gpu_bound, mut cpu_bound) = (0usize, 0usize, 0usize);
        for (i, &frame) in frames_ms.iter().enumerate() {
            let (cpu, gpu) = (at(cpu_ms, i), at(gpu_ms, i));
            if cpu.is_none() && gpu.is_none() {
                continue;
            }
            frames += 1;
            let limit = BOUND_SHARE * frame;
            let (c, g) = (cpu.unwrap_or(0.0), gpu.unwrap_or(0.0));
            if gpu.is_some() && g >= limit && g >= c {
                gpu_bound += 1;
            } else if cpu.is_some() && c >= limit {
                cpu_bound += 1;
            }
        }
        if frames == 0 {
            return None;
        }
        let percentiles = |v: Option<&[f64]>| -> Option<[f64; 3]> {
            let mut sorted: Vec<f64> = v?.iter().copied().filter(|x| x.is_finite()).collect();
            if sorted.is_empty() {
                return None;
            }
            sorted.sort_by(f64::total_cmp);
            let at = |q: f64| {
                let rank = (q * sorted.len() as f64).ceil() as usize;
                sorted[rank.clamp(1, sorted.len()) - 1]
            };
            Some([at(0.50), at(0.95), at(0.99)])
        };
        let share = |n: usize| 100.0 * n as f64 / frames as f64;
        let cpu = percentiles(cpu_ms);
        Some(Busy {
            frames,
            gpu_ms: percentiles(gpu_ms),
            gpu_bound: share(gpu_bound),
            cpu_bound: cpu.map(|_| share(cpu_bound)),
            cpu_ms: cpu,
        })
    }
}

/// The animation error of each frame, in ms (see the module): `shown_ms[i]` is the game time
/// frame `i` showed, `display_ms[i]` the time from the previous displayed frame's display to
/// its own (0 for a frame never displayed). `None` for a frame never displayed, for the first
/// one displayed (nothing to measure from) and past the end of either list.
///
/// ```
/// use bt_timing::pacing::animation_error;
///
/// // Three frames each showing 16.7 ms more game time; the second was never displayed, so the
/// // third stayed 33.4 ms after the first on screen while showing 33.4 ms of motion.
/// let errors = animation_error(&[0.0, 16.7, 33.4], &[16.7, 0.0, 33.4]);
/// assert_eq!(errors, [None, None, Some(0.0)]);
/// ```
pub fn animation_error(shown_ms: &[f64], display_ms: &[f64]) -> Vec<Option<f64>> {
    let mut previous: Option<f64> = None;
    shown_ms
        .iter()
        .zip(display_ms)
        .map(|(&shown, &display)| {
            if display <= 0.0 {
                return None;
            }
            let error = previous.map(|p| (shown - p) - display);
            previous = Some(shown);
            error
        })
        .collect()
}

/// The mean and the largest size of a list of errors (`None` entries left out), or `None`
/// when it holds none.
pub fn error_sizes(errors: &[Option<f64>]) -> Option<(f64, f64)> {
    let sizes: Vec<f64> = errors.iter().flatten().map(|e| e.abs()).collect();
    if sizes.is_empty() {
        return None;
    }
    let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
    Some((mean, sizes.iter().copied().fold(0.0, f64::max)))
}

/// Frames ending in each second of a run whose frames last `frames_ms` end to end from 0.
pub fn frames_per_second(frames_ms: &[f64]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    let mut end = 0.0;
    for &ms in frames_ms {
        end += ms.max(0.0);
        // A frame ending exactly on a second belongs to the second it ends.
        let second = ((end / 1000.0).ceil() as usize).saturating_sub(1);
        if out.len() <= second {
            out.resize(second + 1, 0);
        }
        out[second] += 1;
    }
    out
}

/// The frame time at each whole percentile 0..=100 (nearest rank; 0 is the shortest, 100 the
/// longest), for a percentile curve. Empty for no frames.
pub fn percentile_curve(frames_ms: &[f64]) -> Vec<(f64, f64)> {
    let mut sorted = frames_ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return Vec::new();
    }
    (0..=100)
        .map(|p| {
            let rank = ((f64::from(p) / 100.0) * sorted.len() as f64).ceil() as usize;
            (f64::from(p), sorted[rank.clamp(1, sorted.len()) - 1])
        })
        .collect()
}

/// Frame times counted in 1 ms bins from 0 up to `top_ms` (the last bin takes everything
/// above), for a histogram.
pub fn histogram(frames_ms: &[f64], top_ms: usize) -> Vec<usize> {
    let mut bins = vec![0; top_ms.max(1)];
    let last = bins.len() - 1;
    for &ms in frames_ms {
        let bin = if ms.is_finite() && ms > 0.0 {
            (ms.floor() as usize).min(last)
        } else {
            0
        };
        bins[bin] += 1;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2,000 frames: 16.7 ms, with every 50th a 40 ms hitch and frame 1000 a 418 ms stall.
    fn capture() -> Vec<f64> {
        (0..2000)
            .map(|i| match i {
                1000 => 418.0,
                i if i % 50 == 49 => 40.0,
                _ => 16.7,
            })
            .collect()
    }

    #[test]
    fn lows_match_a_count_done_by_hand() {
        let frames = capture();
        // 40 hitches and a stall. The worst 1% is 20 frames: the stall and 19 hitches.
        let low = Low::of(&frames, 0.01);
        let want_avg = 1000.0 / ((418.0 + 19.0 * 40.0) / 20.0);
        assert!(
            (low.average_fps - want_avg).abs() < 1e-9,
            "{}",
            low.average_fps
        );
        // The frame at the 1% rank: index 0.01 × 2000 - 1 = 19, the 20th slowest: a hitch.
        assert_eq!(low.percentile_fps, 1000.0 / 40.0);
        // The worst 0.1% is 2 frames: the stall and a hitch; index 1, a hitch.
        let low = Low::of(&frames, 0.001);
        assert!((low.average_fps - 1000.0 / 229.0).abs() < 1e-9);
        assert_eq!(low.percentile_fps, 25.0);
        // Fewer frames than one share: the single worst frame.
        assert_eq!(
            Low::of(&[10.0, 20.0], 0.01),
            Low {
                average_fps: 50.0,
                percentile_fps: 50.0
            }
        );
        assert_eq!(Low::of(&[], 0.01), Low::default());
    }

    /// 200 frames: 190 of 10 ms, then ten slower ones from 10.5 to 15 ms in 0.5 ms steps.
    fn slow_tail() -> Vec<f64> {
        let mut frames = vec![10.0; 190];
        frames.extend((1..=10).map(|i| 10.0 + 0.5 * f64::from(i)));
        frames
    }

    #[test]
    fn capframex_p1_interpolates_the_rates_the_type_8_way() {
        // Rates slowest first: 1000/15, 1000/14.5, 1000/14, … For 1%, h = (200 + 1/3) × 0.01
        // + 1/3 = 2.336…: a third of the way from the 2nd rate to the 3rd.
        let h = (200.0 + 1.0 / 3.0) * 0.01 + 1.0 / 3.0;
        let want = 1000.0 / 14.5 + (h - 2.0) * (1000.0 / 14.0 - 1000.0 / 14.5);
        let got = capframex_percentile_fps(&slow_tail(), 0.01);
        assert!((got - want).abs() < 1e-9, "{got} against {want}");
        // For 0.1%, h = 0.53…, under 1: the slowest rate.
        assert_eq!(capframex_percentile_fps(&slow_tail(), 0.001), 1000.0 / 15.0);
        assert_eq!(capframex_percentile_fps(&[], 0.01), 0.0);
        assert_eq!(capframex_percentile_fps(&[0.0, f64::NAN], 0.01), 0.0);
    }

    #[test]
    fn capframex_low_average_is_the_mean_past_the_interpolated_bound() {
        // The 99% frame time: h = (200 + 1/3) × 0.99 + 1/3 = 198.66…, between the 198th
        // (14 ms) and the 199th (14.5 ms) shortest: 14.33 ms. Past it: 14.5 and 15 ms.
        let got = capframex_low_average_fps(&slow_tail(), 0.01);
        assert!((got - 1000.0 / 14.75).abs() < 1e-9, "{got}");
        // The 99.9% one is past the 200th: the longest, 15 ms, alone.
        assert_eq!(
            capframex_low_average_fps(&slow_tail(), 0.001),
            1000.0 / 15.0
        );
        // Equal frame times all reach the bound: every one counts.
        assert_eq!(capframex_low_average_fps(&[20.0; 200], 0.01), 50.0);
    }

    #[test]
    fn capframex_low_integral_walks_the_slowest_until_their_time_is_covered() {
        // The run's time is 1900 + 127.5 = 2027.5 ms; 1% of it is 20.275 ms. Slowest first,
        // 15 ms covers 15, then 14.5 ms brings it to 29.5: the 14.5 ms frame.
        let frames = slow_tail();
        assert_eq!(capframex_low_integral_fps(&frames, 0.01), 1000.0 / 14.5);
        // 0.1% is 2.03 ms: the slowest frame covers it alone.
        assert_eq!(capframex_low_integral_fps(&frames, 0.001), 1000.0 / 15.0);
        // One 100 ms stall in 1 s of 10 ms frames: 1% of 1,090 ms is 10.9 ms, which the
        // stall covers.
        let mut stall = vec![10.0; 99];
        stall.push(100.0);
        assert_eq!(capframex_low_integral_fps(&stall, 0.01), 10.0);
        assert_eq!(capframex_low_integral_fps(&[], 0.01), 0.0);
    }

    #[test]
    fn bts_own_lows_of_the_slow_tail_by_hand() {
        // ⌈2⌉ slowest: 15 and 14.5 ms; the frame at index ⌊2⌋ - 1 = 1 slowest first: 14.5 ms.
        let low = Low::of(&slow_tail(), 0.01);
        assert!((low.average_fps - 1000.0 / 14.75).abs() < 1e-9);
        assert_eq!(low.percentile_fps, 1000.0 / 14.5);
    }

    #[test]
    fn a_tenth_percent_figure_of_under_a_thousand_frames_is_flagged() {
        let lows = CapFrameXLows::of(&slow_tail());
        assert_eq!(lows.frames, 200);
        assert!(lows.text().contains("from 200 frames: too few for 0.1 %"));
        let lows = CapFrameXLows::of(&capture());
        assert!(!lows.text().contains("too few"), "{}", lows.text());
    }

    /// The game's present intervals in `runtime/tests/captures/stalls-2000.csv`, read here with
    /// nothing of BT's reader.
    fn stalls_2000() -> Vec<f64> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/captures/stalls-2000.csv"
        );
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("game.exe"))
            .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
            .collect()
    }

    /// Type 8 as Hyndman and Fan write it, on 1-based order statistics clamped to the ends.
    fn type_8(ascending: &[f64], p: f64) -> f64 {
        let n = ascending.len() as f64;
        let m = (p + 1.0) / 3.0;
        let j = (n * p + m).floor();
        let g = n * p + m - j;
        let x = |k: f64| ascending[(k.clamp(1.0, n) as usize) - 1];
        (1.0 - g) * x(j) + g * x(j + 1.0)
    }

    #[test]
    fn capframex_figures_of_a_public_capture_match_a_plain_reimplementation() {
        let frames = stalls_2000();
        assert_eq!(frames.len(), 2000);
        let mut ascending = frames.clone();
        ascending.sort_by(f64::total_cmp);
        let mut rates: Vec<f64> = frames.iter().map(|ms| 1000.0 / ms).collect();
        rates.sort_by(f64::total_cmp);
        let total: f64 = frames.iter().sum();
        let lows = CapFrameXLows::of(&frames);
        let near = |got: f64, want: f64, what: &str| {
            assert!((got - want).abs() < 1e-9, "{what}: {got} against {want}");
        };
        for (share, p, average, integral) in [
            (
                0.01,
                lows.p1_fps,
                lows.low_1_average_fps,
                lows.low_1_integral_fps,
            ),
            (
                0.001,
                lows.p0_1_fps,
                lows.low_0_1_average_fps,
                lows.low_0_1_integral_fps,
            ),
        ] {
            near(p, type_8(&rates, share), "P");
            let bound = type_8(&ascending, 1.0 - share);
            let past: Vec<f64> = frames.iter().copied().filter(|&f| f >= bound).collect();
            near(
                average,
                1000.0 / (past.iter().sum::<f64>() / past.len() as f64),
                "low average",
            );
            // The integral frame: the shortest frame whose slower-or-equal ones (counting
            // itself and those before it in the walk) first reach the share of the time.
            let mut covered = 0.0;
            let frame = ascending
                .iter()
                .rev()
                .find(|&&ms| {
                    covered += ms;
                    covered >= share * total
                })
                .unwrap();
            near(integral, 1000.0 / frame, "low integral");
        }
        // The figures differ from BT's own on this capture, which is why each is named.
        assert_ne!(lows.p1_fps, Low::of(&frames, 0.01).percentile_fps);
    }

    #[test]
    fn stutters_count_frames_over_each_threshold() {
        let frames = capture();
        let s = Stutters::of(&frames, 16.7);
        assert_eq!(s.over_twice_median, 41, "40 ms > 33.4 ms, and the stall");
        assert_eq!(s.over_ms, [41, 1, 1]);
        // Exactly on a threshold is not over it.
        assert_eq!(Stutters::of(&[50.0, 100.0], 25.0).over_ms, [2, 1, 0]);
        assert_eq!(Stutters::of(&[50.0, 100.0], 25.0).over_twice_median, 1);
    }

    #[test]
    fn frames_per_second_buckets_frames_by_the_second_they_end_in() {
        // 250 ms frames: four a second, the fourth ending on the second.
        assert_eq!(frames_per_second(&[250.0; 10]), [4, 4, 2]);
        let frames = capture();
        let per_second = frames_per_second(&frames);
        assert_eq!(per_second.iter().sum::<u32>(), 2000);
        let span: f64 = frames.iter().sum();
        assert_eq!(per_second.len(), (span / 1000.0).ceil() as usize);
        // An independent count of second 0: frames whose end is at most 1000 ms.
        let mut end = 0.0;
        let first = frames
            .iter()
            .take_while(|&&ms| {
                end += ms;
                end <= 1000.0
            })
            .count();
        assert_eq!(per_second[0] as usize, first);
        assert!(frames_per_second(&[]).is_empty());
    }

    #[test]
    fn animation_error_is_motion_shown_less_time_on_screen() {
        // Game time advancing 16.7 ms a frame; the display holds frame 2 for two refreshes and
        // never shows frame 4.
        let shown = [0.0, 16.7, 33.4, 50.1, 66.8, 83.5];
        let display = [16.7, 16.7, 33.4, 16.7, 0.0, 33.4];
        let got = animation_error(&shown, &display);
        // Worked by hand: frame 2 showed 16.7 ms of motion over 33.4 ms on screen.
        let want = [
            None,
            Some(0.0),
            Some(16.7 - 33.4),
            Some(0.0),
            None,
            Some(0.0),
        ];
        for (g, w) in got.iter().zip(want) {
            match (g, w) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-9, "{got:?}"),
                (g, w) => assert_eq!(*g, w, "{got:?}"),
            }
        }
        let (mean, max) = error_sizes(&got).unwrap();
        assert!((mean - 16.7 / 4.0).abs() < 1e-9 && (max - 16.7).abs() < 1e-9);
        assert_eq!(error_sizes(&[None, None]), None);
        assert_eq!(
            animation_error(&[1.0, 2.0], &[16.7]).len(),
            1,
            "the shorter list"
        );
    }

    #[test]
    fn the_curve_and_the_histogram_hold_every_frame() {
        let frames = capture();
        let curve = percentile_curve(&frames);
        assert_eq!(curve.len(), 101);
        assert_eq!(curve[0], (0.0, 16.7));
        assert_eq!(curve[50], (50.0, 16.7));
        assert_eq!(curve[99], (99.0, 40.0));
        assert_eq!(curve[100], (100.0, 418.0));
        let bins = histogram(&frames, 100);
        assert_eq!(bins.iter().sum::<usize>(), 2000);
        assert_eq!((bins[16], bins[40], bins[99]), (1959, 40, 1));
    }
}
