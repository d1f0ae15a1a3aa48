//! The blitter: draws part of a [`SpriteSheet`] into a [`Framebuffer`] in any of eight
//! orientations, at a whole-number scale, with a palette offset, a colour key and the pen's
//! remap. It clips once up front, then runs tight loops over whole rows. The common case (key
//! index 0 alone, no remap) blends with a select the compiler vectorises; any other key or a
//! remap goes through one lookup table built per run of draws that share it.

use crate::draw::blend_row_table;
use crate::draw::{Bounds, Framebuffer, Rect};
use crate::draw::{SpriteParams, SpriteSheet, FLIP_H, FLIP_V, ROT_180, ROT_270, ROT_90};

/// The flag bits that turn or mirror.
const ORIENT: u8 = FLIP_H | FLIP_V | ROT_90 | ROT_180 | ROT_270;

/// How a row of stored indices lands on the screen.
trait Ink: Copy {
    fn blend(self, dst: &mut [u8], src: &[u8]);

    /// [`Ink::blend`] of a row of exactly 8 pixels.
    #[inline(always)]
    fn blend8(self, dst: &mut [u8; 8], src: &[u8; 8]) {
        self.blend(dst, src);
    }

    /// [`Ink::blend`] of a row of exactly 16 pixels.
    #[inline(always)]
    fn blend16(self, dst: &mut [u8; 16], src: &[u8; 16]) {
        self.blend(dst, src);
    }

    /// [`Ink::blend`] over a block of `width × rows` pixels: row `r` of `src` starts at
    /// `src_at.0 + r × src_at.1` and lands at `dst_at.0 + r × dst_at.1`.
    #[inline(always)]
    fn blend_block(
        self,
        dst: &mut [u8],
        dst_at: (usize, usize),
        src: &[u8],
        src_at: (usize, usize),
        size: (usize, usize),
    ) {
        blend_any(dst, dst_at, src, src_at, size, self);
    }
}

/// Index 0 see-through, the rest plus an offset.
#[derive(Clone, Copy)]
struct Offset(u8);

impl Ink for Offset {
    #[inline(always)]
    fn blend(self, dst: &mut [u8], src: &[u8]) {
        blend_row(dst, src, self.0);
    }

    #[inline(always)]
    fn blend8(self, dst: &mut [u8; 8], src: &[u8; 8]) {
        blend8(dst, src, self.0);
    }

    #[inline(always)]
    fn blend16(self, dst: &mut [u8; 16], src: &[u8; 16]) {
        blend16(dst, src, self.0);
    }

    /// Rows 8 and 16 pixels wide, the sizes most sprites and tiles have, get a loop of their
    /// own with the width fixed, so each row is one group of [`blend8`] or [`blend16`].
    #[inline(always)]
    fn blend_block(
        self,
        dst: &mut [u8],
        dst_at: (usize, usize),
        src: &[u8],
        src_at: (usize, usize),
        (width, rows): (usize, usize),
    ) {
        match width {
            16 => offset_rows16(dst, dst_at, src, src_at, rows, self.0),
            8 => offset_rows8(dst, dst_at, src, src_at, rows, self.0),
            _ => blend_any(dst, dst_at, src, src_at, (width, rows), self),
        }
    }
}

/// Through the lookup table of `pen.rs`.
#[derive(Clone, Copy)]
struct Table<'t>(&'t [u16; 256]);

impl Ink for Table<'_> {
    #[inline(always)]
    fn blend(self, dst: &mut [u8], src: &[u8]) {
        blend_row_table(dst, src, self.0);
    }
}

/// An orientation as a map from sprite-local pixels `l` to drawn pixels `o = M·l + t`, with `M`
/// a signed permutation matrix (so its inverse is its transpose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Orientation {
    m: [[i64; 2]; 2],
    t: [i64; 2],
    /// The drawn size.
    pub(crate) size: (i64, i64),
}

impl Orientation {
    pub(crate) fn new(flags: u8, w: i64, h: i64) -> Orientation {
        let mut o = Orientation {
            m: [[1, 0], [0, 1]],
            t: [0, 0],
            size: (w, h),
        };
        if flags & FLIP_H != 0 {
            o.m[0] = [-o.m[0][0], -o.m[0][1]];
            o.t[0] = o.size.0 - 1 - o.t[0];
        }
        if flags & FLIP_V != 0 {
            o.m[1] = [-o.m[1][0], -o.m[1][1]];
            o.t[1] = o.size.1 - 1 - o.t[1];
        }
        let turns = (u32::from(flags & ROT_90 != 0)
            + 2 * u32::from(flags & ROT_180 != 0)
            + 3 * u32::from(flags & ROT_270 != 0))
            % 4;
        for _ in 0..turns {
            // A quarter turn clockwise: (x, y) -> (H - 1 - y, x) in an image H pixels high.
            let [row0, row1] = o.m;
            o.m = [[-row1[0], -row1[1]], row0];
            o.t = [o.size.1 - 1 - o.t[1], o.t[0]];
            o.size = (o.size.1, o.size.0);
        }
        o
    }

    pub(crate) fn forward(&self, x: i64, y: i64) -> (i64, i64) {
        (
            self.m[0][0] * x + self.m[0][1] * y + self.t[0],
            self.m[1][0] * x + self.m[1][1] * y + self.t[1],
        )
    }

    /// The sprite-local pixel drawn at `(u, v)`.
    pub(crate) fn inverse(&self, u: i64, v: i64) -> (i64, i64) {
        let (a, b) = (u - self.t[0], v - self.t[1]);
        (
            self.m[0][0] * a + self.m[1][0] * b,
            self.m[0][1] * a + self.m[1][1] * b,
        )
    }
}

/// Copies `src` over `dst` where `src` is not 0, adding `offset` (capped at 255): the rule every
/// fast path below follows, pixel by pixel.
#[inline(always)]
fn blend_pixel(d: &mut u8, s: u8, offset: u8) {
    *d = if s == 0 { *d } else { s.saturating_add(offset) };
}

/// [`blend_pixel`] along a row: groups of 16 pixels through [`blend16`], then one group of 8
/// through [`blend8`], then the last few one by one.
#[inline(always)]
fn blend_row(dst: &mut [u8], src: &[u8], offset: u8) {
    let n = dst.len().min(src.len());
    if n < 8 {
        for (d, &s) in dst.iter_mut().zip(src) {
            blend_pixel(d, s, offset);
        }
        return;
    }
    let mut dst16 = dst[..n].chunks_exact_mut(16);
    let mut src16 = src[..n].chunks_exact(16);
    for (d, s) in (&mut dst16).zip(&mut src16) {
        if let (Ok(d), Ok(s)) = (d.try_into(), s.try_into()) {
            blend16(d, s, offset);
        }
    }
    let (mut dst, mut src) = (dst16.into_remainder(), src16.remainder());
    if dst.len() >= 8 && src.len() >= 8 {
        let ((d, dr), (s, sr)) = (dst.split_at_mut(8), src.split_at(8));
        if let (Ok(d), Ok(s)) = (d.try_into(), s.try_into()) {
            blend8(d, s, offset);
        }
        (dst, src) = (dr, sr);
    }
    for (d, &s) in dst.iter_mut().zip(src) {
        blend_pixel(d, s, offset);
    }
}

/// [`blend_pixel`] on 16 pixels at once.
///
/// Written so the compiler makes straight vector code of it (on x86-64: one compare with zero,
/// one saturating add, one select, no branch): whole arrays are copied in and out, and the
/// select is a mask. The obvious `if s == 0 { d } else { … }` per byte, with the width fixed,
/// is unrolled into sixteen branches instead.
#[inline(always)]
fn blend16(dst: &mut [u8; 16], src: &[u8; 16], offset: u8) {
    let (s, d) = (*src, *dst);
    let mut out = [0u8; 16];
    for i in 0..16 {
        let keep = 0u8.wrapping_sub(u8::from(s[i] == 0));
        out[i] = (d[i] & keep) | (s[i].saturating_add(offset) & !keep);
    }
    *dst = out;
}

/// [`blend_pixel`] on 8 pixels at once, as one 64-bit word.
///
/// The compiler's vector code for 8 lanes packs its result back byte by byte; word arithmetic
/// that keeps each byte's carries to itself is shorter: a mask of the bytes that are not 0, a
/// per-byte saturating add of the offset, and a select through the mask.
#[inline(always)]
fn blend8(dst: &mut [u8; 8], src: &[u8; 8], offset: u8) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = !LOW7;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (s, d) = (u64::from_le_bytes(*src), u64::from_le_bytes(*dst));
    // The top bit of each byte of `s` that is not 0, then that byte all ones.
    let set = (((s & LOW7) + LOW7) | s) & HIGH;
    let draw = (set >> 7) * 0xff;
    let value = if offset == 0 {
        s
    } else {
        let o = u64::from(offset) * ONES;
        // Add the low seven bits of each byte, then fix the top bit; a byte whose top bit
        // carries out saturates at 255.
        let low = (s & LOW7) + (o & LOW7);
        let sum = low ^ ((s ^ o) & HIGH);
        let carry = ((s & o) | (low & (s | o))) & HIGH;
        sum | ((carry >> 7) * 0xff)
    };
    *dst = ((d & !draw) | (value & draw)).to_le_bytes();
}

/// The row `row` of a block, `N` pixels from `at.0 + row × at.1`, or `None` past the end.
#[inline(always)]
fn row_mut<const N: usize>(px: &mut [u8], at: (usize, usize), row: usize) -> Option<&mut [u8; N]> {
    px.get_mut(at.0 + row * at.1..)?.first_chunk_mut::<N>()
}

/// As [`row_mut`], to read.
#[inline(always)]
fn row<const N: usize>(px: &[u8], at: (usize, usize), row: usize) -> Option<&[u8; N]> {
    px.get(at.0 + row * at.1..)?.first_chunk::<N>()
}

/// [`Ink::blend_block`] of [`Offset`] for rows of 16 pixels.
///
/// Not inlined, and not generic: on its own the compiler makes each row one vector compare,
/// saturating add and select; inlined into the blitter it has been seen to vectorise only
/// part of the row and branch on the rest.
#[inline(never)]
fn offset_rows16(
    dst: &mut [u8],
    dst_at: (usize, usize),
    src: &[u8],
    src_at: (usize, usize),
    rows: usize,
    offset: u8,
) {
    for r in 0..rows {
        let (Some(d), Some(s)) = (row_mut::<16>(dst, dst_at, r), row::<16>(src, src_at, r)) else {
            return;
        };
        blend16(d, s, offset);
    }
}

/// [`blend_pixel`] on the first 8 of 16 pixels; the other 8 are left as they are.
///
/// The 16-lane form of [`blend16`] with the upper half always kept: the compiler sees that only
/// the lower half changes and makes one 8-byte load, compare, saturating add, select and store
/// of it, with none of the byte-by-byte repacking its 8-lane vector code ends in. The caller
/// needs 16 pixels of room after the row (in the sheet and on the screen) to ask for it.
#[inline(always)]
fn blend8_of16(dst: &mut [u8; 16], src: &[u8; 16], offset: u8) {
    let (s, d) = (*src, *dst);
    let mut out = [0u8; 16];
    for i in 0..16 {
        let keep = 0u8.wrapping_sub(u8::from(s[i] == 0 || i >= 8));
        out[i] = (d[i] & keep) | (s[i].saturating_add(offset) & !keep);
    }
    *dst = out;
}

/// [`offset_rows16`] for rows of 8 pixels: each row through [`blend8_of16`] where 16 pixels
/// fit from its start in both the sheet and the screen, else (the last rows of a sprite at the
/// sheet's or the screen's far corner) through [`blend8`].
#[inline(never)]
fn offset_rows8(
    dst: &mut [u8],
    dst_at: (usize, usize),
    src: &[u8],
    src_at: (usize, usize),
    rows: usize,
    offset: u8,
) {
    for r in 0..rows {
        if let (Some(d), Some(s)) = (row_mut::<16>(dst, dst_at, r), row::<16>(src, src_at, r)) {
            blend8_of16(d, s, offset);
            continue;
        }
        let (Some(d), Some(s)) = (row_mut::<8>(dst, dst_at, r), row::<8>(src, src_at, r)) else {
            return;
        };
        blend8(d, s, offset);
    }
}

/// `N` pixels of `px` from `first` on, `step` apart (negative to go back): a mirrored or turned
/// sprite's row, in the order it is drawn. Every index is inside `px`: the blitter clipped the
/// row to the sheet before asking.
#[inline(always)]
fn gather<const N: usize>(px: &[u8], first: usize, step: i64) -> [u8; N] {
    let mut row = [0u8; N];
    let mut i = first as i64;
    for g in &mut row {
        *g = px[i as usize];
        i += step;
    }
    row
}

/// [`gather`] with `step` -1 (a row mirrored left to right): the `N` stored pixels ending at
/// `first`, read as one array and reversed, which is one bounds check and a few vector
/// shuffles instead of `N` checked reads. `None` only if they are not all inside `px`.
#[inline(always)]
fn mirrored<const N: usize>(px: &[u8], first: usize) -> Option<[u8; N]> {
    let mut row = *px.get(first.checked_sub(N - 1)?..)?.first_chunk::<N>()?;
    row.reverse();
    Some(row)
}

/// [`Ink::blend16`] or [`Ink::blend8`] for `N` of 16 or 8, else [`Ink::blend`].
#[inline(always)]
fn blend_n<const N: usize, I: Ink>(ink: I, dst: &mut [u8; N], src: &[u8; N]) {
    let (dst, src) = (dst.as_mut_slice(), src.as_slice());
    if let (Ok(d), Ok(s)) = (
        <&mut [u8; 16]>::try_from(&mut *dst),
        <&[u8; 16]>::try_from(src),
    ) {
        ink.blend16(d, s);
    } else if let (Ok(d), Ok(s)) = (
        <&mut [u8; 8]>::try_from(&mut *dst),
        <&[u8; 8]>::try_from(src),
    ) {
        ink.blend8(d, s);
    } else {
        ink.blend(dst, src);
    }
}

/// The next 8 drawn rows of a turned sprite, `N` pixels each: pixel `k` of row `j` is the
/// sheet's pixel `first + k × step_u + j × step_v`, with `step_v` 1 or -1. So pixel `k` of
/// all 8 rows is a run of 8 neighbouring pixels of one sheet row: read as one word (reversed
/// for `step_v` -1) and spread over the rows, instead of 8 × `N` checked reads. `None` when
/// a run is not all inside `px`.
#[inline(always)]
fn turned_block<const N: usize>(
    px: &[u8],
    first: i64,
    step_u: i64,
    step_v: i64,
) -> Option<[[u8; N]; 8]> {
    let mut block = [[0u8; N]; 8];
    for k in 0..N {
        let at = first + k as i64 * step_u;
        let lo = usize::try_from(if step_v > 0 { at } else { at - 7 }).ok()?;
        let run = u64::from_le_bytes(*px.get(lo..)?.first_chunk::<8>()?);
        let run = if step_v > 0 { run } else { run.swap_bytes() };
        for (j, row) in block.iter_mut().enumerate() {
            row[k] = (run >> (8 * j)) as u8;
        }
    }
    Some(block)
}

/// The rows of a turned sprite `N` pixels wide ([`turned_block`]): `rows` rows from screen
/// index `at.0`, `at.1` apart, the first drawn row's pixels `first + k × step_u` and each next
/// row `step_v` (1 or -1) further. Whole groups of 8 rows through [`turned_block`], the rest
/// row by row through [`gather`].
#[inline(always)]
fn turned_rows<const N: usize, I: Ink>(
    dst: &mut [u8],
    (mut d, fw): (usize, usize),
    px: &[u8],
    (mut first, step_u, step_v): (i64, i64, i64),
    rows: usize,
    ink: I,
) {
    let mut left = rows;
    while left >= 8 {
        let Some(block) = turned_block::<N>(px, first, step_u, step_v) else {
            break;
        };
        for row in &block {
            let Some(out) = dst.get_mut(d..).and_then(|s| s.first_chunk_mut::<N>()) else {
                return;
            };
            blend_n(ink, out, row);
            d += fw;
        }
        first += 8 * step_v;
        left -= 8;
    }
    for _ in 0..left {
        let Some(out) = dst.get_mut(d..).and_then(|s| s.first_chunk_mut::<N>()) else {
            return;
        };
        blend_n(ink, out, &gather::<N>(px, first as usize, step_u));
        d += fw;
        first += step_v;
    }
}

/// The rows of a mirrored or turned sprite of any width `at.2`: `rows` rows from screen index
/// `at.0`, `at.1` apart, the first drawn row's pixels `first + k × step_u` and each next row
/// `step_v` further. A row read forwards (`step_u` 1) is blended where it is; any other is
/// gathered first, a chunk of at most `LINE` pixels at a time.
///
/// Not inlined: its buffer is set up only for the draws that come here.
#[inline(never)]
fn any_rows<I: Ink>(
    dst: &mut [u8],
    (mut d, fw, n): (usize, usize, usize),
    px: &[u8],
    (mut first, step_u, step_v): (i64, i64, i64),
    rows: usize,
    ink: I,
) {
    const LINE: usize = 256;
    let mut line = [0u8; LINE];
    for _ in 0..rows {
        let (Some(dst), at) = (dst.get_mut(d..d + n), first as usize) else {
            return;
        };
        d += fw;
        first += step_v;
        if step_u == 1 {
            if let Some(s) = px.get(at..at + n) {
                ink.blend(dst, s);
            }
            continue;
        }
        let mut i = at as i64;
        for chunk in dst.chunks_mut(LINE) {
            let gathered = &mut line[..chunk.len()];
            for g in gathered.iter_mut() {
                *g = px[i as usize];
                i += step_u;
            }
            ink.blend(chunk, gathered);
        }
    }
}

/// [`Ink::blend_block`] for any width and any ink.
///
/// Not inlined, on purpose: inlined into the blitter, the compiler can see a constant row width
/// for some callers and unrolls the row into one branch per pixel.
#[inline(never)]
fn blend_any<I: Ink>(
    dst: &mut [u8],
    dst_at: (usize, usize),
    src: &[u8],
    src_at: (usize, usize),
    (width, rows): (usize, usize),
    ink: I,
) {
    for row in 0..rows {
        let d = dst_at.0 + row * dst_at.1;
        let s = src_at.0 + row * src_at.1;
        let (Some(d), Some(s)) = (dst.get_mut(d..d + width), src.get(s..s + width)) else {
            return;
        };
        ink.blend(d, s);
    }
}

impl Framebuffer {
    /// Draws the part `src` of `sheet` with its top-left corner at `(x, y)` (the corner of the
    /// drawn picture, after any turn or mirror). See [`SpriteParams`]. The parts of `src` outside
    /// the sheet draw nothing, as do index-0 pixels.
    pub fn draw_sprite(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i32,
        y: i32,
        params: SpriteParams,
    ) {
        self.sprite_wide(sheet, src, x.into(), y.into(), params);
    }

    /// Draws tile `index` of `sheet` (see [`SpriteSheet::tile_rect`]); an index past the last
    /// tile draws nothing.
    pub fn draw_tile(&mut self, sheet: &SpriteSheet, index: u32, x: i32, y: i32, p: SpriteParams) {
        if let Some(src) = sheet.tile_rect(index) {
            self.sprite_wide(sheet, src, x.into(), y.into(), p);
        }
    }

    #[inline]
    pub(crate) fn sprite_wide(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        params: SpriteParams,
    ) {
        // The common case decided first and drawn here, so its call stays small: no turn, no
        // mirror, scale 1, index 0 see-through, no remap. The key is looked at where it is,
        // not copied.
        let zero_key = match &params.key {
            None => sheet.key_is_zero,
            Some(key) => key.is_zero_only(),
        };
        if zero_key && !self.pen.remapped && params.scale == 1 && params.flags & ORIENT == 0 {
            self.blit_plain(sheet, src, x, y, Offset(params.palette_offset));
        } else {
            self.sprite_other(sheet, src, x, y, params);
        }
    }

    /// Every draw but the common one: turned, mirrored or scaled, another key, or a remap.
    /// Kept out of line so its working memory is not set up for every plain sprite.
    #[inline(never)]
    fn sprite_other(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        params: SpriteParams,
    ) {
        let flags = params.flags & ORIENT;
        let key = params.key.unwrap_or(sheet.key);
        if key.is_zero_only() && !self.pen.remapped {
            let ink = Offset(params.palette_offset);
            if params.scale == 1 && flags == 0 {
                self.blit_plain(sheet, src, x, y, ink);
            } else {
                self.blit_general(sheet, src, x, y, flags, params.scale, ink);
            }
            return;
        }
        // Taken out while drawing, so the table and the pixels can be borrowed together; put
        // back after, so it is built once and kept.
        let key = params.key.unwrap_or(sheet.key);
        let mut table = self.ink.take().unwrap_or_default();
        table.prepare(key, params.palette_offset, &self.pen);
        let ink = Table(&table.value);
        if params.scale == 1 && flags == 0 {
            self.blit_plain(sheet, src, x, y, ink);
        } else {
            self.blit_general(sheet, src, x, y, flags, params.scale, ink);
        }
        self.ink = Some(table);
    }

    /// The common case: no turn, no mirror, scale 1. Clip once, then blend whole rows.
    #[inline(always)]
    fn blit_plain<I: Ink>(&mut self, sheet: &SpriteSheet, src: Rect, x: i64, y: i64, ink: I) {
        let (sx, sy) = (i64::from(src.x), i64::from(src.y));
        // Where the sheet's pixels would land, intersected with the source rectangle's and the
        // clip's: one box in screen space.
        let (ox, oy) = (x - sx, y - sy);
        let visible = Bounds {
            x0: sx.max(0) + ox,
            y0: sy.max(0) + oy,
            x1: (sx + i64::from(src.w)).min(i64::from(sheet.width)) + ox,
            y1: (sy + i64::from(src.h)).min(i64::from(sheet.height)) + oy,
        };
        let Some(b) = self
            .clip
            .intersect(visible.x0, visible.y0, visible.x1, visible.y1)
        else {
            return;
        };
        let n = (b.x1 - b.x0) as usize;
        let (fw, sw) = (self.width as usize, sheet.width as usize);
        let d0 = b.y0 as usize * fw + b.x0 as usize;
        let s0 = (b.y0 - oy) as usize * sw + (b.x0 - ox) as usize;
        let rows = (b.y1 - b.y0) as usize;
        ink.blend_block(
            &mut self.pixels,
            (d0, fw),
            &sheet.pixels,
            (s0, sw),
            (n, rows),
        );
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the blitter's own inner call: the sprite, where, and how"
    )]
    fn blit_general<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        src: Rect,
        x: i64,
        y: i64,
        flags: u8,
        scale: u32,
        ink: I,
    ) {
        let scale = i64::from(scale);
        let (w, h) = (i64::from(src.w), i64::from(src.h));
        if scale == 0 || w <= 0 || h <= 0 {
            return;
        }
        // Keep only the part of `src` on the sheet, and find where that part lands inside the
        // oriented whole.
        let (sx0, sy0) = (i64::from(src.x).max(0), i64::from(src.y).max(0));
        let sx1 = (i64::from(src.x) + w).min(i64::from(sheet.width));
        let sy1 = (i64::from(src.y) + h).min(i64::from(sheet.height));
        if sx0 >= sx1 || sy0 >= sy1 {
            return;
        }
        let whole = Orientation::new(flags, w, h);
        let (lx0, ly0) = (sx0 - i64::from(src.x), sy0 - i64::from(src.y));
        let a = whole.forward(lx0, ly0);
        let b = whole.forward(lx0 + (sx1 - sx0) - 1, ly0 + (sy1 - sy0) - 1);
        let part = Orientation::new(flags, sx1 - sx0, sy1 - sy0);
        let (x, y) = (x + a.0.min(b.0) * scale, y + a.1.min(b.1) * scale);
        let (ow, oh) = part.size;
        let Some(c) = self.clip.intersect(x, y, x + ow * scale, y + oh * scale) else {
            return;
        };

        let sw = sheet.width as i64;
        let index_of = |u: i64, v: i64| {
            let (lx, ly) = part.inverse(u, v);
            ((sy0 + ly) * sw + sx0 + lx) as usize
        };
        // Moving one drawn pixel right moves this far through the sheet's pixels.
        let step_u = part.m[0][0] + part.m[0][1] * sw;

        if scale == 1 {
            // Moving one drawn pixel down moves this far through the sheet's pixels.
            let step_v = part.m[1][0] + part.m[1][1] * sw;
            let first = index_of(c.x0 - x, c.y0 - y) as i64;
            self.blit_turned(sheet, c, first, (step_u, step_v), ink);
            return;
        }

        self.blit_scaled(sheet, c, (x, y), scale, (index_of, step_u), ink);
    }

    /// [`Self::blit_general`] at scale 1 (a mirrored or turned sprite), into the box `c` of the
    /// screen: the sheet pixel drawn at the box's top-left corner is `first`, and one drawn
    /// pixel right or down moves `step_u` or `step_v` through the sheet's pixels. Each drawn
    /// row is gathered in drawing order, then blended. Rows of 16 and 8 pixels, the common
    /// sprite widths, are gathered into arrays of their size, and rows mirrored left to right
    /// are read as one run and reversed ([`mirrored`]).
    ///
    /// The width and direction are decided once, each case with a loop of its own: decided
    /// row by row in one loop, the compiler has been seen to lay the gathers out worse.
    #[inline(never)]
    fn blit_turned<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        c: Bounds,
        first: i64,
        (step_u, step_v): (i64, i64),
        ink: I,
    ) {
        let (n, fw) = ((c.x1 - c.x0) as usize, self.width as usize);
        let px = &sheet.pixels;
        let mut d = c.y0 as usize * fw + c.x0 as usize;
        let mut first = first;
        if step_u == -1 && (n == 16 || n == 8) {
            // Mirrored left to right: each row is a run of stored pixels, reversed.
            for _ in c.y0..c.y1 {
                let (Some(dst), at) = (self.pixels.get_mut(d..d + n), first as usize) else {
                    return;
                };
                d += fw;
                first += step_v;
                if let Ok(dst) = <&mut [u8; 16]>::try_from(&mut *dst) {
                    ink.blend16(
                        dst,
                        &mirrored::<16>(px, at).unwrap_or_else(|| gather(px, at, -1)),
                    );
                } else if let Ok(dst) = <&mut [u8; 8]>::try_from(dst) {
                    ink.blend8(
                        dst,
                        &mirrored::<8>(px, at).unwrap_or_else(|| gather(px, at, -1)),
                    );
                }
            }
            return;
        }
        if (step_v == 1 || step_v == -1) && (n == 16 || n == 8) {
            // Turned: a drawn row runs down a column of the sheet.
            let (rows, at) = ((c.y1 - c.y0) as usize, (d, fw));
            if n == 16 {
                turned_rows::<16, I>(&mut self.pixels, at, px, (first, step_u, step_v), rows, ink);
            } else {
                turned_rows::<8, I>(&mut self.pixels, at, px, (first, step_u, step_v), rows, ink);
            }
            return;
        }
        let rows = (c.y1 - c.y0) as usize;
        any_rows(
            &mut self.pixels,
            (d, fw, n),
            px,
            (first, step_u, step_v),
            rows,
            ink,
        );
    }

    /// [`Self::blit_general`] at a scale above 1, into the box `c` of the screen, the drawn
    /// picture's corner at `at`: `index_of(u, v)` is the sheet pixel of drawn sprite pixel
    /// `(u, v)`, and `step_u` how far one drawn pixel to the right moves through the sheet.
    /// Each sprite pixel covers `scale` screen pixels of `scale` rows: each distinct drawn row
    /// is built once and blended onto every screen row that shows it.
    ///
    /// Kept out of line like [`Self::blit_turned`], so that each is compiled on its own: sharing
    /// one function, a change to either has been seen to change the other's code.
    #[inline(never)]
    fn blit_scaled<I: Ink>(
        &mut self,
        sheet: &SpriteSheet,
        c: Bounds,
        (x, y): (i64, i64),
        scale: i64,
        (index_of, step_u): (impl Fn(i64, i64) -> usize, i64),
        ink: I,
    ) {
        const LINE: usize = 256;
        // Room past the chunk for a run of up to `SHORT` pixels written whole.
        const SHORT: usize = 8;
        let fw = self.width as usize;
        let mut line = [0u8; LINE + SHORT];
        let mut py = c.y0;
        while py < c.y1 {
            let v = (py - y) / scale;
            let rows_end = (y + (v + 1) * scale).min(c.y1);
            let mut px0 = c.x0;
            while px0 < c.x1 {
                let px1 = (px0 + LINE as i64).min(c.x1);
                // One division per chunk; after that each run is one sprite pixel further.
                let (mut px, mut u) = (px0, (px0 - x) / scale);
                let mut i = index_of(u, v) as i64;
                while px < px1 {
                    let run_end = (x + (u + 1) * scale).min(px1);
                    let value = sheet.pixels[i as usize];
                    let at = (px - px0) as usize;
                    if scale <= SHORT as i64 {
                        // A short run as one word: the pixels past its end are written over
                        // by the next run, or lie past the chunk and are not blended.
                        line[at..at + SHORT].copy_from_slice(&[value; SHORT]);
                    } else {
                        line[at..(run_end - px0) as usize].fill(value);
                    }
                    px = run_end;
                    u += 1;
                    i += step_u;
                }
                let width = (px1 - px0) as usize;
                for row in py..rows_end {
                    let d = row as usize * fw + px0 as usize;
                    ink.blend(&mut self.pixels[d..d + width], &line[..width]);
                }
                px0 = px1;
            }
            py = rows_end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The blitter's rule, one screen pixel at a time, with none of its row routines: where
    /// screen pixel `(px, py)` inside the clip falls in the drawn sprite, the sheet pixel
    /// shown there (by [`Orientation::inverse`]), blended by [`blend_pixel`].
    fn per_pixel(
        fb: &mut Framebuffer,
        sheet: &SpriteSheet,
        src: Rect,
        at: (i64, i64),
        p: SpriteParams,
    ) {
        let scale = i64::from(p.scale);
        let (w, h) = (i64::from(src.w), i64::from(src.h));
        if scale == 0 || w <= 0 || h <= 0 {
            return;
        }
        let o = Orientation::new(p.flags & ORIENT, w, h);
        let c = fb.clip;
        for py in c.y0..c.y1 {
            for px in c.x0..c.x1 {
                let (dx, dy) = (px - at.0, py - at.1);
                if dx < 0 || dy < 0 || dx / scale >= o.size.0 || dy / scale >= o.size.1 {
                    continue;
                }
                let (lx, ly) = o.inverse(dx / scale, dy / scale);
                let (sx, sy) = (i64::from(src.x) + lx, i64::from(src.y) + ly);
                if sx < 0 || sy < 0 || sx >= i64::from(sheet.width) || sy >= i64::from(sheet.height)
                {
                    continue;
                }
                let s = sheet.pixels[(sy * i64::from(sheet.width) + sx) as usize];
                let i = (py * i64::from(fb.width) + px) as usize;
                blend_pixel(&mut fb.pixels[i], s, p.palette_offset);
            }
        }
    }

    /// A sprite draw with the row widths the row routines are written for (8 and 16) and the
    /// edge widths around them, any flags, scales 1 to 3 and 8 to 10 (either side of the
    /// short-run limit of the scaled rows), offsets that do and do not saturate, on a sheet
    /// of any size up to 40 × 40, at and past every side of a clip of any size.
    fn sprite_case() -> impl Strategy<Value = (SpriteSheet, Rect, (i32, i32), SpriteParams, Rect)> {
        let sheet = (1..=40u32, 1..=40u32).prop_flat_map(|(w, h)| {
            let px = proptest::collection::vec(
                prop_oneof![2 => Just(0u8), 3 => any::<u8>()],
                (w * h) as usize,
            );
            px.prop_map(move |px| SpriteSheet::from_indexed(w, h, px).expect("sized to fit"))
        });
        let side = || {
            prop_oneof![
                Just(8),
                Just(16),
                Just(7),
                Just(9),
                Just(15),
                Just(17),
                0..=24i32
            ]
        };
        let src =
            (-3..40i32, -3..40i32, side(), side()).prop_map(|(x, y, w, h)| Rect::new(x, y, w, h));
        let at = (-24..56i32, -24..48i32);
        let scale = prop_oneof![4 => Just(1u32), 2 => 2..=3u32, 1 => 8..=10u32];
        let offset = prop_oneof![Just(0u8), Just(1), Just(16), Just(200), Just(255)];
        let params = (0..32u8, scale, offset)
            .prop_map(|(f, s, o)| SpriteParams::new().flags(f).scale(s).offset(o));
        let clip = (-4..52i32, -4..44i32, 0..56i32, 0..48i32)
            .prop_map(|(x, y, w, h)| Rect::new(x, y, w, h));
        (sheet, src, at, params, clip)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Every row routine (the 8-pixel rows in 16 lanes and their fallback at the far corner,
        /// mirrored rows read as one reversed run, turned rows eight at a time, short scaled
        /// runs written as one word) draws what the per-pixel rule draws.
        #[test]
        fn sprites_draw_what_the_per_pixel_rule_draws((sheet, src, (x, y), p, clip) in sprite_case()) {
            let mut fast = Framebuffer::new(48, 40);
            for (i, px) in fast.pixels.iter_mut().enumerate() {
                *px = (i * 37 % 251) as u8;
            }
            fast.set_clip(clip);
            let mut want = fast.clone();
            fast.draw_sprite(&sheet, src, x, y, p);
            per_pixel(&mut want, &sheet, src, (x.into(), y.into()), p);
            prop_assert_eq!(fast.pixels(), want.pixels());
        }

        #[test]
        fn eight_pixels_in_sixteen_lanes_follow_the_pixel_rule_and_keep_the_rest(
            dst in any::<[u8; 16]>(),
            src in prop::array::uniform16(prop_oneof![Just(0u8), any::<u8>()]),
            offset in any::<u8>(),
        ) {
            let mut want = dst;
            for (d, &s) in want[..8].iter_mut().zip(&src) {
                blend_pixel(d, s, offset);
            }
            let mut got = dst;
            blend8_of16(&mut got, &src, offset);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn mirrored_and_turned_rows_gather_what_one_pixel_at_a_time_gathers(
            px in proptest::collection::vec(any::<u8>(), 1..300),
            first in 0..300i64,
            step_u in prop_oneof![Just(-1i64), -40..40i64],
            step_v in prop_oneof![Just(1i64), Just(-1i64)],
        ) {
            let at = |k: i64, j: i64| usize::try_from(first + k * step_u + j * step_v).ok().and_then(|i| px.get(i).copied());
            let row16: Option<Vec<u8>> = (0..16).map(|k| at(k, 0)).collect();
            if step_u == -1 {
                prop_assert_eq!(mirrored::<16>(&px, first as usize).map(Vec::from), row16.clone());
                let row8: Option<Vec<u8>> = (0..8).map(|k| at(k, 0)).collect();
                prop_assert_eq!(mirrored::<8>(&px, first as usize).map(Vec::from), row8);
            }
            if let Some(row) = &row16 {
                prop_assert_eq!(&gather::<16>(&px, first as usize, step_u)[..], &row[..]);
            }
            let block: Option<Vec<Vec<u8>>> = (0..8).map(|j| (0..16).map(|k| at(k, j)).collect()).collect();
            let got = turned_block::<16>(&px, first, step_u, step_v).map(|b| b.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
            prop_assert_eq!(got, block);
        }
    }

    /// A 3×2 sheet with every pixel distinct:
    /// ```text
    /// 1 2 3
    /// 4 5 6
    /// ```
    fn sheet() -> SpriteSheet {
        SpriteSheet::from_indexed(3, 2, vec![1, 2, 3, 4, 5, 6]).unwrap()
    }

    fn drawn(flags: u8) -> Vec<Vec<u8>> {
        let mut fb = Framebuffer::new(3, 3);
        fb.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().flags(flags),
        );
        let turns = u8::from(flags & ROT_90 != 0)
            + 2 * u8::from(flags & ROT_180 != 0)
            + 3 * u8::from(flags & ROT_270 != 0);
        let (w, h) = if turns % 2 == 1 { (2, 3) } else { (3, 2) };
        (0..h)
            .map(|y| (0..w).map(|x| fb.get(x, y).unwrap()).collect())
            .collect()
    }

    /// Every stored index against a destination pattern, at offsets that do and do not
    /// saturate: the 16- and 8-pixel groups and the row routine follow the pixel rule exactly.
    #[test]
    fn row_groups_follow_the_pixel_rule_for_every_index_and_offset() {
        for offset in [0u8, 1, 16, 100, 127, 128, 200, 255] {
            for start in (0..256usize).step_by(8) {
                let src: Vec<u8> = (0..40).map(|i| ((start + i * 7) % 256) as u8).collect();
                let dst: Vec<u8> = (0..40).map(|i| (i * 31 % 256) as u8).collect();
                let mut want = dst.clone();
                for (d, &s) in want.iter_mut().zip(&src) {
                    blend_pixel(d, s, offset);
                }
                let mut row = dst.clone();
                blend_row(&mut row, &src, offset);
                assert_eq!(row, want, "row, offset {offset}");
                let mut g16: [u8; 16] = dst[..16].try_into().unwrap();
                blend16(&mut g16, src[..16].try_into().unwrap(), offset);
                assert_eq!(g16[..], want[..16], "16 pixels, offset {offset}");
                let mut g8: [u8; 8] = dst[..8].try_into().unwrap();
                blend8(&mut g8, src[..8].try_into().unwrap(), offset);
                assert_eq!(g8[..], want[..8], "8 pixels, offset {offset}");
            }
        }
    }

    /// The fast 8- and 16-pixel loops and the any-width loop draw the same picture: a sprite
    /// of each width from 1 to 20 at every horizontal cut by the clip.
    #[test]
    fn every_width_draws_what_the_general_blitter_draws() {
        let px: Vec<u8> = (0..20 * 20).map(|i| ((i * 13) % 7) as u8).collect();
        let sheet = SpriteSheet::from_indexed(20, 20, px).unwrap();
        for w in 1..=20 {
            for x in [-7, -1, 0, 3, 25, 30] {
                for offset in [0, 9] {
                    let src = Rect::new(0, 0, w, 12);
                    let mut fast = Framebuffer::new(32, 16);
                    fast.clear(5);
                    fast.draw_sprite(&sheet, src, x, 2, SpriteParams::new().offset(offset));
                    // A remap that changes nothing drawn sends the draw through the table.
                    let mut table = Framebuffer::new(32, 16);
                    table.clear(5);
                    table.set_remap(250, 251);
                    table.draw_sprite(&sheet, src, x, 2, SpriteParams::new().offset(offset));
                    assert_eq!(fast.pixels(), table.pixels(), "width {w} at x {x}");
                }
            }
        }
    }

    #[test]
    fn the_eight_orientations() {
        assert_eq!(drawn(0), [[1, 2, 3], [4, 5, 6]]);
        assert_eq!(drawn(FLIP_H), [[3, 2, 1], [6, 5, 4]]);
        assert_eq!(drawn(FLIP_V), [[4, 5, 6], [1, 2, 3]]);
        assert_eq!(drawn(FLIP_H | FLIP_V), [[6, 5, 4], [3, 2, 1]]);
        assert_eq!(drawn(ROT_180), [[6, 5, 4], [3, 2, 1]]);
        assert_eq!(drawn(ROT_90), [[4, 1], [5, 2], [6, 3]]);
        assert_eq!(drawn(ROT_270), [[3, 6], [2, 5], [1, 4]]);
        // Flip first, then turn.
        assert_eq!(drawn(FLIP_H | ROT_90), [[6, 3], [5, 2], [4, 1]]);
        assert_eq!(drawn(FLIP_V | ROT_90), [[1, 4], [2, 5], [3, 6]]);
        // Turns add up modulo a full turn: 90 + 180 is 270, and 90 + 180 + 270 is 180.
        assert_eq!(drawn(ROT_90 | ROT_180), drawn(ROT_270));
        assert_eq!(drawn(ROT_90 | ROT_180 | ROT_270), drawn(ROT_180));
    }

    #[test]
    fn index_zero_is_see_through_and_offset_skips_it() {
        let s = SpriteSheet::from_indexed(2, 1, vec![0, 3]).unwrap();
        let mut fb = Framebuffer::new(2, 1);
        fb.clear(9);
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 2, 1),
            0,
            0,
            SpriteParams::new().offset(4),
        );
        assert_eq!(fb.pixels(), [9, 7]);
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 2, 1),
            0,
            0,
            SpriteParams::new().offset(255),
        );
        assert_eq!(fb.pixels(), [9, 255], "capped at 255");
    }

    #[test]
    fn scale_repeats_pixels_in_squares() {
        let mut fb = Framebuffer::new(6, 4);
        fb.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().scale(2),
        );
        assert_eq!(&fb.pixels()[..6], [1, 1, 2, 2, 3, 3]);
        assert_eq!(&fb.pixels()[6..12], [1, 1, 2, 2, 3, 3]);
        assert_eq!(&fb.pixels()[18..], [4, 4, 5, 5, 6, 6]);
        let mut none = Framebuffer::new(6, 4);
        none.draw_sprite(
            &sheet(),
            Rect::new(0, 0, 3, 2),
            0,
            0,
            SpriteParams::new().scale(0),
        );
        assert!(none.pixels().iter().all(|&p| p == 0));
    }

    #[test]
    fn source_outside_the_sheet_draws_nothing_there() {
        let mut fb = Framebuffer::new(5, 4);
        // One column and one row before the sheet: they are see-through, the rest lands at +1.
        fb.draw_sprite(&sheet(), Rect::new(-1, -1, 5, 5), 0, 0, SpriteParams::new());
        assert_eq!(fb.get(0, 0), Some(0));
        assert_eq!(fb.get(1, 1), Some(1));
        assert_eq!(fb.get(3, 2), Some(6));
        let mut turned = Framebuffer::new(5, 5);
        turned.draw_sprite(
            &sheet(),
            Rect::new(-1, 0, 4, 2),
            0,
            0,
            SpriteParams::new().flags(FLIP_H),
        );
        // Mirrored, the missing column is on the right.
        assert_eq!(turned.get(0, 0), Some(3));
        assert_eq!(turned.get(3, 0), Some(0));
    }

    #[test]
    fn extreme_arguments_do_not_panic() {
        let mut fb = Framebuffer::new(8, 8);
        let s = sheet();
        for &(x, y) in &[(i32::MIN, i32::MIN), (i32::MAX, i32::MAX), (-2, 7), (7, -1)] {
            for flags in 0..32 {
                for scale in [0, 1, 3, u32::MAX] {
                    for src in [
                        Rect::new(0, 0, 3, 2),
                        Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX),
                        Rect::new(i32::MAX, 0, i32::MAX, 5),
                        Rect::new(1, 1, -4, 9),
                    ] {
                        let p = SpriteParams::new().flags(flags).scale(scale);
                        fb.draw_sprite(&s, src, x, y, p);
                    }
                }
            }
        }
        fb.draw_sprite(
            &s,
            Rect::new(0, 0, 3, 2),
            6,
            6,
            SpriteParams::new().scale(u32::MAX),
        );
        assert_eq!(fb.get(6, 6), Some(1));
        assert_eq!(fb.get(7, 7), Some(1));
    }
}
