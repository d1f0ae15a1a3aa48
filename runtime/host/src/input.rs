//! What a player does, turned into what the console's input sees: the layer between a
//! platform's events and a tick's input.
//!
//! A platform translates its own events into [`HostEvent`]s and hands them to the
//! [`Host`](crate::Host), which keeps its own keys and the pause menu and passes the rest
//! to [`PlayerInput`]: the keys held through the key map, the pointer, the wheel, text and
//! gamepads, into the console's [`Input`], whose edges the next update sees. Nothing here knows
//! about windows, so tests drive exactly what a player's window drives, event by event, with no
//! display.

use bt::host::{Input, KeyMapTable, Source, TRIGGER_PRESS};
use bt::limits::TOUCH_SLOTS;
use bt::{Axis, Button, Key, Player};

use crate::keymap::{KeyMap, KEYBOARD_PLAYERS};

/// One thing a player did, in the console's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HostEvent<'a> {
    /// A key went down or up. Repeats from the keyboard's own auto-repeat are not events.
    Key {
        /// The key.
        key: Key,
        /// Whether it went down.
        down: bool,
    },
    /// Text the keyboard produced.
    Text(&'a str),
    /// The pointer moved to a display pixel (already clamped to the display).
    PointerMoved {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// The pointer left the display.
    PointerLeft,
    /// A locked pointer moved by this much, in display pixels (the cart asked for the lock with
    /// `Update::set_pointer_locked`): it adds to the next update's pointer delta.
    PointerMotion {
        /// Columns.
        dx: i32,
        /// Rows.
        dy: i32,
    },
    /// A finger touched down, moved or lifted off, at a display pixel (already clamped to the
    /// display). Each finger takes the first free touch slot when it touches down and keeps it
    /// until it lifts off; fingers beyond [`TOUCH_SLOTS`] are not seen.
    Touch {
        /// The platform's identifier of the finger, the same from touching down to lifting off.
        id: u64,
        /// What it did.
        phase: TouchPhase,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// The window lost the keyboard focus: every key and pointer button held is let go (their
    /// releases reach the next update), since their releases would go to another window.
    FocusLost,
    /// A pointer button (`Button::POINTER_A` ... `Button::POINTER_D`) went down or up.
    PointerButton {
        /// The button.
        button: Button,
        /// Whether it went down.
        down: bool,
    },
    /// The wheel turned, in lines (positive right and down).
    Wheel {
        /// Horizontal lines.
        dx: f32,
        /// Vertical lines.
        dy: f32,
    },
    /// A gamepad became `player`'s.
    GamepadConnected {
        /// The player.
        player: Player,
    },
    /// `player`'s gamepad went away: its buttons are let go and its axes centred.
    GamepadDisconnected {
        /// The player.
        player: Player,
    },
    /// Gamepad buttons of `player` went down or up.
    GamepadButton {
        /// The player.
        player: Player,
        /// The buttons.
        buttons: Button,
        /// Whether they went down.
        down: bool,
    },
    /// A gamepad axis of `player` moved (sticks -1..1, down and right positive; triggers 0..1).
    /// Triggers also hold `Button::L2` / `Button::R2` from [`TRIGGER_PRESS`] on.
    GamepadAxis {
        /// The player.
        player: Player,
        /// The axis.
        axis: Axis,
        /// The raw reading.
        value: f32,
    },
    /// The player's reduced-motion preference changed (a page's `prefers-reduced-motion`):
    /// the next update sees it ([`bt::Update::prefers_reduced_motion`]).
    ReducedMotion(bool),
}

/// What a finger did ([`HostEvent::Touch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TouchPhase {
    /// It touched down.
    Started,
    /// It moved.
    Moved,
    /// It lifted off, or the platform took it away (a gesture of its own).
    Ended,
}

/// What the player holds (keys through the key map, the pointer) and how it reaches the
/// console's input. Keys the host took for itself (a host key, the menu's) are *swallowed*:
/// they reach no button until let go.
#[derive(Debug)]
pub struct PlayerInput {
    /// The player's own map (the defaults, or a key-map file's).
    user: KeyMap,
    /// The map keys go through: the cart's map under the buttons the player's file lists.
    keymap: KeyMap,
    /// Keys physically held, bit `k` for `Key::ALL[k]` (host keys included).
    keys_held: u128,
    pointer: (i32, i32),
    /// Keys the host took: none of them reaches the cart until it is let go.
    swallowed: u128,
    /// A key the host took may type text next, which goes nowhere.
    swallow_text: bool,
    /// The platform's identifier of the finger on each touch slot.
    touch_ids: [Option<u64>; TOUCH_SLOTS],
}

fn bit(key: Key) -> u128 {
    1u128 << (key as u8)
}

impl PlayerInput {
    /// Nothing held, keys read through `keymap`.
    pub fn new(keymap: KeyMap) -> PlayerInput {
        PlayerInput {
            user: keymap.clone(),
            keymap,
            keys_held: 0,
            pointer: (0, 0),
            swallowed: 0,
            swallow_text: false,
            touch_ids: [None; TOUCH_SLOTS],
        }
    }

    /// The key map keys go through now.
    pub fn keymap(&self) -> &KeyMap {
        &self.keymap
    }

    /// The cart changed its key map to `cart`: keys go through it from now on (the player's
    /// file still wins for the buttons it lists, [`KeyMap::with_cart_map`]), and the buttons of
    /// keys held now follow it from the next update.
    pub fn apply_cart_map(&mut self, input: &mut Input, cart: &KeyMapTable) {
        self.keymap = self.user.with_cart_map(cart);
        self.buttons_to_console(input);
    }

    /// What every keyboard player holds through the key map, from the keys held.
    fn buttons_to_console(&self, input: &mut Input) {
        for player in &Player::ALL[..KEYBOARD_PLAYERS] {
            let held = self
                .keymap
                .held_buttons(self.keys_held & !self.swallowed, player.index());
            input.set_held_from(Source::Keyboard, Button::from_bits(held), *player);
        }
    }

    /// Notes `key` going down or up; returns whether it was pressed (down, and not held
    /// before). Text typed after it reaches the cart again.
    pub fn note_key(&mut self, key: Key, down: bool) -> bool {
        let was_down = self.is_held(key);
        if down {
            self.keys_held |= bit(key);
        } else {
            self.keys_held &= !bit(key);
        }
        self.swallow_text = false;
        down && !was_down
    }

    /// Whether `key` is held.
    pub fn is_held(&self, key: Key) -> bool {
        self.keys_held & bit(key) != 0
    }

    /// Whether any of `keys` is held.
    pub fn held_any(&self, keys: &[Key]) -> bool {
        keys.iter().any(|&k| self.is_held(k))
    }

    /// The host took `key`: it reaches no button, nor its text, until let go.
    pub fn swallow(&mut self, key: Key) {
        self.swallowed |= bit(key);
        self.swallow_text = true;
    }

    /// Whether `key` was taken by the host (and, let go, is the cart's again).
    pub fn was_swallowed(&mut self, key: Key, down: bool) -> bool {
        if self.swallowed & bit(key) == 0 {
            return false;
        }
        if !down {
            self.swallowed &= !bit(key);
        }
        true
    }

    /// Text the keyboard typed: `false` when it goes nowhere (the key that typed it was the
    /// host's).
    pub fn take_text_swallowed(&mut self) -> bool {
        std::mem::take(&mut self.swallow_text)
    }

    /// Where the pointer is, in display pixels.
    pub fn pointer(&self) -> (i32, i32) {
        self.pointer
    }

    /// A key that is the cart's went down or up: the key itself, and the buttons every
    /// keyboard player holds through the key map.
    pub fn key_to_console(&mut self, input: &mut Input, key: Key, down: bool) {
        input.set_key(key, down);
        self.buttons_to_console(input);
    }

    /// A finger into its touch slot: a new one takes the first free slot (none when all are
    /// taken), and keeps it until it lifts off.
    fn touch(&mut self, input: &mut Input, id: u64, phase: TouchPhase, at: (i32, i32)) {
        let held = self.touch_ids.iter().position(|&t| t == Some(id));
        match (phase, held) {
            (TouchPhase::Ended, Some(slot)) => {
                self.touch_ids[slot] = None;
                input.set_touch(slot, None);
            }
            (TouchPhase::Ended, None) => {}
            (_, Some(slot)) => input.set_touch(slot, Some(at)),
            (TouchPhase::Started, None) => {
                if let Some(slot) = self.touch_ids.iter().position(Option::is_none) {
                    self.touch_ids[slot] = Some(id);
                    input.set_touch(slot, Some(at));
                }
            }
            // A finger that moves without having touched down (it touched down while every
            // slot was taken) stays unseen.
            (TouchPhase::Moved, None) => {}
        }
    }

    /// An event that is the cart's, into the console's input.
    pub fn event_to_console(&mut self, input: &mut Input, event: HostEvent<'_>) {
        match event {
            HostEvent::Key { key, down } => {
                self.note_key(key, down);
                self.key_to_console(input, key, down);
            }
            HostEvent::Text(text) => input.push_text(text),
            HostEvent::PointerMoved { x, y } => {
                self.pointer = (x, y);
                input.set_pointer_pos(x, y);
            }
            HostEvent::PointerLeft => input.set_pointer_inactive(),
            HostEvent::PointerMotion { dx, dy } => input.add_pointer_motion(dx, dy),
            HostEvent::Touch { id, phase, x, y } => self.touch(input, id, phase, (x, y)),
            HostEvent::FocusLost => {
                for (slot, id) in self.touch_ids.iter_mut().enumerate() {
                    if id.take().is_some() {
                        input.set_touch(slot, None);
                    }
                }
                input.set_held_from(Source::Pointer, Button::NONE, Player::ONE);
                let mut held = self.keys_held;
                while held != 0 {
                    let i = held.trailing_zeros() as usize;
                    if let Some(&key) = Key::ALL.get(i) {
                        input.set_key(key, false);
                    }
                    held &= held - 1;
                }
                self.keys_held = 0;
                for player in &Player::ALL[..KEYBOARD_PLAYERS] {
                    input.set_held_from(Source::Keyboard, Button::NONE, *player);
                }
            }
            HostEvent::PointerButton { button, down } => {
                input.set_buttons_from(Source::Pointer, button, Player::ONE, down);
            }
            HostEvent::Wheel { dx, dy } => input.add_wheel(dx, dy),
            HostEvent::ReducedMotion(on) => input.set_reduced_motion(on),
            HostEvent::GamepadConnected { player } => input.set_gamepad_connected(player, true),
            HostEvent::GamepadDisconnected { player } => {
                input.set_gamepad_connected(player, false);
            }
            HostEvent::GamepadButton {
                player,
                buttons,
                down,
            } => input.set_buttons_from(Source::Gamepad, buttons, player, down),
            HostEvent::GamepadAxis {
                player,
                axis,
                value,
            } => {
                input.set_axis(axis, player, value);
                let trigger = match axis {
                    Axis::TriggerL => Button::L2,
                    Axis::TriggerR => Button::R2,
                    _ => Button::NONE,
                };
                if !trigger.is_empty() {
                    input.set_buttons_from(
                        Source::Gamepad,
                        trigger,
                        player,
                        value >= TRIGGER_PRESS,
                    );
                }
            }
        }
    }
}
