//! Stereo: the pan law every channel and clip voice goes through, and the fold back to mono.
//!
//! The law is a *balance*: at the centre both sides play the sound at full level, and moving it
//! to one side lowers the other side in a straight line to silence at the edge, leaving the
//! near side as it was. So a cart that never pans makes left and right equal, each exactly the
//! mono mix BT made before it had two sides, and folding them back gives that mix again. A
//! sound panned hard to one side is as loud on that side as it was centred (and 3 dB quieter
//! in all, one speaker instead of two); a constant-power law would instead make every centred
//! sound 3 dB quieter than a mono cart's. Integers only: the samples are the same everywhere.

/// One stereo sample: left, then right.
pub type Frame = [i16; 2];

/// A pan: -127 is hard left, 0 the centre, 127 hard right (-128 counts as -127).
pub type Pan = i8;

/// Full level in [`pan_gains`]' units.
pub const UNITY_GAIN: i64 = 256;

/// The gains, left and right, of a sound at `pan`, out of [`UNITY_GAIN`] (256): full on both
/// sides at the centre, and the far side falling in a straight line to 0 at the edge.
///
/// ```
/// use bt::sound::pan_gains;
///
/// assert_eq!(pan_gains(0), [256, 256], "centred: both sides at full level");
/// assert_eq!(pan_gains(127), [0, 256], "hard right");
/// assert_eq!(pan_gains(-128), [256, 0], "-128 counts as -127, hard left");
/// assert_eq!(pan_gains(-64), [256, 126], "half left: the right side near half");
/// ```
pub const fn pan_gains(pan: Pan) -> [i64; 2] {
    let pan = if pan < -127 { -127 } else { pan } as i64;
    if pan <= 0 {
        [UNITY_GAIN, UNITY_GAIN * (127 + pan) / 127]
    } else {
        [UNITY_GAIN * (127 - pan) / 127, UNITY_GAIN]
    }
}

/// A frame folded to one sample: the mean of its sides, rounded down, so a frame whose sides
/// are equal (any sound never panned) gives that sample exactly.
///
/// ```
/// use bt::sound::to_mono;
///
/// assert_eq!(to_mono([-1234, -1234]), -1234);
/// assert_eq!(to_mono([32_767, -32_768]), -1);
/// ```
pub const fn to_mono(frame: Frame) -> i16 {
    ((frame[0] as i32 + frame[1] as i32) >> 1) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pan_keeps_the_near_side_full_and_the_far_side_between_silence_and_full() {
        for pan in i8::MIN..=i8::MAX {
            let [l, r] = pan_gains(pan);
            assert!((0..=UNITY_GAIN).contains(&l) && (0..=UNITY_GAIN).contains(&r));
            assert!(l == UNITY_GAIN || r == UNITY_GAIN, "{pan}");
            if pan > -128 {
                assert_eq!(pan_gains(pan), {
                    let [a, b] = pan_gains(-pan);
                    [b, a]
                });
            }
        }
    }

    #[test]
    fn folding_equal_sides_gives_the_sample_back() {
        for s in [i16::MIN, -1, 0, 1, 12_345, i16::MAX] {
            assert_eq!(to_mono([s, s]), s);
        }
    }
}
