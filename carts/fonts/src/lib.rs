//! `fonts`: text in every font BT has. A proportional BDF font read from the asset folder, a
//! bold sheet font built into the cart (its `bt-font 1` description and picture), a coloured
//! `.btfont` font (BLIT386's format, an RGBA picture whose colours BT matches to the palette),
//! the system font with its Latin-1 letters, symbols, box drawing and block elements, and the
//! 3 x 5 small font; a paragraph wrapped to a width and aligned three ways, a title at twice
//! the size, and a line typed out a character a tick. The font files are made from BT's own
//! system font by `tools/make_fonts.py`.

use std::sync::Arc;

use bt::{Align, Cart, Font, Rect, Render, Settings, TextStyle, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str =
    "BDF, sheet and coloured .btfont fonts, wrapping, alignment, symbols and box drawing";

/// Where the cart's files are, for the gallery's list.
pub const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");

/// The proportional BDF font, read from the asset folder (and again when it changes).
const NARROW: &str = "narrow.bdf";
/// The coloured `.btfont` font, read from the asset folder (and again when it changes).
const CANDY: &str = "candy.btfont";
/// The bold sheet font, built into the cart.
const BOLD_TEXT: &str = include_str!("../assets/bold.txt");
const BOLD_PICTURE: &[u8] = include_bytes!("../assets/bold.png");

const PARAGRAPH: &str = "Text wraps at the spaces, each line inside the width.";
/// The system font's symbols, as BLIT386's system font has them: arrows, the return key,
/// dashes and punctuation, Greek capitals, notes, media and face icons, signal bars.
const SYMBOLS: &str =
    "←↑→↓↖↗↘↙⏎ –—…•‼™✓ ΓΔΘΛΠΣΦΨΩ ♩♪♫ ⏸⏹⏺▶ ■○●☹☺♥ \u{e000}\u{e001}\u{e002}\u{e003}\u{e004}\u{e005}";
const TYPED: &str = "Typed out one character a tick, with no allocation.";
/// The width of each of the three wrapped paragraphs.
const COLUMN: i32 = 96;

/// The cart's state: the fonts it loaded, shared so a snapshot copies none of their glyphs.
#[derive(Debug, Default, Clone)]
pub struct Fonts {
    fonts: Option<Arc<Loaded>>,
}

/// The fonts read from files.
#[derive(Debug, Clone, PartialEq)]
struct Loaded {
    /// `narrow.bdf`, from the asset folder.
    narrow: Font,
    /// `bold.txt` and `bold.png`, built in.
    bold: Font,
    /// `candy.btfont` and `candy.png`, from the asset folder.
    candy: Font,
}

/// A fresh `fonts` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Fonts::default())
}

impl Cart for Fonts {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Fonts")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        let narrow = ctx.load_font(NARROW)?;
        let bold = ctx.decode_font_sheet("bold.txt", BOLD_TEXT, BOLD_PICTURE)?;
        let candy = ctx.load_font(CANDY)?;
        self.fonts = Some(Arc::new(Loaded {
            narrow,
            bold,
            candy,
        }));
        Ok(())
    }

    fn reload(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        // Read whole before anything is replaced: a broken edit keeps the fonts drawn so far.
        let narrow = ctx.load_font(NARROW)?;
        let candy = ctx.load_font(CANDY)?;
        if let Some(fonts) = self.fonts.as_mut() {
            let fonts = Arc::make_mut(fonts);
            (fonts.narrow, fonts.candy) = (narrow, candy);
        }
        Ok(())
    }

    fn update(&mut self, _ctx: &mut Update<'_>) {}

    fn render(&self, ctx: &mut Render<'_>) {
        let Some(Loaded {
            narrow,
            bold,
            candy,
        }) = self.fonts.as_deref()
        else {
            return;
        };
        let small = Font::small();
        let system = Font::system();
        ctx.clear(1);

        // The title at twice the size in the coloured font's own colours (the 7 is not used),
        // and what the cart shows, right-aligned on the display.
        ctx.print_styled(candy, 8, 4, "Fonts", 7, TextStyle::new().scale(2));
        let right = TextStyle::new().wrap(312).align(Align::Right);
        ctx.print_styled(
            small,
            0,
            8,
            "BDF, SHEET, .BTFONT AND BUILT-IN FONTS",
            6,
            right,
        );
        ctx.print_styled(small, 0, 16, "WRAPPED, ALIGNED, SCALED", 13, right);
        let ticks = ctx.ticks();
        ctx.print_font(small, 312 - 4 * 10, 24, format_args!("TICK {ticks:>5}"), 5);

        // One line in each font, its width measured.
        let samples: [(&Font, &str, u8); 4] = [
            (
                narrow,
                "narrow.bdf: proportional, from the asset folder",
                12,
            ),
            (system, "system: 6 px a character, every character", 7),
            (bold, "bold.txt: a sheet font, kerned: AVA To LT", 9),
            (small, "SMALL: 3X5 GLYPHS ON PICO-8'S 4X6 CELL", 11),
        ];
        let mut y = 36;
        for (font, text, color) in samples {
            ctx.print_font(font, 8, y, text, color);
            let (w, h) = font.measure(text, TextStyle::new());
            let h = h as i32;
            ctx.print_font(small, 316 - 4 * 3, y + (h - 6) / 2, w, 5);
            y += h + 1;
        }

        // One paragraph wrapped in three columns, aligned three ways.
        let top = y + 4;
        let mut bottom = top;
        for (i, align) in [Align::Left, Align::Center, Align::Right]
            .into_iter()
            .enumerate()
        {
            let x = 8 + i as i32 * (COLUMN + 8);
            let style = TextStyle::new().wrap(COLUMN).align(align);
            let h = narrow.measure(PARAGRAPH, style).1 as i32;
            ctx.draw_rect(Rect::new(x - 2, top - 2, COLUMN + 4, h + 4), 5);
            ctx.print_styled(narrow, x, top, PARAGRAPH, 15, style);
            bottom = bottom.max(top + h + 2);
        }

        // Latin-1 and the symbols in the system font.
        let latin = bottom + 4;
        ctx.print(8, latin, "Ça va? Größe, señor, élève, Æsir, ½ £ ¥ © ±", 14);
        ctx.print(8, latin + 14, SYMBOLS, 6);

        // A window of box drawing around a line typed out a character a tick and a bar of
        // block elements that fills every four seconds.
        let win = latin + 30;
        let (left, right) = (8, 8 + 50 * 6);
        ctx.print(
            left,
            win,
            "╔═════════════════════════════════════════════════╗",
            12,
        );
        ctx.print(left, win + 14, "║\n╟\n║", 12);
        ctx.print(right, win + 14, "║\n╢\n║", 12);
        ctx.print(
            left + 6,
            win + 28,
            "─────────────────────────────────────────────────",
            12,
        );
        ctx.print(
            left,
            win + 56,
            "╚═════════════════════════════════════════════════╝",
            12,
        );
        let typed = TYPED
            .char_indices()
            .nth(ticks as usize)
            .map_or(TYPED, |(at, _)| &TYPED[..at]);
        ctx.print_font(narrow, left + 8, win + 14, typed, 7);
        let filled = (ticks % 240 * 48 / 240) as usize;
        for i in 0..48 {
            let block = if i < filled { "█" } else { "░" };
            ctx.print(left + 6 + i as i32 * 6, win + 42, block, 11);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::host::Console;
    use bt_runtime::config::assets::Assets;
    use std::path::Path;

    #[test]
    fn the_fonts_load_and_a_broken_edit_keeps_the_last_good_ones() {
        let dir = bt_test_support::ScratchDir::new("fonts");
        for file in [NARROW, CANDY, "candy.png"] {
            std::fs::copy(Path::new(ASSETS).join(file), dir.join(file)).unwrap();
        }
        let mut cart = Fonts::default();
        let mut con = Console::new(&cart.configure(), 0);
        con.set_image_loader(Box::new(Assets::folder(dir.path())));
        cart.init(&mut con.init_context()).unwrap();
        let loaded = cart.fonts.as_deref().cloned().unwrap();
        let Loaded {
            narrow,
            bold,
            candy,
        } = &loaded;
        // The BDF font is proportional; the sheet font's bold glyphs are a pixel wider.
        assert!(narrow.advance('i') < narrow.advance('m'));
        assert_eq!(bold.advance('m'), narrow.advance('m') + 1);
        assert_eq!(bold.kerning('A', 'V'), -1);
        assert_eq!(narrow.chars().count(), 95);
        // The .btfont font is coloured: its RGBA picture's colours are PICO-8's, on their slots.
        assert!(candy.is_colored());
        assert_eq!(candy.chars().count(), 95);
        {
            let mut ctx = con.render_context(0, 0.0);
            ctx.clear(0);
            ctx.print_font(candy, 0, 0, "I", 7);
        }
        let drawn: std::collections::BTreeSet<u8> =
            con.framebuffer().pixels().iter().copied().collect();
        assert_eq!(
            drawn.into_iter().collect::<Vec<_>>(),
            [0, 2, 8, 9, 10],
            "shadow, red, orange, yellow"
        );

        std::fs::write(dir.join(NARROW), "STARTFONT 2.1\nCHARS many\n").unwrap();
        let err = cart.reload(&mut con.reload_context()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "narrow.bdf:2: CHARS: \"many\" is not a whole number"
        );
        std::fs::copy(Path::new(ASSETS).join(NARROW), dir.join(NARROW)).unwrap();
        std::fs::write(dir.join("candy.png"), "not a picture").unwrap();
        let err = cart.reload(&mut con.reload_context()).unwrap_err();
        assert!(
            err.to_string().contains("candy.btfont -> candy.png"),
            "{err}"
        );
        assert_eq!(cart.fonts.as_deref(), Some(&loaded), "still drawing");
    }
}
