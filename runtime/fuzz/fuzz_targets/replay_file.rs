//! A replay file: any bytes are read into a replay or refused with an error, never a panic; a
//! replay that reads is checked against a cart's name and rate, and its every recorded tick can
//! be walked, and written out it reads back the same.
#![no_main]

use std::path::Path;

use bt_runtime::replay::Replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.btr");
    let Ok(replay) = Replay::from_json(text, path) else {
        return;
    };
    let _ = replay.check(path, "hello", Some("0.1.0"), 60.0);
    // The runs' counts add up to the ticks the replay says it holds (walked up to a bound:
    // run lengths may claim billions).
    let ticks = replay.ticks();
    let walked = replay.recording().iter().take(100_000).count() as u64;
    assert_eq!(walked, ticks.min(100_000), "runs and tick count disagree");
    // The compact storage of the runs gives back what was read: written out and read again,
    // it is the same replay.
    let again = Replay::from_json(&replay.to_json(), path).expect("a written replay reads");
    assert_eq!(again, replay, "a replay changed on its way through its file");
});
