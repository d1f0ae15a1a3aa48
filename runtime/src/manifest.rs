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
use std::io::{Cursor, ErrorKind, Read as _};
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
        Value::Float(f) => f.to_string(),
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
            self.error(
                e.span().map(|s| s.start),
                None,
                explain(e.message(), tables, hint),
            )
        })
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
        m.settings.seed = src.field(c.seed, "cart.seed", whole(0, u64::MAX))?;
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

/// Reads `path` whole if it is at most `limit` bytes; `Ok(None)` when missing and `missing_ok`.
fn read_limited(
    path: &Path,
    limit: u64,
    missing_ok: bool,
) -> Result<Option<Vec<u8>>, ManifestError> {
    let read = |source| ManifestError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = match std::fs::File::open(path) {
        Err(e) if missing_ok && e.kind() == ErrorKind::NotFound => return Ok(None),
        other => other.map_err(read)?,
    };
    let meta = file.metadata().map_err(read)?;
    if !meta.is_file() {
        return Err(read(std::io::Error::new(
            ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    let too_large = |size| ManifestError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit,
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
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

/// The user config path: `$XDG_CONFIG_HOME/bt/config.toml` when that is set and absolute, else
/// `$HOME/.config/bt/config.toml` when `HOME` is set and absolute (`%APPDATA%\bt\config.toml` on
/// Windows). `None` when none is usable.
pub fn user_config_path() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    if cfg!(windows) {
        return config_path_from(var("APPDATA"), None);
    }
    config_path_from(var("XDG_CONFIG_HOME"), var("HOME"))
}

fn config_path_from(config_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    config_home
        .filter(|p| p.is_absolute())
        .or_else(|| home.filter(|p| p.is_absolute()).map(|h| h.join(".config")))
        .map(|dir| dir.join("bt").join("config.toml"))
}

/// The preset palette called `name`.
fn preset(name: &str) -> Option<Palette> {
    Some(match name {
        "pico8" => Palette::pico8(),
        "cga" => Palette::cga(),
        "c64" => Palette::c64(),
        "gameboy" => Palette::gameboy(),
        "nes" => Palette::nes(),
        "vga" => Palette::vga(),
        _ => return None,
    })
}

/// Loads a palette: a preset by name, a `.hex` file (one `RRGGBB` or `#RRGGBB` a line; blank lines
/// and lines starting with `;` skipped), or a `.png` (its distinct colours in order of first
/// appearance, reading left to right, top to bottom; fully transparent pixels skipped). Files
/// hold 2 to 256 colours ([`Palette`] needs at least 2).
///
/// # Errors
/// [`ManifestError::UnknownPreset`], or for files [`ManifestError::Read`],
/// [`ManifestError::TooLarge`] or [`ManifestError::Palette`] naming the file (and the line of a
/// `.hex` file).
pub fn load_palette(source: &PaletteSource) -> Result<Palette, ManifestError> {
    let path = match source {
        PaletteSource::Preset(name) => {
            return preset(name)
                .map(with_free_slots)
                .ok_or_else(|| ManifestError::UnknownPreset { name: name.clone() })
        }
        PaletteSource::File(path) => path,
    };
    let bad = |line, problem: String| ManifestError::Palette {
        path: path.clone(),
        line,
        problem,
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let colors = match ext.as_deref() {
        Some("hex") => {
            let bytes = read_limited(path, MAX_MANIFEST_BYTES, false)?.unwrap_or_default();
            let text = String::from_utf8(bytes).map_err(|_| bad(None, "not UTF-8 text".into()))?;
            hex_colors(&text).map_err(|(line, problem)| bad(Some(line), problem))?
        }
        Some("png") => {
            let bytes = read_limited(path, MAX_PALETTE_PNG_BYTES, false)?.unwrap_or_default();
            png_colors(&bytes).map_err(|problem| bad(None, problem))?
        }
        _ => return Err(bad(None, "a palette file must end .png or .hex".into())),
    };
    let size = colors.len();
    let mut palette = Palette::new(size).map_err(|_| {
        bad(
            None,
            format!("has {size} colours; a palette needs 2 to 256"),
        )
    })?;
    for (slot, color) in colors.into_iter().enumerate() {
        palette
            .set(slot, color)
            .map_err(|e| bad(None, e.to_string()))?;
    }
    Ok(with_free_slots(palette))
}

/// Slots a palette from a manifest has: its colours first, the rest free (black) for sprite
/// sheets to claim with `load_indexed`, so a cart can load a sheet from the first free slot
/// without sizing the palette itself.
pub const MANIFEST_PALETTE_SLOTS: usize = 256;

fn with_free_slots(palette: Palette) -> Palette {
    palette.resized(MANIFEST_PALETTE_SLOTS).unwrap_or(palette)
}

fn hex_colors(text: &str) -> Result<Vec<Color32>, (usize, String)> {
    let mut colors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let digits = line.strip_prefix('#').unwrap_or(line);
        let rgb = Some(digits)
            .filter(|d| d.len() == 6 && d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| {
                (
                    i + 1,
                    format!("expected RRGGBB or #RRGGBB, got {}", excerpt(line)),
                )
            })?;
        if colors.len() == 256 {
            return Err((i + 1, "more than 256 colours".to_string()));
        }
        colors.push(Color32::hex(rgb));
    }
    Ok(colors)
}

fn png_colors(bytes: &[u8]) -> Result<Vec<Color32>, String> {
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("not a PNG image (no PNG signature)".to_string());
    }
    let not_png =
        |e: image::ImageError| format!("not a readable PNG: {}", explain(&e.to_string(), &[], ""));
    let mut decoder = PngDecoder::new(Cursor::new(bytes)).map_err(not_png)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PALETTE_IMAGE_PIXELS {
        return Err(format!(
            "the image is {width}x{height}; a palette image has at most \
             {MAX_PALETTE_IMAGE_PIXELS} pixels"
        ));
    }
    let mut limits = Limits::default();
    limits.max_alloc = Some(64 * MAX_PALETTE_IMAGE_PIXELS);
    decoder.set_limits(limits).map_err(not_png)?;
    let image = DynamicImage::from_decoder(decoder)
        .map_err(not_png)?
        .into_rgba8();
    let mut seen = HashSet::new();
    let mut colors = Vec::new();
    for px in image.pixels() {
        let [r, g, b, a] = px.0;
        if a != 0 && seen.insert([r, g, b]) {
            if colors.len() == 256 {
                return Err("more than 256 distinct colours".to_string());
            }
            colors.push(Color32::rgb(r, g, b));
        }
    }
    Ok(colors)
}

/// Where a resolved setting came from, lowest precedence first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// `bt::Settings::default()`.
    Default,
    /// The cart's `configure()`.
    Configure,
    /// The cart's `cart.toml`.
    Manifest,
    /// The user's config file.
    UserConfig,
    /// The command line.
    CommandLine,
}

/// One row of `bt config`.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The manifest's dotted name for the field, one of [`PROVENANCE_FIELDS`].
    pub field: &'static str,
    /// The resolved value as text.
    pub value: String,
    /// The layer that set it.
    pub layer: Layer,
    /// The file, for [`Layer::Manifest`] and [`Layer::UserConfig`].
    pub origin: Option<PathBuf>,
}

/// A palette's name: its preset's name, else its size.
fn palette_name(palette: &Palette) -> String {
    let colors = palette.colors();
    for name in PALETTE_PRESETS {
        let Some(p) = preset(name) else { continue };
        if colors.starts_with(p.colors()) {
            return match colors.len() - p.len() {
                0 => (*name).to_string(),
                free => format!("{name} and {free} free slots"),
            };
        }
    }
    format!("custom, {} colours", palette.len())
}

/// Resolves settings: starts from `configured` (what `configure()` returned; fields equal to
/// `Settings::default()` count as [`Layer::Default`], others as [`Layer::Configure`]), then
/// applies each `(layer, origin file, patch)` lowest layer first (the slice is stably sorted by
/// layer). Returns the final settings and one [`Provenance`] per [`PROVENANCE_FIELDS`] entry.
///
/// # Errors
/// A palette that cannot be loaded (see [`load_palette`]), or [`ManifestError::Settings`] when
/// the result fails [`Settings::validate`].
pub fn resolve(
    configured: Settings,
    layers: &[(Layer, Option<&Path>, &SettingsPatch)],
) -> Result<(Settings, Vec<Provenance>), ManifestError> {
    let d = Settings::default();
    let c = &configured;
    let base = |same: bool| {
        (
            if same {
                Layer::Default
            } else {
                Layer::Configure
            },
            None,
        )
    };
    let mut from: [(Layer, Option<PathBuf>); 10] = [
        base(c.title == d.title),
        base(c.width == d.width),
        base(c.height == d.height),
        base(c.window_scale == d.window_scale),
        base(c.palette == d.palette),
        base(c.target_fps.to_bits() == d.target_fps.to_bits()),
        base(c.seed == d.seed),
        base(c.overlay.enabled == d.overlay.enabled),
        base(c.overlay.visible_at_start == d.overlay.visible_at_start),
        base(c.overlay.timing_chart == d.overlay.timing_chart),
    ];
    let mut settings = configured;
    let mut palette_label = None;
    let mut ordered: Vec<_> = layers.iter().collect();
    ordered.sort_by_key(|l| l.0);
    for &&(layer, origin, patch) in &ordered {
        patch.apply(&mut settings)?;
        for (slot, set) in from.iter_mut().zip(patch.touched()) {
            if set {
                *slot = (layer, origin.map(Path::to_path_buf));
            }
        }
        palette_label = match &patch.palette {
            Some(PaletteSource::Preset(name)) => Some(name.clone()),
            Some(PaletteSource::File(path)) => Some(path.display().to_string()),
            None => palette_label,
        };
    }
    settings.validate()?;
    let s = &settings;
    let values = [
        excerpt(&s.title),
        s.width.to_string(),
        s.height.to_string(),
        s.window_scale
            .map_or_else(|| "auto".to_string(), |v| v.to_string()),
        palette_label.unwrap_or_else(|| palette_name(&s.palette)),
        s.target_fps.to_string(),
        s.seed.map_or_else(|| "none".to_string(), |v| v.to_string()),
        s.overlay.enabled.to_string(),
        s.overlay.visible_at_start.to_string(),
        s.overlay.timing_chart.to_string(),
    ];
    let rows = PROVENANCE_FIELDS
        .into_iter()
        .zip(values)
        .zip(from)
        .map(|((field, value), (layer, origin))| Provenance {
            field,
            value,
            layer,
            origin,
        })
        .collect();
    Ok((settings, rows))
}

fn from_text(row: &Provenance) -> String {
    let file = |what: &str| match &row.origin {
        Some(path) => format!("{what} ({})", path.display()),
        None => what.to_string(),
    };
    match row.layer {
        Layer::Default => "default".to_string(),
        Layer::Configure => "configure()".to_string(),
        Layer::Manifest => file(MANIFEST_FILE),
        Layer::UserConfig => file("user config"),
        Layer::CommandLine => "command line".to_string(),
    }
}

/// The `bt config` table: a header, then one line per row with aligned columns field, value
/// and where it came from.
pub fn format_provenance(rows: &[Provenance]) -> String {
    let lines: Vec<[String; 3]> = std::iter::once(["field".into(), "value".into(), "from".into()])
        .chain(
            rows.iter()
                .map(|r| [r.field.to_string(), r.value.clone(), from_text(r)]),
        )
        .collect();
    let width = |i: usize| {
        lines
            .iter()
            .map(|l| l[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (fw, vw) = (width(0), width(1));
    let mut out = String::new();
    for [field, value, from] in &lines {
        let _ = writeln!(out, "{field:<fw$}  {value:<vw$}  {from}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::png::PngEncoder;
    use image::{ExtendedColorType, ImageEncoder};
    use std::sync::atomic::{AtomicUsize, Ordering};

    const PATH: &str = "/carts/demo/cart.toml";

    /// A scratch folder under the temp dir, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new() -> Scratch {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("bt-manifest-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
            let path = self.0.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn err(text: &str) -> String {
        parse(text, Path::new(PATH)).unwrap_err().to_string()
    }

    fn user_err(text: &str) -> String {
        parse_user_config(text, Path::new("/u/config.toml"))
            .unwrap_err()
            .to_string()
    }

    fn png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(rgba, width, height, ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    #[test]
    fn a_full_manifest_reads_back() {
        let text = "[cart]\nname = \"my-game_2\"\ntitle = \"My Game\"\nversion = \"0.1.0\"\n\
            author = \"Ada\"\ndescription = \"A game.\"\ntarget_fps = 30\nseed = 42\n\
            assets = \"gfx/sprites\"\n\n[display]\nwidth = 160\nheight = 120\nscale = 4\n\
            palette = \"pal/main.hex\"\n\n\
            [overlay]\nenabled = true\nvisible = true\nchart = false\n";
        let m = parse(text, Path::new(PATH)).unwrap();
        let cart = CartInfo {
            name: Some("my-game_2".into()),
            title: Some("My Game".into()),
            version: Some("0.1.0".into()),
            author: Some("Ada".into()),
            description: Some("A game.".into()),
        };
        let settings = SettingsPatch {
            title: Some("My Game".into()),
            width: Some(160),
            height: Some(120),
            target_fps: Some(30.0),
            seed: Some(42),
            palette: Some(PaletteSource::File("/carts/demo/pal/main.hex".into())),
            window_scale: Some(4),
            overlay_enabled: Some(true),
            overlay_visible: Some(true),
            timing_chart: Some(false),
        };
        let assets = Some(PathBuf::from("/carts/demo/gfx/sprites"));
        let want = Manifest {
            path: PATH.into(),
            cart,
            settings,
            assets,
        };
        assert_eq!(m, want);
        let empty = parse("", Path::new(PATH)).unwrap();
        assert_eq!(
            empty,
            Manifest {
                path: PATH.into(),
                ..Manifest::default()
            }
        );
        let m = parse(
            "[cart]\ntarget_fps = 0.5\n[display]\npalette = \"nes\"",
            Path::new(PATH),
        );
        let s = m.unwrap().settings;
        assert_eq!(
            (s.target_fps, s.palette),
            (Some(0.5), Some(PaletteSource::Preset("nes".into())))
        );
    }

    #[test]
    fn bad_names_and_text_are_placed_and_excerpted() {
        assert_eq!(
            err("[cart]\nname = \"My Game\""),
            "/carts/demo/cart.toml:2:8: cart.name: must be 1 to 64 of a-z, 0-9, '-' and '_', \
             starting with a letter, got \"My Game\""
        );
        for bad in ["\"\"", "\"1up\"", "\"-x\"", "\"caf\u{e9}\"", "7"] {
            assert!(
                err(&format!("[cart]\nname = {bad}")).contains(":2:8: cart.name: "),
                "{bad}"
            );
        }
        let long = format!("[cart]\nname = \"{}\"", "a".repeat(65));
        assert!(err(&long).contains("cart.name"));
        let e = err(&format!("[cart]\ntitle = \"{}\"", "x".repeat(5000)));
        let want = "/carts/demo/cart.toml:2:9: cart.title: must be one line of 1 to 64";
        assert!(e.starts_with(want), "{e}");
        assert!(e.ends_with("… (5000 characters)") && e.len() < 200, "{e}");
        assert!(err("[cart]\ntitle = \"bell\\u0007\"").contains("got \"bell\\u{7}\""));
        assert!(err("[cart]\n  description = \"a\\nb\"").contains(":2:17: cart.description: "));
        assert!(err("[cart]\nversion = \"\"")
            .contains(":2:11: cart.version: must be one line of 1 to 32"));
        assert!(err(&format!("[cart]\nauthor = \"{}\"", "a".repeat(129))).contains("at most 128"));
    }

    #[test]
    fn numbers_are_range_checked() {
        assert_eq!(
            err("[cart]\nseed = -1"),
            "/carts/demo/cart.toml:2:8: cart.seed: must be a whole number from 0 to \
             18446744073709551615, got -1"
        );
        assert!(err("[cart]\nseed = 1.5").ends_with("got 1.5"));
        for (bad, got) in [
            ("0", "0"),
            ("10001", "10001"),
            ("nan", "NaN"),
            ("\"fast\"", "\"fast\""),
        ] {
            let e = err(&format!("[cart]\ntarget_fps = {bad}"));
            assert_eq!(
                e,
                format!(
                    "/carts/demo/cart.toml:2:14: cart.target_fps: must be a number from 0.001 to \
                     10000, got {got}"
                )
            );
        }
        assert_eq!(
            err("[display]\nwidth = 0"),
            "/carts/demo/cart.toml:2:9: display.width: must be a whole number from 1 to 8192, got 0"
        );
        assert!(err("[display]\nheight = 8193").contains(":2:10: display.height: "));
        assert_eq!(
            err("[display]\nwidth = 8192\nheight = 8192"),
            "/carts/demo/cart.toml:3:10: display: 8192x8192 is 67108864 pixels; the most is \
             16777216"
        );
        for bad in ["0", "17"] {
            let e = err(&format!("[display]\nscale = {bad}"));
            assert!(e.ends_with(&format!(
                "display.scale: must be a whole number from 1 to 16, got {bad}"
            )));
            assert!(e.contains(":2:9:"), "{e}");
        }
        assert!(err("[overlay]\nchart = 1")
            .contains(":2:9: overlay.chart: must be true or false, got 1"));
    }

    #[test]
    fn wrong_types_name_the_field() {
        assert_eq!(
            err("[display]\nwidth = \"wide\""),
            "/carts/demo/cart.toml:2:9: display.width: must be a whole number from 1 to 8192, \
             got \"wide\""
        );
        assert!(err("[display]\nwidth = [1, 2]").ends_with("got an array"));
        let e = err("display = 5");
        assert!(
            e.starts_with("/carts/demo/cart.toml:1:11: ") && e.ends_with("expected a table"),
            "{e}"
        );
        assert!(!e.contains("Raw") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn unknown_fields_are_named_with_their_table() {
        assert_eq!(
            err("[display]\nwidth = 1\ncolour = 3"),
            "/carts/demo/cart.toml:3:1: unknown field 'colour' in [display]; expected one of \
             width, height, scale, palette"
        );
        assert!(err("[cart]\nnmae = \"x\"").ends_with(
            ":2:1: unknown field 'nmae' in [cart]; expected one of name, title, version, \
                 author, description, target_fps, seed, assets"
        ));
        assert!(err("[overlay]\nshown = true").ends_with(
            ":2:1: unknown field 'shown' in [overlay]; expected one of enabled, visible, chart"
        ));
        assert!(err("[sound]\nvolume = 3")
            .ends_with(":1:2: unknown table 'sound'; expected one of cart, display, overlay"));
        let e = err(&format!("[cart]\n\"{}\" = 1", "k".repeat(300)));
        assert!(e.contains("unknown field \"kkkk") && e.len() < 250, "{e}");
    }

    #[test]
    fn syntax_errors_give_toml_position_on_one_line() {
        let e = err("[cart]\ntitle = \"x\"\n[display\nwidth = 1");
        assert!(e.starts_with("/carts/demo/cart.toml:3:9: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
        assert!(err("[cart]\nseed = 1\nseed = 2").starts_with("/carts/demo/cart.toml:3:1: "));
    }

    #[test]
    fn assets_and_palette_files_stay_inside_the_cart() {
        for bad in ["/abs", "../up", "a/../b", "..", "", "\\\\server\\x"] {
            let e = err(&format!("[cart]\nassets = {bad:?}"));
            assert!(
                e.contains(":2:10: cart.assets: must be a folder inside"),
                "{bad}: {e}"
            );
        }
        let m = parse("[cart]\nassets = \"./gfx\"", Path::new("cart.toml")).unwrap();
        assert_eq!(m.assets, Some(PathBuf::from("./gfx")));
        assert!(
            err("[display]\npalette = \"../p.png\"").contains("display.palette: a palette file")
        );
        assert_eq!(
            err("[display]\npalette = \"pico9\""),
            "/carts/demo/cart.toml:2:11: display.palette: unknown preset \"pico9\"; use one of \
             pico8, cga, c64, gameboy, nes, vga or a .png or .hex file"
        );
        let e = load_palette(&PaletteSource::Preset("amiga".into())).unwrap_err();
        assert!(e
            .to_string()
            .ends_with("the presets are pico8, cga, c64, gameboy, nes, vga"));
    }

    #[test]
    fn user_config_allows_only_its_three_fields() {
        let p = parse_user_config(
            "[display]\nscale = 2\n[overlay]\nvisible = true\nchart = true",
            Path::new("c"),
        );
        let want = SettingsPatch {
            window_scale: Some(2),
            overlay_visible: Some(true),
            timing_chart: Some(true),
            ..SettingsPatch::default()
        };
        assert_eq!(p.unwrap(), want);
        assert_eq!(
            user_err("[display]\nwidth = 100"),
            "/u/config.toml:2:1: unknown field 'width' in [display]; expected scale (the user \
             config sets only display.scale, overlay.visible and overlay.chart)"
        );
        assert!(user_err("[overlay]\nenabled = false").contains("expected visible or chart"));
        assert!(user_err("[cart]\ntitle = \"x\"")
            .contains(":1:2: unknown table 'cart'; expected display or overlay"));
        assert!(
            user_err("[display]\nscale = 17").starts_with("/u/config.toml:2:9: display.scale: ")
        );
    }

    #[test]
    fn user_config_path_follows_xdg() {
        let p = |x: Option<&str>, h: Option<&str>| {
            config_path_from(x.map(PathBuf::from), h.map(PathBuf::from))
        };
        assert_eq!(
            p(Some("/x"), Some("/h")),
            Some(PathBuf::from("/x/bt/config.toml"))
        );
        assert_eq!(
            p(Some("rel"), Some("/h")),
            Some(PathBuf::from("/h/.config/bt/config.toml"))
        );
        assert_eq!(
            p(Some(""), Some("/h")),
            Some(PathBuf::from("/h/.config/bt/config.toml"))
        );
        assert_eq!(p(None, Some("")), None);
        assert_eq!(p(Some("rel"), None), None);
    }

    #[test]
    fn hex_palettes_name_the_file_and_line() {
        let dir = Scratch::new();
        let good = dir.write("p.hex", b"; comment\n\nff004d\n#1D2B53\n  000000  \n");
        let pal = load_palette(&PaletteSource::File(good)).unwrap();
        let want = [
            Color32::hex(0xff004d),
            Color32::hex(0x1d2b53),
            Color32::hex(0),
        ];
        assert_eq!(&pal.colors()[..3], want);
        assert_eq!(pal.len(), MANIFEST_PALETTE_SLOTS, "the rest are free slots");
        let bad = dir.write("bad.hex", b"ff004d\n\n; x\nff00zz\n");
        let e = load_palette(&PaletteSource::File(bad.clone()))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "{}:4: expected RRGGBB or #RRGGBB, got \"ff00zz\"",
                bad.display()
            )
        );
        let many: String = (0..257).map(|i| format!("{i:06x}\n")).collect();
        let e =
            load_palette(&PaletteSource::File(dir.write("m.hex", many.as_bytes()))).unwrap_err();
        assert!(
            e.to_string().ends_with("m.hex:257: more than 256 colours"),
            "{e}"
        );
        let e = load_palette(&PaletteSource::File(dir.write("one.hex", b"ffffff"))).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("one.hex: has 1 colours; a palette needs 2 to 256"),
            "{e}"
        );
        let missing = dir.0.join("none.hex");
        let e = load_palette(&PaletteSource::File(missing.clone()))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("{}: cannot read it: ", missing.display())),
            "{e}"
        );
    }

    #[test]
    fn png_palettes_take_distinct_colours_in_reading_order() {
        let dir = Scratch::new();
        let rgba = [
            9, 9, 9, 255, 1, 2, 3, 255, 0, 0, 0, 0, 9, 9, 9, 255, 4, 5, 6, 128, 1, 2, 3, 255,
        ];
        let path = dir.write("p.png", &png(3, 2, &rgba));
        let pal = load_palette(&PaletteSource::File(path)).unwrap();
        assert_eq!(
            &pal.colors()[..3],
            [
                Color32::rgb(9, 9, 9),
                Color32::rgb(1, 2, 3),
                Color32::rgb(4, 5, 6)
            ]
        );
        let many: Vec<u8> = (0..257u32)
            .flat_map(|i| [(i % 256) as u8, (i / 256) as u8, 0, 255])
            .collect();
        let e = load_palette(&PaletteSource::File(
            dir.write("m.png", &png(257, 1, &many)),
        ))
        .unwrap_err();
        assert!(
            e.to_string()
                .ends_with("m.png: more than 256 distinct colours"),
            "{e}"
        );
        let fake = dir.write("fake.png", b"GIF89a not a png");
        let e = load_palette(&PaletteSource::File(fake)).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("fake.png: not a PNG image (no PNG signature)"),
            "{e}"
        );
        let cut = png(3, 2, &rgba)[..40].to_vec();
        let e = load_palette(&PaletteSource::File(dir.write("cut.png", &cut))).unwrap_err();
        assert!(e.to_string().contains("cut.png: not a readable PNG"), "{e}");
        let e = load_palette(&PaletteSource::File(dir.write("x.gif", b""))).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("x.gif: a palette file must end .png or .hex"),
            "{e}"
        );
    }

    #[test]
    fn load_reads_limits_and_places_bad_utf8() {
        let dir = Scratch::new();
        assert!(load(&dir.0).unwrap().is_none());
        assert!(load_user_config(&dir.0.join("config.toml"))
            .unwrap()
            .is_none());
        let path = dir.write(MANIFEST_FILE, b"[cart]\ntitle = \"T\"\n");
        let m = load(&dir.0).unwrap().unwrap();
        assert_eq!(
            (m.path, m.cart.title),
            (path.clone(), Some("T".to_string()))
        );
        let big = vec![b'#'; MAX_MANIFEST_BYTES as usize + 1];
        dir.write(MANIFEST_FILE, &big);
        let e = load(&dir.0).unwrap_err();
        assert!(
            matches!(
                e,
                ManifestError::TooLarge {
                    size: 65537,
                    limit: 65536,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e
            .to_string()
            .starts_with(&format!("{}: 65537 bytes", path.display())));
        let user = dir.write("config.toml", &big);
        assert!(matches!(
            load_user_config(&user),
            Err(ManifestError::TooLarge { .. })
        ));
        dir.write(MANIFEST_FILE, b"[cart]\ntitle = \"ab\xff\"");
        let e = load(&dir.0).unwrap_err().to_string();
        assert_eq!(e, format!("{}:2:12: not UTF-8 text", path.display()));
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(matches!(load(&dir.0), Err(ManifestError::Read { .. })));
    }

    #[test]
    fn layers_resolve_in_order_with_provenance() {
        let dir = Scratch::new();
        let hex = dir.write("p.hex", b"000000\nffffff\n");
        let configured = Settings::default().title("Configured").target_fps(30.0);
        let manifest = SettingsPatch {
            title: Some("Manifest".into()),
            width: Some(160),
            target_fps: Some(50.0),
            palette: Some(PaletteSource::File(hex.clone())),
            window_scale: Some(2),
            ..SettingsPatch::default()
        };
        let user = SettingsPatch {
            window_scale: Some(3),
            overlay_visible: Some(true),
            ..SettingsPatch::default()
        };
        let cli = SettingsPatch {
            window_scale: Some(5),
            seed: Some(7),
            ..SettingsPatch::default()
        };
        let (m_path, u_path) = (Path::new("/c/cart.toml"), Path::new("/u/config.toml"));
        let layers = [
            (Layer::CommandLine, None, &cli),
            (Layer::Manifest, Some(m_path), &manifest),
            (Layer::UserConfig, Some(u_path), &user),
        ];
        let (s, rows) = resolve(configured, &layers).unwrap();
        assert_eq!(
            (s.title.as_str(), s.width, s.height, s.target_fps),
            ("Manifest", 160, 240, 50.0)
        );
        assert_eq!(
            (s.window_scale, s.seed, s.overlay.visible_at_start),
            (Some(5), Some(7), true)
        );
        assert_eq!(
            &s.palette.colors()[..2],
            [Color32::hex(0), Color32::hex(0xffffff)]
        );
        let got: Vec<(&str, &str, Layer)> = rows
            .iter()
            .map(|r| (r.field, r.value.as_str(), r.layer))
            .collect();
        let hex_text = hex.display().to_string();
        let want = [
            ("cart.title", "\"Manifest\"", Layer::Manifest),
            ("display.width", "160", Layer::Manifest),
            ("display.height", "240", Layer::Default),
            ("display.scale", "5", Layer::CommandLine),
            ("display.palette", hex_text.as_str(), Layer::Manifest),
            ("cart.target_fps", "50", Layer::Manifest),
            ("cart.seed", "7", Layer::CommandLine),
            ("overlay.enabled", "true", Layer::Default),
            ("overlay.visible", "true", Layer::UserConfig),
            ("overlay.chart", "false", Layer::Default),
        ];
        assert_eq!(got, want);
        assert_eq!(rows[0].origin.as_deref(), Some(m_path));
        assert_eq!(rows[8].origin.as_deref(), Some(u_path));
        let table = format_provenance(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 11);
        assert!(lines[0].starts_with("field            value  "), "{table}");
        assert!(lines[3].starts_with("display.height   240  ") && lines[3].ends_with("  default"));
        assert!(
            lines[1].starts_with("cart.title       \"Manifest\"  "),
            "{table}"
        );
        assert!(lines[1].ends_with("  cart.toml (/c/cart.toml)"), "{table}");
        assert!(
            lines[9].ends_with("  user config (/u/config.toml)"),
            "{table}"
        );
        assert!(lines[4].ends_with("  command line"), "{table}");
        let from_column = |l: &str| l.find(['d', 'c', 'u', 'f']).map(|_| l.rfind("  ").unwrap());
        assert!(
            lines
                .iter()
                .all(|l| from_column(l) == from_column(lines[0])),
            "{table}"
        );

        let (_, rows) =
            resolve(Settings::default().title("C").palette(Palette::cga()), &[]).unwrap();
        assert_eq!(
            (rows[0].layer, rows[4].value.as_str()),
            (Layer::Configure, "cga")
        );
        assert_eq!(
            (rows[3].value.as_str(), rows[6].value.as_str()),
            ("auto", "none")
        );
        assert!(format_provenance(&rows).contains("configure()"));
    }

    #[test]
    fn resolve_validates_and_names_palette_files() {
        let tall = Settings::default().display(320, 8192);
        let wide = SettingsPatch {
            width: Some(8192),
            ..SettingsPatch::default()
        };
        let e = resolve(tall, &[(Layer::Manifest, None, &wide)]).unwrap_err();
        assert!(
            matches!(
                e,
                ManifestError::Settings(SettingsError::DisplayArea { .. })
            ),
            "{e}"
        );
        let missing = SettingsPatch {
            palette: Some(PaletteSource::File("/nowhere/p.png".into())),
            ..SettingsPatch::default()
        };
        let e = resolve(Settings::default(), &[(Layer::CommandLine, None, &missing)]).unwrap_err();
        assert!(
            e.to_string().starts_with("/nowhere/p.png: cannot read it"),
            "{e}"
        );
        let mut s = Settings::default();
        assert!(missing.apply(&mut s).is_err());
        assert_eq!(s, Settings::default());
    }
}
