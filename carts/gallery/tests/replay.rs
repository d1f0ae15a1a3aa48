//! Replays end to end: record a run with live input under one clock, save it, play it back
//! under others, check its hashes, and the commands that read it (`bt replay`, `--input`,
//! `bt verify`), with every kind of bad file refused in one line.

use std::process::{Command, Output};
use std::sync::Arc;

use bt::{Button, Key, Player};
use bt_runtime::engine::Origin;
use bt_runtime::replay::{Replay, DEFAULT_HASH_EVERY};
use bt_runtime::{ConstantClock, Engine, EngineOptions, JitterClock, PacedClock, PacedOptions};
use bt_test_support::ScratchDir;

fn bt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(args)
        .output()
        .expect("bt runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn options(replay: Option<Arc<Replay>>) -> EngineOptions {
    EngineOptions {
        overlay: false,
        seed: Some(replay.as_ref().map_or(5, |r| r.info.seed)),
        replay,
        ..EngineOptions::default()
    }
}

fn snake(replay: Option<Arc<Replay>>) -> Engine {
    let cart = bt_gallery::find("snake").unwrap();
    Engine::new(Box::new(cart.build), options(replay)).unwrap()
}

/// `frames` frames of snake under `clock`, a player steering it by keyboard every 23 frames
/// and pressing A now and then, recorded.
fn scripted_snake(frames: u64, clock: Box<dyn bt_runtime::Clock>) -> (Engine, Replay) {
    let mut e = snake(None);
    e.start_recording(DEFAULT_HASH_EVERY);
    e.set_clock(clock);
    let turns = [Button::UP, Button::RIGHT, Button::DOWN, Button::LEFT];
    for f in 0..frames {
        let input = e.console_mut().input_mut();
        if f % 23 == 0 {
            let b = turns[(f / 23 % 4) as usize];
            input.set_buttons(
                Button::UP | Button::DOWN | Button::LEFT | Button::RIGHT,
                Player::ONE,
                false,
            );
            input.set_buttons(b, Player::ONE, true);
        }
        if f % 97 == 5 {
            input.set_buttons(Button::A, Player::ONE, true);
            input.set_key(Key::Space, true);
        }
        if f % 97 == 6 {
            input.set_buttons(Button::A, Player::ONE, false);
            input.set_key(Key::Space, false);
        }
        e.advance(1);
    }
    let replay = e.recording("snake", None).unwrap();
    (e, replay)
}

/// `frames` frames of snake under a jittery clock, a player steering it by keyboard and
/// pressing A now and then, recorded.
fn recorded_snake(frames: u64) -> (Engine, Replay) {
    scripted_snake(frames, Box::new(JitterClock::new(4.0, 45.0, 3.0).unwrap()))
}

#[test]
fn a_recorded_run_replays_frame_for_frame_under_other_clocks() {
    let (live, replay) = recorded_snake(900);
    let dir = ScratchDir::new("replay");
    let path = dir.join("run.btr");
    replay.save(&path).unwrap();
    let replay = Arc::new(Replay::load(&path).unwrap());
    assert_eq!(replay.ticks(), live.updates_since_init());
    assert!(replay.hashes().len() as u64 >= replay.ticks() / DEFAULT_HASH_EVERY);

    // Headless at once, and under a paced 144 Hz host: the same hashes at every checkpoint.
    let mut stepped = snake(Some(replay.clone()));
    stepped.step(replay.ticks()).unwrap();
    assert_eq!(replay.first_mismatch(stepped.hashes()), None);
    assert_eq!(stepped.hashes(), replay.hashes());

    let mut paced = snake(Some(replay.clone()));
    paced.set_clock(Box::new(
        PacedClock::new(144.0, PacedOptions::default()).unwrap(),
    ));
    paced.set_host_hz(144.0).unwrap();
    while paced.updates_since_init() < replay.ticks() {
        paced.advance(1);
    }
    assert_eq!(replay.first_mismatch(paced.hashes()), None);

    // And the picture at the end is the live run's.
    let mut seek = snake(Some(replay.clone()));
    seek.render_at(replay.ticks() as f64 / 60.0, Origin::Start)
        .unwrap();
    assert_eq!(seek.updates_since_init(), live.updates_since_init());
    let mut live = live;
    live.step(0).unwrap();
    assert_eq!(seek.framebuffer(), live.framebuffer());
}

#[test]
fn a_replay_that_runs_out_hands_over_to_live_input() {
    let (_, replay) = recorded_snake(120);
    let ticks = replay.ticks();
    let mut e = snake(Some(Arc::new(replay)));
    e.step(ticks).unwrap();
    assert!(e.replay().is_some());
    // Live input fed during the replay was ignored; after it, the next press is seen.
    e.console_mut()
        .input_mut()
        .set_buttons(Button::A, Player::ONE, true);
    e.resume();
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    e.advance(1);
    assert_eq!(e.updates_since_init(), ticks + 1);
    // What the last update saw holds the live press.
    assert_ne!(
        e.console_mut().input().visible().buttons[0].pressed & Button::A.bits(),
        0
    );
}

#[test]
fn the_overlay_shows_the_replay_s_progress_until_live_play_takes_over() {
    let (_, replay) = recorded_snake(120);
    let ticks = replay.ticks();
    let options = EngineOptions {
        overlay: true,
        ..options(Some(Arc::new(replay)))
    };
    let cart = bt_gallery::find("snake").unwrap();
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    let progress = |e: &Engine| e.overlay().unwrap().replay();
    e.step(10).unwrap();
    assert_eq!(progress(&e), Some((10, ticks)));
    e.step(ticks - 10).unwrap();
    assert_eq!(progress(&e), Some((ticks, ticks)), "its last update");
    e.resume();
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    e.advance(1);
    assert_eq!(progress(&e), None, "live");
}

#[test]
fn a_recording_replays_from_boot_after_a_seek_from_the_start() {
    let mut e = snake(None);
    e.start_recording(10);
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    e.advance(50);
    e.render_at(0.5, Origin::Start).unwrap();
    let r = e.recording("snake", None).unwrap();
    assert_eq!(r.ticks(), 30, "the seek began the recording again");
    assert_eq!(r.hashes().last().map(|h| h.0), Some(30));
}

fn write(dir: &ScratchDir, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn bt_replay_verify_passes_a_good_file_and_names_the_tick_of_a_bad_one() {
    let (_, replay) = recorded_snake(400);
    let dir = ScratchDir::new("replay-cli");
    let good = dir.join("good.btr");
    replay.save(&good).unwrap();
    let o = bt(&["replay", "snake", good.to_str().unwrap(), "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("frame hashes match"));

    // Change the second stored hash: the replay plays, and the check names that tick.
    let json = replay.to_json();
    let second = replay.hashes()[1];
    let bad_text = json.replacen(
        &format!("[{},\"{:016x}\"]", second.0, second.1),
        &format!("[{},\"{:016x}\"]", second.0, second.1 ^ 1),
        1,
    );
    assert_ne!(bad_text, json);
    let bad = write(&dir, "bad.btr", &bad_text);
    let o = bt(&["replay", "snake", &bad, "--verify"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("after update {} differs", second.0)),
        "{e}"
    );
}

#[test]
fn bad_replay_files_are_refused_in_one_line_without_a_panic() {
    let (_, replay) = recorded_snake(200);
    let dir = ScratchDir::new("replay-bad");
    let json = replay.to_json();
    let cases = [
        (
            "cut.btr",
            json[..json.len() / 3].to_string(),
            "truncated replay",
        ),
        ("png.btr", "\u{89}PNG\r\n".to_string(), "not a BT replay"),
        (
            "other.btr",
            "{\"a\": [1, 2]}".to_string(),
            "not a BT replay",
        ),
        (
            "v5.btr",
            json.replacen("\"version\":1", "\"version\":5", 1),
            "format version 5",
        ),
        (
            "bent.btr",
            json.replacen("\"ticks\":", "\"ticks\":1", 1),
            "corrupted replay",
        ),
    ];
    for (name, text, want) in cases {
        let path = write(&dir, name, &text);
        let o = bt(&[
            "shot", "snake", "--input", &path, "--at", "1", "-o", "x.png",
        ]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let e = stderr(&o);
        assert!(e.contains(want) && e.contains(name), "{name}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{name}: {e}");
    }
    let good = dir.join("good.btr");
    replay.save(&good).unwrap();
    let good = good.to_str().unwrap();
    let o = bt(&["shot", "hello", "--input", good, "--at", "1", "-o", "x.png"]);
    assert!(stderr(&o).contains("a replay of the cart 'snake', not 'hello'"));
    let o = bt(&[
        "trace",
        "snake",
        "--input",
        good,
        "--fps",
        "30",
        "--clock",
        "constant:10",
        "--frames",
        "3",
    ]);
    assert!(stderr(&o).contains("recorded at 60 updates a second; the cart runs at 30"));
    assert_eq!(o.status.code(), Some(1));
    let missing = dir.join("missing.btr");
    let o = bt(&["replay", "snake", missing.to_str().unwrap(), "--verify"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.btr"));
}

#[test]
fn another_cart_version_plays_with_a_warning() {
    let (_, replay) = recorded_snake(100);
    let dir = ScratchDir::new("replay-version");
    let text = replay.to_json().replacen(
        "\"cart\":\"snake\"",
        "\"cart\":\"snake\",\"cart_version\":\"0.0.1\"",
        1,
    );
    let path = write(&dir, "old.btr", &text);
    let o = bt(&["replay", "snake", &path, "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: "), "{}", stderr(&o));
    assert!(stderr(&o).contains("version 0.0.1"), "{}", stderr(&o));
}

#[test]
fn a_shot_from_a_replay_shows_the_recorded_moment() {
    let (live, replay) = recorded_snake(600);
    let dir = ScratchDir::new("replay-shot");
    let path = dir.join("run.btr");
    replay.save(&path).unwrap();
    let at = 3.0;
    let out = dir.join("shot.png");
    let o = bt(&[
        "shot",
        "snake",
        "--input",
        path.to_str().unwrap(),
        "--at",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut seek = snake(Some(Arc::new(replay)));
    seek.render_at(at, Origin::Start).unwrap();
    let want = bt_runtime::export::png::encode_png(seek.framebuffer(), seek.palette(), 1).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), want);
    drop(live);
}

#[test]
fn the_frames_of_a_replay_are_its_shots_byte_for_byte() {
    let (_, replay) = recorded_snake(600);
    let dir = ScratchDir::new("replay-frames");
    let path = dir.join("run.btr");
    replay.save(&path).unwrap();
    let (run, frames) = (path.to_str().unwrap(), dir.join("frames"));
    let o = bt(&[
        "frames",
        "snake",
        "--input",
        run,
        "--from",
        "2",
        "--to",
        "4",
        "--every",
        "0.5",
        "--scale",
        "2",
        "-o",
        frames.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (k, at) in ["2", "2.5", "3", "3.5", "4"].iter().enumerate() {
        let shot = dir.join(format!("shot-{k}.png"));
        let s = bt(&[
            "shot",
            "snake",
            "--input",
            run,
            "--at",
            at,
            "--scale",
            "2",
            "-o",
            shot.to_str().unwrap(),
        ]);
        assert!(s.status.success(), "{}", stderr(&s));
        assert_eq!(
            std::fs::read(frames.join(format!("frame_{k:05}.png"))).unwrap(),
            std::fs::read(&shot).unwrap(),
            "frame {k} is `bt shot --at {at}`"
        );
    }
}

#[test]
fn every_bundled_cart_passes_bt_verify() {
    for cart in bt_gallery::CARTS.iter().filter(|c| !c.hidden) {
        let o = bt(&[
            "verify",
            cart.name,
            "--seconds",
            "4",
            "--arg",
            "sprites=200",
        ]);
        assert!(o.status.success(), "{}: {}", cart.name, stderr(&o));
    }
}

#[test]
fn bt_verify_catches_a_cart_that_steps_in_render() {
    let dir = ScratchDir::new("verify-drift");
    let png = dir.join("diff.png");
    let o = bt(&[
        "verify",
        "drift",
        "--seconds",
        "2",
        "--diff",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("the frames differ after update"), "{e}");
    assert!(e.contains("constant:16.667 and "), "{e}");
    let img = image::open(&png).unwrap().to_rgba8();
    // The two 64 x 16 frames and the picture marking where they differ, 4 pixels apart.
    assert_eq!((img.width(), img.height()), (64 + 4 + 64 + 4 + 64, 16));
    // The ball (a disc of radius 3 on row 8) is in two places: the area is 7 rows tall.
    let area = e
        .split("drew different pictures, ")
        .nth(1)
        .and_then(|rest| rest.split(" px at (").nth(1))
        .expect("the area is printed");
    let (x, rest) = area.split_once(", ").unwrap();
    let (y, rest) = rest.split_once(")-(").unwrap();
    let (x1, rest) = rest.split_once(", ").unwrap();
    let y1 = rest.split_once(')').unwrap().0;
    let [x, y, x1, y1]: [u32; 4] = [x, y, x1, y1].map(|n| n.parse().unwrap());
    assert_eq!((y, y1), (5, 11), "{e}");
    // The third picture marks pixels inside the printed area only, and some of them.
    let third = 64 + 4 + 64 + 4;
    let mut marked = 0;
    for py in 0..16 {
        for px in 0..64 {
            if img.get_pixel(third + px, py).0 == bt_runtime::verify::MARK {
                assert!(
                    (x..=x1).contains(&px) && (y..=y1).contains(&py),
                    "({px}, {py})"
                );
                marked += 1;
            }
        }
    }
    assert!(marked > 0, "{e}");
}

#[test]
fn bt_verify_accepts_a_recorded_replay() {
    let (_, replay) = recorded_snake(300);
    let dir = ScratchDir::new("verify-input");
    let path = dir.join("run.btr");
    replay.save(&path).unwrap();
    let o = bt(&["verify", "snake", "--input", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        text.contains(&format!("snake: {} updates", replay.ticks())),
        "{text}"
    );
}

#[test]
fn a_replay_file_is_small() {
    // Not a limit the file format promises; a guard against storing every tick.
    let (_, replay) = recorded_snake(3000);
    let bytes = replay.to_json().len() as u64;
    let budget = 100 * replay.recording().runs() as u64 + 40 * replay.hashes().len() as u64;
    assert!(bytes < budget + 1000, "{bytes} bytes");
}

#[test]
fn ten_minutes_of_scripted_snake_fit_in_a_small_file() {
    // 36 000 updates at 60 a second, a turn every 23 frames (2.6 changes a second).
    let clock = Box::new(ConstantClock::new(1000.0 / 60.0).unwrap());
    let (_, replay) = scripted_snake(36_000, clock);
    assert_eq!(replay.ticks(), 36_000);
    let bytes = replay.to_json().len();
    println!(
        "10 min of snake: {bytes} bytes, {} runs, {} hashes",
        replay.recording().runs(),
        replay.hashes().len()
    );
    assert!(bytes < 400_000, "{bytes} bytes");
}

/// A cart that panics in its 90th update.
struct Doomed(u64);

impl bt::Cart for Doomed {
    fn update(&mut self, _ctx: &mut bt::Update<'_>) {
        self.0 += 1;
        assert!(self.0 < 90, "the bug being recorded");
    }
    fn render(&self, ctx: &mut bt::Render<'_>) {
        ctx.clear(1);
    }
}

#[test]
fn a_recording_is_saved_when_the_cart_panics() {
    use bt_runtime::host::keymap::KeyMap;
    use bt_runtime::host::{Host, HostEvent};
    let dir = ScratchDir::new("replay-panic");
    let path = dir.join("crash.btr");
    let engine = Engine::new(
        Box::new(|| Box::new(Doomed(0)) as Box<dyn bt::Cart>),
        options(None),
    )
    .unwrap();
    let mut host = Host::new(engine, KeyMap::default(), "doomed");
    host.record_to(path.clone(), None);
    host.engine_mut()
        .set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    host.handle(HostEvent::Key {
        key: Key::ArrowUp,
        down: true,
    });
    for f in 0..200 {
        host.frame(f64::from(f) * 16.0);
    }
    assert!(
        host.engine().cart_panic().is_some(),
        "the cart panicked and was stopped"
    );
    // The host handed the recording over when it caught the panic; the window writes it.
    let writes = host.take_outbox();
    assert_eq!(writes.len(), 1, "{writes:?}");
    bt_runtime::host::outbox::replace(&writes[0]).unwrap();
    let replay = Replay::load(&path).expect("saved when the panic was caught");
    // The update that panicked is recorded too, and the file says the run ended there.
    assert_eq!(replay.ticks(), 90);
    let recorded = replay.panic().expect("the replay says it ended in a panic");
    assert_eq!((recorded.updates, recorded.call.as_str()), (90, "update"));
    assert_eq!(
        replay
            .recording()
            .iter()
            .next()
            .unwrap()
            .keys_pressed
            .count_ones(),
        1
    );
}

#[test]
fn trace_and_diagnose_play_a_replay_under_their_clock() {
    let (_, replay) = recorded_snake(300);
    let dir = ScratchDir::new("replay-trace");
    let path = dir.join("run.btr");
    replay.save(&path).unwrap();
    let path = path.to_str().unwrap();
    let trace = |clock: &str| {
        let o = bt(&[
            "trace", "snake", "--input", path, "--clock", clock, "--frames", "200",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(trace("paced:30").lines().count() > 50);
    let png = dir.join("chart.png");
    let o = bt(&[
        "diagnose",
        "snake",
        "--input",
        path,
        "--clock",
        "jitter:1:40:7",
        "--frames",
        "200",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(png.exists());
}

/// `frames` frames of snake at one update a frame, the player steering as in
/// [`scripted_snake`], and holding B for player 1 in frame `b_at` when given: recorded.
fn snake_pressing_b(frames: u64, b_at: Option<u64>) -> Replay {
    let mut e = snake(None);
    e.start_recording(DEFAULT_HASH_EVERY);
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    let turns = [Button::UP, Button::RIGHT, Button::DOWN, Button::LEFT];
    for f in 0..frames {
        let input = e.console_mut().input_mut();
        if f % 23 == 0 {
            input.set_buttons(
                Button::UP | Button::DOWN | Button::LEFT | Button::RIGHT,
                Player::ONE,
                false,
            );
            input.set_buttons(turns[(f / 23 % 4) as usize], Player::ONE, true);
        }
        input.set_buttons(Button::B, Player::ONE, b_at == Some(f));
        e.advance(1);
    }
    e.recording("snake", None).unwrap()
}

#[test]
fn bt_verify_against_compares_two_recordings_update_by_update() {
    let dir = ScratchDir::new("verify-against");
    let save = |name: &str, replay: &Replay| {
        let path = dir.join(name);
        replay.save(&path).unwrap();
        path.to_str().unwrap().to_string()
    };
    let compare = |a: &str, b: &str| bt(&["verify", "snake", "--input", a, "--against", b]);
    let a = snake_pressing_b(600, None);
    let same = snake_pressing_b(600, None);
    let pressed = snake_pressing_b(600, Some(300));
    let (pa, psame, ppressed) = (
        save("a.btr", &a),
        save("same.btr", &same),
        save("pressed.btr", &pressed),
    );

    // Two recordings of one run agree.
    let o = compare(&pa, &psame);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.contains(&format!("agree on all {} updates", a.ticks())),
        "{out}"
    );

    // Input that differs: the first update whose input differs, its player and its buttons.
    let first_other = a
        .recording()
        .iter()
        .zip(pressed.recording().iter())
        .position(|(x, y)| x != y)
        .unwrap() as u64
        + 1;
    let o = compare(&pa, &ppressed);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("differ at update {first_other}: player 1 holds ")),
        "{e}"
    );
    assert!(
        e.contains("+B in ") && e.trim_end().lines().count() == 1,
        "{e}"
    );

    // The same input, another frame hash: named after its update.
    let (at, hash) = a.hashes()[4];
    let json = a.to_json();
    let changed = json.replacen(
        &format!("[{at},\"{hash:016x}\"]"),
        &format!("[{at},\"{:016x}\"]", hash ^ 1),
        1,
    );
    assert_ne!(changed, json);
    let phash = write(&dir, "hash.btr", &changed);
    let o = compare(&pa, &phash);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("differ after update {at}: the same input")),
        "{e}"
    );

    // One stops early: the updates they share agree, and that is success.
    let shorter = save("shorter.btr", &a.through(580));
    let o = compare(&pa, &shorter);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.contains("has 600 updates") && out.contains(" 580: the 580 they share agree"),
        "{out}"
    );
    // ... but not when the shorter one parts from the other before it ends.
    let o = compare(&save("early.btr", &pressed.through(580)), &pa);
    assert_eq!(o.status.code(), Some(1));

    // A bad file is refused as every replay is, named.
    let broken = write(
        &dir,
        "broken.btr",
        "{\"format\":\"bt-replay\",\"version\":1,",
    );
    let o = compare(&pa, &broken);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("broken.btr: truncated replay"), "{e}");
    let o = bt(&["verify", "snake", "--against", &pa]);
    assert_eq!(o.status.code(), Some(2), "--against needs --input");
}
