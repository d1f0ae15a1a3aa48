use super::*;

/// The hand-made captures in `runtime/tests/captures`, one per format.
const PRESENTMON: &str = include_str!("../../../../tests/captures/presentmon.csv");
const OCAT_TEARING: &str = include_str!("../../../../tests/captures/ocat-tearing.csv");
const MANGOHUD: &str = include_str!("../../../../tests/captures/mangohud.csv");
const CAPFRAMEX: &str = include_str!("../../../../tests/captures/capframex.json");
const PLAIN: &str = include_str!("../../../../tests/captures/plain.txt");
/// The PresentMon sample as a spreadsheet saves it where the comma is the decimal mark:
/// fields split at `;`, decimal commas, CRLF line ends.
const PRESENTMON_SEMICOLON: &str =
    include_str!("../../../../tests/captures/presentmon-semicolon.csv");
/// A FRAPS frametimes file: `Frame, Time (ms)`, then each frame's number and its time since
/// the first frame, as FRAPS writes it.
const FRAPS: &str = include_str!("../../../../tests/captures/fraps-frametimes.csv");
/// One V-Sync-off run (tearing allowed, sync interval 0, display changes as soon as each frame
/// is ready) written twice with the same frames: as CapFrameX writes a capture (its
/// `SessionCaptureData` arrays, `AllowsTearing` and `SyncInterval` as integers, `PresentMode`
/// as its `EPresentMode` number) and as PresentMon 1 writes the same swap chain's columns.
const CAPFRAMEX_VSYNC_OFF: &str =
    include_str!("../../../../tests/captures/capframex-vsync-off.json");
const PRESENTMON_VSYNC_OFF: &str =
    include_str!("../../../../tests/captures/presentmon-vsync-off.csv");
/// One recording in PresentMon's three column sets, from PresentMon's own test data (see
/// `runtime/tests/captures/presentmon-gold/SOURCE.md`).
const GOLD_V1: &str = include_str!("../../../../tests/captures/presentmon-gold/test_case_2-v1.csv");
const GOLD_DEFAULT: &str =
    include_str!("../../../../tests/captures/presentmon-gold/test_case_2-default.csv");
const GOLD_V2: &str = include_str!("../../../../tests/captures/presentmon-gold/test_case_2-v2.csv");

/// The compositor's rows of a gold file, as (column name → text) maps, read with nothing of
/// the capture reader.
fn gold_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .filter(|l| l.starts_with("dwm.exe,"))
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

fn parse(text: &str, selector: Option<&str>) -> Capture {
    Capture::parse(text, "test", selector).unwrap()
}

fn err(text: &str) -> String {
    Capture::parse(text, "bad.csv", None)
        .unwrap_err()
        .to_string()
}

#[test]
fn presentmon_plays_the_swap_chain_with_the_most_frames_and_says_what_else_it_holds() {
    assert!(
        PRESENTMON.starts_with('\u{feff}'),
        "the sample keeps its BOM"
    );
    let c = parse(PRESENTMON, None);
    assert_eq!(c.format(), CaptureFormat::PresentMon);
    assert_eq!(c.stream().process, "game.exe");
    assert_eq!(c.stream().swap_chain, "0x000001A2B3C4D5E0");
    assert_eq!(c.len(), 14, "the zero first row is left out");
    assert_eq!(c.frames_ms()[3], 1.21);
    assert_eq!(c.stream().not_displayed, Some(1));
    assert_eq!(c.refresh(), Refresh::Measured(60.0));
    let said = c.describe();
    assert!(
        said.contains("playing game.exe (pid 4242) swap chain 0x000001A2B3C4D5E0 (14 frames)"),
        "{said}"
    );
    assert!(said.contains("leaving out 1 first row(s)"), "{said}");
    assert!(
        said.contains("also holds dwm.exe (pid 1312) swap chain 0x000002B0C0D0E0F0 (7 frames)"),
        "{said}"
    );
    // Picked by process name, whatever its case, or by swap chain.
    let dwm = parse(PRESENTMON, Some("DWM.exe"));
    assert_eq!((dwm.len(), dwm.frames_ms()[0]), (7, 33.33));
    assert_eq!(parse(PRESENTMON, Some("0x000002b0c0d0e0f0")).len(), 7);
    assert_eq!(parse(PRESENTMON, Some("1312")).len(), 7, "by process id");
    let e = Capture::parse(PRESENTMON, "pm.csv", Some("chrome.exe")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "capture 'pm.csv': nothing matches '#chrome.exe'; it holds game.exe (pid 4242) swap \
         chain 0x000001A2B3C4D5E0 (14 frames), dwm.exe (pid 1312) swap chain \
         0x000002B0C0D0E0F0 (7 frames)"
    );
}

#[test]
fn the_gold_recordings_play_the_application_and_name_streams_alike_in_every_version() {
    // PresentMon's own recording holds the compositor (dwm.exe, 56 frames) and an application
    // (Presenter.exe, 3 rows here): the application is played unless the compositor is named.
    for (version, text) in [("1.x", GOLD_V1), ("2.x", GOLD_DEFAULT), ("2.x v2", GOLD_V2)] {
        let played = parse(text, None);
        assert_eq!(played.stream().process, "Presenter.exe", "{version}");
        assert!(
            played
                .describe()
                .contains("also holds dwm.exe (pid 1300) swap chain"),
            "{version}: {}",
            played.describe()
        );
        // PresentMon 1 pads addresses to 16 digits, PresentMon 2 does not: either spelling,
        // and the process id, name the same stream in every file.
        for selector in ["0x296989CD030", "0x00000296989cd030", "1300", "dwm.exe"] {
            let dwm = parse(text, Some(selector));
            assert_eq!(dwm.stream().process, "dwm.exe", "{version} #{selector}");
            assert_eq!(dwm.stream().process_id, "1300", "{version} #{selector}");
        }
        assert_eq!(parse(text, Some("10016")).stream().process, "Presenter.exe");
    }
    // Alone in its file, the compositor is played.
    let dwm_only: String = GOLD_V1
        .lines()
        .filter(|l| !l.starts_with("Presenter.exe"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(parse(&dwm_only, None).stream().process, "dwm.exe");
}

#[test]
fn column_names_are_matched_whatever_their_case_and_tearing_means_no_refresh() {
    let c = parse(OCAT_TEARING, None);
    assert_eq!(c.len(), 12);
    assert_eq!(c.stream().tearing_frames, Some(12));
    assert_eq!(c.refresh(), Refresh::Tearing);
}

#[test]
fn capframex_json_carries_tearing_and_sync_interval_as_presentmon_csv_does() {
    let json = parse(CAPFRAMEX_VSYNC_OFF, None);
    let csv = parse(PRESENTMON_VSYNC_OFF, None);
    assert_eq!(json.frames_ms(), csv.frames_ms(), "the same frames");
    for c in [&json, &csv] {
        assert_eq!(c.stream().tearing_frames, Some(24), "{}", c.format());
        assert_eq!(c.stream().sync_off_frames, Some(24), "{}", c.format());
        // Displayed as soon as ready, the frames fall on no refresh grid: no rate can be told
        // from them, and none is made up from the frame times.
        assert!(c.refresh_fit().unwrap().share < 0.9);
        assert_eq!(c.refresh(), Refresh::Tearing, "{}", c.format());
    }
    // Sync interval 0 with tearing not allowed (the flag cleared in both files) and no display
    // times (their column renamed away): V-Sync off, still no refresh to count misses against,
    // in either format.
    let mut cleared: serde_json::Value = serde_json::from_str(CAPFRAMEX_VSYNC_OFF).unwrap();
    let data = &mut cleared["Runs"][0]["CaptureData"];
    data["AllowsTearing"] = serde_json::json!(vec![0; 24]);
    data.as_object_mut()
        .unwrap()
        .remove("MsBetweenDisplayChange");
    let json = parse(&cleared.to_string(), None);
    let cleared_csv = PRESENTMON_VSYNC_OFF
        .replace(",DXGI,0,512,1,", ",DXGI,0,0,0,")
        .replace(",MsBetweenDisplayChange,", ",Unread,");
    let csv = parse(&cleared_csv, None);
    for c in [&json, &csv] {
        assert_eq!(c.stream().tearing_frames, Some(0), "{}", c.format());
        assert_eq!(c.stream().display_ms, None, "{}", c.format());
        assert_eq!(c.refresh(), Refresh::SyncOff, "{}", c.format());
    }
    // With V-Sync on (sync interval 1) the frame times are the estimate again, alike.
    let mut synced = cleared.clone();
    synced["Runs"][0]["CaptureData"]["SyncInterval"] = serde_json::json!(vec![1; 24]);
    let json = parse(&synced.to_string(), None);
    let csv = parse(&cleared_csv.replace(",DXGI,0,0,0,", ",DXGI,1,0,0,"), None);
    assert_eq!(json.stream().sync_off_frames, Some(0));
    assert!(matches!(json.refresh(), Refresh::Estimated(_)));
    assert_eq!(json.refresh(), csv.refresh());
    // A sync interval that is not a whole number is named with its line and column.
    assert_eq!(
        err("MsBetweenPresents,SyncInterval\n16.7,1\n16.7,on\n"),
        "capture 'bad.csv' line 3, column SyncInterval: 'on' is not a sync interval (a whole \
         number)"
    );
}

#[test]
fn mangohud_frametimes_are_read_after_its_system_lines() {
    let c = parse(MANGOHUD, None);
    assert_eq!(c.format(), CaptureFormat::MangoHud);
    assert_eq!(c.frames_ms()[..3], [8.33, 8.34, 8.32]);
    assert_eq!(c.len(), 12);
    assert_eq!(c.refresh(), Refresh::Estimated(120.0));
}

#[test]
fn capframex_json_plays_its_longest_run_or_the_one_named() {
    let c = parse(CAPFRAMEX, None);
    assert_eq!(c.format(), CaptureFormat::CapFrameXJson);
    assert_eq!(c.len(), 11);
    assert_eq!(c.stream().swap_chain, "run 2");
    assert_eq!(c.frames_ms()[9], 100.0);
    assert_eq!(c.refresh(), Refresh::Measured(60.0));
    let first = parse(CAPFRAMEX, Some("1"));
    assert_eq!((first.len(), first.frames_ms()[4]), (8, 50.0));
    // A run is called a run, and named by its number.
    let said = first.describe();
    assert!(
        said.ends_with(
            "; it also holds game.exe run 2 (11 frames) (pick one with capture:test#N, N the \
             run's number from 1, or #all for every run end to end)"
        ),
        "{said}"
    );
    assert!(!said.contains("swap chain"), "{said}");
    let e = Capture::parse(CAPFRAMEX, "cfx.json", Some("3")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "capture 'cfx.json': nothing matches '#3'; it holds game.exe run 1 (8 frames), \
         game.exe run 2 (11 frames)"
    );
}

#[test]
fn plain_text_is_one_frame_time_a_line() {
    let c = parse(PLAIN, None);
    assert_eq!(c.format(), CaptureFormat::PlainText);
    assert_eq!(c.len(), 11);
    assert_eq!(c.frames_ms()[4], 66.7);
    assert_eq!(c.refresh(), Refresh::Estimated(60.0));
    assert_eq!(
        c.describe(),
        "capture 'test' (plain text): playing its frames (11 frames)"
    );
}

#[test]
fn the_clock_plays_the_capture_once_or_looped() {
    let c = Arc::new(parse("10\n20\n", None));
    let mut once = c.clock(false);
    let got: Vec<_> = (0..3).map(|_| once.delta(0.0)).collect();
    assert_eq!(got, [Some(10.0), Some(20.0), None]);
    let mut looped = c.clock(true);
    let got: Vec<_> = (0..3).map(|_| looped.delta(0.0)).collect();
    assert_eq!(got, [Some(10.0), Some(20.0), Some(10.0)]);
}

#[test]
fn a_capture_played_in_a_window_says_once_when_it_runs_out() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let c = Arc::new(parse(PRESENTMON, None));
    let said = Rc::new(RefCell::new(Vec::new()));
    let heard = Rc::clone(&said);
    let mut clock = c.clock_saying_its_end(move |line| heard.borrow_mut().push(line.to_string()));
    let played: Vec<f64> = std::iter::from_fn(|| clock.delta(0.0)).collect();
    assert_eq!(played, c.frames_ms(), "every frame, in order");
    assert!(said.borrow().len() == 1);
    for _ in 0..3 {
        assert_eq!(clock.delta(0.0), None);
    }
    let said = said.borrow();
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert_eq!(
        said[0],
        "capture 'test' played out: all 14 frames (0.3 s) of game.exe (pid 4242) swap chain \
         0x000001A2B3C4D5E0; no frame runs after it, so the cart stops updating and the window \
         keeps its last picture until it is closed"
    );
}

#[test]
fn bad_files_name_the_line_the_column_and_the_value() {
    assert_eq!(
        err("Application,MsBetweenPresents\ngame.exe,16.7\ngame.exe,abc\n"),
        "capture 'bad.csv' line 3, column MsBetweenPresents: 'abc' is not a frame time in ms \
         (0.001 to 60000)"
    );
    assert_eq!(
        err("msbetweenpresents,Dropped\n16.7,0\n16.7,maybe\n"),
        "capture 'bad.csv' line 3, column Dropped: 'maybe' is not 0 or 1"
    );
    assert_eq!(
        err("Application,SwapChainAddress,MsBetweenPresents\ngame.exe,0x1\n"),
        "capture 'bad.csv' line 2: 2 fields, but column MsBetweenPresents is field 3"
    );
    assert_eq!(
        err("16.7\n-3\n"),
        "capture 'bad.csv' line 2, column 1: '-3' is not a frame time in ms (0.001 to 60000)"
    );
    assert_eq!(
        err("time,value\n1,2\n"),
        "capture 'bad.csv' line 1: no frame-time column (expected MsBetweenPresents, \
         FrameTime, frametime, or FRAPS's Frame, Time (ms)) and 'time,value' is not a frame time"
    );
    assert_eq!(
        err("\n\n# nothing\n"),
        "capture 'bad.csv' holds no frame times"
    );
    assert_eq!(
        err("MsBetweenPresents\n"),
        "capture 'bad.csv' holds no frame times"
    );
    assert!(err("{\"Runs\": [}").starts_with("capture 'bad.csv': not JSON: "));
    assert_eq!(
        err("{\"Info\": {}}"),
        "capture 'bad.csv': no \"Runs\" array (expected a CapFrameX capture)"
    );
    assert_eq!(
        err("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [16.7, 0]}}]}"),
        "capture 'bad.csv' line 1, column Runs[0].CaptureData.MsBetweenPresents: '0' is not a \
         frame time in ms (0.001 to 60000)"
    );
    let long = format!("{}\n", "x".repeat(10_000));
    assert!(err(&long).len() < 300, "a long value is quoted short");
}

#[test]
fn a_file_is_read_from_utf8_or_utf16_and_a_missing_one_is_named() {
    let dir = bt_test_support::ScratchDir::new("capture");
    let path = dir.join("utf16.csv");
    let mut bytes = vec![0xff, 0xfe];
    for unit in "MsBetweenPresents\r\n16.7\r\n33.3\r\n".encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    std::fs::write(&path, bytes).unwrap();
    assert_eq!(
        Capture::load(&path, None).unwrap().frames_ms(),
        [16.7, 33.3]
    );
    std::fs::write(&path, [0x80, 0x81, 0x82]).unwrap();
    assert!(Capture::load(&path, None)
        .unwrap_err()
        .to_string()
        .contains("not text"));
    let missing = dir.join("missing.csv");
    let e = Capture::load(&missing, None).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!(
            "capture {}: could not read it: ",
            missing.display()
        )),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_named_as_a_capture_is_refused_at_once() {
    // Neither may block waiting on a writer nor read until memory runs out.
    let dir = bt_test_support::ScratchDir::new("capture-fifo");
    let fifo = dir.join("frames.csv");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo {}", fifo.display());
    for (path, kind) in [
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/zero"), "device"),
    ] {
        let e = Capture::load(path, None).unwrap_err().to_string();
        assert!(e.contains(kind) && e.contains("not a regular file"), "{e}");
        assert!(e.contains(&path.display().to_string()), "{e}");
    }
}

#[test]
fn a_hundred_thousand_frame_capture_parses_whole() {
    let mut text = String::from("Application,ProcessID,SwapChainAddress,AllowsTearing,MsBetweenPresents,MsBetweenDisplayChange\n");
    for i in 0..100_000u32 {
        let ms = if i % 97 == 0 { 33.4 } else { 16.7 };
        text.push_str(&format!("game.exe,1,0x1,0,{ms},{ms}\n"));
        if i % 10 == 0 {
            text.push_str("dwm.exe,2,0x2,0,16.6,16.6\n");
        }
    }
    let c = parse(&text, None);
    assert_eq!(c.len(), 100_000);
    assert_eq!(c.frames_ms().iter().filter(|&&ms| ms == 33.4).count(), 1031);
    assert_eq!(c.refresh(), Refresh::Measured(60.0));
}

#[test]
fn presentmon_2_displayed_time_is_how_long_a_frame_stayed_on_screen() {
    // `DisplayedTime` ends at the next displayed frame's display, so a frame's interval since
    // the previous display is the previous displayed frame's `DisplayedTime`.
    let rows = gold_rows(GOLD_V2);
    let mut expected = Vec::new();
    let mut previous: Option<f64> = None;
    for row in &rows {
        expected.push(match row["DisplayedTime"].as_str() {
            "NA" => 0.0,
            shown => previous.replace(shown.parse().unwrap()).unwrap_or(0.0),
        });
    }
    let v2 = parse(GOLD_V2, Some("dwm.exe"));
    assert_eq!(v2.stream().display_ms.as_deref(), Some(&expected[..]));
    let frame_time: Vec<f64> = rows
        .iter()
        .map(|r| r["FrameTime"].parse().unwrap())
        .collect();
    assert_eq!(v2.frames_ms(), frame_time, "the file's only frame interval");
    let said = v2.describe();
    assert!(
        said.contains("frame times from FrameTime (CPU start to"),
        "{said}"
    );
    assert!(
        said.contains("display intervals from DisplayedTime"),
        "{said}"
    );

    // The same recording's default columns measure the interval directly: after the first
    // frame (nothing before it in the v2 file), the two agree to the v2 file's 4 decimals.
    let default = parse(GOLD_DEFAULT, Some("dwm.exe"));
    let between = default.stream().display_ms.as_ref().unwrap();
    let on_screen = v2.stream().display_ms.as_ref().unwrap();
    assert_eq!(between.len(), on_screen.len());
    for (i, (a, b)) in between.iter().zip(on_screen).enumerate().skip(1) {
        assert!((a - b).abs() < 1e-3, "frame {i}: {a} against {b}");
    }
    assert!(!default.describe().contains("frame times from"));
}

#[test]
fn presentmon_2_frames_never_displayed_are_counted_from_their_na_display_columns() {
    let dropped_in = |text: &str| {
        gold_rows(text)
            .iter()
            .filter(|r| {
                r.get("Dropped").is_some_and(|d| d == "1")
                    || r.get("MsUntilDisplayed").is_some_and(|d| d == "NA")
                    || r.get("DisplayedTime").is_some_and(|d| d == "NA")
            })
            .count()
    };
    for (name, text) in [
        ("1.x", GOLD_V1),
        ("2.x default", GOLD_DEFAULT),
        ("2.x v2", GOLD_V2),
    ] {
        assert_eq!(dropped_in(text), 1, "{name}: the recording drops one frame");
        let c = parse(text, Some("dwm.exe"));
        assert_eq!(c.stream().not_displayed, Some(1), "{name}");
    }
    let presenter = parse(GOLD_V2, Some("Presenter.exe"));
    assert_eq!(
        presenter.stream().not_displayed,
        Some(0),
        "every row displayed"
    );
}

#[test]
fn a_bad_value_stops_the_run_only_in_the_stream_played() {
    let csv = "Application,SwapChainAddress,MsBetweenPresents,AllowsTearing\n\
               game.exe,0x1,16.7,0\n\
               other.exe,0x2,NA,NA\n\
               game.exe,0x1,16.7,0\n\
               other.exe,0x2,16.7,0\n";
    let c = parse(csv, None);
    assert_eq!(c.frames_ms(), [16.7, 16.7]);
    assert!(c.describe().contains("other.exe swap chain 0x2"));
    assert_eq!(
        Capture::parse(csv, "bad.csv", Some("other.exe"))
            .unwrap_err()
            .to_string(),
        "capture 'bad.csv' line 3, column MsBetweenPresents: 'NA' is not a frame time in ms \
         (0.001 to 60000)"
    );
}

/// A MangoHud log laid out as MangoHud's logger writes it (its system lines, then its columns
/// with `elapsed` in nanoseconds since logging started), sampled every 100 ms as its
/// `log_interval=100` does, from a game at about 60 fps.
fn mangohud_sampled(rows: usize) -> String {
    let mut log = String::from(
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n\
         Arch Linux,AMD Ryzen 7 5800X3D,AMD Radeon RX 6800,32 GB,6.11.5,Mesa 24.2.5,\n\
         fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,\
         gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed\n",
    );
    for i in 0..rows {
        let frametime = if i % 3 == 0 { 16.9 } else { 16.6 };
        log.push_str(&format!(
            "{:.1},{frametime},23,41,97,55,71,2250,1000,5.2,210,9.1,0,2.3,4400,{}\n",
            1000.0 / frametime,
            100_000_000 * (i + 1) + 1_234_567
        ));
    }
    log
}

#[test]
fn a_mangohud_log_sampled_every_100_ms_is_refused_with_how_to_log_every_frame() {
    // 295 frames after the first row: 98 of 16.9 ms and 197 of 16.6 ms, 4.93 s in all.
    let said = err(&mangohud_sampled(296));
    assert_eq!(
        said,
        "capture 'bad.csv' is a sampled MangoHud log, not one row a frame: its 296 rows span \
         29.5 s by its elapsed column but their frame times add up to 4.9 s (one row every \
         100 ms); log every frame with MangoHud's log_interval=0 \
         (MANGOHUD_CONFIG=log_interval=0) and capture again"
    );
    // One row a frame, as log_interval=0 writes: each row's elapsed time is its frame's.
    let c = parse(MANGOHUD, None);
    assert_eq!(c.format(), CaptureFormat::MangoHud);
    assert!(
        !c.describe().contains("frame times from"),
        "{}",
        c.describe()
    );
}

/// A PresentMon capture of a game presenting every `frames_ms` and displayed `display_ms`.
fn with_display(frames_ms: &[f64], display_ms: &[f64]) -> String {
    let mut csv =
        String::from("Application,SwapChainAddress,MsBetweenPresents,MsBetweenDisplayChange\n");
    for (f, d) in frames_ms.iter().zip(display_ms) {
        csv.push_str(&format!("game.exe,0x1,{f:.4},{d:.4}\n"));
    }
    csv
}

#[test]
fn the_refresh_is_the_grid_the_display_times_fall_on_not_the_games_rate() {
    // About 43 fps on a 240 Hz panel: each frame stays 5 or 6 refreshes of 4.167 ms, with the
    // display timer's small noise. The shortest display intervals alone read 48 Hz.
    let period = 1000.0 / 240.0;
    let refreshes = [5.0, 6.0, 6.0, 5.0, 6.0, 5.0, 6.0];
    let display: Vec<f64> = (0..300)
        .map(|i| period * refreshes[i % 7] + [0.03, -0.02, 0.01][i % 3])
        .collect();
    let frames: Vec<f64> = display.iter().map(|d| d + 0.4).collect();
    let c = parse(&with_display(&frames, &display), None);
    assert_eq!(c.refresh(), Refresh::Measured(240.0));
    let fit = c.refresh_fit().unwrap();
    assert_eq!((fit.share, fit.intervals), (1.0, 300));
    assert!(fit.rms_ms < 0.05, "{fit:?}");
    assert!(
        c.describe()
            .contains("display times fit a 240.00 Hz refresh grid (100.0 % of 300 intervals"),
        "{}",
        c.describe()
    );
}

#[test]
fn a_frame_cap_is_not_taken_for_the_panel() {
    // A game capped at 30 fps on a 60 Hz panel, in PresentMon 1's columns (as
    // `stalls-2000.csv`): each frame stays two refreshes, but twice in 600 frames the cap's
    // timer slips and a frame stays one refresh, the next three. A 30 Hz grid fits all but
    // those four intervals; a panel that changed the picture 16.7 ms apart is not 30 Hz.
    let capped = include_str!("../../../../tests/captures/presentmon-30fps-cap.csv");
    let c = parse(capped, None);
    assert_eq!(c.refresh(), Refresh::Measured(60.0));
    let fit = c.refresh_fit().unwrap();
    assert_eq!((fit.hz, fit.share, fit.intervals), (60.0, 1.0, 600));
    // 40 fps on a 120 Hz panel, every frame three refreshes: a 40 Hz grid fits as well as a
    // 120 Hz one, and 120 Hz is a panel's rate, 40 Hz a frame cap's.
    let display = vec![3000.0 / 120.0; 200];
    let c = parse(&with_display(&display, &display), None);
    assert_eq!(c.refresh(), Refresh::Measured(120.0));
    // An interval on no grid bounds nothing: PresentMon's own recording of the compositor
    // holds one display change 0.45 ms after another, and its panel is still 60 Hz.
    for text in [GOLD_V1, GOLD_DEFAULT] {
        assert_eq!(
            parse(text, Some("dwm.exe")).refresh(),
            Refresh::Measured(60.0)
        );
    }
}

#[test]
fn display_times_on_no_grid_say_so_and_make_no_rate_up_from_the_frame_times() {
    // Variable refresh: each frame is displayed as soon as it is ready, so the display
    // intervals are the frame times, spread evenly over 9 to 14 ms.
    let display: Vec<f64> = (0..400)
        .map(|i| 9.0 + 5.0 * ((i * 37 % 101) as f64 / 101.0))
        .collect();
    let c = parse(&with_display(&display, &display), None);
    let fit = c.refresh_fit().unwrap();
    assert!(fit.share < 0.9, "{fit:?}");
    assert_eq!(c.refresh(), Refresh::NoGrid);
    assert!(
        c.describe()
            .contains("display times fit no refresh grid (at best"),
        "{}",
        c.describe()
    );
}

#[test]
fn a_huge_process_name_is_cut_short_in_every_message() {
    let huge = "g".repeat(1_000_000);
    let chain = "0x".to_string() + &"A".repeat(100_000);
    let csv = format!(
        "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n\
         {huge},{huge},{chain},16.7\n{huge},{huge},{chain},33.4\nother.exe,7,0x2,16.6\n"
    );
    let c = parse(&csv, None);
    assert_eq!(c.stream().process, huge, "the name itself is kept whole");
    let name = c.stream().name();
    assert!(name.chars().count() < 200, "{name}");
    assert!(
        name.starts_with(&format!("{}… (pid ", "g".repeat(40))),
        "{name}"
    );
    assert!(c.describe().len() < 400, "{}", c.describe());
    let refused = err_with(&csv, "nothing.exe");
    assert!(refused.len() < 400, "{refused}");
    assert!(
        refused.contains("other.exe (pid 7) swap chain 0x2"),
        "{refused}"
    );
}

fn err_with(text: &str, selector: &str) -> String {
    Capture::parse(text, "bad.csv", Some(selector))
        .unwrap_err()
        .to_string()
}

#[test]
fn a_bad_cell_in_the_stream_that_would_play_stops_the_run_instead_of_playing_another() {
    // The game's second row has a spreadsheet's error in its frame-time column, and a browser
    // presented three frames: before, the game shrank to the row above the bad one and the
    // browser's frames were played, with no word of it.
    let line = PRESENTMON.lines().nth(2).unwrap();
    assert!(line.starts_with("game.exe,") && line.contains(",16.710,16.670,"));
    let browser = "firefox.exe,7001,0x00000300A0B0C0D0,DXGI,1,0,0,Composed: Flip,0,0.1,16.7,\
                   16.7,0.1,1.0,9.0\n";
    let csv = PRESENTMON.replacen(
        line,
        &line.replace(",16.710,16.670,", ",#VALUE!,16.670,"),
        1,
    ) + &browser.repeat(3);
    assert_eq!(parse(&csv, Some("firefox.exe")).len(), 3);
    assert_eq!(
        Capture::parse(&csv, "pm.csv", None)
            .unwrap_err()
            .to_string(),
        "capture 'pm.csv' line 3, column MsBetweenPresents: '#VALUE!' is not a frame time in \
         ms (0.001 to 60000)"
    );
    assert_eq!(
        parse(&csv, Some("dwm.exe")).len(),
        7,
        "the other stream is still there by name"
    );
}

#[test]
fn fully_quoted_csv_fields_read_as_the_unquoted_file() {
    // A spreadsheet's export of the PresentMon sample: every field in double quotes, numbers
    // too, CRLF line ends.
    let quoted: String = PRESENTMON
        .lines()
        .map(|line| {
            let fields: Vec<String> = line
                .trim_start_matches('\u{feff}')
                .split(',')
                .map(|f| format!("\"{f}\""))
                .collect();
            fields.join(",") + "\r\n"
        })
        .collect();
    assert!(
        quoted.starts_with("\"Application\",\"ProcessID\","),
        "{quoted}"
    );
    // Compared by their debug text: a frame with no latency holds NaN, unequal to itself.
    assert_eq!(
        format!("{:?}", parse(&quoted, None)),
        format!("{:?}", parse(PRESENTMON, None))
    );
    assert_eq!(parse(&quoted, Some("dwm.exe")).len(), 7);
    let bad = quoted.replacen("\"16.710\"", "\"fast\"", 1);
    assert!(
        err(&bad).contains("line 3, column MsBetweenPresents: 'fast' is not"),
        "{}",
        err(&bad)
    );
}

#[test]
fn a_last_row_cut_mid_write_is_left_out_with_a_warning() {
    // A recorder killed mid-write: the file stops inside its last row, with no line break.
    let whole = PRESENTMON.trim_end();
    let last = whole.lines().last().unwrap();
    assert!(last.starts_with("game.exe,"), "{last}");
    let played = parse(PRESENTMON, None);
    let frames_before = played.len() - 1;
    // Cut among the fields, before the frame time.
    let at = last.find(",Hardware").unwrap();
    let short = &whole[..whole.len() - last.len() + at];
    let c = parse(short, None);
    assert_eq!(c.len(), frames_before);
    assert_eq!(c.frames_ms(), &played.frames_ms()[..frames_before]);
    let line = whole.lines().count();
    assert_eq!(
        c.notes(),
        [format!(
            "warning: capture 'test' line {line}: the last row is cut short (7 of 15 fields); left out"
        )]
    );
    // Cut inside a number: the latency's `18.200` cut to its sign (as a negative number
    // would be).
    let minus = format!("{}-", &whole[..whole.len() - 6]);
    let c = parse(&minus, None);
    assert_eq!(c.len(), frames_before);
    assert_eq!(
        c.stream().latency_ms.as_ref().unwrap().1.len(),
        frames_before
    );
    assert_eq!(c.stream().display_ms.as_ref().unwrap().len(), frames_before);
    assert!(
        c.notes()[0].ends_with("the last row is cut short ('-' in MsUntilDisplayed); left out"),
        "{:?}",
        c.notes()
    );
    // A whole file warns of nothing; a bad value or too few fields in a row that ends with
    // its line break, or a short row before the last, is still refused.
    assert!(played.notes().is_empty());
    let bad_last = format!("{minus}\n");
    assert!(
        err(&bad_last).contains("column MsUntilDisplayed: '-' is not"),
        "{}",
        err(&bad_last)
    );
    let short_ended = format!("{short}\n");
    assert!(
        err(&short_ended).contains("7 fields, but column"),
        "{}",
        err(&short_ended)
    );
    let short_inside = format!("{short}\n{last}\n");
    assert!(
        err(&short_inside).contains("7 fields, but column"),
        "{}",
        err(&short_inside)
    );
}

#[test]
fn a_tie_for_the_default_pick_is_said_with_what_was_played_and_how_to_pick_another() {
    // A game that presented through two swap chains, as many frames each, and the compositor.
    let row = |chain: &str| {
        format!(
            "game.exe,5120,{chain},DXGI,1,0,0,Hardware: Independent Flip,0,0.1,16.7,16.7,0.1,\
             1.0,9.0\n"
        )
    };
    let header = PRESENTMON
        .lines()
        .next()
        .unwrap()
        .trim_start_matches('\u{feff}');
    let csv = format!(
        "{header}\n{}{}{}",
        row("0x00000200A0B0C0D0").repeat(3),
        row("0x00000100A0B0C0D0").repeat(3),
        "dwm.exe,1308,0x1,DXGI,1,0,0,Composed: Flip,0,0.1,16.7,16.7,0.1,1.0,9.0\n".repeat(5)
    );
    let c = Capture::parse(&csv, "two.csv", None).unwrap();
    assert_eq!(c.stream().swap_chain, "0x00000200A0B0C0D0");
    assert_eq!(
        c.notes(),
        [
            "capture 'two.csv': game.exe (pid 5120) swap chain 0x00000200A0B0C0D0 and game.exe \
          (pid 5120) swap chain 0x00000100A0B0C0D0 tie at 3 frames; playing game.exe (pid 5120) \
          swap chain 0x00000200A0B0C0D0, the first in the file (pick another with \
          capture:two.csv#NAME, #PID or #ADDRESS)"
        ]
    );
    // No tie, nothing said; a run of CapFrameX names its runs by number.
    assert!(parse(PRESENTMON, None).notes().is_empty());
    let runs = r#"{"Info": {"ProcessName": "game.exe"}, "Runs": [
        {"CaptureData": {"MsBetweenPresents": [16.7, 16.7]}},
        {"CaptureData": {"MsBetweenPresents": [33.3, 33.3]}}]}"#;
    let c = Capture::parse(runs, "runs.json", None).unwrap();
    assert_eq!(c.frames_ms(), [16.7, 16.7]);
    assert_eq!(
        c.notes(),
        [
            "capture 'runs.json': game.exe run 1 and game.exe run 2 tie at 2 frames; playing \
          game.exe run 1, the first in the file (pick another with capture:runs.json#N, N the \
          run's number from 1, or #all for every run end to end)"
        ]
    );
}

#[test]
fn a_semicolon_csv_with_decimal_commas_reads_as_the_comma_file() {
    assert!(
        PRESENTMON_SEMICOLON.contains(";16,710;16,670;"),
        "the twin is written the spreadsheet's way"
    );
    for selector in [None, Some("dwm.exe")] {
        let (semicolons, commas) = (
            parse(PRESENTMON_SEMICOLON, selector),
            parse(PRESENTMON, selector),
        );
        // Compared by their debug text: a frame with no latency holds NaN, unequal to itself.
        assert_eq!(format!("{semicolons:?}"), format!("{commas:?}"));
        assert_eq!(semicolons.describe(), commas.describe());
        assert_eq!(semicolons.refresh(), commas.refresh());
        assert_eq!(
            format!("{:?}", semicolons.refresh_fit()),
            format!("{:?}", commas.refresh_fit())
        );
    }
    assert_eq!(parse(PRESENTMON_SEMICOLON, None).frames_ms()[3], 1.21);
    // A header of one column has no separator: its rows' decimal commas tell the style.
    let one_column = parse("MsBetweenPresents\r\n16,67\r\n33,4\r\n", None);
    assert_eq!(one_column.frames_ms(), [16.67, 33.4]);
    assert_eq!(
        parse("MsBetweenPresents\n16.67\n", None).frames_ms(),
        [16.67]
    );
    // A column never read may hold what looks like a number with a point: a version.
    let versions = PRESENTMON_SEMICOLON
        .replace("Runtime;", "Driver;")
        .replace(";DXGI;", ";31.0.15.3742;");
    assert_eq!(
        parse(&versions, None).frames_ms(),
        parse(PRESENTMON, None).frames_ms()
    );
    // A process named with a comma keeps it.
    let named = PRESENTMON_SEMICOLON.replace("game.exe;", "\"Game 2,5.exe\";");
    assert_eq!(parse(&named, None).stream().process, "Game 2,5.exe");
}

#[test]
fn a_semicolon_csv_names_the_line_the_column_and_the_value_as_written() {
    let bad = PRESENTMON_SEMICOLON.replacen(";16,710;", ";fast;", 1);
    assert_eq!(
        err(&bad),
        "capture 'bad.csv' line 3, column MsBetweenPresents: 'fast' is not a frame time in ms \
         (0.001 to 60000)"
    );
    let bad = PRESENTMON_SEMICOLON.replacen(";16,710;", ";99999,5;", 1);
    assert!(
        err(&bad).contains("line 3, column MsBetweenPresents: '99999,5' is not"),
        "the value as the file writes it: {}",
        err(&bad)
    );
    let bad = PRESENTMON_SEMICOLON.replacen("Flip;0;0,016710;", "Flip;maybe;0,016710;", 1);
    assert!(
        err(&bad).contains("line 3, column Dropped: 'maybe' is not 0 or 1"),
        "{}",
        err(&bad)
    );
    assert_eq!(
        err("Application;SwapChainAddress;MsBetweenPresents\r\ngame.exe;0x1\r\n"),
        "capture 'bad.csv' line 2: 2 fields, but column MsBetweenPresents is field 3"
    );
}

#[test]
fn a_csv_mixing_semicolons_and_commas_is_refused_saying_why() {
    // A decimal point in a decimal-comma file.
    let point = PRESENTMON_SEMICOLON.replacen(";16,710;", ";16.710;", 1);
    let said = err(&point);
    assert_eq!(
        said,
        "capture 'bad.csv' line 3: column MsBetweenPresents: '16.710' has a decimal point, but \
         the file splits its fields at ';' and writes decimal commas (16,67), where a point can \
         be a thousands separator; save the file in one style"
    );
    // A header split at both.
    assert_eq!(
        err("Application;ProcessID,MsBetweenPresents\ngame.exe;1,16.7\n"),
        "capture 'bad.csv' line 1: the header splits its fields at both ',' (1) and ';' (1); \
         expected ',' throughout, or ';' with decimal commas as a spreadsheet saves it"
    );
    // A comma row in a semicolon file, and a semicolon row in a comma file.
    assert_eq!(
        err("Application;MsBetweenPresents\ngame.exe;16,7\ngame.exe,16.7\n"),
        "capture 'bad.csv' line 3: the row splits its fields at ',' but the header (line 1) at \
         ';'; save the file with one separator"
    );
    assert_eq!(
        err("Application,MsBetweenPresents\ngame.exe,16.7\ngame.exe;16,7\n"),
        "capture 'bad.csv' line 3: the row splits its fields at ';' but the header (line 1) at \
         ','; save the file with one separator"
    );
    for text in [point.as_str(), "Application;ProcessID,MsBetweenPresents\n"] {
        assert_eq!(err(text).lines().count(), 1, "one line: {}", err(text));
    }
}

#[test]
fn fraps_frametimes_are_the_differences_of_its_running_time() {
    let c = parse(FRAPS, None);
    assert_eq!(c.format(), CaptureFormat::Fraps);
    // Ten rows, nine frames: the first row is the start, not a frame.
    assert_eq!(
        c.frames_ms(),
        [16.123, 17.333, 16.645, 16.688, 50.001, 16.665, 16.665, 16.68, 16.667]
    );
    let said = c.describe();
    assert!(
        said.starts_with(
            "capture 'test' (FRAPS frametimes CSV): playing its frames (9 frames); \
             frame times from the differences of its running Time (ms)"
        ),
        "{said}"
    );
    // The same file as a spreadsheet saves it where the comma is the decimal mark.
    let semicolons = FRAPS.replace(", ", ";").replace('.', ",");
    assert_eq!(parse(&semicolons, None).frames_ms(), c.frames_ms());
}

#[test]
fn a_fraps_time_that_goes_back_or_is_no_number_names_its_line() {
    assert_eq!(
        err(&FRAPS.replace("4, 50.101", "4, 30.000")),
        "capture 'bad.csv' line 5, column Time (ms): '30.000' is not a running time in ms 0.001 \
         to 60000 after line 4's 33.456"
    );
    assert_eq!(
        err(&FRAPS.replace("4, 50.101", "4, soon")),
        "capture 'bad.csv' line 5, column Time (ms): 'soon' is not a running time in ms"
    );
    assert_eq!(
        err(&FRAPS.replace("4, 50.101", "4")),
        "capture 'bad.csv' line 5: 1 fields, but column Time (ms) is field 2"
    );
    let semicolons = FRAPS.replace(", ", ";").replace('.', ",");
    assert_eq!(
        err(&semicolons.replace("4;50,101", "4;30,000")),
        "capture 'bad.csv' line 5, column Time (ms): '30,000' is not a running time in ms 0.001 \
         to 60000 after line 4's 33.456"
    );
    assert_eq!(
        err("Frame, Time (ms)\n1, 0.000\n"),
        "capture 'bad.csv' holds no frame times"
    );
}

#[test]
fn an_afterburner_hardware_monitoring_log_is_refused_as_polled() {
    // The record-typed lines Afterburner writes: 00 the log's version, 01 the GPU, 02 the
    // sensors' names, then one 80 row a polling period.
    let hml = "00, 07-12-2026 11:49:46, Hardware monitoring log v1.6 \r\n\
               01, 07-12-2026 11:49:46, Radeon RX 560 Series\r\n\
               02, 07-12-2026 11:49:46, GPU usage           ,Framerate           ,Frametime           \r\n\
               80, 07-12-2026 11:49:47, 97.000              ,59.900              ,16.694              \r\n\
               80, 07-12-2026 11:49:48, 98.000              ,60.100              ,16.639              \r\n";
    assert_eq!(
        err(hml),
        "capture 'bad.csv' line 1: an MSI Afterburner hardware monitoring log, one row a \
         polling period rather than one a frame, so it holds no run of frame times to play; \
         capture with PresentMon, CapFrameX, FrameView or OCAT"
    );
    // A plain list's first frame of 2 ms is no sensor line.
    assert_eq!(parse("02\n16.7\n", None).frames_ms(), [2.0, 16.7]);
    // A copy saved without its first line is told by its sensor names' record type.
    let headless = hml.split_once('\n').unwrap().1;
    assert!(
        err(headless).starts_with("capture 'bad.csv' line 2: an MSI Afterburner"),
        "{}",
        err(headless)
    );
}

/// A 60 Hz run of 120 presents, every eighth never displayed (`Dropped` 1) though its row
/// still carries a display interval and a latency.
const DROPPED_SHOWN: &str = include_str!("../../../../tests/captures/presentmon-dropped-shown.csv");
/// A `--v2_metrics`-shaped log of 60 frames, every sixth never displayed and written with a
/// `DisplayedTime` and `DisplayLatency` of 0, as PresentMon's capture application wrote `NA`
/// there before it wrote `NA`.
const APP_ZERO_DISPLAY: &str =
    include_str!("../../../../tests/captures/presentmon-app-zero-display.csv");

#[test]
fn a_dropped_frame_with_a_display_time_is_counted_once_as_never_displayed() {
    let c = parse(DROPPED_SHOWN, None);
    let s = c.stream();
    let display = s.display_ms.as_deref().unwrap();
    let shown = display.iter().filter(|&&d| d > 0.0).count();
    assert_eq!(s.not_displayed, Some(15), "every eighth of 120");
    assert_eq!(shown + 15, c.len(), "each frame counted once");
    let displayed_span: f64 = display.iter().sum();
    let captured_span: f64 = c.frames_ms().iter().sum();
    assert!(
        displayed_span <= captured_span + 1e-6,
        "the displayed span {displayed_span} ms exceeds the capture's {captured_span} ms"
    );
    let (_, latency) = s.latency_ms.as_ref().unwrap();
    assert!(latency.iter().skip(7).step_by(8).all(|l| l.is_nan()));
}

#[test]
fn a_displayed_time_of_zero_is_a_frame_never_displayed() {
    let c = parse(APP_ZERO_DISPLAY, None);
    let s = c.stream();
    assert_eq!(s.not_displayed, Some(10), "every sixth of 60");
    let display = s.display_ms.as_deref().unwrap();
    let shown = display.iter().filter(|&&d| d > 0.0).count();
    // The first displayed frame has no interval before it to measure.
    assert_eq!(shown + 10 + 1, c.len());
    // The frame after each one never displayed follows the 33.3 ms its predecessor stayed.
    for (i, &d) in display.iter().enumerate().skip(1) {
        let want = match i % 6 {
            5 => 0.0,
            0 => 2000.0 / 60.0,
            _ => 1000.0 / 60.0,
        };
        assert!((d - want).abs() < 1e-3, "frame {i}: {d} ms, not {want}");
    }
    let (_, latency) = s.latency_ms.as_ref().unwrap();
    assert!(latency.iter().skip(5).step_by(6).all(|l| l.is_nan()));
}

/// Another recording of PresentMon's own, in its 2.x default columns: a swap chain composed
/// for three frames, then flipped independently with tearing allowed.
const GOLD_MODES: &str =
    include_str!("../../../../tests/captures/presentmon-gold/test_case_0-default.csv");
/// A 900-frame PresentMon 2 capture of a game at about 45 fps with AMD's frame generation (a
/// generated frame before each of the application's), its further latency columns, and its
/// present mode and tearing changing twice.
const FRAME_GENERATION: &str =
    include_str!("../../../../tests/captures/presentmon-frame-generation.csv");

#[test]
fn present_mode_and_tearing_spans_come_from_each_frames_columns() {
    let c = parse(GOLD_MODES, Some("11648"));
    let spans = &c.stream().mode_spans;
    let names: Vec<(usize, String)> = spans.iter().map(|s| (s.from, s.name())).collect();
    assert_eq!(c.len(), 18);
    assert_eq!(
        names,
        [
            (0, "Composed: Flip, no tearing".to_string()),
            (3, "Hardware: Independent Flip, tearing allowed".to_string()),
        ]
    );
    let modes = parse(FRAME_GENERATION, None).stream().mode_spans.clone();
    let froms: Vec<usize> = modes.iter().map(|s| s.from).collect();
    assert_eq!(froms, [0, 600, 750]);
    assert_eq!(modes[2].tearing, Some(true));
}

#[test]
fn frame_types_split_the_applications_frames_from_generated_ones() {
    let c = parse(FRAME_GENERATION, None);
    let types = c.stream().frame_types.as_ref().unwrap();
    assert_eq!(types.generated.len(), c.len());
    assert_eq!(types.generated_frames(), 450);
    assert!(types.generated.iter().step_by(2).all(|&g| g));
    assert_eq!(
        types.kinds,
        [
            ("AMD AFMF".to_string(), 450),
            ("Application".to_string(), 450)
        ]
    );
    // PresentMon's gold recordings name every frame the application's.
    let gold = parse(GOLD_DEFAULT, Some("dwm.exe"));
    assert_eq!(
        gold.stream()
            .frame_types
            .as_ref()
            .unwrap()
            .generated_frames(),
        0
    );
    for (name, generated) in [
        ("Application", false),
        ("NotSet", false),
        ("", false),
        ("AMD AFMF", true),
        ("Intel XeSS-FG", true),
        ("NVIDIA_DLSS_FG", true),
        ("Unknown", true),
    ] {
        assert_eq!(!is_application_frame(name), generated, "{name:?}");
    }
}

#[test]
fn further_latency_columns_are_each_read_under_their_own_name() {
    let c = parse(FRAME_GENERATION, None);
    let names: Vec<&str> = c
        .stream()
        .input_latency_ms
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "MsPCLatency",
            "MsAllInputToPhotonLatency",
            "MsInstrumentedLatency"
        ]
    );
    let rows: Vec<Vec<&str>> = FRAME_GENERATION
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    for (k, at) in [(0, 12), (1, 15), (2, 17)] {
        let values = &c.stream().input_latency_ms[k].1;
        assert_eq!(values.len(), rows.len());
        for (v, row) in values.iter().zip(&rows) {
            match row[at].parse::<f64>() {
                Ok(want) => assert_eq!(*v, want),
                Err(_) => assert!(v.is_nan(), "{} is NA", row[at]),
            }
        }
    }
    // A frame never displayed has none, whatever the file writes.
    let csv = "MsBetweenPresents,Dropped,MsPCLatency\n16.7,0,30.0\n16.7,1,31.0\n";
    let c = parse(csv, None);
    let pc = &c.stream().input_latency_ms[0].1;
    assert_eq!(pc[0], 30.0);
    assert!(pc[1].is_nan());
}
