//! Two players, two machines, one game: a window whose frames a rollback session runs
//! (`bt run --host`, `bt run --join`). The session (`bt-net`) keeps to the engine the host
//! owns; each frame hands it this player's buttons, and it runs the updates GGRS asks for and
//! shows the newest state. docs/netplay.md says what a player sees.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use bt::host::Source;
use bt::Player;
use bt_net::{FrameWork, NetPeer, NetSession, NetSettings, PlayerInput, Seat, UdpLink};
use bt_overlay::FrameStats;

use crate::disk::DiskHost;
use crate::engine::Engine;

/// The UDP port `bt run --host` listens on when none is given.
pub const DEFAULT_PORT: u16 = 7000;

/// How long `bt run --host` waits for a friend to join: time to send them the line and for
/// them to start, bounded so a forgotten window does not wait for ever.
pub const HOST_WAIT: Duration = Duration::from_secs(300);

/// Which side of a session this window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetRole {
    /// Waits on this UDP port for a player to join; plays player 1.
    Host {
        /// The port.
        port: u16,
    },
    /// Joins the host at this address; plays player 2.
    Join {
        /// The host's address.
        addr: SocketAddr,
    },
}

/// Rollbacks are counted over this window of time for the overlay's rate: long enough to
/// read, short enough to follow a bad moment.
const RATE_WINDOW: Duration = Duration::from_secs(1);

/// A frame ahead of the other peer is made this much longer, so the two fall level again
/// (GGRS's time sync); a tenth is not felt.
const SLOW_DOWN: f64 = 1.1;

/// The session, the local player's buttons, and when the next frame is due.
pub(crate) struct NetPlay {
    peer: NetPeer,
    /// The input handed over last, handed over again until the session takes it.
    input: PlayerInput,
    /// Whether `input` was taken, so the next frame reads the buttons afresh.
    fresh: bool,
    /// The buttons held at the last event.
    held: u32,
    /// Buttons that went down, and up, since the last input handed over.
    went_down: u32,
    went_up: u32,
    /// One update at the cart's rate.
    interval: Duration,
    /// When the next frame is due.
    due: Option<Instant>,
    /// Rollbacks counted when the rate's window began, and when it began.
    rate_from: (u64, Instant),
    /// Rollbacks in the last whole window.
    rate: u64,
    /// When the last frame ran, for the next one's delta on the overlay's chart.
    charted: Option<Instant>,
}

impl NetPlay {
    /// Binds the link for `role` and makes the session for `engine` (fresh from boot), the
    /// cart `name`; the host prints what to send a friend. Returns the engine, for the
    /// window's host to own, and the session.
    ///
    /// # Errors
    /// One line: the port cannot be bound, or the session cannot be made.
    pub(crate) fn start(
        engine: Engine,
        name: &str,
        version: Option<&str>,
        role: NetRole,
    ) -> Result<(Engine, NetPlay), String> {
        let (bind, seats, wait) = match role {
            NetRole::Host { port } => (
                SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)),
                [Seat::Local, Seat::Joiner],
                HOST_WAIT,
            ),
            NetRole::Join { addr } => {
                let any = if addr.is_ipv6() {
                    SocketAddr::from((std::net::Ipv6Addr::UNSPECIFIED, 0))
                } else {
                    SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
                };
                (
                    any,
                    [Seat::Remote(addr), Seat::Local],
                    bt_net::DEFAULT_HANDSHAKE_TIMEOUT,
                )
            }
        };
        let link = UdpLink::bind(bind).map_err(|e| match role {
            NetRole::Host { port } => {
                format!("--host {port}: cannot listen on UDP port {port}: {e}")
            }
            NetRole::Join { addr } => format!("--join {addr}: cannot open a UDP socket: {e}"),
        })?;
        let fps = engine.settings().target_fps;
        let settings = NetSettings {
            handshake_timeout: wait,
            ..NetSettings::default()
        };
        let session = NetSession::new(engine, name, version, &seats, Box::new(link), settings)
            .map_err(|e| e.to_string())?;
        match role {
            NetRole::Host { port } => println!(
                "waiting up to {}s for a player on UDP port {port}; they run: bt run {name} --join {}:{port}",
                HOST_WAIT.as_secs(),
                this_machine()
            ),
            NetRole::Join { addr } => println!("joining the game at {addr}"),
        }
        let (engine, peer) = session.into_parts();
        // The update rate is at least 0.001 a second: the interval fits a Duration.
        let interval = Duration::from_secs_f64(1.0 / fps);
        Ok((
            engine,
            NetPlay {
                peer,
                input: PlayerInput::default(),
                fresh: true,
                held: 0,
                went_down: 0,
                went_up: 0,
                interval,
                due: None,
                rate_from: (0, Instant::now()),
                rate: 0,
                charted: None,
            },
        ))
    }

    /// Notes the buttons this player holds now, after every event: a tap (down and up again
    /// between two updates) reaches the next update as a press and a release.
    pub(crate) fn observe(&mut self, host: &DiskHost) {
        let input = host.engine().console().input();
        let held = [
            Source::Keyboard,
            Source::Gamepad,
            Source::Pointer,
            Source::Direct,
        ]
        .iter()
        .fold(0, |all, &s| all | input.held_from(s, Player::ONE).bits());
        self.went_down |= held & !self.held;
        self.went_up |= self.held & !held;
        self.held = held;
    }

    /// When the next frame is due; `None` before the first.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.due
    }

    /// One frame at `now`: this player's buttons (player 1's keys and pads, whichever
    /// player this peer plays) to the session, the updates it runs, the sound of the new ones,
    /// and the overlay's rows. Returns the sound to play.
    ///
    /// # Errors
    /// The session's one line when it ends: the other player left, refused this run, or the
    /// runs differ.
    pub(crate) fn frame(
        &mut self,
        host: &mut DiskHost,
        now: Instant,
    ) -> Result<Vec<bt::sound::Frame>, String> {
        if self.fresh {
            self.observe(host);
            let buttons = bt::host::TickButtons {
                down: self.held,
                pressed: std::mem::take(&mut self.went_down),
                released: std::mem::take(&mut self.went_up),
            };
            self.input = PlayerInput::new(buttons, [0.0; bt::limits::AXES], false);
        }
        let (peer, input) = (&mut self.peer, self.input);
        let started = Instant::now();
        let work = host
            .frame_by(|engine| peer.advance_frame(engine, input))
            .map_err(|e| e.to_string())?;
        self.chart(host, &work, now, started.elapsed());
        self.fresh = work.input_taken;
        let confirmed = self.peer.confirmed_updates(host.engine());
        host.confirm_through(confirmed);
        self.schedule(now);
        self.show_rows(host, now);
        Ok(self.peer.drain_sound().collect())
    }

    /// The frame on the overlay's chart, as the engine charts its own: its updates, those run
    /// again after a rollback marked ([`bt_overlay::Overlay::mark_rollback`]), its delta from
    /// the frame before, and the session's work (saves, loads, updates, the one drawing) as
    /// its update time.
    fn chart(&mut self, host: &mut DiskHost, work: &FrameWork, now: Instant, took: Duration) {
        let delta = match self.charted.replace(now) {
            Some(before) => now.saturating_duration_since(before),
            None => self.interval,
        };
        let ticks = host.engine().ticks();
        let Some(overlay) = host.engine_mut().overlay_mut() else {
            return;
        };
        let ms = took.as_secs_f64() * 1000.0;
        overlay.mark_rollback(u32::try_from(work.rolled_back).unwrap_or(u32::MAX));
        overlay.record(&FrameStats {
            updates: work.updates,
            delta_ms: delta.as_secs_f64() * 1000.0,
            update_ms: ms,
            frame_ms: ms,
            ticks,
            ..FrameStats::default()
        });
    }

    /// The next frame one update on from this one's due time (a whole update late: from now,
    /// rather than hurrying), a little later while this peer runs ahead of the other.
    fn schedule(&mut self, now: Instant) {
        let ahead = self.peer.link().is_some_and(|l| l.frames_ahead > 0);
        let interval = if ahead {
            self.interval.mul_f64(SLOW_DOWN)
        } else {
            self.interval
        };
        let from = match self.due {
            Some(due) if now.saturating_duration_since(due) < self.interval => due,
            _ => now,
        };
        self.due = Some(from + interval);
    }

    /// The overlay's rows: the link's ping and frames ahead, rollbacks a second and the
    /// deepest.
    fn show_rows(&mut self, host: &mut DiskHost, now: Instant) {
        let stats = self.peer.stats();
        if now.duration_since(self.rate_from.1) >= RATE_WINDOW {
            self.rate = stats.rollbacks - self.rate_from.0;
            self.rate_from = (stats.rollbacks, now);
        }
        let link = self.peer.link();
        let player = self.peer.local_player() + 1;
        let rate = self.rate;
        let Some(overlay) = host.engine_mut().overlay_mut() else {
            return;
        };
        let rows = overlay.host_rows_mut();
        rows.clear();
        match link {
            Some(link) => {
                // Drawn from the bottom up: the first row pushed is the lowest.
                rows.push(
                    format_args!("rollbacks {rate}/s"),
                    format_args!("deepest {}", stats.deepest_rollback),
                );
                rows.push(
                    format_args!("net P{player} ping {} ms", link.ping_ms),
                    format_args!("ahead {}", link.frames_ahead),
                );
            }
            None => rows.push(format_args!("net P{player}"), "waiting for the peer"),
        }
    }
}

/// This machine's address on its network, as a friend would reach it: the address the system
/// would send from to the wider network (no packet is sent), or a placeholder when it has none.
fn this_machine() -> String {
    let probe = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).and_then(|s| {
        // A documentation address (TEST-NET-1): connecting a UDP socket only picks a route.
        s.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        s.local_addr()
    });
    match probe {
        Ok(addr) if !addr.ip().is_unspecified() => addr.ip().to_string(),
        _ => "<this machine's address>".to_string(),
    }
}
