//! What carts call on something playing, through the [`Voice`] any `play_*` call returned:
//! change its pitch, volume or pan, stop it with a fade, ask whether it still plays. Like
//! every sound call, each takes effect at the tick it is made, from that update's first sample.

use super::{Fade, Pan, Voice};
use crate::Update;

/// Voices.
///
/// ```
/// use bt::host::Console;
/// use bt::sound::{Fade, Note, Sfx, Wave};
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// let hum = ctx.add_sfx(Sfx::new(120, vec![Note::new(45, Wave::Saw, 5)]))?;
/// let voice = ctx.play_sfx(hum, None)?;
/// ctx.set_voice_pitch(voice, 2.0); // an octave up, from this update's first sample
/// ctx.set_voice_volume(voice, 128);
/// ctx.set_voice_pan(voice, -64);
/// ctx.stop_voice(voice, Fade::millis(100));
/// assert!(ctx.is_voice_playing(voice), "until its fade ends");
/// let again = ctx.play_sfx(hum, voice.channel())?; // the same channel, a new start
/// ctx.set_voice_pitch(voice, 0.5); // the old handle: nothing happens
/// assert!(!ctx.is_voice_playing(voice) && ctx.is_voice_playing(again));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Update<'_> {
    /// Plays `voice` at `pitch` times its own pitch from now on: 2 an octave up, 0.5 an octave
    /// down, clamped to [`PITCH_RATIOS`](super::PITCH_RATIOS) (a value that is not a number
    /// counts as 1). A clip also plays that much faster or slower, as
    /// [`ClipOptions::pitch`](super::ClipOptions::pitch) does; a sound effect's notes keep
    /// their lengths; a tune's pitch moves every channel it holds. The ratio becomes a 16.16
    /// fixed-point number once, here, so the samples are the same on every machine. A voice
    /// that ended is left alone.
    pub fn set_voice_pitch(&mut self, voice: Voice, pitch: f32) {
        self.con.synth.set_voice_pitch(voice, pitch);
    }

    /// Sets `voice`'s volume, 0 (silent) to 255 (as played, where every voice starts), from
    /// now on. A sound effect's volume multiplies its channel's
    /// ([`Update::set_channel_volume`]); a tune's applies to every channel it holds. A voice
    /// that ended is left alone.
    pub fn set_voice_volume(&mut self, voice: Voice, volume: u8) {
        self.con.synth.set_voice_volume(voice, volume);
    }

    /// Sets `voice`'s pan, -127 hard left to 127 hard right (0, the centre, where every voice
    /// starts but a clip given one), from now on. A sound effect's pan is added to its
    /// channel's ([`Update::set_channel_pan`]), held within -127 and 127; a tune's applies to
    /// every channel it holds. A voice that ended is left alone.
    pub fn set_voice_pan(&mut self, voice: Voice, pan: Pan) {
        self.con.synth.set_voice_pan(voice, pan);
    }

    /// Fades `voice` out along `fade`, then stops it ([`Fade::INSTANT`]: at once; a sound
    /// effect still falls to silence over 1/240 s rather than clicking). A fade out already
    /// running that would end sooner is kept. A tune's voice fades the tune, a music clip's
    /// the track. A voice that ended, or whose channel or voice another sound took, is left
    /// alone.
    pub fn stop_voice(&mut self, voice: Voice, fade: Fade) {
        self.con.synth.stop_voice(voice, fade);
    }

    /// Whether `voice` still plays (fading out included; a music clip waiting out a gap
    /// before it starts counts as playing).
    pub fn is_voice_playing(&self, voice: Voice) -> bool {
        self.con.synth.is_playing(voice)
    }
}
