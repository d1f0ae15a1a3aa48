//! Clock specifications as the command line writes them, e.g. `paced:60` or `sequence:16,16,50`.
//!
//! | spec | clock |
//! | --- | --- |
//! | `wall[:max_ms]` | [`WallClock`] (default limit 100 ms) |
//! | `paced:fps[:resync_after]` | [`PacedClock`] (default resync 4) |
//! | `constant:ms` | [`ConstantClock`] |
//! | `sequence:ms,ms,...` | [`SequenceClock`] |
//! | `jitter:min_ms:max_ms:seed` | [`JitterClock`] |
//! | `capture:FILE[#SELECTOR]` | a [`CaptureClock`](crate::clock::capture::CaptureClock) playing a frame-time capture (read when the spec is parsed) |

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use bt::limits::{MAX_TARGET_FPS, MIN_TARGET_FPS};
use thiserror::Error;

use crate::clock::capture::{Capture, CaptureError};
use crate::clock::{
    Clock, ClockError, ConstantClock, JitterClock, PacedClock, PacedOptions, SequenceClock,
    WallClock,
};
use crate::quote::{excerpt, excerpt_chars, number};

/// The shortest frame time a spec may give, in ms: a microsecond. Shorter, a frame is worth
/// nothing at any rate the loop runs.
pub const MIN_SPEC_MS: f64 = 0.001;

/// The longest frame time a spec may give, in ms: a minute. The loop throws away all but 8
/// updates' worth of a frame anyway.
pub const MAX_SPEC_MS: f64 = 60_000.0;

/// The largest jitter seed, either way: 2^53, past which a float no longer holds every whole
/// number, so two seeds typed differently could be one.
pub const MAX_JITTER_SEED: f64 = 9_007_199_254_740_992.0;

/// How much of a spec a message quotes.
const SPEC_CHARS: usize = 80;

/// Why a clock spec was refused. The message quotes the spec and names the bad part.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The kind before the first `:` is not one BT knows.
    #[error("clock spec '{spec}': unknown clock '{kind}' (expected wall, paced, constant, sequence, jitter or capture)")]
    UnknownKind {
        /// The whole spec.
        spec: String,
        /// The unknown kind.
        kind: String,
    },
    /// Too few or too many `:`-separated parts.
    #[error("clock spec '{spec}': expected {expected}")]
    Shape {
        /// The whole spec.
        spec: String,
        /// What the kind takes.
        expected: &'static str,
    },
    /// A part that should be a number is not one.
    #[error("clock spec '{spec}': {what} '{part}' is not a number")]
    NotANumber {
        /// The whole spec.
        spec: String,
        /// Which parameter.
        what: &'static str,
        /// The text found.
        part: String,
    },
    /// A number outside the range its parameter takes.
    #[error("clock spec '{spec}': {what} {value} is not in {min}..={max}")]
    OutOfRange {
        /// The whole spec.
        spec: String,
        /// Which parameter.
        what: &'static str,
        /// The number found, written short.
        value: String,
        /// The smallest the parameter takes, written short.
        min: String,
        /// The largest, written short.
        max: String,
    },
    /// A `capture:` file that could not be read; the message names the file, line and column.
    #[error("{0}")]
    Capture(CaptureError),
    /// The numbers parse but the clock refuses them.
    #[error("clock spec '{spec}': {source}")]
    Clock {
        /// The whole spec.
        spec: String,
        /// The clock's own error.
        source: ClockError,
    },
}

/// A parsed clock spec; [`ClockSpec::build`] makes a fresh clock from it.
#[derive(Debug, Clone, PartialEq)]
pub enum ClockSpec {
    /// `wall[:max_ms]`.
    Wall(f64),
    /// `paced:fps[:resync_after]`.
    Paced(f64, u32),
    /// `constant:ms`.
    Constant(f64),
    /// `sequence:ms,ms,...`.
    Sequence(Vec<f64>),
    /// `jitter:min_ms:max_ms:seed`.
    Jitter(f64, f64, f64),
    /// `capture:FILE[#SELECTOR]`: the capture, read once, and whether it starts over at its
    /// end (the command line's `--loop`) or delivers no more frames.
    Capture {
        /// The frames to play.
        capture: Arc<Capture>,
        /// Whether to start over at the end.
        looped: bool,
    },
}

impl ClockSpec {
    /// A new clock as the spec describes.
    ///
    /// # Errors
    /// The clock's [`ClockError`] (parsing already checks it, so only a spec built by hand
    /// can fail here).
    pub fn build(&self) -> Result<Box<dyn Clock>, ClockError> {
        Ok(match self {
            ClockSpec::Wall(max) => Box::new(WallClock::new(*max)?),
            ClockSpec::Paced(fps, resync_after) => Box::new(PacedClock::new(
                *fps,
                PacedOptions {
                    resync_after: *resync_after,
                },
            )?),
            ClockSpec::Constant(ms) => Box::new(ConstantClock::new(*ms)?),
            ClockSpec::Sequence(steps) => Box::new(SequenceClock::new(steps.clone())?),
            ClockSpec::Jitter(min, max, seed) => Box::new(JitterClock::new(*min, *max, *seed)?),
            ClockSpec::Capture { capture, looped } => Box::new(capture.clock(*looped)),
        })
    }
}

impl FromStr for ClockSpec {
    type Err = SpecError;

    /// Parses a spec. A `capture:` spec reads its file now: `capture:FILE`, or
    /// `capture:FILE#SELECTOR` when no file is named the whole of `FILE#SELECTOR`.
    fn from_str(spec: &str) -> Result<ClockSpec, SpecError> {
        if let Some(rest) = spec.strip_prefix("capture:") {
            let (file, selector) = match rest.rsplit_once('#') {
                Some((file, selector)) if !Path::new(rest).exists() => (file, Some(selector)),
                _ => (rest, None),
            };
            if file.is_empty() {
                return Err(SpecError::Shape {
                    spec: excerpt_chars(spec, SPEC_CHARS),
                    expected: "capture:FILE or capture:FILE#SELECTOR",
                });
            }
            let capture = Capture::load(Path::new(file), selector).map_err(SpecError::Capture)?;
            return Ok(ClockSpec::Capture {
                capture: Arc::new(capture),
                looped: false,
            });
        }
        let quoted = excerpt_chars(spec, SPEC_CHARS);
        let mut parts = spec.split(':');
        let kind = parts.next().unwrap_or_default();
        let args: Vec<&str> = parts.collect();
        let shape = |expected| SpecError::Shape {
            spec: quoted.clone(),
            expected,
        };
        let out_of_range = |what, value: String, min: String, max: String| SpecError::OutOfRange {
            spec: quoted.clone(),
            what,
            value,
            min,
            max,
        };
        let num = |what, part: &str, min: f64, max: f64| {
            let value = part
                .trim()
                .parse::<f64>()
                .map_err(|_| SpecError::NotANumber {
                    spec: quoted.clone(),
                    what,
                    part: excerpt(part),
                })?;
            if value.is_nan() || value < min || value > max {
                return Err(out_of_range(what, number(value), end(min), end(max)));
            }
            Ok(value)
        };
        let ms = |what, part: &str| num(what, part, MIN_SPEC_MS, MAX_SPEC_MS);
        let fps = |part: &str| num("fps", part, MIN_TARGET_FPS, MAX_TARGET_FPS);
        let parsed = match (kind, args.as_slice()) {
            ("wall", []) => ClockSpec::Wall(100.0),
            ("wall", [max]) => ClockSpec::Wall(ms("max_ms", max)?),
            ("wall", _) => return Err(shape("wall or wall:max_ms")),
            ("paced", [rate]) => ClockSpec::Paced(fps(rate)?, PacedOptions::default().resync_after),
            ("paced", [rate, resync]) => {
                let rate = fps(rate)?;
                let text = resync.trim();
                let digits = text.strip_prefix('-').unwrap_or(text);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(SpecError::NotANumber {
                        spec: quoted.clone(),
                        what: "resync_after (a whole number)",
                        part: excerpt(resync),
                    });
                }
                let resync_after =
                    text.parse::<u32>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| {
                            out_of_range(
                                "resync_after",
                                excerpt(text),
                                1.to_string(),
                                u32::MAX.to_string(),
                            )
                        })?;
                ClockSpec::Paced(rate, resync_after)
            }
            ("paced", _) => return Err(shape("paced:fps or paced:fps:resync_after")),
            ("constant", [step]) => ClockSpec::Constant(ms("step ms", step)?),
            ("constant", _) => return Err(shape("constant:ms")),
            ("sequence", [list]) => ClockSpec::Sequence(
                list.split(',')
                    .map(|p| ms("step ms", p))
                    .collect::<Result<_, _>>()?,
            ),
            ("sequence", _) => return Err(shape("sequence:ms,ms,...")),
            ("jitter", [min, max, seed]) => ClockSpec::Jitter(
                ms("min_ms", min)?,
                ms("max_ms", max)?,
                num("seed", seed, -MAX_JITTER_SEED, MAX_JITTER_SEED)?,
            ),
            ("jitter", _) => return Err(shape("jitter:min_ms:max_ms:seed")),
            _ => {
                return Err(SpecError::UnknownKind {
                    spec: quoted.clone(),
                    kind: excerpt(kind),
                })
            }
        };
        parsed.build().map_err(|source| SpecError::Clock {
            spec: quoted.clone(),
            source,
        })?;
        Ok(parsed)
    }
}

/// One end of a range, exact when it is a whole number (the seed's 2^53), else short.
fn end(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e17 {
        format!("{value:.0}")
    } else {
        number(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(spec: &str) -> String {
        spec.parse::<ClockSpec>().unwrap_err().to_string()
    }

    #[test]
    fn every_kind_parses() {
        assert_eq!("wall".parse(), Ok(ClockSpec::Wall(100.0)));
        assert_eq!("wall:250".parse(), Ok(ClockSpec::Wall(250.0)));
        assert_eq!("paced:60".parse(), Ok(ClockSpec::Paced(60.0, 4)));
        assert_eq!("paced:30:2".parse(), Ok(ClockSpec::Paced(30.0, 2)));
        assert_eq!("constant:16.5".parse(), Ok(ClockSpec::Constant(16.5)));
        assert_eq!(
            "sequence:16,16,50".parse(),
            Ok(ClockSpec::Sequence(vec![16.0, 16.0, 50.0]))
        );
        assert_eq!(
            "jitter:10:20:7".parse(),
            Ok(ClockSpec::Jitter(10.0, 20.0, 7.0))
        );
    }

    #[test]
    fn errors_quote_the_spec_and_the_bad_part() {
        assert_eq!(
            err("tick:5"),
            "clock spec 'tick:5': unknown clock 'tick' (expected wall, paced, constant, sequence, jitter or capture)"
        );
        assert_eq!(
            err("constant"),
            "clock spec 'constant': expected constant:ms"
        );
        assert_eq!(
            err("paced:sixty"),
            "clock spec 'paced:sixty': fps 'sixty' is not a number"
        );
        assert_eq!(
            err("sequence:16,,50"),
            "clock spec 'sequence:16,,50': step ms '' is not a number"
        );
        assert_eq!(
            err("sequence:16,-2"),
            "clock spec 'sequence:16,-2': step ms -2 is not in 0.001..=60000"
        );
        assert_eq!(
            err("paced:60:0"),
            "clock spec 'paced:60:0': resync_after 0 is not in 1..=4294967295"
        );
        assert!(err("paced:60:-1").contains("resync_after -1 is not in 1..=4294967295"));
        assert!(err("paced:60:x").contains("resync_after (a whole number) 'x' is not a number"));
        assert_eq!(
            err("paced:60:99999999999999999999999999999999"),
            "clock spec 'paced:60:99999999999999999999999999999999': resync_after \
             99999999999999999999999999999999 is not in 1..=4294967295"
        );
        assert!(err("jitter:5:1:0").contains("min_ms 5 and max_ms 1"));
        assert!(err("wall:inf").contains("max_ms inf is not in 0.001..=60000"));
        assert!(err("constant:nan").contains("step ms NaN is not in"));
    }

    #[test]
    fn a_long_spec_is_quoted_short() {
        let long = format!("sequence:{}", "16,".repeat(10_000));
        let e = err(&long);
        assert!(e.len() < 200, "{} characters: {e}", e.len());
        assert!(e.contains("step ms '' is not a number"), "{e}");
    }

    #[test]
    fn built_clocks_behave_as_specified() {
        let mut c = "sequence:10,30"
            .parse::<ClockSpec>()
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(
            [c.delta(0.0), c.delta(0.0), c.delta(0.0)],
            [Some(10.0), Some(30.0), Some(10.0)]
        );
    }
}
