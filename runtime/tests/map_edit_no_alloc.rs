//! The map editor's frames allocate nothing while nothing is edited: moving the cursor and the
//! pointer, changing the tool, the layer, the zoom and the flags overlay, and drawing it all,
//! counted by the allocator itself.

use bt::Key;
use bt_runtime::edit::Kept;
use bt_runtime::map_edit::MapEditor;
use bt_runtime::tiled_doc::TiledDoc;
use bt_runtime::{Engine, EngineOptions};
use bt_test_support::CountingAlloc;

mod editing;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

#[test]
fn moving_about_the_map_and_the_widgets_allocates_nothing() {
    let make = || {
        let bytes = include_bytes!("../../carts/platformer/assets/level2.tmx");
        let png = include_bytes!("../../carts/platformer/assets/tiles.png");
        let doc = TiledDoc::read("level2.tmx", bytes).unwrap();
        let editor = MapEditor::new(doc, None, Box::new(Kept::new()));
        Box::new(editor.with_picture("tiles.png", png.to_vec())) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(make), options).unwrap();
    let keys = [
        Key::ArrowRight,
        Key::ArrowDown,
        Key::KeyR,
        Key::BracketRight,
        Key::Equal,
        Key::KeyG,
        Key::ArrowRight,
        Key::Period,
        Key::Minus,
        Key::KeyB,
        Key::BracketLeft,
        Key::KeyG,
    ];
    let (w, h) = bt_runtime::map_edit::DISPLAY;
    let step = |e: &mut Engine, i: usize| {
        let input = e.console_mut().input_mut();
        input.set_key(keys[i / 3 % keys.len()], i.is_multiple_of(3));
        input.set_pointer_pos((i * 7 % w as usize) as i32, (i * 5 % h as usize) as i32);
        e.step(1).unwrap();
    };
    assert_eq!(
        editing::steady_allocations(&GLOBAL, &mut e, step),
        0,
        "allocations in {} frames",
        editing::COUNTED
    );
}
