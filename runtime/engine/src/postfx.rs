//! The post-process stack's display tier: the framebuffer through the palette, into linear
//! light, sampled at the output size through the curve, then the tube (scanlines, grille,
//! vignette, rolling band, flicker, glow, noise), back to sRGB, with the overlay laid over it
//! undistorted.
//!
//! This is the one implementation every platform runs (the window, the web page, `bt shot
//! --size output`), so the picture is the same bytes everywhere: the window only scales what it
//! is given. To make that hold on every machine, the per-pixel work is integer arithmetic;
//! floating point appears only in building the tables (where each output pixel samples the
//! picture, its gains, the scanlines' bell), with IEEE's exactly rounded `+ - * / sqrt` and
//! `floor` and `bt::math`'s functions, which give the same bits natively and in WebAssembly.
//! Randomness comes from [`bt::host::effect_hash`] of the tick, never from the cart's
//! generator or the wall clock.
//!
//! # Why it has no seams
//!
//! Each output pixel keeps where the curve takes it as a continuous position in the picture,
//! not a display pixel: it samples the picture between the four display pixels around that
//! point (sharp at the pixels' middles, blended over one output pixel at their edges), and the
//! scanlines' brightness is a function of the same continuous position, averaged over the
//! output pixel's height. So a flat colour under a curve stays smooth, and a curved scanline
//! has no steps where a stepped lookup would jump from one display row to the next. The
//! blending and every gain happen in linear light (13 bits a channel), and the result goes back
//! to sRGB through one table.
//!
//! The tables depend on the sizes and on the effects that do not move (curves, scanlines,
//! grilles, vignettes), and are built again only when one of those changes; a frame then
//! allocates nothing. Each output row's shading is kept from frame to frame and done again only
//! when the display rows it reads, its sideways shift or anything else it is shaded from
//! changed; a row's gain and the noise are applied to the kept row every frame. A picture
//! past [`MAX_KEPT_TABLE_PIXELS`] builds its tables a band of rows at a time, every frame, so
//! its memory stays a small multiple of the picture's.

use bt::host::effect_hash;
pub use bt::host::PostEffects;
use bt::limits::MAX_EFFECTS;
use bt::{Effect, Palette, Upscale};

mod split;
use split::HelperSlot;

/// Gains are 4.12 fixed point: 4096 is 1.
const GAIN_ONE: u32 = 4096;

/// Linear-light channels are 13 bits: 0 to `LIN_MAX`.
const LIN_MAX: u32 = 8191;

/// Three 13-bit channels packed in a `u64`, 21 bits apart: room for a channel times a blend
/// weight (7 bits) without reaching the next.
const LANE: u32 = 21;

/// The mask keeping each lane's 13 bits.
const LANES: u64 = (LIN_MAX as u64) | ((LIN_MAX as u64) << LANE) | ((LIN_MAX as u64) << (2 * LANE));

/// Blend weights are 7 bits: 128 is all of the second sample.
const WEIGHT_ONE: u32 = 128;

/// The largest bloom or glow radius, in display pixels (the blur's cost grows with it).
pub const MAX_BLOOM_RADIUS: u8 = 8;

/// The largest chromatic aberration, in output pixels.
pub const MAX_ABERRATION: f32 = 16.0;

/// The largest picture whose tables (14 bytes an output pixel: where it samples and its three
/// gains) are kept from frame to frame: 4,194,304 pixels, 56 MiB of tables. A larger one (up to
/// `bt::limits::MAX_OUTPUT_PIXELS`, 64 M pixels) builds them a band of rows at a time, every
/// frame, into `BAND_PIXELS`' worth, so its tables take 7 MiB beside a 256 MiB picture.
pub const MAX_KEPT_TABLE_PIXELS: u64 = 1 << 22;

/// Output pixels in one band of a picture too large to keep its tables whole.
const BAND_PIXELS: usize = 1 << 19;

/// Entries in the scanlines' table, over one line's height.
const SCAN_STEPS: usize = 1024;

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

/// Where an output pixel samples the picture: the top-left of the four padded display pixels
/// around the point, and how far towards the right and lower ones (0 to [`WEIGHT_ONE`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tap {
    at: u32,
    fx: u8,
    fy: u8,
}

/// Everything a frame's rows are shaded from besides the picture, each row's shift and gain,
/// and the noise: when it is the same as last frame's, only rows whose part of the picture
/// changed are shaded again.
#[derive(Debug, Clone, PartialEq)]
struct Look {
    key: TableKey,
    lut: [u32; 256],
    fringe: u32,
    bloom_mix: u32,
    bloom_reach: usize,
    glow: Option<(f64, f64, u8)>,
}

/// Where an output pixel outside the curve samples: nowhere (a weight no sample has).
const OUTSIDE: Tap = Tap {
    at: 0,
    fx: u8::MAX,
    fy: 0,
};

/// What the tables were built for: the sizes, the filter, and the effects that shape them
/// (curves, scanlines, grilles, vignettes, in their order), with their parameters made safe.
#[derive(Debug, Clone, PartialEq)]
struct TableKey {
    display: (u32, u32),
    output: (u32, u32),
    filter: Upscale,
    shaping: PostEffects,
}

/// The display tier's tables and working buffers, kept from frame to frame.
#[derive(Debug, Default)]
pub struct PostProcessor {
    /// A second thread shading the lower half of each large picture's rows, started by the
    /// first such picture where the machine has a second core.
    helper: HelperSlot,
    budget: TableBudget,
    key: Option<TableKey>,
    /// For each output pixel, where it samples the picture.
    map: Vec<Tap>,
    /// For each output pixel, its red, green and blue gain (4.12).
    gain: Vec<[u16; 3]>,
    /// The display's colours after the palette and the phosphor, `0x00RRGGBB`.
    rgb: Vec<u32>,
    /// The picture in linear light, packed ([`LANE`]), with a black border one pixel wide:
    /// what the map samples.
    lin: Vec<u64>,
    /// The bloom's blur of `lin`, in the same shape, or empty without a bloom.
    blur: Vec<u64>,
    /// Blur working planes: red, green, blue.
    planes: [Vec<u16>; 3],
    scratch: Vec<u16>,
    /// What building the tables works out per column and row.
    per_line: TableScratch,
    /// Each half's working rows.
    rows: [RowBuffers; 2],
    /// What the last frame was shaded from, and each output row's picture before the noise:
    /// the rows whose inputs stay the same are not shaded again.
    last: Option<Look>,
    last_picture: Vec<u8>,
    pre: Vec<u32>,
    state: Vec<i64>,
    /// Running counts of the picture's rows changed since the last frame, and of those within
    /// the blurs' reach of one ([`Memory`]).
    raw_changed: Vec<u32>,
    changed: Vec<u32>,
    /// Each output row's span of display rows, first and last.
    reads: Vec<(u32, u32)>,
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
    /// The output picture's size.
    pub output: (u32, u32),
    /// How the picture is scaled to the output size.
    pub filter: Upscale,
    /// The palette the indices are shown with.
    pub palette: &'a Palette,
    /// The effects.
    pub effects: &'a PostEffects,
    /// The tick the frame shows: what animated effects are a function of.
    pub tick: u64,
    /// Updates per second: turns the tick into the seconds a rolling band moves with.
    pub rate: f64,
}

/// A parameter a cart gave, made safe: not a number counts as 0, and it is held to `lo..=hi`.
fn param(v: f32, lo: f32, hi: f32) -> f64 {
    if v.is_nan() {
        0.0f64.clamp(f64::from(lo), f64::from(hi))
    } else {
        f64::from(v.clamp(lo, hi))
    }
}

/// `effect` with its parameters made safe ([`param`]), so a table key compares equal to
/// itself and nothing downstream meets an infinity.
fn safe(effect: Effect) -> Effect {
    let p = |v: f32, lo: f32, hi: f32| param(v, lo, hi) as f32;
    match effect {
        Effect::Barrel { curvature } => Effect::Barrel {
            curvature: p(curvature, 0.0, 1.0),
        },
        Effect::ChromaticAberration { aberration } => Effect::ChromaticAberration {
            aberration: p(aberration, 0.0, MAX_ABERRATION),
        },
        Effect::Interference { amount } => Effect::Interference {
            amount: p(amount, 0.0, 0.5),
        },
        Effect::RollLine { amount, speed } => Effect::RollLine {
            amount: p(amount, 0.0, 1.0),
            speed: p(speed, -100.0, 100.0),
        },
        Effect::Scanlines {
            amount,
            strength,
            density,
        } => Effect::Scanlines {
            amount: p(amount, 0.0, 1.0),
            strength: p(strength, -64.0, 0.0),
            density: p(density, 0.0, 16384.0),
        },
        Effect::RgbMask {
            intensity,
            size,
            border,
        } => Effect::RgbMask {
            intensity: p(intensity, 0.0, 1.0),
            size: p(size, 1.0, 256.0),
            border: p(border, 0.0, 1.0),
        },
        Effect::Vignette { amount } => Effect::Vignette {
            amount: p(amount, 0.0, 8.0),
        },
        Effect::Flicker { amount } => Effect::Flicker {
            amount: p(amount, 0.0, 2.0),
        },
        Effect::Noise { amount } => Effect::Noise {
            amount: p(amount, 0.0, 1.0),
        },
        Effect::Bloom { spread, glow } => Effect::Bloom {
            spread: p(spread, 0.0, 16.0),
            glow: p(glow, 0.0, 1.0),
        },
        Effect::Glow {
            threshold,
            strength,
            radius,
        } => Effect::Glow {
            threshold: p(threshold, 0.0, 1.0),
            strength: p(strength, 0.0, 3.0),
            radius: radius.clamp(1, MAX_BLOOM_RADIUS),
        },
        Effect::Flutter { amount } => Effect::Flutter {
            amount: p(amount, 0.0, 1.0),
        },
        Effect::Tear { chance, shift } => Effect::Tear {
            chance: p(chance, 0.0, 1.0),
            shift: p(shift, 0.0, 64.0),
        },
        other => other,
    }
}

/// Whether `effect` shapes the tables (rather than acting per frame).
fn shapes_tables(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::Barrel { .. }
            | Effect::Scanlines { .. }
            | Effect::RgbMask { .. }
            | Effect::Vignette { .. }
    )
}

impl PostProcessor {
    /// An empty processor; its tables are built by the first frame.
    pub fn new() -> PostProcessor {
        PostProcessor::default()
    }

    /// Draws `frame` at its output size into `out` as opaque RGBA, and returns that size.
    /// `out` is resized to fit, so a reused buffer stops allocating once it has held one
    /// frame of this size.
    pub fn render(&mut self, frame: &Frame<'_>, out: &mut Vec<u8>) -> (u32, u32) {
        let (dw, dh) = frame.display;
        let (ow, oh) = (frame.output.0.max(1), frame.output.1.max(1));
        let mut shaping = PostEffects::default();
        let mut aberration = 0.0;
        let mut interference = 0.0;
        let mut tear = (0.0, 0.0);
        let mut bloom: Option<(f64, f64)> = None;
        let mut glow: Option<(f64, f64, u8)> = None;
        let mut noise = 0.0;
        let mut phosphor = None;
        for e in frame.effects.iter().map(safe) {
            if shapes_tables(&e) {
                shaping.push(e);
            }
            match e {
                Effect::ChromaticAberration { aberration: a } => aberration += f64::from(a),
                Effect::Interference { amount } => interference += f64::from(amount),
                Effect::Tear { chance, shift } => tear = (f64::from(chance), f64::from(shift)),
                Effect::Bloom { spread, glow: g } => {
                    bloom = Some((f64::from(spread), f64::from(g)));
                }
                Effect::Glow {
                    threshold,
                    strength,
                    radius,
                } => glow = Some((f64::from(threshold), f64::from(strength), radius)),
                Effect::Noise { amount } => noise += f64::from(amount),
                Effect::Phosphor { color } => phosphor = Some(color),
                _ => {}
            }
        }
        let key = TableKey {
            display: (dw, dh),
            output: (ow, oh),
            filter: frame.filter,
            shaping,
        };
        let banded = u64::from(ow) * u64::from(oh) > self.budget.kept;
        if banded {
            // Built band by band below; whole tables of a smaller picture are let go.
            if self.key.take().is_some() {
                self.map = Vec::new();
                self.gain = Vec::new();
            }
        } else if self.key.as_ref() != Some(&key) {
            let len = ow as usize * oh as usize;
            self.map.resize(len, Tap::default());
            self.gain.resize(len, [0; 3]);
            self.reads.resize(oh as usize, (0, 0));
            fill_tables(
                &key,
                0..oh,
                &mut self.map,
                &mut self.gain,
                &mut self.per_line,
                &mut self.reads,
            );
            self.key = Some(key.clone());
        }

        // The palette, through the phosphor, as packed colours.
        let mut lut = [0u32; 256];
        let mut plain = [0u32; 256];
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
        self.linearise(dw as usize, dh as usize, glow);
        let bloom = bloom.filter(|&(_, g)| g > 0.0);
        let mut bloom_reach = 0;
        if let Some((spread, _)) = bloom {
            // The 5 × 5 points `spread` output pixels apart reach two spreads each way: a box
            // as wide, in display pixels.
            let per = f64::from(ow) / f64::from(dw.max(1));
            let r = (2.0 * spread / per + 0.5)
                .floor()
                .clamp(0.0, f64::from(MAX_BLOOM_RADIUS));
            bloom_reach = r as usize;
            self.blur_linear(dw as usize, dh as usize, bloom_reach);
        }

        out.resize(ow as usize * oh as usize * 4, 0);
        let ow_us = ow as usize;
        let moving = Moving::new(frame, ow, oh, interference, tear);
        let fringe = (aberration * f64::from(WEIGHT_ONE) + 0.5).floor() as u32;
        let noise = (noise.min(1.0) * 255.0 + 0.5).floor() as u32;
        let bloom_mix = bloom.map_or(0, |(_, g)| (g * f64::from(GAIN_ONE) + 0.5).floor() as u32);
        let [row_a, row_b] = &mut self.rows;
        row_a.fit(ow_us);
        row_b.fit(ow_us);
        if banded {
            self.last = None;
            let band_rows = (self.budget.band / ow_us).max(1);
            self.map.resize(band_rows * ow_us, Tap::default());
            self.gain.resize(band_rows * ow_us, [0; 3]);
            for (band, part) in out.chunks_mut(band_rows * ow_us * 4).enumerate() {
                let first = band * band_rows;
                let px = part.len() / 4;
                let rows_here = first as u32..(first + px / ow_us) as u32;
                fill_tables(
                    &key,
                    rows_here,
                    &mut self.map[..px],
                    &mut self.gain[..px],
                    &mut self.per_line,
                    &mut [],
                );
                let shade = Shade {
                    map: &self.map[..px],
                    gain: &self.gain[..px],
                    first_row: first,
                    lin: &self.lin,
                    blur: &self.blur,
                    pw: dw as usize + 2,
                    moving: &moving,
                    ow: ow_us,
                    fringe,
                    noise,
                    bloom_mix,
                    tick: frame.tick,
                };
                shade.rows(first, part, row_a, None);
            }
            overlay(frame, &plain, (ow, oh), out);
            return (ow, oh);
        }
        // Which rows of the picture changed since the last frame, widened by what the blurs
        // carry a change across; everything, when anything else changed.
        let look = Look {
            key,
            lut,
            fringe,
            bloom_mix,
            bloom_reach,
            glow,
        };
        let (dw_us, dh_us) = (dw as usize, dh as usize);
        let all = self.last.as_ref() != Some(&look) || self.last_picture.len() != n;
        // Running counts of the rows that changed, then of those within the blurs' reach of
        // one (a changed row `y` makes rows `y - reach ..= y + reach` change).
        let reach = bloom_reach + 2 * glow.map_or(0, |(_, _, r)| usize::from(r));
        self.raw_changed.clear();
        self.raw_changed.push(0);
        for y in 0..dh_us {
            let row = y * dw_us..(y + 1) * dw_us;
            let row_changed = all || self.last_picture[row.clone()] != frame.picture[row];
            let count = self.raw_changed[y] + u32::from(row_changed);
            self.raw_changed.push(count);
        }
        self.changed.clear();
        self.changed.push(0);
        for y in 0..dh_us {
            let near = self.raw_changed[(y + reach + 1).min(dh_us)]
                > self.raw_changed[y.saturating_sub(reach)];
            let count = self.changed[y] + u32::from(near);
            self.changed.push(count);
        }
        self.last = Some(look);
        self.last_picture.clear();
        self.last_picture.extend_from_slice(frame.picture);
        self.pre.resize(ow_us * oh as usize, 0);
        self.state.resize(oh as usize, 0);
        let shade = Shade {
            map: &self.map,
            gain: &self.gain,
            first_row: 0,
            lin: &self.lin,
            blur: &self.blur,
            pw: dw as usize + 2,
            moving: &moving,
            ow: ow_us,
            fringe,
            noise,
            bloom_mix,
            tick: frame.tick,
        };
        // Rows depend on nothing but their own number, so the split changes no byte.
        let half = oh as usize / 2;
        let split = half * ow_us * 4;
        let (pre_top, pre_bottom) = self.pre.split_at_mut(half * ow_us);
        let (state_top, state_bottom) = self.state.split_at_mut(half);
        let memory = |pre, state| Memory {
            pre,
            state,
            changed: &self.changed,
            reads: &self.reads,
            all,
        };
        let (top_memory, bottom_memory) =
            (memory(pre_top, state_top), memory(pre_bottom, state_bottom));
        match self.helper.get(ow_us * oh as usize) {
            Some(helper) => {
                let (top, bottom) = out.split_at_mut(split);
                let bottom = std::sync::Mutex::new(Some((bottom, row_b, bottom_memory)));
                let lower = || {
                    let taken = bottom.lock().ok().and_then(|mut b| b.take());
                    if let Some((rows, buf, memory)) = taken {
                        shade.rows(half, rows, buf, Some(memory));
                    }
                };
                let worked = helper.run(&lower, || shade.rows(0, top, row_a, Some(top_memory)));
                if !worked {
                    // The second thread failed: its rows are shaded here, and it is not used again.
                    lower();
                    self.helper.give_up();
                }
            }
            None => {
                let (top, bottom) = out.split_at_mut(split);
                shade.rows(0, top, row_a, Some(top_memory));
                shade.rows(half, bottom, row_a, Some(bottom_memory));
            }
        }
        overlay(frame, &plain, (ow, oh), out);
        (ow, oh)
    }
}

impl PostProcessor {
    /// Fills `self.lin` with the display's colours (`self.rgb`) in linear light, a black
    /// border around them, with the glow (`threshold`, `strength`, `radius`) added.
    fn linearise(&mut self, w: usize, h: usize, glow: Option<(f64, f64, u8)>) {
        let to_lin = to_linear_table();
        let pw = w + 2;
        self.lin.clear();
        self.lin.resize(pw * (h + 2), 0);
        let glow = glow.filter(|&(_, strength, _)| strength > 0.0);
        if let Some((threshold, strength, radius)) = glow {
            self.glow(w, h, threshold, strength, radius);
        }
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let c = self.rgb[i];
                let mut ch = [
                    u32::from(to_lin[(c >> 16) as usize & 0xFF]),
                    u32::from(to_lin[(c >> 8) as usize & 0xFF]),
                    u32::from(to_lin[c as usize & 0xFF]),
                ];
                if glow.is_some() {
                    for (k, v) in ch.iter_mut().enumerate() {
                        *v = (*v + u32::from(self.planes[k][i])).min(LIN_MAX);
                    }
                }
                self.lin[(y + 1) * pw + x + 1] = pack_lin(ch);
            }
        }
    }

    /// The glow into `self.planes` (linear light, what to add to each display pixel): the
    /// parts of colours brighter than `threshold`, blurred twice with a box of `radius`,
    /// times `strength`.
    fn glow(&mut self, w: usize, h: usize, threshold: f64, strength: f64, radius: u8) {
        let to_lin = to_linear_table();
        // Sized for the bloom's blur of the bordered picture too, so neither grows the other.
        let most = (w + 2) * (h + 2);
        for plane in &mut self.planes {
            plane.resize(most, 0);
        }
        self.scratch.resize(most, 0);
        let t = (threshold * 255.0 + 0.5).floor() as u32;
        let span = 255 - t.min(254);
        let mut bright = [0u32; 256];
        for (l, k) in bright.iter_mut().enumerate().skip(t as usize + 1) {
            *k = (l as u32 - t) * 256 / span;
        }
        for (i, &c) in self.rgb.iter().enumerate() {
            let (r, g, b) = (c >> 16 & 0xFF, (c >> 8) & 0xFF, c & 0xFF);
            let k = bright[luma(r, g, b) as usize];
            for (plane, v) in self.planes.iter_mut().zip([r, g, b]) {
                plane[i] = ((u32::from(to_lin[v as usize]) * k) >> 8) as u16;
            }
        }
        let r = usize::from(radius.clamp(1, MAX_BLOOM_RADIUS));
        let k = (strength * 256.0 + 0.5).floor() as u32;
        for plane in &mut self.planes {
            for _ in 0..2 {
                box_rows(plane, &mut self.scratch, w, h, r);
                box_columns(&self.scratch, plane, w, h, r);
            }
            for v in plane.iter_mut() {
                *v = ((u32::from(*v) * k) >> 8).min(LIN_MAX) as u16;
            }
        }
    }

    /// `self.blur`: `self.lin` (border included) blurred with a box of radius `r` along rows
    /// and columns, for the bloom.
    fn blur_linear(&mut self, w: usize, h: usize, r: usize) {
        let (pw, ph) = (w + 2, h + 2);
        let n = pw * ph;
        self.blur.clear();
        self.blur.resize(n, 0);
        if r == 0 {
            self.blur.copy_from_slice(&self.lin);
            return;
        }
        for plane in &mut self.planes {
            plane.resize(n, 0);
        }
        self.scratch.resize(n, 0);
        for (k, plane) in self.planes.iter_mut().enumerate() {
            for (v, &c) in plane.iter_mut().zip(&self.lin) {
                *v = (c >> (LANE * k as u32) & u64::from(LIN_MAX)) as u16;
            }
            box_rows(plane, &mut self.scratch, pw, ph, r);
            box_columns(&self.scratch, plane, pw, ph, r);
        }
        for (i, c) in self.blur.iter_mut().enumerate() {
            *c = pack_lin([
                u32::from(self.planes[0][i]),
                u32::from(self.planes[1][i]),
                u32::from(self.planes[2][i]),
            ]);
        }
    }
}

/// What [`fill_tables`] works out once per column and per row, kept to build again without
/// allocating.
#[derive(Debug, Default)]
struct TableScratch {
    /// Per output column: the flat vignettes' gain.
    col: Vec<f64>,
    /// Per output row (of those being built): the flat scanlines' and vignettes' gain.
    row: Vec<f64>,
    /// Per output column, for the first flat grille: its stripe, its border gain across, and
    /// whether its cells sit half a cell lower.
    mask_col: Vec<(u8, f64, bool)>,
    /// Per output row, for the first flat grille: its border gain down, for cells as they sit
    /// and half a cell lower.
    mask_row: Vec<[f64; 2]>,
}

/// Fills `map` and `gain` for the output rows `rows` of a picture of `key`'s sizes and
/// effects, row by row from `rows.start`: where each output pixel samples the picture and
/// its three gains.
///
/// An effect after the last curve lies flat on the screen: its gain is a function of the
/// output pixel's place alone, worked out once per column and row. For the rest, each pixel
/// walks the effects from the last curve back to the first, from its place on the screen: a
/// curve moves the point, and every other effect multiplies the gain with its value at the
/// point as it stands, so an effect before a curve bends with it.
fn fill_tables(
    key: &TableKey,
    rows: std::ops::Range<u32>,
    map: &mut [Tap],
    gain: &mut [[u16; 3]],
    scratch: &mut TableScratch,
    reads: &mut [(u32, u32)],
) {
    let (dw, dh) = key.display;
    let (ow, oh) = key.output;
    let (owf, ohf) = (f64::from(ow), f64::from(oh));
    let (dwf, dhf) = (f64::from(dw), f64::from(dh));
    let shaping = key.shaping.as_slice();
    let curved = shaping.iter().any(|e| matches!(e, Effect::Barrel { .. }));
    let flat_from = shaping
        .iter()
        .rposition(|e| matches!(e, Effect::Barrel { .. }))
        .map_or(0, |i| i + 1);
    let (bent, flat) = shaping.split_at(flat_from);
    // Each scanline effect's bell over a line, averaged over an output pixel's height.
    let mut bells = [[0f32; SCAN_STEPS]; MAX_EFFECTS];
    for (e, bell) in shaping.iter().zip(bells.iter_mut()) {
        if let Effect::Scanlines {
            amount,
            strength,
            density,
        } = *e
        {
            let lines = lines_of(density, dhf);
            fill_bell(bell, f64::from(amount), f64::from(strength), lines / ohf);
        }
    }
    let bell_at = |i: usize, density: f32, y: f64| -> f64 {
        let t = y * lines_of(density, dhf);
        let phase = t - t.floor();
        f64::from(bells[i][((phase * SCAN_STEPS as f64).floor() as usize).min(SCAN_STEPS - 1)])
    };
    let centre = |v: f64| {
        let c = v * 2.0 - 1.0;
        (1.0 - c * c).max(0.0)
    };
    let at_screen = |i: u32, len: f64| (f64::from(i) + 0.5) / len;

    // The flat effects, per column and per row.
    let TableScratch {
        col,
        row,
        mask_col,
        mask_row,
    } = scratch;
    col.clear();
    col.resize(ow as usize, 1.0);
    row.clear();
    row.resize(rows.len(), 1.0);
    let mut grille = None;
    for (i, e) in flat.iter().enumerate() {
        let i = i + flat_from;
        match *e {
            Effect::Vignette { amount } if amount > 0.0 => {
                let a = f64::from(amount);
                for (ox, g) in col.iter_mut().enumerate() {
                    *g *= bt::math::powf(centre(at_screen(ox as u32, owf)), a);
                }
                for (oy, g) in rows.clone().zip(row.iter_mut()) {
                    *g *= bt::math::powf(centre(at_screen(oy, ohf)), a);
                }
            }
            Effect::Scanlines { density, .. } => {
                for (oy, g) in rows.clone().zip(row.iter_mut()) {
                    *g *= bell_at(i, density, at_screen(oy, ohf));
                }
            }
            Effect::RgbMask {
                intensity,
                size,
                border,
            } if grille.is_none() => {
                let (size, border) = (f64::from(size), f64::from(border));
                mask_col.clear();
                mask_col.extend((0..ow).map(|ox| {
                    let cx = (f64::from(ox) + 0.5) / size;
                    let (stripe, across, lower) = mask_column(cx, border);
                    (stripe, across, lower)
                }));
                mask_row.clear();
                mask_row.extend(rows.clone().map(|oy| {
                    let cy = (f64::from(oy) + 0.5) / size;
                    [mask_down(cy, border), mask_down(cy + 0.5, border)]
                }));
                grille = Some((i, f64::from(intensity)));
            }
            _ => {}
        }
    }

    let pw = dw as usize + 2;
    let (kx, ky) = (owf / dwf, ohf / dhf);
    for (r, oy) in rows.clone().enumerate() {
        let v = at_screen(oy, ohf);
        // The first and last rows of the bordered picture this output row reads.
        let mut span = (u32::MAX, 0u32);
        for ox in 0..ow {
            let u = at_screen(ox, owf);
            let p = r * ow as usize + ox as usize;
            let flat_gain = col[ox as usize] * row[r];
            let mut g = [flat_gain; 3];
            if let Some((_, k)) = grille {
                let (stripe, across, lower) = mask_col[ox as usize];
                let m = 3.0 * across * mask_row[r][usize::from(lower)];
                for (c, gc) in g.iter_mut().enumerate() {
                    let own = if c == usize::from(stripe) { m } else { 0.0 };
                    *gc *= 1.0 + (own - 1.0) * k;
                }
            }
            for (i, e) in flat.iter().enumerate() {
                // Grilles past the first are worked out pixel by pixel.
                if let Effect::RgbMask {
                    intensity,
                    size,
                    border,
                } = *e
                {
                    if grille.is_some_and(|(first, _)| first != i + flat_from) {
                        let m = mask_at(u * owf, v * ohf, f64::from(size), f64::from(border));
                        for (c, m) in g.iter_mut().zip(m) {
                            *c *= 1.0 + (m - 1.0) * f64::from(intensity);
                        }
                    }
                }
            }
            let (mut x, mut y) = (u, v);
            let mut outside = false;
            for (i, e) in bent.iter().enumerate().rev() {
                match *e {
                    Effect::Barrel { curvature } => {
                        let (dx, dy) = (x - 0.5, y - 0.5);
                        let d2 = dx * dx + dy * dy;
                        let c = f64::from(curvature);
                        (x, y) = (x + dx * d2 * c, y + dy * d2 * c);
                        if !(0.0..=1.0).contains(&x) || !(0.0..=1.0).contains(&y) {
                            outside = true;
                            break;
                        }
                    }
                    Effect::Scanlines { density, .. } => {
                        let k = bell_at(i, density, y);
                        for c in &mut g {
                            *c *= k;
                        }
                    }
                    Effect::RgbMask {
                        intensity,
                        size,
                        border,
                    } => {
                        let m = mask_at(x * owf, y * ohf, f64::from(size), f64::from(border));
                        let k = f64::from(intensity);
                        for (c, m) in g.iter_mut().zip(m) {
                            *c *= 1.0 + (m - 1.0) * k;
                        }
                    }
                    Effect::Vignette { amount } if amount > 0.0 => {
                        let k = bt::math::powf(centre(x) * centre(y), f64::from(amount));
                        for c in &mut g {
                            *c *= k;
                        }
                    }
                    _ => {}
                }
            }
            if outside {
                map[p] = OUTSIDE;
                gain[p] = [0; 3];
                continue;
            }
            map[p] = if !curved && key.filter == Upscale::Nearest {
                // Without a curve, nearest is exact whole-pixel arithmetic.
                let sx = u64::from(ox) * u64::from(dw) / u64::from(ow);
                let sy = u64::from(oy) * u64::from(dh) / u64::from(oh);
                Tap {
                    at: ((sy as usize + 1) * pw + sx as usize + 1) as u32,
                    fx: 0,
                    fy: 0,
                }
            } else {
                let sharp = key.filter == Upscale::Nearest;
                let (bx, fx) = axis(x * dwf, dwf, kx, sharp, curved);
                let (by, fy) = axis(y * dhf, dhf, ky, sharp, curved);
                Tap {
                    at: (by * pw + bx) as u32,
                    fx,
                    fy,
                }
            };
            gain[p] = g.map(|c| (c * f64::from(GAIN_ONE) + 0.5).floor().clamp(0.0, 65535.0) as u16);
            let tap = map[p];
            let row = tap.at / (pw as u32);
            span = (span.0.min(row), span.1.max(row + u32::from(tap.fy > 0)));
        }
        if let Some(read) = reads.get_mut(oy as usize) {
            // As display rows (the border's rows are outside the picture).
            *read = if span.0 > span.1 {
                (0, 0)
            } else {
                (
                    span.0.saturating_sub(1).min(dh - 1),
                    span.1.saturating_sub(1).min(dh - 1),
                )
            };
        }
    }
}

/// Lines over the picture's height for a scanline `density` (0: one per display row).
fn lines_of(density: f32, display_rows: f64) -> f64 {
    if density > 0.0 {
        f64::from(density)
    } else {
        display_rows
    }
}

/// Where a sample at `s` (in display pixels along an axis of `len` of them) starts, as an
/// index into the picture with its black border (0 is the border before the first pixel),
/// and its weight towards the next pixel. `per` is output pixels per display pixel: a
/// `sharp` sample blends only over the output pixel at a display pixel's edge, so pixels stay
/// crisp and a curve has no stair steps. A flat picture is clamped to its edge; a curved one
/// blends into the black around it.
fn axis(s: f64, len: f64, per: f64, sharp: bool, curved: bool) -> (usize, u8) {
    let mut t = s - 0.5;
    if !curved {
        t = t.clamp(0.0, len - 1.0);
    }
    // A point inside the picture less half a pixel: from -0.5 to `len` - 0.5.
    let t = t.clamp(-1.0, len - 1.0);
    let base = t.floor();
    let mut f = t - base;
    if sharp {
        f = ((f - 0.5) * per + 0.5).clamp(0.0, 1.0);
    }
    let w = (f * f64::from(WEIGHT_ONE) + 0.5).floor() as u8;
    ((base + 1.0) as usize, w)
}

/// One scanline effect's gain over a line's height into `table`: the bell `2^(strength × p²)`
/// (`p` from -0.5 at one edge of the line to 0.5 at the other), mixed in by `amount`, each
/// entry averaged over `footprint` lines (an output pixel's height), so lines finer than the
/// output's pixels fade to their mean instead of beating against them.
fn fill_bell(table: &mut [f32; SCAN_STEPS], amount: f64, strength: f64, footprint: f64) {
    const SUBSAMPLES: u32 = 8;
    for (i, entry) in table.iter_mut().enumerate() {
        let phase = (i as f64 + 0.5) / SCAN_STEPS as f64;
        let mut sum = 0.0;
        for s in 0..SUBSAMPLES {
            let q = phase + footprint * ((f64::from(s) + 0.5) / f64::from(SUBSAMPLES) - 0.5);
            let p = q - q.floor() - 0.5;
            sum += bt::math::exp2(strength * p * p);
        }
        let bell = sum / f64::from(SUBSAMPLES);
        *entry = (1.0 + (bell - 1.0) * amount) as f32;
    }
}

/// The grille's red, green and blue gains at output point (`x`, `y`): stripes of cells `size`
/// pixels wide, every other column of cells half a cell lower, darker towards each cell's
/// border by `border`. A stripe's own channel is tripled, so the three average to 1.
fn mask_at(x: f64, y: f64, size: f64, border: f64) -> [f64; 3] {
    let (stripe, across, lower) = mask_column(x / size, border);
    let down = mask_down(y / size + if lower { 0.5 } else { 0.0 }, border);
    let mut m = [0.0; 3];
    m[usize::from(stripe)] = 3.0 * across * down;
    m
}

/// The grille at `cx` cells across: which stripe (0 red, 1 green, 2 blue), the border's gain
/// across the stripe, and whether this column of cells sits half a cell lower.
fn mask_column(cx: f64, border: f64) -> (u8, f64, bool) {
    let frac = |v: f64| v - v.floor();
    let sub = cx * 3.0;
    let stripe = sub.floor();
    let which = (stripe - 3.0 * (stripe / 3.0).floor()).clamp(0.0, 2.0) as u8;
    let ux = frac(sub) * 2.0 - 1.0;
    let lower = frac(cx.floor() * 0.5) != 0.0;
    (which, 1.0 - ux * ux * border, lower)
}

/// The grille's border gain down a cell at `cy` cells from the top.
fn mask_down(cy: f64, border: f64) -> f64 {
    let uy = (cy - cy.floor()) * 2.0 - 1.0;
    1.0 - uy * uy * border
}

/// What the effects that move do to each output row this tick: its gain (flicker, a tired
/// tube's dips, the rolling bands) and its sideways shift (interference, tearing).
struct Moving<'a> {
    effects: &'a PostEffects,
    tick: u64,
    /// The tick in seconds.
    seconds: f64,
    oh: u32,
    ow: u32,
    /// The gain every row shares, 4.12.
    flat: f64,
    /// Interference's largest jitter as a fraction of the width.
    interference: f64,
    /// Tearing this tick: the largest shift in output pixels, or 0.
    tear: i64,
}

impl<'a> Moving<'a> {
    fn new(frame: &Frame<'a>, ow: u32, oh: u32, interference: f64, tear: (f64, f64)) -> Moving<'a> {
        let tick = frame.tick;
        let mut flat = 1.0;
        for e in frame.effects.iter().map(safe) {
            match e {
                Effect::Flicker { amount } => flat *= f64::from(amount),
                Effect::Flutter { amount } => {
                    let dip = (effect_hash(tick, 5, 0) % 256) as f64 / 255.0;
                    flat *= 1.0 - dip * f64::from(amount);
                }
                _ => {}
            }
        }
        let (chance, shift) = tear;
        let tears = shift >= 0.5 && unit(effect_hash(tick, 6, 0)) < chance;
        let rate = if frame.rate > 0.0 { frame.rate } else { 60.0 };
        Moving {
            effects: frame.effects,
            tick,
            seconds: tick as f64 / rate,
            oh,
            ow,
            flat,
            interference,
            tear: if tears {
                (shift + 0.5).floor() as i64
            } else {
                0
            },
        }
    }

    /// Row `y`'s gain, 4.12.
    fn gain(&self, y: u32) -> u32 {
        let mut g = self.flat;
        let v = (f64::from(y) + 0.5) / f64::from(self.oh);
        for e in self.effects.iter().map(safe) {
            if let Effect::RollLine { amount, speed } = e {
                // Three cosines make an uneven band; its tops, eased in, brighten.
                let x = v * 3.0 - self.seconds * f64::from(speed);
                let f = bt::math::cos(x)
                    * bt::math::cos(x * 2.35 + 1.1)
                    * bt::math::cos(x * 4.45 + 2.3);
                let t = ((f - 0.5) / 0.4).clamp(0.0, 1.0);
                let line = t * t * (3.0 - 2.0 * t) * f64::from(amount);
                g *= 1.0 + line * 1.5;
            }
        }
        (g * f64::from(GAIN_ONE) + 0.5).floor().clamp(0.0, 65535.0) as u32
    }

    /// Row `y`'s sideways shift in output pixels.
    fn shift(&self, y: u32) -> i64 {
        let mut s = 0;
        if self.interference > 0.0 {
            let jitter = (unit(effect_hash(self.tick, 8, u64::from(y))) - 0.5) * self.interference;
            s += (jitter * f64::from(self.ow)).round() as i64;
        }
        if self.tear > 0 {
            // Rows tear in pairs, each pair its own way.
            let h = effect_hash(self.tick, 7, u64::from(y / 2));
            s += (h % (2 * self.tear as u64 + 1)) as i64 - self.tear;
        }
        s
    }
}

/// A hash as a number from 0 up to 1.
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// What every output row is shaded from this frame.
struct Shade<'a> {
    /// The tables of the rows from `first_row` on.
    map: &'a [Tap],
    gain: &'a [[u16; 3]],
    first_row: usize,
    lin: &'a [u64],
    blur: &'a [u64],
    /// The picture's width with its border: a row of `lin`.
    pw: usize,
    moving: &'a Moving<'a>,
    ow: usize,
    /// The colour fringes' offset, in 128ths of an output pixel.
    fringe: u32,
    /// The noise's largest change, in levels of 255.
    noise: u32,
    /// How much of the bloom's blur is mixed in, 4.12.
    bloom_mix: u32,
    tick: u64,
}

impl Shade<'_> {
    /// Shades the rows from `first` on into `out`, which holds as many whole rows as follow,
    /// with `buf` (a row long) for the samples.
    fn rows(
        &self,
        first: usize,
        out: &mut [u8],
        buf: &mut RowBuffers,
        mut memory: Option<Memory<'_>>,
    ) {
        let ow = self.ow;
        let RowBuffers { samples, pre } = buf;
        let (samples, glows) = samples.split_at_mut(ow);
        let mut gains = RowGainTable::default();
        for (i, out_row) in out.chunks_exact_mut(ow * 4).enumerate() {
            let y = first + i;
            let shift = self.moving.shift(y as u32);
            let row_gain = self.moving.gain(y as u32);
            // A row whose inputs are as they were last frame keeps its picture before the
            // noise; only the noise is new.
            let pre_row: &mut [u32] = match memory.as_mut() {
                Some(m) => {
                    let stale = m.stale(i, y, shift);
                    let row = &mut m.pre[i * ow..(i + 1) * ow];
                    if !stale {
                        self.finish(row, out_row, y, gains.at(row_gain));
                        continue;
                    }
                    row
                }
                None => pre,
            };
            let base = (y - self.first_row) * ow;
            let map = &self.map[base..base + ow];
            let gain = &self.gain[base..base + ow];
            let bloom = self.bloom_mix > 0;
            // The samples of the row, moved sideways by `shift` (the edges repeat).
            let last = ow as i64 - 1;
            let tap_at = |x: usize| {
                if shift == 0 {
                    map[x]
                } else {
                    map[(x as i64 - shift).clamp(0, last) as usize]
                }
            };
            if bloom {
                for (x, (c, g)) in samples.iter_mut().zip(glows.iter_mut()).enumerate() {
                    let tap = tap_at(x);
                    *c = self.sample_or_dark(self.lin, tap);
                    *g = self.sample_or_dark(self.blur, tap);
                }
            } else if shift == 0 {
                for (c, &tap) in samples.iter_mut().zip(map) {
                    *c = self.sample_or_dark(self.lin, tap);
                }
            } else {
                for (x, c) in samples.iter_mut().enumerate() {
                    *c = self.sample_or_dark(self.lin, tap_at(x));
                }
            }
            let row = Row {
                samples,
                glows,
                gain,
            };
            macro_rules! pick {
                ($($f:literal $b:literal),*) => {
                    match (self.fringe > 0, bloom) {
                        $(($f, $b) => self.shade::<$f, $b>(row, pre_row),)*
                    }
                };
            }
            pick!(false false, false true, true false, true true);
            self.finish(pre_row, out_row, y, gains.at(row_gain));
        }
    }

    /// Writes row `y`'s picture (`pre`, before its gain and the noise) into `out` as RGBA,
    /// through the row's gain (`levels`, when it is not 1) and with the noise.
    #[inline(always)]
    fn finish(&self, pre: &[u32], out: &mut [u8], y: usize, levels: Option<&[u8; 256]>) {
        if let Some(levels) = levels {
            self.finish_with::<true>(pre, out, y, levels);
        } else {
            self.finish_with::<false>(pre, out, y, &[0; 256]);
        }
    }

    #[inline(always)]
    fn finish_with<const GAIN: bool>(
        &self,
        pre: &[u32],
        out: &mut [u8],
        y: usize,
        levels: &[u8; 256],
    ) {
        let level = |c: u32, shift: u32| {
            let v = (c >> shift) & 0xFF;
            if GAIN {
                u32::from(levels[v as usize])
            } else {
                v
            }
        };
        if self.noise == 0 {
            for (px, &c) in out.chunks_exact_mut(4).zip(pre) {
                px.copy_from_slice(&[
                    level(c, 0) as u8,
                    level(c, 8) as u8,
                    level(c, 16) as u8,
                    255,
                ]);
            }
            return;
        }
        let seed = effect_hash(self.tick, 9, y as u64) as u32;
        let spread = 2 * self.noise + 1;
        for (x, (px, &c)) in out.chunks_exact_mut(4).zip(pre).enumerate() {
            if c & LIT == 0 {
                // The tube's black border: no light, so no noise.
                px.copy_from_slice(&[0, 0, 0, 255]);
                continue;
            }
            // A hash of the row's seed and the column: no pixel waits on another's.
            let mut h = (x as u32 ^ seed).wrapping_mul(0x9E37_79B1);
            h ^= h >> 15;
            h = h.wrapping_mul(0x85EB_CA77);
            h ^= h >> 13;
            let d = (((h & 0xFFFF) * spread) >> 16) as i32 - self.noise as i32;
            let at = |shift: u32| (level(c, shift) as i32 + d).clamp(0, 255) as u8;
            px.copy_from_slice(&[at(0), at(8), at(16), 255]);
        }
    }

    /// `plane` (the picture or the bloom's blur) at `tap`, or [`DARK`] outside the curve.
    #[inline(always)]
    fn sample_or_dark(&self, plane: &[u64], tap: Tap) -> u64 {
        if tap.fx == OUTSIDE.fx {
            DARK
        } else {
            sample(plane, self.pw, tap)
        }
    }

    /// Shades one row's samples into `pre`: fringes, gains, the bloom, back to sRGB, packed
    /// `0xLLBBGGRR` with `LL` [`LIT`] inside the curve. One loop per combination of the
    /// fringes and the bloom, so none pays for what it does not use.
    #[inline(always)]
    fn shade<const FRINGE: bool, const BLOOM: bool>(&self, row: Row<'_>, pre: &mut [u32]) {
        let Row {
            samples,
            glows,
            gain,
        } = row;
        let to_srgb = to_srgb_table();
        let last = samples.len() as i64 - 1;
        let (fringe_px, fringe_w) = (
            (self.fringe / WEIGHT_ONE) as i64,
            u64::from(self.fringe % WEIGHT_ONE),
        );
        let mix_k = i64::from(self.bloom_mix);
        for (x, ((p, &c), (g, &glow))) in pre
            .iter_mut()
            .zip(samples.iter())
            .zip(gain.iter().zip(glows.iter()))
            .enumerate()
        {
            if c & DARK != 0 {
                *p = 0;
                continue;
            }
            let mut ch = unpack_lin(c);
            if FRINGE {
                // Red from the left, blue from the right, each blended between two pixels.
                let at = |d: i64| samples[(x as i64 + d).clamp(0, last) as usize] & !DARK;
                ch[0] = unpack_lin(mix(at(-fringe_px), at(-fringe_px - 1), fringe_w))[0];
                ch[2] = unpack_lin(mix(at(fringe_px), at(fringe_px + 1), fringe_w))[2];
            }
            for (v, &g) in ch.iter_mut().zip(g) {
                *v = (*v * u32::from(g)) >> 12;
            }
            if BLOOM {
                for (v, b) in ch.iter_mut().zip(unpack_lin(glow)) {
                    let b = i64::from(b);
                    let d = (b - i64::from(*v)) * mix_k;
                    *v = (i64::from(*v) + (d >> 12)).max(0) as u32;
                }
            }
            let s = |v: u32| u32::from(to_srgb[v.min(LIN_MAX) as usize]);
            *p = s(ch[0]) | (s(ch[1]) << 8) | (s(ch[2]) << 16) | LIT;
        }
    }
}

/// The mark of a lit pixel in a row's picture before the noise (outside the curve is dark).
const LIT: u32 = 1 << 24;

/// A half's working rows: the samples (the picture's, then the bloom's) and the picture
/// before the noise.
#[derive(Debug, Default)]
struct RowBuffers {
    samples: Vec<u64>,
    pre: Vec<u32>,
}

impl RowBuffers {
    fn fit(&mut self, width: usize) {
        self.samples.resize(2 * width, 0);
        self.pre.resize(width, 0);
    }
}

/// What a half remembers of the rows it shaded last frame, to shade again only the rows
/// whose inputs changed.
struct Memory<'a> {
    /// Each row's picture before the noise.
    pre: &'a mut [u32],
    /// Each row's sideways shift when it was shaded.
    state: &'a mut [i64],
    /// The picture's rows that changed since (and those a blur carries the change to), as
    /// running counts: row `r` changed when `changed[r + 1] > changed[r]`.
    changed: &'a [u32],
    /// Each output row's span of display rows, first and last, from the tables.
    reads: &'a [(u32, u32)],
    /// Everything is shaded again (the tables, the palette or an effect changed).
    all: bool,
}

impl Memory<'_> {
    /// Whether row `y` (`i` in this half) must be shaded again, given its shift now;
    /// remembers it.
    fn stale(&mut self, i: usize, y: usize, now: i64) -> bool {
        let (lo, hi) = self.reads[y];
        let moved = self.changed[hi as usize + 1] > self.changed[lo as usize];
        let stale = self.all || moved || self.state[i] != now;
        self.state[i] = now;
        stale
    }
}

/// One output row's samples and gains, for [`Shade::shade`].
struct Row<'a> {
    samples: &'a [u64],
    glows: &'a [u64],
    gain: &'a [[u16; 3]],
}

/// A row's gain (flicker, a tube's dips, the rolling band) as a table from sRGB level to
/// sRGB level through linear light, made again only when the gain differs from the last
/// row's: applied to the finished row, so a row whose gain alone changed is not shaded again.
struct RowGainTable {
    gain: u32,
    levels: [u8; 256],
}

impl Default for RowGainTable {
    fn default() -> RowGainTable {
        RowGainTable {
            gain: GAIN_ONE,
            levels: [0; 256],
        }
    }
}

impl RowGainTable {
    /// The table for `gain` (4.12), or `None` for a gain of 1.
    fn at(&mut self, gain: u32) -> Option<&[u8; 256]> {
        if gain == GAIN_ONE {
            return None;
        }
        if gain != self.gain || self.levels == [0; 256] {
            let (to_lin, to_srgb) = (to_linear_table(), to_srgb_table());
            for (level, out) in self.levels.iter_mut().enumerate() {
                let v = ((u32::from(to_lin[level]) * gain) >> 12).min(LIN_MAX);
                *out = to_srgb[v as usize];
            }
            self.gain = gain;
        }
        Some(&self.levels)
    }
}

/// The bit marking a sample outside the curve (above the three lanes).
const DARK: u64 = 1 << 63;

/// The picture `plane` (with its border, `pw` wide) at `tap`: the four pixels around the
/// point blended by its weights.
#[inline(always)]
fn sample(plane: &[u64], pw: usize, tap: Tap) -> u64 {
    let at = tap.at as usize;
    let c00 = plane[at];
    if tap.fx == 0 && tap.fy == 0 {
        return c00;
    }
    let (fx, fy) = (u64::from(tap.fx), u64::from(tap.fy));
    let top = mix(c00, plane[at + 1], fx);
    let bottom = mix(plane[at + pw], plane[at + pw + 1], fx);
    mix(top, bottom, fy)
}

/// `a` and `b` (packed linear colours) blended: `w` 128ths of `b`.
#[inline(always)]
fn mix(a: u64, b: u64, w: u64) -> u64 {
    ((a * (u64::from(WEIGHT_ONE) - w) + b * w) >> 7) & LANES
}

#[inline(always)]
fn pack_lin(c: [u32; 3]) -> u64 {
    u64::from(c[0]) | u64::from(c[1]) << LANE | u64::from(c[2]) << (2 * LANE)
}

#[inline(always)]
fn unpack_lin(c: u64) -> [u32; 3] {
    let m = u64::from(LIN_MAX);
    [
        (c & m) as u32,
        (c >> LANE & m) as u32,
        (c >> (2 * LANE) & m) as u32,
    ]
}

/// sRGB levels to linear light, 0 to [`LIN_MAX`].
fn to_linear_table() -> &'static [u16; 256] {
    static TABLE: std::sync::OnceLock<[u16; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u16; 256];
        for (i, v) in t.iter_mut().enumerate() {
            let c = i as f64 / 255.0;
            let l = if c <= 0.04045 {
                c / 12.92
            } else {
                bt::math::powf((c + 0.055) / 1.055, 2.4)
            };
            *v = (l * f64::from(LIN_MAX) + 0.5).floor() as u16;
        }
        t
    })
}

/// Linear light (0 to [`LIN_MAX`]) back to sRGB levels. Every level's own linear value comes
/// back to that level, so a picture with no effect keeps its bytes.
fn to_srgb_table() -> &'static [u8; LIN_MAX as usize + 1] {
    static TABLE: std::sync::OnceLock<[u8; LIN_MAX as usize + 1]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u8; LIN_MAX as usize + 1];
        for (i, v) in t.iter_mut().enumerate() {
            let l = i as f64 / f64::from(LIN_MAX);
            let c = if l <= 0.003_130_8 {
                l * 12.92
            } else {
                1.055 * bt::math::powf(l, 1.0 / 2.4) - 0.055
            };
            *v = (c * 255.0 + 0.5).floor().clamp(0.0, 255.0) as u8;
        }
        for (level, &l) in to_linear_table().iter().enumerate() {
            t[usize::from(l)] = level as u8;
        }
        t
    })
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

/// Lays the overlay's pixels (where `with_overlay` differs from `picture`) over `out`, each
/// over the output pixels its display pixel covers, in its plain palette colour.
fn overlay(frame: &Frame<'_>, plain: &[u32; 256], output: (u32, u32), out: &mut [u8]) {
    let (dw, dh) = (
        u64::from(frame.display.0.max(1)),
        u64::from(frame.display.1.max(1)),
    );
    let (ow, oh) = (u64::from(output.0), u64::from(output.1));
    let span = |i: u64, d: u64, o: u64| (i * o / d) as usize..((i + 1) * o / d) as usize;
    for (i, (&a, &b)) in frame.picture.iter().zip(frame.with_overlay).enumerate() {
        if a == b {
            continue;
        }
        let c = plain[usize::from(b)];
        let px = [(c >> 16) as u8, (c >> 8) as u8, c as u8, 255];
        let (x, y) = (i as u64 % dw, i as u64 / dw);
        let cols = span(x, dw, ow);
        for row in span(y, dh, oh) {
            let start = (row * ow as usize + cols.start) * 4;
            for block in out[start..start + cols.len() * 4].chunks_exact_mut(4) {
                block.copy_from_slice(&px);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::EffectKind;

    fn stack(effects: &[Effect]) -> PostEffects {
        let mut fx = PostEffects::default();
        for &e in effects {
            assert!(fx.push(e));
        }
        fx
    }

    fn frame<'a>(pixels: &'a [u8], fx: &'a PostEffects, palette: &'a Palette) -> Frame<'a> {
        Frame {
            picture: pixels,
            with_overlay: pixels,
            display: (4, 2),
            output: (8, 4),
            filter: Upscale::Nearest,
            palette,
            effects: fx,
            tick: 3,
            rate: 60.0,
        }
    }

    fn render(f: &Frame<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        PostProcessor::new().render(f, &mut out);
        out
    }

    /// The nearest-scaled picture, as the plain palette shows it.
    fn scaled(
        palette: &Palette,
        pixels: &[u8],
        display: (u32, u32),
        output: (u32, u32),
    ) -> Vec<u8> {
        let mut base = vec![0; pixels.len() * 4];
        palette.write_rgba(pixels, &mut base);
        let (dw, dh, ow, oh) = (
            display.0 as usize,
            display.1 as usize,
            output.0 as usize,
            output.1 as usize,
        );
        let mut want = vec![0; ow * oh * 4];
        for y in 0..oh {
            for x in 0..ow {
                let src = ((y * dh / oh) * dw + x * dw / ow) * 4;
                want[(y * ow + x) * 4..][..4].copy_from_slice(&base[src..src + 4]);
            }
        }
        want
    }

    #[test]
    fn every_level_comes_back_from_linear_light_as_it_went_in() {
        let (to_lin, to_srgb) = (to_linear_table(), to_srgb_table());
        for level in 0..=255u8 {
            assert_eq!(to_srgb[usize::from(to_lin[usize::from(level)])], level);
        }
        assert!(
            to_lin.windows(2).all(|w| w[0] < w[1]),
            "distinct levels stay distinct"
        );
        assert!(to_srgb.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn an_effect_that_changes_nothing_gives_the_picture_scaled_at_any_size() {
        let palette = Palette::pico8();
        let pixels = [0, 7, 8, 12, 1, 2, 3, 4];
        let fx = stack(&[Effect::Flicker { amount: 1.0 }]);
        for output in [(8, 4), (4, 2), (12, 6), (10, 5), (7, 3)] {
            let mut f = frame(&pixels, &fx, &palette);
            f.output = output;
            assert_eq!(
                render(&f),
                scaled(&palette, &pixels, (4, 2), output),
                "{output:?}"
            );
        }
    }

    #[test]
    fn a_linear_upscale_blends_neighbours_and_nearest_does_not() {
        let palette = Palette::pico8();
        let pixels = [0, 7, 0, 7, 0, 7, 0, 7];
        let fx = stack(&[Effect::Flicker { amount: 1.0 }]);
        let mut f = frame(&pixels, &fx, &palette);
        f.output = (16, 8);
        let nearest = render(&f);
        f.filter = Upscale::Linear;
        let linear = render(&f);
        let white = palette.colors()[7];
        let greys = |p: &[u8]| p.chunks(4).filter(|c| c[0] != 0 && c[0] != white.r).count();
        assert_eq!(greys(&nearest), 0);
        assert!(greys(&linear) > 0, "blends between black and white");
    }

    #[test]
    fn flicker_scales_the_light_by_its_amount_as_blit386s_does() {
        let palette = Palette::pico8();
        let pixels = [7; 8];
        let fx = stack(&[Effect::Flicker { amount: 0.5 }]);
        let out = render(&frame(&pixels, &fx, &palette));
        let white = palette.colors()[7];
        let half = |v: u8| {
            let l = f64::from(to_linear_table()[usize::from(v)]) * 0.5;
            to_srgb_table()[l.floor() as usize]
        };
        for px in out.chunks(4) {
            assert_eq!(px[..3], [half(white.r), half(white.g), half(white.b)]);
        }
    }

    #[test]
    fn interference_moves_rows_by_their_own_amounts_every_tick() {
        let palette = Palette::pico8();
        let (w, h) = (64u32, 32u32);
        let pixels: Vec<u8> = (0..w * h).map(|i| (i % w / 4 % 16) as u8).collect();
        let fx = stack(&[Effect::Interference { amount: 0.2 }]);
        let plain = stack(&[Effect::Flicker { amount: 1.0 }]);
        let at = |fx: &PostEffects, tick| {
            let mut f = frame(&pixels, fx, &palette);
            (f.display, f.output, f.tick) = ((w, h), (w, h), tick);
            render(&f)
        };
        let still = at(&plain, 1);
        let (a, b) = (at(&fx, 1), at(&fx, 2));
        let moved = |p: &[u8]| {
            p.chunks(w as usize * 4)
                .zip(still.chunks(w as usize * 4))
                .filter(|(r, s)| r != s)
                .count()
        };
        assert!(moved(&a) > h as usize / 2, "most rows jitter");
        assert_ne!(a, b, "anew every tick");
        assert_eq!(a, at(&fx, 1), "a function of the tick");
    }

    #[test]
    fn scanlines_before_a_curve_bend_with_it_and_after_it_lie_flat() {
        let palette = Palette::pico8();
        let pixels = vec![7u8; 40 * 30];
        let scan = Effect::Scanlines {
            amount: 1.0,
            strength: -8.0,
            density: 0.0,
        };
        let curve = Effect::Barrel { curvature: 0.3 };
        let picture = |fx: &PostEffects| {
            let mut f = frame(&pixels, fx, &palette);
            (f.display, f.output) = ((40, 30), (160, 120));
            render(&f)
        };
        // A row's green along its middle half: flat scanlines keep it constant.
        let row_varies = |p: &[u8], y: usize| {
            let row = &p[y * 160 * 4..(y + 1) * 160 * 4];
            let g: Vec<u8> = row.chunks(4).skip(40).take(80).map(|c| c[1]).collect();
            g.iter().max() != g.iter().min()
        };
        let flat = picture(&stack(&[curve, scan]));
        let bent = picture(&stack(&[scan, curve]));
        assert_ne!(flat, bent);
        assert!(
            (10..110).all(|y| !row_varies(&flat, y)),
            "after the curve, each row is one level"
        );
        assert!(
            (10..50).any(|y| row_varies(&bent, y)),
            "before it, rows cross the bent lines"
        );
    }

    /// The largest change between two pixels one grille period apart along a row, against the
    /// scanlines' own swing down a column, over the middle of a flat-coloured picture.
    fn seam_ratio(effects: &[Effect], period: usize) -> f64 {
        let palette = Palette::pico8();
        let (dw, dh, s) = (80u32, 60u32, 4u32);
        let pixels = vec![6u8; (dw * dh) as usize];
        let fx = stack(effects);
        let mut f = frame(&pixels, &fx, &palette);
        (f.display, f.output) = ((dw, dh), (dw * s, dh * s));
        let out = render(&f);
        let (ow, oh) = ((dw * s) as usize, (dh * s) as usize);
        let level = |x: usize, y: usize| -> i32 {
            let p = &out[(y * ow + x) * 4..][..3];
            p.iter().map(|&c| i32::from(c)).sum()
        };
        let column: Vec<i32> = (oh / 2 - 8..oh / 2 + 8).map(|y| level(ow / 2, y)).collect();
        let swing = column.iter().max().unwrap() - column.iter().min().unwrap();
        assert!(swing > 20, "the scanlines show: swing {swing}");
        let mut step = 0;
        for y in oh / 8..oh * 7 / 8 {
            for x in ow / 8..ow * 7 / 8 - period {
                step = step.max((level(x + period, y) - level(x, y)).abs());
            }
        }
        f64::from(step) / f64::from(swing)
    }

    fn without(preset: &[Effect], drop: &[EffectKind]) -> Vec<Effect> {
        preset
            .iter()
            .copied()
            .filter(|e| !drop.contains(&e.kind()))
            .collect()
    }

    #[test]
    fn flat_colour_under_the_crt_presets_has_no_seams() {
        // Noise, the rolling band, interference and glitches change pixels on purpose.
        let moving = [
            EffectKind::Noise,
            EffectKind::RollLine,
            EffectKind::Interference,
            EffectKind::Glitch,
            EffectKind::Tear,
            EffectKind::Flutter,
        ];
        for (name, preset, period) in [
            ("TV", bt::crt::TV, 6),
            ("GREEN", bt::crt::GREEN, 1),
            ("AMBER", bt::crt::AMBER, 1),
            ("GREEN_PHOSPHOR", bt::crt::GREEN_PHOSPHOR, 1),
            ("PIPBOY", bt::crt::PIPBOY, 12),
            ("WRIST_TERMINAL", bt::crt::WRIST_TERMINAL, 1),
        ] {
            let ratio = seam_ratio(&without(preset, &moving), period);
            // A stepped lookup jumps by most of the swing where a bent line crosses a row.
            assert!(
                ratio < 0.2,
                "{name}: a step of {ratio:.2} of the scanlines' swing"
            );
        }
    }

    #[test]
    fn rows_kept_from_the_last_frame_give_the_bytes_a_fresh_frame_gives() {
        // A long-lived processor shades again only the rows whose inputs changed: the picture
        // (a row, and the rows a blur carries it to), a row's shift or gain, the palette, an
        // effect. Every frame must be the bytes a processor that never saw the last one gives.
        let mut with_blurs: Vec<Effect> = bt::crt::PIPBOY.to_vec();
        with_blurs.extend_from_slice(bt::crt::TV);
        // A deep curve with no blur: an output row reads several display rows, and nothing
        // else carries a change to its neighbours.
        let deep = vec![
            Effect::Scanlines {
                amount: 0.5,
                strength: -8.0,
                density: 0.0,
            },
            Effect::Barrel { curvature: 1.0 },
            Effect::Noise { amount: 0.05 },
        ];
        for effects in [with_blurs, deep] {
            frames_kept_and_fresh_agree(effects);
        }
    }

    fn frames_kept_and_fresh_agree(mut effects: Vec<Effect>) {
        let (w, h) = (48u32, 36u32);
        let mut pixels: Vec<u8> = (0..w * h).map(|i| (i * 7 % 16) as u8).collect();
        let mut palette = Palette::pico8();
        let mut kept = PostProcessor::new();
        let mut rng = 12345u32;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            rng
        };
        for tick in 0..60u64 {
            match tick % 6 {
                // One pixel of one row.
                0 | 1 => {
                    let i = (next() % (w * h)) as usize;
                    pixels[i] = (next() % 16) as u8;
                }
                2 => palette
                    .set(3, bt::Color32::rgb(tick as u8 * 4, 40, 90))
                    .unwrap(),
                3 => {
                    for e in &mut effects {
                        if let Effect::Interference { amount } = e {
                            *amount = if tick % 12 == 3 { 0.05 } else { 0.0 };
                        }
                    }
                }
                4 => {
                    for e in &mut effects {
                        if let Effect::Glow { strength, .. } = e {
                            *strength = 0.5 + (tick % 5) as f32 * 0.2;
                        }
                    }
                }
                _ => {}
            }
            let fx = stack(&effects);
            let mut f = frame(&pixels, &fx, &palette);
            (f.display, f.output, f.tick) = ((w, h), (3 * w, 3 * h), tick);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            kept.render(&f, &mut a);
            PostProcessor::new().render(&f, &mut b);
            assert!(
                a == b,
                "tick {tick}: the kept rows differ from a fresh frame"
            );
        }
    }

    #[test]
    fn tables_built_band_by_band_give_the_same_bytes_as_tables_kept_whole() {
        let palette = Palette::pico8();
        let (w, h) = (37u32, 23u32);
        let pixels: Vec<u8> = (0..w * h).map(|i| (i * 7 % 16) as u8).collect();
        let mut all: Vec<Effect> = bt::crt::PIPBOY.iter().chain(bt::crt::TV).copied().collect();
        all.push(Effect::Barrel { curvature: 1.0 });
        all.push(Effect::ChromaticAberration { aberration: 5.5 });
        let fx = stack(&all);
        for scale in [1, 2, 3] {
            let mut f = frame(&pixels, &fx, &palette);
            (f.display, f.output, f.tick) = ((w, h), (w * scale, h * scale), 11);
            let (mut whole, mut banded) = (PostProcessor::new(), PostProcessor::new());
            // Bands of 5 output rows, or a few pixels of one row each.
            for band in [5 * (w * scale) as usize, 3] {
                banded.budget = TableBudget { kept: 0, band };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                whole.render(&f, &mut a);
                banded.render(&f, &mut b);
                assert!(a == b, "scale {scale}, bands of {band} pixels");
                assert!(banded.map.len() <= band.max((w * scale) as usize));
            }
        }
    }

    #[test]
    fn the_same_tick_gives_the_same_bytes_and_another_tick_other_noise() {
        let palette = Palette::pico8();
        let pixels = [7; 8];
        let fx = stack(bt::crt::PIPBOY);
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
    fn parameters_that_are_not_numbers_count_as_zero() {
        let palette = Palette::pico8();
        let pixels = [7; 8];
        let nan = f32::NAN;
        let wild = stack(&[
            Effect::Barrel { curvature: nan },
            Effect::Scanlines {
                amount: f32::INFINITY,
                strength: nan,
                density: f32::NEG_INFINITY,
            },
            Effect::RgbMask {
                intensity: nan,
                size: nan,
                border: f32::INFINITY,
            },
            Effect::ChromaticAberration { aberration: nan },
            Effect::Bloom {
                spread: f32::INFINITY,
                glow: nan,
            },
            Effect::RollLine {
                amount: nan,
                speed: f32::INFINITY,
            },
        ]);
        let out = render(&frame(&pixels, &wild, &palette));
        assert_eq!(out.len(), 8 * 4 * 4);
        let tame = stack(&[Effect::Flicker { amount: 1.0 }]);
        // The scanlines at full amount with a strength of 0 change nothing either.
        assert_eq!(out, render(&frame(&pixels, &tame, &palette)));
    }

    #[test]
    fn the_overlay_is_laid_over_the_effects_undistorted() {
        let palette = Palette::pico8();
        let picture = [0u8; 8];
        let mut with_overlay = picture;
        with_overlay[5] = 7;
        let fx = stack(bt::crt::TV);
        let mut f = frame(&picture, &fx, &palette);
        f.with_overlay = &with_overlay;
        let out = render(&f);
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
        let fx = stack(&[Effect::Barrel { curvature: 1.0 }]);
        let mut f = frame(&pixels, &fx, &palette);
        (f.display, f.output) = ((2, 4), (32, 64));
        let out = render(&f);
        assert_eq!(&out[..3], [0, 0, 0], "corner");
        let mid = ((32 * 32 + 16) * 4) as usize;
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
                Effect::Barrel { curvature: 0.5 },
                Effect::ChromaticAberration { aberration: 3.0 },
                Effect::RgbMask {
                    intensity: 1.0,
                    size: 3.0,
                    border: 1.0,
                },
                Effect::Noise { amount: 1.0 },
                Effect::RollLine {
                    amount: 1.0,
                    speed: 7.0,
                },
                Effect::Tear {
                    chance: 1.0,
                    shift: 9.0,
                },
            ],
        ];
        for effects in stacks {
            let fx = stack(effects);
            let mut two = PostProcessor::new();
            let mut one = PostProcessor {
                helper: HelperSlot::Unavailable,
                ..PostProcessor::default()
            };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for tick in 0..6 {
                let mut f = frame(&pixels, &fx, &palette);
                (f.display, f.output, f.tick) = ((w, h), (2 * w, 2 * h), tick);
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
