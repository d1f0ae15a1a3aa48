//! How many samples each update makes, with the fraction carried so nothing drifts.

/// Deals out `sample_rate / target_fps` samples per update, carrying the fraction exactly.
///
/// `target_fps` is taken to the nearest thousandth (BT's smallest rate is 0.001 fps), so the
/// sum after `n` updates is always `floor(n × sample_rate × 1000 / fps_thousandths)`: no
/// drift however long the run.
///
/// ```
/// use bt::sound::SampleClock;
///
/// let mut clock = SampleClock::new(48_000, 144.0);
/// let three: Vec<u32> = (0..3).map(|_| clock.next_tick()).collect();
/// assert_eq!(three, [333, 333, 334]);
/// assert_eq!(SampleClock::new(44_100, 60.0).next_tick(), 735);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleClock {
    /// `sample_rate × 1000`: the numerator added each update.
    per_tick: u64,
    /// `target_fps × 1000`, at least 1: the denominator.
    fps_milli: u64,
    /// The fraction carried, in `1 / fps_milli` samples.
    carry: u64,
}

impl SampleClock {
    /// A clock for `sample_rate` samples a second at `target_fps` updates a second (a rate
    /// that is not finite or below 0.001 counts as 0.001).
    pub fn new(sample_rate: u32, target_fps: f64) -> SampleClock {
        let milli = (target_fps * 1000.0).round();
        let fps_milli = if milli.is_finite() && milli >= 1.0 {
            milli as u64
        } else {
            1
        };
        SampleClock {
            per_tick: u64::from(sample_rate) * 1000,
            fps_milli,
            carry: 0,
        }
    }

    /// The samples of the next update.
    pub fn next_tick(&mut self) -> u32 {
        self.carry += self.per_tick;
        let n = self.carry / self.fps_milli;
        self.carry %= self.fps_milli;
        n as u32
    }

    /// The most samples one update can make.
    pub fn max_per_tick(&self) -> u64 {
        self.per_tick.div_ceil(self.fps_milli)
    }

    /// The samples the first `ticks` updates make together.
    pub fn samples_in(&self, ticks: u64) -> u64 {
        (u128::from(ticks) * u128::from(self.per_tick) / u128::from(self.fps_milli)) as u64
    }

    /// Back to the first update.
    pub fn reset(&mut self) {
        self.carry = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(rate: u32, fps: f64, ticks: u64) -> u64 {
        let mut c = SampleClock::new(rate, fps);
        (0..ticks).map(|_| u64::from(c.next_tick())).sum()
    }

    #[test]
    fn a_million_updates_make_exactly_rate_over_fps_samples_each_with_no_drift() {
        for rate in [44_100u32, 48_000] {
            for fps in [30u64, 60, 144] {
                let ticks = 1_000_000u64;
                let expected = ticks * u64::from(rate) / fps;
                assert_eq!(
                    total(rate, fps as f64, ticks),
                    expected,
                    "{rate} Hz at {fps} fps"
                );
            }
        }
    }

    #[test]
    fn each_update_makes_the_floor_or_the_ceiling_of_the_exact_share() {
        for (rate, fps) in [
            (44_100u32, 60.0),
            (48_000, 144.0),
            (44_100, 144.0),
            (48_000, 30.0),
        ] {
            let mut c = SampleClock::new(rate, fps);
            let exact = f64::from(rate) / fps;
            for _ in 0..10_000 {
                let n = f64::from(c.next_tick());
                assert!(n == exact.floor() || n == exact.ceil(), "{rate}/{fps}: {n}");
            }
        }
    }

    #[test]
    fn reset_starts_the_fraction_over() {
        let mut c = SampleClock::new(48_000, 144.0);
        c.next_tick();
        c.reset();
        assert_eq!(c, SampleClock::new(48_000, 144.0));
        assert_eq!(c.max_per_tick(), 334);
    }
}
