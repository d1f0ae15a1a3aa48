//! Maths that gives the same bits on every machine: sines, exponentials, logarithms and powers
//! computed by the same Rust code everywhere (the pure-Rust `libm` crate), not by the platform's
//! maths library.
//!
//! `f64::sin` and its kin call whatever the platform provides: glibc on Linux, the system's
//! library on macOS and Windows, and in a web page (WebAssembly) a Rust port of musl's. They
//! are all accurate to about one unit in the last place, but not the same one: a last bit
//! that differs can move a rounded pixel, and from then on a game's state. BT promises the same
//! ticks, pixels and samples on any machine, native or in a browser, so everything in BT that
//! decides a pixel or a sample uses these functions, and a cart that wants the promise too
//! should use them instead of the methods on `f64`.
//!
//! Addition, multiplication, division, `sqrt`, `floor`, `round`, `abs` and `powi` are exact or
//! correctly rounded by the IEEE 754 standard and need nothing here.
//!
//! ```
//! let (s, c) = bt::math::sin_cos(0.5);
//! assert_eq!(s, bt::math::sin(0.5));
//! assert_eq!(c, bt::math::cos(0.5));
//! assert_eq!(bt::math::powf(2.0, 10.0), 1024.0);
//! ```

/// The sine of `x` (radians).
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}

/// The cosine of `x` (radians).
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// The sine and the cosine of `x` (radians), as [`sin`] and [`cos`] give them.
pub fn sin_cos(x: f64) -> (f64, f64) {
    (libm::sin(x), libm::cos(x))
}

/// The tangent of `x` (radians).
pub fn tan(x: f64) -> f64 {
    libm::tan(x)
}

/// The angle whose sine is `x`, in radians.
pub fn asin(x: f64) -> f64 {
    libm::asin(x)
}

/// The angle whose cosine is `x`, in radians.
pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}

/// The angle whose tangent is `x`, in radians.
pub fn atan(x: f64) -> f64 {
    libm::atan(x)
}

/// The angle of the point `(x, y)` from the positive x axis, in radians from -π to π.
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// e to the power `x`.
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// 2 to the power `x`.
pub fn exp2(x: f64) -> f64 {
    libm::exp2(x)
}

/// The natural logarithm of `x`.
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// The base-2 logarithm of `x`.
pub fn log2(x: f64) -> f64 {
    libm::log2(x)
}

/// The base-10 logarithm of `x`.
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// `x` to the power `y`.
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// The length of the vector `(x, y)`, without overflow on the way.
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}

/// The cube root of `x`.
pub fn cbrt(x: f64) -> f64 {
    libm::cbrt(x)
}

/// The sine of `x` (radians), in `f32`.
pub fn sinf(x: f32) -> f32 {
    libm::sinf(x)
}

/// The cosine of `x` (radians), in `f32`.
pub fn cosf(x: f32) -> f32 {
    libm::cosf(x)
}

/// The sine and the cosine of `x` (radians), in `f32`, as [`sinf`] and [`cosf`] give them.
pub fn sin_cosf(x: f32) -> (f32, f32) {
    (libm::sinf(x), libm::cosf(x))
}

/// The angle of the point `(x, y)`, in `f32`.
pub fn atan2f(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

/// `x` to the power `y`, in `f32`.
pub fn powf_f32(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_come_out_exactly() {
        assert_eq!(sin(0.0), 0.0);
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(log10(1000.0), 3.0);
        assert_eq!(powf(2.0, -3.0), 0.125);
        assert_eq!(hypot(3.0, 4.0), 5.0);
    }

    #[test]
    fn they_agree_with_the_platform_to_within_a_few_units_in_the_last_place() {
        for i in 0..2000 {
            let x = f64::from(i) * 0.0137 - 13.0;
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0);
            assert!(close(sin(x), x.sin()), "sin {x}");
            assert!(close(cos(x), x.cos()), "cos {x}");
            assert!(close(exp(x / 4.0), (x / 4.0).exp()), "exp {x}");
            assert!(close(powf(2.0, x), 2f64.powf(x)), "powf {x}");
        }
    }
}
