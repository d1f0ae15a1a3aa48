//! Sound buses: where every voice's sound goes on its way to the speaker, each with a volume
//! that can fade, a mute, and the music bus's ducking under sound effects.
//!
//! The synthesiser's channels the tune holds feed [`Bus::Music`]; its other channels, and
//! clips unless their [`ClipOptions::bus`](super::ClipOptions::bus) says otherwise, feed
//! [`Bus::Sfx`]; both feed [`Bus::Main`], whose volume is the master volume.
//!
//! A bus's level lives in the sample clock like everything else in the synthesiser: a fade
//! keeps the sample it started at and its length in samples, and each sample's level is worked
//! out from that sample's index alone (the easing through [`bt::math`](crate::math), whose
//! bits are the same everywhere). Ducking moves one sample at a time by a fixed step. So the
//! samples are the same whatever the update rate and after a snapshot is restored, and the
//! state is a few plain numbers a snapshot copies.

use std::time::Duration;

use crate::Easing;

/// A bus: a group of voices with one volume, mute and fade. The synthesiser's channels the
/// tune holds feed [`Bus::Music`]; its other channels, and clips unless their
/// [`ClipOptions::bus`](super::ClipOptions::bus) says otherwise, feed [`Bus::Sfx`]; both feed
/// [`Bus::Main`], whose volume is the master volume. See
/// [`Update::fade_bus`](crate::Update::fade_bus) and its neighbours for the calls.
///
/// ```
/// use bt::sound::Bus;
///
/// assert_eq!(Bus::ALL, [Bus::Main, Bus::Music, Bus::Sfx]);
/// assert_eq!(Bus::Music.index(), 1);
/// assert_eq!(Bus::Sfx.name(), "sfx");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Bus {
    /// Everything: the music and sfx buses, and clips sent here directly. Its volume is the
    /// master volume (`set_bus_volume(Bus::Main, v)`).
    Main,
    /// The synthesiser's channels while the tune holds them.
    Music,
    /// The synthesiser's channels playing a sound effect, and clips (the default).
    #[default]
    Sfx,
}

/// Buses there are.
pub const BUSES: usize = 3;

impl Bus {
    /// Every bus, in the order of [`Bus::index`].
    pub const ALL: [Bus; BUSES] = [Bus::Main, Bus::Music, Bus::Sfx];

    /// The bus's place in [`Bus::ALL`] (and in [`SoundMeter::buses`](super::SoundMeter::buses)).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The bus's name in lower case: `"main"`, `"music"`, `"sfx"`.
    pub const fn name(self) -> &'static str {
        match self {
            Bus::Main => "main",
            Bus::Music => "music",
            Bus::Sfx => "sfx",
        }
    }
}

/// How the music bus makes room for sound effects: while any voice on the sfx bus plays, the
/// music bus is lowered by `amount`, reaching it over `attack`, and rises back over `release`
/// once the last one ends. Set with [`Update::set_ducking`](crate::Update::set_ducking).
///
/// ```
/// use std::time::Duration;
/// use bt::sound::Ducking;
///
/// let duck = Ducking { amount: 128, ..Ducking::default() };
/// assert_eq!(duck.attack, Duration::from_millis(50));
/// assert_eq!(duck.release, Duration::from_millis(300));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ducking {
    /// How much lower, out of 255: 255 silences the music, 128 halves it, 0 leaves it (the
    /// music bus's gain is multiplied by `(255 - amount) / 255` once fully down).
    pub amount: u8,
    /// From full to fully lowered (50 ms unless told); zero lowers it at once.
    pub attack: Duration,
    /// From fully lowered back to full (300 ms unless told); zero raises it at once.
    pub release: Duration,
}

impl Default for Ducking {
    fn default() -> Ducking {
        Ducking {
            amount: 128,
            attack: Duration::from_millis(50),
            release: Duration::from_millis(300),
        }
    }
}

/// A bus level in 256ths of a volume step: volume 255 is `255 × 256`. Fades move through the
/// steps between whole volumes, so a slow fade makes no audible stairs.
const LEVEL_SHIFT: u32 = 8;
/// The top level: volume 255.
const MAX_LEVEL: u32 = 255 << LEVEL_SHIFT;
/// Unity gain, in the 16.16 fixed point gains are applied in.
const UNITY: i64 = 1 << 16;
/// Ducking progress from none to full, in 32.32 fixed point: fine enough that a release of a
/// minute still moves every sample.
const DUCK_FULL: u64 = 1 << 32;

/// One bus's state: a fade from `from` to `to` over `len` samples from `start` (none once
/// `len` is 0 or it is over), and its mute.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BusState {
    from: u32,
    to: u32,
    start: u64,
    len: u64,
    easing: Easing,
    muted: bool,
}

impl Default for BusState {
    fn default() -> BusState {
        BusState {
            from: MAX_LEVEL,
            to: MAX_LEVEL,
            start: 0,
            len: 0,
            easing: Easing::Linear,
            muted: false,
        }
    }
}

impl BusState {
    /// The level at sample `at`, mute not counted: the fade's, worked out from `at` alone.
    /// A curve that overshoots (`Back`, `Elastic`) is held within silence and volume 255.
    fn level(&self, at: u64) -> u32 {
        let done = at.saturating_sub(self.start);
        if done >= self.len {
            return self.to;
        }
        let t = done as f64 / self.len as f64;
        let (from, to) = (f64::from(self.from), f64::from(self.to));
        let level = from + (to - from) * self.easing.apply(t);
        level.round().clamp(0.0, f64::from(MAX_LEVEL)) as u32
    }
}

/// The ducker: its setting in samples, and how far down the music is.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Ducker {
    /// Whether sound effects lower the music; after [`Buses::reset_ducking`] a ducked music
    /// bus still rises back over the release.
    on: bool,
    amount: u8,
    /// What progress gains and loses a sample, out of [`DUCK_FULL`].
    up: u64,
    down: u64,
    /// Progress: 0 not lowered, [`DUCK_FULL`] lowered by `amount`.
    pos: u64,
}

impl Ducker {
    /// Moves one sample on, towards full while sound effects sound; the music bus's gain
    /// factor for that sample, 16.16.
    fn advance(&mut self, sounding: bool) -> i64 {
        if sounding && self.on {
            self.pos = (self.pos + self.up).min(DUCK_FULL);
        } else {
            self.pos = self.pos.saturating_sub(self.down);
        }
        self.gain()
    }

    fn gain(&self) -> i64 {
        if self.pos == 0 {
            return UNITY;
        }
        // amount / 255 of the way down at full progress.
        let cut = i128::from(self.amount) * i128::from(self.pos) * i128::from(UNITY)
            / (255 * i128::from(DUCK_FULL));
        UNITY - cut as i64
    }
}

/// The step a ramp of `samples` samples moves by each sample, so that it is done within them.
fn ramp_step(samples: u64) -> u64 {
    DUCK_FULL.div_ceil(samples.max(1))
}

/// The three buses and the ducker: plain numbers, copied into every snapshot.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Buses {
    buses: [BusState; BUSES],
    duck: Ducker,
}

/// A bus's level as a 16.16 gain: the music and sfx buses at volume 255 pass their sound
/// exactly (gain 1), and the main bus keeps the master volume's scale, 255 of 256.
fn gain(bus: usize, level: u32) -> i64 {
    if bus == Bus::Main.index() {
        i64::from(level)
    } else if level == MAX_LEVEL {
        UNITY
    } else {
        (i64::from(level) * UNITY + i64::from(MAX_LEVEL / 2)) / i64::from(MAX_LEVEL)
    }
}

/// `mix` scaled by a 16.16 gain, untouched at unity.
fn scaled(mix: [i64; 2], gain: i64) -> [i64; 2] {
    if gain == UNITY {
        mix
    } else {
        mix.map(|side| (side * gain) >> 16)
    }
}

impl Buses {
    /// Sets `bus`'s volume at once, ending any fade.
    pub(crate) fn set_volume(&mut self, bus: Bus, volume: u8) {
        let b = &mut self.buses[bus.index()];
        let level = u32::from(volume) << LEVEL_SHIFT;
        (b.from, b.to, b.len) = (level, level, 0);
    }

    /// Starts a fade of `bus` from its level at sample `now` to `volume` over `len` samples.
    pub(crate) fn fade(&mut self, bus: Bus, volume: u8, now: u64, len: u64, easing: Easing) {
        let b = &mut self.buses[bus.index()];
        b.from = b.level(now);
        b.to = u32::from(volume) << LEVEL_SHIFT;
        (b.start, b.len, b.easing) = (now, len, easing);
    }

    /// `bus`'s volume at sample `now`, where its fade has got to (rounded to the nearest).
    pub(crate) fn volume(&self, bus: Bus, now: u64) -> u8 {
        let level = self.buses[bus.index()].level(now);
        ((level + (1 << (LEVEL_SHIFT - 1))) >> LEVEL_SHIFT).min(255) as u8
    }

    pub(crate) fn set_muted(&mut self, bus: Bus, muted: bool) {
        self.buses[bus.index()].muted = muted;
    }

    pub(crate) fn is_muted(&self, bus: Bus) -> bool {
        self.buses[bus.index()].muted
    }

    /// Sets the ducking, with its times already in samples.
    pub(crate) fn set_ducking(&mut self, amount: u8, attack: u64, release: u64) {
        self.duck.on = true;
        self.duck.amount = amount;
        self.duck.up = ramp_step(attack);
        self.duck.down = ramp_step(release);
    }

    /// Sound effects no longer lower the music; a lowered music bus rises back over the
    /// release.
    pub(crate) fn reset_ducking(&mut self) {
        self.duck.on = false;
    }

    /// The 16.16 gains of the buses at sample `at`, mute counted, the music's ducking not.
    fn gains(&self, at: u64) -> [i64; BUSES] {
        let mut gains = [0; BUSES];
        for (i, (g, b)) in gains.iter_mut().zip(&self.buses).enumerate() {
            if !b.muted {
                *g = gain(i, b.level(at));
            }
        }
        gains
    }

    /// The gains, music ducking counted, that hold for every sample from `now` to `now + n`
    /// when nothing moves in them: no fade runs and the ducker is at rest and stays there
    /// (`sfx_sounding` is whether a voice on the sfx bus plays at `now`; none starts inside a
    /// run of samples). `None` when something moves: then [`Buses::mix`] each sample.
    pub(crate) fn steady(&self, now: u64, sfx_sounding: bool) -> Option<[i64; BUSES]> {
        let fading = self
            .buses
            .iter()
            .any(|b| now < b.start.saturating_add(b.len));
        let ducking = self.duck.pos != 0 || self.duck.on && sfx_sounding;
        (!fading && !ducking).then(|| self.gains(now))
    }

    /// Mixes one sample through `gains` (music ducking counted): the music and sfx buses
    /// through theirs into the main bus, and that through its own. Mix units are twice a
    /// sample's and the main gain is out of 65,536, hence the shift by 17.
    pub(crate) fn mix_steady(gains: [i64; BUSES], mix: [[i64; 2]; BUSES]) -> [i64; 2] {
        let [main, music, sfx] = gains;
        let music = scaled(mix[Bus::Music.index()], music);
        let sfx = scaled(mix[Bus::Sfx.index()], sfx);
        let direct = mix[Bus::Main.index()];
        [0, 1].map(|s| ((music[s] + sfx[s] + direct[s]) * main) >> 17)
    }

    /// Mixes one sample at `at`, with the gains of that sample: `mix` holds each bus's sound
    /// by [`Bus::index`] (the main entry what was sent to the main bus directly).
    /// `sfx_sounding` moves the ducker on a sample. The result is in sample units, not yet
    /// clamped.
    pub(crate) fn mix(&mut self, at: u64, mix: [[i64; 2]; BUSES], sfx_sounding: bool) -> [i64; 2] {
        let [main, music, sfx] = self.gains(at);
        let duck = self.duck.advance(sfx_sounding);
        let music = if duck == UNITY {
            music
        } else {
            (music * duck) >> 16
        };
        Buses::mix_steady([main, music, sfx], mix)
    }

    /// The 16.16 gain a voice on `bus` has at sample `at`, its bus and the main bus counted,
    /// with the music's ducking as it stands: for the meter.
    pub(crate) fn through(&self, bus: Bus, at: u64) -> i64 {
        let gains = self.gains(at);
        let own = match bus {
            Bus::Main => UNITY,
            Bus::Music => (gains[1] * self.duck.gain()) >> 16,
            Bus::Sfx => gains[2],
        };
        (own * gains[0]) >> 16
    }

    /// Each bus's level at sample `at` as a volume, 0 to 255, mute and ducking counted: what
    /// a meter shows.
    pub(crate) fn meter(&self, at: u64) -> [u8; BUSES] {
        let gains = self.gains(at);
        let music = (gains[1] * self.duck.gain()) >> 16;
        let volume = |g: i64| ((g * 255 + UNITY / 2) >> 16).clamp(0, 255) as u8;
        [
            volume(gains[0] * 65_536 / i64::from(MAX_LEVEL)),
            volume(music),
            volume(gains[2]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fade_starts_where_the_level_is_and_ends_exactly_on_its_target() {
        let mut b = Buses::default();
        b.fade(Bus::Music, 0, 100, 1000, Easing::QuadIn);
        assert_eq!(b.volume(Bus::Music, 100), 255);
        assert_eq!(
            b.volume(Bus::Music, 600),
            191,
            "a quarter of the way down at half time"
        );
        assert_eq!(b.volume(Bus::Music, 1100), 0);
        b.fade(Bus::Music, 200, 2000, 0, Easing::Linear);
        assert_eq!(b.volume(Bus::Music, 2000), 200, "a fade of no length jumps");
    }

    #[test]
    fn an_overshooting_curve_stays_between_silence_and_full() {
        let mut b = Buses::default();
        b.set_volume(Bus::Sfx, 250);
        b.fade(Bus::Sfx, 0, 0, 1000, Easing::BackIn);
        b.fade(Bus::Main, 255, 0, 1000, Easing::ElasticOut);
        for at in 0..1000 {
            assert!(b.buses[2].level(at) <= MAX_LEVEL);
            assert!(b.buses[0].level(at) <= MAX_LEVEL);
        }
    }

    #[test]
    fn full_music_and_sfx_buses_pass_their_sound_exactly_and_main_keeps_the_master_scale() {
        let mut b = Buses::default();
        let mix = [[0, 0], [1000, -1000], [500, 7]];
        assert_eq!(
            b.mix(0, mix, false),
            [(1500 * 255 * 256) >> 17, -(993 * 255) >> 9]
        );
        b.set_volume(Bus::Main, 100);
        assert_eq!(b.mix(0, mix, false), [(1500 * 100) >> 9, (-993 * 100) >> 9]);
    }

    #[test]
    fn steady_gains_mix_as_the_per_sample_mix_and_only_when_nothing_moves() {
        let mut b = Buses::default();
        b.set_volume(Bus::Music, 77);
        b.set_volume(Bus::Main, 200);
        b.set_ducking(100, 50, 50);
        let mix = [[3, -3], [12_345, -999], [-5_000, 40]];
        let gains = b.steady(0, false).expect("at rest");
        assert_eq!(Buses::mix_steady(gains, mix), b.mix(0, mix, false));
        assert_eq!(b.steady(0, true), None, "an effect starts the ducker");
        b.fade(Bus::Sfx, 0, 10, 100, Easing::Linear);
        assert_eq!(b.steady(109, false), None, "a fade runs");
        assert!(b.steady(110, false).is_some(), "and is over");
    }

    #[test]
    fn ducking_reaches_its_amount_within_the_attack_and_leaves_within_the_release() {
        let mut b = Buses::default();
        b.set_ducking(255, 10, 20);
        let music = |b: &mut Buses, sounding| b.mix(0, [[0, 0], [1 << 20, 0], [0, 0]], sounding)[0];
        let full = music(&mut b, false);
        for _ in 0..9 {
            assert!(music(&mut b, true) > 0);
        }
        assert_eq!(music(&mut b, true), 0, "down after 10 samples");
        for _ in 0..19 {
            assert!(music(&mut b, false) < full);
        }
        assert_eq!(music(&mut b, false), full, "back after 20");
    }
}
