//! The sound editor as a player meets it, headless: scripted keys and pointer gestures, what
//! they change in the file it saves, undo and redo, previews heard through the console, and
//! golden pictures of its two pages.
//!
//! Golden pictures follow the one rule of `bt_runtime::harness::golden`: `BT_UPDATE_GOLDEN=1`
//! rewrites `tests/golden/` after a reviewed change.

use std::path::Path;
use std::sync::{Arc, Mutex};

use bt::sound::{Note, SoundFile, Wave};
use bt::{Button, Key, Player};
use bt_runtime::edit::{Kept, SaveTarget};
use bt_runtime::harness::golden;
use bt_runtime::replay::{frame_hash, Replay};
use bt_runtime::sound_edit::{layout, SoundDoc, SoundEditor, MAX_UNDO};
use bt_runtime::{Engine, EngineOptions};

mod editing;
use editing::{tap, tap_with};

const PLATFORMER: &str = include_str!("../../carts/platformer/assets/music.txt");

/// What the editor saved, each save's text in turn.
#[derive(Clone, Default)]
struct Saves(Arc<Mutex<Vec<String>>>);

impl SaveTarget for Saves {
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        let text = String::from_utf8(bytes.to_vec()).expect("the editor saves text");
        self.0.lock().unwrap().push(text);
        Ok(())
    }
}

impl Saves {
    fn last(&self) -> Option<String> {
        self.0.lock().unwrap().last().cloned()
    }
}

/// The editor on `text`, in an engine, and where its saves go.
fn editor(text: &str) -> (Engine, Saves) {
    let (mut engine, saves) = editor_playing(text, None);
    engine.step(1).unwrap();
    (engine, saves)
}

/// The editor on `text`, booted, its updates seeing `replay`'s input when one is given.
fn editor_playing(text: &str, replay: Option<Arc<Replay>>) -> (Engine, Saves) {
    let saves = Saves::default();
    let (text, target) = (text.to_string(), saves.clone());
    let make = move || {
        let doc = SoundDoc::read("music.txt", &text).expect("a good file");
        Box::new(SoundEditor::new(doc, Box::new(target.clone()))) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        replay,
        ..EngineOptions::default()
    };
    let engine = Engine::new(Box::new(make), options).expect("the editor boots");
    (engine, saves)
}

fn taps(e: &mut Engine, keys: &[Key]) {
    for &k in keys {
        tap(e, k);
    }
}

/// A click of the left button at display pixel (`x`, `y`).
fn click(e: &mut Engine, x: i32, y: i32) {
    let input = e.console_mut().input_mut();
    input.set_pointer_pos(x, y);
    input.set_buttons(Button::POINTER_A, Player::ONE, true);
    e.step(1).unwrap();
    e.console_mut()
        .input_mut()
        .set_buttons(Button::POINTER_A, Player::ONE, false);
    e.step(1).unwrap();
}

fn state(e: &Engine) -> String {
    e.test_state().unwrap()
}

/// The lines of `a` and `b` that differ, as (line, a's, b's).
fn changed_lines(a: &str, b: &str) -> Vec<(usize, String, String)> {
    let (a, b): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .map(|i| {
            let line = |v: &Vec<&str>| v.get(i).unwrap_or(&"").to_string();
            (i + 1, line(&a), line(&b))
        })
        .collect()
}

fn assert_golden(e: &Engine, name: &str) {
    let fb = e.framebuffer();
    let mut rgba = vec![0; fb.pixels().len() * 4];
    e.palette().write_rgba(fb.pixels(), &mut rgba);
    golden::assert_matches(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name),
        golden::Rgba {
            width: fb.width(),
            height: fb.height(),
            pixels: &rgba,
        },
    );
}

#[test]
fn keys_change_a_note_and_ctrl_s_saves_a_file_that_reads_back_as_edited() {
    let (mut e, saves) = editor(PLATFORMER);
    // The second note of lead_a, G5: a semitone up, then volume 7.
    taps(
        &mut e,
        &[
            Key::ArrowDown,
            Key::Equal,
            Key::ArrowRight,
            Key::ArrowRight,
            Key::Digit7,
        ],
    );
    assert!(state(&e).contains("\"dirty\":true"), "{}", state(&e));
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().expect("saved");
    assert_eq!(
        changed_lines(PLATFORMER, &text),
        [(9, "G5 sq25 4".into(), "G#5 sq25 7".into())]
    );
    let back = SoundFile::parse("music.txt", &text).unwrap();
    assert_eq!(
        back.sfx[0].1.notes[1],
        Note::new(68, Wave::Square { duty: 64 }, 7)
    );
    assert!(state(&e).contains("\"dirty\":false"), "{}", state(&e));
}

#[test]
fn a_quick_chord_keeps_its_modifier() {
    let (mut e, saves) = editor(PLATFORMER);
    // A quick hand (or a tool sending keys): the modifier goes down before one update, and the
    // key goes down and up, and the modifier up, before the next. That update sees the key
    // pressed and the modifier released, no longer held.
    let chord = |e: &mut Engine, modifier: Key, key: Key| {
        e.console_mut().input_mut().set_key(modifier, true);
        e.step(1).unwrap();
        let input = e.console_mut().input_mut();
        input.set_key(key, true);
        input.set_key(key, false);
        input.set_key(modifier, false);
        e.step(1).unwrap();
    };
    chord(&mut e, Key::ShiftLeft, Key::Equal);
    chord(&mut e, Key::ControlLeft, Key::KeyS);
    let text = saves.last().expect("Ctrl+S saved");
    assert_eq!(
        changed_lines(PLATFORMER, &text),
        [(8, "E5 sq25 4".into(), "E6 sq25 4".into())],
        "Shift+= raised the note an octave"
    );
}

#[test]
fn saving_without_an_edit_writes_the_same_bytes() {
    let (mut e, saves) = editor(PLATFORMER);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(saves.last().as_deref(), Some(PLATFORMER));
}

#[test]
fn ctrl_z_undoes_and_ctrl_y_or_ctrl_shift_z_redoes() {
    let (mut e, saves) = editor(PLATFORMER);
    taps(&mut e, &[Key::Equal, Key::Equal]);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let one_up = saves.last().unwrap();
    assert!(
        one_up.contains("\nF5 sq25 4\n"),
        "E5 went up once: {one_up}"
    );
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(saves.last().as_deref(), Some(PLATFORMER), "back as read");
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyY);
    tap_with(&mut e, &[Key::ControlLeft, Key::ShiftLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert!(saves.last().unwrap().contains("\nF#5 sq25 4\n"));
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyY);
    assert!(state(&e).contains("\"dirty\":false"));
}

#[test]
fn the_history_keeps_the_last_edits_only() {
    let (mut e, _) = editor(PLATFORMER);
    // Alternating up and down: every tap is an edit.
    for i in 0..MAX_UNDO + 20 {
        tap(&mut e, if i % 2 == 0 { Key::Equal } else { Key::Minus });
    }
    assert!(
        state(&e).contains(&format!("\"undo\":{MAX_UNDO}")),
        "{}",
        state(&e)
    );
}

#[test]
fn insert_delete_and_backspace_edit_the_rows() {
    let (mut e, saves) = editor(PLATFORMER);
    // Insert a copy of E5 after it, rest the copy, then delete lead_a's third and fourth notes.
    taps(&mut e, &[Key::Insert, Key::Backspace, Key::ArrowDown]);
    tap_with(&mut e, &[Key::ShiftLeft], Key::ArrowDown);
    tap(&mut e, Key::Delete);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().unwrap();
    assert!(
        text.contains("sfx lead_a 15 attack=1 release=4\nE5 sq25 4\n--\nG5 sq25 4\nA5 sq25 4\n"),
        "{text}"
    );
    assert_eq!(
        SoundFile::parse("music.txt", &text).unwrap().sfx[0]
            .1
            .notes
            .len(),
        15
    );
}

#[test]
fn a_click_picks_a_cell_and_the_wheel_changes_it() {
    let (mut e, saves) = editor(PLATFORMER);
    // The volume cell of note 2.
    let (x, _) = layout::NOTE_COLUMNS[2];
    let y = layout::row_y(2) + 4;
    click(&mut e, x + 2, y);
    assert!(state(&e).contains("\"row\":2,\"col\":2"), "{}", state(&e));
    // Two updates of turns up: a step up each.
    e.console_mut().input_mut().add_wheel(0.0, -2.0);
    e.step(1).unwrap();
    e.console_mut().input_mut().add_wheel(0.0, -1.0);
    e.step(1).unwrap();
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().unwrap();
    assert_eq!(
        changed_lines(PLATFORMER, &text),
        [(10, "C6 sq25 4".into(), "C6 sq25 6".into())]
    );
    // The wheel's turns on one cell are one undo step.
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(saves.last().as_deref(), Some(PLATFORMER));
}

#[test]
fn a_drag_over_the_graph_draws_pitches_as_one_undo_step() {
    let (mut e, saves) = editor(PLATFORMER);
    let g = layout::PITCH_GRAPH;
    let w = layout::bar_width(16);
    let input = e.console_mut().input_mut();
    input.set_pointer_pos(g.x + 1, g.y + g.h - 1 - 60);
    input.set_buttons(Button::POINTER_A, Player::ONE, true);
    e.step(1).unwrap();
    for bar in 1..4 {
        e.console_mut()
            .input_mut()
            .set_pointer_pos(g.x + bar * w + 1, g.y + g.h - 1 - 60);
        e.step(1).unwrap();
    }
    e.console_mut()
        .input_mut()
        .set_buttons(Button::POINTER_A, Player::ONE, false);
    e.step(1).unwrap();
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().unwrap();
    let pitch = layout::pitch_at(g.y + g.h - 1 - 60);
    let back = SoundFile::parse("music.txt", &text).unwrap();
    for note in &back.sfx[0].1.notes[..4] {
        assert_eq!(note.pitch, pitch);
    }
    assert_eq!(back.sfx[0].1.notes[4].pitch, 69, "A5 untouched");
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(saves.last().as_deref(), Some(PLATFORMER), "one undo step");
}

#[test]
fn space_plays_the_sound_through_the_console_and_stops_it() {
    let (mut e, _) = editor(PLATFORMER);
    e.console_mut().drain_samples().for_each(drop);
    tap(&mut e, Key::Space);
    e.step(10).unwrap();
    assert!(state(&e).contains("\"playing\":true"), "{}", state(&e));
    let loud = e.console_mut().drain_samples().filter(|s| *s != 0).count();
    assert!(loud > 100, "{loud} samples not silent");
    tap(&mut e, Key::Space);
    e.step(10).unwrap();
    assert!(state(&e).contains("\"playing\":false"), "{}", state(&e));
    e.console_mut().drain_samples().for_each(drop);
    e.step(5).unwrap();
    assert_eq!(
        e.console_mut().drain_samples().filter(|s| *s != 0).count(),
        0
    );
}

#[test]
fn the_tune_page_changes_which_sound_a_sequence_plays() {
    let (mut e, saves) = editor(PLATFORMER);
    // To the tune (Ctrl+T: Tab moves the widgets' focus); channel 0's second sound, lead_b,
    // one step on (to bass_a).
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyT);
    taps(&mut e, &[Key::ArrowRight, Key::ArrowRight, Key::Equal]);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().unwrap();
    assert_eq!(
        changed_lines(PLATFORMER, &text),
        [(
            100,
            "0 lead_a lead_b lead_a lead_b".into(),
            "0 lead_a bass_a lead_a lead_b".into()
        )]
    );
    // Enter opens the cell's sound effect.
    tap(&mut e, Key::Enter);
    assert!(
        state(&e).contains("\"view\":\"Sfx\",\"sfx\":2"),
        "{}",
        state(&e)
    );
}

#[test]
fn ctrl_n_makes_a_sound_effect_the_file_keeps() {
    let (mut e, saves) = editor(PLATFORMER);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyN);
    // Type an E on its first row, then an octave 6.
    taps(&mut e, &[Key::KeyE, Key::ArrowUp, Key::Digit6]);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let text = saves.last().unwrap();
    let back = SoundFile::parse("music.txt", &text).unwrap();
    let (name, sfx) = back.sfx.last().unwrap();
    assert_eq!(name, "sfx1");
    assert_eq!(sfx.notes[0], Note::new(76, Wave::Square { duty: 128 }, 5));
    assert!(text.contains("\nsfx sfx1 15\nE6 sq 5\n--\n"), "{text}");
}

#[test]
fn golden_pictures_of_the_two_pages() {
    let (mut e, _) = editor(PLATFORMER);
    // A selection of three notes on lead_b, the cursor on the wave column, a loop set.
    taps(
        &mut e,
        &[Key::BracketRight, Key::ArrowDown, Key::ArrowDown, Key::KeyL],
    );
    tap_with(&mut e, &[Key::ShiftLeft], Key::ArrowDown);
    tap_with(&mut e, &[Key::ShiftLeft], Key::ArrowDown);
    tap(&mut e, Key::ArrowRight);
    tap(&mut e, Key::Equal);
    assert_golden(&e, "sound-edit-sfx.png");
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyT);
    taps(&mut e, &[Key::ArrowDown, Key::ArrowRight, Key::ArrowRight]);
    assert_golden(&e, "sound-edit-tune.png");
}

#[test]
fn a_held_arrow_moves_once_then_repeats_after_a_third_of_a_second() {
    let (mut e, _) = editor(PLATFORMER);
    let hold = |e: &mut Engine, updates: u64| {
        e.console_mut().input_mut().set_key(Key::ArrowDown, true);
        e.step(updates).unwrap();
        e.console_mut().input_mut().set_key(Key::ArrowDown, false);
        e.step(1).unwrap();
    };
    // A slow tap, a sixth of a second: one row.
    hold(&mut e, 10);
    assert!(state(&e).contains("\"row\":1,"), "{}", state(&e));
    // Held half a second: one row, then a row every 4 updates from the 20th.
    hold(&mut e, 30);
    assert!(state(&e).contains("\"row\":5,"), "{}", state(&e));
}

#[test]
fn a_recorded_editing_session_replays_to_the_same_picture_and_save() {
    let (mut e, saves) = editor_playing(PLATFORMER, None);
    e.start_recording(60);
    e.step(1).unwrap();
    taps(
        &mut e,
        &[
            Key::BracketRight,
            Key::ArrowDown,
            Key::KeyA,
            Key::ArrowRight,
        ],
    );
    click(&mut e, layout::NOTE_COLUMNS[3].0 + 2, layout::row_y(4) + 4);
    tap(&mut e, Key::Digit3);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let saved = saves.last().expect("saved");
    let replay = e.recording("sound-edit", None).expect("recorded");

    let (mut again, replayed) = editor_playing(PLATFORMER, Some(Arc::new(replay)));
    again.step(e.updates_since_init()).unwrap();
    assert_eq!(replayed.last().as_deref(), Some(saved.as_str()));
    assert_eq!(
        frame_hash(again.framebuffer(), again.palette()),
        frame_hash(e.framebuffer(), e.palette())
    );
    assert_eq!(again.test_state(), e.test_state());
    // It is the edit made: lead_b's second note an A5, its fifth a drop.
    let back = SoundFile::parse("music.txt", &saved).unwrap();
    assert_eq!(back.sfx[1].1.notes[1].pitch, 69);
    assert_eq!(back.sfx[1].1.notes[4].effect, bt::sound::NoteEffect::Drop);
}

#[test]
fn speed_keys_step_the_speed_within_what_a_file_holds() {
    let slow = "bt-sound 2\nsfx drone 400 release=3\nC2 tri 5\n";
    let (mut e, saves) = editor(slow);
    taps(&mut e, &[Key::Period, Key::Period]);
    tap_with(&mut e, &[Key::ShiftLeft], Key::Comma);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(
        saves.last().as_deref(),
        Some("bt-sound 2\nsfx drone 392 release=3\nC2 tri 5\n")
    );
}

/// Where the editor on `text` lays its widget `index` out (as every update does).
fn widget_at(text: &str, index: usize) -> bt::Rect {
    use bt::Cart;
    let doc = SoundDoc::read("music.txt", text).unwrap();
    let mut probe = SoundEditor::new(doc, Box::new(Kept::new()));
    let mut con = bt::host::Console::new(&bt::Settings::default(), 0);
    probe.update(&mut con.update_context(0));
    probe.widget_rect(index).expect("the widget is declared")
}

/// The editor on `text` saving into a `Kept`.
fn kept_editor(text: &str) -> (Engine, Kept) {
    let kept = Kept::new();
    let (text, target) = (text.to_string(), kept.clone());
    let make = move || {
        let doc = SoundDoc::read("music.txt", &text).expect("a good file");
        Box::new(SoundEditor::new(doc, Box::new(target.clone()))) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(make), options).expect("the editor boots");
    e.step(1).unwrap();
    (e, kept)
}

fn kept_text(kept: &Kept) -> String {
    String::from_utf8(kept.bytes().expect("saved")).unwrap()
}

/// A click inside `r`, `dx` pixels from its left edge.
fn click_in(e: &mut Engine, r: bt::Rect, dx: i32) {
    click(e, r.x + dx, r.y + r.h / 2);
}

fn press_pad(e: &mut Engine, button: Button) {
    e.console_mut()
        .input_mut()
        .set_buttons(button, Player::ONE, true);
    e.step(1).unwrap();
    e.console_mut()
        .input_mut()
        .set_buttons(button, Player::ONE, false);
    e.step(1).unwrap();
}

#[test]
fn the_pointer_renames_a_sound_steps_its_speed_and_saves_with_the_button() {
    let (mut e, kept) = kept_editor(PLATFORMER);
    let name = widget_at(PLATFORMER, layout::widget::NAME);
    let speed = widget_at(PLATFORMER, layout::widget::SPEED);
    let save = widget_at(PLATFORMER, layout::widget::SAVE);
    // A click on the name field, End, the text, Enter.
    click_in(&mut e, name, 60);
    e.console_mut().input_mut().push_text("_x");
    e.step(1).unwrap();
    tap(&mut e, Key::Enter);
    // The speed field's right arrow, twice; letters typed then were not notes.
    click_in(&mut e, speed, layout::SPEED_WIDTH - 3);
    click_in(&mut e, speed, layout::SPEED_WIDTH - 3);
    click_in(&mut e, save, 3);
    let text = kept_text(&kept);
    let changed = changed_lines(PLATFORMER, &text);
    let old_header = PLATFORMER
        .lines()
        .position(|l| l.starts_with("sfx lead_a"))
        .unwrap();
    let header = &changed[0];
    assert_eq!(header.0, old_header + 1, "{changed:?}");
    assert!(header.2.starts_with("sfx lead_a_x "), "{changed:?}");
    let back = SoundFile::parse("music.txt", &text).unwrap();
    let before = SoundFile::parse("music.txt", PLATFORMER).unwrap();
    assert_eq!(back.sfx[0].0, "lead_a_x");
    assert_eq!(back.sfx[0].1.speed, before.sfx[0].1.speed + 2);
    assert_eq!(back.sfx[0].1.notes, before.sfx[0].1.notes, "no note typed");
    // The tunes naming it name it anew, and play the same.
    assert_eq!(back.music.len(), before.music.len());
    assert!(text.contains("lead_a_x lead_b"), "{text}");
    assert!(!text.contains(" lead_a "), "{text}");
}

#[test]
fn a_name_a_file_cannot_hold_is_refused_and_nothing_changes() {
    let (mut e, kept) = kept_editor(PLATFORMER);
    let name = widget_at(PLATFORMER, layout::widget::NAME);
    click_in(&mut e, name, 60);
    // lead_a plus " b": a name of two words.
    e.console_mut().input_mut().push_text(" b");
    e.step(1).unwrap();
    tap(&mut e, Key::Enter);
    assert!(state(&e).contains("\"dirty\":false"), "{}", state(&e));
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept_text(&kept), PLATFORMER);
}

#[test]
fn tab_takes_the_keys_to_the_fields_and_back_to_the_grid() {
    let (mut e, kept) = kept_editor(PLATFORMER);
    // The grid has the keys: down a row. Tab: the speed field, right steps it; Shift+Tab back
    // to the grid, where right moves the cursor to the wave column and 3 picks `tri`.
    tap(&mut e, Key::ArrowDown);
    tap(&mut e, Key::Tab);
    tap(&mut e, Key::ArrowRight);
    assert!(state(&e).contains("\"row\":1,\"col\":0"), "{}", state(&e));
    tap_with(&mut e, &[Key::ShiftLeft], Key::Tab);
    taps(&mut e, &[Key::ArrowRight, Key::Digit3]);
    // Space on the Save button (Tab round to it) presses it and plays nothing.
    for _ in 0..12 {
        tap(&mut e, Key::Tab);
    }
    tap(&mut e, Key::Space);
    assert!(state(&e).contains("\"playing\":false"), "{}", state(&e));
    let back = SoundFile::parse("music.txt", &kept_text(&kept)).unwrap();
    let before = SoundFile::parse("music.txt", PLATFORMER).unwrap();
    assert_eq!(back.sfx[0].1.speed, before.sfx[0].1.speed + 1);
    assert_eq!(back.sfx[0].1.notes[1].wave, Wave::Triangle);
    assert_eq!(back.sfx[0].1.notes[0], before.sfx[0].1.notes[0]);
}

#[test]
fn a_gamepad_moves_on_the_grid_steps_a_field_and_presses_save() {
    let (mut e, kept) = kept_editor(PLATFORMER);
    // The d-pad on the grid: down two notes, right to the wave column.
    for b in [Button::DOWN, Button::DOWN, Button::RIGHT] {
        press_pad(&mut e, b);
    }
    assert!(state(&e).contains("\"row\":2,\"col\":1"), "{}", state(&e));
    // R: the focus to the next widgets (speed, loop, pitch, wave); right: the next wave.
    for _ in 0..4 {
        press_pad(&mut e, Button::R);
    }
    press_pad(&mut e, Button::RIGHT);
    // L back to Save (wave, ..., grid, name, list, save), A presses it.
    for _ in 0..7 {
        press_pad(&mut e, Button::L);
    }
    press_pad(&mut e, Button::A);
    let back = SoundFile::parse("music.txt", &kept_text(&kept)).unwrap();
    let before = SoundFile::parse("music.txt", PLATFORMER).unwrap();
    let at = bt_runtime::sound_edit::WAVES
        .iter()
        .position(|&w| w == before.sfx[0].1.notes[2].wave)
        .unwrap();
    assert_eq!(
        back.sfx[0].1.notes[2].wave,
        bt_runtime::sound_edit::WAVES[at + 1]
    );
    assert_eq!(back.sfx[0].1.notes[..2], before.sfx[0].1.notes[..2]);
}

#[test]
fn a_click_on_a_button_is_not_a_grid_click_and_the_tabs_change_the_page() {
    let (mut e, _) = kept_editor(PLATFORMER);
    let tabs = widget_at(PLATFORMER, layout::widget::TABS);
    tap(&mut e, Key::ArrowDown);
    click_in(&mut e, widget_at(PLATFORMER, layout::widget::STOP), 3);
    assert!(state(&e).contains("\"row\":1,"), "{}", state(&e));
    // TUNE is the second tab.
    click_in(&mut e, tabs, tabs.w - 3);
    assert!(state(&e).contains("\"view\":\"Tune\""), "{}", state(&e));
    // The grid has the keys back after a click on a widget, once the pointer is on it.
    let g = layout::GRID;
    click(&mut e, g.x + 2, layout::row_y(0) + 4);
    tap(&mut e, Key::ArrowDown);
    assert!(state(&e).contains("\"trow\":1"), "{}", state(&e));
}

#[test]
fn every_key_in_keys_is_in_the_documentation() {
    let doc = include_str!("../../docs/sound-editor.md").replace('`', "");
    for (key, what) in bt_runtime::sound_edit::KEYS {
        let row = format!("| {key} | {what} |");
        assert!(doc.contains(&row), "docs/sound-editor.md has no row {row}");
    }
}
