//! The user's `config.toml`: any text is read into a settings layer or refused with an error,
//! and the layer applies onto the defaults.
#![no_main]

use std::path::Path;

use bt::Settings;
use bt_runtime::config::manifest;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(patch) = manifest::parse_user_config(text, Path::new("config.toml")) else {
        return;
    };
    let mut settings = Settings::default();
    if patch.apply(&mut settings).is_ok() {
        let _ = settings.validate();
    }
});
