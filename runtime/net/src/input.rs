//! What of the input crosses the network: each player's buttons (with their edges), axes and
//! whether a pad is connected. Keys, the pointer, touches and typed text stay on their own
//! machine: a cart played over the network sees them idle.

use bt::host::{Input, Source, TickButtons, TickInput};
use bt::limits::{AXES, PLAYERS};
use bt::Player;
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

/// The local player's input between a host's frames: the buttons held as player one (from the
/// keyboard, pads, the pointer and direct input, whichever player this peer plays), with every
/// press and release since the input last handed over, so a tap between two frames reaches the
/// next update as a press and a release; and that input again, unchanged, until the session
/// takes it ([`crate::FrameWork::input_taken`]), so no press is lost to a full prediction
/// window. The window and the web page keep one each.
#[derive(Debug, Clone, Copy)]
pub struct LocalInput {
    /// The input handed over last.
    input: PlayerInput,
    /// Whether `input` was taken, so the next frame reads the buttons afresh.
    fresh: bool,
    /// The buttons held at the last look.
    held: u32,
    /// Buttons that went down, and up, since the last input handed over.
    went_down: u32,
    went_up: u32,
}

impl Default for LocalInput {
    fn default() -> LocalInput {
        LocalInput {
            input: PlayerInput::default(),
            fresh: true,
            held: 0,
            went_down: 0,
            went_up: 0,
        }
    }
}

impl LocalInput {
    /// Notes the buttons held now in `input` (the console's): call it after every event.
    pub fn observe(&mut self, input: &Input) {
        let held = [
            Source::Keyboard,
            Source::Gamepad,
            Source::Pointer,
            Source::Direct,
        ]
        .iter()
        .fold(0, |all, &s| all | input.held_from(s, Player::ONE).bits());
        self.went_down |= held & !self.held;
        self.went_up |= self.held & !held;
        self.held = held;
    }

    /// The input to hand the session this frame: read afresh from `input` when the last was
    /// taken, else the last again.
    pub fn next(&mut self, input: &Input) -> PlayerInput {
        if self.fresh {
            self.observe(input);
            let buttons = TickButtons {
                down: self.held,
                pressed: std::mem::take(&mut self.went_down),
                released: std::mem::take(&mut self.went_up),
            };
            self.input = PlayerInput::new(buttons, [0.0; AXES], false);
        }
        self.input
    }

    /// Says whether the session took the input [`Self::next`] gave.
    pub fn taken(&mut self, taken: bool) {
        self.fresh = taken;
    }
}

/// A frame of a peer running ahead of the others is made this much longer, so they fall level
/// again (GGRS's time sync); a tenth is not felt.
pub const AHEAD_STRETCH: f64 = 1.1;

#[cfg(test)]
mod local_tests {
    use super::*;
    use bt::Button;

    #[test]
    fn a_tap_between_two_frames_arrives_as_a_press_and_a_release() {
        let mut input = Input::default();
        let mut local = LocalInput::default();
        input.set_held_from(Source::Keyboard, Button::A, Player::ONE);
        local.observe(&input);
        input.set_held_from(Source::Keyboard, Button::NONE, Player::ONE);
        let given = local.next(&input);
        assert_eq!(
            given.buttons(),
            TickButtons {
                down: 0,
                pressed: Button::A.bits(),
                released: Button::A.bits()
            }
        );
    }

    #[test]
    fn an_input_not_taken_is_given_again_and_a_taken_one_is_read_afresh() {
        let mut input = Input::default();
        let mut local = LocalInput::default();
        input.set_held_from(Source::Gamepad, Button::UP, Player::ONE);
        let first = local.next(&input);
        local.taken(false);
        input.set_held_from(Source::Gamepad, Button::NONE, Player::ONE);
        assert_eq!(local.next(&input), first);
        local.taken(true);
        let after = local.next(&input).buttons();
        assert_eq!(after.down, 0);
        assert_eq!(after.released, Button::UP.bits());
    }
}
