//! Two pages that play over the network, driven natively as their scripts drive them: each
//! page's datagrams are handed to the other at once, as an open data channel on the loopback
//! would, and each frame comes at a 60th of a second on the pages' clock.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bt_engine::replay::Replay;
use bt_engine::{Engine, EngineOptions};
use bt_web::page::frame_flags;
use bt_web::{BootOptions, Bundle, Page, PageAction, PageEvent};

/// A page of snake opened with `?room=NAME`: booted to play over the network.
fn netplay_page() -> Page {
    let options = BootOptions {
        overlay: true,
        reduced_motion: false,
        netplay: true,
    };
    Page::boot_with(
        "snake",
        bt_cart_snake::cart,
        &Bundle::NONE,
        Vec::new(),
        None,
        options,
        None,
    )
    .expect("snake boots to play over the network")
}

/// What each page sent, handed to the other, as the scripts do after every frame.
fn carry(from: &mut Page, to: &mut Page) {
    while from.net_take() {
        let datagram = from.out().to_vec();
        to.net_arrived(&datagram);
    }
}

fn key(page: &mut Page, code: &str, down: bool) -> PageAction {
    page.event(PageEvent::Key { code, down })
}

/// Two pages connected, player 1 and player 2, their frames run until both have `updates`
/// confirmed; `press(frame, a, b)` is called before every frame. The run is bounded in time:
/// GGRS's synchronisation runs on the wall clock.
fn play(updates: u64, mut press: impl FnMut(u32, &mut Page, &mut Page)) -> (Page, Page) {
    let (mut a, mut b) = (netplay_page(), netplay_page());
    a.start_netplay(0).expect("player 1 starts");
    b.start_netplay(1).expect("player 2 starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut now = 0.0;
    let mut frame = 0;
    while a.net_confirmed() < updates || b.net_confirmed() < updates {
        assert!(
            Instant::now() < deadline,
            "60 s and only {} and {} updates confirmed; {:?} / {:?}",
            a.net_confirmed(),
            b.net_confirmed(),
            a.net_status(),
            b.net_status()
        );
        press(frame, &mut a, &mut b);
        for page in [&mut a, &mut b] {
            let flags = page.frame(now);
            assert_eq!(flags & frame_flags::ENDED, 0, "{:?}", page.net_status());
        }
        carry(&mut a, &mut b);
        carry(&mut b, &mut a);
        now += 1000.0 / 60.0;
        frame += 1;
    }
    (a, b)
}

fn replay(page: &mut Page) -> Replay {
    page.replay_text();
    let text = String::from_utf8(page.out().to_vec()).expect("a replay is text");
    Replay::from_json(&text, Path::new("page.btr")).expect("the page's replay parses")
}

#[test]
fn two_pages_play_one_run_and_their_replays_hold_the_same_confirmed_input() {
    // Each page presses with player 1's keys, a while into the run (past the synchronisation),
    // and each page's press is its own player's.
    let (mut a, mut b) = play(600, |frame, a, b| match frame {
        120 => _ = key(a, "ArrowDown", true),
        140 => _ = key(a, "ArrowDown", false),
        200 => _ = key(b, "ArrowUp", true),
        220 => _ = key(b, "ArrowUp", false),
        _ => {}
    });
    let (ra, rb) = (replay(&mut a), replay(&mut b));
    // Each holds confirmed updates only: no more than the page has confirmed.
    assert!(ra.ticks() <= a.net_confirmed() && rb.ticks() <= b.net_confirmed());
    let shared = ra.ticks().min(rb.ticks());
    assert!(shared >= 600, "only {shared} updates in both replays");
    assert_eq!(
        ra.through(shared).to_json(),
        rb.through(shared).to_json(),
        "the two pages' replays differ"
    );
    let pressed = |player: usize| {
        ra.recording()
            .iter()
            .any(|t| t.buttons[player].pressed != 0)
    };
    assert!(pressed(0), "page 1's press is player 1's");
    assert!(pressed(1), "page 2's press is player 2's");
    // And it plays back in a fresh engine to every frame hash it holds.
    let options = EngineOptions {
        replay: Some(Arc::new(ra.clone())),
        ..EngineOptions::default()
    };
    let mut fresh = Engine::new(Box::new(bt_cart_snake::cart), options).unwrap();
    fresh.log_hashes(1);
    fresh.step(ra.ticks()).unwrap();
    assert_eq!(ra.first_mismatch(fresh.hashes()), None);
}

#[test]
fn a_page_waiting_for_the_other_runs_no_update_and_sends_nothing() {
    let mut page = netplay_page();
    for i in 0..30 {
        let flags = page.frame(f64::from(i) * 1000.0 / 60.0);
        assert_eq!(flags & frame_flags::DREW, 0);
    }
    assert_eq!(page.host().engine().updates_since_init(), 0);
    assert!(!page.net_take());
    assert_eq!(page.net_status(), None);
}

#[test]
fn a_netplay_page_keeps_to_its_run_f2_hands_over_confirmed_updates_and_state_files_are_refused() {
    let (mut a, _b) = play(120, |_, _, _| {});
    let confirmed = a.net_confirmed();
    assert_eq!(key(&mut a, "F2", true), PageAction::DownloadReplay);
    let text = String::from_utf8(a.out().to_vec()).unwrap();
    let replay = Replay::from_json(&text, Path::new("page.btr")).unwrap();
    assert!(replay.ticks() <= confirmed && replay.ticks() >= 120);
    assert_eq!(
        a.load_state_file("run.btstate", "{}"),
        PageAction::Refused,
        "a state file would take this page's run away from the other's"
    );
}

#[test]
fn a_page_opened_without_a_room_refuses_to_start_a_session_and_one_started_twice_too() {
    let mut plain = Page::new("snake", bt_cart_snake::cart, Vec::new(), None, true, None).unwrap();
    let e = plain.start_netplay(0).unwrap_err();
    assert!(e.contains("?room=NAME"), "{e}");
    let mut page = netplay_page();
    assert!(page.start_netplay(2).unwrap_err().contains("player 3"));
    page.start_netplay(1).unwrap();
    assert!(page
        .start_netplay(1)
        .unwrap_err()
        .contains("started already"));
}

#[test]
fn a_page_whose_peer_goes_silent_ends_its_run_saying_so() {
    let (mut a, _b) = play(60, |_, _, _| {});
    // The other page stops: nothing arrives any more. The session ends after its 3 s.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut now = 10_000.0;
    loop {
        let flags = a.frame(now);
        while a.net_take() {}
        if flags & frame_flags::ENDED != 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still playing 20 s after the other page went"
        );
        now += 1000.0 / 60.0;
        std::thread::sleep(Duration::from_millis(5));
    }
    let why = a.net_status().expect("why the session ended");
    assert!(why.starts_with("the other page stopped answering"), "{why}");
}

#[test]
fn bts_stand_in_for_js_sys_has_the_version_bts_lock_holds_so_a_page_build_takes_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"js-sys\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .expect("GGRS's js-sys in Cargo.lock");
    let stand_in = std::fs::read_to_string(root.join("runtime/web/js-sys/Cargo.toml")).unwrap();
    assert!(
        stand_in.lines().any(|l| l == format!("version = {locked}")),
        "runtime/web/js-sys is not at js-sys {locked}, the version Cargo.lock holds: \
         `bt web`'s patch would not take its place"
    );
}

#[test]
fn each_netplay_pages_overlay_names_its_player_and_the_link() {
    let (a, b) = play(120, |_, _, _| {});
    for (page, player) in [(&a, 1), (&b, 2)] {
        let overlay = page
            .host()
            .engine()
            .overlay()
            .expect("the page has an overlay");
        let rows: Vec<String> = overlay
            .host_rows()
            .iter()
            .map(|(left, right)| format!("{left} | {right}"))
            .collect();
        assert!(
            rows.iter()
                .any(|r| r.starts_with(&format!("net P{player}"))),
            "{rows:?}"
        );
    }
}

#[test]
fn a_key_held_across_many_frames_is_held_in_every_update_it_spans() {
    // Held for 30 frames once both pages play: every update run meanwhile sees it held.
    let mut held_from = None;
    let (mut a, _b) = play(240, |frame, a, _| {
        if held_from.is_none() && a.net_confirmed() > 30 {
            held_from = Some(frame);
            key(a, "ArrowRight", true);
        }
        if held_from.is_some_and(|from| frame == from + 30) {
            key(a, "ArrowRight", false);
        }
    });
    let right = bt::Button::RIGHT.bits();
    let recorded = replay(&mut a);
    let held: Vec<bool> = recorded
        .recording()
        .iter()
        .map(|tick| tick.buttons[0].down & right != 0)
        .collect();
    let longest = held.split(|&h| !h).map(<[bool]>::len).max().unwrap_or(0);
    assert!(longest >= 25, "held for {longest} updates in a row");
    assert_eq!(held.iter().filter(|&&h| h).count(), longest, "held once");
}
