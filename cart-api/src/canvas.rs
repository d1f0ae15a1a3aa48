//! The drawing calls `render` gains beyond the whole-pixel sprite: stretched, turned and
//! scaled sprites, textured spans and nine-slice panels (the rules are on the
//! [`Framebuffer`] calls they wrap); and drawing on an [`Image`] instead of the screen, from
//! `render` (presentation) or `update` (game state); and translucency through a blend table.

use crate::draw::{
    BlendTable, DrawCounts, Image, NineSlice, Rect, SpriteParams, SpriteSheet, Transform,
};
#[cfg(doc)]
use crate::host::Framebuffer;
use crate::{AssetError, Render, Update};

impl Render<'_> {
    fn through_camera(&self, x: i32, y: i32) -> (i64, i64) {
        (
            i64::from(x) - i64::from(self.camera.0),
            i64::from(y) - i64::from(self.camera.1),
        )
    }

    /// Draws the part `src` of `sheet` stretched to fill `dst` (PICO-8's `sspr`): each pixel
    /// of `dst` shows the sprite pixel under its centre. See
    /// [`Framebuffer::draw_sprite_stretched`] for the exact rule; flags, key and palette offset
    /// work as in [`Self::draw_sprite`], the scale does not apply.
    pub fn draw_sprite_stretched(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        dst: Rect,
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        let at = self.through_camera(dst.x, dst.y);
        let size = (i64::from(dst.w), i64::from(dst.h));
        self.fb.stretch_wide(sheet, src, at, size, params);
    }

    /// Draws the part `src` of `sheet` turned and scaled by `transform` about its pivot, the
    /// pivot (the sprite's centre unless set) landing on `(x, y)`; `params.scale` multiplies
    /// the transform's scale. See [`Transform`] and
    /// [`Framebuffer::draw_sprite_transformed`] for the exact rule, the same on every
    /// machine.
    pub fn draw_sprite_transformed(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        transform: Transform,
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        let at = self.through_camera(x, y);
        self.fb.transformed_wide(sheet, src, at, transform, params);
    }

    /// Draws one row of `len` pixels from `(x, y)` rightwards, textured by walking `src` of
    /// `sheet` from `start` by `step` texture pixels a screen pixel, wrapping inside `src`
    /// (PICO-8's `tline`; a mode-7 floor is one span a row). See [`Framebuffer::draw_span`].
    #[allow(
        clippy::too_many_arguments,
        reason = "a span is where, how long, the texture and how it is walked"
    )]
    pub fn draw_span(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        len: i32,
        start: (f64, f64),
        step: (f64, f64),
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        let (x, y) = self.through_camera(x, y);
        let walk = crate::draw::Span::new(src, start, step);
        self.fb.span_wide(sheet, (x, y, len.into()), walk, params);
    }

    /// Draws the nine-slice panel `slice` of `sheet` to fill `dst`: corners at their own
    /// size, edges and centre stretched or tiled (BLIT386's `drawNineSlice`). See
    /// [`Framebuffer::draw_nine_slice`]. One call, counted as a sprite.
    pub fn draw_nine_slice(
        &mut self,
        sheet: &SpriteSheet,
        slice: &NineSlice,
        dst: Rect,
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        let at = self.through_camera(dst.x, dst.y);
        let size = (i64::from(dst.w), i64::from(dst.h));
        self.fb.nine_slice_wide(sheet, slice, at, size, params);
    }

    /// Makes every later shape, sprite, tile and map pixel of this frame land through `table`:
    /// a pixel that would draw `v` over `dst` draws `table.get(v, dst)` (ghosts, shadows,
    /// light). Text, `clear` and `clear_rect` stay opaque. See [`BlendTable`] and
    /// [`Framebuffer::set_blend`].
    pub fn set_blend(&mut self, table: &BlendTable) {
        self.fb.set_blend(table);
    }

    /// Draws opaque again.
    pub fn reset_blend(&mut self) {
        self.fb.reset_blend();
    }

    /// Runs `draw` with this context drawing on `image` instead of the screen: every drawing
    /// call lands in the image, through a camera at its origin (change it with
    /// [`Self::with_camera`]), starting with no clip, remap or fill pattern;
    /// [`Self::display_size`] and [`Self::get`] answer for the image. After `draw` the screen,
    /// camera, clip and pen are as they were, and the image can be drawn like a sprite sheet.
    /// The calls count towards the frame's drawing calls.
    ///
    /// `render` sees the game's state read-only, so the images it can draw on are the scratch
    /// ones [`Self::with_image`] lends; an image kept in the state is drawn on in `update`
    /// ([`Update::draw_on`]).
    pub fn draw_on<R>(&mut self, image: &mut Image, draw: impl FnOnce(&mut Render<'_>) -> R) -> R {
        image.begin();
        // The image's drawing state in place of the screen's, swapped back after. The scratch
        // images stay with the screen's, where `with_image` keeps them.
        std::mem::swap(&mut *self.fb, &mut image.canvas);
        std::mem::swap(&mut self.fb.images, &mut image.canvas.images);
        let camera = std::mem::take(&mut self.camera);
        let out = draw(self);
        self.camera = camera;
        std::mem::swap(&mut self.fb.images, &mut image.canvas.images);
        std::mem::swap(&mut *self.fb, &mut image.canvas);
        image.end();
        out
    }

    /// Lends `draw` a blank scratch [`Image`] of `width × height` for the length of the call,
    /// to draw on with [`Self::draw_on`] and then draw from: a minimap, a layer drawn once and
    /// stamped many times, a picture turned as a whole. It starts blank (every pixel index 0)
    /// on every call, so what `render` draws still follows from the game's state alone. Its
    /// memory is kept and lent again, so a scratch image of the same size each frame
    /// allocates nothing after the first.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::{Rect, Settings, SpriteParams, Transform};
    ///
    /// let mut con = Console::new(&Settings::default().display(32, 32), 0);
    /// let mut ctx = con.render_context(0, 0.0);
    /// ctx.with_image(8, 8, |ctx, badge| {
    ///     ctx.draw_on(badge, |img| img.draw_circle_fill(4, 4, 3, 9));
    ///     let half = Transform::new().angle(std::f64::consts::FRAC_PI_4).scale(2.0);
    ///     ctx.draw_sprite_transformed(badge, Rect::new(0, 0, 8, 8), 16, 16, half, SpriteParams::new());
    /// })?;
    /// assert_eq!(con.framebuffer().get(16, 16), Some(9));
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    ///
    /// # Errors
    /// The size is refused as [`Image::new`] refuses it (and `draw` is not run).
    pub fn with_image<R>(
        &mut self,
        width: u32,
        height: u32,
        draw: impl FnOnce(&mut Render<'_>, &mut Image) -> R,
    ) -> Result<R, AssetError> {
        let mut image = match self.fb.images.pop() {
            Some(image) => image,
            None => Image::new(1, 1)?,
        };
        let ready = image.reset(width, height);
        let out = ready.map(|()| draw(self, &mut image));
        self.fb.images.push(image);
        out
    }
}

impl Update<'_> {
    /// Runs `draw` with a drawing context on `image`: every drawing call of
    /// [`Render`] lands in the image, through a camera at its origin, starting with no clip,
    /// remap or fill pattern. The image is game state like any other (built in `init`,
    /// changed in `update`, drawn from in `render`): a background drawn once, a minimap of
    /// the level, a trail that fades a little each tick. The context's palette is the live
    /// one and its `render_alpha` is 0; what is drawn is not counted as a frame's drawing
    /// calls.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::{Image, Rect, Settings};
    ///
    /// let mut con = Console::new(&Settings::default(), 0);
    /// let mut trail = Image::new(64, 64)?;
    /// let mut ctx = con.update_context(0);
    /// ctx.draw_on(&mut trail, |img| {
    ///     assert_eq!(img.display_size(), (64, 64));
    ///     img.draw_rect_fill(Rect::new(60, 60, 10, 10), 7); // clipped to the image
    /// });
    /// assert_eq!(trail.get(63, 63), Some(7));
    /// # Ok::<(), bt::AssetError>(())
    /// ```
    pub fn draw_on<R>(&mut self, image: &mut Image, draw: impl FnOnce(&mut Render<'_>) -> R) -> R {
        let mut counts = DrawCounts::default();
        let mut clock = self.con.clock;
        clock.render_alpha = 0.0;
        let mut ctx = Render {
            clock,
            palette: &self.con.palette,
            camera: (0, 0),
            fb: image.begin(),
            draw_calls: &mut counts,
        };
        let out = draw(&mut ctx);
        image.end();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::host::{Console, Framebuffer};
    use crate::{Image, NineSlice, Rect, Settings, SpriteParams, SpriteSheet, Transform};

    #[test]
    fn drawing_on_an_image_leaves_the_screen_its_camera_clip_and_pen_alone() {
        let mut con = Console::new(&Settings::default().display(8, 8), 0);
        con.update_context(0).set_camera(1, 1);
        let mut img = Image::new(4, 4).unwrap();
        let mut r = con.render_context(0, 0.0);
        r.set_clip(Rect::new(0, 0, 2, 2));
        r.set_remap(5, 6);
        r.draw_on(&mut img, |i| {
            assert_eq!(
                (i.camera(), i.clip(), i.remap(5)),
                ((0, 0), Rect::new(0, 0, 4, 4), 5)
            );
            assert_eq!(i.display_size(), (4, 4));
            i.clear(2);
            i.draw_pixel(3, 3, 5);
            i.with_camera(-1, 0, |i| i.draw_pixel(0, 0, 4));
            i.set_clip(Rect::new(0, 0, 1, 1));
            i.set_remap(2, 3);
            assert_eq!(i.get(3, 3), Some(5));
        });
        assert_eq!(
            (r.camera(), r.clip(), r.remap(5)),
            ((1, 1), Rect::new(0, 0, 2, 2), 6)
        );
        assert_eq!(r.display_size(), (8, 8));
        assert_eq!(img.get(3, 3), Some(5));
        assert_eq!(img.get(1, 0), Some(4));
        assert_eq!(
            con.draw_counts().shapes,
            3,
            "what was drawn on the image counts"
        );
        assert!(con.framebuffer().pixels().iter().all(|&p| p == 0));
        // The next session starts plain again.
        con.update_context(1).draw_on(&mut img, |i| {
            assert_eq!((i.clip(), i.remap(2)), (Rect::new(0, 0, 4, 4), 2));
        });
    }

    #[test]
    fn scratch_images_start_blank_every_time_and_nest() {
        let mut con = Console::new(&Settings::default().display(8, 8), 0);
        let mut r = con.render_context(0, 0.0);
        for _ in 0..3 {
            r.with_image(3, 2, |r, a| {
                assert!(a.pixels().iter().all(|&p| p == 0), "blank");
                r.draw_on(a, |i| i.clear(7));
                r.with_image(2, 2, |r, b| {
                    assert!(b.pixels().iter().all(|&p| p == 0));
                    r.draw_on(b, |i| {
                        i.draw_sprite(a, Rect::new(0, 0, 3, 2), 0, 1, SpriteParams::new())
                    });
                    assert_eq!(b.pixels(), [0, 0, 7, 7]);
                })
                .unwrap();
            })
            .unwrap();
        }
        let err = r.with_image(0, 5, |_, _| unreachable!()).unwrap_err();
        assert_eq!(err.name, "image");
    }

    #[test]
    fn free_transforms_go_through_the_camera_and_count_as_sprites() {
        let sheet = SpriteSheet::from_indexed(4, 4, (1..=16).collect()).unwrap();
        let src = Rect::new(0, 0, 4, 4);
        let p = SpriteParams::new();
        let mut con = Console::new(&Settings::default().display(32, 32), 0);
        con.update_context(0).set_camera(-3, 5);
        let mut r = con.render_context(0, 0.0);
        r.draw_sprite_stretched(&sheet, src, Rect::new(1, 2, 9, 5), p);
        r.draw_sprite_transformed(&sheet, src, 20, 20, Transform::new().angle(0.5), p);
        r.draw_span(&sheet, src, 0, 30, 20, (0.5, 1.0), (0.75, 0.25), p);
        let panel = NineSlice::new(src, Rect::new(1, 1, 2, 2)).unwrap();
        r.draw_nine_slice(&sheet, &panel, Rect::new(10, 0, 12, 7), p);
        assert_eq!(con.draw_counts().sprites, 4);
        let mut want = Framebuffer::new(32, 32);
        want.draw_sprite_stretched(&sheet, src, Rect::new(4, -3, 9, 5), p);
        want.draw_sprite_transformed(&sheet, src, 23, 15, Transform::new().angle(0.5), p);
        want.draw_span(&sheet, src, 3, 25, 20, (0.5, 1.0), (0.75, 0.25), p);
        want.draw_nine_slice(&sheet, &panel, Rect::new(13, -5, 12, 7), p);
        assert_eq!(con.framebuffer().pixels(), want.pixels());
    }
}
