//! What carts call to load fonts, natively from the cart's asset folder, in a web page from
//! its asset pack (the host's loader hides which), or from bytes built into the cart; and
//! [`FontError`].

use thiserror::Error;

use super::btfont::{self, Picture, Texture};
use super::{sheet, Font};
use crate::assets::{AssetError, AssetErrorKind, MAX_DATA_FILE};
use crate::quote::excerpt;
use crate::Update;

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
/// use bt::Settings;
///
/// let bdf = "STARTFONT 2.1\nFONTBOUNDINGBOX 3 3 0 0\nSTARTPROPERTIES 2\nFONT_ASCENT 3\n\
///            FONT_DESCENT 0\nENDPROPERTIES\nCHARS 1\nSTARTCHAR plus\nENCODING 43\n\
///            DWIDTH 4 0\nBBX 3 3 0 0\nBITMAP\n40\nE0\n40\nENDCHAR\nENDFONT\n";
/// let mut con = Console::new(&Settings::default(), 0);
/// let ctx = con.update_context(0);
/// let font = ctx.decode_font("plus.bdf", bdf.as_bytes())?;
/// assert_eq!(font.measure("++"), (8, 3));
/// let err = ctx.decode_font("bad.bdf", b"STARTFONT 2.1\nCHARS x\n").unwrap_err();
/// assert_eq!(err.to_string(), "bad.bdf:2: CHARS: \"x\" is not a whole number");
/// # Ok::<(), bt::FontError>(())
/// ```
impl Update<'_> {
    /// Loads the font file at `path` (a relative path is looked up in the cart's asset folder,
    /// as for [`Update::load_image`]): a BDF font, a sheet font's `bt-font 1` description,
    /// whose picture is read from beside it, or a BLIT386 `.btfont` file, whose picture is
    /// beside it or in it as a data URI. A `.btfont` file is told by its extension or its
    /// first character, `{`; the others by the first line. An indexed picture of several
    /// colours makes a `.btfont` font coloured ([`Font::is_colored`]). Load in `init`: a font
    /// is made once and drawn with every frame.
    ///
    /// # Errors
    /// [`FontError`] naming `path`: a missing or unreadable file (or picture, named as
    /// `font.txt -> font.png`), a file longer than 4 MiB, one that is no kind of font, a line
    /// that breaks its format (naming the line and the field), a coloured picture using a
    /// colour number past the palette's end.
    pub fn load_font(&self, path: &str) -> Result<Font, FontError> {
        let loader = self.font_loader(path)?;
        let bytes = loader
            .read_limited(path, MAX_DATA_FILE)
            .map_err(|e| e.reading("font"))?;
        if looks_like_bdf(&bytes) {
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
            return self.btfont(path, text);
        }
        let spec = sheet::parse(path, text)?;
        let image = loader.load(&beside(path, spec.image())).map_err(|e| {
            AssetError::new(format!("{path} -> {}", spec.image()), e.kind).reading("font")
        })?;
        spec.build(path, image.width, image.height, &image.pixels)
    }

    /// A `.btfont` font from its JSON `text`, its picture read from beside it or from its
    /// data URI. An indexed picture keeps its colour numbers; any other is read as RGBA.
    fn btfont(&self, path: &str, text: &str) -> Result<Font, FontError> {
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
        match loader.decode_indices(&name, &bytes) {
            Ok(image) => {
                let slots = self.con.palette.len();
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
                spec.build(
                    path,
                    Picture::Indexed(image.width, image.height, &image.pixels),
                )
            }
            Err(e)
                if matches!(
                    e.kind,
                    AssetErrorKind::NotIndexed(_) | AssetErrorKind::NoLoader
                ) =>
            {
                let image = loader.decode(&name, &bytes)?;
                spec.build(
                    path,
                    Picture::Rgba(image.width, image.height, &image.pixels),
                )
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Like [`Update::load_font`] for a BDF font already in memory, such as one built into the
    /// cart with `include_bytes!`; `name` is used in errors. A sheet font in memory needs its
    /// picture too: see [`Update::decode_sheet_font`].
    ///
    /// # Errors
    /// As [`Update::load_font`], naming `name`; a sheet description is refused with a
    /// pointer to [`Update::decode_sheet_font`].
    pub fn decode_font(&self, name: &str, bytes: &[u8]) -> Result<Font, FontError> {
        if !looks_like_bdf(bytes) && sheet::is_description(bytes) {
            return Err(line_error(
                name,
                1,
                "header",
                "a sheet font description: decode it with decode_sheet_font, which takes its \
                 picture too"
                    .into(),
            ));
        }
        Font::from_bdf(name, bytes)
    }

    /// Makes a sheet font from its `bt-font 1` description and the bytes of its picture (a
    /// PNG), both in memory, such as files built into the cart with `include_str!` and
    /// `include_bytes!`; `name` is used in errors. The description's `image` line is not
    /// read: `image` is the picture.
    ///
    /// # Errors
    /// As [`Update::load_font`], naming `name`: a picture that is not a PNG, a line of the
    /// description that breaks the format.
    pub fn decode_sheet_font(
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
