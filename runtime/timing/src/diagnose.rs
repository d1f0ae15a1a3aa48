//! Headless timing diagnosis: a cart under a clock, the overlay's chart, and a per-frame CSV
//! whose rows are [`crate::frame_records`]' with the diagnosis columns.

use std::io::{self, Write};

use bt_overlay::Severity;

use crate::engine::{Engine, FrameReport};
use crate::frame_records::{self, Diagnosis};

/// The diagnosis CSV header, naming the columns in order.
pub const CSV_HEADER: &str = frame_records::DIAGNOSIS_CSV_HEADER;

/// Writes one CSV row for the engine's last frame: the trace columns, the measured update and
/// render milliseconds, the overlay's budget grade and missed refreshes, and the tags the cart
/// placed in that frame.
///
/// # Errors
/// Any write error.
pub fn write_row(out: &mut impl Write, engine: &Engine, report: &FrameReport) -> io::Result<()> {
    let (grade, missed) = engine.overlay().map_or((Severity::Normal, Some(0)), |o| {
        (o.last_severity(), o.last_missed_refreshes())
    });
    let diagnosis = Diagnosis {
        grade,
        missed,
        tags: engine.last_frame_tags(),
    };
    frame_records::write_csv_row(out, report, Some(&diagnosis))
}
