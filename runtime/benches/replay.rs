//! What recording costs a frame: capturing the tick an update saw and adding it to the
//! run-length recording, the frame hash taken every 60 updates, and a whole frame of `hello`
//! with and without recording.

use std::hint::black_box;

use bt::host::Input;
use bt::{Button, Player};
use bt_runtime::replay::{frame_hash, Recorder, DEFAULT_HASH_EVERY};
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use criterion::{criterion_group, criterion_main, Criterion};

fn record_tick(c: &mut Criterion) {
    let mut input = Input::default();
    input.set_buttons(Button::RIGHT, Player::ONE, true);
    input.set_pointer_pos(40, 30);
    let mut rec = Recorder::new();
    c.bench_function("replay_capture_and_record_one_tick", |b| {
        b.iter(|| {
            input.begin_update();
            rec.record(black_box(&input.visible()));
        })
    });
    black_box(rec.runs());
}

fn hash(c: &mut Criterion) {
    let engine =
        Engine::new(Box::new(bt_cart_hello::cart), EngineOptions::default()).expect("hello boots");
    c.bench_function("replay_frame_hash_hello", |b| {
        b.iter(|| black_box(frame_hash(engine.framebuffer(), engine.palette())))
    });
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("hello_frame");
    for recording in [false, true] {
        let options = EngineOptions {
            overlay: false,
            ..EngineOptions::default()
        };
        let mut engine = Engine::new(Box::new(bt_cart_hello::cart), options).expect("boots");
        engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).expect("clock")));
        if recording {
            engine.start_recording(DEFAULT_HASH_EVERY);
        }
        let name = if recording { "recording" } else { "plain" };
        group.bench_function(name, |b| b.iter(|| black_box(engine.advance(1))));
    }
    group.finish();
}

criterion_group!(benches, record_tick, hash, frames);
criterion_main!(benches);
