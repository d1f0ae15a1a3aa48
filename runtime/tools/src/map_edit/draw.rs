//! What the editor draws: the top bar, the map's layers, the palette, the minimap, the status
//! line and the help screen. Nothing here allocates: names are sliced and numbers printed
//! straight onto the screen.

use bt::{Rect, Render, SpriteParams, FLIP_H, FLIP_V};

use super::editor::{
    minimap_step, tile_of, MapEditor, Tool, MAP_VIEW, MINIMAP, PALETTE, PALETTE_COLUMNS,
};
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

pub(super) fn draw(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.clear(EMPTY);
    if ed.help {
        draw_help(ctx);
        return;
    }
    draw_map(ed, ctx);
    draw_palette(ed, ctx);
    draw_minimap(ed, ctx);
    ctx.draw_rect_fill(Rect::new(0, 0, 320, 9), BAR);
    let tool = match ed.tool {
        Tool::Paint => "paint",
        Tool::Fill => "fill",
        Tool::Rectangle => "rect",
        Tool::Select => "select",
    };
    ctx.print(2, 1, tool, BRIGHT);
    if let Some(layer) = ed.doc.layers().get(ed.layer) {
        let name = layer.name();
        ctx.print(44, 1, name.get(..16).unwrap_or(name), TEXT);
        if ed.hidden.get(ed.layer) == Some(&true) {
            ctx.print(148, 1, "hidden", CURSOR);
        } else if !layer.visible() {
            ctx.print(148, 1, "tiled:off", CURSOR);
        }
    }
    ctx.print(208, 1, ed.cursor.0, TEXT);
    ctx.print(232, 1, ed.cursor.1, TEXT);
    ctx.print(260, 1, ed.zoom, TEXT);
    ctx.print(266, 1, "x", TEXT);
    if ed.is_dirty() {
        ctx.print(312, 1, "*", CURSOR);
    }
    ctx.draw_rect_fill(Rect::new(0, 191, 320, 9), BAR);
    let status = if ed.status.is_empty() {
        "F1 keys  ^S save  ^Z undo"
    } else {
        ed.status.as_str()
    };
    ctx.print(2, 192, status.get(..78).unwrap_or(status), BRIGHT);
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
    let columns = PALETTE_COLUMNS.min(PALETTE.w as u32 / tw).max(1);
    for t in 0..ed.tile_count() {
        let (x, y) = (
            PALETTE.x + ((t % columns) * tw) as i32,
            PALETTE.y + ((t / columns) * th) as i32,
        );
        if y > PALETTE.y + PALETTE.h {
            break;
        }
        match &ed.sheet {
            Some(sheet) => ctx.draw_tile(sheet, t, x, y, SpriteParams::new()),
            None => ctx.draw_rect_fill(Rect::new(x, y, tw as i32, th as i32), (t % 15) as u8 + 1),
        }
        if ed.show_flags && ed.flags(t) != 0 {
            ctx.draw_pixel(x + tw as i32 - 1, y, 8);
        }
        if ed.tile == Some(t) {
            ctx.draw_rect(Rect::new(x, y, tw as i32, th as i32), CURSOR);
        }
    }
    ctx.reset_clip();
}

fn draw_minimap(ed: &MapEditor, ctx: &mut Render<'_>) {
    ctx.draw_rect_fill(MINIMAP, EMPTY);
    let step = minimap_step(ed.doc.size());
    let (w, h) = ed.doc.size();
    let (mw, mh) = ((w as i32 + step - 1) / step, (h as i32 + step - 1) / step);
    for my in 0..mh.min(MINIMAP.h) {
        for mx in 0..mw.min(MINIMAP.w) {
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
                ctx.draw_pixel(MINIMAP.x + mx, MINIMAP.y + my, (tile % 15) as u8 + 1);
            }
        }
    }
    let (vw, vh) = ed.view_cells();
    let r = Rect::new(
        MINIMAP.x + ed.view.0 / step,
        MINIMAP.y + ed.view.1 / step,
        (vw / step).max(1),
        (vh / step).max(1),
    );
    ctx.draw_rect(r, CURSOR);
}

fn draw_help(ctx: &mut Render<'_>) {
    ctx.print(2, 1, "BT map editor: keys (F1 closes)", BRIGHT);
    for (i, (key, what)) in KEYS.iter().enumerate() {
        let y = 10 + i as i32 * 7;
        ctx.print(2, y, key, CURSOR);
        ctx.print(96, y, what.get(..55).unwrap_or(what), TEXT);
    }
}
