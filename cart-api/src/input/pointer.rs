//! The pointer and touches: where the mouse is and how it moved, and the touch slots a cart
//! follows ([`Touch`]).

use super::edges::Edges;

/// Touches a cart can follow at once, each in its own slot (`0..TOUCH_SLOTS`): a finger keeps
/// its slot from touching down to lifting off, and a new finger takes the first free slot. The
/// mouse is not a touch; it is the pointer.
pub const TOUCH_SLOTS: usize = 3;

/// One touch as an update sees it ([`Update::touch`](crate::Update::touch)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Touch {
    /// Where the finger is (or lifted off), in display pixels, clamped to the display.
    pub pos: (i32, i32),
    /// How far it moved since the previous update; `(0, 0)` on the update it touched down.
    pub delta: (i32, i32),
    /// Whether it is on the screen in this update (a tap shorter than a tick is down, pressed
    /// and released in the one update that sees it, as a button is).
    pub down: bool,
    /// Whether it touched down since the previous update.
    pub pressed: bool,
    /// Whether it lifted off since the previous update.
    pub released: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Pointer {
    /// The latest position the host reported, and whether it reported one at all.
    pub(super) latest: (i32, i32),
    pub(super) active: bool,
    /// Motion the host reported while the pointer was locked, since the last update.
    pub(super) motion_pending: (i32, i32),
    pub(super) wheel_pending: (f32, f32),
    /// What the current update sees.
    pub(super) pos: (i32, i32),
    pub(super) delta: (i32, i32),
    pub(super) wheel: (f32, f32),
    /// Whether the pointer was over the display as the current update began.
    pub(super) active_seen: bool,
    pub(super) seen: bool,
}

/// The touch slots: where each finger is, and the edges of touching down and lifting off.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Touches {
    /// The latest position the host reported for each slot.
    pub(super) latest: [(i32, i32); TOUCH_SLOTS],
    pub(super) edges: Edges<u32, TOUCH_SLOTS>,
    /// What the current update sees.
    pub(super) pos: [(i32, i32); TOUCH_SLOTS],
    pub(super) delta: [(i32, i32); TOUCH_SLOTS],
}

impl Touches {
    /// Update number `update` begins: positions are sampled, edges become visible.
    pub(super) fn begin_update(&mut self, update: u64) {
        self.edges.begin_update(update);
        for slot in 0..TOUCH_SLOTS {
            let bit = 1 << slot;
            let e = &self.edges;
            let moved = e.pressed & bit == 0 && (e.down | e.released) & bit != 0;
            let (now, was) = (self.latest[slot], self.pos[slot]);
            self.delta[slot] = if moved {
                (now.0 - was.0, now.1 - was.1)
            } else {
                (0, 0)
            };
            self.pos[slot] = now;
        }
    }

    pub(super) fn get(&self, slot: usize) -> Option<Touch> {
        let bit = 1u32 << slot.min(31);
        let e = &self.edges;
        (slot < TOUCH_SLOTS && (e.down | e.released) & bit != 0).then(|| Touch {
            pos: self.pos[slot],
            delta: self.delta[slot],
            down: e.down & bit != 0,
            pressed: e.pressed & bit != 0,
            released: e.released & bit != 0,
        })
    }
}
