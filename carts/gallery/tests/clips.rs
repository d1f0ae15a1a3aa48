//! Sample clips keep BT's promise for sound: a clip started by an update starts on the sample
//! its tick gives, and its samples are the same at 30, 60 or 144 updates a second, after a seek,
//! and in a replay; so is music from clips. (In a web page: `tests/web.rs`.)

use std::sync::Arc;
use std::time::Duration;

use bt::sound::{ClipId, ClipOptions, Fade, MusicClip, Voice};
use bt::{Button, Cart, CartError, Player, Render, Settings, Update};
use bt_runtime::engine::Origin;
use bt_runtime::export::wav::{record_samples, WavChannels};
use bt_runtime::replay::Replay;
use bt_runtime::{Engine, EngineOptions};

/// Plays the audio cart's clips at moments that are whole updates at 30, 60 and 144 updates a
/// second (sixths of a second): the chord pitched down and panned left from the start, the
/// blip pitched up on the right at 0.5 s, the chord stopped with a fade of 0.25 s at 1 s, and
/// the blip looping quietly from 4/3 s.
///
/// With `music`, the chord also plays as music from clips: its first half second an intro, the
/// rest looping, crossfaded over 0.3 s into the blip looping as music at 5/6 s and back at
/// 7/6 s, then faded out over 0.2 s at 9/6 s.
#[derive(Clone)]
struct Clips {
    fps: f64,
    music: bool,
    chord: Option<ClipId>,
    blip: Option<ClipId>,
    voice: Option<Voice>,
}

impl Clips {
    fn new(fps: f64, music: bool) -> Clips {
        Clips {
            fps,
            music,
            chord: None,
            blip: None,
            voice: None,
        }
    }

    fn music(&self, ctx: &mut Update<'_>) {
        let [intro, to_blip, back, stop] =
            [0, 5, 7, 9].map(|n| ctx.ticks_in(Duration::from_secs(n) / 6));
        let t = ctx.ticks();
        let (chord, blip) = (self.chord.unwrap(), self.blip.unwrap());
        let options = |loop_start, crossfade| MusicClip {
            loop_start: Some(loop_start),
            crossfade: Fade::millis(crossfade),
            volume: 150,
            ..MusicClip::default()
        };
        if t == intro {
            ctx.play_music_clip(chord, options(22_050, 0)).unwrap();
        }
        if t == to_blip {
            ctx.play_music_clip(blip, options(0, 300)).unwrap();
        }
        if t == back {
            ctx.play_music_clip(chord, options(22_050, 300)).unwrap();
        }
        if t == stop {
            ctx.stop_music(Fade::millis(200));
        }
    }
}

impl Cart for Clips {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().target_fps(self.fps)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.chord = Some(ctx.decode_clip("chord.ogg", bt_cart_audio::CHORD)?);
        self.blip = Some(ctx.decode_clip("blip.wav", bt_cart_audio::BLIP)?);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if self.music {
            self.music(ctx);
        }
        // In sixths of a second: whole updates at 30, 60 and 144 a second.
        let [start, blip_at, stop_at, loop_at] =
            [0, 3, 6, 8].map(|n| ctx.ticks_in(Duration::from_secs(n) / 6));
        let t = ctx.ticks();
        let (chord, blip) = (self.chord.unwrap(), self.blip.unwrap());
        if t == start {
            let low_left = ClipOptions {
                pitch: 0.75,
                pan: -60,
                ..ClipOptions::default()
            };
            self.voice = ctx.play_clip(chord, low_left).ok();
        }
        if t == blip_at {
            let high_right = ClipOptions {
                pitch: 1.5,
                pan: 100,
                volume: 200,
                ..ClipOptions::default()
            };
            ctx.play_clip(blip, high_right).unwrap();
        }
        if t == stop_at {
            ctx.stop_voice(self.voice.unwrap(), Fade::millis(250));
        }
        if t == loop_at {
            let looping = ClipOptions {
                looping: true,
                volume: 60,
                pitch: 0.9,
                ..ClipOptions::default()
            };
            ctx.play_clip(blip, looping).unwrap();
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

fn engine(fps: f64, music: bool) -> Engine {
    Engine::new(
        Box::new(move || Box::new(Clips::new(fps, music))),
        EngineOptions::default(),
    )
    .unwrap()
}

/// Two seconds of `fps`'s run, left and right interleaved.
fn two_seconds(fps: f64) -> Vec<i16> {
    two_seconds_of(fps, false)
}

fn two_seconds_of(fps: f64, music: bool) -> Vec<i16> {
    record_samples(&mut engine(fps, music), 0.0, 2.0, None, WavChannels::Stereo).unwrap()
}

#[test]
fn a_clips_samples_are_the_same_at_30_60_and_144_updates_a_second() {
    let at_60 = two_seconds(60.0);
    assert_eq!(at_60.len(), 2 * 2 * 44_100);
    let frames: Vec<[i16; 2]> = at_60.chunks(2).map(|f| [f[0], f[1]]).collect();
    // The chord (itself louder on the left) panned left: its first quarter second far louder
    // on the left.
    let (l, r) = frames[..11_025].iter().fold((0i64, 0i64), |(l, r), f| {
        (l + i64::from(f[0]).abs(), r + i64::from(f[1]).abs())
    });
    assert!(l > r + r / 2 && r > 0, "left {l}, right {r}");
    // Stopped at 1 s with a fade of 0.25 s: silent from 1.25 s until the loop starts at 4/3 s
    // (frame 58,800), then playing to the end.
    assert!(frames[55_126..58_800].iter().all(|&f| f == [0, 0]));
    assert_ne!(
        frames[58_800],
        [0, 0],
        "the loop starts on the sample its update gives"
    );
    assert!(frames[88_000..].iter().any(|&f| f != [0, 0]));
    for fps in [30.0, 144.0] {
        let other = two_seconds(fps);
        let first = other.iter().zip(&at_60).position(|(a, b)| a != b);
        assert_eq!(
            first, None,
            "the first sample that differs at {fps} updates a second"
        );
        assert_eq!(other.len(), at_60.len());
    }
}

#[test]
fn a_seek_hears_what_straight_play_hears_and_plays_on_from_there() {
    for fps in [60.0, 144.0] {
        let straight = two_seconds(fps);
        // Whole updates at both rates.
        for from in [0.5, 1.25] {
            let mut e = engine(fps, false);
            let tail = record_samples(&mut e, from, 2.0 - from, None, WavChannels::Stereo).unwrap();
            let skip = 2 * (from * 44_100.0) as usize;
            assert!(
                tail == straight[skip..],
                "from {from} s at {fps} updates a second"
            );
        }
        // A seek back from later on (restored from a snapshot, not replayed from boot).
        let mut e = engine(fps, false);
        e.render_at(1.8, Origin::Start).unwrap();
        let again = record_samples(&mut e, 0.75, 1.25, None, WavChannels::Stereo).unwrap();
        let skip = 2 * (0.75 * 44_100.0) as usize;
        assert!(again == straight[skip..], "a seek back at {fps}");
    }
}

#[test]
fn music_from_clips_is_the_same_at_any_update_rate_and_after_a_seek_back() {
    let at_60 = two_seconds_of(60.0, true);
    assert!(at_60 != two_seconds(60.0), "the music is heard");
    for fps in [30.0, 144.0] {
        let other = two_seconds_of(fps, true);
        let first = other.iter().zip(&at_60).position(|(a, b)| a != b);
        assert_eq!(first, None, "the first sample that differs at {fps}");
    }
    for fps in [60.0, 144.0] {
        let straight = two_seconds_of(fps, true);
        // Back from after the fade out to mid-crossfade.
        let mut e = engine(fps, true);
        e.render_at(1.8, Origin::Start).unwrap();
        let again = record_samples(&mut e, 1.0, 1.0, None, WavChannels::Stereo).unwrap();
        assert!(again == straight[2 * 44_100..], "a seek back at {fps}");
    }
}

/// The audio cart with A and B pressed on the updates `presses` (its low chord has the highest
/// priority; B crossfades its music to the other track), or as `replay` says: the frames each update made, interleaved, and the run's
/// recording.
fn audio_run(presses: &[u64], replay: Option<Replay>, updates: u64) -> (Vec<i16>, Option<Replay>) {
    let cart = bt_gallery::find("audio").unwrap();
    let replaying = replay.is_some();
    let options = EngineOptions {
        replay: replay.map(Arc::new),
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    if !replaying {
        e.start_recording(0);
    }
    e.console_mut().drain_frames();
    let mut out = Vec::new();
    for u in 0..updates {
        if !replaying {
            for button in [Button::A, Button::B] {
                e.console_mut()
                    .input_mut()
                    .set_buttons(button, Player::ONE, presses.contains(&u));
            }
        }
        e.step(1).unwrap();
        out.extend(e.console_mut().drain_frames().flatten());
    }
    (out, e.recording("audio", None))
}

#[test]
fn a_replay_hears_the_clips_the_recorded_run_heard() {
    let presses = [40, 41, 150, 151, 300];
    let (live, recording) = audio_run(&presses, None, 420);
    let (untouched, _) = audio_run(&[], None, 420);
    assert!(live != untouched, "A's chord is heard");
    let (replayed, _) = audio_run(&[], Some(recording.unwrap()), 420);
    assert_eq!(replayed.len(), live.len());
    let first = replayed.iter().zip(&live).position(|(a, b)| a != b);
    assert_eq!(first, None, "the first sample the replay hears differently");
}

#[test]
fn clips_load_from_the_asset_folder_once_and_bad_ones_are_refused_on_one_line() {
    use bt::host::Console;
    use bt::sound::MAX_CLIP_FILE;
    use bt_runtime::config::assets::Assets;

    let dir = bt_test_support::ScratchDir::new("clip-files");
    std::fs::write(dir.join("blip.wav"), bt_cart_audio::BLIP).unwrap();
    std::fs::write(dir.join("chord.ogg"), bt_cart_audio::CHORD).unwrap();
    std::fs::write(dir.join("huge.wav"), vec![0u8; MAX_CLIP_FILE as usize + 1]).unwrap();
    std::fs::write(dir.join("notes.ogg"), b"la la la").unwrap();
    let mut con = Console::new(&Settings::default(), 0);
    con.set_image_loader(Box::new(Assets::folder(dir.path())));
    let mut ctx = con.update_context(0);
    let blip = ctx.load_clip("blip.wav").unwrap();
    let chord = ctx.load_clip("chord.ogg").unwrap();
    assert_ne!(blip, chord);
    assert_eq!(
        ctx.load_clip("blip.wav").unwrap(),
        blip,
        "held once, not decoded again"
    );
    assert_eq!(
        ctx.decode_clip("blip.wav", bt_cart_audio::BLIP).unwrap(),
        blip,
        "the same name and bytes built in"
    );
    let error = |ctx: &mut Update<'_>, name: &str| ctx.load_clip(name).unwrap_err().to_string();
    assert_eq!(
        error(&mut ctx, "huge.wav"),
        format!(
            "sound clip huge.wav: could not read it: {} bytes is over the limit of \
             {MAX_CLIP_FILE} bytes",
            MAX_CLIP_FILE + 1
        )
    );
    assert_eq!(
        error(&mut ctx, "notes.ogg"),
        "notes.ogg: not a sound clip BT can read (WAV or Ogg Vorbis): the file starts with \
         neither RIFF/WAVE (a WAV file) nor OggS (Ogg Vorbis)"
    );
    assert_eq!(error(&mut ctx, "gone.wav"), "gone.wav: file not found");
    assert!(ctx.play_clip(chord, ClipOptions::default()).is_ok());
}
