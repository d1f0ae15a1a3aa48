//! The engine's promises checked on every bundled cart, so a new one is covered the day it is
//! added; the rest of the engine's tests live beside it, in `runtime/tests/engine.rs`.

use bt_runtime::engine::Origin;
use bt_runtime::{ConstantClock, Engine, EngineOptions};

const IV60: f64 = 1000.0 / 60.0;

fn bundled(name: &str) -> Engine {
    let cart = bt_gallery::find(name).expect("bundled cart");
    let options = EngineOptions {
        overlay: false,
        // Enough bunnies to overlap and bounce, few enough to replay quickly.
        args: vec![("sprites".into(), "100".into())],
        // The platformer reads its levels from its folder.
        assets: cart.assets.map(std::path::PathBuf::from),
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.build), options).expect("cart boots")
}

#[test]
fn render_at_equals_live_play_byte_for_byte() {
    // Every bundled cart: a new one is covered the day it is added.
    for name in bt_runtime::catalog::shown(bt_gallery::CARTS) {
        let mut live = bundled(name);
        live.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
        let mut seek = bundled(name);
        let mut done = 0u64;
        for target in [1u64, 60, 192, 599, 600, 601, 1300] {
            live.advance(target - done);
            done = target;
            assert_eq!(live.updates_since_init(), target);
            seek.render_at(target as f64 / 60.0, Origin::Start).unwrap();
            assert_eq!(seek.ticks(), live.ticks(), "{name} at {target}");
            assert_eq!(
                seek.framebuffer(),
                live.framebuffer(),
                "{name} at tick {target}"
            );
            // Palette effects included: the colours shown match too.
            assert_eq!(seek.palette(), live.palette(), "{name} palette at {target}");
        }
    }
}

#[test]
fn step_from_a_pause_equals_render_at_as_many_updates_later() {
    // Every bundled cart: palette effects, resets and random rolls all have to agree.
    for name in bt_runtime::catalog::shown(bt_gallery::CARTS) {
        // Paused by a seek, and paused by the player during live play.
        let mut sought = bundled(name);
        sought.render_at(1.0, Origin::Start).unwrap();
        let mut played = bundled(name);
        played.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
        played.advance(60);
        played.pause();
        // The way F6 used to step: a seek from the current tick, one update on.
        let mut seek_steps = bundled(name);
        seek_steps.render_at(1.0, Origin::Start).unwrap();
        for _ in 0..3 {
            let next = seek_steps.updates_since_init() + 1;
            seek_steps
                .render_at(next as f64 / 60.0, Origin::Current)
                .unwrap();
        }
        let mut want = bundled(name);
        want.render_at(63.0 / 60.0, Origin::Start).unwrap();
        sought.step(3).unwrap();
        played.step(3).unwrap();
        for (how, e) in [
            ("after a seek", &sought),
            ("after a pause", &played),
            ("by seeks from the current tick", &seek_steps),
        ] {
            assert!(e.is_paused(), "{name} {how}");
            assert_eq!(e.updates_since_init(), 63, "{name} {how}");
            assert_eq!(e.ticks(), want.ticks(), "{name} {how}");
            assert_eq!(e.framebuffer(), want.framebuffer(), "{name} {how}");
            assert_eq!(e.palette(), want.palette(), "{name} palette {how}");
        }
    }
}
