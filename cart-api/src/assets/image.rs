//! Images into sprite sheets: what carts call to load a picture, its colours registered into
//! the live palette.

use super::{AssetError, AssetErrorKind};
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
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .load(path)?;
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
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?
            .decode(name, bytes)?;
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
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NoLoader))?
            .load(path)?;
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
        let loader = self.con.loader.0.as_ref();
        let image = loader
            .ok_or_else(|| AssetError::new(name, AssetErrorKind::NoLoader))?
            .decode(name, bytes)?;
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
}
