//! The four-channel synthesiser the console steps once per update.
//!
//! Time inside is the sample: every voice and the tune keep the sample they started at, and
//! their notes, control blocks and pattern ends fall on samples worked out from that start
//! alone, never from how the samples were split into updates. The same calls at the same
//! samples therefore give the same samples at any `target_fps`.

use std::sync::Arc;

use super::bus::{Bus, Buses, BUSES};
use super::clip::{pitch_q16, ClipBank, ClipId, ClipOptions, ClipPool, DecodedClip};
use super::clock::SampleClock;
use super::fade::{progress, Fade};
use super::music_clip::{Handover, Join, MusicClip, MusicVoices};
use super::stereo::{pan_gains, Frame, Pan};
use super::voice::{PlayError, Voice as Handle, VoiceKind};
use super::wave::{next_noise, phase_step, phaser_step, sample};
use super::{
    Channel, ChannelState, Music, MusicId, MusicStart, Note, NoteEffect, Sfx, SfxId, SoundBank,
    SoundError, SoundMeter, TimeBase, Wave, BLOCKS_PER_SECOND, CHANNELS, DEFAULT_SAMPLE_RATE,
    MAX_NOTE_VOLUME,
};
use crate::Easing;

/// Full amplitude, in 16.16 fixed point.
const FULL: i64 = 1 << 16;
/// Samples the host buffer keeps when nobody drains it: one second at the current rate (then
/// it starts over, so a seek of a million updates costs no memory).
const BUFFER_SECONDS: u32 = 1;
/// Control blocks a second a [`TimeBase::Fraction`] unit aims at: each unit gets as many
/// whole blocks as make it no longer than 1/480 s (PICO-8's 183/22,050 s gets 4), short enough
/// that a note's rise from silence does not eat into a note of one unit.
const FRACTION_BLOCKS_PER_SECOND: u64 = 480;
/// Patterns that last no time the tune moves through at one sample before it stops: a tune
/// whose patterns are all empty would otherwise start them over for ever.
const MAX_EMPTY_PATTERNS: usize = 1 << 16;

/// How one sound effect's time maps onto samples.
#[derive(Debug, Clone, Copy)]
struct Timing {
    /// Block `b` ends `(b + 1) × num / den` samples after the sound effect's start.
    num: u64,
    den: u64,
    /// Control blocks in one unit of `speed`.
    per_unit: u64,
    /// Vibrato cycles per block, as a fraction.
    vibrato: (u64, u64),
    /// Arpeggio steps per block, as a fraction.
    arpeggio: (u64, u64),
    /// How far the vibrato bends either way, in cents.
    vibrato_depth: u16,
    /// Whether pitch steps at a note's first sample rather than gliding into it.
    exact: bool,
}

impl Timing {
    fn of(sfx: &Sfx, rate: u32, fps_milli: u64) -> Timing {
        let per_second = u64::from(BLOCKS_PER_SECOND) * 1000;
        match sfx.time_base {
            TimeBase::Updates => Timing {
                num: u64::from(rate) * 1000,
                den: fps_milli.max(1),
                per_unit: 1,
                vibrato: (1, 8),
                arpeggio: (1, 2),
                vibrato_depth: sfx.vibrato_depth,
                exact: false,
            },
            TimeBase::Fraction { num, den } => {
                let (num, den) = (u64::from(num.max(1)), u64::from(den.max(1)));
                let per_unit = (num * FRACTION_BLOCKS_PER_SECOND).div_ceil(den).max(1);
                // Seconds a block: num / (den × per_unit).
                let block_den = den * per_unit;
                Timing {
                    num: u64::from(rate) * num,
                    den: block_den,
                    per_unit,
                    vibrato: (u64::from(sfx.vibrato.millihertz()) * num, 1000 * block_den),
                    arpeggio: (u64::from(sfx.arpeggio.millihertz()) * num, 1000 * block_den),
                    vibrato_depth: sfx.vibrato_depth,
                    exact: true,
                }
            }
            _ => Timing {
                num: u64::from(rate),
                den: u64::from(BLOCKS_PER_SECOND),
                per_unit: u64::from(BLOCKS_PER_SECOND / super::UNITS_PER_SECOND),
                vibrato: (u64::from(sfx.vibrato.millihertz()), per_second),
                arpeggio: (u64::from(sfx.arpeggio.millihertz()), per_second),
                vibrato_depth: sfx.vibrato_depth,
                exact: false,
            },
        }
    }

    /// Samples from the start to the end of `blocks` blocks.
    fn samples(&self, blocks: u64) -> u64 {
        (u128::from(blocks) * u128::from(self.num) / u128::from(self.den)) as u64
    }
}

/// What a cart changes on a playing sound through its handle: pitch (16.16, 1 is as written),
/// volume (255 as written) and a pan added to its channel's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Live {
    pitch: u32,
    volume: u8,
    pan: Pan,
}

/// A pitch of 1 in [`Live::pitch`]'s 16.16.
const PITCH_ONE: u32 = 1 << 16;

impl Default for Live {
    fn default() -> Live {
        Live {
            pitch: PITCH_ONE,
            volume: 255,
            pan: 0,
        }
    }
}

/// A fade of a sound effect or a tune: in from silence or out to it, over `len` samples from
/// `start` along `easing` (none when `len` is 0).
#[derive(Debug, Clone, Copy, Default)]
struct Ramp {
    start: u64,
    len: u64,
    out: bool,
    easing: Easing,
}

impl Ramp {
    /// The gain at sample `at`, as a fraction.
    fn gain(&self, at: u64) -> (i64, i64) {
        let (num, den) = progress(self.easing, at.saturating_sub(self.start), self.len);
        if self.out {
            (den - num, den)
        } else {
            (num, den)
        }
    }

    /// The sample a fade out ends at (`u64::MAX` for none, or a fade in).
    fn end(&self) -> u64 {
        if self.out && self.len > 0 {
            self.start + self.len
        } else {
            u64::MAX
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Voice {
    sfx: Option<u16>,
    /// Which start of a sound effect this is, for its handle (tunes' notes have none).
    serial: u32,
    /// What the handle changed.
    live: Live,
    /// A fade out started through the handle or [`Synth::stop_channel`].
    out: Ramp,
    from_music: bool,
    note: usize,
    /// Notes still to play before the sound effect stops, counting the one playing
    /// (`u32::MAX`: to its end, or for ever when it loops).
    notes_left: u32,
    block_in_note: u64,
    /// Blocks since the sound effect started: the vibrato's and arpeggio's clock.
    age: u64,
    /// The sample the sound effect started at.
    start: u64,
    /// The sample the current block (or the fade after a stop) ends at; `u64::MAX` when idle.
    next_at: u64,
    /// Pitch (256ths of a semitone) the previous note ended on: where a slide starts.
    slide_from: i32,
    /// The previous note's volume: where a slide's volume starts, with an exact time base.
    slide_volume: u8,
    phase: u32,
    /// The phaser's second triangle's phase.
    phase2: u32,
    noise: u32,
    wave: Option<Wave>,
    /// Amplitude and phase step now, in 16.16 of their own units, and what they add a sample.
    amp: i64,
    amp_d: i64,
    step: i64,
    step_d: i64,
    /// What they reach at `next_at`.
    target: (i64, u32),
    volume: u8,
}

impl Default for Voice {
    fn default() -> Voice {
        Voice {
            sfx: None,
            serial: 0,
            live: Live::default(),
            out: Ramp::default(),
            from_music: false,
            note: 0,
            notes_left: u32::MAX,
            block_in_note: 0,
            age: 0,
            start: 0,
            next_at: u64::MAX,
            slide_from: 0,
            slide_volume: 0,
            phase: 0,
            phase2: 0,
            noise: 0,
            wave: None,
            amp: 0,
            amp_d: 0,
            step: 0,
            step_d: 0,
            target: (0, 0),
            volume: 255,
        }
    }
}

/// One channel of a tune of sequences.
#[derive(Debug, Clone, Copy, Default)]
struct Lane {
    pos: usize,
    /// The sample its current sound effect's first pass ends at; `u64::MAX` once done.
    end: u64,
}

#[derive(Debug, Clone, Copy)]
struct Playing {
    music: u16,
    /// Which start of a tune this is, for its handle.
    serial: u32,
    /// What the handle changed, for every channel the tune holds.
    live: Live,
    /// Its fade in or out.
    fade: Ramp,
    /// Channels kept for it, a bit each.
    reserved: u8,
    /// Patterns: the pattern playing.
    pattern: usize,
    /// Patterns: the sample it ends at.
    end: u64,
    /// Sequences: each channel's place.
    lanes: [Lane; CHANNELS],
}

impl Playing {
    fn next_at(&self, music: &Music) -> u64 {
        match music {
            Music::Sequences { .. } => self.lanes.iter().map(|l| l.end).min().unwrap_or(u64::MAX),
            _ => self.end,
        }
    }
}

/// The synthesiser: the sound bank, four voices, the tune, and the samples of the updates the
/// host has not drained yet.
///
/// The sounds it holds sit behind an [`Arc`]: a snapshot ([`Synth::clone`]) shares them with the
/// live synthesiser, and only a load after it copies them.
#[derive(Debug)]
pub(crate) struct Synth {
    rate: u32,
    fps_milli: u64,
    clock: SampleClock,
    /// Samples made since boot.
    now: u64,
    /// Sound effects and tunes by id; `None` once a sound file loaded again replaced them.
    sfx: Arc<Vec<Option<Sfx>>>,
    music: Arc<Vec<Option<Music>>>,
    /// The sounds each sound file gave, by the file's name.
    files: Arc<Vec<(String, SoundBank)>>,
    voices: [Voice; CHANNELS],
    playing: Option<Playing>,
    /// Sound effects and tunes started since boot: the handles' serials.
    serial: u32,
    /// The buses' volumes, fades, mutes and ducking (the main bus's volume is the master).
    buses: Buses,
    /// Each channel's pan.
    pans: [Pan; CHANNELS],
    /// The clips held, and the voices playing them.
    clips: ClipBank,
    pool: ClipPool,
    /// The two voices music from clips plays on.
    music_clips: MusicVoices,
    seed: u64,
    out: Vec<Frame>,
    out_limit: usize,
    meter: SoundMeter,
}

/// Empties a shared list: in place when nothing else holds it, else by letting go of it.
fn clear_shared<T>(list: &mut Arc<Vec<T>>) {
    match Arc::get_mut(list) {
        Some(list) => list.clear(),
        None => *list = Arc::default(),
    }
}

/// A copy for a snapshot: every voice, the tune and the clock where they are, the sounds
/// shared, and no samples waiting (they belong to the host that drained or will drain them).
impl Clone for Synth {
    fn clone(&self) -> Synth {
        Synth {
            rate: self.rate,
            fps_milli: self.fps_milli,
            clock: self.clock,
            now: self.now,
            sfx: Arc::clone(&self.sfx),
            music: Arc::clone(&self.music),
            files: Arc::clone(&self.files),
            voices: self.voices,
            playing: self.playing,
            serial: self.serial,
            buses: self.buses,
            pans: self.pans,
            clips: self.clips.clone(),
            pool: self.pool,
            music_clips: self.music_clips,
            seed: self.seed,
            out: Vec::new(),
            out_limit: self.out_limit,
            meter: self.meter,
        }
    }
}

/// The bus a channel feeds: the music bus while the tune holds it, else the sfx bus.
fn bus_of(v: &Voice) -> Bus {
    if v.from_music {
        Bus::Music
    } else {
        Bus::Sfx
    }
}

fn noise_seed(seed: u64, channel: usize) -> u32 {
    let mixed = seed
        .wrapping_add(channel as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((mixed >> 32) as u32) | 1
}

fn fps_milli(target_fps: f64) -> u64 {
    let milli = (target_fps * 1000.0).round();
    if milli.is_finite() && milli >= 1.0 {
        milli as u64
    } else {
        1
    }
}

impl Synth {
    pub(crate) fn new(target_fps: f64, seed: u64) -> Synth {
        let mut synth = Synth {
            rate: DEFAULT_SAMPLE_RATE,
            fps_milli: fps_milli(target_fps),
            clock: SampleClock::new(DEFAULT_SAMPLE_RATE, target_fps),
            now: 0,
            sfx: Arc::default(),
            music: Arc::default(),
            files: Arc::default(),
            voices: [Voice::default(); CHANNELS],
            playing: None,
            serial: 0,
            buses: Buses::default(),
            pans: [0; CHANNELS],
            clips: ClipBank::default(),
            pool: ClipPool::default(),
            music_clips: MusicVoices::default(),
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
        self.fps_milli = fps_milli(target_fps);
        self.clock = SampleClock::new(self.rate, target_fps);
        // At least one update's worth, so a host that drains after every update loses nothing
        // (up to 16 seconds an update, a rate below 1/16 fps).
        let second = u64::from(self.rate * BUFFER_SECONDS);
        self.out_limit = second.max(self.clock.max_per_tick()).min(16 * second) as usize;
        self.out.clear();
        self.out.reserve_exact(self.out_limit);
    }

    /// Takes on `snapshot`'s state (a [`Synth::clone`]), keeping this one's sample buffer,
    /// emptied: the samples after it are those the snapshot's run made next.
    pub(crate) fn restore(&mut self, snapshot: &Synth) {
        let out = std::mem::take(&mut self.out);
        *self = snapshot.clone();
        self.out = out;
        self.out.clear();
        if self.out.capacity() < self.out_limit {
            self.out.reserve_exact(self.out_limit);
        }
    }

    /// Bytes a snapshot's copy holds of its own (the shared sounds not counted).
    pub(crate) fn snapshot_bytes(&self) -> usize {
        std::mem::size_of::<Synth>()
    }

    pub(crate) fn rate(&self) -> u32 {
        self.rate
    }

    /// Back to boot: no sounds held, silent voices, full volumes, the clock's fraction at 0.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.clock.reset();
        self.now = 0;
        clear_shared(&mut self.sfx);
        clear_shared(&mut self.music);
        clear_shared(&mut self.files);
        self.playing = None;
        self.serial = 0;
        self.buses = Buses::default();
        self.pans = [0; CHANNELS];
        self.clips.clear();
        self.pool = ClipPool::default();
        self.music_clips = MusicVoices::default();
        self.out.clear();
        self.meter = SoundMeter::default();
        for (i, v) in self.voices.iter_mut().enumerate() {
            *v = Voice {
                noise: noise_seed(seed, i),
                ..Voice::default()
            };
        }
    }

    fn sfx_at(&self, id: u16) -> Option<&Sfx> {
        self.sfx.get(usize::from(id)).and_then(Option::as_ref)
    }

    pub(crate) fn add_sfx(&mut self, sfx: Sfx) -> Result<SfxId, SoundError> {
        sfx.validate()?;
        let id = u16::try_from(self.sfx.len()).map_err(|_| SoundError::Full)?;
        self.meter.in_use = true;
        Arc::make_mut(&mut self.sfx).push(Some(sfx));
        Ok(SfxId(id))
    }

    pub(crate) fn add_music(&mut self, music: Music) -> Result<MusicId, SoundError> {
        let known = |id: &SfxId| self.sfx_at(id.0).is_some();
        match &music {
            Music::Patterns {
                patterns,
                loop_start,
            } => {
                if let Some(pattern) = patterns.iter().position(|p| !p.iter().flatten().all(known))
                {
                    return Err(SoundError::UnknownSfx { pattern });
                }
                if let Some(start) = *loop_start {
                    if start >= patterns.len() {
                        return Err(SoundError::LoopStart {
                            start,
                            len: patterns.len(),
                        });
                    }
                }
            }
            Music::Sequences { channels, .. } => {
                if let Some(channel) = channels.iter().position(|c| !c.iter().all(known)) {
                    return Err(SoundError::UnknownSfx { pattern: channel });
                }
            }
        }
        let id = u16::try_from(self.music.len()).map_err(|_| SoundError::Full)?;
        Arc::make_mut(&mut self.music).push(Some(music));
        Ok(MusicId(id))
    }

    /// How many sound effects and tunes there are: where a rollback goes back to.
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.sfx.len(), self.music.len())
    }

    /// Forgets what was added since `mark`.
    pub(crate) fn rollback(&mut self, (sfx, music): (usize, usize)) {
        if self.sfx.len() > sfx {
            Arc::make_mut(&mut self.sfx).truncate(sfx);
        }
        if self.music.len() > music {
            Arc::make_mut(&mut self.music).truncate(music);
        }
    }

    /// Records `bank` as what the sound file `file` gave, and removes what an earlier load of
    /// the same file gave: its ids then name nothing, and what was playing them stops.
    pub(crate) fn replace_file(&mut self, file: &str, bank: SoundBank) {
        let files = Arc::make_mut(&mut self.files);
        let old = match files.iter_mut().find(|(name, _)| name == file) {
            Some((_, held)) => std::mem::replace(held, bank),
            None => {
                files.push((file.to_string(), bank));
                return;
            }
        };
        let sfx = Arc::make_mut(&mut self.sfx);
        for id in old.sfx_ids() {
            if let Some(slot) = sfx.get_mut(usize::from(id.0)) {
                *slot = None;
            }
        }
        let music = Arc::make_mut(&mut self.music);
        for id in old.music_ids() {
            if let Some(slot) = music.get_mut(usize::from(id.0)) {
                *slot = None;
            }
        }
        if let Some(p) = self.playing {
            if self.music[usize::from(p.music)].is_none() {
                self.end_tune();
            }
        }
        for c in 0..CHANNELS {
            if let Some(id) = self.voices[c].sfx {
                if self.sfx_at(id).is_none() {
                    self.stop(c);
                }
            }
        }
    }

    fn timing(&self, sfx: &Sfx) -> Timing {
        Timing::of(sfx, self.rate, self.fps_milli)
    }

    /// Samples in the first pass of sound effect `id` (0 for none).
    fn first_pass(&self, id: u16) -> u64 {
        self.sfx_at(id).map_or(0, |sfx| {
            let t = self.timing(sfx);
            t.samples(sfx.length_units() * t.per_unit).max(1)
        })
    }

    fn start(&mut self, channel: usize, sfx: u16, from_music: bool) {
        self.start_at(channel, sfx, from_music, 0);
    }

    /// Starts `sfx` on `channel` at note `offset` (a note it has), to its end.
    fn start_at(&mut self, channel: usize, sfx: u16, from_music: bool, offset: usize) {
        let Some(first) = self
            .sfx_at(sfx)
            .and_then(|s| s.notes.get(offset))
            .map(|n| n.pitch)
        else {
            return;
        };
        let now = self.now;
        let v = &mut self.voices[channel];
        v.sfx = Some(sfx);
        v.live = Live::default();
        v.out = Ramp::default();
        v.note = offset;
        v.notes_left = u32::MAX;
        v.block_in_note = 0;
        v.age = 0;
        v.start = now;
        v.from_music = from_music;
        v.slide_from = i32::from(first) * 256;
        v.slide_volume = 0;
        self.begin_block(channel);
    }

    /// Works out where the voice's current block ends and what it reaches there, and sets the
    /// ramps from now to then.
    fn begin_block(&mut self, channel: usize) {
        let now = self.now;
        let (end, (target, from)) = match self.voices[channel].sfx.and_then(|id| self.sfx_at(id)) {
            Some(sfx) => {
                let t = self.timing(sfx);
                let v = &self.voices[channel];
                let end = (v.start + t.samples(v.age + 1)).max(now + 1);
                (end, self.target(channel))
            }
            None => {
                // Stopped: fade to silence over one control block.
                let fade = u64::from(self.rate / BLOCKS_PER_SECOND).max(1);
                (now + fade, ((0, self.voices[channel].target.1), None))
            }
        };
        let v = &mut self.voices[channel];
        let len = (end - now) as i64;
        if v.amp == 0 {
            // From silence the pitch starts where it is going: no glide up from nothing.
            v.step = i64::from(target.1) << 16;
        }
        if let Some(from) = from {
            v.step = i64::from(from) << 16;
        }
        v.next_at = end;
        v.target = target;
        v.amp_d = ((target.0 << 16) - v.amp) / len;
        v.step_d = ((i64::from(target.1) << 16) - v.step) / len;
    }

    pub(crate) fn play(
        &mut self,
        id: SfxId,
        channel: Option<Channel>,
    ) -> Result<Handle, PlayError> {
        self.play_notes(id, channel, 0, None)
    }

    /// The next handle's serial.
    fn next_serial(&mut self) -> u32 {
        self.serial = self.serial.wrapping_add(1);
        self.serial
    }

    /// As [`Synth::play`], from note `offset` for `len` notes (to the end, or for ever when
    /// the sound loops, with `None`). An error also when `offset` is past the last note.
    pub(crate) fn play_notes(
        &mut self,
        id: SfxId,
        channel: Option<Channel>,
        offset: usize,
        len: Option<usize>,
    ) -> Result<Handle, PlayError> {
        let notes = self
            .sfx_at(id.0)
            .ok_or(PlayError::UnknownSfx(id.0))?
            .notes
            .len();
        if offset >= notes {
            return Err(PlayError::NoteOffset {
                sfx: id.0,
                offset,
                notes,
            });
        }
        if len == Some(0) {
            return Err(PlayError::NoNotes(id.0));
        }
        let channel = match channel {
            Some(c) => c.index(),
            None => {
                let reserved = self.playing.map_or(0, |p| p.reserved);
                let open = |c: &usize| reserved & (1 << c) == 0;
                let v = &self.voices;
                let free = (0..CHANNELS).filter(open).find(|&c| v[c].sfx.is_none());
                let held = || (0..CHANNELS).filter(open).find(|&c| v[c].from_music);
                let Some(c) = free.or_else(held) else {
                    self.meter.refused = self.meter.refused.saturating_add(1);
                    return Err(PlayError::NoFreeChannel(id.0));
                };
                c
            }
        };
        if self.voices[channel].sfx.is_some() {
            self.meter.stolen = self.meter.stolen.saturating_add(1);
        }
        self.start_at(channel, id.0, false, offset);
        let serial = self.next_serial();
        let v = &mut self.voices[channel];
        v.notes_left = len.map_or(u32::MAX, |n| n.min(u32::MAX as usize - 1) as u32);
        v.serial = serial;
        Ok(Handle {
            kind: VoiceKind::Sfx,
            slot: channel as u8,
            serial,
        })
    }

    /// Silences `channel` (over one control block, so it does not click).
    fn stop(&mut self, channel: usize) {
        if channel < CHANNELS && self.voices[channel].sfx.is_some() {
            let v = &mut self.voices[channel];
            v.sfx = None;
            v.out = Ramp::default();
            self.begin_block(channel);
        }
    }

    /// Fades what `channel` plays out over `fade`, then silences it; a fade out already
    /// running that ends sooner is kept.
    pub(crate) fn stop_channel(&mut self, channel: Channel, fade: Fade) {
        let c = channel.index();
        let len = self.samples_in(fade.duration);
        let now = self.now;
        let v = &mut self.voices[c];
        if v.sfx.is_none() {
            return;
        }
        if len == 0 {
            self.stop(c);
        } else if now + len < v.out.end() {
            v.out = Ramp {
                start: now,
                len,
                out: true,
                easing: fade.easing,
            };
        }
    }

    /// The channel a sound effect's handle names while that start of it plays.
    fn sfx_channel(&self, voice: Handle) -> Option<usize> {
        let c = usize::from(voice.slot);
        let v = self.voices.get(c)?;
        (voice.kind == VoiceKind::Sfx
            && v.sfx.is_some()
            && !v.from_music
            && v.serial == voice.serial)
            .then_some(c)
    }

    /// Whether the tune a handle names is the one playing.
    fn is_tune(&self, voice: Handle) -> bool {
        voice.kind == VoiceKind::Tune && self.playing.is_some_and(|p| p.serial == voice.serial)
    }

    /// What a handle changes: its sound effect's or its tune's live settings.
    fn live_of(&mut self, voice: Handle) -> Option<&mut Live> {
        if let Some(c) = self.sfx_channel(voice) {
            return Some(&mut self.voices[c].live);
        }
        if self.is_tune(voice) {
            return self.playing.as_mut().map(|p| &mut p.live);
        }
        None
    }

    /// Fades out what `voice` names, then stops it; nothing once it has ended.
    pub(crate) fn stop_voice(&mut self, voice: Handle, fade: Fade) {
        let samples = self.samples_in(fade.duration) as u32;
        match voice.kind {
            VoiceKind::Sfx => {
                if let Some(c) = self.sfx_channel(voice).and_then(Channel::new) {
                    self.stop_channel(c, fade);
                }
            }
            VoiceKind::Tune if self.is_tune(voice) => self.fade_tune_out(fade),
            VoiceKind::Tune => {}
            VoiceKind::Clip => self.pool.stop(voice, samples, fade.easing),
            VoiceKind::MusicClip => self.music_clips.stop_voice(voice, samples, fade.easing),
        }
    }

    /// Whether what `voice` names still plays (fading out included).
    pub(crate) fn is_playing(&self, voice: Handle) -> bool {
        match voice.kind {
            VoiceKind::Sfx => self.sfx_channel(voice).is_some(),
            VoiceKind::Tune => self.is_tune(voice),
            VoiceKind::Clip => self.pool.is_playing(voice),
            VoiceKind::MusicClip => self.music_clips.is_playing(voice),
        }
    }

    /// Plays `voice` at `pitch` times its own from the next sample.
    pub(crate) fn set_voice_pitch(&mut self, voice: Handle, pitch: f32) {
        let pitch = pitch_q16(pitch);
        match voice.kind {
            VoiceKind::Clip => self.pool.set_pitch(&self.clips, voice, pitch, self.rate),
            VoiceKind::MusicClip => {
                self.music_clips
                    .set_pitch(&self.clips, voice, pitch, self.rate)
            }
            _ => {
                if let Some(live) = self.live_of(voice) {
                    live.pitch = pitch as u32;
                }
            }
        }
    }

    /// Sets `voice`'s volume, 0 to 255, from the next sample.
    pub(crate) fn set_voice_volume(&mut self, voice: Handle, volume: u8) {
        match voice.kind {
            VoiceKind::Clip => self.pool.set_mix(voice, Some(volume), None),
            VoiceKind::MusicClip => self.music_clips.set_mix(voice, Some(volume), None),
            _ => {
                if let Some(live) = self.live_of(voice) {
                    live.volume = volume;
                }
            }
        }
    }

    /// Sets `voice`'s pan from the next sample.
    pub(crate) fn set_voice_pan(&mut self, voice: Handle, pan: Pan) {
        match voice.kind {
            VoiceKind::Clip => self.pool.set_mix(voice, None, Some(pan)),
            VoiceKind::MusicClip => self.music_clips.set_mix(voice, None, Some(pan)),
            _ => {
                if let Some(live) = self.live_of(voice) {
                    live.pan = pan;
                }
            }
        }
    }

    pub(crate) fn play_music(&mut self, id: MusicId) -> Result<Handle, PlayError> {
        let Some(music) = self.music.get(usize::from(id.0)).and_then(Option::as_ref) else {
            return Err(PlayError::UnknownMusic(id.0));
        };
        match music {
            Music::Sequences { .. } => {
                self.playing = Some(Playing {
                    music: id.0,
                    serial: 0,
                    live: Live::default(),
                    fade: Ramp::default(),
                    reserved: 0,
                    pattern: 0,
                    end: u64::MAX,
                    lanes: [Lane::default(); CHANNELS],
                });
                for c in 0..CHANNELS {
                    self.start_lane(c, 0);
                }
                self.end_if_every_lane_is_done();
            }
            _ => {
                self.start_pattern(id.0, 0);
                self.skip_empty_patterns();
            }
        }
        let serial = self.next_serial();
        if let Some(p) = &mut self.playing {
            p.serial = serial;
            p.live = Live::default();
        }
        Ok(Handle {
            kind: VoiceKind::Tune,
            slot: 0,
            serial,
        })
    }

    /// Starts a tune with a fade in and reserved channels.
    pub(crate) fn play_music_with(
        &mut self,
        id: MusicId,
        start: MusicStart,
    ) -> Result<Handle, PlayError> {
        if self
            .music
            .get(usize::from(id.0))
            .and_then(Option::as_ref)
            .is_none()
        {
            return Err(PlayError::UnknownMusic(id.0));
        }
        // A new start of a tune already playing must not keep its old fade.
        self.playing = None;
        let handle = self.play_music(id)?;
        let len = self.samples_in(start.fade_in.duration);
        let fade = Ramp {
            start: self.now,
            len,
            out: false,
            easing: start.fade_in.easing,
        };
        let reserved = (0..CHANNELS)
            .filter(|&c| start.reserved[c])
            .fold(0u8, |m, c| m | 1 << c);
        if let Some(p) = &mut self.playing {
            p.fade = fade;
            p.reserved = reserved;
        }
        Ok(handle)
    }

    /// Fades the tune out along `fade`, then stops it.
    fn fade_tune_out(&mut self, fade: Fade) {
        let len = self.samples_in(fade.duration);
        let now = self.now;
        match &mut self.playing {
            Some(p) if len > 0 => {
                // From the gain it has now, so a fade out during a fade in does not jump.
                let (num, den) = if p.fade.len > 0 {
                    p.fade.gain(now)
                } else {
                    (1, 1)
                };
                let gain = (num as u64 * len) / den as u64;
                p.fade = Ramp {
                    start: now.saturating_sub(len - gain.min(len)),
                    len,
                    out: true,
                    easing: fade.easing,
                };
            }
            _ => self.end_tune(),
        }
    }

    /// Fades all music out along `fade` (the tune and the music clips), then stops it.
    pub(crate) fn stop_music(&mut self, fade: Fade) {
        self.fade_tune_out(fade);
        let samples = self.samples_in(fade.duration) as u32;
        self.music_clips.stop(samples, fade.easing);
    }

    /// Whether any music plays: a tune, or a music clip.
    pub(crate) fn is_music_playing(&self) -> bool {
        self.playing.is_some() || self.music_clips.any()
    }

    /// Whole samples in `time` at the current rate.
    fn samples_in(&self, time: std::time::Duration) -> u64 {
        let samples = time.as_nanos() * u128::from(self.rate) / 1_000_000_000;
        samples.min(u128::from(u32::MAX)) as u64
    }

    /// Ends the tune at once and silences the channels it held.
    fn end_tune(&mut self) {
        self.playing = None;
        for c in 0..CHANNELS {
            if self.voices[c].from_music {
                self.voices[c].from_music = false;
                self.stop(c);
            }
        }
    }

    /// Whether a tune's note may take `channel`: nothing plays there, or the tune does.
    fn free_for_music(&self, channel: usize) -> bool {
        let v = &self.voices[channel];
        v.sfx.is_none() || v.from_music
    }

    fn start_pattern(&mut self, music: u16, pattern: usize) {
        let Some(Music::Patterns { patterns, .. }) =
            self.music.get(usize::from(music)).and_then(Option::as_ref)
        else {
            return;
        };
        let p = patterns[pattern];
        // The lowest channel whose sound effect ends sets the length; a looping one only when
        // every one loops.
        let mut length = None;
        let mut looping_length = None;
        for (channel, slot) in p.iter().enumerate() {
            let free = self.free_for_music(channel);
            match slot.filter(|id| self.sfx_at(id.0).is_some()) {
                Some(id) => {
                    let loops = self.sfx_at(id.0).is_some_and(|s| s.loop_start.is_some());
                    if loops {
                        looping_length = looping_length.or(Some(self.first_pass(id.0)));
                    } else {
                        length = length.or(Some(self.first_pass(id.0)));
                    }
                    if free {
                        self.start(channel, id.0, true);
                    } else {
                        // The tune's note loses to the sound effect holding its channel.
                        self.meter.stolen = self.meter.stolen.saturating_add(1);
                    }
                }
                None if free => {
                    self.voices[channel].from_music = false;
                    self.stop(channel);
                }
                None => {}
            }
        }
        // A tune going on keeps its fade, reserved channels and handle; a new one starts
        // without.
        let (fade, reserved, serial, live) = self
            .playing
            .filter(|p| p.music == music)
            .map_or((Ramp::default(), 0, 0, Live::default()), |p| {
                (p.fade, p.reserved, p.serial, p.live)
            });
        self.playing = Some(Playing {
            music,
            serial,
            live,
            fade,
            reserved,
            pattern,
            end: self.now + length.or(looping_length).unwrap_or(0),
            lanes: [Lane::default(); CHANNELS],
        });
    }

    /// Moves on from every pattern that has ended by now (an empty one lasts no time).
    fn skip_empty_patterns(&mut self) {
        for _ in 0..MAX_EMPTY_PATTERNS {
            let Some(p) = self.playing else { return };
            if p.end > self.now {
                return;
            }
            let Some(Music::Patterns {
                patterns,
                loop_start,
            }) = self
                .music
                .get(usize::from(p.music))
                .and_then(Option::as_ref)
            else {
                return;
            };
            let next = p.pattern + 1;
            match (next < patterns.len(), *loop_start) {
                (true, _) => self.start_pattern(p.music, next),
                (false, Some(start)) => self.start_pattern(p.music, start),
                (false, None) => self.end_tune(),
            }
        }
        // Every pattern of the loop is empty: it plays nothing, so it ends.
        self.end_tune();
    }

    /// Starts channel `c`'s sound effect number `pos` of a tune of sequences (or marks the
    /// channel done past its end).
    fn start_lane(&mut self, c: usize, pos: usize) {
        let Some(p) = self.playing else { return };
        let Some(Music::Sequences { channels, looping }) = self
            .music
            .get(usize::from(p.music))
            .and_then(Option::as_ref)
        else {
            return;
        };
        let list = &channels[c];
        let pos = if pos >= list.len() && *looping {
            0
        } else {
            pos
        };
        let id = list.get(pos).map(|id| id.0);
        let end = match id.map(|id| self.first_pass(id)) {
            Some(len) if len > 0 => self.now + len,
            _ => u64::MAX,
        };
        if let Some(p) = &mut self.playing {
            p.lanes[c] = Lane { pos, end };
        }
        match id.filter(|&id| self.sfx_at(id).is_some()) {
            Some(id) if self.free_for_music(c) => self.start(c, id, true),
            Some(_) => self.meter.stolen = self.meter.stolen.saturating_add(1),
            None if self.free_for_music(c) && self.voices[c].from_music => {
                self.voices[c].from_music = false;
                self.stop(c);
            }
            None => {}
        }
    }

    fn end_if_every_lane_is_done(&mut self) {
        if let Some(p) = self.playing {
            if p.lanes.iter().all(|l| l.end == u64::MAX) {
                self.end_tune();
            }
        }
    }

    pub(crate) fn music_pattern(&self) -> Option<(MusicId, usize)> {
        let p = self.playing?;
        let place = match self.music[usize::from(p.music)].as_ref()? {
            Music::Sequences { .. } => p
                .lanes
                .iter()
                .find(|l| l.end != u64::MAX)
                .map_or(0, |l| l.pos),
            _ => p.pattern,
        };
        Some((MusicId(p.music), place))
    }

    pub(crate) fn set_volume(&mut self, channel: Channel, volume: u8) {
        self.voices[channel.index()].volume = volume;
    }

    pub(crate) fn volume(&self, channel: Channel) -> u8 {
        self.voices[channel.index()].volume
    }

    pub(crate) fn set_bus_volume(&mut self, bus: Bus, volume: u8) {
        self.buses.set_volume(bus, volume);
    }

    /// Fades `bus` from where it is now to `volume` along `fade`.
    pub(crate) fn fade_bus(&mut self, bus: Bus, volume: u8, fade: Fade) {
        let len = self.samples_in(fade.duration);
        self.buses.fade(bus, volume, self.now, len, fade.easing);
    }

    pub(crate) fn bus_volume(&self, bus: Bus) -> u8 {
        self.buses.volume(bus, self.now)
    }

    pub(crate) fn bus_level(&self, bus: Bus) -> u8 {
        self.buses.meter(self.now)[bus.index()]
    }

    pub(crate) fn set_bus_muted(&mut self, bus: Bus, muted: bool) {
        self.buses.set_muted(bus, muted);
    }

    pub(crate) fn is_bus_muted(&self, bus: Bus) -> bool {
        self.buses.is_muted(bus)
    }

    pub(crate) fn set_ducking(&mut self, ducking: super::Ducking) {
        let (attack, release) = (
            self.samples_in(ducking.attack),
            self.samples_in(ducking.release),
        );
        self.buses.set_ducking(ducking.amount, attack, release);
    }

    pub(crate) fn reset_ducking(&mut self) {
        self.buses.reset_ducking();
    }

    pub(crate) fn channel(&self, channel: Channel) -> ChannelState {
        let v = &self.voices[channel.index()];
        ChannelState {
            sfx: v.sfx.map(SfxId),
            note: v.note,
            from_music: v.from_music,
        }
    }

    pub(crate) fn meter(&self) -> SoundMeter {
        let mut meter = self.meter;
        meter.voices = self.voices.iter().filter(|v| v.sfx.is_some()).count() as u8;
        meter.buses = self.buses.meter(self.now);
        meter
    }

    pub(crate) fn drain(&mut self) -> std::vec::Drain<'_, Frame> {
        self.out.drain(..)
    }

    pub(crate) fn pending(&self) -> &[Frame] {
        &self.out
    }

    pub(crate) fn set_pan(&mut self, channel: Channel, pan: Pan) {
        self.pans[channel.index()] = pan;
    }

    pub(crate) fn pan(&self, channel: Channel) -> Pan {
        self.pans[channel.index()]
    }

    pub(crate) fn find_clip(&self, name: &str, digest: u64) -> Option<ClipId> {
        self.clips.find(name, digest)
    }

    /// Holds a decoded clip the caller has checked.
    pub(crate) fn add_clip(&mut self, name: &str, digest: u64, clip: DecodedClip) -> ClipId {
        self.meter.in_use = true;
        self.clips.add(name, digest, clip)
    }

    pub(crate) fn clip_count(&self) -> usize {
        self.clips.len()
    }

    pub(crate) fn play_clip(
        &mut self,
        clip: ClipId,
        options: ClipOptions,
    ) -> Result<Handle, PlayError> {
        self.pool.play(&self.clips, clip, options, self.rate)
    }

    pub(crate) fn play_music_clip(
        &mut self,
        clip: ClipId,
        options: MusicClip,
    ) -> Result<Handle, PlayError> {
        let fade = self.samples_in(options.crossfade.duration);
        let offset = match options.join {
            Join::Gap(gap) => Some(self.samples_in(gap) as i64),
            Join::Overlap(overlap) => Some(-(self.samples_in(overlap).min(fade) as i64)),
            _ => None,
        };
        let handover = Handover {
            fade: fade as u32,
            easing: options.crossfade.easing,
            offset,
        };
        self.music_clips
            .play(&self.clips, clip, options, handover, self.rate)
    }

    pub(crate) fn music_clip_position(&self) -> Option<(ClipId, u64)> {
        self.music_clips.position()
    }

    pub(crate) fn seek_music_clip(&mut self, sample: u64) -> Result<(), PlayError> {
        self.music_clips.seek(&self.clips, sample)
    }

    /// The next sample anything changes at: a voice's block end or fade out's end, or the
    /// tune's next step.
    fn next_event(&self) -> u64 {
        let voices = self
            .voices
            .iter()
            .map(|v| v.next_at.min(v.out.end()))
            .min()
            .unwrap_or(u64::MAX);
        let music = self.playing.map_or(u64::MAX, |p| {
            let faded = p.fade.end();
            self.music[usize::from(p.music)]
                .as_ref()
                .map_or(u64::MAX, |m| p.next_at(m))
                .min(faded)
        });
        voices.min(music)
    }

    /// One update's samples: the voices and the tune run on sample by sample, their notes and
    /// steps starting wherever their time falls inside the update.
    pub(crate) fn step(&mut self) {
        let end = self.now + u64::from(self.clock.next_tick());
        let mut peaks = [0i64; CHANNELS];
        let mut clipped = 0u64;
        while self.now < end {
            self.run_events();
            let until = self.next_event().min(end);
            clipped += self.render(until - self.now, &mut peaks);
            self.now = until;
        }
        // What falls due on the update's last sample happens now, before the next update's
        // calls, so a sound that ended is seen to have ended whatever the update rate.
        self.run_events();
        // Each channel through its bus and the main bus, as they stand at the update's end.
        for ((meter, peak), v) in self.meter.peaks.iter_mut().zip(peaks).zip(&self.voices) {
            let gain = self.buses.through(bus_of(v), self.now);
            *meter = ((peak * gain) >> 17).min(32_767) as u16;
        }
        self.meter.clipped = self.meter.clipped.saturating_add(clipped);
    }

    /// Mixes `n` samples with every voice on its ramps; returns how many were clipped.
    fn render(&mut self, n: u64, peaks: &mut [i64; CHANNELS]) -> u64 {
        let mut clipped = 0;
        let fade = self.playing.map(|p| p.fade).filter(|f| f.len > 0);
        let tune = self.playing.map_or(Live::default(), |p| p.live);
        // What each channel's handle (or the tune's) changed, and its pan with the channel's.
        let live: [Live; CHANNELS] = std::array::from_fn(|c| {
            if self.voices[c].from_music {
                tune
            } else {
                self.voices[c].live
            }
        });
        let gains: [[i64; 2]; CHANNELS] = std::array::from_fn(|c| {
            let pan = i16::from(self.pans[c]) + i16::from(live[c].pan);
            pan_gains(pan.clamp(-127, 127) as Pan)
        });
        let clips = self.pool.any();
        let music_clips = self.music_clips.any();
        // Whether a channel plays a sound effect: what lowers the music while ducking is set.
        let sfx = self.voices.iter().any(|v| v.sfx.is_some() && !v.from_music);
        // The buses' gains for the whole run when no fade or ducking moves them.
        let steady = self
            .buses
            .steady(self.now, sfx || clips && self.pool.any_on(Bus::Sfx));
        for i in 0..n {
            let mut mix = [[0i64; 2]; BUSES];
            // The tune's fade, as a fraction (1 of 1 when none).
            let (gain, len) = fade.map_or((1, 1), |f| f.gain(self.now + i));
            for (((v, peak), [left, right]), live) in self
                .voices
                .iter_mut()
                .zip(peaks.iter_mut())
                .zip(gains)
                .zip(live)
            {
                v.amp += v.amp_d;
                v.step += v.step_d;
                let Some(wave) = v.wave else { continue };
                let a = v.amp >> 16;
                if a != 0 {
                    let noise = (v.noise >> 16) as i16 as i32;
                    let s = i64::from(sample(wave, v.phase, v.phase2, noise));
                    let mut voice = (((s * a) >> 16) * i64::from(v.volume)) >> 8;
                    if v.from_music && gain != len {
                        voice = voice * gain / len;
                    }
                    if live.volume != 255 {
                        let volume = i64::from(live.volume) + i64::from(live.volume >> 7);
                        voice = (voice * volume) >> 8;
                    }
                    if v.out.len > 0 {
                        let (num, den) = v.out.gain(self.now + i);
                        voice = voice * num / den;
                    }
                    *peak = (*peak).max(voice.abs());
                    // At the centre both gains are 256: each side gets the voice exactly.
                    let mix = &mut mix[bus_of(v).index()];
                    mix[0] += (voice * left) >> 8;
                    mix[1] += (voice * right) >> 8;
                }
                let mut inc = (v.step >> 16) as u32;
                if live.pitch != PITCH_ONE {
                    inc = ((u64::from(inc) * u64::from(live.pitch)) >> 16) as u32;
                }
                if wave == Wave::Phaser {
                    v.phase2 = v.phase2.wrapping_add(phaser_step(inc));
                }
                let next = v.phase.wrapping_add(inc);
                if (next ^ v.phase) >> 28 != 0 && wave == Wave::Noise {
                    v.noise = next_noise(v.noise);
                }
                v.phase = next;
            }
            // Asked before the clips move on: one may end at this sample.
            let sfx = steady.is_none() && (sfx || clips && self.pool.any_on(Bus::Sfx));
            if clips {
                self.pool.mix(&self.clips, &mut mix);
            }
            if music_clips {
                self.music_clips.mix(&self.clips, &mut mix);
            }
            let scaled = match steady {
                Some(gains) => Buses::mix_steady(gains, mix),
                None => self.buses.mix(self.now + i, mix, sfx),
            };
            let full = -32_768..=32_767;
            clipped += u64::from(!full.contains(&scaled[0]) || !full.contains(&scaled[1]));
            let out = scaled.map(|side| side.clamp(-32_768, 32_767) as i16);
            if self.out.len() == self.out_limit {
                self.out.clear();
            }
            self.out.push(out);
        }
        clipped
    }

    /// Everything due at this sample: blocks that end (notes move on, sound effects end, fades
    /// finish), then the tune's next pattern or sequence steps.
    fn run_events(&mut self) {
        let now = self.now;
        for c in 0..CHANNELS {
            if self.voices[c].out.end() <= now {
                // Faded out through its handle: silent now, so no fade after the stop.
                let v = &mut self.voices[c];
                (v.amp, v.amp_d, v.target.0) = (0, 0, 0);
                v.out = Ramp::default();
                self.stop(c);
            }
            if self.voices[c].next_at == now {
                self.end_block(c);
            }
        }
        let Some(p) = self.playing else { return };
        if now >= p.fade.end() {
            self.end_tune();
            return;
        }
        match self.music[usize::from(p.music)].as_ref() {
            Some(Music::Sequences { .. }) => {
                for c in 0..CHANNELS {
                    let Some(lane) = self.playing.map(|p| p.lanes[c]) else {
                        return;
                    };
                    if lane.end == now {
                        self.start_lane(c, lane.pos + 1);
                    }
                }
                self.end_if_every_lane_is_done();
            }
            Some(_) => self.skip_empty_patterns(),
            None => self.end_tune(),
        }
    }

    /// A voice's block ended: it reaches its target exactly, moves on a block (a note, or the
    /// end of its sound effect), and starts the next.
    fn end_block(&mut self, c: usize) {
        let v = &mut self.voices[c];
        v.amp = v.target.0 << 16;
        v.step = i64::from(v.target.1) << 16;
        v.amp_d = 0;
        v.step_d = 0;
        let Some(id) = v.sfx else {
            v.next_at = u64::MAX;
            return;
        };
        let Some(sfx) = self.sfx.get(usize::from(id)).and_then(Option::as_ref) else {
            v.sfx = None;
            self.begin_block(c);
            return;
        };
        let per_note = u64::from(sfx.speed) * Timing::of(sfx, self.rate, self.fps_milli).per_unit;
        v.age += 1;
        v.block_in_note += 1;
        if v.block_in_note >= per_note {
            v.block_in_note = 0;
            v.slide_from = i32::from(sfx.notes[v.note].pitch) * 256;
            v.slide_volume = sfx.notes[v.note].volume;
            v.note += 1;
            if v.notes_left != u32::MAX {
                v.notes_left -= 1;
            }
            let looped = match sfx.loop_start {
                Some(start) if v.note == sfx.notes.len() => {
                    v.note = start;
                    true
                }
                _ => false,
            };
            if v.notes_left == 0 || (!looped && v.note == sfx.notes.len()) {
                v.note = 0;
                v.sfx = None;
                v.from_music = false;
            }
        }
        self.begin_block(c);
    }

    /// The amplitude (16.16) and phase step a playing voice reaches at the end of its current
    /// block, and sets its wave; with them, for an exact time base, the phase step the block
    /// starts at when it does not glide from where the last one ended.
    fn target(&mut self, channel: usize) -> ((i64, u32), Option<u32>) {
        let rate = self.rate;
        let fps_milli = self.fps_milli;
        let v = &mut self.voices[channel];
        let Some(sfx) = v.sfx.and_then(|id| self.sfx.get(usize::from(id))?.as_ref()) else {
            return ((0, v.target.1), None);
        };
        let note: Note = sfx.notes[v.note];
        if note.volume == 0 {
            return ((0, v.target.1), None);
        }
        let timing = Timing::of(sfx, rate, fps_milli);
        let per_unit = timing.per_unit as i64;
        let length = i64::from(sfx.speed) * per_unit;
        let t = v.block_in_note as i64;
        // How far through the note this block ends, 0..=FULL.
        let p = (t + 1) * FULL / length;
        let base = i32::from(note.pitch) * 256;
        let pitch = match note.effect {
            NoteEffect::Slide => v.slide_from + ((base - v.slide_from) as i64 * p / FULL) as i32,
            NoteEffect::Vibrato => {
                // A triangle of ±depth over each cycle, in 256ths of a semitone (128 is 50
                // cents, half a semitone).
                let (num, den) = timing.vibrato;
                let f = (u128::from(v.age) * u128::from(num) % u128::from(den)) * 65_536
                    / u128::from(den);
                let f = i64::from(f as i32); // 0..65536
                let a = i64::from(timing.vibrato_depth) * 256 / 100;
                let wobble = if f < 32_768 {
                    -a + 2 * a * f / 32_768
                } else {
                    3 * a - 2 * a * f / 32_768
                };
                (wobble as i32).saturating_add(base)
            }
            NoteEffect::Drop => base - (i64::from(base) * p / FULL) as i32,
            NoteEffect::Arpeggio => {
                let (num, den) = timing.arpeggio;
                let k = u128::from(v.age) * u128::from(num) / u128::from(den) % 3;
                base + [0, 4 * 256, 7 * 256][k as usize]
            }
            NoteEffect::ArpeggioGroup { units } => {
                let step = v.age / timing.per_unit / u64::from(units.max(1));
                let at = (v.note & !3) | (step % 4) as usize;
                let pitch = sfx
                    .notes
                    .get(at)
                    .or(sfx.notes.last())
                    .map_or(0, |n| n.pitch);
                i32::from(pitch) * 256
            }
            _ => base,
        };
        let mut amp = i64::from(note.volume) * FULL / i64::from(MAX_NOTE_VOLUME);
        match note.effect {
            // With an exact time base a slide glides the volume too, from a previous note that
            // sounded, as PICO-8's does.
            NoteEffect::Slide if timing.exact && v.slide_volume > 0 => {
                let from = i64::from(v.slide_volume) * FULL / i64::from(MAX_NOTE_VOLUME);
                amp = from + (amp - from) * p / FULL;
            }
            NoteEffect::FadeIn => amp = amp * p / FULL,
            NoteEffect::FadeOut => amp = amp * (FULL - p) / FULL,
            _ => {}
        }
        let attack = i64::from(sfx.attack) * per_unit;
        if attack > 0 && t < attack {
            amp = amp * (t + 1) / attack;
        }
        let release = i64::from(sfx.release) * per_unit;
        let left = length - t - 1;
        if release > 0 && left < release {
            amp = amp * left / release;
        }
        if v.wave != Some(note.wave) {
            v.wave = Some(note.wave);
        }
        if !timing.exact {
            return ((amp, phase_step(pitch, rate)), None);
        }
        // An exact time base: a drop falls in frequency, straight to nothing (a glide of the
        // phase step is one), and pitch steps rather than glides wherever the effect is not a
        // glide itself.
        let step = match note.effect {
            NoteEffect::Drop => {
                let top = i64::from(phase_step(base, rate));
                (top * (FULL - p) / FULL) as u32
            }
            _ => phase_step(pitch, rate),
        };
        let from = match note.effect {
            NoteEffect::Slide if t == 0 => Some(phase_step(v.slide_from, rate)),
            NoteEffect::Slide => None,
            NoteEffect::Drop if t == 0 => Some(phase_step(base, rate)),
            NoteEffect::Drop | NoteEffect::Vibrato if t > 0 => None,
            _ => Some(step),
        };
        ((amp, step), from)
    }
}
