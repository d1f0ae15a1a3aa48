//! The drawing toolkit allocates nothing per frame once warm: maps, keyed and remapped
//! sprites, triangles, ellipses, patterns, the flood fill, pixel reads and the scoped camera.

use bt::host::Console;
use bt::{ColorKey, MapParams, Rect, Settings, SpriteParams, SpriteSheet, Tilemap, FLIP_H, ROT_90};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

#[test]
fn toolkit_frames_do_not_allocate_once_warm() {
    let mut con = Console::new(&Settings::default(), 0);
    let sheet = SpriteSheet::from_indexed(16, 16, (0..256).map(|i| (i % 7) as u8).collect())
        .unwrap()
        .with_tile_size(8, 8);
    let mut map = Tilemap::new(64, 64, (8, 8)).unwrap();
    for y in 0..64 {
        for x in 0..64 {
            map.set_tile(0, x, y, Some(((x * y) % 5) as u16));
        }
    }
    map.set_flags(2, 1);
    con.update_context(0).set_camera(37, 21);
    let frame = |con: &mut Console, t: u64| {
        let mut r = con.render_context(t, 0.0);
        r.draw_map(&map, &sheet, 0, 0, MapParams::new());
        r.set_remap(3, 9);
        r.draw_map(
            &map,
            &sheet,
            5,
            5,
            MapParams::new()
                .cells(Rect::new(2, 2, 10, 6))
                .sprite(SpriteParams::new().flags(FLIP_H | ROT_90).scale(2)),
        );
        r.draw_sprite(
            &sheet,
            Rect::new(0, 0, 16, 16),
            60,
            60,
            SpriteParams::new().key(ColorKey::NONE),
        );
        r.reset_remap();
        r.set_fill_pattern(bt::FillPattern::new(0x5a5a), Some(4));
        r.draw_triangle_fill((40, 30), (200, 90), (90, 200), 8);
        r.draw_ellipse_fill(Rect::new(100, 40, 80, 50), 10);
        r.draw_ellipse(Rect::new(100, 40, 80, 50), 7);
        r.reset_fill_pattern();
        r.draw_triangle((0, 0), (300, 10), (20, 230), 11);
        r.flood_fill(300, 200, 12);
        let under = r.get(50, 50).unwrap_or(0);
        r.with_camera(0, 0, |hud| {
            hud.draw_rect_fill(Rect::new(0, 0, 320, 10), under)
        });
    };
    let mut touched = false;
    for t in 0..3 {
        frame(&mut con, t);
    }
    let moved = map.move_rect(0, Rect::new(3, 3, 6, 8), (40, 90), 1);
    touched |= moved.hit_x || moved.hit_y || map.touches(0, moved.rect, 1);
    let n = GLOBAL.allocations_during(|| {
        for t in 3..60 {
            frame(&mut con, t);
            let m = map.move_rect(0, Rect::new(t as i32, 3, 6, 8), (40, 90), 1);
            touched |= m.hit_x || m.hit_y || map.touches(0, m.rect, 1);
        }
    });
    assert_eq!(n, 0, "allocations in 57 warm frames");
    assert!(touched);
    assert!(
        GLOBAL.allocations_during(|| drop(std::hint::black_box(vec![1u8; 9]))) > 0,
        "the counter counts"
    );
}
