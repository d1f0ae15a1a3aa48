//! Seeded pseudo-random numbers for the simulation.

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
    seed: u64,
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
const INCREMENT: u64 = 1_442_695_040_888_963_407;

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut rng = Rng { state: 0, seed };
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
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.advance();
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A float in `[0, 1)` with 24 bits of resolution.
    pub fn float(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32)
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

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f32) -> bool {
        self.float() < p.clamp(0.0, 1.0)
    }

    /// A fair coin.
    pub fn bool(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }

    /// A float in `[min, max)`; `min` when the range is empty or not finite.
    pub fn float_range(&mut self, min: f32, max: f32) -> f32 {
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
        assert_eq!(r.float().to_bits(), 1033925128);
        assert_eq!(r.float_range(-1.0, 1.0).to_bits(), 3194116864);
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
        assert_eq!(r.float_range(1.0, f32::NAN), 1.0);
        assert_eq!(r.float_range(-f32::MAX, f32::MAX), -f32::MAX);
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
