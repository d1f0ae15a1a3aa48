//! What carts call from `init` and `reload` to read their own files: data files (levels,
//! tables, dialogue) and maps, from the cart's asset folder, through the host's loader.

use crate::assets::{AssetError, AssetErrorKind};
use crate::{Tilemap, Update};

/// The longest data file [`Update::load_data`] reads: 4 MiB. Levels and tables are far
/// smaller; a file this long is a mistake (a video in the asset folder), refused before it is
/// read.
pub const MAX_DATA_FILE: u64 = 4 << 20;

/// Data files and maps.
///
/// A relative path is looked up in the cart's asset folder (`assets/` beside its `cart.toml`),
/// as for [`Update::load_image`]. Load in `init` and again in [`crate::Cart::reload`], so an
/// edited level shows while the game runs.
///
/// ```
/// use bt::host::{Console, ImageLoader, RgbaImage};
/// use bt::{AssetError, AssetErrorKind, Settings};
///
/// /// A stand-in for the runtime's loader with one file in it.
/// struct OneFile;
/// impl ImageLoader for OneFile {
///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(path, AssetErrorKind::NotFound))
///     }
///     fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
///         Err(AssetError::new(name, AssetErrorKind::NotFound))
///     }
///     fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
///         match path {
///             "levels.txt" => Ok(b"1 meadow 90\n2 caves 120\n".to_vec()),
///             _ => Err(AssetError::new(path, AssetErrorKind::NotFound)),
///         }
///     }
/// }
///
/// let mut con = Console::new(&Settings::default(), 0);
/// con.set_image_loader(Box::new(OneFile));
/// let ctx = con.update_context(0);
/// let text = ctx.load_data_text("levels.txt")?;
/// assert_eq!(text.lines().count(), 2);
/// assert_eq!(ctx.load_data("nope.bin").unwrap_err().to_string(), "nope.bin: file not found");
/// # Ok::<(), bt::AssetError>(())
/// ```
impl Update<'_> {
    /// Reads the file at `path` as bytes, at most [`MAX_DATA_FILE`] of them.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing or unreadable file, not a regular file, longer
    /// than [`MAX_DATA_FILE`], or a host without files.
    pub fn load_data(&self, path: &str) -> Result<Vec<u8>, AssetError> {
        self.con
            .loader
            .0
            .as_ref()
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .read_limited(path, MAX_DATA_FILE)
            .map_err(|e| e.reading("data file"))
    }

    /// Reads the file at `path` as UTF-8 text, at most [`MAX_DATA_FILE`] bytes.
    ///
    /// # Errors
    /// As [`Update::load_data`], and [`AssetErrorKind::NotText`] with where the first byte
    /// that is not UTF-8 is.
    pub fn load_data_text(&self, path: &str) -> Result<String, AssetError> {
        let bytes = self.load_data(path)?;
        String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            AssetError::new(
                path,
                AssetErrorKind::NotText(format!("invalid byte at offset {at}")),
            )
        })
    }

    /// Reads the map at `path`, a map saved from the Tiled editor (`.tmx` or `.tmj`) in the
    /// runtime (see `docs/sprites.md` for what of Tiled's format is read).
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing or unreadable file, a map that breaks the
    /// format (naming the line or field and the value), or a host without a map reader.
    pub fn load_map(&self, path: &str) -> Result<Tilemap, AssetError> {
        self.con
            .loader
            .0
            .as_ref()
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .load_map(path)
            .map_err(|e| e.reading("map"))
    }

    /// Like [`Update::load_map`] for a map already in memory, such as one built into the cart
    /// with `include_bytes!`; `name` is used in errors, and its extension (`.tmj` or `.tmx`)
    /// picks the form. Its tileset must be embedded in the map: there is no folder to read a
    /// tileset file from.
    ///
    /// # Errors
    /// As [`Update::load_map`], naming `name`.
    pub fn decode_map(&self, name: &str, bytes: &[u8]) -> Result<Tilemap, AssetError> {
        self.con
            .loader
            .0
            .as_ref()
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?
            .decode_map(name, bytes)
    }
}

#[cfg(test)]
mod tests {
    use crate::assets::{AssetError, AssetErrorKind};
    use crate::console::test_console;
    use crate::host::{ImageLoader, RgbaImage};

    struct Files;
    impl ImageLoader for Files {
        fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
            Err(AssetError::new(path, AssetErrorKind::NotFound))
        }
        fn decode(&self, name: &str, _: &[u8]) -> Result<RgbaImage, AssetError> {
            Err(AssetError::new(name, AssetErrorKind::NotFound))
        }
        fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
            match path {
                "big.bin" => Ok(vec![0; super::MAX_DATA_FILE as usize + 1]),
                "latin1.txt" => Ok(b"caf\xe9".to_vec()),
                _ => Err(AssetError::new(path, AssetErrorKind::NotFound)),
            }
        }
    }

    #[test]
    fn data_files_past_the_cap_or_not_text_are_named() {
        let mut con = test_console();
        assert_eq!(
            con.update_context(0)
                .load_data("x")
                .unwrap_err()
                .to_string(),
            "x: this host cannot load images"
        );
        con.set_image_loader(Box::new(Files));
        let ctx = con.update_context(0);
        assert_eq!(
            ctx.load_data("big.bin").unwrap_err().to_string(),
            "data file big.bin: could not read it: 4194305 bytes is over the limit of 4194304 bytes"
        );
        assert_eq!(
            ctx.load_data_text("latin1.txt").unwrap_err().to_string(),
            "latin1.txt: not UTF-8 text: invalid byte at offset 3"
        );
        assert_eq!(
            ctx.load_map("level.tmj").unwrap_err().to_string(),
            "level.tmj: this host cannot load images"
        );
    }

    #[test]
    fn a_map_in_memory_goes_to_the_hosts_map_reader() {
        let mut con = test_console();
        assert_eq!(
            con.update_context(0).decode_map("built-in.tmj", b"{}"),
            Err(AssetError::new("built-in.tmj", AssetErrorKind::NoLoader)),
            "a host without files has no map reader"
        );
        con.set_image_loader(Box::new(Files));
        assert_eq!(
            con.update_context(0).decode_map("built-in.tmj", b"{}"),
            Err(AssetError::new("built-in.tmj", AssetErrorKind::NoLoader)),
            "nor has a loader that does not read maps"
        );
    }
}
