//! A sound file as the editor holds it: the sounds to edit, and the file's own lines, so that
//! writing it back changes only what was edited.
//!
//! What [`SoundDoc::to_text`] keeps:
//!
//! - Every line the edits did not touch, byte for byte: comments, blank lines, spacing, the
//!   byte-order mark, the line endings (`\n` or `\r\n`, and a last line without one). A file
//!   read and written with no edit is the same bytes.
//! - A note, pattern or sequence line whose value changed is written anew in the usual spelling
//!   (`C#4 sq25 5 slide`, `bass - hat -`, `0 bass bass`), keeping its indentation and its
//!   comment at the end of the line. A sound effect's header line whose speed, loop or name
//!   changed keeps its other options and its comment; its words are then separated by single
//!   spaces. A renamed sound effect's name is written anew in every tune line naming it.
//! - An inserted note goes right after the note before it; a deleted note's line goes, with its
//!   comment. A new sound effect goes after the file's last sound effect, before the comment
//!   lines right above the next block.
//!
//! Pulse widths other than the ones a file can spell (`sq1` to `sq99`) cannot come out of a
//! file, so every value the editor holds has a spelling, and the text read back with
//! [`SoundFile::parse`] gives exactly the sounds edited ([`SoundDoc::check_round_trip`]).

use std::fmt::{self, Write as _};

use bt::sound::{
    FileMusic, FileTune, Note, NoteEffect, Sfx, SoundFile, SoundFileError, Wave, CHANNELS,
    MAX_NOTES, MAX_PITCH, SOUND_FILE_HEADER,
};

/// The note names of an octave, from C.
const NOTE_NAMES: [&str; 12] = [
    "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
];

/// How a new sound effect starts: this speed (an eighth of a second a note) and this many
/// rests, a length to draw notes into.
pub const NEW_SFX_SPEED: u16 = 15;
/// How many rests a new sound effect has.
pub const NEW_SFX_NOTES: usize = 16;

/// A note as a sound file spells it: `C#4 sq25 5 slide`, or `--` for a rest.
///
/// ```
/// use bt::sound::{NoteEffect, Note, Wave};
/// use bt_tools::sound_edit::note_text;
///
/// assert_eq!(note_text(&Note::new(49, Wave::Square { duty: 64 }, 5).with(NoteEffect::Slide)), "C#4 sq25 5 slide");
/// assert_eq!(note_text(&Note::rest()), "--");
/// ```
pub fn note_text(note: &Note) -> String {
    if *note == Note::rest() {
        return "--".to_string();
    }
    let mut out = format!(
        "{} {} {}",
        pitch_text(note.pitch),
        wave_text(note.wave),
        note.volume
    );
    if note.effect != NoteEffect::None {
        out.push(' ');
        out.push_str(&effect_text(note.effect));
    }
    out
}

/// A pitch as a note name and octave: `C4` for 48.
pub fn pitch_text(pitch: u8) -> String {
    PitchName(pitch).to_string()
}

/// A wave as a sound file spells it. A pulse width no `sqN` gives is spelt by the nearest
/// one that does.
pub fn wave_text(wave: Wave) -> String {
    WaveName(wave).to_string()
}

/// An effect as a sound file spells it (`""` for none).
pub fn effect_text(effect: NoteEffect) -> String {
    EffectName(effect).to_string()
}

/// A pitch shown as a note name and octave (`C#4`), without allocating.
#[derive(Debug, Clone, Copy)]
pub struct PitchName(pub u8);

impl fmt::Display for PitchName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pitch = self.0.min(MAX_PITCH);
        write!(f, "{}{}", NOTE_NAMES[usize::from(pitch % 12)], pitch / 12)
    }
}

/// A wave shown as a sound file spells it (`sq25`), without allocating.
#[derive(Debug, Clone, Copy)]
pub struct WaveName(pub Wave);

impl fmt::Display for WaveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Wave::Square { duty: 128 } => f.write_str("sq"),
            Wave::Square { duty } => {
                // `sqN` reads as N * 256 / 100: the N that reads back closest to `duty`.
                let pc = (1..=99u32)
                    .min_by_key(|pc| (pc * 256 / 100).abs_diff(u32::from(duty)))
                    .unwrap_or(50);
                write!(f, "sq{pc}")
            }
            Wave::Triangle => f.write_str("tri"),
            Wave::Saw => f.write_str("saw"),
            Wave::Sine => f.write_str("sin"),
            Wave::Noise => f.write_str("noise"),
            Wave::TiltedSaw => f.write_str("tilt"),
            Wave::Organ => f.write_str("organ"),
            Wave::Phaser => f.write_str("phaser"),
            // A wave the format cannot name.
            _ => f.write_str("sq"),
        }
    }
}

/// An effect shown as a sound file spells it (nothing for none), without allocating.
#[derive(Debug, Clone, Copy)]
pub struct EffectName(pub NoteEffect);

impl fmt::Display for EffectName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            NoteEffect::Slide => f.write_str("slide"),
            NoteEffect::Vibrato => f.write_str("vibrato"),
            NoteEffect::Drop => f.write_str("drop"),
            NoteEffect::FadeIn => f.write_str("fadein"),
            NoteEffect::FadeOut => f.write_str("fadeout"),
            NoteEffect::Arpeggio => f.write_str("arp"),
            NoteEffect::ArpeggioGroup { units } => write!(f, "arpgroup:{units}"),
            _ => Ok(()),
        }
    }
}

/// One line of the file as read: its text and its line ending (`"\n"`, `"\r\n"`, or `""` for
/// a last line without one).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    text: String,
    end: &'static str,
}

/// Where a block (an `sfx`, `music` or `seq` and the lines under it) was in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BlockLines {
    /// The header line.
    header: usize,
    /// The lines after the header up to the next block's header.
    body: std::ops::Range<usize>,
    /// The lines of its items (notes, patterns, sequence lines), in order.
    items: Vec<usize>,
}

/// A sound effect being edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SfxEntry {
    /// Its name in the file.
    pub name: String,
    /// The sound effect: speed, loop and notes are what the editor changes.
    pub sfx: Sfx,
    /// For each note, which note of the file it was read as (`None`: inserted).
    origin: Vec<Option<usize>>,
    /// What the file held and the block it was in, when the effect came from the file.
    read: Option<(Box<Sfx>, usize)>,
}

impl fmt::Display for SfxEntry {
    /// Its name, as the editor's list shows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl fmt::Display for TuneEntry {
    /// Its name, as the editor's list shows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why `name` cannot name a sound whose others are `taken`: a file's name is one word, not a
/// comment, not `-` (a pattern's silent channel), and not another sound's of its kind.
fn name_problem<'a>(
    name: &str,
    mut taken: impl Iterator<Item = &'a str>,
    kind: &str,
) -> Option<String> {
    let problem = if name.is_empty() {
        "is empty"
    } else if name.chars().any(char::is_whitespace) {
        "has a space in it"
    } else if name.starts_with('#') {
        "starts a comment"
    } else if name == "-" {
        "stands for no sound"
    } else if taken.any(|n| n == name) {
        "is taken"
    } else {
        return None;
    };
    Some(format!("{kind} name {name:?} {problem}: not renamed"))
}

/// A tune's rows as the file has them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TuneRows {
    /// A `music` block: one pattern a row, a sound effect (by its place in
    /// [`Sounds::sfx`]) or none for each channel.
    Patterns {
        /// The patterns.
        rows: Vec<[Option<usize>; CHANNELS]>,
        /// Where the tune goes on from after its last pattern.
        loop_start: Option<usize>,
    },
    /// A `seq` block: one line a row, a channel and the sound effects it plays next.
    Sequences {
        /// The lines: a channel and its sound effects.
        rows: Vec<(usize, Vec<usize>)>,
        /// Whether each channel starts its list over.
        looping: bool,
    },
}

impl TuneRows {
    /// How many rows.
    pub fn len(&self) -> usize {
        match self {
            TuneRows::Patterns { rows, .. } => rows.len(),
            TuneRows::Sequences { rows, .. } => rows.len(),
        }
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cells of row `row`: the sound effect of each slot (a pattern's four channels, a
    /// sequence line's sounds).
    pub fn cells(&self, row: usize) -> Vec<Option<usize>> {
        match self {
            TuneRows::Patterns { rows, .. } => {
                rows.get(row).map(|r| r.to_vec()).unwrap_or_default()
            }
            TuneRows::Sequences { rows, .. } => rows
                .get(row)
                .map(|(_, list)| list.iter().map(|&i| Some(i)).collect())
                .unwrap_or_default(),
        }
    }
}

/// A tune being edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TuneEntry {
    /// Its name in the file.
    pub name: String,
    /// Its rows.
    pub rows: TuneRows,
    /// For each row, which row of the file it was read as.
    origin: Vec<Option<usize>>,
    /// What the file held, and the block it was in.
    read: (Box<TuneRows>, usize),
}

/// The sounds being edited: what an undo step keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sounds {
    /// The sound effects, in file order.
    pub sfx: Vec<SfxEntry>,
    /// The tunes, in file order.
    pub tunes: Vec<TuneEntry>,
}

/// A sound file being edited: the sounds and the lines they were read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundDoc {
    /// The file's name, for messages.
    name: String,
    lines: Vec<Line>,
    /// The line ending new lines get: the file's first one, else `"\n"`.
    newline: &'static str,
    /// Where each sound effect read from the file was, in order.
    sfx_blocks: Vec<BlockLines>,
    /// Where each tune was, in order.
    tune_blocks: Vec<BlockLines>,
    /// The sounds.
    pub sounds: Sounds,
}

/// The part of a line the reader looks at: a `#` at the start of the line, or after a space,
/// starts a comment (the rule of [`SoundFile::parse`]).
fn content(raw: &str) -> &str {
    let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
    if raw.trim_start().starts_with('#') {
        ""
    } else {
        match raw.find(" #") {
            Some(at) => &raw[..at],
            None => raw,
        }
    }
}

/// `new` in place of the words of line `raw`, keeping its indentation and its comment.
fn rewrite(raw: &str, new: &str) -> String {
    let lead = &raw[..raw.len() - raw.trim_start().len()];
    // The words start after the indentation; what follows them is spacing and the comment.
    let end = lead.len() + content(raw).trim().len();
    format!("{lead}{new}{}", &raw[end.min(raw.len())..])
}

/// A sequence line's channel and sound effects, by their place in `names`. Only for a line
/// the reader accepted.
fn seq_line(raw: &str, names: &[String]) -> (usize, Vec<usize>) {
    let mut words = content(raw).split_whitespace();
    let channel = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    let list = words
        .filter_map(|w| names.iter().position(|n| n == w))
        .collect();
    (channel, list)
}

/// Whether a line holds only a comment.
fn comment_only(raw: &str) -> bool {
    !raw.trim().is_empty() && content(raw).trim().is_empty()
}

fn split_lines(text: &str) -> Vec<Line> {
    text.split_inclusive('\n')
        .map(|l| {
            if let Some(t) = l.strip_suffix("\r\n") {
                Line {
                    text: t.to_string(),
                    end: "\r\n",
                }
            } else if let Some(t) = l.strip_suffix('\n') {
                Line {
                    text: t.to_string(),
                    end: "\n",
                }
            } else {
                Line {
                    text: l.to_string(),
                    end: "",
                }
            }
        })
        .collect()
}

/// Text being written: lines, each ended, a line left open by the file's last line closed
/// when another follows.
struct Out<'a> {
    text: String,
    open: bool,
    /// Whether the last line written is blank.
    blank: bool,
    newline: &'a str,
}

impl Out<'_> {
    fn line(&mut self, text: &str, end: &str) {
        if self.open {
            self.text.push_str(self.newline);
        }
        self.text.push_str(text);
        self.text.push_str(end);
        self.open = end.is_empty();
        self.blank = text.trim().is_empty();
    }
}

impl SoundDoc {
    /// Reads `text`, a sound file called `name` (for messages).
    ///
    /// # Errors
    /// The reader's [`SoundFileError`]: the file, the line and the field at fault.
    pub fn read(name: &str, text: &str) -> Result<SoundDoc, SoundFileError> {
        let file = SoundFile::parse(name, text)?;
        let lines = split_lines(text);
        let newline = lines
            .iter()
            .map(|l| l.end)
            .find(|e| !e.is_empty())
            .unwrap_or("\n");
        // The blocks, found by the same rule the reader uses: a line whose first word is
        // `sfx`, `music` or `seq` starts one; every other line with words in it is an item.
        let mut blocks: Vec<(bool, BlockLines)> = Vec::new();
        let mut header_seen = false;
        for (i, line) in lines.iter().enumerate() {
            let words: Vec<&str> = content(&line.text).split_whitespace().collect();
            let Some(first) = words.first() else {
                if let Some((_, b)) = blocks.last_mut() {
                    b.body.end = i + 1;
                }
                continue;
            };
            if !header_seen {
                header_seen = true;
                continue;
            }
            match *first {
                "sfx" | "music" | "seq" => blocks.push((
                    *first == "sfx",
                    BlockLines {
                        header: i,
                        body: i + 1..i + 1,
                        items: Vec::new(),
                    },
                )),
                _ => {
                    if let Some((_, b)) = blocks.last_mut() {
                        b.items.push(i);
                    }
                }
            }
            if let Some((_, b)) = blocks.last_mut() {
                b.body.end = i + 1;
            }
        }
        // Comment lines after the last word of a block belong to it too, up to the next header.
        let count = lines.len();
        for k in 0..blocks.len() {
            let end = blocks.get(k + 1).map_or(count, |(_, b)| b.header);
            blocks[k].1.body.end = end;
        }
        let (sfx_blocks, tune_blocks): (Vec<_>, Vec<_>) = blocks.into_iter().partition(|(s, _)| *s);
        let sfx_blocks: Vec<BlockLines> = sfx_blocks.into_iter().map(|(_, b)| b).collect();
        let tune_blocks: Vec<BlockLines> = tune_blocks.into_iter().map(|(_, b)| b).collect();
        let sfx_names: Vec<String> = file.sfx.iter().map(|(n, _)| n.clone()).collect();
        let sfx = file
            .sfx
            .into_iter()
            .enumerate()
            .map(|(block, (name, sfx))| SfxEntry {
                name,
                origin: (0..sfx.notes.len()).map(Some).collect(),
                read: Some((Box::new(sfx.clone()), block)),
                sfx,
            })
            .collect();
        let mut tunes = Vec::new();
        for (at, (music, block)) in file.music.into_iter().zip(&tune_blocks).enumerate() {
            let rows = match music.tune {
                FileTune::Patterns {
                    patterns,
                    loop_start,
                } => TuneRows::Patterns {
                    rows: patterns,
                    loop_start,
                },
                FileTune::Sequences { looping, .. } => TuneRows::Sequences {
                    // Line by line, as written (the reader joins a channel's lines).
                    rows: block
                        .items
                        .iter()
                        .map(|&i| seq_line(&lines[i].text, &sfx_names))
                        .collect(),
                    looping,
                },
                // A form of tune this editor does not know: left as it is in the file.
                _ => continue,
            };
            tunes.push(TuneEntry {
                name: music.name,
                origin: (0..rows.len()).map(Some).collect(),
                read: (Box::new(rows.clone()), at),
                rows,
            });
        }
        Ok(SoundDoc {
            name: name.to_string(),
            lines,
            newline,
            sfx_blocks,
            tune_blocks,
            sounds: Sounds { sfx, tunes },
        })
    }
}

/// An item line to write: the line it was read from (by its place in the block), and its new
/// text when its value changed or it is new.
struct Item {
    origin: Option<usize>,
    text: Option<String>,
}

impl SoundDoc {
    /// A file that does not exist yet: the header and one sound effect of rests, `sfx1`.
    pub fn new_file(name: &str) -> SoundDoc {
        let mut doc = SoundDoc::read(name, &format!("{SOUND_FILE_HEADER}\n"))
            .unwrap_or_else(|_| unreachable!("the header alone is a sound file"));
        doc.add_sfx();
        doc
    }

    /// The file's name, as messages give it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds a sound effect of [`NEW_SFX_NOTES`] rests, `sfxN` with the first free N, after the
    /// others; returns its place.
    pub fn add_sfx(&mut self) -> usize {
        let sfx = &mut self.sounds.sfx;
        let name = (1..)
            .map(|n| format!("sfx{n}"))
            .find(|n| sfx.iter().all(|e| &e.name != n))
            .unwrap_or_default();
        sfx.push(SfxEntry {
            name,
            sfx: Sfx::new(NEW_SFX_SPEED, vec![Note::rest(); NEW_SFX_NOTES]),
            origin: vec![None; NEW_SFX_NOTES],
            read: None,
        });
        sfx.len() - 1
    }

    /// Sets note `at` of sound effect `sfx`. Out of range: nothing changes.
    pub fn set_note(&mut self, sfx: usize, at: usize, note: Note) {
        if let Some(n) = self
            .sounds
            .sfx
            .get_mut(sfx)
            .and_then(|e| e.sfx.notes.get_mut(at))
        {
            *n = note;
        }
    }

    /// Inserts `note` at `at` in sound effect `sfx`; `false` when it has [`MAX_NOTES`]
    /// already (or there is no such place).
    pub fn insert_note(&mut self, sfx: usize, at: usize, note: Note) -> bool {
        let Some(e) = self.sounds.sfx.get_mut(sfx) else {
            return false;
        };
        if e.sfx.notes.len() >= MAX_NOTES || at > e.sfx.notes.len() {
            return false;
        }
        e.sfx.notes.insert(at, note);
        e.origin.insert(at, None);
        if let Some(l) = e.sfx.loop_start.as_mut().filter(|l| **l >= at) {
            *l += 1;
        }
        true
    }

    /// Removes notes `range` of sound effect `sfx`, keeping at least one note (a sound effect
    /// has one); `false` when nothing was removed.
    pub fn remove_notes(&mut self, sfx: usize, range: std::ops::Range<usize>) -> bool {
        let Some(e) = self.sounds.sfx.get_mut(sfx) else {
            return false;
        };
        let end = range.end.min(e.sfx.notes.len());
        let start = range.start.min(end);
        if start == end || end - start >= e.sfx.notes.len() {
            return false;
        }
        e.sfx.notes.drain(start..end);
        e.origin.drain(start..end);
        let len = e.sfx.notes.len();
        e.sfx.loop_start = e.sfx.loop_start.map(|l| {
            if l >= end {
                l - (end - start)
            } else {
                l.min(start)
            }
        });
        e.sfx.loop_start = e.sfx.loop_start.filter(|&l| l < len);
        true
    }

    /// Renames sound effect `sfx` to `name`; tunes naming it follow.
    ///
    /// # Errors
    /// A one-line message when `name` cannot be a sound effect's name in a file (empty, more
    /// than a word, a comment, `-`, or another's); nothing changes then.
    pub fn rename_sfx(&mut self, sfx: usize, name: &str) -> Result<(), String> {
        let others = self
            .sounds
            .sfx
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != sfx);
        if let Some(problem) = name_problem(name, others.map(|(_, e)| e.name.as_str()), "sound") {
            return Err(problem);
        }
        if let Some(e) = self.sounds.sfx.get_mut(sfx) {
            e.name = name.to_string();
        }
        Ok(())
    }

    /// Renames tune `tune` to `name`.
    ///
    /// # Errors
    /// As [`SoundDoc::rename_sfx`], for the tunes' names.
    pub fn rename_tune(&mut self, tune: usize, name: &str) -> Result<(), String> {
        let others = self
            .sounds
            .tunes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != tune);
        if let Some(problem) = name_problem(name, others.map(|(_, t)| t.name.as_str()), "tune") {
            return Err(problem);
        }
        if let Some(t) = self.sounds.tunes.get_mut(tune) {
            t.name = name.to_string();
        }
        Ok(())
    }

    /// Sets the speed of sound effect `sfx` (at least 1).
    pub fn set_speed(&mut self, sfx: usize, speed: u16) {
        if let Some(e) = self.sounds.sfx.get_mut(sfx) {
            e.sfx.speed = speed.max(1);
        }
    }

    /// Sets where sound effect `sfx` loops back to (`None`: it does not), within its notes.
    pub fn set_loop(&mut self, sfx: usize, start: Option<usize>) {
        if let Some(e) = self.sounds.sfx.get_mut(sfx) {
            e.sfx.loop_start = start.filter(|&l| l < e.sfx.notes.len());
        }
    }

    /// The sound effects tune `tune` may name: those written above it in the file.
    pub fn sfx_for_tune(&self, tune: usize) -> Vec<usize> {
        let Some(t) = self.sounds.tunes.get(tune) else {
            return Vec::new();
        };
        let header = self.tune_blocks[t.read.1].header;
        let last_read = self.sfx_blocks.last().map(|b| b.header);
        self.sounds
            .sfx
            .iter()
            .enumerate()
            .filter(|(_, e)| match &e.read {
                Some((_, b)) => self.sfx_blocks[*b].header < header,
                // New ones are written after the file's last sound effect.
                None => last_read.is_none_or(|l| l < header),
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Sets cell `cell` of row `row` of tune `tune`: a pattern's channel (`None`: silent), or
    /// a sequence line's `cell`th sound (`None` removes it; one past the end adds one).
    pub fn set_cell(&mut self, tune: usize, row: usize, cell: usize, sfx: Option<usize>) {
        let Some(t) = self.sounds.tunes.get_mut(tune) else {
            return;
        };
        match &mut t.rows {
            TuneRows::Patterns { rows, .. } => {
                if let Some(slot) = rows.get_mut(row).and_then(|r| r.get_mut(cell)) {
                    *slot = sfx;
                }
            }
            TuneRows::Sequences { rows, .. } => {
                let Some((_, list)) = rows.get_mut(row) else {
                    return;
                };
                match sfx {
                    Some(s) if cell < list.len() => list[cell] = s,
                    Some(s) if cell == list.len() => list.push(s),
                    None if cell < list.len() => {
                        list.remove(cell);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Adds a row to tune `tune` after row `after` (or first, for `None`): an empty pattern,
    /// or a sequence line for the same channel as the row before it, with no sounds yet.
    pub fn insert_row(&mut self, tune: usize, after: Option<usize>) {
        let Some(t) = self.sounds.tunes.get_mut(tune) else {
            return;
        };
        let at = after.map_or(0, |a| (a + 1).min(t.rows.len()));
        match &mut t.rows {
            TuneRows::Patterns { rows, loop_start } => {
                rows.insert(at, [None; CHANNELS]);
                if let Some(l) = loop_start.as_mut().filter(|l| **l >= at) {
                    *l += 1;
                }
            }
            TuneRows::Sequences { rows, .. } => {
                let channel = at
                    .checked_sub(1)
                    .and_then(|p| rows.get(p))
                    .map_or(0, |r| r.0);
                rows.insert(at, (channel, Vec::new()));
            }
        }
        t.origin.insert(at, None);
    }

    /// Removes row `row` of tune `tune`; a tune of patterns keeps at least one, and its loop
    /// stays inside it.
    pub fn remove_row(&mut self, tune: usize, row: usize) -> bool {
        let Some(t) = self.sounds.tunes.get_mut(tune) else {
            return false;
        };
        if row >= t.rows.len() {
            return false;
        }
        match &mut t.rows {
            TuneRows::Patterns { rows, loop_start } => {
                if rows.len() == 1 {
                    return false;
                }
                rows.remove(row);
                *loop_start =
                    loop_start.map(|l| if l > row { l - 1 } else { l }.min(rows.len() - 1));
            }
            TuneRows::Sequences { rows, .. } => {
                rows.remove(row);
            }
        }
        t.origin.remove(row);
        true
    }

    /// Sets the channel a sequence line of tune `tune` is for (0 to 3).
    pub fn set_channel(&mut self, tune: usize, row: usize, channel: usize) {
        if let Some(TuneRows::Sequences { rows, .. }) =
            self.sounds.tunes.get_mut(tune).map(|t| &mut t.rows)
        {
            if let Some(r) = rows.get_mut(row) {
                r.0 = channel.min(CHANNELS - 1);
            }
        }
    }

    /// The sounds as the reader gives them from the text [`SoundDoc::to_text`] writes.
    pub fn sound_file(&self) -> SoundFile {
        SoundFile {
            sfx: self
                .sounds
                .sfx
                .iter()
                .map(|e| (e.name.clone(), e.sfx.clone()))
                .collect(),
            music: self
                .sounds
                .tunes
                .iter()
                .map(|t| FileMusic {
                    name: t.name.clone(),
                    tune: match &t.rows {
                        TuneRows::Patterns { rows, loop_start } => FileTune::Patterns {
                            patterns: rows.clone(),
                            loop_start: *loop_start,
                        },
                        TuneRows::Sequences { rows, looping } => {
                            let mut channels: [Vec<usize>; CHANNELS] = Default::default();
                            for (ch, list) in rows {
                                channels[*ch].extend(list);
                            }
                            FileTune::Sequences {
                                channels,
                                looping: *looping,
                            }
                        }
                    },
                })
                .collect(),
        }
    }

    /// The text to save, ready and checked: [`SoundDoc::to_text`], read back through the
    /// sound file reader to exactly the sounds edited.
    ///
    /// # Errors
    /// What the reader says of the text (a tune naming a sound effect written below it), or
    /// that it reads back as other sounds.
    pub fn checked_text(&self) -> Result<String, String> {
        let text = self.to_text();
        let back = SoundFile::parse(&self.name, &text).map_err(|e| e.to_string())?;
        if back != self.sound_file() {
            return Err(format!(
                "{}: the text written would not read back as the sounds edited; not saved",
                self.name
            ));
        }
        Ok(text)
    }

    /// The file as text: the lines read, with the edited ones written anew (see the module's
    /// notes for what is kept).
    pub fn to_text(&self) -> String {
        let mut out = Out {
            text: String::new(),
            open: false,
            blank: true,
            newline: self.newline,
        };
        // Blocks in file order.
        let mut order: Vec<(usize, bool, usize)> = Vec::new();
        for (i, e) in self.sounds.sfx.iter().enumerate() {
            if let Some((_, b)) = &e.read {
                order.push((self.sfx_blocks[*b].header, true, i));
            }
        }
        for (i, t) in self.sounds.tunes.iter().enumerate() {
            order.push((self.tune_blocks[t.read.1].header, false, i));
        }
        order.sort_unstable();
        let first = self
            .sfx_blocks
            .iter()
            .chain(&self.tune_blocks)
            .map(|b| b.header)
            .min()
            .unwrap_or(self.lines.len());
        for line in &self.lines[..first] {
            out.line(&line.text, line.end);
        }
        let last_sfx = self.sfx_blocks.len().checked_sub(1);
        // Which sound effects were renamed since they were read: the tune lines naming them
        // are written anew.
        let renamed: Vec<bool> = self
            .sounds
            .sfx
            .iter()
            .map(|e| {
                e.read.as_ref().is_some_and(|(_, b)| {
                    header_name(&self.lines[self.sfx_blocks[*b].header].text) != e.name
                })
            })
            .collect();
        if last_sfx.is_none() {
            self.write_new_sfx(&mut out, first < self.lines.len());
        }
        for (_, is_sfx, i) in order {
            if is_sfx {
                let e = &self.sounds.sfx[i];
                let Some((read, b)) = &e.read else { continue };
                let block = &self.sfx_blocks[*b];
                let raw = &self.lines[block.header].text;
                let header = (e.sfx.speed != read.speed
                    || e.sfx.loop_start != read.loop_start
                    || header_name(raw) != e.name)
                    .then(|| rewrite(raw, &sfx_header(raw, &e.name, &e.sfx)));
                let items: Vec<Item> = e
                    .sfx
                    .notes
                    .iter()
                    .zip(&e.origin)
                    .map(|(n, &origin)| Item {
                        origin,
                        text: match origin {
                            Some(k) if read.notes.get(k) == Some(n) => None,
                            _ => Some(note_text(n)),
                        },
                    })
                    .collect();
                let then_new = Some(*b) == last_sfx;
                self.write_block(&mut out, block, header, &items, then_new);
            } else {
                let t = &self.sounds.tunes[i];
                let block = &self.tune_blocks[t.read.1];
                let items: Vec<Item> = (0..t.rows.len())
                    .map(|r| {
                        let origin = t.origin[r];
                        let same = origin.is_some_and(|k| row_eq(&t.read.0, k, &t.rows, r))
                            && t.rows.cells(r).iter().flatten().all(|&i| !renamed[i]);
                        Item {
                            origin,
                            text: (!same).then(|| self.row_text(&t.rows, r)),
                        }
                    })
                    .collect();
                let header = match (&t.rows, &*t.read.0) {
                    (
                        TuneRows::Patterns { loop_start, .. },
                        TuneRows::Patterns {
                            loop_start: was, ..
                        },
                    ) if loop_start != was => {
                        let raw = &self.lines[block.header].text;
                        let words: Vec<&str> = content(raw).split_whitespace().collect();
                        let mut head = format!("{} {}", words.first().unwrap_or(&"music"), t.name);
                        if let Some(l) = loop_start {
                            let _ = write!(head, " loop={l}");
                        }
                        Some(rewrite(raw, &head))
                    }
                    _ => {
                        let raw = &self.lines[block.header].text;
                        (header_name(raw) != t.name).then(|| {
                            let mut words: Vec<&str> = content(raw).split_whitespace().collect();
                            if let Some(w) = words.get_mut(1) {
                                *w = &t.name;
                            }
                            rewrite(raw, &words.join(" "))
                        })
                    }
                };
                self.write_block(&mut out, block, header, &items, false);
            }
        }
        out.text
    }

    /// Row `row` of `rows` as the file spells it.
    fn row_text(&self, rows: &TuneRows, row: usize) -> String {
        let name = |i: usize| self.sounds.sfx.get(i).map_or("-", |e| e.name.as_str());
        match rows {
            TuneRows::Patterns { rows, .. } => rows[row]
                .iter()
                .map(|s| s.map_or("-", name))
                .collect::<Vec<_>>()
                .join(" "),
            TuneRows::Sequences { rows, .. } => {
                let (ch, list) = &rows[row];
                let mut text = ch.to_string();
                for &i in list {
                    text.push(' ');
                    text.push_str(name(i));
                }
                text
            }
        }
    }

    /// Writes a block read from the file: its header (anew when `header` is given), then its
    /// lines with `items` in place of the items read; with `then_new`, the new sound effects
    /// go at its end, before the comments right above the next block.
    fn write_block(
        &self,
        out: &mut Out<'_>,
        block: &BlockLines,
        header: Option<String>,
        items: &[Item],
        then_new: bool,
    ) {
        let head = &self.lines[block.header];
        out.line(header.as_deref().unwrap_or(&head.text), head.end);
        let mut next = 0;
        let emit = |out: &mut Out<'_>, item: &Item, read_line: Option<usize>| match (
            &item.text, read_line,
        ) {
            (None, Some(l)) => out.line(&self.lines[l].text, self.lines[l].end),
            (Some(text), Some(l)) => {
                out.line(&rewrite(&self.lines[l].text, text), self.lines[l].end)
            }
            (Some(text), None) => out.line(text, self.newline),
            (None, None) => {}
        };
        let last_item = block.items.last().copied();
        let mut split = block.body.end;
        while split > block.body.start && comment_only(&self.lines[split - 1].text) {
            split -= 1;
        }
        if let Some(l) = last_item {
            split = split.max(l + 1);
        }
        if last_item.is_none() {
            for item in items {
                emit(out, item, None);
            }
            next = items.len();
        }
        for l in block.body.clone() {
            if then_new && l == split {
                self.write_new_sfx(out, true);
            }
            match block.items.iter().position(|&i| i == l) {
                Some(k) => {
                    if let Some(q) = items[next..].iter().position(|it| it.origin == Some(k)) {
                        for item in &items[next..next + q] {
                            emit(out, item, None);
                        }
                        emit(out, &items[next + q], Some(l));
                        next += q + 1;
                    }
                    if Some(l) == last_item {
                        for item in &items[next..] {
                            emit(out, item, None);
                        }
                        next = items.len();
                    }
                }
                None => {
                    let line = &self.lines[l];
                    out.line(&line.text, line.end);
                }
            }
        }
        if then_new && split == block.body.end {
            self.write_new_sfx(out, false);
        }
    }

    /// Writes the sound effects made in the editor, each after a blank line; `more` when
    /// lines of the file follow, which a blank line then keeps apart.
    fn write_new_sfx(&self, out: &mut Out<'_>, more: bool) {
        let new: Vec<&SfxEntry> = self
            .sounds
            .sfx
            .iter()
            .filter(|e| e.read.is_none())
            .collect();
        for (i, e) in new.iter().enumerate() {
            if i > 0 || !out.text.is_empty() && !out.blank {
                out.line("", self.newline);
            }
            let mut head = format!("sfx {} {}", e.name, e.sfx.speed);
            if let Some(l) = e.sfx.loop_start {
                let _ = write!(head, " loop={l}");
            }
            out.line(&head, self.newline);
            for n in &e.sfx.notes {
                out.line(&note_text(n), self.newline);
            }
        }
        if !new.is_empty() && more {
            out.line("", self.newline);
        }
    }
}

/// The name a block's header line gives: its second word.
fn header_name(raw: &str) -> &str {
    content(raw).split_whitespace().nth(1).unwrap_or_default()
}

/// The words of an `sfx` header line with `name`, and the speed and loop of `sfx`, its other
/// options kept.
fn sfx_header(raw: &str, name: &str, sfx: &Sfx) -> String {
    let words: Vec<&str> = content(raw).split_whitespace().collect();
    let mut out = format!(
        "{} {} {}",
        words.first().copied().unwrap_or("sfx"),
        name,
        sfx.speed
    );
    if let Some(l) = sfx.loop_start {
        let _ = write!(out, " loop={l}");
    }
    for w in words.iter().skip(3).filter(|w| !w.starts_with("loop=")) {
        out.push(' ');
        out.push_str(w);
    }
    out
}

/// Whether row `a` of `x` and row `b` of `y` hold the same.
fn row_eq(x: &TuneRows, a: usize, y: &TuneRows, b: usize) -> bool {
    match (x, y) {
        (TuneRows::Patterns { rows: r, .. }, TuneRows::Patterns { rows: s, .. }) => {
            r.get(a) == s.get(b)
        }
        (TuneRows::Sequences { rows: r, .. }, TuneRows::Sequences { rows: s, .. }) => {
            r.get(a) == s.get(b)
        }
        _ => false,
    }
}
