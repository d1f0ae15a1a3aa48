//! How text is laid out with a font: [`TextStyle`] (wrap width, alignment, scale) and the
//! lines text breaks into. Whole pixels throughout, so the same text lands on the same pixels
//! on every machine.

use super::Font;

/// The largest [`TextStyle::scale`]: 64 times is a 14-px line 896 px tall, past any display.
pub const MAX_TEXT_SCALE: u32 = 64;

/// Where each line sits across the width text is laid out in: the wrap width when there is
/// one, else the widest line's width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Align {
    /// Lines start at the left edge.
    #[default]
    Left,
    /// Lines are centred, any odd pixel left of centre.
    Center,
    /// Lines end at the right edge.
    Right,
}

/// How [`Render::print_styled`](crate::Render::print_styled) lays text out: the width lines
/// wrap at, how they align, and a whole-number scale. The default is no wrapping, left
/// alignment and scale 1, which is how [`Render::print_font`](crate::Render::print_font)
/// prints.
///
/// ```
/// use bt::{Align, Font, TextStyle};
///
/// let style = TextStyle::new().wrap(100).align(Align::Center).scale(2);
/// // At scale 2 the 100 px hold 8 system-font characters a line.
/// assert_eq!(Font::system().measure("one two three", style), (84, 56));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextStyle {
    wrap: Option<i32>,
    align: Align,
    scale: u32,
    tint: bool,
}

impl Default for TextStyle {
    fn default() -> TextStyle {
        TextStyle::new()
    }
}

impl TextStyle {
    /// No wrapping, left aligned, scale 1.
    pub const fn new() -> TextStyle {
        TextStyle {
            wrap: None,
            align: Align::Left,
            scale: 1,
            tint: false,
        }
    }

    /// Wraps lines wider than `width` pixels (scale included) at the last space that keeps
    /// them within it, and aligns lines within `width`. A word wider than `width` on its own
    /// is broken between characters; a character wider than it stands alone on its line. A
    /// negative width counts as 0.
    pub const fn wrap(mut self, width: i32) -> TextStyle {
        self.wrap = Some(if width < 0 { 0 } else { width });
        self
    }

    /// Aligns lines left, centred or right: within the wrap width, or without one within the
    /// widest line.
    pub const fn align(mut self, align: Align) -> TextStyle {
        self.align = align;
        self
    }

    /// Draws a coloured font ([`Font::is_colored`]) in the one colour the print call names,
    /// every pixel of its glyphs' ink alike, as a one-colour font always draws.
    pub const fn tint(mut self) -> TextStyle {
        self.tint = true;
        self
    }

    /// Whether [`TextStyle::tint`] was asked for.
    pub(crate) const fn tints(&self) -> bool {
        self.tint
    }

    /// Draws every glyph pixel as a `scale × scale` square, and moves the pen and lines that
    /// many times as far. 0 counts as 1; above [`MAX_TEXT_SCALE`] counts as that.
    pub const fn scale(mut self, scale: u32) -> TextStyle {
        self.scale = scale;
        self
    }

    /// The wrap width, if any.
    pub const fn wrap_width(&self) -> Option<i32> {
        self.wrap
    }

    /// The alignment.
    pub const fn alignment(&self) -> Align {
        self.align
    }

    /// The scale drawn with: between 1 and [`MAX_TEXT_SCALE`].
    pub const fn scale_factor(&self) -> u32 {
        if self.scale == 0 {
            1
        } else if self.scale > MAX_TEXT_SCALE {
            MAX_TEXT_SCALE
        } else {
            self.scale
        }
    }

    /// The wrap width in the font's own pixels (before scaling), if any.
    pub(crate) fn limit(&self) -> Option<i64> {
        self.wrap
            .map(|w| i64::from(w) / i64::from(self.scale_factor()))
    }
}

/// The lines of a text as a font and style break it ([`Font::lines`]): slices of the text,
/// without the `\n`s and the spaces a wrap replaces. Allocates nothing.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'f, 't> {
    font: &'f Font,
    rest: Option<&'t str>,
    limit: Option<i64>,
}

impl<'f, 't> Lines<'f, 't> {
    pub(crate) fn new(font: &'f Font, text: &'t str, style: TextStyle) -> Lines<'f, 't> {
        Lines {
            font,
            rest: Some(text),
            limit: style.limit(),
        }
    }
}

impl<'t> Iterator for Lines<'_, 't> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let rest = self.rest?;
        let (para, after) = match rest.find('\n') {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let Some(limit) = self.limit else {
            self.rest = after;
            return Some(para);
        };
        match break_at(self.font, para, limit) {
            Some((end, resume)) => {
                self.rest = if resume == para.len() {
                    after
                } else {
                    Some(&rest[resume..])
                };
                Some(&rest[..end])
            }
            None => {
                self.rest = after;
                Some(para)
            }
        }
    }
}

/// Where `para` (one line of the text, no `\n`) first breaks to stay within `limit` pixels:
/// `(end of this line, start of the next)`, both byte offsets (the start may be the end of
/// `para`), or `None` when it fits. Each break moves on by at least one character.
fn break_at(font: &Font, para: &str, limit: i64) -> Option<(usize, usize)> {
    let mut width = 0i64;
    let mut prev = None;
    // The last run of spaces after some text: the line can end where it starts and the next
    // begin after it.
    let mut spaces: Option<usize> = None;
    let mut last_break: Option<(usize, usize)> = None;
    for (i, c) in para.char_indices() {
        if c == ' ' {
            spaces.get_or_insert(i);
        } else {
            // Whether only spaces come before `c` on this line.
            let mut indented = false;
            if let Some(start) = spaces.take() {
                if start > 0 {
                    last_break = Some((start, i));
                } else {
                    indented = true;
                }
            }
            let next = width + i64::from(font.step(prev, c));
            if next > limit && i > 0 {
                // Indentation wider than the line goes, and leaves the line empty.
                let end = if indented { 0 } else { i };
                return Some(last_break.unwrap_or((end, i)));
            }
        }
        width += i64::from(font.step(prev, c));
        prev = Some(c);
    }
    // Spaces at the end that pass the width hang past it: the line ends before them.
    match spaces {
        Some(start) if width > limit => Some((start, para.len())),
        _ => None,
    }
}
