//! `bt run`: a cart in a window, with keyboard, mouse and gamepads.
//!
//! winit owns the window and its events, `screen` scales the finished picture by a whole number
//! with black bars around it into the window's buffer on the CPU (no graphics driver needed),
//! gilrs reads gamepads. Everything they report is
//! turned into [`HostEvent`]s for the same [`Host`] that tests drive headless; this module only
//! adds the platform: keeping the surface's size in step with the window, pacing frames and
//! handing them to the presenting thread.
//!
//! Each frame asks the engine for the frame at the current time (the clock decides what it is
//! worth), copies the framebuffer through the palette into a buffer and hands it to
//! `presenter`, which shows it on a thread of its own: the event loop never waits for the window
//! system, so close, keys and `--exit-after` work whatever it does. Frames are made at most once
//! per refresh of the monitor with vsync on (the default), resizes included; with a paced clock
//! the loop sleeps until the clock's next slot instead of asking early, so it never spins. The
//! surface follows the window once its size has settled ([`resize`]).

#![deny(missing_docs)]
// Denied, not forbidden: one module says why its `unsafe` is sound. It reads the error event
// Xlib hands winit's hook (`x11_errors`).
#![deny(unsafe_code)]

// The layers below, by their own module names (`crate::engine`, `crate::host`...).
use bt_engine::*;
use bt_host as host;
use bt_tools::{export, timing};

pub mod captures;
pub mod dev_link;
pub mod disk;
pub mod gamepad;
pub mod gif_recorder;
pub mod keys;
pub mod layout;
mod presenter;
pub mod resize;
mod screen;
pub mod signals;
pub mod speaker;
pub mod stats;
#[cfg(target_os = "linux")]
mod x11_errors;

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bt::Button;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{CursorGrabMode, Fullscreen, Window, WindowId};

use crate::captures::save_numbered;
use crate::clock::spec::ClockSpec;
use crate::config::manifest::PaletteSource;
use crate::engine::Engine;
use crate::gif_recorder::{GifCapture, Toggled};
use crate::host::asset_watch::AssetWatcher;
use crate::host::keymap::{self, HOST_KEYS};
use crate::host::{Host, HostAction, HostEvent, SaveFile, SaveKind};
use crate::quote::without_source_paths;
use crate::session::Session;
use disk::DiskHost;
use gamepad::Gamepads;
use layout::{surface_size, Placement};
use presenter::Presenter;
use resize::SizeSettler;
use screen::{Screen, MAX_SURFACE_SIDE};
use speaker::{LiveSound, WindowSound};

/// The window the default scale aims to fit: large enough for a clear picture, small enough for
/// a laptop screen with room for the desktop around it.
pub const TARGET_WINDOW: (u32, u32) = (1280, 800);

/// Pixels a wheel "line" is worth when a touchpad reports pixels instead of lines.
const PIXELS_PER_WHEEL_LINE: f64 = 20.0;

/// How often a paused window wakes to poll gamepads and check `--exit-after`.
const IDLE_POLL: Duration = Duration::from_millis(20);

/// Present times kept for `--frame-log` (about 18 minutes at 60 Hz), allocated up front.
const FRAME_LOG_CAPACITY: usize = 1 << 16;

/// Frames left out of the rate and jitter summary: the first few pay for window creation.
const SUMMARY_WARMUP: usize = 10;

/// How soon to look again for a free pixel buffer when both are still being presented.
const BUFFER_POLL: Duration = Duration::from_millis(2);

/// How long the first frame waits for a sound device that has opened but not started playing.
const SOUND_START_PATIENCE: Duration = Duration::from_secs(2);

/// How long a closing window waits for the presenting thread to finish its frame.
const STOP_PATIENCE: Duration = Duration::from_secs(2);

/// Where F9 screenshots, F10 GIFs and the other captures go when no folder is given.
pub const DEFAULT_CAPTURES: &str = "captures";

/// The longest `bt run --exit-after`: over eleven days.
pub const MAX_EXIT_AFTER_SECONDS: f64 = 1_000_000.0;

/// How `bt run` opens and drives its window, beyond what the cart's [`Session`] resolved (its
/// settings, window scale included, its asset folder and save file). The command line fills it
/// from its flags (`WindowArgs` and `bt run`'s own); it holds no parser.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// Record the run into this replay file: written through a temporary file every 10
    /// seconds, and when the window closes or the cart panics.
    pub record: Option<PathBuf>,
    /// The clock [default: wall].
    pub clock: Option<ClockSpec>,
    /// Present as fast as possible instead of waiting for the display's refresh.
    pub no_vsync: bool,
    /// Start with the cart's post-process effects (CRT looks) off; Shift+F11 turns them on.
    pub no_effects: bool,
    /// Open paused on the frame at this many simulated seconds; F5 plays on.
    pub at: Option<f64>,
    /// Start fullscreen (F11 switches).
    pub fullscreen: bool,
    /// Play without sound: no audio device is opened.
    pub mute: bool,
    /// The key-map file, when one was given.
    pub keys: Option<PathBuf>,
    /// Folder for F9 screenshots, F10 GIFs, F8 timings, F2 replays and F3 state files.
    pub captures: PathBuf,
    /// Write every presented frame's time to this CSV file on exit, and print the frame rate
    /// and jitter.
    pub frame_log: Option<PathBuf>,
    /// Close the window this many seconds after it showed its first frame (at most
    /// [`MAX_EXIT_AFTER_SECONDS`]).
    pub exit_after: Option<f64>,
    /// On exit, write every frame of the run as a Chrome trace (open it in Perfetto).
    pub trace_out: Option<PathBuf>,
    /// Do not watch the cart's asset folder and palette file for changes.
    pub no_watch: bool,
    /// Keep the last 10 seconds the window showed (about 40 MB at 320x240); Shift+F10 saves
    /// them as a GIF in the captures folder.
    pub gif_buffer: bool,
    /// Take `bt dev`'s orders on standard input and keep the window's place in this folder
    /// (see [`dev_link`]); `bt dev` passes it, a player never does.
    pub dev_link: Option<PathBuf>,
    /// The capture the clock plays, when it plays one (`--clock capture:FILE`): its own
    /// columns go into `--trace-out`'s trace.
    pub captured: Option<Arc<crate::clock::capture::Capture>>,
}

impl Default for WindowOptions {
    fn default() -> WindowOptions {
        WindowOptions {
            record: None,
            clock: None,
            no_vsync: false,
            no_effects: false,
            at: None,
            fullscreen: false,
            mute: false,
            keys: None,
            captures: PathBuf::from(DEFAULT_CAPTURES),
            frame_log: None,
            exit_after: None,
            trace_out: None,
            no_watch: false,
            gif_buffer: false,
            dev_link: None,
            captured: None,
        }
    }
}

/// The largest whole scale at which a `width` × `height` display fits [`TARGET_WINDOW`] (and the
/// monitor, when known), at least 1.
pub fn default_scale(width: u32, height: u32, monitor: Option<(u32, u32)>) -> u32 {
    let (mut bw, mut bh) = TARGET_WINDOW;
    if let Some((mw, mh)) = monitor {
        bw = bw.min(mw);
        bh = bh.min(mh);
    }
    (bw / width.max(1)).min(bh / height.max(1)).max(1)
}

/// The widest or tallest window `bt run` opens, in pixels: already 256 MiB of pixels at that
/// size, and larger, winit failed to convert the size and `bt run` died.
pub const MAX_WINDOW_SIDE: u32 = 8192;

/// `scale`, or the largest smaller one (at least 1) at which a `width` × `height` display fits
/// a window of at most [`MAX_WINDOW_SIDE`] a side.
pub fn largest_window_scale(width: u32, height: u32, scale: u32) -> u32 {
    let fits = MAX_WINDOW_SIDE / width.max(height).max(1);
    scale.min(fits).max(1)
}

/// What `bt run` says when the system gives it no window: the reason without the source
/// locations winit adds (files on the machine that built `bt`), and what works instead.
fn no_window_message(e: &dyn std::fmt::Display) -> String {
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
    // Held so that what the run keeps on disk is written whatever ends it, from here on.
    let opened_paused = engine.is_paused();
    let mut host = DiskHost::new(Host::new(engine, keymap, name));
    // F8's HTML report is a tool's, drawn here where the tools are.
    host.set_timing_report(crate::timing::report::html);
    // What F2's replays and F3's state files say of the cart.
    host.set_cart_version(session.version().map(str::to_string));
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
    if !args.no_watch {
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

/// The window's title for a cart titled `title` and named `name`, paused at `paused` or
/// playing, with the keys for the pause menu and quitting.
pub fn window_title(title: &str, name: &str, paused: Option<u64>) -> String {
    match paused {
        Some(tick) => format!("{title} - bt run {name} - PAUSED tick {tick} - {TITLE_KEYS}"),
        None => format!("{title} - bt run {name} - {TITLE_KEYS}"),
    }
}

/// The host keys the title names: the two a player looks for first.
const TITLE_KEYS: &str = "P menu, Ctrl+Q quit";

struct App {
    host: DiskHost,
    name: String,
    args: WindowOptions,
    window: Option<Arc<Window>>,
    /// The window was destroyed from outside: nothing may ask the window system about it.
    gone: bool,
    presenter: Option<Presenter>,
    /// The cart's display size, in display pixels.
    display: (u32, u32),
    /// What presents and how it is paced, for the line a script reads.
    present_mode: String,
    /// The window's size, and the size its surface follows.
    sizes: SizeSettler,
    pads: Gamepads,
    start: Instant,
    error: Option<String>,
    /// When the first frame was presented.
    shown: Option<Instant>,
    /// Something changed that a paused window must present.
    dirty: bool,
    /// With vsync on, the shortest time between frames: one refresh of the monitor. A CPU
    /// buffer has no swap chain to wait on, so the event loop keeps to it itself.
    present_interval: Option<Duration>,
    /// When the last frame was made.
    last_frame: Option<Instant>,
    /// A frame was due and no pixel buffer was free: when to look again.
    starved_until: Option<Instant>,
    /// The sound device.
    sound: WindowSound,
    /// F10's GIF recording and `--gif-buffer`'s last seconds.
    gif: GifCapture,
    /// Whether the window shows the mouse cursor now (the cart may hide it).
    cursor_shown: bool,
    /// Whether the pointer is locked now (the cart may ask), and the motion not yet whole
    /// display pixels.
    pointer_locked: bool,
    motion_rest: (f64, f64),
    /// `bt dev`'s orders, when it runs this window.
    dev: Option<dev_link::DevLink>,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, message: String) {
        self.error.get_or_insert(message);
        event_loop.exit();
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let settings = self.host.engine().settings();
        let (w, h) = (settings.width, settings.height);
        let primary = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next());
        let monitor = primary
            .as_ref()
            .map(|m| (m.size().width, m.size().height))
            .filter(|&(mw, mh)| mw > 0 && mh > 0);
        if !self.args.no_vsync {
            let millihertz = primary.as_ref().and_then(|m| m.refresh_rate_millihertz());
            self.present_interval = Some(refresh_interval(millihertz));
        }
        // The session put `--scale` over the cart's own, its manifest's and the user's.
        let asked = settings
            .window_scale
            .unwrap_or_else(|| default_scale(w, h, monitor));
        let scale = largest_window_scale(w, h, asked);
        if scale < asked {
            eprintln!(
                "bt: a {w}x{h} display at scale {asked} would be a window wider or taller than \
                 {MAX_WINDOW_SIDE} pixels; opening it at scale {scale}"
            );
        }
        let mut attrs = Window::default_attributes()
            .with_title(window_title(&settings.title, &self.name, None))
            .with_inner_size(PhysicalSize::new(w * scale, h * scale))
            .with_min_inner_size(PhysicalSize::new(w, h));
        if self.args.fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        if let Some(dev) = &self.dev {
            attrs = dev.placed(attrs);
        }
        let window = Arc::new(event_loop.create_window(attrs).map_err(|e| {
            format!(
                "cannot create the window: {}",
                without_source_paths(&e.to_string())
            )
        })?);
        #[cfg(target_os = "linux")]
        x11_errors::expect_loss_of(&window);
        // Asked once, while the window surely exists; after this the size comes from resize
        // events, since asking about a window destroyed from outside panics in winit.
        let size = window.inner_size();
        let size = (size.width, size.height);
        let display = self.display;
        let screen = Screen::new(window.clone(), display).map_err(|e| {
            format!(
                "cannot draw to the window: {}",
                without_source_paths(&e.to_string())
            )
        })?;
        if let Some(overlay) = self.host.engine_mut().overlay_mut() {
            overlay.set_backend(screen.backend());
        }
        self.present_mode = match self.present_interval {
            Some(interval) => format!(
                "{}, paced to {:.1} Hz",
                screen.backend(),
                1.0 / interval.as_secs_f64()
            ),
            None => format!("{}, unpaced", screen.backend()),
        };
        let rebuild = {
            let window = window.clone();
            move || Screen::new(window.clone(), display).map_err(|e| e.to_string())
        };
        let capacity = if self.args.frame_log.is_some() {
            FRAME_LOG_CAPACITY
        } else {
            0
        };
        let presenter = Presenter::start(screen, display, self.start, capacity, rebuild)
            .map_err(|e| format!("cannot start presenting: {e}"))?;
        self.presenter = Some(presenter);
        self.sizes = SizeSettler::new(size);
        // The window is up; the game starts once the sound device plays (or gives up waiting).
        if let Some(sound) = self.sound.live() {
            sound.wait_until_flowing(SOUND_START_PATIENCE);
        }
        window.request_redraw();
        self.window = Some(window);
        self.show_title();
        Ok(())
    }

    fn act(&mut self, action: Option<HostAction>) {
        let Some(action) = action else { return };
        self.dirty = true;
        match action {
            HostAction::ToggleFullscreen => {
                if let (Some(w), false) = (&self.window, self.gone) {
                    let next = match w.fullscreen() {
                        Some(_) => None,
                        None => Some(Fullscreen::Borderless(None)),
                    };
                    w.set_fullscreen(next);
                }
            }
            HostAction::Save(files) => match save_numbered(&self.args.captures, &files) {
                Ok(paths) => say(&saved_line(&files, &paths)),
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "bt: not saved: {e}");
                }
            },
            HostAction::SaveFailed(e) => {
                let _ = writeln!(std::io::stderr(), "bt: not saved: {e}");
            }
            HostAction::Paused => {
                // Updates since boot are what `bt shot --at` counts: seconds × the update rate.
                let engine = self.host.engine();
                say(&format!(
                    "paused at tick {}, after {} updates (F5 resumes, F6 steps one update)",
                    engine.ticks(),
                    engine.updates_since_init()
                ));
            }
            HostAction::Resumed => say("resumed"),
            HostAction::OverlayUnderEffects(under) => say(if under {
                "the overlay goes under the effects (Shift+F7 lays it over them again)"
            } else {
                "the overlay lies over the effects, undistorted (Shift+F7 puts it under)"
            }),
            HostAction::EffectsToggled(on) => say(if on {
                "effects on (Shift+F11 turns them off)"
            } else {
                "effects off (Shift+F11 turns them on)"
            }),
            HostAction::MenuOpened => {
                say("paused: the menu is open (arrows choose, Enter takes, P or Escape continues)")
            }
            HostAction::Restarted => say("restarted from boot"),
            HostAction::Stepped(ticks) => say(&format!("stepped to tick {ticks}")),
            HostAction::Rewound(u) => say(&format!("rewound to update {u}")),
            HostAction::StateSaved(u) => self.keep_state_file(u),
            HostAction::StateLoaded(u) => say(&format!("state loaded: update {u}")),
            HostAction::ToggleGif => {
                let now_ms = self.start.elapsed().as_secs_f64() * 1000.0;
                let engine = self.host.engine();
                let (fb, palette) = (engine.framebuffer(), engine.palette());
                if self.gif.toggle(now_ms, fb, palette) == Toggled::Started {
                    say("recording a GIF (F10 stops and saves it)");
                }
            }
            HostAction::SaveGifBuffer => {
                let now_ms = self.start.elapsed().as_secs_f64() * 1000.0;
                if let Err(e) = self.gif.save_buffer(now_ms) {
                    let _ = writeln!(std::io::stderr(), "bt: not saved: {e}");
                }
            }
            _ => {}
        }
        self.show_title();
    }

    /// F3 saved the state after `updates` updates: its file goes into the captures folder,
    /// numbered as the screenshots are, and the line says where.
    fn keep_state_file(&mut self, updates: u64) {
        let saved = format!("state saved after update {updates}");
        match self.host.take_state_file() {
            Some(Ok(file)) => match save_numbered(&self.args.captures, std::slice::from_ref(&file))
            {
                Ok(paths) => {
                    say(&format!("{saved} as {}", crate::quote::path(&paths[0])));
                    self.host.state_file_kept(&paths[0]);
                }
                Err(e) => {
                    say(&saved);
                    let _ = writeln!(std::io::stderr(), "bt: state file not saved: {e}");
                }
            },
            Some(Err(e)) => {
                say(&saved);
                let _ = writeln!(std::io::stderr(), "bt: {e}");
            }
            None => say(&saved),
        }
    }

    /// The window's title: the cart's, and `PAUSED tick N` while paused, as the overlay says.
    fn show_title(&self) {
        let (Some(window), false) = (&self.window, self.gone) else {
            return;
        };
        let engine = self.host.engine();
        let title = window_title(
            &engine.settings().title,
            &self.name,
            engine.is_paused().then(|| engine.ticks()),
        );
        if window.title() != title {
            window.set_title(&title);
        }
    }

    /// Shows or hides the cursor over the window as the cart asks
    /// ([`bt::Update::set_cursor_visible`]), when that changed.
    fn show_cursor(&mut self) {
        let console = self.host.engine().console();
        let lock = console.pointer_locked();
        // A locked pointer is hidden whatever the cart said of the cursor.
        let wanted = console.cursor_visible() && !lock;
        let (Some(window), false) = (&self.window, self.gone) else {
            return;
        };
        if wanted != self.cursor_shown {
            window.set_cursor_visible(wanted);
            self.cursor_shown = wanted;
        }
        if lock != self.pointer_locked {
            // Locked where the platform can; else kept inside the window (X11 confines, and
            // its motion still arrives as device events). Neither: the pointer stays free.
            let grabbed = if lock {
                window
                    .set_cursor_grab(CursorGrabMode::Locked)
                    .or_else(|_| window.set_cursor_grab(CursorGrabMode::Confined))
            } else {
                window.set_cursor_grab(CursorGrabMode::None)
            };
            if let Err(e) = grabbed {
                let _ = writeln!(
                    std::io::stderr(),
                    "bt: the pointer could not be locked: {e}"
                );
            }
            self.pointer_locked = lock;
            self.motion_rest = (0.0, 0.0);
        }
    }

    /// Carries out `bt dev`'s orders; `true` when it asked the window to close (its place is
    /// then kept for the next program).
    fn follow_dev_orders(&mut self) -> bool {
        while let Some(order) = self.dev.as_ref().and_then(dev_link::DevLink::next) {
            match order {
                dev_link::DevOrder::Close => {
                    if let Some(dev) = &self.dev {
                        dev.keep_paused(self.host.is_paused());
                    }
                    if let (Some(dev), Some(window), false) = (&self.dev, &self.window, self.gone) {
                        dev.keep_place(window);
                    }
                    return true;
                }
                dev_link::DevOrder::Notice(text) => self.host.show_notice(Some(&text)),
                dev_link::DevOrder::ClearNotice => self.host.show_notice(None),
            }
            self.dirty = true;
        }
        false
    }

    fn event(&mut self, event: HostEvent<'_>) {
        let action = self.host.handle(event);
        self.act(action);
    }

    /// The earliest the next frame may be made: one refresh after the last with vsync on,
    /// whatever asked for it (a resize, an exposed window, a key).
    fn earliest_frame(&self) -> Option<Instant> {
        self.present_interval
            .zip(self.last_frame)
            .map(|(interval, last)| last + interval)
    }

    /// Makes a frame and hands it to the presenting thread, when one may be made now.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        if self.gone {
            return;
        }
        let now = Instant::now();
        if self.earliest_frame().is_some_and(|at| at > now) {
            return;
        }
        let size = self.sizes.surface_size(now);
        let Some(presenter) = &self.presenter else {
            return;
        };
        // A minimised window (0 x 0) makes no frames.
        if surface_size(size, MAX_SURFACE_SIDE).is_none() {
            return;
        }
        let Some(mut rgba) = presenter.buffer() else {
            self.starved_until = Some(now + BUFFER_POLL);
            return;
        };
        self.starved_until = None;
        let now_ms = now.duration_since(self.start).as_secs_f64() * 1000.0;
        if let (Some(sound), Some(overlay)) =
            (self.sound.live(), self.host.engine_mut().overlay_mut())
        {
            overlay.set_sound_device(Some(sound.device()));
        }
        let report = self.host.frame(now_ms);
        while let Some(file) = self.host.take_capture() {
            // The cart's capture_frame: kept as F9's picture is.
            let files = [file];
            match save_numbered(&self.args.captures, &files) {
                Ok(paths) => say(&saved_line(&files, &paths)),
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "bt: not saved: {e}");
                }
            }
        }
        self.sound
            .after_frame(self.host.engine_mut(), report.as_ref());
        let engine = self.host.engine_mut();
        self.gif
            .shown(now_ms, engine.framebuffer(), engine.palette());
        // The picture `bt shot --size output` writes while a display-tier effect runs (the
        // same bytes), else the display's pixels, scaled by the presenting thread.
        let picture = if engine.has_display_tier() {
            engine.render_output(&mut rgba)
        } else {
            engine.display_rgba(&mut rgba)
        };
        let updates = report.map_or(0, |r| r.stats.updates);
        if !presenter.present(rgba, picture, size, updates, engine.ticks()) {
            self.fail(event_loop, "the presenting thread stopped".to_string());
            return;
        }
        self.show_cursor();
        self.last_frame = Some(paced_origin(
            self.earliest_frame(),
            self.present_interval,
            now,
        ));
        self.dirty = false;
    }

    /// When the next frame should be made: `None` for now.
    fn next_wake(&self, now: Instant) -> Option<Instant> {
        // A window waiting for nothing else still shows its new size once it has settled.
        let or_settled = |at: Instant| Some(self.sizes.settles_at().map_or(at, |s| s.min(at)));
        if surface_size(self.sizes.latest(), MAX_SURFACE_SIDE).is_none() {
            return or_settled(now + IDLE_POLL);
        }
        if self.host.is_paused() && !self.dirty && !self.host.is_rewinding() {
            // Nothing moves: wake only for events, gamepads and --exit-after.
            return or_settled(now + IDLE_POLL);
        }
        let now_ms = now.duration_since(self.start).as_secs_f64() * 1000.0;
        if let Some(due) = self.host.engine().next_frame_ms() {
            if due > now_ms && !self.dirty {
                return or_settled(now + paced_wait(due - now_ms));
            }
        }
        self.earliest_frame()
            .max(self.starved_until)
            .filter(|&at| at > now)
    }

    /// Tells a script the window is up: size, present mode and the X11 window id.
    fn announce(&self) {
        let Some(window) = &self.window else {
            return;
        };
        let (w, h) = self.sizes.latest();
        let id = x11_window_id(window).map_or(String::new(), |id| format!(", X11 window {id}"));
        say(&format!(
            "running {} in a {w}x{h} window ({}{id})",
            self.name, self.present_mode
        ));
    }
}

/// What the window prints for files it saved: `saved captures/snake-0001.png`, and for F8's
/// pair `saved timings <report> and <trace>`.
fn saved_line(files: &[SaveFile], paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| crate::quote::path(p)).collect();
    let timings = files.first().map(|f| f.kind) == Some(SaveKind::TimingReport);
    match (timings, shown.as_slice()) {
        (true, [report, trace]) => format!("saved timings {report} and {trace}"),
        _ => format!("saved {}", shown.join(" and ")),
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn x11_window_id(window: &Window) -> Option<u64> {
    use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
    match window.window_handle().ok()?.as_raw() {
        RawWindowHandle::Xlib(h) => Some(h.window),
        RawWindowHandle::Xcb(h) => Some(u64::from(h.window.get())),
        _ => None,
    }
}

/// How long to sleep when the next paced frame is `ms_ahead` away: at most [`IDLE_POLL`], so
/// gamepads and `--exit-after` are looked at while a slow clock waits, and never a panic for a
/// wait no `Duration` can hold.
fn paced_wait(ms_ahead: f64) -> Duration {
    Duration::try_from_secs_f64(ms_ahead / 1000.0)
        .unwrap_or(IDLE_POLL)
        .min(IDLE_POLL)
}

/// What the next frame's time is counted from, for a frame made at `now` that was due at `due`
/// with `interval` between frames: its due time, so frames keep to a grid of refreshes and one
/// that began late does not push every later one back (counted from when each began, a 60 Hz
/// window woken a little late each time presented 57 frames a second); `now` when it began a
/// whole interval or more late (the window was hidden, or the machine stalled), so the grid
/// starts again rather than hurrying to catch up. Frames are paced from when they begin, so a
/// frame's own cost does not stretch the interval.
fn paced_origin(due: Option<Instant>, interval: Option<Duration>, now: Instant) -> Instant {
    match (due, interval) {
        (Some(due), Some(interval)) if now >= due && now - due < interval => due,
        _ => now,
    }
}

/// One refresh of a monitor reporting `millihertz`, or of a 60 Hz one when it reports nothing
/// usable.
fn refresh_interval(millihertz: Option<u32>) -> Duration {
    let hz = millihertz
        .filter(|&mhz| mhz >= 1_000)
        .map_or(60.0, |mhz| f64::from(mhz) / 1000.0);
    Duration::from_secs_f64(1.0 / hz)
}

/// Whether a key's text reaches the cart: the host's own keys type nothing.
fn types_text(key: Option<bt::Key>) -> bool {
    !key.is_some_and(|k| HOST_KEYS.contains(&k))
}

/// A wheel movement in lines, positive to the right and down the screen. winit reports the way
/// the content should move (positive reveals what is left and up), so both axes flip.
fn wheel_lines(delta: MouseScrollDelta) -> (f32, f32) {
    match delta {
        MouseScrollDelta::LineDelta(x, y) => (-x, -y),
        MouseScrollDelta::PixelDelta(p) => (
            (-p.x / PIXELS_PER_WHEEL_LINE) as f32,
            (-p.y / PIXELS_PER_WHEEL_LINE) as f32,
        ),
    }
}

fn pointer_button(button: MouseButton) -> Option<Button> {
    match button {
        MouseButton::Left => Some(Button::POINTER_A),
        MouseButton::Right => Some(Button::POINTER_B),
        MouseButton::Middle => Some(Button::POINTER_C),
        MouseButton::Back | MouseButton::Forward => Some(Button::POINTER_D),
        MouseButton::Other(_) => None,
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none() {
            if let Err(e) = self.open(event_loop) {
                self.fail(event_loop, e);
            }
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        // A locked pointer's motion, from the mouse itself: physical pixels of the window,
        // turned into display pixels at the picture's scale, the fractions carried over.
        let DeviceEvent::MouseMotion { delta } = event else {
            return;
        };
        if !self.pointer_locked || self.gone {
            return;
        }
        let surface = surface_size(self.sizes.latest(), MAX_SURFACE_SIDE).unwrap_or((1, 1));
        let scale = f64::from(Placement::new(surface, self.display).scale);
        let (rx, ry) = (
            self.motion_rest.0 + delta.0 / scale,
            self.motion_rest.1 + delta.1 / scale,
        );
        let (dx, dy) = (rx.trunc(), ry.trunc());
        self.motion_rest = (rx - dx, ry - dy);
        if dx != 0.0 || dy != 0.0 {
            self.event(HostEvent::PointerMotion {
                dx: dx as i32,
                dy: dy as i32,
            });
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Destroyed => {
                // Destroyed from outside (`xdotool windowclose`, a window manager's kill): the
                // player's close, not an error.
                self.gone = true;
                event_loop.exit();
            }
            WindowEvent::RedrawRequested => {
                // Asked by us or by the window system (an exposed window): either way the
                // picture is shown again, paced like every other frame.
                self.dirty = true;
                self.redraw(event_loop);
            }
            WindowEvent::Resized(size) => {
                // Noted, not followed at once: the surface takes the size once it has settled,
                // and the frame after that shows it.
                self.sizes
                    .resized((size.width, size.height), Instant::now());
            }
            WindowEvent::ScaleFactorChanged { .. } => self.dirty = true,
            WindowEvent::Focused(false) => self.event(HostEvent::FocusLost),
            WindowEvent::KeyboardInput { event, .. } => {
                let down = event.state == ElementState::Pressed;
                let key = match event.physical_key {
                    PhysicalKey::Code(code) => keys::key_from_winit(code),
                    PhysicalKey::Unidentified(_) => None,
                };
                if let (Some(key), false) = (key, event.repeat) {
                    self.event(HostEvent::Key { key, down });
                }
                if let (true, true, Some(text)) = (down, types_text(key), &event.text) {
                    self.event(HostEvent::Text(text));
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let surface = surface_size(self.sizes.latest(), MAX_SURFACE_SIDE).unwrap_or((1, 1));
                let (x, y) = Placement::new(surface, self.display).to_display(
                    position.x,
                    position.y,
                    self.display,
                );
                self.event(HostEvent::PointerMoved { x, y });
            }
            WindowEvent::CursorLeft { .. } => self.event(HostEvent::PointerLeft),
            WindowEvent::Touch(touch) => {
                let surface = surface_size(self.sizes.latest(), MAX_SURFACE_SIDE).unwrap_or((1, 1));
                let (x, y) = Placement::new(surface, self.display).to_display(
                    touch.location.x,
                    touch.location.y,
                    self.display,
                );
                let phase = match touch.phase {
                    TouchPhase::Started => crate::host::TouchPhase::Started,
                    TouchPhase::Moved => crate::host::TouchPhase::Moved,
                    TouchPhase::Ended | TouchPhase::Cancelled => crate::host::TouchPhase::Ended,
                };
                self.event(HostEvent::Touch {
                    id: touch.id,
                    phase,
                    x,
                    y,
                });
            }
            WindowEvent::MouseInput { state, button, .. } => {
                if let Some(button) = pointer_button(button) {
                    let down = state == ElementState::Pressed;
                    self.event(HostEvent::PointerButton { button, down });
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let (dx, dy) = wheel_lines(delta);
                self.event(HostEvent::Wheel { dx, dy });
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Self { pads, host, .. } = self;
        let mut actions = Vec::new();
        pads.poll(|ev| {
            if let Some(a) = host.handle(ev) {
                actions.push(a);
            }
        });
        for a in actions {
            self.act(Some(a));
        }
        // After every batch of events, frames included: what the host asked to keep on disk.
        self.host.persist();
        if crate::signals::requested() || self.follow_dev_orders() {
            event_loop.exit();
            return;
        }
        if self.gone {
            return;
        }
        if let Some(presenter) = &self.presenter {
            if self.shown.is_none() {
                if let Some(at) = presenter.first_shown() {
                    self.shown = Some(at);
                    self.announce();
                }
            }
            if presenter.take_skipped() {
                self.dirty = true;
            }
        }
        // A size that has just settled is shown even by a paused or paced window.
        if self
            .sizes
            .settles_at()
            .is_some_and(|at| at <= Instant::now())
        {
            self.dirty = true;
        }
        if self.host.quit_requested() {
            // Ctrl+Q or the pause menu's Quit: the player's close, with exit status 0.
            event_loop.exit();
            return;
        }
        if self.host.engine().quit_at().is_some() {
            // The cart quit: the player's close, with exit status 0.
            event_loop.exit();
            return;
        }
        if let (Some(limit), Some(shown)) = (self.args.exit_after, self.shown) {
            if shown.elapsed().as_secs_f64() >= limit {
                event_loop.exit();
                return;
            }
        }
        let Some(window) = &self.window else { return };
        match self.next_wake(Instant::now()) {
            Some(at) => event_loop.set_control_flow(ControlFlow::WaitUntil(at)),
            None => {
                event_loop.set_control_flow(ControlFlow::Wait);
                window.request_redraw();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_window_message_names_no_file_of_the_machine_that_built_bt() {
        // winit's own words, with the source location its `OsError` adds.
        let winit =
            "os error at /home/builder/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                     winit-0.30.13/src/platform_impl/linux/mod.rs:785: neither WAYLAND_DISPLAY \
                     nor WAYLAND_SOCKET nor DISPLAY is set.";
        let said = no_window_message(&winit);
        assert!(
            said.starts_with(
                "cannot open a window (os error: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET \
                 nor DISPLAY is set.)\n"
            ),
            "{said}"
        );
        let panic = "panicked at /home/builder/src/bt/runtime/src/host/window/screen.rs:120:9:\n\
                     no surface";
        let said = no_window_message(&panic);
        assert!(
            !said.contains("/home/builder") && !said.contains(".rs:"),
            "{said}"
        );
        assert!(said.contains("panicked:\nno surface"), "{said}");
    }

    #[test]
    fn a_window_never_asks_for_more_than_the_platform_takes() {
        assert_eq!(largest_window_scale(8192, 2048, 8), 1);
        assert_eq!(largest_window_scale(4096, 4096, 16), 2);
        assert_eq!(largest_window_scale(1, 8192, 16), 1);
        assert_eq!(largest_window_scale(320, 240, 4), 4);
    }

    #[test]
    fn default_scale_fits_the_target_window() {
        assert_eq!(default_scale(320, 240, None), 3);
        assert_eq!(default_scale(160, 120, None), 6);
        assert_eq!(default_scale(320, 240, Some((800, 600))), 2);
        assert_eq!(default_scale(2000, 2000, None), 1);
    }

    #[test]
    fn the_wheel_counts_right_and_down_as_positive() {
        // winit: positive moves the content right and down, which scrolls towards the left/top.
        assert_eq!(
            wheel_lines(MouseScrollDelta::LineDelta(1.0, 1.0)),
            (-1.0, -1.0)
        );
        assert_eq!(
            wheel_lines(MouseScrollDelta::LineDelta(-2.0, -3.0)),
            (2.0, 3.0)
        );
        let px = MouseScrollDelta::PixelDelta(winit::dpi::PhysicalPosition::new(-40.0, 20.0));
        assert_eq!(wheel_lines(px), (2.0, -1.0));
    }

    #[test]
    fn vsync_paces_presents_at_the_monitor_refresh() {
        assert_eq!(
            refresh_interval(Some(144_000)),
            Duration::from_secs_f64(1.0 / 144.0)
        );
        assert_eq!(refresh_interval(None), Duration::from_secs_f64(1.0 / 60.0));
        assert_eq!(
            refresh_interval(Some(0)),
            Duration::from_secs_f64(1.0 / 60.0)
        );
    }

    #[test]
    fn frames_keep_to_a_grid_of_refreshes_unless_a_whole_refresh_late() {
        let start = Instant::now();
        let ms = |n: u64| Duration::from_millis(n);
        let interval = Some(ms(16));
        // Made 3 ms after it was due: the next is counted from the due time.
        assert_eq!(paced_origin(Some(start), interval, start + ms(3)), start);
        // A whole refresh late or more: counted from now.
        assert_eq!(
            paced_origin(Some(start), interval, start + ms(16)),
            start + ms(16)
        );
        // The first frame, and frames without vsync: from now.
        assert_eq!(paced_origin(None, interval, start), start);
        assert_eq!(
            paced_origin(Some(start), None, start + ms(3)),
            start + ms(3)
        );
    }

    #[test]
    fn a_paced_wait_is_short_and_never_panics() {
        assert_eq!(paced_wait(5.0), Duration::from_millis(5));
        assert_eq!(paced_wait(1e23), IDLE_POLL, "a paced:1e-20 clock");
        assert_eq!(paced_wait(f64::INFINITY), IDLE_POLL);
        assert_eq!(paced_wait(f64::NAN), IDLE_POLL);
        assert_eq!(paced_wait(-1.0), IDLE_POLL);
    }

    #[test]
    fn host_keys_type_no_text_into_the_cart() {
        assert!(!types_text(Some(bt::Key::Backquote)));
        assert!(!types_text(Some(bt::Key::F9)));
        assert!(types_text(Some(bt::Key::KeyA)));
        assert!(types_text(None));
    }

    #[test]
    fn mouse_buttons_are_pointer_buttons() {
        assert_eq!(pointer_button(MouseButton::Left), Some(Button::POINTER_A));
        assert_eq!(pointer_button(MouseButton::Right), Some(Button::POINTER_B));
        assert_eq!(pointer_button(MouseButton::Middle), Some(Button::POINTER_C));
        assert_eq!(
            pointer_button(MouseButton::Forward),
            Some(Button::POINTER_D)
        );
        assert_eq!(pointer_button(MouseButton::Other(9)), None);
    }
}

#[cfg(test)]
mod title_tests {
    use super::window_title;

    #[test]
    fn a_paused_window_says_so_in_its_title() {
        assert_eq!(
            window_title("Snake", "snake", None),
            "Snake - bt run snake - P menu, Ctrl+Q quit"
        );
        assert_eq!(
            window_title("Snake", "snake", Some(42)),
            "Snake - bt run snake - PAUSED tick 42 - P menu, Ctrl+Q quit"
        );
    }
}
