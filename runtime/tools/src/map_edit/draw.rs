//! What the editor draws: the map's layers, the palette, the minimap (the regions of the
//! widgets), the widgets over them, the status line and the help screen. Nothing here
//! allocates: names are sliced and numbers printed straight onto the screen.

use bt::{Font, Rect, Render, SpriteParams, FLIP_H, FLIP_V};

use super::editor::{minimap_scale, tile_of, MapEditor};
use super::layout::{DISPLAY, LINE, MAP_VIEW, MINIMAP, PALETTE, STATUS_Y};
use super::KEYS;

/// Colours, as indices of BT's default (PICO-8) palette.
const BAR: u8 = 1;
const TEXT: u8 = 6;
const BRIGHT: u8 = 7;
const CURSOR: u8 = 10;
const SELECTED: u8 = 12;
const FLAGS: u8 = 8;
const EMPTY: u8 = 0;
const GRID: u8 = 5;

/// Tiled's flip bits for left-right and top-bottom.
const TILED_H: u32 = 0x8000_0000;
const TILED_V: u32 = 0x4000_0000;

/// A line of the help screen, in the small font.
const HELP_LINE: i32 = 8;
/// A character of the small font.
const SMALL_CHAR: i32 = 4;

pub(super) fn draw(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.clear(EMPTY);
    if ed.help {
        draw_help(ctx);
        return;
    }
    draw_map(ed, ctx);
    draw_palette(ed, ctx);
    draw_minimap(ed, ctx);
    if let Some(ui) = &ed.ui {
        ui.draw(ctx);
    }
    draw_status(ed, ctx);
}

/// The status line: the last message (or a hint), then the cursor's cell and a mark for
/// edits not saved.
fn draw_status(ed: &MapEditor, ctx: &mut Render<'_>) {
    let w = DISPLAY.0 as i32;
    ctx.draw_rect_fill(Rect::new(0, STATUS_Y, w, LINE), BAR);
    let status = if ed.status.is_empty() {
        "? keys  Ctrl+S save  Ctrl+Z undo  Tab: next widget"
    } else {
        ed.status.as_str()
    };
    ctx.print(2, STATUS_Y + 1, short(status, 62), BRIGHT);
    ctx.print(
        w - 90,
        STATUS_Y + 1,
        format_args!("{},{}", ed.cursor.0, ed.cursor.1),
        TEXT,
    );
    if ed.is_dirty() {
        ctx.print(w - 10, STATUS_Y + 1, "*", CURSOR);
    }
}

/// `text` cut to `chars` characters (at a character's edge).
fn short(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn draw_cell(ed: &MapEditor, ctx: &mut Render<'_>, gid: u32, x: i32, y: i32) {
    let Some((tile, flips)) = tile_of(gid, ed.first_gid()) else {
        return;
    };
    let (cw, ch) = ed.cell_pixels();
    match &ed.sheet {
        Some(sheet) => {
            let mut flags = 0;
            if flips & TILED_H != 0 {
                flags |= FLIP_H;
            }
            if flips & TILED_V != 0 {
                flags |= FLIP_V;
            }
            let params = SpriteParams::new().flags(flags).scale(ed.zoom);
            ctx.draw_tile(sheet, tile, x, y, params);
        }
        None => ctx.draw_rect_fill(Rect::new(x, y, cw, ch), (tile % 15) as u8 + 1),
    }
}

fn draw_map(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.set_clip(MAP_VIEW);
    let (cw, ch) = ed.cell_pixels();
    let (vw, vh) = ed.view_cells();
    for (i, layer) in ed.doc.layers().iter().enumerate() {
        if ed.hidden.get(i) == Some(&true) {
            continue;
        }
        for row in 0..=vh {
            for col in 0..=vw {
                let (x, y) = (ed.view.0 + col, ed.view.1 + row);
                if let Some(gid) = layer.cell(x, y) {
                    draw_cell(ed, ctx, gid, MAP_VIEW.x + col * cw, MAP_VIEW.y + row * ch);
                }
            }
        }
    }
    if ed.show_flags {
        if let Some(layer) = ed.doc.layers().get(ed.layer) {
            for row in 0..=vh {
                for col in 0..=vw {
                    let gid = layer.cell(ed.view.0 + col, ed.view.1 + row).unwrap_or(0);
                    let Some((tile, _)) = tile_of(gid, ed.first_gid()) else {
                        continue;
                    };
                    let f = ed.flags(tile);
                    if f != 0 {
                        let (x, y) = (MAP_VIEW.x + col * cw, MAP_VIEW.y + row * ch);
                        ctx.draw_rect(Rect::new(x, y, cw, ch), FLAGS);
                        ctx.print(x + 1, y + 1, f, BRIGHT);
                    }
                }
            }
        }
    }
    let (w, h) = ed.doc.size();
    let edge = Rect::new(
        MAP_VIEW.x - ed.view.0 * cw,
        MAP_VIEW.y - ed.view.1 * ch,
        w as i32 * cw,
        h as i32 * ch,
    );
    ctx.draw_rect(edge, GRID);
    if let Some((a, b)) = ed.selection {
        let (lo, hi) = ((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1)));
        let r = Rect::new(
            MAP_VIEW.x + (lo.0 - ed.view.0) * cw,
            MAP_VIEW.y + (lo.1 - ed.view.1) * ch,
            (hi.0 - lo.0 + 1) * cw,
            (hi.1 - lo.1 + 1) * ch,
        );
        ctx.draw_rect(r, SELECTED);
    }
    let c = Rect::new(
        MAP_VIEW.x + (ed.cursor.0 - ed.view.0) * cw,
        MAP_VIEW.y + (ed.cursor.1 - ed.view.1) * ch,
        cw,
        ch,
    );
    ctx.draw_rect(c, CURSOR);
    ctx.reset_clip();
}

fn draw_palette(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.draw_rect_fill(PALETTE, BAR);
    ctx.set_clip(PALETTE);
    let (tw, th) = ed.doc.tile_size();
    let (tw, th) = (tw.max(1), th.max(1));
    let columns = ed.palette_columns();
    let first = ed.palette_top() * columns;
    for t in first..ed.tile_count() {
        let (x, y) = (
            PALETTE.x + ((t % columns) * tw) as i32,
            PALETTE.y + ((t / columns - first / columns) * th) as i32,
        );
        if y > PALETTE.y + PALETTE.h {
            break;
        }
        match &ed.sheet {
            Some(sheet) => ctx.draw_tile(sheet, t, x, y, SpriteParams::new()),
            None => ctx.draw_rect_fill(Rect::new(x, y, tw as i32, th as i32), (t % 15) as u8 + 1),
        }
        if ed.show_flags && ed.flags(t) != 0 {
            ctx.draw_pixel(x + tw as i32 - 1, y, FLAGS);
        }
        if ed.tile == Some(t) {
            ctx.draw_rect(Rect::new(x, y, tw as i32, th as i32), CURSOR);
        }
    }
    ctx.reset_clip();
}

fn draw_minimap(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.draw_rect_fill(MINIMAP, EMPTY);
    let (step, px) = minimap_scale(ed.doc.size());
    let (w, h) = ed.doc.size();
    let (mw, mh) = ((w as i32 + step - 1) / step, (h as i32 + step - 1) / step);
    for my in 0..mh.min(MINIMAP.h / px) {
        for mx in 0..mw.min(MINIMAP.w / px) {
            let (x, y) = (mx * step, my * step);
            let top = ed
                .doc
                .layers()
                .iter()
                .enumerate()
                .rev()
                .filter(|(i, _)| ed.hidden.get(*i) != Some(&true))
                .find_map(|(_, l)| tile_of(l.cell(x, y).unwrap_or(0), ed.first_gid()));
            if let Some((tile, _)) = top {
                let at = Rect::new(MINIMAP.x + mx * px, MINIMAP.y + my * px, px, px);
                ctx.draw_rect_fill(at, tile_colour(ed, tile));
            }
        }
    }
    let (vw, vh) = ed.view_cells();
    let r = Rect::new(
        MINIMAP.x + ed.view.0 / step * px,
        MINIMAP.y + ed.view.1 / step * px,
        (vw.min(w as i32) / step).max(1) * px,
        (vh.min(h as i32) / step).max(1) * px,
    );
    ctx.draw_rect(r, CURSOR);
}

/// The colour a tile stands for on the minimap: the sheet's pixel at the tile's middle, or
/// (no sheet, or a see-through middle) a colour of the editor's own by the tile's number.
fn tile_colour(ed: &MapEditor, tile: u32) -> u8 {
    let own = (tile % 15) as u8 + 1;
    let Some(sheet) = &ed.sheet else {
        return own;
    };
    let (tw, th) = ed.doc.tile_size();
    let (tw, th) = (tw.max(1), th.max(1));
    let columns = (sheet.size().0 / tw).max(1);
    let x = (tile % columns) * tw + tw / 2;
    let y = (tile / columns) * th + th / 2;
    match sheet.get(x as i32, y as i32) {
        Some(i) if !sheet.key().contains(i) => i,
        _ => own,
    }
}

fn draw_help(ctx: &mut Render<'_>) {
    let font = Font::small();
    ctx.print(
        2,
        2,
        "BT map editor: keys (?, Escape or a click closes)",
        BRIGHT,
    );
    for (i, (key, what)) in KEYS.iter().enumerate() {
        let y = LINE + 4 + i as i32 * HELP_LINE;
        ctx.print_font(font, 2, y, key, CURSOR);
        let x = 100;
        let room = ((DISPLAY.0 as i32 - x) / SMALL_CHAR) as usize;
        ctx.print_font(font, x, y, short(what, room), TEXT);
    }
}
