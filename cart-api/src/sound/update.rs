//! What carts call from `init` and `update` to make sound. Every call takes effect at the tick
//! it is made: the host makes this update's samples right after the cart's `update` returns.

use super::{
    Channel, ChannelState, Fade, Music, MusicId, MusicStart, PlayError, Sfx, SfxId, SoundBank,
    SoundError, SoundFile, SoundFileError, Voice,
};
use crate::assets::{AssetError, AssetErrorKind};
use crate::Update;

/// Sound: sound effects and tunes held by the console, played on four channels.
///
/// ```
/// use bt::host::Console;
/// use bt::sound::{Channel, Music, Note, Sfx, Wave};
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// let beep = ctx.add_sfx(Sfx::new(6, vec![Note::new(57, Wave::Sine, 5)]))?;
/// let tune = ctx.add_music(Music::patterns(vec![[Some(beep), None, None, None]], Some(0)))?;
/// ctx.play_music(tune)?;
/// let blip = ctx.play_sfx(beep, None)?;
/// assert_eq!(blip.channel(), Some(Channel::TWO), "the tune plays on the first");
/// con.step_sound(); // the host, after each update
/// assert_eq!(con.drain_samples().len(), 735, "44,100 Hz at 60 updates a second");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Update<'_> {
    /// Gives the console a sound effect to play, usually in `init`.
    ///
    /// # Errors
    /// [`SoundError`] when the effect breaks a limit ([`Sfx::validate`]).
    pub fn add_sfx(&mut self, sfx: Sfx) -> Result<SfxId, SoundError> {
        self.con.synth.add_sfx(sfx)
    }

    /// Reads the sound file at `path` (a relative path is looked up in the cart's asset
    /// folder, as for [`Update::load_image`]) and gives the console its sounds. See
    /// [`SoundFile`] for the format.
    ///
    /// Loading the same `path` again (as a cart's `reload` does) replaces that file's whole
    /// set: sounds no longer in the file are gone, the old bank's ids name nothing, and what
    /// was playing them stops. Sounds of other files and of [`Update::add_sfx`] stay. A file
    /// that fails to load changes nothing.
    ///
    /// # Errors
    /// [`SoundFileError`]: a missing or unreadable file, or a line that breaks the format
    /// (naming the file, line and field).
    pub fn load_sounds(&mut self, path: &str) -> Result<SoundBank, SoundFileError> {
        let loader = self.con.loader.0.as_ref();
        let bytes = loader
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .read(path)
            .map_err(|e| e.reading("sound file"))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| AssetError::new(path, AssetErrorKind::Read(e.to_string())))?;
        self.decode_sounds(path, &text)
    }

    /// Like [`Update::load_sounds`] for text already in memory, such as a file built into the
    /// cart with `include_str!`; `name` is used in errors and names the set a later call with
    /// the same `name` replaces.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut ctx = con.update_context(0);
    /// let bank = ctx.decode_sounds("coin.txt", "bt-sound 2\nsfx coin 6\nB5 sq 5\nE6 sq 5 slide\n")?;
    /// let coin = ctx.play_sfx(bank.sfx("coin").unwrap(), None).unwrap();
    /// assert_eq!(coin.channel(), Some(bt::sound::Channel::ONE));
    /// let err = ctx.decode_sounds("bad.txt", "bt-sound 2\nsfx a 6\nH4 sq 5\n").unwrap_err();
    /// assert_eq!(err.to_string(), "bad.txt:3: pitch: \"H4\" is not a note name (C4, F#3, ...)");
    /// # Ok::<(), bt::sound::SoundFileError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Update::load_sounds`].
    pub fn decode_sounds(&mut self, name: &str, text: &str) -> Result<SoundBank, SoundFileError> {
        SoundFile::parse(name, text)?.add_to(name, &mut self.con.synth)
    }

    /// Gives the console a tune, whose patterns or sequences name sound effects it already
    /// holds. Empty patterns and empty channels are allowed.
    ///
    /// # Errors
    /// [`SoundError`] for an unknown sound effect or a loop start past the last pattern.
    pub fn add_music(&mut self, music: Music) -> Result<MusicId, SoundError> {
        self.con.synth.add_music(music)
    }

    /// Plays `sfx` from its first note on `channel`, or with `None` on the first channel that
    /// plays nothing (else the first the tune holds, channels it reserved aside). Returns its
    /// [`Voice`] ([`Voice::channel`] says which channel it took).
    ///
    /// # Errors
    /// [`PlayError::UnknownSfx`] for an id this console does not hold, and
    /// [`PlayError::NoFreeChannel`] when every open channel plays a sound effect.
    pub fn play_sfx(&mut self, sfx: SfxId, channel: Option<Channel>) -> Result<Voice, PlayError> {
        self.con.synth.play(sfx, channel)
    }

    /// Plays `len` notes of `sfx` from note `offset` (counting from 0), on `channel` as
    /// [`Update::play_sfx`] picks it: PICO-8's `sfx(n, channel, offset, length)`. With `len`
    /// `None` it plays to the end (and for ever when the sound loops); a length counts the
    /// notes played, loops included.
    ///
    /// # Errors
    /// As [`Update::play_sfx`], [`PlayError::NoteOffset`] when `offset` is past the sound's
    /// last note, and [`PlayError::NoNotes`] when `len` is `Some(0)`.
    pub fn play_sfx_notes(
        &mut self,
        sfx: SfxId,
        channel: Option<Channel>,
        offset: usize,
        len: Option<usize>,
    ) -> Result<Voice, PlayError> {
        self.con.synth.play_notes(sfx, channel, offset, len)
    }

    /// Fades out whatever `channel` plays along `fade`, then silences it (a sound effect or a
    /// tune's note; with [`Fade::INSTANT`] it still falls to silence over 1/240 s rather than
    /// clicking).
    pub fn stop_channel(&mut self, channel: Channel, fade: Fade) {
        self.con.synth.stop_channel(channel, fade);
    }

    /// Starts `music` from its first pattern (or the start of every channel's sequence),
    /// replacing any tune playing. Channels playing a sound effect keep it; the tune takes them
    /// at its next pattern (or that channel's next sound) once they are free. Returns the
    /// tune's [`Voice`]: its pitch, volume and pan apply to every channel the tune holds.
    ///
    /// # Errors
    /// [`PlayError::UnknownMusic`] for an id this console does not hold.
    pub fn play_music(&mut self, music: MusicId) -> Result<Voice, PlayError> {
        self.con.synth.play_music(music)
    }

    /// Starts `music` as [`Update::play_music`] does, rising from silence along
    /// `start.fade_in` and keeping `start.reserved` channels for it while it plays (PICO-8's
    /// `music(n, fade_len, channel_mask)`).
    ///
    /// # Errors
    /// As [`Update::play_music`].
    pub fn play_music_with(
        &mut self,
        music: MusicId,
        start: MusicStart,
    ) -> Result<Voice, PlayError> {
        self.con.synth.play_music_with(music, start)
    }

    /// Fades all music out along `fade`, then stops it: the tune (silencing the channels it
    /// held) and the music clips (PICO-8's `music(-1, fade_len)`). [`Fade::INSTANT`] stops
    /// it at once.
    pub fn stop_music(&mut self, fade: Fade) {
        self.con.synth.stop_music(fade);
    }

    /// Whether any music plays: a tune, or a music clip (one fading out included).
    pub fn is_music_playing(&self) -> bool {
        self.con.synth.is_music_playing()
    }

    /// The tune playing and which pattern, if any (for a tune of sequences, the place in its
    /// list of the lowest-numbered channel still playing).
    pub fn music_pattern(&self) -> Option<(MusicId, usize)> {
        self.con.synth.music_pattern()
    }

    /// Sets `channel`'s volume, 0 (silent) to 255 (full, the default), for every sound it
    /// plays from now on (a [`Voice`]'s own volume, [`Update::set_voice_volume`], multiplies
    /// it); [`Update::channel_volume`] reads it back.
    pub fn set_channel_volume(&mut self, channel: Channel, volume: u8) {
        self.con.synth.set_volume(channel, volume);
    }

    /// `channel`'s volume, 0 (silent) to 255 (full).
    pub fn channel_volume(&self, channel: Channel) -> u8 {
        self.con.synth.volume(channel)
    }

    /// Sets `channel`'s pan: -127 hard left, 0 the centre (the default), 127 hard right, by
    /// the pan law of [`pan_gains`](super::pan_gains) (at the centre both sides play it at
    /// full level, so a cart that never pans sounds as in mono); [`Update::channel_pan`] reads
    /// it back. A [`Voice`]'s own pan ([`Update::set_voice_pan`]) is added to it.
    pub fn set_channel_pan(&mut self, channel: Channel, pan: super::Pan) {
        self.con.synth.set_pan(channel, pan);
    }

    /// `channel`'s pan, -127 (hard left) to 127 (hard right).
    pub fn channel_pan(&self, channel: Channel) -> super::Pan {
        self.con.synth.pan(channel)
    }

    /// What `channel` is playing.
    pub fn channel_state(&self, channel: Channel) -> ChannelState {
        self.con.synth.channel(channel)
    }
}
