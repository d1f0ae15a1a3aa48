//! Clock specifications as the command line writes them, e.g. `paced:60` or `sequence:16,16,50`.
//!
//! | spec | clock |
//! | --- | --- |
//! | `wall[:max_ms]` | [`WallClock`] (default limit 100 ms) |
//! | `paced:fps[:resync_after]` | [`PacedClock`] (default resync 4) |
//! | `constant:ms` | [`ConstantClock`] |
//! | `sequence:ms,ms,...` | [`SequenceClock`] |
//! | `jitter:min_ms:max_ms:seed` | [`JitterClock`] |

use std::str::FromStr;

use thiserror::Error;

use crate::clock::{
    Clock, ClockError, ConstantClock, JitterClock, PacedClock, PacedOptions, SequenceClock,
    WallClock,
};

/// Why a clock spec was refused. The message quotes the spec and names the bad part.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The kind before the first `:` is not one BT knows.
    #[error("clock spec '{spec}': unknown clock '{kind}' (expected wall, paced, constant, sequence or jitter)")]
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
        })
    }
}

impl FromStr for ClockSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<ClockSpec, SpecError> {
        let mut parts = spec.split(':');
        let kind = parts.next().unwrap_or_default();
        let args: Vec<&str> = parts.collect();
        let shape = |expected| SpecError::Shape {
            spec: spec.to_string(),
            expected,
        };
        let num = |what, part: &str| {
            part.trim()
                .parse::<f64>()
                .map_err(|_| SpecError::NotANumber {
                    spec: spec.to_string(),
                    what,
                    part: part.to_string(),
                })
        };
        let parsed = match (kind, args.as_slice()) {
            ("wall", []) => ClockSpec::Wall(100.0),
            ("wall", [max]) => ClockSpec::Wall(num("max_ms", max)?),
            ("wall", _) => return Err(shape("wall or wall:max_ms")),
            ("paced", [fps]) => {
                ClockSpec::Paced(num("fps", fps)?, PacedOptions::default().resync_after)
            }
            ("paced", [fps, resync]) => {
                let resync_after =
                    resync
                        .trim()
                        .parse::<u32>()
                        .map_err(|_| SpecError::NotANumber {
                            spec: spec.to_string(),
                            what: "resync_after (a whole number)",
                            part: resync.to_string(),
                        })?;
                ClockSpec::Paced(num("fps", fps)?, resync_after)
            }
            ("paced", _) => return Err(shape("paced:fps or paced:fps:resync_after")),
            ("constant", [ms]) => ClockSpec::Constant(num("step ms", ms)?),
            ("constant", _) => return Err(shape("constant:ms")),
            ("sequence", [list]) => ClockSpec::Sequence(
                list.split(',')
                    .map(|p| num("step ms", p))
                    .collect::<Result<_, _>>()?,
            ),
            ("sequence", _) => return Err(shape("sequence:ms,ms,...")),
            ("jitter", [min, max, seed]) => {
                ClockSpec::Jitter(num("min_ms", min)?, num("max_ms", max)?, num("seed", seed)?)
            }
            ("jitter", _) => return Err(shape("jitter:min_ms:max_ms:seed")),
            _ => {
                return Err(SpecError::UnknownKind {
                    spec: spec.to_string(),
                    kind: kind.to_string(),
                })
            }
        };
        parsed.build().map_err(|source| SpecError::Clock {
            spec: spec.to_string(),
            source,
        })?;
        Ok(parsed)
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
            "clock spec 'tick:5': unknown clock 'tick' (expected wall, paced, constant, sequence or jitter)"
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
            "clock spec 'sequence:16,-2': SequenceClock step 1 must be finite and positive, got -2"
        );
        assert!(err("paced:60:0").contains("resync_after must be at least 1, got 0"));
        assert!(err("paced:60:-1").contains("resync_after (a whole number) '-1'"));
        assert!(err("jitter:5:1:0").contains("min_ms 5 and max_ms 1"));
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
