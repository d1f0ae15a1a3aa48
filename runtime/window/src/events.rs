//! What winit reports, in BT's terms: text typed, wheel lines, pointer buttons.

use bt::Button;
use winit::event::{MouseButton, MouseScrollDelta};

use crate::host::keymap::HOST_KEYS;

/// Pixels a wheel "line" is worth when a touchpad reports pixels instead of lines.
const PIXELS_PER_WHEEL_LINE: f64 = 20.0;

/// Whether a key's text reaches the cart: the host's own keys type nothing.
pub(crate) fn types_text(key: Option<bt::Key>) -> bool {
    !key.is_some_and(|k| HOST_KEYS.contains(&k))
}

/// A wheel movement in lines, positive to the right and down the screen. winit reports the way
/// the content should move (positive reveals what is left and up), so both axes flip.
pub(crate) fn wheel_lines(delta: MouseScrollDelta) -> (f32, f32) {
    match delta {
        MouseScrollDelta::LineDelta(x, y) => (-x, -y),
        MouseScrollDelta::PixelDelta(p) => (
            (-p.x / PIXELS_PER_WHEEL_LINE) as f32,
            (-p.y / PIXELS_PER_WHEEL_LINE) as f32,
        ),
    }
}

/// The pointer button of a mouse button, `None` for buttons BT has no name for.
pub(crate) fn pointer_button(button: MouseButton) -> Option<Button> {
    match button {
        MouseButton::Left => Some(Button::POINTER_A),
        MouseButton::Right => Some(Button::POINTER_B),
        MouseButton::Middle => Some(Button::POINTER_C),
        MouseButton::Back | MouseButton::Forward => Some(Button::POINTER_D),
        MouseButton::Other(_) => None,
    }
}
