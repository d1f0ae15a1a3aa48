//! Sound: sound effects (note sequences), music (patterns of sound effects, or a sequence of
//! sound effects per channel), the four-channel synthesiser that turns them into samples, and
//! sample clips (recorded sounds) on eight voices beside it, mixed in stereo ([`pan_gains`]).
//!
//! Sound keeps time of its own: a note lasts `speed` 120ths of a second
//! ([`UNITS_PER_SECOND`]), and vibrato and arpeggio run at rates in hertz, so a sound is the
//! same samples whatever the cart's `target_fps`. The console still makes each update's samples
//! right after that update, so a sound starts at the tick it is played, and a note may begin
//! anywhere inside an update's samples.
//!
//! Everything here is integer arithmetic, so the samples are bit-identical on every machine,
//! and the synthesiser's state lives in the console, so a seek or a replay hears exactly what
//! the original run heard.

mod bus;
mod bus_calls;
mod clip;
mod clip_calls;
mod clock;
mod fade;
mod file;
mod music_clip;
mod music_clip_calls;
mod preset;
mod stereo;
mod synth;
mod update;
mod voice;
mod voice_calls;
mod wave;

pub use bus::{Bus, Ducking, BUSES};
pub use clip::{
    ClipId, ClipOptions, DecodedClip, CLIP_RATES, CLIP_VOICES, MAX_CLIP_FILE, MAX_CLIP_FRAMES,
    PITCH_RATIOS,
};
pub use clock::SampleClock;
pub use fade::Fade;
pub use file::{
    FileMusic, FileTune, SoundBank, SoundFile, SoundFileError, UnknownSound, SOUND_FILE_HEADER,
    SOUND_FILE_HEADER_UPDATES,
};
pub use music_clip::{Join, MusicClip};
pub use preset::{Preset, UnknownPreset};
pub use stereo::{pan_gains, to_mono, Frame, Pan, UNITY_GAIN};
pub(crate) use synth::Synth;
pub use voice::{PlayError, Voice};

use thiserror::Error;

/// Channels the synthesiser mixes.
pub const CHANNELS: usize = 4;
/// The highest pitch a note may have: B7 (C0 is 0, C4 is 48, A4 is 57).
pub const MAX_PITCH: u8 = 95;
/// The loudest note volume (0 is a rest).
pub const MAX_NOTE_VOLUME: u8 = 7;
/// Notes one sound effect may hold.
pub const MAX_NOTES: usize = 64;
/// The sample rate a console starts with, in samples a second.
pub const DEFAULT_SAMPLE_RATE: u32 = 44_100;
/// Units of [`Sfx::speed`], `attack` and `release` a second: a note of speed 1 lasts 1/120 s,
/// as in Pyxel, so note lengths from Pyxel carry over as they are. 120 is a multiple of the
/// common update rates (30, 60, 120), and 1/120 s is short enough for the fastest run of notes.
pub const UNITS_PER_SECOND: u32 = 120;
/// The synthesiser's control rate: pitch and volume are worked out this many times a second
/// (twice a unit) and glide in between, so notes and effects never click.
pub(crate) const BLOCKS_PER_SECOND: u32 = 240;

/// One of the synthesiser's four channels, checked when made as a [`Player`](crate::Player)
/// is: a call that takes a `Channel` cannot name one that does not exist.
///
/// ```
/// use bt::sound::{Channel, CHANNELS};
///
/// assert_eq!(Channel::new(3), Some(Channel::FOUR));
/// assert_eq!(Channel::new(4), None);
/// assert_eq!(Channel::ALL.len(), CHANNELS);
/// assert_eq!(Channel::TWO.index(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Channel(u8);

impl Channel {
    /// The first channel (index 0), the one a tune's first column plays on.
    pub const ONE: Channel = Channel(0);
    /// The second channel (index 1).
    pub const TWO: Channel = Channel(1);
    /// The third channel (index 2).
    pub const THREE: Channel = Channel(2);
    /// The fourth channel (index 3).
    pub const FOUR: Channel = Channel(3);
    /// Every channel, in order.
    pub const ALL: [Channel; CHANNELS] =
        [Channel::ONE, Channel::TWO, Channel::THREE, Channel::FOUR];

    /// The channel with index `index` (0 to 3), or `None` past the last.
    pub const fn new(index: usize) -> Option<Channel> {
        if index < CHANNELS {
            Some(Channel(index as u8))
        } else {
            None
        }
    }

    /// The channel's index, 0 to 3.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A rate in thousandths of a hertz, for vibrato and arpeggio.
///
/// ```
/// use bt::sound::Hz;
///
/// assert_eq!(Hz::new(6).millihertz(), 6_000);
/// assert_eq!(Hz::from_millihertz(7_500).to_string(), "7.5 Hz");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hz(u32);

impl Hz {
    /// `hertz` whole hertz.
    pub const fn new(hertz: u32) -> Hz {
        Hz(hertz.saturating_mul(1000))
    }

    /// `millihertz` thousandths of a hertz.
    pub const fn from_millihertz(millihertz: u32) -> Hz {
        Hz(millihertz)
    }

    /// The rate in thousandths of a hertz.
    pub const fn millihertz(self) -> u32 {
        self.0
    }
}

impl std::fmt::Display for Hz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, milli) = (self.0 / 1000, self.0 % 1000);
        if milli == 0 {
            write!(f, "{whole} Hz")
        } else {
            let frac = format!("{milli:03}");
            write!(f, "{whole}.{} Hz", frac.trim_end_matches('0'))
        }
    }
}

/// The vibrato rate a sound effect starts with: 7.5 Hz, what `bt-sound 1`'s 8 updates a cycle
/// gave at BT's default 60 updates a second.
pub const DEFAULT_VIBRATO: Hz = Hz::from_millihertz(7_500);
/// The arpeggio rate a sound effect starts with, in steps a second: 30, what `bt-sound 1`'s
/// step every 2 updates gave at 60 updates a second.
pub const DEFAULT_ARPEGGIO: Hz = Hz::new(30);
/// How far a vibrato bends the pitch either way unless told: 50 cents, half a semitone.
pub const DEFAULT_VIBRATO_DEPTH: u16 = 50;

/// The deepest vibrato: 1200 cents, an octave either way.
pub const MAX_VIBRATO_DEPTH: u16 = 1200;

/// The fastest vibrato or arpeggio: 1 kHz.
pub const MAX_EFFECT_RATE: Hz = Hz::new(1000);

/// What a sound effect's `speed`, `attack` and `release` count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TimeBase {
    /// 120ths of a second ([`UNITS_PER_SECOND`]); vibrato and arpeggio at the sound effect's
    /// rates in hertz. The same samples at any `target_fps`.
    #[default]
    Seconds,
    /// The cart's updates, as `bt-sound 1` files count them: vibrato 8 updates a cycle and
    /// arpeggio a step every 2 updates (the rates in hertz are not used). The sound follows
    /// `target_fps`: twice as fast at 120 updates a second as at 60.
    Updates,
    /// Units of `num / den` of a second, exactly (`unit=NUM/DEN` in a sound file): PICO-8's
    /// note step, 183 samples at 22,050 Hz, is `Fraction { num: 183, den: 22_050 }`, which no
    /// whole number of 120ths can express. Vibrato and arpeggio at the sound effect's rates in
    /// hertz, as for [`TimeBase::Seconds`]; the same samples at any `target_fps`. Pitch moves
    /// to a new note at the note's first sample (no glide into it), so even the shortest note
    /// sounds at its pitch from start to end; a slide glides the volume too, and a drop falls
    /// in frequency, as PICO-8's do.
    Fraction {
        /// Seconds in `den` units, 1 to [`MAX_UNIT_PART`].
        num: u32,
        /// Units in `num` seconds, 1 to [`MAX_UNIT_PART`].
        den: u32,
    },
}

/// The largest numerator or denominator of a [`TimeBase::Fraction`] unit.
pub const MAX_UNIT_PART: u32 = 1_000_000;
/// The longest [`TimeBase::Fraction`] unit, in seconds.
pub const MAX_UNIT_SECONDS: u32 = 60;

/// The shape of a note's wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Wave {
    /// A pulse wave high for `duty`/256 of each period (128 is a plain square).
    Square {
        /// The high part of the period, in 256ths (clamped to 1..=255 when played).
        duty: u8,
    },
    /// A triangle wave: soft, flute-like.
    Triangle,
    /// A rising saw wave: bright, brassy.
    Saw,
    /// A sine wave (an integer parabola approximation, identical everywhere).
    Sine,
    /// Seeded pseudo-random noise whose grain follows the pitch: drums, explosions, wind.
    Noise,
    /// A saw whose peak leans late: it rises for 7/8 of each period and falls in the last
    /// eighth (PICO-8's wave 1, `tilt` in a sound file).
    TiltedSaw,
    /// Two triangle humps a period, a tall one and one a third as tall (PICO-8's wave 5,
    /// `organ`).
    Organ,
    /// Two triangles, the second at 109/110 of the pitch, drifting in and out of phase
    /// (PICO-8's wave 7, `phaser`).
    Phaser,
}

/// What a note does to its pitch or volume while it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum NoteEffect {
    /// Plays the note as it is.
    #[default]
    None,
    /// Glides from the previous note's pitch to this one over the note.
    Slide,
    /// Wobbles the pitch by half a semitone either way, at the sound effect's vibrato rate.
    Vibrato,
    /// Drops the pitch to nothing over the note.
    Drop,
    /// Rises from silence to the note's volume over the note.
    FadeIn,
    /// Falls from the note's volume to silence over the note.
    FadeOut,
    /// Steps through the note, a major third and a fifth above it, at the sound effect's
    /// arpeggio rate (steps a second).
    Arpeggio,
    /// Steps through the pitches of the group of four notes this one belongs to (notes 0 to 3,
    /// 4 to 7, …), one every `units` units of the sound effect's time (its speed's unit),
    /// counted from the sound effect's start: PICO-8's arpeggios (`arpgroup:N` in a sound
    /// file). A group past the last note repeats the last note's pitch.
    ArpeggioGroup {
        /// How long each step lasts, in units of the sound effect's time, at least 1.
        units: u8,
    },
}

/// One note of a sound effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Note {
    /// Semitones above C0, `0..=MAX_PITCH` (C4 is 48, A4 440 Hz is 57).
    pub pitch: u8,
    /// The wave.
    pub wave: Wave,
    /// `0..=MAX_NOTE_VOLUME`; 0 is a rest.
    pub volume: u8,
    /// The effect.
    pub effect: NoteEffect,
}

impl Note {
    /// A note of `pitch` on `wave` at `volume`, with no effect.
    pub const fn new(pitch: u8, wave: Wave, volume: u8) -> Note {
        Note {
            pitch,
            wave,
            volume,
            effect: NoteEffect::None,
        }
    }

    /// A rest: silence for one note's length.
    pub const fn rest() -> Note {
        Note::new(0, Wave::Triangle, 0)
    }

    /// The same note with `effect`.
    pub const fn with(self, effect: NoteEffect) -> Note {
        Note { effect, ..self }
    }
}

/// A sound effect: notes played one after another, each `speed` 120ths of a second long.
///
/// ```
/// use bt::sound::{Note, NoteEffect, Sfx, Wave};
///
/// let square = Wave::Square { duty: 128 };
/// let jump = Sfx::new(4, vec![
///     Note::new(48, square, 6),
///     Note::new(60, square, 5).with(NoteEffect::Slide),
///     Note::new(60, square, 5).with(NoteEffect::FadeOut),
/// ]);
/// assert_eq!(jump.length_units(), 12, "12/120 s: a tenth of a second");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sfx {
    /// How long each note lasts, at least 1: 120ths of a second (in [`TimeBase::Updates`],
    /// updates; in [`TimeBase::Fraction`], its unit).
    pub speed: u16,
    /// The notes, at most [`MAX_NOTES`].
    pub notes: Vec<Note>,
    /// When set, after the last note play resumes at this note, until stopped.
    pub loop_start: Option<usize>,
    /// How long each note takes to rise from silence, in the units of `speed` (0: at once).
    pub attack: u16,
    /// How long before the end of each note it falls to silence, in the units of `speed`
    /// (0: it does not).
    pub release: u16,
    /// How fast [`NoteEffect::Vibrato`] wobbles, from 0.001 Hz to [`MAX_EFFECT_RATE`]
    /// ([`DEFAULT_VIBRATO`] to start with).
    pub vibrato: Hz,
    /// How far [`NoteEffect::Vibrato`] bends the pitch either way, in cents (hundredths of a
    /// semitone), 0 to [`MAX_VIBRATO_DEPTH`]: [`DEFAULT_VIBRATO_DEPTH`] (50, half a semitone)
    /// to start with; Pyxel's vibrato is 25.
    pub vibrato_depth: u16,
    /// How fast [`NoteEffect::Arpeggio`] steps, in steps a second, from 0.001 to
    /// [`MAX_EFFECT_RATE`] ([`DEFAULT_ARPEGGIO`] to start with).
    pub arpeggio: Hz,
    /// What `speed`, `attack` and `release` count: 120ths of a second unless the sound came
    /// from a `bt-sound 1` file or names a unit of its own.
    pub time_base: TimeBase,
}

impl Sfx {
    /// A sound effect of `notes`, `speed` 120ths of a second each, no loop, no envelope, the
    /// default vibrato and arpeggio rates.
    pub fn new(speed: u16, notes: Vec<Note>) -> Sfx {
        Sfx {
            speed,
            notes,
            loop_start: None,
            attack: 0,
            release: 0,
            vibrato: DEFAULT_VIBRATO,
            vibrato_depth: DEFAULT_VIBRATO_DEPTH,
            arpeggio: DEFAULT_ARPEGGIO,
            time_base: TimeBase::Seconds,
        }
    }

    /// How long from the first note to the end of the last (a loop's first pass), in the units
    /// of `speed`.
    pub fn length_units(&self) -> u64 {
        self.notes.len() as u64 * u64::from(self.speed)
    }

    /// Checks the limits: speed at least 1, 1 to [`MAX_NOTES`] notes, pitches and volumes in
    /// range, a loop start inside the notes, effect rates in range.
    ///
    /// # Errors
    /// [`SoundError`] naming the note and field at fault.
    pub fn validate(&self) -> Result<(), SoundError> {
        if self.speed == 0 {
            return Err(SoundError::Speed);
        }
        if let TimeBase::Fraction { num, den } = self.time_base {
            let parts = 1..=MAX_UNIT_PART;
            if !parts.contains(&num)
                || !parts.contains(&den)
                || u64::from(num) > u64::from(den) * u64::from(MAX_UNIT_SECONDS)
            {
                return Err(SoundError::Unit { num, den });
            }
        }
        if self.vibrato_depth > MAX_VIBRATO_DEPTH {
            return Err(SoundError::VibratoDepth(self.vibrato_depth));
        }
        for rate in [self.vibrato, self.arpeggio] {
            if rate.0 == 0 || rate > MAX_EFFECT_RATE {
                return Err(SoundError::Rate(rate));
            }
        }
        if self.notes.is_empty() || self.notes.len() > MAX_NOTES {
            return Err(SoundError::NoteCount(self.notes.len()));
        }
        for (index, note) in self.notes.iter().enumerate() {
            if note.pitch > MAX_PITCH {
                return Err(SoundError::Pitch {
                    index,
                    pitch: note.pitch,
                });
            }
            if note.effect == (NoteEffect::ArpeggioGroup { units: 0 }) {
                return Err(SoundError::ArpeggioStep { index });
            }
            if note.volume > MAX_NOTE_VOLUME {
                return Err(SoundError::Volume {
                    index,
                    volume: note.volume,
                });
            }
        }
        if let Some(start) = self.loop_start {
            if start >= self.notes.len() {
                return Err(SoundError::LoopStart {
                    start,
                    len: self.notes.len(),
                });
            }
        }
        Ok(())
    }
}

/// A sound effect the console holds, returned by [`Update::add_sfx`](crate::Update::add_sfx).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SfxId(pub(crate) u16);

/// A tune the console holds, returned by [`Update::add_music`](crate::Update::add_music).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MusicId(pub(crate) u16);

/// One step of a tune: the sound effect each channel plays (or none).
pub type Pattern = [Option<SfxId>; CHANNELS];

/// A tune, in one of two forms.
///
/// ```
/// use bt::host::Console;
/// use bt::sound::{Music, Note, Sfx, Wave};
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// let a = ctx.add_sfx(Sfx::new(30, vec![Note::new(57, Wave::Triangle, 5)]))?;
/// let b = ctx.add_sfx(Sfx::new(15, vec![Note::new(45, Wave::Saw, 4); 4]))?;
/// // Channel 0 plays a then a; channel 1 plays b; channels 2 and 3 are silent.
/// let tune = ctx.add_music(Music::sequences([vec![a, a], vec![b], vec![], vec![]], true))?;
/// assert!(ctx.play_music(tune).is_ok());
/// # Ok::<(), bt::sound::SoundError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Music {
    /// Patterns played one after another. A pattern lasts as long as the first pass of its
    /// lowest-numbered channel's sound effect that does not loop (of its lowest channel's,
    /// when every one loops); then every channel starts the next pattern together. A pattern
    /// with no sound effect lasts no time.
    Patterns {
        /// The patterns, in order.
        patterns: Vec<Pattern>,
        /// When set, after the last pattern the tune goes on from this one, until stopped.
        loop_start: Option<usize>,
    },
    /// A list of sound effects for each channel, as Pyxel writes music: each channel plays its
    /// own list, one sound effect (its first pass) after another, whatever the others do. An
    /// empty list leaves its channel free.
    Sequences {
        /// Each channel's sound effects, in order.
        channels: [Vec<SfxId>; CHANNELS],
        /// Whether each channel starts its list over when it reaches the end; when not, the
        /// tune ends once every channel has played its list.
        looping: bool,
    },
}

impl Music {
    /// A tune of `patterns`, going on from `loop_start` after the last when that is set.
    pub fn patterns(patterns: Vec<Pattern>, loop_start: Option<usize>) -> Music {
        Music::Patterns {
            patterns,
            loop_start,
        }
    }

    /// A tune of one list of sound effects per channel, each starting over when `looping`.
    pub fn sequences(channels: [Vec<SfxId>; CHANNELS], looping: bool) -> Music {
        Music::Sequences { channels, looping }
    }
}

/// How a tune starts, for [`Update::play_music_with`](crate::Update::play_music_with): PICO-8's
/// `music(n, fade_len, channel_mask)`.
///
/// ```
/// use bt::sound::{Fade, MusicStart};
///
/// // music(0, 1000, 7): a second's fade in, channels 0 to 2 kept for the tune.
/// let start = MusicStart {
///     fade_in: Fade::millis(1000),
///     reserved: [true, true, true, false],
/// };
/// assert_ne!(start, MusicStart::default());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MusicStart {
    /// How the tune rises from silence to its full volume ([`Fade::INSTANT`]: at once).
    pub fade_in: Fade,
    /// Channels kept for the tune while it plays: [`Update::play_sfx`](crate::Update::play_sfx)
    /// with `None` does not pick them (one given a channel still plays there).
    pub reserved: [bool; CHANNELS],
}

/// What is wrong with a sound effect or a tune.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SoundError {
    /// A speed of 0.
    #[error("speed must be at least 1, got 0")]
    Speed,
    /// A vibrato or arpeggio rate of 0 or past [`MAX_EFFECT_RATE`].
    #[error("an effect rate must be from 0.001 Hz to {MAX_EFFECT_RATE}, got {0}")]
    Rate(Hz),
    /// A [`TimeBase::Fraction`] unit with a part of 0, a part past [`MAX_UNIT_PART`], or
    /// longer than [`MAX_UNIT_SECONDS`].
    #[error("a time unit must be NUM/DEN seconds with NUM and DEN from 1 to {MAX_UNIT_PART}, at most {MAX_UNIT_SECONDS} s, got {num}/{den}")]
    Unit {
        /// The numerator given.
        num: u32,
        /// The denominator given.
        den: u32,
    },
    /// A [`NoteEffect::ArpeggioGroup`] whose steps last no time.
    #[error("note {index}: an arpeggio group's step must last at least 1 unit, got 0")]
    ArpeggioStep {
        /// Which note.
        index: usize,
    },
    /// A vibrato depth past [`MAX_VIBRATO_DEPTH`].
    #[error("a vibrato depth must be 0 to {MAX_VIBRATO_DEPTH} cents, got {0}")]
    VibratoDepth(u16),
    /// Too few or too many notes.
    #[error("a sound effect holds 1 to {MAX_NOTES} notes, got {0}")]
    NoteCount(usize),
    /// A pitch past [`MAX_PITCH`].
    #[error("note {index}: pitch {pitch} is above B7 ({MAX_PITCH})")]
    Pitch {
        /// Which note.
        index: usize,
        /// Its pitch.
        pitch: u8,
    },
    /// A volume past [`MAX_NOTE_VOLUME`].
    #[error("note {index}: volume {volume} is above {MAX_NOTE_VOLUME}")]
    Volume {
        /// Which note.
        index: usize,
        /// Its volume.
        volume: u8,
    },
    /// A loop that starts past the last note or pattern.
    #[error("loop_start {start} is past the end ({len} entries)")]
    LoopStart {
        /// The loop start.
        start: usize,
        /// How many notes or patterns there are.
        len: usize,
    },
    /// A sound effect id this console does not hold (or no longer holds: a sound file loaded
    /// again replaces its sounds).
    #[error("music: pattern or channel {pattern} names a sound effect this console does not hold")]
    UnknownSfx {
        /// Which pattern (or, in a tune of sequences, which channel).
        pattern: usize,
    },
    /// More sound effects or tunes than an id can name.
    #[error("too many sound effects or tunes (at most 65535)")]
    Full,
}

/// What a channel is doing, from [`Update::channel_state`](crate::Update::channel_state). Its
/// volume is [`Update::channel_volume`](crate::Update::channel_volume).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelState {
    /// The sound effect playing, if any.
    pub sfx: Option<SfxId>,
    /// Which note of it.
    pub note: usize,
    /// Whether the tune put it there (rather than [`Update::play_sfx`](crate::Update::play_sfx)).
    pub from_music: bool,
}

/// What the synthesiser did in the last update, for a level meter: read-only, it changes no
/// sample. From [`Console::sound_meter`](crate::host::Console::sound_meter).
///
/// ```
/// use bt::sound::SoundMeter;
///
/// assert_eq!(SoundMeter::default().buses, [255; 3], "at boot every bus is at full");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoundMeter {
    /// Each channel's loudest sample in the last update, 0 (silent) to 32,767 (full scale),
    /// after its channel volume, and its bus's and the main bus's levels as they stand at the
    /// update's end.
    pub peaks: [u16; CHANNELS],
    /// Each bus's level at the update's end, 0 (silent) to 255 (full), by [`Bus::index`]:
    /// where its fade has got to, 0 while muted, and the music bus's as lowered by ducking.
    pub buses: [u8; BUSES],
    /// Channels playing a sound effect (the tune's included).
    pub voices: u8,
    /// Notes lost since boot to a busy channel: a sound effect started on a channel still
    /// playing something (cutting it off), or a tune's note that could not start because a
    /// sound effect held its channel.
    pub stolen: u32,
    /// Sound effects that found no channel since boot ([`Update::play_sfx`](crate::Update::play_sfx)
    /// returned [`PlayError::NoFreeChannel`]).
    pub refused: u32,
    /// Samples since boot whose mix went past full scale and was clipped.
    pub clipped: u64,
    /// Whether the cart has defined any sound: a host hides its meter when not.
    pub in_use: bool,
}

impl Default for SoundMeter {
    fn default() -> SoundMeter {
        SoundMeter {
            peaks: [0; CHANNELS],
            buses: [255; BUSES],
            voices: 0,
            stolen: 0,
            refused: 0,
            clipped: 0,
            in_use: false,
        }
    }
}
