#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod cart;
mod font;
mod gfx;
mod input;
mod keys;
mod palette;
mod rng;
mod settings;
mod timer;
mod update_input;

pub use cart::{Cart, CartError, Console, OverlayRows, Render, Tag, Update};
pub use font::{GLYPH_ADVANCE, LINE_HEIGHT};
pub use gfx::{measure_text, Framebuffer, Rect};
pub use input::*;
pub use keys::{Key, UnknownKey, KEY_COUNT};
pub use palette::{Color32, Palette, PaletteError};
pub use rng::Rng;
pub use settings::{
    OverlaySettings, Settings, SettingsError, MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE,
};
pub use timer::{Timer, TimerError};
