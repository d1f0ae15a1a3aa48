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
/// ctx.print_styled(Font::small(), 0, 10, "RIGHT\nSIDE", 8, style);
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
    /// coloured font in its own colours unless the style tints).
    /// [`Font::measure_styled`] gives the size it covers. Allocates nothing.
    pub fn print_styled(
        &mut self,
        font: &Font,
        x: i32,
        y: i32,
        text: &str,
        index: u8,
        style: TextStyle,
    ) {
        self.draw_calls.text += 1;
        let at = self.at(x, y);
        self.fb.font_print_styled(font, at, text, index, style);
    }
}
