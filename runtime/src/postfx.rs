//! The post-process stack's display tier: the framebuffer through the palette, scaled to the
//! output size, then the tube (bloom, curve, scanlines, stripes, vignette, flicker, rolling
//! band, interference, noise), with the overlay laid over it undistorted.
//!
//! This is the one implementation every platform runs (the window, the web page, `bt shot
//! --size output`), so the picture is the same bytes everywhere: the GPU only scales what it
//! is given. To make that hold on every machine, the per-pixel work is integer arithmetic;
//! floating point appears only in building the tables (the curve's source map, the scanline
//! and vignette gains), with IEEE's exactly rounded `+ - * / sqrt` and `floor` alone, which
//! give the same bits natively and in WebAssembly. Randomness comes from
//! [`bt::host::effect_hash`] of the tick, never from the cart's generator or the wall clock.
//!
//! The tables depend on the sizes and on the static effects' strengths only, and are built
//! again only when one of those changes; a frame then gathers, multiplies and allocates
//! nothing. A picture past [`MAX_KEPT_TABLE_PIXELS`] builds them a band of rows at a time,
//! every frame, so its memory stays a small multiple of the picture's.

use bt::host::effect_hash;
pub use bt::host::PostEffects;
use bt::{Effect, EffectKind, Palette};

mod split;
use split::HelperSlot;

/// Gains are 8.8 fixed point: 256 is 1.
const ONE: u32 = 256;

/// How far a strength of 255 curves the picture: the corners' source reaches this far past
/// the edge (in halves of the picture), which cuts about a sixth off each corner.
const BARREL_REACH: f64 = 0.25;

/// A bloom strength of 255 adds the blurred glow three times over: spread thin over its
/// radius, a one-pixel line's glow is otherwise too faint to see.
const BLOOM_DIVISOR: u32 = 85;

/// The largest bloom radius, in display pixels (the blur's cost grows with it).
pub const MAX_BLOOM_RADIUS: u8 = 8;

/// The largest chromatic aberration offset, in output pixels.
pub const MAX_ABERRATION: u8 = 16;

/// The largest output picture whose tables (6 bytes an output pixel: the source map and the
/// gains) are kept from frame to frame: 16,777,216 pixels, 96 MiB of tables. A larger one
/// (up to `bt::limits::MAX_OUTPUT_PIXELS`, 64 M pixels) builds them a band of rows at a time,
/// every frame, into `BAND_PIXELS`' worth, so its tables take 6 MiB instead of 384 MiB
/// beside a 256 MiB picture.
pub const MAX_KEPT_TABLE_PIXELS: u64 = 1 << 24;

/// Output pixels in one band of a picture too large to keep its tables whole.
const BAND_PIXELS: usize = 1 << 20;

/// How large a picture keeps its tables whole, and the band the tables of a larger one are
/// built in: [`MAX_KEPT_TABLE_PIXELS`] and [`BAND_PIXELS`] (smaller in tests).
#[derive(Debug, Clone, Copy)]
struct TableBudget {
    kept: u64,
    band: usize,
}

impl Default for TableBudget {
    fn default() -> TableBudget {
        TableBudget {
            kept: MAX_KEPT_TABLE_PIXELS,
            band: BAND_PIXELS,
        }
    }
}

/// What the tables were built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TableKey {
    display: (u32, u32),
    scale: u32,
    barrel: u8,
    scanlines: u8,
    vignette: u8,
}

/// The display tier's tables and working buffers, kept from frame to frame.
#[derive(Debug, Default)]
pub struct PostProcessor {
    /// A second thread shading the lower half of each large picture's rows, started by the
    /// first such picture where the machine has a second core ([`RowHelper`]).
    helper: HelperSlot,
    budget: TableBudget,
    key: Option<TableKey>,
    /// For each output pixel, the display pixel it shows (one past the last for black,
    /// outside the curve).
    map: Vec<u32>,
    /// For each output pixel, the scanline and vignette gain (8.8).
    gain: Vec<u16>,
    /// The display's colours after the palette (and the phosphor), `0x00RRGGBB`.
    rgb: Vec<u32>,
    /// The glow at each display pixel, `0x00RRGGBB`, or empty without bloom.
    bloom: Vec<u32>,
    /// What each display pixel shows (colour and glow), and black at the end: what the map
    /// points into.
    src: Vec<u32>,
    /// Blur working planes: red, green, blue sums.
    planes: [Vec<u16>; 3],
    scratch: Vec<u16>,
}

/// One frame's input to [`PostProcessor::render`].
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    /// The display's indices as the cart (and the pixel tier) left them, before the overlay.
    pub picture: &'a [u8],
    /// The display's indices with the overlay drawn: where they differ from `picture`, the
    /// overlay's pixel is laid over the output, scaled but untouched by the effects.
    pub with_overlay: &'a [u8],
    /// The display's size.
    pub display: (u32, u32),
    /// Output pixels per display pixel.
    pub scale: u32,
    /// The palette the indices are shown with.
    pub palette: &'a Palette,
    /// The effects.
    pub effects: &'a PostEffects,
    /// The tick the frame shows: what animated effects are a function of.
    pub tick: u64,
}

impl PostProcessor {
    /// An empty processor; its tables are built by the first frame.
    pub fn new() -> PostProcessor {
        PostProcessor::default()
    }

    /// Draws `frame` at the output size (`display × scale`) into `out` as opaque RGBA, and
    /// returns that size. `out` is resized to fit, so a reused buffer stops allocating once
    /// it has held one frame of this size.
    pub fn render(&mut self, frame: &Frame<'_>, out: &mut Vec<u8>) -> (u32, u32) {
        let (dw, dh) = frame.display;
        let s = frame.scale.max(1);
        let (ow, oh) = (dw * s, dh * s);
        let fx = frame.effects;
        let key = TableKey {
            display: (dw, dh),
            scale: s,
            barrel: strength(fx, EffectKind::Barrel),
            scanlines: strength(fx, EffectKind::Scanlines),
            vignette: strength(fx, EffectKind::Vignette),
        };
        let banded = u64::from(ow) * u64::from(oh) > self.budget.kept;
        if banded {
            // Built band by band below; whole tables of a smaller picture are let go.
            if self.key.take().is_some() {
                self.map = Vec::new();
                self.gain = Vec::new();
            }
        } else if self.key != Some(key) {
            self.build_tables(key);
        }
        // The palette, through the phosphor, as packed colours.
        let mut lut = [0u32; 256];
        let mut plain = [0u32; 256];
        let phosphor = match fx.get(EffectKind::Phosphor) {
            Some(Effect::Phosphor { color }) => Some(color),
            _ => None,
        };
        for (i, c) in frame.palette.colors().iter().enumerate().take(256) {
            // Each slot as it shows on the screen: its alpha over black.
            let c = c.shown();
            plain[i] = pack(u32::from(c.r), u32::from(c.g), u32::from(c.b));
            lut[i] = match phosphor {
                Some(p) => {
                    let l = luma(u32::from(c.r), u32::from(c.g), u32::from(c.b));
                    pack(
                        u32::from(p.r) * l / 255,
                        u32::from(p.g) * l / 255,
                        u32::from(p.b) * l / 255,
                    )
                }
                None => plain[i],
            };
        }
        let n = (dw * dh) as usize;
        self.rgb.resize(n, 0);
        for (c, &i) in self.rgb.iter_mut().zip(frame.picture) {
            *c = lut[usize::from(i)];
        }
        let has_bloom = match fx.get(EffectKind::Bloom) {
            Some(Effect::Bloom {
                threshold,
                strength,
                radius,
            }) if strength > 0 => {
                self.bloom(dw as usize, dh as usize, threshold, strength, radius);
                true
            }
            _ => false,
        };

        // What each display pixel shows, glow added, and a black one past the end for the
        // output pixels outside the curve.
        self.src.resize(n + 1, 0);
        for (i, c) in self.src[..n].iter_mut().enumerate() {
            let c0 = self.rgb[i];
            *c = if has_bloom {
                let w = self.bloom[i];
                pack(
                    (c0 >> 16) + (w >> 16),
                    ((c0 >> 8) & 0xFF) + ((w >> 8) & 0xFF),
                    (c0 & 0xFF) + (w & 0xFF),
                )
            } else {
                c0
            };
        }
        self.src[n] = 0;

        out.resize(ow as usize * oh as usize * 4, 0);
        let rows = RowEffects::new(fx, frame.tick, oh);
        let aberration = match fx.get(EffectKind::ChromaticAberration) {
            Some(Effect::ChromaticAberration { offset }) => offset.min(MAX_ABERRATION) as usize,
            _ => 0,
        };
        let mask_strength = strength(fx, EffectKind::RgbMask);
        let mask = mask_gains(mask_strength);
        let noise = u32::from(strength(fx, EffectKind::Noise));
        let ow_us = ow as usize;
        if banded {
            let band_rows = (self.budget.band / ow_us).max(1);
            self.map.resize(band_rows * ow_us, 0);
            self.gain.resize(band_rows * ow_us, 0);
            for (band, part) in out.chunks_mut(band_rows * ow_us * 4).enumerate() {
                let first = band * band_rows;
                let n = part.len() / 4;
                let rows_here = first as u32..(first + n / ow_us) as u32;
                fill_tables(key, rows_here, &mut self.map[..n], &mut self.gain[..n]);
                let shade = Shade {
                    map: &self.map[..n],
                    gain: &self.gain[..n],
                    first_row: first,
                    src: &self.src,
                    rows,
                    oh,
                    ow: ow_us,
                    aberration,
                    mask,
                    noise,
                    kind: [mask_strength > 0, noise > 0, aberration > 0],
                    tick: frame.tick,
                };
                shade.rows(first, part);
            }
            overlay(frame, &plain, ow_us, out);
            return (ow, oh);
        }
        let shade = Shade {
            map: &self.map,
            gain: &self.gain,
            first_row: 0,
            src: &self.src,
            rows,
            oh,
            ow: ow_us,
            aberration,
            mask,
            noise,
            kind: [mask_strength > 0, noise > 0, aberration > 0],
            tick: frame.tick,
        };
        // Rows depend on nothing but their own number, so the split changes no byte.
        let split = (oh as usize / 2) * ow_us * 4;
        match self.helper.get(ow_us * oh as usize) {
            Some(helper) => {
                let (top, bottom) = out.split_at_mut(split);
                let bottom = std::sync::Mutex::new(Some(bottom));
                let lower = || {
                    let taken = bottom.lock().ok().and_then(|mut b| b.take());
                    if let Some(rows) = taken {
                        shade.rows(oh as usize / 2, rows);
                    }
                };
                let worked = helper.run(&lower, || shade.rows(0, top));
                if !worked {
                    // The second thread failed: its rows are shaded here, and it is not used again.
                    lower();
                    self.helper.give_up();
                }
            }
            None => shade.rows(0, out),
        }
        overlay(frame, &plain, ow_us, out);
        (ow, oh)
    }

    fn build_tables(&mut self, key: TableKey) {
        let (dw, dh) = key.display;
        let s = key.scale;
        let (ow, oh) = (dw * s, dh * s);
        let len = ow as usize * oh as usize;
        self.map.resize(len, 0);
        self.gain.resize(len, 0);
        fill_tables(key, 0..oh, &mut self.map, &mut self.gain);
        self.key = Some(key);
    }

    /// The glow: colours brighter than `threshold`, blurred twice with a box of `radius`, at
    /// `strength`, into `self.bloom`.
    fn bloom(&mut self, w: usize, h: usize, threshold: u8, strength: u8, radius: u8) {
        let n = w * h;
        for plane in &mut self.planes {
            plane.resize(n, 0);
        }
        self.scratch.resize(n, 0);
        self.bloom.resize(n, 0);
        let t = u32::from(threshold);
        let span = 255 - t.min(254);
        let mut bright = [0u32; 256];
        for (l, k) in bright.iter_mut().enumerate().skip(t as usize + 1) {
            *k = (l as u32 - t) * 255 / span;
        }
        for (i, &c) in self.rgb.iter().enumerate() {
            let (r, g, b) = (c >> 16, (c >> 8) & 0xFF, c & 0xFF);
            let k = bright[luma(r, g, b) as usize];
            self.planes[0][i] = (r * k / 255) as u16;
            self.planes[1][i] = (g * k / 255) as u16;
            self.planes[2][i] = (b * k / 255) as u16;
        }
        let r = usize::from(radius.clamp(1, MAX_BLOOM_RADIUS));
        for plane in &mut self.planes {
            for _ in 0..2 {
                box_rows(plane, &mut self.scratch, w, h, r);
                box_columns(&self.scratch, plane, w, h, r);
            }
        }
        let k = u32::from(strength);
        for (i, glow) in self.bloom.iter_mut().enumerate() {
            let c = |p: &Vec<u16>| (u32::from(p[i]) * k / BLOOM_DIVISOR).min(255);
            *glow = pack(c(&self.planes[0]), c(&self.planes[1]), c(&self.planes[2]));
        }
    }
}

/// Fills `map` and `gain` for the output rows `rows` of a picture of `key`'s size and
/// effects: for each output pixel, the display pixel it shows and its scanline and vignette
/// gain (see [`PostProcessor`]'s fields), row by row from `rows.start`.
fn fill_tables(key: TableKey, rows: std::ops::Range<u32>, map: &mut [u32], gain: &mut [u16]) {
    let (dw, dh) = key.display;
    let s = key.scale;
    let (ow, oh) = (dw * s, dh * s);
    let k = f64::from(key.barrel) / 255.0 * BARREL_REACH;
    let scan = f64::from(key.scanlines) / 255.0;
    let vig = f64::from(key.vignette) / 255.0;
    let (owf, ohf) = (f64::from(ow), f64::from(oh));
    for oy in rows.clone() {
        let v = (f64::from(oy) + 0.5) / ohf * 2.0 - 1.0;
        for ox in 0..ow {
            let u = (f64::from(ox) + 0.5) / owf * 2.0 - 1.0;
            let p = ((oy - rows.start) * ow + ox) as usize;
            let (su, sv) = if k > 0.0 {
                (u * (1.0 + k * v * v), v * (1.0 + k * u * u))
            } else {
                (u, v)
            };
            let sx = ((su + 1.0) * 0.5 * f64::from(dw)).floor();
            let syf = (sv + 1.0) * 0.5 * f64::from(dh);
            let sy = syf.floor();
            if k > 0.0 && (sx < 0.0 || sy < 0.0 || sx >= f64::from(dw) || sy >= f64::from(dh)) {
                map[p] = dw * dh;
                gain[p] = 0;
                continue;
            }
            // Without a curve the source is exact integer scaling.
            let (sx, sy) = if k > 0.0 {
                (sx as u32, sy as u32)
            } else {
                (ox / s, oy / s)
            };
            map[p] = sy * dw + sx;
            let mut g = 1.0;
            if scan > 0.0 {
                // Dark towards the bottom of each display row: at scale 2 every other
                // output row, at 4 the last two of four, stronger at the very edge.
                let fy = if k > 0.0 {
                    syf - f64::from(sy)
                } else {
                    (f64::from(oy % s) + 0.5) / f64::from(s)
                };
                let edge = ((fy - 0.4) * 2.5).clamp(0.0, 1.0);
                g *= 1.0 - scan * 0.85 * edge;
            }
            if vig > 0.0 {
                let w = (1.0 - u * u) * (1.0 - v * v);
                g *= 1.0 - vig * (1.0 - w.max(0.0).sqrt());
            }
            gain[p] = (g * f64::from(ONE) + 0.5).floor().clamp(0.0, 256.0) as u16;
        }
    }
}

/// What every output row is shaded from this frame.
struct Shade<'a> {
    /// The tables of the rows from `first_row` on.
    map: &'a [u32],
    gain: &'a [u16],
    first_row: usize,
    src: &'a [u32],
    rows: RowEffects,
    oh: u32,
    ow: usize,
    aberration: usize,
    mask: [[u32; 3]; 3],
    noise: u32,
    kind: [bool; 3],
    tick: u64,
}

impl Shade<'_> {
    /// Shades the rows from `first` on into `out`, which holds as many whole rows as follow.
    fn rows(&self, first: usize, out: &mut [u8]) {
        let ow = self.ow;
        for (i, out_row) in out.chunks_exact_mut(ow * 4).enumerate() {
            let y = first + i;
            let base = (y - self.first_row) * ow;
            let row = Row {
                frame: self,
                map: &self.map[base..base + ow],
                gain: &self.gain[base..base + ow],
                row_gain: self.rows.gain(y as u32, self.oh),
                shift: self.rows.shift(y as u32),
                // xorshift32 along the row, seeded by the tick and the row.
                seed: (effect_hash(self.tick, 9, y as u64) as u32) | 1,
            };
            shade_row(self.kind, row, out_row);
        }
    }
}

/// Shades `row` with the loop made for the effects it has (stripes, noise, fringes, a shift).
fn shade_row(kind: [bool; 3], row: Row<'_>, out: &mut [u8]) {
    macro_rules! pick {
        ($($m:literal $n:literal $f:literal),*) => {
            match (kind, row.shift != 0) {
                $(
                    ([$m, $n, $f], false) => row.shade::<$m, $n, $f, false>(out),
                    ([$m, $n, $f], true) => row.shade::<$m, $n, $f, true>(out),
                )*
            }
        };
    }
    pick!(
        false false false, false false true, false true false, false true true,
        true false false, true false true, true true false, true true true
    )
}

/// One output row's inputs.
struct Row<'a> {
    /// What every row shares: the colours, the fringes, the stripes, the noise.
    frame: &'a Shade<'a>,
    /// This row's part of the source map and the gains.
    map: &'a [u32],
    gain: &'a [u16],
    row_gain: u32,
    shift: i64,
    seed: u32,
}

impl Row<'_> {
    /// Shades the row into `out` (RGBA), with the stripes, noise and colour fringes as the
    /// parameters say: one loop per combination, so none pays for what it does not use.
    #[inline(always)]
    fn shade<const MASK: bool, const NOISE: bool, const FRINGE: bool, const SHIFT: bool>(
        self,
        out: &mut [u8],
    ) {
        let Row {
            frame,
            map,
            gain,
            row_gain,
            shift,
            mut seed,
        } = self;
        let Shade {
            src,
            aberration,
            ref mask,
            noise,
            ..
        } = *frame;
        let last = map.len() - 1;
        let mut stripe = 0;
        let spread = 2 * noise + 1;
        for (x, px) in out.chunks_exact_mut(4).enumerate() {
            let sx = if !SHIFT {
                x
            } else {
                (x as i64 - shift).clamp(0, last as i64) as usize
            };
            let c = src[map[sx] as usize];
            let (r, g, b) = if FRINGE {
                let left = src[map[sx.saturating_sub(aberration)] as usize];
                let right = src[map[(sx + aberration).min(last)] as usize];
                ((left >> 16) & 0xFF, (c >> 8) & 0xFF, right & 0xFF)
            } else {
                ((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF)
            };
            let k = (u32::from(gain[x]) * row_gain) >> 8;
            let (r, g, b) = if MASK {
                let m = &mask[stripe];
                stripe = if stripe == 2 { 0 } else { stripe + 1 };
                (
                    (r * k * m[0]) >> 16,
                    (g * k * m[1]) >> 16,
                    (b * k * m[2]) >> 16,
                )
            } else {
                ((r * k) >> 8, (g * k) >> 8, (b * k) >> 8)
            };
            let d = if NOISE {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (((seed & 0xFFFF) * spread) >> 16) as i32 - noise as i32
            } else {
                0
            };
            // Clamped to a byte through a table: the noise makes a branch's direction random.
            let at = |v: u32| SATURATE[(v as i32 + d + SATURATE_BIAS) as usize];
            let shown = u32::from_le_bytes([at(r), at(g), at(b), 255]);
            px.copy_from_slice(&shown.to_le_bytes());
        }
    }
}

/// Where 0 sits in [`SATURATE`]: a channel reaches the table between -255 (black with the
/// strongest noise) and 764 (white in the brightest rolling band, 511/256 of full, with the
/// strongest noise), so an index is always inside it.
const SATURATE_BIAS: i32 = 256;

/// `SATURATE[v + SATURATE_BIAS]` is `v` clamped to 0..=255.
static SATURATE: [u8; 1024] = {
    let mut table = [0u8; 1024];
    let mut i = 0;
    while i < table.len() {
        let v = i as i32 - SATURATE_BIAS;
        table[i] = if v < 0 {
            0
        } else if v > 255 {
            255
        } else {
            v as u8
        };
        i += 1;
    }
    table
};

/// The strength of the effect of `kind` (its only or first strength), 0 when none is set.
fn strength(fx: &PostEffects, kind: EffectKind) -> u8 {
    match fx.get(kind) {
        Some(
            Effect::Barrel { strength }
            | Effect::Scanlines { strength }
            | Effect::Vignette { strength }
            | Effect::RgbMask { strength }
            | Effect::Noise { strength },
        ) => strength,
        _ => 0,
    }
}

/// Rec. 601 brightness, 0 to 255, in integers.
#[inline(always)]
fn luma(r: u32, g: u32, b: u32) -> u32 {
    (r * 77 + g * 150 + b * 29) >> 8
}

#[inline(always)]
fn pack(r: u32, g: u32, b: u32) -> u32 {
    (r.min(255) << 16) | (g.min(255) << 8) | b.min(255)
}

/// The stripe gains: in stripe `x % 3`, its own channel whole and the others dimmed.
fn mask_gains(strength: u8) -> [[u32; 3]; 3] {
    let dim = ONE - u32::from(strength) * 160 / 255;
    let mut m = [[ONE; 3]; 3];
    for (stripe, gains) in m.iter_mut().enumerate() {
        for (channel, g) in gains.iter_mut().enumerate() {
            if channel != stripe {
                *g = dim;
            }
        }
    }
    m
}

/// `2^32 / (2r + 1)`, rounded up: multiplying a box's sum by it and keeping the top 32 bits
/// divides by the box's width exactly for every sum a box of 16-bit values can hold.
fn reciprocal(r: usize) -> u64 {
    let div = 2 * r as u64 + 1;
    (1u64 << 32).div_ceil(div)
}

/// A box blur of radius `r` along rows, `src` into `dst` (edges repeat).
fn box_rows(src: &[u16], dst: &mut [u16], w: usize, h: usize, r: usize) {
    let div = reciprocal(r);
    for y in 0..h {
        let row = &src[y * w..(y + 1) * w];
        let out = &mut dst[y * w..(y + 1) * w];
        let at = |i: isize| u32::from(row[i.clamp(0, w as isize - 1) as usize]);
        let mut sum: u32 = (-(r as isize)..=r as isize).map(at).sum();
        for (x, o) in out.iter_mut().enumerate() {
            *o = ((u64::from(sum) * div) >> 32) as u16;
            let x = x as isize;
            sum = sum + at(x + r as isize + 1) - at(x - r as isize);
        }
    }
}

/// A box blur of radius `r` along columns, `src` into `dst` (edges repeat).
fn box_columns(src: &[u16], dst: &mut [u16], w: usize, h: usize, r: usize) {
    let div = reciprocal(r);
    for x in 0..w {
        let at = |i: isize| u32::from(src[i.clamp(0, h as isize - 1) as usize * w + x]);
        let mut sum: u32 = (-(r as isize)..=r as isize).map(at).sum();
        for y in 0..h {
            dst[y * w + x] = ((u64::from(sum) * div) >> 32) as u16;
            let y = y as isize;
            sum = sum + at(y + r as isize + 1) - at(y - r as isize);
        }
    }
}

/// What the animated effects do to one output row this tick.
#[derive(Clone, Copy)]
struct RowEffects {
    /// The whole picture's gain this tick (flicker), 8.8.
    flicker: u32,
    /// The rolling band: its centre row, half height and strength.
    roll: Option<(u32, u32, u32)>,
    /// Interference this tick: the largest shift, and the tick.
    jitter: Option<(i64, u64)>,
}

impl RowEffects {
    fn new(fx: &PostEffects, tick: u64, oh: u32) -> RowEffects {
        let flicker = match fx.get(EffectKind::Flicker) {
            Some(Effect::Flicker { strength }) => {
                let dip = (effect_hash(tick, 5, 0) % 256) as u32 * u32::from(strength) / 255;
                ONE - dip.min(ONE)
            }
            _ => ONE,
        };
        let roll = match fx.get(EffectKind::RollLine) {
            Some(Effect::RollLine { strength, period }) if strength > 0 => {
                let period = u64::from(period.max(1));
                let centre = ((tick % period) * u64::from(oh) / period) as u32;
                Some((centre, (oh / 12).max(1), u32::from(strength)))
            }
            _ => None,
        };
        let jitter = match fx.get(EffectKind::Interference) {
            Some(Effect::Interference { chance, shift })
                if shift > 0 && (effect_hash(tick, 6, 0) & 0xFF) < u64::from(chance) =>
            {
                Some((i64::from(shift), tick))
            }
            _ => None,
        };
        RowEffects {
            flicker,
            roll,
            jitter,
        }
    }

    /// Row `y`'s gain, 8.8 (above 256 in the rolling band).
    fn gain(&self, y: u32, oh: u32) -> u32 {
        let mut g = self.flicker;
        if let Some((centre, half, strength)) = self.roll {
            // The band wraps around the bottom edge.
            let d = y.abs_diff(centre).min(oh - y.abs_diff(centre).min(oh));
            if d < half {
                g += strength * (half - d) / half;
            }
        }
        g
    }

    /// Row `y`'s sideways shift in output pixels.
    fn shift(&self, y: u32) -> i64 {
        match self.jitter {
            Some((most, tick)) => {
                // Rows move in pairs, each pair its own way.
                let h = effect_hash(tick, 7, u64::from(y / 2));
                (h % (2 * most as u64 + 1)) as i64 - most
            }
            None => 0,
        }
    }
}

/// Lays the overlay's pixels (where `with_overlay` differs from `picture`) over `out`, each a
/// `scale × scale` block of its plain palette colour.
fn overlay(frame: &Frame<'_>, plain: &[u32; 256], ow: usize, out: &mut [u8]) {
    let dw = frame.display.0 as usize;
    let s = frame.scale.max(1) as usize;
    for (i, (&a, &b)) in frame.picture.iter().zip(frame.with_overlay).enumerate() {
        if a == b {
            continue;
        }
        let c = plain[usize::from(b)];
        let px = [(c >> 16) as u8, (c >> 8) as u8, c as u8, 255];
        let (x, y) = (i % dw, i / dw);
        for row in 0..s {
            let start = ((y * s + row) * ow + x * s) * 4;
            for block in out[start..start + s * 4].chunks_exact_mut(4) {
                block.copy_from_slice(&px);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame<'a>(pixels: &'a [u8], fx: &'a PostEffects, palette: &'a Palette) -> Frame<'a> {
        Frame {
            picture: pixels,
            with_overlay: pixels,
            display: (4, 2),
            scale: 2,
            palette,
            effects: fx,
            tick: 3,
        }
    }

    #[test]
    fn tables_built_band_by_band_give_the_same_bytes_as_tables_kept_whole() {
        let palette = Palette::pico8();
        let (w, h) = (37u32, 23u32);
        let pixels: Vec<u8> = (0..w * h).map(|i| (i * 7 % 16) as u8).collect();
        let mut fx = PostEffects::default();
        for &e in bt::crt::PIPBOY.iter().chain(bt::crt::TV) {
            fx.add(e);
        }
        fx.add(Effect::Barrel { strength: 255 });
        fx.add(Effect::ChromaticAberration { offset: 5 });
        for scale in [1, 2, 3] {
            let frame = Frame {
                picture: &pixels,
                with_overlay: &pixels,
                display: (w, h),
                scale,
                palette: &palette,
                effects: &fx,
                tick: 11,
            };
            let (mut whole, mut banded) = (PostProcessor::new(), PostProcessor::new());
            // Bands of 5 output rows, or a few pixels of one row each.
            for band in [5 * (w * scale) as usize, 3] {
                banded.budget = TableBudget { kept: 0, band };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                whole.render(&frame, &mut a);
                banded.render(&frame, &mut b);
                assert!(a == b, "scale {scale}, bands of {band} pixels");
                assert!(banded.map.len() <= band.max((w * scale) as usize));
            }
        }
    }

    #[test]
    fn without_effects_the_output_is_the_picture_scaled() {
        let palette = Palette::pico8();
        let pixels = [0, 7, 8, 12, 1, 2, 3, 4];
        let fx = PostEffects::default();
        let mut out = Vec::new();
        let size = PostProcessor::new().render(&frame(&pixels, &fx, &palette), &mut out);
        assert_eq!(size, (8, 4));
        let mut want = vec![0; 8 * 4 * 4];
        let mut base = vec![0; 4 * 2 * 4];
        palette.write_rgba(&pixels, &mut base);
        for y in 0..4 {
            for x in 0..8 {
                let src = (y / 2 * 4 + x / 2) * 4;
                want[(y * 8 + x) * 4..][..4].copy_from_slice(&base[src..src + 4]);
            }
        }
        assert_eq!(out, want);
    }

    #[test]
    fn the_same_tick_gives_the_same_bytes_and_another_tick_other_noise() {
        let palette = Palette::pico8();
        let pixels = [7; 8];
        let mut fx = PostEffects::default();
        for &e in bt::crt::PIPBOY {
            fx.add(e);
        }
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = PostProcessor::new();
        p.render(&frame(&pixels, &fx, &palette), &mut a);
        PostProcessor::new().render(&frame(&pixels, &fx, &palette), &mut b);
        let mut later = frame(&pixels, &fx, &palette);
        later.tick = 4;
        p.render(&later, &mut c);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn the_overlay_is_laid_over_the_effects_undistorted() {
        let palette = Palette::pico8();
        let picture = [0u8; 8];
        let mut with_overlay = picture;
        with_overlay[5] = 7;
        let mut fx = PostEffects::default();
        for &e in bt::crt::TV {
            fx.add(e);
        }
        let mut f = frame(&picture, &fx, &palette);
        f.with_overlay = &with_overlay;
        let mut out = Vec::new();
        PostProcessor::new().render(&f, &mut out);
        let white = palette.colors()[7];
        for (x, y) in [(2, 2), (3, 2), (2, 3), (3, 3)] {
            assert_eq!(
                out[(y * 8 + x) * 4..][..4],
                [white.r, white.g, white.b, 255],
                "overlay pixel at {x},{y}"
            );
        }
    }

    #[test]
    fn a_curve_shows_black_in_the_corners_and_the_picture_in_the_middle() {
        let palette = Palette::pico8();
        let pixels = [7; 8];
        let mut fx = PostEffects::default();
        fx.add(Effect::Barrel { strength: 255 });
        let mut f = frame(&pixels, &fx, &palette);
        f.display = (2, 4);
        f.scale = 16;
        let mut out = Vec::new();
        let (w, h) = PostProcessor::new().render(&f, &mut out);
        assert_eq!(&out[..3], [0, 0, 0], "corner");
        let mid = ((h / 2 * w + w / 2) * 4) as usize;
        let white = palette.colors()[7];
        assert_eq!(out[mid..mid + 3], [white.r, white.g, white.b]);
    }

    #[test]
    fn blurring_a_flat_plane_keeps_it_flat() {
        let src = vec![100u16; 30];
        let mut mid = vec![0u16; 30];
        let mut dst = vec![0u16; 30];
        box_rows(&src, &mut mid, 6, 5, 2);
        box_columns(&mid, &mut dst, 6, 5, 2);
        assert!(dst.iter().all(|&v| v == 100));
    }

    #[test]
    fn a_picture_shaded_on_two_threads_is_the_same_bytes_as_on_one() {
        let palette = Palette::pico8();
        let (w, h) = (320u32, 240u32);
        let pixels: Vec<u8> = (0..w * h)
            .map(|i| ((i % w / 9 + i / w / 7) % 16) as u8)
            .collect();
        let stacks: [&[Effect]; 2] = [
            bt::crt::PIPBOY,
            &[
                Effect::Barrel { strength: 200 },
                Effect::ChromaticAberration { offset: 3 },
                Effect::RgbMask { strength: 200 },
                Effect::Noise { strength: 255 },
                Effect::RollLine {
                    strength: 255,
                    period: 7,
                },
                Effect::Interference {
                    chance: 255,
                    shift: 9,
                },
            ],
        ];
        for stack in stacks {
            let mut fx = PostEffects::default();
            for &e in stack {
                fx.add(e);
            }
            let mut two = PostProcessor::new();
            let mut one = PostProcessor {
                helper: HelperSlot::Unavailable,
                ..PostProcessor::default()
            };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for tick in 0..6 {
                let mut f = frame(&pixels, &fx, &palette);
                (f.display, f.scale, f.tick) = ((w, h), 2, tick);
                two.render(&f, &mut a);
                one.render(&f, &mut b);
                assert!(
                    a == b,
                    "tick {tick}: the halves differ from one thread's picture"
                );
            }
            if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
                assert!(
                    matches!(two.helper, HelperSlot::Running(_)),
                    "no second thread"
                );
            }
        }
    }
}
