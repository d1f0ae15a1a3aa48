//! Save data through the host `bt run` plays with: what the cart booted with is what it reads,
//! a change reaches the file (at most about once a second, and when the run ends), steady
//! frames write nothing and allocate nothing, and the file is always whole.

use std::path::Path;

use bt::{Button, Cart, Player, Render, Update};
use bt_runtime::engine::Origin;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::Host;
use bt_runtime::save;
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use bt_test_support::{CountingAlloc, ScratchDir};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// Counts presses of A in save slot 0, and writes the same marker into slot 1 every update,
/// as a cart that stores its settings each frame would.
#[derive(Default)]
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

/// Runs `frames` frames (one update each) from frame `from`.
fn frames(host: &mut Host, from: u64, frames: u64) {
    for f in from..from + frames {
        host.frame(f as f64 * 1000.0 / FPS);
    }
}

fn tap(host: &mut Host, frame: u64) {
    let input = host.engine_mut().console_mut().input_mut();
    input.set_buttons(Button::A, Player::ONE, true);
    frames(host, frame, 1);
    let input = host.engine_mut().console_mut().input_mut();
    input.set_buttons(Button::A, Player::ONE, false);
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
    host.finish_save().unwrap();
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
    frames(&mut host, 0, 120);
    let allocations = GLOBAL.allocations_during(|| frames(&mut host, 120, 600));
    assert_eq!(allocations, 0, "ten seconds of frames touching save data");
    host.finish_save().unwrap();
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
fn a_replay_from_the_start_puts_the_boot_save_data_back_and_stops_writing() {
    let dir = ScratchDir::new("save-rewind");
    let file = dir.join("save.bin");
    save::store(&file, &5i32.to_le_bytes()).unwrap();
    let mut host = boot(&file);
    tap(&mut host, 0);
    frames(&mut host, 1, 1);
    tap(&mut host, 2);
    frames(&mut host, 3, 70);
    assert_eq!(slot0(&file), Some(7));
    host.engine_mut().render_at(0.5, Origin::Start).unwrap();
    assert_eq!(
        host.engine().console().save().get(0),
        5,
        "the run replays from boot"
    );
    host.engine_mut().resume();
    tap(&mut host, 71);
    frames(&mut host, 72, 70);
    host.finish_save().unwrap();
    assert_eq!(host.engine().console().save().get(0), 6);
    assert_eq!(slot0(&file), Some(7), "what the live run saved is kept");
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
