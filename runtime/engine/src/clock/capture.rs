//! Frame-time captures as clocks: `capture:FILE`, a real run's frame times played back.
//!
//! [`Capture::parse`] reads, by what the text holds:
//!
//! | format | frame time | also read |
//! | --- | --- | --- |
//! | PresentMon, OCAT or CapFrameX CSV | `MsBetweenPresents` (present to present), else `FrameTime` (PresentMon 2's `--v2_metrics`: CPU start to the next CPU start) | `MsBetweenDisplayChange`, else `DisplayedTime` (see below), `Dropped` (else `NA` in `MsUntilDisplayed` / `DisplayLatency` / the display column), `AllowsTearing`, `SyncInterval`, `MsCPUBusy` / `CPUBusy`, `MsGPUBusy` / `GPUBusy` / `msGPUActive`, `DisplayLatency` / `MsUntilDisplayed`, `MsClickToPhotonLatency` / `ClickToPhotonLatency`, the further latencies of [`INPUT_LATENCY_COLUMNS`], `FrameType` ([`is_application_frame`]), `PresentMode` and `AllowsTearing` frame by frame ([`ModeSpan`]), `Application` / `ProcessName`, `ProcessID`, `SwapChainAddress` |
//! | MangoHud CSV (after its system-info lines) | `frametime` | `elapsed`: a log sampled every `log_interval` ms, not one row a frame, is refused |
//! | CapFrameX JSON | `Runs[].CaptureData.MsBetweenPresents` | `MsBetweenDisplayChange`, `Dropped`, `AllowsTearing`, `SyncInterval`, `MsUntilDisplayed`, `Runs[].SensorData2` ([`Sensor`]) |
//! | plain text | one number a line, in ms (`#` starts a comment line) | |
//! | MSI Afterburner hardware monitoring log | refused: one row a polling period, not one a frame | |
//! | FRAPS frametimes CSV (`Frame, Time (ms)`) | the difference between each row's `Time (ms)` (a running time since the first frame) and the previous row's | |
//! | any CSV above as a spreadsheet saves it where the comma is the decimal mark | as the comma file: fields split at `;`, decimal commas (`16,67`) | as the comma file; a file mixing the two styles is refused |
//!
//! A frame is never displayed when any column says so (`Dropped` 1, an `NA` display time or
//! latency, a `DisplayedTime` of 0), and then has no display interval and no latency: each
//! frame is counted once, displayed or not.
//!
//! PresentMon 2's `DisplayedTime` is how long a frame stayed on screen, up to the next displayed
//! frame; `MsBetweenDisplayChange` is the interval from the previous display to this one. So a
//! frame's display interval from a `DisplayedTime` file is the previous displayed frame's value
//! (none for the first displayed frame). A bad value in a stream that is not played (the
//! compositor's `NA`, say) does not stop the run; in the one played it does.
//!
//! Column names are matched whatever their case, and a byte-order mark (UTF-8 or UTF-16) is
//! skipped. A PresentMon file often holds several processes and swap chains (the game, the
//! compositor, a browser): one is played, by default the one with the most frames that is not
//! the compositor (`dwm.exe` is played only when it is alone or named), or the one a selector
//! names (`capture:FILE#firefox.exe`, by process name, process id or swap-chain address, the
//! address compared by value so PresentMon 1's zero-padded spelling matches PresentMon 2's; for
//! CapFrameX JSON, which holds runs rather than swap chains, `#2` names the second run and
//! `#all` plays every run end to end, as CapFrameX's aggregation reads the file). Of
//! streams tied for the default pick the first in the file is played, and
//! [`Capture::notes`] says so. [`Capture::describe`] says which and what else the file holds.
//!
//! ```
//! use std::sync::Arc;
//!
//! use bt_engine::clock::capture::Capture;
//! use bt_engine::Clock;
//!
//! let csv = "Application,SwapChainAddress,AllowsTearing,MsBetweenPresents\n\
//!            game.exe,0x1,0,16.7\ndwm.exe,0x2,0,16.6\ngame.exe,0x1,0,33.4\n";
//! let capture = Arc::new(Capture::parse(csv, "demo.csv", None).unwrap());
//! assert_eq!(capture.frames_ms(), [16.7, 33.4]);
//! let mut clock = capture.clock(false);
//! assert_eq!([clock.delta(0.0), clock.delta(0.0), clock.delta(0.0)], [Some(16.7), Some(33.4), None]);
//! ```

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use bt_overlay::{estimate_refresh_hz, Refresh, COMMON_REFRESH_HZ};
use thiserror::Error;

use crate::clock::Clock;
use crate::quote::{excerpt, number};

/// The shortest frame time a capture may hold, in ms: a microsecond (as a clock spec's).
pub const MIN_CAPTURE_MS: f64 = 0.001;
/// The longest, in ms: a minute (as a clock spec's).
pub const MAX_CAPTURE_MS: f64 = 60_000.0;
/// The largest capture file read, in bytes: 1 GiB, some ten million PresentMon rows.
pub const MAX_CAPTURE_BYTES: u64 = 1 << 30;
/// Lines searched for a CSV header before the file is called headerless: MangoHud puts a few
/// lines of system information above its own.
const HEADER_SEARCH_LINES: usize = 50;
/// A MangoHud log is called sampled when its rows' elapsed times span more than this many
/// times their frame times: per-frame logs span about one time (each row's time is its
/// frame's), MangoHud's old default of a row every 100 ms spans six times at 60 fps.
const SAMPLED_RATIO: f64 = 1.5;
/// Fewer rows than this are too few to tell a sampled log from a hitch.
const SAMPLED_MIN_ROWS: usize = 4;
/// The shortest and longest refresh periods a grid fit tries, in ms: 1000 Hz to 20 Hz.
const GRID_PERIOD_MS: (f64, f64) = (1.0, 50.0);
/// A display interval fits a grid when it lies within this share of a period of a whole
/// multiple of it: display changes land on refreshes, give or take the timer's noise.
const GRID_TOLERANCE: f64 = 0.04;
/// Display intervals longer than this many periods are left out of the fit's score (a stall
/// tells nothing of the period, and a too-short period would "fit" everything this way).
const GRID_MAX_MULTIPLE: f64 = 16.0;
/// A grid is accepted when at least this share of the display intervals fit it; below it the
/// display has no fixed refresh (variable refresh) or the timing is too noisy to tell.
const GRID_SHARE: f64 = 0.9;
/// At least this many display intervals are needed to fit a grid.
const GRID_MIN_INTERVALS: usize = 8;
/// A fitted rate within this share of a common display rate is that rate.
const GRID_SNAP: f64 = 0.005;
/// A capture is played as tearing (or V-Sync off) when more than this share of its frames
/// allowed tearing (or had a sync interval of 0): what most of the run did.
const MOST_FRAMES: f64 = 0.5;

/// Why a capture could not be read. Each message names the file and, where it can, the line,
/// the column and the value.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// The file could not be read.
    #[error("capture {file}: could not read it: {reason}")]
    Read {
        /// The file, as given.
        file: String,
        /// What the system said.
        reason: String,
    },
    /// The file is neither UTF-8 nor UTF-16 text.
    #[error(
        "capture '{file}': not text (expected UTF-8 or UTF-16 CSV, JSON or one number a line)"
    )]
    NotText {
        /// The file, as given.
        file: String,
    },
    /// No header names a frame-time column and the text is not one number a line.
    #[error(
        "capture '{file}' line {line}: no frame-time column (expected MsBetweenPresents, \
         FrameTime, frametime, or FRAPS's Frame, Time (ms)) and '{found}' is not a frame time"
    )]
    NoFrameColumn {
        /// The file, as given.
        file: String,
        /// The first line with text.
        line: usize,
        /// What it holds, shortened.
        found: String,
    },
    /// An MSI Afterburner hardware monitoring log (`.hml`): its rows are sensor readings taken
    /// once a polling period, its `Frametime` the latest frame's at that moment, so most
    /// frames are missing from it.
    #[error(
        "capture '{file}' line {line}: an MSI Afterburner hardware monitoring log, one row a \
         polling period rather than one a frame, so it holds no run of frame times to play; \
         capture with PresentMon, CapFrameX, FrameView or OCAT"
    )]
    HardwareLog {
        /// The file, as given.
        file: String,
        /// The line that says what the file is.
        line: usize,
    },
    /// A value that should be a frame time (or a flag) is not one.
    #[error("capture '{file}' line {line}, column {column}: '{value}' is not {expected}")]
    Value {
        /// The file, as given.
        file: String,
        /// The line, from 1 (for JSON, the array index from 0).
        line: usize,
        /// The column's name as the file spells it (for JSON, the field's path).
        column: String,
        /// The value found, shortened.
        value: String,
        /// What the column takes.
        expected: String,
    },
    /// A row with fewer fields than the header has columns.
    #[error("capture '{file}' line {line}: {found} fields, but column {column} is field {needed}")]
    ShortRow {
        /// The file, as given.
        file: String,
        /// The line, from 1.
        line: usize,
        /// Fields on the line.
        found: usize,
        /// The column that is missing ...
        column: String,
        /// ... and its place, from 1.
        needed: usize,
    },
    /// A CSV that mixes the two ways of writing one: fields split at `,` with decimal points,
    /// or at `;` with decimal commas (as spreadsheets save it where the comma is the decimal
    /// mark).
    #[error("capture '{file}' line {line}: {reason}")]
    MixedStyles {
        /// The file, as given.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is mixed, and where.
        reason: String,
    },
    /// JSON that is not a CapFrameX capture.
    #[error("capture '{file}': {reason}")]
    Json {
        /// The file, as given.
        file: String,
        /// What is wrong, with the JSON position.
        reason: String,
    },
    /// No frame time at all.
    #[error("capture '{file}' holds no frame times")]
    Empty {
        /// The file, as given.
        file: String,
    },
    /// A MangoHud log written one row per sampling interval, not one row a frame.
    #[error(
        "capture '{file}' is a sampled MangoHud log, not one row a frame: its {rows} rows span \
         {span_s:.1} s by its elapsed column but their frame times add up to {frames_s:.1} s \
         (one row every {every_ms:.0} ms); log every frame with MangoHud's log_interval=0 \
         (MANGOHUD_CONFIG=log_interval=0) and capture again"
    )]
    Sampled {
        /// The file, as given.
        file: String,
        /// Rows read.
        rows: usize,
        /// The time from the first row to the last by the `elapsed` column, in s.
        span_s: f64,
        /// The frame times of the rows after the first, added up, in s.
        frames_s: f64,
        /// The mean time between rows, in ms.
        every_ms: f64,
    },
    /// The selector after `#` names nothing in the file.
    #[error("capture '{file}': nothing matches '#{selector}'; it holds {holds}")]
    Selector {
        /// The file, as given.
        file: String,
        /// The selector, shortened.
        selector: String,
        /// What the file holds, listed.
        holds: String,
    },
}

/// The kind of file a capture was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaptureFormat {
    /// PresentMon, OCAT or CapFrameX CSV.
    PresentMon,
    /// MangoHud's CSV log.
    MangoHud,
    /// A CapFrameX JSON capture.
    CapFrameXJson,
    /// One frame time in ms a line.
    PlainText,
    /// FRAPS's frametimes CSV: a running time since the first frame, one row a frame.
    Fraps,
}

impl fmt::Display for CaptureFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CaptureFormat::PresentMon => "PresentMon CSV",
            CaptureFormat::MangoHud => "MangoHud CSV",
            CaptureFormat::CapFrameXJson => "CapFrameX JSON",
            CaptureFormat::PlainText => "plain text",
            CaptureFormat::Fraps => "FRAPS frametimes CSV",
        })
    }
}

/// One stream of frames in a capture: a swap chain of a process, or a CapFrameX run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stream {
    /// The process, as the file names it (empty when it names none).
    pub process: String,
    /// The process id, as the file gives it (empty when it gives none).
    pub process_id: String,
    /// The swap chain's address, or `run N` (empty when the file names none).
    pub swap_chain: String,
    /// Frame intervals in ms (between presents), in order.
    pub frames_ms: Vec<f64>,
    /// Intervals from the previous display change to this frame's, one per frame (0 for a
    /// frame never shown, and for the first one shown of a `DisplayedTime` file), when the
    /// file has them.
    pub display_ms: Option<Vec<f64>>,
    /// Presents never displayed (PresentMon's `Dropped`, or PresentMon 2's `NA` display
    /// columns), when the file says.
    pub not_displayed: Option<usize>,
    /// Frames presented with tearing allowed, when the file says (`AllowsTearing`).
    pub tearing_frames: Option<usize>,
    /// Frames presented with V-Sync off, a sync interval of 0 in the `Present()` call, when
    /// the file says (`SyncInterval`).
    pub sync_off_frames: Option<usize>,
    /// How long the CPU was busy on each frame, in ms (NaN where the file says `NA`), when
    /// the file has the column (PresentMon 2's `MsCPUBusy` or `CPUBusy`).
    pub cpu_busy_ms: Option<Vec<f64>>,
    /// How long the GPU was busy on each frame, in ms (NaN for `NA`), when the file has the
    /// column (PresentMon 2's `MsGPUBusy` or `GPUBusy`, PresentMon 1's `msGPUActive`).
    pub gpu_busy_ms: Option<Vec<f64>>,
    /// Each frame's latency to the display, in ms (NaN for `NA`, a frame never displayed),
    /// and the column it came from, when the file has one: `DisplayLatency` (PresentMon 2's
    /// `--v2_metrics`: from the frame's CPU start to its display) or `MsUntilDisplayed`
    /// (from the `Present()` call to the display).
    pub latency_ms: Option<(String, Vec<f64>)>,
    /// Each frame's click-to-photon latency, in ms (NaN where no click contributed), when the
    /// file has the column (`MsClickToPhotonLatency` or `ClickToPhotonLatency`).
    pub click_ms: Option<Vec<f64>>,
    /// How the frames reached the screen and whether that changed mid-run, when the file
    /// says (`PresentMode`).
    pub present_modes: Option<PresentModes>,
    /// Which frames were generated (frame generation), when the file has a `FrameType`
    /// column (PresentMon 2, FrameView).
    pub frame_types: Option<FrameTypes>,
    /// The other latency columns the file has ([`INPUT_LATENCY_COLUMNS`]: PC latency, all
    /// input to photon, instrumented latency), each under its name as the file spells it, one
    /// value a frame (NaN for `NA` and for a frame never displayed).
    pub input_latency_ms: Vec<(String, Vec<f64>)>,
    /// The stretches of frames by present mode and tearing, in order, when the file has
    /// `PresentMode` or `AllowsTearing`: one span for a run that never changed.
    pub mode_spans: Vec<ModeSpan>,
    /// The sensors read beside the frames (CapFrameX's `SensorData2`), none when the file has
    /// none.
    pub sensors: Vec<Sensor>,
}

/// How a stream's frames reached the screen (PresentMon's `PresentMode`: `Hardware:
/// Independent Flip`, `Composed: Flip`...) over the run. A change mid-run (a game leaving
/// independent flip for the compositor) changes the display's timing with it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PresentModes {
    /// The first frame's mode, as the file names it.
    pub first: String,
    /// The first change: the frame (from 0) and the mode from it on.
    pub first_change: Option<(usize, String)>,
    /// How many times the mode changed.
    pub changes: usize,
    /// The last frame's mode so far.
    last: String,
}

impl PresentModes {
    /// Adds frame `frame`'s mode to `modes`.
    fn note(modes: &mut Option<PresentModes>, frame: usize, mode: &str) {
        let Some(m) = modes else {
            *modes = Some(PresentModes {
                first: mode.to_string(),
                last: mode.to_string(),
                ..PresentModes::default()
            });
            return;
        };
        if m.last != mode {
            m.changes += 1;
            m.first_change
                .get_or_insert_with(|| (frame, mode.to_string()));
            m.last = mode.to_string();
        }
    }

    /// How a message says a change: `the present mode changed mid-run: Hardware: Independent
    /// Flip, then Composed: Flip from frame 812 (3 changes)`, or nothing when it never changed.
    pub fn change_text(&self) -> Option<String> {
        let (frame, to) = self.first_change.as_ref()?;
        let mut text = format!(
            "the present mode changed mid-run: {}, then {} from frame {frame}",
            excerpt(&self.first),
            excerpt(to)
        );
        if self.changes > 1 {
            text.push_str(&format!(" ({} changes)", self.changes));
        }
        Some(text)
    }
}

/// CapFrameX's `PresentMode` numbers, in order from 0, as PresentMon names the modes.
const CAPFRAMEX_PRESENT_MODES: [&str; 10] = [
    "Unknown",
    "Hardware: Legacy Flip",
    "Hardware: Legacy Copy to front buffer",
    "Hardware: Independent Flip",
    "Composed: Flip",
    "Composed: Copy with GPU GDI",
    "Composed: Copy with CPU GDI",
    "Composed: Composition Atlas",
    "Hardware Composed: Independent Flip",
    "Other",
];

impl Stream {
    /// How messages name the stream: `game.exe (pid 5120) swap chain 0x21F4E8A1C30`, or
    /// `its frames` for a file that names none. Each part is the file's text cut to
    /// [`crate::quote::EXCERPT_CHARS`] characters with an ellipsis (a field can be megabytes
    /// long), its control characters escaped.
    pub fn name(&self) -> String {
        let (name, id, chain) = (
            excerpt(&self.process),
            excerpt(&self.process_id),
            excerpt(&self.swap_chain),
        );
        let process = match (name.is_empty(), id.is_empty()) {
            (_, true) => name,
            (true, false) => format!("process {id}"),
            (false, false) => format!("{name} (pid {id})"),
        };
        // A CapFrameX run is named `run N`, not a swap chain.
        let chain = if self.is_run() {
            chain
        } else if chain.is_empty() {
            String::new()
        } else {
            format!("swap chain {chain}")
        };
        match (process.is_empty(), chain.is_empty()) {
            (true, true) => "its frames".to_string(),
            (false, true) => process,
            (true, false) => chain,
            (false, false) => format!("{process} {chain}"),
        }
    }

    /// Whether `selector` names this stream: its process name or id, its swap chain's address
    /// (by value, so PresentMon 1's zero-padded `0x00000296989CD030` and PresentMon 2's
    /// `0x296989CD030` are the same chain), or its run's number.
    fn matches(&self, selector: &str) -> bool {
        let selector = selector.trim();
        self.process.eq_ignore_ascii_case(selector)
            || (!self.process_id.is_empty() && self.process_id == selector)
            || self.swap_chain.eq_ignore_ascii_case(selector)
            || address(&self.swap_chain).is_some_and(|a| address(selector) == Some(a))
            || (self.is_run() && self.swap_chain[RUN.len()..] == *selector)
    }

    /// Whether this is a CapFrameX run rather than a swap chain.
    fn is_run(&self) -> bool {
        self.swap_chain.starts_with(RUN)
    }

    /// Whether this is the Windows compositor's stream: every PresentMon capture of a windowed
    /// game holds one, and it is played only when a selector names it.
    fn is_compositor(&self) -> bool {
        self.process.eq_ignore_ascii_case("dwm.exe")
    }
}

/// What a CapFrameX run's [`Stream::swap_chain`] starts with, before its number from 1.
const RUN: &str = "run ";

/// A swap-chain address as a number: `0x` and hexadecimal digits, any case, any zero padding.
fn address(text: &str) -> Option<u64> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    u64::from_str_radix(digits, 16).ok()
}

/// A capture: the frame times of the chosen stream, with what else the file held.
#[derive(Debug, Clone, PartialEq)]
pub struct Capture {
    file: String,
    format: CaptureFormat,
    chosen: Stream,
    /// The other streams' names and frame counts.
    others: Vec<(String, usize)>,
    /// Rows left out: the first of a stream with a zero interval (nothing before it).
    skipped: usize,
    /// Which columns gave the frame and display times, said when they need saying.
    sources: Option<String>,
    /// What stderr should hear beside the description, one line each.
    notes: Vec<String>,
}

impl Capture {
    /// Reads the capture at `path`, picking the stream `selector` names (see the module).
    ///
    /// # Errors
    /// [`CaptureError::Read`] when the file is missing, is not a regular file (a FIFO, a
    /// device), cannot be read or is over [`MAX_CAPTURE_BYTES`], else what [`Capture::parse`]
    /// says.
    pub fn load(path: &Path, selector: Option<&str>) -> Result<Capture, CaptureError> {
        let file = crate::quote::path(path);
        let read_error = |reason: String| CaptureError::Read {
            file: file.clone(),
            reason,
        };
        // Through the one gate every reader of a named file uses: a FIFO or a device is refused
        // at once instead of waiting on a writer or reading for ever, and the size is checked
        // before a byte is read.
        let bytes = crate::config::read::read_file(path, MAX_CAPTURE_BYTES)
            .map_err(|e| read_error(e.to_string()))?;
        let text = decode(bytes).ok_or_else(|| CaptureError::NotText { file: file.clone() })?;
        Capture::parse(&text, &file, selector)
    }

    /// Reads a capture from its text; `file` names it in messages.
    ///
    /// # Errors
    /// A [`CaptureError`] naming the line, column and value of the first bad value, a missing
    /// frame-time column, a selector that matches nothing, or a capture with no frames.
    pub fn parse(text: &str, file: &str, selector: Option<&str>) -> Result<Capture, CaptureError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let parsed = if text.trim_start().starts_with('{') {
            let streams = parse_json(text, file)?;
            Parsed {
                format: CaptureFormat::CapFrameXJson,
                errors: vec![None; streams.len()],
                streams,
                skipped: 0,
                sources: None,
                cut: None,
            }
        } else {
            match csv_style(text, file)? {
                CsvStyle::Comma => parse_lines(text, file, None)?,
                CsvStyle::Semicolon { header } => {
                    let commas = to_comma_style(text, file, header)?;
                    parse_lines(&commas, file, Some(text))?
                }
            }
        };
        let Parsed {
            format,
            streams,
            errors,
            skipped,
            sources,
            cut,
        } = parsed;
        // A bad value stops the run only in the stream played: the others are listed.
        let (mut streams, mut errors): (Vec<Stream>, Vec<Option<Unread>>) = streams
            .into_iter()
            .zip(errors)
            .filter(|(s, e)| !s.frames_ms.is_empty() || e.is_some())
            .unzip();
        if streams.is_empty() {
            return Err(CaptureError::Empty {
                file: file.to_string(),
            });
        }
        // A stream's size counts the rows from its first bad value on, as though read: a bad
        // cell must not shrink the stream and hand the default pick to another one.
        let size = |i: usize| streams[i].frames_ms.len() + errors[i].as_ref().map_or(0, |e| e.rows);
        let mut notes: Vec<String> = cut.into_iter().collect();
        if format == CaptureFormat::CapFrameXJson && all_runs::wants_all(selector) {
            if let Some(unread) = errors.into_iter().flatten().next() {
                return Err(unread.error);
            }
            return Ok(Capture {
                file: file.to_string(),
                format,
                chosen: all_runs::join(streams),
                others: Vec::new(),
                skipped,
                sources,
                notes,
            });
        }
        let pick = match selector {
            None => {
                // The compositor only when nothing else presented: a capture of a windowed
                // game holds dwm.exe too, often with more frames than the game.
                let games: Vec<usize> = (0..streams.len())
                    .filter(|&i| !streams[i].is_compositor())
                    .collect();
                let pool = if games.is_empty() {
                    (0..streams.len()).collect()
                } else {
                    games
                };
                let pick = most_frames(pool.iter().map(|&i| (i, size(i)))).unwrap_or(0);
                let ties: Vec<usize> = pool
                    .into_iter()
                    .filter(|&i| size(i) == size(pick))
                    .collect();
                if ties.len() > 1 {
                    let names: Vec<String> = ties.iter().map(|&i| streams[i].name()).collect();
                    notes.push(format!(
                        "capture '{file}': {} tie at {} frames; playing {}, the first in the \
                         file (pick another with capture:{file}{})",
                        names.join(" and "),
                        size(pick),
                        streams[pick].name(),
                        selector_hint(format),
                    ));
                }
                pick
            }
            Some(sel) => most_frames(
                (0..streams.len())
                    .filter(|&i| streams[i].matches(sel))
                    .map(|i| (i, size(i))),
            )
            .ok_or_else(|| CaptureError::Selector {
                file: file.to_string(),
                selector: excerpt(sel),
                holds: list(streams.iter().map(|s| (s.name(), s.frames_ms.len()))),
            })?,
        };
        if let Some(unread) = errors.swap_remove(pick) {
            return Err(unread.error);
        }
        let mut chosen = streams.swap_remove(pick);
        if format == CaptureFormat::PresentMon {
            chosen.sensors = frameview::sensors(text, &chosen);
        }
        let mut others: Vec<(String, usize)> = streams
            .iter()
            .map(|s| (s.name(), s.frames_ms.len()))
            .collect();
        others.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(Capture {
            file: file.to_string(),
            format,
            chosen,
            others,
            skipped,
            sources,
            notes,
        })
    }

    /// The file it was read from, as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The kind of file.
    pub fn format(&self) -> CaptureFormat {
        self.format
    }

    /// The stream played.
    pub fn stream(&self) -> &Stream {
        &self.chosen
    }

    /// What stderr should hear beside [`Capture::describe`], one line each: a last row cut
    /// short (a recorder stopped mid-write) and left out, a warning; streams tied for the
    /// default pick, and which was played.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The played stream's frame intervals, in ms.
    pub fn frames_ms(&self) -> &[f64] {
        &self.chosen.frames_ms
    }

    /// How many frames it plays.
    pub fn len(&self) -> usize {
        self.chosen.frames_ms.len()
    }

    /// Whether it plays no frame (never true of a parsed capture).
    pub fn is_empty(&self) -> bool {
        self.chosen.frames_ms.is_empty()
    }

    /// The refresh grid that best explains the capture's display intervals
    /// ([`fit_refresh_grid`]), when it has display times.
    pub fn refresh_fit(&self) -> Option<RefreshFit> {
        fit_refresh_grid(self.chosen.display_ms.as_deref()?)
    }

    /// What missed refreshes are counted against: none when most frames allowed tearing; else
    /// the rate whose whole multiples explain the display intervals, when the file has them
    /// and at least nine in ten fit ([`Capture::refresh_fit`]); none when they fit no grid
    /// (the program's own rate is not the panel's); without display times, none when most
    /// frames were presented with V-Sync off (their intervals are the program's pace, not the
    /// display's); else the rate estimated from the frame times ([`estimate_refresh_hz`]);
    /// else a rolling estimate. A PresentMon CSV and a CapFrameX JSON file of the same frames
    /// give the same answer.
    pub fn refresh(&self) -> Refresh {
        let s = &self.chosen;
        let most = |frames: Option<usize>| {
            frames.is_some_and(|n| n as f64 > MOST_FRAMES * s.frames_ms.len() as f64)
        };
        if most(s.tearing_frames) {
            return Refresh::Tearing;
        }
        if let Some(fit) = self.refresh_fit() {
            if fit.share >= GRID_SHARE {
                return Refresh::Measured(fit.hz);
            }
            return Refresh::NoGrid;
        }
        if most(s.sync_off_frames) {
            return Refresh::SyncOff;
        }
        estimate_refresh_hz(&s.frames_ms).map_or(Refresh::Rolling, Refresh::Estimated)
    }

    /// One line for stderr: the file, its format, the stream played and what else it holds.
    pub fn describe(&self) -> String {
        self.describe_with(false)
    }

    /// As [`Capture::describe`], for a run graded against a refresh rate or a variable-refresh
    /// range already given (`--refresh-hz`, `--vrr`): display times on no grid are said
    /// without advice to give one.
    pub fn describe_refresh_given(&self) -> String {
        self.describe_with(true)
    }

    fn describe_with(&self, refresh_given: bool) -> String {
        let mut line = format!(
            "capture '{}' ({}): playing {} ({} frames)",
            self.file,
            self.format,
            self.chosen.name(),
            self.len()
        );
        if let Some(sources) = &self.sources {
            line.push_str("; ");
            line.push_str(sources);
        }
        if let Some(fit) = self.refresh_fit() {
            line.push_str("; ");
            line.push_str(&if refresh_given {
                format!("{fit:#}")
            } else {
                fit.to_string()
            });
        }
        if let Some(change) = self
            .chosen
            .present_modes
            .as_ref()
            .and_then(|m| m.change_text())
        {
            line.push_str("; ");
            line.push_str(&change);
        }
        if self.skipped > 0 {
            line.push_str(&format!(
                ", leaving out {} first row(s) with no interval",
                self.skipped
            ));
        }
        if !self.others.is_empty() {
            line.push_str(&format!(
                "; it also holds {} (pick one with capture:{}{})",
                list(self.others.iter().cloned()),
                self.file,
                selector_hint(self.format)
            ));
        }
        line
    }

    /// A clock playing the capture's frame times in order. At the end it delivers no more
    /// frames, unless `looped`, when it starts over.
    pub fn clock(self: &Arc<Self>, looped: bool) -> CaptureClock {
        CaptureClock {
            capture: Arc::clone(self),
            next: 0,
            looped,
        }
    }

    /// A clock playing the capture once, as [`Capture::clock`], that hands `say` one line the
    /// first time it has no frame left ([`Capture::end_text`]): a window playing a capture
    /// (`bt run --clock capture:FILE`) otherwise just stops moving, with no word of why.
    pub fn clock_saying_its_end(self: &Arc<Self>, say: impl FnMut(&str) + 'static) -> EndSaid {
        EndSaid {
            clock: self.clock(false),
            say: Some(Box::new(say)),
        }
    }

    /// What a window playing the capture says when it runs out: which capture, after how
    /// many frames and how long, and what happens next.
    pub fn end_text(&self) -> String {
        format!(
            "capture '{}' played out: all {} frames ({} s) of {}; no frame runs after it, so \
             the cart stops updating and the window keeps its last picture until it is closed",
            self.file,
            self.len(),
            number((self.frames_ms().iter().sum::<f64>() / 1000.0 * 10.0).round() / 10.0),
            self.chosen.name()
        )
    }
}

/// Where [`EndSaid`] says its line.
type Say = Box<dyn FnMut(&str)>;

/// A [`CaptureClock`] playing once that says when it runs out (see
/// [`Capture::clock_saying_its_end`]).
pub struct EndSaid {
    clock: CaptureClock,
    /// Called once, then gone.
    say: Option<Say>,
}

impl fmt::Debug for EndSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EndSaid")
            .field("clock", &self.clock)
            .field("said", &self.say.is_none())
            .finish()
    }
}

impl Clock for EndSaid {
    fn delta(&mut self, now_ms: f64) -> Option<f64> {
        let delta = self.clock.delta(now_ms);
        if delta.is_none() {
            if let Some(mut say) = self.say.take() {
                say(&self.clock.capture.end_text());
            }
        }
        delta
    }
}

/// How well a refresh period explains a list of display intervals: see [`fit_refresh_grid`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RefreshFit {
    /// The fitted refresh rate, in Hz.
    pub hz: f64,
    /// The share of the display intervals within 4 % of a period of a whole multiple of it.
    pub share: f64,
    /// The root-mean-square distance of those intervals from their multiples, in ms.
    pub rms_ms: f64,
    /// The display intervals fitted (frames never displayed left out).
    pub intervals: usize,
}

impl fmt::Display for RefreshFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = self.share * 100.0;
        if self.share >= GRID_SHARE {
            write!(
                f,
                "display times fit a {:.2} Hz refresh grid ({share:.1} % of {} intervals, \
                 {:.3} ms rms)",
                self.hz, self.intervals, self.rms_ms
            )
        } else {
            write!(
                f,
                "display times fit no refresh grid (at best {:.2} Hz, {share:.1} % of {} \
                 intervals: variable refresh, or too noisy to tell",
                self.hz, self.intervals
            )?;
            // `{:#}`: for a run already given its refresh, no advice to give it.
            if !f.alternate() {
                f.write_str(
                    "; missed refreshes are n/a: give a fixed panel's rate with --refresh-hz HZ, \
                     or a variable-refresh panel's range with --vrr MIN-MAX",
                )?;
            }
            f.write_str(")")
        }
    }
}

/// The refresh period whose whole multiples best explain `display_ms` (intervals between
/// display changes in ms; 0 for a frame never displayed): a game at 43 fps on a 240 Hz panel
/// shows each frame for 5 or 6 refreshes of 4.17 ms, and the fit finds 240 Hz where the
/// shortest intervals alone would say 48. Periods from 1 to 50 ms are tried; an interval fits
/// a period when it lies within 4 % of a period of a multiple of it (intervals over 16 periods
/// are left out of the score). Of the periods nearly as good as the best, none longer than
/// the shortest interval on one of their grids is taken, since a panel changes the picture at
/// most once a refresh (a frame cap, 30 fps on a 60 Hz panel showing a frame one refresh now
/// and then, is not taken for the panel); of those, the longest near a common display rate,
/// else the longest (a period's halves explain its multiples too), refined by least squares
/// over the intervals that fit. `None` with fewer than 8 intervals.
///
/// ```
/// use bt_engine::clock::capture::fit_refresh_grid;
///
/// let period = 1000.0 / 240.0;
/// let shown: Vec<f64> = (0..40).map(|i| period * [5.0, 6.0, 5.0][i % 3] + 0.02).collect();
/// let fit = fit_refresh_grid(&shown).unwrap();
/// assert_eq!(fit.hz, 240.0);
/// assert_eq!(fit.share, 1.0);
/// ```
pub fn fit_refresh_grid(display_ms: &[f64]) -> Option<RefreshFit> {
    let shown: Vec<f64> = display_ms
        .iter()
        .copied()
        .filter(|&d| d > 0.0 && d.is_finite())
        .collect();
    if shown.len() < GRID_MIN_INTERVALS {
        return None;
    }
    // Score at most a few thousand intervals, evenly spread, for speed.
    let step = shown.len().div_ceil(4096);
    let sample: Vec<f64> = shown.iter().copied().step_by(step).collect();
    // Whether an interval lies on the grid of a period.
    let fits = |d: f64, period: f64| {
        let k = (d / period).round().max(1.0);
        k <= GRID_MAX_MULTIPLE && (d - k * period).abs() <= GRID_TOLERANCE * period
    };
    let score = |period: f64| {
        let fitting = sample.iter().filter(|&&d| fits(d, period)).count();
        fitting as f64 / sample.len() as f64
    };
    // Periods spaced 0.1 % apart, so that a multiple up to 16 stays within the tolerance
    // of the true one.
    let mut scored = Vec::new();
    let mut period = GRID_PERIOD_MS.0;
    while period <= GRID_PERIOD_MS.1 {
        scored.push((period, score(period)));
        period *= 1.001;
    }
    let best = scored.iter().map(|p| p.1).fold(0.0, f64::max);
    let near_best: Vec<f64> = scored
        .iter()
        .rev()
        .filter(|p| p.1 >= best - 0.01)
        .map(|p| p.0)
        .collect();
    // A panel changes the picture at most once a refresh: no period is longer than the
    // shortest display interval that lies on one of these grids. An interval on none of them
    // (a 0.45 ms glitch in PresentMon's own recording) bounds nothing.
    let shortest_on_a_grid = sample
        .iter()
        .copied()
        .filter(|&d| near_best.iter().any(|&period| fits(d, period)))
        .fold(f64::INFINITY, f64::min);
    let allowed = |period: f64| period * (1.0 - GRID_TOLERANCE) <= shortest_on_a_grid;
    let common = |period: f64| {
        COMMON_REFRESH_HZ
            .into_iter()
            .any(|hz| (1000.0 / period - hz).abs() <= hz * GRID_SNAP)
    };
    let candidates = || near_best.iter().copied().filter(|&p| allowed(p));
    let coarse = candidates()
        .find(|&p| common(p))
        .or_else(|| candidates().next())
        .unwrap_or(GRID_PERIOD_MS.0);
    // Least squares over the intervals that fit: period = Σ k·d / Σ k².
    let fitting = |period: f64| {
        shown
            .iter()
            .filter(move |&&d| fits(d, period))
            .map(move |&d| ((d / period).round().max(1.0), d))
    };
    let (kd, kk) = fitting(coarse).fold((0.0, 0.0), |(kd, kk), (k, d)| (kd + k * d, kk + k * k));
    let period = if kk > 0.0 { kd / kk } else { coarse };
    let (count, squares) = fitting(period).fold((0usize, 0.0), |(n, sq), (k, d)| {
        (n + 1, sq + (d - k * period).powi(2))
    });
    let raw_hz = 1000.0 / period;
    let hz = COMMON_REFRESH_HZ
        .into_iter()
        .find(|&common| (raw_hz - common).abs() <= common * GRID_SNAP)
        .unwrap_or((raw_hz * 100.0).round() / 100.0);
    Some(RefreshFit {
        hz,
        share: count as f64 / shown.len() as f64,
        rms_ms: if count > 0 {
            (squares / count as f64).sqrt()
        } else {
            0.0
        },
        intervals: shown.len(),
    })
}

/// Plays a [`Capture`]'s frame times, ignoring the host's timestamps.
#[derive(Debug, Clone)]
pub struct CaptureClock {
    capture: Arc<Capture>,
    next: usize,
    looped: bool,
}

impl Clock for CaptureClock {
    fn delta(&mut self, _now_ms: f64) -> Option<f64> {
        let frames = self.capture.frames_ms();
        if self.next == frames.len() {
            if !self.looped {
                return None;
            }
            self.next = 0;
        }
        let d = frames[self.next];
        self.next += 1;
        Some(d)
    }
}

/// The index of the stream with the most frames (the first of equals), from (index, frames).
fn most_frames(streams: impl Iterator<Item = (usize, usize)>) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, frames) in streams {
        if best.is_none_or(|(_, n)| frames > n) {
            best = Some((i, frames));
        }
    }
    best.map(|(i, _)| i)
}

/// How a selector names a stream of a file of `format`, after `capture:FILE`.
fn selector_hint(format: CaptureFormat) -> &'static str {
    match format {
        CaptureFormat::CapFrameXJson => {
            "#N, N the run's number from 1, or #all for every run end to end"
        }
        _ => "#NAME, #PID or #ADDRESS",
    }
}

fn list(items: impl Iterator<Item = (String, usize)>) -> String {
    items
        .map(|(name, n)| format!("{name} ({n} frames)"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// UTF-8 (with or without a mark) or UTF-16 with its mark, as text.
fn decode(bytes: Vec<u8>) -> Option<String> {
    let utf16 = |be: bool| {
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|p| {
                if be {
                    u16::from_be_bytes([p[0], p[1]])
                } else {
                    u16::from_le_bytes([p[0], p[1]])
                }
            })
            .collect();
        String::from_utf16(&units).ok()
    };
    match bytes.as_slice() {
        [0xff, 0xfe, ..] => utf16(false),
        [0xfe, 0xff, ..] => utf16(true),
        // The bytes become the text: no copy of a large file.
        _ => String::from_utf8(bytes).ok(),
    }
}

/// A frame time: a number from [`MIN_CAPTURE_MS`] to [`MAX_CAPTURE_MS`].
fn frame_time(text: &str) -> Option<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| (MIN_CAPTURE_MS..=MAX_CAPTURE_MS).contains(v))
}

const FRAME_TIME_EXPECTED: &str = "a frame time in ms (0.001 to 60000)";

/// What a CSV capture's display column holds, by PresentMon's own column descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DisplayColumn {
    /// `MsBetweenDisplayChange` (PresentMon 1 and 2's default columns): how long the previous
    /// frame stayed on screen before this one was displayed.
    SincePrevious,
    /// `DisplayedTime` (PresentMon 2's `--v2_metrics`): how long this frame stayed on screen,
    /// that is the interval from its display to the next displayed frame's.
    OnScreen,
}

/// The columns a CSV capture is read from, by their place in a row.
struct Columns {
    frame: (usize, String),
    display: Option<(usize, String)>,
    display_kind: DisplayColumn,
    dropped: Option<(usize, String)>,
    /// A column that is `NA` for a frame never displayed (`MsUntilDisplayed`,
    /// `DisplayLatency`), read when the file has no `Dropped` column.
    until_displayed: Option<usize>,
    tearing: Option<(usize, String)>,
    /// The sync interval the program gave `Present()` (0: V-Sync off).
    sync_interval: Option<(usize, String)>,
    /// How the frame reached the screen (`Hardware: Independent Flip`...).
    present_mode: Option<usize>,
    /// How long the CPU and the GPU were busy on each frame (PresentMon 2's `MsCPUBusy` /
    /// `CPUBusy` and `MsGPUBusy` / `GPUBusy`; PresentMon 1 has only `msGPUActive`).
    cpu_busy: Option<(usize, String)>,
    gpu_busy: Option<(usize, String)>,
    /// Latency to the display (`DisplayLatency`, else `MsUntilDisplayed`) and click to photon.
    latency: Option<(usize, String)>,
    click: Option<(usize, String)>,
    /// The frame's type: the application's, or a generator's (`FrameType`).
    frame_type: Option<usize>,
    /// The latency columns of [`INPUT_LATENCY_COLUMNS`] the file has.
    input_latency: Vec<(usize, String)>,
    process: Option<usize>,
    process_id: Option<usize>,
    swap_chain: Option<usize>,
    /// One past the last of them: a row needs this many fields.
    needed: usize,
}

impl Columns {
    fn find(header: &[&str]) -> Option<Columns> {
        // The first of `names` (in their order of preference) the header has.
        let at = |names: &[&str]| {
            names.iter().find_map(|n| {
                header
                    .iter()
                    .position(|h| h.trim().trim_matches('"').eq_ignore_ascii_case(n))
            })
        };
        let named = |i: usize| (i, header[i].trim().trim_matches('"').to_string());
        // Present to present; PresentMon 2's `--v2_metrics` files have only `FrameTime`, from
        // this frame's CPU start to the next one's.
        let frame = named(at(&["MsBetweenPresents", "FrameTime"])?);
        let (display, display_kind) = match at(&["MsBetweenDisplayChange"]) {
            Some(i) => (Some(named(i)), DisplayColumn::SincePrevious),
            None => (at(&["DisplayedTime"]).map(named), DisplayColumn::OnScreen),
        };
        let dropped = at(&["Dropped"]).map(named);
        let until_displayed = at(&["MsUntilDisplayed", "DisplayLatency"]);
        let tearing = at(&["AllowsTearing"]).map(named);
        let sync_interval = at(&["SyncInterval"]).map(named);
        let present_mode = at(&["PresentMode"]);
        let cpu_busy = at(&["MsCPUBusy", "CPUBusy"]).map(named);
        let gpu_busy = at(&["MsGPUBusy", "GPUBusy", "msGPUActive"]).map(named);
        let latency = at(&["DisplayLatency", "MsUntilDisplayed"]).map(named);
        let click = at(&["MsClickToPhotonLatency", "ClickToPhotonLatency"]).map(named);
        let frame_type = at(&["FrameType"]);
        let input_latency: Vec<(usize, String)> = INPUT_LATENCY_COLUMNS
            .iter()
            .filter_map(|&(ms, plain)| at(&[ms, plain]).map(named))
            .collect();
        let process = at(&["Application", "ProcessName"]);
        let swap_chain = at(&["SwapChainAddress"]);
        let process_id = at(&["ProcessID"]);
        let needed = [
            Some(frame.0),
            display.as_ref().map(|d| d.0),
            dropped.as_ref().map(|d| d.0),
            until_displayed,
            tearing.as_ref().map(|d| d.0),
            sync_interval.as_ref().map(|d| d.0),
            present_mode,
            cpu_busy.as_ref().map(|d| d.0),
            gpu_busy.as_ref().map(|d| d.0),
            latency.as_ref().map(|d| d.0),
            click.as_ref().map(|d| d.0),
            frame_type,
            input_latency.iter().map(|d| d.0).max(),
            process,
            process_id,
            swap_chain,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0)
            + 1;
        Some(Columns {
            frame,
            display,
            display_kind,
            dropped,
            until_displayed,
            tearing,
            sync_interval,
            present_mode,
            cpu_busy,
            gpu_busy,
            latency,
            click,
            frame_type,
            input_latency,
            process,
            process_id,
            swap_chain,
            needed,
        })
    }

    /// The places of the columns read as numbers (not the process, its id, the swap chain or
    /// the present mode, which are read as text).
    fn numbers(&self) -> Vec<usize> {
        [
            Some(self.frame.0),
            self.display.as_ref().map(|d| d.0),
            self.dropped.as_ref().map(|d| d.0),
            self.until_displayed,
            self.tearing.as_ref().map(|d| d.0),
            self.sync_interval.as_ref().map(|d| d.0),
            self.cpu_busy.as_ref().map(|d| d.0),
            self.gpu_busy.as_ref().map(|d| d.0),
            self.latency.as_ref().map(|d| d.0),
            self.click.as_ref().map(|d| d.0),
        ]
        .into_iter()
        .flatten()
        .chain(self.input_latency.iter().map(|d| d.0))
        .collect()
    }

    /// Which columns the frame and display times come from, when they are not PresentMon 1's
    /// `MsBetweenPresents` and `MsBetweenDisplayChange` (or MangoHud's `frametime`).
    fn sources(&self) -> String {
        let mut said = Vec::new();
        if self.frame.1.eq_ignore_ascii_case("FrameTime") {
            said.push(format!(
                "frame times from {} (CPU start to the next CPU start; the file has no \
                 MsBetweenPresents)",
                self.frame.1
            ));
        }
        if let (Some((_, name)), DisplayColumn::OnScreen) = (&self.display, self.display_kind) {
            said.push(format!(
                "display intervals from {name} (each frame's time on screen, ending at the next \
                 displayed frame)"
            ));
        }
        said.join("; ")
    }

    fn name_of(&self, i: usize) -> String {
        [
            Some(&self.frame),
            self.display.as_ref(),
            self.dropped.as_ref(),
            self.tearing.as_ref(),
            self.sync_interval.as_ref(),
            self.cpu_busy.as_ref(),
            self.gpu_busy.as_ref(),
            self.latency.as_ref(),
            self.click.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(&self.input_latency)
        .find(|(at, _)| *at == i)
        .map_or_else(|| format!("{}", i + 1), |(_, name)| name.clone())
    }
}

/// Splits a CSV line at `sep` (`,` or `;`) outside double quotes, into `fields` (cleared
/// first), each trimmed and without the double quotes around it: spreadsheets and some tools
/// quote every field, numbers too.
fn split_csv<'a>(line: &'a str, sep: u8, fields: &mut Vec<&'a str>) {
    fn unquoted(field: &str) -> &str {
        let field = field.trim();
        field
            .strip_prefix('"')
            .and_then(|f| f.strip_suffix('"'))
            .unwrap_or(field)
    }
    fields.clear();
    let mut start = 0;
    let mut quoted = false;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            _ if b == sep && !quoted => {
                fields.push(unquoted(&line[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.push(unquoted(&line[start..]));
}

/// How a CSV separates its fields and writes its decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CsvStyle {
    /// Fields split at `,`, decimal points: what every capture tool writes.
    Comma,
    /// Fields split at `;`, decimal commas (`16,67`): what Excel and LibreOffice save where
    /// the comma is the decimal mark, with the header on line `header`.
    Semicolon { header: usize },
}

/// How many of `line`'s bytes are `sep` outside double quotes.
fn separators(line: &str, sep: u8) -> usize {
    let mut quoted = false;
    let mut count = 0;
    for b in line.bytes() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == sep && !quoted {
            count += 1;
        }
    }
    count
}

/// Whether a line split into `fields` is a header this reader knows.
fn is_header(fields: &[&str]) -> bool {
    Columns::find(fields).is_some() || is_fraps(fields)
}

/// FRAPS's frametimes header: `Frame, Time (ms)`, and nothing else.
const FRAPS_COLUMNS: [&str; 2] = ["Frame", "Time (ms)"];

/// Whether `fields` are [`FRAPS_COLUMNS`], whatever their case.
fn is_fraps(fields: &[&str]) -> bool {
    fields.len() == FRAPS_COLUMNS.len()
        && fields
            .iter()
            .zip(FRAPS_COLUMNS)
            .all(|(f, name)| f.trim().eq_ignore_ascii_case(name))
}

/// The style of a CSV, by its header: the first line, within the first few, naming a
/// frame-time column when split at `,` or at `;`. A header split at `;` holds no `,` outside
/// quotes (a spreadsheet never writes one into a column name); one holding both is refused.
/// A file with no header is [`CsvStyle::Comma`] (plain text, or no frame column: the reader
/// says which).
fn csv_style(text: &str, file: &str) -> Result<CsvStyle, CaptureError> {
    let mut fields = Vec::new();
    for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
        if line.trim().is_empty() {
            continue;
        }
        split_csv(line, b',', &mut fields);
        let by_comma = is_header(&fields);
        split_csv(line, b';', &mut fields);
        let by_semicolon = is_header(&fields);
        if by_comma || by_semicolon {
            let (commas, semicolons) = (separators(line, b','), separators(line, b';'));
            if commas > 0 && semicolons > 0 {
                return Err(CaptureError::MixedStyles {
                    file: file.to_string(),
                    line: n,
                    reason: format!(
                        "the header splits its fields at both ',' ({commas}) and ';' \
                         ({semicolons}); expected ',' throughout, or ';' with decimal commas \
                         as a spreadsheet saves it"
                    ),
                });
            }
            // A header of one column has no separator to tell by: its first row has, a decimal
            // comma (`16,67`) that split at `,` would read as 16.
            let one_column_decimal_commas = commas == 0
                && semicolons == 0
                && text
                    .lines()
                    .skip(n)
                    .find(|l| !l.trim().is_empty())
                    .is_some_and(|row| row.contains(',') && !row.contains('.'));
            return Ok(if by_comma && !one_column_decimal_commas {
                CsvStyle::Comma
            } else {
                CsvStyle::Semicolon { header: n }
            });
        }
        if n >= HEADER_SEARCH_LINES || frame_time(line).is_some() || line.starts_with('#') {
            break;
        }
    }
    Ok(CsvStyle::Comma)
}

/// Whether a field is a number with a decimal point (`16.67`), or with a point and a comma
/// (`1.234,5`, the point a thousands separator). A version (`31.0.15.3742`) is neither.
fn point_number(field: &str) -> bool {
    field.contains('.')
        && (field.parse::<f64>().is_ok()
            || (field.contains(',')
                && field
                    .replace('.', "")
                    .replace(',', ".")
                    .parse::<f64>()
                    .is_ok()))
}

/// Whether a field is a number with one decimal comma (`16,67`, `-1,5E-3`): digits, a sign,
/// an exponent and the comma only, checked without a copy (a file has millions of them).
fn decimal_comma(field: &str) -> bool {
    field.bytes().filter(|&b| b == b',').count() == 1
        && field.bytes().any(|b| b.is_ascii_digit())
        && field
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-eE,".contains(&b))
}

/// The places of the columns a header's file is read from as numbers: a semicolon-style file
/// must write these with decimal commas.
fn number_columns(names: &[&str]) -> Vec<usize> {
    if is_fraps(names) {
        return vec![1];
    }
    let mut at = Columns::find(names).map_or_else(Vec::new, |c| c.numbers());
    at.extend(names.iter().position(|h| h.eq_ignore_ascii_case("elapsed")));
    at
}

/// A semicolon-style CSV (see [`CsvStyle::Semicolon`]) rewritten in the comma style, line for
/// line: fields joined by `,`, the one decimal comma of a number in a column read as numbers
/// made a point, any other field holding a comma quoted (a process name keeps its comma). The lines above the header are kept as they are (MangoHud's
/// system information, never read as numbers), and so is every line end, so line numbers and
/// a last row cut short read as in the original.
///
/// # Errors
/// [`CaptureError::MixedStyles`] for a number written with a decimal point (in a
/// decimal-comma file a point may be a thousands separator: `1.234` is 1234 there) and for a
/// row split at `,`, naming the line, the column and the value. Only the columns read as
/// numbers are checked: a driver version or a clock in a column never read is left as it is.
fn to_comma_style(text: &str, file: &str, header: usize) -> Result<String, CaptureError> {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut fields = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut numbers: Vec<usize> = Vec::new();
    let mixed = |line: usize, reason: String| CaptureError::MixedStyles {
        file: file.to_string(),
        line,
        reason,
    };
    for (i, whole) in text.split_inclusive('\n').enumerate() {
        let n = i + 1;
        let line = whole.trim_end_matches(['\r', '\n']);
        let end = &whole[line.len()..];
        if n < header || line.trim().is_empty() {
            out.push_str(whole);
            continue;
        }
        split_csv(line, b';', &mut fields);
        if n == header {
            names = fields.iter().map(|f| f.to_string()).collect();
            numbers = number_columns(&fields);
        } else if fields.len() == 1 && names.len() > 1 && separators(line, b',') > 0 {
            return Err(mixed(
                n,
                format!(
                    "the row splits its fields at ',' but the header (line {header}) at ';'; \
                     save the file with one separator"
                ),
            ));
        }
        for (at, field) in fields.iter().enumerate() {
            if at > 0 {
                out.push(',');
            }
            let number = numbers.contains(&at);
            if number && decimal_comma(field) {
                out.extend(field.chars().map(|c| if c == ',' { '.' } else { c }));
            } else if number && point_number(field) {
                let column = names
                    .get(at)
                    .cloned()
                    .unwrap_or_else(|| (at + 1).to_string());
                return Err(mixed(
                    n,
                    format!(
                        "column {}: '{}' has a decimal point, but the file splits its fields \
                         at ';' and writes decimal commas (16,67), where a point can be a \
                         thousands separator; save the file in one style",
                        excerpt(&column),
                        excerpt(field)
                    ),
                ));
            } else if field.contains(',') {
                out.push('"');
                out.push_str(field);
                out.push('"');
            } else {
                out.push_str(field);
            }
        }
        out.push_str(end);
    }
    Ok(out)
}

/// Field `at` of line `line` (from 1) of a semicolon-style CSV, as the file writes it, for a
/// message about a value read from its comma-style rewrite.
fn original_field(text: &str, line: usize, at: usize) -> Option<String> {
    let mut fields = Vec::new();
    split_csv(text.lines().nth(line.checked_sub(1)?)?, b';', &mut fields);
    fields.get(at).map(|f| f.to_string())
}

/// A flag column: `1`/`0`, `true`/`false` (any case).
fn flag(text: &str) -> Option<bool> {
    let t = text.trim();
    if t == "1" || t.eq_ignore_ascii_case("true") {
        Some(true)
    } else if t == "0" || t.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// A stream's first bad value, and the rows from it on (left unread).
#[derive(Debug, Clone)]
struct Unread {
    error: CaptureError,
    rows: usize,
}

/// What reading a file gives, before a stream is picked.
struct Parsed {
    format: CaptureFormat,
    streams: Vec<Stream>,
    /// Each stream's first bad value.
    errors: Vec<Option<Unread>>,
    /// Rows left out: a stream's first, with a zero interval.
    skipped: usize,
    /// Which columns gave the frame and display times (for a CSV with a header).
    sources: Option<String>,
    /// The warning for a last row cut short and left out.
    cut: Option<String>,
}

/// CSV with a header (PresentMon, OCAT, CapFrameX, MangoHud) or one number a line.
/// `semicolons` is the file as written when `text` is its comma-style rewrite
/// ([`to_comma_style`]): messages then quote its values.
fn parse_lines(text: &str, file: &str, semicolons: Option<&str>) -> Result<Parsed, CaptureError> {
    // A value as the file writes it.
    let as_written = |line: usize, at: usize, value: &str| {
        excerpt(
            semicolons
                .and_then(|t| original_field(t, line, at))
                .as_deref()
                .unwrap_or(value)
                .trim(),
        )
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut fields = Vec::new();
    // The header: the first line naming a frame-time column, within the first few.
    let mut first_text: Option<(usize, &str)> = None;
    let mut header = None;
    let mut header_line = 0;
    let mut fraps = false;
    for (n, line) in lines.by_ref() {
        if line.trim().is_empty() {
            continue;
        }
        first_text.get_or_insert((n, line));
        split_csv(line, b',', &mut fields);
        // Afterburner's sensor names (record 02, after the record type and the time) may
        // include `Frametime`: refused before they are taken for a PresentMon header.
        if line.contains(AFTERBURNER_LOG) || (fields.len() > 2 && fields[0] == AFTERBURNER_NAMES) {
            return Err(CaptureError::HardwareLog {
                file: file.to_string(),
                line: n,
            });
        }
        if is_fraps(&fields) {
            fraps = true;
            break;
        }
        if let Some(columns) = Columns::find(&fields) {
            header_line = n;
            let mango = fields.iter().any(|f| f.trim().eq_ignore_ascii_case("fps"));
            let names: Vec<String> = fields
                .iter()
                .map(|f| f.trim().trim_matches('"').to_string())
                .collect();
            header = Some((columns, mango, names));
            break;
        }
        if n >= HEADER_SEARCH_LINES || frame_time(line).is_some() || line.starts_with('#') {
            break;
        }
    }
    if fraps {
        return parse_fraps(lines, file, &as_written);
    }
    let Some((columns, mango, header_fields)) = header else {
        return parse_plain(text, file, first_text);
    };
    // MangoHud's `elapsed`: nanoseconds since logging started, one value a row.
    let elapsed_at = header_fields
        .iter()
        .position(|h| h.eq_ignore_ascii_case("elapsed"));
    let mut elapsed_ms: Vec<f64> = Vec::new();
    let format = if mango {
        CaptureFormat::MangoHud
    } else {
        CaptureFormat::PresentMon
    };
    let mut streams: Vec<Stream> = Vec::new();
    // Beside each stream: the first bad value in it (which matters only when it is played),
    // and how long its last displayed frame stayed on screen (for `DisplayedTime`).
    let mut states: Vec<StreamState> = Vec::new();
    let mut skipped = 0;
    // A recorder killed mid-write leaves its last row cut short, with no line break after it:
    // fewer fields, or a number cut to a bad value. That row alone is left out, said so.
    let last_line = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
        .map_or(0, |(i, _)| i + 1);
    let unended = !text.ends_with('\n');
    let mut cut = None;
    let cut_warning = |n: usize, what: String| {
        format!("warning: capture '{file}' line {n}: the last row is cut short ({what}); left out")
    };
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        split_csv(line, b',', &mut fields);
        if fields.len() < columns.needed && n == last_line && unended {
            cut = Some(cut_warning(
                n,
                format!("{} of {} fields", fields.len(), header_fields.len()),
            ));
            break;
        }
        // A row of the semicolon style in a comma file: too short, or as many fields split at
        // `;` as the header has (`game.exe;16,7` would read as process `game.exe;16`, 7 ms).
        let semicolon_row = semicolons.is_none()
            && line.contains(';')
            && (fields.len() < columns.needed || separators(line, b';') + 1 == header_fields.len());
        if semicolon_row {
            return Err(CaptureError::MixedStyles {
                file: file.to_string(),
                line: n,
                reason: format!(
                    "the row splits its fields at ';' but the header (line {header_line}) at \
                     ','; save the file with one separator"
                ),
            });
        }
        if fields.len() < columns.needed {
            let needed = columns.needed;
            return Err(CaptureError::ShortRow {
                file: file.to_string(),
                line: n,
                found: fields.len(),
                column: columns.name_of(needed - 1),
                needed,
            });
        }
        let text_of = |at: Option<usize>| at.map_or("", |i| fields[i].trim().trim_matches('"'));
        let (process, swap_chain) = (text_of(columns.process), text_of(columns.swap_chain));
        let process_id = text_of(columns.process_id);
        let index = match streams.iter().position(|s| {
            s.process == process && s.process_id == process_id && s.swap_chain == swap_chain
        }) {
            Some(i) => i,
            None => {
                streams.push(Stream {
                    process: process.to_string(),
                    process_id: process_id.to_string(),
                    swap_chain: swap_chain.to_string(),
                    display_ms: columns.display.as_ref().map(|_| Vec::new()),
                    not_displayed: (columns.dropped.is_some() || columns.display.is_some())
                        .then_some(0),
                    tearing_frames: columns.tearing.as_ref().map(|_| 0),
                    sync_off_frames: columns.sync_interval.as_ref().map(|_| 0),
                    cpu_busy_ms: columns.cpu_busy.as_ref().map(|_| Vec::new()),
                    gpu_busy_ms: columns.gpu_busy.as_ref().map(|_| Vec::new()),
                    latency_ms: columns
                        .latency
                        .as_ref()
                        .map(|(_, name)| (name.clone(), Vec::new())),
                    click_ms: columns.click.as_ref().map(|_| Vec::new()),
                    input_latency_ms: columns
                        .input_latency
                        .iter()
                        .map(|(_, name)| (name.clone(), Vec::new()))
                        .collect(),
                    ..Stream::default()
                });
                states.push(StreamState::default());
                streams.len() - 1
            }
        };
        let (stream, state) = (&mut streams[index], &mut states[index]);
        if let Some(unread) = &mut state.error {
            unread.rows += 1;
            continue;
        }
        // The last row may be cut: kept to put back should it prove so.
        let before = (n == last_line && unended).then(|| (stream.clone(), state.clone()));
        match read_row(&columns, &fields, stream, state) {
            Ok(true) => {
                if let Some(ns) = elapsed_at.and_then(|i| fields.get(i)?.trim().parse::<f64>().ok())
                {
                    elapsed_ms.push(ns / 1e6);
                }
            }
            Ok(false) => skipped += 1,
            Err((at, name, _)) if before.is_some() => {
                let value = as_written(n, at, fields[at]);
                cut = Some(cut_warning(n, format!("'{value}' in {name}")));
                (*stream, *state) = before.unwrap_or_default();
            }
            Err((at, name, expected)) => {
                state.error = Some(Unread {
                    error: CaptureError::Value {
                        file: file.to_string(),
                        line: n,
                        column: name,
                        value: as_written(n, at, fields[at]),
                        expected: expected.to_string(),
                    },
                    rows: 1,
                });
            }
        }
    }
    let errors = states.into_iter().map(|s| s.error).collect();
    let sources = (!mango)
        .then(|| columns.sources())
        .filter(|s| !s.is_empty());
    if let (true, Some(_), [stream]) = (mango, elapsed_at, &streams[..]) {
        check_per_frame(file, &elapsed_ms, &stream.frames_ms)?;
    }
    Ok(Parsed {
        format,
        streams,
        errors,
        skipped,
        sources,
        cut,
    })
}

/// FRAPS's frametimes CSV, after its header: `1, 0.000`, `2, 16.123`... a frame number and
/// the time in ms since the first frame, so a frame's time is its row's time less the
/// previous row's, and N rows make N - 1 frames. This is the file FRAPS writes as
/// `NAME frametimes.csv` beside its benchmark summary, and the shape other tools copy when
/// they say they write FRAPS frametimes (AMD GPU PerfStudio's frame-stats logger writes the
/// same header, then `%d, %f` rows).
fn parse_fraps<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    file: &str,
    as_written: &dyn Fn(usize, usize, &str) -> String,
) -> Result<Parsed, CaptureError> {
    let time_column = FRAPS_COLUMNS[1];
    let mut fields = Vec::new();
    let mut frames = Vec::new();
    // The previous row's line and running time.
    let mut previous: Option<(usize, f64)> = None;
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        split_csv(line, b',', &mut fields);
        if fields.len() < FRAPS_COLUMNS.len() {
            return Err(CaptureError::ShortRow {
                file: file.to_string(),
                line: n,
                found: fields.len(),
                column: time_column.to_string(),
                needed: FRAPS_COLUMNS.len(),
            });
        }
        let raw = fields[1];
        let bad = |expected: String| CaptureError::Value {
            file: file.to_string(),
            line: n,
            column: time_column.to_string(),
            value: as_written(n, 1, raw),
            expected,
        };
        let time = raw
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite())
            .ok_or_else(|| bad("a running time in ms".to_string()))?;
        if let Some((at, before)) = previous {
            // The file writes whole microseconds: rounding to a nanosecond drops the
            // subtraction's binary noise (33.456 - 16.123 is 17.333000000000002) and nothing
            // the file holds.
            let ms = ((time - before) * 1e6).round() / 1e6;
            if !(MIN_CAPTURE_MS..=MAX_CAPTURE_MS).contains(&ms) {
                return Err(bad(format!(
                    "a running time in ms 0.001 to 60000 after line {at}'s {}",
                    number(before)
                )));
            }
            frames.push(ms);
        }
        previous = Some((n, time));
    }
    Ok(Parsed {
        format: CaptureFormat::Fraps,
        streams: vec![Stream {
            frames_ms: frames,
            ..Stream::default()
        }],
        errors: vec![None],
        skipped: 0,
        sources: Some(format!(
            "frame times from the differences of its running {time_column}"
        )),
        cut: None,
    })
}

/// Refuses a MangoHud log written one row every `log_interval` ms rather than one row a frame:
/// its rows' `elapsed` times then span several times what their frame times add up to, and
/// playing the rows as frames would squeeze the run into a fraction of its length.
fn check_per_frame(file: &str, elapsed_ms: &[f64], frames_ms: &[f64]) -> Result<(), CaptureError> {
    let (Some(first), Some(last)) = (elapsed_ms.first(), elapsed_ms.last()) else {
        return Ok(());
    };
    if elapsed_ms.len() != frames_ms.len() || frames_ms.len() < SAMPLED_MIN_ROWS {
        return Ok(());
    }
    // From the first row's time to the last's lie the frames of every row after the first.
    let span_ms = last - first;
    let frames_sum_ms: f64 = frames_ms[1..].iter().sum();
    if span_ms <= SAMPLED_RATIO * frames_sum_ms {
        return Ok(());
    }
    Err(CaptureError::Sampled {
        file: file.to_string(),
        rows: frames_ms.len(),
        span_s: span_ms / 1000.0,
        frames_s: frames_sum_ms / 1000.0,
        every_ms: span_ms / (frames_ms.len() - 1) as f64,
    })
}

/// What reading a stream's rows keeps beside the stream.
#[derive(Default, Clone)]
struct StreamState {
    /// The stream's first bad value, and the rows from it on.
    error: Option<Unread>,
    /// How long the stream's last displayed frame stayed on screen (`DisplayedTime`).
    on_screen_ms: Option<f64>,
}

/// Adds one row's frame to `stream`: `Ok(false)` when the row is left out (a stream's first
/// present, with nothing before it), or the place, name and expected form of a bad value.
fn read_row(
    columns: &Columns,
    fields: &[&str],
    stream: &mut Stream,
    state: &mut StreamState,
) -> Result<bool, (usize, String, &'static str)> {
    let bad = |(at, name): &(usize, String), expected: &'static str| (*at, name.clone(), expected);
    let raw = fields[columns.frame.0].trim();
    let frame = match frame_time(raw) {
        Some(ms) => ms,
        // The first present of a stream has nothing before it to measure from.
        None if stream.frames_ms.is_empty() && raw.parse::<f64>() == Ok(0.0) => return Ok(false),
        None => return Err(bad(&columns.frame, FRAME_TIME_EXPECTED)),
    };
    // Whether the frame was never displayed, by every column that can say so: a `Dropped` of
    // 1, an `NA` display time or latency, or a `DisplayedTime` of 0 (how PresentMon's capture
    // application wrote `NA` there before it wrote `NA`). Any one of them is enough, and the
    // frame then has no display interval, whatever the others hold: counted once, as never
    // displayed, and never also as displayed.
    let mut never_displayed = None;
    let mut display = None;
    if let Some(col) = &columns.display {
        let raw = fields[col.0].trim();
        let value = if raw.eq_ignore_ascii_case("NA") {
            None
        } else {
            raw.parse::<f64>()
                .ok()
                .filter(|v| (0.0..=MAX_CAPTURE_MS).contains(v))
                .ok_or_else(|| bad(col, "a display interval in ms or NA"))
                .map(Some)?
        };
        let on_screen_zero = columns.display_kind == DisplayColumn::OnScreen && value == Some(0.0);
        never_displayed = Some(value.is_none() || on_screen_zero);
        display = value;
    }
    if let Some(i) = columns.until_displayed {
        let na = fields[i].trim().eq_ignore_ascii_case("NA");
        never_displayed = Some(never_displayed.unwrap_or(false) || na);
    }
    if let Some(col) = &columns.dropped {
        let dropped = flag(fields[col.0]).ok_or_else(|| bad(col, "0 or 1"))?;
        never_displayed = Some(never_displayed.unwrap_or(false) || dropped);
    }
    if columns.display.is_some() {
        let since_previous = match (never_displayed, display, columns.display_kind) {
            (Some(true), ..) | (_, None, _) => 0.0,
            (_, Some(v), DisplayColumn::SincePrevious) => v,
            // This frame's own time on screen is the interval before the next displayed
            // frame; its own interval is the previous displayed frame's time on screen (0,
            // like a frame never displayed, for the first: nothing before it to measure from).
            (_, Some(v), DisplayColumn::OnScreen) => state.on_screen_ms.replace(v).unwrap_or(0.0),
        };
        stream
            .display_ms
            .get_or_insert_with(Vec::new)
            .push(since_previous);
    }
    if let Some(never) = never_displayed {
        *stream.not_displayed.get_or_insert(0) += usize::from(never);
    }
    let mut tearing = None;
    if let Some(col) = &columns.tearing {
        let allowed = flag(fields[col.0]).ok_or_else(|| bad(col, "0 or 1"))?;
        *stream.tearing_frames.get_or_insert(0) += usize::from(allowed);
        tearing = Some(allowed);
    }
    if let Some(col) = &columns.sync_interval {
        // PresentMon writes -1 where it could not tell the interval: a whole number counts.
        let interval = fields[col.0]
            .trim()
            .parse::<i64>()
            .map_err(|_| bad(col, "a sync interval (a whole number)"))?;
        *stream.sync_off_frames.get_or_insert(0) += usize::from(interval == 0);
    }
    // A time in ms or NA (kept as NaN), where the file has the column.
    let time_of = |col: &(usize, String), what: &'static str| -> Result<Option<f64>, _> {
        let raw = fields[col.0].trim();
        if raw.eq_ignore_ascii_case("NA") {
            return Ok(Some(f64::NAN));
        }
        raw.parse::<f64>()
            .ok()
            .filter(|v| (0.0..=MAX_CAPTURE_MS).contains(v))
            .map(Some)
            .ok_or_else(|| bad(col, what))
    };
    let time = |col: &Option<(usize, String)>, what: &'static str| -> Result<Option<f64>, _> {
        col.as_ref().map_or(Ok(None), |col| time_of(col, what))
    };
    let busy = |col| time(col, "a busy time in ms or NA");
    let (cpu, gpu) = (busy(&columns.cpu_busy)?, busy(&columns.gpu_busy)?);
    // A frame never displayed has no latency, whatever the file writes there (PresentMon 1
    // and FrameView write 0).
    let unshown = |ms: Option<f64>| {
        ms.map(|ms| {
            if never_displayed == Some(true) {
                f64::NAN
            } else {
                ms
            }
        })
    };
    let latency = unshown(time(&columns.latency, "a latency in ms or NA")?);
    let click = unshown(time(&columns.click, "a latency in ms or NA")?);
    if let (Some(ms), Some((_, v))) = (latency, &mut stream.latency_ms) {
        v.push(ms);
    }
    if let Some(ms) = click {
        stream.click_ms.get_or_insert_with(Vec::new).push(ms);
    }
    if let Some(ms) = cpu {
        stream.cpu_busy_ms.get_or_insert_with(Vec::new).push(ms);
    }
    if let Some(ms) = gpu {
        stream.gpu_busy_ms.get_or_insert_with(Vec::new).push(ms);
    }
    for (k, col) in columns.input_latency.iter().enumerate() {
        if let Some(ms) = unshown(time_of(col, "a latency in ms or NA")?) {
            stream.input_latency_ms[k].1.push(ms);
        }
    }
    let frame_at = stream.frames_ms.len();
    if let Some(i) = columns.present_mode {
        let mode = fields[i].trim();
        PresentModes::note(&mut stream.present_modes, frame_at, mode);
    }
    if columns.present_mode.is_some() || tearing.is_some() {
        let mode = columns.present_mode.map_or("", |i| fields[i].trim());
        ModeSpan::note(&mut stream.mode_spans, frame_at, mode, tearing);
    }
    if let Some(i) = columns.frame_type {
        FrameTypes::note(&mut stream.frame_types, fields[i]);
    }
    stream.frames_ms.push(frame);
    Ok(true)
}

/// What the first line of an MSI Afterburner hardware monitoring log holds after its record
/// type and time: `00, 07-12-2024 23:49:46, Hardware monitoring log v1.6`.
const AFTERBURNER_LOG: &str = ", Hardware monitoring log v";
/// The record type of the line naming an Afterburner log's sensors, its first field (a copy
/// saved without the `00` line starts with it).
const AFTERBURNER_NAMES: &str = "02";

/// One frame time a line; blank lines and lines starting with `#` are skipped.
fn parse_plain(
    text: &str,
    file: &str,
    first_text: Option<(usize, &str)>,
) -> Result<Parsed, CaptureError> {
    let mut frames = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match frame_time(t) {
            Some(ms) => frames.push(ms),
            None if frames.is_empty() && t.parse::<f64>().is_err() => {
                let (line, found) = first_text.unwrap_or((i + 1, t));

                return Err(CaptureError::NoFrameColumn {
                    file: file.to_string(),
                    line,
                    found: excerpt(found.trim()),
                });
            }
            None => {
                return Err(CaptureError::Value {
                    file: file.to_string(),
                    line: i + 1,
                    column: "1".to_string(),
                    value: excerpt(t),
                    expected: FRAME_TIME_EXPECTED.to_string(),
                })
            }
        }
    }
    let stream = Stream {
        frames_ms: frames,
        ..Stream::default()
    };
    Ok(Parsed {
        format: CaptureFormat::PlainText,
        streams: vec![stream],
        errors: vec![None],
        skipped: 0,
        sources: None,
        cut: None,
    })
}

/// CapFrameX JSON: each run's `CaptureData` is a stream.
///
/// Read as it is parsed, keeping only what a stream holds: the frame times and display
/// intervals as numbers (8 bytes each) and the count of frames not displayed. Every other
/// field, the capture's many other per-frame arrays among them, is skipped without being kept,
/// so reading takes a small multiple of the file's size, where a tree of JSON values took
/// some 22 times it.
fn parse_json(text: &str, file: &str) -> Result<Vec<Stream>, CaptureError> {
    use serde::Deserialize;
    let json_error = |reason: String| CaptureError::Json {
        file: file.to_string(),
        reason,
    };
    let mut reader = serde_json::Deserializer::from_str(text);
    let root = json::Root::deserialize(&mut reader)
        .and_then(|root| reader.end().map(|()| root))
        .map_err(|e| json_error(format!("not JSON: {e}")))?;
    let json::Field::Found(runs) = root.runs else {
        return Err(json_error(
            "no \"Runs\" array (expected a CapFrameX capture)".into(),
        ));
    };
    let process = root.process.unwrap_or_default();
    let mut streams = Vec::with_capacity(runs.0.len());
    for (r, run) in runs.0.into_iter().enumerate() {
        let path = format!("Runs[{r}].CaptureData");
        let data = run
            .capture_data
            .ok_or_else(|| json_error(format!("{path} is missing")))?;
        let numbers = |name: &str, field: json::Field<json::Numbers>, required: bool| match field {
            json::Field::Missing if required => {
                Err(json_error(format!("{path}.{name} is missing")))
            }
            json::Field::Missing => Ok(None),
            json::Field::Other => Err(json_error(format!("{path}.{name} is not an array"))),
            json::Field::Found(json::Numbers {
                bad: Some((i, value)),
                ..
            }) => Err(CaptureError::Value {
                file: file.to_string(),
                line: i,
                column: format!("{path}.{name}"),
                value: excerpt(&value),
                expected: if required {
                    FRAME_TIME_EXPECTED.to_string()
                } else {
                    "an interval in ms".to_string()
                },
            }),
            json::Field::Found(numbers) => Ok(Some(numbers.values)),
        };
        let frames_ms = numbers("MsBetweenPresents", data.presents, true)?.unwrap_or_default();
        let display_ms = numbers("MsBetweenDisplayChange", data.display, false)?
            .filter(|d| d.len() == frames_ms.len());
        let dropped = match data.dropped {
            json::Field::Found(json::Flags(flags)) => Some(flags),
            _ => None,
        };
        let not_displayed = dropped.as_ref().map(|f| f.iter().filter(|&&d| d).count());
        // CapFrameX keeps PresentMon's AllowsTearing and SyncInterval as arrays of integers,
        // one a frame: counted as the CSV reader counts its columns.
        let count = |field: json::Field<json::Flags>| match field {
            json::Field::Found(json::Flags(flags)) if flags.len() == frames_ms.len() => {
                Some(flags.iter().filter(|&&f| f).count())
            }
            _ => None,
        };
        let tearing_frames = count(data.allows_tearing);
        let sync_off_frames = count(data.sync_off);
        // CapFrameX numbers the present modes (its EPresentMode); named as PresentMon does.
        let present_modes = match data.present_mode {
            json::Field::Found(json::Modes(modes)) if modes.len() == frames_ms.len() => {
                let mut out = None;
                for (frame, mode) in modes.iter().enumerate() {
                    let name = usize::try_from(*mode)
                        .ok()
                        .and_then(|m| CAPFRAMEX_PRESENT_MODES.get(m))
                        .map_or_else(|| format!("mode {mode}"), |name| name.to_string());
                    PresentModes::note(&mut out, frame, &name);
                }
                out
            }
            _ => None,
        };
        // CapFrameX keeps PresentMon's columns as arrays: its MsUntilDisplayed is the time
        // from the Present() call to the display, none for a frame never displayed.
        let latency_ms = numbers("MsUntilDisplayed", data.until_displayed, false)?
            .filter(|d| d.len() == frames_ms.len())
            .map(|mut d| {
                for (ms, _) in d
                    .iter_mut()
                    .zip(dropped.iter().flatten())
                    .filter(|(_, &dropped)| dropped)
                {
                    *ms = f64::NAN;
                }
                ("MsUntilDisplayed".to_string(), d)
            });
        streams.push(Stream {
            process: process.clone(),
            process_id: String::new(),
            cpu_busy_ms: None,
            gpu_busy_ms: None,
            latency_ms,
            click_ms: None,
            swap_chain: format!("{RUN}{}", r + 1),
            frames_ms,
            display_ms,
            not_displayed,
            tearing_frames,
            sync_off_frames,
            present_modes,
            sensors: run.sensor_data.map(|s| s.0).unwrap_or_default(),
            ..Stream::default()
        });
    }
    Ok(streams)
}

/// The parts of a CapFrameX capture a stream is made of, read straight from the JSON text.
/// Field names are matched whatever their case, the first of a name counting; every other
/// field is skipped unread. A value of the wrong kind where an object should be reads as an
/// empty object, and where an array should be as [`Field::Other`], so the messages can say
/// what is missing or wrong.
mod all_runs;
mod frameview;
mod own_pace;
mod sensors;

pub use own_pace::{OwnPace, OWN_PACE_RESYNC_MS};

pub use sensors::{unit_of, Sensor};

mod json {
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

    use super::{MAX_CAPTURE_MS, MIN_CAPTURE_MS};

    /// A field that should hold an array.
    #[derive(Default)]
    pub(super) enum Field<T> {
        #[default]
        Missing,
        /// There, but not an array.
        Other,
        Found(T),
    }

    /// What an array is read into, element by element.
    pub(super) trait FromSeq<'de>: Sized {
        fn from_seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error>;
    }

    /// What an object is read into, field by field.
    trait Object: Default {
        /// Reads the value of the field `name` when it is one it keeps (and not yet seen),
        /// saying whether it did.
        fn field<'de, A: MapAccess<'de>>(
            &mut self,
            name: &str,
            map: &mut A,
        ) -> Result<bool, A::Error>;
    }

    /// Visits any JSON value as the object `T`, through [`Object`]; anything else is skipped
    /// and gives the default.
    struct Any<T>(PhantomData<T>);

    /// Skips a value, for any visitor.
    macro_rules! skipped {
        ($($method:ident($ty:ty)),*) => {
            $(fn $method<E: de::Error>(self, _: $ty) -> Result<Self::Value, E> {
                Ok(Default::default())
            })*
        };
    }

    impl<'de, T: Object> Visitor<'de> for Any<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
            let mut out = T::default();
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if !out.field(&key, &mut map)? {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(out)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(T::default())
        }

        fn visit_unit<E: de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        skipped!(
            visit_bool(bool),
            visit_i64(i64),
            visit_u64(u64),
            visit_f64(f64),
            visit_str(&str)
        );
    }

    /// Visits any JSON value as a [`Field`].
    struct ArrayOr<T>(PhantomData<T>);

    impl<'de, T: FromSeq<'de>> Visitor<'de> for ArrayOr<T> {
        type Value = Field<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Field<T>, A::Error> {
            T::from_seq(seq).map(Field::Found)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Field<T>, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Field::Other)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<Field<T>, E> {
            Ok(Field::Other)
        }
    }

    impl<'de, T: FromSeq<'de>> Deserialize<'de> for Field<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(ArrayOr(PhantomData))
        }
    }

    /// Objects read through [`Any`].
    macro_rules! object {
        ($($ty:ident),*) => {
            $(impl<'de> Deserialize<'de> for $ty {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_any(Any::<$ty>(PhantomData))
                }
            })*
        };
    }

    object!(Root, Info, Run, Data);

    /// The top of a capture: its process name and runs.
    #[derive(Default)]
    pub(super) struct Root {
        info_seen: bool,
        pub process: Option<String>,
        pub runs: Field<Runs>,
    }

    impl Object for Root {
        fn field<'de, A: MapAccess<'de>>(
            &mut self,
            name: &str,
            map: &mut A,
        ) -> Result<bool, A::Error> {
            if name.eq_ignore_ascii_case("Info") && !self.info_seen {
                self.info_seen = true;
                self.process = map.next_value::<Info>()?.process_name;
            } else if name.eq_ignore_ascii_case("Runs") && matches!(self.runs, Field::Missing) {
                self.runs = map.next_value()?;
            } else {
                return Ok(false);
            }
            Ok(true)
        }
    }

    /// A capture's `Info`.
    #[derive(Default)]
    struct Info {
        seen: bool,
        process_name: Option<String>,
    }

    impl Object for Info {
        fn field<'de, A: MapAccess<'de>>(
            &mut self,
            name: &str,
            map: &mut A,
        ) -> Result<bool, A::Error> {
            if !name.eq_ignore_ascii_case("ProcessName") || self.seen {
                return Ok(false);
            }
            self.seen = true;
            let value = map.next_value::<serde_json::Value>()?;
            self.process_name = value.as_str().map(str::to_string);
            Ok(true)
        }
    }

    /// The runs of a capture.
    pub(super) struct Runs(pub Vec<Run>);

    impl<'de> FromSeq<'de> for Runs {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut runs = Vec::new();
            while let Some(run) = seq.next_element::<Run>()? {
                runs.push(run);
            }
            Ok(Runs(runs))
        }
    }

    /// A run: its `CaptureData` and `SensorData2`.
    #[derive(Default)]
    pub(super) struct Run {
        pub capture_data: Option<Data>,
        pub sensor_data: Option<super::sensors::SensorData2>,
    }

    impl Object for Run {
        fn field<'de, A: MapAccess<'de>>(
            &mut self,
            name: &str,
            map: &mut A,
        ) -> Result<bool, A::Error> {
            if name.eq_ignore_ascii_case("SensorData2") && self.sensor_data.is_none() {
                self.sensor_data = Some(map.next_value()?);
                return Ok(true);
            }
            if !name.eq_ignore_ascii_case("CaptureData") || self.capture_data.is_some() {
                return Ok(false);
            }
            self.capture_data = Some(map.next_value()?);
            Ok(true)
        }
    }

    /// A run's `CaptureData`: its frame times, display intervals, latency to the display,
    /// dropped frames, frames that allowed tearing and frames with a sync interval of 0.
    #[derive(Default)]
    pub(super) struct Data {
        pub presents: Field<Numbers>,
        pub display: Field<Numbers>,
        pub until_displayed: Field<Numbers>,
        pub dropped: Field<Flags>,
        pub allows_tearing: Field<Flags>,
        pub sync_off: Field<Flags>,
        pub present_mode: Field<Modes>,
    }

    impl Object for Data {
        fn field<'de, A: MapAccess<'de>>(
            &mut self,
            name: &str,
            map: &mut A,
        ) -> Result<bool, A::Error> {
            let is = |want: &str| name.eq_ignore_ascii_case(want);
            if is("MsBetweenPresents") && matches!(self.presents, Field::Missing) {
                self.presents = map.next_value::<Field<FrameTimes>>()?.into();
            } else if is("MsBetweenDisplayChange") && matches!(self.display, Field::Missing) {
                self.display = map.next_value::<Field<Intervals>>()?.into();
            } else if is("MsUntilDisplayed") && matches!(self.until_displayed, Field::Missing) {
                self.until_displayed = map.next_value::<Field<Intervals>>()?.into();
            } else if is("Dropped") && matches!(self.dropped, Field::Missing) {
                self.dropped = map.next_value()?;
            } else if is("AllowsTearing") && matches!(self.allows_tearing, Field::Missing) {
                self.allows_tearing = map.next_value()?;
            } else if is("SyncInterval") && matches!(self.sync_off, Field::Missing) {
                self.sync_off = map.next_value::<Field<Zeros>>()?.into();
            } else if is("PresentMode") && matches!(self.present_mode, Field::Missing) {
                self.present_mode = map.next_value()?;
            } else {
                return Ok(false);
            }
            Ok(true)
        }
    }

    /// An array of numbers, and the first element that is not a number in range: its index
    /// and its JSON text.
    pub(super) struct Numbers {
        pub values: Vec<f64>,
        pub bad: Option<(usize, String)>,
    }

    /// Reads the numbers of an array, each from `low` to [`MAX_CAPTURE_MS`], one element at a
    /// time (each dropped once looked at).
    fn numbers<'de, A: SeqAccess<'de>>(mut seq: A, low: f64) -> Result<Numbers, A::Error> {
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        let mut bad = None;
        let mut i = 0;
        while let Some(v) = seq.next_element::<serde_json::Value>()? {
            match v.as_f64().filter(|x| (low..=MAX_CAPTURE_MS).contains(x)) {
                Some(x) => values.push(x),
                None if bad.is_none() => bad = Some((i, v.to_string())),
                None => {}
            }
            i += 1;
        }
        Ok(Numbers { values, bad })
    }

    /// Frame times: from [`MIN_CAPTURE_MS`].
    struct FrameTimes(Numbers);

    /// Display intervals: from 0 (a frame never displayed).
    struct Intervals(Numbers);

    impl<'de> FromSeq<'de> for FrameTimes {
        fn from_seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
            numbers(seq, MIN_CAPTURE_MS).map(FrameTimes)
        }
    }

    impl<'de> FromSeq<'de> for Intervals {
        fn from_seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
            numbers(seq, 0.0).map(Intervals)
        }
    }

    impl From<Field<FrameTimes>> for Field<Numbers> {
        fn from(f: Field<FrameTimes>) -> Self {
            match f {
                Field::Missing => Field::Missing,
                Field::Other => Field::Other,
                Field::Found(FrameTimes(n)) => Field::Found(n),
            }
        }
    }

    impl From<Field<Intervals>> for Field<Numbers> {
        fn from(f: Field<Intervals>) -> Self {
            match f {
                Field::Missing => Field::Missing,
                Field::Other => Field::Other,
                Field::Found(Intervals(n)) => Field::Found(n),
            }
        }
    }

    /// Which elements are `true` or `1`: CapFrameX's `Dropped` and `AllowsTearing`, one a
    /// frame.
    pub(super) struct Flags(pub Vec<bool>);

    /// CapFrameX's `PresentMode` numbers, one a frame (-1 for anything not a whole number).
    pub(super) struct Modes(pub Vec<i64>);

    impl<'de> FromSeq<'de> for Modes {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut modes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(v) = seq.next_element::<serde_json::Value>()? {
                modes.push(v.as_i64().unwrap_or(-1));
            }
            Ok(Modes(modes))
        }
    }

    /// Which elements are the number 0: CapFrameX's `SyncInterval` (0 is V-Sync off), one a
    /// frame, as [`Flags`].
    struct Zeros(Flags);

    impl<'de> FromSeq<'de> for Zeros {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut zeros = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(v) = seq.next_element::<serde_json::Value>()? {
                zeros.push(v.as_f64() == Some(0.0));
            }
            Ok(Zeros(Flags(zeros)))
        }
    }

    impl From<Field<Zeros>> for Field<Flags> {
        fn from(f: Field<Zeros>) -> Self {
            match f {
                Field::Missing => Field::Missing,
                Field::Other => Field::Other,
                Field::Found(Zeros(flags)) => Field::Found(flags),
            }
        }
    }

    impl<'de> FromSeq<'de> for Flags {
        fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut flags = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(v) = seq.next_element::<serde_json::Value>()? {
                flags.push(v.as_bool() == Some(true) || v.as_f64() == Some(1.0));
            }
            Ok(Flags(flags))
        }
    }
}

impl fmt::Display for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} frames, {} ms)",
            self.file,
            self.len(),
            number(self.frames_ms().iter().sum())
        )
    }
}

mod columns;

pub use columns::{
    input_latency_meaning, is_application_frame, FrameTypes, ModeSpan, INPUT_LATENCY_COLUMNS,
    MAX_FRAME_KINDS, MAX_MODE_SPANS, MODE_NAME_CHARS, MODE_SPANS_CUT, OTHER_KINDS,
};

#[cfg(test)]
mod tests;
