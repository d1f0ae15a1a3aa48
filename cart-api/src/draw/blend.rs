//! Translucency for indexed colour: a [`BlendTable`] says what index each drawn index makes
//! over each index already on screen (ghosts, shadows, light), the way palette-indexed games
//! have always done it, with no colour arithmetic at draw time.

use std::fmt;

use crate::Palette;

/// What a pixel of index `src` drawn over a pixel of index `dst` becomes, for every pair: a
/// 256 × 256 table of palette indices (64 KiB). Set one with
/// [`Render::set_blend`](crate::Render::set_blend) and every later sprite, tile, map and
/// shape pixel lands as `table.get(src, dst)` instead of `src`, for the rest of the frame.
///
/// Build one by hand ([`BlendTable::set`], [`BlendTable::from_fn`]: a shadow that darkens
/// whatever it covers, a light that brightens it) or from the palette's colours
/// ([`BlendTable::mix`]: a ghost half as opaque, found by nearest colour).
///
/// ```
/// use bt::{BlendTable, Palette};
///
/// // A shadow: whatever is drawn, the pixel below becomes its darker neighbour in a ramp.
/// let darker = [0u8, 0, 1, 1, 2, 1, 5, 6, 2, 4, 9, 3, 1, 1, 2, 9];
/// let shadow = BlendTable::from_fn(|_src, dst| darker[usize::from(dst % 16)]);
/// assert_eq!(shadow.get(7, 7), 6);
///
/// // White (7) half over black (0) mixes to #807974, whose nearest PICO-8 colour is 13.
/// let ghost = BlendTable::mix(&Palette::pico8(), 0.5);
/// assert_eq!(ghost.get(7, 0), 13);
/// assert_eq!(ghost.get(8, 8), 8, "a colour over itself stays");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct BlendTable {
    /// `over[src × 256 + dst]`.
    pub(crate) over: Box<[u8; 65536]>,
}

impl Default for BlendTable {
    fn default() -> BlendTable {
        BlendTable::new()
    }
}

impl fmt::Debug for BlendTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlendTable").finish_non_exhaustive()
    }
}

impl BlendTable {
    /// The opaque table: `src` over anything is `src`.
    pub fn new() -> BlendTable {
        BlendTable::from_fn(|src, _| src)
    }

    /// The table of `f(src, dst)` for every pair.
    pub fn from_fn(mut f: impl FnMut(u8, u8) -> u8) -> BlendTable {
        let mut over = Box::new([0u8; 65536]);
        for (i, v) in over.iter_mut().enumerate() {
            *v = f((i >> 8) as u8, i as u8);
        }
        BlendTable { over }
    }

    /// `src` drawn `amount` of the way over `dst` (0 leaves `dst`, 1 draws `src`), each pair
    /// taking the palette slot whose colour is nearest ([`Palette::nearest_in`], slots 1 and
    /// up, so a blend never lands on the blank index 0) to the mix of their colours. The mix
    /// is worked in whole numbers, `amount` rounded to 1/256 (and a NaN taken as 0): channel
    /// `d + (s - d) × a / 256`, rounded half away from zero. Indices past the palette's end
    /// draw themselves.
    pub fn mix(palette: &Palette, amount: f32) -> BlendTable {
        let a = if amount.is_nan() {
            0
        } else {
            (amount.clamp(0.0, 1.0) * 256.0).round() as i32
        };
        let len = palette.len();
        let last = (len - 1).min(255) as u8;
        let colors = palette.colors();
        let mut table = BlendTable::new();
        if len < 2 {
            return table;
        }
        let mix = |s: u8, d: u8| {
            let lerp = |s: i32, d: i32| {
                let n = (s - d) * a;
                let r = if n >= 0 {
                    (n + 128) / 256
                } else {
                    -((-n + 128) / 256)
                };
                (d + r).clamp(0, 255) as u8
            };
            let (s, d) = (colors[usize::from(s)], colors[usize::from(d)]);
            crate::Color32::rgb(
                lerp(s.r.into(), d.r.into()),
                lerp(s.g.into(), d.g.into()),
                lerp(s.b.into(), d.b.into()),
            )
        };
        for s in 0..len {
            for d in 0..len {
                let (s8, d8) = (s as u8, d as u8);
                let c = mix(s8, d8);
                table.over[s * 256 + d] = palette.nearest_in(c, 1..=last).unwrap_or(s8);
            }
        }
        table
    }

    /// What `src` drawn over `dst` becomes.
    pub fn get(&self, src: u8, dst: u8) -> u8 {
        self.over[usize::from(src) << 8 | usize::from(dst)]
    }

    /// Makes `src` drawn over `dst` become `result`.
    pub fn set(&mut self, src: u8, dst: u8, result: u8) {
        self.over[usize::from(src) << 8 | usize::from(dst)] = result;
    }
}

impl crate::draw::Framebuffer {
    /// Makes every later shape, sprite, tile and map pixel land as `table.get(v, dst)`, where
    /// `v` is what it would have drawn (after the key, offset, remap and fill pattern) and
    /// `dst` the index already there. Text and `clear`, `clear_rect` are never blended. A pixel
    /// one call covers twice blends twice: a triangle's outline over its fill, the corners its
    /// edges share. The
    /// table is copied (into memory kept from the last one, so only the first call allocates):
    /// set it once for a run of draws rather than before each.
    pub fn set_blend(&mut self, table: &BlendTable) {
        match &mut self.pen.blend {
            Some(kept) => kept.over.copy_from_slice(&table.over[..]),
            None => self.pen.blend = Some(Box::new(table.clone())),
        }
        self.pen.blending = true;
    }

    /// Draws opaque again.
    pub fn reset_blend(&mut self) {
        self.pen.blending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Framebuffer, Rect, SpriteParams, SpriteSheet, Transform};
    use crate::{ColorKey, FillPattern, Rng};

    /// Every drawing call a test throws at the screen, chosen and placed at random.
    fn draw_something(fb: &mut Framebuffer, rng: &mut Rng, sheet: &SpriteSheet) -> u32 {
        let mut at = || (rng.int_range(-8, 40), rng.int_range(-8, 32));
        let (a, b, c) = (at(), at(), at());
        let src = Rect::new(0, 0, 12, 10);
        let kind = rng.int(9);
        match kind {
            0 => fb.draw_rect_fill(Rect::new(a.0, a.1, b.0, b.1), 9),
            1 => fb.draw_circle_fill(a.0, a.1, b.0 / 3, 10),
            2 => fb.draw_line(a, b, 11),
            3 => fb.draw_triangle_fill(a, b, c, 12),
            4 => fb.flood_fill(a.0, a.1, 13),
            5 => fb.draw_sprite(sheet, src, a.0, a.1, SpriteParams::new()),
            6 => fb.draw_sprite(
                sheet,
                src,
                a.0,
                a.1,
                SpriteParams::new().flags(5).scale(2).palette_offset(3),
            ),
            7 => fb.draw_sprite(
                sheet,
                src,
                a.0,
                a.1,
                SpriteParams::new().key(ColorKey::NONE),
            ),
            _ => {
                let t = Transform::new().angle(f64::from(b.0) * 0.1).scale(1.5);
                fb.draw_sprite_transformed(sheet, src, a.0, a.1, t, SpriteParams::new());
            }
        }
        kind
    }

    #[test]
    fn a_blended_draw_is_the_opaque_draw_put_through_the_table() {
        let mut rng = Rng::new(0xb1e4d);
        let px = (0..120)
            .map(|i| if i % 4 == 0 { 0 } else { (i % 7) as u8 + 1 })
            .collect();
        let sheet = SpriteSheet::from_indexed(12, 10, px).unwrap();
        let table = BlendTable::from_fn(|s, d| s.wrapping_mul(31).wrapping_add(d) | 1);
        for case in 0..2000 {
            let mut screen = Framebuffer::new(40, 32);
            for p in screen.pixels.iter_mut() {
                *p = rng.int(16) as u8;
            }
            if rng.bool() {
                screen.set_remap(rng.int(16) as u8, rng.int(16) as u8);
            }
            if rng.int(3) == 0 {
                screen.set_fill_pattern(FillPattern::new(0x5a5a), rng.bool().then_some(4));
            }
            // What the opaque draw writes: the pixels where it lands the same on two screens
            // that differ everywhere.
            let draw_seed = rng.next_u32();
            let mut opaque = screen.clone();
            let mut shifted = screen.clone();
            for p in shifted.pixels.iter_mut() {
                *p = p.wrapping_add(128);
            }
            draw_something(&mut opaque, &mut Rng::new(draw_seed.into()), &sheet);
            draw_something(&mut shifted, &mut Rng::new(draw_seed.into()), &sheet);
            let mut blended = screen.clone();
            blended.set_blend(&table);
            let kind = draw_something(&mut blended, &mut Rng::new(draw_seed.into()), &sheet);
            for i in 0..screen.pixels.len() {
                let drawn = opaque.pixels[i] == shifted.pixels[i];
                let want = if drawn {
                    table.get(opaque.pixels[i], screen.pixels[i])
                } else {
                    screen.pixels[i]
                };
                // A flood fill reads the screen it fills, and a triangle draws its outline over
                // its fill (so those pixels blend twice): both are left out here.
                if kind != 4 && kind != 3 {
                    assert_eq!(
                        blended.pixels[i], want,
                        "case {case} (kind {kind}), pixel {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn blending_lasts_until_reset_and_text_is_never_blended() {
        let mut fb = Framebuffer::new(12, 14);
        fb.clear(3);
        let shadow = BlendTable::from_fn(|_, d| d + 100);
        fb.set_blend(&shadow);
        fb.draw_pixel(0, 0, 7);
        fb.draw_pixel(0, 0, 7);
        assert_eq!(fb.get(0, 0), Some(203), "over itself: twice darker");
        fb.print(6, 0, "#", 7);
        assert!(fb.pixels().contains(&7), "text is opaque");
        fb.reset_blend();
        fb.draw_pixel(1, 0, 7);
        assert_eq!(fb.get(1, 0), Some(7));
        let mut other = fb.clone();
        other.set_blend(&BlendTable::new());
        assert_ne!(fb, other, "a pen blending is not a plain pen");
    }

    #[test]
    fn mixing_halfway_lands_on_the_nearest_colour_and_never_on_zero() {
        let pal = crate::Palette::pico8();
        let half = BlendTable::mix(&pal, 0.5);
        let none = BlendTable::mix(&pal, 0.0);
        let full = BlendTable::mix(&pal, 1.0);
        for s in 1..16u8 {
            for d in 1..16u8 {
                assert_eq!(none.get(s, d), d, "nothing of {s} over {d}");
                assert_eq!(full.get(s, d), s, "all of {s} over {d}");
                assert_ne!(half.get(s, d), 0);
            }
        }
        assert_eq!(half.get(200, 3), 200, "past the palette: drawn as is");
        assert_eq!(BlendTable::mix(&pal, f32::NAN), none);
    }
}
