//! A cart that panics: every call into the cart's code is made through [`guarded`], which
//! catches the panic, so the host can report it in one line (and a window stay open) instead
//! of the program dying with Rust's report and a backtrace.
//!
//! The first guarded call installs a panic hook that, for a panic inside a guarded call only,
//! records the message and where it happened and prints nothing; every other panic is handed
//! to the hook that was there before. A cart built with `panic = "abort"` cannot be caught.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::Once;

use thiserror::Error;

/// The most characters of a cart's panic message kept.
const MAX_MESSAGE_CHARS: usize = 300;

/// Which of the cart's calls panicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CartCall {
    /// Building the cart (its constructor, the factory the host was given).
    New,
    /// `Cart::configure`.
    Configure,
    /// `Cart::init`.
    Init,
    /// `Cart::update`.
    Update,
    /// `Cart::render`.
    Render,
    /// `Cart::overlay_rows`.
    OverlayRows,
    /// `Cart::reload`.
    Reload,
}

impl fmt::Display for CartCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CartCall::New => "its constructor",
            CartCall::Configure => "configure",
            CartCall::Init => "init",
            CartCall::Update => "update",
            CartCall::Render => "render",
            CartCall::OverlayRows => "overlay_rows",
            CartCall::Reload => "reload",
        })
    }
}

/// A panic in the cart's code: which call, at which tick, and what it said.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cart panicked in {call} at tick {tick}: {message}")]
pub struct CartPanic {
    /// The call that panicked.
    pub call: CartCall,
    /// The tick counter the call saw.
    pub tick: u64,
    /// The panic's message and where in the source it happened, on one line, cut short when
    /// long.
    pub message: String,
}

thread_local! {
    /// Whether this thread is inside a guarded call. `const`, so reading it never allocates.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// The last guarded panic's message, recorded by the hook.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs the hook that keeps guarded panics quiet, once per process.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.try_with(Cell::get).unwrap_or(false) {
                let _ = CAUGHT.try_with(|c| *c.borrow_mut() = Some(describe(info)));
            } else {
                previous(info);
            }
        }));
    });
}

/// The panic's message and place, as one short line.
fn describe(info: &PanicHookInfo<'_>) -> String {
    let message = payload_text(info.payload());
    let place = info
        .location()
        .map(|l| format!(" ({}:{})", l.file(), l.line()))
        .unwrap_or_default();
    one_line(&format!("{message}{place}"))
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    }
}

fn one_line(text: &str) -> String {
    let joined = text.lines().collect::<Vec<_>>().join(" / ");
    crate::quote::excerpt_chars(&joined, MAX_MESSAGE_CHARS)
}

/// Runs `f`, a call into the cart, catching a panic: `Err` carries its message and place.
/// Nothing is allocated unless it panics.
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    install_hook();
    let outer = GUARDED.replace(true);
    // The cart is not looked at again after a panic until the host replays it from the start,
    // so whatever state the unwinding left it in is never observed.
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.set(outer);
    result.map_err(|payload| {
        CAUGHT
            .take()
            .unwrap_or_else(|| one_line(&payload_text(&*payload)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guarded_panic_becomes_its_message_and_place() {
        let err = guarded(|| -> u32 { panic!("boom {}", 7) }).unwrap_err();
        assert!(
            err.starts_with("boom 7 (runtime/src/engine/cart_panic.rs:"),
            "{err}"
        );
        assert_eq!(guarded(|| 5), Ok(5));
        let long = guarded(|| -> () { panic!("{}", "x\n".repeat(1000)) }).unwrap_err();
        assert!(long.chars().count() <= MAX_MESSAGE_CHARS + 1, "{long}");
        assert!(!long.contains('\n'));
    }

    #[test]
    fn the_call_and_tick_are_named() {
        let p = CartPanic {
            call: CartCall::Update,
            tick: 42,
            message: "boom (src/lib.rs:3)".into(),
        };
        assert_eq!(
            p.to_string(),
            "cart panicked in update at tick 42: boom (src/lib.rs:3)"
        );
    }
}
