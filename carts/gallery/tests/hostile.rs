//! BT used as a hostile or careless user would: one test per case that once failed, each named
//! for what must hold. The table is the list to start from when trying BT the same way again;
//! a case fixed elsewhere names the test that covers it.
//!
//! | case | what must hold | test |
//! | --- | --- | --- |
//! | a cart panics in `update` under a recording | the replay holds the panicking update's input and says it ended in a panic; replaying reproduces it; `bt replay --verify` fails naming it | [`a_panic_is_recorded_with_its_input_and_replays`], [`replay_verify_reports_a_reproduced_panic`] |
//! | `bt verify` of a cart that panics | the cart-panic line, naming the clock | [`verify_names_a_cart_panic_with_its_clock`] |
//! | a replay's hash beyond its ticks | refused when the file loads; only hashes compared are counted | [`a_hash_no_run_can_reach_is_refused`] |

mod support;

use std::sync::Arc;

use bt::Key;
use bt_runtime::host::input::{Host, HostEvent};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::replay::{Replay, DEFAULT_HASH_EVERY};
use bt_runtime::{ConstantClock, Engine, EngineError, EngineOptions};
use bt_test_support::ScratchDir;
use support::{bt, stderr, stdout};

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
    let mut host = Host::new(
        panics_on_space(None),
        KeyMap::default(),
        &dir.join("captures"),
        "space",
    );
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
    let live = host.engine().cart_panic().cloned().expect("the cart panicked");
    let updates = host.engine().updates_since_init();
    drop(host);

    let replay = Arc::new(Replay::load(&path).expect("saved when the panic was caught"));
    // The update that panicked is in the file, with the press that made it panic.
    assert_eq!(replay.ticks(), updates);
    let last = replay.recording().iter().last().unwrap();
    assert_ne!(last.keys_pressed, 0, "the press that panicked was recorded");
    let recorded = replay.panic().expect("the file says the run ended in a panic");
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
    assert!(!o.status.success(), "a replay ending in a panic fails: {err}");
    assert!(err.contains("reproduces it"), "{err}");
    assert!(
        err.contains("cart panicked in update at tick 100 (update 101): asked to panic in update"),
        "{err}"
    );
    assert!(err.contains("carts/gallery/src/panic.rs:"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A replay that says it ended in a panic, of a build that does not panic there, fails too.
    let replay = Replay::load(&path).unwrap();
    let text = replay.to_json().replace("\"panic_at\",\"100\"", "\"panic_at\",\"900\"");
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
        err.contains("cart 'panic': under constant:16.667: cart panicked in update at tick 100: \
             asked to panic in update at tick 100 (carts/gallery/src/panic.rs:"),
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
    };
    let mut rec = bt_runtime::replay::Recorder::new();
    for _ in 0..650 {
        rec.record(&bt::host::TickInput::default());
    }
    let p = std::path::Path::new("far.btr");
    let far = Replay::new(info.clone(), rec, vec![(60, 1), (1_000_000_000, 2)]);
    let e = Replay::from_json(&far.to_json(), p).unwrap_err().to_string();
    assert!(e.contains("far.btr") && e.contains("tick 1000000000"), "{e}");
    let empty = Replay::new(info, bt_runtime::replay::Recorder::new(), vec![(60, 1)]);
    let e = Replay::from_json(&empty.to_json(), p).unwrap_err().to_string();
    assert!(e.contains("0 updates"), "{e}");
}
