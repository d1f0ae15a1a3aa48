//! `bt`: run, capture and trace BT carts from the command line.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use bt_runtime::carts::{self, BUNDLED};
use bt_runtime::seek::From;
use bt_runtime::spec::ClockSpec;
use bt_runtime::trace::{Format, TraceWriter};
use bt_runtime::{bench, capture, diagnose};
use bt_runtime::{Engine, EngineOptions};
use clap::{Parser, Subcommand, ValueEnum};

/// BT, a fantasy console: play carts in a window, or capture, trace, diagnose and benchmark
/// them headless.
#[derive(Debug, Parser)]
#[command(name = "bt", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the bundled carts.
    List,
    /// Play a cart in a window with keyboard, mouse and gamepads.
    #[cfg(feature = "window")]
    Run(RunArgs),
    /// Print the key map `bt run` uses, as a key-map file.
    Keys(KeysArgs),
    /// Render the frame at a given time and save it as a PNG (no window or GPU needed).
    Shot(ShotArgs),
    /// Run a cart headless under a clock and print one row per frame.
    Trace(TraceArgs),
    /// Run a cart headless under a clock with the overlay and its timing chart, and save the
    /// last frame (and optionally a per-frame CSV).
    Diagnose(DiagnoseArgs),
    /// Run a cart headless at full speed and report what update, render and present cost.
    Bench(BenchArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FromArg {
    /// Replay from boot (the same picture every time).
    Start,
    /// Step forward from the engine's current tick (after boot, that is tick 0).
    Current,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Comma-separated values with a header line.
    Csv,
    /// A JSON array of objects.
    Json,
}

/// Options every command that runs a cart shares.
#[derive(Debug, clap::Args)]
struct CartArgs {
    /// The cart to run (see `bt list`).
    cart: String,
    /// Random seed [default: the cart's own, else 0].
    #[arg(long)]
    seed: Option<u64>,
    /// Fixed updates per second, overriding the cart's target_fps.
    #[arg(long, value_parser = positive_f64, allow_negative_numbers = true)]
    fps: Option<f64>,
    /// A cart argument NAME=VALUE, read by the cart (repeatable; see the cart's README).
    #[arg(long = "arg", value_name = "NAME=VALUE", value_parser = cart_arg)]
    args: Vec<(String, String)>,
}

#[derive(Debug, clap::Args)]
struct BenchArgs {
    #[command(flatten)]
    cart: CartArgs,
    /// Frames to measure, each one update and one render.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=bench::MAX_FRAMES))]
    frames: u64,
    /// Frames to run first without measuring them.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=bench::MAX_FRAMES))]
    warmup: u64,
    /// Print exactly one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ShotArgs {
    #[command(flatten)]
    cart: CartArgs,
    /// Simulated seconds since boot: the frame after round(seconds × fps) updates.
    #[arg(long, value_parser = seconds_arg, allow_negative_numbers = true)]
    at: f64,
    /// Where the seek starts.
    #[arg(long, value_enum, default_value = "start")]
    from: FromArg,
    /// Integer upscale of the PNG (1 to 16).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    scale: u32,
    /// Draw the overlay (hidden by default, shown with --overlay) into the picture.
    #[arg(long)]
    overlay: bool,
    /// The PNG file to write.
    #[arg(short, long)]
    output: PathBuf,
}

#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
struct RunArgs {
    #[command(flatten)]
    cart: CartArgs,
    #[command(flatten)]
    window: bt_runtime::window::WindowArgs,
}

#[derive(Debug, clap::Args)]
struct KeysArgs {
    /// Read this key-map file instead of the default one.
    #[arg(long)]
    keys: Option<PathBuf>,
}

/// How `trace` and `diagnose` simulate the host: a clock, and host ticks at a rate.
#[derive(Debug, clap::Args)]
struct SimArgs {
    /// The clock: wall[:max_ms], paced:fps[:resync_after], constant:ms, sequence:ms,ms,...,
    /// jitter:min_ms:max_ms:seed.
    #[arg(long, value_parser = clock_spec)]
    clock: ClockSpec,
    /// Host ticks to simulate (a paced clock may turn some of them into no frame).
    #[arg(long)]
    frames: u64,
    /// Host ticks per second of simulated host time; the first tick is at 0 ms.
    #[arg(long, default_value_t = 60.0, value_parser = positive_f64, allow_negative_numbers = true)]
    host_hz: f64,
}

impl SimArgs {
    /// Puts the clock and host rate into `engine`.
    fn apply(&self, engine: &mut Engine) -> Result<(), String> {
        engine
            .set_host_hz(self.host_hz)
            .map_err(|e| e.to_string())?;
        engine.set_clock(self.clock.build().map_err(|e| e.to_string())?);
        Ok(())
    }
}

#[derive(Debug, clap::Args)]
struct TraceArgs {
    #[command(flatten)]
    cart: CartArgs,
    #[command(flatten)]
    sim: SimArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    format: FormatArg,
}

#[derive(Debug, clap::Args)]
struct DiagnoseArgs {
    #[command(flatten)]
    cart: CartArgs,
    #[command(flatten)]
    sim: SimArgs,
    /// Integer upscale of the PNG (1 to 16).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    scale: u32,
    /// Chart fixed update and render costs instead of measured ones, so the picture is the
    /// same on every run (the CSV still holds measured times).
    #[arg(long)]
    fixed_costs: bool,
    /// Also write one CSV row per frame to this file.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// The PNG file to write.
    #[arg(short, long)]
    output: PathBuf,
}

fn positive_f64(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(v) => Err(format!("must be finite and positive, got {v}")),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

fn seconds_arg(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(v) => Err(format!("seconds must be finite and not negative, got {v}")),
        Err(_) => Err(format!("'{s}' is not a number of seconds")),
    }
}

fn cart_arg(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("'{s}' is not NAME=VALUE")),
    }
}

fn clock_spec(s: &str) -> Result<ClockSpec, String> {
    s.parse::<ClockSpec>().map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List => list(),
        #[cfg(feature = "window")]
        Command::Run(args) => run(args),
        Command::Keys(args) => keys(args),
        Command::Shot(args) => shot(args),
        Command::Trace(args) => trace(args),
        Command::Diagnose(args) => diagnose(args),
        Command::Bench(args) => bench(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bt: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn list() -> Result<(), String> {
    let width = BUNDLED.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = io::stdout().lock();
    for cart in BUNDLED {
        if writeln!(out, "{:width$}  {}", cart.name, cart.description).is_err() {
            break;
        }
    }
    Ok(())
}

#[cfg(feature = "window")]
fn run(args: RunArgs) -> Result<(), String> {
    let engine = engine(&args.cart, true)?;
    bt_runtime::window::run_cart(engine, &args.cart.cart, &args.window)
}

fn keys(args: KeysArgs) -> Result<(), String> {
    use bt_runtime::keymap::{self, KeyMap};
    let (map, from) = match (args.keys, keymap::default_path()) {
        (Some(path), _) => (KeyMap::load(&path).map_err(|e| e.to_string())?, Some(path)),
        (None, Some(path)) if path.exists() => {
            (KeyMap::load(&path).map_err(|e| e.to_string())?, Some(path))
        }
        (None, default) => {
            if let Some(path) = default {
                eprintln!(
                    "bt: no key-map file at {}; these are the defaults",
                    path.display()
                );
            }
            (KeyMap::default(), None)
        }
    };
    if let Some(path) = from {
        eprintln!("bt: the defaults with the changes in {}", path.display());
    }
    say(format_args!("{}", map.to_toml()))
}

fn engine(args: &CartArgs, overlay: bool) -> Result<Engine, String> {
    let cart = carts::find(&args.cart).map_err(|e| e.to_string())?;
    let options = EngineOptions {
        seed: args.seed,
        target_fps: args.fps,
        overlay,
        args: args.args.clone(),
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.build), options).map_err(|e| format!("cart '{}': {e}", cart.name))
}

fn shot(args: ShotArgs) -> Result<(), String> {
    let mut engine = engine(&args.cart, args.overlay)?;
    if let Some(o) = engine.overlay_mut() {
        o.set_visible(true);
    }
    let from = match args.from {
        FromArg::Start => From::Start,
        FromArg::Current => From::Current,
    };
    engine
        .render_at(args.at, from)
        .map_err(|e| format!("--at {}: {e}", args.at))?;
    save_frame(&engine, args.scale, &args.output)?;
    let fb = engine.framebuffer();
    say(format_args!(
        "wrote {} ({}x{}, after {} updates, seed {})\n",
        args.output.display(),
        fb.width() * args.scale,
        fb.height() * args.scale,
        engine.updates_since_init(),
        engine.seed()
    ))
}

fn trace(args: TraceArgs) -> Result<(), String> {
    let mut engine = engine(&args.cart, false)?;
    args.sim.apply(&mut engine)?;
    let format = match args.format {
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
    };
    let stdout = io::stdout().lock();
    let mut writer = TraceWriter::new(io::BufWriter::new(stdout), format).map_err(io_error)?;
    let written = (|| {
        for _ in 0..args.sim.frames {
            if engine.advance(1) == 1 {
                writer.row(engine.last_frame())?;
            }
        }
        writer.finish().map(drop)
    })();
    match written {
        // A reader that stopped early (`bt trace ... | head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(io_error),
    }
}

fn diagnose(args: DiagnoseArgs) -> Result<(), String> {
    let mut engine = engine(&args.cart, true)?;
    let overlay = engine.overlay_forced();
    overlay.set_visible(true);
    overlay.set_timing_chart(true);
    overlay.set_fixed_costs(args.fixed_costs);
    args.sim.apply(&mut engine)?;
    let mut csv = Vec::new();
    if args.csv.is_some() {
        writeln!(csv, "{}", diagnose::CSV_HEADER).map_err(io_error)?;
    }
    let mut frames = 0;
    for _ in 0..args.sim.frames {
        if engine.advance(1) == 1 {
            frames += 1;
            if args.csv.is_some() {
                let report = *engine.last_frame();
                diagnose::write_row(&mut csv, &engine, &report).map_err(io_error)?;
            }
        }
    }
    if frames == 0 {
        return Err(format!(
            "the clock delivered no frame in {} host ticks; nothing to draw",
            args.sim.frames
        ));
    }
    save_frame(&engine, args.scale, &args.output)?;
    if let Some(path) = &args.csv {
        capture::write_atomically(path, &csv).map_err(|e| e.to_string())?;
    }
    say(format_args!(
        "wrote {} ({frames} frames, tick {}){}\n",
        args.output.display(),
        engine.ticks(),
        args.csv
            .as_ref()
            .map(|p| format!(" and {}", p.display()))
            .unwrap_or_default()
    ))
}

fn bench(args: BenchArgs) -> Result<(), String> {
    let mut engine = engine(&args.cart, false)?;
    let report = bench::run(&mut engine, args.frames, args.warmup);
    if args.json {
        say(format_args!("{}\n", report.to_json()))
    } else {
        let fb = engine.framebuffer();
        say(format_args!(
            "{}",
            report.to_table(&args.cart.cart, (fb.width(), fb.height()))
        ))
    }
}

/// Writes to stdout. A reader that has gone away (`bt ... | head`) is not an error: the work is
/// done, only its report is unread.
fn say(text: std::fmt::Arguments<'_>) -> Result<(), String> {
    match io::stdout().lock().write_fmt(text) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("writing to stdout: {e}")),
        _ => Ok(()),
    }
}

/// Saves the engine's last frame as a PNG at `scale`.
fn save_frame(engine: &Engine, scale: u32, path: &std::path::Path) -> Result<(), String> {
    capture::save_png(engine.framebuffer(), engine.palette(), scale, path)
        .map_err(|e| e.to_string())
}

fn io_error(e: io::Error) -> String {
    format!("writing the trace: {e}")
}
