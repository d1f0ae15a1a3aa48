//! The sound editor's frames allocate nothing while nothing is edited: moving the cursor,
//! selecting, moving the pointer and drawing both pages, counted by the allocator itself.

use bt::Key;
use bt_runtime::edit::SaveTarget;
use bt_runtime::sound_edit::{SoundDoc, SoundEditor};
use bt_runtime::{Engine, EngineOptions};
use bt_test_support::CountingAlloc;

mod editing;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

struct Nowhere;

impl SaveTarget for Nowhere {
    fn save(&mut self, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn moving_around_both_pages_allocates_nothing() {
    let make = || {
        let text = include_str!("../../carts/platformer/assets/music.txt");
        let doc = SoundDoc::read("music.txt", text).unwrap();
        Box::new(SoundEditor::new(doc, Box::new(Nowhere))) as Box<dyn bt::Cart>
    };
    let options = EngineOptions {
        overlay: false,
        snapshot_budget: 0,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(make), options).unwrap();
    let keys = [
        Key::ArrowDown,
        Key::ArrowRight,
        Key::ShiftLeft,
        Key::ArrowDown,
        Key::ArrowUp,
        Key::BracketRight,
        Key::KeyT,
        Key::ArrowDown,
        Key::ArrowRight,
        Key::BracketLeft,
    ];
    let step = |e: &mut Engine, i: usize| {
        let input = e.console_mut().input_mut();
        let key = keys[i / 3 % keys.len()];
        // T with Ctrl held: the other page.
        input.set_key(Key::ControlLeft, key == Key::KeyT && i.is_multiple_of(3));
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
