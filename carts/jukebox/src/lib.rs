//! `jukebox`: every wave and every effect of BT's synthesiser, one after another, with the
//! name of what plays on screen, then a short tune. Left and right step through the list, A
//! plays the current entry again, B plays the next ready-made sound ([`Preset`]) with the next
//! seed.

use bt::sound::{
    Channel, Fade, Music, MusicId, Note, NoteEffect, Preset, Sfx, SfxId, SoundError, Wave,
};
use bt::{Button, Cart, Player, Rect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "every wave and effect of the synthesiser, labelled, then a tune";

/// Ticks each entry plays before the next starts.
const ENTRY_TICKS: u64 = 30;

const WAVES: [(Wave, &str); 6] = [
    (Wave::Square { duty: 128 }, "SQUARE 50%"),
    (Wave::Square { duty: 32 }, "SQUARE 12.5%"),
    (Wave::Triangle, "TRIANGLE"),
    (Wave::Saw, "SAW"),
    (Wave::Sine, "SINE"),
    (Wave::Noise, "NOISE"),
];

const EFFECTS: [(NoteEffect, &str); 7] = [
    (NoteEffect::None, "PLAIN"),
    (NoteEffect::Slide, "SLIDE"),
    (NoteEffect::Vibrato, "VIBRATO"),
    (NoteEffect::Drop, "DROP"),
    (NoteEffect::FadeIn, "FADE IN"),
    (NoteEffect::FadeOut, "FADE OUT"),
    (NoteEffect::Arpeggio, "ARPEGGIO"),
];

/// Entries: every wave with every effect, then the tune.
const ENTRIES: usize = WAVES.len() * EFFECTS.len() + 1;

/// Seeds B goes through for each preset before starting over at seed 0.
const PRESET_SEEDS: u64 = 8;

/// How the screen names a preset, in the capitals of the rest of the page.
fn preset_label(preset: Preset) -> &'static str {
    match preset {
        Preset::Jump => "JUMP",
        Preset::Pickup => "PICKUP",
        Preset::Explosion => "EXPLOSION",
        Preset::Laser => "LASER",
        Preset::Hit => "HIT",
        Preset::Blip => "BLIP",
        _ => preset.name(),
    }
}

/// The channel B's presets play on: the tune leaves it free, so a preset cuts nothing off.
const PRESET_CHANNEL: Channel = Channel::FOUR;

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Jukebox {
    sfx: Vec<SfxId>,
    tune: Option<MusicId>,
    entry: usize,
    started: u64,
    /// Every preset with each of the seeds `0..PRESET_SEEDS`, seed by seed.
    presets: Vec<(SfxId, Preset, u64)>,
    /// How many times B was pressed; the last press played `presets[(pressed - 1) % len]`.
    pressed: usize,
}

/// A fresh `jukebox` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Jukebox::default())
}

/// The tune: a bass line, a melody with a slide and a vibrato, and a hi-hat, twice through.
fn add_tune(ctx: &mut Update<'_>) -> Result<MusicId, SoundError> {
    let tri = Wave::Triangle;
    let pulse = Wave::Square { duty: 64 };
    let bass = ctx.add_sfx(Sfx::new(
        16,
        [36, 36, 43, 43, 41, 41, 43, 38]
            .into_iter()
            .map(|p| Note::new(p, tri, 6))
            .collect(),
    ))?;
    let mut melody = Sfx::new(
        16,
        vec![
            Note::new(60, pulse, 5),
            Note::new(64, pulse, 5),
            Note::new(67, pulse, 5).with(NoteEffect::Slide),
            Note::new(72, pulse, 5).with(NoteEffect::Vibrato),
            Note::new(71, pulse, 5),
            Note::new(67, pulse, 5),
            Note::new(69, pulse, 5).with(NoteEffect::Slide),
            Note::new(67, pulse, 4).with(NoteEffect::FadeOut),
        ],
    );
    melody.attack = 2;
    melody.release = 4;
    let melody = ctx.add_sfx(melody)?;
    let mut hat = Sfx::new(8, vec![Note::new(84, Wave::Noise, 3), Note::rest()]);
    hat.release = 6;
    let hat = ctx.add_sfx(hat)?;
    let bar = [Some(bass), Some(melody), Some(hat), None];
    ctx.add_music(Music::Patterns {
        patterns: vec![bar, bar],
        loop_start: None,
    })
}

impl Jukebox {
    fn play(&mut self, ctx: &mut Update<'_>) {
        self.started = ctx.ticks();
        for channel in Channel::ALL {
            ctx.stop_channel(channel, Fade::INSTANT);
        }
        ctx.stop_music(Fade::INSTANT);
        match self.sfx.get(self.entry) {
            Some(&id) => {
                ctx.play_sfx(id, Some(Channel::ONE)).ok();
            }
            None => {
                if let Some(tune) = self.tune {
                    ctx.play_music(tune).ok();
                }
            }
        }
    }

    /// How long the current entry lasts, in ticks.
    fn length(&self) -> u64 {
        if self.entry < self.sfx.len() {
            ENTRY_TICKS
        } else {
            2 * 8 * 8 + ENTRY_TICKS
        }
    }

    fn label(&self) -> (&'static str, &'static str) {
        if self.entry >= self.sfx.len() {
            return ("MUSIC", "4 CHANNELS");
        }
        (
            WAVES[self.entry / EFFECTS.len()].1,
            EFFECTS[self.entry % EFFECTS.len()].1,
        )
    }
}

impl Cart for Jukebox {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Jukebox")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        for (wave, _) in WAVES {
            for (effect, _) in EFFECTS {
                // A plain lead-in note, then the effect: a slide has somewhere to come from.
                let mut sfx = Sfx::new(
                    24,
                    vec![Note::new(52, wave, 5), Note::new(59, wave, 6).with(effect)],
                );
                sfx.release = 4;
                self.sfx.push(ctx.add_sfx(sfx)?);
            }
        }
        self.tune = Some(add_tune(ctx)?);
        for seed in 0..PRESET_SEEDS {
            for preset in Preset::ALL {
                let id = ctx.add_sfx(Sfx::preset(preset, seed))?;
                self.presets.push((id, preset, seed));
            }
        }
        self.pressed = 0;
        self.entry = 0;
        self.play(ctx);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_pressed(Button::B, Player::ONE) && !self.presets.is_empty() {
            let (id, _, _) = self.presets[self.pressed % self.presets.len()];
            ctx.play_sfx(id, Some(PRESET_CHANNEL)).ok();
            self.pressed += 1;
        }
        let step = if ctx.is_pressed(Button::RIGHT, Player::ONE) {
            1
        } else if ctx.is_pressed(Button::LEFT, Player::ONE) {
            ENTRIES - 1
        } else if ctx.is_pressed(Button::A, Player::ONE) {
            0
        } else if ctx.ticks() >= self.started + self.length() {
            1
        } else {
            return;
        };
        self.entry = (self.entry + step) % ENTRIES;
        self.play(ctx);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let (w, _) = ctx.display_size();
        ctx.print(8, 8, "JUKEBOX", 7);
        ctx.print(
            w as i32 - 64,
            8,
            format_args!("{:>2} / {}", self.entry + 1, ENTRIES),
            6,
        );
        let (wave, effect) = self.label();
        ctx.print(8, 40, wave, 10);
        ctx.print(8, 56, effect, 12);
        // How far through the entry, as a bar.
        let length = self.length().max(1);
        let done = ctx.ticks().saturating_sub(self.started).min(length);
        let bar = (w as i32 - 16) * done as i32 / length as i32;
        ctx.draw_rect(Rect::new(8, 80, w as i32 - 16, 6), 5);
        ctx.draw_rect_fill(Rect::new(8, 80, bar, 6), 11);
        ctx.print(8, 100, "LEFT/RIGHT: STEP   A: AGAIN", 6);
        // Drawn only once B has played a preset, so the screen without input stays as it was.
        let last = self.pressed.checked_sub(1);
        if let Some(&(_, preset, seed)) =
            last.and_then(|i| self.presets.get(i % self.presets.len()))
        {
            let label = preset_label(preset);
            ctx.print(8, 116, format_args!("B: {label}  SEED {seed}"), 14);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::host::Console;

    #[test]
    fn b_plays_each_preset_in_turn_then_the_next_seed_leaving_the_entry_playing() {
        let mut con = Console::new(&Settings::default(), 0);
        let mut jukebox = Jukebox::default();
        jukebox.init(&mut con.init_context()).unwrap();
        let entry = con.update_context(0).channel_state(Channel::ONE).sfx;
        assert!(entry.is_some());
        for press in 0..Preset::ALL.len() + 1 {
            let tick = 2 * press as u64;
            con.input_mut().set_buttons(Button::B, Player::ONE, true);
            jukebox.update(&mut con.update_context(tick));
            con.input_mut().set_buttons(Button::B, Player::ONE, false);
            jukebox.update(&mut con.update_context(tick + 1));
            let (id, preset, seed) = jukebox.presets[press];
            let ctx = con.update_context(tick + 1);
            assert_eq!(
                ctx.channel_state(PRESET_CHANNEL).sfx,
                Some(id),
                "press {press}"
            );
            assert_eq!(ctx.channel_state(Channel::ONE).sfx, entry, "press {press}");
            let expected = Preset::ALL[press % Preset::ALL.len()];
            assert_eq!(preset, expected, "press {press}");
            assert_eq!(seed, (press / Preset::ALL.len()) as u64, "press {press}");
        }
        assert_eq!(jukebox.pressed, Preset::ALL.len() + 1);
    }
}
