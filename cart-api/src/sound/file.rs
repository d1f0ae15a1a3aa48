//! Sounds written as text: the `bt-sound` format, one note, pattern or sequence a line.
//!
//! ```text
//! bt-sound 2
//! # sfx NAME SPEED [loop=NOTE] [attack=UNITS] [release=UNITS] [vibrato=HZ]
//! #     [vibrato_depth=CENTS] [arp=HZ] [unit=NUM/DEN],
//! # then one note a line: PITCH WAVE VOLUME [EFFECT], or `--` for a rest.
//! # SPEED, attack and release count 120ths of a second, or NUM/DEN of a second.
//! sfx coin 6 release=2
//! B5 sq 5
//! E6 sq 5 slide
//! sfx bass 24
//! C3 tri 6
//! G2 tri 6
//! # music NAME [loop=PATTERN], then one pattern a line: four sound names, `-` for none.
//! music theme loop=0
//! bass coin - -
//! # seq NAME [loop], then CHANNEL SOUND... lines: each channel's sounds in order.
//! seq walk loop
//! 0 bass bass
//! 1 coin
//! ```
//!
//! Pitches are a note name, an optional `#` and an octave (`C4` is middle C, `A4` 440 Hz,
//! `B7` the highest). Waves: `sq` (square), `sqN` (a pulse high for N% of the period),
//! `tri`, `saw`, `sin`, `noise`, `tilt`, `organ`, `phaser`. Volumes 0–7. Effects: `slide`,
//! `vibrato`, `drop`, `fadein`, `fadeout`, `arp`, `arpgroup:N` ([`NoteEffect::ArpeggioGroup`]).
//! `unit=183/22050` counts the sound's times in PICO-8's note step ([`TimeBase::Fraction`]).
//! A file headed `bt-sound 1` counts SPEED, attack and release in the cart's
//! updates, as it always did ([`TimeBase::Updates`]), and takes no `vibrato=`,
//! `vibrato_depth=` or `arp=`. `vibrato_depth` is how far the vibrato bends either way, in
//! cents: 50 (half a semitone) unless given; Pyxel's vibrato is 25.

use thiserror::Error;

use super::{
    Hz, Music, MusicId, Note, NoteEffect, Sfx, SfxId, SoundError, TimeBase, Wave, CHANNELS,
    MAX_EFFECT_RATE, MAX_UNIT_PART, MAX_UNIT_SECONDS,
};
use crate::quote::{excerpt, quoted};
use crate::AssetError;

/// The first line of a sound file whose times count 120ths of a second (comments and blank
/// lines aside).
pub const SOUND_FILE_HEADER: &str = "bt-sound 2";
/// The first line of a sound file in the first version of the format, whose times count the
/// cart's updates: still read, with that meaning.
pub const SOUND_FILE_HEADER_UPDATES: &str = "bt-sound 1";

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
    /// Its patterns or sequences.
    pub tune: FileTune,
}

/// The two forms of [`Music`], with sound effects by their place in [`SoundFile::sfx`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileTune {
    /// A `music` block: patterns.
    Patterns {
        /// For each pattern and channel, an index into [`SoundFile::sfx`] or none.
        patterns: Vec<[Option<usize>; CHANNELS]>,
        /// Where it goes on from after the last pattern, if it loops.
        loop_start: Option<usize>,
    },
    /// A `seq` block: each channel's list.
    Sequences {
        /// For each channel, indices into [`SoundFile::sfx`].
        channels: [Vec<usize>; CHANNELS],
        /// Whether each channel starts its list over.
        looping: bool,
    },
}

/// The ids a console gave a sound file's sounds, found by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoundBank {
    /// The file the sounds came from, for messages.
    file: String,
    sfx: Vec<(String, SfxId)>,
    music: Vec<(String, MusicId)>,
}

/// A sound looked up by a name its file does not have ([`SoundBank::require_sfx`],
/// [`SoundBank::require_music`]): the message names the sound, the file and the names it has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: no {kind} called '{name}'; it has {known}")]
pub struct UnknownSound {
    /// The name asked for.
    pub name: String,
    /// `sound effect` or `tune`.
    pub kind: &'static str,
    /// The file looked in.
    pub file: String,
    /// The names of that kind the file has, as a list for the message.
    pub known: String,
}

impl SoundBank {
    /// The sound effect called `name`, or an error naming it, the file and the effects the
    /// file has: for `init`, where a missing sound is a bug to report (`?` turns it into a
    /// `CartError`).
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut ctx = con.update_context(0);
    /// let text = "bt-sound 2\nsfx coin 6\nB5 sq 5\nsfx jump 6\nC4 sq 5\n";
    /// let bank = ctx.decode_sounds("sfx.txt", text)?;
    /// assert_eq!(bank.require_sfx("coin")?, bank.sfx("coin").unwrap());
    /// assert_eq!(
    ///     bank.require_sfx("coins").unwrap_err().to_string(),
    ///     "sfx.txt: no sound effect called 'coins'; it has coin, jump"
    /// );
    /// assert_eq!(
    ///     bank.require_music("theme").unwrap_err().to_string(),
    ///     "sfx.txt: no tune called 'theme'; it has no tunes"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`UnknownSound`] when the file has no such effect.
    pub fn require_sfx(&self, name: &str) -> Result<SfxId, UnknownSound> {
        self.sfx(name)
            .ok_or_else(|| self.unknown(name, "sound effect", self.sfx.iter().map(|(n, _)| n)))
    }

    /// The tune called `name`, or an error naming it, the file and the tunes it has.
    ///
    /// # Errors
    /// [`UnknownSound`] when the file has no such tune.
    pub fn require_music(&self, name: &str) -> Result<MusicId, UnknownSound> {
        self.music(name)
            .ok_or_else(|| self.unknown(name, "tune", self.music.iter().map(|(n, _)| n)))
    }

    fn unknown<'a>(
        &self,
        name: &str,
        kind: &'static str,
        names: impl Iterator<Item = &'a String>,
    ) -> UnknownSound {
        let names: Vec<&str> = names.map(String::as_str).collect();
        let known = match names.as_slice() {
            [] => format!("no {kind}s"),
            names => names.join(", "),
        };
        UnknownSound {
            name: excerpt(name),
            kind,
            file: self.file.clone(),
            known,
        }
    }

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

    pub(crate) fn sfx_ids(&self) -> impl Iterator<Item = SfxId> + '_ {
        self.sfx.iter().map(|&(_, id)| id)
    }

    pub(crate) fn music_ids(&self) -> impl Iterator<Item = MusicId> + '_ {
        self.music.iter().map(|&(_, id)| id)
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

/// Whether `word` is one or more ASCII digits: a number with no sign, space or other mark
/// (Rust's parsers take a leading `+`).
fn digits(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

fn pitch(word: &str) -> Result<u8, String> {
    let not_a_note = || format!("{} is not a note name (C4, F#3, ...)", quoted(word));
    let base = match word.as_bytes().first().map(u8::to_ascii_uppercase) {
        Some(b'C') => 0,
        Some(b'D') => 2,
        Some(b'E') => 4,
        Some(b'F') => 5,
        Some(b'G') => 7,
        Some(b'A') => 9,
        Some(b'B') => 11,
        _ => return Err(not_a_note()),
    };
    // The first byte is an ASCII letter, so the rest starts on a character boundary.
    let (sharp, rest) = match &word[1..] {
        r if r.starts_with('#') => (1, &r[1..]),
        r => (0, r),
    };
    if !digits(rest) {
        return Err(format!(
            "{} needs an octave from 0 to 7 after the note (C4, F#3, ...)",
            quoted(word)
        ));
    }
    let octave: u16 = rest.parse().unwrap_or(u16::MAX);
    if octave > 7 || octave * 12 + base + sharp > u16::from(super::MAX_PITCH) {
        return Err(format!("{} is above B7", quoted(word)));
    }
    Ok((octave * 12 + base + sharp) as u8)
}

fn wave(word: &str) -> Result<Wave, String> {
    Ok(match word {
        "sq" => Wave::Square { duty: 128 },
        "tri" => Wave::Triangle,
        "saw" => Wave::Saw,
        "sin" => Wave::Sine,
        "noise" => Wave::Noise,
        "tilt" => Wave::TiltedSaw,
        "organ" => Wave::Organ,
        "phaser" => Wave::Phaser,
        w => match w
            .strip_prefix("sq")
            .filter(|pc| digits(pc))
            .map(str::parse::<u32>)
        {
            Some(Ok(pc)) if (1..=99).contains(&pc) => Wave::Square {
                duty: (pc * 256 / 100) as u8,
            },
            _ => {
                return Err(format!(
                    "{} is not a wave (sq, sq1 to sq99, tri, saw, sin, noise, tilt, organ, phaser)",
                    quoted(word)
                ))
            }
        },
    })
}

fn effect(word: &str) -> Result<NoteEffect, String> {
    Ok(match word {
        "slide" => NoteEffect::Slide,
        "vibrato" => NoteEffect::Vibrato,
        "drop" => NoteEffect::Drop,
        "fadein" => NoteEffect::FadeIn,
        "fadeout" => NoteEffect::FadeOut,
        "arp" => NoteEffect::Arpeggio,
        w => match w.strip_prefix("arpgroup:").filter(|n| digits(n)) {
            Some(n) => match n.parse::<u8>() {
                Ok(units) if units > 0 => NoteEffect::ArpeggioGroup { units },
                _ => {
                    return Err(format!(
                        "{} needs a step of 1 to 255 units (arpgroup:2)",
                        quoted(word)
                    ))
                }
            },
            None => {
                return Err(format!(
                    "{} is not an effect (slide, vibrato, drop, fadein, fadeout, arp, \
                     arpgroup:N)",
                    quoted(word)
                ))
            }
        },
    })
}

/// A time unit `NUM/DEN` (seconds), such as `183/22050`.
fn time_unit(word: &str) -> Result<TimeBase, String> {
    let bad = || {
        format!(
            "{} is not a unit NUM/DEN of a second (183/22050, ...) with NUM and DEN from 1 to \
             {MAX_UNIT_PART}, at most {MAX_UNIT_SECONDS} s",
            quoted(word)
        )
    };
    let (num, den) = word.split_once('/').ok_or_else(bad)?;
    let num: u32 = number(num, "").map_err(|_| bad())?;
    let den: u32 = number(den, "").map_err(|_| bad())?;
    let parts = 1..=MAX_UNIT_PART;
    if !parts.contains(&num)
        || !parts.contains(&den)
        || u64::from(num) > u64::from(den) * u64::from(MAX_UNIT_SECONDS)
    {
        return Err(bad());
    }
    Ok(TimeBase::Fraction { num, den })
}

fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, String> {
    let bad = || format!("{} is not {what}", quoted(word));
    if !digits(word) {
        return Err(bad());
    }
    word.parse().map_err(|_| bad())
}

/// A rate such as `6`, `7.5` or `0.25` (hertz, at most three decimals), from 0.001 Hz to
/// [`MAX_EFFECT_RATE`].
fn rate(word: &str) -> Result<Hz, String> {
    let bad = || {
        format!(
            "{} is not a rate in Hz from 0.001 to {} (6, 7.5, ...)",
            quoted(word),
            MAX_EFFECT_RATE.millihertz() / 1000
        )
    };
    let (whole, frac) = word.split_once('.').unwrap_or((word, ""));
    if !digits(whole) || (!frac.is_empty() && !digits(frac)) || frac.len() > 3 {
        return Err(bad());
    }
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    let frac: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    let milli = whole.saturating_mul(1000).saturating_add(frac);
    if milli == 0 || milli > u64::from(MAX_EFFECT_RATE.millihertz()) {
        return Err(bad());
    }
    Ok(Hz::from_millihertz(milli as u32))
}

enum Block {
    None,
    Sfx,
    Music,
    Sequences,
}

/// One line's error, with the file's name escaped so a message stays on one line.
fn line_error(file: &str, line: usize, field: &str, message: String) -> SoundFileError {
    SoundFileError::Line {
        file: excerpt(file),
        line,
        field: field.to_string(),
        message,
    }
}

impl SoundFile {
    /// Reads `text` in the `bt-sound 2` format (or `bt-sound 1`, whose times count updates);
    /// `file` names it in errors. A byte-order mark at the start is skipped.
    ///
    /// # Errors
    /// [`SoundFileError::Line`] naming the file, line and field at fault; what the file held
    /// is quoted escaped and shortened, so the message is one line of modest length.
    pub fn parse(file: &str, text: &str) -> Result<SoundFile, SoundFileError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut out = SoundFile {
            sfx: Vec::new(),
            music: Vec::new(),
        };
        let mut time_base = None;
        let mut block = Block::None;
        let mut sfx_lines: Vec<usize> = Vec::new();
        let mut music_lines: Vec<usize> = Vec::new();
        let find = |sfx: &[(String, Sfx)], word: &str| sfx.iter().position(|(n, _)| n == word);
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |field: &str, message: String| line_error(file, line, field, message);
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
            let Some(base) = time_base else {
                time_base = match words.join(" ").as_str() {
                    SOUND_FILE_HEADER => Some(TimeBase::Seconds),
                    SOUND_FILE_HEADER_UPDATES => Some(TimeBase::Updates),
                    _ => return Err(err("header", header_message())),
                };
                continue;
            };
            match words[0] {
                "sfx" => {
                    let name = *words.get(1).ok_or_else(|| err("name", "missing".into()))?;
                    if find(&out.sfx, name).is_some() {
                        return Err(err("name", format!("{} is defined twice", quoted(name))));
                    }
                    let unit = match base {
                        TimeBase::Updates => "updates",
                        _ => "120ths of a second",
                    };
                    let speed: u16 = number(
                        words.get(2).ok_or_else(|| err("speed", "missing".into()))?,
                        &format!("a speed in {unit} (1 to 65535)"),
                    )
                    .map_err(|m| err("speed", m))?;
                    if speed == 0 {
                        return Err(err("speed", "must be at least 1".into()));
                    }
                    let mut sfx = Sfx::new(speed, Vec::new());
                    sfx.time_base = base;
                    for option in &words[3..] {
                        let (key, value) = option.split_once('=').ok_or_else(|| {
                            err("option", format!("{} is not KEY=VALUE", quoted(option)))
                        })?;
                        let v2 = base == TimeBase::Seconds;
                        match key {
                            "loop" => {
                                sfx.loop_start =
                                    Some(number(value, "a note number").map_err(|m| err(key, m))?)
                            }
                            "attack" => {
                                sfx.attack = number(value, unit).map_err(|m| err(key, m))?
                            }
                            "release" => {
                                sfx.release = number(value, unit).map_err(|m| err(key, m))?
                            }
                            "vibrato" if v2 => {
                                sfx.vibrato = rate(value).map_err(|m| err(key, m))?
                            }
                            "vibrato_depth" if v2 => {
                                sfx.vibrato_depth =
                                    number(value, "cents").map_err(|m| err(key, m))?
                            }
                            "arp" if v2 => sfx.arpeggio = rate(value).map_err(|m| err(key, m))?,
                            "unit" if v2 => {
                                sfx.time_base = time_unit(value).map_err(|m| err(key, m))?
                            }
                            "vibrato" | "vibrato_depth" | "arp" | "unit" => {
                                return Err(err(
                                    key,
                                    format!("needs a file headed '{SOUND_FILE_HEADER}'"),
                                ))
                            }
                            _ => {
                                return Err(err(
                                    "option",
                                    format!(
                                        "{} is not loop, attack, release, vibrato, \
                                         vibrato_depth, arp or unit",
                                        quoted(key)
                                    ),
                                ))
                            }
                        }
                    }
                    out.sfx.push((name.to_string(), sfx));
                    sfx_lines.push(line);
                    block = Block::Sfx;
                }
                "music" | "seq" => {
                    let name = *words.get(1).ok_or_else(|| err("name", "missing".into()))?;
                    if out.music.iter().any(|m| m.name == name) {
                        return Err(err("name", format!("{} is defined twice", quoted(name))));
                    }
                    let tune = if words[0] == "music" {
                        let mut loop_start = None;
                        for option in &words[2..] {
                            match option.split_once('=') {
                                Some(("loop", v)) => {
                                    loop_start = Some(
                                        number(v, "a pattern number")
                                            .map_err(|m| err("loop", m))?,
                                    )
                                }
                                _ => {
                                    return Err(err(
                                        "option",
                                        format!("{} is not loop=N", quoted(option)),
                                    ))
                                }
                            }
                        }
                        block = Block::Music;
                        FileTune::Patterns {
                            patterns: Vec::new(),
                            loop_start,
                        }
                    } else {
                        let looping = match &words[2..] {
                            [] => false,
                            ["loop"] => true,
                            [option, ..] => {
                                return Err(err(
                                    "option",
                                    format!("{} is not loop", quoted(option)),
                                ))
                            }
                        };
                        block = Block::Sequences;
                        FileTune::Sequences {
                            channels: Default::default(),
                            looping,
                        }
                    };
                    out.music.push(FileMusic {
                        name: name.to_string(),
                        tune,
                    });
                    music_lines.push(line);
                }
                _ => match block {
                    Block::None => {
                        return Err(err(
                            "line",
                            "a note or pattern before any 'sfx', 'music' or 'seq' line".into(),
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
                                None => NoteEffect::None,
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
                                let at = find(&out.sfx, word).ok_or_else(|| {
                                    err(
                                        "pattern",
                                        format!("no sound effect called {} above", quoted(word)),
                                    )
                                })?;
                                *slot = Some(at);
                            }
                        }
                        if let Some(FileTune::Patterns { patterns, .. }) =
                            out.music.last_mut().map(|m| &mut m.tune)
                        {
                            patterns.push(pattern);
                        }
                    }
                    Block::Sequences => {
                        let channel = match words[0] {
                            w if w.len() == 1 && digits(w) && w < "4" => {
                                usize::from(w.as_bytes()[0] - b'0')
                            }
                            w => {
                                return Err(err(
                                    "channel",
                                    format!(
                                        "{} is not a channel (0 to {}) before its sound names",
                                        quoted(w),
                                        CHANNELS - 1
                                    ),
                                ))
                            }
                        };
                        let mut ids = Vec::new();
                        for word in &words[1..] {
                            ids.push(find(&out.sfx, word).ok_or_else(|| {
                                err(
                                    "seq",
                                    format!("no sound effect called {} above", quoted(word)),
                                )
                            })?);
                        }
                        if let Some(FileTune::Sequences { channels, .. }) =
                            out.music.last_mut().map(|m| &mut m.tune)
                        {
                            channels[channel].extend(ids);
                        }
                    }
                },
            }
        }
        if time_base.is_none() {
            return Err(line_error(file, 1, "header", header_message()));
        }
        for ((name, sfx), &line) in out.sfx.iter().zip(&sfx_lines) {
            sfx.validate().map_err(|e| {
                line_error(file, line, &format!("sfx {}", quoted(name)), e.to_string())
            })?;
        }
        for (m, &line) in out.music.iter().zip(&music_lines) {
            if let FileTune::Patterns {
                patterns,
                loop_start: Some(start),
            } = &m.tune
            {
                if *start >= patterns.len() {
                    return Err(line_error(
                        file,
                        line,
                        &format!("music {}", quoted(&m.name)),
                        format!(
                            "loop={start} is past the last pattern ({} patterns)",
                            patterns.len()
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Gives `synth` these sounds as the set of the file `file`, replacing what an earlier load
    /// of that file gave (all or nothing).
    pub(crate) fn add_to(
        &self,
        file: &str,
        synth: &mut super::Synth,
    ) -> Result<SoundBank, SoundFileError> {
        let mark = synth.mark();
        match self.add_each(file, synth) {
            Ok(bank) => {
                synth.replace_file(file, bank.clone());
                Ok(bank)
            }
            Err(e) => {
                synth.rollback(mark);
                Err(e)
            }
        }
    }

    fn add_each(&self, file: &str, synth: &mut super::Synth) -> Result<SoundBank, SoundFileError> {
        let wrap = |source| SoundFileError::Sound {
            file: excerpt(file),
            source,
        };
        let mut bank = SoundBank {
            file: file.to_string(),
            ..SoundBank::default()
        };
        for (name, sfx) in &self.sfx {
            let id = synth.add_sfx(sfx.clone()).map_err(wrap)?;
            bank.sfx.push((name.clone(), id));
        }
        let ids = |list: &[usize]| list.iter().map(|&i| bank.sfx[i].1).collect::<Vec<_>>();
        let mut music_ids = Vec::new();
        for m in &self.music {
            let music = match &m.tune {
                FileTune::Patterns {
                    patterns,
                    loop_start,
                } => Music::patterns(
                    patterns
                        .iter()
                        .map(|p| p.map(|slot| slot.map(|i| bank.sfx[i].1)))
                        .collect(),
                    *loop_start,
                ),
                FileTune::Sequences { channels, looping } => {
                    Music::sequences(channels.each_ref().map(|c| ids(c)), *looping)
                }
            };
            let id = synth.add_music(music).map_err(wrap)?;
            music_ids.push((m.name.clone(), id));
        }
        bank.music = music_ids;
        Ok(bank)
    }
}

fn header_message() -> String {
    format!("the file must start with '{SOUND_FILE_HEADER}' (or '{SOUND_FILE_HEADER_UPDATES}', whose times count updates)")
}
