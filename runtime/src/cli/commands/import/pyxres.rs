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

use std::path::Path;

use toml::Value;

use super::zip::Zip;
use crate::config::data_file::read_asset_file;
use crate::export::safe_write::Format;

/// The longest `.pyxres` read. Pyxel's own, with every bank full, pack into a few hundred KB.
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
    let bytes = read_asset_file(shown, path, MAX_PYXRES_FILE).map_err(|e| e.to_string())?;
    let resource = read(shown, &bytes)?;
    let palette_path = path.with_extension("pyxpal");
    let palette = if palette_path.is_file() {
        let name = palette_path.display().to_string();
        let bytes =
            read_asset_file(&name, &palette_path, MAX_PALETTE_FILE).map_err(|e| e.to_string())?;
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
        return read_old(shown, &zip);
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
    parse_toml(text).map_err(|e| format!("{shown}: {TOML_ENTRY}: {e}"))
}

/// Pyxel 2's TOML. Errors name the field (`images[0].data[3][7]`) and the value.
fn parse_toml(text: &str) -> Result<Resource, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        let message = e.message().lines().next().unwrap_or("").to_string();
        match line {
            Some(line) => format!("line {line}: not TOML: {message}"),
            None => format!("not TOML: {message}"),
        }
    })?;
    let version = int(
        field(&table, "format_version", "")?,
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
    for (i, v) in array(field(&table, "images", "")?, "images")?
        .iter()
        .enumerate()
    {
        let at = format!("images[{i}]");
        let t = v.as_table().ok_or_else(|| format!("{at}: not a table"))?;
        let width = size(t, "width", &at, bt::limits::MAX_SHEET_SIDE)?;
        let height = size(t, "height", &at, bt::limits::MAX_SHEET_SIDE)?;
        take(&mut budget.0, width, height, &at, "pixels", MAX_PIXELS)?;
        let values = grid(t, &at, width, height, 1, 255)?;
        r.images.push(Image {
            width,
            height,
            pixels: values.into_iter().map(|v| v as u8).collect(),
        });
    }
    for (i, v) in array(field(&table, "tilemaps", "")?, "tilemaps")?
        .iter()
        .enumerate()
    {
        let at = format!("tilemaps[{i}]");
        let t = v.as_table().ok_or_else(|| format!("{at}: not a table"))?;
        let width = size(t, "width", &at, u32::MAX)?;
        let height = size(t, "height", &at, u32::MAX)?;
        take(&mut budget.1, width, height, &at, "cells", MAX_CELLS)?;
        let image = int(
            field(t, "imgsrc", &at)?,
            0,
            i64::from(u32::MAX),
            &format!("{at}.imgsrc"),
        )?;
        let values = grid(t, &at, width, height, 2, i64::from(u16::MAX))?;
        r.tilemaps.push(Tilemap {
            width,
            height,
            image: image as u32,
            cells: values.chunks(2).map(|c| (c[0], c[1])).collect(),
        });
    }
    for (i, v) in array(field(&table, "sounds", "")?, "sounds")?
        .iter()
        .enumerate()
    {
        let at = format!("sounds[{i}]");
        let t = v.as_table().ok_or_else(|| format!("{at}: not a table"))?;
        let list = |key: &str, lo: i64, hi: i64| -> Result<Vec<i64>, String> {
            let at = format!("{at}.{key}");
            array(field(t, key, "")?, &at)?
                .iter()
                .enumerate()
                .map(|(j, v)| int(v, lo, hi, &format!("{at}[{j}]")))
                .collect()
        };
        r.sounds.push(Sound {
            notes: list("notes", -128, 127)?
                .into_iter()
                .map(|v| v as i8)
                .collect(),
            tones: list("tones", 0, 255)?
                .into_iter()
                .map(|v| v as u8)
                .collect(),
            volumes: list("volumes", 0, 255)?
                .into_iter()
                .map(|v| v as u8)
                .collect(),
            effects: list("effects", 0, 255)?
                .into_iter()
                .map(|v| v as u8)
                .collect(),
            speed: int(field(t, "speed", &at)?, 0, 65535, &format!("{at}.speed"))? as u16,
        });
    }
    for (i, v) in array(field(&table, "musics", "")?, "musics")?
        .iter()
        .enumerate()
    {
        let at = format!("musics[{i}]");
        let t = v.as_table().ok_or_else(|| format!("{at}: not a table"))?;
        let seqs = array(field(t, "seqs", &at)?, &format!("{at}.seqs"))?;
        let mut channels = Vec::with_capacity(seqs.len());
        for (c, seq) in seqs.iter().enumerate() {
            let at = format!("{at}.seqs[{c}]");
            channels.push(
                array(seq, &at)?
                    .iter()
                    .enumerate()
                    .map(|(k, v)| {
                        int(v, 0, i64::from(u32::MAX), &format!("{at}[{k}]")).map(|n| n as u32)
                    })
                    .collect::<Result<Vec<u32>, String>>()?,
            );
        }
        r.musics.push(channels);
    }
    Ok(r)
}

fn field<'t>(t: &'t toml::Table, key: &str, at: &str) -> Result<&'t Value, String> {
    t.get(key).ok_or_else(|| {
        if at.is_empty() {
            format!("no '{key}'")
        } else {
            format!("{at}: no '{key}'")
        }
    })
}

fn array<'v>(v: &'v Value, at: &str) -> Result<&'v [Value], String> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{at}: {} where an array belongs", kind(v)))
}

fn int(v: &Value, lo: i64, hi: i64, at: &str) -> Result<i64, String> {
    match v.as_integer() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        Some(n) => Err(format!("{at}: {n} is out of range ({lo} to {hi})")),
        None => Err(format!("{at}: {} where a whole number belongs", kind(v))),
    }
}

/// What a value is, for a message: its type and, when short, the value.
fn kind(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the text {}", bt::host::quoted(s)),
        Value::Float(f) => format!("the number {}", crate::quote::number(*f)),
        Value::Boolean(b) => format!("{b}"),
        Value::Array(_) => "an array".into(),
        Value::Table(_) => "a table".into(),
        Value::Integer(n) => format!("{n}"),
        Value::Datetime(d) => format!("the date {d}"),
    }
}

/// A `width` or `height`: 1 to `max`.
fn size(t: &toml::Table, key: &str, at: &str, max: u32) -> Result<u32, String> {
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
/// with its last value, the rows filled out with the last row.
fn grid(
    t: &toml::Table,
    at: &str,
    width: u32,
    height: u32,
    per_cell: usize,
    max: i64,
) -> Result<Vec<u16>, String> {
    let rows = array(field(t, "data", at)?, &format!("{at}.data"))?;
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
        let row = array(row, &at)?;
        if row.is_empty() || row.len() > width {
            return Err(format!(
                "{at}: {} values where a row holds 1 to {width}",
                row.len()
            ));
        }
        for (x, v) in row.iter().enumerate() {
            out.push(int(v, 0, max, &format!("{at}[{x}]"))? as u16);
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

/// Pyxel 1's layout: `pyxel_resource/image0` … as text, hexadecimal digits, banks of a fixed
/// 256 × 256.
fn read_old(shown: &str, zip: &Zip<'_>) -> Result<Resource, String> {
    const SIDE: usize = 256;
    let entry = |name: &str| -> Result<Option<String>, String> {
        let bytes = zip
            .entry(name, MAX_OLD_ENTRY)
            .map_err(|e| format!("{shown}: {e}"))?;
        Ok(bytes.map(|b| String::from_utf8_lossy(&b).into_owned()))
    };
    let version_text = entry(OLD_VERSION_ENTRY)?.unwrap_or_default();
    // 1.5.0 widened a tile from 3 digits (a tile number) to 4 (two bytes, tx and ty).
    let parts: Vec<u32> = version_text
        .trim()
        .split('.')
        .map(|p| p.parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "{shown}: {OLD_VERSION_ENTRY}: '{}' is not a version like 1.4.3",
                crate::quote::excerpt(version_text.trim())
            )
        })?;
    let wide_tiles = parts.as_slice() >= [1, 5].as_slice();
    let hex = |c: char, at: &dyn Fn() -> String| {
        c.to_digit(16)
            .ok_or_else(|| format!("{}: '{}' is not hexadecimal", at(), c.escape_debug()))
    };
    let mut r = Resource::default();
    for i in 0..3 {
        let name = format!("pyxel_resource/image{i}");
        let mut pixels = vec![0u8; SIDE * SIDE];
        if let Some(text) = entry(&name)? {
            for (y, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", y + 1);
                if y >= SIDE || line.chars().count() > SIDE {
                    return Err(format!("{}: past the image's {SIDE} × {SIDE}", at()));
                }
                for (x, c) in line.chars().enumerate() {
                    pixels[y * SIDE + x] = hex(c, &at)? as u8;
                }
            }
        }
        r.images.push(Image {
            width: SIDE as u32,
            height: SIDE as u32,
            pixels,
        });
    }
    for i in 0..8 {
        let name = format!("pyxel_resource/tilemap{i}");
        let mut cells = vec![(0u16, 0u16); SIDE * SIDE];
        let mut image = 0;
        if let Some(text) = entry(&name)? {
            let digits = if wide_tiles { 4 } else { 3 };
            for (y, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", y + 1);
                if y == SIDE {
                    // After the rows, the image the tiles come from.
                    image = line.trim().parse::<u32>().map_err(|_| {
                        format!(
                            "{}: '{}' is not an image number",
                            at(),
                            crate::quote::excerpt(line)
                        )
                    })?;
                    continue;
                }
                let chars: Vec<char> = line.chars().collect();
                if y > SIDE || !chars.len().is_multiple_of(digits) || chars.len() / digits > SIDE {
                    return Err(format!(
                        "{}: not up to {SIDE} tiles of {digits} hexadecimal digits",
                        at()
                    ));
                }
                for (x, group) in chars.chunks(digits).enumerate() {
                    let mut v = 0u32;
                    for &c in group {
                        v = v << 4 | hex(c, &at)?;
                    }
                    cells[y * SIDE + x] = if wide_tiles {
                        ((v >> 8) as u16, (v & 0xff) as u16)
                    } else {
                        ((v % 32) as u16, (v / 32) as u16)
                    };
                }
            }
        }
        r.tilemaps.push(Tilemap {
            width: SIDE as u32,
            height: SIDE as u32,
            image,
            cells,
        });
    }
    for i in 0..64 {
        let name = format!("pyxel_resource/sound{i:02}");
        let mut sound = Sound {
            speed: 30,
            ..Sound::default()
        };
        if let Some(text) = entry(&name)? {
            for (n, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", n + 1);
                let line = line.trim();
                if line == "none" || n > 4 {
                    continue;
                }
                if n == 4 {
                    sound.speed = line.parse().map_err(|_| {
                        format!("{}: '{}' is not a speed", at(), crate::quote::excerpt(line))
                    })?;
                    continue;
                }
                let width = if n == 0 { 2 } else { 1 };
                let chars: Vec<char> = line.chars().collect();
                if !chars.len().is_multiple_of(width) {
                    return Err(format!("{}: not pairs of hexadecimal digits", at()));
                }
                for group in chars.chunks(width) {
                    let mut v = 0u32;
                    for &c in group {
                        v = v << 4 | hex(c, &at)?;
                    }
                    match n {
                        0 => sound.notes.push(v as u8 as i8),
                        1 => sound.tones.push(v as u8),
                        2 => sound.volumes.push(v as u8),
                        _ => sound.effects.push(v as u8),
                    }
                }
            }
        }
        r.sounds.push(sound);
    }
    for i in 0..8 {
        let name = format!("pyxel_resource/music{i}");
        let mut channels = Vec::new();
        if let Some(text) = entry(&name)? {
            for (c, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", c + 1);
                let line = line.trim();
                let chars: Vec<char> = line.chars().collect();
                let mut seq = Vec::new();
                if line != "none" {
                    if !chars.len().is_multiple_of(2) {
                        return Err(format!("{}: not pairs of hexadecimal digits", at()));
                    }
                    for pair in chars.chunks(2) {
                        seq.push(hex(pair[0], &at)? << 4 | hex(pair[1], &at)?);
                    }
                }
                channels.push(seq);
            }
        }
        r.musics.push(channels);
    }
    Ok(r)
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
    let rgb: Vec<u8> = palette
        .iter()
        .flat_map(|&c| [(c >> 16) as u8, (c >> 8) as u8, c as u8])
        .collect();
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, image.width, image.height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(rgb);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&image.pixels)
        .map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
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
            vibrato |= usize::from(effect) == 2;
            let pitch = bt_pitch(note, tone).ok_or_else(|| {
                format!(
                    "{}: note {note} with tone {tone} is past BT's highest pitch, B7",
                    at("notes", j)
                )
            })?;
            let _ = std::fmt::Write::write_fmt(
                &mut body,
                format_args!(
                    "{}{} {wave} {volume}{effect_word}\n",
                    NAMES[usize::from(pitch % 12)],
                    pitch / 12
                ),
            );
        }
        out.push_str(&format!("\nsfx sound{i} {}", s.speed));
        if vibrato {
            out.push_str(&format!(
                " vibrato={PYXEL_VIBRATO_HZ} vibrato_depth={PYXEL_VIBRATO_CENTS}"
            ));
        }
        out.push('\n');
        out.push_str(&body);
        written[i] = true;
    }
    if !written.contains(&true) {
        return Ok(None);
    }
    for (i, channels) in r.musics.iter().enumerate() {
        if channels.len() > bt::sound::CHANNELS {
            return Err(format!(
                "{shown}: musics[{i}].seqs: {} channels, more than BT's {}",
                channels.len(),
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
                lines.push_str(&format!("{c} {}\n", names.join(" ")));
            }
        }
        if !lines.is_empty() {
            out.push_str(&format!("\nseq music{i}\n{lines}"));
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::commands::import::zip::tests::zip;
    use bt::sound::{Effect, FileTune, SoundFile, Wave};

    /// Pyxel's rule for a note's frequency: note `n` is MIDI note `n + 36` on a tone, `n + 60`
    /// on noise, and MIDI 69 is 440 Hz.
    fn pyxel_hz(note: i8, noise: bool) -> f64 {
        let midi = f64::from(note) + if noise { 60.0 } else { 36.0 };
        440.0 * ((midi - 69.0) / 12.0).exp2()
    }

    /// BT's rule (sound.md): pitch 57 is A4, 440 Hz, a semitone a step.
    fn bt_hz(pitch: u8) -> f64 {
        440.0 * ((f64::from(pitch) - 57.0) / 12.0).exp2()
    }

    /// A resource file made for the tests: a 16 × 16 image written short (rows stop early, and
    /// the rows stop early), a blank image, a tilemap over the first and one all (0, 0), three
    /// sounds (one empty) and two musics (one empty).
    const TOML: &str = r#"format_version = 1

[[images]]
width = 16
height = 16
data = [[0, 8, 8, 3], [7], [1, 2]]

[[images]]
width = 8
height = 8
data = [[0]]

[[tilemaps]]
width = 4
height = 2
imgsrc = 0
data = [[1, 0, 0, 1], [0, 0]]

[[tilemaps]]
width = 2
height = 2
imgsrc = 1
data = [[0]]

[[sounds]]
notes = [33, -1, 0, 59, 45]
tones = [1, 3]
volumes = [7, 5]
effects = [0, 1, 2, 4, 1]
speed = 30

[[sounds]]
notes = []
tones = []
volumes = []
effects = []
speed = 30

[[sounds]]
notes = [24]
tones = []
volumes = []
effects = []
speed = 7

[[musics]]
seqs = [[0, 1, 2], [], [2]]

[[musics]]
seqs = []
"#;

    fn pyxres(toml: &str) -> Vec<u8> {
        zip(&[(TOML_ENTRY, toml.as_bytes(), true)])
    }

    fn import(bytes: &[u8]) -> Result<Vec<(String, Format, Vec<u8>)>, String> {
        convert(
            "game.pyxres",
            &read("game.pyxres", bytes)?,
            &PYXEL_COLORS,
            "game",
        )
    }

    fn file<'f>(files: &'f [(String, Format, Vec<u8>)], name: &str) -> &'f [u8] {
        &files.iter().find(|f| f.0 == name).unwrap().2
    }

    fn no_tiles(s: &str) -> Result<(String, String), bt::AssetError> {
        Err(bt::AssetError::new(s, bt::AssetErrorKind::NotFound))
    }

    #[test]
    fn a_pyxel_2_file_becomes_an_indexed_png_a_tiled_map_and_sounds() {
        let files = import(&pyxres(TOML)).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        // The blank image and the all-(0, 0) tilemap are left out.
        assert_eq!(
            names,
            ["game-image0.png", "game-tilemap0.tmj", "game-sounds.txt"]
        );

        // Pixels: Pyxel's colour numbers as the PNG's indices, each short row filled out with
        // its last value and the missing rows with the last row.
        let png = file(&files, "game-image0.png");
        let img = crate::config::png_loader::decode_png_indices("i.png", png).unwrap();
        assert_eq!((img.width, img.height), (16, 16));
        let rows: [&[u8]; 3] = [&[0, 8, 8, 3], &[7], &[1, 2]];
        for y in 0..16 {
            let row = rows[y.min(2)];
            for x in 0..16 {
                assert_eq!(
                    img.pixels[y * 16 + x],
                    row[x.min(row.len() - 1)],
                    "({x}, {y})"
                );
            }
        }
        // Colours: Pyxel's palette (its colour 8 is d4186c, 7 eeeeee), nothing see-through.
        use bt::host::ImageLoader as _;
        let rgba = crate::config::png_loader::PngLoader
            .decode("i.png", png)
            .unwrap();
        assert_eq!(&rgba.pixels[4..8], [0xd4, 0x18, 0x6c, 0xff]);
        assert_eq!(&rgba.pixels[16 * 4..16 * 4 + 4], [0xee, 0xee, 0xee, 0xff]);
        assert_eq!(
            rgba.pixels[3], 0xff,
            "colour 0 is drawn, as Pyxel's blt draws it"
        );

        // The map: tile (tx, ty) of a 16-pixel-wide image is tile ty × 2 + tx, (0, 0) a tile.
        let text = std::str::from_utf8(file(&files, "game-tilemap0.tmj")).unwrap();
        let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
        assert_eq!(map.size(), (4, 2));
        // Row 0 is [1, 0, 0, 1] filled out with 1: cells (1, 0), (0, 1), (1, 1), (1, 1).
        let row0: Vec<Option<u16>> = (0..4).map(|x| map.tile(0, x, 0)).collect();
        assert_eq!(row0, [Some(1), Some(2), Some(3), Some(3)]);
        assert_eq!(
            map.tile(0, 3, 1),
            Some(0),
            "(0, 0) is the image's first tile"
        );
        let doc: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(doc["tilesets"][0]["image"], "game-image0.png");

        // The sounds, read back as a cart reads them.
        let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
        let sounds = SoundFile::parse("game-sounds.txt", text).unwrap();
        let names: Vec<&str> = sounds.sfx.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(names, ["sound0", "sound2"], "the empty sound is left out");
        let sound0 = &sounds.sfx[0].1;
        // Speed: Pyxel's note lasts speed / 120 s; so does BT's.
        assert_eq!(sound0.speed, 30);
        assert_eq!(
            sound0.length_units() as f64 / f64::from(bt::sound::UNITS_PER_SECOND),
            5.0 * 30.0 / 120.0
        );
        let n = &sound0.notes;
        assert_eq!(n.len(), 5);
        // Note 0: 33 on a square, which Pyxel plays at 440 Hz.
        assert_eq!(n[0].wave, Wave::Square { duty: 128 });
        assert!((bt_hz(n[0].pitch) - pyxel_hz(33, false)).abs() < 1e-9);
        assert!((bt_hz(n[0].pitch) - 440.0).abs() < 1e-9);
        assert_eq!((n[0].volume, n[0].effect), (7, Effect::None));
        assert_eq!(n[1].volume, 0, "-1 is a rest");
        // Note 2: tones, volumes and effects read round and round (square, 7, vibrato).
        assert!((bt_hz(n[2].pitch) - pyxel_hz(0, false)).abs() < 1e-9);
        assert_eq!((n[2].volume, n[2].effect), (7, Effect::Vibrato));
        // Note 3: noise. Pyxel takes one random step a period of its frequency, BT 16 a
        // period of its pitch: the same steps a second.
        assert_eq!(n[3].wave, Wave::Noise);
        assert!((16.0 * bt_hz(n[3].pitch) - pyxel_hz(59, true)).abs() < 1e-6);
        assert_eq!(
            (n[3].volume, n[3].effect),
            (5, Effect::FadeOut),
            "half fade-out"
        );
        assert_eq!(n[4].effect, Effect::Slide);
        // Pyxel's vibrato: 6 Hz (20 of its 120 ticks a second), 25 cents.
        assert_eq!(sound0.vibrato, bt::sound::Hz::new(6));
        assert_eq!(sound0.vibrato_depth, 25);
        // Empty lists take Pyxel's defaults: triangle, volume 7, no effect.
        let sound2 = &sounds.sfx[1].1;
        assert_eq!(sound2.speed, 7);
        assert_eq!(sound2.notes[0].wave, Wave::Triangle);
        assert_eq!(
            (sound2.notes[0].volume, sound2.notes[0].effect),
            (7, Effect::None)
        );
        assert!((bt_hz(sound2.notes[0].pitch) - pyxel_hz(24, false)).abs() < 1e-9);

        // The music: a list per channel, the empty sound dropped, the empty music left out.
        assert_eq!(sounds.music.len(), 1);
        assert_eq!(sounds.music[0].name, "music0");
        match &sounds.music[0].tune {
            FileTune::Sequences { channels, looping } => {
                assert_eq!(
                    channels,
                    &[vec![0, 1], vec![], vec![1], vec![]],
                    "sound0 sound2 | - | sound2"
                );
                assert!(!looping, "looping is playm's argument, not the file's");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pulse_is_a_quarter_duty_square() {
        let toml = TOML.replace("tones = [1, 3]", "tones = [2]");
        let files = import(&pyxres(&toml)).unwrap();
        let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
        let sounds = SoundFile::parse("s.txt", text).unwrap();
        // Pyxel's pulse is the wavetable [1, 0, 0, 0]: high a quarter of the period.
        assert_eq!(sounds.sfx[0].1.notes[0].wave, Wave::Square { duty: 64 });
    }

    #[test]
    fn a_palette_file_gives_the_colours_and_more_of_them() {
        let dir = bt_test_support::ScratchDir::new("pyxres-palette");
        let toml = TOML.replace("[7], [1, 2]", "[7], [1, 20]");
        std::fs::write(dir.join("game.pyxres"), pyxres(&toml)).unwrap();
        let path = dir.join("game.pyxres");
        let e = files("game.pyxres", &path, "game").unwrap_err();
        assert_eq!(
            e,
            "game.pyxres: images[0] pixel (1, 2): colour 20 is past the palette's 16 colours"
        );
        let mut pal: String = (0..21).map(|i| format!("{:06x}\n", i * 0x010101)).collect();
        std::fs::write(dir.join("game.pyxpal"), &pal).unwrap();
        let out = files("game.pyxres", &path, "game").unwrap();
        use bt::host::ImageLoader as _;
        let rgba = crate::config::png_loader::PngLoader
            .decode("i.png", file(&out, "game-image0.png"))
            .unwrap();
        assert_eq!(&rgba.pixels[(2 * 16 + 1) * 4..][..3], [20, 20, 20]);
        pal.push_str("12345g\n");
        std::fs::write(dir.join("game.pyxpal"), &pal).unwrap();
        let e = files("game.pyxres", &path, "game").unwrap_err();
        assert!(
            e.ends_with("game.pyxpal:22: '12345g' is not a colour RRGGBB"),
            "{e}"
        );
    }

    #[test]
    fn bad_files_are_named_with_the_entry_the_field_and_the_value() {
        let e = |toml: &str| import(&pyxres(toml)).unwrap_err();
        let p = "game.pyxres: pyxel_resource.toml:";
        for (from, to, want) in [
            ("width = 16", "width = \"16\"", format!("{p} images[0].width: the text \"16\" where a whole number belongs")),
            ("[7], [1, 2]", "[7], [1, 256]", format!("{p} images[0].data[2][1]: 256 is out of range (0 to 255)")),
            ("[7], [1, 2]", "[7], 3", format!("{p} images[0].data[2]: 3 where an array belongs")),
            ("format_version = 1", "format_version = 9", format!("{p} format_version 9: written by a newer Pyxel than this reader knows (versions up to 4)")),
            ("format_version = 1\n", "", format!("{p} no 'format_version'")),
            ("height = 2\nimgsrc = 0", "height = 1\nimgsrc = 0", format!("{p} tilemaps[0].data: 2 rows where height is 1")),
            ("speed = 7", "speed = -7", format!("{p} sounds[2].speed: -7 is out of range (0 to 65535)")),
            ("notes = [24]", "notes = [24.5]", format!("{p} sounds[2].notes[0]: the number 24.5 where a whole number belongs")),
            ("data = [[1, 0, 0, 1], [0, 0]]", "data = [[1, 0, 2, 1], [0, 0]]", "game.pyxres: tilemaps[0] cell (1, 0): tile (2, 1) is outside image 0 (2 × 2 tiles)".into()),
            ("imgsrc = 0", "imgsrc = 5", "game.pyxres: tilemaps[0].imgsrc: image 5 is not in the file (2 images)".into()),
            ("[7], [1, 2]", "[7], [1, 16]", "game.pyxres: images[0] pixel (1, 2): colour 16 is past the palette's 16 colours".into()),
            ("tones = [1, 3]", "tones = [1, 4]", "game.pyxres: sounds[0].tones[1]: tone 4 is not one of Pyxel's 0 to 3 (triangle, square, pulse, noise)".into()),
            ("volumes = [7, 5]", "volumes = [7, 8]", "game.pyxres: sounds[0].volumes[1]: volume 8 is past 7".into()),
            ("effects = [0, 1, 2, 4, 1]", "effects = [0, 1, 6]", "game.pyxres: sounds[0].effects[2]: effect 6 is not one of Pyxel's 0 to 5".into()),
            ("notes = [24]", "notes = [72]", "game.pyxres: sounds[2].notes[0]: note 72 with tone 0 is past BT's highest pitch, B7".into()),
            ("speed = 7", "speed = 0", "game.pyxres: sounds[2].speed: 0 (a note needs 1 or more)".into()),
            ("[[0, 1, 2], [], [2]]", "[[0, 9]]", "game.pyxres: musics[0].seqs[0][1]: sound 9 is not in the file (3 sounds)".into()),
            ("[[0, 1, 2], [], [2]]", "[[0], [0], [0], [0], [0]]", "game.pyxres: musics[0].seqs: 5 channels, more than BT's 4".into()),
        ] {
            assert!(TOML.contains(from), "{from}");
            assert_eq!(e(&TOML.replacen(from, to, 1)), want);
        }
        assert_eq!(
            e("format_version = 1\nimages = [\n"),
            format!("{p} line 3: not TOML: invalid array")
        );
        let notes: Vec<String> = (0..65).map(|_| "1".to_string()).collect();
        assert_eq!(
            e(&TOML.replace("notes = [24]", &format!("notes = [{}]", notes.join(", ")))),
            "game.pyxres: sounds[2].notes: 65 notes, more than the 64 of a BT sound effect"
        );
        let blank = "format_version = 1\nimages = []\ntilemaps = []\nsounds = []\nmusics = []\n";
        assert!(
            e(blank).starts_with("game.pyxres: nothing to import"),
            "{}",
            e(blank)
        );
    }

    #[test]
    fn hostile_archives_are_refused_without_panicking() {
        let e = |bytes: &[u8]| import(bytes).unwrap_err();
        assert_eq!(
            e(b"format_version = 1"),
            "game.pyxres: not a zip archive (no end-of-directory record)"
        );
        assert_eq!(
            e(&zip(&[("notes.txt", b"hi", false)])),
            "game.pyxres: not a Pyxel resource file: no pyxel_resource.toml inside (it holds notes.txt)"
        );
        assert_eq!(
            e(&zip(&[(TOML_ENTRY, b"\xff\xfe", false)])),
            "game.pyxres: pyxel_resource.toml: not UTF-8 text (byte 0)"
        );
        // A bomb: 32 MB of spaces packed into a few tens of KB, refused from its declared size.
        let spaces = vec![b' '; 32 << 20];
        let bomb = zip(&[(TOML_ENTRY, &spaces, true)]);
        assert!(bomb.len() < 100_000);
        assert_eq!(
            e(&bomb),
            "game.pyxres: pyxel_resource.toml: unpacks to 33554432 bytes, more than the 16777216 read"
        );
        // A tiny file asking for a huge bank: refused before anything is expanded.
        let huge = "format_version = 1\nimages = []\nsounds = []\nmusics = []\n\
                    [[tilemaps]]\nwidth = 4000000000\nheight = 4000000000\nimgsrc = 0\ndata = [[0]]\n";
        assert_eq!(
            e(&pyxres(huge)),
            "game.pyxres: pyxel_resource.toml: tilemaps[0]: 4000000000 × 4000000000 takes the banks past 4194304 cells in all"
        );
        let wide = TOML.replace("width = 16", "width = 9000");
        assert_eq!(
            e(&pyxres(&wide)),
            "game.pyxres: pyxel_resource.toml: images[0].width: 9000 is out of range (1 to 8192)"
        );
        // Every truncation and many damaged bytes of a real file: an error, never a panic.
        let real = include_bytes!("../../../../tests/pyxres/platformer.pyxres");
        for cut in (0..real.len()).step_by(7) {
            assert!(import(&real[..cut]).is_err());
        }
        for i in (0..real.len()).step_by(3) {
            let mut bad = real.to_vec();
            bad[i] ^= 0x5a;
            let _ = import(&bad);
        }
    }

    #[test]
    fn pyxel_1_files_read_as_their_pyxel_2_saves_do() {
        // Pyxel's jump_game example as Pyxel 1.x saved it and as Pyxel 2 saved it again.
        let old = import(include_bytes!(
            "../../../../tests/pyxres/jump_game_pyxel1.pyxres"
        ))
        .unwrap();
        let new = import(include_bytes!("../../../../tests/pyxres/jump_game.pyxres")).unwrap();
        assert_eq!(
            std::str::from_utf8(file(&old, "game-sounds.txt")).unwrap(),
            std::str::from_utf8(file(&new, "game-sounds.txt")).unwrap()
        );
        let pixels = |files: &[(String, Format, Vec<u8>)]| {
            crate::config::png_loader::decode_png_indices("i.png", file(files, "game-image0.png"))
                .unwrap()
                .pixels
        };
        assert_eq!(pixels(&old), pixels(&new));
        // Sound 0 is notes 36, 28, 31, … on a triangle at volume 2 with Pyxel's fade-out,
        // speed 30: 36 is MIDI 72, C5.
        let text = std::str::from_utf8(file(&new, "game-sounds.txt")).unwrap();
        assert!(
            text.contains(
                "\nsfx sound0 30\nC5 tri 2 fadeout\nE4 tri 2 fadeout\nG4 tri 2 fadeout\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nseq music0\n0 sound0\n1 sound1\n2 sound2\n"),
            "{text}"
        );
    }

    #[test]
    fn old_tiles_of_three_digits_and_of_four_read_alike() {
        let entries = |version: &str, row: &str| {
            zip(&[
                (OLD_VERSION_ENTRY, version.as_bytes(), false),
                ("pyxel_resource/image0", b"0123456789abcdef\n", false),
                ("pyxel_resource/tilemap0", row.as_bytes(), false),
            ])
        };
        // Tile (1, 0) then (0, 1): 3 digits are a tile number, 32 a row; 4 are tx and ty.
        let three = import(&entries("1.4.3", "001020\n")).unwrap();
        let four = import(&entries("1.5.0", "01000001\n")).unwrap();
        let map = |files: &[(String, Format, Vec<u8>)]| {
            let text = std::str::from_utf8(file(files, "game-tilemap0.tmj")).unwrap();
            let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
            (map.tile(0, 0, 0), map.tile(0, 1, 0), map.tile(0, 2, 0))
        };
        // A 256-pixel image has 32 tiles a row.
        assert_eq!(map(&three), (Some(1), Some(32), Some(0)));
        assert_eq!(map(&three), map(&four));
        let e = import(&zip(&[
            (OLD_VERSION_ENTRY, b"1.5.0", false),
            ("pyxel_resource/image1", b"01x\n", false),
        ]))
        .unwrap_err();
        assert_eq!(
            e,
            "game.pyxres: pyxel_resource/image1:1: 'x' is not hexadecimal"
        );
    }

    #[test]
    fn a_real_pyxel_game_imports_whole() {
        // Pyxel's platformer example: a 256 × 256 image, a tilemap over it, sounds and music.
        let files = import(include_bytes!("../../../../tests/pyxres/platformer.pyxres")).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            ["game-image0.png", "game-tilemap0.tmj", "game-sounds.txt"]
        );
        let text = std::str::from_utf8(file(&files, "game-tilemap0.tmj")).unwrap();
        let map = crate::config::tiled::parse_tmj("m.tmj", text, &no_tiles).unwrap();
        assert_eq!(map.size(), (256, 256));
        let text = std::str::from_utf8(file(&files, "game-sounds.txt")).unwrap();
        let sounds = SoundFile::parse("s.txt", text).unwrap();
        match &sounds.music[0].tune {
            FileTune::Sequences { channels, .. } => {
                assert_eq!(channels[0].len(), 14);
                assert_eq!(channels[1].len(), 7);
                assert_eq!(channels[2].len(), 7);
            }
            other => panic!("{other:?}"),
        }
    }
}
