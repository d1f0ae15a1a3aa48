//! Stretched, turned and scaled sprites, spans, nine-slice panels, scratch images and blend
//! tables allocate
//! nothing once warm, keyed and remapped draws included (their ink table is built once and
//! kept, on the screen and on each image).

use bt::host::Console;
use bt::{
    BlendTable, ColorKey, NineSlice, Rect, Settings, SliceFill, SpriteParams, SpriteSheet,
    Transform,
};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

#[test]
fn free_transforms_panels_and_scratch_images_do_not_allocate_per_frame() {
    let sheet = SpriteSheet::from_indexed(16, 16, (0..=255).collect()).unwrap();
    let src = Rect::new(0, 0, 16, 16);
    let mut con = Console::new(&Settings::default(), 0);
    let ghost = BlendTable::mix(con.palette(), 0.5);
    let mut frame = |t: u64| {
        let mut r = con.render_context(t, 0.0);
        let turn = Transform::new().angle(t as f64 * 0.1).scale(2.5);
        for params in [
            SpriteParams::new(),
            SpriteParams::new()
                .key(ColorKey::single(7))
                .palette_offset(3),
        ] {
            r.draw_sprite_stretched(&sheet, src, Rect::new(10, 10, 300, 37), params);
            r.draw_sprite_transformed(&sheet, src, 160, 120, turn, params);
            for y in 120..240 {
                let row = f64::from(y);
                r.draw_span(&sheet, src, 0, y, 320, (row, 0.0), (0.3, 0.1), params);
            }
        }
        let panel = NineSlice::new(src, Rect::new(4, 4, 8, 8)).unwrap();
        let tiled = panel.edges(SliceFill::Tile).center(SliceFill::Tile);
        r.draw_nine_slice(
            &sheet,
            &panel,
            Rect::new(0, 0, 100, 50),
            SpriteParams::new(),
        );
        r.draw_nine_slice(
            &sheet,
            &tiled,
            Rect::new(0, 60, 100, 50),
            SpriteParams::new(),
        );
        r.with_image(64, 48, |r, minimap| {
            r.draw_on(minimap, |m| {
                m.clear(1);
                m.set_remap(3, 4);
                let keyed = SpriteParams::new().key(ColorKey::single(5));
                m.draw_sprite_transformed(&sheet, src, 32, 24, turn, keyed);
                m.print(0, 0, format_args!("t {t}"), 7);
            });
            r.draw_sprite_stretched(
                minimap,
                Rect::new(0, 0, 64, 48),
                Rect::new(200, 10, 96, 72),
                SpriteParams::new(),
            );
        })
        .unwrap();
        r.set_blend(&ghost);
        r.draw_sprite_transformed(&sheet, src, 100, 40, turn, SpriteParams::new());
        r.draw_circle_fill(100, 100, 30, 8);
        r.reset_blend();
        r.set_remap(9, 10);
        r.draw_sprite_transformed(&sheet, src, 40, 40, turn, SpriteParams::new());
    };
    frame(0);
    let during = GLOBAL.allocations_during(|| {
        for t in 1..60 {
            frame(t);
        }
    });
    assert_eq!(
        during, 0,
        "allocations in 59 frames of free transforms, panels and images"
    );
}
