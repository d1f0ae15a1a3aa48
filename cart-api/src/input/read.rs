//! What an update asks of [`Input`]: buttons, keys, text, the pointer, axes and pads, as the
//! current update sees them.

use super::buttons::PlayerButtons;
use super::edges::Bits;
use super::*;

impl Input {
    fn player(&self, player: Player) -> &PlayerButtons {
        &self.players[player.index()]
    }

    /// Whether any button of the set is held in this update.
    pub fn is_down(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.down & buttons.bits() != 0
    }

    /// Whether any button of the set went down since the previous update.
    pub fn is_pressed(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.pressed & buttons.bits() != 0
    }

    /// Like [`Input::is_pressed`], and also every `every_ticks` updates while a button of the set
    /// stays held (the press at update `n` fires again at `n + every_ticks`,
    /// `n + 2 every_ticks`, ...). `every_ticks` 0 is
    /// plain `is_pressed`.
    pub fn is_pressed_repeat(&self, buttons: Button, player: Player, every_ticks: u64) -> bool {
        self.player(player)
            .pressed_repeat(buttons.bits(), self.updates, every_ticks)
    }

    /// Whether any button of the set came up since the previous update.
    pub fn is_released(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.released & buttons.bits() != 0
    }

    /// Whether `key` is held in this update.
    pub fn is_key_down(&self, key: Key) -> bool {
        self.keys.down & key.bit() != 0
    }

    /// Whether `key` went down since the previous update.
    pub fn is_key_pressed(&self, key: Key) -> bool {
        self.keys.pressed & key.bit() != 0
    }

    /// Like [`Input::is_key_pressed`], repeating every `every_ticks` updates while held.
    pub fn is_key_pressed_repeat(&self, key: Key, every_ticks: u64) -> bool {
        self.keys
            .repeats(key as usize, key.bit(), self.updates, every_ticks)
    }

    /// Whether `key` came up since the previous update.
    pub fn is_key_released(&self, key: Key) -> bool {
        self.keys.released & key.bit() != 0
    }

    /// Whether any key is held.
    pub fn is_any_key_down(&self) -> bool {
        self.keys.down != 0
    }

    /// Whether any key went down since the previous update.
    pub fn is_any_key_pressed(&self) -> bool {
        self.keys.pressed != 0
    }

    /// Like [`Input::is_any_key_pressed`], also firing for any key held for a multiple of
    /// `every_ticks` updates.
    pub fn is_any_key_pressed_repeat(&self, every_ticks: u64) -> bool {
        let k = &self.keys;
        let mut fires = false;
        (k.pressed | k.down).each(|i| fires |= k.repeats(i, 1 << i, self.updates, every_ticks));
        fires
    }

    /// Whether a key came up since the previous update and now no key at all is held (the moment
    /// the keyboard went quiet).
    pub fn is_any_key_released(&self) -> bool {
        self.keys.released != 0 && self.keys.down == 0
    }

    /// Text typed since the previous update.
    pub fn input_string(&self) -> &str {
        &self.text
    }

    /// The pointer's position in display pixels (clamped to the display by the host).
    pub fn pointer_pos(&self) -> (i32, i32) {
        self.pointer.pos
    }

    /// How far the pointer moved since the previous update, in display pixels.
    pub fn pointer_delta(&self) -> (i32, i32) {
        self.pointer.delta
    }

    /// Wheel movement since the previous update, in lines (positive is right and down).
    pub fn pointer_wheel(&self) -> (f32, f32) {
        self.pointer.wheel
    }

    /// Whether the pointer was over the display as this update began.
    pub fn is_pointer_active(&self) -> bool {
        self.pointer.active_seen
    }

    /// An axis of a player's gamepad: sticks -1..1 after [`STICK_DEAD_ZONE`], triggers 0..1.
    pub fn axis(&self, axis: Axis, player: Player) -> f32 {
        let raw = self.axes[player.index()][axis.index()];
        if axis.is_trigger() {
            raw.clamp(0.0, 1.0)
        } else {
            stick_with_dead_zone(raw)
        }
    }

    /// Whether a gamepad was connected for `player` as this update began.
    pub fn is_gamepad_connected(&self, player: Player) -> bool {
        self.pads_seen[player.index()]
    }

    /// How many gamepads were connected as this update began.
    pub fn gamepad_count(&self) -> usize {
        self.pads_seen.iter().filter(|&&c| c).count()
    }
}
