//! Fitting the overlay's text to the display's width, for displays as narrow as PICO-8's 128
//! pixels: a row that does not fit takes its short labels, then loses whole segments from the
//! right; the title loses whole words (and shows an ellipsis); the hint bar shortens its items
//! to their key and first word, then wraps them over more bars. Text is never cut inside a
//! word without a mark.

use bt::limits::GLYPH_ADVANCE;

use crate::text::{plain_width, text_width};
use crate::EDGE_MARGIN;

/// The width text may take on a display `width` pixels wide: from the left margin to the right
/// one, the last glyph's blank column allowed into the margin.
pub(crate) fn room(width: i32) -> i32 {
    width - 2 * EDGE_MARGIN + 1
}

/// The longest start of `row` made of whole `|` segments that fits in `room` pixels (empty when
/// not even the first does).
pub(crate) fn whole_segments(row: &str, room: i32) -> &str {
    if text_width(row) <= room {
        return row;
    }
    let mut end = 0;
    for (i, _) in row.match_indices('|') {
        if text_width(&row[..i]) > room {
            break;
        }
        end = i;
    }
    &row[..end]
}

/// `text` cut to fit `room` pixels: whole words, with room left after them for an ellipsis;
/// when not even the first word fits, as many characters as do. The flag says whether
/// anything was cut (draw the ellipsis after the text then). Nothing fits in less than two
/// glyphs' room.
pub(crate) fn shortened(text: &str, room: i32) -> (&str, bool) {
    if plain_width(text) <= room {
        return (text, false);
    }
    let room = room - GLYPH_ADVANCE;
    if room < GLYPH_ADVANCE {
        return ("", false);
    }
    let mut words = None;
    for (i, _) in text.match_indices(' ') {
        let head = text[..i].trim_end();
        if plain_width(head) > room {
            break;
        }
        if !head.is_empty() {
            words = Some(head);
        }
    }
    let head = words.unwrap_or_else(|| {
        let chars = (room / GLYPH_ADVANCE) as usize;
        let end = text
            .char_indices()
            .nth(chars)
            .map_or(text.len(), |(i, _)| i);
        &text[..end]
    });
    (head, true)
}

/// Gap between two items of the hint bar: two spaces.
const ITEM_GAP: i32 = 2 * GLYPH_ADVANCE;

/// The hint bar's text laid out for a display: on one bar when it fits; else its items (parts
/// separated by two spaces, such as `F8 save timings`) cut to their key and first word
/// (`F8 save`), on one bar or wrapped over as many as they need and may take; items past the
/// last bar are left out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hint<'a> {
    text: &'a str,
    short: bool,
    room: i32,
    max_bars: i32,
}

impl<'a> Hint<'a> {
    /// `text` laid out for a display `width` pixels wide, on at most `max_bars` bars (one
    /// whatever it says).
    pub fn new(text: &'a str, width: i32, max_bars: i32) -> Hint<'a> {
        let room = room(width);
        Hint {
            text,
            short: plain_width(text) > room,
            room,
            max_bars: max_bars.max(1),
        }
    }

    /// How many bars it takes (at least one).
    pub fn bars(&self) -> i32 {
        let mut bars = 1;
        self.place(|bar, _, _| bars = bars.max(bar + 1));
        bars
    }

    /// Calls `at(bar, x, item)` for every item: its bar (0 the top one) and its left edge from
    /// the margin.
    pub fn place(&self, mut at: impl FnMut(i32, i32, &'a str)) {
        if !self.short {
            at(0, 0, self.text);
            return;
        }
        let (mut bar, mut x) = (0, 0);
        for item in self
            .text
            .split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let item = key_and_first_word(item);
            let w = plain_width(item);
            if x > 0 && x + ITEM_GAP + w > self.room {
                bar += 1;
                x = 0;
            }
            if bar == self.max_bars {
                return;
            }
            let left = if x > 0 { x + ITEM_GAP } else { 0 };
            at(bar, left, item);
            x = left + w;
        }
    }
}

/// An item's first two words: the key and what it does (`F8 save timings` gives `F8 save`).
fn key_and_first_word(item: &str) -> &str {
    match item.match_indices(' ').nth(1) {
        Some((i, _)) => &item[..i],
        None => item,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_lose_whole_segments_from_the_right() {
        let row = "FPS  60/60|Draws 42";
        assert_eq!(whole_segments(row, 200), row);
        // "FPS  60/60" is 60 px; with the divider and "Draws 42", 122.
        assert_eq!(whole_segments(row, 121), "FPS  60/60");
        assert_eq!(whole_segments(row, 60), "FPS  60/60");
        assert_eq!(whole_segments(row, 59), "");
    }

    #[test]
    fn titles_lose_whole_words_and_say_so() {
        assert_eq!(shortened("Comet Cat", 54), ("Comet Cat", false));
        // 53 px: "Comet" and room for the ellipsis.
        assert_eq!(shortened("Comet Cat", 53), ("Comet", true));
        assert_eq!(
            shortened("An extremely long title", 90),
            ("An extremely", true)
        );
        // No whole word fits: as many characters as do, then the ellipsis.
        assert_eq!(shortened("Supercalifragilistic", 36), ("Super", true));
        assert_eq!(shortened("Comet Cat", 11), ("", false));
    }

    #[test]
    fn the_hint_shortens_its_items_then_wraps_them() {
        let text = "` view  click: hide  F7 tall  F8 save timings";
        let laid = |width| {
            let hint = Hint::new(text, width, 3);
            let mut items = Vec::new();
            hint.place(|bar, x, item| items.push((bar, x, item)));
            (hint.bars(), items)
        };
        assert_eq!(laid(320), (1, vec![(0, 0, text)]));
        assert_eq!(
            laid(240),
            (
                1,
                vec![
                    (0, 0, "` view"),
                    (0, 48, "click: hide"),
                    (0, 126, "F7 tall"),
                    (0, 180, "F8 save"),
                ]
            )
        );
        assert_eq!(
            laid(128),
            (
                2,
                vec![
                    (0, 0, "` view"),
                    (0, 48, "click: hide"),
                    (1, 0, "F7 tall"),
                    (1, 54, "F8 save"),
                ]
            )
        );
        // With room for one bar only, the items that fit on it.
        let one = Hint::new(text, 128, 1);
        let mut items = Vec::new();
        one.place(|bar, _, item| items.push((bar, item)));
        assert_eq!(
            (one.bars(), items),
            (1, vec![(0, "` view"), (0, "click: hide")])
        );
        for width in [1, 20, 64, 128, 160, 240] {
            let hint = Hint::new(text, width, 3);
            hint.place(|_, x, item| {
                let fits = x + plain_width(item) <= room(width);
                assert!(fits || x == 0, "{width}: {item} at {x}");
            });
        }
    }

    /// The overlay's own hint laid out on a display `width` wide with room for `max_bars`.
    fn overlay_hint(width: i32, max_bars: i32) -> (i32, Vec<(i32, &'static str)>) {
        let hint = Hint::new(crate::HIDE_HINT, width, max_bars);
        let mut items = Vec::new();
        hint.place(|bar, _, item| items.push((bar, item)));
        (hint.bars(), items)
    }

    #[test]
    fn the_overlay_hint_shows_the_pause_menu_and_quit_keys_first_on_every_display() {
        // 320 px: the whole text on one bar.
        assert_eq!(
            overlay_hint(320, 3),
            (
                1,
                vec![(0, "P menu  Ctrl+Q quit  ` view  F7 tall  F8 timings")]
            )
        );
        // The starter's 240 px: two bars.
        assert_eq!(
            overlay_hint(240, 3),
            (
                2,
                vec![
                    (0, "P menu"),
                    (0, "Ctrl+Q quit"),
                    (0, "` view"),
                    (0, "F7 tall"),
                    (1, "F8 timings"),
                ]
            )
        );
        // PICO-8's 128 px: three bars where there is room for them ...
        assert_eq!(
            overlay_hint(128, 3),
            (
                3,
                vec![
                    (0, "P menu"),
                    (0, "Ctrl+Q quit"),
                    (1, "` view"),
                    (1, "F7 tall"),
                    (2, "F8 timings"),
                ]
            )
        );
        // ... and with room for one (under the tall chart), the way out is what stays.
        assert_eq!(
            overlay_hint(128, 1),
            (1, vec![(0, "P menu"), (0, "Ctrl+Q quit")])
        );
        for width in [128, 160, 240, 256, 320] {
            let (_, items) = overlay_hint(width, 3);
            let keep = |key: &str| items.iter().any(|&(_, item)| item.contains(key));
            assert!(keep("P menu") && keep("Ctrl+Q quit"), "{width}: {items:?}");
            Hint::new(crate::HIDE_HINT, width, 3).place(|_, x, item| {
                assert!(
                    x + plain_width(item) <= room(width),
                    "{width}: {item} at {x}"
                );
            });
        }
    }
}
