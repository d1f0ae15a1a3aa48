//! What a player does, turned into what the engine sees: the layer between a platform (the
//! window, gamepads) and [`Engine`].
//!
//! A platform translates its own events into [`HostEvent`]s and hands them to [`Host::handle`];
//! once per displayed frame it calls [`Host::frame`]. Nothing here knows about windows, so tests
//! drive exactly what a player's window drives, event by event, with no display.
//!
//! The host keeps a few keys for itself ([`HOST_KEYS`]): Backquote toggles the overlay, F5 pauses
//! and resumes, F6 runs one update while paused, F8 saves the last seconds of frame timings (a
//! report and a Chrome trace), F9 saves a screenshot, F10 (and Shift+F10) ask the window for a
//! GIF of what it shows (see [`crate::host::gif_recorder`]) and F11 asks the window for fullscreen.
//! They do not reach the cart.
//!
//! Ctrl+Q quits ([`Host::quit_requested`]). P opens the pause menu ([`crate::host::pause_menu`])
//! unless the key map gives P a button; while it is open, keys go to the menu alone.

use std::io::Write;
use std::path::{Path, PathBuf};

use bt::host::{Source, TRIGGER_PRESS};
use bt::{Axis, Button, Key, Player};
use bt_overlay::{ChartMode, Overlay};

#[cfg(feature = "files")]
use crate::config::manifest::PaletteSource;
use crate::engine::Origin;
use crate::engine::{Engine, EngineError, FrameReport};
#[cfg(feature = "files")]
use crate::host::asset_watch::AssetWatcher;
use crate::host::keymap::{KeyMap, HOST_KEYS, KEYBOARD_PLAYERS};
use crate::host::pause_menu::{MenuChoice, MenuInput, MenuKey, PauseMenu, MENU_KEY};
#[cfg(feature = "files")]
use crate::save::{SaveStore, StoreEvent};
use crate::timing::timeline::Timeline;

/// The most characters of a notice the host puts across the top of a 320-pixel display and a
/// little beyond: the rest of a long message is cut.
const NOTICE_CHARS: usize = 120;
#[cfg(feature = "files")]
use crate::export::{png, safe_write};

/// One thing a player did, in the console's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HostEvent<'a> {
    /// A key went down or up. Repeats from the keyboard's own auto-repeat are not events.
    Key {
        /// The key.
        key: Key,
        /// Whether it went down.
        down: bool,
    },
    /// Text the keyboard produced.
    Text(&'a str),
    /// The pointer moved to a display pixel (already clamped to the display).
    PointerMoved {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// The pointer left the display.
    PointerLeft,
    /// The window lost the keyboard focus: every key and pointer button held is let go (their
    /// releases reach the next update), since their releases would go to another window.
    FocusLost,
    /// A pointer button (`Button::POINTER_A` ... `Button::POINTER_D`) went down or up.
    PointerButton {
        /// The button.
        button: Button,
        /// Whether it went down.
        down: bool,
    },
    /// The wheel turned, in lines (positive right and down).
    Wheel {
        /// Horizontal lines.
        dx: f32,
        /// Vertical lines.
        dy: f32,
    },
    /// A gamepad became `player`'s.
    GamepadConnected {
        /// The player.
        player: Player,
    },
    /// `player`'s gamepad went away: its buttons are let go and its axes centred.
    GamepadDisconnected {
        /// The player.
        player: Player,
    },
    /// Gamepad buttons of `player` went down or up.
    GamepadButton {
        /// The player.
        player: Player,
        /// The buttons.
        buttons: Button,
        /// Whether they went down.
        down: bool,
    },
    /// A gamepad axis of `player` moved (sticks -1..1, down and right positive; triggers 0..1).
    /// Triggers also hold `Button::L2` / `Button::R2` from [`TRIGGER_PRESS`] on.
    GamepadAxis {
        /// The player.
        player: Player,
        /// The axis.
        axis: Axis,
        /// The raw reading.
        value: f32,
    },
}

/// Something the platform should do or tell the player after an event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostAction {
    /// F11: switch fullscreen on or off.
    ToggleFullscreen,
    /// F9: a screenshot was saved here.
    Saved(PathBuf),
    /// F8 or F9: the timings or the screenshot could not be saved.
    SaveFailed(String),
    /// F5 paused live play.
    Paused,
    /// F5 resumed live play.
    Resumed,
    /// F6 ran one update; the tick counter is now this.
    Stepped(u64),
    /// The overlay was shown or hidden.
    OverlayToggled,
    /// F10: start recording a GIF of what the window shows, or stop and save it.
    ToggleGif,
    /// Shift+F10: save the last seconds the window showed as a GIF (`bt run --gif-buffer`).
    SaveGifBuffer,
    /// Ctrl+Q, or Quit in the pause menu: close the window.
    Quit,
    /// P opened the pause menu (live play is paused).
    MenuOpened,
    /// The pause menu's selection moved: show the frame again.
    MenuChanged,
    /// Restart in the pause menu: the cart started again from boot, and plays.
    Restarted,
    /// F8: the last seconds of frame timings were saved as a report and a Chrome trace.
    SavedTimings {
        /// The HTML report.
        report: PathBuf,
        /// The Chrome trace.
        trace: PathBuf,
    },
}

/// The engine, its key map, and what the player is holding.
#[derive(Debug)]
pub struct Host {
    engine: Engine,
    keymap: KeyMap,
    /// Keys physically held, bit `k` for `Key::ALL[k]` (host keys included).
    keys_held: u128,
    pointer: (i32, i32),
    /// Where F8 and F9 save, and the cart's name their files and recordings take. Without
    /// `files` the host saves nothing: a platform with no disk saves what it is handed.
    #[cfg_attr(not(feature = "files"), allow(dead_code))]
    captures: PathBuf,
    #[cfg_attr(not(feature = "files"), allow(dead_code))]
    name: String,
    /// The cart's files, watched for changes, and its palette file when it has one.
    #[cfg(feature = "files")]
    watch: Option<(AssetWatcher, Option<PaletteSource>)>,
    /// The last [`RECENT_TIMINGS_MS`] of frames, for F8.
    recent: Timeline,
    /// Every frame of the run, when a trace of it was asked for.
    whole_run: Option<Timeline>,
    /// Where the recording goes, when the run is recorded (`bt run --record`).
    #[cfg(feature = "files")]
    record: Option<RecordTarget>,
    /// Whether the cart's panic is on screen as the overlay's notice.
    panic_shown: bool,
    /// The cart's save file, written back when the cart changes its save data.
    #[cfg(feature = "files")]
    save: Option<SaveStore>,
    /// Where messages the player should read in full go (a failed reload): stderr.
    errors: ErrorOutput,
    /// The pause menu, while it is open.
    menu: Option<PauseMenu>,
    /// Keys the menu took (pressed while it was open, or the one that opened it): none of
    /// them reaches the cart until it is let go.
    swallowed: u128,
    /// A key the menu took may type text next, which goes nowhere.
    swallow_text: bool,
    /// The player asked to quit.
    quit: bool,
}

/// The stream [`Host`] writes its errors to.
// Read only to report a failed reload of the cart's files.
#[cfg_attr(not(feature = "files"), allow(dead_code))]
struct ErrorOutput(Box<dyn Write + Send>);

impl std::fmt::Debug for ErrorOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ErrorOutput")
    }
}

/// Where a recording is saved, and what it says of the cart.
#[cfg(feature = "files")]
#[derive(Debug)]
struct RecordTarget {
    path: PathBuf,
    cart_version: Option<String>,
    /// Frames since the file was last written.
    frames_since_save: u64,
}

/// Frames between two saves of a recording in progress (10 s at 60 frames a second), so a run
/// killed without warning loses at most that much. Each save rewrites the whole file, which
/// grows only with changes of input.
pub const RECORD_SAVE_EVERY_FRAMES: u64 = 600;

/// How much of the recent past F8 saves, in ms of the clock's time.
pub const RECENT_TIMINGS_MS: f64 = 10_000.0;

impl Host {
    /// A host for `engine`, reading keys through `keymap`. Screenshots go to
    /// `captures/<name>-NNNN.png`.
    pub fn new(engine: Engine, keymap: KeyMap, captures: &Path, name: &str) -> Host {
        let engine_fps = engine.settings().target_fps;
        Host {
            engine,
            keymap,
            keys_held: 0,
            pointer: (0, 0),
            captures: captures.to_path_buf(),
            name: name.to_string(),
            #[cfg(feature = "files")]
            watch: None,
            recent: Timeline::rolling(1000.0 / engine_fps, RECENT_TIMINGS_MS),
            whole_run: None,
            #[cfg(feature = "files")]
            record: None,
            panic_shown: false,
            #[cfg(feature = "files")]
            save: None,
            errors: ErrorOutput(Box::new(std::io::stderr())),
            menu: None,
            swallowed: 0,
            swallow_text: false,
            quit: false,
        }
    }

    /// Sends the messages the host writes in full (a failed reload, as `bt: reload: …`) to
    /// `output` instead of stderr.
    pub fn set_error_output(&mut self, output: Box<dyn Write + Send>) {
        self.errors = ErrorOutput(output);
    }

    /// Records the run into the replay file `path` (see [`crate::replay`]): saved through a
    /// temporary file every [`RECORD_SAVE_EVERY_FRAMES`] frames, by [`Host::save_recording`]
    /// at exit, and when the host is dropped (a panic unwinding included). An engine already
    /// recording (started before a seek) keeps its recording.
    #[cfg(feature = "files")]
    pub fn record_to(&mut self, path: PathBuf, cart_version: Option<String>) {
        if !self.engine.is_recording() {
            self.engine
                .start_recording(crate::replay::DEFAULT_HASH_EVERY);
        }
        self.record = Some(RecordTarget {
            path,
            cart_version,
            frames_since_save: 0,
        });
    }

    /// Writes the recording so far to its file. Returns the file and the updates it holds, or
    /// `None` when the run is not recorded.
    ///
    /// # Errors
    /// A message naming the file that could not be written.
    #[cfg(feature = "files")]
    pub fn save_recording(&mut self) -> Result<Option<(PathBuf, u64)>, String> {
        let Some(target) = &mut self.record else {
            return Ok(None);
        };
        target.frames_since_save = 0;
        let Some(replay) = self
            .engine
            .recording(&self.name, target.cart_version.as_deref())
        else {
            return Ok(None);
        };
        replay.save(&target.path).map_err(|e| e.to_string())?;
        Ok(Some((target.path.clone(), replay.ticks())))
    }

    /// Keeps every frame from now on, for [`Host::whole_run`] (`bt run --trace-out`). Memory
    /// grows by about a hundred bytes a frame.
    pub fn record_whole_run(&mut self) {
        let budget = self.recent.budget_ms();
        self.whole_run = Some(Timeline::new(budget));
    }

    /// Every frame since [`Host::record_whole_run`], if it was called.
    pub fn whole_run(&self) -> Option<&Timeline> {
        self.whole_run.as_ref()
    }

    /// The frames of the last [`RECENT_TIMINGS_MS`].
    pub fn recent_timings(&self) -> &Timeline {
        &self.recent
    }

    /// Saves the last seconds of frame timings into the captures folder as
    /// `<name>-timings-NNNN.html` (the report) and `.json` (the Chrome trace), under the first
    /// number neither file takes. Never overwrites a file.
    ///
    /// # Errors
    /// A message naming the folder or file that could not be written.
    #[cfg(feature = "files")]
    pub fn save_timings(&mut self) -> Result<(PathBuf, PathBuf), String> {
        std::fs::create_dir_all(&self.captures)
            .map_err(|e| format!("cannot create {}: {e}", self.captures.display()))?;
        let (report, trace) = (1..=9999)
            .map(|n| {
                let stem = format!("{}-timings-{n:04}", self.name);
                (
                    self.captures.join(format!("{stem}.html")),
                    self.captures.join(format!("{stem}.json")),
                )
            })
            .find(|(r, t)| !r.exists() && !t.exists())
            .ok_or_else(|| format!("{} holds 9999 timings already", self.captures.display()))?;
        let page = crate::timing::report::html(&self.recent, &self.name)?;
        let mut json = Vec::new();
        self.recent
            .write_chrome_trace(&mut json, &self.name)
            .map_err(|e| e.to_string())?;
        safe_write::write_atomically(&report, page.as_bytes()).map_err(|e| e.to_string())?;
        safe_write::write_atomically(&trace, &json).map_err(|e| e.to_string())?;
        Ok((report, trace))
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Whether live play is paused (by F5, or by `--at`).
    pub fn is_paused(&self) -> bool {
        self.engine.is_paused()
    }

    /// Pauses on the frame at `seconds`, replayed from the start, as `bt run --at` opens.
    ///
    /// # Errors
    /// As [`Engine::render_at`].
    pub fn pause_at(&mut self, seconds: f64) -> Result<(), EngineError> {
        let paused = self.engine.render_at(seconds, Origin::Start);
        self.show_panic();
        paused?;
        self.show_paused();
        Ok(())
    }

    /// Reloads the cart's assets whenever `watcher` sees a change, and its palette from
    /// `palette` when that is a file.
    #[cfg(feature = "files")]
    pub fn watch_assets(&mut self, watcher: AssetWatcher, palette: Option<PaletteSource>) {
        let palette = palette.filter(|p| matches!(p, PaletteSource::File(_)));
        self.watch = Some((watcher, palette));
    }

    /// One displayed frame at `now_ms` (see [`Engine::run`]), after reloading the cart's
    /// assets if they changed on disk. When the cart panics, the engine stays paused and the
    /// panic shows across the top of the picture as the overlay's notice.
    pub fn frame(&mut self, now_ms: f64) -> Option<FrameReport> {
        #[cfg(feature = "files")]
        if self.watch.as_ref().is_some_and(|(w, _)| w.take_change()) {
            self.reload_assets();
        }
        let report = self.engine.run(now_ms);
        self.show_panic();
        #[cfg(feature = "files")]
        self.store_save();
        let report = report?;
        let missed = self
            .engine
            .overlay()
            .and_then(|o| o.last_missed_refreshes())
            .unwrap_or(0);
        let tags = self.engine.last_frame_tags();
        self.recent.record(&report, missed, tags);
        if let Some(run) = &mut self.whole_run {
            run.record(&report, missed, tags);
        }
        #[cfg(feature = "files")]
        if let Some(target) = &mut self.record {
            target.frames_since_save += 1;
            if target.frames_since_save >= RECORD_SAVE_EVERY_FRAMES {
                if let Err(e) = self.save_recording() {
                    let overlay = self.engine.overlay_forced();
                    overlay.set_notice(&crate::quote::excerpt_chars(&e, 120));
                }
            }
        }
        Some(report)
    }

    /// Puts the cart's panic, if it panicked, on screen as the overlay's notice (once), and
    /// takes it away when a replay has brought the cart back.
    fn show_panic(&mut self) {
        match (self.engine.cart_panic(), self.panic_shown) {
            (Some(panic), false) => {
                let line = crate::quote::excerpt_chars(&panic.to_string(), NOTICE_CHARS);
                self.engine.overlay_forced().set_notice(&line);
                self.engine.draw_overlay();
                self.panic_shown = true;
                // The run up to the panic is what a bug report needs: save it now.
                #[cfg(feature = "files")]
                if let Err(e) = self.save_recording() {
                    let _ = std::io::Write::write_fmt(
                        &mut std::io::stderr(),
                        format_args!("bt: recording not saved: {e}\n"),
                    );
                }
            }
            (None, true) => {
                self.engine.overlay_forced().clear_notice();
                self.panic_shown = false;
            }
            _ => {}
        }
    }

    /// Loads the palette file (if any) and the cart's assets again. A failure shows on screen
    /// as the overlay's notice, wrapped or shortened to fit the display
    /// ([`crate::host::notice::fit`]), and in full on stderr; the cart keeps what it had, and
    /// the next good load clears the notice.
    #[cfg(feature = "files")]
    pub fn reload_assets(&mut self) {
        if self.engine.cart_panic().is_some() {
            // The cart is stopped and its panic on screen: nothing to reload into.
            return;
        }
        let palette = self.watch.as_ref().and_then(|(_, p)| p.clone());
        let mut problem = None;
        if let Some(source) = palette {
            match crate::config::manifest::load_palette(&source) {
                Ok(p) => self.engine.replace_palette(p),
                Err(e) => problem = Some(e.to_string()),
            }
        }
        if let Err(e) = self.engine.reload_assets() {
            problem.get_or_insert(e);
        }
        let (width, height) = (self.engine.settings().width, self.engine.settings().height);
        let overlay = self.engine.overlay_forced();
        match problem {
            Some(message) => {
                let line = format!("reload: {message}");
                overlay.set_notice(&crate::host::notice::fit(&line, width, height));
                // In full on the terminal, where a path of any length can be read and copied.
                let _ = writeln!(self.errors.0, "bt: {line}");
            }
            None => overlay.clear_notice(),
        }
        if self.engine.is_paused() {
            // Nothing runs while paused: draw the same frame again with the new assets. A cart
            // whose replayed init failed is not drawn; the next replay draws it.
            let _ = self.engine.redraw();
            self.menu_over_new_frame();
        }
        self.show_panic();
    }

    /// Feeds one event to the console. Returns what the platform should do about it, if anything.
    pub fn handle(&mut self, event: HostEvent<'_>) -> Option<HostAction> {
        let input = self.engine.console_mut().input_mut();
        match event {
            HostEvent::Key { key, down } => return self.key(key, down),
            HostEvent::Text(_) if self.menu.is_some() || self.swallow_text => {
                self.swallow_text = false;
            }
            HostEvent::Text(text) => input.push_text(text),
            HostEvent::PointerMoved { x, y } => {
                self.pointer = (x, y);
                input.set_pointer_pos(x, y);
            }
            HostEvent::PointerLeft => input.set_pointer_inactive(),
            HostEvent::FocusLost => {
                input.set_held_from(Source::Pointer, Button::NONE, Player::ONE);
                let mut held = self.keys_held;
                while held != 0 {
                    let i = held.trailing_zeros() as usize;
                    if let Some(&key) = Key::ALL.get(i) {
                        input.set_key(key, false);
                    }
                    held &= held - 1;
                }
                self.keys_held = 0;
                for player in &Player::ALL[..KEYBOARD_PLAYERS] {
                    input.set_held_from(Source::Keyboard, Button::NONE, *player);
                }
            }
            HostEvent::PointerButton { button, down } => {
                let h = self.engine.settings().height as i32;
                let (x, y) = self.pointer;
                // A press on the toggle corner belongs to the host, not the cart (its release
                // then finds nothing held and makes no edge either).
                if down && button.intersects(Button::POINTER_A) && Overlay::hits_toggle(x, y, h) {
                    return self.toggle_overlay();
                }
                self.engine.console_mut().input_mut().set_buttons_from(
                    Source::Pointer,
                    button,
                    Player::ONE,
                    down,
                );
            }
            HostEvent::Wheel { dx, dy } => input.add_wheel(dx, dy),
            HostEvent::GamepadConnected { player } => input.set_gamepad_connected(player, true),
            HostEvent::GamepadDisconnected { player } => {
                input.set_gamepad_connected(player, false);
            }
            HostEvent::GamepadButton {
                player,
                buttons,
                down,
            } => input.set_buttons_from(Source::Gamepad, buttons, player, down),
            HostEvent::GamepadAxis {
                player,
                axis,
                value,
            } => {
                input.set_axis(axis, player, value);
                let trigger = match axis {
                    Axis::TriggerL => Button::L2,
                    Axis::TriggerR => Button::R2,
                    _ => Button::NONE,
                };
                if !trigger.is_empty() {
                    input.set_buttons_from(
                        Source::Gamepad,
                        trigger,
                        player,
                        value >= TRIGGER_PRESS,
                    );
                }
            }
        }
        None
    }

    fn key(&mut self, key: Key, down: bool) -> Option<HostAction> {
        let bit = 1u128 << (key as u8);
        let was_down = self.keys_held & bit != 0;
        if down {
            self.keys_held |= bit;
        } else {
            self.keys_held &= !bit;
        }
        let pressed = down && !was_down;
        self.swallow_text = false;
        if pressed && key == Key::KeyQ && self.held_any(&[Key::ControlLeft, Key::ControlRight]) {
            self.quit = true;
            self.swallowed |= bit;
            self.swallow_text = true;
            return Some(HostAction::Quit);
        }
        if self.swallowed & bit != 0 {
            if !down {
                self.swallowed &= !bit;
            }
            return None;
        }
        if self.menu.is_some() && down {
            self.swallowed |= bit;
            self.swallow_text = true;
            return pressed.then(|| self.menu_key(key)).flatten();
        }
        if HOST_KEYS.contains(&key) {
            return pressed.then(|| self.host_key(key)).flatten();
        }
        if pressed && key == MENU_KEY && self.menu_key_is_free() {
            self.swallowed |= bit;
            self.swallow_text = true;
            return self.open_menu();
        }
        let input = self.engine.console_mut().input_mut();
        input.set_key(key, down);
        for player in &Player::ALL[..KEYBOARD_PLAYERS] {
            let held = self
                .keymap
                .held_buttons(self.keys_held & !self.swallowed, player.index());
            input.set_held_from(Source::Keyboard, Button::from_bits(held), *player);
        }
        None
    }

    /// Whether any of `keys` is held.
    fn held_any(&self, keys: &[Key]) -> bool {
        keys.iter()
            .any(|&k| self.keys_held & (1u128 << (k as u8)) != 0)
    }

    /// Whether P may open the menu: the key map gives it no button, and the cart is running
    /// or paused, not stopped by a panic.
    fn menu_key_is_free(&self) -> bool {
        (0..KEYBOARD_PLAYERS).all(|p| self.keymap.buttons(MENU_KEY, p) == 0)
            && self.engine.cart_panic().is_none()
    }

    /// Whether the player asked to quit: Ctrl+Q, or Quit in the pause menu. The window closes.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Whether the pause menu is open.
    pub fn menu_is_open(&self) -> bool {
        self.menu.is_some()
    }

    /// The pause menu, while it is open.
    pub fn menu(&self) -> Option<&PauseMenu> {
        self.menu.as_ref()
    }

    /// Pauses live play and opens the menu over the paused frame.
    fn open_menu(&mut self) -> Option<HostAction> {
        self.engine.pause();
        self.show_paused();
        let console = self.engine.console();
        self.menu = Some(PauseMenu::open(console.framebuffer(), console.menu_items()));
        self.draw_menu();
        Some(HostAction::MenuOpened)
    }

    /// Draws the menu over the frame, when it is open.
    fn draw_menu(&mut self) {
        let Some(menu) = &self.menu else { return };
        let colors = *self.engine.overlay_forced().colors();
        menu.draw(self.engine.console_mut().framebuffer_mut(), &colors);
    }

    /// After the frame was drawn again under an open menu: the menu over the new frame.
    fn menu_over_new_frame(&mut self) {
        if let Some(menu) = &mut self.menu {
            menu.retake(self.engine.console().framebuffer());
        }
        self.draw_menu();
    }

    /// Closes the menu and puts back the picture it covered.
    fn close_menu(&mut self) {
        if let Some(menu) = self.menu.take() {
            menu.restore(self.engine.console_mut().framebuffer_mut());
        }
    }

    /// A key pressed while the menu is open.
    fn menu_key(&mut self, key: Key) -> Option<HostAction> {
        if matches!(key, Key::F9 | Key::F11) {
            return self.host_key(key);
        }
        let buttons = self.keymap.buttons(key, 0);
        let kind = match key {
            Key::ArrowUp => MenuKey::Up,
            Key::ArrowDown => MenuKey::Down,
            Key::Enter | Key::Space => MenuKey::Choose,
            k if k == MENU_KEY || k == Key::Escape => MenuKey::Close,
            _ if buttons & bt::Button::UP.bits() != 0 => MenuKey::Up,
            _ if buttons & bt::Button::DOWN.bits() != 0 => MenuKey::Down,
            _ if buttons & (bt::Button::A | bt::Button::START).bits() != 0 => MenuKey::Choose,
            _ => MenuKey::Other,
        };
        let menu = self.menu.as_mut()?;
        match menu.press(kind) {
            MenuInput::Moved => {
                self.draw_menu();
                Some(HostAction::MenuChanged)
            }
            MenuInput::Chose(choice) => self.choose(choice),
        }
    }

    /// Does what the player chose in the menu, and closes it.
    fn choose(&mut self, choice: MenuChoice) -> Option<HostAction> {
        self.close_menu();
        match choice {
            MenuChoice::Quit => {
                self.quit = true;
                Some(HostAction::Quit)
            }
            MenuChoice::Cart(slot) => {
                // Input of the next update, recorded with it like any other.
                let input = self.engine.console_mut().input_mut();
                input.choose_menu_item(slot);
                self.engine.resume();
                self.show_paused();
                (!self.engine.is_paused()).then_some(HostAction::Resumed)
            }
            MenuChoice::Restart => {
                let restarted = self.engine.render_at(0.0, Origin::Start);
                self.show_panic();
                restarted.ok()?;
                self.engine.resume();
                self.show_paused();
                Some(HostAction::Restarted)
            }
            _ => {
                self.engine.resume();
                self.show_paused();
                (!self.engine.is_paused()).then_some(HostAction::Resumed)
            }
        }
    }

    fn host_key(&mut self, key: Key) -> Option<HostAction> {
        match key {
            Key::Backquote => self.change_view(Overlay::cycle_view),
            Key::F7 => self.change_view(|o| {
                // The tall chart, or back to the compact band; either way the metrics show.
                let tall = o.is_visible() && o.chart_mode() == ChartMode::Tall;
                o.set_visible(true);
                o.set_chart_mode(if tall {
                    ChartMode::Compact
                } else {
                    ChartMode::Tall
                });
            }),
            Key::F5 if self.engine.is_paused() => {
                self.engine.resume();
                self.show_paused();
                // A replay whose init failed stays paused.
                (!self.engine.is_paused()).then_some(HostAction::Resumed)
            }
            Key::F5 => {
                self.engine.pause();
                self.show_paused();
                Some(HostAction::Paused)
            }
            Key::F6 if self.engine.is_paused() => {
                let stepped = self.engine.step(1);
                self.show_panic();
                stepped.ok()?;
                self.show_paused();
                Some(HostAction::Stepped(self.engine.ticks()))
            }
            #[cfg(feature = "files")]
            Key::F8 => Some(match self.save_timings() {
                Ok((report, trace)) => HostAction::SavedTimings { report, trace },
                Err(e) => HostAction::SaveFailed(e),
            }),
            #[cfg(feature = "files")]
            Key::F9 => Some(match self.screenshot() {
                Ok(path) => HostAction::Saved(path),
                Err(e) => HostAction::SaveFailed(e),
            }),
            Key::F10 => {
                let shift = [Key::ShiftLeft, Key::ShiftRight]
                    .iter()
                    .any(|&k| self.keys_held & (1u128 << (k as u8)) != 0);
                Some(if shift {
                    HostAction::SaveGifBuffer
                } else {
                    HostAction::ToggleGif
                })
            }
            Key::F11 => Some(HostAction::ToggleFullscreen),
            _ => None,
        }
    }

    fn toggle_overlay(&mut self) -> Option<HostAction> {
        self.change_view(Overlay::toggle)
    }

    /// Changes what the overlay shows, and draws a paused frame again to show it.
    fn change_view(&mut self, change: impl FnOnce(&mut Overlay)) -> Option<HostAction> {
        change(self.engine.overlay_mut()?);
        if self.engine.cart_panic().is_some() {
            // The cart no longer draws: the overlay goes over its last picture.
            self.engine.draw_overlay();
        } else if self.engine.is_paused() {
            // Nothing runs while paused, so draw the same frame again with the overlay changed.
            let _ = self.engine.redraw();
            self.menu_over_new_frame();
        }
        Some(HostAction::OverlayToggled)
    }

    /// Puts `PAUSED tick N` on the overlay's title row while the engine is paused (and takes
    /// it off when it runs), then draws a paused frame again so the words show at once.
    pub fn show_paused(&mut self) {
        let paused = self.engine.is_paused().then(|| self.engine.ticks());
        if let Some(o) = self.engine.overlay_mut() {
            o.set_paused(paused);
        }
        if paused.is_some() {
            let _ = self.engine.redraw();
            self.menu_over_new_frame();
        }
    }

    /// Saves the framebuffer as it is on screen (display size, overlay included) into the
    /// captures folder, under the first `<name>-NNNN.png` not taken, as every output is written
    /// (see [`crate::export::safe_write`]). Never overwrites a file, even one made at the same moment by
    /// another program.
    ///
    /// # Errors
    /// A message naming the folder or file that could not be written.
    #[cfg(feature = "files")]
    pub fn screenshot(&mut self) -> Result<PathBuf, String> {
        std::fs::create_dir_all(&self.captures)
            .map_err(|e| format!("cannot create {}: {e}", self.captures.display()))?;
        let engine = &self.engine;
        let png = png::encode_png(engine.framebuffer(), engine.palette(), 1)
            .map_err(|e| e.to_string())?;
        for n in 1..=9999 {
            let path = self.captures.join(format!("{}-{n:04}.png", self.name));
            if safe_write::write_new(&path, safe_write::Format::Png, &png)
                .map_err(|e| e.to_string())?
            {
                return Ok(path);
            }
        }
        Err(format!(
            "{} holds 9999 captures already",
            self.captures.display()
        ))
    }
}

#[cfg(feature = "files")]
impl Host {
    /// Saves the recording for the last time and stops saving it: the window closed.
    ///
    /// # Errors
    /// As [`Host::save_recording`].
    pub fn finish_recording(&mut self) -> Result<Option<(PathBuf, u64)>, String> {
        let saved = self.save_recording();
        self.record = None;
        saved
    }
}

#[cfg(feature = "files")]
impl Host {
    /// Writes the cart's save data to `path` whenever the cart changes it (at most once every
    /// [`crate::save::WRITE_EVERY_SECONDS`] of updates), when the run ends
    /// ([`Host::finish_save`]), and when the host is dropped. `path` should hold what the
    /// engine booted with.
    pub fn store_save_to(&mut self, path: PathBuf) {
        self.save = Some(SaveStore::new(path, &self.engine));
    }

    /// After a frame: writes the save data when it is due. A failure shows as the overlay's
    /// notice and on stderr; the next change tries again.
    fn store_save(&mut self) {
        let Some(store) = &mut self.save else {
            return;
        };
        let said = match store.after_frame(&mut self.engine) {
            Ok(StoreEvent::Stopped) => format!(
                "replayed from the start: save data is no longer written to {}",
                store.path().display()
            ),
            Ok(_) => return,
            Err(e) => e.to_string(),
        };
        eprintln!("bt: {said}");
        let line = crate::quote::excerpt_chars(&said, NOTICE_CHARS);
        self.engine.overlay_forced().set_notice(&line);
    }

    /// Writes the save data one last time, if the cart changed it, and stops storing it: the
    /// window closed.
    ///
    /// # Errors
    /// The message naming the save file that could not be written.
    pub fn finish_save(&mut self) -> Result<(), String> {
        match self.save.take() {
            Some(mut store) => store
                .flush(&mut self.engine)
                .map(drop)
                .map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

#[cfg(feature = "files")]
impl Drop for Host {
    /// A recorded run is saved whatever ends it: a closed window saves it explicitly, and a
    /// cart that panics unwinds through here. So is the save data.
    fn drop(&mut self) {
        if let Err(e) = self.finish_save() {
            eprintln!("bt: {e}");
        }
        if self.record.is_some() {
            if let Err(e) = self.save_recording() {
                eprintln!("bt: the recording could not be saved: {e}");
            }
        }
    }
}
