//! Where the editor draws each part, in display pixels of its 320x240 screen, and which part
//! the pointer is over.

use bt::Rect;

/// The editor's display size: BT's default, so a window opens as for any cart.
pub const DISPLAY: (u32, u32) = (320, 240);
/// One line of the system font.
pub const LINE: i32 = 14;
/// One character of the system font.
pub const CHAR: i32 = 6;
/// The bar at the top: the tabs, the sound picker, speed and loop.
pub const TOP_BAR: Rect = Rect::new(0, 0, 320, LINE);
/// Where the first row of notes or patterns is drawn.
pub const ROWS_TOP: i32 = LINE + 1;
/// How many rows show at once.
pub const VISIBLE_ROWS: usize = 15;
/// The status line at the bottom.
pub const STATUS_Y: i32 = 240 - LINE;

/// The `SFX` tab.
pub const SFX_TAB: Rect = Rect::new(0, 0, 24, LINE);
/// The `TUNE` tab.
pub const TUNE_TAB: Rect = Rect::new(26, 0, 30, LINE);
/// The picker's "previous" arrow.
pub const PREV: Rect = Rect::new(60, 0, 10, LINE);
/// The picker's "next" arrow.
pub const NEXT: Rect = Rect::new(172, 0, 10, LINE);
/// The speed field (the wheel over it changes the speed).
pub const SPEED: Rect = Rect::new(190, 0, 54, LINE);
/// The loop field.
pub const LOOP: Rect = Rect::new(250, 0, 54, LINE);

/// The note columns: pitch, wave, volume, effect, each as (left, width).
pub const NOTE_COLUMNS: [(i32, i32); 4] = [(20, 24), (46, 38), (86, 10), (98, 74)];
/// The pitch graph: one bar a note, higher for a higher pitch; a drag draws pitches.
pub const PITCH_GRAPH: Rect = Rect::new(178, ROWS_TOP + 1, 138, 134);
/// The volume graph under it; a drag draws volumes.
pub const VOLUME_GRAPH: Rect = Rect::new(178, 156, 138, 66);

/// A tune's cells: a pattern's four channels (or a sequence line's channel then its sounds),
/// each as (left, width).
pub const TUNE_COLUMNS: [(i32, i32); 5] = [(22, 58), (82, 58), (142, 58), (202, 58), (262, 58)];

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
        assert_eq!(column_at(50, &NOTE_COLUMNS), Some(1));
        assert_eq!(volume_at(VOLUME_GRAPH.y + VOLUME_GRAPH.h - 1), 0);
        assert_eq!(volume_at(VOLUME_GRAPH.y), 7);
    }
}
