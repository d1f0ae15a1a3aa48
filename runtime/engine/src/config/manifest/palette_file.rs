//! Palettes a manifest names: a preset, or a `.hex` or `.png` file.

use super::*;

/// The preset palette called `name`.
pub(super) fn preset(name: &str) -> Option<Palette> {
    Some(match name {
        "pico8" => Palette::pico8(),
        "cga" => Palette::cga(),
        "c64" => Palette::c64(),
        "gameboy" => Palette::gameboy(),
        "nes" => Palette::nes(),
        "vga" => Palette::vga(),
        _ => return None,
    })
}

/// Loads a palette: a preset by name, a `.hex` file (one `RRGGBB` or `#RRGGBB` a line; blank lines
/// and lines starting with `;` skipped), or a `.png` (its distinct colours in order of first
/// appearance, reading left to right, top to bottom; fully transparent pixels skipped). Files
/// hold 2 to 256 colours ([`Palette`] needs at least 2).
///
/// # Errors
/// [`ManifestError::UnknownPreset`], or for files [`ManifestError::Read`],
/// [`ManifestError::TooLarge`] or [`ManifestError::Palette`] naming the file (and the line of a
/// `.hex` file).
pub fn load_palette(source: &PaletteSource) -> Result<Palette, ManifestError> {
    let path = match source {
        PaletteSource::Preset(name) => {
            return preset(name)
                .map(with_free_slots)
                .ok_or_else(|| ManifestError::UnknownPreset { name: name.clone() })
        }
        PaletteSource::File(path) => path,
        PaletteSource::Colors { name, colors } => {
            let mut palette = Palette::new(colors.len()).map_err(|_| ManifestError::Palette {
                path: PathBuf::from(name),
                line: None,
                problem: format!("has {} colours; a palette needs 2 to 256", colors.len()),
            })?;
            for (slot, &color) in (0..=u8::MAX).zip(colors) {
                palette
                    .set(slot, color)
                    .map_err(|e| ManifestError::Palette {
                        path: PathBuf::from(name),
                        line: None,
                        problem: e.to_string(),
                    })?;
            }
            return Ok(with_free_slots(palette));
        }
    };
    let bad = |line, problem: String| ManifestError::Palette {
        path: path.clone(),
        line,
        problem,
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let colors = match ext.as_deref() {
        Some("hex") => {
            let bytes =
                read_limited("palette file", path, MAX_MANIFEST_BYTES, false)?.unwrap_or_default();
            let text = String::from_utf8(bytes).map_err(|_| bad(None, "not UTF-8 text".into()))?;
            hex_colors(&text).map_err(|(line, problem)| bad(Some(line), problem))?
        }
        Some("png") => {
            let bytes = read_limited("palette file", path, MAX_PALETTE_PNG_BYTES, false)?
                .unwrap_or_default();
            png_colors(&bytes).map_err(|problem| bad(None, problem))?
        }
        _ => return Err(bad(None, "a palette file must end .png or .hex".into())),
    };
    let size = colors.len();
    let mut palette = Palette::new(size).map_err(|_| {
        bad(
            None,
            format!("has {size} colours; a palette needs 2 to 256"),
        )
    })?;
    // At most 256 colours (`Palette::new` checked), so every one has a `u8` slot.
    for (slot, color) in (0..=u8::MAX).zip(colors) {
        palette
            .set(slot, color)
            .map_err(|e| bad(None, e.to_string()))?;
    }
    Ok(with_free_slots(palette))
}

/// Slots a palette from a manifest has: its colours first, the rest free (black) for sprite
/// sheets to claim with `load_image`, so a cart can load a sheet from the first free slot
/// without sizing the palette itself.
pub const MANIFEST_PALETTE_SLOTS: usize = 256;

pub(super) fn with_free_slots(palette: Palette) -> Palette {
    palette.resized(MANIFEST_PALETTE_SLOTS).unwrap_or(palette)
}

fn hex_colors(text: &str) -> Result<Vec<Color32>, (usize, String)> {
    let mut colors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let digits = line.strip_prefix('#').unwrap_or(line);
        let rgb = Some(digits)
            .filter(|d| d.len() == 6 && d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| {
                (
                    i + 1,
                    format!("expected RRGGBB or #RRGGBB, got {}", quoted(line)),
                )
            })?;
        if colors.len() == 256 {
            return Err((i + 1, "more than 256 colours".to_string()));
        }
        colors.push(Color32::hex(rgb));
    }
    Ok(colors)
}

fn png_colors(bytes: &[u8]) -> Result<Vec<Color32>, String> {
    if !bytes.starts_with(crate::config::png_loader::PNG_SIGNATURE) {
        return Err("not a PNG image (no PNG signature)".to_string());
    }
    let check_size = |width: u32, height: u32| {
        let pixels = u64::from(width) * u64::from(height);
        if !(1..=MAX_PALETTE_IMAGE_PIXELS).contains(&pixels) {
            return Err(format!(
                "the image is {width}x{height}; a palette image has 1 to \
                 {MAX_PALETTE_IMAGE_PIXELS} pixels"
            ));
        }
        Ok(())
    };
    // From the header, before a decoder sees it: see `assets::png_size`.
    if let Some((width, height)) = crate::config::png_loader::png_size(bytes) {
        check_size(width, height)?;
    }
    let not_png =
        |e: png::DecodingError| format!("not a readable PNG: {}", explain(&e.to_string(), &[], ""));
    let (width, height, rgba) =
        crate::config::png_loader::decode_rgba8(bytes, 64 * MAX_PALETTE_IMAGE_PIXELS as usize)
            .map_err(not_png)?;
    check_size(width, height)?;
    let mut seen = HashSet::new();
    let mut colors = Vec::new();
    for px in rgba.chunks_exact(4) {
        let [r, g, b, a] = [px[0], px[1], px[2], px[3]];
        if a != 0 && seen.insert([r, g, b]) {
            if colors.len() == 256 {
                return Err("more than 256 distinct colours".to_string());
            }
            colors.push(Color32::rgb(r, g, b));
        }
    }
    Ok(colors)
}
