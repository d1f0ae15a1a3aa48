//! Putting the finished picture in the window, on the CPU.
//!
//! Every pixel BT shows is made on the CPU (the framebuffer, the palette, the post-process
//! stack), so what is left for presenting is to scale the picture by a whole number, add
//! black bars and hand the result to the window system. That is done here with `softbuffer`,
//! which puts a CPU buffer on an X11, Wayland, Windows or macOS window (shared memory on X11),
//! with no graphics driver at all. So `bt run` opens on any machine with a desktop: a virtual
//! machine, a remote desktop, a laptop whose GPU has no Vulkan driver.
//!
//! History, for whoever wonders why not a GPU crate: the window first presented through the
//! `pixels` crate, whose render loop retries an outdated or lost surface in a loop with the size
//! it stored, and keeps the surface private, so a resized or destroyed window could keep
//! `bt run` there for ever. It then presented through wgpu directly, owning the surface so every
//! outcome of a frame ended in one step. That worked, but wgpu and its shader compiler were half
//! of the first build's CPU time, and it needed a Vulkan driver (Mesa's software one where there
//! is no GPU) just to scale a picture the CPU had already made. A CPU buffer does the same job
//! in a few milliseconds a frame at 1280x960 and has no driver to fail.
//!
//! As before, no outcome loops: a frame that cannot be shown is skipped and the buffer is sized
//! again before the next one; a surface that keeps failing is made again by the presenting
//! thread ([`Outcome::Lost`]).

use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};
use winit::window::Window;

use super::layout::{surface_size, Placement};

/// The widest or tallest buffer presented, in pixels: X11 sizes an image in 16 bits, and at this
/// side a buffer is already 1 GiB. A larger window shows the top-left part.
pub const MAX_SURFACE_SIDE: u32 = 16_384;

/// Failures in a row after which the surface is made again.
const FAILURES_BEFORE_REBUILD: u32 = 3;

/// Why the window could not be drawn to.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ScreenError(#[from] softbuffer::SoftBufferError);

/// What became of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It is on its way to the screen.
    Presented,
    /// It was not shown; the next frame may be.
    Skipped(Skip),
    /// The surface failed frame after frame: make a new [`Screen`].
    Lost,
}

/// Why a frame was not shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// The window has no area (minimised).
    Hidden,
    /// The window system refused the buffer; it is sized again before the next frame.
    Failed,
}

/// The window system's last error, kept for the player.
#[derive(Debug, Default)]
pub struct ErrorLog {
    last: Mutex<Option<String>>,
}

impl ErrorLog {
    /// The last error reported, if any, taking it.
    pub fn take_last(&self) -> Option<String> {
        self.last.lock().ok()?.take()
    }

    fn record(&self, error: &softbuffer::SoftBufferError) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(error.to_string());
        }
    }
}

/// A CPU buffer on the window, and what scales the picture into it.
pub struct Screen {
    surface: softbuffer::Surface<Arc<Window>, Arc<Window>>,
    /// The buffer's size, once set.
    size: Option<(u32, u32)>,
    display: (u32, u32),
    /// The picture column each visible buffer column shows, for `scaled_for`.
    columns: Vec<u32>,
    /// The (buffer, picture) sizes `columns` was worked out for.
    scaled_for: Option<((u32, u32), (u32, u32))>,
    failures: u32,
    errors: Arc<ErrorLog>,
}

impl Screen {
    /// Sets up presenting a `display`-sized picture to `window`.
    ///
    /// # Errors
    /// The window system gives no buffer for this window.
    pub fn new(window: Arc<Window>, display: (u32, u32)) -> Result<Screen, ScreenError> {
        let context = softbuffer::Context::new(window.clone())?;
        let surface = softbuffer::Surface::new(&context, window)?;
        Ok(Screen {
            surface,
            size: None,
            display: (display.0.max(1), display.1.max(1)),
            columns: Vec::new(),
            scaled_for: None,
            failures: 0,
            errors: Arc::new(ErrorLog::default()),
        })
    }

    /// What presents the frames, for the overlay: the window system (`x11`, `wayland`, ...).
    pub fn backend(&self) -> &'static str {
        let raw = self.surface.window().display_handle().map(|h| h.as_raw());
        match raw {
            Ok(RawDisplayHandle::Xlib(_) | RawDisplayHandle::Xcb(_)) => "x11",
            Ok(RawDisplayHandle::Wayland(_)) => "wayland",
            Ok(RawDisplayHandle::Windows(_)) => "win32",
            Ok(RawDisplayHandle::AppKit(_)) => "appkit",
            _ => "window",
        }
    }

    /// The window system's errors.
    pub fn errors(&self) -> &Arc<ErrorLog> {
        &self.errors
    }

    /// Shows `rgba` (a `picture`-sized picture, 4 bytes a pixel: the display's pixels, or the
    /// output picture) over the display's place in a window of `window` pixels.
    pub fn present(&mut self, rgba: &[u8], picture: (u32, u32), window: (u32, u32)) -> Outcome {
        let Some(size) = surface_size(window, MAX_SURFACE_SIDE) else {
            return Outcome::Skipped(Skip::Hidden);
        };
        match self.draw(rgba, picture, size) {
            Ok(()) => {
                self.failures = 0;
                Outcome::Presented
            }
            Err(e) => {
                self.errors.record(&e);
                self.size = None;
                self.failures += 1;
                if self.failures >= FAILURES_BEFORE_REBUILD {
                    Outcome::Lost
                } else {
                    Outcome::Skipped(Skip::Failed)
                }
            }
        }
    }

    fn draw(
        &mut self,
        rgba: &[u8],
        picture: (u32, u32),
        size: (u32, u32),
    ) -> Result<(), softbuffer::SoftBufferError> {
        if self.size != Some(size) {
            let (Some(w), Some(h)) = (NonZeroU32::new(size.0), NonZeroU32::new(size.1)) else {
                return Ok(());
            };
            self.surface.resize(w, h)?;
            self.size = Some(size);
        }
        // A picture shorter than it says (never made so here) shows black rather than panics.
        let complete = rgba.len() >= picture.0 as usize * picture.1 as usize * 4;
        let picture = if complete { picture } else { (0, 0) };
        if self.scaled_for != Some((size, picture)) {
            self.columns = visible_columns(size, self.display, picture);
            self.scaled_for = Some((size, picture));
        }
        let mut buffer = self.surface.buffer_mut()?;
        scale_into(
            &mut buffer,
            size,
            self.display,
            rgba,
            picture,
            &self.columns,
        );
        buffer.present()
    }
}

/// The picture column shown by each buffer column the display covers, left to right: nearest
/// sampling at the buffer pixel's centre, as a GPU's nearest sampler does.
fn visible_columns(size: (u32, u32), display: (u32, u32), picture: (u32, u32)) -> Vec<u32> {
    let place = Placement::new(size, display);
    let width = i64::from(display.0) * i64::from(place.scale);
    let (first, end) = visible(place.x, width, size.0);
    (first..end)
        .map(|x| sample(x - place.x, width, picture.0))
        .collect()
}

/// The buffer pixels `[first, end)` of a span starting at `origin`, `length` long, inside a
/// buffer `side` pixels long.
fn visible(origin: i64, length: i64, side: u32) -> (i64, i64) {
    (origin.max(0), (origin + length).min(i64::from(side)))
}

/// The picture pixel (of `picture` along an axis) under buffer pixel `at` of a span `length`
/// long: the one holding the pixel's centre.
fn sample(at: i64, length: i64, picture: u32) -> u32 {
    let p = i64::from(picture);
    ((2 * at + 1) * p / (2 * length.max(1))).clamp(0, (p - 1).max(0)) as u32
}

/// Fills `buffer` (a `size` buffer of `0RGB` pixels) with the picture scaled over the display's
/// place and black around it. Rows that show the same picture row as the one above are copied.
fn scale_into(
    buffer: &mut [u32],
    size: (u32, u32),
    display: (u32, u32),
    rgba: &[u8],
    picture: (u32, u32),
    columns: &[u32],
) {
    let place = Placement::new(size, display);
    let height = i64::from(display.1) * i64::from(place.scale);
    let width = i64::from(display.0) * i64::from(place.scale);
    let (x0, x1) = visible(place.x, width, size.0);
    let (x0, x1) = (x0 as usize, x1 as usize);
    let stride = size.0 as usize;
    let mut last: Option<(usize, u32)> = None;
    for y in 0..size.1 as usize {
        let dy = y as i64 - place.y;
        let (before, rest) = buffer.split_at_mut(y * stride);
        let Some(row) = rest.get_mut(..stride) else {
            return;
        };
        if dy < 0 || dy >= height || picture.0 == 0 || picture.1 == 0 {
            row.fill(0);
            continue;
        }
        let source = sample(dy, height, picture.1);
        if let Some((above, row_shown)) = last {
            if row_shown == source {
                row.copy_from_slice(&before[above * stride..(above + 1) * stride]);
                continue;
            }
        }
        row[..x0].fill(0);
        row[x1..].fill(0);
        let line = source as usize * picture.0 as usize * 4;
        if width == i64::from(picture.0) && place.x >= 0 {
            // One picture pixel a buffer pixel (the post-process stack's output picture at
            // its own size): the row converted straight through.
            let pixels = &rgba[line..line + (x1 - x0) * 4];
            for (out, px) in row[x0..x1].iter_mut().zip(pixels.chunks_exact(4)) {
                *out = zero_rgb(px);
            }
        } else {
            for (out, &x) in row[x0..x1].iter_mut().zip(columns) {
                let at = x as usize * 4 + line;
                *out = zero_rgb(&rgba[at..at + 4]);
            }
        }
        last = Some((y, source));
    }
}

/// An RGBA pixel as the `0RGB` word a window buffer holds.
#[inline]
fn zero_rgb(px: &[u8]) -> u32 {
    u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` x `h` picture whose pixel (x, y) is red x, green y, blue 7.
    fn picture(w: u32, h: u32) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgba.extend_from_slice(&[x as u8, y as u8, 7, 255]);
            }
        }
        rgba
    }

    fn scaled(size: (u32, u32), display: (u32, u32), pic: (u32, u32)) -> Vec<u32> {
        let rgba = picture(pic.0, pic.1);
        let mut buffer = vec![0xdead_beef; size.0 as usize * size.1 as usize];
        let columns = visible_columns(size, display, pic);
        scale_into(&mut buffer, size, display, &rgba, pic, &columns);
        buffer
    }

    fn pixel(x: u32, y: u32) -> u32 {
        x << 16 | y << 8 | 7
    }

    #[test]
    fn a_whole_scale_repeats_each_pixel_with_black_bars_around_it() {
        // A 4x3 display in a 10x8 window: scale 2, bars of 1 left and right, 1 above and below.
        let b = scaled((10, 8), (4, 3), (4, 3));
        let at = |x: usize, y: usize| b[y * 10 + x];
        for x in 0..10 {
            assert_eq!(at(x, 0), 0, "top bar");
            assert_eq!(at(x, 7), 0, "bottom bar");
        }
        for y in 1..7 {
            assert_eq!(at(0, y), 0, "left bar");
            assert_eq!(at(9, y), 0, "right bar");
            for x in 1..9 {
                assert_eq!(at(x, y), pixel((x as u32 - 1) / 2, (y as u32 - 1) / 2));
            }
        }
    }

    #[test]
    fn an_output_sized_picture_is_shown_pixel_for_pixel_at_its_own_size() {
        // The post-process stack's picture of a 4x3 display at 2x, in a window of that size.
        let b = scaled((8, 6), (4, 3), (8, 6));
        for y in 0..6 {
            for x in 0..8 {
                assert_eq!(b[y * 8 + x], pixel(x as u32, y as u32));
            }
        }
    }

    #[test]
    fn a_larger_picture_in_a_smaller_place_takes_the_pixel_under_each_centre() {
        // A 2x picture (8x6) in a window that fits the display only once (4x3).
        let b = scaled((4, 3), (4, 3), (8, 6));
        for y in 0..3 {
            for x in 0..4 {
                assert_eq!(b[y * 4 + x], pixel(2 * x as u32 + 1, 2 * y as u32 + 1));
            }
        }
    }

    #[test]
    fn a_window_smaller_than_the_display_shows_its_middle_at_scale_one() {
        // Placement crops a 6x4 display in a 2x2 window to its middle: columns 2 and 3, rows 1, 2.
        let b = scaled((2, 2), (6, 4), (6, 4));
        assert_eq!(b, vec![pixel(2, 1), pixel(3, 1), pixel(2, 2), pixel(3, 2)]);
    }

    #[test]
    fn a_picture_with_no_pixels_leaves_the_window_black() {
        let mut buffer = vec![1; 12];
        scale_into(&mut buffer, (4, 3), (4, 3), &[], (0, 0), &[]);
        assert!(buffer.iter().all(|&p| p == 0));
    }
}
