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
    pub const ALL: [Easing; 22] = [
        Easing::Linear,
        Easing::QuadIn,
        Easing::QuadOut,
        Easing::QuadInOut,
        Easing::CubicIn,
        Easing::CubicOut,
        Easing::CubicInOut,
        Easing::SineIn,
        Easing::SineOut,
        Easing::SineInOut,
        Easing::ExpoIn,
        Easing::ExpoOut,
        Easing::ExpoInOut,
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
            Easing::SineIn => sine(t),
            Easing::SineOut => out(sine),
            Easing::SineInOut => in_out(sine),
            Easing::ExpoIn => expo(t),
            Easing::ExpoOut => out(expo),
            Easing::ExpoInOut => in_out(expo),
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

    /// The value between `start` and `end` at eased progress `t`.
    pub fn interpolate(self, start: f64, end: f64, t: f64) -> f64 {
        start + (end - start) * self.apply(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_curve_runs_from_zero_to_one() {
        for e in Easing::ALL {
            assert_eq!(e.apply(0.0), 0.0, "{e:?}");
            assert!((e.apply(1.0) - 1.0).abs() < 1e-12, "{e:?}");
            assert!((e.apply(0.999_999) - 1.0).abs() < 1e-3, "{e:?} near 1");
            assert!(e.apply(0.000_001).abs() < 1e-3, "{e:?} near 0");
        }
    }

    #[test]
    fn in_out_curves_are_symmetric_and_halfway_at_half() {
        for e in [
            Easing::QuadInOut,
            Easing::CubicInOut,
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
