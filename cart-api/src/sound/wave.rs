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

/// Where the tilted saw's peak falls, in 65536ths of the period: 7/8 (PICO-8's wave 1).
const TILT_PEAK: i64 = 57_344;
/// The organ's tall hump peaks at full scale times this over 3: PICO-8's organ peaks at 2/3 of
/// its triangle, the level BT's triangle plays at.
const ORGAN_PEAK: i64 = 21_845;

/// The phaser's second triangle's phase step for a first one's `step`: 109/110 of it.
pub(crate) fn phaser_step(step: u32) -> u32 {
    (u64::from(step) * 109 / 110) as u32
}

/// One sample of `wave` at `phase`, in `-32767..=32767`. `noise` is the noise channel's held
/// value; `phase2` is the phaser's second triangle's phase.
pub(crate) fn sample(wave: Wave, phase: u32, phase2: u32, noise: i32) -> i32 {
    let x = (phase >> 16) as i32; // 0..65536
    match wave {
        Wave::TiltedSaw => {
            let x = i64::from(x);
            let v = if x < TILT_PEAK {
                -32_767 + 65_534 * x / TILT_PEAK
            } else {
                32_767 - 65_534 * (x - TILT_PEAK) / (65_536 - TILT_PEAK)
            };
            v as i32
        }
        Wave::Organ => {
            // In 65536ths: a hump of ±3 over the first half (peak at a quarter), one from -3
            // up to 1 over the second (peak at three quarters).
            let x = i64::from(x);
            let v = if x < 32_768 {
                3 * 65_536 - (24 * x - 6 * 65_536).abs()
            } else {
                65_536 - (16 * x - 12 * 65_536).abs()
            };
            (v * ORGAN_PEAK / (3 * 65_536)) as i32
        }
        Wave::Phaser => {
            // A triangle of ±2 and one of ±1 a little lower, summed and scaled to ±32767.
            let (x, y) = (i64::from(x), i64::from(phase2 >> 16));
            let a = 2 * 65_536 - (8 * x - 4 * 65_536).abs();
            let b = 65_536 - (4 * y - 2 * 65_536).abs();
            ((a + b) * 32_767 / (3 * 65_536)) as i32
        }
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
            Wave::TiltedSaw,
            Wave::Organ,
            Wave::Phaser,
        ];
        for wave in waves {
            for k in 0..=4096u32 {
                let s = sample(wave, k.wrapping_mul(1 << 20), k.wrapping_mul(3 << 19), 0);
                assert!((-32_767..=32_767).contains(&s), "{wave:?} at {k}: {s}");
            }
        }
        assert_eq!(sample(Wave::Sine, 1 << 30, 0, 0), 32_767);
        assert_eq!(sample(Wave::Sine, 3 << 30, 0, 0), -32_767);
        assert_eq!(sample(Wave::Sine, 0, 0, 0), 0);
    }

    /// The wave at `t` of a period (0 to 1), with the phaser's second phase `lag` of a period
    /// behind.
    fn at(wave: Wave, t: f64, lag: f64) -> i32 {
        let phase = (t * 4_294_967_296.0) as u64 as u32;
        let phase2 = ((t - lag).rem_euclid(1.0) * 4_294_967_296.0) as u64 as u32;
        sample(wave, phase, phase2, 0)
    }

    #[test]
    fn the_tilted_saw_rises_for_seven_eighths_of_a_period_and_falls_in_the_last() {
        assert_eq!(at(Wave::TiltedSaw, 0.0, 0.0), -32_767);
        assert_eq!(at(Wave::TiltedSaw, 0.875, 0.0), 32_767);
        assert!(
            at(Wave::TiltedSaw, 0.4375, 0.0).abs() <= 2,
            "half way up is 0"
        );
        assert!(
            at(Wave::TiltedSaw, 0.9375, 0.0).abs() <= 2,
            "half way down is 0"
        );
        let peak = (0..4096)
            .max_by_key(|&k| at(Wave::TiltedSaw, f64::from(k) / 4096.0, 0.0))
            .unwrap();
        assert_eq!(peak, 3584, "the peak at 7/8");
    }

    #[test]
    fn the_organ_has_a_tall_hump_then_one_a_third_as_tall() {
        let peak = at(Wave::Organ, 0.25, 0.0);
        assert_eq!(at(Wave::Organ, 0.0, 0.0), -peak);
        assert_eq!(at(Wave::Organ, 0.5, 0.0), -peak);
        assert!((at(Wave::Organ, 0.75, 0.0) - peak / 3).abs() <= 1);
        assert!(peak > 20_000 && peak < 32_767, "{peak}");
    }

    #[test]
    fn the_phaser_is_two_triangles_that_add_up_in_phase_and_cancel_part_out_of_it() {
        assert_eq!(at(Wave::Phaser, 0.5, 0.0), 32_767);
        assert_eq!(at(Wave::Phaser, 0.0, 0.0), -32_767);
        assert!((at(Wave::Phaser, 0.5, 0.5) - 32_767 / 3).abs() <= 1);
        assert_eq!(phaser_step(110_000), 109_000);
    }

    #[test]
    fn pitch_past_the_top_is_held_below_half_the_rate() {
        assert!(phase_step(i32::MAX, 8_000) <= u32::MAX / 2);
        assert!(phase_step(-5, 8_000) > 0);
    }
}
