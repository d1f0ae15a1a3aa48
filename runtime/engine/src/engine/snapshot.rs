//! Snapshots: the engine's whole state at one update, the ring that keeps them as the engine
//! steps, and going back to one (a seek behind, a rewind).
//!
//! The ring holds snapshots of one timeline, the one the engine is on. Each says whether it is
//! *reproducible*: whether a replay from boot (the same cart, seed, boot save data and replay,
//! and no other input) reaches that very state. Only those serve a seek, which must give what
//! a replay from boot gives; any of them serves a rewind, which goes back to what was played.

use bt::host::ConsoleSnapshot;
use bt::Cart;

use super::cart_panic::{guarded, CartCall};
use super::{Engine, EngineError};
use crate::replay::Player;

/// Updates between two snapshots at first. The ring doubles it whenever its snapshots outgrow
/// the budget, dropping every other one, so a long run keeps snapshots across all of it; a seek
/// served from the ring runs fewer updates than the spacing. 64 updates is about a second of
/// play at 60 updates a second: a seek that short costs less than a frame of most carts.
pub const FIRST_SNAPSHOT_EVERY: u64 = 64;

/// The memory the snapshot ring may hold by default: 64 MiB, room for minutes of a cart with
/// 100,000 things at the first spacing and hours of a small one.
pub const DEFAULT_SNAPSHOT_BUDGET: usize = 64 << 20;

/// The engine's state after some update: what [`Engine`](super::Engine) needs to carry on from
/// there exactly as it did.
pub(super) struct Snapshot {
    /// A copy of the cart, never run itself: a restore runs a copy of it.
    pub(super) cart: Box<dyn Cart>,
    pub(super) console: ConsoleSnapshot,
    /// The tick counter as the loop keeps it (the cart may have reset it).
    pub(super) ticks: u64,
    pub(super) updates_since_init: u64,
    /// The replay's player where it was, if one plays.
    pub(super) player: Option<Player>,
    /// Updates recorded, and frame hashes taken, by then, in the tape's `generation`.
    pub(super) recorded: u64,
    pub(super) hashes: usize,
    pub(super) generation: u64,
    /// A replay from boot reaches this state.
    pub(super) reproducible: bool,
    /// About how many bytes the snapshot holds outside the ring's list
    /// ([`Cart::snapshot_bytes`], the pixels of the cart's [`bt::Image`]s, and the heap part of
    /// [`ConsoleSnapshot::size_hint`]).
    pub(super) bytes: usize,
}

impl Snapshot {
    /// The state now, after `updates_since_init` updates that left the loop's tick counter at
    /// `ticks`; `None` when the cart cannot be copied.
    pub(super) fn take(
        cart: &dyn Cart,
        console: &bt::host::Console,
        ticks: u64,
        updates_since_init: u64,
        tape: TapePlace,
        reproducible: bool,
    ) -> Option<Snapshot> {
        // BT's own images the copy holds are counted whatever the cart says of itself: one
        // drawn on each update makes every snapshot hold pixels of its own.
        let images_before = bt::host::image_bytes_copied();
        let copy = cart.snapshot()?;
        let images = bt::host::image_bytes_copied().saturating_sub(images_before);
        let console = console.snapshot();
        // The struct itself sits in the ring's list, which counts it.
        let bytes = console.size_hint() - std::mem::size_of::<ConsoleSnapshot>()
            + cart.snapshot_bytes()
            + usize::try_from(images).unwrap_or(usize::MAX)
            + tape
                .player
                .as_ref()
                .map_or(0, |_| std::mem::size_of::<Player>());
        Some(Snapshot {
            cart: copy,
            console,
            ticks,
            updates_since_init,
            player: tape.player,
            recorded: tape.recorded,
            hashes: tape.hashes,
            generation: tape.generation,
            reproducible,
            bytes,
        })
    }
}

/// Where the tape (the replay played, the recording, the frame hashes) is at a snapshot:
/// what going back puts back.
pub(super) struct TapePlace {
    pub(super) player: Option<Player>,
    pub(super) recorded: u64,
    pub(super) hashes: usize,
    pub(super) generation: u64,
}

/// Snapshots of the engine's timeline, every `every` updates since `init`, under a memory
/// budget.
pub(super) struct Ring {
    /// In order of `updates_since_init`, each at a multiple of `every`.
    pub(super) entries: Vec<Snapshot>,
    budget: usize,
    bytes: usize,
    every: u64,
    /// Whether the engine's timeline so far is one a replay from boot reproduces: no input or
    /// change came from outside (see `Engine::console_mut`).
    pub(super) reproducible: bool,
    /// The update after which the timeline stopped being reproducible, while it is not.
    pub(super) left_at: Option<u64>,
    /// The cart answered `None` to [`Cart::snapshot`]: it is not asked again.
    pub(super) unsupported: bool,
}

impl Ring {
    pub(super) fn new(budget: usize) -> Ring {
        Ring {
            entries: Vec::new(),
            budget,
            bytes: 0,
            every: FIRST_SNAPSHOT_EVERY,
            reproducible: true,
            left_at: None,
            unsupported: false,
        }
    }

    /// Whether a snapshot is due after `updates` updates since `init`: on the spacing, and
    /// not already held (a seek stepping through a stretch the ring already covers).
    pub(super) fn due(&self, updates: u64) -> bool {
        self.budget > 0
            && !self.unsupported
            && updates.is_multiple_of(self.every)
            && self.find(updates).is_err()
    }

    fn find(&self, updates: u64) -> Result<usize, usize> {
        self.entries
            .binary_search_by_key(&updates, |s| s.updates_since_init)
    }

    /// Keeps `snapshot` (or notes that the cart cannot be copied), then thins the ring until
    /// it fits the budget: the spacing doubles and the snapshots off it go. A snapshot alone
    /// larger than the budget is not kept.
    pub(super) fn keep(&mut self, snapshot: Option<Snapshot>) {
        let Some(snapshot) = snapshot else {
            self.unsupported = true;
            return;
        };
        let at = match self.find(snapshot.updates_since_init) {
            Ok(_) => return,
            Err(at) => at,
        };
        self.entries.insert(at, snapshot);
        self.count_bytes();
        self.thin();
    }

    /// Doubles the spacing, dropping the snapshots off it, until the ring fits its budget; a
    /// snapshot alone larger than the budget is not kept.
    fn thin(&mut self) {
        while self.bytes > self.budget && self.entries.len() > 1 {
            self.every = self.every.saturating_mul(2);
            let every = self.every;
            self.entries
                .retain(|s| s.updates_since_init.is_multiple_of(every));
            // The list's spare room counts against the budget too.
            self.entries.shrink_to_fit();
            self.count_bytes();
        }
        if self.bytes > self.budget {
            self.entries = Vec::new();
            self.count_bytes();
        }
    }

    /// The last snapshot at or before `updates`, of any kind (a rewind) or reproducible only
    /// (a seek).
    pub(super) fn at_or_before(&self, updates: u64, reproducible_only: bool) -> Option<usize> {
        let end = match self.find(updates) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        self.entries[..end]
            .iter()
            .rposition(|s| s.reproducible || !reproducible_only)
    }

    pub(super) fn get(&self, index: usize) -> &Snapshot {
        &self.entries[index]
    }

    /// The timeline branches after `updates`: snapshots past it are of another future and go.
    /// Reproducible ones stay when the engine is reproducible again (a replay from boot
    /// reaches them whichever way it went).
    pub(super) fn branch_after(&mut self, updates: u64) {
        let keep_reproducible = self.reproducible;
        self.entries
            .retain(|s| s.updates_since_init <= updates || (keep_reproducible && s.reproducible));
        self.count_bytes();
    }

    /// Something from outside changed the run after `updates` (input fed, a file reloaded):
    /// from here on the timeline is no replay from boot's.
    pub(super) fn leave_reproducible(&mut self, updates: u64) {
        if self.reproducible {
            self.reproducible = false;
            self.left_at = Some(updates);
            self.branch_after(updates);
        }
    }

    /// Forgets every snapshot (what a replay from boot gives has changed).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.count_bytes();
    }

    /// The snapshots' bytes, with the room the list holds for them.
    fn count_bytes(&mut self) {
        self.bytes = self.entries.iter().map(|s| s.bytes).sum::<usize>()
            + self.entries.capacity() * std::mem::size_of::<Snapshot>();
    }

    /// Drops the snapshots a replay from boot would not reach: after a seek from the start
    /// the engine is on the reproducible timeline.
    pub(super) fn back_to_boot(&mut self) {
        self.reproducible = true;
        self.left_at = None;
        self.entries.retain(|s| s.reproducible);
        self.count_bytes();
    }

    pub(super) fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.thin();
    }

    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    pub(super) fn budget(&self) -> usize {
        self.budget
    }

    pub(super) fn every(&self) -> u64 {
        self.every
    }

    pub(super) fn updates(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.iter().map(|s| s.updates_since_init)
    }
}

/// Why the engine could not go back to a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The cart offers no copy of itself ([`Cart::snapshot`] answers `None`).
    #[error(
        "this cart cannot be copied, so it cannot go back: its Cart::snapshot answers None \
         (a cart that derives Clone writes `fn snapshot(&self) -> Option<Box<dyn Cart>> \
         {{ bt::cloned(self) }}`)"
    )]
    Unsupported,
    /// The engine keeps no snapshots: its budget
    /// ([`EngineOptions::snapshot_budget`](super::EngineOptions::snapshot_budget)) is 0, or one
    /// snapshot is larger than it.
    #[error("no snapshots are kept (snapshot budget {budget} bytes)")]
    NoneKept {
        /// The budget, in bytes.
        budget: usize,
    },
    /// A save state made by another engine (another cart, or another run of it).
    #[error("the save state is of another engine (another cart, or another run of it)")]
    OtherEngine,
    /// No snapshot is at or before the update asked for.
    #[error("no snapshot at or before update {target}; the first kept is after update {first}")]
    NoneBefore {
        /// The update asked for.
        target: u64,
        /// The first update a snapshot is kept after.
        first: u64,
    },
}

/// What the snapshot ring holds now, from [`Engine::snapshots`](super::Engine::snapshots).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotStats {
    /// How many snapshots are kept.
    pub count: usize,
    /// About how many bytes they hold together (each counted by
    /// [`ConsoleSnapshot::size_hint`] and [`Cart::snapshot_bytes`]).
    pub bytes: usize,
    /// The budget they are kept under, in bytes.
    pub budget: usize,
    /// Updates between two snapshots now.
    pub every: u64,
    /// The first and last update a snapshot is kept after, if any is.
    pub span: Option<(u64, u64)>,
    /// Whether the cart can be copied at all ([`Cart::snapshot`]); `None` until the engine
    /// first asked.
    pub supported: Option<bool>,
}

impl Engine {
    /// Keeps the state right after `init` (update 0), when the ring holds none yet.
    pub(super) fn keep_boot_snapshot(&mut self) {
        if self.ring.due(0) {
            let snapshot = Snapshot::take(
                self.cart.as_ref(),
                &self.console,
                self.fixed.ticks(),
                0,
                self.tape.place(),
                self.ring.reproducible,
            );
            self.ring.keep(snapshot);
        }
    }

    /// Puts the engine back as it was at the ring's snapshot `index` (see
    /// [`Engine::restore_from`]); later snapshots of another future go.
    pub(super) fn restore(&mut self, index: usize) -> Result<(), EngineError> {
        // Lent out of the ring while the engine takes its state on.
        let entries = std::mem::take(&mut self.ring.entries);
        let result = self.restore_from(&entries[index]);
        self.ring.entries = entries;
        result?;
        let snap = self.ring.get(index);
        let (reproducible, updates) = (snap.reproducible, snap.updates_since_init);
        self.ring.reproducible = reproducible;
        if reproducible {
            self.ring.left_at = None;
        }
        self.ring.branch_after(updates);
        self.forget_marks_after(updates);
        Ok(())
    }

    /// Takes on `snap`'s state: the cart (a copy of the kept one), the console, the tick
    /// counter, the updates since `init`, the replay's place, the recording (cut back to that
    /// update: it branches from there) and the frame hashes. Tags, samples not yet drained and
    /// a cart panic are forgotten. The ring is left as it is.
    pub(super) fn restore_from(&mut self, snap: &Snapshot) -> Result<(), EngineError> {
        self.take_on(snap)?;
        self.restarts += 1;
        if let Some(overlay) = &mut self.overlay {
            overlay.reset_chart(self.fixed.ticks());
        }
        Ok(())
    }

    /// [`Engine::restore_from`] without what a player's seek also does (count a restart, start
    /// the overlay's chart over): what a rollback, which goes back every few frames, needs.
    pub(super) fn take_on(&mut self, snap: &Snapshot) -> Result<(), EngineError> {
        let cart = match guarded(|| snap.cart.snapshot()) {
            Ok(Some(cart)) => cart,
            Ok(None) => return Err(SnapshotError::Unsupported.into()),
            Err(message) => return Err(self.stop(CartCall::Snapshot, message)),
        };
        self.cart = cart;
        self.console.restore(&snap.console);
        self.fixed.restore_ticks(snap.ticks);
        self.updates_since_init = snap.updates_since_init;
        self.tape.player.clone_from(&snap.player);
        // The recording and the hashes go back with the run; a recording begun after the
        // snapshot cannot, and starts over from here.
        let same = snap.generation == self.tape.generation;
        if let Some(recorder) = &mut self.tape.recorder {
            recorder.truncate(if same { snap.recorded } else { 0 });
        }
        self.tape
            .hashes
            .truncate(if same { snap.hashes } else { 0 });
        self.tape.forget_kept_after(snap.updates_since_init);
        self.panic = None;
        self.init_failed = false;
        Ok(())
    }

    /// Goes back to update `update` of the run as it was played and renders it: the same as
    /// [`Engine::travel_to`] (see there), kept under the name a window's rewind key had.
    ///
    /// Snapshots are kept every [`SnapshotStats::every`] updates as the engine steps (first
    /// every [`FIRST_SNAPSHOT_EVERY`], spacing out as they fill
    /// [`EngineOptions::snapshot_budget`](super::EngineOptions::snapshot_budget)), and one
    /// right after `init`; [`Engine::snapshots`] says what is kept. A travel starts from the
    /// last one at or before the update it goes to.
    ///
    /// # Errors
    /// As [`Engine::travel_to`].
    pub fn rewind(&mut self, update: u64) -> Result<u64, EngineError> {
        self.travel_to(update)
    }

    /// Changes the memory the snapshots may hold
    /// ([`EngineOptions::snapshot_budget`](super::EngineOptions::snapshot_budget)): with less,
    /// the ring thins out at once; 0 forgets every snapshot and keeps none from now on.
    pub fn set_snapshot_budget(&mut self, bytes: usize) {
        self.settle_travel();
        self.ring.set_budget(bytes);
        match (bytes, &self.tape.played) {
            (0, _) => self.tape.played = None,
            (_, None) => {
                // A travel needs the input since a snapshot: logged from here on.
                self.tape.played = Some(crate::replay::Recorder::new());
                self.tape.played_from = self.updates_since_init;
            }
            _ => {}
        }
    }

    /// What the snapshot ring holds now.
    pub fn snapshots(&self) -> SnapshotStats {
        let mut updates = self.ring.updates();
        let first = updates.next();
        let last = updates.last().or(first);
        SnapshotStats {
            count: self.ring.updates().count(),
            bytes: self.ring.bytes(),
            budget: self.ring.budget(),
            every: self.ring.every(),
            span: first.zip(last),
            supported: if self.ring.unsupported {
                Some(false)
            } else {
                first.map(|_| true)
            },
        }
    }
}
