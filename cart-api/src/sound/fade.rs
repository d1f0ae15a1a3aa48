//! One value for every change of loudness over time: a bus's fade, a stop, a tune's fade in, a
//! crossfade. A [`Fade`] is a length and an easing; the console turns the length into samples
//! at the sample rate of the moment and works out each sample's level from that sample's place
//! in the fade alone, so a fade is the same samples at any update rate and after a snapshot.

use std::time::Duration;

use crate::Easing;

/// How long something takes to change, and along which curve: what every fade, stop and
/// crossfade takes. `Fade::INSTANT` (the default) changes at once.
///
/// A fade's length becomes whole samples at the console's sample rate when the call is made.
/// Each sample's level is the easing's value at that sample's place in the fade: a
/// [`Easing::Linear`] fade is worked out in integers alone; another curve goes through
/// [`Easing::apply`], whose arithmetic is the same on every machine. A curve that overshoots
/// (`Back`, `Elastic`) is held between silence and full.
///
/// ```
/// use std::time::Duration;
///
/// use bt::sound::Fade;
/// use bt::Easing;
///
/// let out = Fade::seconds(1.5).eased(Easing::SineOut);
/// assert_eq!(out.duration, Duration::from_millis(1500));
/// assert_eq!(out.easing, Easing::SineOut);
/// assert_eq!(Fade::millis(250), Fade::new(Duration::from_millis(250)));
/// assert_eq!(Fade::default(), Fade::INSTANT);
/// assert_eq!(Fade::seconds(-2.0), Fade::INSTANT, "a negative length is no length");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fade {
    /// How long the change takes (zero: at once).
    pub duration: Duration,
    /// The curve it follows from its start to its end ([`Easing::Linear`] unless told).
    pub easing: Easing,
}

impl Fade {
    /// No fade: the change happens at once.
    pub const INSTANT: Fade = Fade::new(Duration::ZERO);

    /// A straight-line fade over `duration`.
    pub const fn new(duration: Duration) -> Fade {
        Fade {
            duration,
            easing: Easing::Linear,
        }
    }

    /// A straight-line fade over `seconds` (a negative length, or one that is not a number,
    /// counts as zero; one past what a [`Duration`] holds as its longest).
    pub fn seconds(seconds: f64) -> Fade {
        let duration = if seconds.is_nan() || seconds <= 0.0 {
            Duration::ZERO
        } else {
            Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
        };
        Fade::new(duration)
    }

    /// A straight-line fade over `millis` milliseconds.
    pub const fn millis(millis: u64) -> Fade {
        Fade::new(Duration::from_millis(millis))
    }

    /// The same fade along `easing`.
    pub const fn eased(self, easing: Easing) -> Fade {
        Fade { easing, ..self }
    }
}

impl From<Duration> for Fade {
    fn from(duration: Duration) -> Fade {
        Fade::new(duration)
    }
}

/// Levels a fade's progress is worked out in: 16.16 fixed point, 1 is full.
pub(crate) const PROGRESS_ONE: i64 = 1 << 16;

/// How far along `easing` a fade of `len` samples is after `done` of them, as a fraction
/// `(num, den)` from 0 to 1: exactly `done / len` for a straight line (so linear fades keep
/// their integer samples), else the eased value in 65,536ths, held within 0 and 1.
pub(crate) fn progress(easing: Easing, done: u64, len: u64) -> (i64, i64) {
    if len == 0 || done >= len {
        return (1, 1);
    }
    if easing == Easing::Linear {
        return (done as i64, len as i64);
    }
    let eased = easing.apply(done as f64 / len as f64);
    let num = (eased * PROGRESS_ONE as f64).round() as i64;
    (num.clamp(0, PROGRESS_ONE), PROGRESS_ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_fade_is_an_exact_fraction_and_a_curve_is_held_within_silence_and_full() {
        assert_eq!(progress(Easing::Linear, 3, 7), (3, 7));
        assert_eq!(
            progress(Easing::QuadIn, 5, 10),
            (PROGRESS_ONE / 4, PROGRESS_ONE)
        );
        assert_eq!(
            progress(Easing::BackIn, 1, 10).0,
            0,
            "a pull back is held at 0"
        );
        assert_eq!(progress(Easing::QuadIn, 10, 10), (1, 1));
        assert_eq!(progress(Easing::QuadIn, 0, 0), (1, 1), "no length: done");
    }
}
