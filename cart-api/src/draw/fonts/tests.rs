//! Tests of fonts as a whole: the built-in fonts, layout and drawing.

use proptest::prelude::*;

use super::*;
use crate::draw::framebuffer::tests::ink;
use crate::draw::{Framebuffer, Rect};

/// A framebuffer with `text` printed in `font` at `(x, y)` in index 7.
fn printed(font: &Font, (w, h): (u32, u32), (x, y): (i64, i64), text: &str) -> Framebuffer {
    let mut fb = Framebuffer::new(w, h);
    fb.font_print_fmt(font, (x, y), 7, format_args!("{text}"));
    fb
}

fn styled(
    font: &Font,
    (w, h): (u32, u32),
    (x, y): (i64, i64),
    text: &str,
    s: TextStyle,
) -> Framebuffer {
    let mut fb = Framebuffer::new(w, h);
    fb.font_print_styled(font, (x, y), text, 7, s);
    fb
}

/// The system font's glyph tables drawn in remapped index 9 one pixel at a time, the way
/// text was drawn before the system font became a [`Font`]: the reference `print` is held to.
fn cell_by_cell(fb: &mut Framebuffer, (x, y): (i32, i32), text: &str) {
    use crate::draw::font::{find, GLYPH_ADVANCE, GLYPH_ROWS, LINE_HEIGHT, REPLACEMENT};
    let ink = fb.remap(9);
    let (mut cx, mut cy) = (x, y);
    for c in text.chars() {
        if c == '\n' {
            (cx, cy) = (x, cy + LINE_HEIGHT);
            continue;
        }
        let rows = find(c).unwrap_or(&REPLACEMENT);
        for (dy, bits) in rows.iter().enumerate().take(GLYPH_ROWS) {
            for dx in 0..GLYPH_ADVANCE {
                let inside = fb.clip().contains(cx + dx, cy + dy as i32);
                if bits & (1 << dx) != 0 && inside {
                    fb.draw_pixel(cx + dx, cy + dy as i32, ink);
                }
            }
        }
        cx += GLYPH_ADVANCE;
    }
}

/// A font of three glyphs made by hand: `I` (1 x 3, advance 2), `W` (3 x 3, advance 4) and
/// `-` (2 x 1 on the middle row, advance 3), line 4, `I` and `W` kerned 1 px closer, no
/// fallback.
fn tiny() -> Font {
    let mut b = FontBuilder::default();
    b.glyph('I' as u32, (0, 0), 2, 1, &[1, 1, 1]);
    b.glyph('W' as u32, (0, 0), 4, 3, &[0b101, 0b101, 0b111]);
    b.glyph('-' as u32, (0, 1), 3, 2, &[0b11]);
    b.kern('I' as u32, 'W' as u32, -1);
    b.finish("tiny", 4, &[])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `print` draws the system font's glyph tables as they are: each character's 14 rows of
    /// bits (the hollow box for one the font lacks) in a 6-px cell, `\n` back to the start 14
    /// px lower, clipped and remapped, one pixel at a time as the reference below does. The
    /// same pixels as `print_font` with the system font, for any text (ASCII, Latin-1, Greek,
    /// box drawing, symbols, characters it lacks, new lines), anywhere, under any clip; and
    /// its measure is six pixels a character by 14 a line.
    #[test]
    fn the_system_font_prints_its_glyph_tables_cell_by_cell(
        text in "[ -~\n\u{a0}-\u{ff}\u{390}-\u{3aa}\u{2010}-\u{2030}\u{2190}-\u{219a}\u{2500}-\u{25d0}\u{2660}-\u{266c}\u{e000}-\u{e014}\u{4e00}\u{fffd}]{0,40}",
        x in -30..60i32,
        y in -20..40i32,
        clip in (-4..50i32, -4..40i32, 0..60i32, 0..50i32),
    ) {
        let mut a = Framebuffer::new(48, 36);
        a.set_clip(Rect::new(clip.0, clip.1, clip.2, clip.3));
        a.set_remap(9, 4);
        let mut b = a.clone();
        let mut reference = a.clone();
        a.print(x, y, &text, 9);
        b.font_print_fmt(Font::system(), (x.into(), y.into()), 9, format_args!("{text}"));
        prop_assert_eq!(a.pixels(), b.pixels());
        cell_by_cell(&mut reference, (x, y), &text);
        prop_assert_eq!(a.pixels(), reference.pixels());
        let lines = text.split('\n');
        let widest = lines.clone().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let want = if text.is_empty() { (0, 0) } else { (widest * 6, lines.count() as u32 * 14) };
        prop_assert_eq!(Font::system().measure(&text, TextStyle::new()), want);
    }

    /// A clip hides the pixels outside it and changes none inside, for wrapped, aligned and
    /// scaled text.
    #[test]
    fn a_clip_only_hides_what_is_outside_it(
        text in "[a-z ]{0,30}",
        x in -20..40i32,
        y in -20..30i32,
        scale in 1..4u32,
        wrap in 0..60i32,
        align in 0..3u8,
        clip in (-4..40i32, -4..30i32, 0..50i32, 0..40i32),
    ) {
        let align = [Align::Left, Align::Center, Align::Right][usize::from(align)];
        let style = TextStyle::new().wrap(wrap).align(align).scale(scale);
        let whole = styled(Font::system(), (40, 30), (x.into(), y.into()), &text, style);
        let mut cut = Framebuffer::new(40, 30);
        let rect = Rect::new(clip.0, clip.1, clip.2, clip.3);
        cut.set_clip(rect);
        cut.font_print_styled(Font::system(), (x.into(), y.into()), &text, 7, style);
        let c = cut.clip();
        for py in 0..30 {
            for px in 0..40 {
                let inside = c.contains(px, py);
                let want = if inside { whole.get(px, py) } else { Some(0) };
                prop_assert_eq!(cut.get(px, py), want, "({}, {})", px, py);
            }
        }
    }

    /// Left-aligned text inks only inside the box its measure gives, and wraps within the
    /// width unless a single character is wider.
    #[test]
    fn text_stays_inside_its_measure(
        text in "[a-zA-Z ,.\n]{1,60}",
        wrap in 6..80i32,
        scale in 1..3u32,
    ) {
        let style = TextStyle::new().wrap(wrap).scale(scale);
        let (w, h) = Font::system().measure(&text, style);
        let (w, h) = (w as i32, h as i32);
        let fb = styled(Font::system(), (100, 400), (3, 2), &text, style);
        for (px, py) in ink(&fb) {
            prop_assert!(px >= 3 && px < 3 + w && py >= 2 && py < 2 + h, "({}, {}) outside {}x{}", px, py, w, h);
        }
        prop_assert!(w <= wrap.max(6 * scale as i32));
    }
}

#[test]
fn box_drawing_joins_across_characters_and_lines() {
    let fb = printed(Font::system(), (12, 28), (0, 0), "┌─\n│╬");
    // The horizontal line runs from the corner's stroke across the next cell unbroken.
    assert!((2..12).all(|x| fb.get(x, 6) == Some(7)));
    // The corner's vertical stroke runs down through the line gap into the next line.
    assert!((6..28).all(|y| fb.get(2, y) == Some(7)));
    // ╬ : the double lines reach every edge of the cell.
    for (x, y) in [
        (7, 14),
        (9, 14),
        (7, 27),
        (9, 27),
        (6, 19),
        (6, 21),
        (11, 19),
        (11, 21),
    ] {
        assert_eq!(fb.get(x, y), Some(7), "({x}, {y})");
    }
}

#[test]
fn latin1_letters_have_their_own_glyphs_and_others_the_box() {
    let e = printed(Font::system(), (6, 14), (0, 0), "é");
    let box_ = printed(Font::system(), (6, 14), (0, 0), "\u{4e00}");
    let replacement = printed(Font::system(), (6, 14), (0, 0), "\u{fffd}");
    assert_ne!(e, box_);
    assert_eq!(box_, replacement, "the fallback is U+FFFD");
    assert_eq!(ink(&box_).len(), 2 * 5 + 2 * 7, "a hollow 5 x 9 box");
    assert!(Font::system().has_glyph('ÿ') && Font::system().has_glyph('▟'));
    assert!(!Font::system().has_glyph('\u{4e00}'));
    assert_eq!(Font::system().chars().count(), 95 + 96 + 160 + 73 + 1);
}

/// The characters of BLIT386's system font: printable ASCII, then its extra characters as
/// listed in `SYSTEM_FONT_EXTRA_CHARS` of BLIT386's
/// `packages/blit386/src/assets/fonts/systemFontData.ts`, in that file's order.
const BLIT386_SYSTEM_EXTRAS: [u32; 79] = [
    0xfffd, 0x2013, 0x2014, 0x00a9, 0x00bf, 0x00a1, 0xe006, 0xe007, 0xe008, 0xe009, 0xe00a, 0xe00b,
    0xe00c, 0xe00d, 0xe00e, 0xe00f, 0xe010, 0xe011, 0xe012, 0xe013, 0x25b6, 0x23f9, 0x23f8, 0x2022,
    0x25cf, 0x25cb, 0x25a0, 0x2122, 0x263a, 0x2639, 0x2196, 0x2197, 0x2198, 0x2199, 0x23ce, 0x2665,
    0x0391, 0x0392, 0x0393, 0x0394, 0x0395, 0x0396, 0x0397, 0x0398, 0x0399, 0x039a, 0x039b, 0x039c,
    0x039d, 0x039e, 0x039f, 0x03a0, 0x03a1, 0x03a3, 0x03a4, 0x03a5, 0x03a6, 0x03a7, 0x03a8, 0x03a9,
    0x23fa, 0x2669, 0x266a, 0x266b, 0x203c, 0x2713, 0x2190, 0x2191, 0x2192, 0x2193, 0x00d7, 0x2026,
    0x00b0, 0xe000, 0xe001, 0xe002, 0xe003, 0xe004, 0xe005,
];

#[test]
fn every_character_of_blit386s_system_font_has_a_glyph_of_its_own() {
    let missing: Vec<String> = (32..=126)
        .chain(BLIT386_SYSTEM_EXTRAS)
        .filter(|&code| !char::from_u32(code).is_some_and(|c| Font::system().has_glyph(c)))
        .map(|code| format!("U+{code:04X}"))
        .collect();
    assert!(missing.is_empty(), "missing: {missing:?}");
    // None of them, the reserved blanks aside, prints as the replacement box.
    let replacement = printed(Font::system(), (6, 14), (0, 0), "\u{fffd}");
    for code in BLIT386_SYSTEM_EXTRAS.into_iter().filter(|&c| c != 0xfffd) {
        let text = char::from_u32(code).unwrap().to_string();
        let fb = printed(Font::system(), (6, 14), (0, 0), &text);
        assert_ne!(fb, replacement, "U+{code:04X}");
        assert_eq!(
            fb,
            {
                let mut direct = Framebuffer::new(6, 14);
                direct.print(0, 0, &text, 7);
                direct
            },
            "print and print_font agree on U+{code:04X}"
        );
    }
}

#[test]
fn arrows_dashes_and_the_ellipsis_draw_distinct_shapes_in_their_cells() {
    let text = "\u{2190}\u{2191}\u{2192}\u{2193}\u{2026}\u{2014}\u{2665}\u{03a9}";
    let count = text.chars().count() as i32;
    let fb = printed(Font::system(), (6 * count as u32, 14), (0, 0), text);
    let cells: Vec<Vec<(i32, i32)>> = (0..count)
        .map(|i| {
            ink(&fb)
                .into_iter()
                .filter(|&(x, _)| x / 6 == i)
                .map(|(x, y)| (x - 6 * i, y))
                .collect()
        })
        .collect();
    for (c, cell) in text.chars().zip(&cells) {
        assert!(!cell.is_empty(), "{c} draws nothing");
        assert!(
            cell.iter().all(|&(_, y)| y < 13),
            "{c} reaches the line gap"
        );
    }
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            assert_ne!(cells[i], cells[j], "cells {i} and {j} are the same shape");
        }
    }
    // The right arrow: a shaft across row 6, a head above and below it on the right.
    let right = &cells[2];
    assert!((0..5).all(|x| right.contains(&(x, 6))));
    assert!(right.contains(&(3, 5)) && right.contains(&(3, 7)));
    assert!(!right.contains(&(1, 5)) && !right.contains(&(1, 7)));
    // The ellipsis: three single dots on one row, apart.
    assert_eq!(cells[4], [(0, 10), (2, 10), (4, 10)]);
    // The em dash fills its cell, so dashes in a row join into one rule.
    let rule = printed(Font::system(), (18, 14), (0, 0), "\u{2014}\u{2014}\u{2014}");
    assert!((0..18).all(|x| rule.get(x, 6) == Some(7)));
    // The tall arrows span a capital's height, rows 2 to 10.
    let up = &cells[1];
    assert_eq!(up.iter().map(|&(_, y)| y).min(), Some(2));
    assert_eq!(up.iter().map(|&(_, y)| y).max(), Some(10));
}

#[test]
fn the_small_font_has_one_case_on_a_four_by_six_cell() {
    let small = Font::small();
    assert_eq!((small.advance('A'), small.line_height()), (4, 6));
    assert_eq!(
        printed(small, (12, 6), (0, 0), "abc"),
        printed(small, (12, 6), (0, 0), "ABC")
    );
    // Every glyph fits 3 x 5 pixels of its cell.
    for c in small.chars() {
        let fb = printed(small, (4, 6), (0, 0), &c.to_string());
        assert!(ink(&fb).iter().all(|&(x, y)| x < 3 && y < 5), "{c:?}");
        assert!(c == ' ' || !ink(&fb).is_empty(), "{c:?} is empty");
    }
    assert_eq!(small.measure("HI\nTHERE", TextStyle::new()), (20, 12));
}

#[test]
fn advances_and_kerning_place_the_glyphs() {
    let font = tiny();
    assert_eq!(
        font.measure("IW", TextStyle::new()),
        (5, 4),
        "2 + 4 - 1 kerned"
    );
    assert_eq!(
        font.measure("WI", TextStyle::new()),
        (6, 4),
        "not kerned that way round"
    );
    assert_eq!(font.kerning('I', 'W'), -1);
    let fb = printed(&font, (8, 4), (0, 0), "IW-");
    assert_eq!(
        ink(&fb),
        [
            (0, 0),
            (1, 0),
            (3, 0),
            (0, 1),
            (1, 1),
            (3, 1),
            (5, 1),
            (6, 1),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2)
        ]
    );
}

#[test]
fn characters_a_font_without_fallback_lacks_are_skipped() {
    let font = tiny();
    assert_eq!(font.advance('x'), 0);
    assert_eq!(
        printed(&font, (8, 4), (0, 0), "IxI"),
        printed(&font, (8, 4), (0, 0), "II")
    );
}

#[test]
fn wrapping_breaks_at_spaces_and_inside_words_too_long_for_a_line() {
    fn lines(text: &str, width: i32) -> Vec<&str> {
        Font::system()
            .lines(text, TextStyle::new().wrap(width))
            .collect()
    }
    assert_eq!(lines("the quick brown fox", 60), ["the quick", "brown fox"]);
    assert_eq!(
        lines("the quick brown fox", 53),
        ["the", "quick", "brown", "fox"]
    );
    assert_eq!(
        lines("ab   \ncd", 12),
        ["ab", "cd"],
        "spaces past the width hang"
    );
    assert_eq!(
        lines("one  two", 24),
        ["one", "two"],
        "spaces at the break go"
    );
    assert_eq!(lines("abcdefgh", 18), ["abc", "def", "gh"]);
    assert_eq!(lines("ab\n\ncd ef", 12), ["ab", "", "cd", "ef"]);
    assert_eq!(
        lines("a", 0),
        ["a"],
        "a character wider than the width stands alone"
    );
    assert_eq!(lines("", 30), [""]);
    assert_eq!(
        lines("  lead", 60),
        ["  lead"],
        "leading spaces of a line stay"
    );
    // Scale 2: 60 px hold 5 characters.
    let wide: Vec<&str> = Font::system()
        .lines("aaaaaa bb", TextStyle::new().wrap(60).scale(2))
        .collect();
    assert_eq!(wide, ["aaaaa", "a bb"]);
}

#[test]
fn alignment_puts_lines_left_centred_or_right_within_the_width() {
    let left_edge = |fb: &Framebuffer, rows: std::ops::Range<i32>| {
        ink(fb)
            .iter()
            .filter(|(_, y)| rows.contains(y))
            .map(|&(x, _)| x)
            .min()
    };
    let style = TextStyle::new().wrap(30);
    // "I" is inked at columns 1 to 3 of its cell.
    let left = styled(Font::system(), (40, 14), (0, 0), "I", style);
    let centre = styled(
        Font::system(),
        (40, 14),
        (0, 0),
        "I",
        style.align(Align::Center),
    );
    let right = styled(
        Font::system(),
        (40, 14),
        (0, 0),
        "I",
        style.align(Align::Right),
    );
    assert_eq!(left_edge(&left, 0..14), Some(1));
    assert_eq!(left_edge(&centre, 0..14), Some(12 + 1));
    assert_eq!(left_edge(&right, 0..14), Some(24 + 1));
    // Without a width, lines align within the widest.
    let block = styled(
        Font::system(),
        (40, 28),
        (0, 0),
        "III\nI",
        TextStyle::new().align(Align::Right),
    );
    assert_eq!(left_edge(&block, 14..28), Some(12 + 1));
    assert_eq!(
        Font::system().measure("III\nI", TextStyle::new().align(Align::Right)),
        (18, 28)
    );
}

#[test]
fn scale_draws_each_pixel_as_a_square() {
    let one = printed(Font::small(), (8, 12), (0, 0), "A");
    let two = styled(
        Font::small(),
        (8, 12),
        (0, 0),
        "A",
        TextStyle::new().scale(2),
    );
    for y in 0..12 {
        for x in 0..8 {
            assert_eq!(two.get(x, y), one.get(x / 2, y / 2), "({x}, {y})");
        }
    }
    assert_eq!(
        Font::small().measure("AB", TextStyle::new().scale(3)),
        (24, 18)
    );
    assert_eq!(TextStyle::new().scale(0).scale_factor(), 1);
    assert_eq!(TextStyle::new().scale(1000).scale_factor(), MAX_TEXT_SCALE);
}

#[test]
fn text_far_off_screen_or_in_index_zero_draws_nothing() {
    for at in [
        (i64::from(i32::MIN), 0),
        (0, i64::from(i32::MAX)),
        (-1000, -1000),
    ] {
        let fb = styled(
            Font::system(),
            (20, 20),
            at,
            "far away",
            TextStyle::new().scale(64),
        );
        assert!(ink(&fb).is_empty());
    }
    let mut fb = Framebuffer::new(20, 20);
    fb.font_print_styled(Font::system(), (0, 0), "zero", 0, TextStyle::new());
    fb.font_print_fmt(Font::system(), (0, 0), 0, format_args!("zero"));
    assert!(ink(&fb).is_empty());
    // Measures saturate instead of overflowing.
    let huge = "a".repeat(12_000_000);
    assert_eq!(
        Font::system().measure(&huge, TextStyle::new().scale(64)).0,
        u32::MAX
    );
}

#[test]
fn text_is_remapped_but_never_patterned() {
    let mut fb = Framebuffer::new(6, 14);
    fb.pen.remap[7] = 3;
    fb.pen.pattern = 0xffff;
    fb.font_print_fmt(Font::system(), (0, 0), 7, format_args!("#"));
    assert!(!ink(&fb).is_empty());
    assert!(fb.pixels().iter().all(|&p| p == 0 || p == 3));
}

#[test]
fn styled_text_takes_anything_that_displays_and_prints_it_as_the_same_str() {
    use crate::host::Console;
    let settings = crate::Settings::default().display(96, 64);
    let style = TextStyle::new().wrap(60).align(Align::Center);
    let long = "a longer line printed first";
    let mut want = Console::new(&settings, 0);
    let mut r = want.render_context(0, 0.0);
    r.print_styled(Font::system(), 0, 30, long, 7, style);
    r.print_styled(Font::system(), 1, 2, "score 42\nlives 3", 8, style);
    let mut got = Console::new(&settings, 0);
    let mut r = got.render_context(0, 0.0);
    r.print_styled(Font::system(), 0, 30, format_args!("{long}"), 7, style);
    // Shorter than the text before it: nothing of that text is left over.
    r.print_styled(Font::small(), 0, 0, 7, 0, style);
    r.print_styled(
        Font::system(),
        1,
        2,
        format_args!("score {}\nlives {}", 42, 3),
        8,
        style,
    );
    assert_eq!(got.framebuffer(), want.framebuffer());
    assert_eq!(got.draw_counts().text, 3);
}
