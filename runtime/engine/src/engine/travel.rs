//! Travel through the run as it was played: to any update of it, one update at a time going
//! back (a held rewind) or straight to one (a timeline), with the sound of the updates gone
//! back over, reversed.
//!
//! The ring keeps a snapshot about every second of play, and the engine keeps what every
//! update saw since (the played log). To show update `u`, the engine restores the last
//! snapshot at or before it and steps forward with the logged input. It keeps a copy of the
//! state after each update of that stretch, [`STRETCH`] updates at most, and the samples each
//! update made, so going back further costs one restore and one render per picture until the
//! stretch is used up: one stretch's updates per [`STRETCH`] pictures.
//!
//! Nothing of the run ahead is dropped while the engine travels: the ring keeps its
//! snapshots and the log its input, so a timeline can go forward again. The first thing that
//! plays on from where the travel stopped (live play, a step, a seek, a save state) makes that
//! the run's present, and the future left behind goes.

use bt::sound::Frame;

use super::cart_panic::{guarded, CartCall};
use super::snapshot::{Snapshot, SnapshotError};
use super::{updater, Engine, EngineError};

/// Updates whose states a travel keeps at once: about a second of play at 60 updates a
/// second, the ring's first spacing, so a stretch is at most the updates between two of its
/// snapshots then. Each state is a snapshot's copy (see [`Engine::snapshots`]), so 64 of them
/// cost what 64 snapshots do.
pub const STRETCH: u64 = 64;

/// The most tags a run keeps for the timeline; past it, the older half goes.
pub const MAX_MARKS: usize = 4096;

/// Keeps `tag`, placed in update `update`, among the timeline's marks.
pub(super) fn keep_mark(marks: &mut Vec<(u64, bt::Tag)>, update: u64, tag: &bt::Tag) {
    if marks.len() >= MAX_MARKS {
        marks.drain(..MAX_MARKS / 2);
    }
    marks.push((update, tag.clone()));
}

/// A travel under way: where it started, and the stretch of states it holds.
#[derive(Default)]
pub(super) struct Travel {
    /// The last update the run had reached when the travel began: the played log holds input
    /// up to it, and no travel goes past it.
    pub(super) end: u64,
    /// The states after updates `first ..= first + states.len() - 1`.
    first: u64,
    states: Vec<Snapshot>,
    /// The samples update `first + 1 + i` made are `samples[bounds[i]..bounds[i + 1]]`.
    samples: Vec<Frame>,
    bounds: Vec<usize>,
}

impl Travel {
    /// The last update whose state the stretch holds, if it holds any.
    fn last(&self) -> Option<u64> {
        (self.states.len() as u64)
            .checked_sub(1)
            .map(|n| self.first + n)
    }

    /// Whether the stretch holds the states after updates `from ..= to`.
    fn holds(&self, from: u64, to: u64) -> bool {
        self.last()
            .is_some_and(|last| self.first <= from && to <= last)
    }
}

/// Where a travel can go: from the first update a snapshot and the played log reach, to the
/// last update the run reached, from [`Engine::travel_span`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TravelSpan {
    /// The earliest update reachable.
    pub first: u64,
    /// The last update the run reached (the present, or where play was when the travel
    /// began).
    pub last: u64,
}

impl Engine {
    /// Goes to update `update` (counted since `init`, as [`Engine::updates_since_init`]) of
    /// the run as it was played, input from outside and all, and renders it with
    /// `render_alpha` 0: a window's rewind key and its timeline. Returns the update reached:
    /// `update` held within [`Engine::travel_span`]. The engine is paused, as after a seek;
    /// [`Engine::resume`] plays on from there, and a recording branches there.
    ///
    /// Going back, the samples of the updates passed are kept reversed for
    /// [`Engine::travel_sound`], every [`Engine::set_travel_sound_step`]th one.
    ///
    /// Until play goes on, the run ahead is kept: a travel can go forward again as far as the
    /// run had reached. Then it goes, and with it snapshots and save data of that future.
    ///
    /// # Errors
    /// [`SnapshotError`] (as [`EngineError::Snapshot`]) when the cart cannot be copied, no
    /// snapshots are kept, or none is early enough to reach `update`;
    /// [`EngineError::Panicked`] when the cart panics on the way.
    pub fn travel_to(&mut self, update: u64) -> Result<u64, EngineError> {
        self.refuse_to_travel()?;
        let span = self.travel_span().ok_or_else(|| self.no_snapshot(update))?;
        if update < span.first {
            return Err(self.no_snapshot(update));
        }
        let target = update.min(span.last);
        self.begin_seek();
        let travel = self.travel.get_or_insert_with(Travel::default);
        travel.end = span.last;
        let mut here = self.updates_since_init.min(span.last);
        // A rewind's step has sound; a jump farther than a stretch (a timeline) has none, and
        // steps through no update between.
        if here.saturating_sub(target) > STRETCH {
            here = target;
        }
        while here > target {
            // The state before `here` and the samples update `here` made.
            self.hold_stretch(here - 1, here)?;
            let t = self.travel.as_ref().expect("a stretch is held");
            let low = target.max(t.first);
            let step = self.travel_sound_step;
            // Two seconds at most wait for a host to play them; one that never does keeps no
            // more.
            let room = 2 * self.console.sample_rate() as usize;
            for u in (low + 1..=here).rev() {
                let i = (u - t.first - 1) as usize;
                for frame in t.samples[t.bounds[i]..t.bounds[i + 1]].iter().rev() {
                    if self.travel_phase == 0 && self.travel_sound.len() < room {
                        self.travel_sound.push(*frame);
                    }
                    self.travel_phase = (self.travel_phase + 1) % step;
                }
            }
            here = low;
        }
        self.hold_stretch(target, target)?;
        let mut travel = self.travel.take().expect("a stretch is held");
        let restored = self.restore_from(&travel.states[(target - travel.first) as usize]);
        // What was recorded and hashed belongs to the update reached; the log and the ring
        // keep the run ahead.
        travel.end = span.last;
        self.travel = Some(travel);
        restored?;
        self.render(0.0)?;
        Ok(target)
    }

    /// Goes back `updates` updates from where the engine is ([`Engine::travel_to`]): a held
    /// rewind calls it every frame with the updates its speed covers.
    ///
    /// # Errors
    /// As [`Engine::travel_to`].
    pub fn go_back(&mut self, updates: u64) -> Result<u64, EngineError> {
        let span = self.travel_span();
        let target = self.updates_since_init.saturating_sub(updates);
        self.travel_to(span.map_or(target, |s| target.max(s.first)))
    }

    /// Where [`Engine::travel_to`] can go now: from the first snapshot the played log reaches
    /// to the last update the run reached. `None` when no snapshot is kept.
    pub fn travel_span(&self) -> Option<TravelSpan> {
        let played = self.tape.played.as_ref()?;
        let from = self.tape.played_from;
        let last = from + played.ticks();
        let first = self.ring.updates().find(|&u| u >= from && u <= last)?;
        let last = match &self.travel {
            Some(t) => t.end.min(last),
            // The update that panicked cannot be reached: it never ended.
            None if self.panic.is_some() => last.min(self.updates_since_init.saturating_sub(1)),
            None => last.min(self.updates_since_init),
        };
        Some(TravelSpan { first, last })
    }

    /// Whether the engine is travelling: it went back or forward with
    /// [`Engine::travel_to`] and has not played on since.
    pub fn is_travelling(&self) -> bool {
        self.travel.is_some()
    }

    /// The samples of the updates travels went back over since
    /// [`Engine::clear_travel_sound`], reversed, at the console's sample rate: what a window
    /// plays while a rewind is held, in place of the silence of a pause.
    pub fn travel_sound(&self) -> &[Frame] {
        &self.travel_sound
    }

    /// Empties [`Engine::travel_sound`], keeping its storage.
    pub fn clear_travel_sound(&mut self) {
        self.travel_sound.clear();
    }

    /// Keeps only every `step`th sample of the travel sound (0 counts as 1): a rewind at 4x
    /// plays its sound four times as fast, as tape does, and keeps pace with the picture.
    pub fn set_travel_sound_step(&mut self, step: usize) {
        self.travel_sound_step = step.max(1);
        self.travel_phase %= self.travel_sound_step;
    }

    /// The travel ends: the update reached becomes the run's present. Snapshots of the run
    /// ahead go (unless a replay from boot reaches them), and so does its logged input, when
    /// the next update runs.
    pub(super) fn settle_travel(&mut self) {
        let Some(mut travel) = self.travel.take() else {
            return;
        };
        let here = self.updates_since_init;
        if let Some(state) = travel
            .states
            .get((here.wrapping_sub(travel.first)) as usize)
        {
            self.ring.reproducible = state.reproducible;
            if state.reproducible {
                self.ring.left_at = None;
            }
        }
        self.ring.branch_after(here);
        self.forget_marks_after(here);
        travel.states.clear();
        self.travel_phase = 0;
    }

    /// Forgets the tags placed after update `update` (a future left behind).
    pub(super) fn forget_marks_after(&mut self, update: u64) {
        let keep = self.marks.partition_point(|(u, _)| *u <= update);
        self.marks.truncate(keep);
    }

    /// The cart's tags over the run, each with the update it was placed in, in order, while
    /// the engine keeps snapshots: the marks of a timeline ([`Engine::travel_to`]).
    pub fn travel_marks(&self) -> &[(u64, bt::Tag)] {
        &self.marks
    }

    /// A cart that cannot be copied cannot travel. One that panicked can: going back to
    /// before the panic gives back a cart that runs.
    fn refuse_to_travel(&self) -> Result<(), EngineError> {
        if self.ring.unsupported {
            return Err(SnapshotError::Unsupported.into());
        }
        Ok(())
    }

    fn no_snapshot(&self, update: u64) -> EngineError {
        let first = self.ring.updates().find(|&u| u >= self.tape.played_from);
        match (self.ring.unsupported, first) {
            (true, _) => SnapshotError::Unsupported,
            (false, None) => SnapshotError::NoneKept {
                budget: self.ring.budget(),
            },
            (false, Some(first)) => SnapshotError::NoneBefore {
                target: update,
                first,
            },
        }
        .into()
    }

    /// Makes the stretch hold the states after updates `from ..= to` (`to` at most one past
    /// `from`): restores the last snapshot at or before `from` and steps forward with the
    /// logged input, keeping the states and samples of the [`STRETCH`] updates from a
    /// multiple of it past the snapshot.
    fn hold_stretch(&mut self, from: u64, to: u64) -> Result<(), EngineError> {
        let travel = self.travel.as_ref().expect("a travel is under way");
        if travel.holds(from, to) {
            return Ok(());
        }
        let end = travel.end;
        let played_from = self.tape.played_from;
        let index = self
            .ring
            .at_or_before(from, false)
            .filter(|&i| self.ring.get(i).updates_since_init >= played_from)
            .ok_or_else(|| self.no_snapshot(from))?;
        let (base, base_reproducible) = {
            let s = self.ring.get(index);
            (s.updates_since_init, s.reproducible)
        };
        let first = base + (from - base) / STRETCH * STRETCH;
        let last = (first + STRETCH).min(end);

        let entries = std::mem::take(&mut self.ring.entries);
        let restored = self.restore_from(&entries[index]);
        self.ring.entries = entries;
        restored?;

        // The logged input of every update from the snapshot to the stretch's end.
        if let Some(played) = &self.tape.played {
            let count = usize::try_from(last - base).unwrap_or(usize::MAX);
            played.read_into(base - played_from, count, &mut self.tape.rerun);
        }
        self.tape.rerun_at = 0;
        let mut travel = self.travel.take().expect("a travel is under way");
        travel.states.clear();
        travel.samples.clear();
        travel.bounds.clear();
        travel.bounds.push(0);
        travel.first = first;
        let result = self.stretch_from(base, base_reproducible, last, &mut travel);
        self.tape.rerun.clear();
        self.tape.rerun_at = 0;
        self.travel = Some(travel);
        result
    }

    /// Steps from the restored snapshot at `base` to `travel.first`, then to `last`, keeping
    /// each state and each update's samples in `travel`.
    fn stretch_from(
        &mut self,
        base: u64,
        base_reproducible: bool,
        last: u64,
        travel: &mut Travel,
    ) -> Result<(), EngineError> {
        let mut at = base;
        while at <= last {
            if at >= travel.first {
                let reproducible = base_reproducible
                    && (self.ring.reproducible || self.ring.left_at.is_some_and(|l| at <= l));
                let (cart, console, tape) = (&self.cart, &self.console, &self.tape);
                let ticks = self.fixed.ticks();
                let taken = guarded(|| {
                    Snapshot::take(
                        cart.as_ref(),
                        console,
                        ticks,
                        at,
                        tape.place(),
                        reproducible,
                    )
                });
                match taken {
                    Ok(Some(state)) => travel.states.push(state),
                    Ok(None) => return Err(SnapshotError::Unsupported.into()),
                    Err(message) => return Err(self.stop(CartCall::Snapshot, message)),
                }
                if at == last {
                    break;
                }
            }
            if self.tape.rerun_at >= self.tape.rerun.len() {
                // The log ends before the stretch does: nothing was played past here.
                break;
            }
            let keep_samples = at >= travel.first;
            let fixed = &mut self.fixed;
            let update = updater(
                &mut self.cart,
                &mut self.console,
                &mut self.updates_since_init,
                &mut self.tape,
                &mut self.ring,
            );
            if let Err(message) = guarded(|| fixed.step(1, update)) {
                return Err(self.stop(CartCall::Update, message));
            }
            // Live play from this update on starts from what it saw, as after live play.
            self.console.input_mut().hold_what_is_seen();
            self.console.drain_tags().for_each(drop);
            let made = self.console.drain_frames();
            if keep_samples {
                travel.samples.extend(made);
                travel.bounds.push(travel.samples.len());
            } else {
                made.for_each(drop);
            }
            at += 1;
        }
        Ok(())
    }
}
