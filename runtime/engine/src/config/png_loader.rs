//! PNG pictures decoded for the cart API: as RGBA ([`decode_image`]) and as the palette numbers
//! of an indexed PNG ([`decode_png_indices`]). Where the bytes come from is
//! [`super::assets`]'s.

use std::io::Cursor;

use bt::host::{ImageLoader, IndexedImage, RgbaImage};

use super::assets::{Assets, Paths};
use bt::limits::{MAX_DISPLAY_PIXELS, MAX_SHEET_SIDE};
use bt::{AssetError, AssetErrorKind, Palette, SpriteSheet};

/// The largest asset file read (a sprite sheet or a sound file): 80 MiB. The largest picture
/// a sheet may be ([`MAX_DISPLAY_PIXELS`] pixels) stored as RGBA with no compression at all
/// is 64 MiB and a few bytes a row; a sound file is text and far smaller. Anything larger
/// (or a link to `/dev/zero`, refused as a device) is not an asset, and reading it would only
/// exhaust memory.
pub const MAX_ASSET_BYTES: u64 = 80 << 20;

fn not_png(name: &str, e: impl std::fmt::Display) -> AssetError {
    AssetError::new(name, AssetErrorKind::NotPng(e.to_string()))
}

/// The PNG signature every PNG file starts with.
pub const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The width and height a PNG's header claims, read straight from its bytes: the header
/// (`IHDR`) must be the first chunk, right after the signature. `None` when the bytes do not
/// start that way (the decoder then says what is wrong). Read before any decoder sees the file,
/// so a size no decoder accepts (0, or 4294967295 x 4294967295) is reported as a size.
pub(crate) fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let header = bytes.strip_prefix(PNG_SIGNATURE)?.get(..16)?;
    if header[..8] != [0, 0, 0, 13, b'I', b'H', b'D', b'R'] {
        return None;
    }
    let word = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    Some((word(8), word(12)))
}

/// A PNG of any layout as 8-bit RGBA, for a sprite sheet (with the `png` crate). Other formats
/// are refused as "not a PNG", and a picture larger than a sheet may be before it is decoded.
///
/// # Errors
/// An [`AssetError`] naming `name`: not a PNG, damaged, or too large.
pub fn decode_image(name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError> {
    check_header(name, bytes)?;
    // Eight bytes a pixel at most (16-bit RGBA) for the largest picture a sheet may be.
    let (width, height, pixels) =
        decode_rgba8(bytes, 8 * MAX_DISPLAY_PIXELS as usize).map_err(|e| not_png(name, e))?;
    check_size(name, width, height)?;
    Ok(RgbaImage {
        width,
        height,
        pixels,
    })
}

/// A PNG of any layout (grey, grey and alpha, RGB, RGBA or indexed; 1 to 16 bits, with or
/// without transparency) as 8-bit RGBA, with its width and height. The decoder allocates at
/// most `max_bytes` for the picture. 16-bit samples are rounded to the nearest 8-bit level
/// (`(v + 128) / 257`), so every PNG decodes to the same bytes it always has.
///
/// # Errors
/// The decoder's own words: a damaged file, or one larger than `max_bytes` allows.
pub(crate) fn decode_rgba8(
    bytes: &[u8],
    max_bytes: usize,
) -> Result<(u32, u32, Vec<u8>), png::DecodingError> {
    let mut decoder =
        png::Decoder::new_with_limits(Cursor::new(bytes), png::Limits { bytes: max_bytes });
    // Palette numbers to colours, transparency to alpha, fewer than 8 bits to 8.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info()?;
    let size = reader
        .output_buffer_size()
        .filter(|&size| size <= max_bytes)
        .ok_or(png::DecodingError::LimitsExceeded)?;
    let mut decoded = vec![0; size];
    let frame = reader.next_frame(&mut decoded)?;
    let (width, height) = (frame.width, frame.height);
    let wide = frame.bit_depth == png::BitDepth::Sixteen;
    let channels = frame.color_type.samples();
    let sample = |at: usize| -> u8 {
        if wide {
            let v = u32::from(u16::from_be_bytes([decoded[2 * at], decoded[2 * at + 1]]));
            ((v + 128) / 257) as u8
        } else {
            decoded[at]
        }
    };
    let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
    for row in 0..height as usize {
        // Rows of a decoded frame are `line_size` bytes, whatever the samples' width.
        let line = row * frame.line_size / if wide { 2 } else { 1 };
        for x in 0..width as usize {
            let at = line + x * channels;
            let px = match channels {
                1 => [sample(at), sample(at), sample(at), 255],
                2 => [sample(at), sample(at), sample(at), sample(at + 1)],
                3 => [sample(at), sample(at + 1), sample(at + 2), 255],
                _ => [sample(at), sample(at + 1), sample(at + 2), sample(at + 3)],
            };
            rgba.extend_from_slice(&px);
        }
    }
    Ok((width, height, rgba))
}

/// The palette numbers of an indexed PNG (1, 2, 4 or 8 bits a pixel), as they are.
///
/// # Errors
/// An [`AssetError`] naming `name`: not a PNG, a PNG of colours rather than numbers
/// ([`AssetErrorKind::NotIndexed`]), a size out of bounds.
pub fn decode_png_indices(name: &str, bytes: &[u8]) -> Result<IndexedImage, AssetError> {
    check_header(name, bytes)?;
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    // The numbers as stored: no palette lookup, no expansion to 8 bits.
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(|e| not_png(name, e))?;
    let info = reader.info();
    let (width, height, color) = (info.width, info.height, info.color_type);
    if color != png::ColorType::Indexed {
        let stored = match color {
            png::ColorType::Grayscale => "grey levels",
            png::ColorType::GrayscaleAlpha => "grey levels with alpha",
            png::ColorType::Rgb => "RGB colours",
            _ => "RGBA colours",
        };
        return Err(AssetError::new(
            name,
            AssetErrorKind::NotIndexed(stored.to_string()),
        ));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| not_png(name, "the picture is too large to decode"))?;
    let mut packed = vec![0; size];
    let frame = reader
        .next_frame(&mut packed)
        .map_err(|e| not_png(name, e))?;
    let bits = frame.bit_depth as usize;
    let per_byte = 8 / bits.clamp(1, 8);
    let mask = ((1u16 << bits.min(8)) - 1) as u8;
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    for row in packed.chunks(frame.line_size).take(height as usize) {
        for x in 0..width as usize {
            let byte = row[x / per_byte];
            // The leftmost pixel is in the byte's highest bits.
            let shift = 8 - bits * (x % per_byte + 1);
            pixels.push((byte >> shift) & mask);
        }
    }
    Ok(IndexedImage {
        width,
        height,
        pixels,
    })
}

/// Refuses bytes that are not a PNG, and impossible and oversized pictures from the header,
/// before a decoder sees them (it would call a 0-wide picture "invalid" and a huge one "over
/// the memory limit") and before any pixel memory is allocated.
fn check_header(name: &str, bytes: &[u8]) -> Result<(), AssetError> {
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(not_png(
            name,
            "the file does not start with the PNG signature",
        ));
    }
    match png_size(bytes) {
        Some((width, height)) => check_size(name, width, height),
        None => Ok(()),
    }
}

/// Refuses a picture whose sides are not 1 to [`MAX_SHEET_SIDE`] or whose area is over
/// [`MAX_DISPLAY_PIXELS`], with its size.
fn check_size(name: &str, width: u32, height: u32) -> Result<(), AssetError> {
    let side = 1..=MAX_SHEET_SIDE;
    if !side.contains(&width)
        || !side.contains(&height)
        || u64::from(width) * u64::from(height) > MAX_DISPLAY_PIXELS
    {
        return Err(AssetError::new(
            name,
            AssetErrorKind::TooLarge {
                width: width.into(),
                height: height.into(),
            },
        ));
    }
    Ok(())
}

/// Loads the PNG at `path` as a sprite sheet, registering its colours into `palette` from
/// `start_slot` (see [`SpriteSheet::from_rgba`]). For tools and tests; carts use
/// `Update::load_image`, which does the same with the live palette.
///
/// # Errors
/// An [`AssetError`] naming `path`.
pub fn load_image(
    path: &str,
    palette: &mut Palette,
    start_slot: u8,
) -> Result<SpriteSheet, AssetError> {
    let image = Assets(Paths).load(path)?;
    SpriteSheet::from_rgba(
        path,
        image.width,
        image.height,
        &image.pixels,
        palette,
        start_slot,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use image::{codecs::png::PngEncoder, ExtendedColorType, ImageEncoder};

    /// A PNG of `width` x `height` RGBA pixels.
    pub(crate) fn png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(rgba, width, height, ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    /// An indexed PNG of `width` x `height` numbers at `depth` bits a pixel.
    fn indexed_png(width: u32, height: u32, depth: png::BitDepth, numbers: &[u8]) -> Vec<u8> {
        let bits = depth as usize;
        let per_byte = 8 / bits;
        let row_bytes = (width as usize).div_ceil(per_byte);
        let mut data = vec![0u8; row_bytes * height as usize];
        for (i, &n) in numbers.iter().enumerate() {
            let (x, y) = (i % width as usize, i / width as usize);
            let shift = 8 - bits * (x % per_byte + 1);
            data[y * row_bytes + x / per_byte] |= n << shift;
        }
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(depth);
        enc.set_palette(vec![0u8; 3 << bits]);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&data).unwrap();
        w.finish().unwrap();
        out
    }

    /// A PNG of `width` x `height` pixels in `color` at `depth`, its samples from a counter
    /// so every pixel and channel differs; with a `tRNS` chunk when `transparent` is given.
    fn png_of(
        color: png::ColorType,
        depth: png::BitDepth,
        transparent: Option<Vec<u8>>,
    ) -> Vec<u8> {
        let (width, height) = (5u32, 3u32);
        let bits = depth as usize * color.samples();
        let row_bytes = (width as usize * bits).div_ceil(8);
        let data: Vec<u8> = (0..row_bytes * height as usize)
            .map(|i| (i * 37 + 11) as u8)
            .collect();
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(depth);
        if color == png::ColorType::Indexed {
            enc.set_palette(
                (0..3 << depth as usize)
                    .map(|i| (i * 7) as u8)
                    .collect::<Vec<_>>(),
            );
        }
        if let Some(trns) = transparent {
            enc.set_trns(trns);
        }
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&data).unwrap();
        w.finish().unwrap();
        out
    }

    #[test]
    fn every_png_layout_decodes_to_the_rgba_the_image_crate_gives() {
        use png::{BitDepth as D, ColorType as C};
        let cases = [
            (C::Grayscale, D::One, None),
            (C::Grayscale, D::Four, None),
            (C::Grayscale, D::Eight, None),
            (C::Grayscale, D::Eight, Some(vec![0, 11])),
            (C::Grayscale, D::Sixteen, None),
            (C::GrayscaleAlpha, D::Eight, None),
            (C::GrayscaleAlpha, D::Sixteen, None),
            (C::Rgb, D::Eight, None),
            (C::Rgb, D::Eight, Some(vec![0, 11, 0, 48, 0, 85])),
            (C::Rgb, D::Sixteen, None),
            (C::Rgba, D::Eight, None),
            (C::Rgba, D::Sixteen, None),
            (C::Indexed, D::Two, None),
            (C::Indexed, D::Eight, None),
            (C::Indexed, D::Eight, Some(vec![0, 128, 255])),
        ];
        for (color, depth, trns) in cases {
            let bytes = png_of(color, depth, trns.clone());
            let theirs = image::load_from_memory(&bytes).unwrap().to_rgba8();
            let ours = Assets(Paths).decode("t.png", &bytes).unwrap();
            assert_eq!(
                (ours.width, ours.height, ours.pixels.as_slice()),
                (theirs.width(), theirs.height(), theirs.as_raw().as_slice()),
                "{color:?} at {depth:?} bits, tRNS {trns:?}"
            );
        }
    }

    #[test]
    fn pictures_are_written_as_the_image_crate_wrote_them_byte_for_byte() {
        let rgba: Vec<u8> = (0..40 * 30 * 4).map(|i| (i * 13 % 251) as u8).collect();
        let ours = crate::export::png::encode_rgba_png(&rgba, 40, 30).unwrap();
        assert_eq!(ours, png(40, 30, &rgba));
        assert!(
            crate::export::png::encode_rgba_png(&rgba[4..], 40, 30).is_err(),
            "pixels short of the size are an error, not a panic"
        );
    }

    #[test]
    fn indexed_pngs_keep_their_numbers_at_every_depth() {
        for (depth, top) in [
            (png::BitDepth::Eight, 255u8),
            (png::BitDepth::Four, 15),
            (png::BitDepth::Two, 3),
            (png::BitDepth::One, 1),
        ] {
            // 5 wide, so rows end part-way through a byte below 8 bits.
            let numbers: Vec<u8> = (0..15u32)
                .map(|i| ((i * 7) % (u32::from(top) + 1)) as u8)
                .collect();
            let image = decode_png_indices("n.png", &indexed_png(5, 3, depth, &numbers)).unwrap();
            assert_eq!((image.width, image.height), (5, 3));
            assert_eq!(image.pixels, numbers, "{depth:?}");
        }
        let e = decode_png_indices("rgba.png", &png(1, 1, &[1, 2, 3, 255])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "rgba.png: not an indexed PNG: it stores RGBA colours; load it with load_image"
        );
        let e = decode_png_indices("notes.txt", b"hello").unwrap_err();
        assert!(
            e.to_string().starts_with("notes.txt: not a PNG image"),
            "{e}"
        );
    }

    #[test]
    fn decodes_rgba_and_registers_colours() {
        let bytes = png(2, 1, &[10, 20, 30, 255, 0, 0, 0, 0]);
        let img = Assets(Paths).decode("two.png", &bytes).unwrap();
        assert_eq!((img.width, img.height), (2, 1));
        assert_eq!(img.pixels, [10, 20, 30, 255, 0, 0, 0, 0]);
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let e = Assets(Paths).load("/no/such/sheet.png").unwrap_err();
        assert_eq!(e.to_string(), "/no/such/sheet.png: file not found");
        let e = Assets(Paths).decode("notes.txt", b"hello").unwrap_err();
        assert!(
            e.to_string().starts_with("notes.txt: not a PNG image"),
            "{e}"
        );
        let mut truncated = png(4, 4, &[255; 64]);
        truncated.truncate(40);
        let e = Assets(Paths).decode("cut.png", &truncated).unwrap_err();
        assert!(e.to_string().starts_with("cut.png: not a PNG image"), "{e}");
    }

    #[test]
    fn oversized_images_are_refused_from_the_header() {
        // A valid 8193×1 picture: refused before decoding.
        let bytes = png(8193, 1, &vec![255; 8193 * 4]);
        let e = Assets(Paths).decode("wide.png", &bytes).unwrap_err();
        assert!(
            matches!(
                e.kind,
                AssetErrorKind::TooLarge {
                    width: 8193,
                    height: 1
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("8193x1"), "{e}");
    }

    /// The CRC-32 PNG chunks carry, for headers made by hand.
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

    /// A PNG signature and a well-formed header claiming `width` x `height`, and no pixels.
    pub(crate) fn header_only(width: u32, height: u32) -> Vec<u8> {
        let mut chunk = b"IHDR".to_vec();
        chunk.extend(width.to_be_bytes());
        chunk.extend(height.to_be_bytes());
        chunk.extend([8, 6, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        out.extend(13u32.to_be_bytes());
        out.extend(&chunk);
        out.extend(crc32(&chunk).to_be_bytes());
        out
    }

    #[test]
    fn impossible_sizes_are_refused_from_the_header_with_the_size() {
        for (w, h) in [(0, 5), (5, 0), (4_294_967_295, 4_294_967_295), (8192, 8192)] {
            let e = Assets(Paths)
                .decode("odd.png", &header_only(w, h))
                .unwrap_err();
            assert!(
                matches!(e.kind, AssetErrorKind::TooLarge { width, height }
                    if (width, height) == (u64::from(w), u64::from(h))),
                "{w}x{h}: {e}"
            );
            assert!(
                e.to_string()
                    .starts_with(&format!("odd.png: image is {w}x{h}; ")),
                "{e}"
            );
        }
    }

    #[test]
    fn too_many_colours_for_the_free_slots() {
        let rgba: Vec<u8> = (0..20u8).flat_map(|i| [i, i, i, 255]).collect();
        let dir = std::env::temp_dir().join(format!("bt-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("twenty.png");
        std::fs::write(&path, png(20, 1, &rgba)).unwrap();
        let path = path.to_str().unwrap();
        let mut pal = Palette::pico8();
        let e = load_image(path, &mut pal, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{path}: 20 opaque colours do not fit in the 15 palette slots from slot 1")
        );
        let mut big = Palette::new(64).unwrap();
        let sheet = load_image(path, &mut big, 16).unwrap();
        assert_eq!(sheet.palette_slots(), 16..=35);
        assert_eq!(big.get(35), Some(bt::Color32::rgb(19, 19, 19)));
    }
    #[test]
    fn a_sheet_fonts_picture_outside_the_asset_folder_is_refused_as_any_asset_path() {
        let dir = bt_test_support::ScratchDir::new("font-picture-inside");
        let root = dir.join("assets");
        std::fs::create_dir_all(root.join("fonts/etc")).unwrap();
        // What an absolute name would find if it were looked up inside the font's folder.
        std::fs::write(root.join("fonts/etc/passwd"), "not a picture").unwrap();
        std::fs::write(dir.join("outside.png"), png(1, 1, &[0, 0, 0, 255])).unwrap();
        std::os::unix::fs::symlink(dir.join("outside.png"), root.join("fonts/out.png")).unwrap();
        for (font, image) in [
            ("abs.txt", "/etc/passwd"),
            ("up.txt", "../../outside.png"),
            ("link.txt", "out.png"),
        ] {
            std::fs::write(
                root.join("fonts").join(font),
                format!("bt-font 1\nimage {image}\ngrid 1 1\nchars 0 0 A\n"),
            )
            .unwrap();
        }
        let mut con = bt::host::Console::new(&bt::Settings::default(), 0);
        con.set_image_loader(Box::new(Assets::folder(&root)));
        let ctx = con.update_context(0);
        let e = |font: &str| {
            ctx.load_font(&format!("fonts/{font}"))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("abs.txt"),
            "font fonts/abs.txt -> /etc/passwd: could not read it: an absolute path; assets are \
             read only from inside the asset folder"
        );
        assert!(e("up.txt").contains("its '..' climb out of the folder; assets are read only"));
        assert!(e("link.txt").contains("a link leading out of the folder; assets are read only"));
    }

    #[test]
    fn btfont_fonts_read_real_pngs_indexed_as_coloured_and_rgba_as_one_colour() {
        let dir = bt_test_support::ScratchDir::new("btfont-png");
        let root = dir.join("assets");
        std::fs::create_dir_all(root.join("fonts")).unwrap();
        // A 2 x 2 glyph of colours 8 and 9, and the same shape as white RGBA pixels.
        let numbers = [8, 9, 0, 8];
        std::fs::write(
            root.join("fonts/two.png"),
            indexed_png(2, 2, png::BitDepth::Eight, &numbers),
        )
        .unwrap();
        let white = [255u8; 4];
        let rgba = [white, white, [0; 4], white].concat();
        std::fs::write(root.join("fonts/white.png"), png(2, 2, &rgba)).unwrap();
        let glyph =
            r#""glyphs": {"X": {"x": 0, "y": 0, "w": 2, "h": 2, "ox": 0, "oy": 0, "adv": 3}}"#;
        for (font, texture) in [
            ("two", "two.png"),
            ("white", "white.png"),
            ("abs", "/etc/passwd"),
        ] {
            std::fs::write(
                root.join(format!("fonts/{font}.btfont")),
                format!(r#"{{"lineHeight": 2, "texture": "{texture}", {glyph}}}"#),
            )
            .unwrap();
        }
        let mut con = bt::host::Console::new(&bt::Settings::default().display(4, 2), 0);
        con.set_image_loader(Box::new(Assets::folder(&root)));
        let (two, white) = {
            let ctx = con.update_context(0);
            let e = ctx.load_font("fonts/abs.btfont").unwrap_err().to_string();
            assert!(
                e.starts_with(
                    "font fonts/abs.btfont -> /etc/passwd: could not read it: an absolute path"
                ),
                "{e}"
            );
            (
                ctx.load_font("fonts/two.btfont").unwrap(),
                ctx.load_font("fonts/white.btfont").unwrap(),
            )
        };
        assert!(two.is_colored() && !white.is_colored());
        con.render_context(0, 0.0).print_font(&two, 0, 0, "X", 7);
        let fb = con.framebuffer();
        let got: Vec<_> = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .map(|(x, y)| fb.get(x, y))
            .into();
        assert_eq!(got, [Some(8), Some(9), Some(0), Some(8)]);
        con.render_context(0, 0.0).print_font(&white, 2, 0, "X", 7);
        let fb = con.framebuffer();
        let got: Vec<_> = [(2, 0), (3, 0), (2, 1), (3, 1)]
            .map(|(x, y)| fb.get(x, y))
            .into();
        assert_eq!(got, [Some(7), Some(7), Some(0), Some(7)]);
    }

    #[test]
    fn btfont_fonts_read_a_real_rgba_png_of_several_colours_in_palette_colours() {
        let dir = bt_test_support::ScratchDir::new("btfont-rgba");
        let root = dir.join("assets");
        std::fs::create_dir_all(&root).unwrap();
        // PICO-8's red and blue over a see-through pixel and one a little off green (#00e436,
        // slot 11): exact colours keep their slots, the other takes the nearest.
        let rgba = [
            [0xff, 0x00, 0x4d, 255],
            [0x29, 0xad, 0xff, 255],
            [0x12, 0x34, 0x56, 0],
            [0x08, 0xe0, 0x30, 255],
        ]
        .concat();
        std::fs::write(root.join("gems.png"), png(2, 2, &rgba)).unwrap();
        std::fs::write(
            root.join("gems.btfont"),
            r#"{"lineHeight": 2, "texture": "gems.png", "glyphs":
                {"X": {"x": 0, "y": 0, "w": 2, "h": 2, "ox": 0, "oy": 0, "adv": 3}}}"#,
        )
        .unwrap();
        let mut con = bt::host::Console::new(&bt::Settings::default().display(2, 2), 0);
        con.set_image_loader(Box::new(Assets::folder(&root)));
        let gems = con.update_context(0).load_font("gems.btfont").unwrap();
        assert!(gems.is_colored());
        {
            let mut ctx = con.render_context(0, 0.0);
            ctx.clear(5);
            ctx.print_font(&gems, 0, 0, "X", 7);
        }
        assert_eq!(con.framebuffer().pixels(), [8, 12, 5, 11]);
    }
}
