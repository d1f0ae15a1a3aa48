//! `bt wav`: the sound of a stretch of play, headless, as a 16-bit mono WAV file.
//!
//! Sound follows ticks, not the clock: every update makes its own samples
//! ([`bt::sound::SampleClock`]), so the file is the same byte for byte on every run, under
//! every clock, and from a seek as from straight play.

use std::io::Cursor;

use bt::sound::SampleClock;
use thiserror::Error;

use crate::clock::Clock;
use crate::engine::Origin;
use crate::engine::{Engine, EngineError};

/// Host ticks a clock may take per update before the export gives up on it (a clock that never
/// delivers a frame would otherwise spin forever).
const HOST_TICKS_PER_UPDATE: u64 = 1000;

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
}

/// The samples of `seconds` of `engine`'s run from `from` seconds (replayed from the start):
/// `round(seconds × target_fps)` updates' worth. With `clock`, the updates after the seek are
/// run live under it, frame by frame, instead of stepped.
///
/// # Errors
/// [`WavError`] for a length under one update, a failed seek, a cart panic, a stalling clock.
pub fn record_samples(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    clock: Option<Box<dyn Clock>>,
) -> Result<Vec<i16>, WavError> {
    record_samples_with_progress(engine, from, seconds, clock, |_, _| {})
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
    mut progress: impl FnMut(u64, u64),
) -> Result<Vec<i16>, WavError> {
    let fps = engine.settings().target_fps;
    let wanted = (seconds * fps).round();
    if wanted.is_nan() || wanted < 1.0 {
        return Err(WavError::Length { seconds, fps });
    }
    let wanted = wanted as u64;
    engine.render_at_with_progress(from, Origin::Start, &mut progress)?;
    engine.console_mut().drain_samples();
    let start = engine.updates_since_init();
    let rate = engine.console_mut().sample_rate();
    let per = SampleClock::new(rate, fps);
    let total = (per.samples_in(start + wanted) - per.samples_in(start)) as usize;
    let mut out = Vec::with_capacity(total);
    match clock {
        None => {
            // As many updates a step as the console's buffer holds.
            let chunk = (rate as u64 / per.max_per_tick().max(1)).max(1);
            let mut done = 0;
            while done < wanted {
                let n = chunk.min(wanted - done);
                engine.step(n)?;
                out.extend(engine.console_mut().drain_samples());
                done += n;
                progress(done, wanted);
            }
        }
        Some(clock) => {
            engine.set_clock(clock);
            engine.resume();
            let limit = wanted.saturating_mul(HOST_TICKS_PER_UPDATE);
            let mut host_ticks = 0;
            while engine.updates_since_init() - start < wanted {
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
                out.extend(engine.console_mut().drain_samples());
                progress((engine.updates_since_init() - start).min(wanted), wanted);
            }
            engine.pause();
        }
    }
    // A frame may run past the end; the updates wanted are the first `total` samples.
    out.truncate(total);
    Ok(out)
}

/// `samples` as a mono, signed 16-bit WAV file at `rate` samples a second.
///
/// # Errors
/// [`WavError::Encode`] when the file would pass 4 GiB.
pub fn encode_wav(samples: &[i16], rate: u32) -> Result<Vec<u8>, WavError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let encode = |e: hound::Error| WavError::Encode(e.to_string());
    let mut out = Cursor::new(Vec::with_capacity(44 + samples.len() * 2));
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
) -> Result<Vec<u8>, WavError> {
    make_wav_with_progress(engine, from, seconds, clock, |_, _| {})
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
    progress: impl FnMut(u64, u64),
) -> Result<Vec<u8>, WavError> {
    let samples = record_samples_with_progress(engine, from, seconds, clock, progress)?;
    let rate = engine.console_mut().sample_rate();
    encode_wav(&samples, rate)
}
