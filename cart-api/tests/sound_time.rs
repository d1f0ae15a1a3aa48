//! Sound's own time: note lengths in 120ths of a second and effect rates in hertz, the same
//! samples at any update rate; tunes of per-channel sequences; empty patterns; sound files
//! loaded again replacing their sounds.

use bt::host::Console;
use bt::sound::{Channel, Fade, Hz, Music, MusicId, Note, NoteEffect, Sfx, SfxId, Wave};
use bt::Settings;

const SQUARE: Wave = Wave::Square { duty: 128 };

fn console(fps: f64) -> Console {
    Console::new(&Settings::default().target_fps(fps), 3)
}

/// Adds a sound of one square-wave note of `pitch`, `speed` 120ths of a second long.
fn one_note(con: &mut Console, speed: u16, pitch: u8) -> SfxId {
    con.init_context()
        .add_sfx(Sfx::new(speed, vec![Note::new(pitch, SQUARE, 5)]))
        .unwrap()
}

/// A three-channel tune of sequences using every effect, with odd speeds and rates so notes
/// and effect steps fall inside updates, never on their edges.
fn band(con: &mut Console) -> MusicId {
    let mut ctx = con.init_context();
    let mut lead = Sfx::new(
        7,
        vec![
            Note::new(60, SQUARE, 5).with(NoteEffect::Vibrato),
            Note::new(64, SQUARE, 5).with(NoteEffect::Slide),
            Note::new(67, Wave::Sine, 5).with(NoteEffect::Arpeggio),
            Note::new(72, Wave::Saw, 5).with(NoteEffect::FadeOut),
            Note::rest(),
            Note::new(69, Wave::Triangle, 6).with(NoteEffect::FadeIn),
        ],
    );
    lead.vibrato = Hz::from_millihertz(6_250);
    lead.arpeggio = Hz::new(23);
    lead.attack = 1;
    lead.release = 3;
    let lead = ctx.add_sfx(lead).unwrap();
    let bass = ctx
        .add_sfx(Sfx::new(
            25,
            vec![
                Note::new(36, Wave::Triangle, 6),
                Note::new(43, Wave::Triangle, 6).with(NoteEffect::Drop),
            ],
        ))
        .unwrap();
    let hat = ctx
        .add_sfx(Sfx::new(
            5,
            vec![Note::new(84, Wave::Noise, 3), Note::rest()],
        ))
        .unwrap();
    ctx.add_music(Music::sequences(
        [vec![lead, lead], vec![bass], vec![hat, hat, hat], vec![]],
        true,
    ))
    .unwrap()
}

/// Two seconds of `band` at `fps`, started in `init`, with a sound effect played at 0.5 s.
fn two_seconds(fps: f64) -> Vec<i16> {
    let mut con = console(fps);
    let tune = band(&mut con);
    let blip = con
        .init_context()
        .add_sfx(Sfx::new(3, vec![Note::new(80, SQUARE, 4); 3]))
        .unwrap();
    assert!(con.init_context().play_music(tune).is_ok());
    let mut out = Vec::new();
    for tick in 0..(2.0 * fps) as u64 {
        let mut ctx = con.update_context(tick);
        if tick as f64 == 0.5 * fps {
            ctx.play_sfx(blip, Some(Channel::FOUR)).unwrap();
        }
        con.step_sound();
        out.extend(con.drain_samples());
    }
    out
}

#[test]
fn the_same_music_renders_the_same_samples_at_30_60_and_120_updates_a_second() {
    let at_60 = two_seconds(60.0);
    assert_eq!(at_60.len(), 2 * 44_100);
    assert!(at_60.iter().any(|&s| s.abs() > 2000), "it plays");
    assert!(at_60 == two_seconds(30.0), "30 updates a second");
    assert!(at_60 == two_seconds(120.0), "120 updates a second");
}

#[test]
fn a_note_starts_on_its_own_sample_inside_an_update() {
    // A rest of 1/120 s, then a note: at 44,100 Hz the note starts at sample 367, the middle
    // of the first update's 735.
    let mut con = console(60.0);
    let id = con
        .init_context()
        .add_sfx(Sfx::new(1, vec![Note::rest(), Note::new(57, SQUARE, 7)]))
        .unwrap();
    con.update_context(0)
        .play_sfx(id, Some(Channel::ONE))
        .unwrap();
    con.step_sound();
    let samples: Vec<i16> = con.drain_samples().collect();
    assert_eq!(samples.iter().position(|&s| s != 0), Some(367));
}

#[test]
fn a_sound_lasts_its_length_in_seconds_at_any_update_rate() {
    for fps in [30.0, 60.0, 144.0] {
        let mut con = console(fps);
        // 60/120 s: half a second.
        let id = con
            .init_context()
            .add_sfx(Sfx::new(30, vec![Note::new(57, SQUARE, 7); 2]))
            .unwrap();
        con.update_context(0)
            .play_sfx(id, Some(Channel::ONE))
            .unwrap();
        let mut ticks = 0;
        while con
            .update_context(ticks)
            .channel_state(Channel::ONE)
            .sfx
            .is_some()
        {
            con.step_sound();
            ticks += 1;
        }
        assert_eq!(ticks as f64, (fps / 2.0).ceil(), "at {fps}");
    }
}

/// Zero crossings of a vibrato note in each 1/20 s: more where the pitch is up.
fn vibrato_wobble(fps: f64, file: &str) -> Vec<usize> {
    let mut con = console(fps);
    let bank = con.init_context().decode_sounds("v.txt", file).unwrap();
    con.update_context(0)
        .play_sfx(bank.sfx("v").unwrap(), Some(Channel::ONE))
        .unwrap();
    let mut samples = Vec::new();
    for _ in 0..fps as u64 {
        con.step_sound();
        samples.extend(con.drain_samples());
    }
    samples
        .chunks(2_205)
        .map(|c| c.windows(2).filter(|w| (w[0] < 0) != (w[1] < 0)).count())
        .collect()
}

#[test]
fn vibrato_runs_at_its_rate_in_hz_and_a_version_1_file_at_8_updates_a_cycle() {
    let v2 = "bt-sound 2\nsfx v 120 vibrato=5\nB7 tri 7 vibrato\n";
    let w = vibrato_wobble(60.0, v2);
    assert_eq!(w, vibrato_wobble(120.0, v2));
    // 5 Hz: a cycle every 4 twentieths, rising from half a semitone down, then falling.
    assert!(w[1] > w[0] + 5 && w[2] > w[3] + 5, "{w:?}");
    assert!(w[5] > w[4] + 5 && w[6] > w[7] + 5, "{w:?}");
    assert!(w[4].abs_diff(w[0]) <= 2, "{w:?}");
    let v1 = "bt-sound 1\nsfx v 60\nB7 tri 7 vibrato\n";
    // 8 updates a cycle: 7.5 Hz at 60 updates a second, 15 Hz at 120.
    assert_ne!(vibrato_wobble(60.0, v1), vibrato_wobble(120.0, v1));
}

#[test]
fn a_version_1_file_counts_updates_and_version_2_counts_120ths_of_a_second() {
    let length = |fps: f64, file: &str| {
        let mut con = console(fps);
        let bank = con.init_context().decode_sounds("f.txt", file).unwrap();
        con.update_context(0)
            .play_sfx(bank.sfx("a").unwrap(), Some(Channel::ONE))
            .unwrap();
        let mut ticks = 0u64;
        while con
            .update_context(ticks)
            .channel_state(Channel::ONE)
            .sfx
            .is_some()
        {
            con.step_sound();
            ticks += 1;
        }
        ticks
    };
    let v1 = "bt-sound 1\nsfx a 6\nC4 sq 5\nD4 sq 5\n";
    assert_eq!((length(60.0, v1), length(120.0, v1)), (12, 12));
    let v2 = "bt-sound 2\nsfx a 6\nC4 sq 5\nD4 sq 5\n";
    assert_eq!((length(60.0, v2), length(120.0, v2)), (6, 12));
}

#[test]
fn each_channel_of_a_tune_of_sequences_plays_its_own_list() {
    let mut con = console(60.0);
    let a = one_note(&mut con, 20, 50);
    let b = one_note(&mut con, 12, 62);
    let tune = con
        .init_context()
        .add_music(Music::sequences(
            [vec![a, b], vec![], vec![b], vec![]],
            false,
        ))
        .unwrap();
    con.init_context().play_music(tune).unwrap();
    let mut heard: Vec<[Option<SfxId>; 2]> = Vec::new();
    for tick in 0..20 {
        let ctx = con.update_context(tick);
        heard.push([Channel::ONE, Channel::THREE].map(|c| ctx.channel_state(c).sfx));
        assert_eq!(
            ctx.channel_state(Channel::TWO).sfx,
            None,
            "an empty list is silent"
        );
        con.step_sound();
    }
    // At 60 updates a second, a lasts 10 updates and b 6.
    let expected: Vec<[Option<SfxId>; 2]> = (0..20)
        .map(|t| {
            let ch0 = match t {
                0..=9 => Some(a),
                10..=15 => Some(b),
                _ => None,
            };
            [ch0, (t < 6).then_some(b)]
        })
        .collect();
    assert_eq!(heard, expected);
    assert_eq!(
        con.update_context(20).music_pattern(),
        None,
        "once every list is done"
    );
}

#[test]
fn a_sequence_loops_and_an_effect_on_its_channel_takes_its_place_until_done() {
    let mut con = console(60.0);
    let a = one_note(&mut con, 8, 50);
    let fx = one_note(&mut con, 16, 70);
    let tune = con
        .init_context()
        .add_music(Music::sequences([vec![a], vec![], vec![], vec![]], true))
        .unwrap();
    con.init_context().play_music(tune).unwrap();
    for tick in 0..40 {
        let mut ctx = con.update_context(tick);
        if tick == 10 {
            assert_eq!(
                ctx.play_sfx(fx, Some(Channel::ONE)).unwrap().channel(),
                Some(Channel::ONE)
            );
        }
        let ch = ctx.channel_state(Channel::ONE);
        match tick {
            10..=17 => assert_eq!((ch.sfx, ch.from_music), (Some(fx), false), "{tick}"),
            20.. => assert_eq!((ch.sfx, ch.from_music), (Some(a), true), "{tick}"),
            _ => {}
        }
        con.step_sound();
    }
    assert!(con.update_context(40).is_music_playing());
}

#[test]
fn empty_patterns_are_allowed_and_a_tune_of_nothing_but_them_ends() {
    let mut con = console(60.0);
    let a = one_note(&mut con, 10, 50);
    let mut ctx = con.init_context();
    let skips = ctx
        .add_music(Music::patterns(
            vec![[None; 4], [None, Some(a), None, None], [None; 4]],
            Some(0),
        ))
        .unwrap();
    assert!(ctx.play_music(skips).is_ok());
    assert_eq!(
        ctx.music_pattern().map(|p| p.1),
        Some(1),
        "the empty one lasts no time"
    );
    assert_eq!(ctx.channel_state(Channel::TWO).sfx, Some(a));
    let nothing = ctx
        .add_music(Music::patterns(vec![[None; 4], [None; 4]], Some(0)))
        .unwrap();
    assert!(ctx.play_music(nothing).is_ok());
    assert_eq!(ctx.music_pattern(), None);
    con.step_sound();
    assert!(con.drain_samples().count() > 0);
}

#[test]
fn loading_a_sound_file_again_replaces_its_whole_set() {
    let mut con = console(60.0);
    let mut ctx = con.init_context();
    let own = ctx
        .add_sfx(Sfx::new(10, vec![Note::new(40, SQUARE, 5)]))
        .unwrap();
    let first = ctx
        .decode_sounds(
            "s.txt",
            "bt-sound 2\nsfx a 10\nC4 sq 5\nsfx b 10\nD4 sq 5\nmusic m loop=0\na b - -\n",
        )
        .unwrap();
    let (old_a, old_b) = (first.sfx("a").unwrap(), first.sfx("b").unwrap());
    assert!(ctx.play_music(first.music("m").unwrap()).is_ok());
    let again = ctx
        .decode_sounds("s.txt", "bt-sound 2\nsfx a 10\nE4 sq 5\n")
        .unwrap();
    assert_eq!(again.sfx("b"), None, "b is no longer in the file");
    assert_eq!(
        ctx.play_sfx(old_b, None).ok(),
        None,
        "the old ids name nothing"
    );
    assert_eq!(ctx.play_sfx(old_a, None).ok(), None);
    assert_eq!(
        ctx.music_pattern(),
        None,
        "the tune that was playing is gone"
    );
    assert_eq!(ctx.channel_state(Channel::ONE).sfx, None);
    assert!(ctx.play_music(first.music("m").unwrap()).is_err());
    assert_eq!(
        ctx.play_sfx(own, Some(Channel::THREE)).unwrap().channel(),
        Some(Channel::THREE),
        "a sound not from the file stays"
    );
    assert_eq!(
        ctx.play_sfx(again.sfx("a").unwrap(), Some(Channel::ONE))
            .unwrap()
            .channel(),
        Some(Channel::ONE)
    );
    // A file that fails to load changes nothing.
    assert!(ctx.decode_sounds("s.txt", "bt-sound 2\nsfx a 0\n").is_err());
    assert_eq!(
        ctx.play_sfx(again.sfx("a").unwrap(), Some(Channel::TWO))
            .unwrap()
            .channel(),
        Some(Channel::TWO)
    );
    // Another file's set is its own.
    let other = ctx
        .decode_sounds("t.txt", "bt-sound 2\nsfx a 10\nG4 sq 5\n")
        .unwrap();
    assert!(ctx.play_sfx(again.sfx("a").unwrap(), None).is_ok());
    assert!(ctx
        .play_sfx(other.sfx("a").unwrap(), Some(Channel::FOUR))
        .is_ok());
}

/// The shortest and longest period (in samples, between rising edges) of one held C2 square
/// note with vibrato of `depth` cents, over its second second.
fn vibrato_periods(depth: u16) -> (usize, usize) {
    let mut con = console(60.0);
    let mut sfx = Sfx::new(
        480,
        vec![Note::new(36, SQUARE, 5).with(NoteEffect::Vibrato)],
    );
    sfx.vibrato_depth = depth;
    let id = con.init_context().add_sfx(sfx).unwrap();
    con.update_context(0).play_sfx(id, None).unwrap();
    let mut samples = Vec::new();
    for t in 1..=120 {
        con.step_sound();
        let made: Vec<i16> = con.drain_samples().collect();
        if t > 60 {
            samples.extend(made);
        }
        let _ = con.update_context(t);
    }
    let rising: Vec<usize> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] <= 0 && w[1] > 0)
        .map(|(i, _)| i)
        .collect();
    let periods: Vec<usize> = rising.windows(2).map(|w| w[1] - w[0]).collect();
    (
        *periods.iter().min().unwrap(),
        *periods.iter().max().unwrap(),
    )
}

#[test]
fn vibrato_depth_sets_how_far_the_pitch_bends_either_way() {
    // A pitch bent d cents down and d cents up: the periods span a ratio of 2^(2d / 1200).
    for (depth, want) in [(50u16, 2f64.powf(1.0 / 12.0)), (25, 2f64.powf(0.5 / 12.0))] {
        let (short, long) = vibrato_periods(depth);
        let ratio = long as f64 / short as f64;
        assert!(
            (ratio - want).abs() < 0.006,
            "{depth} cents: periods {short} to {long} samples, a ratio of {ratio:.4}, not {want:.4}"
        );
    }
    let (short, long) = vibrato_periods(0);
    assert!(
        long - short <= 1,
        "no vibrato at depth 0: {short} to {long}"
    );

    let mut deep = Sfx::new(8, vec![Note::new(60, SQUARE, 5).with(NoteEffect::Vibrato)]);
    deep.vibrato_depth = 1201;
    let err = console(60.0).init_context().add_sfx(deep).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a vibrato depth must be 0 to 1200 cents, got 1201"
    );
}

/// `seconds` of the sound effect `name` from `file`, played at the first sample, at `fps`
/// updates a second and `rate` samples a second.
fn render_file(file: &str, name: &str, fps: f64, rate: u32, seconds: f64) -> Vec<i16> {
    let mut con = console(fps);
    con.set_sample_rate(rate);
    let bank = con.init_context().decode_sounds("f.txt", file).unwrap();
    con.update_context(0)
        .play_sfx(bank.sfx(name).unwrap(), Some(Channel::ONE))
        .unwrap();
    let mut out = Vec::new();
    for _ in 0..(seconds * fps).ceil() as u64 {
        con.step_sound();
        out.extend(con.drain_samples());
    }
    out
}

#[test]
fn a_unit_of_183_22050ths_puts_each_note_on_the_sample_its_fraction_gives_at_any_rate() {
    // Speed 3 of 183/22,050 s: notes separated by rests start every 6 units.
    let file = "bt-sound 2\nsfx a 3 unit=183/22050\nA4 sq 5\n--\nE5 sq 5\n--\nA5 sq 5\n--\n";
    for rate in [44_100u32, 48_000, 22_050] {
        let at_60 = render_file(file, "a", 60.0, rate, 0.1);
        for fps in [30.0, 144.0] {
            let other = render_file(file, "a", fps, rate, 0.1);
            assert!(
                at_60[..] == other[..at_60.len()],
                "{rate} Hz at {fps} updates"
            );
        }
        let mut onsets = Vec::new();
        let mut quiet = usize::MAX / 2;
        for (i, &s) in at_60.iter().enumerate() {
            if s != 0 && quiet > 20 {
                onsets.push(i);
            }
            quiet = if s == 0 { quiet + 1 } else { 0 };
        }
        let expected: Vec<usize> = (0..3)
            .map(|k| (k * 6 * 183 * rate as usize) / 22_050)
            .collect();
        assert_eq!(onsets, expected, "{rate} Hz");
    }
}

#[test]
fn with_an_exact_unit_a_one_unit_note_is_at_its_pitch_from_its_first_period() {
    // Two notes of 1/120 s, an octave apart: the second's first period is already an
    // octave up (no glide across the note).
    let file = "bt-sound 2\nsfx a 1 unit=1/120\nA5 sq 7\nA6 sq 7\n";
    let s = render_file(file, "a", 60.0, 44_100, 0.02);
    let ups: Vec<usize> = (1..735).filter(|&i| s[i - 1] < 0 && s[i] >= 0).collect();
    let second: Vec<usize> = ups.iter().copied().filter(|&i| i > 367).collect();
    // A6 is 1,760 Hz: 25.06 samples a period, from the first crossing on.
    for pair in second.windows(2) {
        let period = (pair[1] - pair[0]) as f64;
        assert!((period - 25.06).abs() <= 1.0, "{second:?}");
    }
}

#[test]
fn a_pattern_is_timed_by_its_lowest_channel_that_does_not_loop() {
    let mut con = console(60.0);
    // A drone of 1/120 s looping on channel 1, a 30/120 s note on channel 2: the pattern
    // lasts a quarter second, as PICO-8 times it.
    let mut drone = Sfx::new(1, vec![Note::new(40, SQUARE, 3)]);
    drone.loop_start = Some(0);
    let mut ctx = con.init_context();
    let drone = ctx.add_sfx(drone).unwrap();
    let tone = ctx
        .add_sfx(Sfx::new(30, vec![Note::new(57, SQUARE, 5)]))
        .unwrap();
    let tune = ctx
        .add_music(Music::patterns(
            vec![
                [Some(drone), Some(tone), None, None],
                [Some(tone), None, None, None],
            ],
            None,
        ))
        .unwrap();
    // Every channel loops: the lowest's loop once through.
    let drones = ctx
        .add_music(Music::patterns(
            vec![
                [Some(drone), Some(drone), None, None],
                [Some(tone), None, None, None],
            ],
            None,
        ))
        .unwrap();
    for (music, first) in [(tune, 15), (drones, 1)] {
        assert!(con.init_context().play_music(music).is_ok());
        let mut tick = 0;
        while con.update_context(tick).music_pattern().map(|p| p.1) == Some(0) {
            con.step_sound();
            tick += 1;
        }
        assert_eq!(tick, first, "{music:?}");
    }
}

/// The loudest sample in each 1/20 s of `seconds` of `music` started with `start` (and faded
/// out over `stop` from `stop_at` seconds, if given), at `fps`.
fn fade_peaks(
    fps: f64,
    start: bt::sound::MusicStart,
    stop: Option<(f64, std::time::Duration)>,
) -> Vec<i16> {
    let mut con = console(fps);
    let drone = con
        .init_context()
        .add_sfx(Sfx::new(240, vec![Note::new(57, SQUARE, 7)]))
        .unwrap();
    let tune = con
        .init_context()
        .add_music(Music::patterns(
            vec![[Some(drone), None, None, None]],
            Some(0),
        ))
        .unwrap();
    assert!(con.init_context().play_music_with(tune, start).is_ok());
    let mut samples = Vec::new();
    for tick in 0..fps as u64 {
        let mut ctx = con.update_context(tick);
        if let Some((at, fade)) = stop {
            if tick == (at * fps) as u64 {
                ctx.stop_music(Fade::new(fade));
            }
        }
        con.step_sound();
        samples.extend(con.drain_samples());
    }
    samples
        .chunks(2_205)
        .map(|c| c.iter().map(|s| s.saturating_abs()).max().unwrap_or(0))
        .collect()
}

#[test]
fn a_tune_fades_in_over_its_fade_and_out_before_it_stops_the_same_at_any_rate() {
    use bt::sound::MusicStart;
    use std::time::Duration;
    let start = MusicStart {
        fade_in: Fade::millis(500),
        ..MusicStart::default()
    };
    let peaks = fade_peaks(60.0, start, None);
    assert_eq!(peaks, fade_peaks(30.0, start, None), "30 updates a second");
    let full = peaks[15];
    assert!(
        peaks[0] <= full / 10 + 1,
        "a tenth of the way at 0.05 s: {peaks:?}"
    );
    // Half way through the fade (the 1/20 s ending at 0.25 s) it is about half as loud.
    let half = f64::from(peaks[4]) / f64::from(full);
    assert!((half - 0.5).abs() < 0.06, "{half}: {peaks:?}");
    assert!(peaks.windows(2).take(9).all(|w| w[0] < w[1]), "{peaks:?}");
    assert!(peaks[10..].iter().all(|&p| p == full), "{peaks:?}");

    // Out over 0.2 s from 0.5 s: falling, then silent and stopped.
    let out = fade_peaks(
        60.0,
        MusicStart::default(),
        Some((0.5, Duration::from_millis(200))),
    );
    assert_eq!(out[9], full);
    assert!(out[10..14].windows(2).all(|w| w[0] > w[1]), "{out:?}");
    assert!(out[15..].iter().all(|&p| p == 0), "{out:?}");
}

#[test]
fn channels_reserved_for_a_tune_are_not_picked_for_a_sound_effect() {
    use bt::sound::MusicStart;
    let mut con = console(60.0);
    let a = one_note(&mut con, 120, 50);
    let mut ctx = con.init_context();
    let tune = ctx
        .add_music(Music::patterns(vec![[Some(a), None, None, None]], Some(0)))
        .unwrap();
    assert!(ctx.play_music(tune).is_ok());
    assert_eq!(ctx.play_sfx(a, None).unwrap().channel(), Some(Channel::TWO));
    ctx.stop_channel(Channel::TWO, Fade::INSTANT);
    // PICO-8's music(n, 0, 7): channels 0 to 2 kept for the tune.
    let start = MusicStart {
        reserved: [true, true, true, false],
        ..MusicStart::default()
    };
    assert!(ctx.play_music_with(tune, start).is_ok());
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::FOUR)
    );
    assert_eq!(
        ctx.play_sfx(a, None).ok(),
        None,
        "the only open channel is busy"
    );
    assert_eq!(
        ctx.play_sfx(a, Some(Channel::TWO)).unwrap().channel(),
        Some(Channel::TWO),
        "asked for"
    );
    ctx.stop_music(Fade::INSTANT);
    ctx.stop_channel(Channel::FOUR, Fade::INSTANT);
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::ONE),
        "none kept once it stops"
    );
}

#[test]
fn with_an_exact_unit_a_slide_glides_the_volume_from_the_note_before() {
    // Volume 7 then a slide to volume 1 over 1/10 s: the loudness falls across the note.
    let file = "bt-sound 2\nsfx a 12 unit=1/120\nA4 sq 7\nA4 sq 1 slide\n";
    let s = render_file(file, "a", 60.0, 44_100, 0.2);
    let peak = |from: usize| s[from..from + 441].iter().map(|x| x.abs()).max().unwrap();
    let (start, middle, end) = (peak(4_410 + 50), peak(6_615), peak(8_820 - 441));
    assert!(start > middle && middle > end, "{start} {middle} {end}");
    let full = peak(2_000);
    let half_way = f64::from(middle) / f64::from(full);
    // Half way from 7/7 to 1/7: 4/7 of full.
    assert!((half_way - 4.0 / 7.0).abs() < 0.03, "{half_way}");
    // In 120ths (no unit named) the volume steps at once, as it always did.
    let old = render_file(&file.replace(" unit=1/120", ""), "a", 60.0, 44_100, 0.2);
    let old_peak = |from: usize| old[from..from + 441].iter().map(|x| x.abs()).max().unwrap();
    assert_eq!(old_peak(6_615), old_peak(8_820 - 441));
}
