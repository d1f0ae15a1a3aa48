//! Rewinding and save states through the host, as a window drives them: scripted key events
//! and frames, no window. A rewound recording is the run the player ended with: it verifies,
//! and equals a run that played only that branch.

use std::process::Command;

use bt::Key;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Host, HostAction, HostEvent, LOAD_STATE_KEY, REWIND_KEY, SAVE_STATE_KEY};
use bt_runtime::replay::{Replay, DEFAULT_HASH_EVERY};
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use bt_test_support::ScratchDir;

const FRAME_MS: f64 = 1000.0 / 60.0;

/// The bundled cart `name` in a host, as a window runs it, its frames 1/60 s apart.
fn host_of(name: &str) -> Host {
    let cart = bt_gallery::find(name).unwrap();
    let options = EngineOptions {
        overlay: false,
        seed: Some(5),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(cart.build), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(FRAME_MS).unwrap()));
    Host::new(engine, KeyMap::default(), name)
}

fn snake_host() -> Host {
    host_of("snake")
}

fn key(host: &mut Host, key: Key, down: bool) -> Option<HostAction> {
    host.handle(HostEvent::Key { key, down })
}

/// The player's taps at frame `f` of a script: an arrow down, then up two frames later, never
/// across an update the snapshots are kept at (a multiple of 64), so that what is held there is
/// the same whichever way the run reached it.
fn taps(host: &mut Host, f: u64) {
    let turns = [
        Key::ArrowUp,
        Key::ArrowRight,
        Key::ArrowDown,
        Key::ArrowLeft,
    ];
    let arrow = turns[(f / 23 % 4) as usize];
    let near_snapshot = matches!(f % 64, 0..=4 | 58..=63);
    match f % 23 {
        7 if !near_snapshot => {
            key(host, arrow, true);
        }
        9 => {
            key(host, arrow, false);
        }
        _ => {}
    }
}

/// Frames `frames` of the script, from frame `first`, the clock at frame `clock`.
fn play(host: &mut Host, first: u64, frames: u64, clock: &mut u64) {
    for f in first..first + frames {
        taps(host, f);
        host.frame(*clock as f64 * FRAME_MS);
        *clock += 1;
    }
}

#[test]
fn a_rewound_recording_verifies_and_equals_the_run_of_its_branch_alone() {
    let dir = ScratchDir::new("rewind");
    let path = dir.join("rewound.btr");
    let mut host = snake_host();
    host.record_to(path.clone(), None);
    let mut clock = 0;
    play(&mut host, 0, 300, &mut clock);
    let from = host.engine().updates_since_init();
    assert!(from >= 290, "{from} updates in 300 frames");

    // Hold the rewind key until three seconds of play have gone back.
    assert_eq!(
        key(&mut host, REWIND_KEY, true),
        Some(HostAction::Rewinding)
    );
    assert!(host.is_rewinding() && host.is_paused());
    let mut held = 0;
    while host.engine().updates_since_init() + 180 > from {
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
        held += 1;
        assert!(
            held < 600,
            "three seconds back within ten seconds of holding"
        );
    }
    // 1x for the first second, then faster: three seconds back take well under three.
    assert!(held < 180, "{held} frames held");
    let landed = host.engine().updates_since_init();
    assert!(host.is_paused(), "paused while the key is held");
    let action = key(&mut host, REWIND_KEY, false);
    assert_eq!(action, Some(HostAction::Rewound(landed)));
    assert!(!host.is_rewinding() && !host.is_paused(), "plays on");

    // Another future from there, then Ctrl+Q.
    play(&mut host, 1000, 240, &mut clock);
    let end = host.engine().updates_since_init();
    key(&mut host, Key::ControlLeft, true);
    assert_eq!(key(&mut host, Key::KeyQ, true), Some(HostAction::Quit));
    host.finish();
    for file in host.take_outbox() {
        if let bt_runtime::host::Destination::Replace(_) = file.destination {
            bt_runtime::host::outbox::replace(&file).unwrap();
        }
    }
    let replay = Replay::load(&path).unwrap();
    assert_eq!(replay.ticks(), end, "the recording is the branch played");

    // The same run, without the detour: the script up to the update the rewind landed on, a
    // pause there (as the rewind made), and the same future.
    let mut branch = snake_host();
    branch.engine_mut().start_recording(DEFAULT_HASH_EVERY);
    let mut clock = 0;
    let mut f = 0;
    while branch.engine().updates_since_init() < landed {
        play(&mut branch, f, 1, &mut clock);
        f += 1;
    }
    assert_eq!(branch.engine().updates_since_init(), landed);
    key(&mut branch, Key::F5, true);
    key(&mut branch, Key::F5, false);
    key(&mut branch, Key::F5, true);
    key(&mut branch, Key::F5, false);
    play(&mut branch, 1000, 240, &mut clock);
    assert_eq!(branch.engine().updates_since_init(), end);
    let hashes = branch.engine().hashes();
    assert!(hashes.iter().any(|&(u, _)| u > landed + 60));
    assert_eq!(
        replay.hashes(),
        hashes,
        "the same frames as the branch alone"
    );
    assert_eq!(replay.first_mismatch(hashes), None);

    // And `bt replay --verify` passes it.
    let out = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["replay", "snake", path.to_str().unwrap(), "--verify"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn holding_f1_shows_every_update_going_back_the_runs_own_pictures_in_reverse() {
    let mut host = host_of("starfield");
    let mut clock = 0;
    let mut pictures = std::collections::HashMap::new();
    for f in 0..300 {
        taps(&mut host, f);
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
        let e = host.engine();
        pictures.insert(e.updates_since_init(), e.framebuffer().pixels().to_vec());
    }
    let from = host.engine().updates_since_init();
    key(&mut host, REWIND_KEY, true);
    // The first second of holding runs at 1x: one update back per frame, each drawn. The
    // cart's picture is compared where the host's notices (on the overlay's layer) are not.
    let cart_pixels = |e: &Engine| -> Vec<u8> {
        let mut pixels = e.framebuffer().pixels().to_vec();
        if let Some(layer) = e.overlay_layer() {
            for (p, &o) in pixels.iter_mut().zip(layer.pixels) {
                if o != 0 {
                    *p = 0;
                }
            }
        }
        pixels
    };
    let mut shown = from;
    let mut last_picture = cart_pixels(host.engine());
    for frame in 1..=55 {
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
        let e = host.engine();
        let here = e.updates_since_init();
        assert_eq!(here, shown - 1, "frame {frame} of the rewind");
        shown = here;
        let picture = cart_pixels(e);
        let mut want = pictures[&here].clone();
        if let Some(layer) = e.overlay_layer() {
            let covered = layer.pixels.iter().filter(|&&o| o != 0).count();
            assert!(
                covered < want.len() / 4,
                "{covered} pixels under the notices"
            );
            for (p, &o) in want.iter_mut().zip(layer.pixels) {
                if o != 0 {
                    *p = 0;
                }
            }
        }
        assert!(
            picture == want,
            "frame {frame} of the rewind shows update {here} as the run drew it"
        );
        assert!(picture != last_picture, "a new picture every frame");
        last_picture = picture;
    }
    assert_eq!(
        key(&mut host, REWIND_KEY, false),
        Some(HostAction::Rewound(from - 55))
    );
}

#[test]
fn a_loaded_state_is_the_saved_update_and_picture() {
    let mut host = snake_host();
    let mut clock = 0;
    match key(&mut host, LOAD_STATE_KEY, true) {
        Some(HostAction::StateFailed(message)) => {
            assert!(message.contains("no state saved"), "{message}")
        }
        other => panic!("loading with nothing saved: {other:?}"),
    }
    key(&mut host, LOAD_STATE_KEY, false);
    play(&mut host, 0, 150, &mut clock);
    let saved_at = host.engine().updates_since_init();
    host.engine_mut().redraw().unwrap();
    let picture = host.engine().framebuffer().pixels().to_vec();
    assert_eq!(
        key(&mut host, SAVE_STATE_KEY, true),
        Some(HostAction::StateSaved(saved_at))
    );
    key(&mut host, SAVE_STATE_KEY, false);
    play(&mut host, 150, 200, &mut clock);
    assert!(host.engine().updates_since_init() > saved_at + 100);
    assert_eq!(
        key(&mut host, LOAD_STATE_KEY, true),
        Some(HostAction::StateLoaded(saved_at))
    );
    assert_eq!(host.engine().updates_since_init(), saved_at);
    assert!(!host.is_paused(), "plays on from the state");
    host.show_notice(None);
    host.engine_mut().redraw().unwrap();
    assert_eq!(host.engine().framebuffer().pixels(), &picture[..]);
    // Loading again goes back again.
    play(&mut host, 350, 30, &mut clock);
    key(&mut host, LOAD_STATE_KEY, false);
    key(&mut host, LOAD_STATE_KEY, true);
    assert_eq!(host.engine().updates_since_init(), saved_at);
}

#[test]
fn a_rewind_ends_when_the_window_loses_the_keyboard() {
    let mut host = snake_host();
    let mut clock = 0;
    play(&mut host, 0, 200, &mut clock);
    key(&mut host, REWIND_KEY, true);
    for _ in 0..90 {
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
    }
    let landed = host.engine().updates_since_init();
    assert!(landed < 190, "went back to {landed}");
    assert_eq!(
        host.handle(HostEvent::FocusLost),
        Some(HostAction::Rewound(landed))
    );
    assert!(!host.is_rewinding() && !host.is_paused());
    play(&mut host, 200, 10, &mut clock);
    assert!(host.engine().updates_since_init() > landed);
}

#[test]
fn rewinding_a_paused_run_leaves_it_paused() {
    let mut host = snake_host();
    let mut clock = 0;
    play(&mut host, 0, 200, &mut clock);
    key(&mut host, Key::F5, true);
    key(&mut host, Key::F5, false);
    key(&mut host, REWIND_KEY, true);
    for _ in 0..90 {
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
    }
    let landed = host.engine().updates_since_init();
    key(&mut host, REWIND_KEY, false);
    assert!(host.is_paused());
    play(&mut host, 200, 10, &mut clock);
    assert_eq!(host.engine().updates_since_init(), landed, "still paused");
}

#[test]
fn the_timeline_goes_to_the_exact_update_named_and_plays_on_from_there() {
    let mut host = snake_host();
    let mut clock = 0;
    let mut seen = std::collections::HashMap::new();
    let boot = host.engine_mut();
    boot.redraw().unwrap();
    seen.insert(0, (boot.test_state(), boot.framebuffer().pixels().to_vec()));
    for f in 0..300 {
        taps(&mut host, f);
        // Start a round, which the cart tags.
        match f {
            5 => key(&mut host, Key::KeyZ, true),
            8 => key(&mut host, Key::KeyZ, false),
            _ => None,
        };
        host.frame(clock as f64 * FRAME_MS);
        clock += 1;
        let e = host.engine_mut();
        e.redraw().unwrap();
        seen.insert(
            e.updates_since_init(),
            (e.test_state(), e.framebuffer().pixels().to_vec()),
        );
    }
    let from = host.engine().updates_since_init();
    let marks = host.engine().travel_marks().len();
    assert!(marks > 0, "snake tags the start of each round");

    // Shift+F1 opens it where the run is, paused.
    key(&mut host, Key::ShiftLeft, true);
    assert_eq!(
        key(&mut host, REWIND_KEY, true),
        Some(HostAction::Timeline(from))
    );
    key(&mut host, REWIND_KEY, false);
    key(&mut host, Key::ShiftLeft, false);
    assert!(host.timeline_open() && host.is_paused());
    let strip = host.engine().overlay().and_then(|o| o.timeline()).cloned();
    let strip = strip.expect("the strip is shown");
    assert_eq!((strip.first, strip.last, strip.at), (0, from, from));
    assert_eq!(strip.marks.len(), marks);

    let check = |host: &mut Host, want: u64| {
        let e = host.engine_mut();
        assert_eq!(e.updates_since_init(), want);
        let at = e.overlay().and_then(|o| o.timeline()).map(|t| t.at);
        assert_eq!(at, Some(want), "the strip shows where the run is");
        let (state, pixels) = &seen[&want];
        assert_eq!(&e.test_state(), state, "the game at update {want}");
        // The strip and the notices are on the overlay's layer: the cart's pixels are the run's.
        let layer = e.overlay_layer().map(|l| l.pixels.to_vec());
        for (i, (&got, &was)) in e.framebuffer().pixels().iter().zip(pixels).enumerate() {
            if layer.as_ref().is_none_or(|l| l[i] == 0) {
                assert_eq!(got, was, "pixel {i} at update {want}");
            }
        }
    };
    let press = |host: &mut Host, k: Key, shift: bool| {
        if shift {
            key(host, Key::ShiftLeft, true);
        }
        let action = key(host, k, true);
        key(host, k, false);
        if shift {
            key(host, Key::ShiftLeft, false);
        }
        action
    };
    assert_eq!(
        press(&mut host, Key::ArrowLeft, false),
        Some(HostAction::Timeline(from - 1))
    );
    check(&mut host, from - 1);
    press(&mut host, Key::ArrowLeft, true);
    check(&mut host, from - 61);
    press(&mut host, Key::Home, false);
    check(&mut host, 0);
    press(&mut host, Key::End, false);
    check(&mut host, from);
    press(&mut host, Key::PageUp, false);
    check(&mut host, from - 600.min(from));
    press(&mut host, Key::ArrowRight, true);
    check(&mut host, 60);

    // The pointer on the strip's track: the middle of it is the middle of the run.
    let (w, h) = {
        let s = host.engine().settings();
        (s.width as i32, s.height as i32)
    };
    host.handle(HostEvent::PointerMoved { x: w / 2, y: h - 3 });
    let button = bt::Button::POINTER_A;
    let action = host.handle(HostEvent::PointerButton { button, down: true });
    let Some(HostAction::Timeline(middle)) = action else {
        panic!("a click on the strip goes there: {action:?}");
    };
    assert!(middle.abs_diff(from / 2) <= 2, "{middle} of {from}");
    assert_eq!(middle, strip.update_at(w / 2, w as u32));
    check(&mut host, middle);
    // Dragging goes along.
    host.handle(HostEvent::PointerMoved { x: w / 4, y: h - 3 });
    let dragged = host.engine().updates_since_init();
    assert_eq!(
        dragged,
        strip.update_at(w / 4, w as u32),
        "{dragged} of {from}"
    );
    assert!(dragged < middle);
    check(&mut host, dragged);
    host.handle(HostEvent::PointerButton {
        button,
        down: false,
    });
    host.handle(HostEvent::PointerMoved {
        x: w - 10,
        y: h - 3,
    });
    assert_eq!(
        host.engine().updates_since_init(),
        dragged,
        "no drag after release"
    );

    // Escape goes back to where it opened; Enter plays on from where it is.
    assert_eq!(
        press(&mut host, Key::Escape, false),
        Some(HostAction::TimelineClosed(from))
    );
    assert!(!host.timeline_open() && !host.is_paused());
    key(&mut host, Key::ShiftLeft, true);
    key(&mut host, REWIND_KEY, true);
    key(&mut host, REWIND_KEY, false);
    key(&mut host, Key::ShiftLeft, false);
    press(&mut host, Key::Home, false);
    press(&mut host, Key::ArrowRight, true);
    press(&mut host, Key::ArrowRight, true);
    assert_eq!(
        press(&mut host, Key::Enter, false),
        Some(HostAction::TimelineClosed(120))
    );
    assert!(
        !host.is_paused()
            && host
                .engine()
                .overlay()
                .is_none_or(|o| o.timeline().is_none())
    );
    host.frame(clock as f64 * FRAME_MS);
    clock += 1;
    host.frame(clock as f64 * FRAME_MS);
    assert!(
        host.engine().updates_since_init() > 120,
        "plays on from 120"
    );
    assert!(!host.engine().is_travelling());
    // The run ahead was left behind: the timeline now ends at the present.
    let span = host.engine().travel_span().unwrap();
    assert_eq!(span.last, host.engine().updates_since_init());
}
