//! The pause menu and the quit key, driven headless through the host layer the window uses:
//! pausing is not a tick, the menu never reaches the cart, and a paused run plays on exactly
//! as one that never paused.

use std::cell::RefCell;
use std::rc::Rc;

use bt::{Button, Cart, Key, Player, Render, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::pause_menu::MenuChoice;
use bt_runtime::host::{FileKind, Host, HostAction, HostEvent};
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// A cart whose picture is its whole state: a dot that moves right on every update and jumps
/// down while A is held; every update's keys are logged.
#[derive(Default)]
struct Walker {
    x: i32,
    y: i32,
    log: Rc<RefCell<Vec<String>>>,
}

impl Cart for Walker {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        ctx.set_menu_item(1, "Jump");
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if let Some(slot) = ctx.chosen_menu_item() {
            self.log
                .borrow_mut()
                .push(format!("chose {slot} at {}", ctx.ticks()));
            self.y = (self.y + 10) % 64;
            return;
        }
        self.x = (self.x + 1) % 64;
        if ctx.is_down(Button::A, Player::ONE) {
            self.y = (self.y + 1) % 64;
        }
        let mut seen = String::new();
        for k in [Key::Enter, Key::KeyP, Key::ArrowDown, Key::KeyQ] {
            if ctx.is_key_down(k) {
                seen.push_str(&format!("{k:?} "));
            }
        }
        seen.push_str(ctx.input_string());
        self.log.borrow_mut().push(seen);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        // No clear: what was drawn before stays, so anything drawn over the frame would too.
        ctx.draw_pixel(self.x, self.y, 8);
    }
}

/// An engine running a walker on a 64 x 64 display (playing `replay` if given), and the log
/// its updates write.
fn walker(
    replay: Option<std::sync::Arc<bt_runtime::replay::Replay>>,
) -> (Engine, Rc<RefCell<Vec<String>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = log.clone();
    let factory = move || -> Box<dyn Cart> {
        Box::new(Walker {
            log: shared.clone(),
            ..Walker::default()
        })
    };
    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(64, 64)),
        replay,
        ..EngineOptions::default()
    };
    (Engine::new(Box::new(factory), options).unwrap(), log)
}

fn host() -> (Host, Rc<RefCell<Vec<String>>>) {
    let (mut engine, log) = walker(None);
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    (Host::new(engine, KeyMap::default(), "walker"), log)
}

fn key(h: &mut Host, key: Key, down: bool) -> Option<HostAction> {
    h.handle(HostEvent::Key { key, down })
}

fn tap(h: &mut Host, k: Key) -> Option<HostAction> {
    let action = key(h, k, true);
    key(h, k, false);
    action
}

/// Plays `frames` frames, holding A on frames 10 to 20.
fn play(h: &mut Host, from: u64, frames: u64) {
    for f in from..from + frames {
        if f == 10 {
            key(h, Key::KeyZ, true);
        }
        if f == 20 {
            key(h, Key::KeyZ, false);
        }
        h.frame(f as f64 * 16.0);
    }
}

#[test]
fn the_keys_that_save_a_file_hand_it_over_with_the_menu_open() {
    let (mut h, _) = host();
    h.engine_mut()
        .start_recording(bt_runtime::replay::DEFAULT_HASH_EVERY);
    play(&mut h, 0, 10);
    assert_eq!(tap(&mut h, Key::KeyP), Some(HostAction::MenuOpened));
    for (k, kind) in [
        (Key::F2, FileKind::Replay),
        // A host given no report keeps the Chrome trace alone.
        (Key::F8, FileKind::TimingTrace),
        (Key::F9, FileKind::Screenshot),
    ] {
        match tap(&mut h, k) {
            Some(HostAction::Saved) => assert_eq!(h.take_outbox()[0].kind, kind, "{k:?}"),
            other => panic!("{k:?}: {other:?}"),
        }
        assert!(h.menu_is_open(), "{k:?} left the menu open");
    }
}

#[test]
fn a_paused_run_plays_on_to_the_ticks_and_pixels_of_one_that_never_paused() {
    let (mut plain, _) = host();
    play(&mut plain, 0, 60);

    let (mut paused, log) = host();
    play(&mut paused, 0, 15);
    let ticks = paused.engine().ticks();
    assert_eq!(tap(&mut paused, Key::KeyP), Some(HostAction::MenuOpened));
    assert!(paused.menu_is_open() && paused.engine().is_paused());
    // A second of frames with the menu open, the selection moved about: no tick.
    for f in 0..60 {
        paused.frame(1000.0 + f as f64 * 16.0);
        if f % 10 == 0 {
            tap(&mut paused, Key::ArrowDown);
        }
    }
    assert_eq!(paused.engine().ticks(), ticks, "pausing is not a tick");
    // The cart's item is there, after Continue.
    let labels: Vec<String> = paused.menu().unwrap().labels().map(String::from).collect();
    assert_eq!(labels, ["Continue", "Jump", "Restart", "Quit"]);
    // Back to Continue, and take it with Enter.
    while paused.menu().unwrap().selected() != MenuChoice::Continue {
        tap(&mut paused, Key::ArrowDown);
    }
    assert_eq!(
        key(&mut paused, Key::Enter, true),
        Some(HostAction::Resumed)
    );
    assert!(!paused.menu_is_open() && !paused.engine().is_paused());
    key(&mut paused, Key::Enter, false);
    play(&mut paused, 15, 45);

    assert_eq!(paused.engine().ticks(), plain.engine().ticks());
    assert_eq!(
        paused.engine().framebuffer().pixels(),
        plain.engine().framebuffer().pixels(),
        "the menu left nothing on the cart's picture"
    );
    // The keys the menu took never reached the cart.
    assert!(
        log.borrow().iter().all(|seen| seen.is_empty()),
        "{:?}",
        log.borrow()
    );
}

#[test]
fn the_menu_is_drawn_over_the_paused_frame_and_closing_puts_the_frame_back() {
    let (mut h, _) = host();
    play(&mut h, 0, 5);
    tap(&mut h, Key::F5);
    let frame = h.engine().framebuffer().clone();
    tap(&mut h, Key::F5);
    play(&mut h, 5, 0);
    tap(&mut h, Key::KeyP);
    let shown = h.engine().framebuffer().clone();
    let r = h.menu().unwrap().rect(64, 64);
    assert!(
        (0..64).any(|y| (0..64).any(|x| r.contains(x, y) && shown.get(x, y) != frame.get(x, y))),
        "the menu shows"
    );
    tap(&mut h, Key::Escape);
    assert!(!h.menu_is_open());
    assert_eq!(h.engine().framebuffer().pixels(), frame.pixels());
}

#[test]
fn restart_starts_the_cart_from_boot_and_plays() {
    let (mut h, _) = host();
    play(&mut h, 0, 30);
    assert!(h.engine().ticks() > 0);
    tap(&mut h, Key::KeyP);
    // Past the cart's own item.
    tap(&mut h, Key::ArrowDown);
    tap(&mut h, Key::ArrowDown);
    assert_eq!(h.menu().unwrap().selected(), MenuChoice::Restart);
    assert_eq!(tap(&mut h, Key::Enter), Some(HostAction::Restarted));
    assert_eq!(h.engine().updates_since_init(), 0);
    assert!(!h.engine().is_paused());
    h.frame(0.0);
    assert_eq!(h.engine().updates_since_init(), 1);
}

#[test]
fn quit_in_the_menu_and_ctrl_q_ask_the_window_to_close() {
    let (mut h, log) = host();
    tap(&mut h, Key::KeyP);
    tap(&mut h, Key::ArrowUp);
    assert_eq!(h.menu().unwrap().selected(), MenuChoice::Quit);
    assert!(!h.quit_requested());
    assert_eq!(tap(&mut h, Key::Enter), Some(HostAction::Quit));
    assert!(h.quit_requested());

    let (mut h, _) = host();
    key(&mut h, Key::ControlLeft, true);
    assert_eq!(tap(&mut h, Key::KeyQ), Some(HostAction::Quit));
    assert!(h.quit_requested());
    h.handle(HostEvent::Text("q"));
    h.frame(0.0);
    // Q alone is the cart's.
    let (mut h, log2) = host();
    key(&mut h, Key::KeyQ, true);
    h.frame(0.0);
    assert_eq!(log2.borrow().last().map(String::as_str), Some("KeyQ "));
    drop(log);
}

#[test]
fn the_letter_the_menu_key_types_never_reaches_the_cart() {
    let (mut h, log) = host();
    key(&mut h, Key::KeyP, true);
    h.handle(HostEvent::Text("p"));
    key(&mut h, Key::KeyP, false);
    key(&mut h, Key::KeyP, true);
    h.handle(HostEvent::Text("p"));
    key(&mut h, Key::KeyP, false);
    assert!(!h.menu_is_open());
    h.handle(HostEvent::Text("a"));
    h.frame(0.0);
    assert_eq!(log.borrow().last().map(String::as_str), Some("a"));
}

#[test]
fn p_is_the_cart_s_when_the_key_map_gives_it_a_button() {
    let text = "version = 1\n[player1]\na = [\"KeyP\"]\n";
    let map = KeyMap::from_toml(text, std::path::Path::new("keys.toml")).unwrap();
    let (h, _) = host();
    let engine_settings = h.engine().settings().clone();
    drop(h);
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = log.clone();
    let factory = move || -> Box<dyn Cart> {
        Box::new(Walker {
            log: shared.clone(),
            ..Walker::default()
        })
    };
    let options = EngineOptions {
        settings: Some(engine_settings),
        ..EngineOptions::default()
    };
    let engine = Engine::new(Box::new(factory), options).unwrap();
    let mut h = Host::new(engine, map, "walker");
    assert_eq!(key(&mut h, Key::KeyP, true), None);
    assert!(!h.menu_is_open());
}

#[test]
fn a_cart_s_menu_item_reaches_the_next_update_once_and_replays_exactly() {
    let (mut h, log) = host();
    h.engine_mut().start_recording(1);
    play(&mut h, 0, 12);
    tap(&mut h, Key::KeyP);
    tap(&mut h, Key::ArrowDown);
    assert_eq!(h.menu().unwrap().selected(), MenuChoice::Cart(1));
    let before = log.borrow().len();
    assert_eq!(tap(&mut h, Key::Enter), Some(HostAction::Resumed));
    play(&mut h, 12, 20);
    let chosen: Vec<String> = log
        .borrow()
        .iter()
        .filter(|l| l.starts_with("chose"))
        .cloned()
        .collect();
    // Seen by the first update after the menu closed, and by no other.
    assert_eq!(chosen.len(), 1, "{:?}", log.borrow());
    assert_eq!(log.borrow()[before], chosen[0]);

    // The recording plays the choice back at the same update, to the same picture.
    let replay = std::sync::Arc::new(h.engine().recording("walker", None).unwrap());
    let (mut again, replayed_log) = walker(Some(replay.clone()));
    again.step(replay.ticks()).unwrap();
    let replayed: Vec<String> = replayed_log
        .borrow()
        .iter()
        .filter(|l| l.starts_with("chose"))
        .cloned()
        .collect();
    assert_eq!(replayed, chosen);
    assert_eq!(
        *replayed_log.borrow(),
        *log.borrow(),
        "every update saw the same"
    );
}

/// A cart with a green terminal's effects and nothing else.
struct Terminal;

impl Cart for Terminal {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        ctx.set_effects(bt::crt::GREEN);
        Ok(())
    }

    fn update(&mut self, _: &mut Update<'_>) {}

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

#[test]
fn a_cart_with_effects_gets_a_switch_in_the_menu_that_keeps_the_menu_open() {
    let (walker_host, _) = host();
    let mut h = walker_host;
    tap(&mut h, Key::KeyP);
    assert!(
        !h.menu().unwrap().labels().any(|l| l.starts_with("Effects")),
        "a cart without effects has no switch"
    );

    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(64, 64)),
        ..EngineOptions::default()
    };
    let engine = Engine::new(Box::new(|| Box::new(Terminal) as Box<dyn Cart>), options).unwrap();
    let mut h = Host::new(engine, KeyMap::default(), "terminal");
    h.frame(0.0);
    tap(&mut h, Key::KeyP);
    let labels: Vec<String> = h.menu().unwrap().labels().map(String::from).collect();
    assert_eq!(labels, ["Continue", "Effects: on", "Restart", "Quit"]);
    tap(&mut h, Key::ArrowDown);
    assert_eq!(
        tap(&mut h, Key::Enter),
        Some(HostAction::EffectsToggled(false))
    );
    assert!(h.menu_is_open(), "the switch leaves the menu open");
    assert!(!h.engine().effects_enabled());
    assert_eq!(h.menu().unwrap().labels().nth(1), Some("Effects: off"));
    // Shift+F11 over the open menu changes the label too.
    key(&mut h, Key::ShiftLeft, true);
    assert_eq!(
        tap(&mut h, Key::F11),
        Some(HostAction::EffectsToggled(true))
    );
    key(&mut h, Key::ShiftLeft, false);
    assert!(h.engine().effects_enabled());
    assert_eq!(h.menu().unwrap().labels().nth(1), Some("Effects: on"));
}

#[test]
fn with_the_pause_menu_off_p_is_the_carts_key() {
    let (mut h, log) = host();
    h.set_pause_menu(false);
    key(&mut h, Key::KeyP, true);
    h.frame(0.0);
    h.frame(16.0);
    assert!(!h.menu_is_open(), "an editor's host opens no menu on P");
    assert!(
        log.borrow().iter().any(|seen| seen.contains("KeyP")),
        "the cart sees P held: {:?}",
        log.borrow()
    );
    key(&mut h, Key::KeyP, false);
    h.set_pause_menu(true);
    tap(&mut h, Key::KeyP);
    assert!(h.menu_is_open(), "P opens the menu again once it is on");
}
