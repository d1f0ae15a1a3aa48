//! What `render` calls to print with a font.

use std::fmt;

use super::{Font, TextStyle};
use crate::Render;

/// Text in any font.
///
/// ```
/// use bt::host::Console;
/// use bt::{Align, Font, Settings, TextStyle};
///
/// let mut con = Console::new(&Settings::default().display(64, 32), 0);
/// let mut ctx = con.render_context(0, 0.0);
/// ctx.print_font(Font::small(), 1, 1, format_args!("HP {}", 7), 7);
/// let style = TextStyle::new().wrap(64).align(Align::Right);
/// ctx.print_styled(Font::small(), 0, 10, format_args!("RIGHT\n{}", "SIDE"), 8, style);
/// let fb = con.framebuffer();
/// assert_eq!(fb.get(1, 1), Some(7), "the H's top-left pixel");
/// assert_eq!(fb.get(63, 10), Some(0), "a line ends at the wrap width, its gap column included");
/// assert_eq!(fb.get(62, 10), Some(8), "the T's top right");
/// ```
impl Render<'_> {
    /// Prints `text` in `font` with its top-left corner at `(x, y)`, in colour `index`: as
    /// [`Render::print`] does, with the font's advances, kerning and line height. Anything
    /// that displays works, without allocating. A coloured font ([`Font::is_colored`]) draws
    /// its own colours (`index` 0 still draws nothing); [`Render::print_styled`] with
    /// [`TextStyle::tint`] draws it in `index`.
    pub fn print_font(&mut self, font: &Font, x: i32, y: i32, text: impl fmt::Display, index: u8) {
        self.draw_calls.text += 1;
        let at = self.at(x, y);
        self.fb
            .font_print_fmt(font, at, index, format_args!("{text}"));
    }

    /// Prints `text` in `font` laid out by `style` (wrapped at a width, aligned left, centred
    /// or right, scaled) in the box whose top-left corner is `(x, y)`, in colour `index` (a
    /// coloured font in its own colours unless the style tints). Anything that displays
    /// works, as in [`Render::print`]: laying out needs the whole text, so it is written into
    /// a buffer the console keeps, which grows only past the longest text printed so far, and
    /// nothing is allocated from frame to frame. [`Font::measure`] gives the size it covers.
    pub fn print_styled(
        &mut self,
        font: &Font,
        x: i32,
        y: i32,
        text: impl fmt::Display,
        index: u8,
        style: TextStyle,
    ) {
        self.draw_calls.text += 1;
        let at = self.at(x, y);
        let mut buffer = std::mem::take(&mut self.fb.text);
        buffer.clear();
        let _ = fmt::Write::write_fmt(&mut buffer, format_args!("{text}"));
        self.fb.font_print_styled(font, at, &buffer, index, style);
        self.fb.text = buffer;
    }
}
