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
pub(crate) const PROTOCOL: u32 = 2;

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
    /// It asks a host for the next free seat, and plays the player it is given.
    Joiner,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Role::Player(n) => write!(f, "player {}", n + 1),
            Role::Spectator => write!(f, "a spectator"),
            Role::Joiner => write!(f, "a joiner"),
        }
    }
}

/// What a host tells a joiner or a spectator once every seat is taken: the session starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Start {
    /// The receiver's seat (its player); `None` for a spectator.
    pub(crate) seat: Option<usize>,
    /// Each player's address as the host sees it, in player order; `None` for the host's own
    /// seat (the receiver knows it as the address it joined).
    pub(crate) roster: Vec<Option<SocketAddr>>,
}

/// One handshake packet: the sender's terms, its role, and whether it has heard terms that
/// agree from the peer it sends to (then that peer may start). A host adds the start to a
/// joiner or a spectator, or why it turns the receiver away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Hello {
    pub(crate) protocol: u32,
    pub(crate) terms: RunTerms,
    pub(crate) role: Role,
    pub(crate) heard: bool,
    pub(crate) start: Option<Start>,
    pub(crate) turned_away: Option<String>,
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
    /// Exactly this one. A seat waiting at [`UNKNOWN`] for a player is also taken by a
    /// [`Role::Joiner`].
    Role(Role),
    /// Any player: the host a joiner or a spectator asked in.
    AnyPlayer,
}

/// A peer the handshake waits for.
#[derive(Debug)]
pub(crate) struct Contact {
    pub(crate) addr: SocketAddr,
    expect: Expect,
    /// The role it plays, once known: its expected one, or the one its hellos say.
    pub(crate) role: Option<Role>,
    /// Whether it is a player's seat that waited for anyone (a joiner's).
    open_seat: bool,
    /// Terms that agree have come from it (from a host: with the start).
    heard: bool,
    /// It said it heard ours.
    acked: bool,
}

impl Contact {
    pub(crate) fn new(addr: SocketAddr, expect: Expect) -> Contact {
        let role = match expect {
            Expect::Role(role) => Some(role),
            Expect::AnyPlayer => None,
        };
        Contact {
            addr,
            expect,
            role,
            open_seat: addr == UNKNOWN && matches!(expect, Expect::Role(Role::Player(_))),
            heard: false,
            acked: false,
        }
    }

    fn done(&self) -> bool {
        self.heard && self.acked
    }

    fn is_spectator(&self) -> bool {
        self.role == Some(Role::Spectator)
    }
}

/// Spectators a host lets in, at most: each is sent every confirmed input, so each adds the
/// host's upload of one more player; 8 keep it small, and bound what strangers can make a
/// host keep.
pub const MAX_SPECTATORS: usize = 8;

/// How long a host whose seats are all taken waits for the spectators that asked in to say
/// they heard the start, before it starts without those that did not: a spectator answers
/// within a round trip, and a stranger that never answers must not hold the players back.
const SPECTATOR_GRACE: Duration = Duration::from_secs(1);

/// The handshake of one peer with the peers it plays with (or, for a spectator, its host).
#[derive(Debug)]
pub(crate) struct Handshake {
    terms: RunTerms,
    role: Role,
    pub(crate) contacts: Vec<Contact>,
    /// When the time for an answer began: the start, or (for a joiner or spectator) the
    /// host's last hello, so a host still waiting for other players keeps it waiting.
    started: Instant,
    timeout: Duration,
    /// Whether spectators may ask in from any address (a host's).
    open_to_spectators: bool,
    /// Whether the session has started: latecomers are turned away.
    closed: bool,
    /// When every player's seat was first taken and agreed.
    players_ready: Option<Instant>,
    /// Peers a host answered and turned away (another run, no place, too late), and the
    /// last of them as one line, for the host to tell.
    pub(crate) turned_away: u64,
    pub(crate) last_turned_away: Option<String>,
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
            open_to_spectators: false,
            closed: false,
            players_ready: None,
            turned_away: 0,
            last_turned_away: None,
        }
    }

    pub(crate) fn terms(&self) -> &RunTerms {
        &self.terms
    }

    /// This peer's role: a joiner's is its seat once the host gave it.
    pub(crate) fn role(&self) -> Role {
        self.role
    }

    /// Lets spectators ask in from any address until the session starts.
    pub(crate) fn open_to_spectators(&mut self) {
        self.open_to_spectators = true;
    }

    /// The session has started: no one else is let in.
    pub(crate) fn close(&mut self) {
        self.closed = true;
        // Spectators that never answered the start are not in the session.
        self.contacts.retain(|c| !c.is_spectator() || c.done());
    }

    /// Seats waiting for a player from any address, and of them those still free.
    pub(crate) fn joiner_seats(&self) -> (usize, usize) {
        let seats = self.contacts.iter().filter(|c| c.open_seat).count();
        let free = self
            .contacts
            .iter()
            .filter(|c| c.open_seat && c.addr == UNKNOWN)
            .count();
        (seats, free)
    }

    /// Whether every player agreed and heard this side agree, and every spectator too (or
    /// the spectators' grace has passed).
    pub(crate) fn done(&mut self) -> bool {
        let players = self
            .contacts
            .iter()
            .filter(|c| !c.is_spectator())
            .all(Contact::done);
        if !players {
            return false;
        }
        let ready = *self.players_ready.get_or_insert_with(Instant::now);
        self.contacts
            .iter()
            .filter(|c| c.is_spectator())
            .all(Contact::done)
            || ready.elapsed() >= SPECTATOR_GRACE
    }

    /// The start to tell `contact`, a joiner's seat or a spectator, once every player seat
    /// is taken; `None` before, and for the other contacts.
    fn start_for(&self, contact: &Contact) -> Option<Start> {
        let seat = match (contact.expect, contact.role) {
            (_, Some(Role::Spectator)) => None,
            (Expect::Role(Role::Player(p)), _) if contact.open_seat => Some(p),
            _ => return None,
        };
        let Role::Player(own) = self.role else {
            return None;
        };
        let players = self.terms.players;
        let mut roster = vec![None; players];
        for c in &self.contacts {
            if let Some(Role::Player(p)) = c.role {
                if c.addr == UNKNOWN {
                    return None;
                }
                if p < players && p != own {
                    roster[p] = Some(c.addr);
                }
            }
        }
        Some(Start { seat, roster })
    }

    fn hello_for(&self, contact: &Contact) -> Hello {
        Hello {
            protocol: PROTOCOL,
            terms: self.terms.clone(),
            role: self.role,
            heard: contact.heard,
            start: self.start_for(contact),
            turned_away: None,
        }
    }

    /// Reads the hellos that arrived: terms that agree mark their peer heard (and it is told,
    /// even once this side plays, until it starts too); terms that differ refuse it. A host
    /// seats joiners in order of arrival and lets spectators in; a stranger whose run differs,
    /// or who comes when there is no place, is answered and turned away, and the host plays on.
    pub(crate) fn read(&mut self, shared: &RefCell<Shared>) -> Result<(), NetError> {
        let hellos: Vec<_> = shared.borrow_mut().hellos.drain(..).collect();
        for (from, bytes) in hellos {
            let Some(hello) = Hello::from_bytes(&bytes) else {
                shared.borrow_mut().dropped += 1;
                continue;
            };
            let Some(at) = self.contact_for(from, &hello, shared) else {
                continue;
            };
            let refuse = |difference| NetError::Refused {
                peer: from,
                difference,
            };
            let stranger = self.contacts[at].addr == UNKNOWN;
            let is_host = self.contacts[at].expect == Expect::AnyPlayer;
            if is_host {
                if let Some(reason) = hello.turned_away {
                    return Err(NetError::TurnedAway { peer: from, reason });
                }
                if self.terms.players == 0 {
                    let players = hello.terms.players;
                    if players == 0 || players > bt::limits::PLAYERS {
                        return Err(refuse(format!(
                            "a game of {players} players (this run: 1 to {})",
                            bt::limits::PLAYERS
                        )));
                    }
                    self.terms.players = players;
                }
            }
            let difference = if hello.protocol != PROTOCOL {
                Some(format!(
                    "handshake protocol {} (this run: {PROTOCOL})",
                    hello.protocol
                ))
            } else {
                let mut theirs = hello.terms.clone();
                if theirs.players == 0 {
                    // A joiner or spectator learns the number of players from its host.
                    theirs.players = self.terms.players;
                }
                self.terms.first_difference(&theirs)
            };
            let contact = &self.contacts[at];
            let role = match (contact.expect, hello.role) {
                (Expect::Role(Role::Player(_)), Role::Joiner) if stranger => None,
                (Expect::Role(role), theirs) if role != theirs => {
                    Some(format!("as {theirs} (this run: {role} there)"))
                }
                (Expect::AnyPlayer, Role::Spectator | Role::Joiner) => {
                    Some(format!("as {} (this run: a player there)", hello.role))
                }
                _ => None,
            };
            if let Some(difference) = difference.or(role) {
                if stranger || contact.is_spectator() {
                    // A stranger or a spectator whose run is not this one is answered, and
                    // learns the difference from these terms; the players' session goes on.
                    self.turn_away(shared, from, format!("it plays {difference}"), false);
                    if !stranger && !self.closed {
                        self.contacts.remove(at);
                    }
                    continue;
                }
                return Err(refuse(difference));
            }
            let contact = &mut self.contacts[at];
            // A joiner's seat is taken by the first peer whose terms agree.
            contact.addr = from;
            let newly_heard = if is_host {
                contact.role = Some(hello.role);
                // A joiner or spectator hears its host once the host says the session
                // starts; until then each hello keeps it waiting.
                self.started = Instant::now();
                match (&hello.start, self.role) {
                    (Some(start), Role::Joiner | Role::Spectator) => {
                        let start = start.clone();
                        self.take_start(from, &start)?;
                        let contact = &mut self.contacts[at];
                        let newly = !contact.heard;
                        contact.heard = true;
                        newly
                    }
                    (_, Role::Joiner | Role::Spectator) => false,
                    _ => {
                        let newly = !contact.heard;
                        contact.heard = true;
                        newly
                    }
                }
            } else {
                let newly = !contact.heard;
                contact.heard = true;
                newly
            };
            let contact = &mut self.contacts[at];
            contact.acked |= hello.heard;
            if !hello.heard || newly_heard {
                let reply = self.hello_for(&self.contacts[at]);
                shared
                    .borrow_mut()
                    .send(from, Kind::Hello, &reply.to_bytes());
            }
        }
        Ok(())
    }

    /// The contact a hello from `from` is for: a known one, a free seat a joiner takes, or a
    /// new spectator. A stranger with no place is turned away, once a host, with the reason.
    fn contact_for(
        &mut self,
        from: SocketAddr,
        hello: &Hello,
        shared: &RefCell<Shared>,
    ) -> Option<usize> {
        if let Some(at) = self.contacts.iter().position(|c| c.addr == from) {
            return Some(at);
        }
        let (seats, free) = self.joiner_seats();
        let hosts = seats > 0 || self.open_to_spectators;
        let reason = match hello.role {
            Role::Spectator if self.open_to_spectators => {
                let watching = self.contacts.iter().filter(|c| c.is_spectator()).count();
                if self.closed {
                    "the game has started; spectators join before its last player".to_string()
                } else if watching >= MAX_SPECTATORS {
                    format!("it has {MAX_SPECTATORS} spectators, the most it takes")
                } else {
                    self.contacts
                        .push(Contact::new(from, Expect::Role(Role::Spectator)));
                    return Some(self.contacts.len() - 1);
                }
            }
            Role::Spectator => "it takes no spectators".to_string(),
            Role::Joiner | Role::Player(_) => {
                let seat = self.contacts.iter().position(|c| {
                    c.addr == UNKNOWN
                        && (hello.role == Role::Joiner || c.expect == Expect::Role(hello.role))
                });
                if let Some(at) = seat {
                    return Some(at);
                }
                if free == 0 && seats > 0 {
                    format!("all {} players' seats are taken", self.terms.players)
                } else {
                    format!("it waits for no {} from this address", hello.role)
                }
            }
        };
        if hosts {
            self.turn_away(shared, from, reason, true);
        } else {
            // Not a host: a hello from an address not in the session is a stray packet.
            shared.borrow_mut().dropped += 1;
        }
        None
    }

    /// Answers `from` with this run's terms, and `why` it has no place if `tell` (a peer
    /// whose run differs learns the difference from the terms), and notes it.
    fn turn_away(&mut self, shared: &RefCell<Shared>, from: SocketAddr, why: String, tell: bool) {
        self.turned_away += 1;
        self.last_turned_away = Some(format!("turned away the peer at {from}: {why}"));
        let hello = Hello {
            protocol: PROTOCOL,
            terms: self.terms.clone(),
            role: self.role,
            heard: false,
            start: None,
            turned_away: tell.then_some(why),
        };
        shared
            .borrow_mut()
            .send(from, Kind::Hello, &hello.to_bytes());
    }

    /// A joiner takes its seat from the host's start, and waits for the other players at the
    /// addresses the host saw them at; a spectator only learns the session starts.
    fn take_start(&mut self, host: SocketAddr, start: &Start) -> Result<(), NetError> {
        let bad = |what: String| NetError::Refused {
            peer: host,
            difference: what,
        };
        if start.roster.len() != self.terms.players {
            return Err(bad(format!(
                "a roster of {} players (this run: {})",
                start.roster.len(),
                self.terms.players
            )));
        }
        if self.role == Role::Spectator {
            return Ok(());
        }
        let Some(seat) = start.seat.filter(|&s| s < self.terms.players) else {
            return Err(bad("no seat for this peer".to_string()));
        };
        if self.role == Role::Joiner {
            self.role = Role::Player(seat);
            for (player, addr) in start.roster.iter().enumerate() {
                if let Some(addr) = *addr {
                    if player != seat && !self.contacts.iter().any(|c| c.addr == addr) {
                        self.contacts
                            .push(Contact::new(addr, Expect::Role(Role::Player(player))));
                    }
                }
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
            let hello = self.hello_for(contact);
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
        let (seats, free) = self.joiner_seats();
        if free > 0 {
            return Err(NetError::NoJoiner {
                timeout: self.timeout,
                joined: seats - free,
                wanted: seats,
            });
        }
        let waiting = self
            .contacts
            .iter()
            .find(|c| !c.done())
            .or(self.contacts.first());
        match waiting {
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
    fn a_host_that_claims_more_players_than_the_console_has_is_refused() {
        let net = crate::sim::SimNet::new(1, crate::sim::Conditions::PERFECT);
        let host: SocketAddr = "127.0.0.1:7000".parse().unwrap();
        let shared = Shared::new(Box::new(net.link("127.0.0.1:7001".parse().unwrap())));
        let mut ours = terms();
        ours.players = 0;
        let contacts = [(host, Expect::AnyPlayer)];
        let mut joiner = Handshake::new(ours, Role::Joiner, contacts, Duration::from_secs(10));
        let mut theirs = terms();
        theirs.players = 900;
        let hello = Hello {
            protocol: PROTOCOL,
            terms: theirs,
            role: Role::Player(0),
            heard: false,
            start: Some(Start {
                seat: Some(1),
                roster: vec![Some(host); 900],
            }),
            turned_away: None,
        };
        shared
            .borrow_mut()
            .hellos
            .push_back((host, hello.to_bytes()));
        let error = joiner.read(&shared).unwrap_err();
        assert_eq!(
            error.to_string(),
            "refused the peer at 127.0.0.1:7000: it plays a game of 900 players (this run: 1 to 4)"
        );
        assert_eq!(joiner.contacts.len(), 1);
    }

    #[test]
    fn a_spectator_that_changes_its_run_is_turned_away_and_the_host_plays_on() {
        let net = crate::sim::SimNet::new(1, crate::sim::Conditions::PERFECT);
        let watcher: SocketAddr = "127.0.0.1:7002".parse().unwrap();
        let shared = Shared::new(Box::new(net.link("127.0.0.1:7000".parse().unwrap())));
        let seat = [(UNKNOWN, Expect::Role(Role::Player(1)))];
        let mut host = Handshake::new(terms(), Role::Player(0), seat, Duration::from_secs(10));
        host.open_to_spectators();
        let hello = |seed| {
            let mut terms = terms();
            terms.seed = seed;
            terms.players = 0;
            let hello = Hello {
                protocol: PROTOCOL,
                terms,
                role: Role::Spectator,
                heard: false,
                start: None,
                turned_away: None,
            };
            (watcher, hello.to_bytes())
        };
        shared.borrow_mut().hellos.push_back(hello(7));
        host.read(&shared).unwrap();
        assert_eq!(host.contacts.len(), 2, "the spectator is let in");
        shared.borrow_mut().hellos.push_back(hello(8));
        host.read(&shared).unwrap();
        assert_eq!(host.contacts.len(), 1, "and let go");
        assert_eq!(
            host.last_turned_away.as_deref(),
            Some("turned away the peer at 127.0.0.1:7002: it plays seed 8 (this run: 7)")
        );
    }

    #[test]
    fn a_hello_reads_back_and_garbage_reads_as_none() {
        let hello = Hello {
            protocol: PROTOCOL,
            terms: terms(),
            role: Role::Player(1),
            heard: true,
            start: Some(Start {
                seat: Some(1),
                roster: vec![None, Some("127.0.0.1:7001".parse().unwrap())],
            }),
            turned_away: None,
        };
        assert_eq!(Hello::from_bytes(&hello.to_bytes()), Some(hello));
        assert_eq!(Hello::from_bytes(b"\xff\x00{"), None);
    }
}
