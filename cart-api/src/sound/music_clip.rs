//! Music from clips: a recorded track that plays an intro once and then loops the rest, on two
//! voices of its own, so one track fades out while the next fades in.
//!
//! The two music voices are apart from the clip pool (they never take one of its
//! [`CLIP_VOICES`](super::CLIP_VOICES)) and play through [`Bus::Music`], so the music bus's
//! volume, fades, mute and ducking apply to them. They keep their place, fades and the wait
//! before a track starts in the synthesiser, counted in samples, so a snapshot, a seek and a
//! replay hear the same.

use std::time::Duration;

use super::bus::{Bus, BUSES};
use super::clip::{clip_gain, clip_step, faded, risen, ClipBank, ClipId};
use super::fade::Fade;
use super::stereo::Pan;
use super::voice::{PlayError, Voice, VoiceKind};
use crate::Easing;

/// How to play a clip as music, for [`crate::Update::play_music_clip`]. Places in the clip
/// are samples of the clip (at its own rate), counted from its first.
///
/// ```
/// use std::time::Duration;
///
/// use bt::sound::{Fade, Join, MusicClip};
/// use bt::Easing;
///
/// // An intro of 88,200 samples (two seconds at 44.1 kHz), then the rest loops; the track
/// // playing before fades out over half a second while this one fades in, both eased.
/// let theme = MusicClip {
///     loop_start: Some(88_200),
///     crossfade: Fade::millis(500).eased(Easing::SineInOut),
///     ..MusicClip::default()
/// };
/// assert_eq!((theme.volume, theme.join), (255, Join::Cross));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MusicClip {
    /// The sample the track loops back to after its loop's end: the samples before it are an
    /// intro heard once. `None` (the default) plays the clip once.
    pub loop_start: Option<u64>,
    /// The sample the track ends at, not played: with a `loop_start` the loop goes back from
    /// here, without one the track stops here. `None` (the default): the clip's end.
    pub loop_end: Option<u64>,
    /// How the track playing before fades out and this one fades in, each over the fade's
    /// length along its easing ([`Fade::INSTANT`], the default: the old one stops at once).
    pub crossfade: Fade,
    /// When this track starts beside the old one's fade out: together (the default), after
    /// a gap, or overlapping its end. With no track playing before, it starts at once.
    pub join: Join,
    /// 0 (silent) to 255 (as recorded, the default).
    pub volume: u8,
}

impl Default for MusicClip {
    fn default() -> MusicClip {
        MusicClip {
            loop_start: None,
            loop_end: None,
            crossfade: Fade::INSTANT,
            join: Join::Cross,
            volume: 255,
        }
    }
}

/// When a new music track starts, beside the fade out of the one before (BLIT386's
/// `overlap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Join {
    /// As the old track starts to fade out: the two fades cross, and with a straight-line fade
    /// their gains add up to full at every sample.
    #[default]
    Cross,
    /// This long after the old track has faded out: a gap of silence between them.
    Gap(Duration),
    /// This long before the old track has faded out (at most the fade's length: then as
    /// [`Join::Cross`]).
    Overlap(Duration),
}

/// A fade on a music voice: samples left and its length (none while `len` is 0), along
/// `easing`.
#[derive(Debug, Clone, Copy, Default)]
struct Ramp {
    left: u32,
    len: u32,
    easing: Easing,
}

impl Ramp {
    fn new(len: u32, easing: Easing) -> Ramp {
        Ramp {
            left: len,
            len,
            easing,
        }
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
    /// Which start this is, for the handle.
    serial: u32,
    /// Samples of silence before it starts (a gap or the part of a fade before an overlap).
    wait: u32,
    /// Where in the clip, in samples, 32.32 fixed point; always before `end`.
    pos: u64,
    /// What `pos` moves a sample of output: the clip's rate over the console's, times the
    /// pitch.
    step: u64,
    loop_start: Option<u64>,
    /// The sample it loops back from or stops at.
    end: u64,
    /// Left and right gain out of 65,536: the volume and pan.
    gain: [i64; 2],
    volume: u8,
    pan: Pan,
    fade_in: Ramp,
    fade_out: Ramp,
}

/// The two music voices, and which holds the current track.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MusicVoices {
    tracks: [Track; 2],
    current: usize,
    /// Starts since boot.
    serial: u32,
}

/// Samples of a fade, a gap or an overlap: what the caller turned a duration into.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handover {
    /// The fades' length.
    pub(crate) fade: u32,
    /// Along which curve.
    pub(crate) easing: Easing,
    /// Samples after the old track's fade out ends (positive) or before (negative) that the
    /// new one starts; `None` for [`Join::Cross`].
    pub(crate) offset: Option<i64>,
}

impl MusicVoices {
    /// Starts `id` as the current track; the track playing before fades out as `handover`
    /// says while this one fades in. A track still fading out from an earlier change stops at
    /// once (its voice is needed).
    pub(crate) fn play(
        &mut self,
        bank: &ClipBank,
        id: ClipId,
        options: MusicClip,
        handover: Handover,
        rate: u32,
    ) -> Result<Voice, PlayError> {
        let (clip_rate, frames) = bank.get(id.0).ok_or(PlayError::UnknownClip(id.0))?;
        let samples = frames.len() as u64;
        let end = match options.loop_end {
            Some(end) if end > samples => {
                return Err(PlayError::PastClipEnd {
                    what: "loop_end",
                    sample: end,
                    samples,
                })
            }
            Some(end) => end,
            None => samples,
        };
        if let Some(start) = options.loop_start {
            if start >= samples {
                return Err(PlayError::PastClipEnd {
                    what: "loop_start",
                    sample: start,
                    samples,
                });
            }
            if end <= start {
                return Err(PlayError::EmptyLoop { start, end });
            }
        } else if end == 0 {
            return Err(PlayError::EmptyLoop { start: 0, end });
        }
        let old = &mut self.tracks[self.current];
        let was_playing = old.clip.is_some();
        stop(old, handover.fade, handover.easing);
        // When the old track is silent, counted from now (0 when nothing plays).
        let old_left = match old.clip {
            Some(_) if old.fade_out.is_on() => i64::from(old.wait) + i64::from(old.fade_out.left),
            _ => 0,
        };
        let wait = match handover.offset {
            Some(offset) if was_playing => (old_left + offset).clamp(0, i64::from(u32::MAX)),
            _ => 0,
        };
        self.current = 1 - self.current;
        self.serial = self.serial.wrapping_add(1);
        self.tracks[self.current] = Track {
            clip: Some(id.0),
            serial: self.serial,
            wait: wait as u32,
            pos: 0,
            step: clip_step(clip_rate, 1 << 16, rate),
            loop_start: options.loop_start,
            end,
            gain: clip_gain(options.volume, 0),
            volume: options.volume,
            pan: 0,
            fade_in: Ramp::new(handover.fade, handover.easing),
            fade_out: Ramp::default(),
        };
        Ok(Voice {
            kind: VoiceKind::MusicClip,
            slot: self.current as u8,
            serial: self.serial,
        })
    }

    /// Fades both voices out over `samples` along `easing` (at once for 0).
    pub(crate) fn stop(&mut self, samples: u32, easing: Easing) {
        for track in &mut self.tracks {
            stop(track, samples, easing);
        }
    }

    /// The track `voice` names, while that start of it plays.
    fn track(&mut self, voice: Voice) -> Option<&mut Track> {
        self.tracks
            .get_mut(usize::from(voice.slot))
            .filter(|t| names(voice, t))
    }

    /// Fades the track `voice` names out (nothing once it ended or another took its voice).
    pub(crate) fn stop_voice(&mut self, voice: Voice, samples: u32, easing: Easing) {
        if let Some(track) = self.track(voice) {
            stop(track, samples, easing);
        }
    }

    /// Whether the track `voice` names still plays (waiting or fading included).
    pub(crate) fn is_playing(&self, voice: Voice) -> bool {
        self.tracks
            .get(usize::from(voice.slot))
            .is_some_and(|t| names(voice, t))
    }

    /// Plays `voice` at `pitch` (16.16) from its next sample.
    pub(crate) fn set_pitch(&mut self, bank: &ClipBank, voice: Voice, pitch: u64, rate: u32) {
        let Some(track) = self.track(voice) else {
            return;
        };
        if let Some((clip_rate, _)) = track.clip.and_then(|c| bank.get(c)) {
            track.step = clip_step(clip_rate, pitch, rate);
        }
    }

    /// Sets `voice`'s volume and pan (each when given) from its next sample.
    pub(crate) fn set_mix(&mut self, voice: Voice, volume: Option<u8>, pan: Option<Pan>) {
        let Some(track) = self.track(voice) else {
            return;
        };
        track.volume = volume.unwrap_or(track.volume);
        track.pan = pan.unwrap_or(track.pan);
        track.gain = clip_gain(track.volume, track.pan);
    }

    /// The current track's clip and the sample it plays next, while it plays (fading out
    /// included).
    pub(crate) fn position(&self) -> Option<(ClipId, u64)> {
        let track = &self.tracks[self.current];
        track.clip.map(|clip| (ClipId(clip), track.pos >> 32))
    }

    /// Moves the current track to `sample`; nothing when no track plays.
    pub(crate) fn seek(&mut self, bank: &ClipBank, sample: u64) -> Result<(), PlayError> {
        let track = &mut self.tracks[self.current];
        let Some(clip) = track.clip else {
            return Ok(());
        };
        let samples = bank.get(clip).map_or(0, |(_, f)| f.len() as u64);
        if sample >= samples {
            return Err(PlayError::PastClipEnd {
                what: "seek_music_clip",
                sample,
                samples,
            });
        }
        track.pos = sample << 32;
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
            if track.wait > 0 {
                track.wait -= 1;
                continue;
            }
            let Some((_, frames)) = bank.get(clip) else {
                track.clip = None;
                continue;
            };
            let len = track.end;
            let at = track.pos >> 32;
            let Some(&a) = frames.get(at as usize).filter(|_| at < len) else {
                track.clip = None;
                continue;
            };
            let b = match (at + 1 < len, track.loop_start) {
                (true, _) => frames[at as usize + 1],
                (false, Some(start)) => frames[start as usize],
                (false, None) => a,
            };
            let frac = ((track.pos >> 16) & 0xffff) as i64;
            for side in 0..2 {
                let (a, b) = (i64::from(a[side]), i64::from(b[side]));
                let s = a + (((b - a) * frac) >> 16);
                let mut v = (s * track.gain[side]) >> 15;
                if track.fade_in.is_on() {
                    let Ramp { left, len, easing } = track.fade_in;
                    v = risen(v, left, len, easing);
                }
                if track.fade_out.is_on() {
                    let Ramp { left, len, easing } = track.fade_out;
                    v = faded(v, left, len, easing);
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

/// Whether `voice` names the start of a music clip `track` holds.
fn names(voice: Voice, track: &Track) -> bool {
    voice.kind == VoiceKind::MusicClip && track.clip.is_some() && track.serial == voice.serial
}

/// Fades `track` out over `samples` along `easing` (at once for 0); a fade already running
/// that would end sooner is kept, and a sooner one goes on from the level the running one has
/// reached. A track still waiting to start stops at once.
fn stop(track: &mut Track, samples: u32, easing: Easing) {
    if track.clip.is_none() {
        return;
    }
    let out = &mut track.fade_out;
    if samples == 0 || track.wait > 0 {
        track.clip = None;
    } else if !out.is_on() {
        *out = Ramp::new(samples, easing);
    } else if out.left > samples {
        let len = u64::from(samples) * u64::from(out.len) / u64::from(out.left);
        *out = Ramp {
            left: samples,
            len: len.max(1) as u32,
            easing,
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

    /// A handover of `fade` samples along `easing`, joined as `offset` says.
    fn over(fade: u32, easing: Easing, offset: Option<i64>) -> Handover {
        Handover {
            fade,
            easing,
            offset,
        }
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
        voices
            .play(
                &bank,
                ClipId(0),
                options,
                over(0, Easing::Linear, None),
                1_000,
            )
            .unwrap();
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
            .play(
                &bank,
                ClipId(0),
                MusicClip::default(),
                over(0, Easing::Linear, None),
                1_000,
            )
            .unwrap();
        voices
            .play(
                &bank,
                ClipId(1),
                MusicClip::default(),
                over(4, Easing::Linear, None),
                1_000,
            )
            .unwrap();
        // Old 4/4, 3/4, 2/4, 1/4 of 2000; new 0/4, 1/4, 2/4, 3/4 of -2000; then the new alone.
        assert_eq!(
            run(&mut voices, &bank, 6),
            [2000, 1000, 0, -1000, -2000, -2000]
        );
        assert_eq!(voices.position(), Some((ClipId(1), 6)));
    }

    #[test]
    fn a_loop_point_or_seek_past_the_end_is_refused_with_the_sample() {
        let bank = bank(&[vec![[0, 0]; 10]]);
        let mut voices = MusicVoices::default();
        let options = MusicClip {
            loop_start: Some(10),
            ..MusicClip::default()
        };
        let err = voices
            .play(
                &bank,
                ClipId(0),
                options,
                over(0, Easing::Linear, None),
                1_000,
            )
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "music clip: loop_start 10 is past the clip's end (it has 10 samples)"
        );
        assert_eq!(
            voices.play(
                &bank,
                ClipId(3),
                MusicClip::default(),
                over(0, Easing::Linear, None),
                1_000
            ),
            Err(PlayError::UnknownClip(3))
        );
        voices
            .play(
                &bank,
                ClipId(0),
                MusicClip::default(),
                over(0, Easing::Linear, None),
                1_000,
            )
            .unwrap();
        assert!(voices.seek(&bank, 12).is_err());
        voices.seek(&bank, 9).unwrap();
        assert_eq!(voices.position(), Some((ClipId(0), 9)));
    }

    #[test]
    fn a_loop_end_before_the_clips_end_loops_back_from_there_and_a_bad_one_is_refused() {
        let bank = bank(&[vec![[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]]]);
        let mut voices = MusicVoices::default();
        let play = |voices: &mut MusicVoices, loop_start, loop_end| {
            let options = MusicClip {
                loop_start,
                loop_end,
                ..MusicClip::default()
            };
            voices.play(
                &bank,
                ClipId(0),
                options,
                over(0, Easing::Linear, None),
                1_000,
            )
        };
        play(&mut voices, Some(1), Some(3)).unwrap();
        assert_eq!(run(&mut voices, &bank, 7), [2, 4, 6, 4, 6, 4, 6]);
        play(&mut voices, None, Some(2)).unwrap();
        assert_eq!(
            run(&mut voices, &bank, 4),
            [2, 4, 0, 0],
            "no loop: it ends there"
        );
        assert_eq!(voices.position(), None);
        assert_eq!(
            play(&mut voices, Some(3), Some(3)),
            Err(PlayError::EmptyLoop { start: 3, end: 3 })
        );
        assert_eq!(
            play(&mut voices, Some(0), Some(6)).unwrap_err().to_string(),
            "music clip: loop_end 6 is past the clip's end (it has 5 samples)"
        );
    }

    #[test]
    fn a_gap_waits_its_samples_after_the_old_track_is_silent_and_an_overlap_starts_before() {
        let bank = bank(&[vec![[1000, 1000]; 40], vec![[-1000, -1000]; 40]]);
        let mut voices = MusicVoices::default();
        let start = |voices: &mut MusicVoices, clip, handover| {
            voices
                .play(&bank, ClipId(clip), MusicClip::default(), handover, 1_000)
                .unwrap()
        };
        start(&mut voices, 0, over(0, Easing::Linear, None));
        start(&mut voices, 1, over(2, Easing::Linear, Some(3)));
        // The old one fades over 2 samples, 3 of silence, then the new one rises over 2.
        assert_eq!(
            run(&mut voices, &bank, 8),
            [2000, 1000, 0, 0, 0, 0, -1000, -2000]
        );
        start(&mut voices, 0, over(4, Easing::Linear, Some(-1)));
        // The old one falls over 4; the new one starts 1 sample before it is silent.
        assert_eq!(
            run(&mut voices, &bank, 6),
            [-2000, -1500, -1000, -500, 500, 1000]
        );
    }

    #[test]
    fn an_eased_crossfade_follows_its_curve_on_both_tracks() {
        let bank = bank(&[vec![[0, 0]; 20], vec![[1 << 14, 1 << 14]; 20]]);
        let mut voices = MusicVoices::default();
        voices
            .play(
                &bank,
                ClipId(0),
                MusicClip::default(),
                over(0, Easing::Linear, None),
                1_000,
            )
            .unwrap();
        voices
            .play(
                &bank,
                ClipId(1),
                MusicClip::default(),
                over(4, Easing::QuadIn, None),
                1_000,
            )
            .unwrap();
        // The new track alone is heard (the old is silent): 0, 1/16, 4/16, 9/16 of full, then
        // full. Mix units are twice a sample.
        let full = 2 << 14;
        assert_eq!(
            run(&mut voices, &bank, 5),
            [0, full / 16, full * 4 / 16, full * 9 / 16, full]
        );
    }
}
