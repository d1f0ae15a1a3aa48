//! The BT runtime: the fixed-step loop, clocks, the engine that runs a cart, headless capture,
//! cart manifests, a test harness for carts and the `bt` command line.
//!
//! A cart crate's `main.rs` is one call, [`main`], and gets every `bt` command for itself;
//! its tests use [`harness::CartTest`]. The runtime bundles no example cart (its one cart of its own is the sound editor,
//! [`sound_edit`]): the example carts and the
//! `bt` binary that lists them live in `carts/gallery`.
//!
//! Features: `window` (on by default) adds `bt run` (winit, wgpu, gilrs, cpal); `cli` (on by
//! default) adds the command line (clap); `files` (on by default, and with either of the
//! others) adds what reads and writes files on a disk: [`config::manifest`] (`cart.toml`),
//! key-map files, save files on a disk ([`save`]), [`harness`], and every output
//! ([`export::safe_write`], GIFs, WAV files, the HTML timing report), and `tiled` (Tiled maps).
//! With `default-features = false` the library is headless, with none: a web page's console,
//! which adds `tiled`, reads its cart's files from the asset pack `bt web` builds in
//! ([`config::asset_pack`]) and hands its saves (save data included, as [`save`]'s format) to
//! the page's script.
//!
//! # Where things are
//!
//! | module | its job |
//! | --- | --- |
//! | [`engine`] | the [`Engine`]: one cart, its console, the loop and a clock; `run`, `advance`, `render_at` (from an [`Origin`]), `resume`; recording input; catching a cart's panics |
//! | [`fixed_loop`] | where time becomes updates: the accumulator that turns frame times into whole updates, at most [`MAX_STEPS`] a frame, and [`tick_at`], the one rule from seconds of play to an update |
//! | [`clock`] | the five clocks, [`clock::capture`] (a frame-time capture file played as a clock), and [`clock::spec`], the parser of `paced:60`-style specs |
//! | [`replay`] | replay files (`bt-replay`), recording and playing them, frame hashes |
//! | [`verify`] | `bt verify`, a tool on the engine: the same input under very different clocks must draw the same frames |
//! | [`timing`] | what a run's timing looked like: [`timing::frame_records`] (`bt trace` CSV/JSON), [`timing::timeline`] (the summary), [`timing::pacing`] (lows, stutters, animation error), [`timing::chrome_trace`], [`timing::report`] (HTML), [`timing::diagnose`] (`bt diagnose`), [`timing::bench`] (`bt bench`) |
//! | [`export`] | files made from a run: [`export::png`] (`bt shot`), [`export::gif`] (`bt gif`), [`export::wav`] (`bt wav`), all through [`export::safe_write`] |
//! | [`host`] | the platform side: [`host::Host`] (one engine run for a platform: host keys, pause menu, recording, save data, reload; it returns [`host::HostAction`]s, files to keep included, and hands over what a run keeps on disk as [`host::Persist`] items: it writes no file), [`host::persist`] (those items, and how a native platform writes them), [`host::input`] (events to the console's input), [`host::captures`] (where the window keeps the files of the host keys), [`host::keymap`], [`host::asset_watch`] (hot reload), [`host::live_sound`] (the buffer feeding a sound device), [`host::gif_recorder`] (F10 in the window); with `window`, `host::window` (`bt run`; its `disk` writes what the host hands over) and `host::signals` |
//! | [`postfx`] | the post-process stack's display tier: the picture at the output size with the cart's CRT effects, the same bytes on every platform |
//! | [`config`] | [`config::manifest`] (`cart.toml`, user config, settings layers, palette files, and the copy a web page carries), [`config::png_loader`] (sprite sheets) and [`config::asset_pack`] (an asset folder carried in memory, a web page's) |
//! | [`save`] | save files: a cart's [`bt::SaveData`] as a file, where it lives on disk (with `files`), and [`save::SaveStore`], which says when `bt run` or a page writes it back |
//! | [`session`] | [`session::Session`]: one cart's boot (settings layers, asset folder, save data, replay, arguments) resolved once from what a front end was given; it creates the [`Engine`]. The command line, the harness and the web page all boot through it |
//! | [`sound_edit`] | the sound editor (`bt sound-edit`), a cart of the runtime's own: [`sound_edit::SoundDoc`] (a sound file held with its lines, written back changing only what was edited) and [`sound_edit::SoundEditor`] (the cart, which hands its saves to a [`sound_edit::SaveTarget`]) |
//! | [`harness`] | [`harness::CartTest`], the test bench a cart's own tests use |
//! | [`catalog`] | carts by name, as a `bt` binary lists them |
//! | [`quote`] | quoting what a user typed or a file held, safely, in one-line messages |
//! | [`wall_time`] | stopwatches for cost figures, natively and in a browser (where the page supplies the clock) |
//! | `cli` | with `cli`: the `bt` command line, one file per command group |
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
// Denied, not forbidden: two modules say why their `unsafe` is sound. One reads the error
// event Xlib hands winit's hook (`host::window::x11_errors`); the other hands the display
// tier's second thread a borrowed job without allocating (`postfx::split`).
#![deny(unsafe_code)]

pub mod catalog;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
pub mod config;
// The README and docs/*.md, compiled as doctests (see the module).
#[cfg(doctest)]
mod doc_examples;
pub mod engine;
pub mod export;
pub mod fixed_loop;
#[cfg(feature = "files")]
pub mod harness;
pub mod host;
pub mod postfx;
pub mod quote;
pub mod replay;
pub mod save;
pub mod session;
pub mod sound_edit;
pub mod timing;
pub mod verify;
pub mod wall_time;

#[cfg(feature = "cli")]
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
