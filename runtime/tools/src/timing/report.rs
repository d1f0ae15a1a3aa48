//! The diagnosis report: one self-contained HTML file with the run's summary and its plots,
//! drawn with `plotters` as inline SVG, so it opens in any browser with no network.
//!
//! The plots, top to bottom, sharing the time axis (seconds on the clock's timeline):
//!
//! - frame time as steps (each frame a level as long as it lasted) on a logarithmic axis, so a
//!   400 ms stall and a 30/60 oscillation in the 0-50 ms band are both readable, against the
//!   update budget and twice it, with clamped frames marked;
//! - the missed display refreshes as a strip of bars;
//! - the game time each frame showed advancing (`(updates + change of render_alpha) × budget`)
//!   beside the frame's delta: where they part, the picture judders;
//! - the updates each frame ran;
//! - what the updates and the render cost, measured on the machine that ran the cart (marked
//!   so when the frame times come from a capture);
//! - for a capture with display timing, the presented and displayed intervals and the animation
//!   error of each displayed frame (see [`crate::timing::pacing::animation_error`]);
//! - then side by side the frame-time percentile curve, a histogram of frame times and the
//!   frames per second over the run.
//!
//! The cart's tags are labelled vertical lines on the time plots. A long run is drawn with the
//! longest frame of each pixel's worth, so no stall is lost.

use std::fmt::Write as _;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::timing::pacing::{histogram, percentile_curve, tenth_percent_caveat};
use crate::timing::timeline::{FrameRecord, FrameSource, Summary, Timeline};

/// Pixels of the plot picture ...
const PLOT_SIZE: (u32, u32) = (1200, 1700);
/// ... and the rows added for the display-timing panel when the frames have display times.
const DISPLAY_PANEL_ROWS: u32 = 260;

/// Frames drawn one by one at most; a longer run is drawn a bucket of frames per point, each
/// bucket its longest frame.
const MAX_DRAWN_FRAMES: usize = 2400;

/// The histogram's range: 1 ms bins up to this, the last taking everything longer.
const HISTOGRAM_MS: usize = 100;

const FONT: &str = "sans-serif";

/// The report of `timeline` for the run named `title`, as HTML text.
///
/// # Errors
/// A message when the plots cannot be drawn (an empty timeline draws empty axes).
pub fn html(timeline: &Timeline, title: &str) -> Result<String, String> {
    html_with_sensors(timeline, title, &[])
}

/// [`html`], with the capture's sensor readings plotted under the frame times, each kind in
/// its unit (see [`crate::timing::sensors`]).
///
/// # Errors
/// A message when the plots cannot be drawn.
pub fn html_with_sensors(
    timeline: &Timeline,
    title: &str,
    sensors: &[crate::clock::capture::Sensor],
) -> Result<String, String> {
    let budget_ms = timeline.budget_ms();
    let summary = timeline.summary();
    let svg = plots(timeline, &summary, budget_ms)
        .map_err(|e| format!("drawing the report's plots: {e}"))?;
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t} timing report</title>\n<style>body{{font-family:sans-serif;margin:2em;\
         max-width:1240px}}table{{border-collapse:collapse}}td,th{{padding:2px 10px;\
         text-align:right;border-bottom:1px solid #ddd}}th{{text-align:left}}</style></head>\
         <body>\n<h1>{t}: timing report</h1>\n",
        t = escape(title)
    );
    page.push_str(&summary_table(timeline, &summary, budget_ms));
    page.push_str(&svg);
    page.push_str(&crate::timing::sensors::html(sensors, timeline)?);
    page.push_str(
        "\n<p>Frame time is each frame's delta from the clock (or the capture). Budget: one \
         update's time; orange crosses: frames the 8-update cap clamped (the time past it is \
         thrown away); red bars: display refreshes a frame missed, counted as \
         round(delta / refresh period) - 1 once the delta passes 1.5 periods; purple lines: \
         the cart's tags. BT's 1% low is given two ways: 1000 / the mean of the slowest 1% of \
         frame times, and 1000 / the frame time at the 1% rank, slowest first. CapFrameX's \
         own figures follow under its names: P1, the 1st percentile of the per-frame rates \
         (Hyndman and Fan's type 8); the 1% low average, 1000 / the mean of the frame times \
         at or past their 99th percentile; and the 1% low integral, 1000 / the frame at which \
         the slowest frames cover 1% of the run's time.</p>\n</body></html>\n",
    );
    Ok(page)
}

/// The figures `bt diagnose --compare` sets side by side, as (name, first run, second run,
/// whether more is better, when either is): each summary figure the two runs share.
pub fn comparison_rows(a: &Summary, b: &Summary) -> Vec<(&'static str, f64, f64, Option<bool>)> {
    let (more, less) = (Some(true), Some(false));
    let mut rows = vec![
        ("frames", a.frames as f64, b.frames as f64, None),
        ("frames a second", a.fps, b.fps, more),
        ("frame time p50 (ms)", a.p50_ms, b.p50_ms, less),
        ("frame time p95 (ms)", a.p95_ms, b.p95_ms, less),
        ("frame time p99 (ms)", a.p99_ms, b.p99_ms, less),
        ("frame time max (ms)", a.max_ms, b.max_ms, less),
        (
            "1% low, mean of slowest 1% (fps)",
            a.low_1.average_fps,
            b.low_1.average_fps,
            more,
        ),
        (
            "1% low, frame at 1% rank (fps)",
            a.low_1.percentile_fps,
            b.low_1.percentile_fps,
            more,
        ),
        (
            "0.1% low, mean of slowest 0.1% (fps)",
            a.low_01.average_fps,
            b.low_01.average_fps,
            more,
        ),
        (
            "CapFrameX P1 (fps)",
            a.capframex.p1_fps,
            b.capframex.p1_fps,
            more,
        ),
        (
            "CapFrameX 1% low average (fps)",
            a.capframex.low_1_average_fps,
            b.capframex.low_1_average_fps,
            more,
        ),
        (
            "CapFrameX 1% low integral (fps)",
            a.capframex.low_1_integral_fps,
            b.capframex.low_1_integral_fps,
            more,
        ),
        (
            "CapFrameX stuttering time (%)",
            a.capframex_stuttering_percent,
            b.capframex_stuttering_percent,
            less,
        ),
        (
            "stutters over 33.3 ms",
            a.stutters.over_ms[0] as f64,
            b.stutters.over_ms[0] as f64,
            less,
        ),
        (
            "time below 60 fps (%)",
            a.time_below[0].1,
            b.time_below[0].1,
            less,
        ),
        (
            "time below 30 fps (%)",
            a.time_below[1].1,
            b.time_below[1].1,
            less,
        ),
        (
            "frame-to-frame change under 2 ms (%)",
            a.changes[0],
            b.changes[0],
            more,
        ),
        ("clamped frames", a.clamped as f64, b.clamped as f64, less),
    ];
    if let (Some(x), Some(y)) = (a.missed_refreshes, b.missed_refreshes) {
        rows.push(("missed refreshes", x as f64, y as f64, less));
    }
    if let (Some(x), Some(y)) = (a.displayed, b.displayed) {
        rows.push(("displayed frames a second", x.fps, y.fps, more));
    }
    rows
}

/// The comparison as text for a terminal: each figure of both runs, and how the second
/// differs from the first.
pub fn comparison_text((a, a_name): (&Summary, &str), (b, b_name): (&Summary, &str)) -> String {
    let mut s = format!("compared: A = {a_name}\n          B = {b_name}\n");
    let _ = writeln!(
        s,
        "{:<38} {:>10} {:>10} {:>10} {:>8}",
        "", "A", "B", "B - A", ""
    );
    for (name, x, y, more_is_better) in comparison_rows(a, b) {
        let _ = writeln!(
            s,
            "{name:<38} {x:>10.1} {y:>10.1} {:>+10.1} {:>8}",
            difference(x, y),
            verdict(x, y, more_is_better)
        );
    }
    for line in tenth_percent_notes(a, b) {
        let _ = writeln!(s, "{line}");
    }
    s
}

/// A line for each run whose 0.1% figures rest on too few frames (see
/// [`tenth_percent_caveat`]).
fn tenth_percent_notes(a: &Summary, b: &Summary) -> Vec<String> {
    [("A", a), ("B", b)]
        .into_iter()
        .filter_map(|(letter, s)| {
            tenth_percent_caveat(s.frames).map(|c| format!("{letter}'s 0.1% figures: {c}"))
        })
        .collect()
}

/// `b - a`, with a difference that rounds to nothing written as 0 rather than -0.0.
fn difference(a: f64, b: f64) -> f64 {
    let d = b - a;
    if d.abs() < 0.05 {
        0.0
    } else {
        d
    }
}

/// `better`, `worse` or nothing, for a change from `a` to `b` of more than half a percent in
/// a figure where more (or less) is better.
fn verdict(a: f64, b: f64, more_is_better: Option<bool>) -> &'static str {
    let scale = a.abs().max(b.abs());
    let Some(more_is_better) = more_is_better else {
        return "";
    };
    if scale == 0.0 || (b - a).abs() <= 0.005 * scale {
        return "";
    }
    if (b > a) == more_is_better {
        "better"
    } else {
        "worse"
    }
}

/// The colours of runs A to H on the comparison charts (and of the sensors' lines, in turn): A
/// blue, B orange as before, then the palette's green, pink, yellow, lavender, red and brown.
pub(crate) const RUN_COLOURS: [RGBColor; crate::timing::runs::MAX_RUNS] = [
    RGBColor(41, 173, 255),
    RGBColor(255, 108, 36),
    RGBColor(0, 228, 54),
    RGBColor(255, 119, 168),
    RGBColor(230, 200, 0),
    RGBColor(131, 118, 156),
    RGBColor(255, 0, 77),
    RGBColor(171, 82, 54),
];

/// The names of the colours in [`RUN_COLOURS`], for the report's key.
const RUN_COLOUR_NAMES: [&str; crate::timing::runs::MAX_RUNS] = [
    "blue", "orange", "green", "pink", "yellow", "lavender", "red", "brown",
];

/// The figures every run shares, as (name, each run's value, whether more is better): the
/// rows [`comparison_rows`] gives the first run beside each other, kept where all have them.
pub fn several_rows(runs: &[&Summary]) -> Vec<(&'static str, Vec<f64>, Option<bool>)> {
    let Some((first, rest)) = runs.split_first() else {
        return Vec::new();
    };
    let base = comparison_rows(first, first);
    let others: Vec<_> = rest.iter().map(|r| comparison_rows(first, r)).collect();
    base.into_iter()
        .filter_map(|(name, x, _, more)| {
            let mut values = vec![x];
            for rows in &others {
                values.push(rows.iter().find(|r| r.0 == name)?.2);
            }
            Some((name, values, more))
        })
        .collect()
}

/// More than two runs' figures as text for a terminal: a column a run, A first.
pub fn several_text(runs: &[(&Summary, &str)]) -> String {
    let mut s = String::new();
    for (i, (_, name)) in runs.iter().enumerate() {
        let head = if i == 0 { "compared:" } else { "" };
        let _ = writeln!(s, "{head:<9} {} = {name}", crate::timing::runs::letter(i));
    }
    let _ = write!(s, "{:<38}", "");
    for i in 0..runs.len() {
        let _ = write!(s, " {:>10}", crate::timing::runs::letter(i));
    }
    s.push('\n');
    let summaries: Vec<&Summary> = runs.iter().map(|r| r.0).collect();
    for (name, values, _) in several_rows(&summaries) {
        let _ = write!(s, "{name:<38}");
        for v in values {
            let _ = write!(s, " {v:>10.1}");
        }
        s.push('\n');
    }
    for line in tenth_percent_notes_of(&summaries) {
        let _ = writeln!(s, "{line}");
    }
    s
}

/// A line for each of `runs` whose 0.1% figures rest on too few frames, by its letter.
fn tenth_percent_notes_of(runs: &[&Summary]) -> Vec<String> {
    runs.iter()
        .enumerate()
        .filter_map(|(i, s)| {
            tenth_percent_caveat(s.frames)
                .map(|c| format!("{}'s 0.1% figures: {c}", crate::timing::runs::letter(i)))
        })
        .collect()
}

/// The report of `bt diagnose --compare`: both runs' figures side by side with the differences,
/// then both runs' frame times (as steps, on one log axis and one time axis from 0) and their
/// percentile curves on one chart, as CapFrameX's comparison view.
///
/// # Errors
/// When the plots cannot be drawn.
pub fn compare_html(a: (&Timeline, &str), b: (&Timeline, &str)) -> Result<String, String> {
    several_html(&[a, b], None)
}

/// The report of `bt diagnose` with one `--compare` or more: the runs' figures side by side
/// (with two runs, B's differences from A and whether each got better or worse), the
/// aggregate's section (`aggregate`, HTML) when given, then every run's frame times (as steps,
/// on one log axis and one time axis from 0) and one chart with each run's percentile curve,
/// as CapFrameX's comparison view. At most [`crate::timing::runs::MAX_RUNS`] runs are drawn.
///
/// # Errors
/// When the plots cannot be drawn.
pub fn several_html(runs: &[(&Timeline, &str)], aggregate: Option<&str>) -> Result<String, String> {
    let runs = &runs[..runs.len().min(crate::timing::runs::MAX_RUNS)];
    let summaries: Vec<Summary> = runs.iter().map(|r| r.0.summary()).collect();
    let timelines: Vec<&Timeline> = runs.iter().map(|r| r.0).collect();
    let svg = compare_plots(&timelines).map_err(|e| format!("drawing the report's plots: {e}"))?;
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>timing comparison</title>\n<style>body{{font-family:sans-serif;margin:2em;\
         max-width:1240px}}table{{border-collapse:collapse}}td,th{{padding:2px 10px;\
         text-align:right;border-bottom:1px solid #ddd}}th{{text-align:left}}\
         .better{{color:#008751}}.worse{{color:#ff004d}}</style></head>\
         <body>\n<h1>Timing comparison</h1>\n<p>"
    );
    for (i, (_, name)) in runs.iter().enumerate() {
        let br = if i + 1 < runs.len() { "<br>" } else { "" };
        let _ = write!(
            page,
            "<b>{}</b>: {}{br}",
            crate::timing::runs::letter(i),
            escape(name)
        );
    }
    page.push_str("</p>\n<table>\n<tr><th></th>");
    for i in 0..runs.len() {
        let _ = write!(page, "<th>{}</th>", crate::timing::runs::letter(i));
    }
    let two = runs.len() == 2;
    if two {
        page.push_str("<th>B - A</th><th></th>");
    }
    page.push_str("</tr>\n");
    let refs: Vec<&Summary> = summaries.iter().collect();
    for (name, values, more_is_better) in several_rows(&refs) {
        let _ = write!(page, "<tr><th>{}</th>", escape(name));
        for v in &values {
            let _ = write!(page, "<td>{v:.1}</td>");
        }
        if let (true, [x, y]) = (two, values.as_slice()) {
            let word = verdict(*x, *y, more_is_better);
            let _ = write!(
                page,
                "<td>{:+.1}</td><td class=\"{word}\">{word}</td>",
                difference(*x, *y)
            );
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
    for line in tenth_percent_notes_of(&refs) {
        let _ = writeln!(page, "<p>{}</p>", escape(&line));
    }
    if let Some(aggregate) = aggregate {
        page.push_str(aggregate);
    }
    page.push_str(&svg);
    let key: Vec<String> = (0..runs.len())
        .map(|i| {
            format!(
                "{} in {}",
                crate::timing::runs::letter(i),
                RUN_COLOUR_NAMES[i]
            )
        })
        .collect();
    let _ = write!(
        page,
        "\n<p>{}. Frame times are each frame's delta from its clock, drawn as steps as long as \
         the frame lasted, every run from 0 s. The percentile curve gives the frame time at \
         each percentile of each run's frames.</p>\n</body></html>\n",
        key.join(", ")
    );
    Ok(page)
}

fn compare_plots(timelines: &[&Timeline]) -> Result<String, Boxed> {
    let runs: Vec<(std::borrow::Cow<'_, [FrameRecord]>, RGBColor, String)> = timelines
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                t.frames_in_one(),
                RUN_COLOURS[i % RUN_COLOURS.len()],
                crate::timing::runs::letter(i).to_string(),
            )
        })
        .collect();
    let deltas =
        |frames: &[FrameRecord]| -> Vec<f64> { frames.iter().map(|f| f.delta_ms).collect() };
    let all: Vec<f64> = runs.iter().flat_map(|r| deltas(&r.0)).collect();
    let longest = all.iter().copied().fold(0.0, f64::max).max(1.0);
    let shortest = all
        .iter()
        .copied()
        .filter(|&d| d > 0.0)
        .fold(f64::INFINITY, f64::min)
        .min(longest)
        .max(0.01);
    let (y_bottom, y_top) = (shortest * 0.7, longest * 1.3);
    let span_s = runs
        .iter()
        .filter_map(|r| r.0.last().map(|f| (f.start_ms + f.delta_ms) / 1000.0))
        .fold(1e-3, f64::max);
    let time_title = if runs.len() == 2 {
        "Frame time, log scale: A and B from 0 s"
    } else {
        "Frame time, log scale: each run from 0 s"
    };
    let curve_title = if runs.len() == 2 {
        "Frame time by percentile"
    } else {
        "Frame time by percentile, each run"
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_SIZE.0, 760)).into_drawing_area();
        root.fill(&WHITE)?;
        let (time_area, curve_area) = root.split_vertically(400);
        let mut chart = log_ms_chart(
            &time_area,
            (time_title, 18),
            (0.0..span_s, "time (s)"),
            (y_bottom, y_top),
        )?;
        for (frames, color, name) in &runs {
            let steps: Vec<Step> = frames
                .iter()
                .map(|f| frame_step(f, f.delta_ms.max(y_bottom)))
                .collect();
            let color = *color;
            chart
                .draw_series(LineSeries::new(
                    step_line(thin_steps(&steps)),
                    color.stroke_width(1),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        legend(&mut chart)?;
        let mut chart = log_ms_chart(
            &curve_area,
            (curve_title, 18),
            (0.0..100.0, "percentile"),
            (y_bottom, y_top),
        )?;
        for (frames, color, name) in &runs {
            let curve = percentile_curve(&deltas(frames));
            let color = *color;
            chart
                .draw_series(LineSeries::new(
                    curve.iter().map(|&(p, ms)| (p, ms.max(y_bottom))),
                    color.stroke_width(2),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        legend(&mut chart)?;
        root.present()?;
    }
    Ok(svg)
}

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn summary_table(timeline: &Timeline, s: &Summary, budget_ms: f64) -> String {
    let mut t = String::from("<table>\n");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(t, "<tr><th>{k}</th><td>{}</td></tr>", escape(&v));
    };
    if let FrameSource::Capture { name, .. } = timeline.source() {
        row("frame times from", name.clone());
    }
    row(
        "frames",
        format!("{} over {:.2} s", s.frames, s.span_ms / 1000.0),
    );
    row("frames a second", format!("{:.1}", s.fps));
    if let Some(d) = &s.displayed {
        row(
            "displayed frames",
            format!(
                "{} over {:.2} s: {:.1} a second",
                d.shown,
                d.span_ms / 1000.0,
                d.fps
            ),
        );
        row(
            "display interval p50 / p95 / p99 / max",
            format!(
                "{:.1} / {:.1} / {:.1} / {:.1} ms",
                d.p50_ms, d.p95_ms, d.p99_ms, d.max_ms
            ),
        );
    }
    row("update budget", format!("{budget_ms:.2} ms"));
    row(
        "frame time p50 / p95 / p99 / max",
        format!(
            "{:.1} / {:.1} / {:.1} / {:.1} ms",
            s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms
        ),
    );
    row(
        "1% low: mean of slowest 1% / frame at 1% rank",
        format!(
            "{:.1} / {:.1} fps",
            s.low_1.average_fps, s.low_1.percentile_fps
        ),
    );
    let tenth = tenth_percent_caveat(s.frames).map_or(String::new(), |c| format!(" ({c})"));
    row(
        "0.1% low: mean of slowest 0.1% / frame at 0.1% rank",
        format!(
            "{:.1} / {:.1} fps{tenth}",
            s.low_01.average_fps, s.low_01.percentile_fps
        ),
    );
    let c = &s.capframex;
    row(
        "CapFrameX's own: P1 / 1% low average / 1% low integral",
        format!(
            "{:.2} / {:.2} / {:.2} fps",
            c.p1_fps, c.low_1_average_fps, c.low_1_integral_fps
        ),
    );
    row(
        "CapFrameX's own: P0.1 / 0.1% low average / 0.1% low integral",
        format!(
            "{:.2} / {:.2} / {:.2} fps{tenth}",
            c.p0_1_fps, c.low_0_1_average_fps, c.low_0_1_integral_fps
        ),
    );
    row(
        "CapFrameX's own: stuttering time (frames over 2.5 x its moving average)",
        format!("{:.2} % of the run", s.capframex_stuttering_percent),
    );
    row(
        "stutters: over 2x median / 33.3 / 50 / 100 ms",
        format!(
            "{} / {} / {} / {}",
            s.stutters.over_twice_median,
            s.stutters.over_ms[0],
            s.stutters.over_ms[1],
            s.stutters.over_ms[2]
        ),
    );
    row(
        "time below 60 / 30 fps",
        format!("{:.1} / {:.1} %", s.time_below[0].1, s.time_below[1].1),
    );
    if let Some((hz, percent)) = s.time_below_refresh {
        row(
            &format!("time below the {hz:.1} Hz refresh"),
            format!("{percent:.1} %"),
        );
    }
    let [a, b, c, d, e] = s.changes;
    row(
        "frame-to-frame change: under 2 / 2-4 / 4-8 / 8-12 / 12+ ms",
        format!("{a:.1} / {b:.1} / {c:.1} / {d:.1} / {e:.1} %"),
    );
    row("missed refreshes", s.missed_text());
    if let Some(text) = s.display_missed_text() {
        row("missed refreshes on display", text);
    }
    for text in s
        .latency_text()
        .into_iter()
        .chain(s.captured.lines(s.displayed.as_ref()))
    {
        let (name, rest) = text.split_once("  ").unwrap_or(("latency", &text));
        row(name, rest.to_string());
    }
    if let Some(text) = s.vrr_text() {
        row("variable refresh", text);
    }
    if let Some(n) = s.not_displayed {
        row(
            "presents never displayed (the capture's Dropped or NA display times)",
            n.to_string(),
        );
    }
    if let Some(b) = &s.busy {
        for (name, ms) in [("CPU busy", b.cpu_ms), ("GPU busy", b.gpu_ms)] {
            if let Some([p50, p95, p99]) = ms {
                row(
                    &format!("{name} p50 / p95 / p99"),
                    format!("{p50:.1} / {p95:.1} / {p99:.1} ms"),
                );
            }
        }
        row(
            "bound by (busy for 80 % of the frame time or more)",
            match b.cpu_bound {
                Some(cpu) => format!(
                    "GPU {:.1} %, CPU {cpu:.1} %, neither {:.1} %",
                    b.gpu_bound,
                    (100.0 - b.gpu_bound - cpu).max(0.0)
                ),
                None => format!("GPU {:.1} % (no CPU busy times)", b.gpu_bound),
            },
        );
    }
    if let Some((mean, max)) = s.animation_error {
        row(
            "animation error (mean / largest)",
            format!("{mean:.2} / {max:.1} ms"),
        );
    }
    row("frames by updates run", s.update_counts().join(", "));
    row(
        "clamped frames",
        format!("{} ({:.1} ms thrown away)", s.clamped, s.discarded_ms),
    );
    for (i, (frame, ms, tick, tag)) in s.worst.iter().enumerate() {
        let tag = tag
            .as_ref()
            .map(|t| format!(", after tag \"{t}\""))
            .unwrap_or_default();
        row(
            if i == 0 { "longest frames" } else { "" },
            format!("frame {frame}: {ms:.1} ms at tick {tick}{tag}"),
        );
    }
    t.push_str("</table>\n");
    t
}

type Plot<'a> = ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

type Boxed = Box<dyn std::error::Error>;

/// Vertical tag lines with their labels near the top of a chart whose values run from `bottom`
/// to `top`.
fn draw_tags<Y>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, Y>>,
    timeline: &Timeline,
    (bottom, top): (f64, f64),
    label_at: impl Fn(usize) -> f64,
) -> Result<(), Boxed>
where
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let tag_color = RGBColor(126, 37, 83);
    for (i, tag) in timeline.tags().enumerate() {
        let x = tag.at_ms / 1000.0;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, bottom), (x, top)],
            tag_color.stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            crate::quote::excerpt(&tag.label),
            (x, label_at(i)),
            (FONT, 12).into_font().color(&tag_color),
        )))?;
    }
    Ok(())
}

/// The frames to draw: every one, or for a long run the longest of each bucket (with the
/// bucket's missed refreshes added up, and clamped when any of it was).
fn drawn_frames(frames: &[FrameRecord]) -> Vec<(FrameRecord, f64)> {
    let per = frames.len().div_ceil(MAX_DRAWN_FRAMES).max(1);
    frames
        .chunks(per)
        .map(|bucket| {
            let worst = *bucket
                .iter()
                .max_by(|a, b| a.delta_ms.total_cmp(&b.delta_ms))
                .expect("chunks are never empty");
            let mut r = worst;
            r.start_ms = bucket[0].start_ms;
            r.missed = bucket.iter().map(|f| f.missed).sum();
            r.clamped = bucket.iter().any(|f| f.clamped);
            let last = bucket[bucket.len() - 1];
            (r, last.start_ms + last.delta_ms)
        })
        .collect()
}

fn mesh(chart: &mut Plot<'_>, x: &str, y: &str) -> Result<(), Boxed> {
    chart.configure_mesh().x_desc(x).y_desc(y).draw()?;
    Ok(())
}

/// A chart of milliseconds on a logarithmic axis from `low` to `high`, labelled where the
/// values are ([`log_ticks`]), against `x` across, with its mesh drawn.
fn log_ms_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    (caption, caption_size): (&str, u32),
    (x, x_desc): (std::ops::Range<f64>, &str),
    (low, high): (f64, f64),
) -> Result<LogMsChart<'a, 'b>, Boxed> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, caption_size))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(
            x,
            (low..high)
                .log_scale()
                .with_key_points(log_ticks(low, high)),
        )?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("ms")
        .y_label_formatter(&|ms| ms_label(*ms))
        .draw()?;
    Ok(chart)
}

/// A chart made by [`log_ms_chart`].
type LogMsChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<
        RangedCoordf64,
        plotters::coord::combinators::WithKeyPoints<plotters::coord::combinators::LogCoord<f64>>,
    >,
>;

fn legend<'a, 'b: 'a, C: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, C>,
) -> Result<(), Boxed> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

fn plots(timeline: &Timeline, summary: &Summary, budget_ms: f64) -> Result<String, Boxed> {
    let all = timeline.frames_in_one();
    let frames = drawn_frames(&all);
    let span_s = frames.last().map_or(1.0, |(_, end)| end / 1000.0).max(1e-3);
    let blue = RGBColor(41, 173, 255);
    let red = RGBColor(255, 0, 77);
    let orange = RGBColor(255, 108, 36);
    let green = RGBColor(0, 228, 54);
    let grey = RGBColor(95, 87, 79);
    let purple = RGBColor(131, 118, 156);
    // Only a capture with display times has them; none is kept a frame for a clock's run.
    let errors = if timeline.source().has_display_times() {
        timeline.animation_errors()
    } else {
        Vec::new()
    };
    let has_display = errors.iter().any(Option::is_some);
    let has_busy = summary.busy.is_some() || summary.latency.is_some();
    let size = (
        PLOT_SIZE.0,
        PLOT_SIZE.1
            + if has_display { DISPLAY_PANEL_ROWS } else { 0 }
            + if has_busy { DISPLAY_PANEL_ROWS } else { 0 },
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        let h = PLOT_SIZE.1;
        let (time_area, rest) = root.split_vertically(h * 25 / 100);
        let (miss_area, rest) = rest.split_vertically(h * 8 / 100);
        let (game_area, rest) = rest.split_vertically(h * 17 / 100);
        let (updates_area, rest) = rest.split_vertically(h * 11 / 100);
        let (cost_area, bottom) = rest.split_vertically(h * 15 / 100);

        // Frame time, as steps on a log axis.
        // Room for the application's longest interval too, with frame generation.
        let app_max = summary.captured.frame_gen.map_or(0.0, |g| g.app_max_ms);
        let max_delta = summary.max_ms.max(budget_ms * 2.0).max(app_max);
        let y_top = (max_delta * 1.3).max(2.0);
        let y_bottom = frames
            .iter()
            .map(|(f, _)| f.delta_ms)
            .filter(|&d| d > 0.0)
            .fold(f64::INFINITY, f64::min)
            .min(budget_ms)
            .max(0.01)
            * 0.7;
        let mut chart = log_ms_chart(
            &time_area,
            (
                "Frame time (the clock's delta), log scale: each frame a step as long as it lasted",
                18,
            ),
            (0.0..span_s, "time (s)"),
            (y_bottom, y_top),
        )?;
        let steps = frames.iter().flat_map(|(f, end)| {
            let d = f.delta_ms.max(y_bottom);
            [(f.start_ms / 1000.0, d), (end / 1000.0, d)]
        });
        chart
            .draw_series(LineSeries::new(steps, blue.stroke_width(1)))?
            .label("frame time")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue));
        // A capture with frame generation: the application's own frames, each a step from
        // the previous application frame to its end, beside every frame's.
        let source = timeline.source();
        if summary.captured.frame_gen.is_some() {
            let mut from_s = all.first().map_or(0.0, |f| f.start_ms / 1000.0);
            let app = all
                .iter()
                .filter(|f| source.generated(f.frame) == Some(false))
                .map(|f| {
                    let end_s = (f.start_ms + f.delta_ms.max(0.0)) / 1000.0;
                    let step = (from_s, end_s, ((end_s - from_s) * 1000.0).max(y_bottom));
                    from_s = end_s;
                    step
                });
            let app: Vec<Step> = app.collect();
            chart
                .draw_series(LineSeries::new(
                    step_line(thin_steps(&app)),
                    purple.stroke_width(2),
                ))?
                .label("application frame interval (generated frames between)")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], purple));
        }
        // Where how frames reached the screen changed (present mode, tearing).
        let changes: Vec<f64> = all
            .iter()
            .filter(|f| source.mode_changes_at(f.frame))
            .map(|f| f.start_ms / 1000.0)
            .collect();
        if !changes.is_empty() {
            chart
                .draw_series(changes.iter().map(|&x| {
                    PathElement::new(vec![(x, y_bottom), (x, y_top)], orange.stroke_width(1))
                }))?
                .label("present mode changed (the table names each)")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], orange));
        }
        for (ms, label, color) in [
            (budget_ms, "budget", RGBColor(0, 135, 81)),
            (budget_ms * 2.0, "2x budget", RGBColor(255, 163, 0)),
        ] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, ms), (span_s, ms)],
                    color.stroke_width(1),
                )))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .draw_series(
                frames
                    .iter()
                    .filter(|(f, _)| f.clamped)
                    .map(|(f, _)| Cross::new((f.start_ms / 1000.0, f.delta_ms), 5, orange)),
            )?
            .label("clamped")
            .legend(move |(x, y)| Cross::new((x + 10, y), 5, orange));
        draw_tags(&mut chart, timeline, (y_bottom, y_top), |i| {
            y_top * if i % 2 == 0 { 0.9 } else { 0.6 }
        })?;
        legend(&mut chart)?;

        // Missed refreshes, a strip of bars.
        let max_missed = frames
            .iter()
            .map(|(f, _)| f.missed)
            .max()
            .unwrap_or(0)
            .max(1);
        let miss_caption = format!("Missed display refreshes: {}", summary.missed_text());
        let mut chart = ChartBuilder::on(&miss_area)
            .caption(miss_caption, (FONT, 16))
            .margin(10)
            .x_label_area_size(20)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..f64::from(max_missed))?;
        chart
            .configure_mesh()
            .y_labels(3)
            .x_labels(0)
            .disable_x_mesh()
            .draw()?;
        chart.draw_series(frames.iter().filter(|(f, _)| f.missed > 0).map(|(f, end)| {
            // At least a pixel wide, however short the frame.
            let x1 = (end / 1000.0).max(f.start_ms / 1000.0 + span_s / 1100.0);
            Rectangle::new(
                [(f.start_ms / 1000.0, 0.0), (x1, f64::from(f.missed))],
                red.filled(),
            )
        }))?;

        // Game time shown advancing each frame, beside the frame's delta; counted in updates
        // run, as the animation error is, so a cart resetting its ticks shows no jump.
        // Thinned as they are made: no step, nor the game time, is kept a frame.
        let mut shown = timeline.shown_ms_iter();
        let mut before = None;
        let advance = thin_steps_of(
            all.len(),
            all.iter().map(|f| {
                let now = shown.next().unwrap_or(0.0);
                let step = before.map_or(f.delta_ms, |b| now - b);
                before = Some(now);
                frame_step(f, step)
            }),
        );
        let game_top = advance
            .iter()
            .map(|p| p.1)
            .chain(frames.iter().map(|(f, _)| f.delta_ms))
            .fold(0.0, f64::max)
            .clamp(1.0, 10.0 * budget_ms.max(1.0))
            * 1.1;
        let mut chart = ChartBuilder::on(&game_area)
            .caption(
                "Game time each frame showed advancing ((updates + change in render_alpha) x budget), beside the frame's delta",
                (FONT, 16),
            )
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..game_top)?;
        mesh(&mut chart, "time (s)", "ms")?;
        chart
            .draw_series(LineSeries::new(
                step_line(
                    frames.iter().map(|(f, end)| {
                        (f.start_ms / 1000.0, end / 1000.0, f.delta_ms.min(game_top))
                    }),
                ),
                RGBColor(194, 195, 199).stroke_width(1),
            ))?
            .label("frame delta")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RGBColor(194, 195, 199)));
        chart
            .draw_series(LineSeries::new(
                step_line(
                    advance
                        .iter()
                        .map(|&(x0, x1, y)| (x0, x1, y.clamp(0.0, game_top))),
                ),
                purple.stroke_width(1),
            ))?
            .label("game time shown")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], purple));
        legend(&mut chart)?;

        // Updates per frame.
        let mut chart = ChartBuilder::on(&updates_area)
            .caption("Updates each frame ran (0 = none, 8 = the cap)", (FONT, 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..9.0)?;
        mesh(&mut chart, "time (s)", "updates")?;
        chart.draw_series(frames.iter().map(|(f, _)| {
            Circle::new(
                (f.start_ms / 1000.0, f64::from(f.updates)),
                2,
                purple.filled(),
            )
        }))?;
        draw_tags(&mut chart, timeline, (0.0, 9.0), |i| {
            if i % 2 == 0 {
                8.7
            } else {
                7.9
            }
        })?;

        // Cost, as measured here.
        let max_cost = frames
            .iter()
            .map(|(f, _)| f.update_ms + f.render_ms)
            .fold(0.0, f64::max);
        let cost_top = (max_cost * 1.15).max(0.01);
        let cost_caption = if matches!(timeline.source(), FrameSource::Capture { .. }) {
            "Cost of the cart's updates and render, measured on this machine (not the captured program's)"
        } else {
            "Cost: updates and render, measured on this machine"
        };
        let mut chart = ChartBuilder::on(&cost_area)
            .caption(cost_caption, (FONT, 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..cost_top)?;
        mesh(&mut chart, "time (s)", "ms")?;
        chart
            .draw_series(LineSeries::new(
                step_line(
                    frames
                        .iter()
                        .map(|(f, end)| (f.start_ms / 1000.0, end / 1000.0, f.update_ms)),
                ),
                green.stroke_width(1),
            ))?
            .label("updates")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], green));
        chart
            .draw_series(LineSeries::new(
                step_line(frames.iter().map(|(f, end)| {
                    (f.start_ms / 1000.0, end / 1000.0, f.update_ms + f.render_ms)
                })),
                grey.stroke_width(1),
            ))?
            .label("updates + render")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey));
        legend(&mut chart)?;

        // Display timing, when the frames have it.
        let bottom = if has_display {
            let (display_area, bottom) = bottom.split_vertically(DISPLAY_PANEL_ROWS);
            display_panel(&display_area, timeline, &all, &errors, span_s, budget_ms)?;
            bottom
        } else {
            bottom
        };
        // The captured program's CPU and GPU, when the capture says how busy they were.
        let bottom = if has_busy {
            let (busy_area, bottom) = bottom.split_vertically(DISPLAY_PANEL_ROWS);
            busy_panel(&busy_area, timeline, &all, span_s, budget_ms)?;
            bottom
        } else {
            bottom
        };

        // Percentile curve, histogram, frames per second.
        let panels = bottom.split_evenly((1, 3));
        let deltas: Vec<f64> = all.iter().map(|f| f.delta_ms).collect();
        let curve = percentile_curve(&deltas);
        let curve_top = (summary.max_ms * 1.1).max(1.0);
        let mut chart = log_ms_chart(
            &panels[0],
            ("Frame time by percentile", 16),
            (0.0..100.0, "percentile"),
            (y_bottom, curve_top.max(y_bottom * 2.0)),
        )?;
        chart.draw_series(LineSeries::new(
            curve.iter().map(|&(p, ms)| (p, ms.max(y_bottom))),
            blue.stroke_width(2),
        ))?;
        let bins = histogram(&deltas, HISTOGRAM_MS);
        let most = bins.iter().copied().max().unwrap_or(0).max(1);
        let mut chart = ChartBuilder::on(&panels[1])
            .caption(
                format!("Frame times, 1 ms bins (last: {HISTOGRAM_MS}+)"),
                (FONT, 16),
            )
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..HISTOGRAM_MS as f64, 0.0..most as f64 * 1.1)?;
        mesh(&mut chart, "ms", "frames")?;
        chart.draw_series(
            bins.iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(ms, &n)| {
                    Rectangle::new(
                        [(ms as f64, 0.0), (ms as f64 + 0.9, n as f64)],
                        blue.filled(),
                    )
                }),
        )?;
        let per_second = &summary.frames_per_second;
        let fps_top = per_second.iter().copied().max().unwrap_or(0).max(1);
        let mut chart = ChartBuilder::on(&panels[2])
            .caption("Frames in each second", (FONT, 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(
                0.0..per_second.len().max(1) as f64,
                0.0..f64::from(fps_top) * 1.1,
            )?;
        mesh(&mut chart, "second", "frames")?;
        chart.draw_series(per_second.iter().enumerate().map(|(s, &n)| {
            Rectangle::new(
                [(s as f64 + 0.05, 0.0), (s as f64 + 0.95, f64::from(n))],
                green.filled(),
            )
        }))?;
        root.present()?;
    }
    Ok(svg)
}

/// The presented and displayed intervals and the animation error, over time.
fn display_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    timeline: &Timeline,
    frames: &[FrameRecord],
    errors: &[Option<f64>],
    span_s: f64,
    budget_ms: f64,
) -> Result<(), Boxed> {
    let displayed: Vec<Step> = frames
        .iter()
        .filter_map(|f| {
            let d = timeline.source().display_ms(f.frame)?;
            (d > 0.0).then(|| frame_step(f, d))
        })
        .collect();
    let presented: Vec<Step> = frames.iter().map(|f| frame_step(f, f.delta_ms)).collect();
    let error: Vec<Step> = frames
        .iter()
        .zip(errors)
        .filter_map(|(f, e)| e.map(|e| frame_step(f, e)))
        .collect();
    let top = presented
        .iter()
        .chain(&displayed)
        .map(|p| p.2)
        .fold(0.0, f64::max)
        .clamp(budget_ms.max(1.0), 10.0 * budget_ms.max(1.0))
        * 1.1;
    let low = error.iter().map(|p| p.2).fold(0.0, f64::min).max(-top) * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Display timing from the capture: presented and displayed intervals, and the animation error (motion shown less time on screen)",
            (FONT, 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..span_s, low.min(-1.0)..top)?;
    mesh(&mut chart, "time (s)", "ms")?;
    let grey = RGBColor(194, 195, 199);
    let blue = RGBColor(41, 173, 255);
    let red = RGBColor(255, 0, 77);
    let clip = |v: &[Step]| -> Vec<(f64, f64)> {
        step_line(
            thin_steps(v)
                .into_iter()
                .map(|(x0, x1, y)| (x0, x1, y.clamp(low, top))),
        )
    };
    chart
        .draw_series(LineSeries::new(clip(&presented), grey.stroke_width(1)))?
        .label("presented interval")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey));
    chart
        .draw_series(LineSeries::new(clip(&displayed), blue.stroke_width(1)))?
        .label("displayed interval")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue));
    // Errors either way: thinned by their size, keeping each bucket's largest.
    let per = error.len().div_ceil(MAX_DRAWN_FRAMES).max(1);
    let thinned = step_line(error.chunks(per).map(|c| {
        let largest = c
            .iter()
            .map(|s| s.2)
            .max_by(|a, b| a.abs().total_cmp(&b.abs()))
            .expect("chunks are never empty");
        (c[0].0, c[c.len() - 1].1, largest.clamp(low, top))
    }));
    chart
        .draw_series(LineSeries::new(thinned, red.stroke_width(1)))?
        .label("animation error")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red));
    legend(&mut chart)?;
    Ok(())
}

/// The captured program's CPU and GPU busy times against its frame times, as steps: where the
/// GPU line meets the frame time the frames were GPU-bound, where the CPU's does CPU-bound, and
/// where neither does the program waited (vsync, a frame cap). Its display latency, where the
/// capture has it, runs beside them.
fn busy_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    timeline: &Timeline,
    frames: &[FrameRecord],
    span_s: f64,
    budget_ms: f64,
) -> Result<(), Boxed> {
    let presented: Vec<Step> = frames.iter().map(|f| frame_step(f, f.delta_ms)).collect();
    // Index 0 is the CPU, 1 the GPU.
    let busy = |which: usize| -> Vec<Step> {
        frames
            .iter()
            .filter_map(|f| {
                let (cpu, gpu) = timeline.source().busy_ms(f.frame);
                let ms = [cpu, gpu][which]?;
                ms.is_finite().then(|| frame_step(f, ms))
            })
            .collect()
    };
    let (cpu, gpu) = (busy(0), busy(1));
    let latency: Vec<Step> = frames
        .iter()
        .filter_map(|f| {
            let ms = timeline.source().latency_ms(f.frame).0?;
            ms.is_finite().then(|| frame_step(f, ms))
        })
        .collect();
    let top = presented
        .iter()
        .chain(&cpu)
        .chain(&gpu)
        .chain(&latency)
        .map(|p| p.2)
        .fold(0.0, f64::max)
        .clamp(budget_ms.max(1.0), 10.0 * budget_ms.max(1.0))
        * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "The captured program's CPU and GPU busy time beside its frame time (the one that meets the frame time bounded it), and its display latency",
            (FONT, 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..span_s, 0.0..top)?;
    mesh(&mut chart, "time (s)", "ms")?;
    let line = |v: &[Step]| -> Vec<(f64, f64)> {
        step_line(
            thin_steps(v)
                .into_iter()
                .map(|(x0, x1, y)| (x0, x1, y.min(top))),
        )
    };
    for (steps, label, color) in [
        (&presented, "frame time", RGBColor(194, 195, 199)),
        (&cpu, "CPU busy", RGBColor(255, 163, 0)),
        (&gpu, "GPU busy", RGBColor(41, 173, 255)),
        (&latency, "display latency", RGBColor(255, 0, 77)),
    ] {
        if steps.is_empty() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(line(steps), color.stroke_width(1)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    legend(&mut chart)?;
    Ok(())
}

/// A value held over a frame: from its start to its end, in seconds, and the value.
type Step = (f64, f64, f64);

fn frame_step(f: &FrameRecord, value: f64) -> Step {
    (
        f.start_ms / 1000.0,
        (f.start_ms + f.delta_ms.max(0.0)) / 1000.0,
        value,
    )
}

/// Steps thinned to [`MAX_DRAWN_FRAMES`]: each bucket's largest value over the time from its
/// first start to its last end.
fn thin_steps(steps: &[Step]) -> Vec<Step> {
    thin_steps_of(steps.len(), steps.iter().copied())
}

/// [`thin_steps`] of `n` steps as they come.
fn thin_steps_of(n: usize, steps: impl Iterator<Item = Step>) -> Vec<Step> {
    let per = n.div_ceil(MAX_DRAWN_FRAMES).max(1);
    let mut out = Vec::with_capacity(n.div_ceil(per));
    let mut bucket: Option<(Step, usize)> = None;
    for s in steps {
        bucket = match bucket {
            Some(((start, _, most), count)) if count < per => {
                Some(((start, s.1, f64::max(most, s.2)), count + 1))
            }
            full => {
                out.extend(full.map(|(b, _)| b));
                Some(((s.0, s.1, f64::max(f64::MIN, s.2)), 1))
            }
        };
    }
    out.extend(bucket.map(|(b, _)| b));
    out
}

/// The line through steps: each value level from its start to its end, so a long frame is a
/// long flat stretch, never a diagonal to the next frame's value.
fn step_line(steps: impl IntoIterator<Item = Step>) -> Vec<(f64, f64)> {
    steps
        .into_iter()
        .flat_map(|(x0, x1, y)| [(x0, y), (x1, y)])
        .collect()
}

/// Labels for a logarithmic axis from `low` to `high` ms: 1, 2 and 5 in each decade, or where
/// fewer than three of those fall in the range (a game between 20 and 25 ms), a finer set, so
/// the range the frames are in is always labelled.
fn log_ticks(low: f64, high: f64) -> Vec<f64> {
    let in_range = |mantissas: &[f64]| -> Vec<f64> {
        let mut ticks = Vec::new();
        let first = low.max(1e-6).log10().floor() as i32;
        let last = high.max(1e-6).log10().ceil() as i32;
        for exponent in first..=last {
            for m in mantissas {
                let v = m * 10f64.powi(exponent);
                if (low..=high).contains(&v) {
                    ticks.push(v);
                }
            }
        }
        ticks
    };
    let coarse = in_range(&[1.0, 2.0, 5.0]);
    if coarse.len() >= 3 {
        return coarse;
    }
    in_range(&[1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0])
}

/// A millisecond value as an axis label: whole above 10, else with the decimals it needs.
fn ms_label(ms: f64) -> String {
    if ms >= 10.0 {
        format!("{ms:.0}")
    } else {
        let text = format!("{ms:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FrameReport;
    use bt::Tag;
    use bt_overlay::FrameStats;

    #[test]
    fn log_axes_are_labelled_where_the_frames_are() {
        // A game between 20 and 25 ms: the chart's range is about 14 to 33 ms.
        assert_eq!(log_ticks(14.0, 33.0), [15.0, 20.0, 30.0]);
        // A 150 fps game on a wide range keeps 1-2-5.
        assert_eq!(log_ticks(4.0, 60.0), [5.0, 10.0, 20.0, 50.0]);
        assert_eq!(log_ticks(0.5, 3.0), [0.5, 1.0, 2.0]);
        assert_eq!(
            [ms_label(20.0), ms_label(1.5), ms_label(0.05), ms_label(7.0)],
            ["20", "1.5", "0.05", "7"]
        );
    }

    #[test]
    fn a_long_frame_is_a_flat_step_not_a_diagonal() {
        let line = step_line([
            (0.0, 0.016, 16.0),
            (0.016, 0.416, 400.0),
            (0.416, 0.432, 16.0),
        ]);
        assert_eq!(
            line,
            [
                (0.0, 16.0),
                (0.016, 16.0),
                (0.016, 400.0),
                (0.416, 400.0),
                (0.416, 16.0),
                (0.432, 16.0)
            ]
        );
        // Thinned, a bucket keeps its largest value over its whole time.
        let many: Vec<Step> = (0..MAX_DRAWN_FRAMES * 2)
            .map(|i| (i as f64, i as f64 + 1.0, if i == 7 { 9.0 } else { 1.0 }))
            .collect();
        let thin = thin_steps(&many);
        assert_eq!(thin.len(), MAX_DRAWN_FRAMES);
        assert_eq!(thin[3], (6.0, 8.0, 9.0));
    }

    #[test]
    fn a_comparison_flags_the_run_too_short_for_its_tenth_percent_figures() {
        let run = |frames: u64| {
            let mut t = Timeline::new(1000.0 / 60.0);
            for i in 0..frames {
                let stats = FrameStats {
                    delta_ms: if i % 100 == 7 { 50.0 } else { 16.7 },
                    updates: 1,
                    ticks: i,
                    ..FrameStats::default()
                };
                let report = FrameReport {
                    frame: i,
                    render_alpha: 0.0,
                    stats,
                };
                t.record(&report, 0, &[]);
            }
            t.summary()
        };
        let (short, long) = (run(999), run(1000));
        let text = comparison_text((&short, "short"), (&long, "long"));
        assert!(
            text.contains("A's 0.1% figures: from 999 frames: too few for 0.1 %"),
            "{text}"
        );
        assert!(!text.contains("B's 0.1%"), "{text}");
        assert!(text.contains("CapFrameX P1 (fps)"), "{text}");
        assert!(!text.contains("percentile (fps)"), "{text}");
    }

    #[test]
    fn the_report_is_one_html_file_with_its_plots_and_summary() {
        let mut t = Timeline::new(1000.0 / 60.0);
        for i in 0..120u64 {
            let delta = if i == 60 { 200.0 } else { 1000.0 / 60.0 };
            let stats = FrameStats {
                delta_ms: delta,
                updates: if i == 60 { 8 } else { 1 },
                clamped: i == 60,
                discarded_ms: if i == 60 { 66.7 } else { 0.0 },
                ticks: i,
                update_ms: 0.3,
                render_ms: 1.1,
                ..FrameStats::default()
            };
            let tags = if i == 30 {
                vec![Tag {
                    tick: 30,
                    label: "Wave <2>".into(),
                }]
            } else {
                vec![]
            };
            t.record(
                &FrameReport {
                    frame: i,
                    render_alpha: 0.0,
                    stats,
                },
                u32::from(i == 60),
                &tags,
            );
        }
        let page = html(&t, "demo & co").unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("demo &amp; co"));
        assert_eq!(page.matches("<svg").count(), 1, "one inline picture");
        assert!(
            !page.contains("http://") || !page.contains("<script"),
            "no scripts to fetch"
        );
        assert!(page.contains("Wave &lt;2&gt;"), "the tag is labelled");
        assert!(page.contains("clamped frames</th><td>1 (66.7 ms thrown away)"));
        assert!(
            page.contains("missed refreshes</th><td>1 in 1 frames"),
            "{page}"
        );
        assert!(page.contains("1% low: mean of slowest 1% / frame at 1% rank"));
        assert!(page.contains("CapFrameX's own: P1 / 1% low average / 1% low integral"));
        // 120 frames carry no 0.1% figure: both 0.1% rows say so.
        assert_eq!(
            page.matches("(from 120 frames: too few for 0.1 %)").count(),
            2,
            "{page}"
        );
        assert!(page.contains("Frame time by percentile"));
        assert!(page.contains("measured on this machine"));
        assert!(
            !page.contains("animation error"),
            "no display timing, no panel"
        );
        assert!(
            page.contains("frame 60: 200.0 ms at tick 60, after tag &quot;Wave &lt;2&gt;&quot;")
        );
    }
}
