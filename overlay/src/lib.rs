//! BT's diagnostic overlay, drawn onto the cart's framebuffer after `render`.
//!
//! It shows what the loop did: the display, the present rate against the target, time the
//! update cap threw away, and how long the frame, its updates (with an `xN` suffix when several
//! ran) and its render took. The chart area under the title shows one of three things
//! ([`ChartMode`]): nothing; the compact band, which plots every frame's update and render times
//! as dots, tinted when the frame ran over the cart's budget, with marks for frames that hit the
//! update cap or ran no update, and the cart's tags; or the tall chart, about half the screen,
//! which draws every frame's delta as a bar against the budget, its update count, its costs and
//! the tags and the display refreshes it missed, so timing can be read from the picture alone.
//!
//! Two questions are kept apart: whether a frame ran over the cart's budget ([`Severity`],
//! the tint) and how many display refreshes it missed ([`RefreshCounter`], against a
//! [`Refresh`] source: given, measured, estimated, or n/a when tearing is allowed).
//!
//! Measurements are collected while the overlay is hidden, so opening it shows the recent past.
//! Numbers are formatted into buffers that live as long as the overlay and the chart's storage is
//! allocated up front, so recording and drawing a frame allocates nothing.
//!
//! ```
//! use bt::host::Framebuffer;
//! use bt::Settings;
//! use bt_overlay::{FrameStats, Overlay};
//!
//! let mut overlay = Overlay::new(&Settings::default().overlay_visible(true).timing_chart(true));
//! overlay.record(&FrameStats { updates: 1, delta_ms: 16.7, ..FrameStats::default() });
//! let mut fb = Framebuffer::new(320, 240);
//! overlay.draw(&mut fb);
//! assert_eq!(fb.get(319, 0), Some(overlay.colors().bar));
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod chart;
mod fit;
mod present;
mod refresh;
mod sound;
mod tall;
mod text;
mod timeline;

use std::fmt::Write as _;

use bt::host::Framebuffer;
use bt::limits::GLYPH_ADVANCE;
pub use bt::OverlayColors;
use bt::{OverlayRows, Rect, Settings, Tag};

pub use chart::{
    ChartTag, CHART_FULL_SCALE_MS, CHART_GRID_MS, CHART_HEIGHT, MAX_TAGS, TAG_TICK_LIMIT,
};
pub use present::{PresentRate, PRESENT_RING, PRESENT_WINDOW_MS};
pub use refresh::{
    estimate_refresh_hz, missed_refreshes, vrr_repeats, Refresh, RefreshCounter, Severity,
    BACKGROUND_DELTA_MS, COMMON_REFRESH_HZ, ERROR_RATIO, MISS_THRESHOLD, REFRESH_WARMUP,
    REFRESH_WINDOW, SHORTEST_REFRESH_MS, SNAP_TOLERANCE, WARNING_RATIO,
};
pub use sound::{meter_level, SoundDevice, ALERT_FRAMES, METER_FLOOR_DB, METER_WARNING};
pub use tall::{
    COST_SCALE_MS, DELTA_SCALE_MAX_BUDGETS, DELTA_SCALE_MIN_BUDGETS, DELTA_SCALE_UNBUDGETED_MS,
    ROLLBACK_ROWS, TALL_GUTTER,
};

use chart::{Chart, Sample};
use fit::{shortened, whole_segments, Hint};
use sound::SoundRow;
use tall::Tall;
use text::{
    display_label, metrics_row, plain_width, renderer_row, segments, text_width, timing_row,
};
pub use timeline::{on_track, Timeline, TIMELINE_HEIGHT};

/// Height of one overlay bar, in pixels: one 13-row glyph.
pub const BAR_HEIGHT: i32 = 13;
/// Gap between bars, in pixels.
pub const ROW_GAP: i32 = 1;
/// Left and right margin of the text, in pixels.
pub const EDGE_MARGIN: i32 = 7;
/// Space on either side of a `|` divider, in pixels.
pub const DIVIDER_GAP: i32 = 7;
/// Weight of a new sample in the smoothed figures (an exponential moving average): steady enough
/// to read, quick enough to follow a change within a second.
pub const SMOOTHING: f64 = 0.12;
/// The clickable corner that toggles the overlay: this many pixels wide ...
pub const TOGGLE_WIDTH: i32 = 17;
/// ... and this many high, at the bottom-left of the screen.
pub const TOGGLE_HEIGHT: i32 = 13;
/// Update time charged per update in [fixed-costs mode](Overlay::set_fixed_costs), in ms.
pub const FIXED_UPDATE_MS: f64 = 2.0;
/// Render time charged per frame in [fixed-costs mode](Overlay::set_fixed_costs), in ms.
pub const FIXED_RENDER_MS: f64 = 4.0;

/// What one frame did, as the overlay records it: the updates the fixed-step loop ran and what
/// its cap threw away, the clock's delta, the tick counter, and the times and drawing calls the
/// engine measured.
///
/// The BT engine fills one per frame and hands the same record to its host inside its
/// `FrameReport`; a test or a bench fills it by hand.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameStats {
    /// Updates the frame ran.
    pub updates: u32,
    /// Whether the 8-update cap threw time away.
    pub clamped: bool,
    /// Milliseconds thrown away.
    pub discarded_ms: f64,
    /// The frame's delta from the clock.
    pub delta_ms: f64,
    /// Wall time of the frame's updates.
    pub update_ms: f64,
    /// Wall time of the cart's render.
    pub render_ms: f64,
    /// Wall time of the whole frame.
    pub frame_ms: f64,
    /// The tick counter after the frame.
    pub ticks: u64,
    /// Drawing calls the cart's render made, by kind (the metrics row shows their total,
    /// the renderer row each kind).
    pub draw_counts: bt::DrawCounts,
}

/// A frame as [`Overlay::rechart`] takes it: its measurements and the refreshes it missed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChartFrame {
    /// What the frame did.
    pub stats: FrameStats,
    /// Display refreshes it missed.
    pub missed: u32,
    /// For a column standing for several frames, the shortest and the median of their deltas
    /// (`stats` is the longest's): the tall chart then draws the column as a band, so a run
    /// of steady frames with one slow one reads as steady, and a fast game's own jitter shows.
    /// `None` for a column of one frame.
    pub spread: Option<(f64, f64)>,
    /// When the column's first frame began, in ms from the start of the run, when the host
    /// knows: the tall chart then writes seconds along its foot.
    pub start_ms: Option<f64>,
    /// The frame was presented but never reached the screen (a capture's dropped frame): with
    /// [`ChartBars::Display`] its column is hatched instead of barred.
    pub never_shown: bool,
    /// The frame was generated (frame generation: a capture's `FrameType` names a generator,
    /// not the application); for a column of several frames, more than half of them were. The
    /// tall chart draws its bar in its own colour.
    pub generated: bool,
    /// How the frame reached the screen changed at it (a capture's present mode, or whether
    /// it allowed tearing): the tall chart marks the column.
    pub mode_change: bool,
}

/// What the tall chart's bars measure.
///
/// ```
/// use bt::Settings;
/// use bt_overlay::{ChartBars, Overlay};
///
/// let mut overlay = Overlay::new(&Settings::default());
/// overlay.set_chart_bars(ChartBars::Display);
/// assert_eq!(overlay.chart_bars(), ChartBars::Display);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChartBars {
    /// Each frame's delta from the clock: for a capture, its present interval (the default).
    #[default]
    Delta,
    /// Each frame's display interval, from a capture's display times (the time from the
    /// screen's previous change to the one that showed the frame): the legend says `shown`
    /// instead of `delta`, and frames never displayed are hatched.
    Display,
}

/// An exponential moving average whose first sample is taken as is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Smoothed {
    value: Option<f64>,
}

impl Smoothed {
    /// Starts from `seed` instead of from the first sample.
    pub fn seeded(seed: f64) -> Smoothed {
        Smoothed { value: Some(seed) }
    }

    /// Adds a sample.
    pub fn add(&mut self, sample: f64) {
        self.value = Some(match self.value {
            None => sample,
            Some(v) => v + (sample - v) * SMOOTHING,
        });
    }

    /// The current average (0 before any sample).
    pub fn get(&self) -> f64 {
        self.value.unwrap_or(0.0)
    }
}

/// What the overlay's chart area shows.
///
/// ```
/// use bt::Settings;
/// use bt_overlay::{ChartMode, Overlay};
///
/// let mut overlay = Overlay::new(&Settings::default().timing_chart(true));
/// assert_eq!(overlay.chart_mode(), ChartMode::Compact);
/// overlay.set_chart_mode(ChartMode::Tall);
/// assert!(overlay.timing_chart());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChartMode {
    /// No chart: the metrics rows sit right under the title.
    #[default]
    Off,
    /// The compact band: a [`CHART_HEIGHT`]-px strip of dots per frame.
    Compact,
    /// The tall chart: about half the screen of bars per frame, with the update counts, the
    /// costs, tags and a legend.
    Tall,
}

/// Height of the tall chart on a screen `screen_height` pixels high: half of it.
fn tall_chart_height(screen_height: i32) -> i32 {
    (screen_height / 2).max(0)
}

/// Where the rows go, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    /// Top row and height of the chart, when one is shown.
    chart: Option<(i32, i32)>,
    /// The `Present | Target` row.
    metrics_y: i32,
    /// The `Frame | update() | render()` row.
    timing_y: i32,
}

impl Layout {
    fn new(mode: ChartMode, screen_height: i32) -> Layout {
        let mut y = BAR_HEIGHT + ROW_GAP;
        let height = match mode {
            ChartMode::Off => None,
            ChartMode::Compact => Some(CHART_HEIGHT),
            ChartMode::Tall => Some(tall_chart_height(screen_height)),
        };
        let chart = height.map(|height| {
            let top = y;
            y += height + ROW_GAP;
            (top, height)
        });
        let metrics_y = y;
        let timing_y = y + BAR_HEIGHT + ROW_GAP;
        Layout {
            chart,
            metrics_y,
            timing_y,
        }
    }

    /// The tall chart given the whole screen but the title row above it, and below it the two
    /// metrics rows and one bar of key hints ([`Overlay::set_chart_full_height`]).
    fn tall_full(screen_height: i32) -> Layout {
        let top = BAR_HEIGHT + ROW_GAP;
        let rows = 3 * (BAR_HEIGHT + ROW_GAP);
        let height = (screen_height - top - ROW_GAP - rows).max(tall_chart_height(screen_height));
        let metrics_y = top + height + ROW_GAP;
        Layout {
            chart: Some((top, height)),
            metrics_y,
            timing_y: metrics_y + BAR_HEIGHT + ROW_GAP,
        }
    }
}

/// The overlay: metrics rows and an optional timing chart over the cart's picture, toggled by
/// the host.
///
/// Each frame the engine calls [`Overlay::add_tag`] for the tags its updates placed, then
/// [`Overlay::draw`] after the cart's render, then [`Overlay::record`] with the frame's
/// measurements. The drawn figures are therefore those of the frames before.
#[derive(Debug)]
pub struct Overlay {
    /// The timeline strip a host shows while the player travels through the run.
    timeline: Option<Timeline>,
    visible: bool,
    chart_mode: ChartMode,
    /// The tick the host paused at, shown on the title row while it is paused.
    paused: Option<u64>,
    /// `(updates played, updates in all)` while a replay plays, shown on the title row.
    replay: Option<(u64, u64)>,
    fixed_costs: bool,
    colors: OverlayColors,
    title: String,
    backend: String,
    target_fps: f64,
    budget_ms: f64,
    frame_ms: Smoothed,
    update_ms: Smoothed,
    render_ms: Smoothed,
    present: PresentRate,
    last: FrameStats,
    last_missed: Option<u32>,
    last_severity: Severity,
    refresh: RefreshCounter,
    chart: Chart,
    tall: Tall,
    cart_rows: OverlayRows,
    /// Rows the host adds (a netplay run's link), drawn above the cart's.
    host_rows: OverlayRows,
    sound: SoundRow,
    /// Whether the renderer row (drawing calls by kind) is shown.
    diagnostics: bool,
    /// Whether the palette grid is shown, and the palette's size it shows.
    palette_grid: bool,
    palette_len: usize,
    /// Where the last draw put the palette grid's swatches, if it drew them.
    swatches: Option<Rect>,
    line: String,
    /// The title row's left-hand text (the title, or the paused tick and the replay's
    /// progress), composed here to be measured before it is drawn.
    left: String,
    /// A message from the host for the player (a file that failed to reload), shown whether
    /// the metrics are or not; empty when there is none.
    notice: String,
    /// What the tall chart's columns cover, when a host chose them (empty: the newest frames).
    caption: String,
    /// What the tall chart's bars measure.
    chart_bars: ChartBars,
    /// The tall chart's delta scale fits at least this long a frame.
    chart_scale_floor_ms: f64,
    /// The tall chart's delta scale fits this frame time rather than the longest on screen.
    chart_scale_fit_ms: Option<f64>,
    /// The tall chart takes the screen down to the metrics rows, not half of it.
    chart_full_height: bool,
    /// Updates the frame being run ran again after a rollback, for the next record.
    rerun: u32,
    /// The same for the last frame recorded.
    last_rerun: u32,
}

impl Overlay {
    /// An overlay for a cart with these settings. The chart starts at tick 0 with a `Start`
    /// tag.
    pub fn new(settings: &Settings) -> Overlay {
        let budget_ms = if settings.target_fps > 0.0 {
            1000.0 / settings.target_fps
        } else {
            f64::INFINITY
        };
        let mut chart = Chart::new(settings.width as usize);
        chart.reset(0);
        Overlay {
            timeline: None,
            visible: settings.overlay.visible_at_start,
            chart_mode: if settings.overlay.timing_chart {
                ChartMode::Compact
            } else {
                ChartMode::Off
            },
            paused: None,
            replay: None,
            fixed_costs: false,
            colors: settings.overlay.colors,
            title: settings.title.clone(),
            backend: "cpu".to_string(),
            target_fps: settings.target_fps,
            budget_ms,
            frame_ms: Smoothed::default(),
            update_ms: Smoothed::default(),
            render_ms: Smoothed::default(),
            present: PresentRate::new(),
            last: FrameStats::default(),
            last_missed: Some(0),
            last_severity: Severity::Normal,
            refresh: RefreshCounter::default(),
            chart,
            tall: Tall::new(settings.width),
            cart_rows: OverlayRows::default(),
            host_rows: OverlayRows::default(),
            sound: SoundRow::default(),
            diagnostics: settings.overlay.diagnostics,
            palette_grid: settings.overlay.palette_grid,
            palette_len: settings.palette.len(),
            swatches: None,
            line: String::with_capacity(128),
            left: String::with_capacity(128),
            notice: String::new(),
            caption: String::new(),
            chart_bars: ChartBars::Delta,
            chart_scale_floor_ms: 0.0,
            chart_scale_fit_ms: None,
            chart_full_height: false,
            rerun: 0,
            last_rerun: 0,
        }
    }

    /// Shows a line from the host across the top of the screen, over the cart, until
    /// [`Overlay::clear_notice`], whether the metrics are shown or not: for news the player
    /// must see, such as an asset that failed to reload. Each `\n` starts another line, and
    /// the bar grows to hold it.
    pub fn set_notice(&mut self, text: &str) {
        self.notice.clear();
        self.notice.push_str(text);
    }

    /// Where the last [`Overlay::draw`] put the palette grid's swatches (their gaps included),
    /// or `None` when it drew no grid. They show the cart's palette: a host that shows the
    /// overlay in colours of its own shows these pixels in the cart's.
    pub fn palette_swatches(&self) -> Option<Rect> {
        self.swatches
    }

    /// Takes the notice away.
    pub fn clear_notice(&mut self) {
        self.notice.clear();
    }

    /// The notice shown, empty when none is.
    pub fn notice(&self) -> &str {
        &self.notice
    }

    /// Whether the metrics are shown.
    pub fn is_visible(&self) -> bool {
        self.visible
    }

    /// Shows or hides the metrics.
    pub fn set_visible(&mut self, visible: bool) {
        self.visible = visible;
    }

    /// Flips visibility.
    pub fn toggle(&mut self) {
        self.visible = !self.visible;
    }

    /// Names what presents the frames in the title row's right-hand label: `cpu` (the default,
    /// for headless hosts) or the window system a window host presents to, such as `x11`.
    pub fn set_backend(&mut self, name: &str) {
        self.backend.clear();
        self.backend.push_str(name);
    }

    /// Whether a timing chart is drawn, compact or tall.
    pub fn timing_chart(&self) -> bool {
        self.chart_mode != ChartMode::Off
    }

    /// Shows the compact timing chart, or no chart. Its samples are kept either way, so turning
    /// it on shows the recent past.
    pub fn set_timing_chart(&mut self, on: bool) {
        self.chart_mode = if on {
            ChartMode::Compact
        } else {
            ChartMode::Off
        };
    }

    /// What the chart area shows.
    pub fn chart_mode(&self) -> ChartMode {
        self.chart_mode
    }

    /// Chooses what the chart area shows. Samples are collected whatever the mode, so any chart
    /// shows the recent past as soon as it is chosen.
    pub fn set_chart_mode(&mut self, mode: ChartMode) {
        self.chart_mode = mode;
    }

    /// The view key's cycle: hidden -> metrics -> metrics + compact chart -> metrics + tall
    /// chart -> hidden.
    ///
    /// From hidden it always starts at the metrics alone, whatever chart was shown before.
    ///
    /// ```
    /// use bt::Settings;
    /// use bt_overlay::{ChartMode, Overlay};
    ///
    /// let mut overlay = Overlay::new(&Settings::default());
    /// let mut seen = Vec::new();
    /// for _ in 0..5 {
    ///     overlay.cycle_view();
    ///     seen.push((overlay.is_visible(), overlay.chart_mode()));
    /// }
    /// assert_eq!(
    ///     seen,
    ///     [
    ///         (true, ChartMode::Off),
    ///         (true, ChartMode::Compact),
    ///         (true, ChartMode::Tall),
    ///         (false, ChartMode::Tall),
    ///         (true, ChartMode::Off),
    ///     ]
    /// );
    /// ```
    pub fn cycle_view(&mut self) {
        if !self.visible {
            self.visible = true;
            self.chart_mode = ChartMode::Off;
            return;
        }
        match self.chart_mode {
            ChartMode::Off => self.chart_mode = ChartMode::Compact,
            ChartMode::Compact => self.chart_mode = ChartMode::Tall,
            ChartMode::Tall => self.visible = false,
        }
    }

    /// `Some(tick)` while the host is paused: the title row then says `PAUSED tick N` (in the
    /// warning colour) instead of the title; `None` clears it.
    pub fn set_paused(&mut self, tick: Option<u64>) {
        self.paused = tick;
    }

    /// The tick the host said it is paused at, if it is.
    pub fn paused(&self) -> Option<u64> {
        self.paused
    }

    /// `Some((played, length))` while a replay plays, in updates: the title row then says
    /// `REPLAY played/length` (after `PAUSED tick N` when paused); `None` once input is live.
    pub fn set_replay(&mut self, progress: Option<(u64, u64)>) {
        self.replay = progress;
    }

    /// The replay's progress as last set.
    pub fn replay(&self) -> Option<(u64, u64)> {
        self.replay
    }

    /// Whether [fixed-costs mode](Overlay::set_fixed_costs) is on.
    pub fn fixed_costs(&self) -> bool {
        self.fixed_costs
    }

    /// Turns fixed-costs mode on or off, for pictures that must be the same on every run.
    ///
    /// Measured wall times differ from run to run, so a picture of the overlay that shows them
    /// can never be compared byte for byte. In fixed-costs mode [`Overlay::record`] ignores the
    /// measured `update_ms`, `render_ms` and `frame_ms` and uses instead
    /// [`FIXED_UPDATE_MS`] per update the frame ran, [`FIXED_RENDER_MS`] for the render, and
    /// their sum for the frame. Everything else the overlay shows (present rate, missed
    /// refreshes, tints, update counts, lost time, tags) already follows from the frame's delta, its
    /// update count and the tick counter, so with scripted deltas the whole picture is
    /// reproducible. Frames recorded before the switch keep the times they had.
    pub fn set_fixed_costs(&mut self, on: bool) {
        self.fixed_costs = on;
    }

    /// Whether a pointer press at `(x, y)` lands on the toggle corner of a `height`-px screen.
    pub fn hits_toggle(x: i32, y: i32, height: i32) -> bool {
        Rect::new(0, height - TOGGLE_HEIGHT, TOGGLE_WIDTH, TOGGLE_HEIGHT).contains(x, y)
    }

    /// The palette slots in use.
    pub fn colors(&self) -> &OverlayColors {
        &self.colors
    }

    /// The palette slots in use, to change.
    pub fn colors_mut(&mut self) -> &mut OverlayColors {
        &mut self.colors
    }

    /// Takes one frame's measurements: smooths the figures, counts the display refreshes the
    /// frame missed, grades it against the budget and adds it to the chart, scrolling off the oldest column when the chart is full.
    /// Collected whether or not the overlay or the chart is visible.
    pub fn record(&mut self, stats: &FrameStats) {
        let (update_ms, render_ms, frame_ms) = if self.fixed_costs {
            let update_ms = f64::from(stats.updates) * FIXED_UPDATE_MS;
            (update_ms, FIXED_RENDER_MS, update_ms + FIXED_RENDER_MS)
        } else {
            (stats.update_ms, stats.render_ms, stats.frame_ms)
        };
        self.frame_ms.add(frame_ms);
        self.update_ms.add(update_ms);
        self.render_ms.add(render_ms);
        self.present.observe(stats.delta_ms);
        let missed = self.refresh.observe(stats.delta_ms);
        let mut sample = self.sample(stats, missed.unwrap_or(0));
        sample.rerun = std::mem::take(&mut self.rerun);
        self.last_rerun = sample.rerun;
        self.chart.push(sample);
        self.sound.tick();
        self.last = *stats;
        self.last_missed = missed;
        self.last_severity = sample.severity;
    }

    /// What the chart keeps of a frame.
    fn sample(&self, stats: &FrameStats, missed: u32) -> Sample {
        let (update_ms, render_ms) = if self.fixed_costs {
            (f64::from(stats.updates) * FIXED_UPDATE_MS, FIXED_RENDER_MS)
        } else {
            (stats.update_ms, stats.render_ms)
        };
        Sample {
            delta_ms: stats.delta_ms,
            update_ms,
            render_ms,
            updates: stats.updates,
            clamped: stats.clamped,
            discarded_ms: stats.discarded_ms,
            // Graded on the time the frame was on screen (the clock's delta), not on measured
            // CPU time, so the same clock gives the same tints on every run and every machine;
            // and on the budget alone, so the display's rate never turns a frame on budget
            // into a fault.
            severity: Severity::classify(stats.delta_ms, self.budget_ms),
            missed,
            spread: None,
            start_ms: None,
            never_shown: false,
            generated: false,
            mode_change: false,
            rerun: 0,
        }
    }

    /// How many frames the chart shows in its current mode: the display's width for the
    /// band, less the gutter for the tall chart.
    pub fn chart_columns(&self) -> usize {
        match self.chart_mode {
            ChartMode::Tall => tall::columns(self.chart.width() as i32) as usize,
            ChartMode::Off | ChartMode::Compact => self.chart.width(),
        }
    }

    /// Charts `frames` (oldest first) in place of the frames recorded, with `tags` (each with
    /// the index in `frames` of the frame it belongs to); the smoothed figures, the refresh
    /// count and the last frame are left as they were. For a host that charts a chosen stretch
    /// of a run, or a whole run with each frame standing for a bucket of them. Beyond the
    /// chart's width, the last frames are kept.
    pub fn rechart(&mut self, frames: &[ChartFrame], tags: &[(usize, Tag)]) {
        self.chart.clear();
        let mut tags = tags.iter().peekable();
        for (i, frame) in frames.iter().enumerate() {
            while let Some((_, tag)) = tags.next_if(|(at, _)| *at <= i) {
                self.chart.add_tag(tag.clone());
            }
            let mut sample = self.sample(&frame.stats, frame.missed);
            sample.spread = frame.spread;
            sample.start_ms = frame.start_ms;
            sample.never_shown = frame.never_shown;
            sample.generated = frame.generated;
            sample.mode_change = frame.mode_change;
            self.chart.push(sample);
        }
    }

    /// Writes `text` on the tall chart's legend row, on the right: what its columns cover
    /// (`frames 0-1999 x7`: 2,000 frames, 7 to a column). Empty (the default) writes nothing.
    pub fn set_chart_caption(&mut self, text: &str) {
        self.caption.clear();
        self.caption.push_str(text);
    }

    /// Chooses what the tall chart's bars measure (see [`ChartBars`]); the host fills the
    /// chart to match with [`Overlay::rechart`].
    pub fn set_chart_bars(&mut self, bars: ChartBars) {
        self.chart_bars = bars;
    }

    /// What the tall chart's bars measure.
    pub fn chart_bars(&self) -> ChartBars {
        self.chart_bars
    }

    /// Makes the tall chart's delta scale fit at least a frame `ms` long (within its usual
    /// bounds), so two charts set side by side share one scale. 0 (the default) fits the
    /// frames on screen alone.
    pub fn set_chart_scale_floor(&mut self, ms: f64) {
        self.chart_scale_floor_ms = if ms.is_finite() { ms.max(0.0) } else { 0.0 };
    }

    /// Makes the tall chart's delta scale fit a frame `ms` long (rounded up to a readable value,
    /// from 20 ms to a second) rather than the longest frame on screen, whatever the cart's
    /// budget: for a host charting a run whose frames are not the cart's (a capture), whose
    /// own frame times should set the scale. Longer frames run past the top with their values.
    /// [`Overlay::set_chart_scale_floor`] still applies. `None` (the default) fits the frames
    /// on screen against the cart's budget.
    pub fn set_chart_scale_fit(&mut self, ms: Option<f64>) {
        self.chart_scale_fit_ms = ms.filter(|ms| ms.is_finite() && *ms > 0.0);
    }

    /// Gives the tall chart the screen from under the title row down to the two metrics rows,
    /// rather than half of it: for a host whose picture is the chart (`bt diagnose` charting a
    /// capture), not the cart's screen.
    pub fn set_chart_full_height(&mut self, full: bool) {
        self.chart_full_height = full;
    }

    /// Names the run on the title row in place of the cart's title (`bt diagnose` charting a
    /// capture names the program captured).
    pub fn set_title(&mut self, title: &str) {
        self.title.clear();
        self.title.push_str(title);
    }

    /// Takes the synthesiser's meter (the engine hands it over before each drawing). The sound
    /// row under the timing row shows once the cart has defined a sound.
    pub fn set_sound_meter(&mut self, meter: bt::sound::SoundMeter) {
        self.sound.set_meter(meter);
    }

    /// Takes the audio device's figures for the sound row; `None` (the default) for a host
    /// without one, whose row then leaves them out.
    pub fn set_sound_device(&mut self, device: Option<SoundDevice>) {
        self.sound.set_device(device);
    }

    /// Frames reaching the screen per second, as the metrics row shows it: the newest frames
    /// whose deltas add up to at most a second, over the time they took (see [`PresentRate`]).
    /// Before the first frame, the cart's `target_fps`.
    pub fn present_fps(&self) -> f64 {
        self.present.fps().unwrap_or(self.target_fps)
    }

    /// The last frame's measurements, as recorded.
    pub fn last(&self) -> &FrameStats {
        &self.last
    }

    /// How many display refreshes the last recorded frame missed (see [`RefreshCounter`]), or
    /// `None` when the refresh source counts none ([`Refresh::counts_misses`]: n/a).
    pub fn last_missed_refreshes(&self) -> Option<u32> {
        self.last_missed
    }

    /// Counts missed refreshes against `source` from now on (the default is
    /// [`Refresh::Rolling`]). A host that knows its display's rate gives it here.
    pub fn set_refresh(&mut self, source: Refresh) {
        self.refresh = RefreshCounter::new(source);
    }

    /// What missed refreshes are counted against: the source and the rate in use now.
    pub fn refresh(&self) -> (Refresh, Option<f64>) {
        (self.refresh.source(), self.refresh.refresh_hz())
    }

    /// How the last recorded frame was graded (see [`Severity::classify`]).
    pub fn last_severity(&self) -> Severity {
        self.last_severity
    }

    /// Frames recorded since the chart started.
    pub fn samples_recorded(&self) -> u64 {
        self.chart.total()
    }

    /// Says the frame being run, the one the next [`Overlay::record`] takes, ran `rerun` of its
    /// updates again after a rollback: a netplay session went back and ran them with the input
    /// that arrived (they are among [`FrameStats::updates`]). The compact band draws a cell
    /// for each in the tag colour up from its column's foot; the tall chart, once it has
    /// charted such a frame, a strip of up to [`ROLLBACK_ROWS`] cells under the missed
    /// refreshes, named `rollback` in its legend.
    ///
    /// ```
    /// use bt::Settings;
    /// use bt_overlay::{FrameStats, Overlay};
    ///
    /// let mut overlay = Overlay::new(&Settings::default());
    /// overlay.mark_rollback(3);
    /// overlay.record(&FrameStats { updates: 4, ..FrameStats::default() });
    /// assert_eq!(overlay.last_rerun(), 3);
    /// ```
    pub fn mark_rollback(&mut self, rerun: u32) {
        self.rerun = rerun;
    }

    /// Updates the last recorded frame ran again after a rollback ([`Overlay::mark_rollback`]).
    pub fn last_rerun(&self) -> u32 {
        self.last_rerun
    }

    /// Places a tag on the frame being run, the one the next [`Overlay::record`] takes.
    ///
    /// The tag shows at that frame's column with its tick counted from the chart's start, and is
    /// forgotten once its text has scrolled off the left edge. At most [`MAX_TAGS`] are kept.
    pub fn add_tag(&mut self, tag: Tag) {
        self.chart.add_tag(tag);
    }

    /// The tags still on the chart, oldest first.
    pub fn tags(&self) -> impl Iterator<Item = ChartTag<'_>> + '_ {
        self.chart.tags()
    }

    /// Empties the chart and starts it again at `tick`, with a `Start` tag there. For a host
    /// that restarts the cart; smoothing and drop detection carry on.
    pub fn reset_chart(&mut self, tick: u64) {
        self.chart.reset(tick);
    }

    /// Shows or hides the renderer row: the last frame's drawing calls by kind.
    pub fn set_diagnostics(&mut self, on: bool) {
        self.diagnostics = on;
    }

    /// Shows or hides the palette grid.
    pub fn set_palette_grid(&mut self, on: bool) {
        self.palette_grid = on;
    }

    /// The palette's size, for the palette grid (the engine tells it each frame: a cart may
    /// resize its palette).
    pub fn set_palette_len(&mut self, len: usize) {
        self.palette_len = len;
    }

    /// The buffer the cart's `overlay_rows` fills, cleared for this frame.
    pub fn cart_rows_mut(&mut self) -> &mut OverlayRows {
        self.cart_rows.clear();
        &mut self.cart_rows
    }

    /// The rows the host adds, drawn above the cart's (a netplay run's ping and rollbacks).
    /// They stay until the host changes them: clear and fill them when their values change.
    pub fn host_rows(&self) -> &OverlayRows {
        &self.host_rows
    }

    /// The host's rows, to replace (see [`Overlay::host_rows`]).
    pub fn host_rows_mut(&mut self) -> &mut OverlayRows {
        &mut self.host_rows
    }

    /// Draws the overlay in screen space over the whole screen, then puts back the cart's clip.
    ///
    /// Hidden, it draws only a small hint inside the toggle corner.
    pub fn draw(&mut self, fb: &mut Framebuffer) {
        let cart_clip = fb.clip();
        fb.reset_clip();
        self.swatches = None;
        if self.visible {
            self.draw_body(fb);
        } else {
            self.draw_hint(fb);
        }
        self.draw_timeline(fb);
        if !self.notice.is_empty() {
            let c = &self.colors;
            // One bar, and one line more for every line break in the notice.
            let breaks = self.notice.matches('\n').count() as i32;
            let bar = BAR_HEIGHT + breaks * bt::limits::LINE_HEIGHT;
            fb.draw_rect_fill(Rect::new(0, 0, fb.width() as i32, bar), c.error);
            fb.print(EDGE_MARGIN, 0, &self.notice, c.text);
        }
        fb.set_clip(cart_clip);
    }

    fn draw_hint(&self, fb: &mut Framebuffer) {
        let h = fb.height() as i32;
        let c = &self.colors;
        fb.draw_rect_fill(Rect::new(3, h - 8, 11, 3), c.bar);
        fb.draw_rect_fill(Rect::new(4, h - 7, 9, 1), c.text);
    }

    fn draw_body(&mut self, fb: &mut Framebuffer) {
        let (w, h) = (fb.width() as i32, fb.height() as i32);
        let layout = if self.chart_full_height && self.chart_mode == ChartMode::Tall {
            Layout::tall_full(h)
        } else {
            Layout::new(self.chart_mode, h)
        };
        let present_fps = self.present_fps();
        let Overlay {
            line,
            colors: c,
            chart,
            tall,
            ..
        } = self;
        let c = *c;
        // Title (or the paused tick); on the right the time the update cap lost over the
        // chart's frames (when any), the presenter and the display. Where they do not all fit,
        // the presenter goes, then the display size, then the title loses words.
        bar(fb, 0, w, &c);
        // Lost time over the frames the chart shows: the tall chart shows fewer than the band.
        let lost_ms = match self.chart_mode {
            ChartMode::Tall => {
                chart.discarded_ms_since(chart.total().saturating_sub(tall::columns(w)))
            }
            ChartMode::Off | ChartMode::Compact => chart.discarded_ms(),
        };
        let left = &mut self.left;
        left.clear();
        let left_ink = match (self.paused, self.replay) {
            (Some(tick), Some((played, length))) => {
                let _ = write!(left, "PAUSED tick {tick}  REPLAY {played}/{length}");
                c.warning
            }
            (Some(tick), None) => {
                let _ = write!(left, "PAUSED tick {tick}");
                c.warning
            }
            (None, Some((played, length))) => {
                let _ = write!(left, "REPLAY {played}/{length}");
                c.tag
            }
            (None, None) => {
                left.push_str(&self.title);
                c.text
            }
        };
        // The room the left text has beside a right-hand label of `label` px.
        let right_of = |label: i32| (w - label - EDGE_MARGIN + 1).max(EDGE_MARGIN);
        let left_room = |label: i32| right_of(label) - DIVIDER_GAP - EDGE_MARGIN;
        display_label(line, lost_ms, Some(&self.backend), Some((w, h)));
        if plain_width(left) > left_room(text_width(line)) {
            display_label(line, lost_ms, None, Some((w, h)));
            // The display size stays while the left text keeps its first word.
            let first = left.split(' ').next().unwrap_or("");
            if plain_width(first) + GLYPH_ADVANCE > left_room(text_width(line)) {
                display_label(line, lost_ms, None, None);
            }
        }
        let right = right_of(text_width(line));
        let (shown, cut) = shortened(left, left_room(text_width(line)));
        fb.print(EDGE_MARGIN, 0, shown, left_ink);
        if cut {
            text::ellipsis(fb, EDGE_MARGIN + plain_width(shown), 0, left_ink);
        }
        segments(fb, right, 0, line, c.text, c.gap);
        if let Some((top, height)) = layout.chart {
            if self.chart_mode == ChartMode::Tall {
                let look = tall::Look {
                    budget_ms: self.budget_ms,
                    caption: &self.caption,
                    bars: self.chart_bars,
                    scale_floor_ms: self.chart_scale_floor_ms,
                    scale_fit_ms: self.chart_scale_fit_ms,
                };
                tall.draw(fb, chart, top, height, &look, &c);
            } else {
                chart.draw(fb, top, height, self.budget_ms, &c);
            }
        }
        // Present and target rates, and the cart's drawing calls.
        // Each row takes its short labels when the long ones do not fit, and then whole segments
        // from the left as far as they fit.
        let room = fit::room(w);
        bar(fb, layout.metrics_y, w, &c);
        let (fps, target, calls) = (present_fps, self.target_fps, self.last.draw_counts.total());
        metrics_row(line, fps, target, calls, false);
        if text_width(line) > room {
            metrics_row(line, fps, target, calls, true);
        }
        let shown = whole_segments(line, room);
        segments(fb, EDGE_MARGIN, layout.metrics_y, shown, c.text, c.gap);
        // Frame, update (xN when several ran) and render times.
        bar(fb, layout.timing_y, w, &c);
        let times = (
            self.frame_ms.get(),
            self.update_ms.get(),
            self.render_ms.get(),
        );
        let updates = self.last.updates;
        timing_row(line, times.0, times.1, updates, times.2, false);
        if text_width(line) > room {
            timing_row(line, times.0, times.1, updates, times.2, true);
        }
        let shown = whole_segments(line, room);
        segments(fb, EDGE_MARGIN, layout.timing_y, shown, c.text, c.gap);
        let mut rows_end = layout.timing_y + BAR_HEIGHT + ROW_GAP;
        // The cart's drawing calls by kind, when asked for.
        if self.diagnostics {
            let y = rows_end;
            bar(fb, y, w, &c);
            let counts = self.last.draw_counts;
            renderer_row(line, counts, false);
            if text_width(line) > room {
                renderer_row(line, counts, true);
            }
            let shown = whole_segments(line, room);
            segments(fb, EDGE_MARGIN, y, shown, c.text, c.gap);
            rows_end += BAR_HEIGHT + ROW_GAP;
        }
        // Levels, voices and the device's figures, for a cart with sound.
        if self.sound.shown() {
            let y = rows_end;
            bar(fb, y, w, &c);
            self.sound.draw(fb, y, w, line, &c);
            rows_end += BAR_HEIGHT + ROW_GAP;
        }
        // The hint bar along the bottom (more than one on a narrow display, as far as they
        // leave the rows above in sight), then the cart's rows stacked upward from it, each
        // with a gap row above it.
        let hint = Hint::new(HIDE_HINT, w, (h - rows_end) / (BAR_HEIGHT + ROW_GAP));
        let mut y = h - BAR_HEIGHT;
        for _ in 1..hint.bars() {
            footer_bar(fb, y, w, &c);
            y -= BAR_HEIGHT + ROW_GAP;
        }
        footer_bar(fb, y, w, &c);
        let hint_top = y;
        hint.place(|bar, x, item| {
            let y = hint_top + bar * (BAR_HEIGHT + ROW_GAP);
            fb.print(EDGE_MARGIN + x, y, item, c.text);
        });
        // The palette, a swatch a slot, above the hint bar where the rows above leave room.
        if self.palette_grid {
            let grid = PaletteGrid::new(self.palette_len, w);
            let top = y - ROW_GAP - grid.height;
            if grid.height > 0 && top >= rows_end {
                fb.draw_rect_fill(Rect::new(0, top, w, grid.height), c.bar);
                fb.draw_rect_fill(Rect::new(0, top - ROW_GAP, w, ROW_GAP), c.gap);
                grid.draw(fb, top);
                self.swatches = Some(grid.swatches(top));
                y = top;
            }
        }
        for (left, right) in self.cart_rows.iter().chain(self.host_rows.iter()) {
            y -= BAR_HEIGHT + ROW_GAP;
            footer_bar(fb, y, w, &c);
            fb.print(EDGE_MARGIN, y, left, c.text);
            let rx = (w - plain_width(right) - EDGE_MARGIN + 1).max(EDGE_MARGIN);
            fb.print(rx, y, right, c.text);
        }
    }
}

/// The text of the bottom bar while the overlay is shown: first the window's pause-menu and
/// quit keys (a player's way out, so on a narrow display with room for one bar they are what
/// stays), then the overlay's own keys. It fits one bar of a 320-px display; narrower ones wrap
/// it over more bars, as far as the rows above leave room.
pub const HIDE_HINT: &str = "P menu  Ctrl+Q quit  ` view  F7 tall  F8 timings";

/// The palette grid's shape: square swatches of [`SWATCH`] px with a 1-px gap, in rows of a
/// whole number of eights (32 for 256 colours at 320 px, 16 for a 16-colour palette), inside
/// [`GRID_PADDING`] px of bar.
struct PaletteGrid {
    len: usize,
    columns: usize,
    /// The whole band's height, padding included; 0 when not even one swatch fits.
    height: i32,
}

/// A palette grid swatch's side.
const SWATCH: i32 = 7;
/// Bar around the palette grid's swatches.
const GRID_PADDING: i32 = 3;

impl PaletteGrid {
    fn new(len: usize, width: i32) -> PaletteGrid {
        let fit = ((width - 2 * GRID_PADDING + 1) / (SWATCH + 1)).max(0) as usize;
        let columns = if len <= fit {
            len
        } else if fit >= 8 {
            fit - fit % 8
        } else {
            fit
        };
        let height = match columns {
            0 => 0,
            columns => {
                let rows = len.div_ceil(columns) as i32;
                rows * (SWATCH + 1) - 1 + 2 * GRID_PADDING
            }
        };
        PaletteGrid {
            len,
            columns,
            height,
        }
    }

    /// The box the swatches take from `top`, the gaps between them included.
    fn swatches(&self, top: i32) -> Rect {
        let rows = self.len.min(256).div_ceil(self.columns.max(1)) as i32;
        Rect::new(
            GRID_PADDING,
            top + GRID_PADDING,
            self.columns as i32 * (SWATCH + 1) - 1,
            rows * (SWATCH + 1) - 1,
        )
    }

    /// Draws every slot's swatch from `top`. Each is written as the slot itself, with no pen:
    /// slot 0, which drawing calls leave see-through, shows its colour too.
    fn draw(&self, fb: &mut Framebuffer, top: i32) {
        for slot in 0..self.len.min(256) {
            let (col, row) = ((slot % self.columns) as i32, (slot / self.columns) as i32);
            let x = GRID_PADDING + col * (SWATCH + 1);
            let y = top + GRID_PADDING + row * (SWATCH + 1);
            fb.clear_rect(Rect::new(x, y, SWATCH, SWATCH), slot as u8);
        }
    }
}

/// A full-width bar at `y` with its gap row above (the bottom rows stack upward).
fn footer_bar(fb: &mut Framebuffer, y: i32, w: i32, c: &OverlayColors) {
    fb.draw_rect_fill(Rect::new(0, y, w, BAR_HEIGHT), c.bar);
    fb.draw_rect_fill(Rect::new(0, y - ROW_GAP, w, ROW_GAP), c.gap);
}

/// A full-width bar at `y` with its gap row below.
fn bar(fb: &mut Framebuffer, y: i32, w: i32, c: &OverlayColors) {
    fb.draw_rect_fill(Rect::new(0, y, w, BAR_HEIGHT), c.bar);
    fb.draw_rect_fill(Rect::new(0, y + BAR_HEIGHT, w, ROW_GAP), c.gap);
}

#[cfg(test)]
mod tests;
