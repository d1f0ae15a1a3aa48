//! `cart.toml`: any text is read into a manifest or refused with an error, and a manifest's
//! settings apply onto the defaults (loading a palette file it names, when there is one) or
//! are refused with an error.
#![no_main]

use std::path::Path;

use bt::Settings;
use bt_runtime::config::manifest;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A folder with nothing in it: a palette file the manifest names is simply missing.
    let Ok(parsed) = manifest::parse(text, Path::new("/nonexistent-bt-fuzz/cart.toml")) else {
        return;
    };
    let mut settings = Settings::default();
    if parsed.settings.apply(&mut settings).is_ok() {
        let _ = settings.validate();
    }
});
