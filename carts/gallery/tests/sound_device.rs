//! `bt run` heard through a real sound device. The test starts a PulseAudio server of its own
//! with a null sink (a device that plays into nothing, with a "monitor" that records what it
//! played), runs the hidden `tone` cart in a window on Xvfb, records the monitor with `parec`,
//! and checks the recording: A4 at 440 Hz for one second (within the 1 % the device may speed up
//! or slow down to follow the game's pace).
//!
//! Then the sound editor and a game at once, each in its own window, as an author works: a game
//! made by `bt new` plays a sound on Z, `sound-edit` raises the sound an octave, plays it and
//! saves it, and the game, still running, plays the new sound. The recording holds all three,
//! at 440, 880 and 880 Hz.
//!
//! It needs `pulseaudio`, `parec` and `pactl` (pulseaudio-utils), `Xvfb` and `xdotool`;
//! `.ci/run` installs them. Where they are missing the test says so loudly and returns; with
//! `BT_REQUIRE_SOUND_TEST=1` (as in CI) it fails instead.

mod support;

use std::io::{BufRead as _, BufReader, Read as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bt_test_support::ScratchDir;
use support::x11::{on_path, start_xvfb, xdotool, Killed};
use support::{bt_command, new_built_cart, output_within, stderr, stdout, wait_for, Running};

const RATE: u32 = 44_100;
const SINK: &str = "bt_test";

fn unavailable(why: &str) {
    bt_test_support::unavailable(
        "the sound device test of `bt run`",
        "BT_REQUIRE_SOUND_TEST",
        why,
        "Install pulseaudio, pulseaudio-utils and xvfb (or run .ci/run).",
    );
}

/// A PulseAudio server with a null sink, private to the test: its socket lives in `runtime`.
fn start_pulse(runtime: &Path, home: &Path) -> Result<Killed, String> {
    std::fs::create_dir_all(runtime).map_err(|e| e.to_string())?;
    let server = Command::new("pulseaudio")
        .args([
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--disallow-exit",
        ])
        .arg(format!("--load=module-null-sink sink_name={SINK}"))
        .arg("--load=module-native-protocol-unix auth-anonymous=1")
        .env("XDG_RUNTIME_DIR", runtime)
        .env("HOME", home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("pulseaudio would not start: {e}"))?;
    let server = Killed(server);
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let ready = Command::new("pactl")
            .arg("info")
            .env("XDG_RUNTIME_DIR", runtime)
            .env("HOME", home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return Ok(server);
        }
        if Instant::now() > deadline {
            return Err("pulseaudio did not answer within 15 s".to_string());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// How long the signal is loud, in samples: the 5 ms windows whose peak passes a quarter of the
/// recording's, added up, so a gap (a device underrun on a busy machine) adds nothing. `None`
/// for a silent recording.
fn loud_samples(samples: &[i16]) -> Option<usize> {
    let peak = samples.iter().map(|s| s.unsigned_abs()).max()?;
    if peak == 0 {
        return None;
    }
    let window = (RATE / 200) as usize;
    let loud = samples
        .chunks(window)
        .filter(|w| w.iter().any(|s| s.unsigned_abs() > peak / 4))
        .map(<[i16]>::len)
        .sum();
    Some(loud)
}

/// The frequency of a wave from the median time between its rising zero crossings, which a gap
/// in the middle does not move.
fn frequency(samples: &[i16], rate: u32) -> f64 {
    let rising: Vec<usize> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0 && w[1] >= 0)
        .map(|(i, _)| i)
        .collect();
    let mut periods: Vec<usize> = rising.windows(2).map(|w| w[1] - w[0]).collect();
    if periods.is_empty() {
        return 0.0;
    }
    periods.sort_unstable();
    // The period is 100.2 samples at 44.1 kHz: the median of whole-sample periods is 100, so
    // average those within a sample of it.
    let median = periods[periods.len() / 2];
    let near: Vec<usize> = periods
        .into_iter()
        .filter(|&p| p.abs_diff(median) <= 1)
        .collect();
    f64::from(rate) * near.len() as f64 / near.iter().sum::<usize>() as f64
}

/// The sound tests one at a time: two players on two cores would starve each other's device.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// An X server, a private sound server and a recording of its sink: what each test needs.
struct Studio {
    x: support::x11::Xvfb,
    dir: ScratchDir,
    runtime: std::path::PathBuf,
    _pulse: Killed,
    recording: Option<Killed>,
}

impl Studio {
    /// Starts everything, or says why it cannot (and the test returns).
    fn open(tools: &[&str]) -> Option<Studio> {
        if let Some(tool) = ["pulseaudio", "parec", "pactl", "Xvfb"]
            .iter()
            .chain(tools)
            .find(|t| !on_path(t))
        {
            unavailable(&format!("{tool} is not installed"));
            return None;
        }
        let x = start_xvfb().map_err(|why| unavailable(&why)).ok()?;
        let dir = ScratchDir::new("sound-device");
        let runtime = dir.join("runtime");
        let pulse = start_pulse(&runtime, dir.path())
            .map_err(|why| unavailable(&why))
            .ok()?;
        let recording = Command::new("parec")
            .args([
                "-d",
                &format!("{SINK}.monitor"),
                "--format=s16le",
                "--channels=1",
            ])
            .arg(format!("--rate={RATE}"))
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("HOME", dir.path())
            .stdout(std::fs::File::create(dir.join("monitor.raw")).expect("recording file"))
            .stderr(Stdio::null())
            .spawn()
            .expect("parec starts");
        Some(Studio {
            x,
            dir,
            runtime,
            _pulse: pulse,
            recording: Some(Killed(recording)),
        })
    }

    /// `bt run ARGS` on this studio's display and sound server.
    fn bt_run(&self, args: &[&str]) -> Command {
        let mut bt = bt_command();
        bt.arg("run")
            .args(args)
            .arg("--captures")
            .arg(self.dir.path())
            .env("DISPLAY", &self.x.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("HOME", self.dir.path());
        bt
    }

    /// Stops recording and returns the samples the sink played.
    fn recorded(&mut self) -> Vec<i16> {
        // The sink's last buffer reaches the monitor a moment later.
        std::thread::sleep(Duration::from_millis(500));
        drop(self.recording.take());
        let bytes = std::fs::read(self.dir.join("monitor.raw")).expect("the recording");
        bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect()
    }
}

/// The summary line `bt run` printed for a cart that played sound through the device.
fn sound_summary(out: &str, err: &str) -> String {
    assert!(!err.contains("no sound"), "{err}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("sound: "))
        .unwrap_or_else(|| panic!("no sound summary in:\n{out}\n{err}"));
    assert!(summary.starts_with("sound: 44100 Hz"), "{summary}");
    summary.to_string()
}

/// Checks the recording holds a loud 440 Hz tone lasting `seconds` (within 50 ms). The device
/// plays up to 1 % faster or slower to follow the game's pace (the summary says how much at the
/// end of the run; it moves while the note plays), so the pitch may be off by that much.
fn assert_one_tone(samples: &[i16], seconds: f64, summary: &str) {
    let loud = loud_samples(samples).expect("the recording has sound");
    let lasted = loud as f64 / f64::from(RATE);
    assert!(
        (lasted - seconds).abs() < 0.05,
        "the tone lasted {lasted:.3} s, not {seconds} s ({summary})"
    );
    let hz = frequency(samples, RATE);
    assert!(
        (hz - 440.0).abs() <= 440.0 * 0.01 + 0.5,
        "the tone is at {hz:.1} Hz, not 440 Hz within 1 % ({summary})"
    );
    let peak = samples.iter().map(|s| s.unsigned_abs()).max();
    assert!(peak > Some(5_000), "{peak:?}");
}

#[test]
fn the_tone_cart_is_heard_at_440_hz_for_one_second() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut studio) = Studio::open(&[]) else {
        return;
    };
    let run = output_within(
        &mut studio.bt_run(&["tone", "--exit-after", "2.5"]),
        Duration::from_secs(120),
    );
    let (out, err) = (stdout(&run), stderr(&run));
    assert!(run.status.success(), "bt run failed:\n{out}\n{err}");
    let summary = sound_summary(&out, &err);
    assert_one_tone(&studio.recorded(), 1.0, &summary);
}

#[test]
fn a_seek_and_a_pause_are_silent_and_play_resumes_mid_note() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut studio) = Studio::open(&["xdotool"]) else {
        return;
    };
    // Opened paused at 1.2 s, tick 72: the note (ticks 30 to 90) has 0.3 s left to play.
    let mut child = studio
        .bt_run(&["tone", "--at", "1.2", "--exit-after", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bt starts");
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut err = child.stderr.take().expect("piped");
    let mut child = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut line = String::new();
    while !line.starts_with("running tone") {
        line.clear();
        let read = out.read_line(&mut line).expect("bt's output");
        assert!(read > 0 && Instant::now() < deadline, "no window: {line}");
    }
    let window = line
        .rsplit("X11 window ")
        .next()
        .map(|s| s.trim().trim_end_matches(')').to_string())
        .expect("a window id");
    // A second paused, which must be silent; then F5.
    std::thread::sleep(Duration::from_secs(1));
    for args in [
        ["windowfocus", "--sync", &window].as_slice(),
        &["key", "F5"],
    ] {
        let ok = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &studio.x.display)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "xdotool {args:?}");
    }
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("status") {
            break status;
        }
        assert!(Instant::now() < deadline, "bt run did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut rest, mut errors) = (String::new(), String::new());
    out.read_to_string(&mut rest).expect("bt's output");
    err.read_to_string(&mut errors).expect("bt's errors");
    assert!(
        status.success(),
        "bt run failed ({status}):\n{rest}\n{errors}"
    );
    let summary = sound_summary(&rest, &errors);
    // Only the rest of the note: neither the seek through its first 0.7 s nor the pause made a
    // sound.
    assert_one_tone(&studio.recorded(), 0.3, &summary);
}

#[test]
fn length_and_pitch_measure_what_they_claim() {
    // A 440 Hz square between silences, with a 30 ms gap in the middle, as a busy machine's
    // device might play it.
    let period = f64::from(RATE) / 440.0;
    let square = |i: usize| {
        if (i as f64 / period).fract() < 0.5 {
            8000
        } else {
            -8000
        }
    };
    let half = RATE as usize / 2;
    let mut samples = vec![0i16; 2205];
    samples.extend((0..half).map(square));
    samples.extend(vec![0i16; 1323]);
    samples.extend((half..2 * half).map(square));
    samples.extend(vec![0i16; 2205]);
    let loud = loud_samples(&samples).unwrap() as f64 / f64::from(RATE);
    // Windows the edges fall in count whole: at most 5 ms at each of four edges.
    assert!((loud - 1.0).abs() <= 0.02, "{loud}");
    let hz = frequency(&samples, RATE);
    assert!((hz - 440.0).abs() < 0.5, "{hz}");
    assert_eq!(loud_samples(&[0; 100]), None);
}

/// The stretches of sound in a recording: runs of loud 5 ms windows (as [`loud_samples`] judges
/// them) with less than `gap` of quiet inside, as (first sample, samples).
fn bursts(samples: &[i16], gap: Duration) -> Vec<(usize, usize)> {
    let Some(peak) = samples.iter().map(|s| s.unsigned_abs()).max() else {
        return Vec::new();
    };
    let window = (RATE / 200) as usize;
    let gap = (gap.as_secs_f64() * f64::from(RATE)) as usize;
    let mut found: Vec<(usize, usize)> = Vec::new();
    for (i, w) in samples.chunks(window).enumerate() {
        if !w.iter().any(|s| s.unsigned_abs() > peak / 4) {
            continue;
        }
        let start = i * window;
        match found.last_mut() {
            Some((first, len)) if start - (*first + *len) < gap => *len = start + w.len() - *first,
            _ => found.push((start, w.len())),
        }
    }
    found
}

/// `binary ARGS` (a cart crate's own program) on the studio's display and sound server, once
/// its window `name` shows.
fn start_in_studio(studio: &Studio, binary: &Path, args: &[&str], name: &str) -> Running {
    let mut program = Command::new(binary);
    program
        .args(args)
        .env("DISPLAY", &studio.x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", &studio.runtime)
        .env("HOME", studio.dir.path())
        .env("XDG_CONFIG_HOME", studio.dir.join("config"))
        .env("XDG_DATA_HOME", studio.dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Running::start(&studio.x, program, name)
}

#[test]
fn the_sound_editor_plays_an_edit_saves_it_and_the_running_game_plays_it() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut studio) = Studio::open(&["xdotool"]) else {
        return;
    };
    // A game made by `bt new`, whose Z plays the sound effect `paint` of assets/sounds.txt.
    // Here `paint` is one long A4, so its pitch can be measured.
    let (cart, binary) = new_built_cart(&studio.dir, "beeper");
    std::fs::write(
        cart.join("assets/sounds.txt"),
        "bt-sound 2\n# Z\nsfx paint 60\nA4 sq 5\n\n# a coin\nsfx coin 5\nB5 sq 5\n",
    )
    .unwrap();
    let key = |window: &str, key: &str| {
        xdotool(&studio.x.display, &["windowfocus", "--sync", window]);
        xdotool(&studio.x.display, &["key", key]);
    };
    let pause = |ms| std::thread::sleep(Duration::from_millis(ms));

    let game = start_in_studio(
        &studio,
        &binary,
        &["run", "--scale", "1", "--exit-after", "60"],
        "beeper",
    );
    pause(1000);
    key(&game.window, "z");
    pause(1500);

    // The cart's own program with no file named opens its one sound file, as
    // `cargo run --release -- sound-edit` does. The cursor starts on paint's note: an octave up,
    // played (Space), then saved.
    let editor = start_in_studio(
        &studio,
        &binary,
        &["sound-edit", "--scale", "1", "--exit-after", "60"],
        "sound-edit",
    );
    key(&editor.window, "shift+equal");
    pause(300);
    key(&editor.window, "space");
    pause(1500);
    key(&editor.window, "ctrl+s");
    let mut seen = Vec::new();
    let wrote = wait_for(&editor.out, "wrote ", Duration::from_secs(15), &mut seen);
    assert!(wrote.is_some(), "the editor saved nothing; stdout {seen:?}");
    let text = std::fs::read_to_string(cart.join("assets/sounds.txt")).unwrap();
    assert!(text.contains("\nA5 sq 5\n"), "{text}");

    // The game reloads the file within a second; Z plays the edit.
    pause(2000);
    key(&game.window, "z");
    pause(1500);
    let game_errors: Vec<String> = game.err.try_iter().collect();
    assert!(
        !game_errors.iter().any(|l| l.contains("reload")),
        "{game_errors:?}"
    );
    drop((game, editor));

    let samples = studio.recorded();
    let heard = bursts(&samples, Duration::from_millis(400));
    let pitches: Vec<f64> = heard
        .iter()
        .map(|&(at, len)| frequency(&samples[at..at + len], RATE))
        .collect();
    // How long each is loud, a dropout inside it not counted (as in `assert_one_tone`).
    let lengths: Vec<f64> = heard
        .iter()
        .map(|&(at, len)| {
            loud_samples(&samples[at..at + len]).unwrap_or(0) as f64 / f64::from(RATE)
        })
        .collect();
    eprintln!("heard {pitches:.1?} Hz lasting {lengths:.3?} s");
    let want = [440.0, 880.0, 880.0];
    assert_eq!(
        heard.len(),
        want.len(),
        "the game's A4, the editor's A5, the game's A5: heard {pitches:?} Hz lasting \
         {lengths:?} s"
    );
    for ((hz, want), lasted) in pitches.iter().zip(want).zip(&lengths) {
        // Which note, not how well tuned (the tone test checks that): the device plays up to
        // 1 % off to follow the game, and two windows drawing on a busy machine push it there
        // (871.7 Hz for 880 was seen), so 3 % of an octave apart is still one note.
        assert!(
            (hz - want).abs() <= want * 0.03,
            "heard {pitches:?} Hz, wanted {want:?} in turn"
        );
        assert!((lasted - 0.5).abs() < 0.1, "lasting {lengths:?} s");
    }
}

#[test]
fn bursts_are_the_stretches_of_sound_between_silences() {
    let tone = |n: usize| (0..n).map(|i| if i % 100 < 50 { 8000 } else { -8000 });
    let mut samples = vec![0i16; 4410];
    samples.extend(tone(22_050));
    // A 30 ms dropout inside the first burst does not split it.
    samples.extend(vec![0i16; 1323]);
    samples.extend(tone(4410));
    samples.extend(vec![0i16; 44_100]);
    samples.extend(tone(22_050));
    let found = bursts(&samples, Duration::from_millis(400));
    assert_eq!(found.len(), 2, "{found:?}");
    // Found to the 5 ms window (220 samples).
    assert!(found[0].0.abs_diff(4410) < 220, "{found:?}");
    assert!(
        found[0].1.abs_diff(22_050 + 1323 + 4410) <= 220,
        "{found:?}"
    );
    assert!(found[1].1.abs_diff(22_050) <= 220, "{found:?}");
    assert!(bursts(&[0; 100], Duration::from_millis(400)).is_empty());
}
