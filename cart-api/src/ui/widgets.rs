//! The widgets: what each does with this update's input, and the records it leaves to draw.

use std::fmt::{self, Write};
use std::ops::RangeInclusive;

use super::input::Nav;
use super::number::{clamp_to, ends};
use super::record::{Kind, Record, EDITING, FOCUSED, HELD, HOT, INTEGER, ON};
use super::{ListState, Response, Ui, UiNumber, TOOLTIP_TICKS};
use crate::limits::{GLYPH_ADVANCE, LINE_HEIGHT};
use crate::{Font, Rect, TextStyle};

/// A widget's height: the system font's line and a pixel above and below it.
pub(super) const WIDGET_HEIGHT: i32 = LINE_HEIGHT + 2;
/// A list row's height: one line of text.
pub(super) const ROW_HEIGHT: i32 = LINE_HEIGHT;
/// A check box's side, and a colour swatch's.
pub(super) const BOX: i32 = 10;
/// The width of a number field's arrow at either end.
pub(super) const ARROW: i32 = 10;
/// Presses of a slider's arrow from one end of its range to the other.
const SLIDER_STEPS: f64 = 20.0;

/// What the pointer and the focus do to one widget in this update.
struct Hit {
    id: u16,
    rect: Rect,
    hot: bool,
    focused: bool,
    held: bool,
    /// The pointer pressed it in this update.
    pressed: bool,
    /// The pointer let go over it after pressing it.
    clicked: bool,
    /// The pointer pressed it and is still down.
    dragging: bool,
}

impl Hit {
    fn response(&self, clicked: bool, changed: bool) -> Response {
        Response {
            clicked,
            changed,
            submitted: false,
            hovered: self.hot,
            focused: self.focused,
            pressed: self.pressed,
            held: self.dragging,
        }
    }
}

/// Counts the characters something prints, to size a widget before its text is kept.
#[derive(Default)]
struct Chars(i32);

impl Write for Chars {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = self.0.saturating_add(s.chars().count() as i32);
        Ok(())
    }
}

pub(super) fn printed_width(value: impl fmt::Display) -> i32 {
    let mut chars = Chars::default();
    let _ = write!(chars, "{value}");
    chars.0.saturating_mul(GLYPH_ADVANCE)
}

/// How a value prints beside a slider or in a number field: whole numbers as they are,
/// fractions to two places.
pub(super) struct Value {
    pub value: f64,
    pub integer: bool,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.integer {
            write!(f, "{}", self.value as i64)
        } else {
            write!(f, "{:.2}", self.value)
        }
    }
}

impl Ui {
    fn text_width(&self, range: (u32, u32)) -> i32 {
        Font::system()
            .measure(self.records.str(range), TextStyle::new())
            .0 as i32
    }

    /// Places a focusable widget `w` (or the width asked for) by `h`, hit-tested over its
    /// first `hit_w` pixels (all of it when `None`), and sees what the pointer does to it.
    fn widget(&mut self, w: i32, h: i32, hit_w: Option<i32>) -> Hit {
        let w = self.next_width.take().unwrap_or(w);
        let rect = self.layout.place(w, h);
        let id = self.count;
        self.count = self.count.saturating_add(1);
        let target = Rect::new(rect.x, rect.y, hit_w.unwrap_or(rect.w).min(rect.w), rect.h);
        let hot = self.input.over(target);
        if hot {
            self.hot = Some(id);
        }
        let pressed = hot && self.input.press && !self.claimed;
        if pressed {
            self.claimed = true;
            self.held = Some(id);
            self.set_focus(Some(id), false);
        }
        let held = self.held == Some(id);
        self.last = Some((id, rect));
        Hit {
            id,
            rect,
            hot,
            focused: self.focus == Some(id),
            held,
            pressed,
            clicked: held && self.input.release && hot,
            dragging: held && self.input.down,
        }
    }

    /// Whether Enter, Space, A or Start pressed the focused widget `hit`.
    fn activated(&mut self, hit: &Hit) -> bool {
        hit.focused && self.nav.take(Nav::ACTIVATE)
    }

    fn state(&self, hit: &Hit) -> u8 {
        let mut state = 0;
        if hit.hot {
            state |= HOT;
        }
        if hit.focused {
            state |= FOCUSED;
        }
        if hit.held && self.input.down {
            state |= HELD;
        }
        state
    }

    fn record(&self, kind: Kind, hit: &Hit, text: (u32, u32)) -> Record {
        let mut r = Record::new(kind, hit.rect);
        r.state = self.state(hit);
        r.text = text;
        r
    }

    /// Text on its own: a heading, a value, a hint. It takes no focus.
    pub fn label(&mut self, text: impl fmt::Display) {
        let text = self.records.write(text);
        let w = self.next_width.take().unwrap_or(self.text_width(text));
        let rect = self.layout.place(w, WIDGET_HEIGHT);
        let mut r = Record::new(Kind::Label, rect);
        r.text = text;
        self.records.push(r);
    }

    /// A push button showing `label`; [`Response::clicked`] says it was pressed.
    pub fn button(&mut self, label: impl fmt::Display) -> Response {
        let text = self.records.write(label);
        let w = self.text_width(text) + 2 * self.theme.padding;
        let hit = self.widget(w, WIDGET_HEIGHT, None);
        let clicked = hit.clicked || self.activated(&hit);
        let r = self.record(Kind::Button, &hit, text);
        self.records.push(r);
        hit.response(clicked, false)
    }

    /// A focusable area `w` by `h` that the cart draws itself (a canvas, a grid, a map),
    /// hit-tested with the widgets: a press that a widget declared before it took is not the
    /// region's, and a press on it is not a press on nothing. A press gives it the focus;
    /// while it has the focus it takes the arrows, the d-pad, Enter, Space, A and Start, for
    /// the cart to read itself, and Tab, Shift+Tab, L and R move the focus on. Its response
    /// says where the pointer is ([`Response::hovered`], [`Response::pressed`],
    /// [`Response::held`] for a drag begun on it); the kit draws only its focus ring.
    pub fn region(&mut self, w: i32, h: i32) -> Response {
        let hit = self.widget(w, h, None);
        if hit.focused {
            for nav in [
                Nav::UP,
                Nav::DOWN,
                Nav::LEFT,
                Nav::RIGHT,
                Nav::ACTIVATE,
                Nav::ENTER,
            ] {
                self.nav.take(nav);
            }
        }
        let r = self.record(Kind::Region, &hit, (0, 0));
        self.records.push(r);
        hit.response(hit.clicked, false)
    }

    /// A check box: a click, or Enter, Space or A while focused, turns `value` over.
    pub fn checkbox(&mut self, label: impl fmt::Display, value: &mut bool) -> Response {
        let text = self.records.write(label);
        let w = BOX + self.theme.padding + self.text_width(text);
        let hit = self.widget(w, WIDGET_HEIGHT, None);
        let clicked = hit.clicked || self.activated(&hit);
        if clicked {
            *value = !*value;
        }
        let mut r = self.record(Kind::Checkbox, &hit, text);
        if *value {
            r.state |= ON;
        }
        self.records.push(r);
        hit.response(clicked, clicked)
    }

    /// A slider for `value` in `range`, its label and value printed after it. The pointer sets
    /// it by pressing or dragging on the track; left and right (or the wheel over it) move it a
    /// twentieth of the range (at least 1 for whole numbers). The value is kept in the range;
    /// a reversed range counts as the same range in order, and an end that is not finite as 0.
    pub fn slider<T: UiNumber>(
        &mut self,
        label: impl fmt::Display,
        value: &mut T,
        range: RangeInclusive<T>,
    ) -> Response {
        let (lo, hi) = ends(*range.start(), *range.end());
        let text = self.records.write(label);
        let track = self.next_width.take().unwrap_or(self.theme.field_width);
        let value_w = printed_width(Value {
            value: lo,
            integer: T::INTEGER,
        })
        .max(printed_width(Value {
            value: hi,
            integer: T::INTEGER,
        }));
        let pad = self.theme.padding;
        let label_w = self.text_width(text);
        let w = track + pad + label_w + GLYPH_ADVANCE + value_w;
        let hit = self.widget(w, WIDGET_HEIGHT, Some(track));
        let mut v = clamp_to(value.to_f64(), lo, hi);
        let step = if T::INTEGER {
            ((hi - lo) / SLIDER_STEPS).round().max(1.0)
        } else {
            (hi - lo) / SLIDER_STEPS
        };
        if hit.held && (self.input.down || self.input.release) {
            let along = f64::from(self.input.pointer.0 - hit.rect.x);
            let t = (along / f64::from((track - 1).max(1))).clamp(0.0, 1.0);
            v = lo + t * (hi - lo);
        }
        self.step_number(Kind::Slider, &hit, text, value, v, step, (lo, hi), track)
    }

    /// Sets `value` to `v` (rounded for whole numbers); whether it changed.
    fn set_number<T: UiNumber>(&mut self, value: &mut T, v: f64) -> bool {
        let new = T::from_f64(v);
        let changed = new.partial_cmp(value) != Some(std::cmp::Ordering::Equal);
        *value = new;
        changed
    }

    /// A number field for `value` in `range`: `<` and `>` at its ends (a press on either), left
    /// and right while focused, and the wheel over it, take `step` off or add it. The value is
    /// kept in the range as for [`Ui::slider`]; a step that is not finite counts as 0.
    pub fn number<T: UiNumber>(
        &mut self,
        label: impl fmt::Display,
        value: &mut T,
        range: RangeInclusive<T>,
        step: T,
    ) -> Response {
        let (lo, hi) = ends(*range.start(), *range.end());
        let step = step.to_f64();
        let step = if step.is_finite() { step.abs() } else { 0.0 };
        let text = self.records.write(label);
        let value_w = printed_width(Value {
            value: lo,
            integer: T::INTEGER,
        })
        .max(printed_width(Value {
            value: hi,
            integer: T::INTEGER,
        }));
        let field = self
            .next_width
            .take()
            .unwrap_or(value_w + 2 * ARROW + 2 * self.theme.padding);
        let w = field + self.theme.padding + self.text_width(text);
        let hit = self.widget(w, WIDGET_HEIGHT, Some(field));
        let mut v = clamp_to(value.to_f64(), lo, hi);
        if hit.pressed {
            let x = self.input.pointer.0 - hit.rect.x;
            if x < ARROW {
                v -= step;
            } else if x >= field - ARROW {
                v += step;
            }
        }
        self.step_number(Kind::Number, &hit, text, value, v, step, (lo, hi), field)
    }

    /// What a slider and a number field share after the pointer: left and right while focused
    /// and the wheel over it move `v` by `step`; then `value` takes it, kept within `lo..=hi`,
    /// and the widget is recorded with its track or field `width`.
    #[allow(clippy::too_many_arguments)]
    fn step_number<T: UiNumber>(
        &mut self,
        kind: Kind,
        hit: &Hit,
        text: (u32, u32),
        value: &mut T,
        mut v: f64,
        step: f64,
        (lo, hi): (f64, f64),
        width: i32,
    ) -> Response {
        if hit.focused {
            if self.nav.take(Nav::LEFT) {
                v -= step;
            }
            if self.nav.take(Nav::RIGHT) {
                v += step;
            }
        }
        if hit.hot && self.input.wheel != 0.0 {
            v += step * f64::from(self.input.wheel);
        }
        let changed = self.set_number(value, clamp_to(v, lo, hi));
        let mut r = self.record(kind, hit, text);
        (r.value, r.min, r.max) = (value.to_f64(), lo, hi);
        r.n[3] = width;
        if T::INTEGER {
            r.state |= INTEGER;
        }
        self.records.push(r);
        hit.response(false, changed)
    }

    /// A one-line text field for `value`, its label after it. A click, or Enter, Space or A
    /// while focused, starts editing: typed text goes in at the caret (up to `max_chars`
    /// characters), Backspace and Delete take characters out, left, right, Home and End move
    /// the caret. Enter (or A) ends the editing with [`Response::submitted`]; Escape, B, Tab, a
    /// click elsewhere end it too. The first edit reserves room for `max_chars` characters in
    /// `value`, so typing allocates nothing after it.
    pub fn text_field(
        &mut self,
        label: impl fmt::Display,
        value: &mut String,
        max_chars: usize,
    ) -> Response {
        let text = self.records.write(label);
        let field = self.next_width.take().unwrap_or(self.theme.field_width);
        let w = field + self.theme.padding + self.text_width(text);
        let hit = self.widget(w, WIDGET_HEIGHT, Some(field));
        let chars = value.chars().count();
        let (mut changed, mut submitted) = (false, false);
        if self.editing == Some(hit.id) && !self.edit_began {
            let caret = self.caret.min(chars);
            (changed, submitted) = self.edit(value, caret, max_chars);
        } else if self.editing != Some(hit.id) && (hit.pressed || self.activated(&hit)) {
            self.editing = Some(hit.id);
            self.edit_began = true;
            value.reserve(max_chars.saturating_mul(4).saturating_sub(value.len()));
            self.caret = if hit.pressed {
                let x = self.input.pointer.0 - hit.rect.x - self.theme.padding;
                usize::try_from((x + GLYPH_ADVANCE / 2) / GLYPH_ADVANCE)
                    .unwrap_or(0)
                    .min(chars)
            } else {
                chars
            };
        } else if self.editing == Some(hit.id) && hit.pressed {
            let x = self.input.pointer.0 - hit.rect.x - self.theme.padding;
            self.caret = usize::try_from((x + GLYPH_ADVANCE / 2) / GLYPH_ADVANCE)
                .unwrap_or(0)
                .min(chars);
        }
        let mut r = self.record(Kind::TextField, &hit, text);
        let shown = self.records.write(&*value);
        let caret = if self.editing == Some(hit.id) {
            r.state |= EDITING;
            self.caret.min(i32::MAX as usize) as i32
        } else {
            0
        };
        r.n = [caret, shown.0 as i32, shown.1 as i32, field];
        // A record that does not fit takes its label and the text with it.
        self.records.push(r);
        Response {
            submitted,
            ..hit.response(false, changed)
        }
    }

    /// One update of editing `value` with the caret at `caret`: whether the text changed, and
    /// whether Enter ended the editing.
    fn edit(&mut self, value: &mut String, mut caret: usize, max_chars: usize) -> (bool, bool) {
        let byte_at = |s: &String, c: usize| s.char_indices().nth(c).map_or(s.len(), |(i, _)| i);
        let mut changed = false;
        let mut count = value.chars().count();
        if self.nav.take(Nav::BACKSPACE) && caret > 0 {
            caret -= 1;
            value.remove(byte_at(value, caret));
            count -= 1;
            changed = true;
        }
        if self.nav.take(Nav::DELETE) && caret < count {
            value.remove(byte_at(value, caret));
            count -= 1;
            changed = true;
        }
        if self.nav.take(Nav::LEFT) {
            caret = caret.saturating_sub(1);
        }
        if self.nav.take(Nav::RIGHT) {
            caret = (caret + 1).min(count);
        }
        if self.nav.take(Nav::HOME) {
            caret = 0;
        }
        if self.nav.take(Nav::END) {
            caret = count;
        }
        for c in self.input.text.chars() {
            if count >= max_chars {
                break;
            }
            value.insert(byte_at(value, caret), c);
            caret += 1;
            count += 1;
            changed = true;
        }
        self.caret = caret;
        let submitted = self.nav.take(Nav::ENTER) | self.nav.take(Nav::ACTIVATE);
        if submitted || self.nav.take(Nav::CANCEL) {
            self.editing = None;
        }
        (changed, submitted)
    }

    /// A list of `items` showing `rows` of them at a time, with a scroll bar when they do not
    /// all fit. A press on a row selects it, and letting go over it is [`Response::clicked`];
    /// up and down while focused move the selection (past the first or last row they move the
    /// focus on), Enter, Space or A click the selected row, and the wheel over it scrolls.
    /// A selection past the items moves to the last one.
    pub fn list<T: fmt::Display>(
        &mut self,
        state: &mut ListState,
        items: &[T],
        rows: usize,
    ) -> Response {
        let rows = rows.clamp(1, 1024);
        let n = items.len();
        let h = rows as i32 * ROW_HEIGHT + 2;
        let hit = self.widget(self.theme.field_width, h, None);
        if state.selected.is_some_and(|s| s >= n) {
            state.selected = n.checked_sub(1);
        }
        let max_scroll = n.saturating_sub(rows);
        state.scroll = state.scroll.min(max_scroll);
        let before = state.selected;
        let mut clicked = false;
        if hit.hot && self.input.wheel != 0.0 {
            let lines = f64::from(self.input.wheel).trunc().clamp(-1e6, 1e6) as i64;
            let scroll = (state.scroll as i64 - lines).clamp(0, max_scroll as i64);
            state.scroll = scroll as usize;
        }
        let row_at = |y: i32| {
            let row = (y - hit.rect.y - 1).div_euclid(ROW_HEIGHT);
            usize::try_from(row).ok().filter(|&r| r < rows)
        };
        let pointed = row_at(self.input.pointer.1)
            .map(|r| state.scroll + r)
            .filter(|&i| i < n);
        if hit.pressed {
            if let Some(i) = pointed {
                state.selected = Some(i);
            }
        }
        if hit.clicked && pointed.is_some() && pointed == state.selected {
            clicked = true;
        }
        if hit.focused && n > 0 {
            if self.nav.has(Nav::UP) && state.selected != Some(0) {
                self.nav.take(Nav::UP);
                state.selected = Some(state.selected.map_or(0, |s| s - 1));
            }
            if self.nav.has(Nav::DOWN) && state.selected != Some(n - 1) {
                self.nav.take(Nav::DOWN);
                state.selected = Some(state.selected.map_or(0, |s| s + 1));
            }
            if state.selected.is_some() && self.activated(&hit) {
                clicked = true;
            }
            if let Some(s) = state.selected.filter(|_| state.selected != before) {
                if s < state.scroll {
                    state.scroll = s;
                } else if s >= state.scroll + rows {
                    state.scroll = s + 1 - rows;
                }
            }
        }
        let mut r = self.record(Kind::List, &hit, (0, 0));
        r.n = [
            n.min(i32::MAX as usize) as i32,
            state.scroll.min(i32::MAX as usize) as i32,
            rows as i32,
            0,
        ];
        self.records.push(r);
        let shown = items.iter().enumerate().skip(state.scroll).take(rows);
        for (row, (i, item)) in shown.enumerate() {
            let y = hit.rect.y + 1 + row as i32 * ROW_HEIGHT;
            let row_rect = Rect::new(hit.rect.x + 1, y, hit.rect.w - 2, ROW_HEIGHT);
            let mut r = Record::new(Kind::ListRow, row_rect);
            r.text = self.records.write(item);
            if state.selected == Some(i) {
                r.state |= ON;
            }
            if hit.hot && pointed == Some(i) {
                r.state |= HOT;
            }
            self.records.push(r);
        }
        hit.response(clicked, state.selected != before)
    }

    /// A row of tabs showing `labels`, the one at `selected` chosen: a press on a tab, or left
    /// and right while focused, chooses another. A `selected` past the tabs moves to the last.
    pub fn tabs<T: fmt::Display>(&mut self, selected: &mut usize, labels: &[T]) -> Response {
        let pad = self.theme.padding;
        let widths = |label: &T| printed_width(label) + 2 * pad;
        let w: i32 = labels.iter().map(widths).fold(0, i32::saturating_add);
        let hit = self.widget(w, WIDGET_HEIGHT, None);
        let n = labels.len();
        if *selected >= n {
            *selected = n.saturating_sub(1);
        }
        let before = *selected;
        if hit.pressed {
            let mut x = hit.rect.x;
            for (i, label) in labels.iter().enumerate() {
                let right = x + widths(label);
                if self.input.pointer.0 < right {
                    *selected = i;
                    break;
                }
                x = right;
            }
        }
        if hit.focused && n > 0 {
            if self.nav.has(Nav::LEFT) && *selected > 0 {
                self.nav.take(Nav::LEFT);
                *selected -= 1;
            }
            if self.nav.has(Nav::RIGHT) && *selected + 1 < n {
                self.nav.take(Nav::RIGHT);
                *selected += 1;
            }
        }
        let r = self.record(Kind::Tabs, &hit, (0, 0));
        self.records.push(r);
        let mut x = hit.rect.x;
        for (i, label) in labels.iter().enumerate() {
            let text = self.records.write(label);
            let tw = self.text_width(text) + 2 * pad;
            let mut r = Record::new(Kind::Tab, Rect::new(x, hit.rect.y, tw, hit.rect.h));
            r.text = text;
            if i == *selected {
                r.state |= ON;
            }
            if hit.hot && (x..x + tw).contains(&self.input.pointer.0) {
                r.state |= HOT;
            }
            self.records.push(r);
            x += tw;
        }
        hit.response(false, *selected != before)
    }

    /// A grid of colour swatches for palette indices `colors`, `per_row` a row, the one equal
    /// to `selected` outlined: a press on a swatch, or the arrows while focused, choose another.
    pub fn swatches(
        &mut self,
        selected: &mut u8,
        colors: RangeInclusive<u8>,
        per_row: usize,
    ) -> Response {
        let (first, last) = if colors.start() <= colors.end() {
            (*colors.start(), *colors.end())
        } else {
            (*colors.end(), *colors.start())
        };
        let count = i32::from(last - first) + 1;
        let per_row = per_row.clamp(1, count as usize) as i32;
        let rows = (count + per_row - 1) / per_row;
        let cell = BOX + 1;
        let hit = self.widget(per_row * cell + 1, rows * cell + 1, None);
        let before = *selected;
        if hit.pressed {
            let cx = (self.input.pointer.0 - hit.rect.x - 1).div_euclid(cell);
            let cy = (self.input.pointer.1 - hit.rect.y - 1).div_euclid(cell);
            let i = cy * per_row + cx;
            if (0..per_row).contains(&cx) && (0..count).contains(&i) {
                *selected = first + i as u8;
            }
        }
        if hit.focused {
            let at = i32::from(*selected) - i32::from(first);
            let inside = (0..count).contains(&at);
            for (nav, by) in [
                (Nav::LEFT, -1),
                (Nav::RIGHT, 1),
                (Nav::UP, -per_row),
                (Nav::DOWN, per_row),
            ] {
                let to = if inside { at + by } else { 0 };
                if self.nav.has(nav) && (0..count).contains(&to) {
                    self.nav.take(nav);
                    *selected = first + to as u8;
                    break;
                }
            }
        }
        let mut r = self.record(Kind::Swatches, &hit, (0, 0));
        r.n = [i32::from(first), count, per_row, 0];
        r.value = f64::from(*selected);
        self.records.push(r);
        hit.response(false, *selected != before)
    }

    /// A tooltip for the widget declared just before: shown once the pointer has rested on it
    /// for [`TOOLTIP_TICKS`] updates, or the keyboard or gamepad focus has stayed on it as
    /// long. It goes below the widget (above it near the display's bottom), inside the display.
    pub fn tooltip(&mut self, text: impl fmt::Display) {
        let Some((id, widget)) = self.last else {
            return;
        };
        let hovered =
            self.hot == Some(id) && self.hover == Some(id) && self.hover_ticks >= TOOLTIP_TICKS;
        let focused =
            self.focus == Some(id) && self.focus_by_nav && self.focus_ticks >= TOOLTIP_TICKS;
        if !(hovered || focused) {
            return;
        }
        let text = self.records.write(text);
        let w = self.text_width(text) + 2 * self.theme.padding;
        let (dw, dh) = self.input.display;
        let below = widget.bottom() + 2;
        let y = if below + WIDGET_HEIGHT <= dh {
            below
        } else {
            widget.y - WIDGET_HEIGHT - 2
        };
        let x = widget.x.min(dw - w).max(0);
        let mut r = Record::new(Kind::Tooltip, Rect::new(x, y.max(0), w, WIDGET_HEIGHT));
        r.text = text;
        self.records.push(r);
    }
}
