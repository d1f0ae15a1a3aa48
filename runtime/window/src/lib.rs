//! `bt run`: a cart in a window, with keyboard, mouse and gamepads.
//!
//! It stands on `bt-engine`, `bt-host` and `bt-tools` (F8's report and F10's GIFs), and on the
//! window, gamepad and sound device crates; only the command line (`bt-runtime`) uses it. The
//! run around the event loop is in `run`, the options in `options`, the files a run keeps in
//! [`disk`] and [`captures`].
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
mod events;
pub mod gamepad;
pub mod gif_recorder;
pub mod keys;
pub mod layout;
pub mod netplay;
mod options;
mod pacing;
mod presenter;
pub mod resize;
mod run;
mod screen;
pub mod signals;
pub mod speaker;
pub mod stats;
#[cfg(target_os = "linux")]
mod x11_errors;

use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, TouchPhase, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{CursorGrabMode, Fullscreen, Window, WindowId};

use crate::config::manifest::PaletteSource;
use crate::engine::Engine;
use crate::gif_recorder::{GifCapture, Toggled};
use crate::host::asset_watch::AssetWatcher;
use crate::host::keymap;
use crate::host::{Host, HostAction, HostEvent};
use crate::quote::without_source_paths;
use crate::session::Session;
use disk::DiskHost;
use gamepad::Gamepads;
use layout::{surface_size, Placement};
use presenter::Presenter;
use resize::SizeSettler;
use screen::{Screen, MAX_SURFACE_SIDE};
use speaker::{LiveSound, WindowSound};

use events::{pointer_button, types_text, wheel_lines};
pub use options::*;
use pacing::{paced_origin, paced_wait, refresh_interval};
pub use run::run_cart;

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
    /// The rollback session that runs the frames of a netplay run.
    net: Option<netplay::NetPlay>,
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
            // Its file is in the outbox: the captures folder's line says where it went.
            HostAction::StateSaved(u) => say(&format!("state saved after update {u}")),
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
        if let Some(net) = &mut self.net {
            net.observe(&self.host);
        }
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
        let report = match &mut self.net {
            None => self.host.frame(now_ms),
            Some(net) => {
                if net.due().is_some_and(|at| at > now) && !self.dirty {
                    return;
                }
                match net.frame(&mut self.host, now) {
                    Ok(sound) => self.sound.after_net_frame(self.host.engine(), &sound),
                    Err(e) => {
                        self.fail(event_loop, e);
                        return;
                    }
                }
                None
            }
        };
        // The cart's capture_frame pictures, and what else the frame made.
        self.host.persist();
        if self.net.is_none() {
            self.sound
                .after_frame(self.host.engine_mut(), report.as_ref());
        }
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
        if let Some(due) = self.net.as_ref().and_then(netplay::NetPlay::due) {
            if due > now && !self.dirty {
                return or_settled(now + paced_wait((due - now).as_secs_f64() * 1000.0));
            }
        }
        let now_ms = now.duration_since(self.start).as_secs_f64() * 1000.0;
        if let Some(due) = self
            .host
            .engine()
            .next_frame_ms()
            .filter(|_| self.net.is_none())
        {
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
        if let Some(net) = &mut self.net {
            net.observe(&self.host);
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
    use super::run::no_window_message;
    use super::*;
    use bt::Button;
    use winit::event::{MouseButton, MouseScrollDelta};

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
