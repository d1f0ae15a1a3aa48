//! Netplay between two pages (`?room=NAME`): the rollback session `bt run --host` and `--join`
//! play ([`bt_net::NetPeer`]), over a link the page's script feeds.
//!
//! The script does the browser's part: it meets the other page through `bt signal`, opens one
//! WebRTC data channel, unreliable and unordered, and hands every message that arrives to the
//! module as one datagram ([`PageLink`]'s inbox); after every frame it sends what the session
//! left in the outbox. The module does the rest as natively: the handshake, GGRS's saves, loads
//! and updates, and the recording of confirmed updates only.
//!
//! GGRS built for `wasm32-unknown-unknown` without its `wasm-bindgen` feature needs a few
//! things of the browser: a clock (the `instant` crate's `now`, which [`crate::page!`] defines
//! with the page's clock), random bytes (`getrandom`'s custom source, `bt.random`, also in
//! [`crate::page!`]), and `js_sys::Date` for its ping figures, which `bt web` gives it through
//! BT's stand-in for js-sys (`runtime/web/js-sys`, the import `bt.date_now`).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::rc::Rc;

use bt_host::Host;
use bt_net::{Link, LocalInput, NetPeer, NetRows, AHEAD_STRETCH, MAX_DATAGRAM};

/// The address the other page's datagrams come from and go to. A page has one data channel,
/// to one peer; the session names peers by address, so the other page gets this one.
pub const OTHER_PAGE: SocketAddr = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 2));

/// Datagrams no one has taken yet, at most this many each way: a tab in the background runs no
/// frames, and what arrives meanwhile is stale by the time it does (GGRS sends its input
/// again), so the oldest go.
pub const MAX_QUEUED: usize = 256;

/// What passes between the script and the session, both ways.
#[derive(Debug, Default)]
pub struct Datagrams {
    incoming: VecDeque<Vec<u8>>,
    outgoing: VecDeque<Vec<u8>>,
}

impl Datagrams {
    /// A datagram from the other page; one larger than [`MAX_DATAGRAM`] is dropped.
    pub fn arrived(&mut self, bytes: &[u8]) {
        if bytes.len() <= MAX_DATAGRAM {
            push_bounded(&mut self.incoming, bytes.to_vec());
        }
    }

    /// The oldest datagram for the other page, if any.
    pub fn next_outgoing(&mut self) -> Option<Vec<u8>> {
        self.outgoing.pop_front()
    }
}

fn push_bounded(queue: &mut VecDeque<Vec<u8>>, bytes: Vec<u8>) {
    if queue.len() >= MAX_QUEUED {
        queue.pop_front();
    }
    queue.push_back(bytes);
}

/// The session's [`Link`] in a page: datagrams to and from [`OTHER_PAGE`] through the queues
/// the script reads and fills.
#[derive(Debug, Clone, Default)]
pub struct PageLink(Rc<RefCell<Datagrams>>);

impl PageLink {
    /// The queues, shared with the script's side.
    pub fn datagrams(&self) -> Rc<RefCell<Datagrams>> {
        self.0.clone()
    }
}

impl Link for PageLink {
    fn send(&mut self, _to: SocketAddr, bytes: &[u8]) {
        push_bounded(&mut self.0.borrow_mut().outgoing, bytes.to_vec());
    }

    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>) {
        into.extend(
            self.0
                .borrow_mut()
                .incoming
                .drain(..)
                .map(|b| (OTHER_PAGE, b)),
        );
    }
}

/// A page's side of a session: the peer, this player's buttons, and when the next frame is due.
#[derive(Debug)]
pub struct NetPlay {
    peer: NetPeer,
    datagrams: Rc<RefCell<Datagrams>>,
    /// This player's buttons, and the input handed over until the session takes it.
    local: LocalInput,
    /// The overlay's rows, and the rollbacks counted for their rate.
    rows: NetRows,
    /// One update at the cart's rate, in ms.
    interval_ms: f64,
    /// When the next frame is due, on the page's clock (ms).
    due: Option<f64>,
}

impl NetPlay {
    /// Plays `peer` (its engine is the host's), whose link's queues are `datagrams`, at
    /// `target_fps` updates a second.
    pub fn new(peer: NetPeer, datagrams: Rc<RefCell<Datagrams>>, target_fps: f64) -> NetPlay {
        NetPlay {
            peer,
            datagrams,
            local: LocalInput::default(),
            rows: NetRows::default(),
            interval_ms: 1000.0 / target_fps,
            due: None,
        }
    }

    /// The queues the script reads and fills.
    pub fn datagrams(&self) -> &Rc<RefCell<Datagrams>> {
        &self.datagrams
    }

    /// The peer.
    pub fn peer(&self) -> &NetPeer {
        &self.peer
    }

    /// Notes the buttons this player holds now (player 1's keys and pads, whichever player
    /// this page plays), after every event: a tap between two updates reaches the next update
    /// as a press and a release.
    pub fn observe(&mut self, host: &Host) {
        self.local.observe(host.engine().console().input());
    }

    /// One frame at `now_ms` if one is due: this player's buttons to the session, the
    /// updates it runs, the newest state shown. Returns `Ok(None)` when no frame was due, and
    /// the sound of the new updates otherwise.
    ///
    /// # Errors
    /// The session's one line when it ends: the other page left, refused this run, or the
    /// runs differ.
    pub fn frame(
        &mut self,
        host: &mut Host,
        now_ms: f64,
    ) -> Result<Option<Vec<bt::sound::Frame>>, String> {
        if self.due.is_some_and(|due| now_ms < due) {
            return Ok(None);
        }
        let input = self.local.next(host.engine().console().input());
        let peer = &mut self.peer;
        let work = host
            .frame_by(|engine| peer.advance_frame(engine, input))
            .map_err(|e| other_page(&e.to_string()))?;
        self.local.taken(work.input_taken);
        host.confirm_through(self.peer.confirmed_updates(host.engine()));
        self.schedule(now_ms);
        if let Some(overlay) = host.engine_mut().overlay_mut() {
            let now = std::time::Duration::from_secs_f64(now_ms.max(0.0) / 1000.0);
            self.rows.player(&self.peer, now, overlay.host_rows_mut());
        }
        Ok(Some(self.peer.drain_sound().collect()))
    }

    /// The next frame one update on from this one's due time (a whole update late: from now,
    /// rather than hurrying), a little later while this page runs ahead of the other.
    fn schedule(&mut self, now_ms: f64) {
        let ahead = self.peer.link().is_some_and(|l| l.frames_ahead > 0);
        let interval = if ahead {
            self.interval_ms * AHEAD_STRETCH
        } else {
            self.interval_ms
        };
        let from = match self.due {
            Some(due) if now_ms - due < self.interval_ms => due,
            _ => now_ms,
        };
        self.due = Some(from + interval);
    }

    /// One line for the page's foot: the player this page plays and the link.
    pub fn status(&self) -> String {
        let player = self.peer.local_player() + 1;
        match self.peer.link() {
            Some(link) => format!(
                "netplay: player {player}, ping {} ms, {} ahead",
                link.ping_ms, link.frames_ahead
            ),
            None => format!("netplay: player {player}, meeting the other page"),
        }
    }
}

/// A session's message with the other page's made-up address (see [`OTHER_PAGE`]) said as
/// what it is.
pub fn other_page(message: &str) -> String {
    message.replace(&format!("the peer at {OTHER_PAGE}"), "the other page")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_datagram_sent_waits_for_the_script_and_one_arrived_comes_from_the_other_page() {
        let mut link = PageLink::default();
        let queues = link.datagrams();
        link.send(OTHER_PAGE, b"out");
        assert_eq!(queues.borrow_mut().next_outgoing(), Some(b"out".to_vec()));
        assert_eq!(queues.borrow_mut().next_outgoing(), None);
        queues.borrow_mut().arrived(b"in");
        queues.borrow_mut().arrived(&vec![0; MAX_DATAGRAM + 1]);
        let mut got = Vec::new();
        link.receive(&mut got);
        assert_eq!(got, vec![(OTHER_PAGE, b"in".to_vec())]);
    }

    #[test]
    fn queues_keep_the_newest_datagrams_past_their_bound() {
        let link = PageLink::default();
        let queues = link.datagrams();
        for i in 0..MAX_QUEUED + 3 {
            queues.borrow_mut().arrived(&i.to_le_bytes());
        }
        let incoming = &queues.borrow().incoming;
        assert_eq!(incoming.len(), MAX_QUEUED);
        assert_eq!(incoming.front(), Some(&3usize.to_le_bytes().to_vec()));
    }

    #[test]
    fn a_message_names_the_other_page_not_its_made_up_address() {
        let line = "the peer at 127.0.0.1:2 stopped answering (3s without a packet)";
        assert_eq!(
            other_page(line),
            "the other page stopped answering (3s without a packet)"
        );
    }
}
