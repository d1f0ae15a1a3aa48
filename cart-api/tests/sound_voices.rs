//! Voices: what a `play_*` call returns, and what a cart changes through it while it plays
//! (pitch, volume, pan, an eased stop); music from either source counted as music; one master
//! volume; ducking undone.

use std::time::Duration;

use bt::host::{Console, ImageLoader, RgbaImage};
use bt::sound::{
    Bus, Channel, ClipId, ClipOptions, DecodedClip, Ducking, Fade, Frame, Join, Music, MusicClip,
    Note, PlayError, Sfx, SfxId, Wave,
};
use bt::{AssetError, AssetErrorKind, Easing, Settings};

mod support;
use support::run;

/// Decodes every clip to 3,000 frames at 44.1 kHz, all at +1,000 for a name starting with
/// `p` and -1,000 otherwise: flat, so a level is read off one sample.
struct Flat;
impl ImageLoader for Flat {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(path, AssetErrorKind::NotFound))
    }
    fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(name, AssetErrorKind::NotFound))
    }
    fn decode_clip(&self, name: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
        let v = if name.starts_with('p') { 1_000 } else { -1_000 };
        Ok(DecodedClip {
            rate: 44_100,
            frames: vec![[v, v]; 3_000],
        })
    }
}

/// A console with two flat clips, `plus` and `minus`, and a long square note.
fn console() -> (Console, ClipId, ClipId, SfxId) {
    let mut con = Console::new(&Settings::default(), 3);
    con.set_image_loader(Box::new(Flat));
    let mut ctx = con.init_context();
    let plus = ctx.decode_clip("plus.wav", b"p").unwrap();
    let minus = ctx.decode_clip("minus.wav", b"m").unwrap();
    let hum = ctx
        .add_sfx(Sfx::new(
            240,
            vec![Note::new(69, Wave::Square { duty: 128 }, 5)],
        ))
        .unwrap();
    (con, plus, minus, hum)
}

/// Sign changes of the left side: twice the wave's cycles.
fn crossings(frames: &[Frame]) -> usize {
    frames
        .windows(2)
        .filter(|w| (w[0][0] >= 0) != (w[1][0] >= 0))
        .count()
}

#[test]
fn a_pitch_change_on_a_playing_sound_effect_is_heard_from_the_next_update() {
    let (mut con, _, _, hum) = console();
    let mut voice = None;
    let out = run(&mut con, 0..3, |ctx, tick| match tick {
        0 => voice = Some(ctx.play_sfx(hum, None).unwrap()),
        1 => ctx.set_voice_pitch(voice.unwrap(), 2.0),
        _ => {}
    });
    let (first, third) = (&out[..735], &out[2 * 735..]);
    let (before, after) = (crossings(first), crossings(third));
    assert!(before > 10, "the note sounds: {before} crossings");
    assert!(
        after.abs_diff(2 * before) <= 2,
        "an octave up: {before} crossings an update, then {after}"
    );
    let (mut plain, _, _, hum) = console();
    let unchanged = run(&mut plain, 0..1, |ctx, _| {
        ctx.play_sfx(hum, None).unwrap();
    });
    assert!(unchanged == first, "nothing changes before the call");
}

#[test]
fn a_stale_handle_changes_nothing_on_the_sound_that_took_its_channel() {
    let calls = |touch_old: bool| {
        let (mut con, _, _, hum) = console();
        let mut old = None;
        run(&mut con, 0..4, |ctx, tick| match tick {
            0 => old = Some(ctx.play_sfx(hum, Some(Channel::ONE)).unwrap()),
            1 => {
                ctx.play_sfx(hum, Some(Channel::ONE)).unwrap();
            }
            2 if touch_old => {
                let old = old.unwrap();
                assert!(!ctx.is_voice_playing(old));
                ctx.set_voice_pitch(old, 3.0);
                ctx.set_voice_volume(old, 0);
                ctx.set_voice_pan(old, 127);
                ctx.stop_voice(old, Fade::INSTANT);
            }
            _ => {}
        })
    };
    let untouched = calls(false);
    assert!(untouched.iter().any(|f| f[0] != 0));
    assert!(calls(true) == untouched);
}

#[test]
fn a_clip_handle_changes_its_own_voice_and_goes_stale_when_the_clip_ends() {
    let (mut con, plus, _, _) = console();
    let mut voice = None;
    let out = run(&mut con, 0..2, |ctx, tick| {
        if tick == 0 {
            voice = Some(ctx.play_clip(plus, ClipOptions::default()).unwrap());
        } else {
            ctx.set_voice_volume(voice.unwrap(), 128);
            ctx.set_voice_pan(voice.unwrap(), 127);
        }
    });
    // 1,000 (2,000 mix units) through the master's 255/256; then at volume 128 (a gain of
    // 129 × 256 out of 65,536), on the right only.
    assert_eq!(out[0], [996, 996]);
    let half = ((((1_000 * (129 * 256)) >> 15) * 255) >> 9) as i16;
    assert_eq!(out[735], [0, half]);
    let mut ctx = con.update_context(2);
    let voice = voice.unwrap();
    assert!(ctx.is_voice_playing(voice));
    ctx.stop_voice(voice, Fade::INSTANT);
    assert!(!ctx.is_voice_playing(voice));
}

#[test]
fn an_eased_stop_follows_its_curve_sample_by_sample() {
    let (mut con, plus, _, _) = console();
    let fade = Fade::millis(10).eased(Easing::QuadIn); // 441 samples
    let out = run(&mut con, 0..1, |ctx, _| {
        let voice = ctx.play_clip(plus, ClipOptions::default()).unwrap();
        ctx.stop_voice(voice, fade);
    });
    let level = |i: usize| out[i][0];
    assert_eq!(level(0), 996, "full at the start");
    // QuadIn out: 1 - t², so three quarters at half way (220.5 of 441 samples: t ≈ 0.4989).
    let half = 1.0 - (220.0f64 / 441.0).powi(2);
    assert!(
        (f64::from(level(220)) - 996.0 * half).abs() <= 2.0,
        "{}",
        level(220)
    );
    assert!(level(400) < 200, "steep at the end: {}", level(400));
    assert_eq!(level(441), 0, "silent once the fade is over");
}

#[test]
fn a_gap_between_music_clips_is_its_length_in_samples() {
    let (mut con, plus, minus, _) = console();
    let out = run(&mut con, 0..2, |ctx, tick| {
        let clip = if tick == 0 { plus } else { minus };
        let options = MusicClip {
            join: Join::Gap(Duration::from_millis(10)),
            ..MusicClip::default()
        };
        ctx.play_music_clip(clip, options).unwrap();
    });
    let second = &out[735..];
    let silent = second.iter().take_while(|f| f[0] == 0).count();
    assert_eq!(silent, 441, "10 ms at 44.1 kHz");
    assert_eq!(i64::from(second[441][0]), (-2_000 * 255) >> 9);
}

#[test]
fn an_overlap_starts_the_new_track_before_the_old_one_is_silent() {
    let (mut con, plus, minus, _) = console();
    let out = run(&mut con, 0..2, |ctx, tick| {
        let clip = if tick == 0 { plus } else { minus };
        let options = MusicClip {
            crossfade: Fade::millis(10),                   // 441 samples
            join: Join::Overlap(Duration::from_millis(5)), // 220 of them
            ..MusicClip::default()
        };
        ctx.play_music_clip(clip, options).unwrap();
    });
    let second = &out[735..];
    // The old track alone falls in a straight line until the new one starts at 441 - 220.
    for (i, f) in second[..=221].iter().enumerate() {
        let alone = (2_000 * (441 - i as i64) / 441 * 255) >> 9;
        assert_eq!(i64::from(f[0]), alone, "sample {i}");
    }
    assert!(i64::from(second[222][0]) < (2_000 * 219 / 441 * 255) >> 9);
}

#[test]
fn music_from_a_clip_counts_as_music_playing() {
    let (mut con, plus, _, hum) = console();
    let mut ctx = con.update_context(0);
    assert!(!ctx.is_music_playing());
    let track = ctx.play_music_clip(plus, MusicClip::default()).unwrap();
    assert!(ctx.is_music_playing() && ctx.is_voice_playing(track));
    ctx.stop_music(Fade::INSTANT);
    assert!(!ctx.is_music_playing());
    let tune = ctx.add_music(Music::patterns(vec![[Some(hum), None, None, None]], None));
    ctx.play_music(tune.unwrap()).unwrap();
    assert!(ctx.is_music_playing());
}

#[test]
fn the_master_volume_is_the_main_buss_and_scales_every_voice() {
    let (mut con, plus, _, _) = console();
    let out = run(&mut con, 0..1, |ctx, _| {
        ctx.set_bus_volume(Bus::Main, 64);
        assert_eq!(ctx.bus_volume(Bus::Main), 64);
        ctx.play_clip(plus, ClipOptions::default()).unwrap();
    });
    assert_eq!(out[0], [250, 250], "2,000 mix units × 64 / 512");
}

#[test]
fn reset_ducking_stops_sound_effects_lowering_the_music() {
    let level = |reset: bool| {
        let (mut con, plus, minus, hum) = console();
        run(&mut con, 0..10, |ctx, tick| {
            if tick == 0 {
                ctx.set_ducking(Ducking {
                    amount: 255,
                    attack: Duration::ZERO,
                    ..Ducking::default()
                });
                if reset {
                    ctx.reset_ducking();
                }
                ctx.play_music_clip(minus, MusicClip::default()).unwrap();
                ctx.play_sfx(hum, None).unwrap();
                ctx.play_clip(plus, ClipOptions::default()).unwrap();
            }
        });
        con.update_context(10).bus_level(Bus::Music)
    };
    assert_eq!(level(false), 0, "ducked all the way");
    assert_eq!(level(true), 255, "undone: the music stays up");
}

#[test]
fn every_play_says_why_it_plays_nothing() {
    let (mut con, _, _, hum) = console();
    let mut ctx = con.update_context(0);
    for channel in Channel::ALL {
        ctx.play_sfx(hum, Some(channel)).unwrap();
    }
    assert_eq!(ctx.play_sfx(hum, None), Err(PlayError::NoFreeChannel(0)));
    assert_eq!(
        ctx.play_sfx_notes(hum, None, 3, None)
            .unwrap_err()
            .to_string(),
        "sound effect 0: note 3 is past its last (it has 1 notes)"
    );
    assert_eq!(
        ctx.play_sfx_notes(hum, None, 0, Some(0)),
        Err(PlayError::NoNotes(0))
    );
    // A third clip of another console is none of this one's two.
    let (mut other, _, _, _) = console();
    let third = other.init_context().decode_clip("third.wav", b"3").unwrap();
    let mut ctx = con.update_context(1);
    assert_eq!(
        ctx.play_clip(third, ClipOptions::default()),
        Err(PlayError::UnknownClip(2))
    );
}

#[test]
fn a_snapshot_restored_mid_change_goes_on_identically() {
    let (mut con, plus, minus, hum) = console();
    let mut voices = Vec::new();
    let mut calls = |ctx: &mut bt::Update<'_>, tick: u64| match tick {
        0 => {
            voices.push(ctx.play_sfx(hum, None).unwrap());
            voices.push(ctx.play_clip(plus, ClipOptions::default()).unwrap());
            voices.push(ctx.play_music_clip(minus, MusicClip::default()).unwrap());
        }
        25 => {
            for &voice in &voices {
                ctx.set_voice_pitch(voice, 0.75);
                ctx.set_voice_pan(voice, 90);
                ctx.stop_voice(voice, Fade::millis(300).eased(Easing::CubicOut));
            }
        }
        _ => {}
    };
    run(&mut con, 0..30, &mut calls);
    let snapshot = con.snapshot();
    let first = run(&mut con, 30..60, &mut calls);
    con.restore(&snapshot);
    let again = run(&mut con, 30..60, &mut calls);
    assert!(first == again);
    assert!(
        first.iter().any(|f| f != &[0, 0]),
        "still fading at the snapshot"
    );
}

#[test]
fn a_tunes_handle_changes_every_channel_it_holds_and_no_sound_effect() {
    let (mut con, _, _, hum) = console();
    let mut ctx = con.init_context();
    let tune = ctx
        .add_music(Music::patterns(
            vec![[Some(hum), Some(hum), None, None]],
            Some(0),
        ))
        .unwrap();
    let mut voice = None;
    let out = run(&mut con, 0..2, |ctx, tick| {
        if tick == 0 {
            voice = Some(ctx.play_music(tune).unwrap());
        } else {
            ctx.set_voice_volume(voice.unwrap(), 0);
        }
    });
    assert!(out[..735].iter().any(|f| f[0] != 0));
    assert!(
        out[735..].iter().all(|f| f == &[0, 0]),
        "the tune is silent"
    );
    let mut ctx = con.update_context(2);
    let effect = ctx.play_sfx(hum, None).unwrap();
    assert_eq!(
        effect.channel(),
        Some(Channel::THREE),
        "the tune holds one and two"
    );
    let again = ctx.play_music(tune).unwrap();
    assert!(!ctx.is_voice_playing(voice.unwrap()) && ctx.is_voice_playing(again));
    ctx.set_voice_volume(voice.unwrap(), 0); // stale: the new start keeps its volume
    con.step_sound();
    let peaks = con.sound_meter().peaks;
    assert!(
        peaks[0] > 0 && peaks[1] > 0,
        "the tune sounds again: {peaks:?}"
    );
}
