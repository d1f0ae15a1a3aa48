//! Sound on the tick clock: sound effects (note sequences), music (patterns of sound effects),
//! and the four-channel synthesiser that turns them into samples, update by update.
//!
//! Everything here is integer arithmetic, so the samples are bit-identical on every machine,
//! and the synthesiser's state lives in the console, so a seek or a replay hears exactly what
//! the original run heard.

mod clock;
mod file;
mod synth;
mod update;
mod wave;

pub use clock::SampleClock;
pub use file::{FileMusic, SoundBank, SoundFile, SoundFileError, SOUND_FILE_HEADER};
pub(crate) use synth::Synth;

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
}

/// What a note does to its pitch or volume while it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Effect {
    /// Plays the note as it is.
    #[default]
    None,
    /// Glides from the previous note's pitch to this one over the note.
    Slide,
    /// Wobbles the pitch by half a semitone either way, 8 ticks a cycle.
    Vibrato,
    /// Drops the pitch to nothing over the note.
    Drop,
    /// Rises from silence to the note's volume over the note.
    FadeIn,
    /// Falls from the note's volume to silence over the note.
    FadeOut,
    /// Steps through the note, a major third and a fifth above it, a step every 2 ticks.
    Arpeggio,
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
    pub effect: Effect,
}

impl Note {
    /// A note of `pitch` on `wave` at `volume`, with no effect.
    pub const fn new(pitch: u8, wave: Wave, volume: u8) -> Note {
        Note {
            pitch,
            wave,
            volume,
            effect: Effect::None,
        }
    }

    /// A rest: silence for one note's length.
    pub const fn rest() -> Note {
        Note::new(0, Wave::Triangle, 0)
    }

    /// The same note with `effect`.
    pub const fn with(self, effect: Effect) -> Note {
        Note { effect, ..self }
    }
}

/// A sound effect: notes played one after another, each `speed` ticks long.
///
/// ```
/// use bt::sound::{Effect, Note, Sfx, Wave};
///
/// let square = Wave::Square { duty: 128 };
/// let jump = Sfx::new(2, vec![
///     Note::new(48, square, 6),
///     Note::new(60, square, 5).with(Effect::Slide),
///     Note::new(60, square, 5).with(Effect::FadeOut),
/// ]);
/// assert_eq!(jump.length_ticks(), 6);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sfx {
    /// Ticks each note lasts, at least 1.
    pub speed: u16,
    /// The notes, at most [`MAX_NOTES`].
    pub notes: Vec<Note>,
    /// When set, after the last note play resumes at this note, until stopped.
    pub loop_start: Option<usize>,
    /// Ticks each note takes to rise from silence (0: at once).
    pub attack: u16,
    /// Ticks at the end of each note over which it falls to silence (0: none).
    pub release: u16,
}

impl Sfx {
    /// A sound effect of `notes`, `speed` ticks each, no loop, no envelope.
    pub fn new(speed: u16, notes: Vec<Note>) -> Sfx {
        Sfx {
            speed,
            notes,
            loop_start: None,
            attack: 0,
            release: 0,
        }
    }

    /// Ticks from the first note to the end of the last (a loop's first pass).
    pub fn length_ticks(&self) -> u64 {
        self.notes.len() as u64 * u64::from(self.speed)
    }

    /// Checks the limits: speed at least 1, 1 to [`MAX_NOTES`] notes, pitches and volumes in
    /// range, a loop start inside the notes.
    ///
    /// # Errors
    /// [`SoundError`] naming the note and field at fault.
    pub fn validate(&self) -> Result<(), SoundError> {
        if self.speed == 0 {
            return Err(SoundError::Speed);
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

/// A sound effect the console holds, returned by [`Update::sfx_add`](crate::Update::sfx_add).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SfxId(pub(crate) u16);

/// A tune the console holds, returned by [`Update::music_add`](crate::Update::music_add).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MusicId(pub(crate) u16);

/// One step of a tune: the sound effect each channel plays (or none).
pub type Pattern = [Option<SfxId>; CHANNELS];

/// A tune: patterns played one after another. A pattern lasts as long as the first pass of its
/// lowest-numbered channel's sound effect; then every channel starts the next pattern together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Music {
    /// The patterns, in order.
    pub patterns: Vec<Pattern>,
    /// When set, after the last pattern the tune goes on from this one, until stopped.
    pub loop_start: Option<usize>,
}

/// What is wrong with a sound effect or a tune.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SoundError {
    /// A speed of 0 ticks a note.
    #[error("speed must be at least 1 tick a note, got 0")]
    Speed,
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
    /// A tune with no pattern, or a pattern with no sound effect.
    #[error("music: pattern {0} plays nothing (or the tune has no pattern)")]
    EmptyPattern(usize),
    /// A sound effect id this console does not hold.
    #[error("music: pattern {pattern} names a sound effect this console does not hold")]
    UnknownSfx {
        /// Which pattern.
        pattern: usize,
    },
    /// More sound effects or tunes than an id can name.
    #[error("too many sound effects or tunes (at most 65535)")]
    Full,
}

/// What a channel is doing, from [`Update::sound_channel`](crate::Update::sound_channel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelState {
    /// The sound effect playing, if any.
    pub sfx: Option<SfxId>,
    /// Which note of it.
    pub note: usize,
    /// Whether the tune put it there (rather than [`Update::sfx_play`](crate::Update::sfx_play)).
    pub from_music: bool,
    /// The channel's volume, 0–255.
    pub volume: u8,
}

/// What the synthesiser did in the last update, for a level meter: read-only, it changes no
/// sample. From [`Console::sound_meter`](crate::host::Console::sound_meter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SoundMeter {
    /// Each channel's loudest sample in the last update, 0 (silent) to 32,767 (full scale),
    /// after its channel volume and the master volume.
    pub peaks: [u16; CHANNELS],
    /// Channels playing a sound effect (the tune's included).
    pub voices: u8,
    /// Notes lost since boot to a busy channel: a sound effect started on a channel still
    /// playing something (cutting it off), or a tune's note that could not start because a
    /// sound effect held its channel.
    pub stolen: u32,
    /// Sound effects that found no channel since boot ([`Update::sfx_play`](crate::Update::sfx_play)
    /// returned `None` for a lack of one).
    pub refused: u32,
    /// Samples since boot whose mix went past full scale and was clipped.
    pub clipped: u64,
    /// Whether the cart has defined any sound: a host hides its meter when not.
    pub in_use: bool,
}
