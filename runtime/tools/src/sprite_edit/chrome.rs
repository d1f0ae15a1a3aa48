//! The editor's widgets, declared on the `bt::ui` kit each update: the tool tabs and the
//! Filled box, the undo, redo, save and help buttons, the sheet tabs, the sprite's flags, the
//! palette's swatches, the sprite size tabs and the animation preview's controls. The canvas
//! and the sheet view are the editor's own drawing (see [`super::draw`]).

use bt::ui::Ui;

use super::editor::{SpriteEditor, Tool, MAX_FRAMES, MAX_RATE, TOOLS};
use super::layout::{
    FLAG_ROW, NUMBER_W, PREVIEW_CONTROLS, SHEET_TABS, SIZE_TABS, SWATCHES, SWATCHES_PER_ROW,
    SWATCHES_SHOWN, TOP_BAR,
};

/// The sprite sizes of the size tabs, in their order.
const SIZES: [i32; 3] = [8, 16, 32];
/// The size tabs' labels, in the order of [`SIZES`].
const SIZE_NAMES: [&str; 3] = ["8", "16", "32"];
/// Each flag's tooltip, by its number: what it is and its key.
const FLAG_TIPS: [&str; 8] = [
    "flag 0 of the sprite (Shift+1)",
    "flag 1 of the sprite (Shift+2)",
    "flag 2 of the sprite (Shift+3)",
    "flag 3 of the sprite (Shift+4)",
    "flag 4 of the sprite (Shift+5)",
    "flag 5 of the sprite (Shift+6)",
    "flag 6 of the sprite (Shift+7)",
    "flag 7 of the sprite (Shift+8)",
];

impl SpriteEditor {
    /// Declares the widgets and does what they were asked; none while the help screen covers
    /// them.
    pub(super) fn declare(&mut self, ui: &mut Ui) {
        if self.help > 0 {
            return;
        }
        ui.area(TOP_BAR.0, TOP_BAR.1, |ui| ui.row(|ui| self.top_bar(ui)));
        let mut tab = self.tab;
        let tabs = &self.tabs;
        ui.area(SHEET_TABS.0, SHEET_TABS.1, |ui| ui.tabs(&mut tab, tabs));
        ui.tooltip("the open sheets: Tab, Shift+Tab");
        if tab != self.tab {
            self.pick_tab(tab as i32 - self.tab as i32);
        }
        ui.area(FLAG_ROW.0, FLAG_ROW.1, |ui| ui.row(|ui| self.flag_row(ui)));
        let mut color = self.tabs[self.tab].color;
        let first = self.swatch_page();
        let last = (first + SWATCHES_SHOWN).min(self.tabs[self.tab].sheet.colors().len()) - 1;
        ui.area(SWATCHES.0, SWATCHES.1, |ui| {
            ui.swatches(&mut color, first as u8..=last as u8, SWATCHES_PER_ROW)
        });
        ui.tooltip("the colour drawn with: [ and ], or the wheel");
        self.tabs[self.tab].color = color;
        ui.area(SIZE_TABS.0, SIZE_TABS.1, |ui| self.size_tabs(ui));
        ui.area(PREVIEW_CONTROLS.0, PREVIEW_CONTROLS.1, |ui| {
            self.preview_controls(ui)
        });
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        let mut tool = TOOLS
            .iter()
            .position(|&(t, _)| t == outline(self.tool))
            .unwrap_or(0);
        let names = TOOLS.map(|(_, name)| name);
        if ui.tabs(&mut tool, &names).changed() {
            let (chosen, _) = TOOLS[tool.min(TOOLS.len() - 1)];
            self.tool = filled(chosen, is_filled(self.tool));
        }
        ui.tooltip("pencil B, fill F, line L, rect R, ellipse E, pick I, select M");
        let mut fill = is_filled(self.tool);
        if ui.checkbox("Filled", &mut fill).changed() {
            let shape = match outline(self.tool) {
                Tool::Ellipse => Tool::Ellipse,
                _ => Tool::Rect,
            };
            self.tool = filled(shape, fill);
        }
        ui.tooltip("a filled rectangle or ellipse (R or E again)");
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
        ui.tooltip("writes every changed sheet (Ctrl+S)");
        if ui.button("?").clicked() {
            self.help = 1;
        }
        ui.tooltip("every key (?)");
    }

    /// The selected sprite's eight flags, numbered 0 to 7.
    fn flag_row(&mut self, ui: &mut Ui) {
        let flags = self.tabs[self.tab]
            .sprite_id()
            .map_or(0, |id| self.tabs[self.tab].flags()[id]);
        for (bit, tip) in FLAG_TIPS.iter().enumerate() {
            let mut on = flags & (1 << bit) != 0;
            if ui.checkbox(bit, &mut on).changed() {
                self.toggle_flag(bit as u8);
            }
            ui.tooltip(tip);
        }
    }

    fn size_tabs(&mut self, ui: &mut Ui) {
        let mut size = SIZES.iter().position(|&s| s == self.grid).unwrap_or(0);
        if ui.tabs(&mut size, &SIZE_NAMES).changed() {
            self.set_grid(SIZES[size.min(SIZES.len() - 1)]);
        }
        ui.tooltip("sprite size: 1, 2, 3");
    }

    fn preview_controls(&mut self, ui: &mut Ui) {
        ui.width(NUMBER_W);
        ui.number("frames", &mut self.frames, 1..=MAX_FRAMES, 1);
        ui.tooltip("frames in the preview: , and .");
        ui.width(NUMBER_W);
        ui.number("/s", &mut self.rate, 1..=MAX_RATE, 1);
        ui.tooltip("frames a second: - and =");
        ui.checkbox("Play", &mut self.preview);
        ui.tooltip("plays the preview (P)");
    }
}

/// A shape tool's outline form; any other tool as it is.
fn outline(tool: Tool) -> Tool {
    match tool {
        Tool::RectFill => Tool::Rect,
        Tool::EllipseFill => Tool::Ellipse,
        other => other,
    }
}

/// Whether a tool fills its shape.
fn is_filled(tool: Tool) -> bool {
    matches!(tool, Tool::RectFill | Tool::EllipseFill)
}

/// `tool`, filled when it is a shape and `fill` asks.
fn filled(tool: Tool, fill: bool) -> Tool {
    match (tool, fill) {
        (Tool::Rect, true) => Tool::RectFill,
        (Tool::Ellipse, true) => Tool::EllipseFill,
        (other, _) => other,
    }
}
