//! Input as carts see it, driven headless through the same host layer the window uses: fast taps,
//! presses on frames with no update, frames with several updates, repeats, masks, key maps and
//! the host keys.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use bt::{Axis, Button, Cart, Key, Player, Render, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Destination, FileKind, Host, HostAction, HostEvent};
use bt_runtime::{ConstantClock, Engine, EngineOptions, SequenceClock};

/// What one update saw.
#[derive(Debug, Clone, Default, PartialEq)]
struct Seen {
    tick: u64,
    a_pressed: bool,
    a_down: bool,
    a_released: bool,
    down_repeat: bool,
    key_j: (bool, bool, bool),
    pointer_a: (bool, bool),
    pointer: (i32, i32),
    text: String,
    stick_x: f32,
    r2: bool,
}

#[derive(Default)]
struct Recorder {
    log: Rc<RefCell<Vec<Seen>>>,
}

impl Cart for Recorder {
    fn update(&mut self, ctx: &mut Update<'_>) {
        self.log.borrow_mut().push(Seen {
            tick: ctx.ticks(),
            a_pressed: ctx.is_pressed(Button::A, Player::ONE),
            a_down: ctx.is_down(Button::A, Player::ONE),
            a_released: ctx.is_released(Button::A, Player::ONE),
            down_repeat: ctx.is_pressed_repeat(Button::DOWN, Player::ONE, 5),
            key_j: (
                ctx.is_key_pressed(Key::KeyJ),
                ctx.is_key_down(Key::KeyJ),
                ctx.is_key_released(Key::KeyJ),
            ),
            pointer_a: (
                ctx.is_pressed(Button::POINTER_A, Player::ONE),
                ctx.is_down(Button::POINTER_A, Player::ONE),
            ),
            pointer: ctx.pointer_pos(),
            text: ctx.input_string().to_string(),
            stick_x: ctx.axis(Axis::LeftX, Player::TWO),
            r2: ctx.is_pressed(Button::R2, Player::TWO),
        });
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

/// A host on a recording cart whose frames are worth `steps` ms each, in turn.
fn host_with(steps: &[f64], keymap: KeyMap) -> (Host, Rc<RefCell<Vec<Seen>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = log.clone();
    let factory = move || -> Box<dyn Cart> {
        Box::new(Recorder {
            log: shared.clone(),
        })
    };
    let mut engine = Engine::new(Box::new(factory), EngineOptions::default()).unwrap();
    engine.set_clock(Box::new(SequenceClock::new(steps.to_vec()).unwrap()));
    (Host::new(engine, keymap, "rec"), log)
}

fn host(steps: &[f64]) -> (Host, Rc<RefCell<Vec<Seen>>>) {
    host_with(steps, KeyMap::default())
}

fn key(h: &mut Host, key: Key, down: bool) -> Option<HostAction> {
    h.handle(HostEvent::Key { key, down })
}

/// Runs one frame and returns what its updates saw.
fn frame(h: &mut Host, log: &Rc<RefCell<Vec<Seen>>>) -> Vec<Seen> {
    let before = log.borrow().len();
    h.frame(0.0).expect("a frame");
    log.borrow()[before..].to_vec()
}

const TICK: f64 = 1000.0 / 60.0;
/// One frame of a 144 Hz display: most run no update at 60 updates a second.
const FAST: f64 = 1000.0 / 144.0;

#[test]
fn fast_tap_on_a_144_hz_display_is_pressed_in_exactly_the_next_update() {
    let (mut h, log) = host(&[FAST]);
    for _ in 0..5 {
        frame(&mut h, &log);
    }
    // Space down and up again between two frames, well inside one tick.
    key(&mut h, Key::Space, true);
    key(&mut h, Key::Space, false);
    let mut seen = Vec::new();
    while seen.is_empty() {
        seen = frame(&mut h, &log);
    }
    assert!(seen[0].a_pressed && seen[0].a_released && seen[0].a_down);
    for _ in 0..20 {
        assert!(frame(&mut h, &log)
            .iter()
            .all(|s| !s.a_pressed && !s.a_down));
    }
}

#[test]
fn press_on_a_frame_with_no_update_reaches_the_next_update() {
    // 8 ms frames at 60 updates a second: frames alternate between zero updates and one.
    let (mut h, log) = host(&[8.0]);
    let mut zero_update_frames = 0;
    for _ in 0..12 {
        if frame(&mut h, &log).is_empty() {
            zero_update_frames += 1;
            // Pressed after a frame that ran no update: the next update must see it.
            key(&mut h, Key::KeyZ, true);
            h.handle(HostEvent::PointerMoved { x: 40, y: 50 });
            h.handle(HostEvent::PointerButton {
                button: Button::POINTER_A,
                down: true,
            });
            let zero = frame(&mut h, &log);
            let seen = if zero.is_empty() {
                frame(&mut h, &log)
            } else {
                zero
            };
            assert_eq!(seen.len(), 1);
            assert!(seen[0].a_pressed, "{seen:?}");
            assert_eq!(seen[0].pointer_a, (true, true));
            assert_eq!(seen[0].pointer, (40, 50));
            key(&mut h, Key::KeyZ, false);
            h.handle(HostEvent::PointerButton {
                button: Button::POINTER_A,
                down: false,
            });
        }
    }
    assert!(zero_update_frames > 0);
}

#[test]
fn pointer_tap_inside_a_zero_update_frame_is_carried() {
    // 4 ms frames: three of them run no update before the 16 ms one does.
    let (mut h, log) = host(&[4.0, 4.0, 4.0, 16.0]);
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: true,
    });
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: false,
    });
    let mut empty_frames = 0;
    while frame(&mut h, &log).is_empty() {
        empty_frames += 1;
    }
    assert_eq!(empty_frames, 3);
    for _ in 0..8 {
        frame(&mut h, &log);
    }
    let presses: Vec<bool> = log.borrow().iter().map(|s| s.pointer_a.0).collect();
    assert!(presses[0], "the first update sees the tap");
    assert_eq!(presses.iter().filter(|&&p| p).count(), 1, "{presses:?}");
}

#[test]
fn several_updates_in_one_frame_see_the_press_once_and_hold_in_all() {
    // 50 ms: three updates in one frame.
    let (mut h, log) = host(&[50.0]);
    frame(&mut h, &log);
    key(&mut h, Key::Space, true);
    let seen = frame(&mut h, &log);
    assert_eq!(seen.len(), 3);
    let pressed: Vec<bool> = seen.iter().map(|s| s.a_pressed).collect();
    assert_eq!(pressed, [true, false, false]);
    assert!(seen.iter().all(|s| s.a_down));
    key(&mut h, Key::Space, false);
    let seen = frame(&mut h, &log);
    let released: Vec<bool> = seen.iter().map(|s| s.a_released).collect();
    assert_eq!(released, [true, false, false]);
    assert!(seen.iter().all(|s| !s.a_down));
}

#[test]
fn repeat_rate_counts_updates_not_frames() {
    // Uneven frames: 0, 1 or 3 updates each. A repeat every 5 updates must still land on every
    // fifth update while the down arrow is held.
    let (mut h, log) = host(&[8.0, TICK, 50.0]);
    frame(&mut h, &log);
    key(&mut h, Key::ArrowDown, true);
    let mut seen = Vec::new();
    while seen.len() < 16 {
        seen.extend(frame(&mut h, &log));
    }
    let fired: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.down_repeat)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(&fired[..4], [0, 5, 10, 15]);
}

#[test]
fn masks_match_any_of_their_buttons_and_sources_combine() {
    let (mut h, log) = host(&[TICK]);
    key(&mut h, Key::KeyX, true); // B for player 1
    h.handle(HostEvent::GamepadConnected {
        player: Player::ONE,
    });
    h.handle(HostEvent::GamepadButton {
        player: Player::ONE,
        buttons: Button::B,
        down: true,
    });
    frame(&mut h, &log);
    let input = h.engine_mut().console_mut().input_mut();
    assert!(input.is_down(Button::ABXY, Player::ONE));
    assert!(!input.is_down(Button::A | Button::UP, Player::ONE));
    assert!(input.is_pressed(Button::B | Button::UP, Player::ONE));
    key(&mut h, Key::KeyX, false);
    frame(&mut h, &log);
    let input = h.engine_mut().console_mut().input_mut();
    assert!(
        input.is_down(Button::B, Player::ONE),
        "the gamepad still holds B"
    );
    assert!(!input.is_released(Button::B, Player::ONE));
}

#[test]
fn raw_keys_and_typed_text_reach_the_next_update() {
    let (mut h, log) = host(&[FAST]);
    key(&mut h, Key::KeyJ, true);
    h.handle(HostEvent::Text("j"));
    key(&mut h, Key::KeyJ, false);
    let mut seen = Vec::new();
    while seen.is_empty() {
        seen = frame(&mut h, &log);
    }
    assert_eq!(seen[0].key_j, (true, true, true));
    assert_eq!(seen[0].text, "j");
    assert!(!seen[0].a_pressed, "J presses no button by default");
}

#[test]
fn a_key_map_file_moves_buttons_to_other_keys() {
    let map = KeyMap::from_toml(
        "version = 1\n[player1]\na = [\"KeyJ\"]\n",
        Path::new("keys.toml"),
    )
    .unwrap();
    let (mut h, log) = host_with(&[TICK], map);
    key(&mut h, Key::Space, true);
    let seen = frame(&mut h, &log);
    assert!(!seen[0].a_pressed, "Space no longer presses A");
    key(&mut h, Key::KeyJ, true);
    let seen = frame(&mut h, &log);
    assert!(seen[0].a_pressed);
    assert!(seen[0].key_j.0, "the raw key is still seen too");
}

#[test]
fn a_bad_key_map_file_is_refused_with_its_place() {
    let dir = std::env::temp_dir().join(format!("bt-keymap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("keys.toml");
    let text = "version = 1\n[player1]\nup = [\"KeyW\"]\nstart = [\"Enter\", \"Entr\"]\n";
    std::fs::write(&path, text).unwrap();
    let err = KeyMap::load(&path).unwrap_err().to_string();
    assert!(
        err.contains(&path.display().to_string())
            && err.contains("line 4")
            && err.contains("[player1] start")
            && err.contains("'Entr'"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "file left alone"
    );
}

#[test]
fn gamepad_sticks_and_triggers_for_other_players() {
    let (mut h, log) = host(&[TICK]);
    h.handle(HostEvent::GamepadConnected {
        player: Player::TWO,
    });
    h.handle(HostEvent::GamepadAxis {
        player: Player::TWO,
        axis: Axis::LeftX,
        value: 0.875,
    });
    h.handle(HostEvent::GamepadAxis {
        player: Player::TWO,
        axis: Axis::TriggerR,
        value: 0.49,
    });
    let seen = frame(&mut h, &log);
    assert!((seen[0].stick_x - 0.5).abs() < 1e-6);
    assert!(!seen[0].r2, "under half a pull");
    h.handle(HostEvent::GamepadAxis {
        player: Player::TWO,
        axis: Axis::TriggerR,
        value: 0.5,
    });
    let seen = frame(&mut h, &log);
    assert!(seen[0].r2);
    h.handle(HostEvent::GamepadDisconnected {
        player: Player::TWO,
    });
    frame(&mut h, &log);
    assert!(!h
        .engine_mut()
        .console_mut()
        .input_mut()
        .is_down(Button::R2, Player::TWO));
}

#[test]
fn host_keys_pause_step_toggle_and_capture_without_reaching_the_cart() {
    let (mut h, log) = host(&[TICK]);
    frame(&mut h, &log);
    assert_eq!(key(&mut h, Key::F5, true), Some(HostAction::Paused));
    key(&mut h, Key::F5, false);
    let before = log.borrow().len();
    assert!(h.frame(0.0).is_none(), "paused: no frame");
    assert_eq!(key(&mut h, Key::F6, true), Some(HostAction::Stepped(2)));
    key(&mut h, Key::F6, false);
    assert_eq!(log.borrow().len(), before + 1, "F6 ran one update");
    assert!(h.is_paused());

    let visible = |h: &Host| h.engine().overlay().unwrap().is_visible();
    assert!(!visible(&h));
    assert_eq!(
        key(&mut h, Key::Backquote, true),
        Some(HostAction::OverlayToggled)
    );
    assert!(visible(&h));
    // A pointer press in the bottom-left corner toggles it back.
    h.handle(HostEvent::PointerMoved { x: 3, y: 236 });
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: true,
    });
    assert!(!visible(&h));

    // F9 hands the screenshot over; the host writes no file.
    match key(&mut h, Key::F9, true) {
        Some(HostAction::Saved) => {
            let files = h.take_outbox();
            let [shot] = files.as_slice() else {
                panic!("one file: {files:?}")
            };
            assert_eq!(shot.kind, FileKind::Screenshot);
            assert_eq!(shot.destination, Destination::Keep("rec.png".into()));
            assert!(shot.bytes.starts_with(b"\x89PNG"), "a PNG");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        key(&mut h, Key::F11, true),
        Some(HostAction::ToggleFullscreen)
    );
    assert_eq!(key(&mut h, Key::F5, true), Some(HostAction::Resumed));
    let seen = frame(&mut h, &log);
    assert!(seen.iter().all(|s| !s.key_j.0 && !s.a_pressed));
    assert!(
        !h.engine_mut()
            .console_mut()
            .input_mut()
            .is_any_key_pressed(),
        "host keys are not the cart's"
    );
    // F10 asks the window for a GIF; with Shift held, for the buffer of the last seconds.
    assert_eq!(key(&mut h, Key::F10, true), Some(HostAction::ToggleGif));
    key(&mut h, Key::F10, false);
    key(&mut h, Key::ShiftLeft, true);
    assert_eq!(key(&mut h, Key::F10, true), Some(HostAction::SaveGifBuffer));
    key(&mut h, Key::F10, false);
    key(&mut h, Key::ShiftLeft, false);
}

#[test]
fn a_paced_clock_says_when_the_next_frame_is_due() {
    let (mut h, _log) = host(&[TICK]);
    assert_eq!(h.engine().next_frame_ms(), None);
    h.engine_mut()
        .set_clock(Box::new(ConstantClock::new(TICK).unwrap()));
    assert_eq!(h.engine().next_frame_ms(), None);
    h.engine_mut().set_clock(
        "paced:50"
            .parse::<bt_runtime::clock::spec::ClockSpec>()
            .unwrap()
            .build()
            .unwrap(),
    );
    h.frame(100.0);
    assert_eq!(h.engine().next_frame_ms(), Some(120.0));
}

#[test]
fn losing_focus_lets_go_of_everything_held() {
    let (mut h, log) = host(&[TICK]);
    key(&mut h, Key::Space, true);
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: true,
    });
    frame(&mut h, &log);
    h.handle(HostEvent::FocusLost);
    let seen = frame(&mut h, &log);
    assert!(seen[0].a_released && !seen[0].a_down);
    assert_eq!(seen[0].pointer_a, (false, false));
    assert!(!seen[0].key_j.1);
}

#[test]
fn a_click_on_the_overlay_corner_toggles_it_and_never_reaches_the_cart() {
    let (mut h, log) = host(&[TICK]);
    frame(&mut h, &log);
    h.handle(HostEvent::PointerMoved { x: 5, y: 235 });
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: true,
    });
    assert!(h.engine().overlay().unwrap().is_visible());
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: false,
    });
    let seen = frame(&mut h, &log);
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].pointer_a,
        (false, false),
        "neither pressed nor held"
    );
    // Elsewhere the same click is the cart's.
    h.handle(HostEvent::PointerMoved { x: 100, y: 100 });
    h.handle(HostEvent::PointerButton {
        button: Button::POINTER_A,
        down: true,
    });
    let seen = frame(&mut h, &log);
    assert!(seen[0].pointer_a.0, "pressed");
    assert!(h.engine().overlay().unwrap().is_visible(), "no toggle");
}

#[test]
fn f8_saves_the_last_ten_seconds_of_timings_as_a_report_and_a_chrome_trace() {
    // 20 s of frames: a steady 60 Hz with a 200 ms stall every 5 s.
    let mut steps = vec![TICK; 299];
    steps.push(200.0);
    let (mut h, log) = host(&steps);
    for _ in 0..1200 {
        frame(&mut h, &log);
    }
    let kept = h.recent_timings().frames().len();
    let span: f64 = h.recent_timings().frames().map(|f| f.delta_ms).sum();
    assert!(
        span <= 10_000.0 + 200.0 && span > 9_000.0,
        "{kept} frames, {span} ms"
    );
    // The report is drawn by what the platform gives, as the window gives the HTML report.
    h.set_timing_report(bt_runtime::timing::report::html);
    let files = match key(&mut h, Key::F8, true) {
        Some(HostAction::Saved) => h.take_outbox(),
        other => panic!("{other:?}"),
    };
    let names: Vec<Destination> = files.iter().map(|f| f.destination.clone()).collect();
    assert_eq!(
        names,
        [
            Destination::Keep("rec-timings.html".into()),
            Destination::Keep("rec-timings.json".into())
        ]
    );
    assert_eq!(
        files.iter().map(|f| f.kind).collect::<Vec<_>>(),
        [FileKind::TimingReport, FileKind::TimingTrace]
    );
    assert_eq!(files[0].set, files[1].set, "one key's files share a number");
    let page = std::str::from_utf8(&files[0].bytes).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<svg"));
    let json: serde_json::Value =
        serde_json::from_slice(&files[1].bytes).expect("the trace is JSON");
    let frames = json["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "frame")
        .count();
    assert_eq!(frames, kept);
    match key(&mut h, Key::F8, false) {
        None => {}
        other => panic!("a key release does nothing: {other:?}"),
    }
}

#[test]
fn f2_hands_over_the_replay_of_the_run_so_far_and_never_reaches_the_cart() {
    let (mut h, log) = host(&[TICK]);
    assert!(
        matches!(key(&mut h, Key::F2, true), Some(HostAction::SaveFailed(e)) if e.contains("--record")),
        "an unrecorded run has no replay to save"
    );
    key(&mut h, Key::F2, false);
    h.engine_mut()
        .start_recording(bt_runtime::replay::DEFAULT_HASH_EVERY);
    key(&mut h, Key::KeyZ, true);
    for _ in 0..5 {
        frame(&mut h, &log);
    }
    let files = match key(&mut h, Key::F2, true) {
        Some(HostAction::Saved) => h.take_outbox(),
        other => panic!("{other:?}"),
    };
    let [file] = files.as_slice() else {
        panic!("one file: {files:?}")
    };
    assert_eq!(file.kind, FileKind::Replay);
    assert_eq!(file.destination, Destination::Keep("rec.btr".into()));
    let text = std::str::from_utf8(&file.bytes).unwrap();
    let replay = bt_runtime::replay::Replay::from_json(text, Path::new("rec.btr")).unwrap();
    let updates = h.engine().updates_since_init();
    assert!(updates >= 4, "{updates}");
    assert_eq!(replay.ticks(), updates, "every update so far");
    key(&mut h, Key::F2, false);
    let seen = frame(&mut h, &log);
    assert!(
        seen.iter().all(|s| s.a_down),
        "Z still held; F2 changed nothing"
    );
    assert!(
        bt_runtime::host::keymap::HOST_KEYS.contains(&Key::F2),
        "F2 is a host key wherever the host runs"
    );
}
