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
//! manifest, the user's config file (only `display.scale`, `overlay.visible`, `overlay.chart`),
//! then the command line. [`resolve`] also records which layer set each field, for `bt config`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Cursor;
use std::path::{Component, Path, PathBuf};

use bt::{
    Color32, Palette, Settings, SettingsError, MAX_DISPLAY_PIXELS, MAX_DISPLAY_SIDE,
    MAX_TARGET_FPS, MAX_WINDOW_SCALE, MIN_TARGET_FPS,
};
use image::codecs::png::PngDecoder;
use image::{DynamicImage, ImageDecoder, Limits};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use thiserror::Error;
use toml::{Spanned, Value};

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
pub const PROVENANCE_FIELDS: [&str; 10] = [
    "cart.title",
    "display.width",
    "display.height",
    "display.scale",
    "display.palette",
    "cart.target_fps",
    "cart.seed",
    "overlay.enabled",
    "overlay.visible",
    "overlay.chart",
];

/// Why a manifest, config or palette file was refused. Each message is one line naming the file
/// (with line and column when known), the field, and the problem.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// A file could not be read.
    #[error("{}: cannot read it: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is over its size limit; it was not read.
    #[error("{}: {size} bytes is over the limit of {limit} bytes", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit for that kind of file.
        limit: u64,
    },
    /// Not TOML, an unknown table or field, or a value of the wrong type or out of range.
    #[error("{}{}: {}{problem}", .path.display(), at(.line, .column), named(.field))]
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
    #[error("{}{}: {problem}", .path.display(), at(.line, &None))]
    Palette {
        /// The palette file.
        path: PathBuf,
        /// 1-based line of a `.hex` file, when the problem is one line.
        line: Option<usize>,
        /// What is wrong.
        problem: String,
    },
    /// A palette preset name that does not exist.
    #[error("unknown palette preset {}; the presets are {}", excerpt(.name), presets())]
    UnknownPreset {
        /// The name asked for.
        name: String,
    },
    /// The settings after every layer were refused by [`Settings::validate`].
    #[error("resolved settings: {0}")]
    Settings(#[from] SettingsError),
}

fn at(line: &Option<usize>, column: &Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

fn presets() -> String {
    PALETTE_PRESETS.join(", ")
}

fn named(field: &Option<&'static str>) -> String {
    field.map(|f| format!("{f}: ")).unwrap_or_default()
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
    /// `overlay.enabled`.
    pub overlay_enabled: Option<bool>,
    /// `overlay.visible`.
    pub overlay_visible: Option<bool>,
    /// `overlay.chart`.
    pub timing_chart: Option<bool>,
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
        let overlay = &mut settings.overlay;
        overlay.enabled = self.overlay_enabled.unwrap_or(overlay.enabled);
        overlay.visible_at_start = self.overlay_visible.unwrap_or(overlay.visible_at_start);
        overlay.timing_chart = self.timing_chart.unwrap_or(overlay.timing_chart);
        Ok(())
    }

    /// Which of [`PROVENANCE_FIELDS`] this patch sets, in that order.
    fn touched(&self) -> [bool; 10] {
        [
            self.title.is_some(),
            self.width.is_some(),
            self.height.is_some(),
            self.window_scale.is_some(),
            self.palette.is_some(),
            self.target_fps.is_some(),
            self.seed.is_some(),
            self.overlay_enabled.is_some(),
            self.overlay_visible.is_some(),
            self.timing_chart.is_some(),
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

type Field = Option<Spanned<Value>>;

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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverlay {
    enabled: Field,
    visible: Field,
    chart: Field,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUserConfig {
    display: Option<RawUserDisplay>,
    overlay: Option<RawUserOverlay>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUserDisplay {
    scale: Field,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUserOverlay {
    visible: Field,
    chart: Field,
}

/// A table's fields in declaration order (as serde lists them), with how to name the table.
type Table = (&'static str, &'static str, &'static [&'static str]);

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
        &["width", "height", "scale", "palette"],
    ),
    ("field", " in [overlay]", &["enabled", "visible", "chart"]),
];

const USER_TABLES: [Table; 3] = [
    ("table", "", &["display", "overlay"]),
    ("field", " in [display]", &["scale"]),
    ("field", " in [overlay]", &["visible", "chart"]),
];

const USER_HINT: &str =
    " (the user config sets only display.scale, overlay.visible and overlay.chart)";

/// User text as a short escaped excerpt: at most 40 characters, with an ellipsis when cut.
fn excerpt(text: &str) -> String {
    const MAX: usize = 40;
    let count = text.chars().count();
    if count <= MAX {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head:?}… ({count} characters)")
}

/// A TOML value for a message: strings as excerpts, no arrays or tables written out.
fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => excerpt(s),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => crate::quote::number(*f),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => format!("the date-time {d}"),
        Value::Array(_) => "an array".to_string(),
        Value::Table(_) => "a table".to_string(),
    }
}

/// Field names as people read them: `a`, `a or b`, `one of a, b, c`.
fn list(fields: &[&str], quote: &str) -> String {
    let q: Vec<String> = fields
        .iter()
        .map(|f| format!("{quote}{f}{quote}"))
        .collect();
    match q.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", q.join(", ")),
    }
}

/// toml's message for the whole-file decode, condensed to one line, with unknown fields
/// explained by table.
fn explain(message: &str, tables: &[Table], hint: &str) -> String {
    if let Some(rest) = message.strip_prefix("unknown field `") {
        for (what, table, fields) in tables {
            if let Some(name) = rest.strip_suffix(&format!("`, expected {}", list(fields, "`"))) {
                let simple = name.len() <= 40
                    && !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                let name = if simple {
                    format!("'{name}'")
                } else {
                    excerpt(name)
                };
                return format!(
                    "unknown {what} {name}{table}; expected {}{hint}",
                    list(fields, "")
                );
            }
        }
    }
    let mut out = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
        .replace('`', "'");
    if let Some(i) = out.find("expected struct ") {
        out.truncate(i);
        out.push_str("expected a table");
    }
    if out.chars().count() > 160 {
        out = out.chars().take(160).chain(std::iter::once('…')).collect();
    }
    out
}

/// One file's text, for decoding it and placing errors in it.
struct Source<'a> {
    text: &'a str,
    path: &'a Path,
}

impl Source<'_> {
    /// 1-based line and column (in characters) of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = before[start..]
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count()
            + 1;
        (line, column)
    }

    fn error(
        &self,
        offset: Option<usize>,
        field: Option<&'static str>,
        problem: String,
    ) -> ManifestError {
        let (line, column) = offset.map(|o| self.line_col(o)).unzip();
        ManifestError::Invalid {
            path: self.path.to_path_buf(),
            line,
            column,
            field,
            problem,
        }
    }

    fn decode<T: DeserializeOwned>(
        &self,
        tables: &[Table],
        hint: &str,
    ) -> Result<T, ManifestError> {
        toml::from_str(self.text).map_err(|e| {
            let at = e.span().map(|s| s.start);
            let problem = match at {
                Some(at) if e.message().contains("too large to fit") => self.too_large(at),
                _ => explain(e.message(), tables, hint),
            };
            self.error(at, None, problem)
        })
    }

    /// The problem of a number past what a TOML integer holds, naming the key of its line.
    fn too_large(&self, at: usize) -> String {
        let start = self.text[..at.min(self.text.len())]
            .rfind('\n')
            .map_or(0, |n| n + 1);
        let line = self.text[start..].lines().next().unwrap_or_default();
        let key = line.split('=').next().unwrap_or_default().trim();
        format!(
            "{}: a whole number past the largest a TOML file holds ({})",
            excerpt(key),
            i64::MAX
        )
    }

    /// Checks one optional value with `check`, which returns the problem text when it is bad.
    fn field<T>(
        &self,
        value: Field,
        field: &'static str,
        check: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Result<Option<T>, ManifestError> {
        let Some(value) = value else { return Ok(None) };
        check(value.get_ref())
            .map(Some)
            .map_err(|problem| self.error(Some(value.span().start), Some(field), problem))
    }
}

fn whole(min: u64, max: u64) -> impl FnOnce(&Value) -> Result<u64, String> {
    move |v| {
        match v {
            Value::Integer(i) => u64::try_from(*i).ok().filter(|n| (min..=max).contains(n)),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "must be a whole number from {min} to {max}, got {}",
                describe(v)
            )
        })
    }
}

fn small(min: u32, max: u32) -> impl FnOnce(&Value) -> Result<u32, String> {
    move |v| whole(min.into(), max.into())(v).map(|n| u32::try_from(n).unwrap_or(max))
}

fn fps(v: &Value) -> Result<f64, String> {
    let n = match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    };
    n.filter(|n| (MIN_TARGET_FPS..=MAX_TARGET_FPS).contains(n))
        .ok_or_else(|| {
            format!(
                "must be a number from {MIN_TARGET_FPS} to {MAX_TARGET_FPS}, got {}",
                describe(v)
            )
        })
}

fn flag(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("must be true or false, got {}", describe(v)))
}

/// One line of text with `min..=max` characters and no control characters.
fn one_line(min: usize, max: usize) -> impl FnOnce(&Value) -> Result<String, String> {
    move |v| {
        let ok = v.as_str().filter(|s| {
            (min..=max).contains(&s.chars().count()) && !s.chars().any(char::is_control)
        });
        let size = if min == 0 {
            format!("at most {max}")
        } else {
            format!("{min} to {max}")
        };
        ok.map(str::to_string).ok_or_else(|| {
            format!(
                "must be one line of {size} characters, no control characters, got {}",
                describe(v)
            )
        })
    }
}

fn cart_name(v: &Value) -> Result<String, String> {
    v.as_str()
        .filter(|s| {
            s.len() <= 64
                && s.starts_with(|c: char| c.is_ascii_lowercase())
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        })
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "must be 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter, got {}",
                describe(v)
            )
        })
}

/// A relative path that stays inside the manifest's folder.
fn inside(s: &str) -> bool {
    let path = Path::new(s);
    !s.is_empty()
        && !s.starts_with(['/', '\\'])
        && !path.is_absolute()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && !s.split(['/', '\\']).any(|part| part == "..")
}

fn folder(base: &Path) -> impl FnOnce(&Value) -> Result<PathBuf, String> + '_ {
    move |v| {
        v.as_str()
            .filter(|s| inside(s))
            .map(|s| base.join(s))
            .ok_or_else(|| {
                format!(
                    "must be a folder inside the cart's folder (relative, no '..'), got {}",
                    describe(v)
                )
            })
    }
}

fn palette_source(base: &Path) -> impl FnOnce(&Value) -> Result<PaletteSource, String> + '_ {
    move |v| {
        let Some(s) = v.as_str() else {
            return Err(format!(
                "must be a preset name or a file path, got {}",
                describe(v)
            ));
        };
        let lower = s.to_ascii_lowercase();
        if lower.ends_with(".png") || lower.ends_with(".hex") {
            return if inside(s) {
                Ok(PaletteSource::File(base.join(s)))
            } else {
                Err(format!(
                    "a palette file must be inside the cart's folder, got {}",
                    excerpt(s)
                ))
            };
        }
        if PALETTE_PRESETS.contains(&s) {
            return Ok(PaletteSource::Preset(s.to_string()));
        }
        Err(format!(
            "unknown preset {}; use one of {} or a .png or .hex file",
            excerpt(s),
            presets()
        ))
    }
}

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
    }
    if let Some(o) = raw.overlay {
        m.settings.overlay_enabled = src.field(o.enabled, "overlay.enabled", flag)?;
        m.settings.overlay_visible = src.field(o.visible, "overlay.visible", flag)?;
        m.settings.timing_chart = src.field(o.chart, "overlay.chart", flag)?;
    }
    Ok(m)
}

/// Reads `path` whole if it is at most `limit` bytes, through [`crate::config::read::read_file`]
/// (no FIFO or device); `Ok(None)` when missing and `missing_ok`.
fn read_limited(
    path: &Path,
    limit: u64,
    missing_ok: bool,
) -> Result<Option<Vec<u8>>, ManifestError> {
    use crate::config::read::{read_file, ReadError};
    match read_file(path, limit) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadError::NotFound) if missing_ok => Ok(None),
        Err(ReadError::TooLarge { size, limit }) => Err(ManifestError::TooLarge {
            path: path.to_path_buf(),
            size: size.unwrap_or(limit + 1),
            limit,
        }),
        Err(e) => Err(ManifestError::Read {
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
    let Some(bytes) = read_limited(&path, MAX_MANIFEST_BYTES, true)? else {
        return Ok(None);
    };
    parse(&utf8(bytes, &path)?, &path).map(Some)
}

/// Parses the user's config file text: only `[display] scale` and `[overlay] visible, chart`.
///
/// # Errors
/// [`ManifestError::Invalid`] for bad TOML, any other table or field, or a bad value.
pub fn parse_user_config(text: &str, path: &Path) -> Result<SettingsPatch, ManifestError> {
    let src = Source { text, path };
    let raw: RawUserConfig = src.decode(&USER_TABLES, USER_HINT)?;
    let mut patch = SettingsPatch::default();
    if let Some(d) = raw.display {
        patch.window_scale = src.field(d.scale, "display.scale", small(1, MAX_WINDOW_SCALE))?;
    }
    if let Some(o) = raw.overlay {
        patch.overlay_visible = src.field(o.visible, "overlay.visible", flag)?;
        patch.timing_chart = src.field(o.chart, "overlay.chart", flag)?;
    }
    Ok(patch)
}

/// Reads the user's config file if it exists (`Ok(None)` if not).
///
/// # Errors
/// As [`load`]: size limit, read errors, then as [`parse_user_config`].
pub fn load_user_config(path: &Path) -> Result<Option<SettingsPatch>, ManifestError> {
    let Some(bytes) = read_limited(path, MAX_MANIFEST_BYTES, true)? else {
        return Ok(None);
    };
    parse_user_config(&utf8(bytes, path)?, path).map(Some)
}

/// The user config path: `config.toml` in [`user_config_dir`].
pub fn user_config_path() -> Option<PathBuf> {
    user_config_dir().map(|dir| dir.join("config.toml"))
}

/// The folder of the user's BT files (`config.toml`, `keys.toml`): `$XDG_CONFIG_HOME/bt` when
/// that is set and absolute, else `$HOME/.config/bt` when `HOME` is set and absolute
/// (`%APPDATA%\bt` on Windows). `None` when none is usable. A relative `XDG_CONFIG_HOME` is
/// ignored, as the XDG Base Directory specification says.
pub fn user_config_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    if cfg!(windows) {
        return config_dir_from(var("APPDATA"), None);
    }
    config_dir_from(var("XDG_CONFIG_HOME"), var("HOME"))
}

fn config_dir_from(config_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    config_home
        .filter(|p| p.is_absolute())
        .or_else(|| home.filter(|p| p.is_absolute()).map(|h| h.join(".config")))
        .map(|dir| dir.join("bt"))
}

mod layers;
mod palette_file;

pub use layers::{format_provenance, resolve, Layer, Provenance};
pub use palette_file::{load_palette, MANIFEST_PALETTE_SLOTS};

#[cfg(test)]
mod tests;
