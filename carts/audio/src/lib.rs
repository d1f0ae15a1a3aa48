//! `audio`: sample clips and stereo. A chord (Ogg Vorbis, stereo) loops and fades, a blip (WAV,
//! mono) sweeps from left to right at four pitches, and the synthesiser's first channel
//! answers from alternate sides. A plays the chord once, an octave down, over everything.
//! Under it all, music from clips: a pad (Ogg Vorbis) plays a second of intro and then loops,
//! ducked by the blips; B crossfades from the pad to the chord as music and back.
//!
//! The clips are built into the cart (`include_bytes!`), so a web page or an exported game
//! carries them; they were made by `assets/make_clips.py`.
//!
//! The crate's second cart, `audio-buses` ([`buses`]), is a mixing desk for the sound buses.

use std::time::Duration;

pub mod buses;

use bt::sound::{
    Channel, ClipId, ClipOptions, Ducking, Fade, MusicClip, Note, Sfx, SfxId, Voice, Wave,
};
use bt::{Button, Cart, CartError, Player, Rect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "sample clips (WAV and Ogg Vorbis) and stereo panning";

/// The blip: 16-bit mono WAV, 22,050 Hz, 0.12 s.
pub const BLIP: &[u8] = include_bytes!("../assets/blip.wav");
/// The chord: Ogg Vorbis, stereo, 44,100 Hz, 2 s.
pub const CHORD: &[u8] = include_bytes!("../assets/chord.ogg");
/// The pad: Ogg Vorbis, stereo, 44,100 Hz, 4 s: a second of intro, then three that loop.
pub const PAD: &[u8] = include_bytes!("../assets/pad.ogg");
/// The pad's first frame after its intro, where it loops back to.
const PAD_LOOP: u64 = 44_100;
/// How long B's crossfade from one track to the other takes.
const CROSSFADE: Fade = Fade::millis(1500);

/// Updates a cycle: the chord loops for 4 s, fades out over 1 s, rests, and starts again at 6 s.
const CYCLE: u64 = 360;
/// When in the cycle the chord's fade starts.
const FADE_AT: u64 = 240;
/// Updates between blips.
const BLIP_EVERY: u64 = 15;
/// The blips' pitches, in turn.
const PITCHES: [f32; 4] = [1.0, 1.25, 1.5, 2.0];
/// Blips in one sweep from left to right.
const SWEEP: u64 = 16;

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Audio {
    blip: Option<ClipId>,
    chord: Option<ClipId>,
    tick: Option<SfxId>,
    /// The looping chord's voice.
    chord_voice: Option<Voice>,
    /// The last blip's voice, pan and pitch.
    blip_voice: Option<Voice>,
    blip_pan: i8,
    blip_pitch: f32,
    /// The chord A plays.
    low_voice: Option<Voice>,
    /// What plays, as the last update saw it: the looping chord, the last blip, A's chord.
    playing: [bool; 3],
    /// The pad, as music.
    pad: Option<ClipId>,
    /// Whether B has turned the music to the chord.
    chord_music: bool,
    /// The music's clip and frame, as the last update saw them.
    music: Option<(ClipId, u64)>,
}

/// A fresh `audio` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Audio::default())
}

/// The pan of the `k`th blip of a sweep: -127 to 127 in [`SWEEP`] steps.
fn sweep_pan(k: u64) -> i8 {
    let step = (k % SWEEP) as i64;
    (-127 + step * 254 / (SWEEP as i64 - 1)) as i8
}

impl Cart for Audio {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Audio")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.blip = Some(ctx.decode_clip("blip.wav", BLIP)?);
        self.chord = Some(ctx.decode_clip("chord.ogg", CHORD)?);
        let mut tick = Sfx::new(12, vec![Note::new(69, Wave::Triangle, 5)]);
        tick.release = 6;
        self.tick = Some(ctx.add_sfx(tick)?);
        let pad = ctx.decode_clip("pad.ogg", PAD)?;
        self.pad = Some(pad);
        let intro = MusicClip {
            loop_start: Some(PAD_LOOP),
            volume: 200,
            ..MusicClip::default()
        };
        ctx.play_music_clip(pad, intro)?;
        // The blips (on the sfx bus) lower the music a little while they sound.
        ctx.set_ducking(Ducking {
            amount: 90,
            attack: Duration::from_millis(20),
            release: Duration::from_millis(200),
        });
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let t = ctx.ticks();
        let (Some(blip), Some(chord), Some(tick)) = (self.blip, self.chord, self.tick) else {
            return;
        };
        match t % CYCLE {
            0 => {
                let options = ClipOptions {
                    volume: 180,
                    looping: true,
                    priority: 5,
                    ..ClipOptions::default()
                };
                self.chord_voice = ctx.play_clip(chord, options).ok();
            }
            FADE_AT => {
                if let Some(voice) = self.chord_voice {
                    ctx.stop_voice(voice, Fade::millis(1_000));
                }
            }
            _ => {}
        }
        if t.is_multiple_of(BLIP_EVERY) {
            let k = t / BLIP_EVERY;
            self.blip_pan = sweep_pan(k);
            self.blip_pitch = PITCHES[(k % PITCHES.len() as u64) as usize];
            let options = ClipOptions {
                pan: self.blip_pan,
                pitch: self.blip_pitch,
                ..ClipOptions::default()
            };
            self.blip_voice = ctx.play_clip(blip, options).ok();
        }
        if t % 60 == 30 {
            // The synthesiser's channel one, from the left, then the right.
            let pan = if (t / 60).is_multiple_of(2) {
                -100
            } else {
                100
            };
            ctx.set_channel_pan(Channel::ONE, pan);
            ctx.play_sfx(tick, Some(Channel::ONE)).ok();
        }
        if ctx.is_pressed(Button::A, Player::ONE) {
            let options = ClipOptions {
                pitch: 0.5,
                priority: 9,
                ..ClipOptions::default()
            };
            self.low_voice = ctx.play_clip(chord, options).ok();
        }
        if ctx.is_pressed(Button::B, Player::ONE) {
            if let Some(pad) = self.pad {
                self.chord_music = !self.chord_music;
                let (clip, loop_start) = if self.chord_music {
                    (chord, 0)
                } else {
                    (pad, PAD_LOOP)
                };
                let options = MusicClip {
                    loop_start: Some(loop_start),
                    crossfade: CROSSFADE,
                    volume: 200,
                    ..MusicClip::default()
                };
                // Both clips are held and both loop starts inside them: this cannot fail.
                ctx.play_music_clip(clip, options).ok();
            }
        }
        self.music = ctx.music_clip_position();
        self.playing = [self.chord_voice, self.blip_voice, self.low_voice]
            .map(|v| v.is_some_and(|v| ctx.is_voice_playing(v)));
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let (w, _) = ctx.display_size();
        let w = w as i32;
        ctx.print(8, 8, "AUDIO", 7);
        let chord = match self.playing[0] {
            true if ctx.ticks() % CYCLE >= FADE_AT => "FADING",
            true => "LOOPING",
            false => "RESTING",
        };
        ctx.print(8, 28, format_args!("CHORD.OGG  {chord}"), 12);
        ctx.print(
            8,
            44,
            format_args!("BLIP.WAV   PITCH x{}", self.blip_pitch),
            10,
        );
        // Where the last blip sits between the speakers.
        let track = Rect::new(8, 62, w - 16, 8);
        ctx.draw_rect(track, 5);
        ctx.print(8, 74, "L", 6);
        ctx.print(w - 16, 74, "R", 6);
        let x = 12 + (i32::from(self.blip_pan) + 127) * (w - 24) / 254;
        ctx.draw_circle_fill(x, 66, 3, if self.playing[1] { 11 } else { 13 });
        if self.playing[2] {
            ctx.print(8, 92, "LOW CHORD", 14);
        }
        ctx.print(8, 108, "A: THE CHORD, AN OCTAVE DOWN", 6);
        let music = match self.music {
            Some((clip, frame)) if Some(clip) == self.pad && frame < PAD_LOOP => "PAD.OGG    INTRO",
            Some((clip, _)) if Some(clip) == self.pad => "PAD.OGG    LOOP",
            Some(_) => "CHORD.OGG  LOOP",
            None => "-",
        };
        ctx.print(8, 132, format_args!("MUSIC      {music}"), 9);
        ctx.print(8, 148, "B: CROSSFADE TO THE OTHER TRACK", 6);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_goes_from_hard_left_to_hard_right() {
        assert_eq!(sweep_pan(0), -127);
        assert_eq!(sweep_pan(SWEEP - 1), 127);
        assert_eq!(sweep_pan(SWEEP), -127);
    }
}
