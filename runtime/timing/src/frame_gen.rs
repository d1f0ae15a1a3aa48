//! Frame generation in a capture: the application's frames apart from the generated ones
//! (AMD's AFMF, Intel's XeSS-FG, NVIDIA's DLSS frame generation), read from the capture's
//! `FrameType` column ([`crate::clock::capture::FrameTypes`]).
//!
//! A generated frame is shown between two of the application's, so the displayed rate counts
//! both while the game itself, its simulation and its response to input, runs at the
//! application's rate alone. Each application frame's interval is the time from the previous
//! application frame's present to its own on the capture's timeline: the present intervals of
//! the generated frames between them are part of it.
//!
//! ```
//! use bt_timing::frame_gen::FrameGen;
//!
//! // A generated frame before each of the application's: 8.35 ms presents, an application
//! // frame every 16.7 ms.
//! let frames = [8.35, 8.35, 8.35, 8.35];
//! let generated = [true, false, true, false];
//! let g = FrameGen::of(&frames, &generated).unwrap();
//! assert_eq!((g.app_frames, g.generated_frames), (2, 2));
//! assert!((g.app_fps - 59.88).abs() < 0.01);
//! assert!((g.app_p50_ms - 16.7).abs() < 1e-9);
//! ```

use crate::pacing::nearest_rank;

/// What a run with frame generation did: its application frames and their pacing beside the
/// generated ones.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameGen {
    /// Frames the application rendered.
    pub app_frames: usize,
    /// Frames generated between them.
    pub generated_frames: usize,
    /// Application frames a second over the run: `app_frames` over the run's span.
    pub app_fps: f64,
    /// The application frames' intervals (present to present, generated frames between
    /// included): median, 95th and 99th percentiles (nearest rank) and the largest, in ms.
    pub app_p50_ms: f64,
    /// See [`FrameGen::app_p50_ms`].
    pub app_p95_ms: f64,
    /// See [`FrameGen::app_p50_ms`].
    pub app_p99_ms: f64,
    /// See [`FrameGen::app_p50_ms`].
    pub app_max_ms: f64,
}

impl FrameGen {
    /// The figures of frames of `frames_ms` (present intervals, in order), of which those
    /// `generated` flags were generated; `None` when no frame was generated (a run without
    /// frame generation) or none was the application's.
    pub fn of(frames_ms: &[f64], generated: &[bool]) -> Option<FrameGen> {
        let mut intervals = Vec::new();
        let mut since = 0.0;
        let mut generated_frames = 0;
        for (&ms, &g) in frames_ms.iter().zip(generated) {
            since += ms;
            if g {
                generated_frames += 1;
            } else {
                intervals.push(since);
                since = 0.0;
            }
        }
        if generated_frames == 0 || intervals.is_empty() {
            return None;
        }
        let span_ms: f64 = frames_ms.iter().take(generated.len()).sum();
        let app_frames = intervals.len();
        intervals.sort_by(f64::total_cmp);
        Some(FrameGen {
            app_frames,
            generated_frames,
            app_fps: if span_ms > 0.0 {
                app_frames as f64 * 1000.0 / span_ms
            } else {
                0.0
            },
            app_p50_ms: nearest_rank(&intervals, 0.50),
            app_p95_ms: nearest_rank(&intervals, 0.95),
            app_p99_ms: nearest_rank(&intervals, 0.99),
            app_max_ms: intervals[app_frames - 1],
        })
    }

    /// The figures as a summary line says them after `frame generation  `, with the displayed
    /// rate and pacing beside them when the capture has display times (`displayed`: frames a
    /// second, then the display interval's p50, p95 and p99 in ms) and the generators named.
    pub fn text(&self, displayed: Option<(f64, [f64; 3])>, generators: &str) -> String {
        let mut text = format!(
            "application {} frames, {:.1} fps, interval p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} \
             ms  max {:.1} ms; generated {} frames ({generators})",
            self.app_frames,
            self.app_fps,
            self.app_p50_ms,
            self.app_p95_ms,
            self.app_p99_ms,
            self.app_max_ms,
            self.generated_frames,
        );
        if let Some((fps, [p50, p95, p99])) = displayed {
            text.push_str(&format!(
                "; displayed {fps:.1} fps, interval p50 {p50:.1} ms  p95 {p95:.1} ms  p99 \
                 {p99:.1} ms"
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn application_intervals_take_in_the_generated_frames_between_them() {
        // A generated frame after each application frame, one application frame late.
        let frames = [8.0, 9.0, 8.0, 9.0, 30.0, 9.0];
        let generated = [false, true, false, true, false, true];
        let g = FrameGen::of(&frames, &generated).unwrap();
        assert_eq!(g.app_frames, 3);
        assert_eq!(g.generated_frames, 3);
        // 8, then 9 + 8, then 9 + 30; the last generated frame's 9 ms ends no application
        // frame.
        assert_eq!(g.app_p50_ms, 17.0);
        assert_eq!(g.app_max_ms, 39.0);
        assert!((g.app_fps - 3000.0 / 73.0).abs() < 1e-9);
    }

    #[test]
    fn a_run_without_generated_frames_has_no_frame_generation_figures() {
        assert_eq!(FrameGen::of(&[16.7, 16.7], &[false, false]), None);
        assert_eq!(FrameGen::of(&[16.7], &[true]), None);
    }
}
