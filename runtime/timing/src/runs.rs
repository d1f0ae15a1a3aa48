//! Several runs at once: CapFrameX's aggregation of several captures, with the outlier rule its
//! aggregation view applies, for `bt diagnose --compare ... --aggregate`.
//!
//! CapFrameX's aggregation takes each record's frame times (every run of a file, one after
//! the other), works out its "related metric" (by default P1, the 1st percentile of the
//! per-frame rates) and flags a record as an outlier when that figure lies more than the
//! "outlier percentage" (1 to 9, by default 3) away from the median of all records' figures,
//! as a share of the median. "Aggregate & include" then takes the figures of all records'
//! frame times put end to end; "aggregate & exclude" those of the records not flagged.
//!
//! ```
//! use bt_timing::runs::Aggregation;
//!
//! // Three steady runs near 60 fps, and one that ran at 40.
//! let (a, b, c, d) = (vec![16.6; 100], vec![16.8; 100], vec![16.7; 100], vec![25.0; 100]);
//! let runs: [&[f64]; 4] = [&a, &b, &c, &d];
//! let aggregation = Aggregation::of(&runs, 3);
//! assert_eq!(aggregation.outliers().collect::<Vec<_>>(), [3]);
//! assert_eq!(aggregation.kept.unwrap().frames, 300);
//! ```

use std::fmt::Write;

use crate::pacing::{capframex_percentile_fps, quantile_r8};

/// CapFrameX's default outlier percentage for its aggregation (`OutlierPercentageAggregation`).
pub const DEFAULT_OUTLIER_PERCENT: u32 = 3;
/// The outlier percentages CapFrameX's aggregation view offers, 1 to 9: `--aggregate` takes
/// the same.
pub const OUTLIER_PERCENT: (u32, u32) = (1, 9);
/// The most runs `bt diagnose` sets side by side: the first and seven compared, A to H, each
/// a colour of its own on the charts.
pub const MAX_RUNS: usize = 8;

/// The letter naming run `i` (from 0) in tables and charts: A, B, C ...
pub fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The figures CapFrameX's aggregation prints for a record by default: the average, its
/// second metric (P1) and its third (P0.2), in frames per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunFigures {
    /// Frames the figures rest on.
    pub frames: usize,
    /// Frames over their summed times: `frames × 1000 / Σ ms` (CapFrameX's "Average").
    pub average_fps: f64,
    /// CapFrameX's "P1": the 1st percentile of the per-frame rates, as in
    /// [`capframex_percentile_fps`].
    pub p1_fps: f64,
    /// CapFrameX's "P0.2": their 0.2nd percentile.
    pub p0_2_fps: f64,
}

impl RunFigures {
    /// The figures of `frames_ms`, in any order. Frame times that are not finite and above 0
    /// are left out, as the rate figures leave them out.
    pub fn of(frames_ms: &[f64]) -> RunFigures {
        let usable = || frames_ms.iter().filter(|ms| ms.is_finite() && **ms > 0.0);
        let frames = usable().count();
        let total: f64 = usable().sum();
        RunFigures {
            frames,
            average_fps: if total > 0.0 {
                frames as f64 * 1000.0 / total
            } else {
                0.0
            },
            p1_fps: capframex_percentile_fps(frames_ms, 0.01),
            p0_2_fps: capframex_percentile_fps(frames_ms, 0.002),
        }
    }

    /// `Avg 59.9 fps  P1 58.1 fps  P0.2 40.2 fps`, as CapFrameX's result line orders them.
    pub fn text(&self) -> String {
        format!(
            "Avg {:.1} fps  P1 {:.1} fps  P0.2 {:.1} fps ({} frames)",
            self.average_fps, self.p1_fps, self.p0_2_fps, self.frames
        )
    }
}

/// Several runs aggregated as CapFrameX aggregates records (see the module).
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregation {
    /// The outlier percentage applied.
    pub percent: u32,
    /// Each run's figures, and how far its P1 lies from the median P1, in percent of the
    /// median (signed: below the median is negative).
    pub runs: Vec<(RunFigures, f64)>,
    /// The median of the runs' P1 figures, by [`quantile_r8`] (the Math.NET `Quantile`
    /// CapFrameX calls).
    pub median_p1_fps: f64,
    /// The figures of every run's frames end to end ("aggregate & include").
    pub all: RunFigures,
    /// The figures of the runs that are not outliers ("aggregate & exclude"); `None` when
    /// every run is one (CapFrameX then offers no exclusion either).
    pub kept: Option<RunFigures>,
}

impl Aggregation {
    /// Aggregates `runs` (each a run's frame times), flagging a run as an outlier when its P1
    /// lies more than `percent` percent of the median P1 away from it. The frames end to end
    /// are copied once, 8 bytes a frame, for the aggregate's percentiles.
    pub fn of(runs: &[&[f64]], percent: u32) -> Aggregation {
        let figures: Vec<RunFigures> = runs.iter().map(|r| RunFigures::of(r)).collect();
        let mut p1: Vec<f64> = figures.iter().map(|f| f.p1_fps).collect();
        p1.sort_by(f64::total_cmp);
        let median_p1_fps = quantile_r8(&p1, 0.5);
        let deviation = |f: &RunFigures| {
            if median_p1_fps > 0.0 {
                (f.p1_fps - median_p1_fps) / median_p1_fps * 100.0
            } else {
                0.0
            }
        };
        let runs_out: Vec<(RunFigures, f64)> = figures.iter().map(|f| (*f, deviation(f))).collect();
        let outlier = |d: f64| d.abs() > f64::from(percent);
        let end_to_end = |keep: &dyn Fn(usize) -> bool| {
            let frames: Vec<f64> = runs
                .iter()
                .enumerate()
                .filter(|(i, _)| keep(*i))
                .flat_map(|(_, r)| r.iter().copied())
                .collect();
            RunFigures::of(&frames)
        };
        let all = end_to_end(&|_| true);
        let kept = runs_out
            .iter()
            .any(|(_, d)| !outlier(*d))
            .then(|| end_to_end(&|i| !outlier(runs_out[i].1)));
        Aggregation {
            percent,
            runs: runs_out,
            median_p1_fps,
            all,
            kept,
        }
    }

    /// Whether run `i` is an outlier.
    pub fn is_outlier(&self, i: usize) -> bool {
        self.runs
            .get(i)
            .is_some_and(|(_, d)| d.abs() > f64::from(self.percent))
    }

    /// The outliers' indices, in order.
    pub fn outliers(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.runs.len()).filter(|&i| self.is_outlier(i))
    }

    /// The aggregation as text: a line a run, then both aggregates.
    pub fn text(&self) -> String {
        let mut s = format!(
            "aggregate (CapFrameX's rule: a run is an outlier when its P1 lies more than {}% \
             from the median P1, {:.1} fps)\n",
            self.percent, self.median_p1_fps
        );
        for (i, (f, d)) in self.runs.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:<16}  {}  P1 {d:+.1}% from the median{}",
                letter(i),
                f.text(),
                if self.is_outlier(i) { "  outlier" } else { "" }
            );
        }
        let _ = writeln!(s, "  {:<16}  {}", "all runs", self.all.text());
        match &self.kept {
            Some(kept) => {
                let _ = writeln!(s, "  {:<16}  {}", "without outliers", kept.text());
            }
            None => s.push_str("  without outliers  none left: every run is an outlier\n"),
        }
        s
    }

    /// The aggregation as an HTML section: a table of the runs, then both aggregates.
    pub fn html(&self) -> String {
        let mut s = format!(
            "<h2>Aggregate</h2>\n<p>CapFrameX's rule: a run is an outlier when its P1 lies more \
             than {}% from the median P1 ({:.1} fps).</p>\n<table>\n<tr><th></th><th>frames\
             </th><th>Avg fps</th><th>P1 fps</th><th>P0.2 fps</th><th>P1 from the median</th>\
             <th></th></tr>\n",
            self.percent, self.median_p1_fps
        );
        let mut row = |name: String, f: &RunFigures, rest: String| {
            let _ = writeln!(
                s,
                "<tr><th>{name}</th><td>{}</td><td>{:.1}</td><td>{:.1}</td><td>{:.1}</td>{rest}\
                 </tr>",
                f.frames, f.average_fps, f.p1_fps, f.p0_2_fps
            );
        };
        for (i, (f, d)) in self.runs.iter().enumerate() {
            let flag = if self.is_outlier(i) { "outlier" } else { "" };
            row(
                letter(i).to_string(),
                f,
                format!("<td>{d:+.1}%</td><td class=\"worse\">{flag}</td>"),
            );
        }
        row(
            "all runs".to_string(),
            &self.all,
            "<td></td><td></td>".into(),
        );
        if let Some(kept) = &self.kept {
            row(
                "without outliers".to_string(),
                kept,
                "<td></td><td></td>".into(),
            );
        }
        s.push_str("</table>\n");
        if self.kept.is_none() {
            s.push_str("<p>Every run is an outlier: none is left to aggregate without them.</p>\n");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_whose_p1_strays_more_than_the_percentage_from_the_median_is_an_outlier() {
        // P1 of a run of one frame time is its rate: 50, 51, 52 and 60 fps.
        let runs: Vec<Vec<f64>> = [50.0, 51.0, 52.0, 60.0]
            .iter()
            .map(|fps| vec![1000.0 / fps; 200])
            .collect();
        let refs: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
        // The median of 50, 51, 52 and 60 by type 8 is 51.5.
        let three = Aggregation::of(&refs, 3);
        assert!((three.median_p1_fps - 51.5).abs() < 1e-9);
        assert_eq!(three.outliers().collect::<Vec<_>>(), [3]);
        // 50 is 2.9% below 51.5: within 3%, outside 2%.
        let two = Aggregation::of(&refs, 2);
        assert_eq!(two.outliers().collect::<Vec<_>>(), [0, 3]);
        let kept = three.kept.unwrap();
        assert_eq!(kept.frames, 600);
        assert!(
            (kept.average_fps
                - 600.0 * 1000.0 / (200.0 * 1000.0 * (1.0 / 50.0 + 1.0 / 51.0 + 1.0 / 52.0)))
                .abs()
                < 1e-9
        );
        assert_eq!(three.all.frames, 800);
        assert!(
            three.text().contains("  D                 Avg 60.0 fps"),
            "{}",
            three.text()
        );
        assert!(three.html().contains("outlier"));
    }

    #[test]
    fn the_aggregate_takes_the_runs_end_to_end_not_the_mean_of_their_figures() {
        // One run of 100 slow frames and one of 900 fast ones: end to end, the 1% slowest
        // frames are the slow run's, so P1 is its rate, not the mean of the two runs' P1.
        let (slow, fast) = (vec![40.0; 100], vec![10.0; 900]);
        let aggregation = Aggregation::of(&[&slow, &fast], 9);
        assert_eq!(aggregation.all.p1_fps, 25.0);
        assert!((aggregation.all.average_fps - 1000.0 * 1000.0 / (4000.0 + 9000.0)).abs() < 1e-9);
    }

    #[test]
    fn with_every_run_an_outlier_nothing_is_left_to_aggregate_without_them() {
        // Two runs far apart: the median lies between them, each 20% away from it.
        let (a, b) = (vec![1000.0 / 40.0; 50], vec![1000.0 / 60.0; 50]);
        let aggregation = Aggregation::of(&[&a, &b], 9);
        assert_eq!(aggregation.outliers().count(), 2);
        assert_eq!(aggregation.kept, None);
        assert!(aggregation.text().contains("every run is an outlier"));
    }
}
