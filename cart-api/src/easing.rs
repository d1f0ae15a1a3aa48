//! Easing curves: how a value travels from its start to its end over a normalised time `t`.

use std::f64::consts::PI;

use crate::math;

/// A curve mapping progress `t` in `[0, 1]` to eased progress. Every curve maps 0 to 0 and 1 to
/// 1; `Back` and `Elastic` overshoot on the way.
///
/// `…In` starts slowly, `…Out` ends slowly, `…InOut` does both, symmetric about `t = 0.5`.
///
/// ```
/// use bt::Easing;
///
/// assert_eq!(Easing::Linear.apply(0.25), 0.25);
/// assert_eq!(Easing::QuadIn.apply(0.5), 0.25);
/// assert_eq!(Easing::QuadOut.apply(0.5), 0.75);
/// assert_eq!(Easing::CubicInOut.apply(1.0), 1.0);
/// assert_eq!(Easing::SineIn.interpolate(10.0, 20.0, 0.0), 10.0);
/// // Out of range times are clamped.
/// assert_eq!(Easing::BounceOut.apply(7.0), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Easing {
    /// Constant speed.
    #[default]
    Linear,
    /// `t²`.
    QuadIn,
    /// Quadratic, slowing to the end.
    QuadOut,
    /// Quadratic at both ends.
    QuadInOut,
    /// `t³`.
    CubicIn,
    /// Cubic, slowing to the end.
    CubicOut,
    /// Cubic at both ends.
    CubicInOut,
    /// `t⁴`.
    QuartIn,
    /// Quartic, slowing to the end.
    QuartOut,
    /// Quartic at both ends.
    QuartInOut,
    /// `t⁵`.
    QuintIn,
    /// Quintic, slowing to the end.
    QuintOut,
    /// Quintic at both ends.
    QuintInOut,
    /// A quarter sine wave.
    SineIn,
    /// A quarter sine wave, slowing to the end.
    SineOut,
    /// Half a cosine wave.
    SineInOut,
    /// Exponential: almost still, then fast.
    ExpoIn,
    /// Exponential: fast, then almost still.
    ExpoOut,
    /// Exponential at both ends.
    ExpoInOut,
    /// A quarter circle: slow, then steep at the end.
    CircIn,
    /// A quarter circle: steep, then flat at the end.
    CircOut,
    /// Circular at both ends.
    CircInOut,
    /// Pulls back below 0 before going.
    BackIn,
    /// Overshoots past 1 and settles back.
    BackOut,
    /// Pulls back and overshoots.
    BackInOut,
    /// A spring winding up.
    ElasticIn,
    /// A spring settling.
    ElasticOut,
    /// A spring both ways.
    ElasticInOut,
    /// Bounces at the start.
    BounceIn,
    /// A ball dropped onto the end value.
    BounceOut,
    /// Bounces at both ends.
    BounceInOut,
}

/// How far `Back` curves pull back (the usual 10 % overshoot).
const BACK: f64 = 1.70158;

fn bounce_out(t: f64) -> f64 {
    // Four parabolic arcs of shrinking height, the first reaching 1 at t = 1/2.75.
    const N: f64 = 7.5625;
    const D: f64 = 2.75;
    if t < 1.0 / D {
        N * t * t
    } else if t < 2.0 / D {
        let t = t - 1.5 / D;
        N * t * t + 0.75
    } else if t < 2.5 / D {
        let t = t - 2.25 / D;
        N * t * t + 0.9375
    } else {
        let t = t - 2.625 / D;
        N * t * t + 0.984375
    }
}

impl Easing {
    /// Every curve, in declaration order.
    pub const ALL: [Easing; 31] = [
        Easing::Linear,
        Easing::QuadIn,
        Easing::QuadOut,
        Easing::QuadInOut,
        Easing::CubicIn,
        Easing::CubicOut,
        Easing::CubicInOut,
        Easing::QuartIn,
        Easing::QuartOut,
        Easing::QuartInOut,
        Easing::QuintIn,
        Easing::QuintOut,
        Easing::QuintInOut,
        Easing::SineIn,
        Easing::SineOut,
        Easing::SineInOut,
        Easing::ExpoIn,
        Easing::ExpoOut,
        Easing::ExpoInOut,
        Easing::CircIn,
        Easing::CircOut,
        Easing::CircInOut,
        Easing::BackIn,
        Easing::BackOut,
        Easing::BackInOut,
        Easing::ElasticIn,
        Easing::ElasticOut,
        Easing::ElasticInOut,
        Easing::BounceIn,
        Easing::BounceOut,
        Easing::BounceInOut,
    ];

    /// Eased progress at `t`, which is clamped to `[0, 1]` first (NaN counts as 0).
    pub fn apply(self, t: f64) -> f64 {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        if t == 0.0 || t == 1.0 {
            return t;
        }
        // Builds an in-out curve from an in curve: the first half sped up, the second mirrored.
        let in_out = |ease_in: fn(f64) -> f64| {
            if t < 0.5 {
                ease_in(2.0 * t) / 2.0
            } else {
                1.0 - ease_in(2.0 - 2.0 * t) / 2.0
            }
        };
        let out = |ease_in: fn(f64) -> f64| 1.0 - ease_in(1.0 - t);
        let quad: fn(f64) -> f64 = |t| t * t;
        let cubic: fn(f64) -> f64 = |t| t * t * t;
        let quart: fn(f64) -> f64 = |t| (t * t) * (t * t);
        let quint: fn(f64) -> f64 = |t| (t * t) * (t * t) * t;
        // The lower-right quarter of the unit circle; sqrt is correctly rounded everywhere.
        let circ: fn(f64) -> f64 = |t| 1.0 - (1.0 - t * t).max(0.0).sqrt();
        let sine: fn(f64) -> f64 = |t| 1.0 - math::cos(t * PI / 2.0);
        let expo: fn(f64) -> f64 = |t| {
            if t == 0.0 {
                0.0
            } else {
                math::powf(2.0, 10.0 * t - 10.0)
            }
        };
        let back: fn(f64) -> f64 = |t| t * t * ((BACK + 1.0) * t - BACK);
        let elastic: fn(f64) -> f64 = |t| {
            if t == 0.0 || t == 1.0 {
                t
            } else {
                -math::powf(2.0, 10.0 * t - 10.0) * math::sin((t * 10.0 - 10.75) * (2.0 * PI / 3.0))
            }
        };
        let bounce: fn(f64) -> f64 = |t| 1.0 - bounce_out(1.0 - t);
        match self {
            Easing::Linear => t,
            Easing::QuadIn => quad(t),
            Easing::QuadOut => out(quad),
            Easing::QuadInOut => in_out(quad),
            Easing::CubicIn => cubic(t),
            Easing::CubicOut => out(cubic),
            Easing::CubicInOut => in_out(cubic),
            Easing::QuartIn => quart(t),
            Easing::QuartOut => out(quart),
            Easing::QuartInOut => in_out(quart),
            Easing::QuintIn => quint(t),
            Easing::QuintOut => out(quint),
            Easing::QuintInOut => in_out(quint),
            Easing::SineIn => sine(t),
            Easing::SineOut => out(sine),
            Easing::SineInOut => in_out(sine),
            Easing::ExpoIn => expo(t),
            Easing::ExpoOut => out(expo),
            Easing::ExpoInOut => in_out(expo),
            Easing::CircIn => circ(t),
            Easing::CircOut => out(circ),
            Easing::CircInOut => in_out(circ),
            Easing::BackIn => back(t),
            Easing::BackOut => out(back),
            Easing::BackInOut => in_out(back),
            Easing::ElasticIn => elastic(t),
            Easing::ElasticOut => out(elastic),
            Easing::ElasticInOut => in_out(elastic),
            Easing::BounceIn => bounce(t),
            Easing::BounceOut => bounce_out(t),
            Easing::BounceInOut => in_out(bounce),
        }
    }

    /// The value between `start` and `end` at eased progress `t`. Written
    /// `Easing::interpolate(easing, start, end, t)`, it reads as BLIT386's
    /// `interpolate(easing, start, end, t)`.
    ///
    /// ```
    /// use bt::Easing;
    ///
    /// assert_eq!(Easing::interpolate(Easing::QuadIn, 10.0, 20.0, 0.5), 12.5);
    /// assert_eq!(Easing::CircOut.interpolate(-4.0, 4.0, 1.0), 4.0);
    /// ```
    pub fn interpolate(self, start: f64, end: f64, t: f64) -> f64 {
        start + (end - start) * self.apply(t)
    }

    /// The curve's name as BLIT386 spells it: `"linear"`, `"ease-in"`, `"ease-out"` and
    /// `"ease-in-out"` for the quadratic curves, and `"cubic-in"`, `"quartic-out"`,
    /// `"bounce-in-out"` and so on for the others. [`str::parse`] reads these names back, and
    /// also `"quad-in"`, `"quad-out"` and `"quad-in-out"`.
    ///
    /// ```
    /// use bt::Easing;
    ///
    /// assert_eq!(Easing::QuintInOut.name(), "quintic-in-out");
    /// assert_eq!("ease-out".parse::<Easing>(), Ok(Easing::QuadOut));
    /// assert_eq!("quad-out".parse::<Easing>(), Ok(Easing::QuadOut));
    /// assert!("wobbly".parse::<Easing>().is_err());
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Easing::Linear => "linear",
            Easing::QuadIn => "ease-in",
            Easing::QuadOut => "ease-out",
            Easing::QuadInOut => "ease-in-out",
            Easing::CubicIn => "cubic-in",
            Easing::CubicOut => "cubic-out",
            Easing::CubicInOut => "cubic-in-out",
            Easing::QuartIn => "quartic-in",
            Easing::QuartOut => "quartic-out",
            Easing::QuartInOut => "quartic-in-out",
            Easing::QuintIn => "quintic-in",
            Easing::QuintOut => "quintic-out",
            Easing::QuintInOut => "quintic-in-out",
            Easing::SineIn => "sine-in",
            Easing::SineOut => "sine-out",
            Easing::SineInOut => "sine-in-out",
            Easing::ExpoIn => "expo-in",
            Easing::ExpoOut => "expo-out",
            Easing::ExpoInOut => "expo-in-out",
            Easing::CircIn => "circ-in",
            Easing::CircOut => "circ-out",
            Easing::CircInOut => "circ-in-out",
            Easing::BackIn => "back-in",
            Easing::BackOut => "back-out",
            Easing::BackInOut => "back-in-out",
            Easing::ElasticIn => "elastic-in",
            Easing::ElasticOut => "elastic-out",
            Easing::ElasticInOut => "elastic-in-out",
            Easing::BounceIn => "bounce-in",
            Easing::BounceOut => "bounce-out",
            Easing::BounceInOut => "bounce-in-out",
        }
    }
}

impl std::str::FromStr for Easing {
    type Err = UnknownEasing;

    fn from_str(s: &str) -> Result<Easing, UnknownEasing> {
        let quad = match s {
            "quad-in" => Some(Easing::QuadIn),
            "quad-out" => Some(Easing::QuadOut),
            "quad-in-out" => Some(Easing::QuadInOut),
            _ => None,
        };
        quad.or_else(|| Easing::ALL.into_iter().find(|e| e.name() == s))
            .ok_or_else(|| UnknownEasing(s.to_string()))
    }
}

/// An easing name BT does not know (see [`Easing::name`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown easing {} (names look like linear, ease-in-out, cubic-out, bounce-in)",
    crate::quote::quoted(.0)
)]
pub struct UnknownEasing(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_curve_runs_from_zero_to_one() {
        for e in Easing::ALL {
            assert_eq!(e.apply(0.0), 0.0, "{e:?}");
            assert!((e.apply(1.0) - 1.0).abs() < 1e-12, "{e:?}");
            assert!((e.apply(0.999_999_9) - 1.0).abs() < 1e-3, "{e:?} near 1");
            assert!(e.apply(0.000_000_1).abs() < 1e-3, "{e:?} near 0");
        }
    }

    #[test]
    fn in_out_curves_are_symmetric_and_halfway_at_half() {
        for e in [
            Easing::QuadInOut,
            Easing::CubicInOut,
            Easing::QuartInOut,
            Easing::QuintInOut,
            Easing::CircInOut,
            Easing::SineInOut,
            Easing::ExpoInOut,
            Easing::BackInOut,
            Easing::ElasticInOut,
            Easing::BounceInOut,
        ] {
            assert!((e.apply(0.5) - 0.5).abs() < 1e-12, "{e:?}");
            for t in [0.1, 0.3, 0.45] {
                assert!(
                    (e.apply(t) + e.apply(1.0 - t) - 1.0).abs() < 1e-9,
                    "{e:?} at {t}"
                );
            }
        }
    }

    #[test]
    fn out_curves_mirror_in_curves() {
        let pairs = [
            (Easing::QuadIn, Easing::QuadOut),
            (Easing::CubicIn, Easing::CubicOut),
            (Easing::QuartIn, Easing::QuartOut),
            (Easing::QuintIn, Easing::QuintOut),
            (Easing::CircIn, Easing::CircOut),
            (Easing::SineIn, Easing::SineOut),
            (Easing::ExpoIn, Easing::ExpoOut),
            (Easing::BackIn, Easing::BackOut),
            (Easing::ElasticIn, Easing::ElasticOut),
            (Easing::BounceIn, Easing::BounceOut),
        ];
        for (i, o) in pairs {
            for t in [0.2, 0.5, 0.7] {
                assert!(
                    (o.apply(t) - (1.0 - i.apply(1.0 - t))).abs() < 1e-12,
                    "{o:?}"
                );
            }
        }
    }

    #[test]
    fn power_and_circle_curves_match_their_formulas() {
        // Written out from the definitions, not from `apply`.
        for t in [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9] {
            let close = |a: f64, b: f64, e: Easing| assert!((a - b).abs() < 1e-12, "{e:?} at {t}");
            close(Easing::QuartIn.apply(t), t * t * t * t, Easing::QuartIn);
            close(
                Easing::QuartOut.apply(t),
                1.0 - (1.0 - t).powi(4),
                Easing::QuartOut,
            );
            close(Easing::QuintIn.apply(t), t.powi(5), Easing::QuintIn);
            close(
                Easing::QuintOut.apply(t),
                1.0 - (1.0 - t).powi(5),
                Easing::QuintOut,
            );
            close(
                Easing::CircIn.apply(t),
                1.0 - (1.0 - t * t).sqrt(),
                Easing::CircIn,
            );
            close(
                Easing::CircOut.apply(t),
                (1.0 - (t - 1.0) * (t - 1.0)).sqrt(),
                Easing::CircOut,
            );
            let quart_in_out = if t < 0.5 {
                8.0 * t.powi(4)
            } else {
                1.0 - (-2.0 * t + 2.0).powi(4) / 2.0
            };
            close(
                Easing::QuartInOut.apply(t),
                quart_in_out,
                Easing::QuartInOut,
            );
            let quint_in_out = if t < 0.5 {
                16.0 * t.powi(5)
            } else {
                1.0 - (-2.0 * t + 2.0).powi(5) / 2.0
            };
            close(
                Easing::QuintInOut.apply(t),
                quint_in_out,
                Easing::QuintInOut,
            );
            let circ_in_out = if t < 0.5 {
                (1.0 - (1.0 - (2.0 * t).powi(2)).sqrt()) / 2.0
            } else {
                ((1.0 - (-2.0 * t + 2.0).powi(2)).sqrt() + 1.0) / 2.0
            };
            close(Easing::CircInOut.apply(t), circ_in_out, Easing::CircInOut);
        }
        // Landmarks: a quarter of the way in, the circle has barely moved.
        assert_eq!(Easing::QuartIn.apply(0.5), 0.0625);
        assert_eq!(Easing::QuintIn.apply(0.5), 0.03125);
        assert!((Easing::CircIn.apply(0.6) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn every_curve_has_a_distinct_name_that_parses_back() {
        for (i, e) in Easing::ALL.iter().enumerate() {
            assert_eq!(e.name().parse::<Easing>(), Ok(*e));
            assert!(
                Easing::ALL[..i].iter().all(|o| o.name() != e.name()),
                "{e:?}"
            );
        }
        assert_eq!(Easing::ALL.len(), 31, "BLIT386's 31 curves");
        let err = "Sine-In".parse::<Easing>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown easing \"Sine-In\" (names look like linear, ease-in-out, cubic-out, bounce-in)"
        );
    }

    #[test]
    fn back_pulls_back_and_bounce_stays_in_range() {
        assert!(Easing::BackIn.apply(0.2) < 0.0);
        assert!(Easing::BackOut.apply(0.8) > 1.0);
        for i in 0..=100 {
            let t = f64::from(i) / 100.0;
            let b = Easing::BounceOut.apply(t);
            assert!((0.0..=1.0 + 1e-12).contains(&b), "bounce at {t}: {b}");
        }
        assert_eq!(Easing::QuadIn.apply(f64::NAN), 0.0);
        assert_eq!(Easing::QuadIn.apply(-3.0), 0.0);
    }
}
