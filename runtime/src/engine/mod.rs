//! The engine: one cart, its console, the fixed-step loop and a clock, driven by a host.

use std::path::PathBuf;
use std::sync::Arc;

use bt::host::{Console, TickInput};
use bt::{Cart, Framebuffer, Palette, Settings, SettingsError, Tag};
use bt_overlay::{FrameStats, Overlay};
use thiserror::Error;

use crate::clock::{Clock, WallClock};
use crate::fixed_loop::{FixedLoop, TickAction};
use crate::quote::number;
use crate::replay::{frame_hash, Player, Recorder, Replay, ReplayInfo};
use crate::wall_time::Instant;

pub(crate) mod cart_panic;

use cart_panic::guarded;
pub use cart_panic::{CartCall, CartPanic};

/// Where [`Engine::render_at`] counts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// Replay from boot: a freshly built cart, the boot seed, tick 0.
    #[default]
    Start,
    /// Step forward from where the engine is now; the target may not lie behind it.
    Current,
}

/// Builds a fresh cart. The engine calls it at boot and again for every replay from the start, so
/// no state can leak from one run into the next.
pub type CartFactory = Box<dyn Fn() -> Box<dyn Cart>>;

/// The most updates one `render_at` replays or one `step` runs: about 46 hours of play at 60
/// updates a second. A seek runs every update on the way, so a target far past this would keep
/// the caller waiting for hours; a seek from the current tick counts only the updates it adds.
pub const MAX_SEEK_UPDATES: u64 = 10_000_000;

/// The slowest simulated host, in ticks a second: as slow as the slowest cart
/// ([`bt::MIN_TARGET_FPS`]). Much slower, host times would grow so large over a long run that
/// the ticks' deltas lost their precision (at 10^-306 they overflowed).
pub const MIN_HOST_HZ: f64 = bt::MIN_TARGET_FPS;

/// The fastest simulated host, in ticks a second: a tick every 10 µs, far past any display.
pub const MAX_HOST_HZ: f64 = 100_000.0;

/// How many updates a seek runs between two calls of its progress callback: often enough for a
/// progress bar several times a second, rarely enough to cost nothing.
pub const SEEK_PROGRESS_EVERY: u64 = 1024;

/// Why the engine refused to start or to seek.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The cart's settings (after any overrides) are invalid.
    #[error("cart settings: {0}")]
    Settings(#[from] SettingsError),
    /// The cart's `init` failed.
    #[error("cart init failed: {0}")]
    Init(String),
    /// The cart panicked: the engine is paused, and stays so until a replay from the start
    /// (see [`Engine::cart_panic`]).
    #[error(transparent)]
    Panicked(#[from] CartPanic),
    /// A host frequency outside [`MIN_HOST_HZ`]..=[`MAX_HOST_HZ`].
    #[error(
        "host_hz must be from {} to {}, got {}",
        number(MIN_HOST_HZ),
        number(MAX_HOST_HZ),
        number(*.0)
    )]
    HostHz(f64),
    /// `render_at` with seconds that are negative, NaN or infinite.
    #[error("render_at seconds must be finite and not negative, got {}", number(*.0))]
    Seconds(f64),
    /// `render_at` would replay more than [`MAX_SEEK_UPDATES`] updates.
    #[error(
        "render_at {} s would replay {} updates; one seek replays at most {MAX_SEEK_UPDATES}",
        number(*.seconds),
        number(*.updates)
    )]
    TooFar {
        /// The seconds asked for.
        seconds: f64,
        /// The updates it would take from where the seek starts.
        updates: f64,
    },
    /// `step` asked for more than [`MAX_SEEK_UPDATES`] updates.
    #[error("step {0} updates: one step runs at most {MAX_SEEK_UPDATES}")]
    Steps(u64),
    /// `render_at` from the current tick to a tick already behind it.
    #[error(
        "render_at {} s from the current tick: target tick {target} is behind \
         the current tick {current} (seek from the start to go back)",
        number(*.seconds)
    )]
    Behind {
        /// The seconds asked for.
        seconds: f64,
        /// The tick they come to.
        target: u64,
        /// Where the engine is.
        current: u64,
    },
}

/// Options a host gives the engine on top of the cart's own settings.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineOptions {
    /// The random seed; `None` takes the cart's settings, then 0.
    pub seed: Option<u64>,
    /// Overrides the cart's `target_fps`.
    pub target_fps: Option<f64>,
    /// Host ticks per second for [`Engine::advance`] (simulated host time). Default 60.
    pub host_hz: f64,
    /// Whether the overlay exists (when the cart's settings allow it). Default `true`.
    pub overlay: bool,
    /// Cart arguments as `(name, value)` pairs, read by the cart with `Update::arg`.
    pub args: Vec<(String, String)>,
    /// Settings to run with instead of the cart's `configure()`: a host that layers a
    /// manifest, the user's config and its command line over the cart's own (see
    /// [`crate::config::manifest::resolve`]) passes the result here. `seed` and `target_fps` above
    /// still override it.
    pub settings: Option<Settings>,
    /// The cart's asset folder: relative paths in `Update::load_indexed` are looked up there.
    /// `None` uses the working directory.
    pub assets: Option<PathBuf>,
    /// A replay to play: each update sees the recorded input instead of live input until the
    /// replay runs out, and the frame is hashed where the replay has hashes. The caller sets
    /// `seed` and `args` to the replay's and checks it fits ([`Replay::check`]).
    pub replay: Option<Arc<Replay>>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            seed: None,
            target_fps: None,
            host_hz: 60.0,
            overlay: true,
            args: Vec::new(),
            settings: None,
            assets: None,
            replay: None,
        }
    }
}

/// What one delivered frame did, as the engine hands it to its host.
///
/// The fixed-step loop's [`FrameTiming`](crate::FrameTiming) is filed into it once:
/// `render_alpha` here, the update count and the cap's loss in [`FrameStats`], beside the clock's
/// delta, the tick counter and the measured times. The overlay records that same [`FrameStats`],
/// so a frame's figures are written down once.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameReport {
    /// The frame's number, from 0.
    pub frame: u64,
    /// How far the leftover time reaches into the next update, in `[0, 1)`: what the cart's
    /// `render` saw.
    pub render_alpha: f64,
    /// The frame's measurements: updates run, time the cap threw away, the clock's delta
    /// (before the snap), the tick counter after the frame, wall times and drawing calls.
    pub stats: FrameStats,
}

/// One cart running on the console.
///
/// Hosts drive it one of two ways, which ask the clock identically: [`Engine::run`], once per
/// host frame with the host's timestamp, or [`Engine::advance`], which simulates host ticks at
/// `host_hz` and is what tests and headless tools use.
pub struct Engine {
    factory: CartFactory,
    cart: Box<dyn Cart>,
    settings: Settings,
    seed: u64,
    fixed: FixedLoop,
    clock: Box<dyn Clock>,
    console: Console,
    overlay: Option<Overlay>,
    /// Updates since `init`: unlike `ticks`, never reset by the cart. `render_at` counts these.
    updates_since_init: u64,
    frames: u64,
    paused: bool,
    host_hz: f64,
    /// Simulated host time at the last `host_hz` change, and host ticks since then.
    host_origin_ms: f64,
    host_ticks: u64,
    /// The last replay's `init` failed: the cart is unusable until a replay succeeds.
    init_failed: bool,
    /// The cart panicked: it is not called again until a replay from the start.
    panic: Option<CartPanic>,
    last: FrameReport,
    /// Tags the cart placed during the last frame (or seek).
    frame_tags: Vec<Tag>,
    /// `init`'s tags at boot belong to the first frame's list: kept until that frame runs.
    keep_boot_tags: bool,
    /// The cart arguments, as a replay records them.
    args: Vec<(String, String)>,
    tape: Tape,
}

/// What the engine records, plays back and hashes around each update.
#[derive(Debug, Default)]
struct Tape {
    recorder: Option<Recorder>,
    player: Option<Player>,
    /// Hash the frame after every `hash_every` updates since init (0: never).
    hash_every: u64,
    /// `(updates since init, frame_hash)`.
    hashes: Vec<(u64, u64)>,
    /// Keep a copy of the hashed frame after this many updates since init.
    keep_at: Option<u64>,
    kept: Option<(Framebuffer, Palette)>,
}

/// Hashes reserved up front: an hour at one a second, so hashing never allocates in play.
const RESERVED_HASHES: usize = 3600;

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("settings", &self.settings)
            .field("seed", &self.seed)
            .field("ticks", &self.fixed.ticks())
            .field("frames", &self.frames)
            .field("paused", &self.paused)
            .finish_non_exhaustive()
    }
}

fn update_once(
    cart: &mut dyn Cart,
    console: &mut Console,
    tick: u64,
    replayed: Option<&TickInput>,
) -> TickAction {
    match replayed {
        Some(input) => cart.update(&mut console.update_context_replayed(tick, input)),
        None => cart.update(&mut console.update_context(tick)),
    }
    // Palette effects run on the tick clock, after the cart's update, so a replay reproduces
    // them and the display's refresh rate does not change them.
    console.step_effects();
    console.step_sound();
    if console.take_reset_request() {
        TickAction::Reset
    } else {
        TickAction::Advance
    }
}

/// The loop's update callback: one cart update per call, counted in `updates_since_init`, with
/// the replay's input when one plays, recorded when a recorder runs, and the frame (rendered
/// with `render_alpha` 0) hashed every `hash_every` updates.
fn updater<'a>(
    cart: &'a mut Box<dyn Cart>,
    console: &'a mut Console,
    updates_since_init: &'a mut u64,
    tape: &'a mut Tape,
) -> impl FnMut(u64) -> TickAction + 'a {
    move |tick| {
        *updates_since_init += 1;
        let replayed = tape.player.as_mut().and_then(Player::next);
        let action = update_once(cart.as_mut(), console, tick, replayed);
        if let Some(recorder) = &mut tape.recorder {
            recorder.record(&console.input().visible());
        }
        if tape.hash_every > 0 && updates_since_init.is_multiple_of(tape.hash_every) {
            let ticks = match action {
                TickAction::Advance => tick + 1,
                TickAction::Reset => 0,
            };
            cart.render(&mut console.render_context(ticks, 0.0));
            let hash = frame_hash(console.framebuffer(), console.palette());
            tape.hashes.push((*updates_since_init, hash));
            if tape.keep_at == Some(*updates_since_init) {
                tape.kept = Some((console.framebuffer().clone(), console.palette().clone()));
            }
        }
        action
    }
}

impl Engine {
    /// Builds the cart, resolves its settings with `options`, and runs its `init`. The clock is a
    /// default [`WallClock`] until [`Engine::set_clock`].
    ///
    /// # Errors
    /// [`EngineError::Settings`] for invalid settings (naming the field and value),
    /// [`EngineError::HostHz`] for a bad `host_hz`, [`EngineError::Init`] when `init` fails,
    /// [`EngineError::Panicked`] when the cart's constructor, `configure` or `init` panics.
    pub fn new(factory: CartFactory, options: EngineOptions) -> Result<Engine, EngineError> {
        let at_boot = |call| {
            move |message| CartPanic {
                call,
                tick: 0,
                message,
            }
        };
        let cart = guarded(&factory).map_err(at_boot(CartCall::New))?;
        let mut settings = match options.settings {
            Some(settings) => settings,
            None => guarded(|| cart.configure()).map_err(at_boot(CartCall::Configure))?,
        };
        if let Some(fps) = options.target_fps {
            settings.target_fps = fps;
        }
        settings.validate()?;
        if !(MIN_HOST_HZ..=MAX_HOST_HZ).contains(&options.host_hz) {
            return Err(EngineError::HostHz(options.host_hz));
        }
        let seed = options.seed.or(settings.seed).unwrap_or(0);
        let fixed = FixedLoop::new(settings.target_fps)
            .map_err(|_| SettingsError::TargetFps(settings.target_fps))?;
        let overlay =
            (options.overlay && settings.overlay.enabled).then(|| Overlay::new(&settings));
        let mut console = Console::new(&settings, seed);
        match options.assets {
            Some(folder) => console.set_image_loader(Box::new(
                crate::config::png_loader::FolderLoader::new(folder),
            )),
            None => console.set_image_loader(Box::new(crate::config::png_loader::PngLoader)),
        }
        console.set_args(options.args.clone());
        let mut tape = Tape::default();
        if let Some(replay) = options.replay {
            tape.hash_every = replay.info.hash_every;
            tape.hashes.reserve(RESERVED_HASHES);
            tape.player = Some(Player::new(replay));
        }
        let mut engine = Engine {
            factory,
            cart,
            settings,
            seed,
            fixed,
            clock: Box::new(WallClock::default()),
            console,
            overlay,
            updates_since_init: 0,
            frames: 0,
            paused: false,
            host_hz: options.host_hz,
            host_origin_ms: 0.0,
            host_ticks: 0,
            init_failed: false,
            panic: None,
            last: FrameReport::default(),
            frame_tags: Vec::new(),
            keep_boot_tags: true,
            args: options.args,
            tape,
        };
        engine.init()?;
        Ok(engine)
    }

    /// Runs the cart's `init`. Its tags go on the chart, at boot and when a seek from the start
    /// replays it alike, so a seek from the start and one from boot show the same overlay.
    fn init(&mut self) -> Result<(), EngineError> {
        let (cart, console) = (&mut self.cart, &mut self.console);
        match guarded(|| cart.init(&mut console.init_context())) {
            Err(message) => return Err(self.stop(CartCall::Init, message)),
            Ok(result) => result.map_err(|e| EngineError::Init(e.to_string()))?,
        }
        if self.console.take_reset_request() {
            self.fixed.reset();
        }
        self.forward_tags(true);
        Ok(())
    }

    /// Changes the rate of simulated host ticks used by [`Engine::advance`].
    ///
    /// # Errors
    /// [`EngineError::HostHz`] unless `host_hz` is from [`MIN_HOST_HZ`] to [`MAX_HOST_HZ`].
    pub fn set_host_hz(&mut self, host_hz: f64) -> Result<(), EngineError> {
        if !(MIN_HOST_HZ..=MAX_HOST_HZ).contains(&host_hz) {
            return Err(EngineError::HostHz(host_hz));
        }
        // Re-base so simulated host time carries on from where it is, at the new rate.
        self.host_origin_ms = self.host_now_ms();
        self.host_ticks = 0;
        self.host_hz = host_hz;
        Ok(())
    }

    /// Asks the cart to load its files again ([`Cart::reload`]) after one changed on disk.
    /// Nothing else changes: the tick, the state the cart keeps, the clock.
    ///
    /// # Errors
    /// The cart's message when a file failed to load; it keeps what it had. A cart that
    /// panicked (now, or before) is not asked, and the panic is the message.
    pub fn reload_assets(&mut self) -> Result<(), String> {
        if let Some(panic) = &self.panic {
            return Err(panic.to_string());
        }
        let (cart, console) = (&mut self.cart, &mut self.console);
        match guarded(|| cart.reload(&mut console.reload_context())) {
            Ok(result) => result.map_err(|e| e.to_string()),
            Err(message) => Err(self.stop(CartCall::Reload, message).to_string()),
        }
    }

    /// Replaces the palette the cart booted with (and the live one), as when the cart's palette
    /// file changed on disk.
    pub fn replace_palette(&mut self, palette: Palette) {
        self.settings.palette.clone_from(&palette);
        self.console.replace_palette(palette);
    }

    /// Replaces the clock.
    pub fn set_clock(&mut self, clock: Box<dyn Clock>) {
        self.clock = clock;
    }

    /// The resolved settings (the cart's, with the host's overrides).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The seed the run started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The tick counter, as the cart sees it.
    pub fn ticks(&self) -> u64 {
        self.fixed.ticks()
    }

    /// Updates run since `init`, whatever `ticks_reset` did.
    pub fn updates_since_init(&self) -> u64 {
        self.updates_since_init
    }

    /// Frames delivered so far (not counting `render_at`).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The last delivered frame's report.
    pub fn last_frame(&self) -> &FrameReport {
        &self.last
    }

    /// Whether live play is paused: by [`Engine::pause`], [`Engine::render_at`] or
    /// [`Engine::step`], until [`Engine::resume`], or because the cart panicked.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The panic that stopped the cart, if it panicked: which call, at which tick, and its
    /// message. The engine is then paused, [`Engine::resume`], [`Engine::step`],
    /// [`Engine::redraw`] and a seek from the current tick are refused, and the cart is not
    /// called again, until [`Engine::render_at`] replays it from the start.
    pub fn cart_panic(&self) -> Option<&CartPanic> {
        self.panic.as_ref()
    }

    /// The framebuffer as last rendered.
    pub fn framebuffer(&self) -> &Framebuffer {
        self.console.framebuffer()
    }

    /// The palette the framebuffer is shown with, as the window, screenshots and golden
    /// pictures use it: the live palette (with the cart's cycles, fades and swaps), or a
    /// running flash over it.
    pub fn palette(&self) -> &Palette {
        self.console.palette()
    }

    /// The console, to read its state (its sample rate, its sound meter).
    pub fn console(&self) -> &Console {
        &self.console
    }

    /// The console, for the host to feed input.
    pub fn console_mut(&mut self) -> &mut Console {
        &mut self.console
    }

    /// The overlay, when there is one.
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlay.as_ref()
    }

    /// The overlay, when there is one, to change.
    pub fn overlay_mut(&mut self) -> Option<&mut Overlay> {
        self.overlay.as_mut()
    }

    /// The overlay, made now if the cart's settings or the host's options left it out (timing
    /// diagnosis wants it whatever the cart says).
    pub fn overlay_forced(&mut self) -> &mut Overlay {
        let Engine {
            settings,
            overlay,
            frame_tags,
            keep_boot_tags,
            ..
        } = self;
        overlay.get_or_insert_with(|| {
            let mut o = Overlay::new(settings);
            // Made before the first frame: `init`'s tags still belong on the chart.
            if *keep_boot_tags {
                for tag in frame_tags.iter() {
                    o.add_tag(tag.clone());
                }
            }
            o
        })
    }

    /// Tags the cart placed during the last frame or seek, in the order placed.
    pub fn last_frame_tags(&self) -> &[Tag] {
        &self.frame_tags
    }

    /// One host frame at `now_ms`: asks the clock for a delta and, when it delivers one and the
    /// engine is not paused, runs the updates it pays for and renders once. Returns the frame's
    /// report, or `None` when no frame ran (also when the cart panicked: see
    /// [`Engine::cart_panic`]).
    pub fn run(&mut self, now_ms: f64) -> Option<FrameReport> {
        let delta = self.clock.delta(now_ms)?;
        if self.paused {
            return None;
        }
        self.frame(delta)
    }

    /// Simulates `host_ticks` host frames at `host_hz`, continuing the simulated host time of
    /// earlier calls (the first tick is at 0 ms). Returns how many frames ran.
    pub fn advance(&mut self, host_ticks: u64) -> u64 {
        self.advance_with(host_ticks, |_| {})
    }

    /// Like [`Engine::advance`], handing every frame's report to `on_frame`.
    pub fn advance_with(&mut self, host_ticks: u64, mut on_frame: impl FnMut(&FrameReport)) -> u64 {
        let mut ran = 0;
        for _ in 0..host_ticks {
            let now = self.host_now_ms();
            self.host_ticks += 1;
            if let Some(report) = self.run(now) {
                on_frame(&report);
                ran += 1;
            }
        }
        ran
    }

    fn host_now_ms(&self) -> f64 {
        self.host_origin_ms + self.host_ticks as f64 * (1000.0 / self.host_hz)
    }

    fn frame(&mut self, delta_ms: f64) -> Option<FrameReport> {
        let started = Instant::now();
        if !std::mem::take(&mut self.keep_boot_tags) {
            self.frame_tags.clear();
        }
        let fixed = &mut self.fixed;
        let update = updater(
            &mut self.cart,
            &mut self.console,
            &mut self.updates_since_init,
            &mut self.tape,
        );
        let timing = match guarded(|| fixed.frame(delta_ms, update)) {
            Ok(timing) => timing,
            Err(message) => {
                self.stop(CartCall::Update, message);
                return None;
            }
        };
        let update_ms = started.elapsed().as_secs_f64() * 1000.0;
        self.forward_tags(true);
        let render_ms = self.render(timing.render_alpha).ok()?;

        let report = FrameReport {
            frame: self.frames,
            render_alpha: timing.render_alpha,
            stats: FrameStats {
                updates: timing.updates,
                clamped: timing.clamped,
                discarded_ms: timing.discarded_ms,
                delta_ms,
                update_ms,
                render_ms,
                frame_ms: started.elapsed().as_secs_f64() * 1000.0,
                ticks: self.fixed.ticks(),
                draw_calls: self.console.draw_calls(),
            },
        };
        self.frames += 1;
        if let Some(overlay) = &mut self.overlay {
            overlay.record(&report.stats);
        }
        self.last = report;
        Some(report)
    }

    /// Stops the cart after a panic in `call`: keeps the panic, pauses, and returns it as the
    /// error.
    fn stop(&mut self, call: CartCall, message: String) -> EngineError {
        let panic = CartPanic {
            call,
            tick: self.fixed.ticks(),
            message,
        };
        self.paused = true;
        self.panic = Some(panic.clone());
        EngineError::Panicked(panic)
    }

    /// Moves the tags placed since the last call into the frame's list and, for live frames,
    /// onto the overlay's chart (a seek's replayed tags have no frames of their own to sit on).
    fn forward_tags(&mut self, to_chart: bool) {
        for tag in self.console.drain_tags() {
            if let Some(overlay) = self.overlay.as_mut().filter(|_| to_chart) {
                overlay.add_tag(tag.clone());
            }
            self.frame_tags.push(tag);
        }
    }

    /// Renders the cart and draws the overlay over it; returns the milliseconds the cart's
    /// `render` alone took.
    fn render(&mut self, render_alpha: f64) -> Result<f64, EngineError> {
        let ticks = self.fixed.ticks();
        let started = Instant::now();
        let (cart, console) = (&self.cart, &mut self.console);
        if let Err(message) =
            guarded(|| cart.render(&mut console.render_context(ticks, render_alpha)))
        {
            return Err(self.stop(CartCall::Render, message));
        }
        let cart_ms = started.elapsed().as_secs_f64() * 1000.0;
        let rows = match &mut self.overlay {
            Some(overlay) if overlay.is_visible() => {
                let (cart, rows) = (&self.cart, overlay.cart_rows_mut());
                guarded(|| cart.overlay_rows(rows))
            }
            _ => Ok(()),
        };
        if let Err(message) = rows {
            return Err(self.stop(CartCall::OverlayRows, message));
        }
        self.draw_overlay();
        Ok(cart_ms)
    }

    /// Draws the overlay, with its notice, over the framebuffer as it stands, without calling
    /// the cart: how a host shows news (such as [`Engine::cart_panic`]) over a cart that no
    /// longer draws. Nothing happens without an overlay.
    pub fn draw_overlay(&mut self) {
        // While the replay's input drives the updates (through its last), then live.
        let replay = self
            .replay()
            .map(|r| (self.updates_since_init, r.ticks()))
            .filter(|&(played, length)| played <= length);
        let Engine {
            overlay, console, ..
        } = self;
        if let Some(overlay) = overlay {
            overlay.set_replay(replay);
            overlay.set_sound_meter(console.sound_meter());
            overlay.draw(console.framebuffer_mut());
        }
    }

    /// Pauses live play and renders exactly the frame at `seconds` of simulated time, that is
    /// after `round(seconds × target_fps)` updates since `init`, with `render_alpha` 0.
    ///
    /// From [`Origin::Start`] the run is replayed from boot: a freshly built cart, the boot
    /// seed, a boot palette, the camera at the origin, no input, tick 0, `init` again. From
    /// [`Origin::Current`] it steps forward from where it is. The engine then stays paused
    /// ([`Engine::run`] delivers no frames) until [`Engine::resume`].
    ///
    /// # Errors
    /// [`EngineError::Seconds`], [`EngineError::TooFar`], [`EngineError::Behind`] (from the
    /// current tick only), replaying from the start [`EngineError::Init`], and
    /// [`EngineError::Panicked`] when the cart panics on the way (or, from the current tick,
    /// panicked before).
    pub fn render_at(&mut self, seconds: f64, origin: Origin) -> Result<(), EngineError> {
        self.render_at_with_progress(seconds, origin, |_, _| {})
    }

    /// [`Engine::render_at`], calling `progress(done, total)` every [`SEEK_PROGRESS_EVERY`]
    /// updates of the seek, for a host that shows how far a long seek has come.
    ///
    /// # Errors
    /// As [`Engine::render_at`].
    pub fn render_at_with_progress(
        &mut self,
        seconds: f64,
        origin: Origin,
        progress: impl FnMut(u64, u64),
    ) -> Result<(), EngineError> {
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(EngineError::Seconds(seconds));
        }
        let target = (seconds * self.settings.target_fps).round();
        let start = match origin {
            Origin::Start => 0.0,
            Origin::Current => self.updates_since_init as f64,
        };
        if target - start > MAX_SEEK_UPDATES as f64 {
            return Err(EngineError::TooFar {
                seconds,
                updates: target - start,
            });
        }
        let target = target as u64;
        self.begin_seek();
        match origin {
            Origin::Start => self.restart()?,
            Origin::Current => {
                self.refuse_half_built()?;
                if target < self.updates_since_init {
                    return Err(EngineError::Behind {
                        seconds,
                        target,
                        current: self.updates_since_init,
                    });
                }
            }
        }
        self.step_and_render(target - self.updates_since_init, progress)
    }

    /// Runs `updates` updates straight away, with no time accounting and no cap, then renders
    /// the frame with `render_alpha` 0: the player's single step while paused (F6). The result
    /// is the same frame [`Engine::render_at`] gives `updates` updates further on.
    ///
    /// A running engine is paused first, as by [`Engine::pause`], and stays paused afterwards;
    /// [`Engine::resume`] continues live play. Tags the updates place go to
    /// [`Engine::last_frame_tags`], not onto the overlay's chart, as in a seek. `step(0)` runs no
    /// update and only renders.
    ///
    /// # Errors
    /// [`EngineError::Steps`] for more than [`MAX_SEEK_UPDATES`] updates (nothing changes, and
    /// a running engine keeps running); [`EngineError::Init`] after a replay whose `init` failed,
    /// until a replay from the start succeeds (the engine is paused, and nothing runs or is
    /// drawn); [`EngineError::Panicked`] when the cart panics, or had panicked.
    pub fn step(&mut self, updates: u64) -> Result<(), EngineError> {
        if updates > MAX_SEEK_UPDATES {
            return Err(EngineError::Steps(updates));
        }
        self.begin_seek();
        self.refuse_half_built()?;
        self.step_and_render(updates, |_, _| {})
    }

    /// Renders the current state again with `render_alpha` 0, running no update: for a change
    /// the cart's state does not show, such as the overlay toggled or assets reloaded while
    /// paused. The tick counter, the updates since `init`, the frame count, the tags and whether
    /// the engine is paused are left as they were; a running engine simply draws its next frame
    /// over this one.
    ///
    /// # Errors
    /// [`EngineError::Init`] after a replay whose `init` failed: the cart is half built, so
    /// nothing is drawn and the framebuffer keeps what it showed. [`EngineError::Panicked`]
    /// when the cart panics, or had panicked.
    pub fn redraw(&mut self) -> Result<(), EngineError> {
        self.refuse_half_built()?;
        self.render(0.0).map(drop)
    }

    /// The start of every seek: the frame's tags make way for the seek's, and live play stops
    /// before anything can fail, so a failed replay never hands live play a cart whose `init`
    /// did not finish.
    fn begin_seek(&mut self) {
        self.frame_tags.clear();
        self.keep_boot_tags = false;
        self.paused = true;
    }

    /// Refuses to run or draw a cart that panicked, or that a replay built and whose `init`
    /// failed.
    fn refuse_half_built(&self) -> Result<(), EngineError> {
        if let Some(panic) = &self.panic {
            return Err(EngineError::Panicked(panic.clone()));
        }
        if self.init_failed {
            return Err(EngineError::Init(
                "the last replay's init failed; seek from the start".to_string(),
            ));
        }
        Ok(())
    }

    /// Runs `updates` updates with no time accounting, keeps their tags off the chart, and
    /// renders with `render_alpha` 0. `progress` hears how far it has come now and then.
    fn step_and_render(
        &mut self,
        updates: u64,
        mut progress: impl FnMut(u64, u64),
    ) -> Result<(), EngineError> {
        let fixed = &mut self.fixed;
        let mut update = updater(
            &mut self.cart,
            &mut self.console,
            &mut self.updates_since_init,
            &mut self.tape,
        );
        let mut done = 0;
        let counted = move |tick| {
            let action = update(tick);
            done += 1;
            if done % SEEK_PROGRESS_EVERY == 0 {
                progress(done, updates);
            }
            action
        };
        if let Err(message) = guarded(|| fixed.step(updates, counted)) {
            return Err(self.stop(CartCall::Update, message));
        }
        self.forward_tags(false);
        self.render(0.0).map(drop)
    }

    fn restart(&mut self) -> Result<(), EngineError> {
        self.panic = None;
        self.fixed.reset();
        self.cart = match guarded(&self.factory) {
            Ok(cart) => cart,
            Err(message) => return Err(self.stop(CartCall::New, message)),
        };
        self.console.reset(self.seed);
        self.updates_since_init = 0;
        self.rewind_tape();
        if let Some(overlay) = &mut self.overlay {
            overlay.reset_chart(0);
        }
        self.init_failed = true;
        self.init()?;
        self.init_failed = false;
        Ok(())
    }

    /// A seek from the start begins the run again: the recording and the hashes start over,
    /// and a replay plays from its first tick.
    fn rewind_tape(&mut self) {
        let tape = &mut self.tape;
        if let Some(r) = &mut tape.recorder {
            r.clear();
        }
        if let Some(p) = &mut tape.player {
            p.rewind();
        }
        tape.hashes.clear();
    }

    /// Records what every update from now on sees, and hashes the frame every `hash_every`
    /// updates since init (0 keeps the hashing as it is). A replay plays from boot, so start
    /// recording before the first update; a seek from the start begins the recording again.
    pub fn start_recording(&mut self, hash_every: u64) {
        self.tape.recorder = Some(Recorder::new());
        if hash_every > 0 {
            self.log_hashes(hash_every);
        }
    }

    /// Whether the engine records what each update sees ([`Engine::start_recording`]).
    pub fn is_recording(&self) -> bool {
        self.tape.recorder.is_some()
    }

    /// The recording so far as a replay of the cart `cart` (version `cart_version`), or `None`
    /// when nothing is being recorded.
    pub fn recording(&self, cart: &str, cart_version: Option<&str>) -> Option<Replay> {
        let recorder = self.tape.recorder.as_ref()?;
        let info = ReplayInfo {
            cart: cart.to_string(),
            cart_version: cart_version.map(str::to_string),
            seed: self.seed,
            target_fps: self.settings.target_fps,
            width: self.settings.width,
            height: self.settings.height,
            args: self.args.clone(),
            hash_every: self.tape.hash_every.max(1),
        };
        Some(Replay::new(
            info,
            recorder.clone(),
            self.tape.hashes.clone(),
        ))
    }

    /// Hashes the cart's frame, rendered with `render_alpha` 0, after every `every` updates
    /// since init ([`crate::replay::frame_hash`]); 0 stops. The hashes so far are forgotten.
    pub fn log_hashes(&mut self, every: u64) {
        self.tape.hash_every = every;
        self.tape.hashes.clear();
        self.tape.hashes.reserve(RESERVED_HASHES);
    }

    /// Keeps a copy of the frame hashed after `update` updates since init (with its palette),
    /// for [`Engine::kept_frame`]: the picture behind a hash.
    pub fn keep_frame_at(&mut self, update: u64) {
        self.tape.keep_at = Some(update);
        self.tape.kept = None;
    }

    /// The frame kept by [`Engine::keep_frame_at`], once the run got there.
    pub fn kept_frame(&self) -> Option<&(Framebuffer, Palette)> {
        self.tape.kept.as_ref()
    }

    /// The frame hashes taken so far, `(updates since init, hash)` in order.
    pub fn hashes(&self) -> &[(u64, u64)] {
        &self.tape.hashes
    }

    /// The replay being played, while it has ticks left or until [`Engine::stop_replay`].
    pub fn replay(&self) -> Option<&Replay> {
        self.tape.player.as_ref().map(Player::replay)
    }

    /// Stops playing the replay: from the next update on, input is live.
    pub fn stop_replay(&mut self) {
        self.tape.player = None;
    }

    /// Pauses live play on the current frame (a player's pause): [`Engine::run`] delivers no
    /// frames until [`Engine::resume`].
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// When the clock will next deliver a frame, in host milliseconds, if it knows (see
    /// [`Clock::next_frame_ms`]).
    pub fn next_frame_ms(&self) -> Option<f64> {
        self.clock.next_frame_ms()
    }

    /// Continues live play from the paused frame. Time that passed while paused is not owed:
    /// the clock restarts ([`Clock::restart`]), so under a wall clock the first frame after
    /// resuming runs no update and a paced clock starts a new grid there; clocks that ignore
    /// timestamps carry on as they were.
    /// After a replay whose `init` failed, or once the cart panicked, the engine stays paused
    /// until a replay from the start succeeds.
    pub fn resume(&mut self) {
        if self.paused && !self.init_failed && self.panic.is_none() {
            self.paused = false;
            self.fixed.discard_leftover();
            self.clock.restart();
        }
    }
}
