//! The editor cart: its open sheets, tools, selection, clipboard, undo and saves, and its
//! `update` (keys and the pointer). It draws in [`super::draw`].

use bt::ui::Ui;
use bt::{Button, Cart, Color32, Key, Palette, Player, Render, Settings, Update};

use crate::edit::SaveTarget;

use super::history::{Area, Change, History, Step};
use super::layout::{
    self, CANVAS, MAX_SELECTION, SCROLL_ACROSS, SCROLL_DOWN, SHEET, SIDE_X, SWATCHES_SHOWN,
    WHEEL_STEP,
};
use super::paint::{self, Turn};
use super::sheet::nearest;
use super::Sheet;

/// Every key the editor knows and what it does, in the order the help screen shows them.
pub const KEYS: &[(&str, &str)] = &[
    ("B", "pencil"),
    ("F", "fill"),
    ("L", "line"),
    ("R", "rectangle; again: filled"),
    ("E", "ellipse; again: filled"),
    ("I", "eyedropper (or the right button)"),
    ("M", "select; drag inside it to move"),
    ("Ctrl+A", "select the whole sprite"),
    ("Escape", "drop the selection; close help"),
    ("Ctrl+C", "copy the selection (or sprite)"),
    ("Ctrl+X", "cut: copy, then clear to 0"),
    ("Ctrl+V", "paste at the selection or sprite"),
    ("Delete", "clear the selection to colour 0"),
    ("H", "flip left to right"),
    ("V", "flip top to bottom"),
    ("T", "quarter-turn clockwise (square)"),
    ("Shift+arrows", "shift the pixels by one, wrapping"),
    ("Arrows", "the next sprite that way"),
    ("1 2 3", "sprites of 8x8, 16x16, 32x32"),
    ("Shift+1..8", "toggle the sprite's flag 0..7"),
    ("[ ]", "previous, next colour"),
    ("Tab", "next sheet (Shift: previous)"),
    ("P", "animation preview on or off"),
    (", .", "fewer, more frames in the preview"),
    ("- =", "slower, faster preview"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Y", "redo (also Ctrl+Shift+Z)"),
    ("Ctrl+S", "save every changed sheet"),
    ("? or /", "this help; again: its next page"),
    ("Left drag", "draw on the canvas; pick a sprite"),
    ("Sheet drag", "a free selection of the sheet"),
    ("Wheel", "previous, next colour"),
    ("Sheet wheel", "scroll the sheet (Shift: across)"),
];

/// The tools, as the tool tabs show them: the tool and its name. A filled rectangle or
/// ellipse is its outline's tab with the Filled box ticked.
pub const TOOLS: [(Tool, &str); 7] = [
    (Tool::Pencil, "Pencil"),
    (Tool::Fill, "Fill"),
    (Tool::Line, "Line"),
    (Tool::Rect, "Rect"),
    (Tool::Ellipse, "Ellipse"),
    (Tool::Pick, "Pick"),
    (Tool::Select, "Select"),
];

/// What a press on the canvas does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Draws pixels under the pointer.
    Pencil,
    /// Fills the joined pixels of one colour.
    Fill,
    /// A line from the press to the release.
    Line,
    /// A rectangle's outline.
    Rect,
    /// A filled rectangle.
    RectFill,
    /// An ellipse's outline.
    Ellipse,
    /// A filled ellipse.
    EllipseFill,
    /// Takes the colour under the pointer.
    Pick,
    /// Selects a rectangle; a drag inside the selection moves its pixels.
    Select,
}

/// Where the flags of a sheet's sprites are saved: a tileset whose picture is the sheet.
pub trait FlagStore {
    /// Writes `flags`, one a sprite by its tile id.
    ///
    /// # Errors
    /// One line naming the file and what went wrong.
    fn save(&mut self, flags: &[u8]) -> Result<(), String>;
}

/// The flags of a sheet's sprites: one byte a tile of the tileset's size, and where they go.
struct Flags {
    values: Vec<u8>,
    saved: Vec<u8>,
    /// The tileset's tile size, which the flags' numbers count in.
    tile: (i32, i32),
    store: Option<Box<dyn FlagStore>>,
}

/// One open sheet: the file, where it saves, its flags and what is selected on it.
pub struct SheetTab {
    pub(super) sheet: Sheet,
    target: Box<dyn SaveTarget>,
    flags: Flags,
    /// The sprite shown on the canvas (a cell of the grid, or a free selection).
    pub(super) sprite: Area,
    /// A selection inside the sprite.
    pub(super) marquee: Option<Area>,
    pub(super) color: u8,
    /// The sheet's pixel at the sheet view's top-left corner.
    pub(super) scroll: (i32, i32),
}

impl SheetTab {
    /// `sheet`, saving to `target`, its flags kept in memory only until
    /// [`SheetTab::with_flags`] gives them a home.
    pub fn new(sheet: Sheet, target: Box<dyn SaveTarget>) -> SheetTab {
        let tiles = (sheet.width() as usize / 8) * (sheet.height() as usize / 8);
        let sprite = Area::new(
            0,
            0,
            8.min(sheet.width() as i32),
            8.min(sheet.height() as i32),
        );
        // Colour 1 to draw with, unless the palette is a single colour.
        let color = 1.min(sheet.colors().len() - 1) as u8;
        SheetTab {
            sheet,
            target,
            flags: Flags {
                values: vec![0; tiles],
                saved: vec![0; tiles],
                tile: (8, 8),
                store: None,
            },
            sprite,
            marquee: None,
            color,
            scroll: (0, 0),
        }
    }

    /// The flags as a tileset holds them: tiles of `tile` pixels, `flags` by tile id (missing
    /// ones are 0), saved through `store`.
    pub fn with_flags(
        mut self,
        tile: (u32, u32),
        flags: &[u8],
        store: Box<dyn FlagStore>,
    ) -> SheetTab {
        let tile = (tile.0.max(1) as i32, tile.1.max(1) as i32);
        let count = (self.sheet.width() as i32 / tile.0) as usize
            * (self.sheet.height() as i32 / tile.1) as usize;
        let mut values = flags.to_vec();
        values.resize(count, 0);
        self.flags = Flags {
            saved: values.clone(),
            values,
            tile,
            store: Some(store),
        };
        self
    }

    /// The sheet.
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// Each sprite's flags by tile id, as edited.
    pub fn flags(&self) -> &[u8] {
        &self.flags.values
    }

    /// The tile id of the sprite at the top-left of the selected one, if the sheet has one
    /// there.
    pub(super) fn sprite_id(&self) -> Option<usize> {
        let (tw, th) = self.flags.tile;
        let cols = self.sheet.width() as i32 / tw;
        let (cx, cy) = (self.sprite.x / tw, self.sprite.y / th);
        let id = (cy * cols + cx) as usize;
        (cx < cols && id < self.flags.values.len()).then_some(id)
    }

    fn is_dirty(&self) -> bool {
        self.sheet.is_edited() || self.flags.values != self.flags.saved
    }

    /// The whole sheet as an area.
    fn bounds(&self) -> Area {
        Area::new(0, 0, self.sheet.width() as i32, self.sheet.height() as i32)
    }
}

impl std::fmt::Display for SheetTab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.sheet.name();
        let short = name.rsplit(['/', '\\']).next().unwrap_or(name);
        write!(f, "{short}")?;
        if self.is_dirty() {
            write!(f, "*")?;
        }
        Ok(())
    }
}

/// What the copied pixels were: their size, numbers and the palette they were numbers of.
#[derive(Debug, Clone)]
struct Clip {
    w: i32,
    h: i32,
    pixels: Vec<u8>,
    colors: Vec<[u8; 4]>,
}

/// What a held pointer button is doing.
#[derive(Debug, Clone, Default)]
enum Drag {
    #[default]
    None,
    /// The pencil, last at this sheet pixel.
    Paint((i32, i32)),
    /// A line, rectangle or ellipse from this sheet pixel.
    Shape((i32, i32)),
    /// A selection from this sheet pixel.
    Marquee((i32, i32)),
    /// The selection's pixels, lifted from `from`, moving with the pointer from `start`.
    Move {
        start: (i32, i32),
        from: Area,
        lifted: Vec<u8>,
    },
    /// A sprite picked on the sheet view, a free selection once the pointer moves.
    Sheet((i32, i32)),
    /// The sheet view's scroll bar across (`true`) or down, held.
    Scroll(bool),
}

/// The sprite editor.
pub struct SpriteEditor {
    pub(super) tabs: Vec<SheetTab>,
    pub(super) tab: usize,
    pub(super) tool: Tool,
    /// The sprite grid: 8, 16 or 32 pixels.
    pub(super) grid: i32,
    history: History,
    clip: Option<Clip>,
    drag: Drag,
    /// The area an edit in progress changes, and its pixels before it.
    before: Option<(Area, Vec<u8>)>,
    /// The animation preview: on, how many sprites, how many a second.
    pub(super) preview: bool,
    pub(super) frames: i32,
    pub(super) rate: i32,
    pub(super) ticks: u64,
    /// 0: no help; 1 or 2: the help screen's page.
    pub(super) help: usize,
    status: String,
    /// The update the status was said at.
    status_at: u64,
    /// The widgets; `None` only while they are being declared (the editor lends itself to
    /// them then).
    pub(super) ui: Option<Ui>,
    /// The tab whose palette the console shows.
    palette_for: Option<usize>,
    /// The console's slot of each PICO-8 colour the editor's own parts are drawn in.
    pub(super) ui_color: [u8; 16],
    pico8: [Color32; 16],
    pub(super) pointer: (i32, i32),
    wheel: f32,
    /// The sheet and sprite the sheet view last scrolled to show: a new selection is scrolled
    /// into view, and the view is free to scroll elsewhere until then.
    shown: Option<(usize, Area)>,
}

/// The most frames and the fastest rate of the animation preview.
pub(super) const MAX_FRAMES: i32 = 16;
pub(super) const MAX_RATE: i32 = 30;
/// How long a message stays on the status line: four seconds at 60 updates a second, time to
/// read a line of it.
const STATUS_TICKS: u64 = 240;

impl SpriteEditor {
    /// An editor of `tabs` (at least one), the first showing.
    pub fn new(tabs: Vec<SheetTab>) -> SpriteEditor {
        let pal = Palette::pico8();
        let pico8 = std::array::from_fn(|i| pal.get(i as u8).unwrap_or_default());
        let mut ui = Ui::new();
        // The editor's keys are its own: the widgets answer the pointer only.
        ui.set_pointer_only(true);
        SpriteEditor {
            tabs,
            tab: 0,
            tool: Tool::Pencil,
            grid: 8,
            history: History::default(),
            clip: None,
            drag: Drag::None,
            before: None,
            preview: false,
            frames: 4,
            rate: 8,
            ticks: 0,
            help: 0,
            status: String::new(),
            status_at: 0,
            ui: Some(ui),
            palette_for: None,
            ui_color: std::array::from_fn(|i| i as u8),
            pico8,
            pointer: (0, 0),
            wheel: 0.0,
            shown: None,
        }
    }

    /// The console the editor runs on, whatever the sheets: its display, and a palette of
    /// 256 slots, room for the largest sheet palette and the editor's own colours past a
    /// smaller one.
    pub fn settings() -> Settings {
        let (w, h) = super::layout::DISPLAY;
        Settings::default()
            .display(w, h)
            .palette(Palette::new(256).unwrap_or_default())
            .title("BT sprite editor")
    }

    /// Where the widget at `index` (see [`super::layout::widget`]) went in the last update:
    /// for tests and scripted sessions that click it.
    pub fn widget_rect(&self, index: usize) -> Option<bt::Rect> {
        self.ui.as_ref()?.rect_of(index)
    }

    /// The open sheets.
    pub fn tabs(&self) -> &[SheetTab] {
        &self.tabs
    }

    /// Whether any sheet has edits not saved.
    pub fn is_dirty(&self) -> bool {
        self.tabs.iter().any(SheetTab::is_dirty)
    }

    fn cur(&self) -> &SheetTab {
        &self.tabs[self.tab]
    }

    fn cur_mut(&mut self) -> &mut SheetTab {
        &mut self.tabs[self.tab]
    }

    fn say(&mut self, message: impl Into<String>) {
        self.status = message.into();
        self.status_at = self.ticks;
    }

    /// The last message, while it is fresh: [`STATUS_TICKS`] updates after it was said, the
    /// status line goes back to saying where things are.
    pub(super) fn fresh_status(&self) -> Option<&str> {
        let fresh = self.ticks.saturating_sub(self.status_at) < STATUS_TICKS;
        (fresh && !self.status.is_empty()).then_some(self.status.as_str())
    }

    /// The zoom of the canvas: as large as the sprite fits, at least 1.
    pub(super) fn zoom(&self) -> i32 {
        let s = self.cur().sprite;
        layout::zoom_for(s.w, s.h)
    }

    /// The sheet view's zoom, and the sheet pixels it shows across and down.
    pub(super) fn sheet_view(&self) -> (i32, (i32, i32)) {
        let sheet = &self.cur().sheet;
        let z = layout::sheet_zoom_for(sheet.width() as i32, sheet.height() as i32);
        (z, (SHEET.w / z, SHEET.h / z))
    }

    /// The sheet pixel under display pixel (`x`, `y`) of the sheet view (past the sheet's
    /// edges when the pointer is).
    fn sheet_pixel(&self, x: i32, y: i32) -> (i32, i32) {
        let (z, _) = self.sheet_view();
        let (sx, sy) = self.cur().scroll;
        (
            sx + (x - SHEET.x).div_euclid(z),
            sy + (y - SHEET.y).div_euclid(z),
        )
    }

    /// The sheet pixel under display pixel (`x`, `y`) of the canvas, held inside the sprite.
    fn canvas_pixel(&self, x: i32, y: i32) -> (i32, i32) {
        let (s, z) = (self.cur().sprite, self.zoom());
        (
            (s.x + (x - CANVAS.x).div_euclid(z)).clamp(s.x, s.x + s.w - 1),
            (s.y + (y - CANVAS.y).div_euclid(z)).clamp(s.y, s.y + s.h - 1),
        )
    }

    /// Whether display pixel (`x`, `y`) shows a pixel of the sprite on the canvas.
    fn on_canvas(&self, x: i32, y: i32) -> bool {
        let (s, z) = (self.cur().sprite, self.zoom());
        let shown = Area::new(
            CANVAS.x,
            CANVAS.y,
            (s.w * z).min(CANVAS.w),
            (s.h * z).min(CANVAS.h),
        );
        shown.contains(x, y)
    }

    /// The area the selection tools act on: the selection, or the whole sprite.
    fn target(&self) -> Area {
        let t = self.cur();
        t.marquee.map_or(t.sprite, |m| m.within(t.sprite))
    }

    /// Starts an edit of `area` of the current sheet: its pixels now are kept for undo.
    fn begin(&mut self, area: Area) {
        let area = area.within(self.cur().bounds());
        self.before = Some((area, paint::copy(&self.cur().sheet, area)));
    }

    /// Puts the area begun back as it was (a shape drawn again as the pointer moves).
    fn restore(&mut self) {
        if let Some((area, before)) = self.before.take() {
            let t = &mut self.tabs[self.tab];
            paint::put(&mut t.sheet, area, &before, area);
            self.before = Some((area, before));
        }
    }

    /// Ends the edit begun: one undo step, when it changed anything.
    fn end(&mut self) {
        if let Some((area, before)) = self.before.take() {
            let after = paint::copy(&self.cur().sheet, area);
            if after != before {
                self.history.record(Step {
                    sheet: self.tab,
                    change: Change::Pixels {
                        area,
                        before,
                        after,
                    },
                });
            }
        }
    }

    /// Makes `change` to the current sheet inside `area` as one undo step.
    fn edit(&mut self, area: Area, change: impl FnOnce(&mut Sheet)) {
        self.begin(area);
        change(&mut self.cur_mut().sheet);
        self.end();
    }

    fn turn(&mut self, turn: Turn) {
        let a = self.target();
        if turn == Turn::Quarter && a.w != a.h {
            self.say("a quarter-turn needs a square selection");
            return;
        }
        self.edit(a, |sheet| {
            let moved = paint::turned(&paint::copy(sheet, a), a.w, a.h, turn);
            paint::put(sheet, a, &moved, a);
        });
    }

    fn copy(&mut self) {
        let a = self.target();
        let t = self.cur();
        self.clip = Some(Clip {
            w: a.w,
            h: a.h,
            pixels: paint::copy(&t.sheet, a),
            colors: t.sheet.colors().to_vec(),
        });
        self.say(format!("copied {}x{}", a.w, a.h));
    }

    fn clear(&mut self) {
        let a = self.target();
        self.edit(a, |sheet| {
            paint::rect(
                sheet,
                (a.x, a.y),
                (a.x + a.w - 1, a.y + a.h - 1),
                0,
                true,
                a,
            )
        });
    }

    /// Pastes the clipboard at the selection's corner (or the sprite's); colours of another
    /// palette take their nearest in this sheet's.
    fn paste(&mut self) {
        let Some(clip) = self.clip.clone() else {
            self.say("nothing to paste: copy first (Ctrl+C)");
            return;
        };
        let at = self.target();
        let area = Area::new(at.x, at.y, clip.w, clip.h);
        let colors = self.cur().sheet.colors().to_vec();
        let pixels: Vec<u8> = if clip.colors == colors {
            clip.pixels.clone()
        } else {
            clip.pixels
                .iter()
                .map(|&p| {
                    nearest(
                        &colors,
                        clip.colors.get(usize::from(p)).copied().unwrap_or_default(),
                    )
                })
                .collect()
        };
        let bounds = self.cur().bounds();
        self.edit(area, |sheet| paint::put(sheet, area, &pixels, bounds));
        let sprite = self.cur().sprite;
        let shown = area.within(sprite);
        self.cur_mut().marquee = (!shown.is_empty()).then_some(shown);
        self.say(format!("pasted {}x{}", clip.w, clip.h));
    }

    pub(super) fn toggle_flag(&mut self, bit: u8) {
        let Some(id) = self.cur().sprite_id() else {
            return;
        };
        let before = self.cur().flags.values[id];
        let after = before ^ (1 << bit);
        self.cur_mut().flags.values[id] = after;
        self.history.record(Step {
            sheet: self.tab,
            change: Change::Flags {
                sprite: id,
                before,
                after,
            },
        });
    }

    pub(super) fn undo(&mut self, redo: bool) {
        self.end();
        self.drag = Drag::None;
        let step = if redo {
            self.history.redo()
        } else {
            self.history.undo()
        };
        let Some(step) = step.cloned() else {
            self.say(if redo {
                "nothing to redo"
            } else {
                "nothing to undo"
            });
            return;
        };
        let Some(t) = self.tabs.get_mut(step.sheet) else {
            return;
        };
        match step.change {
            Change::Pixels {
                area,
                before,
                after,
            } => {
                let pixels = if redo { after } else { before };
                paint::put(&mut t.sheet, area, &pixels, area);
            }
            Change::Flags {
                sprite,
                before,
                after,
            } => {
                if let Some(f) = t.flags.values.get_mut(sprite) {
                    *f = if redo { after } else { before };
                }
            }
        }
        self.tab = step.sheet;
        self.say(if redo { "redone" } else { "undone" });
    }

    /// Saves the sheet showing and every other with edits, and the flags that changed. A
    /// conversion alone is written only from its own tab: opening a folder of pictures with
    /// `--convert` rewrites none the user did not look at.
    pub(super) fn save(&mut self) {
        let mut saved = Vec::new();
        let mut failed = None;
        for (i, t) in self.tabs.iter_mut().enumerate() {
            let flags = t.flags.values != t.flags.saved;
            if i != self.tab && !t.sheet.is_painted() && !flags {
                continue;
            }
            match t.sheet.encode() {
                Ok(bytes) => match t.target.save(&bytes) {
                    Ok(()) => {
                        t.sheet.mark_saved(bytes);
                        saved.push(t.to_string());
                    }
                    Err(e) => failed = failed.or(Some(e)),
                },
                Err(e) => failed = failed.or(Some(format!("{}: {e}", t.sheet.name()))),
            }
            if flags {
                match &mut t.flags.store {
                    Some(store) => match store.save(&t.flags.values) {
                        Ok(()) => t.flags.saved.clone_from(&t.flags.values),
                        Err(e) => failed = failed.or(Some(e)),
                    },
                    None => {
                        failed = failed.or(Some(format!(
                            "{}: flags not saved: no tileset in the asset folder uses this sheet",
                            t.sheet.name()
                        )))
                    }
                }
            }
        }
        match failed {
            Some(e) => self.say(e),
            None => self.say(format!("saved {}", saved.join(", "))),
        }
    }

    pub(super) fn pick_tab(&mut self, by: i32) {
        // A stroke under way is finished where it is, as one undo step of the sheet it was on.
        self.end();
        let n = self.tabs.len() as i32;
        self.tab = (self.tab as i32 + by).rem_euclid(n.max(1)) as usize;
        self.drag = Drag::None;
        self.before = None;
    }

    fn pick_color(&mut self, by: i32) {
        let n = self.cur().sheet.colors().len() as i32;
        let t = self.cur_mut();
        t.color = (i32::from(t.color) + by).rem_euclid(n.max(1)) as u8;
    }

    /// Makes the sprite grid `grid` pixels and selects its cell at the sprite's corner.
    pub(super) fn set_grid(&mut self, grid: i32) {
        self.grid = grid;
        let s = self.cur().sprite;
        self.select_cell(s.x, s.y);
    }

    /// Selects the grid cell of `grid` pixels holding sheet pixel (`x`, `y`).
    fn select_cell(&mut self, x: i32, y: i32) {
        let g = self.grid;
        let b = self.cur().bounds();
        let cell = Area::new(x - x.rem_euclid(g), y - y.rem_euclid(g), g, g).within(b);
        if !cell.is_empty() {
            let t = self.cur_mut();
            t.sprite = cell;
            t.marquee = None;
        }
    }

    /// Shows the current sheet's palette in the console's slots, and the editor's own
    /// colours in the top sixteen when the sheet leaves them free (else their nearest).
    fn show_palette(&mut self, ctx: &mut Update<'_>) {
        if self.palette_for == Some(self.tab) {
            return;
        }
        self.palette_for = Some(self.tab);
        let colors = self.tabs[self.tab].sheet.colors();
        let pal = ctx.palette_mut();
        for (i, c) in colors.iter().enumerate() {
            let _ = pal.set(i as u8, Color32::rgb(c[0], c[1], c[2]));
        }
        let free = colors.len() + self.pico8.len() <= pal.len();
        for (i, &c) in self.pico8.iter().enumerate() {
            self.ui_color[i] = if free {
                let slot = (pal.len() - self.pico8.len() + i) as u8;
                let _ = pal.set(slot, c);
                slot
            } else {
                nearest(colors, [c.r, c.g, c.b, 255])
            };
        }
        let u = self.ui_color;
        let Some(ui) = self.ui.as_mut() else {
            return;
        };
        let theme = ui.theme_mut();
        (theme.text, theme.face, theme.face_hot, theme.face_down) = (u[7], u[5], u[13], u[2]);
        (theme.edge, theme.field, theme.accent, theme.focus) = (u[6], u[1], u[12], u[10]);
        (theme.tip_face, theme.tip_text) = (u[15], u[1]);
    }

    fn keys(&mut self, ctx: &Update<'_>) {
        let ctrl = modifier(ctx, [Key::ControlLeft, Key::ControlRight]);
        let shift = modifier(ctx, [Key::ShiftLeft, Key::ShiftRight]);
        let pressed = |k: Key| ctx.is_key_pressed(k);
        if pressed(Key::Slash) {
            let pages = KEYS.len().div_ceil(super::layout::HELP_ROWS);
            self.help = (self.help + 1) % (pages + 1);
        }
        if pressed(Key::Escape) {
            if self.help > 0 {
                self.help = 0;
            } else {
                self.cur_mut().marquee = None;
            }
        }
        if ctrl {
            if pressed(Key::KeyS) {
                self.save();
            }
            if pressed(Key::KeyY) || shift && pressed(Key::KeyZ) {
                self.undo(true);
            } else if pressed(Key::KeyZ) {
                self.undo(false);
            }
            if pressed(Key::KeyC) {
                self.copy();
            }
            if pressed(Key::KeyX) {
                self.copy();
                self.clear();
            }
            if pressed(Key::KeyV) {
                self.paste();
            }
            if pressed(Key::KeyA) {
                let s = self.cur().sprite;
                self.cur_mut().marquee = Some(s);
            }
            return;
        }
        for (key, tool) in [
            (Key::KeyB, Tool::Pencil),
            (Key::KeyF, Tool::Fill),
            (Key::KeyL, Tool::Line),
            (Key::KeyI, Tool::Pick),
            (Key::KeyM, Tool::Select),
        ] {
            if pressed(key) {
                self.tool = tool;
            }
        }
        if pressed(Key::KeyR) {
            self.tool = if self.tool == Tool::Rect {
                Tool::RectFill
            } else {
                Tool::Rect
            };
        }
        if pressed(Key::KeyE) {
            self.tool = if self.tool == Tool::Ellipse {
                Tool::EllipseFill
            } else {
                Tool::Ellipse
            };
        }
        if pressed(Key::KeyH) {
            self.turn(Turn::FlipAcross);
        }
        if pressed(Key::KeyV) {
            self.turn(Turn::FlipUpDown);
        }
        if pressed(Key::KeyT) {
            self.turn(Turn::Quarter);
        }
        if pressed(Key::Delete) || pressed(Key::Backspace) {
            self.clear();
        }
        for (key, dx, dy) in [
            (Key::ArrowLeft, -1, 0),
            (Key::ArrowRight, 1, 0),
            (Key::ArrowUp, 0, -1),
            (Key::ArrowDown, 0, 1),
        ] {
            if !pressed(key) {
                continue;
            }
            if shift {
                self.turn(Turn::Shift(dx, dy));
            } else {
                let s = self.cur().sprite;
                let b = self.cur().bounds();
                let (x, y) = (s.x + dx * s.w, s.y + dy * s.h);
                let to = Area::new(x, y, s.w, s.h);
                if to.within(b) == to {
                    let t = self.cur_mut();
                    t.sprite = to;
                    t.marquee = None;
                }
            }
        }
        let digits = [
            Key::Digit1,
            Key::Digit2,
            Key::Digit3,
            Key::Digit4,
            Key::Digit5,
            Key::Digit6,
            Key::Digit7,
            Key::Digit8,
        ];
        for (i, &key) in digits.iter().enumerate() {
            if !pressed(key) {
                continue;
            }
            if shift {
                self.toggle_flag(i as u8);
            } else if i < 3 {
                self.set_grid(8 << i);
            }
        }
        if pressed(Key::BracketLeft) {
            self.pick_color(-1);
        }
        if pressed(Key::BracketRight) {
            self.pick_color(1);
        }
        if pressed(Key::Tab) {
            self.pick_tab(if shift { -1 } else { 1 });
        }
        if pressed(Key::KeyP) {
            self.preview = !self.preview;
        }
        let step = |v: &mut i32, by: i32, top: i32| *v = (*v + by).clamp(1, top);
        if pressed(Key::Comma) {
            step(&mut self.frames, -1, MAX_FRAMES);
        }
        if pressed(Key::Period) {
            step(&mut self.frames, 1, MAX_FRAMES);
        }
        if pressed(Key::Minus) {
            step(&mut self.rate, -1, MAX_RATE);
        }
        if pressed(Key::Equal) {
            step(&mut self.rate, 1, MAX_RATE);
        }
    }

    fn pointer(&mut self, ctx: &Update<'_>) {
        let (x, y) = ctx.pointer_pos();
        self.pointer = (x, y);
        let (across, down) = ctx.pointer_wheel();
        self.wheel += down;
        if !self.wheel.is_finite() {
            self.wheel = 0.0;
        }
        let turns = self.wheel.trunc().clamp(-16.0, 16.0) as i32;
        self.wheel -= self.wheel.trunc();
        let over_sheet =
            SHEET.contains(x, y) || SCROLL_ACROSS.contains(x, y) || SCROLL_DOWN.contains(x, y);
        if self.help > 0 || !over_sheet {
            // The side column's number fields take the wheel themselves.
            if turns != 0 && (self.help > 0 || x < SIDE_X) {
                self.pick_color(turns.signum());
            }
        } else {
            let shift = modifier(ctx, [Key::ShiftLeft, Key::ShiftRight]);
            let across = if across.is_finite() {
                across.trunc().clamp(-16.0, 16.0) as i32
            } else {
                0
            };
            let (dx, dy) = if shift {
                (turns + across, 0)
            } else {
                (across, turns)
            };
            let (sx, sy) = self.cur().scroll;
            self.scroll_to(sx + dx * WHEEL_STEP, sy + dy * WHEEL_STEP);
        }
        if self.help > 0 {
            return;
        }
        let press = ctx.is_pressed(Button::POINTER_A, Player::ONE);
        let held = ctx.is_down(Button::POINTER_A, Player::ONE);
        if ctx.is_pressed(Button::POINTER_B, Player::ONE) && self.on_canvas(x, y) {
            let (px, py) = self.canvas_pixel(x, y);
            let c = self.cur().sheet.get(px, py).unwrap_or(0);
            self.cur_mut().color = c;
        }
        if press {
            self.press(x, y);
        } else if held {
            self.held(x, y);
        }
        if !held && !press {
            if matches!(
                self.drag,
                Drag::Paint(_) | Drag::Shape(_) | Drag::Move { .. }
            ) {
                self.end();
            }
            self.drag = Drag::None;
        }
    }

    fn press(&mut self, x: i32, y: i32) {
        for (bar, across) in [(SCROLL_ACROSS, true), (SCROLL_DOWN, false)] {
            if bar.contains(x, y) {
                self.drag = Drag::Scroll(across);
                self.scroll_bar(across, x, y);
                return;
            }
        }
        if SHEET.contains(x, y) {
            let p = self.sheet_pixel(x, y);
            if self.cur().bounds().contains(p.0, p.1) {
                self.select_cell(p.0, p.1);
                self.drag = Drag::Sheet(p);
            }
            return;
        }
        if !self.on_canvas(x, y) {
            return;
        }
        let p = self.canvas_pixel(x, y);
        let (sprite, color) = (self.cur().sprite, self.cur().color);
        match self.tool {
            Tool::Pencil => {
                self.begin(sprite);
                paint::line(&mut self.cur_mut().sheet, p, p, color, sprite);
                self.drag = Drag::Paint(p);
            }
            Tool::Fill => self.edit(sprite, |sheet| paint::fill(sheet, p, color, sprite)),
            Tool::Line | Tool::Rect | Tool::RectFill | Tool::Ellipse | Tool::EllipseFill => {
                self.begin(sprite);
                self.drag = Drag::Shape(p);
                self.held(x, y);
            }
            Tool::Pick => {
                let c = self.cur().sheet.get(p.0, p.1).unwrap_or(0);
                self.cur_mut().color = c;
            }
            Tool::Select => match self.cur().marquee {
                Some(m) if m.contains(p.0, p.1) => {
                    self.begin(sprite);
                    let lifted = paint::copy(&self.cur().sheet, m);
                    self.drag = Drag::Move {
                        start: p,
                        from: m,
                        lifted,
                    };
                }
                _ => {
                    self.cur_mut().marquee = Some(Area::new(p.0, p.1, 1, 1));
                    self.drag = Drag::Marquee(p);
                }
            },
        }
    }

    fn held(&mut self, x: i32, y: i32) {
        let q = self.canvas_pixel(x, y);
        let (sprite, color) = (self.cur().sprite, self.cur().color);
        match std::mem::take(&mut self.drag) {
            Drag::Paint(last) => {
                if last != q && self.on_canvas(x, y) {
                    paint::line(&mut self.cur_mut().sheet, last, q, color, sprite);
                    self.drag = Drag::Paint(q);
                } else {
                    self.drag = Drag::Paint(last);
                }
            }
            Drag::Shape(start) => {
                self.restore();
                let sheet = &mut self.tabs[self.tab].sheet;
                match self.tool {
                    Tool::Line => paint::line(sheet, start, q, color, sprite),
                    Tool::Rect | Tool::RectFill => {
                        paint::rect(sheet, start, q, color, self.tool == Tool::RectFill, sprite)
                    }
                    _ => paint::ellipse(
                        sheet,
                        start,
                        q,
                        color,
                        self.tool == Tool::EllipseFill,
                        sprite,
                    ),
                }
                self.drag = Drag::Shape(start);
            }
            Drag::Marquee(start) => {
                self.cur_mut().marquee = Some(Area::spanning(start, q));
                self.drag = Drag::Marquee(start);
            }
            Drag::Move {
                start,
                from,
                lifted,
            } => {
                self.restore();
                let to = Area::new(
                    from.x + q.0 - start.0,
                    from.y + q.1 - start.1,
                    from.w,
                    from.h,
                );
                let sheet = &mut self.tabs[self.tab].sheet;
                paint::rect(
                    sheet,
                    (from.x, from.y),
                    (from.x + from.w - 1, from.y + from.h - 1),
                    0,
                    true,
                    sprite,
                );
                paint::put(sheet, to, &lifted, sprite);
                let shown = to.within(sprite);
                self.cur_mut().marquee = (!shown.is_empty()).then_some(shown);
                self.drag = Drag::Move {
                    start,
                    from,
                    lifted,
                };
            }
            Drag::Sheet(start) => {
                let b = self.cur().bounds();
                let p = self.sheet_pixel(x, y);
                let p = (p.0.clamp(0, b.w - 1), p.1.clamp(0, b.h - 1));
                if p != start {
                    let mut free = Area::spanning(start, p);
                    free.w = free.w.min(MAX_SELECTION);
                    free.h = free.h.min(MAX_SELECTION);
                    let t = self.cur_mut();
                    t.sprite = free;
                    t.marquee = None;
                }
                self.drag = Drag::Sheet(start);
            }
            Drag::Scroll(across) => {
                self.scroll_bar(across, x, y);
                self.drag = Drag::Scroll(across);
            }
            Drag::None => {}
        }
    }

    /// Scrolls the sheet view so the sprite shows, when the sprite or the sheet changed since
    /// it last did; between, the view stays where the wheel or the scroll bars put it.
    fn keep_sprite_in_view(&mut self) {
        let now = (self.tab, self.cur().sprite);
        if self.shown == Some(now) {
            return;
        }
        self.shown = Some(now);
        let s = now.1;
        let (_, (vw, vh)) = self.sheet_view();
        let (mut sx, mut sy) = self.cur().scroll;
        sx = sx.min(s.x).max(s.x + s.w - vw);
        sy = sy.min(s.y).max(s.y + s.h - vh);
        self.scroll_to(sx, sy);
    }

    /// Scrolls the sheet view to sheet pixel (`x`, `y`) at its corner, kept on the sheet.
    fn scroll_to(&mut self, x: i32, y: i32) {
        let (_, (vw, vh)) = self.sheet_view();
        let t = self.cur_mut();
        let (w, h) = (t.sheet.width() as i32, t.sheet.height() as i32);
        t.scroll = (x.clamp(0, (w - vw).max(0)), y.clamp(0, (h - vh).max(0)));
    }

    /// Scrolls the sheet view as a press at display pixel (`x`, `y`) on a scroll bar asks:
    /// the middle of the view goes to the sheet's pixel at that place along the bar.
    fn scroll_bar(&mut self, across: bool, x: i32, y: i32) {
        let (_, (vw, vh)) = self.sheet_view();
        let t = self.cur();
        let (sx, sy) = t.scroll;
        if across {
            let w = t.sheet.width() as i32;
            let at = (x - SCROLL_ACROSS.x) * w / SCROLL_ACROSS.w.max(1);
            self.scroll_to(at - vw / 2, sy);
        } else {
            let h = t.sheet.height() as i32;
            let at = (y - SCROLL_DOWN.y) * h / SCROLL_DOWN.h.max(1);
            self.scroll_to(sx, at - vh / 2);
        }
    }

    /// The first colour of the swatch page showing the chosen colour.
    pub(super) fn swatch_page(&self) -> usize {
        let t = self.cur();
        usize::from(t.color) / SWATCHES_SHOWN * SWATCHES_SHOWN
    }
}

impl Cart for SpriteEditor {
    fn configure(&self) -> Settings {
        SpriteEditor::settings()
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if self.tabs.is_empty() {
            return;
        }
        self.ticks = ctx.ticks();
        self.keys(ctx);
        if let Some(mut ui) = self.ui.take() {
            ui.frame(ctx, |ui, _| self.declare(ui));
            self.ui = Some(ui);
        }
        self.pointer(ctx);
        self.keep_sprite_in_view();
        self.show_palette(ctx);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        super::draw::draw(self, ctx);
    }

    fn test_state(&self) -> Option<String> {
        let t = self.cur();
        let s = t.sprite;
        Some(format!(
            "{{\"tab\":{},\"tool\":\"{:?}\",\"sprite\":[{},{},{},{}],\"scroll\":[{},{}],\"color\":{},\"marquee\":{},\"dirty\":{},\"undo\":{},\"help\":{},\"preview\":[{},{},{}],\"status\":{:?}}}",
            self.tab,
            self.tool,
            s.x,
            s.y,
            s.w,
            s.h,
            t.scroll.0,
            t.scroll.1,
            t.color,
            t.marquee.is_some(),
            self.is_dirty(),
            self.history.undo_len(),
            self.help,
            self.preview,
            self.frames,
            self.rate,
            self.status,
        ))
    }
}

/// Whether a modifier (either of its `keys`) was held at any moment since the previous update:
/// in a quick chord the modifier may be up again by the update that sees the key.
fn modifier(ctx: &Update<'_>, keys: [Key; 2]) -> bool {
    keys.iter()
        .any(|&k| ctx.is_key_down(k) || ctx.is_key_released(k))
}

impl std::fmt::Debug for SpriteEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpriteEditor")
            .field("tabs", &self.tabs.len())
            .field("tab", &self.tab)
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}
