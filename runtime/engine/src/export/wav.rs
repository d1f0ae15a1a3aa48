//! `bt wav`: the sound of a stretch of play, headless, as a 16-bit stereo (or mono) WAV file.
//!
//! Sound follows ticks, not the clock: every update makes its own samples
//! ([`bt::sound::SampleClock`]), so the file is the same byte for byte on every run, under
//! every clock, and from a seek as from straight play.

use std::io::Write;

use bt::sound::{to_mono, Frame, SampleClock};
use thiserror::Error;

use crate::clock::Clock;
use crate::engine::Origin;
use crate::engine::{Engine, EngineError};
use crate::fixed_loop::{tick_at, TimeError};

/// Host ticks a clock may take per update before the export gives up on it (a clock that never
/// delivers a frame would otherwise spin forever).
const HOST_TICKS_PER_UPDATE: u64 = 1000;

/// What a WAV file keeps of the console's two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WavChannels {
    /// Left and right, interleaved: what the console makes.
    #[default]
    Stereo,
    /// One channel, each frame folded with [`bt::sound::to_mono`]: for a cart that never
    /// pans, either side exactly, as BT's mono files always were.
    Mono,
}

impl WavChannels {
    /// Channels in the file: 2 or 1.
    pub fn count(self) -> u16 {
        match self {
            WavChannels::Stereo => 2,
            WavChannels::Mono => 1,
        }
    }

    /// Appends `frames` to `out` as this layout's samples.
    fn extend(self, out: &mut Vec<i16>, frames: &[Frame]) {
        match self {
            WavChannels::Stereo => out.extend(frames.iter().flatten()),
            WavChannels::Mono => out.extend(frames.iter().map(|&f| to_mono(f))),
        }
    }
}

/// Why a WAV could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum WavError {
    /// A length that is no update long.
    #[error("--seconds {seconds} is less than one update at {fps} updates a second")]
    Length {
        /// The length asked for.
        seconds: f64,
        /// The cart's rate.
        fps: f64,
    },
    /// A length that is no time of play.
    #[error("the length: {0}")]
    Time(#[from] TimeError),
    /// The seek to the start, or an update, failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The clock delivered too few updates.
    #[error("the clock ran {done} of {wanted} updates in {host_ticks} host ticks; it stalls")]
    Stalled {
        /// Updates run.
        done: u64,
        /// Updates wanted.
        wanted: u64,
        /// Host ticks simulated.
        host_ticks: u64,
    },
    /// The encoder failed.
    #[error("WAV encoding: {0}")]
    Encode(String),
    /// Writing the file failed.
    #[error("writing the WAV: {0}")]
    Write(String),
}

/// The samples of `seconds` of `engine`'s run from `from` seconds (replayed from the start):
/// `round(seconds × target_fps)` updates' worth, left and right interleaved or folded to mono
/// as `channels` says. With `clock`, the updates after the seek are run live under it, frame
/// by frame, instead of stepped. All in memory: [`stream_wav`] writes a file of any length in
/// constant memory.
///
/// # Errors
/// [`WavError`] for a length under one update, a failed seek, a cart panic, a stalling clock.
pub fn record_samples(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    channels: WavChannels,
) -> Result<Vec<i16>, WavError> {
    record_samples_with_progress(engine, from, seconds, clock, channels, |_, _| {})
}

/// [`record_samples`], telling `progress` (done, total) how the seek to `from` goes, then how
/// many of the updates wanted have run.
///
/// # Errors
/// As [`record_samples`].
pub fn record_samples_with_progress(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    channels: WavChannels,
    progress: impl FnMut(u64, u64),
) -> Result<Vec<i16>, WavError> {
    let mut out = Vec::new();
    run_samples(engine, from, seconds, clock, progress, &mut |news| {
        match news {
            Samples::Total(total) => {
                out.reserve_exact(total as usize * usize::from(channels.count()));
            }
            Samples::Some(frames) => channels.extend(&mut out, frames),
        }
        Ok(())
    })?;
    Ok(out)
}

/// What [`run_samples`] hands on: first how many frames there will be, then the frames.
enum Samples<'a> {
    Total(u64),
    Some(&'a [Frame]),
}

/// Runs the stretch of play and hands its samples to `sink` as they come, a step's worth at a
/// time, after telling it how many there will be; never more than that many in all.
fn run_samples(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    mut progress: impl FnMut(u64, u64),
    sink: &mut dyn FnMut(Samples<'_>) -> Result<(), WavError>,
) -> Result<(), WavError> {
    let fps = engine.settings().target_fps;
    let wanted = tick_at(seconds, fps)?;
    if wanted == 0 {
        return Err(WavError::Length { seconds, fps });
    }
    let from = engine.tick_at(from).map_err(EngineError::Time)?;
    engine.render_at_tick(from, Origin::Start, &mut progress)?;
    engine.console_mut().drain_frames();
    let start = engine.updates_since_init();
    let rate = engine.console_mut().sample_rate();
    let per = SampleClock::new(rate, fps);
    let total = per.samples_in(start + wanted) - per.samples_in(start);
    sink(Samples::Total(total))?;
    let mut left = total;
    // A frame may run past the end; the updates wanted are the first `total` samples.
    let mut pass_on = |engine: &mut Engine| -> Result<(), WavError> {
        let console = engine.console_mut();
        let samples = console.pending_frames();
        let n = (samples.len() as u64).min(left) as usize;
        sink(Samples::Some(&samples[..n]))?;
        left -= n as u64;
        console.drain_frames();
        Ok(())
    };
    match clock {
        None => {
            // As many updates a step as the console's buffer holds.
            let chunk = (rate as u64 / per.max_per_tick().max(1)).max(1);
            let mut done = 0;
            while done < wanted {
                let n = chunk.min(wanted - done);
                engine.step(n)?;
                pass_on(engine)?;
                done += n;
                progress(done, wanted);
                if engine.quit_at().is_some() {
                    break; // The cart quit: the sound ends with its last update.
                }
            }
        }
        Some(clock) => {
            engine.set_clock(clock);
            engine.resume();
            let limit = wanted.saturating_mul(HOST_TICKS_PER_UPDATE);
            let mut host_ticks = 0;
            while engine.updates_since_init() - start < wanted && engine.quit_at().is_none() {
                if host_ticks == limit {
                    return Err(WavError::Stalled {
                        done: engine.updates_since_init() - start,
                        wanted,
                        host_ticks,
                    });
                }
                engine.advance(1);
                host_ticks += 1;
                if let Some(panic) = engine.cart_panic() {
                    return Err(EngineError::Panicked(panic.clone()).into());
                }
                pass_on(engine)?;
                progress((engine.updates_since_init() - start).min(wanted), wanted);
            }
            engine.pause();
        }
    }
    Ok(())
}

/// The largest sample count a WAV file holds: its sizes are 32-bit, and the data chunk follows
/// 36 bytes of header.
const MAX_WAV_SAMPLES: u64 = (u32::MAX as u64 - 36) / 2;

/// The 44-byte header of a signed 16-bit WAV file of `samples` samples (all channels counted)
/// in `channels` at `rate`: the canonical RIFF layout, byte for byte what [`encode_wav`]
/// (hound) writes before the samples.
fn wav_header(samples: u64, rate: u32, channels: WavChannels) -> Result<[u8; 44], WavError> {
    if samples > MAX_WAV_SAMPLES {
        return Err(WavError::Encode(format!(
            "{samples} samples would pass the 4 GiB a WAV file can hold ({MAX_WAV_SAMPLES} \
             samples at most)"
        )));
    }
    let data = (samples * 2) as u32;
    let mut h = [0u8; 44];
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        h[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    put(b"RIFF");
    put(&(36 + data).to_le_bytes());
    put(b"WAVEfmt ");
    put(&16u32.to_le_bytes()); // the format chunk's size
    put(&1u16.to_le_bytes()); // PCM
    let count = channels.count();
    put(&count.to_le_bytes());
    put(&rate.to_le_bytes());
    put(&(rate * 2 * u32::from(count)).to_le_bytes()); // bytes a second
    put(&(2 * count).to_le_bytes()); // bytes a frame
    put(&16u16.to_le_bytes()); // bits a sample
    put(b"data");
    put(&data.to_le_bytes());
    Ok(h)
}

/// [`make_wav`], written to `out` as it is made: the header first (the length is known before
/// the first update), then each step's samples, so a WAV of any length takes the same memory.
/// Returns the bytes written.
///
/// # Errors
/// As [`record_samples`], [`WavError::Encode`] for a file past 4 GiB (before anything is
/// written), [`WavError::Write`] when `out` fails.
pub fn stream_wav(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    channels: WavChannels,
    out: &mut dyn Write,
    progress: impl FnMut(u64, u64),
) -> Result<u64, WavError> {
    let rate = engine.console().sample_rate();
    let write = |e: std::io::Error| WavError::Write(e.to_string());
    let mut written = 0u64;
    // One step's samples and their bytes, in buffers that stop growing after the first step.
    let mut samples = Vec::new();
    let mut bytes = Vec::new();
    run_samples(engine, from, seconds, clock, progress, &mut |news| {
        match news {
            Samples::Total(total) => {
                let total = total.saturating_mul(u64::from(channels.count()));
                out.write_all(&wav_header(total, rate, channels)?)
                    .map_err(write)?;
                written += 44;
            }
            Samples::Some(frames) => {
                samples.clear();
                channels.extend(&mut samples, frames);
                bytes.clear();
                bytes.extend(samples.iter().flat_map(|s| s.to_le_bytes()));
                out.write_all(&bytes).map_err(write)?;
                written += bytes.len() as u64;
            }
        }
        Ok(())
    })?;
    Ok(written)
}

/// `samples` (interleaved when `channels` is stereo) as a signed 16-bit WAV file at `rate`
/// frames a second.
///
/// # Errors
/// [`WavError::Encode`] when the file would pass 4 GiB.
pub fn encode_wav(samples: &[i16], rate: u32, channels: WavChannels) -> Result<Vec<u8>, WavError> {
    let spec = hound::WavSpec {
        channels: channels.count(),
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let encode = |e: hound::Error| WavError::Encode(e.to_string());
    let mut out = std::io::Cursor::new(Vec::with_capacity(44 + samples.len() * 2));
    {
        let mut writer = hound::WavWriter::new(&mut out, spec).map_err(encode)?;
        let mut w16 = writer.get_i16_writer(samples.len() as u32);
        for &s in samples {
            w16.write_sample(s);
        }
        w16.flush().map_err(encode)?;
        writer.finalize().map_err(encode)?;
    }
    Ok(out.into_inner())
}

/// [`record_samples`] then [`encode_wav`]: the WAV file's bytes.
///
/// # Errors
/// As those two.
pub fn make_wav(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    channels: WavChannels,
) -> Result<Vec<u8>, WavError> {
    make_wav_with_progress(engine, from, seconds, clock, channels, |_, _| {})
}

/// [`make_wav`] with [`record_samples_with_progress`]'s progress.
///
/// # Errors
/// As [`make_wav`].
pub fn make_wav_with_progress(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
    channels: WavChannels,
    progress: impl FnMut(u64, u64),
) -> Result<Vec<u8>, WavError> {
    let samples = record_samples_with_progress(engine, from, seconds, clock, channels, progress)?;
    let rate = engine.console_mut().sample_rate();
    encode_wav(&samples, rate, channels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streamed_header_is_the_one_hound_writes() {
        for channels in [WavChannels::Mono, WavChannels::Stereo] {
            for (samples, rate) in [(0u64, 48_000u32), (2, 8_000), (12_346, 192_000)] {
                let data: Vec<i16> = (0..samples).map(|i| (i as i16).wrapping_mul(37)).collect();
                let whole = encode_wav(&data, rate, channels).unwrap();
                assert_eq!(
                    &whole[..44],
                    &wav_header(samples, rate, channels).unwrap()[..],
                    "{samples} {channels:?}"
                );
                assert_eq!(whole.len() as u64, 44 + 2 * samples);
            }
        }
        let e = wav_header(MAX_WAV_SAMPLES + 1, 48_000, WavChannels::Stereo).unwrap_err();
        assert!(e.to_string().contains("4 GiB"), "{e}");
    }
}
