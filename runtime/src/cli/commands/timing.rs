//! Timing: `bt trace`, `bt diagnose`, `bt bench`.

use std::io::{self, Write};
use std::path::Path;

use bt_overlay::Refresh;

use bt::host::Framebuffer;
use bt_overlay::ChartFrame;

use crate::cli::args::{
    BenchArgs, ChartArg, ChartPoint, DiagnoseArgs, FormatArg, SimArgs, TraceArgs, DEFAULT_HOST_HZ,
};
use crate::cli::progress::Progress;
use crate::cli::Offer;

use super::*;

use crate::clock::capture::Sensor;
use crate::clock::spec::ClockSpec;
use crate::export::safe_write::{Format, Output, Pending};
use crate::timing::frame_records::{self, TraceWriter};
use crate::timing::runs::{Aggregation, DEFAULT_OUTLIER_PERCENT, MAX_RUNS};
use crate::timing::timeline::{
    display_repeats, FrameSource, RunSummary, Summary, Timeline, MAX_KEPT_FRAMES,
};
use crate::timing::{bench, diagnose};
use crate::Engine;

/// What a simulated run is: how many host ticks, what missed refreshes are counted against,
/// and where the frame times come from.
pub(super) struct Sim {
    pub ticks: u64,
    pub refresh: Refresh,
    pub source: FrameSource,
    /// The captured program's stream and the capture file, for a capture clock.
    pub captured: Option<(String, String)>,
    /// The capture's sensor readings, for the report.
    pub sensors: Vec<Sensor>,
}

impl Sim {
    /// The run's name in titles: the cart, or for a capture the program captured first,
    /// since its frames are what the figures describe.
    pub fn title(&self, cart: &str) -> String {
        match &self.captured {
            Some((stream, _)) => crate::timing::captured::captured_title(stream, cart),
            None => cart.to_string(),
        }
    }

    /// The run's name beside another's (`--compare`): the title, and for a capture its file
    /// too, since two captures of one session name the same program and swap chain.
    pub fn label(&self, cart: &str) -> String {
        match &self.captured {
            Some((stream, file)) => {
                format!("{stream} (captured in '{file}'), played through {cart}")
            }
            None => cart.to_string(),
        }
    }
}

/// Puts the simulated host's clock and rate into `engine`, and says what the run is. A capture
/// clock says on stderr which of the capture's streams it plays.
pub(super) fn simulate(sim: &SimArgs, engine: &mut Engine) -> Result<Sim, Failure> {
    let host_hz = sim.refresh_hz.unwrap_or(DEFAULT_HOST_HZ);
    engine.set_host_hz(host_hz).map_err(|e| e.to_string())?;
    let mut spec = sim.clock.clone();
    let captured = match &spec {
        ClockSpec::Capture { capture, .. } => {
            Some((capture.stream().name(), capture.file().to_string()))
        }
        _ => None,
    };
    let sensors = match &spec {
        ClockSpec::Capture { capture, .. } => capture.stream().sensors.clone(),
        _ => Vec::new(),
    };
    let (ticks, source) = match &mut spec {
        ClockSpec::Capture { capture, looped } => {
            *looped = sim.looped;
            let said = described(capture, sim.vrr.is_some() || sim.refresh_hz.is_some());
            note(format_args!("{said}"));
            for line in capture.notes() {
                note(format_args!("{line}"));
            }
            let length = capture.len() as u64;
            let ticks = match sim.frames {
                None => length,
                Some(n) if n > length && !sim.looped => {
                    return Err(Failure::Usage(format!(
                        "--frames {n} runs past the end of capture '{}' ({length} frames); \
                         give --loop to play it again from its start, or fewer frames",
                        capture.file()
                    )))
                }
                Some(n) => n,
            };
            let source = FrameSource::of_capture(capture, said);
            (ticks, source)
        }
        _ if sim.looped => {
            return Err(Failure::Usage(
                "--loop plays a capture clock again; this clock has no end".to_string(),
            ))
        }
        _ => {
            let ticks = sim.frames.ok_or_else(|| {
                Failure::Usage(
                    "--frames is needed with this clock (only a capture clock knows its own \
                     length)"
                        .to_string(),
                )
            })?;
            (ticks, FrameSource::Clock)
        }
    };
    let refresh = match (sim.refresh_hz, &spec) {
        _ if sim.vrr.is_some() => {
            let (min_hz, max_hz) = sim.vrr.unwrap_or_default();
            Refresh::Variable { min_hz, max_hz }
        }
        (Some(hz), _) => Refresh::Given(hz),
        (None, ClockSpec::Capture { capture, .. }) => capture.refresh(),
        // These clocks' frames fall on the simulated host's ticks.
        (None, ClockSpec::Wall(_) | ClockSpec::Paced(..)) => Refresh::Given(host_hz),
        // These clocks' deltas owe nothing to the host's ticks: the rate is estimated.
        (None, _) => Refresh::Rolling,
    };
    engine.set_clock(spec.build().map_err(|e| e.to_string())?);
    Ok(Sim {
        ticks,
        refresh,
        source,
        captured,
        sensors,
    })
}

/// What stderr says of a capture played: no advice to give `--refresh-hz` or `--vrr` when
/// either was given.
fn described(capture: &crate::clock::capture::Capture, refresh_given: bool) -> String {
    if refresh_given {
        capture.describe_refresh_given()
    } else {
        capture.describe()
    }
}

/// Refuses a run `what` would keep whole in memory when it is longer than
/// [`MAX_KEPT_FRAMES`]: said before any of it runs, naming `--frames` (or the capture's
/// length when that is what set it).
fn check_kept(sim: &Sim, frames: Option<u64>, what: &str) -> Result<(), Failure> {
    if sim.ticks <= MAX_KEPT_FRAMES {
        return Ok(());
    }
    let named = match frames {
        Some(n) => format!("--frames {n}"),
        None => format!("a capture of {} frames", sim.ticks),
    };
    Err(Failure::Usage(format!(
        "{named}: {what} keeps every frame for its exact figures, at most {MAX_KEPT_FRAMES} \
         (2^24); give fewer frames, or use bt trace --format csv or json, which stream"
    )))
}

pub(super) fn trace(offer: &Offer, args: TraceArgs) -> Result<(), Failure> {
    let input = args.input.input.as_deref();
    let (mut engine, session) = engine(offer, &args.cart, false, None, input)?;
    let sim = simulate(&args.sim, &mut engine)?;
    let format = match args.format {
        FormatArg::Csv => frame_records::Format::Csv,
        FormatArg::Json => frame_records::Format::Json,
        FormatArg::Chrome | FormatArg::Summary => {
            let what = match args.format {
                FormatArg::Chrome => "bt trace --format chrome",
                _ => "bt trace --format summary",
            };
            check_kept(&sim, args.sim.frames, what)?;
            let chrome = args.format == FormatArg::Chrome;
            let kept = whole_run(&mut engine, &sim, chrome);
            still_running(&engine, &session)?;
            let mut out = io::BufWriter::new(io::stdout().lock());
            let written = match &kept {
                Kept::Records(timeline) if chrome => {
                    timeline.write_chrome_trace(&mut out, &sim.title(session.name()))
                }
                _ => writeln!(out, "{:#}", kept.summary().to_json()).and_then(|()| out.flush()),
            };
            return match written {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other.map_err(io_error)?),
            };
        }
    };
    let stdout = io::stdout().lock();
    let mut writer = TraceWriter::new(io::BufWriter::new(stdout), format).map_err(io_error)?;
    let frames = sim.ticks;
    let mut progress = Progress::new("tracing host ticks", args.progress.quiet);
    let written = (|| {
        for tick in 0..frames {
            if tick % PROGRESS_EVERY == 0 {
                progress.set(tick, frames);
            }
            if engine.advance(1) == 1 {
                writer.row(engine.last_frame())?;
            } else if engine.cart_panic().is_some() || engine.quit_at().is_some() {
                // The rows before the panic (or the quit) are still worth having.
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
    super::pictures::say_quit(&engine);
    Ok(still_running(&engine, &session)?)
}

/// Fails when the cart panicked, naming it, the call, the tick and the panic's message.
pub(super) fn still_running(engine: &Engine, session: &Session) -> Result<(), String> {
    match engine.cart_panic() {
        Some(panic) => Err(format!("cart '{}': {panic}", session.name())),
        None => Ok(()),
    }
}

/// A whole run as a command keeps it: every frame's record, for a Chrome trace, a chart or a
/// report, or only what its summary reads, a few bytes a frame.
enum Kept {
    Records(Timeline),
    Summary(RunSummary),
}

impl Kept {
    /// An empty run of `sim` on `engine`'s cart, keeping every record when `records`, with
    /// room for its frames (at most MAX_KEPT_FRAMES, checked before the run).
    fn new(engine: &Engine, sim: &Sim, records: bool) -> Kept {
        let budget_ms = 1000.0 / engine.settings().target_fps;
        if records {
            let mut timeline = Timeline::new(budget_ms);
            timeline.set_source(sim.source.clone());
            timeline.reserve(sim.ticks as usize);
            Kept::Records(timeline)
        } else {
            let mut run = RunSummary::new(budget_ms);
            run.set_source(sim.source.clone());
            run.reserve(sim.ticks as usize);
            Kept::Summary(run)
        }
    }

    /// Adds the engine's last frame, with the refreshes the overlay counted it missed.
    fn record(&mut self, engine: &Engine) {
        let missed = engine
            .overlay()
            .and_then(|o| o.last_missed_refreshes())
            .unwrap_or(0);
        let (report, tags) = (engine.last_frame(), engine.last_frame_tags());
        match self {
            Kept::Records(timeline) => timeline.record(report, missed, tags),
            Kept::Summary(run) => run.record(report, missed, tags),
        }
    }

    /// Says what the missed refreshes were counted against: the overlay's, at the end.
    fn set_refresh_of(&mut self, engine: &Engine) {
        if let Some(refresh) = engine.overlay().map(|o| o.refresh()) {
            match self {
                Kept::Records(timeline) => timeline.set_refresh(refresh),
                Kept::Summary(run) => run.set_refresh(refresh),
            }
        }
    }

    fn summary(&self) -> Summary {
        match self {
            Kept::Records(timeline) => timeline.summary(),
            Kept::Summary(run) => run.summary(),
        }
    }

    /// The longest frame time, in ms.
    fn longest_ms(&self) -> f64 {
        match self {
            Kept::Records(timeline) => timeline.frames().map(|f| f.delta_ms).fold(0.0, f64::max),
            Kept::Summary(run) => run.longest_ms(),
        }
    }

    /// Every frame time, in ms, in order: a copy, 8 bytes a frame.
    fn frames_ms(&self) -> Vec<f64> {
        match self {
            Kept::Records(timeline) => timeline.frames().map(|f| f.delta_ms).collect(),
            Kept::Summary(run) => run.frames_ms().to_vec(),
        }
    }

    /// Every frame's record, when they were kept.
    fn timeline(&self) -> Option<&Timeline> {
        match self {
            Kept::Records(timeline) => Some(timeline),
            Kept::Summary(_) => None,
        }
    }
}

/// `bt trace --format chrome` and `--format summary`, `bt diagnose --compare`'s second run:
/// the whole run, every record kept when `records`, stopping at a cart panic.
fn whole_run(engine: &mut Engine, sim: &Sim, records: bool) -> Kept {
    // The overlay, hidden, is what counts missed refreshes.
    let overlay = engine.overlay_forced();
    overlay.set_visible(false);
    overlay.set_refresh(sim.refresh);
    let mut kept = Kept::new(engine, sim, records);
    for _ in 0..sim.ticks {
        if engine.advance(1) == 1 {
            kept.record(engine);
        } else if engine.cart_panic().is_some() || engine.quit_at().is_some() {
            break;
        }
    }
    super::pictures::say_quit(engine);
    kept.set_refresh_of(engine);
    kept
}

pub(super) fn diagnose(offer: &Offer, args: DiagnoseArgs) -> Result<(), Failure> {
    if args.output.is_none() && args.csv.is_none() && args.report.is_none() {
        return Err(Failure::Usage(
            "nothing to write: give -o FILE.png, --csv FILE.csv or --report FILE.html".to_string(),
        ));
    }
    // Every output is checked before anything runs, and committed only once all are written.
    let png = args
        .output
        .as_deref()
        .map(|path| Output::new(path, Format::Png))
        .transpose()?;
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
    one_file_each(&[
        ("--output", png.as_ref()),
        ("--csv", csv.as_ref()),
        ("--report", report_out.as_ref()),
    ])?;
    if (args.from.is_some() || args.to.is_some() || args.whole || args.display_times)
        && args.chart != ChartArg::Tall
    {
        return Err(Failure::Usage(
            "--from, --to, --whole and --display-times choose what the tall chart shows; give \
             --chart tall"
                .to_string(),
        ));
    }
    check_runs(&args)?;
    let input = args.input.input.as_deref();
    let (mut engine, session) = engine(offer, &args.cart, true, None, input)?;
    show_overlay(&mut engine, &args);
    let sim = simulate(&args.sim, &mut engine)?;
    show_capture(&mut engine, &sim, &args);
    if args.display_times && !sim.source.has_display_times() {
        return Err(Failure::Usage(
            "--display-times needs a capture with display times (PresentMon's \
             MsBetweenDisplayChange or DisplayedTime, or FrameView's or CapFrameX's); the clock \
             given has none"
                .to_string(),
        ));
    }
    check_kept(&sim, args.sim.frames, "bt diagnose")?;
    engine.overlay_forced().set_refresh(sim.refresh);
    // Rows go to the output as they come, not into memory.
    let mut rows = csv.as_ref().map(Output::begin).transpose()?;
    let csv_error = |e: io::Error| {
        let path = csv.as_ref().map_or(Path::new("-"), Output::path);
        format!("could not write {}: {e}", crate::quote::path(path))
    };
    if let Some(rows) = &mut rows {
        writeln!(rows, "{}", diagnose::CSV_HEADER).map_err(csv_error)?;
    }
    let mut frames = 0;
    // Every frame's record only for what draws them: the tall chart and the report.
    let records = report_out.is_some() || (png.is_some() && args.chart == ChartArg::Tall);
    let mut kept = Kept::new(&engine, &sim, records);
    let mut progress = Progress::new("diagnosing host ticks", args.progress.quiet);
    for tick in 0..sim.ticks {
        if tick % PROGRESS_EVERY == 0 {
            progress.set(tick, sim.ticks);
        }
        if engine.advance(1) == 1 {
            frames += 1;
            kept.record(&engine);
            if let Some(rows) = &mut rows {
                let report = *engine.last_frame();
                diagnose::write_row(rows, &engine, &report).map_err(csv_error)?;
            }
        } else {
            still_running(&engine, &session)?;
        }
    }
    drop(progress);
    if frames == 0 {
        return Err(Failure::Run(format!(
            "the clock delivered no frame in {} host ticks; nothing to draw",
            sim.ticks
        )));
    }
    kept.set_refresh_of(&engine);
    let csv_ready = rows.map(Pending::finish).transpose()?;
    let title = if args.compare.is_empty() {
        sim.title(session.name())
    } else {
        sim.label(session.name())
    };
    let all_compared = args
        .compare
        .iter()
        .map(|spec| compare_run(offer, &args, spec, sim.ticks, kept.longest_ms(), records))
        .collect::<Result<Vec<_>, Failure>>()?;
    let aggregation = args.aggregate.map(|percent| {
        let mut runs = vec![kept.frames_ms()];
        runs.extend(all_compared.iter().map(|(other, _, _)| other.frames_ms()));
        let refs: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
        Aggregation::of(&refs, percent.unwrap_or(DEFAULT_OUTLIER_PERCENT))
    });
    // The tall chart stacks two screens: it is drawn with one compared run (checked above).
    let compared = all_compared.first().filter(|_| all_compared.len() == 1);
    if let (Some(_), ChartArg::Tall, Some(timeline)) = (&png, args.chart, kept.timeline()) {
        let label = match &compared {
            // Both charts on one scale: the longest frame of either run fits.
            Some((other, _, _)) => {
                engine
                    .overlay_forced()
                    .set_chart_scale_floor(other.longest_ms());
                "A "
            }
            None => "",
        };
        chart_stretch(&mut engine, timeline, &args, label)?;
    }
    let png_ready = match &png {
        // Comparing with the tall chart: A's screen above B's, each chart captioned with its
        // letter.
        Some(png) => Some(png.prepare(&match &compared {
            Some((_, _, Some(other))) => {
                let both = stacked(engine.framebuffer(), other);
                crate::export::png::encode_png(&both, engine.palette(), args.scale)
                    .map_err(|e| e.to_string())?
            }
            _ => encode_frame(&engine, args.scale)?,
        })?),
        None => None,
    };
    let report_ready = match (&report_out, kept.timeline()) {
        (Some(out), Some(timeline)) if all_compared.is_empty() => Some(out.prepare(
            crate::timing::report::html_with_sensors(timeline, &title, &sim.sensors)?.as_bytes(),
        )?),
        (Some(out), Some(timeline)) => {
            let mut runs = vec![(timeline, title.as_str())];
            for (other, other_title, _) in &all_compared {
                let Some(other) = other.timeline() else {
                    return Err(Failure::Run("a compared run kept no records".to_string()));
                };
                runs.push((other, other_title.as_str()));
            }
            let aggregate = aggregation.as_ref().map(Aggregation::html);
            Some(out.prepare(
                crate::timing::report::several_html(&runs, aggregate.as_deref())?.as_bytes(),
            )?)
        }
        _ => None,
    };
    if let Some(ready) = png_ready {
        ready.commit()?;
    }
    if let Some(ready) = report_ready {
        ready.commit()?;
    }
    if let Some(ready) = csv_ready {
        ready.commit()?;
    }
    let written: Vec<String> = png
        .iter()
        .chain(csv.iter())
        .chain(report_out.iter())
        .map(|o| crate::quote::path(o.path()).to_string())
        .collect();
    let on_stdout = |o: &Option<Output>| o.as_ref().is_some_and(Output::is_stdout);
    report(
        on_stdout(&png) || on_stdout(&csv),
        format_args!(
            "wrote {} ({frames} frames, tick {})\n\n{}{}",
            written.join(" and "),
            engine.ticks(),
            kept.summary().to_text(),
            compared_text(&kept, &title, &all_compared, aggregation.as_ref())
        ),
    )?;
    Ok(())
}

/// Refuses, before anything runs, what the compared runs cannot do: more than
/// [`MAX_RUNS`] runs, a tall chart of more than two, an aggregate of one.
fn check_runs(args: &DiagnoseArgs) -> Result<(), Failure> {
    if args.compare.len() + 1 > MAX_RUNS {
        return Err(Failure::Usage(format!(
            "--compare was given {} times: at most {} runs are set side by side, so give it \
             at most {} times",
            args.compare.len(),
            MAX_RUNS,
            MAX_RUNS - 1
        )));
    }
    if args.compare.len() > 1 && args.output.is_some() && args.chart == ChartArg::Tall {
        return Err(Failure::Usage(format!(
            "-o with --chart tall stacks two runs' screens, A above B, but --compare was given \
             {} times; give one --compare, or leave out -o (the report draws every run)",
            args.compare.len()
        )));
    }
    if args.aggregate.is_some() && args.compare.is_empty() {
        return Err(Failure::Usage(
            "--aggregate needs at least two runs: give --compare CLOCK once or more".to_string(),
        ));
    }
    Ok(())
}

/// What the text says after the first run's summary: the comparison with the other runs, and
/// the aggregate when asked for.
fn compared_text(
    kept: &Kept,
    title: &str,
    compared: &[(Kept, String, Option<Framebuffer>)],
    aggregation: Option<&Aggregation>,
) -> String {
    let first = kept.summary();
    let others: Vec<Summary> = compared.iter().map(|(k, _, _)| k.summary()).collect();
    let mut text = match (compared, others.as_slice()) {
        ([], _) => String::new(),
        ([(_, other_title, _)], [other]) => format!(
            "\n{}",
            crate::timing::report::comparison_text((&first, title), (other, other_title))
        ),
        _ => {
            let mut runs = vec![(&first, title)];
            runs.extend(
                others
                    .iter()
                    .zip(compared)
                    .map(|(s, (_, name, _))| (s, name.as_str())),
            );
            format!("\n{}", crate::timing::report::several_text(&runs))
        }
    };
    if let Some(aggregation) = aggregation {
        text.push('\n');
        text.push_str(&aggregation.text());
    }
    text
}

/// Shows the overlay with the chart `bt diagnose` draws.
fn show_overlay(engine: &mut Engine, args: &DiagnoseArgs) {
    let overlay = engine.overlay_forced();
    overlay.set_visible(true);
    overlay.set_chart_mode(args.chart.mode());
    overlay.set_fixed_costs(args.fixed_costs);
}

/// The run `bt diagnose --compare` sets beside the first: the same cart, input and host, under
/// the other clock. With a tall chart to write, its screen too, charted on a scale that also
/// fits the first run's longest frame (`first_longest_ms`). A clock with no length of its own
/// runs as many host ticks as the first run did, unless --frames says. Every frame's record is
/// kept when `records`, as the first run keeps them.
fn compare_run(
    offer: &Offer,
    args: &DiagnoseArgs,
    spec: &ClockSpec,
    first_ticks: u64,
    first_longest_ms: f64,
    records: bool,
) -> Result<(Kept, String, Option<Framebuffer>), Failure> {
    let input = args.input.input.as_deref();
    let (mut engine, session) = engine(offer, &args.cart, true, None, input)?;
    show_overlay(&mut engine, args);
    let frames = match spec {
        ClockSpec::Capture { .. } => args.sim.frames,
        _ => args.sim.frames.or(Some(first_ticks)),
    };
    let sim_args = SimArgs {
        clock: spec.clone(),
        frames,
        refresh_hz: args.sim.refresh_hz,
        vrr: args.sim.vrr,
        looped: args.sim.looped,
    };
    let sim = simulate(&sim_args, &mut engine)?;
    show_capture(&mut engine, &sim, args);
    check_kept(&sim, frames, "bt diagnose --compare")?;
    let kept = whole_run(&mut engine, &sim, records);
    still_running(&engine, &session)?;
    let screen = match kept.timeline() {
        Some(timeline) if args.output.is_some() && args.chart == ChartArg::Tall => {
            // The whole run counted its missed refreshes with the overlay hidden; now it shows.
            let overlay = engine.overlay_forced();
            overlay.set_visible(true);
            overlay.set_chart_scale_floor(first_longest_ms);
            chart_stretch(&mut engine, timeline, args, "B ")?;
            Some(engine.framebuffer().clone())
        }
        _ => None,
    };
    Ok((kept, sim.label(session.name()), screen))
}

/// `top` above `bottom`, as one picture as wide as the wider.
fn stacked(top: &Framebuffer, bottom: &Framebuffer) -> Framebuffer {
    let width = top.width().max(bottom.width());
    let mut both = Framebuffer::new(width, top.height() + bottom.height());
    for (fb, dy) in [(top, 0), (bottom, top.height() as i32)] {
        for (i, &p) in fb.pixels().iter().enumerate() {
            let (x, y) = (i as u32 % fb.width(), i as u32 / fb.width());
            both.draw_pixel(x as i32, y as i32 + dy, p);
        }
    }
    both
}

/// The rank of a capture's frame times its tall chart's scale fits (see [`chart_stretch`]):
/// the 95th percentile, so the run's own pace fills the panel and only its slowest 5 %, its
/// stalls, run past the top with their values (the 99th is a short run's longest frame).
const CHART_FIT_RANK: f64 = 0.95;

/// Names the captured program on the chart's title row, and gives the tall chart the screen
/// when a run charted plays a capture: a capture's picture is its chart, not the cart's screen.
/// Two runs compared both take it, so their bars keep one height for one time.
fn show_capture(engine: &mut Engine, sim: &Sim, args: &DiagnoseArgs) {
    let overlay = engine.overlay_forced();
    if let Some((stream, _)) = &sim.captured {
        // The program and its process: the swap chain's address would crowd them off the
        // row.
        let program = stream.split(" swap chain ").next().unwrap_or(stream);
        overlay.set_title(&format!("captured {program}"));
    }
    let capture = |spec: &ClockSpec| matches!(spec, ClockSpec::Capture { .. });
    overlay.set_chart_full_height(capture(&args.sim.clock) || args.compare.iter().any(capture));
}

/// Charts the stretch of the run the tall chart shows, and draws the last frame again with it:
/// the frames from --from to --to, the whole run compressed with --whole, or by default, when
/// the run is longer than the chart is wide, the chart's width of frames around the longest.
fn chart_stretch(
    engine: &mut Engine,
    timeline: &Timeline,
    args: &DiagnoseArgs,
    label: &str,
) -> Result<(), Failure> {
    let records = timeline.frames_in_one();
    let columns = engine.overlay().map_or(0, |o| o.chart_columns());
    let n = records.len();
    if columns == 0 || n == 0 {
        return Ok(());
    }
    let index_of = |point: ChartPoint| match point {
        ChartPoint::Frame(frame) => records.partition_point(|r| r.frame < frame),
        ChartPoint::Seconds(s) => records.partition_point(|r| r.start_ms < s * 1000.0),
    };
    let (first, last, per_column) = if args.whole {
        (0, n, n.div_ceil(columns))
    } else if args.from.is_some() || args.to.is_some() {
        let first = args.from.map_or(0, index_of).min(n - 1);
        let last = args
            .to
            .map_or(n, |p| (index_of(p) + 1).min(n))
            .max(first + 1);
        // A window wider than the chart is compressed to fit it.
        (first, last, (last - first).div_ceil(columns))
    } else if n > columns {
        let longest = records
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.delta_ms.total_cmp(&b.1.delta_ms))
            .map_or(0, |(i, _)| i);
        let first = longest.saturating_sub(columns / 2).min(n - columns);
        (first, first + columns, 1)
    } else {
        (0, n, 1)
    };
    // A copy only when display times replace the frame times.
    let mut stretch = std::borrow::Cow::Borrowed(&records[first..last]);
    // Charting display times, each frame's bar is its display interval and its missed
    // refreshes are counted from it, as the summary's display count is.
    let refresh = timeline.refresh();
    let mut never_shown = Vec::new();
    if args.display_times {
        for r in stretch.to_mut() {
            let shown = timeline.source().display_ms(r.frame).unwrap_or(0.0);
            never_shown.push(shown <= 0.0);
            r.delta_ms = shown;
            r.missed = match refresh {
                (Refresh::Tearing, _) => 0,
                (Refresh::Variable { min_hz, .. }, _) => bt_overlay::vrr_repeats(shown, min_hz),
                (_, hz) => hz.map_or(0, |hz| display_repeats(shown, hz) as u32),
            };
        }
    }
    let stretch = &stretch[..];
    let frames: Vec<ChartFrame> = stretch
        .chunks(per_column.max(1))
        .enumerate()
        .map(|(k, bucket)| {
            // The worst frame stands for its bucket; what the cap threw away and the missed
            // refreshes add up over it, so the title's lost time covers every frame.
            let worst = bucket
                .iter()
                .max_by(|a, b| a.delta_ms.total_cmp(&b.delta_ms))
                .expect("chunks are never empty");
            let mut stats = worst.stats();
            stats.clamped = bucket.iter().any(|r| r.clamped);
            stats.discarded_ms = bucket.iter().map(|r| r.discarded_ms).sum();
            // Several frames: their shortest and median too, so the column is a band.
            let spread = (bucket.len() > 1).then(|| {
                let mut deltas: Vec<f64> = bucket.iter().map(|r| r.delta_ms).collect();
                deltas.sort_by(f64::total_cmp);
                (deltas[0], deltas[(deltas.len() - 1) / 2])
            });
            let start = k * per_column.max(1);
            let source = timeline.source();
            let generated = bucket
                .iter()
                .filter(|r| source.generated(r.frame) == Some(true))
                .count();
            ChartFrame {
                stats,
                missed: bucket.iter().map(|r| r.missed).sum(),
                spread,
                start_ms: Some(bucket[0].start_ms),
                never_shown: never_shown
                    .get(start..start + bucket.len())
                    .is_some_and(|n| n.iter().all(|&n| n)),
                generated: 2 * generated > bucket.len(),
                mode_change: bucket.iter().any(|r| source.mode_changes_at(r.frame)),
            }
        })
        .collect();
    let first_frame = stretch[0].frame;
    let last_frame = stretch[stretch.len() - 1].frame;
    let bucket_of = |frame: u64| {
        let i = stretch.partition_point(|r| r.frame < frame);
        i / per_column.max(1)
    };
    let tags: Vec<(usize, bt::Tag)> = timeline
        .tags()
        .filter(|t| (first_frame..=last_frame).contains(&t.frame))
        .map(|t| {
            (
                bucket_of(t.frame),
                bt::Tag {
                    tick: t.tick,
                    label: t.label.clone(),
                },
            )
        })
        .collect();
    let end = &records[last - 1];
    let seconds = format!(
        "{:.1}-{:.1}s",
        records[first].start_ms / 1000.0,
        (end.start_ms + end.delta_ms) / 1000.0
    );
    let caption = if per_column > 1 {
        format!("{label}frames {first_frame}-{last_frame} x{per_column}, {seconds}")
    } else {
        format!("{label}frames {first_frame}-{last_frame}, {seconds}")
    };
    // A capture's chart is scaled to its own frames, not the cart's budget: the top fits the
    // 95th percentile of the frames charted, and the longer ones run past it with their
    // values. Two runs compared share the scale that fits both instead.
    let fit = match timeline.source() {
        FrameSource::Capture { .. } if label.is_empty() => {
            let mut shown: Vec<f64> = stretch
                .iter()
                .map(|r| r.delta_ms)
                .filter(|&ms| ms > 0.0)
                .collect();
            shown.sort_by(f64::total_cmp);
            (!shown.is_empty()).then(|| crate::timing::pacing::nearest_rank(&shown, CHART_FIT_RANK))
        }
        _ => None,
    };
    let overlay = engine.overlay_forced();
    overlay.set_chart_scale_fit(fit);
    if args.display_times {
        overlay.set_chart_bars(bt_overlay::ChartBars::Display);
    }
    overlay.rechart(&frames, &tags);
    overlay.set_chart_caption(&caption);
    engine.redraw().map_err(|e| Failure::Run(e.to_string()))?;
    Ok(())
}

pub(super) fn bench(offer: &Offer, args: BenchArgs) -> Result<(), String> {
    let (mut engine, session) = engine(offer, &args.cart, false, None, None)?;
    let report = bench::run(&mut engine, args.frames, args.warmup)
        .map_err(|panic| format!("cart '{}': {panic}", session.name()))?;
    if args.json {
        say(format_args!("{}\n", report.to_json()))
    } else {
        let fb = engine.framebuffer();
        say(format_args!(
            "{}",
            report.to_table(session.name(), (fb.width(), fb.height()))
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::capture::Capture;

    /// A run playing the game's frames of `file`, a capture of one PresentMon session.
    fn captured(file: &str) -> Sim {
        let csv = "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n\
                   game.exe,5120,0x21F4E8A1C30,16.7\ngame.exe,5120,0x21F4E8A1C30,16.6\n";
        let capture = Capture::parse(csv, file, None).unwrap();
        Sim {
            ticks: capture.len() as u64,
            refresh: capture.refresh(),
            source: FrameSource::Clock,
            captured: Some((capture.stream().name(), capture.file().to_string())),
            sensors: Vec::new(),
        }
    }

    #[test]
    fn compared_captures_of_one_session_are_told_apart_by_their_files() {
        let (a, b) = (captured("before.csv"), captured("after.csv"));
        assert_eq!(
            a.title("hello"),
            b.title("hello"),
            "the titles name the program alone"
        );
        assert_eq!(
            a.label("hello"),
            "game.exe (pid 5120) swap chain 0x21F4E8A1C30 (captured in 'before.csv'), played \
             through hello"
        );
        assert_ne!(a.label("hello"), b.label("hello"));
        assert_eq!(captured("x").label("hello").matches("x'").count(), 1);
    }

    #[test]
    fn a_capture_on_no_refresh_grid_asks_for_vrr_only_when_it_was_not_given() {
        // Display intervals of 9 to 19 ms, as an adaptive-sync panel shows them: no grid.
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,MsBetweenPresents,\
                                    MsBetweenDisplayChange\n",
        );
        for i in 0..64 {
            let ms = 9.0 + f64::from(i * 37 % 100) / 10.0;
            csv.push_str(&format!("game.exe,7,0x1,{ms:.3},{ms:.3}\n"));
        }
        let capture = Capture::parse(&csv, "vrr.csv", None).unwrap();
        let plain = described(&capture, false);
        assert!(plain.contains("fit no refresh grid"), "{plain}");
        assert!(
            plain.contains(
                "--refresh-hz HZ, or a variable-refresh panel's range with --vrr MIN-MAX"
            ),
            "{plain}"
        );
        let given = described(&capture, true);
        assert!(given.contains("fit no refresh grid"), "{given}");
        assert!(!given.contains("--vrr"), "{given}");
    }
}
