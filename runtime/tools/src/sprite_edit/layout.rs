//! Where the editor draws each part, in display pixels of its 320x240 screen.

use bt::Rect;

/// The editor's display size: BT's default, so a window opens as for any cart.
pub const DISPLAY: (u32, u32) = (320, 240);
/// One line of the system font.
pub const LINE: i32 = bt::limits::LINE_HEIGHT;
/// The zoomed canvas: the selected sprite, as large as fits.
pub const CANVAS: Rect = Rect::new(4, 20, 128, 128);
/// The sheet at its own size, scrolled to keep the selected sprite in view.
pub const SHEET: Rect = Rect::new(140, 20, 176, 128);
/// The row of tools under the canvas: one box a tool.
pub const TOOL_ROW: Rect = Rect::new(4, 152, 126, 14);
/// One tool's box across.
pub const TOOL_W: i32 = 14;
/// The selected sprite's eight flags: one box a flag.
pub const FLAG_ROW: Rect = Rect::new(4, 170, 112, 12);
/// One flag's box across.
pub const FLAG_W: i32 = 14;
/// The animation preview.
pub const PREVIEW: Rect = Rect::new(4, 186, 36, 36);
/// The palette's swatches (the `bt::ui` widget), under the sheet.
pub const SWATCHES: (i32, i32) = (140, 152);
/// Swatches in a row.
pub const SWATCHES_PER_ROW: usize = 16;
/// Swatches showing at once: six rows; a larger palette shows the page of the chosen colour.
pub const SWATCHES_SHOWN: usize = 96;
/// The status line at the bottom.
pub const STATUS: Rect = Rect::new(0, 240 - LINE, 320, LINE);
/// The largest free selection a side: the canvas at one display pixel a sheet pixel.
pub const MAX_SELECTION: i32 = 128;
/// Keys on a page of the help screen: sixteen lines of the system font fill the screen.
pub const HELP_ROWS: usize = 16;
