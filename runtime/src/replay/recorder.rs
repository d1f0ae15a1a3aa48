//! The recorder: what each update saw, run-length encoded.

use bt::host::TickInput;

/// Runs the recorder reserves up front, so a recording session grows its storage only after a
/// thousand changes of input.
const RESERVED_RUNS: usize = 1024;

/// One stretch of identical ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Run {
    pub(super) tick: TickInput,
    pub(super) count: u64,
}

/// Records what each update saw, run-length encoded: consecutive identical ticks are stored
/// once with a count, so storage grows only when input changes. Recording a tick never
/// allocates unless it starts a run beyond the storage already reserved.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorder {
    pub(super) runs: Vec<Run>,
    pub(super) ticks: u64,
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder::new()
    }
}

impl Recorder {
    /// An empty recording, with room for a thousand changes of input.
    pub fn new() -> Recorder {
        Recorder {
            runs: Vec::with_capacity(RESERVED_RUNS),
            ticks: 0,
        }
    }

    /// Adds the next update's input.
    pub fn record(&mut self, tick: &TickInput) {
        self.ticks += 1;
        if let Some(last) = self.runs.last_mut() {
            if last.tick == *tick {
                last.count += 1;
                return;
            }
        }
        self.runs.push(Run {
            tick: *tick,
            count: 1,
        });
    }

    /// Updates recorded.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Runs of identical ticks stored.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Forgets everything (a seek from the start begins the run again).
    pub fn clear(&mut self) {
        self.runs.clear();
        self.ticks = 0;
    }

    /// Every recorded tick in order, one item per update.
    pub fn iter(&self) -> impl Iterator<Item = &TickInput> + '_ {
        self.runs
            .iter()
            .flat_map(|r| std::iter::repeat_n(&r.tick, r.count as usize))
    }
}
