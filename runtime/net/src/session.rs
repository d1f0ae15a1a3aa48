//! [`NetSession`]: one peer of a rollback session. It owns the peer's [`Engine`] and, once
//! the handshake agreed, a GGRS session; each frame it takes the local player's input, does
//! what GGRS asks (save, load, update), and draws the newest state once.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::time::Duration;

use bt::limits::PLAYERS;
use bt_engine::engine::RollbackState;
use bt_engine::replay::Replay;
use bt_engine::{Engine, EngineError};
use ggrs::{
    DesyncDetection, GgrsEvent, GgrsRequest, P2PSession, PlayerType, SessionBuilder, SessionState,
};
use thiserror::Error;

use crate::handshake::{Contact, Expect, Handshake, Role, RunTerms};
use crate::heard::Heard;
use crate::input::{combine, HoldButtons, PlayerInput};
use crate::link::{GgrsSocket, Link, Shared};

/// Frames of input delay by default: 2 frames (33 ms at 60 updates a second) hide most of a
/// short link's latency, so fewer updates are predicted and rolled back, and stay below what
/// players notice in a button's response.
pub const DEFAULT_INPUT_DELAY: usize = 2;

/// The prediction window by default: at most 8 updates run ahead of the last confirmed one
/// (GGRS's own default). Past it the session waits rather than predicts; a rollback redoes at
/// most this many updates in one frame, which is the worst case a frame's budget must hold.
pub const DEFAULT_MAX_PREDICTION: usize = 8;

/// How long a peer may stay silent before the session ends: 3 s, past the hiccups of a
/// wireless link, short enough that a player left alone is told soon.
pub const DEFAULT_DISCONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a peer stays silent before the session says it is waiting for it: 500 ms.
pub const DEFAULT_DISCONNECT_NOTICE: Duration = Duration::from_millis(500);

/// How long the handshake and GGRS's synchronisation may take before the session gives up on
/// a peer that never answers: 10 s, time to start the other side by hand.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a session is played with. [`NetSettings::default`] gives the defaults above.
#[derive(Debug, Clone, PartialEq)]
pub struct NetSettings {
    /// Frames the local input waits before it is used ([`DEFAULT_INPUT_DELAY`]).
    pub input_delay: usize,
    /// The most updates predicted ahead of the confirmed input ([`DEFAULT_MAX_PREDICTION`]).
    pub max_prediction: usize,
    /// Silence after which a peer is gone ([`DEFAULT_DISCONNECT_TIMEOUT`]).
    pub disconnect_timeout: Duration,
    /// Silence after which the session notes it is waiting ([`DEFAULT_DISCONNECT_NOTICE`]).
    pub disconnect_notice: Duration,
    /// The longest the handshake and synchronisation may take ([`DEFAULT_HANDSHAKE_TIMEOUT`]).
    pub handshake_timeout: Duration,
    /// Confirmed updates between two frame hashes compared with the peers: 1 compares every
    /// update, so a desync is named at the update it starts.
    pub desync_interval: u32,
    /// Records the run, with a frame hash every so many updates
    /// ([`NetSession::recording_through`]); `None` records nothing.
    pub record_hash_every: Option<u64>,
}

impl Default for NetSettings {
    fn default() -> NetSettings {
        NetSettings {
            input_delay: DEFAULT_INPUT_DELAY,
            max_prediction: DEFAULT_MAX_PREDICTION,
            disconnect_timeout: DEFAULT_DISCONNECT_TIMEOUT,
            disconnect_notice: DEFAULT_DISCONNECT_NOTICE,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            desync_interval: 1,
            record_hash_every: None,
        }
    }
}

/// Who plays in one player slot of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// This peer's own player.
    Local,
    /// The player of the peer at this address.
    Remote(SocketAddr),
    /// The player of a peer whose terms agree, from any address: a host that waits for
    /// friends to join does not know their addresses. Joiners take these seats in order of
    /// arrival.
    Joiner,
}

/// Why a session could not start or stopped. Each is one line naming the value at fault.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum NetError {
    /// The seats make no session: no local player, two, or more players than the console has.
    #[error("{0}")]
    Seats(String),
    /// The engine has run updates already: a session starts right after `init`.
    #[error("a session starts from boot; this engine is at update {0}")]
    NotFresh(u64),
    /// A peer's run differs from this one.
    #[error("refused the peer at {peer}: it plays {difference}")]
    Refused {
        /// The peer.
        peer: SocketAddr,
        /// The first difference, with both values.
        difference: String,
    },
    /// Not every [`Seat::Joiner`] was taken in time.
    #[error("{} joined within {}s", joined_of(*joined, *wanted), timeout.as_secs_f64())]
    NoJoiner {
        /// How long the session waited.
        timeout: Duration,
        /// Seats taken.
        joined: usize,
        /// Seats waiting for a joiner.
        wanted: usize,
    },
    /// The host asked has no place for this peer: its seats are taken, or it has started.
    #[error("the game at {peer} turned this peer away: {reason}")]
    TurnedAway {
        /// The host.
        peer: SocketAddr,
        /// Why, as the host said it.
        reason: String,
    },
    /// A peer never completed the handshake.
    #[error("no answer from the peer at {peer} within {}s; is it started, and at that address?", timeout.as_secs_f64())]
    NoAnswer {
        /// The peer.
        peer: SocketAddr,
        /// How long the session waited.
        timeout: Duration,
    },
    /// A peer stopped answering while playing.
    #[error("the peer at {peer} stopped answering ({}s without a packet); the session ended after update {update}", timeout.as_secs_f64())]
    Gone {
        /// The peer.
        peer: SocketAddr,
        /// The silence that ended it.
        timeout: Duration,
        /// The last update run here.
        update: u64,
    },
    /// The peers' runs differ: the frame hashes after one update disagree.
    #[error("the peer at {peer} and this one differ after update {update} (frame hash {theirs:016x} there, {ours:016x} here)")]
    Desync {
        /// The first update compared whose hashes differ.
        update: u64,
        /// The peer.
        peer: SocketAddr,
        /// The hash here.
        ours: u64,
        /// The peer's hash.
        theirs: u64,
    },
    /// The cart quit (`Update::quit`): a session plays no update after.
    #[error("the cart quit after update {0}; the session ends there")]
    CartQuit(u64),
    /// GGRS refused a request or stopped on a message it could not take.
    #[error("the rollback protocol stopped: {0}")]
    Protocol(String),
    /// The engine failed: the cart panicked, or cannot be copied.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Where a session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Telling the peers this run's terms and hearing theirs.
    Handshake,
    /// Terms agreed; GGRS measures the link before the first update.
    Synchronizing,
    /// Updates run.
    Running,
}

/// What one frame did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameWork {
    /// Updates run, counting those run again after a rollback.
    pub updates: u32,
    /// Updates undone by a rollback this frame (0: none).
    pub rolled_back: u64,
    /// Whether the local input given was taken, for the update [`NetSettings::input_delay`]
    /// frames on. It is not during the handshake and synchronisation, nor while the prediction
    /// window is full (the session then waits for the peers): hand the same input over again,
    /// so no press is lost.
    pub input_taken: bool,
}

/// What a session has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NetStats {
    /// Rollbacks: loads of an earlier state after a misprediction.
    pub rollbacks: u64,
    /// The most updates one rollback undid.
    pub deepest_rollback: u64,
    /// Updates run again after rollbacks.
    pub resimulated: u64,
    /// Frames the session waited with a full prediction window (no new update ran).
    pub stalls: u64,
    /// Packets dropped: malformed (truncated, corrupted, of another program), or from an
    /// address not in the session once it plays.
    pub dropped_packets: u64,
    /// Peers answered and turned away: another run, no free seat, or too late.
    pub turned_away: u64,
    /// Times a peer went quiet for [`NetSettings::disconnect_notice`].
    pub interruptions: u64,
}

/// The link to the other player now, as GGRS measures it ([`NetPeer::link`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkStats {
    /// The round trip to the other peer, in milliseconds.
    pub ping_ms: u64,
    /// Updates this peer runs ahead of the other (negative: behind). GGRS's time sync: a
    /// peer ahead slows down a little until they are level.
    pub frames_ahead: i32,
}

/// The GGRS configuration of a BT session.
#[derive(Debug)]
pub struct BtConfig;

impl ggrs::Config for BtConfig {
    type Input = PlayerInput;
    type InputPredictor = HoldButtons;
    type State = RollbackState;
    type Address = SocketAddr;
}

/// One peer of a rollback session: an engine, the link to the other peers, and GGRS.
pub struct NetSession {
    engine: Engine,
    peer: NetPeer,
}

/// A session's peer without its engine ([`NetSession::into_parts`]): the link, the handshake
/// and GGRS. A host that keeps the engine itself (a window's) hands it to
/// [`NetPeer::advance_frame`] every frame: always the engine the session was made with.
pub struct NetPeer {
    shared: Rc<RefCell<Shared>>,
    ggrs: Option<P2PSession<BtConfig>>,
    settings: NetSettings,
    handshake: Handshake,
    /// The local player's slot: a joiner's is its seat, known once the session starts.
    local: usize,
    /// Each remote player's slot and address, and each spectator's address: the handshake's
    /// contacts when the session starts.
    remotes: Vec<(usize, SocketAddr)>,
    spectators: Vec<SocketAddr>,
    stats: NetStats,
    stopped: Option<NetError>,
    /// Sound of updates run for the first time, until taken.
    heard: Heard,
}

/// Readies `engine`, fresh from `init`, for a session: recording if `settings` say so.
///
/// # Errors
/// [`NetError::NotFresh`] for an engine that has run updates.
pub(crate) fn start(engine: &mut Engine, settings: &NetSettings) -> Result<(), NetError> {
    if engine.updates_since_init() != 0 {
        return Err(NetError::NotFresh(engine.updates_since_init()));
    }
    if let Some(every) = settings.record_hash_every {
        engine.start_recording(every);
    }
    Ok(())
}

/// Readies `engine` ([`start`]) for a peer that asks the host at `host` to let it in as `role`
/// (a joiner or a spectator), and makes its handshake: the number of players is the host's,
/// learnt from its first answer.
///
/// # Errors
/// [`NetError::NotFresh`] for an engine that has run updates.
pub(crate) fn asking_host(
    engine: &mut Engine,
    (cart, cart_version): (&str, Option<&str>),
    host: SocketAddr,
    role: Role,
    settings: &NetSettings,
) -> Result<Handshake, NetError> {
    start(engine, settings)?;
    let terms = RunTerms::of(engine, cart, cart_version, 0);
    Ok(Handshake::new(
        terms,
        role,
        [(host, Expect::AnyPlayer)],
        settings.handshake_timeout,
    ))
}

impl NetPeer {
    /// A peer before its handshake, playing player `local` (a joiner's is known later).
    fn new(
        link: Box<dyn Link>,
        settings: NetSettings,
        handshake: Handshake,
        local: usize,
    ) -> NetPeer {
        NetPeer {
            shared: Shared::new(link),
            ggrs: None,
            settings,
            handshake,
            local,
            remotes: Vec::new(),
            spectators: Vec::new(),
            stats: NetStats::default(),
            stopped: None,
            heard: Heard::default(),
        }
    }
}

impl std::fmt::Debug for NetPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetPeer")
            .field("terms", self.handshake.terms())
            .field("local", &self.local)
            .field("phase", &self.phase())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for NetSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetSession")
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

impl NetSession {
    /// A session for `engine` (fresh from `init`), running the cart named `cart` (version
    /// `cart_version`), with one seat per player in player order, over `link`. Nothing is
    /// sent until the first [`NetSession::advance_frame`].
    ///
    /// # Errors
    /// [`NetError::Seats`] unless exactly one seat is local and there are at most
    /// [`PLAYERS`] (two remotes at one address are refused too);
    /// [`NetError::NotFresh`] for an engine that has run updates.
    pub fn new(
        mut engine: Engine,
        cart: &str,
        cart_version: Option<&str>,
        seats: &[Seat],
        link: Box<dyn Link>,
        settings: NetSettings,
    ) -> Result<NetSession, NetError> {
        if seats.is_empty() || seats.len() > PLAYERS {
            return Err(NetError::Seats(format!(
                "a session has 1 to {PLAYERS} players, not {}",
                seats.len()
            )));
        }
        let locals: Vec<usize> = (0..seats.len())
            .filter(|&i| seats[i] == Seat::Local)
            .collect();
        let &[local] = locals.as_slice() else {
            return Err(NetError::Seats(format!(
                "a session has one local player, not {}",
                locals.len()
            )));
        };
        let mut remotes: Vec<(usize, SocketAddr)> = Vec::new();
        for (player, seat) in seats.iter().enumerate() {
            if *seat == Seat::Joiner {
                remotes.push((player, crate::handshake::UNKNOWN));
            }
            if let Seat::Remote(addr) = *seat {
                if remotes.iter().any(|&(_, a)| a == addr) {
                    return Err(NetError::Seats(format!(
                        "two players at {addr}: one peer plays one player"
                    )));
                }
                remotes.push((player, addr));
            }
        }
        start(&mut engine, &settings)?;
        let terms = RunTerms::of(&engine, cart, cart_version, seats.len());
        let contacts = remotes
            .iter()
            .map(|&(player, addr)| (addr, Expect::Role(Role::Player(player))));
        let handshake = Handshake::new(
            terms,
            Role::Player(local),
            contacts,
            settings.handshake_timeout,
        );
        let peer = NetPeer::new(link, settings, handshake, local);
        Ok(NetSession { engine, peer })
    }

    /// A session for `engine` (fresh from `init`), running the cart named `cart` (version
    /// `cart_version`), that joins the host at `host`: a session whose other seats wait for
    /// anyone ([`Seat::Joiner`]). The host gives this peer the next free seat and tells it how
    /// many play and where the other players are, once every seat is taken.
    ///
    /// # Errors
    /// [`NetError::NotFresh`] for an engine that has run updates.
    pub fn join(
        mut engine: Engine,
        cart: &str,
        cart_version: Option<&str>,
        host: SocketAddr,
        link: Box<dyn Link>,
        settings: NetSettings,
    ) -> Result<NetSession, NetError> {
        let handshake = asking_host(
            &mut engine,
            (cart, cart_version),
            host,
            Role::Joiner,
            &settings,
        )?;
        let peer = NetPeer::new(link, settings, handshake, 0);
        Ok(NetSession { engine, peer })
    }

    /// Lets spectators ([`crate::NetSpectator`]) watch through this peer from any address,
    /// up to [`crate::MAX_SPECTATORS`], as long as they ask before the session starts: a
    /// host's. It sends them every confirmed input; one that comes later is turned away.
    pub fn open_to_spectators(mut self) -> NetSession {
        self.peer.handshake.open_to_spectators();
        self
    }

    /// Lets the peers at `spectators` watch through this peer: it sends them every
    /// confirmed input ([`crate::NetSpectator`] is the other end). The session waits for them
    /// in the handshake as for the players. Call it before the first frame.
    ///
    /// # Errors
    /// [`NetError::Seats`] for an address that already plays or watches, or once the session
    /// has started.
    pub fn with_spectators(mut self, spectators: &[SocketAddr]) -> Result<NetSession, NetError> {
        if self.peer.ggrs.is_some() {
            return Err(NetError::Seats(
                "spectators join before the session starts".to_string(),
            ));
        }
        for &addr in spectators {
            let taken = self.peer.handshake.contacts.iter().any(|c| c.addr == addr);
            if taken {
                return Err(NetError::Seats(format!(
                    "{addr} is in the session already: one peer plays or watches once"
                )));
            }
            self.peer
                .handshake
                .contacts
                .push(Contact::new(addr, Expect::Role(Role::Spectator)));
        }
        Ok(self)
    }
    /// One frame: hands `input` over as the local player's input for the next update, does
    /// what the protocol asks (the handshake, then GGRS's saves, loads and updates), and draws
    /// the newest state once ([`Engine::show`]).
    ///
    /// While the prediction window is full the frame runs no new update and the input given
    /// is not taken ([`FrameWork::input_taken`]): hand it over again.
    ///
    /// # Errors
    /// Any [`NetError`] ends the session: every later call returns the same error.
    pub fn advance_frame(&mut self, input: PlayerInput) -> Result<FrameWork, NetError> {
        self.peer.advance_frame(&mut self.engine, input)
    }

    /// Where the session is.
    pub fn phase(&self) -> Phase {
        self.peer.phase()
    }

    /// Updates whose every player's input is known here, so they are final: the same on
    /// every peer.
    pub fn confirmed_updates(&self) -> u64 {
        self.peer.confirmed_updates(&self.engine)
    }

    /// The run recorded ([`NetSettings::record_hash_every`]) from boot through update
    /// `updates`, or through the last confirmed update if that is earlier: the input every
    /// player gave, and the frame hashes. `None` when the session records nothing.
    pub fn recording_through(&self, updates: u64) -> Option<Replay> {
        self.peer.recording_through(&self.engine, updates)
    }

    /// The sound of the updates run since the last call, each update heard once: an update
    /// run again after a rollback was heard when first run (as predicted) and adds nothing.
    pub fn drain_sound(&mut self) -> std::vec::Drain<'_, bt::sound::Frame> {
        self.peer.drain_sound()
    }

    /// The engine, to read (its framebuffer, as last shown).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// This run's terms, as told to the peers.
    pub fn terms(&self) -> &RunTerms {
        self.peer.terms()
    }

    /// What the session has done so far.
    pub fn stats(&self) -> NetStats {
        self.peer.stats()
    }

    /// The local player's slot (0 for player one).
    pub fn local_player(&self) -> usize {
        self.peer.local_player()
    }

    /// The peer without its engine, to ask what only it knows (its players, spectators and
    /// the peers it keeps).
    pub fn peer(&self) -> &NetPeer {
        &self.peer
    }

    /// The engine and the peer apart, for a host that keeps the engine itself: it hands the
    /// engine to [`NetPeer::advance_frame`] each frame.
    pub fn into_parts(self) -> (Engine, NetPeer) {
        (self.engine, self.peer)
    }
}

impl NetPeer {
    /// One frame of `engine` (the session's own, [`NetSession::into_parts`]): hands `input` over as the local player's input for the next update, does
    /// what the protocol asks (the handshake, then GGRS's saves, loads and updates), and draws
    /// the newest state once ([`Engine::show`]).
    ///
    /// While the prediction window is full the frame runs no new update and the input given
    /// is not taken ([`FrameWork::input_taken`]): hand it over again.
    ///
    /// # Errors
    /// Any [`NetError`] ends the session: every later call returns the same error.
    pub fn advance_frame(
        &mut self,
        engine: &mut Engine,
        input: PlayerInput,
    ) -> Result<FrameWork, NetError> {
        if let Some(error) = &self.stopped {
            return Err(error.clone());
        }
        let result = self.frame(engine, input);
        self.stats.dropped_packets = self.shared.borrow().dropped;
        self.stats.turned_away = self.handshake.turned_away;
        match result {
            Ok(work) => Ok(work),
            Err(error) => {
                self.stopped = Some(error.clone());
                Err(error)
            }
        }
    }

    fn frame(&mut self, engine: &mut Engine, input: PlayerInput) -> Result<FrameWork, NetError> {
        if self.ggrs.is_none() {
            // Before GGRS runs the session reads the link itself (GGRS's early messages are
            // dropped: it sends them again); afterwards GGRS's socket reads it and keeps the
            // hellos aside.
            self.shared.borrow_mut().pump();
        }
        self.handshake.read(&self.shared)?;
        if self.ggrs.is_none() {
            if self.handshake.done() {
                self.start_ggrs()?;
            } else {
                self.handshake.check_time()?;
                self.handshake.send(&self.shared);
                engine.show()?;
                return Ok(FrameWork::default());
            }
        }
        let Some(ggrs) = self.ggrs.as_mut() else {
            return Ok(FrameWork::default());
        };
        let mut work = FrameWork::default();
        guard(|| ggrs.poll_remote_clients())?;
        if ggrs.current_state() == SessionState::Running {
            // GGRS takes a frame's local input even when its window is full, and drops the
            // next one given for that frame; asked first, the window decides before any is
            // given. Confirmed input only grows while GGRS polls again, so it agrees.
            let current = ggrs.current_frame();
            let confirmed = ggrs.confirmed_frame();
            let ahead = if confirmed == ggrs::NULL_FRAME {
                current
            } else {
                current - confirmed
            };
            if ahead >= self.settings.max_prediction as i32 {
                self.stats.stalls += 1;
            } else {
                ggrs.add_local_input(self.local, input)
                    .map_err(|e| NetError::Protocol(e.to_string()))?;
                match guard(|| ggrs.advance_frame())? {
                    Ok(requests) => work = self.fulfil(engine, requests)?,
                    Err(e) => return Err(NetError::Protocol(e.to_string())),
                }
                work.input_taken = true;
            }
        }
        self.handle_events(engine)?;
        if self.phase() != Phase::Running {
            self.handshake.check_time()?;
        }
        engine.show()?;
        Ok(work)
    }

    /// Does GGRS's requests in order: saves with the frame hash as the checksum, loads, and
    /// updates with every player's input.
    fn fulfil(
        &mut self,
        engine: &mut Engine,
        requests: Vec<GgrsRequest<BtConfig>>,
    ) -> Result<FrameWork, NetError> {
        let mut work = FrameWork::default();
        let mut advanced = false;
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let updates = engine.updates_since_init();
                    if i64::from(frame) != updates as i64 {
                        return Err(NetError::Protocol(format!(
                            "asked to save update {frame} at update {updates}"
                        )));
                    }
                    let state = engine.save_rollback_state()?;
                    let hash = engine.state_hash()?;
                    cell.save(frame, Some(state), Some(u128::from(hash)));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let from = engine.updates_since_init();
                    let Some(state) = cell.data() else {
                        return Err(NetError::Protocol(format!(
                            "asked to load update {frame}, which was never saved"
                        )));
                    };
                    engine.load_rollback_state(&state)?;
                    let depth = from.saturating_sub(state.updates());
                    work.rolled_back = depth;
                    self.stats.rollbacks += 1;
                    self.stats.deepest_rollback = self.stats.deepest_rollback.max(depth);
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    if let Some(at) = engine.quit_at() {
                        return Err(NetError::CartQuit(at));
                    }
                    engine.update_with(&combine(&inputs))?;
                    self.take_sound(engine);
                    work.updates += 1;
                    advanced = true;
                }
            }
        }
        self.stats.resimulated += work.rolled_back;
        if !advanced {
            // GGRS found its window full after all: the input is queued for the update.
            self.stats.stalls += 1;
        }
        Ok(work)
    }

    /// Keeps the sound of an update run for the first time; an update run again after a
    /// rollback was heard already, as first predicted, and its sound now goes (the next new
    /// update's is joined to what was heard: [`crate::heard`]).
    fn take_sound(&mut self, engine: &mut Engine) {
        let update = engine.updates_since_init();
        let console = engine.console_mut();
        let rate = console.sample_rate();
        self.heard.take(update, console.drain_frames(), rate);
    }

    fn handle_events(&mut self, engine: &Engine) -> Result<(), NetError> {
        let Some(ggrs) = self.ggrs.as_mut() else {
            return Ok(());
        };
        let update = engine.updates_since_init();
        let events: Vec<GgrsEvent<BtConfig>> = ggrs.events().collect();
        for event in events {
            match event {
                // A spectator that leaves takes nothing from the players' run.
                GgrsEvent::Disconnected { addr } if self.spectators.contains(&addr) => {}
                GgrsEvent::Disconnected { addr } => {
                    return Err(NetError::Gone {
                        peer: addr,
                        timeout: self.settings.disconnect_timeout,
                        update,
                    });
                }
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    addr,
                } => {
                    return Err(NetError::Desync {
                        update: u64::try_from(frame).unwrap_or(0),
                        peer: addr,
                        ours: local_checksum as u64,
                        theirs: remote_checksum as u64,
                    });
                }
                GgrsEvent::NetworkInterrupted { .. } => self.stats.interruptions += 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn start_ggrs(&mut self) -> Result<(), NetError> {
        // Every seat's address is known now, and a joiner's own seat: the handshake's contacts
        // are the other players and the spectators that answered.
        self.handshake.close();
        if let Role::Player(local) = self.handshake.role() {
            self.local = local;
        }
        self.remotes.clear();
        self.spectators.clear();
        for contact in &self.handshake.contacts {
            match contact.role {
                Some(Role::Player(player)) => self.remotes.push((player, contact.addr)),
                Some(Role::Spectator) => self.spectators.push(contact.addr),
                _ => {}
            }
        }
        self.remotes.sort_unstable();
        {
            let mut shared = self.shared.borrow_mut();
            shared.peers = self.remotes.iter().map(|&(_, a)| a).collect();
            shared.peers.extend(&self.spectators);
        }
        let players = self.players();
        let protocol = |e: ggrs::GgrsError| NetError::Protocol(e.to_string());
        let fps = ggrs_fps(self.handshake.terms().target_fps);
        let mut builder = SessionBuilder::<BtConfig>::new()
            .with_num_players(players)
            .map_err(protocol)?
            .with_input_delay(self.settings.input_delay)
            .with_max_prediction_window(self.settings.max_prediction)
            .with_desync_detection_mode(DesyncDetection::On {
                interval: self.settings.desync_interval.max(1),
            })
            .with_disconnect_timeout(self.settings.disconnect_timeout)
            .with_disconnect_notify_delay(self.settings.disconnect_notice)
            .with_fps(fps)
            .map_err(protocol)?
            .add_player(PlayerType::Local, self.local)
            .map_err(protocol)?;
        for &(player, addr) in &self.remotes {
            builder = builder
                .add_player(PlayerType::Remote(addr), player)
                .map_err(protocol)?;
        }
        for (i, &addr) in self.spectators.iter().enumerate() {
            builder = builder
                .add_player(PlayerType::Spectator(addr), players + i)
                .map_err(protocol)?;
        }
        self.shared.borrow_mut().ggrs_running = true;
        let session = builder
            .start_p2p_session(GgrsSocket(self.shared.clone()))
            .map_err(protocol)?;
        self.ggrs = Some(session);
        Ok(())
    }

    /// Where the session is.
    pub fn phase(&self) -> Phase {
        match &self.ggrs {
            None => Phase::Handshake,
            Some(g) if g.current_state() == SessionState::Synchronizing => Phase::Synchronizing,
            Some(_) => Phase::Running,
        }
    }

    /// Updates whose every player's input is known here, so they are final: the same on
    /// every peer.
    pub fn confirmed_updates(&self, engine: &Engine) -> u64 {
        let Some(ggrs) = &self.ggrs else {
            return 0;
        };
        // Input for frame `f` is that of update `f + 1`.
        let confirmed = u64::try_from(i64::from(ggrs.confirmed_frame()) + 1).unwrap_or(0);
        confirmed.min(engine.updates_since_init())
    }

    /// The run recorded ([`NetSettings::record_hash_every`]) from boot through update
    /// `updates`, or through the last confirmed update if that is earlier: the input every
    /// player gave, and the frame hashes. `None` when the session records nothing.
    pub fn recording_through(&self, engine: &Engine, updates: u64) -> Option<Replay> {
        let through = updates.min(self.confirmed_updates(engine));
        recording_through(engine, self.handshake.terms(), through)
    }

    /// The sound of the updates run since the last call, each update heard once: an update
    /// run again after a rollback was heard when first run (as predicted) and adds nothing.
    pub fn drain_sound(&mut self) -> std::vec::Drain<'_, bt::sound::Frame> {
        self.heard.drain()
    }

    /// This run's terms, as told to the peers.
    pub fn terms(&self) -> &RunTerms {
        self.handshake.terms()
    }

    /// What the session has done so far.
    pub fn stats(&self) -> NetStats {
        self.stats
    }

    /// The local player's slot (0 for player one); a joiner's is known once the session
    /// has started.
    pub fn local_player(&self) -> usize {
        self.local
    }

    /// Players in the session; 0 for a joiner its host has not answered yet.
    pub fn players(&self) -> usize {
        self.handshake.terms().players
    }

    /// Spectators watching through this peer, once the session has started.
    pub fn spectators(&self) -> usize {
        self.spectators.len()
    }

    /// Peers this one keeps state for: the players and spectators in the session, or asking
    /// in. At most the seats and [`crate::MAX_SPECTATORS`], whatever strangers send.
    pub fn known_peers(&self) -> usize {
        self.handshake.contacts.len()
    }

    /// Seats waiting for joiners, and how many of them are taken.
    pub fn joined(&self) -> (usize, usize) {
        let (seats, free) = self.handshake.joiner_seats();
        (seats - free, seats)
    }

    /// The last peer turned away since the last call, as one line naming it and why.
    pub fn take_turned_away(&mut self) -> Option<String> {
        self.handshake.last_turned_away.take()
    }

    /// The link to the first remote player while the session runs; `None` before, or for a
    /// session of one player.
    pub fn link(&self) -> Option<LinkStats> {
        let ggrs = self.ggrs.as_ref()?;
        let &(player, _) = self.remotes.first()?;
        let stats = ggrs.network_stats(player).ok()?;
        Some(LinkStats {
            ping_ms: u64::try_from(stats.ping).unwrap_or(u64::MAX),
            frames_ahead: ggrs.frames_ahead(),
        })
    }
}

/// "nobody" or "1 of 3 players", for [`NetError::NoJoiner`].
fn joined_of(joined: usize, wanted: usize) -> String {
    if joined == 0 {
        "nobody".to_string()
    } else {
        format!("only {joined} of the {wanted} players")
    }
}

/// The update rate GGRS is told (it paces nothing: it sizes its wait helpers): the cart's,
/// rounded, at least 1.
pub(crate) fn ggrs_fps(target_fps: f64) -> usize {
    target_fps.round().max(1.0) as usize
}

/// `engine`'s recording from boot through update `through`, with the frame hashes to there.
pub(crate) fn recording_through(engine: &Engine, terms: &RunTerms, through: u64) -> Option<Replay> {
    let whole = engine.recording(&terms.cart, terms.cart_version.as_deref())?;
    Some(whole.through(through))
}

/// Runs a call into GGRS, turning a panic (an assertion a malformed message tripped) into an
/// error that ends the session instead of the program.
pub(crate) fn guard<R>(call: impl FnOnce() -> R) -> Result<R, NetError> {
    panic::catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        NetError::Protocol(message)
    })
}
