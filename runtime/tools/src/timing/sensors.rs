//! The report's sensor plots: a capture's sensor readings (CapFrameX's `SensorData2`) under
//! its frame times, on the run's time axis, one chart a kind of reading in its unit (load in
//! %, clocks in MHz, temperatures in °C, power in W), each sensor a line named as the file
//! names it.

use std::fmt::Write as _;

use plotters::prelude::*;

use crate::clock::capture::Sensor;
use crate::timing::report::escape;
use crate::timing::timeline::Timeline;

/// The most sensors one chart draws: more lines than this cannot be told apart; the rest are
/// named under it.
pub const MAX_SENSOR_LINES: usize = 8;
/// Each chart's size in pixels: as wide as the report's other plots, low enough to stack.
const CHART_SIZE: (u32, u32) = (1200, 240);

type Boxed = Box<dyn std::error::Error>;

/// The sensors' section of a report: a heading and one chart a kind, on `timeline`'s time
/// axis; nothing without sensors.
///
/// # Errors
/// A message when a chart cannot be drawn.
pub fn html(sensors: &[Sensor], timeline: &Timeline) -> Result<String, String> {
    if sensors.is_empty() {
        return Ok(String::new());
    }
    let span_s = timeline
        .frames()
        .last()
        .map_or(0.0, |f| (f.start_ms + f.delta_ms) / 1000.0);
    let span_s = sensors
        .iter()
        .flat_map(|s| s.seconds.last().copied())
        .fold(span_s, f64::max)
        .max(1e-3);
    let mut page = String::from(
        "<h2>Sensors</h2>\n<p>The capture's sensor readings, as the file names them, one chart \
         a kind in its unit, on the frame times' time axis.</p>\n",
    );
    let mut kinds: Vec<(&str, &'static str)> = Vec::new();
    for s in sensors {
        if !kinds.contains(&(s.kind.as_str(), s.unit)) {
            kinds.push((s.kind.as_str(), s.unit));
        }
    }
    for (kind, unit) in kinds {
        let group: Vec<&Sensor> = sensors
            .iter()
            .filter(|s| s.kind == kind && s.unit == unit)
            .collect();
        let svg = chart(&group, kind, unit, span_s)
            .map_err(|e| format!("drawing the report's sensor plots: {e}"))?;
        page.push_str(&svg);
        if group.len() > MAX_SENSOR_LINES {
            let rest: Vec<String> = group[MAX_SENSOR_LINES..]
                .iter()
                .map(|s| escape(&s.label()))
                .collect();
            let _ = writeln!(
                page,
                "<p>Not drawn (more than {MAX_SENSOR_LINES} on one chart): {}.</p>",
                rest.join(", ")
            );
        }
    }
    Ok(page)
}

/// One chart: the sensors of one kind, in `unit`, over `0..span_s`.
fn chart(group: &[&Sensor], kind: &str, unit: &str, span_s: f64) -> Result<String, Boxed> {
    let values = || {
        group
            .iter()
            .take(MAX_SENSOR_LINES)
            .flat_map(|s| s.values.iter().copied())
            .filter(|v| v.is_finite())
    };
    let low = values().fold(f64::INFINITY, f64::min);
    let high = values().fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if low.is_finite() {
        let pad = ((high - low) * 0.1).max(high.abs() * 0.02).max(0.5);
        (low - pad, high + pad)
    } else {
        (0.0, 1.0)
    };
    let y_label = if unit.is_empty() {
        kind.to_string()
    } else {
        format!("{kind} ({unit})")
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, CHART_SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&y_label, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..span_s, low..high)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc(&y_label)
            .draw()?;
        for (i, sensor) in group.iter().take(MAX_SENSOR_LINES).enumerate() {
            // The comparison's colours of runs A to H, in turn.
            let colour =
                crate::timing::report::RUN_COLOURS[i % crate::timing::report::RUN_COLOURS.len()];
            // A reading with no number is left out rather than drawn at 0.
            let points: Vec<(f64, f64)> = sensor
                .seconds
                .iter()
                .copied()
                .zip(sensor.values.iter().copied())
                .filter(|(_, v)| v.is_finite())
                .collect();
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
                .label(sensor.label())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}
