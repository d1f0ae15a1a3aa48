//! The input half of [`Update`]: keys, repeats, the pointer, gamepad axes and typed text. Only
//! `update` reads input, so that what happens next never depends on how often the display draws.

use crate::{Key, Update};

impl Update<'_> {
    /// Like [`Update::is_pressed`], and again every `rate` updates while a button of the mask
    /// stays held (menus that scroll while a direction is held). `rate` 0 never repeats.
    pub fn is_pressed_repeat(&self, buttons: u32, player: usize, rate: u64) -> bool {
        self.input().is_pressed_repeat(buttons, player, rate)
    }

    /// Whether `key` is held.
    pub fn is_key_down(&self, key: Key) -> bool {
        self.input().is_key_down(key)
    }

    /// Whether `key` went down since the previous update.
    pub fn is_key_pressed(&self, key: Key) -> bool {
        self.input().is_key_pressed(key)
    }

    /// Like [`Update::is_key_pressed`], and again every `rate` updates while held.
    pub fn is_key_pressed_repeat(&self, key: Key, rate: u64) -> bool {
        self.input().is_key_pressed_repeat(key, rate)
    }

    /// Whether `key` came up since the previous update.
    pub fn is_key_released(&self, key: Key) -> bool {
        self.input().is_key_released(key)
    }

    /// Whether any key is held.
    pub fn is_any_key_down(&self) -> bool {
        self.input().is_any_key_down()
    }

    /// Whether any key went down since the previous update.
    pub fn is_any_key_pressed(&self) -> bool {
        self.input().is_any_key_pressed()
    }

    /// Whether a key came up since the previous update and no key is held any more.
    pub fn is_any_key_released(&self) -> bool {
        self.input().is_any_key_released()
    }

    /// Text typed since the previous update (empty most of the time).
    pub fn input_string(&self) -> &str {
        self.input().input_string()
    }

    /// The pointer's position in display pixels.
    pub fn pointer_pos(&self) -> (i32, i32) {
        self.input().pointer_pos()
    }

    /// How far the pointer moved since the previous update, in display pixels.
    pub fn pointer_delta(&self) -> (i32, i32) {
        self.input().pointer_delta()
    }

    /// Wheel movement since the previous update, in lines.
    pub fn pointer_wheel(&self) -> (f32, f32) {
        self.input().pointer_wheel()
    }

    /// A gamepad axis of `player` (`AXIS_LEFT_X` ... `AXIS_TRIGGER_R`).
    pub fn axis(&self, axis: usize, player: usize) -> f32 {
        self.input().axis(axis, player)
    }

    /// Whether `player` has a gamepad.
    pub fn is_gamepad_connected(&self, player: usize) -> bool {
        self.input().is_gamepad_connected(player)
    }
}
