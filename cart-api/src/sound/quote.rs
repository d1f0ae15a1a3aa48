//! Quoting what a sound file held in a one-line message, the way BT quotes a manifest's values:
//! control characters escaped, long text cut, so a huge or binary word never floods a terminal
//! or splits a message over two lines.

/// The most characters of a file's text a message quotes.
const EXCERPT_CHARS: usize = 40;

/// `text` in double quotes, escaped as Rust writes a string: at most 40 characters, and when
/// cut, an ellipsis and the full count.
pub(crate) fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT_CHARS {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    format!("{head:?}… ({count} characters)")
}

/// `text` unquoted with its control characters escaped and cut to 40 characters with an
/// ellipsis: for a file's name at the head of a message.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_control_characters_and_cuts_long_words() {
        assert_eq!(quoted("C4"), "\"C4\"");
        assert_eq!(quoted("\u{1b}[2J\0"), "\"\\u{1b}[2J\\0\"");
        let long = quoted(&"x".repeat(1 << 20));
        assert!(long.ends_with("… (1048576 characters)"), "{long}");
        assert!(long.len() < 80);
        assert_eq!(excerpt("a\nb.txt"), "a\\nb.txt");
        assert_eq!(excerpt(&"y".repeat(100)).chars().count(), 41);
    }
}
