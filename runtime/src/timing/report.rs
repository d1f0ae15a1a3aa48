//! The diagnosis report: one self-contained HTML file with the run's summary and its plots,
//! drawn with `plotters` as inline SVG, so it opens in any browser with no network.
//!
//! Three plots share the time axis (seconds on the clock's timeline): the frame time against
//! the update budget and twice it, with clamped and dropped frames marked; what the updates and
//! the render cost; and how many updates each frame ran. The cart's tags are labelled vertical
//! lines on all three.

use std::fmt::Write as _;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::timing::timeline::{Summary, Timeline};

/// Pixels of the plot picture.
const PLOT_SIZE: (u32, u32) = (1200, 960);

const FONT: &str = "sans-serif";

/// The report of `timeline` for the run named `title`, as HTML text.
///
/// # Errors
/// A message when the plots cannot be drawn (an empty timeline draws empty axes).
pub fn html(timeline: &Timeline, title: &str) -> Result<String, String> {
    let budget_ms = timeline.budget_ms();
    let summary = timeline.summary();
    let svg = plots(timeline, budget_ms).map_err(|e| format!("drawing the report's plots: {e}"))?;
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
    page.push_str(&summary_table(&summary, budget_ms));
    page.push_str(&svg);
    page.push_str(
        "\n<p>Frame time is each frame's delta from the clock. Budget: one update's time; \
         orange crosses: frames the 8-update cap clamped (the time past it is thrown away); \
         red rings: dropped frames; purple lines: the cart's tags.</p>\n</body></html>\n",
    );
    Ok(page)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn summary_table(s: &Summary, budget_ms: f64) -> String {
    let mut t = String::from("<table>\n");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(t, "<tr><th>{k}</th><td>{}</td></tr>", escape(&v));
    };
    row(
        "frames",
        format!("{} over {:.2} s", s.frames, s.span_ms / 1000.0),
    );
    row("frames a second", format!("{:.1}", s.fps));
    row("update budget", format!("{budget_ms:.2} ms"));
    row(
        "frame time p50 / p95 / p99 / max",
        format!(
            "{:.1} / {:.1} / {:.1} / {:.1} ms",
            s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms
        ),
    );
    row("frames by updates run", s.update_counts().join(", "));
    row(
        "clamped frames",
        format!("{} ({:.1} ms thrown away)", s.clamped, s.discarded_ms),
    );
    row("dropped frames", s.dropped.to_string());
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

/// Vertical tag lines with their labels near the top of `chart`.
fn draw_tags(
    chart: &mut Plot<'_>,
    timeline: &Timeline,
    top: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    let tag_color = RGBColor(126, 37, 83);
    for (i, tag) in timeline.tags().enumerate() {
        let x = tag.at_ms / 1000.0;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, 0.0), (x, top)],
            tag_color.stroke_width(1),
        )))?;
        // Alternate label heights so neighbouring tags do not write over each other.
        let y = top * if i % 2 == 0 { 0.97 } else { 0.88 };
        chart.draw_series(std::iter::once(Text::new(
            crate::quote::excerpt(&tag.label),
            (x, y),
            (FONT, 12).into_font().color(&tag_color),
        )))?;
    }
    Ok(())
}

fn plots(timeline: &Timeline, budget_ms: f64) -> Result<String, Box<dyn std::error::Error>> {
    let frames: Vec<_> = timeline.frames().copied().collect();
    let span_s = frames
        .last()
        .map_or(1.0, |f| (f.start_ms + f.stats.delta_ms) / 1000.0)
        .max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, PLOT_SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, rest) = root.split_vertically(PLOT_SIZE.1 * 9 / 20);
        let (middle, bottom) = rest.split_vertically(PLOT_SIZE.1 * 6 / 20);

        // Frame time.
        let max_delta = frames.iter().map(|f| f.stats.delta_ms).fold(0.0, f64::max);
        let y_top = (max_delta.max(budget_ms * 2.0) * 1.1).max(1.0);
        let mut chart = ChartBuilder::on(&top)
            .caption("Frame time (the clock's delta)", (FONT, 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..y_top)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("ms")
            .draw()?;
        let blue = RGBColor(41, 173, 255);
        chart
            .draw_series(LineSeries::new(
                frames
                    .iter()
                    .map(|f| (f.start_ms / 1000.0, f.stats.delta_ms)),
                blue.stroke_width(1),
            ))?
            .label("frame delta")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue));
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
        let orange = RGBColor(255, 108, 36);
        chart
            .draw_series(
                frames
                    .iter()
                    .filter(|f| f.stats.clamped)
                    .map(|f| Cross::new((f.start_ms / 1000.0, f.stats.delta_ms), 5, orange)),
            )?
            .label("clamped")
            .legend(move |(x, y)| Cross::new((x + 10, y), 5, orange));
        let red = RGBColor(255, 0, 77);
        chart
            .draw_series(frames.iter().filter(|f| f.dropped > 0).map(|f| {
                Circle::new(
                    (f.start_ms / 1000.0, f.stats.delta_ms),
                    6,
                    red.stroke_width(2),
                )
            }))?
            .label("dropped")
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, red.stroke_width(2)));
        draw_tags(&mut chart, timeline, y_top)?;
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;

        // Update and render cost.
        let max_cost = frames
            .iter()
            .map(|f| f.stats.update_ms + f.stats.render_ms)
            .fold(0.0, f64::max);
        let cost_top = (max_cost * 1.15).max(0.01);
        let mut chart = ChartBuilder::on(&middle)
            .caption("Cost: updates and render (measured)", (FONT, 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..cost_top)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("ms")
            .draw()?;
        let green = RGBColor(0, 228, 54);
        let grey = RGBColor(95, 87, 79);
        chart
            .draw_series(LineSeries::new(
                frames
                    .iter()
                    .map(|f| (f.start_ms / 1000.0, f.stats.update_ms)),
                green.stroke_width(1),
            ))?
            .label("updates")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], green));
        chart
            .draw_series(LineSeries::new(
                frames
                    .iter()
                    .map(|f| (f.start_ms / 1000.0, f.stats.update_ms + f.stats.render_ms)),
                grey.stroke_width(1),
            ))?
            .label("updates + render")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey));
        draw_tags(&mut chart, timeline, cost_top)?;
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;

        // Updates per frame.
        let mut chart = ChartBuilder::on(&bottom)
            .caption("Updates each frame ran (0 = none, 8 = the cap)", (FONT, 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, 0.0..9.0)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("updates")
            .draw()?;
        let purple = RGBColor(131, 118, 156);
        chart.draw_series(frames.iter().map(|f| {
            Circle::new(
                (f.start_ms / 1000.0, f64::from(f.stats.updates)),
                2,
                purple.filled(),
            )
        }))?;
        draw_tags(&mut chart, timeline, 9.0)?;
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FrameReport;
    use bt::Tag;
    use bt_overlay::FrameStats;

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
            page.contains("frame 60: 200.0 ms at tick 60, after tag &quot;Wave &lt;2&gt;&quot;")
        );
    }
}
