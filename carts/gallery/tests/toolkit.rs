//! Golden pictures of the drawing toolkit at the screen's edges: triangles, ellipses, fill
//! patterns, the flood fill, the draw-time remap, colour keys, a map layer turned and scaled,
//! and a HUD drawn with its own camera over a scrolled scene. Each picture is byte-compared;
//! `BT_UPDATE_GOLDEN=1` rewrites them (look at them before committing).

use bt::{
    Cart, ColorKey, FillPattern, MapParams, Rect, Render, Settings, SpriteParams, SpriteSheet,
    Tilemap, Update, FLIP_H, ROT_90,
};
use bt_runtime::harness::CartTest;

/// Draws every new call, much of it across the edges of a 96 × 72 screen.
#[derive(Default)]
struct Toolkit {
    sheet: Option<SpriteSheet>,
    map: Option<Tilemap>,
}

impl Cart for Toolkit {
    fn configure(&self) -> Settings {
        Settings::default().display(96, 72)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        // Four 4 × 4 tiles: a frame of 8 around 9, a cross of 12 on the key colour 14, a
        // diagonal, and solid 3.
        let mut px = vec![0u8; 16 * 4];
        for y in 0..4 {
            for x in 0..16 {
                let (t, lx) = (x / 4, x % 4);
                px[y * 16 + x] = match t {
                    0 => {
                        if lx == 0 || lx == 3 || y == 0 || y == 3 {
                            8
                        } else {
                            9
                        }
                    }
                    1 => {
                        if lx == 1 || y == 1 {
                            12
                        } else {
                            14
                        }
                    }
                    2 => {
                        if lx == y {
                            10
                        } else {
                            0
                        }
                    }
                    _ => 3,
                };
            }
        }
        let sheet = SpriteSheet::from_indexed(16, 4, px)?
            .with_tile_size(4, 4)
            .with_key(ColorKey::single(0).with(14));
        let mut map = Tilemap::new(5, 3, (4, 4))?;
        for (i, t) in [0u16, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2]
            .into_iter()
            .enumerate()
        {
            map.set_tile(0, i as i32 % 5, i as i32 / 5, Some(t));
        }
        map.set_tile(0, 2, 1, None);
        self.sheet = Some(sheet);
        self.map = Some(map);
        ctx.set_camera(10, 5);
        Ok(())
    }

    fn update(&mut self, _ctx: &mut Update<'_>) {}

    fn render(&self, ctx: &mut Render<'_>) {
        let (Some(sheet), Some(map)) = (&self.sheet, &self.map) else {
            return;
        };
        ctx.clear(1);
        // Through the camera (10, 5): shapes cut by the left and top edges.
        ctx.draw_triangle_fill((0, 0), (40, 12), (14, 40), 8);
        ctx.draw_triangle((4, 50), (60, 45), (30, 80), 11);
        ctx.set_fill_pattern(FillPattern::new(0x5a5a), Some(2));
        ctx.draw_ellipse_fill(Rect::new(60, -10, 50, 30), 12);
        ctx.set_fill_pattern(FillPattern::dither(0.25), None);
        ctx.draw_circle_fill(100, 60, 20, 10);
        ctx.reset_fill_pattern();
        ctx.draw_ellipse(Rect::new(40, 30, 30, 17), 7);
        // A closed outline filled from inside, remapped 9 -> 13 on the way.
        ctx.draw_rect(Rect::new(44, 50, 16, 12), 7);
        ctx.set_remap(9, 13);
        ctx.flood_fill(50, 55, 9);
        // The map, plain, then mirrored and turned at twice the size, through the remap.
        ctx.draw_map(map, sheet, 12, 52, MapParams::new());
        ctx.draw_map(
            map,
            sheet,
            70,
            20,
            MapParams::new().sprite(SpriteParams::new().flags(FLIP_H | ROT_90).scale(2)),
        );
        ctx.reset_remap();
        // The same tile with the sheet's key (0 and 14 see-through) and with no key at all.
        ctx.draw_tile(sheet, 1, 84, 62, SpriteParams::new());
        ctx.draw_tile(sheet, 1, 90, 62, SpriteParams::new().key(ColorKey::NONE));
        // A HUD in screen coordinates, over everything, clipped at the right edge.
        ctx.with_camera(0, 0, |hud| {
            hud.draw_rect_fill(Rect::new(0, 64, 96, 8), 5);
            hud.print(70, 61, "HUD!", 7);
            let under = hud.get(1, 1).unwrap_or(0);
            hud.draw_rect_fill(Rect::new(0, 66, 4, 4), under);
        });
    }
}

#[test]
fn the_toolkit_draws_as_it_did() {
    let mut t = CartTest::new(Toolkit::default).unwrap();
    t.render();
    t.assert_golden("tests/golden/toolkit-shapes.png");
}
