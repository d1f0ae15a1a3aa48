//! `tilemap`: a world four times the screen, made of tiles from the shared sheet, generated from
//! value noise in `init`. A bunny wanders across it; the camera follows, clamped to the world's
//! edges, and only the tiles the camera can see are drawn.

use bt::{
    camera_clamp, hash2, Cart, CartError, Palette, Rect, Render, Settings, SpriteParams,
    SpriteSheet, Update, ValueNoise, FLIP_H,
};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "a 512x384 tile world, a camera that follows and clamps, culling";

/// The shared example sheet.
const SHEET_PNG: &[u8] = include_bytes!("../../assets/sheet.png");

const TILE: i32 = 8;
/// The world in tiles.
const COLS: i32 = 64;
const ROWS: i32 = 48;
const BUNNY: Rect = Rect::new(0, 16, 16, 16);

/// Tile numbers on the sheet.
mod tile {
    pub const GRASS: u8 = 0;
    pub const FLOWERS: u8 = 1;
    pub const WATER: u8 = 2;
    pub const SAND: u8 = 4;
    pub const STONE: u8 = 5;
    pub const TREE: u8 = 6;
}

/// The cart's state.
#[derive(Debug, Default)]
pub struct Tilemap {
    sheet: Option<SpriteSheet>,
    map: Vec<u8>,
    bunny: (f32, f32),
    prev: (f32, f32),
    facing_left: bool,
}

/// A fresh `tilemap` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Tilemap::default())
}

/// The bunny's path: a slow figure of eight over the whole world, in pixels.
fn path(t: f32) -> (f32, f32) {
    let (w, h) = ((COLS * TILE) as f32, (ROWS * TILE) as f32);
    (
        w / 2.0 + bt::math::sinf(t * 0.011) * (w / 2.0 - 24.0),
        h / 2.0 + bt::math::sinf(t * 0.017) * (h / 2.0 - 24.0),
    )
}

impl Cart for Tilemap {
    fn configure(&self) -> Settings {
        let palette = Palette::pico8().resized(32).unwrap_or_default();
        Settings::default().title("Tilemap").palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.sheet = Some(ctx.decode_indexed("sheet.png", SHEET_PNG, 16)?);
        let land = ValueNoise::new(ctx.rng().next_u32());
        self.map = (0..ROWS * COLS)
            .map(|i| {
                let (x, y) = (i % COLS, i / COLS);
                let height = land.fbm2(x as f32 / 14.0, y as f32 / 14.0, 4, 0.5, 2.0);
                match height {
                    h if h < 0.38 => tile::WATER,
                    h if h < 0.44 => tile::SAND,
                    h if h < 0.6 && hash2(7, x, y) < 0.15 => tile::FLOWERS,
                    h if h < 0.6 => tile::GRASS,
                    h if h < 0.68 => tile::TREE,
                    _ => tile::STONE,
                }
            })
            .collect();
        self.bunny = path(0.0);
        self.prev = self.bunny;
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        self.prev = self.bunny;
        self.bunny = path(ctx.ticks() as f32);
        if (self.bunny.0 - self.prev.0).abs() > 0.01 {
            self.facing_left = self.bunny.0 < self.prev.0;
        }
        // Centre the camera on the bunny, then keep the view inside the world.
        let view = (ctx.display_size().0 as i32, ctx.display_size().1 as i32);
        ctx.camera_set(
            self.bunny.0 as i32 + 8 - view.0 / 2,
            self.bunny.1 as i32 + 8 - view.1 / 2,
        );
        ctx.camera_clamp((COLS * TILE, ROWS * TILE), view);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let Some(sheet) = &self.sheet else { return };
        let (cx, cy) = ctx.camera();
        let (w, h) = ctx.display_size();
        // Culling: only the tiles that overlap the view.
        let tx0 = (cx / TILE).clamp(0, COLS);
        let ty0 = (cy / TILE).clamp(0, ROWS);
        let tx1 = ((cx + w as i32 + TILE - 1) / TILE).clamp(0, COLS);
        let ty1 = ((cy + h as i32 + TILE - 1) / TILE).clamp(0, ROWS);
        // Water has two frames, switched every 20 ticks.
        let water_frame = (ctx.ticks() / 20 % 2) as u8;
        let mut drawn = 0;
        for ty in ty0..ty1 {
            for tx in tx0..tx1 {
                let mut t = self.map[(ty * COLS + tx) as usize];
                if t == tile::WATER {
                    t += water_frame;
                }
                ctx.draw_tile(
                    sheet,
                    u32::from(t),
                    tx * TILE,
                    ty * TILE,
                    SpriteParams::new(),
                );
                drawn += 1;
            }
        }

        let a = ctx.render_alpha() as f32;
        let x = self.prev.0 + (self.bunny.0 - self.prev.0) * a;
        let y = self.prev.1 + (self.bunny.1 - self.prev.1) * a;
        let flags = if self.facing_left { FLIP_H } else { 0 };
        ctx.draw_sprite(
            sheet,
            BUNNY,
            x.round() as i32,
            y.round() as i32,
            SpriteParams::new().flags(flags),
        );

        // The status line stays on screen: draw it at the camera's position.
        ctx.draw_rect_fill(Rect::new(cx, cy, w as i32, 12), 1);
        ctx.system_printf(
            cx + 4,
            cy - 1,
            7,
            format_args!("camera {cx},{cy}  tiles drawn {drawn} of {}", COLS * ROWS),
        );
        // Where the view is in the world, as a minimap in the corner.
        let (mx, my) = (cx + w as i32 - 36, cy + h as i32 - 28);
        ctx.draw_rect_fill(Rect::new(mx, my, 34, 26), 0);
        ctx.draw_rect(Rect::new(mx, my, 34, 26), 6);
        let cam = camera_clamp((cx, cy), (COLS * TILE, ROWS * TILE), (w as i32, h as i32));
        ctx.draw_rect(
            Rect::new(mx + 1 + cam.0 / 16, my + 1 + cam.1 / 16, 20, 15),
            10,
        );
    }
}
