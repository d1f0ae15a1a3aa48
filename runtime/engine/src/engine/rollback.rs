//! What rollback netplay asks of the engine: one update with input given from outside and no
//! picture, the whole run kept and taken back without drawing (one snapshot's copy each), the
//! frame hash of the state after an update, and the newest state drawn once a frame.
//!
//! A rollback session saves the state before every update it may have to redo, loads an older
//! one when a peer's input turns out other than predicted, and runs the updates again with the
//! corrected input, several times a frame: so none of these draws, counts a player's restart or
//! starts the overlay's chart over, as [`Engine::load_state`] does for a player's save slot.

use bt::host::TickInput;

use super::cart_panic::{guarded, CartCall};
use super::recording::updater;
use super::snapshot::{Snapshot, SnapshotError};
use super::{Engine, EngineError};
use crate::replay::frame_hash;

/// The whole run after some update, from [`Engine::save_rollback_state`], to go back to with
/// [`Engine::load_rollback_state`]. Only the engine that saved it loads it. It holds one
/// snapshot (the cart's copy and the console's), and with it the length of the recording and
/// of the frame hashes, which a load cuts back to.
pub struct RollbackState {
    snapshot: Snapshot,
    engine: u64,
}

impl std::fmt::Debug for RollbackState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RollbackState")
            .field("updates", &self.snapshot.updates_since_init)
            .finish_non_exhaustive()
    }
}

impl RollbackState {
    /// Updates since `init` when the state was saved.
    pub fn updates(&self) -> u64 {
        self.snapshot.updates_since_init
    }
}

impl Engine {
    /// Runs exactly one update with `input` in place of the console's live input, and draws
    /// nothing: a rollback session's advance. The update is recorded as any other (with its
    /// frame hash when one is due, [`Engine::start_recording`]). Input given from outside makes
    /// the run one a replay from boot does not reproduce, as [`Engine::console_mut`] does, so
    /// seeks stop reusing its snapshots. An engine whose cart quit runs no more updates.
    ///
    /// # Errors
    /// [`EngineError::Panicked`] when the cart panics (the engine then stays paused with the
    /// panic) or had panicked; [`EngineError::Init`] after a replay whose `init` failed.
    pub fn update_with(&mut self, input: &TickInput) -> Result<(), EngineError> {
        self.settle_travel();
        self.refuse_half_built()?;
        self.ring.leave_reproducible(self.updates_since_init);
        self.tape.given = Some(*input);
        let fixed = &mut self.fixed;
        let update = updater(
            &mut self.cart,
            &mut self.console,
            &mut self.updates_since_init,
            &mut self.tape,
            &mut self.ring,
        );
        let result = guarded(|| fixed.step(1, update));
        self.tape.given = None;
        if let Err(message) = result {
            return Err(self.stop(CartCall::Update, message));
        }
        if self.console.quit_requested() {
            self.paused = true;
        }
        Ok(())
    }

    /// Keeps the whole run as it is now, drawing nothing: one snapshot's copy (see
    /// [`Engine::snapshots`] for their size), with the recording's and the frame hashes'
    /// length, not their contents. [`Engine::save_state`] also keeps those whole, for a save
    /// slot the run may have left far behind.
    ///
    /// # Errors
    /// [`SnapshotError::Unsupported`] when the cart cannot be copied ([`bt::Cart::snapshot`]);
    /// [`EngineError::Panicked`] when it panicked, or panics copying itself.
    pub fn save_rollback_state(&mut self) -> Result<RollbackState, EngineError> {
        self.settle_travel();
        if let Some(panic) = &self.panic {
            return Err(EngineError::Panicked(panic.clone()));
        }
        let (cart, console, tape) = (&self.cart, &self.console, &self.tape);
        let (ticks, updates, reproducible) = (
            self.fixed.ticks(),
            self.updates_since_init,
            self.ring.reproducible,
        );
        let taken = guarded(|| {
            Snapshot::take(
                cart.as_ref(),
                console,
                ticks,
                updates,
                tape.place(),
                reproducible,
            )
        });
        match taken {
            Ok(Some(snapshot)) => Ok(RollbackState {
                snapshot,
                engine: self.id,
            }),
            Ok(None) => Err(SnapshotError::Unsupported.into()),
            Err(message) => Err(self.stop(CartCall::Snapshot, message)),
        }
    }

    /// Goes back to `state` (saved by this engine on the run it is on), drawing nothing: the
    /// cart (a copy of the kept one), the console, the tick counter and the updates since
    /// `init`; the recording and the frame hashes are cut back to that update, and the
    /// snapshots the engine kept after it (of the future left behind) go. Sound not yet
    /// drained and tags not yet shown are forgotten: they belong to the updates undone.
    ///
    /// # Errors
    /// [`SnapshotError::OtherEngine`] for a state of another engine; [`EngineError::Panicked`]
    /// when the cart panics copying itself.
    pub fn load_rollback_state(&mut self, state: &RollbackState) -> Result<(), EngineError> {
        if state.engine != self.id {
            return Err(SnapshotError::OtherEngine.into());
        }
        self.settle_travel();
        self.take_on(&state.snapshot)?;
        self.console.drain_tags().for_each(drop);
        self.console.drain_frames().for_each(drop);
        let updates = state.snapshot.updates_since_init;
        self.ring.branch_after(updates);
        self.forget_marks_after(updates);
        Ok(())
    }

    /// The frame hash ([`frame_hash`]) of the state now: the cart's frame drawn with
    /// `render_alpha` 0 and no overlay, as a replay's hashes are taken, so it is the hash a
    /// replay of the same run holds for this update. When the recording hashed this very
    /// update, that hash is given and nothing is drawn again. The framebuffer holds that
    /// frame afterwards, until [`Engine::show`].
    ///
    /// # Errors
    /// [`EngineError::Panicked`] when the cart panics drawing, or had panicked.
    pub fn state_hash(&mut self) -> Result<u64, EngineError> {
        self.refuse_half_built()?;
        let updates = self.updates_since_init;
        if let Some(&(at, hash)) = self.tape.hashes.last() {
            if at == updates {
                return Ok(hash);
            }
        }
        let ticks = self.fixed.ticks();
        let (cart, console) = (&self.cart, &mut self.console);
        if let Err(message) = guarded(|| cart.render(&mut console.render_context(ticks, 0.0))) {
            return Err(self.stop(CartCall::Render, message));
        }
        Ok(frame_hash(
            self.console.framebuffer(),
            self.console.palette(),
        ))
    }

    /// Draws the newest state once, with `render_alpha` 0 and the overlay over it, as a frame
    /// of its own: the frame count goes up, and the tags the cart placed since the last frame
    /// go to [`Engine::last_frame_tags`] and the overlay's chart. A rollback session calls it
    /// once a frame, after its updates.
    ///
    /// # Errors
    /// [`EngineError::Panicked`] when the cart panics drawing, or had panicked;
    /// [`EngineError::Init`] after a replay whose `init` failed.
    pub fn show(&mut self) -> Result<(), EngineError> {
        self.refuse_half_built()?;
        if !std::mem::take(&mut self.keep_boot_tags) {
            self.frame_tags.clear();
        }
        self.forward_tags(true);
        self.render(0.0)?;
        self.frames += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use bt::host::{TickButtons, TickInput};
    use bt::{Button, Cart, Player, Render, Update};

    use crate::engine::{Engine, EngineOptions, SnapshotError};
    use crate::EngineError;

    /// Moves a dot by player two's buttons and beeps on A: its frame shows every update's
    /// input, and its sound says which updates ran.
    #[derive(Debug, Clone, Default)]
    struct Dot {
        x: i32,
        y: i32,
    }

    impl Cart for Dot {
        fn snapshot(&self) -> Option<Box<dyn Cart>> {
            bt::cloned(self)
        }
        fn update(&mut self, ctx: &mut Update<'_>) {
            if ctx.is_down(Button::RIGHT, Player::TWO) {
                self.x += 1;
            }
            if ctx.is_pressed(Button::A, Player::TWO) {
                self.y += 1;
            }
        }
        fn render(&self, ctx: &mut Render<'_>) {
            ctx.clear(1);
            ctx.draw_pixel(self.x, self.y, 7);
        }
    }

    fn engine() -> Engine {
        Engine::new(
            Box::new(|| Box::new(Dot::default())),
            EngineOptions::default(),
        )
        .unwrap()
    }

    fn input(down: u32, pressed: u32) -> TickInput {
        let mut input = TickInput::default();
        input.buttons[1] = TickButtons {
            down,
            pressed,
            released: 0,
        };
        input
    }

    #[test]
    fn an_update_with_given_input_runs_once_and_is_recorded() {
        let mut engine = engine();
        engine.start_recording(1);
        let right = input(Button::RIGHT.bits(), 0);
        engine.update_with(&right).unwrap();
        engine.update_with(&right).unwrap();
        assert_eq!(engine.updates_since_init(), 2);
        assert_eq!(engine.ticks(), 2);
        let replay = engine.recording("dot", None).unwrap();
        let seen: Vec<TickInput> = replay.recording().iter().collect();
        assert_eq!(seen, vec![right, right]);
    }

    #[test]
    fn loading_a_rollback_state_goes_back_and_cuts_the_recording() {
        let mut engine = engine();
        engine.start_recording(1);
        let right = input(Button::RIGHT.bits(), 0);
        engine.update_with(&right).unwrap();
        let hash_after_one = engine.state_hash().unwrap();
        let state = engine.save_rollback_state().unwrap();
        engine.show().unwrap();
        let frames = engine.frames();
        for _ in 0..3 {
            engine.update_with(&right).unwrap();
        }
        let restarts = engine.restarts();
        engine.load_rollback_state(&state).unwrap();
        assert_eq!(engine.frames(), frames, "a load is no frame");
        assert_eq!(
            engine.restarts(),
            restarts,
            "a rollback is no player's restart"
        );
        assert_eq!((engine.updates_since_init(), engine.ticks()), (1, 1));
        assert_eq!(engine.state_hash().unwrap(), hash_after_one);
        let replay = engine.recording("dot", None).unwrap();
        assert_eq!(replay.ticks(), 1);
        assert_eq!(engine.hashes().len(), 1);
        // Played on with other input, the run is the one that input gives.
        let a = input(Button::A.bits(), Button::A.bits());
        engine.update_with(&a).unwrap();
        let mut fresh = self::engine();
        fresh.update_with(&right).unwrap();
        fresh.update_with(&a).unwrap();
        assert_eq!(engine.state_hash().unwrap(), fresh.state_hash().unwrap());
    }

    #[test]
    fn a_rollback_state_loads_only_into_its_own_engine() {
        let mut one = engine();
        let mut other = engine();
        let state = one.save_rollback_state().unwrap();
        assert!(matches!(
            other.load_rollback_state(&state),
            Err(EngineError::Snapshot(SnapshotError::OtherEngine))
        ));
    }

    #[test]
    fn the_state_hash_is_the_hash_a_recording_takes() {
        let mut recorded = engine();
        recorded.start_recording(1);
        let mut plain = engine();
        let right = input(Button::RIGHT.bits(), 0);
        for _ in 0..5 {
            recorded.update_with(&right).unwrap();
            plain.update_with(&right).unwrap();
        }
        let logged = recorded.hashes().last().copied().unwrap();
        assert_eq!(logged, (5, plain.state_hash().unwrap()));
        assert_eq!(recorded.state_hash().unwrap(), logged.1);
    }

    #[test]
    fn show_draws_the_newest_state_once_as_a_frame() {
        let mut engine = engine();
        let right = input(Button::RIGHT.bits(), 0);
        engine.update_with(&right).unwrap();
        engine.update_with(&right).unwrap();
        let frames = engine.frames();
        engine.show().unwrap();
        assert_eq!(engine.frames(), frames + 1);
        let fb = engine.framebuffer();
        assert_eq!(fb.pixels()[2], 7, "the dot two pixels right");
    }
}
