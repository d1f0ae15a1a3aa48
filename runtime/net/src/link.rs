//! How packets travel: a [`Link`] moves datagrams between addresses (UDP, or the simulated
//! network of [`crate::sim`]); every packet BT sends is framed with a kind and a checksum, so a
//! truncated, corrupted or foreign packet is dropped and counted, never handed to GGRS.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::net::{SocketAddr, UdpSocket};
use std::rc::Rc;

use bincode::Options;
use ggrs::{Message, NonBlockingSocket};

/// Moves datagrams between addresses, never blocking.
pub trait Link {
    /// Sends `bytes` to `to`. A datagram may be lost; a failure to send is a loss.
    fn send(&mut self, to: SocketAddr, bytes: &[u8]);

    /// Appends every datagram that has arrived since the last call, with its sender, to
    /// `into`.
    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>);
}

/// The largest datagram BT sends or reads: GGRS keeps its packets far below, and a UDP
/// datagram of this size still crosses most links unfragmented.
pub const MAX_DATAGRAM: usize = 4096;

/// The first bytes of every packet: a stray datagram from another program is dropped at once.
const MAGIC: [u8; 2] = *b"BT";
/// Magic, kind, then the payload's FNV-1a (32 bits, little-endian).
const HEADER: usize = 2 + 1 + 4;

/// What a packet holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The handshake's terms ([`crate::handshake`]).
    Hello = 0,
    /// One of GGRS's messages.
    Ggrs = 1,
}

/// FNV-1a (32 bits): catches the truncated and corrupted packets a link can deliver (UDP's own
/// checksum is optional, and a simulated link corrupts on purpose).
fn fnv32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

/// `payload` framed as a packet of `kind`.
pub(crate) fn frame(kind: Kind, payload: &[u8]) -> Vec<u8> {
    let mut packet = Vec::with_capacity(HEADER + payload.len());
    packet.extend_from_slice(&MAGIC);
    packet.push(kind as u8);
    packet.extend_from_slice(&fnv32(payload).to_le_bytes());
    packet.extend_from_slice(payload);
    packet
}

/// The kind and payload of a well-formed packet; `None` for anything else.
pub(crate) fn unframe(packet: &[u8]) -> Option<(Kind, &[u8])> {
    if packet.len() < HEADER || packet.len() > MAX_DATAGRAM || packet[..2] != MAGIC {
        return None;
    }
    let kind = match packet[2] {
        0 => Kind::Hello,
        1 => Kind::Ggrs,
        _ => return None,
    };
    let sum = u32::from_le_bytes([packet[3], packet[4], packet[5], packet[6]]);
    let payload = &packet[HEADER..];
    (fnv32(payload) == sum).then_some((kind, payload))
}

/// GGRS's messages as bytes: bincode, refusing to read a length past one datagram.
fn wire() -> impl Options {
    bincode::DefaultOptions::new().with_limit(MAX_DATAGRAM as u64)
}

/// The link as both the session and GGRS see it: GGRS's socket reads every packet, keeps the
/// handshake's for the session and counts the ones dropped.
pub(crate) struct Shared {
    pub(crate) link: Box<dyn Link>,
    /// Handshake packets received (sender, payload), until the session reads them.
    pub(crate) hellos: VecDeque<(SocketAddr, Vec<u8>)>,
    /// Packets dropped as malformed: truncated, corrupted, of another program, or no message.
    pub(crate) dropped: u64,
    /// Whether GGRS's messages are taken (once its session runs) or dropped as early.
    pub(crate) ggrs_running: bool,
    /// The addresses in the session once it runs: GGRS's messages from any other are
    /// dropped and counted.
    pub(crate) peers: Vec<SocketAddr>,
    received: Vec<(SocketAddr, Vec<u8>)>,
}

impl Shared {
    pub(crate) fn new(link: Box<dyn Link>) -> Rc<RefCell<Shared>> {
        Rc::new(RefCell::new(Shared {
            link,
            hellos: VecDeque::new(),
            dropped: 0,
            ggrs_running: false,
            peers: Vec::new(),
            received: Vec::new(),
        }))
    }

    /// Reads the link, sorting its packets: handshakes kept, GGRS's messages returned (or
    /// dropped while no GGRS session runs), anything else counted and dropped.
    pub(crate) fn pump(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut received = std::mem::take(&mut self.received);
        self.link.receive(&mut received);
        let mut messages = Vec::new();
        for (from, packet) in received.drain(..) {
            match unframe(&packet) {
                Some((Kind::Hello, payload)) => self.hellos.push_back((from, payload.to_vec())),
                Some((Kind::Ggrs, payload)) => match wire().deserialize::<Message>(payload) {
                    Ok(_) if self.ggrs_running && !self.peers.contains(&from) => self.dropped += 1,
                    Ok(message) if self.ggrs_running => messages.push((from, message)),
                    Ok(_) => {}
                    Err(_) => self.dropped += 1,
                },
                None => self.dropped += 1,
            }
        }
        self.received = received;
        messages
    }

    pub(crate) fn send(&mut self, to: SocketAddr, kind: Kind, payload: &[u8]) {
        self.link.send(to, &frame(kind, payload));
    }
}

/// GGRS's socket: its messages through the shared link.
pub(crate) struct GgrsSocket(pub(crate) Rc<RefCell<Shared>>);

impl NonBlockingSocket<SocketAddr> for GgrsSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        // A message GGRS made always encodes; one too large for a datagram is a loss.
        if let Ok(bytes) = wire().serialize(msg) {
            self.0.borrow_mut().send(*addr, Kind::Ggrs, &bytes);
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.0.borrow_mut().pump()
    }
}

/// A [`Link`] over a UDP socket, non-blocking.
#[derive(Debug)]
pub struct UdpLink {
    socket: UdpSocket,
    buffer: Vec<u8>,
}

impl UdpLink {
    /// Binds a UDP socket to `addr` (port 0: any free port) and makes it non-blocking.
    ///
    /// # Errors
    /// The system's error binding or configuring the socket.
    pub fn bind(addr: SocketAddr) -> std::io::Result<UdpLink> {
        let socket = UdpSocket::bind(addr)?;
        socket.set_nonblocking(true)?;
        Ok(UdpLink {
            socket,
            buffer: vec![0; MAX_DATAGRAM + 1],
        })
    }

    /// The address the socket is bound to.
    ///
    /// # Errors
    /// The system's error asking.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }
}

impl Link for UdpLink {
    fn send(&mut self, to: SocketAddr, bytes: &[u8]) {
        // UDP promises nothing: a failed send is a lost packet, which the protocol repairs.
        let _ = self.socket.send_to(bytes, to);
    }

    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>) {
        loop {
            match self.socket.recv_from(&mut self.buffer) {
                Ok((n, from)) => into.push((from, self.buffer[..n].to_vec())),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                // A refused earlier send (ICMP) and the like: nothing to read now.
                Err(_) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packet_reads_back_and_any_damage_drops_it() {
        let packet = frame(Kind::Ggrs, b"payload");
        assert_eq!(unframe(&packet), Some((Kind::Ggrs, &b"payload"[..])));
        for cut in 0..packet.len() {
            assert_eq!(unframe(&packet[..cut]), None, "cut to {cut} bytes");
        }
        for at in 0..packet.len() {
            let mut bad = packet.clone();
            bad[at] ^= 0x20;
            assert_eq!(unframe(&bad), None, "byte {at} flipped");
        }
    }
}
