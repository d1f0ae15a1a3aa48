//! Snapshots on every bundled cart: going back to one and playing on gives the ticks, pictures
//! and samples an uninterrupted run gives; a seek behind the current update gives what a seek
//! from boot gives; a recording branched after a rewind is a replay that verifies; and the
//! snapshots kept stay under their memory budget, counted by the allocator itself.

use std::sync::Arc;

use bt::{Button, Key, Player};
use bt_runtime::engine::Origin;
use bt_runtime::replay::frame_hash;
use bt_runtime::{Engine, EngineError, EngineOptions, SnapshotError, StateFile, StateFileError};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn options(name: &str) -> EngineOptions {
    let cart = bt_gallery::find(name).expect("bundled cart");
    EngineOptions {
        overlay: false,
        // A hundred bunnies; the panic cart panics only far past every test's end.
        args: vec![
            ("sprites".into(), "100".into()),
            ("panic_at".into(), "1000000".into()),
        ],
        assets: cart.assets.map(std::path::PathBuf::from),
        ..EngineOptions::default()
    }
}

fn engine_with(name: &str, options: EngineOptions) -> Engine {
    let cart = bt_gallery::find(name).expect("bundled cart");
    Engine::new(Box::new(cart.build), options).expect("cart boots")
}

fn engine(name: &str) -> Engine {
    engine_with(name, options(name))
}

/// The input the update after `update` updates sees: arrows held in turns, the action buttons
/// tapped, the pointer drawing circles with its button down now and then, keys typed. Enough
/// to steer the snake, walk the platformer, paint, and light the keys.
fn feed(e: &mut Engine, update: u64) {
    let input = e.console_mut().input_mut();
    let phase = update / 40 % 4;
    for (i, b) in [Button::RIGHT, Button::DOWN, Button::LEFT, Button::UP]
        .into_iter()
        .enumerate()
    {
        input.set_buttons(b, Player::ONE, phase == i as u64);
    }
    input.set_buttons(Button::A, Player::ONE, update % 23 < 3);
    input.set_buttons(Button::B, Player::ONE, update % 57 == 5);
    input.set_buttons(Button::START, Player::ONE, update % 97 < 2);
    let angle = update as f32 / 15.0;
    let (x, y) = (
        80 + (angle.cos() * 40.0) as i32,
        60 + (angle.sin() * 30.0) as i32,
    );
    input.set_pointer_pos(x, y);
    input.set_buttons(Button::POINTER_A, Player::ONE, update % 50 < 30);
    input.set_key(Key::KeyZ, update % 31 < 4);
    input.set_key(Key::Space, update % 71 < 2);
}

/// Every cart that keeps the loop's rules: `drift` changes its state in `render` on purpose
/// (for `bt verify`), so a state reached by stepping updates without drawing each is not the
/// one it drew live.
fn honest_carts() -> impl Iterator<Item = &'static bt_runtime::catalog::CartEntry> {
    bt_gallery::WITH_TEST_CARTS
        .iter()
        .filter(|entry| entry.name != "drift")
}

/// One update with the scripted input, and what it gave: the tick counter, the frame's hash,
/// and the update's samples.
fn play_one(e: &mut Engine) -> (u64, u64, Vec<i16>) {
    let update = e.updates_since_init();
    feed(e, update);
    e.step(1).expect("steps");
    let hash = frame_hash(e.framebuffer(), e.palette());
    let samples = e.console_mut().drain_samples().collect();
    (e.ticks(), hash, samples)
}

#[test]
fn rewinding_then_playing_on_equals_an_uninterrupted_run_on_every_cart() {
    for entry in honest_carts() {
        let name = entry.name;
        let mut e = engine(name);
        e.console_mut().drain_frames();
        let first: Vec<_> = (0..400).map(|_| play_one(&mut e)).collect();
        // Back to an update between two snapshots: exactly there.
        let back = e.rewind(150).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(back, 150, "{name}");
        assert_eq!(e.updates_since_init(), back);
        assert_eq!(
            e.ticks(),
            first[back as usize - 1].0,
            "{name}: ticks at {back}"
        );
        assert_eq!(
            frame_hash(e.framebuffer(), e.palette()),
            first[back as usize - 1].1,
            "{name}: the restored frame"
        );
        for update in back..400 {
            let again = play_one(&mut e);
            let was = &first[update as usize];
            assert_eq!(again.0, was.0, "{name}: ticks after update {}", update + 1);
            assert_eq!(again.1, was.1, "{name}: frame after update {}", update + 1);
            assert!(
                again.2 == was.2,
                "{name}: samples of update {} differ ({} and {} samples)",
                update + 1,
                again.2.len(),
                was.2.len()
            );
        }
    }
}

#[test]
fn a_seek_behind_the_current_update_equals_a_seek_from_boot_on_every_cart() {
    for entry in bt_gallery::WITH_TEST_CARTS {
        let name = entry.name;
        let mut e = engine(name);
        e.render_at_tick(700, Origin::Start, |_, _| {}).unwrap();
        let kept = e.snapshots();
        assert!(kept.count > 5, "{name}: {kept:?}");
        for target in [650, 301, 129, 64, 5] {
            let restarts = e.restarts();
            e.render_at_tick(target, Origin::Current, |_, _| {})
                .unwrap();
            assert_eq!(
                e.restarts(),
                restarts + 1,
                "{name}: going back to {target} counts"
            );
            let mut fresh = engine(name);
            fresh
                .render_at_tick(target, Origin::Start, |_, _| {})
                .unwrap();
            assert_eq!(e.updates_since_init(), target);
            assert_eq!(e.ticks(), fresh.ticks(), "{name} at {target}");
            assert_eq!(e.framebuffer(), fresh.framebuffer(), "{name} at {target}");
            assert_eq!(e.palette(), fresh.palette(), "{name} palette at {target}");
            assert_eq!(e.test_state(), fresh.test_state(), "{name} at {target}");
        }
        // Forward again, through snapshots kept on the first way.
        e.render_at_tick(690, Origin::Start, |_, _| {}).unwrap();
        let mut fresh = engine(name);
        fresh.render_at_tick(690, Origin::Start, |_, _| {}).unwrap();
        assert_eq!(e.framebuffer(), fresh.framebuffer(), "{name} at 690");
    }
}

#[test]
fn input_from_outside_keeps_seeks_from_reusing_the_played_snapshots() {
    let mut e = engine("snake");
    for _ in 0..300 {
        play_one(&mut e);
    }
    // The snake was steered: a seek from the start must not land on the steered run.
    e.render_at_tick(250, Origin::Start, |_, _| {}).unwrap();
    let mut fresh = engine("snake");
    fresh.render_at_tick(250, Origin::Start, |_, _| {}).unwrap();
    assert_eq!(e.framebuffer(), fresh.framebuffer());
    assert_eq!(e.test_state(), fresh.test_state());
}

#[test]
fn a_recording_branched_after_a_rewind_is_a_replay_that_verifies() {
    let mut e = engine("snake");
    e.start_recording(30);
    for _ in 0..300 {
        play_one(&mut e);
    }
    let back = e.rewind(200).unwrap();
    // A different future: the input shifted by 11 updates.
    for _ in back..420 {
        let update = e.updates_since_init();
        feed(&mut e, update + 11);
        e.step(1).unwrap();
    }
    let branch_state = e.test_state();
    let replay = e.recording("snake", None).expect("recording");
    assert_eq!(replay.ticks(), 420);
    let hashes = e.hashes().to_vec();
    assert_eq!(hashes.len(), 14, "a hash every 30 updates: {hashes:?}");

    let mut played = engine_with(
        "snake",
        EngineOptions {
            replay: Some(Arc::new(replay)),
            ..options("snake")
        },
    );
    played.log_hashes(30);
    played.step(420).unwrap();
    assert_eq!(played.hashes(), hashes.as_slice());
    assert_eq!(played.test_state(), branch_state);
}

#[test]
fn rewinding_past_a_panic_gives_back_a_cart_that_runs() {
    let mut e = engine_with(
        "panic",
        EngineOptions {
            args: vec![("panic_at".into(), "300".into())],
            ..options("panic")
        },
    );
    assert!(matches!(
        e.render_at_tick(400, Origin::Current, |_, _| {}),
        Err(EngineError::Panicked(_))
    ));
    assert_eq!(
        e.updates_since_init(),
        301,
        "the update that saw tick 300 panicked"
    );
    assert_eq!(e.rewind(250).unwrap(), 250);
    assert!(e.cart_panic().is_none());
    e.step(40).unwrap();
    assert_eq!(e.ticks(), 290);
}

#[test]
fn a_cart_that_cannot_be_copied_is_told_so_and_seeks_replay_from_boot() {
    struct Plain(u32);
    impl bt::Cart for Plain {
        fn update(&mut self, _ctx: &mut bt::Update<'_>) {
            self.0 += 1;
        }
        fn render(&self, ctx: &mut bt::Render<'_>) {
            ctx.clear((self.0 % 16) as u8);
        }
    }
    let mut e = Engine::new(Box::new(|| Box::new(Plain(0))), EngineOptions::default()).unwrap();
    e.render_at_tick(300, Origin::Start, |_, _| {}).unwrap();
    assert_eq!(e.snapshots().count, 0);
    assert_eq!(e.snapshots().supported, Some(false));
    let err = e.rewind(100).unwrap_err();
    assert_eq!(err, EngineError::Snapshot(SnapshotError::Unsupported));
    assert!(err.to_string().contains("Cart::snapshot"), "{err}");
    let restarts = e.restarts();
    e.render_at_tick(17, Origin::Current, |_, _| {}).unwrap();
    assert_eq!(e.restarts(), restarts + 1);
    assert_eq!(e.framebuffer().pixels()[0], 1, "17 updates: colour 1");
}

#[test]
fn no_budget_keeps_no_snapshot_and_a_rewind_says_why() {
    let mut e = engine_with(
        "hello",
        EngineOptions {
            snapshot_budget: 0,
            ..options("hello")
        },
    );
    e.render_at_tick(300, Origin::Start, |_, _| {}).unwrap();
    assert_eq!(e.snapshots().count, 0);
    let err = e.rewind(100).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no snapshots are kept (snapshot budget 0 bytes)"
    );
}

#[test]
fn the_snapshots_kept_stay_under_their_budget_counted_by_the_allocator() {
    // Bunnymark with 20,000 bunnies: some 320 KiB a snapshot, under a 4 MiB budget.
    const BUDGET: usize = 4 << 20;
    for (name, sprites) in [("bunnymark", "20000"), ("platformer", "0"), ("paint", "0")] {
        let before = GLOBAL.live_bytes();
        let mut e = engine_with(
            name,
            EngineOptions {
                snapshot_budget: BUDGET,
                args: vec![("sprites".into(), sprites.into())],
                ..options(name)
            },
        );
        let booted = GLOBAL.live_bytes();
        e.render_at_tick(6000, Origin::Start, |_, _| {}).unwrap();
        let kept = e.snapshots();
        let held = GLOBAL.live_bytes() - booted;
        assert!(kept.bytes <= BUDGET, "{name}: {kept:?}");
        assert!(
            held <= BUDGET as i64,
            "{name}: the snapshots hold {held} bytes, over the budget {BUDGET}"
        );
        // The estimate is honest: it counts at least what the allocator sees, less a tenth,
        // and at most twice it (a map's cells count as copied even while a snapshot shares
        // them with the live game).
        let estimate = kept.bytes as i64;
        assert!(
            held <= estimate + estimate / 10 && estimate <= 2 * held,
            "{name}: estimate {estimate} bytes, held {held}"
        );
        // Spread across the whole run, each seek in it at most one spacing from a snapshot.
        let (first, last) = kept.span.unwrap();
        assert_eq!(first, 0);
        assert!(6000 - last < kept.every, "{name}: {kept:?}");
        assert!(kept.count >= 2, "{name}: {kept:?}");
        drop(e);
        assert!(
            GLOBAL.live_bytes() - before < 64 << 10,
            "{name}: the engine frees what it held"
        );
    }
}

/// A game that keeps a big off-screen image of BT's and draws on it every update (a trail, a
/// minimap), copied for its snapshots by `bt::cloned` with nothing said of the image.
#[derive(Clone)]
struct Trails {
    trail: bt::Image,
}

impl bt::Cart for Trails {
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        let x = (ctx.ticks() % 2048) as i32;
        ctx.draw_on(&mut self.trail, |img| img.draw_pixel(x, 0, 7));
    }
    fn render(&self, _ctx: &mut bt::Render<'_>) {}
    fn snapshot(&self) -> Option<Box<dyn bt::Cart>> {
        bt::cloned(self)
    }
}

#[test]
fn a_carts_own_images_count_against_the_snapshot_budget() {
    // Each snapshot of the live image, drawn on after it is taken, ends up with 4 MiB of its
    // own: uncounted, the ring would keep one every 64 updates, 188 MiB by update 3000.
    const BUDGET: usize = 16 << 20;
    const IMAGE: usize = 2048 * 2048;
    let before = GLOBAL.live_bytes();
    let mut e = Engine::new(
        Box::new(|| {
            Box::new(Trails {
                trail: bt::Image::new(2048, 2048).expect("an image"),
            }) as Box<dyn bt::Cart>
        }),
        EngineOptions {
            overlay: false,
            snapshot_budget: BUDGET,
            ..EngineOptions::default()
        },
    )
    .expect("the cart boots");
    e.render_at_tick(3000, Origin::Start, |_, _| {}).unwrap();
    let kept = e.snapshots();
    assert!(kept.bytes <= BUDGET, "{kept:?}");
    assert!(
        kept.bytes >= kept.count * IMAGE,
        "each counts its image: {kept:?}"
    );
    assert!(kept.count >= 2, "{kept:?}");
    let held = GLOBAL.live_bytes() - before;
    assert!(
        held <= (BUDGET + 2 * IMAGE) as i64,
        "the engine holds {held} bytes: the budget {BUDGET} and the live image, at most"
    );
    // Going back still lands where the run was.
    let (first, _) = kept.span.unwrap();
    e.render_at_tick(first + 10, Origin::Start, |_, _| {})
        .unwrap();
}

#[test]
fn a_smaller_budget_thins_the_ring_at_once_and_none_empties_it() {
    let mut e = engine("bunnymark");
    e.render_at_tick(3000, Origin::Start, |_, _| {}).unwrap();
    let kept = e.snapshots();
    assert!(kept.count > 40, "{kept:?}");
    e.set_snapshot_budget(kept.bytes / 3);
    let thinned = e.snapshots();
    assert!(thinned.bytes <= kept.bytes / 3, "{thinned:?}");
    assert!(
        thinned.every > kept.every && thinned.count >= 2,
        "{thinned:?}"
    );
    e.set_snapshot_budget(0);
    assert_eq!(e.snapshots().count, 0);
    e.step(200).unwrap();
    assert_eq!(e.snapshots().count, 0, "none kept from then on");
}

#[test]
fn the_byte_counter_sees_what_is_held() {
    let before = GLOBAL.live_bytes();
    let v = vec![0u8; 100_000];
    assert!(GLOBAL.live_bytes() - before >= 100_000);
    drop(v);
    assert!(GLOBAL.live_bytes() - before < 100);
}

#[test]
fn a_save_state_loads_back_the_run_as_it_was_and_plays_on_the_same() {
    let mut e = engine("snake");
    for _ in 0..200 {
        play_one(&mut e);
    }
    let state = e.save_state().unwrap();
    assert_eq!(state.updates(), 200);
    let at_save = (e.test_state(), frame_hash(e.framebuffer(), e.palette()));
    let after: Vec<_> = (0..150).map(|_| play_one(&mut e)).collect();
    for round in 0..2 {
        e.load_state(&state).unwrap();
        assert!(e.is_paused());
        assert_eq!(e.updates_since_init(), 200);
        assert_eq!(
            (e.test_state(), frame_hash(e.framebuffer(), e.palette())),
            at_save,
            "loaded, round {round}"
        );
        let again: Vec<_> = (0..150).map(|_| play_one(&mut e)).collect();
        assert!(again == after, "played on after loading, round {round}");
    }
    // Rewinding after a load stays on the loaded run.
    assert_eq!(e.rewind(300).unwrap(), 300);
    assert_eq!(e.ticks(), after[99].0);
    assert_eq!(frame_hash(e.framebuffer(), e.palette()), after[99].1);

    let mut other = engine("snake");
    let err = other.load_state(&state).unwrap_err();
    assert_eq!(err, EngineError::Snapshot(SnapshotError::OtherEngine));
    assert_eq!(other.updates_since_init(), 0, "nothing loaded");
}

#[test]
fn a_state_file_is_the_run_from_boot_and_refuses_another_build_or_cart() {
    // With no snapshots kept and no recording, the engine holds no run from boot.
    let bare = engine_with(
        "snake",
        EngineOptions {
            snapshot_budget: 0,
            ..options("snake")
        },
    );
    assert!(matches!(
        bare.state_file("snake", None),
        Err(StateFileError::NotRecording)
    ));
    // Keeping snapshots, it logs the input from boot: enough for a state file, no recording
    // needed.
    let mut e = engine("snake");
    for _ in 0..250 {
        play_one(&mut e);
    }
    let text = e.state_file("snake", None).unwrap().to_json();
    let path = std::path::Path::new("snake.btstate");
    let file = StateFile::from_json(&text, path).unwrap();
    assert_eq!(file.replay.ticks(), 250);

    let mut loaded = engine("snake");
    loaded.load_state_file(&file, "snake", None, path).unwrap();
    assert_eq!(loaded.updates_since_init(), 250);
    assert_eq!(loaded.test_state(), e.test_state());
    assert_eq!(loaded.framebuffer(), e.framebuffer());
    // Playing on from the loaded state is playing on from the saved one (the samples the
    // replay made on the way are not this run's to hear).
    loaded.console_mut().drain_frames();
    let a: Vec<_> = (0..100).map(|_| play_one(&mut e)).collect();
    let b: Vec<_> = (0..100).map(|_| play_one(&mut loaded)).collect();
    for (i, (a, b)) in a.iter().zip(&b).enumerate() {
        assert_eq!((a.0, a.1), (b.0, b.1), "update {}", 251 + i);
        assert!(a.2 == b.2, "samples of update {}", 251 + i);
    }

    let build = bt_runtime::engine::state_build();
    let other_build = text.replace(build, "bt-runtime 0.0.0-other");
    let err = StateFile::from_json(&other_build, path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "snake.btstate: a state saved by another build (bt-runtime 0.0.0-other); this is \
             {build}, which loads only its own",
        )
    );
    // Another build of the same version of BT (the program changed, the version did not).
    let same_version = format!("bt-runtime {}", env!("CARGO_PKG_VERSION"));
    for other in [
        same_version.clone(),
        format!("{same_version}, program 0123456789abcdef"),
    ] {
        let err = StateFile::from_json(&text.replace(build, &other), path).unwrap_err();
        assert!(
            matches!(err, StateFileError::OtherBuild { .. }),
            "{other}: {err}"
        );
    }
    // Another version of the cart.
    let err = engine("snake")
        .load_state_file(&file, "snake", Some("2.0"), path)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "a state of snake with no version; this run is snake version 2.0"
    );
    let mut hello = engine("hello");
    let err = hello
        .load_state_file(&file, "hello", None, path)
        .unwrap_err();
    assert!(
        err.to_string().starts_with("a state of snake (seed"),
        "{err}"
    );
    let err = StateFile::from_json("{\"format\": \"bt-replay\"}", path).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("snake.btstate: not a BT state file"),
        "{err}"
    );
}

/// Plays `replay` from boot in a new engine: its hashes and the game's state at the end.
fn replayed(name: &str, replay: bt_runtime::replay::Replay) -> (Vec<(u64, u64)>, Option<String>) {
    let ticks = replay.ticks();
    let every = replay.info.hash_every;
    let mut e = engine_with(
        name,
        EngineOptions {
            replay: Some(Arc::new(replay)),
            ..options(name)
        },
    );
    e.log_hashes(every);
    e.step(ticks).unwrap();
    (e.hashes().to_vec(), e.test_state())
}

#[test]
fn a_recording_stays_a_replay_of_the_run_through_seeks_from_snapshots() {
    let mut e = engine("snake");
    e.start_recording(20);
    for _ in 0..300 {
        play_one(&mut e);
    }
    // Steered from the first update: no snapshot is on the run a replay from boot gives.
    e.render_at_tick(700, Origin::Start, |_, _| {}).unwrap();
    for target in [500, 650, 130] {
        let restarts = e.restarts();
        e.render_at_tick(target, Origin::Start, |_, _| {}).unwrap();
        assert_eq!(e.restarts(), restarts + 1);
        let replay = e.recording("snake", None).unwrap();
        assert_eq!(replay.ticks(), target, "the recording is the sought run");
        let (hashes, state) = replayed("snake", replay);
        assert_eq!(hashes, e.hashes(), "seek to {target}");
        assert_eq!(state, e.test_state(), "seek to {target}");
    }
}

#[test]
fn loading_a_state_puts_back_the_recording_that_led_to_it() {
    let mut e = engine("snake");
    e.start_recording(20);
    for _ in 0..200 {
        play_one(&mut e);
    }
    let state = e.save_state().unwrap();
    let at_save = e.test_state();
    // Back, and another future from there.
    e.rewind(130).unwrap();
    for _ in e.updates_since_init()..300 {
        let update = e.updates_since_init();
        feed(&mut e, update + 7);
        e.step(1).unwrap();
    }
    e.load_state(&state).unwrap();
    assert_eq!(e.test_state(), at_save);
    let replay = e.recording("snake", None).unwrap();
    assert_eq!(replay.ticks(), 200);
    let (hashes, end) = replayed("snake", replay);
    assert_eq!(hashes, e.hashes());
    assert_eq!(end, at_save);
}

/// One update with the scripted input, and the picture and stereo samples it gave.
fn play_one_picture(e: &mut Engine) -> (Vec<u8>, bt::Palette, Vec<bt::sound::Frame>) {
    let update = e.updates_since_init();
    feed(e, update);
    e.step(1).expect("steps");
    let frames = e.console_mut().drain_frames().collect();
    (
        e.framebuffer().pixels().to_vec(),
        e.palette().clone(),
        frames,
    )
}

#[test]
fn going_back_one_update_at_a_time_shows_the_runs_own_pictures_in_reverse_on_every_cart() {
    for entry in honest_carts() {
        let name = entry.name;
        let mut e = engine(name);
        e.console_mut().drain_frames();
        let run: Vec<_> = (0..300).map(|_| play_one_picture(&mut e)).collect();
        let mut shown = 0;
        while e.updates_since_init() > 1 {
            let at = e.go_back(1).unwrap_or_else(|err| panic!("{name}: {err}"));
            shown += 1;
            assert_eq!(at, 300 - shown, "{name}: one update back each time");
            let (pixels, palette, _) = &run[at as usize - 1];
            assert!(
                e.framebuffer().pixels() == pixels.as_slice() && e.palette() == palette,
                "{name}: the picture after going back to update {at} is not the run's"
            );
        }
        assert_eq!(e.go_back(1).unwrap(), 0, "{name}: back to init");
        assert_eq!(e.go_back(1).unwrap(), 0, "{name}: no further than init");
    }
}

#[test]
fn going_back_plays_the_sound_of_the_updates_passed_reversed() {
    let mut e = engine("audio");
    e.console_mut().drain_frames();
    let run: Vec<_> = (0..240).map(|_| play_one_picture(&mut e)).collect();
    let made: usize = run.iter().map(|r| r.2.len()).sum();
    assert!(
        run.iter().flat_map(|r| &r.2).any(|f| f[0] != 0),
        "the audio cart makes sound in its first four seconds ({made} samples)"
    );
    // Back over updates 240 to 101, some one at a time, some several at once.
    let mut heard = Vec::new();
    for back in [1, 1, 3, 8, 1, 64, 2, 50].into_iter().cycle() {
        let here = e.updates_since_init();
        if here <= 100 {
            break;
        }
        e.go_back(back.min(here - 100)).unwrap();
        heard.extend_from_slice(e.travel_sound());
        e.clear_travel_sound();
    }
    let want: Vec<_> = run[100..240]
        .iter()
        .rev()
        .flat_map(|r| r.2.iter().rev().copied())
        .collect();
    assert_eq!(heard.len(), want.len());
    assert!(heard == want, "the rewound sound is the run's, reversed");

    // At 4x, every fourth sample of it.
    e.set_travel_sound_step(4);
    e.go_back(40).unwrap();
    let quick: Vec<_> = e.travel_sound().to_vec();
    let want: Vec<_> = run[60..100]
        .iter()
        .rev()
        .flat_map(|r| r.2.iter().rev().copied())
        .step_by(4)
        .collect();
    assert!(
        quick == want,
        "{} samples, want {}",
        quick.len(),
        want.len()
    );
}

#[test]
fn a_travel_lands_on_the_exact_update_both_ways_and_plays_on_as_an_uninterrupted_run() {
    let mut e = engine("snake");
    let run: Vec<_> = (0..400).map(|_| play_one(&mut e)).collect();
    let span = e.travel_span().expect("snapshots kept");
    assert_eq!((span.first, span.last), (0, 400));
    for target in [100, 350, 7, 399, 400, 64, 250] {
        assert_eq!(e.travel_to(target).unwrap(), target);
        assert!(e.is_travelling());
        assert_eq!(e.ticks(), run[target as usize - 1].0, "ticks at {target}");
        assert_eq!(
            frame_hash(e.framebuffer(), e.palette()),
            run[target as usize - 1].1,
            "picture at {target}"
        );
        assert_eq!(e.travel_span(), Some(span), "the run ahead is kept");
    }
    // Playing on from 250 with the same input is the same run.
    for update in 250..300 {
        let again = play_one(&mut e);
        assert!(!e.is_travelling());
        assert_eq!(again, run[update as usize], "update {}", update + 1);
    }
    // The future left behind is gone: the span ends at the present.
    assert_eq!(e.travel_span().map(|s| s.last), Some(300));
}

#[test]
fn playing_another_future_after_a_travel_keeps_no_snapshot_of_the_one_left_behind() {
    let mut e = engine("snake");
    for _ in 0..400 {
        play_one(&mut e);
    }
    e.travel_to(130).unwrap();
    assert!(e.snapshots().span.is_some_and(|(_, last)| last >= 384));
    // Another future: the input shifted.
    for update in 130..300 {
        feed(&mut e, update + 13);
        e.step(1).unwrap();
    }
    let branch = (e.test_state(), frame_hash(e.framebuffer(), e.palette()));
    assert_eq!(e.snapshots().span.map(|s| s.1), Some(256));
    // Going back into the new future and forward again gives the new future's picture.
    e.travel_to(200).unwrap();
    e.travel_to(300).unwrap();
    assert_eq!(
        (e.test_state(), frame_hash(e.framebuffer(), e.palette())),
        branch
    );
}
