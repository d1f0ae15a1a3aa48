//! The page's console, driven natively call by call as the page's script drives it.

use std::path::Path;
use std::sync::Arc;

use bt_runtime::export::png::to_rgba;
use bt_runtime::replay::Replay;
use bt_runtime::{Engine, EngineOptions, Origin};
use bt_test_support::CountingAlloc;
use bt_web::abi::{parse_boot, Boot};
use bt_web::page::frame_flags;
use bt_web::{Page, PageAction};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc::new();

fn snake() -> Page {
    Page::new("snake", bt_cart_snake::cart, Vec::new(), None, true).expect("snake boots")
}

/// `bt shot --at seconds` of `cart`, as RGBA.
fn shot(cart: fn() -> Box<dyn bt::Cart>, seconds: f64) -> Vec<u8> {
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(cart), options).unwrap();
    engine.render_at(seconds, Origin::Start).unwrap();
    to_rgba(engine.framebuffer(), engine.palette(), 1).unwrap()
}

/// Frames at 60 a second from `from` ms, `n` of them; returns the last time.
fn frames(page: &mut Page, from: f64, n: u32) -> f64 {
    let mut now = from;
    for _ in 0..n {
        page.frame(now);
        now += 1000.0 / 60.0;
    }
    now
}

#[test]
fn the_page_at_a_time_holds_the_picture_bt_shot_saves() {
    let mut page = Page::new("snake", bt_cart_snake::cart, Vec::new(), None, false).unwrap();
    frames(&mut page, 0.0, 30);
    page.render_at(2.5).unwrap();
    assert!(page.rgba() == shot(bt_cart_snake::cart, 2.5).as_slice());
    assert!(page.host().engine().is_paused(), "it stays on that frame");
    assert_eq!(page.frame(10_000.0) & frame_flags::DREW, 0);
}

#[test]
fn timestamps_run_the_updates_the_wall_clock_pays_for() {
    let mut page = snake();
    // The first frame measures nothing; then 60 frames of 1/60 s run about 60 updates.
    frames(&mut page, 5_000.0, 61);
    let ticks = page.host().engine().ticks();
    assert!((59..=61).contains(&ticks), "{ticks} updates");
    // Back after ten seconds away (a hidden tab): the frame is worth at most the clamp.
    page.frame(5_000.0 + 61.0 * 1000.0 / 60.0 + 10_000.0);
    let after = page.host().engine().ticks() - ticks;
    assert!(after <= 6, "{after} updates after the absence, not 600");
}

#[test]
fn the_replay_key_hands_over_a_recording_that_plays_back_the_same_run() {
    let mut page = snake();
    let mut now = frames(&mut page, 0.0, 20);
    // Z is A: it starts the game; then the arrows steer.
    page.key("KeyZ", true);
    now = frames(&mut page, now, 3);
    page.key("KeyZ", false);
    assert_eq!(page.key("ArrowDown", true), PageAction::None);
    now = frames(&mut page, now, 15);
    page.key("ArrowDown", false);
    page.key("ArrowLeft", true);
    now = frames(&mut page, now, 15);
    page.key("ArrowLeft", false);
    frames(&mut page, now, 30);
    assert_eq!(page.key("F2", true), PageAction::DownloadReplay);
    let replay = String::from_utf8(page.out().to_vec()).unwrap();
    let updates = page.host().engine().updates_since_init();

    let at = updates as f64 / 60.0;
    page.render_at(at).unwrap();
    let no_keys = page.rgba().to_vec();
    let mut replayed = Page::new(
        "snake",
        bt_cart_snake::cart,
        Vec::new(),
        Some(&replay),
        true,
    )
    .unwrap();
    replayed.render_at(at).unwrap();
    assert!(
        replayed.rgba() != no_keys.as_slice(),
        "the keys steered the snake"
    );
    // The recording verifies: every frame hash it carries comes out again.
    let replay = Replay::from_json(&replay, Path::new("page.btr")).unwrap();
    assert!(!replay.hashes().is_empty());
    let options = EngineOptions {
        seed: Some(replay.info.seed),
        replay: Some(Arc::new(replay.clone())),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(bt_cart_snake::cart), options).unwrap();
    engine.render_at(at, Origin::Start).unwrap();
    let mismatch = replay.first_mismatch(engine.hashes());
    assert!(mismatch.is_none(), "a frame hash differs");
}

#[test]
fn the_host_keys_that_save_hand_their_file_to_the_script_and_reach_no_cart() {
    let mut page = snake();
    frames(&mut page, 0.0, 10);
    let ticks = page.host().engine().ticks();
    assert_eq!(page.key("F9", true), PageAction::DownloadPng);
    assert!(page.out().starts_with(b"\x89PNG"), "a PNG to download");
    page.key("F9", false);
    assert_eq!(page.key("F8", true), PageAction::DownloadTimings);
    assert!(page.out().starts_with(b"<!DOCTYPE html>"), "the report");
    page.key("F8", false);
    assert_eq!(page.key("F2", true), PageAction::DownloadReplay);
    assert!(page.out().starts_with(b"{"), "the replay's text");
    page.key("F2", false);
    assert_eq!(page.host().engine().ticks(), ticks, "no key ran an update");
    // The same keys as natively: the host's, from one list.
    for code in ["F2", "F8", "F9"] {
        let key = bt::Key::from_code(code).unwrap();
        assert!(bt_runtime::host::keymap::HOST_KEYS.contains(&key), "{code}");
    }
}

#[test]
fn a_replay_for_another_cart_is_refused_in_one_line() {
    let mut page = snake();
    frames(&mut page, 0.0, 5);
    page.replay_text();
    let replay = String::from_utf8(page.out().to_vec()).unwrap();
    let err = Page::new(
        "hello",
        bt_cart_snake::cart,
        Vec::new(),
        Some(&replay),
        true,
    )
    .unwrap_err();
    assert!(err.contains("snake") && !err.contains('\n'), "{err}");
    let err = Page::new(
        "snake",
        bt_cart_snake::cart,
        Vec::new(),
        Some("{not json"),
        true,
    )
    .unwrap_err();
    assert!(err.contains("the replay"), "{err}");
}

#[test]
fn each_frame_hands_over_the_samples_its_updates_made_and_none_while_paused() {
    let mut page = Page::new("jukebox", bt_cart_jukebox::cart, Vec::new(), None, true).unwrap();
    let mut total = 0;
    let mut now = 0.0;
    for _ in 0..61 {
        page.frame(now);
        total += page.samples().len();
        now += 1000.0 / 60.0;
    }
    let updates = page.host().engine().updates_since_init();
    assert_eq!(
        total as u64,
        updates * 44_100 / 60,
        "44100 a second, 735 an update"
    );
    page.key("F5", true);
    page.key("F5", false);
    page.frame(now);
    assert!(page.samples().is_empty(), "paused: silent");
}

#[test]
fn the_pages_wav_is_bt_wavs() {
    let mut page = Page::new("jukebox", bt_cart_jukebox::cart, Vec::new(), None, true).unwrap();
    page.wav(1.0).unwrap();
    let mut engine =
        Engine::new(Box::new(bt_cart_jukebox::cart), EngineOptions::default()).unwrap();
    let native = bt_runtime::export::wav::record_samples(&mut engine, 0.0, 1.0, None).unwrap();
    assert!(page.samples() == native.as_slice(), "the same samples");
}

#[test]
fn steady_frames_do_not_allocate() {
    let mut page = snake();
    let mut now = frames(&mut page, 0.0, 240);
    let allocations = ALLOC.allocations_during(|| {
        for _ in 0..120 {
            page.frame(now);
            now += 1000.0 / 60.0;
        }
    });
    assert_eq!(allocations, 0, "120 frames of play");
    assert!(
        ALLOC.allocations_during(|| drop(vec![1u8; 8])) > 0,
        "the counter counts"
    );
}

#[test]
fn boot_text_is_cart_arguments_then_maybe_a_replay() {
    let Boot { args, replay } = parse_boot("sprites=5000\nspeed = 2\n").unwrap();
    assert_eq!(
        args,
        vec![
            ("sprites".to_string(), "5000".to_string()),
            ("speed".to_string(), "2".to_string())
        ]
    );
    assert_eq!(replay, None);
    let Boot { args, replay } = parse_boot("--replay--\n{\"a\": 1}").unwrap();
    assert!(args.is_empty());
    assert_eq!(replay, Some("{\"a\": 1}"));
    let err = parse_boot("oops\n").unwrap_err();
    assert!(err.contains("'oops'"), "{err}");
}

#[test]
fn gamepad_buttons_follow_the_standard_layout_by_position() {
    use bt_web::page::standard_button;
    assert_eq!(standard_button(0), bt::Button::A);
    assert_eq!(standard_button(1), bt::Button::B);
    assert_eq!(standard_button(2), bt::Button::X);
    assert_eq!(standard_button(3), bt::Button::Y);
    assert_eq!(standard_button(12), bt::Button::UP);
    assert_eq!(standard_button(15), bt::Button::RIGHT);
    assert_eq!(
        standard_button(6),
        bt::Button::NONE,
        "analog triggers come as axes"
    );
    assert_eq!(standard_button(16), bt::Button::NONE);
}
