//! `bt import`: a PICO-8 cart's assets turned into BT's files.
//!
//! From a `.p8` file (PICO-8's text form) it writes, into the folder given:
//!
//! - `NAME.png`, the 128 × 128 sprite sheet as an indexed PNG with PICO-8's 16 colours, index 0
//!   transparent (PICO-8 draws colour 0 see-through by default, and so does BT's loader);
//! - `NAME.tmj`, the map's 128 × 64 cells as a Tiled map whose tileset carries the sprite flags
//!   as each tile's `flags` property (sprite 0 is an empty cell, as PICO-8's `map` skips it).
//!   Rows 32 to 63 are read where PICO-8 keeps them, in the lower half of the sprite sheet's
//!   memory (sheet rows 64 to 127, two pixels a cell): a cart uses that memory as sprites or as
//!   map, and the import writes it both ways, as the sheet's lower half and as the map's lower
//!   half, so either use finds what PICO-8 finds;
//! - `NAME-sounds.txt`, the sound effects and the music as a `bt-sound 2` file at PICO-8's own
//!   note length and pitch ([`p8_sound`]).
//!
//! The Lua code is not touched: it stays the author's to port.

use std::path::{Path, PathBuf};

use crate::cli::args::ImportArgs;
use crate::config::read::read_named;
use crate::export::safe_write::{Format, Output};

use super::*;

/// PICO-8's sound effects and music, into a `bt-sound 2` file at PICO-8's speed and pitch.
mod p8_sound;
/// Pyxel's `.pyxres`, read into the same kinds of files.
mod pyxres;
/// The zip archives a `.pyxres` is.
mod zip;

/// The longest `.p8` file read: PICO-8's own files stay well under a megabyte.
const MAX_P8_FILE: u64 = 4 << 20;

pub(super) fn import(args: ImportArgs) -> Result<(), String> {
    let shown = crate::quote::path(&args.file);
    let is = |ext: &str| {
        args.file
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
    };
    if !is("p8") && !is("pyxres") {
        return Err(format!(
            "{shown}: bt import reads PICO-8 carts in their text form (.p8) and Pyxel resource \
             files (.pyxres); save a .p8.png as .p8 first, or export its sheet as a PNG"
        ));
    }
    if args.output == Path::new("-") {
        return Err(
            "bt import writes several files into a folder, not a stream: give -o a folder".into(),
        );
    }
    let stem = file_stem(&shown, &args.file)?;
    if is("pyxres") {
        let files = pyxres::files(&shown, &args.file, &stem)?;
        return write_files(&args, &files);
    }
    let bytes = read_named("PICO-8 cart", &args.file, MAX_P8_FILE).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let made = p8_files(&shown, &stem, &text)?;
    let files = [
        (format!("{stem}.png"), Format::Png, made.sheet_png),
        (
            format!("{stem}.tmj"),
            Format::Any,
            made.map_tmj.into_bytes(),
        ),
        (
            format!("{stem}-sounds.txt"),
            Format::Any,
            made.sounds.into_bytes(),
        ),
    ];
    write_files(&args, &files)
}

/// The files `bt import` makes of the Pyxel resource file at `path` (and the `.pyxpal` of the
/// same name beside it, if there is one): each file's name and bytes.
///
/// # Errors
/// One line naming the file, as `bt import` says it: a file that cannot be read, is not a
/// resource file, breaks a limit or holds a value BT cannot carry over.
pub fn pyxres_files(path: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let shown = crate::quote::path(path);
    let stem = file_stem(&shown, path)?;
    Ok(pyxres::files(&shown, path, &stem)?
        .into_iter()
        .map(|(name, _, bytes)| (name, bytes))
        .collect())
}

/// Writes `files` into the output folder: none if one is there already (unless forced), and
/// every one complete on disk before any replaces what is there.
fn write_files(args: &ImportArgs, files: &[(String, Format, Vec<u8>)]) -> Result<(), String> {
    if !args.force {
        let there: Vec<String> = files
            .iter()
            .map(|(name, _, _)| args.output.join(name))
            .filter(|path| path.symlink_metadata().is_ok())
            .map(|path| crate::quote::path(&path))
            .collect();
        if !there.is_empty() {
            return Err(format!(
                "bt import would replace {}: give --force to replace them, or another folder",
                there.join(", ")
            ));
        }
    }
    check_output_folder(&args.output)?;
    std::fs::create_dir_all(&args.output).map_err(|e| {
        format!(
            "could not make the folder {}: {e}",
            crate::quote::path(&args.output)
        )
    })?;
    // Every file complete on disk before any replaces what is there.
    let mut ready = Vec::new();
    for (name, format, bytes) in files {
        let path: PathBuf = args.output.join(name);
        let output = Output::new(&path, *format).map_err(|e| e.to_string())?;
        ready.push(output.prepare(bytes).map_err(|e| e.to_string())?);
    }
    for r in ready {
        r.commit().map_err(|e| e.to_string())?;
    }
    for (name, _, _) in files {
        say(format_args!(
            "wrote {}\n",
            crate::quote::path(&args.output.join(name))
        ))?;
    }
    Ok(())
}

/// Refuses an output that cannot be a folder: a file, or a link to nothing (which making the
/// folder would meet as "File exists"). A link to a folder is written through, as every output
/// is, and the link kept.
fn check_output_folder(output: &Path) -> Result<(), String> {
    let shown = crate::quote::path(output);
    match (output.symlink_metadata(), output.metadata()) {
        (Ok(link), Err(_)) if link.file_type().is_symlink() => {
            let to =
                std::fs::read_link(output).map_or_else(|_| "?".into(), |t| crate::quote::path(&t));
            Err(format!(
                "-o {shown}: a link to {to}, which is not there: bt import writes into the \
                 folder a link leads to, so make {to} first, or give another folder"
            ))
        }
        (_, Ok(meta)) if !meta.is_dir() => Err(format!(
            "-o {shown}: a file, not a folder: bt import writes several files into a folder"
        )),
        _ => Ok(()),
    }
}

/// The name the written files share: the file's name before `.p8`. A name that is empty or
/// starts with a dot (`..p8`) would make hidden files, so it is refused.
fn file_stem(shown: &str, file: &Path) -> Result<String, String> {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("import");
    if stem.is_empty() || stem.starts_with('.') {
        return Err(format!(
            "{shown}: the files written are named after the cart's file, and '{stem}' would \
             make hidden files: rename the cart (for example to game.p8)"
        ));
    }
    Ok(stem.to_string())
}

/// The three files `bt import` makes of a `.p8` cart.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct P8Files {
    /// The sprite sheet: `<stem>.png`, indexed, PICO-8's 16 colours.
    pub sheet_png: Vec<u8>,
    /// The map: `<stem>.tmj`, a Tiled map whose embedded tileset is the sheet.
    pub map_tmj: String,
    /// The sound effects and music: `<stem>-sounds.txt`, a `bt-sound 1` file.
    pub sounds: String,
}

/// The files `bt import` makes of the `.p8` text `text`: `file` names it in errors and `stem`
/// names the files (the map names `<stem>.png` as its tileset's picture).
///
/// # Errors
/// One line naming `file` and the line of the first thing BT cannot read.
pub fn p8_files(file: &str, stem: &str, text: &str) -> Result<P8Files, String> {
    let cart = P8::parse(file, text)?;
    Ok(P8Files {
        sheet_png: cart.sheet_png()?,
        map_tmj: cart.map_tmj(&format!("{stem}.png")),
        sounds: cart.sounds(&p8_sound::lua_music_starts(text)),
    })
}

/// What of a `.p8` file BT reads.
struct P8 {
    /// 128 × 128 colour indices, 0 to 15.
    gfx: Vec<u8>,
    /// Flags of sprites 0 to 255.
    flags: [u8; 256],
    /// 128 × 32 sprite numbers: the map's upper half, from `__map__` (the lower half is
    /// [`P8::map_cells`]'s, from the sheet).
    map: Vec<u8>,
    /// 64 sound effects: `(speed, loop start, loop end, 32 notes of (pitch, wave, volume, effect))`.
    sfx: Vec<p8_sound::P8Sfx>,
    /// 64 patterns: `(flags, four channels: sfx number or None)`.
    music: Vec<p8_sound::P8Pattern>,
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

impl P8 {
    fn parse(file: &str, text: &str) -> Result<P8, String> {
        let mut p = P8 {
            gfx: vec![0; 128 * 128],
            flags: [0; 256],
            map: vec![0; 128 * 32],
            sfx: Vec::new(),
            music: Vec::new(),
        };
        // Editors on some systems start a UTF-8 file with a byte order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.starts_with("pico-8 cartridge") => {}
            _ => {
                return Err(format!(
                    "{file}:1: not a PICO-8 cart: the first line must be 'pico-8 cartridge …'"
                ))
            }
        }
        let mut section = "";
        let mut row = 0usize;
        // The sections read, with the line each began on.
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for (n, line) in lines {
            let line = line.trim_end();
            if line.starts_with("__") && line.ends_with("__") && line.len() > 4 {
                section = match &line[2..line.len() - 2] {
                    s @ ("gfx" | "gff" | "map" | "sfx" | "music" | "lua") => s,
                    _ => "",
                };
                if let Some(&(_, first)) = seen.iter().find(|(s, _)| *s == section) {
                    return Err(format!(
                        "{file}:{}: __{section}__ again (first at line {first}): PICO-8 writes \
                         each section once; join the two",
                        n + 1
                    ));
                }
                if !section.is_empty() {
                    seen.push((section, n + 1));
                }
                if section == "lua" {
                    section = "";
                }
                row = 0;
                continue;
            }
            if section.is_empty() || line.is_empty() {
                continue;
            }
            let bad = |what: &str| format!("{file}:{}: __{section}__: {what}", n + 1);
            let digits: Vec<u8> = match section {
                "music" => Vec::new(),
                _ => line
                    .bytes()
                    .map(hex)
                    .collect::<Option<Vec<u8>>>()
                    .ok_or_else(|| {
                        bad(&format!(
                            "'{}' is not hexadecimal",
                            crate::quote::excerpt(line)
                        ))
                    })?,
            };
            let want = |len: usize, rows: usize| -> Result<(), String> {
                if row >= rows {
                    return Err(bad(&format!("more than {rows} lines")));
                }
                if digits.len() != len {
                    return Err(bad(&format!(
                        "{} digits where a line has {len}",
                        digits.len()
                    )));
                }
                Ok(())
            };
            match section {
                "gfx" => {
                    want(128, 128)?;
                    p.gfx[row * 128..row * 128 + 128].copy_from_slice(&digits);
                }
                "gff" => {
                    want(256, 2)?;
                    for (i, pair) in digits.chunks(2).enumerate() {
                        p.flags[row * 128 + i] = pair[0] << 4 | pair[1];
                    }
                }
                "map" => {
                    want(256, 32)?;
                    for (i, pair) in digits.chunks(2).enumerate() {
                        p.map[row * 128 + i] = pair[0] << 4 | pair[1];
                    }
                }
                "sfx" => {
                    want(168, 64)?;
                    let byte = |i: usize| digits[i * 2] << 4 | digits[i * 2 + 1];
                    let notes = digits[8..]
                        .chunks(5)
                        .map(|d| [d[0] << 4 | d[1], d[2], d[3], d[4]])
                        .collect();
                    p.sfx.push((byte(1), byte(2), byte(3), notes));
                }
                "music" => {
                    let parts: Vec<&str> = line.split_whitespace().collect();
                    let (flags, channels) = match parts.as_slice() {
                        [f, c]
                            if f.len() == 2
                                && c.len() == 8
                                && f.bytes().chain(c.bytes()).all(|b| b.is_ascii_hexdigit()) =>
                        {
                            (*f, *c)
                        }
                        _ => {
                            return Err(bad(&format!(
                                "'{}' is not 'FF CCCCCCCC'",
                                crate::quote::excerpt(line)
                            )))
                        }
                    };
                    if row >= 64 {
                        return Err(bad("more than 64 lines"));
                    }
                    let num = |s: &str| {
                        u8::from_str_radix(s, 16).map_err(|_| {
                            bad(&format!(
                                "'{}' is not hexadecimal",
                                crate::quote::excerpt(s)
                            ))
                        })
                    };
                    let mut ch = [None; 4];
                    for (i, c) in ch.iter_mut().enumerate() {
                        let v = num(&channels[i * 2..i * 2 + 2])?;
                        *c = (v & 0x40 == 0).then_some(v & 0x3f);
                    }
                    p.music.push((num(flags)?, ch));
                }
                _ => {}
            }
            row += 1;
        }
        Ok(p)
    }

    fn sheet_png(&self) -> Result<Vec<u8>, String> {
        let pal = bt::Palette::pico8();
        let palette: Vec<[u8; 3]> = (0..16)
            .map(|i| {
                let c = pal.get(i).unwrap_or_default();
                [c.r, c.g, c.b]
            })
            .collect();
        // Colour 0 see-through, as PICO-8 draws it.
        crate::export::png::encode_indexed_png(&self.gfx, (128, 128), &palette, &[0])
            .map_err(|e| e.to_string())
    }

    /// The whole map, 128 × 64 sprite numbers: rows 0 to 31 from `__map__`, rows 32 to 63
    /// from the memory they share with the sheet's rows 64 to 127. There each byte is a cell,
    /// and each byte holds two pixels, the left one in its low four bits: cell `(x, 32 + y)`
    /// is byte `y * 128 + x` of that memory, the pixels `2k` and `2k + 1` of sheet row
    /// `64 + b / 64` where `b` is that byte and `k = b % 64`.
    fn map_cells(&self) -> Vec<u8> {
        let mut cells = self.map.clone();
        cells.extend((0..128 * 32).map(|b| {
            let row = 64 + b / 64;
            let x = 2 * (b % 64);
            self.gfx[row * 128 + x] | self.gfx[row * 128 + x + 1] << 4
        }));
        cells
    }

    fn map_tmj(&self, image: &str) -> String {
        let data: Vec<u32> = self
            .map_cells()
            .iter()
            .map(|&t| if t == 0 { 0 } else { u32::from(t) + 1 })
            .collect();
        let tiles: Vec<serde_json::Value> = self
            .flags
            .iter()
            .enumerate()
            .filter(|(_, &f)| f != 0)
            .map(|(id, &f)| {
                serde_json::json!({"id": id, "properties": [{"name": "flags", "type": "int", "value": f}]})
            })
            .collect();
        let doc = serde_json::json!({
            "type": "map", "version": "1.10", "orientation": "orthogonal",
            "renderorder": "right-down", "width": 128, "height": 64,
            "tilewidth": 8, "tileheight": 8, "infinite": false,
            "nextlayerid": 2, "nextobjectid": 1,
            "layers": [{"type": "tilelayer", "id": 1, "name": "map", "x": 0, "y": 0,
                        "width": 128, "height": 64, "opacity": 1, "visible": true, "data": data}],
            "tilesets": [{"firstgid": 1, "name": "sprites", "tilewidth": 8, "tileheight": 8,
                          "tilecount": 256, "columns": 16, "image": image,
                          "imagewidth": 128, "imageheight": 128, "margin": 0, "spacing": 0,
                          "tiles": tiles}],
        });
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The sound file: PICO-8's sound effects and music at PICO-8's speed and pitch
    /// ([`p8_sound`]); `lua_starts` are the patterns the code starts music at.
    fn sounds(&self, lua_starts: &[p8_sound::LuaMusic]) -> String {
        p8_sound::sounds(&self.sfx, &self.music, lua_starts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small cart made for the test: two sprites, one flag, three map cells, two sound
    /// effects (one looping) and a looping two-pattern tune.
    pub(crate) fn cart() -> String {
        let mut s = String::from("pico-8 cartridge // http://www.pico-8.com\nversion 41\n__lua__\nprint('hi')\n__gfx__\n");
        for y in 0..128 {
            let row: String = (0..128)
                .map(|x| {
                    if y >= 8 {
                        // Rows 64 on are the map's rows 32 on: at row 64, cells (0, 32) and
                        // (63, 32) hold sprites 0x12 and 0x0f; row 127 ends with (127, 63).
                        match (y, x) {
                            (64, 0) | (127, 127) => '2',
                            (64, 1) | (127, 126) => '1',
                            (64, 126) => 'f',
                            _ => '0',
                        }
                    } else if x < 8 {
                        '8'
                    } else if x < 16 && y % 2 == 0 {
                        'c'
                    } else {
                        '0'
                    }
                })
                .collect();
            s.push_str(&row);
            s.push('\n');
        }
        s.push_str("__gff__\n01");
        s.push_str(&"0".repeat(254));
        s.push_str("\n__map__\n0001010000");
        s.push_str(&"0".repeat(246));
        s.push_str("\n__sfx__\n");
        // Speed 8, no loop: C-2 square at volume 5, a rest, E-2 triangle with a slide.
        s.push_str("00080000");
        s.push_str("18350");
        s.push_str("00000");
        s.push_str("1c051");
        s.push_str(&"00000".repeat(29));
        s.push('\n');
        // Speed 16, looping notes 1 to 2: G-1 noise, then two notes.
        s.push_str("00100102");
        s.push_str(&"13663".repeat(3));
        s.push_str(&"00000".repeat(29));
        s.push_str("\n__music__\n01 00014243\n02 41004243\n00 40404040\n");
        s
    }

    #[test]
    fn the_files_an_import_makes_read_back_in_bts_own_readers() {
        use bt::host::ImageLoader;
        let files = p8_files("test.p8", "test", &cart()).unwrap();
        let sheet = crate::config::assets::Assets(crate::config::assets::Paths)
            .decode("test.png", &files.sheet_png)
            .unwrap();
        assert_eq!((sheet.width, sheet.height), (128, 128));
        let map = crate::config::tiled::decode_map("test.tmj", files.map_tmj.as_bytes()).unwrap();
        assert_eq!(map.size(), (128, 64));
        bt::sound::SoundFile::parse("test-sounds.txt", &files.sounds).unwrap();
        let e = p8_files("bad.p8", "bad", "not a cart").unwrap_err();
        assert_eq!(
            e,
            "bad.p8:1: not a PICO-8 cart: the first line must be 'pico-8 cartridge …'"
        );
    }

    #[test]
    fn a_p8_cart_becomes_a_sheet_a_map_with_flags_and_sounds() {
        let p = P8::parse("test.p8", &cart()).unwrap();
        assert_eq!(p.gfx[0], 8);
        assert_eq!(p.gfx[8], 12);
        assert_eq!(p.gfx[128 + 8], 0);
        assert_eq!(p.flags[0], 1);
        assert_eq!(&p.map[..5], [0, 1, 1, 0, 0]);

        // The sheet reads back through BT's own loader, colour 0 see-through.
        let png = p.sheet_png().unwrap();
        use bt::host::ImageLoader as _;
        let img = crate::config::assets::Assets(crate::config::assets::Paths)
            .decode("test.png", &png)
            .unwrap();
        assert_eq!((img.width, img.height), (128, 128));
        assert_eq!(&img.pixels[..4], [0xff, 0x00, 0x4d, 0xff], "PICO-8's red");
        assert_eq!(img.pixels[16 * 4 + 3], 0, "colour 0 is transparent");
        // Loaded keeping its numbers, every pixel is PICO-8's colour number.
        let numbers = crate::config::png_loader::decode_png_indices("test.png", &png).unwrap();
        assert_eq!(numbers.pixels, p.gfx);

        // The map reads back through BT's Tiled reader.
        let none = |s: &str| Err(bt::AssetError::new(s, bt::AssetErrorKind::NotFound));
        let map =
            crate::config::tiled::parse_tmj("test.tmj", &p.map_tmj("test.png"), &none).unwrap();
        assert_eq!(map.size(), (128, 64));
        assert_eq!((map.tile(0, 0, 0), map.tile(0, 1, 0)), (None, Some(1)));
        // The lower half, from the sheet's lower half: low nibble the left pixel.
        assert_eq!(map.tile(0, 0, 32), Some(0x12));
        assert_eq!(map.tile(0, 63, 32), Some(0x0f));
        assert_eq!(map.tile(0, 127, 63), Some(0x21));
        assert_eq!(map.tile(0, 1, 32), None);
        assert_eq!(map.flags(0), 1);

        // The sounds parse as a bt-sound file.
        let sounds = p.sounds(&[]);
        // PICO-8's speed counted in its own note steps; the rest before a slide keeps its
        // pitch (where the slide starts); trailing rests are kept.
        let sfx0 = format!(
            "sfx sfx0 8 unit=183/22050\nC4 sq 5\nC2 tri 0\nE4 tri 5 slide\n{}\n",
            ["--"; 29].join("\n")
        );
        assert!(sounds.contains(&sfx0), "{sounds}");
        assert!(
            sounds.contains(
                "sfx sfx1 16 unit=183/22050 loop=1\nG3 noise 6 drop\nG3 noise 6 drop\n\n"
            ),
            "{sounds}"
        );
        assert!(
            sounds.contains("music music0 loop=0\nsfx0 sfx1 - -\n- sfx0 - -\n"),
            "{sounds}"
        );
        bt::sound::SoundFile::parse("test-sounds.txt", &sounds).unwrap();
    }

    #[test]
    fn bad_p8_files_name_the_line_and_section() {
        let e = |text: &str| P8::parse("bad.p8", text).err().unwrap();
        assert_eq!(
            e("hello\n"),
            "bad.p8:1: not a PICO-8 cart: the first line must be 'pico-8 cartridge …'"
        );
        let text = cart().replacen("__gff__\n01", "__gff__\n0x", 1);
        assert!(
            e(&text).starts_with("bad.p8:135: __gff__: '0x"),
            "{}",
            e(&text)
        );
        let text = cart().replacen("01 00014243", "01 0001424", 1);
        assert_eq!(
            e(&text),
            "bad.p8:142: __music__: '01 0001424' is not 'FF CCCCCCCC'"
        );
        let text = cart().replacen("0001010000", "00010100", 1);
        assert_eq!(
            e(&text),
            "bad.p8:137: __map__: 254 digits where a line has 256"
        );
        // Eight bytes that are not eight digits: a byte count alone would cut a character.
        let text = cart().replacen("01 00014243", "00 0\u{20ac}\u{20ac}0", 1);
        assert_eq!(
            e(&text),
            "bad.p8:142: __music__: '00 0\u{20ac}\u{20ac}0' is not 'FF CCCCCCCC'"
        );
        // Invalid UTF-8 read as replacement characters, refused the same way.
        let bytes = cart().replacen("01 00014243", "00 0\u{1}\u{1}0", 1);
        let bytes = bytes.replace("0\u{1}\u{1}0", "0\u{fffd}\u{fffd}0");
        assert!(
            e(&bytes).starts_with("bad.p8:142: __music__: '00 0"),
            "{}",
            e(&bytes)
        );
    }

    #[test]
    fn a_section_given_twice_is_refused_naming_both_lines() {
        let e = |text: &str| P8::parse("twice.p8", text).err().unwrap();
        // A second sheet after the music, whose last line is line 144.
        let text = format!("{}__gfx__\n{}\n", cart(), "0".repeat(128));
        assert_eq!(
            e(&text),
            "twice.p8:145: __gfx__ again (first at line 5): PICO-8 writes each section once; \
             join the two"
        );
        // Sound effects in two sections would otherwise pass 64 between them.
        let sfx = format!("00010000{}\n", "0".repeat(160));
        let text = format!("{}__sfx__\n{}", cart(), sfx.repeat(64));
        assert!(e(&text).starts_with("twice.p8:145: __sfx__ again (first at line 138)"));
        let text = cart().replacen("__gfx__", "__lua__\n__gfx__", 1);
        assert!(e(&text).starts_with("twice.p8:5: __lua__ again (first at line 3)"));
    }

    #[test]
    fn a_byte_order_mark_is_read_past() {
        let p = P8::parse("bom.p8", &format!("\u{feff}{}", cart())).unwrap();
        assert_eq!(p.flags[0], 1);
    }

    #[test]
    fn a_cart_named_only_by_dots_or_a_stream_output_is_refused() {
        for name in ["..p8", "dir/..p8"] {
            let e = file_stem(name, Path::new(name)).unwrap_err();
            assert!(e.starts_with(&format!("{name}: the files written")), "{e}");
        }
        assert_eq!(
            file_stem("a/jump.p8", Path::new("a/jump.p8")).unwrap(),
            "jump"
        );
        let dir = bt_test_support::ScratchDir::new("import-stream");
        let src = dir.join("jump.p8");
        std::fs::write(&src, cart()).unwrap();
        let e = import(ImportArgs {
            file: src,
            output: PathBuf::from("-"),
            force: false,
        })
        .unwrap_err();
        assert!(e.contains("not a stream"), "{e}");
        assert!(!Path::new("-").exists());
    }

    #[test]
    fn an_output_link_to_nothing_is_refused_naming_it_and_a_link_to_a_folder_written_through() {
        let dir = bt_test_support::ScratchDir::new("import-link");
        let src = dir.join("jump.p8");
        std::fs::write(&src, cart()).unwrap();
        let link = dir.join("out");
        std::os::unix::fs::symlink("missing", &link).unwrap();
        let args = || ImportArgs {
            file: src.clone(),
            output: link.clone(),
            force: false,
        };
        let e = import(args()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "-o {}: a link to missing, which is not there: bt import writes into the \
                 folder a link leads to, so make missing first, or give another folder",
                link.to_str().unwrap()
            )
        );
        assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("missing"));
        std::fs::create_dir(dir.join("missing")).unwrap();
        import(args()).unwrap();
        assert!(dir.join("missing/jump.png").is_file());
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        // A file where the folder should be.
        let e = import(ImportArgs {
            output: src.clone(),
            ..args()
        })
        .unwrap_err();
        assert!(
            e.ends_with(
                "jump.p8: a file, not a folder: bt import writes several files into a folder"
            ),
            "{e}"
        );
    }

    #[test]
    fn paths_in_messages_show_control_characters_escaped() {
        use clap::Parser as _;
        let dir = bt_test_support::ScratchDir::new("import-escapes");
        let odd = dir.join("two\u{1b}[31mred\n");
        let run = |argv: &[&std::ffi::OsStr]| {
            let cli = crate::cli::args::Cli::try_parse_from(argv).unwrap();
            match super::super::run(&crate::cli::Offer::Gallery(&[]), cli.command) {
                Err(super::super::Failure::Run(message)) => message,
                other => panic!("{other:?}"),
            }
        };
        let file = odd.with_extension("txt");
        std::fs::write(&file, "x").unwrap();
        let messages = [
            run(&[
                "bt".as_ref(),
                "import".as_ref(),
                file.as_os_str(),
                "-o".as_ref(),
                "out".as_ref(),
            ]),
            run(&[
                "bt".as_ref(),
                "new".as_ref(),
                "game".as_ref(),
                "--path".as_ref(),
                odd.as_os_str(),
            ]),
        ];
        for message in messages {
            assert!(!message.contains(['\u{1b}', '\n']), "{message:?}");
            assert!(message.contains("two\\u{1b}[31mred\\n"), "{message}");
        }
    }

    #[test]
    fn files_already_there_are_kept_unless_forced() {
        let dir = bt_test_support::ScratchDir::new("import-force");
        let src = dir.join("jump.p8");
        std::fs::write(&src, cart()).unwrap();
        let out = dir.join("assets");
        let args = |force| ImportArgs {
            file: src.clone(),
            output: out.clone(),
            force,
        };
        import(args(false)).unwrap();
        std::fs::write(out.join("jump.png"), "edited").unwrap();
        std::fs::write(out.join("jump.tmj"), "edited").unwrap();
        let e = import(args(false)).unwrap_err();
        assert!(e.contains("jump.png") && e.contains("jump.tmj"), "{e}");
        assert!(e.contains("jump-sounds.txt"), "{e}");
        assert!(e.contains("--force"), "{e}");
        assert_eq!(std::fs::read(out.join("jump.png")).unwrap(), b"edited");
        import(args(true)).unwrap();
        assert_ne!(std::fs::read(out.join("jump.png")).unwrap(), b"edited");
    }
}
