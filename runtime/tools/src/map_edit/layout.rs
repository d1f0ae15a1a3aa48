//! Where the editor puts each part, in display pixels, and the widgets by their place in the
//! order they are declared in.

use bt::Rect;

/// The editor's display: a 16:9 screen wide enough for a useful map view beside a column of
/// the palette, the layer list and the minimap.
pub const DISPLAY: (u32, u32) = (480, 270);
/// One line of the system font.
pub const LINE: i32 = 14;
/// Where the bar of tool tabs and buttons goes (its top-left corner).
pub const TOP_BAR: (i32, i32) = (2, 2);
/// Where the map shows: below the top bar, left of the side column, above the status line.
pub const MAP_VIEW: Rect = Rect::new(2, 22, 352, 232);
/// The side column's left edge and width.
pub const SIDE_X: i32 = 358;
/// The side column's width.
pub const SIDE_WIDTH: i32 = 120;
/// The palette: the tileset's tiles at 1x, as many a row as fit.
pub const PALETTE: Rect = Rect::new(SIDE_X, 22, SIDE_WIDTH, 96);
/// Where the layer list goes, under the palette.
pub const LAYERS: (i32, i32) = (SIDE_X, 122);
/// Rows of the layer list shown at once.
pub const LAYER_ROWS: usize = 4;
/// The minimap, under the layer list and its check boxes.
pub const MINIMAP: Rect = Rect::new(SIDE_X, 204, SIDE_WIDTH, 50);
/// The status line at the bottom.
pub const STATUS_Y: i32 = DISPLAY.1 as i32 - LINE;

/// The editor's widgets by their place in the order they are declared in: what the kit's
/// focus and [`MapEditor::widget_rect`](super::MapEditor::widget_rect) count by.
pub mod widget {
    /// The tool tabs: paint, fill, rectangle, select, pick.
    pub const TOOLS: usize = 0;
    /// Undoes the last edit.
    pub const UNDO: usize = 1;
    /// Redoes it.
    pub const REDO: usize = 2;
    /// Saves.
    pub const SAVE: usize = 3;
    /// Shows or hides the tiles' flags.
    pub const FLAGS: usize = 4;
    /// The zoom, 1x to 4x.
    pub const ZOOM: usize = 5;
    /// Opens the help screen.
    pub const HELP: usize = 6;
    /// The map view: the focus it starts with and goes back to.
    pub const MAP: usize = 7;
    /// The palette of tiles.
    pub const PALETTE: usize = 8;
    /// The layer list.
    pub const LAYERS: usize = 9;
    /// Whether the editor shows the layer.
    pub const SHOWN: usize = 10;
    /// Tiled's `visible` of the layer (saved).
    pub const TILED_VISIBLE: usize = 11;
    /// The minimap.
    pub const MINIMAP: usize = 12;
}
