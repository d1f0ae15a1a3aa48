//! What `update` declared and `render` draws: one record a widget part, and their text.

use std::fmt::{self, Write};

use crate::Rect;

/// What a record draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Label,
    Button,
    Checkbox,
    Slider,
    Number,
    TextField,
    /// A list's frame and scroll bar; its visible rows follow as `ListRow`s.
    List,
    ListRow,
    /// A tab bar's underline; its tabs follow as `Tab`s.
    Tabs,
    Tab,
    Swatches,
    Tooltip,
    /// An area the cart draws itself: only its focus ring is drawn.
    Region,
}

/// Bits of a record's state.
pub(super) const HOT: u8 = 1;
pub(super) const FOCUSED: u8 = 1 << 1;
pub(super) const HELD: u8 = 1 << 2;
/// A box ticked, a row or tab or colour chosen.
pub(super) const ON: u8 = 1 << 3;
pub(super) const EDITING: u8 = 1 << 4;
/// The value is a whole number (printed without a fraction).
pub(super) const INTEGER: u8 = 1 << 5;

/// One widget, or one part of one, as declared.
#[derive(Debug, Clone, Copy)]
pub(super) struct Record {
    pub kind: Kind,
    pub rect: Rect,
    pub state: u8,
    /// The record's text: bytes `text.0..text.1` of [`Records::text`].
    pub text: (u32, u32),
    /// A slider's or number field's value and range.
    pub value: f64,
    pub min: f64,
    pub max: f64,
    /// Kind-specific: a text field's caret (in characters) and its text's range; a list's
    /// item count, first visible row and rows shown; swatches' first index, count and cells a
    /// row. The last is the width of a slider's track, or of a number or text field.
    pub n: [i32; 4],
}

impl Record {
    pub fn new(kind: Kind, rect: Rect) -> Record {
        Record {
            kind,
            rect,
            state: 0,
            text: (0, 0),
            value: 0.0,
            min: 0.0,
            max: 0.0,
            n: [0; 4],
        }
    }

    pub fn has(&self, bit: u8) -> bool {
        self.state & bit != 0
    }
}

/// The declared records and their text, in buffers of fixed capacity.
#[derive(Debug, Clone)]
pub(super) struct Records {
    pub list: Vec<Record>,
    pub text: String,
    record_capacity: usize,
    text_capacity: usize,
    /// Widget parts refused this update because the buffer was full.
    pub dropped: usize,
}

impl Records {
    pub fn new(record_capacity: usize, text_capacity: usize) -> Records {
        Records {
            list: Vec::with_capacity(record_capacity),
            text: String::with_capacity(text_capacity),
            record_capacity,
            text_capacity,
            dropped: 0,
        }
    }

    /// Empties the buffers for a new update, keeping their memory. A copy (a snapshot) has
    /// only the room its records used, so the first update after one takes the rest back.
    pub fn clear(&mut self) {
        self.list.clear();
        self.text.clear();
        self.dropped = 0;
        self.list.reserve_exact(self.record_capacity);
        self.text.reserve_exact(self.text_capacity);
    }

    /// Whether another record fits.
    pub fn has_room(&self) -> bool {
        self.list.len() < self.record_capacity
    }

    /// Appends `text` (one line: line breaks become spaces), cut to the room left; returns its
    /// range.
    pub fn write(&mut self, text: impl fmt::Display) -> (u32, u32) {
        let start = self.text.len();
        let mut cut = Cut {
            out: &mut self.text,
            room: self.text_capacity,
        };
        // A full buffer stops the writing with an error: what fitted is kept.
        let _ = write!(cut, "{text}");
        (start as u32, self.text.len() as u32)
    }

    /// Takes back text written since `mark`, for a record that did not fit.
    pub fn unwrite(&mut self, mark: (u32, u32)) {
        self.text.truncate(mark.0 as usize);
    }

    /// Adds `record` when there is room, else counts it as dropped.
    pub fn push(&mut self, record: Record) {
        if self.has_room() {
            self.list.push(record);
        } else {
            self.unwrite(record.text);
            self.dropped += 1;
        }
    }

    pub fn str(&self, range: (u32, u32)) -> &str {
        self.text
            .get(range.0 as usize..range.1 as usize)
            .unwrap_or("")
    }
}

/// A writer that keeps within the buffer's capacity and makes one line of what it is given.
struct Cut<'a> {
    out: &'a mut String,
    room: usize,
}

impl Write for Cut<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let c = if c == '\n' || c == '\r' { ' ' } else { c };
            if self.out.len() + c.len_utf8() > self.room {
                return Err(fmt::Error);
            }
            self.out.push(c);
        }
        Ok(())
    }
}
