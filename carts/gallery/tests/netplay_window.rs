//! Two players over the network, each in a real window: `bt run snake --host PORT` and
//! `bt run snake --join 127.0.0.1:PORT` under one X server (Xvfb), a key pressed in each
//! window with xdotool, both closed with Ctrl+Q, and a third window watching with
//! `--spectate 127.0.0.1:PORT`. Each records its run; the three recordings hold the same
//! input for every update they share, and each replays to its own frame hashes. Three players
//! (`--players 3`) take their seats in order of arrival; a player killed outright, or runs that
//! part, end the others' with one line and their recordings written.
//!
//! It needs `Xvfb` and `xdotool`. Where they are missing the test says so loudly on stderr and
//! returns; with `BT_REQUIRE_WINDOW_TEST=1` it fails instead. Every wait has a deadline and
//! both children are killed on the way out, so it cannot hang.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bt_runtime::replay::Replay;
use bt_test_support::ScratchDir;
use support::x11::{on_path, start_xvfb, xdotool, Xvfb};
use support::Running;

mod support;

/// Skips loudly, or fails when the test is required.
fn unavailable(why: &str) {
    bt_test_support::unavailable(
        "the real-window netplay test of `bt run --host` and `--join`",
        "BT_REQUIRE_WINDOW_TEST",
        why,
        "Install xvfb and xdotool (or run .ci/run).",
    );
}

/// A fresh X server, or `None` (reported as unavailable) without the tools.
fn x_server() -> Option<Xvfb> {
    if let Some(tool) = ["Xvfb", "xdotool"].iter().find(|t| !on_path(t)) {
        unavailable(&format!("{tool} is not installed"));
        return None;
    }
    match start_xvfb() {
        Ok(x) => Some(x),
        Err(why) => {
            unavailable(&why);
            None
        }
    }
}

/// A UDP port free a moment ago on the loopback.
fn free_udp_port() -> u16 {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("a free UDP port");
    socket.local_addr().unwrap().port()
}

/// `bt run snake` with `flags`, in its own folders, recording to `record`.
fn peer(x: &Xvfb, dir: &Path, flags: &[&str], record: &Path) -> Command {
    peer_of("snake", x, dir, flags, record)
}

/// `bt run CART` with `flags`, in its own folders, recording to `record`.
fn peer_of(cart: &str, x: &Xvfb, dir: &Path, flags: &[&str], record: &Path) -> Command {
    std::fs::create_dir_all(dir).unwrap();
    let mut bt = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"));
    bt.args(["run", cart, "--scale", "1", "--mute"])
        .args(flags)
        .arg("--record")
        .arg(record)
        .arg("--captures")
        .arg(dir.join("captures"))
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        // Each peer's save data apart: both boot with none, so their terms agree.
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    bt
}

/// Waits (at most `limit`) for `run` to end; its exit code and what it printed after.
fn ended(run: &mut Running, limit: Duration) -> (Option<i32>, Vec<String>, Vec<String>) {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = run.child.0.try_wait().expect("bt's status") {
            // The pipes close with the process: what is left comes at once.
            let out = run.out.iter().collect();
            let err = run.err.iter().collect();
            return (status.code(), out, err);
        }
        assert!(
            Instant::now() < deadline,
            "bt run still running {limit:?} after Ctrl+Q"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The host's window, then the joiner's, on a free port, each recording into `dir`.
fn two_peers(x: &Xvfb, dir: &ScratchDir) -> (Running, Running) {
    let (host, join, _) = peers(x, dir, false);
    (host, join)
}

/// The host's window, a spectator's if `watch` (before the last player, as it must), then
/// the joiner's, on a free port, each recording into `dir`.
fn peers(x: &Xvfb, dir: &ScratchDir, watch: bool) -> (Running, Running, Option<Running>) {
    let port = free_udp_port().to_string();
    let address = format!("127.0.0.1:{port}");
    let command = peer(
        x,
        &dir.join("host"),
        &["--host", &port],
        &dir.join("host.btr"),
    );
    let host = Running::start(x, command, "snake");
    let watcher = watch.then(|| {
        let command = peer(
            x,
            &dir.join("watch"),
            &["--spectate", &address],
            &dir.join("watch.btr"),
        );
        Running::start(x, command, "snake")
    });
    let command = peer(
        x,
        &dir.join("join"),
        &["--join", &address],
        &dir.join("join.btr"),
    );
    let join = Running::start(x, command, "snake");
    (host, join, watcher)
}

#[test]
fn two_windows_play_one_game_over_the_loopback_and_record_the_same_input() {
    let Some(x) = x_server() else {
        return;
    };
    let dir = ScratchDir::new("netplay-window");
    let (host_file, join_file) = (dir.join("host.btr"), dir.join("join.btr"));
    let watch_file = dir.join("watch.btr");
    let (mut host, mut join, watch) = peers(&x, &dir, true);
    let mut watch = watch.expect("the spectator's window");

    // Space is player 1's A on the keyboard, the Left arrow its left: each window's player
    // presses with player 1's keys, and plays its own player.
    xdotool(&x.display, &["windowfocus", "--sync", &host.window]);
    xdotool(&x.display, &["key", "space"]);
    std::thread::sleep(Duration::from_millis(300));
    xdotool(&x.display, &["windowfocus", "--sync", &join.window]);
    xdotool(&x.display, &["key", "Left"]);
    // Long enough for both presses to be confirmed on both sides, and to reach the
    // spectator.
    std::thread::sleep(Duration::from_millis(1500));

    // The spectator leaves first, with Ctrl+Q: the players play on without it.
    xdotool(&x.display, &["windowfocus", "--sync", &watch.window]);
    xdotool(&x.display, &["key", "ctrl+q"]);
    let (watch_code, watch_out, watch_err) = ended(&mut watch, Duration::from_secs(20));
    assert_eq!(watch_code, Some(0), "{watch_out:?} {watch_err:?}");
    assert!(
        watch_out.iter().any(|l| l.starts_with("recorded ")),
        "{watch_out:?}"
    );
    xdotool(&x.display, &["windowfocus", "--sync", &join.window]);

    // The joiner quits with Ctrl+Q, and the host's window is closed from outside well
    // within its 3 s of patience: both are a player's close.
    xdotool(&x.display, &["key", "ctrl+q"]);
    xdotool(&x.display, &["windowclose", &host.window]);
    let (join_code, join_out, join_err) = ended(&mut join, Duration::from_secs(20));
    let (host_code, host_out, host_err) = ended(&mut host, Duration::from_secs(20));
    assert_eq!(join_code, Some(0), "{join_out:?} {join_err:?}");
    assert_eq!(host_code, Some(0), "{host_out:?} {host_err:?}");
    for out in [&host_out, &join_out] {
        assert!(
            out.iter().any(|l| l.starts_with("recorded ")),
            "no recording said written: {out:?}"
        );
    }

    let a = Replay::load(&host_file).expect("the host's recording");
    let b = Replay::load(&join_file).expect("the joiner's recording");
    let w = Replay::load(&watch_file).expect("the spectator's recording");
    let shared = a.ticks().min(b.ticks());
    assert!(shared > 60, "only {shared} updates shared");
    let inputs = |r: &Replay| {
        r.recording()
            .iter()
            .take(shared as usize)
            .collect::<Vec<_>>()
    };
    let (ia, ib) = (inputs(&a), inputs(&b));
    assert!(ia == ib, "the two recordings' input differs");
    // The spectator left first: it shares fewer updates, the same input in each.
    let watched = w.ticks().min(shared);
    assert!(watched > 60, "the spectator played only {watched} updates");
    assert!(
        inputs(&w)[..watched as usize] == ia[..watched as usize],
        "the spectator's input differs from the players'"
    );
    // Each player's press reached both runs, as that player's.
    let pressed = |player: usize| ia.iter().any(|t| t.buttons[player].pressed != 0);
    assert!(pressed(0), "the host's press is player 1's");
    assert!(pressed(1), "the joiner's press is player 2's");

    for file in [&host_file, &join_file, &watch_file] {
        let mut verify = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"));
        verify.arg("replay").arg("snake").arg(file).arg("--verify");
        let o = support::output_within(&mut verify, Duration::from_secs(60));
        assert!(
            o.status.success(),
            "{}{}",
            support::stdout(&o),
            support::stderr(&o)
        );
    }
}

#[test]
fn a_player_left_alone_is_told_and_the_run_ends_with_its_recording() {
    let Some(x) = x_server() else {
        return;
    };
    let dir = ScratchDir::new("netplay-window-alone");
    let (mut host, mut join) = two_peers(&x, &dir);
    std::thread::sleep(Duration::from_millis(1000));
    xdotool(&x.display, &["windowfocus", "--sync", &join.window]);
    xdotool(&x.display, &["key", "ctrl+q"]);
    let (join_code, _, _) = ended(&mut join, Duration::from_secs(20));
    assert_eq!(join_code, Some(0));
    // The host hears nothing for 3 s, then ends with one line and exit code 1.
    let (code, out, err) = ended(&mut host, Duration::from_secs(20));
    assert_eq!(code, Some(1), "{out:?} {err:?}");
    let said: Vec<&String> = err.iter().filter(|l| l.starts_with("bt: error")).collect();
    assert_eq!(said.len(), 1, "{err:?}");
    assert!(
        said[0].contains("stopped answering (3s without a packet)"),
        "{err:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("recorded ")), "{out:?}");
    Replay::load(&dir.join("host.btr")).expect("the host's recording");
}

#[test]
fn a_joiner_killed_mid_game_leaves_the_host_one_line_and_its_recording() {
    let Some(x) = x_server() else {
        return;
    };
    let dir = ScratchDir::new("netplay-window-killed");
    let (mut host, mut join) = two_peers(&x, &dir);
    std::thread::sleep(Duration::from_millis(1000));
    // SIGKILL: the joiner says nothing on its way out.
    join.child.0.kill().expect("the joiner killed");
    join.child.0.wait().expect("the joiner reaped");
    let (code, out, err) = ended(&mut host, Duration::from_secs(20));
    assert_eq!(code, Some(1), "{out:?} {err:?}");
    let said: Vec<&String> = err.iter().filter(|l| l.starts_with("bt: error")).collect();
    assert_eq!(said.len(), 1, "{err:?}");
    assert!(said[0].contains("stopped answering"), "{err:?}");
    let recorded = Replay::load(&dir.join("host.btr")).expect("the host's recording");
    assert!(recorded.ticks() > 0, "an empty recording");
}

#[test]
fn players_whose_runs_drift_apart_both_stop_naming_the_update_and_keep_their_recordings() {
    let Some(x) = x_server() else {
        return;
    };
    // `drift` moves its ball in render too: each window draws its own number of frames, so
    // the two runs part after the handshake agreed on everything it compares.
    let dir = ScratchDir::new("netplay-window-drift");
    let port = free_udp_port().to_string();
    let address = format!("127.0.0.1:{port}");
    let (host_file, join_file) = (dir.join("host.btr"), dir.join("join.btr"));
    let command = peer_of(
        "drift",
        &x,
        &dir.join("host"),
        &["--host", &port],
        &host_file,
    );
    let mut host = Running::start(&x, command, "drift");
    let command = peer_of(
        "drift",
        &x,
        &dir.join("join"),
        &["--join", &address],
        &join_file,
    );
    let mut join = Running::start(&x, command, "drift");
    for (run, file) in [(&mut host, &host_file), (&mut join, &join_file)] {
        let (code, out, err) = ended(run, Duration::from_secs(20));
        assert_eq!(code, Some(1), "{out:?} {err:?}");
        let said: Vec<&String> = err.iter().filter(|l| l.starts_with("bt: error")).collect();
        assert_eq!(said.len(), 1, "{err:?}");
        assert!(
            said[0].contains("and this one differ after update "),
            "{err:?}"
        );
        assert!(out.iter().any(|l| l.starts_with("recorded ")), "{out:?}");
        Replay::load(file).expect("the recording of a run that parted");
    }
}

#[test]
fn three_windows_take_their_seats_in_order_of_arrival_and_record_the_same_input() {
    let Some(x) = x_server() else {
        return;
    };
    let dir = ScratchDir::new("netplay-window-three");
    let port = free_udp_port().to_string();
    let address = format!("127.0.0.1:{port}");
    let files = ["host", "first", "second"].map(|name| dir.join(format!("{name}.btr")));
    let flags: [&[&str]; 3] = [
        &["--host", &port, "--players", "3"],
        &["--join", &address],
        &["--join", &address],
    ];
    let mut runs: Vec<Running> = ["host", "first", "second"]
        .iter()
        .zip(flags)
        .zip(&files)
        .map(|((name, flags), file)| {
            let command = peer(&x, &dir.join(name), flags, file);
            Running::start(&x, command, "snake")
        })
        .collect();
    // Long enough for the three to meet and play a while.
    std::thread::sleep(Duration::from_millis(2500));
    // All three close well within one another's 3 s of patience.
    for run in &runs {
        xdotool(&x.display, &["windowclose", &run.window]);
    }
    let mut recordings = Vec::new();
    for (player, (run, file)) in runs.iter_mut().zip(&files).enumerate() {
        let (code, out, err) = ended(run, Duration::from_secs(20));
        assert_eq!(code, Some(0), "{out:?} {err:?}");
        let seat = format!("playing player {} of 3", player + 1);
        assert!(out.contains(&seat), "no {seat:?} in {out:?}");
        recordings.push(Replay::load(file).expect("a recording"));
    }
    let shared = recordings.iter().map(Replay::ticks).min().unwrap();
    assert!(shared > 60, "only {shared} updates shared");
    let inputs = |r: &Replay| {
        r.recording()
            .iter()
            .take(shared as usize)
            .collect::<Vec<_>>()
    };
    assert!(inputs(&recordings[1]) == inputs(&recordings[0]));
    assert!(inputs(&recordings[2]) == inputs(&recordings[0]));
}
