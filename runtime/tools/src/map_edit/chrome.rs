//! The editor's widgets, declared on the `bt::ui` kit each update: the tool tabs, the undo,
//! redo and save buttons, the flags and zoom fields, the map view and the palette (regions the
//! editor draws itself), the layer list with its check boxes, and the minimap (a region too).

use bt::ui::{Response, Ui};

use super::editor::{MapEditor, Tool, MAX_ZOOM};
use super::layout::{self, LAYER_ROWS, SIDE_WIDTH};

/// The tools in the order of their tabs.
pub(super) const TOOLS: [Tool; 5] = [
    Tool::Paint,
    Tool::Fill,
    Tool::Rectangle,
    Tool::Select,
    Tool::Pick,
];
/// The tool tabs' labels, in the order of [`TOOLS`].
const TOOL_NAMES: [&str; 5] = ["Paint", "Fill", "Rect", "Select", "Pick"];
/// The zoom field's width: one digit and its arrows.
const ZOOM_WIDTH: i32 = 30;

/// What the regions saw in an update.
pub(super) struct Hits {
    pub map: Response,
    pub palette: Response,
    pub minimap: Response,
}

impl MapEditor {
    /// Declares the widgets and does what they were asked; returns what the regions saw.
    pub(super) fn declare(&mut self, ui: &mut Ui) -> Hits {
        let (x, y) = layout::TOP_BAR;
        ui.area(x, y, |ui| ui.row(|ui| self.top_bar(ui)));
        let m = layout::MAP_VIEW;
        // No tooltip on the map: one would cover the top bar while the tools are used.
        let map = ui.area(m.x, m.y, |ui| ui.region(m.w, m.h));
        let p = layout::PALETTE;
        let palette = ui.area(p.x, p.y, |ui| ui.region(p.w, p.h));
        ui.tooltip("the tiles: , and . choose too");
        ui.area(layout::LAYERS.0, layout::LAYERS.1, |ui| self.layers(ui));
        let n = layout::MINIMAP;
        let minimap = ui.area(n.x, n.y, |ui| ui.region(n.w, n.h));
        ui.tooltip("the whole map: a click moves the view there");
        Hits {
            map,
            palette,
            minimap,
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        let mut tool = TOOLS.iter().position(|&t| t == self.tool).unwrap_or(0);
        if ui.tabs(&mut tool, &TOOL_NAMES).changed() {
            self.choose_tool(TOOLS[tool.min(TOOLS.len() - 1)]);
        }
        ui.tooltip("paint B, fill F, rectangle R, select S, pick I");
        if ui.button("Undo").clicked() {
            self.undo(false);
        }
        ui.tooltip("undoes the last edit (Ctrl+Z)");
        if ui.button("Redo").clicked() {
            self.undo(true);
        }
        ui.tooltip("redoes it (Ctrl+Y)");
        if ui.button("Save").clicked() {
            self.save();
        }
        ui.tooltip("writes the map (Ctrl+S)");
        ui.checkbox("Flags", &mut self.show_flags);
        ui.tooltip("shows the tiles' flags (G)");
        let mut zoom = self.zoom as i32;
        ui.width(ZOOM_WIDTH);
        if ui
            .number("zoom", &mut zoom, 1..=MAX_ZOOM as i32, 1)
            .changed()
        {
            self.set_zoom(zoom.clamp(1, MAX_ZOOM as i32) as u32);
        }
        ui.tooltip("= and -");
        if ui.button("?").clicked() {
            self.help = true;
        }
        ui.tooltip("every key (?)");
    }

    /// The layer list, and the chosen layer's two check boxes.
    fn layers(&mut self, ui: &mut Ui) {
        let list = &mut self.layer_list;
        list.selected = Some(self.layer);
        if self.layer < list.scroll {
            list.scroll = self.layer;
        } else if self.layer >= list.scroll + LAYER_ROWS {
            list.scroll = self.layer + 1 - LAYER_ROWS;
        }
        ui.width(SIDE_WIDTH);
        if ui.list(list, &self.layer_names, LAYER_ROWS).changed() {
            self.layer = list.selected.unwrap_or(self.layer);
        }
        ui.tooltip("the layer edited: [ and ]");
        ui.row(|ui| {
            let mut shown = self.hidden.get(self.layer) != Some(&true);
            if ui.checkbox("show", &mut shown).changed() {
                self.toggle_hidden();
            }
            ui.tooltip("shows the layer here, not saved (V)");
            let mut visible = self
                .doc
                .layers()
                .get(self.layer)
                .is_some_and(|l| l.visible());
            if ui.checkbox("Tiled", &mut visible).changed() {
                self.toggle_tiled_visible();
            }
            ui.tooltip("Tiled's visible, saved (Shift+V)");
        });
    }
}
