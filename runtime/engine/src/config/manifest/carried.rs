//! A manifest carried into a web page: `bt web` reads the cart's `cart.toml` natively and
//! writes it into the page as JSON, with a palette file already read into its colours (a page
//! has no file to read it from, and no TOML reader). The page turns it back into the same
//! [`Manifest`], so its settings resolve exactly as `bt run`'s do.

use serde::{Deserialize, Serialize};

use super::*;

/// The JSON form. Every field is optional, as in `cart.toml`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Carried {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    height: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scale: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output_scale: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effects: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_fps: Option<f64>,
    /// A string: JSON numbers do not keep every `u64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    palette_preset: Option<String>,
    /// `(file name, colours as "#rrggbbaa")`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    palette_colors: Option<(String, Vec<String>)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overlay_enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overlay_visible: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timing_chart: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overlay_diagnostics: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overlay_palette_grid: Option<bool>,
}

fn hex(c: Color32) -> String {
    format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
}

fn from_hex(text: &str) -> Option<Color32> {
    let digits = text.strip_prefix('#')?;
    if digits.len() != 8 || !digits.is_ascii() {
        return None;
    }
    let byte = |at: usize| u8::from_str_radix(&digits[at..at + 2], 16).ok();
    Some(Color32 {
        r: byte(0)?,
        g: byte(2)?,
        b: byte(4)?,
        a: byte(6)?,
    })
}

/// `manifest` as the JSON a page carries. A palette file is read here, into its colours.
///
/// # Errors
/// A [`ManifestError`] naming the palette file when it cannot be read.
pub fn carried_manifest(manifest: &Manifest) -> Result<String, ManifestError> {
    let cart = &manifest.cart;
    let s = &manifest.settings;
    let mut carried = Carried {
        name: cart.name.clone(),
        title: s.title.clone(),
        version: cart.version.clone(),
        author: cart.author.clone(),
        description: cart.description.clone(),
        width: s.width,
        height: s.height,
        scale: s.window_scale,
        output_scale: s.output_scale,
        effects: s.effects,
        target_fps: s.target_fps,
        seed: s.seed.map(|seed| seed.to_string()),
        overlay_enabled: s.overlay_enabled,
        overlay_visible: s.overlay_visible,
        timing_chart: s.timing_chart,
        overlay_diagnostics: s.overlay_diagnostics,
        overlay_palette_grid: s.overlay_palette_grid,
        ..Carried::default()
    };
    match &s.palette {
        None => {}
        Some(PaletteSource::Preset(name)) => carried.palette_preset = Some(name.clone()),
        Some(source @ (PaletteSource::File(_) | PaletteSource::Colors { .. })) => {
            let name = match source {
                PaletteSource::File(path) => path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                PaletteSource::Colors { name, .. } => name.clone(),
                PaletteSource::Preset(_) => unreachable!("matched above"),
            };
            // The palette as the page will have it: the file's colours, then the free slots,
            // all written out so nothing about the file is needed again.
            let palette = load_palette(source)?;
            let colors = palette.colors().iter().map(|&c| hex(c)).collect();
            carried.palette_colors = Some((name, colors));
        }
    }
    Ok(serde_json::to_string(&carried).expect("a manifest's fields serialise"))
}

/// The manifest [`carried_manifest`] wrote; `path` is what messages and `bt config` call it.
///
/// # Errors
/// A one-line message naming the field that does not parse.
pub fn manifest_from_carried(text: &str, path: &Path) -> Result<Manifest, String> {
    let carried: Carried = serde_json::from_str(text).map_err(|e| {
        format!(
            "{}: the page's copy of cart.toml: {e}",
            crate::quote::path(path)
        )
    })?;
    let seed = match &carried.seed {
        Some(text) => Some(text.parse::<u64>().map_err(|_| {
            format!(
                "{}: cart.seed {} is not a whole number",
                crate::quote::path(path),
                quoted(text)
            )
        })?),
        None => None,
    };
    let palette = match (carried.palette_preset, carried.palette_colors) {
        (Some(name), _) => Some(PaletteSource::Preset(name)),
        (None, Some((name, colors))) => Some(PaletteSource::Colors {
            colors: colors
                .iter()
                .map(|c| {
                    from_hex(c).ok_or_else(|| {
                        format!(
                            "{}: display.palette colour {} is not #rrggbbaa",
                            crate::quote::path(path),
                            quoted(c)
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            name,
        }),
        (None, None) => None,
    };
    Ok(Manifest {
        path: path.to_path_buf(),
        cart: CartInfo {
            name: carried.name,
            title: carried.title.clone(),
            version: carried.version,
            author: carried.author,
            description: carried.description,
        },
        settings: SettingsPatch {
            title: carried.title,
            width: carried.width,
            height: carried.height,
            target_fps: carried.target_fps,
            seed,
            palette,
            window_scale: carried.scale,
            output_scale: carried.output_scale,
            effects: carried.effects,
            overlay_enabled: carried.overlay_enabled,
            overlay_visible: carried.overlay_visible,
            timing_chart: carried.timing_chart,
            overlay_diagnostics: carried.overlay_diagnostics,
            overlay_palette_grid: carried.overlay_palette_grid,
            reduced_motion: None,
        },
        assets: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Manifest {
        Manifest {
            path: PathBuf::from("cart.toml"),
            cart: CartInfo {
                name: Some("breakout".into()),
                title: Some("Break \"Out\"".into()),
                version: Some("1.2.0".into()),
                author: Some("Ada".into()),
                description: None,
            },
            settings: SettingsPatch {
                title: Some("Break \"Out\"".into()),
                width: Some(240),
                height: Some(160),
                target_fps: Some(30.0),
                seed: Some(u64::MAX),
                palette: Some(PaletteSource::Preset("pico8".into())),
                window_scale: Some(4),
                output_scale: Some(3),
                effects: Some(false),
                overlay_enabled: Some(true),
                overlay_visible: Some(false),
                timing_chart: None,
                overlay_diagnostics: Some(true),
                overlay_palette_grid: None,
                reduced_motion: None,
            },
            assets: Some(PathBuf::from("/somewhere/assets")),
        }
    }

    #[test]
    fn a_carried_manifest_comes_back_the_same_but_for_its_folders() {
        let manifest = full();
        let json = carried_manifest(&manifest).unwrap();
        let back = manifest_from_carried(&json, Path::new("cart.toml")).unwrap();
        assert_eq!(back.cart, manifest.cart);
        assert_eq!(back.settings, manifest.settings);
        assert_eq!(
            back.assets, None,
            "a page's assets are packed, not a folder"
        );
    }

    #[test]
    fn a_palette_file_travels_as_the_palette_it_makes() {
        let dir = std::env::temp_dir().join(format!("bt-carried-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mine.hex");
        std::fs::write(&file, "ff0000\n00ff00\n0000ff\n").unwrap();
        let mut manifest = full();
        manifest.settings.palette = Some(PaletteSource::File(file.clone()));
        let native = load_palette(&PaletteSource::File(file)).unwrap();
        let json = carried_manifest(&manifest).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let back = manifest_from_carried(&json, Path::new("cart.toml")).unwrap();
        let source = back.settings.palette.unwrap();
        assert!(matches!(&source, PaletteSource::Colors { name, .. } if name == "mine.hex"));
        let carried = load_palette(&source).unwrap();
        assert_eq!(carried.colors(), native.colors());
        assert_eq!(carried.len(), MANIFEST_PALETTE_SLOTS);
    }

    #[test]
    fn a_broken_copy_names_the_field() {
        let e = manifest_from_carried(r#"{"seed":"x1"}"#, Path::new("cart.toml")).unwrap_err();
        assert_eq!(e, "cart.toml: cart.seed \"x1\" is not a whole number");
        let e = manifest_from_carried(
            r##"{"palette_colors":["p.hex",["#ff0000"]]}"##,
            Path::new("cart.toml"),
        )
        .unwrap_err();
        assert_eq!(
            e,
            "cart.toml: display.palette colour \"#ff0000\" is not #rrggbbaa"
        );
        let e = manifest_from_carried(r#"{"colour":1}"#, Path::new("cart.toml")).unwrap_err();
        assert!(
            e.starts_with("cart.toml: the page's copy of cart.toml: unknown field"),
            "{e}"
        );
    }
}
