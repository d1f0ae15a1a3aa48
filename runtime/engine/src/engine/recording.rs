//! What the engine records, plays back and hashes around each update: the tape, the loop's
//! update callback that runs it, and the engine's recording and replay methods.

use std::panic::{self, AssertUnwindSafe};

use bt::host::Console;
use bt::host::{Framebuffer, TickInput};
use bt::{Cart, Palette};

use super::snapshot::{Ring, Snapshot, TapePlace};
use super::{update_once, Engine};
use crate::fixed_loop::TickAction;
use crate::replay::{frame_hash, Player, RecordedPanic, Recorder, Replay, ReplayInfo};

/// What the engine records, plays back and hashes around each update.
#[derive(Debug, Default)]
pub(super) struct Tape {
    pub(super) recorder: Option<Recorder>,
    pub(super) player: Option<Player>,
    /// Hash the frame after every `hash_every` updates since init (0: never).
    pub(super) hash_every: u64,
    /// `(updates since init, frame_hash)`.
    pub(super) hashes: Vec<(u64, u64)>,
    /// Counts the recordings and hash logs started: a snapshot's recorder length and hash
    /// count mean something only in the one it was taken in.
    pub(super) generation: u64,
    /// Keep a copy of the hashed frame after this many updates since init.
    keep_at: Option<u64>,
    kept: Option<(Framebuffer, Palette)>,
    /// What every update saw since update `played_from`, kept while snapshots are (whether or
    /// not a recording runs): a travel back steps forward from a snapshot with it. It may run
    /// past the current update while the engine travels; the next update played cuts it back.
    pub(super) played: Option<Recorder>,
    pub(super) played_from: u64,
    /// Input a travel steps through again, one per update from `rerun_at` on; while it lasts,
    /// updates take it (a replay's player still moves on) and record nothing new.
    pub(super) rerun: Vec<TickInput>,
    pub(super) rerun_at: usize,
    /// The input the next update takes in place of the live one, given by
    /// [`Engine::update_with`] (rollback netplay); recorded as any input is.
    pub(super) given: Option<TickInput>,
}

impl Tape {
    /// Where the tape is now, for a snapshot to keep.
    pub(super) fn place(&self) -> TapePlace {
        TapePlace {
            player: self.player.clone(),
            recorded: self.recorder.as_ref().map_or(0, Recorder::ticks),
            hashes: self.hashes.len(),
            generation: self.generation,
        }
    }

    /// Forgets the kept frame when the run went back before it was taken.
    pub(super) fn forget_kept_after(&mut self, updates: u64) {
        if self.keep_at.is_some_and(|at| at > updates) {
            self.kept = None;
        }
    }
}

/// Hashes reserved up front: an hour at one a second, so hashing never allocates in play.
pub(super) const RESERVED_HASHES: usize = 3600;

/// The loop's update callback: one cart update per call, counted in `updates_since_init`, with
/// the replay's input when one plays, recorded when a recorder runs, and the frame (rendered
/// with `render_alpha` 0) hashed every `hash_every` updates, and a snapshot kept in `ring` when
/// one is due.
pub(super) fn updater<'a>(
    cart: &'a mut Box<dyn Cart>,
    console: &'a mut Console,
    updates_since_init: &'a mut u64,
    tape: &'a mut Tape,
    ring: &'a mut Ring,
) -> impl FnMut(u64) -> TickAction + 'a {
    move |tick| {
        if console.quit_requested() {
            // The cart quit: the run ended with the update that asked, and none runs after.
            return TickAction::Advance;
        }
        *updates_since_init += 1;
        let from_player = tape.player.as_mut().and_then(Player::next);
        let rerun = tape.rerun.get(tape.rerun_at);
        let rerunning = rerun.is_some();
        let replayed = match (rerun, &tape.given) {
            (Some(rerun), _) => Some(rerun),
            (None, Some(given)) => Some(given),
            (None, None) => from_player,
        };
        // The input is recorded whether or not the update returns: a replay of a run that
        // ended in a panic holds the input of the update that panicked, so it reproduces it.
        // Catching here and unwinding on leaves the panic to the caller's guard, whose hook
        // has already kept its message; nothing is allocated unless the cart panics.
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            update_once(cart.as_mut(), console, tick, replayed)
        }));
        if let Some(recorder) = &mut tape.recorder {
            recorder.record(&console.input().visible());
        }
        if rerunning {
            tape.rerun_at += 1;
        } else if let Some(played) = &mut tape.played {
            // After a travel back, the log still holds the future left behind: it goes now.
            let before = *updates_since_init - 1;
            if before < tape.played_from {
                played.clear();
                tape.played_from = before;
            } else {
                played.truncate(before - tape.played_from);
            }
            played.record(&console.input().visible());
        }
        let action = match result {
            Ok(action) => action,
            Err(payload) => panic::resume_unwind(payload),
        };
        let ticks = match action {
            TickAction::Advance => tick + 1,
            TickAction::Reset => 0,
        };
        if tape.hash_every > 0 && updates_since_init.is_multiple_of(tape.hash_every) {
            cart.render(&mut console.render_context(ticks, 0.0));
            let hash = frame_hash(console.framebuffer(), console.palette());
            tape.hashes.push((*updates_since_init, hash));
            if tape.keep_at == Some(*updates_since_init) {
                tape.kept = Some((console.framebuffer().clone(), console.palette().clone()));
            }
        }
        if !rerunning && ring.due(*updates_since_init) {
            let reproducible = ring.reproducible;
            ring.keep(Snapshot::take(
                cart.as_ref(),
                console,
                ticks,
                *updates_since_init,
                tape.place(),
                reproducible,
            ));
        }
        action
    }
}

impl Engine {
    /// A seek from the start begins the run again: the recording and the hashes start over,
    /// and a replay plays from its first tick.
    pub(super) fn rewind_tape(&mut self) {
        let tape = &mut self.tape;
        if let Some(r) = &mut tape.recorder {
            r.clear();
        }
        if let Some(p) = &mut tape.player {
            p.rewind();
        }
        tape.hashes.clear();
    }

    /// Records what every update from now on sees, and hashes the frame every `hash_every`
    /// updates since init (0 keeps the hashing as it is). A replay plays from boot, so start
    /// recording before the first update; a seek from the start begins the recording again.
    pub fn start_recording(&mut self, hash_every: u64) {
        self.tape.recorder = Some(Recorder::new());
        self.tape.generation += 1;
        if hash_every > 0 {
            self.log_hashes(hash_every);
        }
    }

    /// Whether the engine records what each update sees ([`Engine::start_recording`]).
    pub fn is_recording(&self) -> bool {
        self.tape.recorder.is_some()
    }

    /// The recording so far as a replay of the cart `cart` (version `cart_version`), or `None`
    /// when nothing is being recorded. Once the cart panicked, the replay says so
    /// ([`Replay::panic`]) and holds the input of the update that panicked.
    pub fn recording(&self, cart: &str, cart_version: Option<&str>) -> Option<Replay> {
        let recorder = self.tape.recorder.as_ref()?;
        Some(self.replay_of(
            cart,
            cart_version,
            recorder.clone(),
            self.tape.hashes.clone(),
        ))
    }

    /// The input every update saw from boot to now, as a replay of the cart `cart`, from the
    /// recording or, without one, from what the engine logs for travel while it keeps
    /// snapshots (then without frame hashes). `None` when neither holds the run from boot.
    pub(super) fn played_from_boot(
        &self,
        cart: &str,
        cart_version: Option<&str>,
    ) -> Option<Replay> {
        if let Some(replay) = self.recording(cart, cart_version) {
            return Some(replay);
        }
        let played = self
            .tape
            .played
            .as_ref()
            .filter(|_| self.tape.played_from == 0)?;
        let mut played = played.clone();
        played.truncate(self.updates_since_init);
        (played.ticks() == self.updates_since_init)
            .then(|| self.replay_of(cart, cart_version, played, Vec::new()))
    }

    fn replay_of(
        &self,
        cart: &str,
        cart_version: Option<&str>,
        recorder: Recorder,
        hashes: Vec<(u64, u64)>,
    ) -> Replay {
        let info = ReplayInfo {
            cart: cart.to_string(),
            cart_version: cart_version.map(str::to_string),
            seed: self.seed,
            target_fps: self.settings.target_fps,
            width: self.settings.width,
            height: self.settings.height,
            args: self.args.clone(),
            hash_every: self.tape.hash_every.max(1),
            reduced_motion: self.console.input().reduced_motion_at_boot(),
        };
        let replay = Replay::new(info, recorder, hashes)
            .with_boot_save(self.console.boot_save().used().to_vec());
        match &self.panic {
            Some(panic) => replay.ended_in_panic(RecordedPanic::of(panic, self.updates_since_init)),
            None => replay,
        }
    }

    /// Hashes the cart's frame, rendered with `render_alpha` 0, after every `every` updates
    /// since init ([`crate::replay::frame_hash`]); 0 stops. The hashes so far are forgotten.
    pub fn log_hashes(&mut self, every: u64) {
        self.tape.generation += 1;
        self.tape.hash_every = every;
        self.tape.hashes.clear();
        self.tape.hashes.reserve(RESERVED_HASHES);
    }

    /// Keeps a copy of the frame hashed after `update` updates since init (with its palette),
    /// for [`Engine::kept_frame`]: the picture behind a hash.
    pub fn keep_frame_at(&mut self, update: u64) {
        self.tape.keep_at = Some(update);
        self.tape.kept = None;
    }

    /// The frame kept by [`Engine::keep_frame_at`], once the run got there.
    pub fn kept_frame(&self) -> Option<&(Framebuffer, Palette)> {
        self.tape.kept.as_ref()
    }

    /// Forgets the frame hashes taken so far, keeping their storage: for a host that reads
    /// [`Engine::hashes`] after every frame and needs no more of them, so a run of any length
    /// takes the same memory.
    pub fn clear_hashes(&mut self) {
        self.tape.hashes.clear();
    }

    /// The frame hashes taken so far, `(updates since init, hash)` in order.
    pub fn hashes(&self) -> &[(u64, u64)] {
        &self.tape.hashes
    }

    /// The replay being played, while it has ticks left or until [`Engine::stop_replay`].
    pub fn replay(&self) -> Option<&Replay> {
        self.tape.player.as_ref().map(Player::replay)
    }

    /// Stops playing the replay: from the next update on, input is live.
    ///
    /// The snapshots kept so far are forgotten: they hold the replay's player, and a replay
    /// from boot now plays no replay.
    pub fn stop_replay(&mut self) {
        self.settle_travel();
        self.tape.player = None;
        self.ring.clear();
        self.ring.leave_reproducible(self.updates_since_init);
    }
}
