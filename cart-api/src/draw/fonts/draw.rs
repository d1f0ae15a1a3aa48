//! Drawing text with a [`Font`] into the framebuffer: glyph by glyph, clipped, in one colour
//! (or a coloured font's own colours) through the draw-time remap (text is never patterned),
//! with no allocation.

use std::fmt;

use super::{Align, Font, Glyph, TextStyle};
use crate::draw::Framebuffer;

impl Framebuffer {
    /// Prints formatted text in `font` with its top-left corner at `(x, y)`: `\n` returns to
    /// `x` one line lower. Nothing is drawn with index 0; a coloured font draws its own
    /// colours.
    pub(crate) fn font_print_fmt(
        &mut self,
        font: &Font,
        (x, y): (i64, i64),
        index: u8,
        args: fmt::Arguments<'_>,
    ) {
        struct Pen<'a> {
            fb: &'a mut Framebuffer,
            font: &'a Font,
            left: i64,
            at: (i64, i64),
            prev: Option<char>,
            ink: Option<u8>,
        }
        impl fmt::Write for Pen<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                for c in s.chars() {
                    if c == '\n' {
                        self.at = (self.left, self.at.1 + i64::from(self.font.line_height));
                        self.prev = None;
                        continue;
                    }
                    self.at.0 = self
                        .fb
                        .font_char(self.font, self.at, self.prev, c, self.ink, 1);
                    self.prev = Some(c);
                }
                Ok(())
            }
        }
        if index == 0 {
            return;
        }
        let ink = self.ink(font, index, false);
        let mut pen = Pen {
            fb: self,
            font,
            left: x,
            at: (x, y),
            prev: None,
            ink,
        };
        let _ = fmt::Write::write_fmt(&mut pen, args);
    }

    /// Prints `text` in `font` laid out by `style` in the box whose top-left corner is
    /// `(x, y)`: wrapped, aligned and scaled.
    pub(crate) fn font_print_styled(
        &mut self,
        font: &Font,
        (x, y): (i64, i64),
        text: &str,
        index: u8,
        style: TextStyle,
    ) {
        if index == 0 || text.is_empty() {
            return;
        }
        let ink = self.ink(font, index, style.tints());
        let scale = i64::from(style.scale_factor());
        // The width lines align in: the wrap width, else the widest line.
        let width = match (style.wrap_width(), style.alignment()) {
            (_, Align::Left) => 0,
            (Some(w), _) => i64::from(w),
            (None, _) => font
                .lines(text, style)
                .map(|line| font.line_width(line) * scale)
                .max()
                .unwrap_or(0),
        };
        let line_step = i64::from(font.line_height) * scale;
        let mut top = y;
        for line in font.lines(text, style) {
            if top >= self.clip.y1 {
                break;
            }
            if top + line_step > self.clip.y0 {
                let room = width - font.line_width(line) * scale;
                let left = match style.alignment() {
                    Align::Left => x,
                    Align::Center => x + room.div_euclid(2),
                    Align::Right => x + room,
                };
                let mut at = (left, top);
                let mut prev = None;
                for c in line.chars() {
                    at.0 = self.font_char(font, at, prev, c, ink, scale);
                    prev = Some(c);
                }
            }
            top += line_step;
        }
    }

    /// The colour glyphs are drawn in: `index` through the remap, or `None` for a coloured
    /// font's own colours when not tinted.
    fn ink(&self, font: &Font, index: u8, tint: bool) -> Option<u8> {
        if font.is_colored() && !tint {
            None
        } else {
            Some(self.pen.remap[usize::from(index)])
        }
    }

    /// Draws `c` (after `prev`, for kerning) with the pen at `at`; returns where the pen goes
    /// next.
    #[inline]
    fn font_char(
        &mut self,
        font: &Font,
        (x, y): (i64, i64),
        prev: Option<char>,
        c: char,
        ink: Option<u8>,
        scale: i64,
    ) -> i64 {
        let kern = match prev {
            Some(p) if font.has_kerning() => i64::from(font.kerning(p, c)),
            _ => 0,
        };
        let Some(glyph) = font.glyph(c) else {
            return x + kern * scale;
        };
        let x = x + kern * scale;
        self.font_glyph(font, glyph, (x, y), ink, scale);
        x + i64::from(glyph.advance) * scale
    }

    /// Draws `glyph` with the pen at `(x, y)`, clipped: in `ink`, or with `None` in its own
    /// colours through the remap.
    fn font_glyph(
        &mut self,
        font: &Font,
        glyph: &Glyph,
        (x, y): (i64, i64),
        ink: Option<u8>,
        s: i64,
    ) {
        let rows = font.rows_of(glyph);
        let colors = font.colors_of(glyph);
        let remap = self.pen.remap;
        // The colour of the pixel at column `dx` of row `r`.
        let color = |r: i64, dx: i64| match ink {
            Some(ink) => ink,
            None => {
                let at = (r * i64::from(glyph.width) + dx) as usize;
                remap[usize::from(colors.get(at).copied().unwrap_or(0))]
            }
        };
        let gx = x + i64::from(glyph.x) * s;
        let gy = y + i64::from(glyph.y) * s;
        let (w, h) = (i64::from(glyph.width), rows.len() as i64);
        let c = self.clip;
        if gx + w * s <= c.x0 || gx >= c.x1 || gy + h * s <= c.y0 || gy >= c.y1 {
            return;
        }
        let stride = self.width as usize;
        // Glyph rows and columns any of whose pixels the clip shows.
        let first_row = (c.y0 - gy).div_euclid(s).max(0);
        let last_row = (c.y1 - 1 - gy).div_euclid(s).min(h - 1);
        let first_col = (c.x0 - gx).div_euclid(s).clamp(0, 64);
        let last_col = (c.x1 - 1 - gx).div_euclid(s).clamp(-1, w - 1);
        if first_col > last_col || first_row > last_row {
            return;
        }
        let mask =
            (((1u128 << (last_col + 1)) - (1u128 << first_col)) & u128::from(u64::MAX)) as u64;
        for r in first_row..=last_row {
            let mut bits = rows[r as usize] & mask;
            if bits == 0 {
                continue;
            }
            if s == 1 {
                let at = (gy + r) as usize * stride;
                while bits != 0 {
                    let dx = i64::from(bits.trailing_zeros());
                    self.pixels[at + (gx + dx) as usize] = color(r, dx);
                    bits &= bits - 1;
                }
                continue;
            }
            let y0 = (gy + r * s).max(c.y0);
            let y1 = (gy + r * s + s).min(c.y1);
            while bits != 0 {
                let dx = i64::from(bits.trailing_zeros());
                bits &= bits - 1;
                let x0 = (gx + dx * s).max(c.x0) as usize;
                let x1 = (gx + dx * s + s).min(c.x1) as usize;
                let ink = color(r, dx);
                for py in y0..y1 {
                    let at = py as usize * stride;
                    self.pixels[at + x0..at + x1].fill(ink);
                }
            }
        }
    }
}
