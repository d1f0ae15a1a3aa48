//! The checks of single manifest values: each takes a TOML value and gives the typed value or
//! the problem in words, which [`Source::field`](super::messages::Source) places in the file.

use std::path::{Component, Path, PathBuf};

use toml::Value;

use bt::limits::{MAX_TARGET_FPS, MIN_TARGET_FPS};

use super::messages::{describe, presets};
use super::{PaletteSource, PALETTE_PRESETS};
use crate::quote::quoted;

pub(super) fn whole(min: u64, max: u64) -> impl FnOnce(&Value) -> Result<u64, String> {
    move |v| {
        match v {
            Value::Integer(i) => u64::try_from(*i).ok().filter(|n| (min..=max).contains(n)),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "must be a whole number from {min} to {max}, got {}",
                describe(v)
            )
        })
    }
}

pub(super) fn small(min: u32, max: u32) -> impl FnOnce(&Value) -> Result<u32, String> {
    move |v| whole(min.into(), max.into())(v).map(|n| u32::try_from(n).unwrap_or(max))
}

pub(super) fn fps(v: &Value) -> Result<f64, String> {
    let n = match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    };
    n.filter(|n| (MIN_TARGET_FPS..=MAX_TARGET_FPS).contains(n))
        .ok_or_else(|| {
            format!(
                "must be a number from {MIN_TARGET_FPS} to {MAX_TARGET_FPS}, got {}",
                describe(v)
            )
        })
}

pub(super) fn flag(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("must be true or false, got {}", describe(v)))
}

/// One line of text with `min..=max` characters and no control characters.
pub(super) fn one_line(min: usize, max: usize) -> impl FnOnce(&Value) -> Result<String, String> {
    move |v| {
        let ok = v.as_str().filter(|s| {
            (min..=max).contains(&s.chars().count()) && !s.chars().any(char::is_control)
        });
        let size = if min == 0 {
            format!("at most {max}")
        } else {
            format!("{min} to {max}")
        };
        ok.map(str::to_string).ok_or_else(|| {
            format!(
                "must be one line of {size} characters, no control characters, got {}",
                describe(v)
            )
        })
    }
}

pub(super) fn cart_name(v: &Value) -> Result<String, String> {
    v.as_str()
        .filter(|s| {
            s.len() <= 64
                && s.starts_with(|c: char| c.is_ascii_lowercase())
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        })
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "must be 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter, got {}",
                describe(v)
            )
        })
}

/// A relative path that stays inside the manifest's folder.
pub(super) fn inside(s: &str) -> bool {
    let path = Path::new(s);
    !s.is_empty()
        && !s.starts_with(['/', '\\'])
        && !path.is_absolute()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && !s.split(['/', '\\']).any(|part| part == "..")
}

pub(super) fn folder(base: &Path) -> impl FnOnce(&Value) -> Result<PathBuf, String> + '_ {
    move |v| {
        v.as_str()
            .filter(|s| inside(s))
            .map(|s| base.join(s))
            .ok_or_else(|| {
                format!(
                    "must be a folder inside the cart's folder (relative, no '..'), got {}",
                    describe(v)
                )
            })
    }
}

pub(super) fn palette_source(
    base: &Path,
) -> impl FnOnce(&Value) -> Result<PaletteSource, String> + '_ {
    move |v| {
        let Some(s) = v.as_str() else {
            return Err(format!(
                "must be a preset name or a file path, got {}",
                describe(v)
            ));
        };
        let lower = s.to_ascii_lowercase();
        if lower.ends_with(".png") || lower.ends_with(".hex") {
            return if inside(s) {
                Ok(PaletteSource::File(base.join(s)))
            } else {
                Err(format!(
                    "a palette file must be inside the cart's folder, got {}",
                    quoted(s)
                ))
            };
        }
        if PALETTE_PRESETS.contains(&s) {
            return Ok(PaletteSource::Preset(s.to_string()));
        }
        Err(format!(
            "unknown preset {}; use one of {} or a .png or .hex file",
            quoted(s),
            presets()
        ))
    }
}
