//! BT's diagnostic overlay, drawn onto the cart's framebuffer after `render`.
//!
//! It shows what the loop did: the display, the present rate against the target, and how long
//! the frame, its updates (with an `xN` suffix when several ran) and its render took. Numbers are
//! formatted into buffers that live as long as the overlay, so drawing it allocates nothing.
#![deny(missing_docs)]

use std::fmt::Write as _;

use bt::{Framebuffer, OverlayRows, Rect, Settings, Tag, GLYPH_ADVANCE};

/// Height of one overlay bar, in pixels.
pub const BAR_HEIGHT: i32 = 13;
/// Gap between bars, in pixels.
pub const ROW_GAP: i32 = 1;
/// Left and right margin of the text, in pixels.
pub const EDGE_MARGIN: i32 = 7;
/// Space on either side of a `|` divider, in pixels.
pub const DIVIDER_GAP: i32 = 7;
/// Weight of a new sample in the smoothed figures (an exponential moving average).
pub const SMOOTHING: f64 = 0.12;
/// The clickable corner that toggles the overlay: this many pixels wide ...
pub const TOGGLE_WIDTH: i32 = 17;
/// ... and this many high, at the bottom-left of the screen.
pub const TOGGLE_HEIGHT: i32 = 13;

/// Palette slots the overlay draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverlayColors {
    /// Bar background.
    pub bar: u8,
    /// Text.
    pub text: u8,
    /// Dividers and the gaps between bars.
    pub gap: u8,
}

impl Default for OverlayColors {
    /// Dark blue bars, white text, black gaps in the default (PICO-8) palette.
    fn default() -> OverlayColors {
        OverlayColors {
            bar: 1,
            text: 7,
            gap: 5,
        }
    }
}

/// What the engine measured for one frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameStats {
    /// Updates the frame ran.
    pub updates: u32,
    /// Whether the 8-update cap threw time away.
    pub clamped: bool,
    /// Milliseconds thrown away.
    pub discarded_ms: f64,
    /// The frame's delta from the clock.
    pub delta_ms: f64,
    /// Wall time of the frame's updates.
    pub update_ms: f64,
    /// Wall time of the cart's render.
    pub render_ms: f64,
    /// Wall time of the whole frame.
    pub frame_ms: f64,
    /// The tick counter after the frame.
    pub ticks: u64,
}

/// An exponential moving average whose first sample is taken as is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Smoothed {
    value: Option<f64>,
}

impl Smoothed {
    /// Starts from `seed` instead of from the first sample.
    pub fn seeded(seed: f64) -> Smoothed {
        Smoothed { value: Some(seed) }
    }

    /// Adds a sample.
    pub fn add(&mut self, sample: f64) {
        self.value = Some(match self.value {
            None => sample,
            Some(v) => v + (sample - v) * SMOOTHING,
        });
    }

    /// The current average (0 before any sample).
    pub fn get(&self) -> f64 {
        self.value.unwrap_or(0.0)
    }
}

/// The overlay: metrics rows over the cart's picture, toggled by the host.
#[derive(Debug)]
pub struct Overlay {
    visible: bool,
    colors: OverlayColors,
    title: String,
    target_fps: f64,
    frame_ms: Smoothed,
    update_ms: Smoothed,
    render_ms: Smoothed,
    present_fps: Smoothed,
    last: FrameStats,
    tags: Vec<Tag>,
    cart_rows: OverlayRows,
    line: String,
}

impl Overlay {
    /// An overlay for a cart with these settings.
    pub fn new(settings: &Settings) -> Overlay {
        Overlay {
            visible: settings.overlay.visible_at_start,
            colors: OverlayColors::default(),
            title: settings.title.clone(),
            target_fps: settings.target_fps,
            frame_ms: Smoothed::default(),
            update_ms: Smoothed::default(),
            render_ms: Smoothed::default(),
            present_fps: Smoothed::seeded(settings.target_fps),
            last: FrameStats::default(),
            tags: Vec::new(),
            cart_rows: OverlayRows::default(),
            line: String::with_capacity(128),
        }
    }

    /// Whether the metrics are shown.
    pub fn is_visible(&self) -> bool {
        self.visible
    }

    /// Shows or hides the metrics.
    pub fn set_visible(&mut self, visible: bool) {
        self.visible = visible;
    }

    /// Flips visibility.
    pub fn toggle(&mut self) {
        self.visible = !self.visible;
    }

    /// Whether a pointer press at `(x, y)` lands on the toggle corner of a `height`-px screen.
    pub fn hits_toggle(x: i32, y: i32, height: i32) -> bool {
        Rect::new(0, height - TOGGLE_HEIGHT, TOGGLE_WIDTH, TOGGLE_HEIGHT).contains(x, y)
    }

    /// The palette slots in use.
    pub fn colors_mut(&mut self) -> &mut OverlayColors {
        &mut self.colors
    }

    /// Takes one frame's measurements. Collected whether or not the overlay is visible.
    pub fn record(&mut self, stats: &FrameStats) {
        self.frame_ms.add(stats.frame_ms);
        self.update_ms.add(stats.update_ms);
        self.render_ms.add(stats.render_ms);
        if stats.delta_ms > 0.0 {
            self.present_fps.add(1000.0 / stats.delta_ms);
        }
        self.last = *stats;
    }

    /// The last frame's measurements.
    pub fn last(&self) -> &FrameStats {
        &self.last
    }

    /// Keeps a tag the cart placed.
    pub fn add_tag(&mut self, tag: Tag) {
        self.tags.push(tag);
    }

    /// Tags placed so far.
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }

    /// The buffer the cart's `overlay_rows` fills, cleared for this frame.
    pub fn cart_rows_mut(&mut self) -> &mut OverlayRows {
        self.cart_rows.clear();
        &mut self.cart_rows
    }

    /// Draws the overlay in screen space (no camera, full clip; the cart's clip is not kept).
    pub fn draw(&mut self, fb: &mut Framebuffer) {
        fb.clip_reset();
        let (w, h) = (fb.width() as i32, fb.height() as i32);
        let c = self.colors;
        if !self.visible {
            // The hint: a small bar in the toggle corner.
            fb.draw_rect_fill(Rect::new(3, h - 8, 11, 3), c.bar);
            fb.draw_rect_fill(Rect::new(4, h - 7, 9, 1), c.text);
            return;
        }
        let Overlay { line, .. } = self;
        // Row 1: title, and the display on the right.
        bar(fb, 0, w, c);
        fb.print(EDGE_MARGIN, 0, c.text, &self.title);
        line.clear();
        let _ = write!(line, "cpu|{w}x{h}");
        let right = (w - text_width(line) - EDGE_MARGIN + 1).max(EDGE_MARGIN);
        segments(fb, right, 0, line, c);
        // Row 2: present and target rates.
        let y2 = BAR_HEIGHT + ROW_GAP;
        bar(fb, y2, w, c);
        line.clear();
        let _ = write!(
            line,
            "Present {:>3} FPS|Target {} FPS",
            self.present_fps.get().round() as i64,
            self.target_fps
        );
        segments(fb, EDGE_MARGIN, y2, line, c);
        // Row 3: frame, update (xN when several ran) and render times.
        let y3 = 2 * (BAR_HEIGHT + ROW_GAP);
        bar(fb, y3, w, c);
        line.clear();
        let steps = self.last.updates;
        let _ = write!(
            line,
            "Frame {:>4.1}ms|update() {:>4.1}ms",
            self.frame_ms.get(),
            self.update_ms.get()
        );
        if steps > 1 {
            let _ = write!(line, "x{steps}");
        } else {
            line.push_str("  ");
        }
        let _ = write!(line, "|render() {:>4.1}ms", self.render_ms.get());
        segments(fb, EDGE_MARGIN, y3, line, c);
        // Cart rows stack upward from the bottom.
        let mut y = h - BAR_HEIGHT;
        for (left, right) in self.cart_rows.iter() {
            y -= BAR_HEIGHT + ROW_GAP;
            bar(fb, y, w, c);
            fb.print(EDGE_MARGIN, y, c.text, left);
            let rx = (w - text_width(right) - EDGE_MARGIN + 1).max(EDGE_MARGIN);
            fb.print(rx, y, c.text, right);
        }
    }
}

fn text_width(text: &str) -> i32 {
    let dividers = text.matches('|').count() as i32;
    let chars = text.chars().count() as i32 - dividers;
    chars * GLYPH_ADVANCE + dividers * 2 * DIVIDER_GAP
}

fn bar(fb: &mut Framebuffer, y: i32, w: i32, c: OverlayColors) {
    fb.draw_rect_fill(Rect::new(0, y, w, BAR_HEIGHT), c.bar);
    fb.draw_rect_fill(Rect::new(0, y + BAR_HEIGHT, w, ROW_GAP), c.gap);
}

/// Prints `text` split at `|`, with a one-pixel divider in each split and 7 px either side.
fn segments(fb: &mut Framebuffer, x: i32, y: i32, text: &str, c: OverlayColors) {
    let mut x = x;
    for (i, seg) in text.split('|').enumerate() {
        if i > 0 {
            fb.draw_rect_fill(Rect::new(x - 1 + DIVIDER_GAP, y, 1, BAR_HEIGHT), c.gap);
            x += 2 * DIVIDER_GAP;
        }
        fb.print(x, y, c.text, seg);
        x += seg.chars().count() as i32 * GLYPH_ADVANCE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn divider_widths_follow_the_layout() {
        // 13 glyphs and one divider: 13 * 6 + 14 = 92.
        assert_eq!(text_width("webgpu|320x240"), 92);
    }

    #[test]
    fn hidden_overlay_draws_only_the_hint_in_the_corner() {
        let mut o = Overlay::new(&Settings::default());
        let mut fb = Framebuffer::new(320, 240);
        o.draw(&mut fb);
        for y in 0..240 {
            for x in 0..320 {
                if fb.get(x, y) != Some(0) {
                    assert!(Overlay::hits_toggle(x, y, 240), "ink at {x},{y}");
                }
            }
        }
        assert!(fb.pixels().iter().any(|&p| p != 0));
    }

    #[test]
    fn visible_overlay_fills_three_bars_and_shows_the_step_count() {
        let mut o = Overlay::new(&Settings::default().overlay_visible(true));
        o.record(&FrameStats {
            updates: 3,
            delta_ms: 50.0,
            ..FrameStats::default()
        });
        let mut fb = Framebuffer::new(320, 240);
        o.draw(&mut fb);
        // Bars at y 0, 14 and 28; gap rows at 13, 27, 41.
        for y in [0, 14, 28] {
            assert_eq!(fb.get(319, y), Some(1));
        }
        for y in [13, 27, 41] {
            assert_eq!(fb.get(319, y), Some(5));
        }
        assert_eq!(fb.get(319, 42), Some(0), "nothing below the top cluster");
        assert!(o.line.contains("update()  0.0msx3"), "{}", o.line);
    }
}
