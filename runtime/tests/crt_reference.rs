//! BT's CRT stack judged against a reference: the maths of crt-lottes (Timothy Lottes's
//! public-domain CRT shader, in the libretro shader collection), reproduced here on the CPU in
//! plain `f64`, run on the same frame.
//!
//! The reference samples the picture at the continuous point its curve gives, blurs each line
//! with a gaussian across the pixels (`hardPix` -3), weighs the three nearest lines with a
//! gaussian of their distance (`hardScan` -8), multiplies an aperture grille (1.5 on a stripe's
//! own channel, 0.5 on the others) and works in linear light. BT's stack is set to its nearest
//! look: scanlines bent with the glass, a curve, a grille. The tests hold the two together
//! where they should agree (no seams on flat colour, the same light on average, a picture
//! close to the reference's) and docs/effects.md shows the pictures and the figures.
//!
//! `BT_WRITE_PICTURES=DIR` writes both pictures of the scene as PNG files into `DIR`, and
//! `crt-lottes-and-bt.png` there: the top-left corners of the curved pictures side by side
//! (the reference on the left), doubled, as docs/effects.md shows them.

use bt::host::PostEffects;
use bt::{Effect, Palette, Upscale};
use bt_runtime::postfx::{Frame, PostProcessor};

const DW: usize = 160;
const DH: usize = 120;
const SCALE: usize = 4;
const OW: usize = DW * SCALE;
const OH: usize = DH * SCALE;

/// crt-lottes's curve: in -1..1 coordinates, x stretched by 1 + y²/32 and y by 1 + x²/24.
fn lottes_warp(x: f64, y: f64) -> (f64, f64) {
    let (u, v) = (x * 2.0 - 1.0, y * 2.0 - 1.0);
    let (u, v) = (u * (1.0 + v * v / 32.0), v * (1.0 + u * u / 24.0));
    (u * 0.5 + 0.5, v * 0.5 + 0.5)
}

fn to_linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(l: f64) -> u8 {
    let l = l.clamp(0.0, 1.0);
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round() as u8
}

/// The reference picture (RGB) of `picture` (display indices), at `OW × OH`.
fn lottes(picture: &[u8], palette: &Palette, curved: bool) -> Vec<[u8; 3]> {
    let lin: Vec<[f64; 3]> = picture
        .iter()
        .map(|&i| {
            let c = palette.colors()[usize::from(i)];
            [to_linear(c.r), to_linear(c.g), to_linear(c.b)]
        })
        .collect();
    let fetch = |px: f64, py: f64, dx: f64, dy: f64| -> [f64; 3] {
        let (x, y) = ((px * DW as f64 + dx).floor(), (py * DH as f64 + dy).floor());
        if x < 0.0 || y < 0.0 || x >= DW as f64 || y >= DH as f64 {
            return [0.0; 3];
        }
        lin[y as usize * DW + x as usize]
    };
    let gaus = |d: f64, scale: f64| (scale * d * d).exp2();
    let mut out = Vec::with_capacity(OW * OH);
    for oy in 0..OH {
        for ox in 0..OW {
            let (x, y) = ((ox as f64 + 0.5) / OW as f64, (oy as f64 + 0.5) / OH as f64);
            let (x, y) = if curved { lottes_warp(x, y) } else { (x, y) };
            let dist_x = -((x * DW as f64).fract() - 0.5);
            let dist_y = -((y * DH as f64).fract() - 0.5);
            let mut sum = [0.0; 3];
            for line in -1i32..=1 {
                let reach = if line == 0 { 2 } else { 1 };
                let mut row = [0.0; 3];
                let mut weights = 0.0;
                for tap in -reach..=reach {
                    let w = gaus(dist_x + f64::from(tap), -3.0);
                    let c = fetch(x, y, f64::from(tap), f64::from(line));
                    for k in 0..3 {
                        row[k] += c[k] * w;
                    }
                    weights += w;
                }
                let scan = gaus(dist_y + f64::from(line), -8.0);
                for k in 0..3 {
                    sum[k] += row[k] / weights * scan;
                }
            }
            // The aperture grille, one output column a stripe.
            let stripe = ox % 3;
            let px = std::array::from_fn(|k| {
                let m = if k == stripe { 1.5 } else { 0.5 };
                to_srgb(sum[k] * m)
            });
            out.push(px);
        }
    }
    out
}

/// BT's stack at its nearest to the reference.
fn bt_stack(curved: bool) -> PostEffects {
    let mut fx = PostEffects::default();
    fx.push(Effect::Scanlines {
        amount: 1.0,
        strength: -8.0,
        density: 0.0,
    });
    if curved {
        fx.push(Effect::Barrel { curvature: 0.18 });
    }
    fx.push(Effect::RgbMask {
        intensity: 0.5,
        size: 3.0,
        border: 0.0,
    });
    fx
}

fn bt(picture: &[u8], palette: &Palette, curved: bool) -> Vec<[u8; 3]> {
    let fx = bt_stack(curved);
    let frame = Frame {
        picture,
        with_overlay: picture,
        display: (DW as u32, DH as u32),
        output: (OW as u32, OH as u32),
        filter: Upscale::Nearest,
        palette,
        effects: &fx,
        tick: 0,
        rate: 60.0,
    };
    let mut out = Vec::new();
    PostProcessor::new().render(&frame, &mut out);
    out.chunks(4).map(|p| [p[0], p[1], p[2]]).collect()
}

/// A scene with flat fields, hard edges, thin lines and a circle: what a cart draws.
fn scene() -> Vec<u8> {
    let mut p = vec![1u8; DW * DH];
    for y in 0..DH {
        for x in 0..DW {
            let (cx, cy) = (x as i32 - 110, y as i32 - 40);
            p[y * DW + x] = if cx * cx + cy * cy < 400 {
                10
            } else if y > 80 {
                if (x / 10 + y / 10) % 2 == 0 {
                    3
                } else {
                    11
                }
            } else if x % 16 == 0 || y % 16 == 0 {
                7
            } else if x < 60 && y > 20 && y < 60 {
                8
            } else {
                1
            };
        }
    }
    p
}

/// Peak signal to noise in dB between two pictures.
fn psnr(a: &[[u8; 3]], b: &[[u8; 3]]) -> f64 {
    let mut sum = 0.0;
    for (p, q) in a.iter().zip(b) {
        for k in 0..3 {
            let d = f64::from(p[k]) - f64::from(q[k]);
            sum += d * d;
        }
    }
    let mse = sum / (a.len() * 3) as f64;
    10.0 * (255.0 * 255.0 / mse).log10()
}

fn mean(a: &[[u8; 3]]) -> f64 {
    a.iter()
        .map(|p| p.iter().map(|&c| f64::from(c)).sum::<f64>())
        .sum::<f64>()
        / (a.len() * 3) as f64
}

/// The largest change between pixels one grille period (3) apart along a row, against the
/// scanlines' swing down the middle column, over the middle three quarters of the picture.
fn seam_ratio(out: &[[u8; 3]]) -> f64 {
    let level = |x: usize, y: usize| -> i32 { out[y * OW + x].iter().map(|&c| i32::from(c)).sum() };
    let column: Vec<i32> = (OH / 2 - 8..OH / 2 + 8).map(|y| level(OW / 2, y)).collect();
    let swing = column.iter().max().unwrap() - column.iter().min().unwrap();
    assert!(swing > 20, "the scanlines show");
    let mut step = 0;
    for y in OH / 8..OH * 7 / 8 {
        for x in OW / 8..OW * 7 / 8 - 3 {
            step = step.max((level(x + 3, y) - level(x, y)).abs());
        }
    }
    f64::from(step) / f64::from(swing)
}

#[test]
fn flat_colour_is_as_seamless_under_bts_curve_as_under_the_reference() {
    let palette = Palette::pico8();
    let flat = vec![6u8; DW * DH];
    let (reference, ours) = (
        seam_ratio(&lottes(&flat, &palette, true)),
        seam_ratio(&bt(&flat, &palette, true)),
    );
    println!("seam ratio: crt-lottes {reference:.3}, BT {ours:.3}");
    assert!(reference < 0.2, "the reference itself: {reference:.3}");
    assert!(ours < 0.2, "BT: {ours:.3}");
}

#[test]
fn bts_picture_stays_close_to_the_reference_on_a_real_scene() {
    let palette = Palette::pico8();
    let picture = scene();
    for curved in [false, true] {
        let (reference, ours) = (
            lottes(&picture, &palette, curved),
            bt(&picture, &palette, curved),
        );
        let db = psnr(&reference, &ours);
        let (m_ref, m_bt) = (mean(&reference), mean(&ours));
        println!(
            "curved {curved}: PSNR {db:.1} dB, mean level crt-lottes {m_ref:.1}, BT {m_bt:.1}"
        );
        if let Some(dir) = std::env::var_os("BT_WRITE_PICTURES") {
            let save = |name: &str, px: &[[u8; 3]]| {
                let flat: Vec<u8> = px.iter().flatten().copied().collect();
                let path = std::path::Path::new(&dir).join(name);
                image::save_buffer(&path, &flat, OW as u32, OH as u32, image::ColorType::Rgb8)
                    .unwrap();
            };
            let tag = if curved { "curved" } else { "flat" };
            save(&format!("crt-lottes-{tag}.png"), &reference);
            save(&format!("crt-bt-{tag}.png"), &ours);
            if curved {
                let (cw, ch) = (200, 150);
                let mut both = Vec::with_capacity(cw * 4 * ch * 2 * 3);
                for y in 0..ch * 2 {
                    for px in [&reference, &ours] {
                        for x in 0..cw * 2 {
                            both.extend_from_slice(&px[(y / 2) * OW + x / 2]);
                        }
                    }
                }
                let path = std::path::Path::new(&dir).join("crt-lottes-and-bt.png");
                image::save_buffer(
                    &path,
                    &both,
                    (cw * 4) as u32,
                    (ch * 2) as u32,
                    image::ColorType::Rgb8,
                )
                .unwrap();
            }
        }
        // Both keep most of the light: BT's grille keeps the mean, the reference's takes a
        // sixth of it, and the reference's lines overlap where BT's leave darker gaps.
        assert!(
            (m_bt / m_ref - 1.0).abs() < 0.35,
            "means {m_bt:.1} and {m_ref:.1}"
        );
        assert!(db > 14.0, "{db:.1} dB apart");
    }
}
