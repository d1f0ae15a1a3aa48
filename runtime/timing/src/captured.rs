//! What a run that played a capture keeps of it: the capture's own per-frame columns as a
//! [`FrameSource`], the figures made of them, their trace tracks, and the run's title.
//! `bt trace`, `bt diagnose` and `bt run --trace-out` build theirs here, so the three carry the
//! same tracks and name the same program.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::clock::capture::{Capture, FrameTypes, ModeSpan};
use crate::frame_gen::FrameGen;
use crate::latency::InputLatency;
use crate::pacing::Displayed;
use crate::timeline::FrameSource;

/// Present-mode spans a summary names one by one; past them it says how many more there were.
pub const NAMED_MODE_SPANS: usize = 12;

/// A capture's columns beyond its times, display, busy and latency ones: which frames were
/// generated, its other latencies and how its frames reached the screen over the run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CapturedColumns {
    /// See [`crate::clock::capture::Stream::frame_types`].
    pub frame_types: Option<FrameTypes>,
    /// See [`crate::clock::capture::Stream::input_latency_ms`].
    pub input_latency_ms: Vec<(String, Vec<f64>)>,
    /// See [`crate::clock::capture::Stream::mode_spans`].
    pub mode_spans: Vec<ModeSpan>,
}

impl FrameSource {
    /// The frames of `capture`'s played stream, with every per-frame column it has; `name`
    /// says which capture and stream (its [`Capture::describe`] line).
    pub fn of_capture(capture: &Capture, name: String) -> FrameSource {
        let s = capture.stream();
        FrameSource::Capture {
            name,
            not_displayed: s.not_displayed,
            display_ms: s.display_ms.clone(),
            busy_ms: (s.cpu_busy_ms.clone(), s.gpu_busy_ms.clone()),
            latency_ms: s.latency_ms.clone(),
            click_ms: s.click_ms.clone(),
            columns: Box::new(CapturedColumns {
                frame_types: s.frame_types.clone(),
                input_latency_ms: s.input_latency_ms.clone(),
                mode_spans: s.mode_spans.clone(),
            }),
        }
    }

    /// The capture's further columns, for a capture.
    pub fn captured_columns(&self) -> Option<&CapturedColumns> {
        match self {
            FrameSource::Capture { columns, .. } => Some(columns.as_ref()),
            FrameSource::Clock => None,
        }
    }

    /// Whether frame `frame` was generated, when the capture says (a looped capture repeats
    /// its frames' types).
    pub fn generated(&self, frame: u64) -> Option<bool> {
        let g = &self.captured_columns()?.frame_types.as_ref()?.generated;
        (!g.is_empty()).then(|| g[(frame % g.len() as u64) as usize])
    }

    /// Whether how frames reached the screen (present mode, tearing) changed at frame `frame`
    /// of a capture played once.
    pub fn mode_changes_at(&self, frame: u64) -> bool {
        self.captured_columns()
            .is_some_and(|c| matches!(span_at(&c.mode_spans, frame), Some((i, true)) if i > 0))
    }
}

/// The span of `spans` (in order of their first frames) frame `frame` lies in, and whether it
/// is that span's first frame; found by bisection, as a chart or trace asks it of every frame.
fn span_at(spans: &[ModeSpan], frame: u64) -> Option<(usize, bool)> {
    match spans.binary_search_by_key(&frame, |s| s.from as u64) {
        Ok(i) => Some((i, true)),
        Err(0) => None,
        Err(i) => Some((i - 1, false)),
    }
}

/// A run's name in titles when it played a capture: the program captured first, since its
/// frames are what the figures describe, then the cart that played them.
pub fn captured_title(stream: &str, cart: &str) -> String {
    format!("{stream} (captured), played through {cart}")
}

/// What a summary says of a capture's further columns over the frames played.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CapturedFigures {
    /// Each further latency column's figures, in the capture's order.
    pub input_latency: Vec<InputLatency>,
    /// The application's frames apart from the generated ones, when some were generated.
    pub frame_gen: Option<FrameGen>,
    /// The generators the capture names, with their frames in the whole capture.
    pub generators: Vec<(String, usize)>,
    /// Each span of frames played one way: first and last frame, and the mode's name.
    pub modes: Vec<(u64, u64, String)>,
}

impl CapturedFigures {
    /// The figures of frames `first..first + frames_ms.len()` of `source`, played with these
    /// frame times; empty for a source with no further columns.
    pub fn of(source: &FrameSource, first: u64, frames_ms: &[f64]) -> CapturedFigures {
        let Some(columns) = source.captured_columns() else {
            return CapturedFigures::default();
        };
        let numbers = first..first + frames_ms.len() as u64;
        // A looped run repeats the capture's values, as its other columns do.
        let values = |v: &[f64]| -> Vec<f64> {
            if v.is_empty() {
                return Vec::new();
            }
            numbers
                .clone()
                .map(|f| v[(f % v.len() as u64) as usize])
                .collect()
        };
        let input_latency = columns
            .input_latency_ms
            .iter()
            .filter_map(|(name, v)| InputLatency::of(name, &values(v)))
            .collect();
        let generated: Vec<bool> = numbers
            .clone()
            .map(|f| source.generated(f).unwrap_or(false))
            .collect();
        let frame_gen = FrameGen::of(frames_ms, &generated);
        let generators = columns
            .frame_types
            .as_ref()
            .map(|t| {
                t.kinds
                    .iter()
                    .filter(|(name, _)| !crate::clock::capture::is_application_frame(name))
                    .map(|(name, n)| (crate::quote::excerpt(name), *n))
                    .collect()
            })
            .unwrap_or_default();
        let end = first + frames_ms.len() as u64;
        let spans = &columns.mode_spans;
        let modes = spans
            .iter()
            .enumerate()
            .filter_map(|(i, span)| {
                let from = (span.from as u64).max(first);
                let to = spans
                    .get(i + 1)
                    .map_or(end, |next| (next.from as u64).min(end));
                (from < to).then(|| (from, to - 1, span.name()))
            })
            .collect();
        CapturedFigures {
            input_latency,
            frame_gen,
            generators,
            modes,
        }
    }

    /// The figures as a summary's lines, each `name  figures` (the report splits them there):
    /// the further latencies, frame generation beside the displayed frames (`displayed`), and
    /// the present modes with their spans.
    pub fn lines(&self, displayed: Option<&Displayed>) -> Vec<String> {
        let mut lines: Vec<String> = self.input_latency.iter().map(|l| l.text()).collect();
        if let Some(g) = &self.frame_gen {
            let generators = self
                .generators
                .iter()
                .map(|(name, n)| format!("{name} {n} in the capture"))
                .collect::<Vec<_>>()
                .join(", ");
            let shown = displayed.map(|d| (d.fps, [d.p50_ms, d.p95_ms, d.p99_ms]));
            lines.push(format!("frame generation  {}", g.text(shown, &generators)));
        }
        if !self.modes.is_empty() {
            let mut text = String::from("present modes  ");
            for (k, (from, to, name)) in self.modes.iter().take(NAMED_MODE_SPANS).enumerate() {
                if k > 0 {
                    text.push_str("; ");
                }
                let _ = write!(text, "frames {from}-{to} {name}");
            }
            if self.modes.len() > NAMED_MODE_SPANS {
                let _ = write!(
                    text,
                    "; and {} more changes",
                    self.modes.len() - NAMED_MODE_SPANS
                );
            }
            lines.push(text);
        }
        lines
    }

    /// The figures as JSON, for `bt trace --format summary`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "input_latency": self.input_latency.iter().map(|l| serde_json::json!({
                "column": l.column,
                "frames": l.latency.frames,
                "p50_ms": l.latency.p50_ms,
                "p95_ms": l.latency.p95_ms,
                "p99_ms": l.latency.p99_ms,
                "max_ms": l.latency.max_ms,
            })).collect::<Vec<_>>(),
            "frame_generation": self.frame_gen.map(|g| serde_json::json!({
                "application_frames": g.app_frames,
                "generated_frames": g.generated_frames,
                "application_fps": g.app_fps,
                "application_p50_ms": g.app_p50_ms,
                "application_p95_ms": g.app_p95_ms,
                "application_p99_ms": g.app_p99_ms,
                "application_max_ms": g.app_max_ms,
            })),
            "generators": self.generators.iter().map(|(name, frames)| serde_json::json!({
                "frame_type": name, "frames_in_capture": frames,
            })).collect::<Vec<_>>(),
            "present_modes": self.modes.iter().map(|(from, to, name)| serde_json::json!({
                "first_frame": from, "last_frame": to, "mode": name,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Writes frame `frame`'s tracks of a capture's further columns at `ts` (microseconds), as
/// Chrome trace events each preceded by `,\n`: a counter for each further latency (none where
/// the frame has no value), a `generated frame` counter (1 or 0) when the capture says which
/// frames were generated, and a `present mode` instant where the mode changes (and at the
/// first frame), naming it.
///
/// # Errors
/// Any write error.
pub fn write_trace_events(
    out: &mut impl Write,
    source: &FrameSource,
    frame: u64,
    first: bool,
    ts: u64,
    pid: u32,
    tid: u32,
) -> io::Result<()> {
    let Some(columns) = source.captured_columns() else {
        return Ok(());
    };
    for (name, values) in &columns.input_latency_ms {
        let Some(&ms) = (!values.is_empty())
            .then(|| &values[(frame % values.len() as u64) as usize])
            .filter(|ms| ms.is_finite())
        else {
            continue;
        };
        out.write_all(b",\n{\"ph\":\"C\",\"name\":")?;
        crate::chrome_trace::json_str(out, &format!("{name} (ms)"))?;
        write!(
            out,
            ",\"pid\":{pid},\"ts\":{ts},\"args\":{{\"value\":{ms}}}}}"
        )?;
    }
    if let Some(generated) = source.generated(frame) {
        write!(
            out,
            ",\n{{\"ph\":\"C\",\"name\":\"generated frame\",\"pid\":{pid},\"ts\":{ts},\
             \"args\":{{\"value\":{}}}}}",
            u8::from(generated)
        )?;
    }
    // At the first frame, the mode in effect; after it, each change.
    let spans = &columns.mode_spans;
    let span = match span_at(spans, frame) {
        Some((i, starts)) if first || (starts && i > 0) => Some(&spans[i]),
        _ => None,
    };
    if let Some(span) = span {
        write!(
            out,
            ",\n{{\"ph\":\"i\",\"s\":\"p\",\"name\":\"present mode\",\"cat\":\"mode\",\
             \"pid\":{pid},\"tid\":{tid},\"ts\":{ts},\"args\":{{\"mode\":"
        )?;
        crate::chrome_trace::json_str(out, &span.name())?;
        out.write_all(b"}}")?;
    }
    Ok(())
}
