//! What each command does.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use super::args::{
    BenchArgs, CartArgs, Command, ConfigArgs, DiagnoseArgs, DrawnArgs, FormatArg, FramesArgs,
    FromArg, GifArgs, KeysArgs, NewArgs, ReplayArgs, ShotArgs, SimArgs, TraceArgs, VerifyArgs,
    WavArgs,
};
use super::progress::Progress;
use super::{Chosen, Offer};

/// How many host ticks a trace or a diagnosis runs between looks at its progress bar.
const PROGRESS_EVERY: u64 = 256;
use crate::config::manifest::{self, Layer, Provenance, SettingsPatch};
use crate::engine::Origin;
use crate::engine::{CartCall, CartPanic};
use crate::export::png as capture;
use crate::export::safe_write::{Format, Output, OutputError, Pending};
use crate::quote::number;
use crate::replay::verify as proof;
use crate::replay::Replay;
use crate::timing::frame_records::{self, TraceWriter};
use crate::timing::timeline::Timeline;
use crate::timing::{bench, diagnose};
use crate::{Engine, EngineOptions};

/// Why a command did not succeed.
#[derive(Debug)]
pub(super) enum Failure {
    /// The command ran and failed (exit code 1).
    Run(String),
    /// The command line does not make sense, though it parsed (exit code 2): nothing ran.
    Usage(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Run(message)
    }
}

impl From<OutputError> for Failure {
    fn from(e: OutputError) -> Failure {
        Failure::Run(e.to_string())
    }
}

pub(super) fn run(offer: &Offer, command: Command) -> Result<(), Failure> {
    match command {
        Command::List => list(offer)?,
        #[cfg(feature = "window")]
        Command::Run(args) => play(offer, args)?,
        Command::Keys(args) => keys(args)?,
        Command::Shot(args) => shot(offer, args)?,
        Command::Trace(args) => trace(offer, args)?,
        Command::Diagnose(args) => diagnose(offer, args)?,
        Command::Bench(args) => bench(offer, args)?,
        Command::Config(args) => config(offer, args)?,
        Command::New(args) => new(args)?,
        Command::Replay(args) => replay(offer, args)?,
        Command::Verify(args) => verify(offer, args)?,
        Command::Gif(args) => gif(offer, args)?,
        Command::Frames(args) => frames(offer, args)?,
        Command::Wav(args) => wav(offer, args)?,
    }
    Ok(())
}

fn list(offer: &Offer) -> Result<(), String> {
    let carts = offer.list()?;
    let width = carts.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::new();
    for (name, description) in carts {
        text.push_str(&format!("{name:width$}  {description}\n"));
    }
    say(format_args!("{text}"))
}

/// The cart's settings with every layer applied: `configure()`, its `cart.toml`, the user's
/// config file, then the command line.
fn resolve(
    chosen: &Chosen,
    cart: &CartArgs,
    window_scale: Option<u32>,
) -> Result<(bt::Settings, Vec<Provenance>), String> {
    let configured =
        crate::engine::cart_panic::guarded(|| (chosen.make)().configure()).map_err(|message| {
            let panic = CartPanic {
                call: CartCall::Configure,
                tick: 0,
                message,
            };
            format!("cart '{}': {panic}", chosen.name)
        })?;
    let user = match manifest::user_config_path() {
        Some(path) => manifest::load_user_config(&path)
            .map_err(|e| e.to_string())?
            .map(|patch| (path, patch)),
        None => None,
    };
    let command_line = SettingsPatch {
        seed: cart.seed,
        target_fps: cart.fps,
        window_scale,
        ..SettingsPatch::default()
    };
    let mut layers = Vec::new();
    if let Some(m) = &chosen.manifest {
        layers.push((Layer::Manifest, Some(m.path.as_path()), &m.settings));
    }
    if let Some((path, patch)) = &user {
        layers.push((Layer::UserConfig, Some(path.as_path()), patch));
    }
    layers.push((Layer::CommandLine, None, &command_line));
    manifest::resolve(configured, &layers).map_err(|e| format!("cart '{}': {e}", chosen.name))
}

/// The engine for `args`' cart, with its resolved settings, playing the replay file `input`
/// when there is one.
fn engine(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    input: Option<&Path>,
) -> Result<(Engine, Chosen), String> {
    let chosen = offer.choose(args.cart.as_deref())?;
    let (settings, _) = resolve(&chosen, args, window_scale)?;
    let mut options = EngineOptions {
        overlay,
        args: args.args.clone(),
        settings: Some(settings),
        assets: chosen.assets.clone(),
        ..EngineOptions::default()
    };
    if let Some(path) = input {
        let replay = load_replay(path, &chosen, &options)?;
        options.seed = Some(replay.info.seed);
        options.args = replay.info.args.clone();
        options.replay = Some(Arc::new(replay));
    }
    let engine = Engine::new(chosen.factory(), options)
        .map_err(|e| format!("cart '{}': {e}", chosen.name))?;
    Ok((engine, chosen))
}

#[cfg(feature = "window")]
fn play(offer: &Offer, args: super::args::RunArgs) -> Result<(), Failure> {
    // Read here for its warnings and errors, said before a window opens; the window reads the
    // same file again when it starts.
    load_keys(args.keys.as_deref())?;
    // Checked now, so a missing folder is said before a window opens, not when it closes.
    if let Some(log) = &args.frame_log {
        Output::new(log, Format::Csv)?;
    }
    let input = args.input.input.as_deref();
    let (mut engine, chosen) = engine(offer, &args.cart, true, args.scale, input)?;
    if let Some(chart) = args.chart {
        let o = engine.overlay_forced();
        o.set_visible(true);
        o.set_chart_mode(chart.mode());
    }
    if args.record.is_some() {
        // Before any seek, so a recording of `--input --at` holds the replayed part too.
        engine.start_recording(crate::replay::DEFAULT_HASH_EVERY);
    }
    let mut at = args.at;
    if let (Some(seconds), Some(_)) = (at.take_if(|_| input.is_some()), input) {
        // Replay to `seconds` at headless speed, then live play from there.
        engine
            .render_at(seconds, Origin::Start)
            .map_err(|e| format!("--at {seconds}: {e}"))?;
        engine.stop_replay();
        engine.resume();
    }
    let options = crate::host::window::WindowOptions {
        clock: args.clock,
        vsync: !args.no_vsync,
        at,
        scale: None,
        fullscreen: args.fullscreen,
        keys: args.keys,
        captures: args.captures,
        frame_log: args.frame_log,
        trace_out: args.trace_out,
        exit_after: args.exit_after,
        watch: if args.no_watch {
            None
        } else {
            chosen.assets.clone()
        },
        record: args.record,
        cart_version: chosen.version(),
        mute: args.mute,
        gif_buffer: args.gif_buffer,
    };
    let palette_file = chosen
        .manifest
        .as_ref()
        .and_then(|m| m.settings.palette.clone());
    crate::host::window::run_cart(engine, &chosen.name, &options, palette_file)?;
    Ok(())
}

/// Loads the key map `bt run` would use and warns, one line each, about keys that press
/// several buttons.
fn load_keys(
    explicit: Option<&Path>,
) -> Result<
    (
        crate::host::keymap::KeyMap,
        crate::host::keymap::KeyMapSource,
    ),
    String,
> {
    use crate::host::keymap::{self, KeyMapSource};
    let (map, from) = keymap::load_chosen(explicit).map_err(|e| e.to_string())?;
    if let KeyMapSource::File(path) = &from {
        for shared in map.shared_keys() {
            note(format_args!(
                "warning: key map {}: {shared}",
                path.display()
            ));
        }
    }
    Ok((map, from))
}

/// Reads the replay file at `path` and checks it fits the chosen cart and its settings; a
/// replay of another cart version plays with a warning.
fn load_replay(path: &Path, chosen: &Chosen, options: &EngineOptions) -> Result<Replay, String> {
    let replay = Replay::load(path).map_err(|e| e.to_string())?;
    let fps = options
        .settings
        .as_ref()
        .map_or(replay.info.target_fps, |s| s.target_fps);
    let version = chosen.version();
    if let Some(warning) = replay
        .check(path, &chosen.name, version.as_deref(), fps)
        .map_err(|e| e.to_string())?
    {
        note(format_args!("warning: {warning}"));
    }
    if let Some(s) = &options.settings {
        let (w, h) = (replay.info.width, replay.info.height);
        if (w, h) != (s.width, s.height) {
            note(format_args!(
                "warning: {}: recorded on a {w}x{h} display, the cart now has {}x{}; it may \
                 play differently",
                path.display(),
                s.width,
                s.height
            ));
        }
    }
    Ok(replay)
}

fn keys(args: KeysArgs) -> Result<(), String> {
    use crate::host::keymap::KeyMapSource;
    let (map, from) = load_keys(args.keys.as_deref())?;
    match from {
        KeyMapSource::File(path) => note(format_args!(
            "the defaults with the changes in {}",
            path.display()
        )),
        KeyMapSource::Defaults {
            looked_at: Some(path),
        } => note(format_args!(
            "no key-map file at {}; these are the defaults",
            path.display()
        )),
        KeyMapSource::Defaults { looked_at: None } => {}
    }
    say(format_args!("{}", map.to_toml()))
}

fn shot(offer: &Offer, args: ShotArgs) -> Result<(), Failure> {
    let output = Output::new(&args.output, Format::Png)?;
    let input = args.input.input.as_deref();
    let (mut engine, _) = engine(offer, &args.cart, args.drawn.wanted(), None, input)?;
    if args.drawn.wanted() {
        show_overlay(&mut engine, &args.drawn);
    }
    let origin = match args.from {
        FromArg::Start => Origin::Start,
        FromArg::Current => Origin::Current,
    };
    if engine.overlay().is_some() {
        overlay_shot(&mut engine, args.at, origin, args.progress.quiet)?;
    } else {
        let mut progress = Progress::new(
            format!("seeking to --at {}", number(args.at)),
            args.progress.quiet,
        );
        engine
            .render_at_with_progress(args.at, origin, |done, total| progress.set(done, total))
            .map_err(|e| format!("--at {}: {e}", number(args.at)))?;
        drop(progress);
    }
    output.write(&encode_frame(&engine, args.scale)?)?;
    let fb = engine.framebuffer();
    report(
        output.is_stdout(),
        format_args!(
            "wrote {} ({}x{}, after {} updates, seed {})\n",
            output.path().display(),
            fb.width() * args.scale,
            fb.height() * args.scale,
            engine.updates_since_init(),
            engine.seed()
        ),
    )?;
    Ok(())
}

/// Shows the overlay as `--overlay`, `--chart` and `--fixed-costs` ask.
fn show_overlay(engine: &mut Engine, drawn: &DrawnArgs) {
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
/// cart's picture is the same as a plain seek's: the same updates ran.
fn overlay_shot(engine: &mut Engine, at: f64, origin: Origin, quiet: bool) -> Result<(), String> {
    let fps = engine.settings().target_fps;
    let bad = |e: crate::EngineError| format!("--at {}: {e}", number(at));
    // The seek checks `at` (range, distance) before anything runs.
    let target = (at * fps).round();
    let live = u64::from(engine.framebuffer().width()).min(target.max(0.0) as u64);
    let mut progress = Progress::new(format!("seeking to --at {}", number(at)), quiet);
    engine
        .render_at_with_progress((target - live as f64) / fps, origin, |done, total| {
            progress.set(done, total)
        })
        .map_err(bad)?;
    drop(progress);
    // From here on one host tick is one frame of one update (what `bt gif --overlay` goes on
    // with).
    engine.set_host_hz(fps).map_err(bad)?;
    let step = crate::ConstantClock::new(1000.0 / fps).map_err(|e| e.to_string())?;
    engine.set_clock(Box::new(step));
    if live > 0 {
        engine.resume();
        engine.advance(live);
        engine.pause();
    }
    Ok(())
}

/// Puts the simulated host's clock and rate into `engine`.
fn simulate(sim: &SimArgs, engine: &mut Engine) -> Result<(), String> {
    engine.set_host_hz(sim.host_hz).map_err(|e| e.to_string())?;
    engine.set_clock(sim.clock.build().map_err(|e| e.to_string())?);
    Ok(())
}

fn trace(offer: &Offer, args: TraceArgs) -> Result<(), String> {
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
fn still_running(engine: &Engine, chosen: &Chosen) -> Result<(), String> {
    match engine.cart_panic() {
        Some(panic) => Err(format!("cart '{}': {panic}", chosen.name)),
        None => Ok(()),
    }
}

/// `bt trace --format chrome`: the whole run, then one JSON document on stdout.
fn chrome_trace(mut engine: Engine, name: &str, host_ticks: u64) -> Result<(), String> {
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

fn diagnose(offer: &Offer, args: DiagnoseArgs) -> Result<(), Failure> {
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

fn bench(offer: &Offer, args: BenchArgs) -> Result<(), String> {
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

fn replay(offer: &Offer, args: ReplayArgs) -> Result<(), String> {
    let (cart, file) = match args.paths.as_slice() {
        [file] => (None, file),
        [cart, file] => (Some(cart.clone()), file),
        _ => return Err("give the cart and the replay file".to_string()),
    };
    let path = Path::new(file);
    let cart_args = CartArgs {
        cart,
        seed: None,
        fps: None,
        args: Vec::new(),
    };
    if !args.verify {
        return replay_in_window(offer, cart_args, path);
    }
    let (mut engine, _) = engine(offer, &cart_args, false, None, Some(path))?;
    let replay = engine
        .replay()
        .cloned()
        .ok_or_else(|| "no replay".to_string())?;
    let ticks = replay.ticks();
    engine.step(ticks).map_err(|e| e.to_string())?;
    match replay.first_mismatch(engine.hashes()) {
        None => say(format_args!(
            "{}: {ticks} updates replayed, all {} frame hashes match\n",
            path.display(),
            replay.hashes().len()
        )),
        Some(m) => Err(format!(
            "{}: the frame after update {} differs from the recording (hash {:016x}, recorded \
             {:016x}); `bt shot --input {} --at {}` shows it",
            path.display(),
            m.tick,
            m.actual,
            m.expected,
            path.display(),
            m.tick as f64 / replay.info.target_fps
        )),
    }
}

#[cfg(feature = "window")]
fn replay_in_window(offer: &Offer, cart: CartArgs, path: &Path) -> Result<(), String> {
    let (engine, chosen) = engine(offer, &cart, true, None, Some(path))?;
    let options = crate::host::window::WindowOptions {
        cart_version: chosen.version(),
        ..crate::host::window::WindowOptions::default()
    };
    crate::host::window::run_cart(engine, &chosen.name, &options, None)
}

#[cfg(not(feature = "window"))]
fn replay_in_window(_: &Offer, _: CartArgs, _: &Path) -> Result<(), String> {
    Err("this bt has no window; `bt replay --verify` plays a replay headless".to_string())
}

/// Updates `bt verify` checks without `--seconds` and `--input`: 10 s.
const VERIFY_DEFAULT_SECONDS: f64 = 10.0;

fn verify(offer: &Offer, args: VerifyArgs) -> Result<(), String> {
    let input = args.input.input.as_deref();
    let (first, chosen) = engine(offer, &args.cart, false, None, input)?;
    let fps = first.settings().target_fps;
    let replay = match first.replay() {
        Some(r) => r.clone(),
        None => {
            let seconds = args.seconds.unwrap_or(VERIFY_DEFAULT_SECONDS);
            let ticks = (seconds * fps).round() as u64;
            let script = proof::input_script(first.seed(), ticks);
            proof::script_replay(&chosen.name, first.seed(), fps, script)
        }
    };
    let ticks = match args.seconds {
        Some(s) => ((s * fps).round() as u64).min(replay.ticks().max(1)),
        None => replay.ticks(),
    };
    if ticks == 0 {
        return Err("nothing to verify: 0 updates".to_string());
    }
    let replay = Arc::new(replay);
    let settings = first.settings().clone();
    let seed = first.seed();
    drop(first);
    let make_cart = chosen.make.clone();
    let assets = chosen.assets.clone();
    let replay_args = replay.info.args.clone();
    let cart_args = if input.is_some() {
        replay_args
    } else {
        args.cart.args.clone()
    };
    let make = move || -> Result<Engine, String> {
        let m = make_cart.clone();
        let options = EngineOptions {
            overlay: false,
            seed: Some(seed),
            args: cart_args.clone(),
            settings: Some(settings.clone()),
            assets: assets.clone(),
            replay: Some(replay.clone()),
            ..EngineOptions::default()
        };
        Engine::new(Box::new(move || m()), options).map_err(|e| e.to_string())
    };
    let cases = proof::standard_clocks(fps);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let started = std::time::Instant::now();
    let mut progress = Progress::new(
        format!("checking {} clocks", cases.len()),
        args.progress.quiet,
    );
    let verdict =
        proof::verify_with_progress(&make, ticks, &cases, threads, &mut |done, total| {
            progress.set(done, total);
        })?;
    drop(progress);
    let mut text = format!(
        "{}: {ticks} updates ({:.1} s) under {} clocks, the frame hashed after every update\n",
        chosen.name,
        ticks as f64 / fps,
        cases.len()
    );
    for run in &verdict.runs {
        text.push_str(&format!(
            "  {:<24} {:>7} frames  {:>8.2} s\n",
            run.clock,
            run.frames,
            run.elapsed.as_secs_f64()
        ));
    }
    let Some(d) = verdict.divergence else {
        text.push_str(&format!(
            "every clock drew the same frame at every tick ({:.2} s)\n",
            started.elapsed().as_secs_f64()
        ));
        return say(format_args!("{text}"));
    };
    say(format_args!("{text}"))?;
    let out = args
        .diff
        .unwrap_or_else(|| format!("{}-divergence.png", chosen.name).into());
    let frames = proof::divergent_frames(&make, &cases, &d)?;
    save_side_by_side(&frames, &out)?;
    Err(format!(
        "the frames differ after update {} ({:.3} s): {} and {} drew different pictures \
         (left and right in {}); the cart depends on timing",
        d.tick,
        d.tick as f64 / fps,
        d.reference,
        d.other,
        out.display()
    ))
}

fn save_side_by_side(
    frames: &[(bt::Framebuffer, bt::Palette); 2],
    path: &Path,
) -> Result<(), String> {
    use image::codecs::png::PngEncoder;
    use image::{ExtendedColorType, ImageEncoder};
    let (w, h, rgba) = proof::side_by_side(&frames[0], &frames[1]);
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&rgba, w, h, ExtendedColorType::Rgba8)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    capture::write_atomically(path, &png).map_err(|e| e.to_string())
}

fn gif(offer: &Offer, args: GifArgs) -> Result<(), String> {
    // Checked before the work, written through the one output path.
    let output = Output::new(&args.output, Format::Gif).map_err(|e| e.to_string())?;
    let input = args.input.input.as_deref();
    let (mut engine, _) = engine(offer, &args.cart, args.drawn.wanted(), None, input)?;
    let bytes = if args.drawn.wanted() {
        show_overlay(&mut engine, &args.drawn);
        // As `bt shot --overlay`: the chart's frames before `--from` run live, then every
        // update is a frame the overlay records.
        overlay_shot(&mut engine, args.from, Origin::Start, args.progress.quiet)?;
        let mut progress = Progress::new("making the GIF", args.progress.quiet);
        crate::export::gif::gif_from_here(
            &mut engine,
            args.seconds,
            args.scale,
            crate::export::gif::Stepping::Live,
            |done, total| progress.set(done, total),
        )
    } else {
        let mut progress = Progress::new("making the GIF", args.progress.quiet);
        crate::export::gif::make_gif_with_progress(
            &mut engine,
            args.from,
            args.seconds,
            args.scale,
            |done, total| progress.set(done, total),
        )
    }
    .map_err(|e| e.to_string())?;
    output.write(&bytes).map_err(|e| e.to_string())?;
    let fps = engine.settings().target_fps;
    let frames = crate::export::gif::gif_timing(fps, args.seconds).len();
    say(format_args!(
        "wrote {} ({frames} frames, {} s from {} s, {} bytes)\n",
        args.output.display(),
        args.seconds,
        args.from,
        bytes.len()
    ))
}

/// The most PNG files `bt frames` writes: 27 minutes of every update at 60 a second, and
/// what five digits number.
pub const MAX_FRAME_FILES: u64 = 100_000;

/// How many frames `--from`, `--to` and `--every` make: `from + k × every` for every `k` from
/// 0 whose time is at most `to`. A hair of slack keeps a `to` that the steps reach exactly
/// (0.3 in steps of 0.1) from being lost to rounding.
fn frame_count(from: f64, to: f64, every: f64) -> f64 {
    ((to - from) / every + 1e-9).floor() + 1.0
}

fn frames(offer: &Offer, args: FramesArgs) -> Result<(), Failure> {
    if args.to < args.from {
        return Err(Failure::Usage(format!(
            "--to {} is before --from {}",
            number(args.to),
            number(args.from)
        )));
    }
    let count = frame_count(args.from, args.to, args.every);
    if count > MAX_FRAME_FILES as f64 {
        return Err(Failure::Usage(format!(
            "--from {} --to {} --every {} makes {} frames; bt frames writes at most \
             {MAX_FRAME_FILES}",
            number(args.from),
            number(args.to),
            number(args.every),
            number(count)
        )));
    }
    let count = count as u64;
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
    let fps = engine.settings().target_fps;
    let mut progress = Progress::new("rendering frames", args.progress.quiet);
    let mut first = None;
    for k in 0..count {
        progress.set(k, count);
        let at = args.from + k as f64 * args.every;
        // The updates `bt shot --at` would run for this time: the same rounding as the seek.
        let updates = (at * fps).round() as u64;
        let bad = |e: crate::EngineError| format!("frame {k} (at {} s): {e}", number(at));
        let next = updates.saturating_sub(engine.updates_since_init());
        if k == 0 && overlay {
            // As `bt shot --overlay`: the chart's frames before it run live.
            overlay_shot(&mut engine, at, Origin::Start, args.progress.quiet)?;
            first = Some(updates);
        } else if k == 0 {
            let mut seek = Progress::new(
                format!("seeking to --from {}", number(at)),
                args.progress.quiet,
            );
            engine
                .render_at_with_progress(at, Origin::Start, |done, total| seek.set(done, total))
                .map_err(bad)?;
            first = Some(updates);
        } else if overlay {
            // Every update a frame the overlay records, as in `bt gif --overlay`.
            crate::export::gif::run_live(&mut engine, next).map_err(bad)?;
        } else {
            engine.step(next).map_err(bad)?;
        }
        #[cfg(feature = "window")]
        if crate::host::signals::requested() {
            return Err(Failure::Run(format!(
                "interrupted after {k} of {count} frames; {} was not made",
                args.output.display()
            )));
        }
        out.write(&frame_file_name(k), &encode_frame(&engine, args.scale)?)?;
    }
    drop(progress);
    out.commit()?;
    let fb = engine.framebuffer();
    say(format_args!(
        "wrote {count} frames to {} ({} to {}, {}x{}, updates {} to {})\n",
        args.output.display(),
        frame_file_name(0),
        frame_file_name(count - 1),
        fb.width() * args.scale,
        fb.height() * args.scale,
        first.unwrap_or(0),
        engine.updates_since_init()
    ))?;
    Ok(())
}

/// The name of the `k`th file of a PNG sequence: `frame_00000.png`, ...
fn frame_file_name(k: u64) -> String {
    format!("frame_{k:05}.png")
}

fn wav(offer: &Offer, args: WavArgs) -> Result<(), String> {
    let output = Output::new(&args.output, Format::Wav).map_err(|e| e.to_string())?;
    let input = args.input.input.as_deref();
    let (mut engine, _) = engine(offer, &args.cart, false, None, input)?;
    engine.console_mut().set_sample_rate(args.rate);
    let clock = match &args.clock {
        Some(spec) => Some(spec.build().map_err(|e| e.to_string())?),
        None => None,
    };
    let mut progress = Progress::new("making the WAV", args.progress.quiet);
    let bytes = crate::export::wav::make_wav_with_progress(
        &mut engine,
        args.from,
        args.seconds,
        clock,
        |done, total| progress.set(done, total),
    )
    .map_err(|e| e.to_string())?;
    drop(progress);
    output.write(&bytes).map_err(|e| e.to_string())?;
    say(format_args!(
        "wrote {} ({} s from {} s at {} Hz, {} bytes)\n",
        args.output.display(),
        args.seconds,
        args.from,
        args.rate,
        bytes.len()
    ))
}

fn config(offer: &Offer, args: ConfigArgs) -> Result<(), String> {
    let chosen = offer.choose(args.cart.cart.as_deref())?;
    let (_, rows) = resolve(&chosen, &args.cart, args.scale)?;
    let mut text = format!("cart {}\n", chosen.name);
    if let Some(m) = &chosen.manifest {
        text.push_str(&format!("manifest {}\n", m.path.display()));
    }
    if let Some(a) = &chosen.assets {
        text.push_str(&format!("assets {}\n", a.display()));
    }
    text.push('\n');
    text.push_str(&manifest::format_provenance(&rows));
    say(format_args!("{text}"))
}

fn new(args: NewArgs) -> Result<(), String> {
    let parent = match args.path {
        Some(p) => p,
        None => std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?,
    };
    let dir = super::new_cart(&args.name, &parent).map_err(|e| e.to_string())?;
    say(format_args!(
        "made the cart '{name}' in {dir}\n\n\
         Play it in a window, take a screenshot, and run its test:\n\n    \
         cd {dir}\n    \
         cargo run --release -- run\n    \
         cargo run --release -- shot --at 2 -o shot.png\n    \
         cargo test --release\n\n\
         Its README.md says what each file is for.\n",
        name = args.name,
        dir = dir.display()
    ))
}

/// Writes to stdout. A reader that has gone away (`bt ... | head`) is not an error: the work is
/// done, only its report is unread.
fn say(text: std::fmt::Arguments<'_>) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("writing to stdout: {e}")),
        _ => Ok(()),
    }
}

/// A note on stderr; one that cannot be written is dropped, since it changes no result.
fn note(text: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "bt: {text}");
}

/// What a command that wrote its output says it did: on stdout, unless the output itself went
/// there.
fn report(output_on_stdout: bool, text: std::fmt::Arguments<'_>) -> Result<(), String> {
    if output_on_stdout {
        let _ = io::stderr().lock().write_fmt(text);
        Ok(())
    } else {
        say(text)
    }
}

/// The engine's last frame as PNG bytes at `scale`.
fn encode_frame(engine: &Engine, scale: u32) -> Result<Vec<u8>, String> {
    capture::encode_png(engine.framebuffer(), engine.palette(), scale).map_err(|e| e.to_string())
}

fn io_error(e: io::Error) -> String {
    format!("writing the trace: {e}")
}
