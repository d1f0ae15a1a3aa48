//! Frame-time captures as clocks, end to end: `bt diagnose` and `bt trace` of the hand-made
//! captures in `runtime/tests/captures`, with the figures checked against counts made here
//! from the capture itself.

mod support;

use std::path::{Path, PathBuf};

use bt_runtime::timing::chrome_trace;
use bt_test_support::{golden, ScratchDir};
use support::{bt, stderr, stdout};

fn capture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../runtime/tests/captures")
        .join(name)
}

fn spec(name: &str) -> String {
    format!("capture:{}", capture(name).display())
}

/// The chosen swap chain's (MsBetweenPresents, MsBetweenDisplayChange) pairs, read here with
/// nothing of BT's.
fn game_rows() -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(capture("stalls-2000.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| l.starts_with("game.exe"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[7].parse().unwrap(), f[8].parse().unwrap())
        })
        .collect()
}

#[test]
fn a_capture_plays_its_whole_length_and_says_which_swap_chain() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("stalls-2000.csv"),
        "--format",
        "csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<Vec<String>> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let game = game_rows();
    assert_eq!(
        rows.len(),
        game.len(),
        "--frames defaults to the capture's length"
    );
    for (row, (present, _)) in rows.iter().zip(&game) {
        assert_eq!(row[1].parse::<f64>().unwrap(), *present);
    }
    let said = stderr(&o);
    assert!(
        said.contains("playing game.exe (pid 5120) swap chain 0x0000021F4E8A1C30 (2000 frames)"),
        "{said}"
    );
    assert!(
        said.contains("also holds dwm.exe (pid 1308) swap chain"),
        "{said}"
    );
}

#[test]
fn a_run_past_the_capture_is_refused_unless_looped() {
    let long = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("plain.txt"),
        "--frames",
        "12",
    ]);
    assert_eq!(long.status.code(), Some(2));
    assert!(
        stderr(&long).contains("--frames 12 runs past the end of capture")
            && stderr(&long).contains("(11 frames); give --loop"),
        "{}",
        stderr(&long)
    );
    let looped = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("plain.txt"),
        "--frames",
        "12",
        "--loop",
    ]);
    assert!(looped.status.success(), "{}", stderr(&looped));
    let rows: Vec<String> = stdout(&looped).lines().skip(1).map(String::from).collect();
    assert_eq!(rows.len(), 12);
    assert!(rows[11].starts_with("11,16.7,"), "{}", rows[11]);
    let other = bt(&[
        "trace",
        "hello",
        "--clock",
        "constant:16",
        "--loop",
        "--frames",
        "2",
    ]);
    assert!(stderr(&other).contains("--loop plays a capture clock again"));
    let none = bt(&["trace", "hello", "--clock", "constant:16"]);
    assert!(stderr(&none).contains("--frames is needed with this clock"));
}

#[test]
fn a_bad_capture_is_one_line_naming_file_line_column_and_value() {
    let dir = ScratchDir::new("captures");
    let path = dir.join("bad.csv");
    std::fs::write(
        &path,
        "Application,MsBetweenPresents\ngame.exe,16.7\ngame.exe,fast\n",
    )
    .unwrap();
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        &format!("capture:{}", path.display()),
    ]);
    // The file is at fault, not the command line: a failure (1), not a usage error (2).
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err,
        format!(
            "bt: error: capture '{}' line 3, column MsBetweenPresents: 'fast' is not a frame \
             time in ms (0.001 to 60000)\n",
            path.display()
        )
    );
    let gone = bt(&[
        "trace",
        "hello",
        "--clock",
        &format!("capture:{}", dir.join("gone.csv").display()),
    ]);
    assert_eq!(gone.status.code(), Some(1), "{}", stderr(&gone));
    assert!(
        stderr(&gone).starts_with(&format!(
            "bt: error: capture {}: could not read it",
            dir.join("gone.csv").display()
        )),
        "{}",
        stderr(&gone)
    );
    // A spec that names no file is the command line's mistake.
    let empty = bt(&["trace", "hello", "--clock", "capture:"]);
    assert_eq!(empty.status.code(), Some(2), "{}", stderr(&empty));
    assert!(
        stderr(&empty).contains("capture:FILE"),
        "{}",
        stderr(&empty)
    );
    let picked = bt(&[
        "trace",
        "hello",
        "--clock",
        &format!("{}#chrome.exe", spec("presentmon.csv")),
    ]);
    assert!(stderr(&picked).contains("nothing matches '#chrome.exe'; it holds game.exe"));
}

#[test]
fn missed_refreshes_of_a_capture_are_counted_against_its_display_timing() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("stalls-2000.csv"),
        "--format",
        "summary",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // Counted here: refreshes each frame spanned past its first, on the capture's 60 Hz grid.
    let period = 1000.0 / 60.0;
    let game = game_rows();
    let missed: u64 = game
        .iter()
        .map(|&(present, _)| {
            if present > 1.5 * period {
                ((present / period).round() as u64).saturating_sub(1).max(1)
            } else {
                0
            }
        })
        .sum();
    assert_eq!(s["missed_refreshes"], missed);
    assert_eq!(s["refresh"], "60.0 Hz (measured from display times)");
    assert_eq!(s["not_displayed"], 2);
    // One short double present never makes normal frames late: only long frames count.
    let long = game.iter().filter(|(p, _)| *p > 1.5 * period).count();
    assert_eq!(s["frames_missing_refreshes"], long);
    // The lows and stutters, computed here from the frame times.
    let mut longest: Vec<f64> = game.iter().map(|g| g.0).collect();
    longest.sort_by(|a, b| b.total_cmp(a));
    let worst = longest.len().div_ceil(100);
    let average = 1000.0 / (longest[..worst].iter().sum::<f64>() / worst as f64);
    let percentile = 1000.0 / longest[longest.len() / 100 - 1];
    let got = &s["low_1_percent"];
    assert!((got["average_fps"].as_f64().unwrap() - average).abs() < 1e-9);
    assert!((got["percentile_fps"].as_f64().unwrap() - percentile).abs() < 1e-9);
    // CapFrameX's 1% low integral: the longest frame alone covers 1% of the run's time here.
    let total: f64 = longest.iter().sum();
    assert!(longest[0] >= total / 100.0);
    let integral = s["capframex"]["low_1_integral_fps"].as_f64().unwrap();
    assert!((integral - 1000.0 / longest[0]).abs() < 1e-9, "{integral}");
    assert_eq!(s["capframex"]["frames"], 2000);
    assert!(
        s["tenth_percent_caveat"].is_null(),
        "2000 frames carry 0.1%"
    );
    let over = |ms: f64| game.iter().filter(|g| g.0 > ms).count();
    assert_eq!(s["stutters"]["over_50_ms"], over(50.0));
    assert_eq!(s["stutters"]["over_100_ms"], over(100.0));
    let per_second = s["frames_per_second"].as_array().unwrap();
    let total: u64 = per_second.iter().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(total, 2000);
}

#[test]
fn a_capture_that_allows_tearing_has_no_missed_refreshes() {
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("ocat-tearing.csv"),
        "--csv",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().skip(1).filter(|l| l.contains(',')).collect();
    assert_eq!(rows.len(), 12);
    assert!(
        rows.iter().all(|r| r.split(',').nth(10) == Some("n/a")),
        "{out}"
    );
    assert!(
        stderr(&o).contains("missed refreshes n/a (tearing allowed: no refresh grid)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_report_alone_is_written_without_a_picture() {
    let dir = ScratchDir::new("captures");
    let report = dir.join("r.html");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("mangohud.csv"),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(
        page.contains("not the captured program"),
        "costs are labelled"
    );
    assert!(page.contains("120.0 Hz (estimated from the frame times)"));
    let nothing = bt(&["diagnose", "hello", "--clock", &spec("mangohud.csv")]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(stderr(&nothing).contains("nothing to write"));
}

#[test]
fn the_chrome_trace_of_a_capture_nests_on_whole_microseconds() {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("stalls-2000.csv"),
        "--format",
        "chrome",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = stdout(&o);
    chrome_trace::check_nesting(&trace).unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value = serde_json::from_str(&trace).unwrap();
    // Not a vacuous pass: a frame slice for every frame of the capture.
    let frames = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["name"] == "frame")
        .count();
    assert_eq!(frames, game_rows().len());
}

#[test]
fn the_whole_run_tall_chart_keeps_every_stall() {
    let dir = ScratchDir::new("captures");
    let png = dir.join("whole.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("stalls-2000.csv"),
        "--chart",
        "tall",
        "--whole",
        "--fixed-costs",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Under the one golden rule: pixels compared, `BT_UPDATE_GOLDEN=1` rewrites.
    let got = image::open(&png).unwrap().to_rgba8();
    assert_golden(&got, "tall-capture-whole.png");
    let wrong = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("plain.txt"),
        "--whole",
        "-o",
        "x.png",
    ]);
    assert!(
        stderr(&wrong).contains("give --chart tall"),
        "{}",
        stderr(&wrong)
    );
}

#[test]
fn the_display_time_view_charts_how_long_each_frame_stayed_on_screen() {
    let dir = ScratchDir::new("captures");
    let chart = |extra: &[&str], name: &str| {
        let png = dir.join(name);
        let mut args = vec![
            "diagnose",
            "hello",
            "--clock",
            "",
            "--chart",
            "tall",
            "--fixed-costs",
            "-o",
            png.to_str().unwrap(),
        ];
        let clock = gold("test_case_2-v1.csv");
        args[3] = &clock;
        args.extend_from_slice(extra);
        let o = bt(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        image::open(&png).unwrap().to_rgba8()
    };
    let shown = chart(&["--display-times"], "shown.png");
    let presented = chart(&[], "presented.png");
    // The compositor's presents and display changes differ (its display intervals are not its
    // present intervals), so the two views draw different bars.
    assert_ne!(shown.as_raw(), presented.as_raw());
    assert_golden(&shown, "tall-capture-display.png");
    // A clock with no display times, or a chart that is not the tall one, is refused.
    for (clock, chart, said) in [
        (
            spec("mangohud.csv"),
            "tall",
            "needs a capture with display times",
        ),
        (gold("test_case_2-v1.csv"), "compact", "give --chart tall"),
    ] {
        let o = bt(&[
            "diagnose",
            "hello",
            "--clock",
            &clock,
            "--chart",
            chart,
            "--display-times",
            "-o",
            dir.join("x.png").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
    }
}

#[test]
fn a_variable_refresh_capture_is_graded_against_the_panels_range() {
    // A game on a 48-144 Hz adaptive-sync panel, made for this test: display intervals that
    // follow the frames (no refresh grid), mostly 9-19 ms, with slow frames past the panel's
    // 20.8 ms hold and a few faster than 144 Hz.
    let dir = ScratchDir::new("captures");
    let mut display = Vec::new();
    let mut seed = 12345u32;
    for i in 0..400 {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let jitter = f64::from(seed >> 16) / 65536.0;
        display.push(match i % 50 {
            7 => 25.0 + 10.0 * jitter,
            31 => 50.0 + 30.0 * jitter,
            40 => 5.0 + jitter,
            _ => 9.0 + 10.0 * jitter,
        });
    }
    // As the file writes them: to the microsecond.
    let display: Vec<f64> = display
        .iter()
        .map(|d| (d * 1000.0).round() / 1000.0)
        .collect();
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange\n",
    );
    let mut t = 0.0;
    for d in &display {
        t += d / 1000.0;
        csv.push_str(&format!(
            "game.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,0,{t:.6},{d:.3},{d:.3}\n"
        ));
    }
    let file = dir.join("vrr.csv");
    std::fs::write(&file, csv).unwrap();
    let clock = format!("capture:{}", file.display());
    let plain = bt(&["trace", "hello", "--clock", &clock, "--format", "summary"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(
        stderr(&plain).contains("fit no refresh grid") && stderr(&plain).contains("--vrr MIN-MAX"),
        "{}",
        stderr(&plain)
    );
    let graded = bt(&[
        "trace", "hello", "--clock", &clock, "--format", "summary", "--vrr", "48-144",
    ]);
    assert!(graded.status.success(), "{}", stderr(&graded));
    let s: serde_json::Value = serde_json::from_str(&stdout(&graded)).unwrap();
    // Worked here from the intervals written, by the panel's rules: a picture is held at most
    // 1000/48 ms; a longer interval makes the panel refresh on its own, ceil(d / hold) - 1
    // times; a shorter one than 1000/144 ms comes faster than the panel goes.
    let (hold, fastest) = (1000.0 / 48.0, 1000.0 / 144.0);
    let slow: Vec<f64> = display.iter().copied().filter(|&d| d > hold).collect();
    let above = display.iter().filter(|&&d| d < fastest).count();
    let v = &s["vrr"];
    assert_eq!(v["from_display_times"], true);
    assert_eq!(v["frames"], 400);
    assert_eq!(v["below"], slow.len());
    assert_eq!(v["above"], above);
    assert_eq!(v["within"], 400 - slow.len() - above);
    let repeats: u64 = slow.iter().map(|d| (d / hold).ceil() as u64 - 1).sum();
    assert_eq!(v["repeated_refreshes"], repeats);
    let share = slow.iter().sum::<f64>() * 100.0 / display.iter().sum::<f64>();
    assert!((v["below_time_percent"].as_f64().unwrap() - share).abs() < 1e-6);
    // Missed refreshes are the panel's repeats, frame by frame, not a fixed grid's.
    assert_eq!(s["missed_refreshes"], repeats);
    assert!(
        s["refresh"]
            .as_str()
            .unwrap()
            .starts_with("a variable refresh of 48-144 Hz"),
        "{}",
        s["refresh"]
    );
    for bad in ["144-48", "48", "0-60", "a-b"] {
        let o = bt(&["trace", "hello", "--clock", &clock, "--vrr", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("--vrr"), "{}", stderr(&o));
    }
}

#[test]
fn the_animation_error_is_motion_shown_less_time_on_screen() {
    let clock = spec("stalls-2000.csv");
    let rows = bt(&["trace", "hello", "--clock", &clock]);
    let summary = bt(&["trace", "hello", "--clock", &clock, "--format", "summary"]);
    assert!(rows.status.success() && summary.status.success());
    let s: serde_json::Value = serde_json::from_str(&stdout(&summary)).unwrap();
    // Worked here from the trace's ticks and render alpha and the capture's display column.
    let budget = 1000.0 / 60.0;
    let shown: Vec<f64> = stdout(&rows)
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[3].parse::<f64>().unwrap() + f[4].parse::<f64>().unwrap()) * budget
        })
        .collect();
    let game = game_rows();
    let (mut previous, mut sizes): (Option<f64>, Vec<f64>) = (None, Vec::new());
    for (shown, (_, display)) in shown.iter().zip(&game) {
        if *display > 0.0 {
            if let Some(p) = previous {
                sizes.push((shown - p - display).abs());
            }
            previous = Some(*shown);
        }
    }
    let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
    let largest = sizes.iter().copied().fold(0.0, f64::max);
    let got = &s["animation_error_ms"];
    assert!((got["mean"].as_f64().unwrap() - mean).abs() < 1e-9, "{got}");
    assert!(
        (got["largest"].as_f64().unwrap() - largest).abs() < 1e-9,
        "{got}"
    );
    assert!(
        largest > 100.0,
        "the clamped stalls show far less motion than time"
    );
    let dir = ScratchDir::new("captures");
    let report = dir.join("r.html");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &clock,
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains(&format!(
        "animation error (mean / largest)</th><td>{mean:.2} / {largest:.1} ms"
    )));
    assert!(page.contains("Display timing from the capture"));
}

#[test]
fn trace_and_diagnose_help_list_the_capture_clock() {
    for command in ["trace", "diagnose"] {
        let o = bt(&[command, "--help"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let help = stdout(&o);
        let clock = help
            .split("--clock <CLOCK>\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_else(|| panic!("no --clock in bt {command} --help:\n{help}"));
        for form in ["wall[:max_ms]", "capture:FILE[#SELECTOR]"] {
            assert!(
                clock.contains(form),
                "{form} in bt {command} --help:\n{clock}"
            );
        }
    }
}

/// `got` against `tests/golden/NAME` under the one golden rule: pixels compared,
/// `BT_UPDATE_GOLDEN=1` rewrites.
fn assert_golden(got: &image::RgbaImage, name: &str) {
    golden::assert_matches(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name),
        golden::Rgba {
            width: got.width(),
            height: got.height(),
            pixels: got.as_raw(),
        },
    );
}

/// PresentMon's own gold recording (`runtime/tests/captures/presentmon-gold`, source there).
fn gold(name: &str) -> String {
    format!(
        "capture:{}#dwm.exe",
        capture(&format!("presentmon-gold/{name}")).display()
    )
}

#[test]
fn missed_refreshes_on_display_are_counted_from_the_display_times_of_a_presentmon_capture() {
    // The compositor's display intervals in the 1.x file, read here with nothing of BT's.
    let text = std::fs::read_to_string(capture("presentmon-gold/test_case_2-v1.csv")).unwrap();
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "msBetweenDisplayChange")
        .unwrap();
    let display: Vec<f64> = lines
        .filter(|l| l.starts_with("dwm.exe,"))
        .map(|l| l.split(',').nth(at).unwrap().parse().unwrap())
        .collect();
    let period = 1000.0 / 60.0;
    let repeats: Vec<u64> = display
        .iter()
        .map(|d| ((d / period).round() as u64).saturating_sub(1))
        .collect();
    let summary = |name: &str| gold_trace(name, "summary");
    let (v1, said) = summary("test_case_2-v1.csv");
    assert!(
        said.contains("display times fit a 60.00 Hz refresh grid"),
        "{said}"
    );
    assert_eq!(v1["refresh"], "60.0 Hz (measured from display times)");
    assert_eq!(v1["display_missed_refreshes"], repeats.iter().sum::<u64>());
    let frames = repeats.iter().filter(|&&r| r > 0).count();
    assert_eq!(v1["frames_missing_refreshes_on_display"], frames);
    // The --v2_metrics file of the same recording has one frame fewer and its first frame's
    // interval unknown (its DisplayedTime looks forward): the same repeats from the second on.
    let (v2, _) = summary("test_case_2-v2.csv");
    assert_eq!(v2["refresh"], "60.0 Hz (measured from display times)");
    let from_second: u64 = repeats[1..repeats.len() - 1].iter().sum();
    assert_eq!(v2["display_missed_refreshes"], from_second);
    assert_eq!(v2["not_displayed"], 1);
}

/// The compositor's values in `columns` (names matched whatever their case) of a gold file,
/// one list a row, read here with nothing of BT's; `NA` reads as 0.
fn gold_columns(name: &str, columns: &[&str]) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(capture(&format!("presentmon-gold/{name}"))).unwrap();
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at: Vec<usize> = columns
        .iter()
        .map(|c| {
            header
                .iter()
                .position(|h| h.eq_ignore_ascii_case(c))
                .unwrap()
        })
        .collect();
    lines
        .filter(|l| l.starts_with("dwm.exe,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            at.iter().map(|&i| f[i].parse().unwrap_or(0.0)).collect()
        })
        .collect()
}

/// `bt trace hello --format FORMAT` over a gold file's compositor stream: its JSON output and
/// what it said on stderr.
fn gold_trace(name: &str, format: &str) -> (serde_json::Value, String) {
    let o = bt(&["trace", "hello", "--clock", &gold(name), "--format", format]);
    assert!(o.status.success(), "{}", stderr(&o));
    (serde_json::from_str(&stdout(&o)).unwrap(), stderr(&o))
}

/// `bt trace hello --format summary` over a gold file's compositor stream.
fn gold_summary(name: &str) -> serde_json::Value {
    gold_trace(name, "summary").0
}

/// Asserts `v` is a number within 1e-6 of `expected`.
fn near(v: &serde_json::Value, expected: f64, what: &str) {
    let got = v.as_f64().unwrap_or(f64::NAN);
    assert!(
        (got - expected).abs() < 1e-6,
        "{what}: {got} against {expected}"
    );
}

#[test]
fn displayed_frames_and_time_below_come_from_a_presentmon_capture_as_computed_by_hand() {
    for name in ["test_case_2-v1.csv", "test_case_2-default.csv"] {
        let rows = gold_columns(name, &["MsBetweenPresents", "MsBetweenDisplayChange"]);
        let mut shown: Vec<f64> = rows.iter().map(|r| r[1]).filter(|&d| d > 0.0).collect();
        shown.sort_by(f64::total_cmp);
        let span: f64 = shown.iter().sum();
        let total: f64 = rows.iter().map(|r| r[0]).sum();
        let below_60: f64 = rows
            .iter()
            .map(|r| r[0])
            .filter(|&p| p > 1000.0 / 60.0)
            .sum();
        let steady = rows
            .windows(2)
            .filter(|w| (w[1][0] - w[0][0]).abs() < 2.0)
            .count();

        let s = gold_summary(name);
        let d = &s["displayed"];
        assert_eq!(d["frames"], shown.len(), "{name}");
        near(&d["span_ms"], span, name);
        near(&d["fps"], shown.len() as f64 * 1000.0 / span, name);
        near(&d["p50_ms"], shown[shown.len().div_ceil(2) - 1], name);
        near(&d["max_ms"], shown[shown.len() - 1], name);
        near(
            &s["time_below_percent"][0]["percent"],
            100.0 * below_60 / total,
            name,
        );
        near(
            &s["frame_to_frame_change_percent"]["under_2_ms"],
            100.0 * steady as f64 / (rows.len() - 1) as f64,
            name,
        );
    }
}

#[test]
fn cpu_and_gpu_busy_times_of_a_presentmon_capture_say_what_bounded_it() {
    let name = "test_case_2-v2.csv";
    let rows = gold_columns(name, &["FrameTime", "CPUBusy", "GPUBusy"]);
    let mut gpu: Vec<f64> = rows.iter().map(|r| r[2]).collect();
    gpu.sort_by(f64::total_cmp);
    let gpu_bound = |r: &Vec<f64>| r[2] >= 0.8 * r[0] && r[2] >= r[1];
    let gpu_bound_rows = rows.iter().filter(|r| gpu_bound(r)).count();
    let cpu_bound_rows = rows
        .iter()
        .filter(|r| !gpu_bound(r) && r[1] >= 0.8 * r[0])
        .count();

    let s = gold_summary(name);
    let b = &s["busy"];
    assert_eq!(b["frames"], rows.len(), "{s:#}");
    let share = |n: usize| 100.0 * n as f64 / rows.len() as f64;
    near(
        &b["gpu_ms"]["p50"],
        gpu[gpu.len().div_ceil(2) - 1],
        "GPU p50",
    );
    near(&b["gpu_ms"]["p99"], gpu[gpu.len() - 1], "GPU p99");
    near(&b["gpu_bound_percent"], share(gpu_bound_rows), "GPU-bound");
    near(&b["cpu_bound_percent"], share(cpu_bound_rows), "CPU-bound");

    // The trace carries them as counter tracks, one sample a frame.
    let (trace, _) = gold_trace(name, "chrome");
    let samples: Vec<f64> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "C" && e["name"] == "GPU busy (ms)")
        .map(|e| e["args"]["value"].as_f64().unwrap())
        .collect();
    let in_file: Vec<f64> = rows.iter().map(|r| r[2]).collect();
    assert_eq!(samples, in_file);
    // Titled by the program captured, not the cart that played it.
    let title = trace["otherData"]["title"].as_str().unwrap_or_default();
    assert!(
        title.starts_with(
            "dwm.exe (pid 1300) swap chain 0x296989CD030 (captured), played through hello"
        ),
        "{title}"
    );
}

#[test]
fn diagnose_compare_sets_two_runs_side_by_side_with_their_differences() {
    let dir = ScratchDir::new("captures");
    let report = dir.join("compare.html");
    // The same recording in PresentMon 1's and 2's files: the 2.x file has one frame fewer.
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &gold("test_case_2-v1.csv"),
        "--compare",
        &gold("test_case_2-default.csv"),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("compared: A = dwm.exe (pid 1300) swap chain 0x00000296989CD030"),
        "{out}"
    );
    assert!(
        out.contains("B = dwm.exe (pid 1300) swap chain 0x296989CD030"),
        "{out}"
    );
    let frames = out
        .lines()
        .find(|l| l.starts_with("frames   "))
        .unwrap_or_else(|| panic!("no frames row:\n{out}"));
    let cells: Vec<&str> = frames.split_whitespace().collect();
    assert_eq!(cells, ["frames", "57.0", "56.0", "-1.0"], "{frames}");
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains("<h1>Timing comparison</h1>"));
    assert_eq!(
        page.matches("<svg").count(),
        1,
        "one picture with both runs"
    );
    // A run compared with itself differs in nothing.
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &gold("test_case_2-v1.csv"),
        "--compare",
        &gold("test_case_2-v1.csv"),
        "-o",
        dir.join("same.png").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let table = out.split("compared:").nth(1).unwrap();
    assert!(
        !table.contains("better") && !table.contains("worse"),
        "{table}"
    );
    // Each row differs by nothing; under them, each run of 57 frames is too short for 0.1%.
    let (rows, notes): (Vec<&str>, Vec<&str>) = table
        .lines()
        .skip(3)
        .partition(|l| !l.ends_with("too few for 0.1 %"));
    assert!(
        rows.iter()
            .all(|l| l.split_whitespace().next_back() == Some("+0.0")),
        "{table}"
    );
    assert_eq!(notes.len(), 2, "{table}");
}

#[test]
fn display_latency_comes_from_a_presentmon_captures_own_column_and_says_which() {
    // Each file's latency column, read here with nothing of BT's (a frame never displayed has
    // none: NA, or PresentMon 1's 0 where `Dropped` is 1, left out); percentiles by nearest
    // rank.
    let column = |name: &str, column: &str| -> Vec<f64> {
        let text = std::fs::read_to_string(capture(&format!("presentmon-gold/{name}"))).unwrap();
        let mut lines = text.trim_start_matches('\u{feff}').lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = |column: &str| header.iter().position(|h| h.eq_ignore_ascii_case(column));
        let (at, dropped) = (at(column).unwrap(), at("Dropped"));
        let mut v: Vec<f64> = lines
            .filter(|l| l.starts_with("dwm.exe,"))
            .map(|l| l.split(',').collect::<Vec<_>>())
            .filter(|row| dropped.is_none_or(|d| row[d] != "1"))
            .filter_map(|row| row[at].parse().ok())
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let rank = |v: &[f64], q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    for (name, col, meaning) in [
        (
            "test_case_2-v1.csv",
            "msUntilDisplayed",
            "from the Present() call",
        ),
        (
            "test_case_2-default.csv",
            "MsUntilDisplayed",
            "from the Present() call",
        ),
        (
            "test_case_2-v2.csv",
            "DisplayLatency",
            "from the frame's CPU start",
        ),
    ] {
        let expected = column(name, col);
        let (s, _) = gold_trace(name, "summary");
        let l = &s["latency"];
        assert_eq!(l["column"], col, "{name}");
        assert_eq!(l["frames"], expected.len(), "{name}");
        near(&l["p50_ms"], rank(&expected, 0.5), name);
        near(&l["p99_ms"], rank(&expected, 0.99), name);
        near(&l["max_ms"], expected[expected.len() - 1], name);
        // No click reached these frames: every click-to-photon value is NA.
        assert!(s["click_to_photon"].is_null(), "{name}");
        let text = stdout(&bt(&[
            "diagnose",
            "hello",
            "--clock",
            &gold(name),
            "--csv",
            "/dev/null",
        ]));
        let line = text
            .lines()
            .find(|l| l.starts_with("display latency"))
            .unwrap_or_else(|| panic!("{name}: {text}"));
        assert!(line.contains(col) && line.contains(meaning), "{line}");
    }
    // The trace carries it as a counter track, with no sample for a frame never displayed
    // (PresentMon 1's file writes 0 for its one dropped frame: the track must not fall to 0).
    for (name, col) in [
        ("test_case_2-v2.csv", "DisplayLatency"),
        ("test_case_2-v1.csv", "msUntilDisplayed"),
    ] {
        let (trace, _) = gold_trace(name, "chrome");
        let samples: Vec<f64> = trace["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == "display latency (ms)")
            .map(|e| e["args"]["value"].as_f64().unwrap())
            .collect();
        assert_eq!(samples.len(), column(name, col).len(), "{name}");
        assert!(samples.iter().all(|&ms| ms > 0.0), "{name}: {samples:?}");
    }
}

#[test]
fn a_comparison_with_the_tall_chart_draws_both_runs_on_one_scale_a_above_b() {
    let dir = ScratchDir::new("captures");
    let png = dir.join("ab.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("stalls-2000.csv"),
        "--compare",
        "paced:60",
        "--chart",
        "tall",
        "--whole",
        "--fixed-costs",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = image::open(&png).unwrap().to_rgba8();
    assert_eq!(
        (got.width(), got.height()),
        (320, 480),
        "two screens, one above the other"
    );
    // Under the one golden rule: pixels compared, `BT_UPDATE_GOLDEN=1` rewrites. (A's chart
    // is the capture's, with its stalls; B's, steady at 60 fps, is drawn on A's 150 ms scale.)
    assert_golden(&got, "tall-compare.png");
    // B alone would fit its 16.7 ms frames on a 50 ms scale: the two charts differ there.
    let alone = dir.join("b.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        "paced:60",
        "--frames",
        "2000",
        "--chart",
        "tall",
        "--whole",
        "--fixed-costs",
        "-o",
        alone.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let alone = image::open(&alone).unwrap().to_rgba8();
    let b_half: Vec<u8> = got.as_raw()[got.as_raw().len() / 2..].to_vec();
    assert_ne!(b_half, alone.as_raw().to_vec());
}

/// The frame-generation capture's rows as (column name → text) maps, read here with nothing of
/// BT's.
fn frame_generation_rows() -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(capture("presentmon-frame-generation.csv")).unwrap();
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// `bt trace hello --format FORMAT` over the frame-generation capture.
fn frame_generation_trace(format: &str) -> serde_json::Value {
    let o = bt(&[
        "trace",
        "hello",
        "--clock",
        &spec("presentmon-frame-generation.csv"),
        "--format",
        format,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn frame_generation_sets_the_applications_frames_apart_from_the_generated_ones() {
    let rows = frame_generation_rows();
    // By hand: each application frame's interval is the present intervals since the last
    // application frame, generated frames included.
    let mut intervals = Vec::new();
    let mut since = 0.0;
    for r in &rows {
        since += r["MsBetweenPresents"].parse::<f64>().unwrap();
        if r["FrameType"] == "Application" {
            intervals.push(since);
            since = 0.0;
        }
    }
    let span: f64 = rows
        .iter()
        .map(|r| r["MsBetweenPresents"].parse::<f64>().unwrap())
        .sum();
    intervals.sort_by(f64::total_cmp);
    let rank = |q: f64| intervals[((q * intervals.len() as f64).ceil() as usize) - 1];
    let s = frame_generation_trace("summary");
    let g = &s["captured"]["frame_generation"];
    assert_eq!(g["application_frames"], intervals.len());
    assert_eq!(g["generated_frames"], rows.len() - intervals.len());
    let generators = &s["captured"]["generators"];
    assert_eq!(generators[0]["frame_type"], "AMD AFMF");
    assert_eq!(
        generators[0]["frames_in_capture"],
        rows.len() - intervals.len()
    );
    near(
        &g["application_fps"],
        intervals.len() as f64 * 1000.0 / span,
        "app fps",
    );
    near(&g["application_p50_ms"], rank(0.5), "app p50");
    near(&g["application_p99_ms"], rank(0.99), "app p99");
    // The displayed rate counts both kinds: twice the application's here.
    let displayed = s["displayed"]["fps"].as_f64().unwrap();
    let app = g["application_fps"].as_f64().unwrap();
    assert!(
        (displayed / app - 2.0).abs() < 0.01,
        "{displayed} against {app}"
    );
    // The trace says which frames were generated.
    let trace = frame_generation_trace("chrome");
    let flags: Vec<f64> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "C" && e["name"] == "generated frame")
        .map(|e| e["args"]["value"].as_f64().unwrap())
        .collect();
    let expected: Vec<f64> = rows
        .iter()
        .map(|r| f64::from(u8::from(r["FrameType"] != "Application")))
        .collect();
    assert_eq!(flags, expected);
}

#[test]
fn the_tall_chart_draws_generated_frames_in_their_own_colour() {
    let dir = ScratchDir::new("captures");
    let png = dir.join("generated.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("presentmon-frame-generation.csv"),
        "--chart",
        "tall",
        "--from",
        "150",
        "--to",
        "437",
        "--fixed-costs",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = image::open(&png).unwrap().to_rgba8();
    assert_golden(&got, "tall-capture-frame-generation.png");
}

#[test]
fn each_further_latency_column_has_its_percentiles_and_its_trace_track() {
    let rows = frame_generation_rows();
    let s = frame_generation_trace("summary");
    let trace = frame_generation_trace("chrome");
    let latencies = s["captured"]["input_latency"].as_array().unwrap();
    let columns: Vec<&str> = latencies
        .iter()
        .map(|l| l["column"].as_str().unwrap())
        .collect();
    assert_eq!(
        columns,
        [
            "MsPCLatency",
            "MsAllInputToPhotonLatency",
            "MsInstrumentedLatency"
        ]
    );
    for l in latencies {
        let column = l["column"].as_str().unwrap();
        let in_order: Vec<f64> = rows.iter().filter_map(|r| r[column].parse().ok()).collect();
        let mut sorted = in_order.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = |q: f64| sorted[((q * sorted.len() as f64).ceil() as usize) - 1];
        assert_eq!(l["frames"], sorted.len(), "{column}");
        near(&l["p50_ms"], rank(0.5), column);
        near(&l["p95_ms"], rank(0.95), column);
        near(&l["max_ms"], sorted[sorted.len() - 1], column);
        let track = format!("{column} (ms)");
        let samples: Vec<f64> = trace["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == track.as_str())
            .map(|e| e["args"]["value"].as_f64().unwrap())
            .collect();
        assert_eq!(
            samples, in_order,
            "{track}: one sample a frame with a value"
        );
    }
    let text = stdout(&bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("presentmon-frame-generation.csv"),
        "--csv",
        "/dev/null",
    ]));
    for (label, column) in [
        ("PC latency", "MsPCLatency"),
        ("all input to photon", "MsAllInputToPhotonLatency"),
        ("instrumented latency", "MsInstrumentedLatency"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("{label}: {text}"));
        assert!(line.contains(column), "{line}");
    }
}

#[test]
fn present_mode_and_tearing_over_time_are_named_in_the_summary_and_marked_on_the_chart() {
    // The spans, read here: a new one wherever PresentMode or AllowsTearing changes.
    let rows = frame_generation_rows();
    let mut spans: Vec<(usize, String, String)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let key = (r["PresentMode"].clone(), r["AllowsTearing"].clone());
        if spans
            .last()
            .is_none_or(|s| (s.1.clone(), s.2.clone()) != key)
        {
            spans.push((i, key.0, key.1));
        }
    }
    assert_eq!(spans.len(), 3);
    let s = frame_generation_trace("summary");
    let modes = s["captured"]["present_modes"].as_array().unwrap();
    assert_eq!(modes.len(), spans.len());
    for (k, (m, (from, mode, tearing))) in modes.iter().zip(&spans).enumerate() {
        assert_eq!(m["first_frame"], *from);
        let last = spans.get(k + 1).map_or(rows.len(), |s| s.0) - 1;
        assert_eq!(m["last_frame"], last);
        let name = m["mode"].as_str().unwrap();
        assert!(name.starts_with(mode.as_str()), "{name}");
        let said = if tearing == "1" {
            "tearing allowed"
        } else {
            "no tearing"
        };
        assert!(name.ends_with(said), "{name}");
    }
    // The trace marks the mode at the first frame and at each change.
    let trace = frame_generation_trace("chrome");
    let marks: Vec<String> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "i" && e["name"] == "present mode")
        .map(|e| e["args"]["mode"].as_str().unwrap().to_string())
        .collect();
    let names: Vec<String> = modes
        .iter()
        .map(|m| m["mode"].as_str().unwrap().into())
        .collect();
    assert_eq!(marks, names);
    let dir = ScratchDir::new("captures");
    let png = dir.join("modes.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("presentmon-frame-generation.csv"),
        "--chart",
        "tall",
        "--whole",
        "--fixed-costs",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = image::open(&png).unwrap().to_rgba8();
    assert_golden(&got, "tall-capture-present-modes.png");
}

#[test]
fn a_captures_tall_chart_names_the_program_not_the_cart() {
    let dir = ScratchDir::new("captures");
    let chart = |clock: &str, frames: Option<&str>, name: &str| {
        let png = dir.join(name);
        let mut args = vec!["diagnose", "hello", "--clock", clock, "--chart", "tall"];
        if let Some(n) = frames {
            args.extend(["--frames", n]);
        }
        args.extend(["-o", png.to_str().unwrap()]);
        let o = bt(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        image::open(&png).unwrap().to_rgba8()
    };
    let captured = chart(
        &spec("presentmon-frame-generation.csv"),
        None,
        "captured.png",
    );
    let cart = chart("paced:45", Some("300"), "cart.png");
    // The title row's left half: the program captured, where the cart's run says Hello.
    let title = |img: &image::RgbaImage| -> Vec<[u8; 4]> {
        (0..10)
            .flat_map(|y| (0..img.width() / 2).map(move |x| (x, y)))
            .map(|(x, y)| img.get_pixel(x, y).0)
            .collect()
    };
    assert_ne!(title(&captured), title(&cart));
    // The whole-run chart of the stalls capture (its golden above) is scaled to its frames
    // and titled by its program; this one's golden is the frame-generation chart's.
}

#[test]
fn diagnose_compares_several_runs_and_aggregates_them_leaving_out_the_outlier() {
    let dir = ScratchDir::new("captures");
    let report = dir.join("runs.html");
    // The four runs of one CapFrameX file, each played as a run: A to D. Runs 1 to 3 hold
    // 60 fps with a few 20 ms frames; run 4 has a 33.4 ms frame every 20 frames, so its P1
    // lies far below the others'.
    let run = |n: u32| format!("{}#{n}", spec("capframex-runs.json"));
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &run(1),
        "--compare",
        &run(2),
        "--compare",
        &run(3),
        "--compare",
        &run(4),
        "--aggregate",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("D = game.exe run 4"), "{out}");
    let frames = out
        .lines()
        .find(|l| l.starts_with("frames   "))
        .unwrap_or_else(|| panic!("no frames row:\n{out}"));
    let cells: Vec<&str> = frames.split_whitespace().collect();
    assert_eq!(
        cells,
        ["frames", "240.0", "240.0", "240.0", "240.0"],
        "{frames}"
    );
    // The aggregate, at CapFrameX's default of 3%: run 4 alone is an outlier, and the runs
    // left are 720 frames end to end.
    let aggregate = out
        .split("aggregate (")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(aggregate.starts_with("CapFrameX's rule"), "{aggregate}");
    let outliers: Vec<&str> = aggregate
        .lines()
        .filter(|l| l.ends_with("outlier"))
        .collect();
    assert_eq!(outliers.len(), 1, "{aggregate}");
    assert!(outliers[0].trim_start().starts_with("D "), "{aggregate}");
    assert!(aggregate.contains("(960 frames)"), "{aggregate}");
    assert!(aggregate.contains("(720 frames)"), "{aggregate}");
    // The report: one chart with each run's percentile curve, and the aggregate's table.
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains("Frame time by percentile, each run"));
    assert!(page.contains("A in blue, B in orange, C in green, D in pink"));
    assert!(page.contains("<h2>Aggregate</h2>"));
    // Each run's curve in its own colour: A's blue, B's orange, C's green and D's pink.
    for colour in ["#29ADFF", "#FF6C24", "#00E436", "#FF77A8"] {
        assert!(
            page.contains(&format!("stroke=\"{colour}\" stroke-width=\"2\"")),
            "no percentile curve in {colour}"
        );
    }
    // A tighter percentage makes run 1, 1.5% above the median, an outlier too.
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &run(1),
        "--compare",
        &run(2),
        "--compare",
        &run(3),
        "--compare",
        &run(4),
        "--aggregate",
        "1",
        "--csv",
        dir.join("runs.csv").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let aggregate = out.split("aggregate (").nth(1).unwrap();
    assert_eq!(
        aggregate.lines().filter(|l| l.ends_with("outlier")).count(),
        2,
        "{aggregate}"
    );
}

#[test]
fn a_capframex_files_runs_play_end_to_end_with_all() {
    let dir = ScratchDir::new("captures");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &format!("{}#all", spec("capframex-runs.json")),
        "--csv",
        dir.join("all.csv").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("playing game.exe run 1 to 4, end to end (960 frames)"),
        "{}",
        stderr(&o)
    );
    let csv = std::fs::read_to_string(dir.join("all.csv")).unwrap();
    assert_eq!(csv.lines().count(), 961, "a header and every run's frames");
}

#[test]
fn runs_diagnose_cannot_set_side_by_side_are_refused_before_running() {
    let dir = ScratchDir::new("captures");
    let run = |n: u32| format!("{}#{n}", spec("capframex-runs.json"));
    let png = dir.join("tall.png");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &run(1),
        "--compare",
        &run(2),
        "--compare",
        &run(3),
        "--chart",
        "tall",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--compare was given 2 times; give one --compare"),
        "{}",
        stderr(&o)
    );
    assert!(!png.exists());
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &run(1),
        "--aggregate",
        "--csv",
        dir.join("one.csv").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--aggregate needs at least two runs"),
        "{}",
        stderr(&o)
    );
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &run(1),
        "--compare",
        &run(2),
        "--aggregate",
        "10",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("10 is not in 1..=9"), "{}", stderr(&o));
}

#[test]
fn the_summary_gives_capframexs_stuttering_time_of_the_frames_played() {
    // The capture's game frames, read here; the stuttering time of what was played is
    // CapFrameX's figure of those frames.
    let frames: Vec<f64> = game_rows().iter().map(|(ms, _)| *ms).collect();
    let clock = spec("stalls-2000.csv");
    let o = bt(&["trace", "hello", "--clock", &clock, "--format", "summary"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let share = s["capframex"]["stuttering_time_percent"].as_f64().unwrap();
    let expected = bt_runtime::timing::stuttering::stuttering_time_percent(&frames);
    assert!(expected > 0.0, "the capture's stalls stutter");
    assert!(
        (share - expected).abs() < 1e-9,
        "{share} against {expected}"
    );
    let dir = ScratchDir::new("captures");
    let csv = dir.join("rows.csv");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &clock,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).contains(&format!("stuttering time {expected:.2} %")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_report_plots_a_capframex_captures_sensors_in_their_units_beside_the_frame_times() {
    let dir = ScratchDir::new("captures");
    let report = dir.join("sensors.html");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &format!("{}#2", spec("capframex-runs.json")),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&report).unwrap();
    let sensors = page
        .split("<h2>Sensors</h2>")
        .nth(1)
        .unwrap_or_else(|| panic!("no sensors in the report"));
    // One chart a kind, each captioned with its unit, each sensor by the file's name.
    for caption in ["Load (%)", "Clock (MHz)", "Temperature (°C)", "Power (W)"] {
        assert!(sensors.contains(caption), "no {caption} chart");
    }
    for name in [
        "GPU Core Load",
        "CPU Total Load",
        "GPU Core Clock",
        "GPU Power",
    ] {
        assert!(sensors.contains(name), "no {name} line");
    }
    assert_eq!(sensors.matches("<svg").count(), 4);
    // A capture without sensors has no such section.
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("capframex.json"),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(!page.contains("<h2>Sensors</h2>"));
}

#[test]
fn a_capture_at_its_own_pace_runs_the_same_updates_and_pictures_as_one_a_refresh() {
    use std::sync::Arc;

    use bt_runtime::clock::capture::Capture;
    use bt_runtime::{Engine, EngineOptions};

    let capture = Arc::new(Capture::load(&capture("stalls-2000.csv"), None).unwrap());
    let hello = || {
        let cart = bt_gallery::find("hello").expect("bundled cart");
        let options = EngineOptions {
            overlay: false,
            ..EngineOptions::default()
        };
        Engine::new(Box::new(cart.build), options).expect("cart boots")
    };
    let frames = capture.len();
    // One captured frame a 60 Hz refresh.
    let mut refresh = hello();
    refresh.set_clock(Box::new(capture.clock(false)));
    let (mut shown, mut now) = (0, 0.0);
    while shown < frames {
        shown += usize::from(refresh.run(now).is_some());
        now += 1000.0 / 60.0;
    }
    // At the capture's own pace: a host that sleeps until the clock's next frame is due, as
    // the window does, and otherwise asks every millisecond.
    let mut own = hello();
    own.set_clock(Box::new(capture.clock_at_its_own_pace(|_| {})));
    let (mut shown_at, mut now) = (Vec::new(), 0.0);
    while shown_at.len() < frames {
        if own.run(now).is_some() {
            shown_at.push(now);
        }
        now = own.next_frame_ms().unwrap_or(now + 1.0).max(now);
        assert!(now < 1e9, "the run ends");
    }
    // Each frame came its captured interval after the one before.
    for (i, pair) in shown_at.windows(2).enumerate() {
        let gap = pair[1] - pair[0];
        assert!(
            (gap - capture.frames_ms()[i + 1]).abs() < 1e-6,
            "frame {}: {gap} ms after the one before, captured {} ms",
            i + 1,
            capture.frames_ms()[i + 1]
        );
    }
    // The same updates and the same picture either way.
    assert_eq!(own.updates_since_init(), refresh.updates_since_init());
    assert_eq!(own.ticks(), refresh.ticks());
    assert_eq!(own.framebuffer(), refresh.framebuffer());
}

#[test]
fn capture_pace_is_refused_without_a_capture_clock() {
    let o = bt(&[
        "run",
        "hello",
        "--clock",
        "paced:60",
        "--capture-pace",
        "real",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--capture-pace paces a capture clock"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_report_plots_a_frameview_logs_gpu_columns_under_their_own_names() {
    // A FrameView log made for the purpose: the game's frames with the GPU's clock, memory
    // clock, utilisation, temperature and power on every row, the compositor's beside them.
    let dir = ScratchDir::new("captures");
    let report = dir.join("frameview.html");
    let o = bt(&[
        "diagnose",
        "hello",
        "--clock",
        &spec("frameview-gpu.csv"),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("playing game.exe (pid 6312)"),
        "{}",
        stderr(&o)
    );
    let page = std::fs::read_to_string(&report).unwrap();
    let sensors = page
        .split("<h2>Sensors</h2>")
        .nth(1)
        .unwrap_or_else(|| panic!("no sensors in the report"));
    for caption in ["Clock (MHz)", "Load (%)", "Temperature (°C)", "Power (W)"] {
        assert!(sensors.contains(caption), "no {caption} chart");
    }
    for name in [
        "GPU0Clk(MHz)",
        "GPU0MemClk(MHz)",
        "GPU0Util(%)",
        "GPU0Temp(C)",
        "NV Pwr(W) (API)",
    ] {
        assert!(sensors.contains(name), "no {name} line");
    }
    // The CPU's columns are not the GPU's sensors.
    assert!(!sensors.contains("CPUClk"));
}
