//! What each command does, one file per group of commands; this file dispatches and holds
//! what they share (engine set-up, output helpers).

#[cfg(feature = "window")]
mod dev;
mod export;
mod import;
pub use import::{p8_files, pyxres_files, P8Files};
#[cfg(feature = "window")]
mod edited_file;
#[cfg(feature = "window")]
mod map_edit;
mod pictures;
mod play;
mod replays;
mod setup;
mod signal;
#[cfg(feature = "window")]
mod sound_edit;
#[cfg(feature = "window")]
mod sprite_edit;
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

use crate::cli::args::{CartArgs, Command};
use crate::cli::Offer;

/// How many host ticks a trace or a diagnosis runs between looks at its progress bar.
pub(super) const PROGRESS_EVERY: u64 = 256;
use crate::config::manifest::{self, SettingsPatch};
use crate::export::safe_write::OutputError;
use crate::session::{BootSave, ReplaySource, Session, SessionBuilder};
use crate::Engine;

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
        #[cfg(feature = "window")]
        Command::Dev(args) => dev::dev(offer, args)?,
        Command::Keys(args) => keys(args)?,
        Command::Shot(args) => shot(offer, args)?,
        Command::Trace(args) => trace(offer, args)?,
        Command::Diagnose(args) => diagnose(offer, args)?,
        Command::Bench(args) => bench(offer, args)?,
        Command::Config(args) => config(offer, args)?,
        Command::New(args) => new(args)?,
        Command::Attach(args) => attach(args)?,
        Command::Replay(args) => replay(offer, args)?,
        Command::Verify(args) => verify(offer, args)?,
        Command::Gif(args) => gif(offer, args)?,
        Command::Frames(args) => frames(offer, args)?,
        Command::Wav(args) => wav(offer, args)?,
        Command::Export(args) => export::export(offer, args)?,
        Command::Import(args) => import::import(args)?,
        Command::Web(args) => web::web(offer, args)?,
        Command::Signal(args) => signal::signal(args)?,
        #[cfg(feature = "window")]
        Command::SoundEdit(args) => sound_edit::sound_edit(offer, args)?,
        #[cfg(feature = "window")]
        Command::MapEdit(args) => map_edit::map_edit(offer, args)?,
        #[cfg(feature = "window")]
        Command::SpriteEdit(args) => sprite_edit::sprite_edit(offer, args)?,
    }
    Ok(())
}

/// How a command's cart boots with save data: with `live` (`bt run` playing live), the
/// player's own (`--save`, else the cart's save file), written back; otherwise the file
/// `--save` names, read only, or none.
pub(super) fn boot_save(args: &CartArgs, live: bool) -> BootSave {
    match (&args.save, live) {
        (given, true) => BootSave::Player(given.clone()),
        (Some(path), false) => BootSave::File(path.clone()),
        (None, false) => BootSave::Empty,
    }
}

/// The session for `args`' cart: its settings with every layer applied (`configure()`, its
/// `cart.toml`, the user's config file, then the command line, with `window_scale` from
/// `--scale`), booting with `save` and playing the replay file `input` when there is one. A
/// replay's warnings are said here.
pub(super) fn session(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    input: Option<&Path>,
    save: BootSave,
) -> Result<Session, String> {
    let replay = input.map(|path| ReplaySource::File(path.to_path_buf()));
    resolved(
        builder(offer, args, overlay, window_scale)?
            .save(save)
            .replay(replay),
    )
}

/// The session for `args`' cart opening on the state file `state` (`--state`): as
/// [`session`], the state giving the seed, rate, arguments and save data.
pub(super) fn state_session(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    state: &Path,
) -> Result<Session, String> {
    resolved(builder(offer, args, overlay, window_scale)?.state(Some(state.to_path_buf())))
}

/// What every command's session starts from: `args`' cart, its folder's files, the user's
/// config file and the command line.
fn builder(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
) -> Result<SessionBuilder, String> {
    let chosen = offer.choose(args.cart.as_deref())?;
    Ok(Session::builder(&chosen.name, chosen.make)
        .manifest(chosen.manifest)
        .assets(chosen.assets)
        .user_config(manifest::user_config_path())
        .command_line(SettingsPatch {
            seed: args.seed,
            target_fps: args.fps,
            window_scale,
            ..SettingsPatch::default()
        })
        .args(args.args.clone())
        .reduced_motion(args.reduced_motion)
        .overlay(overlay))
}

/// Resolves `builder`, saying its warnings.
fn resolved(builder: SessionBuilder) -> Result<Session, String> {
    let session = builder.resolve().map_err(|e| e.to_string())?;
    for warning in session.warnings() {
        note(format_args!("warning: {warning}"));
    }
    Ok(session)
}

/// The engine for `args`' cart (see [`session`]), booting with the save data `--save` names,
/// read only.
pub(super) fn engine(
    offer: &Offer,
    args: &CartArgs,
    overlay: bool,
    window_scale: Option<u32>,
    input: Option<&Path>,
) -> Result<(Engine, Session), String> {
    let session = session(
        offer,
        args,
        overlay,
        window_scale,
        input,
        boot_save(args, false),
    )?;
    let engine = session.engine().map_err(|e| e.to_string())?;
    Ok((engine, session))
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

/// The engine's last frame as PNG bytes, the picture `size` names (the display's at `scale`,
/// or the output picture), and that picture's size.
pub(super) fn encode_picture(
    engine: &mut Engine,
    scale: u32,
    size: crate::cli::args::SizeArg,
) -> Result<(Vec<u8>, (u32, u32)), String> {
    match size {
        crate::cli::args::SizeArg::Display => {
            let fb = engine.framebuffer();
            let wh = (fb.width() * scale, fb.height() * scale);
            Ok((encode_frame(engine, scale)?, wh))
        }
        crate::cli::args::SizeArg::Output => {
            let mut rgba = Vec::new();
            let (w, h) = engine.render_output(&mut rgba);
            let png =
                crate::export::png::encode_rgba_png(&rgba, w, h).map_err(|e| e.to_string())?;
            Ok((png, (w, h)))
        }
    }
}

/// Refuses `--scale` other than 1 with `--size output`: the output picture has the cart's own
/// size.
pub(super) fn check_size_scale(scale: u32, size: crate::cli::args::SizeArg) -> Result<(), String> {
    if size == crate::cli::args::SizeArg::Output && scale != 1 {
        return Err(format!(
            "--scale {scale} scales the display's picture; --size output has the cart's output \
             size (its display times output_scale), so give one or the other"
        ));
    }
    Ok(())
}

/// The engine's last frame as PNG bytes at `scale`.
pub(super) fn encode_frame(engine: &Engine, scale: u32) -> Result<Vec<u8>, String> {
    engine.display_png(scale).map_err(|e| e.to_string())
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
                crate::quote::path(a.path())
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::Cli;
    use crate::replay::Replay;
    use bt::{Cart, CartError, Render, Update};
    use clap::Parser;
    use std::sync::Arc;

    /// Says in its test state what its `init` and its first update saw of reduced motion, and
    /// draws what it saw: the background is the preference now, a dot moves with each change
    /// and sits lower when `init` saw it.
    #[derive(Default)]
    struct Calm {
        init: bool,
        update: Option<bool>,
        now: bool,
        changes: i32,
    }

    impl Cart for Calm {
        fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
            self.init = ctx.prefers_reduced_motion();
            Ok(())
        }
        fn update(&mut self, ctx: &mut Update<'_>) {
            self.update.get_or_insert(ctx.prefers_reduced_motion());
            self.now = ctx.prefers_reduced_motion();
            self.changes += i32::from(ctx.reduced_motion_changed());
        }
        fn render(&self, ctx: &mut Render<'_>) {
            ctx.clear(if self.now { 1 } else { 2 });
            ctx.draw_pixel(self.changes, i32::from(self.init), 8);
        }
        fn test_state(&self) -> Option<String> {
            Some(format!("{} {:?}", self.init, self.update))
        }
    }

    fn calm() -> Offer {
        Offer::Single {
            dir: std::env::temp_dir()
                .join("bt-no-such-cart-folder")
                .join("calm"),
            make: Arc::new(|| Box::new(Calm::default()) as Box<dyn Cart>),
        }
    }

    /// The engine `bt config` plus `flags` would boot for `Calm`.
    fn booted(flags: &[&str]) -> crate::Engine {
        let argv = ["bt", "config"].iter().chain(flags);
        let Command::Config(args) = Cli::try_parse_from(argv).unwrap().command else {
            panic!("not bt config");
        };
        let session = session(&calm(), &args.cart, false, None, None, BootSave::Empty).unwrap();
        session.engine().unwrap()
    }

    /// What `Calm` saw with the command line `bt config` plus `flags`.
    fn saw(flags: &[&str]) -> String {
        let mut engine = booted(flags);
        engine.step(1).unwrap();
        engine.test_state().unwrap()
    }

    #[test]
    fn bt_replay_verify_reproduces_a_run_with_reduced_motion_and_its_changes() {
        let mut engine = booted(&["--reduced-motion"]);
        engine.start_recording(5);
        for (updates, on) in [(12, false), (9, true), (7, true)] {
            engine.step(updates).unwrap();
            engine.console_mut().input_mut().set_reduced_motion(on);
        }
        let recorded = engine.recording("calm", None).unwrap();
        assert!(recorded.info.reduced_motion);
        let text = recorded.to_json();
        assert!(text.contains("\"version\":4"), "{text}");
        let dir = std::env::temp_dir().join(format!("bt-calm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("calm.btr");
        std::fs::write(&file, &text).unwrap();
        let verify = |path: &Path| {
            let args = crate::cli::args::ReplayArgs {
                paths: vec![path.to_string_lossy().into_owned()],
                verify: true,
                save: None,
            };
            replay(&calm(), args)
        };
        let verified = verify(&file);
        // The same run with the preference off at boot draws other frames: the header counts.
        let off_at_boot = dir.join("off.btr");
        std::fs::write(&off_at_boot, text.replace(",\"reduced_motion\":true}", "}")).unwrap();
        let diverged = verify(&off_at_boot);
        let _ = std::fs::remove_dir_all(&dir);
        verified.unwrap();
        let e = diverged.unwrap_err();
        assert!(e.contains("differs from the recording"), "{e}");
        assert!(
            Replay::from_json(&text.replace("\"version\":4", "\"version\":3"), &file)
                .unwrap_err()
                .to_string()
                .contains("reduced_motion: a field of version 4, in a file of version 3")
        );
    }

    #[test]
    fn bt_verify_keeps_reduced_motion_in_every_clocks_run() {
        let argv = [
            "bt",
            "verify",
            "--seconds",
            "0.5",
            "--reduced-motion",
            "--quiet",
        ];
        let Command::Verify(args) = Cli::try_parse_from(argv).unwrap().command else {
            panic!("not bt verify");
        };
        let (first, mut session) = engine(&calm(), &args.cart, false, None, None).unwrap();
        let mut script = crate::replay::script_replay("calm", 0, 60.0, 30);
        script.info.reduced_motion = first.console().input().reduced_motion_at_boot();
        session.set_replay(Arc::new(script));
        let mut engine = session.engine().unwrap();
        engine.step(30).unwrap();
        assert_eq!(engine.test_state().unwrap(), "true Some(true)");
        assert!(engine.console().input().prefers_reduced_motion());
        verify(&calm(), args).unwrap();
    }

    #[test]
    fn reduced_motion_on_the_command_line_reaches_the_carts_init_and_updates() {
        assert_eq!(saw(&["--reduced-motion"]), "true Some(true)");
        assert_eq!(saw(&[]), "false Some(false)");
    }
}
