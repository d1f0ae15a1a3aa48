//! What a player does in a page, in the browser's terms: [`PageEvent`], and its kind numbers
//! ([`kind`]) as the script sends them through the module's one input function
//! ([`crate::abi::event`]).
//!
//! A new kind of event is a variant here, its number in [`kind`] and its arm in
//! [`PageEvent::decode`] and [`crate::Page::event`], and the call in `host/bt.js` that sends it.

use bt_host::TouchPhase;

/// The numbers of the kinds of [`PageEvent`], as `host/bt.js` sends them. Each says what the
/// three numbers `a`, `b`, `c` that come with it are; text comes through the inbox, `a` its
/// length in bytes.
pub mod kind {
    /// [`super::PageEvent::Key`]: the `KeyboardEvent.code` in the inbox (`a` bytes), `b` 1 down
    /// or 0 up.
    pub const KEY: u32 = 1;
    /// [`super::PageEvent::Text`]: the text in the inbox (`a` bytes).
    pub const TEXT: u32 = 2;
    /// [`super::PageEvent::PointerMoved`]: display pixel `a`, `b`.
    pub const POINTER_MOVED: u32 = 3;
    /// [`super::PageEvent::PointerLeft`].
    pub const POINTER_LEFT: u32 = 4;
    /// [`super::PageEvent::PointerButton`]: `MouseEvent.button` `a`, `b` 1 down or 0 up.
    pub const POINTER_BUTTON: u32 = 5;
    /// [`super::PageEvent::Wheel`]: `a`, `b` lines right and down.
    pub const WHEEL: u32 = 6;
    /// [`super::PageEvent::FocusLost`].
    pub const FOCUS_LOST: u32 = 7;
    /// [`super::PageEvent::Gamepad`]: player `a`'s gamepad came (`b` 1) or went (0).
    pub const GAMEPAD: u32 = 8;
    /// [`super::PageEvent::GamepadButton`]: player `a`, standard button `b`, `c` 1 down or 0 up.
    pub const GAMEPAD_BUTTON: u32 = 9;
    /// [`super::PageEvent::GamepadAxis`]: player `a`, axis `b`, value `c`.
    pub const GAMEPAD_AXIS: u32 = 10;
    /// [`super::PageEvent::Touch`] touching down: `PointerEvent.pointerId` `a`, display pixel
    /// `b`, `c`.
    pub const TOUCH_START: u32 = 11;
    /// [`super::PageEvent::Touch`] moving, as [`TOUCH_START`].
    pub const TOUCH_MOVE: u32 = 12;
    /// [`super::PageEvent::Touch`] lifting off (or cancelled), as [`TOUCH_START`].
    pub const TOUCH_END: u32 = 13;
    /// [`super::PageEvent::PointerMotion`]: display pixels `a` right and `b` down.
    pub const POINTER_MOTION: u32 = 14;
    /// [`super::PageEvent::ReducedMotion`]: `a` 1 when the browser now prefers reduced motion,
    /// 0 when it no longer does.
    pub const REDUCED_MOTION: u32 = 15;
    /// [`super::PageEvent::StateFile`]: in the inbox (`a` bytes) the file's name, a line break,
    /// then the file's text.
    pub const STATE_FILE: u32 = 16;
}

/// One thing a player did in the page, as the browser reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PageEvent<'a> {
    /// A key went down or up; `code` is the browser's `KeyboardEvent.code` (`"ArrowLeft"`,
    /// `"KeyZ"`), which is BT's name for the key. Keys BT does not know are ignored.
    Key {
        /// The key's code.
        code: &'a str,
        /// Whether it went down.
        down: bool,
    },
    /// Text the keyboard typed.
    Text(&'a str),
    /// The pointer is over display pixel `(x, y)` (clamped to the display).
    PointerMoved {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// The pointer left the display.
    PointerLeft,
    /// The locked pointer moved by `(dx, dy)` display pixels (the browser's `movementX`/`Y`,
    /// scaled to the display).
    PointerMotion {
        /// Columns.
        dx: i32,
        /// Rows.
        dy: i32,
    },
    /// A finger (or a pen) on the picture touched down, moved or lifted off at display pixel
    /// `(x, y)` (clamped to the display); `id` is the browser's `PointerEvent.pointerId`.
    Touch {
        /// The browser's identifier of the finger.
        id: u64,
        /// What it did.
        phase: TouchPhase,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// Mouse button `button` (the browser's `MouseEvent.button`: 0 left, 1 middle, 2 right, 3
    /// and 4 back and forward) went down or up.
    PointerButton {
        /// The browser's button number.
        button: u32,
        /// Whether it went down.
        down: bool,
    },
    /// The wheel turned by `dx`, `dy` lines, positive right and down.
    Wheel {
        /// Lines right.
        dx: f32,
        /// Lines down.
        dy: f32,
    },
    /// The page lost the keyboard focus: everything held is let go.
    FocusLost,
    /// `player`'s gamepad came or went.
    Gamepad {
        /// The player, from 0.
        player: usize,
        /// Whether it came.
        connected: bool,
    },
    /// Button `index` of the Gamepad API's standard layout on `player`'s gamepad went down or
    /// up; the analog triggers (6 and 7) come as axes 4 and 5 instead.
    GamepadButton {
        /// The player, from 0.
        player: usize,
        /// The standard layout's button index.
        index: u32,
        /// Whether it went down.
        down: bool,
    },
    /// Axis `axis` of `player`'s gamepad: 0 to 3 the Gamepad API's standard sticks (left X,
    /// left Y, right X, right Y, down and right positive, as BT counts them), 4 and 5 the left
    /// and right triggers (0 to 1).
    GamepadAxis {
        /// The player, from 0.
        player: usize,
        /// The axis, 0 to 5.
        axis: u32,
        /// Its reading.
        value: f32,
    },
    /// The browser's `prefers-reduced-motion` changed: whether it now prefers reduced motion.
    ReducedMotion(bool),
    /// The player chose a state file to load (Shift+F4's file picker) or dropped one on the
    /// page.
    StateFile {
        /// The file's name, for messages.
        name: &'a str,
        /// The file's text.
        text: &'a str,
    },
}

impl<'a> PageEvent<'a> {
    /// The event the script's numbers describe: a [`kind`] and its `a`, `b`, `c`, with
    /// `text`, the inbox's text, for the kinds that carry text. `None` for a kind this
    /// module does not know. Numbers out of range saturate (a pixel) or are refused later
    /// (a player, a button).
    pub fn decode(kind: u32, text: &'a str, a: f64, b: f64, c: f64) -> Option<PageEvent<'a>> {
        let on = |v: f64| v != 0.0;
        Some(match kind {
            kind::KEY => PageEvent::Key {
                code: text,
                down: on(b),
            },
            kind::TEXT => PageEvent::Text(text),
            kind::POINTER_MOVED => PageEvent::PointerMoved {
                x: a as i32,
                y: b as i32,
            },
            kind::POINTER_LEFT => PageEvent::PointerLeft,
            kind::POINTER_MOTION => PageEvent::PointerMotion {
                dx: a as i32,
                dy: b as i32,
            },
            kind::TOUCH_START | kind::TOUCH_MOVE | kind::TOUCH_END => PageEvent::Touch {
                id: a as u64,
                phase: match kind {
                    kind::TOUCH_START => TouchPhase::Started,
                    kind::TOUCH_MOVE => TouchPhase::Moved,
                    _ => TouchPhase::Ended,
                },
                x: b as i32,
                y: c as i32,
            },
            kind::POINTER_BUTTON => PageEvent::PointerButton {
                button: a as u32,
                down: on(b),
            },
            kind::WHEEL => PageEvent::Wheel {
                dx: a as f32,
                dy: b as f32,
            },
            kind::FOCUS_LOST => PageEvent::FocusLost,
            kind::GAMEPAD => PageEvent::Gamepad {
                player: a as usize,
                connected: on(b),
            },
            kind::GAMEPAD_BUTTON => PageEvent::GamepadButton {
                player: a as usize,
                index: b as u32,
                down: on(c),
            },
            kind::GAMEPAD_AXIS => PageEvent::GamepadAxis {
                player: a as usize,
                axis: b as u32,
                value: c as f32,
            },
            kind::REDUCED_MOTION => PageEvent::ReducedMotion(on(a)),
            kind::STATE_FILE => {
                let (name, text) = text.split_once('\n').unwrap_or(("the state file", text));
                PageEvent::StateFile { name, text }
            }
            _ => return None,
        })
    }

    /// Whether the event's text comes through the inbox, `a` bytes of it.
    pub fn carries_text(kind: u32) -> bool {
        matches!(kind, kind::KEY | kind::TEXT | kind::STATE_FILE)
    }
}
