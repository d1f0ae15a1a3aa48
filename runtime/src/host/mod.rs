//! The host side: what sits between a platform and the [`Engine`](crate::Engine). Input
//! turned into ticks, key maps, watching a cart's files, and, with the `window` feature, the
//! `bt run` window with its live sound, F10 GIF recording and signal handling.

pub mod asset_watch;
#[cfg(feature = "files")]
pub mod gif_recorder;
pub mod input;
pub mod keymap;
pub mod live_sound;
pub mod notice;
pub mod pause_menu;
#[cfg(feature = "window")]
pub mod signals;
#[cfg(feature = "window")]
pub mod window;
