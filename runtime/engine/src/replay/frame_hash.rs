//! The frame hash a replay stores every `hash_every` updates.

use bt::host::Framebuffer;
use bt::Palette;

/// FNV-1a 64-bit offset basis and prime (the published constants).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The hash of a frame as a replay stores it: FNV-1a 64 over the width and height (each as 4
/// little-endian bytes), then the framebuffer's palette indices row by row, then every colour of
/// the shown palette as `r, g, b, a` bytes. Two frames with the same hash show the same picture
/// (up to a collision); a palette effect that changes colours changes the hash.
///
/// ```
/// use bt::host::Framebuffer;
/// use bt::Palette;
/// use bt_engine::replay::frame_hash;
///
/// let mut fb = Framebuffer::new(4, 4);
/// let pal = Palette::pico8();
/// let blank = frame_hash(&fb, &pal);
/// fb.draw_pixel(1, 1, 7);
/// assert_ne!(frame_hash(&fb, &pal), blank);
/// ```
pub fn frame_hash(fb: &Framebuffer, palette: &Palette) -> u64 {
    let mut h = FNV_OFFSET;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
    };
    eat(&fb.width().to_le_bytes());
    eat(&fb.height().to_le_bytes());
    eat(fb.pixels());
    for c in palette.colors() {
        eat(&[c.r, c.g, c.b, c.a]);
    }
    h
}
