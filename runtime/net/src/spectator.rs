//! [`NetSpectator`]: a peer that watches a session. One player's peer (its host) sends it
//! every confirmed input, as a GGRS spectator session; it plays them, never guessing, so it
//! never rolls back, and runs as far behind the players as the link is slow.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;

use bt_engine::replay::Replay;
use bt_engine::Engine;
use ggrs::{GgrsError, GgrsEvent, GgrsRequest, SessionBuilder, SessionState, SpectatorSession};

use crate::handshake::{Handshake, Role};
use crate::heard::Heard;
use crate::input::combine;
use crate::link::{GgrsSocket, Link, Shared};
use crate::session::{
    asking_host, ggrs_fps, guard, recording_through, BtConfig, NetError, NetSettings, Phase,
};

/// A peer watching a session through one player's peer, its host
/// ([`crate::NetSession::open_to_spectators`] or [`crate::NetSession::with_spectators`] on the
/// host's side).
pub struct NetSpectator {
    engine: Engine,
    watch: SpectatorPeer,
}

/// A spectator without its engine ([`NetSpectator::into_parts`]): the link, the handshake and
/// GGRS. A host that keeps the engine itself (a window's) hands it to
/// [`SpectatorPeer::advance_frame`] every frame: always the engine the spectator was made with.
pub struct SpectatorPeer {
    shared: Rc<RefCell<Shared>>,
    ggrs: Option<SpectatorSession<BtConfig>>,
    handshake: Handshake,
    host: SocketAddr,
    settings: NetSettings,
    stopped: Option<NetError>,
    /// Sound of the updates run, until taken.
    heard: Heard,
}

impl std::fmt::Debug for NetSpectator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetSpectator")
            .field("watch", &self.watch)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for SpectatorPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpectatorPeer")
            .field("host", &self.host)
            .field("terms", self.handshake.terms())
            .field("phase", &self.phase())
            .finish_non_exhaustive()
    }
}

impl NetSpectator {
    /// A spectator for `engine` (fresh from `init`) of the cart `cart` (version
    /// `cart_version`), watching through the peer at `host` over `link`; the host says how
    /// many play. Of `settings`, the disconnect and handshake times and the recording apply.
    ///
    /// # Errors
    /// [`NetError::NotFresh`] for an engine that has run updates.
    pub fn new(
        mut engine: Engine,
        cart: &str,
        cart_version: Option<&str>,
        host: SocketAddr,
        link: Box<dyn Link>,
        settings: NetSettings,
    ) -> Result<NetSpectator, NetError> {
        let handshake = asking_host(
            &mut engine,
            (cart, cart_version),
            host,
            Role::Spectator,
            &settings,
        )?;
        let watch = SpectatorPeer {
            shared: Shared::new(link),
            ggrs: None,
            handshake,
            host,
            settings,
            stopped: None,
            heard: Heard::default(),
        };
        Ok(NetSpectator { engine, watch })
    }

    /// One frame: the handshake with the host, then the updates whose input has come (one a
    /// frame), and the newest state drawn once. Returns how many updates ran.
    ///
    /// # Errors
    /// Any [`NetError`] ends the watch: every later call returns the same error.
    pub fn advance_frame(&mut self) -> Result<u32, NetError> {
        self.watch.advance_frame(&mut self.engine)
    }

    /// Where the watch is.
    pub fn phase(&self) -> Phase {
        self.watch.phase()
    }

    /// Updates run: every one final, since a spectator plays only confirmed input.
    pub fn updates(&self) -> u64 {
        self.engine.updates_since_init()
    }

    /// The run recorded ([`NetSettings::record_hash_every`]) from boot through update
    /// `updates`, or as far as it has run. `None` when nothing is recorded.
    pub fn recording_through(&self, updates: u64) -> Option<Replay> {
        self.watch.recording_through(&self.engine, updates)
    }

    /// The sound of the updates run since the last call.
    pub fn drain_sound(&mut self) -> std::vec::Drain<'_, bt::sound::Frame> {
        self.watch.drain_sound()
    }

    /// The engine, to read (its framebuffer, as last shown).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine and the spectator apart, for a host that keeps the engine itself: it hands
    /// the engine to [`SpectatorPeer::advance_frame`] each frame.
    pub fn into_parts(self) -> (Engine, SpectatorPeer) {
        (self.engine, self.watch)
    }
}

impl SpectatorPeer {
    /// One frame of `engine` (the spectator's own, [`NetSpectator::into_parts`]): the
    /// handshake with the host, then the updates whose input has come (one a frame), and the
    /// newest state drawn once. Returns how many updates ran.
    ///
    /// # Errors
    /// Any [`NetError`] ends the watch: every later call returns the same error.
    pub fn advance_frame(&mut self, engine: &mut Engine) -> Result<u32, NetError> {
        if let Some(error) = &self.stopped {
            return Err(error.clone());
        }
        let result = self.frame(engine);
        if let Err(error) = &result {
            self.stopped = Some(error.clone());
        }
        result
    }

    fn frame(&mut self, engine: &mut Engine) -> Result<u32, NetError> {
        if self.ggrs.is_none() {
            self.shared.borrow_mut().pump();
        }
        self.handshake.read(&self.shared)?;
        if self.ggrs.is_none() {
            if !self.handshake.done() {
                self.handshake.check_time()?;
                self.handshake.send(&self.shared);
                engine.show()?;
                return Ok(0);
            }
            self.start_ggrs()?;
        }
        let Some(ggrs) = self.ggrs.as_mut() else {
            return Ok(0);
        };
        let mut updates = 0;
        match guard(|| ggrs.advance_frame())? {
            Ok(requests) => {
                for request in requests {
                    if let GgrsRequest::AdvanceFrame { inputs } = request {
                        if let Some(at) = engine.quit_at() {
                            return Err(NetError::CartQuit(at));
                        }
                        engine.update_with(&combine(&inputs))?;
                        let update = engine.updates_since_init();
                        let console = engine.console_mut();
                        let rate = console.sample_rate();
                        self.heard.take(update, console.drain_frames(), rate);
                        updates += 1;
                    }
                }
            }
            // Not synchronised yet, or the host's input for the next update has not come.
            Err(GgrsError::NotSynchronized | GgrsError::PredictionThreshold) => {}
            Err(e) => return Err(NetError::Protocol(e.to_string())),
        }
        let Some(ggrs) = self.ggrs.as_mut() else {
            return Ok(updates);
        };
        let running = ggrs.current_state() == SessionState::Running;
        let events: Vec<GgrsEvent<BtConfig>> = ggrs.events().collect();
        for event in events {
            if let GgrsEvent::Disconnected { addr } = event {
                return Err(NetError::Gone {
                    peer: addr,
                    timeout: self.settings.disconnect_timeout,
                    update: engine.updates_since_init(),
                });
            }
        }
        if !running {
            self.handshake.check_time()?;
        }
        engine.show()?;
        Ok(updates)
    }

    fn start_ggrs(&mut self) -> Result<(), NetError> {
        let protocol = |e: GgrsError| NetError::Protocol(e.to_string());
        let terms = self.handshake.terms();
        // One update a frame at most: GGRS 0.13's catch-up drops the updates before an input
        // that has not come, so it stays off.
        let builder = SessionBuilder::<BtConfig>::new()
            .with_num_players(terms.players)
            .map_err(protocol)?
            .with_disconnect_timeout(self.settings.disconnect_timeout)
            .with_disconnect_notify_delay(self.settings.disconnect_notice)
            .with_fps(ggrs_fps(terms.target_fps))
            .map_err(protocol)?
            .with_catchup_speed(1)
            .map_err(protocol)?;
        {
            let mut shared = self.shared.borrow_mut();
            shared.ggrs_running = true;
            shared.peers = vec![self.host];
        }
        let socket = GgrsSocket(self.shared.clone());
        self.ggrs = Some(builder.start_spectator_session(self.host, socket));
        Ok(())
    }

    /// Where the watch is.
    pub fn phase(&self) -> Phase {
        match &self.ggrs {
            None => Phase::Handshake,
            Some(g) if g.current_state() == SessionState::Synchronizing => Phase::Synchronizing,
            Some(_) => Phase::Running,
        }
    }

    /// Updates the host has confirmed that this spectator has not played yet.
    pub fn updates_behind(&self) -> usize {
        self.ggrs
            .as_ref()
            .filter(|g| g.current_state() == SessionState::Running)
            .map_or(0, SpectatorSession::frames_behind_host)
    }

    /// Players in the session; 0 until the host has answered.
    pub fn players(&self) -> usize {
        self.handshake.terms().players
    }

    /// The run recorded ([`NetSettings::record_hash_every`]) from boot through update
    /// `updates` of `engine`, or as far as it has run. `None` when nothing is recorded.
    pub fn recording_through(&self, engine: &Engine, updates: u64) -> Option<Replay> {
        let through = updates.min(engine.updates_since_init());
        recording_through(engine, self.handshake.terms(), through)
    }

    /// The sound of the updates run since the last call.
    pub fn drain_sound(&mut self) -> std::vec::Drain<'_, bt::sound::Frame> {
        self.heard.drain()
    }

    /// Packets dropped: malformed, or from an address other than the host's.
    pub fn dropped_packets(&self) -> u64 {
        self.shared.borrow().dropped
    }
}
