//! The files an exported game carries (`Bundle::read_from`, the end of the game's own program
//! file): any bytes are read into a bundle or refused with one line naming the file, never a
//! panic; a bundle read has only names inside the game's folder and writes back to the same
//! bytes.
#![no_main]

use bt_runtime::cli::bundle::Bundle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("bt-fuzz-bundle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join("game");
    std::fs::write(&path, data).expect("the file is written");
    match Bundle::read_from(&path) {
        Err(message) => {
            assert!(
                message.starts_with(&path.display().to_string()),
                "{message}"
            );
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
        Ok(None) => {}
        Ok(Some(bundle)) => {
            for (name, _) in &bundle.files {
                assert!(
                    !name.is_empty()
                        && !name.starts_with('/')
                        && name
                            .split('/')
                            .all(|p| !p.is_empty() && p != "." && p != ".."),
                    "{name:?}"
                );
            }
            let bytes = bundle.to_bytes();
            assert!(
                data.ends_with(&bytes),
                "the bundle is the file's end, whole"
            );
        }
    }
});
