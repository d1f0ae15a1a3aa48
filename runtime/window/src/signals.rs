//! Ctrl-C, SIGTERM and SIGHUP as a request to close the window, so that `bt run --record` ends
//! the way closing the window does and saves its file. A second signal ends the process at
//! once, for a run that no longer answers.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of a process ended by a second Ctrl-C: 128 + SIGINT, as shells report it.
const EXIT_ON_SECOND_SIGNAL: i32 = 130;

/// Catches the signals from now on. Returns whether the handler is in place (only one can be
/// per process; a second call keeps the first).
pub fn install() -> bool {
    ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_ON_SECOND_SIGNAL);
        }
    })
    .is_ok()
}

/// Whether a signal asked the run to end.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
