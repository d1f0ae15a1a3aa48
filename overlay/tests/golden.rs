//! Golden pictures of the tall chart, drawn from scripted frames through the fixed-step loop.
//!
//! Golden pictures follow [`bt_test_support::golden`]'s rule: `BT_UPDATE_GOLDEN=1` rewrites the
//! references in `tests/golden/` after a reviewed change. Each run that writes or mismatches a picture also saves it three times larger under
//! the target folder (`overlay-golden/NAME.x3.png`, path printed) to look at.

use std::path::{Path, PathBuf};

use bt::host::Framebuffer;
use bt::{Palette, Settings, Tag};
use bt_overlay::{ChartMode, FrameStats, Overlay};
use bt_test_support::golden;

/// The runtime's fixed-step loop as the overlay sees it (`runtime/engine/src/fixed_loop.rs`): deltas
/// within 2 ms of whole intervals snap to them, at most 8 updates a frame, the rest thrown away.
struct Loop {
    interval_ms: f64,
    accumulator_ms: f64,
}

impl Loop {
    fn new(target_fps: f64) -> Loop {
        Loop {
            interval_ms: 1000.0 / target_fps,
            accumulator_ms: 0.0,
        }
    }

    /// Updates run, whether the cap clamped, milliseconds thrown away.
    fn frame(&mut self, delta_ms: f64) -> (u32, bool, f64) {
        let k = (delta_ms / self.interval_ms).round();
        let snapped = if k >= 1.0 && (delta_ms - k * self.interval_ms).abs() <= 2.0 {
            k * self.interval_ms
        } else {
            delta_ms
        };
        self.accumulator_ms += snapped;
        let cap = self.interval_ms * 8.0;
        let (clamped, discarded) = if self.accumulator_ms > cap {
            let d = self.accumulator_ms - cap;
            self.accumulator_ms = cap;
            (true, d)
        } else {
            (false, 0.0)
        };
        let updates = (((self.accumulator_ms + 0.001) / self.interval_ms).floor() as u32).min(8);
        self.accumulator_ms =
            (self.accumulator_ms - f64::from(updates) * self.interval_ms).max(0.0);
        (updates, clamped, discarded)
    }
}

/// A scripted run: frames through the loop into an overlay showing the tall chart.
struct Scene {
    overlay: Overlay,
    lp: Loop,
    ticks: u64,
    size: (u32, u32),
    /// Milliseconds per update and for the render, as if measured.
    costs: (f64, f64),
}

impl Scene {
    fn new(title: &str, width: u32, height: u32, target_fps: f64) -> Scene {
        let settings = Settings::default()
            .title(title)
            .display(width, height)
            .target_fps(target_fps)
            .overlay_visible(true);
        let mut overlay = Overlay::new(&settings);
        overlay.set_chart_mode(ChartMode::Tall);
        Scene {
            overlay,
            lp: Loop::new(target_fps),
            ticks: 0,
            size: (width, height),
            costs: (0.4, 2.5),
        }
    }

    fn tag(&mut self, label: &str) -> &mut Scene {
        self.overlay.add_tag(Tag {
            tick: self.ticks,
            label: label.to_string(),
        });
        self
    }

    fn costs(&mut self, per_update_ms: f64, render_ms: f64) -> &mut Scene {
        self.costs = (per_update_ms, render_ms);
        self
    }

    /// Runs `deltas` `times` over.
    fn frames(&mut self, deltas: &[f64], times: usize) -> &mut Scene {
        for _ in 0..times {
            for &delta_ms in deltas {
                let (updates, clamped, discarded_ms) = self.lp.frame(delta_ms);
                self.ticks += u64::from(updates);
                let update_ms = self.costs.0 * f64::from(updates);
                let render_ms = self.costs.1;
                self.overlay.record(&FrameStats {
                    updates,
                    clamped,
                    discarded_ms,
                    delta_ms,
                    update_ms,
                    render_ms,
                    frame_ms: update_ms + render_ms + 0.2,
                    ticks: self.ticks,
                    draw_counts: bt::DrawCounts {
                        shapes: 4,
                        sprites: 6,
                        maps: 1,
                        text: 1,
                    },
                });
            }
        }
        self
    }

    fn picture(&mut self) -> Framebuffer {
        let mut fb = Framebuffer::new(self.size.0, self.size.1);
        self.overlay.draw(&mut fb);
        fb
    }
}

fn rgba(fb: &Framebuffer, scale: u32) -> image::RgbaImage {
    let mut base = vec![0u8; fb.pixels().len() * 4];
    Palette::pico8().write_rgba(fb.pixels(), &mut base);
    let (w, h) = (fb.width(), fb.height());
    image::RgbaImage::from_fn(w * scale, h * scale, |x, y| {
        let i = ((y / scale * w + x / scale) * 4) as usize;
        image::Rgba([base[i], base[i + 1], base[i + 2], base[i + 3]])
    })
}

fn view_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("overlay-golden");
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name).with_extension("x3.png")
}

/// Compares `fb` with `tests/golden/NAME` under the golden rule every BT test follows; when
/// it is written or differs, a copy three times larger is saved to look at.
#[track_caller]
fn check_golden(fb: &Framebuffer, name: &str) {
    let reference = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let got = rgba(fb, 1);
    let picture = golden::Rgba {
        width: got.width(),
        height: got.height(),
        pixels: got.as_raw(),
    };
    let outcome = golden::check(&reference, picture);
    if !matches!(outcome, Ok(golden::Outcome::Matched)) {
        let view = view_path(name);
        let _ = rgba(fb, 3).save(&view);
        eprintln!("three times larger: {}", view.display());
    }
    if let Err(mismatch) = outcome {
        panic!("{mismatch}");
    }
}

/// The stutter users reported, `16.7, 16.7, 50, 8.3, 400` ms over and over, after steady 60 Hz:
/// every fifth frame a 400 ms stall that the update cap clamps, losing 267 ms.
#[test]
fn tall_chart_of_a_stutter() {
    let mut s = Scene::new("Stutter", 320, 240, 60.0);
    s.frames(&[16.7], 150)
        .tag("stutter")
        .frames(&[16.7, 16.7, 50.0, 8.3, 400.0], 28);
    check_golden(&s.picture(), "tall-stutter.png");
}

/// A 60 fps cart shown at 30 Hz: paced (33.3 ms, two updates a frame), then the same rate
/// unevenly (16.7 and 50 ms alternating: one update, then three), while paused.
#[test]
fn tall_chart_of_thirty_on_sixty_paced_then_uneven() {
    let mut s = Scene::new("Pacing", 320, 240, 60.0);
    s.costs(1.1, 3.2)
        .frames(&[100.0 / 3.0], 8)
        .tag("paced")
        .frames(&[100.0 / 3.0], 140)
        .tag("uneven")
        .frames(&[50.0, 50.0 / 3.0], 70);
    s.overlay.set_paused(Some(s.ticks));
    check_golden(&s.picture(), "tall-paced-30-on-60.png");
}

/// Frames faster than the 60 Hz updates: at 120 Hz every other frame runs none, and with no
/// vsync (2 ms frames) runs of seven or eight frames do; a cart costing microseconds.
#[test]
fn tall_chart_of_zero_update_runs() {
    let mut s = Scene::new("Fast display", 320, 240, 60.0);
    s.costs(0.05, 0.08)
        .frames(&[16.7], 60)
        .tag("120 Hz")
        .frames(&[8.3], 120)
        .tag("no vsync")
        .frames(&[2.0], 110);
    check_golden(&s.picture(), "tall-zero-updates.png");
}

/// At 160 x 120 the legend goes and one lane of labels is left: crowded tags are shortened
/// or left out, never drawn over one another.
#[test]
fn tall_chart_at_160_by_120_with_crowded_tags() {
    let mut s = Scene::new("Small", 160, 120, 60.0);
    s.frames(&[16.7], 20)
        .tag("Boss fight")
        .frames(&[16.7, 25.0], 4)
        .tag("Explosion")
        .frames(&[16.7], 3)
        .tag("Save")
        .frames(&[16.7, 16.7, 50.0, 8.3, 400.0], 8)
        .tag("Wave 2")
        .frames(&[16.7], 30);
    check_golden(&s.picture(), "tall-160x120.png");
}

/// The two optional rows at 320 × 240: the renderer row under the timing row, and the palette
/// grid above the hint bar (the PICO-8 colours and 240 free slots: 32 swatches a row).
#[test]
fn renderer_row_and_palette_grid() {
    let settings = Settings::default()
        .title("Rows")
        .display(320, 240)
        .overlay_visible(true)
        .overlay_diagnostics(true)
        .overlay_palette_grid(true)
        .palette(Palette::pico8().resized(256).unwrap());
    let mut s = Scene::new("Rows", 320, 240, 60.0);
    s.overlay = Overlay::new(&settings);
    s.frames(&[16.7], 30);
    check_golden(&s.picture(), "renderer-row-and-palette-grid.png");
}
