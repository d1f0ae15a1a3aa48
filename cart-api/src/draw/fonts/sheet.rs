//! Sheet fonts: a picture of glyphs and a `bt-font 1` description of which character is
//! where. The description is read first ([`parse`]), so a loader can read the picture it
//! names; then the two make a font ([`SheetSpec::build`]).
//!
//! ```text
//! bt-font 1
//! image letters.png        # the picture, beside this file
//! grid 8 10                # cells of 8 x 10 px, row by row from the top-left corner
//! line 11                  # the line height (default: the cell height)
//! spacing 1                # pixels after each glyph's ink (default 1)
//! space 4                  # the advance of a space (default: half a cell)
//! chars 0 0 ABCDEFGHIJKLMNOP
//! chars 0 1 QRSTUVWXYZ.,!?
//! glyph é 80 10 6 12 advance=7 offset=0,-2
//! advance I 3
//! kern A V -1
//! ```
//!
//! See `docs/fonts.md` for every line.

use std::collections::HashMap;

use super::load::line_error;
use super::MAX_GLYPH_WIDTH;
use super::{Font, FontBuilder, FontError, MAX_FONT_GLYPHS, MAX_FONT_ROWS, MAX_GLYPH_EXTENT};
use crate::quote::quoted;

/// The first line of a sheet font's description (comments and blank lines aside).
pub(crate) const SHEET_HEADER: &str = "bt-font 1";

/// Pixels with at least this alpha are ink.
const INK_ALPHA: u8 = 128;

/// A glyph line of a description.
#[derive(Debug, Clone)]
enum Entry {
    /// `chars COL ROW TEXT`: characters in consecutive grid cells.
    Chars {
        line: usize,
        col: u32,
        row: u32,
        text: String,
    },
    /// `glyph CHAR X Y W H [advance=N] [offset=X,Y]`.
    Glyph {
        line: usize,
        code: u32,
        rect: [u32; 4],
        advance: Option<i32>,
        offset: (i32, i32),
    },
}

/// A description, read and checked, waiting for its picture.
#[derive(Debug, Clone)]
pub(crate) struct SheetSpec {
    image: (usize, String),
    line_height: Option<i32>,
    grid: Option<(usize, u32, u32)>,
    spacing: i32,
    space: Option<i32>,
    entries: Vec<Entry>,
    advances: Vec<(usize, u32, i32)>,
    kerning: Vec<(u32, u32, i32)>,
}

/// Whether `bytes` start like a sheet font description.
pub(crate) fn is_description(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    meaningful(text)
        .next()
        .is_some_and(|(_, l)| l.split_whitespace().collect::<Vec<_>>().join(" ") == SHEET_HEADER)
}

/// The lines that say something, numbered from 1: not blank, not comments.
fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A whole number from `lo` to `hi`.
fn number(word: Option<&str>, lo: i32, hi: i32) -> Result<i32, String> {
    let word = word.ok_or_else(|| "missing".to_string())?;
    let digits = word.strip_prefix('-').unwrap_or(word);
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a whole number", quoted(word)));
    }
    match word.parse::<i32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("{} is outside {lo} to {hi}", quoted(word))),
    }
}

/// A character: written as itself, or as `U+` and its code in hex (`U+00E9`, `U+20`).
fn character(word: Option<&str>) -> Result<u32, String> {
    let word = word.ok_or_else(|| "missing".to_string())?;
    let mut chars = word.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(c as u32);
    }
    let hex = word.strip_prefix("U+").or_else(|| word.strip_prefix("u+"));
    match hex {
        Some(h) if (1..=6).contains(&h.len()) && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            let code = u32::from_str_radix(h, 16).unwrap_or(u32::MAX);
            char::from_u32(code)
                .map(|c| c as u32)
                .ok_or_else(|| format!("{} is not a character", quoted(word)))
        }
        _ => Err(format!(
            "{} is not one character or U+ and a hex code (U+00E9)",
            quoted(word)
        )),
    }
}

/// Reads a description.
pub(crate) fn parse(file: &str, text: &str) -> Result<SheetSpec, FontError> {
    let mut lines = meaningful(text);
    let Some((first, header)) = lines.next() else {
        return Err(line_error(
            file,
            1,
            "header",
            format!("empty; the first line is '{SHEET_HEADER}'"),
        ));
    };
    if header.split_whitespace().collect::<Vec<_>>().join(" ") != SHEET_HEADER {
        return Err(line_error(
            file,
            first,
            "header",
            format!("{} is not '{SHEET_HEADER}'", quoted(header)),
        ));
    }
    let mut image: Option<(usize, String)> = None;
    let mut line_height = None;
    let mut grid = None;
    let mut spacing = None;
    let mut space = None;
    let mut entries = Vec::new();
    let mut advances = Vec::new();
    let mut kerning = Vec::new();
    let extent = MAX_GLYPH_EXTENT;
    for (line, text) in lines {
        let err = |field: &str, message: String| line_error(file, line, field, message);
        let mut words = text.split_whitespace();
        let keyword = words.next().unwrap_or("");
        let once = |seen: bool| {
            if seen {
                Err(err(keyword, "given twice".into()))
            } else {
                Ok(())
            }
        };
        match keyword {
            "image" => {
                once(image.is_some())?;
                let name = text[keyword.len()..].trim();
                if name.is_empty() {
                    return Err(err(keyword, "missing: the picture's file name".into()));
                }
                image = Some((line, name.to_string()));
            }
            "line" => {
                once(line_height.is_some())?;
                line_height = Some(number(words.next(), 1, extent).map_err(|m| err(keyword, m))?);
            }
            "grid" => {
                once(grid.is_some())?;
                let w = number(words.next(), 1, MAX_GLYPH_WIDTH as i32)
                    .map_err(|m| err(keyword, format!("width: {m}")))?;
                let h = number(words.next(), 1, extent)
                    .map_err(|m| err(keyword, format!("height: {m}")))?;
                grid = Some((line, w as u32, h as u32));
            }
            "spacing" => {
                once(spacing.is_some())?;
                spacing = Some(number(words.next(), -extent, extent).map_err(|m| err(keyword, m))?);
            }
            "space" => {
                once(space.is_some())?;
                space = Some(number(words.next(), 0, extent).map_err(|m| err(keyword, m))?);
            }
            "chars" => {
                let col = number(words.next(), 0, i32::MAX)
                    .map_err(|m| err(keyword, format!("column: {m}")))?;
                let row = number(words.next(), 0, i32::MAX)
                    .map_err(|m| err(keyword, format!("row: {m}")))?;
                let text = words
                    .next()
                    .ok_or_else(|| err(keyword, "missing: the characters".into()))?;
                if let Some(more) = words.next() {
                    return Err(err(
                        keyword,
                        format!(
                            "{} after the characters: they are one word (a space is given by \
                             'space')",
                            quoted(more)
                        ),
                    ));
                }
                entries.push(Entry::Chars {
                    line,
                    col: col as u32,
                    row: row as u32,
                    text: text.to_string(),
                });
            }
            "glyph" => {
                let code = character(words.next()).map_err(|m| err(keyword, m))?;
                let mut rect = [0u32; 4];
                for (v, what) in rect.iter_mut().zip(["x", "y", "width", "height"]) {
                    let hi = match what {
                        "width" => MAX_GLYPH_WIDTH as i32,
                        "height" => extent,
                        _ => i32::MAX,
                    };
                    *v = number(words.next(), 0, hi)
                        .map_err(|m| err(keyword, format!("{what}: {m}")))?
                        as u32;
                }
                let (mut advance, mut offset) = (None, (0, 0));
                for option in words.by_ref() {
                    match option.split_once('=') {
                        Some(("advance", v)) => {
                            advance = Some(
                                number(Some(v), -extent, extent).map_err(|m| err("advance", m))?,
                            )
                        }
                        Some(("offset", v)) => {
                            let (x, y) = v.split_once(',').ok_or_else(|| {
                                err("offset", format!("{} is not X,Y", quoted(v)))
                            })?;
                            offset = (
                                number(Some(x), -extent, extent).map_err(|m| err("offset", m))?,
                                number(Some(y), -extent, extent).map_err(|m| err("offset", m))?,
                            );
                        }
                        _ => {
                            return Err(err(
                                "option",
                                format!("{} is not advance=N or offset=X,Y", quoted(option)),
                            ))
                        }
                    }
                }
                entries.push(Entry::Glyph {
                    line,
                    code,
                    rect,
                    advance,
                    offset,
                });
            }
            "advance" => {
                let code = character(words.next()).map_err(|m| err(keyword, m))?;
                let n = number(words.next(), -extent, extent).map_err(|m| err(keyword, m))?;
                advances.push((line, code, n));
            }
            "kern" => {
                let left = character(words.next()).map_err(|m| err(keyword, m))?;
                let right = character(words.next()).map_err(|m| err(keyword, m))?;
                let n = number(words.next(), -extent, extent).map_err(|m| err(keyword, m))?;
                kerning.push((left, right, n));
            }
            _ => {
                return Err(err(
                    "line",
                    format!(
                        "{} is not image, grid, line, spacing, space, chars, glyph, advance or \
                         kern",
                        quoted(keyword)
                    ),
                ))
            }
        }
        if let Some(extra) = match keyword {
            "line" | "spacing" | "space" | "advance" | "kern" | "grid" => words.next(),
            _ => None,
        } {
            return Err(err(
                keyword,
                format!("{} is one word too many", quoted(extra)),
            ));
        }
    }
    let image = image.ok_or_else(|| {
        line_error(
            file,
            first,
            "image",
            "missing: no 'image' line names the picture".into(),
        )
    })?;
    if grid.is_none() {
        if let Some(Entry::Chars { line, .. }) =
            entries.iter().find(|e| matches!(e, Entry::Chars { .. }))
        {
            return Err(line_error(
                file,
                *line,
                "chars",
                "needs a 'grid' line".into(),
            ));
        }
    }
    Ok(SheetSpec {
        image,
        line_height,
        grid,
        spacing: spacing.unwrap_or(1),
        space,
        entries,
        advances,
        kerning,
    })
}

impl SheetSpec {
    /// The picture's file name, as the description gives it.
    pub(crate) fn image(&self) -> &str {
        &self.image.1
    }

    /// The font, its glyphs cut from the `width × height` RGBA picture `rgba`.
    pub(crate) fn build(
        self,
        file: &str,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<Font, FontError> {
        let (w, h) = (width as usize, height as usize);
        if w.checked_mul(h).and_then(|n| n.checked_mul(4)) != Some(rgba.len()) {
            return Err(line_error(
                file,
                self.image.0,
                "image",
                format!(
                    "a {width}x{height} picture needs {} bytes, not {}",
                    u64::from(width) * u64::from(height) * 4,
                    rgba.len()
                ),
            ));
        }
        let ink = |x: u32, y: u32| rgba[(y as usize * w + x as usize) * 4 + 3] >= INK_ALPHA;
        // The rows of the `cw × ch` box at (x, y), inside the picture.
        let cut = |x: u32, y: u32, cw: u32, ch: u32, rows: &mut Vec<u64>| {
            rows.clear();
            for dy in 0..ch {
                let mut bits = 0u64;
                for dx in 0..cw {
                    if ink(x + dx, y + dy) {
                        bits |= 1 << dx;
                    }
                }
                rows.push(bits);
            }
        };
        let mut out = FontBuilder::default();
        let mut defined: HashMap<u32, usize> = HashMap::new();
        let mut rows = Vec::new();
        let space = self.space.unwrap_or(match self.grid {
            Some((_, cw, _)) => cw.div_ceil(2) as i32,
            None => 3,
        });
        let mut add = |out: &mut FontBuilder,
                       line: usize,
                       field: &str,
                       code: u32,
                       at: (i32, i32),
                       advance: i32,
                       width: u32,
                       rows: &[u64]|
         -> Result<(), FontError> {
            let err = |message: String| line_error(file, line, field, message);
            if let Some(before) = defined.insert(code, line) {
                return Err(err(format!(
                    "U+{code:04X} has a glyph already (line {before})"
                )));
            }
            if out.len() == MAX_FONT_GLYPHS {
                return Err(err(format!("more than {MAX_FONT_GLYPHS} glyphs")));
            }
            if out.rows_len() + rows.len() > MAX_FONT_ROWS {
                return Err(err(format!("the glyphs pass {MAX_FONT_ROWS} rows in all")));
            }
            out.glyph(code, at, advance, width, rows);
            Ok(())
        };
        for entry in &self.entries {
            match entry {
                Entry::Chars {
                    line,
                    col,
                    row,
                    text,
                } => {
                    // Checked in `parse`: chars come with a grid.
                    let Some((_, cw, ch)) = self.grid else {
                        continue;
                    };
                    let (cols, grid_rows) = (width / cw, height / ch);
                    let first = u64::from(*row) * u64::from(cols) + u64::from(*col);
                    for (i, c) in text.chars().enumerate() {
                        let cell = first + i as u64;
                        if *col >= cols
                            || cols == 0
                            || cell >= u64::from(cols) * u64::from(grid_rows)
                        {
                            return Err(line_error(
                                file,
                                *line,
                                "chars",
                                format!(
                                    "{}'s cell is past the picture's {cols}x{grid_rows} cells of \
                                     {cw}x{ch} px",
                                    quoted(&c.to_string())
                                ),
                            ));
                        }
                        let (cx, cy) = (
                            (cell % u64::from(cols)) as u32,
                            (cell / u64::from(cols)) as u32,
                        );
                        cut(cx * cw, cy * ch, cw, ch, &mut rows);
                        let inked = rows.iter().fold(0u64, |a, &r| a | r);
                        let ink_width = 64 - inked.leading_zeros();
                        let advance = if ink_width == 0 {
                            space
                        } else {
                            ink_width as i32 + self.spacing
                        };
                        add(
                            &mut out,
                            *line,
                            "chars",
                            c as u32,
                            (0, 0),
                            advance,
                            ink_width,
                            &rows,
                        )?;
                    }
                }
                Entry::Glyph {
                    line,
                    code,
                    rect: [x, y, gw, gh],
                    advance,
                    offset,
                } => {
                    if u64::from(*x) + u64::from(*gw) > u64::from(width)
                        || u64::from(*y) + u64::from(*gh) > u64::from(height)
                    {
                        return Err(line_error(
                            file,
                            *line,
                            "glyph",
                            format!(
                                "the box {gw}x{gh} at ({x}, {y}) reaches past the {width}x{height} \
                                 picture"
                            ),
                        ));
                    }
                    cut(*x, *y, *gw, *gh, &mut rows);
                    let advance = advance.unwrap_or(*gw as i32 + self.spacing);
                    add(
                        &mut out, *line, "glyph", *code, *offset, advance, *gw, &rows,
                    )?;
                }
            }
        }
        for &(line, code, n) in &self.advances {
            if !out.set_advance(code, n) {
                return Err(line_error(
                    file,
                    line,
                    "advance",
                    format!("U+{code:04X} has no glyph (give it one with chars or glyph first)"),
                ));
            }
        }
        if !out.has(u32::from(' ')) {
            out.glyph(u32::from(' '), (0, 0), space, 0, &[]);
        }
        for &(left, right, n) in &self.kerning {
            out.kern(left, right, n);
        }
        let line_height = self
            .line_height
            .or(self.grid.map(|(_, _, ch)| ch as i32))
            .unwrap_or_else(|| out.tallest());
        Ok(out.finish(file, line_height, &[0xfffd, u32::from('?')]))
    }
}
