//! The free transforms against their rules, one pixel at a time, on random draws from a fixed
//! seed: every case is the same on every run and every machine.

use super::*;
use crate::{ColorKey, Rng};

/// What stored index `s` does to a screen pixel under `params` and the pen, written out:
/// see-through when the key holds it, else the offset index through the remap.
fn blend_rule(fb: &mut Framebuffer, at: usize, sheet: &SpriteSheet, s: u8, params: SpriteParams) {
    let key = params.key.unwrap_or(sheet.key);
    if !key.contains(s) {
        fb.pixels[at] = fb.pen.remap[usize::from(s.saturating_add(params.palette_offset))];
    }
}

/// The stored index of picture pixel `(u, v)` of `src` under `flags`, or `None` off the
/// picture or off the sheet.
fn picture_pixel(sheet: &SpriteSheet, src: Rect, flags: u8, u: i64, v: i64) -> Option<u8> {
    let o = Orientation::new(flags & ORIENT, src.w.into(), src.h.into());
    if u < 0 || v < 0 || u >= o.size.0 || v >= o.size.1 {
        return None;
    }
    let (lx, ly) = o.inverse(u, v);
    let (sx, sy) = (i64::from(src.x) + lx, i64::from(src.y) + ly);
    let (sw, sh) = (i64::from(sheet.width), i64::from(sheet.height));
    ((0..sw).contains(&sx) && (0..sh).contains(&sy)).then(|| sheet.pixels[(sy * sw + sx) as usize])
}

fn stretch_per_pixel(
    fb: &mut Framebuffer,
    sheet: &SpriteSheet,
    src: Rect,
    dst: Rect,
    p: SpriteParams,
) {
    if src.w <= 0 || src.h <= 0 || dst.w <= 0 || dst.h <= 0 {
        return;
    }
    let o = Orientation::new(p.flags & ORIENT, src.w.into(), src.h.into());
    let c = fb.clip;
    for y in c.y0..c.y1 {
        for x in c.x0..c.x1 {
            let (k, l) = (x - i64::from(dst.x), y - i64::from(dst.y));
            if k < 0 || l < 0 || k >= dst.w.into() || l >= dst.h.into() {
                continue;
            }
            let sample = |k: i64, n: i64, d: i64| ((2 * k + 1) * n - 1).div_euclid(2 * d);
            let u = sample(k, o.size.0, dst.w.into());
            let v = sample(l, o.size.1, dst.h.into());
            if let Some(s) = picture_pixel(sheet, src, p.flags, u, v) {
                let at = (y * i64::from(fb.width) + x) as usize;
                blend_rule(fb, at, sheet, s, p);
            }
        }
    }
}

fn turned_per_pixel(
    fb: &mut Framebuffer,
    sheet: &SpriteSheet,
    src: Rect,
    (x, y): (i64, i64),
    t: Transform,
    p: SpriteParams,
) {
    if src.w <= 0 || src.h <= 0 {
        return;
    }
    let o = Orientation::new(p.flags & ORIENT, src.w.into(), src.h.into());
    let Some(map) = t.fixed(o.size) else {
        return;
    };
    let m = map.m.map(|r| r.map(i128::from));
    let c = fb.clip;
    for py in c.y0..c.y1 {
        for px in c.x0..c.x1 {
            // The pixel's centre from the pivot's pixel, in halves.
            let (dx, dy) = (2 * i128::from(px - x) + 1, 2 * i128::from(py - y) + 1);
            let u2 = 2 * i128::from(map.pivot.0) + m[0][0] * dx + m[0][1] * dy;
            let v2 = 2 * i128::from(map.pivot.1) + m[1][0] * dx + m[1][1] * dy;
            let (u, v) = (u2 >> (FRAC + 1), v2 >> (FRAC + 1));
            if let Some(s) = picture_pixel(sheet, src, p.flags, u as i64, v as i64) {
                let at = (py * i64::from(fb.width) + px) as usize;
                blend_rule(fb, at, sheet, s, p);
            }
        }
    }
}

#[allow(clippy::too_many_arguments, reason = "the span's own arguments")]
fn span_per_pixel(
    fb: &mut Framebuffer,
    sheet: &SpriteSheet,
    src: Rect,
    (x, y, len): (i64, i64, i64),
    start: (f64, f64),
    step: (f64, f64),
    p: SpriteParams,
) {
    let Some(walk) = Span::new(src, start, step) else {
        return;
    };
    let c = fb.clip;
    if y < c.y0 || y >= c.y1 {
        return;
    }
    for k in 0..len {
        let sx = x + k;
        if sx < c.x0 || sx >= c.x1 {
            continue;
        }
        let at = |s: i64, d: i64, size: i32| {
            let pos = i128::from(s) + i128::from(k) * i128::from(d);
            (pos >> SPAN_FRAC).rem_euclid(i128::from(size)) as i64
        };
        let u = at(walk.start.0, walk.step.0, src.w);
        let v = at(walk.start.1, walk.step.1, src.h);
        if let Some(s) = picture_pixel(sheet, src, 0, u, v) {
            let i = (y * i64::from(fb.width) + sx) as usize;
            blend_rule(fb, i, sheet, s, p);
        }
    }
}

/// A sheet of `w × h` with about a third of its pixels 0.
fn random_sheet(rng: &mut Rng) -> SpriteSheet {
    let (w, h) = (rng.int_range(1, 24) as u32, rng.int_range(1, 24) as u32);
    let px = (0..w * h)
        .map(|_| {
            if rng.int(3) == 0 {
                0
            } else {
                rng.int(256) as u8
            }
        })
        .collect();
    SpriteSheet::from_indexed(w, h, px).unwrap()
}

fn random_src(rng: &mut Rng, sheet: &SpriteSheet) -> Rect {
    let (w, h) = (sheet.width as i32, sheet.height as i32);
    Rect::new(
        rng.int_range(-3, w),
        rng.int_range(-3, h),
        rng.int_range(-1, w + 4).max(rng.int_range(-1, 3)),
        rng.int_range(-1, h + 4).max(rng.int_range(-1, 3)),
    )
}

/// Random draw settings: flags, offsets that do and do not saturate, sometimes another key.
fn random_params(rng: &mut Rng) -> SpriteParams {
    let offset = *rng.pick(&[0u8, 0, 1, 16, 200, 255]).unwrap();
    let mut p = SpriteParams::new()
        .flags(rng.int(32) as u8)
        .palette_offset(offset);
    if rng.int(4) == 0 {
        p = p.key(ColorKey::single(rng.int(256) as u8).with(0));
    }
    p
}

/// A framebuffer with a random background, half the time a random clip, sometimes remapped.
fn random_screen(rng: &mut Rng) -> Framebuffer {
    let mut fb = Framebuffer::new(40, 32);
    fb.clear(rng.int(4) as u8 + 1);
    if rng.bool() {
        return fb;
    }
    fb.set_clip(Rect::new(
        rng.int_range(-4, 36),
        rng.int_range(-4, 28),
        rng.int_range(0, 48),
        rng.int_range(0, 40),
    ));
    if rng.int(4) == 0 {
        fb.set_remap(rng.int(256) as u8, rng.int(256) as u8);
    }
    fb
}

#[test]
fn stretched_sprites_draw_what_the_per_pixel_rule_draws() {
    let mut rng = Rng::new(0x5757);
    let mut drew = 0;
    for case in 0..4000 {
        let sheet = random_sheet(&mut rng);
        let src = random_src(&mut rng, &sheet);
        // Squeezed and stretched, small and past the chunk of gathered pixels.
        let side = |rng: &mut Rng| {
            if rng.int(8) == 0 {
                rng.int_range(250, 300)
            } else {
                rng.int_range(-2, 50)
            }
        };
        let dst = Rect::new(
            rng.int_range(-30, 40),
            rng.int_range(-30, 32),
            side(&mut rng),
            side(&mut rng),
        );
        let p = random_params(&mut rng);
        let mut fb = random_screen(&mut rng);
        let before = fb.clone();
        let mut want = fb.clone();
        fb.draw_sprite_stretched(&sheet, src, dst, p);
        stretch_per_pixel(&mut want, &sheet, src, dst, p);
        drew += usize::from(fb != before);
        assert_eq!(
            fb.pixels(),
            want.pixels(),
            "case {case}: {src:?} to {dst:?}, {p:?}"
        );
    }
    assert!(drew > 500, "only {drew} cases drew anything");
}

#[test]
fn turned_and_scaled_sprites_draw_what_the_per_pixel_rule_draws() {
    let mut rng = Rng::new(0x7077);
    let mut drew = 0;
    for case in 0..3000 {
        let sheet = random_sheet(&mut rng);
        let src = random_src(&mut rng, &sheet);
        let mut t = Transform::new().angle(rng.angle() * 2.0 - 7.0);
        t = match rng.int(5) {
            // Very uneven scales, whose inverse is far from round.
            4 => t.scale_xy(rng.float_range(0.0002, 0.01), rng.float_range(50.0, 900.0)),
            0 => t.scale(1.0),
            1 => t.scale(rng.float_range(0.1, 4.0)),
            2 => t.scale_xy(rng.float_range(-3.0, 3.0), rng.float_range(-3.0, 3.0)),
            _ => t.scale(rng.float_range(8.0, 40.0)),
        };
        if rng.bool() {
            t = t.pivot(rng.float_range(-10.0, 30.0), rng.float_range(-10.0, 30.0));
        }
        let at = (
            i64::from(rng.int_range(-8, 48)),
            i64::from(rng.int_range(-8, 40)),
        );
        let p = random_params(&mut rng);
        let mut fb = random_screen(&mut rng);
        let before = fb.clone();
        let mut want = fb.clone();
        fb.transformed_wide(&sheet, src, at, t, p);
        turned_per_pixel(&mut want, &sheet, src, at, t, p);
        drew += usize::from(fb != before);
        assert_eq!(
            fb.pixels(),
            want.pixels(),
            "case {case}: {src:?} at {at:?}, {t:?}, {p:?}"
        );
    }
    assert!(drew > 500, "only {drew} cases drew anything");
}

#[test]
fn spans_draw_what_the_per_pixel_rule_draws() {
    let mut rng = Rng::new(0x7713);
    let mut drew = 0;
    for case in 0..4000 {
        let sheet = random_sheet(&mut rng);
        let src = random_src(&mut rng, &sheet);
        let (x, y) = (rng.int_range(-40, 50), rng.int_range(-2, 34));
        let len = if rng.int(8) == 0 {
            300
        } else {
            rng.int_range(-2, 60)
        };
        let mut f = |lo: f64, hi: f64| rng.float_range(lo, hi);
        let start = (f(-500.0, 500.0), f(-500.0, 500.0));
        let step = (f(-3.0, 3.0), f(-3.0, 3.0));
        let p = random_params(&mut rng);
        let mut fb = random_screen(&mut rng);
        let before = fb.clone();
        let mut want = fb.clone();
        fb.draw_span(&sheet, src, x, y, len, start, step, p);
        span_per_pixel(
            &mut want,
            &sheet,
            src,
            (x.into(), y.into(), len.into()),
            start,
            step,
            p,
        );
        drew += usize::from(fb != before);
        assert_eq!(
            fb.pixels(),
            want.pixels(),
            "case {case}: {src:?} at ({x}, {y}) len {len}, {start:?} + {step:?}, {p:?}"
        );
    }
    assert!(drew > 500, "only {drew} cases drew anything");
}

#[test]
fn an_unturned_unscaled_transform_is_draw_sprite_with_its_pivot_on_the_point() {
    let px = (0..15 * 9).map(|i| (i % 7) as u8).collect();
    let sheet = SpriteSheet::from_indexed(15, 9, px).unwrap();
    for flags in 0..32 {
        let p = SpriteParams::new().flags(flags).palette_offset(3);
        let src = Rect::new(2, 1, 11, 7);
        let mut plain = Framebuffer::new(30, 30);
        plain.draw_sprite(&sheet, src, 4, 6, p);
        let mut free = Framebuffer::new(30, 30);
        let pivot = Transform::new().pivot(0.0, 0.0);
        free.draw_sprite_transformed(&sheet, src, 4, 6, pivot, p);
        assert_eq!(plain, free, "flags {flags}");
        let mut stretched = Framebuffer::new(30, 30);
        let size = Orientation::new(flags & ORIENT, 11, 7).size;
        let dst = Rect::new(4, 6, size.0 as i32, size.1 as i32);
        stretched.draw_sprite_stretched(&sheet, src, dst, p);
        assert_eq!(plain, stretched, "flags {flags}");
    }
}

#[test]
fn whole_scales_match_the_blitters_scale_and_quarter_turns_its_flags() {
    let px = (0..16 * 16).map(|i| (i % 11) as u8).collect();
    let sheet = SpriteSheet::from_indexed(16, 16, px).unwrap();
    let src = Rect::new(0, 0, 16, 16);
    for scale in 1..=4 {
        let mut plain = Framebuffer::new(80, 80);
        plain.draw_sprite(&sheet, src, 8, 8, SpriteParams::new().scale(scale));
        let mut free = Framebuffer::new(80, 80);
        let t = Transform::new().scale(scale.into()).pivot(0.0, 0.0);
        free.draw_sprite_transformed(&sheet, src, 8, 8, t, SpriteParams::new());
        assert_eq!(plain, free, "scale {scale}");
        let mut stretched = Framebuffer::new(80, 80);
        let side = 16 * scale as i32;
        let dst = Rect::new(8, 8, side, side);
        stretched.draw_sprite_stretched(&sheet, src, dst, SpriteParams::new());
        assert_eq!(plain, stretched, "scale {scale}");
    }
    for (turns, flag) in [
        (1.0, crate::ROT_90),
        (2.0, crate::ROT_180),
        (3.0, crate::ROT_270),
    ] {
        let mut plain = Framebuffer::new(40, 40);
        plain.draw_sprite(&sheet, src, 10, 10, SpriteParams::new().flags(flag));
        let mut free = Framebuffer::new(40, 40);
        let t = Transform::new().angle(turns * std::f64::consts::FRAC_PI_2);
        free.draw_sprite_transformed(&sheet, src, 18, 18, t, SpriteParams::new());
        assert_eq!(plain, free, "{turns} quarter turns");
    }
}

#[test]
fn the_params_scale_multiplies_the_transforms_and_zero_draws_nothing() {
    let px = (0..16 * 16).map(|i| (i % 11) as u8).collect();
    let sheet = SpriteSheet::from_indexed(16, 16, px).unwrap();
    let src = Rect::new(0, 0, 16, 16);
    for angle in [0.0, 0.7, -2.5] {
        let t = Transform::new().angle(angle).scale_xy(1.5, -0.75);
        for scale in 0..=3u32 {
            let mut by_params = Framebuffer::new(96, 96);
            let params = SpriteParams::new().scale(scale).flags(crate::FLIP_H);
            by_params.draw_sprite_transformed(&sheet, src, 48, 48, t, params);
            let k = f64::from(scale);
            let mut by_transform = Framebuffer::new(96, 96);
            let bigger = t.scale_xy(1.5 * k, -0.75 * k);
            let flipped = SpriteParams::new().flags(crate::FLIP_H);
            by_transform.draw_sprite_transformed(&sheet, src, 48, 48, bigger, flipped);
            assert_eq!(by_params, by_transform, "angle {angle}, scale {scale}");
            let drew = by_params.pixels().iter().any(|&p| p != 0);
            assert_eq!(drew, scale > 0, "angle {angle}, scale {scale}");
        }
    }
}

#[test]
fn bad_transforms_and_spans_draw_nothing() {
    let sheet = SpriteSheet::from_indexed(2, 2, vec![1; 4]).unwrap();
    let src = Rect::new(0, 0, 2, 2);
    let mut fb = Framebuffer::new(8, 8);
    for t in [
        Transform::new().angle(f64::NAN),
        Transform::new().angle(f64::INFINITY),
        Transform::new().scale(0.0),
        Transform::new().scale(1e-9),
        Transform::new().scale_xy(1.0, f64::NAN),
        Transform::new().pivot(f64::INFINITY, 0.0),
        Transform::new().pivot(1e12, 0.0),
    ] {
        fb.draw_sprite_transformed(&sheet, src, 4, 4, t, SpriteParams::new());
    }
    for (start, step) in [
        ((f64::NAN, 0.0), (1.0, 0.0)),
        ((0.0, 0.0), (f64::INFINITY, 0.0)),
        ((1e12, 0.0), (1.0, 0.0)),
    ] {
        fb.draw_span(&sheet, src, 0, 0, 8, start, step, SpriteParams::new());
    }
    fb.draw_span(
        &sheet,
        Rect::new(0, 0, 0, 2),
        0,
        0,
        8,
        (0.0, 0.0),
        (1.0, 0.0),
        SpriteParams::new(),
    );
    fb.draw_sprite_stretched(&sheet, src, Rect::new(0, 0, -3, 4), SpriteParams::new());
    assert!(fb.pixels().iter().all(|&p| p == 0));
    // Extreme but valid: a huge scale fills the clip with one pixel, a far position misses.
    let t = Transform::new().scale(1e9);
    fb.draw_sprite_transformed(&sheet, src, i32::MAX, i32::MIN, t, SpriteParams::new());
    fb.draw_sprite_stretched(
        &sheet,
        src,
        Rect::new(i32::MIN, 0, i32::MAX, i32::MAX),
        SpriteParams::new(),
    );
    fb.draw_span(
        &sheet,
        src,
        i32::MIN,
        3,
        i32::MAX,
        (0.0, 0.0),
        (1e9, 1e9),
        SpriteParams::new(),
    );
}

#[test]
fn a_picture_stretched_exactly_doubles_each_pixel() {
    let sheet = SpriteSheet::from_indexed(3, 1, vec![1, 2, 3]).unwrap();
    let mut fb = Framebuffer::new(6, 2);
    let src = Rect::new(0, 0, 3, 1);
    fb.draw_sprite_stretched(&sheet, src, Rect::new(0, 0, 6, 2), SpriteParams::new());
    assert_eq!(fb.pixels(), [1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
    let mut fb = Framebuffer::new(2, 1);
    fb.draw_sprite_stretched(&sheet, src, Rect::new(0, 0, 2, 1), SpriteParams::new());
    assert_eq!(
        fb.pixels(),
        [1, 3],
        "three squeezed into two: the pixels under each centre"
    );
}
