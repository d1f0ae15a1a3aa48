//! `bt run` in a real window: an X server (Xvfb) and no graphics driver (every run is told of a
//! Vulkan driver list that does not exist), real key and mouse events from xdotool, and an F9
//! screenshot to check that the cart saw them. Then what a window
//! system can do to a window: resize it ten times a second, make it wider than a surface may be,
//! destroy it from outside; through all of it the window keeps presenting, paced, and closes
//! cleanly. And what a player changes lasts: save data is written back when Ctrl+Q quits.
//!
//! It needs `Xvfb`, `xauth` and `xdotool` (`.ci/run` installs them). Where they are
//! missing the test says so loudly on stderr and returns; with `BT_REQUIRE_WINDOW_TEST=1` (as in
//! CI) it fails instead. Every wait has a deadline and every child process is killed on the way
//! out, so it cannot hang.

use std::io::{Read, Write as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use bt::{Key, Palette};
use bt_test_support::ScratchDir;
use support::x11::{on_path, start_xvfb, window_id, xdotool, xdotool_within, Killed, Xvfb};
use support::{lines, new_built_cart, wait_for, Running};

mod support;

/// Skips loudly, or fails when the test is required.
fn unavailable(why: &str) {
    bt_test_support::unavailable(
        "the real-window test of `bt run`",
        "BT_REQUIRE_WINDOW_TEST",
        why,
        "Install xvfb, xauth and xdotool (or run .ci/run).",
    );
}

/// How long the real window stays open, in seconds (`--exit-after`).
const RUN_SECONDS: &str = "20";

fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn rgba(index: u8) -> [u8; 4] {
    let mut out = [0u8; 4];
    Palette::pico8().write_rgba(&[index], &mut out);
    out
}

fn pixel(png: &Path, x: i32, y: i32) -> [u8; 4] {
    rgba_of(png).get_pixel(x as u32, y as u32).0
}

/// A fresh X server, when `tools` are installed and it starts; otherwise the test is reported
/// as unavailable (a failure where the window test is required) and `None` comes back.
fn x_server(tools: &[&str]) -> Option<Xvfb> {
    if let Some(tool) = tools.iter().find(|t| !on_path(t)) {
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

#[test]
fn keys_and_mouse_reach_the_cart_in_a_real_window() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window");
    let captures = dir.join("captures");
    let frame_log = dir.join("frames.csv");
    let mut bt = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"));
    // The window closes itself RUN_SECONDS after its first frame. Every step below must be done
    // by then, on a machine that may be busy compiling: keep it generous.
    bt.args([
        "run",
        "keys",
        "--scale",
        "1",
        "--exit-after",
        RUN_SECONDS,
        "--captures",
    ])
    .arg(&captures)
    .arg("--frame-log")
    .arg(&frame_log)
    .env("DISPLAY", &x.display)
    .env_remove("WAYLAND_DISPLAY")
    .env("XDG_RUNTIME_DIR", dir.path())
    // No user key-map file: the defaults apply.
    .env("XDG_CONFIG_HOME", dir.join("config"))
    // The cart's save data, and its lock, away from the user's and from other tests' runs.
    .env("XDG_DATA_HOME", dir.join("data"))
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = bt.spawn().expect("bt starts");
    let out = lines(child.stdout.take().expect("piped"));
    let err = lines(child.stderr.take().expect("piped"));
    let mut child = Killed(child);
    let mut seen = Vec::new();
    let errors = |err: &Receiver<String>| err.try_iter().collect::<Vec<_>>().join("\n");

    let Some(ready) = wait_for(&out, "running keys", Duration::from_secs(60), &mut seen) else {
        let status = child.0.try_wait().ok().flatten();
        panic!(
            "bt run opened no window within 60 s (exit {status:?}); stdout {seen:?}; stderr:\n{}",
            errors(&err)
        );
    };
    let window = window_id(&ready);

    // Focus the window, hold W (player 2's up) and the left mouse button over display pixel
    // (200, 100), then screenshot. At --scale 1 a display pixel is a window pixel.
    xdotool(&x.display, &["windowfocus", "--sync", &window]);
    let (px, py) = (200, 100);
    let (wx, wy) = (px.to_string(), py.to_string());
    xdotool(&x.display, &["mousemove", "--window", &window, &wx, &wy]);
    xdotool(&x.display, &["keydown", "w"]);
    xdotool(&x.display, &["mousedown", "1"]);
    // Longer than the cart's press flash, so the caps show "held".
    pause(800);
    xdotool(&x.display, &["key", "F9"]);
    let saved = wait_for(&out, "saved ", Duration::from_secs(15), &mut seen)
        .unwrap_or_else(|| panic!("no screenshot saved after F9; stdout {seen:?}"));
    xdotool(&x.display, &["keyup", "w"]);
    xdotool(&x.display, &["mouseup", "1"]);
    let png = PathBuf::from(saved.trim_start_matches("saved "));

    let w = bt_cart_keys::key_rect(Key::KeyW).unwrap();
    assert_eq!(
        pixel(&png, w.x + 1, w.y + w.h - 2),
        rgba(bt_cart_keys::HELD),
        "the W cap is lit as held in {}",
        png.display()
    );
    let s = bt_cart_keys::key_rect(Key::KeyS).unwrap();
    assert_eq!(
        pixel(&png, s.x + 1, s.y + s.h - 2),
        rgba(bt_cart_keys::IDLE)
    );
    // Player 2's pad row: W holds "up" (button 0); player 1's: the left mouse button holds
    // pointer A.
    let up = bt_cart_keys::pad_rect(1, 0);
    assert_eq!(
        pixel(&png, up.x + 1, up.y + up.h - 2),
        rgba(bt_cart_keys::HELD)
    );
    let pa = bt_cart_keys::pad_rect(0, 14);
    assert_eq!(
        pixel(&png, pa.x + 1, pa.y + pa.h - 2),
        rgba(bt_cart_keys::HELD),
        "pointer A held"
    );
    // The pointer's cross is drawn where the mouse is, in display pixels.
    assert_eq!(
        pixel(&png, px + 3, py),
        rgba(7),
        "pointer cross at ({px}, {py})"
    );

    // Resize the window: the surface must follow (a stale surface hangs pixels' render), and
    // the frames after it must still present.
    xdotool(&x.display, &["windowsize", &window, "700", "500"]);
    pause(300);
    // Keep the keyboard on the window after the resize, however slowly a loaded machine gets
    // there.
    xdotool(&x.display, &["windowfocus", "--sync", &window]);

    // A tap: pressed and released again, seen by the cart as a press (the cap flashes).
    xdotool(&x.display, &["key", "d"]);
    pause(60);
    xdotool(&x.display, &["key", "F9"]);
    let saved = wait_for(&out, "saved ", Duration::from_secs(15), &mut seen).unwrap_or_else(|| {
        panic!(
            "no second screenshot; stdout {seen:?}; stderr:\n{}",
            errors(&err)
        )
    });
    let png = PathBuf::from(saved.trim_start_matches("saved "));
    let d = bt_cart_keys::key_rect(Key::KeyD).unwrap();
    assert_eq!(
        pixel(&png, d.x + 1, d.y + d.h - 2),
        rgba(bt_cart_keys::PRESSED),
        "the tapped D flashes as pressed in {}",
        png.display()
    );

    // Let --exit-after close the window, then report what it measured.
    let summary = wait_for(&out, "presented ", Duration::from_secs(60), &mut seen);
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.0.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
        pause(50);
    }
    let status = child.0.try_wait().ok().flatten();
    assert!(
        status.is_some_and(|s| s.success()),
        "bt run did not exit cleanly ({status:?}); stderr:\n{}",
        errors(&err)
    );
    let _ = writeln!(
        std::io::stderr(),
        "real window under Xvfb: {}",
        summary.unwrap_or_else(|| "no summary printed".into())
    );
}

#[test]
fn with_no_vulkan_driver_the_pipboy_preset_plays_at_1280x960() {
    let Some(x) = x_server(&["Xvfb"]) else {
        return;
    };
    let dir = ScratchDir::new("window-no-gpu");
    let log = dir.join("frames.csv");
    // `bt_run` points the Vulkan loader at a driver list that does not exist, so no Vulkan
    // driver could be loaded: the window must need none.
    let mut bt = bt_run(&x, &dir);
    bt.args([
        "crt",
        "--arg",
        "scene=pipboy",
        "--scale",
        "4",
        "--exit-after",
        "4",
    ])
    .arg("--frame-log")
    .arg(&log);
    let stderr = Running::start(&x, bt, "crt").expect_clean_exit("--exit-after 4");
    let log = presents(&log);
    assert!(
        log.len() >= 30,
        "{} frames presented in 4 s; stderr:\n{stderr}",
        log.len()
    );
    assert!(
        log.iter().all(|p| p.size == (1280, 960)),
        "every frame at 1280x960"
    );
    // The rate over the last two seconds, for the docs (not asserted: the machine may be busy).
    let last = log.last().map_or(0.0, |p| p.at_ms);
    let recent = log.iter().filter(|p| p.at_ms > last - 2000.0).count();
    let _ = writeln!(
        std::io::stderr(),
        "PipBoy at 1280x960 with no GPU driver: {} frames, {:.1} a second over the last 2 s",
        log.len(),
        recent as f64 / 2.0
    );
}

fn save(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("saving");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn a_new_cart_plays_in_a_window_and_shows_a_sprite_drawn_in_the_sprite_editor() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-new-cart");
    let (cart, binary) = new_built_cart(&dir, "robots");

    let mut bt = run_in_window(&binary, &x, &dir);
    bt.args(["--scale", "1", "--exit-after", RUN_SECONDS, "--captures"])
        .arg(dir.join("captures"));
    let run = Running::start(&x, bt, "robots");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    let mut seen = Vec::new();
    let mut shot = |what: &str| {
        run.xdotool(&["windowfocus", "--sync", &run.window]);
        run.xdotool(&["key", "F9"]);
        let saved = wait_for(&run.out, "saved ", Duration::from_secs(15), &mut seen)
            .unwrap_or_else(|| panic!("no screenshot ({what}); stdout {seen:?}"));
        PathBuf::from(saved.trim_start_matches("saved "))
    };
    // The robot stands in the middle of the 240x160 display; its top row is light blue.
    let robot = (122, 80);
    let first = shot("at start");
    assert_eq!(pixel(&first, robot.0, robot.1), [0x29, 0xad, 0xff, 255]);

    // With the game still running, the cart's own sprite editor opens its sheet: colour 8
    // (red) chosen with ] from colour 1, a click on the robot's top row, Ctrl+S.
    let sheet_path = cart.join("assets/sprites.png");
    let mut edit = in_window(&binary, "sprite-edit", &x, &dir);
    edit.args(["--scale", "1", "--mute", "--exit-after", RUN_SECONDS]);
    let editor = Running::start(&x, edit, "sprite-edit");
    editor.xdotool(&["windowfocus", "--sync", &editor.window]);
    let mut keys = vec!["key", "--delay", "60"];
    keys.extend(["bracketright"; 7]);
    editor.xdotool(&keys);
    use bt_runtime::sprite_edit::layout::CANVAS;
    // The first sprite fills the canvas: sheet pixel (2, 0) is the robot's top row.
    let zoom = CANVAS.w / 8;
    let (px, py) = (CANVAS.x + 2 * zoom + zoom / 2, CANVAS.y + zoom / 2);
    editor.xdotool(&[
        "mousemove",
        "--window",
        &editor.window,
        &px.to_string(),
        &py.to_string(),
    ]);
    pause(200);
    editor.xdotool(&["click", "1"]);
    pause(200);
    editor.xdotool(&["key", "ctrl+s"]);
    let mut said = Vec::new();
    let wrote = wait_for(&editor.out, "wrote ", Duration::from_secs(15), &mut said);
    assert!(wrote.is_some(), "the editor saved nothing; stdout {said:?}");
    let saved = image::open(&sheet_path).unwrap().to_rgba8();
    assert_eq!(
        saved.get_pixel(2, 0).0,
        [0xff, 0x00, 0x4d, 255],
        "the sheet holds the red pixel drawn"
    );
    drop(editor);

    // The running game picks the save up on its own (its asset folder is watched).
    pause(1500);
    let second = shot("after the editor's save");
    assert_eq!(
        pixel(&second, robot.0, robot.1),
        [0xff, 0x00, 0x4d, 255],
        "the new sprite is drawn in {}",
        second.display()
    );

    // A broken file: a notice across the top, and the last good sheet stays.
    save(&sheet_path, b"not a png at all");
    pause(1500);
    let third = shot("after a broken save");
    assert_eq!(pixel(&third, robot.0, robot.1), [0xff, 0x00, 0x4d, 255]);
    // The notice bar across the top: red in the margin before the text (a pixel further right
    // may fall on a letter of the message, which names the file, scratch folder and all) ...
    assert_eq!(
        pixel(&third, 3, 6),
        rgba(8),
        "the reload error shows across the top in {}",
        third.display()
    );
    // ... with the message written on it in the overlay's text colour.
    let top = image::open(&third).unwrap().to_rgba8();
    assert!(
        (0..top.width()).any(|x| (0..13).any(|y| top.get_pixel(x, y).0 == rgba(7))),
        "the reload error's text on the bar in {}",
        third.display()
    );
    // In full on stderr: the file as the cart names it (every asset error does) and the reason.
    let mut errs = Vec::new();
    let line = wait_for(&run.err, "bt: reload: ", Duration::from_secs(15), &mut errs)
        .unwrap_or_else(|| panic!("no reload error on stderr: {errs:?}"));
    let name = sheet_path.file_name().unwrap().to_string_lossy();
    assert!(
        line.contains(&format!("{name}: not a PNG image")),
        "the file and the reason in {line:?}"
    );
    drop(run);
}

#[test]
fn p_opens_the_pause_menu_and_ctrl_q_quits_the_window() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-menu");
    let mut bt = bt_run(&x, &dir);
    bt.args(["hello", "--exit-after", "300"]);
    let run = Running::start(&x, bt, "hello");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    let mut seen = Vec::new();
    run.xdotool(&["key", "p"]);
    wait_for(
        &run.out,
        "paused: the menu is open",
        Duration::from_secs(15),
        &mut seen,
    )
    .unwrap_or_else(|| panic!("P opened no menu; stdout {seen:?}"));
    run.xdotool(&["key", "Escape"]);
    wait_for(&run.out, "resumed", Duration::from_secs(15), &mut seen)
        .unwrap_or_else(|| panic!("Escape did not close the menu; stdout {seen:?}"));
    run.xdotool(&["key", "ctrl+q"]);
    run.expect_clean_exit("Ctrl+Q");
}

#[test]
fn save_data_a_window_run_changes_is_written_back_when_ctrl_q_quits() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-save");
    // Where `bt run` keeps the cart's save data: $XDG_DATA_HOME/bt/<cart>/save.bin. It boots
    // with a count of 10 there.
    let data = dir.join("data");
    let file = data.join("bt/tally/save.bin");
    bt_runtime::save::store(&file, &10i32.to_le_bytes()).unwrap();
    let mut bt = bt_run(&x, &dir);
    bt.args(["tally", "--exit-after", "300"])
        .env("XDG_DATA_HOME", &data);
    let run = Running::start(&x, bt, "tally");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    // Three taps of Z, player 1's A, each a press the cart counts, then Ctrl+Q. Past the first
    // second the first tap is written at once; the other two come within the second after it,
    // before a write is due again, so only the write as the window closes keeps them.
    pause(1200);
    for _ in 0..3 {
        run.xdotool(&["key", "z"]);
        pause(80);
    }
    run.xdotool(&["key", "ctrl+q"]);
    let stderr = run.expect_clean_exit("Ctrl+Q");
    // 10 + 3 in slot 0, the rest of the block zeros, in the save file's format.
    let expected = bt_runtime::save::encode(&13i32.to_le_bytes());
    let written = std::fs::read(&file)
        .unwrap_or_else(|e| panic!("{}: {e}; stderr:\n{stderr}", file.display()));
    assert_eq!(
        written,
        expected,
        "{} holds {:?}; stderr:\n{stderr}",
        file.display(),
        bt_runtime::save::decode(&written, &file)
    );
    // Written through a temporary file and a rename: nothing else is left beside it.
    let beside: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["save.bin"], "{beside:?}");
}

#[test]
fn a_second_window_of_a_cart_plays_without_writing_over_what_the_first_saves() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-save-lock");
    let data = dir.join("data");
    let file = data.join("bt/tally/save.bin");
    bt_runtime::save::store(&file, &10i32.to_le_bytes()).unwrap();
    let start = || {
        let mut bt = bt_run(&x, &dir);
        bt.args(["tally", "--exit-after", "300"])
            .env("XDG_DATA_HOME", &data);
        Running::start(&x, bt, "tally")
    };
    let taps = |run: &Running, n: usize| {
        run.xdotool(&["windowfocus", "--sync", &run.window]);
        pause(1200);
        for _ in 0..n {
            run.xdotool(&["key", "z"]);
            pause(80);
        }
    };
    let first = start();
    let holder = first.child.0.id();
    let second = start();
    // The second counts three taps over the 10 it booted with, and closes first: before, its
    // 13 was written, and then replaced by the first's 11 (or the other way round).
    taps(&second, 3);
    second.xdotool(&["key", "ctrl+q"]);
    let said = second.expect_clean_exit("Ctrl+Q in the second window");
    assert!(
        said.contains(&format!(
            "save file {}: in use by another bt run (process {holder})",
            file.display()
        )),
        "{said}"
    );
    let held = || std::fs::read(&file).unwrap();
    let holding = |n: i32| bt_runtime::save::encode(&n.to_le_bytes());
    assert_eq!(held(), holding(10), "the second wrote nothing");
    taps(&first, 1);
    first.xdotool(&["key", "ctrl+q"]);
    first.expect_clean_exit("Ctrl+Q in the first window");
    assert_eq!(held(), holding(11), "the first wrote its own");
    assert!(!file.with_extension("bin.lock").exists());
}

#[test]
fn holding_f1_rewinds_a_recorded_window_run_and_the_recording_verifies() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-rewind");
    let path = dir.join("rewound.btr");
    let mut bt = bt_run(&x, &dir);
    bt.args([
        "snake",
        "--record",
        path.to_str().unwrap(),
        "--exit-after",
        "300",
    ]);
    let run = Running::start(&x, bt, "snake");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    pause(4000);
    run.xdotool(&["keydown", "F1"]);
    pause(3000);
    run.xdotool(&["keyup", "F1"]);
    let mut seen = Vec::new();
    let line = wait_for(
        &run.out,
        "rewound to update",
        Duration::from_secs(15),
        &mut seen,
    )
    .unwrap_or_else(|| panic!("F1 rewound nothing; stdout {seen:?}"));
    let landed: u64 = line
        .rsplit(' ')
        .next()
        .and_then(|u| u.parse().ok())
        .unwrap_or_else(|| panic!("no update in {line:?}"));
    pause(1000);
    run.xdotool(&["key", "ctrl+q"]);
    let stderr = run.expect_clean_exit("Ctrl+Q");
    let replay = bt_runtime::replay::Replay::load(&path)
        .unwrap_or_else(|e| panic!("{e}; stderr:\n{stderr}"));
    // Four seconds played; three seconds held go back seven (1x, 2x, 4x), to the snapshot
    // after init; one more second played. Unrewound, the recording would hold five seconds.
    assert!(
        landed < 64,
        "three seconds held went back to update {landed}"
    );
    assert!(replay.ticks() > landed, "{} after {landed}", replay.ticks());
    assert!(
        replay.ticks() < 200,
        "the recording kept the rewound stretch: {} updates",
        replay.ticks()
    );
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

/// `bt run` under the X server `x`, with scratch folders in `dir` for its runtime folder and
/// settings, and both output streams piped.
fn bt_run(x: &Xvfb, dir: &ScratchDir) -> Command {
    run_in_window(Path::new(env!("CARGO_BIN_EXE_bt-test-carts")), x, dir)
}

/// `binary run` (`bt`, or a cart crate's own binary) under the X server `x`, as [`bt_run`].
fn run_in_window(binary: &Path, x: &Xvfb, dir: &ScratchDir) -> Command {
    in_window(binary, "run", x, dir)
}

/// `binary COMMAND` under the X server `x`, as [`bt_run`].
fn in_window(binary: &Path, command: &str, x: &Xvfb, dir: &ScratchDir) -> Command {
    let mut bt = Command::new(binary);
    bt.arg(command)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", dir.path())
        .env("XDG_CONFIG_HOME", dir.join("config"))
        // No Vulkan driver can be found: the window presents on the CPU and needs none.
        .env("VK_ICD_FILENAMES", dir.join("no-vulkan-driver.json"))
        .env("VK_DRIVER_FILES", dir.join("no-vulkan-driver.json"))
        // The cart's save data, and its lock, away from the user's and from other tests' runs.
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    bt
}

impl Running {
    /// Runs xdotool on this window's display.
    fn xdotool(&self, args: &[&str]) {
        xdotool(&self.display, args);
    }

    /// Checks that `bt` is still running, after `what`.
    fn assert_running(&mut self, what: &str) {
        if let Some(status) = self.child.0.try_wait().expect("status") {
            let stderr = self.err.try_iter().collect::<Vec<_>>().join("\n");
            panic!("bt run ended ({status}) after {what}; stderr:\n{stderr}");
        }
    }

    /// Waits up to `limit` for the process to end.
    fn exit_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.0.try_wait().expect("status") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            pause(20);
        }
    }

    /// Closes the window as a player does (the window manager's close) and checks that `bt`
    /// exits with 0, without a panic, within 30 s. Returns its stderr.
    fn close(self) -> String {
        let id = self.window.parse().expect("an X11 window id");
        request_close(&self.display, id);
        self.expect_clean_exit("the window was asked to close")
    }

    /// Checks that `bt` exits with 0, without a panic, within 30 s. Returns its stderr.
    fn expect_clean_exit(mut self, after: &str) -> String {
        let status = self.exit_within(Duration::from_secs(30));
        // Once the process is gone its stderr closes: collect all of it.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut stderr = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.err.recv_timeout(left) {
                Ok(line) => stderr.push(line),
                Err(_) => break,
            }
        }
        let stderr = stderr.join("\n");
        assert!(
            status.is_some_and(|s| s.success()),
            "after {after}, bt run did not exit with 0 within 30 s ({status:?}); stdout {:?}; \
             stderr:\n{stderr}",
            self.out.try_iter().collect::<Vec<_>>()
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr
    }
}

/// A connection to the X server of `display`, set up (little-endian, protocol 11.0, no
/// authorisation: Xvfb asks none here), whose reads give up after `patience`.
fn x_connection(display: &str, patience: Duration) -> UnixStream {
    let number = display
        .trim_start_matches(':')
        .split('.')
        .next()
        .unwrap_or_default();
    let mut x = UnixStream::connect(format!("/tmp/.X11-unix/X{number}"))
        .unwrap_or_else(|e| panic!("cannot connect to the X server {display}: {e}"));
    x.set_read_timeout(Some(patience)).unwrap();
    x.write_all(&[b'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        .unwrap();
    let mut head = [0u8; 8];
    x.read_exact(&mut head).unwrap();
    assert_eq!(head[0], 1, "the X server refused the connection");
    let mut rest = vec![0u8; usize::from(u16::from_le_bytes([head[6], head[7]])) * 4];
    x.read_exact(&mut rest).unwrap();
    x
}

/// Asks `window` to close as a window manager's close button does: a `WM_DELETE_WINDOW`
/// message. Sent in the X11 protocol itself: this xdotool has no command for it, and Xvfb runs
/// no window manager.
fn request_close(display: &str, window: u32) {
    let mut x = x_connection(display, Duration::from_secs(10));
    let protocols = intern_atom(&mut x, "WM_PROTOCOLS");
    let delete = intern_atom(&mut x, "WM_DELETE_WINDOW");
    // SendEvent (opcode 25, 11 words) to the window's own client, no event mask...
    let mut request = vec![25u8, 0];
    request.extend(11u16.to_le_bytes());
    request.extend(window.to_le_bytes());
    request.extend(0u32.to_le_bytes());
    // ... of a ClientMessage (33) with 32-bit data: WM_DELETE_WINDOW at CurrentTime (0).
    request.extend([33u8, 32, 0, 0]);
    request.extend(window.to_le_bytes());
    request.extend(protocols.to_le_bytes());
    for word in [delete, 0, 0, 0, 0] {
        request.extend(word.to_le_bytes());
    }
    x.write_all(&request).unwrap();
    // GetInputFocus (43): its reply comes after any error the SendEvent raised.
    x.write_all(&[43, 0, 1, 0]).unwrap();
    let mut reply = [0u8; 32];
    x.read_exact(&mut reply).unwrap();
    assert_eq!(
        reply[0], 1,
        "the X server rejected the close message: {reply:?}"
    );
}

/// The X11 atom called `name` (InternAtom, opcode 16).
fn intern_atom(x: &mut UnixStream, name: &str) -> u32 {
    let pad = (4 - name.len() % 4) % 4;
    let mut request = vec![16u8, 0];
    request.extend((((8 + name.len() + pad) / 4) as u16).to_le_bytes());
    request.extend((name.len() as u16).to_le_bytes());
    request.extend([0, 0]);
    request.extend(name.as_bytes());
    request.extend(std::iter::repeat_n(0u8, pad));
    x.write_all(&request).unwrap();
    let mut reply = [0u8; 32];
    x.read_exact(&mut reply).unwrap();
    assert_eq!(reply[0], 1, "InternAtom {name} failed: {reply:?}");
    u32::from_le_bytes([reply[8], reply[9], reply[10], reply[11]])
}

/// One row of a `--frame-log` file: when the frame was presented (ms since the window
/// opened) and the window size it was presented for.
struct Present {
    at_ms: f64,
    size: (u32, u32),
}

/// The presents in a `--frame-log` file. Each says the window size it was presented for, so a
/// test tells which presents came while the window had a size by the size, not by its own
/// clock.
fn presents(log: &Path) -> Vec<Present> {
    let csv = std::fs::read_to_string(log)
        .unwrap_or_else(|e| panic!("no frame log at {}: {e}", log.display()));
    assert!(
        csv.starts_with("frame,present_ms,interval_ms,updates,ticks,width,height\n"),
        "{csv}"
    );
    csv.lines()
        .skip(1)
        .map(|row| {
            let cell = |i: usize| row.split(',').nth(i).unwrap_or_default();
            let whole = |i: usize| -> u32 {
                cell(i)
                    .parse()
                    .unwrap_or_else(|_| panic!("a bad frame-log row {row:?}"))
            };
            Present {
                at_ms: cell(1)
                    .parse()
                    .unwrap_or_else(|_| panic!("a bad frame-log row {row:?}")),
                size: (whole(5), whole(6)),
            }
        })
        .collect()
}

/// The most presents in any one second of `times` (sorted, in ms).
fn most_in_a_second(times: &[f64]) -> usize {
    times
        .iter()
        .enumerate()
        .map(|(i, &t)| times[i..].partition_point(|&u| u < t + 1000.0))
        .max()
        .unwrap_or(0)
}

/// How long the window is resized for in each trial of the storm, how often, and how many
/// trials (a fresh `bt run` each): before the window learnt to skip a frame it could not
/// present, 3 s of this wedged it in 4 trials of 5.
const STORM: Duration = Duration::from_secs(3);
const STORM_RESIZES_PER_SECOND: u32 = 10;
const STORM_TRIALS: u64 = 5;

/// Xvfb's monitor reports 60 Hz: with vsync on, presents stay at most once per refresh, by the
/// window's own timestamps (a busy machine only makes them rarer). The margin is for a present
/// that waited behind a slow one and followed it closely.
const MAX_PRESENTS_PER_SECOND: usize = 60 + 6;

#[test]
fn a_resize_storm_never_wedges_the_window_and_presents_stay_paced() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    for trial in 0..STORM_TRIALS {
        let dir = ScratchDir::new("window-storm");
        let log = dir.join("frames.csv");
        let mut bt = bt_run(&x, &dir);
        bt.args(["hello", "--exit-after", "300", "--captures"])
            .arg(dir.join("captures"))
            .arg("--frame-log")
            .arg(&log);
        let bt = Running::start(&x, bt, "hello");

        // Random sizes from a seeded generator (xorshift), so a failing trial can be replayed.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ (trial + 1);
        let mut next = |lo: u64, hi: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (lo + seed % (hi - lo + 1)).to_string()
        };
        let resizes = STORM.as_secs() as u32 * STORM_RESIZES_PER_SECOND;
        let gap = format!("{}", 1.0 / f64::from(STORM_RESIZES_PER_SECOND));
        let mut script: Vec<String> = Vec::new();
        let mut sizes: Vec<(u32, u32)> = Vec::new();
        for _ in 0..resizes {
            let (w, h) = (next(200, 1000), next(150, 800));
            sizes.push((w.parse().unwrap(), h.parse().unwrap()));
            script.extend(["windowsize".into(), bt.window.clone(), w, h]);
            script.extend(["sleep".into(), gap.clone()]);
        }
        let script: Vec<&str> = script.iter().map(String::as_str).collect();
        let storm_began = Instant::now();
        xdotool_within(&x.display, &script, Duration::from_secs(60));
        let storm_s = storm_began.elapsed().as_secs_f64();
        // A size no storm makes marks what the window presents after it.
        const AFTER: (u32, u32) = (1200, 900);
        bt.xdotool(&["windowsize", &bt.window, "1200", "900"]);
        pause(1000);

        // Keys still reach the cart: F9 saves a screenshot.
        bt.xdotool(&["windowfocus", "--sync", &bt.window]);
        bt.xdotool(&["key", "F9"]);
        let mut seen = Vec::new();
        assert!(
            wait_for(&bt.out, "saved ", Duration::from_secs(20), &mut seen).is_some(),
            "trial {trial}: F9 saved nothing after the storm; stdout {seen:?}"
        );
        let stderr = bt.close();

        let log = presents(&log);
        // By the sizes presented for: the window opened at 640x480, which may be a storm's
        // size too, so presents of that size count only once another size was seen.
        let first_resized = log.iter().position(|p| p.size != (640, 480));
        let in_storm = first_resized.map_or(0, |i| {
            log[i..].iter().filter(|p| sizes.contains(&p.size)).count()
        });
        let after_storm = log.iter().filter(|p| p.size == AFTER).count();
        // Presents, not rates: a busy machine presents less often, but a wedged window
        // presents nothing once the storm begins.
        assert!(
            in_storm > 0,
            "trial {trial}: no present during the {storm_s:.1} s storm; stderr:\n{stderr}"
        );
        assert!(
            after_storm > 0,
            "trial {trial}: no present after the storm; stderr:\n{stderr}"
        );
        let times: Vec<f64> = log.iter().map(|p| p.at_ms).collect();
        let most = most_in_a_second(&times);
        assert!(
            most <= MAX_PRESENTS_PER_SECOND,
            "trial {trial}: {most} presents in one second, more than one per refresh"
        );
        let _ = writeln!(
            std::io::stderr(),
            "storm trial {trial}: {in_storm} presents in {storm_s:.1} s of resizes, \
             {after_storm} in the second after, at most {most} in any second"
        );
    }
}

#[test]
fn a_window_destroyed_from_outside_ends_the_run_cleanly() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-destroyed");
    let mut bt = bt_run(&x, &dir);
    bt.args(["hello", "--exit-after", "300"]);
    let bt = Running::start(&x, bt, "hello");
    pause(300);
    bt.xdotool(&["windowclose", &bt.window]);
    bt.expect_clean_exit("xdotool windowclose");
}

#[test]
fn a_window_wider_than_a_surface_may_be_keeps_presenting() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-huge");
    let log = dir.join("frames.csv");
    let mut bt = bt_run(&x, &dir);
    bt.args(["hello", "--exit-after", "300", "--frame-log"])
        .arg(&log);
    let mut bt = Running::start(&x, bt, "hello");
    pause(300);
    // Wider than the largest surface BT presents (16384 pixels a side): the surface is clamped.
    bt.xdotool(&["windowsize", &bt.window, "20000", "300"]);
    pause(1500);
    bt.assert_running("a resize to 20000x300");
    bt.xdotool(&["windowsize", &bt.window, "640", "480"]);
    pause(1000);
    let stderr = bt.close();

    // Which presents came while the window was wide, and which after, by the size each was
    // presented for.
    let log = presents(&log);
    let is_wide = |p: &Present| p.size.0 > 16384;
    let wide = log.iter().filter(|p| is_wide(p)).count();
    let back = log.iter().rposition(is_wide).map_or(0, |last| {
        log[last..].iter().filter(|p| p.size == (640, 480)).count()
    });
    assert!(wide >= 2, "{wide} presents while wider than 16384 px");
    assert!(back >= 2, "{back} presents once back to 640x480");
    assert!(
        !stderr.to_lowercase().contains("error"),
        "an error on stderr:\n{stderr}"
    );
}

#[test]
fn a_plain_x11_session_without_a_runtime_dir_prints_no_error() {
    let Some(x) = x_server(&["Xvfb"]) else {
        return;
    };
    let dir = ScratchDir::new("window-no-runtime-dir");
    let mut bt = bt_run(&x, &dir);
    bt.args(["hello", "--exit-after", "1"]);
    // As on a bare X server or a CI job: no runtime folder, no Wayland, no GPU choice.
    for var in [
        "XDG_RUNTIME_DIR",
        "WAYLAND_SOCKET",
        "NODEVICE_SELECT",
        "MESA_VK_DEVICE_SELECT",
        "DRI_PRIME",
    ] {
        bt.env_remove(var);
    }
    let stderr = Running::start(&x, bt, "hello").expect_clean_exit("--exit-after 1");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.to_lowercase().contains("error"))
        .collect();
    assert!(errors.is_empty(), "error lines on stderr: {errors:?}");
}

#[test]
fn a_cart_that_panics_keeps_its_window_open_with_the_panic_on_screen() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-panic");
    // The cart panics in the update at tick 30, half a second in; the window stays open until
    // --exit-after closes it, and bt then fails with the panic.
    let mut bt = bt_run(&x, &dir);
    bt.args(["panic", "--arg", "panic_at=30", "--scale", "1"])
        .args(["--exit-after", "6", "--captures"])
        .arg(dir.join("captures"));
    let mut run = Running::start(&x, bt, "panic");
    pause(1500);
    run.assert_running("the cart panicked");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    run.xdotool(&["key", "F9"]);
    let mut seen = Vec::new();
    let saved = wait_for(&run.out, "saved ", Duration::from_secs(15), &mut seen)
        .unwrap_or_else(|| panic!("no screenshot; stdout {seen:?}"));
    let png = PathBuf::from(saved.trim_start_matches("saved "));
    assert_eq!(
        pixel(&png, 3, 6),
        rgba(8),
        "the panic shows across the top in {}",
        png.display()
    );
    let status = run
        .exit_within(Duration::from_secs(30))
        .expect("--exit-after closes it");
    pause(100);
    let stderr = run.err.try_iter().collect::<Vec<_>>().join("\n");
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "bt: error: cart panicked in update at tick 30: asked to panic in update at tick 30"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked at"), "{stderr}");
}

/// A `bt` command (not in a window) that must succeed; returns its stdout.
fn bt_ok(args: &[&str]) -> String {
    let o = support::bt(args);
    assert!(o.status.success(), "bt {args:?}: {}", support::stderr(&o));
    support::stdout(&o)
}

/// The picture of a PNG file as RGBA rows.
fn rgba_of(png: &Path) -> image::RgbaImage {
    image::open(png)
        .unwrap_or_else(|e| panic!("{}: {e}", png.display()))
        .to_rgba8()
}

#[test]
fn a_recorded_window_run_replays_to_the_screenshot_it_took_and_f10_saves_its_gif() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-record");
    let record = dir.join("run.btr");
    let captures = dir.join("captures");
    let mut bt = bt_run(&x, &dir);
    bt.args([
        "snake",
        "--scale",
        "2",
        "--exit-after",
        "120",
        "--gif-buffer",
        "--record",
    ])
    .arg(&record)
    .arg("--captures")
    .arg(&captures);
    let mut run = Running::start(&x, bt, "snake");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    let mut seen = Vec::new();
    let mut expect = |run: &Running, prefix: &str| {
        wait_for(&run.out, prefix, Duration::from_secs(20), &mut seen)
            .unwrap_or_else(|| panic!("no line starting {prefix:?}; stdout {seen:?}"))
    };

    // F10 starts a GIF; a few turns over a couple of seconds; F5 pauses; F9 takes a
    // screenshot of the paused frame; F10 stops and saves the GIF.
    run.xdotool(&["key", "F10"]);
    expect(&run, "recording a GIF");
    // Space starts a round (the demo snake steers itself), then the arrows steer.
    run.xdotool(&["key", "space"]);
    for arrow in ["Down", "Left", "Up", "Right", "Down"] {
        pause(400);
        run.xdotool(&["key", arrow]);
    }
    pause(300);
    run.xdotool(&["key", "F5"]);
    let paused = expect(&run, "paused at tick ");
    // "paused at tick T, after U updates (...)"
    let updates: u64 = paused
        .split(", after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no update count in {paused:?}"));
    assert!(updates > 60, "{paused}");
    run.xdotool(&["key", "F9"]);
    let png = PathBuf::from(expect(&run, "saved ").trim_start_matches("saved "));
    assert_eq!(png.extension().and_then(|e| e.to_str()), Some("png"));
    run.xdotool(&["key", "F10"]);
    let gif = PathBuf::from(expect(&run, "saved ").trim_start_matches("saved "));
    assert_eq!(gif, captures.join("snake-0001.gif"));
    // Shift+F10 saves the buffer: everything shown since the window opened, under 10 s.
    run.xdotool(&["key", "shift+F10"]);
    let buffer = PathBuf::from(expect(&run, "saved ").trim_start_matches("saved "));
    assert_eq!(buffer, captures.join("snake-0002.gif"));
    run.assert_running("F5, F9, F10 and Shift+F10");
    run.close();

    // The recording reproduces the run.
    let path = record.to_str().unwrap();
    let verified = bt_ok(&["replay", "snake", path, "--verify"]);
    assert!(verified.contains("frame hashes match"), "{verified}");

    // The frame `bt shot` renders after the same number of updates is the screenshot, but
    // for one corner. Snake draws nothing from `render_alpha`, and the paused window drew its
    // frame with alpha 0, as a seek does. The window's overlay is hidden but still marks its
    // toggle corner (a click there shows it) at the bottom left; `bt shot` without --overlay
    // has no overlay at all. Every other pixel must be the same.
    let at = (updates as f64 / 60.0).to_string();
    let shot = dir.join("shot.png");
    bt_ok(&[
        "shot",
        "snake",
        "--input",
        path,
        "--at",
        &at,
        "-o",
        shot.to_str().unwrap(),
    ]);
    let (from_replay, from_window) = (rgba_of(&shot), rgba_of(&png));
    assert_eq!(from_replay.dimensions(), from_window.dimensions());
    let height = from_window.height() as i32;
    let mut differ = 0;
    for (x, y, p) in from_window.enumerate_pixels() {
        let corner = bt_overlay::Overlay::hits_toggle(x as i32, y as i32, height);
        if !corner && *from_replay.get_pixel(x, y) != *p {
            differ += 1;
        }
    }
    assert_eq!(
        differ,
        0,
        "pixels of `bt shot --input --at {at}` ({updates} updates) differ from the F9 \
         screenshot {} outside the overlay's corner",
        png.display()
    );
    // The keys mattered: without the recorded input the demo plays, and looks different.
    let demo = dir.join("demo.png");
    bt_ok(&["shot", "snake", "--at", &at, "-o", demo.to_str().unwrap()]);
    assert!(
        rgba_of(&demo) != from_replay,
        "the replay shows the demo: the keys never reached the cart"
    );

    // The GIF: display size, no delay below 2 cs, about as long as the recording was (over
    // two seconds), ending on the paused picture, colour for colour.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(&gif).unwrap())
        .unwrap();
    let screen = rgba_of(&png);
    assert_eq!(
        (u32::from(decoder.width()), u32::from(decoder.height())),
        screen.dimensions()
    );
    let (mut total, mut last) = (0u32, Vec::new());
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert!(frame.delay >= 2, "a delay of {} cs", frame.delay);
        total += u32::from(frame.delay);
        last = frame.buffer.to_vec();
    }
    assert!(total >= 200, "{total} cs");
    assert!(
        last == screen.into_raw(),
        "the GIF ends on the paused picture"
    );
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&buffer).unwrap())
        .unwrap();
    let mut buffered = 0u32;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert!(frame.delay >= 2, "a delay of {} cs", frame.delay);
        buffered += u32::from(frame.delay);
    }
    assert!(
        buffered > total && buffered <= 1000,
        "the buffer holds {buffered} cs, the F10 recording {total} cs"
    );
}

/// Where `window` is and its size, as xdotool says: `Position: X,Y Geometry: WxH`.
fn geometry(display: &str, window: &str) -> String {
    let out = Command::new("xdotool")
        .args(["getwindowgeometry", window])
        .env("DISPLAY", display)
        .output()
        .expect("xdotool runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let keep = l.starts_with("Position:") || l.starts_with("Geometry:");
            keep.then(|| l.split(" (").next().unwrap_or(l).to_string())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The number after `prefix` in `line`, up to the next space, comma or bracket.
fn number_after(line: &str, prefix: &str) -> u64 {
    line.split(prefix)
        .nth(1)
        .and_then(|rest| rest.split([' ', ',', ')']).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {prefix:?} in {line:?}"))
}

#[test]
fn dev_swaps_an_edited_cart_in_at_the_tick_it_was_on() {
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-dev");
    let (cart, binary) = new_built_cart(&dir, "robots");
    let kept = dir.join("kept.btr");
    let mut dev = in_window(&binary, "dev", &x, &dir);
    dev.args(["--scale", "1", "--mute", "--record"])
        .arg(&kept)
        // Its programs keep their F9 screenshots in ./captures: the scratch folder's.
        .current_dir(dir.path())
        // Its rebuilds go where the cart's .cargo/config.toml says, as the first build did.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("CARGO_BUILD_BUILD_DIR");
    let mut run = Running::start(&x, dev, "robots");
    let mut seen = Vec::new();
    let mut errs = Vec::new();
    let expect = |run: &Running, prefix: &str, limit: u64, seen: &mut Vec<String>| {
        wait_for(&run.out, prefix, Duration::from_secs(limit), seen)
            .unwrap_or_else(|| panic!("no line starting {prefix:?}; stdout {seen:?}"))
    };

    // The robot walks right for a second.
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    run.xdotool(&["keydown", "Right"]);
    pause(1000);
    run.xdotool(&["keyup", "Right"]);

    // A change that does not build: the first error shows across the top of the old
    // program's picture, which plays on.
    let source = cart.join("src/lib.rs");
    let good = std::fs::read_to_string(&source).unwrap();
    save(
        &source,
        good.replace("const SPEED: f32 = 1.5;", "const SPEED: f32 = ;")
            .as_bytes(),
    );
    let failed = wait_for(
        &run.err,
        "bt: dev: the build failed",
        Duration::from_secs(120),
        &mut errs,
    )
    .unwrap_or_else(|| panic!("no failed build said on stderr: {errs:?}"));
    assert!(
        errs.iter().any(|l| l.starts_with("error")),
        "cargo's error on stderr before {failed:?}: {errs:?}"
    );
    pause(500);
    run.xdotool(&["key", "F9"]);
    let shot = dir.join(expect(&run, "saved ", 15, &mut seen).trim_start_matches("saved "));
    assert_eq!(
        pixel(&shot, 3, 6),
        rgba(8),
        "the build error across the top of {}",
        shot.display()
    );
    run.assert_running("a failed build");

    // The player moved and widened the window; the next program's opens just there.
    run.xdotool(&["windowmove", "--sync", &run.window, "100", "60"]);
    run.xdotool(&["windowsize", "--sync", &run.window, "480", "320"]);
    let place = geometry(&run.display, &run.window);
    assert_eq!(place, "Position: 100,60 Geometry: 480x320");

    // Twice the speed and another background: the old program writes its run and closes, the
    // new one replays it and plays on from the update the old one reached.
    let faster = good
        .replace("const SPEED: f32 = 1.5;", "const SPEED: f32 = 3.0;")
        .replace("ctx.clear(1);", "ctx.clear(2);");
    assert_ne!(faster, good, "the starter has the lines this test edits");
    save(&source, faster.as_bytes());
    let recorded = expect(&run, "recorded ", 180, &mut seen);
    let continued = expect(&run, "continued after update ", 60, &mut seen);
    let swapped_at = number_after(&recorded, "recorded ");
    assert!(swapped_at > 60, "{recorded}");
    assert_eq!(
        number_after(&continued, "continued after update "),
        swapped_at,
        "the new program continues at the update the old one wrote: {seen:?}"
    );
    let line = expect(&run, "running robots", 60, &mut seen);
    run.window = window_id(&line);
    assert_eq!(
        geometry(&run.display, &run.window),
        place,
        "the window where it was"
    );

    // Live input reaches the new program; then F5 pauses it and F9 takes its picture.
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    run.xdotool(&["keydown", "Down"]);
    pause(500);
    run.xdotool(&["keyup", "Down"]);
    run.xdotool(&["key", "F5"]);
    let paused = expect(&run, "paused at tick ", 15, &mut seen);
    let updates = number_after(&paused, ", after ");
    assert!(updates > swapped_at, "{paused} after {recorded}");
    run.xdotool(&["key", "F9"]);
    let png = dir.join(expect(&run, "saved ", 15, &mut seen).trim_start_matches("saved "));
    // Below the room's bottom wall at the left, where neither robot nor coin can be.
    assert_eq!(
        pixel(&png, 3, 147),
        rgba(2),
        "the new background in {}",
        png.display()
    );
    let stderr = run.close();
    assert!(stderr.contains("dev: kept the run in"), "{stderr}");

    // The run kept is the new code's from boot: a fresh headless run of it with the same input
    // draws every hashed frame the same, and the frame after the paused update is the
    // screenshot (but for the overlay's toggle corner, as in the recorded-run test).
    let program = |args: &[&str]| {
        let out = Command::new(&binary).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", support::stderr(&out));
        support::stdout(&out)
    };
    let path = kept.to_str().unwrap();
    let verified = program(&["replay", path, "--verify"]);
    assert!(verified.contains("frame hashes match"), "{verified}");
    let fresh = dir.join("fresh.png");
    let at = (updates as f64 / 60.0).to_string();
    program(&[
        "shot",
        "--input",
        path,
        "--at",
        &at,
        "-o",
        fresh.to_str().unwrap(),
    ]);
    let (from_replay, from_window) = (rgba_of(&fresh), rgba_of(&png));
    assert_eq!(from_replay.dimensions(), from_window.dimensions());
    let height = from_window.height() as i32;
    let differ = from_window
        .enumerate_pixels()
        .filter(|&(x, y, p)| {
            !bt_overlay::Overlay::hits_toggle(x as i32, y as i32, height)
                && from_replay.get_pixel(x, y) != p
        })
        .count();
    assert_eq!(
        differ,
        0,
        "`shot --input {path} --at {at}` differs from the window's {}",
        png.display()
    );
}

/// The pixels of `window` (`width` × `height`, at its origin) as RGBA rows, read from the X
/// server with GetImage (opcode 73) in the ZPixmap format: the picture the window shows, as
/// a screenshot tool reads it. Xvfb's 24-bit screen stores a pixel as 32 bits, blue first.
fn window_pixels(display: &str, window: u32, width: u16, height: u16) -> image::RgbaImage {
    let mut x = x_connection(display, Duration::from_secs(20));
    let mut request = vec![73u8, 2];
    request.extend(5u16.to_le_bytes());
    request.extend(window.to_le_bytes());
    request.extend(0i16.to_le_bytes());
    request.extend(0i16.to_le_bytes());
    request.extend(width.to_le_bytes());
    request.extend(height.to_le_bytes());
    request.extend(u32::MAX.to_le_bytes());
    x.write_all(&request).unwrap();
    let mut reply = [0u8; 32];
    x.read_exact(&mut reply).unwrap();
    assert_eq!(reply[0], 1, "GetImage failed: {reply:?}");
    assert_eq!(reply[1], 24, "a 24-bit window");
    let words = u32::from_le_bytes([reply[4], reply[5], reply[6], reply[7]]) as usize;
    let mut data = vec![0u8; words * 4];
    x.read_exact(&mut data).unwrap();
    let (w, h) = (u32::from(width), u32::from(height));
    assert_eq!(
        data.len(),
        (w * h * 4) as usize,
        "32 bits a pixel, rows unpadded"
    );
    let mut rgba = image::RgbaImage::new(w, h);
    for (px, bgrx) in rgba.pixels_mut().zip(data.chunks_exact(4)) {
        px.0 = [bgrx[2], bgrx[1], bgrx[0], 255];
    }
    rgba
}

#[test]
fn the_window_shows_the_output_picture_bt_shot_writes() {
    let Some(x) = x_server(&["Xvfb"]) else {
        return;
    };
    let dir = ScratchDir::new("window-effects");
    // The terminal under the PipBoy preset, opened paused on tick 281 (rows jittered by
    // interference), at scale 4: the window is the output picture's size, 1280 x 960.
    let at = "4.6833333";
    let mut bt = bt_run(&x, &dir);
    bt.args([
        "crt",
        "--arg",
        "scene=pipboy",
        "--scale",
        "4",
        "--at",
        at,
        "--exit-after",
        RUN_SECONDS,
    ]);
    let run = Running::start(&x, bt, "crt");
    // The paused frame is presented once the window is up; give the presenting thread time.
    pause(3000);
    let window: u32 = run.window.parse().unwrap();
    let shown = window_pixels(&x.display, window, 1280, 960);
    run.close();

    let shot = dir.join("shot.png");
    bt_ok(&[
        "shot",
        "crt",
        "--arg",
        "scene=pipboy",
        "--at",
        at,
        "--size",
        "output",
        "-o",
        shot.to_str().unwrap(),
    ]);
    let written = rgba_of(&shot);
    assert_eq!(written.dimensions(), shown.dimensions());
    // The hidden overlay still marks its toggle corner in the window (laid over the effects,
    // undistorted, 4 x 4 output pixels a display pixel); `bt shot` has no overlay.
    let mut differ = 0;
    let mut worst = 0;
    for (x, y, p) in shown.enumerate_pixels() {
        if bt_overlay::Overlay::hits_toggle((x / 4) as i32, (y / 4) as i32, 240) {
            continue;
        }
        let q = written.get_pixel(x, y);
        if p != q {
            differ += 1;
            let d =
                p.0.iter()
                    .zip(q.0)
                    .map(|(a, b)| a.abs_diff(b))
                    .max()
                    .unwrap();
            worst = worst.max(d);
        }
    }
    assert_eq!(
        (differ, worst),
        (0, 0),
        "pixels (and the largest difference in a channel) between the window and \
         `bt shot --size output`"
    );
}

#[test]
fn the_sound_editor_changes_a_note_and_saves_the_file_in_a_real_window() {
    use std::os::unix::fs::PermissionsExt;
    let Some(x) = x_server(&["Xvfb", "xdotool"]) else {
        return;
    };
    let dir = ScratchDir::new("window-sound-edit");
    // A copy of the platformer's music, reached through a link, with permissions of its own:
    // the save writes through the link and keeps them.
    let original = include_str!("../../platformer/assets/music.txt");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let real = dir.join("real/music.txt");
    std::fs::write(&real, original).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("music.txt");
    std::os::unix::fs::symlink("real/music.txt", &link).unwrap();

    let binary = Path::new(env!("CARGO_BIN_EXE_bt-test-carts"));
    let mut bt = in_window(binary, "sound-edit", &x, &dir);
    let recording = dir.join("session.btr");
    bt.arg(&link)
        .args(["--scale", "1", "--mute", "--exit-after", RUN_SECONDS])
        .arg("--record")
        .arg(&recording);
    let mut run = Running::start(&x, bt, "sound-edit");
    run.xdotool(&["windowfocus", "--sync", &run.window]);
    // The second note of lead_a, G5: a semitone up, then volume 7, then save. A key an update
    // at least apart, so each edit is made before the save.
    run.xdotool(&[
        "key", "--delay", "100", "Down", "equal", "Right", "Right", "7", "ctrl+s",
    ]);
    let mut seen = Vec::new();
    let wrote = wait_for(&run.out, "wrote ", Duration::from_secs(15), &mut seen);
    assert!(wrote.is_some(), "no save reported; stdout {seen:?}");
    run.assert_running("the save");

    let text = std::fs::read_to_string(&real).unwrap();
    let changed: Vec<(&str, &str)> = original
        .lines()
        .zip(text.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed, [("G5 sq25 4", "G#5 sq25 7")]);
    assert_eq!(text.lines().count(), original.lines().count());
    let back = bt::sound::SoundFile::parse("music.txt", &text).expect("the saved file reads");
    assert_eq!(back.sfx[0].1.notes[1].pitch, 68);
    assert_eq!(back.sfx[0].1.notes[1].volume, 7);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
    run.close();

    // The session was recorded with the file as opened: it replays, edit and save included,
    // with the file gone from the disk, and no file is written by the replay.
    std::fs::remove_file(&real).unwrap();
    let verified = bt_ok(&[
        "replay",
        "sound-edit",
        &recording.to_string_lossy(),
        "--verify",
    ]);
    assert!(verified.contains("frame hashes match"), "{verified}");
    assert!(!real.exists(), "a replay writes no file");
}
