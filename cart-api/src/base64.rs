//! Standard base64 text to bytes: the one decoder for the formats that carry bytes as text
//! (a `.btfont` font's embedded picture, a Tiled map's layer data).

/// The bytes of standard base64 `text`: whitespace is ignored and `=` padding is optional.
/// A character that is not base64 is returned with its byte offset in `text`.
///
/// ```
/// use bt::host::decode_base64;
///
/// assert_eq!(decode_base64("aGk="), Ok(b"hi".to_vec()));
/// assert_eq!(decode_base64("aG\nk"), Ok(b"hi".to_vec()));
/// assert_eq!(decode_base64("aG!k"), Err((2, '!')));
/// ```
///
/// # Errors
/// The offset and the character of the first character that is not base64.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, (usize, char)> {
    let digits = text.trim_end_matches(|c: char| c == '=' || c.is_whitespace());
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in digits.char_indices() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' => 62,
            '/' => 63,
            c if c.is_whitespace() => continue,
            c => return Err((i, c)),
        };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_optional_and_a_bad_character_is_named_with_its_offset() {
        assert_eq!(decode_base64("aGk"), Ok(b"hi".to_vec()));
        assert_eq!(
            decode_base64("iVBORw0KGgo="),
            Ok(b"\x89PNG\r\n\x1a\n".to_vec())
        );
        assert_eq!(decode_base64(" aG k =\n"), Ok(b"hi".to_vec()));
        assert_eq!(decode_base64("aGé"), Err((2, 'é')));
        assert_eq!(decode_base64(""), Ok(Vec::new()));
    }
}
