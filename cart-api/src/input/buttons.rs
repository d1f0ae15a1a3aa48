//! Buttons by where they come from: [`Source`], and one player's buttons held by each source
//! with the edges of their union.

use super::edges::{Bits, Edges};
use super::BUTTON_COUNT;

/// Where a button change comes from. A button is held while any source holds it, so letting go
/// of a key does not release the same button held on a gamepad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// The host's key map.
    Keyboard,
    /// A gamepad.
    Gamepad,
    /// The mouse or a touch.
    Pointer,
    /// Injected directly (tests, scripted input).
    Direct,
}

pub(super) const SOURCES: usize = 4;

impl Source {
    pub(super) fn index(self) -> usize {
        match self {
            Source::Keyboard => 0,
            Source::Gamepad => 1,
            Source::Pointer => 2,
            Source::Direct => 3,
        }
    }
}

/// One player's buttons: what each source holds, and the edges of their union.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct PlayerButtons {
    pub(super) by_source: [u32; SOURCES],
    pub(super) edges: Edges<u32, BUTTON_COUNT>,
}

impl PlayerButtons {
    pub(super) fn set_source(&mut self, source: usize, held: u32) {
        self.by_source[source] = held;
        let now = self.by_source.iter().fold(0, |a, b| a | b);
        self.edges.set_held(now);
    }

    pub(super) fn pressed_repeat(&self, mask: u32, now: u64, every_ticks: u64) -> bool {
        let e = &self.edges;
        let mut fires = false;
        (mask & (e.pressed | e.down)).each(|i| fires |= e.repeats(i, 1 << i, now, every_ticks));
        fires
    }
}
