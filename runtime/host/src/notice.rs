//! A message for the overlay's notice bar, fitted to the display: wrapped over as many lines as
//! it takes, and, when that would cover more than half the picture, shortened from the middle
//! so what a reader needs stays: the file the message is about and the reason at its end.
//!
//! The whole message goes to the terminal as it is; only the picture gets the fitted form.

use bt::limits::{GLYPH_ADVANCE, LINE_HEIGHT};
use bt_overlay::EDGE_MARGIN;

/// The most rows of the picture a notice covers: half, so the game still shows below it.
const MAX_SHARE_DENOMINATOR: u32 = 2;

/// Characters that fit on one line of the notice bar of a `width`-pixel display, at least 8.
pub fn columns_for(width: u32) -> usize {
    let room = (width as i32 - EDGE_MARGIN).max(0) / GLYPH_ADVANCE;
    (room as usize).max(8)
}

/// Lines the notice of a `height`-pixel display may take, at least 1.
pub fn max_lines_for(height: u32) -> usize {
    ((height / MAX_SHARE_DENOMINATOR) as usize / LINE_HEIGHT as usize).max(1)
}

/// `message` as the notice of a `width` × `height` display shows it: lines joined by `\n`
/// ([`wrap`] into [`columns_for`] and at most [`max_lines_for`], [`shorten`]ed when it is
/// longer), control characters escaped.
pub fn fit(message: &str, width: u32, height: u32) -> String {
    let clean = crate::quote::excerpt_chars(message, usize::MAX);
    let (columns, max_lines) = (columns_for(width), max_lines_for(height));
    let lines = wrap(&clean, columns);
    if lines.len() <= max_lines {
        return lines.join("\n");
    }
    // Shortened to what the lines hold, wrapped again, or when breaking at spaces loses too
    // much room, cut into lines at any character.
    let short = shorten(&clean, columns * max_lines);
    let lines = wrap(&short, columns);
    if lines.len() <= max_lines {
        return lines.join("\n");
    }
    let chars: Vec<char> = short.chars().collect();
    let lines: Vec<String> = chars.chunks(columns).map(|l| l.iter().collect()).collect();
    lines.join("\n")
}

/// `text` in lines of at most `columns` characters, broken after a space or a `/` where one
/// is near enough the end of a line (at most a third of the line back), else inside a word.
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > columns {
        let window = &rest[..=columns];
        let earliest = columns - columns / 3;
        let cut = (earliest..=columns)
            .rev()
            .find(|&i| window[i] == ' ' || (i > 0 && window[i - 1] == '/'))
            .filter(|&i| i > 0)
            .unwrap_or(columns);
        let line: String = rest[..cut].iter().collect();
        lines.push(line.trim_end().to_string());
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    if !rest.is_empty() || lines.is_empty() {
        lines.push(rest.into_iter().collect());
    }
    lines
}

/// `text` in at most `max` characters: every path in it first shortened to its file name
/// (`…/sprites.png`), then, if that is not enough, the middle cut out (`…`), keeping the
/// beginning up to the first file name and as much of the end, where the reason is, as fits.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let words: Vec<String> = text.split(' ').map(file_name_of_path).collect();
    let short = words.join(" ");
    let count = short.chars().count();
    if count <= max {
        return short;
    }
    if max <= 1 {
        return "…".chars().take(max).collect();
    }
    // The head: up to the end of the first word naming a file, at most half of what fits.
    let mut head_end = 0;
    let mut seen = 0;
    for w in &words {
        seen += w.chars().count() + 1;
        if w.contains('.') || w.contains('/') || w.contains('…') {
            head_end = seen;
            break;
        }
    }
    let head_len = head_end.min(max / 2);
    let tail_len = max - 1 - head_len;
    let chars: Vec<char> = short.chars().collect();
    let head: String = chars[..head_len].iter().collect();
    let tail: String = chars[count - tail_len..].iter().collect();
    format!("{head}…{tail}")
}

/// A word that is a path with folders (`/a/b/sprites.png:`) as `…/sprites.png:`; any other
/// word as it is.
fn file_name_of_path(word: &str) -> String {
    let trimmed = word.trim_end_matches([':', ',', ';', ')']);
    match trimmed.rsplit_once('/') {
        Some((folders, name)) if !folders.is_empty() && !name.is_empty() => {
            format!("…/{name}{}", &word[trimmed.len()..])
        }
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BROKEN: &str = "reload: /home/someone/games/robots/assets/sprites.png: not a PNG \
                          file: invalid PNG signature";

    #[test]
    fn a_short_message_is_one_line() {
        assert_eq!(fit("reload: ok.png: bad", 240, 160), "reload: ok.png: bad");
    }

    #[test]
    fn a_long_message_wraps_into_lines_the_display_holds() {
        let columns = columns_for(240);
        assert_eq!(columns, 38);
        let text = fit(BROKEN, 240, 160);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= columns), "{text}");
        // Nothing lost: the lines are the message.
        assert_eq!(text.replace(['\n', ' '], ""), BROKEN.replace(' ', ""));
        // Broken at spaces and after slashes, never inside a word that fits.
        assert!(
            lines[0].ends_with('/') || BROKEN.contains(&format!("{} ", lines[0])),
            "{text}"
        );
    }

    #[test]
    fn on_a_small_display_the_file_name_and_the_reason_stay() {
        // 128x128: 20 characters a line, at most 4 lines.
        assert_eq!((columns_for(128), max_lines_for(128)), (20, 4));
        let text = fit(BROKEN, 128, 128);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() <= 4, "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{text}");
        let joined = text.replace('\n', "");
        assert!(joined.contains("sprites.png"), "{text}");
        assert!(joined.ends_with("invalid PNG signature"), "{text}");
        assert!(!joined.contains("/home/someone"), "{text}");
    }

    #[test]
    fn shortening_cuts_the_middle_when_file_names_are_not_enough() {
        let long = format!(
            "reload: {}/map.tmj: {} the end",
            "/x".repeat(10),
            "word ".repeat(40)
        );
        let short = shorten(&long, 40);
        assert_eq!(short.chars().count(), 40, "{short}");
        assert!(short.starts_with("reload: …/map.tmj: "), "{short}");
        assert!(short.ends_with("the end"), "{short}");
        assert!(short.contains('…'));
        assert_eq!(shorten("short", 40), "short");
    }

    #[test]
    fn a_word_longer_than_a_line_is_cut_inside() {
        let lines = wrap(&"a".repeat(25), 10);
        assert_eq!(lines, ["a".repeat(10), "a".repeat(10), "a".repeat(5)]);
    }

    #[test]
    fn control_characters_in_a_message_are_escaped_not_drawn() {
        assert_eq!(fit("a\nb", 240, 160), "a\\nb");
    }

    #[test]
    fn a_tiny_display_still_gets_a_line() {
        let text = fit(BROKEN, 8, 8);
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}
