//! Tile maps: layers of tile numbers on a grid, flags per tile, and the collision questions a
//! platformer asks of them. Drawing them is in `draw.rs`.

mod draw;

pub use draw::MapParams;

use std::sync::Arc;

use thiserror::Error;

use crate::draw::Rect;

/// The most cells a layer may hold: 4,194,304 (a 2048 × 2048 map), 8 MB a layer.
pub const MAX_MAP_CELLS: u64 = 1 << 22;

/// The most layers a map may hold.
pub const MAX_MAP_LAYERS: usize = 64;

/// What a cell with no tile holds, and the one tile number a map cannot store.
pub const NO_TILE: u16 = u16::MAX;

/// What went wrong making a [`Tilemap`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TilemapError {
    /// A side of 0, or more cells than [`MAX_MAP_CELLS`].
    #[error(
        "a map of {width}x{height} cells; each side must be at least 1 and the map at most \
         {MAX_MAP_CELLS} cells"
    )]
    Size {
        /// Width in cells.
        width: u64,
        /// Height in cells.
        height: u64,
    },
    /// A tile side of 0 or above 1024 px.
    #[error("a tile of {width}x{height} px; each side must be between 1 and 1024 px")]
    TileSize {
        /// Tile width in pixels.
        width: u32,
        /// Tile height in pixels.
        height: u32,
    },
    /// More layers than [`MAX_MAP_LAYERS`].
    #[error("more than {MAX_MAP_LAYERS} layers")]
    Layers,
}

/// A grid of tiles in one or more layers of the same size, with 8 flag bits per tile number
/// (PICO-8's `fget`/`fset`) and collision helpers.
///
/// A cell holds a tile number of a sprite sheet ([`crate::SpriteSheet::tile_rect`]) or no tile.
/// Cells are counted from the top-left, `(column, row)`; the map's tile size turns them into
/// pixels for drawing and collisions, with cell `(0, 0)` at pixel `(0, 0)` of the world.
///
/// ```
/// use bt::{Rect, Tilemap};
///
/// const SOLID: u8 = 1;
/// let mut map = Tilemap::new(20, 15, (8, 8))?;
/// for x in 0..20 {
///     map.set_tile(0, x, 14, Some(3)); // a floor of tile 3
/// }
/// map.set_flags(3, SOLID);
/// assert_eq!(map.tile(0, 5, 14), Some(3));
/// assert_eq!(map.tile(0, 5, 13), None);
/// assert_eq!(map.tile(0, 99, 99), None, "outside the map");
///
/// // A 6 x 8 player falling 40 px lands on the floor at y = 112.
/// let moved = map.move_rect(0, Rect::new(30, 80, 6, 8), (0, 40), SOLID);
/// assert_eq!(moved.rect, Rect::new(30, 104, 6, 8));
/// assert!(moved.hit_y && !moved.hit_x);
/// assert!(map.touches(0, Rect::new(0, 111, 4, 2), SOLID));
/// # Ok::<(), bt::TilemapError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tilemap {
    width: u32,
    height: u32,
    tile: (u32, u32),
    layers: Vec<Layer>,
    flags: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Layer {
    name: String,
    /// Shared until changed: a copy of the map (a cart's snapshot) copies a layer's cells only
    /// when one of the two sets a tile.
    cells: Arc<Vec<u16>>,
}

/// Where [`Tilemap::move_rect`] left a rectangle, and whether a solid tile stopped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    /// The rectangle after the move.
    pub rect: Rect,
    /// A solid tile stopped the horizontal part of the move.
    pub hit_x: bool,
    /// A solid tile stopped the vertical part of the move.
    pub hit_y: bool,
}

impl Tilemap {
    /// A map of `width × height` cells of `tile` pixels (width, height), with one layer, named
    /// `main`, of empty cells, and every tile's flags 0.
    ///
    /// # Errors
    /// [`TilemapError::Size`] for a side of 0 or more than [`MAX_MAP_CELLS`] cells;
    /// [`TilemapError::TileSize`] for a tile side of 0 or above 1024.
    pub fn new(width: u32, height: u32, tile: (u32, u32)) -> Result<Tilemap, TilemapError> {
        let cells = u64::from(width) * u64::from(height);
        if width == 0 || height == 0 || cells > MAX_MAP_CELLS {
            return Err(TilemapError::Size {
                width: width.into(),
                height: height.into(),
            });
        }
        if !(1..=1024).contains(&tile.0) || !(1..=1024).contains(&tile.1) {
            return Err(TilemapError::TileSize {
                width: tile.0,
                height: tile.1,
            });
        }
        Ok(Tilemap {
            width,
            height,
            tile,
            layers: vec![Layer {
                name: "main".into(),
                cells: Arc::new(vec![NO_TILE; cells as usize]),
            }],
            flags: Vec::new(),
        })
    }

    /// Adds a layer of empty cells after the others and returns its number.
    ///
    /// # Errors
    /// [`TilemapError::Layers`] past [`MAX_MAP_LAYERS`].
    pub fn add_layer(&mut self, name: &str) -> Result<usize, TilemapError> {
        if self.layers.len() >= MAX_MAP_LAYERS {
            return Err(TilemapError::Layers);
        }
        self.layers.push(Layer {
            name: name.into(),
            cells: Arc::new(vec![NO_TILE; self.layers[0].cells.len()]),
        });
        Ok(self.layers.len() - 1)
    }

    /// Renames layer `layer` (nothing happens past the last).
    pub fn rename_layer(&mut self, layer: usize, name: &str) {
        if let Some(l) = self.layers.get_mut(layer) {
            l.name = name.into();
        }
    }

    /// How many layers the map has (at least one).
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// The number of the first layer called `name`.
    pub fn layer_index(&self, name: &str) -> Option<usize> {
        self.layers.iter().position(|l| l.name == name)
    }

    /// The name of layer `layer`.
    pub fn layer_name(&self, layer: usize) -> Option<&str> {
        self.layers.get(layer).map(|l| l.name.as_str())
    }

    /// Width and height in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The tile size in pixels.
    pub fn tile_size(&self) -> (u32, u32) {
        self.tile
    }

    /// Width and height in pixels (at most `u32::MAX`): the size to give `clamp_camera`.
    pub fn pixel_size(&self) -> (u32, u32) {
        let w = u64::from(self.width) * u64::from(self.tile.0);
        let h = u64::from(self.height) * u64::from(self.tile.1);
        (
            u32::try_from(w).unwrap_or(u32::MAX),
            u32::try_from(h).unwrap_or(u32::MAX),
        )
    }

    fn at(&self, x: i32, y: i32) -> Option<usize> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }

    /// The tile at cell `(x, y)` of `layer`: `None` for an empty cell, a cell outside the map
    /// or a layer past the last (PICO-8's `mget`, Pyxel's `tilemap.pget`).
    pub fn tile(&self, layer: usize, x: i32, y: i32) -> Option<u16> {
        let i = self.at(x, y)?;
        let t = *self.layers.get(layer)?.cells.get(i)?;
        (t != NO_TILE).then_some(t)
    }

    /// Puts `tile` at cell `(x, y)` of `layer`, or empties the cell with `None` (PICO-8's
    /// `mset`). Outside the map, or for a layer past the last, nothing happens. `Some(NO_TILE)`
    /// empties the cell too.
    pub fn set_tile(&mut self, layer: usize, x: i32, y: i32, tile: Option<u16>) {
        let Some(i) = self.at(x, y) else { return };
        if let Some(l) = self.layers.get_mut(layer) {
            let tile = tile.unwrap_or(NO_TILE);
            if l.cells[i] != tile {
                Arc::make_mut(&mut l.cells)[i] = tile;
            }
        }
    }

    /// The cells of `layer`, row by row ([`NO_TILE`] for empty ones); empty past the last layer.
    pub fn cells(&self, layer: usize) -> &[u16] {
        self.layers.get(layer).map_or(&[], |l| &l.cells)
    }

    /// The flag bits of tile number `tile` (PICO-8's `fget(n)`); 0 until set.
    pub fn flags(&self, tile: u16) -> u8 {
        self.flags.get(usize::from(tile)).copied().unwrap_or(0)
    }

    /// Sets the flag bits of tile number `tile` (PICO-8's `fset(n, f)`). What a bit means is the
    /// cart's choice; [`Self::touches`] and [`Self::move_rect`] take the bits that mean solid.
    pub fn set_flags(&mut self, tile: u16, flags: u8) {
        let i = usize::from(tile);
        if i >= self.flags.len() {
            if flags == 0 {
                return;
            }
            self.flags.resize(i + 1, 0);
        }
        self.flags[i] = flags;
    }

    /// Whether the tile at cell `(x, y)` of `layer` has any of the flag bits of `mask`. Empty
    /// cells and cells outside the map have none.
    pub fn cell_has(&self, layer: usize, x: i32, y: i32, mask: u8) -> bool {
        self.tile(layer, x, y)
            .is_some_and(|t| self.flags(t) & mask != 0)
    }

    /// The cells a rectangle of world pixels touches, as a rectangle of cells cut to the map
    /// (empty when it misses the map or is empty itself).
    ///
    /// ```
    /// use bt::{Rect, Tilemap};
    ///
    /// let map = Tilemap::new(10, 10, (8, 8))?;
    /// assert_eq!(map.cells_touching(Rect::new(7, 8, 2, 9)), Rect::new(0, 1, 2, 2));
    /// assert_eq!(map.cells_touching(Rect::new(-20, -20, 8, 8)).w, 0);
    /// # Ok::<(), bt::TilemapError>(())
    /// ```
    pub fn cells_touching(&self, rect: Rect) -> Rect {
        if rect.w <= 0 || rect.h <= 0 {
            return Rect::default();
        }
        let (x0, y0, x1, y1) = rect.wide();
        let (tw, th) = (i64::from(self.tile.0), i64::from(self.tile.1));
        let cx0 = x0.div_euclid(tw).max(0);
        let cy0 = y0.div_euclid(th).max(0);
        let cx1 = (x1 - 1).div_euclid(tw).min(i64::from(self.width) - 1);
        let cy1 = (y1 - 1).div_euclid(th).min(i64::from(self.height) - 1);
        if cx0 > cx1 || cy0 > cy1 {
            return Rect::default();
        }
        Rect::new(
            cx0 as i32,
            cy0 as i32,
            (cx1 - cx0 + 1) as i32,
            (cy1 - cy0 + 1) as i32,
        )
    }

    /// Whether a rectangle of world pixels overlaps any tile of `layer` with a flag of `mask`
    /// (Pyxel's platformer `collide` test, PICO-8's `fget(mget(x, y), f)` over a box).
    pub fn touches(&self, layer: usize, rect: Rect, mask: u8) -> bool {
        let c = self.cells_touching(rect);
        (c.y..c.y + c.h).any(|y| (c.x..c.x + c.w).any(|x| self.cell_has(layer, x, y, mask)))
    }

    /// Moves `rect` by `by` pixels, first across then down, stopping it flush against the first
    /// tile of `layer` with a flag of `mask` in its way: the platformer's move. A part of the
    /// move that was cut short sets `hit_x` or `hit_y` (landing, a bump on the head, a wall).
    /// Only tiles the rectangle moves into stop it, so a rectangle already overlapping a solid
    /// tile can leave it; outside the map nothing is solid.
    pub fn move_rect(&self, layer: usize, rect: Rect, by: (i32, i32), mask: u8) -> Moved {
        let mut r = rect;
        let (x, hit_x) = self.slide(layer, r, by.0, mask, Axis::X);
        r.x = x;
        let (y, hit_y) = self.slide(layer, r, by.1, mask, Axis::Y);
        r.y = y;
        Moved {
            rect: r,
            hit_x,
            hit_y,
        }
    }

    /// As [`Tilemap::move_rect`], moving along the longer of the two axes first (across first
    /// when they are equal): the order of Pyxel's `Tilemap.collide`, for a port that must land
    /// where Pyxel lands. `move_rect` (across, then down) is the order PICO-8 platformers
    /// usually write by hand, and the one a fall that grazes a wall needs to slide along it;
    /// the two differ only when both parts of a move are cut short by different tiles.
    ///
    /// ```
    /// use bt::{Rect, Tilemap};
    ///
    /// // A wall tile at (1, 1), 8-px tiles; an 8 × 8 box at (0, 0) moving 4 right, 12 down.
    /// let mut map = Tilemap::new(4, 4, (8, 8))?;
    /// map.set_tile(0, 1, 1, Some(1));
    /// map.set_flags(1, 1);
    /// let across_first = map.move_rect(0, Rect::new(0, 0, 8, 8), (4, 12), 1);
    /// let longer_first = map.move_rect_longer_first(0, Rect::new(0, 0, 8, 8), (4, 12), 1);
    /// // Across first, the box reaches over the wall's column and lands on the wall: (4, 0).
    /// // Down first, it drops past the wall, which then stops it moving across: (0, 12).
    /// assert_eq!((across_first.rect.x, across_first.rect.y), (4, 0));
    /// assert!(across_first.hit_y && !across_first.hit_x);
    /// assert_eq!((longer_first.rect.x, longer_first.rect.y), (0, 12));
    /// assert!(longer_first.hit_x && !longer_first.hit_y);
    /// # Ok::<(), bt::TilemapError>(())
    /// ```
    pub fn move_rect_longer_first(
        &self,
        layer: usize,
        rect: Rect,
        by: (i32, i32),
        mask: u8,
    ) -> Moved {
        if by.1.unsigned_abs() <= by.0.unsigned_abs() {
            return self.move_rect(layer, rect, by, mask);
        }
        let mut r = rect;
        let (y, hit_y) = self.slide(layer, r, by.1, mask, Axis::Y);
        r.y = y;
        let (x, hit_x) = self.slide(layer, r, by.0, mask, Axis::X);
        r.x = x;
        Moved {
            rect: r,
            hit_x,
            hit_y,
        }
    }

    /// Where `rect` ends moving `by` along `axis`, and whether it was stopped.
    fn slide(&self, layer: usize, rect: Rect, by: i32, mask: u8, axis: Axis) -> (i32, bool) {
        // The moving axis, and across it: (start, length, tile side, cells).
        let (pos, size, tile, cells, cross) = match axis {
            Axis::X => (
                rect.x,
                rect.w,
                self.tile.0,
                self.width,
                (rect.y, rect.h, self.tile.1, self.height),
            ),
            Axis::Y => (
                rect.y,
                rect.h,
                self.tile.1,
                self.height,
                (rect.x, rect.w, self.tile.0, self.width),
            ),
        };
        let moved = pos.saturating_add(by);
        if by == 0 || size <= 0 || rect.w <= 0 || rect.h <= 0 {
            return (moved, false);
        }
        let (p, s, t, by) = (
            i64::from(pos),
            i64::from(size),
            i64::from(tile),
            i64::from(by),
        );
        // The cells across the move: rows for a move across, columns for a move down.
        let (c0, c1) = {
            let (a, len, ct) = (i64::from(cross.0), i64::from(cross.1), i64::from(cross.2));
            if len <= 0 {
                return (moved, false);
            }
            (a.div_euclid(ct), (a + len - 1).div_euclid(ct))
        };
        let last = i64::from(cells) - 1;
        let (c0, c1) = (c0.max(0), c1.min(i64::from(cross.3) - 1));
        let solid = |line: i64| {
            (c0..=c1).any(|c| {
                let (x, y) = match axis {
                    Axis::X => (line, c),
                    Axis::Y => (c, line),
                };
                self.cell_has(layer, x as i32, y as i32, mask)
            })
        };
        if by > 0 {
            // The lines the leading edge enters, nearest first, within the map.
            let from = ((p + s - 1).div_euclid(t) + 1).max(0);
            let to = (p + s - 1 + by).div_euclid(t).min(last);
            for line in from..=to {
                if solid(line) {
                    return (clamp_i32(line * t - s), true);
                }
            }
        } else {
            let from = (p.div_euclid(t) - 1).min(last);
            let to = (p + by).div_euclid(t).max(0);
            let mut line = from;
            while line >= to {
                if solid(line) {
                    return (clamp_i32((line + 1) * t), true);
                }
                line -= 1;
            }
        }
        (moved, false)
    }
}

#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLID: u8 = 1;

    /// A 10 × 10 map of 8 px tiles: a floor on row 9, a wall at column 6 above it.
    fn room() -> Tilemap {
        let mut m = Tilemap::new(10, 10, (8, 8)).unwrap();
        for x in 0..10 {
            m.set_tile(0, x, 9, Some(1));
        }
        for y in 0..9 {
            m.set_tile(0, 6, y, Some(2));
        }
        m.set_flags(1, SOLID);
        m.set_flags(2, SOLID | 2);
        m
    }

    #[test]
    fn bad_sizes_are_refused_with_the_size() {
        assert_eq!(
            Tilemap::new(0, 5, (8, 8)).unwrap_err().to_string(),
            "a map of 0x5 cells; each side must be at least 1 and the map at most 4194304 cells"
        );
        assert!(Tilemap::new(4096, 4096, (8, 8)).is_err());
        assert!(matches!(
            Tilemap::new(4, 4, (0, 8)),
            Err(TilemapError::TileSize {
                width: 0,
                height: 8
            })
        ));
    }

    #[test]
    fn get_and_set_ignore_cells_outside_and_layers_past_the_last() {
        let mut m = Tilemap::new(3, 2, (8, 8)).unwrap();
        m.set_tile(0, -1, 0, Some(4));
        m.set_tile(0, 3, 0, Some(4));
        m.set_tile(5, 0, 0, Some(4));
        assert!(m.cells(0).iter().all(|&c| c == NO_TILE));
        m.set_tile(0, 2, 1, Some(4));
        assert_eq!(m.tile(0, 2, 1), Some(4));
        assert_eq!(m.cells(0)[5], 4);
        m.set_tile(0, 2, 1, Some(NO_TILE));
        assert_eq!(m.tile(0, 2, 1), None);
        assert_eq!(m.tile(0, i32::MIN, i32::MAX), None);
        let top = m.add_layer("top").unwrap();
        assert_eq!(
            (top, m.layer_index("top"), m.layer_name(0)),
            (1, Some(1), Some("main"))
        );
        m.set_tile(top, 0, 0, Some(9));
        assert_eq!((m.tile(0, 0, 0), m.tile(1, 0, 0)), (None, Some(9)));
        assert!(m.cells(7).is_empty());
    }

    #[test]
    fn flags_are_per_tile_number() {
        let m = room();
        assert_eq!(
            (m.flags(1), m.flags(2), m.flags(3), m.flags(NO_TILE)),
            (1, 3, 0, 0)
        );
        assert!(m.cell_has(0, 6, 0, 2));
        assert!(!m.cell_has(0, 5, 9, 2));
    }

    #[test]
    fn falling_lands_flush_on_the_floor_and_reports_it() {
        let m = room();
        let moved = m.move_rect(0, Rect::new(10, 40, 8, 8), (0, 100), SOLID);
        assert_eq!(moved.rect, Rect::new(10, 64, 8, 8));
        assert!(moved.hit_y && !moved.hit_x);
        // Standing on it: a further fall does not move, and is still a hit.
        let again = m.move_rect(0, moved.rect, (0, 1), SOLID);
        assert_eq!((again.rect, again.hit_y), (moved.rect, true));
    }

    #[test]
    fn walking_stops_at_walls_in_both_directions() {
        let m = room();
        let right = m.move_rect(0, Rect::new(30, 60, 6, 4), (20, 0), SOLID);
        assert_eq!((right.rect.x, right.hit_x), (42, true), "flush with x = 48");
        let left = m.move_rect(0, Rect::new(60, 60, 6, 4), (-20, 0), SOLID);
        assert_eq!((left.rect.x, left.hit_x), (56, true));
        let free = m.move_rect(0, Rect::new(0, 60, 6, 4), (5, 0), SOLID);
        assert_eq!((free.rect.x, free.hit_x), (5, false));
        // A mask the wall does not have lets it through.
        let ghost = m.move_rect(0, Rect::new(30, 60, 6, 4), (20, 0), 4);
        assert_eq!((ghost.rect.x, ghost.hit_x), (50, false));
    }

    #[test]
    fn a_move_across_then_down_slides_along_walls() {
        let m = room();
        let r = m.move_rect(0, Rect::new(40, 40, 6, 6), (10, 30), SOLID);
        assert_eq!(r.rect, Rect::new(42, 66, 6, 6));
        assert!(r.hit_x && r.hit_y);
    }

    #[test]
    fn moves_outside_the_map_and_huge_moves_are_safe() {
        let m = room();
        let r = m.move_rect(0, Rect::new(-100, -100, 4, 4), (-50, -50), SOLID);
        assert_eq!(r.rect, Rect::new(-150, -150, 4, 4));
        let r = m.move_rect(0, Rect::new(0, 0, 4, 4), (0, i32::MAX), SOLID);
        assert_eq!((r.rect.y, r.hit_y), (68, true));
        let r = m.move_rect(0, Rect::new(i32::MAX - 4, 0, 4, 4), (i32::MAX, 0), SOLID);
        assert_eq!(r.rect.x, i32::MAX);
        let r = m.move_rect(0, Rect::new(0, 0, 0, 4), (9, 0), SOLID);
        assert_eq!(r.rect.x, 9, "an empty rectangle hits nothing");
    }

    #[test]
    fn a_wide_map_stops_falls_in_columns_past_its_height() {
        // 40 columns, 4 rows: a floor under column 30 must still stop a fall.
        let mut m = Tilemap::new(40, 4, (8, 8)).unwrap();
        m.set_tile(0, 30, 3, Some(1));
        m.set_flags(1, SOLID);
        let r = m.move_rect(0, Rect::new(241, 0, 6, 8), (0, 30), SOLID);
        assert_eq!((r.rect.y, r.hit_y), (16, true));
        let mut tall = Tilemap::new(4, 40, (8, 8)).unwrap();
        tall.set_tile(0, 3, 30, Some(1));
        tall.set_flags(1, SOLID);
        let r = tall.move_rect(0, Rect::new(0, 241, 8, 6), (30, 0), SOLID);
        assert_eq!((r.rect.x, r.hit_x), (16, true));
    }

    #[test]
    fn touching_counts_every_cell_under_the_rectangle() {
        let m = room();
        assert!(m.touches(0, Rect::new(47, 0, 2, 2), SOLID));
        assert!(!m.touches(0, Rect::new(40, 0, 8, 71), SOLID));
        assert!(m.touches(0, Rect::new(40, 0, 8, 73), SOLID));
        assert_eq!(
            m.cells_touching(Rect::new(75, 75, 100, 100)),
            Rect::new(9, 9, 1, 1)
        );
    }
}
