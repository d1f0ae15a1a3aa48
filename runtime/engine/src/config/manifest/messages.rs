//! How manifest and config errors read: a file's text with line and column for any offset,
//! values described shortly, lists of field names, and toml's own messages condensed to a line.

use std::path::Path;

use serde::de::DeserializeOwned;
use toml::Value;

use super::{Field, ManifestError};
use super::{Table, PALETTE_PRESETS};
use crate::quote::quoted;

pub(super) fn at(line: &Option<usize>, column: &Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

pub(super) fn presets() -> String {
    PALETTE_PRESETS.join(", ")
}

pub(super) fn named(field: &Option<&'static str>) -> String {
    field.map(|f| format!("{f}: ")).unwrap_or_default()
}

/// A TOML value for a message: strings as excerpts, no arrays or tables written out.
pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => quoted(s),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => crate::quote::number(*f),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => format!("the date-time {d}"),
        Value::Array(_) => "an array".to_string(),
        Value::Table(_) => "a table".to_string(),
    }
}

/// Field names as people read them: `a`, `a or b`, `one of a, b, c`.
pub(super) fn list(fields: &[&str], quote: &str) -> String {
    let q: Vec<String> = fields
        .iter()
        .map(|f| format!("{quote}{f}{quote}"))
        .collect();
    match q.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", q.join(", ")),
    }
}

/// toml's message for the whole-file decode, condensed to one line, with unknown fields
/// explained by table.
pub(super) fn explain(message: &str, tables: &[Table], hint: &str) -> String {
    if let Some(rest) = message.strip_prefix("unknown field `") {
        for (what, table, fields) in tables {
            if let Some(name) = rest.strip_suffix(&format!("`, expected {}", list(fields, "`"))) {
                let simple = name.len() <= 40
                    && !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                let name = if simple {
                    format!("'{name}'")
                } else {
                    quoted(name)
                };
                return format!(
                    "unknown {what} {name}{table}; expected {}{hint}",
                    list(fields, "")
                );
            }
        }
    }
    let mut out = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
        .replace('`', "'");
    if let Some(i) = out.find("expected struct ") {
        out.truncate(i);
        out.push_str("expected a table");
    }
    if out.chars().count() > 160 {
        out = out.chars().take(160).chain(std::iter::once('…')).collect();
    }
    out
}

/// One file's text, for decoding it and placing errors in it.
pub(super) struct Source<'a> {
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
}

impl Source<'_> {
    /// 1-based line and column (in characters) of a byte offset.
    pub(super) fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = before[start..]
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count()
            + 1;
        (line, column)
    }

    pub(super) fn error(
        &self,
        offset: Option<usize>,
        field: Option<&'static str>,
        problem: String,
    ) -> ManifestError {
        let (line, column) = offset.map(|o| self.line_col(o)).unzip();
        ManifestError::Invalid {
            path: self.path.to_path_buf(),
            line,
            column,
            field,
            problem,
        }
    }

    pub(super) fn decode<T: DeserializeOwned>(
        &self,
        tables: &[Table],
        hint: &str,
    ) -> Result<T, ManifestError> {
        toml::from_str(self.text).map_err(|e| {
            let at = e.span().map(|s| s.start);
            let problem = match at {
                Some(at) if e.message().contains("too large to fit") => self.too_large(at),
                _ => explain(e.message(), tables, hint),
            };
            self.error(at, None, problem)
        })
    }

    /// The problem of a number past what a TOML integer holds, naming the key of its line.
    pub(super) fn too_large(&self, at: usize) -> String {
        let start = self.text[..at.min(self.text.len())]
            .rfind('\n')
            .map_or(0, |n| n + 1);
        let line = self.text[start..].lines().next().unwrap_or_default();
        let key = line.split('=').next().unwrap_or_default().trim();
        format!(
            "{}: a whole number past the largest a TOML file holds ({})",
            quoted(key),
            i64::MAX
        )
    }

    /// Checks one optional value with `check`, which returns the problem text when it is bad.
    pub(super) fn field<T>(
        &self,
        value: Field,
        field: &'static str,
        check: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Result<Option<T>, ManifestError> {
        let Some(value) = value else { return Ok(None) };
        check(value.get_ref())
            .map(Some)
            .map_err(|problem| self.error(Some(value.span().start), Some(field), problem))
    }
}
