//! BT's rollback netplay core: [`NetSession`] runs one peer of a session, a BT [`Engine`]
//! driven by a GGRS peer-to-peer session (and [`NetSpectator`] one that watches), after a handshake in which the peers agree on the run
//! ([`RunTerms`]). Packets travel over a [`Link`]: UDP ([`UdpLink`]) or the simulated network
//! of [`sim`], with delay, jitter and loss on a virtual clock, for tests.
//!
//! This crate stands on `bt-engine` alone (the engine's rollback hooks: `update_with`,
//! `save_rollback_state`, `load_rollback_state`, `state_hash`, `show`), below the window,
//! which drives a [`NetPeer`] (or a [`SpectatorPeer`]) over the engine it owns
//! (`bt run --host`, `--join` and `--spectate`);
//! docs/netplay.md says what is built and what is not.
//!
//! [`Engine`]: bt_engine::Engine

#![forbid(unsafe_code)]

mod address;
mod handshake;
mod heard;
mod input;
mod link;
mod rows;
mod session;
#[cfg(feature = "signal")]
pub mod signal;
pub mod sim;
mod spectator;

pub use address::this_machine;
pub use handshake::{RunTerms, MAX_SPECTATORS};
pub use heard::JOIN_MS;
pub use input::{combine, HoldButtons, LocalInput, PlayerInput, AHEAD_STRETCH};
pub use link::{Link, UdpLink, MAX_DATAGRAM};
pub use rows::{NetRows, RATE_WINDOW};
pub use session::{
    BtConfig, FrameWork, LinkStats, NetError, NetPeer, NetSession, NetSettings, NetStats, Phase,
    Seat, DEFAULT_DISCONNECT_NOTICE, DEFAULT_DISCONNECT_TIMEOUT, DEFAULT_HANDSHAKE_TIMEOUT,
    DEFAULT_INPUT_DELAY, DEFAULT_MAX_PREDICTION,
};
pub use spectator::{NetSpectator, SpectatorPeer};

/// `docs/netplay.md`, carried here so rustdoc compiles its example against this crate.
#[doc = include_str!("../../../docs/netplay.md")]
#[doc(hidden)]
pub struct NetplayGuide;
