//! What each command does.

use std::io::{self, Write};
use std::path::Path;

use super::args::{
    BenchArgs, CartArgs, Command, ConfigArgs, DiagnoseArgs, FormatArg, FromArg, KeysArgs, NewArgs,
    ShotArgs, SimArgs, TraceArgs,
};
use super::progress::Progress;
use super::{Chosen, Offer};

/// How many host ticks a trace or a diagnosis runs between looks at its progress bar.
const PROGRESS_EVERY: u64 = 256;
use crate::engine::{CartCall, CartPanic};
use crate::manifest::{self, Layer, Provenance, SettingsPatch};
use crate::output::{Format, Output, OutputError, Pending};
use crate::seek::Origin;
use crate::text::number;
use crate::trace::{self, TraceWriter};
use crate::{bench, capture, diagnose, Engine, EngineOptions};

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
        crate::cart_panic::guarded(|| (chosen.make)().configure()).map_err(|message| {
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

/// The engine for `args`' cart, with its resolved settings.
fn engine(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
) -> Result<(Engine, Chosen), String> {
    let chosen = offer.choose(args.cart.as_deref())?;
    let (settings, _) = resolve(&chosen, args, window_scale)?;
    let options = EngineOptions {
        overlay,
        args: args.args.clone(),
        settings: Some(settings),
        assets: chosen.assets.clone(),
        ..EngineOptions::default()
    };
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
    let (engine, chosen) = engine(offer, &args.cart, true, args.scale)?;
    let options = crate::window::WindowOptions {
        clock: args.clock,
        vsync: !args.no_vsync,
        at: args.at,
        scale: None,
        fullscreen: args.fullscreen,
        keys: args.keys,
        captures: args.captures,
        frame_log: args.frame_log,
        exit_after: args.exit_after,
        watch: if args.no_watch {
            None
        } else {
            chosen.assets.clone()
        },
    };
    let palette_file = chosen
        .manifest
        .as_ref()
        .and_then(|m| m.settings.palette.clone());
    crate::window::run_cart(engine, &chosen.name, &options, palette_file)?;
    Ok(())
}

/// Loads the key map `bt run` would use and warns, one line each, about keys that press
/// several buttons.
fn load_keys(
    explicit: Option<&Path>,
) -> Result<(crate::keymap::KeyMap, crate::keymap::KeyMapSource), String> {
    use crate::keymap::{self, KeyMapSource};
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

fn keys(args: KeysArgs) -> Result<(), String> {
    use crate::keymap::KeyMapSource;
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
    let (mut engine, _) = engine(offer, &args.cart, args.overlay, None)?;
    if let Some(o) = engine.overlay_mut() {
        o.set_visible(true);
    }
    let origin = match args.from {
        FromArg::Start => Origin::Start,
        FromArg::Current => Origin::Current,
    };
    let mut progress = Progress::new(
        format!("seeking to --at {}", number(args.at)),
        args.progress.quiet,
    );
    engine
        .render_at_with_progress(args.at, origin, |done, total| progress.set(done, total))
        .map_err(|e| format!("--at {}: {e}", number(args.at)))?;
    drop(progress);
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

/// Puts the simulated host's clock and rate into `engine`.
fn simulate(sim: &SimArgs, engine: &mut Engine) -> Result<(), String> {
    engine.set_host_hz(sim.host_hz).map_err(|e| e.to_string())?;
    engine.set_clock(sim.clock.build().map_err(|e| e.to_string())?);
    Ok(())
}

fn trace(offer: &Offer, args: TraceArgs) -> Result<(), String> {
    let (mut engine, chosen) = engine(offer, &args.cart, false, None)?;
    simulate(&args.sim, &mut engine)?;
    let format = match args.format {
        FormatArg::Csv => trace::Format::Csv,
        FormatArg::Json => trace::Format::Json,
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

fn diagnose(offer: &Offer, args: DiagnoseArgs) -> Result<(), Failure> {
    // Both outputs are checked before anything runs, and committed only once both are written.
    let png = Output::new(&args.output, Format::Png)?;
    let csv = args
        .csv
        .as_deref()
        .map(|path| Output::new(path, Format::Csv))
        .transpose()?;
    if csv.as_ref().is_some_and(|csv| csv.same_target(&png)) {
        return Err(Failure::Usage(format!(
            "--output and --csv both name {}; give each its own file",
            png.path().display()
        )));
    }
    let (mut engine, chosen) = engine(offer, &args.cart, true, None)?;
    let overlay = engine.overlay_forced();
    overlay.set_visible(true);
    overlay.set_timing_chart(true);
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
    let mut progress = Progress::new("diagnosing host ticks", args.progress.quiet);
    for tick in 0..args.sim.frames {
        if tick % PROGRESS_EVERY == 0 {
            progress.set(tick, args.sim.frames);
        }
        if engine.advance(1) == 1 {
            frames += 1;
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
    png_ready.commit()?;
    if let Some(ready) = csv_ready {
        ready.commit()?;
    }
    let and_csv = csv
        .as_ref()
        .map(|c| format!(" and {}", c.path().display()))
        .unwrap_or_default();
    report(
        png.is_stdout() || csv.as_ref().is_some_and(Output::is_stdout),
        format_args!(
            "wrote {} ({frames} frames, tick {}){and_csv}\n",
            png.path().display(),
            engine.ticks(),
        ),
    )?;
    Ok(())
}

fn bench(offer: &Offer, args: BenchArgs) -> Result<(), String> {
    let (mut engine, chosen) = engine(offer, &args.cart, false, None)?;
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
