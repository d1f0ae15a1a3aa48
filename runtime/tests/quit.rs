//! A cart that quits: the run ends with the update that asked, live or headless, and a
//! replay from the start quits at the same update again.

use bt::{Cart, Render, Update};
use bt_runtime::engine::Origin;
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// Counts its updates and quits in update number `QUIT_AT`.
#[derive(Default)]
struct Quitter {
    updates: u64,
}

const QUIT_AT: u64 = 30;

impl Cart for Quitter {
    fn update(&mut self, ctx: &mut Update<'_>) {
        self.updates += 1;
        assert!(self.updates <= QUIT_AT, "an update ran after the cart quit");
        if self.updates == QUIT_AT {
            ctx.quit();
        }
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear((self.updates % 16) as u8);
    }
}

fn engine() -> Engine {
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    Engine::new(Box::new(|| Box::new(Quitter::default())), options).unwrap()
}

#[test]
fn live_play_pauses_on_the_update_that_quit_and_stays_paused() {
    let mut engine = engine();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    assert_eq!(engine.quit_at(), None);
    engine.advance(200);
    assert_eq!(engine.quit_at(), Some(QUIT_AT));
    assert_eq!(engine.updates_since_init(), QUIT_AT);
    assert!(engine.is_paused());
    engine.resume();
    assert!(engine.is_paused(), "a cart that quit does not resume");
}

#[test]
fn a_headless_seek_past_the_quit_ends_at_it_and_shows_the_last_frame() {
    let mut engine = engine();
    engine.render_at(5.0, Origin::Start).unwrap();
    assert_eq!(engine.quit_at(), Some(QUIT_AT));
    assert_eq!(engine.updates_since_init(), QUIT_AT);
    assert_eq!(
        engine.framebuffer().pixels()[0],
        (QUIT_AT % 16) as u8,
        "the last frame"
    );
    // A seek from the start runs the cart again: before the quit it has not quit.
    engine.render_at(0.25, Origin::Start).unwrap();
    assert_eq!(engine.quit_at(), None);
    assert_eq!(engine.updates_since_init(), 15);
}
