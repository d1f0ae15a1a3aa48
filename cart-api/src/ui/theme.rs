//! The kit's looks: palette indices and spacing, which a cart may change.

/// How the widgets look: the palette index of each part and the spacing of the layout.
///
/// The default suits the PICO-8 palette every cart starts with (white text on dark grey faces,
/// a blue accent and a yellow focus ring). Index 0 draws nothing, so a part set to 0 is left
/// out. Change a field through [`Ui::theme_mut`](super::Ui::theme_mut):
///
/// ```
/// use bt::ui::{Theme, Ui};
///
/// let mut ui = Ui::new();
/// ui.theme_mut().accent = 11; // green sliders, ticks and selections
/// assert_eq!(ui.theme().accent, 11);
/// assert_eq!(Theme::default().accent, 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Theme {
    /// Labels and the text on widgets.
    pub text: u8,
    /// A widget's face: buttons, tabs, the number field's arrows.
    pub face: u8,
    /// A face under the pointer.
    pub face_hot: u8,
    /// A face held down by the pointer, and the selected tab.
    pub face_down: u8,
    /// Outlines and slider tracks.
    pub edge: u8,
    /// Where values are entered: text and number fields, lists, check boxes.
    pub field: u8,
    /// What is on or chosen: a slider's filled part, a tick, a list's selected row.
    pub accent: u8,
    /// The ring around the widget that has the keyboard and gamepad focus, and the text caret.
    pub focus: u8,
    /// A tooltip's background.
    pub tip_face: u8,
    /// A tooltip's text.
    pub tip_text: u8,
    /// Pixels between a widget's edge and its text, across.
    pub padding: i32,
    /// Pixels between one widget and the next in a row or a column.
    pub spacing: i32,
    /// The width of sliders, number fields, text fields and lists unless [`Ui::width`](super::Ui::width)
    /// says otherwise.
    pub field_width: i32,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme {
            text: 7,
            face: 5,
            face_hot: 13,
            face_down: 2,
            edge: 6,
            field: 1,
            accent: 12,
            focus: 10,
            tip_face: 15,
            tip_text: 1,
            padding: 4,
            spacing: 3,
            field_width: 80,
        }
    }
}
