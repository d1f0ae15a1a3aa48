//! Fonts: the [`Font`] type, the two built-in fonts, the font files BT reads (BDF and sheet
//! fonts), and text laid out with one (measured, wrapped, aligned, scaled).
//!
//! | file | its job |
//! | --- | --- |
//! | `mod.rs` | [`Font`]: glyphs by character, kerning, measuring |
//! | `builtin.rs` | the system font and the small font as [`Font`]s, built when BT compiles |
//! | `art.rs`, `latin1.rs`, `boxes.rs`, `symbols.rs`, `small.rs` | the built-in glyphs beyond the system font's ASCII |
//! | `layout.rs` | [`TextStyle`], [`Align`] and how text breaks into lines |
//! | `draw.rs` | drawing text with a font into the framebuffer |
//! | `render.rs` | `print_font` and `print_styled`, what `render` calls |
//! | `bdf.rs` | reading BDF font files |
//! | `sheet.rs` | reading sheet fonts: a picture of glyphs and a `bt-font 1` description |
//! | `btfont.rs` | reading BLIT386's `.btfont` fonts: JSON and a picture, coloured or not |
//! | `load.rs` | what carts call to load fonts, and [`FontError`] |
//! | `tests.rs` | the built-in fonts, layout and drawing, tested together |

mod art;
mod bdf;
pub(crate) mod boxes;
mod btfont;
mod builtin;
mod draw;
pub(crate) mod latin1;
mod layout;
mod load;
mod render;
mod sheet;
mod small;
pub(crate) mod symbols;

use std::borrow::Cow;

use layout::Lines;
pub use layout::{Align, TextStyle, MAX_TEXT_SCALE};
pub use load::FontError;

/// The most glyphs a font file may hold: a whole Unicode plane.
pub const MAX_FONT_GLYPHS: usize = 65_536;
/// The widest glyph a font may have, in pixels: a glyph row is one 64-bit word.
pub const MAX_GLYPH_WIDTH: u32 = 64;
/// The tallest glyph, the largest offset and advance and the tallest line a font may have,
/// in pixels: far beyond any pixel font, small enough that no sum of them overflows.
pub const MAX_GLYPH_EXTENT: i32 = 1024;
/// The most pixel colours a coloured font may keep for its glyphs in all (16 MiB of them), for
/// the same reason as [`MAX_FONT_ROWS`].
pub(crate) const MAX_FONT_COLOR_PIXELS: usize = 1 << 24;
/// The most rows a font's glyphs may have in all (16 MiB of them): a bound on the memory a
/// font file can ask for, far past any real font.
pub(crate) const MAX_FONT_ROWS: usize = 1 << 21;

/// One glyph: where its rows are in the font's bits, its size, where it is drawn from the pen
/// (the left edge of the character, the top of the line) and how far the pen moves after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Glyph {
    /// The character, as a code point.
    pub(crate) code: u32,
    /// Index of its first row in [`Font::rows`].
    pub(crate) start: u32,
    /// Width in pixels, at most [`MAX_GLYPH_WIDTH`]: bit `x` of a row is column `x`.
    pub(crate) width: u8,
    /// Rows.
    pub(crate) height: u32,
    /// From the pen to the bitmap's left edge.
    pub(crate) x: i32,
    /// From the top of the line to the bitmap's top row.
    pub(crate) y: i32,
    /// How far the pen moves after the glyph.
    pub(crate) advance: i32,
    /// In a coloured font, index of its first pixel's colour in [`Font::colors`] (row by row,
    /// `width` a row); 0 in a one-colour font.
    pub(crate) pixels: u32,
}

/// A kerning pair: between `left` and `right` the pen moves `amount` more (less when negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kern {
    pub(crate) left: u32,
    pub(crate) right: u32,
    pub(crate) amount: i32,
}

/// A bitmap font: a one-colour picture for each character it has, how far each moves the pen
/// (so a font may be proportional), kerning pairs, and a line height.
///
/// BT has two built in, [`Font::system`] (the 6 x 14 font of [`Render::print`]) and
/// [`Font::small`] (3 x 5 glyphs on a 4 x 6 cell, PICO-8's size); a cart loads others from BDF
/// files, from a picture of glyphs or from BLIT386's `.btfont` files ([`Update::load_font`]).
/// A glyph's pixels are ink or not; text is drawn in the colour the print call names, through
/// the draw-time remap, except in a coloured font ([`Font::is_colored`]), whose pixels keep
/// their own palette indices. A
/// character a font lacks draws as its fallback glyph: the one a BDF file names
/// (`DEFAULT_CHAR`), else U+FFFD, else `?`; a font with none of them skips the character.
///
/// ```
/// use bt::{Font, TextStyle};
///
/// let font = Font::system();
/// let plain = TextStyle::new();
/// assert_eq!(font.measure("Hi!\nthere", plain), (30, 28));
/// assert!(font.has_glyph('é') && font.has_glyph('╬'));
/// assert_eq!(Font::small().measure("SCORE 100", plain), (36, 6));
/// ```
///
/// [`Render::print`]: crate::Render::print
/// [`Update::load_font`]: crate::Update::load_font
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Font {
    name: Cow<'static, str>,
    line_height: i32,
    /// Sorted by code point.
    glyphs: Cow<'static, [Glyph]>,
    /// Every glyph's rows, one after another.
    rows: Cow<'static, [u64]>,
    /// Sorted by (left, right).
    kerning: Cow<'static, [Kern]>,
    /// Index in `glyphs` of the glyph drawn for characters the font lacks.
    fallback: Option<u32>,
    /// A coloured font's glyph pixels as palette indices (0 where a glyph has no ink); empty
    /// in a one-colour font.
    colors: Cow<'static, [u8]>,
}

impl Font {
    /// The system font, which [`Render::print`](crate::Render::print) draws with: 6 px a
    /// character, 14 px a line, ASCII, Latin-1 (U+00A0 to U+00FF), the Greek capitals, box
    /// drawing (U+2500 to U+257F), block elements (U+2580 to U+259F) and the symbols of
    /// BLIT386's system font (dashes, `…`, arrows, notes, icons). Others draw as a hollow box
    /// (U+FFFD).
    pub fn system() -> &'static Font {
        &builtin::SYSTEM
    }

    /// The small font: 3 x 5 glyphs in a 4 x 6 cell (4 px a character, 6 px a line), PICO-8's
    /// size, for printable ASCII. It has one case: small letters draw as capitals. Others
    /// draw as a hatched box.
    pub fn small() -> &'static Font {
        &builtin::SMALL
    }

    /// Reads a BDF font (the text format of X11's bitmap fonts, which Pyxel and most pixel
    /// fonts ship in) from `bytes`; `name` is used in errors. See `docs/fonts.md` for what of
    /// the format is read.
    ///
    /// # Errors
    /// [`FontError::Line`] naming `name`, the line and the field at fault: not a BDF file, a
    /// missing or malformed value, a glyph too large ([`MAX_GLYPH_WIDTH`],
    /// [`MAX_GLYPH_EXTENT`]), too many glyphs ([`MAX_FONT_GLYPHS`]), a character given twice.
    pub fn from_bdf(name: &str, bytes: &[u8]) -> Result<Font, FontError> {
        bdf::parse(name, bytes)
    }

    /// Makes a sheet font from its `bt-font 1` description and its picture, `width × height`
    /// pixels of R, G, B, A bytes (as a host's image loader decodes them); `name` is used in
    /// errors. Pixels at least half opaque are ink. See `docs/fonts.md` for the format.
    ///
    /// ```
    /// use bt::{Font, TextStyle};
    ///
    /// // A 4 x 2 picture: an "I" one pixel wide and a "-" three pixels wide, on one row of
    /// // 2 x 2 cells.
    /// let ink = [255, 255, 255, 255];
    /// let none = [0, 0, 0, 0];
    /// let rgba = [ink, none, ink, ink, ink, none, none, none].concat();
    /// let text = "bt-font 1\nimage tiny.png\ngrid 2 2\nchars 0 0 I-\nkern I - -1\n";
    /// let font = Font::from_sheet("tiny.txt", text, 4, 2, &rgba)?;
    /// assert_eq!(font.advance('I'), 2, "one pixel of ink and one of spacing");
    /// assert_eq!(font.advance('-'), 3);
    /// assert_eq!(font.measure("I-", TextStyle::new()), (4, 2), "kerned one pixel closer");
    /// # Ok::<(), bt::FontError>(())
    /// ```
    ///
    /// # Errors
    /// [`FontError::Line`] naming `name`, the line and the field at fault; a glyph outside the
    /// picture or a picture whose size does not match `rgba` is reported too.
    pub fn from_sheet(
        name: &str,
        description: &str,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<Font, FontError> {
        sheet::parse(name, description)?.build(name, width, height, rgba)
    }

    /// Whether the font is coloured: its glyphs keep the palette indices of their pixels (a
    /// `.btfont` font whose picture has glyphs of more than one colour, or one loaded with
    /// [`Update::load_font_matched`](crate::Update::load_font_matched)), and print in
    /// those colours unless a [`TextStyle::tint`] asks for one colour. A one-colour font
    /// prints in the colour the print call names.
    ///
    /// ```
    /// use bt::Font;
    ///
    /// assert!(!Font::system().is_colored() && !Font::small().is_colored());
    /// ```
    pub fn is_colored(&self) -> bool {
        !self.colors.is_empty()
    }

    /// What the font is called: `system`, `small`, or the name it was loaded under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The distance from one line's top to the next one's, in pixels.
    pub fn line_height(&self) -> i32 {
        self.line_height
    }

    /// Whether the font has a glyph of its own for `c` (not its fallback).
    pub fn has_glyph(&self, c: char) -> bool {
        self.find(c as u32).is_some()
    }

    /// The characters the font has glyphs for, in code-point order.
    pub fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.glyphs.iter().filter_map(|g| char::from_u32(g.code))
    }

    /// How far the pen moves after `c`: its glyph's advance, the fallback's when the font
    /// lacks it, 0 when it has no fallback either.
    pub fn advance(&self, c: char) -> i32 {
        self.glyph(c).map_or(0, |g| g.advance)
    }

    /// The kerning between `left` and `right`: how much farther (or, negative, nearer) `right`
    /// is drawn when it follows `left`. 0 for pairs the font does not kern.
    pub fn kerning(&self, left: char, right: char) -> i32 {
        self.kern(left as u32, right as u32)
    }

    /// The size text covers printed in this font with `style` (`TextStyle::new()` for
    /// [`Render::print`](crate::Render::print) and
    /// [`Render::print_font`](crate::Render::print_font), which neither wrap nor scale): the
    /// widest line after wrapping (the sum of its advances and kerning), by the line height
    /// times the lines, both times the scale. Empty text measures `(0, 0)`; each `\n` starts
    /// a line; alignment does not change the size. Saturates rather than overflowing. This is
    /// the one measure of text, for every font and every print call.
    ///
    /// ```
    /// use bt::{Font, TextStyle};
    ///
    /// let plain = TextStyle::new();
    /// assert_eq!(Font::system().measure("hi\nthere", plain), (30, 28));
    /// assert_eq!(Font::system().measure("hi", plain.scale(2)), (24, 28));
    /// ```
    pub fn measure(&self, text: &str, style: TextStyle) -> (u32, u32) {
        if text.is_empty() {
            return (0, 0);
        }
        let (mut widest, mut lines) = (0i64, 0i64);
        for line in self.lines(text, style) {
            widest = widest.max(self.line_width(line));
            lines += 1;
        }
        let scale = i64::from(style.scale_factor());
        let clamp = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
        (
            clamp(widest.saturating_mul(scale)),
            clamp(
                lines
                    .saturating_mul(i64::from(self.line_height))
                    .saturating_mul(scale),
            ),
        )
    }

    /// The lines `text` breaks into printed with `style`: at each `\n`, and where a line
    /// would pass the style's wrap width, at the last space before it (the spaces dropped) or,
    /// in a word wider than the whole width, before the character that does not fit.
    ///
    /// ```
    /// use bt::{Font, TextStyle};
    ///
    /// let lines: Vec<&str> = Font::system()
    ///     .lines("the quick brown fox", TextStyle::new().wrap(60))
    ///     .collect();
    /// assert_eq!(lines, ["the quick", "brown fox"]);
    /// ```
    pub fn lines<'f, 't>(
        &'f self,
        text: &'t str,
        style: TextStyle,
    ) -> impl Iterator<Item = &'t str> + use<'f, 't> {
        Lines::new(self, text, style)
    }

    /// The width of one line (no `\n`), unscaled: advances and kerning.
    pub(crate) fn line_width(&self, line: &str) -> i64 {
        let mut prev = None;
        let mut width = 0i64;
        for c in line.chars() {
            width += i64::from(self.step(prev, c));
            prev = Some(c);
        }
        width
    }

    /// How far the pen moves for `c` after `prev`: kerning and advance.
    #[inline]
    pub(crate) fn step(&self, prev: Option<char>, c: char) -> i32 {
        let kern = match prev {
            Some(p) if self.has_kerning() => self.kern(p as u32, c as u32),
            _ => 0,
        };
        kern + self.advance(c)
    }

    /// Whether the font kerns any pair at all (the built-in fonts do not).
    #[inline]
    pub(crate) fn has_kerning(&self) -> bool {
        !self.kerning.is_empty()
    }

    fn kern(&self, left: u32, right: u32) -> i32 {
        self.kerning
            .binary_search_by(|k| (k.left, k.right).cmp(&(left, right)))
            .map_or(0, |i| self.kerning[i].amount)
    }

    fn find(&self, code: u32) -> Option<&Glyph> {
        // Fonts start with a run of consecutive characters (the built-in ones with all of
        // printable ASCII), where a glyph's index is its distance from the first: most text
        // finds its glyph there without a search.
        let first = self.glyphs.first()?.code;
        if let Some(g) = code
            .checked_sub(first)
            .and_then(|i| self.glyphs.get(i as usize))
            .filter(|g| g.code == code)
        {
            return Some(g);
        }
        self.glyphs
            .binary_search_by_key(&code, |g| g.code)
            .ok()
            .map(|i| &self.glyphs[i])
    }

    /// The glyph drawn for `c`: its own or the fallback.
    #[inline]
    pub(crate) fn glyph(&self, c: char) -> Option<&Glyph> {
        self.find(c as u32)
            .or_else(|| self.fallback.map(|i| &self.glyphs[i as usize]))
    }

    /// The palette indices of `glyph`'s pixels, row by row, in a coloured font; empty in a
    /// one-colour font.
    #[inline]
    pub(crate) fn colors_of(&self, glyph: &Glyph) -> &[u8] {
        let start = glyph.pixels as usize;
        let len = glyph.width as usize * glyph.height as usize;
        self.colors.get(start..start + len).unwrap_or(&[])
    }

    /// The rows of `glyph`, one 64-bit word each.
    #[inline]
    pub(crate) fn rows_of(&self, glyph: &Glyph) -> &[u64] {
        let start = glyph.start as usize;
        self.rows
            .get(start..start + glyph.height as usize)
            .unwrap_or(&[])
    }
}

/// Glyphs gathered by a font reader, made into a [`Font`] by [`FontBuilder::finish`].
#[derive(Debug, Default)]
pub(crate) struct FontBuilder {
    glyphs: Vec<Glyph>,
    rows: Vec<u64>,
    kerning: Vec<Kern>,
    /// Pixel colours of coloured glyphs ([`FontBuilder::colored_glyph`]).
    colors: Vec<u8>,
}

impl FontBuilder {
    /// Adds a glyph; the reader has checked its sizes against the limits and that its
    /// character is new. `y` is from the top of the line, or for [`Self::place_on_baseline`]
    /// the height of the glyph's top above the baseline.
    pub(crate) fn glyph(
        &mut self,
        code: u32,
        (x, y): (i32, i32),
        advance: i32,
        width: u32,
        rows: &[u64],
    ) {
        self.glyphs.push(Glyph {
            code,
            start: self.rows.len() as u32,
            width: width.min(MAX_GLYPH_WIDTH) as u8,
            height: rows.len() as u32,
            x,
            y,
            advance,
            pixels: 0,
        });
        self.rows.extend_from_slice(rows);
    }

    /// Adds a glyph as [`Self::glyph`] does, with its pixels' palette indices, `width` a row
    /// (the reader has checked there are `width × rows` of them). A font with any such glyph
    /// is coloured; its other glyphs draw with no colour (index 0, nothing).
    pub(crate) fn colored_glyph(
        &mut self,
        code: u32,
        at: (i32, i32),
        advance: i32,
        (width, rows): (u32, &[u64]),
        colors: &[u8],
    ) {
        let start = self.colors.len() as u32;
        self.glyph(code, at, advance, width, rows);
        if let Some(g) = self.glyphs.last_mut() {
            g.pixels = start;
        }
        self.colors.extend_from_slice(colors);
    }

    /// Pixel colours of all coloured glyphs so far.
    pub(crate) fn colors_len(&self) -> usize {
        self.colors.len()
    }

    /// Sets the advance of the glyph for `code`; `false` when there is none.
    pub(crate) fn set_advance(&mut self, code: u32, advance: i32) -> bool {
        match self.glyphs.iter_mut().find(|g| g.code == code) {
            Some(g) => {
                g.advance = advance;
                true
            }
            None => false,
        }
    }

    /// The lowest bottom edge of any glyph below the line's top, at least 1.
    pub(crate) fn tallest(&self) -> i32 {
        self.glyphs
            .iter()
            .map(|g| g.y.saturating_add(g.height as i32))
            .max()
            .unwrap_or(1)
            .clamp(1, MAX_GLYPH_EXTENT)
    }

    /// Rows of all glyphs so far.
    pub(crate) fn rows_len(&self) -> usize {
        self.rows.len()
    }

    /// Turns every glyph's `y` from the height of its top above the baseline into the
    /// distance from the top of a line whose baseline is `ascent` below it.
    pub(crate) fn place_on_baseline(&mut self, ascent: i32) {
        for g in &mut self.glyphs {
            g.y = ascent - g.y;
        }
    }

    /// Adds a kerning pair; a later pair for the same characters replaces an earlier one.
    pub(crate) fn kern(&mut self, left: u32, right: u32, amount: i32) {
        self.kerning.push(Kern {
            left,
            right,
            amount,
        });
    }

    /// Whether a glyph for `code` was added.
    pub(crate) fn has(&self, code: u32) -> bool {
        self.glyphs.iter().any(|g| g.code == code)
    }

    /// How many glyphs were added.
    pub(crate) fn len(&self) -> usize {
        self.glyphs.len()
    }

    /// The font, its fallback the first of `fallbacks` it has.
    pub(crate) fn finish(mut self, name: &str, line_height: i32, fallbacks: &[u32]) -> Font {
        self.glyphs.sort_by_key(|g| g.code);
        // Stable: of pairs given twice, the later stays last, and wins below.
        self.kerning.sort_by_key(|k| (k.left, k.right));
        let mut kerning: Vec<Kern> = Vec::with_capacity(self.kerning.len());
        for k in self.kerning {
            match kerning.last_mut() {
                Some(last) if (last.left, last.right) == (k.left, k.right) => *last = k,
                _ => kerning.push(k),
            }
        }
        let fallback = fallbacks.iter().find_map(|&code| {
            self.glyphs
                .binary_search_by_key(&code, |g| g.code)
                .ok()
                .map(|i| i as u32)
        });
        Font {
            name: Cow::Owned(name.to_string()),
            line_height: line_height.clamp(1, MAX_GLYPH_EXTENT),
            glyphs: Cow::Owned(self.glyphs),
            rows: Cow::Owned(self.rows),
            kerning: Cow::Owned(kerning),
            fallback,
            colors: Cow::Owned(self.colors),
        }
    }
}

#[cfg(test)]
mod tests;
