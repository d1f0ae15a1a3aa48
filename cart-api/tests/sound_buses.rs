//! The buses: fades on the sample clock, mutes, ducking, snapshots, and no allocation.

use std::time::Duration;

use bt::host::Console;
use bt::sound::{Bus, Channel, Ducking, Fade, Frame, Music, Note, Sfx, SfxId, Wave};
use bt::{Easing, Settings, Update};
use bt_test_support::CountingAlloc;

mod support;
use support::run;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

const SQUARE: Wave = Wave::Square { duty: 128 };

fn console(fps: f64) -> Console {
    Console::new(&Settings::default().target_fps(fps), 5)
}

/// A tune on channel one only (a looping two-note saw line), and a sound effect of one square
/// note `speed` 120ths of a second long.
struct Sounds {
    tune: bt::sound::MusicId,
    beep: SfxId,
}

fn sounds(con: &mut Console, speed: u16) -> Sounds {
    let mut ctx = con.init_context();
    let line = ctx
        .add_sfx(Sfx::new(
            30,
            vec![Note::new(45, Wave::Saw, 5), Note::new(52, Wave::Saw, 5)],
        ))
        .unwrap();
    let beep = ctx
        .add_sfx(Sfx::new(speed, vec![Note::new(69, SQUARE, 4)]))
        .unwrap();
    let tune = ctx
        .add_music(Music::sequences([vec![line], vec![], vec![], vec![]], true))
        .unwrap();
    Sounds { tune, beep }
}

/// Two seconds at `fps` with the tune, an effect at 1 s, ducking, fades of the music and sfx
/// buses starting at 0.5 s, and a mute of the sfx bus from 4/3 s to 1.5 s (whole
/// updates at each rate).
fn fades_at(fps: u64) -> Vec<Frame> {
    let mut con = console(fps as f64);
    let s = sounds(&mut con, 40);
    run(&mut con, 0..2 * fps, |ctx, tick| {
        if tick == 0 {
            ctx.play_music(s.tune).unwrap();
            ctx.set_ducking(Ducking {
                amount: 200,
                attack: Duration::from_millis(30),
                release: Duration::from_millis(170),
            });
        }
        if tick == fps / 2 {
            ctx.fade_bus(Bus::Music, 90, Fade::millis(730).eased(Easing::CubicInOut));
            ctx.fade_bus(Bus::Sfx, 180, Fade::millis(310).eased(Easing::ElasticOut));
            ctx.fade_bus(Bus::Main, 200, Fade::millis(1210).eased(Easing::ExpoIn));
        }
        if tick == fps {
            ctx.play_sfx(s.beep, Some(Channel::THREE)).unwrap();
        }
        if tick == fps * 4 / 3 || tick == fps * 3 / 2 {
            ctx.set_bus_muted(Bus::Sfx, tick == fps * 4 / 3);
        }
    })
}

#[test]
fn bus_fades_ducking_and_mutes_give_the_same_samples_at_30_60_and_144_updates_a_second() {
    let at_60 = fades_at(60);
    assert_eq!(at_60.len(), 2 * 44_100);
    assert_eq!(at_60, fades_at(30));
    assert_eq!(at_60, fades_at(144));
    assert!(
        at_60[44_100..].iter().any(|f| f[0].abs() > 500),
        "it makes sound"
    );
}

#[test]
fn a_fade_ends_exactly_on_its_target_and_plays_as_that_volume_set_outright() {
    let frames = |fade: bool| {
        let mut con = console(60.0);
        let s = sounds(&mut con, 240);
        let out = run(&mut con, 0..60, |ctx, tick| {
            if tick == 0 {
                ctx.play_music(s.tune).unwrap();
                ctx.play_sfx(s.beep, Some(Channel::THREE)).unwrap();
                if !fade {
                    ctx.set_bus_volume(Bus::Music, 70);
                    ctx.set_bus_volume(Bus::Sfx, 3);
                    ctx.set_bus_volume(Bus::Main, 150);
                }
            }
            if tick == 6 && fade {
                ctx.fade_bus(Bus::Music, 70, Fade::millis(250).eased(Easing::BounceOut));
                ctx.fade_bus(Bus::Sfx, 3, Fade::millis(100).eased(Easing::SineIn));
                ctx.fade_bus(Bus::Main, 150, Fade::millis(400).eased(Easing::BackOut));
            }
            if tick == 12 && fade {
                assert!((71..255).contains(&ctx.bus_volume(Bus::Music)), "half way");
                assert!(ctx.bus_volume(Bus::Main) > 150);
            }
        });
        let ctx = con.update_context(60);
        let volumes = Bus::ALL.map(|b| ctx.bus_volume(b));
        (out, volumes)
    };
    let (faded, volumes) = frames(true);
    let (set, _) = frames(false);
    assert_eq!(volumes, [150, 70, 3]);
    // The fades end by 0.6 s (sample 26,460) at the latest: from there the samples are those
    // of the volumes set from the start.
    assert_eq!(faded[26_460..], set[26_460..]);
    assert_ne!(faded[..26_460], set[..26_460]);
}

#[test]
fn a_muted_bus_is_silent_and_unmuted_plays_exactly_as_if_never_muted() {
    let frames = |music: bool, mute: bool| {
        let mut con = console(60.0);
        let s = sounds(&mut con, 240);
        run(&mut con, 0..50, |ctx, tick| {
            if tick == 0 {
                if music {
                    ctx.play_music(s.tune).unwrap();
                }
                ctx.play_sfx(s.beep, Some(Channel::THREE)).unwrap();
                // A fade running behind the mute goes on.
                ctx.fade_bus(Bus::Music, 100, Fade::millis(2_000));
            }
            if mute && (tick == 10 || tick == 30) {
                ctx.set_bus_muted(Bus::Music, tick == 10);
                assert_eq!(ctx.is_bus_muted(Bus::Music), tick == 10);
            }
        })
    };
    let muted = frames(true, true);
    let never_muted = frames(true, false);
    let no_music = frames(false, false);
    let (from, to) = (10 * 735, 30 * 735);
    assert_eq!(muted[..from], never_muted[..from]);
    assert_eq!(
        muted[from..to],
        no_music[from..to],
        "only the sound effect is heard"
    );
    assert_eq!(
        muted[to..],
        never_muted[to..],
        "back where the fade has got to"
    );
    assert_ne!(
        never_muted[from..to],
        no_music[from..to],
        "the tune is heard unmuted"
    );
}

#[test]
fn ducking_lowers_only_the_music_while_an_effect_plays_and_releases_after() {
    // The effect plays from 0.5 s for 0.1 s (samples 22,050 to 26,460).
    let frames = |music: bool, ducking: bool| {
        let mut con = console(60.0);
        let s = sounds(&mut con, 12);
        run(&mut con, 0..60, |ctx, tick| {
            if tick == 0 {
                if music {
                    ctx.play_music(s.tune).unwrap();
                }
                if ducking {
                    ctx.set_ducking(Ducking {
                        amount: 255,
                        attack: Duration::from_millis(10),
                        release: Duration::from_millis(100),
                    });
                }
            }
            if tick == 30 {
                ctx.play_sfx(s.beep, Some(Channel::THREE)).unwrap();
            }
        })
    };
    let ducked = frames(true, true);
    let plain = frames(true, false);
    let effect_only = frames(false, false);
    let (start, end) = (22_050, 26_460);
    assert_eq!(ducked[..start], plain[..start], "no effect, no ducking");
    // Fully down after the 10 ms attack (441 samples): the music is silent, the effect whole.
    assert_eq!(ducked[start + 441..end], effect_only[start + 441..end]);
    assert_ne!(
        ducked[start..start + 441],
        plain[start..start + 441],
        "on its way down"
    );
    // The 100 ms release (4,410 samples) brings the music back, a little at a time.
    let release = end..end + 4_410;
    assert_ne!(ducked[release.clone()], plain[release.clone()]);
    assert_ne!(ducked[release.clone()], effect_only[release.clone()]);
    assert_eq!(
        ducked[end + 4_410 + 441..],
        plain[end + 4_410 + 441..],
        "back to full"
    );
}

#[test]
fn cleared_ducking_lets_the_music_rise_back_over_its_release_while_the_effect_plays_on() {
    let frames = |clear: bool| {
        let mut con = console(60.0);
        let s = sounds(&mut con, 120);
        run(&mut con, 0..60, |ctx, tick| {
            if tick == 0 {
                ctx.play_music(s.tune).unwrap();
                ctx.play_sfx(s.beep, Some(Channel::THREE)).unwrap();
                if clear {
                    ctx.set_ducking(Ducking {
                        amount: 255,
                        attack: Duration::ZERO,
                        release: Duration::from_millis(50),
                    });
                }
            }
            if tick == 12 && clear {
                ctx.reset_ducking();
            }
        })
    };
    let (cleared, plain) = (frames(true), frames(false));
    // Cleared at 0.2 s (sample 8,820); the 50 ms release is 2,205 samples.
    assert_ne!(cleared[..8_820], plain[..8_820], "the music lowered first");
    assert_ne!(cleared[8_820..11_025], plain[8_820..11_025], "rising");
    assert_eq!(
        cleared[11_025..],
        plain[11_025..],
        "at full though the effect plays"
    );
}

#[test]
fn setting_the_master_volume_ends_a_fade_of_the_main_bus() {
    let mut con = console(60.0);
    let mut ctx = con.update_context(0);
    ctx.fade_bus(Bus::Main, 0, Fade::millis(1_000));
    ctx.set_bus_volume(Bus::Main, 90);
    assert_eq!(ctx.bus_volume(Bus::Main), 90);
    for tick in 1..30 {
        con.step_sound();
        con.update_context(tick);
    }
    let ctx = con.update_context(30);
    assert_eq!(
        (ctx.bus_volume(Bus::Main), ctx.bus_volume(Bus::Main)),
        (90, 90)
    );
}

#[test]
fn a_clip_on_the_sfx_bus_ducks_the_music_and_one_on_the_music_bus_is_ducked() {
    use bt::host::{ImageLoader, RgbaImage};
    use bt::sound::{ClipOptions, DecodedClip};
    use bt::{AssetError, AssetErrorKind};

    /// Every clip is a tenth of a second of a steady level.
    struct Steady;
    impl ImageLoader for Steady {
        fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
            Err(AssetError::new(path, AssetErrorKind::NotFound))
        }
        fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
            Err(AssetError::new(name, AssetErrorKind::NotFound))
        }
        fn decode_clip(&self, _: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
            Ok(DecodedClip {
                rate: 44_100,
                frames: vec![[1000, 1000]; 4_410],
            })
        }
    }
    let level = |bus: Bus| {
        let mut con = console(60.0);
        con.set_image_loader(Box::new(Steady));
        let mut ctx = con.update_context(0);
        let clip = ctx.decode_clip("steady.wav", b"x").unwrap();
        let options = ClipOptions {
            bus,
            ..ClipOptions::default()
        };
        ctx.play_clip(clip, options).unwrap();
        ctx.set_ducking(Ducking {
            amount: 128,
            attack: Duration::ZERO,
            release: Duration::ZERO,
        });
        con.step_sound();
        i64::from(con.pending_frames()[100][0])
    };
    assert_eq!(
        level(Bus::Sfx),
        (2000 * 255) >> 9,
        "the sfx bus is not ducked"
    );
    assert_eq!(level(Bus::Main), (2000 * 255) >> 9);
    // Only clips play, none on the sfx bus: nothing lowers the music.
    assert_eq!(level(Bus::Music), (2000 * 255) >> 9);
    let mut con = console(60.0);
    con.set_image_loader(Box::new(Steady));
    let mut ctx = con.update_context(0);
    let clip = ctx.decode_clip("steady.wav", b"x").unwrap();
    for bus in [Bus::Music, Bus::Sfx] {
        ctx.play_clip(
            clip,
            ClipOptions {
                bus,
                ..ClipOptions::default()
            },
        )
        .unwrap();
    }
    ctx.set_ducking(Ducking {
        amount: 128,
        attack: Duration::ZERO,
        release: Duration::ZERO,
    });
    con.step_sound();
    let both = i64::from(con.pending_frames()[100][0]);
    let music: i64 = (2000 * (65_536 - 128 * 65_536 / 255)) >> 16;
    assert_eq!(
        both,
        ((2000 + music) * 255) >> 9,
        "the music clip lowered by 128/255"
    );
}

#[test]
fn a_snapshot_restored_mid_fade_and_mid_ducking_goes_on_identically() {
    let mut con = console(60.0);
    let s = sounds(&mut con, 20);
    let calls = |ctx: &mut Update<'_>, tick: u64| {
        if tick == 0 {
            ctx.play_music(s.tune).unwrap();
            ctx.set_ducking(Ducking::default());
        }
        if tick == 10 {
            ctx.fade_bus(Bus::Music, 20, Fade::millis(1_000).eased(Easing::ExpoOut));
            ctx.play_sfx(s.beep, Some(Channel::TWO)).unwrap();
        }
    };
    run(&mut con, 0..25, calls);
    let snapshot = con.snapshot();
    let first = run(&mut con, 25..90, calls);
    con.restore(&snapshot);
    let again = run(&mut con, 25..90, calls);
    assert_eq!(first, again);
    assert_eq!(con.sound_meter().buses, [255, 20, 255]);
}

#[test]
fn the_meter_shows_each_buss_level_with_mute_and_ducking() {
    let mut con = console(60.0);
    let s = sounds(&mut con, 240);
    run(&mut con, 0..2, |ctx, tick| {
        if tick == 0 {
            ctx.play_music(s.tune).unwrap();
            ctx.set_bus_volume(Bus::Main, 128);
            ctx.set_bus_volume(Bus::Sfx, 40);
            ctx.set_bus_muted(Bus::Sfx, true);
            ctx.play_sfx(s.beep, Some(Channel::TWO)).unwrap();
            ctx.set_ducking(Ducking {
                amount: 100,
                attack: Duration::ZERO,
                release: Duration::ZERO,
            });
        }
    });
    let meter = con.sound_meter();
    assert_eq!(meter.buses, [128, 155, 0]);
    assert_eq!(meter.peaks[1], 0, "the effect's channel is muted");
    assert!(meter.peaks[0] > 0);
}

#[test]
fn steady_state_updates_with_fades_mutes_and_ducking_do_not_allocate() {
    let mut con = console(60.0);
    let s = sounds(&mut con, 7);
    let mut sink = [[0i16; 2]; 1024];
    let n = GLOBAL.allocations_during(|| {
        for tick in 0..3000u64 {
            let mut ctx = con.update_context(tick);
            match tick % 120 {
                0 => {
                    ctx.play_music(s.tune).unwrap();
                    ctx.set_ducking(Ducking::default());
                }
                10 => ctx.fade_bus(Bus::Music, 30, Fade::millis(1_000).eased(Easing::SineInOut)),
                40 => ctx.set_bus_muted(Bus::Sfx, true),
                50 => ctx.set_bus_muted(Bus::Sfx, false),
                70 => ctx.fade_bus(Bus::Main, 255, Fade::millis(500).eased(Easing::ElasticIn)),
                90 => ctx.reset_ducking(),
                _ => {}
            }
            if tick % 9 == 0 {
                ctx.play_sfx(s.beep, None).unwrap();
            }
            con.step_sound();
            for (slot, f) in sink.iter_mut().zip(con.drain_frames()) {
                *slot = f;
            }
        }
    });
    assert_eq!(n, 0, "allocations in 3000 updates");
}
