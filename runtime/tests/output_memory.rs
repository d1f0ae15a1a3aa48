//! The output picture (`bt shot --size output`, `bt gif --size output`, the window) of the
//! largest display a cart may have, with every display-tier effect on, takes memory a small
//! multiple of the picture itself: its tables are built a band of rows at a time past
//! `postfx::MAX_KEPT_TABLE_PIXELS`.

use bt::{Color32, Effect, Palette, Upscale};
use bt_runtime::postfx::{Frame, PostEffects, PostProcessor, MAX_KEPT_TABLE_PIXELS};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// Every effect of the display tier, strong.
fn every_effect() -> PostEffects {
    let mut fx = PostEffects::default();
    for effect in [
        Effect::Phosphor {
            color: Color32::rgb(0x33, 0xFF, 0x66),
        },
        Effect::Glow {
            threshold: 0.4,
            strength: 2.4,
            radius: 8,
        },
        Effect::Scanlines {
            amount: 0.8,
            strength: -8.0,
            density: 0.0,
        },
        Effect::Barrel { curvature: 1.0 },
        Effect::Interference { amount: 0.05 },
        Effect::Tear {
            chance: 1.0,
            shift: 9.0,
        },
        Effect::ChromaticAberration { aberration: 16.0 },
        Effect::RgbMask {
            intensity: 0.8,
            size: 3.0,
            border: 0.5,
        },
        Effect::Vignette { amount: 0.8 },
        Effect::Flicker { amount: 0.9 },
        Effect::Flutter { amount: 0.2 },
        Effect::RollLine {
            amount: 0.3,
            speed: 1.0,
        },
        Effect::Noise { amount: 0.15 },
        Effect::Bloom {
            spread: 8.0,
            glow: 0.3,
        },
    ] {
        fx.push(effect);
    }
    fx
}

#[test]
fn a_picture_too_large_to_keep_its_tables_takes_little_more_than_itself_and_the_display() {
    // 2304 x 2048 at scale 2: 18,874,368 output pixels, past the tables kept whole.
    let (dw, dh, scale) = (2304u32, 2048u32, 2u32);
    let output = u64::from(dw * scale) * u64::from(dh * scale);
    assert!(output > MAX_KEPT_TABLE_PIXELS);
    let picture: Vec<u8> = (0..dw * dh).map(|i| (i % 7 + i / dw % 9) as u8).collect();
    let (palette, effects) = (Palette::pico8(), every_effect());
    let frame = Frame {
        picture: &picture,
        with_overlay: &picture,
        display: (dw, dh),
        output: (dw * scale, dh * scale),
        filter: Upscale::Nearest,
        palette: &palette,
        effects: &effects,
        tick: 7,
        rate: 60.0,
    };
    let mut post = PostProcessor::new();
    let ((_, out), peak) = GLOBAL.peak_bytes_during(|| {
        let mut out = Vec::new();
        let size = post.render(&frame, &mut out);
        (size, out)
    });
    assert!(peak > 0, "the counting allocator is installed");
    let picture_bytes = output as i64 * 4;
    assert_eq!(out.len() as i64, picture_bytes);
    // The display tier's own planes: the colours, the picture in linear light, the bloom's
    // blur, and the blur's working planes, 28 bytes a display pixel. A band of tables is
    // 7 MiB; the tables of the whole picture would add 14 bytes an output pixel (252 MiB here).
    let display_tier = i64::from(dw * dh) * 28;
    let allowed = picture_bytes + display_tier + 16 * 1024 * 1024;
    assert!(
        peak <= allowed,
        "{} MiB at the peak; at most {} MiB",
        peak >> 20,
        allowed >> 20
    );
}

#[test]
fn parameters_animated_every_frame_allocate_nothing_even_when_the_tables_are_built_again() {
    // A curve, scanlines and a grille that change every frame rebuild the tables; a flicker
    // and a rolling band change each row's gain. None of it may allocate once the buffers
    // have their size.
    let (dw, dh) = (160u32, 120u32);
    let picture: Vec<u8> = (0..dw * dh).map(|i| (i % 13) as u8).collect();
    let palette = Palette::pico8();
    let mut effects = PostEffects::default();
    for &e in bt::crt::TV.iter().chain(bt::crt::PIPBOY) {
        effects.push(e);
    }
    let mut post = PostProcessor::new();
    let mut out = Vec::new();
    let mut frame_at = |tick: u64, effects: &PostEffects, out: &mut Vec<u8>| {
        let frame = Frame {
            picture: &picture,
            with_overlay: &picture,
            display: (dw, dh),
            output: (dw * 3, dh * 3),
            filter: Upscale::Nearest,
            palette: &palette,
            effects,
            tick,
            rate: 60.0,
        };
        post.render(&frame, out);
    };
    frame_at(0, &effects, &mut out);
    let allocations = GLOBAL.allocations_during(|| {
        for tick in 1..20u64 {
            let t = tick as f32;
            for e in effects.as_mut_slice() {
                match e {
                    Effect::Barrel { curvature } => *curvature = 0.05 + t * 0.005,
                    Effect::Scanlines { amount, .. } => *amount = 0.3 + t * 0.02,
                    Effect::RgbMask { intensity, .. } => *intensity = t * 0.01,
                    Effect::Flicker { amount } => *amount = 0.9 + t * 0.005,
                    _ => {}
                }
            }
            frame_at(tick, &effects, &mut out);
        }
    });
    assert_eq!(allocations, 0);
}
