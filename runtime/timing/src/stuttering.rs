//! CapFrameX's "stuttering time": the share of a run's time spent in frames longer than a
//! factor times a moving average of the frame times before them.
//!
//! As CapFrameX works it out (its `GetStutteringTimePercentage` with its
//! `SampleBasedMovingAverage`):
//!
//! - the moving average at frame `i` is the mean of the `n` frame times up to and including
//!   `i` (fewer at the start), with `n` the mean frame time's square root times ten, rounded
//!   to the nearest whole number (ties to even, as .NET's `Convert.ToInt32`), at least 1;
//! - within that window a frame more than three times as long as the one before it counts as
//!   the one before it, so a spike does not lift the average it is measured against;
//! - a frame is a stutter when it is longer than [`CAPFRAMEX_STUTTERING_FACTOR`] times the
//!   moving average at it;
//! - the stuttering time is the stutters' times added up, in percent of all frame times.
//!
//! BT keeps the window's sum as it slides instead of adding the window up again at each
//! frame: the same figure, to the last bits of rounding.
//!
//! ```
//! use bt_timing::stuttering::stuttering_time_percent;
//!
//! // 99 frames of 10 ms and one of 100 ms: the stall is a stutter, 100 of 1090 ms.
//! let mut frames = vec![10.0; 99];
//! frames.insert(50, 100.0);
//! let share = stuttering_time_percent(&frames);
//! assert!((share - 100.0 * 100.0 / 1090.0).abs() < 1e-9);
//! ```

/// CapFrameX's default stuttering factor (its `StutteringFactor` setting): a frame is a
/// stutter when longer than this many times the moving average.
pub const CAPFRAMEX_STUTTERING_FACTOR: f64 = 2.5;
/// Within the moving average's window, a frame more than this many times as long as the one
/// before it counts as the one before it (CapFrameX's spike guard).
const SPIKE_RATIO: f64 = 3.0;

/// CapFrameX's stuttering time of `frames_ms`, in order, in percent of their summed time, with
/// its default factor (see the module). 0 for no frames or no time.
pub fn stuttering_time_percent(frames_ms: &[f64]) -> f64 {
    stuttering_time_percent_with(frames_ms, CAPFRAMEX_STUTTERING_FACTOR)
}

/// [`stuttering_time_percent`] with another factor. It keeps nothing a frame: the moving
/// average's window is summed as it slides.
pub fn stuttering_time_percent_with(frames_ms: &[f64], factor: f64) -> f64 {
    let n = frames_ms.len();
    let total: f64 = frames_ms.iter().sum();
    if n == 0 || total <= 0.0 || !total.is_finite() {
        return 0.0;
    }
    let window = ((total / n as f64).sqrt() * 10.0)
        .round_ties_even()
        .max(1.0) as usize;
    // What frame j adds to a window holding it: its time, or the one before's after a spike.
    let part = |j: usize| {
        if j > 0 && frames_ms[j] > SPIKE_RATIO * frames_ms[j - 1] {
            frames_ms[j - 1]
        } else {
            frames_ms[j]
        }
    };
    let (mut sum, mut stuttering) = (0.0, 0.0);
    for (i, &ms) in frames_ms.iter().enumerate() {
        sum += part(i);
        if i >= window {
            sum -= part(i - window);
        }
        let average = sum / (i + 1).min(window) as f64;
        if ms > factor * average {
            stuttering += ms;
        }
    }
    100.0 * stuttering / total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CapFrameX's own way, for comparison: the window added up again at each frame.
    fn added_up_again(frames: &[f64], factor: f64) -> f64 {
        let mean = frames.iter().sum::<f64>() / frames.len() as f64;
        let window = ((mean.sqrt() * 10.0).round_ties_even() as usize).max(1);
        let mut stuttering = 0.0;
        for i in 0..frames.len() {
            let (mut sum, mut count) = (0.0, 0);
            let mut j = i as isize;
            while j >= 0 {
                let k = j as usize;
                sum += if k > 0 && frames[k] > 3.0 * frames[k - 1] {
                    frames[k - 1]
                } else {
                    frames[k]
                };
                count += 1;
                if count >= window {
                    break;
                }
                j -= 1;
            }
            if frames[i] > factor * sum / count as f64 {
                stuttering += frames[i];
            }
        }
        100.0 * stuttering / frames.iter().sum::<f64>()
    }

    #[test]
    fn stuttering_time_matches_the_window_added_up_at_every_frame() {
        // A run that drifts from 8 to 30 ms with stalls and double frames along the way.
        let frames: Vec<f64> = (0..3000)
            .map(|i| {
                let base = 8.0 + 22.0 * f64::from(i) / 3000.0;
                match i % 97 {
                    0 => base * 6.0,
                    13 => base * 2.7,
                    _ => base + f64::from(i * 7919 % 13) * 0.1,
                }
            })
            .collect();
        let ours = stuttering_time_percent(&frames);
        let theirs = added_up_again(&frames, 2.5);
        assert!(ours > 0.0);
        assert!((ours - theirs).abs() < 1e-9, "{ours} against {theirs}");
    }

    #[test]
    fn a_frame_after_a_spike_is_measured_against_the_average_without_the_spike() {
        // 20 ms frames, then a 200 ms one and a 60 ms one right after. The window (the mean,
        // 23.5 ms: √23.5 × 10 ≈ 49 frames) counts the 200 ms frame as 20 ms, so the average at
        // the 60 ms frame is 20.8 ms and the frame, over 2.5 times it, is a stutter too; had
        // the spike counted, the average would be 25.3 ms and 60 ms would not exceed 2.5
        // times it.
        let mut frames = vec![20.0; 50];
        frames.extend([200.0, 60.0]);
        frames.extend(vec![20.0; 10]);
        let total: f64 = frames.iter().sum();
        let share = stuttering_time_percent(&frames);
        assert!((share - 100.0 * 260.0 / total).abs() < 1e-9, "{share}");
    }

    #[test]
    fn a_steady_run_has_no_stuttering_time() {
        assert_eq!(stuttering_time_percent(&[16.7; 500]), 0.0);
        assert_eq!(stuttering_time_percent(&[]), 0.0);
    }
}
