//! Settings in layers (the cart's own, its manifest, the user's config, the command line),
//! and where each resolved value came from.

use super::palette_file::preset;
use super::*;
use bt::host::SettingsField;

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
    /// When the cart's `configure()` and its `cart.toml` both set the field, to different
    /// values: `cart.toml` wins, and [`Provenance::override_warning`] says so.
    pub overridden: Option<Overridden>,
}

/// A value the cart's `configure()` set and its `cart.toml` replaced with another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overridden {
    /// What `configure()` set, as text.
    pub configure: String,
    /// What `cart.toml` set, as text.
    pub manifest: String,
    /// The `cart.toml` file.
    pub file: Option<PathBuf>,
}

impl Provenance {
    /// One line for a cart whose `cart.toml` replaces a value its `configure()` set
    /// ([`Provenance::overridden`]), naming both values and both places; `None` when they
    /// agree or only one of them set it.
    pub fn override_warning(&self) -> Option<String> {
        let o = self.overridden.as_ref()?;
        let file = o
            .file
            .as_deref()
            .map_or_else(|| MANIFEST_FILE.to_string(), crate::quote::path);
        Some(format!(
            "{file} sets {field} = {manifest}, the cart's configure() {configure}: {MANIFEST_FILE} \
             wins; take the line out of it for configure()'s to count",
            field = self.field,
            manifest = o.manifest,
            configure = o.configure,
        ))
    }
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

/// The [`SettingsField`] of each of [`PROVENANCE_FIELDS`], in that order.
const FIELDS: [SettingsField; PROVENANCE_FIELDS.len()] = [
    SettingsField::Title,
    SettingsField::Width,
    SettingsField::Height,
    SettingsField::WindowScale,
    SettingsField::Palette,
    SettingsField::OutputScale,
    SettingsField::Effects,
    SettingsField::TargetFps,
    SettingsField::Seed,
    SettingsField::OverlayEnabled,
    SettingsField::OverlayVisible,
    SettingsField::TimingChart,
    SettingsField::OverlayDiagnostics,
    SettingsField::OverlayPaletteGrid,
];

/// Each of [`PROVENANCE_FIELDS`] of `s` as text, the palette by `palette_label` when a layer
/// named it.
fn values(s: &Settings, palette_label: Option<String>) -> [String; PROVENANCE_FIELDS.len()] {
    [
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
    ]
}

/// Resolves settings: starts from `configured` (what `configure()` returned: a field its
/// builder set ([`Settings::was_set`]), or one holding another value than
/// `Settings::default()`'s, counts as [`Layer::Configure`], the rest as [`Layer::Default`]),
/// then applies each `(layer, origin file, patch)` lowest layer first (the slice is stably
/// sorted by layer). Returns the final settings and one [`Provenance`] per
/// [`PROVENANCE_FIELDS`] entry, with [`Provenance::overridden`] where `cart.toml` replaced a
/// value `configure()` set.
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
    // A field written directly (`settings.width = 160`) is not marked as set: its value
    // tells, unless it is the default's.
    let differs = [
        c.title != d.title,
        c.width != d.width,
        c.height != d.height,
        c.window_scale != d.window_scale,
        c.palette != d.palette,
        c.output_scale != d.output_scale,
        c.effects != d.effects,
        c.target_fps.to_bits() != d.target_fps.to_bits(),
        c.seed != d.seed,
        c.overlay.enabled != d.overlay.enabled,
        c.overlay.visible_at_start != d.overlay.visible_at_start,
        c.overlay.timing_chart != d.overlay.timing_chart,
        c.overlay.diagnostics != d.overlay.diagnostics,
        c.overlay.palette_grid != d.overlay.palette_grid,
    ];
    let mut from: [(Layer, Option<PathBuf>); PROVENANCE_FIELDS.len()] = std::array::from_fn(|i| {
        let layer = if c.was_set(FIELDS[i]) || differs[i] {
            Layer::Configure
        } else {
            Layer::Default
        };
        (layer, None)
    });
    let configured_values = values(c, None);
    let configured_palette = c.palette.clone();
    let mut overridden: [Option<Overridden>; PROVENANCE_FIELDS.len()] = Default::default();
    let mut settings = configured;
    let mut palette_label = None;
    let mut ordered: Vec<_> = layers.iter().collect();
    ordered.sort_by_key(|l| l.0);
    for &&(layer, origin, patch) in &ordered {
        patch.apply(&mut settings)?;
        palette_label = match &patch.palette {
            Some(PaletteSource::Preset(name)) => Some(name.clone()),
            Some(PaletteSource::File(path)) => Some(crate::quote::path(path)),
            Some(PaletteSource::Colors { name, .. }) => Some(name.clone()),
            None => palette_label,
        };
        let now = (layer == Layer::Manifest).then(|| values(&settings, palette_label.clone()));
        for (i, set) in patch.touched().into_iter().enumerate() {
            if !set {
                continue;
            }
            if let Some(now) = &now {
                // A palette named differently may hold the same colours.
                let differ = if FIELDS[i] == SettingsField::Palette {
                    settings.palette != configured_palette
                } else {
                    now[i] != configured_values[i]
                };
                if from[i].0 == Layer::Configure && differ {
                    overridden[i] = Some(Overridden {
                        configure: configured_values[i].clone(),
                        manifest: now[i].clone(),
                        file: origin.map(Path::to_path_buf),
                    });
                }
            }
            from[i] = (layer, origin.map(Path::to_path_buf));
        }
    }
    settings.validate()?;
    let values = values(&settings, palette_label);
    let rows = PROVENANCE_FIELDS
        .into_iter()
        .zip(values)
        .zip(from)
        .zip(overridden)
        .map(
            |(((field, value), (layer, origin)), overridden)| Provenance {
                field,
                value,
                layer,
                origin,
                overridden,
            },
        )
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
        Layer::Manifest => match &row.overridden {
            Some(o) => format!(
                "{}, over configure()'s {}",
                file(MANIFEST_FILE),
                o.configure
            ),
            None => file(MANIFEST_FILE),
        },
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
