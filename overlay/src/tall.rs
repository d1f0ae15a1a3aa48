//! The tall chart: about half the screen of per-frame columns, to read timing from the picture.
//!
//! Top to bottom: one or two lanes of tag labels, the frame's delta from the clock as a bar
//! against the budget and twice the budget (a bar past the scale's top is broken and, where
//! there is room, carries its value: `418ms`), a strip coloured by the updates the frame ran
//! (with a notch under frames the update cap clamped), a strip marking the frames that missed
//! display refreshes, the update and render costs stacked on their own scale, and a legend
//! (with, on its right, what the columns cover when a host chose them). Once it has charted a
//! netplay frame that ran updates again after a rollback, a strip under the missed refreshes
//! gives each such frame a cell per update run again. A gutter on the left
//! holds each panel's top value. Each column is one frame, the newest on the right, drawn from
//! the same samples as the compact band.
//!
//! Colours come from [`OverlayColors`]: bars `text` (warning and error frames `warning` and
//! `error`, as the band's dots), counts `zero_update` / `update_dot` / `warning` / `error` for
//! 0 / 1 / 2 / 3+ updates, costs `update_dot` and `render_dot`, the cap `clamp`, one missed
//! refresh `warning` and more `error`, lines `grid`, tags `tag`. No fixed palette index is needed.

use bt::host::Framebuffer;
use bt::limits::GLYPH_ADVANCE;
use bt::Rect;

use crate::chart::Chart;
use crate::text::{self, plain_width, Short, SmallText};
use crate::{ChartBars, OverlayColors, Severity, EDGE_MARGIN, MAX_TAGS};

/// Width of the gutter left of the columns that holds the scale values: five glyphs (`150ms`,
/// `850us`) and a one-pixel rule with a pixel before it.
pub const TALL_GUTTER: i32 = 5 * GLYPH_ADVANCE + 2;
/// The deltas' scale reaches at least this many frame budgets, so the 2x-budget line always has
/// room above it ...
pub const DELTA_SCALE_MIN_BUDGETS: f64 = 2.5;
/// ... and at most this many: the update cap's 8 updates. Longer frames lose time to the cap
/// anyway (their notch says so); their bars run off the top with a break.
pub const DELTA_SCALE_MAX_BUDGETS: f64 = 8.0;
/// The deltas' scale range, in milliseconds, for a cart without a target rate.
pub const DELTA_SCALE_UNBUDGETED_MS: (f64, f64) = (20.0, 1000.0);
/// The costs' scale range, in milliseconds: from 100 us, so a cart costing a few microseconds
/// does not fill the panel with noise, to a second.
pub const COST_SCALE_MS: (f64, f64) = (0.1, 1000.0);
/// Scale tops are the first of these times a power of ten at or above the largest value, so
/// the top moves in readable steps rather than with every frame.
const NICE_STEPS: [f64; 9] = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0];

/// Rows of a line of text: the system font's ink rows 2..=12, descenders included.
const TEXT_ROWS: i32 = 11;
/// Blank rows at the top of every glyph: text is printed this far above the rows it inks.
const FONT_TOP: i32 = 2;
/// Ink rows of digits and of `ms`, `us`, `s` and `lost` (no descenders): rows 2..=10.
const NUMBER_ROWS: i32 = 9;
/// Rows of the update-count strip.
const COUNT_ROWS: i32 = 4;
/// Rows of the notch under a clamped frame's count.
const NOTCH_ROWS: i32 = 2;
/// Rows of the missed-refresh strip.
const MISS_ROWS: i32 = 2;
/// Rows of the rollback strip, one per update a frame ran again after a rollback: a netplay
/// session's default prediction window (8 updates), the most one rollback redoes; a deeper one
/// fills the strip.
pub const ROLLBACK_ROWS: i32 = 8;
/// Columns kept clear between two value labels of bars past the scale: about a glyph of the
/// small digits.
const OVER_GAP: i32 = 4;

/// Value labels kept for bars past the scale, the longest first.
const MAX_OVER_LABELS: usize = 12;
/// A tag's label starts this many pixels right of its line.
const LABEL_INSET: i32 = 2;
/// From this chart height two lanes of tag labels are used, below it one ...
const TWO_LANES_FROM: i32 = 90;
/// ... and below this none (the lines still show).
const ONE_LANE_FROM: i32 = 40;
/// From this chart height the legend is drawn.
const LEGEND_FROM: i32 = 80;
/// A bar taller than the scale is broken this many rows below the top.
const BREAK_ROW: i32 = 2;
/// Lost-time labels kept per frame: more than fit side by side on any display width up to 640.
const MAX_LOST_LABELS: usize = 12;

/// Rows of the time axis under the costs: tick marks, then the seconds' labels.
const AXIS_TICK_ROWS: i32 = 2;
/// From this chart height a chart that knows its frames' times writes seconds along its foot.
const AXIS_FROM: i32 = 110;
/// Columns kept between two seconds' labels at least: the axis takes the first step of
/// [`AXIS_STEPS_S`] whose ticks lie this far apart on average.
const AXIS_SPACING: i32 = 40;
/// Steps between the time axis's ticks, in seconds.
const AXIS_STEPS_S: [f64; 16] = [
    0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0,
    3600.0,
];
/// A never-displayed frame's column is hatched with a pixel every this many rows.
const HATCH_ROWS: i32 = 3;
/// A change of present mode is a dotted line down the bars' panel, a pixel every this many
/// rows: every other row, so it reads as a mark, not as a bar.
const MODE_DOT_ROWS: i32 = 2;

/// How the tall chart is drawn: the budget its bars are graded against, the caption on the
/// legend's row, and what the bars measure.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Look<'a> {
    pub budget_ms: f64,
    /// The delta scale fits at least this long a frame (0: the frames on screen alone).
    pub scale_floor_ms: f64,
    /// The delta scale fits this frame time instead of the longest on screen, within
    /// [`DELTA_SCALE_UNBUDGETED_MS`] whatever the budget (see
    /// [`crate::Overlay::set_chart_scale_fit`]).
    pub scale_fit_ms: Option<f64>,
    pub caption: &'a str,
    pub bars: ChartBars,
}

/// How many frames the tall chart shows on a display `width` pixels wide.
pub(crate) fn columns(width: i32) -> u64 {
    (width - TALL_GUTTER).max(0) as u64
}

/// Where each part of the tall chart goes, for a chart `height` rows tall at `top`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TallLayout {
    /// The first column right of the gutter ...
    pub data_x: i32,
    /// ... and how many columns (frames) there are.
    pub columns: i32,
    /// Lanes of tag labels (0, 1 or 2), from `lanes_top`, each [`TEXT_ROWS`] and a gap row.
    pub lanes: i32,
    pub lanes_top: i32,
    /// The delta bars' panel.
    pub bars_top: i32,
    pub bars_height: i32,
    /// The update-count strip, the notch rows under it and the missed-refresh strip.
    pub count_top: i32,
    pub notch_top: i32,
    pub miss_top: i32,
    /// The rollback strip, when the chart keeps one.
    pub rollback_top: Option<i32>,
    /// The cost panel.
    pub cost_top: i32,
    pub cost_height: i32,
    /// The time axis's tick rows (its labels under them), when the chart knows its frames'
    /// times and has room.
    pub axis_top: Option<i32>,
    /// The legend's ink rows, when there is room for it.
    pub legend_top: Option<i32>,
}

impl TallLayout {
    pub fn new(width: i32, top: i32, height: i32, timed: bool, rollbacks: bool) -> TallLayout {
        let lanes = if height >= TWO_LANES_FROM {
            2
        } else if height >= ONE_LANE_FROM {
            1
        } else {
            0
        };
        let legend = height >= LEGEND_FROM;
        let lane_rows = lanes * (TEXT_ROWS + 1);
        let legend_rows = if legend { TEXT_ROWS + 1 } else { 0 };
        let axis = timed && height >= AXIS_FROM;
        let axis_rows = if axis {
            AXIS_TICK_ROWS + NUMBER_ROWS + 1
        } else {
            0
        };
        // A gap row, the counts, the notch, the missed refreshes, the rollbacks (a gap row and
        // the strip) and a gap row.
        let rollback_rows = if rollbacks { 1 + ROLLBACK_ROWS } else { 0 };
        let strip_rows = 1 + COUNT_ROWS + NOTCH_ROWS + MISS_ROWS + rollback_rows + 1;
        let rest = (height - lane_rows - legend_rows - axis_rows - strip_rows).max(0);
        // Two thirds for the deltas, which carry the story; a third for the costs.
        let bars_height = (rest * 2 + 1) / 3;
        let cost_height = rest - bars_height;
        let bars_top = top + lane_rows;
        let count_top = bars_top + bars_height + 1;
        let notch_top = count_top + COUNT_ROWS;
        let miss_top = notch_top + NOTCH_ROWS;
        let rollback_top = rollbacks.then_some(miss_top + MISS_ROWS + 1);
        let cost_top = miss_top + MISS_ROWS + rollback_rows + 1;
        TallLayout {
            data_x: TALL_GUTTER,
            columns: columns(width) as i32,
            lanes,
            lanes_top: top,
            bars_top,
            bars_height,
            count_top,
            notch_top,
            miss_top,
            rollback_top,
            cost_top,
            cost_height,
            axis_top: axis.then_some(cost_top + cost_height),
            legend_top: legend.then_some(cost_top + cost_height + axis_rows + 1),
        }
    }

    /// The rows of label lane `lane`.
    fn lane_top(&self, lane: i32) -> i32 {
        self.lanes_top + lane * (TEXT_ROWS + 1)
    }

    /// One past the last column.
    fn right(&self) -> i32 {
        self.data_x + self.columns
    }

    fn bars_bottom(&self) -> i32 {
        self.bars_top + self.bars_height
    }
}

/// A tag's label as placed in a lane above the bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TagLabel {
    /// The column of the tag's line.
    pub line_x: i32,
    /// The rows and columns the label may ink; its text is clipped to them.
    pub rect: Rect,
    /// Which tag, counted in the chart's tag order.
    pub tag: usize,
    /// Characters of the label shown ...
    pub chars: usize,
    /// ... followed by an ellipsis when it was shortened.
    pub shortened: bool,
}

impl TagLabel {
    fn right(&self) -> i32 {
        self.rect.x + self.rect.w
    }

    fn resize(&mut self, chars: usize, shortened: bool) {
        self.chars = chars;
        self.shortened = shortened;
        self.rect.w = (chars + usize::from(shortened)) as i32 * GLYPH_ADVANCE;
    }
}

/// The tall chart's drawing state: scratch space for the layout, allocated once.
#[derive(Debug)]
pub(crate) struct Tall {
    labels: Vec<TagLabel>,
    lost: Vec<Rect>,
    /// The value labels of bars past the scale, as drawn, and the columns that want one.
    over: Vec<Rect>,
    over_columns: Vec<usize>,
    /// Each column as it is drawn, left to right.
    columns: Vec<Column>,
    /// The open levels of [`fill_histogram`].
    levels: Vec<(i32, i32)>,
}

/// One frame's column as drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Column {
    /// The frame's delta, and the rows of its bar and their colour.
    delta_ms: f64,
    bar_rows: i32,
    bar_ink: u8,
    /// Whether the delta ran past the scale's top.
    over: bool,
    /// For a column of several frames: the rows up to their median delta with its grade's
    /// colour, and the rows up to the shortest (the foot every frame took).
    mid: (i32, u8),
    low_rows: i32,
    /// The count strip's colour.
    count_ink: u8,
    clamped: bool,
    discarded_ms: f64,
    missed: u32,
    /// Rows of the update cost, and of the update and render costs together.
    update_rows: i32,
    cost_rows: i32,
    /// When the column's first frame began, in ms, when known.
    start_ms: Option<f64>,
    /// Hatched: a frame never displayed, in a chart of display times.
    hatched: bool,
    /// Marked: how frames reached the screen changed here.
    mode_change: bool,
    /// Updates run again after a rollback.
    rerun: u32,
}

impl Tall {
    /// Scratch space for a display `width` pixels wide. (A wider framebuffer grows it once.)
    pub fn new(width: u32) -> Tall {
        Tall {
            labels: Vec::with_capacity(MAX_TAGS),
            lost: Vec::with_capacity(MAX_LOST_LABELS),
            over: Vec::with_capacity(MAX_OVER_LABELS),
            over_columns: Vec::with_capacity(width as usize),
            columns: Vec::with_capacity(width as usize),
            levels: Vec::with_capacity(width as usize),
        }
    }

    /// The tag labels placed by the last [`Tall::draw`].
    #[cfg(test)]
    pub fn labels(&self) -> &[TagLabel] {
        &self.labels
    }

    /// The lost-time labels drawn by the last [`Tall::draw`].
    #[cfg(test)]
    pub fn lost_labels(&self) -> &[Rect] {
        &self.lost
    }

    /// The value labels of bars past the scale drawn by the last [`Tall::draw`].
    #[cfg(test)]
    pub fn over_labels(&self) -> &[Rect] {
        &self.over
    }

    /// Draws the chart at `top`, `height` rows tall, across the framebuffer, from `chart`'s
    /// samples and tags, as `look` says.
    pub fn draw(
        &mut self,
        fb: &mut Framebuffer,
        chart: &Chart,
        top: i32,
        height: i32,
        look: &Look<'_>,
        c: &OverlayColors,
    ) {
        let budget_ms = look.budget_ms;
        let width = fb.width() as i32;
        let first = chart.total().saturating_sub(columns(width));
        let timed = chart
            .since(first)
            .next()
            .is_some_and(|(_, s)| s.start_ms.is_some());
        let l = TallLayout::new(width, top, height, timed, chart.has_rollbacks());
        fb.draw_rect_fill(Rect::new(0, top, width, height), c.bar);
        fb.draw_rect_fill(Rect::new(0, top + height, width, 1), c.gap);
        self.labels.clear();
        self.lost.clear();
        self.over.clear();
        if l.columns == 0 || l.bars_height == 0 {
            return;
        }
        let x_of = |i: u64| l.data_x + (i - first) as i32;

        let (mut longest, mut costliest) = (look.scale_floor_ms, 0.0_f64);
        for (_, s) in chart.since(first) {
            longest = longest.max(s.delta_ms);
            costliest = costliest.max(s.update_ms + s.render_ms);
        }
        let delta_top = match look.scale_fit_ms {
            Some(fit) => delta_scale(fit.max(look.scale_floor_ms), f64::INFINITY),
            None => delta_scale(longest, budget_ms),
        };
        let cost_top = cost_scale(costliest);

        // The rule between gutter and columns and the one above the costs, then the tags' lines
        // behind everything else.
        let rule_bottom = l.cost_top + l.cost_height;
        fb.draw_rect_fill(
            Rect::new(l.data_x - 1, l.bars_top, 1, rule_bottom - l.bars_top),
            c.gap,
        );
        fb.draw_rect_fill(Rect::new(0, l.cost_top - 1, width, 1), c.gap);
        self.place_labels(chart, first, &l);
        let mut next_label = 0;
        for (k, (sample, _)) in chart.placed_tags().enumerate() {
            if sample < first || sample >= chart.total() {
                continue;
            }
            let x = x_of(sample);
            let mut line_top = l.bars_top;
            while let Some(label) = self.labels.get(next_label).filter(|lb| lb.tag <= k) {
                if label.tag == k {
                    line_top = label.rect.y;
                }
                next_label += 1;
            }
            fill_block(fb, x, 1, line_top, l.bars_bottom() - line_top, c.tag);
            fill_block(fb, x, 1, l.cost_top, l.cost_height, c.tag);
        }

        // One column per frame: the delta bar, the update count, the clamp notch, the costs.
        self.columns.clear();
        for (_, s) in chart.since(first) {
            let (update_rows, render_rows) =
                stacked_rows(s.update_ms, s.render_ms, cost_top, l.cost_height);
            // A generated frame's bar is in its own colour, whatever its grade.
            let ink = |severity: Severity| {
                if s.generated {
                    c.zero_update
                } else {
                    delta_ink(severity, c)
                }
            };
            let (mid, low_rows) = match s.spread {
                Some((low, mid)) => (
                    (
                        rows_for(mid, delta_top, l.bars_height),
                        ink(Severity::classify(mid, budget_ms)),
                    ),
                    rows_for(low, delta_top, l.bars_height),
                ),
                None => ((0, c.bar), 0),
            };
            self.columns.push(Column {
                mid,
                low_rows,
                delta_ms: s.delta_ms,
                bar_rows: rows_for(s.delta_ms, delta_top, l.bars_height),
                bar_ink: ink(s.severity),
                over: s.delta_ms > delta_top,
                count_ink: count_ink(s.updates, c),
                clamped: s.clamped,
                discarded_ms: s.discarded_ms,
                missed: s.missed,
                update_rows,
                cost_rows: update_rows + render_rows,
                start_ms: s.start_ms,
                hatched: s.never_shown && look.bars == ChartBars::Display,
                mode_change: s.mode_change,
                rerun: s.rerun,
            });
        }
        let Tall {
            columns, levels, ..
        } = self;
        let (x0, bars_bottom) = (l.data_x, l.bars_bottom());
        let cost_bottom = l.cost_top + l.cost_height;
        let bars = columns.iter().map(|col| (col.bar_rows, col.bar_ink));
        fill_histogram(fb, levels, x0, bars_bottom, bars);
        // A column of several frames is a band: the longest's grade from the median up, the
        // median's grade below it, and the foot every one of them took in the rule colour.
        let mids = columns.iter().map(|col| col.mid);
        fill_histogram(fb, levels, x0, bars_bottom, mids);
        let feet = columns.iter().map(|col| (col.low_rows, c.gap));
        fill_histogram(fb, levels, x0, bars_bottom, feet);
        for (x, col) in (x0..).zip(columns.iter()) {
            if col.hatched {
                for y in (l.bars_top..bars_bottom).rev().step_by(HATCH_ROWS as usize) {
                    fb.draw_pixel(x, y, c.grid);
                }
            }
        }
        // A change of present mode: a dotted line down the bars' panel.
        for (x, col) in (x0..).zip(columns.iter()) {
            if col.mode_change {
                for y in (l.bars_top..bars_bottom).step_by(MODE_DOT_ROWS as usize) {
                    fb.draw_pixel(x, y, c.clamp);
                }
            }
        }
        let marks = Marks {
            generated: chart.since(first).any(|(_, s)| s.generated),
            mode: columns.iter().any(|col| col.mode_change),
            rollback: l.rollback_top.is_some(),
        };
        if l.bars_height > 2 * BREAK_ROW {
            for (x, col) in (x0..).zip(columns.iter()) {
                if col.over {
                    fb.draw_pixel(x, l.bars_top + BREAK_ROW, c.bar);
                }
            }
        }
        let counts = columns.iter().map(|col| (COUNT_ROWS, col.count_ink));
        fill_histogram(fb, levels, x0, l.count_top + COUNT_ROWS, counts);
        let notches = columns
            .iter()
            .map(|col| (if col.clamped { NOTCH_ROWS } else { 0 }, c.clamp));
        fill_histogram(fb, levels, x0, l.notch_top + NOTCH_ROWS, notches);
        let misses = columns.iter().map(|col| match col.missed {
            0 => (0, c.bar),
            1 => (MISS_ROWS, c.warning),
            _ => (MISS_ROWS, c.error),
        });
        fill_histogram(fb, levels, x0, l.miss_top + MISS_ROWS, misses);
        if let Some(y) = l.rollback_top {
            let cells = columns.iter().map(|col| {
                let rows = i32::try_from(col.rerun).unwrap_or(i32::MAX);
                (rows.min(ROLLBACK_ROWS), c.tag)
            });
            fill_histogram(fb, levels, x0, y + ROLLBACK_ROWS, cells);
        }
        // The render cost stacked on the update cost: the whole stack in the render colour,
        // then the update cost over its foot.
        let stacks = columns.iter().map(|col| (col.cost_rows, c.render_dot));
        fill_histogram(fb, levels, x0, cost_bottom, stacks);
        let updates = columns.iter().map(|col| (col.update_rows, c.update_dot));
        fill_histogram(fb, levels, x0, cost_bottom, updates);

        // The budget (solid) and twice the budget (dashed), over the bars so they read across
        // them; the budget in the cost panel too when the costs come near it.
        let budget_row = line_row(budget_ms, delta_top, l.bars_top, l.bars_height);
        let double_row = line_row(2.0 * budget_ms, delta_top, l.bars_top, l.bars_height);
        if let Some(y) = budget_row {
            fb.draw_rect_fill(Rect::new(l.data_x, y, l.columns, 1), c.grid);
        }
        if let Some(y) = double_row {
            for x in (l.data_x..l.right()).step_by(4) {
                fb.draw_rect_fill(Rect::new(x, y, 2, 1), c.grid);
            }
        }
        if let Some(y) = line_row(budget_ms, cost_top, l.cost_top, l.cost_height) {
            fb.draw_rect_fill(Rect::new(l.data_x, y, l.columns, 1), c.grid);
        }

        // Scale values in the gutter: each panel's top, then the budget's and twice the budget's
        // values at their lines, each only where it clears the ones already written.
        let mut written: [Option<i32>; 3] = [None; 3];
        for (n, (ms, row)) in [
            (delta_top, Some(l.bars_top)),
            (budget_ms, budget_row.map(|y| y - NUMBER_ROWS / 2)),
            (2.0 * budget_ms, double_row.map(|y| y - NUMBER_ROWS / 2)),
        ]
        .into_iter()
        .enumerate()
        {
            let lowest = (bars_bottom - NUMBER_ROWS).max(l.bars_top);
            let Some(y) = row.map(|y| y.clamp(l.bars_top, lowest)) else {
                continue;
            };
            let clear = written
                .iter()
                .flatten()
                .all(|&other| (y - other).abs() > NUMBER_ROWS);
            if clear {
                gutter_value(fb, &l, y, l.bars_top, bars_bottom, ms, c.text);
                written[n] = Some(y);
            }
        }
        gutter_value(
            fb,
            &l,
            l.cost_top,
            l.cost_top,
            cost_bottom,
            cost_top,
            c.text,
        );

        self.draw_lost(fb, &l, c);
        self.draw_over(fb, &l, c);
        self.draw_labels(fb, chart, c);
        if let Some(y) = l.axis_top {
            self.draw_axis(fb, &l, y, c);
        }
        if let Some(y) = l.legend_top {
            legend(fb, y, width, look, marks, c);
        }
    }

    /// Writes seconds along the chart's foot, from rows `y`: a tick under the column where
    /// each whole step of time begins (the first step of [`AXIS_STEPS_S`] that leaves about
    /// [`AXIS_SPACING`] columns between ticks), its value under it where it clears the label
    /// before it.
    fn draw_axis(&self, fb: &mut Framebuffer, l: &TallLayout, y: i32, c: &OverlayColors) {
        let times = || self.columns.iter().filter_map(|col| col.start_ms);
        let (Some(start), Some(end)) = (times().next(), times().next_back()) else {
            return;
        };
        let span_s = (end - start) / 1000.0;
        let used = self.columns.len().min(l.columns as usize) as i32;
        let most_ticks = f64::from((used / AXIS_SPACING).max(1));
        let step = AXIS_STEPS_S
            .into_iter()
            .find(|&step| span_s / step <= most_ticks)
            .unwrap_or(AXIS_STEPS_S[AXIS_STEPS_S.len() - 1]);
        let saved = fb.clip();
        fb.set_clip(Rect::new(
            l.data_x,
            y,
            l.columns,
            AXIS_TICK_ROWS + NUMBER_ROWS,
        ));
        // Times within a microsecond of a step count as on it.
        let eps = 1e-6 / step;
        // (Adding 0 turns a -0 into 0, so the first label never reads "-0s".)
        let mut next = (start / 1000.0 / step - eps).ceil() * step + 0.0;
        let mut label_end = i32::MIN;
        for (x, col) in (l.data_x..).zip(self.columns.iter()) {
            let Some(ms) = col.start_ms else { continue };
            let s = ms / 1000.0;
            if s / step + eps < next / step {
                continue;
            }
            let value = next;
            next = ((s / step + eps).floor() + 1.0) * step;
            fb.draw_rect_fill(Rect::new(x, y, 1, AXIS_TICK_ROWS), c.text);
            let text = if step < 1.0 {
                SmallText::format(format_args!("{value:.1}s"))
            } else {
                SmallText::format(format_args!("{value:.0}s"))
            };
            if x >= label_end && x + text.width() <= l.right() {
                fb.print(x, y + AXIS_TICK_ROWS - FONT_TOP, text.as_str(), c.text);
                label_end = x + text.width() + OVER_GAP;
            }
        }
        fb.set_clip(saved);
    }

    /// Writes the value of each bar past the scale's top (`418ms`), longest first, right of
    /// the bar (or else left of it), below the lost-time labels or else level with them, where
    /// it covers no bar and no other label. Bars with no room keep only their break.
    fn draw_over(&mut self, fb: &mut Framebuffer, l: &TallLayout, c: &OverlayColors) {
        let clear_rows = NUMBER_ROWS + 1;
        if l.bars_height < 2 * clear_rows + 2 {
            return;
        }
        let Tall {
            columns,
            over_columns,
            over,
            lost,
            ..
        } = self;
        over_columns.clear();
        over_columns.extend((0..columns.len()).filter(|&i| columns[i].over));
        over_columns.sort_unstable_by(|&a, &b| {
            columns[b]
                .delta_ms
                .total_cmp(&columns[a].delta_ms)
                .then(a.cmp(&b))
        });
        for &i in over_columns.iter() {
            if over.len() == MAX_OVER_LABELS {
                break;
            }
            let text = SmallText::format(format_args!("{}", Short(columns[i].delta_ms)));
            let w = text.width();
            let x = l.data_x + i as i32;
            let (below, level) = (l.bars_top + clear_rows, l.bars_top);
            let spots = [
                (x + 2, below),
                (x - 1 - w, below),
                (x + 2, level),
                (x - 1 - w, level),
            ];
            // Where the label covers no bar; failing that, where it covers only the tops of
            // other bars past the scale, which say nothing there but their own break.
            let room = |&(x0, y): &(i32, i32), over_ok: bool| {
                if x0 < l.data_x || x0 + w > l.right() {
                    return false;
                }
                let r = Rect::new(x0, y, w, clear_rows);
                // Value labels keep a glyph's gap between them, so a run of stalls reads as
                // numbers rather than one long string.
                let spaced = Rect::new(x0 - OVER_GAP, y, w + 2 * OVER_GAP, clear_rows);
                if lost.iter().any(|o| o.intersects(r)) || over.iter().any(|o| o.intersects(spaced))
                {
                    return false;
                }
                // Rows from the label's top down to the bars' bottom that must stay clear.
                let need = l.bars_bottom() - y;
                (x0..x0 + w).all(|x| {
                    columns.get((x - l.data_x) as usize).is_none_or(|col| {
                        col.bar_rows <= need - clear_rows || (over_ok && col.over)
                    })
                })
            };
            let found = spots
                .iter()
                .find(|s| room(s, false))
                .or_else(|| spots.iter().find(|s| room(s, true)))
                .copied();
            if let Some((x0, y)) = found {
                let r = Rect::new(x0, y, w, NUMBER_ROWS);
                fb.draw_rect_fill(r, c.bar);
                let saved = fb.clip();
                fb.set_clip(r);
                fb.print(x0, y - FONT_TOP, text.as_str(), c.text);
                fb.set_clip(saved);
                over.push(r);
            }
        }
    }

    /// Lays the tag labels out in the lanes, oldest tag first: each label goes right of its line
    /// in the first lane that is free there; when none is, the lane whose last label keeps the
    /// most is shortened (with an ellipsis) to end before the line, or the new label is left out
    /// if that would leave the other no character. Labels are cut to the chart's right edge;
    /// empty labels are left out. A tag without a label still has its line.
    fn place_labels(&mut self, chart: &Chart, first: u64, l: &TallLayout) {
        if l.lanes == 0 {
            return;
        }
        let mut last_in_lane: [Option<usize>; 2] = [None; 2];
        let lanes = l.lanes.clamp(0, 2) as usize;
        for (k, (sample, label)) in chart.placed_tags().enumerate() {
            if sample < first || sample >= chart.total() {
                continue;
            }
            let line_x = l.data_x + (sample - first) as i32;
            let x0 = line_x + LABEL_INSET;
            let fit = ((l.right() - x0) / GLYPH_ADVANCE).max(0) as usize;
            let full = label.chars().count();
            let (chars, shortened) = if full == 0 {
                continue;
            } else if full <= fit {
                (full, false)
            } else if fit >= 2 {
                (fit - 1, true)
            } else {
                continue;
            };
            let free = (0..lanes)
                .find(|&lane| last_in_lane[lane].is_none_or(|j| self.labels[j].right() < line_x));
            let lane = match free {
                Some(lane) => lane,
                None => {
                    // Glyphs each lane's last label keeps if it must end before this line.
                    let keep = |j: usize| {
                        let label: &TagLabel = &self.labels[j];
                        ((line_x - 1 - label.rect.x) / GLYPH_ADVANCE).max(0) as usize
                    };
                    let Some((lane, j, glyphs)) = (0..lanes)
                        .filter_map(|lane| last_in_lane[lane].map(|j| (lane, j, keep(j))))
                        .filter(|&(_, _, glyphs)| glyphs >= 2)
                        .max_by_key(|&(_, _, glyphs)| glyphs)
                    else {
                        continue;
                    };
                    self.labels[j].resize(glyphs - 1, true);
                    lane
                }
            };
            let mut placed = TagLabel {
                line_x,
                rect: Rect::new(x0, l.lane_top(lane as i32), 0, TEXT_ROWS),
                tag: k,
                chars,
                shortened,
            };
            placed.resize(chars, shortened);
            // There are never more labels than tags, so this stays within the capacity.
            last_in_lane[lane] = Some(self.labels.len());
            self.labels.push(placed);
        }
    }

    fn draw_labels(&self, fb: &mut Framebuffer, chart: &Chart, c: &OverlayColors) {
        let saved = fb.clip();
        let mut labels = self.labels.iter().peekable();
        for (k, (_, text)) in chart.placed_tags().enumerate() {
            let Some(label) = labels.next_if(|lb| lb.tag == k) else {
                continue;
            };
            let r = label.rect;
            fb.draw_rect_fill(r, c.bar);
            fb.set_clip(r);
            let end = text
                .char_indices()
                .nth(label.chars)
                .map_or(text.len(), |(i, _)| i);
            fb.print(r.x, r.y - FONT_TOP, &text[..end], c.tag);
            if label.shortened {
                ellipsis(fb, r.x + label.chars as i32 * GLYPH_ADVANCE, r.y, c.tag);
            }
            fb.set_clip(saved);
        }
    }

    /// Writes `lost 384ms` once for each run of clamped frames, newest run first, at the top of
    /// the bars' panel right of the run (or else left of it), where it covers no bar and no
    /// other such label.
    fn draw_lost(&mut self, fb: &mut Framebuffer, l: &TallLayout, c: &OverlayColors) {
        // Rows the text needs clear: its own and one below.
        let clear_rows = NUMBER_ROWS + 1;
        if l.bars_height < clear_rows + 2 {
            return;
        }
        let columns = &self.columns;
        let mut i = columns.len();
        while i > 0 && self.lost.len() < self.lost.capacity() {
            i -= 1;
            if !columns[i].clamped {
                continue;
            }
            // The run of clamped frames ending at column `end`, and what the cap threw away
            // over it.
            let end = i;
            while i > 0 && columns[i - 1].clamped {
                i -= 1;
            }
            let start = i;
            let lost_ms: f64 = columns[start..=end].iter().map(|c| c.discarded_ms).sum();
            let text = SmallText::format(format_args!("lost {}", Short(lost_ms)));
            let w = text.width();
            let (x_start, x_end) = (l.data_x + start as i32, l.data_x + end as i32);
            let candidates = [x_end + 2, x_start - 1 - w];
            let room = |x0: i32, lost: &[Rect]| {
                if x0 < l.data_x || x0 + w > l.right() {
                    return false;
                }
                let r = Rect::new(x0, l.bars_top, w, clear_rows);
                if lost.iter().any(|o| o.intersects(r)) {
                    return false;
                }
                let low = |x: i32| {
                    let column = columns.get((x - l.data_x) as usize);
                    column.is_none_or(|c| c.bar_rows <= l.bars_height - clear_rows)
                };
                (x0..x0 + w).all(low)
            };
            if let Some(x0) = candidates.into_iter().find(|&x0| room(x0, &self.lost)) {
                let r = Rect::new(x0, l.bars_top, w, NUMBER_ROWS);
                fb.draw_rect_fill(r, c.bar);
                let saved = fb.clip();
                fb.set_clip(r);
                fb.print(x0, l.bars_top - FONT_TOP, text.as_str(), c.clamp);
                fb.set_clip(saved);
                self.lost.push(r);
            }
        }
    }
}

/// The bar colour of a frame: the text colour, or the warning and error colours the band's
/// dots take for the same grade.
fn delta_ink(severity: Severity, c: &OverlayColors) -> u8 {
    match severity {
        Severity::Normal => c.text,
        Severity::Warning => c.warning,
        Severity::Error => c.error,
    }
}

/// The count strip's colour for a frame that ran `updates` updates: none stands apart in the
/// zero-update colour; one is an ordinary update; two and three or more take the warning and
/// error colours, as such frames were on screen two budgets or more.
fn count_ink(updates: u32, c: &OverlayColors) -> u8 {
    match updates {
        0 => c.zero_update,
        1 => c.update_dot,
        2 => c.warning,
        _ => c.error,
    }
}

/// The first of [`NICE_STEPS`] times a power of ten at or above `ms` (a positive number).
pub(crate) fn nice_ceil(ms: f64) -> f64 {
    if !ms.is_finite() || ms <= 0.0 {
        return ms;
    }
    let power = 10_f64.powi(ms.log10().floor() as i32);
    NICE_STEPS
        .into_iter()
        .map(|step| step * power)
        .find(|&v| v >= ms * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The top of the deltas' scale: the longest delta on screen, kept between
/// [`DELTA_SCALE_MIN_BUDGETS`] and [`DELTA_SCALE_MAX_BUDGETS`] budgets, rounded up to a nice value.
pub(crate) fn delta_scale(longest_ms: f64, budget_ms: f64) -> f64 {
    let (lo, hi) = if budget_ms.is_finite() && budget_ms > 0.0 {
        (
            DELTA_SCALE_MIN_BUDGETS * budget_ms,
            DELTA_SCALE_MAX_BUDGETS * budget_ms,
        )
    } else {
        DELTA_SCALE_UNBUDGETED_MS
    };
    let longest = if longest_ms.is_nan() { lo } else { longest_ms };
    nice_ceil(longest.clamp(lo, hi))
}

/// The top of the costs' scale: the costliest frame on screen within [`COST_SCALE_MS`], rounded
/// up to a nice value.
pub(crate) fn cost_scale(costliest_ms: f64) -> f64 {
    let (lo, hi) = COST_SCALE_MS;
    let costliest = if costliest_ms.is_nan() {
        lo
    } else {
        costliest_ms
    };
    nice_ceil(costliest.clamp(lo, hi))
}

/// The rows a bar for `ms` takes in a panel `height` rows tall whose top is `scale_ms`: none for
/// no time, at least one for any time, all of them at the scale's top or past it.
pub(crate) fn rows_for(ms: f64, scale_ms: f64, height: i32) -> i32 {
    if ms.is_nan() || ms <= 0.0 || height <= 0 || scale_ms <= 0.0 {
        return 0;
    }
    let rows = (ms / scale_ms * f64::from(height)).min(f64::from(height));
    // Rounded to nearest by adding a half and truncating: the value is positive, and this
    // costs one instruction where `f64::round` may be a library call, once per column.
    ((rows + 0.5) as i32).clamp(1, height)
}

/// Fills bars standing on row `bottom` (exclusive), one per column from `x0`, each given as
/// its rows and colour, with as few fills as it can: neighbouring bars of one colour share the
/// rows they have in common, so a steady run of frames costs a rectangle, not a column each.
///
/// `levels` is scratch space (the open levels, lowest first, as start column and rows), kept
/// between calls so this allocates nothing once it has held as many levels as a chart has rows.
fn fill_histogram(
    fb: &mut Framebuffer,
    levels: &mut Vec<(i32, i32)>,
    x0: i32,
    bottom: i32,
    bars: impl Iterator<Item = (i32, u8)>,
) {
    levels.clear();
    let mut ink = 0;
    let mut x = x0;
    // Closes the levels above `rows` at column `x` (exclusive), filling what each covered;
    // returns the column the lowest closed level started at.
    let close = |fb: &mut Framebuffer, levels: &mut Vec<(i32, i32)>, x: i32, rows: i32, ink| {
        let mut start = x;
        while let Some(&(from, level)) = levels.last() {
            if level <= rows {
                break;
            }
            levels.pop();
            let below = levels.last().map_or(0, |&(_, l)| l).max(rows);
            fill_block(fb, from, x - from, bottom - level, level - below, ink);
            start = from;
        }
        start
    };
    for (rows, bar_ink) in bars {
        if bar_ink != ink {
            close(fb, levels, x, 0, ink);
            ink = bar_ink;
        }
        let rows = rows.max(0);
        let start = close(fb, levels, x, rows, ink);
        if rows > levels.last().map_or(0, |&(_, l)| l) {
            levels.push((start, rows));
        }
        x += 1;
    }
    close(fb, levels, x, 0, ink);
}

/// Fills `width` columns from `x`, `rows` rows from `top`. A single column is drawn pixel by
/// pixel, which is about twice as quick as a rectangle one pixel wide (filled row by row).
fn fill_block(fb: &mut Framebuffer, x: i32, width: i32, top: i32, rows: i32, ink: u8) {
    if width <= 0 || rows <= 0 {
        return;
    }
    if width == 1 {
        for y in top..top + rows {
            fb.draw_pixel(x, y, ink);
        }
    } else {
        fb.draw_rect_fill(Rect::new(x, top, width, rows), ink);
    }
}

/// The update and render segments of a cost column, stacked: each at least a row when it took
/// any time (while the panel has room), together no taller than the panel.
pub(crate) fn stacked_rows(
    update_ms: f64,
    render_ms: f64,
    scale_ms: f64,
    height: i32,
) -> (i32, i32) {
    let update = rows_for(update_ms, scale_ms, height);
    let both = rows_for(update_ms.max(0.0) + render_ms.max(0.0), scale_ms, height);
    let mut render = (both - update).max(0);
    if render == 0 && render_ms > 0.0 && update < height {
        render = 1;
    }
    (update, render)
}

/// The row of a horizontal line at `ms` in a panel at `top`, `height` rows tall, when it falls
/// inside the panel below its top row.
pub(crate) fn line_row(ms: f64, scale_ms: f64, top: i32, height: i32) -> Option<i32> {
    if !ms.is_finite() || ms <= 0.0 || ms >= scale_ms {
        return None;
    }
    let y = top + height - rows_for(ms, scale_ms, height);
    (y > top && y < top + height).then_some(y)
}

/// Writes `ms` right-aligned in the gutter with its ink rows from `y`, kept inside the panel
/// rows `panel_top..panel_bottom`; left out when the panel is too short for a line of digits.
fn gutter_value(
    fb: &mut Framebuffer,
    l: &TallLayout,
    y: i32,
    panel_top: i32,
    panel_bottom: i32,
    ms: f64,
    ink: u8,
) {
    if panel_bottom - panel_top < NUMBER_ROWS {
        return;
    }
    let text = SmallText::format(format_args!("{}", Short(ms)));
    let x = l.data_x - 2 - text.width();
    let saved = fb.clip();
    fb.set_clip(Rect::new(0, y, l.data_x - 1, NUMBER_ROWS));
    fb.print(x, y - FONT_TOP, text.as_str(), ink);
    fb.set_clip(saved);
}

/// Three dots on the baseline of a glyph cell at `x`, the lane's ink rows starting at `y`.
fn ellipsis(fb: &mut Framebuffer, x: i32, y: i32, ink: u8) {
    text::ellipsis(fb, x, y - FONT_TOP, ink);
}

/// Which colour a legend word takes.
#[derive(Debug, Clone, Copy)]
enum Key {
    Text,
    Delta(Severity),
    Update,
    Render,
    Count(u32),
    Clamp,
    Miss,
    Generated,
    Rollback,
}

/// Which marks beyond the usual a chart shows (a capture's own, a netplay run's rollbacks),
/// for its legend.
#[derive(Debug, Clone, Copy, Default)]
struct Marks {
    /// A generated frame's bar.
    generated: bool,
    /// A change of present mode.
    mode: bool,
    /// The rollback strip (a netplay run's).
    rollback: bool,
}

/// The legend, word by word; the short one when the long does not fit.
const LEGEND: &[(&str, Key)] = &[
    ("delta", Key::Delta(Severity::Normal)),
    ("/", Key::Text),
    ("warn", Key::Delta(Severity::Warning)),
    ("/", Key::Text),
    ("err", Key::Delta(Severity::Error)),
    ("  ", Key::Text),
    ("upd", Key::Update),
    ("  ", Key::Text),
    ("rnd", Key::Render),
    ("  ", Key::Text),
    ("0", Key::Count(0)),
    ("/", Key::Text),
    ("1", Key::Count(1)),
    ("/", Key::Text),
    ("2", Key::Count(2)),
    ("/", Key::Text),
    ("3+", Key::Count(3)),
    (" updates  ", Key::Text),
    ("cap", Key::Clamp),
    ("  ", Key::Text),
    ("miss", Key::Miss),
];
const LEGEND_SHORT: &[(&str, Key)] = &[
    ("delta", Key::Delta(Severity::Normal)),
    (" ", Key::Text),
    ("upd", Key::Update),
    (" ", Key::Text),
    ("rnd", Key::Render),
    (" ", Key::Text),
    ("0", Key::Count(0)),
    ("/", Key::Text),
    ("1", Key::Count(1)),
    ("/", Key::Text),
    ("2", Key::Count(2)),
    ("/", Key::Text),
    ("3+", Key::Count(3)),
    (" ", Key::Text),
    ("miss", Key::Miss),
];

fn legend_width(words: &[(&str, Key)]) -> i32 {
    words.iter().map(|(w, _)| plain_width(w)).sum()
}

/// Draws the legend with its ink rows from `y`, each word in the colour it names, and
/// `caption` right-aligned after it when there is room (the short legend makes room; a caption
/// that still does not fit is left out).
fn legend(
    fb: &mut Framebuffer,
    y: i32,
    width: i32,
    look: &Look<'_>,
    marks: Marks,
    c: &OverlayColors,
) {
    let room = width - 2 * EDGE_MARGIN;
    // The caption as given, else what comes before its first comma (the seconds, which the
    // time axis also gives), else none; the long legend before the short one.
    let full = look.caption;
    let short = full.split_once(", ").map_or(full, |(short, _)| short);
    let caption_w = |caption: &str| {
        if caption.is_empty() {
            0
        } else {
            plain_width(caption) + 2 * GLYPH_ADVANCE
        }
    };
    let choices = [
        (LEGEND, full),
        (LEGEND, short),
        (LEGEND_SHORT, full),
        (LEGEND_SHORT, short),
        (LEGEND, ""),
        (LEGEND_SHORT, ""),
    ];
    // The capture's own marks, named after the legend when the chart shows them.
    let extra = [
        (if marks.generated { "  gen" } else { "" }, Key::Generated),
        (if marks.mode { "  mode" } else { "" }, Key::Clamp),
        (
            if marks.rollback { "  rollback" } else { "" },
            Key::Rollback,
        ),
    ];
    let extra_w = legend_width(&extra);
    let Some((words, caption)) = choices
        .into_iter()
        .find(|(words, caption)| legend_width(words) + extra_w + caption_w(caption) <= room)
    else {
        return;
    };
    let show_caption = !caption.is_empty();
    let saved = fb.clip();
    fb.set_clip(Rect::new(0, y, width, TEXT_ROWS));
    let mut x = EDGE_MARGIN;
    for &(word, key) in words.iter().chain(&extra) {
        // A chart of display times names its bars for what they are.
        let word = match (key, look.bars) {
            (Key::Delta(Severity::Normal), ChartBars::Display) => "shown",
            _ => word,
        };
        let ink = match key {
            Key::Text => c.text,
            Key::Delta(severity) => delta_ink(severity, c),
            Key::Update => c.update_dot,
            Key::Render => c.render_dot,
            Key::Count(n) => count_ink(n, c),
            Key::Clamp => c.clamp,
            Key::Miss => c.warning,
            Key::Generated => c.zero_update,
            Key::Rollback => c.tag,
        };
        fb.print(x, y - FONT_TOP, word, ink);
        x += plain_width(word);
    }
    if show_caption {
        let x = width - EDGE_MARGIN - plain_width(caption);
        fb.print(x, y - FONT_TOP, caption, c.text);
    }
    fb.set_clip(saved);
}

#[cfg(test)]
mod tests;
