//! Undo and redo for sprite sheets: each step keeps only what it changed (the pixels of one
//! rectangle before and after, or one sprite's flags), so a step on a large sheet costs the
//! size of the edit, not of the sheet.
//!
//! The sound editor's history keeps whole documents (a sound file is a few KiB); a sheet may
//! be 16 MiB, so this one keeps differences instead.

use std::collections::VecDeque;

/// How many edits can be undone.
pub const MAX_UNDO: usize = 256;

/// How many bytes of pixels the steps may keep in all: the oldest steps go first past it, so a
/// long session of sheet-wide edits on the largest sheet stays within 64 MiB.
pub const MAX_UNDO_BYTES: usize = 64 << 20;

/// A rectangle of a sheet, in its pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Area {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width in pixels.
    pub w: i32,
    /// Height in pixels.
    pub h: i32,
}

impl Area {
    /// The area at (`x`, `y`), `w` by `h`.
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Area {
        Area { x, y, w, h }
    }

    /// Whether (`x`, `y`) is inside.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (self.x..self.x + self.w).contains(&x) && (self.y..self.y + self.h).contains(&y)
    }

    /// The area spanned by two corners (both inside it).
    pub fn spanning(a: (i32, i32), b: (i32, i32)) -> Area {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        Area::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// The part of this area inside `other` (empty when they do not meet).
    pub fn within(&self, other: Area) -> Area {
        let x0 = self.x.max(other.x);
        let y0 = self.y.max(other.y);
        let x1 = (self.x + self.w).min(other.x + other.w);
        let y1 = (self.y + self.h).min(other.y + other.h);
        Area::new(x0, y0, (x1 - x0).max(0), (y1 - y0).max(0))
    }

    /// The smallest area holding both.
    pub fn union(&self, other: Area) -> Area {
        let x0 = self.x.min(other.x);
        let y0 = self.y.min(other.y);
        let x1 = (self.x + self.w).max(other.x + other.w);
        let y1 = (self.y + self.h).max(other.y + other.h);
        Area::new(x0, y0, x1 - x0, y1 - y0)
    }

    /// How many pixels.
    pub fn len(&self) -> usize {
        (self.w.max(0) as usize) * (self.h.max(0) as usize)
    }

    /// Whether it holds no pixel.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What one step changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The pixels of `area`, row by row, before and after.
    Pixels {
        /// Where.
        area: Area,
        /// The pixels before the edit.
        before: Vec<u8>,
        /// The pixels after it.
        after: Vec<u8>,
    },
    /// One sprite's flags, before and after.
    Flags {
        /// The sprite's number (its tile id).
        sprite: usize,
        /// The flags before.
        before: u8,
        /// The flags after.
        after: u8,
    },
}

/// One undo step: a change to one sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Which open sheet (its tab).
    pub sheet: usize,
    /// What changed.
    pub change: Change,
}

impl Step {
    fn bytes(&self) -> usize {
        match &self.change {
            Change::Pixels { before, after, .. } => before.len() + after.len(),
            Change::Flags { .. } => 2,
        }
    }
}

/// The edits made, to go back and forth through.
#[derive(Debug, Clone, Default)]
pub struct History {
    undo: VecDeque<Step>,
    redo: Vec<Step>,
    bytes: usize,
}

impl History {
    /// Remembers a step just made; what could be redone is gone.
    pub fn record(&mut self, step: Step) {
        self.redo.clear();
        self.bytes += step.bytes();
        self.undo.push_back(step);
        while self.undo.len() > MAX_UNDO || self.bytes > MAX_UNDO_BYTES && self.undo.len() > 1 {
            if let Some(old) = self.undo.pop_front() {
                self.bytes -= old.bytes();
            }
        }
    }

    /// The step to undo (its `before` to put back); it goes to the redo list.
    pub fn undo(&mut self) -> Option<&Step> {
        let step = self.undo.pop_back()?;
        self.bytes -= step.bytes();
        self.redo.push(step);
        self.redo.last()
    }

    /// The step to redo (its `after` to put back); it goes back to the undo list.
    pub fn redo(&mut self) -> Option<&Step> {
        let step = self.redo.pop()?;
        self.bytes += step.bytes();
        self.undo.push_back(step);
        self.undo.back()
    }

    /// How many steps can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag(sprite: usize) -> Step {
        Step {
            sheet: 0,
            change: Change::Flags {
                sprite,
                before: 0,
                after: 1,
            },
        }
    }

    #[test]
    fn the_oldest_steps_go_past_the_limit_and_redo_follows_undo() {
        let mut h = History::default();
        for i in 0..MAX_UNDO + 10 {
            h.record(flag(i));
        }
        assert_eq!(h.undo_len(), MAX_UNDO);
        assert_eq!(h.undo(), Some(&flag(MAX_UNDO + 9)));
        assert_eq!(h.redo(), Some(&flag(MAX_UNDO + 9)));
        assert_eq!(h.redo(), None);
        for _ in 0..MAX_UNDO {
            assert!(h.undo().is_some());
        }
        assert_eq!(h.undo(), None, "the first ten went past the limit");
    }

    #[test]
    fn large_steps_are_dropped_past_the_byte_budget_but_the_last_stays() {
        let mut h = History::default();
        let big = |n| Step {
            sheet: 0,
            change: Change::Pixels {
                area: Area::new(0, 0, 1, 1),
                before: vec![0; n],
                after: vec![1; n],
            },
        };
        h.record(big(MAX_UNDO_BYTES / 4));
        h.record(big(MAX_UNDO_BYTES / 4));
        assert_eq!(
            h.undo_len(),
            2,
            "three quarters of the budget twice over: one went"
        );
        h.record(big(MAX_UNDO_BYTES));
        assert_eq!(
            h.undo_len(),
            1,
            "a step past the budget alone is still kept"
        );
    }
}
