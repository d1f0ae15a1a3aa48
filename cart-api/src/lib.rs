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
mod render;
mod rng;
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
pub use data::MAX_DATA_FILE;
pub use easing::Easing;
pub use font::{GLYPH_ADVANCE, LINE_HEIGHT};
pub use gfx::{Framebuffer, Rect};
pub use keys::{Key, UnknownKey, KEY_COUNT};
pub use noise::{hash1, hash1_u32, hash2, hash2_u32, hash3, hash3_u32, ValueNoise};
pub use pad::{Axis, Button, Player, AXES, PLAYERS};
pub use palette::{Color32, Palette, PaletteError};
pub use palette_fx::{MAX_CYCLES, MAX_EFFECT_MS};
pub use pen::dither_pattern;
pub use render::Render;
pub use rng::Rng;
pub use settings::{
    OverlayColors, OverlaySettings, Settings, SettingsError, MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE,
    MAX_TARGET_FPS, MAX_WINDOW_SCALE, MIN_TARGET_FPS,
};
pub use sprite::{
    AssetError, AssetErrorKind, ColorKey, SpriteParams, SpriteSheet, DEFAULT_TILE, FLIP_H, FLIP_V,
    MAX_SHEET_SIDE, ROT_180, ROT_270, ROT_90,
};
pub use tilemap::{Moved, Tilemap, TilemapError, MAX_MAP_CELLS, MAX_MAP_LAYERS, NO_TILE};
pub use tilemap_draw::MapParams;
pub use timer::{Timer, TimerError};
pub use update::{clamp_camera, Update};

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
    pub use crate::gfx::measure_text;
    pub use crate::input::{
        stick_with_dead_zone, Input, Source, INPUT_STRING_CAPACITY, STICK_DEAD_ZONE, TRIGGER_PRESS,
    };
    pub use crate::pad::BUTTON_COUNT;
    pub use crate::sprite::{ImageLoader, RgbaImage};
    pub use crate::tick_input::{TickButtons, TickInput};
}
