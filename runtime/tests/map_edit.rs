//! The map editor as a player meets it, headless: scripted keys and what they change in the
//! bytes it saves, and what it shows.
//!
//! Golden pictures follow the one rule of `bt_runtime::harness::golden`: `BT_UPDATE_GOLDEN=1`
//! rewrites `tests/golden/` after a reviewed change.

use std::path::Path;
use std::sync::Arc;

use bt::{Button, Key, Player};
use bt_runtime::edit::Kept;
use bt_runtime::harness::golden;
use bt_runtime::map_edit::layout::{widget, MAP_VIEW, PALETTE};
use bt_runtime::map_edit::{MapEditor, HELP_KEY, KEYS, TOOL_KEYS};
use bt_runtime::replay::{frame_hash, Replay};
use bt_runtime::tiled_doc::TiledDoc;
use bt_runtime::{Engine, EngineOptions};

mod editing;
use editing::{tap, tap_with};

const LEVEL2: &[u8] = include_bytes!("../../carts/platformer/assets/level2.tmx");
const TILES: &[u8] = include_bytes!("../../carts/platformer/assets/tiles.png");

fn editor(bytes: &'static [u8]) -> (Engine, Kept) {
    editor_with(bytes, Some(TILES))
}

/// The editor on the map `bytes`, with the tileset picture `picture` when given.
fn editor_with(bytes: &'static [u8], picture: Option<&'static [u8]>) -> (Engine, Kept) {
    let (mut engine, kept) = editor_playing(bytes, picture, None);
    engine.step(1).unwrap();
    (engine, kept)
}

/// The editor, not yet stepped, its updates seeing `replay`'s input when one is given.
fn editor_playing(
    bytes: &'static [u8],
    picture: Option<&'static [u8]>,
    replay: Option<Arc<Replay>>,
) -> (Engine, Kept) {
    let kept = Kept::new();
    let target = kept.clone();
    let make = move || {
        let doc = TiledDoc::read("level2.tmx", bytes).expect("a good map");
        let editor = MapEditor::new(doc, None, Box::new(target.clone()));
        let editor = match picture {
            Some(png) => editor.with_picture("tiles.png", png.to_vec()),
            None => editor,
        };
        Box::new(editor) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        replay,
        ..EngineOptions::default()
    };
    let engine = Engine::new(Box::new(make), options).expect("the editor boots");
    (engine, kept)
}

/// The bytes the same edits give through the document alone.
fn expected(edit: impl FnOnce(&mut TiledDoc)) -> Vec<u8> {
    let mut doc = TiledDoc::read("level2.tmx", LEVEL2).unwrap();
    edit(&mut doc);
    doc.to_bytes().unwrap()
}

#[test]
fn saving_with_no_edit_writes_the_bytes_read() {
    let (mut e, kept) = editor(LEVEL2);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept.bytes().as_deref(), Some(LEVEL2));
}

#[test]
fn a_paint_a_layer_paint_and_a_fill_save_exact_bytes_and_undo_goes_back() {
    let (mut e, kept) = editor(LEVEL2);
    // Paint tile 2 (gid 3) at (1, 1) on the first layer.
    tap(&mut e, Key::Period);
    tap(&mut e, Key::Period);
    tap(&mut e, Key::ArrowRight);
    tap(&mut e, Key::ArrowDown);
    tap(&mut e, Key::Space);
    // The next layer: the same cell.
    tap(&mut e, Key::BracketRight);
    tap(&mut e, Key::Space);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let want = expected(|d| {
        d.layer_mut(0).unwrap().set_cell(1, 1, 3);
        d.layer_mut(1).unwrap().set_cell(1, 1, 3);
    });
    assert_eq!(kept.bytes().unwrap(), want);
    // A fill of the second layer's empty area around (2, 1) with the empty tile's neighbour.
    tap(&mut e, Key::KeyF);
    tap(&mut e, Key::ArrowRight);
    tap(&mut e, Key::Space);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let saved = TiledDoc::read("level2.tmx", &kept.bytes().unwrap()).unwrap();
    let layer = &saved.layers()[1];
    assert_eq!(layer.cell(2, 1), Some(3));
    assert_eq!(layer.cell(0, 0), Some(3), "the wall row is tile 3 already");
    // Undo past the fill and both paints: the cells read (a base64 layer saved in between is
    // encoded again, so its text may differ from the first).
    for _ in 0..3 {
        tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    }
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let undone = TiledDoc::read("level2.tmx", &kept.bytes().unwrap()).unwrap();
    let read = TiledDoc::read("level2.tmx", LEVEL2).unwrap();
    for (a, b) in undone.layers().iter().zip(read.layers()) {
        assert_eq!(a.cells(), b.cells(), "{}", a.name());
    }
}

#[test]
fn an_infinite_map_opens_read_only_and_a_save_refuses() {
    const INFINITE: &[u8] = b"<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\" \
        infinite=\"1\"><layer name=\"a\" width=\"1\" height=\"1\"><data encoding=\"csv\">\
        <chunk x=\"0\" y=\"0\" width=\"16\" height=\"16\">1</chunk></data></layer></map>";
    let (mut e, kept) = editor(INFINITE);
    tap(&mut e, Key::Space);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept.saves(), 0);
}

#[test]
fn every_key_has_a_row_in_the_docs() {
    let doc = include_str!("../../docs/map-editor.md");
    for (key, what) in KEYS {
        assert!(doc.contains(&format!("| {key} | {what} |")), "{key}");
    }
}

/// The frame as RGBA bytes.
fn frame_rgba(e: &Engine) -> (u32, u32, Vec<u8>) {
    let fb = e.framebuffer();
    let mut rgba = vec![0; fb.pixels().len() * 4];
    e.palette().write_rgba(fb.pixels(), &mut rgba);
    (fb.width(), fb.height(), rgba)
}

fn assert_golden(e: &Engine, name: &str) {
    let (width, height, pixels) = frame_rgba(e);
    golden::assert_matches(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name),
        golden::Rgba {
            width,
            height,
            pixels: &pixels,
        },
    );
}

#[test]
fn the_tileset_picture_draws_in_its_own_colours_its_key_colour_see_through() {
    let (mut e, _) = editor(LEVEL2);
    e.step(1).unwrap();
    let state = e.test_state().unwrap_or_default();
    assert!(!state.contains("tiles.png"), "{state}");
    let (width, _, rgba) = frame_rgba(&e);
    let at = |x: u32, y: u32| {
        let i = ((y * width + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    assert!(
        (0..rgba.len() / 4).all(|i| rgba[i * 4..i * 4 + 3] != [255, 0, 255]),
        "the key colour (pink) shows"
    );
    // The ground's wall tile (tile 2, gid 3) shows somewhere exactly as the sheet has it.
    let (sheet_w, sheet) = sheet_rgb(TILES);
    let tile = |x: u32, y: u32| sheet[(y * sheet_w + 16 + x) as usize];
    let (_, height, _) = frame_rgba(&e);
    let found = (0..height - 8).any(|y| {
        (0..width - 8).any(|x| (0..8).all(|dy| (0..8).all(|dx| at(x + dx, y + dy) == tile(dx, dy))))
    });
    assert!(found, "the wall tile is not drawn in the sheet's colours");
    assert_golden(&e, "map-edit-level2.png");
}

/// An indexed PNG's pixels as RGB, and its width.
fn sheet_rgb(png_bytes: &[u8]) -> (u32, Vec<[u8; 3]>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, pixels)
}

const LEVEL1: &[u8] = include_bytes!("../../carts/platformer/assets/level1.tmj");

/// The editor on `bytes` (read as `name`), no picture, saving into a `Kept`.
fn editor_named(name: &'static str, bytes: Vec<u8>, tileset: Option<TiledDoc>) -> (Engine, Kept) {
    let kept = Kept::new();
    let target = kept.clone();
    let make = move || {
        let doc = TiledDoc::read(name, &bytes).expect("a good map");
        Box::new(MapEditor::new(
            doc,
            tileset.clone(),
            Box::new(target.clone()),
        )) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(make), options).expect("the editor boots");
    engine.step(1).unwrap();
    (engine, kept)
}

/// A map shaped like a Celeste port's: 128 × 64 cells in two layers, pretty JSON as
/// `bt import` writes it.
fn celeste_shaped() -> Vec<u8> {
    let row = |y: usize| {
        (0..128)
            .map(|x| ((x * 7 + y * 13) % 97 % 5).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let data = |f: &dyn Fn(usize) -> String| (0..64).map(f).collect::<Vec<_>>().join(",\n        ");
    let layer = |id: u32, name: &str, cells: String| {
        format!(
            "    {{\n      \"type\": \"tilelayer\",\n      \"id\": {id},\n      \"name\": \"{name}\",\n      \
             \"width\": 128,\n      \"height\": 64,\n      \"opacity\": 1,\n      \"visible\": true,\n      \
             \"x\": 0,\n      \"y\": 0,\n      \"data\": [\n        {cells}\n      ]\n    }}"
        )
    };
    let zeros = |_| vec!["0"; 128].join(", ");
    format!(
        "{{\n  \"type\": \"map\",\n  \"version\": \"1.10\",\n  \"orientation\": \"orthogonal\",\n  \
         \"renderorder\": \"right-down\",\n  \"width\": 128,\n  \"height\": 64,\n  \"tilewidth\": 8,\n  \
         \"tileheight\": 8,\n  \"infinite\": false,\n  \"nextlayerid\": 3,\n  \"nextobjectid\": 1,\n  \
         \"tilesets\": [\n    {{\"firstgid\": 1, \"name\": \"atlas\", \"tilewidth\": 8, \"tileheight\": 8, \
         \"tilecount\": 128, \"columns\": 16, \"image\": \"atlas.png\", \"imagewidth\": 128, \
         \"imageheight\": 64}}\n  ],\n  \"layers\": [\n{},\n{}\n  ]\n}}\n",
        layer(1, "map", data(&row)),
        layer(2, "front", data(&zeros)),
    )
    .into_bytes()
}

#[test]
fn opening_and_saving_with_no_edit_keeps_every_byte_of_tmj_tmx_and_a_celeste_shaped_map() {
    let celeste = celeste_shaped();
    let maps: [(&'static str, Vec<u8>); 3] = [
        ("level1.tmj", LEVEL1.to_vec()),
        ("level2.tmx", LEVEL2.to_vec()),
        ("celeste.tmj", celeste),
    ];
    for (name, bytes) in maps {
        let (mut e, kept) = editor_named(name, bytes.clone(), None);
        let doc = TiledDoc::read(name, &bytes).unwrap();
        if name == "celeste.tmj" {
            assert_eq!((doc.size(), doc.layers().len()), ((128, 64), 2));
        }
        // Moving about, changing the layer and the zoom edit nothing.
        for key in [Key::ArrowRight, Key::BracketRight, Key::Equal, Key::KeyG] {
            tap(&mut e, key);
        }
        tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
        assert_eq!(kept.bytes().as_deref(), Some(&bytes[..]), "{name}");
    }
}

#[test]
fn a_paste_and_a_flip_save_exact_bytes_and_undo_goes_back_past_them() {
    let (mut e, kept) = editor(LEVEL2);
    // The ground layer; select (0, 0) to (2, 1) with the keys and copy it.
    tap(&mut e, Key::BracketRight);
    tap(&mut e, Key::KeyS);
    tap(&mut e, Key::Space);
    for key in [Key::ArrowRight, Key::ArrowRight, Key::ArrowDown] {
        tap(&mut e, key);
    }
    tap(&mut e, Key::Space);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyC);
    // Paste at (5, 3): the pasted cells become the selection, which H mirrors.
    for key in [Key::ArrowRight, Key::ArrowRight, Key::ArrowRight] {
        tap(&mut e, key);
    }
    for key in [Key::ArrowDown, Key::ArrowDown] {
        tap(&mut e, key);
    }
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyV);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let read = TiledDoc::read("level2.tmx", LEVEL2).unwrap();
    let ground = &read.layers()[1];
    let pasted = expected(|d| {
        let l = d.layer_mut(1).unwrap();
        for y in 0..2 {
            for x in 0..3 {
                l.set_cell(5 + x, 3 + y, ground.cell(x, y).unwrap());
            }
        }
    });
    assert_eq!(kept.bytes().unwrap(), pasted, "the paste");
    tap(&mut e, Key::KeyH);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let flipped = expected(|d| {
        let l = d.layer_mut(1).unwrap();
        for y in 0..2 {
            for x in 0..3 {
                l.set_cell(5 + x, 3 + y, ground.cell(2 - x, y).unwrap());
            }
        }
    });
    assert_ne!(pasted, flipped, "the flip changes what was pasted");
    assert_eq!(kept.bytes().unwrap(), flipped, "the flip");
    // Undo the flip, then the paste: the file read.
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept.bytes().unwrap(), pasted, "the flip undone");
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept.bytes().as_deref(), Some(LEVEL2), "the paste undone");
}

/// Moves the pointer to display pixel (`x`, `y`) with the left button `down`, for one update.
fn pointer(e: &mut Engine, x: i32, y: i32, down: bool) {
    let input = e.console_mut().input_mut();
    input.set_pointer_pos(x, y);
    input.set_buttons(Button::POINTER_A, Player::ONE, down);
    e.step(1).unwrap();
}

/// The display pixel in the middle of map cell (`x`, `y`) at 1x, the view at the map's corner.
fn cell_pixel(x: i32, y: i32) -> (i32, i32) {
    (MAP_VIEW.x + x * 8 + 4, MAP_VIEW.y + y * 8 + 4)
}

#[test]
fn a_pointer_drag_on_the_map_paints_exact_bytes_as_one_undo_step() {
    let (mut e, kept) = editor(LEVEL2);
    // The ground layer, tile 1 (gid 2) chosen with a press on the palette's second tile.
    tap(&mut e, Key::BracketRight);
    pointer(&mut e, PALETTE.x + 8 + 4, PALETTE.y + 4, true);
    pointer(&mut e, PALETTE.x + 8 + 4, PALETTE.y + 4, false);
    let (x, y) = cell_pixel(2, 3);
    pointer(&mut e, x, y, true);
    for cx in 3..=5 {
        let (x, y) = cell_pixel(cx, 3);
        pointer(&mut e, x, y, true);
    }
    let (x, y) = cell_pixel(5, 4);
    pointer(&mut e, x, y, true);
    pointer(&mut e, x, y, false);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let want = expected(|d| {
        let l = d.layer_mut(1).unwrap();
        for x in 2..=5 {
            l.set_cell(x, 3, 2);
        }
        l.set_cell(5, 4, 2);
    });
    assert_eq!(kept.bytes().unwrap(), want);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyZ);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    assert_eq!(kept.bytes().as_deref(), Some(LEVEL2), "one undo step");
}

#[test]
fn a_click_on_a_widget_is_not_a_click_on_the_map() {
    let (mut e, kept) = editor(LEVEL2);
    tap(&mut e, Key::BracketRight);
    // The Fill tab chooses the fill tool; a press on the Save button saves what is there.
    let fill = probe_rect(widget::TOOLS);
    // The tabs: Paint, Fill, ... the second tab a little right of the first's width.
    pointer(&mut e, fill.x + 44, fill.y + fill.h / 2, true);
    pointer(&mut e, fill.x + 44, fill.y + fill.h / 2, false);
    assert!(e.test_state().unwrap().contains("\"tool\":\"Fill\""));
    let save = probe_rect(widget::SAVE);
    pointer(&mut e, save.x + 2, save.y + 2, true);
    pointer(&mut e, save.x + 2, save.y + 2, false);
    assert_eq!(
        kept.bytes().as_deref(),
        Some(LEVEL2),
        "the button saved, nothing painted"
    );
    assert!(!save.intersects(MAP_VIEW) && !fill.intersects(MAP_VIEW));
}

/// Where the editor lays its widget `index` out (as every update does).
fn probe_rect(index: usize) -> bt::Rect {
    use bt::Cart;
    let doc = TiledDoc::read("level2.tmx", LEVEL2).unwrap();
    let mut probe = MapEditor::new(doc, None, Box::new(Kept::new()));
    let mut con = bt::host::Console::new(&MapEditor::settings(), 0);
    probe.update(&mut con.update_context(0));
    probe.widget_rect(index).expect("the widget is declared")
}

#[test]
fn the_flags_overlay_reads_an_external_tilesets_flags() {
    for (tileset_name, tileset) in [
        (
            "tiles.tsx",
            "<tileset name=\"t\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"4\" columns=\"2\">\
             <tile id=\"0\"><properties><property name=\"flags\" type=\"int\" value=\"5\"/>\
             </properties></tile></tileset>",
        ),
        (
            "tiles.tsj",
            "{\"type\": \"tileset\", \"name\": \"t\", \"tilewidth\": 8, \"tileheight\": 8, \
             \"tilecount\": 4, \"columns\": 2, \"tiles\": [{\"id\": 0, \"properties\": \
             [{\"name\": \"flags\", \"type\": \"int\", \"value\": 5}]}]}",
        ),
    ] {
        let map = format!(
            "<map width=\"6\" height=\"6\" tilewidth=\"8\" tileheight=\"8\">\
             <tileset firstgid=\"1\" source=\"{tileset_name}\"/><layer name=\"a\" width=\"6\" \
             height=\"6\"><data encoding=\"csv\">0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,2,0,0,\
             0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0</data></layer></map>"
        );
        let ts = TiledDoc::read(tileset_name, tileset.as_bytes()).expect("a good tileset");
        let (mut e, _) = editor_named("flags.tmx", map.into_bytes(), Some(ts));
        let flagged = |e: &Engine, cx: i32| {
            let fb = e.framebuffer();
            let (x, y) = (MAP_VIEW.x + cx * 8, MAP_VIEW.y + 2 * 8);
            fb.pixels()[(y * fb.width() as i32 + x) as usize] == FLAG_COLOUR
        };
        assert!(!flagged(&e, 2), "{tileset_name}: no overlay before G");
        tap(&mut e, Key::KeyG);
        assert!(flagged(&e, 2), "{tileset_name}: tile 0's flags (5) show");
        assert!(!flagged(&e, 3), "{tileset_name}: tile 1 has none");
    }
}

/// The colour the flags overlay outlines a flagged cell in (PICO-8's red).
const FLAG_COLOUR: u8 = 8;

#[test]
fn a_recorded_editing_session_replays_to_the_same_picture_and_save() {
    let (mut e, kept) = editor_playing(LEVEL2, Some(TILES), None);
    e.start_recording(60);
    e.step(1).unwrap();
    tap(&mut e, Key::BracketRight);
    tap(&mut e, Key::Period);
    let (x, y) = cell_pixel(4, 5);
    pointer(&mut e, x, y, true);
    let (x, y) = cell_pixel(6, 5);
    pointer(&mut e, x, y, true);
    pointer(&mut e, x, y, false);
    tap(&mut e, Key::KeyG);
    tap_with(&mut e, &[Key::ControlLeft], Key::KeyS);
    let saved = kept.bytes().expect("saved");
    assert_ne!(saved, LEVEL2, "the session edited");
    let replay = e.recording("map-edit", None).expect("recorded");

    let (mut again, replayed) = editor_playing(LEVEL2, Some(TILES), Some(Arc::new(replay)));
    again.step(e.updates_since_init()).unwrap();
    assert_eq!(replayed.bytes(), Some(saved));
    assert_eq!(
        frame_hash(again.framebuffer(), again.palette()),
        frame_hash(e.framebuffer(), e.palette())
    );
    assert_eq!(again.test_state(), e.test_state());
}

#[test]
fn the_help_and_tool_keys_are_none_the_host_keeps_for_itself() {
    use bt_runtime::host::pause_menu::MENU_KEY;
    let keys = TOOL_KEYS.iter().map(|(k, _)| *k).chain([HELP_KEY]);
    for key in keys {
        assert!(
            !bt::host::HOST_KEYS.contains(&key) && key != MENU_KEY,
            "{key:?} never reaches the editor in a window"
        );
    }
    let (mut e, _) = editor(LEVEL2);
    tap(&mut e, Key::KeyR);
    tap(&mut e, Key::KeyB);
    assert!(e.test_state().unwrap().contains("\"tool\":\"Paint\""));
    tap_with(&mut e, &[Key::ShiftLeft], HELP_KEY);
    assert!(e.test_state().unwrap().contains("\"help\":true"));
    tap(&mut e, Key::Escape);
    assert!(e.test_state().unwrap().contains("\"help\":false"));
}
