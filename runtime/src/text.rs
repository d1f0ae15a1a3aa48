//! Quoting what a user typed or a file held, safely, in a one-line message.

/// The most characters of user text a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as a message may quote it: control characters escaped, and cut to
/// [`EXCERPT_CHARS`] with an ellipsis, so a huge or binary value never floods a terminal.
///
/// ```
/// use bt_runtime::text::excerpt;
///
/// assert_eq!(excerpt("hello"), "hello");
/// assert_eq!(excerpt("a\u{0}b"), "a\\0b");
/// assert_eq!(excerpt(&"x".repeat(100)).chars().count(), 41);
/// ```
pub fn excerpt(text: &str) -> String {
    excerpt_chars(text, EXCERPT_CHARS)
}

/// As [`excerpt`], cut at `max` characters.
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
