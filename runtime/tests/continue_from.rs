//! Continuing a run in new code (`bt dev`'s swap, headless): the recording of a run played
//! through a changed cart from boot puts it at the update the old run reached, in the state a
//! fresh run of the changed cart with the same input has there, and live play goes on from it.

use std::sync::Arc;

use bt::{Button, Cart, Player, Rect, Render, Update};
use bt_runtime::engine::Continued;
use bt_runtime::engine::EngineError;
use bt_runtime::harness::CartTest;
use bt_runtime::replay::Replay;
use bt_runtime::session::{ReplaySource, Session};
use bt_runtime::Engine;

/// Walks `SPEED` pixels an update while RIGHT is held: the constant an author edits.
#[derive(Default)]
struct Walker<const SPEED: i32> {
    x: i32,
}

impl<const SPEED: i32> Cart for Walker<SPEED> {
    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_down(Button::RIGHT, Player::ONE) {
            self.x += SPEED;
        }
        assert!(self.x < 100, "walked off the edge at x {}", self.x);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.draw_rect_fill(Rect::new(self.x, 10, 4, 4), 8);
    }
}

/// The input of the old run: RIGHT held for 30 updates, then 10 idle ones.
fn play(test: &mut CartTest) {
    test.press(Button::RIGHT, Player::ONE);
    test.run(30);
    test.release(Button::RIGHT, Player::ONE);
    test.run(10);
}

/// A run of the old code, recorded from boot.
fn old_run() -> Replay {
    let mut old = CartTest::new(Walker::<1>::default).unwrap();
    old.engine_mut()
        .start_recording(bt_runtime::replay::DEFAULT_HASH_EVERY);
    play(&mut old);
    old.engine_mut()
        .recording("walker", None)
        .expect("recorded")
}

/// An engine of `new`'s cart that plays `replay` first, recording, as `bt run --record
/// --continue-from` makes it.
fn engine_of<C: Cart + Default + 'static>(replay: &Replay) -> Engine {
    let make = Arc::new(|| Box::new(C::default()) as Box<dyn Cart>);
    let session = Session::builder("walker", make)
        .overlay(false)
        .replay(Some(ReplaySource::Text {
            text: replay.to_json(),
            named: "the run so far".into(),
        }))
        .resolve()
        .unwrap();
    let mut engine = session.engine().unwrap();
    engine.start_recording(bt_runtime::replay::DEFAULT_HASH_EVERY);
    engine
}

#[test]
fn new_code_continues_at_the_update_the_old_run_reached_in_the_state_it_would_have() {
    let replay = old_run();
    assert_eq!(replay.ticks(), 40);
    let mut engine = engine_of::<Walker<2>>(&replay);
    let at = engine.play_replay_then_live(None).unwrap();
    assert_eq!(
        at,
        Continued {
            updates: 40,
            ticks: 40
        }
    );
    assert!(!engine.is_paused(), "live play goes on");
    assert!(engine.replay().is_none(), "the input from now on is live");

    // A fresh run of the new code with the same input draws the same frame: the robot walked
    // twice as far over the whole run, not just from the swap on.
    let mut fresh = CartTest::new(Walker::<2>::default).unwrap();
    play(&mut fresh);
    fresh.render();
    assert_eq!(engine.framebuffer().pixels(), fresh.frame().pixels());
    assert_eq!(fresh.pixel(60, 10), 8, "60 pixels on at twice the speed");

    // The continued run records from boot: its recording is the old input, and the new code's
    // frames, which a fresh run of the new code reproduces.
    let recording = engine.recording("walker", None).unwrap();
    assert_eq!(recording.ticks(), 40);
    let mut check = engine_of::<Walker<2>>(&recording);
    check.step(40).unwrap();
    assert_eq!(recording.first_mismatch(check.hashes()), None);
}

#[test]
fn new_code_that_panics_in_the_replay_says_at_which_tick() {
    // Four pixels an update reaches the edge on the 25th update of the old run's input.
    let mut engine = engine_of::<Walker<4>>(&old_run());
    let Err(EngineError::Panicked(panic)) = engine.play_replay_then_live(None) else {
        panic!("the new code walks off the edge during the replay");
    };
    assert_eq!(panic.tick, 24, "{panic}");
    let said = panic.to_string();
    assert!(
        said.contains("at tick 24") && said.contains("walked off the edge at x 100"),
        "{said}"
    );
    assert!(engine.is_paused(), "it stays on the panic");
    assert!(engine.cart_panic().is_some());
}

#[test]
fn an_engine_with_no_replay_goes_live_at_boot() {
    let make = Arc::new(|| Box::new(Walker::<1>::default()) as Box<dyn Cart>);
    let session = Session::builder("walker", make)
        .overlay(false)
        .resolve()
        .unwrap();
    let mut engine = session.engine().unwrap();
    let at = engine.play_replay_then_live(None).unwrap();
    assert_eq!(
        at,
        Continued {
            updates: 0,
            ticks: 0
        }
    );
    assert!(!engine.is_paused());
}
