//! Save data kept: the file a cart's [`bt::SaveData`] is kept in, where it lives on disk, and
//! the store that says when `bt run` (or a web page, which keeps the same file in the
//! browser's storage) writes it back. Without the `files` feature there is no disk: the
//! format ([`encode`], [`decode`]) and the [`SaveStore`] remain.
//!
//! A save file is small and checked: `bt-save` and a version byte, the length of the data
//! (little-endian `u32`, at most [`SaveData::CAPACITY`]), the data without its trailing zeros,
//! and an FNV-1a checksum of it (little-endian `u32`). A file cut short, grown, or changed by
//! anything but BT is refused by name, never half-read and never overwritten.
//!
//! ```
//! use bt_engine::save;
//! use std::path::Path;
//!
//! let file = save::encode(&[7, 0, 0, 0]);
//! assert_eq!(file.len(), 16 + 1, "trailing zeros are left out");
//! assert_eq!(save::decode(&file, Path::new("s.bin"))?, [7]);
//! let mut broken = file.clone();
//! broken[12] = 8;
//! assert_eq!(
//!     save::decode(&broken, Path::new("s.bin")).unwrap_err().to_string(),
//!     "save file s.bin: corrupted: the checksum does not match the data"
//! );
//! # Ok::<(), save::SaveFileError>(())
//! ```
//!
//! Which runs see which save data: `bt run` loads the cart's own file ([`default_path`], or
//! `--save FILE`) and writes it back when the cart changes it; every other command starts from
//! empty save data, or from `--save FILE` read only, and a replay carries the save data its run
//! started with. Nothing but `bt run` writes a save file (and a page, its player's own run, in
//! the browser).

use std::path::{Path, PathBuf};

use bt::host::Console;
use bt::SaveData;
use thiserror::Error;

use crate::config::read::{read_file, ReadError};
use crate::export::safe_write::{Format, Output};
use crate::quote::path as shown;
use crate::Engine;

/// What every save file starts with: its format's name and the version of its layout.
pub const MAGIC: &[u8; 8] = b"bt-save\x01";

/// The bytes around the data: the magic, the length and the checksum.
const FRAME_BYTES: usize = 16;

/// The largest save file there can be: the frame around a full block.
pub const MAX_SAVE_FILE: u64 = (FRAME_BYTES + SaveData::CAPACITY) as u64;

/// The fewest updates between two writes of the save file in `bt run` is this many seconds'
/// worth: a cart that changes its save data every update (a play-time counter) costs one small
/// file write a second, not sixty.
pub const WRITE_EVERY_SECONDS: f64 = 1.0;

/// Why a save file was not read or written. Each names the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SaveFileError {
    /// The file could not be read: missing (where one must exist), not a regular file, no
    /// permission.
    #[error("save file {}: could not read it: {reason}", shown(.path))]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// Larger than any save file: not one BT wrote.
    #[error(
        "save file {}: {}a save file holds at most {MAX_SAVE_FILE} bytes ({} of data)",
        shown(.path),
        .bytes.map_or(String::new(), |b| format!("{b} bytes is too large; ")),
        SaveData::CAPACITY
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, when known.
        bytes: Option<u64>,
    },
    /// Not a BT save file at all.
    #[error("save file {}: not a BT save file (it does not start with \"bt-save\")", shown(.path))]
    NotASave {
        /// The file.
        path: PathBuf,
    },
    /// A save file of a layout this build does not read.
    #[error("save file {}: layout version {found}; this bt reads version {}", shown(.path), MAGIC[7])]
    Version {
        /// The file.
        path: PathBuf,
        /// The version byte in the file.
        found: u8,
    },
    /// A BT save file whose contents are damaged.
    #[error("save file {}: corrupted: {detail}", shown(.path))]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The file or its folder could not be written.
    #[error("save file {}: {reason}", shown(.path))]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// No folder to keep save data in: neither `XDG_DATA_HOME` nor `HOME` is an absolute path.
    #[error("no folder for save data: set XDG_DATA_HOME or HOME, or give --save FILE")]
    NoDataDir,
    /// Another `bt run` holds the file's lock ([`SaveLock`]): it is the one that writes it.
    #[error(
        "save file {}: in use by another bt run{}",
        shown(.path),
        .holder.map_or(String::new(), |pid| format!(" (process {pid})"))
    )]
    InUse {
        /// The save file.
        path: PathBuf,
        /// The process that holds it, as its lock file says.
        holder: Option<u32>,
    },
}

/// FNV-1a, 32 bits: enough to tell a damaged file from a good one, and no dependency.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h: u32, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The file for save data `bytes` (at most [`SaveData::CAPACITY`] of them; more are cut),
/// its trailing zeros left out.
pub fn encode(bytes: &[u8]) -> Vec<u8> {
    let bytes = &bytes[..bytes.len().min(SaveData::CAPACITY)];
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let data = &bytes[..end];
    let mut file = Vec::with_capacity(FRAME_BYTES + data.len());
    file.extend_from_slice(MAGIC);
    // At most CAPACITY: fits a u32.
    file.extend_from_slice(&(data.len() as u32).to_le_bytes());
    file.extend_from_slice(data);
    file.extend_from_slice(&checksum(data).to_le_bytes());
    file
}

/// The save data in the file `file`; `path` only names it in errors.
///
/// # Errors
/// [`SaveFileError::NotASave`], [`SaveFileError::Version`], [`SaveFileError::TooLarge`] and
/// [`SaveFileError::Corrupt`] (cut short, longer than its header says, a length past the
/// limit, a checksum that does not match).
pub fn decode(file: &[u8], path: &Path) -> Result<Vec<u8>, SaveFileError> {
    let corrupt = |detail: String| SaveFileError::Corrupt {
        path: path.to_path_buf(),
        detail,
    };
    if file.len() as u64 > MAX_SAVE_FILE {
        return Err(SaveFileError::TooLarge {
            path: path.to_path_buf(),
            bytes: Some(file.len() as u64),
        });
    }
    if file.len() < 7 || file[..7] != MAGIC[..7] {
        return Err(SaveFileError::NotASave {
            path: path.to_path_buf(),
        });
    }
    match file.get(7) {
        Some(&v) if v == MAGIC[7] => {}
        Some(&found) => {
            return Err(SaveFileError::Version {
                path: path.to_path_buf(),
                found,
            })
        }
        None => return Err(corrupt("the file ends after its first 7 bytes".into())),
    }
    let Some(len) = file.get(8..12) else {
        return Err(corrupt(format!(
            "the file ends at byte {}, inside its header",
            file.len()
        )));
    };
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    if len > SaveData::CAPACITY {
        return Err(corrupt(format!(
            "it says it holds {len} bytes; save data is at most {}",
            SaveData::CAPACITY
        )));
    }
    let want = FRAME_BYTES + len;
    if file.len() != want {
        return Err(corrupt(format!(
            "the file is {} bytes; its header says {want}",
            file.len()
        )));
    }
    let data = &file[12..12 + len];
    let sum = &file[12 + len..];
    if u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]) != checksum(data) {
        return Err(corrupt("the checksum does not match the data".into()));
    }
    Ok(data.to_vec())
}

/// Reads the save file at `path`. `Ok(None)` when nothing is there.
///
/// # Errors
/// [`SaveFileError::Read`] (not a regular file, no permission, over [`MAX_SAVE_FILE`]), and
/// those of [`decode`].
pub fn load(path: &Path) -> Result<Option<Vec<u8>>, SaveFileError> {
    match read_file(path, MAX_SAVE_FILE) {
        Ok(file) => decode(&file, path).map(Some),
        Err(ReadError::NotFound) => Ok(None),
        Err(other) => Err(SaveFileError::Read {
            path: path.to_path_buf(),
            reason: other.to_string(),
        }),
    }
}

/// Reads the save file at `path`, which must exist: what `--save FILE` names.
///
/// # Errors
/// As [`load`], and [`SaveFileError::Read`] when nothing is there.
pub fn load_existing(path: &Path) -> Result<Vec<u8>, SaveFileError> {
    load(path)?.ok_or_else(|| SaveFileError::Read {
        path: path.to_path_buf(),
        reason: "file not found".to_string(),
    })
}

/// Writes save data `bytes` to `path` through [`crate::export::safe_write`]: into a temporary
/// file beside it, then renamed over it, so a reader (or a crash) never sees half a file.
/// The folder is made first when missing.
///
/// # Errors
/// [`SaveFileError::Write`] naming the file; what was there is left as it was.
pub fn store(path: &Path, bytes: &[u8]) -> Result<(), SaveFileError> {
    store_file(path, &encode(bytes))
}

/// Writes `file`, a save file already made by [`encode`], to `path`, as [`store`] does.
///
/// # Errors
/// As [`store`].
pub fn store_file(path: &Path, file: &[u8]) -> Result<(), SaveFileError> {
    with_output(path, |out| out.write(file))
}

/// Makes `path`'s folder when it is missing and runs `act` on the output there, each failure
/// a [`SaveFileError::Write`] naming the file.
fn with_output(
    path: &Path,
    act: impl FnOnce(Output) -> Result<(), crate::export::safe_write::OutputError>,
) -> Result<(), SaveFileError> {
    let fail = |reason: String| SaveFileError::Write {
        path: path.to_path_buf(),
        reason,
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| fail(format!("cannot create {}: {e}", shown(folder))))?;
    }
    Output::new(path, Format::Any)
        .and_then(act)
        .map_err(|e| fail(e.to_string()))
}

/// Checks, writing nothing, that [`store_file`] could write `path`: its folder exists (or can
/// be made) and takes a new file, and `path` is not a folder or a link that leads nowhere.
///
/// # Errors
/// [`SaveFileError::Write`] naming the file and why.
pub fn check_writable(path: &Path) -> Result<(), SaveFileError> {
    with_output(path, |out| out.check_folder_takes_files())
}

/// The right to write a save file, held by one `bt run` at a time: two windows of one cart
/// would otherwise each write their own save data, and the one closed last would silently
/// replace what the other saved.
///
/// It is an advisory lock on `<file>.lock`, beside the save file, which holds the holder's
/// process id for the message the next run shows. The system lets go of the lock when the
/// process ends, however it ends (a crash, a kill), so a lock left by a process that is gone
/// is taken over with no one to clean it up; the file itself is removed when the lock is
/// dropped.
#[derive(Debug)]
pub struct SaveLock {
    path: PathBuf,
    /// Open and locked for as long as the lock is held.
    file: std::fs::File,
}

impl SaveLock {
    /// Takes the lock of the save file `save_file`, making its folder when missing.
    ///
    /// # Errors
    /// [`SaveFileError::InUse`] when another process holds it, naming that process when its
    /// lock file says; [`SaveFileError::Write`] when the lock file cannot be made or locked.
    pub fn take(save_file: &Path) -> Result<SaveLock, SaveFileError> {
        use std::io::{Read, Seek, Write};
        let mut name = save_file.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let fail = |reason: String| SaveFileError::Write {
            path: path.clone(),
            reason,
        };
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| fail(format!("cannot create {}: {e}", shown(folder))))?;
        }
        // A holder that lets go removes the file; one that opened it just before may lock
        // the removed file. Locking again whenever the file on disk is not the one locked
        // closes that gap.
        for _ in 0..8 {
            // BT's own lock file, made here and locked; its first bytes name the holder. A
            // link, a FIFO, a device or a file with other names is never opened as one: in a
            // folder other accounts can write, any of them could be planted to have the
            // process id written over someone's file.
            let mut file = open_lock_file(&path).map_err(fail)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    // The holder's process id, a line: no more is read, whatever is there.
                    let mut text = String::new();
                    let _ = (&mut file).take(32).read_to_string(&mut text);
                    return Err(SaveFileError::InUse {
                        path: save_file.to_path_buf(),
                        holder: text.trim().parse().ok(),
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(fail(format!("cannot lock it: {e}")))
                }
            }
            if !same_file(&file, &path) {
                continue;
            }
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .map_err(|e| fail(e.to_string()))?;
            return Ok(SaveLock { path, file });
        }
        Err(fail("another process keeps replacing it".into()))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for SaveLock {
    fn drop(&mut self) {
        // Removed while still locked, so no other process takes a lock on a file about to go.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Opens (making it when missing) the lock file at `path`, refusing anything but a plain file
/// of BT's: a symbolic link is not followed and a FIFO or a device is not waited on (both on
/// unix), and a file with a second name (a hard link to someone's file) is not written.
fn open_lock_file(path: &Path) -> Result<std::fs::File, String> {
    // BT's own lock file, outside the file gate: made, locked, and read for at most a line.
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return "it is a symbolic link; a lock file never is, so it is left alone (remove \
                    it if it is yours)"
                .to_string();
        }
        e.to_string()
    })?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(
            "not a regular file (a FIFO, a device or a socket), so it is left alone".into(),
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(format!(
                "the file has {} names (a hard link); a lock file has one, so it is left alone",
                meta.nlink()
            ));
        }
    }
    Ok(file)
}

/// Whether `file` is still the file at `path`.
#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `file` is still the file at `path`: elsewhere an open file cannot be removed.
#[cfg(not(unix))]
fn same_file(_file: &std::fs::File, path: &Path) -> bool {
    path.exists()
}

/// The folder save data lives under: `$XDG_DATA_HOME/bt` when that is set and absolute, else
/// `$HOME/.local/share/bt` when `HOME` is (`%APPDATA%\bt` on Windows). `None` when neither
/// is usable; a relative `XDG_DATA_HOME` is ignored, as the XDG Base Directory specification
/// says.
pub fn data_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    if cfg!(windows) {
        return var("APPDATA")
            .filter(|p| p.is_absolute())
            .map(|d| d.join("bt"));
    }
    data_dir_from(var("XDG_DATA_HOME"), var("HOME"))
}

fn data_dir_from(data_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    data_home
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home.filter(|p| p.is_absolute())
                .map(|h| h.join(".local").join("share"))
        })
        .map(|dir| dir.join("bt"))
}

/// The save file of the cart `cart` (its name as `bt list` gives it, lower-cased):
/// `<data_dir>/<cart>/save.bin`.
///
/// # Errors
/// [`SaveFileError::NoDataDir`] when [`data_dir`] is `None`.
pub fn default_path(cart: &str) -> Result<PathBuf, SaveFileError> {
    let dir = data_dir().ok_or(SaveFileError::NoDataDir)?;
    Ok(cart_file(&dir, cart))
}

/// `<dir>/<cart>/save.bin`, the name made safe as one folder name: letters, digits, `-` and
/// `_` kept (lower-cased), anything else `_`.
fn cart_file(dir: &Path, cart: &str) -> PathBuf {
    let folder: String = cart
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '_' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    let folder = if folder.is_empty() {
        "_".into()
    } else {
        folder
    };
    dir.join(folder).join("save.bin")
}

/// The save data an engine boots with, when a command runs without the user's own: the file
/// `--save` names, or `None` for empty save data.
///
/// # Errors
/// As [`load_existing`].
pub fn boot_save(save: Option<&Path>) -> Result<Option<Vec<u8>>, SaveFileError> {
    save.map(load_existing).transpose()
}

/// The cart's save file while `bt run` plays: it says when to write the save data back (the
/// cart changed it, at most once every [`WRITE_EVERY_SECONDS`] of updates, and when the run
/// ends: [`SaveStore::flush`]) and hands over the file to write. It writes nothing itself: the
/// host (`bt_host::Host`) passes the file on to its platform, which writes it.
///
/// Checking costs nothing per frame: the console says whether the cart touched its save data,
/// and only then are the bytes compared with those last handed over; only a real change
/// allocates (the file's bytes). A seek that replays the run from the start puts the save data
/// back to what it booted with, so from then on nothing more is written: the replayed run must
/// not overwrite what the live one saved.
#[derive(Debug)]
pub struct SaveStore {
    path: PathBuf,
    /// What the file holds now, as far as the store knows: the last block handed over.
    written: Box<[u8; SaveData::CAPACITY]>,
    /// The cart touched its save data since the last hand-over.
    pending: bool,
    /// The last hand-over was not written ([`SaveStore::write_failed`]): the next one goes
    /// out whatever the data is.
    unwritten: bool,
    /// Updates since init at the last hand-over (or boot).
    written_at: u64,
    /// Updates since init at the last look.
    seen: u64,
    /// The engine's replays from the start when the store began: one more means the save
    /// data went back to what it booted with.
    restarts: u64,
    every: u64,
}

/// What [`SaveStore::after_frame`] and [`SaveStore::flush`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreEvent {
    /// Nothing to write, nothing to say.
    Quiet,
    /// The save data changed: this save file ([`encode`]d) is to be written to
    /// [`SaveStore::path`].
    Write(Vec<u8>),
}

impl SaveStore {
    /// The store for `path`, holding what `engine` booted with (which it read from `path`).
    pub fn new(path: PathBuf, engine: &Engine) -> SaveStore {
        let mut written = Box::new([0; SaveData::CAPACITY]);
        written.copy_from_slice(engine.console().boot_save().bytes());
        let fps = engine.settings().target_fps;
        SaveStore {
            path,
            written,
            pending: false,
            unwritten: false,
            written_at: engine.updates_since_init(),
            seen: engine.updates_since_init(),
            restarts: engine.restarts(),
            every: (fps * WRITE_EVERY_SECONDS).ceil().max(1.0) as u64,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Looks at the engine after a frame: the save file to write, if the cart changed its save
    /// data and the last write is long enough ago.
    pub fn after_frame(&mut self, engine: &mut Engine) -> StoreEvent {
        if let Some(event) = self.look(engine) {
            return event;
        }
        if !self.pending || self.seen.saturating_sub(self.written_at) < self.every {
            return StoreEvent::Quiet;
        }
        self.hand_over(engine.console())
    }

    /// The save file to write now, if the cart changed its save data since the last write (or
    /// that write failed): when the run ends.
    pub fn flush(&mut self, engine: &mut Engine) -> StoreEvent {
        if let Some(event) = self.look(engine) {
            return event;
        }
        if !self.pending && !self.unwritten {
            return StoreEvent::Quiet;
        }
        self.hand_over(engine.console())
    }

    /// The run started again from boot with the save data it had ([`Engine::restart_keeping_save`],
    /// a player's Restart), or went back (a seek, a rewind, a loaded state): writing goes on
    /// from where play goes on, counted from there. The save data is the game's as it was at
    /// that point: when it differs from what was last written (the abandoned future saved
    /// something), it is written once due, so the file follows the run the player plays on
    /// and nothing of the abandoned future is written after the jump.
    pub fn restarted(&mut self, engine: &Engine) {
        self.restarts = engine.restarts();
        self.written_at = engine.updates_since_init();
        self.seen = self.written_at;
        self.pending |= engine.console().save().bytes() != &*self.written;
    }

    /// The last file handed over could not be written: the next look hands one over again
    /// once the cart touches its save data, and [`SaveStore::flush`] does at once.
    pub fn write_failed(&mut self) {
        self.unwritten = true;
    }

    /// Notes what the engine did since the last look. `Some` when there is nothing more to do.
    fn look(&mut self, engine: &mut Engine) -> Option<StoreEvent> {
        if engine.restarts() != self.restarts {
            // What the cart touched before the jump belongs to the abandoned future.
            let _ = engine.console_mut().take_save_touched();
            self.restarted(engine);
            return None;
        }
        self.seen = engine.updates_since_init();
        self.pending |= engine.console_mut().take_save_touched();
        None
    }

    fn hand_over(&mut self, console: &Console) -> StoreEvent {
        self.pending = false;
        let now = console.save().bytes();
        if now == &*self.written && !self.unwritten {
            return StoreEvent::Quiet;
        }
        self.unwritten = false;
        self.written.copy_from_slice(now);
        self.written_at = self.seen;
        StoreEvent::Write(encode(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_folder_follows_xdg_then_home() {
        let abs = |p: &str| Some(PathBuf::from(p));
        assert_eq!(
            data_dir_from(abs("/x/data"), abs("/home/u")),
            abs("/x/data/bt")
        );
        assert_eq!(
            data_dir_from(abs("relative"), abs("/home/u")),
            abs("/home/u/.local/share/bt")
        );
        assert_eq!(data_dir_from(None, abs("here")), None);
    }

    #[test]
    fn a_cart_name_is_one_safe_folder() {
        let dir = Path::new("/d");
        assert_eq!(
            cart_file(dir, "Platformer"),
            Path::new("/d/platformer/save.bin")
        );
        assert_eq!(cart_file(dir, "../x"), Path::new("/d/___x/save.bin"));
        assert_eq!(cart_file(dir, ""), Path::new("/d/_/save.bin"));
    }

    #[test]
    fn a_save_file_is_locked_by_one_run_at_a_time() {
        let dir = std::env::temp_dir().join(format!("bt-save-lock-{}", std::process::id()));
        let file = dir.join("cart/save.bin");
        let first = SaveLock::take(&file).unwrap();
        assert_eq!(
            std::fs::read_to_string(first.path()).unwrap(),
            format!("{}\n", std::process::id())
        );
        let busy = SaveLock::take(&file).unwrap_err();
        assert!(
            matches!(&busy, SaveFileError::InUse { holder: Some(pid), .. } if *pid == std::process::id()),
            "{busy}"
        );
        assert_eq!(
            busy.to_string(),
            format!(
                "save file {}: in use by another bt run (process {})",
                file.display(),
                std::process::id()
            )
        );
        drop(first);
        assert!(!dir.join("cart/save.bin.lock").exists());
        // A lock file its process left behind (it ended without a word) holds nothing.
        std::fs::write(dir.join("cart/save.bin.lock"), "4000000000\n").unwrap();
        let again = SaveLock::take(&file).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// In a folder another account can write (a shared `/tmp`-like folder `--save` points
    /// into), a lock file planted as a link, a hard link or a FIFO must not make the run write
    /// its process id over someone's file, or wait for ever.
    #[cfg(unix)]
    #[test]
    fn a_planted_lock_file_is_refused_and_what_it_leads_to_is_left_alone() {
        let dir = std::env::temp_dir().join(format!("bt-save-lock-planted-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let notes = dir.join("notes.txt");
        std::fs::write(&notes, "my notes\n").unwrap();
        let file = dir.join("game.bin");
        let lock = dir.join("game.bin.lock");

        std::os::unix::fs::symlink(&notes, &lock).unwrap();
        let e = SaveLock::take(&file).unwrap_err().to_string();
        assert!(e.contains("symbolic link"), "{e}");
        assert!(
            e.contains("game.bin.lock"),
            "the message names the lock file: {e}"
        );
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
        assert!(std::fs::symlink_metadata(&lock)
            .unwrap()
            .file_type()
            .is_symlink());

        std::fs::remove_file(&lock).unwrap();
        std::fs::hard_link(&notes, &lock).unwrap();
        let e = SaveLock::take(&file).unwrap_err().to_string();
        assert!(e.contains("hard link"), "{e}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");

        std::fs::remove_file(&lock).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&lock).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", lock.display());
        let e = SaveLock::take(&file).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");

        std::fs::remove_file(&lock).unwrap();
        drop(SaveLock::take(&file).expect("a plain lock file is taken again"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_damage_to_a_save_file_is_named() {
        let path = Path::new("best.bin");
        let good = encode(&[1, 2, 3]);
        assert_eq!(decode(&good, path).unwrap(), [1, 2, 3]);
        let message = |bytes: &[u8]| decode(bytes, path).unwrap_err().to_string();
        assert_eq!(
            message(b"PNG...."),
            "save file best.bin: not a BT save file (it does not start with \"bt-save\")"
        );
        assert_eq!(
            message(b"bt-save\x07"),
            "save file best.bin: layout version 7; this bt reads version 1"
        );
        assert_eq!(
            message(&good[..good.len() - 1]),
            "save file best.bin: corrupted: the file is 18 bytes; its header says 19"
        );
        assert_eq!(
            message(&good[..10]),
            "save file best.bin: corrupted: the file ends at byte 10, inside its header"
        );
        let mut long = good.clone();
        long[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert_eq!(
            message(&long),
            "save file best.bin: corrupted: it says it holds 5000 bytes; save data is at most 4096"
        );
        assert_eq!(
            message(&vec![0; MAX_SAVE_FILE as usize + 1]),
            "save file best.bin: 4113 bytes is too large; a save file holds at most 4112 bytes \
             (4096 of data)"
        );
    }

    #[test]
    fn a_full_block_round_trips() {
        let block: Vec<u8> = (0..SaveData::CAPACITY)
            .map(|i| (i % 251) as u8 + 1)
            .collect();
        let file = encode(&block);
        assert_eq!(file.len() as u64, MAX_SAVE_FILE);
        assert_eq!(decode(&file, Path::new("x")).unwrap(), block);
        assert_eq!(decode(&encode(&[0; 9]), Path::new("x")).unwrap(), b"");
    }
}
