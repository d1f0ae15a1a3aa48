//! `bt sprite-edit`: the sprite editor in a window. This file is the platform's side of it: it
//! finds and reads the sheets (and the Tiled files holding their sprites' flags), and writes
//! what the editor saves; the editor itself is a cart ([`crate::sprite_edit`]), made from the
//! files by [`crate::cli::editors::sprite_editor`] as a replay of the session makes it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bt::{AssetErrorKind, Color32};

use crate::cli::args::SpriteEditArgs;
use crate::cli::editors::Targets;
use crate::cli::Offer;
use crate::config::assets::{AssetFolder, FileSource};
use crate::config::png_loader::MAX_ASSET_BYTES;
use crate::edit::{OpenedFile, OpenedFiles, SaveTarget, MAX_OPENED_FILES};
use crate::sprite_edit::{Mapped, Sheet};
use crate::tiled_doc::TiledDoc;

use super::edited_file::{named, run_editor, EditedFile, Named};
use super::{note, Failure};

/// The longest Tiled file read for flags: the limit of every Tiled file BT reads.
const MAX_TILED_FILE: u64 = 16 << 20;

/// The most colours a conversion names in its message; the rest are counted.
const NAMED_COLOURS: usize = 16;

/// One sheet as opened: the file, the bytes the editor opens (a conversion's, with
/// `--convert`), and the Tiled files holding its flags.
#[derive(Debug, Clone)]
struct Opened {
    path: PathBuf,
    /// What the editor opens: the file's bytes, or an indexed PNG made of them.
    bytes: Vec<u8>,
    /// What the file holds.
    on_disk: Vec<u8>,
    homes: Vec<(PathBuf, Vec<u8>)>,
}

pub(super) fn sprite_edit(offer: &Offer, args: SpriteEditArgs) -> Result<(), Failure> {
    let opened = open_all(offer, args.target.as_deref(), args.convert)?;
    let (files, edited) = opened_files(&opened);
    let shown = opened.first().map(|o| o.path.clone()).unwrap_or_default();
    let targets: Targets = Arc::new(move |i| Box::new(edited[i].clone()) as Box<dyn SaveTarget>);
    run_editor("sprite-edit", &files, targets, &args.editor, &shown)
}

/// The files the editor opens, each sheet followed by its Tiled files, and where each saves.
fn opened_files(opened: &[Opened]) -> (OpenedFiles, Vec<EditedFile>) {
    let mut files = Vec::new();
    let mut edited = Vec::new();
    for o in opened {
        files.push(OpenedFile {
            name: o.path.display().to_string(),
            bytes: Some(o.bytes.clone()),
        });
        edited.push(EditedFile::new(
            o.path.clone(),
            "sprite sheet",
            MAX_ASSET_BYTES,
            Some(o.on_disk.clone()),
        ));
        for (path, bytes) in &o.homes {
            files.push(OpenedFile {
                name: path.display().to_string(),
                bytes: Some(bytes.clone()),
            });
            edited.push(EditedFile::new(
                path.clone(),
                "Tiled file",
                MAX_TILED_FILE,
                Some(bytes.clone()),
            ));
        }
    }
    (OpenedFiles(files), edited)
}

/// Every sheet `target` names, read and checked, before any window opens.
fn open_all(offer: &Offer, target: Option<&Path>, convert: bool) -> Result<Vec<Opened>, String> {
    let chosen = match named(offer, target, "sprite sheet")? {
        Named::File(t) => {
            let folder = t
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let bytes = crate::config::read::read_named("sprite sheet", &t, MAX_ASSET_BYTES)
                .map_err(|e| e.to_string())?;
            let sheet = sheet_of(&t, bytes.clone(), convert, None)?;
            let homes = flag_homes(folder, None, &t);
            return Ok(vec![opened(&t, &sheet, bytes, homes)?]);
        }
        Named::Cart(chosen) => *chosen,
    };
    let Some(assets) = chosen.assets.clone() else {
        return Err(format!(
            "the cart '{}' has no asset folder, so no sprite sheet; name a PNG: bt sprite-edit \
             PATH.png",
            chosen.name
        ));
    };
    let sheets = files_in(&assets, &["png"]);
    if sheets.is_empty() {
        return Err(format!(
            "the cart '{}' has no PNG sprite sheet in {}",
            chosen.name,
            crate::quote::path(&assets)
        ));
    }
    let folder = AssetFolder::new(&assets);
    // A converted picture is numbered as the palette the cart boots with.
    let cart_palette = convert.then(|| (chosen.make)().configure().palette.colors().to_vec());
    let mut out = Vec::new();
    for path in sheets {
        let rel = relative(&assets, &path);
        // Through the asset seam: a link out of the folder is refused as the cart's own
        // loads refuse it.
        let bytes = folder
            .read(&rel, MAX_ASSET_BYTES)
            .map_err(|e| e.to_string())?;
        let sheet = sheet_of(&path, bytes.clone(), convert, cart_palette.as_deref())?;
        let homes = flag_homes(&assets, Some(&folder), &path);
        out.push(opened(&path, &sheet, bytes, homes)?);
    }
    let count: usize = out.iter().map(|o| 1 + o.homes.len()).sum();
    if count > MAX_OPENED_FILES {
        return Err(format!(
            "the cart '{}' has {count} sheets and Tiled files holding their flags; the editor \
             opens at most {MAX_OPENED_FILES}: name a sheet, bt sprite-edit PATH.png",
            chosen.name
        ));
    }
    Ok(out)
}

/// `sheet`, read from `path` as `bytes`: the editor opens the sheet as it would be saved (a
/// converted sheet's file still holds its colours, and a save writes over them: the user
/// asked for the conversion).
fn opened(
    path: &Path,
    sheet: &Sheet,
    bytes: Vec<u8>,
    homes: Vec<(PathBuf, Vec<u8>)>,
) -> Result<Opened, String> {
    Ok(Opened {
        path: path.to_path_buf(),
        bytes: sheet.encode()?,
        on_disk: bytes,
        homes,
    })
}

/// The sheet in `bytes`; a PNG of colours is refused unless `convert`, then numbered as the
/// cart's palette (`cart_palette`; PICO-8's without a cart) numbers its colours, the others
/// after them (see [`Sheet::convert`]).
fn sheet_of(
    path: &Path,
    bytes: Vec<u8>,
    convert: bool,
    cart_palette: Option<&[Color32]>,
) -> Result<Sheet, String> {
    let shown = crate::quote::path(path);
    let stored = match Sheet::read(&shown, bytes.clone()) {
        Ok(sheet) => return Ok(sheet),
        Err(e) => match e.kind {
            AssetErrorKind::NotIndexed(stored) => stored,
            _ => return Err(e.to_string()),
        },
    };
    if !convert {
        return Err(format!(
            "{shown}: not an indexed PNG (it stores {stored}); the editor keeps palette \
             numbers: pass --convert to map its colours onto a palette"
        ));
    }
    let pico8 = bt::Palette::pico8();
    let fallback = cart_palette.unwrap_or(pico8.colors());
    let (sheet, mapped) = Sheet::convert(&shown, &bytes, fallback).map_err(|e| e.to_string())?;
    note(format_args!("{}", conversion_line(&shown, &mapped)));
    Ok(sheet)
}

/// What a conversion did, in one line: how many colours, and which number each became.
fn conversion_line(shown: &str, mapped: &[Mapped]) -> String {
    let colour = |m: &Mapped| {
        let [r, g, b, a] = m.color;
        if a == 255 {
            format!("#{r:02x}{g:02x}{b:02x} -> {}", m.index)
        } else {
            format!("#{r:02x}{g:02x}{b:02x}{a:02x} -> {}", m.index)
        }
    };
    let named: Vec<String> = mapped.iter().take(NAMED_COLOURS).map(colour).collect();
    let more = mapped.len().saturating_sub(NAMED_COLOURS);
    let tail = if more > 0 {
        format!(", and {more} more")
    } else {
        String::new()
    };
    format!(
        "{shown}: converted, {} colours: {}{tail} (saved as an indexed PNG on Ctrl+S)",
        mapped.len(),
        named.join(", ")
    )
}

/// `path` inside `root`, with `/` between its parts, as the asset seam names files.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The Tiled files in `folder` whose one tileset, held in the file itself, has `sheet` as
/// its picture. Files that do not read are left out (the map editor and the cart say why).
fn flag_homes(
    folder: &Path,
    assets: Option<&AssetFolder>,
    sheet: &Path,
) -> Vec<(PathBuf, Vec<u8>)> {
    let want = std::fs::canonicalize(sheet).ok();
    let mut homes = Vec::new();
    for path in files_in(folder, &["tsx", "tsj", "tmx", "tmj"]) {
        let bytes = match assets {
            Some(a) => a.read(&relative(folder, &path), MAX_TILED_FILE).ok(),
            None => crate::config::read::read_named("Tiled file", &path, MAX_TILED_FILE).ok(),
        };
        let Some(bytes) = bytes else { continue };
        let shown = crate::quote::path(&path);
        let Ok(doc) = TiledDoc::read(&shown, &bytes) else {
            continue;
        };
        let [one] = doc.tilesets() else { continue };
        let Some(image) = one.image.as_deref().filter(|_| one.source.is_none()) else {
            continue;
        };
        let beside = path.parent().unwrap_or(folder).join(image);
        if want.is_some()
            && std::fs::canonicalize(&beside).ok() == want
            && doc.read_only().is_none()
        {
            homes.push((path.clone(), bytes));
        }
    }
    homes
}

/// The files in `dir` and its folders whose extension is one of `exts` (in lower case), in
/// name order.
fn files_in(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    super::edited_file::files_in(dir, |path| {
        path.extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .is_some_and(|e| exts.contains(&e.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::{Cart, Key};
    use bt_test_support::ScratchDir;

    /// The editor on `opened`, its saves going to the files, given `chords` (keys held, and
    /// the key tapped with them) one after another.
    fn edit(opened: &[Opened], chords: &[(&[Key], Key)]) {
        let (files, edited) = opened_files(opened);
        let targets: Targets =
            Arc::new(move |i| Box::new(edited[i].clone()) as Box<dyn SaveTarget>);
        let make = move || crate::cli::editors::sprite_editor(&files, &targets).unwrap();
        let options = crate::EngineOptions {
            overlay: false,
            ..crate::EngineOptions::default()
        };
        let mut e = crate::Engine::new(Box::new(make), options).unwrap();
        e.step(1).unwrap();
        for &(held, key) in chords {
            for &down in &[true, false] {
                let input = e.console_mut().input_mut();
                for &m in held {
                    input.set_key(m, down);
                }
                input.set_key(key, down);
                e.step(1).unwrap();
            }
        }
    }

    /// An indexed PNG at 4 bits (PICO-8's first four colours), its pixels a repeating run of
    /// the four.
    fn indexed(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Four);
        enc.set_palette(vec![0, 0, 0, 29, 43, 83, 126, 37, 83, 0, 135, 81]);
        let mut w = enc.write_header().unwrap();
        let row = (width as usize).div_ceil(2);
        let data: Vec<u8> = (0..row * height as usize)
            .map(|i| [0x01, 0x23, 0x30, 0x12][i % 4])
            .collect();
        w.write_image_data(&data).unwrap();
        w.finish().unwrap();
        out
    }

    /// The cart whose folder is `dir`, in the cart's own binary.
    fn offer(dir: &Path) -> Offer {
        Offer::Single {
            dir: dir.to_path_buf(),
            make: Arc::new(|| Box::new(Blank) as Box<dyn Cart>),
        }
    }

    struct Blank;

    impl Cart for Blank {
        fn update(&mut self, _: &mut bt::Update<'_>) {}
        fn render(&self, _: &mut bt::Render<'_>) {}
    }

    fn no_cart() -> Offer {
        offer(&std::env::temp_dir().join("bt-sprite-edit-no-such-cart"))
    }

    #[test]
    fn a_png_of_colours_is_refused_with_one_line_unless_converted_and_then_named() {
        let dir = ScratchDir::new("sprite-rgba");
        let path = dir.join("hero.png");
        let rgba = [
            [0, 0, 0, 255],
            [255, 255, 255, 255],
            [0, 0, 0, 255],
            [255, 0, 77, 0],
        ];
        std::fs::write(&path, crate::sprite_edit::rgba_png(2, 2, &rgba.concat())).unwrap();
        let e = open_all(&no_cart(), Some(&path), false).unwrap_err();
        assert!(
            e.contains("hero.png: not an indexed PNG (it stores RGBA colours)")
                && e.contains("--convert")
                && !e.contains('\n'),
            "{e}"
        );
        let opened = open_all(&no_cart(), Some(&path), true).unwrap();
        let sheet = Sheet::read("hero.png", opened[0].bytes.clone()).unwrap();
        assert_ne!(
            opened[0].bytes, opened[0].on_disk,
            "the editor opens the conversion; the file still holds the colours"
        );
        // With no cart, PICO-8's numbers: black is 0; white and the see-through red follow
        // PICO-8's sixteen.
        assert_eq!((sheet.depth(), sheet.pixels()), (8, &[0, 16, 0, 17][..]));
        let pico8 = bt::Palette::pico8();
        let bytes = std::fs::read(&path).unwrap();
        let (_, mapped) = Sheet::convert("hero.png", &bytes, pico8.colors()).unwrap();
        assert_eq!(
            conversion_line("hero.png", &mapped),
            "hero.png: converted, 3 colours: #000000 -> 0, #ffffff -> 16, #ff004d00 -> 17 \
             (saved as an indexed PNG on Ctrl+S)"
        );
    }

    #[test]
    fn a_sheet_past_the_size_limits_is_refused_from_its_header() {
        let dir = ScratchDir::new("sprite-huge");
        let path = dir.join("huge.png");
        // A header claiming 9000 x 8, and no pixels at all.
        let mut bytes = indexed(1, 1);
        bytes[16..20].copy_from_slice(&9000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&8u32.to_be_bytes());
        std::fs::write(&path, bytes).unwrap();
        let e = open_all(&no_cart(), Some(&path), false).unwrap_err();
        assert!(e.contains("huge.png: image is 9000x8; each side"), "{e}");
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_on_it() {
        let dir = ScratchDir::new("sprite-fifo");
        let path = dir.join("pipe.png");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (sent, got) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sent.send(open_all(&no_cart(), Some(&path), false).err());
        });
        let e = got
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the open returns instead of waiting on the FIFO")
            .expect("refused");
        assert!(e.contains("pipe.png") && e.contains("FIFO"), "{e}");
    }

    #[test]
    fn a_link_out_of_the_carts_asset_folder_is_refused() {
        let dir = ScratchDir::new("sprite-link");
        std::fs::create_dir_all(dir.join("cart/assets")).unwrap();
        std::fs::write(dir.join("outside.png"), indexed(8, 8)).unwrap();
        std::fs::write(dir.join("cart/assets/tiles.png"), indexed(8, 8)).unwrap();
        std::os::unix::fs::symlink(dir.join("outside.png"), dir.join("cart/assets/out.png"))
            .unwrap();
        let e = open_all(&offer(&dir.join("cart")), None, false).unwrap_err();
        assert!(
            e.contains("out.png") && e.contains("a link leading out of the folder"),
            "{e}"
        );
        std::fs::remove_file(dir.join("cart/assets/out.png")).unwrap();
        let opened = open_all(&offer(&dir.join("cart")), None, false).unwrap();
        assert_eq!(opened.len(), 1);
    }

    #[test]
    fn flags_come_from_and_go_to_the_map_holding_the_sheets_tileset_and_nothing_else_changes() {
        let dir = ScratchDir::new("sprite-flags");
        std::fs::create_dir_all(dir.join("cart/assets")).unwrap();
        let assets = dir.join("cart/assets");
        std::fs::write(assets.join("tiles.png"), indexed(16, 8)).unwrap();
        std::fs::write(assets.join("other.png"), indexed(8, 8)).unwrap();
        let map = "<?xml version=\"1.0\"?>\n<map width=\"2\" height=\"1\" tilewidth=\"8\" \
                   tileheight=\"8\">\n <tileset firstgid=\"1\" name=\"t\" tilewidth=\"8\" \
                   tileheight=\"8\" tilecount=\"2\" columns=\"2\">\n  <image \
                   source=\"tiles.png\" width=\"16\" height=\"8\"/>\n  <tile id=\"1\"><properties>\
                   <property name=\"flags\" type=\"int\" value=\"4\"/></properties></tile>\n \
                   </tileset>\n <layer name=\"g\" width=\"2\" height=\"1\">\n  <data \
                   encoding=\"csv\">\n1,2\n</data>\n </layer>\n</map>\n";
        std::fs::write(assets.join("level.tmx"), map).unwrap();
        let opened = open_all(&offer(&dir.join("cart")), None, false).unwrap();
        let names: Vec<_> = opened.iter().map(|o| o.homes.len()).collect();
        assert_eq!(
            names,
            [0, 1],
            "other.png has no tileset; tiles.png has the map's"
        );
        // On tiles.png (the second tab): sprite 1's flags, 4 as read, get flag 0 too.
        let shift = &[Key::ShiftLeft][..];
        edit(
            &opened,
            &[
                (&[], Key::Tab),
                (&[], Key::ArrowRight),
                (shift, Key::Digit1),
                (&[Key::ControlLeft], Key::KeyS),
            ],
        );
        let saved = std::fs::read_to_string(assets.join("level.tmx")).unwrap();
        let doc = TiledDoc::read("level.tmx", saved.as_bytes()).unwrap();
        assert_eq!((doc.tile_flags(0), doc.tile_flags(1)), (0, 5));
        // Only the value changed, every other byte as read.
        assert_eq!(saved, map.replace("value=\"4\"", "value=\"5\""));
    }

    #[test]
    fn the_platformers_sheet_shows_the_flags_both_its_levels_give_and_saves_to_both() {
        let dir = ScratchDir::new("sprite-platformer");
        let assets = dir.join("cart/assets");
        std::fs::create_dir_all(&assets).unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../carts/platformer/assets");
        for f in ["tiles.png", "level1.tmj", "level2.tmx"] {
            std::fs::copy(from.join(f), assets.join(f)).unwrap();
        }
        // The platformer's sheet is indexed; `--convert` changes nothing of such a sheet.
        let opened = open_all(&offer(&dir.join("cart")), None, true).unwrap();
        assert_eq!(opened.len(), 1);
        assert_eq!(opened[0].bytes, opened[0].on_disk);
        let homes: Vec<&Path> = opened[0].homes.iter().map(|(p, _)| p.as_path()).collect();
        assert_eq!(
            homes,
            [assets.join("level1.tmj"), assets.join("level2.tmx")]
        );
        // Sprite 3's flags, 2 in both levels, get flag 0; sprite 6's, none, get flag 4.
        let shift = &[Key::ShiftLeft][..];
        let right = (&[][..], Key::ArrowRight);
        edit(
            &opened,
            &[
                right,
                right,
                right,
                (shift, Key::Digit1),
                right,
                right,
                right,
                (shift, Key::Digit5),
                (&[Key::ControlLeft], Key::KeyS),
            ],
        );
        for level in ["level1.tmj", "level2.tmx"] {
            let bytes = std::fs::read(assets.join(level)).unwrap();
            let doc = TiledDoc::read(level, &bytes).unwrap();
            let got: Vec<u8> = (0..8).map(|id| doc.tile_flags(id)).collect();
            assert_eq!(got, [1, 1, 1, 3, 4, 8, 16, 0], "{level}");
        }
    }

    #[test]
    fn a_device_is_refused_as_every_reader_refuses_it() {
        let e = open_all(&no_cart(), Some(Path::new("/dev/zero")), false).unwrap_err();
        assert!(
            e.contains("/dev/zero") && e.contains("could not read it"),
            "{e}"
        );
    }

    #[test]
    fn a_picture_of_more_than_256_colours_converts_onto_the_palette_and_counts_the_rest() {
        let dir = ScratchDir::new("sprite-many");
        let path = dir.join("photo.png");
        let rgba: Vec<u8> = (0..300u32)
            .flat_map(|i| [(i % 256) as u8, (i / 256) as u8 * 200, 7, 255])
            .collect();
        std::fs::write(&path, crate::sprite_edit::rgba_png(300, 1, &rgba)).unwrap();
        let opened = open_all(&no_cart(), Some(&path), true).unwrap();
        let sheet = Sheet::read("photo.png", opened[0].bytes.clone()).unwrap();
        assert_eq!(sheet.colors().len(), 16, "PICO-8's sixteen, with no cart");
        assert_eq!(sheet.pixels()[0], 0, "#000007 is nearest black");
        let (_, mapped) = Sheet::convert(
            "photo.png",
            &std::fs::read(&path).unwrap(),
            bt::Palette::pico8().colors(),
        )
        .unwrap();
        let line = conversion_line("photo.png", &mapped);
        assert!(
            line.starts_with("photo.png: converted, 300 colours: #000007 -> 0, ")
                && line.contains(", and 284 more"),
            "{line}"
        );
    }

    #[test]
    fn a_recorded_session_replays_from_its_own_header_with_the_files_gone() {
        let dir = ScratchDir::new("sprite-replay");
        let assets = dir.join("cart/assets");
        std::fs::create_dir_all(&assets).unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../carts/platformer/assets");
        for f in ["tiles.png", "level1.tmj"] {
            std::fs::copy(from.join(f), assets.join(f)).unwrap();
        }
        let opened = open_all(&offer(&dir.join("cart")), None, false).unwrap();
        let (files, _) = opened_files(&opened);
        let kept: Vec<crate::edit::Kept> = files.0.iter().map(|_| Default::default()).collect();
        let saves = kept.clone();
        let targets: Targets = Arc::new(move |i| Box::new(kept[i].clone()) as Box<dyn SaveTarget>);
        let live = crate::cli::editors::editor_cart("sprite-edit", targets).unwrap();
        let options = |args: Vec<(String, String)>, replay| crate::EngineOptions {
            overlay: false,
            args,
            replay,
            ..crate::EngineOptions::default()
        };
        let mut e =
            crate::Engine::new(Box::new(move || live()), options(files.to_args(), None)).unwrap();
        e.start_recording(60);
        e.step(1).unwrap();
        for (held, key) in [
            (None, Key::ArrowRight),
            (Some(Key::ShiftLeft), Key::Digit2),
            (None, Key::KeyH),
            (Some(Key::ControlLeft), Key::KeyS),
        ] {
            for down in [true, false] {
                let input = e.console_mut().input_mut();
                if let Some(m) = held {
                    input.set_key(m, down);
                }
                input.set_key(key, down);
                e.step(1).unwrap();
            }
        }
        assert_eq!(saves.iter().map(|k| k.saves()).collect::<Vec<_>>(), [1, 1]);
        let replay = e.recording("sprite-edit", None).expect("recorded");
        std::fs::remove_dir_all(dir.join("cart")).unwrap();

        let again = crate::cli::editors::replayed_editor("sprite-edit").unwrap();
        let args = replay.info.args.clone();
        let mut r = crate::Engine::new(
            Box::new(move || again()),
            options(args, Some(Arc::new(replay))),
        )
        .unwrap();
        r.step(e.updates_since_init()).unwrap();
        assert_eq!(r.test_state(), e.test_state());
        assert_eq!(
            crate::replay::frame_hash(r.framebuffer(), r.palette()),
            crate::replay::frame_hash(e.framebuffer(), e.palette())
        );
    }

    #[test]
    fn a_cart_of_more_sheets_than_a_session_holds_is_refused_before_a_window_opens() {
        let dir = ScratchDir::new("sprite-many-sheets");
        let assets = dir.join("cart/assets");
        std::fs::create_dir_all(&assets).unwrap();
        for i in 0..=MAX_OPENED_FILES {
            std::fs::write(assets.join(format!("s{i:02}.png")), indexed(8, 8)).unwrap();
        }
        let e = open_all(&offer(&dir.join("cart")), None, false).unwrap_err();
        assert!(
            e.contains("has 65 sheets and Tiled files") && e.contains("at most 64"),
            "{e}"
        );
    }
}
