//! Animated GIFs of a run, headless: frames written from the palette directly (indexed, with no
//! quantisation), with delays that keep the GIF's clock on the simulation's.
//!
//! A GIF delay is a whole number of hundredths of a second (cs), and browsers show any delay
//! below 2 cs as 10 cs, so no delay may be below 2 cs. The rule ([`gif_timing`]):
//!
//! - **At most 50 updates a second** (an update lasts `100 / fps >= 2` cs): one GIF frame per
//!   update; update `k` starts at `round(k × 100 / fps)` cs, and each delay is the difference
//!   of two such starts. Since `round(x + d) >= round(x) + 2` whenever `d >= 2`, no delay is
//!   below 2 cs, and the delays add up to `round(n × 100 / fps)`, within half a hundredth of
//!   the true duration. At 30 updates a second: 3, 4, 3, 3, 4, 3, ... cs.
//! - **Above 50 updates a second**: a grid of 2 cs; the GIF frame at `2j` cs shows the picture
//!   due then, after `floor(2j × fps / 100)` updates. Every delay is 2 cs, and `round(D / 2)`
//!   frames cover a duration of `D` cs to within 1 cs. At 60 updates a second the frames show
//!   updates 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, ...: one in six is never shown.
//!
//! Every frame is the one [`Engine::render_at`] gives, rendered with `render_alpha` 0.
//!
//! [`Engine::render_at`]: crate::Engine::render_at

use std::borrow::Cow;

use bt::{Framebuffer, Palette};
use thiserror::Error;

use crate::engine::{Engine, EngineError};
use crate::seek::Origin;

/// The shortest GIF delay browsers honour, in hundredths of a second.
pub const MIN_DELAY_CS: u32 = 2;

/// The most frames one GIF holds: 10 minutes on the 2 cs grid. A longer GIF is no way to share
/// a moment, and its frames would fill memory first.
pub const MAX_GIF_FRAMES: usize = 30_000;

/// GIF frames made between two calls of a progress callback.
const PROGRESS_EVERY: usize = 16;

/// One GIF frame: the picture after `updates` updates (counted from the start of the clip),
/// shown for `delay_cs` hundredths of a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifFrame {
    /// Updates since the clip's first frame.
    pub updates: u64,
    /// How long it shows, in hundredths of a second.
    pub delay_cs: u32,
}

/// Why a GIF could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum GifError {
    /// The clip is empty or too long.
    #[error("{seconds} s at {fps} updates a second makes {frames} GIF frames; a GIF holds 1 to {MAX_GIF_FRAMES}")]
    Length {
        /// The duration asked for.
        seconds: f64,
        /// The update rate.
        fps: f64,
        /// The frames it would take.
        frames: usize,
    },
    /// The picture is wider or taller than a GIF can be.
    #[error("a {width}x{height} picture is larger than a GIF can hold (65535 pixels a side)")]
    TooLarge {
        /// Width after scaling.
        width: u64,
        /// Height after scaling.
        height: u64,
    },
    /// The seek or a step failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// Encoding failed.
    #[error("encoding the GIF: {0}")]
    Encode(String),
}

/// The GIF frames of `seconds` of play at `fps` updates a second, by the rule in the module's
/// documentation.
///
/// ```
/// use bt_runtime::animation::gif_timing;
///
/// let at_30: Vec<u32> = gif_timing(30.0, 0.2).iter().map(|f| f.delay_cs).collect();
/// assert_eq!(at_30, [3, 4, 3, 3, 4, 3]);
/// let at_60: Vec<u64> = gif_timing(60.0, 0.1).iter().map(|f| f.updates).collect();
/// assert_eq!(at_60, [0, 1, 2, 3, 4]);
/// ```
pub fn gif_timing(fps: f64, seconds: f64) -> Vec<GifFrame> {
    let total_cs = seconds * 100.0;
    let per_update_cs = 100.0 / fps;
    if per_update_cs >= f64::from(MIN_DELAY_CS) {
        let n = (seconds * fps).round() as u64;
        let start = |k: u64| (k as f64 * per_update_cs).round() as u32;
        (0..n)
            .map(|k| GifFrame {
                updates: k,
                delay_cs: start(k + 1) - start(k),
            })
            .collect()
    } else {
        let n = (total_cs / f64::from(MIN_DELAY_CS)).round() as u64;
        (0..n)
            .map(|j| GifFrame {
                // A hair of slack so a rate like 100 updates a second lands on whole updates.
                updates: ((j * u64::from(MIN_DELAY_CS)) as f64 * fps / 100.0 + 1e-9).floor() as u64,
                delay_cs: MIN_DELAY_CS,
            })
            .collect()
    }
}

/// Makes a GIF of `seconds` of `engine`'s run from `from` seconds (replayed from the start),
/// each pixel `scale` × `scale`, looping forever. Returns the file's bytes.
///
/// # Errors
/// [`GifError`] for a clip that is empty or too long, a picture too large, a seek that fails.
pub fn make_gif(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    scale: u32,
) -> Result<Vec<u8>, GifError> {
    make_gif_with_progress(engine, from, seconds, scale, |_, _| {})
}

/// [`make_gif`], calling `progress(done, total)` now and then: first for the updates of the
/// seek to `from`, then for the GIF frames made.
///
/// # Errors
/// As [`make_gif`].
pub fn make_gif_with_progress(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    scale: u32,
    mut progress: impl FnMut(u64, u64),
) -> Result<Vec<u8>, GifError> {
    let fps = engine.settings().target_fps;
    let timing = gif_timing(fps, seconds);
    if timing.is_empty() || timing.len() > MAX_GIF_FRAMES {
        return Err(GifError::Length {
            seconds,
            fps,
            frames: timing.len(),
        });
    }
    engine.render_at_with_progress(from, Origin::Start, &mut progress)?;
    let (w, h) = (engine.framebuffer().width(), engine.framebuffer().height());
    let (gw, gh) = (
        u64::from(w) * u64::from(scale),
        u64::from(h) * u64::from(scale),
    );
    let (Ok(gw16), Ok(gh16)) = (u16::try_from(gw), u16::try_from(gh)) else {
        return Err(GifError::TooLarge {
            width: gw,
            height: gh,
        });
    };
    let encode = |e: gif::EncodingError| GifError::Encode(e.to_string());
    let global = rgb(engine.palette());
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, gw16, gh16, &global).map_err(encode)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(encode)?;
        let mut pixels = Vec::with_capacity((gw * gh) as usize);
        let mut done = 0;
        let total = timing.len() as u64;
        for (made, frame) in timing.iter().enumerate() {
            if made % PROGRESS_EVERY == 0 {
                progress(made as u64, total);
            }
            engine.step(frame.updates - done)?;
            done = frame.updates;
            scaled(engine.framebuffer(), scale, &mut pixels);
            let shown = rgb(engine.palette());
            let gif_frame = gif::Frame {
                width: gw16,
                height: gh16,
                delay: frame.delay_cs as u16,
                buffer: Cow::Borrowed(&pixels),
                palette: (shown != global).then_some(shown),
                ..gif::Frame::default()
            };
            encoder.write_frame(&gif_frame).map_err(encode)?;
        }
    }
    Ok(out)
}

/// The palette as the `r, g, b` bytes a GIF stores.
fn rgb(palette: &Palette) -> Vec<u8> {
    palette
        .colors()
        .iter()
        .flat_map(|c| [c.r, c.g, c.b])
        .collect()
}

/// The framebuffer's indices, each repeated `scale` times across and down, into `out`.
fn scaled(fb: &Framebuffer, scale: u32, out: &mut Vec<u8>) {
    out.clear();
    let s = scale.max(1) as usize;
    for row in fb.pixels().chunks_exact((fb.width() as usize).max(1)) {
        let start = out.len();
        for &i in row {
            out.extend(std::iter::repeat_n(i, s));
        }
        let end = out.len();
        for _ in 1..s {
            out.extend_from_within(start..end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fps: f64) {
        let seconds = 10.0;
        let t = gif_timing(fps, seconds);
        assert!(t.iter().all(|f| f.delay_cs >= MIN_DELAY_CS), "{fps}");
        let total: u32 = t.iter().map(|f| f.delay_cs).sum();
        assert!(
            (f64::from(total) - seconds * 100.0).abs() <= 1.0,
            "{fps}: {total} cs"
        );
        // Each frame shows the picture due when it appears: never one from the future, never
        // more than one update late.
        // Each frame shows the picture due when it appears, to within the rounding to whole
        // hundredths: never one due more than half a hundredth later, never one a whole
        // update (and that half) stale.
        let per_update = 100.0 / fps;
        let mut at = 0u32;
        for f in &t {
            let update_at = f.updates as f64 * per_update;
            let shown_at = f64::from(at);
            assert!(update_at <= shown_at + 0.5 + 1e-9, "{fps}: {f:?} at {at}");
            assert!(
                shown_at - update_at < per_update + 0.5,
                "{fps}: {f:?} at {at}"
            );
            at += f.delay_cs;
        }
    }

    #[test]
    fn delays_are_never_below_2_cs_and_add_up_to_the_duration() {
        for fps in [60.0, 50.0, 30.0, 144.0, 1.0, 24.0, 100.0, 120.0, 75.0] {
            check(fps);
        }
    }

    #[test]
    fn at_60_updates_a_second_the_frame_due_every_2_cs_is_shown() {
        let shown: Vec<u64> = gif_timing(60.0, 0.2).iter().map(|f| f.updates).collect();
        assert_eq!(shown, [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]);
    }

    #[test]
    fn scaling_repeats_each_index_in_a_square() {
        let mut fb = Framebuffer::new(2, 1);
        fb.draw_pixel(1, 0, 5);
        let mut out = Vec::new();
        scaled(&fb, 2, &mut out);
        assert_eq!(out, [0, 0, 5, 5, 0, 0, 5, 5]);
    }
}
