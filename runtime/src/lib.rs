//! The BT runtime: the fixed-step loop, clocks, the engine that runs a cart, headless capture and
//! the bundled carts. The `bt` command is built on it.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod assets;
pub mod bench;
pub mod capture;
pub mod carts;
pub mod clock;
pub mod diagnose;
// The README and docs/*.md, compiled as doctests (see the module).
#[cfg(doctest)]
mod doc_examples;
pub mod engine;
pub mod fixed_loop;
pub mod host;
pub mod keymap;
pub mod seek;
pub mod spec;
pub mod trace;
#[cfg(feature = "window")]
pub mod window;

pub use clock::{
    Clock, ClockError, ConstantClock, JitterClock, PacedClock, PacedOptions, SequenceClock,
    WallClock,
};
pub use engine::{CartFactory, Engine, EngineError, EngineOptions, FrameReport};
pub use fixed_loop::{FixedLoop, FrameTiming, LoopError, TickAction, MAX_STEPS};
