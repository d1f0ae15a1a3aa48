//! What each key does on the two pages (the keys of both pages are in `update`).

use bt::sound::{Note, MAX_NOTE_VOLUME, MAX_PITCH};
use bt::{Key, Update};

use super::{SoundEditor, View, EFFECTS, TYPED_NOTE, WAVES};
use crate::sound_edit::layout::VISIBLE_ROWS;
use crate::sound_edit::TuneRows;

/// Every key of the editor and what it does, as its documentation lists them (sound effect
/// page, tune page, both pages): for the help and the cheat sheet.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows", "move the cursor while the grid has the focus (held: repeat)"),
    ("Shift+Up, Shift+Down", "select notes (Escape: no selection)"),
    ("PageUp, PageDown", "a screen of notes up or down"),
    (
        "= and - (or keypad + -)",
        "the cells of the selected notes up or down: a semitone (Shift: an octave), the next wave, volume or effect",
    ),
    (
        "C D E F G A B",
        "in the pitch column: that note, in the note's octave (Shift: sharp); the cursor moves down a row",
    ),
    ("0 to 7", "in the pitch column: the octave; in the volume column: the volume"),
    (
        "0 to 9",
        "in the wave column: sq, sq25, sq12, tri, saw, sin, tilt, organ, phaser, noise",
    ),
    (
        "0 to 7 (effect)",
        "in the effect column: none, slide, vibrato, drop, fadein, fadeout, arp, arpgroup:4",
    ),
    ("Backspace", "the selected notes become rests"),
    ("Insert", "adds a copy of the cursor's note after it (at most 64 notes)"),
    ("Delete", "removes the selected notes (one note always stays)"),
    ("[ and ]", "the previous and next sound effect"),
    (", and .", "speed down and up (Shift: by 10), 1 to 65535"),
    ("L", "the loop starts at this note (L again: no loop)"),
    (
        "Space",
        "while the grid has the focus: plays the selection, or the whole sound effect; Space again stops",
    ),
    ("Shift+Space", "plays the selection (or the sound effect) looping, until Space"),
    (
        "Ctrl+C, Ctrl+V",
        "copy the selected notes; paste them over the notes from the cursor down",
    ),
    ("Ctrl+N", "a new sound effect, sfxN, of 16 rests at speed 15"),
    ("arrows (tune)", "move the cursor while the grid has the focus"),
    (
        "= and - (tune)",
        "the cell's sound effect: the next or previous of those defined above the tune",
    ),
    ("Backspace (tune)", "empties the cell (a sequence line loses that sound)"),
    ("Insert (tune)", "a new row after this one"),
    ("Delete (tune)", "removes the row (a tune of patterns keeps one)"),
    (
        "Enter",
        "while the grid has the focus: opens the cell's sound effect on the sound effect page",
    ),
    ("[ and ] (tune)", "the previous and next tune"),
    ("Space (tune)", "plays the tune from its start; Space again stops"),
    ("Tab, Shift+Tab", "move the focus: the tabs, the buttons, the list, the name, the grid, the fields"),
    ("Ctrl+T", "the other page"),
    ("Ctrl+S", "saves"),
    ("Ctrl+Z", "undoes the last edit (200 are kept)"),
    ("Ctrl+Y, Ctrl+Shift+Z", "redoes"),
    ("Ctrl+Q", "quits, without asking: save first"),
    ("d-pad, A", "on the grid: move the cursor, play or stop"),
    ("L, R (gamepad)", "move the focus"),
];

impl SoundEditor {
    pub(super) fn sfx_keys(&mut self, ctx: &mut Update<'_>, fired: u128, ctrl: bool, shift: bool) {
        let repeat = |k: Key| fired >> (k as usize) & 1 == 1;
        let len = self.notes_len();
        if ctrl {
            if ctx.is_key_pressed(Key::KeyC) {
                let range = self.selection();
                self.clipboard = self
                    .doc
                    .sounds
                    .sfx
                    .get(self.sfx)
                    .and_then(|e| e.sfx.notes.get(range))
                    .map(<[Note]>::to_vec)
                    .unwrap_or_default();
                self.say(format!("copied {} notes", self.clipboard.len()));
            }
            if ctx.is_key_pressed(Key::KeyV) && !self.clipboard.is_empty() {
                let (sfx, from, notes) = (self.sfx, self.row, self.clipboard.clone());
                self.edit(None, |doc| {
                    for (i, n) in notes.into_iter().enumerate() {
                        doc.set_note(sfx, from + i, n);
                    }
                });
            }
            if ctx.is_key_pressed(Key::KeyN) {
                self.new_sfx();
            }
            return;
        }
        if self.doc.sounds.sfx.is_empty() {
            return;
        }
        let moved = if repeat(Key::ArrowUp) {
            Some(self.row.saturating_sub(1))
        } else if repeat(Key::ArrowDown) {
            Some((self.row + 1).min(len.saturating_sub(1)))
        } else if repeat(Key::PageUp) {
            Some(self.row.saturating_sub(VISIBLE_ROWS))
        } else if repeat(Key::PageDown) {
            Some((self.row + VISIBLE_ROWS).min(len.saturating_sub(1)))
        } else {
            None
        };
        if let Some(row) = moved {
            if shift {
                self.anchor.get_or_insert(self.row);
            } else {
                self.anchor = None;
            }
            self.row = row;
        }
        if repeat(Key::ArrowLeft) {
            self.col = self.col.saturating_sub(1);
        }
        if repeat(Key::ArrowRight) {
            self.col = (self.col + 1).min(3);
        }
        if ctx.is_key_pressed(Key::Escape) {
            self.anchor = None;
        }
        if repeat(Key::BracketLeft) {
            self.pick_sfx(-1);
        }
        if repeat(Key::BracketRight) {
            self.pick_sfx(1);
        }
        let by = if repeat(Key::Equal) || repeat(Key::NumpadAdd) {
            1
        } else if repeat(Key::Minus) || repeat(Key::NumpadSubtract) {
            -1
        } else {
            0
        };
        if by != 0 {
            let (col, rows) = (self.col, self.selection());
            let sfx = self.sfx;
            self.edit(None, |doc| {
                for r in rows {
                    if let Some(&n) = doc.sounds.sfx[sfx].sfx.notes.get(r) {
                        doc.set_note(sfx, r, SoundEditor::step_note(n, col, by, shift));
                    }
                }
            });
        }
        if repeat(Key::Comma) || repeat(Key::Period) {
            let step = if shift { 10 } else { 1 };
            let speed = i32::from(self.doc.sounds.sfx[self.sfx].sfx.speed);
            let new = if ctx.is_key_down(Key::Comma) {
                speed - step
            } else {
                speed + step
            };
            let sfx = self.sfx;
            self.edit(None, |doc| {
                doc.set_speed(sfx, new.clamp(1, i32::from(u16::MAX)) as u16)
            });
        }
        if ctx.is_key_pressed(Key::KeyL) {
            let sfx = self.sfx;
            let here =
                (self.doc.sounds.sfx[sfx].sfx.loop_start != Some(self.row)).then_some(self.row);
            self.edit(None, |doc| doc.set_loop(sfx, here));
        }
        if ctx.is_key_pressed(Key::Insert) {
            let (sfx, at, n) = (self.sfx, self.row + 1, self.note());
            let mut done = false;
            self.edit(None, |doc| done = doc.insert_note(sfx, at, n));
            if done {
                self.row = at;
            } else {
                self.say(format!(
                    "a sound effect has at most {} notes",
                    bt::sound::MAX_NOTES
                ));
            }
        }
        if ctx.is_key_pressed(Key::Delete) {
            self.delete_notes();
        }
        if ctx.is_key_pressed(Key::Backspace) {
            let (sfx, range) = (self.sfx, self.selection());
            self.edit(None, |doc| {
                for r in range {
                    doc.set_note(sfx, r, Note::rest());
                }
            });
        }
        self.typed_value(ctx, shift);
    }

    /// Letters and digits: a note name or octave in the pitch column, a wave, volume or effect
    /// by its number in the others.
    pub(super) fn typed_value(&mut self, ctx: &mut Update<'_>, shift: bool) {
        const NAMES: [(Key, u8); 7] = [
            (Key::KeyC, 0),
            (Key::KeyD, 2),
            (Key::KeyE, 4),
            (Key::KeyF, 5),
            (Key::KeyG, 7),
            (Key::KeyA, 9),
            (Key::KeyB, 11),
        ];
        const DIGITS: [Key; 10] = [
            Key::Digit0,
            Key::Digit1,
            Key::Digit2,
            Key::Digit3,
            Key::Digit4,
            Key::Digit5,
            Key::Digit6,
            Key::Digit7,
            Key::Digit8,
            Key::Digit9,
        ];
        let digit = DIGITS.iter().position(|&k| ctx.is_key_pressed(k));
        let row = self.row;
        if self.col == 0 {
            let name = NAMES
                .iter()
                .find(|(k, _)| ctx.is_key_pressed(*k))
                .map(|&(_, s)| s);
            if let Some(semitone) = name {
                self.edit_note(row, None, |n| {
                    let n = if n == Note::rest() { TYPED_NOTE } else { n };
                    let octave = n.pitch / 12;
                    let pitch = (octave * 12 + semitone + u8::from(shift)).min(MAX_PITCH);
                    Note { pitch, ..n }
                });
                // As in a tracker: the cursor goes on to the next row.
                self.row = (row + 1).min(self.notes_len().saturating_sub(1));
                self.anchor = None;
            }
            if let Some(octave) = digit.filter(|&d| d <= 7) {
                self.edit_note(row, None, |n| {
                    let n = if n == Note::rest() { TYPED_NOTE } else { n };
                    let pitch = (octave as u8 * 12 + n.pitch % 12).min(MAX_PITCH);
                    Note { pitch, ..n }
                });
            }
            return;
        }
        let Some(d) = digit else { return };
        let col = self.col;
        self.edit_note(row, None, |n| match col {
            1 => Note {
                wave: WAVES[d % WAVES.len()],
                ..n
            },
            2 => Note {
                volume: (d as u8).min(MAX_NOTE_VOLUME),
                ..n
            },
            _ => n.with(EFFECTS[d.min(EFFECTS.len() - 1)]),
        });
    }

    pub(super) fn tune_keys(&mut self, ctx: &mut Update<'_>, fired: u128, on_grid: bool) {
        let repeat = |k: Key| fired >> (k as usize) & 1 == 1;
        if repeat(Key::ArrowUp) {
            self.trow = self.trow.saturating_sub(1);
        }
        if repeat(Key::ArrowDown) {
            self.trow += 1;
        }
        if repeat(Key::ArrowLeft) {
            self.tcol = self.tcol.saturating_sub(1);
        }
        if repeat(Key::ArrowRight) {
            self.tcol += 1;
        }
        self.keep_cursor_in_view();
        if repeat(Key::BracketLeft) {
            self.pick_tune(-1);
        }
        if repeat(Key::BracketRight) {
            self.pick_tune(1);
        }
        if repeat(Key::Equal) || repeat(Key::NumpadAdd) {
            self.step_cell(1);
        }
        if repeat(Key::Minus) || repeat(Key::NumpadSubtract) {
            self.step_cell(-1);
        }
        let (tune, row) = (self.tune, self.trow);
        let seq = matches!(
            self.doc.sounds.tunes.get(tune).map(|t| &t.rows),
            Some(TuneRows::Sequences { .. })
        );
        if ctx.is_key_pressed(Key::Backspace) {
            let cell = if seq {
                self.tcol.checked_sub(1)
            } else {
                Some(self.tcol)
            };
            if let Some(cell) = cell {
                self.edit(None, |doc| doc.set_cell(tune, row, cell, None));
            }
        }
        if ctx.is_key_pressed(Key::Insert) {
            let after = (self.tune_rows_len() > 0).then_some(row);
            self.edit(None, |doc| doc.insert_row(tune, after));
            if after.is_some() {
                self.trow += 1;
            }
        }
        if ctx.is_key_pressed(Key::Delete) {
            self.delete_row();
        }
        if on_grid && ctx.is_key_pressed(Key::Enter) {
            // Opens the cell's sound effect.
            let cells = self
                .doc
                .sounds
                .tunes
                .get(tune)
                .map(|t| t.rows.cells(row))
                .unwrap_or_default();
            let cell = if seq {
                self.tcol.checked_sub(1)
            } else {
                Some(self.tcol)
            };
            if let Some(Some(s)) = cell.and_then(|c| cells.get(c)) {
                (self.sfx, self.row, self.top, self.anchor) = (*s, 0, 0, None);
                self.view = View::Sfx;
            }
        }
    }
}
