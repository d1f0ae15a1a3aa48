//! A save state file (`StateFile::from_json`): any text is read or refused with a one-line
//! error, never a panic; a state read is written (`to_json`) as text that reads back the same.
//! `@BUILD@` in the input stands for this build's name, so a seed can be a state file of any
//! build.
#![no_main]

use std::path::Path;

use bt_runtime::engine::{state_build, StateFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = text.replace("@BUILD@", state_build());
    let path = Path::new("fuzz.state");
    match StateFile::from_json(&text, path) {
        Ok(state) => {
            let back = StateFile::from_json(&state.to_json(), path).expect("written reads back");
            assert_eq!(back, state);
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n'), "{message}");
        }
    }
});
