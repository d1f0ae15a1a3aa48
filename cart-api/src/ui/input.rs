//! What one update hands the kit: the pointer, the navigation presses and the typed text.

use crate::input::INPUT_STRING_CAPACITY;
use crate::{Button, Key, Player, Update};

/// Updates between repeats of a held arrow, Tab or d-pad direction: about eight steps a second
/// at 60 updates a second, slow enough to stop on the value wanted.
pub(super) const REPEAT_TICKS: u64 = 8;

/// A set of navigation presses. Widgets take the ones they use (a slider takes left and right);
/// what is left moves the focus when the frame ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Nav(u16);

impl Nav {
    pub const UP: Nav = Nav(1);
    pub const DOWN: Nav = Nav(1 << 1);
    pub const LEFT: Nav = Nav(1 << 2);
    pub const RIGHT: Nav = Nav(1 << 3);
    pub const NEXT: Nav = Nav(1 << 4);
    pub const PREV: Nav = Nav(1 << 5);
    pub const ACTIVATE: Nav = Nav(1 << 6);
    pub const CANCEL: Nav = Nav(1 << 7);
    pub const BACKSPACE: Nav = Nav(1 << 8);
    pub const DELETE: Nav = Nav(1 << 9);
    pub const HOME: Nav = Nav(1 << 10);
    pub const END: Nav = Nav(1 << 11);
    /// Enter alone: what ends a text field's editing (Space types a space there).
    pub const ENTER: Nav = Nav(1 << 12);

    fn set(&mut self, nav: Nav, on: bool) {
        if on {
            self.0 |= nav.0;
        }
    }

    /// Whether `nav` is in the set.
    pub fn has(self, nav: Nav) -> bool {
        self.0 & nav.0 != 0
    }

    /// Whether `nav` is in the set, taking it out.
    pub fn take(&mut self, nav: Nav) -> bool {
        let had = self.has(nav);
        self.0 &= !nav.0;
        had
    }

    /// Both sets.
    pub fn union(self, other: Nav) -> Nav {
        Nav(self.0 | other.0)
    }

    /// The set without `nav`.
    pub fn without(self, nav: Nav) -> Nav {
        Nav(self.0 & !nav.0)
    }
}

/// The input of one update, copied as it begins so that widgets need no context.
#[derive(Debug, Clone)]
pub(super) struct FrameInput {
    pub pointer: (i32, i32),
    pub pointer_active: bool,
    pub press: bool,
    pub down: bool,
    pub release: bool,
    pub wheel: f32,
    /// Presses of keyboard keys, whatever the key map makes of them.
    pub keys: Nav,
    /// Presses of player one's buttons: a gamepad, or keys through the key map.
    pub pad: Nav,
    /// Whether a key is held or went down: then player one's buttons may be the keyboard's
    /// (Z presses A), which a text field being edited must not take as buttons.
    pub keys_busy: bool,
    pub text: String,
    pub display: (i32, i32),
}

impl FrameInput {
    pub fn new() -> FrameInput {
        FrameInput {
            pointer: (0, 0),
            pointer_active: false,
            press: false,
            down: false,
            release: false,
            wheel: 0.0,
            keys: Nav::default(),
            pad: Nav::default(),
            keys_busy: false,
            text: String::with_capacity(INPUT_STRING_CAPACITY),
            display: (0, 0),
        }
    }

    /// Copies what `ctx` sees. The first touch counts as the pointer while a finger is down.
    pub fn read(&mut self, ctx: &Update<'_>) {
        let one = Player::ONE;
        match ctx.touch(0) {
            Some(t) => {
                self.pointer = t.pos;
                self.pointer_active = true;
                (self.press, self.down, self.release) = (t.pressed, t.down, t.released);
            }
            None => {
                self.pointer = ctx.pointer_pos();
                self.pointer_active = ctx.is_pointer_active();
                self.press = ctx.is_pressed(Button::POINTER_A, one);
                self.down = ctx.is_down(Button::POINTER_A, one);
                self.release = ctx.is_released(Button::POINTER_A, one);
            }
        }
        let wheel = ctx.pointer_wheel().1;
        self.wheel = if wheel.is_finite() { wheel } else { 0.0 };

        let key = |k| ctx.is_key_pressed_repeat(k, REPEAT_TICKS);
        let shift = ctx.is_key_down(Key::ShiftLeft) || ctx.is_key_down(Key::ShiftRight);
        let tab = key(Key::Tab);
        let mut keys = Nav::default();
        keys.set(Nav::UP, key(Key::ArrowUp));
        keys.set(Nav::DOWN, key(Key::ArrowDown));
        keys.set(Nav::LEFT, key(Key::ArrowLeft));
        keys.set(Nav::RIGHT, key(Key::ArrowRight));
        keys.set(Nav::NEXT, tab && !shift);
        keys.set(Nav::PREV, tab && shift);
        let activate = [Key::Enter, Key::NumpadEnter, Key::Space];
        keys.set(
            Nav::ACTIVATE,
            activate.iter().any(|&k| ctx.is_key_pressed(k)),
        );
        keys.set(
            Nav::ENTER,
            ctx.is_key_pressed(Key::Enter) || ctx.is_key_pressed(Key::NumpadEnter),
        );
        keys.set(Nav::CANCEL, ctx.is_key_pressed(Key::Escape));
        keys.set(Nav::BACKSPACE, key(Key::Backspace));
        keys.set(Nav::DELETE, key(Key::Delete));
        keys.set(Nav::HOME, key(Key::Home));
        keys.set(Nav::END, key(Key::End));
        self.keys = keys;

        let button = |b| ctx.is_pressed_repeat(b, one, REPEAT_TICKS);
        let mut pad = Nav::default();
        pad.set(Nav::UP, button(Button::UP));
        pad.set(Nav::DOWN, button(Button::DOWN));
        pad.set(Nav::LEFT, button(Button::LEFT));
        pad.set(Nav::RIGHT, button(Button::RIGHT));
        pad.set(Nav::NEXT, button(Button::R));
        pad.set(Nav::PREV, button(Button::L));
        pad.set(
            Nav::ACTIVATE,
            ctx.is_pressed(Button::A | Button::START, one),
        );
        pad.set(Nav::CANCEL, ctx.is_pressed(Button::B, one));
        self.pad = pad;
        self.keys_busy = ctx.is_any_key_down() || ctx.is_any_key_pressed();

        self.text.clear();
        // The console keeps at most INPUT_STRING_CAPACITY bytes, so this never grows the buffer.
        self.text.push_str(ctx.input_string());
        let (w, h) = ctx.display_size();
        self.display = (w as i32, h as i32);
    }

    /// Whether the pointer is over `rect` in this update.
    pub fn over(&self, rect: crate::Rect) -> bool {
        self.pointer_active && rect.contains(self.pointer.0, self.pointer.1)
    }
}
