//! Reading BLIT386's `.btfont` fonts: a JSON description and a picture of the glyphs.
//!
//! ```json
//! {
//!   "name": "Tiny", "size": 8, "lineHeight": 9, "baseline": 7,
//!   "texture": "tiny.png",
//!   "glyphs": { "A": { "x": 0, "y": 0, "w": 5, "h": 7, "ox": 0, "oy": 1, "adv": 6 } }
//! }
//! ```
//!
//! `texture` is a PNG beside the file, or the PNG itself as a `data:image/png;base64,` URI.
//! Each glyph is the `w × h` box at `(x, y)` of the picture, drawn `ox` right and `oy` down
//! from the pen (the left edge of the character, the top of the line), and moves the pen
//! `adv`. The line height is `lineHeight`, else `size`, else 12, as BLIT386 reads them; `name`
//! and `baseline` are read and not used. The format has no kerning. U+FFFD, when the font
//! has it, is drawn for characters it lacks.
//!
//! The picture's pixels are ink where they are opaque (an RGBA picture, alpha at least half)
//! or not colour 0 (an indexed picture). An indexed picture whose glyphs hold more than one
//! colour makes a coloured font: the glyphs keep their palette indices. An RGBA picture whose
//! glyphs hold more than one colour has its colours matched to palette slots by the loader
//! ([`Picture::Matched`]), and makes a coloured font too.

use std::collections::HashMap;

use super::load::line_error;
use super::{
    Font, FontBuilder, FontError, MAX_FONT_COLOR_PIXELS, MAX_FONT_GLYPHS, MAX_FONT_ROWS,
    MAX_GLYPH_EXTENT, MAX_GLYPH_WIDTH,
};
use crate::json::{Node, Reader, Value};
use crate::quote::quoted;

/// The line height when the file gives neither `lineHeight` nor `size`: BLIT386's default
/// font size.
const DEFAULT_LINE_HEIGHT: i32 = 12;

/// An RGBA pixel at least this opaque is ink, as in sheet fonts.
const INK_ALPHA: u8 = 128;

/// What an embedded texture must start with: BLIT386 embeds PNGs only.
const EMBEDDED_PNG: &str = "data:image/png;base64,";

/// The fields of a glyph, each a whole number.
const GLYPH_FIELDS: [&str; 7] = ["x", "y", "w", "h", "ox", "oy", "adv"];

/// A `.btfont` file read, before its picture.
#[derive(Debug)]
pub(crate) struct BtfontSpec {
    /// The `texture` field's line and value.
    texture: (usize, String),
    line_height: i32,
    glyphs: Vec<GlyphSpec>,
}

#[derive(Debug)]
struct GlyphSpec {
    line: usize,
    /// The key as written, for messages.
    key: String,
    code: u32,
    /// x, y, w, h.
    rect: [u32; 4],
    offset: (i32, i32),
    advance: i32,
}

/// Where a font's picture comes from.
pub(crate) enum Texture<'a> {
    /// A file named relative to the `.btfont` file.
    File(&'a str),
    /// The PNG's bytes, from a data URI.
    Embedded(Vec<u8>),
}

/// A decoded picture: RGBA bytes, or one palette index a pixel.
pub(crate) enum Picture<'a> {
    /// Four bytes (R, G, B, A) a pixel.
    Rgba(u32, u32, &'a [u8]),
    /// One palette index a pixel.
    Indexed(u32, u32, &'a [u8]),
    /// One palette index a pixel, matched from a picture's colours: a coloured font even
    /// when its glyphs hold one colour (or two colours landed on one slot).
    Matched(u32, u32, &'a [u8]),
}

/// Whether `bytes` look like JSON: an object, after blank space and a byte-order mark.
pub(crate) fn looks_like_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes.trim_ascii_start().starts_with(b"{")
}

/// Reads the description in `text`; `file` names it in errors.
pub(crate) fn parse(file: &str, text: &str) -> Result<BtfontSpec, FontError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let root = Reader::document(text, "the font").map_err(|e| {
        line_error(
            file,
            e.at.line,
            "JSON",
            format!("column {}: {}", e.at.column, e.reason),
        )
    })?;
    let err =
        |node: &Node, field: &str, message: String| line_error(file, node.at.line, field, message);
    let Value::Object(fields) = &root.value else {
        return Err(err(
            &root,
            "file",
            format!("a .btfont file is a JSON object, not {}", root.value.kind()),
        ));
    };
    let mut seen: HashMap<&str, ()> = HashMap::new();
    let (mut texture, mut glyphs, mut line_height, mut size) = (None, None, None, None);
    for (key, node) in fields {
        if seen.insert(key.as_str(), ()).is_some() {
            return Err(err(node, &quoted(key), "given twice".into()));
        }
        match key.as_str() {
            "name" | "baseline" => {
                // Read, not used: BT names a font by its file, and places glyphs by `oy`.
                if !matches!(node.value, Value::Text(_) | Value::Number(_)) {
                    return Err(err(
                        node,
                        key,
                        format!("must be a string or a number, not {}", node.value.kind()),
                    ));
                }
            }
            "size" => size = Some(node),
            "lineHeight" => line_height = Some(node),
            "texture" => texture = Some(node),
            "glyphs" => glyphs = Some(node),
            _ => {
                return Err(err(
                    node,
                    &quoted(key),
                    "not a .btfont field (name, size, lineHeight, baseline, texture, glyphs)"
                        .into(),
                ))
            }
        }
    }
    let texture = match texture.map(|n| (n, &n.value)) {
        Some((n, Value::Text(t))) if !t.is_empty() => (n.at.line, t.clone()),
        Some((n, v)) => {
            return Err(err(
                n,
                "texture",
                format!("must be a file name or a data URI, not {}", v.kind()),
            ))
        }
        None => return Err(err(&root, "texture", "missing: the glyphs' picture".into())),
    };
    let line_height = match (line_height, size) {
        (Some(n), _) => whole(n, 1, MAX_GLYPH_EXTENT).map_err(|m| err(n, "lineHeight", m))?,
        (None, Some(n)) => match n.value {
            Value::Number(v) if v >= 0.5 && v < f64::from(MAX_GLYPH_EXTENT) => v.round() as i32,
            _ => {
                return Err(err(
                    n,
                    "size",
                    format!("must be a number from 1 to {MAX_GLYPH_EXTENT}"),
                ))
            }
        },
        (None, None) => DEFAULT_LINE_HEIGHT,
    };
    let Some(glyphs) = glyphs else {
        return Err(err(&root, "glyphs", "missing: the glyph map".into()));
    };
    let Value::Object(entries) = &glyphs.value else {
        return Err(err(
            glyphs,
            "glyphs",
            format!(
                "must be an object of characters, not {}",
                glyphs.value.kind()
            ),
        ));
    };
    if entries.len() > MAX_FONT_GLYPHS {
        return Err(err(
            glyphs,
            "glyphs",
            format!("more than {MAX_FONT_GLYPHS} glyphs"),
        ));
    }
    let mut out = Vec::with_capacity(entries.len());
    let mut codes: HashMap<u32, ()> = HashMap::new();
    for (key, node) in entries {
        let field = format!("glyphs.{}", quoted(key));
        let mut chars = key.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => c as u32,
            _ => return Err(err(node, &field, "a glyph's key is one character".into())),
        };
        if codes.insert(code, ()).is_some() {
            return Err(err(node, &field, "given twice".into()));
        }
        let Value::Object(parts) = &node.value else {
            return Err(err(
                node,
                &field,
                format!("must be an object, not {}", node.value.kind()),
            ));
        };
        let mut values = [None::<i32>; 7];
        for (name, part) in parts {
            let Some(i) = GLYPH_FIELDS.iter().position(|f| f == name) else {
                return Err(err(
                    part,
                    &format!("{field}.{}", quoted(name)),
                    "not a glyph field (x, y, w, h, ox, oy, adv)".into(),
                ));
            };
            let (lo, hi) = match name.as_str() {
                "w" => (0, MAX_GLYPH_WIDTH as i32),
                "ox" | "oy" => (-MAX_GLYPH_EXTENT, MAX_GLYPH_EXTENT),
                "x" | "y" => (0, i32::MAX),
                _ => (0, MAX_GLYPH_EXTENT),
            };
            let v = whole(part, lo, hi).map_err(|m| err(part, &format!("{field}.{name}"), m))?;
            if values[i].replace(v).is_some() {
                return Err(err(part, &format!("{field}.{name}"), "given twice".into()));
            }
        }
        if let Some(i) = values.iter().position(Option::is_none) {
            return Err(err(
                node,
                &format!("{field}.{}", GLYPH_FIELDS[i]),
                "missing".into(),
            ));
        }
        let [x, y, w, h, ox, oy, adv] = values.map(|v| v.unwrap_or(0));
        out.push(GlyphSpec {
            line: node.at.line,
            key: key.clone(),
            code,
            rect: [x as u32, y as u32, w as u32, h as u32],
            offset: (ox, oy),
            advance: adv,
        });
    }
    Ok(BtfontSpec {
        texture,
        line_height,
        glyphs: out,
    })
}

/// A whole number from `lo` to `hi`, or what is wrong with it.
fn whole(node: &Node, lo: i32, hi: i32) -> Result<i32, String> {
    match node.value {
        Value::Number(v) if v.fract() == 0.0 && v >= f64::from(lo) && v <= f64::from(hi) => {
            Ok(v as i32)
        }
        Value::Number(v) => Err(format!("{v} is not a whole number from {lo} to {hi}")),
        ref other => Err(format!("must be a number, not {}", other.kind())),
    }
}

impl BtfontSpec {
    /// The line of the `texture` field, for messages about it.
    pub(crate) fn texture_line(&self) -> usize {
        self.texture.0
    }

    /// The picture: a file beside the description, or the PNG of a data URI.
    ///
    /// # Errors
    /// A data URI that is not a base64 PNG, naming the file and the `texture` field.
    pub(crate) fn texture(&self, file: &str) -> Result<Texture<'_>, FontError> {
        let (line, texture) = (self.texture.0, self.texture.1.as_str());
        let Some(prefix) = texture.get(..5) else {
            return Ok(Texture::File(texture));
        };
        if !prefix.eq_ignore_ascii_case("data:") {
            return Ok(Texture::File(texture));
        }
        let err = |message: String| line_error(file, line, "texture", message);
        let payload = texture
            .get(..EMBEDDED_PNG.len())
            .filter(|p| p.eq_ignore_ascii_case(EMBEDDED_PNG))
            .map(|_| &texture[EMBEDDED_PNG.len()..])
            .ok_or_else(|| err(format!("an embedded picture must start {EMBEDDED_PNG}")))?;
        crate::base64::decode_base64(payload)
            .map(Texture::Embedded)
            .map_err(|(at, _)| err(format!("not base64: a bad character at offset {at}")))
    }

    /// Whether the glyphs' ink in the RGBA picture `rgba` (`width × height`) holds more than
    /// one colour: pixels at least half opaque, told apart by red, green and blue. Boxes
    /// reaching past the picture are skipped here and refused by [`BtfontSpec::build`].
    pub(crate) fn has_several_colors(&self, width: u32, height: u32, rgba: &[u8]) -> bool {
        let stride = width as usize;
        if rgba.len() != stride * height as usize * 4 {
            return false;
        }
        let mut first = None;
        for g in &self.glyphs {
            let [x, y, w, h] = g.rect;
            if u64::from(x) + u64::from(w) > u64::from(width)
                || u64::from(y) + u64::from(h) > u64::from(height)
            {
                continue;
            }
            for yy in y..y + h {
                let row = (yy as usize * stride + x as usize) * 4;
                for px in rgba[row..row + w as usize * 4].chunks_exact(4) {
                    if px[3] >= INK_ALPHA && *first.get_or_insert([px[0], px[1], px[2]]) != px[..3]
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The font, its glyphs cut from `picture`.
    pub(crate) fn build(self, file: &str, picture: Picture<'_>) -> Result<Font, FontError> {
        // Whether pixels are palette numbers, and whether the font is coloured whatever they hold.
        let (width, height, indexed, matched, pixels) = match picture {
            Picture::Rgba(w, h, p) => (w, h, false, false, p),
            Picture::Indexed(w, h, p) => (w, h, true, false, p),
            Picture::Matched(w, h, p) => (w, h, true, true, p),
        };
        let per = if indexed { 1 } else { 4 };
        let stride = width as usize;
        if stride
            .checked_mul(height as usize)
            .and_then(|n| n.checked_mul(per))
            != Some(pixels.len())
        {
            return Err(line_error(
                file,
                self.texture.0,
                "texture",
                format!(
                    "a {width}x{height} picture needs {} values, not {}",
                    u64::from(width) * u64::from(height) * per as u64,
                    pixels.len()
                ),
            ));
        }
        let color = |x: u32, y: u32| -> u8 {
            let at = y as usize * stride + x as usize;
            if indexed {
                pixels[at]
            } else {
                u8::from(pixels[at * 4 + 3] >= INK_ALPHA)
            }
        };
        // Glyph boxes inside the picture, and whether they hold more than one colour.
        let mut first_color = None;
        let mut colored = matched;
        for g in &self.glyphs {
            let [x, y, w, h] = g.rect;
            if u64::from(x) + u64::from(w) > u64::from(width)
                || u64::from(y) + u64::from(h) > u64::from(height)
            {
                return Err(line_error(
                    file,
                    g.line,
                    &format!("glyphs.{}", quoted(&g.key)),
                    format!(
                        "the box {w}x{h} at ({x}, {y}) reaches past the {width}x{height} picture"
                    ),
                ));
            }
            if indexed && !colored {
                for yy in y..y + h {
                    for xx in x..x + w {
                        let c = color(xx, yy);
                        if c != 0 && *first_color.get_or_insert(c) != c {
                            colored = true;
                        }
                    }
                }
            }
        }
        let mut out = FontBuilder::default();
        let (mut rows, mut colors) = (Vec::new(), Vec::new());
        for g in &self.glyphs {
            let [x, y, w, h] = g.rect;
            let field = || format!("glyphs.{}", quoted(&g.key));
            if out.rows_len() + h as usize > MAX_FONT_ROWS {
                return Err(line_error(
                    file,
                    g.line,
                    &field(),
                    format!("the glyphs pass {MAX_FONT_ROWS} rows in all"),
                ));
            }
            rows.clear();
            colors.clear();
            for yy in y..y + h {
                let mut bits = 0u64;
                for dx in 0..w {
                    let c = color(x + dx, yy);
                    if c != 0 {
                        bits |= 1 << dx;
                    }
                    colors.push(c);
                }
                rows.push(bits);
            }
            if colored {
                if out.colors_len() + colors.len() > MAX_FONT_COLOR_PIXELS {
                    return Err(line_error(
                        file,
                        g.line,
                        &field(),
                        format!("the glyphs pass {MAX_FONT_COLOR_PIXELS} pixels in all"),
                    ));
                }
                out.colored_glyph(g.code, g.offset, g.advance, (w, &rows), &colors);
            } else {
                out.glyph(g.code, g.offset, g.advance, w, &rows);
            }
        }
        Ok(out.finish(file, self.line_height, &[0xfffd]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TextStyle;

    /// Mutated files are read or refused with one line, never a panic, and fonts that load
    /// draw inside their limits.
    #[test]
    fn mutated_btfont_files_never_panic() {
        let good = r#"{"lineHeight": 5, "texture": "t.png", "glyphs": {
            "A": {"x": 0, "y": 0, "w": 3, "h": 3, "ox": 0, "oy": 1, "adv": 4},
            "B": {"x": 3, "y": 1, "w": 2, "h": 3, "ox": -1, "oy": 0, "adv": 3}}}"#;
        let pieces = [
            "0", "9", "-", "1024", "65", "\"", "{", "}", ",", ":", "\\u", "1e9", "x",
        ];
        let indexed: Vec<u8> = (0..24).map(|i| (i % 3) as u8).collect();
        let rgba: Vec<u8> = (0..96).map(|i| if i % 7 == 0 { 255 } else { 0 }).collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..4000 {
            let mut text = good.to_string();
            for _ in 0..1 + next(3) {
                let at = next(text.len());
                let at = (0..=at)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                if next(2) == 0 {
                    let end = (at + 1 + next(4)).min(text.len());
                    let end = (end..=text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(at);
                    text.replace_range(at..end, "");
                } else {
                    text.insert_str(at, pieces[next(pieces.len())]);
                }
            }
            let result = parse("m.btfont", &text).and_then(|spec| {
                let picture = match next(3) {
                    0 => Picture::Indexed(8, 3, &indexed),
                    1 => Picture::Matched(8, 3, &indexed),
                    _ => Picture::Rgba(8, 3, &rgba),
                };
                let _ = spec.has_several_colors(8, 3, &rgba);
                spec.build("m.btfont", picture)
            });
            match result {
                Ok(font) => {
                    let _ = font.measure("AB\nBA", TextStyle::new());
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }

    #[test]
    fn json_objects_are_told_from_other_font_files() {
        assert!(looks_like_json(b"\xef\xbb\xbf\n {\"glyphs\": {}}"));
        assert!(!looks_like_json(b"bt-font 1\n"));
        assert!(!looks_like_json(b"STARTFONT 2.1\n"));
    }
}
