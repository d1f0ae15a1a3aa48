//! Frame-by-frame timing records, as CSV or JSON: `bt trace`'s rows, and with the diagnosis
//! columns `bt diagnose --csv`'s.

use std::io::{self, Write};

use bt::Tag;
use bt_overlay::Severity;

use crate::engine::FrameReport;

/// The CSV header, naming the columns in order.
pub const CSV_HEADER: &str = "frame,delta_ms,updates,ticks,render_alpha,clamped,discarded_ms";

/// The diagnosis CSV header: [`CSV_HEADER`]'s columns, then those of a [`Diagnosis`].
pub const DIAGNOSIS_CSV_HEADER: &str = "frame,delta_ms,updates,ticks,render_alpha,clamped,\
discarded_ms,update_ms,render_ms,budget_grade,missed_refreshes,tags";

/// What a diagnosis adds to a frame's record.
#[derive(Debug, Clone, Copy)]
pub struct Diagnosis<'a> {
    /// The frame graded against the cart's budget.
    pub grade: Severity,
    /// Display refreshes it missed (`None`: n/a, written `n/a`).
    pub missed: Option<u32>,
    /// The tags the cart placed in it, written joined with `;` (quoted when a label needs it).
    pub tags: &'a [Tag],
}

/// Writes one CSV row: the trace columns, and with a diagnosis, the measured update and render
/// milliseconds, the budget grade, the missed refreshes and the tags. Numbers are written in
/// full precision.
///
/// # Errors
/// Any write error.
pub fn write_csv_row(
    out: &mut impl Write,
    r: &FrameReport,
    diagnosis: Option<&Diagnosis<'_>>,
) -> io::Result<()> {
    let s = &r.stats;
    write!(
        out,
        "{},{},{},{},{},{},{}",
        r.frame, s.delta_ms, s.updates, s.ticks, r.render_alpha, s.clamped, s.discarded_ms
    )?;
    let Some(d) = diagnosis else {
        return writeln!(out);
    };
    write!(out, ",{},{},{},", s.update_ms, s.render_ms, d.grade)?;
    match d.missed {
        Some(n) => write!(out, "{n},")?,
        None => out.write_all(b"n/a,")?,
    }
    let needs_quotes = d
        .tags
        .iter()
        .any(|t| t.label.contains([',', ';', '"', '\n', '\r']));
    if needs_quotes {
        out.write_all(b"\"")?;
    }
    for (i, tag) in d.tags.iter().enumerate() {
        if i > 0 {
            out.write_all(b";")?;
        }
        if needs_quotes {
            out.write_all(tag.label.replace('"', "\"\"").as_bytes())?;
        } else {
            out.write_all(tag.label.as_bytes())?;
        }
    }
    if needs_quotes {
        out.write_all(b"\"")?;
    }
    writeln!(out)
}

/// Output format of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Comma-separated, with a header line.
    #[default]
    Csv,
    /// One JSON array of objects with the CSV's column names as keys.
    Json,
}

/// Writes frame reports as they arrive.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
    format: Format,
    rows: u64,
}

impl<W: Write> TraceWriter<W> {
    /// Starts a trace (writes the CSV header or the opening bracket).
    ///
    /// # Errors
    /// Any write error.
    pub fn new(mut out: W, format: Format) -> io::Result<TraceWriter<W>> {
        match format {
            Format::Csv => writeln!(out, "{CSV_HEADER}")?,
            Format::Json => write!(out, "[")?,
        }
        Ok(TraceWriter {
            out,
            format,
            rows: 0,
        })
    }

    /// Writes one frame. Numbers are written in full precision.
    ///
    /// # Errors
    /// Any write error.
    pub fn row(&mut self, r: &FrameReport) -> io::Result<()> {
        let s = &r.stats;
        match self.format {
            Format::Csv => write_csv_row(&mut self.out, r, None)?,
            Format::Json => {
                let sep = if self.rows == 0 { "\n" } else { ",\n" };
                write!(
                    self.out,
                    "{sep}{{\"frame\":{},\"delta_ms\":{},\"updates\":{},\"ticks\":{},\"render_alpha\":{},\"clamped\":{},\"discarded_ms\":{}}}",
                    r.frame, s.delta_ms, s.updates, s.ticks, r.render_alpha, s.clamped, s.discarded_ms
                )?;
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Closes the trace and flushes it.
    ///
    /// # Errors
    /// Any write error.
    pub fn finish(mut self) -> io::Result<W> {
        if self.format == Format::Json {
            writeln!(self.out, "\n]")?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt_overlay::FrameStats;

    fn report() -> FrameReport {
        FrameReport {
            frame: 2,
            render_alpha: 0.5,
            stats: FrameStats {
                updates: 1,
                clamped: false,
                discarded_ms: 0.0,
                delta_ms: 1000.0 / 60.0,
                ticks: 3,
                ..FrameStats::default()
            },
        }
    }

    #[test]
    fn csv_has_header_and_full_precision() {
        let mut w = TraceWriter::new(Vec::new(), Format::Csv).unwrap();
        w.row(&report()).unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(
            text,
            format!("{CSV_HEADER}\n2,16.666666666666668,1,3,0.5,false,0\n")
        );
    }

    #[test]
    fn a_diagnosis_row_adds_costs_grade_missed_refreshes_and_tags() {
        let tag = |label: &str| Tag {
            tick: 3,
            label: label.into(),
        };
        let row = |missed, tags: &[Tag]| {
            let mut out = Vec::new();
            let d = Diagnosis {
                grade: Severity::Warning,
                missed,
                tags,
            };
            write_csv_row(&mut out, &report(), Some(&d)).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            row(Some(2), &[tag("a"), tag("b")]),
            "2,16.666666666666668,1,3,0.5,false,0,0,0,warning,2,a;b\n"
        );
        assert_eq!(
            row(None, &[tag("say \"hi\", then go")]),
            "2,16.666666666666668,1,3,0.5,false,0,0,0,warning,n/a,\"say \"\"hi\"\", then go\"\n"
        );
        assert_eq!(DIAGNOSIS_CSV_HEADER.split(',').count(), 12);
    }

    #[test]
    fn json_is_one_array() {
        let mut w = TraceWriter::new(Vec::new(), Format::Json).unwrap();
        w.row(&report()).unwrap();
        w.row(&report()).unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        assert!(text.starts_with("[\n{\"frame\":2,"));
        assert_eq!(text.matches("\"clamped\":false").count(), 2);
        assert!(text.trim_end().ends_with("}\n]"));
    }
}
