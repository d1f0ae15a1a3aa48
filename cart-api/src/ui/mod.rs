//! `bt::ui`: buttons, check boxes, sliders, number and text fields, lists, tabs, tooltips and
//! colour swatches, laid out in rows and columns, for menus and tools inside a cart.
//!
//! The kit is immediate mode and keeps the console's split: the cart declares its widgets in
//! `update`, where the input is, so clicks and key presses are handled there and a replay
//! makes them again; `render` draws what the last update declared. The [`Ui`] value lives in
//! the cart's state, with the widgets' values (`bool`, numbers, `String`, [`ListState`]), so
//! snapshots and rewinding keep the interface as they keep the game. Declared widgets go into
//! buffers of fixed capacity inside the `Ui`: a frame allocates nothing.
//!
//! ```
//! use bt::ui::Ui;
//! use bt::{Cart, Render, Update};
//!
//! #[derive(Clone)]
//! struct Options {
//!     ui: Ui,
//!     music: bool,
//!     volume: i32,
//!     starts: u32,
//! }
//!
//! impl Cart for Options {
//!     fn update(&mut self, ctx: &mut Update<'_>) {
//!         self.ui.frame(ctx, |ui, _ctx| {
//!             ui.checkbox("Music", &mut self.music);
//!             ui.slider("Volume", &mut self.volume, 0..=10);
//!             if ui.button("Start").clicked() {
//!                 self.starts += 1;
//!             }
//!         });
//!     }
//!
//!     fn render(&self, ctx: &mut Render<'_>) {
//!         ctx.clear(1);
//!         self.ui.draw(ctx);
//!     }
//! }
//!
//! // Driven by hand here; a cart's tests use the runtime's `CartTest`.
//! use bt::host::Console;
//! use bt::{Button, Key, Player, Settings};
//!
//! let mut con = Console::new(&Settings::default(), 0);
//! let mut cart = Options { ui: Ui::new(), music: false, volume: 5, starts: 0 };
//! cart.update(&mut con.update_context(0));
//! // Tab to the check box, Space ticks it.
//! con.input_mut().set_key(Key::Tab, true);
//! cart.update(&mut con.update_context(1));
//! con.input_mut().set_key(Key::Tab, false);
//! con.input_mut().set_key(Key::Space, true);
//! cart.update(&mut con.update_context(2));
//! assert!(cart.music);
//! // A click on the button: pressed and released over it.
//! let start = cart.ui.rect_of(2).unwrap();
//! con.input_mut().set_pointer_pos(start.x + 2, start.y + 2);
//! con.input_mut().set_buttons(Button::POINTER_A, Player::ONE, true);
//! cart.update(&mut con.update_context(3));
//! con.input_mut().set_buttons(Button::POINTER_A, Player::ONE, false);
//! cart.update(&mut con.update_context(4));
//! assert_eq!(cart.starts, 1);
//! ```
//!
//! Keyboard and gamepad: Tab and Shift+Tab, the arrows or the d-pad move the focus (a yellow
//! ring); Enter, Space, A or Start press the focused widget; left and right move sliders,
//! numbers, tabs and swatches, up and down a list's selection. A text field takes typed text
//! once pressed (or clicked), until Enter, Escape or Tab. See `docs/ui.md`.

mod draw;
mod input;
mod layout;
mod number;
mod record;
mod theme;
mod widgets;

#[cfg(test)]
mod tests;

pub use number::UiNumber;
pub use theme::Theme;

use crate::{Rect, Update};
use input::{FrameInput, Nav};
use layout::Layout;
use record::Records;

/// Widget parts a [`Ui::new`] keeps for one update: a screen of widgets with lists and tabs.
pub const DEFAULT_RECORDS: usize = 128;
/// Bytes of label text a [`Ui::new`] keeps for one update: 128 widgets of 32 characters.
pub const DEFAULT_TEXT_BYTES: usize = 4096;
/// Updates the pointer rests on a widget (or the focus stays on it) before its tooltip shows:
/// half a second at 60 updates a second, long enough not to flash up while passing over.
pub const TOOLTIP_TICKS: u32 = 30;

/// What happened to a widget in this update.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Response {
    clicked: bool,
    changed: bool,
    submitted: bool,
    hovered: bool,
    focused: bool,
    pressed: bool,
    held: bool,
}

impl Response {
    /// Pressed: the pointer released over it after pressing it, or Enter, Space, A or Start
    /// while it had the focus. For a list, its selected row was clicked or pressed.
    pub fn clicked(&self) -> bool {
        self.clicked
    }

    /// Its value changed in this update (by the player: a cart's own change is not counted).
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// A text field's editing ended with Enter.
    pub fn submitted(&self) -> bool {
        self.submitted
    }

    /// The pointer is over it.
    pub fn hovered(&self) -> bool {
        self.hovered
    }

    /// It has the keyboard and gamepad focus.
    pub fn focused(&self) -> bool {
        self.focused
    }

    /// The pointer pressed it in this update (no widget declared before it took the press).
    pub fn pressed(&self) -> bool {
        self.pressed
    }

    /// The pointer pressed it and is still down, wherever it is now: a drag that began on it.
    pub fn held(&self) -> bool {
        self.held
    }
}

/// A list's selected row and the first row it shows, kept in the cart's state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ListState {
    /// The selected item, if any.
    pub selected: Option<usize>,
    /// The first item shown.
    pub scroll: usize,
}

/// A user interface: the widgets the cart declared in its last update, and what the kit keeps
/// from one update to the next (the focus, the widget the pointer holds, the text caret).
///
/// Keep one in the cart's state, declare the widgets in `update` inside [`Ui::frame`], and call
/// [`Ui::draw`] in `render`. Widgets are known by the order they are declared in, so declare
/// the same widgets in the same order from one update to the next (a tab's widgets change with
/// the tab, which is fine: the focus stays at the same place in the order).
#[derive(Debug, Clone)]
pub struct Ui {
    theme: Theme,
    records: Records,
    layout: Layout,
    input: FrameInput,
    /// Navigation presses not yet taken by a widget in this update.
    nav: Nav,
    /// The width [`Ui::width`] asked for the next widget.
    next_width: Option<i32>,
    /// Focusable widgets declared so far in this update; the next one's id.
    count: u16,
    /// Widgets declared in the last update.
    last_count: u16,
    /// The widget under the pointer in this update.
    hot: Option<u16>,
    /// Whether a widget took this update's pointer press.
    claimed: bool,
    /// The last widget declared and its rectangle, for a tooltip.
    last: Option<(u16, Rect)>,
    focus: Option<u16>,
    /// Whether the focus came from the keyboard or a gamepad (its tooltip shows).
    focus_by_nav: bool,
    focus_ticks: u32,
    hover: Option<u16>,
    hover_ticks: u32,
    /// The widget the pointer pressed and still holds.
    held: Option<u16>,
    /// The text field taking typed text, and its caret in characters.
    editing: Option<u16>,
    caret: usize,
    /// Whether editing began in this update (its text waits for the next).
    edit_began: bool,
    /// Whether keys and the gamepad are left alone: see [`Ui::set_pointer_only`].
    pointer_only: bool,
}

impl Default for Ui {
    fn default() -> Ui {
        Ui::new()
    }
}

impl Ui {
    /// A user interface with room for [`DEFAULT_RECORDS`] widget parts and
    /// [`DEFAULT_TEXT_BYTES`] bytes of text an update, and the default [`Theme`].
    pub fn new() -> Ui {
        Ui::with_capacity(DEFAULT_RECORDS, DEFAULT_TEXT_BYTES)
    }

    /// A user interface with room for `records` widget parts (a widget is one; a list adds
    /// one a row shown, tabs one a tab, a tooltip one) and `text_bytes` bytes of text an
    /// update. Widgets past the room still work but are not drawn ([`Ui::dropped`] counts
    /// them); text past it is cut.
    pub fn with_capacity(records: usize, text_bytes: usize) -> Ui {
        Ui {
            theme: Theme::default(),
            records: Records::new(records, text_bytes),
            layout: Layout::new(),
            input: FrameInput::new(),
            nav: Nav::default(),
            next_width: None,
            count: 0,
            last_count: 0,
            hot: None,
            claimed: false,
            last: None,
            focus: None,
            focus_by_nav: false,
            focus_ticks: 0,
            hover: None,
            hover_ticks: 0,
            held: None,
            editing: None,
            caret: 0,
            edit_began: false,
            pointer_only: false,
        }
    }

    /// The looks.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// With `on`, the widgets answer the pointer (and touches) alone: keys and the gamepad
    /// neither move the focus nor work a widget. For a tool whose keys all have jobs of their
    /// own (an editor's arrows move its cursor, not the focus).
    pub fn set_pointer_only(&mut self, on: bool) {
        self.pointer_only = on;
    }

    /// The looks, to change.
    pub fn theme_mut(&mut self) -> &mut Theme {
        &mut self.theme
    }

    /// Declares this update's widgets: `declare` is handed the `Ui` (and the context back, to
    /// play a sound on a click, say). Widgets go in a column from the display's top-left
    /// corner (inset by the theme's padding) unless placed with [`Ui::area`]. Once `declare`
    /// returns, the arrows, Tab or d-pad presses no widget took move the focus.
    pub fn frame<R>(
        &mut self,
        ctx: &mut Update<'_>,
        declare: impl FnOnce(&mut Ui, &mut Update<'_>) -> R,
    ) -> R {
        self.begin(ctx);
        let out = declare(self, ctx);
        self.end();
        out
    }

    fn begin(&mut self, ctx: &Update<'_>) {
        self.input.read(ctx);
        self.records.clear();
        let pad = self.theme.padding;
        self.layout.reset((pad, pad), self.theme.spacing);
        self.next_width = None;
        self.count = 0;
        self.hot = None;
        self.claimed = false;
        self.last = None;
        self.edit_began = false;
        let editing = self.editing.is_some();
        self.nav = if self.pointer_only {
            Nav::default()
        } else if editing {
            // Keys edit the text; player one's buttons count only when no key is in play, so
            // typing "z" is not button A.
            let pad = if self.input.keys_busy {
                Nav::default()
            } else {
                self.input.pad
            };
            self.input.keys.without(Nav::ACTIVATE).union(pad)
        } else {
            self.input.keys.union(self.input.pad)
        };
    }

    fn end(&mut self) {
        let count = self.count;
        self.last_count = count;
        if self.input.press && !self.claimed {
            // A press on nothing takes the focus away.
            self.set_focus(None, false);
        }
        if self.input.release || !self.input.down {
            self.held = None;
        }
        let mut nav = self.nav;
        let forward = nav.take(Nav::NEXT) | nav.take(Nav::DOWN) | nav.take(Nav::RIGHT);
        let back = nav.take(Nav::PREV) | nav.take(Nav::UP) | nav.take(Nav::LEFT);
        if count > 0 && forward != back {
            let next = match (self.focus, forward) {
                (None, true) => 0,
                (None, false) => count - 1,
                (Some(f), true) => (f + 1) % count,
                (Some(f), false) => (f.min(count - 1) + count - 1) % count,
            };
            self.set_focus(Some(next), true);
        }
        if self.focus.is_some_and(|f| f >= count) {
            self.set_focus(count.checked_sub(1), self.focus_by_nav);
        }
        self.focus_ticks = self.focus_ticks.saturating_add(1);
        if self.hot == self.hover {
            self.hover_ticks = self.hover_ticks.saturating_add(1);
        } else {
            // This update is the first the pointer rested on it.
            self.hover = self.hot;
            self.hover_ticks = 1;
        }
    }

    fn set_focus(&mut self, focus: Option<u16>, by_nav: bool) {
        if self.focus != focus {
            self.focus_ticks = 0;
        }
        if self.editing.is_some() && self.editing != focus {
            self.editing = None;
        }
        self.focus = focus;
        self.focus_by_nav = by_nav;
    }

    /// The widget with the keyboard and gamepad focus, by its place in the order of
    /// declaration (0 is the first focusable widget; labels and tooltips do not count).
    pub fn focus(&self) -> Option<usize> {
        self.focus.map(usize::from)
    }

    /// Gives the focus to the widget at `index` in the order of declaration, or takes it away.
    /// An index past the widgets of the last update moves it to the last one.
    pub fn set_focus_to(&mut self, index: Option<usize>) {
        let last = self.last_count.checked_sub(1);
        let index = index.map(|i| u16::try_from(i).unwrap_or(u16::MAX));
        let index = match (index, last) {
            (Some(i), Some(last)) => Some(i.min(last)),
            _ => None,
        };
        self.set_focus(index, true);
    }

    /// Whether a text field is taking typed text: a cart that reads keys of its own should
    /// leave them alone meanwhile.
    pub fn is_editing(&self) -> bool {
        self.editing.is_some()
    }

    /// Widget parts the last update declared that did not fit ([`Ui::with_capacity`]): not
    /// drawn, though they worked.
    pub fn dropped(&self) -> usize {
        self.records.dropped
    }

    /// Bytes a copy of this `Ui` holds on the heap (the widgets and text of the last update):
    /// what it adds to a cart's [`Cart::snapshot_bytes`](crate::Cart::snapshot_bytes).
    pub fn heap_bytes(&self) -> usize {
        self.records.list.len() * std::mem::size_of::<record::Record>()
            + self.records.text.len()
            + self.input.text.len()
    }

    /// The rectangle of the focusable widget at `index` (in the order of declaration) as the
    /// last update placed it, when it was kept: for tests that click it, and for drawing
    /// something of the cart's own beside a widget.
    pub fn rect_of(&self, index: usize) -> Option<Rect> {
        let mut seen = 0;
        for r in &self.records.list {
            if r.kind.focusable() {
                if seen == index {
                    return Some(r.rect);
                }
                seen += 1;
            }
        }
        None
    }

    /// Lays out the widgets `declare` declares left to right, then goes on below them.
    pub fn row<R>(&mut self, declare: impl FnOnce(&mut Ui) -> R) -> R {
        self.nested(true, None, declare)
    }

    /// Lays out the widgets `declare` declares top to bottom (inside a row: a column of it),
    /// then goes on after them.
    pub fn column<R>(&mut self, declare: impl FnOnce(&mut Ui) -> R) -> R {
        self.nested(false, None, declare)
    }

    /// Lays out the widgets `declare` declares in a column with its top-left corner at
    /// (`x`, `y`) on the display. It takes no room: what follows goes where it would have.
    pub fn area<R>(&mut self, x: i32, y: i32, declare: impl FnOnce(&mut Ui) -> R) -> R {
        self.nested(false, Some((x, y)), declare)
    }

    fn nested<R>(
        &mut self,
        across: bool,
        at: Option<(i32, i32)>,
        declare: impl FnOnce(&mut Ui) -> R,
    ) -> R {
        let pushed = self.layout.push(across, at);
        let out = declare(self);
        if pushed {
            self.layout.pop();
        }
        out
    }

    /// Leaves `px` pixels before the next widget (a negative value goes back).
    pub fn space(&mut self, px: i32) {
        self.layout.space(px);
    }

    /// Makes the next widget `px` pixels wide instead of its own width.
    pub fn width(&mut self, px: i32) {
        self.next_width = Some(px.max(0));
    }
}

impl record::Kind {
    /// Whether widgets of this kind take the focus (and so have an id).
    fn focusable(self) -> bool {
        use record::Kind::*;
        !matches!(self, Label | ListRow | Tab | Tooltip)
    }
}
