//! A PICO-8 `.p8` cart (`bt_runtime::cli::p8_files`, what `bt import` reads): any text is
//! turned into BT's three files or refused with one line naming the file and its line, never
//! a panic; the files made read back in BT's own readers: the sheet as a PNG of 128 × 128, the
//! map as a Tiled map of 128 × 64 cells, the sounds as a `bt-sound 1` file.
#![no_main]

use bt::host::ImageLoader;
use bt::sound::SoundFile;
use bt_runtime::config::assets::{Assets, Paths};
use bt_runtime::config::tiled::decode_map;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As `bt import` reads the file.
    let text = String::from_utf8_lossy(data);
    match bt_runtime::cli::p8_files("fuzz.p8", "fuzz", &text) {
        Err(message) => {
            assert!(message.starts_with("fuzz.p8:"), "{message}");
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
        Ok(files) => {
            let sheet = Assets(Paths)
                .decode("fuzz.png", &files.sheet_png)
                .expect("the sheet made reads back");
            assert_eq!((sheet.width, sheet.height), (128, 128));
            let map =
                decode_map("fuzz.tmj", files.map_tmj.as_bytes()).expect("the map made reads back");
            assert_eq!(map.size(), (128, 64));
            SoundFile::parse("fuzz-sounds.txt", &files.sounds).expect("the sounds made read back");
        }
    }
});
