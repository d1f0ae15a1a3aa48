//! What the editor draws: a sound effect's notes beside their pitch and volume graphs, or a
//! tune's rows, in the grid; the widgets (`bt::ui`) over them; and the status line. Nothing
//! here allocates: names are sliced and numbers formatted straight onto the screen.

use bt::{Rect, Render};

use super::doc::{EffectName, PitchName, WaveName};
use super::editor::{SoundEditor, View};
use super::layout::{self, CHAR, LINE, STATUS_Y, VISIBLE_ROWS};
use super::TuneRows;

/// Colours, as indices of BT's default (PICO-8) palette.
const BAR: u8 = 1;
const TEXT: u8 = 6;
const BRIGHT: u8 = 7;
const DIM: u8 = 13;
const CURSOR: u8 = 5;
const BARS: u8 = 12;
const SELECTED: u8 = 2;
const PITCH: u8 = 7;
const WAVE: u8 = 11;
const VOLUME: u8 = 9;
const EFFECT: u8 = 14;
const LOOP: u8 = 10;
const HEAD: u8 = 8;

/// The most characters of a name a cell shows.
const NAME_CHARS: usize = 9;

/// At most `chars` bytes of `name` (whole, when the cut would split a character).
fn short(name: &str, chars: usize) -> &str {
    name.get(..chars).unwrap_or(name)
}

pub(super) fn draw(ed: &SoundEditor, ctx: &mut Render<'_>) {
    ctx.clear(0);
    let (w, _) = layout::DISPLAY;
    let w = w as i32;
    match ed.view {
        View::Sfx => draw_sfx(ed, ctx),
        View::Tune => draw_tune(ed, ctx),
    }
    if let Some(ui) = &ed.ui {
        ui.draw(ctx);
    }
    if ed.is_dirty() {
        ctx.print(w - CHAR - 2, 3, "*", LOOP);
    }
    ctx.draw_rect_fill(Rect::new(0, STATUS_Y, w, LINE), BAR);
    if ed.status.is_empty() {
        let help = match ed.view {
            View::Sfx => "spc play  tab focus  ^t tunes  ^s save  ^z undo",
            View::Tune => "spc play  enter open sfx  ^t sfx  ^s save  ^z undo",
        };
        ctx.print(4, STATUS_Y + 1, help, TEXT);
    } else {
        ctx.print(4, STATUS_Y + 1, short(&ed.status, 64), BRIGHT);
    }
}

fn draw_sfx(ed: &SoundEditor, ctx: &mut Render<'_>) {
    let doc = ed.doc();
    let Some(entry) = doc.sounds.sfx.get(ed.sfx) else {
        ctx.print(
            layout::INDEX_X,
            layout::row_y(0),
            "no sound effects: ctrl+n makes one",
            TEXT,
        );
        return;
    };
    let sfx = &entry.sfx;
    let selection = ed.selection();
    let selecting = ed.anchor.is_some();
    for i in 0..VISIBLE_ROWS {
        let row = ed.top + i;
        let Some(note) = sfx.notes.get(row) else {
            break;
        };
        let y = layout::row_y(i);
        if selecting && selection.contains(&row) {
            let band = Rect::new(layout::GRID.x, y, layout::NOTES_WIDTH, LINE);
            ctx.draw_rect_fill(band, SELECTED);
        }
        if row == ed.row {
            let (x, w) = layout::NOTE_COLUMNS[ed.col];
            ctx.draw_rect_fill(Rect::new(x - 1, y, w, LINE), CURSOR);
        }
        if ed.head == Some(row) && ed.playing.is_some() {
            ctx.draw_rect_fill(Rect::new(layout::INDEX_X - 2, y, 14, LINE), HEAD);
        }
        let index = if sfx.loop_start == Some(row) {
            LOOP
        } else {
            DIM
        };
        ctx.print(layout::INDEX_X, y + 1, format_args!("{row:02}"), index);
        let col = |c: usize| layout::NOTE_COLUMNS[c].0;
        if *note == bt::sound::Note::rest() {
            ctx.print(col(0), y + 1, "--", DIM);
            continue;
        }
        ctx.print(col(0), y + 1, PitchName(note.pitch), PITCH);
        ctx.print(col(1), y + 1, WaveName(note.wave), WAVE);
        ctx.print(col(2), y + 1, note.volume, VOLUME);
        ctx.print(col(3), y + 1, EffectName(note.effect), EFFECT);
    }
    // The graphs: a bar a note, its pitch above and its volume below.
    let (pg, vg) = (layout::PITCH_GRAPH, layout::VOLUME_GRAPH);
    ctx.draw_rect_fill(pg, BAR);
    ctx.draw_rect_fill(vg, BAR);
    let w = layout::bar_width(sfx.notes.len());
    let step = vg.h / 8;
    for (i, note) in sfx.notes.iter().enumerate() {
        let x = pg.x + i as i32 * w;
        let colour = if ed.head == Some(i) && ed.playing.is_some() {
            HEAD
        } else if i == ed.row {
            BRIGHT
        } else if selecting && selection.contains(&i) {
            EFFECT
        } else {
            BARS
        };
        if note.volume > 0 {
            let h = layout::pitch_height(note.pitch);
            ctx.draw_rect_fill(Rect::new(x, pg.y + pg.h - h, (w - 1).max(1), h), colour);
            let vh = i32::from(note.volume) * step + 1;
            let vc = if colour == BARS { VOLUME } else { colour };
            ctx.draw_rect_fill(Rect::new(x, vg.y + vg.h - vh, (w - 1).max(1), vh), vc);
        } else if i == ed.row {
            ctx.draw_rect_fill(Rect::new(x, pg.y + pg.h - 1, (w - 1).max(1), 1), colour);
        }
    }
}

fn draw_tune(ed: &SoundEditor, ctx: &mut Render<'_>) {
    let doc = ed.doc();
    let Some(tune) = doc.sounds.tunes.get(ed.tune) else {
        ctx.print(
            layout::INDEX_X,
            layout::row_y(0),
            "this file has no tunes",
            TEXT,
        );
        return;
    };
    let name = |i: usize| {
        doc.sounds
            .sfx
            .get(i)
            .map_or("?", |e| short(&e.name, NAME_CHARS))
    };
    let cursor = |ctx: &mut Render<'_>, c: usize, y: i32| {
        let (x, w) = layout::TUNE_COLUMNS[c];
        ctx.draw_rect_fill(Rect::new(x - 1, y, w, LINE), CURSOR);
    };
    match &tune.rows {
        TuneRows::Patterns { rows, loop_start } => {
            for i in 0..VISIBLE_ROWS {
                let r = ed.ttop + i;
                let Some(pattern) = rows.get(r) else { break };
                let y = layout::row_y(i);
                if ed.head == Some(r) && ed.tune_playing {
                    ctx.draw_rect_fill(Rect::new(layout::INDEX_X - 2, y, 14, LINE), HEAD);
                }
                let index = if *loop_start == Some(r) { LOOP } else { DIM };
                ctx.print(layout::INDEX_X, y + 1, format_args!("{r:02}"), index);
                for (c, slot) in pattern.iter().enumerate() {
                    if r == ed.trow && c == ed.tcol {
                        cursor(ctx, c, y);
                    }
                    let x = layout::TUNE_COLUMNS[c].0;
                    match slot {
                        Some(s) => ctx.print(x, y + 1, name(*s), BRIGHT),
                        None => ctx.print(x, y + 1, "-", DIM),
                    }
                }
            }
        }
        TuneRows::Sequences { rows, .. } => {
            let shift = ed.tune_shift();
            for i in 0..VISIBLE_ROWS {
                let r = ed.ttop + i;
                let Some((channel, list)) = rows.get(r) else {
                    break;
                };
                let y = layout::row_y(i);
                ctx.print(layout::INDEX_X, y + 1, format_args!("{r:02}"), DIM);
                if r == ed.trow && ed.tcol == 0 {
                    cursor(ctx, 0, y);
                }
                ctx.print(
                    layout::TUNE_COLUMNS[0].0,
                    y + 1,
                    format_args!("ch {channel}"),
                    WAVE,
                );
                for k in 1..layout::TUNE_COLUMNS.len() {
                    let item = shift + k - 1;
                    if r == ed.trow && ed.tcol == item + 1 {
                        cursor(ctx, k, y);
                    }
                    let x = layout::TUNE_COLUMNS[k].0;
                    match list.get(item) {
                        Some(&s) => ctx.print(x, y + 1, name(s), BRIGHT),
                        None if item == list.len() => ctx.print(x, y + 1, "+", DIM),
                        None => {}
                    }
                }
            }
        }
    }
}
