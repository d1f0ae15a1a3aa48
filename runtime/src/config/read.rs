//! Reading a file BT was given: the one function every reader of a user's file goes through.
//!
//! ```
//! use bt_runtime::config::read::{read_file, ReadError};
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
use std::path::Path;

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
/// through this, with its own limit, and names the file in its own error.
///
/// # Errors
/// [`ReadError::NotFound`], [`ReadError::NotAFile`], [`ReadError::TooLarge`], and
/// [`ReadError::Io`] for anything the system refused.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |e: std::io::Error| match e.kind() {
        ErrorKind::NotFound => ReadError::NotFound,
        _ => ReadError::Io(e),
    };
    check_regular(&std::fs::metadata(path).map_err(io)?)?;
    let file = open_without_blocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check_regular(&meta)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    // Room for the size the file system gave (capped), so a large file is read in one go.
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    Ok(bytes)
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
