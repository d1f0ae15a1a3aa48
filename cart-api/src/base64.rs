//! Standard base64, both ways: the one codec for the formats that carry bytes as text (a
//! `.btfont` font's embedded picture, a Tiled map's layer data, the files an editor's
//! recording holds).

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

/// `bytes` as standard base64 text, with `=` padding, on one line (as Tiled writes a layer).
///
/// ```
/// use bt::host::{decode_base64, encode_base64};
///
/// assert_eq!(encode_base64(b"hi"), "aGk=");
/// assert_eq!(decode_base64(&encode_base64(b"any bytes")), Ok(b"any bytes".to_vec()));
/// ```
pub fn encode_base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            if k <= group.len() {
                out.push(char::from(DIGITS[(n >> (18 - 6 * k) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_comes_back_and_pads_as_the_standard_says() {
        assert_eq!(encode_base64(b""), "");
        assert_eq!(encode_base64(b"h"), "aA==");
        assert_eq!(encode_base64(b"hi!"), "aGkh");
        assert_eq!(encode_base64(b"\x89PNG\r\n\x1a\n"), "iVBORw0KGgo=");
        let all: Vec<u8> = (0..=255).collect();
        for n in 0..all.len() {
            assert_eq!(
                decode_base64(&encode_base64(&all[..n])),
                Ok(all[..n].to_vec())
            );
        }
    }

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
