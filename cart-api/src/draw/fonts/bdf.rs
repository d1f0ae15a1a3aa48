//! Reading BDF fonts (Glyph Bitmap Distribution Format, the text format of X11's bitmap
//! fonts): the font's bounding box and ascent and descent, then for each glyph its encoding,
//! advance (`DWIDTH`), box (`BBX`) and rows of hex.
//!
//! What is read: `STARTFONT`, `FONTBOUNDINGBOX`, the properties `FONT_ASCENT`, `FONT_DESCENT`
//! and `DEFAULT_CHAR`, `CHARS`, and per glyph `STARTCHAR`, `ENCODING`, `DWIDTH`, `BBX`,
//! `BITMAP` and `ENDCHAR`, up to `ENDFONT`. Other lines (`COMMENT`, `SWIDTH`, other
//! properties) are skipped. Glyphs with no Unicode encoding (`ENCODING -1`) are skipped.

use super::load::line_error;
use super::{
    Font, FontBuilder, FontError, MAX_FONT_GLYPHS, MAX_FONT_ROWS, MAX_GLYPH_EXTENT, MAX_GLYPH_WIDTH,
};
use crate::quote::quoted;

/// A glyph being read: what its lines have said so far.
struct Draft {
    /// The line of its `STARTCHAR`.
    line: usize,
    encoding: Option<i64>,
    dwidth: Option<i32>,
    bbx: Option<[i32; 4]>,
}

/// A whole number of at most [`MAX_GLYPH_EXTENT`] either way.
fn number(word: Option<&str>) -> Result<i32, String> {
    let word = word.ok_or_else(|| "missing".to_string())?;
    let digits = word.strip_prefix('-').unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a whole number", quoted(word)));
    }
    match word.parse::<i32>() {
        Ok(n) if (-MAX_GLYPH_EXTENT..=MAX_GLYPH_EXTENT).contains(&n) => Ok(n),
        _ => Err(format!(
            "{} is outside -{MAX_GLYPH_EXTENT} to {MAX_GLYPH_EXTENT}",
            quoted(word)
        )),
    }
}

/// A count or code: a whole number of no more than 10 digits.
fn count(word: Option<&str>) -> Result<i64, String> {
    let word = word.ok_or_else(|| "missing".to_string())?;
    let digits = word.strip_prefix('-').unwrap_or(word);
    if digits.is_empty() || digits.len() > 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a whole number", quoted(word)));
    }
    word.parse::<i64>()
        .map_err(|_| format!("{} is not a whole number", quoted(word)))
}

/// A row of a glyph of `width` pixels from its hex digits: the first pixel is the high bit
/// of the first byte. Digits past those the width needs are allowed (some files pad rows).
fn hex_row(word: &str, width: u32) -> Result<u64, String> {
    let needed = width.div_ceil(8) as usize * 2;
    if word.len() < needed || !word.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "{} is not a row of {needed} hex digits",
            quoted(word)
        ));
    }
    let mut row = 0u64;
    for x in 0..width as usize {
        let digit = word.as_bytes()[x / 4];
        let value = (digit as char).to_digit(16).unwrap_or(0);
        if value & (8 >> (x % 4)) != 0 {
            row |= 1 << x;
        }
    }
    Ok(row)
}

/// Reads a BDF font.
pub(crate) fn parse(file: &str, bytes: &[u8]) -> Result<Font, FontError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    // The last line's `\n` ends it; it does not start another.
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut lines = bytes
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l.strip_suffix(b"\r").unwrap_or(l)))
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let mut started = false;
    let mut bounds: Option<[i32; 4]> = None;
    let (mut ascent, mut descent): (Option<i32>, Option<i32>) = (None, None);
    let mut default_char: Option<u32> = None;
    let mut in_properties = false;
    let mut draft: Option<Draft> = None;
    let mut out = FontBuilder::default();
    let mut last = 0;
    let mut rows: Vec<u64> = Vec::new();
    while let Some((line, text)) = lines.next() {
        last = line;
        let err = |field: &str, message: String| line_error(file, line, field, message);
        let mut words = text.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        if !started {
            if keyword != "STARTFONT" {
                return Err(err(
                    "STARTFONT",
                    format!(
                        "not a BDF font: it starts {} where STARTFONT should be",
                        quoted(keyword)
                    ),
                ));
            }
            started = true;
            continue;
        }
        if in_properties {
            match keyword {
                "ENDPROPERTIES" => in_properties = false,
                "FONT_ASCENT" => ascent = Some(number(words.next()).map_err(|m| err(keyword, m))?),
                "FONT_DESCENT" => {
                    descent = Some(number(words.next()).map_err(|m| err(keyword, m))?)
                }
                "DEFAULT_CHAR" => {
                    let code = count(words.next()).map_err(|m| err(keyword, m))?;
                    default_char = u32::try_from(code).ok();
                }
                _ => {}
            }
            continue;
        }
        match keyword {
            "FONTBOUNDINGBOX" => {
                let mut b = [0; 4];
                for v in &mut b {
                    *v = number(words.next()).map_err(|m| err(keyword, m))?;
                }
                bounds = Some(b);
            }
            "STARTPROPERTIES" => in_properties = true,
            "CHARS" => {
                let n = count(words.next()).map_err(|m| err(keyword, m))?;
                if !(0..=MAX_FONT_GLYPHS as i64).contains(&n) {
                    return Err(err(
                        keyword,
                        format!("{n} glyphs; a font holds at most {MAX_FONT_GLYPHS}"),
                    ));
                }
            }
            "STARTCHAR" => {
                if let Some(open) = &draft {
                    return Err(err(
                        keyword,
                        format!("the glyph started on line {} has no ENDCHAR", open.line),
                    ));
                }
                draft = Some(Draft {
                    line,
                    encoding: None,
                    dwidth: None,
                    bbx: None,
                });
            }
            "ENCODING" | "DWIDTH" | "BBX" | "BITMAP" | "ENDCHAR" => {
                let Some(glyph) = draft.as_mut() else {
                    return Err(err(
                        keyword,
                        "outside a glyph (no STARTCHAR before it)".into(),
                    ));
                };
                match keyword {
                    "ENCODING" => {
                        glyph.encoding = Some(count(words.next()).map_err(|m| err(keyword, m))?)
                    }
                    "DWIDTH" => {
                        let advance = number(words.next()).map_err(|m| err(keyword, m))?;
                        glyph.dwidth = Some(advance);
                    }
                    "BBX" => {
                        let mut b = [0; 4];
                        for v in &mut b {
                            *v = number(words.next()).map_err(|m| err(keyword, m))?;
                        }
                        if !(0..=MAX_GLYPH_WIDTH as i32).contains(&b[0]) || b[1] < 0 {
                            return Err(err(
                                keyword,
                                format!(
                                    "a glyph of {}x{} px; glyphs are at most {MAX_GLYPH_WIDTH} \
                                     px wide and {MAX_GLYPH_EXTENT} tall",
                                    b[0], b[1]
                                ),
                            ));
                        }
                        glyph.bbx = Some(b);
                    }
                    "BITMAP" => {
                        let Some([w, h, ..]) = glyph.bbx.or(bounds) else {
                            return Err(err(
                                keyword,
                                "no BBX before it (nor a FONTBOUNDINGBOX)".into(),
                            ));
                        };
                        let (w, h) = (w.clamp(0, 64) as u32, h.max(0) as usize);
                        rows.clear();
                        for _ in 0..h {
                            let Some((row_line, row)) = lines.next() else {
                                return Err(line_error(
                                    file,
                                    last + 1,
                                    "BITMAP",
                                    format!("the file ends inside the {h} rows of a glyph"),
                                ));
                            };
                            last = row_line;
                            let word = row.split_whitespace().next().unwrap_or("");
                            let bits = hex_row(word, w)
                                .map_err(|m| line_error(file, row_line, "BITMAP", m))?;
                            rows.push(bits);
                        }
                    }
                    _ => {
                        // ENDCHAR: the glyph is whole.
                        let glyph = draft.take().expect("a glyph is open here");
                        let Some(code) = glyph.encoding else {
                            return Err(err(
                                "ENCODING",
                                format!("the glyph started on line {} has none", glyph.line),
                            ));
                        };
                        let Some([w, h, bx, by]) = glyph.bbx.or(bounds) else {
                            return Err(err(
                                "BBX",
                                format!("the glyph started on line {} has none", glyph.line),
                            ));
                        };
                        if rows.len() != h.max(0) as usize {
                            return Err(err(
                                "BITMAP",
                                format!(
                                    "the glyph started on line {} has {} rows of its {h}",
                                    glyph.line,
                                    rows.len()
                                ),
                            ));
                        }
                        // Codes no character has (unencoded glyphs, surrogates) are skipped.
                        let Some(c) = u32::try_from(code).ok().and_then(char::from_u32) else {
                            rows.clear();
                            continue;
                        };
                        if out.has(c as u32) {
                            return Err(err(
                                "ENCODING",
                                format!("U+{:04X} has a glyph already", c as u32),
                            ));
                        }
                        if out.len() == MAX_FONT_GLYPHS {
                            return Err(err(
                                "ENDCHAR",
                                format!("more than {MAX_FONT_GLYPHS} glyphs"),
                            ));
                        }
                        if out.rows_len() + rows.len() > MAX_FONT_ROWS {
                            return Err(err(
                                "BITMAP",
                                format!("the glyphs pass {MAX_FONT_ROWS} rows in all"),
                            ));
                        }
                        let advance = glyph.dwidth.unwrap_or(w + bx.max(0));
                        // Placed later, once the ascent is known: y holds the bottom's height
                        // above the baseline for now.
                        out.glyph(c as u32, (bx, by + h), advance, w as u32, &rows);
                        rows.clear();
                    }
                }
            }
            "ENDFONT" => {
                if let Some(open) = &draft {
                    return Err(err(
                        keyword,
                        format!("the glyph started on line {} has no ENDCHAR", open.line),
                    ));
                }
                let bounds = bounds;
                let ascent = ascent.or(bounds.map(|b| b[1] + b[3])).ok_or_else(|| {
                    err(
                        "FONT_ASCENT",
                        "missing, and no FONTBOUNDINGBOX to take it from".into(),
                    )
                })?;
                let descent = descent.or(bounds.map(|b| -b[3])).unwrap_or(0);
                let height = ascent + descent;
                if !(1..=MAX_GLYPH_EXTENT).contains(&height) {
                    return Err(err(
                        "FONT_ASCENT",
                        format!(
                            "ascent {ascent} and descent {descent} make a line {height} px tall; \
                             it must be 1 to {MAX_GLYPH_EXTENT}"
                        ),
                    ));
                }
                out.place_on_baseline(ascent);
                let mut fallbacks = Vec::with_capacity(3);
                fallbacks.extend(default_char);
                fallbacks.extend([0xfffd, u32::from('?')]);
                return Ok(out.finish(file, height, &fallbacks));
            }
            _ => {}
        }
    }
    if !started {
        return Err(line_error(
            file,
            1,
            "STARTFONT",
            "not a BDF font: the file is empty".into(),
        ));
    }
    Err(line_error(
        file,
        last + 1,
        "ENDFONT",
        "missing: the file ends before it".into(),
    ))
}
