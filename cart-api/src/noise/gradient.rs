//! Gradient noise: Perlin's (on a square or cubic lattice) and simplex (on triangles or
//! tetrahedra). Each lattice point gets a gradient picked by hashing its coordinates under the
//! seed; the noise near a point is the sum of those gradients' slopes, blended. Both are 0 on
//! average and lie in `[-1, 1]`.
//!
//! Computed in `f64` from the `f32` coordinates with additions, multiplications and `floor`
//! only, all exact or correctly rounded by IEEE 754, so every machine gives the same bits.

use super::{hash2_u32, hash3_u32, octave_seed, FBM_MAX_OCTAVES};

/// The 2D gradients: the four axes and the four diagonals.
const GRAD2: [(f64, f64); 8] = [
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
];

/// The 3D gradients: the twelve edge midpoints of a cube (Perlin's 2002 set).
const GRAD3: [(f64, f64, f64); 12] = [
    (1.0, 1.0, 0.0),
    (-1.0, 1.0, 0.0),
    (1.0, -1.0, 0.0),
    (-1.0, -1.0, 0.0),
    (1.0, 0.0, 1.0),
    (-1.0, 0.0, 1.0),
    (1.0, 0.0, -1.0),
    (-1.0, 0.0, -1.0),
    (0.0, 1.0, 1.0),
    (0.0, -1.0, 1.0),
    (0.0, 1.0, -1.0),
    (0.0, -1.0, -1.0),
];

/// The slope of lattice point `(i, j)`'s gradient at offset `(x, y)` from it.
fn slope2(seed: u32, i: i32, j: i32, x: f64, y: f64) -> f64 {
    let (gx, gy) = GRAD2[(hash2_u32(seed, i, j) & 7) as usize];
    gx * x + gy * y
}

/// The slope of lattice point `(i, j, k)`'s gradient at offset `(x, y, z)` from it.
fn slope3(seed: u32, i: i32, j: i32, k: i32, x: f64, y: f64, z: f64) -> f64 {
    let (gx, gy, gz) = GRAD3[(hash3_u32(seed, i, j, k) % 12) as usize];
    gx * x + gy * y + gz * z
}

/// A coordinate as `f64`; NaN and the infinities count as 0.
fn finite(x: f32) -> f64 {
    if x.is_finite() {
        f64::from(x)
    } else {
        0.0
    }
}

/// The lattice index of a floored coordinate. Beyond the `i32` range the lattice wraps round
/// rather than misbehaves.
fn index(floor: f64) -> i32 {
    floor as i64 as i32
}

/// Perlin's quintic blend `6t⁵ - 15t⁴ + 10t³`: flat at both ends, so cells join smoothly.
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// A sample as `f32` in `[-1, 1]`; anything not finite as 0.
fn bounded(v: f64) -> f32 {
    if v.is_finite() {
        v.clamp(-1.0, 1.0) as f32
    } else {
        0.0
    }
}

/// Adds `octaves` layers of `sample` (called with each octave's seed and frequency), each
/// `persistence` times as strong and `lacunarity` times as fine as the last, divided by the
/// sum of the strengths. 0 octaves count as 1, more than [`FBM_MAX_OCTAVES`] as that many.
fn fbm(
    seed: u32,
    octaves: u32,
    persistence: f32,
    lacunarity: f32,
    sample: impl Fn(u32, f32) -> f32,
) -> f32 {
    let (mut sum, mut weight, mut amp, mut freq) = (0.0f64, 0.0f64, 1.0f64, 1.0f32);
    for octave in 0..octaves.clamp(1, FBM_MAX_OCTAVES) {
        sum += amp * f64::from(sample(octave_seed(seed, octave), freq));
        weight += amp;
        amp *= f64::from(persistence);
        freq *= lacunarity;
    }
    if weight > 0.0 {
        bounded(sum / weight)
    } else {
        0.0
    }
}

/// Perlin noise: smooth hills and valleys on a square (or cubic) lattice, in `[-1, 1]`.
///
/// Every whole-number point is a valley floor or a hill's slope: the noise is exactly 0 there,
/// and between them it rises and falls with a random gradient per lattice point, blended by
/// Perlin's quintic curve so no seams show. Features are about one unit across; divide
/// coordinates to make them larger.
///
/// ```
/// use bt::noise::{PerlinNoise, FBM_LACUNARITY, FBM_OCTAVES, FBM_PERSISTENCE};
///
/// let terrain = PerlinNoise::new(7);
/// assert_eq!(terrain.get2(3.0, -4.0), 0.0); // 0 at every lattice point
/// let h = terrain.get2(3.3, -4.6);
/// assert!((-1.0..=1.0).contains(&h));
/// assert_eq!(h, PerlinNoise::new(7).get2(3.3, -4.6));
/// let cloud = terrain.get3(0.5, 1.5, 2.25);
/// assert!((-1.0..=1.0).contains(&cloud));
/// let rough = terrain.fbm2(3.3, -4.6, FBM_OCTAVES, FBM_PERSISTENCE, FBM_LACUNARITY);
/// assert!((-1.0..=1.0).contains(&rough));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PerlinNoise {
    seed: u32,
}

impl PerlinNoise {
    /// Noise fixed by `seed`.
    pub const fn new(seed: u32) -> PerlinNoise {
        PerlinNoise { seed }
    }

    /// Noise over a plane, in `[-1, 1]`. NaN and infinite coordinates count as 0.
    pub fn get2(&self, x: f32, y: f32) -> f32 {
        bounded(perlin2(self.seed, finite(x), finite(y)))
    }

    /// Noise through a volume, in `[-1, 1]`: a plane that changes smoothly with `z` (time,
    /// say). NaN and infinite coordinates count as 0.
    pub fn get3(&self, x: f32, y: f32, z: f32) -> f32 {
        bounded(perlin3(self.seed, finite(x), finite(y), finite(z)))
    }

    /// Fractal noise over a plane: `octaves` layers, each `lacunarity` times finer and
    /// `persistence` times fainter than the last, with its own seed, normalised back to
    /// `[-1, 1]`. The usual values are [`FBM_OCTAVES`](super::FBM_OCTAVES),
    /// [`FBM_PERSISTENCE`](super::FBM_PERSISTENCE) and [`FBM_LACUNARITY`](super::FBM_LACUNARITY)
    /// (4, 0.5, 2). 0 octaves count as 1, more than
    /// [`FBM_MAX_OCTAVES`](super::FBM_MAX_OCTAVES) as that many.
    pub fn fbm2(&self, x: f32, y: f32, octaves: u32, persistence: f32, lacunarity: f32) -> f32 {
        fbm(self.seed, octaves, persistence, lacunarity, |s, f| {
            PerlinNoise::new(s).get2(x * f, y * f)
        })
    }

    /// Fractal noise through a volume; see [`PerlinNoise::fbm2`].
    pub fn fbm3(
        &self,
        x: f32,
        y: f32,
        z: f32,
        octaves: u32,
        persistence: f32,
        lacunarity: f32,
    ) -> f32 {
        fbm(self.seed, octaves, persistence, lacunarity, |s, f| {
            PerlinNoise::new(s).get3(x * f, y * f, z * f)
        })
    }
}

fn perlin2(seed: u32, x: f64, y: f64) -> f64 {
    let (fx, fy) = (x.floor(), y.floor());
    let (i, j) = (index(fx), index(fy));
    let (x, y) = (x - fx, y - fy);
    let (i1, j1) = (i.wrapping_add(1), j.wrapping_add(1));
    let (u, v) = (fade(x), fade(y));
    let top = lerp(slope2(seed, i, j, x, y), slope2(seed, i1, j, x - 1.0, y), u);
    let bottom = lerp(
        slope2(seed, i, j1, x, y - 1.0),
        slope2(seed, i1, j1, x - 1.0, y - 1.0),
        u,
    );
    lerp(top, bottom, v)
}

fn perlin3(seed: u32, x: f64, y: f64, z: f64) -> f64 {
    let (fx, fy, fz) = (x.floor(), y.floor(), z.floor());
    let (i, j, k) = (index(fx), index(fy), index(fz));
    let (x, y, z) = (x - fx, y - fy, z - fz);
    let (u, v, w) = (fade(x), fade(y), fade(z));
    // The slope of the corner `(di, dj, dk)` steps from `(i, j, k)`.
    let corner = |di: i32, dj: i32, dk: i32| {
        slope3(
            seed,
            i.wrapping_add(di),
            j.wrapping_add(dj),
            k.wrapping_add(dk),
            x - f64::from(di),
            y - f64::from(dj),
            z - f64::from(dk),
        )
    };
    let face = |dk: i32| {
        let top = lerp(corner(0, 0, dk), corner(1, 0, dk), u);
        let bottom = lerp(corner(0, 1, dk), corner(1, 1, dk), u);
        lerp(top, bottom, v)
    };
    lerp(face(0), face(1), w)
}

/// Simplex noise: gradient noise on a grid of triangles (tetrahedra in 3D), in `[-1, 1]`.
///
/// It looks like [`PerlinNoise`] with fewer square-grid artefacts (no features lining up along
/// the axes), and each sample blends three corners in 2D and four in 3D rather than four and
/// eight. Features are about one unit across.
///
/// ```
/// use bt::noise::SimplexNoise;
///
/// let water = SimplexNoise::new(3);
/// let a = water.get2(10.5, 4.25);
/// assert!((-1.0..=1.0).contains(&a));
/// assert_eq!(a, SimplexNoise::new(3).get2(10.5, 4.25));
/// // Close points have close values.
/// assert!((water.get2(10.5, 4.25) - water.get2(10.51, 4.25)).abs() < 0.05);
/// let shimmer = water.fbm3(10.5, 4.25, 0.1, 4, 0.5, 2.0);
/// assert!((-1.0..=1.0).contains(&shimmer));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SimplexNoise {
    seed: u32,
}

impl SimplexNoise {
    /// Noise fixed by `seed`.
    pub const fn new(seed: u32) -> SimplexNoise {
        SimplexNoise { seed }
    }

    /// Noise over a plane, in `[-1, 1]`. NaN and infinite coordinates count as 0.
    pub fn get2(&self, x: f32, y: f32) -> f32 {
        bounded(simplex2(self.seed, finite(x), finite(y)))
    }

    /// Noise through a volume, in `[-1, 1]`. NaN and infinite coordinates count as 0.
    pub fn get3(&self, x: f32, y: f32, z: f32) -> f32 {
        bounded(simplex3(self.seed, finite(x), finite(y), finite(z)))
    }

    /// Fractal noise over a plane, as [`PerlinNoise::fbm2`].
    pub fn fbm2(&self, x: f32, y: f32, octaves: u32, persistence: f32, lacunarity: f32) -> f32 {
        fbm(self.seed, octaves, persistence, lacunarity, |s, f| {
            SimplexNoise::new(s).get2(x * f, y * f)
        })
    }

    /// Fractal noise through a volume, as [`PerlinNoise::fbm2`].
    pub fn fbm3(
        &self,
        x: f32,
        y: f32,
        z: f32,
        octaves: u32,
        persistence: f32,
        lacunarity: f32,
    ) -> f32 {
        fbm(self.seed, octaves, persistence, lacunarity, |s, f| {
            SimplexNoise::new(s).get3(x * f, y * f, z * f)
        })
    }
}

/// The 2D skew, `(√3 - 1) / 2`: adding `(x + y) × F2` to both coordinates turns the grid of
/// triangles into a grid of squares cut along a diagonal.
const F2: f64 = 0.366_025_403_784_438_6;
/// The 2D unskew, `(3 - √3) / 6`.
const G2: f64 = 0.211_324_865_405_187_1;
/// The 3D skew and unskew, `1/3` and `1/6`.
const F3: f64 = 1.0 / 3.0;
const G3: f64 = 1.0 / 6.0;
/// Scales that stretch the sums of the kernels below to `[-1, 1]`: one over the largest sum
/// found by sampling 1.6 million points of 40 seeds (0.01426 in 2D, 0.01300 in 3D), rounded
/// down, so a peak reaches about ±1 and the rare higher one is clamped.
const SCALE2: f64 = 70.0;
const SCALE3: f64 = 76.0;

/// A corner's share: `(r² - d²)⁴ × slope` inside radius `r` (`r² = 1/2`), 0 outside. With
/// `r² = 1/2` a corner's share reaches 0 exactly at the far side of every triangle or
/// tetrahedron it belongs to, so the sum is continuous.
fn kernel(d2: f64, slope: f64) -> f64 {
    let t = 0.5 - d2;
    if t <= 0.0 {
        0.0
    } else {
        let t2 = t * t;
        t2 * t2 * slope
    }
}

fn simplex2(seed: u32, x: f64, y: f64) -> f64 {
    let s = (x + y) * F2;
    let (fi, fj) = ((x + s).floor(), (y + s).floor());
    let t = (fi + fj) * G2;
    // The offset from the triangle's first corner, in plane coordinates.
    let (x0, y0) = (x - (fi - t), y - (fj - t));
    // Below the diagonal the middle corner is one step in x, above it one step in y.
    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };
    let (x1, y1) = (x0 - f64::from(i1) + G2, y0 - f64::from(j1) + G2);
    let (x2, y2) = (x0 - 1.0 + 2.0 * G2, y0 - 1.0 + 2.0 * G2);
    let (i, j) = (index(fi), index(fj));
    let n0 = kernel(x0 * x0 + y0 * y0, slope2(seed, i, j, x0, y0));
    let n1 = kernel(
        x1 * x1 + y1 * y1,
        slope2(seed, i.wrapping_add(i1), j.wrapping_add(j1), x1, y1),
    );
    let n2 = kernel(
        x2 * x2 + y2 * y2,
        slope2(seed, i.wrapping_add(1), j.wrapping_add(1), x2, y2),
    );
    SCALE2 * (n0 + n1 + n2)
}

fn simplex3(seed: u32, x: f64, y: f64, z: f64) -> f64 {
    let s = (x + y + z) * F3;
    let (fi, fj, fk) = ((x + s).floor(), (y + s).floor(), (z + s).floor());
    let t = (fi + fj + fk) * G3;
    let (x0, y0, z0) = (x - (fi - t), y - (fj - t), z - (fk - t));
    // Which of the cube's six tetrahedra: step first along the largest offset, then the next.
    let (first, second) = if x0 >= y0 {
        if y0 >= z0 {
            ((1, 0, 0), (1, 1, 0))
        } else if x0 >= z0 {
            ((1, 0, 0), (1, 0, 1))
        } else {
            ((0, 0, 1), (1, 0, 1))
        }
    } else if y0 < z0 {
        ((0, 0, 1), (0, 1, 1))
    } else if x0 < z0 {
        ((0, 1, 0), (0, 1, 1))
    } else {
        ((0, 1, 0), (1, 1, 0))
    };
    let (i, j, k) = (index(fi), index(fj), index(fk));
    let mut sum = 0.0;
    for (n, (di, dj, dk)) in [(0, 0, 0), first, second, (1, 1, 1)]
        .into_iter()
        .enumerate()
    {
        let back = n as f64 * G3;
        let (cx, cy, cz) = (
            x0 - f64::from(di) + back,
            y0 - f64::from(dj) + back,
            z0 - f64::from(dk) + back,
        );
        let slope = slope3(
            seed,
            i.wrapping_add(di),
            j.wrapping_add(dj),
            k.wrapping_add(dk),
            cx,
            cy,
            cz,
        );
        sum += kernel(cx * cx + cy * cy + cz * cz, slope);
    }
    SCALE3 * sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::FBM_LACUNARITY;

    /// A spread of points with fractional parts everywhere in the cell, both signs.
    fn points() -> impl Iterator<Item = (f32, f32, f32)> {
        (0..3000).map(|n| {
            let n = n as f32;
            (n * 0.137 - 200.0, n * 0.0731 - 100.0, n * 0.0419 - 60.0)
        })
    }

    type Sample = Box<dyn Fn(u32, f32, f32, f32) -> f32>;

    fn all_four() -> [(&'static str, Sample); 4] {
        [
            (
                "perlin2",
                Box::new(|s, x, y, _| PerlinNoise::new(s).get2(x, y)),
            ),
            (
                "perlin3",
                Box::new(|s, x, y, z| PerlinNoise::new(s).get3(x, y, z)),
            ),
            (
                "simplex2",
                Box::new(|s, x, y, _| SimplexNoise::new(s).get2(x, y)),
            ),
            (
                "simplex3",
                Box::new(|s, x, y, z| SimplexNoise::new(s).get3(x, y, z)),
            ),
        ]
    }

    #[test]
    fn every_kind_stays_in_range_averages_zero_and_uses_the_range() {
        for (name, f) in all_four() {
            let (mut sum, mut lo, mut hi) = (0.0f64, 0.0f32, 0.0f32);
            for (x, y, z) in points() {
                let v = f(9, x, y, z);
                assert!((-1.0..=1.0).contains(&v), "{name} at ({x}, {y}, {z}): {v}");
                sum += f64::from(v);
                lo = lo.min(v);
                hi = hi.max(v);
            }
            let mean = sum / 3000.0;
            assert!(mean.abs() < 0.05, "{name} mean {mean}");
            assert!(lo < -0.4 && hi > 0.4, "{name} spans only {lo}..{hi}");
            for bad in [
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::MAX,
                -1e30,
                1e-40,
            ] {
                let v = f(9, bad, 0.5, bad);
                assert!(
                    v.is_finite() && (-1.0..=1.0).contains(&v),
                    "{name} at {bad}: {v}"
                );
            }
        }
    }

    #[test]
    fn close_points_have_close_values_across_cell_and_simplex_edges() {
        // Walk small steps along a slanted line: it crosses square, triangle and tetrahedron
        // boundaries many times. A wrong corner or a kernel that does not reach 0 at the edge
        // would show as a jump far bigger than a step's worth of slope.
        // The steepest slope any of them has is about 7 (simplex beside a vertex: 70 × 0.5⁴ × √2).
        let step = 1e-4f64;
        for (name, f) in all_four() {
            let mut prev = f(4, 0.0, 0.0, 0.0);
            for n in 1..60_000 {
                let t = n as f64 * step;
                let (x, y, z) = (t as f32, (t * 0.618) as f32, (t * 0.377) as f32);
                let v = f(4, x, y, z);
                assert!(
                    (v - prev).abs() < 1.5e-3,
                    "{name} jumps {prev} -> {v} at {t}"
                );
                prev = v;
            }
        }
    }

    #[test]
    fn same_seed_same_values_other_seed_other_values() {
        for (name, f) in all_four() {
            let differ = points()
                .filter(|&(x, y, z)| {
                    assert_eq!(f(1, x, y, z).to_bits(), f(1, x, y, z).to_bits());
                    f(1, x, y, z) != f(2, x, y, z)
                })
                .count();
            assert!(differ > 2900, "{name}: only {differ} of 3000 differ");
        }
    }

    #[test]
    fn perlin_is_zero_on_the_lattice_and_simplex_on_its_vertices() {
        for seed in [0, 1, 77, u32::MAX] {
            for i in -5..5 {
                for j in -5..5 {
                    let (x, y) = (i as f32, j as f32);
                    assert_eq!(PerlinNoise::new(seed).get2(x, y), 0.0);
                    assert_eq!(PerlinNoise::new(seed).get3(x, y, (i + j) as f32), 0.0);
                    // A vertex of the triangle grid: (i, j) unskewed.
                    let back = f64::from(i + j) * G2;
                    let (vx, vy) = (f64::from(i) - back, f64::from(j) - back);
                    // Only the vertex's own corner reaches it, at zero offset: 0 up to the
                    // rounding of the unskew.
                    let v = simplex2(seed, vx, vy);
                    assert!(v.abs() < 1e-12, "({vx}, {vy}): {v}");
                    let k = i - j;
                    let back = f64::from(i + j + k) * G3;
                    let (vx, vy, vz) = (
                        f64::from(i) - back,
                        f64::from(j) - back,
                        f64::from(k) - back,
                    );
                    let v = simplex3(seed, vx, vy, vz);
                    assert!(v.abs() < 1e-12, "({vx}, {vy}, {vz}): {v}");
                }
            }
        }
    }

    /// The gradients again, written out apart from the code under test.
    fn gradient2(seed: u32, i: i32, j: i32) -> (f64, f64) {
        let table = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
        ];
        let (gx, gy) = table[(crate::noise::hash2_u32(seed, i, j) % 8) as usize];
        (f64::from(gx), f64::from(gy))
    }

    #[test]
    fn perlin_matches_the_definition_worked_by_hand() {
        let seed = 123;
        let dot = |(gx, gy): (f64, f64), x: f64, y: f64| gx * x + gy * y;
        // At a cell's centre the blend weights are all 1/2: the mean of the four slopes.
        let centre = (dot(gradient2(seed, 0, 0), 0.5, 0.5)
            + dot(gradient2(seed, 1, 0), -0.5, 0.5)
            + dot(gradient2(seed, 0, 1), 0.5, -0.5)
            + dot(gradient2(seed, 1, 1), -0.5, -0.5))
            / 4.0;
        assert_eq!(
            f64::from(PerlinNoise::new(seed).get2(0.5, 0.5)),
            centre as f32 as f64
        );
        // (2.25, -1.75) lies in cell (2, -2) at (0.25, 0.25): the quintic blend of 0.25 is
        // 0.25³ × (0.25 × (0.25 × 6 - 15) + 10) = 0.015625 × 6.625 = 0.103515625.
        let w = 0.103_515_625;
        let top = dot(gradient2(seed, 2, -2), 0.25, 0.25) * (1.0 - w)
            + dot(gradient2(seed, 3, -2), -0.75, 0.25) * w;
        let bottom = dot(gradient2(seed, 2, -1), 0.25, -0.75) * (1.0 - w)
            + dot(gradient2(seed, 3, -1), -0.75, -0.75) * w;
        let expected = top * (1.0 - w) + bottom * w;
        let got = f64::from(PerlinNoise::new(seed).get2(2.25, -1.75));
        assert!((got - expected).abs() < 1e-6, "{got} vs {expected}");
        // In 3D, the centre of a cube is the mean of its eight corners' slopes.
        let table = [
            (1, 1, 0),
            (-1, 1, 0),
            (1, -1, 0),
            (-1, -1, 0),
            (1, 0, 1),
            (-1, 0, 1),
            (1, 0, -1),
            (-1, 0, -1),
            (0, 1, 1),
            (0, -1, 1),
            (0, 1, -1),
            (0, -1, -1),
        ];
        let mut sum = 0.0;
        for (i, j, k) in [
            (0, 0, 0),
            (1, 0, 0),
            (0, 1, 0),
            (1, 1, 0),
            (0, 0, 1),
            (1, 0, 1),
            (0, 1, 1),
            (1, 1, 1),
        ] {
            let (gx, gy, gz) = table[(crate::noise::hash3_u32(seed, i, j, k) % 12) as usize];
            sum += f64::from(gx) * (0.5 - f64::from(i))
                + f64::from(gy) * (0.5 - f64::from(j))
                + f64::from(gz) * (0.5 - f64::from(k));
        }
        let got = f64::from(PerlinNoise::new(seed).get3(0.5, 0.5, 0.5));
        assert!((got - sum / 8.0).abs() < 1e-6, "{got} vs {}", sum / 8.0);
    }

    #[test]
    fn simplex_matches_the_definition_worked_by_hand() {
        let seed = 321;
        let g2 = (3.0 - 3f64.sqrt()) / 6.0;
        // (0.25, 0) skews to (0.34, 0.09): triangle (0, 0), (1, 0), (1, 1), all three corners
        // within reach (squared distances 0.0625, 0.335, 0.440, each under 1/2).
        let corners = [
            ((0, 0), (0.25, 0.0)),
            ((1, 0), (0.25 - 1.0 + g2, g2)),
            ((1, 1), (0.25 - 1.0 + 2.0 * g2, -1.0 + 2.0 * g2)),
        ];
        let mut sum = 0.0;
        for ((i, j), (x, y)) in corners {
            let d2: f64 = x * x + y * y;
            assert!(d2 < 0.5);
            let (gx, gy) = gradient2(seed, i, j);
            sum += (0.5 - d2).powi(4) * (gx * x + gy * y);
        }
        let expected = 70.0 * sum;
        let got = f64::from(SimplexNoise::new(seed).get2(0.25, 0.0));
        assert!((got - expected).abs() < 1e-6, "{got} vs {expected}");
    }

    #[test]
    fn fbm_is_the_weighted_mean_of_its_octaves() {
        for seed in [5, 6] {
            let (x, y, z) = (1.3f32, -2.7f32, 0.6f32);
            let p = PerlinNoise::new(seed);
            let o1 = PerlinNoise::new(octave_seed(seed, 1));
            let two = (f64::from(p.get2(x, y)) + 0.5 * f64::from(o1.get2(2.0 * x, 2.0 * y))) / 1.5;
            let got = f64::from(p.fbm2(x, y, 2, 0.5, FBM_LACUNARITY));
            assert!((got - two).abs() < 1e-6, "{got} vs {two}");
            assert_eq!(
                p.fbm2(x, y, 0, 0.5, 2.0),
                p.get2(x, y),
                "0 octaves count as 1"
            );
            let s = SimplexNoise::new(seed);
            let s1 = SimplexNoise::new(octave_seed(seed, 1));
            let s2 = SimplexNoise::new(octave_seed(seed, 2));
            let three = (f64::from(s.get3(x, y, z))
                + 0.25 * f64::from(s1.get3(3.0 * x, 3.0 * y, 3.0 * z))
                + 0.0625 * f64::from(s2.get3(9.0 * x, 9.0 * y, 9.0 * z)))
                / 1.3125;
            let got = f64::from(s.fbm3(x, y, z, 3, 0.25, 3.0));
            assert!((got - three).abs() < 1e-6, "{got} vs {three}");
            for bad in [f32::NAN, f32::INFINITY, -1.0] {
                let v = p.fbm2(x, y, 4, bad, bad);
                assert!((-1.0..=1.0).contains(&v), "{bad}: {v}");
            }
            assert!((-1.0..=1.0).contains(&s.fbm2(x, y, u32::MAX, 0.5, 2.0)));
        }
    }
}
