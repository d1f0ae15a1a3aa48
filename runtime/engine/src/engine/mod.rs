//! The engine: one cart, its console, the fixed-step loop and a clock, driven by a host.
//!
//! This file holds the engine and its live loop; [`options`](EngineOptions) what it starts
//! with and reports, `seek` the exact frame at a time and pausing, `recording` the input it
//! records and replays, `cart_panic` the guard around every call into the cart.

use bt::host::Framebuffer;
use bt::host::{Console, TickInput};
use bt::{Cart, Palette, SaveData, Settings, SettingsError, Tag};
use bt_overlay::{FrameStats, Overlay};

use crate::clock::{Clock, WallClock};
use crate::fixed_loop::{FixedLoop, TickAction};
use crate::replay::Player;
use crate::wall_time::Instant;

pub(crate) mod cart_panic;
mod options;
mod recording;
mod rollback;
mod save_state;
mod seek;
mod snapshot;
mod travel;

use cart_panic::guarded;
pub use cart_panic::{CartCall, CartPanic};
pub use options::*;
use recording::{updater, Tape, RESERVED_HASHES};
pub use rollback::RollbackState;
pub use save_state::{
    build_of_program, set_program_bytes, state_build, SaveState, StateFile, StateFileError,
};
pub use seek::{Continued, Origin};
use snapshot::Ring;
pub use snapshot::{SnapshotError, SnapshotStats, DEFAULT_SNAPSHOT_BUDGET, FIRST_SNAPSHOT_EVERY};
pub use travel::{TravelSpan, STRETCH};

/// Builds a fresh cart. The engine calls it at boot and again for every replay from the start, so
/// no state can leak from one run into the next.
pub type CartFactory = Box<dyn Fn() -> Box<dyn Cart>>;

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
    /// Snapshots of the run, to go back to.
    ring: Ring,
    /// Seeks and rewinds that went back so far.
    restarts: u64,
    /// A travel under way ([`Engine::travel_to`]), until play goes on.
    travel: Option<travel::Travel>,
    /// The sound of the updates travels went back over, reversed, until taken; every
    /// `travel_sound_step`th sample, counted by `travel_phase`.
    travel_sound: Vec<bt::sound::Frame>,
    travel_sound_step: usize,
    travel_phase: usize,
    /// The cart's tags with the update they were placed in, while a travel log is kept: the
    /// timeline's marks. At most [`travel::MAX_MARKS`], the oldest going first.
    marks: Vec<(u64, Tag)>,
    /// This engine among all made in the process: a save state loads only into its own.
    id: u64,
    /// Whether the post-process stack runs (the player's choice; the cart's list of effects
    /// is kept either way).
    effects_on: bool,
    /// The display tier bends the overlay too (the player asked), instead of laying it over
    /// the result undistorted.
    overlay_under_effects: bool,
    /// The display's indices before the overlay, kept while a display-tier effect is set:
    /// what the effects work on (the overlay is laid over them undistorted).
    picture: Vec<u8>,
    /// What the overlay drew over the last frame, drawn apart from the cart's pixels so it is
    /// shown in its own colours ([`Engine::overlay_layer`]); `overlay_drawn` says whether it
    /// drew anything.
    overlay_layer: Framebuffer,
    overlay_drawn: bool,
    /// The display tier's tables and buffers.
    post: crate::postfx::PostProcessor,
}

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
        let settings_effects = settings.effects;
        let fixed = FixedLoop::new(settings.target_fps)
            .map_err(|_| SettingsError::TargetFps(settings.target_fps))?;
        let overlay =
            (options.overlay && settings.overlay.enabled).then(|| Overlay::new(&settings));
        let overlay_layer = match &overlay {
            Some(_) => Framebuffer::new(settings.width, settings.height),
            None => Framebuffer::new(1, 1),
        };
        let mut console = Console::new(&settings, seed);
        match (options.packed_assets, options.assets) {
            (Some(pack), _) => {
                console.set_image_loader(Box::new(crate::config::assets::Assets::pack(pack)))
            }
            (None, Some(folder)) => {
                console.set_image_loader(Box::new(crate::config::assets::Assets::folder(folder)))
            }
            (None, None) => console.set_image_loader(Box::new(crate::config::assets::Assets(
                crate::config::assets::Paths,
            ))),
        }
        console.set_args(options.args.clone());
        let boot_save = match (&options.save, &options.replay) {
            (Some(save), _) => save.as_slice(),
            (None, Some(replay)) => replay.boot_save(),
            (None, None) => &[],
        };
        console.set_boot_save(boot_save)?;
        // A replay boots as the recorded run did: its updates carry the preference after.
        let reduced_motion = options
            .replay
            .as_ref()
            .map_or(options.reduced_motion, |r| r.info.reduced_motion);
        console.input_mut().boot_reduced_motion(reduced_motion);
        let mut tape = Tape::default();
        if options.snapshot_budget > 0 {
            tape.played = Some(crate::replay::Recorder::new());
        }
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
            ring: Ring::new(options.snapshot_budget),
            restarts: 0,
            travel: None,
            travel_sound: Vec::new(),
            travel_sound_step: 1,
            travel_phase: 0,
            marks: Vec::new(),
            id: save_state::next_engine_id(),
            effects_on: options.effects && settings_effects,
            overlay_under_effects: false,
            picture: Vec::new(),
            overlay_layer,
            overlay_drawn: false,
            post: crate::postfx::PostProcessor::new(),
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
        self.keep_boot_snapshot();
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
        self.reload_assets_changed(&[])
    }

    /// As [`Engine::reload_assets`], the cart's `reload` seeing `changed` as
    /// `Update::changed_files`: the files whose change led to it, by their path in the asset
    /// folder (empty: every file may have changed).
    ///
    /// # Errors
    /// As [`Engine::reload_assets`].
    pub fn reload_assets_changed(&mut self, changed: &[String]) -> Result<(), String> {
        if let Some(panic) = &self.panic {
            return Err(panic.to_string());
        }
        self.settle_travel();
        // The files changed: a replay from boot loads the new ones, so no snapshot is one.
        self.ring.clear();
        self.ring.leave_reproducible(self.updates_since_init);
        let (cart, console) = (&mut self.cart, &mut self.console);
        console.set_changed_files(changed);
        let result = guarded(|| cart.reload(&mut console.reload_context()));
        console.set_changed_files(&[]);
        match result {
            Ok(result) => result.map_err(|e| e.to_string()),
            Err(message) => Err(self.stop(CartCall::Reload, message).to_string()),
        }
    }

    /// Starts the run again from boot keeping the save data it has now, as a player's Restart
    /// does (PICO-8 keeps cartdata across a reset): the save data becomes what the run boots
    /// with, the old run's snapshots are forgotten (a replay from boot now boots with other
    /// data), the cart is built again and `init` runs. Paused afterwards, as after any seek;
    /// a recording starts over, its replay booting with this save data.
    ///
    /// # Errors
    /// As [`Engine::render_at`] from the start.
    pub fn restart_keeping_save(&mut self) -> Result<(), EngineError> {
        self.settle_travel();
        let mut now = [0; SaveData::CAPACITY];
        now.copy_from_slice(self.console.save().bytes());
        self.console
            .set_boot_save(&now)
            .map_err(|e| EngineError::Init(e.to_string()))?;
        self.ring.clear();
        self.render_at(0.0, Origin::Start)
    }

    /// Replaces the palette the cart booted with (and the live one), as when the cart's palette
    /// file changed on disk.
    pub fn replace_palette(&mut self, palette: Palette) {
        // The boot palette changed: no snapshot is what a replay from boot gives.
        self.settle_travel();
        self.ring.clear();
        self.ring.leave_reproducible(self.updates_since_init);
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

    /// The cart arguments the run started with, in order, as a replay records them.
    pub fn args(&self) -> &[(String, String)] {
        &self.args
    }

    /// The tick counter, as the cart sees it.
    pub fn ticks(&self) -> u64 {
        self.fixed.ticks()
    }

    /// How many times a seek from the start ([`Origin::Start`]), a seek behind the current
    /// update or a rewind put the run back: each put the console, its save data included, back
    /// as it was at boot or at a snapshot.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// Updates run since `init`, whatever `reset_ticks` did.
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

    /// The update (counted since `init`, as [`Engine::updates_since_init`]) after which the cart
    /// quit with `Update::quit`, if it did. The engine then runs no more updates: live play
    /// pauses on the last frame, and seeks stop there.
    pub fn quit_at(&self) -> Option<u64> {
        self.console
            .quit_requested()
            .then_some(self.updates_since_init)
    }

    /// The panic that stopped the cart, if it panicked: which call, at which tick, and its
    /// message. The engine is then paused, [`Engine::resume`], [`Engine::step`],
    /// [`Engine::redraw`] and a seek from the current tick are refused, and the cart is not
    /// called again, until [`Engine::render_at`] replays it from the start.
    pub fn cart_panic(&self) -> Option<&CartPanic> {
        self.panic.as_ref()
    }

    /// What the cart says a test should know about the game now ([`bt::Cart::test_state`]);
    /// `None` when it offers nothing, or panicked (now or while answering).
    pub fn test_state(&self) -> Option<String> {
        if self.panic.is_some() {
            return None;
        }
        guarded(|| self.cart.test_state()).ok().flatten()
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

    /// The console, for the host to feed input. What the host does through it is input from
    /// outside: from this update on, the run is no longer one a replay from boot reproduces,
    /// so seeks stop reusing its snapshots (see [`Engine::rewind`]) until a seek from the start.
    pub fn console_mut(&mut self) -> &mut Console {
        self.ring.leave_reproducible(self.updates_since_init);
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
        self.settle_travel();
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
            &mut self.ring,
        );
        let timing = match guarded(|| fixed.frame(delta_ms, update)) {
            Ok(timing) => timing,
            Err(message) => {
                self.stop(CartCall::Update, message);
                return None;
            }
        };
        let update_ms = started.elapsed().as_secs_f64() * 1000.0;
        if self.console.quit_requested() {
            self.paused = true;
        }
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
                draw_counts: self.console.draw_counts(),
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
        let (ticks, updates) = (self.fixed.ticks(), self.updates_since_init);
        let marking = self.tape.played.is_some();
        for tag in self.console.drain_tags() {
            if marking {
                // The update it was placed in: as many before this one as its tick is.
                let update = updates.saturating_sub(ticks.saturating_sub(tag.tick));
                travel::keep_mark(&mut self.marks, update, &tag);
            }
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
        self.keep_picture();
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

    /// Runs the pixel tier on what the cart drew and keeps the picture the display tier works
    /// on, before the overlay is drawn over it.
    fn keep_picture(&mut self) {
        self.picture.clear();
        if !self.effects_on {
            return;
        }
        self.console.apply_pixel_effects();
        if self.console.post_effects().has_display_tier() {
            self.picture
                .extend_from_slice(self.console.framebuffer().pixels());
        }
    }

    /// Whether the post-process stack runs ([`bt::Effect`]): on unless the player turned it
    /// off.
    pub fn effects_enabled(&self) -> bool {
        self.effects_on
    }

    /// Turns the post-process stack on or off, from the next frame drawn. The cart's effects
    /// stay set; with the stack off the picture is what the cart drew, scaled.
    pub fn set_effects_enabled(&mut self, on: bool) {
        self.effects_on = on;
    }

    /// Whether the display tier bends the overlay as well ([`Engine::set_overlay_under_effects`]).
    pub fn overlay_under_effects(&self) -> bool {
        self.overlay_under_effects
    }

    /// Puts the overlay under the display tier's effects (`true`: the whole screen as a CRT
    /// would show it) or over them, undistorted (`false`, the default), from the next picture
    /// made. A presentation choice of the player's: the cart's pixels are the same either way.
    pub fn set_overlay_under_effects(&mut self, under: bool) {
        self.overlay_under_effects = under;
    }

    /// The output size: the display size times the settings' output scale
    /// ([`bt::Settings::output_scale`]).
    pub fn output_size(&self) -> (u32, u32) {
        self.settings.output_size()
    }

    /// Whether the frame last drawn has a display tier to show: a display-tier effect is set
    /// and the stack is on. Without one, the picture at the output size is the framebuffer
    /// scaled, and a host may as well scale the framebuffer itself.
    pub fn has_display_tier(&self) -> bool {
        !self.picture.is_empty()
    }

    /// The frame last drawn at the output size ([`Engine::output_size`]) as opaque RGBA, into
    /// `out` (resized to fit: a buffer reused from frame to frame stops allocating): the
    /// display tier's effects over the cart's picture, with the overlay laid on top
    /// undistorted (or bent with it, when the player asked: [`Engine::set_overlay_under_effects`]).
    /// Without a display-tier effect (or with the stack off) it is the
    /// framebuffer, overlay included, scaled. Returns the size.
    ///
    /// It is a function of the frame's indices, palette, effects and tick alone, so the
    /// window, the web page and `bt shot --size output` show the same bytes.
    pub fn render_output(&mut self, out: &mut Vec<u8>) -> (u32, u32) {
        let fb = self.console.framebuffer();
        let with_overlay = fb.pixels();
        let plain = crate::postfx::PostEffects::default();
        let (picture, effects) = if self.picture.len() != with_overlay.len() {
            (with_overlay, &plain)
        } else if self.overlay_under_effects {
            // The overlay is part of the picture the effects bend: nothing is laid over after.
            (with_overlay, self.console.post_effects())
        } else {
            (self.picture.as_slice(), self.console.post_effects())
        };
        let frame = crate::postfx::Frame {
            picture,
            with_overlay,
            display: (fb.width(), fb.height()),
            output: self.settings.output_size(),
            filter: self.settings.upscale,
            palette: self.console.palette(),
            effects,
            tick: self.fixed.ticks(),
            rate: self.settings.target_fps,
        };
        let size = self.post.render(&frame, out);
        // Over the effects, the overlay shows in its own colours; bent with them, it is part
        // of the picture the effects were given.
        if self.picture.len() != with_overlay.len() || !self.overlay_under_effects {
            if let Some(layer) = self.overlay_layer() {
                layer.paint_at(out, (fb.width(), fb.height()), size);
            }
        }
        size
    }

    /// The overlay over the frame last drawn, in its own colours: the indices it drew (0
    /// where the frame shows the cart's pixel) and the palette the cart booted with, which the
    /// cart's palette effects and later palette changes leave alone, so the overlay and the
    /// host's notices stay readable through a flash or a fade. `None` when it drew nothing.
    /// The framebuffer holds the same indices; every picture the host makes paints this over
    /// it (the palette grid's swatches excepted: they show the cart's palette as it is shown).
    pub fn overlay_layer(&self) -> Option<crate::export::png::OverlayLayer<'_>> {
        self.overlay_drawn
            .then(|| crate::export::png::OverlayLayer {
                pixels: self.overlay_layer.pixels(),
                frame: self.console.framebuffer().pixels(),
                palette: &self.settings.palette,
            })
    }

    /// The frame last drawn at the display's size as opaque RGBA into `out` (resized to
    /// fit): the framebuffer through the palette it is shown with, the overlay in its own
    /// colours ([`Engine::overlay_layer`]). Returns the size.
    pub fn display_rgba(&self, out: &mut Vec<u8>) -> (u32, u32) {
        let fb = self.console.framebuffer();
        out.resize(fb.pixels().len() * 4, 0);
        self.console.palette().write_rgba(fb.pixels(), out);
        if let Some(layer) = self.overlay_layer() {
            layer.paint(out, fb.width(), 1);
        }
        (fb.width(), fb.height())
    }

    /// [`Engine::display_rgba`] as PNG bytes, each pixel `scale × scale`.
    ///
    /// # Errors
    /// A bad scale, or a picture too large or not encodable.
    pub fn display_png(&self, scale: u32) -> Result<Vec<u8>, crate::export::png::CaptureError> {
        let fb = self.console.framebuffer();
        crate::export::png::encode_png_under(
            fb,
            self.console.palette(),
            self.overlay_layer(),
            scale,
        )
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
            overlay,
            console,
            overlay_layer,
            overlay_drawn,
            ..
        } = self;
        *overlay_drawn = false;
        if let Some(overlay) = overlay {
            overlay.set_replay(replay);
            overlay.set_sound_meter(console.sound_meter());
            overlay.set_palette_len(console.palette().len());
            // Drawn apart, then laid over the cart's pixels: the framebuffer is as if drawn
            // on it, and the layer says which pixels are the overlay's.
            let fb = console.framebuffer_mut();
            if (overlay_layer.width(), overlay_layer.height()) != (fb.width(), fb.height()) {
                *overlay_layer = Framebuffer::new(fb.width(), fb.height());
            }
            overlay_layer.clear(0);
            overlay.draw(overlay_layer);
            *overlay_drawn = fb.lay_over(overlay_layer);
            if let Some(swatches) = overlay.palette_swatches() {
                // The grid shows the cart's palette, slot 0 included, as the frame shows it.
                fb.copy_rect_from(overlay_layer, swatches);
                overlay_layer.clear_rect(swatches, 0);
            }
        }
    }
}
