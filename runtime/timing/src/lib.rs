//! What a run's timing looked like, for people: per-frame records, the summary and timeline,
//! the frame-pacing figures, the Chrome trace, the overlay chart headless, and `bt bench`.
//!
//! It stands on `bt-engine` alone (the engine's frame reports and the capture clock's
//! columns); the host's F8, the HTML report (`bt-tools`) and the command line read it. It
//! writes no file: what it makes are bytes and figures.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// The layer below, by its own module names (`crate::engine`, `crate::clock`...).
#[allow(unused_imports)]
use bt_engine::*;

pub mod bench;
#[cfg(test)]
mod capture_tests;
pub mod captured;
pub mod chrome_trace;
pub mod diagnose;
pub mod frame_gen;
pub mod frame_records;
pub mod latency;
pub mod pacing;
pub mod runs;
pub mod stuttering;
pub mod timeline;
