//! A frame-time capture (`Capture::parse`): any text is read into a capture or refused with one
//! line naming the file, never a panic; a capture read has frames, all valid frame times, and
//! its clock plays exactly them and then stops.
#![no_main]

use std::sync::Arc;

use bt_runtime::clock::capture::{Capture, MAX_CAPTURE_MS, MIN_CAPTURE_MS};
use bt_runtime::Clock;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A first line "#!NAME" is taken off and names the selector.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (selector, text) = match text.strip_prefix("#!").and_then(|r| r.split_once('\n')) {
        Some((selector, rest)) => (Some(selector), rest),
        None => (None, text),
    };
    match Capture::parse(text, "fuzz.csv", selector) {
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("capture 'fuzz.csv'"), "{message}");
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
        Ok(capture) => {
            assert!(!capture.is_empty());
            let frames = capture.frames_ms().to_vec();
            assert!(frames
                .iter()
                .all(|ms| (MIN_CAPTURE_MS..=MAX_CAPTURE_MS).contains(ms)));
            let _ = capture.refresh();
            let _ = capture.describe();
            let capture = Arc::new(capture);
            let mut clock = capture.clock(false);
            for &ms in &frames {
                assert_eq!(clock.delta(0.0), Some(ms));
            }
            assert_eq!(clock.delta(0.0), None, "no silent restart");
        }
    }
});
