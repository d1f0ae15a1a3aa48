//! A capture's input-to-display latencies besides its display latency: PresentMon 2's PC
//! latency, all input to photon and instrumented latency, each under its own column's name,
//! with its percentiles (click to photon and the display latency are the summary's own).

use crate::clock::capture::input_latency_meaning;
use crate::pacing::Latency;

/// One latency column's figures over a run.
#[derive(Debug, Clone, PartialEq)]
pub struct InputLatency {
    /// The column, as the capture spells it (`MsPCLatency`, `AllInputToPhotonLatency`).
    pub column: String,
    /// Its figures over the frames that have a value.
    pub latency: Latency,
}

impl InputLatency {
    /// The figures of `values` (one a frame; NaN where the frame had none), when any frame
    /// has one.
    pub fn of(column: &str, values: &[f64]) -> Option<InputLatency> {
        Latency::of(values).map(|latency| InputLatency {
            column: column.to_string(),
            latency,
        })
    }

    /// The latency's name in a summary: the column's without its `Ms` and in words.
    pub fn label(&self) -> &'static str {
        let c = self.column.to_ascii_lowercase();
        if c.contains("pclatency") {
            "PC latency"
        } else if c.contains("allinput") {
            "all input to photon"
        } else {
            "instrumented latency"
        }
    }

    /// A summary's line: `PC latency  p50 30.1 ms ... over 1998 frames (MsPCLatency: from the
    /// PC receiving input to the frame being sent to the display)`.
    pub fn text(&self) -> String {
        let l = &self.latency;
        format!(
            "{}  p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms over {} frames ({}: {})",
            self.label(),
            l.p50_ms,
            l.p95_ms,
            l.p99_ms,
            l.max_ms,
            l.frames,
            crate::quote::excerpt(&self.column),
            input_latency_meaning(&self.column)
        )
    }
}
