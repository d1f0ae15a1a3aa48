//! `tone`: one second of A4 (440 Hz) on a square wave, for the test that listens to `bt run`
//! through a real sound device. Hidden from `bt list`.
//!
//! The note starts at [`START_TICK`] (half a second in, once a device has settled) and lasts
//! one second ([`LENGTH_UNITS`] 120ths of a second); the screen says whether it is playing.

use bt::sound::{Channel, Note, Sfx, SfxId, Wave};
use bt::{Cart, Render, Settings, Update};

/// What `tone` is for.
pub const DESCRIPTION: &str = "one second of 440 Hz from tick 30, for the sound device test";
/// The update the note starts at.
pub const START_TICK: u64 = 30;
/// How long it lasts in sound's 120ths of a second: one second.
pub const LENGTH_UNITS: u16 = 120;
/// A4, 440 Hz: pitch 57 counts semitones up from C0.
pub const A4: u8 = 57;

/// The note, once defined.
#[derive(Debug, Clone, Default)]
pub struct Tone {
    sfx: Option<SfxId>,
    playing: bool,
}

/// A fresh `tone` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Tone::default())
}

impl Cart for Tone {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default()
            .display(96, 32)
            .target_fps(60.0)
            .title("tone")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        let note = Note::new(A4, Wave::Square { duty: 128 }, 7);
        self.sfx = Some(ctx.add_sfx(Sfx::new(LENGTH_UNITS, vec![note]))?);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if let (START_TICK, Some(sfx)) = (ctx.ticks(), self.sfx) {
            ctx.play_sfx(sfx, Some(Channel::ONE)).ok();
        }
        self.playing = ctx.channel_state(Channel::ONE).sfx.is_some();
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let text = if self.playing { "A4 440 Hz" } else { "silence" };
        ctx.print(4, 10, text, 7);
    }
}
