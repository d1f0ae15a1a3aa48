//! The worst frame a rollback session has: a misprediction found 8 updates back (the default
//! prediction window), so the frame loads the state from then, runs those 8 updates again with
//! a save and a frame hash before each, runs its own new update, and draws once. Every bundled
//! cart, each after 600 updates of scripted play; a cart that cannot be copied
//! (`Cart::snapshot`) cannot be played over the network and is named as such. Before each
//! cart's figure the bench prints what one save, one frame hash (a drawing) and one update
//! cost, to say where a slow frame goes. Figures are in docs/netplay.md.
//!
//! `cargo bench -p bt-net --bench rollback -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Instant;

use bt::host::{TickButtons, TickInput};
use bt::{Button, Cart};
use bt_engine::{Engine, EngineError, EngineOptions, SnapshotError};
use bt_net::DEFAULT_MAX_PREDICTION;
use criterion::{criterion_group, criterion_main, Criterion};

/// Updates played before the measured frames: the game is under way.
const WARM: u64 = 600;

/// Repetitions of each part timed for the breakdown printed before a cart's figure.
const PARTS: u32 = 50;

/// A bundled cart: its name as `bt list` gives it, how to make it, and its asset folder.
struct Bundled {
    name: &'static str,
    cart: fn() -> Box<dyn Cart>,
    assets: Option<&'static str>,
}

/// Every cart the gallery bundles (`bt list`), in its order.
const CARTS: &[Bundled] = &[
    bundled("hello", bt_cart_hello::cart),
    bundled("timers", bt_cart_timers::cart),
    bundled("primitives", bt_cart_primitives::cart),
    bundled("sprites", bt_cart_sprites::cart),
    bundled("palette", bt_cart_palette::cart),
    bundled("starfield", bt_cart_starfield::cart),
    bundled("tilemap", bt_cart_tilemap::cart),
    bundled("bunnymark", bt_cart_bunnymark::cart),
    bundled("snake", bt_cart_snake::cart),
    bundled("keys", bt_cart_keys::cart),
    bundled("paint", bt_cart_paint::cart),
    bundled("jukebox", bt_cart_jukebox::cart),
    bundled("audio", bt_cart_audio::cart),
    bundled("audio-buses", bt_cart_audio::buses::cart),
    Bundled {
        name: "platformer",
        cart: bt_cart_platformer::cart,
        assets: Some(bt_cart_platformer::ASSETS),
    },
    Bundled {
        name: "fonts",
        cart: bt_cart_fonts::cart,
        assets: Some(bt_cart_fonts::ASSETS),
    },
    bundled("transforms", bt_cart_transforms::cart),
    bundled("crt", bt_cart_crt::cart),
    bundled("crt-logo", bt_cart_crt::logo_cart),
    bundled("widgets", bt_cart_widgets::cart),
];

const fn bundled(name: &'static str, cart: fn() -> Box<dyn Cart>) -> Bundled {
    Bundled {
        name,
        cart,
        assets: None,
    }
}

fn engine(cart: &Bundled) -> Engine {
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        assets: cart.assets.map(Into::into),
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.cart), options).expect("the cart boots")
}

/// Player one walks right and jumps now and then, and the pointer circles with its button
/// held half the time; player two turns.
fn input(update: u64) -> TickInput {
    let mut tick = TickInput::default();
    let jump = update.is_multiple_of(40);
    let click = update % 50 < 25;
    let a = if jump { Button::A.bits() } else { 0 };
    let pointer = if click { Button::POINTER_A.bits() } else { 0 };
    tick.buttons[0] = TickButtons {
        down: Button::RIGHT.bits() | a | pointer,
        pressed: a | if update.is_multiple_of(50) {
            pointer
        } else {
            0
        },
        released: if update % 50 == 25 {
            Button::POINTER_A.bits()
        } else {
            0
        },
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
    let angle = update as f32 / 15.0;
    tick.pointer_pos = (
        80 + (angle.cos() * 40.0) as i32,
        60 + (angle.sin() * 30.0) as i32,
    );
    tick.pointer_active = true;
    tick
}

/// The mean of `PARTS` runs of `part`, in microseconds.
fn mean_us(mut part: impl FnMut()) -> f64 {
    let started = Instant::now();
    for _ in 0..PARTS {
        part();
    }
    started.elapsed().as_secs_f64() * 1e6 / f64::from(PARTS)
}

fn worst_frame(c: &mut Criterion, cart: &Bundled) {
    let depth = DEFAULT_MAX_PREDICTION as u64;
    let mut e = engine(cart);
    let mut back = None;
    for update in 0..WARM {
        if update == WARM - depth {
            match e.save_rollback_state() {
                Ok(state) => back = Some(state),
                Err(EngineError::Snapshot(SnapshotError::Unsupported)) => {
                    println!(
                        "{}: cannot be copied (Cart::snapshot), so cannot be played over the \
                         network: not measured",
                        cart.name
                    );
                    return;
                }
                Err(e) => panic!("{}: {e}", cart.name),
            }
        }
        e.update_with(&input(update)).expect("update");
    }
    let back = back.expect("a state to go back to");
    let save = mean_us(|| drop(black_box(e.save_rollback_state().expect("save"))));
    let hash = mean_us(|| {
        // The hash of an update the recording did not hash: drawn each time.
        black_box(e.state_hash().expect("hash"));
    });
    e.load_rollback_state(&back).expect("load");
    let mut update = WARM - depth;
    let step = mean_us(|| {
        e.update_with(&input(update)).expect("update");
        update += 1;
    });
    println!(
        "{}: save {save:.1} us, hash {hash:.1} us, update {step:.1} us",
        cart.name
    );
    c.bench_function(&format!("rollback_{depth}_{}", cart.name), |b| {
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
    for cart in CARTS {
        worst_frame(c, cart);
    }
}

criterion_group!(benches, rollback);
criterion_main!(benches);
