//! One way to boot a cart: a [`Session`] is everything an engine starts from, resolved once
//! from what a front end was given, and it knows how to create the [`Engine`].
//!
//! Every front end builds its engine here: the command line (from its flags, the cart's
//! `cart.toml` and the user's config file), `CartTest` (`bt_host::harness`) (from the cart's
//! folder) and the web page (from the arguments and replay it boots with). Each says what it
//! has with a [`SessionBuilder`]; [`SessionBuilder::resolve`] then runs the cart's
//! `configure()`, applies the settings layers, reads the save data and the replay and checks
//! the replay fits, once. Nothing else assembles [`EngineOptions`] for a cart. A session may
//! also open on a state file ([`SessionBuilder::state`]): its engines start at the state.
//!
//! ```
//! use std::sync::Arc;
//! use bt::{Cart, Render, Update};
//! use bt_engine::config::manifest::SettingsPatch;
//! use bt_engine::session::Session;
//!
//! struct Blank;
//! impl Cart for Blank {
//!     fn update(&mut self, _ctx: &mut Update<'_>) {}
//!     fn render(&self, ctx: &mut Render<'_>) {
//!         ctx.clear(1);
//!     }
//! }
//!
//! let session = Session::builder("blank", Arc::new(|| Box::new(Blank) as Box<dyn Cart>))
//!     .command_line(SettingsPatch { target_fps: Some(30.0), ..SettingsPatch::default() })
//!     .resolve()?;
//! assert_eq!(session.settings().target_fps, 30.0);
//! let engine = session.engine()?;
//! assert_eq!(engine.settings().target_fps, 30.0);
//! # Ok::<(), bt_engine::session::SessionError>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bt::{Cart, Settings};
use thiserror::Error;

use crate::config::asset_pack::AssetPack;
use crate::config::manifest::{
    self, Layer, Manifest, ManifestError, PaletteSource, Provenance, SettingsPatch,
};
use crate::engine::{
    CartCall, CartFactory, CartPanic, Engine, EngineError, EngineOptions, StateFile, StateFileError,
};
use crate::replay::{Replay, ReplayError};
use crate::save;

/// Builds a fresh cart each call; shared by every engine a session creates.
pub type MakeCart = Arc<dyn Fn() -> Box<dyn Cart> + Send + Sync>;

/// The save data a cart boots with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BootSave {
    /// Empty save data, or the save data a replay carries.
    #[default]
    Empty,
    /// These bytes (at most [`bt::SaveData::CAPACITY`]).
    Bytes(Vec<u8>),
    /// The save file at this path, read only; it must exist (`--save FILE` of a headless run).
    File(PathBuf),
    /// The player's own save data, written back while they play: this file, else the cart's
    /// own ([`save::default_path`]); a missing file is empty save data. With a replay, the run
    /// is not the player's: a file given is read only, and none is the replay's.
    Player(Option<PathBuf>),
}

/// A replay a session plays first.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ReplaySource {
    /// A replay file (`--input FILE.btr`).
    File(PathBuf),
    /// A replay file's text, and the name messages give it.
    Text {
        /// The file's text.
        text: String,
        /// What messages call it (`the replay`).
        named: PathBuf,
    },
}

/// Why a session could not be resolved, or its engine not created. Each says which cart and
/// which file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The cart's `configure()` panicked.
    #[error("cart '{cart}': {panic}")]
    Configure {
        /// The cart.
        cart: String,
        /// The panic.
        panic: CartPanic,
    },
    /// The cart's `cart.toml` could not be read.
    #[error(transparent)]
    Manifest(ManifestError),
    /// The user's config file could not be read.
    #[error(transparent)]
    UserConfig(ManifestError),
    /// The settings layers do not resolve (a bad palette file, invalid settings).
    #[error("cart '{cart}': {error}")]
    Settings {
        /// The cart.
        cart: String,
        /// What is wrong.
        error: ManifestError,
    },
    /// The save data could not be read.
    #[error("{0}")]
    Save(String),
    /// The replay could not be read or does not fit the cart.
    #[error(transparent)]
    Replay(ReplayError),
    /// The engine refused the cart (bad settings, a failing `init`).
    #[error("cart '{cart}': {error}")]
    Engine {
        /// The cart.
        cart: String,
        /// Why.
        error: EngineError,
    },
    /// The state file could not be read, is of another build, or of another cart or run.
    #[error("{}", state_message(.path, .error))]
    State {
        /// The state file.
        path: PathBuf,
        /// Why.
        error: StateFileError,
    },
}

/// A state file's error on one line that names the file once: most name it already.
fn state_message(path: &Path, error: &StateFileError) -> String {
    match error {
        StateFileError::File { .. }
        | StateFileError::OtherBuild { .. }
        | StateFileError::Replay(_) => error.to_string(),
        other => format!("{}: {other}", crate::quote::path(path)),
    }
}

/// The largest state file read: a replay of the largest size ([`crate::replay::MAX_REPLAY_BYTES`])
/// and the few fields around it.
pub const MAX_STATE_FILE_BYTES: u64 = crate::replay::MAX_REPLAY_BYTES + 4096;

/// Reads the state file at `path` ([`StateFile::from_json`]).
///
/// # Errors
/// [`StateFileError::File`] for a file that cannot be read, is larger than
/// [`MAX_STATE_FILE_BYTES`], or is no state file of this layout; [`StateFileError::OtherBuild`]
/// for one of another build of BT.
pub fn read_state_file(path: &Path) -> Result<StateFile, StateFileError> {
    let text = crate::config::read::read_text(path, MAX_STATE_FILE_BYTES).map_err(|e| {
        StateFileError::File {
            path: path.to_path_buf(),
            message: format!("could not read it: {e}"),
        }
    })?;
    StateFile::from_json(&text, path)
}

/// Reads a user's config file (`manifest::load_user_config`).
type UserConfigReader = fn(&Path) -> Result<Option<SettingsPatch>, manifest::ManifestError>;

/// What a front end has before a cart boots, to [`resolve`](SessionBuilder::resolve) into a
/// [`Session`]. Made by [`Session::builder`].
pub struct SessionBuilder {
    name: String,
    make: MakeCart,
    manifest: Option<Manifest>,
    /// The user's config file and its reader, given only by a front end with files: a web
    /// page never names the TOML reader, so its module leaves the reader out.
    user_config: Option<(PathBuf, UserConfigReader)>,
    command_line: SettingsPatch,
    assets: Option<PathBuf>,
    packed_assets: Option<Arc<AssetPack>>,
    args: Vec<(String, String)>,
    save: BootSave,
    replay: Option<ReplaySource>,
    state: Option<PathBuf>,
    overlay: bool,
    update_per_host_tick: bool,
    reduced_motion: bool,
}

impl std::fmt::Debug for SessionBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionBuilder")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl SessionBuilder {
    /// The cart's `cart.toml`: its settings are a layer over `configure()`, and its version is
    /// the one replays are checked against.
    pub fn manifest(mut self, manifest: Option<Manifest>) -> SessionBuilder {
        self.manifest = manifest;
        self
    }

    /// The cart's folder: its `cart.toml` (see [`SessionBuilder::manifest`]) and its asset
    /// folder ([`assets_in`]).
    ///
    /// # Errors
    /// [`SessionError::Manifest`] for a `cart.toml` that does not parse.
    pub fn folder(self, dir: &Path) -> Result<SessionBuilder, SessionError> {
        let manifest = manifest::load(dir).map_err(SessionError::Manifest)?;
        let assets = assets_in(dir, manifest.as_ref());
        Ok(self.manifest(manifest).assets(assets))
    }

    /// The user's config file, a layer over the manifest (`None`, or a missing file: no layer).
    pub fn user_config(mut self, path: Option<PathBuf>) -> SessionBuilder {
        let read: UserConfigReader = manifest::load_user_config;
        self.user_config = path.map(|path| (path, read));
        self
    }

    /// The command line's settings, the top layer.
    pub fn command_line(mut self, patch: SettingsPatch) -> SessionBuilder {
        self.command_line = patch;
        self
    }

    /// The cart's asset folder (`None`: the working directory).
    pub fn assets(mut self, assets: Option<PathBuf>) -> SessionBuilder {
        self.assets = assets;
        self
    }

    /// The cart's asset folder carried in memory, as a web page has it: the cart's files are
    /// read from it instead of a folder.
    pub fn packed_assets(mut self, pack: Arc<AssetPack>) -> SessionBuilder {
        self.packed_assets = Some(pack);
        self
    }

    /// Cart arguments, `(name, value)` (a replay's own replace them).
    pub fn args(mut self, args: Vec<(String, String)>) -> SessionBuilder {
        self.args = args;
        self
    }

    /// The save data the cart boots with.
    pub fn save(mut self, save: BootSave) -> SessionBuilder {
        self.save = save;
        self
    }

    /// A replay to play first: its seed, arguments and input.
    pub fn replay(mut self, replay: Option<ReplaySource>) -> SessionBuilder {
        self.replay = replay;
        self
    }

    /// A state file to open on (`bt run --state`, `bt shot --state`): the session boots as
    /// the state's run did (its seed, update rate, arguments, save data and reduced-motion
    /// preference replace the session's), and every engine it creates starts paused at the
    /// state, its run from boot replayed ([`Engine::load_state_file`]). The save data is read
    /// only: the run writes none back.
    pub fn state(mut self, path: Option<PathBuf>) -> SessionBuilder {
        self.state = path;
        self
    }

    /// Whether the player prefers reduced motion as the run boots (`bt run --reduced-motion`,
    /// a page's `prefers-reduced-motion`); the user's config file's `[display] reduced_motion =
    /// true` turns it on too. A replay boots with the recorded run's instead.
    pub fn reduced_motion(mut self, on: bool) -> SessionBuilder {
        self.reduced_motion = on;
        self
    }

    /// Whether the overlay exists (default yes).
    pub fn overlay(mut self, overlay: bool) -> SessionBuilder {
        self.overlay = overlay;
        self
    }

    /// Simulated host ticks at the cart's update rate, for a test bench that counts updates.
    pub fn host_tick_per_update(mut self) -> SessionBuilder {
        self.update_per_host_tick = true;
        self
    }

    /// Boots as the run of the state `file` did: its seed, rate, arguments, save data and
    /// reduced-motion preference over what was given.
    fn booting_as(mut self, file: &StateFile) -> SessionBuilder {
        let info = &file.replay.info;
        self.command_line.seed = Some(info.seed);
        self.command_line.target_fps = Some(info.target_fps);
        self.args.clone_from(&info.args);
        self.save = BootSave::Bytes(file.replay.boot_save().to_vec());
        self.reduced_motion = info.reduced_motion;
        self
    }

    /// Resolves everything once, in this order: the cart's `configure()`, the user's config
    /// file, the settings layers (`cart.toml`, user config, command line), the save data, then
    /// the replay, checked against the resolved settings.
    ///
    /// # Errors
    /// A [`SessionError`] naming the cart or the file at fault.
    pub fn resolve(mut self) -> Result<Session, SessionError> {
        let state = match self.state.take() {
            Some(path) => {
                let file = read_state_file(&path).map_err(|error| SessionError::State {
                    path: path.clone(),
                    error,
                })?;
                self = self.booting_as(&file);
                Some(Arc::new((file, path)))
            }
            None => None,
        };
        let name = self.name;
        let make = self.make.clone();
        let configured =
            crate::engine::cart_panic::guarded(|| make().configure()).map_err(|message| {
                SessionError::Configure {
                    cart: name.clone(),
                    panic: CartPanic {
                        call: CartCall::Configure,
                        tick: 0,
                        message,
                    },
                }
            })?;
        let user = match &self.user_config {
            Some((path, read)) => read(path)
                .map_err(SessionError::UserConfig)?
                .map(|patch| (path.clone(), patch)),
            None => None,
        };
        let mut layers = Vec::new();
        if let Some(m) = &self.manifest {
            layers.push((Layer::Manifest, Some(m.path.as_path()), &m.settings));
        }
        if let Some((path, patch)) = &user {
            layers.push((Layer::UserConfig, Some(path.as_path()), patch));
        }
        layers.push((Layer::CommandLine, None, &self.command_line));
        let (settings, provenance) =
            manifest::resolve(configured, &layers).map_err(|error| SessionError::Settings {
                cart: name.clone(),
                error,
            })?;
        let PlayerSave {
            bytes: save,
            file: save_file,
            lock: save_lock,
            warning: save_warning,
        } = boot_save(self.save, &name, self.replay.is_some())?;
        let version = self.manifest.as_ref().and_then(|m| m.cart.version.clone());
        let mut warnings: Vec<String> = provenance
            .iter()
            .filter_map(Provenance::override_warning)
            .collect();
        warnings.extend(save_warning);
        let mut session = Session {
            host_hz: if self.update_per_host_tick {
                settings.target_fps
            } else {
                EngineOptions::default().host_hz
            },
            name,
            make: self.make,
            provenance,
            manifest_path: self.manifest.as_ref().map(|m| m.path.clone()),
            palette: self
                .manifest
                .as_ref()
                .and_then(|m| m.settings.palette.clone()),
            version,
            assets: self.assets,
            packed_assets: self.packed_assets,
            args: self.args,
            seed: None,
            overlay: self.overlay,
            replay: None,
            state,
            save,
            save_file,
            save_lock: save_lock.map(Arc::new),
            warnings,
            // Either the command line or the player's config file turns it on.
            reduced_motion: self.reduced_motion
                || user.as_ref().and_then(|(_, p)| p.reduced_motion) == Some(true),
            settings,
        };
        if let Some(source) = self.replay {
            session.play(source)?;
        }
        Ok(session)
    }
}

/// A cart's asset folder in its folder `dir`: the one its manifest names, else `dir/assets`
/// when that is a folder.
pub fn assets_in(dir: &Path, manifest: Option<&Manifest>) -> Option<PathBuf> {
    match manifest.and_then(|m| m.assets.clone()) {
        Some(folder) => Some(folder),
        None => Some(dir.join("assets")).filter(|d| d.is_dir()),
    }
}

/// The save data a session boots with, and where it goes.
#[derive(Default)]
struct PlayerSave {
    bytes: Option<Vec<u8>>,
    /// The file the save data is written back to.
    file: Option<PathBuf>,
    /// Held while the session lives, so no other run writes `file`.
    lock: Option<save::SaveLock>,
    /// Why the save data is not written back after all.
    warning: Option<String>,
}

impl PlayerSave {
    fn read_only(bytes: Option<Vec<u8>>) -> PlayerSave {
        PlayerSave {
            bytes,
            ..PlayerSave::default()
        }
    }
}

/// The save data to boot with and the file to write it back to, from `source`. The player's
/// own file is locked first ([`save::SaveLock`]); when another run holds it, this one boots
/// with what the file holds and writes nothing.
fn boot_save(source: BootSave, cart: &str, replaying: bool) -> Result<PlayerSave, SessionError> {
    let read_only = |path: &Path| {
        save::load_existing(path)
            .map(Some)
            .map_err(|e| SessionError::Save(e.to_string()))
    };
    match source {
        BootSave::Empty | BootSave::Player(None) if replaying => Ok(PlayerSave::default()),
        BootSave::Empty => Ok(PlayerSave::default()),
        BootSave::Bytes(bytes) => Ok(PlayerSave::read_only(Some(bytes))),
        BootSave::File(path) => Ok(PlayerSave::read_only(read_only(&path)?)),
        BootSave::Player(Some(path)) if replaying => Ok(PlayerSave::read_only(read_only(&path)?)),
        BootSave::Player(given) => {
            let path = match given {
                Some(path) => path,
                None => save::default_path(cart).map_err(|e| SessionError::Save(e.to_string()))?,
            };
            // Before it is read, so what is read is what no other run is about to replace.
            let (lock, writes, warning) = match save::SaveLock::take(&path) {
                Ok(lock) => (Some(lock), true, None),
                Err(e @ save::SaveFileError::InUse { .. }) => (
                    None,
                    false,
                    Some(format!(
                        "{e}: this run boots with what it holds and writes no save data"
                    )),
                ),
                // No worse than before there were locks: the writes say whether they fail.
                Err(e) => (
                    None,
                    true,
                    Some(format!("{e}: writing save data without a lock")),
                ),
            };
            let bytes = save::load(&path).map_err(|e| {
                SessionError::Save(format!(
                    "{e} (it is left as it is: move it aside to start with empty save data)"
                ))
            })?;
            if writes {
                // Said now, once, rather than at every write of a run whose saves are all lost.
                save::check_writable(&path).map_err(|e| {
                    SessionError::Save(format!(
                        "{e} (give --save FILE somewhere that can be written)"
                    ))
                })?;
            }
            Ok(PlayerSave {
                bytes: Some(bytes.unwrap_or_default()),
                file: writes.then_some(path),
                lock,
                warning,
            })
        }
    }
}

/// Everything an engine for one cart starts from, resolved once (see the [module](self)).
/// Cloning it is cheap enough to hand one to each thread that creates engines.
#[derive(Clone)]
pub struct Session {
    name: String,
    make: MakeCart,
    settings: Settings,
    provenance: Vec<Provenance>,
    manifest_path: Option<PathBuf>,
    version: Option<String>,
    palette: Option<PaletteSource>,
    assets: Option<PathBuf>,
    packed_assets: Option<Arc<AssetPack>>,
    args: Vec<(String, String)>,
    seed: Option<u64>,
    overlay: bool,
    host_hz: f64,
    replay: Option<Arc<Replay>>,
    /// The state file every engine starts at, and its path.
    state: Option<Arc<(StateFile, PathBuf)>>,
    save: Option<Vec<u8>>,
    save_file: Option<PathBuf>,
    /// Held for as long as any clone of the session lives: the right to write `save_file`.
    save_lock: Option<Arc<save::SaveLock>>,
    warnings: Vec<String>,
    /// The player's reduced-motion preference at boot.
    reduced_motion: bool,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut f = f.debug_struct("Session");
        f.field("name", &self.name)
            .field("settings", &self.settings)
            .field("assets", &self.assets)
            .field("args", &self.args)
            .field("save_file", &self.save_file);
        f.field("save_lock", &self.save_lock);
        f.finish_non_exhaustive()
    }
}

impl Session {
    /// What the cart `name`, built by `make`, boots from: nothing yet but `configure()`.
    pub fn builder(name: &str, make: MakeCart) -> SessionBuilder {
        SessionBuilder {
            name: name.to_string(),
            make,
            manifest: None,
            user_config: None,
            command_line: SettingsPatch::default(),
            assets: None,
            packed_assets: None,
            args: Vec::new(),
            save: BootSave::Empty,
            replay: None,
            state: None,
            overlay: true,
            update_per_host_tick: false,
            reduced_motion: false,
        }
    }

    /// Reads `source`, checks it fits the cart, and plays it: its seed and arguments replace
    /// the session's.
    fn play(&mut self, source: ReplaySource) -> Result<(), SessionError> {
        let (replay, path) = match source {
            ReplaySource::File(path) => (Replay::load(&path), path),
            ReplaySource::Text { text, named } => (Replay::from_json(&text, &named), named),
        };
        let replay = replay.map_err(SessionError::Replay)?;
        let s = &self.settings;
        if let Some(warning) = replay
            .check(&path, &self.name, self.version.as_deref(), s.target_fps)
            .map_err(SessionError::Replay)?
        {
            self.warnings.push(warning);
        }
        let (w, h) = (replay.info.width, replay.info.height);
        if (w, h) != (s.width, s.height) {
            self.warnings.push(format!(
                "{}: recorded on a {w}x{h} display, the cart now has {}x{}; it may play \
                 differently",
                crate::quote::path(&path),
                s.width,
                s.height
            ));
        }
        self.seed = Some(replay.info.seed);
        self.args = replay.info.args.clone();
        self.replay = Some(Arc::new(replay));
        Ok(())
    }

    /// Plays `replay`'s input instead, keeping the session's seed, arguments and save data
    /// (`bt verify`'s scripted input).
    pub fn set_replay(&mut self, replay: Arc<Replay>) {
        self.replay = Some(replay);
    }

    /// Boots with save data `bytes` instead of what the session was given: for a front end
    /// that learns where the player's save data is kept only from the resolved settings (a
    /// page keys it by the cart's title). The engines it creates from now on start with it.
    pub fn set_boot_save(&mut self, bytes: Vec<u8>) {
        self.save = Some(bytes);
    }

    /// The cart's name, as replays and save files know it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The settings with every layer applied.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Where each setting came from (`bt config`).
    pub fn provenance(&self) -> &[Provenance] {
        &self.provenance
    }

    /// The cart's `cart.toml`, when it has one.
    pub fn manifest_path(&self) -> Option<&Path> {
        self.manifest_path.as_deref()
    }

    /// The cart's version, from its manifest: what a recording states.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The palette its manifest names (a file is watched while playing).
    pub fn palette(&self) -> Option<&PaletteSource> {
        self.palette.as_ref()
    }

    /// The cart's asset folder.
    pub fn assets(&self) -> Option<&Path> {
        self.assets.as_deref()
    }

    /// The cart arguments it boots with (a replay's, when one plays).
    pub fn args(&self) -> &[(String, String)] {
        &self.args
    }

    /// The replay it plays first.
    pub fn replay(&self) -> Option<&Arc<Replay>> {
        self.replay.as_ref()
    }

    /// The player's save file, which the cart's save data is written back to while it plays.
    pub fn save_file(&self) -> Option<&Path> {
        self.save_file.as_deref()
    }

    /// What a front end should tell the user before the run (a replay of another version).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// A factory for the engine, building the cart afresh each call.
    pub fn factory(&self) -> CartFactory {
        let make = self.make.clone();
        Box::new(move || make())
    }

    /// What the engine starts with.
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            seed: self.seed,
            target_fps: None,
            host_hz: self.host_hz,
            overlay: self.overlay,
            args: self.args.clone(),
            settings: Some(self.settings.clone()),
            assets: self.assets.clone(),
            packed_assets: self.packed_assets.clone(),
            replay: self.replay.clone(),
            save: self.save.clone(),
            reduced_motion: self.reduced_motion,
            ..EngineOptions::default()
        }
    }

    /// A new engine running the cart from boot, as the session says; with a state file
    /// ([`SessionBuilder::state`]), paused at the state.
    ///
    /// # Errors
    /// [`SessionError::Engine`]: invalid settings, or a failing `init`;
    /// [`SessionError::State`]: a state of another cart, version of it or run, or one whose
    /// replay fails.
    pub fn engine(&self) -> Result<Engine, SessionError> {
        let mut engine = Engine::new(self.factory(), self.engine_options()).map_err(|error| {
            SessionError::Engine {
                cart: self.name.clone(),
                error,
            }
        })?;
        if let Some(state) = &self.state {
            let (file, path) = state.as_ref();
            engine
                .load_state_file(file, &self.name, self.version.as_deref(), path)
                .map_err(|error| SessionError::State {
                    path: path.clone(),
                    error,
                })?;
        }
        Ok(engine)
    }

    /// The state file the session opens on ([`SessionBuilder::state`]), and its path.
    pub fn state(&self) -> Option<(&StateFile, &Path)> {
        self.state
            .as_deref()
            .map(|(file, path)| (file, path.as_path()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::{Render, Update};
    use std::sync::atomic::{AtomicU32, Ordering};

    struct Counted;
    impl Cart for Counted {
        fn configure(&self) -> Settings {
            Settings::default().target_fps(50.0).seed(3)
        }
        fn update(&mut self, _ctx: &mut Update<'_>) {}
        fn render(&self, ctx: &mut Render<'_>) {
            ctx.clear(1);
        }
    }

    fn counted() -> MakeCart {
        Arc::new(|| Box::new(Counted) as Box<dyn Cart>)
    }

    #[test]
    fn layers_resolve_once_and_every_engine_starts_from_the_result() {
        /// `configure()` calls of this test's own cart.
        static CALLS: AtomicU32 = AtomicU32::new(0);
        struct Once;
        impl Cart for Once {
            fn configure(&self) -> Settings {
                CALLS.fetch_add(1, Ordering::SeqCst);
                Settings::default().target_fps(50.0).seed(3)
            }
            fn update(&mut self, _ctx: &mut Update<'_>) {}
            fn render(&self, _ctx: &mut Render<'_>) {}
        }
        let session = Session::builder("once", Arc::new(|| Box::new(Once) as Box<dyn Cart>))
            .command_line(SettingsPatch {
                seed: Some(9),
                ..SettingsPatch::default()
            })
            .resolve()
            .unwrap();
        assert_eq!(
            CALLS.load(Ordering::SeqCst),
            1,
            "configure() ran to resolve"
        );
        let layer = |field: &str| {
            let row = session.provenance().iter().find(|r| r.field == field);
            row.unwrap_or_else(|| panic!("no row {field}")).layer
        };
        assert_eq!(layer("cart.seed"), Layer::CommandLine);
        assert_eq!(layer("cart.target_fps"), Layer::Configure);
        for _ in 0..2 {
            let engine = session.engine().unwrap();
            assert_eq!(engine.seed(), 9, "the command line's seed, every time");
            assert_eq!(engine.settings().target_fps, 50.0);
        }
        assert_eq!(
            CALLS.load(Ordering::SeqCst),
            1,
            "engines start from the resolved settings, not from configure() again"
        );
    }

    #[test]
    fn a_cart_toml_value_over_configure_s_is_a_warning_of_the_session() {
        struct Small;
        impl Cart for Small {
            fn configure(&self) -> Settings {
                Settings::default().display(160, 120)
            }
            fn update(&mut self, _ctx: &mut Update<'_>) {}
            fn render(&self, _ctx: &mut Render<'_>) {}
        }
        let manifest = Manifest {
            path: PathBuf::from("small/cart.toml"),
            settings: SettingsPatch {
                width: Some(240),
                height: Some(120),
                ..SettingsPatch::default()
            },
            ..Manifest::default()
        };
        let session = Session::builder("small", Arc::new(|| Box::new(Small) as Box<dyn Cart>))
            .manifest(Some(manifest))
            .resolve()
            .unwrap();
        assert_eq!(session.settings().width, 240, "cart.toml wins");
        assert_eq!(session.warnings().len(), 1, "{:?}", session.warnings());
        let said = &session.warnings()[0];
        assert!(
            said.starts_with(
                "small/cart.toml sets display.width = 240, the cart's configure() 160"
            ),
            "{said}"
        );
    }

    #[test]
    fn the_players_config_file_can_ask_for_reduced_motion() {
        let dir = std::env::temp_dir().join(format!("bt-session-motion-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("config.toml");
        std::fs::write(&config, "[display]\nreduced_motion = true\n").unwrap();
        let boot = |config: Option<PathBuf>| {
            let session = Session::builder("counted", counted())
                .user_config(config)
                .resolve()
                .unwrap();
            let engine = session.engine().unwrap();
            engine.console().input().prefers_reduced_motion()
        };
        let (with, without) = (boot(Some(config)), boot(None));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(with && !without);
    }

    #[test]
    fn a_panicking_configure_is_an_error_naming_the_cart() {
        struct Bad;
        impl Cart for Bad {
            fn configure(&self) -> Settings {
                panic!("no settings today")
            }
            fn update(&mut self, _ctx: &mut Update<'_>) {}
            fn render(&self, _ctx: &mut Render<'_>) {}
        }
        let e = Session::builder("bad", Arc::new(|| Box::new(Bad) as Box<dyn Cart>))
            .resolve()
            .unwrap_err();
        let said = e.to_string();
        assert!(
            said.starts_with("cart 'bad': ") && said.contains("no settings today"),
            "{said}"
        );
    }

    #[test]
    fn a_replay_of_another_cart_is_refused_before_any_engine_exists() {
        let engine = Session::builder("counted", counted())
            .resolve()
            .unwrap()
            .engine()
            .unwrap();
        let mut engine = engine;
        engine.start_recording(crate::replay::DEFAULT_HASH_EVERY);
        engine.advance(3);
        let text = engine.recording("other", None).unwrap().to_json();
        let e = Session::builder("counted", counted())
            .replay(Some(ReplaySource::Text {
                text,
                named: "the replay".into(),
            }))
            .resolve()
            .unwrap_err();
        assert!(matches!(e, SessionError::Replay(_)), "{e}");
    }

    #[test]
    fn a_replay_brings_its_seed_and_arguments() {
        let mut engine = Session::builder("counted", counted())
            .args(vec![("level".into(), "2".into())])
            .resolve()
            .unwrap()
            .engine()
            .unwrap();
        engine.start_recording(crate::replay::DEFAULT_HASH_EVERY);
        engine.advance(2);
        let text = engine.recording("counted", None).unwrap().to_json();
        let session = Session::builder("counted", counted())
            .command_line(SettingsPatch {
                seed: Some(77),
                ..SettingsPatch::default()
            })
            .replay(Some(ReplaySource::Text {
                text,
                named: "the replay".into(),
            }))
            .resolve()
            .unwrap();
        assert_eq!(session.args(), [("level".to_string(), "2".to_string())]);
        assert_eq!(session.engine().unwrap().seed(), 3, "the recorded seed");
    }
}
