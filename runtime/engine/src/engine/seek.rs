//! Seeking: the exact frame at a time (`render_at`, from boot or from where the engine is),
//! stepping paused play, and pausing and resuming live play.

use super::*;
use crate::fixed_loop::{tick_at, TimeError};

/// Where [`Engine::play_replay_then_live`] went live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Continued {
    /// Updates since `init` played before going live, all of them run.
    pub updates: u64,
    /// The tick counter there (which a cart that restarts itself sets back).
    pub ticks: u64,
}

/// Where [`Engine::render_at`] counts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// Replay from boot: a freshly built cart, the boot seed, tick 0.
    #[default]
    Start,
    /// Step forward from where the engine is now; the target may not lie behind it.
    Current,
}

impl Engine {
    /// Pauses live play and renders exactly the frame at `seconds` of simulated time, that is
    /// after `round(seconds × target_fps)` updates since `init` (by [`tick_at`]), with
    /// `render_alpha` 0.
    ///
    /// From [`Origin::Start`] the frame is the one a replay from boot gives: a freshly built
    /// cart, the boot seed, a boot palette, the camera at the origin, no input (or the replay's),
    /// tick 0, `init` again. The engine gets there from the last snapshot at or before the
    /// target that such a replay reaches (see [`Engine::rewind`] for the snapshots), or from
    /// boot when it has none. From [`Origin::Current`] it steps forward from where it is; a
    /// target behind the current update is sought as from the start. The engine then stays
    /// paused ([`Engine::run`] delivers no frames) until [`Engine::resume`].
    ///
    /// # Errors
    /// [`EngineError::Time`] for seconds that name no update, else as
    /// [`Engine::render_at_tick`].
    pub fn render_at(&mut self, seconds: f64, origin: Origin) -> Result<(), EngineError> {
        let tick = self.tick_at(seconds).map_err(EngineError::Time)?;
        self.render_at_tick(tick, origin, |_, _| {})
    }

    /// The update `seconds` of play come to at this cart's `target_fps`: [`tick_at`], the one
    /// rule every seek and every flag given in seconds counts with.
    ///
    /// # Errors
    /// As [`tick_at`].
    pub fn tick_at(&self, seconds: f64) -> Result<u64, TimeError> {
        tick_at(seconds, self.settings.target_fps)
    }

    /// Pauses live play and renders exactly the frame after `tick` updates since `init`, with
    /// `render_alpha` 0, as [`Engine::render_at`] does for a time; `progress(done, total)`
    /// hears every [`SEEK_PROGRESS_EVERY`] updates of the seek how far it has come, for a host
    /// that shows how far a long seek has come (pass `|_, _| {}` for none).
    ///
    /// Tags the cart places on the way go to [`Engine::last_frame_tags`]: from boot, `init`'s
    /// and every update's; from a snapshot, those of the updates after it.
    ///
    /// # Errors
    /// [`EngineError::TooFar`] for more than [`MAX_SEEK_UPDATES`] updates from where the seek
    /// starts, replaying from the start [`EngineError::Init`], and [`EngineError::Panicked`]
    /// when the cart panics on the way (or, forward from the current tick, panicked before).
    pub fn render_at_tick(
        &mut self,
        tick: u64,
        origin: Origin,
        progress: impl FnMut(u64, u64),
    ) -> Result<(), EngineError> {
        self.settle_travel();
        let forward = origin == Origin::Current && tick >= self.updates_since_init;
        let snapshot = self
            .ring
            .at_or_before(tick, true)
            .filter(|&i| self.serves_seek(self.ring.get(i)));
        let from = match (forward, snapshot) {
            (true, _) => self.updates_since_init,
            (false, Some(i)) => self.ring.get(i).updates_since_init,
            (false, None) => 0,
        };
        if tick - from > MAX_SEEK_UPDATES {
            return Err(EngineError::TooFar { target: tick, from });
        }
        self.begin_seek();
        match (forward, snapshot) {
            (true, _) => self.refuse_half_built()?,
            (false, Some(i)) => self.restore(i)?,
            (false, None) => self.restart()?,
        }
        self.step_and_render(tick - self.updates_since_init, progress)
    }

    /// Runs `updates` updates straight away, with no time accounting and no cap, then renders
    /// the frame with `render_alpha` 0: the player's single step while paused (F6). The result
    /// is the same frame [`Engine::render_at`] gives `updates` updates further on.
    ///
    /// A running engine is paused first, as by [`Engine::pause`], and stays paused afterwards;
    /// [`Engine::resume`] continues live play. Tags the updates place go to
    /// [`Engine::last_frame_tags`], not onto the overlay's chart, as in a seek. `step(0)` runs no
    /// update and only renders.
    ///
    /// # Errors
    /// [`EngineError::Steps`] for more than [`MAX_SEEK_UPDATES`] updates (nothing changes, and
    /// a running engine keeps running); [`EngineError::Init`] after a replay whose `init` failed,
    /// until a replay from the start succeeds (the engine is paused, and nothing runs or is
    /// drawn); [`EngineError::Panicked`] when the cart panics, or had panicked.
    pub fn step(&mut self, updates: u64) -> Result<(), EngineError> {
        if updates > MAX_SEEK_UPDATES {
            return Err(EngineError::Steps(updates));
        }
        self.settle_travel();
        self.begin_seek();
        self.refuse_half_built()?;
        self.step_and_render(updates, |_, _| {})
    }

    /// Renders the current state again with `render_alpha` 0, running no update: for a change
    /// the cart's state does not show, such as the overlay toggled or assets reloaded while
    /// paused. The tick counter, the updates since `init`, the frame count, the tags and whether
    /// the engine is paused are left as they were; a running engine simply draws its next frame
    /// over this one.
    ///
    /// # Errors
    /// [`EngineError::Init`] after a replay whose `init` failed: the cart is half built, so
    /// nothing is drawn and the framebuffer keeps what it showed. [`EngineError::Panicked`]
    /// when the cart panics, or had panicked.
    pub fn redraw(&mut self) -> Result<(), EngineError> {
        self.refuse_half_built()?;
        self.render(0.0).map(drop)
    }

    /// The start of every seek: the frame's tags make way for the seek's, and live play stops
    /// before anything can fail, so a failed replay never hands live play a cart whose `init`
    /// did not finish.
    pub(super) fn begin_seek(&mut self) {
        self.frame_tags.clear();
        self.keep_boot_tags = false;
        self.paused = true;
    }

    /// Refuses to run or draw a cart that panicked, or that a replay built and whose `init`
    /// failed.
    pub(super) fn refuse_half_built(&self) -> Result<(), EngineError> {
        if let Some(panic) = &self.panic {
            return Err(EngineError::Panicked(panic.clone()));
        }
        if self.init_failed {
            return Err(EngineError::Init(
                "the last replay's init failed; seek from the start".to_string(),
            ));
        }
        Ok(())
    }

    /// Runs `updates` updates with no time accounting, keeps their tags off the chart, and
    /// renders with `render_alpha` 0. `progress` hears how far it has come now and then.
    fn step_and_render(
        &mut self,
        updates: u64,
        mut progress: impl FnMut(u64, u64),
    ) -> Result<(), EngineError> {
        let fixed = &mut self.fixed;
        let mut update = updater(
            &mut self.cart,
            &mut self.console,
            &mut self.updates_since_init,
            &mut self.tape,
            &mut self.ring,
        );
        let mut done = 0;
        let counted = move |tick| {
            let action = update(tick);
            done += 1;
            if done % SEEK_PROGRESS_EVERY == 0 {
                progress(done, updates);
            }
            action
        };
        if let Err(message) = guarded(|| fixed.step(updates, counted)) {
            return Err(self.stop(CartCall::Update, message));
        }
        self.forward_tags(false);
        self.render(0.0).map(drop)
    }

    /// Whether a seek may start from `snap` (a reproducible snapshot) rather than from boot.
    /// Not from the one after `init` (a replay from boot runs `init`, and its tags, again).
    /// While recording, only when the recording holds the run from boot to the snapshot as a
    /// replay from boot gives it: recorded from boot in the snapshot's recording, on the
    /// reproducible timeline at least that far, and not cut back before it.
    fn serves_seek(&self, snap: &super::snapshot::Snapshot) -> bool {
        let at = snap.updates_since_init;
        if at == 0 {
            return false;
        }
        match &self.tape.recorder {
            None => true,
            Some(recorder) => {
                snap.generation == self.tape.generation
                    && snap.recorded == at
                    && recorder.ticks() == self.updates_since_init
                    && self.updates_since_init >= at
                    && (self.ring.reproducible || self.ring.left_at.is_some_and(|l| l >= at))
            }
        }
    }

    fn restart(&mut self) -> Result<(), EngineError> {
        self.restarts += 1;
        self.ring.back_to_boot();
        self.panic = None;
        self.fixed.reset();
        self.cart = match guarded(&self.factory) {
            Ok(cart) => cart,
            Err(message) => return Err(self.stop(CartCall::New, message)),
        };
        self.console.reset(self.seed);
        self.updates_since_init = 0;
        self.marks.clear();
        self.rewind_tape();
        if let Some(overlay) = &mut self.overlay {
            overlay.reset_chart(0);
        }
        self.init_failed = true;
        self.init()?;
        self.init_failed = false;
        Ok(())
    }

    /// Plays the replay the engine was made with from boot to update `to` (its last update
    /// when `None`; updates past its end see no input), as one seek, then stops playing it and resumes
    /// live play: the next update sees live input. `bt run --input FILE --at SECONDS` goes
    /// live at a time, and `bt dev` continues a run in new code at its end, through this one
    /// method. An engine playing no replay goes live at boot. An engine that records
    /// ([`Engine::start_recording`]) records the replayed updates too, so its recording holds
    /// the whole run from boot.
    ///
    /// # Errors
    /// As [`Engine::render_at_tick`] from the start: [`EngineError::Panicked`] says the call
    /// and the tick where the cart panicked on the way; the engine then stays paused with the
    /// panic.
    pub fn play_replay_then_live(&mut self, to: Option<u64>) -> Result<Continued, EngineError> {
        let updates = to.unwrap_or_else(|| self.replay().map_or(0, |r| r.ticks()));
        self.render_at_tick(updates, Origin::Start, |_, _| {})?;
        self.stop_replay();
        self.resume();
        Ok(Continued {
            updates,
            ticks: self.ticks(),
        })
    }

    /// Pauses live play on the current frame (a player's pause): [`Engine::run`] delivers no
    /// frames until [`Engine::resume`].
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// When the clock will next deliver a frame, in host milliseconds, if it knows (see
    /// [`Clock::next_frame_ms`]).
    pub fn next_frame_ms(&self) -> Option<f64> {
        self.clock.next_frame_ms()
    }

    /// Continues live play from the paused frame. Time that passed while paused is not owed:
    /// the clock restarts ([`Clock::restart`]), so under a wall clock the first frame after
    /// resuming runs no update and a paced clock starts a new grid there; clocks that ignore
    /// timestamps carry on as they were.
    /// After a replay whose `init` failed, or once the cart panicked, the engine stays paused
    /// until a replay from the start succeeds.
    pub fn resume(&mut self) {
        if self.paused && !self.init_failed && self.panic.is_none() && self.quit_at().is_none() {
            self.paused = false;
            self.fixed.discard_leftover();
            self.clock.restart();
        }
    }
}
