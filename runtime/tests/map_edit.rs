//! The map editor as a player meets it, headless: scripted keys and what they change in the
//! bytes it saves.

use bt::Key;
use bt_runtime::edit::Kept;
use bt_runtime::map_edit::{MapEditor, KEYS};
use bt_runtime::tiled_doc::TiledDoc;
use bt_runtime::{Engine, EngineOptions};

const LEVEL2: &[u8] = include_bytes!("../../carts/platformer/assets/level2.tmx");

fn editor(bytes: &'static [u8]) -> (Engine, Kept) {
    let kept = Kept::new();
    let target = kept.clone();
    let make = move || {
        let doc = TiledDoc::read("level2.tmx", bytes).expect("a good map");
        Box::new(MapEditor::new(doc, None, Box::new(target.clone()))) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(make), options).expect("the editor boots");
    engine.step(1).unwrap();
    (engine, kept)
}

fn tap_with(e: &mut Engine, mods: &[Key], key: Key) {
    let input = e.console_mut().input_mut();
    for &m in mods {
        input.set_key(m, true);
    }
    input.set_key(key, true);
    e.step(1).unwrap();
    let input = e.console_mut().input_mut();
    input.set_key(key, false);
    for &m in mods {
        input.set_key(m, false);
    }
    e.step(1).unwrap();
}

fn tap(e: &mut Engine, key: Key) {
    tap_with(e, &[], key);
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
    tap(&mut e, Key::Tab);
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
