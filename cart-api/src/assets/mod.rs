//! Loading what a cart reads from files: images into sprite sheets, data files and maps. The
//! host does the reading and decoding through the [`ImageLoader`] it installs, so this crate
//! knows no file format; what goes wrong is an [`AssetError`] naming the file.

mod data;
mod image;

pub use data::MAX_DATA_FILE;

use thiserror::Error;

use crate::draw::MAX_SHEET_SIDE;
use crate::settings::MAX_DISPLAY_PIXELS;

/// What went wrong loading an asset. Always shown with the file (or name) it came from; a file
/// that could not be read is said as every BT loader says it, `<what> PATH: could not read it:
/// <why>`, with `what` the kind of file the cart asked for (`image`, `sound file`, `data file`,
/// `map`, `font`).
///
/// ```
/// use bt::{AssetError, AssetErrorKind};
///
/// let e = AssetError::new("music.txt", AssetErrorKind::Read("a FIFO, not a regular file".into()));
/// assert_eq!(e.to_string(), "music.txt: could not read it: a FIFO, not a regular file");
/// assert_eq!(
///     e.reading("sound file").to_string(),
///     "sound file music.txt: could not read it: a FIFO, not a regular file"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}{name}: {kind}", of_what(.what))]
pub struct AssetError {
    /// What the file is to the cart (`"image"`, `"sound file"`) when the file could not be
    /// read, else empty.
    pub what: &'static str,
    /// The file path or name of the image.
    pub name: String,
    /// The problem.
    pub kind: AssetErrorKind,
}

/// `what` and a space, or nothing.
fn of_what(what: &str) -> String {
    if what.is_empty() {
        String::new()
    } else {
        format!("{what} ")
    }
}

impl AssetError {
    /// An error about the image called `name`.
    pub fn new(name: impl Into<String>, kind: AssetErrorKind) -> AssetError {
        AssetError {
            what: "",
            name: name.into(),
            kind,
        }
    }

    /// The error saying what the file is (`what`), when the file could not be read (a read
    /// error, not a regular file, over its limit); any other error as it is.
    #[must_use]
    pub fn reading(self, what: &'static str) -> AssetError {
        match self.kind {
            AssetErrorKind::Read(_)
            | AssetErrorKind::NotAFile
            | AssetErrorKind::FileTooLarge { .. } => AssetError { what, ..self },
            _ => self,
        }
    }
}

/// The problem behind an [`AssetError`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AssetErrorKind {
    /// The file does not exist.
    #[error("file not found")]
    NotFound,
    /// The file exists but could not be read (not a regular file, a link leading out of the
    /// asset folder, refused by the system); the string says why.
    #[error("could not read it: {0}")]
    Read(String),
    /// The bytes are not an image the host can decode.
    #[error("not a PNG image: {0}")]
    NotPng(String),
    /// A side is 0 or above [`MAX_SHEET_SIDE`], or the area is above the display limit.
    #[error(
        "image is {width}x{height}; each side must be between 1 and {MAX_SHEET_SIDE} px and the \
         area at most {MAX_DISPLAY_PIXELS} px"
    )]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The pixel buffer does not match the size given.
    #[error("expected {expected} values for the size given, got {got}")]
    PixelCount {
        /// Values the size calls for.
        expected: u64,
        /// Values supplied.
        got: u64,
    },
    /// The start slot is 0 (the transparent slot) or past the end of the palette.
    #[error("start slot {slot} must be between 1 and {last} for a palette of {size} colours")]
    StartSlot {
        /// The slot asked for.
        slot: u8,
        /// The last usable slot.
        last: usize,
        /// The palette's size.
        size: usize,
    },
    /// The image has more opaque colours than the palette has slots from the start slot on.
    #[error(
        "{colors} opaque colours do not fit in the {free} palette slots from slot {start_slot}"
    )]
    TooManyColors {
        /// Distinct opaque colours in the image.
        colors: usize,
        /// Slots available from the start slot to the end of the palette.
        free: usize,
        /// The start slot.
        start_slot: u8,
    },
    /// The slots to match an image's colours onto hold no slot of the palette.
    #[error("palette slots {first} to {last} hold no slot of a palette of {size} colours")]
    SlotRange {
        /// The first slot asked for.
        first: u8,
        /// The last slot asked for.
        last: u8,
        /// The palette's size.
        size: usize,
    },
    /// Matching colours exactly, a pixel's colour is in none of the slots.
    #[error(
        "the colour {color} at pixel ({x}, {y}) is in none of palette slots {first} to {last}"
    )]
    NoSlotForColor {
        /// The colour, as `#rrggbb`.
        color: String,
        /// The pixel's column.
        x: u32,
        /// The pixel's row.
        y: u32,
        /// The first slot searched.
        first: u8,
        /// The last slot searched.
        last: u8,
    },
    /// The host gave the console no image loader.
    #[error("this host cannot load images")]
    NoLoader,
    /// A data or map file longer than the limit for its kind.
    #[error("could not read it: {bytes} bytes is over the limit of {limit} bytes")]
    FileTooLarge {
        /// The file's length.
        bytes: u64,
        /// The most the call reads.
        limit: u64,
    },
    /// The path names a folder or something else that is not a regular file.
    #[error("could not read it: not a regular file")]
    NotAFile,
    /// A text file that is not UTF-8.
    #[error("not UTF-8 text: {0}")]
    NotText(String),
    /// A map file that breaks its format: where (line, field) and what, as one line.
    #[error("{0}")]
    BadMap(String),
    /// An image loaded with its own colour numbers uses a number the palette has no slot for.
    #[error(
        "colour number {number} is past the palette's {slots} slots (load it with load_image, \
         or give the cart a larger palette)"
    )]
    ColorNumber {
        /// The first such number in the image.
        number: u8,
        /// The palette's size.
        slots: usize,
    },
    /// A sound clip the host cannot decode: what is wrong, as one line.
    #[error("not a sound clip BT can read (WAV or Ogg Vorbis): {0}")]
    BadClip(String),
    /// A clip whose decoded sound is longer than [`MAX_CLIP_FRAMES`](crate::sound::MAX_CLIP_FRAMES).
    #[error("the clip is {frames} frames long; the limit is {limit} (a minute at 48,000 Hz)")]
    ClipTooLong {
        /// Frames in the file (or read before giving up).
        frames: u64,
        /// The most a clip holds.
        limit: u64,
    },
    /// An image that must store colour numbers (an indexed PNG) stores colours instead.
    #[error("not an indexed PNG: it stores {0}; load it with load_image")]
    NotIndexed(String),
}

/// Decoded image pixels, four bytes (R, G, B, A) per pixel, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

/// A picture as palette numbers, one byte a pixel, row by row: what an indexed PNG holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` palette numbers.
    pub pixels: Vec<u8>,
}

/// Turns image files into RGBA pixels. The host (the runtime) provides one to the console;
/// carts reach it through [`crate::Update::load_image`] and [`crate::Update::decode_image`].
pub trait ImageLoader {
    /// Reads and decodes the image file at `path`.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing file, unreadable file, not an image, too large.
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError>;

    /// Decodes an image already in memory (for example from `include_bytes!`); `name` is used in
    /// errors.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`.
    fn decode(&self, name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError>;

    /// Decodes an indexed PNG (one that stores a palette number per pixel, as PICO-8's export,
    /// Aseprite's indexed mode and `bt import` write) into those numbers as they are, for
    /// [`crate::Update::decode_image_indexed`]; `name` is used in errors. The default has no
    /// decoder.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`: not a PNG, not an indexed one, too large.
    fn decode_indices(&self, name: &str, bytes: &[u8]) -> Result<IndexedImage, AssetError> {
        let _ = bytes;
        Err(AssetError::new(name, AssetErrorKind::NoLoader))
    }

    /// Reads and decodes the indexed PNG at `path` as [`ImageLoader::decode_indices`] does.
    ///
    /// # Errors
    /// As [`ImageLoader::decode_indices`], and a file that cannot be read.
    fn load_indices(&self, path: &str) -> Result<IndexedImage, AssetError> {
        let bytes = self.read(path)?;
        self.decode_indices(path, &bytes)
    }

    /// Reads the file at `path` as it is, for assets that are not images (sound files). The
    /// default has no files to read.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing or unreadable file, or no files at all.
    fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
        Err(AssetError::new(path, AssetErrorKind::NoLoader))
    }

    /// Reads the file at `path` as it is, refusing one longer than `limit` bytes or one that is
    /// not a regular file. The default reads with [`ImageLoader::read`], then checks the length;
    /// a host with files should refuse before reading.
    ///
    /// # Errors
    /// As [`ImageLoader::read`], and [`AssetErrorKind::FileTooLarge`].
    fn read_limited(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError> {
        let bytes = self.read(path)?;
        if bytes.len() as u64 > limit {
            return Err(AssetError::new(
                path,
                AssetErrorKind::FileTooLarge {
                    bytes: bytes.len() as u64,
                    limit,
                },
            ));
        }
        Ok(bytes)
    }

    /// Decodes a sound clip already in memory (a WAV or Ogg Vorbis file) into 16-bit frames for
    /// [`crate::Update::load_clip`] and [`crate::Update::decode_clip`]; `name` is used in
    /// errors. The default has no decoder.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`: not a clip the host reads
    /// ([`AssetErrorKind::BadClip`]), longer than the limit
    /// ([`AssetErrorKind::ClipTooLong`]), or no decoder.
    fn decode_clip(
        &self,
        name: &str,
        bytes: &[u8],
    ) -> Result<crate::sound::DecodedClip, AssetError> {
        let _ = bytes;
        Err(AssetError::new(name, AssetErrorKind::NoLoader))
    }

    /// Reads the map file at `path` (the runtime reads maps made in Tiled). The default has no
    /// map reader.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing or unreadable file, or a map that breaks its
    /// format ([`AssetErrorKind::BadMap`], naming the line or field and the value).
    fn load_map(&self, path: &str) -> Result<crate::Tilemap, AssetError> {
        Err(AssetError::new(path, AssetErrorKind::NoLoader))
    }

    /// Reads a map already in memory (for example from `include_bytes!`), in the same format
    /// as [`ImageLoader::load_map`]; `name` is used in errors. The default has no map reader.
    ///
    /// # Errors
    /// An [`AssetError`] naming `name`: a map that breaks its format, or no map reader.
    fn decode_map(&self, name: &str, bytes: &[u8]) -> Result<crate::Tilemap, AssetError> {
        let _ = bytes;
        Err(AssetError::new(name, AssetErrorKind::NoLoader))
    }
}
