//! The `.pyxres` import checked against Pyxel's rules, on files made for the tests and on
//! files from Pyxel's examples.

use super::*;
use crate::cli::commands::import::zip::tests::zip;
use bt::sound::{FileTune, NoteEffect, SoundFile, Wave};

/// Pyxel's rule for a note's frequency: note `n` is MIDI note `n + 36` on a tone, `n + 60`
/// on noise, and MIDI 69 is 440 Hz.
fn pyxel_hz(note: i8, noise: bool) -> f64 {
    let midi = f64::from(note) + if noise { 60.0 } else { 36.0 };
    440.0 * ((midi - 69.0) / 12.0).exp2()
}

/// BT's rule (sound.md): pitch 57 is A4, 440 Hz, a semitone a step.
fn bt_hz(pitch: u8) -> f64 {
    440.0 * ((f64::from(pitch) - 57.0) / 12.0).exp2()
}

/// A resource file made for the tests: a 16 × 16 image written short (rows stop early, and
/// the rows stop early), a blank image, a tilemap over the first and one all (0, 0), three
/// sounds (one empty) and two musics (one empty).
const TOML: &str = r#"format_version = 1

[[images]]
width = 16
height = 16
data = [[0, 8, 8, 3], [7], [1, 2]]

[[images]]
width = 8
height = 8
data = [[0]]

[[tilemaps]]
width = 4
height = 2
imgsrc = 0
data = [[1, 0, 0, 1], [0, 0]]

[[tilemaps]]
width = 2
height = 2
imgsrc = 1
data = [[0]]

[[sounds]]
notes = [33, -1, 0, 59, 45]
tones = [1, 3]
volumes = [7, 5]
effects = [0, 1, 2, 4, 1]
speed = 30

[[sounds]]
notes = []
tones = []
volumes = []
effects = []
speed = 30

[[sounds]]
notes = [24]
tones = []
volumes = []
effects = []
speed = 7

[[musics]]
seqs = [[0, 1, 2], [], [2]]

[[musics]]
seqs = []
"#;

fn pyxres(toml: &str) -> Vec<u8> {
    zip(&[(TOML_ENTRY, toml.as_bytes(), true)])
}

fn import(bytes: &[u8]) -> Result<Vec<(String, Format, Vec<u8>)>, String> {
    convert(
        "game.pyxres",
        &read("game.pyxres", bytes)?,
        &PYXEL_COLORS,
        "game",
    )
}

fn file<'f>(files: &'f [(String, Format, Vec<u8>)], name: &str) -> &'f [u8] {
    &files.iter().find(|f| f.0 == name).unwrap().2
}

fn no_tiles(s: &str) -> Result<(String, String), bt::AssetError> {
    Err(bt::AssetError::new(s, bt::AssetErrorKind::NotFound))
}

#[test]
fn a_pyxel_2_file_becomes_an_indexed_png_a_tiled_map_and_sounds() {
    let files = import(&pyxres(TOML)).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    // The blank image and the all-(0, 0) tilemap are left out.
    assert_eq!(
        names,
        ["game-image0.png", "game-tilemap0.tmj", "game-sounds.txt"]
    );

    // Pixels: Pyxel's colour numbers as the PNG's indices, each short row filled out with
    // its last value and the missing rows with the last row.
    let png = file(&files, "game-image0.png");
    let img = crate::config::png_loader::decode_png_indices("i.png", png).unwrap();
    assert_eq!((img.width, img.height), (16, 16));
    let rows: [&[u8]; 3] = [&[0, 8, 8, 3], &[7], &[1, 2]];
    for y in 0..16 {
        let row = rows[y.min(2)];
        for x in 0..16 {
            assert_eq!(
                img.pixels[y * 16 + x],
                row[x.min(row.len() - 1)],
                "({x}, {y})"
            );
        }
    }
    // Colours: Pyxel's palette (its colour 8 is d4186c, 7 eeeeee), nothing see-through.
    use bt::host::ImageLoader as _;
    let rgba = crate::config::assets::Assets(crate::config::assets::Paths)
        .decode("i.png", png)
        .unwrap();
    assert_eq!(&rgba.pixels[4..8], [0xd4, 0x18, 0x6c, 0xff]);
    assert_eq!(&rgba.pixels[16 * 4..16 * 4 + 4], [0xee, 0xee, 0xee, 0xff]);
    assert_eq!(
        rgba.pixels[3], 0xff,
        "colour 0 is drawn, as Pyxel's blt draws it"
    );

    // The map: tile (tx, ty) of a 16-pixel-wide image is tile ty × 2 + tx, (0, 0) a tile.
    let text = std::str::from_utf8(file(&files, "game-tilemap0.tmj")).unwrap();
    let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
    assert_eq!(map.size(), (4, 2));
    // Row 0 is [1, 0, 0, 1] filled out with 1: cells (1, 0), (0, 1), (1, 1), (1, 1).
    let row0: Vec<Option<u16>> = (0..4).map(|x| map.tile(0, x, 0)).collect();
    assert_eq!(row0, [Some(1), Some(2), Some(3), Some(3)]);
    assert_eq!(
        map.tile(0, 3, 1),
        Some(0),
        "(0, 0) is the image's first tile"
    );
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(doc["tilesets"][0]["image"], "game-image0.png");

    // The sounds, read back as a cart reads them.
    let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
    let sounds = SoundFile::parse("game-sounds.txt", text).unwrap();
    let names: Vec<&str> = sounds.sfx.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["sound0", "sound2"], "the empty sound is left out");
    let sound0 = &sounds.sfx[0].1;
    // Speed: Pyxel's note lasts speed / 120 s; so does BT's.
    assert_eq!(sound0.speed, 30);
    assert_eq!(
        sound0.length_units() as f64 / f64::from(bt::sound::UNITS_PER_SECOND),
        5.0 * 30.0 / 120.0
    );
    let n = &sound0.notes;
    assert_eq!(n.len(), 5);
    // Note 0: 33 on a square, which Pyxel plays at 440 Hz.
    assert_eq!(n[0].wave, Wave::Square { duty: 128 });
    assert!((bt_hz(n[0].pitch) - pyxel_hz(33, false)).abs() < 1e-9);
    assert!((bt_hz(n[0].pitch) - 440.0).abs() < 1e-9);
    assert_eq!((n[0].volume, n[0].effect), (7, NoteEffect::None));
    assert_eq!(n[1].volume, 0, "-1 is a rest");
    // Note 2: tones, volumes and effects read round and round (square, 7, vibrato).
    assert!((bt_hz(n[2].pitch) - pyxel_hz(0, false)).abs() < 1e-9);
    assert_eq!((n[2].volume, n[2].effect), (7, NoteEffect::Vibrato));
    // Note 3: noise. Pyxel takes one random step a period of its frequency, BT 16 a
    // period of its pitch: the same steps a second.
    assert_eq!(n[3].wave, Wave::Noise);
    assert!((16.0 * bt_hz(n[3].pitch) - pyxel_hz(59, true)).abs() < 1e-6);
    assert_eq!(
        (n[3].volume, n[3].effect),
        (5, NoteEffect::FadeOut),
        "half fade-out"
    );
    assert_eq!(n[4].effect, NoteEffect::Slide);
    // Pyxel's vibrato: 6 Hz (20 of its 120 ticks a second), 25 cents.
    assert_eq!(sound0.vibrato, bt::sound::Hz::new(6));
    assert_eq!(sound0.vibrato_depth, 25);
    // Empty lists take Pyxel's defaults: triangle, volume 7, no effect.
    let sound2 = &sounds.sfx[1].1;
    assert_eq!(sound2.speed, 7);
    assert_eq!(sound2.notes[0].wave, Wave::Triangle);
    assert_eq!(
        (sound2.notes[0].volume, sound2.notes[0].effect),
        (7, NoteEffect::None)
    );
    assert!((bt_hz(sound2.notes[0].pitch) - pyxel_hz(24, false)).abs() < 1e-9);

    // The music: a list per channel, the empty sound dropped, the empty music left out.
    assert_eq!(sounds.music.len(), 1);
    assert_eq!(sounds.music[0].name, "music0");
    match &sounds.music[0].tune {
        FileTune::Sequences { channels, looping } => {
            assert_eq!(
                channels,
                &[vec![0, 1], vec![], vec![1], vec![]],
                "sound0 sound2 | - | sound2"
            );
            assert!(!looping, "looping is playm's argument, not the file's");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn pyxels_440_hz_note_plays_at_440_hz_for_speed_120ths_of_a_second() {
    // Pyxel's note 33 on a square, speed 30: 440 Hz for 30/120 s, then a rest.
    let toml = "format_version = 1\nimages = []\ntilemaps = []\nmusics = []\n\
                [[sounds]]\nnotes = [33, -1]\ntones = [1]\nvolumes = [7]\neffects = [0]\n\
                speed = 30\n";
    let files = import(&pyxres(toml)).unwrap();
    let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
    let mut con = bt::host::Console::new(&bt::Settings::default(), 0);
    let bank = con.init_context().decode_sounds("s.txt", text).unwrap();
    let id = bank.sfx("sound0").unwrap();
    con.update_context(0).play_sfx(id, None).unwrap();
    let mut samples: Vec<i16> = Vec::new();
    for tick in 0..30 {
        let _ = con.update_context(tick);
        con.step_sound();
        samples.extend(con.drain_samples());
    }
    let rate = f64::from(bt::sound::DEFAULT_SAMPLE_RATE);
    // Its length: speed × sample rate / 120 samples (Pyxel's 120 ticks a second), within
    // the few samples BT's glide in and out takes.
    let first = samples.iter().position(|&s| s != 0).unwrap();
    let last = samples.iter().rposition(|&s| s != 0).unwrap();
    let want = 30.0 * rate / 120.0;
    assert!(
        ((last - first + 1) as f64 - want).abs() < rate / 240.0,
        "{} samples, {want} wanted",
        last - first + 1
    );
    // Its pitch: rising zero crossings over the middle of the note.
    let middle = &samples[first + 1000..last - 1000];
    let rises = middle.windows(2).filter(|w| w[0] < 0 && w[1] >= 0).count();
    let hz = rises as f64 * rate / middle.len() as f64;
    assert!((hz - pyxel_hz(33, false)).abs() < 2.0, "{hz} Hz");
}

#[test]
fn a_pulse_is_a_quarter_duty_square() {
    let toml = TOML.replace("tones = [1, 3]", "tones = [2]");
    let files = import(&pyxres(&toml)).unwrap();
    let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
    let sounds = SoundFile::parse("s.txt", text).unwrap();
    // Pyxel's pulse is the wavetable [1, 0, 0, 0]: high a quarter of the period.
    assert_eq!(sounds.sfx[0].1.notes[0].wave, Wave::Square { duty: 64 });
}

#[test]
fn a_palette_file_gives_the_colours_and_more_of_them() {
    let dir = bt_test_support::ScratchDir::new("pyxres-palette");
    let toml = TOML.replace("[7], [1, 2]", "[7], [1, 20]");
    std::fs::write(dir.join("game.pyxres"), pyxres(&toml)).unwrap();
    let path = dir.join("game.pyxres");
    let e = files("game.pyxres", &path, "game").unwrap_err();
    assert_eq!(
        e,
        "game.pyxres: images[0] pixel (1, 2): colour 20 is past the palette's 16 colours"
    );
    let mut pal: String = (0..21).map(|i| format!("{:06x}\n", i * 0x010101)).collect();
    std::fs::write(dir.join("game.pyxpal"), &pal).unwrap();
    let out = files("game.pyxres", &path, "game").unwrap();
    use bt::host::ImageLoader as _;
    let rgba = crate::config::assets::Assets(crate::config::assets::Paths)
        .decode("i.png", file(&out, "game-image0.png"))
        .unwrap();
    assert_eq!(&rgba.pixels[(2 * 16 + 1) * 4..][..3], [20, 20, 20]);
    pal.push_str("12345g\n");
    std::fs::write(dir.join("game.pyxpal"), &pal).unwrap();
    let e = files("game.pyxres", &path, "game").unwrap_err();
    assert!(
        e.ends_with("game.pyxpal:22: '12345g' is not a colour RRGGBB"),
        "{e}"
    );
}

#[test]
fn bad_files_are_named_with_the_entry_the_field_and_the_value() {
    let e = |toml: &str| import(&pyxres(toml)).unwrap_err();
    let p = "game.pyxres: pyxel_resource.toml:";
    for (from, to, want) in [
        ("width = 16", "width = \"16\"", format!("{p} images[0].width: the text \"16\" where a whole number belongs")),
        ("[7], [1, 2]", "[7], [1, 256]", format!("{p} images[0].data[2][1]: 256 is out of range (0 to 255)")),
        ("[7], [1, 2]", "[7], 3", format!("{p} images[0].data[2]: 3 where an array belongs")),
        ("format_version = 1", "format_version = 9", format!("{p} format_version 9: written by a newer Pyxel than this reader knows (versions up to 4)")),
        ("format_version = 1\n", "", format!("{p} no 'format_version'")),
        ("height = 2\nimgsrc = 0", "height = 1\nimgsrc = 0", format!("{p} tilemaps[0].data: 2 rows where height is 1")),
        ("speed = 7", "speed = -7", format!("{p} sounds[2].speed: -7 is out of range (0 to 65535)")),
        ("notes = [24]", "notes = [24.5]", format!("{p} sounds[2].notes[0]: the number 24.5 where a whole number belongs")),
        ("data = [[1, 0, 0, 1], [0, 0]]", "data = [[1, 0, 2, 1], [0, 0]]", "game.pyxres: tilemaps[0] cell (1, 0): tile (2, 1) is outside image 0 (2 × 2 tiles)".into()),
        ("imgsrc = 0", "imgsrc = 5", "game.pyxres: tilemaps[0].imgsrc: image 5 is not in the file (2 images)".into()),
        ("[7], [1, 2]", "[7], [1, 16]", "game.pyxres: images[0] pixel (1, 2): colour 16 is past the palette's 16 colours".into()),
        ("tones = [1, 3]", "tones = [1, 4]", "game.pyxres: sounds[0].tones[1]: tone 4 is not one of Pyxel's 0 to 3 (triangle, square, pulse, noise)".into()),
        ("volumes = [7, 5]", "volumes = [7, 8]", "game.pyxres: sounds[0].volumes[1]: volume 8 is past 7".into()),
        ("effects = [0, 1, 2, 4, 1]", "effects = [0, 1, 6]", "game.pyxres: sounds[0].effects[2]: effect 6 is not one of Pyxel's 0 to 5".into()),
        ("notes = [24]", "notes = [72]", "game.pyxres: sounds[2].notes[0]: note 72 with tone 0 is past BT's highest pitch, B7".into()),
        ("speed = 7", "speed = 0", "game.pyxres: sounds[2].speed: 0 (a note needs 1 or more)".into()),
        ("[[0, 1, 2], [], [2]]", "[[0, 9]]", "game.pyxres: musics[0].seqs[0][1]: sound 9 is not in the file (3 sounds)".into()),
        ("[[0, 1, 2], [], [2]]", "[[0], [0], [0], [0], [0]]", "game.pyxres: musics[0].seqs: 5 channels, more than BT's 4".into()),
    ] {
        assert!(TOML.contains(from), "{from}");
        assert_eq!(e(&TOML.replacen(from, to, 1)), want);
    }
    assert_eq!(
        e("format_version = 1\nimages = [\n"),
        format!("{p} line 3: an array without its closing ']'")
    );
    // Empty channels past the fourth play nothing, and are taken.
    let quiet = TOML.replacen("[[0, 1, 2], [], [2]]", "[[0], [], [], [], [], []]", 1);
    assert!(import(&pyxres(&quiet)).is_ok());
    let notes: Vec<String> = (0..65).map(|_| "1".to_string()).collect();
    assert_eq!(
        e(&TOML.replace("notes = [24]", &format!("notes = [{}]", notes.join(", ")))),
        "game.pyxres: sounds[2].notes: 65 notes, more than the 64 of a BT sound effect"
    );
    let blank = "format_version = 1\nimages = []\ntilemaps = []\nsounds = []\nmusics = []\n";
    assert!(
        e(blank).starts_with("game.pyxres: nothing to import"),
        "{}",
        e(blank)
    );
}

#[test]
fn hostile_archives_are_refused_without_panicking() {
    let e = |bytes: &[u8]| import(bytes).unwrap_err();
    assert_eq!(
        e(b"format_version = 1"),
        "game.pyxres: not a zip archive (no end-of-directory record)"
    );
    assert_eq!(
        e(&zip(&[("notes.txt", b"hi", false)])),
        "game.pyxres: not a Pyxel resource file: no pyxel_resource.toml inside (it holds notes.txt)"
    );
    assert_eq!(
        e(&zip(&[(TOML_ENTRY, b"\xff\xfe", false)])),
        "game.pyxres: pyxel_resource.toml: not UTF-8 text (byte 0)"
    );
    // A bomb: 32 MB of spaces packed into a few tens of KB, refused from its declared size.
    let spaces = vec![b' '; 32 << 20];
    let bomb = zip(&[(TOML_ENTRY, &spaces, true)]);
    assert!(bomb.len() < 100_000);
    assert_eq!(
        e(&bomb),
        "game.pyxres: pyxel_resource.toml: unpacks to 33554432 bytes, more than the 16777216 read"
    );
    // A tiny file asking for a huge bank: refused before anything is expanded.
    let huge = "format_version = 1\nimages = []\nsounds = []\nmusics = []\n\
                [[tilemaps]]\nwidth = 4000000000\nheight = 4000000000\nimgsrc = 0\ndata = [[0]]\n";
    assert_eq!(
        e(&pyxres(huge)),
        "game.pyxres: pyxel_resource.toml: tilemaps[0]: 4000000000 × 4000000000 takes the banks past 4194304 cells in all"
    );
    let wide = TOML.replace("width = 16", "width = 9000");
    assert_eq!(
        e(&pyxres(&wide)),
        "game.pyxres: pyxel_resource.toml: images[0].width: 9000 is out of range (1 to 8192)"
    );
    // Every truncation and many damaged bytes of a real file: an error, never a panic.
    let real = include_bytes!("../../../../../tests/pyxres/platformer.pyxres");
    for cut in (0..real.len()).step_by(7) {
        assert!(import(&real[..cut]).is_err());
    }
    for i in (0..real.len()).step_by(3) {
        let mut bad = real.to_vec();
        bad[i] ^= 0x5a;
        let _ = import(&bad);
    }
}

#[test]
fn pyxel_1_files_read_as_their_pyxel_2_saves_do() {
    // Pyxel's jump_game example as Pyxel 1.x saved it and as Pyxel 2 saved it again.
    let old = import(include_bytes!(
        "../../../../../tests/pyxres/jump_game_pyxel1.pyxres"
    ))
    .unwrap();
    let new = import(include_bytes!(
        "../../../../../tests/pyxres/jump_game.pyxres"
    ))
    .unwrap();
    assert_eq!(
        std::str::from_utf8(file(&old, "game-sounds.txt")).unwrap(),
        std::str::from_utf8(file(&new, "game-sounds.txt")).unwrap()
    );
    let pixels = |files: &[(String, Format, Vec<u8>)]| {
        crate::config::png_loader::decode_png_indices("i.png", file(files, "game-image0.png"))
            .unwrap()
            .pixels
    };
    assert_eq!(pixels(&old), pixels(&new));
    // Sound 0 is notes 36, 28, 31, … on a triangle at volume 2 with Pyxel's fade-out,
    // speed 30: 36 is MIDI 72, C5.
    let text = std::str::from_utf8(file(&new, "game-sounds.txt")).unwrap();
    assert!(
        text.contains("\nsfx sound0 30\nC5 tri 2 fadeout\nE4 tri 2 fadeout\nG4 tri 2 fadeout\n"),
        "{text}"
    );
    assert!(
        text.contains("\nseq music0\n0 sound0\n1 sound1\n2 sound2\n"),
        "{text}"
    );
}

#[test]
fn old_tiles_of_three_digits_and_of_four_read_alike() {
    let entries = |version: &str, row: &str| {
        zip(&[
            (OLD_VERSION_ENTRY, version.as_bytes(), false),
            ("pyxel_resource/image0", b"0123456789abcdef\n", false),
            ("pyxel_resource/tilemap0", row.as_bytes(), false),
        ])
    };
    // Tile (1, 0) then (0, 1): 3 digits are a tile number, 32 a row; 4 are tx and ty.
    let three = import(&entries("1.4.3", "001020\n")).unwrap();
    let four = import(&entries("1.5.0", "01000001\n")).unwrap();
    let map = |files: &[(String, Format, Vec<u8>)]| {
        let text = std::str::from_utf8(file(files, "game-tilemap0.tmj")).unwrap();
        let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
        (map.tile(0, 0, 0), map.tile(0, 1, 0), map.tile(0, 2, 0))
    };
    // A 256-pixel image has 32 tiles a row.
    assert_eq!(map(&three), (Some(1), Some(32), Some(0)));
    assert_eq!(map(&three), map(&four));
    let e = import(&zip(&[
        (OLD_VERSION_ENTRY, b"1.5.0", false),
        ("pyxel_resource/image1", b"01x\n", false),
    ]))
    .unwrap_err();
    assert_eq!(
        e,
        "game.pyxres: pyxel_resource/image1:1: 'x' is not hexadecimal"
    );
}

#[test]
fn a_real_pyxel_game_imports_whole() {
    // Pyxel's platformer example: a 256 × 256 image, a tilemap over it, sounds and music.
    let files = import(include_bytes!(
        "../../../../../tests/pyxres/platformer.pyxres"
    ))
    .unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        ["game-image0.png", "game-tilemap0.tmj", "game-sounds.txt"]
    );
    let text = std::str::from_utf8(file(&files, "game-tilemap0.tmj")).unwrap();
    let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
    assert_eq!(map.size(), (256, 256));
    let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
    let sounds = SoundFile::parse("s.txt", text).unwrap();
    match &sounds.music[0].tune {
        FileTune::Sequences { channels, .. } => {
            assert_eq!(channels[0].len(), 14);
            assert_eq!(channels[1].len(), 7);
            assert_eq!(channels[2].len(), 7);
        }
        other => panic!("{other:?}"),
    }
}
