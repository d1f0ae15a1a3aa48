//! Recording and drawing a frame must not touch the heap once the overlay is warm.
//!
//! The counting allocator (from `bt-test-support`) counts, per thread, every allocation and
//! reallocation, so work on other test threads cannot disturb the count.

use bt::host::Framebuffer;
use bt::{Settings, Tag};
use bt_overlay::{ChartMode, FrameStats, Overlay, Refresh};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn allocations_during(f: impl FnOnce()) -> u64 {
    GLOBAL.allocations_during(f)
}

/// A varied but repeating run of frames: several updates, none, a clamp, a slow one, a drop.
fn frame(i: u64) -> FrameStats {
    FrameStats {
        updates: (i % 4) as u32,
        clamped: i.is_multiple_of(29),
        discarded_ms: if i.is_multiple_of(29) { 66.7 } else { 0.0 },
        delta_ms: if i.is_multiple_of(17) { 50.0 } else { 16.7 },
        update_ms: 0.4 * (i % 5) as f64,
        render_ms: 2.0 + (i % 13) as f64,
        frame_ms: 4.0 + (i % 23) as f64,
        ticks: i,
        draw_counts: bt::DrawCounts {
            shapes: (i % 7) as u32,
            sprites: (i % 300) as u32,
            maps: (i % 2) as u32,
            text: (i % 3) as u32,
        },
    }
}

/// One frame as the engine runs it: cart rows, draw, record.
fn run_frame(o: &mut Overlay, fb: &mut Framebuffer, i: u64) {
    let rows = o.cart_rows_mut();
    rows.push(format_args!("Score {}", 1000 + i % 9000), "lives 3");
    o.draw(fb);
    o.record(&frame(i));
}

fn warm(settings: &Settings) -> (Overlay, Framebuffer, u64) {
    warm_in(settings, None)
}

/// Warms an overlay up, in `mode` when given.
fn warm_in(settings: &Settings, mode: Option<ChartMode>) -> (Overlay, Framebuffer, u64) {
    let mut o = Overlay::new(settings);
    if let Some(mode) = mode {
        o.set_chart_mode(mode);
    }
    let mut fb = Framebuffer::new(settings.width, settings.height);
    // Longer than the chart is wide, so the Start tag has scrolled off and every buffer has
    // reached its working size.
    let frames = u64::from(settings.width) * 2;
    for i in 0..frames {
        run_frame(&mut o, &mut fb, i);
    }
    (o, fb, frames)
}

#[test]
fn steady_frames_with_the_chart_allocate_nothing() {
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let (mut o, mut fb, start) = warm(&settings);
    let n = allocations_during(|| {
        for i in start..start + 1000 {
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn steady_frames_with_the_renderer_row_and_palette_grid_allocate_nothing() {
    let settings = Settings::default()
        .overlay_visible(true)
        .overlay_diagnostics(true)
        .overlay_palette_grid(true)
        .palette(bt::Palette::pico8().resized(256).unwrap());
    let (mut o, mut fb, start) = warm(&settings);
    let n = allocations_during(|| {
        for i in start..start + 1000 {
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn steady_frames_while_hidden_allocate_nothing() {
    let settings = Settings::default().timing_chart(true);
    let (mut o, mut fb, start) = warm(&settings);
    let n = allocations_during(|| {
        for i in start..start + 1000 {
            o.draw(&mut fb);
            o.record(&frame(i));
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn after_tags_scroll_off_frames_allocate_nothing_again() {
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let (mut o, mut fb, start) = warm(&settings);
    // Tagged frames may allocate (the label itself); the tag store does not grow past them.
    for i in start..start + 50 {
        o.add_tag(Tag {
            tick: i,
            label: format!("wave {i}"),
        });
        run_frame(&mut o, &mut fb, i);
    }
    let resume = start + 50 + u64::from(settings.width) * 2;
    for i in start + 50..resume {
        run_frame(&mut o, &mut fb, i);
    }
    assert_eq!(o.tags().count(), 0, "all tags have scrolled off");
    let n = allocations_during(|| {
        for i in resume..resume + 1000 {
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn steady_frames_with_the_tall_chart_allocate_nothing() {
    let settings = Settings::default().overlay_visible(true);
    let (mut o, mut fb, start) = warm_in(&settings, Some(ChartMode::Tall));
    let n = allocations_during(|| {
        for i in start..start + 1000 {
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn the_tall_chart_lays_out_tag_labels_and_lost_time_without_allocating() {
    for (w, h) in [(320, 240), (160, 120)] {
        let settings = Settings::default().display(w, h).overlay_visible(true);
        let (mut o, mut fb, start) = warm_in(&settings, Some(ChartMode::Tall));
        // Tags crowded enough to be stacked, shortened and left out, still on the chart while
        // the frames are counted (placing a tag allocates its label; drawing it must not).
        for i in start..start + 40 {
            if i % 3 == 0 {
                o.add_tag(Tag {
                    tick: i,
                    label: format!("wave {i}"),
                });
            }
            run_frame(&mut o, &mut fb, i);
        }
        let resume = start + 40;
        let n = allocations_during(|| {
            for i in resume..resume + 60 {
                run_frame(&mut o, &mut fb, i);
            }
        });
        assert!(o.tags().count() > 5, "{w}x{h}: the tags are still there");
        assert_eq!(n, 0, "{w}x{h}");
    }
}

#[test]
fn bars_past_the_scale_and_missed_refreshes_are_drawn_without_allocating() {
    for refresh in [Refresh::Rolling, Refresh::Given(144.0), Refresh::Tearing] {
        let settings = Settings::default().overlay_visible(true);
        let mut o = Overlay::new(&settings);
        o.set_chart_mode(ChartMode::Tall);
        o.set_refresh(refresh);
        o.set_chart_caption("frames 0-1999 x7");
        let mut fb = Framebuffer::new(settings.width, settings.height);
        // Stalls far past the scale every 23 frames, each wanting its value written.
        let stall = |i: u64| FrameStats {
            delta_ms: if i.is_multiple_of(23) {
                200.0 + i as f64 % 300.0
            } else {
                16.7
            },
            ..frame(i)
        };
        for i in 0..1000 {
            o.draw(&mut fb);
            o.record(&stall(i));
        }
        let n = allocations_during(|| {
            for i in 1000..2000 {
                o.draw(&mut fb);
                o.record(&stall(i));
            }
        });
        assert_eq!(n, 0, "{refresh:?}");
    }
}

#[test]
fn rollback_frames_are_charted_without_allocating() {
    for mode in [ChartMode::Compact, ChartMode::Tall] {
        let settings = Settings::default().overlay_visible(true);
        let (mut o, mut fb, start) = warm_in(&settings, Some(mode));
        let mut rollback_frame = |o: &mut Overlay, i: u64| {
            o.mark_rollback((i % 9) as u32);
            run_frame(o, &mut fb, i);
        };
        // The first rollback frame makes the tall chart's strip; then none allocates.
        for i in start..start + 10 {
            rollback_frame(&mut o, i);
        }
        let resume = start + 10;
        let n = allocations_during(|| {
            for i in resume..resume + 600 {
                rollback_frame(&mut o, i);
            }
        });
        assert_eq!(n, 0, "{mode:?}");
    }
}

#[test]
fn cycling_the_view_and_pausing_allocate_nothing() {
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let (mut o, mut fb, start) = warm(&settings);
    let n = allocations_during(|| {
        for i in start..start + 200 {
            if i % 10 == 0 {
                o.cycle_view();
            }
            o.set_paused((i % 20 < 10).then_some(i));
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations_during(|| {
        let v: Vec<u8> = Vec::with_capacity(16);
        std::hint::black_box(v);
    });
    assert_eq!(n, 1);
}

#[test]
fn steady_frames_with_the_sound_row_allocate_nothing() {
    use bt::sound::SoundMeter;
    use bt_overlay::SoundDevice;
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let (mut o, mut fb, start) = warm(&settings);
    let sound = |o: &mut Overlay, i: u64| {
        o.set_sound_meter(SoundMeter {
            peaks: [(i * 97 % 32_768) as u16, 0, 12_000, (i % 3) as u16 * 16_000],
            buses: [255, (i % 256) as u8, 0],
            voices: (i % 5) as u8,
            stolen: (i / 50) as u32,
            refused: 0,
            clipped: i / 40,
            in_use: true,
        });
        o.set_sound_device(Some(SoundDevice {
            underruns: (i / 300) as u32,
            skipped_ticks: i / 200,
            latency_ms: 20.0 + (i % 30) as f64,
        }));
    };
    for i in start..start + 100 {
        sound(&mut o, i);
        run_frame(&mut o, &mut fb, i);
    }
    let n = allocations_during(|| {
        for i in start + 100..start + 1100 {
            sound(&mut o, i);
            run_frame(&mut o, &mut fb, i);
        }
    });
    assert_eq!(n, 0);
}
