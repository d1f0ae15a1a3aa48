//! The player: a replay's ticks handed out one update at a time.

use std::sync::Arc;

use bt::host::TickInput;

use super::Replay;

/// Plays a replay's ticks back one update at a time, then reports it ran out.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    replay: Arc<Replay>,
    run: usize,
    used: u64,
}

impl Player {
    pub(crate) fn new(replay: Arc<Replay>) -> Player {
        Player {
            replay,
            run: 0,
            used: 0,
        }
    }

    /// The next update's input, or `None` once the replay is over.
    pub(crate) fn next(&mut self) -> Option<&TickInput> {
        let runs = &self.replay.recording().runs;
        while let Some(r) = runs.get(self.run) {
            if self.used < r.count {
                self.used += 1;
                return Some(&r.tick);
            }
            self.run += 1;
            self.used = 0;
        }
        None
    }

    /// Back to the first tick (a seek from the start).
    pub(crate) fn rewind(&mut self) {
        self.run = 0;
        self.used = 0;
    }

    pub(crate) fn replay(&self) -> &Replay {
        &self.replay
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Recorder, ReplayInfo};
    use bt::BTN_A;

    #[test]
    fn a_player_hands_out_every_tick_then_runs_out() {
        let mut rec = Recorder::new();
        let mut t = TickInput::default();
        for n in 0..300u32 {
            t.buttons[0].down = if n % 50 < 10 { BTN_A } else { 0 };
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
        };
        let r = Replay::new(info, rec, Vec::new());
        let want: Vec<TickInput> = r.recording().iter().copied().collect();
        let mut p = Player::new(Arc::new(r));
        let mut got = Vec::new();
        while let Some(t) = p.next() {
            got.push(*t);
        }
        assert_eq!(got, want);
        p.rewind();
        assert_eq!(p.next(), want.first());
    }
}
