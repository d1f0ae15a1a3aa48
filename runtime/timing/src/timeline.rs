//! A run's frames on a timeline, for looking at after the fact: a summary of what the loop did
//! (here), a Chrome trace ([`crate::chrome_trace`]) and an HTML report
//! (`bt-tools`).
//!
//! [`Timeline`] records each frame's report, the display refreshes the overlay counted as
//! missed and the tags the cart placed. `bt diagnose` records a whole run; `bt run` keeps a rolling window of
//! the last seconds so a stutter seen in play can be saved and studied.
//!
//! ```
//! use bt_overlay::FrameStats;
//! use bt_timing::timeline::Timeline;
//! use bt_engine::FrameReport;
//!
//! let mut t = Timeline::new(1000.0 / 60.0);
//! for (frame, delta) in [16.7, 16.7, 50.0, 8.3].into_iter().enumerate() {
//!     let updates = if delta > 40.0 { 3 } else { 1 };
//!     let stats = FrameStats { delta_ms: delta, updates, ..FrameStats::default() };
//!     t.record(&FrameReport { frame: frame as u64, render_alpha: 0.0, stats }, 0, &[]);
//! }
//! let s = t.summary();
//! assert_eq!(s.frames, 4);
//! assert_eq!(s.max_ms, 50.0);
//! assert_eq!(s.updates_per_frame[3], 1);
//! ```

use std::collections::VecDeque;
use std::fmt::Write as _;

use bt::Tag;
use bt_overlay::{FrameStats, Refresh};

use crate::captured::CapturedFigures;
use crate::engine::FrameReport;
use crate::pacing::{
    animation_error, error_sizes, frame_to_frame_changes, frames_per_second, tenth_percent_caveat,
    time_below_percent, Busy, CapFrameXLows, Displayed, Latency, Low, Stutters, BOUND_SHARE,
    STUTTER_MS,
};

/// Frames a rolling timeline keeps at most, whatever their length: ten seconds at 1,000
/// frames a second. Allocated up front, so recording never allocates.
pub const ROLLING_CAPACITY: usize = 10_000;

/// Frames a whole-run timeline keeps at most: 2^24, 1.6 GB at [`KEPT_BYTES_PER_FRAME`]
/// (`bt trace --format summary` and `chrome`, `bt diagnose`). Its exact percentiles need
/// every frame, so a longer run is refused before it starts rather than filling memory; the
/// CSV and JSON traces stream and have no such limit.
pub const MAX_KEPT_FRAMES: u64 = 1 << 24;

/// The most memory a whole-run timeline takes a frame: a [`FrameRecord`] (80 bytes) while the
/// run goes, and, while its summary is worked out, the frame times twice more (in order, and
/// sorted for the exact percentiles). Nothing else of a clock's run is kept a frame; a
/// capture's own columns (display times, busy times, latency) are its file's.
pub const KEPT_BYTES_PER_FRAME: u64 = 96;

/// How many of the longest frames the summary lists.
pub const WORST_FRAMES: usize = 5;
/// The rates a summary gives the time spent below, in frames a second.
pub const TIME_BELOW_FPS: [f64; 2] = [60.0, 30.0];

/// One recorded frame: what the summary, the Chrome trace and the report read of it, and no
/// more (80 bytes; a whole run keeps one a frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameRecord {
    /// The frame's number, from 0.
    pub frame: u64,
    /// When the frame began on the clock's timeline, in ms from the first recorded frame.
    pub start_ms: f64,
    /// The frame's delta, in ms ([`FrameStats::delta_ms`]).
    pub delta_ms: f64,
    /// What `render` saw of the time between updates.
    pub render_alpha: f64,
    /// How long the updates and the render were measured to take, in ms.
    pub update_ms: f64,
    /// See [`FrameRecord::update_ms`].
    pub render_ms: f64,
    /// Time the 8-update cap threw away, in ms (0 unless clamped).
    pub discarded_ms: f64,
    /// The tick counter after the frame.
    pub ticks: u64,
    /// Display refreshes the overlay counted as missed at this frame (0 when none, and when
    /// the timeline's refresh is n/a).
    pub missed: u32,
    /// Draw calls the render made, all kinds together.
    pub draw_calls: u32,
    /// Updates the frame ran.
    pub updates: u32,
    /// Whether the 8-update cap clamped the frame.
    pub clamped: bool,
}

impl FrameRecord {
    /// The frame's report as the overlay's chart reads it: what is kept, with the measured
    /// frame time and the draw calls by kind (not kept) left at 0.
    pub fn stats(&self) -> FrameStats {
        FrameStats {
            updates: self.updates,
            clamped: self.clamped,
            discarded_ms: self.discarded_ms,
            delta_ms: self.delta_ms,
            update_ms: self.update_ms,
            render_ms: self.render_ms,
            ticks: self.ticks,
            ..FrameStats::default()
        }
    }
}

/// A tag the cart placed, on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct TagMark {
    /// The frame it was placed in.
    pub frame: u64,
    /// The tick it was placed at.
    pub tick: u64,
    /// When that frame began, in ms on the timeline.
    pub at_ms: f64,
    /// Its label.
    pub label: String,
}

/// Frames and tags in order, all of a run or the last seconds of it.
#[derive(Debug, Clone)]
pub struct Timeline {
    frames: VecDeque<FrameRecord>,
    tags: VecDeque<TagMark>,
    budget_ms: f64,
    /// Where the next frame starts on the timeline.
    clock_ms: f64,
    /// `Some(ms)`: keep only the frames that began within this long of the newest.
    window_ms: Option<f64>,
    /// What missed refreshes were counted against, and the rate last used.
    refresh: (Refresh, Option<f64>),
    /// Where the frame times came from.
    source: FrameSource,
}

/// Where a timeline's frame times came from.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum FrameSource {
    /// A clock of BT's own: the costs measured on this machine belong to the same run.
    #[default]
    Clock,
    /// A capture of another program's frames: the costs measured on this machine are the
    /// cart's, not the captured program's.
    Capture {
        /// The capture's file and the stream played, as [`crate::clock::capture::Capture`]
        /// names them.
        name: String,
        /// Presents the capture says were never displayed (PresentMon's `Dropped`).
        not_displayed: Option<usize>,
        /// The capture's display intervals (`MsBetweenDisplayChange`), one per captured frame
        /// (0 for one never displayed), when it has them; a looped capture repeats them.
        display_ms: Option<Vec<f64>>,
        /// How long the captured program's CPU and GPU were busy on each captured frame (NaN
        /// where unknown), when the capture says.
        busy_ms: (Option<Vec<f64>>, Option<Vec<f64>>),
        /// Each captured frame's latency to the display (NaN where unknown) and the column
        /// it came from, when the capture says (see
        /// [`crate::clock::capture::Stream::latency_ms`]).
        latency_ms: Option<(String, Vec<f64>)>,
        /// Each captured frame's click-to-photon latency (NaN where no click contributed),
        /// when the capture has the column.
        click_ms: Option<Vec<f64>>,
        /// Its further columns: frame types, other latencies, present modes.
        columns: Box<crate::captured::CapturedColumns>,
    },
}

/// The refreshes a frame displayed for `display_ms` repeated on a display of `hz`: its display
/// interval in refreshes, less one (how PresentMon and CapFrameX count them). A frame never
/// displayed (0 ms) repeated none.
pub fn display_repeats(display_ms: f64, hz: f64) -> u64 {
    ((display_ms * hz / 1000.0).round() - 1.0).max(0.0) as u64
}

/// Frame `frame`'s value of a capture's per-frame `values`, which a looped capture repeats;
/// `None` when there are none.
fn looped(values: &[f64], frame: u64) -> Option<f64> {
    (!values.is_empty()).then(|| values[(frame % values.len() as u64) as usize])
}

impl FrameSource {
    /// Whether the source carries display times (a capture that has them).
    pub fn has_display_times(&self) -> bool {
        matches!(
            self,
            FrameSource::Capture {
                display_ms: Some(_),
                ..
            }
        )
    }

    /// How long the captured program's CPU and GPU were busy on frame `frame`, each when the
    /// source says (a NaN is kept: the capture had `NA` there).
    pub fn busy_ms(&self, frame: u64) -> (Option<f64>, Option<f64>) {
        let FrameSource::Capture { busy_ms, .. } = self else {
            return (None, None);
        };
        let at = |v: &Option<Vec<f64>>| v.as_deref().and_then(|v| looped(v, frame));
        (at(&busy_ms.0), at(&busy_ms.1))
    }

    /// Frame `frame`'s latency to the display and its click-to-photon latency, each when the
    /// source says (NaN kept where the capture had `NA`).
    pub fn latency_ms(&self, frame: u64) -> (Option<f64>, Option<f64>) {
        let FrameSource::Capture {
            latency_ms,
            click_ms,
            ..
        } = self
        else {
            return (None, None);
        };
        (
            latency_ms.as_ref().and_then(|(_, v)| looped(v, frame)),
            click_ms.as_deref().and_then(|v| looped(v, frame)),
        )
    }

    /// The column the source's display latency came from, when it has one.
    pub fn latency_column(&self) -> Option<&str> {
        match self {
            FrameSource::Capture {
                latency_ms: Some((name, _)),
                ..
            } => Some(name),
            _ => None,
        }
    }

    /// The display interval of frame `frame`, when the source has display timing.
    pub fn display_ms(&self, frame: u64) -> Option<f64> {
        match self {
            FrameSource::Capture {
                display_ms: Some(d),
                ..
            } => looped(d, frame),
            _ => None,
        }
    }
}

impl Timeline {
    /// An empty timeline that keeps every frame, for a cart whose update budget is
    /// `budget_ms` (`1000 / target_fps`).
    pub fn new(budget_ms: f64) -> Timeline {
        Timeline {
            frames: VecDeque::new(),
            tags: VecDeque::new(),
            budget_ms,
            clock_ms: 0.0,
            window_ms: None,
            refresh: (Refresh::Rolling, None),
            source: FrameSource::Clock,
        }
    }

    /// A timeline that keeps the frames of the last `window_ms` (at most
    /// [`ROLLING_CAPACITY`] of them), with its storage allocated now.
    pub fn rolling(budget_ms: f64, window_ms: f64) -> Timeline {
        Timeline {
            frames: VecDeque::with_capacity(ROLLING_CAPACITY),
            tags: VecDeque::with_capacity(64),
            budget_ms,
            clock_ms: 0.0,
            window_ms: Some(window_ms),
            refresh: (Refresh::Rolling, None),
            source: FrameSource::Clock,
        }
    }

    /// Makes room for `frames` more frames now, for a run whose length is known: its storage
    /// is then taken once, not grown (and for a moment held twice) as the run goes. Pages
    /// never written (a run that ends early) take no memory.
    pub fn reserve(&mut self, frames: usize) {
        self.frames.reserve(frames);
    }

    /// Says what missed refreshes were counted against: the source and the rate in use at the
    /// end (as [`bt_overlay::Overlay::refresh`] gives them). A source that counts none
    /// ([`Refresh::counts_misses`]: tearing, V-Sync off) makes them n/a in the summary.
    pub fn set_refresh(&mut self, refresh: (Refresh, Option<f64>)) {
        self.refresh = refresh;
    }

    /// What missed refreshes were counted against.
    pub fn refresh(&self) -> (Refresh, Option<f64>) {
        self.refresh
    }

    /// Says where the frame times came from.
    pub fn set_source(&mut self, source: FrameSource) {
        self.source = source;
    }

    /// Where the frame times came from.
    pub fn source(&self) -> &FrameSource {
        &self.source
    }

    /// Each kept frame's animation error, when the source has display timing (else all
    /// `None`): see [`crate::pacing::animation_error`], with the game time each frame
    /// showed from [`Timeline::shown_ms`].
    pub fn animation_errors(&self) -> Vec<Option<f64>> {
        let display: Option<Vec<f64>> = self
            .frames
            .iter()
            .map(|f| self.source.display_ms(f.frame))
            .collect();
        match display {
            Some(display) => animation_error(&self.shown_ms(), &display),
            None => vec![None; self.frames.len()],
        }
    }

    /// The game time each kept frame showed, in ms from the first kept frame's updates:
    /// `(updates run + render_alpha) × budget`. Counted in updates, not in the cart's tick
    /// counter, which a cart may reset (a new round): only the motion between frames matters.
    pub fn shown_ms(&self) -> Vec<f64> {
        self.shown_ms_iter().collect()
    }

    /// [`Timeline::shown_ms`] as it is worked out, frame by frame, with no copy of the run.
    pub fn shown_ms_iter(&self) -> impl Iterator<Item = f64> + '_ {
        let mut updates = 0u64;
        self.frames.iter().map(move |f| {
            updates += u64::from(f.updates);
            (updates as f64 + f.render_alpha) * self.budget_ms
        })
    }

    /// Adds a frame: its report, the display refreshes the overlay counted as missed, and the
    /// tags the cart placed during it.
    pub fn record(&mut self, report: &FrameReport, missed: u32, tags: &[Tag]) {
        let start_ms = self.clock_ms;
        let stats = &report.stats;
        self.clock_ms += stats.delta_ms.max(0.0);
        if self.window_ms.is_some() && self.frames.len() == ROLLING_CAPACITY {
            self.frames.pop_front();
        }
        self.frames.push_back(FrameRecord {
            frame: report.frame,
            start_ms,
            delta_ms: stats.delta_ms,
            render_alpha: report.render_alpha,
            update_ms: stats.update_ms,
            render_ms: stats.render_ms,
            discarded_ms: stats.discarded_ms,
            ticks: stats.ticks,
            missed,
            draw_calls: stats.draw_counts.total(),
            updates: stats.updates,
            clamped: stats.clamped,
        });
        for tag in tags {
            self.tags.push_back(TagMark {
                frame: report.frame,
                tick: tag.tick,
                at_ms: start_ms,
                label: tag.label.clone(),
            });
        }
        if let Some(window) = self.window_ms {
            while self
                .frames
                .front()
                .is_some_and(|f| f.start_ms < self.clock_ms - window)
            {
                self.frames.pop_front();
            }
            let first = self.frames.front().map_or(u64::MAX, |f| f.frame);
            while self.tags.front().is_some_and(|t| t.frame < first) {
                self.tags.pop_front();
            }
        }
    }

    /// The update budget the timeline was made for, in ms: `1000 / target_fps`.
    pub fn budget_ms(&self) -> f64 {
        self.budget_ms
    }

    /// The frames kept, oldest first.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = &FrameRecord> + '_ {
        self.frames.iter()
    }

    /// The frames kept, oldest first, in one slice: borrowed for a whole-run timeline, which
    /// keeps its frames in one piece; copied for a rolling one whose storage has wrapped.
    pub fn frames_in_one(&self) -> std::borrow::Cow<'_, [FrameRecord]> {
        match self.frames.as_slices() {
            (all, []) => std::borrow::Cow::Borrowed(all),
            (a, b) => std::borrow::Cow::Owned([a, b].concat()),
        }
    }

    /// The tags kept, oldest first.
    pub fn tags(&self) -> impl Iterator<Item = &TagMark> + '_ {
        self.tags.iter()
    }

    /// Forgets every frame and tag.
    pub fn clear(&mut self) {
        self.frames.clear();
        self.tags.clear();
    }

    /// What the frames kept add up to.
    pub fn summary(&self) -> Summary {
        Summary::of(self)
    }
}

/// A whole run kept for its summary alone (`bt trace --format summary`, `bt diagnose` writing
/// no per-frame chart or report): each frame's time, and for a source with display times the
/// game time it showed, [`SUMMARY_BYTES_PER_FRAME`] at most; everything else is counted as the
/// frames come. Its [`RunSummary::summary`] gives the figures a [`Timeline`] of the same
/// frames gives.
///
/// Frames are recorded one after another as a run delivers them, numbered consecutively.
///
/// ```
/// use bt_overlay::FrameStats;
/// use bt_timing::timeline::{RunSummary, Timeline};
/// use bt_engine::FrameReport;
///
/// let (mut run, mut whole) = (RunSummary::new(1000.0 / 60.0), Timeline::new(1000.0 / 60.0));
/// for (frame, delta) in [16.7, 16.7, 50.0, 8.3].into_iter().enumerate() {
///     let stats = FrameStats { delta_ms: delta, updates: 1, ..FrameStats::default() };
///     let report = FrameReport { frame: frame as u64, render_alpha: 0.0, stats };
///     run.record(&report, 0, &[]);
///     whole.record(&report, 0, &[]);
/// }
/// assert_eq!(run.summary(), whole.summary());
/// ```
#[derive(Debug, Clone)]
pub struct RunSummary {
    budget_ms: f64,
    /// The first frame's number; the others follow it.
    first: Option<u64>,
    deltas: Vec<f64>,
    /// The game time each frame showed, kept only for a source with display times.
    shown: Vec<f64>,
    /// Updates run so far, for the game time shown.
    updates: u64,
    counts: Counts,
    longest: Longest<(u64, f64, u64)>,
    tags: VecDeque<TagMark>,
    refresh: (Refresh, Option<f64>),
    source: FrameSource,
}

/// The most memory a [`RunSummary`] takes a frame: its time (8 bytes), the game time shown
/// for a source with display times (8), and the sorted copy of the times the exact
/// percentiles are read from while the summary is worked out (8). A capture's own columns
/// (display and busy times, latency) are its file's, 8 bytes a number.
pub const SUMMARY_BYTES_PER_FRAME: u64 = 24;

impl RunSummary {
    /// An empty run of a cart whose update budget is `budget_ms` (`1000 / target_fps`).
    pub fn new(budget_ms: f64) -> RunSummary {
        RunSummary {
            budget_ms,
            first: None,
            deltas: Vec::new(),
            shown: Vec::new(),
            updates: 0,
            counts: Counts::default(),
            longest: Longest::new(WORST_FRAMES),
            tags: VecDeque::new(),
            refresh: (Refresh::Rolling, None),
            source: FrameSource::Clock,
        }
    }

    /// Makes room for `frames` more frames now, for a run whose length is known (see
    /// [`Timeline::reserve`]). Call after [`RunSummary::set_source`].
    pub fn reserve(&mut self, frames: usize) {
        self.deltas.reserve(frames);
        if self.source.has_display_times() {
            self.shown.reserve(frames);
        }
    }

    /// Says where the frame times come from; before the first frame is recorded.
    pub fn set_source(&mut self, source: FrameSource) {
        self.source = source;
    }

    /// Says what missed refreshes were counted against (see [`Timeline::set_refresh`]).
    pub fn set_refresh(&mut self, refresh: (Refresh, Option<f64>)) {
        self.refresh = refresh;
    }

    /// Frames recorded.
    pub fn len(&self) -> usize {
        self.deltas.len()
    }

    /// Whether no frame was recorded.
    pub fn is_empty(&self) -> bool {
        self.deltas.is_empty()
    }

    /// Every frame time recorded, in ms, in order.
    pub fn frames_ms(&self) -> &[f64] {
        &self.deltas
    }

    /// The longest frame time recorded, in ms (0 with none).
    pub fn longest_ms(&self) -> f64 {
        self.deltas.iter().copied().fold(0.0, f64::max)
    }

    /// Adds the next frame: its report, the display refreshes the overlay counted as missed,
    /// and the tags the cart placed during it (as [`Timeline::record`]).
    pub fn record(&mut self, report: &FrameReport, missed: u32, tags: &[Tag]) {
        let stats = &report.stats;
        let first = *self.first.get_or_insert(report.frame);
        debug_assert_eq!(report.frame, first + self.deltas.len() as u64);
        self.deltas.push(stats.delta_ms);
        self.updates += u64::from(stats.updates);
        if self.source.has_display_times() {
            self.shown
                .push((self.updates as f64 + report.render_alpha) * self.budget_ms);
        }
        self.counts
            .add(stats.updates, stats.clamped, stats.discarded_ms, missed);
        self.longest
            .offer(stats.delta_ms, (report.frame, stats.delta_ms, stats.ticks));
        for tag in tags {
            self.tags.push_back(TagMark {
                frame: report.frame,
                tick: tag.tick,
                // Not read by a summary.
                at_ms: 0.0,
                label: tag.label.clone(),
            });
        }
    }

    /// What the frames add up to: the figures [`Timeline::summary`] gives for them.
    pub fn summary(&self) -> Summary {
        let first = self.first.unwrap_or(0);
        let number = |i: usize| first + i as u64;
        Summary::of_frames(RunFrames {
            deltas: &self.deltas,
            number: &number,
            shown: self.source.has_display_times().then_some(&self.shown[..]),
            counts: self.counts,
            longest: self.longest.clone().into_items(),
            tags: &self.tags,
            refresh: self.refresh,
            source: &self.source,
        })
    }
}

/// What a run's frames add up to: the figures a person checks first.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Frames recorded.
    pub frames: usize,
    /// Against a variable-refresh panel's range, when one was given.
    pub vrr: Option<VrrGrade>,
    /// Time they covered, in ms.
    pub span_ms: f64,
    /// Frame deltas: median, 95th and 99th percentiles (nearest rank) and the largest, in ms.
    pub p50_ms: f64,
    /// See [`Summary::p50_ms`].
    pub p95_ms: f64,
    /// See [`Summary::p50_ms`].
    pub p99_ms: f64,
    /// See [`Summary::p50_ms`].
    pub max_ms: f64,
    /// Frames over elapsed time: the true present rate over the run.
    pub fps: f64,
    /// How many frames ran 0, 1, 2 … 8 updates (index = updates; 8 is the cap).
    pub updates_per_frame: [usize; 9],
    /// Frames the 8-update cap clamped, and the time it threw away in all.
    pub clamped: usize,
    /// See [`Summary::clamped`].
    pub discarded_ms: f64,
    /// Display refreshes missed, as the overlay counted them (see
    /// [`bt_overlay::missed_refreshes`]); `None` (n/a) when the refresh source counts none
    /// ([`Refresh::counts_misses`]).
    pub missed_refreshes: Option<u64>,
    /// Frames that missed at least one refresh (`None` when n/a).
    pub frames_missing_refreshes: Option<usize>,
    /// Refreshes missed by the capture's displayed frames, counted from its display times
    /// (each display interval in refreshes, less one: PresentMon's and CapFrameX's count),
    /// and the frames that missed any; `None` without display times or a refresh rate.
    pub display_missed: Option<(u64, usize)>,
    /// What the missed refreshes were counted against, and the rate last used.
    pub refresh: (Refresh, Option<f64>),
    /// Presents a capture says were never displayed (PresentMon's `Dropped`), when it says.
    pub not_displayed: Option<usize>,
    /// BT's 1% low, in both its forms (see [`crate::pacing`]).
    pub low_1: Low,
    /// BT's 0.1% low, in both its forms.
    pub low_01: Low,
    /// CapFrameX's own 1% and 0.1% figures, by its names.
    pub capframex: CapFrameXLows,
    /// CapFrameX's stuttering time, in percent of the run's time (see
    /// [`crate::stuttering`]).
    pub capframex_stuttering_percent: f64,
    /// Stutter counts.
    pub stutters: Stutters,
    /// Frames ending in each second of the run, from 0 (the last second may be partial).
    pub frames_per_second: Vec<u32>,
    /// For a capture with display timing, the animation error's mean and largest size in ms
    /// (see [`crate::pacing::animation_error`]).
    pub animation_error: Option<(f64, f64)>,
    /// The longest frames, longest first: frame number, delta, tick after it, and the nearest
    /// tag at or before it.
    pub worst: Vec<(u64, f64, u64, Option<String>)>,
    /// The share of the run's time spent below 60 and 30 frames a second, in percent, as
    /// `(rate, percent)` (see [`crate::pacing::time_below_percent`]).
    pub time_below: [(f64, f64); 2],
    /// The same below the refresh rate, when one is known and is neither 60 nor 30 Hz.
    pub time_below_refresh: Option<(f64, f64)>,
    /// Frame-to-frame changes in the bins of [`crate::pacing::CHANGE_BINS_MS`], as
    /// percent shares.
    pub changes: [f64; 5],
    /// What reached the screen, for a capture with display times.
    pub displayed: Option<Displayed>,
    /// The captured program's CPU and GPU busy times and what bounded its frames, for a
    /// capture with busy times.
    pub busy: Option<Busy>,
    /// The captured frames' latency to the display and the column it came from, for a
    /// capture with one.
    pub latency: Option<(String, Latency)>,
    /// Their click-to-photon latency, for a capture whose frames had clicks behind them.
    pub click: Option<Latency>,
    /// What the capture's further columns say: other latencies, frame generation, present
    /// modes (empty for a clock's run).
    pub captured: CapturedFigures,
}

/// The `k` longest of `frames`, longest first, an earlier frame first among equals (as a
/// stable sort would give them), found in one pass without a copy of the run.
fn longest<'a>(frames: impl Iterator<Item = &'a FrameRecord>, k: usize) -> Vec<&'a FrameRecord> {
    let mut top = Longest::new(k);
    for f in frames {
        top.offer(f.delta_ms, f);
    }
    top.into_items()
}

/// The longest frames seen so far, longest first, an earlier one first among equals: each
/// offered as it comes, so a run's longest are found without keeping the run.
#[derive(Debug, Clone)]
struct Longest<T> {
    top: Vec<(f64, T)>,
    k: usize,
}

impl<T> Longest<T> {
    fn new(k: usize) -> Longest<T> {
        Longest {
            top: Vec::with_capacity(k + 1),
            k,
        }
    }

    /// Keeps `item`, a frame of `delta_ms`, if it is among the `k` longest so far.
    fn offer(&mut self, delta_ms: f64, item: T) {
        let at = self
            .top
            .partition_point(|t| t.0.total_cmp(&delta_ms).is_ge());
        if at < self.k {
            self.top.insert(at, (delta_ms, item));
            self.top.truncate(self.k);
        }
    }

    fn into_items(self) -> Vec<T> {
        self.top.into_iter().map(|(_, item)| item).collect()
    }
}

/// What a summary counts of each frame as it comes (the updates run, the cap, the missed
/// refreshes), kept in a few numbers whatever the run's length.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    updates_per_frame: [usize; 9],
    clamped: usize,
    discarded_ms: f64,
    missed: u64,
    missing: usize,
}

impl Counts {
    fn add(&mut self, updates: u32, clamped: bool, discarded_ms: f64, missed: u32) {
        self.updates_per_frame[(updates as usize).min(8)] += 1;
        if clamped {
            self.clamped += 1;
            self.discarded_ms += discarded_ms;
        }
        self.missed += u64::from(missed);
        self.missing += usize::from(missed > 0);
    }
}

/// What a summary reads of a run: the frame times in order, each frame's number, the game
/// time each showed (for a source with display times), what was counted, the longest frames
/// (number, delta, tick after it) and the tags.
struct RunFrames<'a> {
    deltas: &'a [f64],
    number: &'a dyn Fn(usize) -> u64,
    shown: Option<&'a [f64]>,
    counts: Counts,
    longest: Vec<(u64, f64, u64)>,
    tags: &'a VecDeque<TagMark>,
    refresh: (Refresh, Option<f64>),
    source: &'a FrameSource,
}

/// The value at `q` (0 to 1) of sorted `v` by nearest rank; 0 when empty.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    crate::pacing::nearest_rank(sorted, q)
}

/// A run graded against a variable-refresh panel's range ([`Refresh::Variable`]): which
/// frames it could follow, which came too slowly for it (it showed the last picture again) and
/// which came faster than it refreshes (they waited for it, or tore).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VrrGrade {
    /// The panel's range, in Hz.
    pub min_hz: f64,
    /// See [`VrrGrade::min_hz`].
    pub max_hz: f64,
    /// Whether the intervals graded are the capture's display intervals (else the frames'
    /// present intervals, or deltas).
    pub from_display: bool,
    /// Intervals graded (for display times, the frames displayed).
    pub frames: usize,
    /// Intervals within the range.
    pub within: usize,
    /// Intervals longer than the panel's longest hold (`1000 / min_hz` ms) ...
    pub below: usize,
    /// ... the share of the time they took, in percent ...
    pub below_time_percent: f64,
    /// ... and the refreshes the panel repeated over them ([`bt_overlay::vrr_repeats`]).
    pub repeats: u64,
    /// Intervals shorter than the panel's fastest refresh (`1000 / max_hz` ms).
    pub above: usize,
}

impl VrrGrade {
    /// Grades `intervals_ms` (0 for a frame never displayed, left out) against `min_hz` to
    /// `max_hz`.
    pub fn of(intervals_ms: &[f64], min_hz: f64, max_hz: f64, from_display: bool) -> VrrGrade {
        let (hold, fastest) = (1000.0 / min_hz, 1000.0 / max_hz);
        let shown: Vec<f64> = intervals_ms.iter().copied().filter(|&d| d > 0.0).collect();
        let total: f64 = shown.iter().sum();
        let slow: Vec<f64> = shown.iter().copied().filter(|&d| d > hold).collect();
        let above = shown.iter().filter(|&&d| d < fastest).count();
        VrrGrade {
            min_hz,
            max_hz,
            from_display,
            frames: shown.len(),
            within: shown.len() - slow.len() - above,
            below: slow.len(),
            below_time_percent: if total > 0.0 {
                slow.iter().sum::<f64>() * 100.0 / total
            } else {
                0.0
            },
            repeats: slow
                .iter()
                .map(|&d| u64::from(bt_overlay::vrr_repeats(d, min_hz)))
                .sum(),
            above,
        }
    }
}

impl Summary {
    /// A whole timeline's summary: its frame times copied out in order, the rest counted
    /// from its records.
    fn of(t: &Timeline) -> Summary {
        let in_order: Vec<f64> = t.frames.iter().map(|f| f.delta_ms).collect();
        let mut counts = Counts::default();
        for f in &t.frames {
            counts.add(f.updates, f.clamped, f.discarded_ms, f.missed);
        }
        let shown = t.source.has_display_times().then(|| t.shown_ms());
        let number = |i: usize| t.frames[i].frame;
        Summary::of_frames(RunFrames {
            deltas: &in_order,
            number: &number,
            shown: shown.as_deref(),
            counts,
            longest: longest(t.frames.iter(), WORST_FRAMES)
                .into_iter()
                .map(|f| (f.frame, f.delta_ms, f.ticks))
                .collect(),
            tags: &t.tags,
            refresh: t.refresh,
            source: &t.source,
        })
    }

    fn of_frames(t: RunFrames<'_>) -> Summary {
        // The frame times sorted for the exact percentiles: the only copy of the run a
        // summary makes. Whatever else it needs was counted as the frames came.
        let in_order = t.deltas;
        let frames = || (0..in_order.len()).map(t.number);
        let mut deltas = in_order.to_vec();
        deltas.sort_by(f64::total_cmp);
        let span_ms: f64 = deltas.iter().sum();
        let Counts {
            updates_per_frame,
            clamped,
            discarded_ms,
            missed,
            missing,
        } = t.counts;
        let known = t.refresh.0.counts_misses();
        let display_missed = t.refresh.1.filter(|_| known).and_then(|hz| {
            let mut counts = (0u64, 0usize);
            for frame in frames() {
                let d = t.source.display_ms(frame)?;
                let repeats = display_repeats(d, hz);
                counts.0 += repeats;
                counts.1 += usize::from(repeats > 0);
            }
            Some(counts)
        });
        let p50_ms = percentile(&deltas, 0.50);
        let worst = t
            .longest
            .iter()
            .map(|&(frame, delta_ms, ticks)| {
                let tag = t
                    .tags
                    .iter()
                    .rev()
                    .find(|tag| tag.frame <= frame)
                    .map(|tag| tag.label.clone());
                (frame, delta_ms, ticks, tag)
            })
            .collect();
        let display: Vec<f64> = frames()
            .filter_map(|frame| t.source.display_ms(frame))
            .collect();
        let time_below = TIME_BELOW_FPS.map(|fps| (fps, time_below_percent(in_order, fps)));
        let time_below_refresh = t
            .refresh
            .1
            .filter(|&hz| known && TIME_BELOW_FPS.iter().all(|&fps| (hz - fps).abs() > 0.5))
            .map(|hz| (hz, time_below_percent(in_order, hz)));
        let (has_cpu, has_gpu) = match &t.source {
            FrameSource::Capture { busy_ms, .. } => (busy_ms.0.is_some(), busy_ms.1.is_some()),
            FrameSource::Clock => (false, false),
        };
        // Each per-frame column only when the source has it.
        let column = |has: bool, of: &dyn Fn(u64) -> Option<f64>| -> Option<Vec<f64>> {
            has.then(|| {
                frames()
                    .map(|frame| of(frame).unwrap_or(f64::NAN))
                    .collect()
            })
        };
        let cpu = column(has_cpu, &|frame| t.source.busy_ms(frame).0);
        let gpu = column(has_gpu, &|frame| t.source.busy_ms(frame).1);
        let busy = Busy::of(in_order, cpu.as_deref(), gpu.as_deref());
        drop((cpu, gpu));
        let vrr = match t.refresh.0 {
            Refresh::Variable { min_hz, max_hz } => {
                let from_display = t.source.has_display_times();
                let intervals: std::borrow::Cow<'_, [f64]> = if from_display {
                    frames()
                        .filter_map(|frame| t.source.display_ms(frame))
                        .collect()
                } else {
                    std::borrow::Cow::Borrowed(in_order)
                };
                Some(VrrGrade::of(&intervals, min_hz, max_hz, from_display))
            }
            _ => None,
        };
        let has_click = matches!(
            &t.source,
            FrameSource::Capture {
                click_ms: Some(_),
                ..
            }
        );
        let latency = t.source.latency_column().and_then(|name| {
            let values = column(true, &|frame| t.source.latency_ms(frame).0)?;
            Some((name.to_string(), Latency::of(&values)?))
        });
        let click = column(has_click, &|frame| t.source.latency_ms(frame).1)
            .and_then(|values| Latency::of(&values));
        let captured = match in_order.first() {
            Some(_) => CapturedFigures::of(t.source, (t.number)(0), in_order),
            None => CapturedFigures::default(),
        };
        Summary {
            captured,
            vrr,
            busy,
            latency,
            click,
            time_below,
            time_below_refresh,
            changes: frame_to_frame_changes(in_order),
            displayed: Displayed::of(&display),
            frames: deltas.len(),
            span_ms,
            p50_ms,
            p95_ms: percentile(&deltas, 0.95),
            p99_ms: percentile(&deltas, 0.99),
            max_ms: deltas.last().copied().unwrap_or(0.0),
            fps: if span_ms > 0.0 {
                deltas.len() as f64 * 1000.0 / span_ms
            } else {
                0.0
            },
            updates_per_frame,
            clamped,
            discarded_ms,
            missed_refreshes: known.then_some(missed),
            frames_missing_refreshes: known.then_some(missing),
            display_missed,
            refresh: t.refresh,
            not_displayed: match &t.source {
                FrameSource::Capture { not_displayed, .. } => *not_displayed,
                FrameSource::Clock => None,
            },
            low_1: Low::of_ascending(&deltas, 0.01),
            low_01: Low::of_ascending(&deltas, 0.001),
            capframex: CapFrameXLows::of_ascending(&deltas),
            capframex_stuttering_percent: crate::stuttering::stuttering_time_percent(in_order),
            stutters: Stutters::of(in_order, p50_ms),
            frames_per_second: frames_per_second(in_order),
            animation_error: match t.shown {
                Some(shown) if t.source.has_display_times() => {
                    let display: Option<Vec<f64>> =
                        frames().map(|frame| t.source.display_ms(frame)).collect();
                    display.and_then(|display| error_sizes(&animation_error(shown, &display)))
                }
                _ => None,
            },
            worst,
        }
    }

    /// The frames by updates run, as `"1: 167"`, one entry per count that occurred (8 is the
    /// cap: no frame runs more).
    pub fn update_counts(&self) -> Vec<String> {
        self.updates_per_frame
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(u, n)| format!("{u}: {n}"))
            .collect()
    }

    /// The missed refreshes as a summary says them: `94 in 80 frames, against 60.0 Hz
    /// (measured from display times)`, or `n/a (tearing allowed: no refresh grid)`, or for
    /// display times on no grid n/a with the options that would count them.
    pub fn missed_text(&self) -> String {
        let (source, hz) = self.refresh;
        match (self.missed_refreshes, self.frames_missing_refreshes) {
            (Some(missed), Some(frames)) => {
                let against = match source {
                    Refresh::Rolling => match hz {
                        Some(hz) => format!("{hz:.1} Hz at the end (estimated as the frames came)"),
                        None => "the rate estimated as the frames came".to_string(),
                    },
                    other => other.to_string(),
                };
                // With display times there are two counts: say which this one is.
                let basis = if self.display_missed.is_some() {
                    " (from present intervals)"
                } else {
                    ""
                };
                format!("{missed} in {frames} frames{basis}, against {against}")
            }
            // What would make the count possible, said on the same line.
            _ if source == Refresh::NoGrid => format!(
                "{source}: give a fixed panel's rate with --refresh-hz HZ, or a variable-refresh \
                 panel's range with --vrr MIN-MAX"
            ),
            _ => source.to_string(),
        }
    }

    /// The missed refreshes counted from the capture's display times, as a summary says
    /// them: `67 in 40 frames (from display times: display intervals in refreshes, less one)`.
    pub fn display_missed_text(&self) -> Option<String> {
        let (missed, frames) = self.display_missed?;
        Some(format!(
            "{missed} in {frames} frames (from display times: each display interval in \
             refreshes, less one)"
        ))
    }

    /// The latency lines of a summary: to the display (naming the column and what it
    /// measures, PresentMon's two differ) and click to photon, each when the capture has it.
    pub fn latency_text(&self) -> Vec<String> {
        let figures = |l: &Latency| {
            format!(
                "p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms over {} frames",
                l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, l.frames
            )
        };
        let mut lines = Vec::new();
        if let Some((column, l)) = &self.latency {
            let what = if column.eq_ignore_ascii_case("DisplayLatency") {
                "from the frame's CPU start to its display"
            } else {
                "from the Present() call to the display"
            };
            lines.push(format!(
                "display latency  {} ({column}: {what})",
                figures(l)
            ));
        }
        if let Some(l) = &self.click {
            lines.push(format!(
                "click to photon  {} (from the earliest click behind a frame to its display)",
                figures(l)
            ));
        }
        lines
    }

    /// The grade against a variable-refresh panel's range, as a summary line says it after
    /// `variable refresh `.
    pub fn vrr_text(&self) -> Option<String> {
        let v = self.vrr?;
        let share = |n: usize| {
            if v.frames > 0 {
                n as f64 * 100.0 / v.frames as f64
            } else {
                0.0
            }
        };
        Some(format!(
            "{:.0}-{:.0} Hz ({})  within the range {} frames ({:.1} %)  \
             slower than {:.0} Hz {} ({:.1} % of the time, {} refreshes repeated)  faster than \
             {:.0} Hz {}",
            v.min_hz,
            v.max_hz,
            if v.from_display {
                "display intervals"
            } else {
                "present intervals"
            },
            v.within,
            share(v.within),
            v.min_hz,
            v.below,
            v.below_time_percent,
            v.repeats,
            v.max_hz,
            v.above
        ))
    }

    /// BT's lows as a summary line says them, each named by its definition, the 0.1% ones
    /// flagged when too few frames carry them.
    pub fn lows_text(&self) -> String {
        let mut text = format!(
            "1% low {:.1} fps (1000 / mean of the slowest 1 % of frame times) / {:.1} fps \
             (1000 / the frame time at the 1 % rank, slowest first)  0.1% low {:.1} / {:.1} fps",
            self.low_1.average_fps,
            self.low_1.percentile_fps,
            self.low_01.average_fps,
            self.low_01.percentile_fps
        );
        if let Some(caveat) = tenth_percent_caveat(self.frames) {
            let _ = write!(text, " ({caveat})");
        }
        text
    }

    /// The time below 60 and 30 frames a second (and the refresh rate) as a summary line says
    /// them: `time below 60 fps 12.3 %  below 30 fps 4.0 %  below the 144.0 Hz refresh 40.2 %`.
    pub fn time_below_text(&self) -> String {
        let mut text = String::from("time below");
        for (fps, percent) in self.time_below {
            let _ = write!(text, "  {fps:.0} fps {percent:.1} %");
        }
        if let Some((hz, percent)) = self.time_below_refresh {
            let _ = write!(text, "  the {hz:.1} Hz refresh {percent:.1} %");
        }
        text
    }

    /// The captured program's busy times as a summary line says them, when the capture has
    /// them: `GPU busy p50 14.2 ms ...; GPU-bound 92.0 % of frames, CPU-bound 3.1 %`.
    pub fn busy_text(&self) -> Option<String> {
        let b = self.busy?;
        let mut text = String::new();
        for (name, ms) in [("CPU", b.cpu_ms), ("GPU", b.gpu_ms)] {
            if let Some([p50, p95, p99]) = ms {
                let _ = write!(
                    text,
                    "{name} busy  p50 {p50:.1} ms  p95 {p95:.1} ms  p99 {p99:.1} ms; "
                );
            }
        }
        let _ = write!(text, "GPU-bound {:.1} % of frames", b.gpu_bound);
        match b.cpu_bound {
            Some(cpu) => {
                let _ = write!(
                    text,
                    ", CPU-bound {cpu:.1} %, neither {:.1} % (busy for {:.0} % of the frame time \
                     or more)",
                    (100.0 - b.gpu_bound - cpu).max(0.0),
                    BOUND_SHARE * 100.0
                );
            }
            None => {
                let _ = write!(
                    text,
                    " (busy for {:.0} % of the frame time or more; the capture has no CPU busy \
                     times)",
                    BOUND_SHARE * 100.0
                );
            }
        }
        Some(text)
    }

    /// The frame-to-frame changes as a summary line says them.
    pub fn changes_text(&self) -> String {
        let [a, b, c, d, e] = self.changes;
        format!(
            "frame-to-frame change  under 2 ms {a:.1} %  2-4 ms {b:.1} %  4-8 ms {c:.1} %  \
             8-12 ms {d:.1} %  12 ms or more {e:.1} %"
        )
    }

    /// The displayed frames as a summary line says them, for a capture with display times.
    pub fn displayed_text(&self) -> Option<String> {
        let d = self.displayed?;
        Some(format!(
            "displayed {} frames over {:.1} s: {:.1} frames a second; display interval  p50 \
             {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
            d.shown,
            d.span_ms / 1000.0,
            d.fps,
            d.p50_ms,
            d.p95_ms,
            d.p99_ms,
            d.max_ms
        ))
    }

    /// The stutter counts as a summary line says them.
    pub fn stutters_text(&self) -> String {
        format!(
            "stutters  over 2x median {}  over {:.1} ms {}  over {:.0} ms {}  over {:.0} ms {}",
            self.stutters.over_twice_median,
            STUTTER_MS[0],
            self.stutters.over_ms[0],
            STUTTER_MS[1],
            self.stutters.over_ms[1],
            STUTTER_MS[2],
            self.stutters.over_ms[2]
        )
    }

    /// The summary as one JSON object (`bt trace --format summary`): every figure, with the
    /// frames per second over the run as an array.
    pub fn to_json(&self) -> serde_json::Value {
        let low = |l: &Low| serde_json::json!({"average_fps": l.average_fps, "percentile_fps": l.percentile_fps});
        serde_json::json!({
            "frames": self.frames,
            "span_ms": self.span_ms,
            "fps": self.fps,
            "p50_ms": self.p50_ms,
            "p95_ms": self.p95_ms,
            "p99_ms": self.p99_ms,
            "max_ms": self.max_ms,
            "low_1_percent": low(&self.low_1),
            "low_0_1_percent": low(&self.low_01),
            "capframex": {
                "frames": self.capframex.frames,
                "p1_fps": self.capframex.p1_fps,
                "p0_1_fps": self.capframex.p0_1_fps,
                "low_1_average_fps": self.capframex.low_1_average_fps,
                "low_0_1_average_fps": self.capframex.low_0_1_average_fps,
                "low_1_integral_fps": self.capframex.low_1_integral_fps,
                "low_0_1_integral_fps": self.capframex.low_0_1_integral_fps,
                "stuttering_time_percent": self.capframex_stuttering_percent,
            },
            "tenth_percent_caveat": tenth_percent_caveat(self.frames),
            "stutters": {
                "over_twice_median": self.stutters.over_twice_median,
                "over_33_3_ms": self.stutters.over_ms[0],
                "over_50_ms": self.stutters.over_ms[1],
                "over_100_ms": self.stutters.over_ms[2],
            },
            "frames_per_second": self.frames_per_second,
            "time_below_percent": self.time_below.iter().map(|(fps, percent)| {
                serde_json::json!({"fps": fps, "percent": percent})
            }).collect::<Vec<_>>(),
            "time_below_refresh_percent": self.time_below_refresh.map(|(hz, percent)| {
                serde_json::json!({"hz": hz, "percent": percent})
            }),
            "frame_to_frame_change_percent": {
                "under_2_ms": self.changes[0],
                "2_to_4_ms": self.changes[1],
                "4_to_8_ms": self.changes[2],
                "8_to_12_ms": self.changes[3],
                "12_ms_or_more": self.changes[4],
            },
            "busy": self.busy.map(|b| serde_json::json!({
                "frames": b.frames,
                "cpu_ms": b.cpu_ms.map(|[p50, p95, p99]| serde_json::json!({"p50": p50, "p95": p95, "p99": p99})),
                "gpu_ms": b.gpu_ms.map(|[p50, p95, p99]| serde_json::json!({"p50": p50, "p95": p95, "p99": p99})),
                "gpu_bound_percent": b.gpu_bound,
                "cpu_bound_percent": b.cpu_bound,
            })),
            "displayed": self.displayed.map(|d| serde_json::json!({
                "frames": d.shown,
                "span_ms": d.span_ms,
                "fps": d.fps,
                "p50_ms": d.p50_ms,
                "p95_ms": d.p95_ms,
                "p99_ms": d.p99_ms,
                "max_ms": d.max_ms,
            })),
            "updates_per_frame": self.updates_per_frame,
            "clamped": self.clamped,
            "discarded_ms": self.discarded_ms,
            "missed_refreshes": self.missed_refreshes,
            "frames_missing_refreshes": self.frames_missing_refreshes,
            "display_missed_refreshes": self.display_missed.map(|d| d.0),
            "frames_missing_refreshes_on_display": self.display_missed.map(|d| d.1),
            "refresh": self.refresh.0.to_string(),
            "latency": self.latency.as_ref().map(|(column, l)| serde_json::json!({
                "column": column,
                "frames": l.frames,
                "p50_ms": l.p50_ms,
                "p95_ms": l.p95_ms,
                "p99_ms": l.p99_ms,
                "max_ms": l.max_ms,
            })),
            "click_to_photon": self.click.map(|l| serde_json::json!({
                "frames": l.frames,
                "p50_ms": l.p50_ms,
                "p95_ms": l.p95_ms,
                "p99_ms": l.p99_ms,
                "max_ms": l.max_ms,
            })),
            "vrr": self.vrr.map(|v| serde_json::json!({
                "min_hz": v.min_hz,
                "max_hz": v.max_hz,
                "from_display_times": v.from_display,
                "frames": v.frames,
                "within": v.within,
                "below": v.below,
                "below_time_percent": v.below_time_percent,
                "repeated_refreshes": v.repeats,
                "above": v.above,
            })),
            "refresh_hz": self.refresh.1,
            "captured": self.captured.to_json(),
            "not_displayed": self.not_displayed,
            "animation_error_ms": self.animation_error.map(|(mean, max)| {
                serde_json::json!({"mean": mean, "largest": max})
            }),
            "worst": self.worst.iter().map(|(frame, ms, tick, tag)| serde_json::json!({
                "frame": frame, "delta_ms": ms, "ticks": tick, "after_tag": tag
            })).collect::<Vec<_>>(),
        })
    }

    /// The summary as a few lines of text for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} frames over {:.1} s: {:.1} frames a second",
            self.frames,
            self.span_ms / 1000.0,
            self.fps
        );
        let _ = writeln!(
            s,
            "frame time  p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms
        );
        if let Some(text) = self.displayed_text() {
            let _ = writeln!(s, "{text}");
        }
        let _ = writeln!(s, "{}", self.lows_text());
        let _ = writeln!(
            s,
            "{}  stuttering time {:.2} %",
            self.capframex.text(),
            self.capframex_stuttering_percent
        );
        let _ = writeln!(s, "{}", self.stutters_text());
        let _ = writeln!(s, "{}", self.time_below_text());
        if let Some(text) = self.busy_text() {
            let _ = writeln!(s, "{text}");
        }
        for text in self.latency_text() {
            let _ = writeln!(s, "{text}");
        }
        for text in self.captured.lines(self.displayed.as_ref()) {
            let _ = writeln!(s, "{text}");
        }
        let _ = writeln!(s, "{}", self.changes_text());
        let _ = writeln!(s, "updates per frame  {}", self.update_counts().join("  "));
        let _ = writeln!(
            s,
            "clamped frames {} ({:.1} ms thrown away)",
            self.clamped, self.discarded_ms
        );
        let _ = writeln!(s, "missed refreshes {}", self.missed_text());
        if let Some(text) = self.display_missed_text() {
            let _ = writeln!(s, "missed refreshes {text}");
        }
        if let Some(text) = self.vrr_text() {
            let _ = writeln!(s, "variable refresh {text}");
        }
        if let Some(n) = self.not_displayed {
            let _ = writeln!(
                s,
                "presents never displayed (the capture's Dropped or NA display times) {n}"
            );
        }
        if let Some((mean, max)) = self.animation_error {
            let _ = writeln!(
                s,
                "animation error against the capture's display times  mean {mean:.2} ms  \
                 largest {max:.1} ms"
            );
        }
        if !self.worst.is_empty() {
            let _ = writeln!(s, "longest frames:");
            for (frame, ms, tick, tag) in &self.worst {
                let _ = write!(s, "  frame {frame:>6}  {ms:>8.1} ms  tick {tick:>6}");
                if let Some(tag) = tag {
                    let _ = write!(s, "  after tag \"{}\"", crate::quote::excerpt(tag));
                }
                s.push('\n');
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(frame: u64, delta_ms: f64, updates: u32, ticks: u64) -> FrameReport {
        FrameReport {
            frame,
            render_alpha: 0.25,
            stats: FrameStats {
                delta_ms,
                updates,
                ticks,
                update_ms: 1.0 * f64::from(updates),
                render_ms: 2.0,
                ..FrameStats::default()
            },
        }
    }

    fn sample() -> Timeline {
        let mut t = Timeline::new(1000.0 / 60.0);
        let mut ticks = 0;
        for (i, &(delta, updates)) in [(16.7, 1), (16.7, 1), (50.0, 3), (8.3, 0), (400.0, 8)]
            .iter()
            .enumerate()
        {
            ticks += updates as u64;
            let mut r = report(i as u64, delta, updates, ticks);
            if updates == 8 {
                r.stats.clamped = true;
                r.stats.discarded_ms = 266.7;
            }
            let tag = Tag {
                tick: ticks,
                label: "Boss \"1\"".into(),
            };
            let tags = if i == 2 { vec![tag] } else { vec![] };
            t.record(&r, u32::from(delta > 40.0), &tags);
        }
        t
    }

    #[test]
    fn a_run_kept_for_its_summary_gives_every_figure_a_whole_timeline_gives() {
        let capture = FrameSource::Capture {
            name: "c".into(),
            not_displayed: Some(1),
            display_ms: Some(vec![16.7, 50.0, 16.6, 33.4, 0.0, 16.7, 8.3]),
            busy_ms: (Some(vec![3.0, f64::NAN, 9.0]), Some(vec![12.0, 4.0])),
            latency_ms: Some(("DisplayLatency".into(), vec![20.0, 31.0, f64::NAN, 25.0])),
            click_ms: Some(vec![f64::NAN, 40.0, 45.0]),
            columns: Default::default(),
        };
        let refreshes = [
            (Refresh::Measured(60.0), Some(60.0)),
            (
                Refresh::Variable {
                    min_hz: 48.0,
                    max_hz: 144.0,
                },
                Some(144.0),
            ),
            (Refresh::Tearing, None),
            (Refresh::Given(75.0), Some(75.0)),
        ];
        for source in [FrameSource::Clock, capture] {
            for refresh in refreshes {
                let (mut whole, mut run) =
                    (Timeline::new(1000.0 / 60.0), RunSummary::new(1000.0 / 60.0));
                whole.set_source(source.clone());
                run.set_source(source.clone());
                let mut ticks = 0;
                // Frames numbered from 3, as a run that began with frames never recorded.
                for i in 0..40u64 {
                    let updates = [1, 1, 0, 3, 8, 2][i as usize % 6];
                    ticks += u64::from(updates);
                    let delta = [16.7, 16.7, 50.0, 8.3, 400.0, 9.0, 16.7][i as usize % 7];
                    let mut r = report(i + 3, delta, updates, ticks);
                    r.render_alpha = (i % 5) as f64 / 5.0;
                    if updates == 8 {
                        r.stats.clamped = true;
                        r.stats.discarded_ms = 266.7 + i as f64;
                    }
                    let tags = if i % 9 == 4 {
                        vec![Tag {
                            tick: ticks,
                            label: format!("wave {i}"),
                        }]
                    } else {
                        Vec::new()
                    };
                    let missed = (delta / 17.0) as u32;
                    whole.record(&r, missed, &tags);
                    run.record(&r, missed, &tags);
                }
                whole.set_refresh(refresh);
                run.set_refresh(refresh);
                let (a, b) = (whole.summary(), run.summary());
                // Compared as written, where NaN equals NaN.
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{refresh:?}");
                assert_eq!(a.to_text(), b.to_text());
                assert_eq!(a.to_json(), b.to_json());
                assert_eq!(run.len(), 40);
                assert_eq!(run.longest_ms(), 400.0);
            }
        }
    }

    #[test]
    fn a_kept_frame_takes_what_the_limits_say() {
        let record = std::mem::size_of::<FrameRecord>() as u64;
        assert_eq!(record + 2 * 8, KEPT_BYTES_PER_FRAME);
    }

    #[test]
    fn the_longest_frames_come_as_a_stable_sort_gives_them() {
        let t = {
            let mut t = Timeline::new(10.0);
            for (i, d) in [5.0, 9.0, 9.0, 1.0, 9.0, 7.0, f64::NAN, 2.0]
                .into_iter()
                .enumerate()
            {
                t.record(&report(i as u64, d, 1, i as u64), 0, &[]);
            }
            t
        };
        let mut sorted: Vec<&FrameRecord> = t.frames().collect();
        sorted.sort_by(|a, b| b.delta_ms.total_cmp(&a.delta_ms));
        let want: Vec<u64> = sorted.iter().take(5).map(|f| f.frame).collect();
        let got: Vec<u64> = longest(t.frames(), 5).iter().map(|f| f.frame).collect();
        assert_eq!(got, want);
        assert_eq!(got, [6, 1, 2, 4, 5]);
    }

    #[test]
    fn the_summary_counts_what_the_frames_did() {
        let s = sample().summary();
        assert_eq!(s.frames, 5);
        assert!((s.span_ms - 491.7).abs() < 1e-9);
        assert!((s.fps - 5.0 * 1000.0 / 491.7).abs() < 1e-9, "{}", s.fps);
        assert_eq!((s.p50_ms, s.max_ms), (16.7, 400.0));
        assert_eq!(s.updates_per_frame, [1, 2, 0, 1, 0, 0, 0, 0, 1]);
        assert_eq!((s.clamped, s.discarded_ms), (1, 266.7));
        assert_eq!(
            (s.missed_refreshes, s.frames_missing_refreshes),
            (Some(2), Some(2))
        );
        assert_eq!(s.worst[0], (4, 400.0, 13, Some("Boss \"1\"".into())));
        assert_eq!(s.worst[1].0, 2);
        let text = s.to_text();
        assert!(
            text.contains("updates per frame  0: 1  1: 2  3: 1  8: 1"),
            "{text}"
        );
    }

    #[test]
    fn the_summary_names_each_low_by_its_definition_and_flags_a_short_run() {
        let s = sample().summary();
        let text = s.to_text();
        assert!(
            text.contains("(1000 / mean of the slowest 1 % of frame times)"),
            "{text}"
        );
        assert!(!text.contains("MangoHud"), "{text}");
        // CapFrameX's figures by its names: 5 frames, so P1 is the slowest rate (400 ms).
        assert_eq!(s.capframex.p1_fps, 2.5);
        assert!(
            text.contains("CapFrameX's own figures  P1 2.50 fps"),
            "{text}"
        );
        // Both 0.1% lines say the 5 frames are too few.
        assert_eq!(text.matches("from 5 frames: too few for 0.1 %").count(), 2);
        let json = s.to_json();
        assert_eq!(json["capframex"]["p1_fps"], 2.5);
        assert_eq!(
            json["tenth_percent_caveat"],
            "from 5 frames: too few for 0.1 %"
        );
    }

    #[test]
    fn time_below_a_rate_weighs_frames_by_their_length_and_changes_are_binned() {
        // 16.7, 16.7, 50, 8.3 and 400 ms: every frame but the 8.3 ms one is slower than 60 fps
        // (16.67 ms), the 50 and 400 ms ones slower than 30.
        let mut t = sample();
        let s = t.summary();
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(
            near(s.time_below[0].1, 100.0 * 483.4 / 491.7),
            "{:?}",
            s.time_below
        );
        assert!(
            near(s.time_below[1].1, 100.0 * 450.0 / 491.7),
            "{:?}",
            s.time_below
        );
        assert_eq!(s.time_below_refresh, None, "no refresh known");
        // Changes of 0, 33.3, 41.7 and 391.7 ms.
        assert_eq!(s.changes, [25.0, 0.0, 0.0, 0.0, 75.0]);
        let text = s.to_text();
        assert!(
            text.contains("time below  60 fps 98.3 %  30 fps 91.5 %"),
            "{text}"
        );
        assert!(text.contains("under 2 ms 25.0 %"), "{text}");
        assert_eq!(s.displayed, None, "a clock has no display times");
        // A 100 Hz refresh gets a figure of its own (every frame but the 8.3 ms one is slower
        // than 10 ms); a 60 Hz one is the 60 fps figure already.
        t.set_refresh((Refresh::Measured(100.0), Some(100.0)));
        let s = t.summary();
        assert!(near(s.time_below_refresh.unwrap().1, 100.0 * 483.4 / 491.7));
        assert!(s.to_text().contains("the 100.0 Hz refresh 98.3 %"));
        t.set_refresh((Refresh::Measured(60.0), Some(60.0)));
        assert_eq!(t.summary().time_below_refresh, None);
    }

    #[test]
    fn a_cart_resetting_its_ticks_makes_no_animation_error() {
        // One update a frame, each shown for one 60 Hz refresh, while the cart's tick counter
        // goes back to 0 at frame 3 (a new round): the motion shown is steady.
        let mut t = Timeline::new(1000.0 / 60.0);
        t.set_source(FrameSource::Capture {
            name: "c".into(),
            not_displayed: None,
            display_ms: Some(vec![1000.0 / 60.0; 6]),
            busy_ms: (None, None),
            latency_ms: None,
            click_ms: None,
            columns: Default::default(),
        });
        for (i, ticks) in [1, 2, 3, 1, 2, 3].into_iter().enumerate() {
            t.record(&report(i as u64, 1000.0 / 60.0, 1, ticks), 0, &[]);
        }
        let errors = t.animation_errors();
        assert_eq!(errors[0], None, "nothing before the first frame");
        assert!(
            errors[1..]
                .iter()
                .all(|e| e.is_some_and(|e| e.abs() < 1e-9)),
            "{errors:?}"
        );
    }

    #[test]
    fn displayed_frames_come_from_display_times() {
        let mut t = Timeline::new(1000.0 / 60.0);
        t.set_source(FrameSource::Capture {
            name: "c".into(),
            not_displayed: Some(1),
            display_ms: Some(vec![16.7, 50.0, 16.6, 33.4, 0.0, 16.7]),
            busy_ms: (None, None),
            latency_ms: None,
            click_ms: None,
            columns: Default::default(),
        });
        for i in 0..6 {
            t.record(&report(i, 16.7, 1, i + 1), 0, &[]);
        }
        let d = t.summary().displayed.unwrap();
        assert_eq!(d.shown, 5, "frame 4 never reached the screen");
        assert!((d.span_ms - 133.4).abs() < 1e-9);
        assert!((d.fps - 5000.0 / 133.4).abs() < 1e-9);
        assert_eq!((d.p50_ms, d.max_ms), (16.7, 50.0));
        let text = t.summary().to_text();
        assert!(
            text.contains("displayed 5 frames over 0.1 s: 37.5 frames a second"),
            "{text}"
        );
    }

    #[test]
    fn missed_refreshes_are_counted_from_display_times_where_the_capture_has_them() {
        // Presents every 16.7 ms, but the display held frames 1 and 3 for 3 and 2 refreshes and
        // never showed frame 4: 2 + 1 repeats, where the present intervals show none.
        let mut t = Timeline::new(1000.0 / 60.0);
        t.set_source(FrameSource::Capture {
            name: "c".into(),
            not_displayed: Some(1),
            display_ms: Some(vec![16.7, 50.0, 16.6, 33.4, 0.0, 16.7]),
            busy_ms: (None, None),
            latency_ms: None,
            click_ms: None,
            columns: Default::default(),
        });
        t.set_refresh((Refresh::Measured(60.0), Some(60.0)));
        for i in 0..6 {
            t.record(&report(i, 16.7, 1, i + 1), 0, &[]);
        }
        let s = t.summary();
        assert_eq!(s.display_missed, Some((3, 2)));
        assert_eq!(
            (s.missed_refreshes, s.frames_missing_refreshes),
            (Some(0), Some(0))
        );
        let text = s.to_text();
        assert!(
            text.contains(
                "missed refreshes 0 in 0 frames (from present intervals), against 60.0 Hz"
            ),
            "{text}"
        );
        assert!(
            text.contains("missed refreshes 3 in 2 frames (from display times"),
            "{text}"
        );
        assert_eq!(s.to_json()["display_missed_refreshes"], 3);
        // A clock has no display times: one count, no basis said.
        let plain = sample().summary();
        assert_eq!(plain.display_missed, None);
        assert!(!plain.to_text().contains("from present intervals"));
    }

    #[test]
    fn a_rolling_timeline_keeps_only_the_last_seconds() {
        let mut t = Timeline::rolling(10.0, 100.0);
        for i in 0..50 {
            let tags = [Tag {
                tick: i,
                label: "t".into(),
            }];
            t.record(&report(i, 10.0, 1, i + 1), 0, &tags);
        }
        let frames: Vec<u64> = t.frames().map(|f| f.frame).collect();
        assert_eq!(frames.first(), Some(&40), "{frames:?}");
        assert_eq!(frames.len(), 10);
        assert_eq!(t.tags().next().map(|t| t.frame), Some(40));
    }
}
