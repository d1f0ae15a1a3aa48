//! Every file BT writes for the user (`bt shot -o`, `bt diagnose -o` and `--csv`, `bt run
//! --frame-log`, F9 screenshots, `bt frames`' folder) goes through here, so none of them can
//! destroy what is at the path.
//!
//! - `-` is stdout, and a device, a FIFO or a socket is written to directly, as it comes.
//! - A symbolic link is followed: the file it leads to is replaced and the link kept.
//! - Anything else is written to a temporary file with a unique name beside the target,
//!   created exclusively (a link someone placed there is never followed), filled, flushed to
//!   disk, and then renamed over the target. An existing target's permissions (and, where
//!   allowed, its owner) are given to the new file first; a new file gets the permissions any
//!   new file gets under the user's umask.
//! - A target with several hard links is written in place once the new contents are complete
//!   in the temporary file, so every name keeps seeing the same file. That copy is not atomic.
//! - Every failure removes the temporary file and leaves the target as it was.
//!
//! Output written as it comes ([`Output::begin`]) goes first into an unnamed file in the
//! target's folder, which the system removes however the process ends, even on Ctrl-C; only
//! [`Pending::finish`] gives it a name. A command with two outputs finishes both before it
//! commits either ([`Ready::commit`]).
//!
//! ```
//! use bt_engine::export::safe_write::{Format, Output};
//! use std::io::Write;
//!
//! let dir = std::env::temp_dir().join(format!("bt-output-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let csv = Output::new(&dir.join("rows.csv"), Format::Csv)?;
//! let mut rows = csv.begin()?;
//! writeln!(rows, "frame,ms")?;
//! writeln!(rows, "0,16.7")?;
//! rows.commit()?;
//! assert_eq!(std::fs::read_to_string(dir.join("rows.csv"))?, "frame,ms\n0,16.7\n");
//! assert!(Output::new(&dir.join("rows.txt"), Format::Csv).is_err());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;
use thiserror::Error;

/// How many links in a row are followed before the path is refused as a loop (Linux's limit).
const MAX_LINKS: usize = 40;

/// The most bytes of the target's name a temporary file's name repeats: its random part and
/// suffix must still fit the usual 255-byte limit on a name.
const TEMP_NAME_BYTES: usize = 100;

/// What an output holds, which decides the name a file must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// A PNG picture: `.png`.
    Png,
    /// Comma-separated values: `.csv`.
    Csv,
    /// A web page (the diagnosis report): `.html` or `.htm`.
    Html,
    /// JSON (a Chrome trace): `.json`.
    Json,
    /// An animated GIF: `.gif`.
    Gif,
    /// Sound as a WAV file: `.wav`.
    Wav,
    /// A replay file (`bt run --record`): `.btr`. Saved again and again as the run goes on, so
    /// only to a file.
    Replay,
    /// Anything: no name is refused.
    Any,
}

impl Format {
    /// The extension a file of this format must have (any case), if any.
    pub fn extension(self) -> Option<&'static str> {
        match self {
            Format::Png => Some("png"),
            Format::Csv => Some("csv"),
            Format::Html => Some("html"),
            Format::Json => Some("json"),
            Format::Gif => Some("gif"),
            Format::Wav => Some("wav"),
            Format::Replay => Some("btr"),
            Format::Any => None,
        }
    }

    /// What names this format takes, for a message.
    pub fn name_rule(self) -> String {
        let what = match self {
            Format::Png => "a PNG picture",
            Format::Csv => "CSV",
            Format::Html => "an HTML report",
            Format::Json => "JSON",
            Format::Gif => "a GIF",
            Format::Wav => "a WAV file",
            Format::Replay => {
                return "a replay is written here, so the name must end in .btr".to_string()
            }
            Format::Any => return "any name".to_string(),
        };
        let ext = self.extension().unwrap_or_default();
        format!(
            "{what} is written here, so the name must end in .{ext} \
             (or be '-' for stdout, a device or a FIFO)"
        )
    }

    fn accepts(self, path: &Path) -> bool {
        self.extension().is_none_or(|wanted| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case(wanted))
        })
    }
}

/// Why an output was refused or could not be written. Every message names the path as given.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OutputError {
    /// A file name that does not end in the format's extension.
    #[error("{}: {}", crate::quote::path(.path), .format.name_rule())]
    Extension {
        /// The path given.
        path: PathBuf,
        /// The format that would be written.
        format: Format,
    },
    /// The path, or where its links lead, cannot be written: a folder, a missing folder, a
    /// loop of links, no permission, a full disk.
    #[error("could not write {}: {source}", crate::quote::path(.path))]
    Write {
        /// The path given.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl OutputError {
    fn write(path: &Path, source: io::Error) -> OutputError {
        OutputError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where an output goes, decided once its path has been looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// `-`.
    Stdout,
    /// A device, FIFO or socket (after links), written to directly.
    Stream(PathBuf),
    /// A file (after links), existing or not, replaced through a temporary file.
    File(PathBuf),
}

/// One output path, checked: its name fits its format, its folder exists, it is not a folder.
/// Nothing is written until [`Output::begin`] or [`Output::write`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    path: PathBuf,
    target: Target,
}

impl Output {
    /// Checks `path` as an output of `format`. `-` is stdout; links are followed.
    ///
    /// # Errors
    /// [`OutputError::Extension`] for a file whose name does not end in the format's
    /// extension; [`OutputError::Write`] for a folder, a missing folder, a loop of links or a
    /// path that cannot be looked at.
    pub fn new(path: &Path, format: Format) -> Result<Output, OutputError> {
        let target = classify(path)?;
        if matches!(target, Target::File(_)) && !format.accepts(path) {
            return Err(OutputError::Extension {
                path: path.to_path_buf(),
                format,
            });
        }
        Ok(Output {
            path: path.to_path_buf(),
            target,
        })
    }

    /// Checks only that `path`'s name fits `format`: a file's name must end in its extension,
    /// while `-`, a device and a FIFO may have any name. For a command-line parser, which
    /// leaves the rest of the checks ([`Output::new`]) to the command.
    ///
    /// # Errors
    /// [`OutputError::Extension`].
    pub fn check_name(path: &Path, format: Format) -> Result<(), OutputError> {
        if format.accepts(path) {
            return Ok(());
        }
        match classify(path) {
            Ok(Target::Stdout | Target::Stream(_)) => Ok(()),
            _ => Err(OutputError::Extension {
                path: path.to_path_buf(),
                format,
            }),
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is stdout (`-`), so a command prints its report elsewhere.
    pub fn is_stdout(&self) -> bool {
        self.target == Target::Stdout
    }

    /// Whether this is a file (existing or not), replaced whole when written, rather than
    /// stdout, a device, a FIFO or a socket.
    pub fn is_file(&self) -> bool {
        matches!(self.target, Target::File(_))
    }

    /// Whether writing this output would write over the file at `path` (an input, say): the
    /// same file through links, `.` and `..`, or another name of it.
    pub fn overwrites(&self, path: &Path) -> bool {
        match &self.target {
            Target::Stdout => false,
            Target::Stream(a) | Target::File(a) => {
                same_file(a, path) || canonical(a) == canonical(path)
            }
        }
    }

    /// Makes and at once removes an unnamed file in a file output's folder, so a folder that
    /// takes no file (no permission, a read-only disk) is said before any work rather than
    /// when the output is written. Streams and stdout are not touched.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the path.
    pub fn check_folder_takes_files(&self) -> Result<(), OutputError> {
        match &self.target {
            Target::File(real) => {
                let folder = folder_of(real);
                tempfile::tempfile_in(folder)
                    .map(drop)
                    .map_err(|e| OutputError::write(&self.path, takes_no_file(folder, &e)))
            }
            Target::Stdout | Target::Stream(_) => Ok(()),
        }
    }

    /// Whether `self` and `other` would write the same file or stream: the same path once
    /// links, `.` and `..` are resolved, or two names of one file.
    pub fn same_target(&self, other: &Output) -> bool {
        match (&self.target, &other.target) {
            (Target::Stdout, Target::Stdout) => true,
            (Target::Stdout, _) | (_, Target::Stdout) => false,
            (Target::Stream(a) | Target::File(a), Target::Stream(b) | Target::File(b)) => {
                same_file(a, b) || canonical(a) == canonical(b)
            }
        }
    }

    /// Starts writing. What is written reaches a stream at once; for a file it is kept in an
    /// unnamed file beside the target until [`Pending::finish`].
    ///
    /// # Errors
    /// [`OutputError::Write`] when the stream cannot be opened or the folder takes no file.
    pub fn begin(&self) -> Result<Pending, OutputError> {
        let fail = |e| OutputError::write(&self.path, e);
        let sink = match &self.target {
            Target::Stdout => Sink::Stdout(BufWriter::new(io::stdout())),
            Target::Stream(real) => Sink::Stream(BufWriter::new(open_stream(real).map_err(fail)?)),
            Target::File(real) => {
                let folder = folder_of(real);
                let staged = tempfile::tempfile_in(folder)
                    .map_err(|e| takes_no_file(folder, &e))
                    .map_err(fail)?;
                Sink::Staged(BufWriter::new(staged), real.clone())
            }
        };
        Ok(Pending {
            path: self.path.clone(),
            sink,
        })
    }

    /// Writes `bytes` to a stream, or into a temporary file beside the target, flushed to
    /// disk, ready to replace it with [`Ready::commit`].
    ///
    /// # Errors
    /// [`OutputError::Write`]; a temporary file is removed.
    pub fn prepare(&self, bytes: &[u8]) -> Result<Ready, OutputError> {
        let fail = |e| OutputError::write(&self.path, e);
        match &self.target {
            Target::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(fail)?;
                Ok(Ready(None))
            }
            Target::Stream(real) => {
                let mut out = open_stream(real).map_err(fail)?;
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(fail)?;
                Ok(Ready(None))
            }
            Target::File(real) => stage(&self.path, real, |f| f.write_all(bytes)),
        }
    }

    /// Writes `bytes` and puts them in place: [`Output::prepare`] then [`Ready::commit`].
    ///
    /// # Errors
    /// As those two.
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputError> {
        self.prepare(bytes)?.commit()
    }
}

/// Writes `bytes` to `path` as [`Output::write`] does, but only when nothing is there yet, and
/// atomically so: two writers of one new name never both succeed. `Ok(false)` when something
/// was already there (and is left alone).
///
/// # Errors
/// [`OutputError`] as for [`Output::new`] and [`Output::write`].
pub fn write_new(path: &Path, format: Format, bytes: &[u8]) -> Result<bool, OutputError> {
    if fs::symlink_metadata(path).is_ok() {
        return Ok(false);
    }
    let output = Output::new(path, format)?;
    let Target::File(real) = &output.target else {
        return Ok(false);
    };
    let Ready(Some(staged)) = stage(path, real, |f| f.write_all(bytes))? else {
        return Ok(false);
    };
    match staged.file.persist_noclobber(&staged.real) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(OutputError::write(path, e.error)),
    }
}

/// Writes `bytes` to `path` as every output is written: never destroying a device, a link, a
/// file's permissions or a hard link, and never leaving half a file. Any name is taken: for a
/// file whose name the user chose freely (a replay, a report, a trace, a frame log).
///
/// # Errors
/// [`OutputError`] naming the path.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    Output::new(path, Format::Any)?.write(bytes)
}

/// Writes `bytes` over the file at `path` as [`write_atomically`] does, for a file the user
/// edits and saves again (the sound editor's Ctrl+S): only a file, existing or not, is
/// written; a FIFO, a device or a socket found there is refused rather than opened, since an
/// open for writing would wait for a reader for ever. The new contents go into a file beside
/// the target that is renamed over it, so even a FIFO swapped in at the last moment is
/// replaced, never opened.
///
/// # Errors
/// [`OutputError`] naming the path.
pub fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let output = Output::new(path, Format::Any)?;
    if !output.is_file() {
        return Err(OutputError::write(
            path,
            io::Error::other("not a regular file (a FIFO, a device or a socket), so not written"),
        ));
    }
    output.write(bytes)
}

/// A folder of files that appears whole or not at all (`bt frames -o DIR`): the files go into
/// a hidden staging folder beside it, `.NAME.PID-XXXXXX.bt-tmp`, which is renamed to the
/// folder's name by [`OutputDir::commit`]. A folder already there may be empty, and is then
/// replaced; one that holds anything is refused before any work. Dropped without a commit, or
/// on any failure, the staging folder is removed with all it holds; one that a killed process
/// left is removed by the next `OutputDir` of that name.
///
/// ```
/// use bt_engine::export::safe_write::OutputDir;
///
/// let parent = std::env::temp_dir().join(format!("bt-output-dir-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&parent)?;
/// let mut frames = OutputDir::new(&parent.join("frames"))?;
/// frames.write("frame_00000.png", b"...")?;
/// assert!(!parent.join("frames").exists());
/// frames.commit()?;
/// assert!(parent.join("frames/frame_00000.png").is_file());
/// assert!(OutputDir::new(&parent.join("frames")).is_err(), "not empty any more");
/// # std::fs::remove_dir_all(&parent)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OutputDir {
    path: PathBuf,
    staging: tempfile::TempDir,
    /// The empty folder already at `path`, whose permissions and owner the new one takes.
    replaced: Option<Metadata>,
}

impl OutputDir {
    /// Checks `path` (nothing there, or an empty folder, in a folder that exists) and makes the
    /// staging folder beside it.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming `path`: a folder that is not empty, a file, a missing
    /// parent folder, or a staging folder that cannot be made.
    pub fn new(path: &Path) -> Result<OutputDir, OutputError> {
        let fail = |e| OutputError::write(path, e);
        let mut replaced = None;
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let mut entries = fs::read_dir(path).map_err(fail)?;
                if entries.next().is_some() {
                    return Err(fail(io::Error::new(
                        io::ErrorKind::DirectoryNotEmpty,
                        "the folder is not empty; name a new or empty folder",
                    )));
                }
                replaced = Some(meta);
            }
            Ok(meta) if meta.file_type().is_symlink() => {
                // Replaced, a link would lose where it leads; written through, the folder it
                // leads to would not be the one named. Either would surprise: say what is there.
                let to =
                    fs::read_link(path).map_or_else(|_| "?".into(), |t| crate::quote::path(&t));
                let what = match fs::metadata(path) {
                    Ok(m) if m.is_dir() => "a folder",
                    Ok(_) => "a file",
                    Err(_) => "nothing",
                };
                return Err(fail(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "a link is there, to {to} ({what}); name a new or empty folder, or the \
                         folder the link leads to"
                    ),
                )));
            }
            Ok(_) => {
                return Err(fail(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "something that is not a folder is there",
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(e)),
        }
        let parent = folder_of(path);
        if !fs::metadata(parent).is_ok_and(|m| m.is_dir()) {
            return Err(fail(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the folder {} does not exist", crate::quote::path(parent)),
            )));
        }
        // Named with this process's id, as a temporary file is: what a killed `bt` left is
        // removed here by the next one.
        let prefix = hidden_prefix(path);
        remove_left_behind(parent, &prefix);
        let staging = tempfile::Builder::new()
            .prefix(&format!("{prefix}{}-", std::process::id()))
            .suffix(".bt-tmp")
            .tempdir_in(parent)
            .map_err(|e| takes_no_file(parent, &e))
            .map_err(fail)?;
        Ok(OutputDir {
            path: path.to_path_buf(),
            staging,
            replaced,
        })
    }

    /// The folder's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The staging folder, where the files are until the commit.
    pub fn staging(&self) -> &Path {
        self.staging.path()
    }

    /// Writes a new file `name` into the staging folder, flushed to disk.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the file under the folder's path.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let fail = |e| OutputError::write(&self.path.join(name), e);
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.staging.path().join(name))
            .map_err(fail)?;
        file.write_all(bytes).map_err(fail)?;
        file.sync_all().map_err(fail)
    }

    /// Renames the staging folder to the folder's name, replacing an empty folder there, whose
    /// permissions (and owner, where the system allows) it takes first.
    ///
    /// # Errors
    /// [`OutputError::Write`] when the rename fails (a folder that has filled since the check,
    /// say); the staging folder is then removed.
    pub fn commit(self) -> Result<(), OutputError> {
        if let Some(old) = &self.replaced {
            keep_folder_owner_and_mode(self.staging.path(), old);
        }
        // A folder, opened to flush it: the names of the files, as well as their contents,
        // reach the disk first.
        if let Ok(folder) = File::open(self.staging.path()) {
            let _ = folder.sync_all();
        }
        fs::rename(self.staging.path(), &self.path).map_err(|e| OutputError::write(&self.path, e))
        // On success the staging path no longer exists and dropping it removes nothing; on
        // failure the drop removes the staging folder.
    }
}

/// Where an output's path leads.
fn classify(path: &Path) -> Result<Target, OutputError> {
    if path.as_os_str() == "-" {
        return Ok(Target::Stdout);
    }
    let fail = |e| OutputError::write(path, e);
    let real = follow_links(path).map_err(fail)?;
    match fs::metadata(&real) {
        Ok(meta) if meta.is_dir() => Err(fail(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a folder",
        ))),
        Ok(meta) if meta.is_file() => Ok(Target::File(real)),
        Ok(_) => Ok(Target::Stream(real)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let folder = folder_of(&real);
            match fs::metadata(folder) {
                Ok(meta) if meta.is_dir() => Ok(Target::File(real)),
                Ok(_) => Err(fail(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("{} is not a folder", crate::quote::path(folder)),
                ))),
                Err(e) => Err(fail(io::Error::new(
                    e.kind(),
                    format!(
                        "the folder {} cannot be used: {e}",
                        crate::quote::path(folder)
                    ),
                ))),
            }
        }
        Err(e) => Err(fail(e)),
    }
}

/// `path` with every symbolic link on it followed, however many in a row.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = fs::read_link(&at)?;
                // A relative link is relative to the link's folder; `join` keeps an absolute one.
                at = folder_of(&at).join(to);
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} links in a row (a loop?)"
    )))
}

/// The folder a file's path names, `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The absolute path with `.`, `..` and links resolved, for a file that may not exist yet.
fn canonical(path: &Path) -> PathBuf {
    fs::canonicalize(path)
        .ok()
        .or_else(|| {
            let folder = fs::canonicalize(folder_of(path)).ok()?;
            Some(folder.join(path.file_name()?))
        })
        .unwrap_or_else(|| path.to_path_buf())
}

/// Whether two existing paths are one file (hard links included).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(a), fs::metadata(b)) {
            return (a.dev(), a.ino()) == (b.dev(), b.ino());
        }
    }
    let _ = (a, b);
    false
}

fn open_stream(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).open(path)
}

/// The start of a temporary name beside `real`: a dot, then the real name (its first
/// [`TEMP_NAME_BYTES`] bytes, cut at a character boundary), then a dot.
fn hidden_prefix(real: &Path) -> String {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut cut = TEMP_NAME_BYTES.min(name.len());
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(".{}.", &name[..cut])
}

/// A temporary file beside `real`, made exclusively with a fresh random name that carries this
/// process's id: `.<name>.<pid>-<random>.bt-tmp`. Those a process that is gone left beside
/// `real` (it was killed while writing) are removed first.
fn temporary_beside(real: &Path) -> io::Result<NamedTempFile> {
    let prefix = hidden_prefix(real);
    remove_left_behind(folder_of(real), &prefix);
    let prefix = format!("{prefix}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".bt-tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What any new file gets: the umask applies, as for every `open(2)`.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder
        .tempfile_in(folder_of(real))
        .map_err(|e| takes_no_file(folder_of(real), &e))
}

/// Why a temporary file or folder could not be made in `folder`, without its name: the name is
/// random, hidden, and gone by the time anyone reads the message, so it is no help to show.
pub fn takes_no_file(folder: &Path, e: &io::Error) -> io::Error {
    let text = e.to_string();
    // The temporary-file crate ends its messages with ` at path "<the temporary name>"`.
    let why = text
        .split_once(" at path \"")
        .map_or(text.as_str(), |(m, _)| m);
    io::Error::new(
        e.kind(),
        format!(
            "the folder {} takes no new file: {why}",
            crate::quote::path(folder)
        ),
    )
}

/// Removes the temporary files and staging folders named `<prefix><pid>-<random>.bt-tmp` in
/// `folder` whose process is gone: what a write stopped by a kill or a crash left. Only where
/// the system lists its processes in `/proc`; elsewhere they stay.
pub fn remove_left_behind(folder: &Path, prefix: &str) {
    let processes = Path::new("/proc");
    if !processes.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|n| n.strip_suffix(".bt-tmp"))
            .and_then(|n| n.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if processes.join(pid.to_string()).exists() {
            continue;
        }
        // Never a link's target: a link is no staging folder, and stays.
        match entry.file_type() {
            Ok(t) if t.is_file() => {
                let _ = fs::remove_file(entry.path());
            }
            Ok(t) if t.is_dir() => {
                let _ = fs::remove_dir_all(entry.path());
            }
            _ => {}
        }
    }
}

/// Fills a new temporary file beside `real` with `fill` and flushes it to disk. On any failure
/// the temporary file is removed (it is dropped).
fn stage(
    path: &Path,
    real: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<Ready, OutputError> {
    let fail = |e| OutputError::write(path, e);
    let mut file = temporary_beside(real).map_err(fail)?;
    fill(file.as_file_mut()).map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    Ok(Ready(Some(Staged {
        path: path.to_path_buf(),
        real: real.to_path_buf(),
        file,
    })))
}

/// Output being written: a stream, or an unnamed file that becomes the target only when
/// finished and committed. Dropped unfinished, it leaves the target as it was.
#[derive(Debug)]
pub struct Pending {
    path: PathBuf,
    sink: Sink,
}

#[derive(Debug)]
enum Sink {
    Stdout(BufWriter<io::Stdout>),
    Stream(BufWriter<File>),
    /// The unnamed file, and the target it is for.
    Staged(BufWriter<File>, PathBuf),
}

impl Write for Pending {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write(buf),
            Sink::Stream(w) | Sink::Staged(w, _) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Stream(w) | Sink::Staged(w, _) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.flush(),
            Sink::Stream(w) | Sink::Staged(w, _) => w.flush(),
        }
    }
}

impl Pending {
    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Ends the writing: a stream is flushed; a file's contents are copied into a named
    /// temporary file beside the target and flushed to disk, ready for [`Ready::commit`].
    ///
    /// # Errors
    /// [`OutputError::Write`]; nothing is left behind.
    pub fn finish(self) -> Result<Ready, OutputError> {
        let fail = |e| OutputError::write(&self.path, e);
        match self.sink {
            Sink::Stdout(mut w) => w.flush().map_err(fail)?,
            Sink::Stream(mut w) => w.flush().map_err(fail)?,
            Sink::Staged(w, real) => {
                let mut staged = w.into_inner().map_err(|e| fail(e.into_error()))?;
                staged.rewind().map_err(fail)?;
                return stage(&self.path, &real, |f| io::copy(&mut staged, f).map(drop));
            }
        }
        Ok(Ready(None))
    }

    /// [`Pending::finish`] then [`Ready::commit`].
    ///
    /// # Errors
    /// As those two.
    pub fn commit(self) -> Result<(), OutputError> {
        self.finish()?.commit()
    }
}

/// Output complete and flushed, waiting to replace its target (nothing to wait for when it
/// went to a stream). Dropped without [`Ready::commit`], the target is left as it was.
#[derive(Debug)]
pub struct Ready(Option<Staged>);

#[derive(Debug)]
struct Staged {
    path: PathBuf,
    real: PathBuf,
    file: NamedTempFile,
}

impl Ready {
    /// Puts the new contents in place: renames the temporary file over the target, after
    /// giving it the target's permissions; a target with several hard links is rewritten in
    /// place instead.
    ///
    /// # Errors
    /// [`OutputError::Write`]; the temporary file is removed. Only a failure part way through
    /// rewriting a hard-linked target in place can leave that target changed.
    pub fn commit(self) -> Result<(), OutputError> {
        let Some(Staged { path, real, file }) = self.0 else {
            return Ok(());
        };
        let fail = |e| OutputError::write(&path, e);
        match fs::symlink_metadata(&real) {
            Ok(meta) if meta.is_file() && links(&meta) > 1 => rewrite_in_place(&real, file),
            Ok(meta) if meta.is_file() => {
                keep_owner_and_mode(file.as_file(), &meta);
                file.persist(&real).map(drop).map_err(|e| e.error)
            }
            Ok(meta) if meta.is_dir() => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a folder",
            )),
            _ => file.persist(&real).map(drop).map_err(|e| e.error),
        }
        .map_err(fail)
    }
}

/// How many names the file has.
fn links(meta: &Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// Copies the complete new contents over a file with several names, keeping the file itself.
fn rewrite_in_place(real: &Path, mut staged: NamedTempFile) -> io::Result<()> {
    let mut target = OpenOptions::new().write(true).truncate(true).open(real)?;
    staged.as_file_mut().rewind()?;
    io::copy(staged.as_file_mut(), &mut target)?;
    target.sync_all()
}

/// Gives the new file the old one's owner (where the system allows it) and permissions.
fn keep_owner_and_mode(file: &File, old: &Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(new) = file.metadata() {
            if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
                // Only root may give a file away; otherwise the new file is the user's own.
                let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
            }
        }
    }
    let _ = file.set_permissions(old.permissions());
}

/// Gives the new folder the old one's owner (where the system allows it) and permissions, as
/// [`keep_owner_and_mode`] does for a file.
fn keep_folder_owner_and_mode(folder: &Path, old: &Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(new) = fs::symlink_metadata(folder) {
            if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
                // Only root may give a folder away; otherwise the new folder is the user's own.
                let _ = std::os::unix::fs::chown(folder, Some(old.uid()), Some(old.gid()));
            }
        }
    }
    let _ = fs::set_permissions(folder, old.permissions());
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt_test_support::ScratchDir;

    #[test]
    fn write_to_a_missing_folder_names_the_path() {
        let path = Path::new("/nonexistent-bt-dir/out.png");
        let err = write_atomically(path, b"x").unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent-bt-dir/out.png"),
            "{err}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_temporary_file_a_killed_write_left_goes_at_the_next_write() {
        let dir = ScratchDir::new("safe-write-left");
        let target = dir.join("game");
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        gone.wait().unwrap();
        let left = dir.join(format!(".game.{}-abc123.bt-tmp", gone.id()));
        let alive = dir.join(".game.1-abc123.bt-tmp");
        let other = dir.join(format!(".other.{}-abc123.bt-tmp", gone.id()));
        for file in [&left, &alive, &other] {
            std::fs::write(file, b"half").unwrap();
        }
        Output::new(&target, Format::Any)
            .unwrap()
            .write(b"whole")
            .unwrap();
        assert!(!left.exists(), "its process is gone");
        assert!(alive.exists(), "its process may still be writing");
        assert!(other.exists(), "another file's");
        assert_eq!(std::fs::read(&target).unwrap(), b"whole");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_staging_folder_a_killed_export_left_goes_at_the_next_export() {
        let dir = ScratchDir::new("safe-write-left-folder");
        let target = dir.join("site");
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        gone.wait().unwrap();
        let left = dir.join(format!(".site.{}-abc123.bt-tmp", gone.id()));
        let alive = dir.join(".site.1-abc123.bt-tmp");
        for folder in [&left, &alive] {
            std::fs::create_dir_all(folder.join("inner")).unwrap();
            std::fs::write(folder.join("inner/page.wasm"), b"half").unwrap();
        }
        let out = OutputDir::new(&target).unwrap();
        assert!(!left.exists(), "its process is gone");
        assert!(alive.exists(), "its process may still be writing");
        let staging = out
            .staging()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            staging.starts_with(&format!(".site.{}-", std::process::id())),
            "{staging}"
        );
        drop(out);
        assert_eq!(names(dir.path()), [".site.1-abc123.bt-tmp"]);
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn devices_are_streams_and_are_only_looked_at() {
        let o = Output::new(Path::new("/dev/null"), Format::Png).unwrap();
        assert_eq!(o.target, Target::Stream(PathBuf::from("/dev/null")));
        assert!(Output::new(Path::new("-"), Format::Csv)
            .unwrap()
            .is_stdout());
    }

    #[test]
    fn a_failing_writer_leaves_no_temporary_file_and_the_target_alone() {
        let dir = ScratchDir::new("output");
        let path = dir.join("keep.png");
        fs::write(&path, b"precious").unwrap();
        let out = Output::new(&path, Format::Png).unwrap();
        let Target::File(real) = &out.target else {
            panic!("a file")
        };
        let err = stage(&path, real, |f| {
            f.write_all(b"half a picture")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("could not write {}: disk full", path.display())
        );
        assert_eq!(fs::read(&path).unwrap(), b"precious");
        assert_eq!(names(dir.path()), ["keep.png"]);
    }

    #[test]
    fn a_rename_that_fails_removes_the_temporary_file() {
        let dir = ScratchDir::new("output");
        let path = dir.join("late.csv");
        let out = Output::new(&path, Format::Csv).unwrap();
        let mut rows = out.begin().unwrap();
        rows.write_all(b"a,b\n").unwrap();
        // A folder that appears at the path after the check cannot be replaced.
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"x").unwrap();
        let err = rows.commit().unwrap_err();
        assert!(err.to_string().contains("late.csv"), "{err}");
        assert_eq!(names(dir.path()), ["late.csv"]);
        assert_eq!(names(&path), ["inside"]);
    }

    #[test]
    fn an_unfinished_output_leaves_nothing() {
        let dir = ScratchDir::new("output");
        let path = dir.join("never.csv");
        let mut rows = Output::new(&path, Format::Csv).unwrap().begin().unwrap();
        rows.write_all(&[b'x'; 100_000]).unwrap();
        drop(rows);
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn a_finished_output_replaces_its_target_only_when_committed() {
        let dir = ScratchDir::new("output");
        let path = dir.join("two.png");
        fs::write(&path, b"old").unwrap();
        let ready = Output::new(&path, Format::Png)
            .unwrap()
            .prepare(b"new")
            .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        drop(ready);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["two.png"]);
        Output::new(&path, Format::Png)
            .unwrap()
            .write(b"new")
            .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn names_are_checked_against_the_format_but_devices_are_not() {
        let dir = ScratchDir::new("output");
        let err = Output::new(&dir.join("x.jpg"), Format::Png).unwrap_err();
        assert!(matches!(err, OutputError::Extension { .. }), "{err}");
        assert!(err.to_string().ends_with(
            "x.jpg: a PNG picture is written here, so the name must end in .png \
             (or be '-' for stdout, a device or a FIFO)"
        ));
        assert!(Output::new(&dir.join("X.Png"), Format::Png).is_ok());
        assert!(Output::new(&dir.join("x.png"), Format::Csv).is_err());
        assert!(Output::new(&dir.join("log"), Format::Any).is_ok());
        assert!(Output::new(Path::new("/dev/null"), Format::Csv).is_ok());
    }

    #[test]
    fn missing_folders_folders_and_loops_are_named() {
        let dir = ScratchDir::new("output");
        let err = Output::new(&dir.join("gone/x.png"), Format::Png).unwrap_err();
        assert!(err.to_string().contains("gone/x.png: the folder"), "{err}");
        let err = Output::new(dir.path(), Format::Any).unwrap_err();
        assert!(err.to_string().ends_with("it is a folder"), "{err}");
        std::os::unix::fs::symlink("b.png", dir.join("a.png")).unwrap();
        std::os::unix::fs::symlink("a.png", dir.join("b.png")).unwrap();
        let err = Output::new(&dir.join("a.png"), Format::Png).unwrap_err();
        assert!(err.to_string().contains("links in a row"), "{err}");
    }

    #[test]
    fn the_same_target_is_seen_through_links_dots_and_hard_links() {
        let dir = ScratchDir::new("output");
        let out = |name: &str| Output::new(&dir.join(name), Format::Any).unwrap();
        fs::write(dir.join("a"), b"").unwrap();
        fs::hard_link(dir.join("a"), dir.join("hard")).unwrap();
        std::os::unix::fs::symlink("a", dir.join("soft")).unwrap();
        assert!(out("a").same_target(&out("./a")));
        assert!(out("a").same_target(&out("hard")));
        assert!(out("a").same_target(&out("soft")));
        assert!(out("new").same_target(&out("./new")));
        assert!(!out("a").same_target(&out("new")));
        let stdout = Output::new(Path::new("-"), Format::Any).unwrap();
        assert!(stdout.same_target(&stdout.clone()));
        assert!(!stdout.same_target(&out("a")));
    }

    #[test]
    fn an_output_folder_appears_whole_and_never_replaces_a_folder_with_files() {
        let dir = ScratchDir::new("output");
        let target = dir.join("frames");
        let mut out = OutputDir::new(&target).unwrap();
        out.write("a.png", b"a").unwrap();
        assert!(!target.exists(), "nothing under the name before the commit");
        assert_eq!(names(dir.path()).len(), 1, "only the hidden staging folder");
        out.commit().unwrap();
        assert_eq!(names(&target), ["a.png"]);
        assert_eq!(names(dir.path()), ["frames"]);

        let err = OutputDir::new(&target).unwrap_err().to_string();
        assert!(err.contains("frames: the folder is not empty"), "{err}");
        fs::write(dir.join("file"), b"x").unwrap();
        let err = OutputDir::new(&dir.join("file")).unwrap_err().to_string();
        assert!(err.contains("not a folder"), "{err}");
        let err = OutputDir::new(&dir.join("gone/frames"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");

        // An empty folder is replaced; a dropped or failed output leaves nothing.
        fs::create_dir(dir.join("empty")).unwrap();
        let mut out = OutputDir::new(&dir.join("empty")).unwrap();
        out.write("b.png", b"b").unwrap();
        out.commit().unwrap();
        assert_eq!(names(&dir.join("empty")), ["b.png"]);
        let mut out = OutputDir::new(&dir.join("dropped")).unwrap();
        out.write("c.png", b"c").unwrap();
        drop(out);
        let mut out = OutputDir::new(&dir.join("late")).unwrap();
        out.write("d.png", b"d").unwrap();
        fs::create_dir(dir.join("late")).unwrap();
        fs::write(dir.join("late/someone-elses"), b"x").unwrap();
        assert!(out.commit().is_err());
        assert_eq!(names(&dir.join("late")), ["someone-elses"]);
        assert_eq!(names(dir.path()), ["empty", "file", "frames", "late"]);
    }

    #[test]
    fn a_taken_name_is_never_written_over_by_write_new() {
        let dir = ScratchDir::new("output");
        let path = dir.join("shot-0001.png");
        assert!(write_new(&path, Format::Png, b"first").unwrap());
        assert!(!write_new(&path, Format::Png, b"second").unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"first");
        assert_eq!(names(dir.path()), ["shot-0001.png"]);
    }
}
