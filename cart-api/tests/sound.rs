//! The synthesiser, as a cart and a host see it through the console.

use bt::host::Console;
use bt::sound::{Bus, Channel, Fade, Music, Note, NoteEffect, Sfx, SfxId, SoundError, Wave};
use bt::Settings;

const SQUARE: Wave = Wave::Square { duty: 128 };

fn console(fps: f64) -> Console {
    Console::new(&Settings::default().target_fps(fps), 7)
}

fn every_wave_and_effect() -> Vec<Sfx> {
    let waves = [
        SQUARE,
        Wave::Square { duty: 32 },
        Wave::Triangle,
        Wave::Saw,
        Wave::Sine,
        Wave::Noise,
    ];
    let effects = [
        NoteEffect::None,
        NoteEffect::Slide,
        NoteEffect::Vibrato,
        NoteEffect::Drop,
        NoteEffect::FadeIn,
        NoteEffect::FadeOut,
        NoteEffect::Arpeggio,
    ];
    waves
        .iter()
        .map(|&w| {
            let notes = effects
                .iter()
                .enumerate()
                .map(|(i, &e)| Note::new(40 + i as u8 * 3, w, 5).with(e))
                .collect();
            Sfx::new(4, notes)
        })
        .collect()
}

/// Plays every wave with every effect, one channel each, and returns the samples.
fn play_all(con: &mut Console, ticks: u64) -> Vec<i16> {
    let mut ids: Vec<SfxId> = Vec::new();
    {
        let mut ctx = con.init_context();
        for sfx in every_wave_and_effect() {
            ids.push(ctx.add_sfx(sfx).unwrap());
        }
    }
    let mut out = Vec::new();
    for tick in 0..ticks {
        let mut ctx = con.update_context(tick);
        if tick % 30 == 0 {
            let id = ids[(tick / 30) as usize % ids.len()];
            ctx.play_sfx(id, None).unwrap();
        }
        con.step_sound();
        out.extend(con.drain_samples());
    }
    out
}

#[test]
fn the_same_calls_give_the_same_samples_and_a_reset_gives_them_again() {
    let mut a = console(60.0);
    let first = play_all(&mut a, 240);
    a.reset(7);
    let again = play_all(&mut a, 240);
    let mut b = console(60.0);
    assert_eq!(first, play_all(&mut b, 240));
    assert_eq!(first, again);
    assert_eq!(first.len(), 240 * 735);
    assert!(first.iter().any(|&s| s.abs() > 1000), "it makes sound");
}

#[test]
fn a_different_seed_changes_only_the_noise() {
    let tune = |seed| {
        let mut con = Console::new(&Settings::default(), seed);
        let mut ctx = con.init_context();
        let id = ctx
            .add_sfx(Sfx::new(10, vec![Note::new(50, Wave::Noise, 7)]))
            .unwrap();
        let tone = ctx
            .add_sfx(Sfx::new(10, vec![Note::new(50, Wave::Saw, 7)]))
            .unwrap();
        let mut noise = Vec::new();
        let mut saw = Vec::new();
        con.update_context(0)
            .play_sfx(id, Some(Channel::ONE))
            .unwrap();
        for _ in 0..5 {
            con.step_sound();
            noise.extend(con.drain_samples());
        }
        con.update_context(5)
            .stop_channel(Channel::ONE, Fade::INSTANT);
        con.update_context(5)
            .play_sfx(tone, Some(Channel::TWO))
            .unwrap();
        for _ in 0..12 {
            con.step_sound();
            con.drain_frames();
        }
        con.update_context(17)
            .play_sfx(tone, Some(Channel::TWO))
            .unwrap();
        for _ in 0..5 {
            con.step_sound();
            saw.extend(con.drain_samples());
        }
        (noise, saw)
    };
    let (noise1, saw1) = tune(1);
    let (noise2, saw2) = tune(2);
    assert_ne!(noise1, noise2);
    assert_eq!(saw1, saw2);
}

#[test]
fn a_sound_is_heard_from_the_tick_it_is_played_and_ends_after_its_notes() {
    let mut con = console(60.0);
    let mut ctx = con.init_context();
    let id = ctx
        .add_sfx(Sfx::new(4, vec![Note::new(57, SQUARE, 7); 3]))
        .unwrap();
    con.step_sound();
    assert!(con.drain_samples().all(|s| s == 0), "silent before");
    let mut ctx = con.update_context(1);
    assert_eq!(
        ctx.play_sfx(id, None).unwrap().channel(),
        Some(Channel::ONE)
    );
    con.step_sound();
    let loud = con.drain_samples().filter(|s| s.abs() > 1000).count();
    assert!(loud > 300, "heard in the same tick: {loud}");
    for tick in 2..7 {
        assert_eq!(
            con.update_context(tick).channel_state(Channel::ONE).sfx,
            Some(id)
        );
        con.step_sound();
    }
    assert_eq!(
        con.update_context(7).channel_state(Channel::ONE).sfx,
        None,
        "12/120 s: 6 ticks at 60 a second"
    );
    con.step_sound(); // the tick it fades out
    con.drain_frames();
    con.step_sound();
    assert!(con.drain_samples().all(|s| s == 0), "silent after");
}

#[test]
fn master_and_channel_volume_scale_the_mix() {
    let peak = |master: u8, channel: u8| {
        let mut con = console(60.0);
        let mut ctx = con.init_context();
        let id = ctx
            .add_sfx(Sfx::new(9, vec![Note::new(57, SQUARE, 7)]))
            .unwrap();
        let mut ctx = con.update_context(0);
        ctx.play_sfx(id, Some(Channel::THREE)).unwrap();
        ctx.set_bus_volume(Bus::Main, master);
        ctx.set_channel_volume(Channel::THREE, channel);
        con.step_sound();
        con.step_sound();
        con.drain_samples()
            .map(|s| i32::from(s).abs())
            .max()
            .unwrap()
    };
    let full = peak(255, 255);
    assert!(full > 10_000, "{full}");
    assert!((peak(128, 255) - full / 2).abs() < 200);
    assert!((peak(255, 64) - full / 4).abs() < 200);
    assert_eq!(peak(0, 255), 0);
}

#[test]
fn music_plays_its_patterns_then_loops_back_and_yields_to_sound_effects() {
    let mut con = console(60.0);
    let mut ctx = con.init_context();
    let a = ctx
        .add_sfx(Sfx::new(2, vec![Note::new(48, Wave::Triangle, 5); 4]))
        .unwrap();
    let b = ctx
        .add_sfx(Sfx::new(4, vec![Note::new(52, Wave::Sine, 5); 2]))
        .unwrap();
    let tune = ctx
        .add_music(Music::Patterns {
            patterns: vec![[Some(a), Some(b), None, None], [Some(b), None, None, None]],
            loop_start: Some(1),
        })
        .unwrap();
    assert!(ctx.play_music(tune).is_ok());
    let mut seen = Vec::new();
    for tick in 0..16 {
        let ctx = con.update_context(tick);
        seen.push(ctx.music_pattern().unwrap().1);
        con.step_sound();
    }
    assert_eq!(seen, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let mut ctx = con.update_context(16);
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::TWO),
        "the first free channel"
    );
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::THREE)
    );
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::FOUR)
    );
    assert_eq!(
        ctx.play_sfx(a, None).unwrap().channel(),
        Some(Channel::ONE),
        "then one the tune holds"
    );
    assert!(!ctx.channel_state(Channel::ONE).from_music);
    ctx.stop_music(Fade::INSTANT);
    assert_eq!(ctx.music_pattern(), None);
}

#[test]
fn bad_sounds_and_tunes_are_refused_with_what_is_wrong() {
    let mut con = console(60.0);
    let mut ctx = con.init_context();
    let err = ctx
        .add_sfx(Sfx::new(1, vec![Note::rest(), Note::new(96, SQUARE, 1)]))
        .unwrap_err();
    assert_eq!(
        err,
        SoundError::Pitch {
            index: 1,
            pitch: 96
        }
    );
    assert_eq!(err.to_string(), "note 1: pitch 96 is above B7 (95)");
    assert_eq!(
        ctx.add_sfx(Sfx::new(0, vec![Note::rest()])),
        Err(SoundError::Speed)
    );
    assert!(ctx.add_sfx(Sfx::new(1, vec![])).is_err());
    let ok = ctx.add_sfx(Sfx::new(1, vec![Note::rest()])).unwrap();
    let music = |patterns, loop_start| Music::Patterns {
        patterns,
        loop_start,
    };
    assert_eq!(
        ctx.add_music(music(vec![[Some(ok), None, None, None]], Some(1))),
        Err(SoundError::LoopStart { start: 1, len: 1 })
    );
    assert!(
        ctx.add_music(music(vec![[None; 4]], None)).is_ok(),
        "an empty pattern is a silent one"
    );
    assert!(
        ctx.add_music(music(vec![], None)).is_ok(),
        "so is no pattern"
    );
    assert_eq!(
        Channel::new(4),
        None,
        "there is no fifth channel to play on"
    );
}

#[test]
fn rates_and_fps_give_rate_over_fps_samples_an_update() {
    for (rate, fps, ticks, expected) in [
        (44_100, 60.0, 60, 44_100),
        (48_000, 144.0, 144, 48_000),
        (48_000, 30.0, 3, 4_800),
    ] {
        let mut con = console(fps);
        con.set_sample_rate(rate);
        let mut total = 0;
        for _ in 0..ticks {
            con.step_sound();
            total += con.drain_samples().len();
        }
        assert_eq!(total, expected, "{rate} Hz at {fps} fps");
    }
}

#[test]
fn an_undrained_buffer_keeps_at_most_a_second() {
    let mut con = console(60.0);
    for _ in 0..1000 {
        con.step_sound();
    }
    assert!(con.pending_frames().len() <= 44_100);
}

#[test]
fn the_meter_shows_levels_voices_and_notes_cut_off_without_changing_a_sample() {
    let mut con = console(60.0);
    assert!(!con.sound_meter().in_use, "no sound defined yet");
    let (beep, quiet) = {
        let mut ctx = con.init_context();
        let beep = ctx
            .add_sfx(Sfx::new(10, vec![Note::new(45, SQUARE, 7)]))
            .unwrap();
        let quiet = ctx
            .add_sfx(Sfx::new(10, vec![Note::new(45, SQUARE, 1)]))
            .unwrap();
        (beep, quiet)
    };
    let meter = con.sound_meter();
    assert!(meter.in_use);
    assert_eq!((meter.voices, meter.stolen, meter.refused), (0, 0, 0));
    {
        let mut ctx = con.update_context(0);
        assert_eq!(
            ctx.play_sfx(beep, Some(Channel::ONE)).unwrap().channel(),
            Some(Channel::ONE)
        );
        assert_eq!(
            ctx.play_sfx(quiet, Some(Channel::THREE)).unwrap().channel(),
            Some(Channel::THREE)
        );
    }
    con.step_sound();
    con.step_sound();
    let meter = con.sound_meter();
    assert_eq!(meter.voices, 2);
    assert_eq!(meter.peaks[1], 0, "channel 1 is silent");
    assert_eq!(meter.peaks[3], 0);
    assert!(meter.peaks[0] > 4 * meter.peaks[2], "{:?}", meter.peaks);
    assert!(meter.peaks[2] > 0);
    // The loudest sample of the mix is within the sum of the channels' peaks.
    let loudest = con.drain_samples().map(|s| s.unsigned_abs()).max().unwrap();
    let sum = u32::from(meter.peaks[0]) + u32::from(meter.peaks[2]);
    // (Each figure is rounded down on its own: a unit a channel either way.)
    assert!(u32::from(loudest) <= sum + 2, "{loudest} {sum}");
    {
        let mut ctx = con.update_context(1);
        // Channel 0 is busy: playing there cuts its note off.
        ctx.play_sfx(quiet, Some(Channel::ONE)).unwrap();
        ctx.play_sfx(beep, None).unwrap();
        ctx.play_sfx(beep, None).unwrap();
        // All four channels hold sound effects now: no room for a fifth.
        assert_eq!(ctx.play_sfx(beep, None).ok(), None);
    }
    let meter = con.sound_meter();
    assert_eq!((meter.voices, meter.stolen, meter.refused), (4, 1, 1));
    con.reset(7);
    assert_eq!(con.sound_meter(), bt::sound::SoundMeter::default());
}

#[test]
fn the_meter_counts_clipped_samples() {
    let mut con = console(60.0);
    {
        let mut ctx = con.init_context();
        let loud = ctx
            .add_sfx(Sfx::new(30, vec![Note::new(30, SQUARE, 7)]))
            .unwrap();
        for c in Channel::ALL {
            ctx.play_sfx(loud, Some(c)).unwrap();
        }
        ctx.set_bus_volume(Bus::Main, 255);
    }
    for _ in 0..5 {
        con.step_sound();
    }
    let clipped = con.sound_meter().clipped;
    let at_limit = con
        .drain_samples()
        .filter(|&s| s == i16::MAX || s == i16::MIN)
        .count() as u64;
    assert_eq!(clipped, at_limit, "every sample at full scale was clipped");
    assert!(clipped > 0, "four full squares in phase go past full scale");
}

/// The samples of `play` run at tick 0 and of the updates after, until `ticks`.
fn samples_of(sfx: Vec<Sfx>, ticks: u64, play: impl Fn(&mut bt::Update<'_>, &[SfxId])) -> Vec<i16> {
    let mut con = console(60.0);
    let ids: Vec<SfxId> = {
        let mut ctx = con.init_context();
        sfx.into_iter().map(|s| ctx.add_sfx(s).unwrap()).collect()
    };
    let mut out = Vec::new();
    for tick in 0..ticks {
        let mut ctx = con.update_context(tick);
        if tick == 0 {
            play(&mut ctx, &ids);
        }
        con.step_sound();
        out.extend(con.drain_samples());
    }
    out
}

#[test]
fn part_of_a_sound_plays_as_a_sound_of_those_notes_alone() {
    // Four notes of different pitches and waves, no effect carried from note to note.
    let notes: Vec<Note> = [
        (40, SQUARE),
        (47, Wave::Triangle),
        (52, Wave::Saw),
        (59, SQUARE),
    ]
    .iter()
    .map(|&(pitch, wave)| Note::new(pitch, wave, 5))
    .collect();
    let whole = Sfx::new(6, notes.clone());
    let part = Sfx::new(6, notes[1..3].to_vec());
    let from_part = samples_of(vec![whole.clone()], 30, |ctx, ids| {
        assert_eq!(
            ctx.play_sfx_notes(ids[0], Some(Channel::ONE), 1, Some(2))
                .unwrap()
                .channel(),
            Some(Channel::ONE)
        );
    });
    let alone = samples_of(vec![part], 30, |ctx, ids| {
        ctx.play_sfx(ids[0], Some(Channel::ONE)).unwrap();
    });
    assert_eq!(from_part, alone);
    assert!(from_part.iter().any(|&s| s != 0), "it makes sound");
    // To the end with no length: notes 2 and 3.
    let tail = samples_of(vec![whole.clone()], 30, |ctx, ids| {
        ctx.play_sfx_notes(ids[0], None, 2, None).unwrap();
    });
    let tail_alone = samples_of(vec![Sfx::new(6, notes[2..].to_vec())], 30, |ctx, ids| {
        ctx.play_sfx(ids[0], None).unwrap();
    });
    assert_eq!(tail, tail_alone);
    // Past the last note, or no notes at all: nothing starts.
    samples_of(vec![whole], 1, |ctx, ids| {
        assert_eq!(ctx.play_sfx_notes(ids[0], None, 4, None).ok(), None);
        assert_eq!(ctx.play_sfx_notes(ids[0], None, 0, Some(0)).ok(), None);
    });
}

#[test]
fn a_length_counts_the_notes_a_looping_sound_plays_round_its_loop() {
    let notes: Vec<Note> = [40, 44, 47]
        .iter()
        .map(|&pitch| Note::new(pitch, SQUARE, 5))
        .collect();
    let mut looping = Sfx::new(6, notes.clone());
    looping.loop_start = Some(1);
    // From note 1 for five notes: 44, 47, 44, 47, 44, then silence.
    let five = samples_of(vec![looping], 40, |ctx, ids| {
        ctx.play_sfx_notes(ids[0], Some(Channel::ONE), 1, Some(5))
            .unwrap();
    });
    let order: Vec<Note> = [1, 2, 1, 2, 1].iter().map(|&i| notes[i]).collect();
    let spelled = samples_of(vec![Sfx::new(6, order)], 40, |ctx, ids| {
        ctx.play_sfx(ids[0], Some(Channel::ONE)).unwrap();
    });
    assert_eq!(five, spelled);
}

#[test]
fn a_panned_channel_sounds_on_its_side_by_the_pan_law_and_the_others_stay_centred() {
    let mut con = console(60.0);
    // A reset forgets the sounds, so each run adds them again (the same ids).
    let run = |con: &mut Console, pan: i8, sine_too: bool| -> Vec<[i16; 2]> {
        con.reset(7);
        let mut ctx = con.update_context(0);
        let saw = ctx
            .add_sfx(Sfx::new(60, vec![Note::new(45, Wave::Saw, 6)]))
            .unwrap();
        let sine = ctx
            .add_sfx(Sfx::new(60, vec![Note::new(57, Wave::Sine, 6)]))
            .unwrap();
        ctx.set_channel_pan(Channel::ONE, pan);
        assert_eq!(ctx.channel_pan(Channel::ONE), pan);
        ctx.play_sfx(saw, Some(Channel::ONE)).unwrap();
        if sine_too {
            ctx.play_sfx(sine, Some(Channel::TWO)).unwrap();
        }
        con.step_sound();
        con.drain_frames().collect()
    };
    let centre = run(&mut con, 0, false);
    assert!(
        centre.iter().all(|&[l, r]| l == r),
        "centred: both sides equal"
    );
    assert!(centre.iter().any(|&[l, _]| l.abs() > 1000), "it plays");
    let right = run(&mut con, 127, false);
    for (r, c) in right.iter().zip(&centre) {
        assert_eq!(
            *r,
            [0, c[1]],
            "hard right: the left side silent, the right as centred"
        );
    }
    let half = run(&mut con, -64, false);
    for (h, c) in half.iter().zip(&centre) {
        assert_eq!(h[0], c[0], "the near side as centred");
        let gain = bt::sound::pan_gains(-64)[1] as i32;
        let want = i32::from(c[1]) * gain / 256;
        assert!((i32::from(h[1]) - want).abs() <= 2, "{h:?} {c:?}");
    }
    // A centred channel beside a panned one: the right side is the centred one alone.
    let both = run(&mut con, -127, true);
    let sine_alone: Vec<i16> = both.iter().map(|f| f[1]).collect();
    assert!(sine_alone.iter().any(|&s| s.abs() > 1000));
    assert!(both.iter().any(|&[l, r]| l != r));
    con.reset(7);
    let ctx = con.update_context(0);
    assert_eq!(
        ctx.channel_pan(Channel::ONE),
        0,
        "a reset centres every channel"
    );
}
