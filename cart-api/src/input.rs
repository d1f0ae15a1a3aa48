//! Buttons as the simulation sees them: held, pressed and released, per fixed update.

/// D-pad up.
pub const BTN_UP: u32 = 1 << 0;
/// D-pad down.
pub const BTN_DOWN: u32 = 1 << 1;
/// D-pad left.
pub const BTN_LEFT: u32 = 1 << 2;
/// D-pad right.
pub const BTN_RIGHT: u32 = 1 << 3;
/// Face button A.
pub const BTN_A: u32 = 1 << 4;
/// Face button B.
pub const BTN_B: u32 = 1 << 5;
/// Face button X.
pub const BTN_X: u32 = 1 << 6;
/// Face button Y.
pub const BTN_Y: u32 = 1 << 7;
/// Left shoulder.
pub const BTN_L: u32 = 1 << 8;
/// Right shoulder.
pub const BTN_R: u32 = 1 << 9;
/// Start.
pub const BTN_START: u32 = 1 << 10;
/// Select.
pub const BTN_SELECT: u32 = 1 << 11;
/// Pointer button A (mouse left, touch).
pub const BTN_POINTER_A: u32 = 1 << 12;
/// Pointer button B (mouse right).
pub const BTN_POINTER_B: u32 = 1 << 13;
/// Pointer button C (mouse middle).
pub const BTN_POINTER_C: u32 = 1 << 14;
/// Pointer button D (mouse back/forward).
pub const BTN_POINTER_D: u32 = 1 << 15;
/// Left trigger (gamepads only).
pub const BTN_L2: u32 = 1 << 16;
/// Right trigger (gamepads only).
pub const BTN_R2: u32 = 1 << 17;
/// Any face button.
pub const BTN_ABXY: u32 = BTN_A | BTN_B | BTN_X | BTN_Y;
/// Any shoulder button.
pub const BTN_SHOULDER: u32 = BTN_L | BTN_R;
/// Any trigger.
pub const BTN_TRIGGER: u32 = BTN_L2 | BTN_R2;
/// Any pointer button.
pub const BTN_POINTER_ANY: u32 = BTN_POINTER_A | BTN_POINTER_B | BTN_POINTER_C | BTN_POINTER_D;

/// How many players the console tracks.
pub const PLAYERS: usize = 4;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PlayerButtons {
    /// What the host says is physically held now.
    held: u32,
    /// Presses and releases that arrived since the last update began.
    pending_pressed: u32,
    pending_released: u32,
    /// What the current update sees.
    down: u32,
    pressed: u32,
    released: u32,
}

/// Button state for all players, fed by the host and read by `update`.
///
/// Edges are collected between updates and handed to the next update that begins: a press is seen
/// by exactly one update, even when the frame it arrived in ran no update, and even when the button
/// was let go again before that update (a tap faster than a tick). When one frame runs several
/// updates, only the first sees the edge; `is_down` holds in all of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    players: [PlayerButtons; PLAYERS],
}

impl Input {
    /// Records a button change from the host. Out-of-range players are ignored.
    pub fn set_buttons(&mut self, player: usize, buttons: u32, down: bool) {
        let Some(p) = self.players.get_mut(player) else {
            return;
        };
        if down {
            p.pending_pressed |= buttons & !p.held;
            p.held |= buttons;
        } else {
            p.pending_released |= buttons & p.held;
            p.held &= !buttons;
        }
    }

    /// Called by the host as each update begins: the edges collected so far become visible.
    pub fn begin_update(&mut self) {
        for p in &mut self.players {
            p.down = p.held | p.pending_pressed;
            p.pressed = p.pending_pressed;
            p.released = p.pending_released;
            p.pending_pressed = 0;
            p.pending_released = 0;
        }
    }

    /// Forgets every edge and held button (used when replaying from the start).
    pub fn clear(&mut self) {
        *self = Input::default();
    }

    fn player(&self, player: usize) -> PlayerButtons {
        self.players.get(player).copied().unwrap_or_default()
    }

    /// Whether any button of the mask is held in this update.
    pub fn is_down(&self, buttons: u32, player: usize) -> bool {
        self.player(player).down & buttons != 0
    }

    /// Whether any button of the mask went down since the previous update.
    pub fn is_pressed(&self, buttons: u32, player: usize) -> bool {
        self.player(player).pressed & buttons != 0
    }

    /// Whether any button of the mask came up since the previous update.
    pub fn is_released(&self, buttons: u32, player: usize) -> bool {
        self.player(player).released & buttons != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_tap_between_updates_is_seen_once() {
        let mut i = Input::default();
        i.set_buttons(0, BTN_A, true);
        i.set_buttons(0, BTN_A, false);
        i.begin_update();
        assert!(i.is_pressed(BTN_A, 0));
        assert!(i.is_released(BTN_A, 0));
        i.begin_update();
        assert!(!i.is_pressed(BTN_A, 0));
        assert!(!i.is_down(BTN_A, 0));
    }

    #[test]
    fn held_button_stays_down_but_presses_once() {
        let mut i = Input::default();
        i.set_buttons(1, BTN_LEFT, true);
        for n in 0..3 {
            i.begin_update();
            assert!(i.is_down(BTN_LEFT | BTN_RIGHT, 1), "mask matches any bit");
            assert_eq!(i.is_pressed(BTN_LEFT, 1), n == 0);
        }
        assert!(!i.is_down(BTN_LEFT, 0), "other players unaffected");
        assert!(
            !i.is_down(BTN_LEFT, 99),
            "unknown player reads as nothing held"
        );
    }
}
