//! What the pointer does on the note grid, a region of the widgets: a press puts the cursor on
//! a cell, the wheel steps the value under it, a drag begun on a graph draws pitches or
//! volumes. The kit decides whether a press is the grid's (a widget's press is not).

use bt::sound::Note;
use bt::ui::Response;
use bt::Update;

use super::{SoundEditor, View, DRAG_PITCH, DRAG_VOLUME, TYPED_NOTE, WHEEL};
use crate::sound_edit::history::Gesture;
use crate::sound_edit::layout;

impl SoundEditor {
    /// The pointer on the grid, as the kit's region `grid` saw it in this update.
    pub(super) fn pointer(&mut self, ctx: &mut Update<'_>, grid: &Response) {
        let (x, y) = ctx.pointer_pos();
        self.pointer = (x, y);
        if grid.hovered() {
            self.wheel += ctx.pointer_wheel().1;
        }
        if !self.wheel.is_finite() {
            self.wheel = 0.0;
        }
        // Positive is down: a turn up (away) raises the value under the pointer, one step an
        // update however far it turned.
        let lines = -(self.wheel.trunc().clamp(-16.0, 16.0) as i32);
        self.wheel -= self.wheel.trunc();
        if !grid.held() {
            // A drag ends with its button; wheel turns on one cell go on joining.
            if self.dragging {
                self.history.end_gesture();
            }
            self.dragging = false;
        }
        let click = grid.pressed();
        let lines = if grid.hovered() { lines } else { 0 };
        match self.view {
            View::Sfx => {
                if grid.held() {
                    self.dragging = true;
                }
                self.sfx_pointer(x, y, click, grid.held(), lines);
            }
            View::Tune => {
                let cols: &[(i32, i32)] = &layout::TUNE_COLUMNS;
                if let (Some(r), Some(c)) = (layout::row_at(y), layout::column_at(x, cols)) {
                    if click || lines != 0 {
                        let shift = self.tune_shift();
                        self.trow = self.ttop + r;
                        self.tcol = if c == 0 { 0 } else { c + shift };
                        self.keep_cursor_in_view();
                    }
                    if lines != 0 {
                        self.step_cell(lines.signum());
                    }
                }
            }
        }
    }

    pub(super) fn sfx_pointer(&mut self, x: i32, y: i32, click: bool, held: bool, lines: i32) {
        if self.doc.sounds.sfx.is_empty() {
            return;
        }
        let len = self.notes_len();
        if let (Some(r), Some(c)) = (
            layout::row_at(y),
            layout::column_at(x, &layout::NOTE_COLUMNS),
        ) {
            let row = self.top + r;
            if row < len && (click || lines != 0) {
                (self.row, self.col, self.anchor) = (row, c, None);
                if lines != 0 {
                    let gesture = Gesture {
                        kind: WHEEL,
                        place: (self.sfx, row, c),
                    };
                    self.edit_note(row, Some(gesture), |n| {
                        SoundEditor::step_note(n, c, lines.signum(), false)
                    });
                }
            }
        }
        if !held {
            return;
        }
        let Some(bar) = layout::bar_at(x, len) else {
            return;
        };
        if layout::PITCH_GRAPH.contains(x, y) {
            let pitch = layout::pitch_at(y);
            let gesture = Gesture {
                kind: DRAG_PITCH,
                place: (self.sfx, 0, 0),
            };
            self.row = bar;
            self.edit_note(bar, Some(gesture), |n| {
                let n = if n.volume == 0 { TYPED_NOTE } else { n };
                Note { pitch, ..n }
            });
        } else if layout::VOLUME_GRAPH.contains(x, y) {
            let volume = layout::volume_at(y);
            let gesture = Gesture {
                kind: DRAG_VOLUME,
                place: (self.sfx, 0, 0),
            };
            self.row = bar;
            self.edit_note(bar, Some(gesture), |n| {
                let n = if n == Note::rest() && volume > 0 {
                    TYPED_NOTE
                } else {
                    n
                };
                Note { volume, ..n }
            });
        }
    }
}
