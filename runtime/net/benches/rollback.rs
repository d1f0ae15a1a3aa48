//! The worst frame a rollback session has: a misprediction found 8 updates back (the default
//! prediction window), so the frame loads the state from then, runs those 8 updates again with
//! a save and a frame hash before each, runs its own new update, and draws once. Snake and the
//! platformer, each after 600 updates of play. Figures are in docs/netplay.md.

use std::hint::black_box;

use bt::host::{TickButtons, TickInput};
use bt::{Button, Cart};
use bt_engine::{Engine, EngineOptions};
use bt_net::DEFAULT_MAX_PREDICTION;
use criterion::{criterion_group, criterion_main, Criterion};

/// Updates played before the measured frames: the game is under way.
const WARM: u64 = 600;

fn engine(cart: fn() -> Box<dyn Cart>) -> Engine {
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        assets: Some(bt_cart_platformer::ASSETS.into()),
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart), options).expect("the cart boots")
}

/// Player one walks right and jumps now and then; player two turns.
fn input(update: u64) -> TickInput {
    let mut tick = TickInput::default();
    let jump = update.is_multiple_of(40);
    tick.buttons[0] = TickButtons {
        down: Button::RIGHT.bits() | if jump { Button::A.bits() } else { 0 },
        pressed: if jump { Button::A.bits() } else { 0 },
        released: 0,
    };
    let turn = [Button::UP, Button::RIGHT, Button::DOWN, Button::LEFT][(update / 30 % 4) as usize];
    tick.buttons[1] = TickButtons {
        down: turn.bits(),
        pressed: if update.is_multiple_of(30) {
            turn.bits()
        } else {
            0
        },
        released: 0,
    };
    tick
}

fn worst_frame(c: &mut Criterion, name: &str, cart: fn() -> Box<dyn Cart>) {
    let depth = DEFAULT_MAX_PREDICTION as u64;
    let mut e = engine(cart);
    let mut back = None;
    for update in 0..WARM {
        if update == WARM - depth {
            back = Some(e.save_rollback_state().expect("save"));
        }
        e.update_with(&input(update)).expect("update");
    }
    let back = back.expect("a state to go back to");
    c.bench_function(&format!("rollback_{depth}_{name}"), |b| {
        b.iter(|| {
            e.load_rollback_state(&back).expect("load");
            for i in 0..=depth {
                let update = WARM - depth + i;
                if i > 0 {
                    black_box(e.save_rollback_state().expect("save"));
                    black_box(e.state_hash().expect("hash"));
                }
                e.update_with(&input(update)).expect("update");
            }
            e.show().expect("show");
            black_box(e.framebuffer().pixels()[0]);
        })
    });
}

fn rollback(c: &mut Criterion) {
    worst_frame(c, "snake", bt_cart_snake::cart);
    worst_frame(c, "platformer", bt_cart_platformer::cart);
}

criterion_group!(benches, rollback);
criterion_main!(benches);
