//! Key-map files: any text is read into a key map or refused with an error, and a key map
//! written back out reads in as the same map.
#![no_main]

use std::path::Path;

use bt_runtime::host::keymap::KeyMap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("keys.toml");
    let Ok(map) = KeyMap::from_toml(text, path) else {
        return;
    };
    let written = map.to_toml();
    let again = KeyMap::from_toml(&written, path)
        .unwrap_or_else(|e| panic!("a written key map does not read back: {e}\n{written}"));
    assert_eq!(
        again, map,
        "the key map changed on the way through:\n{written}"
    );
});
