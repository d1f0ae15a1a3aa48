//! Save data through the host `bt run` plays with: what the cart booted with is what it reads,
//! a change reaches the file (at most about once a second, and when the run ends), steady
//! frames write nothing and allocate nothing, and the file is always whole. The host itself
//! writes no file: it hands the save data and the recording over, and these tests write them
//! as the window does ([`outbox::replace`]).

use std::path::{Path, PathBuf};

use bt::{Button, Cart, Key, Player, Render, Update};
use bt_runtime::engine::Origin;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::outbox::{self, Destination, FileKind, OutFile};
use bt_runtime::host::pause_menu::MenuChoice;
use bt_runtime::host::{Host, HostEvent, RECORD_SAVE_EVERY_FRAMES};
use bt_runtime::replay::Replay;
use bt_runtime::save;
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use bt_test_support::{CountingAlloc, ScratchDir};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// Counts presses of A in save slot 0, and writes the same marker into slot 1 every update,
/// as a cart that stores its settings each frame would.
#[derive(Default, Clone)]
struct Presses {
    presses: i32,
}

impl Cart for Presses {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        self.presses = ctx.save().get(0);
        Ok(())
    }
    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_pressed(Button::A, Player::ONE) {
            self.presses += 1;
            ctx.save_mut().set(0, self.presses);
        }
        ctx.save_mut().set(1, 77);
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear((self.presses % 16) as u8);
    }
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }
}

const FPS: f64 = 60.0;

fn boot(file: &Path) -> Host {
    let boot = save::load(file).unwrap().unwrap_or_default();
    let options = EngineOptions {
        overlay: false,
        save: Some(boot),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(|| Box::new(Presses::default())), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / FPS).unwrap()));
    let mut host = Host::new(engine, KeyMap::default(), "presses");
    host.store_save_to(file.to_path_buf());
    host
}

/// Runs `frames` frames (one update each) from frame `from`, writing what the host asks for
/// after each, as the window does.
fn frames(host: &mut Host, from: u64, frames: u64) {
    for f in from..from + frames {
        host.frame(f as f64 * 1000.0 / FPS);
        write_outbox(host);
    }
}

/// Writes the files of the host's outbox that replace one at a path (the save data, the
/// recording), as the window does; files to keep (F3's state file) would go to its captures
/// folder, and are left out here.
fn write_outbox(host: &mut Host) {
    for file in host.take_outbox() {
        if let Destination::Replace(_) = file.destination {
            outbox::replace(&file).unwrap();
        }
    }
}

/// The run ends: writes the host's last files, as the window does.
fn finish(host: &mut Host) {
    host.finish();
    write_outbox(host);
}

fn tap(host: &mut Host, frame: u64) {
    let input = host.engine_mut().console_mut().input_mut();
    input.set_buttons(Button::A, Player::ONE, true);
    frames(host, frame, 1);
    let input = host.engine_mut().console_mut().input_mut();
    input.set_buttons(Button::A, Player::ONE, false);
}

/// A save file holding 5 presses, a run booted from it, and two presses of A (frames 0 and
/// 2) followed by `then` more frames.
fn two_presses_over_five(name: &str, then: u64) -> (ScratchDir, PathBuf, Host) {
    let dir = ScratchDir::new(name);
    let file = dir.join("save.bin");
    save::store(&file, &5i32.to_le_bytes()).unwrap();
    let mut host = boot(&file);
    tap(&mut host, 0);
    frames(&mut host, 1, 1);
    tap(&mut host, 2);
    frames(&mut host, 3, then);
    (dir, file, host)
}

fn slot0(file: &Path) -> Option<i32> {
    save::load(file)
        .unwrap()
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[test]
fn a_change_reaches_the_file_within_a_second_and_the_rest_when_the_run_ends() {
    let dir = ScratchDir::new("save-store");
    let file = dir.join("presses/save.bin");
    let mut host = boot(&file);
    frames(&mut host, 0, 10);
    // The marker in slot 1 is new: the first due write stores it.
    assert_eq!(slot0(&file), None, "nothing is written in the first second");
    frames(&mut host, 10, 60);
    assert_eq!(slot0(&file), Some(0), "the marker went out after a second");
    tap(&mut host, 70);
    frames(&mut host, 71, 5);
    assert_eq!(slot0(&file), Some(0), "at most one write a second");
    tap(&mut host, 76);
    frames(&mut host, 77, 70);
    assert_eq!(slot0(&file), Some(2), "both presses, in one write");
    tap(&mut host, 147);
    finish(&mut host);
    assert_eq!(
        slot0(&file),
        Some(3),
        "the last change is written when the run ends"
    );

    // The next run boots with what the last one stored.
    let mut again = boot(&file);
    frames(&mut again, 0, 1);
    assert_eq!(again.engine().console().save().get(0), 3);
}

#[test]
fn steady_frames_that_rewrite_the_same_save_data_write_nothing_and_allocate_nothing() {
    let dir = ScratchDir::new("save-steady");
    let file = dir.join("save.bin");
    save::store(&file, &[0, 0, 0, 0, 77]).unwrap();
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let mut host = boot(&file);
    // Snapshots (the cart can be copied) allocate by design, every 64 updates: none here.
    host.engine_mut().set_snapshot_budget(0);
    frames(&mut host, 0, 120);
    let allocations = GLOBAL.allocations_during(|| frames(&mut host, 120, 600));
    assert_eq!(allocations, 0, "ten seconds of frames touching save data");
    finish(&mut host);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no stray file"
    );
}

#[test]
fn a_run_that_went_back_writes_its_save_data_again_from_where_play_goes_on() {
    let (_dir, file, mut host) = two_presses_over_five("save-rewind", 70);
    assert_eq!(slot0(&file), Some(7));
    host.engine_mut().render_at(0.5, Origin::Start).unwrap();
    assert_eq!(
        host.engine().console().save().get(0),
        5,
        "the run replays from boot"
    );
    host.engine_mut().resume();
    frames(&mut host, 71, 1);
    assert_eq!(slot0(&file), Some(7), "nothing is written at the jump");
    tap(&mut host, 72);
    frames(&mut host, 73, 70);
    assert_eq!(
        slot0(&file),
        Some(6),
        "the run played on from the jump is written, within a second"
    );
    tap(&mut host, 143);
    finish(&mut host);
    assert_eq!(slot0(&file), Some(7), "and its last change when it ends");
}

fn key(host: &mut Host, key: Key, down: bool) {
    host.handle(HostEvent::Key { key, down });
}

#[test]
fn after_a_loaded_state_only_the_abandoned_futures_save_data_is_dropped() {
    let (_dir, file, mut host) = two_presses_over_five("save-state", 70);
    assert_eq!(slot0(&file), Some(7));
    key(&mut host, bt_runtime::host::SAVE_STATE_KEY, true);
    key(&mut host, bt_runtime::host::SAVE_STATE_KEY, false);
    // A press the player then takes back before it was written: it never reaches the file.
    tap(&mut host, 73);
    frames(&mut host, 74, 5);
    key(&mut host, bt_runtime::host::LOAD_STATE_KEY, true);
    key(&mut host, bt_runtime::host::LOAD_STATE_KEY, false);
    assert_eq!(host.engine().console().save().get(0), 7);
    frames(&mut host, 79, 70);
    assert_eq!(slot0(&file), Some(7));
    // Play goes on from the state, and what it saves is written as before.
    tap(&mut host, 149);
    frames(&mut host, 150, 1);
    tap(&mut host, 151);
    frames(&mut host, 152, 70);
    assert_eq!(slot0(&file), Some(9), "written within a second of play");
    tap(&mut host, 222);
    finish(&mut host);
    assert_eq!(slot0(&file), Some(10), "and when the run ends");
}

#[test]
fn a_save_file_is_replaced_whole_and_a_failed_write_leaves_it_as_it_was() {
    let dir = ScratchDir::new("save-atomic");
    let file = dir.join("save.bin");
    save::store(&file, &[1; 4096]).unwrap();
    save::store(&file, &[2, 3]).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), save::encode(&[2, 3]));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );

    // A file where its folder should be: the write fails, names the file, changes nothing.
    let blocked = dir.join("save.bin/inner.bin");
    let err = save::store(&blocked, &[9]).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("save file {}: ", blocked.display())),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), save::encode(&[2, 3]));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn the_host_hands_over_save_data_and_the_recording_and_touches_no_file() {
    let dir = ScratchDir::new("save-hand-over");
    let file = dir.join("presses/save.bin");
    let recording = dir.join("run.btr");
    let mut host = boot(&file);
    host.record_to(recording.clone(), Some("1.0".into()));
    let mut handed = Vec::new();
    let press = |host: &mut Host, down: bool| {
        let input = host.engine_mut().console_mut().input_mut();
        input.set_buttons(Button::A, Player::ONE, down);
    };
    press(&mut host, true);
    for f in 0..RECORD_SAVE_EVERY_FRAMES {
        host.frame(f as f64 * 1000.0 / FPS);
        press(&mut host, false);
        handed.extend(host.take_outbox());
    }
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 0, "the host wrote nothing itself");

    // The save data went out once, after a second of updates, as a whole save file.
    let saves: Vec<&OutFile> = handed
        .iter()
        .filter(|w| w.kind == FileKind::SaveData)
        .collect();
    assert_eq!(saves.len(), 1, "{handed:?}");
    assert_eq!(saves[0].destination, Destination::Replace(file.clone()));
    let data = save::decode(&saves[0].bytes, &file).unwrap();
    assert_eq!(&data[..5], &[1, 0, 0, 0, 77]);

    // The recording went out after RECORD_SAVE_EVERY_FRAMES frames, with every update so far.
    let recordings: Vec<&OutFile> = handed
        .iter()
        .filter(|w| matches!(w.kind, FileKind::Recording { .. }))
        .collect();
    assert_eq!(recordings.len(), 1, "{handed:?}");
    let updates = host.engine().updates_since_init();
    assert_eq!(recordings[0].kind, FileKind::Recording { updates });
    assert_eq!(
        recordings[0].destination,
        Destination::Replace(recording.clone())
    );
    let text = std::str::from_utf8(&recordings[0].bytes).unwrap();
    let replay = Replay::from_json(text, &recording).unwrap();
    assert_eq!(replay.ticks(), updates);

    // A second press, then the end: the save data it changed and the last recording, and then
    // nothing more.
    press(&mut host, true);
    host.frame(RECORD_SAVE_EVERY_FRAMES as f64 * 1000.0 / FPS);
    host.finish();
    let last = host.take_outbox();
    let kinds: Vec<FileKind> = last.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [
            FileKind::SaveData,
            FileKind::Recording {
                updates: updates + 1
            }
        ]
    );
    host.finish();
    assert!(
        host.take_outbox().is_empty(),
        "a second end asks for nothing"
    );
    host.frame(RECORD_SAVE_EVERY_FRAMES as f64 * 2000.0 / FPS);
    assert!(host.take_outbox().is_empty(), "the run has ended");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_write_the_platform_could_not_make_is_shown_and_the_save_data_handed_over_again() {
    let dir = ScratchDir::new("save-write-failed");
    let file = dir.join("save.bin");
    let options = EngineOptions {
        save: Some(Vec::new()),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(|| Box::new(Presses::default())), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / FPS).unwrap()));
    let mut host = Host::new(engine, KeyMap::default(), "presses");
    host.store_save_to(file.clone());
    let said = bt_test_support::SharedOutput::default();
    host.set_error_output(Box::new(said.clone()));
    tap(&mut host, 0);
    for f in 1..70 {
        host.frame(f as f64 * 1000.0 / FPS);
    }
    let writes = host.take_outbox();
    assert_eq!(writes.len(), 1);
    host.write_failed(&writes[0], "save file save.bin: no room");
    let notice = host.engine().overlay().unwrap().notice().to_string();
    assert_eq!(notice, "save file save.bin: no room");
    let out = said.text();
    assert_eq!(out, "bt: save file save.bin: no room\n");

    // The cart rewrites the same value every update: the failed file goes out again.
    frames(&mut host, 70, 70);
    assert_eq!(slot0(&file), Some(1));
}

#[test]
fn a_save_file_that_keeps_failing_the_same_way_is_said_once() {
    let dir = ScratchDir::new("save-write-failed-once");
    let options = EngineOptions {
        save: Some(Vec::new()),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(|| Box::new(Presses::default())), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / FPS).unwrap()));
    let mut host = Host::new(engine, KeyMap::default(), "presses");
    host.store_save_to(dir.join("save.bin"));
    let said = bt_test_support::SharedOutput::default();
    host.set_error_output(Box::new(said.clone()));
    tap(&mut host, 0);
    for f in 1..70 {
        host.frame(f as f64 * 1000.0 / FPS);
    }
    let writes = host.take_outbox();
    assert_eq!(writes.len(), 1);
    for _ in 0..3 {
        host.write_failed(&writes[0], "save file save.bin: read-only file system");
    }
    host.write_failed(&writes[0], "save file save.bin: no room");
    let out = said.text();
    assert_eq!(
        out,
        "bt: save file save.bin: read-only file system\nbt: save file save.bin: no room\n"
    );
}

#[test]
fn restart_from_the_pause_menu_boots_with_the_save_data_so_far_and_keeps_writing_it() {
    let (_dir, file, mut host) = two_presses_over_five("save-restart", 3);
    assert_eq!(host.engine().console().save().get(0), 7);
    // P, then down past Continue to Restart, then Enter.
    let key = |host: &mut Host, key: Key| {
        host.handle(HostEvent::Key { key, down: true });
        host.handle(HostEvent::Key { key, down: false })
    };
    key(&mut host, Key::KeyP);
    while host
        .menu()
        .is_some_and(|m| m.selected() != MenuChoice::Restart)
    {
        key(&mut host, Key::ArrowDown);
    }
    key(&mut host, Key::Enter);
    assert_eq!(host.engine().updates_since_init(), 0, "the run starts over");
    assert_eq!(
        host.engine().console().save().get(0),
        7,
        "with the presses made before the restart"
    );
    // The new game's presses reach the file, within a second and at the end.
    tap(&mut host, 6);
    frames(&mut host, 7, 70);
    assert_eq!(
        slot0(&file),
        Some(8),
        "written within a second of the restart"
    );
    tap(&mut host, 77);
    frames(&mut host, 78, 2);
    finish(&mut host);
    assert_eq!(slot0(&file), Some(9));
}
