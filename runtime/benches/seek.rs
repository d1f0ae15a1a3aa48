//! What a seek costs once snapshots are kept: bunnymark (1,000 bunnies) sought to a random
//! update of a 10-minute run, first on a freshly booted engine (a replay from boot), then again
//! and again on one whose snapshot ring covers the run, and seeking one second back from
//! random places in it. Figures are in docs/time-travel.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bt::Rng;
use bt_runtime::engine::Origin;
use bt_runtime::{Engine, EngineOptions};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

/// Ten minutes at 60 updates a second.
const RUN: u64 = 36_000;

fn bunnymark() -> Engine {
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    Engine::new(Box::new(bt_cart_bunnymark::cart), options).expect("bunnymark boots")
}

fn random_tick(rng: &mut Rng, below: u64) -> u64 {
    rng.int_range(0, below as i32 - 1) as u64
}

fn seek(c: &mut Criterion) {
    let mut group = c.benchmark_group("seek_bunnymark_10min");
    group.sample_size(10);
    let mut rng = Rng::new(1);
    group.bench_function("random_first", |b| {
        b.iter_batched(
            bunnymark,
            |mut e| {
                let tick = random_tick(&mut rng, RUN);
                e.render_at_tick(tick, Origin::Start, |_, _| {})
                    .expect("seek");
                black_box(e.framebuffer().pixels()[0]);
                e
            },
            BatchSize::PerIteration,
        )
    });
    let mut e = bunnymark();
    e.render_at_tick(RUN, Origin::Start, |_, _| {})
        .expect("seek");
    let kept = e.snapshots();
    eprintln!(
        "after a seek to {RUN}: {} snapshots, every {} updates, {} KiB",
        kept.count,
        kept.every,
        kept.bytes / 1024
    );
    group.sample_size(50);
    group.bench_function("random_repeated", |b| {
        b.iter(|| {
            let tick = random_tick(&mut rng, RUN);
            e.render_at_tick(tick, Origin::Start, |_, _| {})
                .expect("seek");
            black_box(e.framebuffer().pixels()[0]);
        })
    });
    group.bench_function("one_second_back", |b| {
        // Only the seek back is timed; the seek to where it starts is not.
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                let from = random_tick(&mut rng, RUN - 60) + 60;
                e.render_at_tick(from, Origin::Start, |_, _| {})
                    .expect("seek");
                let started = Instant::now();
                e.render_at_tick(from - 60, Origin::Current, |_, _| {})
                    .expect("seek back");
                black_box(e.framebuffer().pixels()[0]);
                timed += started.elapsed();
            }
            timed
        })
    });
    group.finish();
}

criterion_group!(benches, seek);
criterion_main!(benches);
