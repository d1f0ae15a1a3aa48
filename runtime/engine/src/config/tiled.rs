//! Maps made in the Tiled editor, read into the cart API's [`Tilemap`]: the XML form (`.tmx`)
//! and the JSON form (`.tmj`).
//!
//! What is read: orthogonal, finite maps; every tile layer, in order, by name (object, image
//! and group layers are skipped); layer data as CSV, base64, or base64 compressed with zlib or
//! gzip (and the old XML `<tile gid="…"/>` form); one tileset, embedded or in its own file
//! (`.tsx` or `.tsj`, beside the map), whose tiles' integer property `flags` becomes their
//! flag bits. A cell holding the tileset's first tile is tile 0 of the sheet.
//!
//! Refused, each with the file, the line (`.tmx`, and `.tmj` syntax) or field, and the value:
//! other orientations, infinite maps, more than one tileset, zstd compression, flipped or
//! turned tiles (Tiled keeps those in the tile number's top bits), a layer of the wrong
//! length, a tile number outside the tileset, a tileset of no tiles; and, before any layer is
//! decoded, a map or layer over BT's size limits and XML nested too deep.

use std::io::Read;
use std::path::Path;

use bt::limits::{MAX_MAP_CELLS, MAX_MAP_LAYERS};
use bt::{AssetError, AssetErrorKind, Tilemap, NO_TILE};
use serde::Deserialize;

use super::data_file::{read_asset_file, resolve_in};

/// The longest map (or tileset) file read: 16 MiB, more than a 2048 × 2048 map in CSV.
pub const MAX_MAP_FILE: u64 = 16 << 20;

/// The bits Tiled sets in a tile number for a flipped, turned or hexagonally rotated tile.
const FLIP_BITS: u32 = 0xf000_0000;

/// Reads the map file at `path`; `name` is what errors call it. The form follows the
/// extension: `.tmj` or `.json` is JSON, anything else XML.
///
/// # Errors
/// An [`AssetError`] naming `name`: the file cannot be read, or breaks the format
/// ([`AssetErrorKind::BadMap`] with the line or field and the value).
///
/// A tileset file the map names is read from the map's own folder or below it (see
/// [`load_map_in`]).
pub fn load_map_file(name: &str, path: &Path) -> Result<Tilemap, AssetError> {
    let folder = path.parent().unwrap_or(Path::new(""));
    read_map(name, path, folder, "")
}

/// Reads the map at `path` inside the asset folder `root`, as a cart's `load_map` does; errors
/// call it `path`. The map and the tileset file it names (looked up beside the map) must lie
/// inside `root`: an absolute path, `..` climbing out of it, or a link leading out of it is
/// refused with the path.
///
/// # Errors
/// As [`load_map_file`], and [`AssetErrorKind::Read`] for a path leading outside `root`.
pub fn load_map_in(root: &Path, path: &str) -> Result<Tilemap, AssetError> {
    let full = resolve_in(root, path)?;
    let beside = match path.rfind(['/', '\\']) {
        Some(at) => &path[..=at],
        None => "",
    };
    read_map(path, &full, root, beside)
}

/// Reads the map at `path`, its tileset file from `beside` + the name the map gives it, inside
/// `root`.
fn read_map(name: &str, path: &Path, root: &Path, beside: &str) -> Result<Tilemap, AssetError> {
    let text = read_text(name, path)?;
    let tileset = |source: &str| -> Result<(String, String), AssetError> {
        let shown = format!("{name} -> {source}");
        // An absolute name stays absolute, to be refused as one.
        let rel = if Path::new(source).has_root() {
            source.to_string()
        } else {
            format!("{beside}{source}")
        };
        let full = resolve_in(root, &rel).map_err(|e| AssetError::new(shown.clone(), e.kind))?;
        let text = read_text(&shown, &full)?;
        Ok((shown, text))
    };
    if is_json(path) {
        parse_tmj(name, &text, &tileset)
    } else {
        parse_tmx(name, &text, &tileset)
    }
}

/// Reads a map already in memory, such as one built into the cart with `include_bytes!`; `name`
/// is what errors call it, and its extension picks the form as [`load_map_file`]'s path does. A
/// map in memory has no folder to read a tileset file from, so its tileset must be embedded.
///
/// # Errors
/// As [`load_map_file`], and [`AssetErrorKind::BadMap`] for a map that names a tileset file.
pub fn decode_map(name: &str, bytes: &[u8]) -> Result<Tilemap, AssetError> {
    let tileset = |source: &str| -> Result<(String, String), AssetError> {
        Err(bad(
            name,
            format!(
                "tileset {}: a map decoded from memory must embed its tileset",
                crate::quote::quoted(source)
            ),
        ))
    };
    decode_map_with(name, bytes, &tileset)
}

/// Reads a map in memory whose tileset file, if it names one, `tileset` reads: given the name
/// the map gives the file, it returns what errors call it and its text. A web page's asset
/// pack reads maps this way, with their tileset files beside them.
///
/// # Errors
/// As [`decode_map`], and what `tileset` returns.
pub fn decode_map_with(
    name: &str,
    bytes: &[u8],
    tileset: &TilesetReader<'_>,
) -> Result<Tilemap, AssetError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        AssetError::new(
            name,
            AssetErrorKind::NotText(format!("invalid byte at offset {at}")),
        )
    })?;
    if is_json(Path::new(name)) {
        parse_tmj(name, text, tileset)
    } else {
        parse_tmx(name, text, tileset)
    }
}

fn is_json(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["tmj", "tsj", "json"]
            .iter()
            .any(|j| e.eq_ignore_ascii_case(j))
    })
}

fn read_text(name: &str, path: &Path) -> Result<String, AssetError> {
    let bytes = read_asset_file(name, path, MAX_MAP_FILE)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        AssetError::new(
            name,
            AssetErrorKind::NotText(format!("invalid byte at offset {at}")),
        )
    })
}

fn bad(name: &str, message: String) -> AssetError {
    AssetError::new(name, AssetErrorKind::BadMap(message))
}

/// Reads a tileset file named in a map: `(name to show in errors, its text)`.
/// Reads a tileset file a map names: its name in, what errors call it and its text out.
pub type TilesetReader<'a> = dyn Fn(&str) -> Result<(String, String), AssetError> + 'a;

/// The map as read, before it is checked and built.
struct RawMap {
    orientation: String,
    infinite: bool,
    size: (u32, u32),
    tile: (u32, u32),
    layers: Vec<RawLayer>,
    tilesets: Vec<RawTileset>,
}

struct RawLayer {
    name: String,
    size: (u32, u32),
    /// Where the layer is, for errors: `line 12: layer 'ground'` or `layers[1] 'ground'`.
    at: String,
    gids: Vec<u32>,
}

/// What a tileset tells: its tile count, if given, and `(tile id, flags)` pairs.
type TilesetFacts = (Option<u32>, Vec<(u32, u8)>);

struct RawTileset {
    first_gid: u32,
    tile_count: Option<u32>,
    /// `(tile id, flags)`.
    flags: Vec<(u32, u8)>,
}

fn build(name: &str, raw: RawMap) -> Result<Tilemap, AssetError> {
    if raw.orientation != "orthogonal" {
        return Err(bad(
            name,
            format!(
                "orientation: '{}' is not read; only orthogonal maps",
                raw.orientation
            ),
        ));
    }
    if raw.infinite {
        return Err(bad(
            name,
            "infinite: true; only finite maps are read (uncheck Map > Map Properties > Infinite)"
                .into(),
        ));
    }
    let (tileset, more) = match raw.tilesets.as_slice() {
        [] => (None, 0),
        [one, rest @ ..] => (Some(one), rest.len()),
    };
    if more > 0 {
        return Err(bad(
            name,
            format!("tilesets: {} of them; a map may use one", more + 1),
        ));
    }
    let (w, h) = raw.size;
    let mut map = Tilemap::new(w, h, raw.tile).map_err(|e| bad(name, e.to_string()))?;
    let first = tileset.map_or(1, |t| t.first_gid);
    let last = tileset
        .and_then(|t| t.tile_count)
        .map_or(u64::from(u16::MAX) - 1, |n| u64::from(n).saturating_sub(1));
    if let Some(t) = tileset {
        for &(id, f) in &t.flags {
            if let Ok(id) = u16::try_from(id) {
                map.set_flags(id, f);
            }
        }
    }
    let tile_layers = raw.layers.len();
    for (i, layer) in raw.layers.into_iter().enumerate() {
        if layer.size != raw.size {
            return Err(bad(
                name,
                format!(
                    "{}: {}x{} cells in a {w}x{h} map; every tile layer must be the map's size",
                    layer.at, layer.size.0, layer.size.1
                ),
            ));
        }
        let cells = u64::from(w) * u64::from(h);
        if layer.gids.len() as u64 != cells {
            return Err(bad(
                name,
                format!(
                    "{}: data: {} tiles for {w}x{h} cells ({cells})",
                    layer.at,
                    layer.gids.len()
                ),
            ));
        }
        let index = if i == 0 {
            map.rename_layer(0, &layer.name);
            0
        } else {
            map.add_layer(&layer.name)
                .map_err(|e| bad(name, format!("{}: {e}", layer.at)))?
        };
        for (c, &gid) in layer.gids.iter().enumerate() {
            let (x, y) = (
                (c as u64 % u64::from(w)) as i32,
                (c as u64 / u64::from(w)) as i32,
            );
            if gid == 0 {
                continue;
            }
            if gid & FLIP_BITS != 0 {
                return Err(bad(
                    name,
                    format!(
                        "{}: cell ({x}, {y}): tile {gid:#010x} is flipped or turned; draw it \
                         unflipped (flips are not read)",
                        layer.at
                    ),
                ));
            }
            let tile = u64::from(gid)
                .checked_sub(u64::from(first))
                .filter(|&t| t <= last);
            let Some(tile) = tile.filter(|&t| t < u64::from(NO_TILE)) else {
                return Err(bad(
                    name,
                    format!(
                        "{}: cell ({x}, {y}): tile {gid} is not in the tileset (tiles {first} to {})",
                        layer.at,
                        u64::from(first) + last
                    ),
                ));
            };
            map.set_tile(index, x, y, Some(tile as u16));
        }
    }
    if tile_layers == 0 {
        return Err(bad(name, "layers: no tile layer".into()));
    }
    Ok(map)
}

/// Refuses a map whose size breaks [`MAX_MAP_CELLS`], before any layer is decoded.
fn check_map_size(name: &str, (w, h): (u32, u32)) -> Result<(), AssetError> {
    if w == 0 || h == 0 || u64::from(w) * u64::from(h) > MAX_MAP_CELLS {
        let e = bt::TilemapError::Size {
            width: w.into(),
            height: h.into(),
        };
        return Err(bad(name, e.to_string()));
    }
    Ok(())
}

/// Refuses a tile layer before any layer's data is decoded (or inflated): it must be the map's
/// size, and come within [`MAX_MAP_LAYERS`] (`before` is the number of tile layers before it).
fn check_layer(
    at: &str,
    size: (u32, u32),
    (w, h): (u32, u32),
    before: usize,
) -> Result<(), String> {
    if size != (w, h) {
        return Err(format!(
            "{at}: {}x{} cells in a {w}x{h} map; every tile layer must be the map's size",
            size.0, size.1
        ));
    }
    if before >= MAX_MAP_LAYERS {
        return Err(format!(
            "{at}: more than {MAX_MAP_LAYERS} tile layers in the map"
        ));
    }
    Ok(())
}

/// The cells of a layer's `data`: CSV text, or base64 with an optional compression.
fn decode_data(
    text: &str,
    encoding: &str,
    compression: &str,
    cells: u64,
) -> Result<Vec<u32>, String> {
    match (encoding, compression) {
        ("csv", "") => text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<u32>()
                    .map_err(|_| format!("data: '{}' is not a tile number", clip(s)))
            })
            .collect(),
        ("csv", c) => Err(format!("compression: '{}' with CSV data", clip(c))),
        ("base64", c) => {
            let bytes = base64(text)?;
            // Four bytes a cell, and one more to tell a layer that holds too much.
            let limit = cells.saturating_mul(4).saturating_add(1);
            let bytes = match c {
                "" => bytes,
                "zlib" => inflate(flate2::read::ZlibDecoder::new(&bytes[..]), limit)?,
                "gzip" => inflate(flate2::read::GzDecoder::new(&bytes[..]), limit)?,
                other => {
                    return Err(format!(
                        "compression: '{}' is not read (use zlib, gzip or none)",
                        clip(other)
                    ))
                }
            };
            if bytes.len() as u64 > cells.saturating_mul(4) {
                return Err(format!(
                    "data: more than {} bytes after decoding, the {cells} cells' 4 bytes each",
                    cells.saturating_mul(4)
                ));
            }
            if bytes.len() % 4 != 0 {
                return Err(format!(
                    "data: {} bytes after decoding, not a whole number of tiles",
                    bytes.len()
                ));
            }
            Ok(bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        }
        (e, _) => Err(format!(
            "encoding: '{}' is not read (use csv or base64)",
            clip(e)
        )),
    }
}

fn inflate(mut reader: impl Read, limit: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    (&mut reader)
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| format!("data: not valid compressed data: {e}"))?;
    Ok(out)
}

/// Standard base64, whitespace ignored, padding optional.
fn base64(text: &str) -> Result<Vec<u8>, String> {
    bt::host::decode_base64(text)
        .map_err(|(i, c)| format!("data: '{c}' at character {i} is not base64"))
}

/// A value as it appears in a message: at most 40 characters, control characters escaped.
fn clip(s: &str) -> String {
    crate::quote::excerpt(s)
}

// ---- TMJ: the JSON form -------------------------------------------------------------------

#[derive(Deserialize)]
struct JsonMap {
    #[serde(default = "orthogonal")]
    orientation: String,
    #[serde(default)]
    infinite: bool,
    width: u32,
    height: u32,
    tilewidth: u32,
    tileheight: u32,
    #[serde(default)]
    layers: Vec<JsonLayer>,
    #[serde(default)]
    tilesets: Vec<JsonTilesetRef>,
}

fn orthogonal() -> String {
    "orthogonal".into()
}

#[derive(Deserialize)]
struct JsonLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    width: u32,
    #[serde(default)]
    height: u32,
    /// Numbers, or text: read by [`json_cells`], so a bad cell is named by where it is.
    #[serde(default)]
    data: Option<serde_json::Value>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    layers: Vec<JsonLayer>,
}

#[derive(Deserialize)]
struct JsonTilesetRef {
    firstgid: u32,
    #[serde(default)]
    source: Option<String>,
    #[serde(flatten)]
    inline: JsonTileset,
}

#[derive(Deserialize, Default)]
struct JsonTileset {
    #[serde(default)]
    tilecount: Option<u32>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    tiles: Vec<JsonTile>,
}

/// A `.tsj` file: a tileset, which names no further tileset file.
#[derive(Deserialize)]
struct JsonTilesetFile {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(flatten)]
    tileset: JsonTileset,
}

#[derive(Deserialize)]
struct JsonTile {
    id: u32,
    #[serde(default)]
    properties: Vec<JsonProperty>,
}

#[derive(Deserialize)]
struct JsonProperty {
    name: String,
    value: serde_json::Value,
}

/// Reads a `.tmj` map from `text`; `name` is what errors call it, and `tileset` reads a
/// tileset file the map names.
///
/// # Errors
/// As [`load_map_file`].
pub fn parse_tmj(
    name: &str,
    text: &str,
    tileset: &TilesetReader<'_>,
) -> Result<Tilemap, AssetError> {
    let json: JsonMap = serde_json::from_str(text).map_err(|e| bad(name, json_error(text, &e)))?;
    let size = (json.width, json.height);
    check_map_size(name, size)?;
    check_json_layers(name, &json.layers, "layers", size, &mut 0)?;
    let mut layers = Vec::new();
    flatten_json_layers(name, &json.layers, "layers", &mut layers)?;
    let mut tilesets = Vec::new();
    for (i, t) in json.tilesets.iter().enumerate() {
        let (tile_count, flags) = match &t.source {
            Some(source) => external_tileset(source, tileset)?,
            None => (
                check_tile_count(t.inline.tilecount)
                    .and_then(|n| check_image(name, t.inline.image.as_deref()).map(|()| n))
                    .map_err(|e| bad(name, format!("tilesets[{i}]: {e}")))?,
                json_flags(&t.inline.tiles)
                    .map_err(|e| bad(name, format!("tilesets[{i}]: {e}")))?,
            ),
        };
        tilesets.push(RawTileset {
            first_gid: t.firstgid,
            tile_count,
            flags,
        });
    }
    build(
        name,
        RawMap {
            orientation: json.orientation,
            infinite: json.infinite,
            size: (json.width, json.height),
            tile: (json.tilewidth, json.tileheight),
            layers,
            tilesets,
        },
    )
}

fn json_error(json: &str, e: &serde_json::Error) -> String {
    // serde_json ends its messages with "at line L column C"; put the line first, and the
    // field the value belongs to when the message is about a value (a wrong type, say).
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    let field = match e.classify() {
        serde_json::error::Category::Data => field_before(json, e.line(), e.column()),
        _ => None,
    };
    match field {
        Some(field) => format!("line {}: {}: {message}", e.line(), clip(field)),
        None => format!("line {}: {message}", e.line()),
    }
}

/// The name of the last field that begins before line `line`, column `column` (both from 1)
/// of `json`: the one whose value serde_json was reading when it stopped there.
fn field_before(json: &str, line: usize, column: usize) -> Option<&str> {
    let start: usize = json
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let mut end = (start + column).min(json.len());
    while !json.is_char_boundary(end) {
        end -= 1;
    }
    let before = &json[..end];
    // `"name"` then `:`: the last such pair before the error. A quote inside a string value
    // could mislead this; it only names a field, and the line number stays exact.
    let colon = ["\":", "\" :", "\"\t:"]
        .iter()
        .filter_map(|p| before.rfind(p))
        .max()?;
    let open = before[..colon].rfind('"')?;
    let name = &before[open + 1..colon];
    (!name.is_empty()).then_some(name)
}

/// The cells of a JSON layer's `data`: an array of tile numbers, or CSV or base64 text
/// (`encoding`, `compression`). A cell that is not a tile number is named by its index and its
/// place in the layer (`width` cells a row).
fn json_cells(
    data: &serde_json::Value,
    encoding: Option<&str>,
    compression: Option<&str>,
    width: u32,
    cells: u64,
) -> Result<Vec<u32>, String> {
    match data {
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        let w = u64::from(width.max(1));
                        let (x, y) = (i as u64 % w, i as u64 / w);
                        format!(
                            "data[{i}] (cell ({x}, {y})): {} is not a tile number (0 to {})",
                            clip(&v.to_string()),
                            u32::MAX
                        )
                    })
            })
            .collect(),
        serde_json::Value::String(t) => decode_data(
            t,
            encoding.unwrap_or("base64"),
            compression.unwrap_or(""),
            cells,
        ),
        other => Err(format!(
            "data: {} is neither an array of tile numbers nor text (CSV or base64)",
            clip(&other.to_string())
        )),
    }
}

/// Checks every tile layer's size and their count ([`check_layer`]) before any is decoded;
/// `count` is the number of tile layers met so far.
fn check_json_layers(
    name: &str,
    layers: &[JsonLayer],
    path: &str,
    map_size: (u32, u32),
    count: &mut usize,
) -> Result<(), AssetError> {
    for (i, l) in layers.iter().enumerate() {
        let at = || format!("{path}[{i}] '{}'", clip(&l.name));
        match l.kind.as_str() {
            "tilelayer" => {
                check_layer(&at(), (l.width, l.height), map_size, *count)
                    .map_err(|e| bad(name, e))?;
                *count += 1;
            }
            "group" => check_json_layers(
                name,
                &l.layers,
                &format!("{}.layers", at()),
                map_size,
                count,
            )?,
            _ => {}
        }
    }
    Ok(())
}

/// The tile layers, groups flattened, decoded: after [`check_json_layers`].
fn flatten_json_layers(
    name: &str,
    layers: &[JsonLayer],
    path: &str,
    out: &mut Vec<RawLayer>,
) -> Result<(), AssetError> {
    for (i, l) in layers.iter().enumerate() {
        let at = format!("{path}[{i}] '{}'", clip(&l.name));
        match l.kind.as_str() {
            "tilelayer" => {}
            "group" => {
                flatten_json_layers(name, &l.layers, &format!("{at}.layers"), out)?;
                continue;
            }
            _ => continue,
        }
        let cells = u64::from(l.width) * u64::from(l.height);
        let gids = match &l.data {
            None => {
                return Err(bad(
                    name,
                    format!("{at}: data: missing (an infinite map's chunks are not read)"),
                ))
            }
            Some(data) => json_cells(
                data,
                l.encoding.as_deref(),
                l.compression.as_deref(),
                l.width,
                cells,
            )
            .map_err(|e| bad(name, format!("{at}: {e}")))?,
        };
        out.push(RawLayer {
            name: l.name.clone(),
            size: (l.width, l.height),
            at,
            gids,
        });
    }
    Ok(())
}

fn json_flags(tiles: &[JsonTile]) -> Result<Vec<(u32, u8)>, String> {
    let mut out = Vec::new();
    for t in tiles {
        for p in t.properties.iter().filter(|p| p.name == "flags") {
            let v = p
                .value
                .as_u64()
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(|| {
                    format!(
                        "tile {}: property flags: {} is not a number from 0 to 255",
                        t.id,
                        clip(&p.value.to_string())
                    )
                })?;
            out.push((t.id, v));
        }
    }
    Ok(out)
}

/// Refuses a tileset that says it has no tiles: every cell of such a map would be refused as a
/// tile outside it, and the count itself is the mistake to name.
fn check_tile_count(count: Option<u32>) -> Result<Option<u32>, String> {
    match count {
        Some(0) => Err("tilecount: 0; a tileset has at least one tile".into()),
        n => Ok(n),
    }
}

/// Refuses a tileset whose picture is the file the tileset is in (`file`, the map or the
/// tileset file, as the map's folder names it): `image` is read from beside that file.
fn check_image(file: &str, image: Option<&str>) -> Result<(), String> {
    let Some(image) = image else {
        return Ok(());
    };
    let folder = match file.rfind(['/', '\\']) {
        Some(at) => &file[..=at],
        None => "",
    };
    if lexical(&format!("{folder}{image}")) == lexical(file) {
        return Err(format!(
            "image: {} is this file itself, not a picture",
            crate::quote::quoted(image)
        ));
    }
    Ok(())
}

/// A relative path's parts, `.` left out and `..` taking off the part before it.
fn lexical(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts
}

/// A tileset in its own file: `(tile count, flags)`. The file must be a tileset (a map, say,
/// is refused, the map naming itself among them) that names no further tileset file, so no
/// chain of them can loop.
fn external_tileset(source: &str, read: &TilesetReader<'_>) -> Result<TilesetFacts, AssetError> {
    let (shown, text) = read(source)?;
    let chain = |further: &str| {
        format!(
            "source: names the tileset file {} in turn; a tileset file holds the tileset itself",
            crate::quote::quoted(further)
        )
    };
    if is_json(Path::new(source)) {
        let t: JsonTilesetFile =
            serde_json::from_str(&text).map_err(|e| bad(&shown, json_error(&text, &e)))?;
        if let Some(kind) = t.kind.as_deref().filter(|k| *k != "tileset") {
            return Err(bad(
                &shown,
                format!(
                    "type: {} where a tileset file says \"tileset\"",
                    crate::quote::quoted(kind)
                ),
            ));
        }
        if let Some(further) = &t.source {
            return Err(bad(&shown, chain(further)));
        }
        let t = t.tileset;
        let flags = json_flags(&t.tiles).map_err(|e| bad(&shown, e))?;
        let count = check_tile_count(t.tilecount).map_err(|e| bad(&shown, e))?;
        check_image(source, t.image.as_deref()).map_err(|e| bad(&shown, e))?;
        Ok((count, flags))
    } else {
        let doc = xml(&shown, &text)?;
        let root = doc.root_element();
        let at = line(&doc, root);
        if root.tag_name().name() != "tileset" {
            return Err(bad(
                &shown,
                format!(
                    "line {at}: <{}> where a tileset file starts with <tileset>",
                    clip(root.tag_name().name())
                ),
            ));
        }
        if let Some(further) = root.attribute("source") {
            return Err(bad(
                &shown,
                format!("line {at}: <tileset> {}", chain(further)),
            ));
        }
        xml_tileset(&shown, source, &doc, root)
    }
}

// ---- TMX: the XML form --------------------------------------------------------------------

/// The deepest nesting of elements read in a `.tmx` or `.tsx` file. Tiled's own files nest a
/// handful deep (map, group, layer, data, tile); groups within groups are read by recursion, so
/// a file nested thousands deep would otherwise exhaust the stack.
pub const MAX_XML_DEPTH: usize = 256;

fn xml<'t>(name: &str, text: &'t str) -> Result<roxmltree::Document<'t>, AssetError> {
    if let Some(row) = xml_too_deep(text) {
        return Err(bad(
            name,
            format!("line {row}: elements nested more than {MAX_XML_DEPTH} deep"),
        ));
    }
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        let message = e.to_string();
        let message = message
            .rsplit_once(" at ")
            .map_or(message.as_str(), |(m, _)| m);
        // The parser quotes the character it found, a line break or a tab among them: escaped,
        // so the message stays on one line.
        let message = crate::quote::excerpt_chars(message, 200);
        bad(name, format!("line {}: {message}", pos.row))
    })?;
    Ok(doc)
}

/// The line where the text's elements first nest deeper than [`MAX_XML_DEPTH`], found by a
/// scan of the tags before the parser (which recurses) sees them. Comments, CDATA, processing
/// instructions and quoted attribute values are stepped over, so no `<` or `>` in them counts.
pub fn xml_too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let (mut i, mut depth) = (0usize, 0usize);
    let skip_to = |from: usize, end: &str| {
        text[from..]
            .find(end)
            .map_or(b.len(), |at| from + at + end.len())
    };
    while let Some(at) = text[i..].find('<') {
        i += at;
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = skip_to(i, "-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = skip_to(i, "]]>");
        } else if rest.starts_with(b"<?") {
            i = skip_to(i, "?>");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = skip_to(i, ">");
        } else if rest.starts_with(b"<!") {
            i = skip_to(i, ">");
        } else {
            // An opening tag: to its `>`, outside quotes; `/>` closes it at once.
            let mut j = i + 1;
            let mut quote = None;
            while j < b.len() {
                match (quote, b[j]) {
                    (None, q @ (b'"' | b'\'')) => quote = Some(q),
                    (Some(q), c) if c == q => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                j += 1;
            }
            if b.get(j.wrapping_sub(1)) != Some(&b'/') || quote.is_some() {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    return Some(text[..i].matches('\n').count() + 1);
                }
            }
            i = j + 1;
        }
        if i >= b.len() {
            break;
        }
    }
    None
}

fn line(doc: &roxmltree::Document<'_>, node: roxmltree::Node<'_, '_>) -> u32 {
    doc.text_pos_at(node.range().start).row
}

/// A number attribute of `node`, or `default` when absent; a bad value names the line.
fn attr_u32(
    name: &str,
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
    attr: &str,
    default: Option<u32>,
) -> Result<u32, AssetError> {
    match node.attribute(attr) {
        Some(v) => v.trim().parse().map_err(|_| {
            bad(
                name,
                format!(
                    "line {}: <{}> {attr}: '{}' is not a whole number",
                    line(doc, node),
                    node.tag_name().name(),
                    clip(v)
                ),
            )
        }),
        None => default.ok_or_else(|| {
            bad(
                name,
                format!(
                    "line {}: <{}> has no {attr}",
                    line(doc, node),
                    node.tag_name().name()
                ),
            )
        }),
    }
}

/// Reads a `.tmx` map from `text`; `name` is what errors call it, and `tileset` reads a
/// tileset file the map names.
///
/// # Errors
/// As [`load_map_file`].
pub fn parse_tmx(
    name: &str,
    text: &str,
    tileset: &TilesetReader<'_>,
) -> Result<Tilemap, AssetError> {
    let doc = xml(name, text)?;
    let map = doc.root_element();
    if map.tag_name().name() != "map" {
        return Err(bad(
            name,
            format!(
                "line {}: <{}> where a Tiled map starts with <map>",
                line(&doc, map),
                map.tag_name().name()
            ),
        ));
    }
    let num = |node, attr, default| attr_u32(name, &doc, node, attr, default);
    let size = (num(map, "width", None)?, num(map, "height", None)?);
    check_map_size(name, size)?;
    check_tmx_layers(name, &doc, map, size, &mut 0)?;
    let mut layers = Vec::new();
    let mut tilesets = Vec::new();
    collect_tmx(name, &doc, map, &mut layers, &mut tilesets, tileset)?;
    build(
        name,
        RawMap {
            orientation: map
                .attribute("orientation")
                .unwrap_or("orthogonal")
                .to_string(),
            infinite: num(map, "infinite", Some(0))? != 0,
            size,
            tile: (num(map, "tilewidth", None)?, num(map, "tileheight", None)?),
            layers,
            tilesets,
        },
    )
}

/// Checks every `<layer>`'s size and their count ([`check_layer`]) before any is decoded;
/// `count` is the number of tile layers met so far.
fn check_tmx_layers(
    name: &str,
    doc: &roxmltree::Document<'_>,
    parent: roxmltree::Node<'_, '_>,
    map_size: (u32, u32),
    count: &mut usize,
) -> Result<(), AssetError> {
    let num = |node, attr| attr_u32(name, doc, node, attr, None);
    for node in parent.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "group" => check_tmx_layers(name, doc, node, map_size, count)?,
            "layer" => {
                let at = format!(
                    "line {}: layer '{}'",
                    line(doc, node),
                    clip(node.attribute("name").unwrap_or(""))
                );
                let size = (num(node, "width")?, num(node, "height")?);
                check_layer(&at, size, map_size, *count).map_err(|e| bad(name, e))?;
                *count += 1;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The tilesets and the tile layers, groups flattened, decoded: after [`check_tmx_layers`].
fn collect_tmx(
    name: &str,
    doc: &roxmltree::Document<'_>,
    parent: roxmltree::Node<'_, '_>,
    layers: &mut Vec<RawLayer>,
    tilesets: &mut Vec<RawTileset>,
    read: &TilesetReader<'_>,
) -> Result<(), AssetError> {
    let num = |node, attr, default| attr_u32(name, doc, node, attr, default);
    for node in parent.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "tileset" => {
                let first_gid = num(node, "firstgid", Some(1))?;
                let (tile_count, flags) = match node.attribute("source") {
                    Some(source) => external_tileset(source, read)?,
                    None => xml_tileset(name, name, doc, node)?,
                };
                tilesets.push(RawTileset {
                    first_gid,
                    tile_count,
                    flags,
                });
            }
            "group" => collect_tmx(name, doc, node, layers, tilesets, read)?,
            "layer" => {
                let layer_name = node.attribute("name").unwrap_or("");
                let at = format!("line {}: layer '{}'", line(doc, node), clip(layer_name));
                let size = (num(node, "width", None)?, num(node, "height", None)?);
                let cells = u64::from(size.0) * u64::from(size.1);
                let Some(data) = node.children().find(|n| n.has_tag_name("data")) else {
                    return Err(bad(name, format!("{at}: no <data>")));
                };
                let at_data = format!("line {}: layer '{}'", line(doc, data), clip(layer_name));
                if data.children().any(|n| n.has_tag_name("chunk")) {
                    return Err(bad(
                        name,
                        format!("{at_data}: chunks of an infinite map are not read"),
                    ));
                }
                let gids = match data.attribute("encoding") {
                    None => data
                        .children()
                        .filter(|n| n.has_tag_name("tile"))
                        .map(|t| num(t, "gid", Some(0)))
                        .collect::<Result<Vec<u32>, AssetError>>()?,
                    Some(encoding) => decode_data(
                        data.text().unwrap_or(""),
                        encoding,
                        data.attribute("compression").unwrap_or(""),
                        cells,
                    )
                    .map_err(|e| bad(name, format!("{at_data}: {e}")))?,
                };
                layers.push(RawLayer {
                    name: layer_name.to_string(),
                    size,
                    at,
                    gids,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

/// A `<tileset>`'s facts; `name` is what errors call its file and `file` the name its
/// `<image>` is read beside.
fn xml_tileset(
    name: &str,
    file: &str,
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
) -> Result<TilesetFacts, AssetError> {
    let tile_count = node
        .attribute("tilecount")
        .map(|_| attr_u32(name, doc, node, "tilecount", None))
        .transpose()?;
    let tile_count = check_tile_count(tile_count)
        .map_err(|e| bad(name, format!("line {}: <tileset> {e}", line(doc, node))))?;
    if let Some(image) = node.children().find(|n| n.has_tag_name("image")) {
        check_image(file, image.attribute("source"))
            .map_err(|e| bad(name, format!("line {}: <image> {e}", line(doc, image))))?;
    }
    let mut flags = Vec::new();
    for tile in node.children().filter(|n| n.has_tag_name("tile")) {
        let id = attr_u32(name, doc, tile, "id", None)?;
        let props = tile
            .children()
            .filter(|n| n.has_tag_name("properties"))
            .flat_map(|p| p.children().filter(|n| n.has_tag_name("property")));
        for p in props.filter(|p| p.attribute("name") == Some("flags")) {
            let v = p.attribute("value").unwrap_or("");
            let f = v.trim().parse::<u8>().map_err(|_| {
                bad(
                    name,
                    format!(
                        "line {}: tile {id}: property flags: '{}' is not a number from 0 to 255",
                        line(doc, p),
                        clip(v)
                    ),
                )
            })?;
            flags.push((id, f));
        }
    }
    Ok((tile_count, flags))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_files(source: &str) -> Result<(String, String), AssetError> {
        Err(AssetError::new(source, AssetErrorKind::NotFound))
    }

    const TMX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="3" height="2" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" name="tiles" tilewidth="8" tileheight="8" tilecount="16" columns="4">
  <image source="tiles.png" width="32" height="32"/>
  <tile id="2"><properties><property name="flags" type="int" value="3"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="3" height="2">
  <data encoding="csv">
1,0,3,
4,4,16
</data>
 </layer>
 <objectgroup id="3" name="things"/>
 <layer id="2" name="top" width="3" height="2">
  <data encoding="base64">AAAAAAIAAAAAAAAAAAAAAAAAAAABAAAA</data>
 </layer>
</map>
"#;

    #[test]
    fn a_map_in_memory_reads_as_the_same_file_would() {
        let map = decode_map("level.tmx", TMX.as_bytes()).unwrap();
        assert_eq!(map, parse_tmx("level.tmx", TMX, &no_files).unwrap());
        let (start, end) = (TMX.find(" <tileset").unwrap(), TMX.find(" <layer").unwrap());
        let external = format!(
            "{}<tileset firstgid=\"1\" source=\"tiles.tsx\"/>\n{}",
            &TMX[..start],
            &TMX[end..]
        );
        let err = decode_map("level.tmx", external.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "level.tmx: tileset \"tiles.tsx\": a map decoded from memory must embed its tileset"
        );
        let err = decode_map("level.tmx", b"<map \xff").unwrap_err();
        assert_eq!(
            err.kind,
            AssetErrorKind::NotText("invalid byte at offset 5".into())
        );
    }

    #[test]
    fn a_tmx_map_with_csv_and_base64_layers_and_tile_flags() {
        let map = parse_tmx("level.tmx", TMX, &no_files).unwrap();
        assert_eq!(
            (map.size(), map.tile_size(), map.layer_count()),
            ((3, 2), (8, 8), 2)
        );
        assert_eq!(map.layer_name(0), Some("ground"));
        assert_eq!(map.tile(0, 0, 0), Some(0), "the first tile is 0");
        assert_eq!(map.tile(0, 1, 0), None, "gid 0 is empty");
        assert_eq!(map.tile(0, 2, 1), Some(15));
        assert_eq!(map.tile(1, 1, 0), Some(1));
        assert_eq!(map.tile(1, 2, 1), Some(0));
        assert_eq!(map.flags(2), 3);
    }

    #[test]
    fn the_same_map_as_tmj_with_compressed_layers() {
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        for gid in [0u32, 2, 0, 0, 0, 1] {
            z.write_all(&gid.to_le_bytes()).unwrap();
        }
        let packed = z.finish().unwrap();
        let b64 = {
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut s = String::new();
            for c in packed.chunks(3) {
                let n = (u32::from(c[0]) << 16)
                    | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                    | u32::from(*c.get(2).unwrap_or(&0));
                for i in 0..=c.len() {
                    s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                }
            }
            s
        };
        let tmj = format!(
            r#"{{"type":"map","orientation":"orthogonal","width":3,"height":2,"tilewidth":8,"tileheight":8,"infinite":false,
            "tilesets":[{{"firstgid":1,"tilecount":16,"tiles":[{{"id":2,"properties":[{{"name":"flags","type":"int","value":3}}]}}]}}],
            "layers":[{{"type":"tilelayer","name":"ground","width":3,"height":2,"data":[1,0,3,4,4,16]}},
                      {{"type":"objectgroup","name":"things","objects":[]}},
                      {{"type":"tilelayer","name":"top","width":3,"height":2,"encoding":"base64","compression":"zlib","data":"{b64}"}}]}}"#
        );
        let json = parse_tmj("level.tmj", &tmj, &no_files).unwrap();
        let xml = parse_tmx("level.tmx", TMX, &no_files).unwrap();
        assert_eq!(json, xml);
    }

    #[test]
    fn bad_maps_name_the_line_or_field_and_the_value() {
        let cases: &[(&str, &str)] = &[
            (r#"width="3" height="2""#, r#"width="3" height="2x""#),
            ("1,0,3,", "1,0,-3,"),
            ("4,4,16", "4,4,17"),
            ("4,4,16", "4,4,2147483649"),
            ("4,4,16", "4,4"),
            (r#"orientation="orthogonal""#, r#"orientation="isometric""#),
            (r#"value="3""#, r#"value="300""#),
            (
                r#"encoding="base64""#,
                r#"encoding="base64" compression="zstd""#,
            ),
            ("</map>", "</mapp>"),
        ];
        let wants = [
            "level.tmx: line 2: <map> height: '2x' is not a whole number",
            "level.tmx: line 8: layer 'ground': data: '-3' is not a tile number",
            "level.tmx: line 7: layer 'ground': cell (2, 1): tile 17 is not in the tileset (tiles 1 to 16)",
            "level.tmx: line 7: layer 'ground': cell (2, 1): tile 0x80000001 is flipped or turned; draw it unflipped (flips are not read)",
            "level.tmx: line 7: layer 'ground': data: 5 tiles for 3x2 cells (6)",
            "level.tmx: orientation: 'isometric' is not read; only orthogonal maps",
            "level.tmx: line 5: tile 2: property flags: '300' is not a number from 0 to 255",
            "level.tmx: line 15: layer 'top': compression: 'zstd' is not read (use zlib, gzip or none)",
            "level.tmx: line 17: expected 'map' tag, not 'mapp'",
        ];
        for (i, (from, to)) in cases.iter().enumerate() {
            let text = TMX.replacen(from, to, 1);
            let e = parse_tmx("level.tmx", &text, &no_files)
                .unwrap_err()
                .to_string();
            assert_eq!(e, wants[i]);
        }
        let e = parse_tmj(
            "level.tmj",
            "{\"width\": 3,\n \"height\": \"two\"}",
            &no_files,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("level.tmj: line 2: height: invalid type: string \"two\""),
            "{e}"
        );
    }

    /// Found by the `tiled_map` fuzz target: the XML parser's message quoted a line break it
    /// found where a `>` belonged, and the error took two lines.
    #[test]
    fn an_xml_error_quoting_a_line_break_stays_on_one_line() {
        let text = TMX.replacen("height=\"32\"/>", "height=\"32\"/\n>", 1);
        let e = parse_tmx("level.tmx", &text, &no_files)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "level.tmx: line 4: expected '>' not '\\n'");
    }

    #[test]
    fn a_bad_tmj_value_names_its_field_and_a_bad_cell_its_layer_and_place() {
        let map = |layer: &str| {
            format!(
                "{{\"width\":2,\"height\":2,\"tilewidth\":8,\"tileheight\":8,\n\
                 \"layers\":[{layer}],\"tilesets\":[{{\"firstgid\":1,\"tilecount\":4}}]}}"
            )
        };
        let error = |layer: &str| {
            parse_tmj("level.tmj", &map(layer), &no_files)
                .unwrap_err()
                .to_string()
        };
        let layer = |data: &str| {
            format!(
                "{{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":2,\"height\":2,\"data\":{data}}}"
            )
        };
        assert_eq!(
            error(&layer("[1,2,-3,4]")),
            "level.tmj: layers[0] 'ground': data[2] (cell (0, 1)): -3 is not a tile number \
             (0 to 4294967295)"
        );
        assert_eq!(
            error(&layer("[1,2,3,1.5]")),
            "level.tmj: layers[0] 'ground': data[3] (cell (1, 1)): 1.5 is not a tile number \
             (0 to 4294967295)"
        );
        assert_eq!(
            error(&layer("true")),
            "level.tmj: layers[0] 'ground': data: true is neither an array of tile numbers \
             nor text (CSV or base64)"
        );
        let e = error("{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":\"2\"}");
        assert!(
            e.starts_with("level.tmj: line 2: width: invalid type: string \"2\""),
            "{e}"
        );
        assert_eq!(field_before("{\"a\": 1, \"b\": x}", 1, 16), Some("b"));
    }

    #[test]
    fn deeply_nested_elements_are_refused_not_a_stack_overflow() {
        for tag in ["group", "x"] {
            let depth = 20_000;
            let text = format!(
                "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">{}{}</map>",
                format!("<{tag}>").repeat(depth),
                format!("</{tag}>").repeat(depth)
            );
            let e = parse_tmx("deep.tmx", &text, &no_files)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("deep.tmx: "), "{e}");
            assert!(
                e.contains("line 1: elements nested more than 256 deep"),
                "{e}"
            );
        }
        // Tags in comments, CDATA and attribute values do not count; self-closed tags close.
        let text = format!(
            "<!-- {} --><map a=\"<b>/>\"><![CDATA[{}]]>{}</map>",
            "<a>".repeat(300),
            "<a>".repeat(300),
            "<tile/>".repeat(300)
        );
        assert_eq!(xml_too_deep(&text), None);
        assert_eq!(xml_too_deep(&"<a>\n".repeat(257)), Some(257));
    }

    /// A layer of `cells` cells whose zlib data inflates to `bytes` zero bytes.
    fn bomb_layer(cells: (u32, u32), bytes: usize) -> String {
        use std::io::Write as _;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..bytes >> 20 {
            z.write_all(&zeros).unwrap();
        }
        let packed = z.finish().unwrap();
        const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut text = String::new();
        for c in packed.chunks(3) {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..=c.len() {
                text.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        format!(
            "<layer name=\"bomb\" width=\"{}\" height=\"{}\"><data encoding=\"base64\" \
             compression=\"zlib\">{text}</data></layer>",
            cells.0, cells.1
        )
    }

    fn bomb_map(size: (u32, u32), layers: &str) -> String {
        format!(
            "<map width=\"{}\" height=\"{}\" tilewidth=\"8\" tileheight=\"8\">{layers}</map>",
            size.0, size.1
        )
    }

    #[test]
    fn compressed_layers_are_bounded_before_they_are_inflated() {
        // 100 MiB of zeros packed into about 100 KB.
        let bomb = bomb_layer((50_000, 500), 100 << 20);
        assert!(bomb.len() < 200_000, "{}", bomb.len());
        let e = |text: &str| {
            parse_tmx("bomb.tmx", text, &no_files)
                .unwrap_err()
                .to_string()
        };
        // A map too big for BT is refused before any layer is read.
        let err = e(&bomb_map((50_000, 500), &bomb));
        assert!(err.contains("a map of 50000x500 cells"), "{err}");
        // A layer of another size than the map's, before its data is read.
        let err = e(&bomb_map((2048, 2048), &bomb));
        assert!(
            err.contains("layer 'bomb': 50000x500 cells in a 2048x2048 map"),
            "{err}"
        );
        // A layer of the map's size inflates no further than its cells hold.
        let bomb = bomb_layer((2048, 2048), 100 << 20);
        let err = e(&bomb_map((2048, 2048), &bomb));
        assert!(
            err.contains("data: more than 16777216 bytes after decoding"),
            "{err}"
        );
        // No more layers than a map may have are decoded.
        let small = bomb_layer((1, 1), 0);
        let err = e(&bomb_map((1, 1), &small.repeat(MAX_MAP_LAYERS + 1)));
        assert!(err.contains("more than 64 tile layers"), "{err}");
    }

    #[test]
    fn too_many_layers_are_refused_before_any_layer_is_decoded() {
        // 65 layers of the largest map, each a bomb of 16 MiB: a gigabyte if the first 64 were
        // inflated before the count was seen. The first layer's data is broken, so an error
        // about it would show that decoding began before the count was checked.
        let bomb = bomb_layer((2048, 2048), 16 << 20);
        let broken = bomb.replacen(
            "encoding=\"base64\" compression=\"zlib\">",
            "encoding=\"base64\" compression=\"zlib\">!",
            1,
        );
        let layers = format!("{broken}<group>{}</group>", bomb.repeat(MAX_MAP_LAYERS));
        let err = parse_tmx("many.tmx", &bomb_map((2048, 2048), &layers), &no_files)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("many.tmx: line 1: layer 'bomb': more than 64 tile layers"),
            "{err}"
        );
        // The same map as JSON, layers in a group too.
        let data = broken[broken.find("zlib\">").unwrap() + 6..broken.find("</data>").unwrap()]
            .to_string();
        let layer = |data: &str| {
            format!(
                r#"{{"type":"tilelayer","name":"bomb","width":2048,"height":2048,
                "encoding":"base64","compression":"zlib","data":"{data}"}}"#
            )
        };
        let rest = vec![layer(&data[1..]); MAX_MAP_LAYERS].join(",");
        let tmj = format!(
            r#"{{"width":2048,"height":2048,"tilewidth":8,"tileheight":8,"layers":[{},
            {{"type":"group","name":"g","layers":[{rest}]}}]}}"#,
            layer(&data)
        );
        let err = parse_tmj("many.tmj", &tmj, &no_files)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "many.tmj: layers[1] 'g'.layers[63] 'bomb': more than 64 tile layers in the map"
        );
    }

    #[test]
    fn a_tileset_file_outside_the_asset_folder_is_refused() {
        let dir = bt_test_support::ScratchDir::new("tiled-inside");
        let root = dir.join("assets");
        std::fs::create_dir_all(root.join("maps")).unwrap();
        let tsx = "<tileset name=\"t\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"4\"/>";
        std::fs::write(root.join("tiles.tsx"), tsx).unwrap();
        std::fs::write(dir.join("outside.tsx"), tsx).unwrap();
        let map = |source: &str| {
            format!(
                "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\
                 <tileset firstgid=\"1\" source=\"{source}\"/><layer name=\"a\" width=\"1\" \
                 height=\"1\"><data encoding=\"csv\">2</data></layer></map>"
            )
        };
        // Up from a map's folder to the asset folder is inside.
        std::fs::write(root.join("maps/in.tmx"), map("../tiles.tsx")).unwrap();
        assert_eq!(
            load_map_in(&root, "maps/in.tmx").unwrap().tile(0, 0, 0),
            Some(1)
        );
        let outside = dir.join("outside.tsx");
        for (file, source) in [
            ("up.tmx", "../../outside.tsx"),
            ("abs.tmx", outside.to_str().unwrap()),
        ] {
            std::fs::write(root.join("maps").join(file), map(source)).unwrap();
            let e = load_map_in(&root, &format!("maps/{file}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with(&format!("maps/{file} -> {source}: could not read it: "))
                    && e.contains("only from inside the asset folder"),
                "{e}"
            );
        }
        let e = load_map_in(&root, "../outside.tsx")
            .unwrap_err()
            .to_string();
        assert!(e.contains("climb out"), "{e}");
    }

    #[test]
    fn a_tileset_of_no_tiles_is_refused() {
        let tmx = TMX.replacen("tilecount=\"16\"", "tilecount=\"0\"", 1);
        assert_eq!(
            parse_tmx("level.tmx", &tmx, &no_files)
                .unwrap_err()
                .to_string(),
            "level.tmx: line 3: <tileset> tilecount: 0; a tileset has at least one tile"
        );
        let tmj = r#"{"width":1,"height":1,"tilewidth":8,"tileheight":8,
            "layers":[{"type":"tilelayer","name":"a","width":1,"height":1,"data":[0]}],
            "tilesets":[{"firstgid":1,"tilecount":0}]}"#;
        let e = parse_tmj("level.tmj", tmj, &no_files)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("tilesets[0]: tilecount: 0; a tileset has at least one tile"),
            "{e}"
        );
        let external = |_: &str| {
            Ok((
                "level.tmj -> t.tsj".to_string(),
                r#"{"tilecount":0}"#.to_string(),
            ))
        };
        let tmj = tmj.replace(r#""tilecount":0"#, r#""source":"t.tsj""#);
        let e = parse_tmj("level.tmj", &tmj, &external)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("level.tmj -> t.tsj: ") && e.contains("tilecount: 0"),
            "{e}"
        );
    }

    #[test]
    fn a_tileset_that_names_itself_or_another_tileset_file_is_refused() {
        let map = |source: &str| {
            format!(
                "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n\
                 <tileset firstgid=\"1\" source=\"{source}\"/><layer name=\"a\" width=\"1\" \
                 height=\"1\"><data encoding=\"csv\">1</data></layer></map>"
            )
        };
        let files = |name: &str| -> Option<String> {
            Some(match name {
                "loop.tmx" => map("loop.tmx"),
                "a.tsx" => "<tileset tilecount=\"4\" source=\"b.tsx\"/>".into(),
                "b.tsx" => "<tileset tilecount=\"4\" source=\"a.tsx\"/>".into(),
                "tiles/self.tsx" => "<tileset tilecount=\"4\">\n\
                                     <image source=\"./self.tsx\"/></tileset>"
                    .into(),
                "loop.tmj" => r#"{"type":"map","width":1,"height":1,"tilewidth":8,
                    "tileheight":8,"tilesets":[{"firstgid":1,"source":"loop.tmj"}],
                    "layers":[{"type":"tilelayer","name":"a","width":1,"height":1,"data":[1]}]}"#
                    .into(),
                "self.tsj" => r#"{"type":"tileset","tilecount":4,"image":"self.tsj"}"#.into(),
                _ => return None,
            })
        };
        let read = |source: &str| {
            files(source)
                .map(|text| (format!("map -> {source}"), text))
                .ok_or_else(|| AssetError::new(source, AssetErrorKind::NotFound))
        };
        let tmx = |source: &str| {
            parse_tmx("map", &map(source), &read)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            parse_tmx("loop.tmx", &map("loop.tmx"), &read)
                .unwrap_err()
                .to_string(),
            "map -> loop.tmx: line 1: <map> where a tileset file starts with <tileset>"
        );
        assert_eq!(
            tmx("a.tsx"),
            "map -> a.tsx: line 1: <tileset> source: names the tileset file \"b.tsx\" in turn; \
             a tileset file holds the tileset itself"
        );
        assert_eq!(
            tmx("tiles/self.tsx"),
            "map -> tiles/self.tsx: line 2: <image> image: \"./self.tsx\" is this file itself, \
             not a picture"
        );
        let tmj = files("loop.tmj").unwrap();
        assert_eq!(
            parse_tmj("loop.tmj", &tmj, &read).unwrap_err().to_string(),
            "map -> loop.tmj: type: \"map\" where a tileset file says \"tileset\""
        );
        let tmj = tmj.replace("loop.tmj", "self.tsj");
        assert_eq!(
            parse_tmj("loop.tmj", &tmj, &read).unwrap_err().to_string(),
            "map -> self.tsj: image: \"self.tsj\" is this file itself, not a picture"
        );
        // An embedded tileset whose picture is the map.
        let inline = TMX.replacen("tiles.png", "../maps/level.tmx", 1);
        assert_eq!(
            parse_tmx("maps/level.tmx", &inline, &no_files)
                .unwrap_err()
                .to_string(),
            "maps/level.tmx: line 4: <image> image: \"../maps/level.tmx\" is this file \
             itself, not a picture"
        );
        // A picture beside it with another name is no concern of the map's.
        let fine = TMX.replacen("tiles.png", "level.png", 1);
        assert!(parse_tmx("maps/level.tmx", &fine, &no_files).is_ok());
    }

    #[test]
    fn external_tilesets_are_read_beside_the_map() {
        let dir = std::env::temp_dir().join(format!("bt-tiled-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tiles.tsx"),
            r#"<tileset name="t" tilewidth="8" tileheight="8" tilecount="16" columns="4"><tile id="5"><properties><property name="flags" type="int" value="1"/></properties></tile></tileset>"#,
        )
        .unwrap();
        let start = TMX.find(" <tileset").unwrap();
        let end = TMX.find(" <layer").unwrap();
        let text = format!(
            "{}<tileset firstgid=\"1\" source=\"tiles.tsx\"/>\n{}",
            &TMX[..start],
            &TMX[end..]
        );
        std::fs::write(dir.join("level.tmx"), &text).unwrap();
        let map = load_map_file("level.tmx", &dir.join("level.tmx")).unwrap();
        assert_eq!((map.flags(5), map.flags(2)), (1, 0));
        std::fs::remove_file(dir.join("tiles.tsx")).unwrap();
        let e = load_map_file("level.tmx", &dir.join("level.tmx")).unwrap_err();
        assert_eq!(e.to_string(), "level.tmx -> tiles.tsx: file not found");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
