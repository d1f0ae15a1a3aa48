//! Quoting what a user typed or a file held in a one-line message: control characters escaped,
//! long text cut, so a huge or binary word never floods a terminal or splits a message over two
//! lines. The sound-file parser uses it here, and the runtime's messages (`bt_runtime::quote`)
//! are built on the same functions.

/// The most characters of user text a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` in double quotes, escaped as Rust writes a string: at most [`EXCERPT_CHARS`]
/// characters, and when cut, an ellipsis and the full count.
///
/// ```
/// use bt::host::quoted;
///
/// assert_eq!(quoted("big"), "\"big\"");
/// assert_eq!(quoted("a\nb"), "\"a\\nb\"");
/// assert!(quoted(&"x".repeat(50)).ends_with("\"… (50 characters)"));
/// ```
pub fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT_CHARS {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    format!("{head:?}… ({count} characters)")
}

/// `text` unquoted with its control characters escaped, cut at `max` characters with an
/// ellipsis: for a file's name at the head of a message.
///
/// ```
/// use bt::host::excerpt_chars;
///
/// assert_eq!(excerpt_chars("a\u{0}b", 40), "a\\0b");
/// assert_eq!(excerpt_chars("abcdef", 3), "abc…");
/// ```
pub fn excerpt_chars(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
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

/// [`excerpt_chars`] at [`EXCERPT_CHARS`].
pub(crate) fn excerpt(text: &str) -> String {
    excerpt_chars(text, EXCERPT_CHARS)
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
