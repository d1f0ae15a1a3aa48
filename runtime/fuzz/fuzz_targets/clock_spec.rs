//! `--clock` specs: any text either parses into a spec that builds a clock, or is refused with
//! an error; the clock it builds then runs on host times taken from the rest of the input, and
//! feeds a fixed-step loop whose render alpha stays in [0, 1).
//! Input: the spec, a NUL byte, then host times as little-endian `f64`s.
#![no_main]

use std::str::FromStr;

use bt_runtime::clock::spec::ClockSpec;
use bt_runtime::{FixedLoop, TickAction};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (spec, times) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let Ok(spec) = std::str::from_utf8(spec) else {
        return;
    };
    let Ok(parsed) = ClockSpec::from_str(spec) else {
        return;
    };
    // Parsing checks what building checks: a parsed spec always builds.
    let mut clock = parsed
        .build()
        .unwrap_or_else(|e| panic!("{spec:?} parsed but does not build: {e}"));
    let mut fixed = FixedLoop::new(60.0).expect("60 updates a second");
    for chunk in times.chunks_exact(8).take(256) {
        let now = f64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let _ = clock.next_frame_ms();
        if let Some(delta) = clock.delta(now) {
            let t = fixed.frame(delta, |_| TickAction::Advance);
            assert!(
                (0.0..1.0).contains(&t.render_alpha),
                "{spec:?}: render_alpha {} after a delta of {delta} at {now}",
                t.render_alpha
            );
        }
    }
});
