//! Seeded pseudo-random numbers for the simulation.

use crate::{Point, Rect};

/// A seeded PCG32 generator (PCG-XSH-RR: 64-bit state, 32-bit output).
///
/// PCG32 is small, fast, passes the usual statistical test batteries and, above all, gives the
/// same sequence for the same seed on every machine. The engine hands one to `update` and reseeds
/// it with the boot seed whenever it replays from the start, so a seed plus the per-tick input
/// reproduces a run exactly. Render gets no generator: randomness belongs to the simulation.
///
/// ```
/// use bt::Rng;
///
/// let mut a = Rng::new(42);
/// let mut b = Rng::new(42);
/// assert_eq!(a.next_u32(), b.next_u32());
/// let roll = a.int_range(1, 7);
/// assert!((1..7).contains(&roll));
/// let x = a.float_range(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// let mut deck = [1, 2, 3, 4];
/// a.shuffle(&mut deck);
/// assert!(a.pick(&deck).is_some());
/// let height = a.gaussian(170.0, 8.0);
/// assert!(height.is_finite());
/// assert!(a.chance(1.0) && (a.bool() || true));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    state: u64,
    /// PCG's increment: odd, and one of 2⁶³ independent streams. Every generator made with
    /// [`Rng::new`] is on the default stream; [`Rng::fork`] makes one on another.
    increment: u64,
    seed: u64,
}

/// Everything that decides a generator's future: read it with [`Rng::state`] to keep it (in
/// save data, say) and put it back with [`Rng::set_state`]. Any value is a valid state.
///
/// ```
/// use bt::{Rng, RngState};
///
/// let mut rng = Rng::new(7);
/// rng.next_u32();
/// let kept = rng.state();
/// let next = rng.next_u32();
///
/// let bytes = kept.to_bytes(); // 24 bytes for a save file
/// let mut other = Rng::new(99);
/// other.set_state(RngState::from_bytes(bytes));
/// assert_eq!(other.next_u32(), next);
/// assert_eq!(other.seed(), 7);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RngState {
    /// The 64-bit position in the sequence.
    pub state: u64,
    /// Which of PCG's 2⁶³ sequences it follows (the top bit is ignored).
    pub stream: u64,
    /// What [`Rng::seed`] reports.
    pub seed: u64,
}

impl RngState {
    /// The three fields as 24 little-endian bytes: state, stream, seed.
    pub fn to_bytes(self) -> [u8; 24] {
        let mut out = [0u8; 24];
        for (chunk, v) in out
            .chunks_exact_mut(8)
            .zip([self.state, self.stream, self.seed])
        {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The state [`RngState::to_bytes`] wrote.
    pub fn from_bytes(bytes: [u8; 24]) -> RngState {
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w)
        };
        RngState {
            state: word(0),
            stream: word(1),
            seed: word(2),
        }
    }
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
const INCREMENT: u64 = 1_442_695_040_888_963_407;

/// The eight compass directions as unit steps, clockwise from east (y grows downwards): the
/// even entries are the four of [`Rng::direction4`].
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng::on_stream(seed, INCREMENT)
    }

    /// PCG's seeding: from state 0, step, add the seed, step. `increment` must be odd.
    fn on_stream(seed: u64, increment: u64) -> Rng {
        let mut rng = Rng {
            state: 0,
            increment,
            seed,
        };
        rng.advance();
        rng.state = rng.state.wrapping_add(seed);
        rng.advance();
        rng
    }

    /// The seed this generator was made (or last reseeded) with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Starts the sequence of `seed` again.
    pub fn reseed(&mut self, seed: u64) {
        *self = Rng::new(seed);
    }

    fn advance(&mut self) {
        self.state = self
            .state
            .wrapping_mul(MULTIPLIER)
            .wrapping_add(self.increment);
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.advance();
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A float in `[0, 1)`, a whole multiple of 2⁻²⁴ (the top 24 bits of one draw). Every
    /// fraction, range, probability and weight of the generator is an `f64`, as the console's
    /// seconds and angles are.
    pub fn float(&mut self) -> f64 {
        f64::from(self.next_u32() >> 8) / 16_777_216.0
    }

    /// An integer in `[0, max)`, without modulo bias; 0 when `max` is 0.
    pub fn int(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        // Lemire's multiply-and-reject method.
        loop {
            let m = u64::from(self.next_u32()) * u64::from(max);
            let low = m as u32;
            if low >= max.wrapping_neg() % max {
                return (m >> 32) as u32;
            }
        }
    }

    /// An integer in `[min, max)`; `min` when the range is empty.
    pub fn int_range(&mut self, min: i32, max: i32) -> i32 {
        if max <= min {
            return min;
        }
        let span = (i64::from(max) - i64::from(min)) as u32;
        (i64::from(min) + i64::from(self.int(span))) as i32
    }

    /// An integer in `[min, max]`, both ends included: the die roll `int_inclusive(1, 6)`.
    /// `min` when `max < min`, without drawing. The same draws and result as
    /// `int_range(min, max + 1)` whenever `max + 1` fits an `i32`, so a cart may switch
    /// between the two without changing a replay; the whole `i32` range takes one draw.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let mut rng = Rng::new(6);
    /// let die = rng.int_inclusive(1, 6);
    /// assert!((1..=6).contains(&die));
    /// assert_eq!(Rng::new(6).int_inclusive(1, 6), Rng::new(6).int_range(1, 7));
    /// assert_eq!(rng.int_inclusive(5, 5), 5);
    /// ```
    pub fn int_inclusive(&mut self, min: i32, max: i32) -> i32 {
        if max < min {
            return min;
        }
        match u32::try_from(i64::from(max) - i64::from(min) + 1) {
            Ok(span) => (i64::from(min) + i64::from(self.int(span))) as i32,
            // Every i32: each of the 2³² draws is one of them.
            Err(_) => self.next_u32() as i32,
        }
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.float() < p.clamp(0.0, 1.0)
    }

    /// A fair coin.
    pub fn bool(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }

    /// A float in `[min, max)`; `min` when the range is empty or not finite.
    pub fn float_range(&mut self, min: f64, max: f64) -> f64 {
        if max.partial_cmp(&min) != Some(std::cmp::Ordering::Greater) || !(max - min).is_finite() {
            return min;
        }
        let v = min + (max - min) * self.float();
        // Rounding can land exactly on `max`; keep the range half-open.
        if v < max {
            v
        } else {
            min
        }
    }

    /// A normally distributed float with the given mean and standard deviation (Box–Muller).
    /// Two uniform draws per call.
    pub fn gaussian(&mut self, mean: f64, std_dev: f64) -> f64 {
        // 1 - u keeps the logarithm's argument in (0, 1].
        let u1 = 1.0 - f64::from(self.next_u32()) / 4_294_967_296.0;
        let u2 = f64::from(self.next_u32()) / 4_294_967_296.0;
        let r = (-2.0 * crate::math::ln(u1)).sqrt();
        mean + std_dev * r * crate::math::cos(std::f64::consts::TAU * u2)
    }

    /// Shuffles `items` in place (Fisher–Yates), every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let j = self.int(bound) as usize;
            items.swap(i, j);
        }
    }

    /// A random element of `items`, or `None` when it is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let len = u32::try_from(items.len()).unwrap_or(u32::MAX);
        if len == 0 {
            return None;
        }
        items.get(self.int(len) as usize)
    }

    /// An index into `weights`, each chosen with probability proportional to its weight: the
    /// loot table's roll. Weights that are negative, NaN or infinite count as 0. `None` when
    /// no weight is above 0 (an empty slice included), without drawing. One draw otherwise.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let loot = ["coin", "gem", "nothing"];
    /// let mut rng = Rng::new(3);
    /// let i = rng.weighted(&[10.0, 1.0, 5.0]).unwrap();
    /// assert!(i < loot.len());
    /// assert_eq!(rng.weighted(&[0.0, 7.5, 0.0]), Some(1));
    /// assert_eq!(rng.weighted(&[]), None);
    /// ```
    pub fn weighted(&mut self, weights: &[f64]) -> Option<usize> {
        // Each weight at most its share of the largest float, so the total stays finite.
        let cap = f64::MAX / weights.len().max(1) as f64;
        let weight = |w: f64| {
            if w.is_finite() && w > 0.0 {
                w.min(cap)
            } else {
                0.0
            }
        };
        let total: f64 = weights.iter().map(|&w| weight(w)).sum();
        if total <= 0.0 {
            return None;
        }
        let last = weights.iter().rposition(|&w| weight(w) > 0.0)?;
        let mut roll = f64::from(self.next_u32()) / 4_294_967_296.0 * total;
        for (i, &w) in weights.iter().enumerate().take(last) {
            let w = weight(w);
            if roll < w {
                return Some(i);
            }
            roll -= w;
        }
        // Rounding in the sums can leave a sliver past the end: it belongs to the last weight.
        Some(last)
    }

    /// `1` or `-1`, evenly. One draw.
    pub fn sign(&mut self) -> i32 {
        if self.bool() {
            1
        } else {
            -1
        }
    }

    /// An angle in radians in `[0, 2π)`, every direction equally likely. One draw.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let a = Rng::new(1).angle();
    /// assert!((0.0..std::f64::consts::TAU).contains(&a));
    /// ```
    pub fn angle(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0 * std::f64::consts::TAU
    }

    /// One of the four unit steps `(1, 0)`, `(0, 1)`, `(-1, 0)`, `(0, -1)` (right, down, left,
    /// up, y growing downwards), evenly. One draw.
    pub fn direction4(&mut self) -> (i32, i32) {
        DIRECTIONS[2 * self.int(4) as usize]
    }

    /// One of the eight unit steps: the four of [`Rng::direction4`] and the diagonals
    /// (`(1, 1)` and so on), evenly. One draw.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let mut rng = Rng::new(5);
    /// let (dx, dy) = rng.direction8();
    /// assert!((dx, dy) != (0, 0) && dx.abs() <= 1 && dy.abs() <= 1);
    /// ```
    pub fn direction8(&mut self) -> (i32, i32) {
        DIRECTIONS[self.int(8) as usize]
    }

    /// A pixel inside `rect`, every one equally likely, or `None` for an empty rectangle
    /// (without drawing). Two draws: x, then y.
    ///
    /// ```
    /// use bt::{Rect, Rng};
    ///
    /// let spawn = Rect::new(16, 16, 32, 8);
    /// let p = Rng::new(9).point_in(spawn).unwrap();
    /// assert!(spawn.contains_point(p));
    /// assert_eq!(Rng::new(9).point_in(Rect::new(0, 0, 0, 5)), None);
    /// ```
    pub fn point_in(&mut self, rect: Rect) -> Option<Point> {
        if rect.is_empty() {
            return None;
        }
        // Both sides are positive i32s, so they fit a u32 and x + offset fits an i32.
        let x = rect.x.wrapping_add(self.int(rect.w as u32) as i32);
        let y = rect.y.wrapping_add(self.int(rect.h as u32) as i32);
        Some(Point::new(x, y))
    }

    /// A point with `x` in `[min.x, max.x)` and `y` in `[min.y, max.y)`, every one equally
    /// likely: BLIT386's `pointInRange`, the corners' way of saying [`Rng::point_in`], and
    /// the same draws as `point_in` on the rectangle between the two corners. `None` when
    /// either range is empty (without drawing). Two draws: x, then y.
    ///
    /// ```
    /// use bt::{Point, Rect, Rng};
    ///
    /// let (top_left, bottom_right) = (Point::new(-8, 40), Point::new(8, 48));
    /// let p = Rng::new(4).point_in_range(top_left, bottom_right).unwrap();
    /// assert!((-8..8).contains(&p.x) && (40..48).contains(&p.y));
    /// assert_eq!(Some(p), Rng::new(4).point_in(Rect::new(-8, 40, 16, 8)));
    /// assert_eq!(Rng::new(4).point_in_range(top_left, Point::new(8, 40)), None);
    /// ```
    pub fn point_in_range(&mut self, min: Point, max: Point) -> Option<Point> {
        if max.x <= min.x || max.y <= min.y {
            return None;
        }
        Some(Point::new(
            self.int_range(min.x, max.x),
            self.int_range(min.y, max.y),
        ))
    }

    /// A shuffled copy of `items`, which stay as they were: the same order
    /// [`Rng::shuffle`] would give `items` from the same state, with the same draws.
    /// Allocates the new `Vec`; shuffle in place where that matters.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let deck = ["ace", "king", "queen", "jack"];
    /// let dealt = Rng::new(8).shuffled(&deck);
    /// assert_eq!(dealt.len(), 4);
    /// assert!(deck.iter().all(|card| dealt.contains(card)));
    /// let mut in_place = deck;
    /// Rng::new(8).shuffle(&mut in_place);
    /// assert_eq!(dealt, in_place);
    /// ```
    pub fn shuffled<T: Clone>(&mut self, items: &[T]) -> Vec<T> {
        let mut copy = items.to_vec();
        self.shuffle(&mut copy);
        copy
    }

    /// A new generator whose sequence is unrelated to this one's from then on: seeded from
    /// this one and on a stream of its own, so a subsystem (a level generator, the weather)
    /// can roll as much as it likes without shifting the main stream's later rolls, and the
    /// fork is still fixed by the boot seed. Takes four draws from `self`.
    ///
    /// ```
    /// use bt::Rng;
    ///
    /// let mut main = Rng::new(42);
    /// let mut level = main.fork();
    /// let after_fork = main.clone();
    /// for _ in 0..1000 {
    ///     level.next_u32(); // however much the level generator rolls...
    /// }
    /// assert_eq!(main, after_fork); // ...the main stream is where it was.
    /// assert_eq!(Rng::new(42).fork(), Rng::new(42).fork());
    /// ```
    pub fn fork(&mut self) -> Rng {
        let wide = |r: &mut Rng| (u64::from(r.next_u32()) << 32) | u64::from(r.next_u32());
        let seed = wide(self);
        let stream = wide(self);
        Rng::on_stream(seed, (stream << 1) | 1)
    }

    /// Everything that decides this generator's future (see [`RngState`]).
    pub fn state(&self) -> RngState {
        RngState {
            state: self.state,
            stream: self.increment >> 1,
            seed: self.seed,
        }
    }

    /// Puts back a state read with [`Rng::state`]: the generator continues exactly as the one
    /// it was read from would have.
    pub fn set_state(&mut self, state: RngState) {
        *self = Rng {
            state: state.state,
            increment: (state.stream << 1) | 1,
            seed: state.seed,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays depend on these streams: a seed gives these values from every existing method,
    /// whatever is added to the generator.
    #[test]
    fn existing_streams_stay_exactly_as_recorded() {
        let mut r = Rng::new(2024);
        let u: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(u, [2478044888, 1354038508, 3871421177, 3778263754]);
        assert_eq!(
            (r.int(10), r.int(1000), r.int(u32::MAX)),
            (7, 116, 1405991126)
        );
        assert_eq!(
            (r.int_range(-50, 50), r.int_range(i32::MIN, i32::MAX)),
            (38, 307299360)
        );
        // The numbers these gave as `f32`s, now `f64`s.
        assert_eq!(r.float(), f64::from(f32::from_bits(1033925128)));
        assert_eq!(
            r.float_range(-1.0, 1.0),
            f64::from(f32::from_bits(3194116864))
        );
        assert_eq!(
            (r.bool(), r.chance(0.5), r.chance(0.25)),
            (false, false, false)
        );
        assert_eq!(r.gaussian(10.0, 2.0).to_bits(), 4622550155415696790);
        let mut deck = [1, 2, 3, 4, 5, 6, 7, 8];
        r.shuffle(&mut deck);
        assert_eq!(deck, [3, 5, 8, 4, 6, 7, 1, 2]);
        assert_eq!(r.pick(&deck), Some(&8));
        assert_eq!(r.next_u32(), 1739148495);
        let mut zero = Rng::new(0);
        assert_eq!((zero.next_u32(), zero.next_u32()), (3894649422, 2055130073));
    }

    #[test]
    fn int_inclusive_reaches_both_ends_and_matches_int_range_one_past() {
        let mut r = Rng::new(21);
        let mut seen = [0u32; 6];
        for _ in 0..6_000 {
            let before = r.clone();
            let die = r.int_inclusive(1, 6);
            let mut same = before;
            assert_eq!(same.int_range(1, 7), die);
            assert_eq!(same, r, "the same draws as int_range");
            seen[(die - 1) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        let before = r.clone();
        assert_eq!(r.int_inclusive(3, 2), 3);
        assert_eq!(r, before, "an empty range draws nothing");
        assert_eq!(r.int_inclusive(i32::MAX, i32::MAX), i32::MAX);
        assert_eq!(r.int_inclusive(i32::MIN, i32::MIN), i32::MIN);
        let (mut low, mut high) = (false, false);
        for _ in 0..200 {
            let v = r.int_inclusive(i32::MAX - 1, i32::MAX);
            low |= v == i32::MAX - 1;
            high |= v == i32::MAX;
        }
        assert!(low && high, "the top of the i32 range is reachable");
        let mut whole = Rng::new(5);
        let v = whole.int_inclusive(i32::MIN, i32::MAX);
        assert_eq!(
            v,
            Rng::new(5).next_u32() as i32,
            "the whole range is one draw"
        );
    }

    #[test]
    fn point_in_range_is_half_open_and_empty_ranges_draw_nothing() {
        let mut r = Rng::new(22);
        let (min, max) = (Point::new(-2, 10), Point::new(1, 12));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..600 {
            let p = r.point_in_range(min, max).unwrap();
            assert!((-2..1).contains(&p.x) && (10..12).contains(&p.y), "{p:?}");
            seen.insert((p.x, p.y));
        }
        assert_eq!(seen.len(), 6, "every point of the 3 × 2 range comes up");
        let before = r.clone();
        assert_eq!(r.point_in_range(min, Point::new(-2, 12)), None);
        assert_eq!(r.point_in_range(max, min), None);
        assert_eq!(r, before);
        let wide = r.point_in_range(Point::new(i32::MIN, 0), Point::new(i32::MAX, 1));
        assert!(wide.is_some_and(|p| p.x < i32::MAX && p.y == 0));
    }

    #[test]
    fn shuffled_leaves_the_items_and_matches_shuffle_in_place() {
        let items: Vec<u32> = (0..20).collect();
        let mut a = Rng::new(23);
        let copy = a.shuffled(&items);
        let mut b = Rng::new(23);
        let mut in_place = items.clone();
        b.shuffle(&mut in_place);
        assert_eq!(copy, in_place);
        assert_eq!(a, b, "the same draws");
        assert_ne!(copy, items);
        let mut sorted = copy.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, items);
        assert!(a.shuffled::<u8>(&[]).is_empty());
    }

    #[test]
    fn weighted_follows_the_weights_and_skips_the_unusable() {
        let mut r = Rng::new(11);
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            let i = r.weighted(&[1.0, 0.0, 3.0, f64::NAN]).unwrap();
            counts[i] += 1;
        }
        assert_eq!(
            (counts[1], counts[3]),
            (0, 0),
            "zero and NaN weights never win"
        );
        // Expected 10,000 and 30,000; a binomial's spread here is about 90.
        assert!((9_500..10_500).contains(&counts[0]), "{counts:?}");
        assert!((29_500..30_500).contains(&counts[2]), "{counts:?}");
        let before = r.clone();
        assert_eq!(r.weighted(&[0.0, -2.0, f64::INFINITY]), None);
        assert_eq!(r, before, "no draw when nothing can win");
        assert_eq!(r.weighted(&[f64::MAX, f64::MAX]).map(|i| i < 2), Some(true));
        // Weights whose sum would pass the largest float are still shared out.
        let mut seen = [false; 2];
        for _ in 0..200 {
            seen[r.weighted(&[f64::MAX, f64::MAX]).unwrap()] = true;
        }
        assert_eq!(seen, [true, true], "both of two huge equal weights come up");
    }

    #[test]
    fn directions_signs_and_angles_cover_their_sets_evenly() {
        let mut r = Rng::new(12);
        let mut four = std::collections::HashMap::new();
        let mut eight = std::collections::HashMap::new();
        let (mut plus, mut octants) = (0, [0u32; 8]);
        for _ in 0..16_000 {
            *four.entry(r.direction4()).or_insert(0u32) += 1;
            *eight.entry(r.direction8()).or_insert(0u32) += 1;
            plus += i32::from(r.sign() == 1);
            let a = r.angle();
            assert!((0.0..std::f64::consts::TAU).contains(&a));
            octants[(a / std::f64::consts::TAU * 8.0) as usize] += 1;
        }
        assert_eq!(four.len(), 4);
        assert!(four.keys().all(|&(x, y)| x.abs() + y.abs() == 1));
        assert_eq!(eight.len(), 8);
        assert!(eight
            .keys()
            .all(|&(x, y)| (x, y) != (0, 0) && x.abs() <= 1 && y.abs() <= 1));
        assert!(
            four.values().all(|&n| (3_700..4_300).contains(&n)),
            "{four:?}"
        );
        assert!(
            eight.values().all(|&n| (1_800..2_200).contains(&n)),
            "{eight:?}"
        );
        assert!((7_700..8_300).contains(&plus), "{plus}");
        assert!(
            octants.iter().all(|&n| (1_800..2_200).contains(&n)),
            "{octants:?}"
        );
    }

    #[test]
    fn points_land_in_the_rectangle_and_reach_its_corners() {
        let mut r = Rng::new(13);
        let rect = Rect::new(-3, 5, 4, 3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2_000 {
            let p = r.point_in(rect).unwrap();
            assert!(rect.contains_point(p), "{p:?}");
            seen.insert(p);
        }
        assert_eq!(seen.len(), 12, "every pixel of 4 × 3");
        let edge = Rect::new(i32::MAX - 1, i32::MIN, 2, i32::MAX);
        for _ in 0..100 {
            assert!(edge.contains_point(r.point_in(edge).unwrap()));
        }
        assert_eq!(r.point_in(Rect::new(0, 0, 5, -1)), None);
    }

    #[test]
    fn a_fork_is_its_own_stream_and_leaves_the_parent_four_draws_on() {
        let mut parent = Rng::new(21);
        let mut skipped = Rng::new(21);
        let mut child = parent.fork();
        for _ in 0..4 {
            skipped.next_u32();
        }
        assert_eq!(
            parent, skipped,
            "a fork costs the parent four draws, no more"
        );
        let from_child: Vec<u32> = (0..64).map(|_| child.next_u32()).collect();
        let from_parent: Vec<u32> = (0..64).map(|_| parent.next_u32()).collect();
        let shared = from_child
            .iter()
            .filter(|v| from_parent.contains(v))
            .count();
        assert_eq!(
            shared, 0,
            "unrelated sequences share no 32-bit value in 64 draws"
        );
        assert_ne!(child.state().stream, Rng::new(0).state().stream);
        // Forks of forks differ from each other and repeat with the seed.
        let mut a = Rng::new(5);
        let (f1, f2) = (a.fork(), a.fork());
        assert_ne!(f1, f2);
        let mut b = Rng::new(5);
        assert_eq!((b.fork(), b.fork()), (f1, f2));
    }

    #[test]
    fn state_round_trips_through_bytes_on_any_stream() {
        let mut r = Rng::new(77).fork();
        r.next_u32();
        let kept = r.state();
        assert_eq!(RngState::from_bytes(kept.to_bytes()), kept);
        let ahead: Vec<u32> = (0..5).map(|_| r.next_u32()).collect();
        let mut back = Rng::new(0);
        back.set_state(kept);
        assert_eq!((0..5).map(|_| back.next_u32()).collect::<Vec<_>>(), ahead);
        // The default stream reads back as PCG's usual increment.
        assert_eq!(Rng::new(1).state().stream, INCREMENT >> 1);
    }

    #[test]
    fn same_seed_same_sequence_other_seed_other_sequence() {
        let a: Vec<u32> = {
            let mut r = Rng::new(7);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let mut r = Rng::new(7);
        let b: Vec<u32> = (0..8).map(|_| r.next_u32()).collect();
        let mut r = Rng::new(8);
        let c: Vec<u32> = (0..8).map(|_| r.next_u32()).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn reseed_restarts_the_sequence() {
        let mut r = Rng::new(99);
        let first = r.next_u32();
        r.next_u32();
        r.reseed(99);
        assert_eq!(r.next_u32(), first);
        assert_eq!(r.seed(), 99);
    }

    #[test]
    fn ranges_hold_and_cover() {
        let mut r = Rng::new(1);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let v = r.int_range(-3, 3);
            assert!((-3..3).contains(&v));
            seen[(v + 3) as usize] = true;
            let f = r.float();
            assert!((0.0..1.0).contains(&f));
        }
        assert!(seen.iter().all(|&s| s), "every value appears: {seen:?}");
        assert_eq!(r.int(0), 0);
        assert_eq!(r.int_range(5, 5), 5);
        assert!(r.int_range(i32::MIN, i32::MAX) < i32::MAX);
        assert_eq!(r.pick::<u8>(&[]), None);
        assert!(!r.chance(0.0));
        assert!(r.chance(1.0));
    }

    #[test]
    fn float_range_holds_and_degenerate_ranges_give_min() {
        let mut r = Rng::new(3);
        for _ in 0..1000 {
            let v = r.float_range(-2.0, 5.0);
            assert!((-2.0..5.0).contains(&v));
        }
        assert_eq!(r.float_range(4.0, 4.0), 4.0);
        assert_eq!(r.float_range(1.0, f64::NAN), 1.0);
        assert_eq!(r.float_range(-f64::MAX, f64::MAX), -f64::MAX);
    }

    #[test]
    fn gaussian_has_its_mean_and_spread() {
        let mut r = Rng::new(5);
        let n = 20_000;
        let xs: Vec<f64> = (0..n).map(|_| r.gaussian(10.0, 2.0)).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!((mean - 10.0).abs() < 0.1, "mean {mean}");
        assert!((var.sqrt() - 2.0).abs() < 0.1, "sd {}", var.sqrt());
        assert!(xs.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn shuffle_permutes_and_repeats_with_the_seed() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        Rng::new(9).shuffle(&mut a);
        Rng::new(9).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
        Rng::new(1).shuffle::<u8>(&mut []);
    }
}
