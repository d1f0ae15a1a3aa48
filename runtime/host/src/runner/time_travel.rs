//! The host's time travel: holding [`REWIND_KEY`] runs the played run backwards, faster the
//! longer it is held, and [`SAVE_STATE_KEY`] and [`LOAD_STATE_KEY`] keep and load one state
//! for the session (see `docs/time-travel.md`).
//!
//! A rewind goes back one update at a time ([`Engine::travel_to`](crate::engine::Engine::travel_to)):
//! every update the run passes going back is drawn, one per displayed frame at 1x, and the
//! sound those updates made plays backwards. The engine is paused throughout; releasing the
//! key plays on from the update reached, and a recording branches there.

use bt::Key;

use super::{Host, HostAction};
use crate::engine::SaveState;

/// Held, runs the played run backwards. F1: of the keys no cart and no key map reaches (the
/// host's), a free one next to F2; Backspace types and is a Start key elsewhere, and a key
/// with a modifier would let the key itself reach the cart.
pub const REWIND_KEY: Key = Key::F1;

/// Saves the run as it is now into the session's one state slot.
pub const SAVE_STATE_KEY: Key = Key::F3;

/// Loads the state [`SAVE_STATE_KEY`] saved.
pub const LOAD_STATE_KEY: Key = Key::F4;

/// How fast a rewind runs after the key has been held `held_ms`, in updates of play per update
/// of time: 1x for the first second, then 2x, then 4x, and [`REWIND_TOP_SPEED`] from the third
/// second on.
pub fn rewind_speed(held_ms: f64) -> f64 {
    match held_ms {
        t if t < 1000.0 => 1.0,
        t if t < 2000.0 => 2.0,
        t if t < 3000.0 => 4.0,
        _ => REWIND_TOP_SPEED,
    }
}

/// The fastest a held rewind runs: 8 seconds of play a second.
pub const REWIND_TOP_SPEED: f64 = 8.0;

/// A rewind in progress: the key is held.
#[derive(Debug)]
pub(super) struct Rewinding {
    /// The update the rewind began at.
    from: u64,
    /// How far back time has run, in updates since `init` (it runs smoothly; the engine goes
    /// to each update it passes).
    position: f64,
    /// When the first frame of the rewind was, and the last, in host milliseconds.
    started_ms: Option<f64>,
    last_ms: Option<f64>,
    /// Whether the engine was paused before, so that it stays paused after.
    was_paused: bool,
    /// The notice on screen, so that it is drawn again only when it changes.
    shown: String,
    /// Going back failed (the cart cannot be copied, no snapshots are kept): no more tries.
    stuck: bool,
}

/// The session's save state, and the rewind in progress.
#[derive(Debug, Default)]
pub(super) struct TimeTravel {
    pub(super) rewinding: Option<Rewinding>,
    pub(super) timeline: Option<super::timeline::TimelineOpen>,
    slot: Option<SaveState>,
}

/// Seconds of play between updates `later` and `earlier` at `fps`.
fn seconds_back(later: u64, earlier: u64, fps: f64) -> f64 {
    later.saturating_sub(earlier) as f64 / fps
}

impl Host {
    /// Whether the rewind key is held: the platform keeps making frames while it is, though
    /// the engine is paused.
    pub fn is_rewinding(&self) -> bool {
        self.time_travel.rewinding.is_some()
    }

    /// The rewind key went down: live play stops where it is.
    pub(super) fn start_rewind(&mut self) -> Option<HostAction> {
        if self.time_travel.rewinding.is_some() {
            return None;
        }
        let was_paused = self.engine.is_paused();
        self.engine.pause();
        self.notice_frames = 0;
        let from = self.engine.updates_since_init();
        self.time_travel.rewinding = Some(Rewinding {
            from,
            position: from as f64,
            started_ms: None,
            last_ms: None,
            was_paused,
            shown: String::new(),
            stuck: false,
        });
        self.rewind_notice(None);
        Some(HostAction::Rewinding)
    }

    /// One frame while the rewind key is held, at `now_ms`: time runs back by the frame's
    /// length times the speed, and the engine goes to the update time has reached, drawing
    /// it; the sound of the updates passed plays backwards, as fast as the rewind runs.
    pub(super) fn rewind_frame(&mut self, now_ms: f64) {
        let fps = self.engine.settings().target_fps;
        let here = self.engine.updates_since_init();
        let Some(r) = &mut self.time_travel.rewinding else {
            return;
        };
        let started = *r.started_ms.get_or_insert(now_ms);
        // The first frame of a rewind already goes back one update: the key's answer is seen
        // at once.
        let elapsed = match r.last_ms {
            Some(last) => (now_ms - last).max(0.0),
            None => 1000.0 / fps,
        };
        r.last_ms = Some(now_ms);
        let speed = rewind_speed(now_ms - started);
        r.position = (r.position - elapsed / 1000.0 * fps * speed).max(0.0);
        // The update time has reached: the picture keeps pace with it, one update at a time
        // (a millionth of an update of rounding in the frames' lengths is none).
        let target = (r.position - 1e-6).ceil().max(0.0) as u64;
        if r.stuck || target >= here {
            return;
        }
        self.engine.set_travel_sound_step(speed as usize);
        let result = self.engine.travel_to(target);
        self.show_panic();
        let problem = result.err().map(|e| format!("rewind: {e}"));
        if let (Some(message), Some(r)) = (&problem, &mut self.time_travel.rewinding) {
            r.stuck = true;
            self.say(format_args!("{message}"));
        }
        if let (Some(r), Some(span)) = (&mut self.time_travel.rewinding, self.engine.travel_span())
        {
            // Time cannot run back past the first update the engine can reach.
            r.position = r.position.max(span.first as f64);
        }
        self.rewind_notice(problem.as_deref());
    }

    /// Shows how far back the rewind is, or `problem`, as the notice, when it changed.
    fn rewind_notice(&mut self, problem: Option<&str>) {
        let fps = self.engine.settings().target_fps;
        let here = self.engine.updates_since_init();
        let ticks = self.engine.ticks();
        let Some(r) = &mut self.time_travel.rewinding else {
            return;
        };
        let text = match problem {
            Some(problem) => problem.to_string(),
            None => format!("rewind -{:.1} s", seconds_back(r.from, here, fps)),
        };
        if text == r.shown {
            return;
        }
        r.shown.clone_from(&text);
        if let Some(o) = self.engine.overlay_mut() {
            o.set_paused(Some(ticks));
        }
        self.show_notice(Some(&text));
    }

    /// The rewind key came up: play goes on from where the rewind reached, unless the run was
    /// paused before (or the pause menu is open).
    pub(super) fn end_rewind(&mut self) -> Option<HostAction> {
        let r = self.time_travel.rewinding.take()?;
        self.show_notice(None);
        if !r.was_paused && self.menu.is_none() {
            self.engine.resume();
        }
        self.show_paused();
        Some(HostAction::Rewound(self.engine.updates_since_init()))
    }

    /// Saves the run as it is now into the slot, replacing what it held, and as a file for the
    /// platform to keep (in the outbox).
    pub(super) fn save_state(&mut self) -> Option<HostAction> {
        let fps = self.engine.settings().target_fps;
        match self.engine.save_state() {
            Ok(state) => {
                let updates = state.updates();
                self.time_travel.slot = Some(state);
                self.make_state_file();
                let at = seconds_back(updates, 0, fps);
                self.notice_for_a_while(&format!(
                    "state saved at {at:.1} s ({} loads it)",
                    LOAD_STATE_KEY.code()
                ));
                Some(HostAction::StateSaved(updates))
            }
            Err(e) => self.state_failed(format!("save state: {e}")),
        }
    }

    /// Loads the state in the slot; play goes on from it unless the run was paused.
    pub(super) fn load_state(&mut self) -> Option<HostAction> {
        let fps = self.engine.settings().target_fps;
        let Some(state) = &self.time_travel.slot else {
            return self.state_failed(format!(
                "load state: no state saved yet ({} saves one)",
                SAVE_STATE_KEY.code()
            ));
        };
        let was_paused = self.engine.is_paused();
        let loaded = self.engine.load_state(state);
        self.show_panic();
        if let Err(e) = loaded {
            return self.state_failed(format!("load state: {e}"));
        }
        if !was_paused {
            self.engine.resume();
        }
        self.show_paused();
        let updates = self.engine.updates_since_init();
        let at = seconds_back(updates, 0, fps);
        self.notice_for_a_while(&format!("state loaded: {at:.1} s"));
        Some(HostAction::StateLoaded(updates))
    }

    fn state_failed(&mut self, message: String) -> Option<HostAction> {
        self.say(format_args!("{message}"));
        self.notice_for_a_while(&message);
        Some(HostAction::StateFailed(message))
    }

    /// Shows `text` as the notice until [`NOTICE_FRAMES`] frames have been shown.
    pub(super) fn notice_for_a_while(&mut self, text: &str) {
        self.show_notice(Some(text));
        self.notice_frames = NOTICE_FRAMES;
    }

    /// After a frame: takes a passing notice away once its frames are over.
    pub(super) fn expire_notice(&mut self) {
        if self.notice_frames > 0 {
            self.notice_frames -= 1;
            if self.notice_frames == 0 {
                self.show_notice(None);
            }
        }
    }
}

/// Frames a save state's notice stays: two seconds at 60 frames a second.
const NOTICE_FRAMES: u32 = 120;
