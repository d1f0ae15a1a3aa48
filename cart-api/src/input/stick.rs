//! How gamepad sticks and triggers read: the dead zone and the trigger's press point.

/// Stick travel below this fraction reads as 0: worn sticks rarely rest at the centre, and a
/// fantasy console reads sticks as something close to a d-pad. Beyond it the rest of the travel
/// is stretched back to the full 0..1 range.
pub const STICK_DEAD_ZONE: f32 = 0.75;

/// A trigger pulled at least this far counts as its button (`Button::L2`, `Button::R2`) held.
pub const TRIGGER_PRESS: f32 = 0.5;

/// A stick reading after the dead zone: `0` inside it, `(|v| - dz) / (1 - dz)` with `v`'s sign
/// outside it, and never beyond ±1.
pub fn stick_with_dead_zone(raw: f32) -> f32 {
    if !raw.is_finite() {
        return 0.0;
    }
    let mag = raw.abs().min(1.0);
    if mag <= STICK_DEAD_ZONE {
        0.0
    } else {
        ((mag - STICK_DEAD_ZONE) / (1.0 - STICK_DEAD_ZONE)).copysign(raw)
    }
}
