//! Benchmarks of the fixed-step loop and of `bt shot` end to end.

use std::hint::black_box;

use bt_runtime::engine::Origin;
use bt_runtime::export::png as capture;
use bt_runtime::{Engine, EngineOptions, FixedLoop, TickAction};
use criterion::{criterion_group, criterion_main, Criterion};

fn fixed_loop(c: &mut Criterion) {
    let mut lp = FixedLoop::new(60.0).expect("60 fps is valid");
    let deltas = [16.0, 17.0, 8.3, 33.4, 16.7];
    let mut i = 0;
    c.bench_function("fixed_loop_frame", |b| {
        b.iter(|| {
            i = (i + 1) % deltas.len();
            black_box(lp.frame(black_box(deltas[i]), |_| TickAction::Advance))
        })
    });
}

fn shot_hello_60s(c: &mut Criterion) {
    let mut engine =
        Engine::new(Box::new(bt_cart_hello::cart), EngineOptions::default()).expect("hello boots");
    let dir = std::env::temp_dir();
    let path = dir.join("bt-bench-shot.png");
    let mut group = c.benchmark_group("shot");
    group.sample_size(20);
    group.bench_function("hello_seek_60s_and_write_png", |b| {
        b.iter(|| {
            engine.render_at(60.0, Origin::Start).expect("seek");
            capture::save_png(engine.framebuffer(), engine.palette(), 1, &path).expect("png");
        })
    });
    group.finish();
    let _ = std::fs::remove_file(path);
}

criterion_group!(benches, fixed_loop, shot_hello_60s);
criterion_main!(benches);
