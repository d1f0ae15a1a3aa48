//! `bt web` in a real browser: pages the command writes, played in headless Chromium through
//! the DevTools protocol (`tests/web/drive.mjs`, run by Node), checked against the native
//! commands: the frame `index.html?at=T` draws is the frame `bt shot --at T` saves, read back
//! from the canvas and in a screenshot of the page; keys move the snake, and the replay the
//! page records verifies natively; a replay plays in the page as natively; a second of the
//! jukebox, and of the audio cart's clips, through the page's audio worklet is `bt wav`'s
//! second, sample for sample.
//!
//! It needs `node`, `chromium` and a toolchain that builds for the web (see docs/web.md;
//! `.ci/run` installs them). Where one is missing the test says so loudly on stderr and
//! returns; with `BT_REQUIRE_WEB_TEST=1` (as in CI) it fails instead. Every page is built into
//! one shared target folder (`BT_WEB_TARGET_DIR`, else BT's `target/web`), so the standard
//! library for the web and BT compile once for all of them.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use bt_test_support::ScratchDir;
use serde_json::{json, Value};
use support::{bt, bt_command, output_within, stderr, stdout};

mod support;

/// Skips loudly, or fails when the test is required.
fn unavailable(why: &str) {
    if std::env::var_os("BT_REQUIRE_WEB_TEST").is_some_and(|v| v == "1") {
        panic!("the browser test is required (BT_REQUIRE_WEB_TEST=1) but {why}");
    }
    let _ = writeln!(
        std::io::stderr(),
        "\n**********************************************************************\n\
         SKIPPED: the browser test of `bt web` did not run: {why}.\n\
         Install nodejs and chromium, and rustup's wasm32-unknown-unknown target or Debian's\n\
         rustc-web, cargo-web and rust-web-src (or run .ci/run).\n\
         **********************************************************************\n"
    );
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Chromium, when it is there.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|p| on_path(p))
}

/// What the test needs, or why it cannot run.
fn browser() -> Result<PathBuf, String> {
    if on_path("node").is_none() {
        return Err("`node` is not on the PATH".to_string());
    }
    chromium().ok_or_else(|| "no `chromium` on the PATH".to_string())
}

/// The folders `bt web CART FLAGS` wrote, one per cart and flags, built once per test run and
/// shared by the tests (they run side by side), in the tests' own folder under the target
/// folder. With no flags, the development build, which `bt web` makes unless told `--release`.
fn site_with(cart: &str, flags: &[&str]) -> Result<PathBuf, String> {
    static SITES: OnceLock<Mutex<HashMap<String, Result<PathBuf, String>>>> = OnceLock::new();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-sites");
    let sites = SITES.get_or_init(Default::default);
    let mut sites = sites.lock().unwrap_or_else(|e| e.into_inner());
    let name = std::iter::once(cart)
        .chain(flags.iter().map(|f| f.trim_start_matches('-')))
        .collect::<Vec<_>>()
        .join("-");
    sites
        .entry(name.clone())
        .or_insert_with(|| {
            let dir = root.join(&name);
            // Last run's page goes: `bt web` writes only into a new or empty folder.
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
            let out = output_within(
                bt_command()
                    .args(["web", cart])
                    .args(flags)
                    .arg("-o")
                    .arg(&dir),
                Duration::from_secs(1800),
            );
            if out.status.success() {
                Ok(dir)
            } else {
                Err(stderr(&out))
            }
        })
        .clone()
}

/// The site for `cart`, or `None` after skipping (toolchain or browser missing).
fn ready(cart: &str) -> Option<(PathBuf, PathBuf)> {
    ready_with(cart, &[])
}

/// The site `bt web CART FLAGS` wrote, or `None` after skipping.
fn ready_with(cart: &str, flags: &[&str]) -> Option<(PathBuf, PathBuf)> {
    let chromium = match browser() {
        Ok(c) => c,
        Err(why) => {
            unavailable(&why);
            return None;
        }
    };
    match site_with(cart, flags) {
        Ok(dir) => Some((chromium, dir)),
        Err(e) if e.contains("no Rust toolchain here builds for wasm32") => {
            unavailable(e.trim());
            None
        }
        Err(e) => panic!("bt web {cart} failed: {e}"),
    }
}

/// Runs `plan` (see drive.mjs) on the page in `site`; one result per step.
fn drive(chromium: &Path, site: &Path, plan: Value) -> Vec<Value> {
    let scratch = ScratchDir::new("web-plan");
    let plan_file = scratch.join("plan.json");
    let results = scratch.join("results.json");
    std::fs::write(&plan_file, plan.to_string()).unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/drive.mjs");
    let out = output_within(
        Command::new("node")
            .arg(driver)
            .arg(chromium)
            .arg(site)
            .arg(&plan_file)
            .arg(&results),
        Duration::from_secs(180),
    );
    assert!(out.status.success(), "drive.mjs: {}", stderr(&out));
    serde_json::from_slice(&std::fs::read(&results).unwrap()).expect("drive.mjs writes JSON")
}

/// The RGBA pixels and size of a PNG.
fn png_rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let img = image::load_from_memory(bytes).expect("a PNG").to_rgba8();
    (img.width(), img.height(), img.into_raw())
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// `bt shot CART --at AT [extra]` as RGBA.
fn native_shot(cart: &str, at: &str, extra: &[&str]) -> (u32, u32, Vec<u8>) {
    let dir = ScratchDir::new("web-shot");
    let png = dir.join("shot.png");
    let mut args = vec!["shot", cart, "--at", at, "-o", png.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = bt(&args);
    assert!(out.status.success(), "bt shot: {}", stderr(&out));
    png_rgba(&std::fs::read(&png).unwrap())
}

/// Bytes a `bytes` step returned.
fn bytes(value: &Value) -> Vec<u8> {
    base64(value.as_str().expect("base64 text"))
}

/// Where two equally long pictures first differ, as (x, y).
fn first_difference(a: &[u8], b: &[u8], width: u32) -> Option<(u32, u32)> {
    let i = a.iter().zip(b).position(|(x, y)| x != y)? / 4;
    Some((i as u32 % width, i as u32 / width))
}

#[test]
fn the_page_at_a_time_draws_the_frame_bt_shot_draws_canvas_and_screenshot() {
    frames_are_bt_shots(
        &[],
        &[
            ("hello", "3.2"),
            ("snake", "2.5"),
            ("sprites", "1.25"),
            ("tilemap", "4"),
            // Its sheet, Tiled maps (one with its tileset in a file beside it), level list and
            // music all come from its asset folder, packed into the page.
            ("platformer", "6"),
        ],
    );
}

#[test]
fn the_page_built_to_publish_draws_the_frame_bt_shot_draws_too() {
    // Optimised whole (link-time optimisation, one codegen unit), where the development
    // build the other tests play is not: the same frame all the same.
    frames_are_bt_shots(&["--release"], &[("hello", "3.2")]);
}

/// For each cart and time, the frame `index.html?at=T` of the page `bt web CART FLAGS` draws,
/// read from its canvas and in a screenshot, is `bt shot --at T`'s.
fn frames_are_bt_shots(flags: &[&str], frames: &[(&str, &str)]) {
    for &(cart, at) in frames {
        let Some((chromium, site)) = ready_with(cart, flags) else {
            return;
        };
        let (w, h, native) = native_shot(cart, at, &[]);
        let results = drive(
            &chromium,
            &site,
            json!([
                {"viewport": [w, h]},
                {"open": format!("index.html?at={at}")},
                {"bytes": "window.bt.pixels()", "as": "u8"},
                {"screenshot": true},
            ]),
        );
        let canvas = bytes(&results[2]);
        assert_eq!(canvas.len(), native.len(), "{cart}: the canvas is {w}x{h}");
        assert_eq!(
            first_difference(&canvas, &native, w),
            None,
            "{cart} at {at}: the page's canvas differs from bt shot"
        );
        let (sw, sh, shot) = png_rgba(&base64(results[3].as_str().unwrap()));
        assert_eq!((sw, sh), (w, h), "{cart}: the screenshot is the viewport");
        assert_eq!(
            first_difference(&shot, &native, w),
            None,
            "{cart} at {at}: the page's screenshot differs from bt shot"
        );
    }
}

#[test]
fn keys_move_the_snake_and_the_replay_the_page_records_verifies_natively() {
    let Some((chromium, site)) = ready("snake") else {
        return;
    };
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [640, 480]},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 30"},
            {"key": "KeyZ", "down": true},
            {"wait_ms": 100},
            {"key": "KeyZ", "down": false},
            {"key": "ArrowDown", "down": true},
            {"wait_ms": 400},
            {"key": "ArrowDown", "down": false},
            {"key": "ArrowLeft", "down": true},
            {"wait_ms": 400},
            {"key": "ArrowLeft", "down": false},
            {"wait_for": "window.bt.ticks() > 90"},
            {"eval": "window.bt.replay()"},
        ]),
    );
    let replay = results[13].as_str().expect("the replay's text");
    serde_json::from_str::<Value>(replay).expect("the replay is JSON");
    let dir = ScratchDir::new("web-replay");
    let path = dir.join("page.btr");
    std::fs::write(&path, replay).unwrap();
    let out = bt(&["replay", "snake", path.to_str().unwrap(), "--verify"]);
    assert!(
        out.status.success(),
        "the page's replay verifies natively: {}{}",
        stdout(&out),
        stderr(&out)
    );
    // The keys changed the game: the recorded run ends elsewhere than the run without them.
    let at = "1.5";
    let (_, _, with_keys) = native_shot("snake", at, &["--input", path.to_str().unwrap()]);
    let (_, _, without) = native_shot("snake", at, &[]);
    assert!(with_keys != without, "the snake moved with the keys");

    // And the other way: the replay file played in a page draws what bt shot --input draws.
    std::fs::copy(&path, site.join("page.btr")).unwrap();
    let (w, h, native) = native_shot("snake", at, &["--input", path.to_str().unwrap()]);
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [w, h]},
            {"open": format!("index.html?replay=page.btr&at={at}")},
            {"bytes": "window.bt.pixels()", "as": "u8"},
        ]),
    );
    assert_eq!(
        first_difference(&bytes(&results[2]), &native, w),
        None,
        "a replay played in the page draws what it draws natively"
    );
}

/// A step that drops a file `name` holding `text` on the page's picture, as a player drags
/// one there.
fn drop_file(name: &str, text: &str) -> Value {
    json!({"eval": format!("(() => {{
        const dt = new DataTransfer();
        dt.items.add(new File([{}], {}, {{ type: 'application/json' }}));
        const at = {{ dataTransfer: dt, bubbles: true, cancelable: true }};
        document.getElementById('bt-screen').dispatchEvent(new DragEvent('drop', at));
        return true;
    }})()", json!(text), json!(name))})
}

#[test]
fn f1_held_in_a_page_goes_back_f3_and_f4_return_to_the_saved_update_and_a_downloaded_state_loads_back(
) {
    let Some((chromium, site)) = ready("snake") else {
        return;
    };
    let key = |code: &str, down: bool| json!({"key": code, "down": down});
    let tap = |code: &str| [key(code, true), key(code, false)];
    // Whether the browser's own action of each time-travel key (help, find) was prevented.
    let watch = "(() => {
        window.prevented = [];
        addEventListener('keydown', (e) => {
            if (/^F[134]$/.test(e.code)) window.prevented.push([e.code, e.defaultPrevented]);
        });
        return true;
    })()";
    let mut plan = vec![
        json!({"viewport": [640, 480]}),
        json!({"open": "index.html"}),
        json!({"eval": watch}),
        json!({"wait_for": "window.bt.ticks() > 240"}),
        json!({"eval": "window.from = window.bt.ticks()"}),
        key("F1", true),
        json!({"wait_ms": 1500}),
        json!({"eval": "window.back = window.bt.ticks()"}),
        key("F1", false),
        json!({"wait_for": "window.bt.ticks() > window.back + 30"}),
    ];
    let rewound = [4, 7];
    plan.extend(tap("F5"));
    plan.extend([
        json!({"wait_for": "window.bt.paused"}),
        json!({"eval": "window.saved = window.bt.ticks()"}),
    ]);
    let saved_at = plan.len() - 1;
    plan.extend(tap("F3"));
    plan.extend(tap("F6"));
    plan.extend(tap("F6"));
    plan.push(json!({"eval": "window.bt.ticks() - window.saved"}));
    let stepped = plan.len() - 1;
    plan.extend(tap("F4"));
    plan.push(json!({"eval": "window.bt.ticks() - window.saved"}));
    let loaded = plan.len() - 1;
    plan.extend([
        key("ShiftLeft", true),
        json!({"key": "F3", "down": true, "shift": true}),
        json!({"key": "F3", "down": false, "shift": true}),
        key("ShiftLeft", false),
        json!({"download": "snake.btstate"}),
        json!({"eval": "[window.prevented, window.bt.error]"}),
    ]);
    let results = drive(&chromium, &site, Value::Array(plan));
    let n = results.len();
    let (from, back) = (&results[rewound[0]], &results[rewound[1]]);
    assert!(
        back.as_f64() < from.as_f64(),
        "F1 held went back: from tick {from} to {back}"
    );
    assert_eq!(results[stepped], 2, "two steps after F3");
    assert_eq!(results[loaded], 0, "F4 went back to the update F3 saved");
    let saved = results[saved_at].as_u64().expect("the saved tick");
    assert_eq!(
        results[n - 1],
        json!([
            [["F1", true], ["F3", true], ["F4", true], ["F3", true]],
            null
        ]),
        "the browser's help and find were kept out; nothing failed"
    );
    let state = results[n - 2].as_str().expect("the state file's text");
    let file: Value = serde_json::from_str(state).expect("a state file is JSON");
    assert_eq!(file["format"], "bt-state", "{file}");
    // The page names its build by its own module's bytes, as a program natively names its by
    // its file's: another build of the page is another build.
    let module = std::fs::read(site.join("snake.wasm")).expect("the page's module");
    assert_eq!(
        file["build"],
        bt_runtime::engine::build_of_program(&module),
        "the build of the module the page loaded"
    );

    // The download loads back into a fresh page, dropped on it; a state of another build is
    // refused at the page's foot; Shift+F4 opens the file picker, which loads one too.
    let mut other = file.clone();
    other["build"] = json!("bt-runtime 0.0.1, program 0123456789abcdef");
    let pick = |text: &str| {
        json!({"eval": format!("(() => {{
            const dt = new DataTransfer();
            dt.items.add(new File([{}], 'picked.btstate'));
            const picker = document.getElementById('bt-state-file');
            picker.files = dt.files;
            picker.dispatchEvent(new Event('change'));
            return true;
        }})()", json!(text))})
    };
    let status = "document.getElementById('bt-status').textContent";
    let mut plan = vec![
        json!({"viewport": [640, 480]}),
        json!({"open": "index.html"}),
        json!({"wait_for": "window.bt.frames > 5"}),
    ];
    plan.extend(tap("F5"));
    plan.extend([
        json!({"wait_for": "window.bt.paused"}),
        drop_file("snake.btstate", state),
        json!({"wait_for": format!("window.bt.ticks() === {saved}")}),
        drop_file("old.btstate", &other.to_string()),
        json!({"wait_for": format!("{status}.includes('old.btstate')")}),
        json!({"eval": format!("[{status}, window.bt.ticks(), window.bt.paused]")}),
        json!({"eval": "(() => {
            document.getElementById('bt-state-file').click = () => { window.chose = true; };
            return true;
        })()"}),
        key("ShiftLeft", true),
        json!({"key": "F4", "down": true, "shift": true}),
        json!({"key": "F4", "down": false, "shift": true}),
        key("ShiftLeft", false),
        json!({"wait_for": "window.chose"}),
    ]);
    plan.extend(tap("F6"));
    plan.extend([
        json!({"wait_for": format!("window.bt.ticks() === {saved} + 1")}),
        pick(state),
        json!({"wait_for": format!("window.bt.ticks() === {saved} && {status} === ''")}),
        json!({"eval": "window.bt.error"}),
    ]);
    let results = drive(&chromium, &site, Value::Array(plan));
    let n = results.len();
    let refused = &results[10];
    let said = refused[0].as_str().expect("the page's foot");
    assert!(
        said.starts_with("bt: load state file: old.btstate: a state saved by another build"),
        "{said}"
    );
    assert_eq!(
        refused[1], saved,
        "the refused file left the run where it was"
    );
    assert_eq!(refused[2], true, "still paused");
    assert_eq!(results[n - 1], Value::Null, "nothing failed");
}

#[test]
fn on_a_phone_rewind_held_goes_back_and_the_pads_save_and_load_return_to_the_saved_state() {
    let Some((chromium, site)) = ready("snake") else {
        return;
    };
    let touch = |what: &str, points: &str| json!({"touch": what, "points": points});
    let press = |part: &str| touch("touchStart", &format!("[window.bt.touch.centre('{part}')]"));
    let lift = touch("touchEnd", "[]");
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [390, 844], "mobile": true},
            {"open": "index.html"},
            {"wait_for": "window.bt.touch.shown && window.bt.ticks() > 240"},
            {"eval": "(() => {
                const box = (name) => window.bt.touch.parts[name].getBoundingClientRect();
                const names = ['save', 'load', 'menu', 'rewind'];
                const inside = names.every((n) => box(n).left >= 0 && box(n).right <= innerWidth);
                const apart = names.slice(1).every((n, i) => box(names[i]).right <= box(n).left);
                return [inside, apart];
            })()"},
            {"eval": "window.from = window.bt.ticks()"},
            press("rewind"),
            {"wait_ms": 1500},
            {"eval": "window.back = window.bt.ticks()"},
            lift.clone(),
            {"wait_for": "window.bt.ticks() > window.back + 30"},
            press("save"),
            lift.clone(),
            {"eval": "window.saved = window.bt.ticks()"},
            {"wait_ms": 1000},
            {"eval": "window.before = window.bt.ticks()"},
            press("load"),
            lift.clone(),
            {"eval": "[window.bt.ticks() - window.saved, window.bt.ticks() - window.before, window.bt.error]"},
        ]),
    );
    assert_eq!(
        results[3],
        json!([true, true]),
        "SAVE, LOAD, MENU and REWIND in a row on the phone"
    );
    assert!(
        results[7].as_f64() < results[4].as_f64(),
        "REWIND held went back: from tick {} to {}",
        results[4],
        results[7]
    );
    let after = &results[17];
    assert!(
        after[0].as_i64().is_some_and(|d| d.abs() <= 10),
        "LOAD went back to about where SAVE was tapped: {after}"
    );
    assert!(
        after[1].as_i64().is_some_and(|d| d < -30),
        "a second of play undone: {after}"
    );
    assert_eq!(after[2], Value::Null);
}

#[test]
fn the_pointer_the_wheel_and_a_gamepad_reach_the_cart_through_the_pages_one_input_function() {
    let Some((chromium, site)) = ready("snake") else {
        return;
    };
    // At 640x480 the 320x240 display is drawn at 2x from the top-left corner: the page's
    // pixel (100, 60) is the display's (50, 30).
    let pointer = "(() => {
        const canvas = document.getElementById('bt-screen');
        const at = { clientX: 100, clientY: 60, button: 0, bubbles: true };
        canvas.dispatchEvent(new PointerEvent('pointermove', at));
        canvas.dispatchEvent(new PointerEvent('pointerdown', at));
        canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: 32, deltaMode: 0, bubbles: true }));
        return true;
    })()";
    // A standard-layout gamepad holding d-pad down (button 13) with the right stick half
    // right, as the Gamepad API would show it.
    let gamepad = "(() => {
        const buttons = Array.from({ length: 17 }, (_, i) => ({ pressed: i === 13, value: i === 13 ? 1 : 0 }));
        const pad = { connected: true, buttons, axes: [0, 0, 0.5, 0] };
        Object.defineProperty(navigator, 'getGamepads', { value: () => [pad, null, null, null] });
        return true;
    })()";
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [640, 480]},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 10"},
            {"eval": pointer},
            {"eval": gamepad},
            {"wait_for": "window.bt.ticks() > 40"},
            {"eval": "window.bt.replay()"},
        ]),
    );
    let replay = results[6].as_str().expect("the replay's text");
    let replay = bt_runtime::replay::Replay::from_json(replay, Path::new("page.btr")).unwrap();
    let ticks: Vec<bt::host::TickInput> = replay.recording().iter().collect();
    let any = |what: &str, saw: &dyn Fn(&bt::host::TickInput) -> bool| {
        assert!(ticks.iter().any(saw), "no update saw {what}");
    };
    any("the pointer at (50, 30)", &|t| {
        t.pointer_active && t.pointer_pos == (50, 30)
    });
    any("the left mouse button", &|t| {
        t.buttons[0].down & bt::Button::POINTER_A.bits() != 0
    });
    any("two lines of wheel down", &|t| {
        t.pointer_wheel == (0.0, 2.0)
    });
    any("the gamepad", &|t| t.pads[0]);
    any("its d-pad down", &|t| {
        t.buttons[0].down & bt::Button::DOWN.bits() != 0
    });
    any("its right stick", &|t| t.axes[0][2] == 0.5);
}

/// The replay the page's `window.bt.replay()` gave.
fn page_replay(value: &Value) -> bt_runtime::replay::Replay {
    let text = value.as_str().expect("the replay's text");
    bt_runtime::replay::Replay::from_json(text, Path::new("page.btr")).expect("a replay")
}

#[test]
fn paint_keeps_its_colour_in_the_browser_over_a_reload_and_the_test_hooks_leave_it_alone() {
    let Some((chromium, site)) = ready("paint") else {
        return;
    };
    // At 640x480 the 320x240 display is drawn at 2x from the top-left corner: swatch 12
    // (display x 204 to 217, y 225 to 238) is under the page's (412, 456).
    let click = "(() => {
        const canvas = document.getElementById('bt-screen');
        const at = { clientX: 412, clientY: 456, button: 0, bubbles: true };
        canvas.dispatchEvent(new PointerEvent('pointermove', at));
        canvas.dispatchEvent(new PointerEvent('pointerdown', at));
        setTimeout(() => canvas.dispatchEvent(new PointerEvent('pointerup', at)), 100);
        return true;
    })()";
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [640, 480]},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 5"},
            {"eval": "[window.bt.saveKey, localStorage.getItem(window.bt.saveKey), document.title]"},
            {"eval": click},
            {"wait_for": "window.bt.saves > 0"},
            {"eval": "localStorage.getItem(window.bt.saveKey)"},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 5"},
            {"eval": "window.bt.replay()"},
            {"open": "index.html?at=1"},
            {"eval": "window.bt.replay()"},
            {"eval": "Object.keys(localStorage)"},
            {"requests": true},
            // A link that sets cart arguments plays a run of its own, apart from the saved
            // game; one whose argument holds a line break (which could start a replay in the
            // boot text) is refused.
            {"open": "index.html?arg=x=1"},
            {"wait_for": "window.bt.frames > 5"},
            {"eval": "window.bt.replay()"},
            {"open": "index.html?arg=x%3D1%0A--replay--%0A%7B%7D", "refused": true},
            {"eval": "localStorage.getItem('bt:paint:Paint:save')"},
        ]),
    );
    let asked: Vec<&str> = results[13]
        .as_array()
        .expect("the paths asked for")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(asked.contains(&"/paint.wasm"), "{asked:?}");
    assert!(
        !asked.iter().any(|p| p.contains("favicon")),
        "the page names its icon, so the browser asks for none: {asked:?}"
    );
    assert_eq!(
        results[3],
        json!(["bt:paint:Paint:save", null, "Paint"]),
        "nothing kept before the first run; the tab shows the cart's title"
    );
    let kept = base64(results[6].as_str().expect("save data kept"));
    let data = bt_runtime::save::decode(&kept, Path::new("kept")).expect("a BT save file");
    assert_eq!(data, [12, 0, 0, 0, 3], "colour 12, brush 3");
    assert_eq!(
        page_replay(&results[9]).boot_save(),
        [12, 0, 0, 0, 3],
        "the reloaded page boots with the kept save data"
    );
    assert_eq!(
        page_replay(&results[11]).boot_save(),
        [] as [u8; 0],
        "a test hook boots with empty save data, as bt shot does"
    );
    assert_eq!(
        results[12],
        json!(["bt:paint:Paint:save"]),
        "and writes none"
    );
    assert_eq!(
        page_replay(&results[16]).boot_save(),
        [] as [u8; 0],
        "a link's arguments make a run apart from the player's saved game"
    );
    let error = results[17]["error"]
        .as_str()
        .expect("the page stopped with a message");
    assert!(error.contains("line break"), "{error}");
    assert_eq!(
        results[18], results[6],
        "the player's save data is as it was"
    );
}

#[test]
fn on_a_phone_the_touch_pad_plays_works_the_pause_menu_and_a_tap_is_the_pointer() {
    let Some((chromium, site)) = ready("snake") else {
        return;
    };
    let touch = |what: &str, points: &str| json!({"touch": what, "points": points});
    let tap = |part: &str| {
        [
            touch("touchStart", &format!("[window.bt.touch.centre('{part}')]")),
            json!({"wait_ms": 150}),
            touch("touchEnd", "[]"),
            json!({"wait_ms": 100}),
        ]
    };
    // The display's pixel (100, 60), wherever the picture is (drawn at 1x on this phone).
    let picture = "(() => {
        const r = document.getElementById('bt-screen').getBoundingClientRect();
        return [[r.left + 100.5, r.top + 60.5]];
    })()";
    let mut plan = vec![
        json!({"viewport": [390, 844], "mobile": true}),
        json!({"open": "index.html"}),
        json!({"wait_for": "window.bt.frames > 10"}),
        touch("touchStart", picture),
        json!({"wait_ms": 150}),
        touch("touchEnd", "[]"),
        json!({"wait_for": "window.bt.touch.shown"}),
        json!({"eval": "(() => {
            const c = document.getElementById('bt-screen').getBoundingClientRect();
            const p = window.bt.touch.parts.dpad.getBoundingClientRect();
            return [c.bottom <= p.top, window.bt.touch.parts.a.getBoundingClientRect().top >= c.bottom];
        })()"}),
    ];
    plan.extend(tap("a"));
    plan.extend([
        touch("touchStart", "[window.bt.touch.centre('right')]"),
        json!({"wait_ms": 200}),
        touch(
            "touchStart",
            "[window.bt.touch.centre('right'), window.bt.touch.centre('a')]",
        ),
        json!({"wait_ms": 200}),
        touch("touchEnd", "[]"),
        json!({"wait_ms": 100}),
        json!({"eval": "window.bt.replay()"}),
    ]);
    let replay_at = plan.len() - 1;
    // The pause menu with the pad: open it, down twice to Quit, A.
    plan.extend(tap("menu"));
    plan.push(json!({"wait_for": "window.bt.paused"}));
    plan.extend(tap("down"));
    plan.extend(tap("down"));
    plan.extend(tap("a"));
    plan.extend([
        json!({"wait_for": "window.bt.ended"}),
        json!({"eval": "[document.getElementById('bt-ended').innerText, window.bt.frames]"}),
        json!({"wait_ms": 300}),
        json!({"eval": "window.bt.frames"}),
    ]);
    let results = drive(&chromium, &site, Value::Array(plan));
    assert_eq!(
        results[7],
        json!([true, true]),
        "on a portrait phone the pad is below the picture"
    );
    let replay = page_replay(&results[replay_at]);
    let ticks: Vec<bt::host::TickInput> = replay.recording().iter().collect();
    let any = |what: &str, saw: &dyn Fn(&bt::host::TickInput) -> bool| {
        assert!(ticks.iter().any(saw), "no update saw {what}");
    };
    let held = |t: &bt::host::TickInput, b: bt::Button| t.buttons[0].down & b.bits() == b.bits();
    any("the tap on the picture as the pointer at (100, 60)", &|t| {
        t.pointer_active && t.pointer_pos == (100, 60) && held(t, bt::Button::POINTER_A)
    });
    any("the pad's A", &|t| held(t, bt::Button::A));
    any("the pad's right alone", &|t| {
        held(t, bt::Button::RIGHT) && !held(t, bt::Button::A)
    });
    any("right held while A is pressed", &|t| {
        held(t, bt::Button::RIGHT | bt::Button::A)
    });
    let n = results.len();
    let ended = results[n - 3][0].as_str().unwrap_or_default();
    assert!(
        ended.contains("The game ended. Reload the page to play again."),
        "{ended}"
    );
    assert_eq!(results[n - 3][1], results[n - 1], "no frame after the end");

    // Turned sideways, the pad's halves are beside the picture.
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [844, 390], "mobile": true},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 10"},
            touch("touchStart", picture),
            touch("touchEnd", "[]"),
            {"wait_for": "window.bt.touch.shown"},
            {"eval": "(() => {
                const box = (el) => el.getBoundingClientRect();
                const c = box(document.getElementById('bt-screen'));
                const parts = window.bt.touch.parts;
                return [box(parts.dpad).right <= c.left, box(parts.a).left >= c.right,
                    box(parts.b).left >= c.right, c.height];
            })()"},
        ]),
    );
    assert_eq!(
        results[6],
        json!([true, true, true, 240]),
        "the d-pad left of the picture, A and B right of it, the picture at 1x"
    );
}

/// The first second of `cart` through the page's audio worklet (an offline context, both
/// sides), against `bt wav`'s stereo file of it, sample for sample.
fn a_second_through_the_pages_audio_worklet_is_bt_wavs(cart: &str) {
    let Some((chromium, site)) = ready(cart) else {
        return;
    };
    let dir = ScratchDir::new("web-wav");
    let wav = dir.join("one.wav");
    let out = bt(&["wav", cart, "--seconds", "1", "-o", wav.to_str().unwrap()]);
    assert!(out.status.success(), "bt wav: {}", stderr(&out));
    let native: Vec<i16> = {
        let bytes = std::fs::read(&wav).unwrap();
        // A canonical 44-byte header, then 16-bit little-endian samples, left and right.
        bytes[44..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect()
    };
    let results = drive(
        &chromium,
        &site,
        json!([
            {"open": "index.html?wav=1"},
            {"bytes": "window.bt.wav()", "as": "i16"},
        ]),
    );
    let page: Vec<i16> = bytes(&results[1])
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(page.len(), native.len(), "one second, two sides");
    assert!(
        native.iter().any(|&s| s != 0),
        "{cart} plays in its first second"
    );
    let first = page.iter().zip(&native).position(|(a, b)| a != b);
    assert_eq!(first, None, "the page's samples are bt wav's");
}

#[test]
fn a_second_of_the_jukebox_through_the_pages_audio_worklet_is_bt_wavs() {
    a_second_through_the_pages_audio_worklet_is_bt_wavs("jukebox");
}

/// Its clips are decoded in the page (WAV by hound, Ogg Vorbis by BT's copy of lewton) and
/// mixed there: the same samples as natively.
#[test]
fn a_second_of_the_audio_carts_clips_through_the_page_is_bt_wavs() {
    a_second_through_the_pages_audio_worklet_is_bt_wavs("audio");
}

/// The features a WebAssembly module says it was compiled with (its `target_features` custom
/// section), each with its prefix: `+simd128` for one it uses.
fn target_features(module: &[u8]) -> Vec<String> {
    fn leb(bytes: &[u8], at: &mut usize) -> usize {
        let (mut value, mut shift) = (0, 0);
        loop {
            let byte = bytes[*at];
            *at += 1;
            value |= usize::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                return value;
            }
        }
    }
    assert_eq!(&module[..4], b"\0asm", "a WebAssembly module");
    let mut at = 8;
    while at < module.len() {
        let id = module[at];
        at += 1;
        let len = leb(module, &mut at);
        let end = at + len;
        if id == 0 {
            let name_len = leb(module, &mut at);
            let name = &module[at..at + name_len];
            at += name_len;
            if name == b"target_features" {
                return (0..leb(module, &mut at))
                    .map(|_| {
                        let prefix = char::from(module[at]);
                        at += 1;
                        let n = leb(module, &mut at);
                        at += n;
                        format!("{prefix}{}", String::from_utf8_lossy(&module[at - n..at]))
                    })
                    .collect();
            }
        }
        at = end;
    }
    Vec::new()
}

#[test]
fn the_pages_module_uses_webassembly_simd_so_the_blitter_is_vector_code() {
    let Some((_, site)) = ready("hello") else {
        return;
    };
    let module = std::fs::read(site.join("hello.wasm")).unwrap();
    let features = target_features(&module);
    assert!(
        features.iter().any(|f| f == "+simd128"),
        "hello.wasm is built without simd128: {features:?}"
    );
}

#[test]
fn bt_web_refuses_a_folder_with_something_in_it_and_leaves_it_alone() {
    let dir = ScratchDir::new("web-full");
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = bt(&["web", "snake", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.txt")).unwrap(),
        "mine"
    );
    assert_eq!(support::names(dir.path()), ["keep.txt"]);
}

#[test]
fn bt_web_says_a_link_is_where_the_folder_would_go_and_leaves_it_alone() {
    let dir = ScratchDir::new("web-link");
    let full = dir.join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("keep.txt"), "mine").unwrap();
    let link = dir.join("site");
    std::os::unix::fs::symlink(&full, &link).unwrap();
    let out = bt(&["web", "snake", "-o", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "could not write {}: a link is there, to {} (a folder)",
            link.display(),
            full.display()
        )),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    assert_eq!(std::fs::read_link(&link).unwrap(), full);
    assert_eq!(support::names(&full), ["keep.txt"]);
}

#[test]
fn bt_web_names_an_unknown_cart_and_writes_nothing() {
    let dir = ScratchDir::new("web-unknown");
    let site = dir.join("site");
    let out = bt(&["web", "snak", "-o", site.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("did you mean 'snake'"),
        "{}",
        stderr(&out)
    );
    assert!(!site.exists());
    assert_eq!(
        support::names(dir.path()),
        Vec::<String>::new(),
        "no staging folder left"
    );
    let out = bt(&["web", "snake", "-o", "-"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// Whether `done` says yes within two minutes, asked every 20 ms (`what` is said if not).
fn eventually(what: &str, done: impl FnMut() -> bool) -> bool {
    eventually_within(what, Duration::from_secs(120), done)
}

/// Whether `done` comes true within `bound`, looked at every 20 ms.
fn eventually_within(what: &str, bound: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + bound;
    while !done() {
        if std::time::Instant::now() > deadline {
            eprintln!("not yet after {} s: {what}", bound.as_secs());
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Whether the process `pid` is still running (not gone, not a zombie waiting to be reaped).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

#[cfg(target_os = "linux")]
#[test]
fn a_stopped_bt_web_stops_its_build_and_leaves_no_staging_folder() {
    let dir = ScratchDir::new("web-stopped");
    let site = dir.join("site");
    // What a `bt web` killed outright left (its process is gone): the next one removes it.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let left = dir.join(format!(".site.{}-abc123.bt-tmp", gone.id()));
    std::fs::create_dir_all(left.join("half")).unwrap();
    // A toolchain that builds for the web as far as `bt web` can tell, whose cargo starts a
    // compiler that would run for ten minutes and says which processes they are.
    let sysroot = dir.join("sysroot");
    std::fs::create_dir_all(sysroot.join("lib/rustlib/wasm32-unknown-unknown/lib")).unwrap();
    let script = |name: &str, text: String| {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let rustc = script(
        "rustc",
        format!("#!/bin/sh\necho '{}'\n", sysroot.display()),
    );
    let pids = dir.join("pids");
    let cargo = script(
        "cargo",
        format!(
            "#!/bin/sh\nsleep 600 &\necho $$ $! > '{0}.new'\nmv '{0}.new' '{0}'\nwait\n",
            pids.display()
        ),
    );
    let mut child = bt_command()
        .args(["web", "snake", "-o"])
        .arg(&site)
        .env("RUSTC", &rustc)
        .env("CARGO", &cargo)
        .env("BT_WEB_TARGET_DIR", dir.join("target"))
        // Into a file, not a pipe: a build left running would hold a pipe open, and reading
        // it to its end would wait for that build.
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.join("said")).unwrap())
        .spawn()
        .unwrap();
    let mut ended = None;
    let started = eventually("the build started", || {
        ended = ended.or(child.try_wait().unwrap());
        pids.exists() || ended.is_some()
    });
    let builders = std::fs::read_to_string(&pids);
    let said = || std::fs::read_to_string(dir.join("said")).unwrap();
    if !started || builders.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("bt web ran no build: {}", said());
    }
    let builders = builders.unwrap();
    let builders: Vec<&str> = builders.split_whitespace().collect();
    assert_eq!(builders.len(), 2, "{builders:?}");
    // SIGTERM, as a service manager or `kill` sends it (SIGINT goes the same way).
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let stopped = eventually("bt web stopped", || child.try_wait().unwrap().is_some());
    if !stopped {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let said = said();
    assert!(stopped, "bt web ran on after SIGTERM: {said}");
    assert_eq!(status.code(), Some(1), "{status:?}: {said}");
    assert!(said.contains("interrupted"), "{said}");
    assert_eq!(said.trim_end().lines().count(), 1, "{said}");
    // The build stopped with it, the compiler included: nothing runs on for minutes.
    assert!(
        eventually("the build's processes ended", || {
            builders.iter().all(|pid| !running(pid))
        }),
        "{builders:?} still running"
    );
    assert!(!left.exists(), "the staging folder a killed bt web left");
    assert!(!site.exists());
    let staging: Vec<String> = support::names(dir.path())
        .into_iter()
        .filter(|name| name.starts_with(".site."))
        .collect();
    assert!(staging.is_empty(), "{staging:?}");
}

/// Runs cargo in a cart's folder in the profile this test was built in, so the cart reuses the
/// libraries already compiled for BT.
fn cargo_in(dir: &Path, args: &[&str], timeout: Duration) -> std::process::Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(dir).arg(args[0]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    cmd.args(&args[1..]).env_remove("CARGO_TARGET_DIR");
    output_within(&mut cmd, timeout)
}

/// `bt new NAME --path PARENT` (made if missing), and the cart's folder.
fn new_cart(parent: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(parent).unwrap();
    // The shared build folder `bt new` seeds goes where the other tests of `bt new` keep
    // theirs, in this test build's folder, not the user's cache.
    let out = output_within(
        bt_command().args(["new", name, "--path"]).arg(parent).env(
            "XDG_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("bt-cache"),
        ),
        Duration::from_secs(600),
    );
    assert!(out.status.success(), "bt new: {}", stderr(&out));
    parent.join(name)
}

#[test]
fn a_cart_bt_new_made_is_the_same_game_in_a_page_from_its_own_folder() {
    let chromium = match browser() {
        Ok(c) => c,
        Err(why) => return unavailable(&why),
    };
    let parent = ScratchDir::new("web-new");
    let cart = new_cart(parent.path(), "web-starter");
    let site = cart.join("site");
    // The command the docs give, in the cart's folder, on the untouched starter.
    let out = cargo_in(
        &cart,
        &["run", "--quiet", "--", "web", "-o", "site"],
        Duration::from_secs(1800),
    );
    let said = stderr(&out);
    if said.contains("no Rust toolchain here builds for wasm32") {
        return unavailable(said.trim());
    }
    assert!(out.status.success(), "web in a bt new cart: {said}");
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        page.contains("<title>Web Starter</title>"),
        "cart.toml's title: {page}"
    );

    // cart.toml reached the page: its 240x160 display, seed and palette, and the sheet from
    // assets/ in the slots after the PICO-8 colours, all as `shot` draws natively.
    let out = cargo_in(
        &cart,
        &[
            "run",
            "--quiet",
            "--",
            "shot",
            "--at",
            "2",
            "-o",
            "native.png",
        ],
        Duration::from_secs(600),
    );
    assert!(out.status.success(), "shot: {}", stderr(&out));
    let (w, h, native) = png_rgba(&std::fs::read(cart.join("native.png")).unwrap());
    assert_eq!((w, h), (240, 160));
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [w, h]},
            {"open": "index.html?at=2"},
            {"bytes": "window.bt.pixels()", "as": "u8"},
        ]),
    );
    let canvas = bytes(&results[2]);
    assert_eq!(
        canvas.len(),
        native.len(),
        "the page's display is cart.toml's"
    );
    assert_eq!(
        first_difference(&canvas, &native, w),
        None,
        "the starter's page at 2 s differs from its shot"
    );

    // Played with keys, the page's replay verifies natively, with cart.toml's version.
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [960, 640]},
            {"open": "index.html"},
            {"wait_for": "window.bt.frames > 20"},
            {"key": "ArrowRight", "down": true},
            {"wait_ms": 300},
            {"key": "ArrowRight", "down": false},
            {"key": "KeyZ", "down": true},
            {"wait_ms": 100},
            {"key": "KeyZ", "down": false},
            {"wait_for": "window.bt.ticks() > 80"},
            {"eval": "window.bt.replay()"},
        ]),
    );
    let replay = results[10].as_str().expect("the replay's text");
    let parsed: Value = serde_json::from_str(replay).expect("the replay is JSON");
    assert_eq!(
        parsed["cart_version"], "0.1.0",
        "cart.toml's version: {parsed}"
    );
    std::fs::write(cart.join("page.btr"), replay).unwrap();
    let out = cargo_in(
        &cart,
        &["run", "--quiet", "--", "replay", "page.btr", "--verify"],
        Duration::from_secs(600),
    );
    assert!(
        out.status.success(),
        "the page's replay verifies natively: {}{}",
        stdout(&out),
        stderr(&out)
    );

    // assets/sounds.txt reached the page too: the run's Z (before tick 80) played the paint
    // sound, and the page's first two seconds of that replay are `wav`'s, sample for sample.
    std::fs::write(site.join("page.btr"), replay).unwrap();
    let out = cargo_in(
        &cart,
        &[
            "run",
            "--quiet",
            "--",
            "wav",
            "--input",
            "page.btr",
            "--seconds",
            "2",
            "-o",
            "page.wav",
        ],
        Duration::from_secs(600),
    );
    assert!(out.status.success(), "wav: {}", stderr(&out));
    let native: Vec<u8> = std::fs::read(cart.join("page.wav")).unwrap()[44..].to_vec();
    let results = drive(
        &chromium,
        &site,
        json!([
            {"open": "index.html?replay=page.btr&wav=2"},
            {"bytes": "window.bt.wav()", "as": "i16"},
        ]),
    );
    let page = bytes(&results[1]);
    assert_eq!(page.len(), native.len(), "two seconds, two sides");
    assert!(
        native.chunks_exact(2).any(|s| s != [0, 0]),
        "Z played the starter's sound"
    );
    assert!(page == native, "the page's sound of the run is wav's");
}

#[test]
fn the_page_shows_the_output_picture_with_the_carts_effects() {
    // The crt cart's scene under the TV preset (on from 2 s): the page runs the same
    // post-process stack, so its canvas holds the output picture `bt shot --size output`
    // writes, byte for byte.
    let Some((chromium, site)) = ready("crt") else {
        return;
    };
    let (w, h, native) = native_shot("crt", "2.5", &["--size", "output"]);
    assert_eq!((w, h), (1280, 960));
    let results = drive(
        &chromium,
        &site,
        json!([
            {"viewport": [w, h]},
            {"open": "index.html?at=2.5"},
            {"bytes": "window.bt.pixels()", "as": "u8"},
            {"screenshot": true},
        ]),
    );
    let canvas = bytes(&results[2]);
    assert_eq!(canvas.len(), native.len(), "the canvas is {w}x{h}");
    assert_eq!(
        first_difference(&canvas, &native, w),
        None,
        "the page's canvas differs from bt shot --size output"
    );
    let (sw, sh, shot) = png_rgba(&base64(results[3].as_str().unwrap()));
    assert_eq!((sw, sh), (w, h), "the screenshot is the viewport");
    assert_eq!(
        first_difference(&shot, &native, w),
        None,
        "the page's screenshot differs from bt shot --size output"
    );
}

#[test]
fn a_second_carts_first_page_compiles_only_that_cart_with_the_libraries_already_built() {
    let parent = ScratchDir::new("web-shared");
    // Two carts of one name in two folders: each page compiles its own cart, and everything
    // else (the standard library, BT's crates) the first page compiled serves the second.
    let first = new_cart(&parent.join("a"), "web-twin");
    let second = new_cart(&parent.join("b"), "web-twin");
    let page = |cart: &Path| {
        cargo_in(
            cart,
            &["run", "--quiet", "--", "web", "-o", "site"],
            Duration::from_secs(1800),
        )
    };
    let out = page(&first);
    let said = stderr(&out);
    if said.contains("no Rust toolchain here builds for wasm32") {
        return unavailable(said.trim());
    }
    assert!(out.status.success(), "web in the first cart: {said}");
    let out = page(&second);
    let said = stderr(&out);
    assert!(out.status.success(), "web in the second cart: {said}");
    let compiled: Vec<&str> = said
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("Compiling "))
        .collect();
    assert!(
        compiled
            .iter()
            .any(|l| l.starts_with("Compiling web-twin ")),
        "the second cart is its own crate, not the first's: {said}"
    );
    assert!(
        compiled.iter().all(|l| l.starts_with("Compiling web-twin ")
            || l.starts_with("Compiling bt-page-web-twin ")),
        "the second cart's page compiled more than the cart and the page: {compiled:#?}"
    );
}

#[test]
fn web_watch_builds_the_page_again_after_a_change_to_the_carts_code() {
    let parent = ScratchDir::new("web-watch");
    let cart = new_cart(parent.path(), "web-watch");
    let out = cargo_in(&cart, &["build", "--quiet"], Duration::from_secs(600));
    assert!(out.status.success(), "build: {}", stderr(&out));
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let program = cart.join("target").join(profile).join("web-watch");
    let site = cart.join("site");
    let said = parent.join("said");
    let mut child = Command::new(&program)
        .current_dir(&cart)
        .args(["web", "--watch", "-o", "site"])
        // Into files, not pipes: nothing here reads them while it runs.
        .stdout(std::fs::File::create(parent.join("out")).unwrap())
        .stderr(std::fs::File::create(&said).unwrap())
        .spawn()
        .unwrap();
    let said = || std::fs::read_to_string(&said).unwrap_or_default();
    let stop = |child: &mut std::process::Child| {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let stopped = eventually("bt web --watch stopped", || {
            child.try_wait().unwrap().is_some()
        });
        if !stopped {
            let _ = child.kill();
            let _ = child.wait();
        }
        stopped
    };
    let build_id = site.join("bt-build-id");
    let mut ended = None;
    let built = eventually_within("the first page", Duration::from_secs(1800), || {
        ended = ended.or(child.try_wait().unwrap());
        build_id.exists() || ended.is_some()
    });
    if ended.is_some() && said().contains("no Rust toolchain here builds for wasm32") {
        return unavailable(said().trim());
    }
    if !built || ended.is_some() {
        stop(&mut child);
        panic!("bt web --watch made no page: {}", said());
    }
    assert_eq!(std::fs::read_to_string(&build_id).unwrap(), "1");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("bt-build-id"), "the page polls: {index}");
    let first = std::fs::read(site.join("web-watch.wasm")).unwrap();

    // A one-line change to the cart's code, saved.
    let lib = cart.join("src/lib.rs");
    let code = std::fs::read_to_string(&lib).unwrap();
    assert!(code.contains("ctx.clear(1);"), "{code}");
    std::fs::write(&lib, code.replacen("ctx.clear(1);", "ctx.clear(2);", 1)).unwrap();
    let rebuilt = eventually_within("the page built again", Duration::from_secs(600), || {
        std::fs::read_to_string(&build_id).is_ok_and(|id| id == "2")
    });
    let stopped = stop(&mut child);
    assert!(rebuilt, "no second build: {}", said());
    let second = std::fs::read(site.join("web-watch.wasm")).unwrap();
    assert_ne!(first, second, "the second module holds the change");
    assert!(stopped, "bt web --watch ran on after SIGTERM: {}", said());
}
