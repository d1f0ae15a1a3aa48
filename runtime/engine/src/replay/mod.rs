//! Replays: the input every update saw, recorded run-length encoded, saved as a versioned JSON
//! file with hashes of the frames along the way, and played back into an [`Engine`] in place
//! of live input.
//!
//! A replay reproduces a run exactly because an update sees only its [`TickInput`](bt::host::TickInput), the seed,
//! the cart arguments and the tick count: the same ticks give the same state under any clock.
//! The hashes let a player of the file prove it: every `hash_every` updates the recording host
//! rendered the cart's frame with `render_alpha` 0 and kept [`frame_hash`] of it.
//!
//! ```
//! use bt::host::TickInput;
//! use bt_engine::replay::Recorder;
//!
//! let mut rec = Recorder::new();
//! let idle = TickInput::default();
//! for _ in 0..1000 {
//!     rec.record(&idle);
//! }
//! assert_eq!((rec.ticks(), rec.runs()), (1000, 1)); // a thousand idle ticks stored once
//! ```
//!
//! [`Engine`]: crate::Engine
//! [`TickInput`]: bt::host::TickInput

mod compare;
mod file;
mod frame_hash;
mod player;
mod recorder;
mod script;

pub use compare::{compare, Agreement, ButtonNames, Difference, InputDifference};
pub use file::{Mismatch, RecordedPanic, Replay, ReplayError, ReplayInfo};
pub use frame_hash::frame_hash;
pub(crate) use player::Player;
pub use recorder::Recorder;
pub use script::{input_script, script_replay, InputScript};

/// The `format` field of every replay file.
pub const FORMAT: &str = "bt-replay";

/// The newest version of the file layout this build reads and writes. A change to the layout
/// or to what a field means bumps it; files of a version outside [`OLDEST_VERSION`]..=`VERSION`
/// are refused, never half-read. Version 2 added `save`, the save data the run booted with,
/// version 3 the touch slots (`touch`, `touch_pos`, `touch_delta` in a tick), and version 4
/// the player's reduced-motion preference (`reduced_motion` in the header, as the run booted,
/// and in a tick); a replay is written in the oldest version that holds it, so one without
/// save data, touches or reduced motion is still version 1, which every build reads.
pub const VERSION: u32 = 4;

/// The oldest version of the file layout this build reads: version 1 files booted with empty
/// save data.
pub const OLDEST_VERSION: u32 = 1;

/// Updates between two frame hashes, unless the recorder is told otherwise: one a second at
/// 60 updates a second, so a divergence is placed within a second at a cost of 16 bytes a
/// second of play.
pub const DEFAULT_HASH_EVERY: u64 = 60;

/// The largest replay file read: 64 MiB. A replay grows only when input changes (about 100
/// bytes a change), so this is days of busy play; anything larger is not a replay this build
/// wrote, and reading it whole would only exhaust memory.
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;
