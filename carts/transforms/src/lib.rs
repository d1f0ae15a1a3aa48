//! `transforms`: sprites off the whole-pixel grid. A mode-7 floor drawn one textured span a
//! row from an image built in `init`; sprites turned and scaled about a pivot and squashed and
//! stretched to any box; nine-slice panels, stretched and tiled, one of them growing from
//! nothing; a minimap drawn every frame into a scratch image, then framed; and translucency
//! from blend tables: a shadow that darkens the floor and a ghost trailing the ship.

use std::sync::Arc;

use bt::math::sin_cos;
use bt::{
    BlendTable, Cart, CartError, Color32, Image, NineSlice, Palette, Rect, Render, Settings,
    SliceFill, SpriteParams, SpriteSheet, Transform, Update,
};

/// One line for `bt list`.
pub const DESCRIPTION: &str =
    "turned, scaled and stretched sprites, a mode-7 floor, panels, a minimap, translucency";

/// The shared example sheet (see `carts/assets/make_sheet.py` for its layout).
pub const SHEET_PNG: &[u8] = include_bytes!("../../assets/sheet.png");

/// Where the sheet's colours go in the palette.
const SHEET_SLOT: u8 = 16;

const BUNNY: Rect = Rect::new(0, 16, 16, 16);
const ARROW: Rect = Rect::new(16, 16, 16, 16);
const SHIP: Rect = Rect::new(32, 16, 16, 16);
const SLIME: Rect = Rect::new(48, 16, 16, 16);

/// The screen row of the horizon: sky above, floor below.
const HORIZON: i32 = 100;
/// The floor texture's side: 8 × 8 tiles of the sheet, repeated without end.
const FLOOR: u32 = 64;
/// How high the eye is above the floor (in floor pixels) and the focal length (in screen
/// pixels): a floor row `r` rows below the horizon is `EYE × FOCAL / r` floor pixels away.
const EYE: f64 = 5.0;
const FOCAL: f64 = 110.0;
/// The camera's circle around the floor texture's centre, and how far round it goes a tick.
const RADIUS: f64 = 18.0;
const TURN_PER_TICK: f64 = 0.01;

/// The panel art: a 12 × 12 frame, 3-pixel borders with rounded corners, a patterned centre.
const PANEL_SIDE: u32 = 12;
const PANEL_INNER: Rect = Rect::new(3, 3, 6, 6);

/// The cart's state.
#[derive(Debug, Default, Clone)]
pub struct Transforms {
    sheet: Option<SpriteSheet>,
    /// The floor texture, drawn from the sheet's tiles once in `init`: game state.
    floor: Option<Image>,
    panel: Option<SpriteSheet>,
    /// Blend tables: whatever is under a shadow, darker; a ghost, 40 % over what is behind.
    shade: Option<Arc<BlendTable>>,
    ghost: Option<Arc<BlendTable>>,
    /// Where the camera stands on the floor, in its pixels, and which way it looks (radians,
    /// clockwise from the floor's x axis), as of the last update.
    pos: (f64, f64),
    heading: f64,
}

/// A fresh `transforms` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Transforms::default())
}

/// The panel art: border 7, inner ring 13, centre 1 with a dot of 5 every other pixel; the
/// outermost corner pixels see-through.
fn panel_sheet() -> Result<SpriteSheet, bt::AssetError> {
    let n = PANEL_SIDE as i32;
    let px = (0..n * n)
        .map(|i| {
            let (x, y) = (i % n, i / n);
            let edge = x.min(y).min(n - 1 - x).min(n - 1 - y);
            let corner = (x == 0 || x == n - 1) && (y == 0 || y == n - 1);
            match edge {
                _ if corner => 0,
                0 => 7,
                1 => 13,
                _ if (x + y) % 2 == 0 => 5,
                _ => 1,
            }
        })
        .collect();
    SpriteSheet::from_indexed(PANEL_SIDE, PANEL_SIDE, px)
}

impl Transforms {
    fn place(&mut self, ticks: u64) {
        let around = ticks as f64 * TURN_PER_TICK;
        let (s, c) = sin_cos(around);
        let centre = f64::from(FLOOR) / 2.0;
        self.pos = (centre + RADIUS * c, centre + RADIUS * s);
        // Along the circle, anticlockwise on the map.
        self.heading = around + std::f64::consts::FRAC_PI_2;
    }

    /// The floor, one span a row: each row is a line across the floor at its distance,
    /// walked from its left end to its right.
    fn draw_floor(&self, ctx: &mut Render<'_>, floor: &Image) {
        let (s, c) = sin_cos(self.heading);
        let (forward, right) = ((c, s), (-s, c));
        let half = f64::from(ctx.display_size().0) / 2.0;
        let texture = Rect::new(0, 0, FLOOR as i32, FLOOR as i32);
        for y in HORIZON + 1..ctx.display_size().1 as i32 {
            let far = EYE * FOCAL / f64::from(y - HORIZON);
            let per_pixel = far / FOCAL;
            let start = (
                self.pos.0 + forward.0 * far - right.0 * per_pixel * half,
                self.pos.1 + forward.1 * far - right.1 * per_pixel * half,
            );
            let step = (right.0 * per_pixel, right.1 * per_pixel);
            let width = ctx.display_size().0 as i32;
            ctx.draw_span(
                floor,
                texture,
                0,
                y,
                width,
                start,
                step,
                SpriteParams::new(),
            );
        }
    }
}

impl Cart for Transforms {
    /// The tables are shared behind an `Arc` and the sheets share their pixels, so a copy
    /// costs little; the floor image is game state, copied only when drawn on again.
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        // PICO-8's 16 colours, then room for the sheet's.
        let palette = Palette::pico8().resized(32).unwrap_or_default();
        Settings::default().title("Transforms").palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let sheet = ctx.decode_image("sheet.png", SHEET_PNG, SHEET_SLOT)?;
        // The floor: rings of grass (with flowers), path, sand and water, drawn from the
        // sheet's tiles into an image once.
        let mut floor = Image::new(FLOOR, FLOOR)?;
        ctx.draw_on(&mut floor, |img| {
            for cy in 0..8i32 {
                for cx in 0..8i32 {
                    let ring = (2 * cx - 7).abs().max((2 * cy - 7).abs()) / 2;
                    let tile = match ring {
                        0 => 2,
                        1 => 4,
                        2 => 7,
                        _ if (cx + cy) % 3 == 0 => 1,
                        _ => 0,
                    };
                    img.draw_tile(&sheet, tile, cx * 8, cy * 8, SpriteParams::new());
                }
            }
        });
        self.floor = Some(floor);
        self.sheet = Some(sheet);
        self.panel = Some(panel_sheet()?);
        let pal = ctx.palette().clone();
        let last = (pal.len() - 1) as u8;
        self.shade = Some(Arc::new(BlendTable::from_fn(|_, under| {
            let c = pal.get(under).unwrap_or_default();
            let dark = Color32::rgb(c.r / 2, c.g / 2, c.b / 2);
            pal.nearest_in(dark, 1..=last).unwrap_or(under)
        })));
        self.ghost = Some(Arc::new(BlendTable::mix(&pal, 0.4)));
        self.place(0);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        self.place(ctx.ticks());
    }

    fn render(&self, ctx: &mut Render<'_>) {
        let (Some(sheet), Some(floor), Some(panel_art)) = (&self.sheet, &self.floor, &self.panel)
        else {
            return;
        };
        let (Some(shade), Some(ghost)) = (&self.shade, &self.ghost) else {
            return;
        };
        let t = ctx.ticks() as f64;
        let p = SpriteParams::new();
        ctx.clear(12);
        ctx.draw_rect_fill(Rect::new(0, HORIZON - 4, 320, 5), 6);
        self.draw_floor(ctx, floor);

        // A ship circling, turning as it goes and breathing in size, a translucent ghost of
        // where it was half a second ago behind it.
        let ship_at = |t: f64| {
            let (s, c) = sin_cos(t * 0.03);
            let grow = 2.0 + 0.75 * sin_cos(t * 0.07).0;
            let turn = Transform::new().angle(t * 0.03 + 1.2).scale(grow);
            (70 + (40.0 * c) as i32, 58 + (22.0 * s) as i32, turn)
        };
        let (x, y, turn) = ship_at(t - 30.0);
        ctx.set_blend(ghost);
        ctx.draw_sprite_transformed(sheet, SHIP, x, y, turn, p);
        ctx.reset_blend();
        let (x, y, turn) = ship_at(t);
        ctx.draw_sprite_transformed(sheet, SHIP, x, y, turn, p);
        // A slime rocking on its bottom edge, wider than tall.
        let rock = Transform::new()
            .angle(0.5 * sin_cos(t * 0.08).0)
            .scale_xy(3.0, 2.0)
            .pivot(8.0, 16.0);
        ctx.draw_sprite_transformed(sheet, SLIME, 200, HORIZON + 30, rock, p);
        // A bunny bouncing: squashed when it lands, stretched as it rises.
        let bounce = sin_cos(t * 0.12).0.abs();
        let (w, h) = (48 - (16.0 * bounce) as i32, 24 + (30.0 * bounce) as i32);
        let shadow = 30 - (14.0 * bounce) as i32;
        ctx.set_blend(shade);
        ctx.draw_ellipse_fill(Rect::new(110 - shadow / 2, HORIZON + 77, shadow, 6), 1);
        ctx.reset_blend();
        let ground = HORIZON + 80 - (40.0 * bounce) as i32;
        ctx.draw_sprite_stretched(sheet, BUNNY, Rect::new(110 - w / 2, ground - h, w, h), p);

        // Panels: a stretched title bar, a tiled frame around the minimap, one growing.
        let stretched = NineSlice::new(Rect::new(0, 0, 12, 12), PANEL_INNER).ok();
        let Some(stretched) = stretched else { return };
        let tiled = stretched.edges(SliceFill::Tile).center(SliceFill::Tile);
        ctx.draw_nine_slice(panel_art, &stretched, Rect::new(4, 4, 132, 22), p);
        ctx.print(12, 8, "free transforms", 7);
        ctx.draw_nine_slice(panel_art, &tiled, Rect::new(238, 4, 78, 78), p);
        let grow = ((t * 0.02) % 1.0 * 70.0) as i32;
        ctx.draw_nine_slice(panel_art, &tiled, Rect::new(150, 8, grow, grow / 3), p);

        // The minimap: the floor and the camera's arrow, drawn into a scratch image each
        // frame, then framed by the panel.
        let map = Rect::new(0, 0, FLOOR as i32, FLOOR as i32);
        let (x, y) = (self.pos.0.round() as i32, self.pos.1.round() as i32);
        let arrow = Transform::new().angle(self.heading).scale(0.75);
        let _ = ctx.with_image(FLOOR, FLOOR, |ctx, minimap| {
            ctx.draw_on(minimap, |m| {
                m.draw_sprite(floor, map, 0, 0, p);
                m.draw_sprite_transformed(sheet, ARROW, x, y, arrow, p);
            });
            ctx.draw_sprite(minimap, map, 245, 11, p);
        });
        ctx.print(4, 226, format_args!("tick {}", ctx.ticks()), 7);
    }
}
