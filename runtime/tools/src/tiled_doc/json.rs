//! JSON read with where each value lies in the text, so an edit can replace one value's bytes
//! and keep every other byte (spacing, key order, number forms) as it was.

use std::ops::Range;

/// The deepest nesting read: Tiled's maps nest a handful deep (map, layers, group, tileset,
/// tile, properties); a deeper file would only exhaust the stack of this recursive reader.
const MAX_DEPTH: usize = 256;

/// A value and its bytes in the text.
#[derive(Debug)]
pub(crate) struct Value {
    pub span: Range<usize>,
    pub kind: Kind,
}

/// What a value is. Numbers and strings keep only their span; read them with
/// [`Value::as_u64`] and [`Value::as_str`].
#[derive(Debug)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number,
    Str(String),
    Array(Vec<Value>),
    /// Members: the key, the key's span (its quotes included), the value.
    Object(Vec<(String, Range<usize>, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match &self.kind {
            Kind::Object(members) => members.iter().find(|m| m.0 == key).map(|m| &m.2),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            Kind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// A whole number written as digits only (no sign, fraction or exponent).
    pub fn as_u64(&self, text: &str) -> Option<u64> {
        match self.kind {
            Kind::Number => text[self.span.clone()].parse().ok(),
            _ => None,
        }
    }

    pub fn items(&self) -> &[Value] {
        match &self.kind {
            Kind::Array(items) => items,
            _ => &[],
        }
    }
}

/// Reads the JSON `text`.
///
/// # Errors
/// `line L: what`, for text that is not JSON or nests deeper than [`MAX_DEPTH`].
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        at: 0,
    };
    let v = p.value(0)?;
    p.space();
    if p.at != p.b.len() {
        return Err(p.error("text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'t> {
    b: &'t [u8],
    text: &'t str,
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.text[..self.at.min(self.text.len())]
            .matches('\n')
            .count()
            + 1;
        format!("line {line}: {what}")
    }

    fn space(&mut self) {
        while self
            .b
            .get(self.at)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("values nested more than {MAX_DEPTH} deep")));
        }
        self.space();
        let start = self.at;
        let kind = match self.b.get(self.at) {
            None => return Err(self.error("the text ends where a value belongs")),
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.space();
                        let key_start = self.at;
                        if self.b.get(self.at) != Some(&b'"') {
                            return Err(self.error("expected a key in quotes"));
                        }
                        let key = self.string()?;
                        let key_span = key_start..self.at;
                        if !self.eat(b':') {
                            return Err(self.error("expected ':' after a key"));
                        }
                        let v = self.value(depth + 1)?;
                        members.push((key, key_span, v));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected ',' or '}' in an object"));
                        }
                    }
                }
                Kind::Object(members)
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected ',' or ']' in an array"));
                        }
                    }
                }
                Kind::Array(items)
            }
            Some(b'"') => Kind::Str(self.string()?),
            Some(b't') if self.b[self.at..].starts_with(b"true") => {
                self.at += 4;
                Kind::Bool(true)
            }
            Some(b'f') if self.b[self.at..].starts_with(b"false") => {
                self.at += 5;
                Kind::Bool(false)
            }
            Some(b'n') if self.b[self.at..].starts_with(b"null") => {
                self.at += 4;
                Kind::Null
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                while self
                    .b
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c))
                {
                    self.at += 1;
                }
                Kind::Number
            }
            Some(_) => return Err(self.error("expected a value")),
        };
        Ok(Value {
            span: start..self.at,
            kind,
        })
    }

    /// A string, its escapes decoded; `at` is on its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run = self.b[self.at..]
                .iter()
                .position(|&c| c == b'"' || c == b'\\')
                .ok_or_else(|| self.error("a string is not closed"))?;
            out.push_str(&self.text[self.at..self.at + run]);
            self.at += run;
            if self.b[self.at] == b'"' {
                self.at += 1;
                return Ok(out);
            }
            let escape = self.b.get(self.at + 1).copied();
            self.at += 2;
            out.push(match escape {
                Some(b'n') => '\n',
                Some(b't') => '\t',
                Some(b'r') => '\r',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'u') => {
                    let hex = self
                        .text
                        .get(self.at..self.at + 4)
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .ok_or_else(|| self.error("a \\u escape without four hex digits"))?;
                    self.at += 4;
                    char::from_u32(hex).unwrap_or('\u{fffd}')
                }
                Some(c @ (b'"' | b'\\' | b'/')) => c as char,
                _ => return Err(self.error("an unknown escape in a string")),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_know_where_they_are_in_the_text() {
        let text = r#" {"a": [1, 22 ,3], "b\"": "x\u0041", "c": true} "#;
        let v = parse(text).unwrap();
        let a = v.get("a").unwrap();
        assert_eq!(&text[a.items()[1].span.clone()], "22");
        assert_eq!(a.items()[1].as_u64(text), Some(22));
        assert_eq!(v.get("b\"").unwrap().as_str(), Some("xA"));
        assert_eq!(v.get("c").unwrap().as_bool(), Some(true));
        assert_eq!(&text[v.span.clone()], text.trim());
    }

    #[test]
    fn broken_or_too_deep_json_is_refused_with_its_line() {
        assert_eq!(
            parse("{\n\"a\" 1}").unwrap_err(),
            "line 2: expected ':' after a key"
        );
        assert_eq!(
            parse("[1,2").unwrap_err(),
            "line 1: expected ',' or ']' in an array"
        );
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert!(parse(&deep)
            .unwrap_err()
            .contains("nested more than 256 deep"));
    }
}
