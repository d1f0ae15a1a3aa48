//! Ready-made sound effects: a jump, a pickup, an explosion, a laser, a hit and a blip, each
//! made from a seed so one line gives a game a sound, and another seed gives it another take on
//! the same sound.

use super::{Note, NoteEffect, Sfx, Wave};
use crate::Rng;

/// A kind of ready-made sound effect, for [`Sfx::preset`].
///
/// Every kind has a shape that every seed keeps (a jump always rises, an explosion always
/// falls and fades); the seed picks the pitch, the length and the details of the wave within
/// that shape.
///
/// ```
/// use bt::sound::{Preset, Sfx};
///
/// assert_eq!(Preset::ALL.len(), 6);
/// assert_eq!(Preset::Explosion.name(), "explosion");
/// assert_eq!("laser".parse(), Ok(Preset::Laser));
/// assert_eq!(Sfx::preset(Preset::Jump, 3), Sfx::preset(Preset::Jump, 3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// A square wave sweeping up: a character leaving the ground.
    Jump,
    /// Two quick notes, the second higher: a coin or a power-up collected.
    Pickup,
    /// Noise falling in pitch and in volume: something blowing up.
    Explosion,
    /// A bright saw or square wave sweeping down fast: a shot.
    Laser,
    /// A short burst of noise: a blow landing.
    Hit,
    /// One short square note: a menu cursor moving.
    Blip,
}

impl Preset {
    /// Every preset, in the order listed above.
    pub const ALL: [Preset; 6] = [
        Preset::Jump,
        Preset::Pickup,
        Preset::Explosion,
        Preset::Laser,
        Preset::Hit,
        Preset::Blip,
    ];

    /// The preset's name in lower case, as `FromStr` reads it: `"jump"`, `"pickup"`, …
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Jump => "jump",
            Preset::Pickup => "pickup",
            Preset::Explosion => "explosion",
            Preset::Laser => "laser",
            Preset::Hit => "hit",
            Preset::Blip => "blip",
        }
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that is none of [`Preset::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sound preset {0:?}: expected jump, pickup, explosion, laser, hit or blip")]
pub struct UnknownPreset(
    /// The name as given.
    pub String,
);

impl std::str::FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownPreset(s.to_owned()))
    }
}

/// The duties a preset's square wave picks from: 50%, 25% and 12.5%, the chip sounds a cart
/// author expects.
const DUTIES: [u8; 3] = [128, 64, 32];

/// An integer in `min..=max` from `rng`, for the small ranges below.
fn between(rng: &mut Rng, min: u8, max: u8) -> u8 {
    min + rng.int(u32::from(max - min) + 1) as u8
}

fn square(rng: &mut Rng) -> Wave {
    Wave::Square {
        duty: DUTIES[rng.int(DUTIES.len() as u32) as usize],
    }
}

/// `steps` notes from `from` to `to` (both included, `steps` at least 2), evenly spaced in
/// pitch, every one after the first gliding from the one before.
fn sweep(wave: Wave, from: u8, to: u8, steps: u8, volume: u8) -> Vec<Note> {
    let span = i32::from(to) - i32::from(from);
    let last = i32::from(steps) - 1;
    (0..=last)
        .map(|i| {
            let pitch = (i32::from(from) + span * i / last) as u8;
            let note = Note::new(pitch, wave, volume);
            if i == 0 {
                note
            } else {
                note.with(NoteEffect::Slide)
            }
        })
        .collect()
}

impl Sfx {
    /// A ready-made sound effect of kind `preset`, made from `seed` with BT's own generator:
    /// the same seed gives the same sound effect on every machine, and other seeds give other
    /// pitches, lengths and waves of the same kind.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::sound::{Preset, Sfx};
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut ctx = con.update_context(0);
    /// let coin = ctx.add_sfx(Sfx::preset(Preset::Pickup, 42))?;
    /// ctx.play_sfx(coin, None);
    /// # Ok::<(), bt::sound::SoundError>(())
    /// ```
    pub fn preset(preset: Preset, seed: u64) -> Sfx {
        let mut rng = Rng::new(seed);
        let rng = &mut rng;
        match preset {
            Preset::Jump => {
                let wave = square(rng);
                let from = between(rng, 36, 50);
                let to = from + between(rng, 7, 14);
                let steps = between(rng, 4, 6);
                let mut notes = sweep(wave, from, to, steps, 6);
                notes.push(Note::new(to, wave, 5).with(NoteEffect::FadeOut));
                Sfx::new(u16::from(between(rng, 2, 3)), notes)
            }
            Preset::Pickup => {
                let wave = square(rng);
                let low = between(rng, 60, 74);
                let high = low + [4, 5, 7, 12][rng.int(4) as usize];
                let notes = vec![
                    Note::new(low, wave, 6),
                    Note::new(high, wave, 6).with(NoteEffect::FadeOut),
                ];
                Sfx::new(u16::from(between(rng, 5, 8)), notes)
            }
            Preset::Explosion => {
                let steps = between(rng, 5, 8);
                let fall = between(rng, 2, 4);
                let top = between(rng, 36, 48);
                let notes = (0..steps)
                    .map(|i| {
                        let pitch = top - i * fall;
                        // From full volume down to 1 over the notes; the last fades to nothing.
                        let volume = 7 - 6 * i / (steps - 1);
                        let note = Note::new(pitch, Wave::Noise, volume);
                        if i + 1 == steps {
                            note.with(NoteEffect::FadeOut)
                        } else {
                            note.with(NoteEffect::Slide)
                        }
                    })
                    .collect();
                Sfx::new(u16::from(between(rng, 5, 8)), notes)
            }
            Preset::Laser => {
                let wave = if rng.bool() { Wave::Saw } else { square(rng) };
                let from = between(rng, 72, 88);
                let to = from - between(rng, 12, 24);
                let steps = between(rng, 4, 6);
                let mut notes = sweep(wave, from, to, steps, 6);
                if let Some(last) = notes.last_mut() {
                    last.effect = NoteEffect::FadeOut;
                }
                Sfx::new(u16::from(between(rng, 1, 2)), notes)
            }
            Preset::Hit => {
                let top = between(rng, 44, 60);
                let notes = vec![
                    Note::new(top, Wave::Noise, 7),
                    Note::new(top - between(rng, 2, 8), Wave::Noise, 6).with(NoteEffect::FadeOut),
                ];
                Sfx::new(u16::from(between(rng, 2, 4)), notes)
            }
            Preset::Blip => {
                let wave = square(rng);
                let pitch = between(rng, 60, 84);
                let speed = between(rng, 3, 6);
                let mut sfx = Sfx::new(u16::from(speed), vec![Note::new(pitch, wave, 5)]);
                // A short tail so the note ends without a click.
                sfx.release = 1;
                sfx
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Console;
    use crate::sound::Channel;
    use crate::Settings;
    use std::collections::HashSet;

    const SEEDS: std::ops::Range<u64> = 0..200;

    fn all_of(preset: Preset) -> impl Iterator<Item = Sfx> {
        SEEDS.map(move |seed| Sfx::preset(preset, seed))
    }

    /// The samples of `sfx` played alone on channel one, from its start until it is silent.
    fn samples(sfx: &Sfx) -> Vec<i16> {
        let mut con = Console::new(&Settings::default(), 5);
        let id = con.init_context().add_sfx(sfx.clone()).unwrap();
        con.update_context(0)
            .play_sfx(id, Some(Channel::ONE))
            .unwrap();
        let mut out = Vec::new();
        // Every preset is shorter than a second (60 updates).
        for _ in 0..60 {
            con.step_sound();
            out.extend(con.drain_samples());
        }
        out
    }

    fn is_square(wave: Wave) -> bool {
        matches!(wave, Wave::Square { .. })
    }

    fn pitches(sfx: &Sfx) -> Vec<u8> {
        sfx.notes.iter().map(|n| n.pitch).collect()
    }

    /// Times the samples cross zero upwards in `part`: more crossings, higher pitch.
    fn rising_crossings(part: &[i16]) -> usize {
        part.windows(2).filter(|w| w[0] <= 0 && w[1] > 0).count()
    }

    fn peak(part: &[i16]) -> i32 {
        part.iter().map(|&s| i32::from(s).abs()).max().unwrap_or(0)
    }

    /// The samples from the first to the last audible one.
    fn audible(samples: &[i16]) -> &[i16] {
        let start = samples.iter().position(|&s| s != 0).unwrap_or(0);
        let end = samples
            .iter()
            .rposition(|&s| s != 0)
            .map_or(start, |e| e + 1);
        &samples[start..end]
    }

    #[test]
    fn every_preset_and_seed_makes_a_valid_sound_shorter_than_a_second() {
        for preset in Preset::ALL {
            for sfx in all_of(preset) {
                assert_eq!(sfx.validate(), Ok(()), "{preset}: {sfx:?}");
                assert!(sfx.length_units() < 120, "{preset}: {sfx:?}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_sound_and_the_same_samples() {
        for preset in Preset::ALL {
            let a = Sfx::preset(preset, 1234);
            let b = Sfx::preset(preset, 1234);
            assert_eq!(a, b, "{preset}");
            let heard = samples(&a);
            assert_eq!(heard, samples(&b), "{preset}");
            assert!(peak(&heard) > 1000, "{preset} makes sound");
        }
    }

    #[test]
    fn different_seeds_give_different_sounds_of_each_kind() {
        for preset in Preset::ALL {
            let distinct: HashSet<Sfx> = (0..20).map(|seed| Sfx::preset(preset, seed)).collect();
            assert!(distinct.len() >= 15, "{preset}: {} of 20", distinct.len());
            assert_ne!(
                samples(&Sfx::preset(preset, 1)),
                samples(&Sfx::preset(preset, 2)),
                "{preset}"
            );
        }
    }

    #[test]
    fn a_jump_is_a_square_wave_whose_pitch_rises() {
        for sfx in all_of(Preset::Jump) {
            assert!(sfx.notes.iter().all(|n| is_square(n.wave)), "{sfx:?}");
            let p = pitches(&sfx);
            assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
            assert!(p[p.len() - 1] >= p[0] + 7, "{p:?}");
        }
        for seed in 0..8 {
            let heard = samples(&Sfx::preset(Preset::Jump, seed));
            let sound = audible(&heard);
            let third = sound.len() / 3;
            assert!(
                rising_crossings(&sound[2 * third..]) > rising_crossings(&sound[..third]),
                "seed {seed}: the end is higher than the start"
            );
        }
    }

    #[test]
    fn a_pickup_is_two_quick_notes_the_second_higher() {
        for sfx in all_of(Preset::Pickup) {
            assert_eq!(sfx.notes.len(), 2, "{sfx:?}");
            assert!(sfx.notes[1].pitch > sfx.notes[0].pitch, "{sfx:?}");
            assert!(sfx.length_units() <= 16, "{sfx:?}: quick");
        }
    }

    #[test]
    fn an_explosion_is_noise_falling_in_pitch_and_volume() {
        for sfx in all_of(Preset::Explosion) {
            assert!(sfx.notes.iter().all(|n| n.wave == Wave::Noise), "{sfx:?}");
            let p = pitches(&sfx);
            assert!(p.windows(2).all(|w| w[0] > w[1]), "{p:?}");
            let v: Vec<u8> = sfx.notes.iter().map(|n| n.volume).collect();
            assert!(v.windows(2).all(|w| w[0] >= w[1]), "{v:?}");
            assert!(v[v.len() - 1] < v[0], "{v:?}");
            assert_eq!(sfx.notes[sfx.notes.len() - 1].effect, NoteEffect::FadeOut);
        }
        for seed in 0..8 {
            let heard = samples(&Sfx::preset(Preset::Explosion, seed));
            let sound = audible(&heard);
            let quarter = sound.len() / 4;
            assert!(
                peak(&sound[3 * quarter..]) * 2 < peak(&sound[..quarter]),
                "seed {seed}: the end is quieter than the start"
            );
        }
    }

    #[test]
    fn a_laser_is_a_saw_or_square_sweeping_down_fast() {
        for sfx in all_of(Preset::Laser) {
            let wave = sfx.notes[0].wave;
            assert!(wave == Wave::Saw || is_square(wave), "{sfx:?}");
            assert!(sfx.notes.iter().all(|n| n.wave == wave), "{sfx:?}");
            let p = pitches(&sfx);
            assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?}");
            assert!(p[0] >= p[p.len() - 1] + 12, "{p:?}");
            assert!(sfx.length_units() <= 12, "{sfx:?}: fast");
        }
        for seed in 0..8 {
            let heard = samples(&Sfx::preset(Preset::Laser, seed));
            let sound = audible(&heard);
            let third = sound.len() / 3;
            assert!(
                rising_crossings(&sound[..third]) > rising_crossings(&sound[2 * third..]),
                "seed {seed}: the start is higher than the end"
            );
        }
    }

    #[test]
    fn a_hit_is_a_short_burst_of_noise() {
        for sfx in all_of(Preset::Hit) {
            assert!(sfx.notes.iter().all(|n| n.wave == Wave::Noise), "{sfx:?}");
            assert!(sfx.length_units() <= 8, "{sfx:?}: short");
            assert_eq!(sfx.notes[sfx.notes.len() - 1].effect, NoteEffect::FadeOut);
        }
    }

    #[test]
    fn a_blip_is_one_short_square_note() {
        for sfx in all_of(Preset::Blip) {
            assert_eq!(sfx.notes.len(), 1, "{sfx:?}");
            assert!(is_square(sfx.notes[0].wave), "{sfx:?}");
            assert!(sfx.length_units() <= 6, "{sfx:?}: short");
        }
    }

    #[test]
    fn a_preset_reads_back_from_its_name_and_an_unknown_name_is_refused() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse(), Ok(preset));
        }
        let err = "boom".parse::<Preset>().unwrap_err();
        assert!(err.to_string().contains("\"boom\""), "{err}");
    }
}
