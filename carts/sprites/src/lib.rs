//! `sprites`: a PNG sprite sheet built into the cart, decoded through the host's image loader
//! into palette slots, then drawn every way `draw_sprite` and `draw_tile` allow: the eight
//! orientations, scales, a palette offset, and a sprite sliding off the edge of the screen.

use bt::{
    Cart, CartError, Color32, Palette, Rect, Render, Settings, SpriteParams, SpriteSheet, Update,
    FLIP_H, FLIP_V, ROT_180, ROT_270, ROT_90,
};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "a PNG sheet: 8 orientations, scale, palette offset, tiles";

/// The shared example sheet (see `carts/assets/make_sheet.py` for its layout).
pub const SHEET_PNG: &[u8] = include_bytes!("../../assets/sheet.png");

/// Where the sheet's colours go in the palette.
const SHEET_SLOT: u8 = 16;
/// How far the recoloured copies of those colours sit above them.
const RECOLOUR: u8 = 16;

const BUNNY: Rect = Rect::new(0, 16, 16, 16);
const ARROW: Rect = Rect::new(16, 16, 16, 16);
const SLIME: Rect = Rect::new(48, 16, 16, 16);

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Sprites {
    sheet: Option<SpriteSheet>,
    slide: i32,
    frame: u32,
}

/// A fresh `sprites` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Sprites::default())
}

impl Cart for Sprites {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        // PICO-8's 16 colours, then room for the sheet's colours and a recoloured copy of them.
        let palette = Palette::pico8().resized(64).unwrap_or_default();
        Settings::default().title("Sprites").palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let sheet = ctx.decode_image("sheet.png", SHEET_PNG, SHEET_SLOT)?;
        // Slots 32.. hold the sheet's colours shifted towards blue, for the palette offset demo.
        let pal = ctx.palette_mut();
        for slot in sheet.palette_slots() {
            let c = pal.get(slot).unwrap_or_default();
            let tinted = Color32::rgb(c.r / 3, c.g / 2 + 40, c.b.saturating_add(90));
            pal.set(slot + RECOLOUR, tinted)?;
        }
        self.sheet = Some(sheet);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        self.slide = (ctx.ticks() % 200) as i32;
        self.frame = (ctx.ticks() / 15 % 2) as u32;
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let Some(sheet) = &self.sheet else { return };
        ctx.print(4, 2, "sprites from sheet.png", 7);

        // The eight orientations of the arrow, each labelled.
        let orientations: [(u8, &str); 8] = [
            (0, "none"),
            (ROT_90, "90"),
            (ROT_180, "180"),
            (ROT_270, "270"),
            (FLIP_H, "H"),
            (FLIP_V, "V"),
            (FLIP_H | ROT_90, "H+90"),
            (FLIP_V | ROT_90, "V+90"),
        ];
        for (i, (flags, label)) in orientations.iter().enumerate() {
            let x = 8 + i as i32 * 39;
            ctx.draw_rect(Rect::new(x - 1, 21, 18, 18), 5);
            ctx.draw_sprite(sheet, ARROW, x, 22, SpriteParams::new().flags(*flags));
            ctx.print(x - 2, 42, label, 6);
        }

        // Scales 1 to 4, and the same bunny through the palette offset.
        let mut x = 8;
        for scale in 1..=4 {
            ctx.draw_sprite(sheet, BUNNY, x, 64, SpriteParams::new().scale(scale));
            x += 16 * scale as i32 + 6;
        }
        ctx.draw_sprite(
            sheet,
            BUNNY,
            x + 4,
            64,
            SpriteParams::new().scale(4).palette_offset(RECOLOUR),
        );
        ctx.print(x + 4, 130, "offset 16", 6);

        // Tiles by index, in a strip of every tile on the sheet.
        // Tiles 16 and up are the quarters of the 16 × 16 sprites; show the 8 × 8 ones.
        for tile in 0..16 {
            let t = tile as i32;
            ctx.draw_tile(
                sheet,
                tile,
                8 + (t % 8) * 12,
                146 + (t / 8) * 12,
                SpriteParams::new(),
            );
        }
        // An animated water tile: two frames, switched every 15 ticks, drawn at scale 3.
        ctx.draw_tile(
            sheet,
            2 + self.frame,
            180,
            146,
            SpriteParams::new().scale(3),
        );

        // A slime sliding off the right edge: clipped, not wrapped.
        let x = 270 + self.slide / 4;
        ctx.draw_sprite(sheet, SLIME, x, 176, SpriteParams::new().scale(2));
        // And one walking backwards, mirrored.
        let x = 200 - self.slide;
        ctx.draw_sprite(sheet, SLIME, x, 190, SpriteParams::new().flags(FLIP_H));
        ctx.print(4, 224, format_args!("tick {}", ctx.ticks()), 6);
    }
}
