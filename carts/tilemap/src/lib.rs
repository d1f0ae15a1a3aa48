//! `tilemap`: a world four times the screen, made of tiles from the shared sheet, generated from
//! value noise in `init` into a `Tilemap`. A bunny wanders across it; the camera follows,
//! clamped to the world's edges; `draw_map` draws only the tiles the camera can see, and the
//! status line and minimap are drawn with a camera of their own.

use bt::noise::{hash2, ValueNoise};
use bt::{
    Cart, CartError, MapParams, Palette, Rect, Render, Settings, SpriteParams, SpriteSheet, Update,
    FLIP_H,
};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "a 512x384 tile world, a camera that follows and clamps, culling";

/// The shared example sheet.
const SHEET_PNG: &[u8] = include_bytes!("../../assets/sheet.png");

const TILE: u32 = 8;
/// The world in tiles.
const COLS: u32 = 64;
const ROWS: u32 = 48;
const BUNNY: Rect = Rect::new(0, 16, 16, 16);
/// Water switches between its two frames this often, in ticks.
const WATER_TICKS: u64 = 20;

/// Tile numbers on the sheet.
mod tile {
    pub const GRASS: u16 = 0;
    pub const FLOWERS: u16 = 1;
    /// Followed on the sheet by its second frame.
    pub const WATER: u16 = 2;
    pub const SAND: u16 = 4;
    pub const STONE: u16 = 5;
    pub const TREE: u16 = 6;
}

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Tilemap {
    sheet: Option<SpriteSheet>,
    map: Option<bt::Tilemap>,
    water_frame: u16,
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

/// The island: water, sand, grass, flowers, trees and stone from fractal noise.
fn island(seed: u32) -> Result<bt::Tilemap, CartError> {
    let land = ValueNoise::new(seed);
    let mut map = bt::Tilemap::new(COLS, ROWS, (TILE, TILE))?;
    for y in 0..ROWS as i32 {
        for x in 0..COLS as i32 {
            let height = land.fbm2(x as f32 / 14.0, y as f32 / 14.0, 4, 0.5, 2.0);
            let t = match height {
                h if h < 0.38 => tile::WATER,
                h if h < 0.44 => tile::SAND,
                h if h < 0.6 && hash2(7, x, y) < 0.15 => tile::FLOWERS,
                h if h < 0.6 => tile::GRASS,
                h if h < 0.68 => tile::TREE,
                _ => tile::STONE,
            };
            map.set_tile(0, x, y, Some(t));
        }
    }
    Ok(map)
}

impl Cart for Tilemap {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        let palette = Palette::pico8().resized(32).unwrap_or_default();
        Settings::default().title("Tilemap").palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.sheet = Some(ctx.decode_image("sheet.png", SHEET_PNG, 16)?);
        self.map = Some(island(ctx.rng_mut().next_u32())?);
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
        // Water has two frames: the map itself changes, every WATER_TICKS updates.
        let frame = ((ctx.ticks() + 1) / WATER_TICKS % 2) as u16;
        if let Some(map) = &mut self.map {
            if frame != self.water_frame {
                let (from, to) = (tile::WATER + self.water_frame, tile::WATER + frame);
                for y in 0..ROWS as i32 {
                    for x in 0..COLS as i32 {
                        if map.tile(0, x, y) == Some(from) {
                            map.set_tile(0, x, y, Some(to));
                        }
                    }
                }
                self.water_frame = frame;
            }
        }
        // Centre the camera on the bunny, then keep the view inside the world.
        let view = ctx.display_size();
        ctx.set_camera(
            self.bunny.0 as i32 + 8 - view.0 as i32 / 2,
            self.bunny.1 as i32 + 8 - view.1 as i32 / 2,
        );
        let world = self.map.as_ref().map_or(view, bt::Tilemap::pixel_size);
        ctx.clamp_camera(world, view);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let (Some(sheet), Some(map)) = (&self.sheet, &self.map) else {
            return;
        };
        // The whole map, through the camera: only the tiles in view are visited.
        ctx.draw_map(map, sheet, 0, 0, MapParams::new());
        let (cx, cy) = ctx.camera();
        let (w, h) = ctx.display_size();
        let (w, h) = (w as i32, h as i32);
        let in_view = map.cells_touching(Rect::new(cx, cy, w, h));

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

        // The status line and the minimap stay on screen: a camera of their own.
        ctx.with_camera(0, 0, |hud| {
            hud.draw_rect_fill(Rect::new(0, 0, w, 12), 1);
            hud.print(
                4,
                -1,
                format_args!(
                    "camera {cx},{cy}  tiles drawn {} of {}",
                    in_view.w * in_view.h,
                    COLS * ROWS
                ),
                7,
            );
            // Where the view is in the world.
            let (mx, my) = (w - 36, h - 28);
            hud.draw_rect_fill(Rect::new(mx, my, 34, 26), 0);
            hud.draw_rect(Rect::new(mx, my, 34, 26), 6);
            // The camera `update` set, already kept inside the world.
            hud.draw_rect(Rect::new(mx + 1 + cx / 16, my + 1 + cy / 16, 20, 15), 10);
        });
    }
}
