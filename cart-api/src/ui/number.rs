//! The numbers sliders and number fields edit.

use std::fmt;

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for f32 {}
}

/// A number a slider or a number field edits: `i32` or `f32`. Values are worked out in `f64`
/// and rounded back, so whole numbers stay whole.
pub trait UiNumber: Copy + PartialOrd + fmt::Display + sealed::Sealed {
    /// The value in `f64`.
    fn to_f64(self) -> f64;
    /// The nearest value to `v` (whole numbers round half away from zero; NaN is 0).
    fn from_f64(v: f64) -> Self;
    /// Whether the type holds whole numbers only.
    const INTEGER: bool;
}

impl UiNumber for i32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    fn from_f64(v: f64) -> i32 {
        // `as` saturates and makes NaN 0.
        v.round() as i32
    }

    const INTEGER: bool = true;
}

impl UiNumber for f32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    fn from_f64(v: f64) -> f32 {
        if v.is_nan() {
            0.0
        } else {
            v as f32
        }
    }

    const INTEGER: bool = false;
}

/// A range's ends in order and finite (a non-finite end counts as 0).
pub(super) fn ends<T: UiNumber>(min: T, max: T) -> (f64, f64) {
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let (a, b) = (finite(min.to_f64()), finite(max.to_f64()));
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// `v` kept within `lo..=hi`, NaN or infinities included.
pub(super) fn clamp_to(v: f64, lo: f64, hi: f64) -> f64 {
    if v.is_nan() {
        lo
    } else {
        v.clamp(lo, hi)
    }
}
