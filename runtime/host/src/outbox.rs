//! Every file a run makes leaves the [`Host`](crate::Host) one way: as an [`OutFile`] in its
//! outbox, which the platform drains once per frame ([`Host::take_outbox`]) and at the end of
//! the run ([`Host::finish`]). The host decides what and when, and writes nothing.
//!
//! What goes in: F9's screenshot and the pictures a cart asks for with `capture_frame`, F8's
//! timings, F2's replay, F3's state file (all [`Destination::Keep`]: a new file the player
//! keeps; the window numbers it in its captures folder, a page offers it as a download), and
//! what a run keeps as it goes, the recording of `bt run --record` and the cart's save data
//! ([`Destination::Replace`]: written whole over the file at a path; in a page, the key of the
//! browser's storage). A platform that cannot write one tells [`Host::write_failed`], which says
//! so as every platform does; one that kept a file where the player can find it tells
//! [`Host::kept`].
//!
//! [`Host::take_outbox`]: crate::Host::take_outbox
//! [`Host::finish`]: crate::Host::finish
//! [`Host::write_failed`]: crate::Host::write_failed
//! [`Host::kept`]: crate::Host::kept

use std::path::PathBuf;

use crate::export::safe_write;

/// A file the host hands its platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutFile {
    /// What it holds.
    pub kind: FileKind,
    /// Where it goes.
    pub destination: Destination,
    /// The file's contents, ready to write.
    pub bytes: Vec<u8>,
    /// Files one key made together (F8's report and trace) share a set: the window gives them
    /// one number. Every other file has a set of its own.
    pub set: u64,
}

/// Where an [`OutFile`] goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A new file for the player to keep, with the name to give it (`<cart>.png`,
    /// `<cart>-timings.html`): the window numbers it in its captures folder
    /// (`<cart>-0001.png`), a page offers it as a download as it is.
    Keep(String),
    /// Written whole over what is at this path: the file `--record` names, or the cart's save
    /// file (in a page, the key of the browser's storage it is kept under).
    Replace(PathBuf),
}

/// What an [`OutFile`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// F9, or the cart's `capture_frame`: a picture as a PNG.
    Screenshot,
    /// F8: the last seconds of frame timings as an HTML report.
    TimingReport,
    /// F8: the same frames as a Chrome trace (JSON).
    TimingTrace,
    /// F2: the replay of the run so far (`.btr`).
    Replay,
    /// F3: the state saved, as a state file (`.btstate`, see [`crate::engine::StateFile`]).
    State,
    /// The replay of the run so far (`bt run --record`), holding this many updates.
    Recording {
        /// The updates the replay holds.
        updates: u64,
    },
    /// The cart's save data, as a save file ([`crate::save::encode`]).
    SaveData,
}

impl FileKind {
    /// The file's extension, without its dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileKind::Screenshot => "png",
            FileKind::TimingReport => "html",
            FileKind::TimingTrace => "json",
            FileKind::Replay | FileKind::Recording { .. } => "btr",
            FileKind::State => "btstate",
            FileKind::SaveData => "btsave",
        }
    }

    /// The file format [`crate::export::safe_write`] checks the name against.
    pub fn format(self) -> safe_write::Format {
        match self {
            FileKind::Screenshot => safe_write::Format::Png,
            FileKind::TimingReport => safe_write::Format::Html,
            FileKind::TimingTrace => safe_write::Format::Json,
            FileKind::Replay | FileKind::Recording { .. } => safe_write::Format::Replay,
            // Names of the host's own making, or the save file's: no rule to check them against.
            FileKind::State | FileKind::SaveData => safe_write::Format::Any,
        }
    }
}

impl OutFile {
    /// A file to keep, of `kind`, named `<stem>.<its extension>`.
    pub fn keep(kind: FileKind, stem: &str, bytes: Vec<u8>, set: u64) -> OutFile {
        OutFile {
            kind,
            destination: Destination::Keep(format!("{stem}.{}", kind.extension())),
            bytes,
            set,
        }
    }

    /// The name to give a file to keep, with the number `n` before its extension
    /// (`snake-0001.png`); `None` for a file that replaces one at a path.
    pub fn numbered_name(&self, n: u32) -> Option<String> {
        let Destination::Keep(name) = &self.destination else {
            return None;
        };
        Some(match name.rsplit_once('.') {
            Some((stem, ext)) => format!("{stem}-{n:04}.{ext}"),
            None => format!("{name}-{n:04}"),
        })
    }

    /// What the player reads when this file could not be written, `error` being why.
    pub fn not_written(&self, error: &str) -> String {
        match self.kind {
            FileKind::Recording { .. } => format!("recording not saved: {error}"),
            FileKind::SaveData => error.to_string(),
            FileKind::State => format!("state file not saved: {error}"),
            _ => format!("not saved: {error}"),
        }
    }
}

/// Writes `file` over what is at its path, as every output is written (see
/// [`crate::export::safe_write`]): through a temporary file beside it and a rename, never
/// through a link or over a folder, the file's permissions kept. A save file's folder is made
/// first when missing. A file to keep has no path: the platform chooses one
/// (`bt-window`'s `captures`).
///
/// # Errors
/// A message naming the file that could not be written; what was there is left as it was.
pub fn replace(file: &OutFile) -> Result<(), String> {
    let Destination::Replace(path) = &file.destination else {
        return Err(format!(
            "{:?} is a file to keep, with no path to write it to",
            file.kind
        ));
    };
    match file.kind {
        FileKind::SaveData => crate::save::store_file(path, &file.bytes).map_err(|e| e.to_string()),
        _ => safe_write::write_atomically(path, &file.bytes).map_err(|e| {
            crate::replay::ReplayError::Io {
                path: path.clone(),
                message: e.to_string(),
            }
            .to_string()
        }),
    }
}
