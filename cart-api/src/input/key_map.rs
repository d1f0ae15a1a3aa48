//! The keyboard's key map as a cart sees and changes it: which keys press each button of the
//! two keyboard players.
//!
//! A cart asks for a change in `update` ([`Update::set_key_map`](crate::Update::set_key_map));
//! the console keeps the cart's map, and the host applies it to the keyboard once the update is
//! over. What the cart's map says depends only on the cart's own calls, so a run replays the same
//! whatever key-map file the player has.

use thiserror::Error;

use crate::input::{Button, Key, Player};

/// How many players the keyboard serves: `Player::ONE` and `Player::TWO`.
pub const KEYBOARD_PLAYERS: usize = 2;

/// How many buttons a key map assigns: `Button::UP` to `Button::SELECT`, bits 0 to 11.
pub const MAPPABLE_BUTTONS: usize = 12;

/// Keys the host keeps for itself, in a window and in a page alike: the overlay, rewinding
/// (held), saving the replay so far, saving and loading a state, pause, step, the tall chart,
/// saving the last seconds of timings, the screenshot, GIF recording and fullscreen: Backquote
/// and F1 to F11. No key map can give one to a cart.
pub const HOST_KEYS: [Key; 12] = [
    Key::Backquote,
    Key::F1,
    Key::F2,
    Key::F3,
    Key::F4,
    Key::F5,
    Key::F6,
    Key::F7,
    Key::F8,
    Key::F9,
    Key::F10,
    Key::F11,
];

/// A set of keys, as a key map gives them to one button.
///
/// ```
/// use bt::{Key, KeySet};
///
/// let keys = KeySet::from_keys(&[Key::KeyK, Key::Space]);
/// assert!(keys.contains(Key::Space));
/// assert_eq!(keys.iter().collect::<Vec<_>>(), [Key::KeyK, Key::Space]);
/// assert_eq!(keys.len(), 2);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct KeySet(u128);

impl KeySet {
    /// No keys.
    pub const EMPTY: KeySet = KeySet(0);

    /// The set of `keys` (a key given twice counts once).
    pub fn from_keys(keys: &[Key]) -> KeySet {
        KeySet(keys.iter().fold(0, |set, k| set | k.bit()))
    }

    /// The set as bits, bit `k` for `Key::ALL[k]`.
    pub fn bits(self) -> u128 {
        self.0
    }

    /// The set of bits `bits` (bits past the last key are dropped).
    pub fn from_bits(bits: u128) -> KeySet {
        let all = if crate::input::KEY_COUNT >= 128 {
            u128::MAX
        } else {
            (1u128 << crate::input::KEY_COUNT) - 1
        };
        KeySet(bits & all)
    }

    /// Whether `key` is in the set.
    pub fn contains(self, key: Key) -> bool {
        self.0 & key.bit() != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many keys the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The keys, in the order of `Key::ALL`.
    pub fn iter(self) -> impl Iterator<Item = Key> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            let i = m.trailing_zeros() as usize;
            let key = *Key::ALL.get(i)?;
            m &= m - 1;
            Some(key)
        })
    }
}

/// Why a cart's change of the key map was refused. Nothing changes when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum KeyMapError {
    /// Only players one and two have the keyboard.
    #[error("set_key_map: player {} has no keyboard (players 1 and 2 do)", player.index() + 1)]
    NotAKeyboardPlayer {
        /// The player asked for.
        player: Player,
    },
    /// The button is not exactly one of `Button::UP` to `Button::SELECT`.
    #[error(
        "set_key_map: {button:?} is not one button a key map assigns \
         (one of Button::UP, DOWN, LEFT, RIGHT, A, B, X, Y, L, R, START, SELECT)"
    )]
    NotOneButton {
        /// The button (or set) asked for.
        button: Button,
    },
    /// A key the host keeps for itself ([`HOST_KEYS`]).
    #[error(
        "set_key_map(player {}, {}): {} is a host key (Backquote and F1 to F11 cannot be mapped)",
        player.index() + 1, button_name(*button), key.code()
    )]
    HostKey {
        /// The player.
        player: Player,
        /// The button.
        button: Button,
        /// The key.
        key: Key,
    },
}

/// The names of the mappable buttons, as key-map files spell them, by bit.
pub const BUTTON_NAMES: [&str; MAPPABLE_BUTTONS] = [
    "up", "down", "left", "right", "a", "b", "x", "y", "l", "r", "start", "select",
];

/// The file name of a mappable button (`"a"`), or `"?"`.
fn button_name(button: Button) -> &'static str {
    button_index(button)
        .and_then(|i| BUTTON_NAMES.get(i).copied())
        .unwrap_or("?")
}

/// The index (0 to 11) of `button` when it is exactly one mappable button.
pub(crate) fn button_index(button: Button) -> Option<usize> {
    let bits = button.bits();
    (bits.count_ones() == 1)
        .then(|| bits.trailing_zeros() as usize)
        .filter(|&i| i < MAPPABLE_BUTTONS)
}

/// Which keys press each mappable button of each keyboard player.
///
/// ```
/// use bt::host::KeyMapTable;
/// use bt::{Button, Key, Player};
///
/// let mut map = KeyMapTable::default();
/// assert!(map.keys(Player::ONE, Button::A).contains(Key::KeyZ));
/// map.set(Player::ONE, Button::A, &[Key::KeyK])?;
/// assert_eq!(map.keys(Player::ONE, Button::A).iter().collect::<Vec<_>>(), [Key::KeyK]);
/// assert!(map.set(Player::TWO, Button::B, &[Key::F5]).is_err());
/// # Ok::<(), bt::KeyMapError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyMapTable {
    keys: [[KeySet; MAPPABLE_BUTTONS]; KEYBOARD_PLAYERS],
}

impl Default for KeyMapTable {
    /// Player 1 on the arrows with Z, C, N or Space for A and X, V or M for B (as PICO-8 and
    /// Pyxel players expect), Enter for Start and Escape for Select; player 2 on W A S D with
    /// F for A, G for B and Tab for Start.
    fn default() -> KeyMapTable {
        use Key::*;
        let p1: [&[Key]; MAPPABLE_BUTTONS] = [
            &[ArrowUp],
            &[ArrowDown],
            &[ArrowLeft],
            &[ArrowRight],
            &[KeyZ, KeyC, KeyN, Space],
            &[KeyX, KeyV, KeyM],
            &[],
            &[],
            &[],
            &[],
            &[Enter],
            &[Escape],
        ];
        let p2: [&[Key]; MAPPABLE_BUTTONS] = [
            &[KeyW],
            &[KeyS],
            &[KeyA],
            &[KeyD],
            &[KeyF],
            &[KeyG],
            &[],
            &[],
            &[],
            &[],
            &[Tab],
            &[],
        ];
        KeyMapTable {
            keys: [p1.map(KeySet::from_keys), p2.map(KeySet::from_keys)],
        }
    }
}

impl KeyMapTable {
    /// A map in which no key presses anything.
    pub fn empty() -> KeyMapTable {
        KeyMapTable {
            keys: [[KeySet::EMPTY; MAPPABLE_BUTTONS]; KEYBOARD_PLAYERS],
        }
    }

    /// The keys that press `button` for `player`: empty for players three and four, and for a
    /// button that is not exactly one of `Button::UP` to `Button::SELECT`.
    pub fn keys(&self, player: Player, button: Button) -> KeySet {
        match (self.keys.get(player.index()), button_index(button)) {
            (Some(row), Some(b)) => row[b],
            _ => KeySet::EMPTY,
        }
    }

    /// The keys for mappable button number `button` (0 to 11, `Button::UP` to
    /// `Button::SELECT`) of keyboard player `player` (0 or 1); empty past either.
    pub fn keys_at(&self, player: usize, button: usize) -> KeySet {
        self.keys
            .get(player)
            .and_then(|row| row.get(button))
            .copied()
            .unwrap_or_default()
    }

    /// Makes `keys` the only keys that press `button` for `player` (an empty list unmaps it).
    ///
    /// # Errors
    /// [`KeyMapError::NotAKeyboardPlayer`] for players three and four,
    /// [`KeyMapError::NotOneButton`] for a button that is not exactly one of `Button::UP` to
    /// `Button::SELECT`, [`KeyMapError::HostKey`] naming the first host key in `keys`. The
    /// map is unchanged then.
    pub fn set(&mut self, player: Player, button: Button, keys: &[Key]) -> Result<(), KeyMapError> {
        let row = self
            .keys
            .get_mut(player.index())
            .ok_or(KeyMapError::NotAKeyboardPlayer { player })?;
        let b = button_index(button).ok_or(KeyMapError::NotOneButton { button })?;
        if let Some(&key) = keys.iter().find(|k| HOST_KEYS.contains(k)) {
            return Err(KeyMapError::HostKey {
                player,
                button,
                key,
            });
        }
        row[b] = KeySet::from_keys(keys);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_player_button_and_key() {
        let mut map = KeyMapTable::default();
        let e = map
            .set(Player::ONE, Button::START, &[Key::KeyK, Key::F5])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "set_key_map(player 1, start): F5 is a host key (Backquote and F1 to F11 cannot be mapped)"
        );
        let e = map.set(Player::THREE, Button::A, &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "set_key_map: player 3 has no keyboard (players 1 and 2 do)"
        );
        for bad in [Button::A | Button::B, Button::POINTER_A, Button::NONE] {
            let e = map.set(Player::ONE, bad, &[Key::KeyK]).unwrap_err();
            assert_eq!(e, KeyMapError::NotOneButton { button: bad });
        }
        assert_eq!(map, KeyMapTable::default(), "nothing changed");
    }

    #[test]
    fn an_empty_list_unmaps_the_button() {
        let mut map = KeyMapTable::default();
        map.set(Player::TWO, Button::UP, &[]).unwrap();
        assert!(map.keys(Player::TWO, Button::UP).is_empty());
        assert!(map.keys(Player::THREE, Button::UP).is_empty());
        assert_eq!(map.keys_at(0, 4), map.keys(Player::ONE, Button::A));
    }
}
