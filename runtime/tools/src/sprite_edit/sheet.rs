//! A sprite sheet as its indexed PNG file: the palette numbers of its pixels, its palette and
//! transparency, and the file's chunks, so a save changes the pixels and nothing else.

use bt::{AssetError, AssetErrorKind, Color32};

use crate::config::png_loader::{decode_image, decode_png_indices, PNG_SIGNATURE};

/// An indexed PNG being edited.
///
/// A sheet whose pixels are as read is written back as the bytes read, whatever chunks they
/// hold; an edited one keeps every chunk in its place and order and replaces only the picture
/// data (`IDAT`), at the same bit depth, with the same palette (`PLTE`) and transparency
/// (`tRNS`).
#[derive(Clone)]
pub struct Sheet {
    name: String,
    /// The file's bytes as read or last saved (or as a conversion made them).
    bytes: Vec<u8>,
    width: u32,
    height: u32,
    /// Bits a pixel: 1, 2, 4 or 8.
    depth: u8,
    /// Each palette entry's colour and opacity (`PLTE`, with `tRNS`'s alphas).
    colors: Vec<[u8; 4]>,
    pixels: Vec<u8>,
    /// The pixels as in `bytes`.
    saved_pixels: Vec<u8>,
    /// Made by [`Sheet::convert`] and not saved since: the file on disk is not `bytes`.
    converted: bool,
}

/// One colour of a converted picture and the palette number it became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapped {
    /// The picture's colour, RGBA.
    pub color: [u8; 4],
    /// Its palette number in the converted sheet.
    pub index: u8,
}

/// A PNG's chunks: (type, where the chunk starts, where it ends), in order, up to `IEND`.
fn chunks(bytes: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut out = Vec::new();
    let mut at = PNG_SIGNATURE.len();
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = [head[4], head[5], head[6], head[7]];
        let end = at.saturating_add(12).saturating_add(len);
        if end > bytes.len() {
            break;
        }
        out.push((kind, at, end));
        at = end;
        if &kind == b"IEND" {
            break;
        }
    }
    out
}

/// The data of the first chunk of type `kind`.
fn chunk_data<'a>(bytes: &'a [u8], kind: &[u8; 4]) -> Option<&'a [u8]> {
    chunks(bytes)
        .into_iter()
        .find(|(k, _, _)| k == kind)
        .map(|(_, start, end)| &bytes[start + 8..end - 4])
}

/// The CRC-32 a PNG chunk ends with, of its type and data.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Appends a chunk of type `kind` holding `data`.
fn push_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

/// `pixels` packed `depth` bits a pixel, rows starting on a byte, as PNG stores them.
fn pack(pixels: &[u8], width: u32, depth: u8) -> Vec<u8> {
    let bits = usize::from(depth);
    let per_byte = 8 / bits;
    let row_bytes = (width as usize).div_ceil(per_byte);
    let rows = pixels.len() / (width as usize).max(1);
    let mut data = vec![0u8; row_bytes * rows];
    for (i, &n) in pixels.iter().enumerate() {
        let (x, y) = (i % width as usize, i / width as usize);
        // The leftmost pixel in the byte's highest bits.
        let shift = 8 - bits * (x % per_byte + 1);
        data[y * row_bytes + x / per_byte] |= n << shift;
    }
    data
}

/// A whole indexed PNG of `pixels` at `depth` with `colors` as its palette (and a `tRNS`
/// when a colour is not opaque).
fn encode_new(
    width: u32,
    height: u32,
    depth: u8,
    colors: &[[u8; 4]],
    pixels: &[u8],
) -> Result<Vec<u8>, String> {
    let depth_of = match depth {
        1 => png::BitDepth::One,
        2 => png::BitDepth::Two,
        4 => png::BitDepth::Four,
        _ => png::BitDepth::Eight,
    };
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(depth_of);
    enc.set_palette(
        colors
            .iter()
            .flat_map(|c| [c[0], c[1], c[2]])
            .collect::<Vec<_>>(),
    );
    let opaque_tail = colors.iter().rev().take_while(|c| c[3] == 255).count();
    if opaque_tail < colors.len() {
        let alphas = colors[..colors.len() - opaque_tail].iter().map(|c| c[3]);
        enc.set_trns(alphas.collect::<Vec<_>>());
    }
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&pack(pixels, width, depth))
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

impl Sheet {
    /// The sheet in the PNG `bytes`, named `name` in messages.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`: not a PNG, damaged, over BT's size limits, or a PNG
    /// of colours rather than palette numbers ([`AssetErrorKind::NotIndexed`]).
    pub fn read(name: &str, bytes: Vec<u8>) -> Result<Sheet, AssetError> {
        let image = decode_png_indices(name, &bytes)?;
        let damaged = |what: &str| AssetError::new(name, AssetErrorKind::NotPng(what.to_string()));
        let header = chunk_data(&bytes, b"IHDR").ok_or_else(|| damaged("no header"))?;
        let depth = *header.get(8).ok_or_else(|| damaged("a short header"))?;
        let plte = chunk_data(&bytes, b"PLTE").ok_or_else(|| damaged("no palette (PLTE)"))?;
        let trns = chunk_data(&bytes, b"tRNS").unwrap_or(&[]);
        let colors: Vec<[u8; 4]> = plte
            .chunks_exact(3)
            .enumerate()
            .map(|(i, c)| [c[0], c[1], c[2], trns.get(i).copied().unwrap_or(255)])
            .collect();
        if colors.is_empty() {
            return Err(damaged("an empty palette (PLTE)"));
        }
        if let Some(&n) = image
            .pixels
            .iter()
            .find(|&&n| usize::from(n) >= colors.len())
        {
            return Err(damaged(&format!(
                "a pixel of colour {n}, past its palette of {}",
                colors.len()
            )));
        }
        Ok(Sheet {
            name: name.to_string(),
            width: image.width,
            height: image.height,
            depth,
            colors,
            saved_pixels: image.pixels.clone(),
            pixels: image.pixels,
            bytes,
            converted: false,
        })
    }

    /// A PNG of colours (RGB, RGBA, grey) made an indexed sheet, numbered as the cart's
    /// palette `fallback` numbers them: with at most 256 colours, the palette is `fallback`'s
    /// colours followed by the picture's others in the order they first appear (the picture's
    /// alone when that is past 256); with more, each pixel takes the nearest of `fallback`.
    /// Also says which colour became which number, in the order they first appear.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`: not a PNG, damaged, or over BT's size limits.
    pub fn convert(
        name: &str,
        bytes: &[u8],
        fallback: &[Color32],
    ) -> Result<(Sheet, Vec<Mapped>), AssetError> {
        let image = decode_image(name, bytes)?;
        let mut seen: Vec<[u8; 4]> = Vec::new();
        let mut lookup = std::collections::HashMap::new();
        let mut own = true;
        for px in image.pixels.chunks_exact(4) {
            let c = [px[0], px[1], px[2], px[3]];
            if let std::collections::hash_map::Entry::Vacant(slot) = lookup.entry(c) {
                if seen.len() == 256 {
                    own = false;
                    break;
                }
                slot.insert(seen.len() as u8);
                seen.push(c);
            }
        }
        let (colors, mapped): (Vec<[u8; 4]>, Vec<Mapped>) = if own {
            // The cart's palette first, so its colours keep their numbers; the picture's
            // others after it, while all fit.
            let base: Vec<[u8; 4]> = fallback.iter().map(|c| [c.r, c.g, c.b, 255]).collect();
            let extra = seen.iter().filter(|c| !base.contains(c)).copied();
            let colors: Vec<[u8; 4]> = if base.len() + extra.clone().count() <= 256 {
                base.iter().copied().chain(extra).collect()
            } else {
                seen.clone()
            };
            for (c, index) in lookup.iter_mut() {
                *index = colors.iter().position(|p| p == c).unwrap_or(0) as u8;
            }
            let mapped = seen
                .iter()
                .map(|color| Mapped {
                    color: *color,
                    index: lookup[color],
                })
                .collect();
            (colors, mapped)
        } else {
            let colors: Vec<[u8; 4]> = fallback
                .iter()
                .take(256)
                .map(|c| [c.r, c.g, c.b, 255])
                .collect();
            lookup.clear();
            let mut mapped = Vec::new();
            for px in image.pixels.chunks_exact(4) {
                let c = [px[0], px[1], px[2], px[3]];
                if let std::collections::hash_map::Entry::Vacant(slot) = lookup.entry(c) {
                    let index = nearest(&colors, c);
                    slot.insert(index);
                    mapped.push(Mapped { color: c, index });
                }
            }
            (colors, mapped)
        };
        let pixels: Vec<u8> = image
            .pixels
            .chunks_exact(4)
            .map(|px| lookup[&[px[0], px[1], px[2], px[3]]])
            .collect();
        let depth = match colors.len() {
            0..=2 => 1,
            3..=4 => 2,
            5..=16 => 4,
            _ => 8,
        };
        let bytes = encode_new(image.width, image.height, depth, &colors, &pixels)
            .map_err(|e| AssetError::new(name, AssetErrorKind::NotPng(e)))?;
        let mut sheet = Sheet::read(name, bytes)?;
        sheet.converted = true;
        Ok((sheet, mapped))
    }

    /// The name the sheet goes by in messages and on its tab.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Bits a pixel in the file: 1, 2, 4 or 8.
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// The palette: each entry's red, green, blue and opacity.
    pub fn colors(&self) -> &[[u8; 4]] {
        &self.colors
    }

    /// All pixels, row by row.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The palette number at (`x`, `y`); `None` outside the sheet.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        let inside = (0..self.width as i32).contains(&x) && (0..self.height as i32).contains(&y);
        inside.then(|| self.pixels[y as usize * self.width as usize + x as usize])
    }

    /// Sets the pixel at (`x`, `y`) to palette number `index`; nothing outside the sheet, or
    /// for a number past the palette.
    pub fn set(&mut self, x: i32, y: i32, index: u8) {
        let inside = (0..self.width as i32).contains(&x) && (0..self.height as i32).contains(&y);
        if inside && usize::from(index) < self.colors.len() {
            self.pixels[y as usize * self.width as usize + x as usize] = index;
        }
    }

    /// Whether the pixels differ from the file's (or the sheet is a conversion not saved).
    pub fn is_edited(&self) -> bool {
        self.converted || self.is_painted()
    }

    /// Whether the pixels differ from the file's, a conversion aside.
    pub fn is_painted(&self) -> bool {
        self.pixels != self.saved_pixels
    }

    /// The file as it is to be saved: the bytes read when the pixels are as read; otherwise
    /// every chunk as read with the picture data made again from the pixels.
    ///
    /// # Errors
    /// The encoder's own words (it fails only on a picture BT never reads).
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        if self.pixels == self.saved_pixels {
            return Ok(self.bytes.clone());
        }
        let fresh = encode_new(
            self.width,
            self.height,
            self.depth,
            &self.colors,
            &self.pixels,
        )?;
        let new_data: Vec<u8> = chunks(&fresh)
            .into_iter()
            .filter(|(k, _, _)| k == b"IDAT")
            .flat_map(|(_, start, end)| fresh[start..end].iter().copied())
            .collect();
        let mut out = PNG_SIGNATURE.to_vec();
        let mut wrote = false;
        let mut last_end = PNG_SIGNATURE.len();
        for (kind, start, end) in chunks(&self.bytes) {
            match &kind {
                b"IDAT" if wrote => {}
                b"IDAT" => {
                    out.extend(&new_data);
                    wrote = true;
                }
                b"IHDR" if self.bytes.get(start + 8 + 12) != Some(&0) => {
                    // An interlaced file's pixels are written in rows now: the header says so.
                    let mut header = self.bytes[start + 8..end - 4].to_vec();
                    header[12] = 0;
                    push_chunk(&mut out, b"IHDR", &header);
                }
                _ => out.extend(&self.bytes[start..end]),
            }
            last_end = end;
        }
        // Whatever followed the last chunk stays too.
        out.extend(&self.bytes[last_end..]);
        Ok(out)
    }

    /// Takes `bytes` as what the file now holds, the pixels as saved.
    pub fn mark_saved(&mut self, bytes: Vec<u8>) {
        self.bytes = bytes;
        self.saved_pixels.clone_from(&self.pixels);
        self.converted = false;
    }
}

/// The palette number in `colors` nearest to `c` (a see-through `c` takes the first
/// see-through entry if there is one).
pub(super) fn nearest(colors: &[[u8; 4]], c: [u8; 4]) -> u8 {
    if c[3] == 0 {
        if let Some(i) = colors.iter().position(|p| p[3] == 0) {
            return i as u8;
        }
    }
    let distance = |p: &[u8; 4]| -> i32 {
        (0..3)
            .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
            .sum()
    };
    (0..colors.len())
        .min_by_key(|&i| distance(&colors[i]))
        .unwrap_or(0) as u8
}

impl std::fmt::Debug for Sheet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sheet")
            .field("name", &self.name)
            .field("size", &(self.width, self.height))
            .field("depth", &self.depth)
            .field("colors", &self.colors.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_written_here_has_the_crc_png_gives_it() {
        // The IEND chunk every PNG ends with: its CRC is fixed.
        let mut out = Vec::new();
        push_chunk(&mut out, b"IEND", &[]);
        assert_eq!(
            out,
            [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82]
        );
    }

    #[test]
    fn pixels_pack_with_the_leftmost_in_the_highest_bits() {
        assert_eq!(
            pack(&[1, 0, 1, 1, 0, 0, 0, 0, 1], 9, 1),
            [0b1011_0000, 0b1000_0000]
        );
        assert_eq!(pack(&[3, 1, 2], 3, 2), [0b1101_1000]);
    }

    #[test]
    fn an_interlaced_sheet_edited_is_written_in_rows_and_its_header_says_so() {
        // One pixel is the same data interlaced or not: only the header's byte differs.
        let colors = [[0, 0, 0, 255], [255, 255, 255, 255]];
        let plain = encode_new(1, 1, 8, &colors, &[0]).unwrap();
        let (at, header) = (PNG_SIGNATURE.len(), PNG_SIGNATURE.len() + 8);
        let mut laced = plain.clone();
        laced[header + 12] = 1;
        let crc = crc32(&laced[at + 4..header + 13]);
        laced[header + 13..header + 17].copy_from_slice(&crc.to_be_bytes());
        // Bytes after the end stay too.
        laced.extend(b"trailer");
        let mut sheet = Sheet::read("laced.png", laced.clone()).unwrap();
        assert_eq!(sheet.encode().unwrap(), laced, "no edit: the bytes read");
        sheet.set(0, 0, 1);
        let saved = sheet.encode().unwrap();
        assert_eq!(saved[header + 12], 0, "not interlaced now");
        assert!(saved.ends_with(b"trailer"));
        assert_eq!(Sheet::read("laced.png", saved).unwrap().pixels(), [1]);
    }

    #[test]
    fn a_converted_picture_keeps_the_carts_numbers_and_adds_its_other_colours_after_them() {
        let cart = [
            Color32::rgb(0, 0, 0),
            Color32::rgb(9, 9, 9),
            Color32::rgb(255, 0, 77),
        ];
        let rgba = [
            [255, 0, 77, 255],
            [1, 2, 3, 255],
            [0, 0, 0, 255],
            [1, 2, 3, 0],
        ]
        .concat();
        let png = crate::sprite_edit::rgba_png(4, 1, &rgba);
        let (sheet, mapped) = Sheet::convert("c.png", &png, &cart).unwrap();
        assert_eq!(sheet.pixels(), [2, 3, 0, 4]);
        assert_eq!(sheet.colors().len(), 5);
        assert_eq!(
            sheet.colors()[4],
            [1, 2, 3, 0],
            "see-through kept as see-through"
        );
        let named: Vec<u8> = mapped.iter().map(|m| m.index).collect();
        assert_eq!(named, [2, 3, 0, 4], "named in the order they first appear");
        // Past 256 in all, the picture's own colours alone.
        let many: Vec<Color32> = (0..255).map(|i| Color32::rgb(i, 1, 1)).collect();
        let (sheet, _) = Sheet::convert("c.png", &png, &many).unwrap();
        assert_eq!(sheet.pixels(), [0, 1, 2, 3]);
    }
}
