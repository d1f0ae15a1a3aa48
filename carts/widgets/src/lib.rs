//! `widgets`: every widget of the `bt::ui` kit on one screen: tabs, buttons, check boxes,
//! sliders, a number field, a text field, a scrolling list, colour swatches and tooltips, with
//! the pointer, the keyboard and a gamepad. The widgets are declared in `update` and drawn in
//! `render` from what it declared; their values live in the cart's state.

use bt::ui::{ListState, Ui};
use bt::{Cart, Rect, Render, Settings, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "the bt::ui kit: buttons, sliders, fields, lists, tabs, swatches";

/// The widgets in the order they are declared: the focus moves through them in this order,
/// and [`Ui::rect_of`] finds them by it.
pub mod id {
    /// The difficulty tabs.
    pub const TABS: usize = 0;
    /// The Play button.
    pub const PLAY: usize = 1;
    /// The Reset button.
    pub const RESET: usize = 2;
    /// The Music check box.
    pub const MUSIC: usize = 3;
    /// The Effects check box.
    pub const EFFECTS: usize = 4;
    /// The Volume slider.
    pub const VOLUME: usize = 5;
    /// The Speed slider.
    pub const SPEED: usize = 6;
    /// The Lives number field.
    pub const LIVES: usize = 7;
    /// The Name text field.
    pub const NAME: usize = 8;
    /// The level list.
    pub const LEVELS: usize = 9;
    /// The colour swatches.
    pub const COLOUR: usize = 10;
}

/// The difficulties the tabs choose between.
pub const DIFFICULTIES: [&str; 3] = ["Easy", "Normal", "Hard"];
/// The levels the list offers.
pub const LEVELS: [&str; 10] = [
    "1 Meadow",
    "2 Caves",
    "3 Lake",
    "4 Forest",
    "5 Ruins",
    "6 Desert",
    "7 Glacier",
    "8 Volcano",
    "9 Sky",
    "10 Castle",
];
/// The most characters a name takes.
pub const NAME_CHARS: usize = 12;
/// Where the right-hand column starts.
const RIGHT_COLUMN: (i32, i32) = (176, 26);

/// Every value the widgets edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    /// Index into [`DIFFICULTIES`].
    pub difficulty: usize,
    /// Presses of Play.
    pub plays: u32,
    /// The Music check box.
    pub music: bool,
    /// The Effects check box.
    pub effects: bool,
    /// The Volume slider, 0 to 10.
    pub volume: i32,
    /// The Speed slider, 0.25 to 2.
    pub speed: f32,
    /// The Lives field, 1 to 9.
    pub lives: i32,
    /// The Name field.
    pub name: String,
    /// Names entered with Enter.
    pub names_entered: u32,
    /// The level list.
    pub level: ListState,
    /// Times a level was chosen (let go over its row, or Enter on the list).
    pub levels_chosen: u32,
    /// The greeting's colour.
    pub colour: u8,
}

impl Default for Values {
    fn default() -> Values {
        Values::with_name(String::from(FIRST_NAME))
    }
}

/// The name a first run shows.
const FIRST_NAME: &str = "Ada";

impl Values {
    /// The values of a first run, with `name` for the name (whatever it holds).
    fn with_name(name: String) -> Values {
        Values {
            difficulty: 1,
            plays: 0,
            music: true,
            effects: false,
            volume: 7,
            speed: 1.0,
            lives: 3,
            name,
            names_entered: 0,
            level: ListState {
                selected: Some(0),
                scroll: 0,
            },
            levels_chosen: 0,
            colour: 10,
        }
    }

    /// Back to a first run's values, the name's buffer kept.
    fn reset(&mut self) {
        let mut name = std::mem::take(&mut self.name);
        name.clear();
        name.push_str(FIRST_NAME);
        *self = Values::with_name(name);
    }

    fn declare(&mut self, ui: &mut Ui) {
        ui.tabs(&mut self.difficulty, &DIFFICULTIES);
        ui.space(4);
        let mut reset = false;
        ui.row(|ui| {
            if ui.button("Play").clicked() {
                self.plays += 1;
            }
            ui.tooltip("Starts a round");
            reset = ui.button("Reset").clicked();
            ui.label(format_args!("played {}", self.plays));
        });
        ui.checkbox("Music", &mut self.music);
        ui.checkbox("Effects", &mut self.effects);
        ui.slider("Volume", &mut self.volume, 0..=10);
        ui.tooltip("Music and effects");
        ui.slider("Speed", &mut self.speed, 0.25..=2.0);
        ui.number("Lives", &mut self.lives, 1..=9, 1);
        if ui
            .text_field("Name", &mut self.name, NAME_CHARS)
            .submitted()
        {
            self.names_entered += 1;
        }
        ui.area(RIGHT_COLUMN.0, RIGHT_COLUMN.1, |ui| {
            ui.label("Level");
            ui.width(120);
            if ui.list(&mut self.level, &LEVELS, 6).clicked() {
                self.levels_chosen += 1;
            }
            ui.label("Colour");
            ui.swatches(&mut self.colour, 1..=15, 8);
        });
        if reset {
            self.reset();
        }
    }
}

/// The cart's state: the kit, and the values its widgets edit.
#[derive(Debug, Clone, Default)]
pub struct Widgets {
    ui: Ui,
    /// What the widgets edit.
    pub values: Values,
}

/// A fresh `widgets` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Widgets::default())
}

impl Widgets {
    /// The kit, as the last update left it: where each widget is, which has the focus.
    pub fn ui(&self) -> &Ui {
        &self.ui
    }
}

impl Cart for Widgets {
    fn configure(&self) -> Settings {
        Settings::default().title("Widgets")
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn snapshot_bytes(&self) -> usize {
        std::mem::size_of::<Widgets>() + self.ui.heap_bytes() + self.values.name.len()
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let values = &mut self.values;
        self.ui.frame(ctx, |ui, _| values.declare(ui));
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let (w, h) = ctx.display_size();
        ctx.draw_line((0, 22), (w as i32 - 1, 22), 1);
        self.ui.draw(ctx);
        let v = &self.values;
        let level = v.level.selected.map_or("none", |i| LEVELS[i]);
        let y = h as i32 - 18;
        ctx.draw_rect_fill(Rect::new(0, y - 3, w as i32, 21), 1);
        ctx.print(
            4,
            y,
            format_args!(
                "Hello, {}! {} at {}, {} lives",
                v.name, DIFFICULTIES[v.difficulty], level, v.lives
            ),
            v.colour,
        );
    }

    fn test_state(&self) -> Option<String> {
        Some(format!(
            "{:?} focus={:?} editing={}",
            self.values,
            self.ui.focus(),
            self.ui.is_editing()
        ))
    }
}
