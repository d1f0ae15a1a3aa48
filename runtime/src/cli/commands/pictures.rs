//! Pictures and sound of a run: `bt shot`, `bt gif`, `bt frames`, `bt wav`.

use crate::cli::args::{DrawnArgs, FramesArgs, GifArgs, ShotArgs, WavArgs};
use crate::cli::progress::Progress;
use crate::cli::Offer;

use super::*;

use crate::engine::Origin;
use crate::export::safe_write::{Format, Output};
use crate::quote::number;
use crate::Engine;

pub(super) fn shot(offer: &Offer, args: ShotArgs) -> Result<(), Failure> {
    check_size_scale(args.picture.scale, args.picture.size).map_err(Failure::Usage)?;
    let output = Output::new(&args.output, Format::Png)?;
    let input = args.input.input.as_deref();
    let overlay = args.drawn.wanted();
    let mut engine = match &args.state {
        Some(path) => state_session(offer, &args.cart, overlay, None, path)?.engine(),
        None => engine(offer, &args.cart, overlay, None, input)?.1.engine(),
    }
    .map_err(|e| e.to_string())?;
    if overlay {
        show_overlay(&mut engine, &args.drawn);
    }
    // A state's frame is the one the engine is on; `--at` goes on from it.
    let at = match (args.at, &args.state) {
        (Some(at), Some(path)) => Some(at_or_after_state(&engine, at, path)?),
        (at, _) => at,
    };
    // The engine was just booted (or opened on a state, paused at it), so stepping forward
    // from where it is gives the run from boot: the same frame as a replay from the start
    // (`bt frames` seeks that way), with the cart's constructor and `init` run once.
    let origin = Origin::Current;
    if let Some(at) = at.filter(|_| engine.overlay().is_some()) {
        overlay_shot(&mut engine, "--at", at, origin, args.progress.quiet)?;
    } else if let Some(at) = at {
        let bad = |e: &dyn std::fmt::Display| format!("--at {}: {e}", number(at));
        let tick = engine.tick_at(at).map_err(|e| bad(&e))?;
        let mut progress = Progress::new(
            format!("seeking to --at {}", number(at)),
            args.progress.quiet,
        );
        engine
            .render_at_tick(tick, origin, |done, total| progress.set(done, total))
            .map_err(|e| bad(&e))?;
        drop(progress);
    }
    let (width, height) = match args.picture.size {
        crate::cli::args::SizeArg::Display => {
            let (png, size) = encode_picture(&mut engine, args.picture.scale, args.picture.size)?;
            output.write(&png)?;
            size
        }
        // The largest picture: encoded straight into the output, not into memory first.
        crate::cli::args::SizeArg::Output => {
            let mut rgba = Vec::new();
            let (w, h) = engine.render_output(&mut rgba);
            let mut pending = output.begin()?;
            crate::export::png::write_rgba_png(&mut pending, &rgba, w, h)
                .map_err(|e| e.to_string())?;
            drop(rgba);
            pending.commit()?;
            (w, h)
        }
    };
    say_quit(&engine);
    report(
        output.is_stdout(),
        format_args!(
            "wrote {} ({}x{}, after {} updates, seed {})\n",
            crate::quote::path(output.path()),
            width,
            height,
            engine.updates_since_init(),
            engine.seed()
        ),
    )?;
    Ok(())
}

/// `--at` with `--state`: seconds since the state's boot, refused when they come before the
/// state, whose file is about the run from there on.
fn at_or_after_state(engine: &Engine, at: f64, path: &std::path::Path) -> Result<f64, Failure> {
    let state = engine.updates_since_init();
    let tick = engine
        .tick_at(at)
        .map_err(|e| format!("--at {}: {e}", number(at)))?;
    if tick < state {
        // The state's time rounded up to a thousandth: the smallest such `--at` reaching it.
        let seconds = (state as f64 / engine.settings().target_fps * 1000.0).ceil() / 1000.0;
        return Err(Failure::Run(format!(
            "--at {} comes before the state in {} (update {state}, {} s since boot); --at counts \
             from boot: give {} or more, or leave it out for the state's own frame",
            number(at),
            crate::quote::path(path),
            number(seconds),
            number(seconds)
        )));
    }
    Ok(at)
}

/// Shows the overlay as `--overlay`, `--chart` and `--fixed-costs` ask.
pub(super) fn show_overlay(engine: &mut Engine, drawn: &DrawnArgs) {
    let o = engine.overlay_forced();
    o.set_visible(true);
    if let Some(chart) = drawn.chart {
        o.set_chart_mode(chart.mode());
    }
    o.set_fixed_costs(drawn.fixed_costs);
}

/// The frame at `at` with an overlay whose figures are real: a seek to a chart's width of
/// frames before `at`, then those frames run live, one update each at the target rate, so the
/// chart, the present rate, the costs and the draw calls are measured rather than blank. The
/// cart's picture is the same as a plain seek's: the same updates ran. A failure names `flag`,
/// the argument `at` came from (`--at`, `--from`), and its value.
pub(super) fn overlay_shot(
    engine: &mut Engine,
    flag: &str,
    at: f64,
    origin: Origin,
    quiet: bool,
) -> Result<(), String> {
    let fps = engine.settings().target_fps;
    let bad = |e: &dyn std::fmt::Display| format!("{flag} {}: {e}", number(at));
    // Checked before anything runs: the time here, the distance by the seek.
    let target = engine.tick_at(at).map_err(|e| bad(&e))?;
    let live = u64::from(engine.framebuffer().width()).min(target);
    let mut progress = Progress::new(format!("seeking to {flag} {}", number(at)), quiet);
    engine
        .render_at_tick(target - live, origin, |done, total| {
            progress.set(done, total)
        })
        .map_err(|e| bad(&e))?;
    drop(progress);
    // From here on one host tick is one frame of one update (what `bt gif --overlay` goes on
    // with).
    engine.set_host_hz(fps).map_err(|e| bad(&e))?;
    let step = crate::ConstantClock::new(1000.0 / fps).map_err(|e| e.to_string())?;
    engine.set_clock(Box::new(step));
    if live > 0 {
        engine.resume();
        engine.advance(live);
        engine.pause();
    }
    Ok(())
}

pub(super) fn gif(offer: &Offer, args: GifArgs) -> Result<(), String> {
    // Checked before the work, written through the one output path.
    check_size_scale(args.picture.scale, args.picture.size)?;
    let output = Output::new(&args.output, Format::Gif).map_err(|e| e.to_string())?;
    let input = args.input.input.as_deref();
    let (mut engine, _) = engine(offer, &args.cart, args.drawn.wanted(), None, input)?;
    let fps = engine.settings().target_fps;
    // The clip's length is checked before the seek, which may be long; a seek that fails
    // (too far, a cart that fails on the way) names `--from` and its value.
    crate::export::gif::check_length(fps, args.seconds)
        .map_err(|e| format!("--seconds {}: {e}", number(args.seconds)))?;
    // One bar for the seek and the frames after it (the overlay's seek shows its own first).
    let mut progress = Progress::new("making the GIF", args.progress.quiet);
    let stepping = if args.drawn.wanted() {
        show_overlay(&mut engine, &args.drawn);
        // As `bt shot --overlay`: the chart's frames before `--from` run live, then every
        // update is a frame the overlay records.
        overlay_shot(
            &mut engine,
            "--from",
            args.start.from,
            Origin::Start,
            args.progress.quiet,
        )?;
        crate::export::gif::Stepping::Live
    } else {
        let bad = |e: &dyn std::fmt::Display| format!("--from {}: {e}", number(args.start.from));
        let tick = engine.tick_at(args.start.from).map_err(|e| bad(&e))?;
        engine
            .render_at_tick(tick, Origin::Start, |done, total| progress.set(done, total))
            .map_err(|e| bad(&e))?;
        crate::export::gif::Stepping::Seek
    };
    // Streamed: each frame goes to the output as it is encoded (into an unnamed file beside
    // a file target, named only once complete), so a GIF of any length takes the same memory.
    let pending = Counted::new(output.begin().map_err(|e| e.to_string())?);
    let step = |done, total| progress.set(done, total);
    let written = match args.picture.size {
        crate::cli::args::SizeArg::Display => crate::export::gif::stream_gif_from_here(
            &mut engine,
            args.seconds,
            args.picture.scale,
            stepping,
            pending,
            step,
        ),
        crate::cli::args::SizeArg::Output => crate::export::gif::stream_gif_from_here_output(
            &mut engine,
            args.seconds,
            stepping,
            pending,
            step,
        ),
    }
    .map_err(|e| match e {
        crate::export::gif::GifError::Encode(_) => {
            format!("{}: {e}", crate::quote::path(&args.output))
        }
        other => other.to_string(),
    })?;
    drop(progress);
    say_quit(&engine);
    let bytes = written.count();
    written.into_inner().commit().map_err(|e| e.to_string())?;
    let frames = crate::export::gif::gif_timing(fps, args.seconds).len();
    say(format_args!(
        "wrote {} ({frames} frames, {} s from {} s, {bytes} bytes)\n",
        crate::quote::path(&args.output),
        args.seconds,
        args.start.from,
    ))
}

/// A writer that counts the bytes it passes on.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W> Counted<W> {
    fn new(inner: W) -> Counted<W> {
        Counted { inner, bytes: 0 }
    }

    fn count(&self) -> u64 {
        self.bytes
    }

    fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The most PNG files `bt frames` writes: 27 minutes of every update at 60 a second, and
/// what five digits number.
pub const MAX_FRAME_FILES: u64 = 100_000;

/// How many frames `--from`, `--to` and `--every` make: `from + k × every` for every `k` from
/// 0 whose time is at most `to`. A hair of slack keeps a `to` that the steps reach exactly
/// (0.3 in steps of 0.1) from being lost to rounding.
pub(super) fn frame_count(from: f64, to: f64, every: f64) -> f64 {
    ((to - from) / every + 1e-9).floor() + 1.0
}

pub(super) fn frames(offer: &Offer, args: FramesArgs) -> Result<(), Failure> {
    check_size_scale(args.picture.scale, args.picture.size).map_err(Failure::Usage)?;
    if args.to < args.start.from {
        return Err(Failure::Usage(format!(
            "--to {} is before --from {}",
            number(args.to),
            number(args.start.from)
        )));
    }
    let count = frame_count(args.start.from, args.to, args.every);
    if count > MAX_FRAME_FILES as f64 {
        return Err(Failure::Usage(format!(
            "--from {} --to {} --every {} makes {} frames; bt frames writes at most \
             {MAX_FRAME_FILES}",
            number(args.start.from),
            number(args.to),
            number(args.every),
            number(count)
        )));
    }
    let mut count = count as u64;
    if args.output.as_os_str() == "-" {
        return Err(Failure::Usage(
            "-o -: bt frames writes a folder of files, not a stream; name a folder".to_string(),
        ));
    }
    // Checked before any work: a folder with files in it is never touched.
    let mut out = crate::export::safe_write::OutputDir::new(&args.output)?;
    #[cfg(feature = "window")]
    crate::host::signals::install();
    let input = args.input.input.as_deref();
    let overlay = args.drawn.wanted();
    let (mut engine, _) = engine(offer, &args.cart, overlay, None, input)?;
    if overlay {
        show_overlay(&mut engine, &args.drawn);
    }
    let mut progress = Progress::new("rendering frames", args.progress.quiet);
    let mut first = None;
    let mut size = (0, 0);
    for k in 0..count {
        progress.set(k, count);
        let at = args.start.from + k as f64 * args.every;
        let bad = |e: &dyn std::fmt::Display| format!("frame {k} (at {} s): {e}", number(at));
        // The updates `bt shot --at` would run for this time.
        let updates = engine.tick_at(at).map_err(|e| bad(&e))?;
        let next = updates.saturating_sub(engine.updates_since_init());
        if k == 0 && overlay {
            // As `bt shot --overlay`: the chart's frames before it run live.
            overlay_shot(
                &mut engine,
                "--from",
                at,
                Origin::Start,
                args.progress.quiet,
            )?;
            first = Some(updates);
        } else if k == 0 {
            let mut seek = Progress::new(
                format!("seeking to --from {}", number(at)),
                args.progress.quiet,
            );
            engine
                .render_at_tick(updates, Origin::Start, |done, total| seek.set(done, total))
                .map_err(|e| bad(&e))?;
            first = Some(updates);
        } else if overlay {
            // Every update a frame the overlay records, as in `bt gif --overlay`.
            crate::export::gif::run_live(&mut engine, next).map_err(|e| bad(&e))?;
        } else {
            engine.step(next).map_err(|e| bad(&e))?;
        }
        #[cfg(feature = "window")]
        if crate::host::signals::requested() {
            return Err(Failure::Run(format!(
                "interrupted after {k} of {count} frames; {} was not made",
                crate::quote::path(&args.output)
            )));
        }
        let (png, wh) = encode_picture(&mut engine, args.picture.scale, args.picture.size)?;
        size = wh;
        out.write(&frame_file_name(k), &png)?;
        if engine.quit_at().is_some() {
            // The cart quit: this was its last frame; the sequence ends with it.
            count = k + 1;
            break;
        }
    }
    say_quit(&engine);
    drop(progress);
    out.commit()?;
    say(format_args!(
        "wrote {count} frames to {} ({} to {}, {}x{}, updates {} to {})\n",
        crate::quote::path(&args.output),
        frame_file_name(0),
        frame_file_name(count - 1),
        size.0,
        size.1,
        first.unwrap_or(0),
        engine.updates_since_init()
    ))?;
    Ok(())
}

/// Says on stderr that the run ended early because the cart quit, and at which update.
pub(super) fn say_quit(engine: &Engine) {
    if let Some(at) = engine.quit_at() {
        eprintln!(
            "the cart quit after update {at} ({} s): the run ends there",
            number(at as f64 / engine.settings().target_fps)
        );
    }
}

/// The name of the `k`th file of a PNG sequence: `frame_00000.png`, ...
pub(super) fn frame_file_name(k: u64) -> String {
    format!("frame_{k:05}.png")
}

pub(super) fn wav(offer: &Offer, args: WavArgs) -> Result<(), String> {
    let output = Output::new(&args.output, Format::Wav).map_err(|e| e.to_string())?;
    let input = args.input.input.as_deref();
    let (mut engine, _) = engine(offer, &args.cart, false, None, input)?;
    engine.console_mut().set_sample_rate(args.rate);
    let clock = match &args.clock {
        Some(spec) => Some(spec.build().map_err(|e| e.to_string())?),
        None => None,
    };
    let mut progress = Progress::new("making the WAV", args.progress.quiet);
    // Streamed: the samples go to the output as they are made (into an unnamed file beside
    // a file target, named only once complete), so any length takes the same memory.
    let mut pending = output.begin().map_err(|e| e.to_string())?;
    let written = crate::export::wav::stream_wav(
        &mut engine,
        args.start.from,
        args.seconds,
        clock,
        if args.mono {
            crate::export::wav::WavChannels::Mono
        } else {
            crate::export::wav::WavChannels::Stereo
        },
        &mut pending,
        |done, total| progress.set(done, total),
    )
    .map_err(|e| match e {
        crate::export::wav::WavError::Write(_) => {
            format!("{}: {e}", crate::quote::path(&args.output))
        }
        other => other.to_string(),
    })?;
    drop(progress);
    pending.commit().map_err(|e| e.to_string())?;
    say_quit(&engine);
    say(format_args!(
        "wrote {} ({} s from {} s at {} Hz, {}, {} bytes)\n",
        crate::quote::path(&args.output),
        args.seconds,
        args.start.from,
        args.rate,
        if args.mono { "mono" } else { "stereo" },
        written
    ))
}
