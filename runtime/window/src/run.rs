//! One run in a window, from the host's making to the files written at its end: everything
//! around the event loop, which the crate's root drives.

use super::*;

/// What `bt run` says when the system gives it no window: the reason without the source
/// locations winit adds (files on the machine that built `bt`), and what works instead.
pub(crate) fn no_window_message(e: &dyn std::fmt::Display) -> String {
    format!(
        "cannot open a window ({})\n`bt run` needs a desktop session (X11 or Wayland); the \
         shot, trace and diagnose commands work without one.",
        without_source_paths(&e.to_string())
    )
}

/// Plays `engine`, booted from `session`, in a window until it is closed. Unless
/// `args.no_watch`, changes to the cart's asset folder and palette file reload while it plays;
/// the cart's save data is written back to the session's save file, if it has one.
///
/// # Errors
/// A message for the player: a bad key-map file, no display, a window that cannot be drawn to,
/// a failed `--at`.
pub fn run_cart(mut engine: Engine, session: &Session, args: &WindowOptions) -> Result<(), String> {
    let name = session.name();
    let (keymap, _) = keymap::load_chosen(args.keys.as_deref()).map_err(|e| e.to_string())?;
    if let Some(spec) = &args.clock {
        engine.set_clock(spec.build().map_err(|e| e.to_string())?);
    }
    // A netplay run: the session takes the engine fresh from boot, and hands it back for the
    // host to own; its frames are the session's.
    let (engine, net) = match args.net {
        Some(role) => {
            let (engine, net) =
                crate::netplay::NetPlay::start(engine, name, session.version(), role)?;
            (engine, Some(net))
        }
        None => (engine, None),
    };
    // Held so that what the run keeps on disk is written whatever ends it, from here on.
    let opened_paused = engine.is_paused();
    let mut host = DiskHost::new(Host::new(engine, keymap, name), &args.captures);
    host.set_pause_menu(!args.editor);
    // F8's HTML report is a tool's, drawn here where the tools are.
    host.set_timing_report(crate::timing::report::html);
    // What F2's replays and F3's state files say of the cart.
    host.set_cart_version(session.version().map(str::to_string));
    if net.is_some() {
        host.set_netplay();
    }
    if opened_paused {
        // Opened on a state (`--state`): paused there, and the overlay says so.
        host.show_paused();
    }
    if args.trace_out.is_some() {
        match &args.captured {
            Some(capture) => host.record_whole_run_of_capture(capture),
            None => host.record_whole_run(),
        }
        // Ctrl-C, SIGTERM and SIGHUP close the window, so the trace is written.
        crate::signals::install();
    }
    if let Some(path) = &args.record {
        host.record_to(path.clone(), session.version().map(str::to_string));
        crate::signals::install();
    }
    // Assets reloaded on one peer only would set the two runs apart.
    if !args.no_watch && net.is_none() {
        let palette = session.palette().cloned();
        let palette_file = match &palette {
            Some(PaletteSource::File(path)) => vec![path.clone()],
            _ => Vec::new(),
        };
        if session.assets().is_some() || !palette_file.is_empty() {
            let watcher = AssetWatcher::new(session.assets(), &palette_file);
            host.watch_assets(watcher, palette);
        }
    }
    if let Some(at) = args.at {
        host.pause_at(at).map_err(|e| format!("--at {at}: {e}"))?;
        host.persist();
    }
    // After `--at`'s replay from the start, which the store would take for a rewind.
    if let Some(path) = session.save_file() {
        host.store_save_to(path.to_path_buf());
    }
    // A cart that defines sounds gets the device now; one that defines none yet, when it does.
    let mut sound = WindowSound::new(args.mute);
    sound.open_if_needed(host.engine());
    let event_loop = EventLoop::new().map_err(|e| no_window_message(&e))?;
    let (pads, pad_note) = Gamepads::new();
    if let Some(note) = pad_note {
        eprintln!("bt: {note}; playing on without them");
    }
    let settings = host.engine().settings();
    let display = (settings.width, settings.height);
    let kept = crate::gif_recorder::ring_seconds(display.0, display.1);
    if args.gif_buffer && kept < crate::gif_recorder::BUFFER_SECONDS as f64 {
        eprintln!(
            "bt: --gif-buffer keeps the last {kept} s, not {} s: a {}x{} display's pictures \
             fill its {} MiB sooner",
            crate::gif_recorder::BUFFER_SECONDS,
            display.0,
            display.1,
            crate::gif_recorder::GIF_BUFFER_BYTES >> 20
        );
    }
    let gif = GifCapture::new(
        &args.captures,
        name,
        display,
        args.gif_buffer,
        Arc::new(|saved| match saved {
            Ok(path) => say(&format!("saved {}", crate::quote::path(&path))),
            Err(e) => eprintln!("bt: GIF not saved: {e}"),
        }),
    );
    let mut app = App {
        host,
        name: name.to_string(),
        args: args.clone(),
        window: None,
        gone: false,
        presenter: None,
        display,
        present_mode: String::new(),
        sizes: SizeSettler::new((0, 0)),
        pads,
        start: Instant::now(),
        error: None,
        shown: None,
        dirty: true,
        present_interval: None,
        last_frame: None,
        starved_until: None,
        sound,
        gif,
        cursor_shown: true,
        pointer_locked: false,
        motion_rest: (0.0, 0.0),
        dev: args.dev_link.as_deref().map(dev_link::DevLink::start),
        net,
    };
    // A swap in `bt dev` keeps a paused game paused, at the update it continued from.
    if app.dev.as_ref().is_some_and(dev_link::DevLink::was_paused) {
        app.host.engine_mut().pause();
        app.host.show_paused();
    }
    let ran = event_loop.run_app(&mut app);
    // A GIF being recorded is saved, and every GIF being saved is finished.
    app.gif.finish(app.start.elapsed().as_secs_f64() * 1000.0);
    // Stopped whatever happened, so the frame log is complete and the surface goes first.
    let log = app.presenter.take().map(|p| p.stop(STOP_PATIENCE));
    ran.map_err(|e| format!("window event loop: {e}"))?;
    if let Some(line) = app.sound.live().map(LiveSound::summary) {
        println!("{line}");
    }
    app.host.finish()?;
    if let Some(e) = app.error {
        return Err(e);
    }
    if let (Some(path), Some(log)) = (&args.frame_log, log) {
        crate::export::safe_write::write_atomically(path, log.to_csv().as_bytes())
            .map_err(|e| e.to_string())?;
        match log.summary(SUMMARY_WARMUP) {
            Some(s) => println!("presented {s} (log in {})", crate::quote::path(path)),
            None => println!(
                "too few frames presented to measure (log in {})",
                crate::quote::path(path)
            ),
        }
    }
    if let (Some(path), Some(run)) = (&args.trace_out, app.host.whole_run()) {
        // Written into its file as it is made, never whole in memory: a trace takes about a
        // kilobyte a frame, ten times what the run kept.
        use crate::export::safe_write::{Format, Output};
        let mut pending = Output::new(path, Format::Json)
            .and_then(|o| o.begin())
            .map_err(|e| e.to_string())?;
        run.write_chrome_trace(&mut pending, app.host.whole_run_title())
            .map_err(|e| format!("{}: {e}", crate::quote::path(path)))?;
        pending.commit().map_err(|e| e.to_string())?;
        println!(
            "wrote the trace of {} frames to {}",
            run.frames().len(),
            crate::quote::path(path)
        );
    }
    if let Some(at) = app.host.engine().quit_at() {
        eprintln!("the cart quit after update {at}");
    }
    // A cart that panicked stayed on screen with its panic; closing the window is a failure.
    if let Some(panic) = app.host.engine().cart_panic() {
        return Err(panic.to_string());
    }
    Ok(())
}
