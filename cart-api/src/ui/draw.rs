//! `render`'s half: drawing what the last update declared.

use super::record::{Kind, Record, EDITING, FOCUSED, HELD, HOT, INTEGER, ON};
use super::widgets::{printed_width, Value, ARROW, BOX, ROW_HEIGHT};
use super::{Theme, Ui};
use crate::limits::GLYPH_ADVANCE;
use crate::{Font, Rect, Render, TextStyle};

/// Rows of blank pixels above a glyph's ink in the system font's line: text sits one pixel
/// into a widget so that its ink is centred in the widget's height.
const TEXT_TOP: i32 = 1;

impl Ui {
    /// Draws the widgets the last update declared, over what the cart has drawn, tooltips
    /// last. Draw state (camera, clip) is the cart's: the widgets go where they were laid out,
    /// moved by the camera like any drawing, and the clip is put back as it was.
    pub fn draw(&self, ctx: &mut Render<'_>) {
        for r in self.records.list.iter().filter(|r| r.kind != Kind::Tooltip) {
            self.draw_one(ctx, r);
        }
        for r in self.records.list.iter().filter(|r| r.kind == Kind::Tooltip) {
            self.draw_one(ctx, r);
        }
    }

    fn draw_one(&self, ctx: &mut Render<'_>, r: &Record) {
        let t = &self.theme;
        let text = self.records.str(r.text);
        let Rect { x, y, w, h } = r.rect;
        let ty = y + TEXT_TOP;
        match r.kind {
            Kind::Label => ctx.print(x, ty, text, t.text),
            Kind::Button => {
                ctx.draw_rect_fill(r.rect, face(t, r));
                ctx.draw_rect(r.rect, t.edge);
                let tw = Font::system().measure(text, TextStyle::new()).0 as i32;
                ctx.print(x + (w - tw) / 2, ty, text, t.text);
            }
            Kind::Checkbox => {
                let b = Rect::new(x, y + (h - BOX) / 2, BOX, BOX);
                ctx.draw_rect_fill(b, if r.has(HOT) { t.face_hot } else { t.field });
                ctx.draw_rect(b, t.edge);
                if r.has(ON) {
                    ctx.draw_rect_fill(Rect::new(b.x + 2, b.y + 2, BOX - 4, BOX - 4), t.accent);
                }
                ctx.print(x + BOX + t.padding, ty, text, t.text);
            }
            Kind::Slider => {
                let track = r.n[3];
                let span = r.max - r.min;
                let frac = if span > 0.0 {
                    (r.value - r.min) / span
                } else {
                    0.0
                };
                let knob = x + (frac * f64::from((track - 1).max(0))).round() as i32;
                let mid = y + h / 2;
                ctx.draw_rect_fill(Rect::new(x, mid - 1, track, 3), t.edge);
                ctx.draw_rect_fill(Rect::new(x, mid - 1, knob - x + 1, 3), t.accent);
                let knob_face = if r.has(HELD) || r.has(HOT) {
                    t.face_hot
                } else {
                    t.text
                };
                ctx.draw_rect_fill(Rect::new(knob - 1, y + 2, 3, h - 4), knob_face);
                let value = Value {
                    value: r.value,
                    integer: r.has(INTEGER),
                };
                let lx = x + track + t.padding;
                ctx.print(lx, ty, format_args!("{text} {value}"), t.text);
            }
            Kind::Number => {
                let field = r.n[3];
                let f = Rect::new(x, y, field, h);
                ctx.draw_rect_fill(f, t.field);
                ctx.draw_rect(f, t.edge);
                let arrow = |ctx: &mut Render<'_>, ax: i32, c: char| {
                    ctx.draw_rect_fill(Rect::new(ax, y + 1, ARROW - 1, h - 2), face(t, r));
                    ctx.print(ax + (ARROW - 1 - GLYPH_ADVANCE) / 2 + 1, ty, c, t.text);
                };
                arrow(ctx, x + 1, '<');
                arrow(ctx, x + field - ARROW, '>');
                let value = Value {
                    value: r.value,
                    integer: r.has(INTEGER),
                };
                let vw = printed_width(&value);
                ctx.print(x + (field - vw) / 2, ty, value, t.text);
                ctx.print(x + field + t.padding, ty, text, t.text);
            }
            Kind::TextField => {
                let [caret, start, end, field] = r.n;
                let f = Rect::new(x, y, field, h);
                ctx.draw_rect_fill(f, t.field);
                ctx.draw_rect(f, if r.has(EDITING) { t.focus } else { t.edge });
                let value = self.records.str((start as u32, end as u32));
                let inner = Rect::new(x + 1, y + 1, field - 2, h - 2);
                // Scrolled so that the caret shows in a text longer than the field.
                let room = field - 2 * t.padding - 1;
                let scroll = (caret * GLYPH_ADVANCE - room).max(0);
                let tx = x + t.padding - scroll;
                clipped(ctx, inner, |ctx| {
                    ctx.print(tx, ty, value, t.text);
                    if r.has(EDITING) {
                        let cx = tx + caret * GLYPH_ADVANCE - 1;
                        ctx.draw_line((cx, y + 2), (cx, y + h - 3), t.focus);
                    }
                });
                ctx.print(x + field + t.padding, ty, text, t.text);
            }
            Kind::List => {
                ctx.draw_rect_fill(r.rect, t.field);
                ctx.draw_rect(r.rect, t.edge);
                let [count, scroll, rows, _] = r.n;
                if count > rows {
                    let track = Rect::new(x + w - 4, y + 1, 3, h - 2);
                    ctx.draw_rect_fill(track, t.face);
                    let thumb_h = (track.h * rows / count).max(4);
                    // In i64: a list of millions of items times the track's height.
                    let travel =
                        i64::from(track.h - thumb_h) * i64::from(scroll) / i64::from(count - rows);
                    let thumb_y = track.y + travel as i32;
                    ctx.draw_rect_fill(Rect::new(track.x, thumb_y, 3, thumb_h), t.edge);
                }
            }
            Kind::ListRow => {
                let scrollbar = 4;
                let row = Rect::new(x, y, w - scrollbar, ROW_HEIGHT);
                if r.has(ON) {
                    ctx.draw_rect_fill(row, t.accent);
                } else if r.has(HOT) {
                    ctx.draw_rect_fill(row, t.face);
                }
                clipped(ctx, row, |ctx| ctx.print(x + 2, y, text, t.text));
            }
            Kind::Tabs => {
                ctx.draw_line((x, y + h - 1), (x + w - 1, y + h - 1), t.edge);
            }
            Kind::Tab => {
                let fill = if r.has(ON) {
                    t.accent
                } else if r.has(HOT) {
                    t.face_hot
                } else {
                    t.face
                };
                ctx.draw_rect_fill(Rect::new(x, y, w - 1, h - 1), fill);
                ctx.print(x + t.padding, ty, text, t.text);
            }
            Kind::Swatches => {
                let [first, count, per_row, _] = r.n;
                let cell = BOX + 1;
                for i in 0..count {
                    let (cx, cy) = (x + 1 + (i % per_row) * cell, y + 1 + (i / per_row) * cell);
                    let index = (first + i) as u8;
                    ctx.draw_rect_fill(Rect::new(cx, cy, BOX, BOX), index);
                    if f64::from(index) == r.value {
                        ctx.draw_rect(Rect::new(cx - 1, cy - 1, BOX + 2, BOX + 2), t.text);
                    }
                }
            }
            Kind::Region => {}
            Kind::Tooltip => {
                ctx.draw_rect_fill(r.rect, t.tip_face);
                ctx.draw_rect(r.rect, t.edge);
                ctx.print(x + t.padding, ty, text, t.tip_text);
            }
        }
        if r.has(FOCUSED) {
            ctx.draw_rect(Rect::new(x - 2, y - 2, w + 4, h + 4), t.focus);
        }
    }
}

/// A face's colour: held down, under the pointer, or at rest.
fn face(t: &Theme, r: &Record) -> u8 {
    if r.has(HELD) {
        t.face_down
    } else if r.has(HOT) {
        t.face_hot
    } else {
        t.face
    }
}

/// Draws `draw` with the clip narrowed to `area` (placed through the camera, as widgets are),
/// then puts the cart's clip back.
fn clipped(ctx: &mut Render<'_>, area: Rect, draw: impl FnOnce(&mut Render<'_>)) {
    let clip = ctx.clip();
    let (cx, cy) = ctx.camera();
    let on_screen = Rect::new(area.x - cx, area.y - cy, area.w, area.h);
    ctx.set_clip(intersect(clip, on_screen));
    draw(ctx);
    ctx.set_clip(clip);
}

/// The part of `a` inside `b` (empty when they do not meet).
fn intersect(a: Rect, b: Rect) -> Rect {
    let (x0, y0) = (a.x.max(b.x), a.y.max(b.y));
    let (x1, y1) = (a.right().min(b.right()), a.bottom().min(b.bottom()));
    Rect::new(x0, y0, (x1 - x0).max(0), (y1 - y0).max(0))
}
