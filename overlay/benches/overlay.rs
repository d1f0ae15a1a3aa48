//! Cost of the overlay per frame: recording a frame and drawing every row and a full chart,
//! compact or tall.

use std::hint::black_box;

use bt::host::Framebuffer;
use bt::{Settings, Tag};
use bt_overlay::{ChartMode, FrameStats, Overlay};
use criterion::{criterion_group, criterion_main, Criterion};

const DELTAS: [f64; 6] = [16.7, 16.7, 33.3, 8.3, 16.7, 200.0];

/// An overlay with a full chart: one column per display pixel, with a tag now and then.
fn filled(mode: ChartMode) -> Overlay {
    let settings = Settings::default().overlay_visible(true);
    let mut overlay = Overlay::new(&settings);
    overlay.set_chart_mode(mode);
    for i in 0..320u64 {
        if i % 40 == 0 {
            overlay.add_tag(Tag {
                tick: i,
                label: "Wave".to_string(),
            });
        }
        overlay.record(&FrameStats {
            updates: (i % 3) as u32,
            delta_ms: DELTAS[i as usize % DELTAS.len()],
            update_ms: 1.5,
            render_ms: 3.0,
            frame_ms: 5.0,
            ticks: i,
            ..FrameStats::default()
        });
    }
    overlay
}

fn full_overlay(c: &mut Criterion) {
    let mut overlay = filled(ChartMode::Compact);
    let mut fb = Framebuffer::new(320, 240);
    let mut i = 0usize;
    c.bench_function("overlay_record_and_draw_320x240_chart", |b| {
        b.iter(|| {
            i += 1;
            overlay.record(&FrameStats {
                updates: 1,
                delta_ms: DELTAS[i % DELTAS.len()],
                update_ms: 1.5,
                render_ms: 3.0,
                frame_ms: 5.0,
                ticks: i as u64,
                ..FrameStats::default()
            });
            overlay.draw(black_box(&mut fb));
        })
    });
}

/// The tall chart under load: every sixth frame clamped (a run of lost time to label), a tag
/// every 40 frames (about eight labels to lay out), varied update counts and costs.
fn tall_chart(c: &mut Criterion) {
    let mut overlay = filled(ChartMode::Tall);
    let mut fb = Framebuffer::new(320, 240);
    let mut i = 0usize;
    c.bench_function("overlay_record_and_draw_320x240_tall_chart", |b| {
        b.iter(|| {
            i += 1;
            if i.is_multiple_of(40) {
                overlay.add_tag(Tag {
                    tick: i as u64,
                    label: "Wave".to_string(),
                });
            }
            let clamped = i % 6 == 5;
            overlay.record(&FrameStats {
                updates: if clamped { 8 } else { (i % 4) as u32 },
                clamped,
                discarded_ms: if clamped { 66.7 } else { 0.0 },
                delta_ms: DELTAS[i % DELTAS.len()],
                update_ms: 0.4 * (i % 4) as f64,
                render_ms: 3.0,
                frame_ms: 5.0,
                ticks: i as u64,
                ..FrameStats::default()
            });
            overlay.draw(black_box(&mut fb));
        })
    });
}

criterion_group!(benches, full_overlay, tall_chart);
criterion_main!(benches);
