//! A headless test bench for carts: build a cart, press its buttons and keys at chosen ticks,
//! run updates, and check what it draws against golden pictures.
//!
//! The cart runs as in `bt run`: the same engine, the same input path (edges seen by the next
//! update, keys through the default key map) and its `cart.toml`, but under a clock that gives
//! exactly one update per frame, so a test says "after 30 updates" and means it. The user's own
//! config file is not read, so a test gives the same result on every machine.
//!
//! ```
//! use bt::{Cart, Rect, Render, Update, Button, Player};
//! use bt_host::harness::CartTest;
//!
//! #[derive(Default)]
//! struct Walker {
//!     x: i32,
//! }
//!
//! impl Cart for Walker {
//!     fn update(&mut self, ctx: &mut Update<'_>) {
//!         if ctx.is_down(Button::RIGHT, Player::ONE) {
//!             self.x += 1;
//!         }
//!     }
//!     fn render(&self, ctx: &mut Render<'_>) {
//!         ctx.clear(1);
//!         ctx.draw_rect_fill(Rect::new(self.x, 10, 4, 4), 8);
//!     }
//! }
//!
//! let mut test = CartTest::new(Walker::default).unwrap();
//! test.press(Button::RIGHT, Player::ONE);
//! test.run(5);
//! test.release(Button::RIGHT, Player::ONE);
//! test.run(5);
//! assert_eq!(test.pixel(5, 10), 8, "moved five pixels while held");
//! assert_eq!(test.pixel(9, 10), 1, "and no further once let go");
//! ```
//!
//! [`CartTest::assert_golden`] compares the frame with a PNG in the cart's folder: a missing
//! picture is written on the first run (and the test fails under `CI`), and
//! `BT_UPDATE_GOLDEN=1 cargo test --release` rewrites them all after a change you have looked at.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bt::host::Framebuffer;
use bt::host::Source;
use bt::sound::Frame;
use bt::{Button, Cart, Key, Player};

use crate::clock::ConstantClock;
use crate::config::manifest;
use crate::engine::{Engine, EngineError};
use crate::export::png;
use crate::keymap::KeyMap;
use crate::session::{BootSave, Session, SessionError};
use crate::{Host, HostEvent, TouchPhase};

pub mod golden;

pub use golden::UPDATE_GOLDEN;

/// Why a cart could not be set up for a test.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// The cart's `cart.toml` is invalid.
    #[error(transparent)]
    Manifest(#[from] manifest::ManifestError),
    /// The engine refused the cart (bad settings, a failing `init`).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The cart could not boot for another reason (its `configure()` panicked).
    #[error(transparent)]
    Boot(SessionError),
}

impl From<SessionError> for HarnessError {
    fn from(e: SessionError) -> HarnessError {
        match e {
            SessionError::Manifest(e) | SessionError::Settings { error: e, .. } => {
                HarnessError::Manifest(e)
            }
            SessionError::Engine { error, .. } => HarnessError::Engine(error),
            other => HarnessError::Boot(other),
        }
    }
}

/// One cart under test. See the [module docs](self).
#[derive(Debug)]
pub struct CartTest {
    host: Host,
    folder: PathBuf,
    /// What the last run played.
    sound: Vec<Frame>,
}

impl CartTest {
    /// Builds the cart with `new` and runs its `init`. Its `cart.toml` and asset folder are
    /// looked up in the folder Cargo runs tests in (the cart crate's, `CARGO_MANIFEST_DIR`),
    /// else the working directory.
    ///
    /// # Errors
    /// A [`HarnessError`] for a bad `cart.toml` or a cart the engine refuses.
    pub fn new<C: Cart + 'static>(new: fn() -> C) -> Result<CartTest, HarnessError> {
        CartTest::in_folder(&cart_folder(), new)
    }

    /// As [`CartTest::new`], the cart booting with these arguments, as `bt run --arg
    /// name=value` passes them (`ctx.arg(name)`, `ctx.arg_or(name, default)`).
    ///
    /// # Errors
    /// As [`CartTest::new`].
    pub fn with_args<C: Cart + 'static>(
        new: fn() -> C,
        args: &[(&str, &str)],
    ) -> Result<CartTest, HarnessError> {
        let args = args
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        CartTest::booted(&cart_folder(), new, None, args)
    }

    /// As [`CartTest::new`], with the cart's folder given.
    ///
    /// # Errors
    /// As [`CartTest::new`].
    pub fn in_folder<C: Cart + 'static>(
        folder: &Path,
        new: fn() -> C,
    ) -> Result<CartTest, HarnessError> {
        CartTest::booted(folder, new, None, Vec::new())
    }

    /// As [`CartTest::new`], the cart booting with save data `save` (zeros after it) instead
    /// of empty save data, as `bt run` boots with a save file.
    ///
    /// # Errors
    /// As [`CartTest::new`], and [`EngineError::Save`] for more than
    /// [`bt::SaveData::CAPACITY`] bytes.
    pub fn with_save<C: Cart + 'static>(
        new: fn() -> C,
        save: &[u8],
    ) -> Result<CartTest, HarnessError> {
        CartTest::booted(&cart_folder(), new, Some(save.to_vec()), Vec::new())
    }

    /// The cart's save data as it stands: what it booted with and what it wrote since.
    pub fn save(&self) -> &bt::SaveData {
        self.host.engine().console().save()
    }

    fn booted<C: Cart + 'static>(
        folder: &Path,
        new: fn() -> C,
        save: Option<Vec<u8>>,
        args: Vec<(String, String)>,
    ) -> Result<CartTest, HarnessError> {
        // No user config and no command line: the same result on every machine.
        let session = Session::builder("test", Arc::new(move || Box::new(new()) as Box<dyn Cart>))
            .folder(folder)?
            .args(args)
            .save(save.map_or(BootSave::Empty, BootSave::Bytes))
            .overlay(false)
            .host_tick_per_update()
            .resolve()?;
        let mut engine = session.engine()?;
        let fps = session.settings().target_fps;
        // One update per frame, exactly: every frame's delta is one tick's worth.
        let step = ConstantClock::new(1000.0 / fps)
            .map_err(|_| EngineError::Settings(bt::SettingsError::TargetFps(fps)))?;
        engine.set_clock(Box::new(step));
        Ok(CartTest {
            host: Host::new(engine, KeyMap::default(), "test"),
            folder: folder.to_path_buf(),
            sound: Vec::new(),
        })
    }

    /// Runs `updates` updates, each followed by a render, as a steady display would.
    ///
    /// # Panics
    /// When the cart panics: the test fails with the cart's message and the tick.
    #[track_caller]
    pub fn run(&mut self, updates: u64) {
        self.sound.clear();
        for _ in 0..updates {
            let engine = self.host.engine_mut();
            engine.advance(1);
            self.sound.extend(engine.console_mut().drain_frames());
        }
        self.fail_on_panic();
    }

    /// The sound the last [`CartTest::run`] (or [`CartTest::run_to`]) played: stereo frames,
    /// left then right, at [`CartTest::sample_rate`] a second. They are the samples `bt wav`
    /// writes and a window plays for the same input, so a test can check that a press makes
    /// a sound, or compare it with an earlier run.
    ///
    /// ```
    /// use bt::{Cart, Render, Update};
    /// use bt_host::harness::CartTest;
    ///
    /// #[derive(Default)]
    /// struct Beep;
    ///
    /// impl Cart for Beep {
    ///     fn update(&mut self, ctx: &mut Update<'_>) {
    ///         if ctx.ticks() == 30 {
    ///             let bank = ctx.decode_sounds("beep.txt", "bt-sound 2\nsfx beep 6\nA4 sq 5\n");
    ///             if let Some(beep) = bank.ok().and_then(|b| b.sfx("beep")) {
    ///                 ctx.play_sfx(beep, None).ok();
    ///             }
    ///         }
    ///     }
    ///     fn render(&self, _: &mut Render<'_>) {}
    /// }
    ///
    /// let mut test = CartTest::new(Beep::default).unwrap();
    /// test.run(30);
    /// assert!(test.sound().iter().all(|&[l, r]| l == 0 && r == 0), "silent until tick 30");
    /// test.run(10);
    /// assert!(test.sound().iter().any(|&[l, _]| l != 0), "then the beep");
    /// assert_eq!(test.sound().len(), 10 * test.sample_rate() as usize / 60);
    /// ```
    pub fn sound(&self) -> &[Frame] {
        &self.sound
    }

    /// Sound frames a second: the rate of [`CartTest::sound`].
    pub fn sample_rate(&self) -> u32 {
        self.host.engine().console().sample_rate()
    }

    /// Fails the test when the cart panicked (the engine caught it and stopped the cart).
    #[track_caller]
    fn fail_on_panic(&self) {
        if let Some(panic) = self.host.engine().cart_panic() {
            panic!("{panic}");
        }
    }

    /// Runs updates until the tick counter reaches `tick` (none if it is there already).
    ///
    /// # Panics
    /// When the cart panics, as [`CartTest::run`].
    #[track_caller]
    pub fn run_to(&mut self, tick: u64) {
        let now = self.host.engine().updates_since_init();
        self.run(tick.saturating_sub(now));
    }

    /// Updates run since `init`.
    pub fn ticks(&self) -> u64 {
        self.host.engine().updates_since_init()
    }

    /// Holds `buttons` (`Button::A | Button::LEFT`, ...) for `player` from the next update on, as a
    /// gamepad would.
    pub fn press(&mut self, buttons: Button, player: Player) {
        self.buttons(buttons, player, true);
    }

    /// Lets go of `buttons` for `player` from the next update on.
    pub fn release(&mut self, buttons: Button, player: Player) {
        self.buttons(buttons, player, false);
    }

    fn buttons(&mut self, buttons: Button, player: Player, down: bool) {
        self.host
            .engine_mut()
            .console_mut()
            .input_mut()
            .set_buttons_from(Source::Gamepad, buttons, player, down);
    }

    /// Presses or lets go of a keyboard key, which also holds the buttons the default key map
    /// gives it (the arrows and Z/X for player 1).
    pub fn key(&mut self, key: Key, down: bool) {
        self.host.handle(HostEvent::Key { key, down });
    }

    /// Chooses the cart's pause-menu item `slot` (the one [`bt::Update::set_menu_item`] put
    /// there), as a player would from the menu: the next update, and only that one, sees it in
    /// [`bt::Update::chosen_menu_item`]. A slot past [`bt::limits::MENU_ITEMS`] is ignored.
    pub fn choose_menu_item(&mut self, slot: usize) {
        self.host
            .engine_mut()
            .console_mut()
            .input_mut()
            .choose_menu_item(slot);
    }

    /// Types `text`, as the keyboard's text input.
    pub fn type_text(&mut self, text: &str) {
        self.host.handle(HostEvent::Text(text));
    }

    /// Moves the pointer to display pixel (`x`, `y`).
    pub fn pointer_move(&mut self, x: i32, y: i32) {
        self.host.handle(HostEvent::PointerMoved { x, y });
    }

    /// Presses or lets go of a pointer button (`Button::POINTER_A` is the left one).
    pub fn pointer_button(&mut self, button: Button, down: bool) {
        self.host.handle(HostEvent::PointerButton { button, down });
    }

    /// Touches the screen with finger `id` at display pixel (`x`, `y`), or moves it there when
    /// it already touches: a new finger takes the first free touch slot, as on a touch screen,
    /// and the next update sees it in [`bt::Update::touch`].
    pub fn touch(&mut self, id: u64, x: i32, y: i32) {
        // A finger that already touches and "touches down" again is moved.
        let phase = TouchPhase::Started;
        self.host.handle(HostEvent::Touch { id, phase, x, y });
    }

    /// Lifts finger `id` off the screen (nothing when it does not touch).
    pub fn lift(&mut self, id: u64) {
        let phase = TouchPhase::Ended;
        self.host.handle(HostEvent::Touch {
            id,
            phase,
            x: 0,
            y: 0,
        });
    }

    /// The frame as last drawn: palette indices, `width × height`.
    pub fn frame(&self) -> &Framebuffer {
        self.host.engine().framebuffer()
    }

    /// Draws the current state again, so [`CartTest::frame`] shows it even before any update
    /// has run. An engine paused through [`CartTest::engine_mut`] is resumed, so the next
    /// [`CartTest::run`] runs.
    ///
    /// # Panics
    /// When the cart panics, as [`CartTest::run`].
    #[track_caller]
    pub fn render(&mut self) {
        let engine = self.host.engine_mut();
        // Refused only after a replay whose init failed (the frame then stays as it was), or
        // when the cart panicked.
        let _ = engine.redraw();
        engine.resume();
        self.fail_on_panic();
    }

    /// The palette index at (`x`, `y`), 0 outside the frame.
    pub fn pixel(&self, x: u32, y: u32) -> u8 {
        let fb = self.frame();
        if x >= fb.width() || y >= fb.height() {
            return 0;
        }
        fb.pixels()[(y * fb.width() + x) as usize]
    }

    /// The frame as RGBA bytes through the palette it is shown with.
    pub fn rgba(&self) -> Vec<u8> {
        let engine = self.host.engine();
        let fb = engine.framebuffer();
        let mut out = vec![0; fb.pixels().len() * 4];
        engine.palette().write_rgba(fb.pixels(), &mut out);
        out
    }

    /// Saves the frame as a PNG (relative paths from the cart's folder).
    ///
    /// # Errors
    /// A message naming the file when it cannot be written.
    pub fn save_png(&self, path: impl AsRef<Path>) -> Result<(), String> {
        let engine = self.host.engine();
        png::save_png(
            engine.framebuffer(),
            engine.palette(),
            1,
            &self.folder.join(path),
        )
        .map_err(|e| e.to_string())
    }

    /// Compares the frame with the golden picture at `path` (relative to the cart's folder),
    /// pixel by pixel, under the rule of [`golden`]: a missing picture is written and the test
    /// passes (commit it), except under `CI`, where it fails; with `BT_UPDATE_GOLDEN=1` every
    /// picture is rewritten.
    ///
    /// # Panics
    /// When the frame differs from the picture: the message gives how many pixels differ, the
    /// box around them and the first one, and names `NAME.actual.png` (this frame) and
    /// `NAME.diff.png` (the differences in magenta) saved beside the picture.
    #[track_caller]
    pub fn assert_golden(&self, path: impl AsRef<Path>) {
        let fb = self.frame();
        let pixels = self.rgba();
        golden::assert_matches(
            &self.folder.join(path),
            golden::Rgba {
                width: fb.width(),
                height: fb.height(),
                pixels: &pixels,
            },
        );
    }

    /// What the cart says a test should know about the game now ([`bt::Cart::test_state`]).
    pub fn test_state(&self) -> Option<String> {
        self.host.engine().test_state()
    }

    /// The engine, for anything the harness does not cover.
    pub fn engine_mut(&mut self) -> &mut Engine {
        self.host.engine_mut()
    }
}

/// The cart crate's folder when Cargo runs its tests (`CARGO_MANIFEST_DIR`), else the working
/// directory.
fn cart_folder() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}
