//! A progress bar with an ETA on stderr for headless work that takes a while: a long seek, a
//! long trace or diagnosis, a GIF, a WAV, a PNG sequence, a proof of timing independence. It
//! appears only once the work has run for [`SHOW_AFTER`], only when stderr is a terminal, and
//! never with `--quiet`; it is cleared when the work ends.
//!
//! Ctrl-C needs nothing of it: the bar hides no cursor and changes no terminal mode, so the
//! terminal is left as it was, and the outputs under way are unnamed files the system removes
//! (see [`crate::export::safe_write`]).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this shows no bar: a bar that flashes up and away is noise.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How the bar looks: what is going on, the bar, how far, and the estimated time left.
const TEMPLATE: &str = "{prefix} [{bar:30}] {percent:>3}% {pos}/{len} ETA {eta}";

/// How far some work has come, shown as a bar when it runs long and stderr is a terminal.
pub(super) struct Progress {
    what: String,
    started: Instant,
    /// `None` until shown, and for ever when the bar is not wanted.
    bar: Option<ProgressBar>,
    wanted: bool,
}

impl Progress {
    /// Progress of `what` (e.g. "seeking to --at 300"), from now. `quiet` turns it off.
    pub(super) fn new(what: impl Into<String>, quiet: bool) -> Progress {
        Progress {
            what: what.into(),
            started: Instant::now(),
            bar: None,
            wanted: !quiet && std::io::stderr().is_terminal(),
        }
    }

    /// `done` steps of `total` are done. A new `total` starts the next stage of the work on
    /// the same bar.
    pub(super) fn set(&mut self, done: u64, total: u64) {
        if let Some(bar) = &self.bar {
            if bar.length() != Some(total) {
                bar.set_length(total);
            }
            bar.set_position(done);
        } else if self.wanted && self.started.elapsed() >= SHOW_AFTER {
            let style = ProgressStyle::with_template(TEMPLATE)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_prefix(self.what.clone())
                .with_elapsed(self.started.elapsed())
                .with_position(done);
            bar.tick();
            self.bar = Some(bar);
        }
    }
}

impl Drop for Progress {
    /// Takes the bar off the screen, however the work ended.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
