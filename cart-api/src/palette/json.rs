//! A palette as JSON text: the writer, and the reader (on BT's own JSON reader, which keeps
//! this crate free of a JSON dependency; errors name line and column).
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
use crate::json::{JsonError, Node, Pos, Reader, Value};

/// The version written, and the only one read.
const VERSION: u64 = 1;

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

fn error(at: Pos, reason: impl Into<String>) -> PaletteError {
    PaletteError::Json {
        line: at.line,
        column: at.column,
        reason: reason.into(),
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
    let root = Reader::document(text, "the palette")?;
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

impl From<JsonError> for PaletteError {
    fn from(e: JsonError) -> PaletteError {
        error(e.at, e.reason)
    }
}
