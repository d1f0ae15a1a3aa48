//! BT's stand-in for `js-sys` in a page `bt web` builds.
//!
//! GGRS (BT's netplay) asks the browser for one thing through js-sys: the time since 1970 for
//! its ping figures, `js_sys::Date::new_0().get_time()`. The real js-sys brings wasm-bindgen,
//! whose module needs its command-line tool afterwards: without it the page's module keeps
//! some 1,500 exported description functions and wasm-bindgen's metadata, over half a MiB,
//! and imports functions no page provides. This crate answers that one call with the page's
//! own import `bt.date_now` (the script's `Date.now()`), and nothing else.

/// A moment, as JavaScript's `Date` holds it: milliseconds since 1970.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Date(f64);

impl Date {
    /// `new Date()`: now.
    pub fn new_0() -> Date {
        Date(now_ms())
    }

    /// The milliseconds since 1970 (`Date.prototype.getTime`).
    pub fn get_time(&self) -> f64 {
        self.0
    }
}

#[cfg(target_family = "wasm")]
fn now_ms() -> f64 {
    #[link(wasm_import_module = "bt")]
    extern "C" {
        #[link_name = "date_now"]
        fn bt_date_now() -> f64;
    }
    // SAFETY: the page's script provides `bt.date_now`, a function of no arguments that
    // returns a number; it touches no memory of the module.
    unsafe { bt_date_now() }
}

#[cfg(not(target_family = "wasm"))]
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}
