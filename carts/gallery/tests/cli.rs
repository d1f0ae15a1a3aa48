//! The `bt` command as a user meets it: outputs, golden pictures, and errors for bad input.
//!
//! Golden pictures follow [`bt_test_support::golden`]'s rule: `BT_UPDATE_GOLDEN=1` rewrites the
//! references in `tests/golden/` after a reviewed change (look at the new PNGs before committing
//! them); a difference leaves `NAME.actual.png` and `NAME.diff.png` beside the reference.

mod support;

use std::process::Command;

use bt_test_support::ScratchDir;
use support::{bt, check_golden, stderr, stdout};

#[test]
fn shot_is_identical_run_to_run() {
    let dir = ScratchDir::new("cli");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for path in [&a, &b] {
        let o = bt(&["shot", "hello", "--at", "3.2", "-o", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("320x240, after 192 updates, seed 0"),
            "{}",
            stdout(&o)
        );
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn golden_pictures() {
    check_golden(&["shot", "hello", "--at", "3.2"], "hello-3.2s.png");
    check_golden(
        &["shot", "hello", "--at", "10", "--seed", "7", "--scale", "2"],
        "hello-10s-seed7-x2.png",
    );
    check_golden(&["shot", "timers", "--at", "12.5"], "timers-12.5s.png");
    // Cart names match without regard to case.
    check_golden(&["shot", "Hello", "--at", "3.2"], "hello-3.2s.png");
}

#[test]
fn golden_pictures_of_the_drawing_carts() {
    let shots: &[(&[&str], &str)] = &[
        (&["primitives", "--at", "0.5"], "primitives-0.5s.png"),
        (&["primitives", "--at", "2"], "primitives-2s.png"),
        (&["sprites", "--at", "1"], "sprites-1s.png"),
        (&["sprites", "--at", "2.5"], "sprites-2.5s.png"),
        // Cycling only; deep into the fade to night; during the lightning flash.
        (&["palette", "--at", "0.5"], "palette-0.5s.png"),
        (&["palette", "--at", "2.5"], "palette-2.5s.png"),
        (&["palette", "--at", "3.35"], "palette-3.35s-flash.png"),
        (&["starfield", "--at", "1"], "starfield-1s.png"),
        (&["starfield", "--at", "4"], "starfield-4s.png"),
        (&["tilemap", "--at", "0"], "tilemap-0s.png"),
        (&["tilemap", "--at", "10"], "tilemap-10s.png"),
        // A Tiled map, a level table and a sheet read from the cart's asset folder.
        (
            &["platformer", "--at", "1", "--scale", "2"],
            "platformer-1s-x2.png",
        ),
        // A BDF font from the asset folder, a sheet font built in, a coloured .btfont font,
        // the small font, wrapping, alignment, Latin-1, the system font's symbols and box
        // drawing; half-way through the typed line, then after it.
        (&["fonts", "--at", "0.5"], "fonts-0.5s.png"),
        (&["fonts", "--at", "2"], "fonts-2s.png"),
        (&["bunnymark", "--at", "0.5"], "bunnymark-0.5s.png"),
        // Turned, scaled and stretched sprites, a mode-7 floor, panels and a minimap image.
        (&["transforms", "--at", "1"], "transforms-1s.png"),
        (&["transforms", "--at", "3"], "transforms-3s.png"),
        (
            &["bunnymark", "--arg", "sprites=50", "--at", "2"],
            "bunnymark-50-2s.png",
        ),
    ];
    for (args, name) in shots {
        let mut full = vec!["shot"];
        full.extend_from_slice(args);
        check_golden(&full, name);
    }
}

#[test]
fn cart_arguments_reach_the_cart_and_bad_values_are_named() {
    let dir = ScratchDir::new("cli");
    let out = dir.join("bunny-args.png");
    let out = out.to_str().unwrap();
    let o = bt(&[
        "shot",
        "bunnymark",
        "--arg",
        "sprites=lots",
        "--at",
        "0",
        "-o",
        out,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "bt: error: cart 'bunnymark': cart init failed: argument sprites=lots: invalid digit \
         found in string"
    );
    let o = bt(&[
        "shot",
        "bunnymark",
        "--arg",
        "sprites",
        "--at",
        "0",
        "-o",
        out,
    ]);
    assert_eq!(o.status.code(), Some(2), "not NAME=VALUE is a usage error");
    assert!(
        stderr(&o).contains("'sprites' is not NAME=VALUE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_json_is_one_object_with_the_documented_keys() {
    let o = bt(&[
        "bench",
        "bunnymark",
        "--arg",
        "sprites=20",
        "--frames",
        "5",
        "--warmup",
        "0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let line = lines[0];
    assert!(
        line.starts_with("{\"frames\": 5, \"update_ms\": {\"median\": "),
        "{line}"
    );
    for key in [
        "\"render_ms\": {\"median\": ",
        "\"present_ms\": {\"median\": ",
        "\"p95\": ",
        "\"fps\": ",
    ] {
        assert!(line.contains(key), "{key} in {line}");
    }
    assert!(line.ends_with('}'));
    let o = bt(&["bench", "hello", "--frames", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("could sustain"), "{}", stdout(&o));
}

#[test]
fn golden_pictures_of_the_input_carts() {
    // With no input: snake's demo round, the idle keyboard, an empty canvas.
    check_golden(&["shot", "snake", "--at", "20"], "snake-20s.png");
    check_golden(&["shot", "keys", "--at", "1"], "keys-1s.png");
    check_golden(&["shot", "paint", "--at", "1"], "paint-1s.png");
    // The jukebox's label and progress bar (its sound has a golden hash in tests/wav.rs).
    check_golden(&["shot", "jukebox", "--at", "5.2"], "jukebox-5.2s.png");
    // The audio cart mid-sweep: the chord looping, the blip left of centre.
    check_golden(&["shot", "audio", "--at", "1.3"], "audio-1.3s.png");
    // The desk at tick 48: the first blip sounds, so the music bus plays at a third.
    check_golden(
        &["shot", "audio-buses", "--at", "0.8"],
        "audio-buses-0.8s.png",
    );
}

#[test]
fn list_names_every_bundled_cart() {
    let o = bt(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let shown: Vec<_> = bt_gallery::CARTS.iter().filter(|c| !c.hidden).collect();
    assert_eq!(text.lines().count(), shown.len());
    for hidden in ["drift", "panic"] {
        assert!(
            !text.contains(hidden),
            "the test cart {hidden} is hidden: {text}"
        );
    }
    for cart in shown {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cart.name));
        let line = line.unwrap_or_else(|| panic!("{} in {text}", cart.name));
        assert!(line.ends_with(cart.description), "{line}");
    }
}

#[test]
fn trace_prints_one_row_per_delivered_frame() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        "sequence:16,17,50,200",
        "--frames",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "frame,delta_ms,updates,ticks,render_alpha,clamped,discarded_ms"
    );
    assert_eq!(lines[1], "0,16,1,1,0,false,0");
    assert_eq!(lines[3], "2,50,3,5,0,false,0");
    assert_eq!(lines[4], "3,200,8,13,0,true,66.66666666666666");
    assert_eq!(lines.len(), 5);
}

#[test]
fn trace_of_a_paced_clock_skips_host_ticks_that_are_not_frames() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        "paced:30",
        "--frames",
        "10",
        "--host-hz",
        "60",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("\"frame\":").count(), 5, "{text}");
    assert!(
        text.contains("{\"frame\":4,\"delta_ms\":33.333333333333336,\"updates\":2,\"ticks\":10,")
    );
}

#[test]
fn bad_input_gets_one_clear_line_and_a_failing_exit() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["trace", "hello", "--clock", "paced:fast", "--frames", "3"],
            "fps 'fast' is not a number",
        ),
        (
            &[
                "trace",
                "hello",
                "--clock",
                "sequence:16,0",
                "--frames",
                "3",
            ],
            "step ms 0 is not in 0.001..=60000",
        ),
        (
            &["trace", "hello", "--clock", "wobble", "--frames", "3"],
            "unknown clock 'wobble'",
        ),
        (
            &[
                "trace",
                "hello",
                "--clock",
                "wall",
                "--frames",
                "3",
                "--host-hz",
                "0",
            ],
            "0 is not in 0.001..=100000",
        ),
        (
            &["shot", "hello", "--at", "-1", "-o", "x.png"],
            "-1 is not in 0..=10000000000",
        ),
        (
            &["shot", "hello", "--at", "1", "--fps", "nan", "-o", "x.png"],
            "--fps",
        ),
        (
            &["shot", "hello", "--at", "1", "--scale", "0", "-o", "x.png"],
            "--scale",
        ),
        (
            &["shot", "nosuch", "--at", "1", "-o", "x.png"],
            "no cart named 'nosuch'; carts: hello, timers",
        ),
        (
            &["shot", "helo", "--at", "1", "-o", "x.png"],
            "no cart named 'helo' (did you mean 'hello'?); carts: hello, timers",
        ),
        (
            &["shot", "--at", "1", "-o", "x.png"],
            "name a cart to run; carts: hello, timers",
        ),
        (
            &["shot", "hello", "--at", "1", "-o", "/nonexistent-bt/x.png"],
            "could not write /nonexistent-bt/x.png",
        ),
    ];
    for (args, needle) in cases {
        let o = bt(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_failed_shot_leaves_an_existing_file_alone() {
    let dir = ScratchDir::new("cli");
    let path = dir.join("keep.png");
    std::fs::write(&path, b"precious").unwrap();
    let o = bt(&["shot", "hello", "--at", "1e9", "-o", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "--at 1000000000: a seek to update 60000000000 would replay 60000000000 updates; \
             one seek replays at most 10000000"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"precious");
}

#[test]
fn diagnose_golden_chart_under_a_stuttering_clock() {
    check_golden(
        &[
            "diagnose",
            "timers",
            "--clock",
            "sequence:16.7,16.7,16.7,50,16.7,8.3,8.3,16.7,400",
            "--frames",
            "400",
            "--fixed-costs",
        ],
        "diagnose-timers-stutter.png",
    );
}

#[test]
fn tall_chart_golden_pictures() {
    // Jitter between 5 and 40 ms: uneven frames, runs of zero and several updates.
    check_golden(
        &[
            "diagnose",
            "hello",
            "--clock",
            "jitter:5:40:7",
            "--frames",
            "300",
            "--chart",
            "tall",
            "--fixed-costs",
        ],
        "tall-hello-jitter.png",
    );
    // A heavy cart with a 200 ms stall the 8-update cap clamps, and 8.3 ms frames.
    check_golden(
        &[
            "diagnose",
            "bunnymark",
            "--arg",
            "sprites=60000",
            "--clock",
            "sequence:16.7,16.7,16.7,50,16.7,16.7,200,8.3,8.3",
            "--frames",
            "300",
            "--chart",
            "tall",
            "--fixed-costs",
        ],
        "tall-bunnymark-stall.png",
    );
    // 30 frames a second on a 60 Hz host: every frame runs two updates.
    check_golden(
        &[
            "diagnose",
            "hello",
            "--clock",
            "paced:30",
            "--host-hz",
            "60",
            "--frames",
            "300",
            "--chart",
            "tall",
            "--fixed-costs",
        ],
        "tall-hello-paced-30-on-60.png",
    );
}

#[test]
fn a_shot_with_the_overlay_runs_the_charted_frames_live() {
    // The chart, rates and draw calls are measured over live frames; fixed costs make the
    // picture reproducible.
    check_golden(
        &["shot", "timers", "--at", "12", "--overlay", "--fixed-costs"],
        "timers-12s-overlay.png",
    );
    check_golden(
        &[
            "shot",
            "timers",
            "--at",
            "12",
            "--chart",
            "tall",
            "--fixed-costs",
        ],
        "timers-12s-tall.png",
    );
}

#[test]
fn diagnose_csv_has_a_row_per_frame_with_grades_missed_refreshes_and_tags() {
    let dir = ScratchDir::new("cli");
    let (png, csv) = (dir.join("diag.png"), dir.join("diag.csv"));
    let o = bt(&[
        "diagnose",
        "timers",
        "--clock",
        "sequence:16.7,16.7,16.7,16.7,16.7,16.7,16.7,16.7,16.7,16.7,400",
        "--frames",
        "130",
        "-o",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(
        text.lines().next().unwrap(),
        "frame,delta_ms,updates,ticks,render_alpha,clamped,discarded_ms,update_ms,render_ms,budget_grade,missed_refreshes,tags"
    );
    assert_eq!(rows.len(), 130);
    assert!(rows.iter().all(|r| r.len() == 12));
    assert_eq!(
        rows[0][11], "Round 1",
        "init's tag lands on the first frame"
    );
    // The 400 ms hitch: capped at 8 updates, time thrown away, missed refreshes, an error tint.
    let hitch = &rows[10];
    assert_eq!((hitch[1], hitch[2], hitch[5]), ("400", "8", "true"));
    assert_eq!(hitch[9], "error");
    assert!(hitch[10].parse::<u32>().unwrap() >= 2);
    assert_eq!(rows[9][9], "normal");
    // The 120-tick timer tags "Wave" on the frame whose updates reach it.
    let wave = rows.iter().find(|r| r[11] == "Wave").expect("a Wave tag");
    assert!(wave[3].parse::<u64>().unwrap() >= 120);
}

#[test]
fn diagnose_refuses_a_clock_that_never_delivers() {
    let o = bt(&[
        "diagnose", "hello", "--clock", "paced:1", "--frames", "0", "-o", "x.png",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("delivered no frame in 0 host ticks"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_refuses_frame_counts_it_cannot_hold() {
    for args in [
        &["bench", "hello", "--frames", "18446744073709551615"][..],
        &["bench", "hello", "--frames", "0"],
        &[
            "bench",
            "hello",
            "--frames",
            "5",
            "--warmup",
            "18446744073709551615",
        ],
    ] {
        let o = bt(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("is not in"), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn a_reader_that_went_away_is_not_an_error() {
    let dir = ScratchDir::new("cli");
    let out = dir.join("closed-pipe.png");
    let out = out.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["list"],
        &["keys"],
        &["shot", "hello", "--at", "1", "-o", out],
        &["trace", "hello", "--clock", "constant:16", "--frames", "50"],
        &["bench", "hello", "--frames", "3", "--warmup", "0"],
        &["bench", "hello", "--frames", "3", "--warmup", "0", "--json"],
    ];
    for args in cases {
        // A pipe whose reading end is already closed: every write to it fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
            .args(*args)
            .stdout(writer)
            .output()
            .expect("bt runs");
        assert!(
            o.status.success(),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

/// `/dev/full`, opened for writing: every write to it fails with "no space left".
fn full() -> std::fs::File {
    std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

#[test]
fn every_message_survives_an_unwritable_stream_with_the_intended_exit_code() {
    // (arguments, whether stdout or stderr is full, the exit code wanted)
    let cases: &[(&[&str], &str, i32)] = &[
        (&["keys"], "stderr", 0),
        (&["shot", "nope"], "stderr", 2),
        (&["diagnose", "--frames", "0"], "stderr", 2),
        (
            &["shot", "hello", "--at", "oops", "-o", "x.png"],
            "stderr",
            2,
        ),
        (&["shot", "nope", "--at", "1", "-o", "x.png"], "stderr", 1),
        (&["list"], "stdout", 1),
        (&["keys"], "stdout", 1),
        (&["--help"], "stdout", 1),
        (&["shot", "--help"], "stdout", 1),
        (&["--version"], "stdout", 1),
    ];
    for (args, stream, code) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"));
        command.args(*args);
        if *stream == "stderr" {
            command.stderr(full());
        } else {
            command.stdout(full());
        }
        let o = command.output().expect("bt runs");
        assert_eq!(o.status.code(), Some(*code), "{args:?} with {stream} full");
        if *stream == "stdout" {
            assert!(
                stderr(&o).contains("bt: error: writing to stdout: "),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn huge_inputs_are_refused_quickly_with_a_short_message() {
    let o = support::output_within(
        support::bt_command().args(["keys", "--keys", "/dev/zero"]),
        std::time::Duration::from_secs(20),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "bt: error: key map /dev/zero: could not read it: a character device, not a regular file\n"
    );
    for args in [
        &["shot", "hello", "--at", "1e308", "-o", "x.png"][..],
        &["shot", "hello", "--at", "1e300", "-o", "x.png"],
    ] {
        let o = bt(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.len() < 200,
            "{args:?}: {} characters: {first}",
            first.len()
        );
    }
}

/// Runs `bt` with `args` on a terminal (`script` gives it one) and returns all it printed.
/// The bar shows at the first news of the work (`BT_PROGRESS_AFTER_MS=0`), so the work can
/// be short.
fn on_a_terminal(args: &str) -> String {
    let o = Command::new("script")
        .args([
            "-qec",
            &format!("{} {args}", env!("CARGO_BIN_EXE_bt-test-carts")),
            "/dev/null",
        ])
        .env("BT_PROGRESS_AFTER_MS", "0")
        .output()
        .expect("script runs");
    assert!(o.status.success(), "{args}: {}", stdout(&o));
    stdout(&o)
}

#[test]
fn headless_work_shows_progress_on_a_terminal_unless_quiet() {
    let dir = ScratchDir::new("cli");
    let out = dir.join("hello.png");
    // 1,200 updates: news of the seek after 1024 of them.
    let seek = format!("shot hello --at 20 -o {}", out.display());
    let shown = on_a_terminal(&seek);
    assert!(
        shown.contains("seeking to --at 20 [") && shown.contains("/1200 ETA "),
        "{shown}"
    );
    assert!(shown.contains("wrote "), "{shown}");
    let quiet = on_a_terminal(&format!("{seek} --quiet"));
    assert!(!quiet.contains("ETA"), "{quiet}");
    // Not a terminal: nothing on stderr.
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(seek.split(' '))
        .env("BT_PROGRESS_AFTER_MS", "0")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let trace = on_a_terminal("trace hello --clock constant:16 --frames 1000 >/dev/null");
    assert!(trace.contains("tracing host ticks ["), "{trace}");
}

#[test]
fn a_bad_progress_threshold_is_refused_naming_it() {
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["shot", "hello", "--at", "1", "-o", "unused.png"])
        .env("BT_PROGRESS_AFTER_MS", "soon")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "bt: error: BT_PROGRESS_AFTER_MS='soon': give whole milliseconds from 0 to 3600000\n"
    );
}

#[test]
fn gif_wav_frames_and_verify_show_progress_on_a_terminal_unless_quiet() {
    let dir = ScratchDir::new("cli");
    let gif = format!(
        "gif hello --from 20 --seconds 0.2 -o {}",
        dir.join("b.gif").display()
    );
    let shown = on_a_terminal(&gif);
    assert!(
        shown.contains("making the GIF [") && shown.contains(" ETA "),
        "{shown}"
    );
    assert!(shown.contains("wrote "), "{shown}");
    assert!(!on_a_terminal(&format!("{gif} --quiet")).contains("ETA"));
    let wav = format!(
        "wav hello --from 20 --seconds 0.2 -o {}",
        dir.join("b.wav").display()
    );
    let shown = on_a_terminal(&wav);
    assert!(
        shown.contains("making the WAV [") && shown.contains(" ETA "),
        "{shown}"
    );
    assert!(!on_a_terminal(&format!("{wav} --quiet")).contains("ETA"));
    let frames = format!(
        "frames hello --from 20 --to 20.1 --every 0.05 -o {}",
        dir.join("frames").display()
    );
    let shown = on_a_terminal(&frames);
    assert!(shown.contains("seeking to --from 20 ["), "{shown}");
    assert!(shown.contains("wrote 3 frames"), "{shown}");
    // Eight clocks of 1 s each.
    let verify = "verify hello --seconds 1 --threads 1";
    let shown = on_a_terminal(verify);
    assert!(
        shown.contains("checking 8 clocks [") && shown.contains("/480 ETA "),
        "{shown}"
    );
    assert!(!on_a_terminal(&format!("{verify} -q")).contains("ETA"));
    // Not a terminal: nothing on stderr.
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(verify.split(' '))
        .env("BT_PROGRESS_AFTER_MS", "0")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn an_interrupted_diagnosis_leaves_nothing_behind() {
    use std::os::unix::process::ExitStatusExt;
    let dir = ScratchDir::new("cli");
    let (png, csv) = (dir.join("d.png"), dir.join("d.csv"));
    let mut child = support::bt_command()
        .args([
            "diagnose",
            "hello",
            "--clock",
            "constant:16",
            "--frames",
            // Long enough never to end by itself, within the frames a summary keeps.
            "16000000",
        ])
        .arg("-o")
        .arg(&png)
        .arg("--csv")
        .arg(&csv)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SIGTERM, not SIGINT: a shell running this suite in the background has the children
    // ignore SIGINT, and the point is only that an interrupted run leaves no file behind.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("bt diagnose did not stop within 30 s of SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.signal(), Some(15), "ended by the signal: {status:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_shot_stepped_from_boot_and_a_frame_replayed_from_the_start_give_the_same_overlay() {
    // `bt shot` steps forward from the engine it just booted; `bt frames` replays each frame
    // from the start. The "Round 1" tag that init places belongs on the chart either way.
    // (Fixed costs: the overlay's frames run live, and measured times differ run to run.)
    let dir = ScratchDir::new("cli");
    for at in ["0", "1", "12.5"] {
        let shot = dir.join(format!("timers-{at}.png"));
        let o = bt(&[
            "shot",
            "timers",
            "--overlay",
            "--fixed-costs",
            "--at",
            at,
            "-o",
            shot.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let folder = dir.join(format!("frames-{at}"));
        let o = bt(&[
            "frames",
            "timers",
            "--overlay",
            "--fixed-costs",
            "--from",
            at,
            "--to",
            at,
            "--every",
            "1",
            "-o",
            folder.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        assert!(
            std::fs::read(&shot).unwrap() == std::fs::read(&files[0]).unwrap(),
            "--at {at}"
        );
    }
}

#[test]
fn bt_shot_takes_no_from_flag_since_from_means_seconds_elsewhere() {
    let o = bt(&[
        "shot", "hello", "--at", "1", "--from", "start", "-o", "x.png",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--from"), "{}", stderr(&o));
}

#[test]
fn a_number_out_of_range_is_a_usage_error_naming_the_range() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["shot", "hello", "--at", "1", "--fps", "1e5", "-o", "x.png"],
            "invalid value '1e5' for '--fps <FPS>': 100000 is not in 0.001..=10000",
        ),
        (
            &["shot", "hello", "--at", "1", "--fps", "0", "-o", "x.png"],
            "invalid value '0' for '--fps <FPS>': 0 is not in 0.001..=10000",
        ),
        (
            &["trace", "hello", "--clock", "wall", "--frames", "3", "--host-hz", "1e-306"],
            "invalid value '1e-306' for '--refresh-hz <REFRESH_HZ>': 1e-306 is not in 0.001..=100000",
        ),
        (
            &["shot", "hello", "--at", "1e308", "-o", "x.png"],
            "invalid value '1e308' for '--at <AT>': 1e308 is not in 0..=10000000000",
        ),
        (
            &["shot", "hello", "--at", "-1", "-o", "x.png"],
            "invalid value '-1' for '--at <AT>': -1 is not in 0..=10000000000",
        ),
        (
            &["shot", "hello", "--at", "nan", "-o", "x.png"],
            "invalid value 'nan' for '--at <AT>': 'nan' is not a number",
        ),
        (
            &["shot", "hello", "--at", "1", "--seed", "-1", "-o", "x.png"],
            "invalid value '-1' for '--seed <SEED>': -1 is not in 0..=18446744073709551615",
        ),
        (
            &["shot", "hello", "--at", "1", "--seed", "18446744073709551616", "-o", "x.png"],
            "18446744073709551616 is not in 0..=18446744073709551615",
        ),
        (
            &["shot", "hello", "--at", "1", "--scale", "-1", "-o", "x.png"],
            "invalid value '-1' for '--scale <SCALE>': -1 is not in 1..=16",
        ),
        (
            &["trace", "hello", "--clock", "wall", "--frames", "-1"],
            "invalid value '-1' for '--frames <FRAMES>': -1 is not in 0..=1000000000",
        ),
        (
            &["bench", "hello", "--frames", "-1"],
            "invalid value '-1' for '--frames <FRAMES>': -1 is not in 1..=10000000",
        ),
        (
            &["run", "hello", "--exit-after", "-1"],
            "invalid value '-1' for '--exit-after <EXIT_AFTER>': -1 is not in 0..=1000000",
        ),
        (
            &["trace", "hello", "--clock", "constant:1e308", "--frames", "1"],
            "clock spec 'constant:1e308': step ms 1e308 is not in 0.001..=60000",
        ),
        (
            &["trace", "hello", "--clock", "paced:1e-20", "--frames", "1"],
            "clock spec 'paced:1e-20': fps 1e-20 is not in 0.001..=10000",
        ),
        (
            &["trace", "hello", "--clock", "jitter:1:2:1e300", "--frames", "1"],
            "clock spec 'jitter:1:2:1e300': seed 1e300 is not in -9007199254740992..=9007199254740992",
        ),
    ];
    for (args, needle) in cases {
        let o = bt(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

#[test]
fn a_whole_number_too_large_for_the_clock_is_said_to_be_out_of_range() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        "paced:60:4294967296",
        "--frames",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "clock spec 'paced:60:4294967296': resync_after 4294967296 is not in 1..=4294967295"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn help_gives_the_range_of_every_number() {
    let help = |command: &str| stdout(&bt(&[command, "--help"]));
    let shot = help("shot");
    for range in [
        "(0.001 to 10000)",
        "(0 to 10000000000)",
        "(1 to 16)",
        "(0 to 18446744073709551615)",
    ] {
        assert!(shot.contains(range), "{range} in bt shot --help:\n{shot}");
    }
    let trace = help("trace");
    for range in [
        "(0.001 to 100000)",
        "(0 to 1000000000)",
        "0.001 to 60000 ms",
    ] {
        assert!(
            trace.contains(range),
            "{range} in bt trace --help:\n{trace}"
        );
    }
    let run = help("run");
    assert!(run.contains("(0 to 1000000)"), "{run}");
    let bench = help("bench");
    assert!(bench.contains("(1 to 10000000)"), "{bench}");
}

#[test]
fn a_relative_xdg_config_home_is_ignored_for_the_key_map() {
    // The XDG spec: a relative XDG_CONFIG_HOME is invalid and must be ignored.
    let dir = ScratchDir::new("cli");
    std::fs::create_dir_all(dir.join("rel/bt")).unwrap();
    std::fs::write(
        dir.join("rel/bt/keys.toml"),
        "version = 1\n[player1]\na = [\"KeyJ\"]\n",
    )
    .unwrap();
    let home = dir.join("home");
    let o = support::bt_command()
        .arg("keys")
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", "rel")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "bt: no key-map file at {}; these are the defaults\n",
            home.join(".config/bt/keys.toml").display()
        )
    );
}

#[test]
fn a_key_that_presses_several_buttons_is_warned_about_once() {
    let dir = ScratchDir::new("cli");
    let map = dir.join("shared.toml");
    // J presses two of player 1's buttons; W, player 2's default up, is given to player 1 too.
    std::fs::write(
        &map,
        "version = 1\n[player1]\na = [\"KeyJ\"]\nb = [\"KeyJ\", \"KeyX\"]\nup = [\"KeyW\"]\n",
    )
    .unwrap();
    let want = [
        format!(
            "bt: warning: key map {}: KeyJ presses [player1] a and [player1] b",
            map.display()
        ),
        format!(
            "bt: warning: key map {}: KeyW presses [player1] up and [player2] up",
            map.display()
        ),
    ];
    let warnings = |o: &std::process::Output| -> Vec<String> {
        stderr(o)
            .lines()
            .filter(|l| l.starts_with("bt: warning:"))
            .map(str::to_string)
            .collect()
    };
    let o = bt(&["keys", "--keys", map.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(warnings(&o), want);
    // bt run warns the same before it opens its window (here it cannot: no display).
    let o = support::bt_command()
        .args(["run", "hello", "--keys", map.to_str().unwrap()])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(warnings(&o), want, "{}", stderr(&o));
    // The defaults share no key.
    let o = support::bt_command()
        .arg("keys")
        .env("XDG_CONFIG_HOME", dir.join("none"))
        .output()
        .unwrap();
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

/// The value at `q` of sorted `v` by nearest rank.
fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[test]
fn the_diagnose_summary_agrees_with_its_csv() {
    let dir = ScratchDir::new("cli");
    let (png, csv) = (dir.join("d.png"), dir.join("d.csv"));
    let o = bt(&[
        "diagnose",
        "timers",
        "--clock",
        "sequence:16.7,16.7,50,8.3,400,5",
        "--frames",
        "240",
        "--fixed-costs",
        "-o",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.splitn(12, ',').collect())
        .collect();
    let deltas: Vec<f64> = rows.iter().map(|r| r[1].parse().unwrap()).collect();
    let span: f64 = deltas.iter().sum();
    let frames = deltas.len();
    assert!(
        said.contains(&format!(
            "{frames} frames over {:.1} s: {:.1} frames a second",
            span / 1000.0,
            frames as f64 * 1000.0 / span
        )),
        "{said}"
    );
    let mut sorted = deltas.clone();
    sorted.sort_by(f64::total_cmp);
    assert!(
        said.contains(&format!(
            "frame time  p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
            nearest_rank(&sorted, 0.5),
            nearest_rank(&sorted, 0.95),
            nearest_rank(&sorted, 0.99),
            sorted[sorted.len() - 1]
        )),
        "{said}"
    );
    let mut counts = [0usize; 9];
    let (mut clamped, mut thrown) = (0, 0.0);
    for r in &rows {
        counts[r[2].parse::<usize>().unwrap().min(8)] += 1;
        if r[5] == "true" {
            clamped += 1;
            thrown += r[6].parse::<f64>().unwrap();
        }
    }
    let listed: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(u, n)| format!("{u}: {n}"))
        .collect();
    assert!(
        said.contains(&format!("updates per frame  {}", listed.join("  "))),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "clamped frames {clamped} ({thrown:.1} ms thrown away)"
        )),
        "{said}"
    );
    let missed: u64 = rows.iter().map(|r| r[10].parse::<u64>().unwrap()).sum();
    let missing = rows.iter().filter(|r| r[10] != "0").count();
    assert!(
        said.contains(&format!("missed refreshes {missed} in {missing} frames")),
        "{said}"
    );
}

#[test]
fn the_bt_binary_users_run_carries_no_test_cart() {
    let users_bt = env!("CARGO_BIN_EXE_bt");
    let list = Command::new(users_bt).arg("list").output().unwrap();
    assert!(list.status.success());
    assert!(stdout(&list).contains("snake"), "{}", stdout(&list));
    for test_only in ["drift", "panic", "tone", "tally"] {
        let o = Command::new(users_bt)
            .args(["config", test_only])
            .output()
            .unwrap();
        assert!(!o.status.success(), "bt knows {test_only}");
        assert!(stderr(&o).contains("no cart"), "{}", stderr(&o));
    }
}

/// A gallery cart that loads its level from its asset folder: the exported game carries that
/// folder and reads it from its own unpacked copy, not from the checkout it was built in.
#[test]
fn an_exported_gallery_cart_carries_its_asset_folder_and_plays_from_it() {
    let dir = ScratchDir::new("export-gallery");
    let game = dir.join("platformer-game");
    let o = bt(&["export", "platformer", "-o", game.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let level = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../platformer/assets/level1.tmj"),
    )
    .unwrap();
    let files = std::fs::read_dir(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../platformer/assets"),
    )
    .unwrap()
    .count();
    assert!(
        stdout(&o).contains(&format!("with {files} file(s) of the cart")),
        "{}",
        stdout(&o)
    );
    let cache = dir.join("cache");
    let out = Command::new(&game)
        .args(["config", "platformer"])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stdout(&out);
    let assets = said
        .lines()
        .find_map(|l| l.strip_prefix("assets "))
        .unwrap_or_else(|| panic!("no asset folder in:\n{said}"));
    let assets = std::path::Path::new(assets);
    assert!(assets.starts_with(&cache), "{said}");
    assert_eq!(std::fs::read(assets.join("level1.tmj")).unwrap(), level);
    let shot = dir.join("p.png");
    let out = Command::new(&game)
        .args([
            "shot",
            "platformer",
            "--at",
            "1",
            "-o",
            shot.to_str().unwrap(),
        ])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}
