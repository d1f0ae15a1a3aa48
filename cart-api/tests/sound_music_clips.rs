//! Music from clips: an intro then a loop, crossfades and fades on the sample clock, position
//! and seek, snapshots, and no allocation.

use bt::host::{Console, ImageLoader, RgbaImage};
use bt::sound::{Bus, ClipId, ClipOptions, DecodedClip, Fade, Frame, MusicClip, CLIP_VOICES};
use bt::{AssetError, AssetErrorKind, Settings, Update};
use bt_test_support::CountingAlloc;

mod support;
use support::run;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// Frames at the console's rate: a different jagged line for each name's first byte, so a
/// frame out of place or a sample twice shows.
fn frames(seed: u8, n: usize) -> Vec<Frame> {
    let mut x = u32::from(seed) * 7_919 + 1;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let v = ((x >> 16) % 20_000) as i16 - 10_000;
            [v, v / 2]
        })
        .collect()
}

/// Decodes every clip to [`frames`] of the name's first byte: 3,000 frames at 44.1 kHz.
struct Made;
impl ImageLoader for Made {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(path, AssetErrorKind::NotFound))
    }
    fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(name, AssetErrorKind::NotFound))
    }
    fn decode_clip(&self, name: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
        Ok(DecodedClip {
            rate: 44_100,
            frames: frames(name.as_bytes()[0], 3_000),
        })
    }
}

fn console(fps: f64) -> (Console, ClipId, ClipId) {
    let mut con = Console::new(&Settings::default().target_fps(fps), 9);
    con.set_image_loader(Box::new(Made));
    let mut ctx = con.init_context();
    let a = ctx.decode_clip("a.wav", b"a").unwrap();
    let b = ctx.decode_clip("b.wav", b"b").unwrap();
    (con, a, b)
}

/// A frame as it reaches the speaker with every bus at full: the main bus's 255/256.
fn heard(f: Frame) -> Frame {
    f.map(|s| ((i64::from(s) * 255) >> 8) as i16)
}

#[test]
fn an_intro_plays_once_then_the_frames_from_the_loop_start_repeat_exactly() {
    let (mut con, a, _) = console(60.0);
    let loop_start = 1_000;
    let out = run(&mut con, 0..12, |ctx, tick| {
        if tick == 0 {
            let options = MusicClip {
                loop_start: Some(loop_start as u64),
                ..MusicClip::default()
            };
            ctx.play_music_clip(a, options).unwrap();
        }
    });
    let source = frames(b'a', 3_000);
    let mut want: Vec<Frame> = source.clone();
    while want.len() < out.len() {
        want.extend_from_slice(&source[loop_start..]);
    }
    want.truncate(out.len());
    let want: Vec<Frame> = want.into_iter().map(heard).collect();
    assert_eq!(out.len(), 12 * 735);
    assert!(
        out == want,
        "the intro, then frames 1000..3000 again and again"
    );
    let ctx = con.update_context(12);
    let played = 12 * 735 - 3_000;
    assert_eq!(
        ctx.music_clip_position(),
        Some((a, (loop_start + played % 2_000) as u64))
    );
}

#[test]
fn a_track_without_a_loop_plays_once_and_then_has_no_position() {
    let (mut con, a, _) = console(60.0);
    let out = run(&mut con, 0..6, |ctx, tick| {
        if tick == 0 {
            ctx.play_music_clip(a, MusicClip::default()).unwrap();
        }
    });
    assert!(out[3_000..].iter().all(|f| *f == [0, 0]));
    assert_eq!(con.update_context(6).music_clip_position(), None);
}

/// Track a from the start, a crossfade to b at one second, a fade out at two: calls on ticks
/// that fall on the same sample at 30, 60 and 144 updates a second.
fn crossfade_and_fade_out(fps: f64) -> Vec<Frame> {
    let (mut con, a, b) = console(fps);
    let second = fps as u64;
    let looping = |crossfade| MusicClip {
        loop_start: Some(500),
        crossfade,
        volume: 200,
        ..MusicClip::default()
    };
    run(&mut con, 0..3 * second, |ctx, tick| {
        if tick == 0 {
            ctx.play_music_clip(a, looping(Fade::INSTANT)).unwrap();
        }
        if tick == second {
            ctx.play_music_clip(b, looping(Fade::millis(700))).unwrap();
        }
        if tick == 2 * second {
            ctx.stop_music(Fade::millis(300));
        }
    })
}

#[test]
fn a_crossfade_and_a_fade_out_are_the_same_samples_at_30_60_and_144_updates_a_second() {
    let at_60 = crossfade_and_fade_out(60.0);
    assert_eq!(at_60.len(), 3 * 44_100);
    assert!(at_60[44_100..44_200].iter().any(|f| f[0] != 0));
    assert!(crossfade_and_fade_out(30.0) == at_60);
    assert!(crossfade_and_fade_out(144.0) == at_60);
}

#[test]
fn a_crossfade_is_a_straight_line_from_the_old_track_to_the_new() {
    let (mut con, a, b) = console(60.0);
    let fade = 441; // 10 ms
    let out = run(&mut con, 0..2, |ctx, tick| {
        let options = MusicClip {
            crossfade: Fade::millis(10),
            ..MusicClip::default()
        };
        ctx.play_music_clip(if tick == 0 { a } else { b }, options)
            .unwrap();
    });
    let (fa, fb) = (frames(b'a', 3_000), frames(b'b', 3_000));
    for i in 0..fade {
        // Each in mix units (twice a sample), scaled by its place in the fade, then the main bus.
        let old = i64::from(fa[735 + i][0]) * 2 * (fade - i) as i64 / fade as i64;
        let new = i64::from(fb[i][0]) * 2 * i as i64 / fade as i64;
        assert_eq!(
            i64::from(out[735 + i][0]),
            ((old + new) * 65_280) >> 17,
            "sample {i} of the crossfade"
        );
    }
    assert_eq!(out[735 + fade], heard(fb[fade]), "then the new track alone");
}

#[test]
fn a_stop_with_a_fade_reaches_silence_at_the_sample_it_names() {
    let (mut con, a, _) = console(60.0);
    let out = run(&mut con, 0..90, |ctx, tick| {
        if tick == 0 {
            let options = MusicClip {
                loop_start: Some(0),
                ..MusicClip::default()
            };
            ctx.play_music_clip(a, options).unwrap();
        }
        if tick == 60 {
            // From sample 44,100, over 250 ms: 11,025 samples.
            ctx.stop_music(Fade::millis(250));
        }
    });
    let end = 44_100 + 11_025;
    assert_eq!(out[44_100], heard(frames(b'a', 3_000)[44_100 % 3_000]));
    assert!(out[end - 200..end].iter().any(|f| f[0] != 0));
    assert!(
        out[end - 1][0].abs() <= 1,
        "the last sample is nearly silent"
    );
    assert!(out[end..].iter().all(|f| *f == [0, 0]), "silent from {end}");
    assert_eq!(con.update_context(90).music_clip_position(), None);
}

#[test]
fn a_seek_moves_the_track_from_the_next_sample() {
    let (mut con, a, _) = console(60.0);
    let out = run(&mut con, 0..2, |ctx, tick| {
        if tick == 0 {
            ctx.play_music_clip(a, MusicClip::default()).unwrap();
        } else {
            ctx.seek_music_clip(2_500).unwrap();
            assert_eq!(ctx.music_clip_position(), Some((a, 2_500)));
            let err = ctx.seek_music_clip(3_000).unwrap_err();
            assert_eq!(
                err.to_string(),
                "music clip: seek_music_clip 3000 is past the clip's end (it has 3000 samples)"
            );
        }
    });
    let source = frames(b'a', 3_000);
    assert_eq!(out[734], heard(source[734]));
    assert_eq!(
        &out[735..1_235],
        &source[2_500..]
            .iter()
            .copied()
            .map(heard)
            .collect::<Vec<_>>()[..]
    );
    assert_eq!(out[1_235], [0, 0], "played once, to its end");
}

#[test]
fn music_plays_beside_a_full_clip_pool_on_the_music_bus() {
    let (mut con, a, b) = console(60.0);
    let out = run(&mut con, 0..1, |ctx, _| {
        for _ in 0..CLIP_VOICES {
            let options = ClipOptions {
                priority: 255,
                volume: 0,
                ..ClipOptions::default()
            };
            ctx.play_clip(b, options).unwrap();
        }
        ctx.play_music_clip(a, MusicClip::default()).unwrap();
    });
    assert_eq!(out[100], heard(frames(b'a', 3_000)[100]), "no voice taken");
    let out = run(&mut con, 1..2, |ctx, _| ctx.set_bus_muted(Bus::Music, true));
    assert!(out.iter().all(|f| *f == [0, 0]), "the music bus carries it");
}

#[test]
fn a_snapshot_restored_mid_crossfade_goes_on_identically() {
    let (mut con, a, b) = console(60.0);
    let calls = |ctx: &mut Update<'_>, tick: u64| {
        let options = MusicClip {
            loop_start: Some(100),
            crossfade: Fade::millis(500),
            volume: 180,
            ..MusicClip::default()
        };
        if tick == 0 {
            ctx.play_music_clip(a, options).unwrap();
        }
        if tick == 10 {
            ctx.play_music_clip(b, options).unwrap();
        }
        if tick == 40 {
            ctx.stop_music(Fade::millis(400));
        }
    };
    run(&mut con, 0..20, calls);
    let snapshot = con.snapshot();
    let first = run(&mut con, 20..80, calls);
    con.restore(&snapshot);
    let again = run(&mut con, 20..80, calls);
    assert!(first == again);
    assert!(first.iter().any(|f| f[0] != 0));
}

#[test]
fn steady_state_updates_with_music_clips_do_not_allocate() {
    let (mut con, a, b) = console(60.0);
    let mut sink = [[0i16; 2]; 1024];
    let n = GLOBAL.allocations_during(|| {
        for tick in 0..3000u64 {
            let mut ctx = con.update_context(tick);
            if tick % 100 == 0 {
                let options = MusicClip {
                    loop_start: Some(10),
                    crossfade: Fade::millis(300),
                    ..MusicClip::default()
                };
                let clip = if tick % 200 == 0 { a } else { b };
                ctx.play_music_clip(clip, options).unwrap();
            }
            if tick % 100 == 50 {
                ctx.seek_music_clip(5).unwrap();
            }
            if tick % 1000 == 999 {
                ctx.stop_music(Fade::millis(100));
            }
            let _ = ctx.music_clip_position();
            con.step_sound();
            for (slot, f) in sink.iter_mut().zip(con.drain_frames()) {
                *slot = f;
            }
        }
    });
    assert_eq!(n, 0, "allocations in 3000 updates");
}
