//! Exactly what one update sees of the input, as plain data: what a replay stores per tick.

use crate::input::INPUT_STRING_CAPACITY;
use crate::input::{AXES, PLAYERS, TOUCH_SLOTS};

/// One player's buttons as an update sees them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TickButtons {
    /// Held in this update.
    pub down: u32,
    /// Went down since the previous update.
    pub pressed: u32,
    /// Came up since the previous update.
    pub released: u32,
}

/// Everything one update sees of the input, captured with
/// [`Input::visible`](crate::host::Input::visible) and handed back with
/// [`Input::begin_update_from`](crate::host::Input::begin_update_from).
///
/// It is `Copy` and holds its typed text inline (at most
/// [`INPUT_STRING_CAPACITY`](crate::host::INPUT_STRING_CAPACITY) bytes), so capturing and
/// comparing ticks never allocates.
///
/// ```
/// use bt::host::{Input, TickInput};
/// use bt::{Button, Player};
///
/// let mut live = Input::default();
/// live.set_buttons(Button::A, Player::ONE, true);
/// live.push_text("hi");
/// live.begin_update();
/// let seen: TickInput = live.visible();
///
/// let mut replayed = Input::default();
/// replayed.begin_update_from(&seen);
/// assert!(replayed.is_pressed(Button::A, Player::ONE));
/// assert_eq!(replayed.input_string(), "hi");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TickInput {
    /// Each player's buttons.
    pub buttons: [TickButtons; PLAYERS],
    /// Keys held, bit `k` for `Key::ALL[k]`.
    pub keys_down: u128,
    /// Keys that went down since the previous update.
    pub keys_pressed: u128,
    /// Keys that came up since the previous update.
    pub keys_released: u128,
    /// The pointer's position in display pixels.
    pub pointer_pos: (i32, i32),
    /// How far the pointer moved since the previous update.
    pub pointer_delta: (i32, i32),
    /// Wheel movement since the previous update, in lines.
    pub pointer_wheel: (f32, f32),
    /// Whether the pointer is over the display.
    pub pointer_active: bool,
    /// Touch slots held in this update, bit `s` for slot `s`.
    pub touch_down: u8,
    /// Touch slots touched down since the previous update.
    pub touch_pressed: u8,
    /// Touch slots lifted off since the previous update.
    pub touch_released: u8,
    /// Each touch slot's position in display pixels (the last one once lifted).
    pub touch_pos: [(i32, i32); TOUCH_SLOTS],
    /// How far each touch moved since the previous update.
    pub touch_delta: [(i32, i32); TOUCH_SLOTS],
    /// Raw axis readings per player (before the dead zone).
    pub axes: [[f32; AXES]; PLAYERS],
    /// Whether each player's gamepad is connected.
    pub pads: [bool; PLAYERS],
    /// The cart's pause-menu item the player chose just before this update: 0 for none, else
    /// its slot + 1 (see [`Update::set_menu_item`](crate::Update::set_menu_item)).
    pub menu_item: u8,
    /// Whether the player prefers reduced motion in this update
    /// ([`Update::prefers_reduced_motion`](crate::Update::prefers_reduced_motion)).
    pub reduced_motion: bool,
    text: [u8; INPUT_STRING_CAPACITY],
    text_len: u8,
}

impl Default for TickInput {
    fn default() -> TickInput {
        TickInput {
            buttons: [TickButtons::default(); PLAYERS],
            keys_down: 0,
            keys_pressed: 0,
            keys_released: 0,
            pointer_pos: (0, 0),
            pointer_delta: (0, 0),
            pointer_wheel: (0.0, 0.0),
            pointer_active: false,
            touch_down: 0,
            touch_pressed: 0,
            touch_released: 0,
            touch_pos: [(0, 0); TOUCH_SLOTS],
            touch_delta: [(0, 0); TOUCH_SLOTS],
            axes: [[0.0; AXES]; PLAYERS],
            pads: [false; PLAYERS],
            menu_item: 0,
            reduced_motion: false,
            text: [0; INPUT_STRING_CAPACITY],
            text_len: 0,
        }
    }
}

// The touch slots fit the byte of each of their bit sets.
const _: () = assert!(TOUCH_SLOTS <= 8);

impl TickInput {
    /// The text typed for this update.
    pub fn text(&self) -> &str {
        let bytes = self.text.get(..usize::from(self.text_len)).unwrap_or(&[]);
        // `set_text` only ever stores whole characters of a `&str`.
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// Sets the typed text: control characters are skipped and whole characters beyond
    /// [`INPUT_STRING_CAPACITY`](crate::host::INPUT_STRING_CAPACITY) bytes dropped, as
    /// [`Input::push_text`](crate::host::Input::push_text) does.
    pub fn set_text(&mut self, text: &str) {
        let mut len = 0;
        for c in text.chars().filter(|c| !c.is_control()) {
            let n = c.len_utf8();
            if len + n > INPUT_STRING_CAPACITY {
                break;
            }
            c.encode_utf8(&mut self.text[len..len + n]);
            len += n;
        }
        self.text[len..].fill(0);
        self.text_len = len as u8;
    }

    /// Whether nothing at all is held, moved, typed or connected: a tick with no input.
    pub fn is_idle(&self) -> bool {
        *self == TickInput::default()
    }
}
