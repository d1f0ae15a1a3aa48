//! A netplay run's rows on the overlay, the same in a window and in a page: the link's ping
//! and frames ahead, rollbacks a second and the deepest; a spectator's updates behind.

use std::time::Duration;

use bt::OverlayRows;

use crate::session::{NetPeer, Phase};
use crate::spectator::SpectatorPeer;

/// Rollbacks are counted over this window of time for the rate shown: long enough to read,
/// short enough to follow a bad moment.
pub const RATE_WINDOW: Duration = Duration::from_secs(1);

/// Writes a netplay run's rows onto the overlay, counting rollbacks a second as it goes.
#[derive(Debug, Default, Clone, Copy)]
pub struct NetRows {
    /// Rollbacks counted when the rate's window began, and when it began.
    from: Option<(u64, Duration)>,
    /// Rollbacks in the last whole window.
    rate: u64,
}

impl NetRows {
    /// A player's rows into `rows` (replacing what was there), at `now` on any steady clock
    /// the host keeps (the same clock every call). Drawn from the bottom up:
    /// `net P1 ping 16 ms | ahead 0` over `rollbacks 3/s | deepest 4`, or what the session is
    /// waiting for.
    pub fn player(&mut self, peer: &NetPeer, now: Duration, rows: &mut OverlayRows) {
        let stats = peer.stats();
        match self.from {
            Some((count, since)) if now.saturating_sub(since) >= RATE_WINDOW => {
                self.rate = stats.rollbacks - count;
                self.from = Some((stats.rollbacks, now));
            }
            Some(_) => {}
            None => self.from = Some((stats.rollbacks, now)),
        }
        let player = peer.local_player() + 1;
        rows.clear();
        match peer.link() {
            Some(link) => {
                rows.push(
                    format_args!("rollbacks {}/s", self.rate),
                    format_args!("deepest {}", stats.deepest_rollback),
                );
                rows.push(
                    format_args!("net P{player} ping {} ms", link.ping_ms),
                    format_args!("ahead {}", link.frames_ahead),
                );
            }
            None if peer.phase() != Phase::Handshake => {
                rows.push(format_args!("net P{player}"), "waiting for the peers");
            }
            None => rows.push("net", "waiting for the players"),
        }
    }

    /// A spectator's row into `rows` (replacing what was there): how far behind its host it
    /// plays, or that it waits for the host.
    pub fn watcher(watch: &SpectatorPeer, rows: &mut OverlayRows) {
        rows.clear();
        if watch.phase() == Phase::Running {
            rows.push(
                "net watching",
                format_args!("behind {}", watch.updates_behind()),
            );
        } else {
            rows.push("net watching", "waiting for the host");
        }
    }
}
