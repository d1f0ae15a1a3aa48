//! Behaviour of the whole overlay, checked on the pixels it draws.

use super::*;

const W: i32 = 320;
const H: i32 = 240;
/// With the chart on: band rows 14..=35, baseline 35.
const TOP: i32 = 14;
const BASELINE: i32 = 35;

fn visible(chart: bool) -> Overlay {
    Overlay::new(
        &Settings::default()
            .overlay_visible(true)
            .timing_chart(chart),
    )
}

/// An ordinary 60 Hz frame: one update of 1 ms (dot on the baseline), an 8 ms render (dot
/// on row 25) and a 10 ms frame.
fn steady() -> FrameStats {
    FrameStats {
        updates: 1,
        delta_ms: 16.0,
        update_ms: 1.0,
        render_ms: 8.0,
        frame_ms: 10.0,
        ..FrameStats::default()
    }
}

fn drawn(o: &mut Overlay) -> Framebuffer {
    let mut fb = Framebuffer::new(W as u32, H as u32);
    o.draw(&mut fb);
    fb
}

/// The colours of column `x` from the band's top to its baseline.
fn column(fb: &Framebuffer, x: i32) -> Vec<u8> {
    (TOP..=BASELINE)
        .map(|y| fb.get(x, y).unwrap_or(0))
        .collect()
}

#[test]
fn smoothing_takes_first_sample_then_moves_twelve_percent() {
    let mut s = Smoothed::default();
    s.add(10.0);
    assert_eq!(s.get(), 10.0);
    s.add(20.0);
    assert!((s.get() - 11.2).abs() < 1e-12);
}

#[test]
fn toggle_corner_is_17_by_13_at_the_bottom_left() {
    assert!(Overlay::hits_toggle(16, 238, 240));
    assert!(Overlay::hits_toggle(0, 227, 240));
    assert!(!Overlay::hits_toggle(17, 238, 240));
    assert!(!Overlay::hits_toggle(16, 226, 240));
    assert!(!Overlay::hits_toggle(16, 240, 240));
}

#[test]
fn layout_moves_the_metrics_rows_below_the_chart() {
    assert_eq!(
        Layout::new(ChartMode::Off, 240),
        Layout {
            chart: None,
            metrics_y: 14,
            timing_y: 28
        }
    );
    assert_eq!(
        Layout::new(ChartMode::Compact, 240),
        Layout {
            chart: Some((14, 22)),
            metrics_y: 37,
            timing_y: 51
        }
    );
    // The tall chart takes half the screen under the title; the metrics rows follow it.
    assert_eq!(
        Layout::new(ChartMode::Tall, 240),
        Layout {
            chart: Some((14, 120)),
            metrics_y: 135,
            timing_y: 149
        }
    );
    assert_eq!(Layout::new(ChartMode::Tall, 120).chart, Some((14, 60)));
}

#[test]
fn the_view_key_cycles_hidden_metrics_compact_tall_and_back_to_hidden() {
    let mut o = Overlay::new(&Settings::default());
    assert!(!o.is_visible());
    let mut seen = Vec::new();
    for _ in 0..8 {
        o.cycle_view();
        seen.push((o.is_visible(), o.chart_mode(), o.timing_chart()));
    }
    use ChartMode::*;
    assert_eq!(
        seen,
        [
            (true, Off, false),
            (true, Compact, true),
            (true, Tall, true),
            (false, Tall, true),
            (true, Off, false),
            (true, Compact, true),
            (true, Tall, true),
            (false, Tall, true),
        ]
    );
}

#[test]
fn the_timing_chart_switch_means_compact_or_off() {
    assert_eq!(visible(true).chart_mode(), ChartMode::Compact);
    assert_eq!(visible(false).chart_mode(), ChartMode::Off);
    let mut o = visible(false);
    o.set_chart_mode(ChartMode::Tall);
    assert!(o.timing_chart());
    o.set_timing_chart(true);
    assert_eq!(o.chart_mode(), ChartMode::Compact);
    o.set_timing_chart(false);
    assert_eq!(o.chart_mode(), ChartMode::Off);
    assert!(!o.timing_chart());
    assert_eq!(ChartMode::default(), ChartMode::Off);
}

#[test]
fn samples_are_collected_whatever_the_mode_and_the_tall_chart_shows_them() {
    let mut o = visible(false);
    for _ in 0..30 {
        o.record(&steady());
    }
    o.set_chart_mode(ChartMode::Tall);
    let fb = drawn(&mut o);
    // Frame 29's update count (one: green) in its column of the tall chart's count strip.
    let count_row = 14 + 24 + 51 + 1;
    assert_eq!(
        fb.get(TALL_GUTTER + 29, count_row),
        Some(o.colors().update_dot)
    );
    assert_eq!(fb.get(TALL_GUTTER + 30, count_row), Some(o.colors().bar));
}

#[test]
fn present_fps_counts_frames_over_the_time_they_took() {
    let mut o = visible(false);
    assert_eq!(o.present_fps(), 60.0, "the target before any frame");
    for _ in 0..6 {
        for delta_ms in [16.7, 16.7, 50.0, 8.3, 400.0] {
            o.record(&FrameStats {
                delta_ms,
                ..steady()
            });
        }
    }
    // Ten frames in the newest 983.4 ms: 10.17, where the average of 1000 / delta said 58.
    assert!((o.present_fps() - 10.0 / 0.9834).abs() < 1e-9);
    let mut row = String::new();
    text::metrics_row(&mut row, o.present_fps(), 60.0, 0, false);
    assert!(row.starts_with("Present  10 FPS|"), "{row}");
}

#[test]
fn the_timing_row_reads_microseconds_below_a_millisecond() {
    let mut o = visible(false);
    o.record(&FrameStats {
        updates: 2,
        update_ms: 0.08,
        render_ms: 0.85,
        frame_ms: 0.99,
        ..steady()
    });
    drawn(&mut o);
    assert_eq!(o.line, "Frame  990us|update()   80usx2|render()  850us");
}

#[test]
fn paused_the_title_row_says_so_in_the_warning_colour() {
    let settings = Settings::default().overlay_visible(true).title("Arena");
    let mut o = Overlay::new(&settings);
    let title = |fb: &Framebuffer| title_span(fb, 0, 120);
    let plain = title(&drawn(&mut o));
    o.set_paused(Some(1234));
    assert_eq!(o.paused(), Some(1234));
    let paused = title(&drawn(&mut o));
    let c = *o.colors();
    let mut expected = Framebuffer::new(W as u32, H as u32);
    expected.draw_rect_fill(Rect::new(0, 0, W, BAR_HEIGHT), c.bar);
    expected.print(EDGE_MARGIN, 0, "PAUSED tick 1234", c.warning);
    assert_eq!(paused, title(&expected));
    o.set_paused(None);
    assert_eq!(title(&drawn(&mut o)), plain);
}

#[test]
fn without_the_chart_three_bars_fill_the_top_cluster() {
    let mut o = visible(false);
    o.record(&steady());
    let fb = drawn(&mut o);
    let c = OverlayColors::default();
    for y in [0, 14, 28] {
        assert_eq!(fb.get(W - 1, y), Some(c.bar), "bar at {y}");
    }
    for y in [13, 27, 41] {
        assert_eq!(fb.get(W - 1, y), Some(c.gap), "gap at {y}");
    }
    assert_eq!(fb.get(W - 1, 42), Some(0), "nothing below the top cluster");
}

#[test]
fn with_the_chart_the_band_sits_under_the_title_and_the_bars_move_down() {
    let mut o = visible(true);
    o.record(&steady());
    let fb = drawn(&mut o);
    let c = OverlayColors::default();
    // The rightmost column has no sample yet: band background, grid rows at 23 and 30.
    for y in TOP..=BASELINE {
        let want = if y == 23 || y == 30 { c.grid } else { c.bar };
        assert_eq!(fb.get(W - 1, y), Some(want), "band row {y}");
    }
    assert_eq!(fb.get(W - 1, 13), Some(c.gap));
    assert_eq!(fb.get(W - 1, 36), Some(c.gap));
    for y in [37, 51] {
        assert_eq!(fb.get(W - 1, y), Some(c.bar), "bar at {y}");
    }
    for y in [50, 64] {
        assert_eq!(fb.get(W - 1, y), Some(c.gap), "gap at {y}");
    }
    assert_eq!(fb.get(W - 1, 65), Some(0), "nothing below the top cluster");
}

#[test]
fn the_timing_row_shows_one_decimal_and_the_step_count() {
    let mut o = visible(false);
    o.record(&FrameStats {
        updates: 3,
        update_ms: 1.5,
        render_ms: 3.75,
        frame_ms: 8.25,
        delta_ms: 50.0,
        ..FrameStats::default()
    });
    drawn(&mut o);
    assert_eq!(o.line, "Frame  8.3ms|update()  1.5msx3|render()  3.8ms");
    o.record(&FrameStats {
        updates: 1,
        ..o.last
    });
    drawn(&mut o);
    assert!(o.line.contains("|update()  1.5ms  |"), "{}", o.line);
}

#[test]
fn hidden_overlay_draws_only_the_hint_in_the_corner() {
    let mut o = Overlay::new(&Settings::default().timing_chart(true));
    for i in 0..400 {
        if i % 50 == 0 {
            o.add_tag(Tag {
                tick: i,
                label: "hidden".to_string(),
            });
        }
        o.record(&FrameStats {
            clamped: i % 7 == 0,
            updates: (i % 3) as u32,
            ..steady()
        });
    }
    let fb = drawn(&mut o);
    for y in 0..H {
        for x in 0..W {
            if fb.get(x, y) != Some(0) {
                assert!(Overlay::hits_toggle(x, y, H), "ink at {x},{y}");
            }
        }
    }
    assert!(fb.pixels().iter().any(|&p| p != 0), "the hint shows");
    // Samples and tags were collected all the same.
    assert_eq!(o.samples_recorded(), 400);
    assert!(o.tags().any(|t| t.label == "hidden"));
}

#[test]
fn drawing_restores_the_carts_clip() {
    let mut o = visible(true);
    o.record(&steady());
    let mut fb = Framebuffer::new(W as u32, H as u32);
    let clip = Rect::new(10, 100, 50, 20);
    fb.set_clip(clip);
    o.draw(&mut fb);
    assert_eq!(fb.clip(), clip);
    assert_eq!(
        fb.get(W - 1, 0),
        Some(o.colors().bar),
        "drew outside the cart's clip"
    );
}

#[test]
fn dots_are_plotted_per_frame_from_left_to_right() {
    let mut o = visible(true);
    for _ in 0..60 {
        o.record(&steady());
    }
    let fb = drawn(&mut o);
    let c = OverlayColors::default();
    for x in [45, 59] {
        let col = column(&fb, x);
        assert_eq!(
            col[(25 - TOP) as usize],
            c.render_dot,
            "render dot at x {x}"
        );
        assert_eq!(
            col[(BASELINE - TOP) as usize],
            c.update_dot,
            "update dot at x {x}"
        );
        assert_eq!(col[(23 - TOP) as usize], c.grid);
    }
    assert_eq!(fb.get(60, 25), Some(c.bar), "no sample there yet");
}

#[test]
fn the_newest_frame_is_on_the_right_once_the_band_is_full() {
    let mut o = visible(true);
    for _ in 0..W + 5 {
        o.record(&steady());
    }
    o.record(&FrameStats {
        render_ms: 12.0,
        ..steady()
    });
    let fb = drawn(&mut o);
    // 12 ms: offset floor(16.5) = 16, row 20.
    assert_eq!(fb.get(W - 1, 20), Some(o.colors().render_dot));
    assert_eq!(fb.get(W - 2, 20), Some(o.colors().bar));
}

#[test]
fn long_frames_tint_both_dots() {
    let mut o = visible(true);
    for _ in 0..40 {
        o.record(&steady());
    }
    let budget = 1000.0 / 60.0;
    // Steady frames arrive every 16 ms; measured CPU time plays no part in the grade.
    let frames = [
        (budget * 1.2, Severity::Warning), // x 40: on screen 1.2 x budget, no drop (20 < 24)
        (budget * 1.6, Severity::Error),   // x 41: 1.6 x budget
        (16.0, Severity::Normal),          // x 42
    ];
    for (delta_ms, severity) in frames {
        o.record(&FrameStats {
            frame_ms: 99.0,
            delta_ms,
            ..steady()
        });
        assert_eq!(o.last_severity(), severity, "delta {delta_ms}");
    }
    // On a 144 Hz display a frame that missed refreshes is still within a 60 fps budget: the
    // grade is the budget's alone, the missed refreshes are counted apart.
    let mut fast = visible(true);
    for _ in 0..40 {
        fast.record(&FrameStats {
            delta_ms: 6.9,
            ..steady()
        });
    }
    let fast_frames = [
        (13.8, Severity::Normal, 1),
        (16.7, Severity::Normal, 1),
        (20.7, Severity::Warning, 2),
    ];
    for (delta_ms, severity, missed) in fast_frames {
        fast.record(&FrameStats {
            delta_ms,
            ..steady()
        });
        assert_eq!(fast.last_severity(), severity, "delta {delta_ms}");
        assert_eq!(
            fast.last_missed_refreshes(),
            Some(missed),
            "delta {delta_ms}"
        );
    }
    let fb = drawn(&mut o);
    let c = *o.colors();
    for (x, ink) in [(40, c.warning), (41, c.error)] {
        assert_eq!(fb.get(x, 25), Some(ink), "render dot at x {x}");
        assert_eq!(fb.get(x, BASELINE), Some(ink), "update dot at x {x}");
    }
    assert_eq!(fb.get(42, 25), Some(c.render_dot));
    assert_eq!(fb.get(42, BASELINE), Some(c.update_dot));
}

#[test]
fn missed_refreshes_are_counted_against_the_estimated_refresh() {
    let mut o = visible(false);
    for _ in 0..REFRESH_WARMUP {
        o.record(&steady());
        assert_eq!(o.last_missed_refreshes(), Some(0));
    }
    o.record(&FrameStats {
        delta_ms: 48.0,
        ..steady()
    });
    assert_eq!(o.last_missed_refreshes(), Some(2));
    assert_eq!(o.last_severity(), Severity::Error);
    o.record(&FrameStats {
        delta_ms: 1500.0,
        ..steady()
    });
    assert_eq!(
        o.last_missed_refreshes(),
        Some(0),
        "a background pause misses nothing"
    );
    assert_eq!(
        o.last_severity(),
        Severity::Error,
        "but it was on screen far past the budget"
    );
    o.set_refresh(Refresh::Tearing);
    o.record(&steady());
    assert_eq!(o.last_missed_refreshes(), None, "n/a with tearing");
    assert_eq!(o.refresh(), (Refresh::Tearing, None));
}

#[test]
fn a_clamped_frame_gets_a_notch_at_the_top_of_its_column() {
    let mut o = visible(true);
    for _ in 0..50 {
        o.record(&steady());
    }
    o.record(&FrameStats {
        updates: 8,
        clamped: true,
        discarded_ms: 100.0,
        update_ms: 12.0,
        ..steady()
    });
    let fb = drawn(&mut o);
    let c = *o.colors();
    let col = column(&fb, 50);
    assert_eq!(&col[..3], &[c.clamp, c.clamp, c.bar]);
    // 12 ms of updates: offset 16, row 20.
    assert_eq!(fb.get(50, 20), Some(c.update_dot));
    assert_eq!(
        &column(&fb, 49)[..2],
        &[c.bar, c.bar],
        "no notch on a normal frame"
    );
}

#[test]
fn a_frame_without_updates_is_marked_on_the_baseline_instead_of_an_update_dot() {
    let mut o = visible(true);
    for _ in 0..50 {
        o.record(&steady());
    }
    o.record(&FrameStats {
        updates: 0,
        update_ms: 3.0,
        ..steady()
    });
    let fb = drawn(&mut o);
    let c = *o.colors();
    assert_eq!(fb.get(50, BASELINE), Some(c.zero_update));
    // 3 ms would have put an update dot on row 32; a frame with no update has none.
    assert_eq!(fb.get(50, 32), Some(c.bar));
    assert_eq!(fb.get(50, 25), Some(c.render_dot));
    assert_eq!(fb.get(49, BASELINE), Some(c.update_dot));
}

#[test]
fn a_rollback_frame_gets_a_tag_coloured_cell_per_update_run_again_behind_its_dots() {
    let mut o = visible(true);
    for _ in 0..50 {
        o.record(&steady());
    }
    // Three updates run again after a rollback, and the frame's own new one.
    o.mark_rollback(3);
    o.record(&FrameStats {
        updates: 4,
        ..steady()
    });
    assert_eq!(o.last_rerun(), 3);
    o.record(&steady());
    assert_eq!(o.last_rerun(), 0, "the mark is the one frame's");
    let fb = drawn(&mut o);
    let c = *o.colors();
    let col = column(&fb, 50);
    let n = col.len();
    // Rows 33 and 34 are cells; the third, on the baseline, is under the update dot.
    assert_eq!(
        &col[n - 4..],
        &[c.bar, c.tag, c.tag, c.update_dot],
        "{col:?}"
    );
    assert_eq!(fb.get(50, 25), Some(c.render_dot));
    for x in [49, 51] {
        assert_eq!(
            fb.get(x, BASELINE - 1),
            Some(c.bar),
            "no cell in column {x}"
        );
    }
}

/// Pixels of the metrics bar from `x` to its end.
fn title_span(fb: &Framebuffer, x0: i32, x1: i32) -> Vec<u8> {
    (0..BAR_HEIGHT)
        .flat_map(|y| (x0..x1).map(move |x| fb.get(x, y).unwrap_or(0)))
        .collect()
}

#[test]
fn lost_time_shows_on_the_title_row_while_its_frame_is_on_the_chart() {
    let settings = Settings::default().overlay_visible(true).timing_chart(true);
    let mut o = Overlay::new(&settings);
    o.record(&FrameStats {
        updates: 8,
        clamped: true,
        discarded_ms: 200.0 / 3.0,
        ..steady()
    });
    let fb = drawn(&mut o);
    // "lost 66.7ms|cpu|320x240": 21 glyphs and two dividers, 154 px, right-aligned at
    // 320 - 154 - 7 + 1 = 160; its first divider sits at 160 + 66 - 1 + 7 = 232.
    let c = *o.colors();
    for y in 0..BAR_HEIGHT {
        assert_eq!(fb.get(232, y), Some(c.gap), "divider at row {y}");
    }
    let mut expected = Framebuffer::new(W as u32, H as u32);
    expected.draw_rect_fill(Rect::new(0, 0, W, BAR_HEIGHT), c.bar);
    expected.print(160, 0, "lost 66.7ms", c.text);
    assert_eq!(title_span(&fb, 160, 226), title_span(&expected, 160, 226));

    // Once the frame has scrolled off, the segment goes.
    for _ in 0..W {
        o.record(&steady());
    }
    let fb = drawn(&mut o);
    assert!(title_span(&fb, 150, 240).iter().all(|&p| p == c.bar));
}

#[test]
fn a_long_title_is_cut_short_before_the_right_hand_label() {
    let settings = Settings::default()
        .overlay_visible(true)
        .title("An extremely long cart title that runs on and on");
    let mut o = Overlay::new(&settings);
    let fb = drawn(&mut o);
    // The presenter makes way first: "320x240" (42 px) starts at 320 - 42 - 7 + 1 = 272, and
    // the title keeps the whole words that leave room for an ellipsis before the 7 px gap.
    let c = *o.colors();
    let mut expected = Framebuffer::new(W as u32, H as u32);
    expected.draw_rect_fill(Rect::new(0, 0, W, BAR_HEIGHT), c.bar);
    let kept = "An extremely long cart title that runs on";
    expected.print(EDGE_MARGIN, 0, kept, c.text);
    text::ellipsis(
        &mut expected,
        EDGE_MARGIN + text::plain_width(kept),
        0,
        c.text,
    );
    expected.print(272, 0, "320x240", c.text);
    assert_eq!(title_span(&fb, 0, W), title_span(&expected, 0, W));
}

/// How many hint bars the overlay draws for a cart without sound or rows of its own.
fn hint_bars(mode: ChartMode, w: i32, h: i32) -> usize {
    let layout = Layout::new(mode, h);
    let free = h - (layout.timing_y + BAR_HEIGHT + ROW_GAP);
    fit::Hint::new(HIDE_HINT, w, free / (BAR_HEIGHT + ROW_GAP)).bars() as usize
}

/// The rows of every bar the overlay draws text on: the title, metrics and timing rows and the
/// hint bars at the bottom.
fn text_bars(mode: ChartMode, w: i32, h: i32) -> Vec<i32> {
    let layout = Layout::new(mode, h);
    let hint_bars = hint_bars(mode, w, h) as i32;
    let mut rows = Vec::new();
    for top in [0, layout.metrics_y, layout.timing_y] {
        rows.extend(top..top + BAR_HEIGHT);
    }
    rows.extend(h - hint_bars * (BAR_HEIGHT + ROW_GAP) + ROW_GAP..h);
    rows
}

#[test]
fn on_narrow_displays_no_text_runs_past_the_right_margin() {
    for (w, h) in [
        (128, 128),
        (160, 120),
        (200, 150),
        (240, 160),
        (256, 144),
        (320, 240),
    ] {
        for mode in [ChartMode::Off, ChartMode::Compact, ChartMode::Tall] {
            let settings = Settings::default()
                .display(w as u32, h as u32)
                .overlay_visible(true)
                .title("Comet Cat");
            let mut o = Overlay::new(&settings);
            o.set_chart_mode(mode);
            o.set_backend("vulkan");
            o.record(&FrameStats {
                updates: 8,
                clamped: true,
                discarded_ms: 200.0 / 3.0,
                draw_counts: bt::DrawCounts {
                    sprites: 1234,
                    ..bt::DrawCounts::default()
                },
                update_ms: 12.5,
                render_ms: 0.85,
                frame_ms: 14.0,
                ..steady()
            });
            let mut fb = Framebuffer::new(w as u32, h as u32);
            o.draw(&mut fb);
            let c = *o.colors();
            // Text ends at least a margin's width (less the glyphs' blank column) from the
            // right edge: nothing is cut off there.
            for y in text_bars(mode, w, h) {
                for x in w - EDGE_MARGIN + 1..w {
                    let p = fb.get(x, y);
                    assert!(
                        p == Some(c.bar) || p == Some(c.gap),
                        "{w}x{h} {mode:?}: ink {p:?} at ({x}, {y})"
                    );
                }
            }
        }
    }
}

/// A visible overlay in chart `mode` on a `w` x `h` display after steady frames, and the frame
/// it drew on its own.
fn drawn_visible(w: i32, h: i32, mode: ChartMode) -> (Overlay, Framebuffer) {
    let settings = Settings::default()
        .display(w as u32, h as u32)
        .overlay_visible(true);
    let mut o = Overlay::new(&settings);
    o.set_chart_mode(mode);
    o.record(&steady());
    let mut fb = Framebuffer::new(w as u32, h as u32);
    o.draw(&mut fb);
    (o, fb)
}

#[test]
fn the_top_hint_bar_starts_with_the_pause_menu_and_quit_keys_on_narrow_displays() {
    for (w, h) in [(128, 128), (240, 160), (320, 240)] {
        for mode in [ChartMode::Off, ChartMode::Compact, ChartMode::Tall] {
            let (o, fb) = drawn_visible(w, h, mode);
            // The top hint bar, as if it held only the two keys: "P menu" (36 px), the
            // two-space gap, then "Ctrl+Q quit".
            let top = h - hint_bars(mode, w, h) as i32 * (BAR_HEIGHT + ROW_GAP) + ROW_GAP;
            let c = *o.colors();
            let mut keys = Framebuffer::new(w as u32, h as u32);
            keys.print(EDGE_MARGIN, top, "P menu", c.text);
            keys.print(EDGE_MARGIN + 48, top, "Ctrl+Q quit", c.text);
            let span = EDGE_MARGIN + 48 + text::plain_width("Ctrl+Q quit");
            let ink = |fb: &Framebuffer| -> Vec<bool> {
                (top..top + BAR_HEIGHT)
                    .flat_map(|y| (0..span).map(move |x| (x, y)))
                    .map(|(x, y)| fb.get(x, y) == Some(c.text))
                    .collect()
            };
            assert_eq!(ink(&fb), ink(&keys), "{w}x{h} {mode:?}: hint bar at {top}");
        }
    }
}

#[test]
fn the_hint_bars_leave_the_rows_above_them_in_sight() {
    for (w, h) in [(128, 128), (160, 120), (240, 160)] {
        for mode in [ChartMode::Off, ChartMode::Compact, ChartMode::Tall] {
            let (o, fb) = drawn_visible(w, h, mode);
            // The timing row, the last the overlay composed, as it is drawn on its own.
            let c = *o.colors();
            let y = Layout::new(mode, h).timing_y;
            let mut row = Framebuffer::new(w as u32, h as u32);
            bar(&mut row, y, w, &c);
            let shown = fit::whole_segments(&o.line, fit::room(w));
            text::segments(&mut row, EDGE_MARGIN, y, shown, c.text, c.gap);
            let pixels = |fb: &Framebuffer| -> Vec<Option<u8>> {
                (y..y + BAR_HEIGHT + ROW_GAP)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .map(|(x, y)| fb.get(x, y))
                    .collect()
            };
            assert_eq!(pixels(&fb), pixels(&row), "{w}x{h} {mode:?}");
        }
    }
}

#[test]
fn a_short_title_keeps_every_word_on_a_narrow_display() {
    // (display, time lost, the title as shown, whether it ends in an ellipsis)
    let cases = [
        ((240, 160), true, "Comet Cat", false),
        ((128, 128), false, "Comet Cat", false),
        // Beside a warning about lost time there is room for the first word alone.
        ((128, 128), true, "Comet", true),
    ];
    for ((w, h), lost, shown, cut) in cases {
        let settings = Settings::default()
            .display(w as u32, h as u32)
            .overlay_visible(true)
            .title("Comet Cat");
        let mut o = Overlay::new(&settings);
        o.set_backend("vulkan");
        o.record(&FrameStats {
            updates: 8,
            clamped: lost,
            discarded_ms: if lost { 200.0 / 3.0 } else { 0.0 },
            ..steady()
        });
        let mut fb = Framebuffer::new(w as u32, h as u32);
        o.draw(&mut fb);
        let c = *o.colors();
        let mut title = Framebuffer::new(w as u32, h as u32);
        title.draw_rect_fill(Rect::new(0, 0, w, BAR_HEIGHT), c.bar);
        title.print(EDGE_MARGIN, 0, shown, c.text);
        let mut span = EDGE_MARGIN + text::plain_width(shown);
        if cut {
            text::ellipsis(&mut title, span, 0, c.text);
            span += GLYPH_ADVANCE;
        }
        // The title and the gap after it are as if drawn alone.
        let span = span + DIVIDER_GAP;
        let case = format!("{w}x{h}, lost {lost}");
        assert_eq!(
            title_span(&fb, 0, span),
            title_span(&title, 0, span),
            "{case}"
        );
    }
}

#[test]
fn the_bottom_hint_bar_and_cart_rows_follow_the_layout() {
    let mut o = visible(false);
    o.cart_rows_mut().push("Stale", "row");
    // Each frame starts the rows afresh.
    let rows = o.cart_rows_mut();
    rows.push("Score 12", "lives 3");
    rows.push("Wave 2", "");
    let fb = drawn(&mut o);
    let c = *o.colors();
    // Hint bar at 227, rows at 213 and 199, each with a gap row above it: 226, 212, 198.
    for y in [227, 239, 213, 225, 199, 211] {
        assert_eq!(fb.get(W - 1, y), Some(c.bar), "bar at row {y}");
    }
    for y in [226, 212, 198] {
        assert_eq!(fb.get(W - 1, y), Some(c.gap), "gap at row {y}");
    }
    assert_eq!(fb.get(W - 1, 197), Some(0), "nothing above the rows");
    let mut hint = Framebuffer::new(W as u32, H as u32);
    hint.print(EDGE_MARGIN, 227, HIDE_HINT, c.text);
    let text_at = |fb: &Framebuffer, y0: i32| -> Vec<bool> {
        (y0..y0 + BAR_HEIGHT)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .map(|(x, y)| fb.get(x, y) == Some(c.text))
            .collect()
    };
    assert_eq!(text_at(&fb, 227), text_at(&hint, 227));
    // The right text is right-aligned: "lives 3" is 42 px, so it starts at 320 - 42 - 7 + 1.
    let mut right = Framebuffer::new(W as u32, H as u32);
    right.print(EDGE_MARGIN, 213, "Score 12", c.text);
    right.print(272, 213, "lives 3", c.text);
    assert_eq!(text_at(&fb, 213), text_at(&right, 213));
}

#[test]
fn a_tag_lands_on_the_column_of_the_frame_that_placed_it() {
    let mut o = visible(true);
    for _ in 0..40 {
        o.record(&steady());
    }
    // As the engine does: tags right after the frame's updates, then draw, then record.
    o.add_tag(Tag {
        tick: 41,
        label: "AB".to_string(),
    });
    o.record(&steady());
    let tags: Vec<ChartTag<'_>> = o.tags().collect();
    assert_eq!(tags.len(), 2);
    assert_eq!(
        (tags[0].label, tags[0].column, tags[0].tick),
        ("Start", 0, 0)
    );
    assert_eq!(
        (tags[1].label, tags[1].column, tags[1].tick),
        ("AB", 40, 41)
    );

    let fb = drawn(&mut o);
    let c = *o.colors();
    // The marker runs the band's height in the tag colour, under the frame's dots.
    let marker = column(&fb, 40);
    assert_eq!(marker[0], c.tag);
    assert_eq!(marker[(25 - TOP) as usize], c.render_dot);
    // No text beside it: the labels are the tall chart's.
    let ink = (TOP..=BASELINE).any(|y| (41..60).any(|x| fb.get(x, y) == Some(c.tag)));
    assert!(!ink, "no label in the band");
}

#[test]
fn tags_in_the_band_never_cover_a_dot() {
    let frames = |o: &mut Overlay, tagged: bool| {
        for i in 0..W as u64 {
            if tagged && i % 9 == 0 {
                o.add_tag(Tag {
                    tick: i,
                    label: "Wave".to_string(),
                });
            }
            o.record(&FrameStats {
                updates: (i % 4) as u32,
                update_ms: (i % 17) as f64,
                render_ms: (i % 13) as f64 * 1.5,
                clamped: i % 11 == 0,
                ..steady()
            });
        }
    };
    let (mut plain, mut tagged) = (visible(true), visible(true));
    frames(&mut plain, false);
    frames(&mut tagged, true);
    let (without, with) = (drawn(&mut plain), drawn(&mut tagged));
    let c = *plain.colors();
    let marks = [
        c.update_dot,
        c.render_dot,
        c.warning,
        c.error,
        c.zero_update,
        c.clamp,
    ];
    let mut dots = 0;
    for y in TOP..=BASELINE {
        for x in 0..W {
            let want = without.get(x, y);
            if want.is_some_and(|p| marks.contains(&p)) {
                dots += 1;
                assert_eq!(with.get(x, y), want, "the dot at ({x}, {y})");
            }
        }
    }
    assert!(dots > W, "the frames drew dots: {dots}");
    assert!(tagged.tags().count() > 30, "and the band has tags");
}

#[test]
fn tags_of_one_frame_stack_downwards() {
    let mut o = visible(true);
    for _ in 0..40 {
        o.record(&steady());
    }
    for label in ["AB", "CD"] {
        o.add_tag(Tag {
            tick: 41,
            label: label.to_string(),
        });
    }
    o.record(&steady());
    let stacks: Vec<(&str, u32)> = o.tags().map(|t| (t.label, t.stack)).collect();
    assert_eq!(stacks, vec![("Start", 0), ("AB", 0), ("CD", 1)]);
    // One line for the frame, whatever number of tags it has.
    let fb = drawn(&mut o);
    let tag = o.colors().tag;
    let columns: Vec<i32> = (0..W)
        .filter(|&x| (TOP..=BASELINE).any(|y| fb.get(x, y) == Some(tag)))
        .collect();
    assert_eq!(columns, [0, 40]);
}

#[test]
fn a_tag_is_dropped_once_it_has_scrolled_off_the_left_edge() {
    let mut o = Overlay::new(&Settings::default().display(40, 40).timing_chart(true));
    o.add_tag(Tag {
        tick: 0,
        label: "X".to_string(),
    });
    // Their frame is on the band's first column after 40 frames, and off it after 41.
    for _ in 0..40 {
        o.record(&steady());
    }
    let labels: Vec<&str> = o.tags().map(|t| t.label).collect();
    assert_eq!(labels, ["Start", "X"]);
    o.record(&steady());
    assert_eq!(o.tags().count(), 0, "their frame has left the band");
}

#[test]
fn resetting_the_chart_starts_over_with_a_start_tag() {
    let mut o = visible(true);
    for _ in 0..10 {
        o.record(&steady());
    }
    o.reset_chart(500);
    o.add_tag(Tag {
        tick: 512,
        label: "Boss".to_string(),
    });
    o.record(&steady());
    let tags: Vec<(&str, u64, i64)> = o.tags().map(|t| (t.label, t.tick, t.column)).collect();
    assert_eq!(tags, vec![("Start", 0, 0), ("Boss", 12, 0)]);
    assert_eq!(o.samples_recorded(), 1);
}

#[test]
fn fixed_costs_make_the_picture_independent_of_measured_times() {
    let run = |fixed: bool, jitter: f64| {
        let mut o = visible(true);
        o.set_fixed_costs(fixed);
        let mut fb = Framebuffer::new(W as u32, H as u32);
        for i in 0..200u32 {
            let i = f64::from(i);
            o.record(&FrameStats {
                updates: 1 + (i as u32 % 3),
                update_ms: 1.0 + jitter * (i % 5.0),
                render_ms: 3.0 + jitter * (i % 7.0),
                frame_ms: 6.0 + jitter * (i % 11.0),
                delta_ms: if (i as u32).is_multiple_of(37) {
                    50.0
                } else {
                    16.0
                },
                ..FrameStats::default()
            });
            fb.clear(0);
            o.draw(&mut fb);
        }
        fb
    };
    assert_ne!(run(false, 0.5), run(false, 0.9), "measured times do show");
    assert_eq!(run(true, 0.5), run(true, 0.9));
}

#[test]
fn fixed_costs_charge_per_update_and_per_render() {
    let mut o = visible(true);
    o.set_fixed_costs(true);
    assert!(o.fixed_costs());
    o.record(&FrameStats {
        updates: 3,
        update_ms: 99.0,
        render_ms: 99.0,
        frame_ms: 99.0,
        ..steady()
    });
    drawn(&mut o);
    assert_eq!(o.line, "Frame 10.0ms|update()  6.0msx3|render()  4.0ms");
    assert_eq!(
        o.last_severity(),
        Severity::Normal,
        "graded on the fixed frame time"
    );
}

#[test]
fn the_chart_can_be_turned_on_later_and_shows_the_past() {
    let mut o = visible(false);
    assert!(!o.timing_chart());
    for _ in 0..30 {
        o.record(&steady());
    }
    o.set_timing_chart(true);
    let fb = drawn(&mut o);
    assert_eq!(fb.get(29, 25), Some(o.colors().render_dot));
}

#[test]
fn colours_can_be_changed() {
    let mut o = visible(true);
    o.colors_mut().render_dot = 12;
    for _ in 0..50 {
        o.record(&steady());
    }
    let fb = drawn(&mut o);
    assert_eq!(fb.get(45, 25), Some(12));
}

#[test]
fn colours_come_from_the_cart_settings() {
    let mut colors = OverlayColors::default();
    colors.bar = 3;
    let settings = Settings::default()
        .overlay_visible(true)
        .overlay_colors(colors);
    let mut o = Overlay::new(&settings);
    let mut fb = Framebuffer::new(320, 240);
    o.draw(&mut fb);
    assert_eq!(fb.get(319, 0), Some(3));
    assert_eq!(o.colors().bar, 3);
}

#[test]
fn the_title_row_names_the_backend_a_host_sets() {
    let settings = Settings::default().overlay_visible(true);
    let draw = |backend: Option<&str>| {
        let mut o = Overlay::new(&settings);
        if let Some(b) = backend {
            o.set_backend(b);
        }
        let mut fb = Framebuffer::new(320, 240);
        o.draw(&mut fb);
        fb
    };
    assert_eq!(draw(None), draw(Some("cpu")));
    // "vulkan|320x240" is three glyphs wider than "cpu|320x240", so its text starts further left.
    let (cpu, vulkan) = (draw(None), draw(Some("vulkan")));
    let first_ink = |fb: &Framebuffer| {
        (150..320)
            .find(|&x| (0..13).any(|y| fb.get(x, y) == Some(OverlayColors::default().text)))
            .unwrap()
    };
    assert_eq!(first_ink(&cpu) - first_ink(&vulkan), 18);
}

#[test]
fn in_tall_mode_the_title_counts_lost_time_over_the_frames_the_tall_chart_shows() {
    let mut o = visible(true);
    o.record(&FrameStats {
        updates: 8,
        clamped: true,
        discarded_ms: 200.0,
        ..steady()
    });
    // 300 more frames: the compact band (320 columns) still holds the clamped frame, the
    // tall chart (320 - 32 columns) no longer does.
    for _ in 0..300 {
        o.record(&steady());
    }
    let lost_shown = |o: &mut Overlay| {
        let fb = drawn(o);
        !title_span(&fb, 150, 240)
            .iter()
            .all(|&p| p == o.colors().bar)
    };
    assert!(lost_shown(&mut o));
    o.set_chart_mode(ChartMode::Tall);
    assert!(!lost_shown(&mut o));
}

mod sound_row {
    use super::*;
    use crate::{SoundDevice, BAR_HEIGHT, ROW_GAP};
    use bt::sound::SoundMeter;

    /// Where the sound row sits with no chart: under the title, metrics and timing rows.
    const ROW_Y: i32 = 3 * (BAR_HEIGHT + ROW_GAP);
    /// The meter's first bar: after the label `Sound` and a 4-pixel gap.
    const METER_X: i32 = crate::EDGE_MARGIN + 5 * bt::limits::GLYPH_ADVANCE + 4;

    fn drawn(meter: SoundMeter, device: Option<SoundDevice>) -> (Framebuffer, OverlayColors) {
        let settings = Settings::default().overlay_visible(true);
        let mut o = Overlay::new(&settings);
        o.set_sound_meter(meter);
        o.set_sound_device(device);
        let mut fb = Framebuffer::new(settings.width, settings.height);
        fb.clear(200);
        o.draw(&mut fb);
        (fb, *o.colors())
    }

    #[test]
    fn a_cart_without_sound_has_no_sound_row() {
        let (fb, _) = drawn(SoundMeter::default(), None);
        assert_eq!(fb.get(METER_X, ROW_Y + BAR_HEIGHT / 2), Some(200));
    }

    #[test]
    fn each_channel_fills_its_bar_to_its_level() {
        let meter = SoundMeter {
            peaks: [32_767, 0, 16_384, 0],
            voices: 2,
            in_use: true,
            ..SoundMeter::default()
        };
        let (fb, c) = drawn(meter, None);
        let column = |channel: i32| {
            let x = METER_X + channel * 4 + 1;
            (ROW_Y + 1..ROW_Y + BAR_HEIGHT - 1)
                .filter(|&y| fb.get(x, y) != Some(c.gap))
                .count()
        };
        // Full scale fills the whole bar, in the warning tint (loud); silence leaves it empty.
        assert_eq!(column(0), (BAR_HEIGHT - 2) as usize);
        assert_eq!(fb.get(METER_X, ROW_Y + 1), Some(c.warning));
        assert_eq!(column(1), 0);
        // Half scale, 6 dB down, fills seven eighths of the bar on the 48 dB scale.
        let half = column(2) as f64 / f64::from(BAR_HEIGHT - 2);
        assert!((half - 0.875).abs() < 0.1, "{half}");
        assert_eq!(fb.get(METER_X + 8, ROW_Y + BAR_HEIGHT - 2), Some(c.text));
        assert_eq!(column(3), 0);
    }

    #[test]
    fn each_bus_fills_its_bar_in_a_straight_line_after_the_channels() {
        let meter = SoundMeter {
            buses: [255, 0, 128],
            in_use: true,
            ..SoundMeter::default()
        };
        let (fb, c) = drawn(meter, None);
        // After the four channel bars (3 pixels and a gap each) and a 2-pixel gap, a bar 2
        // pixels wide and 1 apart for main, music and sfx.
        let first = METER_X + 4 * 4 + 2;
        assert_eq!(first + 9, METER_X + 16 + crate::sound::BUS_BARS_WIDTH);
        let column = |bus: i32| {
            (ROW_Y + 1..ROW_Y + BAR_HEIGHT - 1)
                .filter(|&y| fb.get(first + bus * 3, y) == Some(c.tag))
                .count() as i32
        };
        let full = BAR_HEIGHT - 2;
        assert_eq!(column(0), full, "main at full");
        assert_eq!(column(1), 0, "music silent");
        assert_eq!(column(2), 128 * full / 255, "sfx half way");
        assert_eq!(
            fb.get(first + 2, ROW_Y + BAR_HEIGHT - 2),
            Some(c.bar),
            "between two bars"
        );
    }

    #[test]
    fn new_device_trouble_tints_the_figures() {
        let meter = SoundMeter {
            in_use: true,
            ..SoundMeter::default()
        };
        let ink_in_row = |fb: &Framebuffer, ink: u8| {
            (METER_X + 20..fb.width() as i32)
                .any(|x| (ROW_Y..ROW_Y + BAR_HEIGHT).any(|y| fb.get(x, y) == Some(ink)))
        };
        let (fb, c) = drawn(meter, Some(SoundDevice::default()));
        assert!(ink_in_row(&fb, c.text) && !ink_in_row(&fb, c.warning));
        let trouble = SoundDevice {
            underruns: 1,
            ..SoundDevice::default()
        };
        let (fb, c) = drawn(meter, Some(trouble));
        assert!(ink_in_row(&fb, c.warning) && !ink_in_row(&fb, c.text));
    }
}

#[test]
fn a_replay_shows_its_progress_on_the_title_row() {
    let settings = Settings::default().overlay_visible(true).title("Cart");
    let mut o = Overlay::new(&settings);
    let title_inks = |o: &mut Overlay| {
        let mut fb = Framebuffer::new(settings.width, settings.height);
        o.draw(&mut fb);
        let c = *o.colors();
        let inks: Vec<u8> = (0..160)
            .flat_map(|x| (0..crate::BAR_HEIGHT).map(move |y| (x, y)))
            .filter_map(|(x, y)| fb.get(x, y))
            .collect();
        (inks.contains(&c.tag), inks.contains(&c.warning))
    };
    assert!(!title_inks(&mut o).0);
    o.set_replay(Some((120, 3600)));
    assert!(title_inks(&mut o).0, "REPLAY in the tag colour");
    o.set_paused(Some(120));
    let (tag, warning) = title_inks(&mut o);
    assert!(
        warning && !tag,
        "paused: the whole line in the warning colour"
    );
    o.set_replay(None);
    o.set_paused(None);
    assert!(!title_inks(&mut o).0);
}

#[test]
fn the_palette_grid_shows_every_slot_above_the_hint_bar() {
    let mut o = Overlay::new(
        &Settings::default()
            .overlay_visible(true)
            .overlay_palette_grid(true)
            .palette(bt::Palette::pico8().resized(256).unwrap()),
    );
    let fb = drawn(&mut o);
    // 256 slots at 320 px: 32 swatches a row, 8 rows, in a band of 8 × 8 - 1 + 6 = 69 px
    // whose bottom is a gap row above the hint bar.
    let grid = PaletteGrid::new(256, W);
    assert_eq!((grid.columns, grid.height), (32, 69));
    let top = H - BAR_HEIGHT - ROW_GAP - 69;
    for slot in [0usize, 1, 15, 31, 32, 200, 255] {
        let (col, row) = ((slot % 32) as i32, (slot / 32) as i32);
        let (x, y) = (GRID_PADDING + col * 8, top + GRID_PADDING + row * 8);
        for (dx, dy) in [(0, 0), (6, 6)] {
            assert_eq!(fb.get(x + dx, y + dy), Some(slot as u8), "slot {slot}");
        }
        // The gap after a swatch is the band's.
        assert_eq!(fb.get(x + 7, y), Some(o.colors().bar), "slot {slot}");
    }
    // A 16-colour palette is one row of 16.
    let sixteen = PaletteGrid::new(16, W);
    assert_eq!((sixteen.columns, sixteen.height), (16, 13));
    // Off, the same place shows the cart (nothing drawn there: index 0).
    let mut off = visible(false);
    assert_eq!(
        drawn(&mut off).get(GRID_PADDING + 8, top + GRID_PADDING),
        Some(0)
    );
}

#[test]
fn the_renderer_row_sits_under_the_timing_row_and_pushes_the_sound_row_down() {
    let settings = Settings::default().overlay_visible(true);
    let mut plain = Overlay::new(&settings);
    let mut rows = Overlay::new(&settings.clone().overlay_diagnostics(true));
    let stats = FrameStats {
        draw_counts: bt::DrawCounts {
            shapes: 3,
            sprites: 40,
            maps: 1,
            text: 2,
        },
        ..steady()
    };
    plain.record(&stats);
    rows.record(&stats);
    let layout = Layout::new(ChartMode::Off, H);
    let y = layout.timing_y + BAR_HEIGHT + ROW_GAP;
    let (without, with) = (drawn(&mut plain), drawn(&mut rows));
    let band = |fb: &Framebuffer| {
        (y..y + BAR_HEIGHT)
            .flat_map(|row| (0..W).map(move |x| (x, row)))
            .map(|(x, row)| fb.get(x, row).unwrap_or(0))
            .collect::<Vec<_>>()
    };
    assert!(
        band(&without).iter().all(|&c| c == 0),
        "no row there without it"
    );
    let drawn_band = band(&with);
    assert!(drawn_band.contains(&rows.colors().bar), "a bar");
    assert!(drawn_band.contains(&rows.colors().text), "with text on it");
}

#[test]
fn host_rows_stay_from_frame_to_frame_above_the_carts() {
    let mut o = visible(false);
    o.host_rows_mut().push("ping 12 ms", "ahead 0");
    o.cart_rows_mut().push("Score 12", "");
    let fb = drawn(&mut o);
    let c = *o.colors();
    // Hint bar at 227, the cart's row at 213, the host's at 199, each with a gap above.
    for y in [213, 199] {
        assert_eq!(fb.get(W - 1, y), Some(c.bar), "bar at row {y}");
    }
    let text_at = |fb: &Framebuffer, y0: i32| -> Vec<bool> {
        (y0..y0 + BAR_HEIGHT)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .map(|(x, y)| fb.get(x, y) == Some(c.text))
            .collect()
    };
    let mut host = Framebuffer::new(W as u32, H as u32);
    host.print(EDGE_MARGIN, 199, "ping 12 ms", c.text);
    host.print(
        W - text::plain_width("ahead 0") - EDGE_MARGIN + 1,
        199,
        "ahead 0",
        c.text,
    );
    assert_eq!(text_at(&fb, 199), text_at(&host, 199));
    // A new frame clears the cart's rows, not the host's: it moves down to 213.
    o.cart_rows_mut();
    let fb = drawn(&mut o);
    let mut moved = Framebuffer::new(W as u32, H as u32);
    moved.print(EDGE_MARGIN, 213, "ping 12 ms", c.text);
    moved.print(
        W - text::plain_width("ahead 0") - EDGE_MARGIN + 1,
        213,
        "ahead 0",
        c.text,
    );
    assert_eq!(text_at(&fb, 213), text_at(&moved, 213));
}
