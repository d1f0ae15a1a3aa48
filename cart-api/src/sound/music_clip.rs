//! Music from clips: a recorded track that plays an intro once and then loops the rest, on two
//! voices of its own, so one track fades out while the next fades in.
//!
//! The two music voices are apart from the clip pool (they never take one of its
//! [`CLIP_VOICES`](super::CLIP_VOICES)) and play through [`Bus::Music`], so the music bus's
//! volume, fades, mute and ducking apply to them. They keep their place and fades in the
//! synthesiser, counted in samples, so a snapshot, a seek and a replay hear the same.

use std::time::Duration;

use super::bus::{Bus, BUSES};
use super::clip::{ClipBank, ClipId};
use super::SoundError;

/// How to play a clip as music, for [`crate::Update::play_music_clip`].
///
/// ```
/// use std::time::Duration;
///
/// use bt::sound::MusicClip;
///
/// // An intro of 88,200 frames (two seconds at 44.1 kHz), then the rest loops; the track
/// // playing before fades out over half a second while this one fades in.
/// let theme = MusicClip {
///     loop_start: Some(88_200),
///     crossfade: Duration::from_millis(500),
///     ..MusicClip::default()
/// };
/// assert_eq!(theme.volume, 255);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MusicClip {
    /// The frame the track loops back to after its last frame: the frames before it are an
    /// intro heard once. `None` (the default) plays the clip once.
    pub loop_start: Option<u64>,
    /// How long the track playing before fades out while this one fades in from silence
    /// (`Duration::ZERO`, the default: the old one stops and this one starts at once).
    pub crossfade: Duration,
    /// 0 (silent) to 255 (as recorded, the default).
    pub volume: u8,
}

impl Default for MusicClip {
    fn default() -> MusicClip {
        MusicClip {
            loop_start: None,
            crossfade: Duration::ZERO,
            volume: 255,
        }
    }
}

/// A fade on a music voice: samples left and its length (none while `len` is 0).
#[derive(Debug, Clone, Copy, Default)]
struct Ramp {
    left: u32,
    len: u32,
}

impl Ramp {
    fn new(len: u32) -> Ramp {
        Ramp { left: len, len }
    }

    fn is_on(&self) -> bool {
        self.len > 0
    }
}

/// One music voice.
#[derive(Debug, Clone, Copy, Default)]
struct Track {
    /// The clip playing, if any.
    clip: Option<u32>,
    /// Where in the clip, in frames, 32.32 fixed point; always before its last frame's end.
    pos: u64,
    /// What `pos` moves a sample of output: the clip's rate over the console's.
    step: u64,
    loop_start: Option<u64>,
    /// Gain out of 65,536 (the volume; music is centred).
    gain: i64,
    fade_in: Ramp,
    fade_out: Ramp,
}

/// The two music voices, and which holds the current track.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MusicVoices {
    tracks: [Track; 2],
    current: usize,
}

impl MusicVoices {
    /// Starts `id` as the current track; the track playing before fades out over `crossfade`
    /// samples while this one fades in over them. A track still fading out from an earlier
    /// change stops at once (its voice is needed).
    pub(crate) fn play(
        &mut self,
        bank: &ClipBank,
        id: ClipId,
        options: MusicClip,
        crossfade: u32,
        rate: u32,
    ) -> Result<(), SoundError> {
        let (clip_rate, frames) = bank.get(id.0).ok_or(SoundError::UnknownClip(id.0))?;
        let frames = frames.len() as u64;
        if let Some(start) = options.loop_start {
            if start >= frames {
                return Err(SoundError::PastClipEnd {
                    what: "loop_start",
                    frame: start,
                    frames,
                });
            }
        }
        let old = &mut self.tracks[self.current];
        stop(old, crossfade);
        self.current = 1 - self.current;
        let step = (u128::from(clip_rate) << 32) / u128::from(rate.max(1));
        let volume = i64::from(options.volume) + i64::from(options.volume >> 7);
        self.tracks[self.current] = Track {
            clip: Some(id.0),
            pos: 0,
            step: step.min(u128::from(u64::MAX)) as u64,
            loop_start: options.loop_start,
            gain: volume * 256,
            fade_in: Ramp::new(crossfade),
            fade_out: Ramp::default(),
        };
        Ok(())
    }

    /// Fades both voices out over `samples` (at once for 0).
    pub(crate) fn stop(&mut self, samples: u32) {
        for track in &mut self.tracks {
            stop(track, samples);
        }
    }

    /// The current track's clip and frame, while it plays (fading out included).
    pub(crate) fn position(&self) -> Option<(ClipId, u64)> {
        let track = &self.tracks[self.current];
        track.clip.map(|clip| (ClipId(clip), track.pos >> 32))
    }

    /// Moves the current track to `frame`; nothing when no track plays.
    pub(crate) fn seek(&mut self, bank: &ClipBank, frame: u64) -> Result<(), SoundError> {
        let track = &mut self.tracks[self.current];
        let Some(clip) = track.clip else {
            return Ok(());
        };
        let frames = bank.get(clip).map_or(0, |(_, f)| f.len() as u64);
        if frame >= frames {
            return Err(SoundError::PastClipEnd {
                what: "seek_music_clip",
                frame,
                frames,
            });
        }
        track.pos = frame << 32;
        Ok(())
    }

    /// Whether either voice plays.
    pub(crate) fn any(&self) -> bool {
        self.tracks.iter().any(|t| t.clip.is_some())
    }

    /// Adds the next output sample of both voices to the music bus's entry of `mix` (in the
    /// synthesiser's mix units, twice a sample's) and moves them on.
    pub(crate) fn mix(&mut self, bank: &ClipBank, mix: &mut [[i64; 2]; BUSES]) {
        for track in &mut self.tracks {
            let Some(clip) = track.clip else { continue };
            let Some((_, frames)) = bank.get(clip) else {
                track.clip = None;
                continue;
            };
            let len = frames.len() as u64;
            let at = (track.pos >> 32) as usize;
            let Some(&a) = frames.get(at) else {
                track.clip = None;
                continue;
            };
            let b = match (frames.get(at + 1), track.loop_start) {
                (Some(&b), _) => b,
                (None, Some(start)) => frames[start as usize],
                (None, None) => a,
            };
            let frac = ((track.pos >> 16) & 0xffff) as i64;
            for side in 0..2 {
                let (a, b) = (i64::from(a[side]), i64::from(b[side]));
                let s = a + (((b - a) * frac) >> 16);
                let mut v = (s * track.gain) >> 15;
                if track.fade_in.is_on() {
                    let Ramp { left, len } = track.fade_in;
                    v = v * i64::from(len - left) / i64::from(len);
                }
                if track.fade_out.is_on() {
                    let Ramp { left, len } = track.fade_out;
                    v = v * i64::from(left) / i64::from(len);
                }
                mix[Bus::Music.index()][side] += v;
            }
            if track.fade_in.is_on() {
                track.fade_in.left -= 1;
                if track.fade_in.left == 0 {
                    track.fade_in = Ramp::default();
                }
            }
            if track.fade_out.is_on() {
                track.fade_out.left -= 1;
                if track.fade_out.left == 0 {
                    track.clip = None;
                    continue;
                }
            }
            track.pos = track.pos.wrapping_add(track.step);
            if track.pos >> 32 >= len {
                match track.loop_start {
                    Some(start) => {
                        let from = start << 32;
                        track.pos = from + (track.pos - from) % ((len - start) << 32);
                    }
                    None => track.clip = None,
                }
            }
        }
    }
}

/// Fades `track` out over `samples` (at once for 0); a fade already running that would end
/// sooner is kept, and a sooner one goes on from the level the running one has reached.
fn stop(track: &mut Track, samples: u32) {
    if track.clip.is_none() {
        return;
    }
    let out = &mut track.fade_out;
    if samples == 0 {
        track.clip = None;
    } else if !out.is_on() {
        *out = Ramp::new(samples);
    } else if out.left > samples {
        let len = u64::from(samples) * u64::from(out.len) / u64::from(out.left);
        *out = Ramp {
            left: samples,
            len: len.max(1) as u32,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sound::{DecodedClip, Frame};

    fn bank(clips: &[Vec<Frame>]) -> ClipBank {
        let mut bank = ClipBank::default();
        for frames in clips {
            bank.add(
                "t",
                0,
                DecodedClip {
                    rate: 1_000,
                    frames: frames.clone(),
                },
            );
        }
        bank
    }

    fn run(voices: &mut MusicVoices, bank: &ClipBank, n: usize) -> Vec<i64> {
        (0..n)
            .map(|_| {
                let mut m = [[0; 2]; BUSES];
                voices.mix(bank, &mut m);
                m[Bus::Music.index()][0]
            })
            .collect()
    }

    #[test]
    fn an_intro_plays_once_then_the_loop_repeats_without_a_gap() {
        let bank = bank(&[vec![[1, 1], [2, 2], [3, 3], [4, 4]]]);
        let mut voices = MusicVoices::default();
        let options = MusicClip {
            loop_start: Some(2),
            ..MusicClip::default()
        };
        voices.play(&bank, ClipId(0), options, 0, 1_000).unwrap();
        assert_eq!(
            run(&mut voices, &bank, 8),
            [2, 4, 6, 8, 6, 8, 6, 8],
            "mix units are twice a sample"
        );
        assert_eq!(voices.position(), Some((ClipId(0), 2)));
    }

    #[test]
    fn a_crossfade_hands_over_linearly_and_the_gains_add_up_to_full() {
        let bank = bank(&[vec![[1000, 1000]; 20], vec![[-1000, -1000]; 20]]);
        let mut voices = MusicVoices::default();
        voices
            .play(&bank, ClipId(0), MusicClip::default(), 0, 1_000)
            .unwrap();
        voices
            .play(&bank, ClipId(1), MusicClip::default(), 4, 1_000)
            .unwrap();
        // Old 4/4, 3/4, 2/4, 1/4 of 2000; new 0/4, 1/4, 2/4, 3/4 of -2000; then the new alone.
        assert_eq!(
            run(&mut voices, &bank, 6),
            [2000, 1000, 0, -1000, -2000, -2000]
        );
        assert_eq!(voices.position(), Some((ClipId(1), 6)));
    }

    #[test]
    fn a_loop_start_or_seek_past_the_end_is_refused_with_the_frame() {
        let bank = bank(&[vec![[0, 0]; 10]]);
        let mut voices = MusicVoices::default();
        let options = MusicClip {
            loop_start: Some(10),
            ..MusicClip::default()
        };
        let err = voices
            .play(&bank, ClipId(0), options, 0, 1_000)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "music clip: loop_start 10 is past the clip's last frame (it has 10 frames)"
        );
        assert_eq!(
            voices.play(&bank, ClipId(3), MusicClip::default(), 0, 1_000),
            Err(SoundError::UnknownClip(3))
        );
        voices
            .play(&bank, ClipId(0), MusicClip::default(), 0, 1_000)
            .unwrap();
        assert!(voices.seek(&bank, 12).is_err());
        voices.seek(&bank, 9).unwrap();
        assert_eq!(voices.position(), Some((ClipId(0), 9)));
    }
}
