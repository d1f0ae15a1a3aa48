// Where things are. The crate's documentation is its README (for cart authors); this map is
// for whoever reads the source. Carts use the names re-exported at the root, `bt::sound`,
// `bt::math`, `bt::limits` and, for hosts, `bt::host`; the modules behind them are private.
//
// | module | its job |
// | --- | --- |
// | `cart` | the `Cart` trait and what a cart reports: errors, tags, overlay rows, argument errors |
// | `update`, `render` | the two contexts a cart is handed: `Update` (simulation) and `Render` (drawing) |
// | `canvas` | `Render`'s stretched, turned and scaled sprites, spans, nine-slice panels, drawing on an `Image` from either context, and blend tables |
// | `console` | the `Console` a host keeps behind both contexts, and what it reads back |
// | `draw` | the `Framebuffer` and everything drawn on it: primitives, shapes, text, the pen, `Rect` and `Point`, sprite sheets and the blitter |
// | `assets` | loading files: `AssetError`, the host's `ImageLoader`, images into sheets, data files and maps |
// | `map` | `Tilemap`: layers, flags, collision questions, and drawing a layer |
// | `input` | the `Input` state and its setters; `Button`, `Player`, `Axis`, `Key`; one tick's `TickInput` |
// | `palette` | `Color32`, `Palette`, and the effects that run on the simulation clock (cycles, fades, flashes) |
// | `postfx` | the post-process stack: `Effect`, the presets in `crt`, and the pixel tier |
// | `sound` | sound effects, music, the `bt-sound` text format, the four-channel synthesiser, sample clips and stereo |
// | `settings` | what a cart asks of the console: display, frame rate, palette, overlay |
// | `save` | `SaveData`, the bytes a cart keeps between runs |
// | `snapshot` | `ConsoleSnapshot`, the console's state kept to go back to, and `cloned` for `Cart::snapshot` |
// | `timing` | `Timing`, the clock both contexts lend through `Deref`: its calls written once |
// | `timer`, `rng`, `easing` | tick timers, seeded randomness, easing curves |
// | `noise` (public) | stateless randomness: the integer hashes, `ValueNoise`, `PerlinNoise` and `SimplexNoise` |
// | `math` (public) | maths with the same bits on every machine |
// | `ui` (public) | the widget kit: `Ui`, its widgets, layout and `Theme` |
// | `quote` | quoting user text in one-line messages |
// | `base64` | base64 text to bytes, for the formats that embed bytes in text |

#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod assets;
mod base64;
mod canvas;
mod cart;
mod console;
mod draw;
mod easing;
mod input;
mod json;
mod map;
pub mod math;
pub mod noise;
mod palette;
mod postfx;
mod quote;
mod render;
mod rng;
mod save;
mod settings;
mod snapshot;
pub mod sound;
mod timer;
mod timing;
pub mod ui;
mod update;

pub use assets::{AssetError, AssetErrorKind};
pub use cart::{ArgError, Cart, CartError, OverlayRows, Tag};
pub use draw::{Align, Font, FontError, TextStyle};
pub use draw::{
    BlendTable, ColorKey, ColorMatch, DrawCounts, FillPattern, Image, NineSlice, NineSliceError,
    Point, Rect, SliceFill, SpriteParams, SpriteSheet, Transform, FLIP_H, FLIP_V, ROT_180, ROT_270,
    ROT_90,
};
pub use easing::{Easing, UnknownEasing};
pub use input::{Axis, Button, Key, KeyMapError, KeySet, Player, Touch, UnknownKey};
pub use map::{MapParams, Moved, Tilemap, TilemapError, NO_TILE};
pub use palette::{Color32, ColorNameError, ColorNames, ColorParseError, Palette, PaletteError};
pub use postfx::crt;
pub use postfx::{Effect, EffectKind};
pub use render::Render;
pub use rng::{Rng, RngState};
pub use save::SaveData;
pub use settings::{OverlayColors, OverlaySettings, Settings, SettingsError, Upscale};
pub use snapshot::cloned;
pub use timer::{Timer, TimerError};
pub use timing::Timing;
pub use update::{CaptureSize, Update};

/// The console's sizes and bounds: how many players, axes and keys there are, the system
/// font's metrics, and the largest display, frame rate, sheet, map, data file, font glyph,
/// text scale and palette effect the console accepts. Each is documented where it is enforced.
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
    pub use crate::assets::MAX_DATA_FILE;
    pub use crate::draw::{DEFAULT_TILE, GLYPH_ADVANCE, LINE_HEIGHT, MAX_SHEET_SIDE};
    pub use crate::draw::{MAX_FONT_GLYPHS, MAX_GLYPH_EXTENT, MAX_GLYPH_WIDTH, MAX_TEXT_SCALE};
    pub use crate::input::{AXES, KEY_COUNT, PLAYERS, TOUCH_SLOTS};
    pub use crate::map::{MAX_MAP_CELLS, MAX_MAP_LAYERS};
    pub use crate::palette::{MAX_CYCLES, MAX_EFFECT, MAX_NAME_CHARS};
    pub use crate::postfx::MAX_EFFECTS;
    pub use crate::settings::{
        MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE, MAX_OUTPUT_PIXELS, MAX_OUTPUT_SCALE, MAX_TARGET_FPS,
        MAX_WINDOW_SCALE, MIN_TARGET_FPS,
    };
    pub use crate::update::{MENU_ITEMS, MENU_LABEL_CHARS};
}

/// What a host uses to run carts, and carts never need: the console behind the contexts, the
/// input state and its setters, and image decoding.
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
    pub use crate::assets::{ImageLoader, IndexedImage, RgbaImage};
    pub use crate::base64::{decode_base64, encode_base64};
    pub use crate::console::{CaptureRequests, Console};
    pub use crate::draw::{image_bytes_copied, Framebuffer};
    pub use crate::input::{
        stick_with_dead_zone, Input, KeyMapTable, Source, TickButtons, TickInput, BUTTON_COUNT,
        BUTTON_NAMES, HOST_KEYS, INPUT_STRING_CAPACITY, KEYBOARD_PLAYERS, MAPPABLE_BUTTONS,
        STICK_DEAD_ZONE, TRIGGER_PRESS,
    };
    pub use crate::postfx::{effect_hash, PostEffects};
    pub use crate::quote::{excerpt_chars, quoted, EXCERPT_CHARS};
    pub use crate::save::SaveTooLarge;
    pub use crate::settings::SettingsField;
    pub use crate::snapshot::ConsoleSnapshot;
}
