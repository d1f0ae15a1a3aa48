//! What carts call to play music from clips: start a track (crossfading from the one before),
//! ask where it is, move it; [`Update::stop_music`] stops it with a fade. Like every sound
//! call, each takes effect at the tick it is made, from that update's first sample.

use super::clip::ClipId;
use super::music_clip::MusicClip;
use super::{PlayError, Voice};
use crate::Update;

/// Music from clips.
///
/// ```
/// use bt::host::{Console, ImageLoader, RgbaImage};
/// use bt::sound::{DecodedClip, Fade, MusicClip};
/// use bt::{AssetError, AssetErrorKind, Settings};
///
/// /// A stand-in for the runtime's decoder: every clip counts 1, 2, 3, ... 100.
/// struct Count;
/// impl ImageLoader for Count {
///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(path, AssetErrorKind::NotFound))
///     }
///     fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(name, AssetErrorKind::NotFound))
///     }
///     fn decode_clip(&self, _: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
///         Ok(DecodedClip { rate: 44_100, frames: (1..=100).map(|i| [i * 256, i * 256]).collect() })
///     }
/// }
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.set_image_loader(Box::new(Count));
/// let mut ctx = con.update_context(0);
/// let song = ctx.decode_clip("song.wav", b"RIFF...")?;
/// // Samples 0 to 39 are the intro; 40 to 99 loop.
/// ctx.play_music_clip(song, MusicClip { loop_start: Some(40), ..MusicClip::default() })?;
/// con.step_sound(); // 735 samples at 60 updates a second
/// let frames: Vec<[i16; 2]> = con.drain_frames().collect();
/// // Through the master volume (255 of 256): sample 99, then sample 40 again.
/// assert_eq!((frames[99][0], frames[100][0]), (25_500, 10_455));
/// let mut ctx = con.update_context(1);
/// assert_eq!(ctx.music_clip_position(), Some((song, 40 + (735 - 100) % 60)));
/// ctx.seek_music_clip(0)?;
/// ctx.stop_music(Fade::millis(100));
/// assert!(ctx.seek_music_clip(100).is_err(), "past the last sample");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Update<'_> {
    /// Plays `clip` as the music track, from its first sample through [`Bus::Music`]
    /// (so the music bus's volume, fades and ducking apply), on one of two music voices kept
    /// apart from the [`CLIP_VOICES`](super::CLIP_VOICES) of [`Update::play_clip`]. With
    /// `options.loop_start` the samples before it are an intro played once and the rest, to
    /// `options.loop_end` (the clip's end unless told), loops without a gap; without, the
    /// track plays once, to `loop_end`.
    ///
    /// The track playing before fades out along `options.crossfade` while this one fades in
    /// along the same fade; with a straight line their two gains add up to full at every
    /// sample. `options.join` moves this track's start: a [`Join::Gap`](super::Join::Gap) of
    /// silence after the old one has faded out, or a [`Join::Overlap`](super::Join::Overlap)
    /// of its end. A track still fading out from an earlier change stops at once. The
    /// returned [`Voice`] changes or stops this track.
    ///
    /// # Errors
    /// [`PlayError::UnknownClip`] for a clip this console does not hold,
    /// [`PlayError::PastClipEnd`] for a `loop_start` at or past the clip's last sample or a
    /// `loop_end` past it, and [`PlayError::EmptyLoop`] for a `loop_end` not after the
    /// `loop_start` (or at 0); nothing changes then.
    ///
    /// [`Bus::Music`]: super::Bus::Music
    pub fn play_music_clip(
        &mut self,
        clip: ClipId,
        options: MusicClip,
    ) -> Result<Voice, PlayError> {
        self.con.synth.play_music_clip(clip, options)
    }

    /// The music track's clip and the sample it plays next, counted from the clip's first
    /// sample (at the clip's own rate); `None` once it ended or was stopped (a track fading
    /// out still plays).
    pub fn music_clip_position(&self) -> Option<(ClipId, u64)> {
        self.con.synth.music_clip_position()
    }

    /// Moves the music track to `sample` of its clip, from the next sample; its fades go on.
    /// With no track playing nothing happens.
    ///
    /// # Errors
    /// [`PlayError::PastClipEnd`] for a sample at or past the clip's end.
    pub fn seek_music_clip(&mut self, sample: u64) -> Result<(), PlayError> {
        self.con.synth.seek_music_clip(sample)
    }
}
