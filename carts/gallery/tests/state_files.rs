//! State files end to end: F3 hands the host's state over as a file, which the window keeps in
//! its captures folder; a session opens on it at its update (what `bt run --state` does), and
//! `bt shot --state` draws its picture. A file of another build, cart or layout is refused in
//! one line naming it.

mod support;

use std::path::Path;
use std::sync::Arc;

use bt::Key;
use bt_runtime::engine::state_build;
use bt_runtime::host::captures::save_numbered;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{
    Destination, FileKind, Host, HostAction, HostEvent, OutFile, SAVE_STATE_KEY,
};
use bt_runtime::session::Session;
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use bt_test_support::ScratchDir;
use support::{bt_command, stderr, stdout};

const FRAME_MS: f64 = 1000.0 / 60.0;

fn snake_host(engine: Engine) -> Host {
    Host::new(engine, KeyMap::default(), "snake")
}

fn snake_engine() -> Engine {
    let cart = bt_gallery::find("snake").unwrap();
    let options = EngineOptions {
        overlay: false,
        seed: Some(5),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(cart.build), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(FRAME_MS).unwrap()));
    engine
}

fn key(host: &mut Host, key: Key, down: bool) -> Option<HostAction> {
    host.handle(HostEvent::Key { key, down })
}

/// Starts a game (Space) and plays `frames` frames with a turn now and then, then pauses
/// (F5) and saves the state (F3): the state's update, its file, and the picture the paused
/// run shows of that update (before F3's notice is drawn over it).
fn saved_state(host: &mut Host, frames: u64) -> (u64, OutFile, Vec<u8>) {
    let turns = [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown];
    for f in 0..frames {
        match f % 40 {
            2 if f < 40 => drop(key(host, Key::Space, true)),
            4 if f < 40 => drop(key(host, Key::Space, false)),
            10 => drop(key(host, turns[(f / 40 % 3) as usize], true)),
            12 => drop(key(host, turns[(f / 40 % 3) as usize], false)),
            _ => {}
        }
        host.frame(f as f64 * FRAME_MS);
    }
    assert_eq!(key(host, Key::F5, true), Some(HostAction::Paused));
    key(host, Key::F5, false);
    let picture = host.engine().display_png(1).unwrap();
    let updates = match key(host, SAVE_STATE_KEY, true) {
        Some(HostAction::StateSaved(updates)) => updates,
        other => panic!("F3 gave {other:?}"),
    };
    key(host, SAVE_STATE_KEY, false);
    let file = state_file(host).expect("F3 made a state file");
    assert!(state_file(host).is_none(), "handed over once");
    (updates, file, picture)
}

/// The state file in the host's outbox, if F3 put one there (the outbox is taken whole).
fn state_file(host: &mut Host) -> Option<OutFile> {
    host.take_outbox()
        .into_iter()
        .find(|f| f.kind == FileKind::State)
}

/// The session `bt run --state` and `bt shot --state` open for the gallery's snake.
fn opened(path: &Path) -> Result<Engine, String> {
    let cart = bt_gallery::find("snake").unwrap();
    Session::builder("snake", Arc::new(cart.build))
        .state(Some(path.to_path_buf()))
        .overlay(false)
        .resolve()
        .and_then(|session| session.engine())
        .map_err(|e| e.to_string())
}

#[test]
fn f3_hands_over_a_state_file_that_opens_paused_at_its_update_with_its_picture() {
    let dir = ScratchDir::new("state-f3");
    let mut host = snake_host(snake_engine());
    let (updates, file, picture) = saved_state(&mut host, 200);
    assert!(updates > 150, "{updates} updates in 200 frames");
    assert_eq!(file.kind, FileKind::State);
    assert_eq!(file.destination, Destination::Keep("snake.btstate".into()));
    // Kept as the window keeps it: numbered beside what is there, never over it.
    std::fs::write(dir.join("snake-0001.btstate"), "mine").unwrap();
    let paths = save_numbered(dir.path(), std::slice::from_ref(&file)).unwrap();
    assert_eq!(paths, [dir.join("snake-0002.btstate")]);
    assert_eq!(
        std::fs::read_to_string(dir.join("snake-0001.btstate")).unwrap(),
        "mine"
    );
    host.kept(&file, &paths[0]);

    let engine = opened(&paths[0]).unwrap();
    assert_eq!(engine.updates_since_init(), updates);
    assert!(engine.is_paused(), "a state opens paused");
    assert_eq!(engine.test_state(), host.engine().test_state());
    assert!(
        engine.display_png(1).unwrap() == picture,
        "the state opens on the picture the run showed"
    );

    // Opened, it is a run like any other: F3 saves it again, as the same run from boot.
    let mut again = snake_host(engine);
    assert_eq!(
        key(&mut again, SAVE_STATE_KEY, true),
        Some(HostAction::StateSaved(updates))
    );
    let second = state_file(&mut again).unwrap();
    assert!(second.bytes == file.bytes, "the same file again");
}

#[test]
fn without_the_run_from_boot_f3_saves_the_state_and_says_why_there_is_no_file() {
    let cart = bt_gallery::find("snake").unwrap();
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(cart.build), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(FRAME_MS).unwrap()));
    let mut host = snake_host(engine);
    let said = bt_test_support::SharedOutput::default();
    host.set_error_output(Box::new(said.clone()));
    for f in 0..20 {
        host.frame(f as f64 * FRAME_MS);
    }
    let saved = key(&mut host, SAVE_STATE_KEY, true);
    assert!(
        matches!(saved, Some(HostAction::StateSaved(_))),
        "{saved:?}"
    );
    assert!(
        state_file(&mut host).is_none(),
        "no file without the run from boot"
    );
    let why = said.text();
    assert!(
        why.contains("state file not made: a state file needs the run's input from boot"),
        "{why}"
    );
}

/// Runs `bt` with `args`, its config and data folders in `dir`.
fn bt_in(dir: &ScratchDir, args: &[&str]) -> std::process::Output {
    bt_command()
        .args(args)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .output()
        .expect("bt runs")
}

/// The one line `bt` printed on stderr for a failure, checked to be one and to name `file`.
#[track_caller]
fn refusal(o: &std::process::Output, file: &Path) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(&file.display().to_string()), "{err}");
    err
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn bt_shot_state_draws_the_saved_picture_in_the_build_that_saved_it_and_refuses_others() {
    let dir = ScratchDir::new("state-shot");
    let mut host = snake_host(snake_engine());
    let (updates, file, picture) = saved_state(&mut host, 200);
    let ours = dir.join("ours.btstate");
    std::fs::write(&ours, &file.bytes).unwrap();
    let png = dir.join("shot.png");

    // This test's program is another build than `bt`'s: refused, naming both builds.
    let o = bt_in(
        &dir,
        &["shot", "snake", "--state", text(&ours), "-o", text(&png)],
    );
    let err = refusal(&o, &ours);
    assert!(
        err.contains(&format!(
            "a state saved by another build ({})",
            state_build()
        )),
        "{err}"
    );
    assert!(!png.exists(), "no picture from a refused state");
    let theirs = err
        .split("; this is ")
        .nth(1)
        .and_then(|rest| rest.split(", which loads only its own").next())
        .unwrap_or_else(|| panic!("no build named in {err}"))
        .to_string();
    assert!(theirs.starts_with("bt-runtime "), "{theirs}");

    // Both programs are built from this source, so `bt`'s build plays the state exactly.
    let json = String::from_utf8(file.bytes.clone()).unwrap();
    let stamped = dir.join("stamped.btstate");
    std::fs::write(&stamped, json.replace(state_build(), &theirs)).unwrap();
    let o = bt_in(
        &dir,
        &["shot", "snake", "--state", text(&stamped), "-o", text(&png)],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("after {updates} updates, seed 5")),
        "{}",
        stdout(&o)
    );
    assert!(
        std::fs::read(&png).unwrap() == picture,
        "bt shot --state draws the picture the run showed at the state"
    );

    // --at counts from boot, from the state on; before it, there is no such picture.
    let before = format!("{}", (updates - 30) as f64 / 60.0);
    let o = bt_in(
        &dir,
        &[
            "shot",
            "snake",
            "--state",
            text(&stamped),
            "--at",
            &before,
            "-o",
            text(&png),
        ],
    );
    let err = refusal(&o, &stamped);
    assert!(
        err.contains(&format!("comes before the state in {}", stamped.display())),
        "{err}"
    );
    let after = format!("{}", (updates + 60) as f64 / 60.0);
    let o = bt_in(
        &dir,
        &[
            "shot",
            "snake",
            "--state",
            text(&stamped),
            "--at",
            &after,
            "-o",
            text(&png),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&format!("after {} updates", updates + 60)));

    // Another cart's run.
    let o = bt_in(
        &dir,
        &["shot", "hello", "--state", text(&stamped), "-o", text(&png)],
    );
    let err = refusal(&o, &stamped);
    assert!(
        err.contains("a state of snake (seed 5") && err.contains("this run is hello"),
        "{err}"
    );

    // What is no state file of this layout.
    let missing = dir.join("missing.btstate");
    let o = bt_in(
        &dir,
        &["shot", "snake", "--state", text(&missing), "-o", text(&png)],
    );
    assert!(refusal(&o, &missing).contains("file not found"));
    let cases = [
        (
            "words.btstate",
            "snake ate itself".to_string(),
            "not a BT state file",
        ),
        (
            "replay.btstate",
            json.replacen("\"bt-state\"", "\"bt-replay\"", 1),
            "not a BT state file (\"format\" is \"bt-replay\"",
        ),
        (
            "later.btstate",
            json.replacen("\"version\":1,", "\"version\":99,", 1),
            "state file version 99",
        ),
    ];
    for (name, contents, said) in cases {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        let o = bt_in(
            &dir,
            &["shot", "snake", "--state", text(&path), "-o", text(&png)],
        );
        let err = refusal(&o, &path);
        assert!(err.contains(said), "{name}: {err}");
    }
}

#[test]
fn a_state_opened_through_a_session_refuses_another_cart_or_build_in_one_line() {
    let dir = ScratchDir::new("state-session");
    let mut host = snake_host(snake_engine());
    let (_, file, _) = saved_state(&mut host, 90);
    let json = String::from_utf8(file.bytes).unwrap();
    let other = dir.join("other-build.btstate");
    std::fs::write(
        &other,
        json.replace(state_build(), "bt-runtime 0.0.0-other"),
    )
    .unwrap();
    let err = opened(&other).unwrap_err();
    assert_eq!(
        err,
        format!(
            "{}: a state saved by another build (bt-runtime 0.0.0-other); this is {}, which \
             loads only its own",
            other.display(),
            state_build()
        )
    );
    let ours = dir.join("ours.btstate");
    std::fs::write(&ours, &json).unwrap();
    let hello = bt_gallery::find("hello").unwrap();
    let err = Session::builder("hello", Arc::new(hello.build))
        .state(Some(ours.clone()))
        .resolve()
        .and_then(|s| s.engine())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&format!("{}: a state of snake (seed 5", ours.display())),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
