//! Images into sprite sheets: what carts call to load a picture, its colours registered into
//! the live palette.

use super::{AssetError, AssetErrorKind, ImageLoader, IndexedImage};
use std::ops::RangeInclusive;

use crate::draw::SpriteSheet;
use crate::{ColorMatch, Update};

impl Update<'_> {
    /// Loads the image file at `path` as a sprite sheet (a relative path is looked up in the
    /// cart's asset folder, `assets/` beside its `cart.toml`, or in the working directory when
    /// the cart has none), registering its colours into the live palette from `start_slot` on (see
    /// [`SpriteSheet::from_rgba`]).
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing file, not a PNG, larger than 8192 px a side,
    /// more colours than free slots, or a host without an image loader.
    pub fn load_image(&mut self, path: &str, start_slot: u8) -> Result<SpriteSheet, AssetError> {
        let image = self
            .image_loader(path)?
            .load(path)
            .map_err(|e| e.reading("image"))?;
        let con = &mut *self.con;
        SpriteSheet::from_rgba(
            path,
            image.width,
            image.height,
            &image.pixels,
            &mut con.palette,
            start_slot,
        )
    }

    /// Like [`Update::load_image`] for an image already in memory, such as one built into the
    /// cart with `include_bytes!`. `name` is used in errors.
    ///
    /// # Errors
    /// As [`Update::load_image`], naming `name`.
    pub fn decode_image(
        &mut self,
        name: &str,
        bytes: &[u8],
        start_slot: u8,
    ) -> Result<SpriteSheet, AssetError> {
        let image = self.image_loader(name)?.decode(name, bytes)?;
        let con = &mut *self.con;
        SpriteSheet::from_rgba(
            name,
            image.width,
            image.height,
            &image.pixels,
            &mut con.palette,
            start_slot,
        )
    }

    /// Loads the image file at `path` as [`Update::load_image`] does, but maps its colours
    /// onto slots the live palette already has, among `slots`, leaving the palette as it is
    /// (see [`SpriteSheet::from_rgba_matched`]): art drawn in the PICO-8 colours lands on
    /// slots 0 to 15 of the default palette.
    ///
    /// ```
    /// use bt::host::{Console, ImageLoader, RgbaImage};
    /// use bt::{AssetError, ColorMatch, Palette, Settings};
    ///
    /// /// A stand-in that "decodes" any file into PICO-8's red, then its peach.
    /// struct RedAndPeach;
    /// impl ImageLoader for RedAndPeach {
    ///     fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
    ///         self.decode(path, &[])
    ///     }
    ///     fn decode(&self, _name: &str, _bytes: &[u8]) -> Result<RgbaImage, AssetError> {
    ///         let pixels = vec![0xff, 0x00, 0x4d, 255, 0xff, 0xcc, 0xaa, 255];
    ///         Ok(RgbaImage { width: 2, height: 1, pixels })
    ///     }
    /// }
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// con.set_image_loader(Box::new(RedAndPeach));
    /// let mut ctx = con.update_context(0);
    /// let sheet = ctx.load_image_matched("hero.png", 0..=15, ColorMatch::Exact)?;
    /// assert_eq!(sheet.pixels(), [8, 15]);
    /// assert_eq!(*ctx.palette(), Palette::pico8(), "no slot taken");
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: as [`Update::load_image`], and, matching exactly, a
    /// colour none of the slots holds (naming the colour and the pixel).
    pub fn load_image_matched(
        &mut self,
        path: &str,
        slots: RangeInclusive<u8>,
        matching: ColorMatch,
    ) -> Result<SpriteSheet, AssetError> {
        let image = self
            .image_loader(path)?
            .load(path)
            .map_err(|e| e.reading("image"))?;
        SpriteSheet::from_rgba_matched(
            path,
            image.width,
            image.height,
            &image.pixels,
            &self.con.palette,
            slots,
            matching,
        )
    }

    /// Like [`Update::load_image_matched`] for an image already in memory; `name` is used in
    /// errors.
    ///
    /// # Errors
    /// As [`Update::load_image_matched`], naming `name`.
    pub fn decode_image_matched(
        &mut self,
        name: &str,
        bytes: &[u8],
        slots: RangeInclusive<u8>,
        matching: ColorMatch,
    ) -> Result<SpriteSheet, AssetError> {
        let image = self.image_loader(name)?.decode(name, bytes)?;
        SpriteSheet::from_rgba_matched(
            name,
            image.width,
            image.height,
            &image.pixels,
            &self.con.palette,
            slots,
            matching,
        )
    }

    /// Loads the indexed PNG at `path` as a sprite sheet whose pixels keep the PNG's own
    /// palette numbers: a pixel stored as colour 8 is slot 8, whatever colour the PNG's palette
    /// gives it, and the live palette is not touched. Use it for pictures drawn in the cart's
    /// palette (a PICO-8 sheet from `bt import`, Aseprite's indexed mode), so `set_remap(8,
    /// 12)`, `ColorKey::single(8)` and palette effects target the numbers the artist drew
    /// with; use [`Update::load_image`] for a picture in colours of its own, which it gives
    /// free slots. Number 0 is see-through, as for every sheet.
    ///
    /// # Errors
    /// An [`AssetError`] naming `path`: missing file, not a PNG, a PNG that is not indexed
    /// (RGB or RGBA), a number past the live palette's end, larger than 8192 px a side.
    pub fn load_image_indexed(&mut self, path: &str) -> Result<SpriteSheet, AssetError> {
        let image = self
            .image_loader(path)?
            .load_indices(path)
            .map_err(|e| e.reading("image"))?;
        self.indexed_sheet(path, image)
    }

    /// Like [`Update::load_image_indexed`] for an indexed PNG already in memory; `name` is used
    /// in errors.
    ///
    /// # Errors
    /// As [`Update::load_image_indexed`], naming `name`.
    pub fn decode_image_indexed(
        &mut self,
        name: &str,
        bytes: &[u8],
    ) -> Result<SpriteSheet, AssetError> {
        let image = self.image_loader(name)?.decode_indices(name, bytes)?;
        self.indexed_sheet(name, image)
    }

    fn indexed_sheet(&self, name: &str, image: IndexedImage) -> Result<SpriteSheet, AssetError> {
        let size = self.con.palette.len();
        if let Some(&past) = image.pixels.iter().find(|&&i| usize::from(i) >= size) {
            return Err(AssetError::new(
                name,
                AssetErrorKind::ColorNumber {
                    number: past,
                    slots: size,
                },
            ));
        }
        SpriteSheet::from_indexed(image.width, image.height, image.pixels)
            .map_err(|e| AssetError::new(name, e.kind))
    }

    /// The host's image loader, or an error naming `name` when it gave none.
    fn image_loader(&self, name: &str) -> Result<&dyn ImageLoader, AssetError> {
        self.con
            .loader
            .0
            .as_deref()
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))
    }
}
