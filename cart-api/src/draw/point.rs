//! [`Point`]: a position or an offset in whole pixels, with the arithmetic a game does on one.
//!
//! BT's calls take and give positions as `(x, y)` pairs (`pointer_pos`, `camera`); a `Point`
//! converts to and from such a pair with `into()`, so it is there for the arithmetic, never
//! in the way. Arithmetic wraps round on overflow rather than panicking, as every pixel
//! coordinate in BT does.

use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// A position or an offset in whole pixels.
///
/// ```
/// use bt::Point;
///
/// let hero = Point::new(10, 20);
/// let step = Point::new(1, -2);
/// assert_eq!(hero + step, Point::new(11, 18));
/// assert_eq!(hero - step, Point::new(9, 22));
/// assert_eq!(step.scale(3), Point::new(3, -6));
/// assert_eq!(-step, Point::new(-1, 2));
///
/// // Half-way between where the hero was and where it is, for a smooth draw.
/// let before = Point::new(0, 0);
/// assert_eq!(before.lerp(hero, 0.5), Point::new(5, 10));
///
/// // To and from the pairs BT's calls use.
/// let pair: (i32, i32) = hero.into();
/// assert_eq!(Point::from(pair), hero);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Point {
    /// Across, growing to the right.
    pub x: i32,
    /// Down, growing downwards.
    pub y: i32,
}

impl Point {
    /// The origin, `(0, 0)`.
    pub const ZERO: Point = Point { x: 0, y: 0 };

    /// A point from its two coordinates.
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// Both coordinates multiplied by `factor` (wrapping on overflow).
    pub const fn scale(self, factor: i32) -> Point {
        Point::new(self.x.wrapping_mul(factor), self.y.wrapping_mul(factor))
    }

    /// The point a fraction `t` of the way from `self` to `to`, each coordinate rounded down
    /// (towards minus infinity, so the same step looks the same either side of 0): `t = 0`
    /// gives `self`, `t = 1` gives `to`, values outside `[0, 1]` go past either end, and a
    /// `t` that is not finite gives `self`. Results beyond the `i32` range are cut to it.
    ///
    /// ```
    /// use bt::Point;
    ///
    /// let a = Point::new(0, 0);
    /// let b = Point::new(-3, 3);
    /// assert_eq!(a.lerp(b, 0.5), Point::new(-2, 1));
    /// assert_eq!(a.lerp(b, 1.0), b);
    /// assert_eq!(a.lerp(b, f64::NAN), a);
    /// ```
    pub fn lerp(self, to: Point, t: f64) -> Point {
        if !t.is_finite() {
            return self;
        }
        let axis = |a: i32, b: i32| {
            let (a, b) = (f64::from(a), f64::from(b));
            // `as` saturates at the ends of the i32 range.
            (a + (b - a) * t).floor() as i32
        };
        Point::new(axis(self.x, to.x), axis(self.y, to.y))
    }
}

impl From<(i32, i32)> for Point {
    fn from((x, y): (i32, i32)) -> Point {
        Point::new(x, y)
    }
}

impl From<Point> for (i32, i32) {
    fn from(p: Point) -> (i32, i32) {
        (p.x, p.y)
    }
}

impl Add for Point {
    type Output = Point;

    fn add(self, other: Point) -> Point {
        Point::new(self.x.wrapping_add(other.x), self.y.wrapping_add(other.y))
    }
}

impl Sub for Point {
    type Output = Point;

    fn sub(self, other: Point) -> Point {
        Point::new(self.x.wrapping_sub(other.x), self.y.wrapping_sub(other.y))
    }
}

impl Neg for Point {
    type Output = Point;

    fn neg(self) -> Point {
        Point::new(self.x.wrapping_neg(), self.y.wrapping_neg())
    }
}

impl AddAssign for Point {
    fn add_assign(&mut self, other: Point) {
        *self = *self + other;
    }
}

impl SubAssign for Point {
    fn sub_assign(&mut self, other: Point) {
        *self = *self - other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_wraps_instead_of_panicking() {
        let big = Point::new(i32::MAX, i32::MIN);
        assert_eq!(big + Point::new(1, -1), Point::new(i32::MIN, i32::MAX));
        assert_eq!(-Point::new(i32::MIN, 0), Point::new(i32::MIN, 0));
        assert_eq!(big.scale(2), Point::new(-2, 0));
        let mut p = Point::ZERO;
        p += Point::new(2, 3);
        p -= Point::new(1, 1);
        assert_eq!(p, Point::new(1, 2));
    }

    #[test]
    fn lerp_rounds_down_and_reaches_both_ends() {
        let a = Point::new(-10, 7);
        let b = Point::new(10, -7);
        assert_eq!(a.lerp(b, 0.0), a);
        assert_eq!(a.lerp(b, 1.0), b);
        // -10 + 20 × 0.25 = -5; 7 - 14 × 0.25 = 3.5, down to 3.
        assert_eq!(a.lerp(b, 0.25), Point::new(-5, 3));
        // Past the end, and cut to the i32 range far past it.
        assert_eq!(a.lerp(b, 2.0), Point::new(30, -21));
        let far = Point::ZERO.lerp(Point::new(i32::MAX, i32::MIN), 4.0);
        assert_eq!(far, Point::new(i32::MAX, i32::MIN));
        assert_eq!(a.lerp(b, f64::INFINITY), a);
    }
}
