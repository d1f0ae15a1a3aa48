//! What an engine is started with, how it refuses, and what each frame reports.

use std::path::PathBuf;
use std::sync::Arc;

use bt::{Settings, SettingsError};
use bt_overlay::FrameStats;
use thiserror::Error;

use super::cart_panic::CartPanic;
use super::snapshot::DEFAULT_SNAPSHOT_BUDGET;
#[cfg(doc)]
use super::Engine;
#[cfg(doc)]
use crate::fixed_loop::tick_at;
use crate::fixed_loop::TimeError;
use crate::quote::number;
use crate::replay::Replay;

/// The most updates one `render_at` replays or one `step` runs: about 46 hours of play at 60
/// updates a second. A seek runs every update on the way, so a target far past this would keep
/// the caller waiting for hours; a seek from the current tick counts only the updates it adds.
pub const MAX_SEEK_UPDATES: u64 = 10_000_000;

/// The slowest simulated host, in ticks a second: as slow as the slowest cart
/// ([`bt::limits::MIN_TARGET_FPS`]). Much slower, host times would grow so large over a long run that
/// the ticks' deltas lost their precision (at 10^-306 they overflowed).
pub const MIN_HOST_HZ: f64 = bt::limits::MIN_TARGET_FPS;

/// The fastest simulated host, in ticks a second: a tick every 10 µs, far past any display.
pub const MAX_HOST_HZ: f64 = 100_000.0;

/// How many updates a seek runs between two calls of its progress callback: often enough for a
/// progress bar several times a second, rarely enough to cost nothing.
pub const SEEK_PROGRESS_EVERY: u64 = 1024;

/// Why the engine refused to start or to seek.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The cart's settings (after any overrides) are invalid.
    #[error("cart settings: {0}")]
    Settings(#[from] SettingsError),
    /// The cart's `init` failed.
    #[error("cart init failed: {0}")]
    Init(String),
    /// The cart panicked: the engine is paused, and stays so until a replay from the start
    /// (see [`Engine::cart_panic`]).
    #[error(transparent)]
    Panicked(#[from] CartPanic),
    /// A host frequency outside [`MIN_HOST_HZ`]..=[`MAX_HOST_HZ`].
    #[error(
        "host_hz must be from {} to {}, got {}",
        number(MIN_HOST_HZ),
        number(MAX_HOST_HZ),
        number(*.0)
    )]
    HostHz(f64),
    /// The boot save data is longer than a cart's save data holds.
    #[error("boot save data: {0}")]
    Save(#[from] bt::host::SaveTooLarge),
    /// `render_at` with seconds that name no update (see [`tick_at`]).
    #[error("render_at: {0}")]
    Time(TimeError),
    /// A seek would replay more than [`MAX_SEEK_UPDATES`] updates.
    #[error(
        "a seek to update {target} would replay {} updates; one seek replays at most \
         {MAX_SEEK_UPDATES}",
        target - from
    )]
    TooFar {
        /// The update sought.
        target: u64,
        /// The update the seek starts from.
        from: u64,
    },
    /// `step` asked for more than [`MAX_SEEK_UPDATES`] updates.
    #[error("step {0} updates: one step runs at most {MAX_SEEK_UPDATES}")]
    Steps(u64),
    /// Going back to a snapshot failed ([`Engine::rewind`]).
    #[error(transparent)]
    Snapshot(#[from] super::snapshot::SnapshotError),
}

/// Options a host gives the engine on top of the cart's own settings.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineOptions {
    /// The random seed; `None` takes the cart's settings, then 0.
    pub seed: Option<u64>,
    /// Overrides the cart's `target_fps`.
    pub target_fps: Option<f64>,
    /// Host ticks per second for [`Engine::advance`] (simulated host time). Default 60.
    pub host_hz: f64,
    /// Whether the overlay exists (when the cart's settings allow it). Default `true`.
    pub overlay: bool,
    /// Cart arguments as `(name, value)` pairs, read by the cart with `Update::arg`.
    pub args: Vec<(String, String)>,
    /// Settings to run with instead of the cart's `configure()`: a host that layers a
    /// manifest, the user's config and its command line over the cart's own (see
    /// [`crate::config::manifest::resolve`]) passes the result here. `seed` and `target_fps` above
    /// still override it.
    pub settings: Option<Settings>,
    /// The cart's asset folder: relative paths in `Update::load_image` are looked up there.
    /// `None` uses the working directory.
    pub assets: Option<PathBuf>,
    /// The cart's asset folder carried in memory (a web page's): when set, the cart's files
    /// are read from it instead of [`EngineOptions::assets`].
    pub packed_assets: Option<Arc<crate::config::asset_pack::AssetPack>>,
    /// A replay to play: each update sees the recorded input instead of live input until the
    /// replay runs out, and the frame is hashed where the replay has hashes. The caller sets
    /// `seed` and `args` to the replay's and checks it fits ([`Replay::check`]).
    pub replay: Option<Arc<Replay>>,
    /// The save data the cart boots with (at most [`bt::SaveData::CAPACITY`] bytes; zeros
    /// after them). `None` takes the replay's ([`Replay::boot_save`]) when one plays, else
    /// empty save data. A replay from the start boots with the same.
    pub save: Option<Vec<u8>>,
    /// Bytes the engine's snapshots may hold ([`DEFAULT_SNAPSHOT_BUDGET`] by default); 0 keeps
    /// none, so every seek behind replays from boot and [`Engine::rewind`] is refused.
    pub snapshot_budget: usize,
    /// Whether the post-process stack runs ([`bt::Effect`]); the player may turn it off.
    /// Default `true`.
    pub effects: bool,
    /// Whether the player prefers reduced motion as the run boots
    /// ([`bt::Update::prefers_reduced_motion`]; `bt run --reduced-motion`). With a replay, the
    /// recorded run's ([`crate::replay::ReplayInfo::reduced_motion`]) instead. Default `false`.
    pub reduced_motion: bool,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            seed: None,
            target_fps: None,
            host_hz: 60.0,
            overlay: true,
            args: Vec::new(),
            settings: None,
            assets: None,
            packed_assets: None,
            replay: None,
            save: None,
            snapshot_budget: DEFAULT_SNAPSHOT_BUDGET,
            effects: true,
            reduced_motion: false,
        }
    }
}

/// What one delivered frame did, as the engine hands it to its host.
///
/// The fixed-step loop's [`FrameTiming`](crate::FrameTiming) is filed into it once:
/// `render_alpha` here, the update count and the cap's loss in [`FrameStats`], beside the clock's
/// delta, the tick counter and the measured times. The overlay records that same [`FrameStats`],
/// so a frame's figures are written down once.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameReport {
    /// The frame's number, from 0.
    pub frame: u64,
    /// How far the leftover time reaches into the next update, in `[0, 1)`: what the cart's
    /// `render` saw.
    pub render_alpha: f64,
    /// The frame's measurements: updates run, time the cap threw away, the clock's delta
    /// (before the snap), the tick counter after the frame, wall times and drawing calls.
    pub stats: FrameStats,
}
