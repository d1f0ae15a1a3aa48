//! Sample clips, the Ogg Vorbis path (BT's copy of lewton): any bytes decode into a clip within the
//! limits (1 to MAX_CLIP_FRAMES frames, a rate in CLIP_RATES), or are refused with a one-line
//! error naming the file. A decoder panic is a finding here (libFuzzer's panic hook aborts),
//! though `decode_clip` turns one into an error for a cart.
#![no_main]

use bt::sound::{CLIP_RATES, MAX_CLIP_FRAMES};
use bt_runtime::config::clip::decode_clip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match decode_clip("fuzz.ogg", data) {
        Ok(clip) => {
            assert!(!clip.frames.is_empty());
            assert!(clip.frames.len() as u64 <= MAX_CLIP_FRAMES);
            assert!(CLIP_RATES.contains(&clip.rate), "{} Hz", clip.rate);
        }
        Err(e) => {
            let text = e.to_string();
            assert!(text.starts_with("fuzz.ogg: "), "{text}");
            assert!(!text.contains('\n'), "{text}");
        }
    }
});
