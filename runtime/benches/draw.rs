//! Benchmarks of the drawing kit on a 320 × 240 framebuffer: clear, sprite blits of 8 × 8 and
//! 16 × 16 sprites in every flavour, lines, filled rectangles, circles, text, and the palette to
//! RGBA conversion that presenting a frame costs; the toolkit's additions (a keyed or remapped
//! sprite, a screen of map tiles, triangles, ellipses, patterns, the flood fill).
//!
//! The `limit` group measures what this machine can do at best for the same pixels: the masked
//! rows of a sprite alone (8 or 16 see-through-aware pixels a row, no clipping, no call per
//! sprite), one sprite's worth and a whole frame's worth of 50,000 sprites spread over the
//! screen, beside the same 50,000 sprites drawn through `draw_sprite`. `docs/sprites.md` gives
//! the figures.

use std::hint::black_box;

use bt::host::Framebuffer;
use bt::{
    ColorKey, MapParams, Palette, Rect, SpriteParams, SpriteSheet, Tilemap, Transform, FLIP_H,
    FLIP_V, ROT_90,
};
use criterion::{criterion_group, criterion_main, Criterion};

const W: u32 = 320;
const H: u32 = 240;

/// A 16 × 16 sheet: `see_through` puts index-0 pixels in a checker of 2 × 2 blocks.
fn sheet(see_through: bool) -> SpriteSheet {
    let px = (0..256u32)
        .map(|i| {
            let (x, y) = (i % 16, i / 16);
            if see_through && (x / 2 + y / 2) % 2 == 0 {
                0
            } else {
                1 + (i % 15) as u8
            }
        })
        .collect();
    SpriteSheet::from_indexed(16, 16, px).expect("16x16 sheet")
}

fn primitives(c: &mut Criterion) {
    let mut fb = Framebuffer::new(W, H);
    let mut g = c.benchmark_group("primitives");
    g.bench_function("clear_320x240", |b| b.iter(|| fb.clear(black_box(3))));
    g.bench_function("line_diagonal_320", |b| {
        b.iter(|| fb.draw_line((black_box(0), 0), (319, 239), 7))
    });
    g.bench_function("rect_fill_100x80", |b| {
        b.iter(|| fb.draw_rect_fill(black_box(Rect::new(40, 30, 100, 80)), 9))
    });
    g.bench_function("circle_r50", |b| {
        b.iter(|| fb.draw_circle(black_box(160), 120, 50, 11))
    });
    g.bench_function("circle_fill_r50", |b| {
        b.iter(|| fb.draw_circle_fill(black_box(160), 120, 50, 12))
    });
    g.bench_function("text_40_chars", |b| {
        b.iter(|| {
            fb.print(
                black_box(4),
                100,
                "The quick brown fox jumps over the lazy!",
                7,
            )
        })
    });
    g.finish();
}

fn sprites(c: &mut Criterion) {
    let mut fb = Framebuffer::new(W, H);
    let opaque = sheet(false);
    let holes = sheet(true);
    let plain = SpriteParams::new();
    for size in [8, 16] {
        let src = Rect::new(0, 0, size, size);
        let mut g = c.benchmark_group(format!("sprite_{size}x{size}"));
        let cases: [(&str, &SpriteSheet, SpriteParams, (i32, i32)); 7] = [
            ("opaque", &opaque, plain, (100, 100)),
            ("transparent", &holes, plain, (100, 100)),
            ("flip_h", &holes, plain.flags(FLIP_H), (100, 100)),
            (
                "flip_v_rot90",
                &holes,
                plain.flags(FLIP_V | ROT_90),
                (100, 100),
            ),
            ("clipped", &holes, plain, (316, -5)),
            (
                "palette_offset",
                &holes,
                plain.palette_offset(16),
                (100, 100),
            ),
            ("scale_2", &holes, plain.scale(2), (100, 100)),
        ];
        for (name, sheet, params, (x, y)) in cases {
            g.bench_function(name, |b| {
                b.iter(|| fb.draw_sprite(sheet, src, black_box(x), black_box(y), params))
            });
        }
        g.finish();
    }
}

/// Where the `n` sprites of a frame land: spread over the whole screen like bunnymark's, each
/// fully on it, from a fixed-seed generator so every run draws the same frame.
fn spread(n: usize, size: u32) -> Vec<(i32, i32)> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |below: u32| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(below)) as i32
    };
    (0..n)
        .map(|_| (next(W - size + 1), next(H - size + 1)))
        .collect()
}

/// The row work of a sprite and nothing else: `N` pixels where the source is not 0 replace the
/// destination's, written as fixed-size arrays the compiler turns into vector code.
#[inline(always)]
fn masked_row<const N: usize>(dst: &mut [u8; N], src: &[u8; N]) {
    // Copied in and out whole, with the select as a mask: with `if s == 0` per byte and the
    // width fixed, the compiler unrolls the row into one branch per pixel instead.
    let (s, d) = (*src, *dst);
    let mut out = [0u8; N];
    for i in 0..N {
        let keep = 0u8.wrapping_sub(u8::from(s[i] == 0));
        out[i] = (d[i] & keep) | (s[i] & !keep);
    }
    *dst = out;
}

/// [`masked_row`] over a sprite of `N × N` at `(x, y)`, already known to be on screen.
#[inline(always)]
fn masked_sprite<const N: usize>(fb: &mut [u8], sheet: &[u8], (x, y): (i32, i32)) {
    for row in 0..N {
        let d = (y as usize + row) * W as usize + x as usize;
        let dst: &mut [u8; N] = (&mut fb[d..d + N]).try_into().expect("N pixels");
        let src: &[u8; N] = sheet[row * 16..row * 16 + N].try_into().expect("N pixels");
        masked_row(dst, src);
    }
}

fn limit(c: &mut Criterion) {
    let holes = sheet(true);
    let px: Vec<u8> = (0..16 * 16)
        .map(|i| holes.get(i % 16, i / 16).unwrap_or(0))
        .collect();
    let mut fb = vec![0u8; (W * H) as usize];
    let mut g = c.benchmark_group("limit");
    g.bench_function("masked_rows_16x16", |b| {
        b.iter(|| masked_sprite::<16>(&mut fb, &px, black_box((100, 100))))
    });
    g.bench_function("masked_rows_8x8", |b| {
        b.iter(|| masked_sprite::<8>(&mut fb, &px, black_box((100, 100))))
    });
    let at = spread(50_000, 16);
    g.bench_function("masked_rows_16x16_frame_50k", |b| {
        b.iter(|| {
            for &p in &at {
                masked_sprite::<16>(&mut fb, &px, black_box(p));
            }
        })
    });
    let mut frame = Framebuffer::new(W, H);
    let src = Rect::new(0, 0, 16, 16);
    g.bench_function("draw_sprite_16x16_frame_50k", |b| {
        b.iter(|| {
            for &(x, y) in &at {
                frame.draw_sprite(&holes, src, black_box(x), y, SpriteParams::new());
            }
        })
    });
    g.finish();
}

fn present(c: &mut Criterion) {
    let mut fb = Framebuffer::new(W, H);
    for y in 0..H as i32 {
        fb.draw_line((0, y), (W as i32 - 1, y), (y % 16) as u8);
    }
    let palette = Palette::pico8();
    let mut rgba = vec![0u8; (W * H * 4) as usize];
    c.bench_function("palette_to_rgba_320x240", |b| {
        b.iter(|| palette.write_rgba(black_box(fb.pixels()), &mut rgba))
    });
}

fn toolkit(c: &mut Criterion) {
    let mut fb = Framebuffer::new(W, H);
    let holes = sheet(true);
    let src = Rect::new(0, 0, 16, 16);
    let mut g = c.benchmark_group("toolkit");
    let keyed = SpriteParams::new().key(ColorKey::single(3));
    g.bench_function("sprite_16x16_key", |b| {
        b.iter(|| fb.draw_sprite(&holes, src, black_box(100), black_box(100), keyed))
    });
    fb.set_remap(5, 9);
    g.bench_function("sprite_16x16_remapped", |b| {
        b.iter(|| {
            fb.draw_sprite(
                &holes,
                src,
                black_box(100),
                black_box(100),
                SpriteParams::new(),
            )
        })
    });
    fb.reset_remap();
    // A 320 × 240 screen of 8 × 8 tiles (40 × 30 of a 256 × 256 map, scrolled part way).
    let tiles = holes.clone().with_tile_size(8, 8);
    let mut map = Tilemap::new(256, 256, (8, 8)).expect("map");
    for y in 0..256 {
        for x in 0..256 {
            map.set_tile(0, x, y, Some(((x + y) % 4) as u16));
        }
    }
    g.bench_function("map_screen_8x8", |b| {
        b.iter(|| {
            fb.draw_map(
                &map,
                &tiles,
                black_box(-803),
                black_box(-1203),
                MapParams::new(),
            )
        })
    });
    g.bench_function("triangle_fill_100", |b| {
        b.iter(|| fb.draw_triangle_fill(black_box((60, 20)), (160, 120), (20, 100), 9))
    });
    g.bench_function("ellipse_fill_100x60", |b| {
        b.iter(|| fb.draw_ellipse_fill(black_box(Rect::new(100, 80, 100, 60)), 10))
    });
    fb.set_fill_pattern(bt::FillPattern::new(0x5a5a), None);
    g.bench_function("rect_fill_100x80_pattern", |b| {
        b.iter(|| fb.draw_rect_fill(black_box(Rect::new(40, 30, 100, 80)), 9))
    });
    fb.reset_fill_pattern();
    g.bench_function("flood_fill_320x240", |b| {
        b.iter(|| {
            fb.clear(0);
            fb.flood_fill(black_box(5), 5, 4)
        })
    });
    g.finish();
}

/// Sprites off the whole-pixel grid: a 16 × 16 sprite stretched to 48 × 40, turned by 30° at
/// scale 2, and a mode-7 floor (120 rows of 320-pixel spans walking a 16 × 16 texture).
fn transforms(c: &mut Criterion) {
    let mut fb = Framebuffer::new(W, H);
    let holes = sheet(true);
    let src = Rect::new(0, 0, 16, 16);
    let p = SpriteParams::new();
    let mut g = c.benchmark_group("transform");
    g.bench_function("stretch_16x16_to_48x40", |b| {
        b.iter(|| fb.draw_sprite_stretched(&holes, src, black_box(Rect::new(100, 90, 48, 40)), p))
    });
    let turn = Transform::new()
        .angle(std::f64::consts::PI / 6.0)
        .scale(2.0);
    g.bench_function("rotate_16x16_30deg_x2", |b| {
        b.iter(|| fb.draw_sprite_transformed(&holes, src, black_box(160), 120, turn, p))
    });
    g.bench_function("rotate_16x16_30deg_x2_50_sprites", |b| {
        b.iter(|| {
            for i in 0..50 {
                let t = turn.angle(f64::from(i) * 0.1);
                fb.draw_sprite_transformed(&holes, src, black_box(i * 6), 120, t, p);
            }
        })
    });
    g.bench_function("mode7_floor_320x120", |b| {
        b.iter(|| {
            for y in 120..240 {
                let z = 4000.0 / f64::from(y - 100);
                let start = (black_box(37.5) - z * 0.8, z);
                fb.draw_span(&holes, src, 0, y, 320, start, (z / 200.0, 0.0), p);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, primitives, sprites, limit, present, toolkit, transforms);
criterion_main!(benches);
