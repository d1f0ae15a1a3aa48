//! The host side without a window: what sits between a platform and the
//! [`Engine`], the same for `bt run`'s window, a web page and a cart's tests.
//!
//! It stands on `bt-engine` and `bt-timing` (the F8 timings); `bt-tools`, `bt-window`, the web
//! page and the command line stand on it. It writes no file and opens no device.
//!
//! [`Host`] runs one engine for a platform: it takes the platform's [`HostEvent`]s and, once per
//! displayed frame, runs the engine; it keeps the host keys and the pause menu, and tells the
//! platform what to do ([`HostAction`]), so the host keys are the same in a window and in a
//! page. It writes no file: every file a run makes (F2, F8, F9, F3, the pictures a cart asks
//! for, the recording, the cart's save data) goes into one [`outbox`] the platform drains once
//! per frame. [`input`] turns events into the
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
pub mod outbox;
pub mod pause_menu;
mod runner;

pub use input::{HostEvent, TouchPhase};
pub use outbox::{Destination, FileKind, OutFile};
pub use runner::{
    rewind_speed, Host, HostAction, TimingReport, LOAD_STATE_KEY, NETPLAY_OFF_KEYS,
    RECENT_TIMINGS_MS, RECORD_SAVE_EVERY_FRAMES, REWIND_KEY, REWIND_TOP_SPEED, SAVE_STATE_KEY,
};
