//! F3's state as a file. With the state it keeps for F4, F3 makes the run from boot to that
//! update into a state file ([`crate::engine::StateFile`]) and hands it to the platform as it
//! hands over a screenshot: the window keeps it in its captures folder, numbered as the
//! pictures are (`snake-0001.btstate`), and says where. `bt run --state FILE` opens it, and
//! `bt shot --state FILE` draws it; only the build of BT that saved it loads it.

use std::path::Path;

use super::{Host, SaveFile, SaveKind};

/// The state file F3 made last, or why it made none, until the platform takes it.
#[derive(Debug, Default)]
pub(super) struct PendingStateFile {
    file: Option<Result<SaveFile, String>>,
    /// Updates since `init` of the state F3 saved, for the notice that names its file.
    updates: u64,
}

impl Host {
    /// Makes the run as it is now into a state file, `<name>.btstate`, for the platform to
    /// take ([`Host::take_state_file`]), in place of one it did not take.
    pub(super) fn make_state_file(&mut self) {
        let made = self
            .engine
            .state_file(&self.name, self.cart_version.as_deref())
            .map(|file| SaveFile::new(SaveKind::State, &self.name, file.to_json().into_bytes()))
            .map_err(|e| format!("state file not made: {e}"));
        self.state_file = PendingStateFile {
            file: Some(made),
            updates: self.engine.updates_since_init(),
        };
    }

    /// The state file F3 made with the state it saved, once, for the platform to keep (the
    /// window in its captures folder, through `bt-window`'s `captures`), or why none was made
    /// (the engine holds no run from boot: it keeps no snapshots and records nothing). `None`
    /// when F3 saved no state since the last call. A platform that keeps no files need not
    /// ask: the next F3 replaces the file.
    pub fn take_state_file(&mut self) -> Option<Result<SaveFile, String>> {
        self.state_file.file.take()
    }

    /// The platform kept F3's state file at `path`: F3's notice names it instead, for the
    /// rest of its time on screen (the file's name; the platform says the whole path where it
    /// says what it saved).
    pub fn state_file_kept(&mut self, path: &Path) {
        let fps = self.engine.settings().target_fps;
        let name = path
            .file_name()
            .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
        let text = format!(
            "state saved at {:.1} s as {}",
            self.state_file.updates as f64 / fps,
            crate::quote::excerpt(&name)
        );
        self.show_notice(Some(&text));
    }
}
