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

use bt::Palette;
use thiserror::Error;

use crate::engine::Origin;
use crate::engine::{Engine, EngineError};
use crate::fixed_loop::tick_at;

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
/// use bt_tools::export::gif::gif_timing;
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
        // A length that is no time of play makes no frame ([`check_length`] refuses it).
        let n = tick_at(seconds, fps).unwrap_or(0);
        let start = |k: u64| (k as f64 * per_update_cs).round() as u32;
        (0..n)
            .map(|k| GifFrame {
                updates: k,
                delay_cs: start(k + 1) - start(k),
            })
            .collect()
    } else {
        // Update `k` is shown from `k × 100 / fps` cs: the grid picks the one due at each point.
        let n = (total_cs / f64::from(MIN_DELAY_CS)).round() as usize;
        let mut grid = GridPicker::new();
        let mut frames = Vec::with_capacity(n);
        grid.shown(0.0);
        let mut k = 0;
        while frames.len() < n {
            k += 1;
            let points = grid.shown(k as f64 * per_update_cs);
            push_points(&mut frames, k - 1, points);
        }
        frames.truncate(n);
        frames
    }
}

/// `points` GIF frames of 2 cs showing update `updates`.
fn push_points(frames: &mut Vec<GifFrame>, updates: u64, points: u64) {
    frames.extend((0..points).map(|_| GifFrame {
        updates,
        delay_cs: MIN_DELAY_CS,
    }));
}

/// Slack in hundredths of a second when a picture's time is compared with a grid point, so a
/// picture due exactly on a point (update 72 at 144 updates a second is due at 50 cs) is not
/// lost to rounding in binary fractions.
const GRID_SLACK_CS: f64 = 1e-7;

/// The rule of the 2 cs grid, for pictures that come one after another at any times: the GIF
/// frame at `2j` cs (from the first picture) shows the last picture shown at or before then.
/// A picture replaced before the next grid point is never shown; one that stays up over several
/// points makes that many 2 cs frames (or one longer frame). `bt gif` above 50 updates a second
/// and the window's GIF capture both choose their frames with it.
///
/// ```
/// use bt_tools::export::gif::GridPicker;
///
/// // Pictures at 0, 1.7, 3.3, 5 and 6.7 cs (60 a second), then stop at 10 cs.
/// let mut grid = GridPicker::new();
/// let covered: Vec<u64> = [0.0, 1.7, 3.3, 5.0, 6.7].iter().map(|&t| grid.shown(t)).collect();
/// // Each number is the grid points the picture before covered: 0 cs, 2 cs, 4 cs, 6 cs.
/// assert_eq!(covered, [0, 1, 1, 1, 1]);
/// assert_eq!(grid.end(10.0), 1, "the last picture shows at 8 cs: 5 points in all");
/// ```
#[derive(Debug, Clone, Default)]
pub struct GridPicker {
    /// Grid points handed out so far: the next one is at `2 × next` cs.
    next: u64,
    /// Whether a picture has been shown.
    started: bool,
}

impl GridPicker {
    /// A grid starting at 0 cs, with no picture yet.
    pub fn new() -> GridPicker {
        GridPicker::default()
    }

    /// A new picture is shown at `at_cs` (hundredths of a second from the grid's start; not
    /// before the last picture's time). Returns the grid points the picture before it covers:
    /// the 2 cs GIF frames it makes, 0 when it was replaced before the next point. The first
    /// picture covers the grid from 0 cs whenever it comes.
    pub fn shown(&mut self, at_cs: f64) -> u64 {
        if !self.started {
            self.started = true;
            return 0;
        }
        let until = self.points_until(at_cs - GRID_SLACK_CS);
        let covered = until.saturating_sub(self.next);
        self.next += covered;
        covered
    }

    /// Ends the GIF at `end_cs`: the grid points the last picture covers, so that the GIF holds
    /// `round(end_cs / 2)` points in all (its length within 1 cs of `end_cs`), and at least one.
    pub fn end(&mut self, end_cs: f64) -> u64 {
        let total = ((end_cs / f64::from(MIN_DELAY_CS)).round().max(1.0)) as u64;
        let covered = total.saturating_sub(self.next);
        self.next += covered;
        covered
    }

    /// Grid points handed out so far.
    pub fn points(&self) -> u64 {
        self.next
    }

    /// How many grid points lie before `at_cs`: the first `j` with `2j >= at_cs`.
    fn points_until(&self, at_cs: f64) -> u64 {
        (at_cs / f64::from(MIN_DELAY_CS)).ceil().max(0.0) as u64
    }
}

/// Makes a GIF of `seconds` of `engine`'s run from `from` seconds (replayed from the start),
/// each pixel `scale` × `scale`, looping forever, and returns the file's bytes. `progress(done,
/// total)` is called now and then, first for the updates of the seek to `from`, then for the
/// GIF frames made (`|_, _| {}` when nobody is watching).
///
/// # Errors
/// [`GifError`] for a clip that is empty or too long, a picture too large, a seek that fails.
pub fn make_gif(
    engine: &mut Engine,
    from: f64,
    seconds: f64,
    scale: u32,
    mut progress: impl FnMut(u64, u64),
) -> Result<Vec<u8>, GifError> {
    let fps = engine.settings().target_fps;
    check_length(fps, seconds)?;
    let from = engine.tick_at(from).map_err(EngineError::Time)?;
    engine.render_at_tick(from, Origin::Start, &mut progress)?;
    gif_from_here(engine, seconds, scale, Stepping::Seek, progress)
}

/// How [`gif_from_here`] moves the engine from one GIF frame to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stepping {
    /// Updates run back to back and the picture is drawn once they have: as a seek does.
    Seek,
    /// Every update is a frame of its own at the target rate, through [`Engine::advance`], so
    /// the overlay records and draws each (set the engine's host rate to the target rate and a
    /// constant clock of one update a frame first). The cart's picture is the same either way.
    Live,
}

/// The GIF frames of `seconds` at `fps` ([`gif_timing`]), when there are 1 to
/// [`MAX_GIF_FRAMES`] of them: the check [`make_gif`] and [`gif_from_here`] make first, for a
/// caller that seeks on its own and would rather know before the seek.
///
/// # Errors
/// [`GifError::Length`] for a clip that is empty or too long.
pub fn check_length(fps: f64, seconds: f64) -> Result<Vec<GifFrame>, GifError> {
    let timing = gif_timing(fps, seconds);
    if timing.is_empty() || timing.len() > MAX_GIF_FRAMES {
        return Err(GifError::Length {
            seconds,
            fps,
            frames: timing.len(),
        });
    }
    Ok(timing)
}

/// Runs `updates` host ticks live and pauses again: with the host rate at the target rate and a
/// constant clock of one update a frame (see [`Stepping::Live`]), that many updates, each a
/// frame the overlay records and draws.
///
/// # Errors
/// [`EngineError::Panicked`] when the cart panics.
pub fn run_live(engine: &mut Engine, updates: u64) -> Result<(), EngineError> {
    if updates == 0 {
        return Ok(());
    }
    engine.resume();
    engine.advance(updates);
    engine.pause();
    match engine.cart_panic() {
        Some(panic) => Err(EngineError::Panicked(panic.clone())),
        None => Ok(()),
    }
}

/// A GIF of the next `seconds` of `engine`'s run from where it stands (paused), each pixel
/// `scale` × `scale`: the first frame is the picture now on its framebuffer. `progress` hears
/// (frames made, frames) now and then.
///
/// # Errors
/// [`GifError`] for a clip that is empty or too long, a picture too large, a cart that panics.
pub fn gif_from_here(
    engine: &mut Engine,
    seconds: f64,
    scale: u32,
    stepping: Stepping,
    progress: impl FnMut(u64, u64),
) -> Result<Vec<u8>, GifError> {
    stream_gif_from_here(engine, seconds, scale, stepping, Vec::new(), progress)
}

/// [`gif_from_here`], written to `out` frame by frame as each is encoded, so the GIF is never
/// whole in memory: what `bt gif` does, into the output's temporary file. Hands `out` back.
///
/// # Errors
/// As [`gif_from_here`]; [`GifError::Encode`] when `out` cannot be written.
pub fn stream_gif_from_here<W: std::io::Write>(
    engine: &mut Engine,
    seconds: f64,
    scale: u32,
    stepping: Stepping,
    out: W,
    progress: impl FnMut(u64, u64),
) -> Result<W, GifError> {
    let timing = check_length(engine.settings().target_fps, seconds)?;
    let (w, h) = (engine.framebuffer().width(), engine.framebuffer().height());
    let mut writer = GifWriter::new(out, w, h, scale, &rgb(engine.palette()))?;
    let mut shown = Vec::with_capacity(256 * 3);
    each_frame(engine, &timing, stepping, progress, |engine, delay_cs| {
        rgb_into(engine.palette(), &mut shown);
        writer.frame(engine.framebuffer().pixels(), &shown, delay_cs)
    })?;
    writer.finish()
}

/// Runs `engine` to each frame of `timing` (by seeking or live, as `stepping` says), saying
/// how far it got to `progress`, and hands each frame with its delay to `frame`.
fn each_frame(
    engine: &mut Engine,
    timing: &[GifFrame],
    stepping: Stepping,
    mut progress: impl FnMut(u64, u64),
    mut frame: impl FnMut(&mut Engine, u16) -> Result<(), GifError>,
) -> Result<(), GifError> {
    let mut done = 0;
    let total = timing.len() as u64;
    for (made, f) in timing.iter().enumerate() {
        if made % PROGRESS_EVERY == 0 {
            progress(made as u64, total);
        }
        let updates = f.updates - done;
        match stepping {
            Stepping::Seek => engine.step(updates)?,
            Stepping::Live => run_live(engine, updates)?,
        }
        done = f.updates;
        frame(engine, f.delay_cs as u16)?;
    }
    Ok(())
}

/// As [`gif_from_here`], of the output picture ([`Engine::render_output`]): the display
/// tier's effects at the output size, each frame's colours cut to a GIF's 256 by
/// [`Quantizer`], written to `out` frame by frame as [`stream_gif_from_here`] writes. Hands
/// `out` back.
///
/// # Errors
/// As [`gif_from_here`].
pub fn stream_gif_from_here_output<W: std::io::Write>(
    engine: &mut Engine,
    seconds: f64,
    stepping: Stepping,
    out: W,
    progress: impl FnMut(u64, u64),
) -> Result<W, GifError> {
    let timing = check_length(engine.settings().target_fps, seconds)?;
    let mut rgba = Vec::new();
    let mut quantizer = Quantizer::new();
    let (mut indices, mut colours) = (Vec::new(), Vec::new());
    let mut out = Some(out);
    let mut writer: Option<GifWriter<W>> = None;
    each_frame(engine, &timing, stepping, progress, |engine, delay_cs| {
        let (w, h) = engine.render_output(&mut rgba);
        quantizer.quantize(&rgba, &mut indices, &mut colours);
        let writer = match &mut writer {
            Some(writer) => writer,
            None => {
                let out = out.take().expect("the writer is made once");
                writer.insert(GifWriter::new(out, w, h, 1, &colours)?)
            }
        };
        writer.frame(&indices, &colours, delay_cs)
    })?;
    match writer {
        Some(writer) => writer.finish(),
        None => Err(GifError::Encode("no frames".to_string())),
    }
}

/// Cuts an RGB picture to at most 256 colours for a GIF, the same way on every machine:
/// colours are gathered in buckets of 5 bits a channel, the 256 fullest buckets (ties by
/// colour) become the palette at their mean colour, and every pixel takes the palette colour
/// nearest its bucket's. A picture of few colours (the effects off) keeps them within a
/// bucket's width.
#[derive(Debug)]
pub struct Quantizer {
    counts: Vec<u32>,
    sums: Vec<[u32; 3]>,
    nearest: Vec<u8>,
    order: Vec<(u32, u16)>,
}

impl Default for Quantizer {
    fn default() -> Quantizer {
        Quantizer::new()
    }
}

impl Quantizer {
    /// A quantizer with its tables made.
    pub fn new() -> Quantizer {
        Quantizer {
            counts: vec![0; 1 << 15],
            sums: vec![[0; 3]; 1 << 15],
            nearest: vec![0; 1 << 15],
            order: Vec::new(),
        }
    }

    /// `rgba`'s pixels as `indices` into `palette` (`r, g, b` bytes, at most 256 colours).
    pub fn quantize(&mut self, rgba: &[u8], indices: &mut Vec<u8>, palette: &mut Vec<u8>) {
        let bucket = |p: &[u8]| {
            (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
        };
        self.counts.fill(0);
        self.sums.fill([0; 3]);
        for p in rgba.chunks_exact(4) {
            let b = bucket(p);
            self.counts[b] += 1;
            for (sum, &v) in self.sums[b].iter_mut().zip(p) {
                *sum += u32::from(v);
            }
        }
        self.order.clear();
        for (b, &n) in self.counts.iter().enumerate() {
            if n > 0 {
                self.order.push((n, b as u16));
            }
        }
        self.order
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.order.truncate(256);
        palette.clear();
        for &(n, b) in &self.order {
            let sum = self.sums[usize::from(b)];
            palette.extend(sum.iter().map(|&s| ((s + n / 2) / n) as u8));
        }
        for (b, &n) in self.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let (r, g, bl) = (
                (self.sums[b][0] / n) as i32,
                (self.sums[b][1] / n) as i32,
                (self.sums[b][2] / n) as i32,
            );
            let mut best = (i32::MAX, 0u8);
            for (i, c) in palette.chunks_exact(3).enumerate() {
                let d = (r - i32::from(c[0])).pow(2)
                    + (g - i32::from(c[1])).pow(2)
                    + (bl - i32::from(c[2])).pow(2);
                if d < best.0 {
                    best = (d, i as u8);
                }
            }
            self.nearest[b] = best.1;
        }
        indices.clear();
        indices.extend(rgba.chunks_exact(4).map(|p| self.nearest[bucket(p)]));
    }
}

/// Writes GIF frames of palette indices, each pixel `scale` × `scale`, looping forever: the
/// writer of `bt gif` and of the window's GIF capture. The first palette given is the GIF's
/// global one; a frame shown with another palette carries its own.
pub struct GifWriter<W: std::io::Write> {
    encoder: gif::Encoder<W>,
    global: Vec<u8>,
    width: u32,
    size: (u16, u16),
    scale: u32,
    scaled: Vec<u8>,
}

impl<W: std::io::Write> GifWriter<W> {
    /// A GIF of `width` × `height` pictures at `scale`, whose global palette is `global_rgb`
    /// (`r, g, b` bytes, at most 256 colours), written to `out`.
    ///
    /// # Errors
    /// [`GifError::TooLarge`] for a scaled picture past 65 535 pixels a side;
    /// [`GifError::Encode`] when `out` cannot be written.
    pub fn new(
        out: W,
        width: u32,
        height: u32,
        scale: u32,
        global_rgb: &[u8],
    ) -> Result<GifWriter<W>, GifError> {
        let scale = scale.max(1);
        let (gw, gh) = (
            u64::from(width) * u64::from(scale),
            u64::from(height) * u64::from(scale),
        );
        let (Ok(gw16), Ok(gh16)) = (u16::try_from(gw), u16::try_from(gh)) else {
            return Err(GifError::TooLarge {
                width: gw,
                height: gh,
            });
        };
        let mut encoder = gif::Encoder::new(out, gw16, gh16, global_rgb).map_err(encode_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(encode_error)?;
        Ok(GifWriter {
            encoder,
            global: global_rgb.to_vec(),
            width,
            size: (gw16, gh16),
            scale,
            scaled: Vec::new(),
        })
    }

    /// Writes one frame: `indices` row by row at the size the writer was made for, shown with
    /// the palette `rgb` for `delay_cs` hundredths of a second.
    ///
    /// # Errors
    /// [`GifError::Encode`] for indices of the wrong size or output that cannot be written.
    pub fn frame(&mut self, indices: &[u8], rgb: &[u8], delay_cs: u16) -> Result<(), GifError> {
        let (gw, gh) = self.size;
        let buffer = if self.scale == 1 {
            Cow::Borrowed(indices)
        } else {
            scaled(indices, self.width, self.scale, &mut self.scaled);
            Cow::Borrowed(self.scaled.as_slice())
        };
        if buffer.len() != usize::from(gw) * usize::from(gh) {
            return Err(GifError::Encode(format!(
                "a frame of {} pixels in a {gw}x{gh} GIF",
                buffer.len()
            )));
        }
        let frame = gif::Frame {
            width: gw,
            height: gh,
            delay: delay_cs,
            buffer,
            palette: (rgb != self.global.as_slice()).then(|| rgb.to_vec()),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(encode_error)
    }

    /// What the GIF is being written to, for a caller that does something between frames
    /// (the window's recording marks the file's end after each: `bt-window`'s `gif_recorder`).
    pub fn get_mut(&mut self) -> &mut W {
        self.encoder.get_mut()
    }

    /// Ends the GIF and hands back what it was written to.
    ///
    /// # Errors
    /// [`GifError::Encode`] when the end cannot be written.
    pub fn finish(self) -> Result<W, GifError> {
        self.encoder
            .into_inner()
            .map_err(|e| GifError::Encode(e.to_string()))
    }
}

fn encode_error(e: gif::EncodingError) -> GifError {
    GifError::Encode(e.to_string())
}

/// The palette as the `r, g, b` bytes a GIF stores.
fn rgb(palette: &Palette) -> Vec<u8> {
    let mut out = Vec::with_capacity(palette.colors().len() * 3);
    rgb_into(palette, &mut out);
    out
}

/// The palette as the `r, g, b` bytes a GIF stores, into `out` (which keeps its capacity):
/// each slot as it shows on the screen ([`bt::Color32::shown`]).
pub fn rgb_into(palette: &Palette, out: &mut Vec<u8>) {
    out.clear();
    for c in palette.colors() {
        let c = c.shown();
        out.extend_from_slice(&[c.r, c.g, c.b]);
    }
}

/// Indices `width` to a row, each repeated `scale` times across and down, into `out`.
fn scaled(pixels: &[u8], width: u32, scale: u32, out: &mut Vec<u8>) {
    out.clear();
    let s = scale.max(1) as usize;
    for row in pixels.chunks_exact((width as usize).max(1)) {
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
    use bt::host::Framebuffer;

    #[test]
    fn a_slots_alpha_shows_over_black_in_the_gifs_colours_as_on_screen() {
        let mut p = Palette::new(2).unwrap();
        let c = bt::Color32 {
            a: 102,
            ..bt::Color32::rgb(250, 100, 5)
        };
        p.set(1, c).unwrap();
        // 102/255 of each channel, rounded: the same bytes `write_rgba` gives the screen.
        assert_eq!(rgb(&p)[3..], [100, 40, 2]);
        let mut rgba = [0u8; 4];
        p.write_rgba(&[1], &mut rgba);
        assert_eq!(rgba[..3], rgb(&p)[3..]);
    }

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
    fn above_50_updates_a_second_the_grid_shows_the_update_due_at_each_point() {
        // The rule written out directly: the frame at 2j cs shows update floor(2j × fps / 100).
        for fps in [50.5, 60.0, 75.0, 100.0, 120.0, 144.0, 165.0, 240.0, 1000.0] {
            for seconds in [0.01, 0.1, 1.0, 10.0, 33.3] {
                let n = (seconds * 100.0 / 2.0_f64).round() as u64;
                let want: Vec<GifFrame> = (0..n)
                    .map(|j| GifFrame {
                        updates: ((j * 2) as f64 * fps / 100.0 + 1e-9).floor() as u64,
                        delay_cs: MIN_DELAY_CS,
                    })
                    .collect();
                assert_eq!(gif_timing(fps, seconds), want, "{fps} fps, {seconds} s");
            }
        }
    }

    #[test]
    fn the_grid_shows_the_last_picture_shown_at_each_point_and_ends_rounded() {
        let mut grid = GridPicker::new();
        // Pictures at 0, 1, 1.9, 2 and 9 cs.
        assert_eq!(grid.shown(0.0), 0);
        assert_eq!(grid.shown(1.0), 1, "the first covers 0 cs");
        assert_eq!(grid.shown(1.9), 0, "1 is replaced before 2 cs: never shown");
        assert_eq!(
            grid.shown(2.0),
            0,
            "so is 1.9: the picture at 2 is due at 2 cs"
        );
        assert_eq!(grid.shown(9.0), 4, "2 covers 2, 4, 6 and 8 cs");
        assert_eq!(
            grid.end(13.4),
            2,
            "round(13.4 / 2) = 7 points in all: 10 and 12 cs"
        );
        assert_eq!(grid.points(), 7);
        let mut short = GridPicker::new();
        short.shown(0.0);
        assert_eq!(short.end(0.3), 1, "every GIF has a frame");
    }

    #[test]
    fn scaling_repeats_each_index_in_a_square() {
        let mut fb = Framebuffer::new(2, 1);
        fb.draw_pixel(1, 0, 5);
        let mut out = Vec::new();
        scaled(fb.pixels(), fb.width(), 2, &mut out);
        assert_eq!(out, [0, 0, 5, 5, 0, 0, 5, 5]);
    }
}
