//! What carts call to load fonts, natively from the cart's asset folder, in a web page from
//! its asset pack (the host's loader hides which), or from bytes built into the cart; and
//! [`FontError`].

use thiserror::Error;

use std::ops::RangeInclusive;

use super::btfont::{self, Picture, Texture};
use super::{sheet, Font};
use crate::assets::{AssetError, AssetErrorKind, MAX_DATA_FILE};
use crate::draw::SpriteSheet;
use crate::quote::{excerpt, quoted};
use crate::{ColorMatch, Update};

/// The slots [`Update::load_font_matched`] is asked to match among, and how.
type Matching = (RangeInclusive<u8>, ColorMatch);

/// The slots a several-coloured RGBA `.btfont` picture is matched among by
/// [`Update::load_font`]: every slot but 0, which is no ink in a font (the end is cut to the
/// palette's).
const AUTO_SLOTS: RangeInclusive<u8> = 1..=u8::MAX;

/// Why a font could not be loaded. Shown as one line naming the file and, for a file that
/// breaks its format, the line and the field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FontError {
    /// The file (or a sheet font's picture) could not be read or decoded.
    #[error(transparent)]
    Asset(#[from] AssetError),
    /// A line that does not follow the format.
    #[error("{file}:{line}: {field}: {message}")]
    Line {
        /// The file (or the name given for bytes in memory).
        file: String,
        /// The line, from 1.
        line: usize,
        /// Which field: a BDF keyword (`BBX`, `ENCODING`, `BITMAP`, ...) or a sheet
        /// description's (`grid`, `chars`, `glyph`, `kern`, ...).
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

/// One line's error, the file's name escaped so the message stays on one line.
pub(crate) fn line_error(file: &str, line: usize, field: &str, message: String) -> FontError {
    FontError::Line {
        file: excerpt(file),
        line,
        field: field.to_string(),
        message,
    }
}

/// The asset path of `file`, named in the font file at `path`, which it sits beside. An
/// absolute name stays absolute, for the loader to refuse as it refuses any absolute asset
/// path (not to be looked up as a folder's `fonts//etc/passwd`).
fn beside(path: &str, file: &str) -> String {
    let folder = match path.rfind(['/', '\\']) {
        Some(at) => &path[..=at],
        None => "",
    };
    if file.starts_with(['/', '\\']) || std::path::Path::new(file).has_root() {
        file.to_string()
    } else {
        format!("{folder}{file}")
    }
}

/// Whether `bytes` start like a BDF file (after blank lines and a byte-order mark).
fn looks_like_bdf(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes.trim_ascii_start().starts_with(b"STARTFONT")
}

/// Fonts.
///
/// ```
/// use bt::host::Console;
/// use bt::{Settings, TextStyle};
///
/// let bdf = "STARTFONT 2.1\nFONTBOUNDINGBOX 3 3 0 0\nSTARTPROPERTIES 2\nFONT_ASCENT 3\n\
///            FONT_DESCENT 0\nENDPROPERTIES\nCHARS 1\nSTARTCHAR plus\nENCODING 43\n\
///            DWIDTH 4 0\nBBX 3 3 0 0\nBITMAP\n40\nE0\n40\nENDCHAR\nENDFONT\n";
/// let mut con = Console::new(&Settings::default(), 0);
/// let ctx = con.update_context(0);
/// let font = ctx.decode_font("plus.bdf", bdf.as_bytes())?;
/// assert_eq!(font.measure("++", TextStyle::new()), (8, 3));
/// let err = ctx.decode_font("bad.bdf", b"STARTFONT 2.1\nCHARS x\n").unwrap_err();
/// assert_eq!(err.to_string(), "bad.bdf:2: CHARS: \"x\" is not a whole number");
/// # Ok::<(), bt::FontError>(())
/// ```
impl Update<'_> {
    /// Loads the font file at `path` (a relative path is looked up in the cart's asset folder,
    /// as for [`Update::load_image`]): a BDF font, a sheet font's `bt-font 1` description,
    /// whose picture is read from beside it, or a BLIT386 `.btfont` file, whose picture is
    /// beside it or in it as a data URI. A `.btfont` file is told by its extension or its
    /// first character, `{`; the others by the first line. Load in `init`: a font is made once
    /// and drawn with every frame.
    ///
    /// A `.btfont` picture whose glyphs hold several colours makes a coloured font
    /// ([`Font::is_colored`]): an indexed picture keeps its colour numbers; the colours of
    /// any other (RGBA, RGB) are matched to the live palette's slots from 1 on, as
    /// [`ColorMatch::Nearest`] matches them: a colour the palette holds lands on its slot, any
    /// other on the nearest. Slot 0 is no ink, so it is left out. A picture of one colour
    /// makes a one-colour font, drawn in the colour the print call names. To choose the
    /// slots, or to refuse colours the palette lacks, use [`Update::load_font_matched`].
    ///
    /// # Errors
    /// [`FontError`] naming `path`: a missing or unreadable file (or picture, named as
    /// `font.txt -> font.png`), a file longer than 4 MiB, one that is no kind of font, a line
    /// that breaks its format (naming the line and the field), an indexed picture using a
    /// colour number past the palette's end.
    pub fn load_font(&self, path: &str) -> Result<Font, FontError> {
        self.load_font_as(path, None)
    }

    /// Loads the `.btfont` font at `path` as [`Update::load_font`] does, but as a coloured
    /// font whatever its picture: each colour of the picture (read as RGBA, whether it is
    /// stored indexed or not) takes a slot among `slots` of the live palette, as
    /// [`Update::load_image_matched`] matches a sprite sheet's, and the palette is not
    /// changed. With [`ColorMatch::Exact`] a colour none of the slots holds is an error, as
    /// in BLIT386; with [`ColorMatch::Nearest`] it takes the nearest slot. A pixel less than
    /// half opaque is no ink, and so is a colour matched to slot 0: leave 0 out of `slots`.
    ///
    /// ```
    /// use bt::host::{Console, ImageLoader, RgbaImage};
    /// use bt::{AssetError, AssetErrorKind, ColorMatch, Settings};
    ///
    /// /// A stand-in loader: `x.btfont` is one 2 x 1 glyph, its picture PICO-8's red and blue.
    /// struct Files;
    /// impl ImageLoader for Files {
    ///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
    ///         self.decode(path, &[])
    ///     }
    ///     fn decode(&self, _name: &str, _bytes: &[u8]) -> Result<RgbaImage, AssetError> {
    ///         let pixels = vec![0xff, 0x00, 0x4d, 255, 0x29, 0xad, 0xff, 255];
    ///         Ok(RgbaImage { width: 2, height: 1, pixels })
    ///     }
    ///     fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
    ///         match path {
    ///             "x.btfont" => Ok(br#"{"texture": "x.png", "glyphs": {"X":
    ///                 {"x": 0, "y": 0, "w": 2, "h": 1, "ox": 0, "oy": 0, "adv": 3}}}"#.to_vec()),
    ///             "x.png" => Ok(b"PNG".to_vec()),
    ///             _ => Err(AssetError::new(path, AssetErrorKind::NotFound)),
    ///         }
    ///     }
    /// }
    ///
    /// let mut con = Console::new(&Settings::default().display(2, 1), 0);
    /// con.set_image_loader(Box::new(Files));
    /// let font = con.update_context(0).load_font_matched("x.btfont", 1..=15, ColorMatch::Exact)?;
    /// assert!(font.is_colored());
    /// con.render_context(0, 0.0).print_font(&font, 0, 0, "X", 7);
    /// assert_eq!(con.framebuffer().pixels(), [8, 12], "red and blue: 7 is not used");
    ///
    /// let err = con.update_context(0).load_font_matched("x.btfont", 1..=7, ColorMatch::Exact);
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "x.btfont -> x.png: the colour #ff004d at pixel (0, 0) is in none of palette slots 1 to 7"
    /// );
    /// # Ok::<(), bt::FontError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Update::load_font`], and: a BDF or sheet font (they have no colours to match),
    /// `slots` holding no slot of the palette, and, matching exactly, a colour in none of the
    /// slots (naming the colour and the pixel).
    pub fn load_font_matched(
        &self,
        path: &str,
        slots: RangeInclusive<u8>,
        matching: ColorMatch,
    ) -> Result<Font, FontError> {
        self.load_font_as(path, Some((slots, matching)))
    }

    /// [`Update::load_font`], with the colour matching [`Update::load_font_matched`] asks for.
    fn load_font_as(&self, path: &str, matched: Option<Matching>) -> Result<Font, FontError> {
        let loader = self.font_loader(path)?;
        let bytes = loader
            .read_limited(path, MAX_DATA_FILE)
            .map_err(|e| e.reading("font"))?;
        let not_btfont = |kind: &str| {
            line_error(
                path,
                1,
                "file",
                format!("a {kind} has no colours to match: load it with load_font"),
            )
        };
        if looks_like_bdf(&bytes) {
            if matched.is_some() {
                return Err(not_btfont("BDF font"));
            }
            return Font::from_bdf(path, &bytes);
        }
        let is_btfont = path
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("btfont"));
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            AssetError::new(
                path,
                AssetErrorKind::NotText(format!("invalid byte at offset {}", e.valid_up_to())),
            )
        })?;
        if is_btfont || btfont::looks_like_json(&bytes) {
            return self.btfont(path, text, matched);
        }
        if matched.is_some() {
            return Err(not_btfont(
                "sheet font (its picture's colours are not read)",
            ));
        }
        let spec = sheet::parse(path, text)?;
        let image = loader.load(&beside(path, spec.image())).map_err(|e| {
            AssetError::new(format!("{path} -> {}", spec.image()), e.kind).reading("font")
        })?;
        spec.build(path, image.width, image.height, &image.pixels)
    }

    /// A `.btfont` font from its JSON `text`, its picture read from beside it or from its
    /// data URI.
    fn btfont(&self, path: &str, text: &str, matched: Option<Matching>) -> Result<Font, FontError> {
        let loader = self.font_loader(path)?;
        let spec = btfont::parse(path, text)?;
        let (name, bytes) = match spec.texture(path)? {
            Texture::File(file) => {
                let name = format!("{path} -> {file}");
                let bytes = loader
                    .read_limited(&beside(path, file), MAX_DATA_FILE)
                    .map_err(|e| AssetError::new(name.clone(), e.kind).reading("font"))?;
                (name, bytes)
            }
            Texture::Embedded(bytes) => (format!("{path} -> texture"), bytes),
        };
        self.btfont_picture(path, spec, &name, &bytes, matched)
    }

    /// The `.btfont` font `spec` with its picture, the PNG `bytes` (named `name` in errors):
    /// indexed, its numbers kept; else RGBA, its colours matched to the palette when they are
    /// several (or when `matched` asks); else one colour.
    fn btfont_picture(
        &self,
        path: &str,
        spec: btfont::BtfontSpec,
        name: &str,
        bytes: &[u8],
        matched: Option<Matching>,
    ) -> Result<Font, FontError> {
        let loader = self.font_loader(path)?;
        let palette = &self.con.palette;
        if matched.is_none() {
            match loader.decode_indices(name, bytes) {
                Ok(image) => {
                    let slots = palette.len();
                    if let Some(&past) = image.pixels.iter().find(|&&i| usize::from(i) >= slots) {
                        return Err(AssetError::new(
                            name,
                            AssetErrorKind::ColorNumber {
                                number: past,
                                slots,
                            },
                        )
                        .into());
                    }
                    return spec.build(
                        path,
                        Picture::Indexed(image.width, image.height, &image.pixels),
                    );
                }
                Err(e)
                    if matches!(
                        e.kind,
                        AssetErrorKind::NotIndexed(_) | AssetErrorKind::NoLoader
                    ) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let image = loader.decode(name, bytes)?;
        let (slots, matching) = match matched {
            Some(m) => m,
            None if spec.has_several_colors(image.width, image.height, &image.pixels) => {
                (AUTO_SLOTS, ColorMatch::Nearest)
            }
            None => {
                return spec.build(
                    path,
                    Picture::Rgba(image.width, image.height, &image.pixels),
                )
            }
        };
        let sheet = SpriteSheet::from_rgba_matched(
            name,
            image.width,
            image.height,
            &image.pixels,
            palette,
            slots,
            matching,
        )?;
        spec.build(
            path,
            Picture::Matched(image.width, image.height, sheet.pixels()),
        )
    }

    /// Like [`Update::load_font`] for a font already in memory, such as one built into the
    /// cart with `include_bytes!`; `name` is used in errors. A BDF font, or a `.btfont` font
    /// (told by `name`'s extension or a first character `{`) whose picture is in it as a
    /// `data:image/png;base64,` URI, coloured as [`Update::load_font`] says. A sheet font in
    /// memory needs its picture too: see [`Update::decode_font_sheet`].
    ///
    /// # Errors
    /// As [`Update::load_font`], naming `name`; a sheet description is refused with a
    /// pointer to [`Update::decode_font_sheet`], and a `.btfont` font naming a picture file
    /// with a pointer to [`Update::load_font`].
    pub fn decode_font(&self, name: &str, bytes: &[u8]) -> Result<Font, FontError> {
        if looks_like_bdf(bytes) {
            return Font::from_bdf(name, bytes);
        }
        if sheet::is_description(bytes) {
            return Err(line_error(
                name,
                1,
                "header",
                "a sheet font description: decode it with decode_font_sheet, which takes its \
                 picture too"
                    .into(),
            ));
        }
        let is_btfont = name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("btfont"));
        if !is_btfont && !btfont::looks_like_json(bytes) {
            return Font::from_bdf(name, bytes);
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            AssetError::new(
                name,
                AssetErrorKind::NotText(format!("invalid byte at offset {}", e.valid_up_to())),
            )
        })?;
        let spec = btfont::parse(name, text)?;
        let png = match spec.texture(name)? {
            Texture::Embedded(png) => Ok(png),
            Texture::File(file) => Err(format!(
                "{} names a file, which a font in memory cannot read: embed the picture as a \
                 data:image/png;base64, URI, or load the font with load_font",
                quoted(file)
            )),
        };
        let png = png.map_err(|m| line_error(name, spec.texture_line(), "texture", m))?;
        self.btfont_picture(name, spec, &format!("{name} -> texture"), &png, None)
    }

    /// Makes a sheet font from its `bt-font 1` description and the bytes of its picture (a
    /// PNG), both in memory, such as files built into the cart with `include_str!` and
    /// `include_bytes!`; `name` is used in errors. The description's `image` line is not
    /// read: `image` is the picture.
    ///
    /// # Errors
    /// As [`Update::load_font`], naming `name`: a picture that is not a PNG, a line of the
    /// description that breaks the format.
    pub fn decode_font_sheet(
        &self,
        name: &str,
        description: &str,
        image: &[u8],
    ) -> Result<Font, FontError> {
        let spec = sheet::parse(name, description)?;
        let image = self.font_loader(name)?.decode(name, image)?;
        spec.build(name, image.width, image.height, &image.pixels)
    }

    fn font_loader(&self, name: &str) -> Result<&dyn crate::host::ImageLoader, FontError> {
        Ok(self
            .con
            .loader
            .0
            .as_deref()
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bdf_files_are_told_by_their_first_word() {
        assert!(looks_like_bdf(b"STARTFONT 2.1\n"));
        assert!(looks_like_bdf(b"\xef\xbb\xbf\n  STARTFONT 2.1\n"));
        assert!(!looks_like_bdf(b"bt-font 1\n"));
        assert!(!looks_like_bdf(b""));
    }
}
