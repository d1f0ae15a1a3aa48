//! The sprite editor as a player meets it, headless: scripted pointer strokes and keys, the
//! exact bytes it saves, undo and redo, two sheets open at once, the flags, and a golden
//! picture of the editor.
//!
//! Golden pictures follow the one rule of `bt_runtime::harness::golden`: `BT_UPDATE_GOLDEN=1`
//! rewrites `tests/golden/` after a reviewed change.

use std::path::Path;
use std::sync::{Arc, Mutex};

use bt::{AssetErrorKind, Button, Key, Player};
use bt_runtime::edit::Kept;
use bt_runtime::harness::golden;
use bt_runtime::sprite_edit::{layout, FlagStore, Sheet, SheetTab, SpriteEditor, KEYS};
use bt_runtime::{Engine, EngineOptions};

mod editing;
use editing::{tap, tap_with};

/// PICO-8's first sixteen colours, as a PNG palette.
const PICO8: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0x1d, 0x2b, 0x53],
    [0x7e, 0x25, 0x53],
    [0x00, 0x87, 0x51],
    [0xab, 0x52, 0x36],
    [0x5f, 0x57, 0x4f],
    [0xc2, 0xc3, 0xc7],
    [0xff, 0xf1, 0xe8],
    [0xff, 0x00, 0x4d],
    [0xff, 0xa3, 0x00],
    [0xff, 0xec, 0x27],
    [0x00, 0xe4, 0x36],
    [0x29, 0xad, 0xff],
    [0x83, 0x76, 0x9c],
    [0xff, 0x77, 0xa8],
    [0xff, 0xcc, 0xaa],
];

/// `pixels` packed `bits` a pixel, rows starting on a byte.
fn pack(pixels: &[u8], width: u32, bits: usize) -> Vec<u8> {
    let per_byte = 8 / bits;
    let row = (width as usize).div_ceil(per_byte);
    let mut data = vec![0u8; row * pixels.len() / width as usize];
    for (i, &n) in pixels.iter().enumerate() {
        let (x, y) = (i % width as usize, i / width as usize);
        data[y * row + x / per_byte] |= n << (8 - bits * (x % per_byte + 1));
    }
    data
}

/// An indexed PNG as a paint program writes one: a palette of `colours` (PICO-8's, cycled),
/// colour 0 see-through, a gamma and a comment chunk beside the pixels.
fn sheet_png(width: u32, bits: usize, colours: usize, pixels: &[u8]) -> Vec<u8> {
    sheet_png_as(width, bits, colours, pixels, png::Compression::default())
}

/// [`sheet_png`] compressed as `compression` says: a file BT's own encoder would not write
/// byte for byte.
fn sheet_png_as(
    width: u32,
    bits: usize,
    colours: usize,
    pixels: &[u8],
    compression: png::Compression,
) -> Vec<u8> {
    let height = pixels.len() as u32 / width;
    let depth = match bits {
        1 => png::BitDepth::One,
        2 => png::BitDepth::Two,
        4 => png::BitDepth::Four,
        _ => png::BitDepth::Eight,
    };
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(depth);
    enc.set_compression(compression);
    let palette: Vec<u8> = (0..colours)
        .flat_map(|i| {
            let [r, g, b] = PICO8[i % 16];
            [r, g, b.wrapping_add((i / 16) as u8)]
        })
        .collect();
    enc.set_palette(palette);
    enc.set_trns(vec![0u8]);
    enc.set_source_gamma(png::ScaledFloat::new(0.45455));
    enc.add_text_chunk("Comment".into(), "drawn by hand".into())
        .unwrap();
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&pack(pixels, width, bits)).unwrap();
    w.finish().unwrap();
    out
}

/// The first sheet of the tests: 16x16 at 4 bits; sprite 0 a box of colour 5 around colour
/// 0, the rest a diagonal pattern.
fn first_pixels() -> Vec<u8> {
    (0..256)
        .map(|i| {
            let (x, y) = (i % 16, i / 16);
            match (x, y) {
                (0..8, 0..8) if x == 0 || y == 0 || x == 7 || y == 7 => 5,
                (0..8, 0..8) => 0,
                _ => ((x + y) % 16) as u8,
            }
        })
        .collect()
}

/// The chunks of a PNG, as (type, whole chunk bytes).
fn chunks(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = String::from_utf8_lossy(&bytes[at + 4..at + 8]).into_owned();
        out.push((kind, bytes[at..at + 12 + len].to_vec()));
        at += 12 + len;
    }
    out
}

/// The editor on `sheets` (name, PNG bytes), booted, and where each sheet's saves go.
fn editor(sheets: &[(&str, Vec<u8>)]) -> (Engine, Vec<Kept>) {
    let kept: Vec<Kept> = sheets.iter().map(|_| Kept::new()).collect();
    let sheets: Vec<(String, Vec<u8>)> = sheets
        .iter()
        .map(|(n, b)| (n.to_string(), b.clone()))
        .collect();
    let targets = kept.clone();
    let make = move || {
        let tabs = sheets
            .iter()
            .zip(&targets)
            .map(|((name, bytes), k)| {
                let sheet = Sheet::read(name, bytes.clone()).expect("an indexed sheet");
                SheetTab::new(sheet, Box::new(k.clone()))
            })
            .collect();
        Box::new(SpriteEditor::new(tabs)) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(make), options).expect("the editor boots");
    engine.step(1).unwrap();
    (engine, kept)
}

fn ctrl(e: &mut Engine, key: Key) {
    tap_with(e, &[Key::ControlLeft], key);
}

/// The display pixel at the middle of sheet pixel (`x`, `y`) of an 8x8 sprite at the
/// sheet's corner, on the canvas.
fn on_canvas(x: i32, y: i32) -> (i32, i32) {
    let z = layout::zoom_for(8, 8);
    (
        layout::CANVAS.x + x * z + z / 2,
        layout::CANVAS.y + y * z + z / 2,
    )
}

/// A stroke of the left button through display pixels `points`.
fn stroke(e: &mut Engine, points: &[(i32, i32)]) {
    for (i, &(x, y)) in points.iter().enumerate() {
        let input = e.console_mut().input_mut();
        input.set_pointer_pos(x, y);
        if i == 0 {
            input.set_buttons(Button::POINTER_A, Player::ONE, true);
        }
        e.step(1).unwrap();
    }
    e.console_mut()
        .input_mut()
        .set_buttons(Button::POINTER_A, Player::ONE, false);
    e.step(1).unwrap();
}

fn click(e: &mut Engine, at: (i32, i32)) {
    stroke(e, &[at]);
}

fn state(e: &Engine) -> String {
    e.test_state().unwrap()
}

/// The pixels of the first sheet after a pencil stroke along row 1 from x 1 to 3 in colour 2.
fn stroked() -> Vec<u8> {
    let mut p = first_pixels();
    for x in 1..=3 {
        p[16 + x] = 2;
    }
    p
}

#[test]
fn a_pencil_stroke_saves_those_pixels_with_every_other_chunk_as_read() {
    let original = sheet_png(16, 4, 16, &first_pixels());
    let (mut e, kept) = editor(&[("first.png", original.clone())]);
    tap(&mut e, Key::BracketRight); // colour 1 to 2
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(2, 1), on_canvas(3, 1)]);
    assert!(state(&e).contains("\"dirty\":true"), "{}", state(&e));
    ctrl(&mut e, Key::KeyS);
    let saved = kept[0].bytes().expect("saved");
    // The same file a paint program would write of the new pixels: same depth, palette,
    // transparency, gamma and comment, in the same order.
    assert_eq!(saved, sheet_png(16, 4, 16, &stroked()));
    let (before, after) = (chunks(&original), chunks(&saved));
    let kinds = |c: &[(String, Vec<u8>)]| c.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
    assert_eq!(kinds(&before), kinds(&after));
    for (b, a) in before.iter().zip(&after).filter(|(b, _)| b.0 != "IDAT") {
        assert_eq!(b, a, "the {} chunk is kept byte for byte", b.0);
    }
    assert!(state(&e).contains("\"dirty\":false"), "{}", state(&e));
}

#[test]
fn a_fill_paints_the_joined_pixels_of_one_colour_inside_the_sprite() {
    let (mut e, kept) = editor(&[("first.png", sheet_png(16, 4, 16, &first_pixels()))]);
    tap(&mut e, Key::BracketRight);
    tap(&mut e, Key::KeyF);
    click(&mut e, on_canvas(4, 4));
    ctrl(&mut e, Key::KeyS);
    let mut want = first_pixels();
    for y in 1..7 {
        for x in 1..7 {
            want[y * 16 + x] = 2;
        }
    }
    assert_eq!(kept[0].bytes().unwrap(), sheet_png(16, 4, 16, &want));
}

#[test]
fn a_line_rectangle_and_ellipse_follow_the_pointer_and_keep_only_the_last_shape() {
    let (mut e, kept) = editor(&[("first.png", sheet_png(16, 4, 16, &first_pixels()))]);
    tap(&mut e, Key::KeyR);
    tap(&mut e, Key::KeyR); // filled
                            // Through a larger rectangle first: only the one where the button comes up stays.
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(6, 6), on_canvas(2, 3)]);
    ctrl(&mut e, Key::KeyS);
    let mut want = first_pixels();
    for y in 1..=3 {
        for x in 1..=2 {
            want[y * 16 + x] = 1;
        }
    }
    assert_eq!(kept[0].bytes().unwrap(), sheet_png(16, 4, 16, &want));
    assert!(state(&e).contains("\"undo\":1"), "{}", state(&e));
}

#[test]
fn undo_past_a_stroke_a_fill_and_a_paste_saves_the_bytes_read_and_redo_brings_them_back() {
    let original = sheet_png(16, 4, 16, &first_pixels());
    let (mut e, kept) = editor(&[("first.png", original.clone())]);
    tap(&mut e, Key::BracketRight);
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(3, 1)]);
    tap(&mut e, Key::KeyF);
    click(&mut e, on_canvas(4, 4));
    ctrl(&mut e, Key::KeyC);
    tap(&mut e, Key::ArrowRight);
    ctrl(&mut e, Key::KeyV);
    ctrl(&mut e, Key::KeyS);
    let edited = kept[0].bytes().unwrap();
    let mut want = first_pixels();
    for y in 0..8 {
        for x in 0..8 {
            let v = if x == 0 || y == 0 || x == 7 || y == 7 {
                5
            } else {
                2
            };
            want[y * 16 + x] = v;
            want[y * 16 + x + 8] = v;
        }
    }
    assert_eq!(
        edited,
        sheet_png(16, 4, 16, &want),
        "the sprite pasted beside it"
    );
    for _ in 0..3 {
        ctrl(&mut e, Key::KeyZ);
    }
    ctrl(&mut e, Key::KeyS);
    assert_eq!(
        kept[0].bytes().unwrap(),
        original,
        "undone: the very bytes read"
    );
    ctrl(&mut e, Key::KeyZ);
    assert!(state(&e).contains("nothing to undo"), "{}", state(&e));
    for _ in 0..3 {
        ctrl(&mut e, Key::KeyY);
    }
    ctrl(&mut e, Key::KeyS);
    assert_eq!(kept[0].bytes().unwrap(), edited, "redone");
}

#[test]
fn a_paste_into_a_second_sheet_takes_each_colours_nearest_in_its_palette() {
    let first = sheet_png(16, 4, 16, &first_pixels());
    // The second: 8x8 at 8 bits, a palette of 32 whose second half is PICO-8's again, a
    // little bluer: each colour's nearest is its own number.
    let blank = vec![3u8; 64];
    let second = sheet_png(8, 8, 32, &blank);
    let (mut e, kept) = editor(&[("first.png", first), ("second.png", second.clone())]);
    ctrl(&mut e, Key::KeyC);
    tap(&mut e, Key::Tab);
    assert!(state(&e).contains("\"tab\":1"), "{}", state(&e));
    ctrl(&mut e, Key::KeyV);
    ctrl(&mut e, Key::KeyS);
    assert_eq!(
        kept[0].saves(),
        0,
        "the first sheet was not changed, so not written"
    );
    let saved = Sheet::read("second.png", kept[1].bytes().unwrap()).unwrap();
    let want: Vec<u8> = first_pixels()
        .chunks(16)
        .take(8)
        .flat_map(|row| row[..8].to_vec())
        .collect();
    assert_eq!(
        saved.pixels(),
        want,
        "same colours in both palettes: same numbers"
    );
    assert_eq!(saved.depth(), 8);
    assert_eq!(
        chunks(&kept[1].bytes().unwrap()).len(),
        chunks(&second).len()
    );
}

#[test]
fn flips_a_quarter_turn_and_a_wrapping_shift_move_the_sprites_pixels() {
    // A sprite with one pixel of colour 9 at (1, 0) in a field of 0.
    let mut p = vec![0u8; 64];
    p[1] = 9;
    let png = sheet_png(8, 4, 16, &p);
    let at = |bytes: Vec<u8>| {
        let s = Sheet::read("s.png", bytes).unwrap();
        let i = s.pixels().iter().position(|&c| c == 9).unwrap() as i32;
        (i % 8, i / 8)
    };
    let (mut e, kept) = editor(&[("s.png", png)]);
    for (key, shift, want) in [
        (Key::KeyH, false, (6, 0)),
        (Key::KeyV, false, (6, 7)),
        (Key::KeyT, false, (0, 6)),
        (Key::ArrowLeft, true, (7, 6)),
        (Key::ArrowDown, true, (7, 7)),
        (Key::ArrowDown, true, (7, 0)),
    ] {
        let mods: &[Key] = if shift { &[Key::ShiftLeft] } else { &[] };
        tap_with(&mut e, mods, key);
        ctrl(&mut e, Key::KeyS);
        assert_eq!(at(kept[0].bytes().unwrap()), want, "after {key:?}");
    }
}

#[test]
fn a_selection_dragged_moves_its_pixels_and_leaves_colour_0() {
    let mut p = vec![1u8; 64];
    p[9] = 9; // (1, 1)
    let (mut e, kept) = editor(&[("s.png", sheet_png(8, 4, 16, &p))]);
    tap(&mut e, Key::KeyM);
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(2, 2)]);
    assert!(state(&e).contains("\"marquee\":true"), "{}", state(&e));
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(4, 3), on_canvas(5, 4)]);
    ctrl(&mut e, Key::KeyS);
    let mut want = vec![1u8; 64];
    for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
        want[y * 8 + x] = 0;
    }
    for (x, y) in [(5, 4), (6, 4), (5, 5), (6, 5)] {
        want[y * 8 + x] = 1;
    }
    want[4 * 8 + 5] = 9;
    let s = Sheet::read("s.png", kept[0].bytes().unwrap()).unwrap();
    assert_eq!(s.pixels(), want);
    ctrl(&mut e, Key::KeyZ);
    ctrl(&mut e, Key::KeyS);
    let s = Sheet::read("s.png", kept[0].bytes().unwrap()).unwrap();
    assert_eq!(s.pixels(), p, "the move is one undo step");
}

/// Flags saved, each save's flags in turn.
#[derive(Clone, Default)]
struct SavedFlags(Arc<Mutex<Vec<Vec<u8>>>>);

impl FlagStore for SavedFlags {
    fn save(&mut self, flags: &[u8]) -> Result<(), String> {
        self.0.lock().unwrap().push(flags.to_vec());
        Ok(())
    }
}

#[test]
fn flags_toggle_per_sprite_by_key_and_click_undo_and_go_to_the_flag_store() {
    let flags = SavedFlags::default();
    let store = flags.clone();
    let make = move || {
        let sheet = Sheet::read("s.png", sheet_png(16, 4, 16, &first_pixels())).unwrap();
        let tab = SheetTab::new(sheet, Box::new(Kept::new())).with_flags(
            (8, 8),
            &[0, 4],
            Box::new(store.clone()),
        );
        Box::new(SpriteEditor::new(vec![tab])) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(make), options).unwrap();
    e.step(1).unwrap();
    tap_with(&mut e, &[Key::ShiftLeft], Key::Digit1); // sprite 0: flag 0
    tap(&mut e, Key::ArrowRight);
    // Sprite 1 (flags 4): a click on flag 7's box.
    let flag_7 = probe_rect(layout::widget::FLAG_0 + 7);
    click(&mut e, (flag_7.x + 2, flag_7.y + 2));
    tap(&mut e, Key::ArrowDown);
    tap_with(&mut e, &[Key::ShiftLeft], Key::Digit3); // sprite 3: flag 2
    ctrl(&mut e, Key::KeyZ);
    ctrl(&mut e, Key::KeyS);
    assert_eq!(flags.0.lock().unwrap().as_slice(), [vec![1, 4 | 128, 0, 0]]);
    ctrl(&mut e, Key::KeyS);
    assert_eq!(
        flags.0.lock().unwrap().len(),
        1,
        "unchanged flags are not saved again"
    );
}

#[test]
fn a_refused_save_is_shown_and_keeps_the_edits() {
    let (mut e, kept) = editor(&[("first.png", sheet_png(16, 4, 16, &first_pixels()))]);
    kept[0].refuse(Some("first.png: the disk is read-only: not saved"));
    stroke(&mut e, &[on_canvas(1, 1)]);
    ctrl(&mut e, Key::KeyS);
    assert!(state(&e).contains("read-only"), "{}", state(&e));
    assert!(state(&e).contains("\"dirty\":true"), "{}", state(&e));
    kept[0].refuse(None);
    ctrl(&mut e, Key::KeyS);
    assert!(state(&e).contains("\"dirty\":false"), "{}", state(&e));
}

#[test]
fn saving_with_no_edit_writes_the_bytes_read_at_every_depth() {
    for bits in [1, 2, 4, 8] {
        let colours = 1 << bits.min(5);
        let pixels: Vec<u8> = (0..24 * 5).map(|i| (i * 7 % colours) as u8).collect();
        let png = sheet_png_as(24, bits, colours, &pixels, png::Compression::NoCompression);
        assert_ne!(
            png,
            sheet_png(24, bits, colours, &pixels),
            "not BT's own encoding"
        );
        let (mut e, kept) = editor(&[("d.png", png.clone())]);
        ctrl(&mut e, Key::KeyS);
        assert_eq!(kept[0].bytes(), Some(png.clone()), "{bits} bits");
        // An edit undone is no edit either.
        stroke(&mut e, &[on_canvas(1, 1)]);
        ctrl(&mut e, Key::KeyZ);
        ctrl(&mut e, Key::KeyS);
        assert_eq!(kept[0].bytes(), Some(png), "{bits} bits, undone");
    }
}

#[test]
fn every_bundled_png_opens_and_saves_unchanged_or_is_refused_as_colours_and_converts_exactly() {
    let carts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../carts");
    let mut seen = 0;
    // The carts' own asset folders, and the one the gallery's carts share.
    let mut folders = vec![carts.join("assets")];
    for cart in std::fs::read_dir(&carts).unwrap().flatten() {
        folders.push(cart.path().join("assets"));
    }
    for folder in folders {
        let Ok(files) = std::fs::read_dir(folder) else {
            continue;
        };
        for f in files.flatten() {
            let path = f.path();
            if path.extension().is_none_or(|e| e != "png") {
                continue;
            }
            seen += 1;
            let bytes = std::fs::read(&path).unwrap();
            let name = path.display().to_string();
            match Sheet::read(&name, bytes.clone()) {
                Ok(_) => {
                    let (mut e, kept) = editor(&[(name.as_str(), bytes.clone())]);
                    ctrl(&mut e, Key::KeyS);
                    assert_eq!(kept[0].bytes(), Some(bytes), "{name}");
                }
                Err(err) => {
                    assert!(
                        matches!(err.kind, AssetErrorKind::NotIndexed(_)),
                        "{name}: {err}"
                    );
                    // Converted, the sheet shows every pixel in the colour it had.
                    let (sheet, mapped) = Sheet::convert(&name, &bytes, &[]).unwrap();
                    let theirs = image::load_from_memory(&bytes).unwrap().to_rgba8();
                    let ours = image::load_from_memory(&sheet.encode().unwrap())
                        .unwrap()
                        .to_rgba8();
                    assert_eq!(ours.as_raw(), theirs.as_raw(), "{name}");
                    assert!(mapped.len() <= 256, "{name}");
                }
            }
        }
    }
    assert!(seen >= 4, "the bundled carts' sheets were found: {seen}");
}

#[test]
fn every_key_the_editor_knows_is_in_its_docs() {
    let docs = include_str!("../../docs/sprite-editor.md");
    for (key, what) in KEYS {
        assert!(
            docs.contains(&format!("| {key} | {what} |")),
            "docs/sprite-editor.md lacks the row for {key}"
        );
    }
}

#[test]
fn the_editor_and_its_help_look_as_they_did() {
    let mut p = first_pixels();
    p[16 + 16 + 9] = 8;
    let (mut e, _) = editor(&[
        ("first.png", sheet_png(16, 4, 16, &p)),
        ("second.png", sheet_png(8, 8, 32, &[3u8; 64])),
    ]);
    tap_with(&mut e, &[Key::ShiftLeft], Key::Digit2);
    tap(&mut e, Key::KeyM);
    stroke(&mut e, &[on_canvas(2, 2), on_canvas(4, 5)]);
    tap(&mut e, Key::KeyB);
    stroke(&mut e, &[on_canvas(6, 1)]);
    assert_golden(&e, "sprite-edit.png");
    tap(&mut e, Key::Slash);
    assert_golden(&e, "sprite-edit-help.png");
}

fn assert_golden(e: &Engine, name: &str) {
    let fb = e.framebuffer();
    let mut rgba = vec![0; fb.pixels().len() * 4];
    e.palette().write_rgba(fb.pixels(), &mut rgba);
    golden::assert_matches(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name),
        golden::Rgba {
            width: fb.width(),
            height: fb.height(),
            pixels: &rgba,
        },
    );
}

#[test]
fn a_stroke_under_way_when_the_sheet_changes_is_one_undo_step_of_its_own_sheet() {
    let original = sheet_png(16, 4, 16, &first_pixels());
    let (mut e, kept) = editor(&[
        ("first.png", original.clone()),
        ("second.png", sheet_png(8, 8, 32, &[3u8; 64])),
    ]);
    let input = e.console_mut().input_mut();
    input.set_pointer_pos(on_canvas(2, 2).0, on_canvas(2, 2).1);
    input.set_buttons(Button::POINTER_A, Player::ONE, true);
    e.step(1).unwrap();
    tap(&mut e, Key::Tab);
    e.console_mut()
        .input_mut()
        .set_buttons(Button::POINTER_A, Player::ONE, false);
    e.step(1).unwrap();
    assert!(state(&e).contains("\"tab\":1"), "{}", state(&e));
    ctrl(&mut e, Key::KeyZ);
    assert!(
        state(&e).contains("\"tab\":0"),
        "undo shows the sheet it changed: {}",
        state(&e)
    );
    ctrl(&mut e, Key::KeyS);
    assert_eq!(kept[0].bytes(), Some(original));
}

#[test]
fn a_message_leaves_the_status_line_after_a_few_seconds() {
    let (mut e, _) = editor(&[("first.png", sheet_png(16, 4, 16, &first_pixels()))]);
    let quiet = e.framebuffer().pixels().to_vec();
    ctrl(&mut e, Key::KeyC);
    assert_ne!(e.framebuffer().pixels(), quiet, "'copied 8x8' shows");
    e.step(60).unwrap();
    assert_ne!(e.framebuffer().pixels(), quiet, "a second later, still");
    e.step(240).unwrap();
    assert_eq!(
        e.framebuffer().pixels(),
        quiet,
        "then the status line is as it was"
    );
}

#[test]
fn a_conversion_alone_is_saved_only_from_its_own_tab() {
    let rgba = [[0u8, 0, 0, 255], [255, 255, 255, 255]].concat();
    let picture = bt_runtime::sprite_edit::rgba_png(2, 1, &rgba);
    let kept = [Kept::new(), Kept::new()];
    let targets = kept.clone();
    let make = move || {
        let tabs = targets
            .iter()
            .map(|k| {
                let (sheet, _) = Sheet::convert("c.png", &picture, &[]).unwrap();
                SheetTab::new(sheet, Box::new(k.clone()))
            })
            .collect();
        Box::new(SpriteEditor::new(tabs)) as Box<dyn bt::Cart>
    };
    let mut e = Engine::new(Box::new(make), EngineOptions::default()).unwrap();
    e.step(1).unwrap();
    ctrl(&mut e, Key::KeyS);
    assert_eq!((kept[0].saves(), kept[1].saves()), (1, 0));
    assert!(
        state(&e).contains("\"dirty\":true"),
        "the second is still to save"
    );
    tap(&mut e, Key::Tab);
    ctrl(&mut e, Key::KeyS);
    assert_eq!((kept[0].saves(), kept[1].saves()), (1, 1));
    assert!(state(&e).contains("\"dirty\":false"), "{}", state(&e));
}

/// Where the editor lays its widget `index` out (as every update does) on a sheet of 16x16.
fn probe_rect(index: usize) -> bt::Rect {
    use bt::Cart;
    let sheet = Sheet::read("s.png", sheet_png(16, 4, 16, &first_pixels())).unwrap();
    let mut probe = SpriteEditor::new(vec![SheetTab::new(sheet, Box::new(Kept::new()))]);
    let mut con = bt::host::Console::new(&SpriteEditor::settings(), 0);
    probe.update(&mut con.update_context(0));
    probe.widget_rect(index).expect("the widget is declared")
}

/// The middle of the right end of a row of tabs: its last tab.
fn last_tab(r: bt::Rect) -> (i32, i32) {
    (r.x + r.w - 4, r.y + r.h / 2)
}

/// A turn of the wheel `by` lines across and down with the pointer at `at`, `mods` held.
fn wheel(e: &mut Engine, at: (i32, i32), mods: &[Key], by: (f32, f32)) {
    let input = e.console_mut().input_mut();
    input.set_pointer_pos(at.0, at.1);
    for &m in mods {
        input.set_key(m, true);
    }
    input.add_wheel(by.0, by.1);
    e.step(1).unwrap();
    let input = e.console_mut().input_mut();
    for &m in mods {
        input.set_key(m, false);
    }
    e.step(1).unwrap();
}

/// A field of `state` as its JSON text: `"scroll":[0,8]` gives `[0,8]`.
fn field(e: &Engine, name: &str) -> String {
    let s = state(e);
    let from = s.find(&format!("\"{name}\":")).expect("the field") + name.len() + 3;
    let rest = &s[from..];
    let end = if rest.starts_with('[') {
        rest.find(']').map_or(rest.len(), |i| i + 1)
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    rest[..end].to_string()
}

#[test]
fn the_sheet_view_scrolls_by_wheel_and_bar_and_comes_back_to_a_sprite_the_arrows_choose() {
    let (mut e, _) = editor(&[("big.png", sheet_png(256, 4, 16, &[1u8; 256 * 256]))]);
    let sheet = (layout::SHEET.x + 20, layout::SHEET.y + 20);
    let step = layout::WHEEL_STEP;
    wheel(&mut e, sheet, &[], (0.0, 3.0));
    assert_eq!(field(&e, "scroll"), format!("[0,{}]", 3 * step));
    wheel(&mut e, sheet, &[Key::ShiftLeft], (0.0, 2.0));
    assert_eq!(field(&e, "scroll"), format!("[{},{}]", 2 * step, 3 * step));
    assert_eq!(
        field(&e, "color"),
        "1",
        "the wheel over the sheet leaves the colour"
    );
    // The bottom of the bar down: the sheet's last rows show.
    let bar = layout::SCROLL_DOWN;
    click(&mut e, (bar.x + 2, bar.y + bar.h - 1));
    let bottom = 256 - layout::SHEET.h;
    assert_eq!(field(&e, "scroll"), format!("[{},{bottom}]", 2 * step));
    // The bar across, dragged back to its start.
    let bar = layout::SCROLL_ACROSS;
    stroke(
        &mut e,
        &[(bar.x + bar.w / 2, bar.y + 2), (bar.x, bar.y + 2)],
    );
    assert_eq!(field(&e, "scroll"), format!("[0,{bottom}]"));
    // The sprite at the sheet's corner is out of view; the arrows bring the next one in.
    tap(&mut e, Key::ArrowDown);
    assert_eq!(field(&e, "sprite"), "[0,8,8,8]");
    assert_eq!(field(&e, "scroll"), "[0,8]");
    // The wheel off the sheet picks the colour, as before.
    wheel(&mut e, on_canvas(1, 1), &[], (0.0, 1.0));
    assert_eq!(field(&e, "color"), "2");
    assert_eq!(field(&e, "scroll"), "[0,8]");
}

#[test]
fn the_tool_tabs_filled_box_size_tabs_and_zoomed_sheet_view_answer_a_click() {
    let (mut e, _) = editor(&[("s.png", sheet_png(64, 4, 16, &[0u8; 64 * 64]))]);
    click(&mut e, last_tab(probe_rect(layout::widget::TOOLS)));
    assert!(state(&e).contains("\"tool\":\"Select\""), "{}", state(&e));
    let filled = probe_rect(layout::widget::FILLED);
    click(&mut e, (filled.x + 4, filled.y + 4));
    assert!(state(&e).contains("\"tool\":\"RectFill\""), "{}", state(&e));
    tap(&mut e, Key::KeyE);
    assert!(state(&e).contains("\"tool\":\"Ellipse\""), "{}", state(&e));
    click(&mut e, (filled.x + 4, filled.y + 4));
    assert!(
        state(&e).contains("\"tool\":\"EllipseFill\""),
        "{}",
        state(&e)
    );
    click(&mut e, last_tab(probe_rect(layout::widget::SIZE)));
    assert_eq!(field(&e, "sprite"), "[0,0,32,32]");
    tap(&mut e, Key::Digit1);
    // The sheet of 64x64 shows zoomed in its view: a click picks the sprite under it.
    let z = layout::sheet_zoom_for(64, 64);
    assert!(z > 1, "a small sheet is zoomed");
    let (sx, sy) = (layout::SHEET.x, layout::SHEET.y);
    click(&mut e, (sx + 20 * z + z / 2, sy + 36 * z + z / 2));
    assert_eq!(field(&e, "sprite"), "[16,32,8,8]");
}

#[test]
fn the_undo_redo_save_help_and_preview_widgets_do_what_their_keys_do() {
    use layout::widget;
    let original = sheet_png(16, 4, 16, &first_pixels());
    let (mut e, kept) = editor(&[("first.png", original.clone())]);
    let middle = |index: usize| {
        let r = probe_rect(index);
        (r.x + r.w / 2, r.y + r.h / 2)
    };
    tap(&mut e, Key::BracketRight);
    stroke(&mut e, &[on_canvas(1, 1), on_canvas(3, 1)]);
    click(&mut e, middle(widget::UNDO));
    assert!(state(&e).contains("\"undo\":0"), "{}", state(&e));
    click(&mut e, middle(widget::REDO));
    click(&mut e, middle(widget::SAVE));
    assert_eq!(kept[0].bytes().unwrap(), sheet_png(16, 4, 16, &stroked()));
    // The frames field's right arrow, the rate's left one, and Play.
    let frames = probe_rect(widget::FRAMES);
    click(&mut e, (frames.x + 2, frames.y + frames.h / 2));
    click(
        &mut e,
        (frames.x + layout::NUMBER_W - 2, frames.y + frames.h / 2),
    );
    click(
        &mut e,
        (frames.x + layout::NUMBER_W - 2, frames.y + frames.h / 2),
    );
    let rate = probe_rect(widget::RATE);
    click(&mut e, (rate.x + 2, rate.y + rate.h / 2));
    click(&mut e, middle(widget::PLAY));
    assert_eq!(field(&e, "preview"), "[true,5,7]");
    click(&mut e, middle(widget::HELP));
    assert_eq!(field(&e, "help"), "1");
    // The help screen covers the widgets: a click where a tool tab was chooses nothing.
    click(&mut e, last_tab(probe_rect(widget::TOOLS)));
    assert!(state(&e).contains("\"tool\":\"Pencil\""), "{}", state(&e));
}
