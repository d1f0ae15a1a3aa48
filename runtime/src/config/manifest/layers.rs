//! Settings in layers (the cart's own, its manifest, the user's config, the command line),
//! and where each resolved value came from.

use super::palette_file::preset;
use super::*;

/// Where a resolved setting came from, lowest precedence first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// `bt::Settings::default()`.
    Default,
    /// The cart's `configure()`.
    Configure,
    /// The cart's `cart.toml`.
    Manifest,
    /// The user's config file.
    UserConfig,
    /// The command line.
    CommandLine,
}

/// One row of `bt config`.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The manifest's dotted name for the field, one of [`PROVENANCE_FIELDS`].
    pub field: &'static str,
    /// The resolved value as text.
    pub value: String,
    /// The layer that set it.
    pub layer: Layer,
    /// The file, for [`Layer::Manifest`] and [`Layer::UserConfig`].
    pub origin: Option<PathBuf>,
}

/// A palette's name: its preset's name, else its size.
fn palette_name(palette: &Palette) -> String {
    let colors = palette.colors();
    for name in PALETTE_PRESETS {
        let Some(p) = preset(name) else { continue };
        if colors.starts_with(p.colors()) {
            return match colors.len() - p.len() {
                0 => (*name).to_string(),
                free => format!("{name} and {free} free slots"),
            };
        }
    }
    format!("custom, {} colours", palette.len())
}

/// Resolves settings: starts from `configured` (what `configure()` returned; fields equal to
/// `Settings::default()` count as [`Layer::Default`], others as [`Layer::Configure`]), then
/// applies each `(layer, origin file, patch)` lowest layer first (the slice is stably sorted by
/// layer). Returns the final settings and one [`Provenance`] per [`PROVENANCE_FIELDS`] entry.
///
/// # Errors
/// A palette that cannot be loaded (see [`load_palette`]), or [`ManifestError::Settings`] when
/// the result fails [`Settings::validate`].
pub fn resolve(
    configured: Settings,
    layers: &[(Layer, Option<&Path>, &SettingsPatch)],
) -> Result<(Settings, Vec<Provenance>), ManifestError> {
    let d = Settings::default();
    let c = &configured;
    let base = |same: bool| {
        (
            if same {
                Layer::Default
            } else {
                Layer::Configure
            },
            None,
        )
    };
    let mut from: [(Layer, Option<PathBuf>); PROVENANCE_FIELDS.len()] = [
        base(c.title == d.title),
        base(c.width == d.width),
        base(c.height == d.height),
        base(c.window_scale == d.window_scale),
        base(c.palette == d.palette),
        base(c.output_scale == d.output_scale),
        base(c.effects == d.effects),
        base(c.target_fps.to_bits() == d.target_fps.to_bits()),
        base(c.seed == d.seed),
        base(c.overlay.enabled == d.overlay.enabled),
        base(c.overlay.visible_at_start == d.overlay.visible_at_start),
        base(c.overlay.timing_chart == d.overlay.timing_chart),
        base(c.overlay.diagnostics == d.overlay.diagnostics),
        base(c.overlay.palette_grid == d.overlay.palette_grid),
    ];
    let mut settings = configured;
    let mut palette_label = None;
    let mut ordered: Vec<_> = layers.iter().collect();
    ordered.sort_by_key(|l| l.0);
    for &&(layer, origin, patch) in &ordered {
        patch.apply(&mut settings)?;
        for (slot, set) in from.iter_mut().zip(patch.touched()) {
            if set {
                *slot = (layer, origin.map(Path::to_path_buf));
            }
        }
        palette_label = match &patch.palette {
            Some(PaletteSource::Preset(name)) => Some(name.clone()),
            Some(PaletteSource::File(path)) => Some(crate::quote::path(path)),
            Some(PaletteSource::Colors { name, .. }) => Some(name.clone()),
            None => palette_label,
        };
    }
    settings.validate()?;
    let s = &settings;
    let values: [String; PROVENANCE_FIELDS.len()] = [
        quoted(&s.title),
        s.width.to_string(),
        s.height.to_string(),
        s.window_scale
            .map_or_else(|| "auto".to_string(), |v| v.to_string()),
        palette_label.unwrap_or_else(|| palette_name(&s.palette)),
        s.output_scale.to_string(),
        s.effects.to_string(),
        s.target_fps.to_string(),
        s.seed.map_or_else(|| "none".to_string(), |v| v.to_string()),
        s.overlay.enabled.to_string(),
        s.overlay.visible_at_start.to_string(),
        s.overlay.timing_chart.to_string(),
        s.overlay.diagnostics.to_string(),
        s.overlay.palette_grid.to_string(),
    ];
    let rows = PROVENANCE_FIELDS
        .into_iter()
        .zip(values)
        .zip(from)
        .map(|((field, value), (layer, origin))| Provenance {
            field,
            value,
            layer,
            origin,
        })
        .collect();
    Ok((settings, rows))
}

fn from_text(row: &Provenance) -> String {
    let file = |what: &str| match &row.origin {
        Some(path) => format!("{what} ({})", crate::quote::path(path)),
        None => what.to_string(),
    };
    match row.layer {
        Layer::Default => "default".to_string(),
        Layer::Configure => "configure()".to_string(),
        Layer::Manifest => file(MANIFEST_FILE),
        Layer::UserConfig => file("user config"),
        Layer::CommandLine => "command line".to_string(),
    }
}

/// The `bt config` table: a header, then one line per row with aligned columns field, value
/// and where it came from.
pub fn format_provenance(rows: &[Provenance]) -> String {
    let lines: Vec<[String; 3]> = std::iter::once(["field".into(), "value".into(), "from".into()])
        .chain(
            rows.iter()
                .map(|r| [r.field.to_string(), r.value.clone(), from_text(r)]),
        )
        .collect();
    let width = |i: usize| {
        lines
            .iter()
            .map(|l| l[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (fw, vw) = (width(0), width(1));
    let mut out = String::new();
    for [field, value, from] in &lines {
        let _ = writeln!(out, "{field:<fw$}  {value:<vw$}  {from}");
    }
    out
}
