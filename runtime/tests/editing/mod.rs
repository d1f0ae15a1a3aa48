//! What the editors' tests share: keys tapped on an editor running in an engine, one update
//! down and the next up, as a player's quick press arrives; and the allocations of an editor's
//! steady frames, counted.

// Each test file uses the part it needs.
#![allow(dead_code)]

use bt::Key;
use bt_runtime::Engine;
use bt_test_support::CountingAlloc;

/// Updates run before counting: what is made once (the font's tables, buffers) is made.
const WARM_UP: usize = 200;
/// Updates counted.
pub const COUNTED: usize = 600;

/// The allocations `alloc` counts over [`COUNTED`] updates `step` makes (it is given the
/// engine and the update's number), after [`WARM_UP`] it makes first.
pub fn steady_allocations(
    alloc: &CountingAlloc,
    e: &mut Engine,
    step: impl Fn(&mut Engine, usize),
) -> u64 {
    for i in 0..WARM_UP {
        step(e, i);
    }
    alloc.allocations_during(|| {
        for i in WARM_UP..WARM_UP + COUNTED {
            step(e, i);
        }
    })
}

/// Taps `key` with `mods` held: down for one update, up (with the mods) for the next.
pub fn tap_with(e: &mut Engine, mods: &[Key], key: Key) {
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

/// Taps `key` alone.
pub fn tap(e: &mut Engine, key: Key) {
    tap_with(e, &[], key);
}
