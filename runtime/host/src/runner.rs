//! The [`Host`]: one engine run for a platform, between the platform's events and the
//! [`Engine`]. It owns the engine and what the player holds ([`PlayerInput`]), keeps the host
//! keys and the pause menu, shows a cart's panic and a failed reload as the overlay's notice, and
//! tells the platform what to do after each event ([`HostAction`]).
//!
//! A platform translates its own events into [`HostEvent`]s and hands them to [`Host::handle`];
//! once per displayed frame it calls [`Host::frame`].
//!
//! The host keeps a few keys for itself ([`HOST_KEYS`]), the same on every platform: Backquote
//! toggles the overlay, F1 held rewinds and F3 and F4 save and load a state (see
//! [`REWIND_KEY`]), F5 pauses and resumes, F6 runs one update while paused, F7 shows the
//! tall chart (Shift+F7 puts the overlay under the post-process effects), F2 saves the replay
//! of the run so far, F8 the last seconds of frame timings (a report and a Chrome trace), F9 a
//! screenshot, F10 (and Shift+F10) ask the window for a GIF of
//! what it shows (see `bt-window`'s `gif_recorder`), F11 for fullscreen, and Shift+F11 turns
//! the post-process effects off or on. They do not reach the cart. The host makes the files
//! F2, F8, F9 and F3 save, and the pictures a cart asks for, go into the host's outbox
//! ([`crate::outbox`]); the platform keeps them (the window in its captures folder, through
//! `bt-window`'s `captures`, a page as downloads): the host writes no file for them.
//!
//! Nor does it write the files a run keeps as it goes: the recording of `bt run --record` and
//! the cart's save data. It says what to write and when, through the same outbox: the
//! platform drains [`Host::take_outbox`] after every frame and event, and calls
//! [`Host::finish`] when the run ends, however it ends, performs them, and tells
//! [`Host::write_failed`] of a failure, which the host shows as every platform does.
//!
//! What the host does read is the cart's own assets again, when the platform hands it an
//! [`AssetWatcher`] ([`Host::watch_assets`]) and the watcher sees a change. That stays here:
//! a reload is the engine loading the cart as its boot did, through the engine's own loader
//! from the folder the session resolved, and what it changes (the cart's sprites, a failed
//! reload's notice, a paused frame drawn again) is the host's to show. It writes nothing and
//! needs nothing of the platform but the watcher, which a platform without files (a page)
//! never gives.
//!
//! Ctrl+Q quits ([`Host::quit_requested`]). P opens the pause menu ([`crate::pause_menu`])
//! unless the key map gives P a button; while it is open, keys go to the menu alone.

use std::io::Write;
use std::path::PathBuf;

use bt::host::CaptureRequests;
use bt::{Button, CaptureSize, Key};
use bt_overlay::{ChartMode, Overlay};

use crate::asset_watch::AssetWatcher;
use crate::config::manifest::PaletteSource;
use crate::engine::Origin;
use crate::engine::{Engine, EngineError, FrameReport};
use crate::export::png;
use crate::input::{HostEvent, PlayerInput};
use crate::keymap::{KeyMap, HOST_KEYS, KEYBOARD_PLAYERS};
use crate::outbox::{Destination, FileKind, OutFile};
use crate::pause_menu::{MenuChoice, MenuInput, MenuKey, PauseMenu, MENU_KEY};
use crate::save::{SaveStore, StoreEvent};
use crate::timing::timeline::Timeline;

mod state_file;
mod time_travel;
mod timeline;

pub use time_travel::{rewind_speed, LOAD_STATE_KEY, REWIND_KEY, REWIND_TOP_SPEED, SAVE_STATE_KEY};

/// The most characters of a notice the host puts across the top of a 320-pixel display and a
/// little beyond: the rest of a long message is cut.
const NOTICE_CHARS: usize = 120;

/// Something the platform should do or tell the player after an event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostAction {
    /// F11: switch fullscreen on or off.
    ToggleFullscreen,
    /// Shift+F11: the post-process stack ([`bt::Effect`]) was turned on (`true`) or off.
    EffectsToggled(bool),
    /// Shift+F7: the overlay was put under the display tier's effects (`true`) or back over
    /// them, undistorted.
    OverlayUnderEffects(bool),
    /// F2, F8 or F9 made files for the platform to keep (the replay so far, the last seconds
    /// of timings, a screenshot): they wait in the outbox ([`Host::take_outbox`]). The host
    /// writes nothing itself: the window puts them in its captures folder, a page hands them
    /// to the browser as downloads.
    Saved,
    /// F2, F8 or F9: there was nothing to save, or it could not be made.
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
    /// F1 went down: live play stopped, and runs backwards while the key is held (the platform
    /// keeps making frames, see [`Host::is_rewinding`]).
    Rewinding,
    /// F1 came up (or the window lost the keyboard): the rewind reached this update (since
    /// `init`), and play goes on from there unless the run was paused before.
    Rewound(u64),
    /// F3 saved the state after this many updates since `init`; its file waits in the outbox
    /// for the platform to keep.
    StateSaved(u64),
    /// F4 loaded the state saved after this many updates since `init`.
    StateLoaded(u64),
    /// F3 or F4 did nothing: why, in one line (also shown as the notice).
    StateFailed(String),
    /// The timeline (Shift+F1) is open and shows this update (since `init`): the platform
    /// shows the frame again.
    Timeline(u64),
    /// The timeline closed at this update: play goes on from there unless the run was
    /// paused before.
    TimelineClosed(u64),
}

/// Draws a timing report (an HTML page) from a timeline and the run's name, or says why not.
pub type TimingReport = fn(&Timeline, &str) -> Result<String, String>;

/// The engine, its key map, and what the player is holding.
#[derive(Debug)]
pub struct Host {
    engine: Engine,
    /// What the player holds, and how it reaches the console.
    input: PlayerInput,
    name: String,
    /// The cart's files, watched for changes, and its palette file when it has one.
    watch: Option<(AssetWatcher, Option<PaletteSource>)>,
    /// The last [`RECENT_TIMINGS_MS`] of frames, for F8.
    recent: Timeline,
    /// What draws F8's HTML report, when the platform has one ([`Host::set_timing_report`]).
    timing_report: Option<TimingReport>,
    /// Every frame of the run, when a trace of it was asked for.
    whole_run: Option<Timeline>,
    /// The trace's title when the run plays a capture: the program captured.
    whole_run_title: Option<String>,
    /// Where the recording goes, when the run is recorded (`bt run --record`).
    record: Option<RecordTarget>,
    /// The cart's version, as its replays name it.
    cart_version: Option<String>,
    /// Whether the cart's panic is on screen as the overlay's notice.
    panic_shown: bool,
    /// The cart's save data, handed over to be kept when the cart changes it.
    save: Option<SaveStore>,
    /// Every file made for the platform, oldest first ([`Host::take_outbox`]).
    outbox: Vec<OutFile>,
    /// The set the next file or files made together go in ([`OutFile::set`]).
    next_set: u64,
    /// Where messages the player should read in full go (a failed reload, a file not
    /// written): stderr, unless the platform gives another output.
    errors: ErrorOutput,
    /// Whether P opens the pause menu (when the key map gives P no button); an editor of BT's
    /// own turns it off ([`Host::set_pause_menu`]).
    pause_menu: bool,
    /// The pause menu, while it is open.
    menu: Option<PauseMenu>,
    /// The player asked to quit.
    quit: bool,
    /// The rewind in progress and the session's save state.
    time_travel: time_travel::TimeTravel,
    /// Frames left before a passing notice (a save state's) goes.
    notice_frames: u32,
    /// Updates since `init` of the state F3 saved last, for the notice that names its file.
    state_saved_at: u64,
    /// The last failed write's message, said once: a save file that keeps failing the same
    /// way is not said again at every write.
    last_write_error: Option<String>,
    /// The run is one peer of a netplay session ([`Host::set_netplay`]): the keys that seek,
    /// rewind or pause are off.
    netplay: bool,
    /// In netplay, the updates every player's input is known for: the recording is written
    /// through there, never with a guess of the other player's input.
    confirmed: Option<u64>,
}

/// The stream [`Host`] writes its errors to.
struct ErrorOutput(Box<dyn Write + Send>);

impl std::fmt::Debug for ErrorOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ErrorOutput")
    }
}

/// Where a recording is saved, and what it says of the cart.
#[derive(Debug)]
struct RecordTarget {
    path: PathBuf,
    cart_version: Option<String>,
    /// Frames since the file was last written.
    frames_since_save: u64,
}

/// The host keys that do nothing in netplay: the rewind and its timeline (F1), the save
/// states (F3, F4), pause and step (F5, F6) and the replay of the run so far (F2, which could
/// hold a guess of the other player's input). Each would take this peer's run away from the
/// other's; the overlay, screenshots, GIFs, timings and the window's keys stay.
pub const NETPLAY_OFF_KEYS: [Key; 6] = [
    REWIND_KEY,
    SAVE_STATE_KEY,
    LOAD_STATE_KEY,
    Key::F5,
    Key::F6,
    Key::F2,
];

/// Frames between two saves of a recording in progress (10 s at 60 frames a second), so a run
/// killed without warning loses at most that much. Each save rewrites the whole file, which
/// grows only with changes of input.
pub const RECORD_SAVE_EVERY_FRAMES: u64 = 600;

/// How much of the recent past F8 saves, in ms of the clock's time.
pub const RECENT_TIMINGS_MS: f64 = 10_000.0;

impl Host {
    /// A host for `engine`, the cart called `name`, reading keys through `keymap`. The files
    /// its keys make are named after `name` (see [`crate::outbox`]).
    pub fn new(engine: Engine, keymap: KeyMap, name: &str) -> Host {
        let engine_fps = engine.settings().target_fps;
        Host {
            engine,
            input: PlayerInput::new(keymap),
            name: name.to_string(),
            watch: None,
            recent: Timeline::rolling(1000.0 / engine_fps, RECENT_TIMINGS_MS),
            timing_report: None,
            whole_run: None,
            whole_run_title: None,
            record: None,
            cart_version: None,
            panic_shown: false,
            save: None,
            outbox: Vec::new(),
            next_set: 0,
            errors: ErrorOutput(Box::new(std::io::stderr())),
            pause_menu: true,
            menu: None,
            quit: false,
            time_travel: time_travel::TimeTravel::default(),
            notice_frames: 0,
            state_saved_at: 0,
            last_write_error: None,
            netplay: false,
            confirmed: None,
        }
    }

    /// Makes this run one peer of a netplay session, whose frames come through
    /// [`Host::frame_by`]: the keys that would take this peer's run elsewhere than the other
    /// peers' ([`NETPLAY_OFF_KEYS`], and P's pause menu) do nothing, and the recording holds
    /// only confirmed updates ([`Host::confirm_through`]).
    pub fn set_netplay(&mut self) {
        self.netplay = true;
        self.pause_menu = false;
        self.confirmed = Some(0);
    }

    /// In netplay, that updates through `updates` are final (every player's input known): the
    /// recording written goes that far.
    pub fn confirm_through(&mut self, updates: u64) {
        if self.netplay {
            self.confirmed = Some(updates);
        }
    }

    /// Whether P opens the pause menu (it does by default). An editor of BT's own has none: P
    /// is one of its keys, and the menu's Restart would throw its edits away.
    pub fn set_pause_menu(&mut self, on: bool) {
        self.pause_menu = on;
    }

    /// Sends the messages the host writes in full (a failed reload, as `bt: reload: …`, a save
    /// file or recording that could not be written) to `output` instead of stderr.
    pub fn set_error_output(&mut self, output: Box<dyn Write + Send>) {
        self.errors = ErrorOutput(output);
    }

    /// A message for the player, in full, as `bt: …` on the error output. One that cannot be
    /// written is dropped: it changes nothing the run does.
    fn say(&mut self, message: std::fmt::Arguments<'_>) {
        let _ = writeln!(self.errors.0, "bt: {message}");
    }

    /// The cart's version (its `cart.toml`'s) that replays saved with F2 name.
    pub fn set_cart_version(&mut self, version: Option<String>) {
        self.cart_version = version;
    }

    /// Records the run into the replay file `path` (see [`crate::replay`]): the host asks the
    /// platform to write it (through [`Host::take_outbox`]) every [`RECORD_SAVE_EVERY_FRAMES`] frames
    /// and when the cart panics, and [`Host::finish`] hands it over a last time. An
    /// engine already recording (started before a seek) keeps its recording.
    pub fn record_to(&mut self, path: PathBuf, cart_version: Option<String>) {
        self.cart_version.clone_from(&cart_version);
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

    /// Queues the recording so far for the platform to write. Does nothing when the run is not
    /// recorded.
    fn save_recording(&mut self) {
        if let Some(file) = self.recording_file() {
            self.outbox.push(file);
        }
    }

    /// The recording so far, as the file to write to its target; `None` when the run is not
    /// recorded.
    fn recording_file(&mut self) -> Option<OutFile> {
        let target = self.record.as_mut()?;
        target.frames_since_save = 0;
        let mut replay = self
            .engine
            .recording(&self.name, target.cart_version.as_deref())?;
        if let Some(confirmed) = self.confirmed {
            replay = replay.through(confirmed);
        }
        let path = target.path.clone();
        let set = self.new_set();
        Some(OutFile {
            kind: FileKind::Recording {
                updates: replay.ticks(),
            },
            destination: Destination::Replace(path),
            bytes: replay.to_json().into_bytes(),
            set,
        })
    }

    /// A set number no file has yet ([`OutFile::set`]).
    fn new_set(&mut self) -> u64 {
        self.next_set += 1;
        self.next_set
    }

    /// Puts `files`, made together, in the outbox as one set, each named `<stem>.<its
    /// extension>`.
    fn post(&mut self, stem: &str, files: impl IntoIterator<Item = (FileKind, Vec<u8>)>) {
        let set = self.new_set();
        for (kind, bytes) in files {
            self.outbox.push(OutFile::keep(kind, stem, bytes, set));
        }
    }

    /// A host key's files into the outbox, or why there are none.
    fn post_made(
        &mut self,
        stem: &str,
        made: Result<Vec<(FileKind, Vec<u8>)>, String>,
    ) -> HostAction {
        match made {
            Ok(files) => {
                self.post(stem, files);
                HostAction::Saved
            }
            Err(e) => HostAction::SaveFailed(e),
        }
    }

    /// Every file made for the platform since the last call, oldest first: what the host keys
    /// and the cart's `capture_frame` made ([`Destination::Keep`]), the recording every
    /// [`RECORD_SAVE_EVERY_FRAMES`] frames and when the cart panics, and the save data when the
    /// cart changed it ([`Destination::Replace`]; see [`Host::record_to`],
    /// [`Host::store_save_to`]). The platform calls this once after every frame and batch of
    /// events, writes each file, and tells [`Host::write_failed`] of any it could not write and
    /// [`Host::kept`] where it kept one. Empty, and allocating nothing, on a frame that makes
    /// no file.
    pub fn take_outbox(&mut self) -> Vec<OutFile> {
        std::mem::take(&mut self.outbox)
    }

    /// The run ends (the window closed, the cart quit, a panic is unwinding): the last files
    /// go into the outbox, the recording's last state and the save data if the cart changed it
    /// since its last write included, for the platform to take ([`Host::take_outbox`]). From
    /// then on the host makes no recording or save file. A platform calls this whatever ends
    /// the run, so a recorded run is saved whatever ends it.
    pub fn finish(&mut self) {
        self.flush_save();
        if let Some(file) = self.recording_file() {
            // The last state of the recording holds all that a queued one did.
            self.outbox
                .retain(|f| !matches!(f.kind, FileKind::Recording { .. }));
            self.outbox.push(file);
        }
        self.record = None;
        self.save = None;
    }

    /// The platform may be stopped without warning from now on (a page hidden, which the
    /// browser may then close without another word): the save data goes into the outbox now
    /// if the cart changed it since its last write, whatever the time since. Unlike
    /// [`Host::finish`] the run goes on, and so do the writes.
    pub fn flush(&mut self) {
        self.flush_save();
    }

    /// The platform kept `file` at `path`: a state file's notice names it for the rest of its
    /// time on screen (the file's name; the platform says the whole path where it says what it
    /// saved).
    pub fn kept(&mut self, file: &OutFile, path: &std::path::Path) {
        if file.kind == FileKind::State {
            self.state_file_kept(path);
        }
    }

    /// The platform could not write `file` (from [`Host::take_outbox`]): `error` shows on the
    /// overlay's notice, unless the cart's panic is there, and in full on the error output,
    /// once: the same failure again is not said again. Save data the cart changed is handed
    /// over again at its next change.
    pub fn write_failed(&mut self, file: &OutFile, error: &str) {
        if let (FileKind::SaveData, Some(store), Destination::Replace(path)) =
            (file.kind, &mut self.save, &file.destination)
        {
            if store.path() == path {
                store.write_failed();
            }
        }
        let write = file;
        let said = write.not_written(error);
        if self.last_write_error.as_deref() == Some(said.as_str()) {
            return;
        }
        self.say(format_args!("{said}"));
        if !self.panic_shown {
            let line = crate::quote::excerpt_chars(&said, NOTICE_CHARS);
            self.engine.overlay_forced().set_notice(&line);
        }
        self.last_write_error = Some(said);
    }

    /// Keeps every frame from now on, for [`Host::whole_run`] (`bt run --trace-out`). Memory
    /// grows by a [`crate::timing::timeline::FrameRecord`] (80 bytes) a frame.
    pub fn record_whole_run(&mut self) {
        let budget = self.recent.budget_ms();
        self.whole_run = Some(Timeline::new(budget));
    }

    /// As [`Host::record_whole_run`], for a run playing `capture`: the run keeps the
    /// capture's own columns (display, busy and latency times), so its trace carries the tracks
    /// `bt trace` gives the capture, and is titled, as `bt trace` titles it, by the program
    /// captured.
    pub fn record_whole_run_of_capture(&mut self, capture: &crate::clock::capture::Capture) {
        self.record_whole_run();
        if let Some(run) = &mut self.whole_run {
            let said = capture.describe_refresh_given();
            run.set_source(crate::timing::timeline::FrameSource::of_capture(
                capture, said,
            ));
        }
        self.whole_run_title = Some(crate::timing::captured::captured_title(
            &capture.stream().name(),
            &self.name,
        ));
    }

    /// Every frame since [`Host::record_whole_run`], if it was called.
    pub fn whole_run(&self) -> Option<&Timeline> {
        self.whole_run.as_ref()
    }

    /// The title of the whole run's trace: the cart, or the program captured when the run
    /// plays a capture ([`Host::record_whole_run_of_capture`]).
    pub fn whole_run_title(&self) -> &str {
        self.whole_run_title.as_deref().unwrap_or(&self.name)
    }

    /// The frames of the last [`RECENT_TIMINGS_MS`].
    pub fn recent_timings(&self) -> &Timeline {
        &self.recent
    }

    /// Gives F8 its HTML report: `report` draws the last seconds of timings (the window passes
    /// `bt-tools`'s report, which this crate sits below). Without one, F8 keeps the Chrome
    /// trace alone.
    pub fn set_timing_report(&mut self, report: TimingReport) {
        self.timing_report = Some(report);
    }

    /// The last seconds of frame timings as files, F8's: `<name>-timings.json` (the Chrome
    /// trace), and `.html` (the report) when the platform gave one
    /// ([`Host::set_timing_report`]).
    ///
    /// # Errors
    /// A message when the report cannot be made.
    pub fn timings_files(&self) -> Result<Vec<(FileKind, Vec<u8>)>, String> {
        let mut files = Vec::with_capacity(2);
        if let Some(report) = self.timing_report {
            let page = report(&self.recent, &self.name)?;
            files.push((FileKind::TimingReport, page.into_bytes()));
        }
        let mut json = Vec::new();
        self.recent
            .write_chrome_trace(&mut json, &self.name)
            .map_err(|e| e.to_string())?;
        files.push((FileKind::TimingTrace, json));
        Ok(files)
    }

    /// The replay of the run so far, `<name>.btr`, F2's.
    ///
    /// # Errors
    /// A message when the run is not being recorded.
    pub fn replay_file(&self) -> Result<Vec<u8>, String> {
        let version = self.cart_version.as_deref();
        let replay = self.engine.recording(&self.name, version).ok_or_else(|| {
            "the run is not recorded: start it with --record FILE.btr to save its replay"
                .to_string()
        })?;
        Ok(replay.to_json().into_bytes())
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
    pub fn watch_assets(&mut self, watcher: AssetWatcher, palette: Option<PaletteSource>) {
        let palette = palette.filter(|p| matches!(p, PaletteSource::File(_)));
        self.watch = Some((watcher, palette));
    }

    /// One displayed frame at `now_ms` (see [`Engine::run`]), after reloading the cart's
    /// assets if they changed on disk. When the cart panics, the engine stays paused and the
    /// panic shows across the top of the picture as the overlay's notice.
    pub fn frame(&mut self, now_ms: f64) -> Option<FrameReport> {
        if let Some(changed) = self.watch.as_ref().and_then(|(w, _)| w.take_changes()) {
            self.reload_changed(&changed);
        }
        if self.time_travel.rewinding.is_some() {
            self.rewind_frame(now_ms);
        }
        let report = self.engine.run(now_ms);
        self.sync_key_map();
        self.show_panic();
        self.expire_notice();
        self.store_save();
        let asked = self.engine.console_mut().take_capture_requests();
        if !asked.is_empty() {
            self.capture_frame(asked);
        }
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
        if let Some(target) = &mut self.record {
            target.frames_since_save += 1;
            if target.frames_since_save >= RECORD_SAVE_EVERY_FRAMES {
                self.save_recording();
            }
        }
        Some(report)
    }

    /// One displayed frame whose updates `step` runs in place of the engine's clock: a netplay
    /// session's frame, which runs the updates GGRS asks for and shows the newest state. What
    /// follows a frame follows it as in [`Host::frame`] (the cart's key map, its panic on
    /// screen, its save data and pictures kept, the recording saved now and then); assets are
    /// not reloaded, which only this peer would see.
    pub fn frame_by<T>(&mut self, step: impl FnOnce(&mut Engine) -> T) -> T {
        let result = step(&mut self.engine);
        self.sync_key_map();
        self.show_panic();
        self.expire_notice();
        self.store_save();
        let asked = self.engine.console_mut().take_capture_requests();
        if !asked.is_empty() {
            self.capture_frame(asked);
        }
        if let Some(target) = &mut self.record {
            target.frames_since_save += 1;
            if target.frames_since_save >= RECORD_SAVE_EVERY_FRAMES {
                self.save_recording();
            }
        }
        result
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
                self.save_recording();
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
    /// ([`crate::notice::fit`]), and in full on stderr; the cart keeps what it had, and
    /// the next good load clears the notice.
    pub fn reload_assets(&mut self) {
        self.reload_changed(&[]);
    }

    /// As [`Host::reload_assets`], telling the cart which files changed (`Update::changed_files`
    /// in its `reload`): their paths in the asset folder, or a palette file's path. Empty: the
    /// host cannot say, so the cart reloads everything.
    pub fn reload_changed(&mut self, changed: &[String]) {
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
        if let Err(e) = self.engine.reload_assets_changed(changed) {
            problem.get_or_insert(e);
        }
        let (width, height) = (self.engine.settings().width, self.engine.settings().height);
        let overlay = self.engine.overlay_forced();
        match problem {
            Some(message) => {
                let line = format!("reload: {message}");
                overlay.set_notice(&crate::notice::fit(&line, width, height));
                // In full on the terminal, where a path of any length can be read and copied.
                self.say(format_args!("{line}"));
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

    /// Shows `text` across the top of the picture, fitted to the display, or with `None`
    /// takes it away: news the platform has for the player (`bt dev`'s failed build). A cart's
    /// panic keeps its notice.
    pub fn show_notice(&mut self, text: Option<&str>) {
        if self.panic_shown {
            return;
        }
        let (width, height) = (self.engine.settings().width, self.engine.settings().height);
        let overlay = self.engine.overlay_forced();
        match text {
            Some(text) => overlay.set_notice(&crate::notice::fit(text, width, height)),
            None => overlay.clear_notice(),
        }
        if self.engine.is_paused() {
            let _ = self.engine.redraw();
            self.menu_over_new_frame();
        }
    }

    /// Feeds one event to the console. Returns what the platform should do about it, if anything.
    pub fn handle(&mut self, event: HostEvent<'_>) -> Option<HostAction> {
        self.sync_key_map();
        match event {
            HostEvent::Key { key, down } => return self.key(key, down),
            HostEvent::FocusLost if self.is_rewinding() => {
                // The rewind key's release goes elsewhere: the rewind ends here.
                let action = self.end_rewind();
                let console = self.engine.console_mut().input_mut();
                self.input.event_to_console(console, event);
                return action;
            }
            HostEvent::Text(_)
                if self.input.take_text_swallowed()
                    || self.menu.is_some()
                    || self.timeline_open() => {}
            HostEvent::PointerButton { button, down } if self.timeline_open() => {
                return self.timeline_pointer(button, down);
            }
            HostEvent::PointerMoved { x, y } if self.timeline_open() => {
                self.input.event_to_console(
                    self.engine.console_mut().input_mut(),
                    HostEvent::PointerMoved { x, y },
                );
                return self.timeline_moved(x);
            }
            HostEvent::PointerButton { button, down }
                if down
                    && button.intersects(Button::POINTER_A)
                    && self.pointer_on_toggle_corner() =>
            {
                // A press on the toggle corner belongs to the host, not the cart (its release
                // then finds nothing held and makes no edge either).
                return self.toggle_overlay();
            }
            event => {
                let console = self.engine.console_mut().input_mut();
                self.input.event_to_console(console, event);
            }
        }
        None
    }

    /// Applies the cart's key map when an update changed it ([`bt::Update::set_key_map`]): after
    /// every frame, and before every event, so the updates of any path (a frame, a step, a
    /// seek, a test's `advance`) are followed by their map before the next key arrives.
    fn sync_key_map(&mut self) {
        let console = self.engine.console_mut();
        if let Some(cart) = console.take_key_map_change() {
            self.input.apply_cart_map(console.input_mut(), &cart);
        }
    }

    /// Whether the pointer is over the overlay's toggle corner.
    fn pointer_on_toggle_corner(&self) -> bool {
        let (x, y) = self.input.pointer();
        Overlay::hits_toggle(x, y, self.engine.settings().height as i32)
    }

    fn key(&mut self, key: Key, down: bool) -> Option<HostAction> {
        let pressed = self.input.note_key(key, down);
        if pressed
            && key == Key::KeyQ
            && self.input.held_any(&[Key::ControlLeft, Key::ControlRight])
        {
            self.quit = true;
            self.input.swallow(key);
            return Some(HostAction::Quit);
        }
        if self.input.was_swallowed(key, down) {
            return None;
        }
        if self.menu.is_some() && down {
            self.input.swallow(key);
            return pressed.then(|| self.menu_key(key)).flatten();
        }
        if self.timeline_open() && down {
            self.input.swallow(key);
            if key == REWIND_KEY {
                return pressed.then(|| self.toggle_timeline()).flatten();
            }
            return self.timeline_key(key);
        }
        if key == REWIND_KEY && !down {
            return self.end_rewind();
        }
        if HOST_KEYS.contains(&key) {
            if self.netplay && NETPLAY_OFF_KEYS.contains(&key) {
                return None;
            }
            return pressed.then(|| self.host_key(key)).flatten();
        }
        if pressed && key == MENU_KEY && self.menu_key_is_free() {
            self.input.swallow(key);
            return self.open_menu();
        }
        let console = self.engine.console_mut().input_mut();
        self.input.key_to_console(console, key, down);
        None
    }

    /// Whether P may open the menu: the platform wants one, the key map gives P no button, and
    /// the cart is running or paused, not stopped by a panic.
    fn menu_key_is_free(&self) -> bool {
        self.pause_menu
            && (0..KEYBOARD_PLAYERS).all(|p| self.input.keymap().buttons(MENU_KEY, p) == 0)
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
        let effects = (!console.post_effects().is_empty()).then(|| self.engine.effects_enabled());
        self.menu = Some(PauseMenu::open(
            console.framebuffer(),
            console.menu_items(),
            effects,
        ));
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

    /// A key pressed while the menu is open. The keys that save a file, and fullscreen, work
    /// over the menu too.
    fn menu_key(&mut self, key: Key) -> Option<HostAction> {
        if matches!(key, Key::F2 | Key::F8 | Key::F9 | Key::F11) {
            return self.host_key(key);
        }
        let buttons = self.input.keymap().buttons(key, 0);
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
            MenuInput::Chose(MenuChoice::Effects) => {
                // A switch: the menu stays open, over the frame drawn again.
                Some(self.toggle_effects())
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
                // A new game with the save data the player has, still written to its file.
                let restarted = self.engine.restart_keeping_save();
                if let Some(store) = &mut self.save {
                    store.restarted(&self.engine);
                }
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
            Key::F7 if self.input.held_any(&[Key::ShiftLeft, Key::ShiftRight]) => {
                let under = !self.engine.overlay_under_effects();
                self.engine.set_overlay_under_effects(under);
                if self.engine.is_paused() && self.engine.cart_panic().is_none() {
                    let _ = self.engine.redraw();
                    self.menu_over_new_frame();
                }
                Some(HostAction::OverlayUnderEffects(under))
            }
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
            Key::F2 => {
                let made = self.replay_file().map(|f| vec![(FileKind::Replay, f)]);
                Some(self.post_made(&self.name.clone(), made))
            }
            Key::F8 => {
                let stem = format!("{}-timings", self.name);
                let made = self.timings_files();
                Some(self.post_made(&stem, made))
            }
            Key::F9 => {
                let made = self.screenshot().map(|f| vec![(FileKind::Screenshot, f)]);
                Some(self.post_made(&self.name.clone(), made))
            }
            Key::F10 => {
                let shift = self.input.held_any(&[Key::ShiftLeft, Key::ShiftRight]);
                Some(if shift {
                    HostAction::SaveGifBuffer
                } else {
                    HostAction::ToggleGif
                })
            }
            Key::F11 if self.input.held_any(&[Key::ShiftLeft, Key::ShiftRight]) => {
                Some(self.toggle_effects())
            }
            Key::F11 => Some(HostAction::ToggleFullscreen),
            REWIND_KEY if self.input.held_any(&[Key::ShiftLeft, Key::ShiftRight]) => {
                self.toggle_timeline()
            }
            REWIND_KEY => self.start_rewind(),
            SAVE_STATE_KEY => self.save_state(),
            LOAD_STATE_KEY => self.load_state(),
            _ => None,
        }
    }

    /// Shift+F11, or the pause menu's Effects item: turns the post-process stack off or on
    /// again, and draws a paused frame (and the menu, with its label changed) again to show it.
    fn toggle_effects(&mut self) -> HostAction {
        let on = !self.engine.effects_enabled();
        self.engine.set_effects_enabled(on);
        if let Some(menu) = &mut self.menu {
            menu.set_effects(on);
        }
        if self.engine.is_paused() && self.engine.cart_panic().is_none() {
            let _ = self.engine.redraw();
            self.menu_over_new_frame();
        }
        HostAction::EffectsToggled(on)
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

    /// Makes the pictures `asked` for (`Update::capture_frame`, `capture_frame_sized`), now,
    /// with the frame the request led to on screen, into the outbox, each a set of its own: the
    /// platform keeps them as it keeps F9's (the window in its captures folder, a page as a
    /// download). A failure says why on the error output, as F9's does.
    fn capture_frame(&mut self, asked: CaptureRequests) {
        let sizes = [
            (asked.screen, None),
            (asked.display, Some(CaptureSize::Display)),
            (asked.output, Some(CaptureSize::Output)),
        ];
        for (_, size) in sizes.into_iter().filter(|&(on, _)| on) {
            let picture = match size {
                None => self.screenshot(),
                Some(size) => self.picture_sized(size),
            };
            match picture {
                Ok(png) => {
                    let name = self.name.clone();
                    self.post(&name, [(FileKind::Screenshot, png)]);
                }
                Err(e) => self.say(format_args!("the cart's capture_frame: {e}")),
            }
        }
    }

    /// The picture as it is on screen as a PNG, `<name>.png`, F9's: the framebuffer at
    /// display size, overlay included, or, while a post-process effect of the display tier
    /// runs, the output picture (as `bt shot --size output`).
    ///
    /// # Errors
    /// A message when the picture cannot be encoded.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, String> {
        let size = if self.engine.has_display_tier() {
            CaptureSize::Output
        } else {
            CaptureSize::Display
        };
        self.picture_sized(size)
    }

    /// The frame on screen as a PNG, `<name>.png`, at `size`: the display's pixels through
    /// the palette as shown (`Display`), or the output picture with the display tier's
    /// effects (`Output`, as `bt shot --size output`); the overlay is in both when shown.
    ///
    /// # Errors
    /// A message when the picture cannot be encoded.
    pub fn picture_sized(&mut self, size: CaptureSize) -> Result<Vec<u8>, String> {
        let engine = &mut self.engine;
        match size {
            CaptureSize::Output => {
                let mut rgba = Vec::new();
                let (w, h) = engine.render_output(&mut rgba);
                png::encode_rgba_png(&rgba, w, h)
            }
            CaptureSize::Display => engine.display_png(1),
        }
        .map_err(|e| e.to_string())
    }
}

impl Host {
    /// Keeps the cart's save data in `path`: the host asks the platform to write it (through
    /// [`Host::take_outbox`]) whenever the cart changes it (at most once every
    /// [`crate::save::WRITE_EVERY_SECONDS`] of updates), and [`Host::finish`] hands over the
    /// last change. `path` should hold what the engine booted with. It names where the
    /// platform keeps the data: a file for the window, the key of the browser's storage for a
    /// page (which says so in the messages that name it).
    pub fn store_save_to(&mut self, path: PathBuf) {
        self.save = Some(SaveStore::new(path, &self.engine));
    }

    /// After a frame: queues the save data when it is due.
    fn store_save(&mut self) {
        self.step_save(SaveStore::after_frame);
    }

    /// Queues the save data if the cart changed it since it was last handed over.
    fn flush_save(&mut self) {
        self.step_save(SaveStore::flush);
    }

    /// Runs one step of the save store: a file to hand over is queued.
    fn step_save(&mut self, step: impl FnOnce(&mut SaveStore, &mut Engine) -> StoreEvent) {
        let Some(store) = &mut self.save else {
            return;
        };
        if let StoreEvent::Write(bytes) = step(store, &mut self.engine) {
            let path = store.path().to_path_buf();
            let set = self.new_set();
            self.outbox.push(OutFile {
                kind: FileKind::SaveData,
                destination: Destination::Replace(path),
                bytes,
                set,
            });
        }
    }
}
