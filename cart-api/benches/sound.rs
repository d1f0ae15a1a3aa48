//! What the synthesiser costs per update: 735 samples (44,100 Hz at 60 updates a second), with
//! no channel playing and with all four playing notes with effects.

use std::hint::black_box;

use bt::host::Console;
use bt::sound::{Effect, Music, Note, Sfx, Wave};
use bt::Settings;
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let mut silent = Console::new(&Settings::default(), 1);
    c.bench_function("sound update, silent", |b| {
        b.iter(|| {
            silent.step_sound();
            black_box(silent.drain_samples().len())
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
        .add_sfx(notes(Wave::Square { duty: 64 }, Effect::Vibrato))
        .unwrap();
    let b = ctx.add_sfx(notes(Wave::Triangle, Effect::Slide)).unwrap();
    let s = ctx.add_sfx(notes(Wave::Sine, Effect::Arpeggio)).unwrap();
    let n = ctx.add_sfx(notes(Wave::Noise, Effect::Drop)).unwrap();
    let tune = ctx
        .add_music(Music::Patterns {
            patterns: vec![[Some(a), Some(b), Some(s), Some(n)]],
            loop_start: Some(0),
        })
        .unwrap();
    ctx.play_music(tune);
    c.bench_function("sound update, 4 channels with effects", |bench| {
        bench.iter(|| {
            con.step_sound();
            black_box(con.drain_samples().len())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
