//! The BT runtime as one crate: the `bt` command line, and every layer below it under one
//! name, so a cart depends on `bt-runtime` alone.
//!
//! A cart crate's `main.rs` is one call, [`main`], and gets every `bt` command for itself;
//! its tests use [`harness::CartTest`]. The runtime bundles no example cart (its carts of its
//! own are the editors, [`sound_edit`] and [`sprite_edit`]): the example carts and the `bt`
//! binary that lists them live in `carts/gallery`.
//!
//! # The layers
//!
//! Each layer is a crate of its own in `runtime/`, and uses only the crates above it in this
//! table (`.ci/run` checks it):
//!
//! | crate | folder | what it holds |
//! | --- | --- | --- |
//! | `bt-engine` | `runtime/engine` | the headless console: [`engine`], [`fixed_loop`], [`clock`], [`replay`], [`verify`], [`postfx`], [`config`], [`save`], [`session`], the console's outputs ([`export::png`], [`export::wav`], [`export::safe_write`]), [`quote`], [`wall_time`] |
//! | `bt-timing` | `runtime/timing` | [`timing`]: frame records, the timeline and its figures, Chrome traces, captured runs' columns, `bt diagnose`, `bt bench` |
//! | `bt-host` | `runtime/host` | [`host`]: the [`host::Host`] a window, a page and a test drive alike, input, key maps, and [`harness`] |
//! | `bt-tools` | `runtime/tools` | the HTML timing report ([`timing::report`]), GIFs ([`export::gif`]), the sound and sprite editors ([`sound_edit`], [`sprite_edit`]) |
//! | `bt-window` | `runtime/window` | `bt run`'s window (`host::window`, with the `window` feature) |
//! | `bt-runtime` | `runtime` | the command line (`cli`), [`catalog`], and this list of re-exports |
//!
//! A web page (`runtime/web`) stands on `bt-engine` and `bt-host` only.
//!
//! # Time
//!
//! Time has one unit for each of three jobs, and crosses between them in named places only:
//!
//! - **Updates** (`u64` ticks) are simulated time. A seek, a step, a replay, a GIF's or a
//!   WAV's length all count updates inside. Seconds of play become updates in one place,
//!   [`tick_at`] (`round(seconds × fps)`): [`Engine::render_at`] and every `bt` flag given in
//!   seconds go through it, and inside the runtime a seek is by update
//!   ([`Engine::render_at_tick`]). Float seconds appear only at those edges: the arguments a
//!   person or a cart's test gives.
//! - **Milliseconds as `f64`** are the timeline a clock keeps: host timestamps, frame times, the
//!   fixed loop's accumulator ([`fixed_loop`], where frame time becomes updates), and the frame
//!   statistics over a run ([`timing`]: percentiles, lows, stutters), which are float
//!   milliseconds as frame-time captures (PresentMon, CapFrameX) and a browser's
//!   `performance.now()` give them. Their names say so with `_ms`.
//! - **[`std::time::Duration`]** is wall time the host waits on (polls, patience, a progress
//!   bar's threshold, the stopwatches of [`wall_time`]), and the cart API's durations
//!   (`ticks_in`).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod catalog;
pub mod cli;
// The README and docs/*.md, compiled as doctests (see the module).
#[cfg(doctest)]
mod doc_examples;

pub use bt_engine::{
    clock, config, engine, fixed_loop, postfx, quote, replay, save, session, verify, wall_time,
};
pub use bt_host::harness;
pub use bt_tools::{edit, export, sound_edit, timing};
pub use bt_tools::{map_edit, sprite_edit, tiled_doc};

/// The platform side: [`Host`](host::Host) and its parts (`bt-host`), and the window
/// (`bt-window`) with the pieces only a window has.
pub mod host {
    pub use bt_host::*;
    #[cfg(feature = "window")]
    pub use bt_window as window;
    #[cfg(feature = "window")]
    pub use bt_window::{captures, gif_recorder, signals};
}

pub use cli::main;
pub use clock::{
    Clock, ClockError, ConstantClock, JitterClock, PacedClock, PacedOptions, SequenceClock,
    WallClock,
};
pub use engine::{
    CartFactory, Engine, EngineError, EngineOptions, FrameReport, Origin, SaveState, SnapshotError,
    SnapshotStats, StateFile, StateFileError,
};
pub use fixed_loop::{
    tick_at, FixedLoop, FrameTiming, LoopError, TickAction, TimeError, MAX_STEPS,
};
