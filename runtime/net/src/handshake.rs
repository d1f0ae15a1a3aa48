//! The handshake: before the first update, every peer tells the others the run it means to
//! play (cart, versions, seed, update rate, display size, arguments, players), and a peer whose
//! run differs is refused with one line naming the first difference. Two runs that differ in
//! any of these would drift apart at once, and a desync found later says less.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::time::Duration;

// The engine's stopwatch: the system's clock natively, the page's in a browser (where
// `std::time::Instant::now` panics).
use bt_engine::wall_time::Instant;

use serde::{Deserialize, Serialize};

use crate::link::{Kind, Shared};
use crate::session::NetError;

/// The address of a contact not yet known: a joiner, until its first hello.
pub(crate) const UNKNOWN: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    0,
));

/// The handshake's layout; a peer speaking another is refused by it.
pub(crate) const PROTOCOL: u32 = 1;

/// The run a peer means to play: everything two peers must share for the same input to give
/// the same updates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTerms {
    /// The cart's name.
    pub cart: String,
    /// The cart's version, if it has one.
    pub cart_version: Option<String>,
    /// BT's version.
    pub bt_version: String,
    /// The seed the run starts with.
    pub seed: u64,
    /// Updates a second.
    pub target_fps: f64,
    /// The display's size, in pixels.
    pub width: u32,
    /// The display's height.
    pub height: u32,
    /// The cart's arguments, in order.
    pub args: Vec<(String, String)>,
    /// Players in the session.
    pub players: usize,
    /// The save data the run boots with: how many bytes are used, and their FNV-1a hash. A
    /// cart that reads its best score at boot plays differently with another.
    pub save: (usize, u64),
}

impl RunTerms {
    /// The terms of a run of `engine`'s cart, called `cart` (version `cart_version`), with
    /// `players` players.
    pub fn of(
        engine: &bt_engine::Engine,
        cart: &str,
        cart_version: Option<&str>,
        players: usize,
    ) -> RunTerms {
        let settings = engine.settings();
        RunTerms {
            cart: cart.to_string(),
            cart_version: cart_version.map(str::to_string),
            bt_version: env!("CARGO_PKG_VERSION").to_string(),
            seed: engine.seed(),
            target_fps: settings.target_fps,
            width: settings.width,
            height: settings.height,
            args: engine.args().to_vec(),
            players,
            save: save_summary(engine.console().boot_save().used()),
        }
    }

    /// The first way `theirs` differs from these terms, as "the cart 'snake' (this run:
    /// 'platformer')"; `None` when they agree.
    pub fn first_difference(&self, theirs: &RunTerms) -> Option<String> {
        let differs = |what: &str, theirs: String, ours: String| {
            Some(format!("{what} {theirs} (this run: {ours})"))
        };
        let version = |v: &Option<String>| v.as_deref().unwrap_or("(none)").to_string();
        if !self.cart.eq_ignore_ascii_case(&theirs.cart) {
            return differs(
                "the cart",
                format!("'{}'", theirs.cart),
                format!("'{}'", self.cart),
            );
        }
        if self.cart_version != theirs.cart_version {
            return differs(
                "cart version",
                version(&theirs.cart_version),
                version(&self.cart_version),
            );
        }
        if self.bt_version != theirs.bt_version {
            return differs(
                "BT version",
                theirs.bt_version.clone(),
                self.bt_version.clone(),
            );
        }
        if self.seed != theirs.seed {
            return differs("seed", theirs.seed.to_string(), self.seed.to_string());
        }
        if self.target_fps.to_bits() != theirs.target_fps.to_bits() {
            return differs(
                "update rate",
                format!("{} a second", theirs.target_fps),
                format!("{} a second", self.target_fps),
            );
        }
        if (self.width, self.height) != (theirs.width, theirs.height) {
            return differs(
                "display size",
                format!("{}x{}", theirs.width, theirs.height),
                format!("{}x{}", self.width, self.height),
            );
        }
        if self.args != theirs.args {
            let show = |args: &[(String, String)]| {
                let list: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!("[{}]", list.join(" "))
            };
            return differs("cart arguments", show(&theirs.args), show(&self.args));
        }
        if self.players != theirs.players {
            return differs(
                "players",
                theirs.players.to_string(),
                self.players.to_string(),
            );
        }
        if self.save != theirs.save {
            let show = |(bytes, hash): (usize, u64)| format!("{bytes} bytes, hash {hash:016x}");
            return differs("with boot save data of", show(theirs.save), show(self.save));
        }
        None
    }
}

/// How many bytes of `save` are used, and their FNV-1a (64 bits) hash.
fn save_summary(save: &[u8]) -> (usize, u64) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in save {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    (save.len(), hash)
}

/// What a peer is in a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Role {
    /// It plays this player (0 for player one).
    Player(usize),
    /// It watches: a GGRS spectator, sent the confirmed input by one player's peer.
    Spectator,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Role::Player(n) => write!(f, "player {}", n + 1),
            Role::Spectator => write!(f, "a spectator"),
        }
    }
}

/// One handshake packet: the sender's terms, its role, and whether it has heard terms that
/// agree from the peer it sends to (then that peer may start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Hello {
    pub(crate) protocol: u32,
    pub(crate) terms: RunTerms,
    pub(crate) role: Role,
    pub(crate) heard: bool,
}

impl Hello {
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        // Plain data: it always encodes.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The hello in `bytes`, or `None` for bytes that hold none.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Hello> {
        serde_json::from_slice(bytes).ok()
    }
}

/// The role a peer at an address must say it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// Exactly this one.
    Role(Role),
    /// Any player (a spectator's host).
    AnyPlayer,
}

/// A peer the handshake waits for.
#[derive(Debug)]
pub(crate) struct Contact {
    pub(crate) addr: SocketAddr,
    expect: Expect,
    /// Terms that agree have come from it.
    heard: bool,
    /// It said it heard ours.
    acked: bool,
}

impl Contact {
    pub(crate) fn new(addr: SocketAddr, expect: Expect) -> Contact {
        Contact {
            addr,
            expect,
            heard: false,
            acked: false,
        }
    }
}

/// The handshake of one peer with the peers it plays with (or, for a spectator, its host).
#[derive(Debug)]
pub(crate) struct Handshake {
    terms: RunTerms,
    role: Role,
    pub(crate) contacts: Vec<Contact>,
    started: Instant,
    timeout: Duration,
}

impl Handshake {
    pub(crate) fn new(
        terms: RunTerms,
        role: Role,
        contacts: impl IntoIterator<Item = (SocketAddr, Expect)>,
        timeout: Duration,
    ) -> Handshake {
        Handshake {
            terms,
            role,
            contacts: contacts
                .into_iter()
                .map(|(addr, expect)| Contact::new(addr, expect))
                .collect(),
            started: Instant::now(),
            timeout,
        }
    }

    pub(crate) fn terms(&self) -> &RunTerms {
        &self.terms
    }

    /// Whether every contact agreed and heard this side agree.
    pub(crate) fn done(&self) -> bool {
        self.contacts.iter().all(|c| c.heard && c.acked)
    }

    /// Reads the hellos that arrived: terms that agree mark their peer heard (and it is told,
    /// even once this side plays, until it starts too); terms that differ refuse it.
    pub(crate) fn read(&mut self, shared: &RefCell<Shared>) -> Result<(), NetError> {
        let hellos: Vec<_> = shared.borrow_mut().hellos.drain(..).collect();
        for (from, bytes) in hellos {
            let known = self.contacts.iter().position(|c| c.addr == from);
            let Some(at) = known.or_else(|| self.contacts.iter().position(|c| c.addr == UNKNOWN))
            else {
                continue;
            };
            let contact = &mut self.contacts[at];
            let Some(hello) = Hello::from_bytes(&bytes) else {
                shared.borrow_mut().dropped += 1;
                continue;
            };
            let refuse = |difference| NetError::Refused {
                peer: from,
                difference,
            };
            if hello.protocol != PROTOCOL {
                return Err(refuse(format!(
                    "handshake protocol {} (this run: {PROTOCOL})",
                    hello.protocol
                )));
            }
            if let Some(difference) = self.terms.first_difference(&hello.terms) {
                return Err(refuse(difference));
            }
            match (contact.expect, hello.role) {
                (Expect::Role(role), theirs) if role != theirs => {
                    return Err(refuse(format!("as {theirs} (this run: {role} there)")));
                }
                (Expect::AnyPlayer, Role::Spectator) => {
                    return Err(refuse(
                        "as a spectator (this run: a player there)".to_string(),
                    ));
                }
                _ => {}
            }
            // A joiner's seat is taken by the first peer whose terms agree.
            contact.addr = from;
            let newly_heard = !contact.heard;
            contact.heard = true;
            contact.acked |= hello.heard;
            if !hello.heard || newly_heard {
                let reply = Hello {
                    protocol: PROTOCOL,
                    terms: self.terms.clone(),
                    role: self.role,
                    heard: true,
                };
                shared
                    .borrow_mut()
                    .send(from, Kind::Hello, &reply.to_bytes());
            }
        }
        Ok(())
    }

    /// Sends this side's terms to every contact that has not said it heard them.
    pub(crate) fn send(&self, shared: &RefCell<Shared>) {
        for contact in self
            .contacts
            .iter()
            .filter(|c| !c.acked && c.addr != UNKNOWN)
        {
            let hello = Hello {
                protocol: PROTOCOL,
                terms: self.terms.clone(),
                role: self.role,
                heard: contact.heard,
            };
            shared
                .borrow_mut()
                .send(contact.addr, Kind::Hello, &hello.to_bytes());
        }
    }

    /// The error for a handshake past its time, naming a contact still waited for.
    pub(crate) fn check_time(&self) -> Result<(), NetError> {
        if self.started.elapsed() < self.timeout {
            return Ok(());
        }
        let waiting = self
            .contacts
            .iter()
            .find(|c| !(c.heard && c.acked))
            .or(self.contacts.first());
        match waiting {
            Some(contact) if contact.addr == UNKNOWN => Err(NetError::NoJoiner {
                timeout: self.timeout,
            }),
            Some(contact) => Err(NetError::NoAnswer {
                peer: contact.addr,
                timeout: self.timeout,
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms() -> RunTerms {
        RunTerms {
            cart: "snake".into(),
            cart_version: Some("1.0".into()),
            bt_version: "0.1.0".into(),
            seed: 7,
            target_fps: 60.0,
            width: 160,
            height: 120,
            args: vec![("level".into(), "2".into())],
            players: 2,
            save: save_summary(&[]),
        }
    }

    #[test]
    fn the_first_difference_is_named_with_both_values() {
        let ours = terms();
        assert_eq!(ours.first_difference(&terms()), None);
        let mut theirs = terms();
        theirs.seed = 8;
        theirs.width = 320;
        assert_eq!(
            ours.first_difference(&theirs).unwrap(),
            "seed 8 (this run: 7)"
        );
        let mut theirs = terms();
        theirs.cart = "platformer".into();
        assert_eq!(
            ours.first_difference(&theirs).unwrap(),
            "the cart 'platformer' (this run: 'snake')"
        );
        let mut theirs = terms();
        theirs.save = save_summary(b"best 120");
        assert_eq!(
            ours.first_difference(&theirs).unwrap(),
            format!(
                "with boot save data of 8 bytes, hash {:016x} (this run: 0 bytes, hash cbf29ce484222325)",
                save_summary(b"best 120").1
            )
        );
        let mut theirs = terms();
        theirs.args.clear();
        assert_eq!(
            ours.first_difference(&theirs).unwrap(),
            "cart arguments [] (this run: [level=2])"
        );
    }

    #[test]
    fn a_hello_reads_back_and_garbage_reads_as_none() {
        let hello = Hello {
            protocol: PROTOCOL,
            terms: terms(),
            role: Role::Player(1),
            heard: true,
        };
        assert_eq!(Hello::from_bytes(&hello.to_bytes()), Some(hello));
        assert_eq!(Hello::from_bytes(b"\xff\x00{"), None);
    }
}
