//! BT's example carts, as one list for the gallery's `bt` binary and its tests.
//!
//! The runtime bundles no cart; this package does, and its `bt` binary is
//! `bt_runtime::cli::gallery(CARTS)`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use bt_runtime::catalog::{self, CartEntry, UnknownCart};

pub mod drift;
pub mod panic;
pub mod tally;
pub mod tone;

/// Every bundled cart, in the order `bt list` prints them, followed by the hidden carts BT's
/// tests use (`drift` steps in render on purpose, for `bt verify`; `panic` panics on demand;
/// `tone` plays one second of 440 Hz for the sound device test; `tally` counts presses in its
/// save data for the real-window save test). Only the tests' binary, `bt-test-carts`, offers
/// those four; the `bt` binary users run offers [`CARTS`].
pub const WITH_TEST_CARTS: &[CartEntry] = &[
    CartEntry {
        name: "hello",
        description: bt_cart_hello::DESCRIPTION,
        build: bt_cart_hello::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "timers",
        description: bt_cart_timers::DESCRIPTION,
        build: bt_cart_timers::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "primitives",
        description: bt_cart_primitives::DESCRIPTION,
        build: bt_cart_primitives::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "sprites",
        description: bt_cart_sprites::DESCRIPTION,
        build: bt_cart_sprites::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "palette",
        description: bt_cart_palette::DESCRIPTION,
        build: bt_cart_palette::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "starfield",
        description: bt_cart_starfield::DESCRIPTION,
        build: bt_cart_starfield::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "tilemap",
        description: bt_cart_tilemap::DESCRIPTION,
        build: bt_cart_tilemap::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "bunnymark",
        description: bt_cart_bunnymark::DESCRIPTION,
        build: bt_cart_bunnymark::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "snake",
        description: bt_cart_snake::DESCRIPTION,
        build: bt_cart_snake::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "keys",
        description: bt_cart_keys::DESCRIPTION,
        build: bt_cart_keys::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "paint",
        description: bt_cart_paint::DESCRIPTION,
        build: bt_cart_paint::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "jukebox",
        description: bt_cart_jukebox::DESCRIPTION,
        build: bt_cart_jukebox::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "audio",
        description: bt_cart_audio::DESCRIPTION,
        build: bt_cart_audio::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "audio-buses",
        description: bt_cart_audio::buses::DESCRIPTION,
        build: bt_cart_audio::buses::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "platformer",
        description: bt_cart_platformer::DESCRIPTION,
        build: bt_cart_platformer::cart,
        hidden: false,
        assets: Some(bt_cart_platformer::ASSETS),
    },
    CartEntry {
        name: "fonts",
        description: bt_cart_fonts::DESCRIPTION,
        build: bt_cart_fonts::cart,
        hidden: false,
        assets: Some(bt_cart_fonts::ASSETS),
    },
    CartEntry {
        name: "transforms",
        description: bt_cart_transforms::DESCRIPTION,
        build: bt_cart_transforms::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "crt",
        description: bt_cart_crt::DESCRIPTION,
        build: bt_cart_crt::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "crt-logo",
        description: bt_cart_crt::LOGO_DESCRIPTION,
        build: bt_cart_crt::logo_cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "widgets",
        description: bt_cart_widgets::DESCRIPTION,
        build: bt_cart_widgets::cart,
        hidden: false,
        assets: None,
    },
    CartEntry {
        name: "drift",
        description: drift::DESCRIPTION,
        build: drift::cart,
        hidden: true,
        assets: None,
    },
    CartEntry {
        name: "panic",
        description: panic::DESCRIPTION,
        build: panic::cart,
        hidden: true,
        assets: None,
    },
    CartEntry {
        name: "tone",
        description: tone::DESCRIPTION,
        build: tone::cart,
        hidden: true,
        assets: None,
    },
    CartEntry {
        name: "tally",
        description: tally::DESCRIPTION,
        build: tally::cart,
        hidden: true,
        assets: None,
    },
];

/// The bundled carts, as the `bt` binary offers them.
pub const CARTS: &[CartEntry] = WITH_TEST_CARTS
    .split_at(WITH_TEST_CARTS.len() - TEST_CARTS)
    .0;

/// How many carts at the end of [`WITH_TEST_CARTS`] are for tests only.
const TEST_CARTS: usize = 4;

/// The example or test cart called `name` (case ignored).
///
/// # Errors
/// [`UnknownCart`], with a suggestion and the list.
pub fn find(name: &str) -> Result<&'static CartEntry, UnknownCart> {
    catalog::find(WITH_TEST_CARTS, name)
}
