//! Timing: `bt trace`, `bt diagnose`, `bt bench`.

use std::io::{self, Write};
use std::path::Path;

use crate::cli::args::{BenchArgs, DiagnoseArgs, FormatArg, SimArgs, TraceArgs};
use crate::cli::progress::Progress;
use crate::cli::{Chosen, Offer};

use super::*;

use crate::export::safe_write::{Format, Output, Pending};
use crate::timing::frame_records::{self, TraceWriter};
use crate::timing::timeline::Timeline;
use crate::timing::{bench, diagnose};
use crate::Engine;

/// Puts the simulated host's clock and rate into `engine`.
pub(super) fn simulate(sim: &SimArgs, engine: &mut Engine) -> Result<(), String> {
    engine.set_host_hz(sim.host_hz).map_err(|e| e.to_string())?;
    engine.set_clock(sim.clock.build().map_err(|e| e.to_string())?);
    Ok(())
}

pub(super) fn trace(offer: &Offer, args: TraceArgs) -> Result<(), String> {
    let input = args.input.input.as_deref();
    let (mut engine, chosen) = engine(offer, &args.cart, false, None, input)?;
    simulate(&args.sim, &mut engine)?;
    let format = match args.format {
        FormatArg::Csv => frame_records::Format::Csv,
        FormatArg::Json => frame_records::Format::Json,
        FormatArg::Chrome => return chrome_trace(engine, &chosen.name, args.sim.frames),
    };
    let stdout = io::stdout().lock();
    let mut writer = TraceWriter::new(io::BufWriter::new(stdout), format).map_err(io_error)?;
    let frames = args.sim.frames;
    let mut progress = Progress::new("tracing host ticks", args.progress.quiet);
    let written = (|| {
        for tick in 0..frames {
            if tick % PROGRESS_EVERY == 0 {
                progress.set(tick, frames);
            }
            if engine.advance(1) == 1 {
                writer.row(engine.last_frame())?;
            } else if engine.cart_panic().is_some() {
                // The rows before the panic are still worth having.
                break;
            }
        }
        writer.finish().map(drop)
    })();
    drop(progress);
    match written {
        // A reader that stopped early (`bt trace ... | head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        other => other.map_err(io_error)?,
    }
    still_running(&engine, &chosen)
}

/// Fails when the cart panicked, naming it, the call, the tick and the panic's message.
pub(super) fn still_running(engine: &Engine, chosen: &Chosen) -> Result<(), String> {
    match engine.cart_panic() {
        Some(panic) => Err(format!("cart '{}': {panic}", chosen.name)),
        None => Ok(()),
    }
}

/// `bt trace --format chrome`: the whole run, then one JSON document on stdout.
pub(super) fn chrome_trace(mut engine: Engine, name: &str, host_ticks: u64) -> Result<(), String> {
    // The overlay, hidden, is what counts dropped frames.
    engine.overlay_forced().set_visible(false);
    let mut timeline = Timeline::new(1000.0 / engine.settings().target_fps);
    for _ in 0..host_ticks {
        if engine.advance(1) == 1 {
            let dropped = engine.overlay().map_or(0, |o| o.last_dropped());
            timeline.record(engine.last_frame(), dropped, engine.last_frame_tags());
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    match timeline.write_chrome_trace(&mut out, name) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(io_error),
    }
}

pub(super) fn diagnose(offer: &Offer, args: DiagnoseArgs) -> Result<(), Failure> {
    // Both outputs are checked before anything runs, and committed only once both are written.
    let png = Output::new(&args.output, Format::Png)?;
    let csv = args
        .csv
        .as_deref()
        .map(|path| Output::new(path, Format::Csv))
        .transpose()?;
    let report_out = args
        .report
        .as_deref()
        .map(|path| Output::new(path, Format::Html))
        .transpose()?;
    if csv.as_ref().is_some_and(|csv| csv.same_target(&png)) {
        return Err(Failure::Usage(format!(
            "--output and --csv both name {}; give each its own file",
            png.path().display()
        )));
    }
    if let Some(r) = &report_out {
        if r.same_target(&png) || csv.as_ref().is_some_and(|csv| csv.same_target(r)) {
            return Err(Failure::Usage(format!(
                "--report names {}, which another output names too; give each its own file",
                r.path().display()
            )));
        }
    }
    let input = args.input.input.as_deref();
    let (mut engine, chosen) = engine(offer, &args.cart, true, None, input)?;
    let overlay = engine.overlay_forced();
    overlay.set_visible(true);
    overlay.set_chart_mode(args.chart.mode());
    overlay.set_fixed_costs(args.fixed_costs);
    simulate(&args.sim, &mut engine)?;
    // Rows go to the output as they come, not into memory.
    let mut rows = csv.as_ref().map(Output::begin).transpose()?;
    let csv_error = |e: io::Error| {
        let path = csv.as_ref().map_or(Path::new("-"), Output::path);
        format!("could not write {}: {e}", path.display())
    };
    if let Some(rows) = &mut rows {
        writeln!(rows, "{}", diagnose::CSV_HEADER).map_err(csv_error)?;
    }
    let mut frames = 0;
    let mut timeline = Timeline::new(1000.0 / engine.settings().target_fps);
    let mut progress = Progress::new("diagnosing host ticks", args.progress.quiet);
    for tick in 0..args.sim.frames {
        if tick % PROGRESS_EVERY == 0 {
            progress.set(tick, args.sim.frames);
        }
        if engine.advance(1) == 1 {
            frames += 1;
            let dropped = engine.overlay().map_or(0, |o| o.last_dropped());
            timeline.record(engine.last_frame(), dropped, engine.last_frame_tags());
            if let Some(rows) = &mut rows {
                let report = *engine.last_frame();
                diagnose::write_row(rows, &engine, &report).map_err(csv_error)?;
            }
        } else {
            still_running(&engine, &chosen)?;
        }
    }
    drop(progress);
    if frames == 0 {
        return Err(Failure::Run(format!(
            "the clock delivered no frame in {} host ticks; nothing to draw",
            args.sim.frames
        )));
    }
    let csv_ready = rows.map(Pending::finish).transpose()?;
    let png_ready = png.prepare(&encode_frame(&engine, args.scale)?)?;
    let report_ready = match &report_out {
        Some(out) => {
            Some(out.prepare(crate::timing::report::html(&timeline, &chosen.name)?.as_bytes())?)
        }
        None => None,
    };
    png_ready.commit()?;
    if let Some(ready) = report_ready {
        ready.commit()?;
    }
    if let Some(ready) = csv_ready {
        ready.commit()?;
    }
    let also: Vec<String> = csv
        .iter()
        .chain(report_out.iter())
        .map(|o| o.path().display().to_string())
        .collect();
    let and_also = if also.is_empty() {
        String::new()
    } else {
        format!(" and {}", also.join(" and "))
    };
    report(
        png.is_stdout() || csv.as_ref().is_some_and(Output::is_stdout),
        format_args!(
            "wrote {} ({frames} frames, tick {}){and_also}\n\n{}",
            png.path().display(),
            engine.ticks(),
            timeline.summary().to_text()
        ),
    )?;
    Ok(())
}

pub(super) fn bench(offer: &Offer, args: BenchArgs) -> Result<(), String> {
    let (mut engine, chosen) = engine(offer, &args.cart, false, None, None)?;
    let report = bench::run(&mut engine, args.frames, args.warmup)
        .map_err(|panic| format!("cart '{}': {panic}", chosen.name))?;
    if args.json {
        say(format_args!("{}\n", report.to_json()))
    } else {
        let fb = engine.framebuffer();
        say(format_args!(
            "{}",
            report.to_table(&chosen.name, (fb.width(), fb.height()))
        ))
    }
}
