//! The editor cart: its state, its edits, previews, saves and undo, and its `update`. Its
//! widgets are declared in [`chrome`], what each key does is in [`keys`], what the pointer does
//! on the note grid in [`pointer`]; it draws in [`super::draw`].

use bt::sound::{Channel, Fade, Note, NoteEffect, Wave, MAX_NOTE_VOLUME, MAX_PITCH};
use bt::ui::{ListState, Ui};
use bt::{Button, Cart, Key, Player, Render, Settings, Update};

mod chrome;
mod keys;
mod pointer;

pub use keys::KEYS;

use crate::edit::SaveTarget;

use super::history::{Gesture, History};
use super::layout::{self, VISIBLE_ROWS};
use super::{SoundDoc, Sounds, TuneRows};

/// The waves the wave column steps through, in order (a digit key picks one by its place).
pub const WAVES: [Wave; 10] = [
    Wave::Square { duty: 128 },
    Wave::Square { duty: 64 },
    // `sq12`, as a file reads it (12% of 256, rounded down).
    Wave::Square { duty: 30 },
    Wave::Triangle,
    Wave::Saw,
    Wave::Sine,
    Wave::TiltedSaw,
    Wave::Organ,
    Wave::Phaser,
    Wave::Noise,
];

/// The effects the effect column steps through, in order (a digit key picks one).
pub const EFFECTS: [NoteEffect; 8] = [
    NoteEffect::None,
    NoteEffect::Slide,
    NoteEffect::Vibrato,
    NoteEffect::Drop,
    NoteEffect::FadeIn,
    NoteEffect::FadeOut,
    NoteEffect::Arpeggio,
    NoteEffect::ArpeggioGroup { units: 4 },
];

/// A note typed on a rest: middle C, a square wave, volume 5.
pub const TYPED_NOTE: Note = Note::new(48, Wave::Square { duty: 128 }, 5);

/// How long an arrow or value key is held before it repeats: a third of a second at 60
/// updates a second, longer than any tap, so a tap moves once (as a text editor's keys do).
const REPEAT_DELAY: u64 = 20;
/// Updates between repeats after that: 15 a second.
const REPEAT_EVERY: u64 = 4;

/// The name the editor's own preview sounds are loaded under: loading it again replaces the
/// last preview, so previews never pile up in the console.
const PREVIEW: &str = "sound-edit preview";

/// Which page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// One sound effect's notes.
    Sfx,
    /// One tune's patterns or sequence lines.
    Tune,
}

/// Gesture kinds, for undo steps that join.
const DRAG_PITCH: u8 = 1;
const DRAG_VOLUME: u8 = 2;
const WHEEL: u8 = 3;
const FIELD: u8 = 4;

/// Updates between repeats of a held d-pad direction on the grid: the kit's pace for the
/// focus, about eight steps a second.
const PAD_REPEAT: u64 = 8;

/// The sound editor.
pub struct SoundEditor {
    pub(super) doc: SoundDoc,
    history: History,
    /// The sounds as last saved (or read), to show whether there is anything to save.
    saved: Sounds,
    target: Box<dyn SaveTarget>,
    pub(super) view: View,
    /// The sound effect shown, the note and column of the cursor, the first row showing.
    pub(super) sfx: usize,
    pub(super) row: usize,
    pub(super) col: usize,
    pub(super) top: usize,
    /// The other end of the selection, when notes are selected.
    pub(super) anchor: Option<usize>,
    /// The tune shown, its cursor and first row showing.
    pub(super) tune: usize,
    pub(super) trow: usize,
    pub(super) tcol: usize,
    pub(super) ttop: usize,
    /// The last message: saved, undone, or what went wrong.
    pub(super) status: String,
    /// The channel a preview plays on, and the note of the sound effect it starts at.
    pub(super) playing: Option<(Channel, usize)>,
    pub(super) tune_playing: bool,
    /// The note the preview plays, or the pattern (or place in the list) the tune is at.
    pub(super) head: Option<usize>,
    pub(super) pointer: (i32, i32),
    wheel: f32,
    clipboard: Vec<Note>,
    /// The update each key went down at, for its repeats.
    key_since: [u64; bt::limits::KEY_COUNT],
    /// The widgets; `None` only while they are being declared (the editor lends itself to
    /// them then).
    pub(super) ui: Option<Ui>,
    /// The sound list's selection and scroll.
    list: ListState,
    /// The name field's text.
    name: String,
    /// Whether a drag begun on the grid goes on.
    dragging: bool,
}

impl SoundEditor {
    /// An editor of `doc`, saving to `target`.
    pub fn new(doc: SoundDoc, target: Box<dyn SaveTarget>) -> SoundEditor {
        let saved = doc.sounds.clone();
        SoundEditor {
            doc,
            history: History::default(),
            saved,
            target,
            view: View::Sfx,
            sfx: 0,
            row: 0,
            col: 0,
            top: 0,
            anchor: None,
            tune: 0,
            trow: 0,
            tcol: 0,
            ttop: 0,
            status: String::new(),
            playing: None,
            tune_playing: false,
            head: None,
            pointer: (0, 0),
            wheel: 0.0,
            clipboard: Vec::new(),
            key_since: [0; bt::limits::KEY_COUNT],
            ui: Some(Ui::new()),
            list: ListState::default(),
            name: String::new(),
            dragging: false,
        }
    }

    /// The document being edited.
    pub fn doc(&self) -> &SoundDoc {
        &self.doc
    }

    /// Where the widget at `index` (see [`layout::widget`]) went in the last update: for
    /// tests and scripted sessions that click it.
    pub fn widget_rect(&self, index: usize) -> Option<bt::Rect> {
        self.ui.as_ref()?.rect_of(index)
    }

    /// Whether there are edits not saved.
    pub fn is_dirty(&self) -> bool {
        self.doc.sounds != self.saved
    }

    /// The notes selected (the cursor's alone when there is no selection).
    pub(super) fn selection(&self) -> std::ops::Range<usize> {
        let a = self.anchor.unwrap_or(self.row);
        a.min(self.row)..a.max(self.row) + 1
    }

    fn notes_len(&self) -> usize {
        self.doc
            .sounds
            .sfx
            .get(self.sfx)
            .map_or(0, |e| e.sfx.notes.len())
    }

    fn note(&self) -> Note {
        self.doc
            .sounds
            .sfx
            .get(self.sfx)
            .and_then(|e| e.sfx.notes.get(self.row))
            .copied()
            .unwrap_or(Note::rest())
    }

    /// The keys that act this update, one bit a key: those pressed, and those held past
    /// [`REPEAT_DELAY`] every [`REPEAT_EVERY`] updates.
    fn fired_keys(&mut self, ctx: &Update<'_>) -> u128 {
        let now = ctx.ticks();
        let mut fired = 0;
        for &key in Key::ALL {
            let i = key as usize;
            if ctx.is_key_pressed(key) {
                self.key_since[i] = now;
                fired |= 1 << i;
            } else if ctx.is_key_down(key) {
                let held = now.saturating_sub(self.key_since[i]);
                if held >= REPEAT_DELAY && (held - REPEAT_DELAY).is_multiple_of(REPEAT_EVERY) {
                    fired |= 1 << i;
                }
            }
        }
        fired
    }

    /// Makes an edit as one undo step (joined to the last with the same `gesture`).
    fn edit(&mut self, gesture: Option<Gesture>, change: impl FnOnce(&mut SoundDoc)) {
        let before = self.doc.sounds.clone();
        change(&mut self.doc);
        if self.doc.sounds != before {
            self.history.record(before, gesture);
        }
    }

    /// Changes the note at `row` with `f`, as one undo step.
    fn edit_note(&mut self, row: usize, gesture: Option<Gesture>, f: impl FnOnce(Note) -> Note) {
        let sfx = self.sfx;
        let Some(&old) = self
            .doc
            .sounds
            .sfx
            .get(sfx)
            .and_then(|e| e.sfx.notes.get(row))
        else {
            return;
        };
        let new = f(old);
        self.edit(gesture, |doc| doc.set_note(sfx, row, new));
    }

    fn keep_cursor_in_view(&mut self) {
        let len = self.notes_len().max(1);
        self.row = self.row.min(len - 1);
        if let Some(a) = self.anchor {
            self.anchor = Some(a.min(len - 1));
        }
        if self.row < self.top {
            self.top = self.row;
        }
        if self.row >= self.top + VISIBLE_ROWS {
            self.top = self.row + 1 - VISIBLE_ROWS;
        }
        let rows = self.tune_rows_len().max(1);
        self.trow = self.trow.min(rows - 1);
        self.tcol = self.tcol.min(self.tune_columns().saturating_sub(1));
        if self.trow < self.ttop {
            self.ttop = self.trow;
        }
        if self.trow >= self.ttop + VISIBLE_ROWS {
            self.ttop = self.trow + 1 - VISIBLE_ROWS;
        }
    }

    fn tune_rows_len(&self) -> usize {
        self.doc
            .sounds
            .tunes
            .get(self.tune)
            .map_or(0, |t| t.rows.len())
    }

    /// The columns the tune's cursor can be on: four channels, or a sequence line's channel,
    /// its sounds and one place past them to add a sound.
    pub(super) fn tune_columns(&self) -> usize {
        match self.doc.sounds.tunes.get(self.tune).map(|t| &t.rows) {
            Some(TuneRows::Sequences { rows, .. }) => {
                rows.get(self.trow).map_or(1, |(_, list)| list.len() + 2)
            }
            Some(_) => bt::sound::CHANNELS,
            None => 0,
        }
    }

    /// How many of a sequence line's sounds are scrolled off to the left, so the cursor's
    /// shows: four show at once beside the channel.
    pub(super) fn tune_shift(&self) -> usize {
        match self.doc.sounds.tunes.get(self.tune).map(|t| &t.rows) {
            Some(TuneRows::Sequences { .. }) => {
                self.tcol.saturating_sub(layout::TUNE_COLUMNS.len() - 1)
            }
            _ => 0,
        }
    }

    fn say(&mut self, message: impl Into<String>) {
        self.status = message.into();
    }

    fn save(&mut self) {
        match self.doc.checked_text() {
            Ok(text) => match self.target.save(text.as_bytes()) {
                Ok(()) => {
                    self.saved = self.doc.sounds.clone();
                    self.say(format!("saved {}", self.doc.name()));
                }
                Err(e) => self.say(e),
            },
            Err(e) => self.say(e),
        }
    }

    fn undo(&mut self, redo: bool) {
        let now = self.doc.sounds.clone();
        let back = if redo {
            self.history.redo(now)
        } else {
            self.history.undo(now)
        };
        match back {
            Some(sounds) => {
                self.doc.sounds = sounds;
                self.say(if redo { "redone" } else { "undone" });
            }
            None => self.say(if redo {
                "nothing to redo"
            } else {
                "nothing to undo"
            }),
        }
        self.sfx = self.sfx.min(self.doc.sounds.sfx.len().saturating_sub(1));
        self.tune = self.tune.min(self.doc.sounds.tunes.len().saturating_sub(1));
        self.keep_cursor_in_view();
    }

    /// Plays the selection (or the whole sound effect), looping it with `looping`; stops what
    /// the editor plays when it plays already.
    fn play(&mut self, ctx: &mut Update<'_>, looping: bool) {
        self.stop(ctx);
        if self.doc.sounds.sfx.is_empty() {
            return;
        }
        let mut preview = self.doc.clone();
        let range = if self.anchor.is_some() {
            self.selection()
        } else {
            0..self.notes_len()
        };
        let len = self.notes_len();
        preview.remove_notes(self.sfx, range.end..len);
        preview.remove_notes(self.sfx, 0..range.start);
        preview.set_loop(self.sfx, looping.then_some(0));
        let name = self.doc.sounds.sfx[self.sfx].name.clone();
        match ctx.decode_sounds(PREVIEW, &preview.to_text()) {
            Ok(bank) => {
                let channel = bank
                    .sfx(&name)
                    .and_then(|id| ctx.play_sfx(id, Some(Channel::ONE)).ok()?.channel());
                self.playing = channel.map(|c| (c, range.start));
            }
            Err(e) => self.say(e.to_string()),
        }
    }

    fn play_tune(&mut self, ctx: &mut Update<'_>) {
        self.stop(ctx);
        let Some(name) = self.doc.sounds.tunes.get(self.tune).map(|t| t.name.clone()) else {
            return;
        };
        match ctx.decode_sounds(PREVIEW, &self.doc.to_text()) {
            Ok(bank) => {
                self.tune_playing = bank
                    .music(&name)
                    .is_some_and(|id| ctx.play_music(id).is_ok());
            }
            Err(e) => self.say(e.to_string()),
        }
    }

    fn stop(&mut self, ctx: &mut Update<'_>) {
        if let Some((channel, _)) = self.playing.take() {
            ctx.stop_channel(channel, Fade::INSTANT);
        }
        if std::mem::take(&mut self.tune_playing) {
            ctx.stop_music(Fade::INSTANT);
        }
    }

    /// One value of the cursor's cell stepped by `by` (a pitch by semitones, else along its
    /// list); `shift` steps a pitch by octaves.
    fn step_note(note: Note, col: usize, by: i32, shift: bool) -> Note {
        let mut n = note;
        match col {
            0 => {
                if note == Note::rest() {
                    return TYPED_NOTE;
                }
                let by = if shift { by * 12 } else { by };
                n.pitch = (i32::from(n.pitch) + by).clamp(0, i32::from(MAX_PITCH)) as u8;
            }
            1 => {
                let at = WAVES
                    .iter()
                    .position(|&w| w == n.wave)
                    .map_or(0, |i| i as i32 + by);
                n.wave = WAVES[at.rem_euclid(WAVES.len() as i32) as usize];
            }
            2 => {
                n.volume = (i32::from(n.volume) + by).clamp(0, i32::from(MAX_NOTE_VOLUME)) as u8;
            }
            _ => {
                let at = EFFECTS
                    .iter()
                    .position(|&e| e == n.effect)
                    .map_or(0, |i| i as i32 + by);
                n.effect = EFFECTS[at.rem_euclid(EFFECTS.len() as i32) as usize];
            }
        }
        n
    }

    fn pick_sfx(&mut self, by: i32) {
        let n = self.doc.sounds.sfx.len() as i32;
        if n > 0 {
            self.sfx = (self.sfx as i32 + by).rem_euclid(n) as usize;
            (self.row, self.top, self.anchor) = (0, 0, None);
        }
    }

    fn pick_tune(&mut self, by: i32) {
        let n = self.doc.sounds.tunes.len() as i32;
        if n > 0 {
            self.tune = (self.tune as i32 + by).rem_euclid(n) as usize;
            (self.trow, self.tcol, self.ttop) = (0, 0, 0);
        }
    }

    /// The sound effect the tune cursor's cell names, stepped by `by` through those the tune
    /// may name (and none, for a pattern).
    fn step_cell(&mut self, by: i32) {
        let Some(t) = self.doc.sounds.tunes.get(self.tune) else {
            return;
        };
        let usable = self.doc.sfx_for_tune(self.tune);
        let (tune, row) = (self.tune, self.trow);
        match &t.rows {
            TuneRows::Sequences { rows, .. } if self.tcol == 0 => {
                let ch = rows.get(row).map_or(0, |r| r.0) as i32;
                let ch = (ch + by).rem_euclid(bt::sound::CHANNELS as i32) as usize;
                self.edit(None, |doc| doc.set_channel(tune, row, ch));
            }
            rows => {
                let cell = match rows {
                    TuneRows::Sequences { .. } => self.tcol - 1,
                    _ => self.tcol,
                };
                let now = rows.cells(row).get(cell).copied().flatten();
                // The choices: none (a pattern's silent channel), then each usable sound.
                let none = matches!(rows, TuneRows::Patterns { .. });
                let mut choices: Vec<Option<usize>> = Vec::new();
                if none {
                    choices.push(None);
                }
                choices.extend(usable.iter().map(|&i| Some(i)));
                if choices.is_empty() {
                    return;
                }
                let at = choices.iter().position(|c| *c == now);
                let next = match at {
                    Some(i) => (i as i32 + by).rem_euclid(choices.len() as i32) as usize,
                    None if by > 0 => 0,
                    None => choices.len() - 1,
                };
                let pick = choices[next];
                self.edit(None, |doc| doc.set_cell(tune, row, cell, pick));
            }
        }
    }
}

impl SoundEditor {
    /// The keys of both pages, then the page's; `on_grid` when the grid has the focus (the
    /// arrows, Space and Enter are the widgets' otherwise).
    fn keys(&mut self, ctx: &mut Update<'_>, fired: u128, ctrl: bool, shift: bool, on_grid: bool) {
        if ctrl && ctx.is_key_pressed(Key::KeyS) {
            self.save();
        }
        if ctrl && (ctx.is_key_pressed(Key::KeyY) || shift && ctx.is_key_pressed(Key::KeyZ)) {
            self.undo(true);
        } else if ctrl && ctx.is_key_pressed(Key::KeyZ) {
            self.undo(false);
        }
        if ctrl && ctx.is_key_pressed(Key::KeyT) {
            self.view = match self.view {
                View::Sfx => View::Tune,
                View::Tune => View::Sfx,
            };
        }
        if on_grid && ctx.is_key_pressed(Key::Space) {
            self.play_or_stop(ctx, shift);
        }
        // Keys the focus moves with are the grid's only while it has the focus.
        let fired = if on_grid {
            fired
        } else {
            let nav = [
                Key::ArrowUp,
                Key::ArrowDown,
                Key::ArrowLeft,
                Key::ArrowRight,
            ];
            nav.iter().fold(fired, |f, &k| f & !(1 << (k as usize)))
        };
        match self.view {
            View::Sfx => self.sfx_keys(ctx, fired, ctrl, shift),
            View::Tune if !ctrl => self.tune_keys(ctx, fired, on_grid),
            View::Tune => {}
        }
    }

    /// Space: stops what plays, or plays the page's sound (looping it with `looping`).
    fn play_or_stop(&mut self, ctx: &mut Update<'_>, looping: bool) {
        let was = self.playing.is_some() || self.tune_playing;
        if was && !looping {
            self.stop(ctx);
        } else {
            self.play_page(ctx, looping);
        }
    }

    /// Plays what the page shows: the selection or sound effect, or the tune.
    fn play_page(&mut self, ctx: &mut Update<'_>, looping: bool) {
        match self.view {
            View::Sfx => self.play(ctx, looping),
            View::Tune => self.play_tune(ctx),
        }
    }

    /// A gamepad on the grid: the d-pad moves the cursor, A plays or stops. Only while no key
    /// is in play, as keys reach the same buttons through the key map.
    fn pad(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_any_key_down() || ctx.is_any_key_pressed() {
            return;
        }
        let one = Player::ONE;
        let pressed = |b| ctx.is_pressed_repeat(b, one, PAD_REPEAT);
        let (up, down) = (pressed(Button::UP), pressed(Button::DOWN));
        let (left, right) = (pressed(Button::LEFT), pressed(Button::RIGHT));
        match self.view {
            View::Sfx => {
                let last = self.notes_len().saturating_sub(1);
                if up || down {
                    self.anchor = None;
                }
                if up {
                    self.row = self.row.saturating_sub(1);
                }
                if down {
                    self.row = (self.row + 1).min(last);
                }
                if left {
                    self.col = self.col.saturating_sub(1);
                }
                if right {
                    self.col = (self.col + 1).min(3);
                }
            }
            View::Tune => {
                if up {
                    self.trow = self.trow.saturating_sub(1);
                }
                if down {
                    self.trow += 1;
                }
                if left {
                    self.tcol = self.tcol.saturating_sub(1);
                }
                if right {
                    self.tcol += 1;
                }
            }
        }
        self.keep_cursor_in_view();
        if ctx.is_pressed(Button::A, one) {
            self.play_or_stop(ctx, false);
        }
    }

    /// A new sound effect, shown on its page.
    fn new_sfx(&mut self) {
        let mut at = 0;
        self.edit(None, |doc| at = doc.add_sfx());
        (self.sfx, self.row, self.top, self.anchor) = (at, 0, 0, None);
        self.view = View::Sfx;
        let name = self.doc.sounds.sfx[at].name.clone();
        self.say(format!("new sound effect {name}"));
    }

    /// Removes the selected notes (one note always stays).
    fn delete_notes(&mut self) {
        let (sfx, range) = (self.sfx, self.selection());
        let mut done = false;
        self.edit(None, |doc| done = doc.remove_notes(sfx, range.clone()));
        if done {
            self.row = range.start;
            self.anchor = None;
        } else {
            self.say("a sound effect keeps one note at least");
        }
    }

    /// Removes the tune cursor's row (a tune of patterns keeps one).
    fn delete_row(&mut self) {
        let (tune, row) = (self.tune, self.trow);
        let mut done = false;
        self.edit(None, |doc| done = doc.remove_row(tune, row));
        if !done {
            self.say("a tune of patterns keeps one pattern at least");
        }
    }
}

impl Cart for SoundEditor {
    fn configure(&self) -> Settings {
        let (w, h) = layout::DISPLAY;
        Settings::default()
            .display(w, h)
            .title(&format!("{} - BT sound editor", self.doc.name()))
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let fired = self.fired_keys(ctx);
        let ctrl = modifier(ctx, [Key::ControlLeft, Key::ControlRight]);
        let shift = modifier(ctx, [Key::ShiftLeft, Key::ShiftRight]);
        let Some(mut ui) = self.ui.take() else {
            return;
        };
        // Text typed into the name field is the field's, not the editor's keys.
        let was_typing = ui.is_editing();
        // The grid has the keys until the focus goes elsewhere (Tab, a click on a widget).
        let boot = ui.focus().is_none();
        if boot {
            ui.set_focus_to(Some(chrome::GRID_WIDGET));
        }
        let grid = ui.frame(ctx, |ui, ctx| self.declare(ui, ctx));
        let typing = was_typing || ui.is_editing();
        if ui.focus().is_none() {
            ui.set_focus_to(Some(chrome::GRID_WIDGET));
        }
        self.ui = Some(ui);
        let on_grid = (grid.focused() || boot) && !typing;
        if !typing {
            self.keys(ctx, fired, ctrl, shift, on_grid);
        }
        if on_grid {
            self.pad(ctx);
        }
        self.pointer(ctx, &grid);
        // What played may have ended; the play head follows what plays.
        self.head = None;
        if let Some((channel, from)) = self.playing {
            let state = ctx.channel_state(channel);
            match state.sfx {
                Some(_) => self.head = Some(from + state.note),
                None => self.playing = None,
            }
        }
        if self.tune_playing {
            match ctx.music_pattern() {
                Some((_, pattern)) => self.head = Some(pattern),
                None => self.tune_playing = false,
            }
        }
        self.sfx = self.sfx.min(self.doc.sounds.sfx.len().saturating_sub(1));
        self.tune = self.tune.min(self.doc.sounds.tunes.len().saturating_sub(1));
        self.keep_cursor_in_view();
    }

    fn render(&self, ctx: &mut Render<'_>) {
        super::draw::draw(self, ctx);
    }

    fn test_state(&self) -> Option<String> {
        Some(format!(
            "{{\"view\":\"{:?}\",\"sfx\":{},\"row\":{},\"col\":{},\"tune\":{},\"trow\":{},\"tcol\":{},\"dirty\":{},\"undo\":{},\"playing\":{}}}",
            self.view,
            self.sfx,
            self.row,
            self.col,
            self.tune,
            self.trow,
            self.tcol,
            self.is_dirty(),
            self.history.undo_len(),
            self.playing.is_some() || self.tune_playing
        ))
    }
}

/// Whether a modifier (either of its `keys`) was held at any moment since the previous update.
/// In a quick chord the modifier goes down before one update and the key down and up, and the
/// modifier up, before the next: that update sees the modifier released, and it still counts.
fn modifier(ctx: &Update<'_>, keys: [Key; 2]) -> bool {
    keys.iter()
        .any(|&k| ctx.is_key_down(k) || ctx.is_key_released(k))
}

impl std::fmt::Debug for SoundEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SoundEditor")
            .field("file", &self.doc.name())
            .field("view", &self.view)
            .finish_non_exhaustive()
    }
}
