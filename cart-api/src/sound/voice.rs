//! What every `play_*` call gives back: a [`Voice`] to change or stop what plays, or a
//! [`PlayError`] saying why nothing plays.

use thiserror::Error;

use super::Channel;

/// Which kind of sound a [`Voice`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum VoiceKind {
    /// A sound effect on a synthesiser channel (the slot is the channel).
    Sfx,
    /// A tune of the synthesiser.
    Tune,
    /// A clip on a clip voice (the slot is the voice).
    Clip,
    /// A clip played as music (the slot is the music voice).
    MusicClip,
}

/// Something playing, from any `play_*` call: a sound effect, a tune, a clip, or a music
/// clip. Through it a cart changes the sound's pitch, volume and pan while it plays
/// ([`Update::set_voice_pitch`](crate::Update::set_voice_pitch) and its neighbours), stops it
/// with a [`Fade`](super::Fade), or asks whether it still plays.
///
/// A voice names one start of one sound. Once that sound ends or is stopped, or its channel or
/// voice is taken by another, the handle names nothing: every call through it does nothing,
/// and never touches the sound that took its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Voice {
    pub(crate) kind: VoiceKind,
    pub(crate) slot: u8,
    pub(crate) serial: u32,
}

impl Voice {
    /// The channel a sound effect plays on (`None` for a tune or a clip).
    pub fn channel(self) -> Option<Channel> {
        match self.kind {
            VoiceKind::Sfx => Channel::new(usize::from(self.slot)),
            _ => None,
        }
    }
}

/// Why a `play_*` call plays nothing. Nothing changes when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlayError {
    /// A sound effect id this console does not hold (or no longer holds: a sound file loaded
    /// again replaces its sounds).
    #[error("sound effect {0} is not one this console holds")]
    UnknownSfx(u16),
    /// A tune id this console does not hold.
    #[error("tune {0} is not one this console holds")]
    UnknownMusic(u16),
    /// A clip id this console does not hold (one from another console).
    #[error("clip {0} is not one this console holds")]
    UnknownClip(u32),
    /// Every channel free to take a sound effect plays one already (channels the tune has
    /// reserved are not free).
    #[error("no free channel for sound effect {0}: every open channel plays a sound effect")]
    NoFreeChannel(u16),
    /// Every clip voice plays a clip of higher priority.
    #[error(
        "no free clip voice for clip {clip}: every voice plays a clip of priority above {priority}"
    )]
    NoFreeVoice {
        /// The clip refused.
        clip: u32,
        /// Its priority.
        priority: u8,
    },
    /// A first note past a sound effect's last.
    #[error("sound effect {sfx}: note {offset} is past its last (it has {notes} notes)")]
    NoteOffset {
        /// The sound effect.
        sfx: u16,
        /// The first note asked for.
        offset: usize,
        /// How many notes it has.
        notes: usize,
    },
    /// A length of no notes.
    #[error("sound effect {0}: a length of 0 notes plays nothing")]
    NoNotes(u16),
    /// A sample past a music clip's end: a [`MusicClip`](super::MusicClip) loop point or a
    /// seek.
    #[error("music clip: {what} {sample} is past the clip's end (it has {samples} samples)")]
    PastClipEnd {
        /// What gave the sample: `loop_start`, `loop_end` or `seek_music_clip`.
        what: &'static str,
        /// The sample given.
        sample: u64,
        /// How many samples the clip has.
        samples: u64,
    },
    /// A music clip's loop that ends at or before its start.
    #[error("music clip: loop_end {end} is not after loop_start {start}")]
    EmptyLoop {
        /// The loop's start.
        start: u64,
        /// The loop's end.
        end: u64,
    },
}
