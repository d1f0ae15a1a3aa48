//! The host side: what sits between a platform and the [`Engine`](crate::Engine).
//!
//! [`Host`] runs one engine for a platform: it takes the platform's [`HostEvent`]s and, once per
//! displayed frame, runs the engine; it keeps the host keys and the pause menu, and tells the
//! platform what to do ([`HostAction`]), the files to keep included ([`HostAction::Save`]), so
//! the host keys are the same in a window and in a page. It writes no file: what a run keeps on
//! disk as it goes (a recording, the cart's save data) it hands to the platform too
//! ([`persist`]). [`input`] turns events into the
//! console's input, [`captures`] is where the window keeps the files, and the rest: key maps,
//! watching a cart's files, and, with the `window` feature, the `bt run` window with its live
//! sound, F10 GIF recording and signal handling.

pub mod asset_watch;
#[cfg(feature = "files")]
pub mod captures;
#[cfg(feature = "files")]
pub mod gif_recorder;
pub mod input;
pub mod keymap;
pub mod live_sound;
pub mod notice;
pub mod pause_menu;
pub mod persist;
mod runner;
#[cfg(feature = "window")]
pub mod signals;
#[cfg(feature = "window")]
pub mod window;

pub use input::{HostEvent, TouchPhase};
pub use persist::{Persist, PersistKind};
pub use runner::{
    rewind_speed, Host, HostAction, SaveFile, SaveKind, LOAD_STATE_KEY, RECENT_TIMINGS_MS,
    RECORD_SAVE_EVERY_FRAMES, REWIND_KEY, REWIND_TOP_SPEED, SAVE_STATE_KEY,
};
