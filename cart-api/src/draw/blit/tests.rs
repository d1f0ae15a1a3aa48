//! The blitter against its rule, one pixel at a time, and its clipping as properties.

use super::*;
use proptest::prelude::*;

/// The blitter's rule, one screen pixel at a time, with none of its row routines: where
/// screen pixel `(px, py)` inside the clip falls in the drawn sprite, the sheet pixel
/// shown there (by [`Orientation::inverse`]), blended by [`blend_pixel`].
fn per_pixel(
    fb: &mut Framebuffer,
    sheet: &SpriteSheet,
    src: Rect,
    at: (i64, i64),
    p: SpriteParams,
) {
    let scale = i64::from(p.scale);
    let (w, h) = (i64::from(src.w), i64::from(src.h));
    if scale == 0 || w <= 0 || h <= 0 {
        return;
    }
    let o = Orientation::new(p.flags & ORIENT, w, h);
    let c = fb.clip;
    for py in c.y0..c.y1 {
        for px in c.x0..c.x1 {
            let (dx, dy) = (px - at.0, py - at.1);
            if dx < 0 || dy < 0 || dx / scale >= o.size.0 || dy / scale >= o.size.1 {
                continue;
            }
            let (lx, ly) = o.inverse(dx / scale, dy / scale);
            let (sx, sy) = (i64::from(src.x) + lx, i64::from(src.y) + ly);
            if sx < 0 || sy < 0 || sx >= i64::from(sheet.width) || sy >= i64::from(sheet.height) {
                continue;
            }
            let s = sheet.pixels[(sy * i64::from(sheet.width) + sx) as usize];
            let i = (py * i64::from(fb.width) + px) as usize;
            blend_pixel(&mut fb.pixels[i], s, p.palette_offset);
        }
    }
}

/// A sprite draw with the row widths the row routines are written for (8 and 16) and the
/// edge widths around them, any flags, scales 1 to 3 and 8 to 10 (either side of the
/// short-run limit of the scaled rows), offsets that do and do not saturate, on a sheet
/// of any size up to 40 × 40, at and past every side of a clip of any size.
fn sprite_case() -> impl Strategy<Value = (SpriteSheet, Rect, (i32, i32), SpriteParams, Rect)> {
    let sheet = (1..=40u32, 1..=40u32).prop_flat_map(|(w, h)| {
        let px = proptest::collection::vec(
            prop_oneof![2 => Just(0u8), 3 => any::<u8>()],
            (w * h) as usize,
        );
        px.prop_map(move |px| SpriteSheet::from_indexed(w, h, px).expect("sized to fit"))
    });
    let side = || {
        prop_oneof![
            Just(8),
            Just(16),
            Just(7),
            Just(9),
            Just(15),
            Just(17),
            0..=24i32
        ]
    };
    let src = (-3..40i32, -3..40i32, side(), side()).prop_map(|(x, y, w, h)| Rect::new(x, y, w, h));
    let at = (-24..56i32, -24..48i32);
    let scale = prop_oneof![4 => Just(1u32), 2 => 2..=3u32, 1 => 8..=10u32];
    let offset = prop_oneof![Just(0u8), Just(1), Just(16), Just(200), Just(255)];
    let params = (0..32u8, scale, offset)
        .prop_map(|(f, s, o)| SpriteParams::new().flags(f).scale(s).palette_offset(o));
    let clip =
        (-4..52i32, -4..44i32, 0..56i32, 0..48i32).prop_map(|(x, y, w, h)| Rect::new(x, y, w, h));
    (sheet, src, at, params, clip)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Every row routine (the 8-pixel rows in 16 lanes and their fallback at the far corner,
    /// mirrored rows read as one reversed run, turned rows eight at a time, short scaled
    /// runs written as one word) draws what the per-pixel rule draws.
    #[test]
    fn sprites_draw_what_the_per_pixel_rule_draws((sheet, src, (x, y), p, clip) in sprite_case()) {
        let mut fast = Framebuffer::new(48, 40);
        for (i, px) in fast.pixels.iter_mut().enumerate() {
            *px = (i * 37 % 251) as u8;
        }
        fast.set_clip(clip);
        let mut want = fast.clone();
        fast.draw_sprite(&sheet, src, x, y, p);
        per_pixel(&mut want, &sheet, src, (x.into(), y.into()), p);
        prop_assert_eq!(fast.pixels(), want.pixels());
    }

    #[test]
    fn eight_pixels_in_sixteen_lanes_follow_the_pixel_rule_and_keep_the_rest(
        dst in any::<[u8; 16]>(),
        src in prop::array::uniform16(prop_oneof![Just(0u8), any::<u8>()]),
        offset in any::<u8>(),
    ) {
        let mut want = dst;
        for (d, &s) in want[..8].iter_mut().zip(&src) {
            blend_pixel(d, s, offset);
        }
        let mut got = dst;
        blend8_of16(&mut got, &src, offset);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn mirrored_and_turned_rows_gather_what_one_pixel_at_a_time_gathers(
        px in proptest::collection::vec(any::<u8>(), 1..300),
        first in 0..300i64,
        step_u in prop_oneof![Just(-1i64), -40..40i64],
        step_v in prop_oneof![Just(1i64), Just(-1i64)],
    ) {
        let at = |k: i64, j: i64| usize::try_from(first + k * step_u + j * step_v).ok().and_then(|i| px.get(i).copied());
        let row16: Option<Vec<u8>> = (0..16).map(|k| at(k, 0)).collect();
        if step_u == -1 {
            prop_assert_eq!(mirrored::<16>(&px, first as usize).map(Vec::from), row16.clone());
            let row8: Option<Vec<u8>> = (0..8).map(|k| at(k, 0)).collect();
            prop_assert_eq!(mirrored::<8>(&px, first as usize).map(Vec::from), row8);
        }
        if let Some(row) = &row16 {
            prop_assert_eq!(&gather::<16>(&px, first as usize, step_u)[..], &row[..]);
        }
        let block: Option<Vec<Vec<u8>>> = (0..8).map(|j| (0..16).map(|k| at(k, j)).collect()).collect();
        let got = turned_block::<16>(&px, first, step_u, step_v).map(|b| b.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
        prop_assert_eq!(got, block);
    }
}

/// A 3×2 sheet with every pixel distinct:
/// ```text
/// 1 2 3
/// 4 5 6
/// ```
fn sheet() -> SpriteSheet {
    SpriteSheet::from_indexed(3, 2, vec![1, 2, 3, 4, 5, 6]).unwrap()
}

fn drawn(flags: u8) -> Vec<Vec<u8>> {
    let mut fb = Framebuffer::new(3, 3);
    fb.draw_sprite(
        &sheet(),
        Rect::new(0, 0, 3, 2),
        0,
        0,
        SpriteParams::new().flags(flags),
    );
    let turns = u8::from(flags & ROT_90 != 0)
        + 2 * u8::from(flags & ROT_180 != 0)
        + 3 * u8::from(flags & ROT_270 != 0);
    let (w, h) = if turns % 2 == 1 { (2, 3) } else { (3, 2) };
    (0..h)
        .map(|y| (0..w).map(|x| fb.get(x, y).unwrap()).collect())
        .collect()
}

/// Every stored index against a destination pattern, at offsets that do and do not
/// saturate: the 16- and 8-pixel groups and the row routine follow the pixel rule exactly.
#[test]
fn row_groups_follow_the_pixel_rule_for_every_index_and_offset() {
    for offset in [0u8, 1, 16, 100, 127, 128, 200, 255] {
        for start in (0..256usize).step_by(8) {
            let src: Vec<u8> = (0..40).map(|i| ((start + i * 7) % 256) as u8).collect();
            let dst: Vec<u8> = (0..40).map(|i| (i * 31 % 256) as u8).collect();
            let mut want = dst.clone();
            for (d, &s) in want.iter_mut().zip(&src) {
                blend_pixel(d, s, offset);
            }
            let mut row = dst.clone();
            blend_row(&mut row, &src, offset);
            assert_eq!(row, want, "row, offset {offset}");
            let mut g16: [u8; 16] = dst[..16].try_into().unwrap();
            blend16(&mut g16, src[..16].try_into().unwrap(), offset);
            assert_eq!(g16[..], want[..16], "16 pixels, offset {offset}");
            let mut g8: [u8; 8] = dst[..8].try_into().unwrap();
            blend8(&mut g8, src[..8].try_into().unwrap(), offset);
            assert_eq!(g8[..], want[..8], "8 pixels, offset {offset}");
        }
    }
}

/// The fast 8- and 16-pixel loops and the any-width loop draw the same picture: a sprite
/// of each width from 1 to 20 at every horizontal cut by the clip.
#[test]
fn every_width_draws_what_the_general_blitter_draws() {
    let px: Vec<u8> = (0..20 * 20).map(|i| ((i * 13) % 7) as u8).collect();
    let sheet = SpriteSheet::from_indexed(20, 20, px).unwrap();
    for w in 1..=20 {
        for x in [-7, -1, 0, 3, 25, 30] {
            for offset in [0, 9] {
                let src = Rect::new(0, 0, w, 12);
                let mut fast = Framebuffer::new(32, 16);
                fast.clear(5);
                fast.draw_sprite(
                    &sheet,
                    src,
                    x,
                    2,
                    SpriteParams::new().palette_offset(offset),
                );
                // A remap that changes nothing drawn sends the draw through the table.
                let mut table = Framebuffer::new(32, 16);
                table.clear(5);
                table.set_remap(250, 251);
                table.draw_sprite(
                    &sheet,
                    src,
                    x,
                    2,
                    SpriteParams::new().palette_offset(offset),
                );
                assert_eq!(fast.pixels(), table.pixels(), "width {w} at x {x}");
            }
        }
    }
}

#[test]
fn the_eight_orientations() {
    assert_eq!(drawn(0), [[1, 2, 3], [4, 5, 6]]);
    assert_eq!(drawn(FLIP_H), [[3, 2, 1], [6, 5, 4]]);
    assert_eq!(drawn(FLIP_V), [[4, 5, 6], [1, 2, 3]]);
    assert_eq!(drawn(FLIP_H | FLIP_V), [[6, 5, 4], [3, 2, 1]]);
    assert_eq!(drawn(ROT_180), [[6, 5, 4], [3, 2, 1]]);
    assert_eq!(drawn(ROT_90), [[4, 1], [5, 2], [6, 3]]);
    assert_eq!(drawn(ROT_270), [[3, 6], [2, 5], [1, 4]]);
    // Flip first, then turn.
    assert_eq!(drawn(FLIP_H | ROT_90), [[6, 3], [5, 2], [4, 1]]);
    assert_eq!(drawn(FLIP_V | ROT_90), [[1, 4], [2, 5], [3, 6]]);
    // Turns add up modulo a full turn: 90 + 180 is 270, and 90 + 180 + 270 is 180.
    assert_eq!(drawn(ROT_90 | ROT_180), drawn(ROT_270));
    assert_eq!(drawn(ROT_90 | ROT_180 | ROT_270), drawn(ROT_180));
}

#[test]
fn index_zero_is_see_through_and_offset_skips_it() {
    let s = SpriteSheet::from_indexed(2, 1, vec![0, 3]).unwrap();
    let mut fb = Framebuffer::new(2, 1);
    fb.clear(9);
    fb.draw_sprite(
        &s,
        Rect::new(0, 0, 2, 1),
        0,
        0,
        SpriteParams::new().palette_offset(4),
    );
    assert_eq!(fb.pixels(), [9, 7]);
    fb.draw_sprite(
        &s,
        Rect::new(0, 0, 2, 1),
        0,
        0,
        SpriteParams::new().palette_offset(255),
    );
    assert_eq!(fb.pixels(), [9, 255], "capped at 255");
}

#[test]
fn scale_repeats_pixels_in_squares() {
    let mut fb = Framebuffer::new(6, 4);
    fb.draw_sprite(
        &sheet(),
        Rect::new(0, 0, 3, 2),
        0,
        0,
        SpriteParams::new().scale(2),
    );
    assert_eq!(&fb.pixels()[..6], [1, 1, 2, 2, 3, 3]);
    assert_eq!(&fb.pixels()[6..12], [1, 1, 2, 2, 3, 3]);
    assert_eq!(&fb.pixels()[18..], [4, 4, 5, 5, 6, 6]);
    let mut none = Framebuffer::new(6, 4);
    none.draw_sprite(
        &sheet(),
        Rect::new(0, 0, 3, 2),
        0,
        0,
        SpriteParams::new().scale(0),
    );
    assert!(none.pixels().iter().all(|&p| p == 0));
}

#[test]
fn source_outside_the_sheet_draws_nothing_there() {
    let mut fb = Framebuffer::new(5, 4);
    // One column and one row before the sheet: they are see-through, the rest lands at +1.
    fb.draw_sprite(&sheet(), Rect::new(-1, -1, 5, 5), 0, 0, SpriteParams::new());
    assert_eq!(fb.get(0, 0), Some(0));
    assert_eq!(fb.get(1, 1), Some(1));
    assert_eq!(fb.get(3, 2), Some(6));
    let mut turned = Framebuffer::new(5, 5);
    turned.draw_sprite(
        &sheet(),
        Rect::new(-1, 0, 4, 2),
        0,
        0,
        SpriteParams::new().flags(FLIP_H),
    );
    // Mirrored, the missing column is on the right.
    assert_eq!(turned.get(0, 0), Some(3));
    assert_eq!(turned.get(3, 0), Some(0));
}

#[test]
fn extreme_arguments_do_not_panic() {
    let mut fb = Framebuffer::new(8, 8);
    let s = sheet();
    for &(x, y) in &[(i32::MIN, i32::MIN), (i32::MAX, i32::MAX), (-2, 7), (7, -1)] {
        for flags in 0..32 {
            for scale in [0, 1, 3, u32::MAX] {
                for src in [
                    Rect::new(0, 0, 3, 2),
                    Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX),
                    Rect::new(i32::MAX, 0, i32::MAX, 5),
                    Rect::new(1, 1, -4, 9),
                ] {
                    let p = SpriteParams::new().flags(flags).scale(scale);
                    fb.draw_sprite(&s, src, x, y, p);
                }
            }
        }
    }
    fb.draw_sprite(
        &s,
        Rect::new(0, 0, 3, 2),
        6,
        6,
        SpriteParams::new().scale(u32::MAX),
    );
    assert_eq!(fb.get(6, 6), Some(1));
    assert_eq!(fb.get(7, 7), Some(1));
}
