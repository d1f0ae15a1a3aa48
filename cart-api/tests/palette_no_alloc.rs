//! A flash over a palette with named slots copies the live palette into the shown one every
//! update: once warm, that copy allocates nothing, names included.

use std::time::Duration;

use bt::host::Console;
use bt::{Color32, Palette, Settings};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

#[test]
fn flashing_a_named_palette_does_not_allocate_once_warm() {
    let mut pal = Palette::pico8();
    pal.set_name("water", 12).unwrap();
    pal.set_name("lava, the hot kind that glows", 8).unwrap();
    let mut con = Console::new(&Settings::default().palette(pal), 0);
    con.update_context(0)
        .flash_palette(Color32::WHITE, Duration::from_secs(60));
    con.step_effects();
    let during = GLOBAL.allocations_during(|| {
        for t in 1..120 {
            let mut ctx = con.update_context(t);
            // Something for the copy to carry: the live palette changes every update.
            ctx.palette_mut().swap(1, 2).unwrap();
            con.step_effects();
        }
    });
    assert_eq!(during, 0, "allocations in 119 flashing updates");
    assert_eq!(
        con.palette().get(5),
        Some(Color32::WHITE),
        "the flash is shown"
    );
    assert_eq!(con.palette().slot_named("water"), Some(12));
}
