//! Steady-state frames allocate nothing: update, render, overlay and palette-to-RGBA.

use bt_runtime::{Engine, EngineOptions, SequenceClock};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn allocations() -> u64 {
    GLOBAL.allocations()
}

/// An engine that keeps no snapshots: taking one copies the cart, which allocates, every
/// `every` updates (see `snapshots_allocate_only_in_the_updates_that_take_them` for that cost).
fn engine(name: &str) -> Engine {
    let cart = bt_gallery::find(name).unwrap();
    let options = EngineOptions {
        snapshot_budget: 0,
        args: vec![("sprites".into(), "200".into())],
        // The fonts cart reads a font from its asset folder.
        assets: cart.assets.map(std::path::PathBuf::from),
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    if let Some(o) = e.overlay_mut() {
        o.set_visible(true);
    }
    e
}

#[test]
fn steady_state_frames_do_not_allocate() {
    let mut e = engine("hello");
    // Frames of 0, 1 and 3 updates, and a clamped one.
    e.set_clock(Box::new(
        SequenceClock::new(vec![8.0, 16.7, 50.0, 300.0]).unwrap(),
    ));
    let mut rgba = vec![0u8; 320 * 240 * 4];
    e.advance(200);
    let before = allocations();
    for _ in 0..2000 {
        e.advance(1);
        e.palette().write_rgba(e.framebuffer().pixels(), &mut rgba);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 2000 steady frames"
    );
    assert!(e.updates_since_init() > 2000);
}

#[test]
fn drawing_carts_do_not_allocate_per_frame() {
    // Sprites, tiles, palette cycles, fades and flashes, noise and parallax, the camera, text
    // in loaded fonts, wrapped and aligned.
    for name in [
        "primitives",
        "sprites",
        "palette",
        "starfield",
        "tilemap",
        "bunnymark",
        "fonts",
        "transforms",
    ] {
        let mut e = engine(name);
        e.set_clock(Box::new(
            SequenceClock::new(vec![8.0, 16.7, 50.0, 300.0]).unwrap(),
        ));
        let mut rgba = vec![0u8; 320 * 240 * 4];
        e.advance(200);
        let before = allocations();
        // About 3 updates a frame: ticks ~620 to ~1080, which for the palette cart (a round of
        // 360 ticks) covers fade starts, the flash and cycling.
        for _ in 0..150 {
            e.advance(1);
            e.palette().write_rgba(e.framebuffer().pixels(), &mut rgba);
        }
        assert_eq!(allocations() - before, 0, "allocations in {name}");
    }
}

#[test]
fn the_platformer_does_not_allocate_per_frame() {
    // Maps drawn layer by layer, remapped coins, patterned hills and HUD, with its files read
    // from its asset folder.
    let cart = bt_gallery::find("platformer").unwrap();
    let options = EngineOptions {
        snapshot_budget: 0,
        assets: cart.assets.map(std::path::PathBuf::from),
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    e.set_clock(Box::new(
        SequenceClock::new(vec![8.0, 16.7, 50.0, 300.0]).unwrap(),
    ));
    e.advance(200);
    let before = allocations();
    for _ in 0..150 {
        e.advance(1);
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn playing_clips_does_not_allocate_per_frame() {
    // Clips decoded in init; then per frame a loop, a fade, panned and pitched blips, and A
    // pressed every ten updates so that its long chord fills the pool and steals voices. The
    // host drains both sides each frame.
    use bt::{Button, Player};
    let mut e = engine("audio");
    e.set_clock(Box::new(
        SequenceClock::new(vec![8.0, 16.7, 50.0, 300.0]).unwrap(),
    ));
    let mut frames = vec![[0i16; 2]; 44_100];
    let mut frame = |e: &mut Engine| {
        let press = e.updates_since_init().is_multiple_of(10);
        e.console_mut()
            .input_mut()
            .set_buttons(Button::A, Player::ONE, press);
        e.advance(1);
        for (slot, f) in frames.iter_mut().zip(e.console_mut().drain_frames()) {
            *slot = f;
        }
    };
    for _ in 0..200 {
        frame(&mut e);
    }
    let before = allocations();
    for _ in 0..300 {
        frame(&mut e);
    }
    assert_eq!(allocations() - before, 0, "allocations while clips play");
    assert!(frames.iter().any(|&f| f != [0, 0]), "it plays");
}

#[test]
fn input_driven_frames_do_not_allocate() {
    use bt::{Axis, Button, Key, Player};
    use bt_runtime::host::keymap::KeyMap;
    use bt_runtime::host::{Host, HostEvent, TouchPhase};

    let mut e = engine("hello");
    e.set_clock(Box::new(SequenceClock::new(vec![8.0, 16.7, 50.0]).unwrap()));
    let mut host = Host::new(e, KeyMap::default(), "hello");
    let frame = |host: &mut Host, n: i32| {
        let down = n % 2 == 0;
        host.handle(HostEvent::Key {
            key: Key::Space,
            down,
        });
        host.handle(HostEvent::Key {
            key: Key::ArrowLeft,
            down: !down,
        });
        host.handle(HostEvent::Text("ab"));
        host.handle(HostEvent::PointerMoved {
            x: n % 320,
            y: n % 240,
        });
        host.handle(HostEvent::PointerButton {
            button: Button::POINTER_A,
            down,
        });
        host.handle(HostEvent::Wheel { dx: 0.0, dy: 1.0 });
        // Two fingers: one stays and moves, one touches down and lifts off by turns.
        let (x, y) = (n % 320, n % 240);
        let phase = if n == 0 {
            TouchPhase::Started
        } else {
            TouchPhase::Moved
        };
        host.handle(HostEvent::Touch { id: 1, phase, x, y });
        let phase = if down {
            TouchPhase::Started
        } else {
            TouchPhase::Ended
        };
        host.handle(HostEvent::Touch { id: 2, phase, x, y });
        host.handle(HostEvent::GamepadButton {
            player: Player::THREE,
            buttons: Button::A,
            down,
        });
        host.handle(HostEvent::GamepadAxis {
            player: Player::THREE,
            axis: Axis::LeftX,
            value: 0.9,
        });
        host.handle(HostEvent::GamepadAxis {
            player: Player::THREE,
            axis: Axis::TriggerL,
            value: if down { 1.0 } else { 0.0 },
        });
        host.frame(0.0);
        // What a platform asks after every frame: nothing to write, at no cost.
        assert!(host.take_outbox().is_empty());
    };
    host.handle(HostEvent::GamepadConnected {
        player: Player::THREE,
    });
    for n in 0..200 {
        frame(&mut host, n);
    }
    let before = allocations();
    for n in 0..2000 {
        frame(&mut host, n);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 2000 frames with input"
    );
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the tests above against a counter that never counts: one made here, and those the
    // engine makes deep inside when it boots a cart.
    let before = allocations();
    let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(64));
    assert!(allocations() > before);
    drop(v);
    let before = allocations();
    let e = engine("hello");
    assert!(allocations() > before, "booting a cart allocates");
    drop(e);
}

#[test]
fn recording_allocates_nothing_per_frame_and_grows_only_with_input_changes() {
    let mut e = engine("snake");
    e.start_recording(bt_runtime::replay::DEFAULT_HASH_EVERY);
    e.set_clock(Box::new(
        SequenceClock::new(vec![8.0, 16.7, 50.0, 300.0]).unwrap(),
    ));
    e.advance(200);
    let before = allocations();
    for frame in 0..2000u32 {
        // A change of input every 50 frames: each starts a run, within the reserved storage.
        if frame % 50 == 0 {
            let turn = [
                bt::Button::UP,
                bt::Button::RIGHT,
                bt::Button::DOWN,
                bt::Button::LEFT,
            ][(frame / 50 % 4) as usize];
            let input = e.console_mut().input_mut();
            input.set_buttons(
                bt::Button::UP | bt::Button::DOWN | bt::Button::LEFT | bt::Button::RIGHT,
                bt::Player::ONE,
                false,
            );
            input.set_buttons(turn, bt::Player::ONE, true);
        }
        e.advance(1);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 2000 recorded frames"
    );
    let replay = e.recording("snake", None).unwrap();
    assert!(
        replay.recording().runs() <= 2 * 40 + 2,
        "{} runs",
        replay.recording().runs()
    );
    assert!(replay.hashes().len() > 50);
}

#[test]
fn snapshots_allocate_only_in_the_updates_that_take_them() {
    // The default budget: a snapshot every 64 updates, each a copy of the cart and the console.
    let cart = bt_gallery::find("hello").unwrap();
    let mut e = Engine::new(Box::new(cart.build), EngineOptions::default()).unwrap();
    e.set_clock(Box::new(SequenceClock::new(vec![1000.0 / 60.0]).unwrap()));
    e.advance(200);
    let every = e.snapshots().every;
    let (mut quiet, mut taking) = (0, 0);
    for _ in 0..2000 {
        let before = (e.updates_since_init(), e.snapshots().count);
        let n = GLOBAL.allocations_during(|| {
            e.advance(1);
        });
        let took = e.snapshots().count > before.1;
        let crossed = (before.0 + 1..=e.updates_since_init()).any(|u| u % every == 0);
        assert_eq!(took, crossed, "a snapshot is taken every {every} updates");
        if took {
            taking += 1;
            assert!(
                n <= 16,
                "a snapshot of hello allocates a few times, not {n}"
            );
        } else {
            quiet += 1;
            assert_eq!(n, 0, "a frame taking no snapshot allocates nothing");
        }
    }
    assert!(taking >= 30 && quiet > 1900, "{taking} {quiet}");
}

#[test]
fn a_window_gif_recording_allocates_nothing_per_frame() {
    use bt_runtime::host::gif_recorder::{GifCapture, Report};
    let dir = bt_test_support::ScratchDir::new("no-alloc-f10");
    let report: Report = std::sync::Arc::new(|r| {
        r.unwrap();
    });
    let mut capture = GifCapture::new(&dir.join("captures"), "cart", (64, 48), false, report);
    capture.set_wait_for_encoder(true);
    let palette = bt::Palette::pico8();
    let mut fb = bt::host::Framebuffer::new(64, 48);
    capture.toggle(0.0, &fb, &palette);
    let mut t = 0.0;
    let mut show = |capture: &mut GifCapture, fb: &mut bt::host::Framebuffer, i: u32| {
        fb.clear((i % 16) as u8);
        t += 1000.0 / 60.0;
        capture.shown(t, fb, &palette);
    };
    // Warm up: every picture of the pool has been round the encoder once.
    for i in 0..100 {
        show(&mut capture, &mut fb, i);
    }
    let n = GLOBAL.allocations_during(|| {
        for i in 100..2100 {
            show(&mut capture, &mut fb, i);
        }
    });
    assert_eq!(
        n, 0,
        "allocations on the window's thread in 2000 recorded frames"
    );
    capture.finish(t + 20.0);
}

#[test]
fn the_post_process_stack_does_not_allocate_per_frame() {
    // Presets switched every two seconds (the crt cart's toggle scene goes through all four),
    // the terminal under the PipBoy preset with its bursts of interference, and the enhanced
    // scene's signal changing values in place every update: the pixel tier, the display
    // tier's tables (built again when a preset changes their parameters) and the output buffer.
    for scene in ["pipboy", "toggle", "enhanced"] {
        let cart = bt_gallery::find("crt").unwrap();
        let options = EngineOptions {
            snapshot_budget: 0,
            args: vec![("scene".into(), scene.into())],
            ..EngineOptions::default()
        };
        let mut e = Engine::new(Box::new(cart.build), options).unwrap();
        if let Some(o) = e.overlay_mut() {
            o.set_visible(true);
        }
        // Three updates a frame, so a round of presets takes fewer (costly) output pictures.
        e.set_clock(Box::new(SequenceClock::new(vec![50.0]).unwrap()));
        let mut rgba = Vec::new();
        // Past a whole round of presets, each frame shown, so every table and buffer has
        // been made at its size (bloom's the first time a preset with bloom is shown).
        for _ in 0..360 {
            e.advance(1);
            e.render_output(&mut rgba);
        }
        let before = allocations();
        for _ in 0..150 {
            e.advance(1);
            e.render_output(&mut rgba);
        }
        assert_eq!(allocations() - before, 0, "allocations in crt {scene}");
        assert_eq!(rgba.len(), 1280 * 960 * 4);
    }
}
