//! The timeline strip: the whole run a host can travel to, drawn across the bottom of the
//! picture, with the cart's tags as marks and where the run is now.

use bt::host::Framebuffer;
use bt::Rect;

use crate::{Overlay, BAR_HEIGHT, EDGE_MARGIN};

/// Height of the strip's track, below its line of text, in pixels.
const TRACK_HEIGHT: i32 = 9;

/// The strip's whole height: a line of text above the track.
pub const TIMELINE_HEIGHT: i32 = BAR_HEIGHT + TRACK_HEIGHT;

/// What the strip shows: the updates reachable, where the run is, and the cart's marks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    /// The first and last update the host can travel to.
    pub first: u64,
    /// The last update (the run's present, or how far it had played).
    pub last: u64,
    /// The update shown now.
    pub at: u64,
    /// Updates a second, to say where `at` is in seconds.
    pub fps: f64,
    /// Updates at which the cart placed a tag, in order.
    pub marks: Vec<u64>,
    /// The label of the tag nearest `at`, if any is near.
    pub label: String,
}

impl Timeline {
    /// The update under pixel column `x` of a picture `width` pixels wide.
    pub fn update_at(&self, x: i32, width: u32) -> u64 {
        let (left, right) = track(width);
        let span = self.last.saturating_sub(self.first);
        let along = f64::from((x - left).clamp(0, right - left)) / f64::from((right - left).max(1));
        self.first + (along * span as f64).round() as u64
    }

    /// The pixel column update `update` is drawn at in a picture `width` pixels wide.
    fn x_of(&self, update: u64, width: u32) -> i32 {
        let (left, right) = track(width);
        let span = self.last.saturating_sub(self.first).max(1);
        let along = update.saturating_sub(self.first).min(span) as f64 / span as f64;
        left + (along * f64::from(right - left)).round() as i32
    }
}

/// The track's first and last pixel column in a picture `width` pixels wide.
fn track(width: u32) -> (i32, i32) {
    let w = i32::try_from(width).unwrap_or(i32::MAX);
    (EDGE_MARGIN, (w - 1 - EDGE_MARGIN).max(EDGE_MARGIN + 1))
}

/// Whether pixel row `y` of a picture `height` pixels high is on the strip's track.
pub fn on_track(y: i32, height: u32) -> bool {
    let h = i32::try_from(height).unwrap_or(i32::MAX);
    y >= h - TRACK_HEIGHT && y < h
}

impl Overlay {
    /// Shows the timeline strip across the bottom of the picture, or takes it away.
    pub fn set_timeline(&mut self, timeline: Option<Timeline>) {
        self.timeline = timeline;
    }

    /// The timeline strip shown, if any.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    pub(crate) fn draw_timeline(&mut self, fb: &mut Framebuffer) {
        let Some(t) = &self.timeline else {
            return;
        };
        let c = self.colors;
        let (w, h) = (fb.width() as i32, fb.height() as i32);
        let top = h - TIMELINE_HEIGHT;
        fb.draw_rect_fill(Rect::new(0, top, w, TIMELINE_HEIGHT), c.bar);
        self.line.clear();
        let seconds = |u: u64| u as f64 / t.fps.max(1.0);
        let _ = std::fmt::Write::write_fmt(
            &mut self.line,
            format_args!(
                "{:.2} s of {:.2} s  update {}",
                seconds(t.at),
                seconds(t.last),
                t.at
            ),
        );
        if !t.label.is_empty() {
            self.line.push_str("  ");
            self.line.push_str(&t.label);
        }
        fb.print(EDGE_MARGIN, top, &self.line, c.text);
        let (left, right) = track(fb.width());
        let mid = h - TRACK_HEIGHT / 2 - 1;
        fb.draw_line((left, mid), (right, mid), c.grid);
        for &mark in &t.marks {
            let x = t.x_of(mark, fb.width());
            fb.draw_line((x, mid - 2), (x, mid + 2), c.tag);
        }
        let x = t.x_of(t.at, fb.width());
        fb.draw_rect_fill(
            Rect::new(x - 1, h - TRACK_HEIGHT + 1, 3, TRACK_HEIGHT - 2),
            c.text,
        );
    }
}
