//! Where the editor draws each part, in display pixels of its 320x240 screen, and which part
//! the pointer is over.

use bt::Rect;

/// The editor's display size: BT's default height, wider to hold the widgets' column beside
/// the notes and their graphs.
pub const DISPLAY: (u32, u32) = (420, 240);
/// One line of the system font.
pub const LINE: i32 = 14;
/// One character of the system font.
pub const CHAR: i32 = 6;
/// Where the bar of tabs and buttons goes (its top-left corner).
pub const TOP_BAR: (i32, i32) = (2, 2);
/// Where the column of the sound list and the value fields goes.
pub const SIDE: (i32, i32) = (2, 24);
/// The side column's width: the list's and the name field's.
pub const SIDE_WIDTH: i32 = 80;
/// The width of a field in the side column (its label goes after it): room for two digits.
pub const FIELD_WIDTH: i32 = 36;
/// The speed field's: room for five digits (65535).
pub const SPEED_WIDTH: i32 = 50;
/// Rows of the sound list shown at once.
pub const LIST_ROWS: usize = 4;
/// The longest name the name field takes, in characters.
pub const NAME_CHARS: usize = 24;
/// Where the fields under the list and the name field go: the list's rows and frame, then a
/// field's height (the system font's line and a pixel above and below) with the kit's
/// spacing (3 pixels) after each.
pub const FIELDS_Y: i32 = SIDE.1 + LIST_ROWS as i32 * LINE + 2 + 3 + (LINE + 2) + 3;
/// Where the first row of notes or patterns is drawn.
pub const ROWS_TOP: i32 = 24;
/// How many rows show at once.
pub const VISIBLE_ROWS: usize = 14;
/// The note grid: the rows and the graphs, one region of the widgets (the pointer and the
/// focus reach it through them).
pub const GRID: Rect = Rect::new(110, ROWS_TOP, 306, VISIBLE_ROWS as i32 * LINE);
/// The status line at the bottom.
pub const STATUS_Y: i32 = 240 - LINE;

/// Where a row's index is printed.
pub const INDEX_X: i32 = GRID.x + 4;
/// The note columns: pitch, wave, volume, effect, each as (left, width).
pub const NOTE_COLUMNS: [(i32, i32); 4] = [(130, 24), (156, 38), (196, 10), (208, 74)];
/// The width of a row's band (the selection) from the grid's left edge.
pub const NOTES_WIDTH: i32 = 174;
/// The pitch graph: one bar a note, higher for a higher pitch; a drag draws pitches.
pub const PITCH_GRAPH: Rect = Rect::new(286, ROWS_TOP + 1, 128, 126);
/// The volume graph under it; a drag draws volumes.
pub const VOLUME_GRAPH: Rect = Rect::new(286, 154, 128, 66);

/// A tune's cells: a pattern's four channels (or a sequence line's channel then its sounds),
/// each as (left, width).
pub const TUNE_COLUMNS: [(i32, i32); 5] = [(132, 56), (190, 56), (248, 56), (306, 56), (364, 52)];

/// The editor's widgets by their place in the order they are declared in: what the kit's
/// focus and [`SoundEditor::widget_rect`](super::SoundEditor::widget_rect) count by.
pub mod widget {
    /// The page tabs, `SFX` and `TUNE`.
    pub const TABS: usize = 0;
    /// The buttons: play, stop, a new sound effect, delete, save.
    pub const PLAY: usize = 1;
    /// Stops what plays.
    pub const STOP: usize = 2;
    /// A new sound effect.
    pub const NEW: usize = 3;
    /// Removes the selected notes, or the tune's row.
    pub const DELETE: usize = 4;
    /// Saves.
    pub const SAVE: usize = 5;
    /// The list of the page's sounds.
    pub const LIST: usize = 6;
    /// The name of the sound shown.
    pub const NAME: usize = 7;
    /// The note grid (or the tune's rows): the focus it starts with.
    pub const GRID: usize = 8;
    /// The sound effect page's fields: its speed, its loop, and the cursor's note's pitch,
    /// wave, effect and volume.
    pub const SPEED: usize = 9;
    /// The loop's first note (-1: no loop).
    pub const LOOP: usize = 10;
    /// The cursor's note's pitch.
    pub const PITCH: usize = 11;
    /// Its wave.
    pub const WAVE: usize = 12;
    /// Its effect.
    pub const EFFECT: usize = 13;
    /// Its volume.
    pub const VOLUME: usize = 14;
}

/// The top of row `i` of those showing.
pub fn row_y(i: usize) -> i32 {
    ROWS_TOP + i as i32 * LINE
}

/// Which showing row `y` is on, if any.
pub fn row_at(y: i32) -> Option<usize> {
    let i = (y - ROWS_TOP).div_euclid(LINE);
    (y >= ROWS_TOP && (i as usize) < VISIBLE_ROWS).then_some(i as usize)
}

/// Which column of `columns` `x` is in, if any.
pub fn column_at(x: i32, columns: &[(i32, i32)]) -> Option<usize> {
    columns
        .iter()
        .position(|&(left, width)| x >= left && x < left + width)
}

/// The width of one note's bar in the graphs, for a sound of `notes` notes.
pub fn bar_width(notes: usize) -> i32 {
    (PITCH_GRAPH.w / notes.max(1) as i32).clamp(2, 8)
}

/// Which note's bar `x` is over, for a sound of `notes` notes.
pub fn bar_at(x: i32, notes: usize) -> Option<usize> {
    let i = (x - PITCH_GRAPH.x).div_euclid(bar_width(notes));
    (x >= PITCH_GRAPH.x && (i as usize) < notes).then_some(i as usize)
}

/// The pitch a point at height `y` of the pitch graph stands for.
pub fn pitch_at(y: i32) -> u8 {
    let from_bottom = (PITCH_GRAPH.y + PITCH_GRAPH.h - 1 - y).clamp(0, PITCH_GRAPH.h - 1);
    let span = PITCH_GRAPH.h - 1;
    // Rounded up: the inverse of `pitch_height`, which rounds down.
    ((from_bottom * i32::from(bt::sound::MAX_PITCH) + span - 1) / span) as u8
}

/// The height in the pitch graph of `pitch`'s bar.
pub fn pitch_height(pitch: u8) -> i32 {
    1 + i32::from(pitch) * (PITCH_GRAPH.h - 1) / i32::from(bt::sound::MAX_PITCH)
}

/// The volume a point at height `y` of the volume graph stands for.
pub fn volume_at(y: i32) -> u8 {
    let step = VOLUME_GRAPH.h / 8;
    let from_bottom = (VOLUME_GRAPH.y + VOLUME_GRAPH.h - 1 - y).clamp(0, VOLUME_GRAPH.h - 1);
    (from_bottom / step).min(i32::from(bt::sound::MAX_NOTE_VOLUME)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pitch_graph_reads_back_the_pitch_it_draws() {
        for pitch in 0..=bt::sound::MAX_PITCH {
            let top = PITCH_GRAPH.y + PITCH_GRAPH.h - pitch_height(pitch);
            assert_eq!(pitch_at(top), pitch, "pitch {pitch}");
        }
    }

    #[test]
    fn rows_and_bars_are_found_under_the_pointer() {
        assert_eq!(row_at(row_y(3) + 5), Some(3));
        assert_eq!(row_at(ROWS_TOP - 1), None);
        assert_eq!(row_at(row_y(VISIBLE_ROWS)), None);
        assert_eq!(bar_at(PITCH_GRAPH.x + 17, 16), Some(2));
        assert_eq!(bar_at(PITCH_GRAPH.x - 1, 16), None);
        assert_eq!(column_at(NOTE_COLUMNS[1].0 + 4, &NOTE_COLUMNS), Some(1));
        assert_eq!(volume_at(VOLUME_GRAPH.y + VOLUME_GRAPH.h - 1), 0);
        assert_eq!(volume_at(VOLUME_GRAPH.y), 7);
    }
}
