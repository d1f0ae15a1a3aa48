//! Quoting what a user typed or a file held, safely, in a one-line message.

use std::path::Path;

pub use bt::host::{excerpt_chars, quoted, EXCERPT_CHARS};

/// The most characters of a path a message shows: far past any path a person types, short
/// enough that a message stays readable.
pub const PATH_CHARS: usize = 240;

/// `path` as every message shows a path: as given, control characters escaped (a file name
/// holding an escape sequence or a line break cannot recolour the terminal or split the
/// message), cut to [`PATH_CHARS`] characters.
///
/// ```
/// use bt_engine::quote::path;
/// use std::path::Path;
///
/// assert_eq!(path(Path::new("assets/sheet.png")), "assets/sheet.png");
/// assert_eq!(path(Path::new("two\u{1b}[31mred\n.txt")), "two\\u{1b}[31mred\\n.txt");
/// ```
pub fn path(path: &Path) -> String {
    excerpt_chars(&path.to_string_lossy(), PATH_CHARS)
}

/// `text` as a message may quote it: control characters escaped, and cut to
/// [`EXCERPT_CHARS`] with an ellipsis, so a huge or binary value never floods a terminal.
///
/// ```
/// use bt_engine::quote::excerpt;
///
/// assert_eq!(excerpt("hello"), "hello");
/// assert_eq!(excerpt("a\u{0}b"), "a\\0b");
/// assert_eq!(excerpt(&"x".repeat(100)).chars().count(), 41);
/// ```
pub fn excerpt(text: &str) -> String {
    excerpt_chars(text, EXCERPT_CHARS)
}

/// `value` for a message, short whatever its size: as Rust writes it when that is short, else
/// with six significant digits, in exponent form when very large or very small. The full
/// precision of a number like `1e308` would take 309 characters.
///
/// ```
/// use bt_engine::quote::number;
///
/// assert_eq!(number(60.0), "60");
/// assert_eq!(number(0.25), "0.25");
/// assert_eq!(number(1000.0 / 60.0), "16.6667");
/// assert_eq!(number(1e308), "1e308");
/// assert_eq!(number(-1.5e-306), "-1.5e-306");
/// assert_eq!(number(f64::NAN), "NaN");
/// ```
pub fn number(value: f64) -> String {
    /// Longer than this, Rust's shortest form gives way to six significant digits.
    const PLAIN_CHARS: usize = 12;
    let plain = value.to_string();
    if plain.len() <= PLAIN_CHARS || !value.is_finite() {
        return plain;
    }
    let magnitude = value.abs();
    if (1e-4..1e15).contains(&magnitude) {
        let decimals = (5 - magnitude.log10().floor() as i32).max(0) as usize;
        let fixed = format!("{value:.decimals$}");
        if fixed.contains('.') {
            return fixed
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string();
        }
        return fixed;
    }
    let exponent = format!("{value:.5e}");
    match exponent.split_once('e') {
        Some((mantissa, power)) if mantissa.contains('.') => {
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{power}")
        }
        _ => exponent,
    }
}

/// `message` without the source locations of the machine that built `bt`: a word such as
/// `/home/ci/.cargo/registry/src/…/winit-0.30.13/src/platform_impl/linux/mod.rs:785:` (where
/// winit says an OS error arose, or a panic was raised) names a file on that machine, says
/// nothing to the person running `bt` and leaks the builder's home. The word goes, with an
/// `at` before it, and brackets around it; the punctuation after it stays.
///
/// ```
/// use bt_engine::quote::without_source_paths;
///
/// let winit = "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
///              winit-0.30.13/src/platform_impl/linux/mod.rs:785: neither WAYLAND_DISPLAY \
///              nor DISPLAY is set.";
/// assert_eq!(
///     without_source_paths(winit),
///     "os error: neither WAYLAND_DISPLAY nor DISPLAY is set."
/// );
/// assert_eq!(without_source_paths("no adapter (src/gpu.rs:12:5)."), "no adapter.");
/// assert_eq!(without_source_paths("a file.rs that is fine"), "a file.rs that is fine");
/// ```
pub fn without_source_paths(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let space_end = rest[word_end..]
            .find(|c: char| !c.is_whitespace())
            .map_or(rest.len(), |n| word_end + n);
        let (word, space) = (&rest[..word_end], &rest[word_end..space_end]);
        rest = &rest[space_end..];
        let core = word.trim_start_matches(['(', '[', '<', '\'', '"', '`']);
        let lead = &word[..word.len() - core.len()];
        let place = core.trim_end_matches([':', ',', ';', '.', ')', ']', '>', '\'', '"', '`']);
        let tail = &core[place.len()..];
        if !is_source_location(place) {
            out.push_str(word);
            out.push_str(space);
            continue;
        }
        // The location goes, and an `at` before it ("os error at PATH:1:", "panicked at").
        let kept = out.trim_end();
        let kept = kept
            .strip_suffix(" at")
            .or_else(|| (kept == "at").then_some(""))
            .unwrap_or(kept);
        out.truncate(kept.len());
        // Brackets or quotes around the location go with it; what follows them stays.
        let mut tail = tail;
        for open in lead.chars().rev() {
            let close = match open {
                '(' => ')',
                '[' => ']',
                '<' => '>',
                other => other,
            };
            tail = tail.strip_prefix(close).unwrap_or(tail);
        }
        out.push_str(tail);
        if !out.is_empty() {
            out.push_str(space);
        }
    }
    out.trim_end().to_string()
}

/// Whether `word` is a Rust source location, `some/path.rs:LINE` or `some/path.rs:LINE:COLUMN`.
fn is_source_location(word: &str) -> bool {
    let mut parts = word.rsplitn(3, ':');
    let last = parts.next().unwrap_or_default();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(last) {
        return false;
    }
    let path = match (parts.next(), parts.next()) {
        (Some(line), Some(path)) if digits(line) => path,
        (Some(path), _) => path,
        _ => return false,
    };
    path.contains('/') && path.ends_with(".rs")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_stay_short_whatever_their_size() {
        for v in [
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            1e-306,
            4.9e-324,
            123_456_789_012_345.67,
            0.000_123_456_789,
            1.0 / 3.0,
        ] {
            let s = number(v);
            assert!(s.len() <= 16, "{v}: {s}");
            let back: f64 = s.parse().unwrap();
            assert!(((back - v) / v).abs() < 1e-5, "{v}: {s}");
        }
        assert_eq!(number(166_666.0), "166666");
        assert_eq!(number(1e10), "10000000000");
        assert_eq!(number(0.001), "0.001");
    }
}
