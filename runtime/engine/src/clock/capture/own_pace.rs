//! A capture played at its own pace (`bt run --clock capture:FILE --capture-pace real`): each
//! captured frame comes its captured interval after the one before, in the host's time, rather
//! than one a host refresh. The frame times it hands the engine are the capture's, in order,
//! whichever way it is paced, so the updates run and the pictures drawn are the same; only when
//! the window shows them changes.

use std::fmt;
use std::sync::Arc;

use super::{Capture, Say};
use crate::clock::{Clock, SLOT_TOLERANCE_MS};

/// How far behind its captured times a capture played at its own pace may fall before it
/// starts its timeline again from the host's time: a window hidden or stalled for longer would
/// otherwise rush through every frame it missed, one a refresh, to catch up.
pub const OWN_PACE_RESYNC_MS: f64 = 250.0;

/// A capture's frames, each due its captured interval after the one before (see the module).
pub struct OwnPace {
    capture: Arc<Capture>,
    /// The next frame to hand out.
    next: usize,
    /// When it is due, in host ms: `None` before the first frame (it comes at once).
    due_ms: Option<f64>,
    /// Told once, when the capture has run out.
    say: Option<Say>,
}

impl fmt::Debug for OwnPace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnPace")
            .field("next", &self.next)
            .field("due_ms", &self.due_ms)
            .field("said", &self.say.is_none())
            .finish()
    }
}

impl Capture {
    /// A clock playing the capture once at its own pace (see [`OwnPace`]), handing `say` one
    /// line ([`Capture::end_text`]) the first time it has no frame left, as
    /// [`Capture::clock_saying_its_end`] does.
    pub fn clock_at_its_own_pace(self: &Arc<Self>, say: impl FnMut(&str) + 'static) -> OwnPace {
        OwnPace {
            capture: Arc::clone(self),
            next: 0,
            due_ms: None,
            say: Some(Box::new(say)),
        }
    }
}

impl Clock for OwnPace {
    fn next_frame_ms(&self) -> Option<f64> {
        self.due_ms.filter(|_| self.next < self.capture.len())
    }

    fn delta(&mut self, now_ms: f64) -> Option<f64> {
        let frames = self.capture.frames_ms();
        if self.next == frames.len() {
            if let Some(mut say) = self.say.take() {
                say(&self.capture.end_text());
            }
            return None;
        }
        // Each frame's due time follows the one before's due time, not the tick that showed
        // it, so a late tick shortens the next wait and the run keeps the capture's length.
        let on_time = match self.due_ms {
            Some(due) if now_ms < due - SLOT_TOLERANCE_MS => return None,
            Some(due) if now_ms - due < OWN_PACE_RESYNC_MS => due,
            _ => now_ms,
        };
        let delta = frames[self.next];
        self.next += 1;
        self.due_ms = frames.get(self.next).map(|next| on_time + next);
        Some(delta)
    }

    /// After a pause the next frame comes at once, and the ones after it their captured
    /// intervals on: the paused time is not caught up.
    fn restart(&mut self) {
        self.due_ms = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(frames: &[f64]) -> Arc<Capture> {
        let text: String = frames.iter().map(|ms| format!("{ms}\n")).collect();
        Arc::new(Capture::parse(&text, "pace.txt", None).unwrap())
    }

    #[test]
    fn each_frame_comes_its_captured_interval_after_the_one_before() {
        let c = capture(&[16.0, 50.0, 8.0, 100.0]);
        let mut clock = c.clock_at_its_own_pace(|_| {});
        // A host asking every millisecond from 1000 ms on: the first frame at once, then 50,
        // 8 and 100 ms apart.
        let mut shown = Vec::new();
        let mut now = 1000.0;
        while shown.len() < 4 && now < 2000.0 {
            if let Some(d) = clock.delta(now) {
                shown.push((now, d));
            }
            now += 1.0;
        }
        assert_eq!(
            shown,
            [
                (1000.0, 16.0),
                (1050.0, 50.0),
                (1058.0, 8.0),
                (1158.0, 100.0)
            ]
        );
        assert_eq!(clock.next_frame_ms(), None, "nothing is due after the last");
    }

    #[test]
    fn its_frame_times_are_the_captures_in_order_whatever_the_hosts_ticks() {
        let c = capture(&[16.7, 33.4, 16.7, 250.0, 16.7, 8.3]);
        let mut plain = c.clock(false);
        let host_paced: Vec<f64> = std::iter::from_fn(|| plain.delta(0.0)).collect();
        let mut own = c.clock_at_its_own_pace(|_| {});
        // A host ticking at 144 Hz, late now and then.
        let mut own_paced = Vec::new();
        for tick in 0..400 {
            let now = f64::from(tick) * 1000.0 / 144.0 + if tick % 7 == 0 { 3.0 } else { 0.0 };
            if let Some(d) = own.delta(now) {
                own_paced.push(d);
                let due = own.next_frame_ms();
                assert!(
                    due.is_none_or(|due| due > now),
                    "the next frame is still ahead"
                );
            }
        }
        assert_eq!(own_paced, host_paced);
    }

    #[test]
    fn a_host_far_behind_starts_the_captures_timeline_again_and_a_pause_is_not_caught_up() {
        let c = capture(&[10.0, 10.0, 10.0, 10.0]);
        let mut clock = c.clock_at_its_own_pace(|_| {});
        assert_eq!(clock.delta(0.0), Some(10.0));
        assert_eq!(clock.next_frame_ms(), Some(10.0));
        // A second late: one frame now, the next 10 ms after it, not at once.
        assert_eq!(clock.delta(1000.0), Some(10.0));
        assert_eq!(clock.next_frame_ms(), Some(1010.0));
        clock.restart();
        assert_eq!(
            clock.delta(5000.0),
            Some(10.0),
            "the first after a pause, at once"
        );
        assert_eq!(clock.next_frame_ms(), Some(5010.0));
    }

    #[test]
    fn it_says_once_when_the_capture_runs_out() {
        use std::cell::RefCell;
        use std::rc::Rc;
        let said = Rc::new(RefCell::new(Vec::new()));
        let heard = Rc::clone(&said);
        let c = capture(&[10.0]);
        let mut clock =
            c.clock_at_its_own_pace(move |line| heard.borrow_mut().push(line.to_string()));
        assert_eq!(clock.delta(0.0), Some(10.0));
        for now in [20.0, 30.0, 40.0] {
            assert_eq!(clock.delta(now), None);
        }
        assert_eq!(said.borrow().len(), 1);
        assert!(said.borrow()[0].starts_with("capture 'pace.txt' played out"));
    }
}
