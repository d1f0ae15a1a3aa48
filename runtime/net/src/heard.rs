//! The sound a peer passes on to be heard: each update's once, and a rollback's correction
//! joined to what was already heard without a click.
//!
//! An update first run on a guess of another player's input is heard at once; its samples are
//! in the speaker's queue, or played, before the rollback that corrects it. So the correction
//! of the updates run again is not heard: their samples are dropped. From the next new update
//! on, the sound is the corrected run's. Where the guess and the correction made different
//! sound, the corrected run's next sample is not the one the guessed run would have played, and
//! the wave would jump there: a click. So the difference between the last sample heard and the
//! corrected run's sample at that point is added to the new samples and faded out over
//! [`JOIN_MS`]: the wave leaves the guessed run's level and reaches the corrected run's
//! smoothly. Where the guess was right the difference is zero and nothing changes.

use bt::sound::Frame;

/// How long a rollback's correction takes to reach its own level from the level last heard:
/// short enough that the corrected sound is heard as it is almost at once, long enough (about
/// 200 samples) that a step of the full range is a slope, not a click.
pub const JOIN_MS: u32 = 4;

/// The sound of the updates run for the first time, until the host takes it.
#[derive(Debug, Default)]
pub(crate) struct Heard {
    samples: Vec<Frame>,
    /// The last update whose sound went to `samples`: an update run again after a rollback
    /// adds none, so no update is heard twice.
    through: u64,
    /// The last sample passed on.
    last: Option<Frame>,
    /// The last sample of an update run again since the last new one: where the corrected run
    /// stands when its next new update starts (`None`: no update was run again).
    corrected: Option<Frame>,
}

impl Heard {
    /// Takes the samples of `update`, just run, from `made` (the console's): passed on if the
    /// update is new, dropped if it was run before. `rate` is the console's sample rate: at
    /// most a second is kept for a host that never takes it.
    pub(crate) fn take(&mut self, update: u64, made: impl Iterator<Item = Frame>, rate: u32) {
        if update <= self.through {
            if let Some(last) = made.last() {
                self.corrected = Some(last);
            }
            return;
        }
        self.through = update;
        let start = self.samples.len();
        self.samples.extend(made);
        if let (Some(heard), Some(corrected)) = (self.last, self.corrected.take()) {
            let joining = (rate * JOIN_MS / 1000) as usize;
            join(
                &mut self.samples[start..],
                offset(heard, corrected),
                joining,
            );
        }
        if let Some(&last) = self.samples.last() {
            self.last = Some(last);
        }
        let keep = rate as usize;
        if self.samples.len() > keep {
            let extra = self.samples.len() - keep;
            self.samples.drain(..extra);
        }
    }

    /// The samples passed on since the last call.
    pub(crate) fn drain(&mut self) -> std::vec::Drain<'_, Frame> {
        self.samples.drain(..)
    }
}

/// How far `heard` stands from `corrected`, each channel.
fn offset(heard: Frame, corrected: Frame) -> [i32; 2] {
    [
        i32::from(heard[0]) - i32::from(corrected[0]),
        i32::from(heard[1]) - i32::from(corrected[1]),
    ]
}

/// Adds `offset` to the first `over` samples, fading linearly from all of it (the first) to
/// none (the `over`-th and after), clamped to the samples' range.
fn join(samples: &mut [Frame], offset: [i32; 2], over: usize) {
    if offset == [0, 0] || over == 0 {
        return;
    }
    let over_i = i64::try_from(over).unwrap_or(i64::MAX);
    for (i, frame) in samples.iter_mut().take(over).enumerate() {
        let left = over_i - i64::try_from(i).unwrap_or(over_i);
        for (sample, &d) in frame.iter_mut().zip(&offset) {
            let moved = i64::from(*sample) + i64::from(d) * left / over_i;
            *sample = moved.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: u32 = 48_000;

    fn tone(level: i16, n: usize) -> Vec<Frame> {
        vec![[level, -level]; n]
    }

    #[test]
    fn each_update_is_passed_on_once_and_a_right_guess_changes_nothing() {
        let mut heard = Heard::default();
        heard.take(1, tone(100, 800).into_iter(), RATE);
        heard.take(2, tone(100, 800).into_iter(), RATE);
        // A rollback over update 2 whose correction sounds as the guess did.
        heard.take(2, tone(100, 800).into_iter(), RATE);
        heard.take(3, tone(100, 800).into_iter(), RATE);
        let out: Vec<Frame> = heard.drain().collect();
        assert_eq!(out, tone(100, 2400));
    }

    #[test]
    fn a_correction_that_sounds_otherwise_starts_where_the_guess_left_off_and_reaches_its_own_level(
    ) {
        let mut heard = Heard::default();
        heard.take(1, tone(0, 800).into_iter(), RATE);
        heard.take(2, tone(0, 800).into_iter(), RATE);
        heard.drain().for_each(drop);
        // The corrected run of update 2 is loud: it is dropped, and update 3 joins it.
        heard.take(2, tone(20_000, 800).into_iter(), RATE);
        heard.take(3, tone(20_000, 800).into_iter(), RATE);
        let out: Vec<Frame> = heard.drain().collect();
        assert_eq!(out.len(), 800);
        let joining = (RATE * JOIN_MS / 1000) as usize;
        // It starts at the level last heard and rises without a step of more than its share.
        assert_eq!(out[0], [0, 0]);
        let most_step = out
            .windows(2)
            .map(|w| (i32::from(w[1][0]) - i32::from(w[0][0])).abs())
            .max()
            .unwrap();
        assert!(most_step <= 20_000 / joining as i32 + 1, "{most_step}");
        // Past the join it is the corrected run's own sound, on both channels.
        assert!(out[joining..].iter().all(|&f| f == [20_000, -20_000]));
    }

    #[test]
    fn a_join_is_made_once_after_each_rollback() {
        let mut heard = Heard::default();
        heard.take(1, tone(0, 800).into_iter(), RATE);
        heard.take(1, tone(1000, 800).into_iter(), RATE);
        heard.take(2, tone(1000, 800).into_iter(), RATE);
        heard.take(3, tone(1000, 800).into_iter(), RATE);
        let out: Vec<Frame> = heard.drain().collect();
        assert_eq!(out[800][0], 0, "update 2 starts at the level heard");
        assert!(
            out[1600..].iter().all(|&f| f == [1000, -1000]),
            "update 3 is not joined again"
        );
    }

    #[test]
    fn a_join_near_full_scale_is_clamped_not_wrapped() {
        let mut samples = vec![[i16::MAX, i16::MIN]; 10];
        join(&mut samples, [60_000, -60_000], 5);
        assert!(samples.iter().all(|&f| f == [i16::MAX, i16::MIN]));
    }

    #[test]
    fn at_most_a_second_is_kept_for_a_host_that_never_takes_it() {
        let mut heard = Heard::default();
        for update in 1..=120 {
            heard.take(update, tone(5, 800).into_iter(), RATE);
        }
        assert_eq!(heard.drain().len(), RATE as usize);
    }
}
