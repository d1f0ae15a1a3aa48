//! A simulated network in memory: packets take a delay, with jitter, and some are lost, all
//! drawn from a seeded generator, on a virtual clock the caller moves. A packet sent at virtual
//! time `t` arrives when the clock reaches `t + delay ± jitter`, so a test plays minutes of a
//! bad connection in the time the updates take, and plays it the same every time.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

use crate::link::Link;

/// How the simulated network treats every packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// How long a packet takes, one way.
    pub delay: Duration,
    /// The most a packet's delay is off, either way (uniformly; never below zero).
    pub jitter: Duration,
    /// The share of packets lost, from 0 to 1.
    pub loss: f64,
}

impl Conditions {
    /// A perfect network: no delay, no jitter, no loss.
    pub const PERFECT: Conditions = Conditions {
        delay: Duration::ZERO,
        jitter: Duration::ZERO,
        loss: 0.0,
    };
}

/// SplitMix64: a small, well-mixed generator, the same on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Packet {
    at: Duration,
    /// Order of sending: packets due at the same time arrive in it.
    seq: u64,
    from: SocketAddr,
    to: SocketAddr,
    bytes: Vec<u8>,
}

struct World {
    now: Duration,
    rng: SplitMix,
    conditions: Conditions,
    seq: u64,
    in_flight: Vec<Packet>,
    inboxes: HashMap<SocketAddr, Vec<(SocketAddr, Vec<u8>)>>,
    /// Addresses whose packets vanish: a peer that stopped sending.
    silenced: HashSet<SocketAddr>,
    sent: u64,
    lost: u64,
}

/// The simulated network. Cloning it gives another handle to the same network.
#[derive(Clone)]
pub struct SimNet(Rc<RefCell<World>>);

impl std::fmt::Debug for SimNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let world = self.0.borrow();
        f.debug_struct("SimNet")
            .field("now", &world.now)
            .field("conditions", &world.conditions)
            .field("in_flight", &world.in_flight.len())
            .finish()
    }
}

impl SimNet {
    /// A network under `conditions`, its chances drawn from a generator seeded with `seed`.
    pub fn new(seed: u64, conditions: Conditions) -> SimNet {
        SimNet(Rc::new(RefCell::new(World {
            now: Duration::ZERO,
            rng: SplitMix::new(seed),
            conditions,
            seq: 0,
            in_flight: Vec::new(),
            inboxes: HashMap::new(),
            silenced: HashSet::new(),
            sent: 0,
            lost: 0,
        })))
    }

    /// A link sending from, and receiving at, `addr`.
    pub fn link(&self, addr: SocketAddr) -> SimLink {
        self.0.borrow_mut().inboxes.entry(addr).or_default();
        SimLink {
            net: self.clone(),
            addr,
        }
    }

    /// Moves the virtual clock on by `dt`, delivering every packet due by then.
    pub fn advance(&self, dt: Duration) {
        let mut world = self.0.borrow_mut();
        world.now += dt;
        let now = world.now;
        let mut due: Vec<Packet> = Vec::new();
        let mut i = 0;
        while i < world.in_flight.len() {
            if world.in_flight[i].at <= now {
                due.push(world.in_flight.swap_remove(i));
            } else {
                i += 1;
            }
        }
        due.sort_by_key(|p| (p.at, p.seq));
        for p in due {
            if let Some(inbox) = world.inboxes.get_mut(&p.to) {
                inbox.push((p.from, p.bytes));
            }
        }
    }

    /// The virtual time now.
    pub fn now(&self) -> Duration {
        self.0.borrow().now
    }

    /// From now on, every packet from `addr` is lost: the peer there vanished.
    pub fn silence(&self, addr: SocketAddr) {
        self.0.borrow_mut().silenced.insert(addr);
    }

    /// Puts `bytes` into `to`'s inbox at once, as sent from `from`: what a test of damaged
    /// or foreign packets feeds a peer.
    pub fn inject(&self, from: SocketAddr, to: SocketAddr, bytes: Vec<u8>) {
        if let Some(inbox) = self.0.borrow_mut().inboxes.get_mut(&to) {
            inbox.push((from, bytes));
        }
    }

    /// Packets sent so far, and of them lost.
    pub fn counts(&self) -> (u64, u64) {
        let world = self.0.borrow();
        (world.sent, world.lost)
    }
}

/// One address on a [`SimNet`].
#[derive(Debug)]
pub struct SimLink {
    net: SimNet,
    addr: SocketAddr,
}

impl SimLink {
    /// The address the link sends from.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Link for SimLink {
    fn send(&mut self, to: SocketAddr, bytes: &[u8]) {
        let mut world = self.net.0.borrow_mut();
        world.sent += 1;
        let conditions = world.conditions;
        let lost = world.rng.unit() < conditions.loss;
        // Drawn whether or not the packet is lost, so the loss rate changes no other packet's delay.
        let offset = (world.rng.unit() * 2.0 - 1.0) * conditions.jitter.as_secs_f64();
        if lost || world.silenced.contains(&self.addr) {
            world.lost += 1;
            return;
        }
        let delay = (conditions.delay.as_secs_f64() + offset).max(0.0);
        let at = world.now + Duration::from_secs_f64(delay);
        let seq = world.seq;
        world.seq += 1;
        world.in_flight.push(Packet {
            at,
            seq,
            from: self.addr,
            to,
            bytes: bytes.to_vec(),
        });
    }

    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>) {
        if let Some(inbox) = self.net.0.borrow_mut().inboxes.get_mut(&self.addr) {
            into.append(inbox);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(port: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], port))
    }

    #[test]
    fn a_packet_arrives_when_the_virtual_clock_reaches_its_delay() {
        let net = SimNet::new(
            1,
            Conditions {
                delay: Duration::from_millis(100),
                ..Conditions::PERFECT
            },
        );
        let (mut a, mut b) = (net.link(addr(1)), net.link(addr(2)));
        a.send(addr(2), b"hi");
        let mut got = Vec::new();
        net.advance(Duration::from_millis(99));
        b.receive(&mut got);
        assert!(got.is_empty());
        net.advance(Duration::from_millis(1));
        b.receive(&mut got);
        assert_eq!(got, vec![(addr(1), b"hi".to_vec())]);
    }

    #[test]
    fn losses_and_jitter_follow_the_seed() {
        let conditions = Conditions {
            delay: Duration::from_millis(100),
            jitter: Duration::from_millis(20),
            loss: 0.05,
        };
        let run = |seed| {
            let net = SimNet::new(seed, conditions);
            let (mut a, mut b) = (net.link(addr(1)), net.link(addr(2)));
            let mut arrivals = Vec::new();
            for i in 0..2000u32 {
                a.send(addr(2), &i.to_le_bytes());
                net.advance(Duration::from_millis(1));
                let mut got = Vec::new();
                b.receive(&mut got);
                arrivals.extend(got.into_iter().map(|(_, p)| (p, net.now())));
            }
            (arrivals, net.counts())
        };
        let (arrivals, (sent, lost)) = run(7);
        assert_eq!(run(7).0, arrivals, "the same seed, the same network");
        assert_ne!(run(8).0, arrivals);
        assert_eq!(sent, 2000);
        assert!((50..=150).contains(&lost), "about 5 % of 2000 lost: {lost}");
        // Each arrived within the delay's bounds of its sending (packet i sent at i ms).
        for (p, at) in &arrivals {
            let sent_ms = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) as u128;
            let took = at.as_millis() - sent_ms;
            assert!((80..=121).contains(&took), "took {took} ms");
        }
    }
}
