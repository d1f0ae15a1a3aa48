//! What the window measured: when each frame was presented, kept in a buffer sized up front so
//! recording allocates nothing, and the rate and frame-to-frame jitter worked out from it.

use std::fmt::Write as _;

/// One presented frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Presented {
    /// Milliseconds since the window opened, taken right after the present call returned.
    pub at_ms: f64,
    /// Updates the frame ran (0 when the engine delivered no frame: paused or paced).
    pub updates: u32,
    /// The cart's tick counter after it.
    pub ticks: u64,
    /// The window's size, in physical pixels, the frame was presented for.
    pub window: (u32, u32),
}

/// Present times, up to a fixed number of frames.
#[derive(Debug, Clone)]
pub struct PresentLog {
    frames: Vec<Presented>,
}

impl PresentLog {
    /// Room for `capacity` frames; later frames are not recorded.
    pub fn with_capacity(capacity: usize) -> PresentLog {
        PresentLog {
            frames: Vec::with_capacity(capacity),
        }
    }

    /// Records a frame, when there is room.
    pub fn push(&mut self, frame: Presented) {
        if self.frames.len() < self.frames.capacity() {
            self.frames.push(frame);
        }
    }

    /// The frames recorded.
    pub fn frames(&self) -> &[Presented] {
        &self.frames
    }

    /// The log as CSV: frame, present time, interval to the previous present, updates, ticks,
    /// and the window's width and height.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("frame,present_ms,interval_ms,updates,ticks,width,height\n");
        let mut prev: Option<f64> = None;
        for (i, f) in self.frames.iter().enumerate() {
            let interval = prev.map(|p| f.at_ms - p);
            let _ = writeln!(
                out,
                "{i},{:.3},{},{},{},{},{}",
                f.at_ms,
                interval.map(|v| format!("{v:.3}")).unwrap_or_default(),
                f.updates,
                f.ticks,
                f.window.0,
                f.window.1
            );
            prev = Some(f.at_ms);
        }
        out
    }

    /// Rate and jitter of the presents, skipping the first `warmup` frames (window creation and
    /// shader compilation make the first few slow). `None` with fewer than three frames left.
    pub fn summary(&self, warmup: usize) -> Option<Summary> {
        let frames = self.frames.get(warmup..)?;
        if frames.len() < 3 {
            return None;
        }
        let mut intervals: Vec<f64> = frames.windows(2).map(|w| w[1].at_ms - w[0].at_ms).collect();
        let n = intervals.len() as f64;
        let span_ms = frames[frames.len() - 1].at_ms - frames[0].at_ms;
        let mean = intervals.iter().sum::<f64>() / n;
        let sd = (intervals.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
        // Frame-to-frame jitter: how much each interval differs from the one before.
        let steps: Vec<f64> = intervals.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        let jitter = if steps.is_empty() {
            0.0
        } else {
            steps.iter().sum::<f64>() / steps.len() as f64
        };
        intervals.sort_by(f64::total_cmp);
        let pct = |p: f64| intervals[((intervals.len() - 1) as f64 * p).round() as usize];
        Some(Summary {
            frames: frames.len(),
            fps: intervals.len() as f64 * 1000.0 / span_ms,
            mean_ms: mean,
            sd_ms: sd,
            jitter_ms: jitter,
            p50_ms: pct(0.5),
            p99_ms: pct(0.99),
            max_ms: intervals[intervals.len() - 1],
        })
    }
}

/// Present rate and jitter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Frames measured.
    pub frames: usize,
    /// Presents per second.
    pub fps: f64,
    /// Mean interval between presents, ms.
    pub mean_ms: f64,
    /// Standard deviation of the intervals, ms.
    pub sd_ms: f64,
    /// Mean absolute change from one interval to the next, ms.
    pub jitter_ms: f64,
    /// Median interval, ms.
    pub p50_ms: f64,
    /// 99th-percentile interval, ms.
    pub p99_ms: f64,
    /// Longest interval, ms.
    pub max_ms: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} frames, {:.1} fps; interval mean {:.2} ms, sd {:.2} ms, median {:.2} ms, \
             p99 {:.2} ms, max {:.2} ms; frame-to-frame jitter {:.2} ms",
            self.frames,
            self.fps,
            self.mean_ms,
            self.sd_ms,
            self.p50_ms,
            self.p99_ms,
            self.max_ms,
            self.jitter_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(times: &[f64]) -> PresentLog {
        let mut l = PresentLog::with_capacity(times.len());
        for &t in times {
            l.push(Presented {
                at_ms: t,
                updates: 1,
                ticks: 0,
                window: (640, 480),
            });
        }
        l
    }

    #[test]
    fn steady_presents_have_no_jitter() {
        let times: Vec<f64> = (0..61).map(|i| i as f64 * 1000.0 / 60.0).collect();
        let s = log(&times).summary(0).unwrap();
        assert!((s.fps - 60.0).abs() < 1e-9);
        assert!(s.jitter_ms < 1e-9 && s.sd_ms < 1e-9);
    }

    #[test]
    fn alternating_intervals_show_as_jitter() {
        let s = log(&[0.0, 10.0, 30.0, 40.0, 60.0, 70.0])
            .summary(0)
            .unwrap();
        assert_eq!(s.jitter_ms, 10.0);
        assert_eq!(s.max_ms, 20.0);
        assert_eq!(s.fps, 5.0 * 1000.0 / 70.0);
        assert!(log(&[0.0, 1.0]).summary(0).is_none());
        assert!(log(&[0.0, 1.0, 2.0, 3.0]).summary(2).is_none());
    }

    #[test]
    fn the_log_stops_at_its_capacity_and_writes_csv() {
        let mut l = PresentLog::with_capacity(2);
        for t in [0.0, 16.5, 33.0] {
            l.push(Presented {
                at_ms: t,
                updates: 1,
                ticks: 3,
                window: (640, 480),
            });
        }
        assert_eq!(l.frames().len(), 2);
        assert_eq!(
            l.to_csv(),
            "frame,present_ms,interval_ms,updates,ticks,width,height\n0,0.000,,1,3,640,480\n\
             1,16.500,16.500,1,3,640,480\n"
        );
    }
}
