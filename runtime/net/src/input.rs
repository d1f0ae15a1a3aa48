//! What of the input crosses the network: each player's buttons (with their edges), axes and
//! whether a pad is connected. Keys, the pointer, touches and typed text stay on their own
//! machine: a cart played over the network sees them idle.

use bt::host::{TickButtons, TickInput};
use bt::limits::{AXES, PLAYERS};
use ggrs::{InputPredictor, InputStatus};
use serde::{Deserialize, Serialize};

/// One player's input for one update, as it is sent to the other peers.
///
/// The axes travel as the bits of their `f32` readings, so a prediction is judged right only
/// when every bit is (a `-0.0` predicted as `0.0` is a misprediction, not a silent
/// difference), and a reading that is not a number arrives as 0.
///
/// ```
/// use bt::host::TickButtons;
/// use bt_net::PlayerInput;
///
/// let buttons = TickButtons { down: 0b10, pressed: 0b10, released: 0 };
/// let input = PlayerInput::new(buttons, [0.5, f32::NAN, 0.0, 0.0, 0.0, 0.0], true);
/// assert_eq!(input.buttons(), buttons);
/// assert_eq!(input.axes()[..2], [0.5, 0.0]);
/// assert!(input.pad());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInput {
    down: u32,
    pressed: u32,
    released: u32,
    axes: [u32; AXES],
    pad: bool,
}

impl PlayerInput {
    /// The input of a player whose buttons are `buttons`, whose raw axis readings are `axes`
    /// and whose pad is connected or not.
    pub fn new(buttons: TickButtons, axes: [f32; AXES], pad: bool) -> PlayerInput {
        PlayerInput {
            down: buttons.down,
            pressed: buttons.pressed,
            released: buttons.released,
            axes: axes.map(|a| if a.is_nan() { 0 } else { a.to_bits() }),
            pad,
        }
    }

    /// Player `player`'s part of what an update saw (`tick`): how a host hands over the
    /// input it read for its own player. A player past [`PLAYERS`] has no input.
    pub fn of_player(tick: &TickInput, player: usize) -> PlayerInput {
        match (
            tick.buttons.get(player),
            tick.axes.get(player),
            tick.pads.get(player),
        ) {
            (Some(&buttons), Some(&axes), Some(&pad)) => PlayerInput::new(buttons, axes, pad),
            _ => PlayerInput::default(),
        }
    }

    /// The player's buttons: held, and what went down and came up since the update before.
    pub fn buttons(&self) -> TickButtons {
        TickButtons {
            down: self.down,
            pressed: self.pressed,
            released: self.released,
        }
    }

    /// The raw axis readings.
    pub fn axes(&self) -> [f32; AXES] {
        self.axes.map(f32::from_bits)
    }

    /// Whether the player's pad is connected.
    pub fn pad(&self) -> bool {
        self.pad
    }
}

/// How a peer's input is guessed for updates it has not sent yet: the buttons held stay held,
/// the axes and the pad stay as they were, and no button goes down or up. Repeating the last
/// input whole would press a button again on every guessed update.
#[derive(Debug)]
pub struct HoldButtons;

impl InputPredictor<PlayerInput> for HoldButtons {
    fn predict(previous: PlayerInput) -> PlayerInput {
        PlayerInput {
            pressed: 0,
            released: 0,
            ..previous
        }
    }
}

/// The input of one update from every player's part, in player order: player `n` of the
/// session is the cart's player `n`. A disconnected player's part is idle. Everything that is
/// not shared (keys, pointer, touches, text, the pause menu's choice, reduced motion) is idle.
pub fn combine(inputs: &[(PlayerInput, InputStatus)]) -> TickInput {
    let mut tick = TickInput::default();
    for (player, (input, status)) in inputs.iter().enumerate().take(PLAYERS) {
        if *status == InputStatus::Disconnected {
            continue;
        }
        tick.buttons[player] = input.buttons();
        tick.axes[player] = input.axes();
        tick.pads[player] = input.pad();
    }
    tick
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guess_holds_the_buttons_but_presses_nothing_again() {
        let buttons = TickButtons {
            down: 0b11,
            pressed: 0b01,
            released: 0b100,
        };
        let input = PlayerInput::new(buttons, [0.25; AXES], true);
        let guess = HoldButtons::predict(input);
        assert_eq!(
            guess.buttons(),
            TickButtons {
                down: 0b11,
                pressed: 0,
                released: 0
            }
        );
        assert_eq!((guess.axes(), guess.pad()), ([0.25; AXES], true));
    }

    #[test]
    fn a_negative_zero_axis_is_not_taken_for_zero() {
        let zero = PlayerInput::new(TickButtons::default(), [0.0; AXES], false);
        let mut axes = [0.0; AXES];
        axes[3] = -0.0;
        assert_ne!(PlayerInput::new(TickButtons::default(), axes, false), zero);
    }

    #[test]
    fn players_take_their_slots_and_a_disconnected_one_is_idle() {
        let a = PlayerInput::new(
            TickButtons {
                down: 1,
                pressed: 1,
                released: 0,
            },
            [0.0; AXES],
            true,
        );
        let b = PlayerInput::new(
            TickButtons {
                down: 2,
                pressed: 0,
                released: 0,
            },
            [1.0; AXES],
            true,
        );
        let tick = combine(&[
            (a, InputStatus::Confirmed),
            (b, InputStatus::Predicted),
            (a, InputStatus::Disconnected),
        ]);
        assert_eq!(tick.buttons[0], a.buttons());
        assert_eq!(tick.buttons[1], b.buttons());
        assert_eq!(tick.axes[1], [1.0; AXES]);
        assert_eq!(tick.buttons[2], TickButtons::default());
        assert!(tick.pads[0] && tick.pads[1] && !tick.pads[2]);
        assert_eq!(PlayerInput::of_player(&tick, 1), b);
        assert_eq!(PlayerInput::of_player(&tick, 9), PlayerInput::default());
    }
}
