//! What a cart asks of the console: display size, simulation rate, palette, overlay.

use crate::Palette;
use thiserror::Error;

/// The slowest simulation BT runs: one update every 1,000 seconds.
pub const MIN_TARGET_FPS: f64 = 0.001;
/// The fastest simulation BT runs, in updates a second.
pub const MAX_TARGET_FPS: f64 = 10_000.0;

/// The largest window scale a cart may ask for.
pub const MAX_WINDOW_SCALE: u32 = 16;
/// The largest output scale ([`Settings::output_scale`]) a cart may ask for.
pub const MAX_OUTPUT_SCALE: u32 = 8;
/// The most pixels the output picture ([`Settings::output_size`]) may hold: four times
/// [`MAX_DISPLAY_PIXELS`], so the default scale of 2 fits every display (256 MiB of RGBA).
pub const MAX_OUTPUT_PIXELS: u64 = 4 * MAX_DISPLAY_PIXELS;
/// The largest display side BT accepts, in pixels.
pub const MAX_DISPLAY_SIDE: u32 = 8192;
/// The largest display area BT accepts, in pixels.
pub const MAX_DISPLAY_PIXELS: u64 = 16_777_216;

/// Why settings were refused. The message names the field and the value.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// Display sides must be between 1 and [`MAX_DISPLAY_SIDE`].
    #[error(
        "display size {width}x{height}: each side must be between 1 and {MAX_DISPLAY_SIDE} px"
    )]
    DisplaySide {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// The display area is capped at [`MAX_DISPLAY_PIXELS`].
    #[error("display size {width}x{height}: more than {MAX_DISPLAY_PIXELS} pixels")]
    DisplayArea {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// An overlay colour set to slot 0, which is transparent and would draw nothing.
    #[error("overlay colour '{0}' is slot 0, which is transparent; pick a slot from 1 up")]
    OverlayColorTransparent(&'static str),
    /// The simulation rate must be a finite number above zero.
    #[error("target_fps must be between {MIN_TARGET_FPS} and {MAX_TARGET_FPS} updates a second, got {0}")]
    TargetFps(f64),
    /// The output scale must be a whole number from 1 to [`MAX_OUTPUT_SCALE`], and the output
    /// picture hold at most [`MAX_OUTPUT_PIXELS`].
    #[error(
        "output_scale must be between 1 and {MAX_OUTPUT_SCALE} and the output picture at most \
         {MAX_OUTPUT_PIXELS} pixels, got {0}"
    )]
    OutputScale(u32),
    /// The window scale must be a whole number from 1 to [`MAX_WINDOW_SCALE`].
    #[error("window_scale must be between 1 and {MAX_WINDOW_SCALE}, got {0}")]
    WindowScale(u32),
    /// An output size ([`Settings::output`]) with a side of 0, or more than
    /// [`MAX_OUTPUT_PIXELS`] pixels.
    #[error(
        "output size {width}x{height}: each side must be at least 1 px and the picture at most \
         {MAX_OUTPUT_PIXELS} pixels"
    )]
    OutputSize {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
}

/// How the picture is scaled from the display size to the output size, where the display
/// tier's effects work ([`Settings::upscale`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Upscale {
    /// Each output pixel shows the display pixel it falls in: crisp blocks, all the same size
    /// at a whole multiple. Under a curve ([`crate::Effect::Barrel`]) the pixels' edges are
    /// blended over one output pixel, so the curve has no stair steps. The default.
    #[default]
    Nearest,
    /// Each output pixel blends the four display pixels around it by distance: soft, as
    /// BLIT386's `outputUpscaleFilter: 'linear'`.
    Linear,
}

/// Palette slots the overlay draws with. Slot 0 is transparent, so none of these should be 0.
///
/// A cart sets them with [`Settings::overlay_colors`](crate::Settings::overlay_colors); a
/// host can change them later through the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OverlayColors {
    /// Bar and chart background.
    pub bar: u8,
    /// Text.
    pub text: u8,
    /// Dividers and the gaps between bars.
    pub gap: u8,
    /// Chart grid lines and tag markers.
    pub grid: u8,
    /// Update-time dots of ordinary frames.
    pub update_dot: u8,
    /// Render-time dots of ordinary frames.
    pub render_dot: u8,
    /// Both dots of a frame graded warning.
    pub warning: u8,
    /// Both dots of a frame graded error.
    pub error: u8,
    /// Tag text.
    pub tag: u8,
    /// The mark at the top of a column whose frame hit the update cap and lost time.
    pub clamp: u8,
    /// The mark on the bottom row of a column whose frame ran no update.
    pub zero_update: u8,
}

impl OverlayColors {
    /// Every slot with its field name, in declaration order.
    pub fn named(&self) -> [(&'static str, u8); 11] {
        [
            ("bar", self.bar),
            ("text", self.text),
            ("gap", self.gap),
            ("grid", self.grid),
            ("update_dot", self.update_dot),
            ("render_dot", self.render_dot),
            ("warning", self.warning),
            ("error", self.error),
            ("tag", self.tag),
            ("clamp", self.clamp),
            ("zero_update", self.zero_update),
        ]
    }
}

impl Default for OverlayColors {
    /// In the default (PICO-8) palette: dark blue bars, white text, dark grey gaps and grid,
    /// green update dots, light grey render dots, yellow warnings, red errors, pink tags, an
    /// orange clamp mark and a lavender zero-update mark.
    fn default() -> OverlayColors {
        OverlayColors {
            bar: 1,
            text: 7,
            gap: 5,
            grid: 5,
            update_dot: 11,
            render_dot: 6,
            warning: 10,
            error: 8,
            tag: 14,
            clamp: 9,
            zero_update: 13,
        }
    }
}

/// Overlay options (the frame-metrics overlay drawn over the cart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OverlaySettings {
    /// Whether the overlay exists at all. Default `true`.
    pub enabled: bool,
    /// Whether it is shown from the first frame. Default `false`.
    pub visible_at_start: bool,
    /// Whether the timing chart is drawn and its samples collected. Default `false`.
    pub timing_chart: bool,
    /// Whether the renderer row is shown: the last frame's drawing calls by kind
    /// ([`crate::DrawCounts`]). Default `false`.
    pub diagnostics: bool,
    /// Whether a grid of the palette's colours is shown above the hint bar, each slot a
    /// swatch, in slot order. Default `false`.
    pub palette_grid: bool,
    /// The palette slots it draws with.
    pub colors: OverlayColors,
}

impl Default for OverlaySettings {
    fn default() -> OverlaySettings {
        OverlaySettings {
            enabled: true,
            visible_at_start: false,
            timing_chart: false,
            diagnostics: false,
            palette_grid: false,
            colors: OverlayColors::default(),
        }
    }
}

/// A setting a cart can choose in [`crate::Cart::configure`], as [`Settings::was_set`] asks
/// about it: each is one of `cart.toml`'s fields, so a host can say which of the two set a
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SettingsField {
    /// [`Settings::title`].
    Title,
    /// [`Settings::width`].
    Width,
    /// [`Settings::height`].
    Height,
    /// [`Settings::window_scale`].
    WindowScale,
    /// [`Settings::palette`].
    Palette,
    /// [`Settings::output_scale`].
    OutputScale,
    /// [`Settings::effects`].
    Effects,
    /// [`Settings::target_fps`].
    TargetFps,
    /// [`Settings::seed`].
    Seed,
    /// [`OverlaySettings::enabled`].
    OverlayEnabled,
    /// [`OverlaySettings::visible_at_start`].
    OverlayVisible,
    /// [`OverlaySettings::timing_chart`].
    TimingChart,
    /// [`OverlaySettings::diagnostics`].
    OverlayDiagnostics,
    /// [`OverlaySettings::palette_grid`].
    OverlayPaletteGrid,
}

impl SettingsField {
    /// This field's bit in [`FieldsSet`].
    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The fields a builder method set ([`Settings::was_set`]). Where a value came from is not
/// part of the value: two [`Settings`] holding the same values are equal whatever set them.
#[derive(Debug, Clone, Copy, Default)]
struct FieldsSet(u16);

impl PartialEq for FieldsSet {
    fn eq(&self, _: &FieldsSet) -> bool {
        true
    }
}

impl FieldsSet {
    fn mark(&mut self, fields: &[SettingsField]) {
        for field in fields {
            self.0 |= field.bit();
        }
    }
}

/// A cart's hardware settings, returned from [`crate::Cart::configure`].
///
/// Start from the defaults and change what the cart needs:
///
/// ```
/// use bt::Settings;
///
/// let s = Settings::default().display(160, 120).target_fps(30.0).title("Tiny");
/// assert_eq!((s.width, s.height, s.target_fps), (160, 120, 30.0));
/// assert!(s.validate().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Settings {
    /// Display width in pixels. Default 320.
    pub width: u32,
    /// Display height in pixels. Default 240.
    pub height: u32,
    /// Fixed updates per second. Default 60.
    pub target_fps: f64,
    /// The palette at boot. Default: [`Palette::pico8`].
    pub palette: Palette,
    /// The random seed when the host is given none. Default `None` (the host picks; headless
    /// commands use 0).
    pub seed: Option<u64>,
    /// A short name shown in the overlay and the window title. Default `"BT"`.
    pub title: String,
    /// Overlay options.
    pub overlay: OverlaySettings,
    /// How many window pixels a display pixel takes in `bt run` at start. Default `None`: the
    /// largest whole scale that fits a comfortable window (3 for 320x240). `bt run --scale`
    /// overrides it.
    pub window_scale: Option<u32>,
    /// How many output pixels a display pixel takes in the picture the post-process stack's
    /// display tier works on ([`crate::Effect`]): the output size is the display size times
    /// this, the same on every host, so `bt shot --size output` is reproducible. Default 2.
    pub output_scale: u32,
    /// The output size, when a cart asks for one that is not a whole multiple of the display
    /// ([`Settings::output`]); `None` (the default) means the display size times
    /// [`Settings::output_scale`].
    pub output: Option<(u32, u32)>,
    /// How the picture is scaled to the output size. Default [`Upscale::Nearest`].
    pub upscale: Upscale,
    /// Whether the post-process effects run ([`crate::Effect`]). Default `true`; a player
    /// who does not want them sets `[display] effects = false` in their config (or
    /// `cart.toml` does), or turns them off in the window.
    pub effects: bool,
    /// The fields a builder method set.
    set: FieldsSet,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            width: 320,
            height: 240,
            target_fps: 60.0,
            palette: Palette::pico8(),
            seed: None,
            title: "BT".to_string(),
            overlay: OverlaySettings::default(),
            window_scale: None,
            output_scale: 2,
            output: None,
            upscale: Upscale::Nearest,
            effects: true,
            set: FieldsSet::default(),
        }
    }
}

impl Settings {
    /// Sets the display size.
    pub fn display(mut self, width: u32, height: u32) -> Settings {
        self.set
            .mark(&[SettingsField::Width, SettingsField::Height]);
        self.width = width;
        self.height = height;
        self
    }

    /// Sets the number of fixed updates per second.
    pub fn target_fps(mut self, fps: f64) -> Settings {
        self.set.mark(&[SettingsField::TargetFps]);
        self.target_fps = fps;
        self
    }

    /// Sets the boot palette.
    pub fn palette(mut self, palette: Palette) -> Settings {
        self.set.mark(&[SettingsField::Palette]);
        self.palette = palette;
        self
    }

    /// Sets the default random seed.
    pub fn seed(mut self, seed: u64) -> Settings {
        self.set.mark(&[SettingsField::Seed]);
        self.seed = Some(seed);
        self
    }

    /// Sets the title.
    pub fn title(mut self, title: &str) -> Settings {
        self.set.mark(&[SettingsField::Title]);
        self.title = title.to_string();
        self
    }

    /// Shows the overlay from the first frame.
    pub fn overlay_visible(mut self, visible: bool) -> Settings {
        self.set.mark(&[SettingsField::OverlayVisible]);
        self.overlay.visible_at_start = visible;
        self
    }

    /// Turns the overlay's timing chart on or off.
    pub fn timing_chart(mut self, on: bool) -> Settings {
        self.set.mark(&[SettingsField::TimingChart]);
        self.overlay.timing_chart = on;
        self
    }

    /// Turns the overlay's renderer row on or off: the last frame's drawing calls by kind.
    pub fn overlay_diagnostics(mut self, on: bool) -> Settings {
        self.set.mark(&[SettingsField::OverlayDiagnostics]);
        self.overlay.diagnostics = on;
        self
    }

    /// Turns the overlay's palette grid on or off: every palette slot as a swatch.
    pub fn overlay_palette_grid(mut self, on: bool) -> Settings {
        self.set.mark(&[SettingsField::OverlayPaletteGrid]);
        self.overlay.palette_grid = on;
        self
    }

    /// Sets the palette slots the overlay draws with:
    ///
    /// ```
    /// use bt::{OverlayColors, Settings};
    ///
    /// let mut colors = OverlayColors::default();
    /// colors.bar = 2;
    /// colors.text = 10;
    /// let s = Settings::default().overlay_colors(colors);
    /// assert_eq!(s.overlay.colors.text, 10);
    /// ```
    pub fn overlay_colors(mut self, colors: OverlayColors) -> Settings {
        self.overlay.colors = colors;
        self
    }

    /// Sets the window scale `bt run` opens with (1 to 16).
    pub fn window_scale(mut self, scale: u32) -> Settings {
        self.set.mark(&[SettingsField::WindowScale]);
        self.window_scale = Some(scale);
        self
    }

    /// Sets the output scale (1 to [`MAX_OUTPUT_SCALE`]): the picture the display-tier
    /// effects work on is the display size times this.
    pub fn output_scale(mut self, scale: u32) -> Settings {
        self.set.mark(&[SettingsField::OutputScale]);
        self.output_scale = scale;
        self
    }

    /// Turns the post-process effects on (the default) or off.
    pub fn effects(mut self, on: bool) -> Settings {
        self.set.mark(&[SettingsField::Effects]);
        self.effects = on;
        self
    }

    /// Sets the output size to any `width × height`, not only a whole multiple of the
    /// display (BLIT386's `drawingBufferSize`): the display tier's effects work at it, and
    /// the picture is scaled to it as [`Settings::upscale`] says.
    ///
    /// ```
    /// use bt::{Settings, Upscale};
    ///
    /// let s = Settings::default().display(320, 240).output(1000, 750).upscale(Upscale::Linear);
    /// assert_eq!(s.output_size(), (1000, 750));
    /// assert!(s.validate().is_ok());
    /// ```
    pub fn output(mut self, width: u32, height: u32) -> Settings {
        self.output = Some((width, height));
        self
    }

    /// Sets how the picture is scaled to the output size.
    pub fn upscale(mut self, filter: Upscale) -> Settings {
        self.upscale = filter;
        self
    }

    /// Whether a builder method of these settings set `field` (`display(…)` sets the width and
    /// the height), even to the value it had: what lets `bt config` say a value came from the
    /// cart's `configure()` rather than from BT's default. A field written directly
    /// (`settings.width = 160`) is not seen; a host that asks also counts a value other than
    /// the default's as set.
    ///
    /// ```
    /// use bt::host::SettingsField;
    /// use bt::Settings;
    ///
    /// let s = Settings::default().display(320, 240);
    /// assert!(s.was_set(SettingsField::Width));
    /// assert!(!s.was_set(SettingsField::Title));
    /// assert_eq!(s, Settings::default(), "the values are the default's");
    /// ```
    pub fn was_set(&self, field: SettingsField) -> bool {
        self.set.0 & field.bit() != 0
    }

    /// The output size: [`Settings::output`] if the cart set one, else the display size
    /// times [`Settings::output_scale`].
    pub fn output_size(&self) -> (u32, u32) {
        if let Some(size) = self.output {
            return size;
        }
        (
            self.width.saturating_mul(self.output_scale),
            self.height.saturating_mul(self.output_scale),
        )
    }

    /// Turns the overlay off entirely.
    pub fn overlay_enabled(mut self, on: bool) -> Settings {
        self.set.mark(&[SettingsField::OverlayEnabled]);
        self.overlay.enabled = on;
        self
    }

    /// Seconds per fixed update: `1 / target_fps`.
    pub fn delta_seconds(&self) -> f64 {
        1.0 / self.target_fps
    }

    /// Checks every field.
    ///
    /// # Errors
    /// The first [`SettingsError`] found.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let (width, height) = (self.width, self.height);
        if !(1..=MAX_DISPLAY_SIDE).contains(&width) || !(1..=MAX_DISPLAY_SIDE).contains(&height) {
            return Err(SettingsError::DisplaySide { width, height });
        }
        if u64::from(width) * u64::from(height) > MAX_DISPLAY_PIXELS {
            return Err(SettingsError::DisplayArea { width, height });
        }
        if !(MIN_TARGET_FPS..=MAX_TARGET_FPS).contains(&self.target_fps) {
            return Err(SettingsError::TargetFps(self.target_fps));
        }
        if let Some(scale) = self
            .window_scale
            .filter(|s| !(1..=MAX_WINDOW_SCALE).contains(s))
        {
            return Err(SettingsError::WindowScale(scale));
        }
        if let Some((width, height)) = self.output {
            if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_OUTPUT_PIXELS
            {
                return Err(SettingsError::OutputSize { width, height });
            }
        }
        let (ow, oh) = (
            self.width.saturating_mul(self.output_scale),
            self.height.saturating_mul(self.output_scale),
        );
        if !(1..=MAX_OUTPUT_SCALE).contains(&self.output_scale)
            || u64::from(ow) * u64::from(oh) > MAX_OUTPUT_PIXELS
        {
            return Err(SettingsError::OutputScale(self.output_scale));
        }
        if let Some((name, _)) = self
            .overlay
            .colors
            .named()
            .into_iter()
            .find(|&(_, v)| v == 0)
        {
            return Err(SettingsError::OverlayColorTransparent(name));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_320x240_at_60() {
        let s = Settings::default();
        assert_eq!((s.width, s.height, s.target_fps), (320, 240, 60.0));
        assert!(s.validate().is_ok());
        assert!((s.delta_seconds() - 1.0 / 60.0).abs() < 1e-15);
    }

    #[test]
    fn bad_fields_are_named() {
        let e = Settings::default()
            .target_fps(f64::NAN)
            .validate()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "target_fps must be between 0.001 and 10000 updates a second, got NaN"
        );
        for bad in [0.0, -1.0, 1e-310, 0.000_9, 10_000.5, f64::INFINITY] {
            let e = Settings::default().target_fps(bad).validate().unwrap_err();
            assert!(e.to_string().ends_with(&format!("got {bad}")), "{e}");
        }
        for good in [MIN_TARGET_FPS, 0.5, 60.0, MAX_TARGET_FPS] {
            assert!(
                Settings::default().target_fps(good).validate().is_ok(),
                "{good}"
            );
        }
        let e = Settings::default().display(0, 240).validate().unwrap_err();
        assert!(e.to_string().contains("0x240"), "{e}");
        let e = Settings::default()
            .display(8192, 8192)
            .validate()
            .unwrap_err();
        assert!(matches!(e, SettingsError::DisplayArea { .. }));
        let e = Settings::default().window_scale(0).validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "window_scale must be between 1 and 16, got 0"
        );
        assert!(Settings::default().window_scale(4).validate().is_ok());
        let colors = OverlayColors {
            tag: 0,
            ..OverlayColors::default()
        };
        let e = Settings::default()
            .overlay_colors(colors)
            .validate()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "overlay colour 'tag' is slot 0, which is transparent; pick a slot from 1 up"
        );
    }
}
