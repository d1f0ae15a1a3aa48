//! The player: a replay's ticks handed out one update at a time.

use std::sync::Arc;

use bt::host::TickInput;

use super::recorder::Cursor;
use super::InputScript;
use super::Replay;

/// Plays a replay's ticks back one update at a time, then reports it ran out.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    replay: Arc<Replay>,
    cursor: Cursor,
    /// Ticks handed out from a generated replay's script.
    used: u64,
    /// A generated replay's script, and the tick it made last.
    script: Option<(InputScript, TickInput)>,
}

impl Player {
    pub(crate) fn new(replay: Arc<Replay>) -> Player {
        let script = replay
            .script()
            .map(|seed| (InputScript::new(seed), TickInput::default()));
        Player {
            replay,
            cursor: Cursor::default(),
            used: 0,
            script,
        }
    }

    /// The next update's input, or `None` once the replay is over.
    pub(crate) fn next(&mut self) -> Option<&TickInput> {
        if let Some((script, tick)) = &mut self.script {
            if self.used >= self.replay.ticks() {
                return None;
            }
            self.used += 1;
            *tick = script.next_tick();
            // The script plays the player's preference the run booted with throughout.
            tick.reduced_motion = self.replay.info.reduced_motion;
            return Some(tick);
        }
        self.cursor.next(self.replay.recording())
    }

    /// Back to the first tick (a seek from the start).
    pub(crate) fn rewind(&mut self) {
        self.cursor = Cursor::default();
        self.used = 0;
        if let Some(seed) = self.replay.script() {
            self.script = Some((InputScript::new(seed), TickInput::default()));
        }
    }

    pub(crate) fn replay(&self) -> &Replay {
        &self.replay
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Recorder, ReplayInfo};

    #[test]
    fn a_player_hands_out_every_tick_then_runs_out() {
        let mut rec = Recorder::new();
        let mut t = TickInput::default();
        for n in 0..300u32 {
            t.buttons[0].down = if n % 50 < 10 { bt::Button::A.bits() } else { 0 };
            rec.record(&t);
        }
        let info = ReplayInfo {
            cart: "snake".to_string(),
            cart_version: None,
            seed: 7,
            target_fps: 60.0,
            width: 128,
            height: 96,
            args: Vec::new(),
            hash_every: 60,
            reduced_motion: false,
        };
        let r = Replay::new(info, rec, Vec::new());
        let want: Vec<TickInput> = r.recording().iter().collect();
        let mut p = Player::new(Arc::new(r));
        let mut got = Vec::new();
        while let Some(t) = p.next() {
            got.push(*t);
        }
        assert_eq!(got, want);
        p.rewind();
        assert_eq!(p.next(), want.first());
    }

    #[test]
    fn a_generated_replay_plays_its_script_as_recorded() {
        let want: Vec<TickInput> = crate::replay::input_script(9, 500).iter().collect();
        let r = crate::replay::script_replay("hello", 9, 60.0, 500);
        assert_eq!(r.ticks(), 500);
        let mut p = Player::new(Arc::new(r.clone()));
        let mut got = Vec::new();
        while let Some(t) = p.next() {
            got.push(*t);
        }
        assert_eq!(got, want);
        p.rewind();
        assert_eq!(p.next(), want.first());
        // Saved, it is the recording of the same ticks.
        let back = Replay::from_json(&r.to_json(), "s.btr".as_ref()).unwrap();
        assert_eq!(back.recording().iter().collect::<Vec<_>>(), want);
    }
}
