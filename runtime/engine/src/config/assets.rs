//! The asset seam: where a cart's files come from, and what reads them.
//!
//! A [`FileSource`] says only where files come from: [`AssetFolder`] (a cart's asset folder on
//! a disk, and nothing outside it), [`Paths`] (paths as given, for a cart with no asset folder
//! and for tools), and a web page's pack ([`super::asset_pack::Packed`]). The decoders are
//! plain functions of bytes: [`decode_image`] and [`decode_png_indices`] (PNG),
//! [`super::clip::decode_clip`] (WAV and Ogg Vorbis), and the Tiled reader's
//! [`decode_map`]. [`Assets`] joins a source to the decoders for the cart API, once: every
//! `load_x` is `decode_x` of what the source read, so a new kind of asset is one decoder and
//! one line here, on every platform at once.
//!
//! # Which crate parses which format
//!
//! A format BT defines, or one plain Rust reads in a few hundred lines with no other crate, is
//! parsed by the cart API (`bt`), so a cart can decode bytes it carries with no runtime at
//! all: the sound file (`bt-sound`), fonts (BDF, sheet-font descriptions, `btfont`) and
//! palette files (JSON and hex lists). A format that needs a codec crate (PNG, WAV, Ogg
//! Vorbis) or other files beside it (a Tiled map and its tileset files) is parsed here, in
//! `bt-engine`, and reaches a cart through the cart API's `ImageLoader`, which [`Assets`] is.

use bt::host::{ImageLoader, IndexedImage, RgbaImage};
use bt::sound::DecodedClip;
use bt::{AssetError, AssetErrorKind, Tilemap};

use super::data_file::{read_asset_file, resolve_in};
pub use super::png_loader::{decode_image, decode_png_indices, MAX_ASSET_BYTES};
#[cfg(feature = "tiled")]
pub use super::tiled::{decode_map, MAX_MAP_FILE};

/// Where a cart's files come from.
pub trait FileSource: std::fmt::Debug + Send {
    /// The file at `path` as it is, refusing one longer than `limit` bytes, and what is not a
    /// regular file (a FIFO, a device: see [`super::read`]). Errors name `path` as the cart
    /// gave it.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing, unreadable, refused, or too large.
    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError>;

    /// The Tiled map at `path`, its tileset files read beside it through this source. A
    /// source on a disk narrows where a tileset file may be (inside the asset folder, or the
    /// map's own folder).
    ///
    /// # Errors
    /// As [`FileSource::read`], and a map or tileset that breaks its format
    /// ([`AssetErrorKind::BadMap`]).
    fn load_map(&self, path: &str) -> Result<Tilemap, AssetError> {
        map_through(self, path)
    }
}

/// A map read through `source`, a tileset file it names looked up in the map's folder.
#[cfg(feature = "tiled")]
fn map_through<S: FileSource + ?Sized>(source: &S, path: &str) -> Result<Tilemap, AssetError> {
    let bytes = source.read(path, MAX_MAP_FILE)?;
    let folder = match path.rfind(['/', '\\']) {
        Some(at) => &path[..=at],
        None => "",
    };
    let tileset = |name: &str| -> Result<(String, String), AssetError> {
        let shown = format!("{path} -> {name}");
        let bytes = source
            .read(&format!("{folder}{name}"), MAX_MAP_FILE)
            .map_err(|e| AssetError::new(shown.clone(), e.kind))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            AssetError::new(
                shown.clone(),
                AssetErrorKind::NotText(format!("invalid byte at offset {at}")),
            )
        })?;
        Ok((shown, text))
    };
    super::tiled::decode_map_with(path, &bytes, &tileset)
}

/// Without the Tiled reader a map is read (so a missing file is said as missing) and refused.
#[cfg(not(feature = "tiled"))]
fn map_through<S: FileSource + ?Sized>(source: &S, path: &str) -> Result<Tilemap, AssetError> {
    source.read(path, MAX_ASSET_BYTES)?;
    Err(no_map_reader(path))
}

/// Why a map cannot be read where the Tiled reader was left out.
#[cfg(not(feature = "tiled"))]
fn no_map_reader(name: &str) -> AssetError {
    AssetError::new(
        name,
        AssetErrorKind::BadMap(
            "this page was made without the Tiled map reader: bt web adds it when the \
             cart's asset folder holds a .tmx or .tmj file or its code calls load_map or \
             decode_map"
                .into(),
        ),
    )
}

/// Without the Tiled reader there is no map to decode.
#[cfg(not(feature = "tiled"))]
pub fn decode_map(name: &str, _bytes: &[u8]) -> Result<Tilemap, AssetError> {
    Err(AssetError::new(
        name,
        AssetErrorKind::BadMap(
            "Tiled maps are read only where BT is built with its `tiled` feature".into(),
        ),
    ))
}

/// Paths as they are given (relative ones from the working directory): a cart with no asset
/// folder, and tools. A map's tileset file must lie in the map's own folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paths;

impl FileSource for Paths {
    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError> {
        read_asset_file(path, std::path::Path::new(path), limit)
    }

    #[cfg(feature = "tiled")]
    fn load_map(&self, path: &str) -> Result<Tilemap, AssetError> {
        super::tiled::load_map_file(path, std::path::Path::new(path))
    }
}

/// A cart's asset folder, and only it: an absolute path, `..` that climb out of the folder, or
/// a link to something outside it is refused with the path (see [`resolve_in`]), and so is a
/// map's tileset file outside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetFolder {
    folder: std::path::PathBuf,
}

impl AssetFolder {
    /// The files inside `folder`.
    pub fn new(folder: impl Into<std::path::PathBuf>) -> AssetFolder {
        AssetFolder {
            folder: folder.into(),
        }
    }
}

impl Assets<AssetFolder> {
    /// A cart's assets from its asset folder `folder`, and nothing outside it.
    pub fn folder(folder: impl Into<std::path::PathBuf>) -> Assets<AssetFolder> {
        Assets(AssetFolder::new(folder))
    }
}

impl FileSource for AssetFolder {
    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError> {
        read_asset_file(path, &resolve_in(&self.folder, path)?, limit)
    }

    #[cfg(feature = "tiled")]
    fn load_map(&self, path: &str) -> Result<Tilemap, AssetError> {
        super::tiled::load_map_in(&self.folder, path)
    }
}

/// A [`FileSource`] with the decoders: what the cart API's `ImageLoader` asks, each `load_x`
/// the decoder of what the source read.
#[derive(Debug, Clone, Default)]
pub struct Assets<S>(pub S);

impl<S: FileSource> ImageLoader for Assets<S> {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        decode_image(path, &self.0.read(path, MAX_ASSET_BYTES)?)
    }

    fn decode(&self, name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError> {
        decode_image(name, bytes)
    }

    fn decode_indices(&self, name: &str, bytes: &[u8]) -> Result<IndexedImage, AssetError> {
        decode_png_indices(name, bytes)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
        self.0.read(path, MAX_ASSET_BYTES)
    }

    fn read_limited(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError> {
        self.0.read(path, limit)
    }

    fn decode_clip(&self, name: &str, bytes: &[u8]) -> Result<DecodedClip, AssetError> {
        super::clip::decode_clip(name, bytes)
    }

    fn load_map(&self, path: &str) -> Result<Tilemap, AssetError> {
        self.0.load_map(path)
    }

    fn decode_map(&self, name: &str, bytes: &[u8]) -> Result<Tilemap, AssetError> {
        decode_map(name, bytes)
    }
}
