//! The timeline: Shift+[`REWIND_KEY`] pauses the run and shows the whole stretch of it the
//! engine can travel to as a strip across the bottom of the picture, with the cart's tags as
//! marks. The arrows, Page Up and Down, Home and End, or the pointer on the strip, go to any
//! update in it; Enter plays on from there, Escape goes back to where the timeline opened (see
//! `docs/time-travel.md`).

use bt::{Button, Key};

use super::{Host, HostAction};

/// A timeline open: where it opened, and whether the run was paused then.
#[derive(Debug)]
pub(super) struct TimelineOpen {
    opened_at: u64,
    was_paused: bool,
    /// The pointer's button went down on the strip and is still down: moving drags.
    dragging: bool,
}

/// How near `at` a tag must be for the strip to name it: half a second of play.
const NEAR_MARK_SECONDS: f64 = 0.5;

impl Host {
    /// Whether the timeline is open.
    pub fn timeline_open(&self) -> bool {
        self.time_travel.timeline.is_some()
    }

    /// Shift+F1: opens the timeline (pausing the run), or closes it as Enter does.
    pub(super) fn toggle_timeline(&mut self) -> Option<HostAction> {
        if self.time_travel.timeline.is_some() {
            return self.close_timeline(false);
        }
        if self.time_travel.rewinding.is_some() || self.engine.cart_panic().is_some() {
            return None;
        }
        let Some(span) = self.engine.travel_span() else {
            let message = match self.engine.travel_to(0) {
                Err(e) => format!("timeline: {e}"),
                Ok(_) => "timeline: nothing to travel to yet".to_string(),
            };
            self.say(format_args!("{message}"));
            self.notice_for_a_while(&message);
            return Some(HostAction::StateFailed(message));
        };
        let at = self.engine.updates_since_init().min(span.last);
        self.time_travel.timeline = Some(TimelineOpen {
            opened_at: at,
            was_paused: self.engine.is_paused(),
            dragging: false,
        });
        self.engine.pause();
        self.show_paused();
        self.timeline_go(at)
    }

    /// A key while the timeline is open: it moves through the run, or closes the timeline.
    /// No key reaches the cart while it is open.
    pub(super) fn timeline_key(&mut self, key: Key) -> Option<HostAction> {
        let fps = self.engine.settings().target_fps.round().max(1.0) as u64;
        let shift = self.input.held_any(&[Key::ShiftLeft, Key::ShiftRight]);
        let span = self.engine.travel_span()?;
        let here = self.engine.updates_since_init();
        let step = if shift { fps } else { 1 };
        let target = match key {
            Key::ArrowLeft => here.saturating_sub(step),
            Key::ArrowRight => here + step,
            Key::PageUp => here.saturating_sub(10 * fps),
            Key::PageDown => here + 10 * fps,
            Key::Home => span.first,
            Key::End => span.last,
            Key::Enter | Key::NumpadEnter => return self.close_timeline(false),
            Key::Escape => return self.close_timeline(true),
            _ => return None,
        };
        self.timeline_go(target.clamp(span.first, span.last))
    }

    /// The pointer's button went down or up while the timeline is open: down on the strip's
    /// track goes to the update under it, and moving with it held drags.
    pub(super) fn timeline_pointer(&mut self, button: Button, down: bool) -> Option<HostAction> {
        let t = self.time_travel.timeline.as_mut()?;
        if !button.intersects(Button::POINTER_A) {
            return None;
        }
        let (x, y) = self.input.pointer();
        let height = self.engine.settings().height;
        t.dragging = down && bt_overlay::on_track(y, height);
        if t.dragging {
            return self.timeline_pointer_at(x);
        }
        None
    }

    /// The pointer moved to column `x` while the timeline is open: a drag goes along.
    pub(super) fn timeline_moved(&mut self, x: i32) -> Option<HostAction> {
        let dragging = self.time_travel.timeline.as_ref()?.dragging;
        dragging.then(|| self.timeline_pointer_at(x)).flatten()
    }

    fn timeline_pointer_at(&mut self, x: i32) -> Option<HostAction> {
        let width = self.engine.settings().width;
        let target = self
            .engine
            .overlay()
            .and_then(|o| o.timeline())
            .map(|t| t.update_at(x, width))?;
        self.timeline_go(target)
    }

    /// Goes to update `target` and shows the strip there.
    fn timeline_go(&mut self, target: u64) -> Option<HostAction> {
        if target != self.engine.updates_since_init() || !self.engine.is_travelling() {
            if let Err(e) = self.engine.travel_to(target) {
                self.show_panic();
                let message = format!("timeline: {e}");
                self.say(format_args!("{message}"));
                self.notice_for_a_while(&message);
                return Some(HostAction::StateFailed(message));
            }
        }
        self.engine.clear_travel_sound();
        self.draw_timeline();
        Some(HostAction::Timeline(self.engine.updates_since_init()))
    }

    /// Puts the strip on the overlay as the engine is now, and draws the frame again.
    fn draw_timeline(&mut self) {
        let Some(span) = self.engine.travel_span() else {
            return;
        };
        let fps = self.engine.settings().target_fps;
        let at = self.engine.updates_since_init();
        let near = (NEAR_MARK_SECONDS * fps) as u64;
        let mut timeline = self
            .engine
            .overlay()
            .and_then(|o| o.timeline().cloned())
            .unwrap_or_default();
        timeline.first = span.first;
        timeline.last = span.last;
        timeline.at = at;
        timeline.fps = fps;
        timeline.marks.clear();
        timeline.label.clear();
        let mut nearest = u64::MAX;
        for (update, tag) in self.engine.travel_marks() {
            if (span.first..=span.last).contains(update) {
                timeline.marks.push(*update);
                let distance = update.abs_diff(at);
                if distance <= near && distance < nearest {
                    nearest = distance;
                    timeline.label.clone_from(&tag.label);
                }
            }
        }
        self.engine.overlay_forced().set_timeline(Some(timeline));
        let _ = self.engine.redraw();
    }

    /// Closes the timeline: play goes on from the update shown, unless the run was paused
    /// when it opened; with `back`, from the update it opened at.
    fn close_timeline(&mut self, back: bool) -> Option<HostAction> {
        let open = self.time_travel.timeline.take()?;
        if back && self.engine.updates_since_init() != open.opened_at {
            let _ = self.engine.travel_to(open.opened_at);
            self.engine.clear_travel_sound();
        }
        if let Some(o) = self.engine.overlay_mut() {
            o.set_timeline(None);
        }
        let _ = self.engine.redraw();
        if !open.was_paused && self.menu.is_none() {
            self.engine.resume();
        }
        self.show_paused();
        Some(HostAction::TimelineClosed(self.engine.updates_since_init()))
    }
}
