//! Presenting on a thread of its own, so the window's event loop answers close, keys and
//! `--exit-after` whatever the window system does (a server slow to take a large image, a window
//! it destroyed), and so scaling the picture into the window's buffer runs beside the next
//! frame's work.
//!
//! The event loop fills one of two pixel buffers and hands it over with the size the surface
//! should have; the presenting thread shows it and hands the buffer back. With both buffers
//! away the event loop simply makes no frame, so nothing queues up and nothing allocates per
//! frame.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::screen::{Outcome, Screen, Skip};
use super::stats::{PresentLog, Presented};

/// Pixel buffers in flight: one being filled while the other is presented.
const BUFFERS: usize = 2;

/// How long frames may fail before the player is told why, once per run of failures.
const QUIET_FAILURES: Duration = Duration::from_secs(3);

/// How often a lost surface is made again while that fails.
const REBUILD_EVERY: Duration = Duration::from_secs(1);

/// Makes a new [`Screen`], for a surface that was lost.
type Rebuild = Box<dyn Fn() -> Result<Screen, String> + Send>;

/// One frame for the presenting thread.
struct Frame {
    rgba: Vec<u8>,
    /// The picture's size (the display's, or the output picture's).
    picture: (u32, u32),
    /// The size the surface should have (the window's settled size).
    size: (u32, u32),
    updates: u32,
    ticks: u64,
}

/// What the two threads share.
struct Shared {
    /// Present times for `--frame-log`, with room made up front.
    log: Mutex<PresentLog>,
    /// Frames presented so far.
    presented: AtomicU64,
    /// A frame was handed over and not shown: a paused window must send another.
    skipped: AtomicBool,
    /// Set when the window closes: frames still queued are dropped.
    stop: AtomicBool,
}

/// The event loop's end of the presenting thread.
pub struct Presenter {
    frames: Option<SyncSender<Frame>>,
    spares: Receiver<Vec<u8>>,
    shared: Arc<Shared>,
    finished: Receiver<()>,
    thread: Option<JoinHandle<()>>,
    first_shown: Arc<Mutex<Option<Instant>>>,
}

impl Presenter {
    /// Starts presenting with `screen` for a display of `display` pixels. `start` is time zero
    /// of the frame log, which keeps up to `log_capacity` frames. `rebuild` makes a new
    /// [`Screen`] when the surface is lost.
    ///
    /// # Errors
    /// The thread could not be started.
    pub fn start(
        screen: Screen,
        display: (u32, u32),
        start: Instant,
        log_capacity: usize,
        rebuild: impl Fn() -> Result<Screen, String> + Send + 'static,
    ) -> std::io::Result<Presenter> {
        let (frames_tx, frames_rx) = mpsc::sync_channel::<Frame>(BUFFERS);
        let (spares_tx, spares_rx) = mpsc::sync_channel::<Vec<u8>>(BUFFERS);
        let (finished_tx, finished_rx) = mpsc::sync_channel::<()>(1);
        let bytes = display.0 as usize * display.1 as usize * 4;
        for _ in 0..BUFFERS {
            let _ = spares_tx.send(vec![0; bytes]);
        }
        let shared = Arc::new(Shared {
            log: Mutex::new(PresentLog::with_capacity(log_capacity)),
            presented: AtomicU64::new(0),
            skipped: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let first_shown = Arc::new(Mutex::new(None));
        let thread = {
            let shared = shared.clone();
            let first_shown = first_shown.clone();
            std::thread::Builder::new()
                .name("bt-present".into())
                .spawn(move || {
                    let mut worker = Worker {
                        screen: Some(screen),
                        rebuild: Box::new(rebuild),
                        last_rebuild: None,
                        failing_since: None,
                        told: false,
                    };
                    while let Ok(frame) = frames_rx.recv() {
                        if shared.stop.load(Ordering::SeqCst) {
                            break;
                        }
                        if worker.show(&frame) {
                            let at = Instant::now();
                            shared
                                .log
                                .lock()
                                .unwrap_or_else(PoisonError::into_inner)
                                .push(Presented {
                                    at_ms: at.duration_since(start).as_secs_f64() * 1000.0,
                                    updates: frame.updates,
                                    ticks: frame.ticks,
                                    window: frame.size,
                                });
                            if shared.presented.fetch_add(1, Ordering::SeqCst) == 0 {
                                *first_shown.lock().unwrap_or_else(PoisonError::into_inner) =
                                    Some(at);
                            }
                        } else {
                            shared.skipped.store(true, Ordering::SeqCst);
                        }
                        // Never full: there are only BUFFERS buffers.
                        let _ = spares_tx.try_send(frame.rgba);
                    }
                    // The surface goes before the window it was made on.
                    drop(worker);
                    let _ = finished_tx.send(());
                })?
        };
        Ok(Presenter {
            frames: Some(frames_tx),
            spares: spares_rx,
            shared,
            finished: finished_rx,
            thread: Some(thread),
            first_shown,
        })
    }

    /// A buffer to fill with the next frame's pixels, unless both are still being presented.
    pub fn buffer(&self) -> Option<Vec<u8>> {
        self.spares.try_recv().ok()
    }

    /// Hands over a buffer filled with a `picture`-sized picture, to be shown in a surface of
    /// `size` pixels. `updates` and `ticks` go into the frame log. `false` when the presenting
    /// thread has ended (it panicked), so no frame will be shown again.
    pub fn present(
        &self,
        rgba: Vec<u8>,
        picture: (u32, u32),
        size: (u32, u32),
        updates: u32,
        ticks: u64,
    ) -> bool {
        let Some(frames) = &self.frames else {
            return false;
        };
        let frame = Frame {
            rgba,
            picture,
            size,
            updates,
            ticks,
        };
        // Never full: a frame is only made with a buffer in hand, and there are BUFFERS.
        !matches!(frames.try_send(frame), Err(TrySendError::Disconnected(_)))
    }

    /// When the first frame reached the screen.
    pub fn first_shown(&self) -> Option<Instant> {
        *self
            .first_shown
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a frame was skipped since the last call (a paused window then sends another).
    pub fn take_skipped(&self) -> bool {
        self.shared.skipped.swap(false, Ordering::SeqCst)
    }

    /// Stops presenting and returns the frame log. Waits up to `patience` for the thread to
    /// finish its frame; a thread stuck in the driver is left behind (it ends with the process).
    pub fn stop(mut self, patience: Duration) -> PresentLog {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.frames = None;
        match self.finished.recv_timeout(patience) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                eprintln!(
                    "bt: the window system did not take the last frame within {} s; closing anyway",
                    patience.as_secs_f64()
                );
            }
        }
        let log = self
            .shared
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        log.clone()
    }
}

/// The presenting thread's state.
struct Worker {
    screen: Option<Screen>,
    rebuild: Rebuild,
    last_rebuild: Option<Instant>,
    /// Since when no frame has been shown, and whether the player has been told.
    failing_since: Option<Instant>,
    told: bool,
}

impl Worker {
    /// Shows one frame; `true` when it was presented.
    fn show(&mut self, frame: &Frame) -> bool {
        let outcome = match &mut self.screen {
            Some(screen) => screen.present(&frame.rgba, frame.picture, frame.size),
            None => Outcome::Lost,
        };
        match outcome {
            Outcome::Presented => {
                self.failing_since = None;
                self.told = false;
                return true;
            }
            // Nothing is wrong with a window that is minimised.
            Outcome::Skipped(Skip::Hidden) => {
                self.failing_since = None;
                return false;
            }
            Outcome::Skipped(Skip::Failed) => {}
            Outcome::Lost => self.rebuild(),
        }
        let now = Instant::now();
        let since = *self.failing_since.get_or_insert(now);
        if !self.told && now.duration_since(since) >= QUIET_FAILURES {
            self.told = true;
            let why = self
                .screen
                .as_ref()
                .and_then(|s| s.errors().take_last())
                .unwrap_or_else(|| format!("{outcome:?}"));
            eprintln!(
                "bt: no frame has reached the window for {} s ({why}); still trying",
                QUIET_FAILURES.as_secs()
            );
        }
        false
    }

    /// Makes the surface again, at most every [`REBUILD_EVERY`].
    fn rebuild(&mut self) {
        let now = Instant::now();
        if self
            .last_rebuild
            .is_some_and(|t| now.duration_since(t) < REBUILD_EVERY)
        {
            return;
        }
        self.last_rebuild = Some(now);
        // The old surface goes first.
        self.screen = None;
        match (self.rebuild)() {
            Ok(screen) => self.screen = Some(screen),
            Err(e) => {
                if !self.told {
                    eprintln!("bt: the window's surface failed and could not be made again: {e}");
                }
            }
        }
    }
}
