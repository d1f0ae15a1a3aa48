//! Sound follows ticks: the same samples under any clock, and from a seek as from straight play.

use bt::sound::{Music, Note, NoteEffect, Sfx, SfxId, Wave};
use bt::{Button, Cart, CartError, Player, Render, Update};
use bt_runtime::export::wav::{encode_wav, make_wav, record_samples, WavChannels};
use bt_runtime::{ConstantClock, Engine, EngineOptions, JitterClock, SequenceClock};

/// Plays a tune from `init`, a noise burst every 50 ticks, and a random note now and then.
#[derive(Default)]
struct Band {
    burst: Option<SfxId>,
    blip: Option<SfxId>,
}

impl Cart for Band {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let sq = Wave::Square { duty: 64 };
        let bass = ctx.add_sfx(Sfx::new(
            12,
            vec![
                Note::new(36, Wave::Triangle, 6),
                Note::new(43, Wave::Triangle, 6),
            ],
        ))?;
        let lead = ctx.add_sfx(Sfx::new(
            6,
            vec![
                Note::new(60, sq, 5).with(NoteEffect::Vibrato),
                Note::new(64, sq, 5).with(NoteEffect::Slide),
                Note::new(67, Wave::Sine, 5).with(NoteEffect::Arpeggio),
                Note::new(72, Wave::Saw, 5).with(NoteEffect::FadeOut),
            ],
        ))?;
        let tune = ctx.add_music(Music::Patterns {
            patterns: vec![[Some(bass), Some(lead), None, None]],
            loop_start: Some(0),
        })?;
        ctx.play_music(tune).unwrap();
        self.burst = ctx
            .add_sfx(Sfx::new(
                4,
                vec![Note::new(30, Wave::Noise, 7).with(NoteEffect::Drop); 4],
            ))
            .ok();
        self.blip = ctx
            .add_sfx(Sfx::new(
                2,
                vec![Note::new(70, Wave::Sine, 4).with(NoteEffect::FadeIn); 3],
            ))
            .ok();
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.ticks() % 50 == 10 {
            ctx.play_sfx(self.burst.unwrap(), Some(bt::sound::Channel::FOUR))
                .unwrap();
        }
        if ctx.rng_mut().next_u32().is_multiple_of(17) || ctx.is_pressed(Button::A, Player::ONE) {
            ctx.play_sfx(self.blip.unwrap(), None).unwrap();
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

fn engine() -> Engine {
    Engine::new(
        Box::new(|| Box::new(Band::default())),
        EngineOptions::default(),
    )
    .unwrap()
}

#[test]
fn the_samples_are_the_same_under_three_very_different_clocks_and_stepped() {
    let stepped = record_samples(&mut engine(), 1.0, 3.0, None, WavChannels::Mono).unwrap();
    assert_eq!(stepped.len(), 3 * 44_100);
    assert!(stepped.iter().any(|&s| s.abs() > 2000), "it plays");
    let clocks: [Box<dyn bt_runtime::Clock>; 3] = [
        Box::new(ConstantClock::new(16.0).unwrap()),
        Box::new(SequenceClock::new(vec![5.0, 40.0, 16.7, 400.0, 0.5]).unwrap()),
        Box::new(JitterClock::new(1.0, 90.0, 42.0).unwrap()),
    ];
    for clock in clocks {
        let live = record_samples(&mut engine(), 1.0, 3.0, Some(clock), WavChannels::Mono).unwrap();
        assert_eq!(live.len(), stepped.len());
        let first = live.iter().zip(&stepped).position(|(a, b)| a != b);
        assert_eq!(first, None, "the first differing sample");
    }
}

#[test]
fn a_seek_then_resume_hears_what_straight_play_hears() {
    let straight = record_samples(&mut engine(), 0.0, 4.0, None, WavChannels::Mono).unwrap();
    let mut e = engine();
    let from_seek = record_samples(&mut e, 2.5, 1.5, None, WavChannels::Mono).unwrap();
    let at = (2.5 * 44_100.0) as usize;
    assert_eq!(&straight[at..], &from_seek[..]);
    // And a seek from where it is, on to live play under a clock.
    let mut e = engine();
    e.render_at(1.0, bt_runtime::engine::Origin::Start).unwrap();
    e.render_at(2.0, bt_runtime::engine::Origin::Current)
        .unwrap();
    e.console_mut().drain_frames();
    e.set_clock(Box::new(ConstantClock::new(16.0).unwrap()));
    e.resume();
    let mut live = Vec::new();
    while e.updates_since_init() < 180 {
        e.advance(1);
        live.extend(e.console_mut().drain_samples());
    }
    let n = 60 * 735;
    assert_eq!(&live[..n], &straight[120 * 735..180 * 735]);
}

#[test]
fn the_wav_file_is_byte_identical_run_after_run_and_says_what_it_holds() {
    let a = make_wav(&mut engine(), 0.5, 1.0, None, WavChannels::Stereo).unwrap();
    let b = make_wav(
        &mut engine(),
        0.5,
        1.0,
        Some(Box::new(JitterClock::new(3.0, 70.0, 7.0).unwrap())),
        WavChannels::Stereo,
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(&a[..4], b"RIFF");
    assert_eq!(&a[8..16], b"WAVEfmt ");
    assert_eq!(&a[22..24], &[2, 0], "two channels");
    assert_eq!(a.len(), 44 + 44_100 * 4);
    let mono = make_wav(&mut engine(), 0.5, 1.0, None, WavChannels::Mono).unwrap();
    assert_eq!(&mono[22..24], &[1, 0], "one channel");
    assert_eq!(mono.len(), 44 + 44_100 * 2);
    let tiny = encode_wav(&[1, -2], 8000, WavChannels::Mono).unwrap();
    assert_eq!(&tiny[44..], &[1, 0, 254, 255]);
}

#[test]
fn a_cart_that_never_pans_makes_both_sides_its_mono_mix() {
    let mono = record_samples(&mut engine(), 0.0, 2.0, None, WavChannels::Mono).unwrap();
    let stereo = record_samples(&mut engine(), 0.0, 2.0, None, WavChannels::Stereo).unwrap();
    assert_eq!(stereo.len(), 2 * mono.len());
    assert!(mono.iter().any(|&s| s.abs() > 2000), "it plays");
    for (i, (pair, &m)) in stereo.chunks(2).zip(&mono).enumerate() {
        assert_eq!(pair, [m, m], "frame {i}");
    }
}

#[test]
fn a_length_under_one_update_is_refused() {
    let err = record_samples(&mut engine(), 0.0, 0.001, None, WavChannels::Mono).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--seconds 0.001 is less than one update at 60 updates a second"
    );
}

/// Loads `tune.txt` from its asset folder in `init` and plays it.
struct FromFile;

impl Cart for FromFile {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let bank = ctx.load_sounds("tune.txt")?;
        ctx.play_music(bank.music("theme").unwrap()).unwrap();
        Ok(())
    }
    fn update(&mut self, _: &mut Update<'_>) {}
    fn render(&self, _: &mut Render<'_>) {}
}

#[test]
fn a_sound_file_in_the_asset_folder_loads_like_a_sprite_sheet_and_errors_name_it() {
    let dir = bt_test_support::ScratchDir::new("sound-file");
    let options = || EngineOptions {
        assets: Some(dir.path().to_path_buf()),
        ..EngineOptions::default()
    };
    std::fs::write(
        dir.join("tune.txt"),
        "bt-sound 1\nsfx a 4\nC4 sq 6\nE4 sq 6\nmusic theme loop=0\na - - -\n",
    )
    .unwrap();
    let mut e = Engine::new(Box::new(|| Box::new(FromFile)), options()).unwrap();
    let samples = record_samples(&mut e, 0.0, 0.5, None, WavChannels::Mono).unwrap();
    assert!(samples.iter().any(|&s| s.abs() > 5000));
    std::fs::write(dir.join("tune.txt"), "bt-sound 1\nsfx a 4\nC4 sq 9\n").unwrap();
    let err = Engine::new(Box::new(|| Box::new(FromFile)), options()).unwrap_err();
    assert!(
        err.to_string().contains("tune.txt:3: volume: 9 is above 7"),
        "{err}"
    );
}
