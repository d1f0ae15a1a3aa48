#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod blit;
mod cart;
mod console;
mod data;
mod easing;
mod font;
mod gfx;
mod input;
mod keys;
pub mod math;
mod noise;
mod pad;
mod palette;
mod palette_fx;
mod pen;
mod quote;
mod rect;
mod render;
mod rng;
mod save;
mod settings;
mod shapes;
pub mod sound;
mod sprite;
mod tick_input;
mod tilemap;
mod tilemap_draw;
mod timer;
mod update;

pub use cart::{ArgError, Cart, CartError, OverlayRows, Tag};
pub use easing::Easing;
pub use gfx::Rect;
pub use keys::{Key, UnknownKey};
pub use noise::{hash1, hash1_u32, hash2, hash2_u32, hash3, hash3_u32, ValueNoise};
pub use pad::{Axis, Button, Player};
pub use palette::{Color32, Palette, PaletteError};
pub use pen::dither_pattern;
pub use render::Render;
pub use rng::Rng;
pub use save::SaveData;
pub use settings::{OverlayColors, OverlaySettings, Settings, SettingsError};
pub use sprite::{
    AssetError, AssetErrorKind, ColorKey, SpriteParams, SpriteSheet, FLIP_H, FLIP_V, ROT_180,
    ROT_270, ROT_90,
};
pub use tilemap::{Moved, Tilemap, TilemapError, NO_TILE};
pub use tilemap_draw::MapParams;
pub use timer::{Timer, TimerError};
pub use update::{clamp_camera, Update};

/// The console's sizes and bounds: how many players, axes and keys there are, the system
/// font's metrics, and the largest display, frame rate, sheet, map, data file and palette
/// effect the console accepts. Each is documented where it is enforced.
///
/// They live here rather than in the crate root so that the root stays the handful of names a
/// cart uses all the time. The sprite flags (`FLIP_H`, `FLIP_V`, `ROT_90`, `ROT_180`,
/// `ROT_270`) and the map's `NO_TILE`, which carts pass to draw calls and read from maps
/// constantly, stay in the root.
///
/// ```
/// use bt::limits::{GLYPH_ADVANCE, LINE_HEIGHT, PLAYERS};
///
/// assert_eq!(PLAYERS, bt::Player::ALL.len());
/// assert_eq!((GLYPH_ADVANCE, LINE_HEIGHT), (6, 14));
/// ```
pub mod limits {
    pub use crate::data::MAX_DATA_FILE;
    pub use crate::font::{GLYPH_ADVANCE, LINE_HEIGHT};
    pub use crate::keys::KEY_COUNT;
    pub use crate::pad::{AXES, PLAYERS};
    pub use crate::palette_fx::{MAX_CYCLES, MAX_EFFECT};
    pub use crate::settings::{
        MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE, MAX_TARGET_FPS, MAX_WINDOW_SCALE, MIN_TARGET_FPS,
    };
    pub use crate::sprite::{DEFAULT_TILE, MAX_SHEET_SIDE};
    pub use crate::tilemap::{MAX_MAP_CELLS, MAX_MAP_LAYERS};
    pub use crate::update::{MENU_ITEMS, MENU_LABEL_CHARS};
}

/// What a host uses to run carts, and carts never need: the console behind the contexts, the
/// input state and its setters, image decoding, and the text measure the overlay uses.
///
/// A cart sees the console only through [`Update`] and [`Render`]. The runtime (and a test
/// that drives a context by hand) builds a [`host::Console`], feeds its [`host::Input`] and
/// installs an [`host::ImageLoader`]:
///
/// ```
/// use bt::host::Console;
/// use bt::{Button, Player, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.input_mut().set_buttons(Button::A, Player::ONE, true);
/// assert!(con.update_context(0).is_pressed(Button::A, Player::ONE));
/// ```
pub mod host {
    pub use crate::console::Console;
    pub use crate::gfx::{measure_text, Framebuffer};
    pub use crate::input::{
        stick_with_dead_zone, Input, Source, INPUT_STRING_CAPACITY, STICK_DEAD_ZONE, TRIGGER_PRESS,
    };
    pub use crate::pad::BUTTON_COUNT;
    pub use crate::quote::{excerpt_chars, quoted, EXCERPT_CHARS};
    pub use crate::save::SaveTooLarge;
    pub use crate::sprite::{ImageLoader, RgbaImage};
    pub use crate::tick_input::{TickButtons, TickInput};
}
