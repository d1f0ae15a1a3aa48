//! `bt bench`: a cart run headless at full speed, with the cost of each part of a frame.

use std::fmt::Write as _;
use std::time::Instant;

use crate::clock::ConstantClock;
use crate::engine::{CartPanic, Engine};

/// The middle and the 95th percentile of a set of timings, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spread {
    /// The median (the mean of the two middle values for an even count).
    pub median: f64,
    /// The 95th percentile, by nearest rank: the smallest value at least 95 % of the samples
    /// do not exceed.
    pub p95: f64,
}

impl Spread {
    /// The spread of `samples` (sorted in place). All zero for no samples.
    pub fn of(samples: &mut [f64]) -> Spread {
        if samples.is_empty() {
            return Spread::default();
        }
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        let median = if n % 2 == 1 {
            samples[n / 2]
        } else {
            (samples[n / 2 - 1] + samples[n / 2]) / 2.0
        };
        let rank = (n * 95).div_ceil(100).max(1);
        Spread {
            median,
            p95: samples[rank - 1],
        }
    }
}

/// What a benchmark run measured.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BenchReport {
    /// Frames measured (warm-up frames not counted).
    pub frames: u64,
    /// The cart's `update` (one per frame) plus the palette effects.
    pub update_ms: Spread,
    /// The cart's `render`, including the clear to index 0 before it.
    pub render_ms: Spread,
    /// The framebuffer through the palette into RGBA at display size.
    pub present_ms: Spread,
    /// Frames per second the three together could sustain: 1000 over the mean frame time.
    pub fps: f64,
}

impl BenchReport {
    /// The report as one JSON object on one line.
    pub fn to_json(&self) -> String {
        let spread = |s: Spread| format!("{{\"median\": {}, \"p95\": {}}}", s.median, s.p95);
        format!(
            "{{\"frames\": {}, \"update_ms\": {}, \"render_ms\": {}, \"present_ms\": {}, \"fps\": {}}}",
            self.frames,
            spread(self.update_ms),
            spread(self.render_ms),
            spread(self.present_ms),
            self.fps
        )
    }

    /// The report as a small table for people.
    pub fn to_table(&self, cart: &str, size: (u32, u32)) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{cart}: {} frames at {}x{}, one update each",
            self.frames, size.0, size.1
        );
        let _ = writeln!(out, "{:<8} {:>12} {:>12}", "", "median ms", "p95 ms");
        for (name, s) in [
            ("update", self.update_ms),
            ("render", self.render_ms),
            ("present", self.present_ms),
        ] {
            let _ = writeln!(out, "{name:<8} {:>12.4} {:>12.4}", s.median, s.p95);
        }
        let _ = writeln!(out, "could sustain {:.1} fps", self.fps);
        out
    }
}

/// The most frames `bt bench` measures or warms up with: about three hours at 1,000 fps, and a
/// bound on the samples it keeps in memory.
pub const MAX_FRAMES: u64 = 10_000_000;

/// Runs `warmup` unmeasured frames, then `frames` measured ones (each count capped at
/// [`MAX_FRAMES`]), each exactly one fixed update and one render, then the present into an RGBA
/// buffer made once up front.
///
/// # Errors
/// The cart's [`CartPanic`] when it panics: nothing is measured after it.
pub fn run(engine: &mut Engine, frames: u64, warmup: u64) -> Result<BenchReport, CartPanic> {
    let (frames, warmup) = (frames.min(MAX_FRAMES), warmup.min(MAX_FRAMES));
    let step = 1000.0 / engine.settings().target_fps;
    // A step of exactly one update interval: every frame runs one update.
    if let Ok(clock) = ConstantClock::new(step) {
        engine.set_clock(Box::new(clock));
    }
    let (w, h) = (engine.framebuffer().width(), engine.framebuffer().height());
    let mut rgba = vec![0u8; w as usize * h as usize * 4];
    let n = usize::try_from(frames).unwrap_or(usize::MAX);
    let (mut update, mut render, mut present) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let mut total_ms = 0.0;
    for i in 0..warmup + frames {
        if engine.advance(1) == 0 {
            if let Some(panic) = engine.cart_panic() {
                return Err(panic.clone());
            }
        }
        let started = Instant::now();
        engine
            .palette()
            .write_rgba(engine.framebuffer().pixels(), &mut rgba);
        let present_ms = started.elapsed().as_secs_f64() * 1000.0;
        std::hint::black_box(&rgba);
        if i < warmup {
            continue;
        }
        let stats = &engine.last_frame().stats;
        update.push(stats.update_ms);
        render.push(stats.render_ms);
        present.push(present_ms);
        total_ms += stats.update_ms + stats.render_ms + present_ms;
    }
    let fps = if total_ms > 0.0 {
        1000.0 * frames as f64 / total_ms
    } else {
        0.0
    };
    Ok(BenchReport {
        frames,
        update_ms: Spread::of(&mut update),
        render_ms: Spread::of(&mut render),
        present_ms: Spread::of(&mut present),
        fps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_p95_by_nearest_rank() {
        let mut odd = [5.0, 1.0, 3.0];
        assert_eq!(
            Spread::of(&mut odd),
            Spread {
                median: 3.0,
                p95: 5.0
            }
        );
        let mut even = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(Spread::of(&mut even).median, 2.5);
        let mut hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(Spread::of(&mut hundred).p95, 95.0);
        assert_eq!(Spread::of(&mut []), Spread::default());
    }

    #[test]
    fn json_has_exactly_the_documented_keys() {
        let r = BenchReport {
            frames: 3,
            update_ms: Spread {
                median: 0.5,
                p95: 1.0,
            },
            ..BenchReport::default()
        };
        assert_eq!(
            r.to_json(),
            "{\"frames\": 3, \"update_ms\": {\"median\": 0.5, \"p95\": 1}, \"render_ms\": \
             {\"median\": 0, \"p95\": 0}, \"present_ms\": {\"median\": 0, \"p95\": 0}, \"fps\": 0}"
        );
    }
}
