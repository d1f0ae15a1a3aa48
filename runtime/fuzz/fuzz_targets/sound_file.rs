//! A `bt-sound 1` file: any text is read into sound effects and tunes or refused with an error
//! naming its line, never a panic.
#![no_main]

use bt::sound::SoundFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = SoundFile::parse("fuzz.sfx", text) {
        // Errors are one short line that names the file.
        let message = e.to_string();
        assert!(message.starts_with("fuzz.sfx"), "{message}");
    }
});
