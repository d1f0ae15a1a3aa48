//! Two to four players, each on their machine, one game: a window whose frames a rollback
//! session runs (`bt run --host`, `bt run --join`), or watches one (`bt run --spectate`). The
//! session (`bt-net`) keeps to the engine the host owns; each frame hands it this player's
//! buttons, and it runs the updates GGRS asks for and shows the newest state.
//! docs/netplay.md says what a player sees.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use bt_net::{
    FrameWork, LocalInput, NetPeer, NetRows, NetSession, NetSettings, NetSpectator, Phase, Seat,
    SpectatorPeer, UdpLink, AHEAD_STRETCH,
};
use bt_overlay::FrameStats;

use crate::disk::DiskHost;
use crate::engine::Engine;

/// The UDP port `bt run --host` listens on when none is given.
pub const DEFAULT_PORT: u16 = 7000;

/// How long `bt run --host` waits for friends to join: time to send them the line and for
/// them to start, bounded so a forgotten window does not wait for ever.
pub const HOST_WAIT: Duration = Duration::from_secs(300);

/// Players in a game `bt run --host` hosts when `--players` is not given.
pub const DEFAULT_PLAYERS: usize = 2;

/// Which side of a session this window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetRole {
    /// Waits on this UDP port for `players - 1` players to join, and for spectators; plays
    /// player 1.
    Host {
        /// The port.
        port: u16,
        /// Players in the game, this one counted: 2 to 4.
        players: usize,
    },
    /// Joins the host at this address; plays the next free seat.
    Join {
        /// The host's address.
        addr: SocketAddr,
    },
    /// Watches the game the host at this address hosts.
    Spectate {
        /// The host's address.
        addr: SocketAddr,
    },
}

/// A spectator this many updates behind its host runs its frames faster until it is level:
/// a few updates are the link's delay, more are time lost (a slow start, a stall).
const BEHIND: usize = 4;

/// A spectator behind its host makes its frames this much shorter: twice the updates a
/// second catch up quickly and stay within what GGRS keeps for it.
const CATCH_UP: f64 = 0.5;

/// What this window is in the session (boxed: both are large and unlike in size, and a
/// window has one).
enum Side {
    /// A player's peer.
    Player(Box<NetPeer>),
    /// A spectator: it plays the confirmed input the host sends it.
    Watcher(Box<SpectatorPeer>),
}

/// The session, the local player's buttons, and when the next frame is due.
pub(crate) struct NetPlay {
    side: Side,
    /// Whether the line saying which player this is has been printed.
    told_seat: bool,
    /// This player's buttons, and the input handed over until the session takes it.
    local: LocalInput,
    /// One update at the cart's rate.
    interval: Duration,
    /// When the next frame is due.
    due: Option<Instant>,
    /// The overlay's rows, and the rollbacks counted for their rate.
    rows: NetRows,
    /// When the run began, the origin of the rows' clock.
    origin: Instant,
    /// When the last frame ran, for the next one's delta on the overlay's chart.
    charted: Option<Instant>,
}

impl NetPlay {
    /// Binds the link for `role` and makes the session for `engine` (fresh from boot), the
    /// cart `name`; the host prints what to send friends. Returns the engine, for the
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
        let bind = match role {
            NetRole::Host { port, .. } => SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)),
            NetRole::Join { addr } | NetRole::Spectate { addr } if addr.is_ipv6() => {
                SocketAddr::from((std::net::Ipv6Addr::UNSPECIFIED, 0))
            }
            NetRole::Join { .. } | NetRole::Spectate { .. } => {
                SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
            }
        };
        let link = UdpLink::bind(bind).map_err(|e| match role {
            NetRole::Host { port, .. } => {
                format!("--host {port}: cannot listen on UDP port {port}: {e}")
            }
            NetRole::Join { addr } => format!("--join {addr}: cannot open a UDP socket: {e}"),
            NetRole::Spectate { addr } => {
                format!("--spectate {addr}: cannot open a UDP socket: {e}")
            }
        })?;
        let fps = engine.settings().target_fps;
        let settings = NetSettings {
            handshake_timeout: match role {
                NetRole::Host { .. } => HOST_WAIT,
                _ => bt_net::DEFAULT_HANDSHAKE_TIMEOUT,
            },
            ..NetSettings::default()
        };
        let link = Box::new(link);
        let (engine, side) = match role {
            NetRole::Host { port, players } => {
                let mut seats = vec![Seat::Joiner; players];
                seats[0] = Seat::Local;
                let session = NetSession::new(engine, name, version, &seats, link, settings)
                    .map_err(|e| e.to_string())?
                    .open_to_spectators();
                let address = format!("{}:{port}", this_machine());
                let wanted = match players - 1 {
                    1 => "a player".to_string(),
                    n => format!("{n} players"),
                };
                println!(
                    "waiting up to {}s for {wanted} on UDP port {port}; they run: bt run {name} --join {address} (to watch: --spectate {address})",
                    HOST_WAIT.as_secs(),
                );
                let (engine, peer) = session.into_parts();
                (engine, Side::Player(Box::new(peer)))
            }
            NetRole::Join { addr } => {
                let session = NetSession::join(engine, name, version, addr, link, settings)
                    .map_err(|e| e.to_string())?;
                println!("joining the game at {addr}");
                let (engine, peer) = session.into_parts();
                (engine, Side::Player(Box::new(peer)))
            }
            NetRole::Spectate { addr } => {
                let watch = NetSpectator::new(engine, name, version, addr, link, settings)
                    .map_err(|e| e.to_string())?;
                println!("watching the game at {addr}");
                let (engine, watch) = watch.into_parts();
                (engine, Side::Watcher(Box::new(watch)))
            }
        };
        // The update rate is at least 0.001 a second: the interval fits a Duration.
        let interval = Duration::from_secs_f64(1.0 / fps);
        Ok((
            engine,
            NetPlay {
                side,
                told_seat: false,
                local: LocalInput::default(),
                interval,
                due: None,
                rows: NetRows::default(),
                origin: Instant::now(),
                charted: None,
            },
        ))
    }

    /// Notes the buttons this player holds now, after every event: a tap (down and up again
    /// between two updates) reaches the next update as a press and a release.
    pub(crate) fn observe(&mut self, host: &DiskHost) {
        self.local.observe(host.engine().console().input());
    }

    /// When the next frame is due; `None` before the first.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.due
    }

    /// One frame at `now`: this player's buttons (player 1's keys and pads, whichever
    /// player this peer plays) to the session, the updates it runs, the sound of the new ones,
    /// and the overlay's rows; a spectator's frame plays the input its host sent. Returns the
    /// sound to play.
    ///
    /// # Errors
    /// The session's one line when it ends: another player left, refused this run, or the
    /// runs differ.
    pub(crate) fn frame(
        &mut self,
        host: &mut DiskHost,
        now: Instant,
    ) -> Result<Vec<bt::sound::Frame>, String> {
        if let Side::Watcher(watch) = &mut self.side {
            host.frame_by(|engine| watch.advance_frame(engine))
                .map_err(|e| e.to_string())?;
            let updates = host.engine().updates_since_init();
            host.confirm_through(updates);
            self.schedule(now);
            self.show_rows(host, now);
            let Side::Watcher(watch) = &mut self.side else {
                return Ok(Vec::new());
            };
            return Ok(watch.drain_sound().collect());
        }
        let input = self.local.next(host.engine().console().input());
        let Side::Player(peer) = &mut self.side else {
            return Ok(Vec::new());
        };
        let started = Instant::now();
        let work = host
            .frame_by(|engine| peer.advance_frame(engine, input))
            .map_err(|e| e.to_string())?;
        chart(
            &mut self.charted,
            self.interval,
            host,
            &work,
            (now, started.elapsed()),
        );
        self.local.taken(work.input_taken);
        let confirmed = peer.confirmed_updates(host.engine());
        host.confirm_through(confirmed);
        if let Some(line) = peer.take_turned_away() {
            eprintln!("bt: {line}");
        }
        if !self.told_seat && peer.phase() != Phase::Handshake {
            self.told_seat = true;
            println!(
                "playing player {} of {}",
                peer.local_player() + 1,
                peer.players()
            );
        }
        self.schedule(now);
        self.show_rows(host, now);
        let Side::Player(peer) = &mut self.side else {
            return Ok(Vec::new());
        };
        Ok(peer.drain_sound().collect())
    }

    /// The next frame one update on from this one's due time (a whole update late: from now,
    /// rather than hurrying), a little later while this peer runs ahead of the others, and
    /// sooner while a spectator is behind its host.
    fn schedule(&mut self, now: Instant) {
        let (ahead, behind) = match &self.side {
            Side::Player(peer) => (peer.link().is_some_and(|l| l.frames_ahead > 0), 0),
            Side::Watcher(watch) => (false, watch.updates_behind()),
        };
        let interval = frame_interval(self.interval, ahead, behind);
        let from = match self.due {
            Some(due) if now.saturating_duration_since(due) < self.interval => due,
            _ => now,
        };
        self.due = Some(from + interval);
    }

    /// The overlay's rows: the link's ping and frames ahead, rollbacks a second and the
    /// deepest; a spectator's updates behind its host.
    fn show_rows(&mut self, host: &mut DiskHost, now: Instant) {
        let now = now.saturating_duration_since(self.origin);
        let Some(overlay) = host.engine_mut().overlay_mut() else {
            return;
        };
        let rows = overlay.host_rows_mut();
        match &self.side {
            Side::Player(peer) => self.rows.player(peer, now, rows),
            Side::Watcher(watch) => NetRows::watcher(watch, rows),
        }
    }
}

/// The time from one frame to the next, one update at the cart's rate being `update`: a
/// little longer for a player `ahead` of the others, shorter for a spectator `behind` its
/// host by more than [`BEHIND`] updates.
fn frame_interval(update: Duration, ahead: bool, behind: usize) -> Duration {
    if ahead {
        update.mul_f64(AHEAD_STRETCH)
    } else if behind > BEHIND {
        update.mul_f64(CATCH_UP)
    } else {
        update
    }
}

/// The frame on the overlay's chart, as the engine charts its own: its updates, those run
/// again after a rollback marked ([`bt_overlay::Overlay::mark_rollback`]), its delta from
/// the frame before, and the session's work (saves, loads, updates, the one drawing) as
/// its update time. `charted` is when the frame before was charted.
fn chart(
    charted: &mut Option<Instant>,
    interval: Duration,
    host: &mut DiskHost,
    work: &FrameWork,
    (now, took): (Instant, Duration),
) {
    let delta = match charted.replace(now) {
        Some(before) => now.saturating_duration_since(before),
        None => interval,
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

/// This machine's address on its network, as a friend would reach it, or a placeholder when
/// it has none.
fn this_machine() -> String {
    bt_net::this_machine().map_or_else(
        || "<this machine's address>".to_string(),
        |ip| ip.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spectator_behind_its_host_runs_faster_and_a_player_ahead_slower() {
        let update = Duration::from_micros(16_667);
        assert_eq!(frame_interval(update, false, 0), update);
        assert_eq!(frame_interval(update, false, BEHIND), update);
        assert!(frame_interval(update, false, BEHIND + 1) < update);
        assert!(frame_interval(update, true, 0) > update);
    }
}
