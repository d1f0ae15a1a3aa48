//! Reading a file BT was given: the one function every reader of a user's file goes through.
//!
//! ```
//! use bt_engine::config::read::{read_file, ReadError};
//!
//! let dir = std::env::temp_dir().join(format!("bt-read-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("notes.txt");
//! std::fs::write(&path, "twelve bytes").unwrap();
//! assert_eq!(read_file(&path, 64).unwrap(), b"twelve bytes");
//! assert!(matches!(read_file(&path, 4), Err(ReadError::TooLarge { .. })));
//! assert!(matches!(read_file(&dir, 64), Err(ReadError::NotAFile(_))));
//! assert!(matches!(read_file(&dir.join("none"), 64), Err(ReadError::NotFound)));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{File, Metadata, OpenOptions};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why [`read_file`] read nothing. Names no file: the caller's error does.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Nothing at the path.
    #[error("file not found")]
    NotFound,
    /// Something that is not a regular file (a FIFO, a device, a folder, a socket); the
    /// string says which.
    #[error("{0}, not a regular file")]
    NotAFile(&'static str),
    /// Over the caller's limit. `size` is what the file system said, or `None` when the file
    /// grew past the limit while it was read.
    #[error("{}over the limit of {limit} bytes", size.map_or(String::new(), |s| format!("{s} bytes is ")))]
    TooLarge {
        /// The file's size, when known.
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
    /// The system refused (no permission, an I/O error).
    #[error("{0}")]
    Io(std::io::Error),
}

impl ReadError {
    /// The error as an [`std::io::Error`] carrying this message, for an error type that keeps
    /// one.
    pub fn into_io(self) -> std::io::Error {
        match self {
            ReadError::Io(e) => e,
            ReadError::NotFound => std::io::Error::new(ErrorKind::NotFound, "file not found"),
            other => std::io::Error::new(ErrorKind::InvalidInput, other.to_string()),
        }
    }
}

/// Reads the file at `path` whole, refusing what BT must never read:
///
/// - **anything that is not a regular file**: a FIFO, a character or block device (a link to
///   `/dev/zero` included), a socket, a folder. It is refused without blocking: the path is
///   looked at before it is opened, and then opened non-blocking (on Unix), so a FIFO swapped
///   in between cannot make the open wait for a writer; the opened file is looked at again.
///   A window reloading an asset therefore never waits on a file.
/// - **more than `limit` bytes**: refused from the size the file system gives, before a byte
///   is read, and a file that grows while it is read stops at `limit + 1` bytes.
///
/// Every reader of a file a user or a cart names (`cart.toml`, the user config, palette
/// files, key maps, replays, sprite sheets, sound files, and any reader added later) reads
/// through this or [`open_file`], with its own limit, and names the file in its own error in
/// the one form [`FileError`] shows. A test in this module fails when a file is opened for
/// reading anywhere else in the workspace.
///
/// # Errors
/// [`ReadError::NotFound`], [`ReadError::NotAFile`], [`ReadError::TooLarge`], and
/// [`ReadError::Io`] for anything the system refused.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, len) = open_file(path, limit)?;
    // Room for the size the file system gave, so a large file is read in one go.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    Ok(bytes)
}

/// Opens the file at `path` for a reader that streams it or reads only parts of it, after
/// the checks [`read_file`] makes (a regular file, opened without blocking, at most `limit`
/// bytes when opened); also gives its length. A streaming reader that must not go past
/// `limit` when the file grows reads through [`Read::take`].
///
/// # Errors
/// As [`read_file`].
pub fn open_file(path: &Path, limit: u64) -> Result<(File, u64), ReadError> {
    check_regular(&std::fs::metadata(path).map_err(io_error)?)?;
    let file = open_without_blocking(path).map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    check_regular(&meta)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    Ok((file, meta.len()))
}

/// The longest text file read that has no limit of its own (a crate's `Cargo.toml` or
/// `.gitignore` that `bt attach` and `bt web` read, cargo's messages to `bt dev`, a window's
/// kept place): 16 MiB, far past any such file written by hand or by cargo.
pub const MAX_TEXT_FILE: u64 = 16 << 20;

/// [`read_file`] as UTF-8 text, as [`std::fs::read_to_string`] gives it.
///
/// # Errors
/// As [`read_file`], and [`ReadError::Io`] (of kind `InvalidData`) for text that is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read_file(path, limit)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ReadError::Io(std::io::Error::new(
            ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {at})"),
        ))
    })
}

/// [`read_file`] with its error in the common form: `what` is what the reader calls the file
/// (`"replay"`, `"key map"`).
///
/// ```
/// use bt_engine::config::read::read_named;
///
/// let e = read_named("key map", std::path::Path::new("/dev/zero"), 1024).unwrap_err();
/// # #[cfg(unix)]
/// assert_eq!(
///     e.to_string(),
///     "key map /dev/zero: could not read it: a character device, not a regular file"
/// );
/// ```
///
/// # Errors
/// A [`FileError`] naming `what` and `path`.
pub fn read_named(what: &'static str, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    read_file(path, limit).map_err(|why| FileError {
        what,
        path: path.to_path_buf(),
        why,
    })
}

/// A file a loader could not read, said the one way every loader says it:
/// `<what> PATH: could not read it: <why>`, on one line (control characters in the path
/// escaped).
#[derive(Debug, Error)]
#[error("{what} {}: could not read it: {why}", crate::quote::path(.path))]
pub struct FileError {
    /// What the reader calls the file: `"replay"`, `"key map"`, `"save file"`.
    pub what: &'static str,
    /// The file.
    pub path: PathBuf,
    /// Why it was not read.
    pub why: ReadError,
}

fn io_error(e: std::io::Error) -> ReadError {
    match e.kind() {
        ErrorKind::NotFound => ReadError::NotFound,
        _ => ReadError::Io(e),
    }
}

fn check_regular(meta: &Metadata) -> Result<(), ReadError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(ReadError::NotAFile(kind_of(meta)))
}

/// What a file that is not a regular file is, in words.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer. Reads of a
    // regular file ignore the flag.
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

#[cfg(test)]
mod guard;

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A FIFO at `path`, made with `mkfifo`.
    pub(crate) fn fifo(path: &Path) {
        let ok = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "mkfifo {}", path.display());
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = bt_test_support::ScratchDir::new("read-fifo");
        let path = dir.join("pipe");
        fifo(&path);
        let e = read_file(&path, 1024).unwrap_err();
        assert_eq!(e.to_string(), "a FIFO, not a regular file");
    }

    #[test]
    fn a_device_is_refused_before_a_byte_is_read() {
        let e = read_file(Path::new("/dev/zero"), 1024).unwrap_err();
        assert_eq!(e.to_string(), "a character device, not a regular file");
        let dir = bt_test_support::ScratchDir::new("read-link");
        let link = dir.join("zero.png");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(matches!(
            read_file(&link, 1024),
            Err(ReadError::NotAFile(_))
        ));
    }

    #[test]
    fn a_file_over_the_limit_is_refused_from_its_size() {
        let dir = bt_test_support::ScratchDir::new("read-large");
        let path = dir.join("big");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(1 << 40)
            .unwrap();
        let e = read_file(&path, 1024).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1099511627776 bytes is over the limit of 1024 bytes"
        );
    }
}
