//! The display tier's second thread: the lower half of a large picture's rows are shaded on
//! it while the caller shades the upper half. Each row is a function of its own number, the
//! tables and the frame alone, so the split changes no byte of the picture.
//!
//! Handing a frame over allocates nothing: the thread is started once and waits on a
//! condition variable, and the job is a borrowed closure whose lifetime is erased for the
//! hand-over. That erasure is this module's one `unsafe` step, and it is sound because
//! [`RowHelper::run`] does not return, nor unwind, before the helper has finished calling the
//! closure: a guard waits for the helper's "finished" in its `Drop`, and the helper catches a
//! panic in the job so it always reports. Threads cannot be stopped from outside, so there
//! is no other way for the job to end.
#![allow(unsafe_code)]

/// The smallest picture (in output pixels) worth a second thread: below it, waking the thread
/// costs more than the half it takes.
pub(super) const HELPED_PIXELS: usize = 256 * 1024;

/// The second thread, if there is one: not yet tried, running, or not available (a single
/// core, a platform without threads, or a thread that failed).
#[derive(Debug, Default)]
pub(super) enum HelperSlot {
    #[default]
    Untried,
    Running(RowHelper),
    Unavailable,
}

impl HelperSlot {
    /// The helper for a picture of `pixels` output pixels, started on first use.
    pub(super) fn get(&mut self, pixels: usize) -> Option<&RowHelper> {
        if pixels < HELPED_PIXELS {
            return None;
        }
        if matches!(self, HelperSlot::Untried) {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            *self = match (cores > 1).then(RowHelper::start).flatten() {
                Some(helper) => HelperSlot::Running(helper),
                None => HelperSlot::Unavailable,
            };
        }
        match self {
            HelperSlot::Running(helper) => Some(helper),
            _ => None,
        }
    }

    /// Stops using the helper (it failed).
    pub(super) fn give_up(&mut self) {
        *self = HelperSlot::Unavailable;
    }
}

/// A job for the helper: a borrowed closure with its lifetime erased. [`RowHelper::run`] does
/// not return before the helper has finished with it, so the borrow outlives every use.
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn() + Sync + 'static));

// SAFETY: the closure behind the pointer is `Sync`, so calling it from another thread is
// sound; the pointer itself is only a borrow handed over for the length of `run`.
unsafe impl Send for Job {}

/// What the caller and the helper share.
#[derive(Default)]
struct HelperState {
    job: Option<Job>,
    /// The last job finished: `Some(true)` done, `Some(false)` it panicked.
    finished: Option<bool>,
    quit: bool,
}

#[derive(Default)]
struct HelperShared {
    state: std::sync::Mutex<HelperState>,
    wake: std::sync::Condvar,
    done: std::sync::Condvar,
}

/// One thread kept for the life of the [`PostProcessor`], which shades half of each frame's
/// rows while the caller shades the other half. It waits on a condition variable between
/// frames, and handing it a frame allocates nothing.
pub(super) struct RowHelper {
    shared: std::sync::Arc<HelperShared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for RowHelper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowHelper").finish_non_exhaustive()
    }
}

impl RowHelper {
    /// Starts the thread, or `None` where threads cannot be started.
    fn start() -> Option<RowHelper> {
        let shared = std::sync::Arc::new(HelperShared::default());
        let theirs = std::sync::Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("bt-postfx".into())
            .spawn(move || helper_loop(&theirs))
            .ok()?;
        Some(RowHelper {
            shared,
            thread: Some(thread),
        })
    }

    /// Runs `theirs` on the helper and `mine` here, and returns when both have finished:
    /// `false` when the helper's part panicked (then it may not have run to its end).
    pub(super) fn run(&self, theirs: &(dyn Fn() + Sync), mine: impl FnOnce()) -> bool {
        // SAFETY: only the lifetime is erased. The guard below waits, also when `mine`
        // panics, until the helper has finished with the closure, so it is never called
        // after this function returns and its borrow ends.
        let job = Job(unsafe {
            std::mem::transmute::<&(dyn Fn() + Sync), &'static (dyn Fn() + Sync)>(theirs)
        });
        {
            let mut state = lock(&self.shared.state);
            state.finished = None;
            state.job = Some(job);
        }
        self.shared.wake.notify_one();
        let wait = WaitForHelper(&self.shared);
        mine();
        wait.finish()
    }
}

impl Drop for RowHelper {
    fn drop(&mut self) {
        lock(&self.shared.state).quit = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Waits for the helper's job to finish, when told or when dropped on an unwind.
struct WaitForHelper<'a>(&'a HelperShared);

impl WaitForHelper<'_> {
    fn finish(self) -> bool {
        let ok = self.wait();
        std::mem::forget(self);
        ok
    }

    fn wait(&self) -> bool {
        let mut state = lock(&self.0.state);
        loop {
            if let Some(ok) = state.finished {
                return ok;
            }
            state = self
                .0
                .done
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

impl Drop for WaitForHelper<'_> {
    fn drop(&mut self) {
        self.wait();
    }
}

/// Locks `m`, carrying on past a poisoned lock: the state is a few flags, always consistent.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The helper thread: waits for a job, runs it, says so, until told to quit.
fn helper_loop(shared: &HelperShared) {
    loop {
        let job = {
            let mut state = lock(&shared.state);
            loop {
                if state.quit {
                    return;
                }
                if let Some(job) = state.job.take() {
                    break job;
                }
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        // SAFETY: `RowHelper::run` keeps the closure alive until `finished` is set below.
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe { (*job.0)() }))
            .is_ok();
        lock(&shared.state).finished = Some(ok);
        shared.done.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn both_halves_run_and_a_panicking_half_is_reported() {
        let helper = RowHelper::start().expect("a thread");
        let count = AtomicU32::new(0);
        let add = || {
            count.fetch_add(1, Ordering::SeqCst);
        };
        for round in 1..=3 {
            assert!(helper.run(&add, add));
            assert_eq!(count.load(Ordering::SeqCst), 2 * round);
        }
        let fail = || panic!("a failing half");
        assert!(!helper.run(&fail, add));
        assert_eq!(count.load(Ordering::SeqCst), 7);
        // The thread caught the panic and still takes work.
        assert!(helper.run(&add, || ()));
        assert_eq!(count.load(Ordering::SeqCst), 8);
    }

    #[test]
    fn small_pictures_are_shaded_by_the_caller_alone() {
        let mut slot = HelperSlot::default();
        assert!(slot.get(HELPED_PIXELS - 1).is_none());
        assert!(matches!(slot, HelperSlot::Untried));
    }
}
