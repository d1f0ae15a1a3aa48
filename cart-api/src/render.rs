//! What `render` is handed: read-only timing and palette, and drawing.

use std::fmt;

use crate::draw::{DrawCounts, SpriteParams, SpriteSheet};
use crate::draw::{Framebuffer, Rect};
use crate::{FillPattern, MapParams, Palette, Tilemap, Timing};

/// What `render` is handed: read-only timing and palette, and drawing.
///
/// Drawing goes through the camera set in `update`; the framebuffer starts every frame blank.
///
/// ```
/// use bt::host::Console;
/// use bt::{Rect, Settings, SpriteParams, SpriteSheet, FLIP_H};
///
/// let mut con = Console::new(&Settings::default().display(32, 32), 0);
/// let sheet = SpriteSheet::from_indexed(2, 1, vec![8, 0])?;
/// let mut ctx = con.render_context(0, 0.0);
/// ctx.clear(1);
/// ctx.set_clip(Rect::new(0, 0, 16, 32));
/// assert_eq!(ctx.clip(), Rect::new(0, 0, 16, 32));
/// ctx.draw_rect_fill(Rect::new(10, 0, 20, 4), 3); // cut at x = 16
/// ctx.reset_clip();
/// ctx.draw_circle(20, 20, 3, 7);
/// ctx.draw_circle_fill(20, 20, 2, 9);
/// ctx.clear_rect(Rect::new(0, 30, 32, 2), 0);
/// ctx.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), 4, 10, SpriteParams::new().flags(FLIP_H));
/// ctx.draw_tile(&sheet.with_tile_size(1, 1), 0, 0, 0, SpriteParams::new().scale(2));
///
/// let fb = con.framebuffer();
/// assert_eq!(fb.get(15, 0), Some(3));
/// assert_eq!(fb.get(16, 0), Some(1), "outside the clip");
/// assert_eq!((fb.get(4, 10), fb.get(5, 10)), (Some(1), Some(8)), "mirrored");
/// assert_eq!(fb.get(1, 1), Some(8), "tile 0 at scale 2");
/// assert_eq!(fb.get(20, 17), Some(7));
/// assert_eq!(fb.get(0, 31), Some(0));
/// # Ok::<(), bt::AssetError>(())
/// ```
pub struct Render<'a> {
    pub(crate) clock: Timing,
    pub(crate) palette: &'a Palette,
    pub(crate) camera: (i32, i32),
    pub(crate) fb: &'a mut Framebuffer,
    pub(crate) draw_calls: &'a mut DrawCounts,
}

impl Render<'_> {
    /// How far the time left over after this frame's updates reaches into the next update, in
    /// `[0, 1)`. Draw moving things at `previous + (current - previous) * render_alpha` for
    /// smooth motion at any refresh rate.
    pub fn render_alpha(&self) -> f64 {
        self.clock.render_alpha
    }

    /// The display size in pixels.
    pub fn display_size(&self) -> (u32, u32) {
        (self.fb.width(), self.fb.height())
    }

    /// The palette.
    pub fn palette(&self) -> &Palette {
        self.palette
    }

    /// The camera offset drawing goes through: the one set in `update`, or inside
    /// [`Self::with_camera`] the one given there.
    pub fn camera(&self) -> (i32, i32) {
        self.camera
    }

    /// Runs `draw` with the camera at `(x, y)` instead, then puts it back: a layer drawn with
    /// its own offset, such as a HUD at `(0, 0)` over a scrolled level, or a parallax
    /// background at half the camera. The camera `update` set is not changed, and nothing of
    /// this outlives the call.
    ///
    /// ```
    /// use bt::host::Console;
    /// use bt::Settings;
    ///
    /// let mut con = Console::new(&Settings::default().display(8, 8), 0);
    /// con.update_context(0).set_camera(100, 0);
    /// let mut ctx = con.render_context(0, 0.0);
    /// ctx.with_camera(0, 0, |hud| hud.draw_pixel(1, 1, 7));
    /// assert_eq!(ctx.camera(), (100, 0));
    /// ctx.draw_pixel(102, 2, 8);
    /// assert_eq!(con.framebuffer().get(1, 1), Some(7));
    /// assert_eq!(con.framebuffer().get(2, 2), Some(8));
    /// ```
    pub fn with_camera<R>(&mut self, x: i32, y: i32, draw: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.camera;
        self.camera = (x, y);
        let out = draw(self);
        self.camera = saved;
        out
    }

    /// The index drawn so far at `(x, y)` through the camera (PICO-8's and Pyxel's `pget`),
    /// or `None` off screen. The clip does not hide pixels from it.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        let (x, y) = self.at(x, y);
        let (x, y) = (i32::try_from(x).ok()?, i32::try_from(y).ok()?);
        self.fb.get(x, y)
    }

    pub(crate) fn at(&self, x: i32, y: i32) -> (i64, i64) {
        (
            i64::from(x) - i64::from(self.camera.0),
            i64::from(y) - i64::from(self.camera.1),
        )
    }

    /// Fills the whole screen with `index` (camera and clip do not apply).
    pub fn clear(&mut self, index: u8) {
        self.draw_calls.shapes += 1;
        self.fb.clear(index);
    }

    /// Sets one pixel.
    pub fn draw_pixel(&mut self, x: i32, y: i32, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(x, y);
        self.fb.pixel_wide(x, y, index);
    }

    /// Draws a line from `(x, y)` pair `from` to `to`, both end points included.
    pub fn draw_line(&mut self, from: (i32, i32), to: (i32, i32), index: u8) {
        self.draw_calls.shapes += 1;
        let (a, b) = self.at(from.0, from.1);
        let (c, d) = self.at(to.0, to.1);
        self.fb.line_wide(a, b, c, d, index);
    }

    /// Draws a rectangle's one-pixel outline.
    pub fn draw_rect(&mut self, rect: Rect, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb.rect_wide(x, y, rect.w.into(), rect.h.into(), index);
    }

    /// Fills a rectangle.
    pub fn draw_rect_fill(&mut self, rect: Rect, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb
            .fill_wide(x, y, x + i64::from(rect.w), y + i64::from(rect.h), index);
    }

    /// Prints `text` in the system font (6 px a character, 14 px a line) with its top-left
    /// corner at `(x, y)`, in colour `index`, last as in every `draw_*`. Index 0 draws nothing.
    /// Anything that displays works, without allocating: a `&str`, a number, or
    /// `format_args!("T {}", ctx.ticks())`. The same as [`Self::print_font`] with
    /// [`Font::system`]; `Font::system().measure(text, TextStyle::new())` gives the size it
    /// covers.
    ///
    /// [`Font::system`]: crate::Font::system
    pub fn print(&mut self, x: i32, y: i32, text: impl fmt::Display, index: u8) {
        self.print_font(crate::Font::system(), x, y, text, index);
    }

    /// Fills a rectangle with `index`, index 0 included (it puts pixels back to blank).
    pub fn clear_rect(&mut self, rect: Rect, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(rect.x, rect.y);
        self.fb
            .clear_rect_wide(x, y, x + i64::from(rect.w), y + i64::from(rect.h), index);
    }

    /// Draws a circle's one-pixel outline around `(cx, cy)`; see [`Framebuffer::draw_circle`].
    pub fn draw_circle(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(cx, cy);
        self.fb.circle_wide(x, y, r.into(), index, false);
    }

    /// Fills a circle around `(cx, cy)`; see [`Framebuffer::draw_circle_fill`].
    pub fn draw_circle_fill(&mut self, cx: i32, cy: i32, r: i32, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(cx, cy);
        self.fb.circle_wide(x, y, r.into(), index, true);
    }

    /// Draws the part `src` of `sheet` with the drawn picture's top-left corner at (`x`, `y`). See
    /// [`SpriteParams`] for mirroring, turning, scaling and palette offsets; index 0 is
    /// see-through and parts of `src` outside the sheet draw nothing.
    ///
    /// Inlined into the cart's own code: a cart may draw tens of thousands of sprites a frame,
    /// and this is only the camera and the count before the blitter.
    #[inline]
    pub fn draw_sprite(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        let (x, y) = self.at(x, y);
        self.fb.sprite_wide(sheet, src, x, y, params);
    }

    /// Draws tile `index` of `sheet` with its top-left corner at (`x`, `y`) (see [`SpriteSheet::tile_rect`]); an index past
    /// the last tile draws nothing.
    pub fn draw_tile(
        &mut self,
        sheet: &SpriteSheet,
        index: u32,
        x: i32,
        y: i32,
        params: SpriteParams,
    ) {
        self.draw_calls.sprites += 1;
        if let Some(src) = sheet.tile_rect(index) {
            let (x, y) = self.at(x, y);
            self.fb.sprite_wide(sheet, src, x, y, params);
        }
    }

    /// Draws a triangle's outline through its three corners; see [`Framebuffer::draw_triangle`].
    pub fn draw_triangle(&mut self, a: (i32, i32), b: (i32, i32), c: (i32, i32), index: u8) {
        self.draw_calls.shapes += 1;
        let (a, b, c) = (self.at(a.0, a.1), self.at(b.0, b.1), self.at(c.0, c.1));
        self.fb.triangle_wide(a, b, c, index, false);
    }

    /// Fills a triangle; see [`Framebuffer::draw_triangle_fill`].
    pub fn draw_triangle_fill(&mut self, a: (i32, i32), b: (i32, i32), c: (i32, i32), index: u8) {
        self.draw_calls.shapes += 1;
        let (a, b, c) = (self.at(a.0, a.1), self.at(b.0, b.1), self.at(c.0, c.1));
        self.fb.triangle_wide(a, b, c, index, true);
    }

    /// Draws the outline of the ellipse inscribed in `rect`; see [`Framebuffer::draw_ellipse`].
    pub fn draw_ellipse(&mut self, rect: Rect, index: u8) {
        self.draw_calls.shapes += 1;
        let at = self.at(rect.x, rect.y);
        self.fb.ellipse_wide(rect, at, index, false);
    }

    /// Fills the ellipse inscribed in `rect`; see [`Framebuffer::draw_ellipse_fill`].
    pub fn draw_ellipse_fill(&mut self, rect: Rect, index: u8) {
        self.draw_calls.shapes += 1;
        let at = self.at(rect.x, rect.y);
        self.fb.ellipse_wide(rect, at, index, true);
    }

    /// Fills the area of one index around `(x, y)`; see [`Framebuffer::flood_fill`].
    pub fn flood_fill(&mut self, x: i32, y: i32, index: u8) {
        self.draw_calls.shapes += 1;
        let (x, y) = self.at(x, y);
        self.fb.flood_wide(x, y, index);
    }

    /// Draws a region of a map layer with tiles of `sheet`, its top-left corner at (`x`, `y`)
    /// through the camera; see [`Framebuffer::draw_map`] and [`MapParams`]. One call however
    /// many tiles it draws.
    pub fn draw_map(
        &mut self,
        map: &Tilemap,
        sheet: &SpriteSheet,
        x: i32,
        y: i32,
        params: MapParams,
    ) {
        self.draw_calls.maps += 1;
        let (x, y) = self.at(x, y);
        self.fb.map_wide(map, sheet, x, y, params);
    }

    /// Makes every later shape, sprite, tile and text pixel of index `from` land as `to`, for
    /// the rest of this frame (PICO-8's `pal(from, to)`); see [`Framebuffer::set_remap`]. The
    /// display palette is not touched: that is [`crate::Update::palette_mut`].
    pub fn set_remap(&mut self, from: u8, to: u8) {
        self.fb.set_remap(from, to);
    }

    /// Undoes every remap (PICO-8's `pal()`).
    pub fn reset_remap(&mut self) {
        self.fb.reset_remap();
    }

    /// What `index` lands as under the remap in force.
    pub fn remap(&self, index: u8) -> u8 {
        self.fb.remap(index)
    }

    /// Sets the 4 × 4 fill pattern of later shapes for the rest of this frame (PICO-8's
    /// `fillp`); see [`FillPattern`] and [`Framebuffer::set_fill_pattern`].
    pub fn set_fill_pattern(&mut self, pattern: FillPattern, alt: Option<u8>) {
        self.fb.set_fill_pattern(pattern, alt);
    }

    /// Draws solid again.
    pub fn reset_fill_pattern(&mut self) {
        self.fb.reset_fill_pattern();
    }

    /// Limits drawing to `rect`, in screen coordinates, for the rest of this frame.
    pub fn set_clip(&mut self, rect: Rect) {
        self.fb.set_clip(rect);
    }

    /// Lets drawing reach the whole screen again.
    pub fn reset_clip(&mut self) {
        self.fb.reset_clip();
    }

    /// The clip rectangle in force, in screen coordinates.
    pub fn clip(&self) -> Rect {
        self.fb.clip()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::Console;
    use crate::Settings;

    fn console() -> Console {
        crate::console::test_console()
    }

    #[test]
    fn every_drawing_call_of_a_render_is_counted_afresh() {
        let mut con = Console::new(&Settings::default(), 1);
        let mut r = con.render_context(0, 0.0);
        r.clear(1);
        r.draw_pixel(1, 1, 2);
        r.draw_rect_fill(Rect::new(0, 0, 4, 4), 3);
        r.print(0, 0, format_args!("{}", 5), 7);
        let _ = crate::Font::system().measure("not drawing", crate::TextStyle::new());
        r.set_clip(Rect::new(0, 0, 8, 8));
        let sheet = crate::SpriteSheet::from_indexed(4, 4, vec![1; 16]).unwrap();
        r.draw_tile(&sheet, 0, 0, 0, crate::SpriteParams::default());
        assert_eq!(con.draw_calls(), 5, "a tile is one call");
        let mut r = con.render_context(1, 0.0);
        r.draw_line((0, 0), (5, 5), 1);
        assert_eq!(con.draw_calls(), 1);
    }

    #[test]
    fn camera_offsets_drawing_and_render_starts_blank() {
        let mut con = Console::new(&Settings::default().display(8, 8), 1);
        con.update_context(0).set_camera(2, 3);
        let mut r = con.render_context(0, 0.0);
        r.draw_pixel(3, 4, 7);
        assert_eq!(con.framebuffer().get(1, 1), Some(7));
        let _ = con.render_context(1, 0.0);
        assert_eq!(con.framebuffer().get(1, 1), Some(0));
    }

    #[test]
    fn camera_persists_over_frames_without_updates() {
        let mut con = console();
        con.update_context(0).set_camera(2, 0);
        for _ in 0..3 {
            // Three renders, no update between them: each draws through the same camera.
            let mut r = con.render_context(0, 0.5);
            assert_eq!(r.camera(), (2, 0));
            r.draw_pixel(3, 0, 7);
            assert_eq!(con.framebuffer().get(1, 0), Some(7));
        }
        con.update_context(1).reset_camera();
        assert_eq!(con.render_context(1, 0.0).camera(), (0, 0));
    }

    #[test]
    fn render_draws_circles_sprites_and_tiles_through_the_camera() {
        let mut con = console();
        con.update_context(0).set_camera(1, 1);
        let sheet = SpriteSheet::from_indexed(2, 1, vec![5, 6])
            .unwrap()
            .with_tile_size(1, 1);
        let mut r = con.render_context(0, 0.0);
        r.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), 1, 1, SpriteParams::new());
        r.draw_tile(&sheet, 1, 4, 4, SpriteParams::new().palette_offset(1));
        r.draw_circle_fill(7, 7, 0, 9);
        r.draw_circle(7, 5, 0, 10);
        r.clear_rect(Rect::new(1, 1, 1, 1), 0);
        assert_eq!(r.clip(), Rect::new(0, 0, 8, 8));
        let fb = con.framebuffer();
        assert_eq!(fb.get(0, 0), Some(0), "cleared back to blank");
        assert_eq!(fb.get(1, 0), Some(6));
        assert_eq!(fb.get(3, 3), Some(7));
        assert_eq!(fb.get(6, 6), Some(9));
        assert_eq!(fb.get(6, 4), Some(10));
    }
}

#[cfg(test)]
mod toolkit_tests {
    use super::*;
    use crate::console::Console;
    use crate::{ColorKey, Settings};

    #[test]
    fn remap_and_pattern_last_one_frame_and_never_reach_the_host() {
        let mut con = Console::new(&Settings::default().display(4, 1), 1);
        let mut r = con.render_context(0, 0.0);
        r.set_remap(7, 9);
        r.set_fill_pattern(FillPattern::new(0x8888), None);
        r.draw_rect_fill(Rect::new(0, 0, 4, 1), 7);
        assert_eq!(r.remap(7), 9);
        assert_eq!(con.framebuffer().pixels(), [0, 9, 9, 9]);
        con.framebuffer_mut().draw_pixel(0, 0, 7);
        assert_eq!(con.framebuffer().get(0, 0), Some(7), "the host draws plain");
        let mut r = con.render_context(1, 0.0);
        assert_eq!(r.remap(7), 7, "a new frame starts plain");
        r.draw_rect_fill(Rect::new(0, 0, 4, 1), 7);
        assert_eq!(con.framebuffer().pixels(), [7; 4]);
    }

    #[test]
    fn remap_applies_to_sprites_tiles_maps_shapes_and_text_after_the_key() {
        let mut con = Console::new(&Settings::default().display(8, 14), 1);
        let sheet = SpriteSheet::from_indexed(2, 1, vec![0, 3])
            .unwrap()
            .with_tile_size(1, 1);
        let mut map = Tilemap::new(1, 1, (1, 1)).unwrap();
        map.set_tile(0, 0, 0, Some(1));
        let mut r = con.render_context(0, 0.0);
        r.set_remap(3, 5);
        r.set_remap(4, 6);
        r.draw_sprite(&sheet, Rect::new(0, 0, 2, 1), 0, 0, SpriteParams::new());
        r.draw_tile(&sheet, 1, 2, 0, SpriteParams::new().palette_offset(1));
        r.draw_map(&map, &sheet, 3, 0, MapParams::new());
        r.draw_circle_fill(4, 0, 0, 3);
        r.print(0, 1, "#", 3);
        let fb = con.framebuffer();
        assert_eq!(&fb.pixels()[..5], [0, 5, 6, 5, 5]);
        assert!(fb.pixels()[8..].contains(&5));
        assert!(!fb.pixels()[8..].contains(&3));
    }

    #[test]
    fn keyed_and_remapped_sprites_match_the_plain_blitter_where_both_apply() {
        let px: Vec<u8> = (0..64).map(|i| (i * 7 % 5) as u8).collect();
        let sheet = SpriteSheet::from_indexed(8, 8, px).unwrap();
        for flags in [0, crate::FLIP_H, crate::ROT_90] {
            for scale in [1, 2] {
                let p = SpriteParams::new()
                    .flags(flags)
                    .scale(scale)
                    .palette_offset(2);
                let mut plain = Framebuffer::new(20, 20);
                plain.draw_sprite(&sheet, Rect::new(1, 1, 6, 5), 3, 2, p);
                // The same key through the table path (a remap that changes nothing drawn).
                let mut table = Framebuffer::new(20, 20);
                table.set_remap(200, 201);
                table.draw_sprite(&sheet, Rect::new(1, 1, 6, 5), 3, 2, p);
                table.reset_remap();
                assert_eq!(plain, table, "flags {flags} scale {scale}");
                let mut keyed = Framebuffer::new(20, 20);
                keyed.draw_sprite(&sheet, Rect::new(1, 1, 6, 5), 3, 2, p.key(ColorKey::NONE));
                assert!(
                    keyed.pixels().iter().filter(|&&v| v == 2).count() > 0,
                    "0 drawn as 0 + 2"
                );
            }
        }
    }

    #[test]
    fn a_sheet_key_and_a_draw_key() {
        let sheet = SpriteSheet::from_indexed(3, 1, vec![0, 5, 6])
            .unwrap()
            .with_key(ColorKey::single(5));
        let mut fb = Framebuffer::new(3, 1);
        fb.clear(1);
        fb.draw_sprite(&sheet, Rect::new(0, 0, 3, 1), 0, 0, SpriteParams::new());
        assert_eq!(
            fb.pixels(),
            [0, 1, 6],
            "the sheet's key: 0 drawn, 5 see-through"
        );
        fb.clear(1);
        let p = SpriteParams::new().key(ColorKey::single(0).with(6));
        fb.draw_sprite(&sheet, Rect::new(0, 0, 3, 1), 0, 0, p);
        assert_eq!(fb.pixels(), [1, 5, 1], "the draw's key wins");
    }

    #[test]
    fn pixel_reads_through_the_camera_and_with_camera_is_scoped() {
        let mut con = Console::new(&Settings::default().display(8, 8), 1);
        con.update_context(0).set_camera(10, 20);
        let mut r = con.render_context(0, 0.0);
        r.draw_pixel(12, 23, 4);
        assert_eq!(r.get(12, 23), Some(4));
        assert_eq!(r.get(10, 20), Some(0));
        assert_eq!(r.get(9, 20), None, "off screen");
        assert_eq!(r.get(i32::MIN, i32::MAX), None);
        let got = r.with_camera(0, 0, |hud| {
            hud.draw_triangle_fill((0, 7), (2, 7), (0, 5), 3);
            hud.draw_ellipse(Rect::new(4, 4, 3, 3), 5);
            hud.flood_fill(5, 5, 6);
            hud.get(2, 3)
        });
        assert_eq!(got, Some(4));
        assert_eq!(r.camera(), (10, 20));
        let fb = con.framebuffer();
        assert_eq!(
            (fb.get(0, 7), fb.get(0, 5), fb.get(5, 4), fb.get(5, 5)),
            (Some(3), Some(3), Some(5), Some(6))
        );
        assert_eq!(con.camera(), (10, 20), "the update camera is untouched");
    }
}
