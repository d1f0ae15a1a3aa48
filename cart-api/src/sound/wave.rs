//! Waves from a 32-bit phase, and pitches to phase steps, in integers only.

use super::Wave;

/// C0 to B0 in micro-hertz; higher octaves double them.
const OCTAVE_0_UHZ: [u64; 12] = [
    16_351_598, 17_323_914, 18_354_048, 19_445_436, 20_601_722, 21_826_764, 23_124_651, 24_499_715,
    25_956_544, 27_500_000, 29_135_235, 30_867_706,
];

/// The highest pitch the synthesiser plays, in 256ths of a semitone (G10, after an arpeggio or
/// vibrato on B7).
const TOP_PITCH: i32 = 127 * 256;

fn semitone_uhz(s: i32) -> u64 {
    let s = s as usize;
    OCTAVE_0_UHZ[s % 12] << (s / 12)
}

/// The phase step per sample for `pitch` (256ths of a semitone above C0) at `rate` samples a
/// second. Between semitones the frequency is interpolated linearly.
pub(crate) fn phase_step(pitch: i32, rate: u32) -> u32 {
    let pitch = pitch.clamp(0, TOP_PITCH);
    let (s, frac) = (pitch >> 8, (pitch & 255) as u64);
    let lo = semitone_uhz(s);
    let hi = semitone_uhz(s + 1);
    let uhz = lo + (hi - lo) * frac / 256;
    let step = (u128::from(uhz) << 32) / (u128::from(rate.max(1)) * 1_000_000);
    // Past half the sample rate a wave only aliases; keep below it.
    step.min(u128::from(u32::MAX / 2)) as u32
}

/// One sample of `wave` at `phase`, in `-32767..=32767`. `noise` is the noise channel's held
/// value.
pub(crate) fn sample(wave: Wave, phase: u32, noise: i32) -> i32 {
    let x = (phase >> 16) as i32; // 0..65536
    match wave {
        Wave::Square { duty } => {
            if (phase >> 24) < u32::from(duty.clamp(1, 255)) {
                24_000
            } else {
                -24_000
            }
        }
        Wave::Triangle => {
            if x < 32_768 {
                2 * x - 32_767
            } else {
                32_767 - 2 * (x - 32_768)
            }
        }
        Wave::Saw => (x - 32_768) * 3 / 4,
        Wave::Sine => {
            // sin(πu) ≈ 4u(1 − |u|) for u in [−1, 1).
            let u = (phase as i32) >> 16;
            let s = 4 * i64::from(u) * (32_768 - i64::from(u.abs())) / 32_768;
            s.clamp(-32_767, 32_767) as i32
        }
        Wave::Noise => noise,
    }
}

/// The next state of a noise generator (xorshift32; never 0 once seeded non-zero).
pub(crate) fn next_noise(state: u32) -> u32 {
    let mut x = state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a4_is_440_hz() {
        let step = phase_step(57 * 256, 44_100);
        let hz = f64::from(step) * 44_100.0 / 4_294_967_296.0;
        assert!((hz - 440.0).abs() < 0.01, "{hz}");
    }

    #[test]
    fn every_wave_stays_in_range_and_the_sine_peaks_at_a_quarter() {
        let waves = [
            Wave::Square { duty: 0 },
            Wave::Square { duty: 255 },
            Wave::Triangle,
            Wave::Saw,
            Wave::Sine,
        ];
        for wave in waves {
            for k in 0..=4096u32 {
                let s = sample(wave, k.wrapping_mul(1 << 20), 0);
                assert!((-32_767..=32_767).contains(&s), "{wave:?} at {k}: {s}");
            }
        }
        assert_eq!(sample(Wave::Sine, 1 << 30, 0), 32_767);
        assert_eq!(sample(Wave::Sine, 3 << 30, 0), -32_767);
        assert_eq!(sample(Wave::Sine, 0, 0), 0);
    }

    #[test]
    fn pitch_past_the_top_is_held_below_half_the_rate() {
        assert!(phase_step(i32::MAX, 8_000) <= u32::MAX / 2);
        assert!(phase_step(-5, 8_000) > 0);
    }
}
