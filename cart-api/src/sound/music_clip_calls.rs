//! What carts call to play music from clips: start a track (crossfading from the one before),
//! stop it with a fade, ask where it is, move it. Like every sound call, each takes effect at
//! the tick it is made, from that update's first sample.

use std::time::Duration;

use super::clip::ClipId;
use super::music_clip::MusicClip;
use super::SoundError;
use crate::Update;

/// Music from clips.
///
/// ```
/// use std::time::Duration;
///
/// use bt::host::{Console, ImageLoader, RgbaImage};
/// use bt::sound::{DecodedClip, MusicClip};
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
/// // Frames 0 to 39 are the intro; 40 to 99 loop.
/// ctx.play_music_clip(song, MusicClip { loop_start: Some(40), ..MusicClip::default() })?;
/// con.step_sound(); // 735 samples at 60 updates a second
/// let frames: Vec<[i16; 2]> = con.drain_frames().collect();
/// // Through the master volume (255 of 256): frame 99, then frame 40 again.
/// assert_eq!((frames[99][0], frames[100][0]), (25_500, 10_455));
/// let mut ctx = con.update_context(1);
/// assert_eq!(ctx.music_clip_position(), Some((song, 40 + (735 - 100) % 60)));
/// ctx.seek_music_clip(0)?;
/// ctx.stop_music_clip(Duration::from_millis(100));
/// assert!(ctx.seek_music_clip(100).is_err(), "past the last frame");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Update<'_> {
    /// Plays `clip` as the music track, from its first frame through [`Bus::Music`]
    /// (so the music bus's volume, fades and ducking apply), on one of two music voices kept
    /// apart from the [`CLIP_VOICES`](super::CLIP_VOICES) of [`Update::play_clip`]. With
    /// `options.loop_start` the frames before it are an intro played once and the rest loops
    /// without a gap; without, the track plays once.
    ///
    /// The track playing before fades out over `options.crossfade` while this one fades in
    /// over the same samples, each along a straight line, so their two gains add up to full
    /// at every sample. A track still fading out from an earlier change stops at once.
    ///
    /// # Errors
    /// [`SoundError::UnknownClip`] for a clip this console does not hold, and
    /// [`SoundError::PastClipEnd`] for a `loop_start` at or past the clip's frame count;
    /// nothing changes then.
    ///
    /// [`Bus::Music`]: super::Bus::Music
    pub fn play_music_clip(&mut self, clip: ClipId, options: MusicClip) -> Result<(), SoundError> {
        self.con.synth.play_music_clip(clip, options)
    }

    /// Fades the music track out over `fade`, along a straight line to silence, then frees its
    /// voice (a zero `fade` stops it at once); a track still fading out from a crossfade ends
    /// by then too.
    pub fn stop_music_clip(&mut self, fade: Duration) {
        self.con.synth.stop_music_clip(fade);
    }

    /// The music track's clip and the frame it plays next, counted from the clip's first
    /// frame; `None` once it ended or was stopped (a track fading out still plays).
    pub fn music_clip_position(&self) -> Option<(ClipId, u64)> {
        self.con.synth.music_clip_position()
    }

    /// Moves the music track to `frame` of its clip, from the next sample; its fades go on.
    /// With no track playing nothing happens.
    ///
    /// # Errors
    /// [`SoundError::PastClipEnd`] for a frame at or past the clip's frame count.
    pub fn seek_music_clip(&mut self, frame: u64) -> Result<(), SoundError> {
        self.con.synth.seek_music_clip(frame)
    }
}
