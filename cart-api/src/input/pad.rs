//! The typed names of what a player holds: [`Button`] (one button or a set of them),
//! [`Player`] and [`Axis`]. Reading and writing input takes them in one order, what then
//! whose: `ctx.is_down(button, player)`, `ctx.axis(axis, player)`, and on the host side
//! `input.set_buttons(button, player, down)`, `input.set_axis(axis, player, value)`. Each
//! argument has its own type, so swapping two of them does not compile.

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

/// How many players the console tracks.
pub const PLAYERS: usize = 4;

/// How many axes a player has.
pub const AXES: usize = 6;

/// A button, or several joined with `|`: a question about a set is answered for any button in
/// it (`ctx.is_pressed(Button::A | Button::START, Player::ONE)`).
///
/// ```
/// use bt::Button;
///
/// let jump = Button::A | Button::UP;
/// assert!(jump.contains(Button::UP));
/// assert!(!jump.contains(Button::B));
/// assert_eq!(Button::ABXY, Button::A | Button::B | Button::X | Button::Y);
/// assert!(Button::NONE.is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Button(u32);

impl Button {
    /// No button.
    pub const NONE: Button = Button(0);
    /// D-pad up.
    pub const UP: Button = Button(1 << 0);
    /// D-pad down.
    pub const DOWN: Button = Button(1 << 1);
    /// D-pad left.
    pub const LEFT: Button = Button(1 << 2);
    /// D-pad right.
    pub const RIGHT: Button = Button(1 << 3);
    /// Face button A.
    pub const A: Button = Button(1 << 4);
    /// Face button B.
    pub const B: Button = Button(1 << 5);
    /// Face button X.
    pub const X: Button = Button(1 << 6);
    /// Face button Y.
    pub const Y: Button = Button(1 << 7);
    /// Left shoulder.
    pub const L: Button = Button(1 << 8);
    /// Right shoulder.
    pub const R: Button = Button(1 << 9);
    /// Start.
    pub const START: Button = Button(1 << 10);
    /// Select.
    pub const SELECT: Button = Button(1 << 11);
    /// Pointer button A (mouse left, touch).
    pub const POINTER_A: Button = Button(1 << 12);
    /// Pointer button B (mouse right).
    pub const POINTER_B: Button = Button(1 << 13);
    /// Pointer button C (mouse middle).
    pub const POINTER_C: Button = Button(1 << 14);
    /// Pointer button D (mouse back/forward).
    pub const POINTER_D: Button = Button(1 << 15);
    /// Left trigger (gamepads only).
    pub const L2: Button = Button(1 << 16);
    /// Right trigger (gamepads only).
    pub const R2: Button = Button(1 << 17);
    /// Any face button.
    pub const ABXY: Button = Button(Button::A.0 | Button::B.0 | Button::X.0 | Button::Y.0);
    /// Any shoulder button.
    pub const SHOULDER: Button = Button(Button::L.0 | Button::R.0);
    /// Any trigger.
    pub const TRIGGER: Button = Button(Button::L2.0 | Button::R2.0);
    /// Any pointer button.
    pub const POINTER_ANY: Button = Button(
        Button::POINTER_A.0 | Button::POINTER_B.0 | Button::POINTER_C.0 | Button::POINTER_D.0,
    );
    /// Every button.
    pub const ALL: Button = Button((1 << BUTTON_COUNT) - 1);

    /// The set as bits, one per button (`UP` is bit 0 ... `R2` bit 17): the form replays and
    /// key maps store.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set of the buttons whose bits are set in `bits`; bits past the last button are
    /// dropped.
    pub const fn from_bits(bits: u32) -> Button {
        Button(bits & Button::ALL.0)
    }

    /// Whether every button of `other` is in this set.
    pub const fn contains(self, other: Button) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether this set and `other` share a button.
    pub const fn intersects(self, other: Button) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set holds no button.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// How many buttons there are (`Button::UP` to `Button::R2`).
pub const BUTTON_COUNT: usize = 18;

impl BitOr for Button {
    type Output = Button;
    fn bitor(self, rhs: Button) -> Button {
        Button(self.0 | rhs.0)
    }
}

impl BitOrAssign for Button {
    fn bitor_assign(&mut self, rhs: Button) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Button({:#x})", self.0)
    }
}

/// One of the four players. Players are counted from one in their names and from zero in
/// [`Player::index`], which is what arrays of per-player state use.
///
/// ```
/// use bt::Player;
///
/// assert_eq!(Player::ONE.index(), 0);
/// assert_eq!(Player::new(3), Some(Player::FOUR));
/// assert_eq!(Player::new(4), None);
/// assert_eq!(Player::ALL.len(), bt::limits::PLAYERS);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// The first player (index 0): the arrows and Z/X in `bt run`'s default key map.
    pub const ONE: Player = Player(0);
    /// The second player (index 1): WASD in the default key map.
    pub const TWO: Player = Player(1);
    /// The third player (index 2).
    pub const THREE: Player = Player(2);
    /// The fourth player (index 3).
    pub const FOUR: Player = Player(3);
    /// Every player, in order.
    pub const ALL: [Player; PLAYERS] = [Player::ONE, Player::TWO, Player::THREE, Player::FOUR];

    /// The player with index `index` (0 to 3), or `None` past the last.
    pub const fn new(index: usize) -> Option<Player> {
        if index < PLAYERS {
            Some(Player(index as u8))
        } else {
            None
        }
    }

    /// The player's index, 0 to 3.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A gamepad axis: sticks read -1 to 1 (left and up negative), triggers 0 to 1.
///
/// ```
/// use bt::Axis;
///
/// assert_eq!(Axis::ALL.len(), bt::limits::AXES);
/// assert_eq!(Axis::TriggerR.index(), 5);
/// assert_eq!(Axis::new(1), Some(Axis::LeftY));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Axis {
    /// Left stick, horizontal: -1 (left) to 1 (right).
    LeftX,
    /// Left stick, vertical: -1 (up) to 1 (down).
    LeftY,
    /// Right stick, horizontal.
    RightX,
    /// Right stick, vertical.
    RightY,
    /// Left trigger: 0 (released) to 1 (fully pulled).
    TriggerL,
    /// Right trigger.
    TriggerR,
}

impl Axis {
    /// Every axis, in index order.
    pub const ALL: [Axis; AXES] = [
        Axis::LeftX,
        Axis::LeftY,
        Axis::RightX,
        Axis::RightY,
        Axis::TriggerL,
        Axis::TriggerR,
    ];

    /// The axis with index `index` (0 to 5, in the order of [`Axis::ALL`]), or `None`.
    pub const fn new(index: usize) -> Option<Axis> {
        if index < AXES {
            Some(Axis::ALL[index])
        } else {
            None
        }
    }

    /// The axis's index, 0 to 5.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this is a trigger (read 0 to 1) rather than a stick (-1 to 1).
    pub const fn is_trigger(self) -> bool {
        matches!(self, Axis::TriggerL | Axis::TriggerR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_and_axis_round_trips_through_its_index() {
        for (i, p) in Player::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Player::new(i), Some(p));
        }
        for (i, a) in Axis::ALL.into_iter().enumerate() {
            assert_eq!(a.index(), i);
            assert_eq!(Axis::new(i), Some(a));
        }
        assert_eq!(Axis::new(AXES), None);
    }

    #[test]
    fn button_bits_past_the_last_button_are_dropped() {
        assert_eq!(Button::from_bits(u32::MAX), Button::ALL);
        assert_eq!(Button::from_bits(Button::R2.bits()), Button::R2);
        assert_eq!(Button::ALL.bits().count_ones() as usize, BUTTON_COUNT);
    }
}
