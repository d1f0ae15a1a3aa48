//! Where the editor draws each part, in display pixels of its 480x270 screen: the map
//! editor's display, a bar of tools on top, the canvas on the left, the sheet beside it and a
//! narrow column of the sprite size and the animation preview on the right.

use bt::Rect;

/// The editor's display: the map editor's 16:9 screen, wide enough for a large canvas with
/// the sheet beside it.
pub const DISPLAY: (u32, u32) = (480, 270);
/// One line of the system font.
pub const LINE: i32 = bt::limits::LINE_HEIGHT;
/// Where the bar of tool tabs and buttons goes (its top-left corner).
pub const TOP_BAR: (i32, i32) = (2, 2);
/// Where the sheet tabs go, under the top bar.
pub const SHEET_TABS: (i32, i32) = (2, 20);
/// The zoomed canvas: the selected sprite, as large as fits (an 8x8 sprite at 24x, a 32x32
/// one at 6x).
pub const CANVAS: Rect = Rect::new(2, 38, 192, 192);
/// The largest zoom of the canvas: an 8x8 sprite filling it.
pub const MAX_ZOOM: i32 = CANVAS.w / 8;
/// Where the selected sprite's eight flags go, under the canvas: one check box a flag.
pub const FLAG_ROW: (i32, i32) = (2, 234);
/// The sheet, beside the canvas, at the largest zoom up to [`MAX_SHEET_ZOOM`] that it fits; its scroll bars go right of it and under it.
pub const SHEET: Rect = Rect::new(200, 38, 192, 152);
/// The largest zoom of the sheet view: a small sheet shows at up to 4 display pixels a sheet
/// pixel, a sheet of 128x128 or more at its own size.
pub const MAX_SHEET_ZOOM: i32 = 4;
/// How thick a scroll bar of the sheet view is.
pub const SCROLL_BAR: i32 = 6;
/// The sheet view's scroll bar across, under it.
pub const SCROLL_ACROSS: Rect = Rect::new(SHEET.x, SHEET.y + SHEET.h + 1, SHEET.w, SCROLL_BAR);
/// The sheet view's scroll bar down, right of it.
pub const SCROLL_DOWN: Rect = Rect::new(SHEET.x + SHEET.w + 1, SHEET.y, SCROLL_BAR, SHEET.h);
/// Sheet pixels one turn of the wheel scrolls the sheet view: one 8x8 sprite.
pub const WHEEL_STEP: i32 = 8;
/// The palette's swatches (the `bt::ui` widget), under the sheet.
pub const SWATCHES: (i32, i32) = (SHEET.x, 203);
/// Swatches in a row.
pub const SWATCHES_PER_ROW: usize = 16;
/// Swatches showing at once: four rows; a larger palette shows the page of the chosen colour.
pub const SWATCHES_SHOWN: usize = 64;
/// The right column's left edge: the sprite size, the preview and its controls.
pub const SIDE_X: i32 = 404;
/// The sprite size tabs (8, 16, 32).
pub const SIZE_TABS: (i32, i32) = (SIDE_X, SHEET.y);
/// The animation preview.
pub const PREVIEW: Rect = Rect::new(SIDE_X, 58, 64, 64);
/// The preview's frame count, rate and play box, under it.
pub const PREVIEW_CONTROLS: (i32, i32) = (SIDE_X, 126);
/// The width of the preview's number fields: two digits and their arrows.
pub const NUMBER_W: i32 = 32;
/// The status line at the bottom.
pub const STATUS: Rect = Rect::new(0, DISPLAY.1 as i32 - LINE, DISPLAY.0 as i32, LINE);
/// The largest free selection a side: the canvas at one display pixel a sheet pixel.
pub const MAX_SELECTION: i32 = CANVAS.w;
/// Keys on a page of the help screen: eighteen lines of the system font fill the screen
/// above the status line.
pub const HELP_ROWS: usize = 18;

/// The canvas's zoom for a sprite `w` by `h`: as large as it fits, at least 1.
pub const fn zoom_for(w: i32, h: i32) -> i32 {
    let (w, h) = (if w < 1 { 1 } else { w }, if h < 1 { 1 } else { h });
    let z = if CANVAS.w / w < CANVAS.h / h {
        CANVAS.w / w
    } else {
        CANVAS.h / h
    };
    if z < 1 {
        1
    } else if z > MAX_ZOOM {
        MAX_ZOOM
    } else {
        z
    }
}

/// The sheet view's zoom for a sheet `w` by `h`: the largest whole zoom up to
/// [`MAX_SHEET_ZOOM`] that shows all of it, or 1 for a sheet larger than the view.
pub const fn sheet_zoom_for(w: i32, h: i32) -> i32 {
    let (w, h) = (if w < 1 { 1 } else { w }, if h < 1 { 1 } else { h });
    let z = if SHEET.w / w < SHEET.h / h {
        SHEET.w / w
    } else {
        SHEET.h / h
    };
    if z < 1 {
        1
    } else if z > MAX_SHEET_ZOOM {
        MAX_SHEET_ZOOM
    } else {
        z
    }
}

/// The editor's widgets by their place in the order they are declared in: what the kit's
/// focus and [`SpriteEditor::widget_rect`](super::SpriteEditor::widget_rect) count by.
pub mod widget {
    /// The tool tabs: pencil, fill, line, rectangle, ellipse, pick, select.
    pub const TOOLS: usize = 0;
    /// Whether the rectangle or ellipse is filled.
    pub const FILLED: usize = 1;
    /// Undoes the last edit.
    pub const UNDO: usize = 2;
    /// Redoes it.
    pub const REDO: usize = 3;
    /// Saves.
    pub const SAVE: usize = 4;
    /// Opens the help screen.
    pub const HELP: usize = 5;
    /// The sheet tabs.
    pub const SHEETS: usize = 6;
    /// Flag 0 of the sprite; flags 1 to 7 follow it.
    pub const FLAG_0: usize = 7;
    /// The palette's swatches.
    pub const SWATCHES: usize = 15;
    /// The sprite size tabs.
    pub const SIZE: usize = 16;
    /// The preview's frame count.
    pub const FRAMES: usize = 17;
    /// The preview's frames a second.
    pub const RATE: usize = 18;
    /// Plays the preview.
    pub const PLAY: usize = 19;
}
