//! BT's headless console, the bottom layer of the runtime: everything that runs a cart and
//! decides its ticks, pixels and samples, with no window, device or command line. A web page
//! and every native front end stand on it alike.
//!
//! It uses only the cart API (`bt`) and the overlay (`bt-overlay`); every other BT crate
//! stands on it (`bt-timing`, `bt-host`, `bt-tools`, `bt-window`, and `bt-runtime`, the
//! command line), and it knows none of them.
//!
//! | module | its job |
//! | --- | --- |
//! | [`engine`] | the [`Engine`]: one cart, its console, the loop and a clock; `run`, `advance`, `render_at` (from an [`Origin`]), `resume`; snapshots, time travel and state files; recording input; catching a cart's panics |
//! | [`fixed_loop`] | where time becomes updates: the accumulator that turns frame times into whole updates, at most [`MAX_STEPS`] a frame, and [`tick_at`], the one rule from seconds of play to an update |
//! | [`clock`] | the five clocks, [`clock::capture`] (a frame-time capture file played as a clock), and [`clock::spec`], the parser of `paced:60`-style specs |
//! | [`replay`] | replay files (`bt-replay`), recording and playing them, frame hashes |
//! | [`verify`] | the same input under very different clocks must draw the same frames (`bt verify`) |
//! | [`postfx`] | the post-process stack's display tier: the picture at the output size with the cart's CRT effects, the same bytes on every platform |
//! | [`config`] | [`config::manifest`] (`cart.toml`, user config, settings layers, palette files, and the copy a web page carries), [`config::png_loader`] (sprite sheets), [`config::asset_pack`] (an asset folder carried in memory, a web page's), clips and Tiled maps |
//! | [`save`] | save files: a cart's [`bt::SaveData`] as a file, where it lives on disk, and [`save::SaveStore`], which says when a platform writes it back |
//! | [`session`] | [`session::Session`]: one cart's boot (settings layers, asset folder, save data, replay, arguments) resolved once from what a front end was given; it creates the [`Engine`] |
//! | [`export`] | the outputs every platform makes: [`export::png`] pictures and [`export::wav`] sound, through [`export::safe_write`], which never destroys what is at the path |
//! | [`quote`] | quoting what a user typed or a file held, safely, in one-line messages |
//! | [`wall_time`] | stopwatches for cost figures, natively and in a browser (where the page supplies the clock) |
//!
//! Features: `tiled` (the Tiled map reader) and `clips` (WAV and Ogg Vorbis decoders) are
//! format support a web page leaves out when its cart has no map or clip; they change what
//! can be read, never how a cart runs.
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
//!   statistics over a run (`bt-timing`: percentiles, lows, stutters), which are float
//!   milliseconds as frame-time captures (PresentMon, CapFrameX) and a browser's
//!   `performance.now()` give them. Their names say so with `_ms`.
//! - **[`std::time::Duration`]** is wall time the host waits on (polls, patience, a progress
//!   bar's threshold, the stopwatches of [`wall_time`]), and the cart API's durations
//!   (`ticks_in`).
#![deny(missing_docs)]
// Denied, not forbidden: one module says why its `unsafe` is sound: it hands the display
// tier's second thread a borrowed job without allocating (`postfx::split`).
#![deny(unsafe_code)]

pub mod clock;
pub mod config;
pub mod engine;
pub mod export;
pub mod fixed_loop;
pub mod postfx;
pub mod quote;
pub mod replay;
pub mod save;
pub mod session;
pub mod verify;
pub mod wall_time;

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
