//! The BT runtime: the fixed-step loop, clocks, the engine that runs a cart, headless capture,
//! cart manifests, a test harness for carts and the `bt` command line.
//!
//! A cart crate's `main.rs` is one call, [`main`], and gets every `bt` command for itself;
//! its tests use [`harness::CartTest`]. The runtime bundles no cart: the example carts and the
//! `bt` binary that lists them live in `carts/gallery`.
//!
//! Features: `window` (on by default) adds `bt run` (winit, wgpu, gilrs); `cli` (on by
//! default) adds the command line (clap). With `default-features = false` the library is
//! headless, with neither.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod animation;
pub mod assets;
pub mod audio;
pub mod bench;
pub mod capture;
mod cart_panic;
pub mod catalog;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
pub mod diagnose;
// The README and docs/*.md, compiled as doctests (see the module).
#[cfg(doctest)]
mod doc_examples;
pub mod engine;
pub mod fixed_loop;
pub mod gif_capture;
pub mod harness;
pub mod host;
pub mod keymap;
pub mod manifest;
pub mod output;
pub mod playback;
pub mod replay;
pub mod report;
pub mod seek;
pub mod spec;
#[cfg(feature = "window")]
pub mod stop;
pub mod text;
pub mod timeline;
pub mod trace;
pub mod verify;
pub mod watch;
#[cfg(feature = "window")]
pub mod window;

#[cfg(feature = "cli")]
pub use cli::main;
pub use clock::{
    Clock, ClockError, ConstantClock, JitterClock, PacedClock, PacedOptions, SequenceClock,
    WallClock,
};
pub use engine::{CartFactory, Engine, EngineError, EngineOptions, FrameReport};
pub use fixed_loop::{FixedLoop, FrameTiming, LoopError, TickAction, MAX_STEPS};
