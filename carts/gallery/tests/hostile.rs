//! BT used as a hostile or careless user would: one test per case that once failed, each named
//! for what must hold. The table is the list to start from when trying BT the same way again;
//! a case fixed elsewhere names the test that covers it.
//!
//! | case | what must hold | test |
//! | --- | --- | --- |
//! | a cart panics in `update` under a recording | the replay holds the panicking update's input and says it ended in a panic; replaying reproduces it; `bt replay --verify` fails naming it | [`a_panic_is_recorded_with_its_input_and_replays`], [`replay_verify_reports_a_reproduced_panic`] |
//! | `bt verify` of a cart that panics | the cart-panic line, naming the clock | [`verify_names_a_cart_panic_with_its_clock`] |
//! | a replay's hash beyond its ticks | refused when the file loads; only hashes compared are counted | [`a_hash_no_run_can_reach_is_refused`] |
//! | a FIFO as `cart.toml`, user config, palette, key map, sprite sheet, sound file, replay | refused at once, naming the file, never waited on | [`no_reader_waits_on_a_fifo`], [`commands_refuse_a_fifo_at_once`] |
//! | a sprite sheet or sound file linked to `/dev/zero`, or huge | refused before it is read | [`an_asset_that_is_a_device_or_huge_is_refused_unread`] |
//! | every loader (cart.toml, user config, palettes, key maps, replays, save files, captures, golden pictures, an exported game's files and game file, `.p8` and `.pyxres` import, images, sound files, sound clips, data files, maps and tilesets, BDF and sheet fonts) given a FIFO, `/dev/zero`, a link out of its folder, a terabyte | refused at once, unread, in one line: `<what> PATH: could not read it: <why>`; a new direct open fails `no_file_is_opened_for_reading_outside_the_gate` (`config::read`) | [`every_loader_refuses_what_it_must_never_read`] |
//! | `bt verify --seconds` very long | memory the same whatever the length; a cap, named | [`verify_memory_does_not_grow_with_its_length`], [`verify_past_its_cap_is_refused_naming_seconds`] |
//! | `bt wav --seconds 3600 --rate 192000` | samples streamed to the file: memory the same for any length | [`a_long_wav_is_streamed_in_constant_memory`] |
//! | a replay with `pointer_wheel` 1e30 or an axis past 1 | refused when it loads; `paint` counts wheel lines at once | [`absurd_replay_values_and_misleading_messages_are_refused_by_name`], `paint`'s `any_wheel_value_resizes_the_brush_at_once` |
//! | a `/dev/zero` replay, a replay past 10 M updates, `seed` past TOML's integers, `--every NaN` | each message names the file or field and what is wrong | [`absurd_replay_values_and_misleading_messages_are_refused_by_name`], `numbers_are_range_checked` (manifest), `bad_ranges_are_refused_naming_the_flag_and_value_before_any_work` (frames), `a_number_out_of_range_is_a_usage_error_naming_the_range` (cli) |
//! | `bt new fn` (`self`, `std`, `bt`, `build`...) | refused with the reason | `names_no_crate_can_have_are_refused_with_the_reason` (`cli::new`) |
//! | `bt new NAME` over a `.NAME.bt-new-PID` folder someone left | that folder kept | `a_staging_folder_someone_left_is_never_removed` (`cli::new`) |
//! | the `bt new` starter on a 1 x 1 display, or with no palette line | it runs and shoots | `a_new_cart_builds_shoots_and_passes_its_tests` (new_cart) |
//! | `bt attach` in a folder with no `Cargo.toml`, bad TOML, no `workspace = ".bt"`, or a `.bt` that is a file | refused naming the file and why; the file kept | `attach_refuses_a_folder_that_is_not_a_cart_by_name` (`cli::new`) |
//! | `cargo clean` in a cart's folder | BT's build untouched; the shared build folder kept; only the cart's `target/` and link go | `cargo_clean_in_a_cart_leaves_bts_build_and_the_shared_folder` (new_cart) |
//! | `bt run` of an 8192-wide display at scale 8 | the scale lowered to a window of at most 8192 a side, said on stderr | `a_window_never_asks_for_more_than_the_platform_takes` (`host::window`) |
//! | `bt run --gif-buffer` on an 8192x2048 display | the ring sized to 256 MiB, fewer seconds said on stderr | `the_ring_fits_its_memory_budget_at_any_display_size` (`host::gif_recorder`) |
//! | `bt run` with one file named twice (`--record`, `--frame-log`, `--trace-out`), by any path | refused before a window opens, as `bt diagnose` refuses it | [`run_refuses_one_file_named_twice_before_a_window_opens`] |
//! | `bt run --input s.btr --record s.btr` | refused before a window opens; the replay kept | [`run_refuses_to_record_over_the_replay_it_plays`] |
//! | `bt run --record` at a bad path (a missing or read-only folder, a folder, a device, `-`, a name not ending `.btr`) | refused before a window opens, not when it closes | [`run_checks_its_record_path_before_a_window_opens`] |
//! | `bt dev` with a bad `--record` path, or a cart that is not there; with no display | refused before a build or a window, the value named; with no display, `bt dev` fails with its program | [`dev_checks_its_cart_and_record_path_before_anything_runs`] |
//! | `bt frames -o DIR` over another user's empty folder of mode 700 | its mode and owner kept | [`frames_over_an_empty_folder_keep_its_mode_and_owner`] |
//! | a cart's `f32::clamp` with its bounds swapped panics "in" the standard library | the place is the cart's code that called it (the cart API itself panics on no argument) | `a_panic_inside_the_standard_library_is_placed_in_its_caller` (`engine::cart_panic`) |
//! | a sound file with a 1 MB word, ESC or NUL in a word, a newline in its name, a BOM, `C+4`, `sq+50` | one short escaped line naming file, line and field; the BOM skipped as `cart.toml`'s is; malformed notes and waves refused with the reason | [`sound_file_messages_are_one_short_escaped_line_and_malformed_notes_are_refused`] |
//! | `bt trace --format chrome`, `bt diagnose --report` or `--chart tall` of a long run | at most `KEPT_BYTES_PER_FRAME` (96) bytes a frame, summary, trace and report included (was some 190) | [`a_whole_run_timeline_takes_its_stated_bytes_a_frame`] |
//! | `bt trace --format summary`, `bt diagnose` with neither, of 2,000,000 frames | at most `SUMMARY_BYTES_PER_FRAME` (24) bytes a frame, the summary included (was about 115) | [`a_run_kept_for_its_summary_takes_its_stated_bytes_a_frame`] |
//! | `bt verify --seconds 5` of a cart that quits at update 60 | says the cart quit and verifies the 60 updates that ran; exit 0 when the clocks agree | [`verify_of_a_cart_that_quits_verifies_the_updates_that_ran`] |
//! | a replay file of millions of one-tick runs | memory a few times the file's size, loaded and played | [`a_replay_of_many_short_runs_takes_memory_like_its_file`] |

mod support;

use std::sync::Arc;

use bt::Key;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Host, HostEvent};
use bt_runtime::replay::{Replay, DEFAULT_HASH_EVERY};
use bt_runtime::{ConstantClock, Engine, EngineError, EngineOptions};
use bt_test_support::ScratchDir;
use support::{
    bt, bt_command, is_measured_child, output_within, peak_rss_kib_of, report_peak_rss, stderr,
    stdout,
};

/// A cart that panics in the update that sees Space pressed.
struct PanicsOnSpace;

impl bt::Cart for PanicsOnSpace {
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        assert!(!ctx.is_key_pressed(Key::Space), "space was pressed");
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear(1);
    }
}

fn panics_on_space(replay: Option<Arc<Replay>>) -> Engine {
    let options = EngineOptions {
        overlay: false,
        replay,
        ..EngineOptions::default()
    };
    Engine::new(
        Box::new(|| Box::new(PanicsOnSpace) as Box<dyn bt::Cart>),
        options,
    )
    .unwrap()
}

#[test]
fn a_panic_is_recorded_with_its_input_and_replays() {
    let dir = ScratchDir::new("hostile-panic");
    let path = dir.join("crash.btr");
    let mut host = Host::new(panics_on_space(None), KeyMap::default(), "space");
    host.record_to(path.clone(), None);
    host.engine_mut()
        .set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    for f in 0..200 {
        if f == 100 {
            host.handle(HostEvent::Key {
                key: Key::Space,
                down: true,
            });
        }
        host.frame(f64::from(f) * 1000.0 / 60.0);
    }
    let live = host
        .engine()
        .cart_panic()
        .cloned()
        .expect("the cart panicked");
    let updates = host.engine().updates_since_init();
    // The host handed the recording over when it caught the panic; the window writes it.
    for file in host.take_outbox() {
        bt_runtime::host::outbox::replace(&file).unwrap();
    }

    let replay = Arc::new(Replay::load(&path).expect("saved when the panic was caught"));
    // The update that panicked is in the file, with the press that made it panic.
    assert_eq!(replay.ticks(), updates);
    let last = replay.recording().iter().last().unwrap();
    assert_ne!(last.keys_pressed, 0, "the press that panicked was recorded");
    let recorded = replay
        .panic()
        .expect("the file says the run ended in a panic");
    assert!(recorded.matches(&live, updates), "{recorded}");
    assert!(recorded.message.contains("space was pressed"), "{recorded}");

    // Playing it reproduces the panic at the same update, with the same message.
    let mut again = panics_on_space(Some(replay.clone()));
    match again.step(replay.ticks()) {
        Err(EngineError::Panicked(p)) => assert_eq!(p, live),
        other => panic!("the replay did not reproduce the panic: {other:?}"),
    }
    assert_eq!(again.updates_since_init(), updates);
}

/// The bundled `panic` cart, recorded headless until it panics in the update at tick 100.
fn recorded_panic(dir: &ScratchDir) -> std::path::PathBuf {
    let cart = bt_gallery::find("panic").unwrap();
    let args = vec![("panic_at".to_string(), "100".to_string())];
    let options = EngineOptions {
        overlay: false,
        args,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    e.start_recording(DEFAULT_HASH_EVERY);
    assert!(e.step(500).is_err(), "the cart panics");
    let path = dir.join("panic.btr");
    e.recording("panic", None).unwrap().save(&path).unwrap();
    path
}

#[test]
fn replay_verify_reports_a_reproduced_panic() {
    let dir = ScratchDir::new("hostile-panic-verify");
    let path = recorded_panic(&dir);
    let o = bt(&["replay", "panic", path.to_str().unwrap(), "--verify"]);
    let err = stderr(&o);
    assert!(
        !o.status.success(),
        "a replay ending in a panic fails: {err}"
    );
    assert!(err.contains("reproduces it"), "{err}");
    assert!(
        err.contains("cart panicked in update at tick 100 (update 101): asked to panic in update"),
        "{err}"
    );
    assert!(err.contains("carts/gallery/src/panic.rs:"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A replay that says it ended in a panic, of a build that does not panic there, fails too.
    let replay = Replay::load(&path).unwrap();
    let text = replay
        .to_json()
        .replace("\"panic_at\",\"100\"", "\"panic_at\",\"900\"");
    let calm = dir.join("calm.btr");
    std::fs::write(&calm, text).unwrap();
    let o = bt(&["replay", "panic", calm.to_str().unwrap(), "--verify"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("did not panic"), "{}", stderr(&o));
}

#[test]
fn verify_names_a_cart_panic_with_its_clock() {
    let o = bt(&[
        "verify",
        "panic",
        "--arg",
        "panic_in=update",
        "--arg",
        "panic_at=100",
        "--seconds",
        "3",
        "--threads",
        "1",
    ]);
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains(
            "cart 'panic': under constant:16.667: cart panicked in update at tick 100: \
             asked to panic in update at tick 100 (carts/gallery/src/panic.rs:"
        ),
        "{err}"
    );
    assert!(!err.contains("host ticks"), "{err}");
    assert!(stdout(&o).is_empty() || !stdout(&o).contains("every clock"));
}

#[test]
fn a_hash_no_run_can_reach_is_refused() {
    let info = bt_runtime::replay::ReplayInfo {
        cart: "hello".to_string(),
        cart_version: None,
        seed: 0,
        target_fps: 60.0,
        width: 160,
        height: 120,
        args: Vec::new(),
        hash_every: 60,
        reduced_motion: false,
    };
    let mut rec = bt_runtime::replay::Recorder::new();
    for _ in 0..650 {
        rec.record(&bt::host::TickInput::default());
    }
    let p = std::path::Path::new("far.btr");
    let far = Replay::new(info.clone(), rec, vec![(60, 1), (1_000_000_000, 2)]);
    let e = Replay::from_json(&far.to_json(), p)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("far.btr") && e.contains("tick 1000000000"),
        "{e}"
    );
    let empty = Replay::new(info, bt_runtime::replay::Recorder::new(), vec![(60, 1)]);
    let e = Replay::from_json(&empty.to_json(), p)
        .unwrap_err()
        .to_string();
    assert!(e.contains("0 updates"), "{e}");
}

/// Runs `read` on a thread of its own and waits a little for it: a reader that blocks (on a
/// FIFO with no writer) fails the test instead of hanging it. The wait is a guard against a
/// hang, not a measure: a reader that refuses the file returns in microseconds.
fn within_a_while<T: Send + 'static>(what: &str, read: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(read());
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what} blocked on a FIFO"))
}

#[cfg(unix)]
fn fifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn no_reader_waits_on_a_fifo() {
    use bt::host::ImageLoader;
    use bt_runtime::config::assets::{Assets, Paths};
    use bt_runtime::config::manifest::{self, PaletteSource};
    use bt_runtime::host::keymap::KeyMap;

    let dir = ScratchDir::new("hostile-fifo");
    let cart = dir.join("cart");
    std::fs::create_dir_all(&cart).unwrap();
    fifo(&cart.join("cart.toml"));
    for name in [
        "config.toml",
        "pal.hex",
        "pal.png",
        "keys.toml",
        "sheet.png",
        "tune.bt-sound",
        "run.btr",
    ] {
        fifo(&dir.join(name));
    }
    let at = |name: &str| dir.join(name);
    let errors: Vec<(&str, String)> = vec![
        ("cart.toml", {
            let c = cart.clone();
            within_a_while("cart.toml", move || {
                manifest::load(&c).unwrap_err().to_string()
            })
        }),
        ("config.toml", {
            let p = at("config.toml");
            within_a_while("user config", move || {
                manifest::load_user_config(&p).unwrap_err().to_string()
            })
        }),
        ("pal.hex", {
            let p = at("pal.hex");
            within_a_while("palette", move || {
                manifest::load_palette(&PaletteSource::File(p))
                    .unwrap_err()
                    .to_string()
            })
        }),
        ("pal.png", {
            let p = at("pal.png");
            within_a_while("palette", move || {
                manifest::load_palette(&PaletteSource::File(p))
                    .unwrap_err()
                    .to_string()
            })
        }),
        ("keys.toml", {
            let p = at("keys.toml");
            within_a_while("key map", move || KeyMap::load(&p).unwrap_err().to_string())
        }),
        ("sheet.png", {
            let p = at("sheet.png").to_str().unwrap().to_string();
            within_a_while("sprite sheet", move || {
                Assets(Paths).load(&p).unwrap_err().to_string()
            })
        }),
        ("tune.bt-sound", {
            let p = at("tune.bt-sound").to_str().unwrap().to_string();
            within_a_while("sound file", move || {
                Assets(Paths).read(&p).unwrap_err().to_string()
            })
        }),
        ("run.btr", {
            let p = at("run.btr");
            within_a_while("replay", move || Replay::load(&p).unwrap_err().to_string())
        }),
    ];
    for (name, e) in errors {
        assert!(e.contains(name), "names the file: {e}");
        assert!(e.contains("a FIFO, not a regular file"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[cfg(unix)]
#[test]
fn commands_refuse_a_fifo_at_once() {
    let dir = ScratchDir::new("hostile-fifo-cli");
    let pipe = dir.join("pipe.btr");
    fifo(&pipe);
    let png = dir.join("x.png");
    let limit = std::time::Duration::from_secs(60);
    let input = output_within(
        bt_command()
            .args(["shot", "hello", "--at", "1", "--input"])
            .arg(&pipe)
            .arg("-o")
            .arg(&png),
        limit,
    );
    assert!(!input.status.success());
    assert!(
        stderr(&input).contains("pipe.btr: could not read it: a FIFO, not a regular file"),
        "{}",
        stderr(&input)
    );
    // Every loader says it the same way: what the file is, its path, then why.
    let said = |o: &std::process::Output| stderr(o).trim_end().to_string();
    let pipe_is = "could not read it: a FIFO, not a regular file";
    let save = output_within(
        bt_command()
            .args(["shot", "hello", "--at", "1", "--save"])
            .arg(&pipe)
            .arg("-o")
            .arg(&png),
        limit,
    );
    assert_eq!(
        said(&save),
        format!("bt: error: save file {}: {pipe_is}", pipe.display())
    );
    let capture = output_within(
        bt_command()
            .args(["trace", "hello", "--clock"])
            .arg(format!("capture:{}", pipe.display())),
        limit,
    );
    assert_eq!(
        said(&capture),
        format!("bt: error: capture {}: {pipe_is}", pipe.display())
    );
    assert_eq!(
        said(&input),
        format!("bt: error: replay {}: {pipe_is}", pipe.display())
    );
    let keys = output_within(bt_command().args(["keys", "--keys"]).arg(&pipe), limit);
    assert_eq!(
        said(&keys),
        format!("bt: error: key map {}: {pipe_is}", pipe.display())
    );
    assert!(!keys.status.success());
    assert!(
        stderr(&keys).contains("a FIFO, not a regular file"),
        "{}",
        stderr(&keys)
    );
    let config = dir.join("xdg");
    std::fs::create_dir_all(config.join("bt")).unwrap();
    fifo(&config.join("bt/config.toml"));
    let user = output_within(
        bt_command()
            .env("XDG_CONFIG_HOME", &config)
            .args(["shot", "hello", "--at", "1", "-o"])
            .arg(&png),
        limit,
    );
    assert!(!user.status.success());
    assert!(
        stderr(&user).contains("config.toml: could not read it: a FIFO"),
        "{}",
        stderr(&user)
    );
    assert!(!png.exists());
}

#[cfg(unix)]
#[test]
fn an_asset_that_is_a_device_or_huge_is_refused_unread() {
    use bt::host::ImageLoader;
    use bt_runtime::config::assets::{Assets, Paths};
    use bt_runtime::config::png_loader::MAX_ASSET_BYTES;
    let dir = ScratchDir::new("hostile-zero");
    let sheet = dir.join("sheet.png");
    let tune = dir.join("tune.bt-sound");
    std::os::unix::fs::symlink("/dev/zero", &sheet).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &tune).unwrap();
    let e = Assets(Paths)
        .load(sheet.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("sheet.png: ") && e.contains("a character device, not a regular file"),
        "{e}"
    );
    let e = Assets(Paths)
        .read(tune.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tune.bt-sound: ") && e.contains("a character device"),
        "{e}"
    );
    // Sparse: a size past the cap, no disk used; refused from its size, unread.
    let huge = dir.join("huge.png");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(MAX_ASSET_BYTES + 1)
        .unwrap();
    let e = Assets(Paths)
        .load(huge.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("huge.png: ") && e.contains("over the limit of 83886080 bytes"),
        "{e}"
    );
}

/// A cart on an 8 x 8 display that reads its input: the cheapest run a verify can make.
struct Tiny(u64);

impl bt::Cart for Tiny {
    fn configure(&self) -> bt::Settings {
        bt::Settings::default().display(8, 8)
    }
    fn update(&mut self, ctx: &mut bt::Update<'_>) {
        if ctx.is_down(bt::Button::A, bt::Player::ONE) {
            self.0 += 1;
        }
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear((self.0 % 16) as u8);
    }
}

/// Peak resident memory a test's child may reach, whatever it does: the test binary itself
/// with its carts, the thread stacks and the allocator's arenas took 4.4 MiB.
const BASELINE_KIB: u64 = 16 * 1024;

#[test]
fn verify_memory_does_not_grow_with_its_length() {
    use bt_runtime::verify;
    const UPDATES: u64 = 150_000;
    if is_measured_child() {
        let replay = Arc::new(bt_runtime::replay::script_replay("tiny", 3, 60.0, UPDATES));
        let make = move || -> Result<Engine, String> {
            let options = EngineOptions {
                overlay: false,
                seed: Some(3),
                replay: Some(replay.clone()),
                ..EngineOptions::default()
            };
            Engine::new(Box::new(|| Box::new(Tiny(0)) as Box<dyn bt::Cart>), options)
                .map_err(|e| e.to_string())
        };
        let cases = verify::standard_clocks(60.0);
        let verdict = verify::verify(&make, UPDATES, &cases, 2).unwrap();
        assert_eq!(verdict.divergence, None);
        report_peak_rss();
        return;
    }
    // Storing the script and every hash, this took about 40 MiB, growing with the length
    // (10 million updates would take gigabytes). Now it is the same for any length.
    let kib = peak_rss_kib_of("verify_memory_does_not_grow_with_its_length");
    assert!(kib < BASELINE_KIB, "{kib} KiB");
}

#[test]
fn verify_past_its_cap_is_refused_naming_seconds() {
    let o = bt(&["verify", "hello", "--seconds", "10000000000"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains(
            "--seconds 10000000000: 600000000000 updates; bt verify runs at most \
                      10000000 under each clock"
        ),
        "{err}"
    );
}

#[test]
fn a_replay_of_many_short_runs_takes_memory_like_its_file() {
    const RUNS: u64 = 300_000;
    let dir = std::env::temp_dir().join(format!("bt-hostile-short-runs-{}", std::process::id()));
    let path = dir.join("short.btr");
    if is_measured_child() {
        let path = std::path::PathBuf::from(std::env::var("BT_TEST_REPLAY").unwrap());
        let replay = Arc::new(Replay::load(&path).unwrap());
        assert_eq!(replay.ticks(), RUNS);
        assert_eq!(replay.recording().runs() as u64, RUNS);
        let options = EngineOptions {
            overlay: false,
            replay: Some(replay.clone()),
            ..EngineOptions::default()
        };
        let mut e =
            Engine::new(Box::new(|| Box::new(Tiny(0)) as Box<dyn bt::Cart>), options).unwrap();
        e.step(RUNS).unwrap();
        assert_eq!(e.updates_since_init(), RUNS);
        report_peak_rss();
        return;
    }
    // 300,000 one-tick runs, each a different pointer position: about 30 bytes a run.
    let mut text = String::from(
        "{\"format\":\"bt-replay\",\"version\":1,\"cart\":\"tiny\",\"seed\":0,\
         \"target_fps\":60.0,\"width\":8,\"height\":8,\"args\":[],\"hash_every\":60,",
    );
    text.push_str(&format!("\"ticks\":{RUNS},\"inputs\":["));
    for i in 0..RUNS {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            "{{\"n\":1,\"pointer_pos\":[{},{}]}}",
            i % 1000,
            i / 1000
        ));
    }
    text.push_str("],\"hashes\":[]}");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&path, &text).unwrap();
    let file_kib = text.len() as u64 / 1024;
    drop(text);
    std::env::set_var("BT_TEST_REPLAY", &path);
    let kib = peak_rss_kib_of("a_replay_of_many_short_runs_takes_memory_like_its_file");
    let _ = std::fs::remove_dir_all(&dir);
    // Each run held as a whole tick took over 600 bytes in memory, 20 times the file.
    assert!(
        kib < BASELINE_KIB + 3 * file_kib,
        "{kib} KiB for a {file_kib} KiB file"
    );
}

#[test]
fn a_long_wav_is_streamed_in_constant_memory() {
    const SECONDS: f64 = 60.0;
    const RATE: u32 = 192_000;
    if is_measured_child() {
        let cart = bt_gallery::find("jukebox").unwrap();
        let options = EngineOptions {
            overlay: false,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(Box::new(cart.build), options).unwrap();
        e.console_mut().set_sample_rate(RATE);
        let mut sink = std::io::sink();
        let written = bt_runtime::export::wav::stream_wav(
            &mut e,
            0.0,
            SECONDS,
            None,
            bt_runtime::export::wav::WavChannels::Stereo,
            &mut sink,
            |_, _| {},
        )
        .unwrap();
        assert_eq!(written, 44 + 4 * (SECONDS as u64) * u64::from(RATE));
        report_peak_rss();
        return;
    }
    // Held whole, the samples and then the encoded file took 6 bytes a sample: 69 MB here,
    // 4 GB for an hour. Streamed, the length does not matter.
    let kib = peak_rss_kib_of("a_long_wav_is_streamed_in_constant_memory");
    assert!(kib < BASELINE_KIB, "{kib} KiB");
}

/// A cart whose every picture is new noise, 128 × 128: a GIF of it hardly compresses, about
/// a byte a pixel, so its size grows as fast as a GIF can.
struct Noise(u64);

impl bt::Cart for Noise {
    fn configure(&self) -> bt::Settings {
        bt::Settings::default().display(128, 128)
    }
    fn update(&mut self, _ctx: &mut bt::Update<'_>) {
        self.0 += 1;
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        let mut x = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for y in 0..128 {
            for col in 0..128 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ctx.draw_pixel(col, y, (x % 16) as u8);
            }
        }
    }
}

#[test]
fn a_long_gif_is_streamed_in_constant_memory() {
    const SECONDS: f64 = 100.0;
    if is_measured_child() {
        let options = EngineOptions {
            overlay: false,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(
            Box::new(|| Box::new(Noise(0)) as Box<dyn bt::Cart>),
            options,
        )
        .unwrap();
        let mut sink = Counting(0);
        bt_runtime::export::gif::stream_gif_from_here(
            &mut e,
            SECONDS,
            1,
            bt_runtime::export::gif::Stepping::Seek,
            &mut sink,
            |_, _| {},
        )
        .unwrap();
        // 5,000 frames of 16 K pixels of noise, 10 KB each.
        assert!(sink.0 > 2 * BASELINE_KIB * 1024, "{} bytes", sink.0);
        report_peak_rss();
        return;
    }
    // Held whole until the end, the GIF took its own size in memory and more (740 MB for a
    // 748 MB file; about 50 MB here). Written frame by frame, the length does not matter.
    let kib = peak_rss_kib_of("a_long_gif_is_streamed_in_constant_memory");
    assert!(kib < BASELINE_KIB, "{kib} KiB");
}

#[test]
fn a_long_window_recording_is_written_as_it_goes_in_constant_memory() {
    use bt_runtime::host::gif_recorder::{GifCapture, Report};
    const FRAMES: u32 = 5_000;
    let dir = ScratchDir::new("hostile-f10");
    if is_measured_child() {
        let dir = std::path::PathBuf::from(std::env::var("BT_TEST_CAPTURES").unwrap());
        let saved = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = saved.clone();
        let report: Report = Arc::new(move |r| log.lock().unwrap().push(r));
        let mut capture = GifCapture::new(&dir, "noise", (128, 128), false, report);
        capture.set_wait_for_encoder(true);
        let palette = bt::Palette::pico8();
        let mut fb = bt::host::Framebuffer::new(128, 128);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut noise = |fb: &mut bt::host::Framebuffer| {
            for y in 0..128 {
                for col in 0..128 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    fb.draw_pixel(col, y, (x % 16) as u8);
                }
            }
        };
        noise(&mut fb);
        capture.toggle(0.0, &fb, &palette);
        for i in 1..=FRAMES {
            noise(&mut fb);
            capture.shown(f64::from(i) * 20.0, &fb, &palette);
        }
        let end = f64::from(FRAMES + 1) * 20.0;
        capture.toggle(end, &fb, &palette);
        capture.finish(end);
        let path = saved.lock().unwrap()[0].clone().unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size > 2 * BASELINE_KIB * 1024, "{size} bytes");
        report_peak_rss();
        return;
    }
    // F10 held the whole encoded GIF until F10 again: memory grew with every frame (about
    // 480 KB a second of a busy 320x240 window; 50 MB here), and a crash lost it all.
    std::env::set_var("BT_TEST_CAPTURES", dir.path());
    let kib = peak_rss_kib_of("a_long_window_recording_is_written_as_it_goes_in_constant_memory");
    assert!(kib < BASELINE_KIB, "{kib} KiB");
}

/// A writer that keeps nothing and counts what it is given.
struct Counting(u64);

impl std::io::Write for Counting {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn absurd_replay_values_and_misleading_messages_are_refused_by_name() {
    let dir = ScratchDir::new("hostile-values");
    let png = dir.join("x.png");
    let mut rec = bt_runtime::replay::Recorder::new();
    let mut tick = bt::host::TickInput::default();
    tick.pointer_wheel = (0.0, 1e30);
    rec.record(&tick);
    let info = bt_runtime::replay::ReplayInfo {
        cart: "paint".to_string(),
        cart_version: None,
        seed: 0,
        target_fps: 60.0,
        width: 160,
        height: 120,
        args: Vec::new(),
        hash_every: 60,
        reduced_motion: false,
    };
    let wheel = dir.join("wheel.btr");
    Replay::new(info.clone(), rec, Vec::new())
        .save(&wheel)
        .unwrap();
    let o = bt(&[
        "shot",
        "paint",
        "--at",
        "1",
        "-o",
        png.to_str().unwrap(),
        "--input",
        wheel.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("wheel.btr: corrupted replay: inputs[0]: pointer_wheel 1e30"),
        "{}",
        stderr(&o)
    );

    let o = bt(&[
        "shot",
        "hello",
        "--at",
        "1",
        "-o",
        png.to_str().unwrap(),
        "--input",
        "/dev/zero",
    ]);
    assert!(
        stderr(&o).contains("/dev/zero: could not read it: a character device, not a regular file"),
        "{}",
        stderr(&o)
    );

    let mut long = bt_runtime::replay::Recorder::new();
    for _ in 0..20_000_000u32 / 10_000_000 {
        long.record(&bt::host::TickInput::default());
    }
    let text = Replay::new(info, long, Vec::new())
        .to_json()
        .replace("\"ticks\":2,", "\"ticks\":20000000,")
        .replace("{\"n\":2}", "{\"n\":20000000}");
    let path = dir.join("long.btr");
    std::fs::write(&path, text).unwrap();
    let o = bt(&["replay", "paint", path.to_str().unwrap(), "--verify"]);
    assert!(
        stderr(&o)
            .contains("long.btr: a replay of 20000000 updates; --verify replays at most 10000000"),
        "{}",
        stderr(&o)
    );
}

/// A cart that loads the sound file named by its `file` argument in `init`.
struct LoadsSounds;

impl bt::Cart for LoadsSounds {
    fn init(&mut self, ctx: &mut bt::Update<'_>) -> Result<(), bt::CartError> {
        let file = ctx.arg("file").unwrap_or("tune.txt").to_string();
        ctx.load_sounds(&file)?;
        Ok(())
    }
    fn update(&mut self, _: &mut bt::Update<'_>) {}
    fn render(&self, _: &mut bt::Render<'_>) {}
}

/// What starting [`LoadsSounds`] on `text`, saved as `name` in a folder of its own, says.
fn sound_file_outcome(name: &str, text: &str) -> Result<(), String> {
    let dir = ScratchDir::new("hostile-sounds");
    std::fs::write(dir.join(name), text).unwrap();
    let options = EngineOptions {
        overlay: false,
        assets: Some(dir.path().to_path_buf()),
        args: vec![("file".to_string(), name.to_string())],
        ..EngineOptions::default()
    };
    Engine::new(
        Box::new(|| Box::new(LoadsSounds) as Box<dyn bt::Cart>),
        options,
    )
    .map(drop)
    .map_err(|e| e.to_string())
}

#[test]
fn sound_file_messages_are_one_short_escaped_line_and_malformed_notes_are_refused() {
    let huge = format!("bt-sound 2\nsfx a 6\nC4 sq {}\n", "9x".repeat(1 << 19));
    let cases: [(&str, String, &str); 5] = [
        ("tune.txt", huge, "volume: \"9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x\"… (1048576 characters) is not a volume"),
        ("tune.txt", "bt-sound 2\nsfx a 6\nC4 sq \u{1b}[2J\n".into(), "volume: \"\\u{1b}[2J\" is not a volume from 0 to 7"),
        ("tune.txt", "bt-sound 2\nsfx a 6\nC4 s\u{0}q 5\n".into(), "wave: \"s\\0q\" is not a wave"),
        ("tune.txt", "bt-sound 2\nsfx a 6\nC+4 sq 5\n".into(), "tune.txt:3: pitch: \"C+4\" needs an octave from 0 to 7"),
        ("tune.txt", "bt-sound 2\nsfx a 6\nC4 sq+50 5\n".into(), "tune.txt:3: wave: \"sq+50\" is not a wave"),
    ];
    for (name, text, expected) in &cases {
        let e = sound_file_outcome(name, text).unwrap_err();
        assert!(e.contains(expected), "{e}");
        assert!(
            !e.contains('\n') && !e.contains('\u{1b}') && !e.contains('\0'),
            "{e:?}"
        );
        assert!(e.len() < 300, "{} bytes: {}", e.len(), &e[..300]);
    }
    // A file whose name holds a newline: named on one line, escaped.
    let e = sound_file_outcome("a\nb.txt", "bt-sound 2\nsfx a 6\nC4 sq 9\n").unwrap_err();
    assert!(e.contains("a\\nb.txt:3: volume: 9 is above 7"), "{e:?}");
    assert!(!e.contains('\n'), "{e:?}");
    // A byte-order mark, as cart.toml takes one.
    let bom = "\u{feff}bt-sound 2\nsfx a 6\nC4 sq 5\n";
    assert_eq!(sound_file_outcome("tune.txt", bom), Ok(()));
}

/// `bt run` with `args`, with no desktop to open a window on: what must be refused is refused
/// before a window is asked for, so a run that got that far says it cannot open one.
fn run_without_a_desktop(args: &[&str]) -> std::process::Output {
    bt_command()
        .arg("run")
        .args(args)
        .args(["--exit-after", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("bt runs")
}

#[cfg(unix)]
#[test]
fn run_refuses_one_file_named_twice_before_a_window_opens() {
    let dir = ScratchDir::new("hostile-run-twice");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    std::fs::write(dir.join("kept.btr"), b"precious").unwrap();
    std::os::unix::fs::symlink("kept.btr", dir.join("link.json")).unwrap();
    std::fs::hard_link(dir.join("kept.btr"), dir.join("hard.csv")).unwrap();
    let (kept, link, hard, dotted) = (
        at("kept.btr"),
        at("link.json"),
        at("hard.csv"),
        at("./hard.csv"),
    );
    let cases = [
        (
            vec!["--record", &kept, "--trace-out", &link],
            "--record and --trace-out both name",
        ),
        (
            vec!["--record", &kept, "--frame-log", &hard],
            "--record and --frame-log both name",
        ),
        (
            vec!["--frame-log", &dotted, "--trace-out", &link],
            "--frame-log and --trace-out both name",
        ),
        (
            vec!["--frame-log", "-", "--trace-out", "-"],
            "--frame-log and --trace-out both name -",
        ),
    ];
    for (flags, needle) in cases {
        let mut args = vec!["hello"];
        args.extend(flags.iter().copied());
        let o = run_without_a_desktop(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(needle), "{flags:?}: {err}");
        assert!(err.contains("give each its own file"), "{flags:?}: {err}");
        assert!(!err.contains("window"), "{flags:?}: {err}");
    }
    assert_eq!(std::fs::read(dir.join("kept.btr")).unwrap(), b"precious");
}

#[test]
fn run_refuses_to_record_over_the_replay_it_plays() {
    let dir = ScratchDir::new("hostile-run-input-record");
    let cart = bt_gallery::find("hello").unwrap();
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    e.start_recording(DEFAULT_HASH_EVERY);
    e.step(650).unwrap();
    let path = dir.join("s.btr");
    e.recording("hello", None).unwrap().save(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let input = path.to_str().unwrap();
    let again = dir.join(".").join("s.btr");
    for record in [input, again.to_str().unwrap()] {
        let o = run_without_a_desktop(&["hello", "--input", input, "--record", record]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("the replay --input plays; record to another file"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "the replay is kept");
}

#[test]
fn run_checks_its_record_path_before_a_window_opens() {
    let dir = ScratchDir::new("hostile-run-record-path");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let cases = [
        // Only `.btr`: a replay is never written under a name another output takes.
        (at("run.json"), 2, "must end in .btr"),
        (at("run"), 2, "must end in .btr"),
        (at("missing/run.btr"), 1, "the folder"),
        (
            dir.path().to_str().unwrap().to_string(),
            1,
            "it is a folder",
        ),
        ("-".to_string(), 2, "not stdout, a device or a FIFO"),
        ("/dev/null".to_string(), 2, "not stdout, a device or a FIFO"),
        // A folder even root cannot make a file in.
        ("/proc/run.btr".to_string(), 1, "takes no new file"),
    ];
    for (record, code, needle) in cases {
        let o = run_without_a_desktop(&["hello", "--record", &record]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{record}: {err}");
        assert!(err.contains(needle), "{record}: {err}");
        assert!(err.contains(&record), "{record}: {err}");
        assert!(!err.contains("window"), "{record}: {err}");
    }
}

#[test]
fn dev_checks_its_cart_and_record_path_before_anything_runs() {
    let dir = ScratchDir::new("hostile-dev");
    let json = dir.join("run.json").to_str().unwrap().to_string();
    let cases: [(&[&str], i32, &str); 3] = [
        (&["hello", "--record", &json], 2, "must end in .btr"),
        (
            &["hello", "--record", "-"],
            2,
            "not stdout, a device or a FIFO",
        ),
        (&["snak"], 1, "no cart named 'snak'"),
    ];
    for (args, code, needle) in cases {
        let o = bt_command()
            .arg("dev")
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("bt runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("watching"), "nothing ran: {err}");
    }
    // With no display the cart's program fails, and `bt dev` with it, rather than waiting
    // for a save with no window to show it.
    let o = bt_command()
        .args(["dev", "hello", "--mute"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("bt runs");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot open a window"), "{err}");
    assert!(err.contains("the cart's program"), "{err}");
}

#[cfg(unix)]
#[test]
fn frames_over_an_empty_folder_keep_its_mode_and_owner() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = ScratchDir::new("hostile-frames-folder");
    let out = dir.join("moments");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o700)).unwrap();
    // Only root can give a folder to someone else: as anyone else the owner part is skipped.
    let root = std::fs::metadata(dir.path()).unwrap().uid() == 0;
    let other = 4321;
    if root {
        std::os::unix::fs::chown(&out, Some(other), Some(other)).unwrap();
    }
    let o = bt(&[
        "frames",
        "hello",
        "--to",
        "0.5",
        "--every",
        "0.25",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o700);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (other, other));
    }
    assert_eq!(support::names(&out).len(), 3);
}

#[test]
fn a_run_the_summary_keeps_whole_is_refused_past_its_cap_before_it_starts() {
    let over = (bt_runtime::timing::timeline::MAX_KEPT_FRAMES + 1).to_string();
    let dir = ScratchDir::new("hostile-kept");
    let png = dir.join("d.png");
    let runs: [(&[&str], &str); 3] = [
        (
            &["trace", "hello", "--format", "summary"],
            "bt trace --format summary",
        ),
        (
            &["trace", "hello", "--format", "chrome"],
            "bt trace --format chrome",
        ),
        (
            &["diagnose", "hello", "-q", "-o", png.to_str().unwrap()],
            "bt diagnose",
        ),
    ];
    for (args, what) in runs {
        // Run, this took minutes and some 2.4 GB before it said anything.
        let o = output_within(
            bt_command()
                .args(args)
                .args(["--clock", "constant:16.7", "--frames", &over]),
            std::time::Duration::from_secs(60),
        );
        assert_eq!(o.status.code(), Some(2), "{what}");
        let e = stderr(&o);
        assert_eq!(
            e.lines().next().unwrap(),
            format!(
                "error: --frames {over}: {what} keeps every frame for its exact figures, at \
                 most 16777216 (2^24); give fewer frames, or use bt trace --format csv or \
                 json, which stream"
            ),
            "{what}"
        );
    }
    assert!(!png.exists());
}

#[test]
fn a_capframex_capture_is_read_in_a_small_multiple_of_its_size() {
    const FRAMES: usize = 400_000;
    if is_measured_child() {
        let path = std::path::PathBuf::from(std::env::var("BT_TEST_CAPTURE").unwrap());
        let capture = bt_runtime::clock::capture::Capture::load(&path, None).unwrap();
        assert_eq!(capture.len(), FRAMES);
        assert_eq!(capture.stream().not_displayed, Some(FRAMES / 100));
        report_peak_rss();
        return;
    }
    // A capture as CapFrameX writes it: the frame times beside many other per-frame arrays,
    // none of which a run plays.
    let dir = ScratchDir::new("hostile-capframex");
    let path = dir.join("big.json");
    let array = |f: &dyn Fn(usize) -> String| {
        let items: Vec<String> = (0..FRAMES).map(f).collect();
        format!("[{}]", items.join(","))
    };
    let mut text =
        String::from("{\"Info\":{\"ProcessName\":\"game.exe\"},\"Runs\":[{\"CaptureData\":{");
    for (name, values) in [
        (
            "TimeInSeconds",
            array(&|i| format!("{:.6}", i as f64 * 0.016_667)),
        ),
        (
            "MsBetweenPresents",
            array(&|i| format!("{:.4}", 16.0 + (i % 7) as f64 * 0.1234)),
        ),
        (
            "MsBetweenDisplayChange",
            array(&|i| format!("{:.4}", 16.6667 + (i % 3) as f64)),
        ),
        (
            "MsUntilRenderComplete",
            array(&|i| format!("{:.4}", 5.0 + (i % 11) as f64 * 0.31)),
        ),
        (
            "MsUntilDisplayed",
            array(&|i| format!("{:.4}", 9.0 + (i % 5) as f64 * 0.77)),
        ),
        ("Dropped", array(&|i| (i % 100 == 0).to_string())),
    ] {
        text.push_str(&format!("\"{name}\":{values},"));
    }
    text.push_str("\"AllowsTearing\":[]}}]}");
    std::fs::write(&path, &text).unwrap();
    let file_kib = text.len() as u64 / 1024;
    drop(text);
    std::env::set_var("BT_TEST_CAPTURE", &path);
    let kib = peak_rss_kib_of("a_capframex_capture_is_read_in_a_small_multiple_of_its_size");
    // As a tree of JSON values it took some 22 times the file (1.45 GB for 64 MiB).
    assert!(
        kib < BASELINE_KIB + 3 * file_kib,
        "{kib} KiB for a {file_kib} KiB file"
    );
}

/// The bundled `panic` cart told to quit in the update that sees tick 30 (update 31).
const QUIT_ARG: &str = "quit_at=30";

#[test]
fn a_cart_that_quits_is_said_by_gif_and_trace_and_its_replay_verifies() {
    let dir = ScratchDir::new("hostile-quit");
    let said = "the cart quit after update 31 (0.516667 s): the run ends there";
    let gif = dir.join("q.gif");
    let o = bt(&[
        "gif",
        "panic",
        "--arg",
        QUIT_ARG,
        "--seconds",
        "2",
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(said), "gif: {}", stderr(&o));
    let o = bt(&[
        "trace",
        "panic",
        "--arg",
        QUIT_ARG,
        "--clock",
        "constant:16.6667",
        "--frames",
        "60",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(said), "trace: {}", stderr(&o));

    // Recorded up to the quit, as a window's run is: the replay verifies, and says it quit.
    let cart = bt_gallery::find("panic").unwrap();
    let options = EngineOptions {
        overlay: false,
        args: vec![("quit_at".to_string(), "30".to_string())],
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    e.start_recording(DEFAULT_HASH_EVERY);
    let _ = e.step(500);
    assert_eq!(e.quit_at(), Some(31));
    let path = dir.join("quit.btr");
    e.recording("panic", None).unwrap().save(&path).unwrap();
    let o = bt(&["replay", "panic", path.to_str().unwrap(), "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("31 updates replayed") && stdout(&o).contains("the cart quit"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
fn verify_of_a_cart_that_quits_verifies_the_updates_that_ran() {
    let o = output_within(
        bt_command().args(["verify", "panic", "--arg", QUIT_ARG, "--seconds", "5"]),
        std::time::Duration::from_secs(300),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the cart quit after update 31 (0.516667 s): the runs end there"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("panic: 31 updates (0.5 s) under 8 clocks")
            && stdout(&o).contains("every clock drew the same frame at every tick"),
        "{}",
        stdout(&o)
    );
}

#[cfg(unix)]
#[test]
fn a_games_files_never_take_a_link_out_of_the_carts_folder_nor_walk_a_loop() {
    use bt_runtime::cli::bundle::collect;
    use std::os::unix::fs::symlink;
    let dir = ScratchDir::new("hostile-export-links");
    let root = dir.join("cart");
    let assets = root.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(assets.join("sheet.png"), "png").unwrap();
    std::fs::write(dir.join("secret.txt"), "not the cart's").unwrap();

    // A link that stays inside is packed as the file it leads to.
    symlink(assets.join("sheet.png"), assets.join("same.png")).unwrap();
    let b = collect(&root, Some(&assets), &[]).unwrap();
    let files: Vec<(&str, &[u8])> = b
        .files
        .iter()
        .map(|(n, f)| (n.as_str(), f.as_slice()))
        .collect();
    assert_eq!(
        files,
        [
            ("assets/same.png", &b"png"[..]),
            ("assets/sheet.png", &b"png"[..])
        ]
    );

    // One that leads out is refused, naming it and where it leads.
    let out = assets.join("passwd");
    symlink(dir.join("secret.txt"), &out).unwrap();
    let err = collect(&root, Some(&assets), &[]).unwrap_err();
    assert!(
        err.starts_with(&format!(
            "cart file {}: could not read it: a link leading to ",
            out.display()
        )) && err.contains("secret.txt"),
        "{err}"
    );
    std::fs::remove_file(&out).unwrap();

    // A link to a folder (here back up to the assets: a loop) is refused, never walked.
    let round = assets.join("round");
    symlink(&assets, &round).unwrap();
    let err = collect(&root, Some(&assets), &[]).unwrap_err();
    assert!(
        err.starts_with(&format!("{} is a link to the folder", round.display())),
        "{err}"
    );
}

/// A run whose exact summary, Chrome trace and report keep every frame takes no more than
/// `KEPT_BYTES_PER_FRAME` a frame over what the test binary takes anyway.
#[test]
fn a_whole_run_timeline_takes_its_stated_bytes_a_frame() {
    use bt_runtime::timing::timeline::{Timeline, KEPT_BYTES_PER_FRAME};
    const FRAMES: u64 = 400_000;
    if is_measured_child() {
        let mut t = Timeline::new(1000.0 / 60.0);
        t.reserve(FRAMES as usize);
        for frame in 0..FRAMES {
            let stats = bt_overlay::FrameStats {
                delta_ms: 16.0 + (frame % 7) as f64,
                updates: 1,
                ticks: frame + 1,
                update_ms: 0.5,
                render_ms: 1.0,
                ..bt_overlay::FrameStats::default()
            };
            let report = bt_runtime::FrameReport {
                frame,
                render_alpha: 0.5,
                stats,
            };
            t.record(&report, 0, &[]);
        }
        let summary = t.summary();
        assert_eq!(summary.frames, FRAMES as usize);
        t.write_chrome_trace(&mut std::io::sink(), "kept").unwrap();
        bt_runtime::timing::report::html(&t, "kept").unwrap();
        report_peak_rss();
        return;
    }
    // Each frame kept took some 190 bytes at the summary's peak (the record, a reversed copy
    // of the frame times, references for the longest, and columns a clock's run has none
    // of); the report copied the records once more.
    let kib = peak_rss_kib_of("a_whole_run_timeline_takes_its_stated_bytes_a_frame");
    let allowed = BASELINE_KIB + FRAMES * KEPT_BYTES_PER_FRAME / 1024;
    assert!(kib < allowed, "{kib} KiB; at most {allowed} KiB");
}

/// A run kept for its summary alone (`bt trace --format summary`, `bt diagnose` with no tall
/// chart or report) takes no more than `SUMMARY_BYTES_PER_FRAME` a frame over what the test
/// binary takes anyway, its summary worked out included.
#[test]
fn a_run_kept_for_its_summary_takes_its_stated_bytes_a_frame() {
    use bt_runtime::timing::timeline::{RunSummary, SUMMARY_BYTES_PER_FRAME};
    const FRAMES: u64 = 2_000_000;
    if is_measured_child() {
        let mut run = RunSummary::new(1000.0 / 60.0);
        run.reserve(FRAMES as usize);
        for frame in 0..FRAMES {
            let stats = bt_overlay::FrameStats {
                delta_ms: 16.0 + (frame % 7) as f64,
                updates: 1,
                ticks: frame + 1,
                ..bt_overlay::FrameStats::default()
            };
            let report = bt_runtime::FrameReport {
                frame,
                render_alpha: 0.5,
                stats,
            };
            run.record(&report, 0, &[]);
        }
        assert_eq!(run.summary().frames, FRAMES as usize);
        report_peak_rss();
        return;
    }
    // A whole timeline took 96 bytes a frame here (183 MiB), the summary's copies included.
    let kib = peak_rss_kib_of("a_run_kept_for_its_summary_takes_its_stated_bytes_a_frame");
    let allowed = BASELINE_KIB + FRAMES * SUMMARY_BYTES_PER_FRAME / 1024;
    assert!(kib < allowed, "{kib} KiB; at most {allowed} KiB");
}

/// How the walk below calls a loader.
#[derive(Clone, Copy)]
enum Call {
    /// A library call given the file's full path; its error, shown.
    Path(fn(&std::path::Path) -> String),
    /// A call a cart makes, given the file's name: through a console reading the cart's asset
    /// folder, or (with no folder) reading the name as a path.
    Cart(fn(&mut bt::Update<'_>, &str) -> String),
    /// A `bt` command given the file's full path; its stderr.
    Command(fn(&std::path::Path) -> std::process::Command),
}

/// One loader of the walk: what it calls the file, the file, and how it is called.
struct Loader {
    what: &'static str,
    /// The file refused: in the scratch folder, or for [`Call::Cart`] in the asset folder.
    file: &'static str,
    /// For a file another file names (a map's tileset, a sheet font's picture): the file the
    /// loader is given and its text.
    named_by: Option<(&'static str, &'static str)>,
    call: Call,
    /// Why a link to `/dev/zero` is refused.
    device: &'static str,
    /// Why a link to a file outside the folder is refused, where that rule applies.
    link_out: Option<&'static str>,
    /// Whether a file past any limit is refused from its size (a reader that reads only a
    /// trailer takes any length).
    sized: bool,
}

const A_DEVICE: &str = "a character device, not a regular file";
const ASSET_LINK_OUT: &str = "a link leading out of the folder";

fn by_path(what: &'static str, file: &'static str, call: fn(&std::path::Path) -> String) -> Loader {
    Loader {
        what,
        file,
        named_by: None,
        call: Call::Path(call),
        device: A_DEVICE,
        link_out: None,
        sized: true,
    }
}

fn by_cart(
    what: &'static str,
    file: &'static str,
    call: fn(&mut bt::Update<'_>, &str) -> String,
) -> Loader {
    Loader {
        call: Call::Cart(call),
        link_out: Some(ASSET_LINK_OUT),
        ..by_path(what, file, |_| String::new())
    }
}

fn by_command(
    what: &'static str,
    file: &'static str,
    call: fn(&std::path::Path) -> std::process::Command,
) -> Loader {
    Loader {
        call: Call::Command(call),
        ..by_path(what, file, |_| String::new())
    }
}

/// Every loader of a file a user or a cart names. A loader added later gets a row here (the
/// guard in `runtime/engine/src/config/read/guard.rs` says so when it opens a file itself). No state
/// file is read from a disk: a state file is made and loaded in memory.
fn loaders() -> Vec<Loader> {
    use bt_runtime::config::manifest::{self, PaletteSource};
    let (path, cart, command) = (by_path, by_cart, by_command);
    vec![
        path("cart manifest", "cart.toml", |p| {
            manifest::load(p.parent().unwrap()).unwrap_err().to_string()
        }),
        path("user config", "config.toml", |p| {
            manifest::load_user_config(p).unwrap_err().to_string()
        }),
        path("palette file", "palette.hex", |p| {
            manifest::load_palette(&PaletteSource::File(p.into()))
                .unwrap_err()
                .to_string()
        }),
        path("palette file", "palette.png", |p| {
            manifest::load_palette(&PaletteSource::File(p.into()))
                .unwrap_err()
                .to_string()
        }),
        path("key map", "keys.toml", |p| {
            KeyMap::load(p).unwrap_err().to_string()
        }),
        path("replay", "run.btr", |p| {
            Replay::load(p).unwrap_err().to_string()
        }),
        path("save file", "game.sav", |p| {
            bt_runtime::save::load(p).unwrap_err().to_string()
        }),
        path("capture", "frames.csv", |p| {
            bt_runtime::clock::capture::Capture::load(p, None)
                .unwrap_err()
                .to_string()
        }),
        path("golden picture", "golden.png", |p| {
            let picture = bt_runtime::harness::golden::Rgba {
                width: 1,
                height: 1,
                pixels: &[0; 4],
            };
            bt_runtime::harness::golden::check(p, picture)
                .unwrap_err()
                .to_string()
        }),
        Loader {
            // The folder's rule comes first: a link to a device leads out of it.
            device: "a link leading to /dev/zero, outside ",
            link_out: Some("a link leading to "),
            ..path("cart file", "cart/assets/sheet.png", |p| {
                let assets = p.parent().unwrap();
                bt_runtime::cli::bundle::collect(assets.parent().unwrap(), Some(assets), &[])
                    .unwrap_err()
            })
        },
        Loader {
            sized: false,
            ..path("game file", "game", |p| {
                bt_runtime::cli::bundle::Bundle::read_from(p).unwrap_err()
            })
        },
        command("PICO-8 cart", "cart.p8", |p| {
            let mut c = bt_command();
            c.arg("import")
                .arg(p)
                .arg("-o")
                .arg(p.with_extension("out"));
            c
        }),
        command("Pyxel resource file", "res.pyxres", |p| {
            let mut c = bt_command();
            c.arg("import")
                .arg(p)
                .arg("-o")
                .arg(p.with_extension("out"));
            c
        }),
        cart("image", "sheet.png", |ctx, name| {
            ctx.load_image(name, 1).unwrap_err().to_string()
        }),
        cart("image", "indexed.png", |ctx, name| {
            ctx.load_image_indexed(name).unwrap_err().to_string()
        }),
        cart("sound file", "tune.txt", |ctx, name| {
            ctx.load_sounds(name).unwrap_err().to_string()
        }),
        cart("sound clip", "chord.ogg", |ctx, name| {
            ctx.load_clip(name).unwrap_err().to_string()
        }),
        cart("data file", "level.txt", |ctx, name| {
            ctx.load_data(name).unwrap_err().to_string()
        }),
        cart("map", "level.tmj", |ctx, name| {
            ctx.load_map(name).unwrap_err().to_string()
        }),
        Loader {
            named_by: Some((
                "world.tmj",
                r#"{"width":1,"height":1,"tilewidth":8,"tileheight":8,
                    "layers":[{"type":"tilelayer","name":"a","width":1,"height":1,"data":[0]}],
                    "tilesets":[{"firstgid":1,"source":"tiles.tsj"}]}"#,
            )),
            // A tileset is read only from the map's own folder, asset folder or not.
            device: ASSET_LINK_OUT,
            ..cart("map", "tiles.tsj", |ctx, name| {
                ctx.load_map(name).unwrap_err().to_string()
            })
        },
        cart("font", "font.bdf", |ctx, name| {
            ctx.load_font(name).unwrap_err().to_string()
        }),
        Loader {
            named_by: Some((
                "letters.txt",
                "bt-font 1\nimage letters.png\ngrid 8 8\nchars 0 0 AB\n",
            )),
            ..cart("font", "letters.png", |ctx, name| {
                ctx.load_font(name).unwrap_err().to_string()
            })
        },
    ]
}

/// What the walk puts where a loader expects its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hostile {
    Fifo,
    Device,
    LinkOut,
    Oversized,
}

/// Puts `hostile` at `path` (a sparse file for an oversized one: no disk is used).
#[cfg(unix)]
fn make_hostile(hostile: Hostile, path: &std::path::Path, outside: &std::path::Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    match hostile {
        Hostile::Fifo => fifo(path),
        Hostile::Device => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Hostile::LinkOut => std::os::unix::fs::symlink(outside, path).unwrap(),
        Hostile::Oversized => std::fs::File::create(path)
            .unwrap()
            .set_len(1 << 40)
            .unwrap(),
    }
}

/// The one line `loader` says when it meets `hostile`, called in `dir` (made for this case).
#[cfg(unix)]
fn walk_one(loader: &Loader, hostile: Hostile, dir: &std::path::Path) -> (String, String) {
    let outside = dir.join("outside.txt");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&outside, "a file outside the folder").unwrap();
    let what = format!("{} meeting {hostile:?}", loader.what);
    match loader.call {
        Call::Path(call) => {
            let path = dir.join(loader.file);
            make_hostile(hostile, &path, &outside);
            let said = within_a_while(&what, move || call(&path));
            (said, dir.join(loader.file).display().to_string())
        }
        Call::Command(command) => {
            let path = dir.join(loader.file);
            make_hostile(hostile, &path, &outside);
            let o = output_within(&mut command(&path), std::time::Duration::from_secs(60));
            assert!(!o.status.success(), "{what}");
            let said = stderr(&o);
            let said = said.trim_end().strip_prefix("bt: error: ").unwrap_or(&said);
            (said.to_string(), path.display().to_string())
        }
        Call::Cart(call) => {
            let assets = dir.join("assets");
            std::fs::create_dir_all(&assets).unwrap();
            make_hostile(hostile, &assets.join(loader.file), &outside);
            // A device is met by a cart with no asset folder, which reads paths as given; the
            // rest through the cart's asset folder, by the names a cart gives.
            let (folder, prefix) = match hostile {
                Hostile::Device => (None, format!("{}/", assets.display())),
                _ => (Some(assets.clone()), String::new()),
            };
            let given = match loader.named_by {
                Some((name, text)) => {
                    std::fs::write(assets.join(name), text).unwrap();
                    format!("{prefix}{name}")
                }
                None => format!("{prefix}{}", loader.file),
            };
            let shown = match loader.named_by {
                Some(_) => format!("{given} -> {}", loader.file),
                None => given.clone(),
            };
            let said = within_a_while(&what, move || {
                use bt_runtime::config::assets::{Assets, Paths};
                let mut console = bt::host::Console::new(&bt::Settings::default(), 0);
                match folder {
                    Some(folder) => console.set_image_loader(Box::new(Assets::folder(folder))),
                    None => console.set_image_loader(Box::new(Assets(Paths))),
                }
                call(&mut console.update_context(0), &given)
            });
            (said, shown)
        }
    }
}

/// Every loader is walked through a FIFO (refused at once: the call runs on a thread of its
/// own, and a command under a time limit, so one that waits fails instead of hanging), a
/// link to `/dev/zero`, a link leading out of the folder where that rule applies, and a file
/// past any limit (sparse: a terabyte, no disk used). Each says it the one way:
/// `<what> PATH: could not read it: <why>`, on one line.
#[cfg(unix)]
#[test]
fn every_loader_refuses_what_it_must_never_read() {
    let dir = ScratchDir::new("hostile-every-loader");
    let mut wrong = Vec::new();
    for (row, loader) in loaders().iter().enumerate() {
        if loader.what == "golden picture" && bt_runtime::harness::golden::update_requested() {
            continue;
        }
        let mut cases = vec![(Hostile::Fifo, "a FIFO, not a regular file")];
        cases.push((Hostile::Device, loader.device));
        if let Some(why) = loader.link_out {
            cases.push((Hostile::LinkOut, why));
        }
        if loader.sized {
            cases.push((
                Hostile::Oversized,
                "1099511627776 bytes is over the limit of ",
            ));
        }
        for (hostile, why) in cases {
            let at = dir.join(format!("{row}-{hostile:?}"));
            let (said, path) = walk_one(loader, hostile, &at);
            let want = format!("{} {path}: could not read it: {why}", loader.what);
            if !said.starts_with(&want) || said.contains('\n') {
                wrong.push(format!(
                    "{} ({hostile:?}):\n  said: {said}\n  want: {want}...",
                    loader.what
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
