//! A Tiled map (`decode_map_with`: `.tmx` XML or `.tmj` JSON, the first byte picking which) and
//! the tileset file it may name (the bytes after the first NUL, `.tsx` or `.tsj` to match):
//! any bytes are read into a map within BT's limits or refused with one line naming the map,
//! never a panic, never more memory than the limits allow.
#![no_main]

use bt::limits::{MAX_MAP_CELLS, MAX_MAP_LAYERS};
use bt_runtime::config::tiled::decode_map_with;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (map, tileset) = match rest.iter().position(|&b| b == 0) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let (name, tileset_name) = if pick & 1 == 0 {
        ("fuzz.tmx", "fuzz.tsx")
    } else {
        ("fuzz.tmj", "fuzz.tsj")
    };
    let tileset_text = String::from_utf8_lossy(tileset).into_owned();
    let reader = |_: &str| Ok((tileset_name.to_string(), tileset_text.clone()));
    match decode_map_with(name, map, &reader) {
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.contains("fuzz.ts") || message.contains(name),
                "{message}"
            );
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
        Ok(map) => {
            let (w, h) = map.size();
            assert!(w > 0 && h > 0);
            assert!(u64::from(w) * u64::from(h) <= MAX_MAP_CELLS);
            assert!(map.layer_count() <= MAX_MAP_LAYERS);
        }
    }
});
