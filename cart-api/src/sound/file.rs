//! Sounds written as text: the `bt-sound 1` format, one note or pattern a line.
//!
//! ```text
//! bt-sound 1
//! # sfx NAME SPEED [loop=NOTE] [attack=TICKS] [release=TICKS], then one note a line:
//! # PITCH WAVE VOLUME [EFFECT], or `--` for a rest.
//! sfx coin 3 release=1
//! B5 sq 5
//! E6 sq 5 slide
//! sfx bass 12
//! C3 tri 6
//! G2 tri 6
//! # music NAME [loop=PATTERN], then one pattern a line: four sound names, `-` for none.
//! music theme loop=0
//! bass coin - -
//! ```
//!
//! Pitches are a note name, an optional `#` and an octave (`C4` is middle C, `A4` 440 Hz,
//! `B7` the highest). Waves: `sq` (square), `sqN` (a pulse high for N% of the period),
//! `tri`, `saw`, `sin`, `noise`. Volumes 0–7. Effects: `slide`, `vibrato`, `drop`, `fadein`,
//! `fadeout`, `arp`.

use thiserror::Error;

use super::{Effect, Music, MusicId, Note, Sfx, SfxId, SoundError, Wave, CHANNELS};
use crate::AssetError;

/// The first line every sound file starts with (comments and blank lines aside).
pub const SOUND_FILE_HEADER: &str = "bt-sound 1";

/// A sound file, read and checked: its sound effects and tunes by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundFile {
    /// Sound effects, in file order.
    pub sfx: Vec<(String, Sfx)>,
    /// Tunes, in file order.
    pub music: Vec<FileMusic>,
}

/// A tune as a sound file writes it: sound effects by their place in [`SoundFile::sfx`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMusic {
    /// Its name.
    pub name: String,
    /// Its patterns: for each channel, an index into [`SoundFile::sfx`] or none.
    pub patterns: Vec<[Option<usize>; CHANNELS]>,
    /// Where it goes on from after the last pattern, if it loops.
    pub loop_start: Option<usize>,
}

/// The ids a console gave a sound file's sounds, found by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoundBank {
    sfx: Vec<(String, SfxId)>,
    music: Vec<(String, MusicId)>,
}

impl SoundBank {
    /// The sound effect called `name`.
    pub fn sfx(&self, name: &str) -> Option<SfxId> {
        self.sfx.iter().find(|(n, _)| n == name).map(|&(_, id)| id)
    }

    /// The tune called `name`.
    pub fn music(&self, name: &str) -> Option<MusicId> {
        self.music
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, id)| id)
    }
}

/// Why a sound file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SoundFileError {
    /// The file could not be read.
    #[error(transparent)]
    Asset(#[from] AssetError),
    /// A line that does not follow the format.
    #[error("{file}:{line}: {field}: {message}")]
    Line {
        /// The file (or the name given for text in memory).
        file: String,
        /// The line, from 1.
        line: usize,
        /// Which field of the line: `header`, `pitch`, `wave`, `volume`, `effect`, `speed`, …
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The console could not take the sounds.
    #[error("{file}: {source}")]
    Sound {
        /// The file.
        file: String,
        /// What the console said.
        source: SoundError,
    },
}

fn pitch(word: &str) -> Result<u8, String> {
    let bytes = word.as_bytes();
    let base = match bytes.first().map(u8::to_ascii_uppercase) {
        Some(b'C') => 0,
        Some(b'D') => 2,
        Some(b'E') => 4,
        Some(b'F') => 5,
        Some(b'G') => 7,
        Some(b'A') => 9,
        Some(b'B') => 11,
        _ => return Err(format!("'{word}' is not a note name (C4, F#3, ...)")),
    };
    let (sharp, rest) = match &word[1..] {
        r if r.starts_with('#') => (1, &r[1..]),
        r => (0, r),
    };
    let octave: u8 = rest
        .parse()
        .map_err(|_| format!("'{word}' needs an octave from 0 to 7 (C4, F#3, ...)"))?;
    let p = u16::from(octave) * 12 + base + sharp;
    if octave > 7 || p > u16::from(super::MAX_PITCH) {
        return Err(format!("'{word}' is above B7"));
    }
    Ok(p as u8)
}

fn wave(word: &str) -> Result<Wave, String> {
    Ok(match word {
        "sq" => Wave::Square { duty: 128 },
        "tri" => Wave::Triangle,
        "saw" => Wave::Saw,
        "sin" => Wave::Sine,
        "noise" => Wave::Noise,
        w => match w.strip_prefix("sq").map(str::parse::<u32>) {
            Some(Ok(pc)) if (1..=99).contains(&pc) => Wave::Square {
                duty: (pc * 256 / 100) as u8,
            },
            _ => {
                return Err(format!(
                    "'{word}' is not a wave (sq, sq1 to sq99, tri, saw, sin, noise)"
                ))
            }
        },
    })
}

fn effect(word: &str) -> Result<Effect, String> {
    Ok(match word {
        "slide" => Effect::Slide,
        "vibrato" => Effect::Vibrato,
        "drop" => Effect::Drop,
        "fadein" => Effect::FadeIn,
        "fadeout" => Effect::FadeOut,
        "arp" => Effect::Arpeggio,
        _ => {
            return Err(format!(
                "'{word}' is not an effect (slide, vibrato, drop, fadein, fadeout, arp)"
            ))
        }
    })
}

fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, String> {
    word.parse().map_err(|_| format!("'{word}' is not {what}"))
}

enum Block {
    None,
    Sfx,
    Music,
}

impl SoundFile {
    /// Reads `text` in the `bt-sound 1` format; `file` names it in errors.
    ///
    /// # Errors
    /// [`SoundFileError::Line`] naming the file, line and field at fault.
    pub fn parse(file: &str, text: &str) -> Result<SoundFile, SoundFileError> {
        let mut out = SoundFile {
            sfx: Vec::new(),
            music: Vec::new(),
        };
        let mut header = false;
        let mut block = Block::None;
        let mut sfx_lines: Vec<usize> = Vec::new();
        let mut music_lines: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |field: &str, message: String| SoundFileError::Line {
                file: file.to_string(),
                line,
                field: field.to_string(),
                message,
            };
            // A `#` inside a pitch (F#3) is not a comment: only one at the start of a word is.
            let content = if raw.trim_start().starts_with('#') {
                ""
            } else {
                match raw.find(" #") {
                    Some(at) => &raw[..at],
                    None => raw,
                }
            };
            let words: Vec<&str> = content.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            if !header {
                if words.join(" ") != SOUND_FILE_HEADER {
                    return Err(err(
                        "header",
                        format!("the file must start with '{SOUND_FILE_HEADER}'"),
                    ));
                }
                header = true;
                continue;
            }
            match words[0] {
                "sfx" => {
                    let name = *words.get(1).ok_or_else(|| err("name", "missing".into()))?;
                    if out.sfx.iter().any(|(n, _)| n == name) {
                        return Err(err("name", format!("'{name}' is defined twice")));
                    }
                    let speed: u16 = number(
                        words.get(2).ok_or_else(|| err("speed", "missing".into()))?,
                        "a speed in ticks (1 to 65535)",
                    )
                    .map_err(|m| err("speed", m))?;
                    if speed == 0 {
                        return Err(err("speed", "must be at least 1 tick".into()));
                    }
                    let mut sfx = Sfx::new(speed, Vec::new());
                    for option in &words[3..] {
                        let (key, value) = option
                            .split_once('=')
                            .ok_or_else(|| err("option", format!("'{option}' is not KEY=VALUE")))?;
                        match key {
                            "loop" => {
                                sfx.loop_start =
                                    Some(number(value, "a note number").map_err(|m| err(key, m))?)
                            }
                            "attack" => {
                                sfx.attack = number(value, "ticks").map_err(|m| err(key, m))?
                            }
                            "release" => {
                                sfx.release = number(value, "ticks").map_err(|m| err(key, m))?
                            }
                            _ => {
                                return Err(err(
                                    "option",
                                    format!("'{key}' is not loop, attack or release"),
                                ))
                            }
                        }
                    }
                    out.sfx.push((name.to_string(), sfx));
                    sfx_lines.push(line);
                    block = Block::Sfx;
                }
                "music" => {
                    let name = *words.get(1).ok_or_else(|| err("name", "missing".into()))?;
                    if out.music.iter().any(|m| m.name == name) {
                        return Err(err("name", format!("'{name}' is defined twice")));
                    }
                    let mut loop_start = None;
                    for option in &words[2..] {
                        match option.split_once('=') {
                            Some(("loop", v)) => {
                                loop_start = Some(
                                    number(v, "a pattern number").map_err(|m| err("loop", m))?,
                                )
                            }
                            _ => return Err(err("option", format!("'{option}' is not loop=N"))),
                        }
                    }
                    out.music.push(FileMusic {
                        name: name.to_string(),
                        patterns: Vec::new(),
                        loop_start,
                    });
                    music_lines.push(line);
                    block = Block::Music;
                }
                _ => match block {
                    Block::None => {
                        return Err(err(
                            "line",
                            "a note or pattern before any 'sfx' or 'music' line".into(),
                        ))
                    }
                    Block::Sfx => {
                        let note = if words[0] == "--" {
                            if words.len() > 1 {
                                return Err(err("rest", "a rest '--' takes nothing more".into()));
                            }
                            Note::rest()
                        } else {
                            if !(3..=4).contains(&words.len()) {
                                return Err(err(
                                    "note",
                                    "expected PITCH WAVE VOLUME [EFFECT]".into(),
                                ));
                            }
                            let p = pitch(words[0]).map_err(|m| err("pitch", m))?;
                            let w = wave(words[1]).map_err(|m| err("wave", m))?;
                            let v: u8 = number(words[2], "a volume from 0 to 7")
                                .map_err(|m| err("volume", m))?;
                            if v > super::MAX_NOTE_VOLUME {
                                return Err(err("volume", format!("{v} is above 7")));
                            }
                            let e = match words.get(3) {
                                Some(word) => effect(word).map_err(|m| err("effect", m))?,
                                None => Effect::None,
                            };
                            Note::new(p, w, v).with(e)
                        };
                        if let Some((_, sfx)) = out.sfx.last_mut() {
                            if sfx.notes.len() == super::MAX_NOTES {
                                return Err(err(
                                    "note",
                                    format!("more than {} notes", super::MAX_NOTES),
                                ));
                            }
                            sfx.notes.push(note);
                        }
                    }
                    Block::Music => {
                        if words.len() != CHANNELS {
                            return Err(err(
                                "pattern",
                                format!(
                                    "expected {CHANNELS} sound names or '-', got {}",
                                    words.len()
                                ),
                            ));
                        }
                        let mut pattern = [None; CHANNELS];
                        for (slot, word) in pattern.iter_mut().zip(&words) {
                            if *word != "-" {
                                let at = out.sfx.iter().position(|(n, _)| n == word).ok_or_else(
                                    || {
                                        err(
                                            "pattern",
                                            format!("no sound effect called '{word}' above"),
                                        )
                                    },
                                )?;
                                *slot = Some(at);
                            }
                        }
                        if pattern.iter().all(Option::is_none) {
                            return Err(err("pattern", "plays nothing".into()));
                        }
                        if let Some(music) = out.music.last_mut() {
                            music.patterns.push(pattern);
                        }
                    }
                },
            }
        }
        if !header {
            return Err(SoundFileError::Line {
                file: file.to_string(),
                line: 1,
                field: "header".into(),
                message: format!("the file must start with '{SOUND_FILE_HEADER}'"),
            });
        }
        for ((name, sfx), &line) in out.sfx.iter().zip(&sfx_lines) {
            sfx.validate().map_err(|e| SoundFileError::Line {
                file: file.to_string(),
                line,
                field: format!("sfx {name}"),
                message: e.to_string(),
            })?;
        }
        for (m, &line) in out.music.iter().zip(&music_lines) {
            let (name, patterns) = (&m.name, &m.patterns);
            let bad = patterns.is_empty() || m.loop_start.is_some_and(|s| s >= patterns.len());
            if bad {
                return Err(SoundFileError::Line {
                    file: file.to_string(),
                    line,
                    field: format!("music {name}"),
                    message: "no patterns, or loop= past the last pattern".into(),
                });
            }
        }
        Ok(out)
    }

    pub(crate) fn add_to(
        &self,
        file: &str,
        synth: &mut super::Synth,
    ) -> Result<SoundBank, SoundFileError> {
        let wrap = |source| SoundFileError::Sound {
            file: file.to_string(),
            source,
        };
        let mut bank = SoundBank::default();
        for (name, sfx) in &self.sfx {
            let id = synth.add_sfx(sfx.clone()).map_err(wrap)?;
            bank.sfx.push((name.clone(), id));
        }
        for m in &self.music {
            let patterns = m
                .patterns
                .iter()
                .map(|p| p.map(|slot| slot.map(|i| bank.sfx[i].1)))
                .collect();
            let music = Music {
                patterns,
                loop_start: m.loop_start,
            };
            let id = synth.add_music(music).map_err(wrap)?;
            bank.music.push((m.name.clone(), id));
        }
        Ok(bank)
    }
}
