//! BT in a web page: a cart compiled to WebAssembly, played by a small hand-written
//! JavaScript host (`host/bt.js`) that reads the picture and the sound straight out of the
//! module's memory, as WASM-4 does.
//!
//! The module is the same engine `bt run` drives: the [`Host`](bt_host::Host)
//! with its default keys and host keys, the engine's fixed-step loop and wall clock fed with
//! `requestAnimationFrame` timestamps, the overlay, recording and replays. [`Page`] is that
//! console with the buffers the script reads; [`PageEvent`] is everything a player does, in
//! the browser's terms; [`abi`] is the C-like interface, numbers and pointers only, that the
//! script calls, with one function for every event; [`page!`] exports it from a cart's
//! module. `bt web` writes the crate that calls [`page!`], builds it and copies the page out.
//!
//! The player's save data goes through the script too: the module asks for what the browser
//! keeps under the cart's key ([`page::save_key`]) at boot and says when the cart has changed it
//! ([`page::frame_flags::SAVE`]); the script keeps it in `localStorage`.
//!
//! It links `bt-runtime` without its default features: no window, command line or files.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod abi;
pub mod event;
pub mod net;
pub mod page;

pub use event::PageEvent;
pub use page::{BootOptions, Bundle, Page, PageAction};

#[doc(hidden)]
pub use getrandom;

/// Exports the page interface ([`abi`]) for one cart from a `cdylib` built for
/// `wasm32-unknown-unknown`: `bt_web::page!("snake", bt_cart_snake::cart);` with the cart's
/// name (as replays name it) and a `fn() -> Box<dyn bt::Cart>`, and optionally a third
/// argument, the [`Bundle`] of the cart's `cart.toml` and asset folder that `bt web` writes.
///
/// The module imports four functions, and a fifth in a page that links GGRS (`bt.date_now`,
/// see [`net`]): `bt.now_ms` (the page's `performance.now()`), for the
/// overlay's cost figures; `bt.random(ptr, len)`, which fills `len` bytes at `ptr` with the
/// browser's `crypto.getRandomValues` (GGRS's session ids, in netplay); `bt.panicked(ptr, len)`, which hands the script a panic's message
/// (UTF-8 in the module's memory) just before the module stops; and `bt.load_save(ptr, len)`,
/// which asks for the save data the browser keeps under a key (UTF-8 at `ptr`): the script
/// writes it into the inbox (`bt_inbox`) and returns its length, or -1 for none. It exports `memory`
/// and the `bt_*` functions `host/bt.js` calls; everything a player does goes in through one
/// of them, `bt_event` ([`abi::event`]).
#[macro_export]
macro_rules! page {
    ($name:expr, $cart:expr) => {
        $crate::page!($name, $cart, $crate::Bundle::NONE);
    };
    ($name:expr, $cart:expr, $bundle:expr) => {
        #[link(wasm_import_module = "bt")]
        extern "C" {
            #[link_name = "now_ms"]
            fn bt_import_now_ms() -> f64;
            #[link_name = "panicked"]
            fn bt_import_panicked(ptr: u32, len: u32);
            #[link_name = "load_save"]
            fn bt_import_load_save(ptr: u32, len: u32) -> i32;
            #[link_name = "random"]
            fn bt_import_random(ptr: u32, len: u32);
        }

        fn bt_random(bytes: &mut [u8]) -> Result<(), $crate::getrandom::Error> {
            // SAFETY: the page's script provides `bt.random`, which only writes `len` bytes at
            // `ptr` of the module's memory, where `bytes` lies for the whole call.
            unsafe { bt_import_random(bytes.as_mut_ptr() as usize as u32, bytes.len() as u32) };
            Ok(())
        }
        $crate::getrandom::register_custom_getrandom!(bt_random);

        /// The clock of GGRS's `instant` crate, which on the web without generated bindings
        /// declares `now() -> f64` (ms) for the module to be linked with: the page's clock.
        #[no_mangle]
        pub extern "C" fn now() -> f64 {
            bt_now_ms()
        }

        fn bt_now_ms() -> f64 {
            // SAFETY: the page's script provides `bt.now_ms`, a function of no arguments that
            // returns a number; it touches no memory of the module.
            unsafe { bt_import_now_ms() }
        }

        fn bt_panicked(message: &str) {
            // SAFETY: the page's script provides `bt.panicked`, which only reads `len` bytes
            // at `ptr` of the module's memory, where `message` lies for the whole call.
            unsafe { bt_import_panicked(message.as_ptr() as usize as u32, message.len() as u32) }
        }

        fn bt_load_save(key: &str) -> Option<Vec<u8>> {
            // SAFETY: the page's script provides `bt.load_save`, which only reads `len` bytes
            // at `ptr` of the module's memory, where `key` lies for the whole call, and writes
            // only into the room `bt_inbox` made.
            let len =
                unsafe { bt_import_load_save(key.as_ptr() as usize as u32, key.len() as u32) };
            u32::try_from(len).ok().map($crate::abi::inbox_bytes)
        }

        /// Boots the cart; the inbox holds the boot text (see `bt_web::abi::boot`).
        #[no_mangle]
        pub extern "C" fn bt_boot(len: u32, flags: u32) -> u32 {
            $crate::abi::report_panics(bt_panicked);
            $crate::abi::boot($name, $cart, &$bundle, bt_now_ms, bt_load_save, len, flags)
        }
        /// The page's own module, in the inbox, names its build (see
        /// `bt_web::abi::program`).
        #[no_mangle]
        pub extern "C" fn bt_program(len: u32) -> u32 {
            $crate::abi::program(len)
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
        pub extern "C" fn bt_picture_width() -> u32 {
            $crate::abi::picture_width()
        }
        #[no_mangle]
        pub extern "C" fn bt_picture_height() -> u32 {
            $crate::abi::picture_height()
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
        pub extern "C" fn bt_replay() -> u32 {
            $crate::abi::replay()
        }
        #[no_mangle]
        pub extern "C" fn bt_event(kind: u32, a: f64, b: f64, c: f64) -> u32 {
            $crate::abi::event(kind, a, b, c)
        }
        #[no_mangle]
        pub extern "C" fn bt_title() -> u32 {
            $crate::abi::title()
        }
        #[no_mangle]
        pub extern "C" fn bt_save_key() -> u32 {
            $crate::abi::save_key()
        }
        #[no_mangle]
        pub extern "C" fn bt_test_state() -> u32 {
            $crate::abi::test_state()
        }
        #[no_mangle]
        pub extern "C" fn bt_take_capture() -> u32 {
            $crate::abi::take_capture()
        }
        #[no_mangle]
        pub extern "C" fn bt_take_save() -> u32 {
            $crate::abi::take_save()
        }
        #[no_mangle]
        pub extern "C" fn bt_save_failed(len: u32) -> u32 {
            $crate::abi::save_failed(len)
        }
        #[no_mangle]
        pub extern "C" fn bt_flush() -> u32 {
            $crate::abi::flush()
        }
        #[no_mangle]
        pub extern "C" fn bt_net_start(player: u32) -> u32 {
            $crate::abi::net_start(player)
        }
        #[no_mangle]
        pub extern "C" fn bt_net_receive(len: u32) -> u32 {
            $crate::abi::net_receive(len)
        }
        #[no_mangle]
        pub extern "C" fn bt_net_take() -> u32 {
            $crate::abi::net_take()
        }
        #[no_mangle]
        pub extern "C" fn bt_net_status() -> u32 {
            $crate::abi::net_status()
        }
        #[no_mangle]
        pub extern "C" fn bt_net_confirmed() -> f64 {
            $crate::abi::net_confirmed()
        }
    };
}
