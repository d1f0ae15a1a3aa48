//! The timing chart: one column per delivered frame, newest on the right, with tags.
//!
//! Samples live in a ring as wide as the display, allocated once. Tags live in a queue with a
//! fixed capacity; only a tag's own label is ever allocated. In the band a tag is a line down
//! its frame's column, under the dots: the band has no row a label could take without covering
//! some frame's dot, so the labels are the tall chart's, in lanes of their own.

use std::collections::VecDeque;

use bt::host::Framebuffer;
use bt::{Rect, Tag};

use crate::{OverlayColors, Severity};

/// Height of the chart band, in pixels.
pub const CHART_HEIGHT: i32 = 22;
/// Milliseconds that reach the top of the band. Anything slower is pinned to the top row.
pub const CHART_FULL_SCALE_MS: f64 = 16.0;
/// Grid lines, in milliseconds, besides the frame budget: 5 and 10 ms give a sense of scale,
/// 33.3 ms is the 30 Hz budget. Lines that would fall on the band's edges are left out.
pub const CHART_GRID_MS: [f64; 3] = [5.0, 10.0, 100.0 / 3.0];
/// At most this many tags are kept; beyond it the oldest is forgotten. A cart tagging every
/// frame fills the band with unreadable text long before this matters.
pub const MAX_TAGS: usize = 128;
/// Tick numbers on tags stop growing here, so a long run cannot give a tag an unreadable
/// number.
pub const TAG_TICK_LIMIT: u64 = 100_000;
/// Rows of the clamp mark at the top of a column.
const CLAMP_MARK_ROWS: i32 = 2;

/// What the chart keeps of one frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Sample {
    /// The frame's delta from the clock: how long it stayed on screen.
    pub delta_ms: f64,
    pub update_ms: f64,
    pub render_ms: f64,
    pub updates: u32,
    pub clamped: bool,
    pub discarded_ms: f64,
    pub severity: Severity,
    /// Display refreshes the frame missed (0 when none, or when that is n/a).
    pub missed: u32,
    /// The shortest and median delta of the frames a column stands for (see
    /// [`crate::ChartFrame::spread`]).
    pub spread: Option<(f64, f64)>,
    /// When the frame (or the column's first frame) began, in ms from the run's start (see
    /// [`crate::ChartFrame::start_ms`]).
    pub start_ms: Option<f64>,
    /// The frame never reached the screen (see [`crate::ChartFrame::never_shown`]).
    pub never_shown: bool,
    /// The frame was generated (see [`crate::ChartFrame::generated`]).
    pub generated: bool,
    /// How frames reached the screen changed here (see [`crate::ChartFrame::mode_change`]).
    pub mode_change: bool,
    /// Updates the frame ran again after a rollback (see [`crate::Overlay::mark_rollback`]).
    pub rerun: u32,
}

/// A tag with the index of the sample (frame) it belongs to.
#[derive(Debug)]
struct Placed {
    tag: Tag,
    sample: u64,
}

/// A tag as the chart shows it, from [`crate::Overlay::tags`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartTag<'a> {
    /// The tag's label.
    pub label: &'a str,
    /// The tick it was placed at, counted from the chart's start and capped at
    /// [`TAG_TICK_LIMIT`]: the number the chart prints.
    pub tick: u64,
    /// Its column from the left of the band; equal to the band width for a tag whose frame is
    /// not recorded yet.
    pub column: i64,
    /// Its place among the tags of the same frame: 0 for the first, then 1, 2, ...
    pub stack: u32,
}

/// The sample ring and the tags.
#[derive(Debug)]
pub(crate) struct Chart {
    ring: Vec<Sample>,
    total: u64,
    tags: VecDeque<Placed>,
    start_tick: u64,
    /// A frame that ran updates again after a rollback was pushed since the chart started:
    /// the tall chart then keeps a strip for them, so its panels do not move as such frames
    /// scroll in and out.
    rollbacks: bool,
}

impl Chart {
    /// A chart `width` columns wide (at least one).
    pub fn new(width: usize) -> Chart {
        Chart {
            ring: vec![Sample::default(); width.max(1)],
            total: 0,
            tags: VecDeque::with_capacity(MAX_TAGS),
            start_tick: 0,
            rollbacks: false,
        }
    }

    /// Forgets every sample and tag and starts again at `tick`, with a `Start` tag.
    pub fn reset(&mut self, tick: u64) {
        self.total = 0;
        self.tags.clear();
        self.start_tick = tick;
        self.rollbacks = false;
        self.add_tag(Tag {
            tick,
            label: "Start".to_string(),
        });
    }

    /// Forgets every sample and tag, with no `Start` tag, counting ticks from 0: for charting
    /// a chosen stretch of frames.
    pub fn clear(&mut self) {
        self.total = 0;
        self.tags.clear();
        self.start_tick = 0;
        self.rollbacks = false;
    }

    /// Whether a frame that ran updates again after a rollback was pushed since the chart
    /// started.
    pub fn has_rollbacks(&self) -> bool {
        self.rollbacks
    }

    /// How many samples the ring holds.
    pub fn width(&self) -> usize {
        self.ring.len()
    }

    /// Samples recorded since the start.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The index of the sample in column 0.
    fn first_visible(&self) -> u64 {
        self.total.saturating_sub(self.ring.len() as u64)
    }

    fn column_of(&self, sample: u64) -> i64 {
        sample as i64 - self.first_visible() as i64
    }

    /// Adds a frame, then forgets tags whose frames have scrolled off the left edge.
    pub fn push(&mut self, sample: Sample) {
        let slot = (self.total % self.ring.len() as u64) as usize;
        self.ring[slot] = sample;
        self.rollbacks |= sample.rerun > 0;
        self.total += 1;
        while let Some(front) = self.tags.front() {
            if self.column_of(front.sample) >= 0 {
                break;
            }
            self.tags.pop_front();
        }
    }

    /// Places `tag` on the frame about to be recorded.
    pub fn add_tag(&mut self, tag: Tag) {
        if self.tags.len() == MAX_TAGS {
            self.tags.pop_front();
        }
        self.tags.push_back(Placed {
            tag,
            sample: self.total,
        });
    }

    fn relative_tick(&self, tag: &Tag) -> u64 {
        tag.tick.saturating_sub(self.start_tick).min(TAG_TICK_LIMIT)
    }

    /// The tags still on the chart, oldest first.
    pub fn tags(&self) -> impl Iterator<Item = ChartTag<'_>> + '_ {
        let mut previous: Option<u64> = None;
        let mut stack = 0;
        self.tags.iter().map(move |p| {
            if previous == Some(p.sample) {
                stack += 1;
            } else {
                stack = 0;
                previous = Some(p.sample);
            }
            ChartTag {
                label: &p.tag.label,
                tick: self.relative_tick(&p.tag),
                column: self.column_of(p.sample),
                stack,
            }
        })
    }

    /// The samples from index `first` (or the oldest kept, if later) to the newest, with their
    /// indices, oldest first.
    pub fn since(&self, first: u64) -> impl Iterator<Item = (u64, &Sample)> + '_ {
        let start = first.max(self.first_visible()).min(self.total);
        // The ring in order from `start`'s slot, wrapping once: no division per sample.
        let slot = (start % self.ring.len() as u64) as usize;
        let (older, newer) = self.ring.split_at(slot);
        let count = (self.total - start) as usize;
        (start..).zip(newer.iter().chain(older).take(count))
    }

    /// Each tag's frame (sample index) and label, oldest first.
    pub fn placed_tags(&self) -> impl Iterator<Item = (u64, &str)> + '_ {
        self.tags.iter().map(|p| (p.sample, p.tag.label.as_str()))
    }

    /// The samples on the band with their columns, oldest (leftmost) first.
    fn visible(&self) -> impl Iterator<Item = (i32, &Sample)> + '_ {
        let first = self.first_visible();
        self.since(first).map(move |(i, s)| ((i - first) as i32, s))
    }

    /// Milliseconds the update cap threw away over the frames on the band.
    pub fn discarded_ms(&self) -> f64 {
        self.visible().map(|(_, s)| s.discarded_ms).sum()
    }

    /// Milliseconds the update cap threw away over the frames from index `first` on.
    pub fn discarded_ms_since(&self, first: u64) -> f64 {
        self.since(first).map(|(_, s)| s.discarded_ms).sum()
    }

    /// Draws the band at `top`, `height` rows tall, with grid lines for `budget_ms`, a line
    /// for each tag and a rollback's re-run updates, drawn first so every dot stays in sight.
    pub fn draw(
        &self,
        fb: &mut Framebuffer,
        top: i32,
        height: i32,
        budget_ms: f64,
        c: &OverlayColors,
    ) {
        let width = self.ring.len() as i32;
        let baseline = top + height - 1;
        fb.draw_rect_fill(Rect::new(0, top, width, height), c.bar);
        fb.draw_rect_fill(Rect::new(0, top + height, width, 1), c.gap);
        for ms in CHART_GRID_MS.into_iter().chain([budget_ms]) {
            if let Some(y) = grid_row(ms, top, height) {
                fb.draw_rect_fill(Rect::new(0, y, width, 1), c.grid);
            }
        }
        for tag in self.tags() {
            if tag.stack == 0 && (0..i64::from(width)).contains(&tag.column) {
                fb.draw_rect_fill(Rect::new(tag.column as i32, top, 1, height), c.tag);
            }
        }
        // A rollback's updates run again: a cell each up from the bottom row, behind the dots.
        for (x, s) in self.visible() {
            let rows = i32::try_from(s.rerun).unwrap_or(i32::MAX).min(height);
            if rows > 0 {
                fb.draw_rect_fill(Rect::new(x, top + height - rows, 1, rows), c.tag);
            }
        }
        for (x, s) in self.visible() {
            let (update_ink, render_ink) = match s.severity {
                Severity::Normal => (c.update_dot, c.render_dot),
                Severity::Warning => (c.warning, c.warning),
                Severity::Error => (c.error, c.error),
            };
            if s.updates > 0 {
                if let Some(y) = dot_row(s.update_ms, top, height) {
                    fb.draw_pixel(x, y, update_ink);
                }
            }
            if let Some(y) = dot_row(s.render_ms, top, height) {
                fb.draw_pixel(x, y, render_ink);
            }
            if s.updates == 0 {
                fb.draw_pixel(x, baseline, c.zero_update);
            }
            if s.clamped {
                let rows = CLAMP_MARK_ROWS.min(height);
                fb.draw_rect_fill(Rect::new(x, top, 1, rows), c.clamp);
            }
        }
    }
}

/// How many rows above the bottom a dot for `ms` stands, counting the bottom row as 1: none for
/// no time, at least 1 for any time, and the full `height` at [`CHART_FULL_SCALE_MS`] or more.
pub(crate) fn dot_offset(ms: f64, height: i32) -> Option<i32> {
    if ms.is_nan() || ms <= 0.0 || height < 1 {
        return None;
    }
    let rows = (ms * f64::from(height) / CHART_FULL_SCALE_MS).floor();
    Some((rows as i32).clamp(1, height))
}

/// The row of the dot for `ms` in a band at `top`, `height` rows tall. A dot that would sit one
/// row above the bottom is drawn on the bottom row, so the two lowest offsets read as one level.
pub(crate) fn dot_row(ms: f64, top: i32, height: i32) -> Option<i32> {
    let offset = dot_offset(ms, height)?;
    let baseline = top + height - 1;
    let y = (baseline - offset + 1).max(top);
    Some(if y == baseline - 1 { baseline } else { y })
}

/// The row of the grid line for `ms`, when it falls strictly inside the band and above the
/// bottom row.
pub(crate) fn grid_row(ms: f64, top: i32, height: i32) -> Option<i32> {
    if !ms.is_finite() || ms <= 0.0 {
        return None;
    }
    let baseline = top + height - 1;
    let rows = (ms * f64::from(height) / CHART_FULL_SCALE_MS).floor();
    let y = i64::from(baseline) - rows as i64 + 1;
    (y > i64::from(top) && y < i64::from(baseline)).then_some(y as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_offsets_scale_sixteen_milliseconds_to_the_band() {
        assert_eq!(dot_offset(0.0, 22), None);
        assert_eq!(dot_offset(-3.0, 22), None);
        assert_eq!(dot_offset(f64::NAN, 22), None);
        assert_eq!(dot_offset(0.1, 22), Some(1));
        assert_eq!(dot_offset(8.0, 22), Some(11));
        assert_eq!(dot_offset(16.0, 22), Some(22));
        assert_eq!(dot_offset(32.0, 22), Some(22));
        assert_eq!(dot_offset(f64::INFINITY, 22), Some(22));
    }

    #[test]
    fn dot_rows_sit_on_the_baseline_for_the_two_lowest_offsets() {
        // Band at y 14, 22 rows: baseline 35, top 14.
        assert_eq!(dot_row(0.1, 14, 22), Some(35));
        assert_eq!(dot_row(1.5, 14, 22), Some(35), "offset 2 is pulled down");
        assert_eq!(dot_row(2.2, 14, 22), Some(33), "offset 3");
        assert_eq!(dot_row(8.0, 14, 22), Some(25));
        assert_eq!(dot_row(40.0, 14, 22), Some(14));
    }

    #[test]
    fn only_five_and_ten_ms_grid_lines_fit_a_22_row_band_at_60_fps() {
        let rows: Vec<i32> = CHART_GRID_MS
            .into_iter()
            .chain([1000.0 / 60.0])
            .filter_map(|ms| grid_row(ms, 14, 22))
            .collect();
        assert_eq!(rows, vec![30, 23]);
    }

    #[test]
    fn a_120_fps_budget_gets_its_own_grid_line() {
        assert_eq!(grid_row(1000.0 / 120.0, 14, 22), Some(25));
    }

    fn tag(tick: u64, label: &str) -> Tag {
        Tag {
            tick,
            label: label.to_string(),
        }
    }

    #[test]
    fn tags_take_the_column_of_their_frame_and_scroll_with_it() {
        let mut c = Chart::new(10);
        c.reset(0);
        c.push(Sample::default());
        c.push(Sample::default());
        c.add_tag(tag(5, "Boss"));
        c.push(Sample::default());
        let columns: Vec<(&str, i64)> = c.tags().map(|t| (t.label, t.column)).collect();
        assert_eq!(columns, vec![("Start", 0), ("Boss", 2)]);
        for _ in 0..9 {
            c.push(Sample::default());
        }
        // 12 samples on a 10-wide band: sample 2 is now at column 0, and then gone.
        let boss = c.tags().find(|t| t.label == "Boss").map(|t| t.column);
        assert_eq!(boss, Some(0));
        c.push(Sample::default());
        assert_eq!(c.tags().count(), 0);
    }

    #[test]
    fn tags_of_one_frame_stack_and_only_the_first_carries_the_tick() {
        let mut c = Chart::new(10);
        c.reset(100);
        c.push(Sample::default());
        c.add_tag(tag(101, "a"));
        c.add_tag(tag(102, "b"));
        c.add_tag(tag(103, "c"));
        c.push(Sample::default());
        let got: Vec<(&str, u64, i64, u32)> = c
            .tags()
            .map(|t| (t.label, t.tick, t.column, t.stack))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Start", 0, 0, 0),
                ("a", 1, 1, 0),
                ("b", 2, 1, 1),
                ("c", 3, 1, 2)
            ]
        );
    }

    #[test]
    fn tags_are_forgotten_once_their_frame_has_left_the_band() {
        let mut c = Chart::new(20);
        c.add_tag(tag(0, "abcd"));
        for _ in 0..20 {
            c.push(Sample::default());
        }
        assert_eq!(c.tags().map(|t| t.label).collect::<Vec<_>>(), ["abcd"]);
        assert_eq!(c.tags().next().map(|t| t.column), Some(0));
        c.push(Sample::default());
        assert_eq!(c.tags().count(), 0);
    }

    #[test]
    fn tag_storage_is_bounded() {
        let mut c = Chart::new(4);
        c.reset(0);
        for i in 0..MAX_TAGS as u64 * 3 {
            c.add_tag(tag(i, "x"));
        }
        assert_eq!(c.tags().count(), MAX_TAGS);
        let first = c.tags().next().map(|t| t.tick);
        assert_eq!(first, Some(MAX_TAGS as u64 * 2));
    }

    #[test]
    fn tag_ticks_are_capped() {
        let mut c = Chart::new(4);
        c.reset(7);
        c.add_tag(tag(7 + 5_000_000, "late"));
        c.add_tag(tag(3, "before start"));
        let ticks: Vec<u64> = c.tags().map(|t| t.tick).collect();
        assert_eq!(ticks, vec![0, TAG_TICK_LIMIT, 0]);
    }

    #[test]
    fn lost_time_sums_over_the_frames_on_the_band() {
        let mut c = Chart::new(3);
        let lost = |ms| Sample {
            discarded_ms: ms,
            ..Sample::default()
        };
        c.push(lost(100.0));
        c.push(lost(0.0));
        c.push(lost(20.0));
        assert_eq!(c.discarded_ms(), 120.0);
        c.push(lost(0.0));
        assert_eq!(c.discarded_ms(), 20.0, "the first frame has scrolled off");
    }
}
