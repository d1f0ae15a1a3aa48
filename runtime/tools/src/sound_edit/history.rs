//! Undo and redo: the sounds as they were before each edit, as many as [`MAX_UNDO`].

use std::collections::VecDeque;

use super::Sounds;

/// How many edits can be undone. A sound file's sounds are a few KiB, so the history stays
/// under a few MiB however long the session.
pub const MAX_UNDO: usize = 200;

/// The edits made, to go back and forth through.
#[derive(Debug, Clone, Default)]
pub struct History {
    undo: VecDeque<Sounds>,
    redo: Vec<Sounds>,
    /// What the last edit was, when edits of one gesture (a drag, wheel turns on one cell) are
    /// kept as one step.
    last: Option<Gesture>,
}

/// Edits that are undone together when they follow one another: the same kind on the same
/// place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gesture {
    /// What kind of gesture (a drag on the graph, the wheel on a cell).
    pub kind: u8,
    /// Where: the sound and the cell.
    pub place: (usize, usize, usize),
}

impl History {
    /// Remembers `before`, the sounds as they were before an edit. With a `gesture` equal to
    /// the last one, the edit joins that step instead.
    pub fn record(&mut self, before: Sounds, gesture: Option<Gesture>) {
        self.redo.clear();
        if gesture.is_some() && gesture == self.last {
            return;
        }
        self.last = gesture;
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(before);
    }

    /// Ends the current gesture: the next edit is a step of its own.
    pub fn end_gesture(&mut self) {
        self.last = None;
    }

    /// The sounds to go back to from `now`, which redo then gives back.
    pub fn undo(&mut self, now: Sounds) -> Option<Sounds> {
        let back = self.undo.pop_back()?;
        self.redo.push(now);
        self.last = None;
        Some(back)
    }

    /// The sounds an undo went back from, `now` going to the undo list.
    pub fn redo(&mut self, now: Sounds) -> Option<Sounds> {
        let forward = self.redo.pop()?;
        self.undo.push_back(now);
        self.last = None;
        Some(forward)
    }

    /// How many steps can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
}
