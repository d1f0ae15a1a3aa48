//! Save data end to end: `--save FILE` is part of a headless run's input, a recording carries
//! the save data its run booted with so a replay reproduces it, headless commands never write
//! the user's save files, and every bad save file is refused in one line naming it.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use bt_runtime::replay::DEFAULT_HASH_EVERY;
use bt_runtime::{save, ConstantClock, Engine, EngineOptions};
use bt_test_support::ScratchDir;
use support::{bt, bt_command, stderr};

/// A save file holding the platformer's best score `best`.
fn best_file(dir: &ScratchDir, name: &str, best: i32) -> PathBuf {
    let path = dir.join(name);
    save::store(&path, &best.to_le_bytes()).unwrap();
    path
}

fn shot(save: Option<&Path>, out: &Path) -> Output {
    let mut args = vec![
        "shot",
        "platformer",
        "--at",
        "1",
        "-o",
        out.to_str().unwrap(),
    ];
    if let Some(save) = save {
        args.extend(["--save", save.to_str().unwrap()]);
    }
    bt(&args)
}

#[test]
fn the_save_file_a_headless_run_boots_with_changes_what_it_draws() {
    let dir = ScratchDir::new("save-shot");
    let best = best_file(&dir, "best.bin", 4321);
    let empty = best_file(&dir, "empty.bin", 0);
    let (with, without, zero) = (
        dir.join("with.png"),
        dir.join("without.png"),
        dir.join("0.png"),
    );
    for (save, out) in [
        (Some(&best), &with),
        (None, &without),
        (Some(&empty), &zero),
    ] {
        let o = shot(save.map(PathBuf::as_path), out);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert_ne!(read(&with), read(&without), "the best score is on screen");
    assert_eq!(
        read(&zero),
        read(&without),
        "an empty save file is no save data"
    );
    assert_eq!(
        read(&best),
        save::encode(&4321i32.to_le_bytes()),
        "--save is read only"
    );
}

#[test]
fn every_bad_save_file_is_refused_in_one_line_naming_it() {
    let dir = ScratchDir::new("save-bad");
    let good = save::encode(&[1, 2, 3]);
    let mut bent = good.clone();
    bent[13] ^= 1;
    let big = vec![0u8; save::MAX_SAVE_FILE as usize + 1];
    let cases: [(&str, Option<&[u8]>, &str); 5] = [
        ("missing.bin", None, "file not found"),
        (
            "picture.bin",
            Some(b"\x89PNG\r\n\x1a\n"),
            "not a BT save file",
        ),
        (
            "bent.bin",
            Some(&bent),
            "corrupted: the checksum does not match",
        ),
        (
            "cut.bin",
            Some(&good[..good.len() - 2]),
            "corrupted: the file is 17 bytes",
        ),
        (
            "big.bin",
            Some(&big),
            "could not read it: 4113 bytes is over the limit of 4112 bytes",
        ),
    ];
    for (name, bytes, want) in cases {
        let path = dir.join(name);
        if let Some(bytes) = bytes {
            std::fs::write(&path, bytes).unwrap();
        }
        let o = shot(Some(&path), &dir.join("x.png"));
        assert_eq!(o.status.code(), Some(1), "{name}");
        let e = stderr(&o);
        assert!(
            e.contains(want) && e.contains(&format!("save file {}", path.display())),
            "{name}: {e}"
        );
        assert_eq!(e.trim_end().lines().count(), 1, "{name}: {e}");
        if let Some(bytes) = bytes {
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name} is left alone");
        }
    }
    assert!(!dir.join("x.png").exists());
}

#[test]
fn headless_commands_never_touch_the_users_save_files() {
    let dir = ScratchDir::new("save-headless");
    let data = dir.join("data");
    let out = dir.join("x.png");
    let o = bt_command()
        .env("XDG_DATA_HOME", &data)
        .args([
            "shot",
            "platformer",
            "--at",
            "3",
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!data.exists(), "nothing was made under the data folder");
}

#[test]
fn bt_run_refuses_a_damaged_save_file_before_a_window_opens_and_keeps_it() {
    let dir = ScratchDir::new("save-run");
    let data = dir.join("data");
    let file = data.join("bt/platformer/save.bin");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, b"bt-save\x01 not quite").unwrap();
    let o = bt_command()
        .env("XDG_DATA_HOME", &data)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["run", "platformer"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("save file {}: corrupted", file.display()))
            && e.contains("move it aside"),
        "{e}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"bt-save\x01 not quite");
}

/// Records the platformer booting with save data `boot` for five seconds with no input, the
/// way `bt run --record` does, into `path`.
fn record(path: &Path, boot: Vec<u8>) {
    let options = EngineOptions {
        overlay: false,
        assets: Some(bt_cart_platformer::ASSETS.into()),
        save: Some(boot),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(
        Box::new(|| Box::new(bt_cart_platformer::Platformer::default())),
        options,
    )
    .unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    engine.start_recording(DEFAULT_HASH_EVERY);
    engine.advance(300);
    let replay = engine.recording("platformer", None).unwrap();
    replay.save(path).unwrap();
}

#[test]
fn a_replay_carries_the_save_data_its_run_booted_with_and_reproduces_the_run() {
    let dir = ScratchDir::new("save-replay");
    let file = dir.join("best.btr");
    record(&file, 9999i32.to_le_bytes().to_vec());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"version\":2") && text.contains("\"save\":\"0f27\""));

    let file_str = file.to_str().unwrap();
    let o = bt(&["replay", "platformer", file_str, "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Booted with other save data, the same input draws other frames: the hashes catch it.
    let empty = best_file(&dir, "empty.bin", 0);
    let o = bt(&[
        "replay",
        "platformer",
        file_str,
        "--verify",
        "--save",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    // A replay's frames as `--input` draws them, and under every clock of `bt verify`.
    let o = bt(&["verify", "platformer", "--input", file_str, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A run without save data is written in the first layout, which every build reads.
    let plain = dir.join("plain.btr");
    record(&plain, Vec::new());
    let text = std::fs::read_to_string(&plain).unwrap();
    assert!(text.contains("\"version\":1") && !text.contains("\"save\""));
    let o = bt(&["replay", "platformer", plain.to_str().unwrap(), "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `bt run platformer` with its save data under `data`, where no window can open: far enough
/// to take (or not) the save file's lock and say so.
fn run_without_a_window(data: &Path) -> Output {
    bt_command()
        .env("XDG_DATA_HOME", data)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["run", "platformer"])
        .output()
        .unwrap()
}

#[test]
fn a_second_bt_run_of_one_cart_says_its_save_file_is_in_use_and_writes_nothing() {
    let dir = ScratchDir::new("save-lock");
    let data = dir.join("data");
    let file = data.join("bt/platformer/save.bin");
    // As the first window of the cart holds it while it plays.
    let first = save::SaveLock::take(&file).unwrap();
    let o = run_without_a_window(&data);
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "warning: save file {}: in use by another bt run (process {}): this run boots with \
             what it holds and writes no save data",
            file.display(),
            std::process::id()
        )),
        "{e}"
    );

    // The engine the second run builds has no file to write back to.
    let session = |path: &Path| {
        bt_runtime::session::Session::builder(
            "platformer",
            std::sync::Arc::new(|| Box::new(bt_cart_platformer::Platformer::default())),
        )
        .save(bt_runtime::session::BootSave::Player(Some(
            path.to_path_buf(),
        )))
        .resolve()
        .unwrap()
    };
    let second = session(&file);
    assert_eq!(second.save_file(), None);
    assert_eq!(second.warnings().len(), 1, "{:?}", second.warnings());

    // Once the first lets go, the next run is the one that writes.
    drop(first);
    let third = session(&file);
    assert_eq!(third.save_file(), Some(file.as_path()));
    assert!(third.warnings().is_empty(), "{:?}", third.warnings());
    let fourth = session(&file);
    assert_eq!(fourth.save_file(), None, "the third holds it");
    drop((third, fourth));
    assert!(
        !file.with_extension("bin.lock").exists(),
        "let go, and gone"
    );
}

#[test]
fn a_lock_left_by_a_process_that_is_gone_is_taken_over_without_a_word() {
    let dir = ScratchDir::new("save-lock-stale");
    let data = dir.join("data");
    let file = data.join("bt/platformer/save.bin");
    let mut gone = std::process::Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    gone.wait().unwrap();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let lock = file.with_extension("bin.lock");
    std::fs::write(&lock, format!("{}\n", gone.id())).unwrap();
    let o = run_without_a_window(&data);
    let e = stderr(&o);
    assert!(!e.contains("in use"), "{e}");
    assert!(e.contains("cannot open a window"), "{e}");
    assert!(!lock.exists(), "the run took it and let go when it ended");
}

#[cfg(unix)]
#[test]
fn bt_run_refuses_a_save_file_it_could_never_write_before_a_window_opens() {
    let dir = ScratchDir::new("save-unwritable");
    // A link that leads into a folder that is not there: read as no save data, never written.
    let dangling = dir.join("save.bin");
    std::os::unix::fs::symlink(dir.join("nowhere/save.bin"), &dangling).unwrap();
    let mut cases = vec![dangling];
    if cfg!(target_os = "linux") {
        // A folder no file can be made in, whoever runs the test.
        cases.push(PathBuf::from("/proc/bt-save.bin"));
    }
    for file in cases {
        let o = bt_command()
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .args(["run", "platformer", "--mute", "--save"])
            .arg(&file)
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(
            e.contains(&format!("bt: error: save file {}: ", file.display()))
                && e.contains("give --save FILE somewhere that can be written")
                && !e.contains("window"),
            "{e}"
        );
    }
}
