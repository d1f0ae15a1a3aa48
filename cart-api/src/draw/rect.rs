//! What a game asks of two rectangles: do they touch, where do they overlap, what box holds
//! both. The names are those of Rust's geometry crates (`euclid`, `bevy_math`):
//! [`Rect::intersects`], [`Rect::intersection`], [`Rect::union`].
//!
//! A rectangle covers the pixels `x..x + w` by `y..y + h`: its right and bottom edges are not
//! inside it, so two 8-px sprites side by side at `x = 0` and `x = 8` touch but do not overlap.
//! Arithmetic is done wide, so no coordinates (`i32::MIN`, `i32::MAX`) can overflow or panic.

use super::Point;

/// An axis-aligned rectangle in pixels. A width or height of zero or less is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// A rectangle from its top-left corner and size.
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }

    /// The `tile_w × tile_h` cell at `column`, `row` of a grid of tiles starting at the origin:
    /// `Rect::new(column × tile_w, row × tile_h, tile_w, tile_h)`, coordinates saturating at the
    /// ends of the `i32` range.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// assert_eq!(Rect::from_tile(3, 2, 8, 8), Rect::new(24, 16, 8, 8));
    /// assert_eq!(Rect::from_tile(-1, 0, 16, 8), Rect::new(-16, 0, 16, 8));
    /// ```
    pub const fn from_tile(column: i32, row: i32, tile_w: i32, tile_h: i32) -> Rect {
        Rect::new(
            column.saturating_mul(tile_w),
            row.saturating_mul(tile_h),
            tile_w,
            tile_h,
        )
    }

    /// The top-left corner.
    pub const fn position(&self) -> Point {
        Point::new(self.x, self.y)
    }

    /// The first column past the right edge, `x + w` (outside the rectangle: it covers
    /// `x..right()`), saturating at the ends of the `i32` range.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// let r = Rect::new(10, 20, 8, 4);
    /// assert_eq!((r.right(), r.bottom()), (18, 24));
    /// assert!(!r.contains(r.right(), 20));
    /// assert!(r.contains(r.right() - 1, r.bottom() - 1));
    /// ```
    pub const fn right(&self) -> i32 {
        self.x.saturating_add(self.w)
    }

    /// The first row past the bottom edge, `y + h`, as [`Rect::right`].
    pub const fn bottom(&self) -> i32 {
        self.y.saturating_add(self.h)
    }

    /// Whether `point` lies inside, as [`Rect::contains`].
    pub fn contains_point(&self, point: Point) -> bool {
        self.contains(point.x, point.y)
    }

    /// Corners `(x0, y0, x1, y1)` of the half-open box, in integers too wide to overflow.
    pub(crate) fn wide(&self) -> (i64, i64, i64, i64) {
        let (x0, y0) = (i64::from(self.x), i64::from(self.y));
        (x0, y0, x0 + i64::from(self.w), y0 + i64::from(self.h))
    }

    /// Whether the point lies inside.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        let (x, y) = (i64::from(x), i64::from(y));
        x >= i64::from(self.x)
            && y >= i64::from(self.y)
            && x < i64::from(self.x) + i64::from(self.w)
            && y < i64::from(self.y) + i64::from(self.h)
    }

    /// Whether it covers no pixel: its width or its height is zero or less.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// assert!(Rect::new(4, 4, 0, 8).is_empty());
    /// assert!(Rect::new(4, 4, 8, -1).is_empty());
    /// assert!(!Rect::new(4, 4, 1, 1).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.w <= 0 || self.h <= 0
    }

    /// Whether the two share at least one pixel: the test a collision needs. Rectangles that
    /// only meet along an edge do not intersect, and an empty rectangle intersects nothing.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// let robot = Rect::new(10, 10, 8, 8);
    /// let coin = Rect::new(16, 12, 8, 8);
    /// assert!(robot.intersects(coin));
    /// assert!(coin.intersects(robot));
    ///
    /// // Side by side: the coin starts where the robot ends.
    /// assert!(!robot.intersects(Rect::new(18, 10, 8, 8)));
    /// ```
    pub fn intersects(&self, other: Rect) -> bool {
        self.intersection(other).is_some()
    }

    /// The pixels the two share, or `None` when they share none (as [`Rect::intersects`]).
    /// The result always fits: it is no larger than either rectangle.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// let a = Rect::new(0, 0, 10, 10);
    /// let b = Rect::new(6, -2, 10, 5);
    /// assert_eq!(a.intersection(b), Some(Rect::new(6, 0, 4, 3)));
    /// assert_eq!(a.intersection(Rect::new(10, 0, 4, 4)), None);
    /// ```
    pub fn intersection(&self, other: Rect) -> Option<Rect> {
        if self.is_empty() || other.is_empty() {
            return None;
        }
        let (ax0, ay0, ax1, ay1) = self.wide();
        let (bx0, by0, bx1, by1) = other.wide();
        let (x0, y0) = (ax0.max(bx0), ay0.max(by0));
        let (x1, y1) = (ax1.min(bx1), ay1.min(by1));
        if x0 >= x1 || y0 >= y1 {
            return None;
        }
        // The corner is one of the two rectangles' own, and the size at most either one's:
        // every value fits an i32.
        Some(Rect::new(
            x0 as i32,
            y0 as i32,
            (x1 - x0) as i32,
            (y1 - y0) as i32,
        ))
    }

    /// The smallest rectangle holding both: the area two moving things swept, or one dirty
    /// region for two changes. An empty rectangle adds nothing (the other is returned, and two
    /// empty ones give `Rect::default()`, empty at the origin); a union wider or taller than `i32::MAX` pixels is cut to `i32::MAX`.
    ///
    /// ```
    /// use bt::Rect;
    ///
    /// let a = Rect::new(0, 0, 4, 4);
    /// let b = Rect::new(10, 2, 2, 6);
    /// assert_eq!(a.union(b), Rect::new(0, 0, 12, 8));
    /// assert_eq!(a.union(Rect::new(50, 50, 0, 0)), a);
    /// ```
    pub fn union(&self, other: Rect) -> Rect {
        match (self.is_empty(), other.is_empty()) {
            (true, true) => return Rect::default(),
            (false, true) => return *self,
            (true, false) => return other,
            (false, false) => {}
        }
        let (ax0, ay0, ax1, ay1) = self.wide();
        let (bx0, by0, bx1, by1) = other.wide();
        let (x0, y0) = (ax0.min(bx0), ay0.min(by0));
        let (x1, y1) = (ax1.max(bx1), ay1.max(by1));
        let side = |len: i64| len.min(i64::from(i32::MAX)) as i32;
        // x0 and y0 are one of the two rectangles' own corners.
        Rect::new(x0 as i32, y0 as i32, side(x1 - x0), side(y1 - y0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn coord() -> impl Strategy<Value = i32> {
        prop_oneof![
            8 => -20..20i32,
            1 => Just(i32::MIN),
            1 => Just(i32::MAX),
            1 => any::<i32>(),
        ]
    }

    fn size() -> impl Strategy<Value = i32> {
        prop_oneof![
            8 => -2..16i32,
            1 => Just(i32::MAX),
            1 => any::<i32>(),
        ]
    }

    fn rect() -> impl Strategy<Value = Rect> {
        (coord(), coord(), size(), size()).prop_map(|(x, y, w, h)| Rect::new(x, y, w, h))
    }

    /// Points near the rectangles' edges and corners, where mistakes live.
    fn probes(a: Rect, b: Rect) -> Vec<(i32, i32)> {
        let near = |v: i32, len: i32| {
            let end = v.saturating_add(len);
            [
                v.saturating_sub(1),
                v,
                v.saturating_add(1),
                end.saturating_sub(1),
                end,
            ]
        };
        let xs: Vec<i32> = near(a.x, a.w).into_iter().chain(near(b.x, b.w)).collect();
        let ys: Vec<i32> = near(a.y, a.h).into_iter().chain(near(b.y, b.h)).collect();
        xs.iter()
            .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
            .collect()
    }

    proptest! {
        #[test]
        fn a_point_is_in_the_intersection_exactly_when_it_is_in_both(a in rect(), b in rect()) {
            let both = a.intersection(b);
            prop_assert_eq!(both, b.intersection(a), "the order does not matter");
            prop_assert_eq!(a.intersects(b), both.is_some());
            for (x, y) in probes(a, b) {
                let inside = both.is_some_and(|r| r.contains(x, y));
                prop_assert_eq!(inside, a.contains(x, y) && b.contains(x, y), "({}, {})", x, y);
            }
            if let Some(r) = both {
                prop_assert!(!r.is_empty());
            }
        }

        #[test]
        fn the_union_holds_every_point_of_both(a in rect(), b in rect()) {
            let u = a.union(b);
            prop_assert_eq!(u, b.union(a), "the order does not matter");
            for (x, y) in probes(a, b) {
                // Cut at i32::MAX a side, a union may miss the far edge of the widest boxes.
                let cut = u.w == i32::MAX || u.h == i32::MAX;
                if (a.contains(x, y) || b.contains(x, y)) && !cut {
                    prop_assert!(u.contains(x, y), "({}, {}) in {:?}", x, y, u);
                }
            }
            if let Some(r) = a.intersection(b) {
                prop_assert_eq!(r.union(u), u, "the intersection lies inside the union");
            }
        }

        #[test]
        fn the_union_is_as_small_as_it_can_be(a in rect(), b in rect()) {
            prop_assume!(!a.is_empty() && !b.is_empty());
            let u = a.union(b);
            let (x0, y0, x1, y1) = u.wide();
            let (ax0, ay0, ax1, ay1) = a.wide();
            let (bx0, by0, bx1, by1) = b.wide();
            prop_assert_eq!(x0, ax0.min(bx0));
            prop_assert_eq!(y0, ay0.min(by0));
            prop_assert_eq!(x1, ax1.max(bx1).min(x0 + i64::from(i32::MAX)));
            prop_assert_eq!(y1, ay1.max(by1).min(y0 + i64::from(i32::MAX)));
        }
    }

    #[test]
    fn rectangles_meeting_at_an_edge_or_a_corner_do_not_intersect() {
        let a = Rect::new(0, 0, 8, 8);
        for b in [
            Rect::new(8, 0, 8, 8),
            Rect::new(0, 8, 8, 8),
            Rect::new(8, 8, 8, 8),
            Rect::new(-8, -8, 8, 8),
        ] {
            assert!(!a.intersects(b), "{b:?}");
        }
        assert!(a.intersects(Rect::new(7, 7, 8, 8)), "one pixel shared");
    }

    #[test]
    fn empty_rectangles_meet_nothing_and_add_nothing() {
        let a = Rect::new(0, 0, 8, 8);
        let empty = Rect::new(2, 2, 0, 4);
        assert!(!a.intersects(empty) && !empty.intersects(a) && !empty.intersects(empty));
        assert_eq!(a.union(empty), a);
        assert_eq!(empty.union(a), a);
    }

    #[test]
    fn extreme_rectangles_neither_overflow_nor_panic() {
        let everything = Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX);
        let far = Rect::new(i32::MAX - 1, i32::MAX - 1, i32::MAX, i32::MAX);
        assert_eq!(everything.intersection(far), None);
        let u = everything.union(far);
        assert_eq!(
            (u.x, u.y, u.w, u.h),
            (i32::MIN, i32::MIN, i32::MAX, i32::MAX)
        );
        assert_eq!(
            far.intersection(Rect::new(i32::MAX - 1, 0, 5, i32::MAX)),
            Some(Rect::new(i32::MAX - 1, i32::MAX - 1, 5, 1))
        );
    }
}
