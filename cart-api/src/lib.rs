#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod blit;
mod cart;
mod console;
mod easing;
mod font;
mod gfx;
mod input;
mod keys;
mod noise;
mod palette;
mod palette_fx;
mod render;
mod rng;
mod settings;
mod sprite;
mod timer;
mod update;

pub use cart::{ArgError, Cart, CartError, OverlayRows, Tag};
pub use console::Console;
pub use easing::Easing;
pub use font::{GLYPH_ADVANCE, LINE_HEIGHT};
pub use gfx::{measure_text, Framebuffer, Rect};
pub use input::*;
pub use keys::{Key, UnknownKey, KEY_COUNT};
pub use noise::{hash1, hash1_u32, hash2, hash2_u32, hash3, hash3_u32, ValueNoise};
pub use palette::{Color32, Palette, PaletteError};
pub use palette_fx::MAX_CYCLES;
pub use render::Render;
pub use rng::Rng;
pub use settings::{
    OverlayColors, OverlaySettings, Settings, SettingsError, MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE,
    MAX_TARGET_FPS, MAX_WINDOW_SCALE, MIN_TARGET_FPS,
};
pub use sprite::{
    AssetError, AssetErrorKind, ImageLoader, RgbaImage, SpriteParams, SpriteSheet, DEFAULT_TILE,
    FLIP_H, FLIP_V, MAX_SHEET_SIDE, ROT_180, ROT_270, ROT_90,
};
pub use timer::{Timer, TimerError};
pub use update::{camera_clamp, Update};
