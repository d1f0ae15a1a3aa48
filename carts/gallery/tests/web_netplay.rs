//! Two web pages play one game over WebRTC: `bt signal` serves a page `bt web snake` wrote and
//! its rooms on one port of the loopback, two pages of one headless Chromium open
//! `?room=t` there (`tests/web/netdrive.mjs`, run by Node), meet, open their data channel and
//! play 600 updates with a key pressed in each; each page's replay holds the same input for
//! every update both hold, and each verifies natively with `bt replay --verify`. A third page
//! in the room is told it is full; a room without a name, and a STUN address the browser does
//! not take, are refused.
//!
//! It needs `node`, `chromium` and a toolchain that builds for the web, as web.rs does; where
//! one is missing it says so loudly on stderr and returns (with `BT_REQUIRE_WEB_TEST=1` it
//! fails instead). Every wait has a deadline: pages that never connect fail with what their
//! foot says, and `bt signal` is killed on the way out.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use bt_runtime::replay::Replay;
use bt_test_support::ScratchDir;
use serde_json::{json, Value};
use support::x11::Killed;
use support::{bt_command, lines, output_within, stderr, stdout, wait_for};

mod support;

/// Skips loudly, or fails when the test is required.
fn unavailable(why: &str) {
    bt_test_support::unavailable(
        "the browser test of netplay between pages",
        "BT_REQUIRE_WEB_TEST",
        why,
        "Install nodejs and chromium, and rustup's wasm32-unknown-unknown target or Debian's \
         rustc-web, cargo-web and rust-web-src (or run .ci/run).",
    );
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Chromium and the page `bt web snake` wrote into `dir`, or `None` after skipping.
fn ready(dir: &Path) -> Option<PathBuf> {
    if on_path("node").is_none() {
        unavailable("`node` is not on the PATH");
        return None;
    }
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|p| on_path(p))
    else {
        unavailable("no `chromium` on the PATH");
        return None;
    };
    let out = output_within(
        bt_command().args(["web", "snake", "-o"]).arg(dir),
        Duration::from_secs(1800),
    );
    if out.status.success() {
        return Some(chromium);
    }
    let why = stderr(&out);
    if why.contains("no Rust toolchain here builds for wasm32") {
        unavailable(why.trim());
        return None;
    }
    panic!("bt web snake failed: {why}");
}

/// `bt signal` serving `site` and its rooms on a free port of the loopback; the server (killed
/// when dropped) and the address to open pages at.
fn signal(site: &Path) -> (Killed, String) {
    let mut child = bt_command()
        .args(["signal", "--address", "127.0.0.1", "--port", "0", "--site"])
        .arg(site)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bt signal starts");
    let out = lines(child.stdout.take().expect("piped"));
    let child = Killed(child);
    let mut seen = Vec::new();
    let line = wait_for(&out, "serving ", Duration::from_secs(20), &mut seen)
        .unwrap_or_else(|| panic!("bt signal said no port within 20 s: {seen:?}"));
    // "serving SITE and its rooms on port PORT; ..."
    let port: u16 = line
        .split("on port ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in bt signal's line {line:?}"));
    (child, format!("http://127.0.0.1:{port}/"))
}

/// Runs `plan` (see netdrive.mjs) on two pages from `origin`; one result per step.
fn drive(chromium: &Path, origin: &str, plan: Value) -> Vec<Value> {
    let scratch = ScratchDir::new("web-net-plan");
    let plan_file = scratch.join("plan.json");
    let results = scratch.join("results.json");
    std::fs::write(&plan_file, plan.to_string()).unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/netdrive.mjs");
    let out = output_within(
        Command::new("node")
            .arg(driver)
            .arg(chromium)
            .arg(origin)
            .arg(&plan_file)
            .arg(&results),
        Duration::from_secs(180),
    );
    assert!(out.status.success(), "netdrive.mjs: {}", stderr(&out));
    serde_json::from_slice(&std::fs::read(&results).unwrap()).expect("netdrive.mjs writes JSON")
}

/// A key held a moment on `page`, with player 1's keys as every page plays.
fn tap(page: u32, key: &str) -> [Value; 3] {
    [
        json!({"page": page, "key": key, "down": true}),
        json!({"wait_ms": 300}),
        json!({"page": page, "key": key, "down": false}),
    ]
}

#[test]
fn two_pages_meet_through_bt_signal_play_one_game_and_record_the_same_input() {
    let dir = ScratchDir::new("web-netplay");
    let site = dir.join("site");
    let Some(chromium) = ready(&site) else {
        return;
    };
    let (_server, origin) = signal(&site);
    // Both pages past the synchronisation (updates confirmed) before the keys, so each press
    // lasts the updates it is held for.
    let running = "window.bt.net && window.bt.net.confirmed() > 30";
    let mut plan = vec![
        json!({"page": 0, "open": "index.html?room=t"}),
        json!({"page": 1, "open": "index.html?room=t"}),
        json!({"page": 0, "wait_for": running, "ms": 30000}),
        json!({"page": 1, "wait_for": running, "ms": 30000}),
    ];
    plan.extend(tap(0, "ArrowDown"));
    plan.extend(tap(1, "ArrowUp"));
    plan.extend([
        json!({"page": 0, "wait_for": "window.bt.net.confirmed() >= 600", "ms": 60000}),
        json!({"page": 1, "wait_for": "window.bt.net.confirmed() >= 600", "ms": 60000}),
        json!({"page": 0, "eval": "[window.bt.net.player(), window.bt.replay()]"}),
        json!({"page": 1, "eval": "[window.bt.net.player(), window.bt.replay()]"}),
        // A third page in the room is told it is full, and plays nothing.
        json!({"page": 2, "open": "index.html?room=t"}),
        json!({"page": 2, "wait_for": "window.bt.net.status().includes('is full')"}),
        json!({"page": 2, "eval": "[window.bt.net.started(), window.bt.ticks()]"}),
        // A room without a name is refused, naming the address's value.
        json!({"page": 3, "open": "index.html?room=", "refused": true}),
        // And so is a STUN server's address the browser does not take.
        json!({"page": 3, "open": "index.html?room=u&stun=nowhere", "refused": true}),
    ]);
    let results = drive(&chromium, &origin, Value::Array(plan));
    let n = results.len();
    let refused = |i: usize| results[i]["error"].as_str().unwrap_or_default().to_string();
    let (room, stun) = (refused(n - 2), refused(n - 1));
    assert!(
        room.contains("?room=\"\": a room's name is 1 to 64 bytes"),
        "{room}"
    );
    assert!(
        stun.contains("?stun=\"nowhere\": not a STUN server's address"),
        "{stun}"
    );
    assert_eq!(
        results[n - 3],
        json!([false, 0]),
        "the third page plays nothing"
    );
    let mut replays = Vec::new();
    for (page, result) in results[n - 7..n - 5].iter().enumerate() {
        // The page that was in the room first plays player 1.
        assert_eq!(result[0], json!(page), "page {page}'s player");
        let text = result[1].as_str().expect("the replay's text");
        let path = dir.join(format!("page{page}.btr"));
        std::fs::write(&path, text).unwrap();
        replays.push((Replay::load(&path).expect("the page's replay"), path));
    }
    let (a, b) = (&replays[0].0, &replays[1].0);
    let shared = a.ticks().min(b.ticks());
    assert!(shared >= 600, "only {shared} updates in both replays");
    assert!(
        a.through(shared) == b.through(shared),
        "the two pages' replays differ"
    );
    let pressed = |player: usize| a.recording().iter().any(|t| t.buttons[player].pressed != 0);
    assert!(pressed(0), "page 1's press is player 1's");
    assert!(pressed(1), "page 2's press is player 2's");
    for (_, path) in &replays {
        let mut verify = bt_command();
        verify.arg("replay").arg("snake").arg(path).arg("--verify");
        let out = output_within(&mut verify, Duration::from_secs(60));
        assert!(
            out.status.success(),
            "{}: {}{}",
            path.display(),
            stdout(&out),
            stderr(&out)
        );
    }
}
