//! A cart's own key map: asked for in an update, applied by the host once the update is over,
//! under the buttons a player's key-map file lists, and replayed exactly.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use bt::{Button, Cart, Key, Player, Render, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Host, HostEvent};
use bt_runtime::replay::Replay;
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// On its second update the cart moves player one's A to K and takes B away; its picture is a
/// dot that moves down on every A press, and its log names each update's presses of A and B.
#[derive(Default)]
struct Remapper {
    y: i32,
    log: Rc<RefCell<Vec<String>>>,
}

impl Cart for Remapper {
    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.ticks() == 1 {
            ctx.set_key_map(Player::ONE, Button::A, &[Key::KeyK])
                .unwrap();
            ctx.set_key_map(Player::ONE, Button::B, &[]).unwrap();
        }
        let mut line = format!("{}:", ctx.ticks());
        if ctx.is_pressed(Button::A, Player::ONE) {
            self.y += 1;
            line.push_str(" A");
        }
        if ctx.is_pressed(Button::B, Player::ONE) {
            line.push_str(" B");
        }
        self.log.borrow_mut().push(line);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.draw_pixel(3, self.y, 8);
    }
}

fn engine(replay: Option<Arc<Replay>>) -> (Engine, Rc<RefCell<Vec<String>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = log.clone();
    let factory = move || -> Box<dyn Cart> {
        Box::new(Remapper {
            log: shared.clone(),
            ..Remapper::default()
        })
    };
    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(16, 16)),
        replay,
        ..EngineOptions::default()
    };
    (Engine::new(Box::new(factory), options).unwrap(), log)
}

fn host(keymap: KeyMap) -> (Host, Rc<RefCell<Vec<String>>>) {
    let (mut engine, log) = engine(None);
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    engine.start_recording(1);
    (Host::new(engine, keymap, "remapper"), log)
}

/// Taps `key` and runs a frame (one update).
fn tap(h: &mut Host, key: Key, frame: &mut u64) {
    h.handle(HostEvent::Key { key, down: true });
    h.handle(HostEvent::Key { key, down: false });
    h.frame(*frame as f64 * 1000.0 / 60.0);
    *frame += 1;
}

#[test]
fn a_key_the_cart_maps_to_a_reaches_it_as_a_and_the_replay_verifies() {
    let (mut h, log) = host(KeyMap::default());
    let mut frame = 0;
    for _ in 0..3 {
        h.frame(frame as f64 * 1000.0 / 60.0);
        frame += 1;
    }
    tap(&mut h, Key::KeyK, &mut frame);
    tap(&mut h, Key::KeyZ, &mut frame);
    tap(&mut h, Key::KeyX, &mut frame);
    tap(&mut h, Key::KeyK, &mut frame);
    let lines = log.borrow().clone();
    assert_eq!(
        lines.iter().filter(|l| l.ends_with(" A")).count(),
        2,
        "K pressed A twice, Z no longer did: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains('B')), "B is unmapped");

    let replay = Arc::new(h.engine().recording("remapper", None).unwrap());
    let replay = Arc::new(Replay::from_json(&replay.to_json(), Path::new("r.btr")).unwrap());
    let (mut again, replayed) = engine(Some(replay.clone()));
    again.step(replay.ticks()).unwrap();
    assert_eq!(*replayed.borrow(), lines, "every update saw the same");
    assert!(!replay.hashes().is_empty());
    assert_eq!(replay.first_mismatch(again.hashes()), None);
}

#[test]
fn a_players_key_map_file_wins_for_the_buttons_it_lists() {
    let file = KeyMap::from_toml(
        "version = 1\n[player1]\na = [\"KeyJ\"]\n",
        Path::new("keys.toml"),
    )
    .unwrap();
    let (mut h, log) = host(file);
    let mut frame = 0;
    for _ in 0..3 {
        h.frame(frame as f64 * 1000.0 / 60.0);
        frame += 1;
    }
    tap(&mut h, Key::KeyK, &mut frame);
    tap(&mut h, Key::KeyJ, &mut frame);
    tap(&mut h, Key::KeyX, &mut frame);
    let lines = log.borrow().clone();
    assert_eq!(
        lines[3..],
        ["3:", "4: A", "5:"],
        "K is not A (the file lists A), J still is, and the cart's change to B applies"
    );
}

#[test]
fn a_key_held_across_the_change_follows_the_new_map_and_restart_puts_the_defaults_back() {
    let (mut h, log) = host(KeyMap::default());
    h.handle(HostEvent::Key {
        key: Key::KeyZ,
        down: true,
    });
    for frame in 0..4 {
        h.frame(frame as f64 * 1000.0 / 60.0);
    }
    // Z pressed A on the first update; once the cart moved A to K, holding Z lets go of it.
    let lines = log.borrow().clone();
    assert_eq!(lines[0], "0: A");
    assert!(!h.engine().console().input().is_down(Button::A, Player::ONE));
    h.engine_mut().console_mut().reset(0);
    h.handle(HostEvent::Key {
        key: Key::KeyZ,
        down: false,
    });
    assert_eq!(
        h.engine()
            .console()
            .input()
            .held_from(bt::host::Source::Keyboard, Player::ONE),
        Button::NONE
    );
    h.handle(HostEvent::Key {
        key: Key::KeyX,
        down: true,
    });
    assert_eq!(
        h.engine()
            .console()
            .input()
            .held_from(bt::host::Source::Keyboard, Player::ONE),
        Button::B,
        "after a reset X is B again"
    );
}
