//! The cart manifest (`cart.toml`), the user's config file, palette files, and how the layers of
//! settings stack up.
//!
//! A cart crate may keep a `cart.toml` beside its `Cargo.toml`. Every table and field is optional:
//!
//! ```toml
//! [cart]
//! name = "mygame"       # command-line name
//! title = "My Game"     # window title and overlay
//! target_fps = 60
//! assets = "assets"     # relative to this file's folder
//!
//! [display]
//! width = 320
//! height = 240
//! scale = 3
//! palette = "pico8"     # a preset, or a .png / .hex file beside this one
//!
//! [overlay]
//! visible = true
//! ```
//!
//! Settings are resolved lowest layer first: `Settings::default()`, the cart's `configure()`, the
//! manifest, the user's config file (only `display.scale`, `display.effects`, `overlay.visible`,
//! `overlay.chart`),
//! then the command line. [`resolve`] also records which layer set each field, for `bt config`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bt::limits::{MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE, MAX_OUTPUT_SCALE, MAX_WINDOW_SCALE};
use bt::{Color32, Palette, Settings, SettingsError};
use serde::Deserialize;
use thiserror::Error;
use toml::{Spanned, Value};

use crate::quote::path as shown;
use crate::quote::quoted;

/// The manifest's file name, in the cart crate's folder.
pub const MANIFEST_FILE: &str = "cart.toml";
/// The largest manifest, user config or `.hex` palette read, in bytes.
pub const MAX_MANIFEST_BYTES: u64 = 64 * 1024;
/// The largest `.png` palette read, in bytes.
pub const MAX_PALETTE_PNG_BYTES: u64 = 4 * 1024 * 1024;
/// The most pixels a `.png` palette may have (checked from its header before decoding).
pub const MAX_PALETTE_IMAGE_PIXELS: u64 = 1 << 20;
/// The palette preset names, as written in `display.palette`.
pub const PALETTE_PRESETS: [&str; 6] = ["pico8", "cga", "c64", "gameboy", "nes", "vga"];
/// The fields [`resolve`] reports, in its order.
pub const PROVENANCE_FIELDS: [&str; 14] = [
    "cart.title",
    "display.width",
    "display.height",
    "display.scale",
    "display.palette",
    "display.output_scale",
    "display.effects",
    "cart.target_fps",
    "cart.seed",
    "overlay.enabled",
    "overlay.visible",
    "overlay.chart",
    "overlay.diagnostics",
    "overlay.palette",
];

/// Why a manifest, config or palette file was refused. Each message is one line naming the file
/// (with line and column when known), the field, and the problem.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// A file could not be read.
    #[error("{what} {}: could not read it: {source}", shown(.path))]
    Read {
        /// What the file is: `"cart manifest"`, `"user config"`, `"palette file"`.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is over its size limit; it was not read.
    #[error(
        "{what} {}: could not read it: {size} bytes is over the limit of {limit} bytes",
        shown(.path)
    )]
    TooLarge {
        /// What the file is, as for [`ManifestError::Read`].
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit for that kind of file.
        limit: u64,
    },
    /// Not TOML, an unknown table or field, or a value of the wrong type or out of range.
    #[error("{}{}: {}{problem}", crate::quote::path(.path), at(.line, .column), named(.field))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// 1-based column in characters, when known.
        column: Option<usize>,
        /// The dotted field name, when the problem is one field's value.
        field: Option<&'static str>,
        /// What is wrong.
        problem: String,
    },
    /// A palette file that cannot be used.
    #[error("{}{}: {problem}", crate::quote::path(.path), at(.line, &None))]
    Palette {
        /// The palette file.
        path: PathBuf,
        /// 1-based line of a `.hex` file, when the problem is one line.
        line: Option<usize>,
        /// What is wrong.
        problem: String,
    },
    /// A palette preset name that does not exist.
    #[error("unknown palette preset {}; the presets are {}", quoted(.name), presets())]
    UnknownPreset {
        /// The name asked for.
        name: String,
    },
    /// The settings after every layer were refused by [`Settings::validate`].
    #[error("resolved settings: {0}")]
    Settings(#[from] SettingsError),
}

/// Identity from `[cart]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CartInfo {
    /// The command-line name.
    pub name: Option<String>,
    /// The title shown in the window and the overlay.
    pub title: Option<String>,
    /// Free-text version.
    pub version: Option<String>,
    /// Free-text author.
    pub author: Option<String>,
    /// One-line description.
    pub description: Option<String>,
}

/// Where a palette comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum PaletteSource {
    /// One of [`PALETTE_PRESETS`].
    Preset(String),
    /// A `.png` or `.hex` file, already joined onto the manifest's folder.
    File(PathBuf),
    /// Colours already read from such a file (what a web page carries, having no files);
    /// `name` is the file's, for messages.
    Colors {
        /// The file the colours came from.
        name: String,
        /// The colours, slot 0 first.
        colors: Vec<Color32>,
    },
}

/// The changes one layer makes to a cart's [`Settings`]. `None`: this layer says nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingsPatch {
    /// `cart.title`.
    pub title: Option<String>,
    /// `display.width`.
    pub width: Option<u32>,
    /// `display.height`.
    pub height: Option<u32>,
    /// `cart.target_fps`.
    pub target_fps: Option<f64>,
    /// `cart.seed`.
    pub seed: Option<u64>,
    /// `display.palette`.
    pub palette: Option<PaletteSource>,
    /// `display.scale`.
    pub window_scale: Option<u32>,
    /// `display.output_scale`.
    pub output_scale: Option<u32>,
    /// `display.effects`.
    pub effects: Option<bool>,
    /// `overlay.enabled`.
    pub overlay_enabled: Option<bool>,
    /// `overlay.visible`.
    pub overlay_visible: Option<bool>,
    /// `overlay.chart`.
    pub timing_chart: Option<bool>,
    /// `overlay.diagnostics`.
    pub overlay_diagnostics: Option<bool>,
    /// `overlay.palette`.
    pub overlay_palette_grid: Option<bool>,
    /// `display.reduced_motion`, from the user's config only: the player's preference
    /// ([`bt::Update::prefers_reduced_motion`]), not a setting of the cart, so it changes no
    /// field of [`Settings`].
    pub reduced_motion: Option<bool>,
}

impl SettingsPatch {
    /// Applies this layer to `settings`, loading the palette with [`load_palette`]. On error
    /// `settings` is left as it was.
    ///
    /// # Errors
    /// As [`load_palette`]: the message names the palette file.
    pub fn apply(&self, settings: &mut Settings) -> Result<(), ManifestError> {
        if let Some(source) = &self.palette {
            settings.palette = load_palette(source)?;
        }
        if let Some(title) = &self.title {
            settings.title.clone_from(title);
        }
        settings.width = self.width.unwrap_or(settings.width);
        settings.height = self.height.unwrap_or(settings.height);
        settings.target_fps = self.target_fps.unwrap_or(settings.target_fps);
        settings.seed = self.seed.or(settings.seed);
        settings.window_scale = self.window_scale.or(settings.window_scale);
        settings.output_scale = self.output_scale.unwrap_or(settings.output_scale);
        settings.effects = self.effects.unwrap_or(settings.effects);
        let overlay = &mut settings.overlay;
        overlay.enabled = self.overlay_enabled.unwrap_or(overlay.enabled);
        overlay.visible_at_start = self.overlay_visible.unwrap_or(overlay.visible_at_start);
        overlay.timing_chart = self.timing_chart.unwrap_or(overlay.timing_chart);
        overlay.diagnostics = self.overlay_diagnostics.unwrap_or(overlay.diagnostics);
        overlay.palette_grid = self.overlay_palette_grid.unwrap_or(overlay.palette_grid);
        Ok(())
    }

    /// Which of [`PROVENANCE_FIELDS`] this patch sets, in that order.
    fn touched(&self) -> [bool; PROVENANCE_FIELDS.len()] {
        [
            self.title.is_some(),
            self.width.is_some(),
            self.height.is_some(),
            self.window_scale.is_some(),
            self.palette.is_some(),
            self.output_scale.is_some(),
            self.effects.is_some(),
            self.target_fps.is_some(),
            self.seed.is_some(),
            self.overlay_enabled.is_some(),
            self.overlay_visible.is_some(),
            self.timing_chart.is_some(),
            self.overlay_diagnostics.is_some(),
            self.overlay_palette_grid.is_some(),
        ]
    }
}

/// A parsed `cart.toml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    /// Where it was read from.
    pub path: PathBuf,
    /// The cart's identity.
    pub cart: CartInfo,
    /// Its settings layer (`cart.title` is in both this and [`Manifest::cart`]).
    pub settings: SettingsPatch,
    /// The assets folder, joined onto the manifest's folder.
    pub assets: Option<PathBuf>,
}

pub(super) type Field = Option<Spanned<Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    cart: Option<RawCart>,
    display: Option<RawDisplay>,
    overlay: Option<RawOverlay>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCart {
    name: Field,
    title: Field,
    version: Field,
    author: Field,
    description: Field,
    target_fps: Field,
    seed: Field,
    assets: Field,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDisplay {
    width: Field,
    height: Field,
    scale: Field,
    palette: Field,
    output_scale: Field,
    effects: Field,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverlay {
    enabled: Field,
    visible: Field,
    chart: Field,
    diagnostics: Field,
    palette: Field,
}

/// A table's fields in declaration order (as serde lists them), with how to name the table.
pub(super) type Table = (&'static str, &'static str, &'static [&'static str]);

const MANIFEST_TABLES: [Table; 4] = [
    ("table", "", &["cart", "display", "overlay"]),
    (
        "field",
        " in [cart]",
        &[
            "name",
            "title",
            "version",
            "author",
            "description",
            "target_fps",
            "seed",
            "assets",
        ],
    ),
    (
        "field",
        " in [display]",
        &[
            "width",
            "height",
            "scale",
            "palette",
            "output_scale",
            "effects",
        ],
    ),
    (
        "field",
        " in [overlay]",
        &["enabled", "visible", "chart", "diagnostics", "palette"],
    ),
];

/// Parses manifest text. `path` is where it came from: it names the file in errors, and relative
/// paths in the manifest are joined onto its parent folder.
///
/// # Errors
/// [`ManifestError::Invalid`] for bad TOML, an unknown table or field, or a bad value, with the
/// line and column.
pub fn parse(text: &str, path: &Path) -> Result<Manifest, ManifestError> {
    let src = Source { text, path };
    let raw: RawManifest = src.decode(&MANIFEST_TABLES, "")?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut m = Manifest {
        path: path.to_path_buf(),
        ..Manifest::default()
    };
    if let Some(c) = raw.cart {
        m.cart.name = src.field(c.name, "cart.name", cart_name)?;
        m.cart.title = src.field(c.title, "cart.title", one_line(1, 64))?;
        m.cart.version = src.field(c.version, "cart.version", one_line(1, 32))?;
        m.cart.author = src.field(c.author, "cart.author", one_line(0, 128))?;
        m.cart.description = src.field(c.description, "cart.description", one_line(0, 256))?;
        m.settings.title.clone_from(&m.cart.title);
        m.settings.target_fps = src.field(c.target_fps, "cart.target_fps", fps)?;
        // TOML integers are 64-bit signed: no larger seed can be written in the file.
        m.settings.seed = src.field(c.seed, "cart.seed", whole(0, i64::MAX as u64))?;
        m.assets = src.field(c.assets, "cart.assets", folder(base))?;
    }
    if let Some(d) = raw.display {
        let height_at = d.height.as_ref().map(|h| h.span().start);
        let side = || small(1, MAX_DISPLAY_SIDE);
        m.settings.width = src.field(d.width, "display.width", side())?;
        m.settings.height = src.field(d.height, "display.height", side())?;
        if let (Some(w), Some(h)) = (m.settings.width, m.settings.height) {
            let area = u64::from(w) * u64::from(h);
            if area > MAX_DISPLAY_PIXELS {
                let problem = format!("{w}x{h} is {area} pixels; the most is {MAX_DISPLAY_PIXELS}");
                return Err(src.error(height_at, Some("display"), problem));
            }
        }
        m.settings.window_scale =
            src.field(d.scale, "display.scale", small(1, MAX_WINDOW_SCALE))?;
        m.settings.palette = src.field(d.palette, "display.palette", palette_source(base))?;
        m.settings.output_scale = src.field(
            d.output_scale,
            "display.output_scale",
            small(1, MAX_OUTPUT_SCALE),
        )?;
        m.settings.effects = src.field(d.effects, "display.effects", flag)?;
    }
    if let Some(o) = raw.overlay {
        m.settings.overlay_enabled = src.field(o.enabled, "overlay.enabled", flag)?;
        m.settings.overlay_visible = src.field(o.visible, "overlay.visible", flag)?;
        m.settings.timing_chart = src.field(o.chart, "overlay.chart", flag)?;
        m.settings.overlay_diagnostics = src.field(o.diagnostics, "overlay.diagnostics", flag)?;
        m.settings.overlay_palette_grid = src.field(o.palette, "overlay.palette", flag)?;
    }
    Ok(m)
}

/// Reads `path` whole if it is at most `limit` bytes, through [`crate::config::read::read_file`]
/// (no FIFO or device); `Ok(None)` when missing and `missing_ok`. `what` says what the file is
/// in errors.
fn read_limited(
    what: &'static str,
    path: &Path,
    limit: u64,
    missing_ok: bool,
) -> Result<Option<Vec<u8>>, ManifestError> {
    use crate::config::read::{read_file, ReadError};
    match read_file(path, limit) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadError::NotFound) if missing_ok => Ok(None),
        Err(ReadError::TooLarge { size, limit }) => Err(ManifestError::TooLarge {
            what,
            path: path.to_path_buf(),
            size: size.unwrap_or(limit + 1),
            limit,
        }),
        Err(e) => Err(ManifestError::Read {
            what,
            path: path.to_path_buf(),
            source: e.into_io(),
        }),
    }
}

/// The bytes as UTF-8 text, or an error placing the first bad byte.
fn utf8(bytes: Vec<u8>, path: &Path) -> Result<String, ManifestError> {
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = std::str::from_utf8(&e.as_bytes()[..good]).unwrap_or_default();
        Source { text, path }.error(Some(good), None, "not UTF-8 text".to_string())
    })
}

/// Reads `dir/cart.toml`. `Ok(None)` when there is none.
///
/// # Errors
/// [`ManifestError::TooLarge`] over [`MAX_MANIFEST_BYTES`] (checked before reading),
/// [`ManifestError::Read`] when it cannot be read, else as [`parse`].
pub fn load(dir: &Path) -> Result<Option<Manifest>, ManifestError> {
    let path = dir.join(MANIFEST_FILE);
    let Some(bytes) = read_limited("cart manifest", &path, MAX_MANIFEST_BYTES, true)? else {
        return Ok(None);
    };
    parse(&utf8(bytes, &path)?, &path).map(Some)
}

/// Reads the user's config file if it exists (`Ok(None)` if not).
///
/// # Errors
/// As [`load`]: size limit, read errors, then as [`parse_user_config`].
pub fn load_user_config(path: &Path) -> Result<Option<SettingsPatch>, ManifestError> {
    let Some(bytes) = read_limited("user config", path, MAX_MANIFEST_BYTES, true)? else {
        return Ok(None);
    };
    parse_user_config(&utf8(bytes, path)?, path).map(Some)
}

mod carried;
mod fields;
mod layers;
mod messages;
mod palette_file;
mod user_config;

use fields::*;
use messages::*;

pub use carried::{carried_manifest, manifest_from_carried};
pub use layers::{format_provenance, resolve, Layer, Overridden, Provenance};
pub use palette_file::{load_palette, MANIFEST_PALETTE_SLOTS};
#[cfg(test)]
use user_config::config_dir_from;
pub use user_config::{parse_user_config, user_config_dir, user_config_path};

#[cfg(test)]
mod tests;
