//! What a run's timing looked like, for people: per-frame records, the summary and timeline,
//! the frame-pacing figures, the Chrome trace, the HTML report, the overlay chart headless, and
//! `bt bench`.

pub mod bench;
pub mod captured;
pub mod chrome_trace;
pub mod diagnose;
pub mod frame_gen;
pub mod frame_records;
pub mod latency;
pub mod pacing;
#[cfg(feature = "files")]
pub mod report;
pub mod runs;
#[cfg(feature = "files")]
pub mod sensors;
pub mod stuttering;
pub mod timeline;
