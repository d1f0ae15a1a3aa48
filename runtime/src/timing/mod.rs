//! What a run's timing looked like, for people: per-frame records, the summary and timeline,
//! the Chrome trace, the HTML report, the overlay chart headless, and `bt bench`.

pub mod bench;
pub mod diagnose;
pub mod frame_records;
pub mod report;
pub mod timeline;
