//! Composing and measuring the overlay's text rows.
//!
//! Rows are written into a reused `String`; `|` in a row marks a divider between segments.

use std::fmt::{self, Write as _};

use bt::host::Framebuffer;
use bt::limits::GLYPH_ADVANCE;
use bt::Rect;

use crate::{BAR_HEIGHT, DIVIDER_GAP};

/// A time given in milliseconds, written with its unit: from 1 ms up in milliseconds with one
/// decimal (`8.3ms`, halves rounded away from zero as a person reading the figure expects), and
/// below that in whole microseconds (`850us`), so a fast frame never reads `0.0ms`. Width and
/// alignment apply to the whole, unit included: `{:>6}` writes ` 8.3ms` and ` 850us` alike.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ms(pub f64);

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = if self.0.is_nan() { 0.0 } else { self.0 };
        let mut buf = [0u8; 32];
        let mut cursor = Cursor {
            buf: &mut buf,
            len: 0,
        };
        // Decided on the rounded figure, so 0.9996 ms reads `1.0ms`, never `1000us`.
        let us = (ms * 1000.0).round();
        if us.abs() < 1000.0 {
            let _ = write!(cursor, "{}us", us as i64);
        } else {
            // `as` saturates: no input can panic here.
            let tenths = (ms * 10.0).round() as i64;
            let sign = if tenths < 0 { "-" } else { "" };
            let abs = tenths.unsigned_abs();
            let _ = write!(cursor, "{sign}{}.{}ms", abs / 10, abs % 10);
        }
        let len = cursor.len;
        // Only ASCII was written.
        f.pad(std::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

/// A scale value or a lost time in at most five characters, for the tall chart: whole
/// milliseconds from 10 ms (`150ms`), one decimal below (`3.2ms`, `2ms` when the decimal is 0),
/// whole microseconds below 1 ms (`850us`) and seconds with one decimal from 1 s (`1.5s`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Short(pub f64);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = if self.0.is_nan() {
            0.0
        } else {
            self.0.max(0.0)
        };
        let mut buf = [0u8; 32];
        let mut cursor = Cursor {
            buf: &mut buf,
            len: 0,
        };
        let tenths = |v: f64| (v * 10.0).round() as u64;
        if (ms * 1000.0).round() < 1000.0 {
            let _ = write!(cursor, "{}us", (ms * 1000.0).round() as u64);
        } else if ms.round() >= 1000.0 {
            let t = tenths(ms / 1000.0);
            let _ = write!(cursor, "{}.{}s", t / 10, t % 10);
        } else if tenths(ms) >= 100 {
            let _ = write!(cursor, "{}ms", ms.round() as u64);
        } else {
            let t = tenths(ms);
            if t % 10 == 0 {
                let _ = write!(cursor, "{}ms", t / 10);
            } else {
                let _ = write!(cursor, "{}.{}ms", t / 10, t % 10);
            }
        }
        let len = cursor.len;
        f.pad(std::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

/// A few characters of text formatted on the stack, for labels drawn each frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SmallText {
    buf: [u8; 32],
    len: usize,
}

impl SmallText {
    /// `args` formatted, cut short at 32 bytes.
    pub fn format(args: fmt::Arguments<'_>) -> SmallText {
        let mut buf = [0u8; 32];
        let mut cursor = Cursor {
            buf: &mut buf,
            len: 0,
        };
        let _ = cursor.write_fmt(args);
        let len = cursor.len;
        SmallText { buf, len }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Cut at a character boundary if the formatting ran past the buffer.
        let mut len = self.len;
        while std::str::from_utf8(&self.buf[..len]).is_err() {
            len -= 1;
        }
        std::str::from_utf8(&self.buf[..len]).unwrap_or("")
    }

    /// Its width in pixels in the system font.
    pub fn width(&self) -> i32 {
        plain_width(self.as_str())
    }
}

/// A fixed buffer that `write!` can fill without allocating.
struct Cursor<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl fmt::Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes the title row's right-hand label: `lost 66.7ms` when the update cap threw time away
/// over the chart's frames, then the presenter and the display size, `cpu|320x240`, each when
/// given (a narrow display leaves them out), with a `|` between two.
pub(crate) fn display_label(
    out: &mut String,
    lost_ms: f64,
    backend: Option<&str>,
    size: Option<(i32, i32)>,
) {
    out.clear();
    if lost_ms > 0.0 {
        let _ = write!(out, "lost {}", Ms(lost_ms));
    }
    let next = |out: &mut String| {
        if !out.is_empty() {
            out.push('|');
        }
    };
    if let Some(backend) = backend {
        next(out);
        out.push_str(backend);
    }
    if let Some((width, height)) = size {
        next(out);
        let _ = write!(out, "{width}x{height}");
    }
}

/// Writes the timing row: `Frame  8.3ms|update()  1.5msx3|render()  850us`, or, when `short`,
/// `frm  8.3ms|upd  1.5msx3|rnd  850us`. Each time takes six characters whatever its unit, and
/// the step suffix is `xN` when more than one update ran and two spaces otherwise, so the row
/// does not jump about.
pub(crate) fn timing_row(
    out: &mut String,
    frame_ms: f64,
    update_ms: f64,
    updates: u32,
    render_ms: f64,
    short: bool,
) {
    out.clear();
    let [frame, update, render] = if short {
        ["frm", "upd", "rnd"]
    } else {
        ["Frame", "update()", "render()"]
    };
    let _ = write!(
        out,
        "{frame} {:>6}|{update} {:>6}",
        Ms(frame_ms),
        Ms(update_ms)
    );
    if updates > 1 {
        let _ = write!(out, "x{updates}");
    } else {
        out.push_str("  ");
    }
    let _ = write!(out, "|{render} {:>6}", Ms(render_ms));
}

/// Writes the renderer row: the last frame's drawing calls by kind,
/// `Shapes 12|Sprites 340|Maps 1|Text 5`, or, when `short`, `Shp 12|Spr 340|Map 1|Txt 5`.
pub(crate) fn renderer_row(out: &mut String, counts: bt::DrawCounts, short: bool) {
    out.clear();
    let bt::DrawCounts {
        shapes,
        sprites,
        maps,
        text,
    } = counts;
    let _ = if short {
        write!(out, "Shp {shapes}|Spr {sprites}|Map {maps}|Txt {text}")
    } else {
        write!(
            out,
            "Shapes {shapes}|Sprites {sprites}|Maps {maps}|Text {text}"
        )
    };
}

/// Writes the metrics row: `Present  60 FPS|Target 60 FPS|Draw Calls 42`, or, when `short`,
/// `FPS  60/60|Draws 42`.
pub(crate) fn metrics_row(
    out: &mut String,
    present_fps: f64,
    target_fps: f64,
    draw_calls: u32,
    short: bool,
) {
    out.clear();
    let present = present_fps.round() as i64;
    let _ = if short {
        write!(out, "FPS {present:>3}/{target_fps}|Draws {draw_calls}")
    } else {
        write!(
            out,
            "Present {present:>3} FPS|Target {target_fps} FPS|Draw Calls {draw_calls}"
        )
    };
}

/// Width in pixels of a row: 6 px a character, and 14 px for each `|` (7 px either side of a
/// one-pixel divider drawn in that space).
pub(crate) fn text_width(text: &str) -> i32 {
    let dividers = text.matches('|').count() as i32;
    let chars = text.chars().count() as i32 - dividers;
    chars * GLYPH_ADVANCE + dividers * 2 * DIVIDER_GAP
}

/// Width in pixels of text printed as is, `|` included.
pub(crate) fn plain_width(text: &str) -> i32 {
    text.chars().count().min(i32::MAX as usize / 8) as i32 * GLYPH_ADVANCE
}

/// Three dots on the baseline of a glyph cell at `x`, for text printed at `y`: the mark of
/// text shortened.
pub(crate) fn ellipsis(fb: &mut Framebuffer, x: i32, y: i32, ink: u8) {
    // The system font's baseline is glyph row 10.
    for dx in [0, 2, 4] {
        fb.draw_pixel(x + dx, y + 10, ink);
    }
}

/// Prints `text` split at `|`, with a bar-high divider in `divider` colour in each split.
pub(crate) fn segments(fb: &mut Framebuffer, x: i32, y: i32, text: &str, ink: u8, divider: u8) {
    let mut x = x;
    for (i, seg) in text.split('|').enumerate() {
        if i > 0 {
            fb.draw_rect_fill(Rect::new(x - 1 + DIVIDER_GAP, y, 1, BAR_HEIGHT), divider);
            x += 2 * DIVIDER_GAP;
        }
        fb.print(x, y, seg, ink);
        x += seg.chars().count() as i32 * GLYPH_ADVANCE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_round_halves_up_and_pad_to_the_width_asked() {
        assert_eq!(format!("{:>6}", Ms(8.25)), " 8.3ms");
        assert_eq!(format!("{:>6}", Ms(3.75)), " 3.8ms");
        assert_eq!(format!("{:>6}", Ms(123.44)), "123.4ms");
        assert_eq!(format!("{}", Ms(66.666)), "66.7ms");
        assert_eq!(format!("{}", Ms(-1.25)), "-1.3ms");
    }

    #[test]
    fn times_below_a_millisecond_read_in_microseconds_never_zero_ms() {
        assert_eq!(format!("{:>6}", Ms(0.85)), " 850us");
        assert_eq!(format!("{:>6}", Ms(0.08)), "  80us");
        assert_eq!(format!("{:>6}", Ms(0.0004)), "   0us");
        assert_eq!(format!("{:>6}", Ms(0.0)), "   0us");
        assert_eq!(format!("{}", Ms(f64::NAN)), "0us");
        assert_eq!(format!("{}", Ms(0.9994)), "999us");
        assert_eq!(
            format!("{}", Ms(0.9996)),
            "1.0ms",
            "rounds up into milliseconds"
        );
        assert_eq!(format!("{}", Ms(1.0)), "1.0ms");
        assert_eq!(format!("{}", Ms(-0.5)), "-500us");
    }

    #[test]
    fn every_time_in_the_timing_row_takes_six_characters() {
        let mut s = String::new();
        for (frame, update, render) in [(8.25, 1.5, 3.75), (0.85, 0.012, 0.3), (16.0, 0.0, 0.999)] {
            timing_row(&mut s, frame, update, 1, render, false);
            let fields: Vec<&str> = s.split('|').collect();
            assert_eq!(fields[0].len(), "Frame ".len() + 6, "{s}");
            assert_eq!(fields[1].len(), "update() ".len() + 6 + 2, "{s}");
            assert_eq!(fields[2].len(), "render() ".len() + 6, "{s}");
        }
        timing_row(&mut s, 0.85, 0.08, 2, 0.3, false);
        assert_eq!(s, "Frame  850us|update()   80usx2|render()  300us");
    }

    #[test]
    fn short_values_fit_five_characters() {
        let cases = [
            (150.0, "150ms"),
            (50.0, "50ms"),
            (16.667, "17ms"),
            (3.2, "3.2ms"),
            (2.0, "2ms"),
            (9.96, "10ms"),
            (0.85, "850us"),
            (0.1, "100us"),
            (0.9996, "1ms"),
            (1000.0, "1.0s"),
            (2500.0, "2.5s"),
            (999.6, "1.0s"),
        ];
        for (ms, want) in cases {
            assert_eq!(Short(ms).to_string(), want, "{ms}");
            assert!(want.len() <= 5);
        }
    }

    #[test]
    fn timing_row_pads_like_the_reference_examples() {
        let mut s = String::new();
        timing_row(&mut s, 8.25, 1.5, 3, 3.75, false);
        assert_eq!(s, "Frame  8.3ms|update()  1.5msx3|render()  3.8ms");
        timing_row(&mut s, 8.25, 1.5, 1, 3.75, false);
        assert_eq!(s.split('|').nth(1), Some("update()  1.5ms  "));
        timing_row(&mut s, 8.25, 1.5, 0, 3.75, false);
        assert_eq!(s.split('|').nth(1), Some("update()  1.5ms  "));
    }

    #[test]
    fn renderer_row_names_each_kind_of_call() {
        let mut s = String::new();
        let counts = bt::DrawCounts {
            shapes: 12,
            sprites: 340,
            maps: 1,
            text: 5,
        };
        renderer_row(&mut s, counts, false);
        assert_eq!(s, "Shapes 12|Sprites 340|Maps 1|Text 5");
        renderer_row(&mut s, counts, true);
        assert_eq!(s, "Shp 12|Spr 340|Map 1|Txt 5");
    }

    #[test]
    fn metrics_row_pads_the_rate_and_counts_draw_calls() {
        let mut s = String::new();
        metrics_row(&mut s, 59.6, 60.0, 42, false);
        assert_eq!(s, "Present  60 FPS|Target 60 FPS|Draw Calls 42");
        metrics_row(&mut s, 144.0, 30.0, 0, false);
        assert_eq!(s, "Present 144 FPS|Target 30 FPS|Draw Calls 0");
        metrics_row(&mut s, 59.6, 60.0, 42, true);
        assert_eq!(s, "FPS  60/60|Draws 42");
    }

    #[test]
    fn the_short_timing_row_keeps_the_figures_and_their_widths() {
        let mut s = String::new();
        timing_row(&mut s, 8.25, 1.5, 3, 3.75, true);
        assert_eq!(s, "frm  8.3ms|upd  1.5msx3|rnd  3.8ms");
        timing_row(&mut s, 0.85, 0.08, 1, 12.5, true);
        assert_eq!(s, "frm  850us|upd   80us  |rnd 12.5ms");
    }

    #[test]
    fn display_label_names_lost_time_only_when_there_is_some() {
        let mut s = String::new();
        display_label(&mut s, 0.0, Some("cpu"), Some((320, 240)));
        assert_eq!(s, "cpu|320x240");
        display_label(&mut s, 200.0 / 3.0, Some("vulkan"), Some((320, 240)));
        assert_eq!(s, "lost 66.7ms|vulkan|320x240");
        display_label(&mut s, 200.0 / 3.0, None, Some((128, 128)));
        assert_eq!(s, "lost 66.7ms|128x128");
        display_label(&mut s, 0.0, None, None);
        assert_eq!(s, "");
    }

    #[test]
    fn divider_widths_follow_the_layout() {
        // 13 glyphs and one divider: 13 * 6 + 14 = 92.
        assert_eq!(text_width("webgpu|320x240"), 92);
    }
}
