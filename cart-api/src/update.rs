//! What `init` and `update` are handed: timing, input, randomness, palette, camera, tags,
//! cart arguments and asset loading.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::console::Console;
use crate::input::Input;
use crate::palette::effects;

use crate::{
    ArgError, Axis, Button, Color32, Easing, Effect, EffectKind, Key, KeyMapError, KeySet, Palette,
    Player, Rng, Tag, Touch,
};

/// The size of the picture [`Update::capture_frame_sized`] asks for (BLIT386's
/// `captureFrame({ size })`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureSize {
    /// The display's size ([`crate::Settings::display`]): the frame's indices through the
    /// palette as shown, with the overlay when it is shown; no display-tier effect, no scaling.
    Display,
    /// The output size, the display times [`crate::Settings::output_scale`]: the picture the
    /// screen shows, display-tier effects included, as `bt shot --size output` writes it.
    Output,
}

/// Pause-menu items a cart can add of its own ([`Update::set_menu_item`]).
pub const MENU_ITEMS: usize = 3;

/// The most characters of a cart's pause-menu label that show: it fits the menu on a 128-pixel
/// display.
pub const MENU_LABEL_CHARS: usize = 16;

/// What `init` and `update` are handed: timing, input, randomness, palette, camera, tags.
///
/// Hosts make one with [`Console::update_context`]; carts just use it. The camera, the palette
/// and its effects:
///
/// ```
/// use std::time::Duration;
///
/// use bt::host::Console;
/// use bt::{Color32, Easing, Palette, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// ctx.set_camera(700, 40);
/// ctx.clamp_camera((640, 480), (320, 240));
/// assert_eq!(ctx.camera(), (320, 40));
/// ctx.reset_camera();
/// assert_eq!(ctx.camera(), (0, 0));
///
/// ctx.palette_mut().swap(1, 2)?;
/// ctx.cycle_palette(8, 11, 4.0);
/// ctx.fade_palette(&Palette::cga(), Duration::from_millis(500), Easing::QuadOut);
/// ctx.flash_palette(Color32::hex(0xffffff), Duration::from_millis(50));
/// ctx.clear_palette_effects();
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
/// use bt::host::Console;
/// use bt::Settings;
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
/// use bt::host::{Console, ImageLoader, RgbaImage};
/// use bt::{AssetError, Color32, Settings};
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
/// let sheet = ctx.load_image("red.png", 9)?;
/// assert_eq!(sheet.get(0, 0), Some(9));
/// assert_eq!(ctx.palette().get(9), Some(Color32::rgb(255, 0, 0)));
/// let again = ctx.decode_image("built-in.png", b"any bytes", 10)?;
/// assert_eq!(again.palette_slots(), 10..=10);
/// # Ok::<(), bt::AssetError>(())
/// ```
pub struct Update<'a> {
    pub(crate) con: &'a mut Console,
}

impl Update<'_> {
    /// The display size in pixels.
    pub fn display_size(&self) -> (u32, u32) {
        (self.con.fb.width(), self.con.fb.height())
    }

    /// Starts the tick counter again: the *next* update sees `ticks() == 0`. Timers re-base by
    /// themselves when they see the counter go back.
    pub fn reset_ticks(&mut self) {
        self.con.reset_requested = true;
    }

    /// Ends the game after this update: `bt run` closes its window and exits with status 0,
    /// and a headless command (`bt shot`, `bt frames`, `bt wav`, ...) stops at this update
    /// and says so. No update runs after this one; the frame it leads to is still drawn.
    pub fn quit(&mut self) {
        self.con.quit_requested = true;
    }

    /// In [`crate::Cart::reload`], the files whose change led to it, by their path in the
    /// asset folder with `/` between folders (`"sprites.png"`, `"maps/level1.tmx"`), sorted;
    /// a palette file `cart.toml` names appears by its path. Reload only what is listed: a
    /// changed sheet need not restart the music. Empty outside `reload`, and when the host
    /// cannot say what changed: then reload everything.
    pub fn changed_files(&self) -> &[String] {
        &self.con.changed_files
    }

    /// Asks the host for a picture of the frame this update leads to, as the player's F9
    /// takes it: the display's size ([`CaptureSize::Display`]), or, while a display-tier
    /// effect runs, the output picture ([`CaptureSize::Output`]); the overlay is in it when it
    /// is shown. `bt run` saves it in its captures folder, a web page offers it as a download
    /// (`<cart>.png`), and headless commands, which make pictures of their own, ignore it.
    /// The game sees nothing of it: its state, replays and every later frame are the same
    /// with or without the request. Several requests before the frame is drawn make one
    /// picture. [`Update::capture_frame_sized`] chooses the size.
    pub fn capture_frame(&mut self) {
        self.con.capture_requests.screen = true;
    }

    /// [`Update::capture_frame`] at the size chosen, whatever effects run: `Display` is the
    /// display's pixels through the palette, `Output` the display times the output scale with
    /// the display-tier effects. Several requests of one size before the frame is drawn make
    /// one picture; requests of different sizes (or with `capture_frame`) make one each.
    pub fn capture_frame_sized(&mut self, size: CaptureSize) {
        match size {
            CaptureSize::Display => self.con.capture_requests.display = true,
            CaptureSize::Output => self.con.capture_requests.output = true,
        }
    }

    /// Puts an item of the cart's own in the host's pause menu (P in `bt run`), in `slot`
    /// (0 to [`MENU_ITEMS`](crate::limits::MENU_ITEMS) - 1; others are ignored), replacing what was
    /// there. The label shows at most [`MENU_LABEL_CHARS`](crate::limits::MENU_LABEL_CHARS)
    /// characters; an empty one takes the item away. Items last until changed or the cart
    /// restarts; set them in `init` or whenever they change.
    ///
    /// When the player chooses the item, the menu closes and the next update sees
    /// [`Update::chosen_menu_item`] return `Some(slot)`: the choice is input, so a recording
    /// replays it exactly.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// con.init_context().set_menu_item(0, "Easy mode");
    /// assert_eq!(con.menu_items().collect::<Vec<_>>(), [(0, "Easy mode")]);
    /// // The host: the player chose it in the menu.
    /// con.input_mut().choose_menu_item(0);
    /// assert_eq!(con.update_context(1).chosen_menu_item(), Some(0));
    /// assert_eq!(con.update_context(2).chosen_menu_item(), None);
    /// ```
    pub fn set_menu_item(&mut self, slot: usize, label: &str) {
        let Some(item) = self.con.menu_items.get_mut(slot) else {
            return;
        };
        let label = label.trim();
        let fits = label.chars().count() <= crate::limits::MENU_LABEL_CHARS;
        // Setting the same label every update costs nothing.
        if fits && item == label {
            return;
        }
        item.clear();
        item.extend(label.chars().take(crate::limits::MENU_LABEL_CHARS));
    }

    /// Takes the cart's pause-menu item in `slot` away.
    pub fn clear_menu_item(&mut self, slot: usize) {
        self.set_menu_item(slot, "");
    }

    /// Whether the player prefers reduced motion: `bt run --reduced-motion`, or a web page's
    /// browser with `prefers-reduced-motion: reduce` set. A cart that shakes the screen,
    /// flashes or scrolls fast should calm it down: fewer particles, no shake, fades instead
    /// of flashes. `init` sees the preference the run boots with; each update sees it as that
    /// update began. It is input: a recording keeps it, so a replay plays the same.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// con.input_mut().boot_reduced_motion(true);
    /// assert!(con.init_context().prefers_reduced_motion());
    /// // The host: the player turned it off.
    /// con.input_mut().set_reduced_motion(false);
    /// let ctx = con.update_context(0);
    /// assert!(!ctx.prefers_reduced_motion() && ctx.reduced_motion_changed());
    /// assert!(!con.update_context(1).reduced_motion_changed());
    /// ```
    pub fn prefers_reduced_motion(&self) -> bool {
        self.con.input.prefers_reduced_motion()
    }

    /// Whether the player's reduced-motion preference ([`Update::prefers_reduced_motion`])
    /// changed since the update before: true in the one update that first sees the new
    /// value (BLIT386's `onReducedMotionChange`). Never at boot: `init` reads the preference
    /// itself.
    pub fn reduced_motion_changed(&self) -> bool {
        self.con.input.reduced_motion_changed()
    }

    /// The slot of the cart's pause-menu item the player chose just before this update, if
    /// any (see [`Update::set_menu_item`]). Seen by one update only.
    pub fn chosen_menu_item(&self) -> Option<usize> {
        self.con.input.chosen_menu_item()
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
    pub fn rng_mut(&mut self) -> &mut Rng {
        &mut self.con.rng
    }

    /// Everything the host fed in for this update: keys, pointer, axes, typed text.
    fn input(&self) -> &Input {
        &self.con.input
    }

    /// Whether any button of the set is held.
    pub fn is_down(&self, buttons: Button, player: Player) -> bool {
        self.con.input.is_down(buttons, player)
    }

    /// Whether any button of the set went down since the previous update.
    pub fn is_pressed(&self, buttons: Button, player: Player) -> bool {
        self.con.input.is_pressed(buttons, player)
    }

    /// Whether any button of the set came up since the previous update.
    pub fn is_released(&self, buttons: Button, player: Player) -> bool {
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
    pub fn set_camera(&mut self, x: i32, y: i32) {
        self.con.camera = (x, y);
    }

    /// Puts the camera back at the origin.
    pub fn reset_camera(&mut self) {
        self.con.camera = (0, 0);
    }

    /// The camera offset.
    pub fn camera(&self) -> (i32, i32) {
        self.con.camera
    }

    /// Keeps the camera inside a world of `world` pixels seen through a view of `view` pixels
    /// (both sizes, so `map.pixel_size()` and `ctx.display_size()` as they come): each axis is
    /// clamped to `0..=world - view` (to 0 when the world is the smaller), so the view never
    /// shows past the world's edges.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut ctx = con.update_context(0);
    /// for ((x, y), world, view, clamped) in [
    ///     ((500, 300), (640, 480), (320, 240), (320, 240)),
    ///     ((100, 100), (250, 200), (200, 150), (50, 50)),
    ///     ((-9, 7), (100, 100), (320, 240), (0, 0)),
    /// ] {
    ///     ctx.set_camera(x, y);
    ///     ctx.clamp_camera(world, view);
    ///     assert_eq!(ctx.camera(), clamped);
    /// }
    /// ```
    pub fn clamp_camera(&mut self, world: (u32, u32), view: (u32, u32)) {
        self.con.camera = clamped(self.con.camera, world, view);
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
    /// converts into a [`CartError`](crate::CartError) with `?` in `init`.
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

    /// Rotates the colours of slots `start..=end` by `steps_per_second` (fractions carry over
    /// from update to update). Forward (positive) steps move each colour one slot down, the first
    /// wrapping round to `end`; negative speeds turn the other way. Runs until cleared; a new
    /// cycle on the same range replaces the old one.
    ///
    /// Never fails: `end` past the palette is cut to its last slot; a range of fewer than two
    /// slots, or a speed that is not finite, starts nothing; past [`MAX_CYCLES`](crate::limits::MAX_CYCLES) running
    /// cycles, the oldest makes way.
    pub fn cycle_palette(&mut self, start: u8, end: u8, steps_per_second: f64) {
        let con = &mut *self.con;
        con.effects.cycle(
            &con.palette,
            usize::from(start),
            usize::from(end),
            steps_per_second,
        );
    }

    /// Fades every slot from its colour now to the same slot of `target` over `duration`,
    /// shaped by `easing`. Slots `target` lacks keep their colour. At the end the palette holds
    /// exactly `target`'s colours. The fade's clock is the updates' (`1 / target_fps` each), so
    /// it looks the same at any display rate and in a replay.
    ///
    /// Never fails: `Duration::ZERO` changes the colours at once, and no fade lasts longer
    /// than [`MAX_EFFECT`](crate::limits::MAX_EFFECT).
    pub fn fade_palette(&mut self, target: &Palette, duration: Duration, easing: Easing) {
        self.fade_palette_range(0, u8::MAX, target, duration, easing);
    }

    /// Like [`Update::fade_palette`] for slots `start..=end` only. A new fade of a slot replaces
    /// the one running there. `end` past the palette is cut to its last slot, and `start`
    /// after `end` fades nothing.
    pub fn fade_palette_range(
        &mut self,
        start: u8,
        end: u8,
        target: &Palette,
        duration: Duration,
        easing: Easing,
    ) {
        let con = &mut *self.con;
        let ms = effects::effect_ms(duration);
        let (start, end) = (usize::from(start), usize::from(end));
        con.effects
            .fade_range(&con.palette, start, end, target, ms, easing);
    }

    /// An exposure fade of the whole palette towards `target` over `duration`, as a camera's
    /// exposure changes: colours are mixed in linear light, and bright colours lead. Each
    /// slot's own fade takes `1 - highlight_lead` of the duration and starts later the darker
    /// it is (the brighter of its colour now and its target counts), so the brightest slot
    /// starts at once and the darkest finishes at the end. `highlight_lead` is clamped to 0 to
    /// 1 (NaN counts as 0); 0 fades every slot together, and 0.5 is BLIT386's default. It runs
    /// on the tick clock like [`Update::fade_palette`], and replaces any fade running on a
    /// slot.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bt::host::Console;
    /// use bt::{Easing, Palette, Settings};
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let black = Palette::new(16)?;
    /// con.update_context(0)
    ///     .fade_palette_exposure(&black, Duration::from_secs(1), 0.5, Easing::Linear);
    /// for tick in 0..12 {
    ///     con.update_context(tick);
    ///     con.step_effects();
    /// }
    /// // A fifth in: white (slot 7), the brightest, is on its way; dark blue (slot 1), which
    /// // starts about 0.4 s in, has not moved.
    /// assert_ne!(con.palette().colors()[7], Palette::pico8().colors()[7]);
    /// assert_eq!(con.palette().colors()[1], Palette::pico8().colors()[1]);
    /// # Ok::<(), bt::PaletteError>(())
    /// ```
    pub fn fade_palette_exposure(
        &mut self,
        target: &Palette,
        duration: Duration,
        highlight_lead: f64,
        easing: Easing,
    ) {
        let con = &mut *self.con;
        let ms = effects::effect_ms(duration);
        con.effects.fade_exposure_range(
            &con.palette,
            0,
            usize::from(u8::MAX),
            target,
            ms,
            highlight_lead,
            easing,
        );
    }

    /// Shows every slot but 0 as `color` for `duration`, then the palette as it is by then.
    /// The live palette (what [`Update::palette`] reads) is not changed; only what is shown.
    /// Durations are cut as for [`Update::fade_palette`].
    pub fn flash_palette(&mut self, color: Color32, duration: Duration) {
        let con = &mut *self.con;
        con.effects
            .flash(&con.palette, color, effects::effect_ms(duration));
    }

    /// Stops every cycle, fade and flash. Colours stay as the effects left them; a flash simply
    /// stops showing.
    pub fn clear_palette_effects(&mut self) {
        self.con.effects.clear();
    }

    /// Sets a post-process effect ([`Effect`]): it replaces the first effect of its kind, or
    /// goes at the end of the stack when there is none. The stack is part of the console's
    /// state: snapshots, seeks and replays keep it, and what a frame shows is a function of
    /// its tick. On a full stack ([`crate::limits::MAX_EFFECTS`]) nothing changes and it
    /// returns `false`.
    pub fn add_effect(&mut self, effect: Effect) -> bool {
        self.con.post.add(effect)
    }

    /// Adds a post-process effect at the end of the stack, after any of its kind (a second
    /// barrel, scanlines both bent and flat). On a full stack nothing changes and it returns
    /// `false`.
    pub fn push_effect(&mut self, effect: Effect) -> bool {
        self.con.post.push(effect)
    }

    /// Removes every post-process effect of `kind`.
    pub fn remove_effect(&mut self, kind: EffectKind) {
        self.con.post.remove(kind);
    }

    /// Removes every post-process effect: the picture as drawn, scaled to the output size.
    pub fn clear_effects(&mut self) {
        self.con.post.clear();
    }

    /// Replaces the whole stack with `effects` in their order, such as a preset from
    /// [`crate::crt`]. Effects past [`crate::limits::MAX_EFFECTS`] are left out.
    pub fn set_effects(&mut self, effects: &[Effect]) {
        self.con.post.clear();
        for &effect in effects {
            self.con.post.push(effect);
        }
    }

    /// The first post-process effect of `kind`, if one is set.
    pub fn effect(&self, kind: EffectKind) -> Option<Effect> {
        self.con.post.get(kind)
    }

    /// The post-process effects set, in their order.
    pub fn effects(&self) -> impl Iterator<Item = Effect> + '_ {
        self.con.post.iter()
    }

    /// The post-process effects set, to change in place: how a cart animates a parameter
    /// (a flicker's amount, a curve growing) from update to update.
    pub fn effects_mut(&mut self) -> &mut [Effect] {
        self.con.post.as_mut_slice()
    }
}

/// `camera` moved the least that keeps a `view`-sized window inside a `world`-sized one.
fn clamped(camera: (i32, i32), world: (u32, u32), view: (u32, u32)) -> (i32, i32) {
    let axis = |c: i32, w: u32, v: u32| {
        let max = (i64::from(w) - i64::from(v)).clamp(0, i64::from(i32::MAX));
        i64::from(c).clamp(0, max) as i32
    };
    (
        axis(camera.0, world.0, view.0),
        axis(camera.1, world.1, view.1),
    )
}

impl Update<'_> {
    /// Like [`Update::is_pressed`], and again every `every_ticks` updates while a button of the
    /// set stays held (menus that scroll while a direction is held). `every_ticks` 0 never
    /// repeats.
    pub fn is_pressed_repeat(&self, buttons: Button, player: Player, every_ticks: u64) -> bool {
        self.input().is_pressed_repeat(buttons, player, every_ticks)
    }

    /// Whether `key` is held.
    pub fn is_key_down(&self, key: Key) -> bool {
        self.input().is_key_down(key)
    }

    /// Whether `key` went down since the previous update.
    pub fn is_key_pressed(&self, key: Key) -> bool {
        self.input().is_key_pressed(key)
    }

    /// Like [`Update::is_key_pressed`], and again every `every_ticks` updates while held.
    pub fn is_key_pressed_repeat(&self, key: Key, every_ticks: u64) -> bool {
        self.input().is_key_pressed_repeat(key, every_ticks)
    }

    /// Whether `key` came up since the previous update.
    pub fn is_key_released(&self, key: Key) -> bool {
        self.input().is_key_released(key)
    }

    /// Whether any key is held.
    pub fn is_any_key_down(&self) -> bool {
        self.input().is_any_key_down()
    }

    /// Whether any key went down since the previous update.
    pub fn is_any_key_pressed(&self) -> bool {
        self.input().is_any_key_pressed()
    }

    /// Whether a key came up since the previous update and no key is held any more.
    pub fn is_any_key_released(&self) -> bool {
        self.input().is_any_key_released()
    }

    /// Text typed since the previous update (empty most of the time).
    pub fn input_string(&self) -> &str {
        self.input().input_string()
    }

    /// The pointer's position in display pixels.
    pub fn pointer_pos(&self) -> (i32, i32) {
        self.input().pointer_pos()
    }

    /// How far the pointer moved since the previous update, in display pixels.
    pub fn pointer_delta(&self) -> (i32, i32) {
        self.input().pointer_delta()
    }

    /// Wheel movement since the previous update, in lines.
    pub fn pointer_wheel(&self) -> (f32, f32) {
        self.input().pointer_wheel()
    }

    /// Whether the pointer was over the display as this update began: sampled with the
    /// position, so a replay hands the update what it saw live.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// con.input_mut().set_pointer_pos(10, 20);
    /// assert!(con.update_context(0).is_pointer_active());
    /// con.input_mut().set_pointer_inactive();
    /// assert!(!con.update_context(1).is_pointer_active());
    /// ```
    pub fn is_pointer_active(&self) -> bool {
        self.input().is_pointer_active()
    }

    /// Touch slot `slot` (0 to [`TOUCH_SLOTS`](crate::limits::TOUCH_SLOTS) - 1): the finger
    /// on it in this update, or the one that lifted off it since the previous update; `None`
    /// otherwise, and for a slot past the last. A finger keeps its slot from touching down to
    /// lifting off; a new one takes the first free slot, and fingers beyond the slots are not
    /// seen. Touches follow the edge rules of buttons: a touch down is `pressed` in exactly one
    /// update, even when it lifted off again before that update began.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// con.input_mut().set_touch(0, Some((40, 30))); // the host: a finger touched down
    /// let ctx = con.update_context(0);
    /// let t = ctx.touch(0).unwrap();
    /// assert!(t.pressed && t.down);
    /// assert_eq!(t.pos, (40, 30));
    /// assert_eq!(ctx.touch(1), None);
    /// ```
    pub fn touch(&self, slot: usize) -> Option<Touch> {
        self.input().touch(slot)
    }

    /// Shows or hides the mouse cursor over the game's picture (it shows until hidden). It is
    /// presentation, not game state: it lasts until changed or the cart restarts, and a replay
    /// does not record it.
    pub fn set_cursor_visible(&mut self, visible: bool) {
        self.con.cursor_visible = visible;
    }

    /// Asks the host to lock the pointer (hidden, held in place, its motion unbounded by the
    /// window's edges: mouse look, a paddle that never runs out of desk) or to free it. While
    /// it is locked, [`Update::pointer_delta`] is the mouse's motion in display pixels and
    /// [`Update::pointer_pos`] stays where it was. `bt run` locks it where the platform allows
    /// (else confines it to the window); a web page locks it at the player's next click on the
    /// picture, as browsers require, and Escape frees it there. The motion is input, recorded
    /// in replays as every pointer delta is; the lock itself is presentation.
    pub fn set_pointer_locked(&mut self, locked: bool) {
        self.con.pointer_locked = locked;
    }

    /// A gamepad axis of `player`: sticks -1..1, triggers 0..1.
    pub fn axis(&self, axis: Axis, player: Player) -> f32 {
        self.input().axis(axis, player)
    }

    /// Whether `player` has a gamepad.
    pub fn is_gamepad_connected(&self, player: Player) -> bool {
        self.input().is_gamepad_connected(player)
    }

    /// How many gamepads (0 to 4) were connected as this update began. Connections are
    /// sampled per update and recorded, so a replay sees the same count.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::{Player, Settings};
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// assert_eq!(con.update_context(0).gamepad_count(), 0);
    /// con.input_mut().set_gamepad_connected(Player::TWO, true);
    /// con.input_mut().set_gamepad_connected(Player::FOUR, true);
    /// assert_eq!(con.update_context(1).gamepad_count(), 2);
    /// ```
    pub fn gamepad_count(&self) -> usize {
        self.input().gamepad_count()
    }

    /// Makes `keys` the only keys that press `button` for keyboard player `player` (one or
    /// two), from the next update on; an empty list unmaps the button. The host applies the
    /// change once this update is over, so keys pressed before it still pressed the old
    /// buttons, and a key held across the change presses its new button from the next update.
    ///
    /// The keys allowed are those a key-map file allows: any but the host's
    /// ([`HOST_KEYS`](crate::host::HOST_KEYS)). A player's own key-map file still wins for the
    /// buttons it lists (see `docs/input.md`); [`Update::key_map`] answers with the cart's map.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::{Button, Key, Player, Settings};
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut ctx = con.update_context(0);
    /// ctx.set_key_map(Player::ONE, Button::A, &[Key::KeyK, Key::Space])?;
    /// assert!(ctx.key_map(Player::ONE, Button::A).contains(Key::KeyK));
    /// assert!(!ctx.key_map(Player::ONE, Button::A).contains(Key::KeyZ));
    /// let e = ctx.set_key_map(Player::ONE, Button::B, &[Key::F9]).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "set_key_map(player 1, b): F9 is a host key (Backquote and F1 to F11 cannot be mapped)"
    /// );
    /// ctx.reset_key_map();
    /// assert!(ctx.key_map(Player::ONE, Button::A).contains(Key::KeyZ));
    /// # Ok::<(), bt::KeyMapError>(())
    /// ```
    ///
    /// # Errors
    /// [`KeyMapError`] naming the player, the button or the key when `player` has no keyboard,
    /// `button` is not exactly one of `Button::UP` to `Button::SELECT`, or a key is the host's.
    /// Nothing changes then.
    pub fn set_key_map(
        &mut self,
        player: Player,
        button: Button,
        keys: &[Key],
    ) -> Result<(), KeyMapError> {
        let before = self.con.key_map;
        self.con.key_map.set(player, button, keys)?;
        self.con.key_map_changed |= self.con.key_map != before;
        Ok(())
    }

    /// Puts every key of the cart's map back to the defaults (the arrows and Z/X for player
    /// one, W A S D and F/G for player two), from the next update on.
    pub fn reset_key_map(&mut self) {
        let defaults = crate::host::KeyMapTable::default();
        if self.con.key_map != defaults {
            self.con.key_map = defaults;
            self.con.key_map_changed = true;
        }
    }

    /// The keys the cart's map gives `button` of `player`: the defaults, changed by the cart's
    /// own [`Update::set_key_map`] calls. Empty for players three and four and for a button that
    /// is not exactly one of `Button::UP` to `Button::SELECT`. It does not show a player's own
    /// key-map file, so what a cart draws from it is the same in every replay.
    pub fn key_map(&self, player: Player, button: Button) -> KeySet {
        self.con.key_map.keys(player, button)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    fn console() -> Console {
        crate::console::test_console()
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
            .load_image("art/sheet.png", 1)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "art/sheet.png: this host cannot load images"
        );
    }

    #[test]
    fn pointer_presence_and_gamepad_count_replay_as_they_were_seen() {
        let mut live = console();
        live.input_mut().set_pointer_pos(3, 4);
        live.input_mut()
            .set_gamepad_connected(crate::Player::THREE, true);
        let ctx = live.update_context(0);
        let seen = (ctx.is_pointer_active(), ctx.gamepad_count());
        assert_eq!(seen, (true, 1));
        let tick = live.input().visible();
        // A replaying console whose own host has no pointer and no gamepad.
        let mut replay = console();
        replay.input_mut().set_pointer_inactive();
        let ctx = replay.update_context_replayed(0, &tick);
        assert_eq!((ctx.is_pointer_active(), ctx.gamepad_count()), seen);
    }

    #[test]
    fn camera_clamp_keeps_the_view_in_the_world() {
        let mut con = console();
        let mut ctx = con.update_context(0);
        ctx.set_camera(500, -20);
        ctx.clamp_camera((640, 480), (320, 240));
        assert_eq!(ctx.camera(), (320, 0));
    }

    #[test]
    fn camera_clamp_takes_a_maps_size_and_the_displays_as_they_come() {
        // The test console's display is 8 x 8; the map is 5 x 3 tiles of 4 x 4.
        let map = crate::Tilemap::new(5, 3, (4, 4)).unwrap();
        let mut con = console();
        let mut ctx = con.update_context(0);
        ctx.set_camera(100, 100);
        ctx.clamp_camera(map.pixel_size(), ctx.display_size());
        assert_eq!(ctx.camera(), (12, 4));
        // A world far past `i32::MAX` pixels keeps the camera where it was put.
        ctx.set_camera(i32::MAX, 3);
        ctx.clamp_camera((u32::MAX, u32::MAX), ctx.display_size());
        assert_eq!(ctx.camera(), (i32::MAX, 3));
    }
}
