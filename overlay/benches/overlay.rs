//! Cost of the overlay per frame: recording a frame and drawing every row and a full chart.

use std::hint::black_box;

use bt::{Framebuffer, Settings, Tag};
use bt_overlay::{FrameStats, Overlay};
use criterion::{criterion_group, criterion_main, Criterion};

fn full_overlay(c: &mut Criterion) {
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let mut overlay = Overlay::new(&settings);
    let deltas = [16.7, 16.7, 33.3, 8.3, 16.7, 200.0];
    // Fill the chart: one column per display pixel, with a tag now and then.
    for i in 0..320u64 {
        if i % 40 == 0 {
            overlay.add_tag(Tag {
                tick: i,
                label: "Wave".to_string(),
            });
        }
        overlay.record(&FrameStats {
            updates: (i % 3) as u32,
            delta_ms: deltas[i as usize % deltas.len()],
            update_ms: 1.5,
            render_ms: 3.0,
            frame_ms: 5.0,
            ticks: i,
            ..FrameStats::default()
        });
    }
    let mut fb = Framebuffer::new(320, 240);
    let mut i = 0usize;
    c.bench_function("overlay_record_and_draw_320x240_chart", |b| {
        b.iter(|| {
            i += 1;
            overlay.record(&FrameStats {
                updates: 1,
                delta_ms: deltas[i % deltas.len()],
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

criterion_group!(benches, full_overlay);
criterion_main!(benches);
