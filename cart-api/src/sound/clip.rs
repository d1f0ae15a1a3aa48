//! Sample clips: recorded sounds (WAV, Ogg Vorbis) played on a pool of voices beside the
//! synthesiser's four channels, on the same sample clock.
//!
//! The host decodes a clip's file into 16-bit frames once ([`DecodedClip`]); the console keeps
//! them behind an [`Arc`] (a snapshot shares them) and plays them with integer arithmetic
//! only: the position in the clip is a 32.32 fixed-point number of frames, the step its rate
//! over the console's times the pitch in 16.16, and the sample between two frames is a straight
//! line between them worked out in integers. So a clip is the same samples on every machine,
//! at any update rate, after a seek and in a replay.

use std::sync::Arc;

use super::bus::{Bus, BUSES};
use super::fade::progress;
use super::stereo::{pan_gains, Frame, Pan};
use super::voice::{PlayError, Voice, VoiceKind};
use crate::Easing;

/// Voices the clip pool plays at once. A ninth clip takes a voice from one already playing (see
/// [`crate::Update::play_clip`] for which), or is refused.
pub const CLIP_VOICES: usize = 8;
/// The longest clip, in frames: a minute at 48,000 Hz (11 MB decoded). Longer sounds are
/// music, better made with the synthesiser or split; a longer file is refused with its length.
pub const MAX_CLIP_FRAMES: u64 = 60 * 48_000;
/// The largest clip file read: 16 MiB (a minute of 48 kHz 16-bit stereo WAV is 11 MB).
pub const MAX_CLIP_FILE: u64 = 16 << 20;
/// The sample rates a clip may have, in frames a second.
pub const CLIP_RATES: std::ops::RangeInclusive<u32> = 1_000..=192_000;
/// The lowest and highest pitch a voice plays at, as a ratio of its own: a sixteenth and
/// sixteen times (four octaves down and up). A clip's pitch is also its speed.
pub const PITCH_RATIOS: std::ops::RangeInclusive<f32> = 0.0625..=16.0;

/// A sound file decoded by the host: its rate and its frames, left and right (a mono file has
/// both sides equal). What [`crate::host::ImageLoader::decode_clip`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedClip {
    /// Frames a second, within [`CLIP_RATES`].
    pub rate: u32,
    /// The frames, at most [`MAX_CLIP_FRAMES`].
    pub frames: Vec<Frame>,
}

/// A clip the console holds, from [`crate::Update::load_clip`] or
/// [`crate::Update::decode_clip`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClipId(pub(crate) u32);

/// How to play a clip: `ClipOptions::default()` plays it once, as recorded, centred.
///
/// ```
/// use bt::sound::ClipOptions;
///
/// let engine = ClipOptions { looping: true, pitch: 0.5, pan: -64, ..ClipOptions::default() };
/// assert_eq!(engine.volume, 255);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClipOptions {
    /// 0 (silent) to 255 (as recorded, the default).
    pub volume: u8,
    /// The playback rate: 1 as recorded (the default), 2 an octave up and twice as fast, 0.5 an
    /// octave down; clamped to [`PITCH_RATIOS`] (a value that is not a number counts as 1). It
    /// is turned into a 16.16 fixed-point ratio once, when the clip starts (or when
    /// [`crate::Update::set_voice_pitch`] changes it).
    pub pitch: f32,
    /// -127 hard left, 0 centred (the default), 127 hard right, by the pan law of
    /// [`pan_gains`](crate::sound::pan_gains).
    pub pan: Pan,
    /// Starts again from the first frame at the end, until stopped.
    pub looping: bool,
    /// Which clip keeps its voice when every voice plays: higher wins (0, the default, is the
    /// lowest).
    pub priority: u8,
    /// The bus it plays through: [`Bus::Sfx`] (the default, and what lowers the music while
    /// ducking is set), [`Bus::Music`] for a recorded tune, or [`Bus::Main`] for a sound no
    /// bus but the master volume should touch.
    pub bus: Bus,
}

impl Default for ClipOptions {
    fn default() -> ClipOptions {
        ClipOptions {
            volume: 255,
            pitch: 1.0,
            pan: 0,
            looping: false,
            priority: 0,
            bus: Bus::Sfx,
        }
    }
}

/// A held clip: its rate, frames, and what it was made from (for the cache). A copy shares
/// the frames.
#[derive(Debug, Clone)]
pub(crate) struct Clip {
    name: String,
    digest: u64,
    rate: u32,
    frames: Arc<[Frame]>,
}

/// FNV-1a over the bytes a clip was decoded from: the same name and bytes give the clip already
/// held, without decoding again.
pub(crate) fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The clips a console holds, shared with its snapshots.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClipBank {
    clips: Arc<Vec<Clip>>,
}

impl ClipBank {
    /// The clip decoded from `digest`'s bytes under `name`, if held.
    pub(crate) fn find(&self, name: &str, digest: u64) -> Option<ClipId> {
        self.clips
            .iter()
            .position(|c| c.name == name && c.digest == digest)
            .map(|i| ClipId(i as u32))
    }

    /// Holds `clip`, which the caller has checked, and returns its id.
    pub(crate) fn add(&mut self, name: &str, digest: u64, clip: DecodedClip) -> ClipId {
        let id = ClipId(self.clips.len() as u32);
        Arc::make_mut(&mut self.clips).push(Clip {
            name: name.to_string(),
            digest,
            rate: clip.rate,
            frames: clip.frames.into(),
        });
        id
    }

    pub(crate) fn clear(&mut self) {
        match Arc::get_mut(&mut self.clips) {
            Some(list) => list.clear(),
            None => self.clips = Arc::default(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.clips.len()
    }

    /// The rate and frames of clip `id`, if held.
    pub(crate) fn get(&self, id: u32) -> Option<(u32, &[Frame])> {
        self.clips
            .get(id as usize)
            .map(|c| (c.rate, c.frames.as_ref()))
    }
}

/// One voice of the pool.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The clip playing, if any.
    clip: Option<u32>,
    /// Where in the clip, in frames, 32.32 fixed point.
    pos: u64,
    /// What `pos` moves a sample of output.
    step: u64,
    /// Left and right gain: volume and pan, out of 65,536.
    gain: [i64; 2],
    /// The volume and pan the gain was made from.
    volume: u8,
    pan: Pan,
    looping: bool,
    priority: u8,
    bus: Bus,
    /// Which start this is, counted from boot: the handle's check, and the age for stealing.
    serial: u32,
    /// Samples of fade left, and the fade's length (0: not fading), along `easing`.
    fade_left: u32,
    fade_len: u32,
    easing: Easing,
}

/// The clip voices: what plays, where, and how loud.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ClipPool {
    slots: [Slot; CLIP_VOICES],
    /// Starts since boot.
    serial: u32,
}

/// The pitch as a 16.16 ratio: basic IEEE operations only (a product, a rounding), so the same
/// on every machine.
pub(crate) fn pitch_q16(pitch: f32) -> u64 {
    let pitch = if pitch.is_nan() { 1.0 } else { pitch };
    let pitch = pitch.clamp(*PITCH_RATIOS.start(), *PITCH_RATIOS.end());
    (pitch * 65_536.0).round() as u64
}

/// What a voice's place in its clip moves a sample of output: the clip's rate over the
/// console's, times the pitch (16.16), in 32.32 frames.
pub(crate) fn clip_step(clip_rate: u32, pitch: u64, rate: u32) -> u64 {
    let step = (u128::from(clip_rate) << 32) * u128::from(pitch) / (u128::from(rate.max(1)) << 16);
    step.min(u128::from(u64::MAX)) as u64
}

/// Left and right gains out of 65,536 for `volume` (255 is as recorded) at `pan`.
pub(crate) fn clip_gain(volume: u8, pan: Pan) -> [i64; 2] {
    let volume = i64::from(volume) + i64::from(volume >> 7);
    pan_gains(pan).map(|side| volume * side)
}

/// A fading voice's sample: `v` at the fade's place, `left` of `len` samples to go.
pub(crate) fn faded(v: i64, left: u32, len: u32, easing: Easing) -> i64 {
    let (num, den) = progress(easing, u64::from(len - left), u64::from(len));
    v * (den - num) / den
}

/// A voice fading in: `v` at the fade's place, `left` of `len` samples to go.
pub(crate) fn risen(v: i64, left: u32, len: u32, easing: Easing) -> i64 {
    let (num, den) = progress(easing, u64::from(len - left), u64::from(len));
    v * num / den
}

impl ClipPool {
    /// Starts `clip` (`id` in `bank`) at the console's `rate`; an error for an unknown clip or
    /// when every voice plays a clip of higher priority. The voice taken: a free one (the lowest), else the one of
    /// lowest priority, the earliest started among equals, if its priority is at most
    /// `options.priority`.
    pub(crate) fn play(
        &mut self,
        bank: &ClipBank,
        id: ClipId,
        options: ClipOptions,
        rate: u32,
    ) -> Result<Voice, PlayError> {
        let clip = bank
            .clips
            .get(id.0 as usize)
            .ok_or(PlayError::UnknownClip(id.0))?;
        let refused = PlayError::NoFreeVoice {
            clip: id.0,
            priority: options.priority,
        };
        let slot = match self.slots.iter().position(|s| s.clip.is_none()) {
            Some(free) => free,
            None => {
                let (i, weakest) = self
                    .slots
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, s)| (s.priority, s.serial))
                    .ok_or(refused.clone())?;
                if weakest.priority > options.priority {
                    return Err(refused);
                }
                i
            }
        };
        self.serial = self.serial.wrapping_add(1);
        self.slots[slot] = Slot {
            clip: Some(id.0),
            pos: 0,
            step: clip_step(clip.rate, pitch_q16(options.pitch), rate),
            gain: clip_gain(options.volume, options.pan),
            volume: options.volume,
            pan: options.pan,
            looping: options.looping,
            priority: options.priority,
            bus: options.bus,
            serial: self.serial,
            fade_left: 0,
            fade_len: 0,
            easing: Easing::Linear,
        };
        Ok(Voice {
            kind: VoiceKind::Clip,
            slot: slot as u8,
            serial: self.serial,
        })
    }

    fn slot(&mut self, voice: Voice) -> Option<&mut Slot> {
        self.slots.get_mut(usize::from(voice.slot)).filter(|s| {
            voice.kind == VoiceKind::Clip && s.clip.is_some() && s.serial == voice.serial
        })
    }

    /// Fades `voice` out over `samples` along `easing` (at once for 0); a fade already
    /// running that would end sooner is kept.
    pub(crate) fn stop(&mut self, voice: Voice, samples: u32, easing: Easing) {
        let Some(slot) = self.slot(voice) else { return };
        if samples == 0 {
            slot.clip = None;
        } else if slot.fade_len == 0 {
            slot.fade_left = samples;
            slot.fade_len = samples;
            slot.easing = easing;
        } else if slot.fade_left > samples {
            // Sooner, from the level the running fade has reached.
            let len = u64::from(samples) * u64::from(slot.fade_len) / u64::from(slot.fade_left);
            slot.fade_left = samples;
            slot.fade_len = len.max(1) as u32;
        }
    }

    pub(crate) fn is_playing(&self, voice: Voice) -> bool {
        voice.kind == VoiceKind::Clip
            && self
                .slots
                .get(usize::from(voice.slot))
                .is_some_and(|s| s.clip.is_some() && s.serial == voice.serial)
    }

    /// Plays `voice` at `pitch` (16.16) from its next sample, `bank` giving its clip's rate.
    pub(crate) fn set_pitch(&mut self, bank: &ClipBank, voice: Voice, pitch: u64, rate: u32) {
        let Some(slot) = self.slot(voice) else { return };
        if let Some((clip_rate, _)) = slot.clip.and_then(|c| bank.get(c)) {
            slot.step = clip_step(clip_rate, pitch, rate);
        }
    }

    /// Sets `voice`'s volume and pan (each when given) from its next sample.
    pub(crate) fn set_mix(&mut self, voice: Voice, volume: Option<u8>, pan: Option<Pan>) {
        let Some(slot) = self.slot(voice) else { return };
        slot.volume = volume.unwrap_or(slot.volume);
        slot.pan = pan.unwrap_or(slot.pan);
        slot.gain = clip_gain(slot.volume, slot.pan);
    }

    /// Voices playing.
    #[cfg(test)]
    pub(crate) fn playing(&self) -> usize {
        self.slots.iter().filter(|s| s.clip.is_some()).count()
    }

    /// Whether any voice plays.
    pub(crate) fn any(&self) -> bool {
        self.slots.iter().any(|s| s.clip.is_some())
    }

    /// Whether any voice plays through `bus`.
    pub(crate) fn any_on(&self, bus: Bus) -> bool {
        self.slots.iter().any(|s| s.clip.is_some() && s.bus == bus)
    }

    /// Adds the next output sample of every voice to its bus's entry of `mix` (left, right, in
    /// the synthesiser's mix units, twice a sample's) and moves each on.
    pub(crate) fn mix(&mut self, bank: &ClipBank, mix: &mut [[i64; 2]; BUSES]) {
        for slot in &mut self.slots {
            let Some(clip) = slot.clip else { continue };
            let frames = &bank.clips[clip as usize].frames;
            let len = frames.len() as u64;
            let at = slot.pos >> 32;
            if at >= len {
                slot.clip = None;
                continue;
            }
            let a = frames[at as usize];
            let b = match frames.get(at as usize + 1) {
                Some(&b) => b,
                None if slot.looping => frames[0],
                None => a,
            };
            let frac = ((slot.pos >> 16) & 0xffff) as i64;
            for side in 0..2 {
                let (a, b) = (i64::from(a[side]), i64::from(b[side]));
                let s = a + (((b - a) * frac) >> 16);
                let mut v = (s * slot.gain[side]) >> 15;
                if slot.fade_len > 0 {
                    v = faded(v, slot.fade_left, slot.fade_len, slot.easing);
                }
                mix[slot.bus.index()][side] += v;
            }
            if slot.fade_len > 0 {
                slot.fade_left -= 1;
                if slot.fade_left == 0 {
                    slot.clip = None;
                    continue;
                }
            }
            slot.pos = slot.pos.wrapping_add(slot.step);
            if slot.pos >> 32 >= len {
                if slot.looping {
                    slot.pos %= len << 32;
                } else {
                    slot.clip = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank(frames: Vec<Frame>, rate: u32) -> (ClipBank, ClipId) {
        let mut bank = ClipBank::default();
        let id = bank.add("t", 0, DecodedClip { rate, frames });
        (bank, id)
    }

    fn run(pool: &mut ClipPool, bank: &ClipBank, n: usize) -> Vec<[i64; 2]> {
        (0..n)
            .map(|_| {
                let mut m = [[0; 2]; BUSES];
                pool.mix(bank, &mut m);
                m[Bus::Sfx.index()]
            })
            .collect()
    }

    #[test]
    fn a_clip_at_the_consoles_rate_plays_its_frames_as_recorded_at_twice_the_mix_scale() {
        let frames: Vec<Frame> = vec![[100, -100], [2000, 7], [-32_768, 32_767]];
        let (bank, id) = bank(frames.clone(), 44_100);
        let mut pool = ClipPool::default();
        let voice = pool
            .play(&bank, id, ClipOptions::default(), 44_100)
            .unwrap();
        let out = run(&mut pool, &bank, 4);
        for (got, want) in out.iter().zip(&frames) {
            assert_eq!(*got, [2 * i64::from(want[0]), 2 * i64::from(want[1])]);
        }
        assert_eq!(out[3], [0, 0], "then silence");
        assert!(!pool.is_playing(voice), "a clip played once ends");
    }

    #[test]
    fn half_pitch_draws_a_straight_line_between_frames() {
        let (bank, id) = bank(vec![[0, 0], [1000, -1000]], 8_000);
        let mut pool = ClipPool::default();
        let options = ClipOptions {
            pitch: 0.5,
            ..ClipOptions::default()
        };
        pool.play(&bank, id, options, 8_000).unwrap();
        let out = run(&mut pool, &bank, 4);
        assert_eq!(out, [[0, 0], [1000, -1000], [2000, -2000], [2000, -2000]]);
    }

    #[test]
    fn a_full_pool_takes_the_oldest_voice_of_lowest_priority_or_refuses() {
        let (bank, id) = bank(vec![[1, 1]; 1000], 44_100);
        let mut pool = ClipPool::default();
        let play = |pool: &mut ClipPool, priority| {
            pool.play(
                &bank,
                id,
                ClipOptions {
                    priority,
                    ..ClipOptions::default()
                },
                44_100,
            )
        };
        let voices: Vec<Voice> = (0..CLIP_VOICES)
            .map(|i| play(&mut pool, if i == 0 { 5 } else { 1 }).unwrap())
            .collect();
        assert_eq!(
            play(&mut pool, 0),
            Err(PlayError::NoFreeVoice {
                clip: 0,
                priority: 0
            }),
            "every voice matters more"
        );
        let taken = play(&mut pool, 1).unwrap();
        assert!(!pool.is_playing(voices[1]), "the oldest of priority 1 went");
        assert!(pool.is_playing(voices[0]) && pool.is_playing(taken));
        assert_eq!(pool.playing(), CLIP_VOICES);
    }

    #[test]
    fn a_stop_fades_to_silence_over_its_samples_then_frees_the_voice() {
        let (bank, id) = bank(vec![[1000, 1000]; 100], 44_100);
        let mut pool = ClipPool::default();
        let voice = pool
            .play(&bank, id, ClipOptions::default(), 44_100)
            .unwrap();
        pool.stop(voice, 4, Easing::Linear);
        let out = run(&mut pool, &bank, 5);
        assert_eq!(
            out.iter().map(|m| m[0]).collect::<Vec<_>>(),
            [2000, 1500, 1000, 500, 0]
        );
        assert!(!pool.is_playing(voice));
    }

    #[test]
    fn a_looping_clip_wraps_to_its_first_frame() {
        let (bank, id) = bank(vec![[1, 1], [2, 2], [3, 3]], 1_000);
        let mut pool = ClipPool::default();
        let options = ClipOptions {
            looping: true,
            ..ClipOptions::default()
        };
        let voice = pool.play(&bank, id, options, 1_000).unwrap();
        let out = run(&mut pool, &bank, 7);
        assert_eq!(
            out.iter().map(|m| m[0]).collect::<Vec<_>>(),
            [2, 4, 6, 2, 4, 6, 2]
        );
        assert!(pool.is_playing(voice));
    }
}
