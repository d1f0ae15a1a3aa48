//! Input as the simulation sees it: buttons, keys, the pointer, gamepad axes and typed text,
//! collected from the host between updates and handed to the next update that begins.
//!
//! | file | its job |
//! | --- | --- |
//! | `mod.rs` | [`Input`], the state the host feeds and `update` reads |
//! | `feed.rs` | what the host does to it: set inputs, begin an update, replay one |
//! | `read.rs` | what an update asks of it |
//! | `edges.rs` | presses and releases collected between updates, and repeats |
//! | `buttons.rs` | [`Source`] and a player's buttons held by each source |
//! | `pointer.rs` | the pointer and the touch slots ([`Touch`]) |
//! | `stick.rs` | the sticks' dead zone and the triggers' press point |
//! | `pad.rs`, `keys.rs`, `key_map.rs`, `tick.rs` | [`Button`], [`Player`], [`Axis`]; [`Key`]; the key map; one update's [`TickInput`] |
//! | `tests.rs` | the input rules, tested together |

mod buttons;
mod edges;
mod feed;
mod key_map;
mod keys;
mod pad;
mod pointer;
mod read;
mod stick;
mod tick;

pub use buttons::Source;
pub use key_map::{
    KeyMapError, KeyMapTable, KeySet, BUTTON_NAMES, HOST_KEYS, KEYBOARD_PLAYERS, MAPPABLE_BUTTONS,
};
pub use keys::{Key, UnknownKey, KEY_COUNT};
pub use pad::{Axis, Button, Player, AXES, BUTTON_COUNT, PLAYERS};
pub use pointer::{Touch, TOUCH_SLOTS};
pub use stick::{stick_with_dead_zone, STICK_DEAD_ZONE, TRIGGER_PRESS};
pub use tick::{TickButtons, TickInput};

use buttons::PlayerButtons;
use edges::Edges;
use pointer::{Pointer, Touches};

/// The most bytes of typed text kept for one update; anything typed beyond it before the update
/// runs is dropped (so a long pause cannot grow the buffer without bound).
pub const INPUT_STRING_CAPACITY: usize = 64;

/// Everything the host feeds and `update` reads, for all players.
///
/// Edges are collected between updates and handed to the next update that begins: a press is seen
/// by exactly one update, even when the frame it arrived in ran no update, and even when the button
/// was let go again before that update (a tap faster than a tick). When one frame runs several
/// updates, only the first sees the edge; `is_down` holds in all of them. Keys, pointer buttons and
/// gamepad buttons all follow this rule. Levels (pointer position, axes) are sampled as each
/// update begins, so every update of a run sees the same values whatever the frame rate was.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// Updates begun so far: the time base of repeats, immune to `reset_ticks`.
    updates: u64,
    players: [PlayerButtons; PLAYERS],
    keys: Edges<u128, KEY_COUNT>,
    pointer: Pointer,
    touches: Touches,
    axes_latest: [[f32; AXES]; PLAYERS],
    axes: [[f32; AXES]; PLAYERS],
    pads: [bool; PLAYERS],
    /// Which gamepads were connected as the current update began.
    pads_seen: [bool; PLAYERS],
    text_pending: String,
    text: String,
    /// The cart's menu item chosen for the next update (slot + 1, 0 for none), and the one the
    /// current update sees.
    menu_pending: u8,
    menu_seen: u8,
    /// The player's reduced-motion preference: as the run booted (what `init` sees, and again
    /// after [`Input::clear`]), as the host last said, as the current update sees it and as
    /// the update before saw it.
    motion_boot: bool,
    motion_latest: bool,
    motion_seen: bool,
    motion_before: bool,
}

impl Default for Input {
    fn default() -> Input {
        Input::blank(
            String::with_capacity(INPUT_STRING_CAPACITY),
            String::with_capacity(INPUT_STRING_CAPACITY),
        )
    }
}

#[cfg(test)]
mod tests;
