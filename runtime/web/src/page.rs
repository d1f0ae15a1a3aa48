//! The page's console: one cart on an [`Engine`](bt_engine::Engine), booted through a
//! [`Session`] as `bt run` boots it, behind the same [`Host`] `bt run` uses, with
//! the buffers the JavaScript host reads (the picture as RGBA, each frame's samples, text out).
//!
//! Nothing here knows it runs in a browser: the tests drive it natively, call by call, as the
//! page's script does.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bt::{Button, Cart, Key, Player};
use bt_engine::config::asset_pack::AssetPack;
use bt_engine::config::manifest::{manifest_from_carried, MANIFEST_FILE};
use bt_engine::engine::StateFile;
use bt_engine::replay::{DEFAULT_HASH_EVERY, MAX_REPLAY_BYTES};
use bt_engine::session::{ReplaySource, Session};
use bt_host::keymap::KeyMap;
use bt_host::{
    Destination, FileKind, Host, HostAction, HostEvent, OutFile, TouchPhase, LOAD_STATE_KEY,
    SAVE_STATE_KEY,
};

use bt_net::{NetSession, NetSettings, Seat};

use crate::event::PageEvent;
use crate::net::{NetPlay, PageLink};

/// What `bt web` builds into a page beside the cart, read from the cart's folder at export.
#[derive(Debug, Clone, Copy)]
pub struct Bundle {
    /// The cart's `cart.toml` in the form a page carries
    /// ([`carried_manifest`](bt_engine::config::manifest::carried_manifest)).
    pub manifest: Option<&'static str>,
    /// The files of the cart's asset folder, by their path in it, packed into one blob by
    /// [`PackWriter`](bt_engine::config::asset_pack::PackWriter) (no bytes: no file).
    pub assets: &'static [u8],
}

impl Bundle {
    /// Nothing beside the cart: no `cart.toml`, no asset folder.
    pub const NONE: Bundle = Bundle {
        manifest: None,
        assets: &[],
    };
}

/// What the page's script should do after an event, as [`Page::event`] returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum PageAction {
    /// Nothing.
    None = 0,
    /// F11: switch fullscreen on or off.
    ToggleFullscreen = 1,
    /// F9: [`Page::out`] holds a PNG of the frame, to download as `<cart>.png`.
    DownloadPng = 2,
    /// F8: [`Page::out`] holds the frame timings of the last seconds as a Chrome trace, to
    /// download as `<cart>-timings.json`.
    DownloadTimings = 3,
    /// F2: [`Page::out`] holds the replay of the run so far, to download as `<cart>.btr`.
    DownloadReplay = 4,
    /// The player chose Quit in the pause menu: the run has ended ([`Page::has_ended`]); its
    /// last save data waits for [`Page::take_save`].
    Quit = 5,
    /// Shift+F3: [`Page::out`] holds the run so far as a state file ([`StateFile::to_json`]),
    /// to download as `<cart>.btstate`.
    DownloadState = 6,
    /// Shift+F4: the script asks the player for a state file to load (a file picker), and
    /// sends it as [`PageEvent::StateFile`].
    ChooseStateFile = 7,
    /// A state file was not made or not loaded: [`Page::out`] holds why, in one line, for the
    /// page's foot (the overlay shows it too).
    Refused = 8,
}

impl PageAction {
    /// The download for a file the host saved; `None` for one a page does not offer (a page
    /// is built without the HTML report's plotting crate, so F8 hands over the Chrome trace).
    fn download(kind: FileKind) -> Option<PageAction> {
        match kind {
            FileKind::Screenshot => Some(PageAction::DownloadPng),
            FileKind::TimingTrace => Some(PageAction::DownloadTimings),
            FileKind::Replay => Some(PageAction::DownloadReplay),
            _ => None,
        }
    }
}

/// How a page boots besides its cart and bundle ([`Page::boot_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BootOptions {
    /// Whether the overlay exists.
    pub overlay: bool,
    /// Whether the player prefers reduced motion as the run boots: the browser's
    /// `prefers-reduced-motion: reduce`. Changes after boot come as
    /// [`PageEvent::ReducedMotion`]; a replay boots with the recorded run's.
    pub reduced_motion: bool,
    /// Whether the page plays over the network with another page (`?room=NAME`): it runs no
    /// update until the script has connected it ([`Page::start_netplay`]).
    pub netplay: bool,
}

/// Bits of what [`Page::frame`] returns.
pub mod frame_flags {
    /// A frame ran: the picture and the samples are new.
    pub const DREW: u32 = 1;
    /// Live play is paused (F5, the pause menu).
    pub const PAUSED: u32 = 2;
    /// Save data waits to be kept: [`Page::take_save`](super::Page::take_save) hands it over.
    pub const SAVE: u32 = 4;
    /// The run has ended: the cart quit (`Update::quit`) or the player chose Quit in the
    /// pause menu. No more frames run.
    pub const ENDED: u32 = 8;
    /// The cart asked for a picture of the frame: [`Page::take_capture`](super::Page::take_capture)
    /// hands over the PNG, to download as `<cart>.png`.
    pub const CAPTURE: u32 = 16;
    /// The cart hid the mouse cursor ([`bt::Update::set_cursor_visible`]): the script sets
    /// the picture's CSS `cursor` to `none` while it is.
    pub const CURSOR_HIDDEN: u32 = 32;
    /// The cart wants the pointer locked ([`bt::Update::set_pointer_locked`]): the script
    /// asks the browser at the player's next click on the picture.
    pub const POINTER_LOCKED: u32 = 64;
}

/// The memory a page's snapshots may hold, for F1's rewind: 16 MiB, a quarter of the native
/// budget ([`DEFAULT_SNAPSHOT_BUDGET`](bt_engine::engine::DEFAULT_SNAPSHOT_BUDGET)). A page's
/// memory is a browser tab's, on a phone among others, and a WebAssembly module's memory only
/// grows: what the ring once held stays the tab's until it closes. At the first spacing (about
/// a second) 16 MiB holds some 200 snapshots of 80 KiB (a 320x240 framebuffer's bytes), over
/// three minutes; a longer run is kept more sparsely, as natively.
pub const PAGE_SNAPSHOT_BUDGET: usize = 16 << 20;

/// What the player's save data is kept under in the browser's storage (`localStorage`): the
/// cart's name and title, so two carts on one web site keep theirs apart.
///
/// ```
/// assert_eq!(bt_web::page::save_key("paint", "Paint"), "bt:paint:Paint:save");
/// ```
pub fn save_key(name: &str, title: &str) -> String {
    format!("bt:{name}:{title}:save")
}

/// Reads the player's save data where the browser keeps it: given the key ([`save_key`]), the
/// save file's bytes kept there (as [`bt_engine::save::encode`] makes them), `None` when
/// nothing is kept yet.
pub type LoadSave<'a> = &'a dyn Fn(&str) -> Option<Vec<u8>>;

/// One cart running in a page.
#[derive(Debug)]
pub struct Page {
    host: Host,
    /// What the cart booted from.
    session: Session,
    /// The last picture through the palette, 4 bytes a pixel.
    rgba: Vec<u8>,
    /// The size of the picture in `rgba`: the display's, or the output picture's while a
    /// post-process effect of the display tier runs.
    picture: (u32, u32),
    /// The samples the last frame's updates made (empty while paused).
    samples: Vec<i16>,
    /// Text or bytes for the script: a message, a replay, a PNG.
    out: Vec<u8>,
    /// Where the player's save data is kept, when the page keeps it.
    save_key: Option<String>,
    /// The newest save file the host handed over, not yet taken by the script.
    save_out: Option<OutFile>,
    /// The run ended (a quit): no more frames.
    ended: bool,
    /// The PNGs the cart asked for with `capture_frame`, not yet taken by the script, oldest
    /// first.
    capture: VecDeque<Vec<u8>>,
    /// Whether the left and the right Shift are held, for Shift+F3 and Shift+F4.
    shift: [bool; 2],
    /// Frames left before the page's own notice (a state file's) goes.
    notice_frames: u32,
    /// The session with another page, when the page plays over the network.
    net: Option<Net>,
}

/// A page that plays over the network: the session once the script has connected it, and
/// why it ended.
#[derive(Debug, Default)]
struct Net {
    play: Option<Box<NetPlay>>,
    stopped: Option<String>,
}

impl Page {
    /// Boots the cart `name` built by `factory`, with cart arguments `args`, recording its
    /// run (so F2 can save it at any time) and, with `replay`, playing that replay file's text
    /// first. With `overlay` false there is no overlay (nor its toggle corner), as in `bt
    /// shot`: what the page's test hook wants.
    ///
    /// With `save`, the run is the player's: it boots with the save data `save` finds under
    /// [`save_key`] and keeps what the cart writes there from then on ([`Page::take_save`]), as
    /// `bt run` keeps its save file. Save data kept there that is not a save file BT wrote (or
    /// is damaged) is left as it is: the cart boots with empty save data, nothing is written
    /// over it, and [`Page::out`] holds a line saying so (the overlay shows it too). Without
    /// `save` the page reads and writes no save data (a replay carries its own).
    ///
    /// # Errors
    /// A one-line message: the cart's settings or `init` failed, or the replay does not parse
    /// or belongs to another cart.
    pub fn new(
        name: &str,
        factory: fn() -> Box<dyn Cart>,
        args: Vec<(String, String)>,
        replay: Option<&str>,
        overlay: bool,
        save: Option<LoadSave<'_>>,
    ) -> Result<Page, String> {
        Page::boot(name, factory, &Bundle::NONE, args, replay, overlay, save)
    }

    /// As [`Page::new`], with what `bt web` built into the page beside the cart: its
    /// `cart.toml`, a settings layer over `configure()` as natively, and its asset folder,
    /// which the cart's loaders read.
    ///
    /// # Errors
    /// As [`Page::new`], and a carried `cart.toml` that does not parse.
    pub fn boot(
        name: &str,
        factory: fn() -> Box<dyn Cart>,
        bundle: &Bundle,
        args: Vec<(String, String)>,
        replay: Option<&str>,
        overlay: bool,
        save: Option<LoadSave<'_>>,
    ) -> Result<Page, String> {
        let options = BootOptions {
            overlay,
            reduced_motion: false,
            netplay: false,
        };
        Page::boot_with(name, factory, bundle, args, replay, options, save)
    }

    /// As [`Page::boot`], with the [`BootOptions`] the script gives ([`crate::abi::boot`]'s
    /// flags): the overlay, and the player's reduced-motion preference as the run boots.
    ///
    /// # Errors
    /// As [`Page::boot`].
    pub fn boot_with(
        name: &str,
        factory: fn() -> Box<dyn Cart>,
        bundle: &Bundle,
        args: Vec<(String, String)>,
        replay: Option<&str>,
        options: BootOptions,
        save: Option<LoadSave<'_>>,
    ) -> Result<Page, String> {
        // The player's own run (the one that reads and keeps their save data) is never a
        // replay: a replay brought by an address or a script would write its input's outcome
        // into the player's saved game.
        if replay.is_some() && save.is_some() {
            return Err(
                "a replay does not play in the player's own run, which keeps their \
                        save data: boot it without the player's save"
                    .into(),
            );
        }
        // Both pages of a session boot alike: neither reads the player's save data (the
        // handshake would refuse two that differ), nor plays a replay first.
        if options.netplay && (replay.is_some() || save.is_some()) {
            return Err(
                "a page that plays over the network boots without a replay or the player's \
                 save data"
                    .into(),
            );
        }
        // No user config in a page: the cart's `configure()`, its `cart.toml` as it was at
        // export, and its arguments. The player's save data is read once the settings name
        // the cart's title.
        let manifest = match bundle.manifest {
            Some(text) => Some(manifest_from_carried(text, Path::new(MANIFEST_FILE))?),
            None => None,
        };
        let mut session = Session::builder(name, Arc::new(factory))
            .manifest(manifest)
            .packed_assets(Arc::new(AssetPack::from_packed(bundle.assets)?))
            .args(args)
            .replay(replay.map(|text| ReplaySource::Text {
                text: text.to_string(),
                named: PathBuf::from("the replay"),
            }))
            .overlay(options.overlay)
            .reduced_motion(options.reduced_motion)
            .resolve()
            .map_err(|e| e.to_string())?;
        let (save_key, damaged) = match save {
            Some(load) => player_save(&mut session, load),
            None => (None, None),
        };
        let mut engine = session.engine().map_err(|e| e.to_string())?;
        // Snapshots for F1's rewind, within a browser tab's means. A frame that takes one
        // allocates (the copy); the frames between allocate nothing.
        engine.set_snapshot_budget(PAGE_SNAPSHOT_BUDGET);
        let mut host = Host::new(engine, KeyMap::default(), name);
        host.engine_mut().start_recording(DEFAULT_HASH_EVERY);
        host.set_cart_version(session.version().map(str::to_string));
        if let Some(key) = &save_key {
            host.store_save_to(PathBuf::from(key));
        }
        if let Some(message) = &damaged {
            let line = bt_engine::quote::excerpt_chars(message, NOTICE_CHARS);
            host.engine_mut().overlay_forced().set_notice(&line);
            host.engine_mut().draw_overlay();
        }
        let s = host.engine().settings();
        let display = (s.width, s.height);
        let pixels = (s.width * s.height) as usize;
        let mut page = Page {
            host,
            session,
            rgba: vec![0; pixels * 4],
            picture: display,
            samples: Vec::new(),
            out: damaged.map(String::into_bytes).unwrap_or_default(),
            save_key,
            save_out: None,
            ended: false,
            capture: VecDeque::new(),
            shift: [false; 2],
            notice_frames: 0,
            net: options.netplay.then(Net::default),
        };
        if page.net.is_some() {
            page.host.set_netplay();
        }
        page.paint();
        Ok(page)
    }

    /// The cart's title, from its settings: what the page's tab shows.
    pub fn title(&self) -> &str {
        &self.session.settings().title
    }

    /// Where the player's save data is kept ([`save_key`]), when the page keeps it.
    pub fn save_key(&self) -> Option<&str> {
        self.save_key.as_deref()
    }

    /// Whether the run has ended: the cart quit, or the player chose Quit in the pause menu.
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// Moves the oldest picture the cart asked for (see [`frame_flags::CAPTURE`]) into
    /// [`Page::out`]. Returns whether one was waiting; call it until `false` (a cart that
    /// asked for both sizes has two).
    pub fn take_capture(&mut self) -> bool {
        match self.capture.pop_front() {
            Some(png) => {
                self.out = png;
                true
            }
            None => false,
        }
    }

    /// Moves the save file waiting to be kept (see [`frame_flags::SAVE`]) into [`Page::out`],
    /// to store under [`Page::save_key`]. Returns whether one was waiting.
    pub fn take_save(&mut self) -> bool {
        match self.save_out.take() {
            Some(write) => {
                self.out = write.bytes;
                true
            }
            None => false,
        }
    }

    /// The browser refused to keep the save data last taken (storage full, or turned off):
    /// `error` shows as the overlay's notice, and the save data is handed over again at the
    /// cart's next change, as natively.
    pub fn save_failed(&mut self, error: &str) {
        let Some(key) = &self.save_key else { return };
        let write = OutFile {
            kind: FileKind::SaveData,
            destination: Destination::Replace(PathBuf::from(key)),
            bytes: Vec::new(),
            set: 0,
        };
        self.host.write_failed(
            &write,
            &format!("save data not kept in this browser: {error}"),
        );
        self.paint();
    }

    /// The page may be closed without another word (it was hidden): hands over the save data
    /// the cart changed since it was last kept, whatever the time since. Returns
    /// [`frame_flags::SAVE`] when save data waits to be kept.
    pub fn flush(&mut self) -> u32 {
        self.host.flush();
        self.take_outbox();
        self.save_flag()
    }

    /// Takes the host's outbox after a frame: the newest save file waits for the script, and
    /// the pictures the cart asked for join [`Page::take_capture`]'s queue. A page has no
    /// record target, and F3's state file stays in the page (Shift+F3 downloads one).
    fn take_outbox(&mut self) {
        for file in self.host.take_outbox() {
            match (file.kind, &file.destination) {
                (FileKind::SaveData, _) => self.save_out = Some(file),
                (FileKind::Screenshot, Destination::Keep(_)) => self.capture.push_back(file.bytes),
                _ => {}
            }
        }
    }

    fn save_flag(&self) -> u32 {
        if self.save_out.is_some() {
            frame_flags::SAVE
        } else {
            0
        }
    }

    /// Ends the run: the last save data is handed over, and no more frames run.
    fn end(&mut self) {
        if !self.ended {
            self.ended = true;
            self.host.finish();
            self.take_outbox();
        }
    }

    /// The cart's name.
    pub fn name(&self) -> &str {
        self.session.name()
    }

    /// The cart arguments it runs with.
    pub fn args(&self) -> &[(String, String)] {
        self.session.args()
    }

    /// What the cart booted from: [`Session::engine`] builds the same cart afresh.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The host: the engine, and what the player holds.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The host, to change.
    pub fn host_mut(&mut self) -> &mut Host {
        &mut self.host
    }

    /// The display's width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        let s = self.host.engine().settings();
        (s.width, s.height)
    }

    /// The console's sample rate.
    pub fn sample_rate(&self) -> u32 {
        self.host.engine().console().sample_rate()
    }

    /// The size of the picture [`Page::rgba`] holds: the display's, or the output picture's
    /// (as `bt shot --size output`) while a display-tier post-process effect runs.
    pub fn picture_size(&self) -> (u32, u32) {
        self.picture
    }

    /// The picture as last drawn, RGBA, row by row from the top left.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// The samples of the last frame's updates, left and right interleaved (none while paused:
    /// sound is skipped, never played late), or, while a rewind runs, of the updates it went
    /// back over, reversed.
    pub fn samples(&self) -> &[i16] {
        &self.samples
    }

    /// What the last call left for the script (see [`PageAction`] and [`frame_flags`]).
    pub fn out(&self) -> &[u8] {
        &self.out
    }

    /// Replaces what [`Page::out`] holds.
    pub fn set_out(&mut self, bytes: Vec<u8>) {
        self.out = bytes;
    }

    /// One displayed frame at `now_ms`, a `requestAnimationFrame` timestamp: the engine's
    /// clock turns it into a delta and the fixed-step loop into updates, as in `bt run`.
    /// Returns [`frame_flags`].
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        if self.ended {
            return frame_flags::ENDED | self.save_flag();
        }
        if self.net.is_some() {
            return self.net_frame(now_ms);
        }
        let report = self.host.frame(now_ms);
        self.expire_notice();
        // The pictures the cart asked for, first: sound and picture below change no file.
        self.take_outbox();
        let engine = self.host.engine_mut();
        let paused = engine.is_paused();
        self.samples.clear();
        // While F1 is held, the sound of the updates gone back over, reversed, as in a window.
        self.samples.extend(engine.travel_sound().iter().flatten());
        engine.clear_travel_sound();
        let console = engine.console_mut();
        if report.is_some() && !paused {
            self.samples
                .extend(console.pending_frames().iter().flatten());
        }
        console.drain_frames().for_each(drop);
        let mut flags = 0;
        if report.is_some() {
            flags |= frame_flags::DREW;
        }
        if paused {
            flags |= frame_flags::PAUSED;
        }
        // A paused host may have drawn (a step, the overlay toggled): the picture follows.
        self.paint();
        self.take_outbox();
        if self.host.engine().quit_at().is_some() {
            self.end();
        }
        if self.ended {
            flags |= frame_flags::ENDED;
        }
        if !self.capture.is_empty() {
            flags |= frame_flags::CAPTURE;
        }
        if self.host.engine().console().pointer_locked() {
            flags |= frame_flags::POINTER_LOCKED;
        }
        if !self.host.engine().console().cursor_visible() {
            flags |= frame_flags::CURSOR_HIDDEN;
        }
        flags | self.save_flag()
    }

    /// Pauses on exactly the frame `bt shot --at seconds` draws: replayed from boot, no
    /// input, `render_alpha` 0.
    ///
    /// # Errors
    /// The engine's message (bad seconds, a cart panic on the way).
    pub fn render_at(&mut self, seconds: f64) -> Result<(), String> {
        let result = self.host.pause_at(seconds).map_err(|e| e.to_string());
        self.paint();
        result
    }

    /// The samples of `seconds` of play from boot, as `bt wav --seconds` makes them (stereo,
    /// interleaved), into [`Page::samples`]. The engine is left paused.
    ///
    /// # Errors
    /// The export's message (a length under one update, a cart panic).
    pub fn wav(&mut self, seconds: f64) -> Result<(), String> {
        let samples = bt_engine::export::wav::record_samples(
            self.host.engine_mut(),
            0.0,
            seconds,
            None,
            bt_engine::export::wav::WavChannels::Stereo,
        )
        .map_err(|e| e.to_string())?;
        self.samples = samples;
        self.paint();
        Ok(())
    }

    /// Feeds one event to the console. Returns what the script should do about it, if anything.
    pub fn event(&mut self, event: PageEvent<'_>) -> PageAction {
        let action = self.handle(event);
        if let Some(play) = self.net.as_mut().and_then(|n| n.play.as_mut()) {
            play.observe(&self.host);
        }
        action
    }

    fn handle(&mut self, event: PageEvent<'_>) -> PageAction {
        match event {
            PageEvent::Key { code, down } => return self.key(code, down),
            PageEvent::Text(text) => self.text(text),
            PageEvent::PointerMoved { x, y } => self.pointer_moved(x, y),
            PageEvent::PointerLeft => self.pointer_left(),
            PageEvent::PointerMotion { dx, dy } => {
                self.host.handle(HostEvent::PointerMotion { dx, dy });
            }
            PageEvent::Touch { id, phase, x, y } => self.touch(id, phase, x, y),
            PageEvent::PointerButton { button, down } => self.pointer_button(button, down),
            PageEvent::Wheel { dx, dy } => self.wheel(dx, dy),
            PageEvent::FocusLost => self.focus_lost(),
            PageEvent::StateFile { name, text } => return self.load_state_file(name, text),
            PageEvent::ReducedMotion(on) => {
                self.host.handle(HostEvent::ReducedMotion(on));
            }
            PageEvent::Gamepad { player, connected } => self.gamepad(player, connected),
            PageEvent::GamepadButton {
                player,
                index,
                down,
            } => self.gamepad_button(player, index, down),
            PageEvent::GamepadAxis {
                player,
                axis,
                value,
            } => self.gamepad_axis(player, axis, value),
        }
        PageAction::None
    }

    fn key(&mut self, code: &str, down: bool) -> PageAction {
        let Some(key) = Key::from_code(code) else {
            return PageAction::None;
        };
        match key {
            Key::ShiftLeft => self.shift[0] = down,
            Key::ShiftRight => self.shift[1] = down,
            _ => {}
        }
        // In netplay F2 hands over the run's confirmed updates (the host's replay could hold
        // a guess of the other player's input), and a state as a file is neither made nor
        // loaded: either would take this page's run away from the other's.
        if self.net.is_some() {
            if down && key == Key::F2 {
                self.replay_text();
                return PageAction::DownloadReplay;
            }
            if self.shift.contains(&true) && (key == SAVE_STATE_KEY || key == LOAD_STATE_KEY) {
                return PageAction::None;
            }
        }
        // Shift with the state keys is the page's: a state as a file, out and in. (Only the
        // press: the release goes to the host, which does nothing with it.)
        if down && self.shift.contains(&true) {
            if key == SAVE_STATE_KEY {
                return self.download_state();
            }
            if key == LOAD_STATE_KEY {
                return PageAction::ChooseStateFile;
            }
        }
        let action = self.host.handle(HostEvent::Key { key, down });
        self.paint();
        match action {
            Some(HostAction::ToggleFullscreen) => PageAction::ToggleFullscreen,
            Some(HostAction::Quit) => {
                self.end();
                PageAction::Quit
            }
            // What the window keeps in its captures folder, the page hands to the script to
            // download: the first file the page offers.
            Some(HostAction::Saved) => self
                .host
                .take_outbox()
                .into_iter()
                .find_map(|f| Some((PageAction::download(f.kind)?, f.bytes)))
                .map_or(PageAction::None, |(action, bytes)| {
                    self.out = bytes;
                    action
                }),
            Some(HostAction::SaveFailed(message)) => {
                self.out = message.into_bytes();
                PageAction::None
            }
            _ => PageAction::None,
        }
    }

    /// Shift+F3: the run so far as a state file into [`Page::out`].
    fn download_state(&mut self) -> PageAction {
        let engine = self.host.engine();
        match engine.state_file(self.session.name(), self.session.version()) {
            Ok(file) => {
                self.out = file.to_json().into_bytes();
                self.notice_for_a_while("state file saved (drop it on the page to load it)");
                PageAction::DownloadState
            }
            Err(e) => self.refuse(format!("save state file: {e}")),
        }
    }

    /// Loads the state file `text` the player chose or dropped, named `name` in messages:
    /// replayed from boot to its last update, as [`Engine::load_state_file`] does; play goes
    /// on from there unless the run was paused. One of another build of BT, another cart, run
    /// or save data is refused ([`PageAction::Refused`]), and the run goes on as it was.
    ///
    /// [`Engine::load_state_file`]: bt_engine::Engine::load_state_file
    pub fn load_state_file(&mut self, name: &str, text: &str) -> PageAction {
        if self.ended {
            return PageAction::None;
        }
        if self.net.is_some() {
            return self.refuse(format!(
                "load state file: {name}: not in a run played over the network (it would take \
                 this page's run away from the other page's)"
            ));
        }
        let path = Path::new(name);
        if text.len() as u64 > MAX_REPLAY_BYTES {
            return self.refuse(format!(
                "load state file: {name}: {} bytes, past the {} MiB a replay may be",
                text.len(),
                MAX_REPLAY_BYTES >> 20
            ));
        }
        let file = match StateFile::from_json(text, path) {
            Ok(file) => file,
            Err(e) => return self.refuse(format!("load state file: {e}")),
        };
        if self.host.menu_is_open() || self.host.is_rewinding() {
            return self.refuse(format!(
                "load state file: {name}: close the pause menu and let go of F1 first"
            ));
        }
        // The file replays from this run's boot: only its own boot save data gives its state,
        // and another run's would be written over the player's saved game.
        let booted = self.host.engine().console().boot_save().used();
        if file.replay.boot_save() != booted {
            return self.refuse(format!(
                "load state file: {name}: a state of a run that booted with other save data                  ({} bytes; this run booted with {}), which would not play the same here",
                file.replay.boot_save().len(),
                booted.len()
            ));
        }
        let was_paused = self.host.engine().is_paused();
        let engine = self.host.engine_mut();
        let loaded =
            engine.load_state_file(&file, self.session.name(), self.session.version(), path);
        if let Err(e) = loaded {
            self.paint();
            return self.refuse(format!("load state file: {e}"));
        }
        if !was_paused {
            self.host.engine_mut().resume();
        }
        self.host.show_paused();
        let engine = self.host.engine();
        let at = engine.updates_since_init() as f64 / engine.settings().target_fps;
        self.notice_for_a_while(&format!("state loaded from {name}: {at:.1} s"));
        PageAction::None
    }

    /// A state file refused: `message` for the script's foot and as the overlay's notice.
    fn refuse(&mut self, message: String) -> PageAction {
        let line = bt_engine::quote::excerpt_chars(&message, NOTICE_CHARS);
        self.notice_for_a_while(&line);
        self.out = message.into_bytes();
        PageAction::Refused
    }

    /// Shows `text` as the overlay's notice for [`NOTICE_FRAMES`] frames, as the host shows
    /// F3's and F4's.
    fn notice_for_a_while(&mut self, text: &str) {
        self.host.show_notice(Some(text));
        self.notice_frames = NOTICE_FRAMES;
        self.paint();
    }

    /// After a frame: takes the page's notice away once its frames are over (unless a rewind
    /// has put its own there meanwhile).
    fn expire_notice(&mut self) {
        if self.notice_frames > 0 {
            self.notice_frames -= 1;
            if self.notice_frames == 0 && !self.host.is_rewinding() {
                self.host.show_notice(None);
            }
        }
    }

    /// The replay of the run so far, as the text of a `.btr` file, into [`Page::out`]. In a
    /// run played over the network, the updates every player's input is known for: the other
    /// page's replay holds the same input for each.
    pub fn replay_text(&mut self) {
        self.out.clear();
        let engine = self.host.engine();
        let replay = match self.net.as_ref().and_then(|n| n.play.as_ref()) {
            Some(play) => play.peer().recording_through(engine, u64::MAX),
            None => engine.recording(self.session.name(), self.session.version()),
        };
        if let Some(replay) = replay {
            self.out.extend_from_slice(replay.to_json().as_bytes());
        }
    }

    fn text(&mut self, text: &str) {
        self.host.handle(HostEvent::Text(text));
    }

    fn pointer_moved(&mut self, x: i32, y: i32) {
        let (w, h) = self.size();
        let x = x.clamp(0, w as i32 - 1);
        let y = y.clamp(0, h as i32 - 1);
        self.host.handle(HostEvent::PointerMoved { x, y });
    }

    fn touch(&mut self, id: u64, phase: TouchPhase, x: i32, y: i32) {
        let (w, h) = self.size();
        let x = x.clamp(0, w as i32 - 1);
        let y = y.clamp(0, h as i32 - 1);
        self.host.handle(HostEvent::Touch { id, phase, x, y });
    }

    fn pointer_left(&mut self) {
        self.host.handle(HostEvent::PointerLeft);
    }

    fn pointer_button(&mut self, button: u32, down: bool) {
        let mask = match button {
            0 => Button::POINTER_A,
            2 => Button::POINTER_B,
            1 => Button::POINTER_C,
            3 | 4 => Button::POINTER_D,
            _ => return,
        };
        self.host
            .handle(HostEvent::PointerButton { button: mask, down });
        self.paint();
    }

    fn wheel(&mut self, dx: f32, dy: f32) {
        self.host.handle(HostEvent::Wheel { dx, dy });
    }

    fn focus_lost(&mut self) {
        self.shift = [false; 2];
        self.host.handle(HostEvent::FocusLost);
    }

    fn gamepad(&mut self, player: usize, connected: bool) {
        let Some(player) = Player::new(player) else {
            return;
        };
        self.host.handle(if connected {
            HostEvent::GamepadConnected { player }
        } else {
            HostEvent::GamepadDisconnected { player }
        });
    }

    fn gamepad_button(&mut self, player: usize, index: u32, down: bool) {
        let buttons = standard_button(index);
        let Some(player) = Player::new(player) else {
            return;
        };
        if buttons.is_empty() {
            return;
        }
        self.host.handle(HostEvent::GamepadButton {
            player,
            buttons,
            down,
        });
    }

    fn gamepad_axis(&mut self, player: usize, axis: u32, value: f32) {
        let axis = match axis {
            0 => bt::Axis::LeftX,
            1 => bt::Axis::LeftY,
            2 => bt::Axis::RightX,
            3 => bt::Axis::RightY,
            4 => bt::Axis::TriggerL,
            5 => bt::Axis::TriggerR,
            _ => return,
        };
        let Some(player) = Player::new(player) else {
            return;
        };
        if !value.is_finite() {
            return;
        }
        self.host.handle(HostEvent::GamepadAxis {
            player,
            axis,
            value,
        });
    }

    /// Starts the session with the other page, once the script has a data channel to it:
    /// this page plays `player` (0 for player 1, the page that was in the room first) of two.
    /// The run starts again from boot, as the other page's does, with the session's own
    /// recording (confirmed updates only).
    ///
    /// # Errors
    /// One line: the page was not booted to play over the network, its session has started
    /// already, `player` is not 0 or 1, or the cart cannot be booted again.
    pub fn start_netplay(&mut self, player: usize) -> Result<(), String> {
        match &self.net {
            None => {
                return Err("this page was not opened to play over the network (?room=NAME)".into())
            }
            Some(net) if net.play.is_some() => {
                return Err("this page's session has started already".into())
            }
            Some(_) => {}
        }
        let seats = match player {
            0 => [Seat::Local, Seat::Remote(crate::net::OTHER_PAGE)],
            1 => [Seat::Remote(crate::net::OTHER_PAGE), Seat::Local],
            _ => return Err(format!("player {}: a room holds two players", player + 1)),
        };
        let mut engine = self.session.engine().map_err(|e| e.to_string())?;
        engine.set_snapshot_budget(PAGE_SNAPSHOT_BUDGET);
        let settings = NetSettings {
            record_hash_every: Some(DEFAULT_HASH_EVERY),
            ..NetSettings::default()
        };
        let link = PageLink::default();
        let datagrams = link.datagrams();
        let name = self.session.name().to_string();
        let version = self.session.version().map(str::to_string);
        let session = NetSession::new(
            engine,
            &name,
            version.as_deref(),
            &seats,
            Box::new(link),
            settings,
        )
        .map_err(|e| e.to_string())?;
        let (engine, peer) = session.into_parts();
        let fps = engine.settings().target_fps;
        let mut host = Host::new(engine, KeyMap::default(), &name);
        host.set_cart_version(version);
        host.set_netplay();
        self.host = host;
        self.net = Some(Net {
            play: Some(Box::new(NetPlay::new(peer, datagrams, fps))),
            stopped: None,
        });
        self.paint();
        Ok(())
    }

    /// A frame of a page that plays over the network: the session's, when one is due; none
    /// before the script connected it, nor after it ended.
    fn net_frame(&mut self, now_ms: f64) -> u32 {
        self.samples.clear();
        let Some(net) = self.net.as_mut() else {
            return 0;
        };
        let Some(play) = net.play.as_mut().filter(|_| net.stopped.is_none()) else {
            return self.save_flag();
        };
        match play.frame(&mut self.host, now_ms) {
            Ok(None) => return self.save_flag(),
            Ok(Some(sound)) => self.samples.extend(sound.iter().flatten()),
            Err(line) => {
                let notice = bt_engine::quote::excerpt_chars(&line, NOTICE_CHARS);
                self.host.show_notice(Some(&notice));
                net.stopped = Some(line);
            }
        }
        self.expire_notice();
        self.paint();
        self.take_outbox();
        let mut flags = frame_flags::DREW;
        if self.net.as_ref().is_some_and(|n| n.stopped.is_some()) {
            self.end();
        }
        if self.ended {
            flags |= frame_flags::ENDED;
        }
        if !self.capture.is_empty() {
            flags |= frame_flags::CAPTURE;
        }
        flags | self.save_flag()
    }

    /// A datagram from the other page (see [`crate::net`]); dropped when the page plays no
    /// session.
    pub fn net_arrived(&mut self, bytes: &[u8]) {
        if let Some(play) = self.net.as_ref().and_then(|n| n.play.as_ref()) {
            play.datagrams().borrow_mut().arrived(bytes);
        }
    }

    /// Moves the oldest datagram for the other page into [`Page::out`]. Returns whether one
    /// was waiting; the script calls it until `false` after every frame.
    pub fn net_take(&mut self) -> bool {
        let next = self
            .net
            .as_ref()
            .and_then(|n| n.play.as_ref())
            .and_then(|play| play.datagrams().borrow_mut().next_outgoing());
        match next {
            Some(bytes) => {
                self.out = bytes;
                true
            }
            None => false,
        }
    }

    /// One line for the page's foot while it plays over the network: the player and the
    /// link, or why the session ended; `None` before it starts, or without netplay.
    pub fn net_status(&self) -> Option<String> {
        let net = self.net.as_ref()?;
        if let Some(why) = &net.stopped {
            return Some(why.clone());
        }
        net.play.as_ref().map(|play| play.status())
    }

    /// Updates every player's input is known for in the session (0 before it starts).
    pub fn net_confirmed(&self) -> u64 {
        self.net
            .as_ref()
            .and_then(|n| n.play.as_ref())
            .map_or(0, |play| play.peer().confirmed_updates(self.host.engine()))
    }

    /// Draws the picture into [`Page::rgba`]: the framebuffer through the palette, or the
    /// output picture with the post-process effects (the window's picture, by the same code).
    /// No allocation once the buffer has held the larger of the two.
    fn paint(&mut self) {
        let engine = self.host.engine_mut();
        self.picture = if engine.has_display_tier() {
            engine.render_output(&mut self.rgba)
        } else {
            engine.display_rgba(&mut self.rgba)
        };
    }
}

/// The most characters of a message the page puts across the top of the picture.
const NOTICE_CHARS: usize = 120;

/// Frames the page's own notice stays: two seconds at 60 frames a second, as the host's for
/// F3 and F4.
const NOTICE_FRAMES: u32 = 120;

/// The player's save data for `session`, read through `load`: the key it is kept under, unless
/// what is kept there is damaged (then the message saying so, and nothing is written over it).
fn player_save(session: &mut Session, load: LoadSave<'_>) -> (Option<String>, Option<String>) {
    let key = save_key(session.name(), &session.settings().title);
    match load(&key).map(|file| bt_engine::save::decode(&file, Path::new(&key))) {
        None => (Some(key), None),
        Some(Ok(bytes)) => {
            session.set_boot_save(bytes);
            (Some(key), None)
        }
        Some(Err(e)) => (
            None,
            Some(format!(
                "{e} (kept as it is, and not written this run: the game starts with empty \
                 save data)"
            )),
        ),
    }
}

/// The BT buttons of button `index` in the Gamepad API's standard layout: the face buttons by
/// position (bottom A, right B, left X, top Y), as the window's gamepads are read.
pub fn standard_button(index: u32) -> Button {
    match index {
        0 => Button::A,
        1 => Button::B,
        2 => Button::X,
        3 => Button::Y,
        4 => Button::L,
        5 => Button::R,
        8 => Button::SELECT,
        9 => Button::START,
        12 => Button::UP,
        13 => Button::DOWN,
        14 => Button::LEFT,
        15 => Button::RIGHT,
        _ => Button::NONE,
    }
}
