//! Off-screen images: pictures a cart draws into with every drawing call and then draws from
//! like a sprite sheet (minimaps, cached backgrounds, trails).
//!
//! An [`Image`] is a [`SpriteSheet`] plus the drawing state of a framebuffer (clip, pen, the
//! sprite ink cache). While it is drawn on, its pixels move into that framebuffer and back
//! after, so nothing is copied and nothing allocated. The contexts lend it out:
//! `Update::draw_on` (the image is then game state), `Render::draw_on` and `Render::with_image`
//! (presentation only).

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use crate::assets::AssetError;
use crate::draw::sprite::check_size;
use crate::draw::{Framebuffer, SpriteSheet};

/// A picture of palette indices that a cart draws into with every drawing call, and draws
/// from like a [`SpriteSheet`] (it dereferences to one): a minimap, a background drawn once
/// and reused, a trail that fades a little each tick. Pyxel's `Image` as a drawing target.
///
/// Draw into one with [`Update::draw_on`](crate::Update::draw_on) when it is part of the
/// game's state (built in `init` or `update`), or in `render` with
/// [`Render::draw_on`](crate::Render::draw_on) on a scratch image from
/// [`Render::with_image`](crate::Render::with_image), which starts blank each time, so a frame
/// is still a function of the state. Each drawing session starts with no clip, no remap and
/// no fill pattern, and the camera at the image's origin.
///
/// ```
/// use bt::host::Console;
/// use bt::{Image, Rect, Settings, SpriteParams};
///
/// let mut con = Console::new(&Settings::default().display(16, 16), 0);
/// let mut minimap = Image::new(4, 4)?;
/// con.update_context(0).draw_on(&mut minimap, |img| {
///     img.clear(1);
///     img.draw_pixel(2, 2, 8);
/// });
/// assert_eq!(minimap.get(2, 2), Some(8));
///
/// let mut ctx = con.render_context(0, 0.0);
/// ctx.draw_sprite(&minimap, Rect::new(0, 0, 4, 4), 10, 10, SpriteParams::new().scale(2));
/// assert_eq!(con.framebuffer().get(14, 14), Some(8));
/// # Ok::<(), bt::AssetError>(())
/// ```
pub struct Image {
    pub(crate) sheet: SpriteSheet,
    /// The drawing state; holds the pixels only while the image is drawn on.
    pub(crate) canvas: Framebuffer,
}

impl Image {
    /// A blank image (every pixel index 0, see-through when drawn) of `width × height`.
    ///
    /// # Errors
    /// [`AssetErrorKind::TooLarge`](crate::AssetErrorKind::TooLarge) when a side is 0 or above
    /// 8192 px or the area is above the display limit, named `image`.
    pub fn new(width: u32, height: u32) -> Result<Image, AssetError> {
        let mut image = Image::from_sheet(SpriteSheet::from_indexed(1, 1, vec![0])?);
        image.reset(width, height)?;
        Ok(image)
    }

    /// An image holding `sheet`'s pixels, tile size and key, to draw on.
    pub fn from_sheet(sheet: SpriteSheet) -> Image {
        let mut canvas = Framebuffer::new(0, 0);
        (canvas.width, canvas.height) = (sheet.width, sheet.height);
        Image { sheet, canvas }
    }

    /// The image as a sprite sheet, to draw from (the image also dereferences to it).
    pub fn sheet(&self) -> &SpriteSheet {
        &self.sheet
    }

    /// The sprite sheet the image is, for good.
    pub fn into_sheet(self) -> SpriteSheet {
        self.sheet
    }

    /// Makes this a blank image of `width × height` (its tile size and key back to the
    /// defaults), reusing its memory when it is big enough.
    pub(crate) fn reset(&mut self, width: u32, height: u32) -> Result<(), AssetError> {
        check_size("image", width.into(), height.into())?;
        // Copied first only if a copy of the image (a snapshot) shares the pixels.
        let px = Arc::make_mut(&mut self.sheet.pixels);
        px.clear();
        px.resize(width as usize * height as usize, 0);
        self.sheet.set_blank_header(width, height);
        (self.canvas.width, self.canvas.height) = (width, height);
        Ok(())
    }

    /// Moves the pixels into the drawing state, with the clip and pen plain, and hands it out.
    pub(crate) fn begin(&mut self) -> &mut Framebuffer {
        // Swapped, not copied: the canvas's own list is empty between drawings. A copy of the
        // image sharing the pixels makes them the image's own first.
        std::mem::swap(
            Arc::make_mut(&mut self.sheet.pixels),
            &mut self.canvas.pixels,
        );
        self.canvas.reset_clip();
        self.canvas.pen_reset();
        &mut self.canvas
    }

    /// Moves the pixels back into the sheet.
    pub(crate) fn end(&mut self) {
        std::mem::swap(
            Arc::make_mut(&mut self.sheet.pixels),
            &mut self.canvas.pixels,
        );
    }
}

impl Deref for Image {
    type Target = SpriteSheet;

    fn deref(&self) -> &SpriteSheet {
        &self.sheet
    }
}

impl Clone for Image {
    /// The same picture; the drawing state starts afresh. The pixels are shared until either
    /// image is drawn on, and counted in [`image_bytes_copied`] whatever happens to them.
    fn clone(&self) -> Image {
        COPIED_BYTES.with(|n| n.set(n.get().saturating_add(self.sheet.pixels.len() as u64)));
        Image::from_sheet(self.sheet.clone())
    }
}

thread_local! {
    /// The pixels of every [`Image`] copy made on this thread, in bytes, ever.
    static COPIED_BYTES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many bytes of pixels the [`Image`] copies made on this thread have had, in all, since
/// it started: for the console to count the images a cart's snapshot holds.
///
/// A copy shares its pixels with the original until one of them is drawn on, and then holds
/// its own: a game that keeps a 16 MiB trail image and draws on it each update makes every
/// snapshot hold 16 MiB of its own. A cart's [`Cart::snapshot`](crate::Cart::snapshot) says
/// nothing of what it holds, so the console reads this before and after taking one and
/// counts the difference against its snapshot budget: always the whole image, as no one can
/// know yet whether the game will draw on it.
///
/// ```
/// use bt::host::image_bytes_copied;
/// use bt::Image;
///
/// let trail = Image::new(64, 32)?;
/// let before = image_bytes_copied();
/// let _copy = trail.clone();
/// assert_eq!(image_bytes_copied() - before, 64 * 32);
/// # Ok::<(), bt::AssetError>(())
/// ```
pub fn image_bytes_copied() -> u64 {
    COPIED_BYTES.with(std::cell::Cell::get)
}

impl PartialEq for Image {
    /// The same pictures (size, pixels, tile size, key).
    fn eq(&self, other: &Image) -> bool {
        self.sheet == other.sheet
    }
}

impl Eq for Image {}

impl fmt::Debug for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Image").field(&self.sheet).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AssetErrorKind;

    #[test]
    fn bad_sizes_are_refused_by_name_before_anything_is_allocated() {
        let e = Image::new(0, 4).unwrap_err();
        assert_eq!(e.name, "image");
        assert!(matches!(
            e.kind,
            AssetErrorKind::TooLarge {
                width: 0,
                height: 4
            }
        ));
        let e = Image::new(8192, 8192).unwrap_err();
        assert!(
            e.to_string().starts_with("image: image is 8192x8192"),
            "{e}"
        );
        let mut img = Image::new(3, 2).unwrap();
        assert_eq!((img.size(), img.pixels()), ((3, 2), &[0u8; 6][..]));
        assert!(img.reset(9000, 1).is_err());
        assert_eq!(
            img.size(),
            (3, 2),
            "a refused size leaves the image as it was"
        );
    }

    #[test]
    fn a_reset_image_is_blank_and_reuses_its_memory() {
        let mut img = Image::new(8, 8).unwrap();
        img.begin().clear(5);
        img.end();
        img.reset(4, 2).unwrap();
        assert_eq!(img.pixels(), [0; 8]);
        assert!(img.sheet.pixels.capacity() >= 64);
        assert_eq!(img.clone(), img);
    }
}
