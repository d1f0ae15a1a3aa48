//! What each command does.

use std::io::{self, Write};

use super::args::{
    BenchArgs, CartArgs, Command, ConfigArgs, DiagnoseArgs, FormatArg, FromArg, KeysArgs, NewArgs,
    ShotArgs, SimArgs, TraceArgs,
};
use super::{Chosen, Offer};
use crate::manifest::{self, Layer, Provenance, SettingsPatch};
use crate::seek::Origin;
use crate::timeline::Timeline;
use crate::trace::{Format, TraceWriter};
use crate::{bench, capture, diagnose, Engine, EngineOptions};

pub(super) fn run(offer: &Offer, command: Command) -> Result<(), String> {
    match command {
        Command::List => list(offer),
        #[cfg(feature = "window")]
        Command::Run(args) => play(offer, args),
        Command::Keys(args) => keys(args),
        Command::Shot(args) => shot(offer, args),
        Command::Trace(args) => trace(offer, args),
        Command::Diagnose(args) => diagnose(offer, args),
        Command::Bench(args) => bench(offer, args),
        Command::Config(args) => config(offer, args),
        Command::New(args) => new(args),
    }
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
    let configured = (chosen.make)().configure();
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
fn play(offer: &Offer, args: super::args::RunArgs) -> Result<(), String> {
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
        trace_out: args.trace_out,
        exit_after: args.exit_after,
        watch: if args.no_watch {
            None
        } else {
            chosen.assets.clone()
        },
        record: None,
        cart_version: None,
    };
    let palette_file = chosen
        .manifest
        .as_ref()
        .and_then(|m| m.settings.palette.clone());
    crate::window::run_cart(engine, &chosen.name, &options, palette_file)
}

fn keys(args: KeysArgs) -> Result<(), String> {
    use crate::keymap::{self, KeyMapSource};
    let (map, from) = keymap::load_chosen(args.keys.as_deref()).map_err(|e| e.to_string())?;
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

fn shot(offer: &Offer, args: ShotArgs) -> Result<(), String> {
    let (mut engine, _) = engine(offer, &args.cart, args.overlay, None)?;
    if let Some(o) = engine.overlay_mut() {
        o.set_visible(true);
    }
    let origin = match args.from {
        FromArg::Start => Origin::Start,
        FromArg::Current => Origin::Current,
    };
    if engine.overlay().is_some() {
        if let Some(o) = engine.overlay_mut() {
            o.set_fixed_costs(args.fixed_costs);
        }
        overlay_shot(&mut engine, args.at, origin)?;
    } else {
        engine
            .render_at(args.at, origin)
            .map_err(|e| format!("--at {}: {e}", args.at))?;
    }
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

/// The frame at `at` with an overlay whose figures are real: a seek to a chart's width of
/// frames before `at`, then those frames run live, one update each at the target rate, so the
/// chart, the present rate, the costs and the draw calls are measured rather than blank. The
/// cart's picture is the same as a plain seek's: the same updates ran.
fn overlay_shot(engine: &mut Engine, at: f64, origin: Origin) -> Result<(), String> {
    let fps = engine.settings().target_fps;
    let bad = |e: crate::EngineError| format!("--at {at}: {e}");
    // The seek checks `at` (range, distance) before anything runs.
    let target = (at * fps).round();
    let live = u64::from(engine.framebuffer().width()).min(target.max(0.0) as u64);
    engine
        .render_at((target - live as f64) / fps, origin)
        .map_err(bad)?;
    if live > 0 {
        engine.set_host_hz(fps).map_err(bad)?;
        let step = crate::ConstantClock::new(1000.0 / fps).map_err(|e| e.to_string())?;
        engine.set_clock(Box::new(step));
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
    let (mut engine, chosen) = engine(offer, &args.cart, false, None)?;
    simulate(&args.sim, &mut engine)?;
    let format = match args.format {
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
        FormatArg::Chrome => return chrome_trace(engine, &chosen.name, args.sim.frames),
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

fn diagnose(offer: &Offer, args: DiagnoseArgs) -> Result<(), String> {
    let (mut engine, chosen) = engine(offer, &args.cart, true, None)?;
    let overlay = engine.overlay_forced();
    overlay.set_visible(true);
    overlay.set_timing_chart(true);
    overlay.set_fixed_costs(args.fixed_costs);
    simulate(&args.sim, &mut engine)?;
    let mut csv = Vec::new();
    if args.csv.is_some() {
        writeln!(csv, "{}", diagnose::CSV_HEADER).map_err(io_error)?;
    }
    let mut frames = 0;
    let mut timeline = Timeline::new(1000.0 / engine.settings().target_fps);
    for _ in 0..args.sim.frames {
        if engine.advance(1) == 1 {
            frames += 1;
            let dropped = engine.overlay().map_or(0, |o| o.last_dropped());
            timeline.record(engine.last_frame(), dropped, engine.last_frame_tags());
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
    if let Some(path) = &args.report {
        let page = crate::report::html(&timeline, &chosen.name)?;
        capture::write_atomically(path, page.as_bytes()).map_err(|e| e.to_string())?;
    }
    let also: Vec<String> = [&args.csv, &args.report]
        .into_iter()
        .flatten()
        .map(|p| p.display().to_string())
        .collect();
    say(format_args!(
        "wrote {} ({frames} frames, tick {}){}\n\n{}",
        args.output.display(),
        engine.ticks(),
        if also.is_empty() {
            String::new()
        } else {
            format!(" and {}", also.join(" and "))
        },
        timeline.summary().to_text()
    ))
}

fn bench(offer: &Offer, args: BenchArgs) -> Result<(), String> {
    let (mut engine, chosen) = engine(offer, &args.cart, false, None)?;
    let report = bench::run(&mut engine, args.frames, args.warmup);
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

/// Saves the engine's last frame as a PNG at `scale`.
fn save_frame(engine: &Engine, scale: u32, path: &std::path::Path) -> Result<(), String> {
    capture::save_png(engine.framebuffer(), engine.palette(), scale, path)
        .map_err(|e| e.to_string())
}

fn io_error(e: io::Error) -> String {
    format!("writing the trace: {e}")
}
