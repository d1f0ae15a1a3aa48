//! Undo and redo as the cells each edit changed, not copies of the map: a 2048 × 2048 map's
//! layer is 16 MiB, so the sound editor's whole-document history would not fit here.

use std::collections::VecDeque;

/// How many edits can be undone.
pub const MAX_UNDO: usize = 256;

/// One cell changed: its layer, its index in the layer, what it held and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Change {
    pub layer: usize,
    pub index: usize,
    pub before: u32,
    pub after: u32,
}

/// The edits made, to go back and forth through.
#[derive(Debug, Default)]
pub(super) struct History {
    undo: VecDeque<Vec<Change>>,
    redo: Vec<Vec<Change>>,
}

impl History {
    /// Remembers an edit's changes as one step.
    pub fn record(&mut self, step: Vec<Change>) {
        if step.is_empty() {
            return;
        }
        self.redo.clear();
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(step);
    }

    /// The step to take back, which redo then gives again.
    pub fn undo(&mut self) -> Option<&[Change]> {
        let step = self.undo.pop_back()?;
        self.redo.push(step);
        self.redo.last().map(Vec::as_slice)
    }

    /// The step an undo took back.
    pub fn redo(&mut self) -> Option<&[Change]> {
        let step = self.redo.pop()?;
        self.undo.push_back(step);
        self.undo.back().map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_step_goes_past_the_limit() {
        let mut h = History::default();
        for i in 0..MAX_UNDO + 5 {
            h.record(vec![Change {
                layer: 0,
                index: i,
                before: 0,
                after: 1,
            }]);
        }
        let mut undone = 0;
        while let Some(step) = h.undo() {
            assert_eq!(step[0].index, MAX_UNDO + 4 - undone);
            undone += 1;
        }
        assert_eq!(undone, MAX_UNDO);
        assert_eq!(h.redo().unwrap()[0].index, 5);
    }
}
