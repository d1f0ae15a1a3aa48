//! BT in a web page: a cart compiled to WebAssembly, played by a small hand-written
//! JavaScript host (`host/bt.js`) that reads the picture and the sound straight out of the
//! module's memory, as WASM-4 does.
//!
//! The module is the same engine `bt run` drives: the [`Host`](bt_runtime::host::Host)
//! with its default keys and host keys, the engine's fixed-step loop and wall clock fed with
//! `requestAnimationFrame` timestamps, the overlay, recording and replays. [`Page`] is that
//! console with the buffers the script reads; [`abi`] is the C-like interface, numbers and
//! pointers only, that the script calls; [`page!`] exports it from a cart's module. `bt web`
//! writes the crate that calls [`page!`], builds it and copies the page out.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod abi;
pub mod page;

pub use page::{Page, PageAction};

/// Exports the page interface ([`abi`]) for one cart from a `cdylib` built for
/// `wasm32-unknown-unknown`: `bt_web::page!("snake", bt_cart_snake::cart);` with the cart's
/// name (as replays name it) and a `fn() -> Box<dyn bt::Cart>`.
///
/// The module imports one function, `bt.now_ms` (the page's `performance.now()`), for the
/// overlay's cost figures, and exports `memory` and the `bt_*` functions `host/bt.js` calls.
#[macro_export]
macro_rules! page {
    ($name:expr, $cart:expr) => {
        #[link(wasm_import_module = "bt")]
        extern "C" {
            #[link_name = "now_ms"]
            fn bt_import_now_ms() -> f64;
        }

        fn bt_now_ms() -> f64 {
            // SAFETY: the page's script provides `bt.now_ms`, a function of no arguments that
            // returns a number; it touches no memory of the module.
            unsafe { bt_import_now_ms() }
        }

        /// Boots the cart; the inbox holds the boot text (see `bt_web::abi::boot`).
        #[no_mangle]
        pub extern "C" fn bt_boot(len: u32, flags: u32) -> u32 {
            $crate::abi::boot($name, $cart, bt_now_ms, len, flags)
        }
        #[no_mangle]
        pub extern "C" fn bt_inbox(len: u32) -> u32 {
            $crate::abi::inbox(len)
        }
        #[no_mangle]
        pub extern "C" fn bt_out_ptr() -> u32 {
            $crate::abi::out_ptr()
        }
        #[no_mangle]
        pub extern "C" fn bt_out_len() -> u32 {
            $crate::abi::out_len()
        }
        #[no_mangle]
        pub extern "C" fn bt_width() -> u32 {
            $crate::abi::width()
        }
        #[no_mangle]
        pub extern "C" fn bt_height() -> u32 {
            $crate::abi::height()
        }
        #[no_mangle]
        pub extern "C" fn bt_sample_rate() -> u32 {
            $crate::abi::sample_rate()
        }
        #[no_mangle]
        pub extern "C" fn bt_target_fps() -> f64 {
            $crate::abi::target_fps()
        }
        #[no_mangle]
        pub extern "C" fn bt_rgba_ptr() -> u32 {
            $crate::abi::rgba_ptr()
        }
        #[no_mangle]
        pub extern "C" fn bt_samples_ptr() -> u32 {
            $crate::abi::samples_ptr()
        }
        #[no_mangle]
        pub extern "C" fn bt_samples_len() -> u32 {
            $crate::abi::samples_len()
        }
        #[no_mangle]
        pub extern "C" fn bt_frame(now_ms: f64) -> u32 {
            $crate::abi::frame(now_ms)
        }
        #[no_mangle]
        pub extern "C" fn bt_render_at(seconds: f64) -> u32 {
            $crate::abi::render_at(seconds)
        }
        #[no_mangle]
        pub extern "C" fn bt_wav(seconds: f64) -> u32 {
            $crate::abi::wav(seconds)
        }
        #[no_mangle]
        pub extern "C" fn bt_ticks() -> f64 {
            $crate::abi::ticks()
        }
        #[no_mangle]
        pub extern "C" fn bt_key(len: u32, down: u32) -> u32 {
            $crate::abi::key(len, down)
        }
        #[no_mangle]
        pub extern "C" fn bt_text(len: u32) {
            $crate::abi::text(len)
        }
        #[no_mangle]
        pub extern "C" fn bt_replay() -> u32 {
            $crate::abi::replay()
        }
        #[no_mangle]
        pub extern "C" fn bt_pointer_moved(x: i32, y: i32) {
            $crate::abi::pointer_moved(x, y)
        }
        #[no_mangle]
        pub extern "C" fn bt_pointer_left() {
            $crate::abi::pointer_left()
        }
        #[no_mangle]
        pub extern "C" fn bt_pointer_button(button: u32, down: u32) {
            $crate::abi::pointer_button(button, down)
        }
        #[no_mangle]
        pub extern "C" fn bt_wheel(dx: f32, dy: f32) {
            $crate::abi::wheel(dx, dy)
        }
        #[no_mangle]
        pub extern "C" fn bt_focus_lost() {
            $crate::abi::focus_lost()
        }
        #[no_mangle]
        pub extern "C" fn bt_gamepad_connected(player: u32, connected: u32) {
            $crate::abi::gamepad_connected(player, connected)
        }
        #[no_mangle]
        pub extern "C" fn bt_gamepad_button(player: u32, index: u32, down: u32) {
            $crate::abi::gamepad_button(player, index, down)
        }
        #[no_mangle]
        pub extern "C" fn bt_gamepad_axis(player: u32, axis: u32, value: f32) {
            $crate::abi::gamepad_axis(player, axis, value)
        }
    };
}
