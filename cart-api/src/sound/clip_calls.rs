//! What carts call to play sample clips: load one from the asset folder or from bytes built
//! into the cart, and play it on the clip voices (its [`Voice`] stops it or changes it). Like the
//! synthesiser's calls, each takes effect at the tick it is made, from that update's first
//! sample.

use super::clip::{digest, ClipId, ClipOptions, DecodedClip};
use super::{PlayError, Voice, CLIP_RATES, MAX_CLIP_FILE, MAX_CLIP_FRAMES};
use crate::assets::{AssetError, AssetErrorKind};
use crate::Update;

/// Sample clips.
///
/// ```
/// use bt::host::{Console, ImageLoader, RgbaImage};
/// use bt::sound::{ClipOptions, DecodedClip, Fade};
/// use bt::{AssetError, AssetErrorKind, Settings};
///
/// /// A stand-in for the runtime's decoder: every clip is a short ramp.
/// struct Ramp;
/// impl ImageLoader for Ramp {
///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(path, AssetErrorKind::NotFound))
///     }
///     fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(name, AssetErrorKind::NotFound))
///     }
///     fn decode_clip(&self, _: &str, _: &[u8]) -> Result<DecodedClip, AssetError> {
///         Ok(DecodedClip { rate: 44_100, frames: (0..100).map(|i| [i * 100, -i * 100]).collect() })
///     }
/// }
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.set_image_loader(Box::new(Ramp));
/// let mut ctx = con.update_context(0);
/// let ramp = ctx.decode_clip("ramp.wav", b"RIFF...")?;
/// let voice = ctx.play_clip(ramp, ClipOptions::default()).unwrap();
/// assert!(ctx.is_voice_playing(voice));
/// con.step_sound();
/// let frames: Vec<[i16; 2]> = con.drain_frames().collect();
/// // As recorded, through the master volume (255 of 256, rounded down).
/// assert_eq!(frames[10], [996, -997]);
/// assert_eq!(frames[100], [0, 0], "played once, then silence");
/// let mut ctx = con.update_context(1);
/// assert!(!ctx.is_voice_playing(voice));
/// ctx.stop_voice(voice, Fade::millis(50)); // a voice that ended: nothing happens
/// # Ok::<(), bt::AssetError>(())
/// ```
impl Update<'_> {
    /// Reads the sound file at `path` (a relative path is looked up in the cart's asset
    /// folder, as for [`Update::load_image`]), a WAV (8, 16, 24 or 32-bit integers, or 32-bit
    /// floats; one or two channels) or an Ogg Vorbis file, and holds its sound as a clip to
    /// play. The same file loaded again, unchanged, gives the clip already held without
    /// decoding it again; a changed file (the cart's `reload`) gives a new clip.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: a missing or unreadable file, one over
    /// [`MAX_CLIP_FILE`] bytes, one that is not a clip BT reads, one longer than
    /// [`MAX_CLIP_FRAMES`], or a host without files.
    pub fn load_clip(&mut self, path: &str) -> Result<ClipId, AssetError> {
        let bytes = self
            .con
            .loader
            .0
            .as_ref()
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .read_limited(path, MAX_CLIP_FILE)
            .map_err(|e| e.reading("sound clip"))?;
        self.decode_clip(path, &bytes)
    }

    /// Like [`Update::load_clip`] for a file already in memory, such as one built into the
    /// cart with `include_bytes!` (which a web page and an exported game carry with the code);
    /// `name` is used in errors and, with the bytes, finds a clip already held.
    ///
    /// # Errors
    /// As [`Update::load_clip`], naming `name`.
    pub fn decode_clip(&mut self, name: &str, bytes: &[u8]) -> Result<ClipId, AssetError> {
        if bytes.len() as u64 > MAX_CLIP_FILE {
            return Err(AssetError::new(
                name,
                AssetErrorKind::FileTooLarge {
                    bytes: bytes.len() as u64,
                    limit: MAX_CLIP_FILE,
                },
            ));
        }
        let digest = digest(bytes);
        if let Some(id) = self.con.synth.find_clip(name, digest) {
            return Ok(id);
        }
        if self.con.synth.clip_count() >= u32::MAX as usize {
            return Err(AssetError::new(
                name,
                AssetErrorKind::BadClip("the console holds 4294967295 clips already".into()),
            ));
        }
        let clip = self
            .con
            .loader
            .0
            .as_ref()
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?
            .decode_clip(name, bytes)?;
        check(name, &clip)?;
        Ok(self.con.synth.add_clip(name, digest, clip))
    }

    /// Plays `clip` from its start on a clip voice (there are
    /// [`CLIP_VOICES`](super::CLIP_VOICES)), as `options` say, and returns its [`Voice`],
    /// through which [`Update::stop_voice`] stops it and [`Update::set_voice_pitch`] and its
    /// neighbours change it.
    ///
    /// With every voice busy the clip takes the voice of lowest priority, the one started
    /// earliest among equals, if that priority is at most `options.priority`; what played
    /// there stops at once. So a clip of the same priority cuts off the oldest, and a
    /// low-priority clip never cuts off a higher one.
    ///
    /// # Errors
    /// [`PlayError::UnknownClip`] for a clip this console does not hold, and
    /// [`PlayError::NoFreeVoice`] when every voice plays a clip of higher priority.
    pub fn play_clip(&mut self, clip: ClipId, options: ClipOptions) -> Result<Voice, PlayError> {
        self.con.synth.play_clip(clip, options)
    }
}

/// Refuses a decoded clip outside the limits, whatever decoder made it.
fn check(name: &str, clip: &DecodedClip) -> Result<(), AssetError> {
    if clip.frames.len() as u64 > MAX_CLIP_FRAMES {
        return Err(AssetError::new(
            name,
            AssetErrorKind::ClipTooLong {
                frames: clip.frames.len() as u64,
                limit: MAX_CLIP_FRAMES,
            },
        ));
    }
    if !CLIP_RATES.contains(&clip.rate) {
        return Err(AssetError::new(
            name,
            AssetErrorKind::BadClip(format!(
                "a rate of {} Hz (clips are {} to {} Hz)",
                clip.rate,
                CLIP_RATES.start(),
                CLIP_RATES.end()
            )),
        ));
    }
    if clip.frames.is_empty() {
        return Err(AssetError::new(
            name,
            AssetErrorKind::BadClip("no sound in it (0 frames)".into()),
        ));
    }
    Ok(())
}
