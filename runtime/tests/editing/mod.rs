//! What the editors' tests share: keys tapped on an editor running in an engine, one update
//! down and the next up, as a player's quick press arrives.

use bt::Key;
use bt_runtime::Engine;

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
