//! Palette files (`.hex` and `.png`) and preset names: any bytes are read into a palette or
//! refused with an error. `load_palette` reads files only, so the input is written to a file
//! first. Input: one byte choosing `.hex`, `.png` or a preset name, then the contents.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use bt_runtime::config::manifest::{load_palette, PaletteSource, MANIFEST_PALETTE_SLOTS};
use libfuzzer_sys::fuzz_target;

/// A folder of this process's own for the palette files.
fn folder() -> &'static PathBuf {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bt-fuzz-palette-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, contents)) = data.split_first() else {
        return;
    };
    let source = match kind % 3 {
        0 => {
            let path = folder().join("palette.hex");
            std::fs::write(&path, contents).expect("writing the palette file");
            PaletteSource::File(path)
        }
        1 => {
            let path = folder().join("palette.png");
            std::fs::write(&path, contents).expect("writing the palette file");
            PaletteSource::File(path)
        }
        _ => PaletteSource::Preset(String::from_utf8_lossy(contents).into_owned()),
    };
    if let Ok(palette) = load_palette(&source) {
        assert_eq!(palette.len(), MANIFEST_PALETTE_SLOTS);
    }
});
