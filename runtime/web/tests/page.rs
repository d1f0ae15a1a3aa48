//! The page's console, driven natively call by call as the page's script drives it.

use std::path::Path;
use std::sync::Arc;

use bt::host::TickInput;
use bt_engine::export::png::to_rgba;
use bt_engine::replay::Replay;
use bt_engine::{Engine, EngineOptions, Origin};
use bt_test_support::CountingAlloc;
use bt_web::abi::{parse_boot, Boot};
use bt_web::event::kind;
use bt_web::page::frame_flags;
use bt_web::{Page, PageAction, PageEvent};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc::new();

fn jukebox() -> Page {
    Page::new(
        "jukebox",
        bt_cart_jukebox::cart,
        Vec::new(),
        None,
        true,
        None,
    )
    .expect("the jukebox boots")
}

fn snake() -> Page {
    Page::new("snake", bt_cart_snake::cart, Vec::new(), None, true, None).expect("snake boots")
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

/// A key went down or up, as the script reports it.
fn key(page: &mut Page, code: &str, down: bool) -> PageAction {
    page.event(PageEvent::Key { code, down })
}

/// The event the script's numbers make, fed to the page as `bt_event` feeds it.
fn send(page: &mut Page, kind: u32, text: &str, [a, b, c]: [f64; 3]) -> PageAction {
    let event = PageEvent::decode(kind, text, a, b, c).expect("a kind the module knows");
    page.event(event)
}

/// What the cart's last update saw.
fn seen(page: &Page) -> TickInput {
    page.host().engine().console().input().visible()
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
    let mut page = Page::new("snake", bt_cart_snake::cart, Vec::new(), None, false, None).unwrap();
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
    key(&mut page, "KeyZ", true);
    now = frames(&mut page, now, 3);
    key(&mut page, "KeyZ", false);
    assert_eq!(key(&mut page, "ArrowDown", true), PageAction::None);
    now = frames(&mut page, now, 15);
    key(&mut page, "ArrowDown", false);
    key(&mut page, "ArrowLeft", true);
    now = frames(&mut page, now, 15);
    key(&mut page, "ArrowLeft", false);
    frames(&mut page, now, 30);
    assert_eq!(key(&mut page, "F2", true), PageAction::DownloadReplay);
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
        None,
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
fn a_replay_never_plays_in_the_players_own_run_that_keeps_their_save_data() {
    let mut page = snake();
    frames(&mut page, 0.0, 10);
    assert_eq!(key(&mut page, "F2", true), PageAction::DownloadReplay);
    let replay = String::from_utf8(page.out().to_vec()).unwrap();
    let load = |_: &str| Some(bt_engine::save::encode(&[9, 9, 9]));
    let Err(err) = Page::new(
        "snake",
        bt_cart_snake::cart,
        Vec::new(),
        Some(&replay),
        true,
        Some(&load),
    ) else {
        panic!("a replay booted in the player's own run");
    };
    assert!(err.contains("save data"), "{err}");
}

#[test]
fn the_host_keys_that_save_hand_their_file_to_the_script_and_reach_no_cart() {
    let mut page = snake();
    frames(&mut page, 0.0, 10);
    let ticks = page.host().engine().ticks();
    assert_eq!(key(&mut page, "F9", true), PageAction::DownloadPng);
    assert!(page.out().starts_with(b"\x89PNG"), "a PNG to download");
    key(&mut page, "F9", false);
    assert_eq!(key(&mut page, "F8", true), PageAction::DownloadTimings);
    assert!(page.out().starts_with(b"{"), "the Chrome trace");
    assert!(
        String::from_utf8_lossy(page.out()).contains("traceEvents"),
        "the Chrome trace"
    );
    key(&mut page, "F8", false);
    assert_eq!(key(&mut page, "F2", true), PageAction::DownloadReplay);
    assert!(page.out().starts_with(b"{"), "the replay's text");
    key(&mut page, "F2", false);
    assert_eq!(page.host().engine().ticks(), ticks, "no key ran an update");
    // The same keys as natively: the host's, from one list.
    for code in ["F2", "F8", "F9"] {
        let key = bt::Key::from_code(code).unwrap();
        assert!(bt_host::keymap::HOST_KEYS.contains(&key), "{code}");
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
        None,
    )
    .unwrap_err();
    assert!(err.contains("snake") && !err.contains('\n'), "{err}");
    let err = Page::new(
        "snake",
        bt_cart_snake::cart,
        Vec::new(),
        Some("{not json"),
        true,
        None,
    )
    .unwrap_err();
    assert!(err.contains("the replay"), "{err}");
}

#[test]
fn each_frame_hands_over_the_samples_its_updates_made_and_none_while_paused() {
    let mut page = jukebox();
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
        2 * updates * 44_100 / 60,
        "44100 frames a second, 735 an update, two samples each"
    );
    key(&mut page, "F5", true);
    key(&mut page, "F5", false);
    page.frame(now);
    assert!(page.samples().is_empty(), "paused: silent");
}

#[test]
fn the_pages_wav_is_bt_wavs() {
    let mut page = jukebox();
    page.wav(1.0).unwrap();
    let mut engine =
        Engine::new(Box::new(bt_cart_jukebox::cart), EngineOptions::default()).unwrap();
    let native = bt_engine::export::wav::record_samples(
        &mut engine,
        0.0,
        1.0,
        None,
        bt_engine::export::wav::WavChannels::Stereo,
    )
    .unwrap();
    assert_eq!(native.len(), 2 * 44_100, "left and right");
    assert!(page.samples() == native.as_slice(), "the same samples");
}

#[test]
fn frames_between_snapshots_do_not_allocate_and_one_that_takes_a_snapshot_only_a_few_times() {
    let mut page = snake();
    let mut now = frames(&mut page, 0.0, 240);
    let newest = |page: &Page| page.host().engine().snapshots().span.map(|(_, last)| last);
    let (mut quiet, mut taking) = (Vec::new(), Vec::new());
    for _ in 0..150 {
        let before = newest(&page);
        let allocations = ALLOC.allocations_during(|| {
            page.frame(now);
        });
        now += 1000.0 / 60.0;
        if newest(&page) == before {
            quiet.push(allocations);
        } else {
            taking.push(allocations);
        }
    }
    assert!(
        quiet.iter().all(|&n| n == 0),
        "frames that took no snapshot: {quiet:?}"
    );
    assert!(
        !taking.is_empty(),
        "150 frames take a snapshot every 64 updates"
    );
    assert!(
        taking.iter().all(|&n| n <= 64),
        "a frame that takes a snapshot allocates for the copy only: {taking:?}"
    );
    assert!(
        ALLOC.allocations_during(|| drop(vec![1u8; 8])) > 0,
        "the counter counts"
    );
}

/// The overlay's notice now, empty when none shows.
fn notice(page: &Page) -> String {
    let overlay = page.host().engine().overlay().expect("the page's overlay");
    overlay.notice().to_string()
}

#[test]
fn f1_held_in_a_page_runs_the_run_back_and_play_goes_on_from_where_it_reached() {
    let mut page = snake();
    let now = frames(&mut page, 0.0, 300);
    let from = page.host().engine().updates_since_init();
    key(&mut page, "F1", true);
    let now = frames(&mut page, now, 90);
    let reached = page.host().engine().updates_since_init();
    assert!(reached < from, "went back from update {from}: at {reached}");
    assert!(
        notice(&page).starts_with("rewind -"),
        "how far back, and no error: {}",
        notice(&page)
    );
    key(&mut page, "F1", false);
    frames(&mut page, now, 30);
    let on = page.host().engine().updates_since_init();
    assert!(on > reached, "plays on from {reached}: at {on}");
    assert_eq!(notice(&page), "", "the notice goes with the key");
    assert!(
        page.host().engine().snapshots().budget <= bt_web::page::PAGE_SNAPSHOT_BUDGET,
        "within the page's budget"
    );
}

#[test]
fn f1_held_in_a_page_hands_over_the_sound_of_the_updates_gone_back_reversed() {
    let mut page = jukebox();
    // Each update's samples, by the update that made them.
    let mut made: Vec<Vec<i16>> = vec![Vec::new()];
    let mut now = 0.0;
    for _ in 0..240 {
        let before = page.host().engine().updates_since_init();
        page.frame(now);
        now += 1000.0 / 60.0;
        let after = page.host().engine().updates_since_init();
        assert!(after - before <= 1, "one update a frame at 60 a second");
        if after > before {
            made.push(page.samples().to_vec());
        }
    }
    assert!(made.iter().flatten().any(|&s| s != 0), "the jukebox plays");
    let from = page.host().engine().updates_since_init();
    key(&mut page, "F1", true);
    let mut heard = Vec::new();
    for _ in 0..30 {
        page.frame(now);
        now += 1000.0 / 60.0;
        heard.extend_from_slice(page.samples());
    }
    let reached = page.host().engine().updates_since_init();
    assert_eq!(from - reached, 30, "one update back a frame at first");
    // Update u's stereo frames, last first, each frame's two samples in their order.
    let want: Vec<i16> = (reached + 1..=from)
        .rev()
        .flat_map(|u| {
            made[u as usize]
                .chunks(2)
                .rev()
                .flatten()
                .copied()
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(heard.len(), want.len());
    assert!(heard == want, "the rewound updates' samples, reversed");
    key(&mut page, "F1", false);
}

#[test]
fn f3_then_f4_in_a_page_returns_to_the_saved_update() {
    let mut page = snake();
    let now = frames(&mut page, 0.0, 120);
    key(&mut page, "F5", true);
    key(&mut page, "F5", false);
    let saved = page.host().engine().updates_since_init();
    assert_eq!(key(&mut page, "F3", true), PageAction::None);
    key(&mut page, "F3", false);
    assert!(
        notice(&page).starts_with("state saved"),
        "{}",
        notice(&page)
    );
    for _ in 0..5 {
        key(&mut page, "F6", true);
        key(&mut page, "F6", false);
    }
    assert_eq!(page.host().engine().updates_since_init(), saved + 5);
    key(&mut page, "F4", true);
    key(&mut page, "F4", false);
    assert_eq!(page.host().engine().updates_since_init(), saved);
    assert!(
        notice(&page).starts_with("state loaded"),
        "{}",
        notice(&page)
    );
    frames(&mut page, now, 5);
    assert!(page.host().is_paused(), "paused before, paused after");
}

/// Shift+F3 in `page`: the state file's text it hands over.
fn state_file(page: &mut Page) -> String {
    key(page, "ShiftLeft", true);
    let action = key(page, "F3", true);
    key(page, "F3", false);
    key(page, "ShiftLeft", false);
    assert_eq!(action, PageAction::DownloadState);
    String::from_utf8(page.out().to_vec()).expect("a state file is text")
}

/// The state file `text` sent as the script sends a chosen or dropped one.
fn drop_state(page: &mut Page, name: &str, text: &str) -> PageAction {
    send(page, kind::STATE_FILE, &format!("{name}\n{text}"), [0.0; 3])
}

#[test]
fn shift_f3_hands_over_a_state_file_that_loads_back_into_a_fresh_page() {
    let mut page = snake();
    let now = frames(&mut page, 0.0, 30);
    key(&mut page, "ArrowDown", true);
    let now = frames(&mut page, now, 20);
    key(&mut page, "ArrowDown", false);
    frames(&mut page, now, 100);
    let updates = page.host().engine().updates_since_init();
    let ticks = page.host().engine().ticks();
    let picture = page.rgba().to_vec();
    let text = state_file(&mut page);
    assert!(text.contains("\"bt-state\""), "{text}");
    assert_eq!(
        page.host().engine().updates_since_init(),
        updates,
        "saving ran no update"
    );

    let mut fresh = snake();
    let now = frames(&mut fresh, 0.0, 10);
    key(&mut fresh, "F5", true);
    key(&mut fresh, "F5", false);
    assert_eq!(
        drop_state(&mut fresh, "snake.btstate", &text),
        PageAction::None
    );
    assert_eq!(fresh.host().engine().updates_since_init(), updates);
    assert_eq!(fresh.host().engine().ticks(), ticks);
    assert!(
        notice(&fresh).starts_with("state loaded from snake.btstate"),
        "{}",
        notice(&fresh)
    );
    // The picture is the one saved, under the notice across its top.
    let top = 4 * 320 * 120;
    assert_eq!(&fresh.rgba()[top..], &picture[top..], "the saved picture");
    frames(&mut fresh, now, 3);
    assert!(fresh.host().is_paused(), "paused before, paused after");

    // Loaded into a playing page, play goes on from the state.
    let mut playing = snake();
    let now = frames(&mut playing, 0.0, 10);
    assert_eq!(
        drop_state(&mut playing, "snake.btstate", &text),
        PageAction::None
    );
    frames(&mut playing, now, 10);
    assert!(playing.host().engine().updates_since_init() > updates);
    // Shift+F4 asks the script for a file, and reaches the host's slot no more than F3 did.
    key(&mut playing, "ShiftRight", true);
    assert_eq!(key(&mut playing, "F4", true), PageAction::ChooseStateFile);
    key(&mut playing, "F4", false);
    key(&mut playing, "ShiftRight", false);
    assert!(
        !notice(&playing).contains("no state saved"),
        "{}",
        notice(&playing)
    );
}

#[test]
fn a_state_file_of_another_build_cart_or_save_data_is_refused_in_one_line_and_play_goes_on() {
    let mut jukebox = jukebox();
    frames(&mut jukebox, 0.0, 30);
    let of_jukebox = state_file(&mut jukebox);
    let mut page = snake();
    let now = frames(&mut page, 0.0, 60);
    let ours = state_file(&mut page);
    let build = bt_engine::engine::state_build();
    assert!(ours.contains(build), "{ours}");
    let other_build = ours.replace(build, "bt-runtime 0.0.1, program 0123456789abcdef");
    let huge = " ".repeat(bt_engine::replay::MAX_REPLAY_BYTES as usize + 1);
    let refusals = [
        ("jukebox.btstate", of_jukebox.as_str(), "jukebox"),
        ("old.btstate", other_build.as_str(), "another build"),
        ("notes.txt", "{not json", "not a BT state file"),
        ("huge.btstate", &huge, "past the 64 MiB"),
    ];
    for (name, text, says) in refusals {
        let updates = page.host().engine().updates_since_init();
        assert_eq!(
            drop_state(&mut page, name, text),
            PageAction::Refused,
            "{name}"
        );
        let message = String::from_utf8(page.out().to_vec()).unwrap();
        assert!(
            message.contains(says) && !message.contains('\n'),
            "{name}: {message}"
        );
        assert!(message.starts_with("load state file: "), "{message}");
        assert!(!notice(&page).is_empty(), "the overlay says so too");
        assert_eq!(page.host().engine().updates_since_init(), updates);
    }
    frames(&mut page, now, 10);
    assert!(!page.host().is_paused(), "play goes on");

    // The player's own run boots with their save data: a state of a run with other save data
    // would not be this run's, and would write over the saved game.
    let kept = bt_engine::save::encode(&[7, 7, 7]);
    let load = |_: &str| Some(kept.clone());
    let mut own = Page::new(
        "snake",
        bt_cart_snake::cart,
        Vec::new(),
        None,
        true,
        Some(&load),
    )
    .unwrap();
    frames(&mut own, 0.0, 10);
    assert_eq!(
        drop_state(&mut own, "snake.btstate", &ours),
        PageAction::Refused
    );
    let message = String::from_utf8(own.out().to_vec()).unwrap();
    assert!(message.contains("other save data"), "{message}");
    let mine = state_file(&mut own);
    frames(&mut own, 1000.0, 10);
    assert_eq!(
        drop_state(&mut own, "mine.btstate", &mine),
        PageAction::None
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

#[test]
fn every_kind_of_event_the_script_sends_reaches_the_carts_update() {
    // Each kind with the numbers the script sends, and what the next update sees of it.
    type Saw = fn(&TickInput) -> bool;
    let cases: [(u32, &str, [f64; 3], Saw); 11] = [
        (kind::KEY, "KeyZ", [4.0, 1.0, 0.0], |t| {
            t.keys_down != 0 && t.buttons[0].down != 0
        }),
        (kind::TEXT, "é", [2.0, 0.0, 0.0], |t| t.text() == "é"),
        (kind::POINTER_MOVED, "", [12.0, 34.0, 0.0], |t| {
            t.pointer_pos == (12, 34) && t.pointer_active
        }),
        (kind::POINTER_BUTTON, "", [0.0, 1.0, 0.0], |t| {
            t.buttons[0].down & bt::Button::POINTER_A.bits() != 0
        }),
        (kind::WHEEL, "", [0.0, -2.0, 0.0], |t| {
            t.pointer_wheel == (0.0, -2.0)
        }),
        (kind::GAMEPAD, "", [1.0, 1.0, 0.0], |t| t.pads[1]),
        (kind::GAMEPAD_BUTTON, "", [0.0, 13.0, 1.0], |t| {
            t.buttons[0].down & bt::Button::DOWN.bits() != 0
        }),
        (kind::GAMEPAD_AXIS, "", [2.0, 0.0, 0.5], |t| {
            t.axes[2][0] == 0.5
        }),
        (kind::TOUCH_START, "", [9.0, 30.0, 40.0], |t| {
            t.touch_down == 1 && t.touch_pos[0] == (30, 40)
        }),
        // A locked pointer's motion: a delta with no move of the position.
        (kind::POINTER_MOTION, "", [7.0, -3.0, 0.0], |t| {
            t.pointer_delta == (7, -3)
        }),
        // The browser's prefers-reduced-motion changed.
        (kind::REDUCED_MOTION, "", [1.0, 0.0, 0.0], |t| {
            t.reduced_motion
        }),
    ];
    for (kind, text, numbers, saw) in cases {
        let mut page = snake();
        let mut now = frames(&mut page, 0.0, 5);
        assert!(
            !saw(&seen(&page)),
            "kind {kind}: not seen before it is sent"
        );
        assert_eq!(send(&mut page, kind, text, numbers), PageAction::None);
        // Text and the wheel are what came since the previous update: one update sees them.
        let mut updates = Vec::new();
        for _ in 0..3 {
            now = frames(&mut page, now, 1);
            updates.push(seen(&page));
        }
        assert!(updates.iter().any(saw), "kind {kind}: {updates:?}");
    }
}

#[test]
fn fingers_on_the_picture_fill_touch_slots_and_lift_off() {
    let mut page = snake();
    let mut now = frames(&mut page, 0.0, 5);
    send(&mut page, kind::TOUCH_START, "", [3.0, 10.0, 10.0]);
    send(&mut page, kind::TOUCH_START, "", [4.0, -50.0, 9999.0]);
    now = frames(&mut page, now, 1);
    let (w, h) = page.size();
    assert_eq!(seen(&page).touch_down, 0b11);
    assert_eq!(
        seen(&page).touch_pos[1],
        (0, h as i32 - 1),
        "clamped to the display ({w}x{h})"
    );
    send(&mut page, kind::TOUCH_MOVE, "", [3.0, 12.0, 11.0]);
    send(&mut page, kind::TOUCH_END, "", [4.0, 0.0, 0.0]);
    now = frames(&mut page, now, 1);
    let t = seen(&page);
    assert_eq!((t.touch_down, t.touch_released), (0b01, 0b10));
    assert_eq!(t.touch_pos[0], (12, 11));
    send(&mut page, kind::FOCUS_LOST, "", [0.0; 3]);
    frames(&mut page, now, 2);
    assert_eq!(
        seen(&page).touch_down,
        0,
        "losing the focus lifts every finger"
    );
}

#[test]
fn losing_the_focus_and_the_pointer_lets_go_of_what_was_held() {
    let mut page = snake();
    let mut now = frames(&mut page, 0.0, 5);
    send(&mut page, kind::KEY, "ArrowUp", [7.0, 1.0, 0.0]);
    send(&mut page, kind::POINTER_MOVED, "", [5.0, 5.0, 0.0]);
    now = frames(&mut page, now, 3);
    assert!(seen(&page).keys_down != 0 && seen(&page).pointer_active);
    send(&mut page, kind::FOCUS_LOST, "", [0.0; 3]);
    send(&mut page, kind::POINTER_LEFT, "", [0.0; 3]);
    frames(&mut page, now, 3);
    assert_eq!(seen(&page).keys_down, 0, "the key was let go");
    assert!(!seen(&page).pointer_active, "the pointer left");
}

#[test]
fn kinds_the_module_does_not_know_and_numbers_out_of_range_do_nothing() {
    assert_eq!(PageEvent::decode(0, "", 0.0, 0.0, 0.0), None);
    assert_eq!(PageEvent::decode(99, "", 0.0, 0.0, 0.0), None);
    assert!(PageEvent::carries_text(kind::KEY) && PageEvent::carries_text(kind::TEXT));
    assert!(!PageEvent::carries_text(kind::WHEEL));
    let mut page = snake();
    let now = frames(&mut page, 0.0, 5);
    let before = seen(&page);
    for (kind, numbers) in [
        (kind::GAMEPAD, [9.0, 1.0, 0.0]),
        (kind::GAMEPAD_BUTTON, [9.0, 0.0, 1.0]),
        (kind::GAMEPAD_AXIS, [0.0, 17.0, 1.0]),
        (kind::GAMEPAD_AXIS, [0.0, 0.0, f64::NAN]),
        (kind::POINTER_BUTTON, [7.0, 1.0, 0.0]),
    ] {
        assert_eq!(send(&mut page, kind, "", numbers), PageAction::None);
    }
    assert_eq!(key(&mut page, "NoSuchKey", true), PageAction::None);
    frames(&mut page, now, 3);
    assert_eq!(seen(&page), before, "nothing changed");
    // A pixel far off the display is clamped to its edge, whatever the number.
    send(&mut page, kind::POINTER_MOVED, "", [1e12, -5.0, 0.0]);
    frames(&mut page, now + 100.0, 3);
    let (width, _) = page.size();
    assert_eq!(seen(&page).pointer_pos, (width as i32 - 1, 0));
}

#[test]
fn f8_hands_over_the_last_seconds_as_a_chrome_trace() {
    let mut page = snake();
    frames(&mut page, 0.0, 30);
    assert_eq!(key(&mut page, "F8", true), PageAction::DownloadTimings);
    let trace = String::from_utf8(page.out().to_vec()).unwrap();
    bt_timing::chrome_trace::check_nesting(&trace).expect("a well-formed trace");
    assert!(
        trace.contains("snake"),
        "{}",
        &trace[..trace.len().min(200)]
    );
}

/// The platformer's asset folder as `bt web` packs it: every file under its path in the folder.
fn packed_platformer() -> &'static [u8] {
    packed(bt_cart_platformer::ASSETS)
}

/// An asset folder as `bt web` packs it.
fn packed(folder: &str) -> &'static [u8] {
    let folder = Path::new(folder);
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_str().unwrap().to_string())
        .collect();
    names.sort();
    let mut writer = bt_engine::config::asset_pack::PackWriter::new();
    for name in names {
        writer.add(&name, &std::fs::read(folder.join(&name)).unwrap());
    }
    writer.into_bytes().leak()
}

#[test]
fn a_cart_reads_its_sheet_maps_sounds_and_data_from_the_pages_pack() {
    let bundle = bt_web::Bundle {
        manifest: None,
        assets: packed_platformer(),
    };
    let mut page = Page::boot(
        "platformer",
        bt_cart_platformer::cart,
        &bundle,
        Vec::new(),
        None,
        false,
        None,
    )
    .expect("the platformer boots from its packed folder");
    page.render_at(6.0).unwrap();
    // Natively the same cart reads the folder itself.
    let options = EngineOptions {
        overlay: false,
        assets: Some(bt_cart_platformer::ASSETS.into()),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(bt_cart_platformer::cart), options).unwrap();
    engine.render_at(6.0, Origin::Start).unwrap();
    let native = to_rgba(engine.framebuffer(), engine.palette(), 1).unwrap();
    assert!(
        page.rgba() == native,
        "the page draws what the folder draws"
    );

    // Without the pack the cart cannot start: the files are what made the picture.
    let err = Page::new(
        "platformer",
        bt_cart_platformer::cart,
        Vec::new(),
        None,
        false,
        None,
    )
    .unwrap_err();
    assert!(err.contains("file not found"), "{err}");
}

#[test]
fn a_cart_reads_its_fonts_from_the_pages_pack() {
    // A BDF font from the pack; a sheet font whose picture the page's loader decodes.
    let bundle = bt_web::Bundle {
        manifest: None,
        assets: packed(bt_cart_fonts::ASSETS),
    };
    let mut page = Page::boot(
        "fonts",
        bt_cart_fonts::cart,
        &bundle,
        Vec::new(),
        None,
        false,
        None,
    )
    .expect("the fonts cart boots from its packed folder");
    page.render_at(2.0).unwrap();
    let options = EngineOptions {
        overlay: false,
        assets: Some(bt_cart_fonts::ASSETS.into()),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(bt_cart_fonts::cart), options).unwrap();
    engine.render_at(2.0, Origin::Start).unwrap();
    let native = to_rgba(engine.framebuffer(), engine.palette(), 1).unwrap();
    assert!(
        page.rgba() == native,
        "the page draws what the folder draws"
    );
    let err = Page::new("fonts", bt_cart_fonts::cart, Vec::new(), None, false, None).unwrap_err();
    assert!(err.contains("narrow.bdf: file not found"), "{err}");
}

#[test]
fn a_carried_cart_toml_sets_the_pages_display_seed_and_version() {
    let bundle = bt_web::Bundle {
        manifest: Some(
            r#"{"name":"snake","title":"Snake!","version":"2.0.0","width":160,"height":120,"seed":"7","palette_preset":"pico8"}"#,
        ),
        assets: &[],
    };
    let page = Page::boot(
        "snake",
        bt_cart_snake::cart,
        &bundle,
        Vec::new(),
        None,
        true,
        None,
    )
    .expect("snake boots with its cart.toml");
    assert_eq!(page.size(), (160, 120));
    assert_eq!(page.title(), "Snake!");
    let settings = page.session().settings();
    assert_eq!(settings.seed, Some(7));
    assert_eq!(
        settings.palette.len(),
        256,
        "a manifest's palette has free slots"
    );
    assert_eq!(page.session().version(), Some("2.0.0"));

    let broken = bt_web::Bundle {
        manifest: Some(r#"{"seed":"seven"}"#),
        assets: &[],
    };
    let err = Page::boot(
        "snake",
        bt_cart_snake::cart,
        &broken,
        Vec::new(),
        None,
        true,
        None,
    )
    .unwrap_err();
    assert_eq!(err, "cart.toml: cart.seed \"seven\" is not a whole number");
}

/// Hides the cursor from its third update on.
struct HidesTheCursor;

impl bt::Cart for HidesTheCursor {
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        ctx.set_cursor_visible(ctx.ticks() < 3);
    }

    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear(1);
    }
}

#[test]
fn a_frame_says_when_the_cart_hid_the_cursor() {
    let cart = || -> Box<dyn bt::Cart> { Box::new(HidesTheCursor) };
    let mut page = Page::new("cursor", cart, Vec::new(), None, true, None).unwrap();
    assert_eq!(page.frame(0.0) & frame_flags::CURSOR_HIDDEN, 0);
    let mut now = 0.0;
    let mut hidden = false;
    for _ in 0..10 {
        now += 1000.0 / 60.0;
        hidden = page.frame(now) & frame_flags::CURSOR_HIDDEN != 0;
    }
    assert!(hidden, "{} updates", page.host().engine().ticks());
}

#[test]
fn the_browsers_reduced_motion_at_boot_reaches_init_and_a_change_the_next_update() {
    let boot = |reduced_motion| {
        let options = bt_web::BootOptions {
            overlay: false,
            reduced_motion,
            netplay: false,
        };
        let args = Vec::new();
        Page::boot_with(
            "snake",
            bt_cart_snake::cart,
            &bt_web::Bundle::NONE,
            args,
            None,
            options,
            None,
        )
        .unwrap()
    };
    let mut page = boot(true);
    let input = page.host().engine().console().input();
    assert!(
        input.prefers_reduced_motion(),
        "init sees the boot preference"
    );
    let now = frames(&mut page, 0.0, 3);
    assert!(seen(&page).reduced_motion);
    send(&mut page, kind::REDUCED_MOTION, "", [0.0, 0.0, 0.0]);
    frames(&mut page, now, 1);
    let input = page.host().engine().console().input();
    assert!(!input.prefers_reduced_motion() && input.reduced_motion_changed());
    assert!(!boot(false)
        .host()
        .engine()
        .console()
        .input()
        .prefers_reduced_motion());
}

#[test]
fn the_pages_script_reads_prefers_reduced_motion_and_sends_its_changes_as_the_module_numbers_them()
{
    let script = include_str!("../host/bt.js");
    assert!(script.contains("\"(prefers-reduced-motion: reduce)\""));
    assert!(script.contains(&format!(
        "BOOT_REDUCED_MOTION = {}",
        bt_web::abi::BOOT_REDUCED_MOTION
    )));
    assert!(script.contains(&format!("REDUCED_MOTION: {}", kind::REDUCED_MOTION)));
    assert!(script.contains(".addEventListener(\"change\""));
}

#[test]
fn the_pages_script_sends_state_files_and_answers_the_state_actions_as_the_module_numbers_them() {
    let script = include_str!("../host/bt.js");
    assert!(script.contains(&format!("STATE_FILE: {}", kind::STATE_FILE)));
    for (name, action) in [
        ("ACTION_STATE", PageAction::DownloadState),
        ("ACTION_CHOOSE_STATE", PageAction::ChooseStateFile),
        ("ACTION_REFUSED", PageAction::Refused),
    ] {
        assert!(
            script.contains(&format!("const {name} = {};", action as u32)),
            "{name}"
        );
    }
    assert!(script.contains(&format!(
        "MAX_STATE_FILE = {};",
        bt_engine::replay::MAX_REPLAY_BYTES
    )));
    // The touch pad's time-travel parts press the host's keys.
    for key in [
        bt_host::REWIND_KEY,
        bt_host::SAVE_STATE_KEY,
        bt_host::LOAD_STATE_KEY,
    ] {
        assert!(script.contains(&format!("\"{}\"", key.code())), "{key:?}");
    }
}
