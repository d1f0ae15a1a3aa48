//! A run's frames on a timeline, for looking at after the fact: a summary of what the loop did,
//! a Chrome trace (Perfetto, `chrome://tracing`) and an HTML report with a frame-time plot.
//!
//! [`Timeline`] records each frame's report, the frames the overlay counted as dropped and the
//! tags the cart placed. `bt diagnose` records a whole run; `bt run` keeps a rolling window of
//! the last seconds so a stutter seen in play can be saved and studied.
//!
//! ```
//! use bt_overlay::FrameStats;
//! use bt_runtime::timing::timeline::Timeline;
//! use bt_runtime::FrameReport;
//!
//! let mut t = Timeline::new(1000.0 / 60.0);
//! for (frame, delta) in [16.7, 16.7, 50.0, 8.3].into_iter().enumerate() {
//!     let updates = if delta > 40.0 { 3 } else { 1 };
//!     let stats = FrameStats { delta_ms: delta, updates, ..FrameStats::default() };
//!     t.record(&FrameReport { frame: frame as u64, render_alpha: 0.0, stats }, 0, &[]);
//! }
//! let s = t.summary();
//! assert_eq!(s.frames, 4);
//! assert_eq!(s.max_ms, 50.0);
//! assert_eq!(s.updates_per_frame[3], 1);
//! ```

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, Write};

use bt::Tag;
use bt_overlay::FrameStats;

use crate::engine::FrameReport;

/// Frames a rolling timeline keeps at most, whatever their length: ten seconds at 1,000
/// frames a second. Allocated up front, so recording never allocates.
pub const ROLLING_CAPACITY: usize = 10_000;

/// How many of the longest frames the summary lists.
pub const WORST_FRAMES: usize = 5;

/// One recorded frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameRecord {
    /// The frame's number, from 0.
    pub frame: u64,
    /// When the frame began on the clock's timeline, in ms from the first recorded frame.
    pub start_ms: f64,
    /// What `render` saw of the time between updates.
    pub render_alpha: f64,
    /// What the frame did (updates, delta, clamp, ticks, measured times).
    pub stats: FrameStats,
    /// Frames the overlay's detector counted as dropped at this frame (0 when none).
    pub dropped: u32,
}

/// A tag the cart placed, on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct TagMark {
    /// The frame it was placed in.
    pub frame: u64,
    /// The tick it was placed at.
    pub tick: u64,
    /// When that frame began, in ms on the timeline.
    pub at_ms: f64,
    /// Its label.
    pub label: String,
}

/// Frames and tags in order, all of a run or the last seconds of it.
#[derive(Debug, Clone)]
pub struct Timeline {
    frames: VecDeque<FrameRecord>,
    tags: VecDeque<TagMark>,
    budget_ms: f64,
    /// Where the next frame starts on the timeline.
    clock_ms: f64,
    /// `Some(ms)`: keep only the frames that began within this long of the newest.
    window_ms: Option<f64>,
}

impl Timeline {
    /// An empty timeline that keeps every frame, for a cart whose update budget is
    /// `budget_ms` (`1000 / target_fps`).
    pub fn new(budget_ms: f64) -> Timeline {
        Timeline {
            frames: VecDeque::new(),
            tags: VecDeque::new(),
            budget_ms,
            clock_ms: 0.0,
            window_ms: None,
        }
    }

    /// A timeline that keeps the frames of the last `window_ms` (at most
    /// [`ROLLING_CAPACITY`] of them), with its storage allocated now.
    pub fn rolling(budget_ms: f64, window_ms: f64) -> Timeline {
        Timeline {
            frames: VecDeque::with_capacity(ROLLING_CAPACITY),
            tags: VecDeque::with_capacity(64),
            budget_ms,
            clock_ms: 0.0,
            window_ms: Some(window_ms),
        }
    }

    /// Adds a frame: its report, what the overlay counted as dropped, and the tags the cart
    /// placed during it.
    pub fn record(&mut self, report: &FrameReport, dropped: u32, tags: &[Tag]) {
        let start_ms = self.clock_ms;
        self.clock_ms += report.stats.delta_ms.max(0.0);
        if self.window_ms.is_some() && self.frames.len() == ROLLING_CAPACITY {
            self.frames.pop_front();
        }
        self.frames.push_back(FrameRecord {
            frame: report.frame,
            start_ms,
            render_alpha: report.render_alpha,
            stats: report.stats,
            dropped,
        });
        for tag in tags {
            self.tags.push_back(TagMark {
                frame: report.frame,
                tick: tag.tick,
                at_ms: start_ms,
                label: tag.label.clone(),
            });
        }
        if let Some(window) = self.window_ms {
            while self
                .frames
                .front()
                .is_some_and(|f| f.start_ms < self.clock_ms - window)
            {
                self.frames.pop_front();
            }
            let first = self.frames.front().map_or(u64::MAX, |f| f.frame);
            while self.tags.front().is_some_and(|t| t.frame < first) {
                self.tags.pop_front();
            }
        }
    }

    /// The update budget the timeline was made for, in ms: `1000 / target_fps`.
    pub fn budget_ms(&self) -> f64 {
        self.budget_ms
    }

    /// The frames kept, oldest first.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = &FrameRecord> + '_ {
        self.frames.iter()
    }

    /// The tags kept, oldest first.
    pub fn tags(&self) -> impl Iterator<Item = &TagMark> + '_ {
        self.tags.iter()
    }

    /// Forgets every frame and tag.
    pub fn clear(&mut self) {
        self.frames.clear();
        self.tags.clear();
    }

    /// What the frames kept add up to.
    pub fn summary(&self) -> Summary {
        Summary::of(self)
    }

    /// Writes the frames as Chrome Trace Event JSON (see [`write_chrome_trace`]).
    ///
    /// # Errors
    /// Any write error.
    pub fn write_chrome_trace(&self, out: &mut impl Write, title: &str) -> io::Result<()> {
        write_chrome_trace(self, out, title)
    }
}

/// What a run's frames add up to: the figures a person checks first.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Frames recorded.
    pub frames: usize,
    /// Time they covered, in ms.
    pub span_ms: f64,
    /// Frame deltas: median, 95th and 99th percentiles (nearest rank) and the largest, in ms.
    pub p50_ms: f64,
    /// See [`Summary::p50_ms`].
    pub p95_ms: f64,
    /// See [`Summary::p50_ms`].
    pub p99_ms: f64,
    /// See [`Summary::p50_ms`].
    pub max_ms: f64,
    /// Frames over elapsed time: the true present rate over the run.
    pub fps: f64,
    /// How many frames ran 0, 1, 2 … 8 updates (index = updates; 8 or more count at 8).
    pub updates_per_frame: [usize; 9],
    /// Frames the 8-update cap clamped, and the time it threw away in all.
    pub clamped: usize,
    /// See [`Summary::clamped`].
    pub discarded_ms: f64,
    /// Frames dropped, as the overlay's detector counted them.
    pub dropped: u64,
    /// The longest frames, longest first: frame number, delta, tick after it, and the nearest
    /// tag at or before it.
    pub worst: Vec<(u64, f64, u64, Option<String>)>,
}

/// The value at `q` (0 to 1) of sorted `v` by nearest rank; 0 when empty.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

impl Summary {
    fn of(t: &Timeline) -> Summary {
        let mut deltas: Vec<f64> = t.frames.iter().map(|f| f.stats.delta_ms).collect();
        deltas.sort_by(f64::total_cmp);
        let span_ms: f64 = deltas.iter().sum();
        let mut updates_per_frame = [0; 9];
        let (mut clamped, mut discarded_ms, mut dropped) = (0, 0.0, 0);
        for f in &t.frames {
            updates_per_frame[(f.stats.updates as usize).min(8)] += 1;
            if f.stats.clamped {
                clamped += 1;
                discarded_ms += f.stats.discarded_ms;
            }
            dropped += u64::from(f.dropped);
        }
        let mut by_length: Vec<&FrameRecord> = t.frames.iter().collect();
        by_length.sort_by(|a, b| b.stats.delta_ms.total_cmp(&a.stats.delta_ms));
        let worst = by_length
            .iter()
            .take(WORST_FRAMES)
            .map(|f| {
                let tag = t
                    .tags
                    .iter()
                    .rev()
                    .find(|tag| tag.frame <= f.frame)
                    .map(|tag| tag.label.clone());
                (f.frame, f.stats.delta_ms, f.stats.ticks, tag)
            })
            .collect();
        Summary {
            frames: deltas.len(),
            span_ms,
            p50_ms: percentile(&deltas, 0.50),
            p95_ms: percentile(&deltas, 0.95),
            p99_ms: percentile(&deltas, 0.99),
            max_ms: deltas.last().copied().unwrap_or(0.0),
            fps: if span_ms > 0.0 {
                deltas.len() as f64 * 1000.0 / span_ms
            } else {
                0.0
            },
            updates_per_frame,
            clamped,
            discarded_ms,
            dropped,
            worst,
        }
    }

    /// The frames by updates run, as `"1: 167"`, one entry per count that occurred (`"8+"`
    /// for the cap).
    pub fn update_counts(&self) -> Vec<String> {
        self.updates_per_frame
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(u, n)| format!("{u}{}: {n}", if u == 8 { "+" } else { "" }))
            .collect()
    }

    /// The summary as a few lines of text for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} frames over {:.1} s: {:.1} frames a second",
            self.frames,
            self.span_ms / 1000.0,
            self.fps
        );
        let _ = writeln!(
            s,
            "frame time  p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms
        );
        let _ = writeln!(s, "updates per frame  {}", self.update_counts().join("  "));
        let _ = writeln!(
            s,
            "clamped frames {} ({:.1} ms thrown away)  dropped frames {}",
            self.clamped, self.discarded_ms, self.dropped
        );
        if !self.worst.is_empty() {
            let _ = writeln!(s, "longest frames:");
            for (frame, ms, tick, tag) in &self.worst {
                let _ = write!(s, "  frame {frame:>6}  {ms:>8.1} ms  tick {tick:>6}");
                if let Some(tag) = tag {
                    let _ = write!(s, "  after tag \"{}\"", crate::quote::excerpt(tag));
                }
                s.push('\n');
            }
        }
        s
    }
}

/// Writes a JSON string literal.
fn json_str(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    for c in text.chars() {
        match c {
            '"' => out.write_all(b"\\\"")?,
            '\\' => out.write_all(b"\\\\")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => write!(out, "{c}")?,
        }
    }
    out.write_all(b"\"")
}

/// A number as JSON allows it (no NaN or infinity).
fn num(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// Writes `timeline` as Chrome Trace Event JSON, which Perfetto (ui.perfetto.dev) and
/// `chrome://tracing` open. Times are on the clock's timeline, so frames lie end to end:
///
/// - each frame is a complete (`"X"`) slice `frame` as long as its delta, with the delta,
///   updates, tick counter and render alpha as arguments;
/// - inside it, one `update` slice per update and then a `render` slice, as long as they were
///   measured (shortened to fit the frame when the work outlasted the frame's delta), each with
///   the tick it ran at;
/// - clamps, dropped frames and the cart's tags are instant (`"i"`) events with their labels.
///
/// # Errors
/// Any write error.
pub fn write_chrome_trace(t: &Timeline, out: &mut impl Write, title: &str) -> io::Result<()> {
    let us = |ms: f64| num(ms * 1000.0);
    out.write_all(b"{\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":")?;
    json_str(out, title)?;
    out.write_all(b"},\"traceEvents\":[\n")?;
    write!(
        out,
        "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":1,\"args\":{{\"name\":"
    )?;
    json_str(out, title)?;
    out.write_all(b"}}")?;
    for f in &t.frames {
        let s = &f.stats;
        let start = f.start_ms;
        write!(
            out,
            ",\n{{\"ph\":\"X\",\"name\":\"frame\",\"cat\":\"frame\",\"pid\":1,\"tid\":1,\
             \"ts\":{},\"dur\":{},\"args\":{{\"frame\":{},\"delta_ms\":{},\"updates\":{},\
             \"ticks\":{},\"render_alpha\":{}}}}}",
            us(start),
            us(s.delta_ms),
            f.frame,
            num(s.delta_ms),
            s.updates,
            s.ticks,
            num(f.render_alpha)
        )?;
        // Nested work, kept inside the frame's slice.
        let end = start + s.delta_ms.max(0.0);
        let mut at = start;
        let per_update = if s.updates > 0 {
            s.update_ms.max(0.0) / f64::from(s.updates)
        } else {
            0.0
        };
        let first_tick = s.ticks.saturating_sub(u64::from(s.updates));
        for i in 0..s.updates {
            let dur = per_update.min(end - at).max(0.0);
            write!(
                out,
                ",\n{{\"ph\":\"X\",\"name\":\"update\",\"cat\":\"update\",\"pid\":1,\"tid\":1,\
                 \"ts\":{},\"dur\":{},\"args\":{{\"tick\":{}}}}}",
                us(at),
                us(dur),
                first_tick + u64::from(i)
            )?;
            at += dur;
        }
        let dur = s.render_ms.max(0.0).min(end - at).max(0.0);
        write!(
            out,
            ",\n{{\"ph\":\"X\",\"name\":\"render\",\"cat\":\"render\",\"pid\":1,\"tid\":1,\
             \"ts\":{},\"dur\":{},\"args\":{{\"tick\":{},\"draw_calls\":{}}}}}",
            us(at),
            us(dur),
            s.ticks,
            s.draw_calls
        )?;
        if s.clamped {
            write!(
                out,
                ",\n{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"clamp\",\"cat\":\"clamp\",\"pid\":1,\
                 \"tid\":1,\"ts\":{},\"args\":{{\"discarded_ms\":{}}}}}",
                us(start),
                num(s.discarded_ms)
            )?;
        }
        if f.dropped > 0 {
            write!(
                out,
                ",\n{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"drop\",\"cat\":\"drop\",\"pid\":1,\
                 \"tid\":1,\"ts\":{},\"args\":{{\"dropped\":{}}}}}",
                us(start),
                f.dropped
            )?;
        }
    }
    for tag in &t.tags {
        out.write_all(
            b",\n{\"ph\":\"i\",\"s\":\"p\",\"cat\":\"tag\",\"pid\":1,\"tid\":1,\"name\":",
        )?;
        json_str(out, &tag.label)?;
        write!(
            out,
            ",\"ts\":{},\"args\":{{\"tick\":{},\"frame\":{}}}}}",
            us(tag.at_ms),
            tag.tick,
            tag.frame
        )?;
    }
    out.write_all(b"\n]}\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(frame: u64, delta_ms: f64, updates: u32, ticks: u64) -> FrameReport {
        FrameReport {
            frame,
            render_alpha: 0.25,
            stats: FrameStats {
                delta_ms,
                updates,
                ticks,
                update_ms: 1.0 * f64::from(updates),
                render_ms: 2.0,
                ..FrameStats::default()
            },
        }
    }

    fn sample() -> Timeline {
        let mut t = Timeline::new(1000.0 / 60.0);
        let mut ticks = 0;
        for (i, &(delta, updates)) in [(16.7, 1), (16.7, 1), (50.0, 3), (8.3, 0), (400.0, 8)]
            .iter()
            .enumerate()
        {
            ticks += updates as u64;
            let mut r = report(i as u64, delta, updates, ticks);
            if updates == 8 {
                r.stats.clamped = true;
                r.stats.discarded_ms = 266.7;
            }
            let tag = Tag {
                tick: ticks,
                label: "Boss \"1\"".into(),
            };
            let tags = if i == 2 { vec![tag] } else { vec![] };
            t.record(&r, u32::from(delta > 40.0), &tags);
        }
        t
    }

    #[test]
    fn the_summary_counts_what_the_frames_did() {
        let s = sample().summary();
        assert_eq!(s.frames, 5);
        assert!((s.span_ms - 491.7).abs() < 1e-9);
        assert!((s.fps - 5.0 * 1000.0 / 491.7).abs() < 1e-9, "{}", s.fps);
        assert_eq!((s.p50_ms, s.max_ms), (16.7, 400.0));
        assert_eq!(s.updates_per_frame, [1, 2, 0, 1, 0, 0, 0, 0, 1]);
        assert_eq!((s.clamped, s.discarded_ms, s.dropped), (1, 266.7, 2));
        assert_eq!(s.worst[0], (4, 400.0, 13, Some("Boss \"1\"".into())));
        assert_eq!(s.worst[1].0, 2);
        let text = s.to_text();
        assert!(
            text.contains("updates per frame  0: 1  1: 2  3: 1  8+: 1"),
            "{text}"
        );
    }

    #[test]
    fn a_rolling_timeline_keeps_only_the_last_seconds() {
        let mut t = Timeline::rolling(10.0, 100.0);
        for i in 0..50 {
            let tags = [Tag {
                tick: i,
                label: "t".into(),
            }];
            t.record(&report(i, 10.0, 1, i + 1), 0, &tags);
        }
        let frames: Vec<u64> = t.frames().map(|f| f.frame).collect();
        assert_eq!(frames.first(), Some(&40), "{frames:?}");
        assert_eq!(frames.len(), 10);
        assert_eq!(t.tags().next().map(|t| t.frame), Some(40));
    }

    #[test]
    fn the_chrome_trace_is_json_with_nested_slices_and_instants() {
        let mut out = Vec::new();
        sample().write_chrome_trace(&mut out, "demo").unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
        let events = v["traceEvents"].as_array().unwrap();
        let named = |n: &str| events.iter().filter(|e| e["name"] == n).count();
        assert_eq!(named("frame"), 5);
        assert_eq!(named("update"), 1 + 1 + 3 + 8);
        assert_eq!(named("render"), 5);
        assert_eq!(named("clamp"), 1);
        assert_eq!(named("drop"), 2);
        assert_eq!(named("Boss \"1\""), 1);
        // Frames lie end to end on the clock's timeline, and nested work stays inside them.
        let frames: Vec<&serde_json::Value> =
            events.iter().filter(|e| e["name"] == "frame").collect();
        for pair in frames.windows(2) {
            let end = pair[0]["ts"].as_f64().unwrap() + pair[0]["dur"].as_f64().unwrap();
            assert!((end - pair[1]["ts"].as_f64().unwrap()).abs() < 1e-6);
        }
        for e in events
            .iter()
            .filter(|e| e["name"] == "update" || e["name"] == "render")
        {
            let ts = e["ts"].as_f64().unwrap();
            let parent = frames
                .iter()
                .rev()
                .find(|f| f["ts"].as_f64().unwrap() <= ts + 1e-9)
                .unwrap();
            let end = parent["ts"].as_f64().unwrap() + parent["dur"].as_f64().unwrap();
            assert!(ts + e["dur"].as_f64().unwrap() <= end + 1e-6, "{e}");
        }
        assert_eq!(frames[2]["args"]["updates"], 3);
        assert_eq!(v["otherData"]["title"], "demo");
    }
}
