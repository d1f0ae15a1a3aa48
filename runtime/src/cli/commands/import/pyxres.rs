//! `bt import` of a Pyxel resource file (`.pyxres`): its images, tilemaps, sounds and music
//! turned into BT's files.
//!
//! A `.pyxres` is a zip archive. Pyxel 2 writes one entry, `pyxel_resource.toml`: a
//! `format_version` and four arrays, `images` (`width`, `height`, `data` as rows of colour
//! numbers), `tilemaps` (`width`, `height`, `imgsrc`, `data` as rows of `tx, ty` pairs, each an
//! 8 × 8 tile of the image, in tiles), `sounds` (`notes`, `tones`, `volumes`, `effects`,
//! `speed`) and `musics` (`seqs`, a list of sound numbers per channel). A row may stop early and
//! the rows may stop early: the rest repeats the row's last value, and the last row. Pyxel 1
//! wrote one text entry per bank instead, under `pyxel_resource/` beside a `version` entry;
//! both are read. Colours are Pyxel's 16 unless a `.pyxpal` file of the same name (one
//! `RRGGBB` a line) sits beside the resource file, as Pyxel itself looks for it.
//!
//! What is written, named after the file (`game.pyxres` gives `game-…`):
//!
//! - `game-imageN.png` for each image with a pixel other than colour 0 or a tilemap drawn
//!   from it: an indexed PNG whose indices are Pyxel's colour numbers and whose palette is the
//!   file's colours (no colour see-through: Pyxel's `blt` picks its key per call);
//! - `game-tilemapN.tmj` for each tilemap with a cell other than `(0, 0)`: a Tiled map of
//!   8 × 8 tiles over `game-imageN.png`, tile `(tx, ty)` being the image's tile
//!   `ty × columns + tx`;
//! - `game-sounds.txt`, a `bt-sound 2` file with `soundN` for each sound with notes and a
//!   `seq musicN` for each music that plays one. Speeds carry over as they are (Pyxel's and
//!   BT's both count 120ths of a second); a note keeps its frequency (Pyxel plays note `n` as
//!   MIDI note `n + 36`, so its 33 is 440 Hz, BT's A4), noise keeps its rate of random steps;
//!   vibrato is Pyxel's 6 Hz and 25 cents; the half and quarter fade-outs become BT's fade-out
//!   over the whole note.

use std::fmt::Write as _;
use std::path::Path;

use super::zip::Zip;
use crate::config::read::read_named;
use crate::export::safe_write::Format;
use toml_lite::{Node, Table};

mod pyxel1;
mod toml_lite;

/// The longest `.pyxres` read. Pyxel's own pack into a few KB; every bank full of random
/// values, about 1 MB.
const MAX_PYXRES_FILE: u64 = 4 << 20;
/// The most its TOML entry may unpack to, checked before it is inflated: all eight 256 × 256
/// tilemaps written out in full take about 5 MB.
const MAX_TOML_ENTRY: u64 = 16 << 20;
/// The most a Pyxel 1 bank entry may unpack to: a 256 × 256 tilemap of 4-digit cells with its
/// line ends, and a little more.
const MAX_OLD_ENTRY: u64 = 300_000;
/// The longest `.pyxpal` read: 256 lines of 6 digits, with room for odd line ends.
const MAX_PALETTE_FILE: u64 = 16 << 10;
/// Pixels of all images together, and cells of all tilemaps, checked before a bank is expanded:
/// a row of one value may stand for a whole row, so a small file can ask for a huge bank.
/// Pyxel's own banks are 3 × 65,536 pixels and 8 × 65,536 cells.
const MAX_PIXELS: u64 = 1 << 24;
const MAX_CELLS: u64 = bt::limits::MAX_MAP_CELLS;
/// The newest `format_version` read (the newest Pyxel reads, too).
const MAX_FORMAT_VERSION: i64 = 4;
/// A Pyxel tile's side in pixels.
const TILE: u32 = 8;
/// The entry Pyxel 2 writes.
const TOML_ENTRY: &str = "pyxel_resource.toml";
/// The entry that marks Pyxel 1's layout.
const OLD_VERSION_ENTRY: &str = "pyxel_resource/version";
/// Pyxel's 16 colours, used when no `.pyxpal` sits beside the file.
const PYXEL_COLORS: [u32; 16] = [
    0x000000, 0x2b335f, 0x7e2072, 0x19959c, 0x8b4852, 0x395c98, 0xa9c1ff, 0xeeeeee, 0xd4186c,
    0xd38441, 0xe9c35b, 0x70c6a9, 0x7696de, 0xa3a3a3, 0xff9798, 0xedc7b0,
];
/// Pyxel's vibrato: a 20-tick period of its 120 ticks a second, bending 25 cents either way.
const PYXEL_VIBRATO_HZ: u32 = 6;
const PYXEL_VIBRATO_CENTS: u32 = 25;
/// Pyxel plays tone notes as MIDI note `n + 36`; BT's pitch `p` is MIDI `p + 12`.
const TONE_PITCH_OFFSET: i64 = 24;
/// Pyxel plays noise at MIDI note `n + 60` and takes one random step a period; BT's noise takes
/// 16 steps a period of its pitch (four octaves up), so the same steps a second are at BT pitch
/// `n + 60 - 12 - 48`, that is `n`.
const NOISE_PITCH_OFFSET: i64 = 0;
/// Pyxel's tone numbers, in BT's words: triangle, square, a 25% pulse, noise.
const WAVES: [&str; 4] = ["tri", "sq", "sq25", "noise"];
/// Pyxel's effect numbers, in BT's words: none, slide, vibrato, and its fade-out, half
/// fade-out and quarter fade-out, all BT's fade-out over the note.
const EFFECTS: [&str; 6] = ["", " slide", " vibrato", " fadeout", " fadeout", " fadeout"];
/// Pyxel's number for vibrato, which needs the sound effect's rate and depth set.
const EFFECT_VIBRATO: u8 = 2;
/// Pyxel's defaults for a sound whose tones, volumes or effects are empty.
const DEFAULT_TONE: u8 = 0;
const DEFAULT_VOLUME: u8 = 7;

/// What of a resource file BT reads, before any check that needs the other banks.
#[derive(Debug, Default)]
struct Resource {
    images: Vec<Image>,
    tilemaps: Vec<Tilemap>,
    sounds: Vec<Sound>,
    /// For each music, each channel's sound numbers.
    musics: Vec<Vec<Vec<u32>>>,
}

#[derive(Debug)]
struct Image {
    width: u32,
    height: u32,
    /// Colour numbers, row by row.
    pixels: Vec<u8>,
}

#[derive(Debug)]
struct Tilemap {
    width: u32,
    height: u32,
    /// The image its tiles come from.
    image: u32,
    /// `(tx, ty)` per cell, row by row: the tile `tx` across and `ty` down in the image.
    cells: Vec<(u16, u16)>,
}

#[derive(Debug, Default)]
struct Sound {
    /// -1 (any negative) a rest, else Pyxel's note number (0 is its C0).
    notes: Vec<i8>,
    tones: Vec<u8>,
    volumes: Vec<u8>,
    effects: Vec<u8>,
    /// 120ths of a second a note.
    speed: u16,
}

/// The files `bt import` writes for the resource file at `path` (`shown` in messages), named
/// after `stem`.
///
/// # Errors
///
/// One line naming the file, the entry or field and the value, for a file that cannot be read,
/// is not a resource file, breaks a limit or holds a value BT cannot carry over.
pub(super) fn files(
    shown: &str,
    path: &Path,
    stem: &str,
) -> Result<Vec<(String, Format, Vec<u8>)>, String> {
    let bytes =
        read_named("Pyxel resource file", path, MAX_PYXRES_FILE).map_err(|e| e.to_string())?;
    let resource = read(shown, &bytes)?;
    let palette_path = path.with_extension("pyxpal");
    let palette = if palette_path.is_file() {
        let name = crate::quote::path(&palette_path);
        let bytes = read_named("Pyxel palette file", &palette_path, MAX_PALETTE_FILE)
            .map_err(|e| e.to_string())?;
        parse_palette(&name, &String::from_utf8_lossy(&bytes))?
    } else {
        PYXEL_COLORS.to_vec()
    };
    convert(shown, &resource, &palette, stem)
}

/// The resource in `bytes`, in either layout.
fn read(shown: &str, bytes: &[u8]) -> Result<Resource, String> {
    let zip = Zip::read(bytes).map_err(|e| format!("{shown}: {e}"))?;
    if zip.has(OLD_VERSION_ENTRY) {
        return pyxel1::read(shown, &zip);
    }
    let Some(toml) = zip
        .entry(TOML_ENTRY, MAX_TOML_ENTRY)
        .map_err(|e| format!("{shown}: {e}"))?
    else {
        let names: Vec<String> = zip.names().take(5).map(crate::quote::excerpt).collect();
        return Err(format!(
            "{shown}: not a Pyxel resource file: no {TOML_ENTRY} inside (it holds {})",
            if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let text = std::str::from_utf8(&toml).map_err(|e| {
        format!(
            "{shown}: {TOML_ENTRY}: not UTF-8 text (byte {})",
            e.valid_up_to()
        )
    })?;
    let table = toml_lite::parse(text).map_err(|e| format!("{shown}: {TOML_ENTRY}: {e}"))?;
    // The text is done with before the banks are expanded.
    drop(toml);
    resource(&table).map_err(|e| format!("{shown}: {TOML_ENTRY}: {e}"))
}

/// The resource in Pyxel 2's TOML, read into `table`. Errors name the field
/// (`images[0].data[3][7]`) and the value.
fn resource(table: &Table) -> Result<Resource, String> {
    let version = int(
        field(table, "format_version", "")?,
        0,
        i64::MAX,
        "format_version",
    )?;
    if version > MAX_FORMAT_VERSION {
        return Err(format!(
            "format_version {version}: written by a newer Pyxel than this reader knows \
             (versions up to {MAX_FORMAT_VERSION})"
        ));
    }
    let mut budget = (MAX_PIXELS, MAX_CELLS);
    let mut r = Resource::default();
    for (i, v) in tables(table, "images")?.iter().enumerate() {
        let at = format!("images[{i}]");
        let t = as_table(v, &at)?;
        let width = size(t, "width", &at, bt::limits::MAX_SHEET_SIDE)?;
        let height = size(t, "height", &at, bt::limits::MAX_SHEET_SIDE)?;
        take(&mut budget.0, width, height, &at, "pixels", MAX_PIXELS)?;
        r.images.push(Image {
            width,
            height,
            pixels: grid(t, &at, width, height, 1, 255, |v| v as u8)?,
        });
    }
    for (i, v) in tables(table, "tilemaps")?.iter().enumerate() {
        let at = format!("tilemaps[{i}]");
        let t = as_table(v, &at)?;
        let width = size(t, "width", &at, u32::MAX)?;
        let height = size(t, "height", &at, u32::MAX)?;
        take(&mut budget.1, width, height, &at, "cells", MAX_CELLS)?;
        let image = int(
            field(t, "imgsrc", &at)?,
            0,
            i64::from(u32::MAX),
            &format!("{at}.imgsrc"),
        )?;
        let values = grid(t, &at, width, height, 2, i64::from(u16::MAX), |v| v as u16)?;
        r.tilemaps.push(Tilemap {
            width,
            height,
            image: image as u32,
            cells: values.chunks(2).map(|c| (c[0], c[1])).collect(),
        });
    }
    for (i, v) in tables(table, "sounds")?.iter().enumerate() {
        let at = format!("sounds[{i}]");
        let t = as_table(v, &at)?;
        let list = |key: &str, lo: i64, hi: i64| -> Result<&[i64], String> {
            let at = format!("{at}.{key}");
            let values = ints(field(t, key, &at)?, &at)?;
            for (j, &n) in values.iter().enumerate() {
                in_range(n, lo, hi, &format!("{at}[{j}]"))?;
            }
            Ok(values)
        };
        r.sounds.push(Sound {
            notes: list("notes", -128, 127)?.iter().map(|&v| v as i8).collect(),
            tones: list("tones", 0, 255)?.iter().map(|&v| v as u8).collect(),
            volumes: list("volumes", 0, 255)?.iter().map(|&v| v as u8).collect(),
            effects: list("effects", 0, 255)?.iter().map(|&v| v as u8).collect(),
            speed: int(field(t, "speed", &at)?, 0, 65535, &format!("{at}.speed"))? as u16,
        });
    }
    for (i, v) in tables(table, "musics")?.iter().enumerate() {
        let at = format!("musics[{i}]");
        let t = as_table(v, &at)?;
        let seqs = list(field(t, "seqs", &at)?, &format!("{at}.seqs"), "an array")?;
        // Empty channels at the end play nothing (Pyxel drops them when it saves): not kept,
        // so a list of a million empty channels takes no memory past the tree's.
        let used = seqs
            .iter()
            .rposition(|seq| !matches!(seq, Node::Ints(n) if n.is_empty()))
            .map_or(0, |last| last + 1);
        let mut channels = Vec::with_capacity(used);
        for (c, seq) in seqs[..used].iter().enumerate() {
            let at = format!("{at}.seqs[{c}]");
            let values = ints(seq, &at)?;
            for (k, &n) in values.iter().enumerate() {
                in_range(n, 0, i64::from(u32::MAX), &format!("{at}[{k}]"))?;
            }
            channels.push(values.iter().map(|&n| n as u32).collect());
        }
        r.musics.push(channels);
    }
    Ok(r)
}

/// The value of `key` in `t`; `at` names `t` in the message.
fn field<'t>(t: &'t Table, key: &str, at: &str) -> Result<&'t Node, String> {
    t.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .ok_or_else(|| {
            if at.is_empty() {
                format!("no '{key}'")
            } else {
                format!("{at}: no '{key}'")
            }
        })
}

/// One of the four top-level arrays of tables.
fn tables<'t>(t: &'t Table, key: &str) -> Result<&'t [Node], String> {
    list(field(t, key, "")?, key, "a table")
}

/// An array whose items are not integers (`item` says what they should be); an empty one.
fn list<'v>(v: &'v Node, at: &str, item: &str) -> Result<&'v [Node], String> {
    match v {
        Node::List(items) => Ok(items),
        Node::Ints(n) if n.is_empty() => Ok(&[]),
        Node::Ints(n) => Err(format!("{at}[0]: {} where {item} belongs", n[0])),
        other => Err(format!("{at}: {} where an array belongs", kind(other))),
    }
}

/// An array of integers.
fn ints<'v>(v: &'v Node, at: &str) -> Result<&'v [i64], String> {
    match v {
        Node::Ints(n) => Ok(n),
        Node::List(items) => {
            let (k, bad) = items
                .iter()
                .enumerate()
                .find(|(_, item)| !matches!(item, Node::Int(_)))
                .unwrap_or((0, v));
            Err(format!(
                "{at}[{k}]: {} where a whole number belongs",
                kind(bad)
            ))
        }
        other => Err(format!("{at}: {} where an array belongs", kind(other))),
    }
}

fn as_table<'v>(v: &'v Node, at: &str) -> Result<&'v Table, String> {
    match v {
        Node::Table(t) => Ok(t),
        other => Err(format!("{at}: {} where a table belongs", kind(other))),
    }
}

fn int(v: &Node, lo: i64, hi: i64, at: &str) -> Result<i64, String> {
    match v {
        Node::Int(n) => in_range(*n, lo, hi, at),
        other => Err(format!(
            "{at}: {} where a whole number belongs",
            kind(other)
        )),
    }
}

fn in_range(n: i64, lo: i64, hi: i64, at: &str) -> Result<i64, String> {
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{at}: {n} is out of range ({lo} to {hi})"))
    }
}

/// What a value is, for a message: its type and, when short, the value.
fn kind(v: &Node) -> String {
    match v {
        Node::Int(n) => format!("{n}"),
        Node::Ints(_) | Node::List(_) => "an array".into(),
        Node::Table(_) => "a table".into(),
        Node::Other(what) => what.clone(),
    }
}

/// A `width` or `height`: 1 to `max`.
fn size(t: &Table, key: &str, at: &str, max: u32) -> Result<u32, String> {
    int(
        field(t, key, at)?,
        1,
        i64::from(max),
        &format!("{at}.{key}"),
    )
    .map(|n| n as u32)
}

/// Takes `width × height` from what is left of `budget`.
fn take(
    budget: &mut u64,
    width: u32,
    height: u32,
    at: &str,
    what: &str,
    max: u64,
) -> Result<(), String> {
    let n = u64::from(width) * u64::from(height);
    *budget = budget.checked_sub(n).ok_or_else(|| {
        format!("{at}: {width} × {height} takes the banks past {max} {what} in all")
    })?;
    Ok(())
}

/// A bank's `data`, expanded as Pyxel expands it: `per_cell` values a cell, each row filled out
/// with its last value, the rows filled out with the last row; each value, checked to be 0 to
/// `max`, made a `T` by `make`.
fn grid<T: Copy>(
    t: &Table,
    at: &str,
    width: u32,
    height: u32,
    per_cell: usize,
    max: i64,
    make: fn(i64) -> T,
) -> Result<Vec<T>, String> {
    let rows = list(field(t, "data", at)?, &format!("{at}.data"), "an array")?;
    let (width, height) = (width as usize * per_cell, height as usize);
    if rows.is_empty() {
        return Err(format!("{at}.data: no rows"));
    }
    if rows.len() > height {
        return Err(format!(
            "{at}.data: {} rows where height is {height}",
            rows.len()
        ));
    }
    let mut out = Vec::with_capacity(width * height);
    for (y, row) in rows.iter().enumerate() {
        let at = format!("{at}.data[{y}]");
        let row = ints(row, &at)?;
        if row.is_empty() || row.len() > width {
            return Err(format!(
                "{at}: {} values where a row holds 1 to {width}",
                row.len()
            ));
        }
        for (x, &v) in row.iter().enumerate() {
            out.push(make(in_range(v, 0, max, &format!("{at}[{x}]"))?));
        }
        let last = out[out.len() - 1];
        out.resize(out.len() + width - row.len(), last);
    }
    let last_row = out.len() - width;
    for _ in rows.len()..height {
        out.extend_from_within(last_row..last_row + width);
    }
    Ok(out)
}

/// A `.pyxpal`: one `RRGGBB` a line, blank lines skipped, 1 to 256 colours.
fn parse_palette(name: &str, text: &str) -> Result<Vec<u32>, String> {
    let mut colors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let color = (line.len() == 6)
            .then(|| u32::from_str_radix(line, 16).ok())
            .flatten()
            .ok_or_else(|| {
                format!(
                    "{name}:{}: '{}' is not a colour RRGGBB",
                    n + 1,
                    crate::quote::excerpt(line)
                )
            })?;
        if colors.len() == 256 {
            return Err(format!("{name}:{}: more than 256 colours", n + 1));
        }
        colors.push(color);
    }
    if colors.is_empty() {
        return Err(format!("{name}: no colours"));
    }
    Ok(colors)
}

/// The files for `r`, checked against each other and against what BT can hold.
fn convert(
    shown: &str,
    r: &Resource,
    palette: &[u32],
    stem: &str,
) -> Result<Vec<(String, Format, Vec<u8>)>, String> {
    let mut files = Vec::new();
    // Tilemaps first: an image is written when one draws from it.
    let mut drawn = vec![false; r.images.len()];
    let mut maps = Vec::new();
    for (i, map) in r.tilemaps.iter().enumerate() {
        if map.cells.iter().all(|&c| c == (0, 0)) {
            continue;
        }
        let image = r.images.get(map.image as usize).ok_or_else(|| {
            format!(
                "{shown}: tilemaps[{i}].imgsrc: image {} is not in the file ({} images)",
                map.image,
                r.images.len()
            )
        })?;
        let (columns, rows) = (image.width / TILE, image.height / TILE);
        for (n, &(tx, ty)) in map.cells.iter().enumerate() {
            if u32::from(tx) >= columns || u32::from(ty) >= rows {
                return Err(format!(
                    "{shown}: tilemaps[{i}] cell ({}, {}): tile ({tx}, {ty}) is outside image {} \
                     ({columns} × {rows} tiles)",
                    n % map.width as usize,
                    n / map.width as usize,
                    map.image
                ));
            }
        }
        drawn[map.image as usize] = true;
        maps.push((i, map));
    }
    for (i, image) in r.images.iter().enumerate() {
        if !drawn[i] && image.pixels.iter().all(|&p| p == 0) {
            continue;
        }
        if let Some(n) = image
            .pixels
            .iter()
            .position(|&p| usize::from(p) >= palette.len())
        {
            return Err(format!(
                "{shown}: images[{i}] pixel ({}, {}): colour {} is past the palette's {} \
                 colours",
                n % image.width as usize,
                n / image.width as usize,
                image.pixels[n],
                palette.len()
            ));
        }
        files.push((
            image_name(stem, i),
            Format::Png,
            indexed_png(image, palette).map_err(|e| format!("{shown}: images[{i}]: {e}"))?,
        ));
    }
    for (i, map) in maps {
        let image = &r.images[map.image as usize];
        files.push((
            format!("{stem}-tilemap{i}.tmj"),
            Format::Any,
            tmj(map, image, &image_name(stem, map.image as usize)).into_bytes(),
        ));
    }
    if let Some(text) = sound_file(shown, r)? {
        files.push((format!("{stem}-sounds.txt"), Format::Any, text.into_bytes()));
    }
    if files.is_empty() {
        return Err(format!(
            "{shown}: nothing to import: every image is blank, every tilemap all (0, 0) and \
             every sound empty"
        ));
    }
    Ok(files)
}

fn image_name(stem: &str, i: usize) -> String {
    format!("{stem}-image{i}.png")
}

fn indexed_png(image: &Image, palette: &[u32]) -> Result<Vec<u8>, String> {
    let rgb: Vec<[u8; 3]> = palette
        .iter()
        .map(|&c| [(c >> 16) as u8, (c >> 8) as u8, c as u8])
        .collect();
    crate::export::png::encode_indexed_png(&image.pixels, (image.width, image.height), &rgb, &[])
        .map_err(|e| e.to_string())
}

/// A Tiled map of `map` over the image file `image_file`. Every cell is a tile, `(0, 0)`
/// included, as Pyxel's `bltm` draws every cell.
fn tmj(map: &Tilemap, image: &Image, image_file: &str) -> String {
    let columns = image.width / TILE;
    let data: Vec<u32> = map
        .cells
        .iter()
        .map(|&(tx, ty)| u32::from(ty) * columns + u32::from(tx) + 1)
        .collect();
    let doc = serde_json::json!({
        "type": "map", "version": "1.10", "orientation": "orthogonal",
        "renderorder": "right-down", "width": map.width, "height": map.height,
        "tilewidth": TILE, "tileheight": TILE, "infinite": false,
        "nextlayerid": 2, "nextobjectid": 1,
        "layers": [{"type": "tilelayer", "id": 1, "name": "tilemap", "x": 0, "y": 0,
                    "width": map.width, "height": map.height, "opacity": 1, "visible": true,
                    "data": data}],
        "tilesets": [{"firstgid": 1, "name": format!("image{}", map.image),
                      "tilewidth": TILE, "tileheight": TILE,
                      "tilecount": columns * (image.height / TILE), "columns": columns,
                      "image": image_file, "imagewidth": image.width,
                      "imageheight": image.height, "margin": 0, "spacing": 0}],
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// BT's pitch for Pyxel's note `note` played with `tone`, if BT has it.
fn bt_pitch(note: i8, tone: u8) -> Option<u8> {
    let offset = if usize::from(tone) == WAVES.len() - 1 {
        NOISE_PITCH_OFFSET
    } else {
        TONE_PITCH_OFFSET
    };
    u8::try_from(i64::from(note) + offset)
        .ok()
        .filter(|&p| p <= bt::sound::MAX_PITCH)
}

/// The `bt-sound 2` file for the sounds and musics, or `None` when no sound has a note.
fn sound_file(shown: &str, r: &Resource) -> Result<Option<String>, String> {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    let mut out = format!(
        "{}\n# Imported from Pyxel: soundN is pyxel.sounds[N], musicN pyxel.musics[N] (add\n\
         # `loop` after a seq's name for playm(N, loop=True)). Speeds count 120ths of a second.\n",
        bt::sound::SOUND_FILE_HEADER
    );
    let mut written = vec![false; r.sounds.len()];
    for (i, s) in r.sounds.iter().enumerate() {
        if s.notes.is_empty() {
            continue;
        }
        let at = |what: &str, j: usize| format!("{shown}: sounds[{i}].{what}[{j}]");
        if s.speed == 0 {
            return Err(format!(
                "{shown}: sounds[{i}].speed: 0 (a note needs 1 or more)"
            ));
        }
        if s.notes.len() > bt::sound::MAX_NOTES {
            return Err(format!(
                "{shown}: sounds[{i}].notes: {} notes, more than the {} of a BT sound effect",
                s.notes.len(),
                bt::sound::MAX_NOTES
            ));
        }
        // Pyxel reads tones, volumes and effects round and round, a default for an empty list.
        let cycled = |list: &[u8], j: usize, default: u8| {
            list.get(j % list.len().max(1)).copied().unwrap_or(default)
        };
        let mut body = String::new();
        let mut vibrato = false;
        for (j, &note) in s.notes.iter().enumerate() {
            if note < 0 {
                body.push_str("--\n");
                continue;
            }
            let tone = cycled(&s.tones, j, DEFAULT_TONE);
            let volume = cycled(&s.volumes, j, DEFAULT_VOLUME);
            let effect = cycled(&s.effects, j, 0);
            let wave = WAVES.get(usize::from(tone)).ok_or_else(|| {
                format!(
                    "{}: tone {tone} is not one of Pyxel's 0 to 3 (triangle, square, pulse, noise)",
                    at("tones", j % s.tones.len().max(1))
                )
            })?;
            if volume > bt::sound::MAX_NOTE_VOLUME {
                return Err(format!(
                    "{}: volume {volume} is past 7",
                    at("volumes", j % s.volumes.len().max(1))
                ));
            }
            let effect_word = EFFECTS.get(usize::from(effect)).ok_or_else(|| {
                format!(
                    "{}: effect {effect} is not one of Pyxel's 0 to 5",
                    at("effects", j % s.effects.len().max(1))
                )
            })?;
            vibrato |= effect == EFFECT_VIBRATO;
            let pitch = bt_pitch(note, tone).ok_or_else(|| {
                format!(
                    "{}: note {note} with tone {tone} is past BT's highest pitch, B7",
                    at("notes", j)
                )
            })?;
            let _ = writeln!(
                body,
                "{}{} {wave} {volume}{effect_word}",
                NAMES[usize::from(pitch % 12)],
                pitch / 12
            );
        }
        let _ = write!(out, "\nsfx sound{i} {}", s.speed);
        if vibrato {
            let _ = write!(
                out,
                " vibrato={PYXEL_VIBRATO_HZ} vibrato_depth={PYXEL_VIBRATO_CENTS}"
            );
        }
        out.push('\n');
        out.push_str(&body);
        written[i] = true;
    }
    if !written.contains(&true) {
        return Ok(None);
    }
    for (i, channels) in r.musics.iter().enumerate() {
        // Empty channels at the end play nothing (Pyxel drops them when it saves).
        let used = channels
            .iter()
            .rposition(|seq| !seq.is_empty())
            .map_or(0, |last| last + 1);
        if used > bt::sound::CHANNELS {
            return Err(format!(
                "{shown}: musics[{i}].seqs: {used} channels, more than BT's {}",
                bt::sound::CHANNELS
            ));
        }
        let mut lines = String::new();
        for (c, seq) in channels.iter().enumerate() {
            let mut names = Vec::new();
            for (k, &n) in seq.iter().enumerate() {
                match written.get(n as usize) {
                    // A sound with no notes plays nothing and takes no time: left out.
                    Some(false) => {}
                    Some(true) => names.push(format!("sound{n}")),
                    None => {
                        return Err(format!(
                            "{shown}: musics[{i}].seqs[{c}][{k}]: sound {n} is not in the file \
                             ({} sounds)",
                            r.sounds.len()
                        ))
                    }
                }
            }
            if !names.is_empty() {
                let _ = writeln!(lines, "{c} {}", names.join(" "));
            }
        }
        if !lines.is_empty() {
            let _ = write!(out, "\nseq music{i}\n{lines}");
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests;
