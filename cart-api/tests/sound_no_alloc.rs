//! The synthesiser makes its samples without allocating once its buffer exists.

use bt::host::Console;
use bt::sound::{Fade, Music, Note, NoteEffect, Sfx, Wave};
use bt::{Easing, Settings};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

#[test]
fn steady_state_updates_with_sound_patterns_and_sequences_do_not_allocate() {
    assert_eq!(
        GLOBAL.allocations_during(|| drop(Vec::<u8>::with_capacity(8))),
        1
    );
    let mut con = Console::new(&Settings::default(), 3);
    let mut ctx = con.init_context();
    let notes = vec![
        Note::new(50, Wave::Noise, 6).with(NoteEffect::Drop),
        Note::new(55, Wave::Saw, 6).with(NoteEffect::Vibrato),
        Note::new(60, Wave::Sine, 6).with(NoteEffect::Arpeggio),
    ];
    let sfx = ctx.add_sfx(Sfx::new(5, notes)).unwrap();
    let music = ctx
        .add_music(Music::Patterns {
            patterns: vec![[Some(sfx), Some(sfx), None, None]],
            loop_start: Some(0),
        })
        .unwrap();
    let sequences = ctx
        .add_music(Music::sequences(
            [vec![sfx, sfx], vec![], vec![sfx], vec![]],
            true,
        ))
        .unwrap();
    let mut sink = vec![0i16; 1024];
    let n = GLOBAL.allocations_during(|| {
        for tick in 0..5000u64 {
            let mut ctx = con.update_context(tick);
            if tick % 100 == 0 {
                ctx.play_music(if tick % 200 == 0 { music } else { sequences })
                    .unwrap();
            }
            // A busy channel may refuse one; what plays is changed and faded through its
            // handle.
            if tick % 7 == 0 {
                if let Ok(voice) = ctx.play_sfx(sfx, None) {
                    ctx.set_voice_pitch(voice, 1.5);
                    ctx.set_voice_volume(voice, 200);
                    ctx.set_voice_pan(voice, -40);
                    ctx.stop_voice(voice, Fade::millis(80).eased(Easing::QuadOut));
                }
            }
            con.step_sound();
            for (slot, s) in sink.iter_mut().zip(con.drain_samples()) {
                *slot = s;
            }
        }
    });
    assert_eq!(n, 0, "allocations in 5000 updates");
}
