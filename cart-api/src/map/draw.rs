//! Drawing a [`Tilemap`] layer: the tiles of a region, culled to the clip, each through the
//! sprite blitter with the same options as a sprite.

use crate::draw::Orientation;
use crate::draw::{Framebuffer, Rect};
use crate::draw::{SpriteParams, SpriteSheet};
use crate::map::{Tilemap, NO_TILE};

/// What part of a [`Tilemap`] to draw, and how: the layer, the region of cells, and the
/// sprite options ([`SpriteParams`]) the region is drawn with.
///
/// The sprite options apply to the region as a whole, as if it were one big sprite: a
/// mirrored region draws its tiles in mirrored order, each tile mirrored too; `scale` scales
/// the whole region; the key and palette offset apply to every tile.
///
/// ```
/// use bt::{MapParams, Rect, SpriteParams, FLIP_H};
///
/// let p = MapParams::new().layer(1).cells(Rect::new(0, 0, 16, 16)).sprite(SpriteParams::new().flags(FLIP_H));
/// assert_eq!((p.layer, p.cells, p.sprite.flags), (1, Some(Rect::new(0, 0, 16, 16)), FLIP_H));
/// assert_eq!(MapParams::default().cells, None, "the whole map");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MapParams {
    /// The layer to draw. A layer past the last draws nothing. Default 0.
    pub layer: usize,
    /// The cells to draw, `None` (the default) for the whole map. Cells of the region outside
    /// the map draw nothing.
    pub cells: Option<Rect>,
    /// How every tile is drawn.
    pub sprite: SpriteParams,
}

impl MapParams {
    /// Layer 0, the whole map, plain sprite options.
    pub const fn new() -> MapParams {
        MapParams {
            layer: 0,
            cells: None,
            sprite: SpriteParams::new(),
        }
    }

    /// Sets the layer.
    pub const fn layer(mut self, layer: usize) -> MapParams {
        self.layer = layer;
        self
    }

    /// Sets the region of cells.
    pub const fn cells(mut self, cells: Rect) -> MapParams {
        self.cells = Some(cells);
        self
    }

    /// Sets the sprite options.
    pub const fn sprite(mut self, sprite: SpriteParams) -> MapParams {
        self.sprite = sprite;
        self
    }
}

impl Framebuffer {
    /// Draws a region of a map layer with tiles of `sheet`, its top-left corner at `(x, y)`
    /// (PICO-8's `map`, Pyxel's `bltm`). Each cell draws the sheet's tile of that number
    /// ([`SpriteSheet::tile_rect`]) `tile_size` of the map apart; empty cells and numbers past
    /// the sheet's last tile draw nothing. Only the cells that reach the clip are visited.
    pub fn draw_map(&mut self, map: &Tilemap, sheet: &SpriteSheet, x: i32, y: i32, p: MapParams) {
        self.map_wide(map, sheet, x.into(), y.into(), p);
    }

    pub(crate) fn map_wide(
        &mut self,
        map: &Tilemap,
        sheet: &SpriteSheet,
        x: i64,
        y: i64,
        p: MapParams,
    ) {
        let cells = map.cells(p.layer);
        let scale = i64::from(p.sprite.scale);
        if cells.is_empty() || scale == 0 {
            return;
        }
        let (mw, mh) = map.size();
        let region = p.cells.unwrap_or(Rect::new(0, 0, mw as i32, mh as i32));
        if region.w <= 0 || region.h <= 0 {
            return;
        }
        let (tw, th) = map.tile_size();
        let (tw, th) = (i64::from(tw), i64::from(th));
        let (rw, rh) = (i64::from(region.w) * tw, i64::from(region.h) * th);
        let flags = p.sprite.flags;
        let whole = Orientation::new(flags, rw, rh);
        let (ow, oh) = whole.size;
        // The part of the drawn region inside the clip, in the oriented region's pixels...
        let Some(c) = self.clip.intersect(x, y, x + ow * scale, y + oh * scale) else {
            return;
        };
        let (u0, v0) = ((c.x0 - x) / scale, (c.y0 - y) / scale);
        let (u1, v1) = ((c.x1 - 1 - x) / scale, (c.y1 - 1 - y) / scale);
        // ...and back in the region's own pixels, then cells, cut to the map.
        let (a, b) = (whole.inverse(u0, v0), whole.inverse(u1, v1));
        let (lx0, lx1) = (a.0.min(b.0), a.0.max(b.0));
        let (ly0, ly1) = (a.1.min(b.1), a.1.max(b.1));
        let (rx, ry) = (i64::from(region.x), i64::from(region.y));
        let cx0 = (rx + lx0 / tw).max(0);
        let cx1 = (rx + lx1 / tw)
            .min(i64::from(mw) - 1)
            .min(rx + i64::from(region.w) - 1);
        let cy0 = (ry + ly0 / th).max(0);
        let cy1 = (ry + ly1 / th)
            .min(i64::from(mh) - 1)
            .min(ry + i64::from(region.h) - 1);
        let row = mw as usize;
        for cy in cy0..=cy1 {
            for cx in cx0..=cx1 {
                let t = cells[cy as usize * row + cx as usize];
                if t == NO_TILE {
                    continue;
                }
                let Some(src) = sheet.tile_rect(u32::from(t)) else {
                    continue;
                };
                // The tile's corners in the region, oriented; it is drawn from the nearer.
                let (lx, ly) = ((cx - rx) * tw, (cy - ry) * th);
                let p0 = whole.forward(lx, ly);
                let p1 = whole.forward(lx + tw - 1, ly + th - 1);
                let (dx, dy) = (p0.0.min(p1.0), p0.1.min(p1.1));
                self.sprite_wide(sheet, src, x + dx * scale, y + dy * scale, p.sprite);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{ColorKey, FLIP_H, ROT_90};

    /// Four 2 × 2 tiles, each one colour: 1, 2, 3, 4.
    fn sheet() -> SpriteSheet {
        let mut px = vec![0; 8 * 2];
        for (i, p) in px.iter_mut().enumerate() {
            *p = (i % 8 / 2 + 1) as u8;
        }
        SpriteSheet::from_indexed(8, 2, px)
            .unwrap()
            .with_tile_size(2, 2)
    }

    /// A 3 × 2 map: tiles 0 1 2 / 3 - 0.
    fn map() -> Tilemap {
        let mut m = Tilemap::new(3, 2, (2, 2)).unwrap();
        for (i, t) in [Some(0), Some(1), Some(2), Some(3), None, Some(0)]
            .into_iter()
            .enumerate()
        {
            m.set_tile(0, i as i32 % 3, i as i32 / 3, t);
        }
        m
    }

    /// One pixel per 2 × 2 cell of the framebuffer, top-left of each.
    fn cells(fb: &Framebuffer) -> Vec<Vec<u8>> {
        (0..fb.height() as i32 / 2)
            .map(|y| {
                (0..fb.width() as i32 / 2)
                    .map(|x| fb.get(x * 2, y * 2).unwrap())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_layer_draws_its_tiles_and_skips_empty_cells() {
        let mut fb = Framebuffer::new(6, 4);
        fb.draw_map(&map(), &sheet(), 0, 0, MapParams::new());
        assert_eq!(cells(&fb), [[1, 2, 3], [4, 0, 1]]);
    }

    #[test]
    fn a_region_draws_from_its_corner_and_parts_outside_the_map_draw_nothing() {
        let mut fb = Framebuffer::new(6, 4);
        fb.draw_map(
            &map(),
            &sheet(),
            0,
            0,
            MapParams::new().cells(Rect::new(1, 0, 3, 2)),
        );
        assert_eq!(cells(&fb), [[2, 3, 0], [0, 1, 0]]);
        let mut off = Framebuffer::new(6, 4);
        off.draw_map(
            &map(),
            &sheet(),
            2,
            0,
            MapParams::new().cells(Rect::new(-1, 0, 2, 1)),
        );
        assert_eq!(cells(&off), [[0, 0, 1], [0, 0, 0]]);
    }

    #[test]
    fn the_region_turns_and_mirrors_as_one_sprite() {
        // Drawing the region equals drawing the sheet picture of the whole map as one sprite.
        let m = map();
        let s = sheet();
        let mut picture = vec![0u8; 6 * 4];
        let mut flat = Framebuffer::new(6, 4);
        flat.draw_map(&m, &s, 0, 0, MapParams::new());
        picture.copy_from_slice(flat.pixels());
        let whole = SpriteSheet::from_indexed(6, 4, picture).unwrap();
        for flags in [FLIP_H, ROT_90, FLIP_H | ROT_90] {
            for scale in [1, 2] {
                let sp = SpriteParams::new().flags(flags).scale(scale);
                let mut a = Framebuffer::new(16, 16);
                a.draw_map(&m, &s, 1, 2, MapParams::new().sprite(sp));
                let mut b = Framebuffer::new(16, 16);
                b.draw_sprite(&whole, Rect::new(0, 0, 6, 4), 1, 2, sp);
                assert_eq!(a, b, "flags {flags}, scale {scale}");
            }
        }
    }

    #[test]
    fn clipping_a_map_changes_no_pixel_inside_the_clip() {
        let (m, s) = (map(), sheet());
        let mut full = Framebuffer::new(12, 8);
        full.draw_map(
            &m,
            &s,
            -1,
            1,
            MapParams::new().sprite(SpriteParams::new().scale(2)),
        );
        for clip in [
            Rect::new(0, 0, 5, 5),
            Rect::new(3, 2, 4, 9),
            Rect::new(11, 7, 1, 1),
        ] {
            let mut fb = Framebuffer::new(12, 8);
            fb.set_clip(clip);
            fb.draw_map(
                &m,
                &s,
                -1,
                1,
                MapParams::new().sprite(SpriteParams::new().scale(2)),
            );
            for y in 0..8 {
                for x in 0..12 {
                    let want = if clip.contains(x, y) {
                        full.get(x, y)
                    } else {
                        Some(0)
                    };
                    assert_eq!(fb.get(x, y), want, "({x}, {y}) in {clip:?}");
                }
            }
        }
    }

    #[test]
    fn the_key_and_layers_past_the_last() {
        let mut fb = Framebuffer::new(6, 4);
        let p = MapParams::new().sprite(SpriteParams::new().key(ColorKey::single(2)));
        fb.draw_map(&map(), &sheet(), 0, 0, p);
        assert_eq!(cells(&fb), [[1, 0, 3], [4, 0, 1]]);
        let mut none = Framebuffer::new(6, 4);
        none.draw_map(&map(), &sheet(), 0, 0, MapParams::new().layer(1));
        none.draw_map(&map(), &sheet(), i32::MIN, i32::MAX, MapParams::new());
        none.draw_map(
            &map(),
            &sheet(),
            0,
            0,
            MapParams::new().cells(Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX)),
        );
        assert!(none.pixels().iter().all(|&p| p == 0));
    }
}
