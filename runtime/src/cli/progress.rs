//! A progress bar with an ETA on stderr for headless work that takes a while: a long seek, a
//! long trace or diagnosis, a GIF, a WAV, a PNG sequence, a proof of timing independence. It
//! appears only once the work has run for [`SHOW_AFTER`] (or what [`SHOW_AFTER_VAR`] says),
//! only when stderr is a terminal, and never with `--quiet`; it is cleared when the work ends.
//!
//! Ctrl-C needs nothing of it: the bar hides no cursor and changes no terminal mode, so the
//! terminal is left as it was, and the outputs under way are unnamed files the system removes
//! (see [`crate::export::safe_write`]).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this shows no bar: a bar that flashes up and away is noise.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// The variable that replaces [`SHOW_AFTER`]: how long work runs before its bar shows, in whole
/// milliseconds. `0` shows the bar at the first news of the work, so a test of the bar needs no
/// second of work to see one.
pub(super) const SHOW_AFTER_VAR: &str = "BT_PROGRESS_AFTER_MS";

/// The most [`SHOW_AFTER_VAR`] takes: an hour.
const MAX_SHOW_AFTER_MS: u64 = 3_600_000;

/// How long work runs before its bar shows: [`SHOW_AFTER_VAR`]'s value when it is set and not
/// empty, else [`SHOW_AFTER`].
///
/// # Errors
/// A one-line message naming the variable and its value when that is not a whole number of
/// milliseconds up to an hour.
pub(super) fn show_after() -> Result<Duration, String> {
    show_after_from(std::env::var_os(SHOW_AFTER_VAR).as_deref())
}

fn show_after_from(value: Option<&std::ffi::OsStr>) -> Result<Duration, String> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(SHOW_AFTER);
    };
    let text = value.to_string_lossy();
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|ms| *ms <= MAX_SHOW_AFTER_MS)
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!(
                "{SHOW_AFTER_VAR}='{}': give whole milliseconds from 0 to {MAX_SHOW_AFTER_MS}",
                crate::quote::excerpt(&text)
            )
        })
}

/// How the bar looks: what is going on, the bar, how far, and the estimated time left.
const TEMPLATE: &str = "{prefix} [{bar:30}] {percent:>3}% {pos}/{len} ETA {eta}";

/// How far some work has come, shown as a bar when it runs long and stderr is a terminal.
pub(super) struct Progress {
    what: String,
    started: Instant,
    /// How long the work runs before the bar shows.
    show_after: Duration,
    /// `None` until shown, and for ever when the bar is not wanted.
    bar: Option<ProgressBar>,
    wanted: bool,
    /// Where a shown bar is drawn: stderr, except in the module's tests.
    draw_to: fn() -> ProgressDrawTarget,
}

impl Progress {
    /// Progress of `what` (e.g. "seeking to --at 300"), from now. `quiet` turns it off.
    pub(super) fn new(what: impl Into<String>, quiet: bool) -> Progress {
        Progress {
            what: what.into(),
            started: Instant::now(),
            // The command line checked the variable before any command ran.
            show_after: show_after().unwrap_or(SHOW_AFTER),
            bar: None,
            wanted: !quiet && std::io::stderr().is_terminal(),
            draw_to: ProgressDrawTarget::stderr,
        }
    }

    /// `done` steps of `total` are done. A new `total` starts the next stage of the work on
    /// the same bar.
    pub(super) fn set(&mut self, done: u64, total: u64) {
        if self.bar.is_some() || self.wanted {
            self.set_after(done, total, self.started.elapsed());
        }
    }

    /// [`Progress::set`] when the work has run for `elapsed`: the seam the tests drive, so
    /// no test waits for the threshold.
    fn set_after(&mut self, done: u64, total: u64, elapsed: Duration) {
        if let Some(bar) = &self.bar {
            if bar.length() != Some(total) {
                bar.set_length(total);
            }
            bar.set_position(done);
        } else if self.wanted && elapsed >= self.show_after {
            let style = ProgressStyle::with_template(TEMPLATE)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(Some(total), (self.draw_to)())
                .with_style(style)
                .with_prefix(self.what.clone())
                .with_elapsed(elapsed)
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

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::*;

    /// A bar that is wanted, shows after `show_after`, and is drawn nowhere.
    fn hidden(show_after: Duration) -> Progress {
        Progress {
            what: "testing".to_string(),
            started: Instant::now(),
            show_after,
            bar: None,
            wanted: true,
            draw_to: ProgressDrawTarget::hidden,
        }
    }

    fn shown(p: &Progress) -> Option<(u64, Option<u64>)> {
        p.bar.as_ref().map(|b| (b.position(), b.length()))
    }

    #[test]
    fn the_bar_shows_once_the_work_has_run_past_the_threshold() {
        let mut p = hidden(Duration::from_secs(1));
        p.set_after(1, 10, Duration::from_millis(999));
        assert_eq!(shown(&p), None);
        p.set_after(2, 10, Duration::from_secs(1));
        assert_eq!(shown(&p), Some((2, Some(10))));
        // Once shown it follows the work, whatever the time, and a new total is a new stage.
        p.set_after(3, 10, Duration::ZERO);
        assert_eq!(shown(&p), Some((3, Some(10))));
        p.set_after(5, 40, Duration::ZERO);
        assert_eq!(shown(&p), Some((5, Some(40))));
    }

    #[test]
    fn a_threshold_of_zero_shows_the_bar_at_the_first_news() {
        let mut p = hidden(Duration::ZERO);
        p.set_after(0, 7, Duration::ZERO);
        assert_eq!(shown(&p), Some((0, Some(7))));
    }

    #[test]
    fn a_bar_not_wanted_never_shows() {
        let mut p = hidden(Duration::ZERO);
        p.wanted = false;
        p.set(4, 8);
        p.set_after(5, 8, Duration::from_secs(3600));
        assert_eq!(shown(&p), None);
    }

    #[test]
    fn the_threshold_comes_from_its_variable_or_is_a_second() {
        assert_eq!(show_after_from(None), Ok(Duration::from_secs(1)));
        assert_eq!(show_after_from(Some(OsStr::new(""))), Ok(SHOW_AFTER));
        assert_eq!(show_after_from(Some(OsStr::new("0"))), Ok(Duration::ZERO));
        assert_eq!(
            show_after_from(Some(OsStr::new("250"))),
            Ok(Duration::from_millis(250))
        );
        for bad in ["-1", "1.5", "soon", "3600001"] {
            assert_eq!(
                show_after_from(Some(OsStr::new(bad))),
                Err(format!(
                    "BT_PROGRESS_AFTER_MS='{bad}': give whole milliseconds from 0 to 3600000"
                )),
            );
        }
    }
}
