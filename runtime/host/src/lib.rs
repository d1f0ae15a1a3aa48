//! The host side without a window: what sits between a platform and the
//! [`Engine`], the same for `bt run`'s window, a web page and a cart's tests.
//!
//! It stands on `bt-engine` and `bt-timing` (the F8 timings); `bt-tools`, `bt-window`, the web
//! page and the command line stand on it. It writes no file and opens no device.
//!
//! [`Host`] runs one engine for a platform: it takes the platform's [`HostEvent`]s and, once per
//! displayed frame, runs the engine; it keeps the host keys and the pause menu, and tells the
//! platform what to do ([`HostAction`]), the files to keep included ([`HostAction::Save`]), so
//! the host keys are the same in a window and in a page. It writes no file: what a run keeps on
//! disk as it goes (a recording, the cart's save data) it hands to the platform too
//! ([`persist`]). [`input`] turns events into the
//! console's input, and the rest: key maps, watching a cart's files, the buffer that feeds a
//! sound device, and [`harness::CartTest`], the test bench a cart's own tests use.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// The layers below, by their own module names (`crate::engine`, `crate::timing`...).
use bt_engine::*;
use bt_timing as timing;

pub mod asset_watch;
#[cfg(test)]
mod capture_trace_tests;
pub mod harness;
pub mod input;
pub mod keymap;
pub mod live_sound;
pub mod notice;
pub mod pause_menu;
pub mod persist;
mod runner;

pub use input::{HostEvent, TouchPhase};
pub use persist::{Persist, PersistKind};
pub use runner::{
    rewind_speed, Host, HostAction, SaveFile, SaveKind, TimingReport, LOAD_STATE_KEY,
    RECENT_TIMINGS_MS, RECORD_SAVE_EVERY_FRAMES, REWIND_KEY, REWIND_TOP_SPEED, SAVE_STATE_KEY,
};
