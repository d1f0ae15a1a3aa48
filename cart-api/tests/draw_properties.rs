//! Properties of the drawing primitives and the sprite blitter: every call clips exactly, a clip
//! only hides pixels (never moves or changes them), and the fast blitter agrees with a plain
//! pixel-by-pixel model of orientation, scale and palette offset.

use bt::host::Framebuffer;
use bt::{Rect, SpriteParams, SpriteSheet, FLIP_H, FLIP_V, ROT_180, ROT_270, ROT_90};
use proptest::prelude::*;

const W: i32 = 24;
const H: i32 = 20;

/// A draw call, to run with and without a clip.
#[derive(Debug, Clone)]
enum Call {
    Line(i32, i32, i32, i32),
    Rect(Rect),
    RectFill(Rect),
    ClearRect(Rect),
    Circle(i32, i32, i32),
    CircleFill(i32, i32, i32),
    Print(i32, i32),
    Sprite(Rect, i32, i32, u8, u32, u8),
}

fn coord() -> impl Strategy<Value = i32> {
    prop_oneof![
        8 => -12..36i32,
        1 => Just(i32::MIN),
        1 => Just(i32::MAX),
        1 => any::<i32>(),
    ]
}

fn rect() -> impl Strategy<Value = Rect> {
    (coord(), coord(), -4..40i32, -4..40i32).prop_map(|(x, y, w, h)| Rect::new(x, y, w, h))
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        (coord(), coord(), coord(), coord()).prop_map(|(a, b, c, d)| Call::Line(a, b, c, d)),
        rect().prop_map(Call::Rect),
        rect().prop_map(Call::RectFill),
        rect().prop_map(Call::ClearRect),
        (coord(), coord(), -2..30i32).prop_map(|(x, y, r)| Call::Circle(x, y, r)),
        (coord(), coord(), -2..30i32).prop_map(|(x, y, r)| Call::CircleFill(x, y, r)),
        (coord(), coord()).prop_map(|(x, y)| Call::Print(x, y)),
        (
            (-3..12i32, -3..9i32, 0..13i32, 0..10i32),
            coord(),
            coord(),
            0..32u8,
            0..4u32,
            0..3u8
        )
            .prop_map(|((sx, sy, sw, sh), x, y, f, s, o)| Call::Sprite(
                Rect::new(sx, sy, sw, sh),
                x,
                y,
                f,
                s,
                o
            )),
    ]
}

fn sheet() -> SpriteSheet {
    // 10×7, a mix of see-through and coloured pixels, no two rows alike.
    let px = (0..70u32).map(|i| ((i * 7 + i / 10) % 5) as u8).collect();
    SpriteSheet::from_indexed(10, 7, px).unwrap()
}

fn run(fb: &mut Framebuffer, call: &Call, sheet: &SpriteSheet) {
    match *call {
        Call::Line(a, b, c, d) => fb.draw_line((a, b), (c, d), 3),
        Call::Rect(r) => fb.draw_rect(r, 4),
        Call::RectFill(r) => fb.draw_rect_fill(r, 5),
        Call::ClearRect(r) => fb.clear_rect(r, 0),
        Call::Circle(x, y, r) => fb.draw_circle(x, y, r, 6),
        Call::CircleFill(x, y, r) => fb.draw_circle_fill(x, y, r, 7),
        Call::Print(x, y) => fb.print(x, y, "Ag\n#é", 8),
        Call::Sprite(src, x, y, f, s, o) => fb.draw_sprite(
            sheet,
            src,
            x,
            y,
            SpriteParams::new().flags(f).scale(s).palette_offset(o),
        ),
    }
}

/// A background with every pixel distinct enough to notice a stray write.
fn background() -> Framebuffer {
    let mut fb = Framebuffer::new(W as u32, H as u32);
    for y in 0..H {
        for x in 0..W {
            fb.draw_pixel(x, y, (10 + (x + y) % 3) as u8);
        }
    }
    fb
}

/// The local sheet pixel shown at `(u, v)` of a `w × h` source drawn with `flags`, found by
/// applying the flips and turns to every local pixel and looking the answer up.
fn model_lookup(flags: u8, w: i32, h: i32, u: i32, v: i32) -> Option<(i32, i32)> {
    let turns = (u32::from(flags & ROT_90 != 0)
        + 2 * u32::from(flags & ROT_180 != 0)
        + 3 * u32::from(flags & ROT_270 != 0))
        % 4;
    for ly in 0..h {
        for lx in 0..w {
            let (mut x, mut y, mut cw, mut ch) = (lx, ly, w, h);
            if flags & FLIP_H != 0 {
                x = cw - 1 - x;
            }
            if flags & FLIP_V != 0 {
                y = ch - 1 - y;
            }
            for _ in 0..turns {
                (x, y) = (ch - 1 - y, x);
                (cw, ch) = (ch, cw);
            }
            if (x, y) == (u, v) {
                return Some((lx, ly));
            }
        }
    }
    None
}

fn model_sprite(
    fb: &mut Framebuffer,
    sheet: &SpriteSheet,
    src: Rect,
    x: i32,
    y: i32,
    p: SpriteParams,
) {
    let s = p.scale as i32;
    if s == 0 || src.w <= 0 || src.h <= 0 {
        return;
    }
    let flags = p.flags;
    for py in 0..H {
        for px in 0..W {
            let (dx, dy) = (i64::from(px) - i64::from(x), i64::from(py) - i64::from(y));
            if dx < 0 || dy < 0 {
                continue;
            }
            let (u, v) = (dx / i64::from(s), dy / i64::from(s));
            if u > 64 || v > 64 {
                continue;
            }
            let Some((lx, ly)) = model_lookup(flags, src.w, src.h, u as i32, v as i32) else {
                continue;
            };
            let Some(c) = sheet.get(src.x + lx, src.y + ly) else {
                continue;
            };
            if c != 0 {
                fb.draw_pixel(px, py, c.saturating_add(p.palette_offset));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_clip_only_hides_pixels(call in call(), clip in rect()) {
        let sheet = sheet();
        let mut free = background();
        run(&mut free, &call, &sheet);
        let mut clipped = background();
        clipped.set_clip(clip);
        run(&mut clipped, &call, &sheet);
        let c = clipped.clip();
        let base = background();
        for y in 0..H {
            for x in 0..W {
                let want = if c.contains(x, y) { free.get(x, y) } else { base.get(x, y) };
                prop_assert_eq!(clipped.get(x, y), want, "pixel ({}, {}) of {:?} in {:?}", x, y, call, c);
            }
        }
    }

    #[test]
    fn the_blitter_matches_the_pixel_model(
        (sx, sy, sw, sh) in (-3..12i32, -3..9i32, 0..13i32, 0..10i32),
        x in -15..25i32,
        y in -15..22i32,
        flags in 0..32u8,
        scale in 0..4u32,
        offset in 0..3u8,
    ) {
        let sheet = sheet();
        let src = Rect::new(sx, sy, sw, sh);
        let p = SpriteParams::new().flags(flags).scale(scale).palette_offset(offset);
        let mut fast = background();
        fast.draw_sprite(&sheet, src, x, y, p);
        let mut model = background();
        model_sprite(&mut model, &sheet, src, x, y, p);
        prop_assert_eq!(fast, model);
    }

    #[test]
    fn circle_outline_lies_on_the_filled_disc(cx in -5..30i32, cy in -5..25i32, r in 0..20i32) {
        let mut fill = Framebuffer::new(W as u32, H as u32);
        fill.draw_circle_fill(cx, cy, r, 1);
        let mut ring = Framebuffer::new(W as u32, H as u32);
        ring.draw_circle(cx, cy, r, 1);
        for y in 0..H {
            for x in 0..W {
                let (dx, dy) = (i64::from(x - cx), i64::from(y - cy));
                let inside = dx * dx + dy * dy <= i64::from(r) * i64::from(r) + i64::from(r);
                prop_assert_eq!(fill.get(x, y) == Some(1), inside);
                if ring.get(x, y) == Some(1) {
                    prop_assert!(inside);
                    // An outline pixel has a neighbour outside the disc.
                    let out = |x: i64, y: i64| x * x + y * y > i64::from(r) * i64::from(r) + i64::from(r);
                    prop_assert!(out(dx + 1, dy) || out(dx - 1, dy) || out(dx, dy + 1) || out(dx, dy - 1));
                }
            }
        }
    }
}

#[test]
fn huge_circles_cost_only_the_visible_rows() {
    let mut fb = Framebuffer::new(W as u32, H as u32);
    fb.draw_circle_fill(0, 0, i32::MAX, 2);
    assert!(fb.pixels().iter().all(|&p| p == 2));
    let mut ring = Framebuffer::new(W as u32, H as u32);
    ring.draw_circle(i32::MIN, i32::MIN, i32::MAX, 2);
    ring.draw_circle(i32::MAX, i32::MAX, i32::MAX, 2);
    ring.draw_circle(10, 10, i32::MAX, 2);
    assert!(
        ring.pixels().iter().all(|&p| p == 0),
        "the outline is far off screen"
    );
}
