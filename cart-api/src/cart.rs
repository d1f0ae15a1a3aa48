//! The `Cart` trait and the two contexts a cart is handed: [`Update`] and [`Render`].

use std::fmt;

use crate::gfx::{self, Framebuffer, Rect};
use crate::{Input, Palette, Rng, Settings, Timer, TimerError};

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
    tags: Vec<Tag>,
    reset_requested: bool,
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
            tags: Vec::new(),
            reset_requested: false,
        }
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

    /// The context for one render at `ticks` with `render_alpha` in `[0, 1)`. The framebuffer
    /// is blanked to index 0 and the clip reset first.
    pub fn render_context(&mut self, ticks: u64, render_alpha: f64) -> Render<'_> {
        self.clock.ticks = ticks;
        self.clock.render_alpha = render_alpha;
        self.fb.clear(0);
        self.fb.clip_reset();
        Render {
            clock: self.clock,
            palette: &self.palette,
            camera: self.camera,
            fb: &mut self.fb,
        }
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

    /// The live palette.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The input state, for the host to feed.
    pub fn input_mut(&mut self) -> &mut Input {
        &mut self.input
    }

    /// The camera offset set by the cart.
    pub fn camera(&self) -> (i32, i32) {
        self.camera
    }

    /// Changes the simulation rate the contexts report.
    pub fn set_target_fps(&mut self, fps: f64) {
        self.clock.target_fps = fps;
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
}

/// What `render` is handed: read-only timing and palette, and drawing.
///
/// Drawing goes through the camera set in `update`; the framebuffer starts every frame blank.
pub struct Render<'a> {
    clock: Clock,
    palette: &'a Palette,
    camera: (i32, i32),
    fb: &'a mut Framebuffer,
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
        self.fb.clear(index);
    }

    /// Sets one pixel.
    pub fn draw_pixel(&mut self, x: i32, y: i32, index: u8) {
        let (x, y) = self.at(x, y);
        self.fb.pixel_wide(x, y, index);
    }

    /// Draws a line, both end points included.
    pub fn draw_line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, index: u8) {
        let (a, b) = self.at(x0, y0);
        let (c, d) = self.at(x1, y1);
        self.fb.line_wide(a, b, c, d, index);
    }

    /// Draws a rectangle's one-pixel outline.
    pub fn draw_rect(&mut self, rect: Rect, index: u8) {
        let (x, y) = self.at(rect.x, rect.y);
        self.fb.rect_wide(x, y, rect.w.into(), rect.h.into(), index);
    }

    /// Fills a rectangle.
    pub fn draw_rect_fill(&mut self, rect: Rect, index: u8) {
        let (x, y) = self.at(rect.x, rect.y);
        self.fb
            .fill_wide(x, y, x + i64::from(rect.w), y + i64::from(rect.h), index);
    }

    /// Prints `text` in the system font (6 px a character, 14 px a line) with its top-left
    /// corner at `(x, y)`. Index 0 draws nothing.
    pub fn system_print(&mut self, x: i32, y: i32, index: u8, text: &str) {
        let (x, y) = self.at(x, y);
        self.fb.print_wide(x, y, index, text);
    }

    /// Prints formatted text without allocating: `ctx.system_printf(4, 4, 7, format_args!("T {}",
    /// ctx.ticks()))`.
    pub fn system_printf(&mut self, x: i32, y: i32, index: u8, args: fmt::Arguments<'_>) {
        let (x, y) = self.at(x, y);
        self.fb.print_fmt_wide(x, y, index, args);
    }

    /// The size [`Self::system_print`] covers for `text`.
    pub fn system_print_measure(&self, text: &str) -> (i32, i32) {
        gfx::measure_text(text)
    }

    /// Limits drawing to `rect`, in screen coordinates, for the rest of this frame.
    pub fn clip_set(&mut self, rect: Rect) {
        self.fb.clip_set(rect);
    }

    /// Lets drawing reach the whole screen again.
    pub fn clip_reset(&mut self) {
        self.fb.clip_reset();
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
