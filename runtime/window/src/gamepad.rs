//! Gamepads through gilrs: which pad is which player, and what its buttons and sticks mean.
//!
//! The first four pads to appear become players 0 to 3, in order; a pad that goes away frees its
//! player for the next one. Standard buttons map to BT's: the face buttons by position (south is
//! A, east B, west X, north Y), shoulders to L and R, triggers to the trigger axes (and
//! `Button::L2`/`Button::R2` from half a pull on), Start, Select and the d-pad. Sticks report down and
//! right as positive.

use bt::limits::PLAYERS;
use bt::{Axis, Button, Player};
use gilrs::ev::filter::{axis_dpad_to_button, Filter};
use gilrs::{EventType, GilrsBuilder};

use crate::host::input::HostEvent;

/// The BT button a gilrs button holds, or none for buttons BT leaves alone (and for the analogue
/// triggers, which arrive as [`trigger_axis`] values instead).
pub fn button_mask(button: gilrs::Button) -> Button {
    match button {
        gilrs::Button::South => Button::A,
        gilrs::Button::East => Button::B,
        gilrs::Button::West => Button::X,
        gilrs::Button::North => Button::Y,
        gilrs::Button::LeftTrigger => Button::L,
        gilrs::Button::RightTrigger => Button::R,
        gilrs::Button::Start => Button::START,
        gilrs::Button::Select => Button::SELECT,
        gilrs::Button::DPadUp => Button::UP,
        gilrs::Button::DPadDown => Button::DOWN,
        gilrs::Button::DPadLeft => Button::LEFT,
        gilrs::Button::DPadRight => Button::RIGHT,
        _ => Button::NONE,
    }
}

/// The BT trigger axis of an analogue trigger button.
pub fn trigger_axis(button: gilrs::Button) -> Option<Axis> {
    match button {
        gilrs::Button::LeftTrigger2 => Some(Axis::TriggerL),
        gilrs::Button::RightTrigger2 => Some(Axis::TriggerR),
        _ => None,
    }
}

/// The BT axis of a gilrs stick axis, and the sign that makes down and right positive (gilrs
/// reports up as positive).
pub fn stick_axis(axis: gilrs::Axis) -> Option<(Axis, f32)> {
    match axis {
        gilrs::Axis::LeftStickX => Some((Axis::LeftX, 1.0)),
        gilrs::Axis::LeftStickY => Some((Axis::LeftY, -1.0)),
        gilrs::Axis::RightStickX => Some((Axis::RightX, 1.0)),
        gilrs::Axis::RightStickY => Some((Axis::RightY, -1.0)),
        _ => None,
    }
}

/// A button going down or up, as the console sees it.
pub fn button_event(
    player: Player,
    button: gilrs::Button,
    down: bool,
) -> Option<HostEvent<'static>> {
    let buttons = button_mask(button);
    (!buttons.is_empty()).then_some(HostEvent::GamepadButton {
        player,
        buttons,
        down,
    })
}

/// An analogue button's value (0..1), as the console sees it: only triggers matter.
pub fn button_value_event(
    player: Player,
    button: gilrs::Button,
    value: f32,
) -> Option<HostEvent<'static>> {
    trigger_axis(button).map(|axis| HostEvent::GamepadAxis {
        player,
        axis,
        value,
    })
}

/// A stick moving, as the console sees it.
pub fn axis_event(player: Player, axis: gilrs::Axis, value: f32) -> Option<HostEvent<'static>> {
    stick_axis(axis).map(|(axis, sign)| HostEvent::GamepadAxis {
        player,
        axis,
        value: value * sign,
    })
}

/// Which pad (by its id) holds which player slot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PadSlots {
    ids: [Option<usize>; PLAYERS],
}

impl PadSlots {
    /// Gives pad `id` the first free player, or its existing one. `None` when four pads are in
    /// use already.
    pub fn connect(&mut self, id: usize) -> Option<Player> {
        if let Some(p) = self.player_of(id) {
            return Some(p);
        }
        let p = self.ids.iter().position(Option::is_none)?;
        self.ids[p] = Some(id);
        Player::new(p)
    }

    /// Frees pad `id`'s player, returning it.
    pub fn disconnect(&mut self, id: usize) -> Option<Player> {
        let p = self.player_of(id)?;
        self.ids[p.index()] = None;
        Some(p)
    }

    /// The player pad `id` plays as.
    pub fn player_of(&self, id: usize) -> Option<Player> {
        self.ids
            .iter()
            .position(|&s| s == Some(id))
            .and_then(Player::new)
    }
}

/// The pads, when gilrs could start.
pub struct Gamepads {
    gilrs: Option<gilrs::Gilrs>,
    slots: PadSlots,
}

impl std::fmt::Debug for Gamepads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gamepads")
            .field("slots", &self.slots)
            .finish_non_exhaustive()
    }
}

impl Gamepads {
    /// Starts gilrs. Without it (no udev, a sandbox) the console runs on without gamepads, and the
    /// reason is returned to print.
    pub fn new() -> (Gamepads, Option<String>) {
        // Without gilrs' default filters: its dead zone is radial and already renormalised, and
        // BT applies its own per-axis 0.75 dead zone to raw stick values (`Input::axis`).
        match GilrsBuilder::new().with_default_filters(false).build() {
            Ok(g) => (
                Gamepads {
                    gilrs: Some(g),
                    slots: PadSlots::default(),
                },
                None,
            ),
            Err(e) => (
                Gamepads {
                    gilrs: None,
                    slots: PadSlots::default(),
                },
                Some(format!("gamepads unavailable: {e}")),
            ),
        }
    }

    /// Hands every pad already plugged in, then every event since the last call, to `sink`.
    pub fn poll(&mut self, mut sink: impl FnMut(HostEvent<'static>)) {
        let Some(gilrs) = &mut self.gilrs else {
            return;
        };
        for (id, pad) in gilrs.gamepads() {
            let id = usize::from(id);
            if pad.is_connected() && self.slots.player_of(id).is_none() {
                if let Some(player) = self.slots.connect(id) {
                    sink(HostEvent::GamepadConnected { player });
                }
            }
        }
        while let Some(raw) = gilrs.next_event() {
            // Keep the one default filter BT wants: d-pads reported as a hat axis become buttons.
            let Some(ev) = raw.filter_ev(&axis_dpad_to_button, gilrs) else {
                continue;
            };
            let id = usize::from(ev.id);
            let event = match ev.event {
                EventType::Connected => self
                    .slots
                    .connect(id)
                    .map(|player| HostEvent::GamepadConnected { player }),
                EventType::Disconnected => self
                    .slots
                    .disconnect(id)
                    .map(|player| HostEvent::GamepadDisconnected { player }),
                EventType::ButtonPressed(b, _) => self
                    .slots
                    .player_of(id)
                    .and_then(|p| button_event(p, b, true)),
                EventType::ButtonReleased(b, _) => self
                    .slots
                    .player_of(id)
                    .and_then(|p| button_event(p, b, false)),
                EventType::ButtonChanged(b, v, _) => self
                    .slots
                    .player_of(id)
                    .and_then(|p| button_value_event(p, b, v)),
                EventType::AxisChanged(a, v, _) => {
                    self.slots.player_of(id).and_then(|p| axis_event(p, a, v))
                }
                _ => None,
            };
            if let Some(event) = event {
                sink(event);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_buttons_map_by_position_and_shoulders_to_l_r() {
        let pairs = [
            (gilrs::Button::South, Button::A),
            (gilrs::Button::East, Button::B),
            (gilrs::Button::West, Button::X),
            (gilrs::Button::North, Button::Y),
            (gilrs::Button::LeftTrigger, Button::L),
            (gilrs::Button::RightTrigger, Button::R),
            (gilrs::Button::Start, Button::START),
            (gilrs::Button::Select, Button::SELECT),
            (gilrs::Button::DPadUp, Button::UP),
            (gilrs::Button::DPadDown, Button::DOWN),
            (gilrs::Button::DPadLeft, Button::LEFT),
            (gilrs::Button::DPadRight, Button::RIGHT),
        ];
        for (b, mask) in pairs {
            assert_eq!(button_mask(b), mask, "{b:?}");
            assert_eq!(
                button_event(Player::THREE, b, true),
                Some(HostEvent::GamepadButton {
                    player: Player::THREE,
                    buttons: mask,
                    down: true
                })
            );
        }
        assert_eq!(button_mask(gilrs::Button::Mode), Button::NONE);
        assert_eq!(button_event(Player::ONE, gilrs::Button::Mode, true), None);
        assert_eq!(
            button_mask(gilrs::Button::LeftTrigger2),
            Button::NONE,
            "triggers are axes"
        );
    }

    #[test]
    fn triggers_become_trigger_axes() {
        assert_eq!(
            button_value_event(Player::TWO, gilrs::Button::RightTrigger2, 0.6),
            Some(HostEvent::GamepadAxis {
                player: Player::TWO,
                axis: Axis::TriggerR,
                value: 0.6
            })
        );
        assert_eq!(
            trigger_axis(gilrs::Button::LeftTrigger2),
            Some(Axis::TriggerL)
        );
        assert_eq!(
            button_value_event(Player::TWO, gilrs::Button::South, 1.0),
            None
        );
    }

    #[test]
    fn sticks_report_down_and_right_as_positive() {
        assert_eq!(
            axis_event(Player::ONE, gilrs::Axis::LeftStickY, 1.0),
            Some(HostEvent::GamepadAxis {
                player: Player::ONE,
                axis: Axis::LeftY,
                value: -1.0
            })
        );
        assert_eq!(
            stick_axis(gilrs::Axis::RightStickX),
            Some((Axis::RightX, 1.0))
        );
        assert_eq!(
            stick_axis(gilrs::Axis::RightStickY),
            Some((Axis::RightY, -1.0))
        );
        assert_eq!(axis_event(Player::ONE, gilrs::Axis::LeftZ, 1.0), None);
    }

    #[test]
    fn pads_take_the_first_free_player_and_free_it_on_disconnect() {
        let mut s = PadSlots::default();
        assert_eq!(s.connect(10), Some(Player::ONE));
        assert_eq!(s.connect(11), Some(Player::TWO));
        assert_eq!(s.connect(10), Some(Player::ONE), "same pad, same player");
        assert_eq!(s.disconnect(10), Some(Player::ONE));
        assert_eq!(s.connect(12), Some(Player::ONE), "reuses the freed player");
        assert_eq!(s.connect(13), Some(Player::THREE));
        assert_eq!(s.connect(14), Some(Player::FOUR));
        assert_eq!(s.connect(15), None, "four players at most");
        assert_eq!(s.disconnect(99), None);
    }
}
