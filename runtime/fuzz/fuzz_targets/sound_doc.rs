//! The sound editor's reading of a sound file (`SoundDoc::read`) and its writing back: any text
//! is read or refused with an error naming the file, never a panic; a file read is written back
//! as text that reads as the same sounds, and writing that again changes nothing.
#![no_main]

use bt_runtime::sound_edit::SoundDoc;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let doc = match SoundDoc::read("fuzz.txt", text) {
        Ok(doc) => doc,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz.txt"), "{message}");
            assert!(!message.contains('\n'), "{message}");
            return;
        }
    };
    let written = doc.to_text();
    let back = SoundDoc::read("fuzz.txt", &written).expect("the text written reads back");
    assert_eq!(back.sounds, doc.sounds, "the same sounds read back");
    assert_eq!(back.to_text(), written, "writing again changes nothing");
    doc.checked_text().expect("an unedited file saves");
});
