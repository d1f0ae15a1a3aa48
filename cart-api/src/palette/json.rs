//! A palette as JSON text: the writer, and a reader small enough to keep this crate free of
//! a JSON dependency (it reads the JSON grammar in full, and errors name line and column).
//!
//! ```json
//! {
//!   "version": 1,
//!   "size": 4,
//!   "colors": ["#000000", "#1d2b53", "#7e2553", "#008751"],
//!   "names": { "sky": 1 }
//! }
//! ```
//!
//! BLIT386's palette files have the same `size`, `colors` and `names` fields and no
//! `version`; they read as version 1.

use std::fmt::Write as _;

use super::{Color32, Palette, PaletteError};

/// The version written, and the only one read.
const VERSION: u64 = 1;

/// Nesting deeper than this is refused, so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 16;

/// The palette as JSON (see the module's notes for the shape).
pub(super) fn write(palette: &Palette) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\n  \"version\": {VERSION},\n  \"size\": {},\n  \"colors\": [",
        palette.len()
    );
    for (i, c) in palette.colors().iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(out, "{sep}\"{c}\"");
    }
    out.push(']');
    if palette.names.is_empty() {
        out.push_str("\n}\n");
        return out;
    }
    out.push_str(",\n  \"names\": {");
    for (i, (name, slot)) in palette.names.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(out, "{sep}\n    {}: {slot}", json_string(name));
    }
    out.push_str("\n  }\n}\n");
    out
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A parsed JSON value and where it started.
struct Node {
    at: Pos,
    value: Value,
}

enum Value {
    Null,
    Bool,
    Number(f64),
    Text(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool => "a boolean",
            Value::Number(_) => "a number",
            Value::Text(_) => "a string",
            Value::List(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

#[derive(Clone, Copy)]
struct Pos {
    line: usize,
    column: usize,
}

fn error(at: Pos, reason: impl Into<String>) -> PaletteError {
    PaletteError::Json {
        line: at.line,
        column: at.column,
        reason: reason.into(),
    }
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }

    fn expect(&mut self, want: char) -> Result<(), PaletteError> {
        self.skip_space();
        let at = self.pos;
        match self.bump() {
            Some(c) if c == want => Ok(()),
            Some(c) => Err(error(at, format!("expected '{want}', found {c:?}"))),
            None => Err(error(at, format!("expected '{want}', found the end"))),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, PaletteError> {
        self.skip_space();
        let at = self.pos;
        if depth > MAX_DEPTH {
            return Err(error(at, "nested too deeply"));
        }
        let value = match self.peek() {
            None => return Err(error(at, "expected a value, found the end")),
            Some('{') => {
                self.bump();
                let mut fields = Vec::new();
                self.skip_space();
                if self.peek() == Some('}') {
                    self.bump();
                } else {
                    loop {
                        self.skip_space();
                        let key_at = self.pos;
                        if self.peek() != Some('"') {
                            return Err(error(key_at, "expected a field name in double quotes"));
                        }
                        let key = self.string()?;
                        self.expect(':')?;
                        fields.push((key, self.value(depth + 1)?));
                        self.skip_space();
                        let sep_at = self.pos;
                        match self.bump() {
                            Some(',') => {}
                            Some('}') => break,
                            _ => return Err(error(sep_at, "expected ',' or '}' in an object")),
                        }
                    }
                }
                Value::Object(fields)
            }
            Some('[') => {
                self.bump();
                let mut items = Vec::new();
                self.skip_space();
                if self.peek() == Some(']') {
                    self.bump();
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.skip_space();
                        let sep_at = self.pos;
                        match self.bump() {
                            Some(',') => {}
                            Some(']') => break,
                            _ => return Err(error(sep_at, "expected ',' or ']' in an array")),
                        }
                    }
                }
                Value::List(items)
            }
            Some('"') => Value::Text(self.string()?),
            Some(c) if c == '-' || c.is_ascii_digit() => Value::Number(self.number()?),
            Some(_) => {
                let mut word = String::new();
                while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
                    word.push(c);
                    self.bump();
                }
                match word.as_str() {
                    "null" => Value::Null,
                    "true" | "false" => Value::Bool,
                    _ => return Err(error(at, "expected a value")),
                }
            }
        };
        Ok(Node { at, value })
    }

    fn string(&mut self) -> Result<String, PaletteError> {
        let at = self.pos;
        self.bump(); // the opening quote
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err(error(at, "a string that never ends")),
                Some('"') => return Ok(out),
                Some('\\') => {
                    let esc_at = self.pos;
                    let c = match self.bump() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => {
                            let mut code = 0u32;
                            for _ in 0..4 {
                                let digit = self.bump().and_then(|d| d.to_digit(16));
                                code = code * 16
                                    + digit.ok_or_else(|| error(esc_at, "a bad \\u escape"))?;
                            }
                            // Surrogate pairs are not needed for palette names; they stand
                            // for themselves as the replacement character.
                            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                        }
                        _ => return Err(error(esc_at, "an unknown escape in a string")),
                    };
                    out.push(c);
                }
                Some(c) if u32::from(c) < 0x20 => {
                    return Err(error(at, "a control character inside a string"))
                }
                Some(c) => out.push(c),
            }
        }
    }

    fn number(&mut self) -> Result<f64, PaletteError> {
        let at = self.pos;
        let mut text = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        {
            text.push(c);
            self.bump();
        }
        text.parse::<f64>()
            .map_err(|_| error(at, format!("not a number: {text}")))
    }
}

/// A whole number in `0..limit` from a JSON number, or an error naming `field`.
fn whole(node: &Node, field: &str, limit: usize) -> Result<usize, PaletteError> {
    match node.value {
        Value::Number(n) if n.fract() == 0.0 && n >= 0.0 && n < limit as f64 => Ok(n as usize),
        Value::Number(n) => Err(error(
            node.at,
            format!("{field} must be a whole number below {limit}, got {n}"),
        )),
        ref other => Err(error(
            node.at,
            format!("{field} must be a number, got {}", other.kind()),
        )),
    }
}

/// The palette in `text` (see the module's notes for the shape).
pub(super) fn read(text: &str) -> Result<Palette, PaletteError> {
    let mut reader = Reader {
        chars: text.chars().peekable(),
        pos: Pos { line: 1, column: 1 },
    };
    let root = reader.value(0)?;
    reader.skip_space();
    if reader.peek().is_some() {
        return Err(error(reader.pos, "more text after the palette"));
    }
    let Value::Object(fields) = root.value else {
        return Err(error(
            root.at,
            format!("a palette is an object, got {}", root.value.kind()),
        ));
    };
    let (mut size, mut colors, mut names) = (None, None, None);
    for (key, node) in &fields {
        let seen = match key.as_str() {
            "version" => {
                let v = whole(node, "version", usize::MAX)?;
                if v as u64 != VERSION {
                    return Err(error(
                        node.at,
                        format!("version {v} is not one this BT reads (only {VERSION})"),
                    ));
                }
                false
            }
            "size" => size.replace(node).is_some(),
            "colors" => colors.replace(node).is_some(),
            "names" => names.replace(node).is_some(),
            _ => {
                return Err(error(
                    node.at,
                    format!(
                        "unknown field {} (a palette has version, size, colors and names)",
                        crate::quote::quoted(key)
                    ),
                ))
            }
        };
        if seen {
            return Err(error(node.at, format!("field {key} given twice")));
        }
    }
    let colors = colors.ok_or_else(|| error(root.at, "the palette has no colors field"))?;
    let Value::List(items) = &colors.value else {
        return Err(error(
            colors.at,
            format!("colors must be an array, got {}", colors.value.kind()),
        ));
    };
    let mut palette = Palette::new(items.len()).map_err(|_| {
        error(
            colors.at,
            format!("a palette holds 2 to 256 colors, this one {}", items.len()),
        )
    })?;
    if let Some(size) = size {
        let n = whole(size, "size", 257)?;
        if n != items.len() {
            return Err(error(
                size.at,
                format!("size is {n} but colors holds {}", items.len()),
            ));
        }
    }
    for (slot, item) in items.iter().enumerate() {
        let Value::Text(text) = &item.value else {
            return Err(error(
                item.at,
                format!("color {slot} must be a string, got {}", item.value.kind()),
            ));
        };
        let color: Color32 = text
            .parse()
            .map_err(|e| error(item.at, format!("color {slot}: {e}")))?;
        palette.colors[slot] = color;
    }
    if let Some(names) = names {
        let Value::Object(entries) = &names.value else {
            return Err(error(
                names.at,
                format!("names must be an object, got {}", names.value.kind()),
            ));
        };
        for (name, node) in entries {
            let slot = whole(
                node,
                &format!("name {}'s slot", crate::quote::quoted(name)),
                palette.len(),
            )?;
            palette
                .set_name(name, slot as u8)
                .map_err(|e| error(node.at, e.to_string()))?;
        }
    }
    Ok(palette)
}
