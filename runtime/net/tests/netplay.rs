//! Two peers in one process, joined by the simulated network (or UDP on 127.0.0.1), playing
//! real carts with scripted input.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bt::host::TickButtons;
use bt::{Button, Cart};
use bt_engine::replay::Replay;
use bt_engine::{Engine, EngineOptions};
use bt_net::sim::{Conditions, SimNet, SplitMix};
use bt_net::{Link, NetError, NetSession, NetSettings, Phase, PlayerInput, Seat, UdpLink};

const A: u16 = 1;
const B: u16 = 2;
/// One frame of virtual time at 60 frames a second.
const FRAME: Duration = Duration::from_micros(16_667);

fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// Options for a cart's engine: its asset folder (the platformer's levels and tiles).
fn options(seed: u64) -> EngineOptions {
    EngineOptions {
        seed: Some(seed),
        overlay: false,
        snapshot_budget: 0,
        assets: Some(bt_cart_platformer::ASSETS.into()),
        ..EngineOptions::default()
    }
}

fn engine(cart: fn() -> Box<dyn Cart>, seed: u64) -> Engine {
    let options = options(seed);
    Engine::new(Box::new(cart), options).unwrap()
}

/// A player's scripted input: a button (or none) held for a random while, from a seeded
/// generator, with its edges.
struct Script {
    rng: SplitMix,
    buttons: &'static [Button],
    down: u32,
    hold: u32,
}

impl Script {
    fn new(seed: u64, buttons: &'static [Button]) -> Script {
        Script {
            rng: SplitMix::new(seed),
            buttons,
            down: 0,
            hold: 0,
        }
    }

    fn next(&mut self) -> PlayerInput {
        let before = self.down;
        if self.hold == 0 {
            let pick = self.rng.next_u64() as usize % (self.buttons.len() + 1);
            self.down = self.buttons.get(pick).map_or(0, |b| b.bits());
            self.hold = 1 + (self.rng.next_u64() % 24) as u32;
        }
        self.hold -= 1;
        let buttons = TickButtons {
            down: self.down,
            pressed: self.down & !before,
            released: before & !self.down,
        };
        PlayerInput::new(buttons, [0.0; 6], true)
    }
}

/// A cart, its name, and the buttons its players' scripts press.
#[derive(Clone, Copy)]
struct Game {
    cart: fn() -> Box<dyn Cart>,
    name: &'static str,
    buttons: &'static [Button],
}

const SNAKE: Game = Game {
    cart: bt_cart_snake::cart,
    name: "snake",
    buttons: &[
        Button::UP,
        Button::DOWN,
        Button::LEFT,
        Button::RIGHT,
        Button::A,
    ],
};

const PLATFORMER: Game = Game {
    cart: bt_cart_platformer::cart,
    name: "platformer",
    buttons: &[Button::LEFT, Button::RIGHT, Button::A, Button::UP],
};

struct Peer {
    session: NetSession,
    script: Script,
    input: PlayerInput,
    /// Whether `input` was taken: then the next one is made.
    fresh: bool,
}

impl Peer {
    fn step(&mut self) -> Result<(), NetError> {
        if self.fresh {
            self.input = self.script.next();
        }
        let work = self.session.advance_frame(self.input)?;
        self.fresh = work.input_taken;
        Ok(())
    }
}

fn peer(
    game: Game,
    seed: u64,
    local: usize,
    link: Box<dyn Link>,
    other: SocketAddr,
    settings: NetSettings,
) -> Peer {
    let seats = if local == 0 {
        [Seat::Local, Seat::Remote(other)]
    } else {
        [Seat::Remote(other), Seat::Local]
    };
    let engine = engine(game.cart, seed);
    let session = NetSession::new(engine, game.name, Some("1"), &seats, link, settings).unwrap();
    Peer {
        session,
        script: Script::new(0x5eed + local as u64, game.buttons),
        input: PlayerInput::default(),
        fresh: true,
    }
}

fn lossy() -> Conditions {
    Conditions {
        delay: Duration::from_millis(100),
        jitter: Duration::from_millis(20),
        loss: 0.05,
    }
}

fn recording_settings() -> NetSettings {
    NetSettings {
        record_hash_every: Some(1),
        ..NetSettings::default()
    }
}

/// Steps both peers a frame of virtual time at a time until both confirmed `updates`
/// updates, within `frames` frames in which both took their input. The frames a peer waits
/// are not counted: GGRS's retries run on the wall clock, and the handshake's timeout and
/// the disconnect timeout bound them.
fn play(net: &SimNet, a: &mut Peer, b: &mut Peer, updates: u64, frames: u64) {
    let mut played = 0;
    while a.session.confirmed_updates() < updates || b.session.confirmed_updates() < updates {
        assert!(
            played < frames,
            "not {updates} confirmed updates within {frames} frames: {} and {} ({:?}, {:?})",
            a.session.confirmed_updates(),
            b.session.confirmed_updates(),
            a.session.stats(),
            b.session.stats(),
        );
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        if a.fresh && b.fresh {
            played += 1;
        } else {
            // A peer waits (for the handshake, for synchronisation, or with its prediction
            // window full): GGRS's retries run on the wall clock, so let some real time pass.
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// A replay played through a fresh engine gives the hashes it holds, every one of them.
fn replays_in_a_fresh_engine(replay: &Replay, cart: fn() -> Box<dyn Cart>) {
    let options = EngineOptions {
        replay: Some(Arc::new(replay.clone())),
        ..options(replay.info.seed)
    };
    let mut fresh = Engine::new(Box::new(cart), options).unwrap();
    fresh.log_hashes(1);
    fresh.step(replay.ticks()).unwrap();
    assert_eq!(fresh.hashes().len() as u64, replay.ticks());
    assert_eq!(replay.first_mismatch(fresh.hashes()), None);
}

fn two_peers_agree_over_a_lossy_link(game: Game) {
    const UPDATES: u64 = 10_000;
    let net = SimNet::new(42, lossy());
    let mut a = peer(
        game,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        recording_settings(),
    );
    let mut b = peer(
        game,
        9,
        1,
        Box::new(net.link(addr(B))),
        addr(A),
        recording_settings(),
    );
    play(&net, &mut a, &mut b, UPDATES, 3 * UPDATES);
    let ra = a.session.recording_through(UPDATES).unwrap();
    let rb = b.session.recording_through(UPDATES).unwrap();
    assert_eq!(ra.ticks(), UPDATES);
    // The same input for every update, and the same frame hash after every one.
    assert!(ra == rb, "the two peers' recordings differ");
    assert_eq!(ra.hashes().len() as u64, UPDATES);
    let mut idle = 0;
    for tick in ra.recording().iter() {
        idle += u64::from(tick.buttons[0].down == 0 && tick.buttons[1].down == 0);
    }
    assert!(idle < UPDATES / 2, "both players pressed buttons");
    // As a file, read back and played in a fresh engine, it gives every hash it holds.
    let file = Replay::from_json(&ra.to_json(), std::path::Path::new("a.btr")).unwrap();
    assert!(file == ra);
    replays_in_a_fresh_engine(&file, game.cart);
    // Rollbacks happened, none deeper than the prediction window.
    for stats in [a.session.stats(), b.session.stats()] {
        assert!(stats.rollbacks > 0, "{stats:?}");
        assert!(
            stats.deepest_rollback <= bt_net::DEFAULT_MAX_PREDICTION as u64,
            "{stats:?}"
        );
    }
    let (sent, lost) = net.counts();
    assert!(lost > 0 && lost < sent / 10, "{lost} of {sent} lost");
}

#[test]
fn snake_played_by_two_peers_over_a_lossy_link_agrees_on_every_update() {
    two_peers_agree_over_a_lossy_link(SNAKE);
}

#[test]
fn the_platformer_played_by_two_peers_over_a_lossy_link_agrees_on_every_update() {
    two_peers_agree_over_a_lossy_link(PLATFORMER);
}

/// Steps both peers until one fails; returns the errors.
fn until_refused(net: &SimNet, a: &mut Peer, b: &mut Peer) -> (NetError, Option<NetError>) {
    for _ in 0..600 {
        net.advance(FRAME);
        let ea = a.step().err();
        let eb = b.step().err();
        if let Some(ea) = ea {
            return (ea, eb);
        }
        if let Some(eb) = eb {
            return (eb, None);
        }
    }
    panic!("no one refused");
}

#[test]
fn a_peer_with_another_seed_is_refused_with_the_seed_named() {
    let net = SimNet::new(1, Conditions::PERFECT);
    let settings = NetSettings::default();
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        settings.clone(),
    );
    let mut b = peer(SNAKE, 10, 1, Box::new(net.link(addr(B))), addr(A), settings);
    let (error, _) = until_refused(&net, &mut a, &mut b);
    let line = error.to_string();
    assert!(!line.contains('\n'), "{line}");
    assert!(
        line.contains("seed 10 (this run: 9)") || line.contains("seed 9 (this run: 10)"),
        "{line}"
    );
    assert_ne!(a.session.phase(), Phase::Running);
    // The session stays stopped with the same error.
    if let Err(again) = a.session.advance_frame(PlayerInput::default()) {
        assert!(matches!(again, NetError::Refused { .. }), "{again}");
    }
}

#[test]
fn a_peer_with_another_cart_is_refused_with_the_cart_named() {
    let net = SimNet::new(1, Conditions::PERFECT);
    let settings = NetSettings::default();
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        settings.clone(),
    );
    let mut b = peer(
        PLATFORMER,
        9,
        1,
        Box::new(net.link(addr(B))),
        addr(A),
        settings,
    );
    let (error, _) = until_refused(&net, &mut a, &mut b);
    let line = error.to_string();
    assert!(line.contains("the cart '"), "{line}");
    assert!(
        line.contains("snake") && line.contains("platformer"),
        "{line}"
    );
}

/// A link that keeps a copy of every packet it sends.
struct Tapped {
    inner: Box<dyn Link>,
    sent: Rc<RefCell<Vec<Vec<u8>>>>,
}

impl Link for Tapped {
    fn send(&mut self, to: SocketAddr, bytes: &[u8]) {
        self.sent.borrow_mut().push(bytes.to_vec());
        self.inner.send(to, bytes);
    }

    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>) {
        self.inner.receive(into);
    }
}

#[test]
fn garbage_and_truncated_packets_are_dropped_without_a_panic() {
    let net = SimNet::new(3, Conditions::PERFECT);
    let sent = Rc::new(RefCell::new(Vec::new()));
    let tapped = Tapped {
        inner: Box::new(net.link(addr(B))),
        sent: sent.clone(),
    };
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        recording_settings(),
    );
    let mut b = peer(SNAKE, 9, 1, Box::new(tapped), addr(A), recording_settings());
    let mut rng = SplitMix::new(5);
    let mut injected = 0;
    for _ in 0..600 {
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        // Noise from B's address, and B's real packets cut short or with a byte changed.
        let mut noise = vec![0u8; (rng.next_u64() % 64) as usize];
        noise.iter_mut().for_each(|x| *x = rng.next_u64() as u8);
        net.inject(addr(B), addr(A), noise);
        injected += 1;
        for packet in sent.borrow_mut().drain(..) {
            let cut = rng.next_u64() as usize % packet.len();
            net.inject(addr(B), addr(A), packet[..cut].to_vec());
            let mut changed = packet.clone();
            let at = rng.next_u64() as usize % packet.len();
            changed[at] = changed[at].wrapping_add(1 + (rng.next_u64() % 255) as u8);
            net.inject(addr(B), addr(A), changed);
            injected += 2;
        }
    }
    assert_eq!(a.session.phase(), Phase::Running);
    let dropped = a.session.stats().dropped_packets;
    assert!(dropped + 20 >= injected, "{dropped} of {injected} dropped");
    // Play went on and still agrees.
    let through = a
        .session
        .confirmed_updates()
        .min(b.session.confirmed_updates());
    assert!(through > 400, "{through}");
    assert!(a.session.recording_through(through) == b.session.recording_through(through));
}

#[test]
fn a_peer_that_stops_sending_ends_the_other_with_a_clear_message() {
    let net = SimNet::new(4, Conditions::PERFECT);
    let settings = NetSettings {
        disconnect_timeout: Duration::from_millis(300),
        disconnect_notice: Duration::from_millis(100),
        ..NetSettings::default()
    };
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        settings.clone(),
    );
    let mut b = peer(SNAKE, 9, 1, Box::new(net.link(addr(B))), addr(A), settings);
    play(&net, &mut a, &mut b, 120, 2000);
    net.silence(addr(B));
    // GGRS times a silence on the wall clock: poll for up to 20 s, a bound far past it.
    let started = std::time::Instant::now();
    let error = loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no disconnect noticed"
        );
        net.advance(FRAME);
        if let Err(e) = a.step() {
            break e;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let line = error.to_string();
    assert!(matches!(error, NetError::Gone { .. }), "{line}");
    assert!(
        line.contains("127.0.0.1:2") && line.contains("stopped answering"),
        "{line}"
    );
    assert!(a.session.stats().interruptions >= 1);
}

#[test]
fn two_peers_play_over_udp_on_the_loopback() {
    let la = UdpLink::bind(addr(0)).unwrap();
    let lb = UdpLink::bind(addr(0)).unwrap();
    let (pa, pb) = (la.local_addr().unwrap(), lb.local_addr().unwrap());
    let cart = bt_cart_snake::cart;
    let mut a = peer(SNAKE, 9, 0, Box::new(la), pb, recording_settings());
    let mut b = peer(SNAKE, 9, 1, Box::new(lb), pa, recording_settings());
    let started = std::time::Instant::now();
    while a.session.confirmed_updates() < 300 || b.session.confirmed_updates() < 300 {
        assert!(started.elapsed() < Duration::from_secs(30), "no progress");
        a.step().unwrap();
        b.step().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let ra = a.session.recording_through(300).unwrap();
    assert!(ra == b.session.recording_through(300).unwrap());
    replays_in_a_fresh_engine(&ra, cart);
}

/// A cart whose update adds its `salt` from update 100 on: two peers built with different
/// salts play the same input into different states from there.
#[derive(Debug, Clone, Default)]
struct Drift {
    salt: i32,
    x: i32,
}

impl Cart for Drift {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        if ctx.ticks() >= 99 {
            self.x += self.salt;
        }
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear(1);
        ctx.draw_pixel(self.x.rem_euclid(100), 0, 7);
    }
}

#[test]
fn peers_whose_runs_drift_apart_stop_naming_the_first_update_that_differs() {
    let net = SimNet::new(6, Conditions::PERFECT);
    let drifting = |salt: i32, local: usize, port: u16, other: u16| {
        let engine =
            Engine::new(Box::new(move || Box::new(Drift { salt, x: 0 })), options(9)).unwrap();
        let seats = if local == 0 {
            [Seat::Local, Seat::Remote(addr(other))]
        } else {
            [Seat::Remote(addr(other)), Seat::Local]
        };
        let link = Box::new(net.link(addr(port)));
        NetSession::new(engine, "drift", None, &seats, link, NetSettings::default()).unwrap()
    };
    let mut a = drifting(0, 0, A, B);
    let mut b = drifting(1, 1, B, A);
    let mut stopped = None;
    for _ in 0..5000 {
        net.advance(FRAME);
        let ra = a.advance_frame(PlayerInput::default());
        let rb = b.advance_frame(PlayerInput::default());
        if let Err(e) = ra.and(rb) {
            stopped = Some(e);
            break;
        }
        if a.phase() != Phase::Running {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    let error = stopped.expect("the drift was not noticed");
    let line = error.to_string();
    assert!(
        matches!(error, NetError::Desync { update: 100, .. }),
        "{line}"
    );
    assert!(line.contains("differ after update 100"), "{line}");
    assert!(!line.contains('\n'));
}

#[test]
fn an_update_run_again_after_a_rollback_is_not_heard_twice() {
    let net = SimNet::new(8, lossy());
    let cart = bt_cart_snake::cart;
    let (mut a, mut b) = snake_pair(&net);
    let mut heard = 0;
    while a.session.confirmed_updates() < 1200 {
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        heard += a.session.drain_sound().len();
        if a.session.phase() != Phase::Running {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    assert!(a.session.stats().resimulated > 0);
    // As much sound as the updates run once make, whatever they play.
    let updates = a.session.engine().updates_since_init();
    let mut once = engine(cart, 9);
    let mut made = 0;
    for _ in 0..updates {
        once.update_with(&bt::host::TickInput::default()).unwrap();
        made += once.console_mut().drain_frames().len();
    }
    assert_eq!(heard, made);
}

#[test]
fn a_rollback_frame_shows_each_update_run_again_on_the_overlays_chart() {
    let net = SimNet::new(8, lossy());
    let (a, mut b) = snake_pair(&net);
    // The engine apart from the session, as the window holds it, and the chart it shows.
    let Peer {
        session,
        mut script,
        ..
    } = a;
    let (mut engine, mut a) = session.into_parts();
    let settings = bt::Settings::default()
        .overlay_visible(true)
        .timing_chart(true);
    let mut overlay = bt_overlay::Overlay::new(&settings);
    let (mut input, mut fresh, mut frames) = (PlayerInput::default(), true, 0);
    let rerun = loop {
        assert!(frames < 20_000, "no rollback in {frames} frames");
        net.advance(FRAME);
        if fresh {
            input = script.next();
        }
        let work = a.advance_frame(&mut engine, input).unwrap();
        fresh = work.input_taken;
        b.step().unwrap();
        // What the window's frame reports: no time, so the column holds no dot.
        overlay.mark_rollback(u32::try_from(work.rolled_back).unwrap());
        overlay.record(&bt_overlay::FrameStats {
            updates: work.updates,
            delta_ms: 16.0,
            ..bt_overlay::FrameStats::default()
        });
        frames += 1;
        if work.rolled_back > 0 {
            assert!(u64::from(work.updates) > work.rolled_back, "{work:?}");
            break work.rolled_back as usize;
        }
        if a.phase() != Phase::Running {
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    assert_eq!(overlay.last_rerun() as usize, rerun);
    let mut fb = bt::host::Framebuffer::new(settings.width, settings.height);
    overlay.draw(&mut fb);
    // The band's rows (under the title row), the newest frame's column: a cell in the tag
    // colour for each update run again, up from its foot.
    let (top, bottom) = (
        bt_overlay::BAR_HEIGHT + bt_overlay::ROW_GAP,
        bt_overlay::BAR_HEIGHT + bt_overlay::ROW_GAP + bt_overlay::CHART_HEIGHT,
    );
    let x = (frames.min(settings.width as usize) - 1) as i32;
    let tag = overlay.colors().tag;
    let column: Vec<bool> = (top..bottom).map(|y| fb.get(x, y) == Some(tag)).collect();
    let cells = column.iter().filter(|&&t| t).count();
    assert_eq!(cells, rerun, "{column:?}");
    assert!(column[column.len() - rerun..].iter().all(|&t| t));
}

#[test]
fn a_peer_that_never_answers_ends_the_handshake_with_a_clear_message() {
    let net = SimNet::new(1, Conditions::PERFECT);
    let settings = NetSettings {
        handshake_timeout: Duration::from_millis(200),
        ..NetSettings::default()
    };
    let mut a = peer(SNAKE, 9, 0, Box::new(net.link(addr(A))), addr(B), settings);
    // The handshake times out on the wall clock: poll for up to 20 s, a bound far past it.
    let started = std::time::Instant::now();
    let error = loop {
        assert!(started.elapsed() < Duration::from_secs(20), "no timeout");
        net.advance(FRAME);
        if let Err(e) = a.step() {
            break e;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let line = error.to_string();
    assert!(matches!(error, NetError::NoAnswer { .. }), "{line}");
    assert!(
        line.starts_with("no answer from the peer at 127.0.0.1:2"),
        "{line}"
    );
    assert_eq!(a.session.phase(), Phase::Handshake);
}

#[test]
fn seats_need_one_local_player_and_at_most_four() {
    let net = SimNet::new(1, Conditions::PERFECT);
    let seats_error = |seats: &[Seat]| {
        let link = Box::new(net.link(addr(A)));
        let session = NetSession::new(
            engine(SNAKE.cart, 9),
            "snake",
            None,
            seats,
            link,
            NetSettings::default(),
        );
        session.unwrap_err().to_string()
    };
    let remote = |port| Seat::Remote(addr(port));
    assert_eq!(
        seats_error(&[remote(B), remote(3)]),
        "a session has one local player, not 0"
    );
    assert_eq!(
        seats_error(&[Seat::Local, Seat::Local]),
        "a session has one local player, not 2"
    );
    assert_eq!(
        seats_error(&[Seat::Local, remote(2), remote(3), remote(4), remote(5)]),
        "a session has 1 to 4 players, not 5"
    );
    assert_eq!(
        seats_error(&[Seat::Local, remote(2), remote(2)]),
        "two players at 127.0.0.1:2: one peer plays one player"
    );
    let mut played = engine(SNAKE.cart, 9);
    played.update_with(&bt::host::TickInput::default()).unwrap();
    let session = NetSession::new(
        played,
        "snake",
        None,
        &[Seat::Local, remote(B)],
        Box::new(net.link(addr(A))),
        NetSettings::default(),
    );
    assert_eq!(
        session.unwrap_err().to_string(),
        "a session starts from boot; this engine is at update 1"
    );
}

#[test]
fn a_spectator_plays_the_same_run_as_the_players() {
    const UPDATES: u64 = 3000;
    let net = SimNet::new(11, lossy());
    let watcher = addr(3);
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        recording_settings(),
    );
    a.session = a.session.with_spectators(&[watcher]).unwrap();
    let mut b = peer(
        SNAKE,
        9,
        1,
        Box::new(net.link(addr(B))),
        addr(A),
        recording_settings(),
    );
    let mut s = bt_net::NetSpectator::new(
        engine(SNAKE.cart, 9),
        "snake",
        Some("1"),
        addr(A),
        Box::new(net.link(watcher)),
        recording_settings(),
    )
    .unwrap();
    let mut played = 0;
    while s.updates() < UPDATES || b.session.confirmed_updates() < UPDATES {
        assert!(played < 4 * UPDATES, "the spectator is at {}", s.updates());
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        s.advance_frame().unwrap();
        if s.phase() == Phase::Running {
            played += 1;
        } else {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    let watched = s.recording_through(UPDATES).unwrap();
    assert_eq!(watched.ticks(), UPDATES);
    assert!(watched == a.session.recording_through(UPDATES).unwrap());
    assert!(watched == b.session.recording_through(UPDATES).unwrap());
}

/// Quits in its 50th update.
#[derive(Debug, Clone, Default)]
struct Quitter;

impl Cart for Quitter {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        if ctx.ticks() == 49 {
            ctx.quit();
        }
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear(1);
    }
}

#[test]
fn a_cart_that_quits_ends_the_session_naming_the_update() {
    let net = SimNet::new(12, Conditions::PERFECT);
    let quitter = |local: usize, port: u16, other: u16| {
        let engine = Engine::new(Box::new(|| Box::new(Quitter)), options(9)).unwrap();
        let seats = if local == 0 {
            [Seat::Local, Seat::Remote(addr(other))]
        } else {
            [Seat::Remote(addr(other)), Seat::Local]
        };
        let link = Box::new(net.link(addr(port)));
        NetSession::new(
            engine,
            "quitter",
            None,
            &seats,
            link,
            NetSettings::default(),
        )
        .unwrap()
    };
    let (mut a, mut b) = (quitter(0, A, B), quitter(1, B, A));
    let mut stopped = None;
    for _ in 0..2000 {
        net.advance(FRAME);
        let ra = a.advance_frame(PlayerInput::default());
        let rb = b.advance_frame(PlayerInput::default());
        if let Err(e) = ra.and(rb) {
            stopped = Some(e);
            break;
        }
    }
    let error = stopped.expect("the quit was not noticed");
    assert_eq!(
        error.to_string(),
        "the cart quit after update 50; the session ends there"
    );
}

#[test]
fn four_peers_over_a_lossy_link_agree_on_every_update() {
    const UPDATES: u64 = 1500;
    let net = SimNet::new(13, lossy());
    let ports = [11, 12, 13, 14];
    let mut peers: Vec<Peer> = (0..4)
        .map(|local| {
            let seats: Vec<Seat> = (0..4)
                .map(|p| {
                    if p == local {
                        Seat::Local
                    } else {
                        Seat::Remote(addr(ports[p]))
                    }
                })
                .collect();
            let link = Box::new(net.link(addr(ports[local])));
            let engine = engine(SNAKE.cart, 9);
            let session =
                NetSession::new(engine, "snake", None, &seats, link, recording_settings()).unwrap();
            Peer {
                session,
                script: Script::new(0x5eed + local as u64, SNAKE.buttons),
                input: PlayerInput::default(),
                fresh: true,
            }
        })
        .collect();
    // With every peer's window full at once, only GGRS's resend (every 200 ms of wall-clock
    // time) repairs a lost packet: such frames wait a little real time, and the bound is in
    // real time too, far past what the run takes.
    let started = std::time::Instant::now();
    while peers
        .iter()
        .any(|p| p.session.confirmed_updates() < UPDATES)
    {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "stuck: {:?}",
            peers[0].session.stats()
        );
        net.advance(FRAME);
        for p in &mut peers {
            p.step().unwrap();
        }
        if peers.iter().any(|p| !p.fresh) {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
    let first = peers[0].session.recording_through(UPDATES).unwrap();
    assert_eq!(first.ticks(), UPDATES);
    for p in &peers[1..] {
        assert!(p.session.recording_through(UPDATES).unwrap() == first);
    }
    // Every player's input is in it.
    let pressed: Vec<bool> = (0..4)
        .map(|player| {
            first
                .recording()
                .iter()
                .any(|t| t.buttons[player].down != 0)
        })
        .collect();
    assert_eq!(pressed, [true; 4]);
}

#[test]
fn a_host_that_waits_for_a_joiner_plays_with_the_first_peer_that_agrees() {
    const UPDATES: u64 = 600;
    let net = SimNet::new(7, lossy());
    // The host knows no address: its second seat is taken by whoever joins first. It keeps
    // its engine itself, as a window does, and hands it over each frame.
    let session = NetSession::new(
        engine(SNAKE.cart, 9),
        SNAKE.name,
        Some("1"),
        &[Seat::Local, Seat::Joiner],
        Box::new(net.link(addr(A))),
        recording_settings(),
    )
    .unwrap();
    let (mut host_engine, mut host) = session.into_parts();
    let mut b = peer(
        SNAKE,
        9,
        1,
        Box::new(net.link(addr(B))),
        addr(A),
        recording_settings(),
    );
    let mut script = Script::new(0x5eed, SNAKE.buttons);
    let (mut input, mut fresh) = (PlayerInput::default(), true);
    let started = std::time::Instant::now();
    while host.confirmed_updates(&host_engine) < UPDATES || b.session.confirmed_updates() < UPDATES
    {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        net.advance(FRAME);
        if fresh {
            input = script.next();
        }
        fresh = host
            .advance_frame(&mut host_engine, input)
            .unwrap()
            .input_taken;
        b.step().unwrap();
        if !(fresh && b.fresh) {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    let ra = host.recording_through(&host_engine, UPDATES).unwrap();
    let rb = b.session.recording_through(UPDATES).unwrap();
    assert_eq!(ra.ticks(), UPDATES);
    assert!(ra == rb, "the two peers' recordings differ");
    replays_in_a_fresh_engine(&ra, SNAKE.cart);
}

#[test]
fn a_host_nobody_joins_ends_with_a_clear_message() {
    let net = SimNet::new(1, Conditions::PERFECT);
    let settings = NetSettings {
        handshake_timeout: Duration::from_millis(200),
        ..NetSettings::default()
    };
    let mut a = NetSession::new(
        engine(SNAKE.cart, 9),
        SNAKE.name,
        Some("1"),
        &[Seat::Local, Seat::Joiner],
        Box::new(net.link(addr(A))),
        settings,
    )
    .unwrap();
    // The handshake times out on the wall clock: poll for up to 20 s, a bound far past it.
    let started = std::time::Instant::now();
    let error = loop {
        assert!(started.elapsed() < Duration::from_secs(20), "no timeout");
        net.advance(FRAME);
        if let Err(e) = a.advance_frame(PlayerInput::default()) {
            break e;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert_eq!(error.to_string(), "nobody joined within 0.2s");
}

/// A UDP link on a free port of the loopback, and its address.
fn udp() -> (UdpLink, SocketAddr) {
    let link = UdpLink::bind(addr(0)).unwrap();
    let at = link.local_addr().unwrap();
    (link, at)
}

/// A peer that joins the host at `host` and plays the seat it is given.
fn joiner(game: Game, seed: u64, script: u64, host: SocketAddr, link: Box<dyn Link>) -> Peer {
    let engine = engine(game.cart, seed);
    let session = NetSession::join(
        engine,
        game.name,
        Some("1"),
        host,
        link,
        recording_settings(),
    )
    .unwrap();
    Peer {
        session,
        script: Script::new(script, game.buttons),
        input: PlayerInput::default(),
        fresh: true,
    }
}

/// A host of `players` players whose other seats wait for joiners, open to spectators.
fn hosting(game: Game, players: usize, link: Box<dyn Link>, settings: NetSettings) -> Peer {
    let mut seats = vec![Seat::Joiner; players];
    seats[0] = Seat::Local;
    let engine = engine(game.cart, 9);
    let session = NetSession::new(engine, game.name, Some("1"), &seats, link, settings)
        .unwrap()
        .open_to_spectators();
    Peer {
        session,
        script: Script::new(0x5eed, game.buttons),
        input: PlayerInput::default(),
        fresh: true,
    }
}

/// Steps every peer (and the spectator) until `until` holds, for at most 60 s of real time.
fn step_all(
    peers: &mut [&mut Peer],
    watcher: Option<&mut bt_net::NetSpectator>,
    until: impl Fn(&[&mut Peer]) -> bool,
) {
    let started = std::time::Instant::now();
    let mut watcher = watcher;
    while !until(peers) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no progress: {:?}",
            peers.iter().map(|p| p.session.stats()).collect::<Vec<_>>()
        );
        for p in peers.iter_mut() {
            p.step().unwrap();
        }
        if let Some(w) = watcher.as_mut() {
            w.advance_frame().unwrap();
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

#[test]
fn three_players_take_their_seats_in_order_of_arrival_and_a_spectator_watches_over_udp() {
    const UPDATES: u64 = 400;
    let (host_link, host_at) = udp();
    let mut host = hosting(SNAKE, 3, Box::new(host_link), recording_settings());
    let mut first = joiner(SNAKE, 9, 1, host_at, Box::new(udp().0));
    // The first joiner arrives alone: it holds seat 2 and waits for the third player.
    step_all(&mut [&mut host, &mut first], None, |p| {
        p[0].session.peer().joined() == (1, 2)
    });
    assert_eq!(first.session.phase(), Phase::Handshake);
    let mut watcher = watching(SNAKE, 9, host_at);
    for _ in 0..10 {
        watcher.advance_frame().unwrap();
        host.step().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut second = joiner(SNAKE, 9, 2, host_at, Box::new(udp().0));
    step_all(
        &mut [&mut host, &mut first, &mut second],
        Some(&mut watcher),
        |p| p.iter().all(|p| p.session.confirmed_updates() >= UPDATES),
    );
    assert_eq!(
        [&host, &first, &second].map(|p| (p.session.local_player(), p.session.peer().players())),
        [(0, 3), (1, 3), (2, 3)],
        "seats in order of arrival"
    );
    assert_eq!(host.session.peer().spectators(), 1);
    let watched = loop {
        if watcher.updates() >= UPDATES {
            break watcher.recording_through(UPDATES).unwrap();
        }
        host.step().unwrap();
        first.step().unwrap();
        second.step().unwrap();
        watcher.advance_frame().unwrap();
        std::thread::sleep(Duration::from_micros(500));
    };
    let recorded = host.session.recording_through(UPDATES).unwrap();
    assert_eq!(recorded.ticks(), UPDATES);
    for p in [&first, &second] {
        assert!(p.session.recording_through(UPDATES).unwrap() == recorded);
    }
    assert!(watched == recorded, "the spectator's run differs");
    let pressed: Vec<bool> = (0..3)
        .map(|player| {
            recorded
                .recording()
                .iter()
                .any(|t| t.buttons[player].down != 0)
        })
        .collect();
    assert_eq!(pressed, [true; 3]);
    replays_in_a_fresh_engine(&recorded, SNAKE.cart);
}

/// Steps `peer` (and the running pair) until it fails, for at most 20 s: its error.
/// A spectator of `game` with `seed`, asking the host at `host` over UDP, recording.
fn watching(game: Game, seed: u64, host: SocketAddr) -> bt_net::NetSpectator {
    bt_net::NetSpectator::new(
        engine(game.cart, seed),
        game.name,
        Some("1"),
        host,
        Box::new(udp().0),
        recording_settings(),
    )
    .unwrap()
}

/// Steps `running` and the spectator until the spectator's run stops (20 s at most).
fn until_it_fails_to_watch(
    watcher: &mut bt_net::NetSpectator,
    running: &mut [&mut Peer],
) -> NetError {
    let started = std::time::Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(20), "no error");
        for p in running.iter_mut() {
            p.step().unwrap();
        }
        if let Err(e) = watcher.advance_frame() {
            return e;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Two peers of snake with seed 9 over `net`, players 1 and 2, with the default settings.
fn snake_pair(net: &SimNet) -> (Peer, Peer) {
    let one = |me: u16, other: u16, script| {
        peer(
            SNAKE,
            9,
            script,
            Box::new(net.link(addr(me))),
            addr(other),
            NetSettings::default(),
        )
    };
    (one(A, B, 0), one(B, A, 1))
}

fn until_it_fails(peer: &mut Peer, running: &mut [&mut Peer]) -> NetError {
    let started = std::time::Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(20), "no error");
        for p in running.iter_mut() {
            p.step().unwrap();
        }
        if let Err(e) = peer.step() {
            return e;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_joiner_or_spectator_of_another_run_is_told_at_once_and_the_host_waits_on_for_the_right_one() {
    let (host_link, host_at) = udp();
    let settings = NetSettings {
        handshake_timeout: Duration::from_secs(30),
        ..recording_settings()
    };
    let mut host = hosting(SNAKE, 2, Box::new(host_link), settings);
    let mut stranger = joiner(SNAKE, 10, 1, host_at, Box::new(udp().0));
    let started = std::time::Instant::now();
    let error = until_it_fails(&mut stranger, &mut [&mut host]);
    // Told from the host's answer, long before the 10 s a silent host would take.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        error.to_string(),
        format!("refused the peer at {host_at}: it plays seed 9 (this run: 10)")
    );
    assert_eq!(host.session.phase(), Phase::Handshake);
    assert!(host.session.stats().turned_away >= 1);
    let mut other_cart = joiner(PLATFORMER, 9, 1, host_at, Box::new(udp().0));
    let error = until_it_fails(&mut other_cart, &mut [&mut host]);
    assert!(
        error
            .to_string()
            .contains("it plays the cart 'snake' (this run: 'platformer')"),
        "{error}"
    );
    assert_eq!(host.session.peer().joined(), (0, 1));
    // A spectator of another run is told too, and not kept.
    let mut watcher = watching(SNAKE, 10, host_at);
    let error = until_it_fails_to_watch(&mut watcher, &mut [&mut host]);
    assert_eq!(
        error.to_string(),
        format!("refused the peer at {host_at}: it plays seed 9 (this run: 10)")
    );
    for _ in 0..10 {
        host.step().unwrap();
    }
    assert_eq!(host.session.peer().known_peers(), 1);
    let mut friend = joiner(SNAKE, 9, 1, host_at, Box::new(udp().0));
    step_all(&mut [&mut host, &mut friend], None, |p| {
        p.iter().all(|p| p.session.confirmed_updates() >= 60)
    });
    assert_eq!(friend.session.local_player(), 1);
}

#[test]
fn a_late_spectator_and_a_joiner_with_no_seat_are_turned_away_with_one_line() {
    let (host_link, host_at) = udp();
    let mut host = hosting(SNAKE, 2, Box::new(host_link), recording_settings());
    let mut friend = joiner(SNAKE, 9, 1, host_at, Box::new(udp().0));
    step_all(&mut [&mut host, &mut friend], None, |p| {
        p.iter().all(|p| p.session.confirmed_updates() >= 30)
    });
    let mut late = joiner(SNAKE, 9, 2, host_at, Box::new(udp().0));
    let error = until_it_fails(&mut late, &mut [&mut host, &mut friend]);
    assert_eq!(
        error.to_string(),
        format!("the game at {host_at} turned this peer away: all 2 players' seats are taken")
    );
    let mut watcher = watching(SNAKE, 9, host_at);
    let error = until_it_fails_to_watch(&mut watcher, &mut [&mut host, &mut friend]);
    assert_eq!(
        error.to_string(),
        format!(
            "the game at {host_at} turned this peer away: the game has started; spectators join before its last player"
        )
    );
    // The game went on, and keeps no state for either.
    assert_eq!(host.session.phase(), Phase::Running);
    assert_eq!(host.session.peer().known_peers(), 1);
    assert!(host.session.stats().turned_away >= 2);
}

#[test]
fn spectators_past_the_most_a_host_takes_are_turned_away_and_silent_ones_hold_nothing_up() {
    let (host_link, host_at) = udp();
    let mut host = hosting(SNAKE, 2, Box::new(host_link), recording_settings());
    let watcher = || {
        bt_net::NetSpectator::new(
            engine(SNAKE.cart, 9),
            SNAKE.name,
            Some("1"),
            host_at,
            Box::new(udp().0),
            recording_settings(),
        )
        .unwrap()
    };
    // More strangers than places ask to watch, once each, and never answer again.
    let mut crowd: Vec<_> = (0..bt_net::MAX_SPECTATORS + 3).map(|_| watcher()).collect();
    for w in &mut crowd {
        w.advance_frame().unwrap();
    }
    for _ in 0..20 {
        host.step().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        host.session.peer().known_peers(),
        1 + bt_net::MAX_SPECTATORS,
        "one seat and the spectators' places, no more"
    );
    // The ones past the places hear why.
    let last = crowd.last_mut().unwrap();
    let started = std::time::Instant::now();
    let error = loop {
        assert!(started.elapsed() < Duration::from_secs(20), "no error");
        if let Err(e) = last.advance_frame() {
            break e;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(
        error
            .to_string()
            .ends_with("turned this peer away: it has 8 spectators, the most it takes"),
        "{error}"
    );
    // A player joins: the game starts without the spectators that never answered.
    let mut friend = joiner(SNAKE, 9, 1, host_at, Box::new(udp().0));
    step_all(&mut [&mut host, &mut friend], None, |p| {
        p.iter().all(|p| p.session.confirmed_updates() >= 30)
    });
    assert_eq!(host.session.peer().spectators(), 0);
    assert_eq!(host.session.peer().known_peers(), 1);
}

/// A link that sends again, now and then, a packet it sent before: replays from the real
/// address, as a network that duplicates or an attacker on the path would.
struct Replaying {
    inner: UdpLink,
    sent: Rc<RefCell<Vec<Vec<u8>>>>,
    rng: SplitMix,
}

impl Link for Replaying {
    fn send(&mut self, to: SocketAddr, bytes: &[u8]) {
        self.inner.send(to, bytes);
        let mut sent = self.sent.borrow_mut();
        if !sent.is_empty() && self.rng.next_u64().is_multiple_of(4) {
            let old = sent[self.rng.next_u64() as usize % sent.len()].clone();
            self.inner.send(to, &old);
        }
        // The last few hundred are kept: enough to replay old ones, bounded.
        if sent.len() < 512 {
            sent.push(bytes.to_vec());
        } else {
            let at = self.rng.next_u64() as usize % sent.len();
            sent[at] = bytes.to_vec();
        }
    }

    fn receive(&mut self, into: &mut Vec<(SocketAddr, Vec<u8>)>) {
        self.inner.receive(into);
    }
}

#[test]
fn garbage_truncated_replayed_and_foreign_packets_at_a_udp_session_are_dropped_and_counted() {
    const UPDATES: u64 = 600;
    let (la, pa) = udp();
    let (lb, pb) = udp();
    let sent = Rc::new(RefCell::new(Vec::new()));
    let replaying = Replaying {
        inner: lb,
        sent: sent.clone(),
        rng: SplitMix::new(17),
    };
    let mut a = peer(SNAKE, 9, 0, Box::new(la), pb, recording_settings());
    let mut b = peer(SNAKE, 9, 1, Box::new(replaying), pa, recording_settings());
    // A third address: noise, B's packets cut short, and B's packets whole (a replay from
    // elsewhere: its hellos and GGRS's messages).
    let stranger = std::net::UdpSocket::bind(addr(0)).unwrap();
    let mut rng = SplitMix::new(23);
    let mut foreign = 0u64;
    let started = std::time::Instant::now();
    while a.session.confirmed_updates() < UPDATES || b.session.confirmed_updates() < UPDATES {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        a.step().unwrap();
        b.step().unwrap();
        let mut noise = vec![0u8; (rng.next_u64() % 64) as usize];
        noise.iter_mut().for_each(|x| *x = rng.next_u64() as u8);
        let copies: Vec<Vec<u8>> = {
            let sent = sent.borrow();
            (0..2)
                .filter(|_| !sent.is_empty())
                .map(|_| sent[rng.next_u64() as usize % sent.len()].clone())
                .collect()
        };
        let mut packets = vec![noise];
        for copy in copies {
            let cut = rng.next_u64() as usize % copy.len();
            packets.push(copy[..cut].to_vec());
            packets.push(copy);
        }
        for packet in packets {
            stranger.send_to(&packet, pa).unwrap();
            foreign += 1;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // Whatever arrived was dropped and counted: a few may still be on their way, and copies
    // of GGRS's messages that came before A's GGRS ran were dropped as early, uncounted.
    let dropped = a.session.stats().dropped_packets;
    assert!(
        dropped + 60 >= foreign && dropped <= foreign,
        "{dropped} of {foreign} foreign packets dropped"
    );
    assert_eq!(a.session.peer().known_peers(), 1);
    let ra = a.session.recording_through(UPDATES).unwrap();
    assert!(ra == b.session.recording_through(UPDATES).unwrap());
    replays_in_a_fresh_engine(&ra, SNAKE.cart);
}

#[test]
fn a_spectator_that_leaves_takes_nothing_from_the_players_game() {
    let net = SimNet::new(21, Conditions::PERFECT);
    let settings = NetSettings {
        disconnect_timeout: Duration::from_millis(300),
        disconnect_notice: Duration::from_millis(100),
        ..recording_settings()
    };
    let watcher = addr(3);
    let mut a = peer(
        SNAKE,
        9,
        0,
        Box::new(net.link(addr(A))),
        addr(B),
        settings.clone(),
    );
    a.session = a.session.with_spectators(&[watcher]).unwrap();
    let mut b = peer(
        SNAKE,
        9,
        1,
        Box::new(net.link(addr(B))),
        addr(A),
        settings.clone(),
    );
    let mut s = bt_net::NetSpectator::new(
        engine(SNAKE.cart, 9),
        SNAKE.name,
        Some("1"),
        addr(A),
        Box::new(net.link(watcher)),
        settings,
    )
    .unwrap();
    let started = std::time::Instant::now();
    while s.updates() < 60 {
        assert!(started.elapsed() < Duration::from_secs(20), "no progress");
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        s.advance_frame().unwrap();
        std::thread::sleep(Duration::from_micros(200));
    }
    // The spectator is gone; the players play on well past the disconnect timeout.
    drop(s);
    net.silence(watcher);
    let (gone_at, started) = (a.session.confirmed_updates(), std::time::Instant::now());
    while started.elapsed() < Duration::from_millis(1500) {
        net.advance(FRAME);
        a.step().unwrap();
        b.step().unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(a.session.confirmed_updates() > gone_at + 60);
    assert_eq!(a.session.phase(), Phase::Running);
}
