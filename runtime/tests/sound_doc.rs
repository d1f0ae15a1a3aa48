//! The sound editor's file: written back unchanged it is the same bytes; edited, only the
//! edited lines change, comments stay, and the text reads back as the sounds edited.

use bt::sound::{Note, NoteEffect, SoundFile, Wave};
use bt_runtime::sound_edit::{SoundDoc, TuneRows};

const PLATFORMER: &str = include_str!("../../carts/platformer/assets/music.txt");

const GUIDE: &str = "bt-sound 2
# A comment at the top.
sfx coin 6 release=2 # the coin
B5 sq 5
E6 sq 5 slide   # up

sfx bass 24
C3 tri 6
  G3 tri 6

# The tune, below.
music theme loop=0
bass - - -
bass coin - -

seq walk loop
0 bass bass
2 coin
";

/// The example file of the sound guide, read from docs/sound.md.
fn guide_example() -> String {
    let guide = include_str!("../../docs/sound.md");
    let start = guide.find("```text\nbt-sound 2").unwrap() + "```text\n".len();
    let end = start + guide[start..].find("```").unwrap();
    guide[start..end].to_string()
}

fn read(text: &str) -> SoundDoc {
    SoundDoc::read("f.txt", text).unwrap()
}

/// The lines of `a` and `b` that differ, as (line, a's, b's).
fn changed_lines(a: &str, b: &str) -> Vec<(usize, String, String)> {
    let (a, b): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .map(|i| {
            (
                i + 1,
                a.get(i).unwrap_or(&"").to_string(),
                b.get(i).unwrap_or(&"").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_file_written_back_without_an_edit_is_the_same_bytes() {
    let crlf = GUIDE.replace('\n', "\r\n");
    let no_last_newline = GUIDE.trim_end().to_string();
    let bom = format!("\u{feff}{GUIDE}");
    let guide = guide_example();
    for text in [
        GUIDE,
        PLATFORMER,
        &crlf,
        &no_last_newline,
        &bom,
        &guide,
        "bt-sound 1\nsfx a 3\nC4 sq 5\n",
        "bt-sound 2\n",
    ] {
        let doc = read(text);
        assert_eq!(doc.to_text(), text);
        assert_eq!(doc.checked_text().unwrap(), text);
    }
}

#[test]
fn an_edited_note_changes_its_line_alone_and_keeps_its_comment() {
    let mut doc = read(GUIDE);
    let coin = 0;
    doc.set_note(
        coin,
        1,
        Note::new(77, Wave::Square { duty: 64 }, 4).with(NoteEffect::Vibrato),
    );
    doc.set_note(1, 1, Note::new(44, Wave::Saw, 6));
    let text = doc.checked_text().unwrap();
    assert_eq!(
        changed_lines(GUIDE, &text),
        [
            (
                5,
                "E6 sq 5 slide   # up".into(),
                "F6 sq25 4 vibrato   # up".into()
            ),
            (9, "  G3 tri 6".into(), "  G#3 saw 6".into()),
        ]
    );
    let back = SoundFile::parse("f.txt", &text).unwrap();
    assert_eq!(back, doc.sound_file());
    assert_eq!(back.sfx[0].1.notes[1].pitch, 77);
}

#[test]
fn inserted_and_removed_notes_take_their_lines_with_them() {
    let mut doc = read(GUIDE);
    assert!(doc.insert_note(0, 1, Note::new(60, Wave::Triangle, 3)));
    assert!(doc.remove_notes(1, 0..1));
    let text = doc.checked_text().unwrap();
    assert!(
        text.starts_with(
            "bt-sound 2\n# A comment at the top.\nsfx coin 6 release=2 # the coin\nB5 sq 5\nC5 tri 3\nE6 sq 5 slide   # up\n\nsfx bass 24\n  G3 tri 6\n\n# The tune"
        ),
        "{text}"
    );
    // A sound effect keeps one note at least.
    assert!(!doc.remove_notes(1, 0..1));
    assert_eq!(SoundFile::parse("f.txt", &text).unwrap(), doc.sound_file());
}

#[test]
fn notes_added_at_the_end_go_after_the_last_note_before_the_blank_line() {
    let mut doc = read(GUIDE);
    assert!(doc.insert_note(0, 2, Note::rest()));
    let text = doc.checked_text().unwrap();
    assert_eq!(
        changed_lines(GUIDE, &text)[0],
        (6, "".into(), "--".into()),
        "{text}"
    );
    assert_eq!(SoundFile::parse("f.txt", &text).unwrap(), doc.sound_file());
}

#[test]
fn a_new_speed_and_loop_keep_the_header_options_and_comment() {
    let mut doc = read(GUIDE);
    doc.set_speed(0, 9);
    doc.set_loop(0, Some(1));
    let text = doc.checked_text().unwrap();
    assert_eq!(
        changed_lines(GUIDE, &text),
        [(
            3,
            "sfx coin 6 release=2 # the coin".into(),
            "sfx coin 9 loop=1 release=2 # the coin".into()
        )]
    );
    doc.set_loop(0, None);
    let text = doc.checked_text().unwrap();
    assert!(
        text.contains("\nsfx coin 9 release=2 # the coin\n"),
        "{text}"
    );
}

#[test]
fn a_new_sound_effect_goes_after_the_last_before_the_comment_over_the_tune() {
    let mut doc = read(GUIDE);
    let at = doc.add_sfx();
    assert_eq!(doc.sounds.sfx[at].name, "sfx1");
    doc.set_note(at, 0, Note::new(48, Wave::Sine, 5));
    let text = doc.checked_text().unwrap();
    let expected_tail = "sfx bass 24\nC3 tri 6\n  G3 tri 6\n\nsfx sfx1 15\nC4 sin 5\n";
    assert!(text.contains(expected_tail), "{text}");
    assert!(
        text.contains("--\n\n# The tune, below.\nmusic theme loop=0\n"),
        "{text}"
    );
    // The tunes written below it may name it.
    assert!(doc.sfx_for_tune(0).contains(&at));
    doc.set_cell(0, 0, 3, Some(at));
    let text = doc.checked_text().unwrap();
    assert!(text.contains("\nbass - - sfx1\n"), "{text}");
    assert_eq!(SoundFile::parse("f.txt", &text).unwrap(), doc.sound_file());
}

#[test]
fn a_new_file_is_a_header_and_one_sound_effect_of_rests() {
    let doc = SoundDoc::new_file("new.txt");
    let text = doc.checked_text().unwrap();
    assert!(
        text.starts_with("bt-sound 2\n\nsfx sfx1 15\n--\n"),
        "{text}"
    );
    let back = SoundFile::parse("new.txt", &text).unwrap();
    assert_eq!(back.sfx.len(), 1);
}

#[test]
fn pattern_and_sequence_edits_rewrite_their_rows() {
    let mut doc = read(GUIDE);
    doc.set_cell(0, 1, 1, None);
    doc.set_cell(1, 1, 1, Some(1));
    doc.insert_row(1, Some(1));
    doc.set_cell(1, 2, 0, Some(0));
    doc.set_channel(1, 2, 3);
    doc.insert_row(0, Some(1));
    let text = doc.checked_text().unwrap();
    assert!(
        text.ends_with(
            "music theme loop=0\nbass - - -\nbass - - -\n- - - -\n\nseq walk loop\n0 bass bass\n2 coin bass\n3 coin\n"
        ),
        "{text}"
    );
    assert_eq!(SoundFile::parse("f.txt", &text).unwrap(), doc.sound_file());
    // Removing a pattern keeps the loop inside the tune.
    assert!(doc.remove_row(0, 0));
    assert!(doc.remove_row(0, 0));
    assert!(!doc.remove_row(0, 0), "one pattern stays");
    let TuneRows::Patterns { loop_start, .. } = &doc.sounds.tunes[0].rows else {
        panic!("patterns")
    };
    assert_eq!(*loop_start, Some(0));
    assert_eq!(
        SoundFile::parse("f.txt", &doc.checked_text().unwrap()).unwrap(),
        doc.sound_file()
    );
}

#[test]
fn the_platformer_music_round_trips_through_every_kind_of_edit() {
    let mut doc = read(PLATFORMER);
    let lead = doc
        .sounds
        .sfx
        .iter()
        .position(|e| e.name == "lead_b")
        .unwrap();
    doc.set_note(
        lead,
        0,
        Note::new(95, Wave::Noise, 7).with(NoteEffect::ArpeggioGroup { units: 3 }),
    );
    doc.insert_note(
        lead,
        3,
        Note::new(0, Wave::Organ, 1).with(NoteEffect::FadeIn),
    );
    doc.remove_notes(lead, 5..7);
    doc.set_speed(lead, 30);
    let text = doc.checked_text().unwrap();
    let back = SoundFile::parse("music.txt", &text).unwrap();
    assert_eq!(back, doc.sound_file());
    // Its comments are all still there.
    for comment in PLATFORMER.lines().filter(|l| l.starts_with('#')) {
        assert!(text.contains(comment), "{comment}");
    }
}

#[test]
fn a_bad_file_is_refused_with_its_line() {
    let err = SoundDoc::read("music.txt", "bt-sound 2\nsfx a 6\nH4 sq 5\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "music.txt:3: pitch: \"H4\" is not a note name (C4, F#3, ...)"
    );
}

/// One edit of the kinds the editor makes, its places taken modulo what the file has.
#[derive(Debug, Clone)]
enum Edit {
    Note(usize, usize, u8, usize, u8, usize),
    Insert(usize, usize),
    Remove(usize, usize, usize),
    Speed(usize, u16),
    Loop(usize, Option<usize>),
    NewSfx,
    Cell(usize, usize, usize, Option<usize>),
    InsertRow(usize, usize),
    RemoveRow(usize, usize),
}

fn edit_strategy() -> impl proptest::strategy::Strategy<Value = Edit> {
    use proptest::prelude::*;
    let n = || 0..100usize;
    prop_oneof![
        (n(), n(), 0..=95u8, 0..10usize, 0..=7u8, 0..8usize)
            .prop_map(|(s, i, p, w, v, e)| Edit::Note(s, i, p, w, v, e)),
        (n(), n()).prop_map(|(s, i)| Edit::Insert(s, i)),
        (n(), n(), 1..4usize).prop_map(|(s, i, k)| Edit::Remove(s, i, k)),
        (n(), 1..=255u16).prop_map(|(s, v)| Edit::Speed(s, v)),
        (n(), proptest::option::of(n())).prop_map(|(s, l)| Edit::Loop(s, l)),
        Just(Edit::NewSfx),
        (n(), n(), n(), proptest::option::of(n())).prop_map(|(t, r, c, s)| Edit::Cell(t, r, c, s)),
        (n(), n()).prop_map(|(t, r)| Edit::InsertRow(t, r)),
        (n(), n()).prop_map(|(t, r)| Edit::RemoveRow(t, r)),
    ]
}

fn apply(doc: &mut SoundDoc, edit: &Edit) {
    use bt_runtime::sound_edit::{EFFECTS, WAVES};
    let sfx = doc.sounds.sfx.len().max(1);
    let notes = |doc: &SoundDoc, s: usize| doc.sounds.sfx.get(s).map_or(1, |e| e.sfx.notes.len());
    match *edit {
        Edit::Note(s, i, p, w, v, e) => {
            let s = s % sfx;
            let i = i % notes(doc, s);
            doc.set_note(s, i, Note::new(p, WAVES[w], v).with(EFFECTS[e]));
        }
        Edit::Insert(s, i) => {
            let s = s % sfx;
            let i = i % (notes(doc, s) + 1);
            doc.insert_note(s, i, Note::rest());
        }
        Edit::Remove(s, i, k) => {
            let s = s % sfx;
            let i = i % notes(doc, s);
            doc.remove_notes(s, i..i + k);
        }
        Edit::Speed(s, v) => doc.set_speed(s % sfx, v),
        Edit::Loop(s, l) => {
            let s = s % sfx;
            let l = l.map(|l| l % notes(doc, s));
            doc.set_loop(s, l);
        }
        Edit::NewSfx => {
            doc.add_sfx();
        }
        Edit::Cell(t, r, c, s) => {
            let tunes = doc.sounds.tunes.len();
            if tunes == 0 {
                return;
            }
            let t = t % tunes;
            let rows = doc.sounds.tunes[t].rows.len().max(1);
            let usable = doc.sfx_for_tune(t);
            let s = s.and_then(|s| usable.get(s % usable.len().max(1)).copied());
            doc.set_cell(t, r % rows, c % 5, s);
        }
        Edit::InsertRow(t, r) => {
            if let Some(t) = (0..doc.sounds.tunes.len()).nth(t % doc.sounds.tunes.len().max(1)) {
                doc.insert_row(t, Some(r % doc.sounds.tunes[t].rows.len().max(1)));
            }
        }
        Edit::RemoveRow(t, r) => {
            if let Some(t) = (0..doc.sounds.tunes.len()).nth(t % doc.sounds.tunes.len().max(1)) {
                doc.remove_row(t, r % doc.sounds.tunes[t].rows.len().max(1));
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(256))]

    /// Whatever edits are made, the text written reads back as exactly the sounds edited, and
    /// reading that text and writing it again gives the same bytes.
    #[test]
    fn any_edits_write_a_file_that_reads_back_as_edited(
        which in 0..3usize,
        edits in proptest::collection::vec(edit_strategy(), 0..40),
    ) {
        let guide = guide_example();
        let text = [GUIDE, PLATFORMER, guide.as_str()][which];
        let mut doc = read(text);
        for edit in &edits {
            apply(&mut doc, edit);
        }
        let written = doc.checked_text().map_err(proptest::test_runner::TestCaseError::fail)?;
        proptest::prop_assert_eq!(SoundFile::parse("f.txt", &written).unwrap(), doc.sound_file());
        proptest::prop_assert_eq!(read(&written).to_text(), written);
    }
}
