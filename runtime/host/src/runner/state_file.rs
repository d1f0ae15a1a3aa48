//! F3's state as a file. With the state it keeps for F4, F3 makes the run from boot to that
//! update into a state file ([`crate::engine::StateFile`]) and puts it in the outbox as it
//! does a screenshot: the window keeps it in its captures folder, numbered as the
//! pictures are (`snake-0001.btstate`), and says where. `bt run --state FILE` opens it, and
//! `bt shot --state FILE` draws it; only the build of BT that saved it loads it.

use std::path::Path;

use super::Host;
use crate::outbox::FileKind;

impl Host {
    /// Makes the run as it is now into a state file, `<name>.btstate`, in the outbox; when
    /// none can be made (the engine holds no run from boot: it keeps no snapshots and records
    /// nothing), says why on the error output.
    pub(super) fn make_state_file(&mut self) {
        self.state_saved_at = self.engine.updates_since_init();
        match self
            .engine
            .state_file(&self.name, self.cart_version.as_deref())
        {
            Ok(file) => {
                let name = self.name.clone();
                self.post(&name, [(FileKind::State, file.to_json().into_bytes())]);
            }
            Err(e) => self.say(format_args!("state file not made: {e}")),
        }
    }

    /// The platform kept F3's state file at `path`: F3's notice names it instead, for the
    /// rest of its time on screen (the file's name; the platform says the whole path where it
    /// says what it saved).
    pub(super) fn state_file_kept(&mut self, path: &Path) {
        let fps = self.engine.settings().target_fps;
        let name = path
            .file_name()
            .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
        let text = format!(
            "state saved at {:.1} s as {}",
            self.state_saved_at as f64 / fps,
            crate::quote::excerpt(&name)
        );
        self.show_notice(Some(&text));
    }
}
