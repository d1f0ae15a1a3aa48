//! A layer's data as Tiled writes it in one piece: base64 of the cells' four little-endian
//! bytes each, compressed with zlib or gzip or not at all.

use std::io::{Read, Write};

/// How a base64 layer's bytes are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Zlib,
    Gzip,
}

impl Compression {
    /// The compression Tiled names `name` (`""` for none); `None` for one not kept (zstd).
    pub fn named(name: &str) -> Option<Compression> {
        match name {
            "" => Some(Compression::None),
            "zlib" => Some(Compression::Zlib),
            "gzip" => Some(Compression::Gzip),
            _ => None,
        }
    }
}

/// The cells of base64 `text`, `cells` of them.
///
/// # Errors
/// What is wrong with the text, in a few words.
pub(crate) fn decode(
    text: &str,
    compression: Compression,
    cells: usize,
) -> Result<Vec<u32>, String> {
    let bytes = bt::host::decode_base64(text)
        .map_err(|(i, c)| format!("'{c}' at character {i} is not base64"))?;
    // Four bytes a cell, and one more to tell a layer that holds too much.
    let limit = cells as u64 * 4 + 1;
    let bytes = match compression {
        Compression::None => bytes,
        Compression::Zlib => inflate(flate2::read::ZlibDecoder::new(&bytes[..]), limit)?,
        Compression::Gzip => inflate(flate2::read::GzDecoder::new(&bytes[..]), limit)?,
    };
    if bytes.len() > cells * 4 {
        return Err(format!(
            "more than {} bytes after decoding, the {cells} cells' 4 bytes each",
            cells * 4
        ));
    }
    if bytes.len() != cells * 4 {
        return Err(format!(
            "{} bytes after decoding for {cells} cells of 4 bytes",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

fn inflate(reader: impl Read, limit: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| format!("not valid compressed data: {e}"))?;
    Ok(out)
}

/// `cells` as base64 text, compressed as `compression`.
pub(crate) fn encode(cells: &[u32], compression: Compression) -> String {
    let raw: Vec<u8> = cells.iter().flat_map(|c| c.to_le_bytes()).collect();
    let packed = match compression {
        Compression::None => raw,
        Compression::Zlib => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            // Writing into a Vec cannot fail.
            let _ = z.write_all(&raw);
            z.finish().unwrap_or_default()
        }
        Compression::Gzip => {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            let _ = z.write_all(&raw);
            z.finish().unwrap_or_default()
        }
    };
    base64(&packed)
}

/// Standard base64 with `=` padding, as Tiled writes it.
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
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
    fn cells_come_back_through_every_compression() {
        let cells = [0, 1, 0x8000_0005, 70_000, 3];
        for c in [Compression::None, Compression::Zlib, Compression::Gzip] {
            let text = encode(&cells, c);
            assert_eq!(decode(&text, c, cells.len()).unwrap(), cells, "{c:?}");
        }
        assert_eq!(base64(b"hi"), "aGk=");
        assert_eq!(base64(b"hi!"), "aGkh");
    }

    #[test]
    fn a_layer_of_the_wrong_length_is_named() {
        let text = encode(&[1, 2, 3], Compression::Zlib);
        assert_eq!(
            decode(&text, Compression::Zlib, 2).unwrap_err(),
            "more than 8 bytes after decoding, the 2 cells' 4 bytes each"
        );
    }
}
