//! `bt run`: a cart in a window, with keyboard, mouse and gamepads.
//!
//! winit owns the window and its events, pixels uploads the framebuffer and scales it by a whole
//! number with black bars around it, gilrs reads gamepads. Everything they report is turned into
//! [`HostEvent`]s for the same [`Host`] that tests drive headless; this module only adds the
//! platform: creating the surface, keeping its size in step with the window, pacing redraws and
//! presenting.
//!
//! Each redraw asks the engine for one frame at the current time (the clock decides what it is
//! worth), copies the framebuffer through the palette into the surface and presents it. With vsync
//! (the default) the present waits for the display. With a paced clock the loop sleeps until the
//! clock's next slot instead of asking early, so it never spins.

pub mod gamepad;
pub mod keys;
pub mod stats;

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bt::{BTN_POINTER_A, BTN_POINTER_B, BTN_POINTER_C, BTN_POINTER_D};
use pixels::{wgpu, Pixels, PixelsBuilder, SurfaceTexture};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Fullscreen, Window, WindowId};

use crate::engine::Engine;
use crate::host::{Host, HostAction, HostEvent};
use crate::keymap::{self, HOST_KEYS};
use crate::manifest::PaletteSource;
use crate::spec::ClockSpec;
use crate::watch::AssetWatcher;
use gamepad::Gamepads;
use stats::{PresentLog, Presented};

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

/// How `bt run` opens and drives its window, beyond the cart's own settings. The command line
/// fills it in (see `bt run --help`).
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// The clock [default: wall].
    pub clock: Option<ClockSpec>,
    /// Wait for the display's refresh before presenting (the default), or present at once.
    pub vsync: bool,
    /// Open paused on the frame at this many simulated seconds; F5 plays on.
    pub at: Option<f64>,
    /// Window size as a whole multiple of the display; `None` takes the cart's settings, then
    /// the largest that fits [`TARGET_WINDOW`].
    pub scale: Option<u32>,
    /// Start fullscreen (F11 switches).
    pub fullscreen: bool,
    /// Key-map file [default: the user's, when it exists].
    pub keys: Option<PathBuf>,
    /// Folder for F9 screenshots.
    pub captures: PathBuf,
    /// Write every presented frame's time to this CSV file on exit, and print the frame rate
    /// and jitter.
    pub frame_log: Option<PathBuf>,
    /// Write every frame of the run as a Chrome trace (Perfetto, chrome://tracing) to this
    /// file on exit.
    pub trace_out: Option<PathBuf>,
    /// Close the window this many seconds after it showed its first frame.
    pub exit_after: Option<f64>,
    /// The cart's asset folder: when a file in it changes, the cart reloads its assets.
    pub watch: Option<PathBuf>,
    /// Record the run into this replay file (see [`Host::record_to`]).
    pub record: Option<PathBuf>,
    /// The cart's version, as the recording states it.
    pub cart_version: Option<String>,
}

impl Default for WindowOptions {
    fn default() -> WindowOptions {
        WindowOptions {
            clock: None,
            vsync: true,
            at: None,
            scale: None,
            fullscreen: false,
            keys: None,
            captures: PathBuf::from("captures"),
            frame_log: None,
            trace_out: None,
            exit_after: None,
            watch: None,
            record: None,
            cart_version: None,
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

/// What to tell a player who has no Vulkan driver.
pub fn no_gpu_message(detail: &str) -> String {
    format!(
        "no usable GPU adapter ({}).\n\
         `bt run` presents through Vulkan and found no Vulkan driver. On Debian or Ubuntu, install\n\
         Mesa's drivers, which include a software renderer that needs no GPU:\n\
         \n    sudo apt-get install mesa-vulkan-drivers libvulkan1\n\n\
         `bt shot`, `bt trace` and `bt diagnose` need no GPU and work as they are.",
        detail.trim_end_matches('.')
    )
}

/// Plays `engine` (the cart called `name`) in a window until it is closed. When `args.watch`
/// names the cart's asset folder, or `palette` is a file, changes to them reload while it plays.
///
/// # Errors
/// A message for the player: a bad key-map file, no display, no GPU adapter, a failed `--at`.
pub fn run_cart(
    mut engine: Engine,
    name: &str,
    args: &WindowOptions,
    palette: Option<PaletteSource>,
) -> Result<(), String> {
    let (keymap, _) = keymap::load_chosen(args.keys.as_deref()).map_err(|e| e.to_string())?;
    if let Some(spec) = &args.clock {
        engine.set_clock(spec.build().map_err(|e| e.to_string())?);
    }
    let mut host = Host::new(engine, keymap, &args.captures, name);
    if args.trace_out.is_some() {
        host.record_whole_run();
    }
    if let Some(path) = &args.record {
        host.record_to(path.clone(), args.cart_version.clone());
        crate::stop::install();
    }
    let palette_file = match &palette {
        Some(PaletteSource::File(path)) => vec![path.clone()],
        _ => Vec::new(),
    };
    if args.watch.is_some() || !palette_file.is_empty() {
        let watcher = AssetWatcher::new(args.watch.as_deref(), &palette_file);
        host.watch_assets(watcher, palette);
    }
    if let Some(at) = args.at {
        host.pause_at(at).map_err(|e| format!("--at {at}: {e}"))?;
    }
    let event_loop = EventLoop::new().map_err(|e| {
        format!(
            "cannot open a window ({e})\n`bt run` needs a desktop session (X11 or Wayland); \
             `bt shot`, `bt trace` and `bt diagnose` work without one."
        )
    })?;
    let (pads, pad_note) = Gamepads::new();
    if let Some(note) = pad_note {
        eprintln!("bt: {note}; playing on without them");
    }
    let mut app = App {
        host,
        name: name.to_string(),
        args: args.clone(),
        window: None,
        pixels: None,
        surface: (0, 0),
        pads,
        start: Instant::now(),
        error: None,
        log: PresentLog::with_capacity(if args.frame_log.is_some() {
            FRAME_LOG_CAPACITY
        } else {
            0
        }),
        announced: false,
        shown: None,
        dirty: true,
        present_interval: None,
        last_present: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("window event loop: {e}"))?;
    if let Some((path, ticks)) = app.host.finish_recording()? {
        println!("recorded {ticks} updates to {}", path.display());
    }
    if let Some(e) = app.error {
        return Err(e);
    }
    if let Some(path) = &args.frame_log {
        crate::capture::write_atomically(path, app.log.to_csv().as_bytes())
            .map_err(|e| e.to_string())?;
        match app.log.summary(SUMMARY_WARMUP) {
            Some(s) => println!("presented {s} (log in {})", path.display()),
            None => println!(
                "too few frames presented to measure (log in {})",
                path.display()
            ),
        }
    }
    if let (Some(path), Some(run)) = (&args.trace_out, app.host.whole_run()) {
        let mut json = Vec::new();
        run.write_chrome_trace(&mut json, &app.name)
            .map_err(|e| e.to_string())?;
        crate::capture::write_atomically(path, &json).map_err(|e| e.to_string())?;
        println!(
            "wrote the trace of {} frames to {}",
            run.frames().len(),
            path.display()
        );
    }
    // A cart that panicked stayed on screen with its panic; closing the window is a failure.
    if let Some(panic) = app.host.engine().cart_panic() {
        return Err(panic.to_string());
    }
    Ok(())
}

struct App {
    host: Host,
    name: String,
    args: WindowOptions,
    window: Option<Arc<Window>>,
    pixels: Option<Pixels<'static>>,
    /// The size the surface was last configured for.
    surface: (u32, u32),
    pads: Gamepads,
    start: Instant,
    error: Option<String>,
    log: PresentLog,
    announced: bool,
    /// When the first frame was presented.
    shown: Option<Instant>,
    /// Something changed that a paused window must present.
    dirty: bool,
    /// With vsync on, the shortest time between presents: one refresh of the monitor. A display
    /// enforces it itself; a virtual one (Xvfb) does not, and would be flooded with frames.
    present_interval: Option<Duration>,
    last_present: Option<Instant>,
}

impl App {
    fn now_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }

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
        if self.args.vsync {
            let millihertz = primary.as_ref().and_then(|m| m.refresh_rate_millihertz());
            self.present_interval = Some(refresh_interval(millihertz));
        }
        let scale = self
            .args
            .scale
            .or(settings.window_scale)
            .unwrap_or_else(|| default_scale(w, h, monitor));
        let mut attrs = Window::default_attributes()
            .with_title(format!("{} - bt run {}", settings.title, self.name))
            .with_inner_size(PhysicalSize::new(w * scale, h * scale))
            .with_min_inner_size(PhysicalSize::new(w, h));
        if self.args.fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = Arc::new(
            event_loop
                .create_window(attrs)
                .map_err(|e| format!("cannot create the window: {e}"))?,
        );
        let size = window.inner_size();
        let surface = SurfaceTexture::new(size.width.max(1), size.height.max(1), window.clone());
        let pixels = PixelsBuilder::new(w, h, surface)
            .enable_vsync(self.args.vsync)
            // Vulkan (or Metal, DX12): pixels' OpenGL path cannot present to an X11 window.
            .wgpu_backend(wgpu::Backends::PRIMARY)
            .clear_color(wgpu::Color::BLACK)
            .build()
            .map_err(|e| match e {
                pixels::Error::AdapterNotFound
                | pixels::Error::DeviceNotFound(_)
                | pixels::Error::CreateSurface(_) => no_gpu_message(&e.to_string()),
                other => format!("cannot set up drawing to the window: {other}"),
            })?;
        self.surface = (size.width.max(1), size.height.max(1));
        let backend = format!("{:?}", pixels.adapter().get_info().backend).to_lowercase();
        if let Some(overlay) = self.host.engine_mut().overlay_mut() {
            overlay.set_backend(&backend);
        }
        self.pixels = Some(pixels);
        window.request_redraw();
        self.window = Some(window);
        Ok(())
    }

    fn act(&mut self, action: Option<HostAction>) {
        let Some(action) = action else { return };
        self.dirty = true;
        match action {
            HostAction::ToggleFullscreen => {
                if let Some(w) = &self.window {
                    let next = match w.fullscreen() {
                        Some(_) => None,
                        None => Some(Fullscreen::Borderless(None)),
                    };
                    w.set_fullscreen(next);
                }
            }
            HostAction::Saved(path) => say(&format!("saved {}", path.display())),
            HostAction::SavedTimings { report, trace } => say(&format!(
                "saved timings {} and {}",
                report.display(),
                trace.display()
            )),
            HostAction::SaveFailed(e) => eprintln!("bt: screenshot not saved: {e}"),
            HostAction::Paused => say("paused (F5 resumes, F6 steps one update)"),
            HostAction::Resumed => say("resumed"),
            HostAction::Stepped(ticks) => say(&format!("stepped to tick {ticks}")),
            _ => {}
        }
        if let Some(w) = &self.window {
            w.request_redraw();
        }
    }

    fn event(&mut self, event: HostEvent<'_>) {
        let action = self.host.handle(event);
        self.act(action);
    }

    /// Makes the surface `width` x `height` unless it already is. Returns `false` when it could
    /// not (the run then ends with a message); a 0 x 0 size is left alone.
    fn resize_surface(&mut self, event_loop: &ActiveEventLoop, width: u32, height: u32) -> bool {
        if width == 0 || height == 0 || (width, height) == self.surface {
            return true;
        }
        let Some(pixels) = &mut self.pixels else {
            return true;
        };
        if let Err(e) = pixels.resize_surface(width, height) {
            self.fail(event_loop, format!("cannot resize the surface: {e}"));
            return false;
        }
        self.surface = (width, height);
        true
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        // Keep the surface the window's size before every render: rendering to a surface of a
        // stale size makes pixels retry for ever. A minimised window (0 x 0) draws nothing.
        let Some(size) = self.window.as_ref().map(|w| w.inner_size()) else {
            return;
        };
        if size.width == 0 || size.height == 0 {
            return;
        }
        if !self.resize_surface(event_loop, size.width, size.height) {
            return;
        }
        let Some(pixels) = &mut self.pixels else {
            return;
        };
        // Presents are paced from when each frame began, so the frame's own cost does not
        // stretch the interval.
        let began = Instant::now();
        let now = self.start.elapsed().as_secs_f64() * 1000.0;
        let report = self.host.frame(now);
        let engine = self.host.engine();
        engine
            .palette()
            .write_rgba(engine.framebuffer().pixels(), pixels.frame_mut());
        if let Err(e) = pixels.render() {
            self.fail(event_loop, format!("cannot present the frame: {e}"));
            return;
        }
        self.dirty = false;
        self.last_present = Some(began);
        let at_ms = self.now_ms();
        self.log.push(Presented {
            at_ms,
            updates: report.map_or(0, |r| r.stats.updates),
            ticks: self.host.engine().ticks(),
        });
        if !self.announced {
            self.announced = true;
            self.shown = Some(Instant::now());
            self.announce();
        }
    }

    /// Tells a script the window is up: size, present mode and the X11 window id.
    fn announce(&self) {
        let (Some(window), Some(pixels)) = (&self.window, &self.pixels) else {
            return;
        };
        let size = window.inner_size();
        let id = x11_window_id(window).map_or(String::new(), |id| format!(", X11 window {id}"));
        say(&format!(
            "running {} in a {}x{} window ({:?}{id})",
            self.name,
            size.width,
            size.height,
            pixels.present_mode()
        ));
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

fn pointer_button(button: MouseButton) -> Option<u32> {
    match button {
        MouseButton::Left => Some(BTN_POINTER_A),
        MouseButton::Right => Some(BTN_POINTER_B),
        MouseButton::Middle => Some(BTN_POINTER_C),
        MouseButton::Back | MouseButton::Forward => Some(BTN_POINTER_D),
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

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            WindowEvent::Resized(size) => {
                // Follow the new size at once, before anything presents to the old one: a present
                // to a stale swapchain makes pixels reconfigure inside render, which can stall.
                self.resize_surface(event_loop, size.width, size.height);
                self.dirty = true;
                if let Some(w) = &self.window {
                    w.request_redraw();
                }
            }
            WindowEvent::ScaleFactorChanged { .. } => {
                self.dirty = true;
                if let Some(w) = &self.window {
                    w.request_redraw();
                }
            }
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
                if let Some(pixels) = &self.pixels {
                    let at = (position.x as f32, position.y as f32);
                    let (x, y) = pixels
                        .window_pos_to_pixel(at)
                        .unwrap_or_else(|outside| pixels.clamp_pixel_pos(outside));
                    self.event(HostEvent::PointerMoved {
                        x: x as i32,
                        y: y as i32,
                    });
                }
            }
            WindowEvent::CursorLeft { .. } => self.event(HostEvent::PointerLeft),
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
        let now = self.now_ms();
        if crate::stop::requested() {
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
        if self.host.is_paused() && !self.dirty {
            // Nothing moves: wake only for events, gamepads and --exit-after.
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + IDLE_POLL));
            return;
        }
        match self.host.engine().next_frame_ms() {
            Some(due) if due > now && !self.dirty => {
                let wait = paced_wait(due - now);
                event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + wait));
            }
            _ => {
                // With vsync, no faster than the monitor refreshes (a resize still draws at once).
                let next = self
                    .present_interval
                    .zip(self.last_present)
                    .map(|(interval, last)| last + interval);
                match next {
                    Some(at) if at > Instant::now() && !self.dirty => {
                        event_loop.set_control_flow(ControlFlow::WaitUntil(at));
                    }
                    _ => {
                        event_loop.set_control_flow(ControlFlow::Wait);
                        window.request_redraw();
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scale_fits_the_target_window() {
        assert_eq!(default_scale(320, 240, None), 3);
        assert_eq!(default_scale(160, 120, None), 6);
        assert_eq!(default_scale(320, 240, Some((800, 600))), 2);
        assert_eq!(default_scale(2000, 2000, None), 1);
    }

    #[test]
    fn the_no_gpu_message_says_what_to_install_and_what_still_works() {
        let m = no_gpu_message("No suitable `wgpu::Adapter` found.");
        for needle in [
            "Vulkan",
            "apt-get install mesa-vulkan-drivers libvulkan1",
            "bt shot",
        ] {
            assert!(m.contains(needle), "{m}");
        }
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
        assert_eq!(pointer_button(MouseButton::Left), Some(BTN_POINTER_A));
        assert_eq!(pointer_button(MouseButton::Right), Some(BTN_POINTER_B));
        assert_eq!(pointer_button(MouseButton::Middle), Some(BTN_POINTER_C));
        assert_eq!(pointer_button(MouseButton::Forward), Some(BTN_POINTER_D));
        assert_eq!(pointer_button(MouseButton::Other(9)), None);
    }
}
