//! The `Cart` trait and the two contexts a cart is handed: [`Update`] and [`Render`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::gfx::{self, Framebuffer, Rect};
use crate::palette_fx::PaletteEffects;
use crate::sprite::{AssetError, AssetErrorKind, ImageLoader, SpriteParams, SpriteSheet};
use crate::{Color32, Easing, Input, Palette, PaletteError, Rng, Settings, Timer, TimerError};

/// A failure a cart reports from [`Cart::init`]. Any error type converts into it with `?`.
pub struct CartError {
    message: String,
}

impl CartError {
    /// An error with a message of the cart's own.
    pub fn msg(message: impl Into<String>) -> CartError {
        CartError {
            message: message.into(),
        }
    }
}

impl<E: std::error::Error> From<E> for CartError {
    fn from(err: E) -> CartError {
        CartError::msg(err.to_string())
    }
}

impl fmt::Display for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CartError({:?})", self.message)
    }
}

/// A game for BT.
///
/// The console calls, in order: [`configure`](Cart::configure) once, [`init`](Cart::init) once,
/// then each displayed frame zero or more [`update`](Cart::update)s (the fixed step, `target_fps`
/// times a second however fast the display runs) followed by exactly one
/// [`render`](Cart::render).
///
/// Everything the game *is* changes in `update`. `render` gets `&self` and a context with no
/// input edges and no random numbers, so drawing can never change what happens next: the same
/// seed and the same per-tick input give the same run at any frame rate.
pub trait Cart {
    /// The console this cart wants. Called once, before `init`, on a freshly built cart.
    fn configure(&self) -> Settings {
        Settings::default()
    }

    /// Sets up the game. Runs with `ticks() == 0`, and again on a freshly built cart whenever the
    /// console replays from the start (`render_at` from the start).
    ///
    /// # Errors
    /// A [`CartError`] stops the console with its message.
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let _ = ctx;
        Ok(())
    }

    /// Advances the game by one fixed tick of [`Update::delta_seconds`].
    fn update(&mut self, ctx: &mut Update<'_>);

    /// Draws the current state. The framebuffer starts each frame at index 0.
    fn render(&self, ctx: &mut Render<'_>);

    /// Loads the cart's files again after one changed on disk, keeping the game's state.
    ///
    /// `bt run` calls it between updates when a file in the cart's asset folder changes, so a
    /// sprite sheet saved from a paint program shows in the running game within a second. Load
    /// again what `init` loaded (a shared `load_assets` method serves both), and assign a new
    /// asset only once it loaded, so a broken file leaves the last good one in place. Headless
    /// commands never call it: they load assets once, in `init`.
    ///
    /// # Errors
    /// A [`CartError`] is shown on screen and the game plays on with what it had.
    fn reload(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let _ = ctx;
        Ok(())
    }

    /// Rows of the cart's own to show in the overlay; called only while the overlay is visible.
    fn overlay_rows(&self, rows: &mut OverlayRows) {
        let _ = rows;
    }
}

/// A tag placed on the overlay's timing chart by [`Update::assign_tag`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tick it was placed at.
    pub tick: u64,
    /// Its label.
    pub label: String,
}

/// Rows a cart adds to the overlay: a left text and an optional right text each.
///
/// The buffers are reused from frame to frame, so writing rows does not allocate once their
/// texts have reached their longest.
///
/// ```
/// use bt::OverlayRows;
///
/// let mut rows = OverlayRows::default();
/// rows.push(format_args!("Score {}", 120), "");
/// assert_eq!(rows.iter().next(), Some(("Score 120", "")));
/// ```
#[derive(Debug, Default)]
pub struct OverlayRows {
    rows: Vec<(String, String)>,
    len: usize,
}

impl OverlayRows {
    /// Adds a row.
    pub fn push(&mut self, left: impl fmt::Display, right: impl fmt::Display) {
        use fmt::Write as _;
        if self.len == self.rows.len() {
            self.rows.push((String::new(), String::new()));
        }
        let (l, r) = &mut self.rows[self.len];
        l.clear();
        r.clear();
        let _ = write!(l, "{left}");
        let _ = write!(r, "{right}");
        self.len += 1;
    }

    /// Removes all rows, keeping their buffers.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The rows, first pushed first.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.rows[..self.len]
            .iter()
            .map(|(l, r)| (l.as_str(), r.as_str()))
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A cart argument (`bt … --arg name=value`) whose value could not be read as the type wanted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("argument {name}={value}: {reason}")]
pub struct ArgError {
    /// The argument's name.
    pub name: String,
    /// The value given.
    pub value: String,
    /// Why it was refused.
    pub reason: String,
}

/// The host's image loader, if any (kept apart so `Console` can still derive `Debug`).
struct Loader(Option<Box<dyn ImageLoader>>);

impl fmt::Debug for Loader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Loader(set)"
        } else {
            "Loader(none)"
        })
    }
}

/// The timing facts both contexts share.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Clock {
    ticks: u64,
    target_fps: f64,
    render_alpha: f64,
}

/// Everything of the console that a cart can see, owned by the host.
///
/// Hosts (the runtime) keep one `Console`, hand carts the contexts it lends, and read back the
/// framebuffer, the tags and the tick-reset request. Carts never hold one themselves.
#[derive(Debug)]
pub struct Console {
    clock: Clock,
    rng: Rng,
    input: Input,
    palette: Palette,
    boot_palette: Palette,
    camera: (i32, i32),
    fb: Framebuffer,
    /// Drawing calls the last render made.
    draw_calls: u32,
    tags: Vec<Tag>,
    reset_requested: bool,
    effects: PaletteEffects,
    loader: Loader,
    args: Vec<(String, String)>,
}

impl Console {
    /// A console for validated `settings`, its generator seeded with `seed`.
    pub fn new(settings: &Settings, seed: u64) -> Console {
        Console {
            clock: Clock {
                ticks: 0,
                target_fps: settings.target_fps,
                render_alpha: 0.0,
            },
            rng: Rng::new(seed),
            input: Input::default(),
            palette: settings.palette.clone(),
            boot_palette: settings.palette.clone(),
            camera: (0, 0),
            fb: Framebuffer::new(settings.width, settings.height),
            draw_calls: 0,
            tags: Vec::new(),
            reset_requested: false,
            effects: PaletteEffects::new(settings.target_fps, &settings.palette),
            loader: Loader(None),
            args: Vec::new(),
        }
    }

    /// Gives carts a way to load images ([`Update::load_indexed`], [`Update::decode_indexed`]).
    pub fn set_image_loader(&mut self, loader: Box<dyn ImageLoader>) {
        self.loader = Loader(Some(loader));
    }

    /// The cart arguments carts read with [`Update::arg`], as `(name, value)` pairs. A name given
    /// twice keeps its last value.
    pub fn set_args(&mut self, args: Vec<(String, String)>) {
        self.args = args;
    }

    /// Replaces the boot palette and the live one, as when the cart's palette file changed on
    /// disk while it runs. Palette effects carry on over the new colours.
    pub fn replace_palette(&mut self, palette: Palette) {
        self.boot_palette.clone_from(&palette);
        self.palette = palette;
    }

    /// Advances the palette effects by one fixed update. Hosts call it once per update, right
    /// after the cart's `update` (not after `init`).
    pub fn step_effects(&mut self) {
        self.effects.step(&mut self.palette);
    }

    /// Whether any palette effect is running.
    pub fn effects_active(&self) -> bool {
        self.effects.is_active()
    }

    /// Puts everything back as it was at boot: generator reseeded with `seed`, boot palette,
    /// camera at the origin, no input, no pending tags, a blank framebuffer.
    pub fn reset(&mut self, seed: u64) {
        self.clock.ticks = 0;
        self.clock.render_alpha = 0.0;
        self.rng.reseed(seed);
        self.input.clear();
        self.palette.clone_from(&self.boot_palette);
        self.camera = (0, 0);
        self.fb.clear(0);
        self.fb.clip_reset();
        self.tags.clear();
        self.reset_requested = false;
        self.effects.reset();
    }

    /// The context for one update (or `init`) at `ticks`. Makes the input edges collected since
    /// the previous update visible.
    pub fn update_context(&mut self, ticks: u64) -> Update<'_> {
        self.clock.ticks = ticks;
        self.input.begin_update();
        Update { con: self }
    }

    /// The context for `init`: like an update, but input edges stay queued for the first update.
    pub fn init_context(&mut self) -> Update<'_> {
        self.clock.ticks = 0;
        Update { con: self }
    }

    /// The context for [`Cart::reload`]: the clock as it is, and no new input edges.
    pub fn reload_context(&mut self) -> Update<'_> {
        Update { con: self }
    }

    /// The context for one render at `ticks` with `render_alpha` in `[0, 1)`. The framebuffer
    /// is blanked to index 0 and the clip reset first.
    pub fn render_context(&mut self, ticks: u64, render_alpha: f64) -> Render<'_> {
        self.clock.ticks = ticks;
        self.clock.render_alpha = render_alpha;
        self.fb.clear(0);
        self.fb.clip_reset();
        self.effects.refresh_shown(&self.palette);
        self.draw_calls = 0;
        Render {
            clock: self.clock,
            palette: self.effects.shown(&self.palette),
            camera: self.camera,
            fb: &mut self.fb,
            draw_calls: &mut self.draw_calls,
        }
    }

    /// How many drawing calls (clears, shapes, text, sprites, tiles) the last render made: the
    /// overlay's `Draw Calls` figure.
    pub fn draw_calls(&self) -> u32 {
        self.draw_calls
    }

    /// Whether the cart asked for `ticks_reset` since the last call; clears the request.
    pub fn take_reset_request(&mut self) -> bool {
        std::mem::take(&mut self.reset_requested)
    }

    /// Tags placed since the host last drained them.
    pub fn drain_tags(&mut self) -> std::vec::Drain<'_, Tag> {
        self.tags.drain(..)
    }

    /// The framebuffer.
    pub fn framebuffer(&self) -> &Framebuffer {
        &self.fb
    }

    /// The framebuffer, for the host's own drawing (the overlay).
    pub fn framebuffer_mut(&mut self) -> &mut Framebuffer {
        &mut self.fb
    }

    /// The palette to show: the live palette, or a running flash over it.
    pub fn palette(&self) -> &Palette {
        self.effects.shown(&self.palette)
    }

    /// The input state, for the host to feed.
    pub fn input_mut(&mut self) -> &mut Input {
        &mut self.input
    }

    /// The camera offset set by the cart.
    pub fn camera(&self) -> (i32, i32) {
        self.camera
    }
}

macro_rules! timing_methods {
    () => {
        /// The tick counter: how many updates have completed since boot or the last
        /// `ticks_reset`. The first update sees 0.
        pub fn ticks(&self) -> u64 {
            self.clock().ticks
        }

        /// Fixed updates per second.
        pub fn target_fps(&self) -> f64 {
            self.clock().target_fps
        }

        /// Seconds per fixed update: `1 / target_fps`.
        pub fn delta_seconds(&self) -> f64 {
            1.0 / self.clock().target_fps
        }

        /// Simulated seconds: `ticks × delta_seconds`.
        pub fn time_seconds(&self) -> f64 {
            self.clock().ticks as f64 / self.clock().target_fps
        }
    };
}

/// What `init` and `update` are handed: timing, input, randomness, palette, camera, tags.
///
/// Hosts make one with [`Console::update_context`]; carts just use it. The camera, the palette
/// and its effects:
///
/// ```
/// use bt::{Color32, Console, Easing, Palette, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// ctx.camera_set(700, 40);
/// ctx.camera_clamp((640, 480), (320, 240));
/// assert_eq!(ctx.camera(), (320, 40));
/// ctx.camera_reset();
/// assert_eq!(ctx.camera(), (0, 0));
///
/// ctx.palette_swap(1, 2)?;
/// ctx.palette_cycle(8, 11, 4.0)?;
/// ctx.palette_fade(&Palette::cga(), 500.0, Easing::QuadOut)?;
/// ctx.palette_flash(Color32::hex(0xffffff), 50.0)?;
/// ctx.palette_clear_effects();
/// for _ in 0..3 {
///     con.step_effects(); // the host does this after every update
/// }
/// assert_eq!(con.palette().get(2), Palette::pico8().get(1), "the swap stays");
/// # Ok::<(), bt::PaletteError>(())
/// ```
///
/// Cart arguments, which hosts set from `--arg name=value`:
///
/// ```
/// use bt::{Console, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.set_args(vec![("level".into(), "3".into()), ("mode".into(), "hard".into())]);
/// let ctx = con.update_context(0);
/// assert_eq!(ctx.arg("mode"), Some("hard"));
/// assert_eq!(ctx.arg_or("level", 1u8), Ok(3));
/// assert_eq!(ctx.arg_or("lives", 5u8), Ok(5));
/// assert!(ctx.arg_or::<u8>("mode", 0).is_err());
/// ```
///
/// Loading a sprite sheet goes through the image loader the host installed; here a stand-in
/// that "decodes" any bytes into one red pixel:
///
/// ```
/// use bt::{AssetError, Color32, Console, ImageLoader, RgbaImage, Settings};
///
/// struct OneRedPixel;
/// impl ImageLoader for OneRedPixel {
///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
///         self.decode(path, &[])
///     }
///     fn decode(&self, _name: &str, _bytes: &[u8]) -> Result<RgbaImage, AssetError> {
///         Ok(RgbaImage { width: 1, height: 1, pixels: vec![255, 0, 0, 255] })
///     }
/// }
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.set_image_loader(Box::new(OneRedPixel));
/// let mut ctx = con.update_context(0);
/// let sheet = ctx.load_indexed("red.png", 9)?;
/// assert_eq!(sheet.get(0, 0), Some(9));
/// assert_eq!(ctx.palette().get(9), Some(Color32::rgb(255, 0, 0)));
/// let again = ctx.decode_indexed("built-in.png", b"any bytes", 10)?;
/// assert_eq!(again.palette_slots(), 10..11);
/// # Ok::<(), bt::AssetError>(())
/// ```
pub struct Update<'a> {
    con: &'a mut Console,
}

impl Update<'_> {
    fn clock(&self) -> &Clock {
        &self.con.clock
    }

    timing_methods!();

    /// The display size in pixels.
    pub fn display_size(&self) -> (u32, u32) {
        (self.con.fb.width(), self.con.fb.height())
    }

    /// Starts the tick counter again: the *next* update sees `ticks() == 0`. Timers re-base by
    /// themselves when they see the counter go back.
    pub fn ticks_reset(&mut self) {
        self.con.reset_requested = true;
    }

    /// Places a tag on the overlay's timing chart at the current tick. An empty label becomes
    /// `"Untitled"`.
    pub fn assign_tag(&mut self, label: &str) {
        let label = if label.is_empty() { "Untitled" } else { label };
        let tick = self.con.clock.ticks;
        self.con.tags.push(Tag {
            tick,
            label: label.to_string(),
        });
    }

    /// The seeded random number generator.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.con.rng
    }

    /// A timer that fires every `interval_ticks` from now.
    ///
    /// # Errors
    /// [`TimerError::ZeroInterval`] when `interval_ticks` is 0.
    pub fn timer(&self, interval_ticks: u64) -> Result<Timer, TimerError> {
        Timer::new(interval_ticks, self.ticks())
    }

    /// [`Timer::fire_if_elapsed`] at the current tick.
    pub fn fire_if_elapsed(&self, timer: &mut Timer) -> bool {
        timer.fire_if_elapsed(self.ticks())
    }

    /// [`Timer::reset`] at the current tick.
    pub fn timer_reset(&self, timer: &mut Timer) {
        timer.reset(self.ticks());
    }

    /// [`Timer::elapsed_ticks`] at the current tick.
    pub fn timer_elapsed(&self, timer: &Timer) -> u64 {
        timer.elapsed_ticks(self.ticks())
    }

    /// [`Timer::remaining_ticks`] at the current tick.
    pub fn timer_remaining(&self, timer: &Timer) -> u64 {
        timer.remaining_ticks(self.ticks())
    }

    /// Everything the host fed in for this update: keys, pointer, axes, typed text.
    pub fn input(&self) -> &Input {
        &self.con.input
    }

    /// Whether any button of the mask is held (player 0–3).
    pub fn is_down(&self, buttons: u32, player: usize) -> bool {
        self.con.input.is_down(buttons, player)
    }

    /// Whether any button of the mask went down since the previous update.
    pub fn is_pressed(&self, buttons: u32, player: usize) -> bool {
        self.con.input.is_pressed(buttons, player)
    }

    /// Whether any button of the mask came up since the previous update.
    pub fn is_released(&self, buttons: u32, player: usize) -> bool {
        self.con.input.is_released(buttons, player)
    }

    /// The live palette, to change colours.
    pub fn palette_mut(&mut self) -> &mut Palette {
        &mut self.con.palette
    }

    /// The live palette.
    pub fn palette(&self) -> &Palette {
        &self.con.palette
    }

    /// Offsets every later draw call by `(-x, -y)`; persists until changed.
    pub fn camera_set(&mut self, x: i32, y: i32) {
        self.con.camera = (x, y);
    }

    /// Puts the camera back at the origin.
    pub fn camera_reset(&mut self) {
        self.con.camera = (0, 0);
    }

    /// The camera offset.
    pub fn camera(&self) -> (i32, i32) {
        self.con.camera
    }

    /// Keeps the camera inside a world of `world` pixels seen through a view of `view` pixels:
    /// each axis is clamped to `0..=world - view` (to 0 when the world is the smaller). See
    /// [`camera_clamp`].
    pub fn camera_clamp(&mut self, world: (i32, i32), view: (i32, i32)) {
        self.con.camera = camera_clamp(self.con.camera, world, view);
    }

    /// The value of cart argument `name` (`bt … --arg name=value`), or `None` when not given.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.con
            .args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Cart argument `name` read as a `T`, or `default` when not given.
    ///
    /// # Errors
    /// [`ArgError`] naming the argument and its value when it does not parse as a `T`. It
    /// converts into a [`CartError`] with `?` in `init`.
    pub fn arg_or<T>(&self, name: &str, default: T) -> Result<T, ArgError>
    where
        T: FromStr,
        T::Err: fmt::Display,
    {
        match self.arg(name) {
            None => Ok(default),
            Some(value) => value.parse().map_err(|e: T::Err| ArgError {
                name: name.to_string(),
                value: value.to_string(),
                reason: e.to_string(),
            }),
        }
    }

    /// Loads the image file at `path` as a sprite sheet (a relative path is looked up in the
    /// cart's asset folder, `assets/` beside its `cart.toml`, or in the working directory when
    /// the cart has none), registering its colours into the live palette from `start_slot` on (see
    /// [`SpriteSheet::from_rgba`]).
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing file, not a PNG, larger than 8192 px a side,
    /// more colours than free slots, or a host without an image loader.
    pub fn load_indexed(
        &mut self,
        path: &str,
        start_slot: usize,
    ) -> Result<SpriteSheet, AssetError> {
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .load(path)?;
        let con = &mut *self.con;
        SpriteSheet::from_rgba(
            path,
            image.width,
            image.height,
            &image.pixels,
            &mut con.palette,
            start_slot,
        )
    }

    /// Like [`Update::load_indexed`] for an image already in memory, such as one built into the
    /// cart with `include_bytes!`. `name` is used in errors.
    ///
    /// # Errors
    /// As [`Update::load_indexed`], naming `name`.
    pub fn decode_indexed(
        &mut self,
        name: &str,
        bytes: &[u8],
        start_slot: usize,
    ) -> Result<SpriteSheet, AssetError> {
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?
            .decode(name, bytes)?;
        let con = &mut *self.con;
        SpriteSheet::from_rgba(
            name,
            image.width,
            image.height,
            &image.pixels,
            &mut con.palette,
            start_slot,
        )
    }

    /// Rotates the colours of slots `start..=end` by `steps_per_second` (fractions carry over
    /// from update to update). Forward (positive) steps move each colour one slot down, the first
    /// wrapping round to `end`; negative speeds turn the other way. Runs until cleared; a new
    /// cycle on the same range replaces the old one.
    ///
    /// # Errors
    /// [`PaletteError::BadRange`] unless `start < end < palette size`,
    /// [`PaletteError::BadSpeed`] for a speed that is not finite,
    /// [`PaletteError::TooManyCycles`] past 16 cycles.
    pub fn palette_cycle(
        &mut self,
        start: usize,
        end: usize,
        steps_per_second: f64,
    ) -> Result<(), PaletteError> {
        let con = &mut *self.con;
        con.effects
            .cycle(&con.palette, start, end, steps_per_second)
    }

    /// Fades every slot from its colour now to the same slot of `target` over `duration_ms`,
    /// shaped by `easing`. Slots `target` lacks keep their colour. At the end the palette holds
    /// exactly `target`'s colours.
    ///
    /// # Errors
    /// [`PaletteError::BadDuration`] for a negative, NaN or infinite duration.
    pub fn palette_fade(
        &mut self,
        target: &Palette,
        duration_ms: f64,
        easing: Easing,
    ) -> Result<(), PaletteError> {
        let end = self.con.palette.len() - 1;
        self.palette_fade_range(0, end, target, duration_ms, easing)
    }

    /// Like [`Update::palette_fade`] for slots `start..=end` only. A new fade of a slot replaces
    /// the one running there.
    ///
    /// # Errors
    /// [`PaletteError::BadRange`] unless `start <= end < palette size`,
    /// [`PaletteError::BadDuration`].
    pub fn palette_fade_range(
        &mut self,
        start: usize,
        end: usize,
        target: &Palette,
        duration_ms: f64,
        easing: Easing,
    ) -> Result<(), PaletteError> {
        let con = &mut *self.con;
        con.effects
            .fade_range(&con.palette, start, end, target, duration_ms, easing)
    }

    /// Shows every slot but 0 as `color` for `duration_ms`, then the palette as it is by then.
    /// The live palette (what [`Update::palette`] reads) is not changed; only what is shown.
    ///
    /// # Errors
    /// [`PaletteError::BadDuration`].
    pub fn palette_flash(&mut self, color: Color32, duration_ms: f64) -> Result<(), PaletteError> {
        let con = &mut *self.con;
        con.effects.flash(&con.palette, color, duration_ms)
    }

    /// Swaps the colours of slots `a` and `b` now.
    ///
    /// # Errors
    /// [`PaletteError::SlotOutOfRange`].
    pub fn palette_swap(&mut self, a: usize, b: usize) -> Result<(), PaletteError> {
        self.con.palette.swap(a, b)
    }

    /// Stops every cycle, fade and flash. Colours stay as the effects left them; a flash simply
    /// stops showing.
    pub fn palette_clear_effects(&mut self) {
        self.con.effects.clear();
    }
}

/// `camera` clamped per axis to `0..=world - view` (0 when the world is smaller than the view),
/// so a view of size `view` never shows past the edges of the world.
///
/// ```
/// use bt::camera_clamp;
///
/// assert_eq!(camera_clamp((500, 300), (640, 480), (320, 240)), (320, 240));
/// assert_eq!(camera_clamp((100, 100), (250, 200), (200, 150)), (50, 50));
/// assert_eq!(camera_clamp((-9, 7), (100, 100), (320, 240)), (0, 0));
/// ```
pub fn camera_clamp(camera: (i32, i32), world: (i32, i32), view: (i32, i32)) -> (i32, i32) {
    let axis = |c: i32, w: i32, v: i32| {
        let max = (i64::from(w) - i64::from(v)).max(0);
        i64::from(c).clamp(0, max) as i32
    };
    (
        axis(camera.0, world.0, view.0),
        axis(camera.1, world.1, view.1),
    )
}

/// What `render` is handed: read-only timing and palette, and drawing.
///
/// Drawing goes through the camera set in `update`; the framebuffer starts every frame blank.
///
/// ```
/// use bt::{Console, Rect, Settings, SpriteParams, SpriteSheet, FLIP_H};
///
/// let mut con = Console::new(&Settings::default().display(32, 32), 0);
/// let sheet = SpriteSheet::from_indexed(2, 1, vec![8, 0])?;
/// let mut ctx = con.render_context(0, 0.0);
/// ctx.clear(1);
/// ctx.clip_set(Rect::new(0, 0, 16, 32));
/// assert_eq!(ctx.clip(), Rect::new(0, 0, 16, 32));
/// ctx.draw_rect_fill(Rect::new(10, 0, 20, 4), 3); // cut at x = 16
/// ctx.clip_reset();
/// ctx.draw_circle(20, 20, 3, 7);
/// ctx.draw_circle_fill(20, 20, 2, 9);
/// ctx.clear_rect(Rect::new(0, 30, 32, 2), 0);
/// ctx.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), (4, 10), SpriteParams::new().flags(FLIP_H));
/// ctx.draw_tile(&sheet.with_tile_size(1, 1), 0, (0, 0), SpriteParams::new().scale(2));
/// let (w, h) = ctx.system_print_measure("hi\nthere");
/// assert_eq!((w, h), (30, 28));
///
/// let fb = con.framebuffer();
/// assert_eq!(fb.get(15, 0), Some(3));
/// assert_eq!(fb.get(16, 0), Some(1), "outside the clip");
/// assert_eq!((fb.get(4, 10), fb.get(5, 10)), (Some(1), Some(8)), "mirrored");
/// assert_eq!(fb.get(1, 1), Some(8), "tile 0 at scale 2");
/// assert_eq!(fb.get(20, 17), Some(7));
/// assert_eq!(fb.get(0, 31), Some(0));
/// # Ok::<(), bt::AssetError>(())
/// ```
pub struct Render<'a> {
    clock: Clock,
    palette: &'a Palette,
    camera: (i32, i32),
    fb: &'a mut Framebuffer,
    draw_calls: &'a mut u32,
}

impl Render<'_> {
    fn clock(&self) -> &Clock {
        &self.clock
    }

    timing_methods!();

    /// How far the time left over after this frame's updates reaches into the next update, in
    /// `[0, 1)`. Draw moving things at `previous + (current - previous) * render_alpha` for
    /// smooth motion at any refresh rate.
    pub fn render_alpha(&self) -> f64 {
        self.clock.render_alpha
    }

    /// [`Timer::elapsed_ticks`] at the current tick, to draw a timer's progress.
    pub fn timer_elapsed(&self, timer: &Timer) -> u64 {
        timer.elapsed_ticks(self.ticks())
    }

    /// [`Timer::remaining_ticks`] at the current tick, to draw a timer's progress.
    pub fn timer_remaining(&self, timer: &Timer) -> u64 {
        timer.remaining_ticks(self.ticks())
    }

    /// The display size in pixels.
    pub fn display_size(&self) -> (u32, u32) {
        (self.fb.width(), self.fb.height())
    }

    /// The palette.
    pub fn palette(&self) -> &Palette {
        self.palette
    }

    /// The camera offset set in `update`.
    pub fn camera(&self) -> (i32, i32) {
        self.camera
    }

    fn at(&self, x: i32, y: i32) -> (i64, i64) {
        (
            i64::from(x) - i64::from(self.camera.0),
            i64::from(y) - i64::from(self.camera.1),
        )
    }

    /// Fills the whole screen with `index` (camera and clip do not apply).
    pub fn clear(&mut self, index: u8) {
        *self.draw_calls += 1;
        self.fb.clear(index);
    }

    /// Sets one pixel.
    pub fn draw_pixel(&mut self, x: i32, y: i32, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(x, y);
        self.fb.pixel_wide(x, y, index);
    }

    /// Draws a line, both end points included.
    pub fn draw_line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, index: u8) {
        *self.draw_calls += 1;
        let (a, b) = self.at(x0, y0);
        let (c, d) = self.at(x1, y1);
        self.fb.line_wide(a, b, c, d, index);
    }

    /// Draws a rectangle's one-pixel outline.
    pub fn draw_rect(&mut self, rect: Rect, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb.rect_wide(x, y, rect.w.into(), rect.h.into(), index);
    }

    /// Fills a rectangle.
    pub fn draw_rect_fill(&mut self, rect: Rect, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb
            .fill_wide(x, y, x + i64::from(rect.w), y + i64::from(rect.h), index);
    }

    /// Prints `text` in the system font (6 px a character, 14 px a line) with its top-left
    /// corner at `(x, y)`. Index 0 draws nothing.
    pub fn system_print(&mut self, x: i32, y: i32, index: u8, text: &str) {
        *self.draw_calls += 1;
        let (x, y) = self.at(x, y);
        self.fb.print_wide(x, y, index, text);
    }

    /// Prints formatted text without allocating: `ctx.system_printf(4, 4, 7, format_args!("T {}",
    /// ctx.ticks()))`.
    pub fn system_printf(&mut self, x: i32, y: i32, index: u8, args: fmt::Arguments<'_>) {
        *self.draw_calls += 1;
        let (x, y) = self.at(x, y);
        self.fb.print_fmt_wide(x, y, index, args);
    }

    /// The size [`Self::system_print`] covers for `text`.
    pub fn system_print_measure(&self, text: &str) -> (i32, i32) {
        gfx::measure_text(text)
    }

    /// Fills a rectangle with `index`, index 0 included (it puts pixels back to blank).
    pub fn clear_rect(&mut self, rect: Rect, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb
            .clear_rect_wide(x, y, x + i64::from(rect.w), y + i64::from(rect.h), index);
    }

    /// Draws a circle's one-pixel outline around `(cx, cy)`; see [`Framebuffer::draw_circle`].
    pub fn draw_circle(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(cx, cy);
        self.fb.circle_wide(x, y, r.into(), index, false);
    }

    /// Fills a circle around `(cx, cy)`; see [`Framebuffer::draw_circle_fill`].
    pub fn draw_circle_fill(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        *self.draw_calls += 1;
        let (x, y) = self.at(cx, cy);
        self.fb.circle_wide(x, y, r.into(), index, true);
    }

    /// Draws the part `src` of `sheet` with the drawn picture's top-left corner at `dest`. See
    /// [`SpriteParams`] for mirroring, turning, scaling and palette offsets; index 0 is
    /// see-through and parts of `src` outside the sheet draw nothing.
    pub fn draw_sprite(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        dest: (i32, i32),
        params: SpriteParams,
    ) {
        *self.draw_calls += 1;
        let (x, y) = self.at(dest.0, dest.1);
        self.fb.sprite_wide(sheet, src, x, y, params);
    }

    /// Draws tile `index` of `sheet` at `dest` (see [`SpriteSheet::tile_rect`]); an index past
    /// the last tile draws nothing.
    pub fn draw_tile(
        &mut self,
        sheet: &SpriteSheet,
        index: u32,
        dest: (i32, i32),
        params: SpriteParams,
    ) {
        *self.draw_calls += 1;
        if let Some(src) = sheet.tile_rect(index) {
            let (x, y) = self.at(dest.0, dest.1);
            self.fb.sprite_wide(sheet, src, x, y, params);
        }
    }

    /// Limits drawing to `rect`, in screen coordinates, for the rest of this frame.
    pub fn clip_set(&mut self, rect: Rect) {
        self.fb.clip_set(rect);
    }

    /// Lets drawing reach the whole screen again.
    pub fn clip_reset(&mut self) {
        self.fb.clip_reset();
    }

    /// The clip rectangle in force, in screen coordinates.
    pub fn clip(&self) -> Rect {
        self.fb.clip()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BTN_A;

    #[test]
    fn init_keeps_input_edges_for_the_first_update() {
        let mut con = Console::new(&Settings::default(), 1);
        con.input_mut().set_buttons(0, BTN_A, true);
        let ctx = con.init_context();
        assert!(!ctx.is_pressed(BTN_A, 0));
        let ctx = con.update_context(0);
        assert!(ctx.is_pressed(BTN_A, 0));
    }

    #[test]
    fn every_drawing_call_of_a_render_is_counted_afresh() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut r = con.render_context(0, 0.0);
        r.clear(1);
        r.draw_pixel(1, 1, 2);
        r.draw_rect_fill(Rect::new(0, 0, 4, 4), 3);
        r.system_printf(0, 0, 7, format_args!("{}", 5));
        let _ = r.system_print_measure("not drawing");
        r.clip_set(Rect::new(0, 0, 8, 8));
        let sheet = crate::SpriteSheet::from_indexed(4, 4, vec![1; 16]).unwrap();
        r.draw_tile(&sheet, 0, (0, 0), crate::SpriteParams::default());
        assert_eq!(con.draw_calls(), 5, "a tile is one call");
        let mut r = con.render_context(1, 0.0);
        r.draw_line(0, 0, 5, 5, 1);
        assert_eq!(con.draw_calls(), 1);
    }

    #[test]
    fn timer_conveniences_read_the_current_tick() {
        let mut con = Console::new(&Settings::default(), 1);
        let timer = con.update_context(10).timer(30).unwrap();
        let ctx = con.update_context(25);
        assert_eq!(
            (ctx.timer_elapsed(&timer), ctx.timer_remaining(&timer)),
            (15, 15)
        );
        let r = con.render_context(37, 0.5);
        assert_eq!(
            (r.timer_elapsed(&timer), r.timer_remaining(&timer)),
            (27, 3)
        );
    }

    #[test]
    fn empty_tag_label_becomes_untitled() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut ctx = con.update_context(41);
        ctx.assign_tag("");
        ctx.assign_tag("Boss");
        let tags: Vec<Tag> = con.drain_tags().collect();
        assert_eq!(
            tags[0],
            Tag {
                tick: 41,
                label: "Untitled".into()
            }
        );
        assert_eq!(tags[1].label, "Boss");
        assert_eq!(con.drain_tags().count(), 0);
    }

    #[test]
    fn timing_follows_ticks_and_fps() {
        let s = Settings::default().target_fps(30.0);
        let mut con = Console::new(&s, 1);
        let ctx = con.update_context(90);
        assert_eq!(ctx.time_seconds(), 3.0);
        assert!((ctx.delta_seconds() - 1.0 / 30.0).abs() < 1e-15);
        let r = con.render_context(90, 0.25);
        assert_eq!(r.render_alpha(), 0.25);
        assert_eq!(r.ticks(), 90);
    }

    #[test]
    fn camera_offsets_drawing_and_render_starts_blank() {
        let mut con = Console::new(&Settings::default().display(8, 8), 1);
        con.update_context(0).camera_set(2, 3);
        let mut r = con.render_context(0, 0.0);
        r.draw_pixel(3, 4, 7);
        assert_eq!(con.framebuffer().get(1, 1), Some(7));
        let _ = con.render_context(1, 0.0);
        assert_eq!(con.framebuffer().get(1, 1), Some(0));
    }

    #[test]
    fn cart_error_converts_from_any_error() {
        fn parse() -> Result<u8, CartError> {
            Ok("300".parse::<u8>()?)
        }
        let err = parse().unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
    }
}

#[cfg(test)]
mod effect_tests {
    use super::*;

    fn console() -> Console {
        Console::new(&Settings::default().display(8, 8).target_fps(10.0), 1)
    }

    #[test]
    fn effects_advance_only_when_the_host_steps_them_and_reset_clears_them() {
        let mut con = console();
        let white = Color32::rgb(255, 255, 255);
        con.update_context(0).palette_flash(white, 500.0).unwrap();
        con.step_effects();
        assert_eq!(con.palette().get(3), Some(white));
        assert_eq!(con.render_context(1, 0.0).palette().get(3), Some(white));
        assert!(con.effects_active());
        con.reset(1);
        assert!(!con.effects_active());
        assert_eq!(con.palette(), &Palette::pico8());
    }

    #[test]
    fn fade_then_swap_and_clear() {
        let mut con = console();
        let target = Palette::gameboy();
        let mut ctx = con.update_context(0);
        ctx.palette_fade_range(1, 2, &target, 100.0, Easing::Linear)
            .unwrap();
        assert!(ctx
            .palette_fade_range(2, 1, &target, 1.0, Easing::Linear)
            .is_err());
        assert!(ctx.palette_fade(&target, f64::NAN, Easing::Linear).is_err());
        con.step_effects();
        con.step_effects();
        assert_eq!(con.palette().get(1), target.get(1));
        assert_eq!(con.palette().get(3), Palette::pico8().get(3));
        let mut ctx = con.update_context(2);
        ctx.palette_swap(1, 3).unwrap();
        assert_eq!(ctx.palette().get(3), target.get(1));
        ctx.palette_cycle(4, 6, 100.0).unwrap();
        ctx.palette_clear_effects();
        assert!(!con.effects_active());
    }

    #[test]
    fn arguments_are_read_by_name_and_typed_errors_name_them() {
        let mut con = console();
        con.set_args(vec![
            ("sprites".into(), "50".into()),
            ("mode".into(), "fast".into()),
            ("sprites".into(), "75".into()),
        ]);
        let ctx = con.update_context(0);
        assert_eq!(ctx.arg("mode"), Some("fast"));
        assert_eq!(ctx.arg("nope"), None);
        assert_eq!(ctx.arg_or("sprites", 1u32), Ok(75), "the last one wins");
        assert_eq!(ctx.arg_or("missing", 9u32), Ok(9));
        let err = ctx.arg_or::<u32>("mode", 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument mode=fast: invalid digit found in string"
        );
    }

    #[test]
    fn loading_without_a_host_loader_names_the_file() {
        let mut con = console();
        let err = con
            .update_context(0)
            .load_indexed("art/sheet.png", 1)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "art/sheet.png: this host cannot load images"
        );
    }

    #[test]
    fn camera_persists_over_frames_without_updates() {
        let mut con = console();
        con.update_context(0).camera_set(2, 0);
        for _ in 0..3 {
            // Three renders, no update between them: each draws through the same camera.
            let mut r = con.render_context(0, 0.5);
            assert_eq!(r.camera(), (2, 0));
            r.draw_pixel(3, 0, 7);
            assert_eq!(con.framebuffer().get(1, 0), Some(7));
        }
        con.update_context(1).camera_reset();
        assert_eq!(con.render_context(1, 0.0).camera(), (0, 0));
    }

    #[test]
    fn camera_clamp_keeps_the_view_in_the_world() {
        let mut con = console();
        let mut ctx = con.update_context(0);
        ctx.camera_set(500, -20);
        ctx.camera_clamp((640, 480), (320, 240));
        assert_eq!(ctx.camera(), (320, 0));
    }

    #[test]
    fn render_draws_circles_sprites_and_tiles_through_the_camera() {
        let mut con = console();
        con.update_context(0).camera_set(1, 1);
        let sheet = SpriteSheet::from_indexed(2, 1, vec![5, 6])
            .unwrap()
            .with_tile_size(1, 1);
        let mut r = con.render_context(0, 0.0);
        r.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), (1, 1), SpriteParams::new());
        r.draw_tile(&sheet, 1, (4, 4), SpriteParams::new().offset(1));
        r.draw_circle_fill(7, 7, 0, 9);
        r.draw_circle(7, 5, 0, 10);
        r.clear_rect(Rect::new(1, 1, 1, 1), 0);
        assert_eq!(r.clip(), Rect::new(0, 0, 8, 8));
        let fb = con.framebuffer();
        assert_eq!(fb.get(0, 0), Some(0), "cleared back to blank");
        assert_eq!(fb.get(1, 0), Some(6));
        assert_eq!(fb.get(3, 3), Some(7));
        assert_eq!(fb.get(6, 6), Some(9));
        assert_eq!(fb.get(6, 4), Some(10));
    }
}
