//! BT's JSON reader: the whole JSON grammar into a tree whose every value knows its line and
//! column, so the formats read from JSON (palettes, `.btfont` fonts) name where a problem is.
//! Small enough to keep this crate free of a JSON dependency.

/// Nesting deeper than this is refused, so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 16;

/// Text that is not JSON: where, and why.
#[derive(Debug)]
pub(crate) struct JsonError {
    pub(crate) at: Pos,
    pub(crate) reason: String,
}

/// A parsed JSON value and where it started.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) at: Pos,
    pub(crate) value: Value,
}

/// A JSON value. Booleans keep no value: no format BT reads has one.
#[derive(Debug)]
pub(crate) enum Value {
    Null,
    Bool,
    Number(f64),
    Text(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Value {
    pub(crate) fn kind(&self) -> &'static str {
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

/// A place in the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pos {
    /// From 1.
    pub(crate) line: usize,
    /// From 1, in characters.
    pub(crate) column: usize,
}

fn error(at: Pos, reason: impl Into<String>) -> JsonError {
    JsonError {
        at,
        reason: reason.into(),
    }
}

/// Reads JSON text, value by value.
pub(crate) struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Reader<'_> {
    /// The one value `text` holds; `what` names it in the error for text after it.
    pub(crate) fn document(text: &str, what: &str) -> Result<Node, JsonError> {
        let mut reader = Reader {
            chars: text.chars().peekable(),
            pos: Pos { line: 1, column: 1 },
        };
        let root = reader.value(0)?;
        reader.skip_space();
        if reader.peek().is_some() {
            return Err(error(reader.pos, format!("more text after {what}")));
        }
        Ok(root)
    }

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

    fn expect(&mut self, want: char) -> Result<(), JsonError> {
        self.skip_space();
        let at = self.pos;
        match self.bump() {
            Some(c) if c == want => Ok(()),
            Some(c) => Err(error(at, format!("expected '{want}', found {c:?}"))),
            None => Err(error(at, format!("expected '{want}', found the end"))),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
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

    fn string(&mut self) -> Result<String, JsonError> {
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
                            let code = self.hex4(esc_at)?;
                            // A high surrogate and a low one after it are one character; a
                            // surrogate alone stands as the replacement character.
                            if (0xd800..0xdc00).contains(&code) && self.peek() == Some('\\') {
                                self.bump();
                                if self.bump() != Some('u') {
                                    return Err(error(esc_at, "a bad \\u escape"));
                                }
                                let low = self.hex4(esc_at)?;
                                let pair = if (0xdc00..0xe000).contains(&low) {
                                    0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
                                } else {
                                    0xfffd
                                };
                                char::from_u32(pair).unwrap_or(char::REPLACEMENT_CHARACTER)
                            } else {
                                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                            }
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

    /// Four hex digits of a `\\u` escape.
    fn hex4(&mut self, esc_at: Pos) -> Result<u32, JsonError> {
        let mut code = 0u32;
        for _ in 0..4 {
            let digit = self.bump().and_then(|d| d.to_digit(16));
            code = code * 16 + digit.ok_or_else(|| error(esc_at, "a bad \\u escape"))?;
        }
        Ok(code)
    }

    fn number(&mut self) -> Result<f64, JsonError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_read_as_the_characters_they_stand_for() {
        let root = Reader::document(r#"{"k": "\u00e9\ud83d\ude00\n"}"#, "it").unwrap();
        let Value::Object(fields) = root.value else {
            panic!("not an object")
        };
        assert!(matches!(&fields[0].1.value, Value::Text(t) if t == "é😀\n"));
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let e = Reader::document("{\n  \"a\": tru\n}", "it").unwrap_err();
        assert_eq!(
            (e.at.line, e.at.column, e.reason.as_str()),
            (2, 8, "expected a value")
        );
        let e = Reader::document("1 2", "the font").unwrap_err();
        assert_eq!(e.reason, "more text after the font");
    }
}
