//! Pictures of the framebuffer: palette to RGBA, PNG encoding, and saving them (through
//! `crate::export::safe_write`, with the `files` feature).

use std::path::Path;

use bt::host::Framebuffer;
use bt::Palette;
use thiserror::Error;

use crate::export::safe_write::{Format, Output, OutputError};

/// The most pixels a capture may hold after scaling (a 16384 x 16384 picture, 1 GiB of RGBA);
/// past that the picture is refused rather than the machine run out of memory.
pub const MAX_OUTPUT_PIXELS: u64 = 1 << 28;

/// The largest integer scale a capture accepts.
pub const MAX_SCALE: u32 = 16;

/// Why a capture failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// The scale was 0 or above [`MAX_SCALE`].
    #[error("scale must be between 1 and {MAX_SCALE}, got {0}")]
    Scale(u32),
    /// The scaled picture would be larger than [`MAX_OUTPUT_PIXELS`].
    #[error(
        "a {width}x{height} display at scale {scale} is {pixels} pixels, more than the \
         {MAX_OUTPUT_PIXELS} a capture may hold; use a smaller scale"
    )]
    TooLarge {
        /// Display width.
        width: u32,
        /// Display height.
        height: u32,
        /// The scale asked for.
        scale: u32,
        /// Pixels after scaling.
        pixels: u64,
    },
    /// PNG encoding failed.
    #[error("could not encode PNG: {0}")]
    Encode(#[from] png::EncodingError),
    /// The file was refused or could not be written (see [`crate::export::safe_write`]).
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// The host's overlay over a frame ([`crate::Engine::overlay_layer`]): the pixels it drew, 0
/// where it drew none, and the palette they are shown with, which no palette effect of the
/// cart touches, so the overlay stays readable through a flash or a fade.
#[derive(Debug, Clone, Copy)]
pub struct OverlayLayer<'a> {
    /// One index a display pixel, row by row; 0 where the frame shows the cart's pixel.
    pub pixels: &'a [u8],
    /// The framebuffer's indices now: a pixel the host drew over since (the pause menu) is
    /// no longer the overlay's, and shows as the frame's.
    pub frame: &'a [u8],
    /// The palette the overlay's indices are shown through.
    pub palette: &'a Palette,
}

impl OverlayLayer<'_> {
    /// Paints the overlay's pixels over `rgba`, the frame `width` display pixels wide as
    /// opaque RGBA with each display pixel a `scale × scale` block. Pixels past `rgba` are
    /// left.
    pub fn paint(&self, rgba: &mut [u8], width: u32, scale: u32) {
        let (w, s) = (width.max(1), scale.max(1));
        let h = (self.frame.len() / w as usize) as u32;
        self.paint_at(rgba, (w, h), (w * s, h * s));
    }

    /// Paints the overlay's pixels over `rgba`, a picture of `output` size showing the
    /// `display`-sized frame: each display pixel over the output pixels it covers, at any
    /// output size. Pixels past `rgba` are left.
    pub fn paint_at(&self, rgba: &mut [u8], display: (u32, u32), output: (u32, u32)) {
        let (dw, dh) = (u64::from(display.0.max(1)), u64::from(display.1.max(1)));
        let (ow, oh) = (u64::from(output.0), u64::from(output.1));
        let span = |i: u64, d: u64, o: u64| (i * o / d) as usize..((i + 1) * o / d) as usize;
        let colors = self.palette.colors();
        for (i, (&index, &now)) in self.pixels.iter().zip(self.frame).enumerate() {
            if index == 0 || now != index {
                continue;
            }
            let c = colors
                .get(usize::from(index))
                .map_or(Default::default(), |c| c.shown());
            let px = [c.r, c.g, c.b, 255];
            let (x, y) = (i as u64 % dw, i as u64 / dw);
            let cols = span(x, dw, ow);
            for row in span(y, dh, oh) {
                let start = (row * ow as usize + cols.start) * 4;
                if let Some(block) = rgba.get_mut(start..start + cols.len() * 4) {
                    for d in block.chunks_exact_mut(4) {
                        d.copy_from_slice(&px);
                    }
                }
            }
        }
    }
}

/// The framebuffer through the palette as opaque RGBA, each pixel repeated `scale × scale` times.
///
/// # Errors
/// [`CaptureError::Scale`] unless `1 <= scale <= MAX_SCALE`.
pub fn to_rgba(fb: &Framebuffer, palette: &Palette, scale: u32) -> Result<Vec<u8>, CaptureError> {
    to_rgba_under(fb, palette, None, scale)
}

/// [`to_rgba`], with the host's overlay painted over it in its own colours.
///
/// # Errors
/// As [`to_rgba`].
pub fn to_rgba_under(
    fb: &Framebuffer,
    palette: &Palette,
    overlay: Option<OverlayLayer<'_>>,
    scale: u32,
) -> Result<Vec<u8>, CaptureError> {
    if !(1..=MAX_SCALE).contains(&scale) {
        return Err(CaptureError::Scale(scale));
    }
    let (width, height) = (fb.width(), fb.height());
    let pixels = u64::from(width) * u64::from(height) * u64::from(scale) * u64::from(scale);
    if pixels > MAX_OUTPUT_PIXELS {
        return Err(CaptureError::TooLarge {
            width,
            height,
            scale,
            pixels,
        });
    }
    let (w, h) = (width as usize, height as usize);
    let mut base = vec![0u8; w * h * 4];
    palette.write_rgba(fb.pixels(), &mut base);
    if let Some(overlay) = overlay {
        overlay.paint(&mut base, width, 1);
    }
    if scale == 1 {
        return Ok(base);
    }
    let s = scale as usize;
    let row_bytes = w * s * 4;
    let mut out = vec![0u8; row_bytes * h * s];
    for (y, src_row) in base.chunks_exact(w * 4).enumerate() {
        let first = y * s * row_bytes;
        let dst = &mut out[first..first + row_bytes];
        for (px, chunk) in src_row.chunks_exact(4).zip(dst.chunks_exact_mut(4 * s)) {
            for d in chunk.chunks_exact_mut(4) {
                d.copy_from_slice(px);
            }
        }
        for k in 1..s {
            out.copy_within(first..first + row_bytes, first + k * row_bytes);
        }
    }
    Ok(out)
}

/// The framebuffer as PNG bytes.
///
/// # Errors
/// [`CaptureError::Scale`] or [`CaptureError::Encode`].
pub fn encode_png(
    fb: &Framebuffer,
    palette: &Palette,
    scale: u32,
) -> Result<Vec<u8>, CaptureError> {
    encode_png_under(fb, palette, None, scale)
}

/// [`encode_png`], with the host's overlay painted over the frame in its own colours.
///
/// # Errors
/// As [`encode_png`].
pub fn encode_png_under(
    fb: &Framebuffer,
    palette: &Palette,
    overlay: Option<OverlayLayer<'_>>,
    scale: u32,
) -> Result<Vec<u8>, CaptureError> {
    let rgba = to_rgba_under(fb, palette, overlay, scale)?;
    encode_rgba_png(&rgba, fb.width() * scale, fb.height() * scale)
}

/// Opaque RGBA pixels of a `width × height` picture (such as [`crate::Engine::render_output`]
/// makes) as PNG bytes.
///
/// # Errors
/// [`CaptureError::Encode`], also for pixels that are not `width × height × 4` bytes.
pub fn encode_rgba_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, CaptureError> {
    let mut png = Vec::new();
    write_rgba_png(&mut png, rgba, width, height)?;
    Ok(png)
}

/// An 8-bit indexed PNG: `pixels` are palette numbers, one byte each, row by row; `palette`
/// is its colours (`[r, g, b]` each, at most 256); `transparent` gives the alpha of the first
/// entries (a `tRNS` chunk: `[0]` makes number 0 see-through), empty for none. The picture a
/// sprite sheet is kept as: `bt new`'s starter, `bt import`'s sheets.
///
/// # Errors
/// [`CaptureError::Encode`], also for pixels that are not `width × height` bytes or a palette
/// of no colours or over 256.
pub fn encode_indexed_png(
    pixels: &[u8],
    (width, height): (u32, u32),
    palette: &[[u8; 3]],
    transparent: &[u8],
) -> Result<Vec<u8>, CaptureError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    if !transparent.is_empty() {
        encoder.set_trns(transparent.to_vec());
    }
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()?;
    Ok(out)
}

/// Opaque RGBA pixels of a `width × height` picture as PNG, written to `out` as they are
/// encoded: no copy of the file is held besides the encoder's.
///
/// # Errors
/// [`CaptureError::Encode`], also for pixels that are not `width × height × 4` bytes, and for
/// a failed write.
pub fn write_rgba_png(
    out: impl std::io::Write,
    rgba: &[u8],
    width: u32,
    height: u32,
) -> Result<(), CaptureError> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // Quick deflate and a filter chosen per row: the settings BT's PNGs have always had, so a
    // screenshot of a frame is the same file in every version.
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

/// Encodes the framebuffer and writes it to `path`, which must end in `.png` (or be `-`, a
/// device or a FIFO), as every output is written (see [`crate::export::safe_write`]).
///
/// # Errors
/// Any [`CaptureError`]; [`CaptureError::Output`] for another name.
pub fn save_png(
    fb: &Framebuffer,
    palette: &Palette,
    scale: u32,
    path: &Path,
) -> Result<(), CaptureError> {
    let output = Output::new(path, Format::Png)?;
    Ok(output.write(&encode_png(fb, palette, scale)?)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_repeats_each_pixel_in_a_square() {
        let mut fb = Framebuffer::new(2, 1);
        fb.draw_pixel(1, 0, 8);
        let pal = Palette::pico8();
        let rgba = to_rgba(&fb, &pal, 2).unwrap();
        assert_eq!(rgba.len(), 4 * 2 * 4);
        let red = [0xff, 0x00, 0x4d, 0xff];
        let black = [0, 0, 0, 0xff];
        let px: Vec<&[u8]> = rgba.chunks(4).collect();
        assert_eq!(
            px,
            [&black[..], &black, &red, &red, &black, &black, &red, &red]
        );
    }

    #[test]
    fn a_picture_too_large_to_hold_is_refused_before_allocating() {
        let fb = Framebuffer::new(4096, 4096);
        let err = to_rgba(&fb, &Palette::pico8(), 16).unwrap_err();
        assert!(matches!(
            err,
            CaptureError::TooLarge {
                pixels: 4_294_967_296,
                ..
            }
        ));
        assert!(
            err.to_string().contains("4096x4096 display at scale 16"),
            "{err}"
        );
        assert!(to_rgba(&Framebuffer::new(64, 64), &Palette::pico8(), 16).is_ok());
    }

    #[test]
    fn bad_scale_is_named() {
        let fb = Framebuffer::new(2, 2);
        let err = to_rgba(&fb, &Palette::pico8(), 0).unwrap_err();
        assert_eq!(err.to_string(), "scale must be between 1 and 16, got 0");
        assert!(matches!(
            to_rgba(&fb, &Palette::pico8(), 17),
            Err(CaptureError::Scale(17))
        ));
    }

    #[test]
    fn png_round_trips_through_a_decoder_header() {
        let fb = Framebuffer::new(3, 2);
        let png = encode_png(&fb, &Palette::pico8(), 1).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR width and height.
        assert_eq!(&png[16..24], &[0, 0, 0, 3, 0, 0, 0, 2]);
    }
}
