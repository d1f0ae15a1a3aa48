//! [`Color32`]: one RGBA colour, with the arithmetic and names a cart uses on colours.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// An RGBA colour, 8 bits a channel.
///
/// Written and read as CSS-style hex (`"#ff8800"`, `"#f80"`, with alpha `"#ff880080"`) or by
/// name (`"cornflowerblue"`, see [`Color32::NAMED`]):
///
/// ```
/// use bt::Color32;
///
/// let orange: Color32 = "#f80".parse()?;
/// assert_eq!(orange, Color32::rgb(255, 136, 0));
/// assert_eq!(orange.to_string(), "#ff8800");
/// assert_eq!("Tomato".parse::<Color32>()?, Color32::rgb(255, 99, 71));
/// assert_eq!(Color32::BLACK.lerp(Color32::WHITE, 0.5), Color32::rgb(128, 128, 128));
/// assert_eq!(Color32::WHITE.luminance(), 255.0);
/// # Ok::<(), bt::ColorParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Color32 {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (255 = opaque).
    pub a: u8,
}

impl Color32 {
    /// Nothing: black with alpha 0.
    pub const TRANSPARENT: Color32 = Color32 {
        r: 0,
        g: 0,
        b: 0,
        a: 0,
    };
    /// `#000000`.
    pub const BLACK: Color32 = Color32::rgb(0, 0, 0);
    /// `#ffffff`.
    pub const WHITE: Color32 = Color32::rgb(255, 255, 255);
    /// `#ff0000`.
    pub const RED: Color32 = Color32::rgb(255, 0, 0);
    /// `#00ff00`.
    pub const GREEN: Color32 = Color32::rgb(0, 255, 0);
    /// `#0000ff`.
    pub const BLUE: Color32 = Color32::rgb(0, 0, 255);
    /// `#ffff00`.
    pub const YELLOW: Color32 = Color32::rgb(255, 255, 0);
    /// `#00ffff`.
    pub const CYAN: Color32 = Color32::rgb(0, 255, 255);
    /// `#ff00ff`.
    pub const MAGENTA: Color32 = Color32::rgb(255, 0, 255);

    /// The colours [`str::parse`] knows by name: BLIT386's set, which are CSS's colours of
    /// those names, and `"transparent"`. Names are matched ignoring case and surrounding
    /// spaces; `"grey"` is `"gray"`.
    pub const NAMED: [(&'static str, Color32); 32] = [
        ("black", Color32::BLACK),
        ("white", Color32::WHITE),
        ("red", Color32::RED),
        ("green", Color32::GREEN),
        ("blue", Color32::BLUE),
        ("yellow", Color32::YELLOW),
        ("cyan", Color32::CYAN),
        ("magenta", Color32::MAGENTA),
        ("gray", Color32::rgb(128, 128, 128)),
        ("grey", Color32::rgb(128, 128, 128)),
        ("orange", Color32::rgb(255, 165, 0)),
        ("pink", Color32::rgb(255, 192, 203)),
        ("purple", Color32::rgb(128, 0, 128)),
        ("brown", Color32::rgb(165, 42, 42)),
        ("lime", Color32::rgb(0, 255, 0)),
        ("navy", Color32::rgb(0, 0, 128)),
        ("teal", Color32::rgb(0, 128, 128)),
        ("maroon", Color32::rgb(128, 0, 0)),
        ("olive", Color32::rgb(128, 128, 0)),
        ("coral", Color32::rgb(255, 127, 80)),
        ("gold", Color32::rgb(255, 215, 0)),
        ("silver", Color32::rgb(192, 192, 192)),
        ("indigo", Color32::rgb(75, 0, 130)),
        ("violet", Color32::rgb(238, 130, 238)),
        ("turquoise", Color32::rgb(64, 224, 208)),
        ("salmon", Color32::rgb(250, 128, 114)),
        ("khaki", Color32::rgb(240, 230, 140)),
        ("plum", Color32::rgb(221, 160, 221)),
        ("crimson", Color32::rgb(220, 20, 60)),
        ("tomato", Color32::rgb(255, 99, 71)),
        ("cornflowerblue", Color32::rgb(100, 149, 237)),
        ("transparent", Color32::TRANSPARENT),
    ];

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color32 {
        Color32 { r, g, b, a: 255 }
    }

    /// An opaque colour from `0xRRGGBB`.
    pub const fn hex(rgb: u32) -> Color32 {
        Color32::rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }

    /// The colour called `name` in [`Color32::NAMED`] (ignoring case and surrounding spaces).
    /// A cart's own names go in a [`crate::ColorNames`].
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// assert_eq!(Color32::named(" Navy "), Some(Color32::rgb(0, 0, 128)));
    /// assert_eq!(Color32::named("mauve"), None);
    /// ```
    pub fn named(name: &str) -> Option<Color32> {
        let name = name.trim();
        Color32::NAMED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, c)| c)
    }

    /// The colour a fraction `t` of the way from `self` to `to`, every channel alpha included
    /// rounded to the nearest level: `t = 0` gives `self`, `t = 1` gives `to`. Beyond `[0, 1]`
    /// it goes past either end, each channel stopping at 0 or 255 (the palette fades' overshooting
    /// curves rely on that); a `t` that is NaN counts as 0.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// let dusk = Color32::hex(0xff8800).lerp(Color32::hex(0x000044), 0.25);
    /// assert_eq!(dusk, Color32::rgb(191, 102, 17));
    /// assert_eq!(Color32::RED.lerp(Color32::BLUE, 2.0), Color32::rgb(0, 0, 255));
    /// ```
    pub fn lerp(self, to: Color32, t: f64) -> Color32 {
        let t = if t.is_nan() { 0.0 } else { t };
        let ch = |x: u8, y: u8| {
            let v = f64::from(x) + (f64::from(y) - f64::from(x)) * t;
            v.round().clamp(0.0, 255.0) as u8
        };
        Color32 {
            r: ch(self.r, to.r),
            g: ch(self.g, to.g),
            b: ch(self.b, to.b),
            a: ch(self.a, to.a),
        }
    }

    /// The opaque colour of hue `h` (degrees round the colour wheel: 0 red, 120 green, 240
    /// blue), saturation `s` and lightness `l` (both from 0 to 1): the CSS `hsl()` model.
    /// Any hue is taken round the wheel (`-90` is `270`, `360` is `0`); `s` and `l` are held
    /// to `[0, 1]`; NaN counts as 0. Each channel is rounded to the nearest level. Plain
    /// arithmetic only, so the same bits on every machine.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// assert_eq!(Color32::from_hsl(0.0, 1.0, 0.5), Color32::RED);
    /// assert_eq!(Color32::from_hsl(120.0, 1.0, 0.25), Color32::rgb(0, 128, 0));
    /// assert_eq!(Color32::from_hsl(480.0, 1.0, 0.5), Color32::from_hsl(120.0, 1.0, 0.5));
    /// // A rainbow: hues round the wheel at full saturation.
    /// let rainbow: Vec<Color32> = (0..6).map(|i| Color32::from_hsl(i as f64 * 60.0, 1.0, 0.5)).collect();
    /// assert_eq!(rainbow[2], Color32::GREEN);
    /// ```
    pub fn from_hsl(h: f64, s: f64, l: f64) -> Color32 {
        let unit = |v: f64| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        let (s, l) = (unit(s), unit(l));
        let h = if h.is_finite() {
            h.rem_euclid(360.0)
        } else {
            0.0
        };
        let chroma = (1.0 - (2.0 * l - 1.0).abs()) * s;
        let sector = h / 60.0;
        let second = chroma * (1.0 - (sector.rem_euclid(2.0) - 1.0).abs());
        let (r, g, b) = match sector as u32 {
            0 => (chroma, second, 0.0),
            1 => (second, chroma, 0.0),
            2 => (0.0, chroma, second),
            3 => (0.0, second, chroma),
            4 => (second, 0.0, chroma),
            _ => (chroma, 0.0, second),
        };
        let low = l - chroma / 2.0;
        let ch = |v: f64| ((v + low) * 255.0).round().clamp(0.0, 255.0) as u8;
        Color32::rgb(ch(r), ch(g), ch(b))
    }

    /// The colour as `(hue, saturation, lightness)`: hue in degrees in `[0, 360)`, the other
    /// two in `[0, 1]`, alpha left out ([`Color32::from_hsl`] is the way back). A grey has hue
    /// and saturation 0.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// let (h, s, l) = Color32::hex(0x3366cc).to_hsl();
    /// assert_eq!((h, l), (220.0, 0.5));
    /// assert!((s - 0.6).abs() < 1e-9);
    /// // Turn the hue a third of the way round, keep the rest.
    /// assert_eq!(Color32::from_hsl(h + 120.0, s, l), Color32::hex(0xcc3366));
    /// assert_eq!(Color32::rgb(128, 128, 128).to_hsl().1, 0.0);
    /// ```
    pub fn to_hsl(self) -> (f64, f64, f64) {
        let (r, g, b) = (
            f64::from(self.r) / 255.0,
            f64::from(self.g) / 255.0,
            f64::from(self.b) / 255.0,
        );
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let l = (max + min) / 2.0;
        let d = max - min;
        if d == 0.0 {
            return (0.0, 0.0, l);
        }
        let s = (d / (1.0 - (2.0 * l - 1.0).abs())).min(1.0);
        let sector = if max == r {
            ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        let h = sector * 60.0;
        // A hair below 0 wraps to exactly 360 in floating point; that is hue 0.
        (if h >= 360.0 { h - 360.0 } else { h }, s, l)
    }

    /// Red, green and blue in linear light, each from 0 to 1: the stored (sRGB) channels
    /// through the sRGB transfer function, so that light can be added and scaled as light
    /// (the exposure fade works this way). Alpha is left out. [`Color32::from_linear`] is the
    /// way back; every colour survives the round trip. The power is `bt::math`'s, the same
    /// bits on every machine.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// assert_eq!(Color32::WHITE.to_linear(), [1.0, 1.0, 1.0]);
    /// let [r, _, _] = Color32::rgb(128, 0, 0).to_linear();
    /// assert!((r - 0.2158).abs() < 1e-4); // half the level is a fifth of the light
    /// // Two lights added in linear light, then back to a colour.
    /// let [a, b] = [Color32::rgb(200, 40, 0).to_linear(), Color32::rgb(0, 40, 200).to_linear()];
    /// let sum = Color32::from_linear([a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    /// assert_eq!(sum, Color32::rgb(200, 58, 200)); // not 80: light adds, levels do not
    /// let c = Color32::hex(0x1d2b53);
    /// assert_eq!(Color32::from_linear(c.to_linear()), c);
    /// ```
    pub fn to_linear(self) -> [f32; 3] {
        [
            channel_to_linear(self.r) as f32,
            channel_to_linear(self.g) as f32,
            channel_to_linear(self.b) as f32,
        ]
    }

    /// The opaque colour of linear-light red, green and blue (see [`Color32::to_linear`]),
    /// each held to `[0, 1]` (NaN counts as 0) and rounded to the nearest level.
    pub fn from_linear(rgb: [f32; 3]) -> Color32 {
        let ch = |v: f32| linear_to_channel(f64::from(v));
        Color32::rgb(ch(rgb[0]), ch(rgb[1]), ch(rgb[2]))
    }

    /// The two colours multiplied channel by channel, alpha included, as a tint or a light
    /// does: each `x × y / 255`, rounded to the nearest level. White changes nothing, black
    /// gives black.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// let dusk = Color32::rgb(255, 200, 160);
    /// assert_eq!(Color32::rgb(100, 100, 100).multiply(dusk), Color32::rgb(100, 78, 63));
    /// assert_eq!(Color32::hex(0x29adff).multiply(Color32::WHITE), Color32::hex(0x29adff));
    /// ```
    pub fn multiply(self, other: Color32) -> Color32 {
        let ch = |x: u8, y: u8| ((u32::from(x) * u32::from(y) + 127) / 255) as u8;
        Color32 {
            r: ch(self.r, other.r),
            g: ch(self.g, other.g),
            b: ch(self.b, other.b),
            a: ch(self.a, other.a),
        }
    }

    /// The negative: each of red, green and blue `255 - x`, alpha kept.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// assert_eq!(Color32::hex(0xff8800).invert(), Color32::hex(0x0077ff));
    /// let ghost = Color32 { a: 90, ..Color32::WHITE };
    /// assert_eq!(ghost.invert(), Color32 { a: 90, ..Color32::BLACK });
    /// ```
    pub fn invert(self) -> Color32 {
        Color32 {
            r: 255 - self.r,
            g: 255 - self.g,
            b: 255 - self.b,
            a: self.a,
        }
    }

    /// The opaque colour this one shows as on the screen: its channels over black in
    /// proportion to its alpha, each `(c × a + 127) / 255` in whole numbers (a colour with
    /// alpha 128 shows at half brightness; alpha 0 is black). This is how a palette slot's
    /// alpha reaches the picture: pulse a slot's alpha and everything drawn in it fades toward
    /// black and back, in the window, in pictures, GIFs and the web page alike. Translucency
    /// over what is already drawn is [`crate::BlendTable`]'s work.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// let half = Color32 { a: 128, ..Color32::rgb(255, 128, 0) };
    /// assert_eq!(half.shown(), Color32::rgb(128, 64, 0));
    /// assert_eq!(Color32 { a: 0, ..Color32::rgb(200, 10, 90) }.shown(), Color32::BLACK);
    /// assert_eq!(Color32::rgb(200, 10, 90).shown(), Color32::rgb(200, 10, 90));
    /// ```
    pub fn shown(self) -> Color32 {
        let over = |c: u8| ((u32::from(c) * u32::from(self.a) + 127) / 255) as u8;
        Color32::rgb(over(self.r), over(self.g), over(self.b))
    }

    /// How bright the colour looks, from 0 (black) to 255 (white): the Rec. 601 weighting
    /// `0.299 r + 0.587 g + 0.114 b` of the stored (sRGB) channels, alpha ignored. Handy to
    /// sort colours dark to light or to pick black or white text over a colour.
    ///
    /// ```
    /// use bt::Color32;
    ///
    /// assert!(Color32::YELLOW.luminance() > Color32::BLUE.luminance());
    /// assert_eq!(Color32::BLACK.luminance(), 0.0);
    /// ```
    pub fn luminance(self) -> f64 {
        0.299 * f64::from(self.r) + 0.587 * f64::from(self.g) + 0.114 * f64::from(self.b)
    }
}

impl fmt::Display for Color32 {
    /// Lower-case hex: `#rrggbb` when opaque, `#rrggbbaa` otherwise. [`str::parse`] reads
    /// both back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)?;
        if self.a != 255 {
            write!(f, "{:02x}", self.a)?;
        }
        Ok(())
    }
}

/// An sRGB channel (0 to 255) in linear light, 0 to 1: the sRGB transfer function, with
/// `bt::math`'s power, the same on every machine.
pub(crate) fn channel_to_linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        crate::math::powf((c + 0.055) / 1.055, 2.4)
    }
}

/// A linear-light value (0 to 1, held there; NaN counts as 0) as an sRGB channel, rounded.
pub(crate) fn linear_to_channel(l: f64) -> u8 {
    let l = if l.is_nan() { 0.0 } else { l.clamp(0.0, 1.0) };
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * crate::math::powf(l, 1.0 / 2.4) - 0.055
    };
    (c * 255.0).round().clamp(0.0, 255.0) as u8
}

/// A text that is neither a hex colour nor a colour name. It names the text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "not a colour: {} (expected #rgb, #rgba, #rrggbb, #rrggbbaa or a name such as cornflowerblue)",
    crate::quote::quoted(.text)
)]
pub struct ColorParseError {
    /// The text as given.
    pub text: String,
}

/// The colour of 3, 4, 6 or 8 hex digits (short forms repeat each digit: `f80` is `ff8800`).
fn from_hex_digits(digits: &str) -> Option<Color32> {
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let nibble = |i: usize| u8::from_str_radix(&digits[i..=i], 16).ok();
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    let (r, g, b, a) = match digits.len() {
        3 | 4 => {
            let a = if digits.len() == 4 {
                nibble(3)? * 17
            } else {
                255
            };
            (nibble(0)? * 17, nibble(1)? * 17, nibble(2)? * 17, a)
        }
        6 | 8 => {
            let a = if digits.len() == 8 { byte(6)? } else { 255 };
            (byte(0)?, byte(2)?, byte(4)?, a)
        }
        _ => return None,
    };
    Some(Color32 { r, g, b, a })
}

impl FromStr for Color32 {
    type Err = ColorParseError;

    /// Reads `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (the `#` may be left out, as BLIT386
    /// allows) or a name from [`Color32::NAMED`], ignoring case and surrounding spaces.
    ///
    /// # Errors
    /// [`ColorParseError`] naming the text.
    fn from_str(text: &str) -> Result<Color32, ColorParseError> {
        let trimmed = text.trim();
        let found = match trimmed.strip_prefix('#') {
            Some(digits) => from_hex_digits(digits),
            None => Color32::named(trimmed).or_else(|| from_hex_digits(trimmed)),
        };
        found.ok_or_else(|| ColorParseError {
            text: text.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_forms_read_and_write_back() {
        let cases = [
            ("#ff8800", Color32::rgb(255, 136, 0)),
            ("#F80", Color32::rgb(255, 136, 0)),
            ("ff8800", Color32::rgb(255, 136, 0)),
            (
                "#f808",
                Color32 {
                    r: 255,
                    g: 136,
                    b: 0,
                    a: 136,
                },
            ),
            (
                "#12345678",
                Color32 {
                    r: 0x12,
                    g: 0x34,
                    b: 0x56,
                    a: 0x78,
                },
            ),
            ("  #000  ", Color32::BLACK),
        ];
        for (text, color) in cases {
            assert_eq!(text.parse::<Color32>(), Ok(color), "{text}");
            assert_eq!(color.to_string().parse::<Color32>(), Ok(color));
        }
        assert_eq!(Color32::rgb(1, 2, 3).to_string(), "#010203");
        assert_eq!(Color32::TRANSPARENT.to_string(), "#00000000");
    }

    #[test]
    fn bad_colours_are_refused_naming_the_text() {
        for bad in [
            "#ff88800", "#ff880", "#gg0000", "#", "", "mauve", "#+f+f+f", "#ééé",
        ] {
            let err = bad.parse::<Color32>().unwrap_err();
            assert_eq!(err.text, bad);
        }
        assert_eq!(
            "#12345".parse::<Color32>().unwrap_err().to_string(),
            "not a colour: \"#12345\" (expected #rgb, #rgba, #rrggbb, #rrggbbaa or a name \
             such as cornflowerblue)"
        );
    }

    #[test]
    fn names_are_css_values_and_unique() {
        for (i, (name, color)) in Color32::NAMED.iter().enumerate() {
            assert_eq!(name.parse::<Color32>(), Ok(*color));
            assert_eq!(name.to_uppercase().parse::<Color32>(), Ok(*color));
            assert!(Color32::NAMED[..i].iter().all(|(n, _)| n != name), "{name}");
        }
        assert_eq!(Color32::named("grey"), Color32::named("gray"));
        assert_eq!(
            Color32::named("cornflowerblue"),
            Some(Color32::hex(0x6495ed))
        );
    }

    #[test]
    fn lerp_rounds_reaches_both_ends_and_clamps_past_them() {
        let a = Color32 {
            r: 10,
            g: 200,
            b: 0,
            a: 255,
        };
        let b = Color32 {
            r: 20,
            g: 100,
            b: 255,
            a: 0,
        };
        assert_eq!(a.lerp(b, 0.0), a);
        assert_eq!(a.lerp(b, 1.0), b);
        // 10 + 10 × 0.25 = 12.5 → 13; 200 - 25 = 175; 63.75 → 64; 255 - 63.75 = 191.25 → 191.
        assert_eq!(
            a.lerp(b, 0.25),
            Color32 {
                r: 13,
                g: 175,
                b: 64,
                a: 191
            }
        );
        assert_eq!(
            a.lerp(b, -1.0),
            Color32 {
                r: 0,
                g: 255,
                b: 0,
                a: 255
            }
        );
        assert_eq!(a.lerp(b, f64::NAN), a);
    }

    #[test]
    fn luminance_weights_green_most_and_blue_least() {
        assert!((Color32::GREEN.luminance() - 0.587 * 255.0).abs() < 1e-9);
        assert!((Color32::RED.luminance() - 0.299 * 255.0).abs() < 1e-9);
        assert!((Color32::BLUE.luminance() - 0.114 * 255.0).abs() < 1e-9);
        assert!((Color32::WHITE.luminance() - 255.0).abs() < 1e-9);
    }

    #[test]
    fn hsl_round_trips_every_colour_and_wraps_the_hue() {
        for r in (0..=255).step_by(5) {
            for g in (0..=255).step_by(3) {
                for b in (0..=255).step_by(7) {
                    let c = Color32::rgb(r, g, b);
                    let (h, s, l) = c.to_hsl();
                    assert!((0.0..360.0).contains(&h), "{c} {h}");
                    assert!((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&l), "{c}");
                    assert_eq!(Color32::from_hsl(h, s, l), c);
                }
            }
        }
        assert_eq!(Color32::from_hsl(240.0, 1.0, 0.5), Color32::BLUE);
        assert_eq!(Color32::from_hsl(-120.0, 1.0, 0.5), Color32::BLUE);
        assert_eq!(Color32::from_hsl(60.0, 1.0, 1.0), Color32::WHITE);
        assert_eq!(Color32::from_hsl(60.0, 7.0, -3.0), Color32::BLACK);
        assert_eq!(
            Color32::from_hsl(f64::NAN, f64::NAN, 0.5),
            Color32::rgb(128, 128, 128)
        );
        assert_eq!(Color32::from_hsl(f64::INFINITY, 1.0, 0.5), Color32::RED);
        assert_eq!(Color32::hex(0xff00ff).to_hsl(), (300.0, 1.0, 0.5));
    }

    #[test]
    fn linear_light_round_trips_and_holds_out_of_range_values() {
        for c in 0..=255u8 {
            let grey = Color32::rgb(c, c, c);
            let [r, g, b] = grey.to_linear();
            assert!(r == g && g == b && (0.0..=1.0).contains(&r), "{c}");
            assert_eq!(Color32::from_linear([r, g, b]), grey);
        }
        assert_eq!(Color32::BLACK.to_linear(), [0.0, 0.0, 0.0]);
        // The straight toe: level 10 is 10 / 255 / 12.92.
        assert_eq!(
            Color32::rgb(10, 0, 0).to_linear()[0],
            (10.0 / 255.0 / 12.92) as f32
        );
        assert_eq!(
            Color32::from_linear([2.0, -1.0, f32::NAN]),
            Color32::rgb(255, 0, 0)
        );
        let faint = Color32 {
            a: 7,
            ..Color32::WHITE
        };
        assert_eq!(Color32::from_linear(faint.to_linear()).a, 255, "opaque");
    }

    #[test]
    fn multiply_rounds_each_channel_and_invert_keeps_alpha() {
        let a = Color32 {
            r: 255,
            g: 128,
            b: 1,
            a: 200,
        };
        let b = Color32 {
            r: 10,
            g: 128,
            b: 127,
            a: 255,
        };
        // 255·10/255 = 10; 128·128/255 = 64.25 → 64; 127/255 = 0.498 → 0; alpha 200.
        assert_eq!(
            a.multiply(b),
            Color32 {
                r: 10,
                g: 64,
                b: 0,
                a: 200
            }
        );
        assert_eq!(a.multiply(b), b.multiply(a));
        // 128 · 2 / 255 = 1.004 → 1, and 255 · 128 / 255 exactly 128.
        assert_eq!(
            Color32::rgb(128, 255, 0).multiply(Color32::rgb(2, 128, 9)),
            Color32::rgb(1, 128, 0)
        );
        for c in [Color32::BLACK, Color32::WHITE, a, b] {
            assert_eq!(c.multiply(Color32::WHITE), c);
            assert_eq!(c.invert().invert(), c);
            assert_eq!(c.invert().a, c.a);
        }
        assert_eq!(
            a.invert(),
            Color32 {
                r: 0,
                g: 127,
                b: 254,
                a: 200
            }
        );
    }
}
