//! Frame-by-frame timing records, as CSV or JSON.

use std::io::{self, Write};

use crate::engine::FrameReport;

/// The CSV header, naming the columns in order.
pub const CSV_HEADER: &str = "frame,delta_ms,updates,ticks,render_alpha,clamped,discarded_ms";

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
            Format::Csv => writeln!(
                self.out,
                "{},{},{},{},{},{},{}",
                r.frame, s.delta_ms, s.updates, s.ticks, r.render_alpha, s.clamped, s.discarded_ms
            )?,
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
