//! The user's config file (`config.toml` in the user's BT folder): the few settings a player
//! chooses for every cart, and where that folder is.

use std::path::{Path, PathBuf};

use bt::limits::MAX_WINDOW_SCALE;
use serde::Deserialize;

use super::fields::{flag, small};
use super::messages::Source;
use super::{Field, ManifestError, SettingsPatch, Table};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUserConfig {
    display: Option<RawUserDisplay>,
    overlay: Option<RawUserOverlay>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUserDisplay {
    scale: Field,
    effects: Field,
    reduced_motion: Field,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUserOverlay {
    visible: Field,
    chart: Field,
}

pub(super) const USER_TABLES: [Table; 3] = [
    ("table", "", &["display", "overlay"]),
    (
        "field",
        " in [display]",
        &["scale", "effects", "reduced_motion"],
    ),
    ("field", " in [overlay]", &["visible", "chart"]),
];

pub(super) const USER_HINT: &str = " (the user config sets only display.scale, display.effects, \
     display.reduced_motion, overlay.visible and overlay.chart)";

/// Parses the user's config file text: only `[display] scale, effects, reduced_motion` and
/// `[overlay] visible, chart`.
///
/// # Errors
/// [`ManifestError::Invalid`] for bad TOML, any other table or field, or a bad value.
pub fn parse_user_config(text: &str, path: &Path) -> Result<SettingsPatch, ManifestError> {
    let src = Source { text, path };
    let raw: RawUserConfig = src.decode(&USER_TABLES, USER_HINT)?;
    let mut patch = SettingsPatch::default();
    if let Some(d) = raw.display {
        patch.window_scale = src.field(d.scale, "display.scale", small(1, MAX_WINDOW_SCALE))?;
        patch.effects = src.field(d.effects, "display.effects", flag)?;
        patch.reduced_motion = src.field(d.reduced_motion, "display.reduced_motion", flag)?;
    }
    if let Some(o) = raw.overlay {
        patch.overlay_visible = src.field(o.visible, "overlay.visible", flag)?;
        patch.timing_chart = src.field(o.chart, "overlay.chart", flag)?;
    }
    Ok(patch)
}

/// The user config path: `config.toml` in [`user_config_dir`].
pub fn user_config_path() -> Option<PathBuf> {
    user_config_dir().map(|dir| dir.join("config.toml"))
}

/// The folder of the user's BT files (`config.toml`, `keys.toml`): `$XDG_CONFIG_HOME/bt` when
/// that is set and absolute, else `$HOME/.config/bt` when `HOME` is set and absolute
/// (`%APPDATA%\bt` on Windows). `None` when none is usable. A relative `XDG_CONFIG_HOME` is
/// ignored, as the XDG Base Directory specification says.
pub fn user_config_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    if cfg!(windows) {
        return config_dir_from(var("APPDATA"), None);
    }
    config_dir_from(var("XDG_CONFIG_HOME"), var("HOME"))
}

pub(super) fn config_dir_from(
    config_home: Option<PathBuf>,
    home: Option<PathBuf>,
) -> Option<PathBuf> {
    config_home
        .filter(|p| p.is_absolute())
        .or_else(|| home.filter(|p| p.is_absolute()).map(|h| h.join(".config")))
        .map(|dir| dir.join("bt"))
}
