//! What the [`Host`](crate::Host) asks its platform to keep on disk as a run goes on: the
//! recording of a `bt run --record` run and the cart's save data. The host decides what and
//! when, and writes nothing; the platform drains [`Host::take_writes`] (after every frame and
//! event) and [`Host::finish_writes`] (when the run ends, however it ends) and performs them.
//! The window does, with [`write()`], and tells the host of a failure
//! ([`Host::write_failed`]) so the player reads it as the overlay's notice and on the error
//! output. A page has no disk and no record target: it keeps the cart's save data in the
//! browser's storage, under the key it gives the host as the save data's path, and tells
//! [`Host::write_failed`] when the browser refuses it.
//!
//! [`Host::take_writes`]: crate::Host::take_writes
//! [`Host::finish_writes`]: crate::Host::finish_writes
//! [`Host::write_failed`]: crate::Host::write_failed

use std::path::PathBuf;

/// A file the host asks the platform to write, whole, over what is at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Persist {
    /// What it holds.
    pub kind: PersistKind,
    /// Where it goes: the file named by `--record`, or the cart's save file (in a page, the key
    /// of the browser's storage it is kept under).
    pub path: PathBuf,
    /// The file's contents, ready to write.
    pub bytes: Vec<u8>,
}

impl Persist {
    /// What the player reads when this file could not be written, `error` being why.
    pub fn not_written(&self, error: &str) -> String {
        match self.kind {
            PersistKind::Recording { .. } => format!("recording not saved: {error}"),
            PersistKind::SaveData => error.to_string(),
        }
    }
}

/// What a [`Persist`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PersistKind {
    /// The replay of the run so far (`bt run --record`), holding this many updates.
    Recording {
        /// The updates the replay holds.
        updates: u64,
    },
    /// The cart's save data, as a save file ([`crate::save::encode`]).
    SaveData,
}

/// Writes `item` to its path as every output is written (see [`crate::export::safe_write`]):
/// through a temporary file beside it and a rename, never through a link or over a folder, the
/// file's permissions kept. A save file's folder is made first when missing.
///
/// # Errors
/// A message naming the file that could not be written; what was there is left as it was.
pub fn write(item: &Persist) -> Result<(), String> {
    match item.kind {
        PersistKind::Recording { .. } => {
            crate::export::safe_write::write_atomically(&item.path, &item.bytes).map_err(|e| {
                crate::replay::ReplayError::Io {
                    path: item.path.clone(),
                    message: e.to_string(),
                }
                .to_string()
            })
        }
        PersistKind::SaveData => {
            crate::save::store_file(&item.path, &item.bytes).map_err(|e| e.to_string())
        }
    }
}
