//! The replay file: what a replay holds, and its versioned JSON layout (`bt-replay` 1, 2 for a
//! run that booted with save data, 3 for a run that recorded touches).

use std::path::{Path, PathBuf};

use bt::host::{TickButtons, TickInput};
use bt::limits::{AXES, PLAYERS, TOUCH_SLOTS};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::recorder::has_touch;
use super::{Recorder, FORMAT, MAX_REPLAY_BYTES, OLDEST_VERSION, VERSION};

/// What a replay says about the run it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayInfo {
    /// The cart's name, as `bt list` gives it.
    pub cart: String,
    /// The cart's version (from its manifest), when it has one.
    pub cart_version: Option<String>,
    /// The random seed.
    pub seed: u64,
    /// Fixed updates per second.
    pub target_fps: f64,
    /// The display's size in pixels.
    pub width: u32,
    /// The display's height in pixels.
    pub height: u32,
    /// Cart arguments, `(name, value)`.
    pub args: Vec<(String, String)>,
    /// Updates between two frame hashes.
    pub hash_every: u64,
    /// Whether the player preferred reduced motion as the run booted (what the cart's `init`
    /// saw); each update's own is in its input.
    pub reduced_motion: bool,
}

/// A whole replay: where it came from, the input of every update, the frame hashes, and
/// whether the run ended in a panic of the cart.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The header.
    pub info: ReplayInfo,
    recording: Recorder,
    /// `(updates since init, frame_hash)`, in order.
    hashes: Vec<(u64, u64)>,
    panic: Option<RecordedPanic>,
    /// For a generated replay ([`crate::replay::script_replay`]): the seed of the
    /// script its ticks come from, made as they are played. `recording` then holds no runs,
    /// only the length.
    script: Option<u64>,
    /// The save data the run booted with, without trailing zeros (empty: none).
    boot_save: Vec<u8>,
}

/// How a recorded run ended when the cart panicked. The replay then holds the input of the
/// update that panicked as its last tick, so playing it to its end reproduces the panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedPanic {
    /// Updates since `init` when the cart panicked, the update that panicked counted.
    pub updates: u64,
    /// The call that panicked, as [`CartCall`](crate::engine::CartCall) names it (`update`).
    pub call: String,
    /// The cart's tick counter the call saw.
    pub tick: u64,
    /// The panic's message and where in the source it happened.
    pub message: String,
}

impl RecordedPanic {
    /// The panic of `engine`'s cart, if it panicked.
    pub fn of(panic: &crate::engine::CartPanic, updates: u64) -> RecordedPanic {
        RecordedPanic {
            updates,
            call: panic.call.to_string(),
            tick: panic.tick,
            message: panic.message.clone(),
        }
    }

    /// Whether `panic`, after `updates` updates, is this one: the same call, tick, update
    /// and message.
    pub fn matches(&self, panic: &crate::engine::CartPanic, updates: u64) -> bool {
        *self == RecordedPanic::of(panic, updates)
    }
}

impl std::fmt::Display for RecordedPanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cart panicked in {} at tick {} (update {}): {}",
            crate::quote::excerpt(&self.call),
            self.tick,
            self.updates,
            crate::quote::excerpt_chars(&self.message, MAX_PANIC_MESSAGE_CHARS)
        )
    }
}

/// The most characters of a recorded panic's message a message quotes (as many as the engine
/// keeps).
const MAX_PANIC_MESSAGE_CHARS: usize = 300;

/// A frame hash that did not match the replay's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// Updates since `init` when the frame was hashed.
    pub tick: u64,
    /// The hash in the file.
    pub expected: u64,
    /// The hash of this run's frame.
    pub actual: u64,
}

/// Why a replay file could not be read or does not fit the cart. Each names the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The file could not be read: missing, not a regular file, refused by the system.
    #[error("replay {}: could not read it: {reason}", crate::quote::path(.path))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Larger than [`MAX_REPLAY_BYTES`].
    #[error(
        "replay {}: could not read it: {}over the limit of {MAX_REPLAY_BYTES} bytes",
        crate::quote::path(.path),
        bytes.map_or(String::new(), |b| format!("{b} bytes is "))
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, when the file system gave one (a file that grew while it was read has
        /// none).
        bytes: Option<u64>,
    },
    /// The file ends in the middle.
    #[error("{path}: truncated replay (the file ends at line {line}, column {column})")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Where it ends.
        line: usize,
        /// Where it ends.
        column: usize,
    },
    /// Not a BT replay at all.
    #[error("{path}: not a BT replay (no \"format\": \"{FORMAT}\")")]
    NotAReplay {
        /// The file.
        path: PathBuf,
    },
    /// A replay of a layout this build does not read.
    #[error(
        "{path}: replay format version {found}; this bt reads versions {OLDEST_VERSION} to {VERSION}"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u64,
    },
    /// A replay whose content is damaged.
    #[error("{path}: corrupted replay: {detail}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        detail: String,
    },
    /// A replay of another cart.
    #[error("{path}: a replay of the cart '{recorded}', not '{running}'")]
    OtherCart {
        /// The file.
        path: PathBuf,
        /// The cart it recorded.
        recorded: String,
        /// The cart asked to play it.
        running: String,
    },
    /// A replay at another update rate.
    #[error("{path}: recorded at {recorded} updates a second; the cart runs at {running}")]
    OtherFps {
        /// The file.
        path: PathBuf,
        /// The rate it recorded.
        recorded: f64,
        /// The rate of this run.
        running: f64,
    },
}

impl Replay {
    /// A replay of `recording`, with the frame hashes the engine took along the way.
    pub fn new(info: ReplayInfo, recording: Recorder, hashes: Vec<(u64, u64)>) -> Replay {
        Replay {
            info,
            recording,
            hashes,
            panic: None,
            script: None,
            boot_save: Vec::new(),
        }
    }

    /// The same replay, saying the run booted with save data `bytes` (trailing zeros are
    /// dropped; more than [`bt::SaveData::CAPACITY`] bytes are cut to it).
    pub fn with_boot_save(mut self, bytes: Vec<u8>) -> Replay {
        let mut bytes = bytes;
        bytes.truncate(bt::SaveData::CAPACITY);
        let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        bytes.truncate(end);
        self.boot_save = bytes;
        self
    }

    /// The same run cut after update `updates`: its input and frame hashes through there (a
    /// netplay peer keeps only what every player's input is known for). A replay no longer
    /// than that is kept whole.
    pub fn through(&self, updates: u64) -> Replay {
        let mut replay = self.clone();
        if updates < replay.ticks() {
            replay.recording.truncate(updates);
            replay.hashes.retain(|&(at, _)| at <= updates);
            replay.panic = None;
        }
        replay
    }

    /// The save data the recorded run booted with, without trailing zeros: empty for a run
    /// that booted with none, and for every replay of layout version 1.
    pub fn boot_save(&self) -> &[u8] {
        &self.boot_save
    }

    /// A replay of `ticks` updates of the input script of `seed`
    /// ([`crate::replay::InputScript`]), which stores no input.
    pub(crate) fn scripted(info: ReplayInfo, seed: u64, ticks: u64) -> Replay {
        let mut replay = Replay::new(info, Recorder::new(), Vec::new());
        replay.recording.set_ticks_of_script(ticks);
        replay.script = Some(seed);
        replay
    }

    /// The seed of the input script a generated replay plays, if it is one.
    pub(crate) fn script(&self) -> Option<u64> {
        self.script
    }

    /// The same replay, saying the run ended in `panic`.
    pub fn ended_in_panic(mut self, panic: RecordedPanic) -> Replay {
        self.panic = Some(panic);
        self
    }

    /// The cart's panic that ended the recorded run, if it ended so.
    pub fn panic(&self) -> Option<&RecordedPanic> {
        self.panic.as_ref()
    }

    /// Updates the replay covers.
    pub fn ticks(&self) -> u64 {
        self.recording.ticks()
    }

    /// The recorded input. A generated replay ([`crate::replay::script_replay`])
    /// stores none: its recording has the length and no runs.
    pub fn recording(&self) -> &Recorder {
        &self.recording
    }

    /// The stored frame hashes, `(updates since init, frame_hash)` in order.
    pub fn hashes(&self) -> &[(u64, u64)] {
        &self.hashes
    }

    /// How many stored hashes lie within the first `updates` updates: those a run that far
    /// compared.
    pub fn hashes_up_to(&self, updates: u64) -> usize {
        self.hashes.partition_point(|&(tick, _)| tick <= updates)
    }

    /// The first stored hash that `actual` (the same pairs from another run) contradicts, or
    /// that `actual` lacks although it ran that far (`actual` 0 then).
    pub fn first_mismatch(&self, actual: &[(u64, u64)]) -> Option<Mismatch> {
        let ran_to = actual.last().map_or(0, |a| a.0);
        self.hashes
            .iter()
            .filter(|(tick, _)| *tick <= ran_to)
            .find_map(|&(tick, expected)| {
                let got = actual
                    .binary_search_by_key(&tick, |a| a.0)
                    .ok()
                    .map_or(0, |i| actual[i].1);
                (got != expected).then_some(Mismatch {
                    tick,
                    expected,
                    actual: got,
                })
            })
    }

    /// Checks that the replay fits the cart `cart` running at `target_fps`, whose version is
    /// `cart_version`. Returns a warning to show when the cart's version differs from the
    /// recording's (it plays, but may diverge).
    ///
    /// # Errors
    /// [`ReplayError::OtherCart`] and [`ReplayError::OtherFps`], naming `path`.
    pub fn check(
        &self,
        path: &Path,
        cart: &str,
        cart_version: Option<&str>,
        target_fps: f64,
    ) -> Result<Option<String>, ReplayError> {
        if !self.info.cart.eq_ignore_ascii_case(cart) {
            return Err(ReplayError::OtherCart {
                path: path.to_path_buf(),
                recorded: self.info.cart.clone(),
                running: cart.to_string(),
            });
        }
        if self.info.target_fps != target_fps {
            return Err(ReplayError::OtherFps {
                path: path.to_path_buf(),
                recorded: self.info.target_fps,
                running: target_fps,
            });
        }
        let recorded = self.info.cart_version.as_deref();
        Ok((recorded != cart_version).then(|| {
            format!(
                "{}: recorded with {cart} version {}, this is version {}; it may play differently",
                crate::quote::path(path),
                recorded.unwrap_or("(none)"),
                cart_version.unwrap_or("(none)")
            )
        }))
    }

    /// The replay as the text of a file.
    pub fn to_json(&self) -> String {
        if let Some(seed) = self.script {
            let mut stored = self.clone();
            stored.recording = super::input_script(seed, self.recording.ticks());
            stored.script = None;
            return stored.to_json();
        }
        let file = FileV1::from(self);
        // Plain data with string keys: serialising it cannot fail.
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// Reads a replay from the text of a file; `path` only names it in errors.
    ///
    /// # Errors
    /// [`ReplayError::Truncated`], [`ReplayError::NotAReplay`], [`ReplayError::Version`],
    /// [`ReplayError::Corrupt`].
    pub fn from_json(text: &str, path: &Path) -> Result<Replay, ReplayError> {
        let path_buf = || path.to_path_buf();
        let syntax = |e: serde_json::Error| {
            if e.is_eof() {
                ReplayError::Truncated {
                    path: path_buf(),
                    line: e.line(),
                    column: e.column(),
                }
            } else if !text.trim_start().starts_with('{') {
                ReplayError::NotAReplay { path: path_buf() }
            } else {
                ReplayError::Corrupt {
                    path: path_buf(),
                    detail: e.to_string(),
                }
            }
        };
        let probe: Probe = serde_json::from_str(text).map_err(syntax)?;
        if probe.format.as_deref() != Some(FORMAT) {
            return Err(ReplayError::NotAReplay { path: path_buf() });
        }
        match probe.version {
            Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => {}
            Some(found) => {
                return Err(ReplayError::Version {
                    path: path_buf(),
                    found,
                })
            }
            None => {
                return Err(ReplayError::Corrupt {
                    path: path_buf(),
                    detail: "no \"version\" field".to_string(),
                })
            }
        }
        let file: FileV1 = serde_json::from_str(text).map_err(syntax)?;
        file.into_replay().map_err(|detail| ReplayError::Corrupt {
            path: path_buf(),
            detail,
        })
    }

    /// Reads a replay file whole (at most [`MAX_REPLAY_BYTES`]) through
    /// [`crate::config::read::read_file`]: a FIFO or a device is refused, never waited on.
    ///
    /// # Errors
    /// [`ReplayError::Read`], [`ReplayError::TooLarge`] and those of [`Replay::from_json`].
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        use crate::config::read::{read_file, ReadError};
        let bytes = read_file(path, MAX_REPLAY_BYTES).map_err(|e| match e {
            ReadError::TooLarge { size, .. } => ReplayError::TooLarge {
                path: path.to_path_buf(),
                bytes: size,
            },
            other => ReplayError::Read {
                path: path.to_path_buf(),
                reason: other.to_string(),
            },
        })?;
        let text = String::from_utf8(bytes).map_err(|_| ReplayError::NotAReplay {
            path: path.to_path_buf(),
        })?;
        Replay::from_json(&text, path)
    }

    /// Writes the replay to `path` through a temporary file and a rename, so a reader never
    /// sees half a file.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        crate::export::safe_write::write_atomically(path, self.to_json().as_bytes()).map_err(|e| {
            ReplayError::Io {
                path: path.to_path_buf(),
                message: e.to_string(),
            }
        })
    }
}

/// Just enough of a file to tell what it is.
#[derive(Deserialize)]
struct Probe {
    format: Option<String>,
    version: Option<u64>,
}

/// Version 1 of the file, as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV1 {
    format: String,
    version: u32,
    cart: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cart_version: Option<String>,
    seed: u64,
    target_fps: f64,
    width: u32,
    height: u32,
    args: Vec<(String, String)>,
    hash_every: u64,
    /// Updates covered: the sum of the runs' counts.
    ticks: u64,
    /// Runs of identical ticks, stored compactly as they are read (see [`RunsV1`]).
    inputs: RunsV1,
    /// `[updates since init, "16 hex digits"]`.
    hashes: Vec<(u64, HexHash)>,
    /// How the run ended, when the cart panicked. Left out otherwise, so a file without a
    /// panic reads in every build of version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    panic: Option<PanicV1>,
    /// Version 2: the save data the run booted with, as hex digits, trailing zeros left out.
    /// A file without it booted with none; version 1 never has it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    save: String,
    /// Version 4: the player preferred reduced motion as the run booted. Left out when not.
    #[serde(default, skip_serializing_if = "is_default")]
    reduced_motion: bool,
}

/// A panic that ended the run.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PanicV1 {
    updates: u64,
    call: String,
    tick: u64,
    message: String,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The most wheel movement in one update a replay may hold, in lines either way: far past what
/// a wheel or touchpad turns between two updates, and small enough that a cart counting lines
/// one by one finishes at once.
const MAX_WHEEL_LINES: f32 = 1000.0;

/// One run of identical ticks; fields at their default are left out.
#[derive(Serialize, Deserialize, Default, PartialEq)]
#[serde(deny_unknown_fields, default)]
struct TickV1 {
    /// How many updates in a row saw this.
    n: u64,
    /// Per player `[down, pressed, released]` button masks.
    #[serde(skip_serializing_if = "is_default")]
    buttons: [[u32; 3]; PLAYERS],
    /// `[down, pressed, released]` key sets, bit `k` for `Key::ALL[k]`.
    #[serde(skip_serializing_if = "is_default")]
    keys: [u128; 3],
    #[serde(skip_serializing_if = "is_default")]
    pointer_pos: (i32, i32),
    #[serde(skip_serializing_if = "is_default")]
    pointer_delta: (i32, i32),
    #[serde(skip_serializing_if = "is_default")]
    pointer_wheel: (f32, f32),
    #[serde(skip_serializing_if = "is_default")]
    pointer_active: bool,
    #[serde(skip_serializing_if = "is_default")]
    axes: [[f32; AXES]; PLAYERS],
    #[serde(skip_serializing_if = "is_default")]
    pads: [bool; PLAYERS],
    #[serde(skip_serializing_if = "is_default")]
    text: String,
    /// The cart's pause-menu item chosen before the update: its slot + 1.
    #[serde(skip_serializing_if = "is_default")]
    menu_item: u8,
    /// Version 3: the touch slots' `[down, pressed, released]` bit sets, bit `s` for slot `s`.
    #[serde(skip_serializing_if = "is_default")]
    touch: [u8; 3],
    /// Version 3: each touch slot's position.
    #[serde(skip_serializing_if = "is_default")]
    touch_pos: [(i32, i32); TOUCH_SLOTS],
    /// Version 3: how far each touch moved since the previous update.
    #[serde(skip_serializing_if = "is_default")]
    touch_delta: [(i32, i32); TOUCH_SLOTS],
    /// Version 4: the player preferred reduced motion in these updates.
    #[serde(skip_serializing_if = "is_default")]
    reduced_motion: bool,
}

impl TickV1 {
    fn from_run(t: &TickInput, count: u64) -> TickV1 {
        TickV1 {
            n: count,
            buttons: t.buttons.map(|b| [b.down, b.pressed, b.released]),
            keys: [t.keys_down, t.keys_pressed, t.keys_released],
            pointer_pos: t.pointer_pos,
            pointer_delta: t.pointer_delta,
            pointer_wheel: t.pointer_wheel,
            pointer_active: t.pointer_active,
            axes: t.axes,
            pads: t.pads,
            text: t.text().to_string(),
            menu_item: t.menu_item,
            touch: [t.touch_down, t.touch_pressed, t.touch_released],
            touch_pos: t.touch_pos,
            touch_delta: t.touch_delta,
            reduced_motion: t.reduced_motion,
        }
    }
}

/// The runs of a file, read one at a time straight into a [`Recorder`]'s compact storage:
/// the file's runs are never all held as parsed values (each over 250 bytes), so reading a
/// replay takes memory in proportion to the file, whatever its runs are. The flag says whether
/// a run held touches (a field of version 3).
struct RunsV1(Recorder, bool);

impl Serialize for RunsV1 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .each_run()
                .map(|(tick, count)| TickV1::from_run(&tick, count)),
        )
    }
}

impl<'de> Deserialize<'de> for RunsV1 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RunsV1, D::Error> {
        struct Runs;
        impl<'de> serde::de::Visitor<'de> for Runs {
            type Value = RunsV1;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of runs")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RunsV1, A::Error> {
                let mut rec = Recorder::new();
                let mut touched = false;
                let mut index = 0;
                while let Some(t) = seq.next_element::<TickV1>()? {
                    let (tick, count) = t.into_run(index).map_err(serde::de::Error::custom)?;
                    if rec.ticks().checked_add(count).is_none() {
                        return Err(serde::de::Error::custom(
                            "the runs add up to more ticks than a u64 holds",
                        ));
                    }
                    touched |= has_touch(&tick);
                    rec.push_run(&tick, count);
                    index += 1;
                }
                Ok(RunsV1(rec, touched))
            }
        }
        d.deserialize_seq(Runs)
    }
}

/// A frame hash as a file writes it: 16 hex digits.
struct HexHash(u64);

impl Serialize for HexHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:016x}", self.0))
    }
}

impl<'de> Deserialize<'de> for HexHash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HexHash, D::Error> {
        struct Hex;
        impl serde::de::Visitor<'_> for Hex {
            type Value = HexHash;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("16 hex digits")
            }
            fn visit_str<E: serde::de::Error>(self, hex: &str) -> Result<HexHash, E> {
                u64::from_str_radix(hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 16)
                    .map(HexHash)
                    .ok_or_else(|| {
                        E::custom(format!(
                            "a hash '{}' that is not 16 hex digits",
                            crate::quote::excerpt(hex)
                        ))
                    })
            }
        }
        d.deserialize_str(Hex)
    }
}

impl TickV1 {
    fn into_run(self, index: usize) -> Result<(TickInput, u64), String> {
        if self.n == 0 {
            return Err(format!("inputs[{index}]: a run of 0 ticks"));
        }
        let floats = self.axes.iter().flatten().copied();
        let wheel = [self.pointer_wheel.0, self.pointer_wheel.1];
        if floats.clone().chain(wheel).any(|v| !v.is_finite()) {
            return Err(format!(
                "inputs[{index}]: a value that is not a finite number"
            ));
        }
        if let Some(v) = wheel.into_iter().find(|v| v.abs() > MAX_WHEEL_LINES) {
            return Err(format!(
                "inputs[{index}]: pointer_wheel {} is past the {MAX_WHEEL_LINES} lines an update \
                 can see",
                crate::quote::number(f64::from(v))
            ));
        }
        if let Some(v) = floats.into_iter().find(|v| v.abs() > 1.0) {
            return Err(format!(
                "inputs[{index}]: an axis reading of {} (readings are from -1 to 1)",
                crate::quote::number(f64::from(v))
            ));
        }
        let mut tick = TickInput::default();
        tick.set_text(&self.text);
        if tick.text() != self.text {
            return Err(format!(
                "inputs[{index}]: typed text longer than an update can see"
            ));
        }
        tick.buttons = self.buttons.map(|[down, pressed, released]| TickButtons {
            down,
            pressed,
            released,
        });
        [tick.keys_down, tick.keys_pressed, tick.keys_released] = self.keys;
        tick.pointer_pos = self.pointer_pos;
        tick.pointer_delta = self.pointer_delta;
        tick.pointer_wheel = self.pointer_wheel;
        tick.pointer_active = self.pointer_active;
        tick.axes = self.axes;
        tick.pads = self.pads;
        if usize::from(self.menu_item) > bt::limits::MENU_ITEMS {
            return Err(format!(
                "inputs[{index}]: menu_item {} is past the {} items a cart can add",
                self.menu_item,
                bt::limits::MENU_ITEMS
            ));
        }
        tick.menu_item = self.menu_item;
        if let Some(bits) = self
            .touch
            .iter()
            .find(|&&b| usize::from(b) >> TOUCH_SLOTS != 0)
        {
            return Err(format!(
                "inputs[{index}]: touch slots {bits:#b}: a cart has {TOUCH_SLOTS} (bits 0 to {})",
                TOUCH_SLOTS - 1
            ));
        }
        [tick.touch_down, tick.touch_pressed, tick.touch_released] = self.touch;
        tick.touch_pos = self.touch_pos;
        tick.touch_delta = self.touch_delta;
        tick.reduced_motion = self.reduced_motion;
        Ok((tick, self.n))
    }
}

impl From<&Replay> for FileV1 {
    fn from(r: &Replay) -> FileV1 {
        let i = &r.info;
        FileV1 {
            format: FORMAT.to_string(),
            // The oldest layout that holds the run, so a run without save data or touches is
            // read by every older build.
            version: if r.info.reduced_motion
                || r.recording.each_run().any(|(t, _)| t.reduced_motion)
            {
                4
            } else if r.recording.each_run().any(|(t, _)| has_touch(&t)) {
                3
            } else if !r.boot_save.is_empty() {
                2
            } else {
                OLDEST_VERSION
            },
            cart: i.cart.clone(),
            cart_version: i.cart_version.clone(),
            seed: i.seed,
            target_fps: i.target_fps,
            width: i.width,
            height: i.height,
            args: i.args.clone(),
            hash_every: i.hash_every,
            ticks: r.recording.ticks(),
            inputs: RunsV1(r.recording.clone(), false),
            hashes: r.hashes.iter().map(|&(t, h)| (t, HexHash(h))).collect(),
            panic: r.panic.as_ref().map(|p| PanicV1 {
                updates: p.updates,
                call: p.call.clone(),
                tick: p.tick,
                message: p.message.clone(),
            }),
            save: r.boot_save.iter().map(|b| format!("{b:02x}")).collect(),
            reduced_motion: i.reduced_motion,
        }
    }
}

/// Save data from its hex digits in a replay file.
fn save_from_hex(hex: &str, version: u32) -> Result<Vec<u8>, String> {
    if version < 2 && !hex.is_empty() {
        return Err("save: a field of version 2, in a file of version 1".to_string());
    }
    if hex.len() > 2 * bt::SaveData::CAPACITY {
        return Err(format!(
            "save: {} bytes of save data; a cart's holds at most {}",
            hex.len() / 2,
            bt::SaveData::CAPACITY
        ));
    }
    let digits = hex.as_bytes();
    if !digits.len().is_multiple_of(2) || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err("save: not an even number of hex digits".to_string());
    }
    Ok(digits
        .chunks(2)
        .map(|pair| {
            let digit = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
            digit(pair[0]) << 4 | digit(pair[1])
        })
        .collect())
}

impl FileV1 {
    fn into_replay(self) -> Result<Replay, String> {
        if !(self.target_fps.is_finite() && self.target_fps > 0.0) {
            return Err(format!("target_fps {} is not a rate", self.target_fps));
        }
        if self.hash_every == 0 {
            return Err("hash_every is 0".to_string());
        }
        let boot_save = save_from_hex(&self.save, self.version)?;
        if self.inputs.1 && self.version < 3 {
            return Err(format!(
                "touches: a field of version 3, in a file of version {}",
                self.version
            ));
        }
        let recording = self.inputs.0;
        let motion = self.reduced_motion || recording.each_run().any(|(t, _)| t.reduced_motion);
        if motion && self.version < 4 {
            return Err(format!(
                "reduced_motion: a field of version 4, in a file of version {}",
                self.version
            ));
        }
        let ticks = recording.ticks();
        if ticks != self.ticks {
            return Err(format!(
                "the runs add up to {ticks} ticks, the header says {}",
                self.ticks
            ));
        }
        let panic = match self.panic {
            Some(p) if p.updates > ticks => {
                return Err(format!(
                    "panic: at update {} of a replay of {ticks} updates",
                    p.updates
                ))
            }
            Some(p) => Some(RecordedPanic {
                updates: p.updates,
                call: p.call,
                tick: p.tick,
                message: p.message,
            }),
            None => None,
        };
        let mut hashes = Vec::with_capacity(self.hashes.len());
        let mut previous = 0;
        for (index, (tick, HexHash(hash))) in self.hashes.into_iter().enumerate() {
            if tick <= previous && index > 0 {
                return Err(format!("hashes[{index}]: tick {tick} is out of order"));
            }
            if tick == 0 || tick > ticks {
                return Err(format!(
                    "hashes[{index}]: tick {tick} is not within the replay's {ticks} updates \
                     (no run of it can reach that hash)"
                ));
            }
            previous = tick;
            hashes.push((tick, hash));
        }
        Ok(Replay {
            info: ReplayInfo {
                cart: self.cart,
                cart_version: self.cart_version,
                seed: self.seed,
                target_fps: self.target_fps,
                width: self.width,
                height: self.height,
                args: self.args,
                hash_every: self.hash_every,
                reduced_motion: self.reduced_motion,
            },
            recording,
            hashes,
            panic,
            script: None,
            boot_save: Vec::new(),
        }
        .with_boot_save(boot_save))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::Button;

    fn sample() -> Replay {
        let mut rec = Recorder::new();
        let mut t = TickInput::default();
        for n in 0..300u32 {
            t.buttons[0].down = if n % 50 < 10 { Button::A.bits() } else { 0 };
            t.set_text(if n == 7 { "hé" } else { "" });
            rec.record(&t);
        }
        let info = ReplayInfo {
            cart: "snake".to_string(),
            cart_version: Some("1.2".to_string()),
            seed: 7,
            target_fps: 60.0,
            width: 128,
            height: 96,
            args: vec![("level".to_string(), "3".to_string())],
            hash_every: 60,
            reduced_motion: false,
        };
        Replay::new(info, rec, vec![(60, 1), (120, u64::MAX), (180, 0xabc)])
    }

    #[test]
    fn a_replay_survives_its_file_unchanged() {
        let r = sample();
        let back = Replay::from_json(&r.to_json(), Path::new("r.btr")).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.recording().iter().count(), 300);
    }

    #[test]
    fn touches_survive_the_file_in_layout_3_and_are_refused_in_older_layouts() {
        let mut rec = Recorder::new();
        let mut t = TickInput::default();
        rec.record(&t);
        t.touch_down = 0b101;
        t.touch_pressed = 0b100;
        t.touch_pos = [(3, 4), (0, 0), (-1, 90)];
        t.touch_delta[0] = (1, -2);
        rec.record(&t);
        let r = Replay::new(sample().info, rec, vec![]);
        let json = r.to_json();
        assert!(
            json.contains("\"version\":3") && json.contains("\"touch\":[5,4,0]"),
            "{json}"
        );
        let back = Replay::from_json(&json, Path::new("r.btr")).unwrap();
        assert_eq!(back, r);
        assert!(
            !sample().to_json().contains("\"version\":3"),
            "no touches: the oldest layout"
        );
        let old = json.replace("\"version\":3", "\"version\":2");
        let e = Replay::from_json(&old, Path::new("r.btr")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.btr: corrupted replay: touches: a field of version 3, in a file of version 2"
        );
        let bad = json.replace("\"touch\":[5,4,0]", "\"touch\":[8,0,0]");
        let e = Replay::from_json(&bad, Path::new("r.btr")).unwrap_err();
        assert!(
            e.to_string().contains("inputs[1]: touch slots 0b1000"),
            "{e}"
        );
    }

    #[test]
    fn the_save_data_a_run_booted_with_survives_the_file_in_layout_2() {
        let r = sample().with_boot_save(vec![0xab, 0, 7, 0, 0]);
        assert_eq!(r.boot_save(), [0xab, 0, 7], "trailing zeros are left out");
        let json = r.to_json();
        assert!(json.contains("\"version\":2") && json.contains("\"save\":\"ab0007\""));
        let back = Replay::from_json(&json, Path::new("r.btr")).unwrap();
        assert_eq!(back, r);
        let plain = sample().to_json();
        assert!(plain.contains("\"version\":1") && !plain.contains("\"save\""));
        let old = Replay::from_json(&plain, Path::new("r.btr")).unwrap();
        assert_eq!(
            old.boot_save(),
            b"",
            "a version 1 replay booted with no save data"
        );
    }

    #[test]
    fn bad_save_data_in_a_replay_is_named() {
        let json = sample().with_boot_save(vec![1]).to_json();
        let p = Path::new("s.btr");
        let message = |text: &str| Replay::from_json(text, p).unwrap_err().to_string();
        assert_eq!(
            message(&json.replace("\"save\":\"01\"", "\"save\":\"0x1\"")),
            "s.btr: corrupted replay: save: not an even number of hex digits"
        );
        assert_eq!(
            message(&json.replace("\"version\":2", "\"version\":1")),
            "s.btr: corrupted replay: save: a field of version 2, in a file of version 1"
        );
        let long = "00".repeat(bt::SaveData::CAPACITY + 1);
        assert_eq!(
            message(&json.replace("\"save\":\"01\"", &format!("\"save\":\"{long}\""))),
            "s.btr: corrupted replay: save: 4097 bytes of save data; a cart's holds at most 4096"
        );
    }

    #[test]
    fn identical_ticks_are_stored_once() {
        let r = sample();
        // 12 stretches of held and not held, one split in three by the typed text: 14, not 300.
        assert_eq!(r.recording().runs(), 14);
    }

    fn cut(s: &str, mut at: usize) -> String {
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        s[..at].to_string()
    }

    #[test]
    fn every_kind_of_bad_file_is_named_in_one_line() {
        let p = Path::new("bad.btr");
        let good = sample().to_json();
        let cases: Vec<(String, &str)> = vec![
            (cut(&good, good.len() / 2), "truncated replay"),
            ("PNG\u{1}garbage".to_string(), "not a BT replay"),
            ("{\"hello\": 1}".to_string(), "not a BT replay"),
            (good.replace("\"version\":1", "\"version\":9"), "version 9"),
            (good.replace("\"ticks\":300", "\"ticks\":301"), "corrupted"),
            (good.replace("\"n\":", "\"m\":"), "corrupted"),
            (good.replace("\"seed\":7", "\"seed\":\"x\""), "corrupted"),
            (
                good.replace("{\"n\":10,", "{\"n\":10,\"pointer_wheel\":[0.0,1e30],"),
                "pointer_wheel 1e30 is past the 1000 lines",
            ),
            (
                good.replace("{\"n\":10,", "{\"n\":10,\"axes\":[[2.0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]],"),
                "an axis reading of 2",
            ),
        ];
        for (text, want) in cases {
            let e = Replay::from_json(&text, p).unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("bad.btr"), "{e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn another_cart_or_rate_is_refused_and_another_version_warned() {
        let r = sample();
        let p = Path::new("r.btr");
        let other = r.check(p, "hello", Some("1.2"), 60.0).unwrap_err();
        assert!(other.to_string().contains("'snake', not 'hello'"));
        let fps = r.check(p, "snake", Some("1.2"), 30.0).unwrap_err();
        assert!(fps.to_string().contains("at 60 updates a second"));
        assert_eq!(r.check(p, "Snake", Some("1.2"), 60.0).unwrap(), None);
        let warn = r.check(p, "snake", Some("1.3"), 60.0).unwrap().unwrap();
        assert!(warn.contains("version 1.2"), "{warn}");
    }

    #[test]
    fn the_first_contradicted_hash_is_reported() {
        let r = sample();
        assert_eq!(r.first_mismatch(&[(60, 1), (120, u64::MAX)]), None);
        let m = r.first_mismatch(&[(60, 1), (120, 5), (180, 0)]).unwrap();
        assert_eq!((m.tick, m.expected, m.actual), (120, u64::MAX, 5));
    }

    #[test]
    fn a_file_beyond_the_limit_is_refused_before_it_is_parsed() {
        let dir = bt_test_support::ScratchDir::new("replay-size");
        let path = dir.join("huge.btr");
        // Sparse: no disk space, but a size past the limit.
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(MAX_REPLAY_BYTES + 1).unwrap();
        let e = Replay::load(&path).unwrap_err();
        assert!(matches!(e, ReplayError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("huge.btr"));
        let missing = Replay::load(&dir.join("none.btr")).unwrap_err();
        assert!(matches!(missing, ReplayError::Read { .. }), "{missing}");
    }
}
