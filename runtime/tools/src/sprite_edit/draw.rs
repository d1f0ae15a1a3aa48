//! What the editor draws itself: the zoomed sprite on its grid, the sheet view and its scroll
//! bars, the animation preview and the status line, then the widgets of
//! [`super::chrome`] over them; or the help screen. Nothing here allocates: numbers are
//! formatted straight onto the screen.

use bt::{Rect, Render};

use super::editor::{SpriteEditor, KEYS};
use super::layout::{CANVAS, HELP_ROWS, LINE, PREVIEW, SCROLL_ACROSS, SCROLL_DOWN, SHEET, STATUS};

/// PICO-8 colour numbers of the editor's own parts (the console slot each shows in is the
/// editor's `ui_color`).
const BLACK: usize = 0;
const DARK: usize = 1;
const GREY: usize = 5;
const LIGHT: usize = 6;
const WHITE: usize = 7;
const YELLOW: usize = 10;

/// Fills `r` with a sheet's colour `p`: colour 0 too, which the console's shapes leave out
/// (index 0 draws nothing), so it is cleared to instead.
fn fill(ctx: &mut Render<'_>, r: Rect, p: u8) {
    if p == 0 {
        ctx.clear_rect(r, 0);
    } else {
        ctx.draw_rect_fill(r, p);
    }
}

pub(super) fn draw(ed: &SpriteEditor, ctx: &mut Render<'_>) {
    let c = |i: usize| ed.ui_color[i];
    ctx.clear(c(BLACK));
    if ed.help > 0 {
        draw_help(ed, ctx);
        return;
    }
    let t = &ed.tabs[ed.tab];
    let sheet = &t.sheet;
    let s = t.sprite;
    let z = ed.zoom();

    // The sprite's frame and the preview's, in the editor's grey.
    for r in [CANVAS, PREVIEW] {
        ctx.draw_rect(Rect::new(r.x - 1, r.y - 1, r.w + 2, r.h + 2), c(GREY));
    }

    // The canvas: each pixel a square, a pixel's gap showing the grid when zoomed in.
    ctx.draw_rect_fill(CANVAS, c(DARK));
    let gap = i32::from(z >= 8);
    for y in 0..s.h.min(CANVAS.h / z) {
        for x in 0..s.w.min(CANVAS.w / z) {
            let p = sheet.get(s.x + x, s.y + y).unwrap_or(0);
            let r = Rect::new(CANVAS.x + x * z, CANVAS.y + y * z, z - gap, z - gap);
            fill(ctx, r, p);
        }
    }
    if let Some(m) = t.marquee {
        let r = Rect::new(
            CANVAS.x + (m.x - s.x) * z - 1,
            CANVAS.y + (m.y - s.y) * z - 1,
            m.w * z + 1,
            m.h * z + 1,
        );
        ctx.draw_rect(r, c(YELLOW));
    }

    // The sheet at its size, the sprite outlined.
    ctx.draw_rect_fill(SHEET, c(DARK));
    let (sx, sy) = t.scroll;
    let (sz, (vw, vh)) = ed.sheet_view();
    for y in 0..vh.min(sheet.height() as i32 - sy) {
        for x in 0..vw.min(sheet.width() as i32 - sx) {
            let p = sheet.get(sx + x, sy + y).unwrap_or(0);
            fill(
                ctx,
                Rect::new(SHEET.x + x * sz, SHEET.y + y * sz, sz, sz),
                p,
            );
        }
    }
    let clip = ctx.clip();
    ctx.set_clip(Rect::new(
        SHEET.x - 1,
        SHEET.y - 1,
        SHEET.w + 2,
        SHEET.h + 2,
    ));
    ctx.draw_rect(
        Rect::new(
            SHEET.x + (s.x - sx) * sz - 1,
            SHEET.y + (s.y - sy) * sz - 1,
            s.w * sz + 2,
            s.h * sz + 2,
        ),
        c(WHITE),
    );
    ctx.set_clip(clip);
    let (w, h) = (sheet.width() as i32, sheet.height() as i32);
    scroll_bar(ctx, SCROLL_ACROSS, sx, vw, w, true, c(DARK), c(LIGHT));
    scroll_bar(ctx, SCROLL_DOWN, sy, vh, h, false, c(DARK), c(LIGHT));

    // The animation preview: `frames` sprites from the selected one, along the sheet.
    let frame = if ed.preview {
        (ed.ticks * ed.rate as u64 / 60 % ed.frames as u64) as i32
    } else {
        0
    };
    let cols = (sheet.width() as i32 / s.w.max(1)).max(1);
    let at = s.x / s.w.max(1) + s.y / s.h.max(1) * cols + frame;
    let (fx, fy) = (at % cols * s.w, at / cols * s.h);
    let pz = (PREVIEW.w / s.w.max(1)).min(PREVIEW.h / s.h.max(1)).max(1);
    for y in 0..s.h.min(PREVIEW.h) {
        for x in 0..s.w.min(PREVIEW.w) {
            if let Some(p) = sheet.get(fx + x, fy + y) {
                let r = Rect::new(PREVIEW.x + x * pz, PREVIEW.y + y * pz, pz, pz);
                if r.x < PREVIEW.x + PREVIEW.w && r.y < PREVIEW.y + PREVIEW.h {
                    fill(ctx, r, p);
                }
            }
        }
    }

    // The status line: the last message, or where the pointer is and what is chosen.
    ctx.draw_rect_fill(STATUS, c(DARK));
    if let Some(status) = ed.fresh_status() {
        ctx.print(2, STATUS.y, status, c(WHITE));
    } else {
        let id = t.sprite_id().unwrap_or(0);
        ctx.print(
            2,
            STATUS.y,
            format_args!(
                "#{id} {}x{} at {},{}  colour {}  {}bit  ? help",
                s.w,
                s.h,
                s.x,
                s.y,
                t.color,
                sheet.depth()
            ),
            c(LIGHT),
        );
    }
    if let Some(ui) = &ed.ui {
        ui.draw(ctx);
    }
}

/// A scroll bar in `bar`: its track, and a thumb as long along it as the `view`'s share of the
/// sheet's `length`, at the place of `at`, the first pixel shown.
#[allow(clippy::too_many_arguments)]
fn scroll_bar(
    ctx: &mut Render<'_>,
    bar: Rect,
    at: i32,
    view: i32,
    length: i32,
    across: bool,
    track: u8,
    thumb: u8,
) {
    ctx.draw_rect_fill(bar, track);
    let along = if across { bar.w } else { bar.h };
    let length = length.max(1);
    let size = (view.min(length) * along / length).max(2);
    let from = at * along / length;
    let r = if across {
        Rect::new(bar.x + from, bar.y + 1, size, bar.h - 2)
    } else {
        Rect::new(bar.x + 1, bar.y + from, bar.w - 2, size)
    };
    ctx.draw_rect_fill(r, thumb);
}

fn draw_help(ed: &SpriteEditor, ctx: &mut Render<'_>) {
    let c = |i: usize| ed.ui_color[i];
    let page = ed.help - 1;
    for (row, (key, what)) in KEYS
        .iter()
        .skip(page * HELP_ROWS)
        .take(HELP_ROWS)
        .enumerate()
    {
        let y = 2 + row as i32 * LINE;
        ctx.print(4, y, key, c(YELLOW));
        ctx.print(82, y, what, c(WHITE));
    }
    let pages = KEYS.len().div_ceil(HELP_ROWS);
    ctx.print(
        4,
        STATUS.y,
        format_args!("help {}/{pages}: ? next page, Escape closes", page + 1),
        c(LIGHT),
    );
}
