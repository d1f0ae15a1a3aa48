//! The console a host keeps: the state behind both contexts, and what the host reads back.

use std::fmt;

use crate::assets::ImageLoader;
use crate::draw::{DrawCounts, Framebuffer};
use crate::input::Input;
use crate::input::{KeyMapTable, TickInput};
use crate::palette::effects::PaletteEffects;
use crate::postfx::PostEffects;
use crate::sound::Synth;
use crate::{Palette, Render, Rng, SaveData, Settings, Tag, Timing, Update};

/// The host's image loader, if any (kept apart so `Console` can still derive `Debug`).
pub(crate) struct Loader(pub(crate) Option<Box<dyn ImageLoader>>);

impl fmt::Debug for Loader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Loader(set)"
        } else {
            "Loader(none)"
        })
    }
}

/// The pictures of a frame a cart asked for ([`Console::take_capture_requests`]), one flag a
/// size: a host makes one picture for each flag set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaptureRequests {
    /// [`Update::capture_frame`]: the picture F9 takes.
    pub screen: bool,
    /// [`Update::capture_frame_sized`] with [`crate::CaptureSize::Display`].
    pub display: bool,
    /// [`Update::capture_frame_sized`] with [`crate::CaptureSize::Output`].
    pub output: bool,
}

impl CaptureRequests {
    /// Whether no picture was asked for.
    pub fn is_empty(&self) -> bool {
        *self == CaptureRequests::default()
    }
}

/// Everything of the console that a cart can see, owned by the host.
///
/// Hosts (the runtime) keep one `Console`, hand carts the contexts it lends, and read back the
/// framebuffer, the tags and the tick-reset request. Carts never hold one themselves.
#[derive(Debug)]
pub struct Console {
    pub(crate) clock: Timing,
    pub(crate) rng: Rng,
    pub(crate) input: Input,
    pub(crate) palette: Palette,
    pub(crate) boot_palette: Palette,
    pub(crate) camera: (i32, i32),
    pub(crate) fb: Framebuffer,
    /// Drawing calls the last render made.
    pub(crate) draw_calls: DrawCounts,
    pub(crate) tags: Vec<Tag>,
    pub(crate) reset_requested: bool,
    /// The cart asked to quit: no update runs after the one that asked.
    pub(crate) quit_requested: bool,
    /// The pictures the cart asked for ([`Update::capture_frame`]); the host takes the
    /// requests after the frame is drawn.
    pub(crate) capture_requests: CaptureRequests,
    /// The files whose change led to the `reload` running now (empty outside one).
    pub(crate) changed_files: Vec<String>,
    pub(crate) effects: PaletteEffects,
    /// The post-process effects the cart set ([`Update::add_effect`]).
    pub(crate) post: PostEffects,
    pub(crate) loader: Loader,
    pub(crate) args: Vec<(String, String)>,
    pub(crate) synth: Synth,
    /// The cart's save data, and what it held at boot (see `save.rs`).
    pub(crate) save: SaveData,
    pub(crate) boot_save: SaveData,
    /// The cart's own pause-menu items, by slot; empty for none.
    pub(crate) menu_items: [String; crate::limits::MENU_ITEMS],
    /// The cart's key map ([`Update::set_key_map`]), and whether it changed since the host
    /// last took it.
    pub(crate) key_map: KeyMapTable,
    pub(crate) key_map_changed: bool,
    /// Whether the cart wants the mouse cursor shown ([`Update::set_cursor_visible`]).
    pub(crate) cursor_visible: bool,
    /// Whether the cart wants the pointer locked ([`Update::set_pointer_locked`]).
    pub(crate) pointer_locked: bool,
}

impl Console {
    /// A console for validated `settings`, its generator seeded with `seed`.
    pub fn new(settings: &Settings, seed: u64) -> Console {
        Console {
            clock: Timing {
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
            draw_calls: DrawCounts::default(),
            tags: Vec::new(),
            reset_requested: false,
            quit_requested: false,
            capture_requests: CaptureRequests::default(),
            changed_files: Vec::new(),
            effects: PaletteEffects::new(settings.target_fps, &settings.palette),
            post: PostEffects::default(),
            loader: Loader(None),
            args: Vec::new(),
            synth: Synth::new(settings.target_fps, seed),
            save: SaveData::new(),
            boot_save: SaveData::new(),
            menu_items: Default::default(),
            key_map: KeyMapTable::default(),
            key_map_changed: false,
            cursor_visible: true,
            pointer_locked: false,
        }
    }

    /// Gives carts a way to load images ([`Update::load_image`], [`Update::decode_image`]).
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

    /// Makes one fixed update's samples, `sample_rate / target_fps` of them with the fraction
    /// carried, into the buffer [`Console::drain_samples`] empties. Hosts call it once per
    /// update, right after the cart's `update` (not after `init`), so sounds started in an
    /// update are heard from that tick on.
    pub fn step_sound(&mut self) {
        self.synth.step();
    }

    /// The samples made since the last drain, folded to mono ([`to_mono`](crate::sound::to_mono):
    /// a cart that never pans gives exactly the mix of either side), signed 16-bit, at
    /// [`Console::sample_rate`]. [`Console::drain_frames`] gives both sides. The buffer keeps
    /// at most one second; past that it starts over, so a host that never drains (a long seek)
    /// uses no more memory.
    pub fn drain_samples(&mut self) -> impl ExactSizeIterator<Item = i16> + '_ {
        self.synth.drain().map(crate::sound::to_mono)
    }

    /// The frames made since the last drain: left and right, signed 16-bit, at
    /// [`Console::sample_rate`], as [`Console::drain_samples`] keeps them.
    pub fn drain_frames(&mut self) -> std::vec::Drain<'_, crate::sound::Frame> {
        self.synth.drain()
    }

    /// The frames made since the last drain, left in place.
    pub fn pending_frames(&self) -> &[crate::sound::Frame] {
        self.synth.pending()
    }

    /// What the synthesiser did in the last update (levels, voices, notes cut off): for a
    /// host's meter; reading it changes nothing.
    pub fn sound_meter(&self) -> crate::sound::SoundMeter {
        self.synth.meter()
    }

    /// Samples a second ([`DEFAULT_SAMPLE_RATE`](crate::sound::DEFAULT_SAMPLE_RATE) until set).
    pub fn sample_rate(&self) -> u32 {
        self.synth.rate()
    }

    /// Sets the sample rate (0 counts as 1). Call it before the first update: it empties the
    /// sample buffer and starts the per-update fraction over.
    pub fn set_sample_rate(&mut self, rate: u32) {
        self.synth.set_rate(rate, self.clock.target_fps);
    }

    /// The post-process effects the cart has set.
    pub fn post_effects(&self) -> &PostEffects {
        &self.post
    }

    /// Runs the post-process stack's pixel tier ([`Effect::Glitch`](crate::Effect::Glitch),
    /// [`Effect::Mosaic`](crate::Effect::Mosaic)) on the framebuffer as the cart's `render`
    /// left it, for the frame at the current tick. Hosts call it after `render` and before
    /// drawing anything of their own (the overlay), unless the player turned effects off.
    pub fn apply_pixel_effects(&mut self) {
        self.post.apply_pixel_tier(&mut self.fb, self.clock.ticks);
    }

    /// Whether any palette effect is running.
    pub fn effects_active(&self) -> bool {
        self.effects.is_active()
    }

    /// Puts everything back as it was at boot: generator reseeded with `seed`, boot palette,
    /// camera at the origin, no input, no pending tags, a blank framebuffer, the boot save data,
    /// the default key map, the cursor shown.
    pub fn reset(&mut self, seed: u64) {
        self.clock.ticks = 0;
        self.clock.render_alpha = 0.0;
        self.rng.reseed(seed);
        self.input.clear();
        self.palette.clone_from(&self.boot_palette);
        self.camera = (0, 0);
        self.fb.clear(0);
        self.fb.reset_clip();
        self.fb.pen_reset();
        self.tags.clear();
        self.reset_requested = false;
        self.quit_requested = false;
        self.capture_requests = CaptureRequests::default();
        self.effects.reset();
        self.post.clear();
        self.synth.reset(seed);
        self.reset_save();
        for item in &mut self.menu_items {
            item.clear();
        }
        self.cursor_visible = true;
        self.pointer_locked = false;
        if self.key_map != KeyMapTable::default() {
            self.key_map = KeyMapTable::default();
            self.key_map_changed = true;
        }
    }

    /// The cart's key map, when it changed since the last call ([`Update::set_key_map`],
    /// [`Update::reset_key_map`], or a [`Console::reset`] that put the defaults back): the host
    /// applies it to the keyboard before the next key reaches the console. Never allocates.
    pub fn take_key_map_change(&mut self) -> Option<KeyMapTable> {
        std::mem::take(&mut self.key_map_changed).then_some(self.key_map)
    }

    /// The cart's own pause-menu items as `(slot, label)`, in slot order
    /// ([`Update::set_menu_item`]).
    pub fn menu_items(&self) -> impl Iterator<Item = (usize, &str)> {
        self.menu_items
            .iter()
            .enumerate()
            .filter(|(_, label)| !label.is_empty())
            .map(|(slot, label)| (slot, label.as_str()))
    }

    /// The context for one update (or `init`) at `ticks`. Makes the input edges collected since
    /// the previous update visible.
    pub fn update_context(&mut self, ticks: u64) -> Update<'_> {
        self.clock.ticks = ticks;
        self.input.begin_update();
        Update { con: self }
    }

    /// The context for one update at `ticks` that sees exactly `tick` instead of the input fed
    /// since the previous update: a replay (see [`Input::begin_update_from`]).
    pub fn update_context_replayed(&mut self, ticks: u64, tick: &TickInput) -> Update<'_> {
        self.clock.ticks = ticks;
        self.input.begin_update_from(tick);
        Update { con: self }
    }

    /// The context for `init`: like an update, but input edges stay queued for the first update.
    pub fn init_context(&mut self) -> Update<'_> {
        self.clock.ticks = 0;
        Update { con: self }
    }

    /// The context for [`Cart::reload`](crate::Cart::reload): the clock as it is, and no new input edges.
    pub fn reload_context(&mut self) -> Update<'_> {
        Update { con: self }
    }

    /// The context for one render at `ticks` with `render_alpha` in `[0, 1)`. The framebuffer
    /// is blanked to index 0, and the clip, the remap and the fill pattern reset first (and
    /// again by [`Console::framebuffer_mut`], so what the host draws after the cart, the
    /// overlay, is never remapped).
    pub fn render_context(&mut self, ticks: u64, render_alpha: f64) -> Render<'_> {
        self.clock.ticks = ticks;
        self.clock.render_alpha = render_alpha;
        self.fb.clear(0);
        self.fb.reset_clip();
        self.fb.pen_reset();
        self.effects.refresh_shown(&self.palette);
        self.draw_calls = DrawCounts::default();
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
        self.draw_calls.total()
    }

    /// The last render's drawing calls by kind (see [`DrawCounts`]): the overlay's renderer
    /// row.
    pub fn draw_counts(&self) -> DrawCounts {
        self.draw_calls
    }

    /// The files whose change the next `reload` answers, as [`Update::changed_files`] gives
    /// them to the cart; the host sets them before `reload` and empties them after.
    pub fn set_changed_files(&mut self, changed: &[String]) {
        self.changed_files.clear();
        self.changed_files.extend(changed.iter().cloned());
    }

    /// The pictures the cart asked for ([`Update::capture_frame`],
    /// [`Update::capture_frame_sized`]) since this was last called: the host's to answer once,
    /// after the frame is drawn. Taking them changes nothing the game sees.
    pub fn take_capture_requests(&mut self) -> CaptureRequests {
        std::mem::take(&mut self.capture_requests)
    }

    /// Whether the cart called [`Update::quit`] since boot (or the last [`Console::reset`]):
    /// a host runs no update after the one that asked, and ends the run there.
    pub fn quit_requested(&self) -> bool {
        self.quit_requested
    }

    /// Whether the cart asked for `reset_ticks` since the last call; clears the request.
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

    /// The framebuffer, for the host's own drawing (the overlay), with the cart's remap and
    /// fill pattern put back to plain: they last only for the cart's render.
    pub fn framebuffer_mut(&mut self) -> &mut Framebuffer {
        self.fb.pen_reset();
        &mut self.fb
    }

    /// The palette to show: the live palette, or a running flash over it.
    pub fn palette(&self) -> &Palette {
        self.effects.shown(&self.palette)
    }

    /// The input state, as the current update sees it ([`Input::visible`]).
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// The input state, for the host to feed.
    pub fn input_mut(&mut self) -> &mut Input {
        &mut self.input
    }

    /// Whether the cart wants the mouse cursor shown over its picture
    /// ([`Update::set_cursor_visible`]; shown until the cart hides it). Hosts with a cursor
    /// apply it; it is not recorded in replays.
    pub fn cursor_visible(&self) -> bool {
        self.cursor_visible
    }

    /// Whether the cart wants the pointer locked ([`Update::set_pointer_locked`]): hosts that
    /// can lock it do, and report its motion with `Input::add_pointer_motion`.
    pub fn pointer_locked(&self) -> bool {
        self.pointer_locked
    }

    /// The camera offset set by the cart.
    pub fn camera(&self) -> (i32, i32) {
        self.camera
    }
}

/// A small console for the crate's unit tests: 8x8 pixels at 10 updates a second, seed 1.
#[cfg(test)]
pub(crate) fn test_console() -> Console {
    Console::new(&Settings::default().display(8, 8).target_fps(10.0), 1)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::{Button, Color32, Easing, Player};

    fn console() -> Console {
        test_console()
    }

    #[test]
    fn init_keeps_input_edges_for_the_first_update() {
        let mut con = Console::new(&Settings::default(), 1);
        con.input_mut().set_buttons(Button::A, Player::ONE, true);
        let ctx = con.init_context();
        assert!(!ctx.is_pressed(Button::A, Player::ONE));
        let ctx = con.update_context(0);
        assert!(ctx.is_pressed(Button::A, Player::ONE));
    }

    #[test]
    fn effects_advance_only_when_the_host_steps_them_and_reset_clears_them() {
        let mut con = console();
        let white = Color32::rgb(255, 255, 255);
        con.update_context(0)
            .flash_palette(white, Duration::from_millis(500));
        con.step_effects();
        assert_eq!(con.palette().get(3), Some(white));
        assert_eq!(con.render_context(1, 0.0).palette().get(3), Some(white));
        assert!(con.effects_active());
        con.reset(1);
        assert!(!con.effects_active());
        assert_eq!(con.palette(), &Palette::pico8());
    }

    #[test]
    fn ticks_in_rounds_a_duration_to_updates_at_the_carts_rate() {
        // The test console runs at 10 updates a second.
        let mut con = console();
        let ctx = con.update_context(0);
        assert_eq!(ctx.ticks_in(Duration::ZERO), 0);
        assert_eq!(ctx.ticks_in(Duration::from_millis(500)), 5);
        assert_eq!(ctx.ticks_in(Duration::from_millis(249)), 2);
        assert_eq!(ctx.ticks_in(Duration::from_millis(250)), 3);
        assert_eq!(ctx.ticks_in(Duration::MAX), 18_446_744_073_709_551_615);
        let mut fast = Console::new(&Settings::default().target_fps(60.0), 1);
        assert_eq!(fast.update_context(0).ticks_in(Duration::from_secs(2)), 120);
    }

    #[test]
    fn fade_then_swap_and_clear() {
        let mut con = console();
        let target = Palette::gameboy();
        let mut ctx = con.update_context(0);
        ctx.fade_palette_range(1, 2, &target, Duration::from_millis(100), Easing::Linear);
        // An empty range fades nothing.
        ctx.fade_palette_range(4, 3, &target, Duration::from_millis(1), Easing::Linear);
        con.step_effects();
        con.step_effects();
        assert_eq!(con.palette().get(1), target.get(1));
        assert_eq!(con.palette().get(3), Palette::pico8().get(3));
        let mut ctx = con.update_context(2);
        ctx.palette_mut().swap(1, 3).unwrap();
        assert_eq!(ctx.palette().get(3), target.get(1));
        let err = ctx.palette_mut().swap(1, 200).unwrap_err();
        assert_eq!(
            err,
            crate::PaletteError::SlotOutOfRange {
                slot: 200,
                size: 16
            }
        );
        assert_eq!(
            ctx.palette().get(1),
            Palette::pico8().get(3),
            "a slot past the end: an error and no swap"
        );
        ctx.cycle_palette(4, 6, 100.0);
        ctx.clear_palette_effects();
        assert!(!con.effects_active());
    }
}
