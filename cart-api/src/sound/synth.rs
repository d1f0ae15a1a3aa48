//! The four-channel synthesiser the console steps once per update.

use super::clock::SampleClock;
use super::wave::{next_noise, phase_step, sample};
use super::{
    ChannelState, Effect, Music, MusicId, Note, Sfx, SfxId, SoundError, SoundMeter, Wave, CHANNELS,
    DEFAULT_SAMPLE_RATE, MAX_NOTE_VOLUME,
};

/// Full amplitude, in 16.16 fixed point.
const FULL: i64 = 1 << 16;
/// Samples the host buffer keeps when nobody drains it: one second at the current rate (then
/// it starts over, so a seek of a million updates costs no memory).
const BUFFER_SECONDS: u32 = 1;

#[derive(Debug, Clone, Copy, Default)]
struct Voice {
    sfx: Option<u16>,
    note: usize,
    tick_in_note: u16,
    from_music: bool,
    /// Pitch (256ths of a semitone) the previous note ended on: where a slide starts.
    slide_from: i32,
    /// Ticks since the sound effect started: the vibrato's and arpeggio's clock.
    age: u32,
    phase: u32,
    noise: u32,
    wave: Option<Wave>,
    /// Amplitude and phase step the last sample of the previous tick had.
    amp: i64,
    step: u32,
    volume: u8,
}

#[derive(Debug, Clone, Copy, Default)]
struct Playing {
    music: u16,
    pattern: usize,
    tick: u64,
    length: u64,
}

/// The synthesiser: the sound bank, four voices, the tune, and the samples of the updates the
/// host has not drained yet.
#[derive(Debug)]
pub(crate) struct Synth {
    rate: u32,
    clock: SampleClock,
    sfx: Vec<Sfx>,
    music: Vec<Music>,
    voices: [Voice; CHANNELS],
    playing: Option<Playing>,
    master: u8,
    seed: u64,
    out: Vec<i16>,
    out_limit: usize,
    meter: SoundMeter,
}

fn noise_seed(seed: u64, channel: usize) -> u32 {
    let mixed = seed
        .wrapping_add(channel as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((mixed >> 32) as u32) | 1
}

impl Synth {
    pub(crate) fn new(target_fps: f64, seed: u64) -> Synth {
        let mut synth = Synth {
            rate: DEFAULT_SAMPLE_RATE,
            clock: SampleClock::new(DEFAULT_SAMPLE_RATE, target_fps),
            sfx: Vec::new(),
            music: Vec::new(),
            voices: [Voice::default(); CHANNELS],
            playing: None,
            master: 255,
            seed,
            out: Vec::new(),
            out_limit: 0,
            meter: SoundMeter::default(),
        };
        synth.set_rate(DEFAULT_SAMPLE_RATE, target_fps);
        synth.reset(seed);
        synth
    }

    pub(crate) fn set_rate(&mut self, rate: u32, target_fps: f64) {
        self.rate = rate.max(1);
        self.clock = SampleClock::new(self.rate, target_fps);
        // At least one update's worth, so a host that drains after every update loses nothing
        // (up to 16 seconds an update, a rate below 1/16 fps).
        let second = u64::from(self.rate * BUFFER_SECONDS);
        self.out_limit = second.max(self.clock.max_per_tick()).min(16 * second) as usize;
        self.out.clear();
        self.out.reserve_exact(self.out_limit);
    }

    pub(crate) fn rate(&self) -> u32 {
        self.rate
    }

    /// Back to boot: no sounds held, silent voices, full volumes, the clock's fraction at 0.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.clock.reset();
        self.sfx.clear();
        self.music.clear();
        self.playing = None;
        self.master = 255;
        self.out.clear();
        self.meter = SoundMeter::default();
        for (i, v) in self.voices.iter_mut().enumerate() {
            *v = Voice {
                noise: noise_seed(seed, i),
                volume: 255,
                ..Voice::default()
            };
        }
    }

    pub(crate) fn add_sfx(&mut self, sfx: Sfx) -> Result<SfxId, SoundError> {
        sfx.validate()?;
        let id = u16::try_from(self.sfx.len()).map_err(|_| SoundError::Full)?;
        self.meter.in_use = true;
        self.sfx.push(sfx);
        Ok(SfxId(id))
    }

    pub(crate) fn add_music(&mut self, music: Music) -> Result<MusicId, SoundError> {
        if music.patterns.is_empty() {
            return Err(SoundError::EmptyPattern(0));
        }
        for (pattern, p) in music.patterns.iter().enumerate() {
            if p.iter().all(Option::is_none) {
                return Err(SoundError::EmptyPattern(pattern));
            }
            if p.iter()
                .flatten()
                .any(|id| usize::from(id.0) >= self.sfx.len())
            {
                return Err(SoundError::UnknownSfx { pattern });
            }
        }
        if let Some(start) = music.loop_start {
            if start >= music.patterns.len() {
                return Err(SoundError::LoopStart {
                    start,
                    len: music.patterns.len(),
                });
            }
        }
        let id = u16::try_from(self.music.len()).map_err(|_| SoundError::Full)?;
        self.music.push(music);
        Ok(MusicId(id))
    }

    fn start(&mut self, channel: usize, sfx: u16, from_music: bool) {
        let v = &mut self.voices[channel];
        v.sfx = Some(sfx);
        v.note = 0;
        v.tick_in_note = 0;
        v.age = 0;
        v.from_music = from_music;
        v.slide_from = i32::from(self.sfx[usize::from(sfx)].notes[0].pitch) * 256;
    }

    pub(crate) fn play(&mut self, id: SfxId, channel: Option<usize>) -> Option<usize> {
        if usize::from(id.0) >= self.sfx.len() {
            return None;
        }
        let channel = match channel {
            Some(c) if c < CHANNELS => c,
            Some(_) => return None,
            None => {
                let free = self.voices.iter().position(|v| v.sfx.is_none());
                let Some(c) = free.or_else(|| self.voices.iter().position(|v| v.from_music)) else {
                    self.meter.refused = self.meter.refused.saturating_add(1);
                    return None;
                };
                c
            }
        };
        if self.voices[channel].sfx.is_some() {
            self.meter.stolen = self.meter.stolen.saturating_add(1);
        }
        self.start(channel, id.0, false);
        Some(channel)
    }

    pub(crate) fn stop(&mut self, channel: usize) {
        if let Some(v) = self.voices.get_mut(channel) {
            v.sfx = None;
        }
    }

    pub(crate) fn play_music(&mut self, id: MusicId) -> bool {
        if usize::from(id.0) >= self.music.len() {
            return false;
        }
        self.start_pattern(id.0, 0);
        true
    }

    pub(crate) fn stop_music(&mut self) {
        self.playing = None;
        for v in &mut self.voices {
            if v.from_music {
                v.sfx = None;
                v.from_music = false;
            }
        }
    }

    fn start_pattern(&mut self, music: u16, pattern: usize) {
        let p = self.music[usize::from(music)].patterns[pattern];
        let mut length = 0;
        for (channel, slot) in p.iter().enumerate() {
            let v = &self.voices[channel];
            let free = v.sfx.is_none() || v.from_music;
            match slot {
                Some(id) => {
                    if length == 0 {
                        length = self.sfx[usize::from(id.0)].length_ticks();
                    }
                    if free {
                        self.start(channel, id.0, true);
                    } else {
                        // The tune's note loses to the sound effect holding its channel.
                        self.meter.stolen = self.meter.stolen.saturating_add(1);
                    }
                }
                None if free => {
                    self.voices[channel].sfx = None;
                    self.voices[channel].from_music = false;
                }
                None => {}
            }
        }
        self.playing = Some(Playing {
            music,
            pattern,
            tick: 0,
            length,
        });
    }

    pub(crate) fn music_playing(&self) -> Option<(MusicId, usize)> {
        self.playing.map(|p| (MusicId(p.music), p.pattern))
    }

    pub(crate) fn set_volume(&mut self, channel: usize, volume: u8) {
        if let Some(v) = self.voices.get_mut(channel) {
            v.volume = volume;
        }
    }

    pub(crate) fn set_master(&mut self, volume: u8) {
        self.master = volume;
    }

    pub(crate) fn master(&self) -> u8 {
        self.master
    }

    pub(crate) fn channel(&self, channel: usize) -> Option<ChannelState> {
        self.voices.get(channel).map(|v| ChannelState {
            sfx: v.sfx.map(SfxId),
            note: v.note,
            from_music: v.from_music,
            volume: v.volume,
        })
    }

    pub(crate) fn meter(&self) -> SoundMeter {
        let mut meter = self.meter;
        meter.voices = self.voices.iter().filter(|v| v.sfx.is_some()).count() as u8;
        meter
    }

    pub(crate) fn drain(&mut self) -> std::vec::Drain<'_, i16> {
        self.out.drain(..)
    }

    pub(crate) fn pending(&self) -> &[i16] {
        &self.out
    }

    /// One update's samples: every voice at this tick's pitch and volume, mixed into the buffer;
    /// then the notes and the tune move on a tick.
    pub(crate) fn step(&mut self) {
        let n = self.clock.next_tick();
        let mut targets = [(0i64, 0u32); CHANNELS];
        for (channel, target) in targets.iter_mut().enumerate() {
            *target = self.target(channel);
        }
        // Per-sample ramps from the previous tick's end to this tick's, in 16.16.
        let mut amp = [0i64; CHANNELS];
        let mut amp_d = [0i64; CHANNELS];
        let mut step = [0i64; CHANNELS];
        let mut step_d = [0i64; CHANNELS];
        let div = i64::from(n.max(1));
        for c in 0..CHANNELS {
            let v = &self.voices[c];
            amp[c] = v.amp << 16;
            amp_d[c] = ((targets[c].0 - v.amp) << 16) / div;
            step[c] = i64::from(v.step) << 16;
            step_d[c] = ((i64::from(targets[c].1) - i64::from(v.step)) << 16) / div;
        }
        let master = i64::from(self.master);
        let mut peaks = [0i64; CHANNELS];
        let mut clipped = 0u64;
        for _ in 0..n {
            let mut mix = 0i64;
            for c in 0..CHANNELS {
                let v = &mut self.voices[c];
                amp[c] += amp_d[c];
                step[c] += step_d[c];
                let Some(wave) = v.wave else { continue };
                let a = amp[c] >> 16;
                if a != 0 {
                    let s = i64::from(sample(wave, v.phase, (v.noise >> 16) as i16 as i32));
                    let voice = (((s * a) >> 16) * i64::from(v.volume)) >> 8;
                    peaks[c] = peaks[c].max(voice.abs());
                    mix += voice;
                }
                let inc = (step[c] >> 16) as u32;
                let next = v.phase.wrapping_add(inc);
                if (next ^ v.phase) >> 28 != 0 && wave == Wave::Noise {
                    v.noise = next_noise(v.noise);
                }
                v.phase = next;
            }
            let scaled = (mix * master) >> 9;
            clipped += u64::from(!(-32_768..=32_767).contains(&scaled));
            let out = scaled.clamp(-32_768, 32_767) as i16;
            if self.out.len() == self.out_limit {
                self.out.clear();
            }
            self.out.push(out);
        }
        for (c, (a, s)) in targets.into_iter().enumerate() {
            self.voices[c].amp = a;
            self.voices[c].step = s;
        }
        for (meter, peak) in self.meter.peaks.iter_mut().zip(peaks) {
            *meter = ((peak * master) >> 9).min(32_767) as u16;
        }
        self.meter.clipped = self.meter.clipped.saturating_add(clipped);
        self.advance();
    }

    /// The amplitude (16.16) and phase step a voice reaches at the end of this tick, and sets
    /// its wave.
    fn target(&mut self, channel: usize) -> (i64, u32) {
        let rate = self.rate;
        let v = &mut self.voices[channel];
        let Some(id) = v.sfx else {
            return (0, v.step);
        };
        let sfx = &self.sfx[usize::from(id)];
        let note: Note = sfx.notes[v.note];
        if note.volume == 0 {
            return (0, v.step);
        }
        let speed = i64::from(sfx.speed);
        let t = i64::from(v.tick_in_note);
        // How far through the note this tick ends, 0..=FULL.
        let p = (t + 1) * FULL / speed;
        let base = i32::from(note.pitch) * 256;
        let pitch = match note.effect {
            Effect::Slide => v.slide_from + ((base - v.slide_from) as i64 * p / FULL) as i32,
            Effect::Vibrato => {
                let k = (v.age % 8) as i32; // 0..8: a triangle of ±128
                let tri = if k < 4 { k * 64 - 128 } else { 384 - k * 64 };
                base + tri
            }
            Effect::Drop => base - (i64::from(base) * p / FULL) as i32,
            Effect::Arpeggio => base + [0, 4 * 256, 7 * 256][(v.age / 2 % 3) as usize],
            _ => base,
        };
        let mut amp = i64::from(note.volume) * FULL / i64::from(MAX_NOTE_VOLUME);
        match note.effect {
            Effect::FadeIn => amp = amp * p / FULL,
            Effect::FadeOut => amp = amp * (FULL - p) / FULL,
            _ => {}
        }
        if sfx.attack > 0 && t < i64::from(sfx.attack) {
            amp = amp * (t + 1) / i64::from(sfx.attack);
        }
        let left = speed - t - 1;
        if sfx.release > 0 && left < i64::from(sfx.release) {
            amp = amp * left / i64::from(sfx.release);
        }
        if v.wave != Some(note.wave) {
            v.wave = Some(note.wave);
        }
        (amp, phase_step(pitch, rate))
    }

    /// Moves every voice and the tune on by one tick.
    fn advance(&mut self) {
        for v in &mut self.voices {
            let Some(id) = v.sfx else { continue };
            let sfx = &self.sfx[usize::from(id)];
            v.age = v.age.wrapping_add(1);
            v.tick_in_note += 1;
            if v.tick_in_note < sfx.speed {
                continue;
            }
            v.tick_in_note = 0;
            v.slide_from = i32::from(sfx.notes[v.note].pitch) * 256;
            v.note += 1;
            if v.note == sfx.notes.len() {
                match sfx.loop_start {
                    Some(start) => v.note = start,
                    None => {
                        v.sfx = None;
                        v.from_music = false;
                    }
                }
            }
        }
        if let Some(mut p) = self.playing {
            p.tick += 1;
            if p.tick < p.length {
                self.playing = Some(p);
                return;
            }
            let music = &self.music[usize::from(p.music)];
            let next = p.pattern + 1;
            match (next < music.patterns.len(), music.loop_start) {
                (true, _) => self.start_pattern(p.music, next),
                (false, Some(start)) => self.start_pattern(p.music, start),
                (false, None) => self.stop_music(),
            }
        }
    }
}
