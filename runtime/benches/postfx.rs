//! Benchmarks of the post-process stack's display tier: one 320 × 240 frame to its 1280 × 960
//! output picture (the window's job each frame), with no effect (plain scaling) and each
//! preset, over a still picture (rows whose part of the picture did not change keep their
//! shading; the noise and the moving effects are new every frame) and over a picture that
//! changes everywhere every frame (every row shaded); the PipBoy preset with the overlay over
//! it, and a curve the cart changes every frame (the tables built anew each time).
//! `docs/effects.md` gives the figures.

use std::hint::black_box;

use bt::host::PostEffects;
use bt::{Effect, Palette, Upscale};
use bt_runtime::postfx::{Frame, PostProcessor};
use criterion::{criterion_group, criterion_main, Criterion};

const W: u32 = 320;
const H: u32 = 240;
const SCALE: u32 = 4;

/// A busy picture: bands of every colour, and a diagonal of white text-like marks.
fn picture() -> Vec<u8> {
    (0..W * H)
        .map(|i| {
            let (x, y) = (i % W, i / W);
            if (x + y) % 17 == 0 {
                7
            } else {
                ((x / 20 + y / 30) % 16) as u8
            }
        })
        .collect()
}

fn stack(effects: &[Effect]) -> PostEffects {
    let mut fx = PostEffects::default();
    for &e in effects {
        fx.push(e);
    }
    fx
}

fn display_tier(c: &mut Criterion) {
    let palette = Palette::pico8();
    let pixels = picture();
    let mut with_overlay = pixels.clone();
    for p in &mut with_overlay[..W as usize * 14] {
        *p = 1;
    }
    let mut group = c.benchmark_group("postfx_320x240_to_1280x960");
    // The same picture one pixel along: every row differs from the last frame's.
    let moved: Vec<u8> = pixels.iter().skip(1).chain(&pixels[..1]).copied().collect();
    for (name, effects) in [
        ("none", &[][..]),
        ("tv", bt::crt::TV),
        ("green", bt::crt::GREEN),
        ("amber", bt::crt::AMBER),
        ("pipboy", bt::crt::PIPBOY),
        ("green_phosphor", bt::crt::GREEN_PHOSPHOR),
        ("wrist_terminal", bt::crt::WRIST_TERMINAL),
    ] {
        let fx = stack(effects);
        for moving in [false, true] {
            let mut post = PostProcessor::new();
            let mut out = Vec::new();
            let mut tick = 0;
            let label = format!("{name}_{}", if moving { "moving" } else { "still" });
            group.bench_function(label, |b| {
                b.iter(|| {
                    tick += 1;
                    let picture = if moving && tick % 2 == 1 {
                        &moved
                    } else {
                        &pixels
                    };
                    let frame = Frame {
                        picture,
                        with_overlay: picture,
                        display: (W, H),
                        output: (W * SCALE, H * SCALE),
                        filter: Upscale::Nearest,
                        palette: &palette,
                        effects: &fx,
                        tick,
                        rate: 60.0,
                    };
                    black_box(post.render(&frame, &mut out));
                })
            });
        }
    }
    let fx = stack(bt::crt::PIPBOY);
    let mut post = PostProcessor::new();
    let mut out = Vec::new();
    let mut tick = 0;
    group.bench_function("pipboy_with_overlay", |b| {
        b.iter(|| {
            tick += 1;
            let frame = Frame {
                picture: &pixels,
                with_overlay: &with_overlay,
                display: (W, H),
                output: (W * SCALE, H * SCALE),
                filter: Upscale::Nearest,
                palette: &palette,
                effects: &fx,
                tick,
                rate: 60.0,
            };
            black_box(post.render(&frame, &mut out));
        })
    });
    let mut fx = stack(bt::crt::TV);
    let mut post = PostProcessor::new();
    let mut out = Vec::new();
    let mut tick = 0;
    group.bench_function("tv_curve_changing_every_frame", |b| {
        b.iter(|| {
            tick += 1;
            for e in fx.as_mut_slice() {
                if let Effect::Barrel { curvature } = e {
                    *curvature = 0.1 + (tick % 10) as f32 * 0.001;
                }
            }
            let frame = Frame {
                picture: &pixels,
                with_overlay: &pixels,
                display: (W, H),
                output: (W * SCALE, H * SCALE),
                filter: Upscale::Nearest,
                palette: &palette,
                effects: &fx,
                tick,
                rate: 60.0,
            };
            black_box(post.render(&frame, &mut out));
        })
    });
    group.finish();
}

criterion_group!(benches, display_tier);
criterion_main!(benches);
