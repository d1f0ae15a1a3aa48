//! The tall chart: its scales and layout, and what it draws, checked pixel by pixel.

use super::*;

#[test]
fn scale_tops_take_readable_steps() {
    assert_eq!(nice_ceil(41.7), 50.0);
    assert_eq!(nice_ceil(50.0), 50.0);
    assert_eq!(nice_ceil(133.3), 150.0);
    assert_eq!(nice_ceil(3.1), 4.0);
    assert!((nice_ceil(0.085) - 0.1).abs() < 1e-12);
    assert_eq!(nice_ceil(8.5), 10.0);
}

#[test]
fn the_delta_scale_fits_the_longest_frame_between_two_and_a_half_and_eight_budgets() {
    let budget = 1000.0 / 60.0;
    assert_eq!(delta_scale(16.7, budget), 50.0, "never below 2.5 budgets");
    assert_eq!(delta_scale(50.0, budget), 50.0);
    assert_eq!(delta_scale(70.0, budget), 80.0);
    assert_eq!(
        delta_scale(400.0, budget),
        150.0,
        "capped at 8 budgets, 133 ms"
    );
    assert_eq!(delta_scale(f64::NAN, budget), 50.0);
    assert_eq!(delta_scale(5.0, f64::INFINITY), 20.0);
    assert_eq!(delta_scale(5000.0, f64::INFINITY), 1000.0);
}

#[test]
fn the_cost_scale_fits_what_the_cart_uses() {
    assert_eq!(cost_scale(3.1), 4.0);
    assert!((cost_scale(0.08) - 0.1).abs() < 1e-12);
    assert!((cost_scale(0.0) - 0.1).abs() < 1e-12);
    assert_eq!(cost_scale(20.0), 20.0);
}

#[test]
fn any_time_takes_a_row_and_stacked_costs_both_show() {
    assert_eq!(rows_for(0.0, 50.0, 51), 0);
    assert_eq!(rows_for(0.01, 50.0, 51), 1);
    assert_eq!(rows_for(25.0, 50.0, 51), 26);
    assert_eq!(rows_for(400.0, 150.0, 51), 51);
    assert_eq!(stacked_rows(0.01, 3.0, 4.0, 26), (1, 19));
    assert_eq!(stacked_rows(0.0, 0.001, 4.0, 26), (0, 1));
    assert_eq!(stacked_rows(20.0, 20.0, 4.0, 26), (26, 0));
}

#[test]
fn the_layout_splits_half_a_240_screen_and_drops_the_legend_at_120() {
    let big = TallLayout::new(320, 14, 120, false, false);
    assert_eq!((big.lanes, big.columns), (2, 320 - TALL_GUTTER));
    assert_eq!((big.bars_top, big.bars_height), (38, 49));
    assert_eq!((big.count_top, big.notch_top, big.miss_top), (88, 92, 94));
    assert_eq!((big.cost_top, big.cost_height), (97, 25));
    assert_eq!(big.legend_top, Some(123));
    assert_eq!(
        big.legend_top.unwrap() + TEXT_ROWS,
        14 + 120,
        "fills the chart"
    );
    let small = TallLayout::new(160, 14, 60, false, false);
    assert_eq!((small.lanes, small.legend_top), (1, None));
    assert_eq!(small.cost_top + small.cost_height, 14 + 60);
    assert!(small.bars_height >= 20 && small.cost_height >= NUMBER_ROWS);
}

// What the whole overlay draws in tall mode.

use bt::{Settings, Tag};

use crate::{ChartMode, FrameStats, Overlay, BAR_HEIGHT, ROW_GAP};

const BUDGET: f64 = 1000.0 / 60.0;

fn tall(width: u32, height: u32) -> Overlay {
    let settings = Settings::default()
        .display(width, height)
        .overlay_visible(true);
    let mut o = Overlay::new(&settings);
    o.set_chart_mode(ChartMode::Tall);
    o
}

fn layout_of(width: u32, height: u32) -> TallLayout {
    TallLayout::new(
        width as i32,
        BAR_HEIGHT + ROW_GAP,
        height as i32 / 2,
        false,
        false,
    )
}

fn drawn(o: &mut Overlay, width: u32, height: u32) -> Framebuffer {
    let mut fb = Framebuffer::new(width, height);
    o.draw(&mut fb);
    fb
}

/// A frame of `updates` updates that took as long as they pay for (one budget for none).
fn frame(updates: u32) -> FrameStats {
    FrameStats {
        updates,
        delta_ms: BUDGET * f64::from(updates.max(1)),
        update_ms: 0.5 * f64::from(updates),
        render_ms: 2.0,
        frame_ms: 3.0,
        ..FrameStats::default()
    }
}

fn clamped() -> FrameStats {
    FrameStats {
        clamped: true,
        discarded_ms: 400.0 - 8.0 * BUDGET,
        delta_ms: 400.0,
        ..frame(8)
    }
}

#[test]
fn a_zero_update_run_a_clamped_frame_and_a_three_update_frame_show_in_their_columns() {
    let mut o = tall(320, 240);
    // 0..100 one update; 100..106 none (4 ms frames); 110 clamped; 115 three updates.
    for i in 0..120 {
        o.record(&match i {
            100..106 => FrameStats {
                delta_ms: 4.0,
                ..frame(0)
            },
            110 => clamped(),
            115 => frame(3),
            _ => frame(1),
        });
    }
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    // The ring is not full: frame i is drawn in column TALL_GUTTER + i.
    let x = |i: i32| l.data_x + i;
    for i in 0..120 {
        let want = match i {
            100..106 => c.zero_update,
            110 | 115 => c.error,
            _ => c.update_dot,
        };
        for y in l.count_top..l.count_top + COUNT_ROWS {
            assert_eq!(fb.get(x(i), y), Some(want), "count of frame {i}, row {y}");
        }
        let notch = if i == 110 { c.clamp } else { c.bar };
        for y in l.notch_top..l.notch_top + NOTCH_ROWS {
            assert_eq!(fb.get(x(i), y), Some(notch), "notch of frame {i}");
        }
    }
    // The zero-update run is one band of the zero-update colour, six columns wide.
    let band: Vec<u8> = (98..108)
        .map(|i| fb.get(x(i), l.count_top).unwrap())
        .collect();
    let z = c.zero_update;
    let u = c.update_dot;
    assert_eq!(band, [u, u, z, z, z, z, z, z, u, u]);
    // The scale fits the 400 ms frame, capped at 8 budgets (133 ms): 150 ms.
    let bottom = l.bars_top + l.bars_height;
    let rows = |ms: f64| rows_for(ms, 150.0, l.bars_height);
    // The clamped frame's bar runs off the top, with a break; the three-update frame's bar
    // (50 ms, three budgets) is red to its top.
    assert_eq!(fb.get(x(110), l.bars_top), Some(c.error));
    assert_eq!(fb.get(x(110), l.bars_top + BREAK_ROW), Some(c.bar));
    assert_eq!(fb.get(x(110), bottom - 1), Some(c.error));
    assert_eq!(fb.get(x(115), bottom - rows(50.0)), Some(c.error));
    assert_eq!(fb.get(x(115), bottom - rows(50.0) - 1), Some(c.bar));
    // An ordinary frame: a bar of the text colour, one budget high, its top on the budget line.
    assert_eq!(fb.get(x(50), bottom - 1), Some(c.text));
    assert_eq!(
        fb.get(x(50), bottom - rows(BUDGET)),
        Some(c.grid),
        "budget line"
    );
    assert_eq!(fb.get(x(50), bottom - rows(BUDGET) - 1), Some(c.bar));
    // Frames with no update have no update cost: no green in their cost column.
    let cost_rows = l.cost_top..l.cost_top + l.cost_height;
    assert!(cost_rows
        .clone()
        .all(|y| fb.get(x(102), y) != Some(c.update_dot)));
    assert!(cost_rows
        .clone()
        .any(|y| fb.get(x(102), y) == Some(c.render_dot)));
    assert!(cost_rows
        .clone()
        .any(|y| fb.get(x(99), y) == Some(c.update_dot)));
    // Nothing is drawn right of the newest frame but the budget lines.
    assert!((l.bars_top..bottom)
        .all(|y| matches!(fb.get(x(200), y), Some(p) if p == c.bar || p == c.grid)));
}

#[test]
fn a_rollback_frame_draws_a_cell_per_update_run_again_in_a_strip_the_legend_names() {
    let mut o = tall(320, 240);
    for _ in 0..60 {
        o.record(&frame(1));
    }
    let before = drawn(&mut o, 320, 240);
    let plain = layout_of(320, 240);
    // 1, 3 and 11 updates run again (the last deeper than the strip), each with one new.
    for (i, rerun) in (60..).zip([1, 0, 3, 0, 11]) {
        o.mark_rollback(rerun);
        o.record(&frame(rerun + 1));
        assert_eq!(o.last_rerun(), rerun, "frame {i}");
    }
    let fb = drawn(&mut o, 320, 240);
    let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, 120, false, true);
    let c = *o.colors();
    let y = l.rollback_top.unwrap();
    assert!(y >= l.miss_top + MISS_ROWS, "under the missed refreshes");
    assert!(
        l.cost_top > plain.cost_top,
        "the costs move down to make room"
    );
    let cells = |i: i32| {
        (y..y + ROLLBACK_ROWS)
            .filter(|&row| fb.get(l.data_x + i, row) == Some(c.tag))
            .count()
    };
    let counted: Vec<usize> = (58..66).map(cells).collect();
    assert_eq!(counted, [0, 0, 1, 0, 3, 0, ROLLBACK_ROWS as usize, 0]);
    // The cells stand on the strip's foot.
    assert_eq!(fb.get(l.data_x + 62, y + ROLLBACK_ROWS - 1), Some(c.tag));
    assert_eq!(fb.get(l.data_x + 62, y + ROLLBACK_ROWS - 4), Some(c.bar));
    // The legend names the strip in its colour; without a rollback there is neither.
    let legend = l.legend_top.unwrap();
    let inked = |fb: &Framebuffer, ink: u8| {
        (legend..legend + TEXT_ROWS)
            .flat_map(|y| (0..320).map(move |x| (x, y)))
            .filter(|&(x, y)| fb.get(x, y) == Some(ink))
            .count()
    };
    assert!(inked(&fb, c.tag) > 0, "rollback in the legend");
    assert_eq!(inked(&before, c.tag), 0);
    assert_eq!(plain.rollback_top, None);
}

#[test]
fn once_the_chart_is_full_the_newest_frame_is_in_the_rightmost_column() {
    let mut o = tall(320, 240);
    for _ in 0..400 {
        o.record(&frame(1));
    }
    o.record(&frame(3));
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    assert_eq!(fb.get(319, l.count_top), Some(c.error));
    assert_eq!(fb.get(318, l.count_top), Some(c.update_dot));
    assert_eq!(
        fb.get(l.data_x, l.count_top),
        Some(c.update_dot),
        "every column holds a frame"
    );
    assert_eq!(
        fb.get(l.data_x - 1, l.count_top),
        Some(c.gap),
        "the gutter's rule"
    );
}

/// Tags close together and far apart, several on one frame, long labels and short.
fn tagged(o: &mut Overlay, frames: u64) {
    let tags: &[(u64, &str)] = &[
        (0, "Level start"),
        (3, "Spawn"),
        (5, "Boss"),
        (40, "Explosion"),
        (41, "Save"),
        (41, "Autosave"),
        (41, "Checkpoint"),
        (42, "x"),
        (90, "A very long tag label indeed"),
        (100, "Wave 2"),
        (104, "Wave 3"),
        (135, ""),
        (frames - 3, "Last"),
    ];
    for i in 0..frames {
        for &(at, label) in tags {
            if at == i {
                o.add_tag(Tag {
                    tick: i,
                    label: label.to_string(),
                });
            }
        }
        o.record(&if i % 23 == 7 { frame(3) } else { frame(1) });
    }
}

fn untagged(o: &mut Overlay, frames: u64) {
    for i in 0..frames {
        o.record(&if i % 23 == 7 { frame(3) } else { frame(1) });
    }
}

#[test]
fn tag_labels_never_overlap_one_another_or_the_bars() {
    for (w, h) in [(320, 240), (160, 120), (640, 360)] {
        let frames = 200.min(u64::from(w) - TALL_GUTTER as u64);
        let mut o = tall(w, h);
        tagged(&mut o, frames);
        let fb = drawn(&mut o, w, h);
        let l = layout_of(w, h);
        let labels = o.tall.labels().to_vec();
        assert!(labels.len() >= 3, "{w}x{h}: {labels:?}");
        for (n, a) in labels.iter().enumerate() {
            let r = a.rect;
            assert!(r.w > 0 && r.h == TEXT_ROWS, "{w}x{h}: {a:?}");
            assert!(
                r.y >= l.lanes_top && r.y + r.h <= l.bars_top,
                "{w}x{h}: above the bars"
            );
            assert!(
                r.x == a.line_x + LABEL_INSET && r.x + r.w <= w as i32,
                "{w}x{h}: {a:?}"
            );
            for b in &labels[n + 1..] {
                assert!(!a.rect.intersects(b.rect), "{w}x{h}: {a:?} and {b:?}");
            }
        }
        // Tag ink above the bars is a label's text inside its rectangle or a tag's line.
        let lines: Vec<i32> = o
            .chart
            .placed_tags()
            .map(|(s, _)| l.data_x + s as i32)
            .collect();
        for y in l.lanes_top..l.bars_top {
            for x in 0..w as i32 {
                if fb.get(x, y) == Some(o.colors().tag) {
                    let in_label = labels.iter().any(|a| a.rect.contains(x, y));
                    assert!(
                        in_label || lines.contains(&x),
                        "{w}x{h}: stray ink at {x},{y}"
                    );
                }
            }
        }
        // The same frames without tags: every pixel from the bars down is the same, or was
        // background where a tag's line now shows. Tags never cover data.
        let mut plain = tall(w, h);
        untagged(&mut plain, frames);
        let bare = drawn(&mut plain, w, h);
        for y in l.bars_top..l.cost_top + l.cost_height {
            for x in 0..w as i32 {
                let (with, without) = (fb.get(x, y), bare.get(x, y));
                let line_over_background =
                    without == Some(o.colors().bar) && with == Some(o.colors().tag);
                assert!(
                    with == without || line_over_background,
                    "{w}x{h}: {x},{y} is {with:?}, without tags {without:?}"
                );
            }
        }
    }
}

#[test]
fn crowded_labels_are_shortened_or_stacked_and_what_cannot_fit_is_left_out() {
    let mut o = tall(320, 240);
    tagged(&mut o, 200);
    drawn(&mut o, 320, 240);
    let shown: Vec<(&str, usize, i32, bool)> = o
        .tall
        .labels()
        .iter()
        .map(|a| {
            let label = o.chart.placed_tags().nth(a.tag).unwrap().1;
            let lane = (a.rect.y - 14) / (TEXT_ROWS + 1);
            (label, a.chars, lane, a.shortened)
        })
        .collect();
    assert_eq!(
        shown,
        [
            // The chart's own tag and the cart's first, on one frame: stacked.
            ("Start", 5, 0, false),
            // Shortened to end before "Save", which took its lane.
            ("Level start", 5, 1, true),
            // "Spawn" and "Boss", 3 and 5 frames on, find both lanes taken by labels that
            // cannot give up a character: left out.
            ("Explosion", 9, 0, false),
            // Three more tags one frame later: one fits in the second lane.
            ("Save", 4, 1, false),
            ("A very long tag label indeed", 28, 1, false),
            ("Wave 2", 6, 0, false),
            // "Wave 3", 4 frames after "Wave 2", would leave it no character; the empty
            // label has nothing to show.
            ("Last", 4, 0, false),
        ]
    );
}

#[test]
fn a_run_of_clamped_frames_is_labelled_once_with_the_time_it_lost_where_it_covers_no_bar() {
    let mut o = tall(320, 240);
    for i in 0..200 {
        o.record(&if (100..103).contains(&i) {
            clamped()
        } else {
            frame(1)
        });
    }
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    let lost = o.tall.lost_labels();
    assert_eq!(lost.len(), 1, "{lost:?}");
    let r = lost[0];
    // "lost 800ms" (3 x 266.7) right of the run, at the top of the bars' panel.
    assert_eq!(
        (r.x, r.y, r.w),
        (l.data_x + 102 + 2, l.bars_top, 10 * GLYPH_ADVANCE)
    );
    let mut expected = Framebuffer::new(320, 240);
    expected.set_clip(r);
    expected.print(r.x, r.y - FONT_TOP, "lost 800ms", c.clamp);
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let ink = expected.get(x, y) == Some(c.clamp);
            assert_eq!(fb.get(x, y) == Some(c.clamp), ink, "{x},{y}");
        }
    }
    // The bars under it end below it.
    let bottom = l.bars_top + l.bars_height;
    let top_of_bars = bottom - rows_for(BUDGET, 150.0, l.bars_height);
    assert!(top_of_bars > r.y + r.h);
}

#[test]
fn the_cost_panel_scales_to_what_the_cart_spends() {
    for (render_ms, top, label) in [(3.0, 3.0, "3ms"), (0.08, 0.1, "100us")] {
        let mut o = tall(320, 240);
        for _ in 0..50 {
            o.record(&FrameStats {
                update_ms: 0.0,
                render_ms,
                ..frame(1)
            });
        }
        let fb = drawn(&mut o, 320, 240);
        let l = layout_of(320, 240);
        let c = *o.colors();
        let render_rows = (l.cost_top..l.cost_top + l.cost_height)
            .filter(|&y| fb.get(l.data_x + 10, y) == Some(c.render_dot))
            .count() as i32;
        assert_eq!(
            render_rows,
            rows_for(render_ms, top, l.cost_height),
            "{render_ms} ms"
        );
        assert!(
            render_rows >= l.cost_height * 3 / 4,
            "{render_ms} ms fills the panel"
        );
        let mut expected = Framebuffer::new(320, 240);
        let x = l.data_x - 2 - plain_width(label);
        expected.print(x, l.cost_top - FONT_TOP, label, c.text);
        for y in l.cost_top..l.cost_top + NUMBER_ROWS {
            for x in 0..l.data_x - 1 {
                let ink = expected.get(x, y) == Some(c.text);
                assert_eq!(fb.get(x, y) == Some(c.text), ink, "{label} at {x},{y}");
            }
        }
    }
}

#[test]
fn the_legend_shows_at_320_by_240_and_gives_way_at_160_by_120() {
    let legend_rows = |w: u32, h: u32| {
        let mut o = tall(w, h);
        o.record(&frame(1));
        let fb = drawn(&mut o, w, h);
        let top = BAR_HEIGHT + ROW_GAP;
        let c = *o.colors();
        // The zero-update colour appears in the chart only in the legend's "0".
        (top..top + h as i32 / 2)
            .filter(|&y| (0..w as i32).any(|x| fb.get(x, y) == Some(c.zero_update)))
            .count()
    };
    assert!(legend_rows(320, 240) > 0);
    assert_eq!(legend_rows(160, 120), 0);
}

#[test]
fn tiny_and_odd_screens_draw_without_panicking() {
    for (w, h) in [
        (1, 1),
        (16, 16),
        (33, 200),
        (40, 30),
        (320, 20),
        (2000, 1000),
    ] {
        let mut o = tall(w, h);
        tagged(&mut o, 60);
        o.record(&clamped());
        drawn(&mut o, w, h);
    }
}

#[test]
fn a_bar_past_the_scale_carries_its_value_where_it_covers_no_other_bar() {
    let mut o = tall(320, 240);
    for i in 0..100 {
        o.record(&if i == 50 {
            FrameStats {
                delta_ms: 418.0,
                ..frame(8)
            }
        } else {
            frame(1)
        });
    }
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let over = o.tall.over_labels().to_vec();
    assert_eq!(over.len(), 1);
    let x = l.data_x + 50;
    // `418ms` right of the bar, below the lost-time row, in the text colour.
    assert_eq!(over[0].x, x + 2);
    assert_eq!(over[0].w, 5 * bt::limits::GLYPH_ADVANCE);
    assert_eq!(over[0].y, l.bars_top + NUMBER_ROWS + 1);
    let c = *o.colors();
    let inked = (over[0].x..over[0].x + over[0].w)
        .flat_map(|x| (over[0].y..over[0].y + over[0].h).map(move |y| (x, y)))
        .filter(|&(x, y)| fb.get(x, y) == Some(c.text))
        .count();
    assert!(inked > 20, "the value is written: {inked} pixels");
    // Under the scale, nothing is written.
    let mut calm = tall(320, 240);
    for _ in 0..100 {
        calm.record(&frame(2));
    }
    drawn(&mut calm, 320, 240);
    assert!(calm.tall.over_labels().is_empty());
}

#[test]
fn frames_that_missed_refreshes_are_marked_in_their_strip() {
    let mut o = tall(320, 240);
    o.set_refresh(crate::Refresh::Given(60.0));
    for i in 0..100 {
        o.record(&match i {
            40 => FrameStats {
                delta_ms: 33.3,
                ..frame(2)
            },
            60 => FrameStats {
                delta_ms: 50.0,
                ..frame(3)
            },
            _ => frame(1),
        });
    }
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    let y = l.miss_top;
    assert_eq!(fb.get(l.data_x + 40, y), Some(c.warning), "one missed");
    assert_eq!(fb.get(l.data_x + 60, y + 1), Some(c.error), "two missed");
    assert_eq!(fb.get(l.data_x + 50, y), Some(c.bar), "none missed");
}

#[test]
fn a_rechart_shows_the_frames_given_and_the_caption_on_the_legend_row() {
    let mut o = tall(320, 240);
    for _ in 0..500 {
        o.record(&frame(1));
    }
    let frames: Vec<crate::ChartFrame> = (0..10)
        .map(|i| crate::ChartFrame {
            stats: if i == 3 { clamped() } else { frame(1) },
            missed: u32::from(i == 3) * 23,
            spread: None,
            ..Default::default()
        })
        .collect();
    let tags = [(
        3,
        Tag {
            tick: 7,
            label: "Boss".into(),
        },
    )];
    o.rechart(&frames, &tags);
    o.set_chart_caption("frames 0-9");
    assert_eq!(o.samples_recorded(), 10);
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    // The frames fill the first columns; the rest is empty.
    assert_eq!(fb.get(l.data_x + 3, l.miss_top), Some(c.error));
    assert_eq!(fb.get(l.data_x + 20, l.bars_bottom() - 1), Some(c.bar));
    assert_eq!(o.tall.labels().len(), 1, "the tag is placed");
    // The caption ends at the right margin of the legend row.
    let y = l.legend_top.unwrap();
    let right = 320 - crate::EDGE_MARGIN;
    let inked = (right - 60..right)
        .flat_map(|x| (y..y + TEXT_ROWS).map(move |y| (x, y)))
        .filter(|&(x, y)| fb.get(x, y) == Some(c.text))
        .count();
    assert!(inked > 20, "caption drawn: {inked}");
    assert_eq!(o.chart_columns(), (320 - TALL_GUTTER) as usize);
}

#[test]
fn a_column_of_several_frames_is_a_band_from_the_shortest_through_the_median_to_the_longest() {
    let mut o = tall(320, 240);
    // Column 0: one slow frame among steady ones (shortest 8 ms, median one budget, longest
    // five budgets); column 1: a single frame of five budgets.
    let slow = FrameStats {
        delta_ms: 5.0 * BUDGET,
        ..frame(1)
    };
    let frames = [
        crate::ChartFrame {
            stats: slow,
            missed: 0,
            spread: Some((8.0, BUDGET)),
            ..Default::default()
        },
        crate::ChartFrame {
            stats: slow,
            missed: 0,
            spread: None,
            ..Default::default()
        },
    ];
    o.rechart(&frames, &[]);
    let fb = drawn(&mut o, 320, 240);
    let l = layout_of(320, 240);
    let c = *o.colors();
    let bottom = l.bars_bottom();
    let scale = delta_scale(5.0 * BUDGET, BUDGET);
    let row_of = |ms: f64| bottom - rows_for(ms, scale, l.bars_height);
    let (x_band, x_single) = (l.data_x, l.data_x + 1);
    // The foot every frame took, in the rule colour; the median's grade (normal) above it; the
    // longest's (an error) at the top.
    assert_eq!(fb.get(x_band, bottom - 1), Some(c.gap));
    assert_eq!(fb.get(x_band, row_of(BUDGET) + 1), Some(c.text));
    assert_eq!(fb.get(x_band, row_of(5.0 * BUDGET) + 1), Some(c.error));
    // A column of one frame is one bar in its grade, as before.
    assert_eq!(fb.get(x_single, bottom - 1), Some(c.error));
    assert_eq!(fb.get(x_single, row_of(BUDGET) + 1), Some(c.error));
}

/// `n` one-update frames of `ms` each, starting at 0 ms, each knowing when it began.
fn timed_frames(n: usize, ms: f64) -> Vec<crate::ChartFrame> {
    (0..n)
        .map(|i| crate::ChartFrame {
            stats: FrameStats {
                delta_ms: ms,
                ..frame(1)
            },
            start_ms: Some(i as f64 * ms),
            ..Default::default()
        })
        .collect()
}

/// The columns of the axis's tick rows inked in the text colour.
fn ticks(fb: &Framebuffer, l: &TallLayout, c: &OverlayColors) -> Vec<i32> {
    let y = l.axis_top.expect("an axis");
    (l.data_x..l.right())
        .filter(|&x| (0..AXIS_TICK_ROWS).all(|dy| fb.get(x, y + dy) == Some(c.text)))
        .collect()
}

#[test]
fn a_chart_whose_frames_know_their_times_writes_seconds_along_its_foot() {
    let mut o = tall(320, 240);
    // 240 frames of 25 ms: 6 s, so a tick each second, every 40 columns, from 0 s.
    o.rechart(&timed_frames(240, 25.0), &[]);
    let fb = drawn(&mut o, 320, 240);
    let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, 120, true, false);
    let c = *o.colors();
    assert_eq!(
        l.legend_top.unwrap() + TEXT_ROWS,
        BAR_HEIGHT + ROW_GAP + 120,
        "the axis takes rows from the panels, the chart keeps its height"
    );
    assert_eq!(
        ticks(&fb, &l, &c),
        (0..6).map(|s| l.data_x + s * 40).collect::<Vec<_>>()
    );
    // Each tick's value under it: "0s" at the first, "5s" at the sixth.
    let y = l.axis_top.unwrap() + AXIS_TICK_ROWS;
    for x in [l.data_x, l.data_x + 200] {
        let inked = (x..x + 12)
            .flat_map(|x| (y..y + NUMBER_ROWS).map(move |y| (x, y)))
            .filter(|&(x, y)| fb.get(x, y) == Some(c.text))
            .count();
        assert!(inked > 8, "a label at column {x}: {inked} pixels");
    }
    // A chart of the live frames has no times and no axis: its layout is as before.
    let mut live = tall(320, 240);
    for _ in 0..240 {
        live.record(&frame(1));
    }
    drawn(&mut live, 320, 240);
    assert_eq!(layout_of(320, 240).axis_top, None);
}

#[test]
fn the_axis_step_grows_with_the_span_and_starts_at_the_first_whole_step() {
    let mut o = tall(320, 240);
    // 2,000 frames of 25 ms from 12.5 s: 50 s of run, a tick each 10 s from 20 s.
    let frames: Vec<_> = timed_frames(2000, 25.0)
        .into_iter()
        .map(|mut f| {
            f.start_ms = f.start_ms.map(|ms| ms + 12_500.0);
            f
        })
        .step_by(7)
        .collect();
    o.rechart(&frames, &[]);
    let fb = drawn(&mut o, 320, 240);
    let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, 120, true, false);
    let c = *o.colors();
    // Column k began at 12.5 s + k × 0.175 s: 20 s is first reached at column 43.
    let first_at = |s: f64| ((s - 12.5) / 0.175).ceil() as i32;
    assert_eq!(
        ticks(&fb, &l, &c),
        [20.0, 30.0, 40.0, 50.0, 60.0]
            .map(|s| l.data_x + first_at(s))
            .to_vec()
    );
}

#[test]
fn a_chart_of_display_times_names_its_bars_shown_and_hatches_frames_never_displayed() {
    let mut o = tall(320, 240);
    let mut frames = timed_frames(20, BUDGET);
    frames[5].stats.delta_ms = 0.0;
    frames[5].never_shown = true;
    o.rechart(&frames, &[]);
    o.set_chart_bars(crate::ChartBars::Display);
    let fb = drawn(&mut o, 320, 240);
    let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, 120, true, false);
    let c = *o.colors();
    let x = l.data_x + 5;
    let hatch: Vec<i32> = (l.bars_top..l.bars_bottom())
        .filter(|&y| fb.get(x, y) == Some(c.grid))
        .collect();
    assert!(hatch.len() >= (l.bars_height / HATCH_ROWS) as usize - 1);
    assert!(hatch.windows(2).all(|w| w[1] - w[0] <= HATCH_ROWS));
    assert_eq!(
        fb.get(x - 1, l.bars_bottom() - 1),
        Some(c.text),
        "its neighbour's bar"
    );
    // The legend's first word is "shown", in the bar colour, where "delta" was.
    let legend = |o: &mut Overlay| {
        let fb = drawn(o, 320, 240);
        let y = l.legend_top.unwrap();
        (EDGE_MARGIN..EDGE_MARGIN + 5 * GLYPH_ADVANCE)
            .flat_map(|x| (y..y + TEXT_ROWS).map(move |y| (x, y)))
            .map(|(x, y)| fb.get(x, y) == Some(c.text))
            .collect::<Vec<_>>()
    };
    let shown = legend(&mut o);
    o.set_chart_bars(crate::ChartBars::Delta);
    let delta = legend(&mut o);
    assert!(shown.iter().filter(|&&p| p).count() > 20);
    assert_ne!(shown, delta, "another word");
    // Charting deltas, the same frame is no longer hatched: only the budget's two lines cross
    // its column.
    let fb = drawn(&mut o, 320, 240);
    let grid = (l.bars_top..l.bars_bottom())
        .filter(|&y| fb.get(x, y) == Some(c.grid))
        .count();
    assert!(grid <= 2, "{grid} grid pixels");
}

#[test]
fn a_generated_frame_is_barred_in_its_own_colour_and_a_mode_change_is_marked() {
    let mut o = tall(320, 240);
    let mut frames = timed_frames(20, BUDGET);
    frames[5].generated = true;
    frames[9].mode_change = true;
    o.rechart(&frames, &[]);
    let fb = drawn(&mut o, 320, 240);
    let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, 120, true, false);
    let c = *o.colors();
    let foot = l.bars_bottom() - 1;
    assert_eq!(fb.get(l.data_x + 5, foot), Some(c.zero_update), "generated");
    assert_eq!(
        fb.get(l.data_x + 4, foot),
        Some(c.text),
        "the application's"
    );
    // The change: a dotted line down the whole panel, above the bar too (the budget's line
    // crosses it).
    let dots: Vec<i32> = (l.bars_top..l.bars_bottom())
        .filter(|&y| fb.get(l.data_x + 9, y) == Some(c.clamp))
        .collect();
    assert!(dots
        .first()
        .is_some_and(|&y| y < l.bars_top + MODE_DOT_ROWS));
    assert!(dots
        .last()
        .is_some_and(|&y| y >= l.bars_bottom() - 2 * MODE_DOT_ROWS));
    assert!(
        dots.windows(2).all(|w| w[1] - w[0] <= 2 * MODE_DOT_ROWS),
        "{dots:?}"
    );
    // The legend names both marks in their colours.
    let y = l.legend_top.unwrap();
    let inks = |ink: u8| {
        (0..320)
            .flat_map(|x| (y..y + TEXT_ROWS).map(move |y| (x, y)))
            .filter(|&(x, y)| fb.get(x, y) == Some(ink))
            .count()
    };
    assert!(inks(c.zero_update) > 10 && inks(c.clamp) > 10);
    // Without them, neither word.
    let mut plain = tall(320, 240);
    plain.rechart(&timed_frames(20, BUDGET), &[]);
    let fb = drawn(&mut plain, 320, 240);
    let zero_update_legend = (0..320)
        .flat_map(|x| (y..y + TEXT_ROWS).map(move |y| (x, y)))
        .filter(|&(x, y)| fb.get(x, y) == Some(c.zero_update))
        .count();
    assert!(zero_update_legend < inks(c.zero_update));
}

#[test]
fn a_chart_scaled_to_its_own_frames_ignores_the_carts_budget_and_can_take_the_screen() {
    // 45 fps frames: against the 60 Hz budget the scale would be 50 ms at least.
    let frames = timed_frames(40, 22.2);
    let top_of = |o: &mut Overlay, height: i32| {
        let fb = drawn(o, 320, 240);
        let l = TallLayout::new(320, BAR_HEIGHT + ROW_GAP, height, true, false);
        let c = *o.colors();
        // The rows of the first column's bar, in any grade's colour.
        let bar = [c.text, c.warning, c.error];
        (l.bars_top..l.bars_bottom())
            .filter(|&y| fb.get(l.data_x, y).is_some_and(|p| bar.contains(&p)))
            .count() as f64
            / f64::from(l.bars_height)
    };
    let mut budgeted = tall(320, 240);
    budgeted.rechart(&frames, &[]);
    let share = top_of(&mut budgeted, 120);
    assert!((share - 22.2 / 50.0).abs() < 0.05, "{share}");
    let mut fitted = tall(320, 240);
    fitted.rechart(&frames, &[]);
    fitted.set_chart_scale_fit(Some(22.2));
    let share = top_of(&mut fitted, 120);
    assert!((share - 22.2 / 25.0).abs() < 0.05, "{share}: a 25 ms top");
    // The whole screen but the title, the two metrics rows and a bar of key hints.
    fitted.set_chart_full_height(true);
    let height = 240 - 4 * (BAR_HEIGHT + ROW_GAP) - ROW_GAP;
    let share = top_of(&mut fitted, height);
    assert!((share - 22.2 / 25.0).abs() < 0.05, "{share}");
}
