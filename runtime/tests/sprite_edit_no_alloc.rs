//! The sprite editor's frames allocate nothing while nothing is edited: moving the pointer
//! over the canvas and the sheet, moving from sprite to sprite, the animation preview and the
//! help screen, counted by the allocator itself.

use bt::Key;
use bt_runtime::edit::Kept;
use bt_runtime::sprite_edit::{Sheet, SheetTab, SpriteEditor};
use bt_runtime::{Engine, EngineOptions};
use bt_test_support::CountingAlloc;

mod editing;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// A 64x32 sheet at 8 bits, 40 colours, converted from a picture of them.
fn sheet() -> Sheet {
    let rgba: Vec<u8> = (0..64 * 32)
        .flat_map(|i: u32| {
            let c = (i * 7 % 40) as u8;
            [c * 6, 255 - c * 6, c, 255]
        })
        .collect();
    let png = bt_runtime::sprite_edit::rgba_png(64, 32, &rgba);
    let (sheet, _) = Sheet::convert("sheet.png", &png, &[]).unwrap();
    let bytes = sheet.encode().unwrap();
    Sheet::read("sheet.png", bytes).unwrap()
}

#[test]
fn moving_around_the_editor_allocates_nothing() {
    let make = || {
        let tabs = vec![SheetTab::new(sheet(), Box::new(Kept::new()))];
        Box::new(SpriteEditor::new(tabs)) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(make), options).unwrap();
    let keys = [
        Key::KeyP,
        Key::ArrowRight,
        Key::ArrowDown,
        Key::Period,
        Key::Digit2,
        Key::ArrowLeft,
        Key::Slash,
        Key::Slash,
        Key::Slash,
        Key::Digit1,
        Key::ArrowUp,
        Key::KeyL,
    ];
    let step = |e: &mut Engine, i: usize| {
        let input = e.console_mut().input_mut();
        let key = keys[i / 3 % keys.len()];
        input.set_key(key, i.is_multiple_of(3));
        input.set_pointer_pos((i * 7 % 320) as i32, (i * 5 % 240) as i32);
        e.step(1).unwrap();
    };
    assert_eq!(
        editing::steady_allocations(&GLOBAL, &mut e, step),
        0,
        "allocations in {} frames",
        editing::COUNTED
    );
}
