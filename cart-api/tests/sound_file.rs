//! The `bt-sound` text format: what it reads, and errors that name file, line and field.

use bt::host::Console;
use bt::sound::{
    Channel, FileTune, Hz, Note, NoteEffect, SoundFile, SoundFileError, TimeBase, Wave,
};
use bt::Settings;

const FILE: &str = "\
# The coin and a tune.
bt-sound 1

sfx coin 3 release=1   # a short blip
B5 sq 5
E6 sq25 5 slide
--
F#3 noise 7 fadeout
sfx bass 12 loop=1 attack=2
C3 tri 6
G2 saw 6 arp
music theme loop=1
bass coin - -
bass - - coin
";

#[test]
fn a_sound_file_reads_into_sound_effects_and_tunes() {
    let file = SoundFile::parse("coin.txt", FILE).unwrap();
    let (name, coin) = &file.sfx[0];
    assert_eq!(name, "coin");
    assert_eq!((coin.speed, coin.release, coin.loop_start), (3, 1, None));
    assert_eq!(
        coin.time_base,
        TimeBase::Updates,
        "a version 1 file counts updates"
    );
    assert_eq!(
        coin.notes,
        [
            Note::new(71, Wave::Square { duty: 128 }, 5),
            Note::new(76, Wave::Square { duty: 64 }, 5).with(NoteEffect::Slide),
            Note::rest(),
            Note::new(42, Wave::Noise, 7).with(NoteEffect::FadeOut),
        ]
    );
    let (_, bass) = &file.sfx[1];
    assert_eq!((bass.loop_start, bass.attack), (Some(1), 2));
    assert_eq!(bass.notes[1].effect, NoteEffect::Arpeggio);
    let theme = &file.music[0];
    assert_eq!(theme.name, "theme");
    assert_eq!(
        theme.tune,
        FileTune::Patterns {
            patterns: vec![
                [Some(1), Some(0), None, None],
                [Some(1), None, None, Some(0)]
            ],
            loop_start: Some(1)
        }
    );

    let mut con = Console::new(&Settings::default(), 0);
    let mut ctx = con.update_context(0);
    let bank = ctx.decode_sounds("coin.txt", FILE).unwrap();
    assert!(ctx.play_music(bank.music("theme").unwrap()).is_ok());
    assert_eq!(ctx.channel_state(Channel::ONE).sfx, bank.sfx("bass"));
    assert_eq!(bank.sfx("nothing"), None);
}

#[test]
fn every_bad_line_names_its_file_line_and_field() {
    let cases = [
        ("sfx a 3\n", "f.txt:1: header: the file must start with 'bt-sound 2' (or 'bt-sound 1', whose times count updates)"),
        ("", "f.txt:1: header: the file must start with 'bt-sound 2' (or 'bt-sound 1', whose times count updates)"),
        ("bt-sound 1\nC4 sq 5\n", "f.txt:2: line: a note or pattern before any 'sfx', 'music' or 'seq' line"),
        ("bt-sound 1\nsfx a 0\n", "f.txt:2: speed: must be at least 1"),
        ("bt-sound 1\nsfx a x\n", "f.txt:2: speed: \"x\" is not a speed in updates (1 to 65535)"),
        ("bt-sound 2\nsfx a x\n", "f.txt:2: speed: \"x\" is not a speed in 120ths of a second (1 to 65535)"),
        ("bt-sound 1\nsfx a 2 tempo=3\n", "f.txt:2: option: \"tempo\" is not loop, attack, release, vibrato, vibrato_depth, arp or unit"),
        ("bt-sound 1\nsfx a 2 vibrato=6\n", "f.txt:2: vibrato: needs a file headed 'bt-sound 2'"),
        ("bt-sound 2\nsfx a 2 vibrato=0\n", "f.txt:2: vibrato: \"0\" is not a rate in Hz from 0.001 to 1000 (6, 7.5, ...)"),
        ("bt-sound 2\nsfx a 2 arp=1.2345\n", "f.txt:2: arp: \"1.2345\" is not a rate in Hz from 0.001 to 1000 (6, 7.5, ...)"),
        ("bt-sound 1\nsfx a 2 unit=1/60\n", "f.txt:2: unit: needs a file headed 'bt-sound 2'"),
        ("bt-sound 2\nsfx a 2 unit=0/60\n", "f.txt:2: unit: \"0/60\" is not a unit NUM/DEN of a second (183/22050, ...) with NUM and DEN from 1 to 1000000, at most 60 s"),
        ("bt-sound 2\nsfx a 2 unit=61/1\n", "f.txt:2: unit: \"61/1\" is not a unit NUM/DEN of a second (183/22050, ...) with NUM and DEN from 1 to 1000000, at most 60 s"),
        ("bt-sound 2\nsfx a 2 unit=183\n", "f.txt:2: unit: \"183\" is not a unit NUM/DEN of a second (183/22050, ...) with NUM and DEN from 1 to 1000000, at most 60 s"),
        ("bt-sound 2\nsfx a 2\nC4 sq 5 arpgroup:0\n", "f.txt:3: effect: \"arpgroup:0\" needs a step of 1 to 255 units (arpgroup:2)"),
        ("bt-sound 2\nsfx a 2\nC4 sq 5 arpgroup:256\n", "f.txt:3: effect: \"arpgroup:256\" needs a step of 1 to 255 units (arpgroup:2)"),
        ("bt-sound 1\nsfx a 2\nC8 sq 5\n", "f.txt:3: pitch: \"C8\" is above B7"),
        ("bt-sound 1\nsfx a 2\nC4 flute 5\n", "f.txt:3: wave: \"flute\" is not a wave (sq, sq1 to sq99, tri, saw, sin, noise, tilt, organ, phaser)"),
        ("bt-sound 1\nsfx a 2\nC4 sq 8\n", "f.txt:3: volume: 8 is above 7"),
        ("bt-sound 1\nsfx a 2\nC4 sq 5 wobble\n", "f.txt:3: effect: \"wobble\" is not an effect (slide, vibrato, drop, fadein, fadeout, arp, arpgroup:N)"),
        ("bt-sound 1\nsfx a 2\nC4 sq\n", "f.txt:3: note: expected PITCH WAVE VOLUME [EFFECT]"),
        ("bt-sound 1\nsfx a 2\n", "f.txt:2: sfx \"a\": a sound effect holds 1 to 64 notes, got 0"),
        ("bt-sound 1\nsfx a 2 loop=4\nC4 sq 5\n", "f.txt:2: sfx \"a\": loop_start 4 is past the end (1 entries)"),
        ("bt-sound 1\nsfx a 2\nC4 sq 5\nsfx a 2\n", "f.txt:4: name: \"a\" is defined twice"),
        ("bt-sound 1\nmusic m\nb - - -\n", "f.txt:3: pattern: no sound effect called \"b\" above"),
        ("bt-sound 1\nsfx a 2\nC4 sq 5\nmusic m\na -\n", "f.txt:5: pattern: expected 4 sound names or '-', got 2"),
        ("bt-sound 1\nsfx a 2\nC4 sq 5\nmusic m loop=2\na - - -\n", "f.txt:4: music \"m\": loop=2 is past the last pattern (1 patterns)"),
        ("bt-sound 2\nsfx a 2\nC4 sq 5\nseq s loop\n4 a\n", "f.txt:5: channel: \"4\" is not a channel (0 to 3) before its sound names"),
        ("bt-sound 2\nsfx a 2\nC4 sq 5\nseq s\n0 a b\n", "f.txt:5: seq: no sound effect called \"b\" above"),
        ("bt-sound 2\nsfx a 2\nC4 sq 5\nseq s forever\n", "f.txt:4: option: \"forever\" is not loop"),
    ];
    for (text, message) in cases {
        let err = SoundFile::parse("f.txt", text).unwrap_err();
        assert!(matches!(err, SoundFileError::Line { .. }));
        assert_eq!(err.to_string(), message, "for {text:?}");
    }
}

#[test]
fn a_version_2_file_reads_rates_and_sequences_and_allows_empty_patterns() {
    let file = SoundFile::parse(
        "v2.txt",
        "bt-sound 2\nsfx a 6 vibrato=6 vibrato_depth=25 arp=12.5\nC4 sq 5 vibrato\nsfx b 3\n--\n\
         music m\n- - - -\na - - -\nseq s loop\n0 a b\n2 b\n0 a\n",
    )
    .unwrap();
    let (_, a) = &file.sfx[0];
    assert_eq!((a.speed, a.time_base), (6, TimeBase::Seconds));
    assert_eq!(
        (a.vibrato, a.arpeggio),
        (Hz::new(6), Hz::from_millihertz(12_500))
    );
    assert_eq!(a.vibrato_depth, 25, "Pyxel's depth");
    assert_eq!(
        file.sfx[1].1.vibrato_depth, 50,
        "half a semitone unless told"
    );
    let e =
        SoundFile::parse("v1.txt", "bt-sound 1\nsfx a 6 vibrato_depth=25\nC4 sq 5\n").unwrap_err();
    assert!(e.to_string().contains("vibrato_depth"), "{e}");
    assert_eq!(
        file.music[0].tune,
        FileTune::Patterns {
            patterns: vec![[None; 4], [Some(0), None, None, None]],
            loop_start: None
        }
    );
    assert_eq!(
        file.music[1].tune,
        FileTune::Sequences {
            channels: [vec![0, 1, 0], vec![], vec![1], vec![]],
            looping: true
        }
    );
}

#[test]
fn loading_a_file_without_a_loader_says_so() {
    let mut con = Console::new(&Settings::default(), 0);
    let err = con.update_context(0).load_sounds("music.txt").unwrap_err();
    assert!(err.to_string().contains("music.txt"), "{err}");
}

#[test]
fn the_sound_file_in_the_guide_reads_as_it_says() {
    let guide = include_str!("../../docs/sound.md");
    let start = guide.find("```text\nbt-sound 2").unwrap() + "```text\n".len();
    let text = &guide[start..start + guide[start..].find("```").unwrap()];
    let file = SoundFile::parse("docs/sound.md", text).unwrap();
    let names: Vec<&str> = file.sfx.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["coin", "bass", "hat", "wobble", "chord"]);
    let FileTune::Patterns { patterns, .. } = &file.music[0].tune else {
        panic!("a tune of patterns");
    };
    assert_eq!(patterns.len(), 2);
    assert!(file.sfx[..4]
        .iter()
        .all(|(_, s)| s.time_base == TimeBase::Seconds));
    let chord = &file.sfx[4].1;
    assert_eq!(
        chord.time_base,
        TimeBase::Fraction {
            num: 183,
            den: 22_050
        }
    );
    assert_eq!(chord.notes[0].wave, Wave::Organ);
    assert_eq!(
        chord.notes[0].effect,
        NoteEffect::ArpeggioGroup { units: 4 }
    );
    assert!(file.music.len() >= 2, "and one of sequences");
}
