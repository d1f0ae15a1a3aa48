//! Stateless randomness for procedural scenery: integer hashes, value noise, and Perlin and
//! simplex gradient noise (in `gradient.rs`).
//!
//! Unlike [`crate::Rng`], nothing here has state: the same seed and coordinates always give the
//! same value, in any order, in `update` or in `render`. That makes them safe for drawing things
//! that must look random but stay put, such as where the stars of a tile are or how tall a hill
//! is at column `x`.
//!
//! They live in `bt::noise`, not the crate root: a cart that draws scenery imports the few it
//! uses (`use bt::noise::{hash2, ValueNoise};`).
//!
//! Every value is computed with plain IEEE arithmetic on integers hashed from the seed, so the
//! same seed and coordinates give the same bits on every machine, native or web.

mod gradient;

pub use gradient::{PerlinNoise, SimplexNoise};

/// The usual number of octaves for the `fbm` methods: four layers of detail.
pub const FBM_OCTAVES: u32 = 4;
/// The usual persistence for the `fbm` methods: each octave half as strong as the one before.
pub const FBM_PERSISTENCE: f32 = 0.5;
/// The usual lacunarity for the `fbm` methods: each octave twice as fine as the one before.
pub const FBM_LACUNARITY: f32 = 2.0;
/// The most octaves an `fbm` call adds up; more are not visible at any pixel size.
pub const FBM_MAX_OCTAVES: u32 = 16;

/// The seed of octave `octave` of fractal noise seeded `seed`: each octave gets its own, so
/// the layers' features do not line up.
pub(crate) const fn octave_seed(seed: u32, octave: u32) -> u32 {
    seed.wrapping_add(octave.wrapping_mul(0x68e3_1da4))
}

/// Mixes 32 bits thoroughly (a murmur-style finaliser): every input bit affects every output bit.
const fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

/// Distinct odd constants to fold each coordinate in with.
const KX: u32 = 0x9e37_79b1;
const KY: u32 = 0x85eb_ca77;
const KZ: u32 = 0xc2b2_ae3d;

/// 32 random-looking bits for integer coordinate `x` under `seed`.
///
/// ```
/// use bt::noise::{hash1, hash1_u32, hash2, hash3_u32};
///
/// assert_eq!(hash1_u32(7, 100), hash1_u32(7, 100));
/// assert_ne!(hash1_u32(7, 100), hash1_u32(7, 101));
/// assert_ne!(hash1_u32(7, 100), hash1_u32(8, 100));
/// assert!((0.0..1.0).contains(&hash1(1, -5)));
/// assert!((0.0..1.0).contains(&hash2(1, 3, 4)));
/// let _ = hash3_u32(0, 1, 2, 3);
/// ```
pub const fn hash1_u32(seed: u32, x: i32) -> u32 {
    mix(seed ^ mix((x as u32).wrapping_mul(KX)))
}

/// 32 random-looking bits for the point `(x, y)` under `seed`.
pub const fn hash2_u32(seed: u32, x: i32, y: i32) -> u32 {
    mix(hash1_u32(seed, x) ^ (y as u32).wrapping_mul(KY))
}

/// 32 random-looking bits for the point `(x, y, z)` under `seed`.
pub const fn hash3_u32(seed: u32, x: i32, y: i32, z: i32) -> u32 {
    mix(hash2_u32(seed, x, y) ^ (z as u32).wrapping_mul(KZ))
}

/// Turns 32 bits into a float in `[0, 1)` (24 bits of resolution).
fn unit(h: u32) -> f32 {
    (h >> 8) as f32 * (1.0 / (1u32 << 24) as f32)
}

/// [`hash1_u32`] as a float in `[0, 1)`.
pub fn hash1(seed: u32, x: i32) -> f32 {
    unit(hash1_u32(seed, x))
}

/// [`hash2_u32`] as a float in `[0, 1)`.
pub fn hash2(seed: u32, x: i32, y: i32) -> f32 {
    unit(hash2_u32(seed, x, y))
}

/// [`hash3_u32`] as a float in `[0, 1)`.
pub fn hash3(seed: u32, x: i32, y: i32, z: i32) -> f32 {
    unit(hash3_u32(seed, x, y, z))
}

/// Smooth random hills: a random value at every whole-number point, blended smoothly in between.
///
/// Values are in `[0, 1)`. At whole-number points the noise equals the hash there, and between
/// them it follows a smoothstep blend, so it has no visible kinks. [`ValueNoise::fbm1`],
/// [`ValueNoise::fbm2`] and [`ValueNoise::fbm3`] add octaves for rougher, more natural shapes.
///
/// ```
/// use bt::noise::ValueNoise;
///
/// let hills = ValueNoise::new(42);
/// let a = hills.get1(10.25);
/// assert!((0.0..1.0).contains(&a));
/// assert_eq!(a, ValueNoise::new(42).get1(10.25));
/// // Close points have close values.
/// assert!((hills.get2(3.5, 7.5) - hills.get2(3.51, 7.5)).abs() < 0.05);
/// let rough = hills.fbm2(3.5, 7.5, 4, 0.5, 2.0);
/// assert!((0.0..1.0).contains(&rough));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueNoise {
    seed: u32,
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// The lattice cell of `x` and the position inside it. Coordinates beyond the `i32` range wrap
/// round the lattice rather than misbehave.
fn cell(x: f32) -> (i32, f32) {
    let f = x.floor();
    let t = if f.is_finite() { x - f } else { 0.0 };
    (f as i64 as i32, t.clamp(0.0, 1.0))
}

impl ValueNoise {
    /// Noise fixed by `seed`.
    pub const fn new(seed: u32) -> ValueNoise {
        ValueNoise { seed }
    }

    /// Noise along a line, in `[0, 1)`.
    pub fn get1(&self, x: f32) -> f32 {
        let (ix, tx) = cell(x);
        let a = hash1(self.seed, ix);
        let b = hash1(self.seed, ix.wrapping_add(1));
        lerp(a, b, smooth(tx)).min(ONE_BELOW)
    }

    /// Noise over a plane, in `[0, 1)`.
    pub fn get2(&self, x: f32, y: f32) -> f32 {
        let (ix, tx) = cell(x);
        let (iy, ty) = cell(y);
        let (x1, y1) = (ix.wrapping_add(1), iy.wrapping_add(1));
        let s = self.seed;
        let top = lerp(hash2(s, ix, iy), hash2(s, x1, iy), smooth(tx));
        let bottom = lerp(hash2(s, ix, y1), hash2(s, x1, y1), smooth(tx));
        lerp(top, bottom, smooth(ty)).min(ONE_BELOW)
    }

    /// Noise through a volume, in `[0, 1)`: a plane that changes smoothly as `z` moves, so
    /// `z` can be time (clouds that drift and churn) or a third axis of the world.
    ///
    /// ```
    /// use bt::noise::{hash3, ValueNoise};
    ///
    /// let clouds = ValueNoise::new(9);
    /// let now = clouds.get3(4.5, 2.25, 0.5);
    /// assert!((0.0..1.0).contains(&now));
    /// assert!((clouds.get3(4.5, 2.25, 0.51) - now).abs() < 0.05); // a moment later
    /// assert_eq!(clouds.get3(1.0, 2.0, 3.0), hash3(9, 1, 2, 3));
    /// let rough = clouds.fbm3(4.5, 2.25, 0.5, 4, 0.5, 2.0);
    /// assert!((0.0..1.0).contains(&rough));
    /// ```
    pub fn get3(&self, x: f32, y: f32, z: f32) -> f32 {
        let (ix, tx) = cell(x);
        let (iy, ty) = cell(y);
        let (iz, tz) = cell(z);
        let (x1, y1, z1) = (ix.wrapping_add(1), iy.wrapping_add(1), iz.wrapping_add(1));
        let (sx, sy, sz) = (smooth(tx), smooth(ty), smooth(tz));
        let s = self.seed;
        let plane = |z: i32| {
            let top = lerp(hash3(s, ix, iy, z), hash3(s, x1, iy, z), sx);
            let bottom = lerp(hash3(s, ix, y1, z), hash3(s, x1, y1, z), sx);
            lerp(top, bottom, sy)
        };
        lerp(plane(iz), plane(z1), sz).min(ONE_BELOW)
    }

    /// Fractal noise along a line: `octaves` layers, each `lacunarity` times finer and
    /// `persistence` times fainter than the last, normalised back to `[0, 1)`. Usual values:
    /// 4 octaves, persistence 0.5, lacunarity 2. 0 octaves counts as 1.
    pub fn fbm1(&self, x: f32, octaves: u32, persistence: f32, lacunarity: f32) -> f32 {
        self.fbm(octaves, persistence, lacunarity, |n, f| n.get1(x * f))
    }

    /// Fractal noise over a plane; see [`ValueNoise::fbm1`].
    pub fn fbm2(&self, x: f32, y: f32, octaves: u32, persistence: f32, lacunarity: f32) -> f32 {
        self.fbm(octaves, persistence, lacunarity, |n, f| {
            n.get2(x * f, y * f)
        })
    }

    /// Fractal noise through a volume; see [`ValueNoise::fbm1`].
    pub fn fbm3(
        &self,
        x: f32,
        y: f32,
        z: f32,
        octaves: u32,
        persistence: f32,
        lacunarity: f32,
    ) -> f32 {
        self.fbm(octaves, persistence, lacunarity, |n, f| {
            n.get3(x * f, y * f, z * f)
        })
    }

    fn fbm(
        &self,
        octaves: u32,
        persistence: f32,
        lacunarity: f32,
        sample: impl Fn(&ValueNoise, f32) -> f32,
    ) -> f32 {
        let (mut sum, mut weight, mut amp, mut freq) = (0.0f32, 0.0f32, 1.0f32, 1.0f32);
        for octave in 0..octaves.clamp(1, FBM_MAX_OCTAVES) {
            let layer = ValueNoise::new(octave_seed(self.seed, octave));
            sum += amp * sample(&layer, freq);
            weight += amp;
            amp *= persistence;
            freq *= lacunarity;
        }
        if weight > 0.0 && (sum / weight).is_finite() {
            (sum / weight).clamp(0.0, ONE_BELOW)
        } else {
            0.0
        }
    }
}

/// The largest `f32` below 1.
const ONE_BELOW: f32 = 1.0 - f32::EPSILON / 2.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_spread_evenly() {
        let mut buckets = [0u32; 16];
        for x in 0..16_000 {
            buckets[(hash1(3, x) * 16.0) as usize] += 1;
        }
        assert!(
            buckets.iter().all(|&b| (850..1150).contains(&b)),
            "{buckets:?}"
        );
        assert_ne!(
            hash2_u32(0, 1, 2),
            hash2_u32(0, 2, 1),
            "coordinates are not symmetric"
        );
        assert_ne!(hash3_u32(0, 0, 0, 1), hash3_u32(0, 0, 0, 0));
    }

    #[test]
    fn noise_meets_the_hash_at_lattice_points_and_stays_in_range() {
        let n = ValueNoise::new(11);
        assert_eq!(n.get1(5.0), hash1(11, 5));
        assert_eq!(n.get2(-3.0, 4.0), hash2(11, -3, 4));
        for x in [f32::MAX, f32::MIN, f32::NAN, f32::INFINITY, -1e30, 0.5] {
            assert!((0.0..1.0).contains(&n.get1(x)), "{x}");
            assert!((0.0..1.0).contains(&n.get2(x, x)), "{x}");
            assert!((0.0..1.0).contains(&n.fbm2(x, 1.0, 4, 0.5, 2.0)), "{x}");
        }
        assert!((0.0..1.0).contains(&n.fbm1(2.5, 0, 0.5, 2.0)));
    }

    #[test]
    fn volume_noise_meets_the_hash_blends_smoothly_and_stays_in_range() {
        let n = ValueNoise::new(11);
        assert_eq!(n.get3(-3.0, 4.0, 7.0), hash3(11, -3, 4, 7));
        // Halfway along z between two lattice points the smoothstep weight is exactly 1/2.
        let (a, b) = (hash3(11, 2, 5, 0), hash3(11, 2, 5, 1));
        assert_eq!(n.get3(2.0, 5.0, 0.5), a + (b - a) * 0.5);
        // On a whole z, the volume holds a plane of its own hashes: z matters.
        assert_ne!(n.get3(0.5, 0.5, 0.0), n.get3(0.5, 0.5, 1.0));
        for x in [f32::MAX, f32::MIN, f32::NAN, f32::INFINITY, -1e30, 0.5] {
            assert!((0.0..1.0).contains(&n.get3(x, 0.25, x)), "{x}");
            assert!(
                (0.0..1.0).contains(&n.fbm3(x, 1.0, 2.0, 4, 0.5, 2.0)),
                "{x}"
            );
        }
        let mut steps = 0.0f32;
        for i in 0..1000 {
            let z = i as f32 * 0.01;
            steps = steps.max((n.get3(1.5, 2.5, z + 0.01) - n.get3(1.5, 2.5, z)).abs());
        }
        assert!(steps < 0.05, "no jumps along z: {steps}");
        assert_eq!(n.fbm3(1.5, 2.5, 3.5, 1, 0.5, 2.0), n.get3(1.5, 2.5, 3.5));
        assert_ne!(n.fbm3(1.5, 2.5, 3.5, 4, 0.5, 2.0), n.get3(1.5, 2.5, 3.5));
    }
}
