//! What every editor of BT's own shares: where a save goes ([`SaveTarget`]) and a target
//! that keeps the bytes in memory ([`Kept`]), for tests and scripted sessions.
//!
//! An editor is a cart. It decides what to write and when; the platform decides where: `bt
//! sound-edit`, `bt sprite-edit` and `bt map-edit` hand their editor a target that writes the
//! file atomically and only over what it last read or wrote there, and a test hands it a
//! [`Kept`] and compares the bytes.
//!
//! ```
//! use bt_tools::edit::{Kept, SaveTarget};
//!
//! let kept = Kept::new();
//! let mut target: Box<dyn SaveTarget> = Box::new(kept.clone());
//! target.save(b"bt-sound 2\n").unwrap();
//! assert_eq!(kept.bytes().as_deref(), Some(&b"bt-sound 2\n"[..]));
//! assert_eq!(kept.saves(), 1);
//! ```

use std::sync::{Arc, Mutex, MutexGuard};

/// Where a save goes: the platform's side of Ctrl+S.
pub trait SaveTarget {
    /// Writes `bytes` as the whole file.
    ///
    /// # Errors
    /// A one-line message naming the file and what went wrong; the editor shows it, and keeps
    /// its edits (they are not lost by a refused save).
    fn save(&mut self, bytes: &[u8]) -> Result<(), String>;
}

/// A [`SaveTarget`] that keeps the last bytes saved, shared by its clones: a test keeps one
/// clone and gives the editor the other (clones may go to other threads, as a `MakeCart`
/// does). It can be told to refuse, as a full disk would.
#[derive(Clone, Default)]
pub struct Kept {
    inner: Arc<Mutex<KeptInner>>,
}

#[derive(Default)]
struct KeptInner {
    bytes: Option<Vec<u8>>,
    saves: usize,
    refuse: Option<String>,
}

impl Kept {
    /// A target that has kept nothing yet.
    pub fn new() -> Kept {
        Kept::default()
    }

    fn inner(&self) -> MutexGuard<'_, KeptInner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The bytes of the last save taken, if any.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        self.inner().bytes.clone()
    }

    /// How many saves were taken (refused ones are not counted).
    pub fn saves(&self) -> usize {
        self.inner().saves
    }

    /// Refuses every save from now on with `message` (`None`: takes them again).
    pub fn refuse(&self, message: Option<&str>) {
        self.inner().refuse = message.map(str::to_string);
    }
}

impl SaveTarget for Kept {
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        let mut inner = self.inner();
        if let Some(message) = &inner.refuse {
            return Err(message.clone());
        }
        inner.bytes = Some(bytes.to_vec());
        inner.saves += 1;
        Ok(())
    }
}
