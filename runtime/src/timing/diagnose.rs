//! Headless timing diagnosis: a cart under a clock, the overlay's chart, and a per-frame CSV.

use std::io::{self, Write};

use crate::engine::{Engine, FrameReport};

/// The diagnosis CSV header, naming the columns in order.
pub const CSV_HEADER: &str = "frame,delta_ms,updates,ticks,render_alpha,clamped,discarded_ms,\
update_ms,render_ms,severity,dropped,tags";

/// Writes one CSV row for the engine's last frame: the trace columns, the measured update and
/// render milliseconds, the overlay's severity and dropped-frame count, and the tags the cart
/// placed in that frame joined with `;` (quoted when a label needs it).
///
/// # Errors
/// Any write error.
pub fn write_row(out: &mut impl Write, engine: &Engine, report: &FrameReport) -> io::Result<()> {
    let s = &report.stats;
    let (severity, dropped) = engine.overlay().map_or(("normal", 0), |o| {
        (o.last_severity().as_str(), o.last_dropped())
    });
    write!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},",
        report.frame,
        s.delta_ms,
        s.updates,
        s.ticks,
        report.render_alpha,
        s.clamped,
        s.discarded_ms,
        s.update_ms,
        s.render_ms,
        severity,
        dropped
    )?;
    let tags = engine.last_frame_tags();
    let needs_quotes = tags
        .iter()
        .any(|t| t.label.contains([',', ';', '"', '\n', '\r']));
    if needs_quotes {
        out.write_all(b"\"")?;
    }
    for (i, tag) in tags.iter().enumerate() {
        if i > 0 {
            out.write_all(b";")?;
        }
        let label = if needs_quotes {
            tag.label.replace('"', "\"\"")
        } else {
            tag.label.clone()
        };
        out.write_all(label.as_bytes())?;
    }
    if needs_quotes {
        out.write_all(b"\"")?;
    }
    writeln!(out)
}
