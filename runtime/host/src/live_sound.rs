//! Live sound: the game loop's samples on their way to an audio device.
//!
//! The synthesiser makes each update's samples when the update runs (see
//! [`Console::step_sound`](bt::host::Console::step_sound)); a device asks for samples on its own
//! thread at its own pace. Between them sits a [`SampleRing`], one writer and one reader, with
//! no lock and no allocation after it is made. The writer is a [`Feeder`] on the game loop's
//! thread; the reader is a [`Puller`] inside the device's callback. [`Playback`] holds what
//! both share: the ring, the pause flag and the counters the overlay's audio row shows.
//!
//! The puller keeps the sound close behind the game. It starts playing once an update and a
//! half's samples are queued (priming); when the loop has run far ahead (after a stall it catches up
//! with up to eight updates at once) it skips the oldest samples down to that level again, so
//! late sound is dropped, never played late, and counts the updates skipped; when the queue runs
//! dry it plays silence, counts an underrun and primes again, half an update higher (up to four
//! updates), stepping back down after ten calm seconds. A paused game is silent and counts
//! nothing.
//!
//! Nothing here changes a sample the synthesiser made: `bt wav` and live play hear the same
//! ticks. Only a device whose rate differs from the console's gets them resampled on the way
//! out.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bt::sound::Frame;

/// A queue of stereo frames between one writer thread and one reader thread, with room for a
/// fixed number; neither side waits for the other. (Each frame is one atomic word, left in
/// the low half, so a reader never sees half a frame.)
///
/// ```
/// use bt_host::live_sound::SampleRing;
///
/// let ring = SampleRing::new(4);
/// assert_eq!(ring.push(&[[1, -1], [2, -2], [3, -3], [4, -4], [5, -5]]), 4, "only four fit");
/// assert_eq!(SampleRing::new(5).capacity(), 8);
/// let mut out = [[0; 2]; 3];
/// assert_eq!(ring.pop(&mut out), 3);
/// assert_eq!(out, [[1, -1], [2, -2], [3, -3]]);
/// assert_eq!(ring.len(), 1);
/// ```
#[derive(Debug)]
pub struct SampleRing {
    slots: Box<[AtomicU32]>,
    /// Samples ever written; only the writer moves it.
    written: AtomicUsize,
    /// Samples ever read or skipped; only the reader moves it.
    read: AtomicUsize,
}

impl SampleRing {
    /// A ring with room for at least `capacity` samples (the next power of two), so that the
    /// counters' positions stay right when they wrap around.
    pub fn new(capacity: usize) -> SampleRing {
        let capacity = capacity.max(1).next_power_of_two();
        SampleRing {
            slots: (0..capacity).map(|_| AtomicU32::new(0)).collect(),
            written: AtomicUsize::new(0),
            read: AtomicUsize::new(0),
        }
    }

    /// How many samples it holds at most.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// How many samples are queued.
    pub fn len(&self) -> usize {
        let written = self.written.load(Ordering::Acquire);
        written.wrapping_sub(self.read.load(Ordering::Acquire))
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Queues as many of `samples` as fit, in order, and returns how many did. Writer only.
    pub fn push(&self, samples: &[Frame]) -> usize {
        let written = self.written.load(Ordering::Relaxed);
        let room = self.capacity() - written.wrapping_sub(self.read.load(Ordering::Acquire));
        let n = samples.len().min(room);
        let mask = self.capacity() - 1;
        for (i, &s) in samples[..n].iter().enumerate() {
            self.slots[written.wrapping_add(i) & mask].store(pack(s), Ordering::Relaxed);
        }
        self.written
            .store(written.wrapping_add(n), Ordering::Release);
        n
    }

    /// Takes up to `out.len()` samples, oldest first, and returns how many it took. Reader only.
    pub fn pop(&self, out: &mut [Frame]) -> usize {
        let read = self.read.load(Ordering::Relaxed);
        let queued = self.written.load(Ordering::Acquire).wrapping_sub(read);
        let n = out.len().min(queued);
        let mask = self.capacity() - 1;
        for (i, slot) in out[..n].iter_mut().enumerate() {
            *slot = unpack(self.slots[read.wrapping_add(i) & mask].load(Ordering::Relaxed));
        }
        self.read.store(read.wrapping_add(n), Ordering::Release);
        n
    }

    /// Takes one frame, if one is queued. Reader only.
    pub fn pop_one(&self) -> Option<Frame> {
        let mut one = [[0; 2]];
        (self.pop(&mut one) == 1).then_some(one[0])
    }

    /// Drops up to `n` of the oldest samples and returns how many it dropped. Reader only.
    pub fn skip(&self, n: usize) -> usize {
        let read = self.read.load(Ordering::Relaxed);
        let queued = self.written.load(Ordering::Acquire).wrapping_sub(read);
        let n = n.min(queued);
        self.read.store(read.wrapping_add(n), Ordering::Release);
        n
    }
}

/// A frame as one word: left in the low half.
fn pack([l, r]: Frame) -> u32 {
    u32::from(l as u16) | u32::from(r as u16) << 16
}

fn unpack(word: u32) -> Frame {
    [word as u16 as i16, (word >> 16) as u16 as i16]
}

/// How live sound went, for the overlay's audio row and `bt run`'s summary.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlaybackStats {
    /// The device's sample rate.
    pub device_rate: u32,
    /// Times the device asked for sound and the queue ran dry while the game played, plus
    /// the device's own reported problems ([`PlaybackStats::device_errors`]).
    pub underruns: u32,
    /// Of those, problems the device reported itself (its own underruns, most often).
    pub device_errors: u32,
    /// Updates whose sound was never heard: skipped because it arrived late, or thrown away
    /// with the time the update cap discarded.
    pub skipped_ticks: u64,
    /// Of those, the updates whose time the loop threw away (they never ran).
    pub thrown_away_ticks: u64,
    /// From an update queueing its samples to the device playing them, over the recent
    /// callbacks: the mean, in milliseconds (0 before the first measurement).
    pub latency_ms: f64,
    /// The longest such latency since the start, in milliseconds.
    pub max_latency_ms: f64,
    /// Device callbacks so far.
    pub callbacks: u64,
    /// How much faster (above 0) or slower the sound is played than the console's rate to
    /// follow the game, in percent, at most [`MAX_SPEED_ADJUST`] either way: a game whose
    /// updates run a little slow (a display slightly slower than its nominal rate, whose frame
    /// times the loop snaps to it) would otherwise run its queue dry every few seconds.
    pub speed_adjust_percent: f64,
}

/// What the game loop and the device callback share.
#[derive(Debug)]
pub struct Playback {
    ring: SampleRing,
    /// The console's sample rate.
    rate: u32,
    /// Samples the synthesiser makes an update.
    per_tick: f64,
    paused: AtomicBool,
    device_rate: AtomicU32,
    underruns: AtomicU32,
    device_errors: AtomicU32,
    skipped_samples: AtomicU64,
    thrown_away_ticks: AtomicU64,
    callbacks: AtomicU64,
    /// The playing speed's adjustment, in parts per million.
    speed_ppm: AtomicI32,
    /// Mean latency in microseconds (a moving average).
    latency_us: AtomicU64,
    max_latency_us: AtomicU64,
    /// When the device first asked for sound and when it last did, in microseconds after
    /// `epoch`, plus one (0: not yet).
    first_call_us: AtomicU64,
    last_call_us: AtomicU64,
    epoch: Instant,
}

/// Updates' worth of sound queued before playing starts: enough to ride out a frame that comes
/// a little late, and a game a little slower than the device while the speed control settles. Each underrun raises it by [`PRIME_STEP_TICKS`], up to
/// [`PRIME_MAX_TICKS`], and each [`PRIME_CALM_US`] without one lowers it a step again: a busy
/// machine trades a little latency for unbroken sound, and gets it back once it is calm.
const PRIME_TICKS: f64 = 2.0;
const PRIME_STEP_TICKS: f64 = 0.5;
const PRIME_MAX_TICKS: f64 = 4.0;
const PRIME_CALM_US: u64 = 10_000_000;
/// Updates' worth queued beyond the priming level past which the oldest are skipped.
const SLACK_TICKS: f64 = 3.0;
/// The most the playing speed is adjusted either way (1 %: about a sixth of a semitone).
pub const MAX_SPEED_ADJUST: f64 = 0.01;
/// The speed control: this much faster per update's worth of sound queued above the target...
const SPEED_GAIN: f64 = 0.006;
/// ... and this much more for each second it has been so ...
const SPEED_GAIN_PER_SECOND: f64 = 0.01;
/// ... both on the queue's level smoothed over this many seconds, since it jumps by an update's
/// worth at every frame. (Tuned on a model of a game at 59.4 to 60.3 updates a second against a
/// device taking 10 ms at a time: no underrun from the start, and the speed steady to 0.05 %.)
const LEVEL_SMOOTHING_SECONDS: f64 = 0.2;
/// A device call this long after its first means the device has moved past its opening burst.
const FLOWING_AFTER_US: u64 = 5_000;
/// The ring holds this many seconds: far more than is ever queued before a skip, so the writer
/// never finds it full in practice.
const RING_SECONDS: usize = 1;

impl Playback {
    /// Shared state for a console making `rate` samples a second at `target_fps` updates a
    /// second.
    pub fn new(rate: u32, target_fps: f64) -> Arc<Playback> {
        let rate = rate.max(1);
        let per_tick = if target_fps > 0.0 {
            f64::from(rate) / target_fps
        } else {
            f64::from(rate)
        };
        let most = per_tick * (PRIME_MAX_TICKS + SLACK_TICKS);
        let capacity = (rate as usize * RING_SECONDS).max(2 * most.ceil() as usize);
        Arc::new(Playback {
            ring: SampleRing::new(capacity),
            rate,
            per_tick,
            paused: AtomicBool::new(false),
            device_rate: AtomicU32::new(rate),
            underruns: AtomicU32::new(0),
            device_errors: AtomicU32::new(0),
            skipped_samples: AtomicU64::new(0),
            thrown_away_ticks: AtomicU64::new(0),
            callbacks: AtomicU64::new(0),
            speed_ppm: AtomicI32::new(0),
            latency_us: AtomicU64::new(0),
            max_latency_us: AtomicU64::new(0),
            first_call_us: AtomicU64::new(0),
            last_call_us: AtomicU64::new(0),
            epoch: Instant::now(),
        })
    }

    /// The console's sample rate.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Pauses or resumes: while paused the device plays silence and nothing is counted.
    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::Release);
    }

    /// Whether the game is paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Acquire)
    }

    /// The figures so far.
    pub fn stats(&self) -> PlaybackStats {
        let skipped = self.skipped_samples.load(Ordering::Relaxed) as f64 / self.per_tick;
        let thrown = self.thrown_away_ticks.load(Ordering::Relaxed);
        PlaybackStats {
            device_rate: self.device_rate.load(Ordering::Relaxed),
            underruns: self.underruns.load(Ordering::Relaxed),
            device_errors: self.device_errors.load(Ordering::Relaxed),
            skipped_ticks: skipped.round() as u64 + thrown,
            thrown_away_ticks: thrown,
            latency_ms: self.latency_us.load(Ordering::Relaxed) as f64 / 1000.0,
            max_latency_ms: self.max_latency_us.load(Ordering::Relaxed) as f64 / 1000.0,
            callbacks: self.callbacks.load(Ordering::Relaxed),
            speed_adjust_percent: f64::from(self.speed_ppm.load(Ordering::Relaxed)) / 10_000.0,
        }
    }

    /// Whether the device is asking for sound at its steady pace: a device fills its own
    /// buffer in a burst of calls when it opens, and a sound server may then take a while to
    /// start playing; only after that does the game's sound reach it on time.
    pub fn is_flowing(&self) -> bool {
        let first = self.first_call_us.load(Ordering::Acquire);
        let last = self.last_call_us.load(Ordering::Acquire);
        first > 0 && last.saturating_sub(first) >= FLOWING_AFTER_US
    }

    /// Waits, at most `limit`, until [`Playback::is_flowing`]; returns whether it is.
    pub fn wait_until_flowing(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while !self.is_flowing() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    /// Counts a problem the device reported (its own underrun, most often) as an underrun.
    pub fn note_device_error(&self) {
        self.underruns.fetch_add(1, Ordering::Relaxed);
        self.device_errors.fetch_add(1, Ordering::Relaxed);
    }

    /// How many samples are queued.
    pub fn queued(&self) -> usize {
        self.ring.len()
    }
}

/// The game loop's end: queues each frame's samples.
#[derive(Debug)]
pub struct Feeder {
    shared: Arc<Playback>,
}

impl Feeder {
    /// The writing end of `shared`. Make one only.
    pub fn new(shared: Arc<Playback>) -> Feeder {
        Feeder { shared }
    }

    /// Queues `samples`, the updates' sound the last frame made.
    pub fn push(&mut self, samples: &[Frame]) {
        // A full ring means the device stopped asking: drop what does not fit (counted as
        // skipped) rather than wait.
        let taken = self.shared.ring.push(samples);
        let lost = (samples.len() - taken) as u64;
        if lost > 0 {
            self.shared
                .skipped_samples
                .fetch_add(lost, Ordering::Relaxed);
        }
    }

    /// Counts `ms` of game time the update cap threw away: updates that never ran and so made
    /// no sound.
    pub fn thrown_away(&mut self, ms: f64) {
        if ms > 0.0 {
            // An update lasts as long as its samples play.
            let update_ms = self.shared.per_tick * 1000.0 / f64::from(self.shared.rate);
            let ticks = (ms / update_ms).round() as u64;
            self.shared
                .thrown_away_ticks
                .fetch_add(ticks, Ordering::Relaxed);
        }
    }

    /// The shared state.
    pub fn shared(&self) -> &Arc<Playback> {
        &self.shared
    }
}

/// The device's end: fills each buffer the device asks for.
#[derive(Debug)]
pub struct Puller {
    shared: Arc<Playback>,
    priming: bool,
    /// Console samples per device sample at the nominal speed (1 when the rates match).
    base_step: f64,
    /// Console samples per device sample now, with the speed adjustment.
    step: f64,
    /// The speed control's memory: updates' worth queued above the target, times seconds.
    held: f64,
    /// When the last fill ran, as `first_call_us`.
    last_fill_us: u64,
    /// Whether the speed follows the game (see [`Puller::fixed_speed`]).
    follows: bool,
    /// The queue's smoothed level, in samples (negative before the first measurement).
    level: f64,
    /// Where between `from` and `to` the next device sample falls, in `[0, 1)`.
    phase: f64,
    from: [f32; 2],
    to: [f32; 2],
    /// Whether `from` and `to` came from the ring (false until the first sample after priming).
    started: bool,
    /// Whether the device has played anything yet.
    playing: bool,
    /// Samples queued before play starts (or starts again after an underrun).
    prime: usize,
    /// When the priming level last changed or an underrun last happened, as `first_call_us`.
    last_trouble_us: u64,
}

/// How much of a new latency figure the moving mean takes.
const LATENCY_SMOOTHING: f64 = 0.05;

impl Puller {
    /// The reading end of `shared`, for a device playing `device_rate` samples a second.
    pub fn new(shared: Arc<Playback>, device_rate: u32) -> Puller {
        let device_rate = device_rate.max(1);
        shared.device_rate.store(device_rate, Ordering::Relaxed);
        let base_step = f64::from(shared.rate) / f64::from(device_rate);
        Puller {
            base_step,
            step: base_step,
            held: 0.0,
            last_fill_us: 0,
            follows: true,
            level: -1.0,
            shared,
            priming: true,
            phase: 0.0,
            from: [0.0; 2],
            to: [0.0; 2],
            started: false,
            playing: false,
            prime: 0,
            last_trouble_us: 0,
        }
        .primed_at(PRIME_TICKS)
    }

    /// Plays at exactly the console's rate (resampled to the device's), never faster or
    /// slower to follow the game: for a host whose updates are known to keep time, and for
    /// tests.
    pub fn fixed_speed(mut self) -> Puller {
        self.follows = false;
        self
    }

    fn primed_at(mut self, ticks: f64) -> Puller {
        self.prime = self.samples(ticks);
        self
    }

    /// `ticks` updates' worth of samples.
    fn samples(&self, ticks: f64) -> usize {
        (self.shared.per_tick * ticks).ceil() as usize
    }

    /// The priming level: samples queued before play starts.
    pub fn priming_level(&self) -> usize {
        self.prime
    }

    /// Fills `out`, `channels` interleaved samples a frame in [-1, 1], from the queue: left
    /// and right on a device of two channels or more (any others silent), their mean on one.
    /// `device_ahead_ms` is how long the device takes from this call to playing the first
    /// sample (its own buffering), for the latency figure.
    pub fn fill(&mut self, out: &mut [f32], channels: usize, device_ahead_ms: f64) {
        let now_us = self.shared.epoch.elapsed().as_micros() as u64 + 1;
        self.fill_at(out, channels, device_ahead_ms, now_us);
    }

    /// [`Puller::fill`] at `now_us` microseconds after the queue was made (plus one).
    fn fill_at(&mut self, out: &mut [f32], channels: usize, device_ahead_ms: f64, now_us: u64) {
        let channels = channels.max(1);
        let shared = self.shared.clone();
        shared.callbacks.fetch_add(1, Ordering::Relaxed);
        let _ =
            shared
                .first_call_us
                .compare_exchange(0, now_us, Ordering::AcqRel, Ordering::Relaxed);
        shared.last_call_us.store(now_us, Ordering::Release);
        if shared.is_paused() {
            out.fill(0.0);
            self.priming = true;
            return;
        }
        if now_us.saturating_sub(self.last_trouble_us) >= PRIME_CALM_US {
            self.last_trouble_us = now_us;
            self.prime = self
                .prime
                .saturating_sub(self.samples(PRIME_STEP_TICKS))
                .max(self.samples(PRIME_TICKS));
        }
        let queued = shared.ring.len();
        if self.priming {
            if queued < self.prime {
                out.fill(0.0);
                return;
            }
            self.priming = false;
        }
        if queued > self.prime + self.samples(SLACK_TICKS) {
            let skipped = shared.ring.skip(queued - self.prime);
            // A device slow to start (a sound server connecting) is no fault of the game's:
            // what queued meanwhile goes uncounted.
            if self.playing {
                shared
                    .skipped_samples
                    .fetch_add(skipped as u64, Ordering::Relaxed);
            }
        }
        self.playing = true;
        let queued = shared.ring.len();
        if self.follows {
            self.follow_the_game(queued, now_us);
        }
        // The newest queued sample plays after everything before it and the device's buffer.
        let latency_ms = queued as f64 * 1000.0 / f64::from(shared.rate) + device_ahead_ms.max(0.0);
        self.note_latency(latency_ms);
        let mut dry = false;
        for frame in out.chunks_mut(channels) {
            let value = if dry { None } else { self.next_sample() };
            dry = value.is_none();
            let [l, r] = value.unwrap_or([0.0; 2]);
            match frame {
                [one] => *one = (l + r) * 0.5,
                [left, right, rest @ ..] => {
                    (*left, *right) = (l, r);
                    rest.fill(0.0);
                }
                [] => {}
            }
        }
        if dry {
            shared.underruns.fetch_add(1, Ordering::Relaxed);
            self.priming = true;
            self.started = false;
            self.prime =
                (self.prime + self.samples(PRIME_STEP_TICKS)).min(self.samples(PRIME_MAX_TICKS));
            self.last_trouble_us = now_us;
        }
    }

    /// Plays a little faster when more than the priming level is queued and a little slower
    /// when less (proportional and integral control, at most [`MAX_SPEED_ADJUST`]), so the
    /// queue follows a game whose updates run slightly off their nominal rate.
    fn follow_the_game(&mut self, queued: usize, now_us: u64) {
        let seconds = if self.last_fill_us == 0 {
            0.0
        } else {
            (now_us.saturating_sub(self.last_fill_us) as f64 / 1e6).min(0.1)
        };
        self.last_fill_us = now_us;
        self.level = if self.level < 0.0 {
            queued as f64
        } else {
            let k = (seconds / LEVEL_SMOOTHING_SECONDS).min(1.0);
            self.level + (queued as f64 - self.level) * k
        };
        let above = (self.level - self.prime as f64) / self.shared.per_tick;
        let most_held = MAX_SPEED_ADJUST / SPEED_GAIN_PER_SECOND;
        self.held = (self.held + above * seconds).clamp(-most_held, most_held);
        let adjust = (SPEED_GAIN * above + SPEED_GAIN_PER_SECOND * self.held)
            .clamp(-MAX_SPEED_ADJUST, MAX_SPEED_ADJUST);
        self.step = self.base_step * (1.0 + adjust);
        self.shared
            .speed_ppm
            .store((adjust * 1e6).round() as i32, Ordering::Relaxed);
    }

    /// The next device frame, `None` when the queue ran dry.
    fn next_sample(&mut self) -> Option<[f32; 2]> {
        // Same rate, fixed speed: each sample as it is. (With the speed following the game the
        // step moves around 1, and the interpolation below keeps its state across.)
        if !self.follows && self.base_step == 1.0 {
            return self.shared.ring.pop_one().map(to_unit);
        }
        if !self.started {
            // Needs a pair to draw between: the first sample and the next.
            if self.shared.ring.len() < 2 {
                return None;
            }
            self.from = to_unit(self.shared.ring.pop_one()?);
            self.to = to_unit(self.shared.ring.pop_one()?);
            self.phase = 0.0;
            self.started = true;
        }
        while self.phase >= 1.0 {
            self.from = self.to;
            self.to = to_unit(self.shared.ring.pop_one()?);
            self.phase -= 1.0;
        }
        let t = self.phase as f32;
        let v = [0, 1].map(|side| self.from[side] + (self.to[side] - self.from[side]) * t);
        self.phase += self.step;
        Some(v)
    }

    fn note_latency(&self, ms: f64) {
        let us = (ms * 1000.0).round() as u64;
        let shared = &*self.shared;
        shared.max_latency_us.fetch_max(us, Ordering::Relaxed);
        let old = shared.latency_us.load(Ordering::Relaxed);
        let mean = if old == 0 {
            us
        } else {
            (old as f64 + (us as f64 - old as f64) * LATENCY_SMOOTHING).round() as u64
        };
        shared.latency_us.store(mean, Ordering::Relaxed);
    }
}

fn to_unit(frame: Frame) -> [f32; 2] {
    frame.map(|s| f32::from(s) / 32_768.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 44.1 kHz at 60 fps: 735 samples an update.
    fn shared() -> Arc<Playback> {
        Playback::new(44_100, 60.0)
    }

    #[test]
    fn the_ring_keeps_order_across_its_end_and_refuses_what_does_not_fit() {
        let ring = SampleRing::new(5);
        assert_eq!(ring.capacity(), 8);
        let mut out = [[0i16; 2]; 5];
        let mut next = 0i16;
        let mut expect = 0i16;
        for round in 0..20 {
            let batch: Vec<Frame> = (0..3).map(|i| [next + i, -(next + i)]).collect();
            let taken = ring.push(&batch);
            next += taken as i16;
            assert!(ring.len() <= 8);
            let n = ring.pop(&mut out[..(round % 4) + 1]);
            for &s in &out[..n] {
                assert_eq!(s, [expect, -expect]);
                expect += 1;
            }
        }
        assert_eq!(
            ring.skip(100),
            ring.capacity()
                .min(usize::from(next as u16 - expect as u16))
        );
        assert!(ring.is_empty());
    }

    #[test]
    fn play_starts_once_two_updates_are_queued() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        let mut out = vec![1.0f32; 512];
        feeder.push(&[[1000, 1000]; 735]);
        puller.fill(&mut out, 1, 0.0);
        assert!(out.iter().all(|&s| s == 0.0), "still priming");
        feeder.push(&[[1000, 1000]; 735]);
        puller.fill(&mut out, 1, 0.0);
        assert!(out.iter().all(|&s| s == 1000.0 / 32_768.0));
        assert_eq!(shared.queued(), 2 * 735 - 512);
        assert_eq!(shared.stats().underruns, 0, "priming is no underrun");
    }

    #[test]
    fn a_stereo_device_gets_each_side_and_a_mono_one_their_mean() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        feeder.push(&[[1000, -3000]; 2940]);
        let mut out = vec![9.0f32; 12];
        puller.fill(&mut out, 3, 0.0);
        for frame in out.chunks(3) {
            assert_eq!(frame, [1000.0 / 32_768.0, -3000.0 / 32_768.0, 0.0]);
        }
        let mut out = vec![9.0f32; 4];
        puller.fill(&mut out, 1, 0.0);
        assert!(out.iter().all(|&s| s == -1000.0 / 32_768.0), "{out:?}");
    }

    #[test]
    fn a_dry_queue_counts_one_underrun_and_primes_again() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        feeder.push(&[[500, 500]; 1470]);
        let mut out = vec![0.0f32; 2048];
        puller.fill(&mut out, 2, 0.0);
        // 1024 frames asked for, 1470 samples there: 1024 played.
        assert!(out.iter().all(|&s| s > 0.0));
        puller.fill(&mut out, 2, 0.0);
        assert_eq!(shared.stats().underruns, 1);
        let played = out.iter().filter(|&&s| s > 0.0).count();
        assert_eq!(played, (1470 - 1024) * 2, "both channels get each sample");
        // Primes again, half an update higher: one update queued is not enough to play.
        assert_eq!(puller.priming_level(), 1470 + 368);
        feeder.push(&[[500, 500]; 735]);
        puller.fill(&mut out, 2, 0.0);
        assert!(out.iter().all(|&s| s == 0.0));
        assert_eq!(shared.stats().underruns, 1);
    }

    #[test]
    fn late_sound_is_skipped_down_to_the_priming_level_and_counted_in_updates() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        // The device starts, playing the first two updates' sound.
        feeder.push(&[[0, 0]; 1470]);
        let mut out = vec![0.0f32; 1470];
        // (Priming done, a first fill plays them.)
        puller.fill(&mut out, 1, 0.0);
        // A stall: the loop catches up with eight updates at once.
        for tick in 0..8i16 {
            feeder.push(&[[tick, tick]; 735]);
        }
        out.truncate(100);
        puller.fill(&mut out, 1, 0.0);
        // Skipped back to two updates queued: the oldest six skipped, and what plays is
        // update 6's sound.
        assert_eq!(out[0], 6.0 / 32_768.0);
        assert_eq!(shared.queued(), 1470 - 100);
        let stats = shared.stats();
        assert_eq!(stats.skipped_ticks, 6);
        assert_eq!(stats.thrown_away_ticks, 0);
        feeder.thrown_away(250.0);
        assert_eq!(shared.stats().thrown_away_ticks, 15);
        assert_eq!(shared.stats().skipped_ticks, 21);
    }

    #[test]
    fn underruns_raise_the_priming_level_up_to_four_updates() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        assert_eq!(puller.priming_level(), 1470);
        let mut out = vec![0.0f32; 8000];
        for _ in 0..10 {
            feeder.push(&[[9, 9]; 3000]);
            puller.fill(&mut out, 1, 0.0);
            puller.fill(&mut out, 1, 0.0);
        }
        assert_eq!(puller.priming_level(), 2940);
        assert!(shared.stats().underruns >= 4);
    }

    #[test]
    fn what_queued_before_the_device_first_played_is_dropped_uncounted() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        for tick in 0..30i16 {
            feeder.push(&[[tick, tick]; 735]);
        }
        let mut out = vec![0.0f32; 10];
        puller.fill(&mut out, 1, 0.0);
        assert_eq!(out[0], 28.0 / 32_768.0, "the newest two updates play");
        assert_eq!(shared.stats().skipped_ticks, 0);
    }

    #[test]
    fn the_device_flows_once_it_calls_again_after_its_opening_burst() {
        let shared = shared();
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        assert!(!shared.is_flowing());
        let mut out = vec![0.0f32; 64];
        // The times are given, not read: two calls 1 us apart, then one 6 ms later.
        puller.fill_at(&mut out, 1, 0.0, 1);
        puller.fill_at(&mut out, 1, 0.0, 2);
        assert!(
            !shared.is_flowing(),
            "a burst at once is the device filling its buffer"
        );
        assert!(!shared.wait_until_flowing(Duration::from_millis(1)));
        puller.fill_at(&mut out, 1, 0.0, 6_002);
        assert!(shared.is_flowing());
        assert!(shared.wait_until_flowing(Duration::ZERO));
    }

    #[test]
    fn a_paused_game_is_silent_counts_nothing_and_keeps_its_queue() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        feeder.push(&[[700, 700]; 2000]);
        shared.set_paused(true);
        let mut out = vec![1.0f32; 4000];
        puller.fill(&mut out, 1, 0.0);
        assert!(out.iter().all(|&s| s == 0.0));
        assert_eq!(shared.queued(), 2000);
        assert_eq!(shared.stats().underruns, 0);
        shared.set_paused(false);
        let mut out = vec![0.0f32; 100];
        puller.fill(&mut out, 1, 0.0);
        assert!(out.iter().all(|&s| s == 700.0 / 32_768.0));
    }

    #[test]
    fn latency_is_the_queue_plus_the_device_buffer() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 44_100).fixed_speed();
        feeder.push(&[[1, 1]; 1764]);
        let mut out = vec![0.0f32; 441];
        // 1764 samples queued = 40 ms, plus 10 ms in the device.
        puller.fill(&mut out, 1, 10.0);
        let stats = shared.stats();
        assert!((stats.latency_ms - 50.0).abs() < 0.01, "{stats:?}");
        assert!((stats.max_latency_ms - 50.0).abs() < 0.01);
        assert_eq!(stats.callbacks, 1);
    }

    #[test]
    fn the_speed_follows_a_game_running_slow_or_fast_within_one_percent() {
        for (updates_per_second, slower) in [(59.58, true), (60.3, false), (55.0, true)] {
            let shared = shared();
            let mut feeder = Feeder::new(shared.clone());
            let mut puller = Puller::new(shared.clone(), 44_100);
            let mut out = vec![0.0f32; 441];
            // A simulated minute: the device takes 441 samples every 10 ms; the game pushes
            // 735 an update at its own pace. Times go through the shared epoch, so the test
            // steps the puller's clock by hand.
            let mut game_ms = 0.0;
            let mut underruns = 0;
            for call in 0..6000u64 {
                let now_ms = call as f64 * 10.0;
                while game_ms <= now_ms {
                    feeder.push(&[[100, 100]; 735]);
                    game_ms += 1000.0 / updates_per_second;
                }
                let before = shared.stats().underruns;
                puller.fill_at(&mut out, 1, 0.0, now_ms as u64 * 1000 + 1);
                if shared.stats().underruns > before {
                    underruns += 1;
                }
            }
            let adjust = shared.stats().speed_adjust_percent;
            let wanted = (updates_per_second / 60.0 - 1.0) * 100.0;
            if wanted.abs() <= MAX_SPEED_ADJUST * 100.0 {
                // Settled on the game's pace, with no underrun on the way.
                assert!(
                    (adjust - wanted).abs() < 0.1,
                    "{updates_per_second}: {adjust}"
                );
                assert_eq!(underruns, 0, "{updates_per_second}");
            } else {
                // Too far off to follow: as far as it goes, and the queue runs dry now and then.
                assert_eq!(adjust, -MAX_SPEED_ADJUST * 100.0);
            }
            assert_eq!(adjust < 0.0, slower);
        }
    }

    #[test]
    fn a_device_at_another_rate_gets_the_same_sound_resampled() {
        let shared = shared();
        let mut feeder = Feeder::new(shared.clone());
        let mut puller = Puller::new(shared.clone(), 48_000).fixed_speed();
        // A ramp (short of the four and a half updates' worth that would be skipped):
        // resampled, it must still rise steadily.
        let ramp: Vec<Frame> = (0..3000).map(|i| [i as i16; 2]).collect();
        feeder.push(&ramp);
        let mut out = vec![0.0f32; 2500];
        puller.fill(&mut out, 1, 0.0);
        for pair in out.windows(2) {
            let d = (pair[1] - pair[0]) * 32_768.0;
            assert!((d - 44_100.0 / 48_000.0).abs() < 0.01, "{d}");
        }
        // 2500 device samples used about 2500 * 44.1 / 48 console samples.
        let used = 3000 - shared.queued();
        assert!(
            (used as f64 - 2500.0 * 44_100.0 / 48_000.0).abs() <= 2.0,
            "{used}"
        );
        assert_eq!(shared.stats().device_rate, 48_000);
    }
}
