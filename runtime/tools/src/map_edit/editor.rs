//! The editor cart: its state, its tools and edits, saves and undo, and its `update`.

use bt::{Button, Cart, CartError, Key, Player, Rect, Render, Settings, SpriteSheet, Update};

use crate::edit::SaveTarget;
use crate::tiled_doc::{TiledDoc, FLIP_BITS};

use super::history::{Change, History};

/// The editor's display: wide enough for the map, the palette beside it and the minimap.
pub const DISPLAY: (u32, u32) = (320, 200);
/// Where the map shows: below the top bar, left of the palette, above the status line.
pub(super) const MAP_VIEW: Rect = Rect::new(0, 9, 240, 182);
/// The palette: the tileset's tiles at 1x, ten a row.
pub(super) const PALETTE: Rect = Rect::new(240, 9, 80, 120);
/// The minimap, under the palette.
pub(super) const MINIMAP: Rect = Rect::new(240, 131, 80, 60);
/// The highest zoom: 4x makes an 8-pixel tile 32 pixels, a seventh of the view.
const MAX_ZOOM: u32 = 4;
/// Tiles a row in the palette (at most; wide tiles fewer).
pub(super) const PALETTE_COLUMNS: u32 = 10;

/// What a click or Space does on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Sets the cell to the chosen tile.
    Paint,
    /// Sets the area of one tile around the cell.
    Fill,
    /// Sets a rectangle of cells.
    Rectangle,
    /// Selects a rectangle of cells, to copy, cut, paste and flip.
    Select,
}

/// The map editor.
pub struct MapEditor {
    pub(super) doc: TiledDoc,
    /// A tileset file the map names, for the tiles' flags.
    pub(super) tileset: Option<TiledDoc>,
    target: Box<dyn SaveTarget>,
    /// The tileset's picture, as the platform read it: decoded at `init`.
    picture: Option<(String, Vec<u8>)>,
    pub(super) sheet: Option<SpriteSheet>,
    history: History,
    /// The changes of the gesture under way (a drag of the paint tool), one undo step.
    stroke: Vec<Change>,
    dirty: bool,
    pub(super) tool: Tool,
    pub(super) layer: usize,
    /// Layers hidden in the editor's view only.
    pub(super) hidden: Vec<bool>,
    /// The view's top-left cell, and the zoom.
    pub(super) view: (i32, i32),
    pub(super) zoom: u32,
    pub(super) cursor: (i32, i32),
    /// The chosen tile: its index in the sheet, `None` for the empty cell.
    pub(super) tile: Option<u32>,
    /// The corner a rectangle or selection started at.
    pub(super) anchor: Option<(i32, i32)>,
    /// The selection: two corners, inclusive.
    pub(super) selection: Option<((i32, i32), (i32, i32))>,
    clipboard: (u32, u32, Vec<u32>),
    pub(super) show_flags: bool,
    pub(super) help: bool,
    pub(super) status: String,
    pub(super) pointer: (i32, i32),
}

impl MapEditor {
    /// An editor of `doc`, its tileset file's document in `tileset` when it names one,
    /// saving to `target`. The tiles draw as numbered squares until
    /// [`MapEditor::with_picture`] gives the tileset's picture.
    pub fn new(doc: TiledDoc, tileset: Option<TiledDoc>, target: Box<dyn SaveTarget>) -> MapEditor {
        let layers = doc.layers().len();
        let status = doc
            .read_only()
            .map(|r| format!("read-only: {r}"))
            .unwrap_or_default();
        MapEditor {
            doc,
            tileset,
            target,
            picture: None,
            sheet: None,
            history: History::default(),
            stroke: Vec::new(),
            dirty: false,
            tool: Tool::Paint,
            layer: 0,
            hidden: vec![false; layers],
            view: (0, 0),
            zoom: 1,
            cursor: (0, 0),
            tile: Some(0),
            anchor: None,
            selection: None,
            clipboard: (0, 0, Vec::new()),
            show_flags: false,
            help: false,
            status,
            pointer: (0, 0),
        }
    }

    /// The editor with the tileset's picture, a PNG file's `bytes` (`name` for errors).
    pub fn with_picture(mut self, name: &str, bytes: Vec<u8>) -> MapEditor {
        self.picture = Some((name.to_string(), bytes));
        self
    }

    /// The console the editor runs on: its display, whatever the map.
    pub fn settings() -> Settings {
        let (w, h) = DISPLAY;
        Settings::default().display(w, h).title("BT map editor")
    }

    /// The document being edited.
    pub fn doc(&self) -> &TiledDoc {
        &self.doc
    }

    /// Whether there are edits not saved.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// The tileset's first global id (1 when the map has none).
    pub(super) fn first_gid(&self) -> u32 {
        self.doc.tilesets().first().map_or(1, |t| t.first_gid)
    }

    /// How many tiles the palette offers.
    pub(super) fn tile_count(&self) -> u32 {
        let ts = self.doc.tilesets().first();
        let from_file = self.tileset.as_ref().and_then(|t| t.tilesets().first());
        ts.and_then(|t| t.tile_count)
            .or_else(|| from_file.and_then(|t| t.tile_count))
            .or_else(|| self.sheet.as_ref().map(SpriteSheet::tile_count))
            .unwrap_or(16)
    }

    /// The flags of sheet tile `tile`, from the tileset wherever it is kept.
    pub(super) fn flags(&self, tile: u32) -> u8 {
        match &self.tileset {
            Some(t) => t.tile_flags(tile),
            None => self.doc.tile_flags(tile),
        }
    }

    fn say(&mut self, message: String) {
        self.status = message;
    }

    /// The cell under display point (`x`, `y`) in the map view.
    pub(super) fn cell_at(&self, x: i32, y: i32) -> (i32, i32) {
        let (tw, th) = self.cell_pixels();
        (
            self.view.0 + (x - MAP_VIEW.x).div_euclid(tw),
            self.view.1 + (y - MAP_VIEW.y).div_euclid(th),
        )
    }

    /// A cell's size on the display.
    pub(super) fn cell_pixels(&self) -> (i32, i32) {
        let (tw, th) = self.doc.tile_size();
        (
            (tw.max(1) * self.zoom) as i32,
            (th.max(1) * self.zoom) as i32,
        )
    }

    /// Cells the view shows across and down.
    pub(super) fn view_cells(&self) -> (i32, i32) {
        let (tw, th) = self.cell_pixels();
        (MAP_VIEW.w / tw, MAP_VIEW.h / th)
    }

    fn gid(&self) -> u32 {
        self.tile.map_or(0, |t| t + self.first_gid())
    }

    /// Sets one cell of the current layer, the change joining the stroke under way.
    fn set(&mut self, x: i32, y: i32, gid: u32) {
        let layer = self.layer;
        let Some(l) = self.doc.layer_mut(layer) else {
            return;
        };
        let Some(before) = l.cell(x, y) else { return };
        if before == gid {
            return;
        }
        l.set_cell(x, y, gid);
        let index = y as usize * l.size().0 as usize + x as usize;
        self.stroke.push(Change {
            layer,
            index,
            before,
            after: gid,
        });
    }

    /// Ends the stroke under way: its changes become one undo step.
    fn end_stroke(&mut self) {
        if !self.stroke.is_empty() {
            self.history.record(std::mem::take(&mut self.stroke));
            self.dirty = true;
        }
    }

    fn writable(&mut self) -> bool {
        if let Some(reason) = self.doc.read_only() {
            self.status = format!("read-only: {reason}");
            return false;
        }
        true
    }

    fn fill(&mut self, x: i32, y: i32) {
        let gid = self.gid();
        let Some(layer) = self.doc.layers().get(self.layer) else {
            return;
        };
        let Some(from) = layer.cell(x, y) else { return };
        if from == gid {
            return;
        }
        let mut pending = vec![(x, y)];
        while let Some((x, y)) = pending.pop() {
            if self.doc.layers()[self.layer].cell(x, y) != Some(from) {
                continue;
            }
            self.set(x, y, gid);
            pending.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
        }
    }

    fn rectangle(&mut self, a: (i32, i32), b: (i32, i32)) {
        let gid = self.gid();
        for y in a.1.min(b.1)..=a.1.max(b.1) {
            for x in a.0.min(b.0)..=a.0.max(b.0) {
                self.set(x, y, gid);
            }
        }
    }

    /// The selection's corners, top-left and bottom-right, inside the map.
    fn selected(&self) -> Option<((i32, i32), (i32, i32))> {
        let (a, b) = self.selection?;
        let (w, h) = self.doc.size();
        let lo = (a.0.min(b.0).max(0), a.1.min(b.1).max(0));
        let hi = (
            a.0.max(b.0).min(w as i32 - 1),
            a.1.max(b.1).min(h as i32 - 1),
        );
        (lo.0 <= hi.0 && lo.1 <= hi.1).then_some((lo, hi))
    }

    fn copy(&mut self) -> bool {
        let Some((lo, hi)) = self.selected() else {
            self.say("select cells first (S, then drag)".into());
            return false;
        };
        let layer = &self.doc.layers()[self.layer];
        let cells = (lo.1..=hi.1)
            .flat_map(|y| (lo.0..=hi.0).map(move |x| (x, y)))
            .map(|(x, y)| layer.cell(x, y).unwrap_or(0))
            .collect();
        self.clipboard = ((hi.0 - lo.0 + 1) as u32, (hi.1 - lo.1 + 1) as u32, cells);
        true
    }

    fn paste(&mut self) {
        let (w, h, cells) = std::mem::take(&mut self.clipboard);
        let (cx, cy) = self.cursor;
        for (i, &gid) in cells.iter().enumerate() {
            let (x, y) = ((i as u32 % w.max(1)) as i32, (i as u32 / w.max(1)) as i32);
            self.set(cx + x, cy + y, gid);
        }
        self.selection = Some(((cx, cy), (cx + w as i32 - 1, cy + h as i32 - 1)));
        self.clipboard = (w, h, cells);
        self.end_stroke();
    }

    /// Mirrors the selection's content: left to right, or top to bottom. The tiles move; no
    /// cell gets Tiled's flip bits (BT reads no flipped tiles).
    fn flip(&mut self, top_to_bottom: bool) {
        let Some((lo, hi)) = self.selected() else {
            self.say("select cells first (S, then drag)".into());
            return;
        };
        let layer = &self.doc.layers()[self.layer];
        let mut moves = Vec::new();
        for y in lo.1..=hi.1 {
            for x in lo.0..=hi.0 {
                let (sx, sy) = if top_to_bottom {
                    (x, lo.1 + hi.1 - y)
                } else {
                    (lo.0 + hi.0 - x, y)
                };
                moves.push((x, y, layer.cell(sx, sy).unwrap_or(0)));
            }
        }
        for (x, y, gid) in moves {
            self.set(x, y, gid);
        }
        self.end_stroke();
    }

    fn undo(&mut self, redo: bool) {
        let step = if redo {
            self.history.redo()
        } else {
            self.history.undo()
        };
        let Some(step) = step else {
            self.say(
                if redo {
                    "nothing to redo"
                } else {
                    "nothing to undo"
                }
                .into(),
            );
            return;
        };
        let step = step.to_vec();
        for c in step.iter().rev() {
            if let Some(l) = self.doc.layer_mut(c.layer) {
                let w = l.size().0.max(1) as usize;
                let value = if redo { c.after } else { c.before };
                l.set_cell((c.index % w) as i32, (c.index / w) as i32, value);
            }
        }
        self.dirty = true;
        self.say(if redo { "redone" } else { "undone" }.into());
    }

    fn save(&mut self) {
        match self.doc.to_bytes() {
            Ok(bytes) => match self.target.save(&bytes) {
                Ok(()) => {
                    if let Err(e) = self.doc.saved() {
                        self.say(e.to_string());
                        return;
                    }
                    self.dirty = false;
                    self.say(format!("saved {}", self.doc.name()));
                }
                Err(e) => self.say(e),
            },
            Err(e) => self.say(e.to_string()),
        }
    }

    /// Moves the view so the cursor shows.
    fn follow(&mut self) {
        let (w, h) = self.doc.size();
        self.cursor.0 = self.cursor.0.clamp(0, w as i32 - 1);
        self.cursor.1 = self.cursor.1.clamp(0, h as i32 - 1);
        let (vw, vh) = self.view_cells();
        if self.cursor.0 < self.view.0 {
            self.view.0 = self.cursor.0;
        }
        if self.cursor.1 < self.view.1 {
            self.view.1 = self.cursor.1;
        }
        if self.cursor.0 >= self.view.0 + vw {
            self.view.0 = self.cursor.0 - vw + 1;
        }
        if self.cursor.1 >= self.view.1 + vh {
            self.view.1 = self.cursor.1 - vh + 1;
        }
        self.clamp_view();
    }

    fn clamp_view(&mut self) {
        let (w, h) = self.doc.size();
        let (vw, vh) = self.view_cells();
        self.view.0 = self.view.0.clamp(0, (w as i32 - vw).max(0));
        self.view.1 = self.view.1.clamp(0, (h as i32 - vh).max(0));
    }

    /// The tool acts on `cell`: `press` on the first update of a click or on Space.
    fn act(&mut self, cell: (i32, i32), press: bool, keyboard: bool) {
        match self.tool {
            Tool::Paint => {
                if !self.writable() {
                    return;
                }
                self.set(cell.0, cell.1, self.gid());
            }
            Tool::Fill if press => {
                if !self.writable() {
                    return;
                }
                self.fill(cell.0, cell.1);
                self.end_stroke();
            }
            Tool::Rectangle | Tool::Select if press => match self.anchor {
                Some(a) if keyboard => self.finish_drag(a, cell),
                _ => {
                    self.anchor = Some(cell);
                    if self.tool == Tool::Select {
                        self.selection = Some((cell, cell));
                    }
                }
            },
            Tool::Select => {
                if let Some(a) = self.anchor {
                    self.selection = Some((a, cell));
                }
            }
            _ => {}
        }
    }

    fn finish_drag(&mut self, a: (i32, i32), b: (i32, i32)) {
        self.anchor = None;
        match self.tool {
            Tool::Rectangle => {
                if !self.writable() {
                    return;
                }
                self.rectangle(a, b);
                self.end_stroke();
            }
            Tool::Select => self.selection = Some((a, b)),
            _ => {}
        }
    }

    fn pointer(&mut self, ctx: &Update<'_>) {
        self.pointer = ctx.pointer_pos();
        let (px, py) = self.pointer;
        let pressed = ctx.is_pressed(Button::POINTER_A, Player::ONE);
        let down = ctx.is_down(Button::POINTER_A, Player::ONE);
        let released = ctx.is_released(Button::POINTER_A, Player::ONE);
        if MAP_VIEW.contains(px, py) {
            let cell = self.cell_at(px, py);
            if down || pressed {
                self.cursor = cell;
                self.act(cell, pressed, false);
            }
            if released {
                if let Some(a) = self.anchor {
                    self.finish_drag(a, cell);
                }
            }
        } else if pressed && PALETTE.contains(px, py) {
            let (tw, th) = self.doc.tile_size();
            let columns = PALETTE_COLUMNS.min(PALETTE.w as u32 / tw.max(1)).max(1);
            let (c, r) = (
                (px - PALETTE.x) as u32 / tw.max(1),
                (py - PALETTE.y) as u32 / th.max(1),
            );
            let t = r * columns + c;
            if c < columns && t < self.tile_count() {
                self.tile = Some(t);
            }
        } else if down && MINIMAP.contains(px, py) {
            let (w, h) = self.doc.size();
            let step = minimap_step(self.doc.size());
            let (vw, vh) = self.view_cells();
            let cx = ((px - MINIMAP.x) * step).min(w as i32 - 1);
            let cy = ((py - MINIMAP.y) * step).min(h as i32 - 1);
            self.view = (cx - vw / 2, cy - vh / 2);
            self.clamp_view();
        }
        if released {
            self.anchor = self.anchor.filter(|_| self.tool == Tool::Rectangle && down);
            self.end_stroke();
        }
        let (wx, wy) = ctx.pointer_wheel();
        let shift = modifier(ctx, [Key::ShiftLeft, Key::ShiftRight]);
        let (dx, dy) = if shift { (wy, wx) } else { (wx, wy) };
        if dx != 0.0 || dy != 0.0 {
            self.view.0 -= (dx * 2.0) as i32;
            self.view.1 -= (dy * 2.0) as i32;
            self.clamp_view();
        }
    }
}

/// Cells a minimap pixel stands for, so the whole map fits.
pub(super) fn minimap_step((w, h): (u32, u32)) -> i32 {
    let across = w.div_ceil(MINIMAP.w as u32);
    let down = h.div_ceil(MINIMAP.h as u32);
    across.max(down).max(1) as i32
}

fn modifier(ctx: &Update<'_>, keys: [Key; 2]) -> bool {
    keys.iter().any(|&k| ctx.is_key_down(k))
}

impl Cart for MapEditor {
    fn configure(&self) -> Settings {
        MapEditor::settings()
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        if let Some((name, bytes)) = self.picture.take() {
            let (tw, th) = self.doc.tile_size();
            match ctx.decode_image(&name, &bytes, 16) {
                Ok(sheet) => self.sheet = Some(sheet.with_tile_size(tw, th)),
                Err(e) => self.say(e.to_string()),
            }
        }
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let ctrl = modifier(ctx, [Key::ControlLeft, Key::ControlRight]);
        let shift = modifier(ctx, [Key::ShiftLeft, Key::ShiftRight]);
        let pressed = |k| ctx.is_key_pressed(k);
        if pressed(Key::F1) {
            self.help = !self.help;
        }
        if ctrl {
            if pressed(Key::KeyS) {
                self.save();
            } else if pressed(Key::KeyZ) {
                self.undo(shift);
            } else if pressed(Key::KeyY) {
                self.undo(true);
            } else if pressed(Key::KeyC) {
                if self.copy() {
                    self.say("copied".into());
                }
            } else if pressed(Key::KeyX) {
                if self.writable() && self.copy() {
                    if let Some((lo, hi)) = self.selected() {
                        let tile = self.tile.take();
                        self.rectangle(lo, hi);
                        self.tile = tile;
                        self.end_stroke();
                    }
                }
            } else if pressed(Key::KeyV) && self.writable() {
                self.paste();
            }
        } else {
            let tool = [
                (Key::KeyP, Tool::Paint),
                (Key::KeyF, Tool::Fill),
                (Key::KeyR, Tool::Rectangle),
                (Key::KeyS, Tool::Select),
            ];
            for (key, t) in tool {
                if pressed(key) {
                    self.tool = t;
                    self.anchor = None;
                }
            }
            let layers = self.doc.layers().len().max(1);
            if pressed(Key::Tab) {
                self.layer = if shift {
                    (self.layer + layers - 1) % layers
                } else {
                    (self.layer + 1) % layers
                };
            }
            if pressed(Key::KeyV) {
                if shift {
                    if self.writable() {
                        if let Some(l) = self.doc.layer_mut(self.layer) {
                            let v = !l.visible();
                            l.set_visible(v);
                            self.dirty = true;
                        }
                    }
                } else if let Some(h) = self.hidden.get_mut(self.layer) {
                    *h = !*h;
                }
            }
            if pressed(Key::KeyG) {
                self.show_flags = !self.show_flags;
            }
            if pressed(Key::KeyH) && self.writable() {
                self.flip(shift);
            }
            if pressed(Key::Equal) {
                self.zoom = (self.zoom + 1).min(MAX_ZOOM);
                self.follow();
            }
            if pressed(Key::Minus) {
                self.zoom = (self.zoom - 1).max(1);
                self.clamp_view();
            }
            let count = self.tile_count().max(1);
            if pressed(Key::Comma) {
                self.tile = Some(self.tile.map_or(count - 1, |t| (t + count - 1) % count));
            }
            if pressed(Key::Period) {
                self.tile = Some(self.tile.map_or(0, |t| (t + 1) % count));
            }
            if pressed(Key::Delete) || pressed(Key::Backspace) {
                self.tile = None;
            }
            let moves = [
                (Key::ArrowLeft, (-1, 0)),
                (Key::ArrowRight, (1, 0)),
                (Key::ArrowUp, (0, -1)),
                (Key::ArrowDown, (0, 1)),
            ];
            for (key, (dx, dy)) in moves {
                if pressed(key) {
                    if shift {
                        let (vw, vh) = self.view_cells();
                        self.view.0 += dx * (vw / 4).max(1);
                        self.view.1 += dy * (vh / 4).max(1);
                        self.clamp_view();
                    } else {
                        self.cursor.0 += dx;
                        self.cursor.1 += dy;
                        self.follow();
                        if self.anchor.is_some() && self.tool == Tool::Select {
                            self.act(self.cursor, false, true);
                        }
                    }
                }
            }
            if pressed(Key::Space) {
                let cell = self.cursor;
                self.act(cell, true, true);
                self.end_stroke();
            }
        }
        self.pointer(ctx);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        super::draw::draw(self, ctx);
    }
}

/// The empty cell and the tile ids of a cell: `None` for empty, else the sheet tile and
/// Tiled's flip bits.
pub(super) fn tile_of(gid: u32, first_gid: u32) -> Option<(u32, u32)> {
    let id = gid & !FLIP_BITS;
    (id != 0)
        .then(|| id.checked_sub(first_gid))
        .flatten()
        .map(|t| (t, gid & FLIP_BITS))
}

impl std::fmt::Debug for MapEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapEditor")
            .field("doc", &self.doc.name())
            .field("tool", &self.tool)
            .field("layer", &self.layer)
            .finish_non_exhaustive()
    }
}
