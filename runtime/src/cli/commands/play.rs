//! `bt run` and `bt keys`: playing in a window, and the key map.

use std::path::Path;

use crate::cli::args::KeysArgs;
#[cfg(feature = "window")]
use crate::cli::Offer;
#[cfg(feature = "window")]
use crate::clock::spec::ClockSpec;
#[cfg(feature = "window")]
use crate::export::safe_write::{Format, Output, OutputError};

use super::*;

#[cfg(feature = "window")]
pub(super) fn play(offer: &Offer, args: crate::cli::args::RunArgs) -> Result<(), Failure> {
    let crate::cli::args::RunArgs {
        cart,
        input,
        window: window_args,
        record: record_path,
        clock,
        at,
        trace_out,
        dev_link,
        chart,
        state,
        continue_from,
        capture_pace,
        host,
        players,
        join,
        spectate,
    } = args;
    let scale = window_args.scale;
    let mut window = crate::host::window::WindowOptions {
        record: record_path,
        clock,
        at,
        trace_out,
        dev_link,
        ..window_args.options()
    };
    window.net = match (host, join, spectate) {
        (Some(port), _, _) => Some(crate::host::window::netplay::NetRole::Host {
            port: port.unwrap_or(crate::host::window::netplay::DEFAULT_PORT),
            players: players.map_or(crate::host::window::netplay::DEFAULT_PLAYERS, usize::from),
        }),
        (None, Some(addr), _) => Some(crate::host::window::netplay::NetRole::Join { addr }),
        (None, None, Some(addr)) => Some(crate::host::window::netplay::NetRole::Spectate { addr }),
        (None, None, None) => None,
    };
    let is_capture = matches!(window.clock, Some(ClockSpec::Capture { .. }));
    if capture_pace.is_some() && !is_capture {
        return Err(Failure::Usage(
            "--capture-pace paces a capture clock: give --clock capture:FILE with it".to_string(),
        ));
    }
    // Read here for its warnings and errors, said before a window opens; the window reads the
    // same file again when it starts.
    load_keys(window.keys.as_deref())?;
    // Every file the run writes is checked now, so a bad path, or two flags naming one file,
    // is said before a window opens rather than when it closes, after the play.
    let record = window.record.as_deref().map(recording_output).transpose()?;
    let check = |path: &Option<std::path::PathBuf>, format| -> Result<_, Failure> {
        let Some(path) = path else { return Ok(None) };
        let out = Output::new(path, format)?;
        out.check_folder_takes_files()?;
        Ok(Some(out))
    };
    let frame_log = check(&window.frame_log, Format::Csv)?;
    let trace_out = check(&window.trace_out, Format::Json)?;
    one_file_each(&[
        ("--record", record.as_ref()),
        ("--frame-log", frame_log.as_ref()),
        ("--trace-out", trace_out.as_ref()),
    ])?;
    let input = input.input.as_deref().or(continue_from.as_deref());
    let mut session = match &state {
        Some(path) => state_session(offer, &cart, true, scale, path)?,
        None => session(offer, &cart, true, scale, input, boot_save(&cart, true))?,
    };
    if let Some(replay) = session.replay().filter(|_| continue_from.is_some()) {
        // The run being continued booted with these; the cart's save file is still where
        // the run writes.
        let boot = replay.boot_save().to_vec();
        session.set_boot_save(boot);
    }
    let mut engine = session.engine().map_err(|e| e.to_string())?;
    if window.no_effects {
        engine.set_effects_enabled(false);
    }
    if let (Some(record), Some(input)) = (&record, input) {
        // The recording is saved every few seconds, so it would replace the replay being
        // played while it plays.
        if record.overwrites(input) {
            return Err(Failure::Usage(format!(
                "--record names {}, the replay --input plays; record to another file",
                crate::quote::path(record.path())
            )));
        }
    }
    if let Some(chart) = chart {
        let o = engine.overlay_forced();
        o.set_visible(true);
        o.set_chart_mode(chart.mode());
    }
    if window.record.is_some() {
        // Before any seek, so a recording of `--input --at` holds the replayed part too.
        engine.start_recording(crate::replay::DEFAULT_HASH_EVERY);
        if state.is_some() {
            // The state was loaded before the recording began: a seek from the start records
            // its run from boot.
            let at = engine.updates_since_init();
            engine
                .render_at_tick(at, crate::engine::Origin::Start, |_, _| {})
                .map_err(|e| e.to_string())?;
        }
    }
    if let (Some(path), Some(_)) = (&state, session.state()) {
        say(format_args!(
            "opened {} paused after update {} (tick {}): F5 plays on, F1 rewinds\n",
            crate::quote::path(path),
            engine.updates_since_init(),
            engine.ticks()
        ))?;
    }
    if let (Some(seconds), Some(_)) = (window.at.take_if(|_| input.is_some()), input) {
        // Replay to `seconds` at headless speed, then live play from there.
        let update = engine
            .tick_at(seconds)
            .map_err(|e| format!("--at {seconds}: {e}"))?;
        engine
            .play_replay_then_live(Some(update))
            .map_err(|e| format!("--at {seconds}: {e}"))?;
    }
    if let Some(path) = &continue_from {
        continue_where_it_was(&mut engine, path)?;
    }
    if let Some(ClockSpec::Capture { capture, .. }) = window
        .clock
        .take_if(|spec| matches!(spec, ClockSpec::Capture { .. }))
    {
        // Which stream plays, as bt trace says it (without its advice to give --refresh-hz or
        // --vrr, which only bt trace and bt diagnose take), and a line when it runs out.
        note(format_args!("{}", capture.describe_refresh_given()));
        for line in capture.notes() {
            note(format_args!("{line}"));
        }
        let say = |line: &str| note(format_args!("{line}"));
        if capture_pace == Some(crate::cli::args::CapturePace::Real) {
            engine.set_clock(Box::new(capture.clock_at_its_own_pace(say)));
        } else {
            engine.set_clock(Box::new(capture.clock_saying_its_end(say)));
        }
        window.captured = Some(capture);
    }
    crate::host::window::run_cart(engine, &session, &window)?;
    Ok(())
}

/// `--continue-from`: replays the run in `path` from boot at headless speed and goes on live
/// from its last update ([`crate::Engine::play_replay_then_live`]). A cart that panics on the
/// way says so, tick and all, on stderr, and its window opens with the panic on screen, as any
/// panic shows.
#[cfg(feature = "window")]
fn continue_where_it_was(engine: &mut crate::Engine, path: &Path) -> Result<(), String> {
    let started = std::time::Instant::now();
    match engine.play_replay_then_live(None) {
        Ok(at) => say(format_args!(
            "continued after update {} (tick {}), replayed in {:.0} ms\n",
            at.updates,
            at.ticks,
            started.elapsed().as_secs_f64() * 1000.0
        )),
        Err(crate::engine::EngineError::Panicked(panic)) => {
            note(format_args!(
                "replaying {} through the new code: {panic}",
                crate::quote::path(path)
            ));
            Ok(())
        }
        Err(e) => Err(format!("--continue-from {}: {e}", crate::quote::path(path))),
    }
}

/// `--record`'s file, checked: a name ending in `.btr` in a folder that takes files, and a
/// file, not stdout, a device or a FIFO, since the recording is written again and again.
#[cfg(feature = "window")]
pub(super) fn recording_output(path: &Path) -> Result<Output, Failure> {
    let out = Output::new(path, Format::Replay).map_err(|e| match e {
        OutputError::Extension { .. } => Failure::Usage(format!("--record {e}")),
        e => e.into(),
    })?;
    if !out.is_file() {
        return Err(Failure::Usage(format!(
            "--record {}: a recording is saved again as the run goes on, so it goes to a \
             file, not stdout, a device or a FIFO",
            crate::quote::excerpt(&path.to_string_lossy())
        )));
    }
    out.check_folder_takes_files()?;
    Ok(out)
}

/// Loads the key map `bt run` would use and warns, one line each, about keys that press
/// several buttons.
pub(super) fn load_keys(
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
                crate::quote::path(path)
            ));
        }
    }
    Ok((map, from))
}

pub(super) fn keys(args: KeysArgs) -> Result<(), String> {
    use crate::host::keymap::KeyMapSource;
    let (map, from) = load_keys(args.keys.as_deref())?;
    match from {
        KeyMapSource::File(path) => note(format_args!(
            "the defaults with the changes in {}",
            crate::quote::path(&path)
        )),
        KeyMapSource::Defaults {
            looked_at: Some(path),
        } => note(format_args!(
            "no key-map file at {}; these are the defaults",
            crate::quote::path(&path)
        )),
        KeyMapSource::Defaults { looked_at: None } => {}
    }
    say(format_args!("{}", map.to_toml()))
}
