//! Save states: the whole run kept at one update to load again, in memory
//! ([`Engine::save_state`], [`Engine::load_state`]) or as a file ([`StateFile`]), which holds
//! the input from boot to that update: the run is deterministic, so replaying it is the state.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::snapshot::{Snapshot, SnapshotError};
use super::{Engine, EngineError, Origin};
use crate::replay::{Player, Recorder, Replay, ReplayError};

static ENGINES: AtomicU64 = AtomicU64::new(0);

/// A number no other engine of this process has.
pub(super) fn next_engine_id() -> u64 {
    ENGINES.fetch_add(1, Ordering::Relaxed)
}

/// The whole run at one update, from [`Engine::save_state`], to load into the same engine with
/// [`Engine::load_state`] as often as wanted. A host keeps as many as it has slots for.
pub struct SaveState {
    snapshot: Snapshot,
    /// The recording and the frame hashes as they were: the run that led to the state may
    /// not be the one the engine is on when it is loaded.
    recorder: Option<Recorder>,
    hashes: Vec<(u64, u64)>,
    /// What every update saw, from the update given, up to the state (for travel after a
    /// load).
    played: Option<(Recorder, u64)>,
    engine: u64,
    /// Where the run the state was taken on left the timeline a replay from boot gives.
    left_at: Option<u64>,
}

impl std::fmt::Debug for SaveState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaveState")
            .field("updates", &self.snapshot.updates_since_init)
            .field("bytes", &self.snapshot.bytes)
            .finish_non_exhaustive()
    }
}

impl SaveState {
    /// Updates since `init` when the state was saved.
    pub fn updates(&self) -> u64 {
        self.snapshot.updates_since_init
    }

    /// About how many bytes the state holds.
    pub fn bytes(&self) -> usize {
        self.snapshot.bytes + std::mem::size_of::<Snapshot>()
    }
}

/// The build a state file is made with and loads into: states are exact only within one.
///
/// Every build of one version of BT shares its version number, and a cart's code can change
/// with no version change at all, so the version alone tells nothing. The program itself is
/// what plays the state: its bytes are hashed (64-bit FNV-1a, once a process, when the first
/// state file is made or read), and any change to BT or to the cart built into it gives
/// another build. Natively the program's file is read; a web page, which cannot read its own
/// module, is handed its bytes by its script ([`set_program_bytes`]). Where neither is to be
/// had, the build is the version with `program unknown`.
///
/// ```
/// let build = bt_engine::engine::state_build();
/// assert!(build.starts_with("bt-runtime "), "{build}");
/// assert!(build.contains(", program "), "{build}");
/// ```
pub fn state_build() -> &'static str {
    BUILD.get_or_init(|| {
        let hash = PROGRAM.get().copied().or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|exe| hash_file(&exe).ok())
        });
        build_named(hash)
    })
}

/// The build [`state_build`] names for a program whose bytes are `program`.
pub fn build_of_program(program: &[u8]) -> String {
    build_named(Some(fnv1a(FNV_OFFSET, program)))
}

/// Hands over the program's own bytes, for a host that cannot read its program's file (a web
/// page's script hands the module it loaded): [`state_build`] then names them. Returns `false`,
/// changing nothing, once the build is fixed: bytes were handed over already, or a state file
/// was made or read.
pub fn set_program_bytes(program: &[u8]) -> bool {
    BUILD.get().is_none() && PROGRAM.set(fnv1a(FNV_OFFSET, program)).is_ok()
}

static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
static PROGRAM: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

fn build_named(hash: Option<u64>) -> String {
    let program = hash.map_or_else(|| "unknown".to_string(), |hash| format!("{hash:016x}"));
    format!(
        "bt-runtime {}, program {program}",
        env!("CARGO_PKG_VERSION")
    )
}

/// FNV-1a's starting value.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a (64 bits) of `bytes`, carrying on from `hash`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The largest program file hashed for [`state_build`]: far past any build of BT.
const MAX_PROGRAM_BYTES: u64 = 4 << 30;

/// FNV-1a (64 bits) of the file at `path`, read a block at a time.
fn hash_file(path: &Path) -> Result<u64, crate::config::read::ReadError> {
    use std::io::Read;
    let (file, _) = crate::config::read::open_file(path, MAX_PROGRAM_BYTES)?;
    let mut file = file.take(MAX_PROGRAM_BYTES);
    let mut block = vec![0; 1 << 16];
    let mut hash = FNV_OFFSET;
    loop {
        let n = file
            .read(&mut block)
            .map_err(crate::config::read::ReadError::Io)?;
        if n == 0 {
            return Ok(hash);
        }
        hash = fnv1a(hash, &block[..n]);
    }
}

/// What a state file's first field says it is.
const STATE_FORMAT: &str = "bt-state";
/// The layout of a state file.
const STATE_VERSION: u32 = 1;

/// A save state as a file: the run's input from boot to the saved update (a replay), with the
/// build it was made with. Loading replays it ([`Engine::load_state_file`]), so the file is
/// small and the state exact, but only in the same build of BT and for the same cart.
#[derive(Debug, Clone, PartialEq)]
pub struct StateFile {
    /// The build that made it ([`state_build`] of that build).
    pub build: String,
    /// The run from boot to the saved update.
    pub replay: Replay,
}

/// Why a state file could not be made, read or loaded. Each names the file or the value.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StateFileError {
    /// The file could not be read or written, or is no state file.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The replay inside could not be read.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Made by another build of BT.
    #[error(
        "{path}: a state saved by another build ({found}); this is {}, which loads only its own",
        state_build()
    )]
    OtherBuild {
        /// The file.
        path: PathBuf,
        /// The build that made it.
        found: String,
    },
    /// Of another cart, seed, update rate or arguments.
    #[error("a state of {found}; this run is {running}")]
    OtherRun {
        /// The run the state is of.
        found: String,
        /// This run.
        running: String,
    },
    /// The engine records nothing, so it has no input to save.
    #[error(
        "a state file needs the run's input from boot: start recording before the first update"
    )]
    NotRecording,
}

#[derive(Serialize, Deserialize)]
struct StateFileV1 {
    format: String,
    version: u32,
    build: String,
    replay: serde_json::Value,
}

impl StateFile {
    /// The file's text.
    pub fn to_json(&self) -> String {
        let replay = serde_json::from_str(&self.replay.to_json()).unwrap_or_default();
        let file = StateFileV1 {
            format: STATE_FORMAT.to_string(),
            version: STATE_VERSION,
            build: self.build.clone(),
            replay,
        };
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// Reads a state file's text; `path` only names it in errors.
    ///
    /// # Errors
    /// [`StateFileError::File`] for text that is no state file of this layout,
    /// [`StateFileError::OtherBuild`] for one of another build, and the replay's errors.
    pub fn from_json(text: &str, path: &Path) -> Result<StateFile, StateFileError> {
        let bad = |message: String| StateFileError::File {
            path: path.to_path_buf(),
            message,
        };
        let file: StateFileV1 =
            serde_json::from_str(text).map_err(|e| bad(format!("not a BT state file ({e})")))?;
        if file.format != STATE_FORMAT {
            return Err(bad(format!(
                "not a BT state file (\"format\" is {:?}, not \"{STATE_FORMAT}\")",
                file.format
            )));
        }
        if file.version != STATE_VERSION {
            return Err(bad(format!(
                "state file version {}; this bt reads version {STATE_VERSION}",
                file.version
            )));
        }
        if file.build != state_build() {
            return Err(StateFileError::OtherBuild {
                path: path.to_path_buf(),
                found: file.build,
            });
        }
        let replay = Replay::from_json(&file.replay.to_string(), path)?;
        Ok(StateFile {
            build: file.build,
            replay,
        })
    }
}

impl Engine {
    /// Saves the whole run as it is now, to load again with [`Engine::load_state`]: the cart,
    /// the console, the tick counter, the replay's place and the recording's length. It costs
    /// one snapshot's copy (see [`Engine::snapshots`] for their size).
    ///
    /// # Errors
    /// [`SnapshotError::Unsupported`] when the cart cannot be copied ([`bt::Cart::snapshot`]);
    /// [`EngineError::Panicked`] when it panicked, or panics copying itself.
    pub fn save_state(&mut self) -> Result<SaveState, EngineError> {
        self.settle_travel();
        if let Some(panic) = &self.panic {
            return Err(EngineError::Panicked(panic.clone()));
        }
        let (cart, console, tape) = (&self.cart, &self.console, &self.tape);
        let (ticks, updates, reproducible) = (
            self.fixed.ticks(),
            self.updates_since_init,
            self.ring.reproducible,
        );
        let taken = super::cart_panic::guarded(|| {
            Snapshot::take(
                cart.as_ref(),
                console,
                ticks,
                updates,
                tape.place(),
                reproducible,
            )
        });
        let snapshot = match taken {
            Ok(Some(snapshot)) => snapshot,
            Ok(None) => return Err(SnapshotError::Unsupported.into()),
            Err(message) => return Err(self.stop(super::CartCall::Snapshot, message)),
        };
        Ok(SaveState {
            snapshot,
            recorder: self.tape.recorder.clone(),
            played: self.tape.played.as_ref().map(|log| {
                let mut log = log.clone();
                log.truncate(updates.saturating_sub(self.tape.played_from));
                (log, self.tape.played_from)
            }),
            hashes: self.tape.hashes.clone(),
            engine: self.id,
            left_at: self.ring.left_at,
        })
    }

    /// Loads `state` (saved by this engine) and renders it with `render_alpha` 0. The engine is
    /// paused, as after a seek; [`Engine::resume`] plays on from there. A recording is put back
    /// as it was when the state was saved and branches there (one begun since starts over);
    /// snapshots of the run since are dropped unless a replay from boot reaches them.
    ///
    /// # Errors
    /// [`SnapshotError::OtherEngine`] for a state of another engine (another cart or run);
    /// [`EngineError::Panicked`] when the cart panics copying itself or drawing.
    pub fn load_state(&mut self, state: &SaveState) -> Result<(), EngineError> {
        if state.engine != self.id {
            return Err(SnapshotError::OtherEngine.into());
        }
        self.settle_travel();
        self.begin_seek();
        self.restore_from(&state.snapshot)?;
        // The recording of the run that led to the state; one begun since starts over here.
        let same = state.snapshot.generation == self.tape.generation;
        if let Some(recorder) = &mut self.tape.recorder {
            match (&state.recorder, same) {
                (Some(saved), true) => recorder.clone_from(saved),
                _ => recorder.clear(),
            }
        }
        if same {
            self.tape.hashes.clone_from(&state.hashes);
        }
        let updates = state.snapshot.updates_since_init;
        self.forget_marks_after(updates);
        if let Some(played) = &mut self.tape.played {
            match &state.played {
                Some((log, from)) => {
                    played.clone_from(log);
                    self.tape.played_from = *from;
                }
                None => {
                    played.clear();
                    self.tape.played_from = updates;
                }
            }
        }
        if state.snapshot.reproducible {
            self.ring.back_to_boot();
        } else {
            // Reproducible snapshots up to where the state's run left that timeline are on
            // it; none else is.
            let left = state.left_at.unwrap_or(updates);
            self.ring
                .entries
                .retain(|s| s.reproducible && s.updates_since_init <= left);
            self.ring.reproducible = false;
            self.ring.left_at = state.left_at;
            self.ring.branch_after(updates);
        }
        self.render(0.0).map(drop)
    }

    /// The run from boot to now as a [`StateFile`] of the cart `cart` (version
    /// `cart_version`): the recording ([`Engine::start_recording`]), or, without one, the
    /// input the engine logged from boot while keeping snapshots.
    ///
    /// # Errors
    /// [`StateFileError::NotRecording`] when the engine holds neither from boot (it records
    /// nothing and keeps no snapshots, or began keeping them after boot).
    pub fn state_file(
        &self,
        cart: &str,
        cart_version: Option<&str>,
    ) -> Result<StateFile, StateFileError> {
        let replay = self
            .played_from_boot(cart, cart_version)
            .ok_or(StateFileError::NotRecording)?;
        Ok(StateFile {
            build: state_build().to_string(),
            replay,
        })
    }

    /// Loads a state file: replays its input from boot to its last update (reusing no
    /// snapshot: the input is the file's) and renders that frame, paused. From then on the
    /// file's replay is what a seek from the start plays, and a recording holds its input.
    ///
    /// # Errors
    /// [`StateFileError::OtherRun`] when the file is of another cart (by `cart`), another
    /// version of it (`cart_version`), seed, update rate, display or arguments than this
    /// engine runs; the seek's errors, as [`EngineError`] inside [`StateFileError::File`]
    /// naming `path`.
    pub fn load_state_file(
        &mut self,
        file: &StateFile,
        cart: &str,
        cart_version: Option<&str>,
        path: &Path,
    ) -> Result<(), StateFileError> {
        let recorded = file.replay.info.cart_version.as_deref();
        if recorded != cart_version {
            let version = |v: Option<&str>| {
                v.map_or("with no version".to_string(), |v| format!("version {v}"))
            };
            return Err(StateFileError::OtherRun {
                found: format!("{} {}", file.replay.info.cart, version(recorded)),
                running: format!("{cart} {}", version(cart_version)),
            });
        }
        let info = &file.replay.info;
        let ours = (
            cart,
            self.seed,
            self.settings.target_fps,
            self.settings.width,
            self.settings.height,
            &self.args,
        );
        let theirs = (
            info.cart.as_str(),
            info.seed,
            info.target_fps,
            info.width,
            info.height,
            &info.args,
        );
        let same_run = (ours.1, ours.2, ours.3, ours.4, ours.5)
            == (theirs.1, theirs.2, theirs.3, theirs.4, theirs.5);
        if !ours.0.eq_ignore_ascii_case(theirs.0) || !same_run {
            let describe = |(name, seed, fps, w, h, args): (&str, u64, f64, u32, u32, &Vec<_>)| {
                format!("{name} (seed {seed}, {fps} updates a second, {w}x{h}, arguments {args:?})")
            };
            return Err(StateFileError::OtherRun {
                found: describe(theirs),
                running: describe(ours),
            });
        }
        let updates = file.replay.ticks();
        // The run boots as the file's did; the player's preference now stays what it is.
        let input = self.console.input_mut();
        let latest = input.reduced_motion_latest();
        input.boot_reduced_motion(info.reduced_motion);
        input.set_reduced_motion(latest);
        self.tape.player = Some(Player::new(Arc::new(file.replay.clone())));
        // The timeline from boot is now the file's: no snapshot kept is on it.
        self.ring.clear();
        self.render_at_tick(updates, Origin::Start, |_, _| {})
            .map_err(|e| StateFileError::File {
                path: path.to_path_buf(),
                message: e.to_string(),
            })
    }
}
