//! What the synthesiser costs per update: 735 stereo frames (44,100 Hz at 60 updates a second),
//! with no channel playing, with all four playing notes with effects, and with the eight clip
//! voices all playing, pitched and panned.

use std::hint::black_box;

use bt::host::{Console, ImageLoader, RgbaImage};
use bt::sound::{ClipOptions, DecodedClip, Music, Note, NoteEffect, Sfx, Wave, CLIP_VOICES};
use bt::{AssetError, AssetErrorKind, Settings};
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let mut silent = Console::new(&Settings::default(), 1);
    c.bench_function("sound update, silent", |b| {
        b.iter(|| {
            silent.step_sound();
            black_box(silent.drain_frames().len())
        })
    });

    let mut con = Console::new(&Settings::default(), 1);
    let mut ctx = con.init_context();
    let notes = |wave, effect| {
        let mut sfx = Sfx::new(
            7,
            (0..8)
                .map(|i| Note::new(40 + i * 3, wave, 6).with(effect))
                .collect(),
        );
        sfx.loop_start = Some(0);
        sfx
    };
    let a = ctx
        .add_sfx(notes(Wave::Square { duty: 64 }, NoteEffect::Vibrato))
        .unwrap();
    let b = ctx
        .add_sfx(notes(Wave::Triangle, NoteEffect::Slide))
        .unwrap();
    let s = ctx
        .add_sfx(notes(Wave::Sine, NoteEffect::Arpeggio))
        .unwrap();
    let n = ctx.add_sfx(notes(Wave::Noise, NoteEffect::Drop)).unwrap();
    let tune = ctx
        .add_music(Music::Patterns {
            patterns: vec![[Some(a), Some(b), Some(s), Some(n)]],
            loop_start: Some(0),
        })
        .unwrap();
    ctx.play_music(tune).unwrap();
    c.bench_function("sound update, 4 channels with effects", |bench| {
        bench.iter(|| {
            con.step_sound();
            black_box(con.drain_frames().len())
        })
    });

    let mut con = Console::new(&Settings::default(), 1);
    con.set_image_loader(Box::new(Ramp));
    let mut ctx = con.init_context();
    let clip = ctx.decode_clip("ramp", b"").unwrap();
    for v in 0..CLIP_VOICES {
        let options = ClipOptions {
            looping: true,
            pitch: 0.5 + v as f32 * 0.37,
            pan: (v as i8 - 4) * 30,
            volume: 60,
            ..ClipOptions::default()
        };
        ctx.play_clip(clip, options).unwrap();
    }
    c.bench_function("sound update, 8 clips pitched and panned", |bench| {
        bench.iter(|| {
            con.step_sound();
            black_box(con.drain_frames().len())
        })
    });
}

/// A loader whose every clip is a second of a stereo ramp at 22,050 Hz.
struct Ramp;

impl ImageLoader for Ramp {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(path, AssetErrorKind::NotFound))
    }
    fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
        Err(AssetError::new(name, AssetErrorKind::NotFound))
    }
    fn decode_clip(&self, _: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
        let frames = (0..22_050)
            .map(|i| [(i % 2000) as i16 * 8, -((i % 1500) as i16) * 8])
            .collect();
        Ok(DecodedClip {
            rate: 22_050,
            frames,
        })
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
