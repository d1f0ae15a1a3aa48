//! Wall-clock stopwatches for the engine's cost figures (how long an update or a render took),
//! on every platform the engine runs on.
//!
//! Natively this is [`std::time::Instant`]. A WebAssembly module in a browser has no clock of
//! its own (`Instant::now` panics on `wasm32-unknown-unknown`), so there the page's host hands
//! one in with [`set_source`] (the browser's `performance.now()`); until it does, every
//! stopwatch reads zero. These figures only feed the overlay and timing reports: no tick,
//! pixel or sample depends on them.

#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;

/// Natively the system's monotonic clock is used, and this does nothing; in a browser it sets
/// the function that reads the page's clock in milliseconds (only the first call counts).
#[cfg(not(target_family = "wasm"))]
pub fn set_source(_now_ms: fn() -> f64) {}

#[cfg(target_family = "wasm")]
pub use browser::{set_source, Instant};

#[cfg(target_family = "wasm")]
mod browser {
    use std::sync::OnceLock;
    use std::time::Duration;

    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    /// Sets the function that reads the host's clock in milliseconds (any origin, never going
    /// back). Only the first call counts.
    pub fn set_source(now_ms: fn() -> f64) {
        let _ = SOURCE.set(now_ms);
    }

    fn now_ms() -> f64 {
        SOURCE.get().map_or(0.0, |f| f())
    }

    /// A moment of the host's clock, as [`std::time::Instant`] is natively.
    #[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        /// The time since this moment (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((now_ms() - self.0).max(0.0) / 1000.0)
        }
    }
}
