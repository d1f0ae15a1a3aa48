//! The editor's widgets, declared on the `bt::ui` kit each update: the page tabs, the buttons,
//! the sound list, the name field, the note grid (a region the editor draws itself) and, on
//! the sound effect page, the fields of the speed, the loop and the cursor's note.

use bt::sound::{Note, MAX_NOTE_VOLUME, MAX_PITCH};
use bt::ui::{Response, Ui};
use bt::Update;

use super::{SoundEditor, View, EFFECTS, FIELD, TYPED_NOTE, WAVES};
use crate::sound_edit::doc::{EffectName, PitchName, WaveName};
use crate::sound_edit::history::Gesture;
use crate::sound_edit::layout::{self, FIELD_WIDTH, LIST_ROWS, NAME_CHARS, SIDE, SIDE_WIDTH};
use crate::sound_edit::TuneRows;

/// The note grid's place in the order the widgets are declared in: the focus it starts with
/// and goes back to.
pub(super) const GRID_WIDGET: usize = layout::widget::GRID;

/// The page tabs' labels, in the order of [`View`].
const PAGES: [&str; 2] = ["SFX", "TUNE"];

/// Which field of a note a field widget sets.
#[derive(Clone, Copy)]
enum NoteField {
    Pitch,
    Wave,
    Volume,
    Effect,
}

impl SoundEditor {
    /// Declares the widgets and does what they were asked; returns what the grid saw.
    pub(super) fn declare(&mut self, ui: &mut Ui, ctx: &mut Update<'_>) -> Response {
        let (x, y) = layout::TOP_BAR;
        ui.area(x, y, |ui| ui.row(|ui| self.top_bar(ui, ctx)));
        ui.area(SIDE.0, SIDE.1, |ui| self.sound_list(ui));
        let g = layout::GRID;
        let grid = ui.area(g.x, g.y, |ui| ui.region(g.w, g.h));
        ui.area(SIDE.0, layout::FIELDS_Y, |ui| match self.view {
            View::Sfx => self.sfx_fields(ui),
            View::Tune => self.tune_fields(ui),
        });
        grid
    }

    fn top_bar(&mut self, ui: &mut Ui, ctx: &mut Update<'_>) {
        let mut page = match self.view {
            View::Sfx => 0,
            View::Tune => 1,
        };
        if ui.tabs(&mut page, &PAGES).changed() {
            self.view = if page == 0 { View::Sfx } else { View::Tune };
        }
        ui.tooltip("sound effects or tunes (Ctrl+T)");
        if ui.button("Play").clicked() {
            self.play_page(ctx, false);
        }
        ui.tooltip("plays the selection, the sound or the tune (Space)");
        if ui.button("Stop").clicked() {
            self.stop(ctx);
        }
        ui.tooltip("stops what plays (Space)");
        if ui.button("New").clicked() {
            self.new_sfx();
        }
        ui.tooltip("a new sound effect (Ctrl+N)");
        if ui.button("Delete").clicked() {
            match self.view {
                View::Sfx => self.delete_notes(),
                View::Tune => self.delete_row(),
            }
        }
        ui.tooltip("removes the selected notes or the row (Delete)");
        if ui.button("Save").clicked() {
            self.save();
        }
        ui.tooltip("writes the file (Ctrl+S)");
    }

    /// The list of the page's sounds, and the name field of the one shown.
    fn sound_list(&mut self, ui: &mut Ui) {
        let at = match self.view {
            View::Sfx => self.sfx,
            View::Tune => self.tune,
        };
        let list = &mut self.list;
        list.selected = Some(at);
        if at < list.scroll {
            list.scroll = at;
        } else if at >= list.scroll + LIST_ROWS {
            list.scroll = at + 1 - LIST_ROWS;
        }
        ui.width(SIDE_WIDTH);
        let picked = match self.view {
            View::Sfx => ui.list(list, &self.doc.sounds.sfx, LIST_ROWS),
            View::Tune => ui.list(list, &self.doc.sounds.tunes, LIST_ROWS),
        };
        ui.tooltip("[ and ]: the previous and next");
        if picked.changed() {
            let to = list.selected.unwrap_or(at);
            match self.view {
                View::Sfx => self.pick_sfx(to as i32 - at as i32),
                View::Tune => self.pick_tune(to as i32 - at as i32),
            }
        }
        // The name field shows the sound's name but while it is edited.
        let name = match self.view {
            View::Sfx => self.doc.sounds.sfx.get(self.sfx).map(|e| e.name.as_str()),
            View::Tune => self
                .doc
                .sounds
                .tunes
                .get(self.tune)
                .map(|t| t.name.as_str()),
        };
        if !ui.is_editing() && name.is_some_and(|n| n != self.name) {
            self.name.clear();
            self.name.push_str(name.unwrap_or_default());
        }
        ui.width(SIDE_WIDTH);
        if ui.text_field("", &mut self.name, NAME_CHARS).submitted() {
            self.rename();
        }
        ui.tooltip("its name: Enter renames");
    }

    fn rename(&mut self) {
        let (view, at) = (self.view, self.sfx);
        let tune = self.tune;
        let name = self.name.clone();
        let mut result = Ok(());
        self.edit(None, |doc| {
            result = match view {
                View::Sfx => doc.rename_sfx(at, &name),
                View::Tune => doc.rename_tune(tune, &name),
            }
        });
        if let Err(e) = result {
            self.say(e);
        }
    }

    fn sfx_fields(&mut self, ui: &mut Ui) {
        let Some(entry) = self.doc.sounds.sfx.get(self.sfx) else {
            return;
        };
        let len = entry.sfx.notes.len();
        let mut speed = i32::from(entry.sfx.speed);
        let mut looping = entry.sfx.loop_start.map_or(-1, |l| l as i32);
        let note = self.note();
        let sfx = self.sfx;
        ui.width(layout::SPEED_WIDTH);
        if ui
            .number("speed", &mut speed, 1..=i32::from(u16::MAX), 1)
            .changed()
        {
            let speed = speed.clamp(1, i32::from(u16::MAX)) as u16;
            self.edit(Some(field_gesture(sfx, 0)), |doc| doc.set_speed(sfx, speed));
        }
        ui.tooltip(", and . (Shift: by 10)");
        ui.width(FIELD_WIDTH);
        if ui
            .number("loop", &mut looping, -1..=len as i32 - 1, 1)
            .changed()
        {
            let start = usize::try_from(looping).ok();
            self.edit(Some(field_gesture(sfx, 1)), |doc| doc.set_loop(sfx, start));
        }
        ui.tooltip("the note it loops to; -1: none (L)");
        let rest = note == Note::rest();
        let mut pitch = i32::from(note.pitch);
        let pitch_name = PitchName(note.pitch);
        ui.width(FIELD_WIDTH);
        let pitched = if rest {
            ui.number("rest", &mut pitch, 0..=i32::from(MAX_PITCH), 1)
        } else {
            ui.number(pitch_name, &mut pitch, 0..=i32::from(MAX_PITCH), 1)
        };
        if pitched.changed() {
            self.set_field(NoteField::Pitch, pitch as usize);
        }
        ui.tooltip("the pitch: = and - (Shift: an octave)");
        let mut wave = WAVES.iter().position(|&w| w == note.wave).unwrap_or(0) as i32;
        ui.width(FIELD_WIDTH);
        if ui
            .number(
                WaveName(note.wave),
                &mut wave,
                0..=WAVES.len() as i32 - 1,
                1,
            )
            .changed()
        {
            self.set_field(NoteField::Wave, wave as usize);
        }
        ui.tooltip("the wave: 0 to 9 in its column");
        let mut effect = EFFECTS.iter().position(|&e| e == note.effect).unwrap_or(0) as i32;
        ui.width(FIELD_WIDTH);
        let last = EFFECTS.len() as i32 - 1;
        if ui
            .number(EffectName(note.effect), &mut effect, 0..=last, 1)
            .changed()
        {
            self.set_field(NoteField::Effect, effect as usize);
        }
        ui.tooltip("the effect: 0 to 7 in its column");
        let mut volume = i32::from(note.volume);
        ui.width(FIELD_WIDTH);
        if ui
            .slider("volume", &mut volume, 0..=i32::from(MAX_NOTE_VOLUME))
            .changed()
        {
            self.set_field(NoteField::Volume, volume as usize);
        }
        ui.tooltip("the volume: 0 to 7 in its column");
    }

    /// Sets `field` of the selected notes to `value` (a rest becomes a note first), as one
    /// undo step with the field's other turns.
    fn set_field(&mut self, field: NoteField, value: usize) {
        let (sfx, rows) = (self.sfx, self.selection());
        let gesture = field_gesture(sfx, 2 + field as usize);
        self.edit(Some(gesture), |doc| {
            for r in rows {
                let Some(&n) = doc.sounds.sfx[sfx].sfx.notes.get(r) else {
                    continue;
                };
                let n = if n == Note::rest() { TYPED_NOTE } else { n };
                let n = match field {
                    NoteField::Pitch => Note {
                        pitch: (value as u8).min(MAX_PITCH),
                        ..n
                    },
                    NoteField::Wave => Note {
                        wave: WAVES[value.min(WAVES.len() - 1)],
                        ..n
                    },
                    NoteField::Volume => Note {
                        volume: (value as u8).min(MAX_NOTE_VOLUME),
                        ..n
                    },
                    NoteField::Effect => n.with(EFFECTS[value.min(EFFECTS.len() - 1)]),
                };
                doc.set_note(sfx, r, n);
            }
        });
    }

    fn tune_fields(&mut self, ui: &mut Ui) {
        let Some(tune) = self.doc.sounds.tunes.get(self.tune) else {
            return;
        };
        match &tune.rows {
            TuneRows::Patterns {
                loop_start: Some(l),
                ..
            } => ui.label(format_args!("patterns, loop {l}")),
            TuneRows::Patterns { .. } => ui.label("patterns"),
            TuneRows::Sequences { looping: true, .. } => ui.label("sequences, loop"),
            TuneRows::Sequences { .. } => ui.label("sequences"),
        }
    }
}

/// The undo step a field's turns join: the field `k` of sound effect `sfx`.
fn field_gesture(sfx: usize, k: usize) -> Gesture {
    Gesture {
        kind: FIELD,
        place: (sfx, usize::MAX, k),
    }
}
