//! Pyxel 1's layout of a `.pyxres`: a `pyxel_resource/version` entry, then one text entry per
//! bank (`image0`, `tilemap0`, `sound00`, `music0`, …) of hexadecimal digits, every image and
//! tilemap a fixed 256 × 256.

use super::{Image, Resource, Sound, Tilemap, Zip, MAX_OLD_ENTRY, OLD_VERSION_ENTRY};

/// Pyxel 1's layout: `pyxel_resource/image0` … as text, hexadecimal digits, banks of a fixed
/// 256 × 256.
pub(super) fn read(shown: &str, zip: &Zip<'_>) -> Result<Resource, String> {
    const SIDE: usize = 256;
    let entry = |name: &str| -> Result<Option<String>, String> {
        let bytes = zip
            .entry(name, MAX_OLD_ENTRY)
            .map_err(|e| format!("{shown}: {e}"))?;
        Ok(bytes.map(|b| String::from_utf8_lossy(&b).into_owned()))
    };
    let version_text = entry(OLD_VERSION_ENTRY)?.unwrap_or_default();
    // 1.5.0 widened a tile from 3 digits (a tile number) to 4 (two bytes, tx and ty).
    let parts: Vec<u32> = version_text
        .trim()
        .split('.')
        .map(|p| p.parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "{shown}: {OLD_VERSION_ENTRY}: '{}' is not a version like 1.4.3",
                crate::quote::excerpt(version_text.trim())
            )
        })?;
    let wide_tiles = parts.as_slice() >= [1, 5].as_slice();
    let hex = |c: char, at: &dyn Fn() -> String| {
        c.to_digit(16)
            .ok_or_else(|| format!("{}: '{}' is not hexadecimal", at(), c.escape_debug()))
    };
    let mut r = Resource::default();
    for i in 0..3 {
        let name = format!("pyxel_resource/image{i}");
        let mut pixels = vec![0u8; SIDE * SIDE];
        if let Some(text) = entry(&name)? {
            for (y, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", y + 1);
                if y >= SIDE || line.chars().count() > SIDE {
                    return Err(format!("{}: past the image's {SIDE} × {SIDE}", at()));
                }
                for (x, c) in line.chars().enumerate() {
                    pixels[y * SIDE + x] = hex(c, &at)? as u8;
                }
            }
        }
        r.images.push(Image {
            width: SIDE as u32,
            height: SIDE as u32,
            pixels,
        });
    }
    for i in 0..8 {
        let name = format!("pyxel_resource/tilemap{i}");
        let mut cells = vec![(0u16, 0u16); SIDE * SIDE];
        let mut image = 0;
        if let Some(text) = entry(&name)? {
            let digits = if wide_tiles { 4 } else { 3 };
            for (y, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", y + 1);
                if y == SIDE {
                    // After the rows, the image the tiles come from.
                    image = line.trim().parse::<u32>().map_err(|_| {
                        format!(
                            "{}: '{}' is not an image number",
                            at(),
                            crate::quote::excerpt(line)
                        )
                    })?;
                    continue;
                }
                let chars: Vec<char> = line.chars().collect();
                if y > SIDE || !chars.len().is_multiple_of(digits) || chars.len() / digits > SIDE {
                    return Err(format!(
                        "{}: not up to {SIDE} tiles of {digits} hexadecimal digits",
                        at()
                    ));
                }
                for (x, group) in chars.chunks(digits).enumerate() {
                    let mut v = 0u32;
                    for &c in group {
                        v = v << 4 | hex(c, &at)?;
                    }
                    cells[y * SIDE + x] = if wide_tiles {
                        ((v >> 8) as u16, (v & 0xff) as u16)
                    } else {
                        ((v % 32) as u16, (v / 32) as u16)
                    };
                }
            }
        }
        r.tilemaps.push(Tilemap {
            width: SIDE as u32,
            height: SIDE as u32,
            image,
            cells,
        });
    }
    for i in 0..64 {
        let name = format!("pyxel_resource/sound{i:02}");
        let mut sound = Sound {
            speed: 30,
            ..Sound::default()
        };
        if let Some(text) = entry(&name)? {
            for (n, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", n + 1);
                let line = line.trim();
                if line == "none" || n > 4 {
                    continue;
                }
                if n == 4 {
                    sound.speed = line.parse().map_err(|_| {
                        format!("{}: '{}' is not a speed", at(), crate::quote::excerpt(line))
                    })?;
                    continue;
                }
                let width = if n == 0 { 2 } else { 1 };
                let chars: Vec<char> = line.chars().collect();
                if !chars.len().is_multiple_of(width) {
                    return Err(format!("{}: not pairs of hexadecimal digits", at()));
                }
                for group in chars.chunks(width) {
                    let mut v = 0u32;
                    for &c in group {
                        v = v << 4 | hex(c, &at)?;
                    }
                    match n {
                        0 => sound.notes.push(v as u8 as i8),
                        1 => sound.tones.push(v as u8),
                        2 => sound.volumes.push(v as u8),
                        _ => sound.effects.push(v as u8),
                    }
                }
            }
        }
        r.sounds.push(sound);
    }
    for i in 0..8 {
        let name = format!("pyxel_resource/music{i}");
        let mut channels = Vec::new();
        if let Some(text) = entry(&name)? {
            for (c, line) in text.lines().enumerate() {
                let at = || format!("{shown}: {name}:{}", c + 1);
                let line = line.trim();
                let chars: Vec<char> = line.chars().collect();
                let mut seq = Vec::new();
                if line != "none" {
                    if !chars.len().is_multiple_of(2) {
                        return Err(format!("{}: not pairs of hexadecimal digits", at()));
                    }
                    for pair in chars.chunks(2) {
                        seq.push(hex(pair[0], &at)? << 4 | hex(pair[1], &at)?);
                    }
                }
                channels.push(seq);
            }
        }
        r.musics.push(channels);
    }
    Ok(r)
}
