//! A cart that panics: every call into the cart's code is made through [`guarded`], which
//! catches the panic, so the host can report it in one line (and a window stay open) instead
//! of the program dying with Rust's report and a backtrace.
//!
//! The first guarded call installs a panic hook that, for a panic inside a guarded call only,
//! records the message and where it happened and prints nothing; every other panic is handed
//! to the hook that was there before. A cart built with `panic = "abort"` (a web page) cannot
//! be caught: there every panic goes to the hook that was there before, which is the
//! platform's one chance to say what happened before the program stops.

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
    /// `Cart::snapshot`.
    Snapshot,
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
            CartCall::Snapshot => "snapshot",
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
            if !cfg!(panic = "abort") && GUARDED.try_with(Cell::get).unwrap_or(false) {
                let _ = CAUGHT.try_with(|c| *c.borrow_mut() = Some(describe(info)));
            } else {
                previous(info);
            }
        }));
    });
}

/// The panic's message and place, as one short line. A panic raised inside Rust's standard
/// library (`f32::clamp`'s "min > max", which is not `#[track_caller]`) is placed where the
/// cart called it instead, when the backtrace can say.
fn describe(info: &PanicHookInfo<'_>) -> String {
    let message = payload_text(info.payload());
    let place = info
        .location()
        .map(|l| {
            let raised = format!("{}:{}", l.file(), l.line());
            match in_standard_library(l.file())
                .then(caller_of_the_panic)
                .flatten()
            {
                Some(caller) => format!(" ({caller})"),
                None => format!(" ({raised})"),
            }
        })
        .unwrap_or_default();
    one_line(&format!("{message}{place}"))
}

/// Whether a source path is in Rust's standard library, as the compiler names its files.
fn in_standard_library(file: &str) -> bool {
    file.starts_with("/rustc/")
        || ["core", "std", "alloc"]
            .iter()
            .any(|krate| file.contains(&format!("library/{krate}/src/")))
}

/// Where the code that called into the standard library and panicked there is: the first
/// frame after the panic machinery that is not the standard library, as `file:line` when the
/// build has line tables, else the function's name. `None` when no frame says.
fn caller_of_the_panic() -> Option<String> {
    let trace = std::backtrace::Backtrace::force_capture().to_string();
    let frames = parse_frames(&trace);
    let raised = frames.iter().rposition(|f| {
        f.symbol.starts_with("core::panicking::") || f.symbol.starts_with("rust_begin_unwind")
    })?;
    let caller = frames[raised + 1..].iter().find(|f| {
        !is_std_symbol(&f.symbol) && !f.file.as_deref().is_some_and(in_standard_library)
    })?;
    Some(match &caller.file {
        Some(file) => file.clone(),
        None => format!("in {}", caller.symbol),
    })
}

/// One frame of a printed backtrace: its function, and its `file:line` when known.
#[derive(Debug, PartialEq)]
struct Frame {
    symbol: String,
    file: Option<String>,
}

/// The frames of a backtrace as `std::backtrace::Backtrace` prints them: `  N: symbol` lines,
/// each followed by `at file:line:column` lines when the build has line tables.
fn parse_frames(trace: &str) -> Vec<Frame> {
    let mut frames: Vec<Frame> = Vec::new();
    for line in trace.lines().map(str::trim) {
        if let Some(at) = line.strip_prefix("at ") {
            if let Some(frame) = frames.last_mut().filter(|f| f.file.is_none()) {
                // `file:line:column`: the column is dropped, as a panic's place has none.
                let place = at.rsplit_once(':').map_or(at, |(rest, _)| rest);
                frame.file = Some(place.to_string());
            }
        } else if let Some((n, symbol)) = line.split_once(": ") {
            if n.bytes().all(|b| b.is_ascii_digit()) {
                frames.push(Frame {
                    symbol: symbol.to_string(),
                    file: None,
                });
            }
        }
    }
    frames
}

/// Whether a function is the standard library's (generic ones show as `<core::...>`).
fn is_std_symbol(symbol: &str) -> bool {
    let name = symbol.trim_start_matches('<');
    ["core::", "std::", "alloc::", "__rust", "rust_"]
        .iter()
        .any(|p| name.starts_with(p))
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
            err.starts_with("boom 7 (runtime/engine/src/engine/cart_panic.rs:"),
            "{err}"
        );
        assert_eq!(guarded(|| 5), Ok(5));
        let long = guarded(|| -> () { panic!("{}", "x\n".repeat(1000)) }).unwrap_err();
        assert!(long.chars().count() <= MAX_MESSAGE_CHARS + 1, "{long}");
        assert!(!long.contains('\n'));
    }

    /// Calls `f32::clamp` with its bounds the wrong way round, which panics inside the
    /// standard library; not inlined, so it is a frame of its own as a cart's `update` is.
    #[inline(never)]
    fn clamps_the_wrong_way() -> f32 {
        std::hint::black_box(2.0f32).clamp(std::hint::black_box(3.0), 1.0)
    }

    #[test]
    fn a_panic_inside_the_standard_library_is_placed_in_its_caller() {
        let err = guarded(clamps_the_wrong_way).unwrap_err();
        assert!(err.starts_with("min > max"), "{err}");
        assert!(
            !err.contains("/rustc/") && !err.contains("library/core"),
            "{err}"
        );
        // With line tables the caller's file and line; without, the caller's name.
        assert!(
            err.contains("runtime/engine/src/engine/cart_panic.rs:")
                || err.contains("in bt_engine::engine::cart_panic::tests::clamps_the_wrong_way"),
            "{err}"
        );
    }

    #[test]
    fn backtraces_are_read_with_and_without_line_tables() {
        let trace = "   0: std::backtrace::Backtrace::force_capture\n\
                     \x20            at /rustc/abc/library/std/src/backtrace.rs:331:13\n\
                     \x20 1: mycart::Game::update\n\
                     \x20            at ./src/lib.rs:12:9\n\
                     \x20            at ./src/inlined.rs:3:1\n\
                     \x20 2: <mycart::Game as bt::Cart>::render\n";
        assert_eq!(
            parse_frames(trace),
            [
                Frame {
                    symbol: "std::backtrace::Backtrace::force_capture".into(),
                    file: Some("/rustc/abc/library/std/src/backtrace.rs:331".into()),
                },
                Frame {
                    symbol: "mycart::Game::update".into(),
                    file: Some("./src/lib.rs:12".into()),
                },
                Frame {
                    symbol: "<mycart::Game as bt::Cart>::render".into(),
                    file: None,
                },
            ]
        );
        assert!(is_std_symbol(
            "<core::ops::range::Range<T> as Iterator>::next"
        ));
        assert!(!is_std_symbol("<mycart::Game as bt::Cart>::update"));
        assert!(in_standard_library(
            "/rustc/abc/library/core/src/num/f32.rs"
        ));
        assert!(!in_standard_library("src/lib.rs"));
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
