//! A capture's per-frame columns beyond its times: which frames were generated (frame
//! generation), its input-to-display latencies, and how frames reached the screen over the run.

use crate::quote::excerpt;

/// Frame kinds a stream keeps by name, the application's among them; the rest are counted
/// together as [`OTHER_KINDS`]. A real capture names two or three (`Application`, `AMD AFMF`);
/// the bound keeps a hostile file's millions of names out of memory.
pub const MAX_FRAME_KINDS: usize = 16;
/// The name the kinds past [`MAX_FRAME_KINDS`] are counted under.
pub const OTHER_KINDS: &str = "other frame types";

/// The `FrameType` values of a frame the application rendered, whatever their case: PresentMon
/// 2 writes `Application` (also for its internal `NotSet` and `Repeated`, which its debug builds
/// spell out); FrameView writes `Application` too. An empty field or `NA` says nothing of
/// generation and counts with them. Every other value (`AMD AFMF`, `Intel XeSS-FG`,
/// `NVIDIA DLSS-FG`, and `Unknown`, PresentMon's name for a frame of an unspecified technique)
/// is a generated frame, as PresentMon's own metrics count application frames.
const APPLICATION_FRAME_TYPES: [&str; 5] = ["Application", "NotSet", "Repeated", "", "NA"];

/// Whether a `FrameType` value names a frame the application rendered: `Application`, `NotSet`,
/// `Repeated`, an empty field or `NA`, in any case; every other value is a generated frame.
pub fn is_application_frame(frame_type: &str) -> bool {
    let t = frame_type.trim();
    APPLICATION_FRAME_TYPES
        .iter()
        .any(|name| t.eq_ignore_ascii_case(name))
}

/// Which of a stream's frames were generated rather than rendered by the application, from
/// its `FrameType` column.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameTypes {
    /// One a frame: whether it was generated.
    pub generated: Vec<bool>,
    /// Each frame type the column names, as the file spells it (quote it with
    /// [`crate::quote::excerpt`]), with its frames, in the order first met (at most [`MAX_FRAME_KINDS`], then [`OTHER_KINDS`]).
    pub kinds: Vec<(String, usize)>,
}

impl FrameTypes {
    /// Adds the next frame, of type `frame_type` as the file writes it.
    pub(super) fn note(types: &mut Option<FrameTypes>, frame_type: &str) {
        let t = types.get_or_insert_with(FrameTypes::default);
        let name = frame_type.trim();
        t.generated.push(!is_application_frame(name));
        let kind = match t.kinds.iter().position(|(k, _)| k == name) {
            Some(i) => i,
            None if t.kinds.len() < MAX_FRAME_KINDS => {
                t.kinds.push((name.to_string(), 0));
                t.kinds.len() - 1
            }
            None => match t.kinds.iter().position(|(k, _)| k == OTHER_KINDS) {
                Some(i) => i,
                None => {
                    t.kinds.push((OTHER_KINDS.to_string(), 0));
                    t.kinds.len() - 1
                }
            },
        };
        t.kinds[kind].1 += 1;
    }

    /// How many frames were generated.
    pub fn generated_frames(&self) -> usize {
        self.generated.iter().filter(|&&g| g).count()
    }
}

/// The latency columns read besides the display latency, each kept under its own name, in
/// this order: PresentMon 2's default names, then its `--v2_metrics` and capture
/// application's. Click to photon is read apart ([`super::Stream::click_ms`]).
pub const INPUT_LATENCY_COLUMNS: [(&str, &str); 3] = [
    ("MsPCLatency", "PCLatency"),
    ("MsAllInputToPhotonLatency", "AllInputToPhotonLatency"),
    ("MsInstrumentedLatency", "InstrumentedLatency"),
];

/// What each latency of [`INPUT_LATENCY_COLUMNS`] measures, by PresentMon's column
/// descriptions, for the figures' lines.
pub fn input_latency_meaning(column: &str) -> &'static str {
    let is = |pair: (&str, &str)| {
        column.eq_ignore_ascii_case(pair.0) || column.eq_ignore_ascii_case(pair.1)
    };
    if is(INPUT_LATENCY_COLUMNS[0]) {
        "from the PC receiving input to the frame being sent to the display"
    } else if is(INPUT_LATENCY_COLUMNS[1]) {
        "from any input to the display"
    } else {
        "from the instrumented start of the frame to its display"
    }
}

/// The most present-mode spans a stream keeps: far more than any real run changes mode (a few
/// times), few enough that a file changing it on every row costs well under a megabyte.
pub const MAX_MODE_SPANS: usize = 4096;

/// The characters of a present mode's name kept (PresentMon's longest is under 40).
pub const MODE_NAME_CHARS: usize = 64;

/// The name of the last span of a stream that changed mode more than [`MAX_MODE_SPANS`] times.
pub const MODE_SPANS_CUT: &str = "(further present-mode changes not kept)";

/// A stretch of frames that reached the screen one way: from frame `from` (counted from 0)
/// to the next span's first frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModeSpan {
    /// Its first frame.
    pub from: usize,
    /// The present mode, as the file names it (`Hardware: Independent Flip`), empty when the
    /// file has no `PresentMode` column.
    pub mode: String,
    /// Whether its frames allowed tearing, when the file says (`AllowsTearing`).
    pub tearing: Option<bool>,
}

impl ModeSpan {
    /// How a report names the span's mode: `Composed: Flip, tearing allowed`.
    pub fn name(&self) -> String {
        let tearing = match self.tearing {
            Some(true) => "tearing allowed",
            Some(false) => "no tearing",
            None => "",
        };
        match (self.mode.is_empty(), tearing.is_empty()) {
            (false, false) => format!("{}, {tearing}", excerpt(&self.mode)),
            (false, true) => excerpt(&self.mode),
            (true, _) => tearing.to_string(),
        }
    }

    /// Adds frame `frame`, presented in `mode` with tearing allowed or not, to `spans`: a new
    /// span when either differs from the last span's.
    ///
    /// At most [`MAX_MODE_SPANS`] are kept: a file whose mode changes more often than that ends
    /// in one span saying the changes from there on were not kept, so memory stays bounded
    /// whatever the file holds. A mode's name is kept to [`MODE_NAME_CHARS`] characters.
    pub(super) fn note(spans: &mut Vec<ModeSpan>, frame: usize, mode: &str, tearing: Option<bool>) {
        let mode = match mode.char_indices().nth(MODE_NAME_CHARS) {
            Some((end, _)) => &mode[..end],
            None => mode,
        };
        if spans.len() >= MAX_MODE_SPANS
            || spans
                .last()
                .is_some_and(|last| last.mode == mode && last.tearing == tearing)
        {
            return;
        }
        if spans.len() + 1 == MAX_MODE_SPANS {
            spans.push(ModeSpan {
                from: frame,
                mode: MODE_SPANS_CUT.to_string(),
                tearing: None,
            });
            return;
        }
        spans.push(ModeSpan {
            from: frame,
            mode: mode.to_string(),
            tearing,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_changing_mode_on_every_frame_keeps_a_bounded_list_that_says_so() {
        let mut spans = Vec::new();
        let long = "x".repeat(10_000);
        for frame in 0..20_000 {
            let mode = if frame % 2 == 0 {
                long.as_str()
            } else {
                "Composed: Flip"
            };
            ModeSpan::note(&mut spans, frame, mode, None);
        }
        assert_eq!(spans.len(), MAX_MODE_SPANS);
        assert_eq!(spans[0].mode.chars().count(), MODE_NAME_CHARS);
        assert_eq!(spans[1].mode, "Composed: Flip");
        let last = spans.last().unwrap();
        assert_eq!(
            (last.from, last.mode.as_str()),
            (MAX_MODE_SPANS - 1, MODE_SPANS_CUT)
        );
    }
}
