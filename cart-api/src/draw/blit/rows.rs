//! The blitter's row routines: how a row of stored indices lands on the screen (the inks),
//! and the loops over rows and blocks the compiler turns into vector code.

use super::*;

/// The flag bits that turn or mirror.
pub(super) const ORIENT: u8 = FLIP_H | FLIP_V | ROT_90 | ROT_180 | ROT_270;

/// How a row of stored indices lands on the screen.
pub(super) trait Ink: Copy {
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
pub(super) struct Offset(pub(super) u8);

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
pub(super) struct Table<'t>(pub(super) &'t [u16; 256]);

impl Ink for Table<'_> {
    #[inline(always)]
    fn blend(self, dst: &mut [u8], src: &[u8]) {
        blend_row_table(dst, src, self.0);
    }
}

/// Through the lookup table of `pen.rs`, then the blend table: the stored index's ink drawn
/// over what is there (`blend.rs`).
#[derive(Clone, Copy)]
pub(super) struct Blend<'t>(pub(super) &'t [u16; 256], pub(super) &'t [u8; 65536]);

impl Ink for Blend<'_> {
    #[inline(always)]
    fn blend(self, dst: &mut [u8], src: &[u8]) {
        for (d, &s) in dst.iter_mut().zip(src) {
            let v = self.0[usize::from(s)];
            if v < 256 {
                *d = self.1[usize::from(v as u8) << 8 | usize::from(*d)];
            }
        }
    }
}

/// Copies `src` over `dst` where `src` is not 0, adding `offset` (capped at 255): the rule every
/// fast path below follows, pixel by pixel.
#[inline(always)]
pub(super) fn blend_pixel(d: &mut u8, s: u8, offset: u8) {
    *d = if s == 0 { *d } else { s.saturating_add(offset) };
}

/// [`blend_pixel`] along a row: groups of 16 pixels through [`blend16`], then one group of 8
/// through [`blend8`], then the last few one by one.
#[inline(always)]
pub(super) fn blend_row(dst: &mut [u8], src: &[u8], offset: u8) {
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
pub(super) fn blend16(dst: &mut [u8; 16], src: &[u8; 16], offset: u8) {
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
pub(super) fn blend8(dst: &mut [u8; 8], src: &[u8; 8], offset: u8) {
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
pub(super) fn row_mut<const N: usize>(
    px: &mut [u8],
    at: (usize, usize),
    row: usize,
) -> Option<&mut [u8; N]> {
    px.get_mut(at.0 + row * at.1..)?.first_chunk_mut::<N>()
}

/// As [`row_mut`], to read.
#[inline(always)]
pub(super) fn row<const N: usize>(px: &[u8], at: (usize, usize), row: usize) -> Option<&[u8; N]> {
    px.get(at.0 + row * at.1..)?.first_chunk::<N>()
}

/// [`Ink::blend_block`] of [`Offset`] for rows of 16 pixels.
///
/// Not inlined, and not generic: on its own the compiler makes each row one vector compare,
/// saturating add and select; inlined into the blitter it has been seen to vectorise only
/// part of the row and branch on the rest.
#[inline(never)]
pub(super) fn offset_rows16(
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
pub(super) fn blend8_of16(dst: &mut [u8; 16], src: &[u8; 16], offset: u8) {
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
pub(super) fn offset_rows8(
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
pub(super) fn gather<const N: usize>(px: &[u8], first: usize, step: i64) -> [u8; N] {
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
pub(super) fn mirrored<const N: usize>(px: &[u8], first: usize) -> Option<[u8; N]> {
    let mut row = *px.get(first.checked_sub(N - 1)?..)?.first_chunk::<N>()?;
    row.reverse();
    Some(row)
}

/// [`Ink::blend16`] or [`Ink::blend8`] for `N` of 16 or 8, else [`Ink::blend`].
#[inline(always)]
pub(super) fn blend_n<const N: usize, I: Ink>(ink: I, dst: &mut [u8; N], src: &[u8; N]) {
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
pub(super) fn turned_block<const N: usize>(
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
pub(super) fn turned_rows<const N: usize, I: Ink>(
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
pub(super) fn any_rows<I: Ink>(
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
pub(super) fn blend_any<I: Ink>(
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
