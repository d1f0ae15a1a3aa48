//! What each command does, one file per group of commands; this file dispatches and holds
//! what they share (engine set-up, output helpers).

mod export;
mod import;
mod pictures;
mod play;
mod replays;
mod save;
mod setup;
mod timing;
mod web;

use pictures::*;
use play::keys;
#[cfg(feature = "window")]
use play::play;
use replays::*;
use setup::*;
use timing::*;

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use crate::cli::args::{CartArgs, Command};
use crate::cli::{Chosen, Offer};

/// How many host ticks a trace or a diagnosis runs between looks at its progress bar.
pub(super) const PROGRESS_EVERY: u64 = 256;
use crate::config::manifest::{self, Layer, Provenance, SettingsPatch};
use crate::engine::{CartCall, CartPanic};
use crate::export::safe_write::OutputError;
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
        Command::Export(args) => export::export(offer, args)?,
        Command::Import(args) => import::import(args)?,
        Command::Web(args) => web::web(offer, args)?,
    }
    Ok(())
}

/// The cart's settings with every layer applied: `configure()`, its `cart.toml`, the user's
/// config file, then the command line.
pub(super) fn resolve(
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
pub(super) fn engine(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    input: Option<&Path>,
) -> Result<(Engine, Chosen), String> {
    let (engine, chosen, _) = booted(offer, args, overlay, window_scale, input, false)?;
    Ok((engine, chosen))
}

/// [`engine`], booting with save data (see [`save::boot`]): with `live`, the user's own (the
/// cart's save file, or `--save`), returned as the store `bt run` writes back to.
pub(super) fn booted(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    input: Option<&Path>,
    live: bool,
) -> Result<(Engine, Chosen, Option<std::path::PathBuf>), String> {
    let chosen = offer.choose(args.cart.as_deref())?;
    let (boot_save, store) = save::boot(args, &chosen, live && input.is_none())?;
    let (settings, _) = resolve(&chosen, args, window_scale)?;
    let mut options = EngineOptions {
        overlay,
        args: args.args.clone(),
        settings: Some(settings),
        assets: chosen.assets.clone(),
        ..EngineOptions::default()
    };
    options.save = boot_save;
    if let Some(path) = input {
        let replay = load_replay(path, &chosen, &options)?;
        options.seed = Some(replay.info.seed);
        options.args = replay.info.args.clone();
        options.replay = Some(Arc::new(replay));
    }
    let engine = Engine::new(chosen.factory(), options)
        .map_err(|e| format!("cart '{}': {e}", chosen.name))?;
    Ok((engine, chosen, store))
}

/// Writes to stdout. A reader that has gone away (`bt ... | head`) is not an error: the work is
/// done, only its report is unread.
pub(super) fn say(text: std::fmt::Arguments<'_>) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("writing to stdout: {e}")),
        _ => Ok(()),
    }
}

/// A note on stderr; one that cannot be written is dropped, since it changes no result.
pub(super) fn note(text: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "bt: {text}");
}

/// What a command that wrote its output says it did: on stdout, unless the output itself went
/// there.
pub(super) fn report(output_on_stdout: bool, text: std::fmt::Arguments<'_>) -> Result<(), String> {
    if output_on_stdout {
        let _ = io::stderr().lock().write_fmt(text);
        Ok(())
    } else {
        say(text)
    }
}

/// The engine's last frame as PNG bytes at `scale`.
pub(super) fn encode_frame(engine: &Engine, scale: u32) -> Result<Vec<u8>, String> {
    crate::export::png::encode_png(engine.framebuffer(), engine.palette(), scale)
        .map_err(|e| e.to_string())
}

pub(super) fn io_error(e: io::Error) -> String {
    format!("writing the trace: {e}")
}

/// Refuses a command line whose outputs, each given with the flag that named it, write one
/// file or stream twice (through a link, `./`, a hard link or `-` twice): the second write
/// would replace the first. A usage error, said before anything runs.
pub(super) fn one_file_each(
    outputs: &[(&str, Option<&crate::export::safe_write::Output>)],
) -> Result<(), Failure> {
    let given: Vec<_> = outputs
        .iter()
        .filter_map(|&(flag, out)| Some((flag, out?)))
        .collect();
    for (i, (first, a)) in given.iter().enumerate() {
        if let Some((second, _)) = given[i + 1..].iter().find(|(_, b)| a.same_target(b)) {
            return Err(Failure::Usage(format!(
                "{first} and {second} both name {}; give each its own file",
                a.path().display()
            )));
        }
    }
    Ok(())
}
