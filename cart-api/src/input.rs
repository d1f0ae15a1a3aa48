//! Input as the simulation sees it: buttons, keys, the pointer, gamepad axes and typed text,
//! collected from the host between updates and handed to the next update that begins.

use crate::keys::{Key, KEY_COUNT};
use crate::tick_input::{TickButtons, TickInput};

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

/// How many button bits there are (`BTN_UP` to `BTN_R2`).
pub const BUTTON_COUNT: usize = 18;

/// Left stick, horizontal: -1 (left) to 1 (right).
pub const AXIS_LEFT_X: usize = 0;
/// Left stick, vertical: -1 (up) to 1 (down).
pub const AXIS_LEFT_Y: usize = 1;
/// Right stick, horizontal.
pub const AXIS_RIGHT_X: usize = 2;
/// Right stick, vertical.
pub const AXIS_RIGHT_Y: usize = 3;
/// Left trigger: 0 (released) to 1 (fully pulled).
pub const AXIS_TRIGGER_L: usize = 4;
/// Right trigger.
pub const AXIS_TRIGGER_R: usize = 5;
/// How many axes a player has.
pub const AXES: usize = 6;

/// Stick travel below this fraction reads as 0: worn sticks rarely rest at the centre, and a
/// fantasy console reads sticks as something close to a d-pad. Beyond it the rest of the travel
/// is stretched back to the full 0..1 range.
pub const STICK_DEAD_ZONE: f32 = 0.75;

/// A trigger pulled at least this far counts as its button (`BTN_L2`, `BTN_R2`) held.
pub const TRIGGER_PRESS: f32 = 0.5;

/// The most bytes of typed text kept for one update; anything typed beyond it before the update
/// runs is dropped (so a long pause cannot grow the buffer without bound).
pub const INPUT_STRING_CAPACITY: usize = 64;

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

/// Where a button change comes from. A button is held while any source holds it, so letting go
/// of a key does not release the same button held on a gamepad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// The host's key map.
    Keyboard,
    /// A gamepad.
    Gamepad,
    /// The mouse or a touch.
    Pointer,
    /// Injected directly (tests, scripted input).
    Direct,
}

const SOURCES: usize = 4;

impl Source {
    fn index(self) -> usize {
        match self {
            Source::Keyboard => 0,
            Source::Gamepad => 1,
            Source::Pointer => 2,
            Source::Direct => 3,
        }
    }
}

/// Whether a pressed-with-repeat check fires: on the press itself, then every `rate` updates
/// while the input stays down. `rate` 0 means no repeat.
fn repeat_fires(pressed: bool, down: bool, since: u64, now: u64, rate: u64) -> bool {
    if pressed {
        return true;
    }
    let held_for = now.saturating_sub(since);
    down && rate > 0 && held_for > 0 && held_for.is_multiple_of(rate)
}

/// A set of inputs as bits: `u32` for buttons, `u128` for keys.
trait Bits:
    Copy
    + Default
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Calls `f` with the index of every set bit, lowest first.
    fn each(self, f: impl FnMut(usize));
    fn any(self) -> bool {
        self != Self::default()
    }
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            fn each(self, mut f: impl FnMut(usize)) {
                let mut m = self;
                while m != 0 {
                    f(m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
        }
    )*};
}
bits!(u32, u128);

/// Held state and the edges between updates for a set of `N` inputs, one bit each.
///
/// The host changes `held` at any time; presses and releases collect in `pending_*` until the
/// next update begins, which sees them once (see [`Input`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edges<B, const N: usize> {
    held: B,
    pending_pressed: B,
    pending_released: B,
    /// What the current update sees.
    down: B,
    pressed: B,
    released: B,
    /// The update at which each input was last seen pressed (for repeats).
    since: [u64; N],
}

impl<B: Bits, const N: usize> Default for Edges<B, N> {
    fn default() -> Self {
        Edges {
            held: B::default(),
            pending_pressed: B::default(),
            pending_released: B::default(),
            down: B::default(),
            pressed: B::default(),
            released: B::default(),
            since: [0; N],
        }
    }
}

impl<B: Bits, const N: usize> Edges<B, N> {
    /// The host says `now` is what is held.
    fn set_held(&mut self, now: B) {
        self.pending_pressed = self.pending_pressed | (now & !self.held);
        self.pending_released = self.pending_released | (self.held & !now);
        self.held = now;
    }

    /// Update number `update` begins: the edges collected so far become visible.
    fn begin_update(&mut self, update: u64) {
        self.down = self.held | self.pending_pressed;
        self.pressed = self.pending_pressed;
        self.released = self.pending_released;
        self.pending_pressed = B::default();
        self.pending_released = B::default();
        let since = &mut self.since;
        self.pressed.each(|i| {
            if let Some(s) = since.get_mut(i) {
                *s = update;
            }
        });
    }

    /// Update number `update` begins seeing exactly these sets (a replay); pending edges drop.
    fn replay(&mut self, down: B, pressed: B, released: B, update: u64) {
        self.pending_pressed = B::default();
        self.pending_released = B::default();
        self.down = down;
        self.pressed = pressed;
        self.released = released;
        let since = &mut self.since;
        pressed.each(|i| {
            if let Some(s) = since.get_mut(i) {
                *s = update;
            }
        });
    }

    /// Whether input `i` (bit `bit`) fires a pressed-with-repeat check at update `now`.
    fn repeats(&self, i: usize, bit: B, now: u64, rate: u64) -> bool {
        let since = self.since.get(i).copied().unwrap_or(now);
        repeat_fires(
            (self.pressed & bit).any(),
            (self.down & bit).any(),
            since,
            now,
            rate,
        )
    }
}

/// One player's buttons: what each source holds, and the edges of their union.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PlayerButtons {
    by_source: [u32; SOURCES],
    edges: Edges<u32, BUTTON_COUNT>,
}

impl PlayerButtons {
    fn set_source(&mut self, source: usize, held: u32) {
        self.by_source[source] = held;
        let now = self.by_source.iter().fold(0, |a, b| a | b);
        self.edges.set_held(now);
    }

    fn pressed_repeat(&self, mask: u32, now: u64, rate: u64) -> bool {
        let e = &self.edges;
        let mut fires = false;
        (mask & (e.pressed | e.down)).each(|i| fires |= e.repeats(i, 1 << i, now, rate));
        fires
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Pointer {
    /// The latest position the host reported, and whether it reported one at all.
    latest: (i32, i32),
    active: bool,
    wheel_pending: (f32, f32),
    /// What the current update sees.
    pos: (i32, i32),
    delta: (i32, i32),
    wheel: (f32, f32),
    /// Whether the pointer was over the display as the current update began.
    active_seen: bool,
    seen: bool,
}

/// Everything the host feeds and `update` reads, for all players.
///
/// Edges are collected between updates and handed to the next update that begins: a press is seen
/// by exactly one update, even when the frame it arrived in ran no update, and even when the button
/// was let go again before that update (a tap faster than a tick). When one frame runs several
/// updates, only the first sees the edge; `is_down` holds in all of them. Keys, pointer buttons and
/// gamepad buttons all follow this rule. Levels (pointer position, axes) are sampled as each
/// update begins, so every update of a run sees the same values whatever the frame rate was.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// Updates begun so far: the time base of repeats, immune to `reset_ticks`.
    updates: u64,
    players: [PlayerButtons; PLAYERS],
    keys: Edges<u128, KEY_COUNT>,
    pointer: Pointer,
    axes_latest: [[f32; AXES]; PLAYERS],
    axes: [[f32; AXES]; PLAYERS],
    pads: [bool; PLAYERS],
    /// Which gamepads were connected as the current update began.
    pads_seen: [bool; PLAYERS],
    text_pending: String,
    text: String,
}

impl Default for Input {
    fn default() -> Input {
        Input::blank(
            String::with_capacity(INPUT_STRING_CAPACITY),
            String::with_capacity(INPUT_STRING_CAPACITY),
        )
    }
}

impl Input {
    /// Records a button change injected directly ([`Source::Direct`]). Out-of-range players are
    /// ignored.
    pub fn set_buttons(&mut self, player: usize, buttons: u32, down: bool) {
        self.set_buttons_from(Source::Direct, player, buttons, down);
    }

    /// Records that `source` pressed or let go of the buttons of a mask.
    pub fn set_buttons_from(&mut self, source: Source, player: usize, buttons: u32, down: bool) {
        let Some(p) = self.players.get_mut(player) else {
            return;
        };
        let s = source.index();
        let held = if down {
            p.by_source[s] | buttons
        } else {
            p.by_source[s] & !buttons
        };
        p.set_source(s, held);
    }

    /// Replaces everything `source` holds for `player` with `held` (a key map recomputes the
    /// whole mask from the keys down; a gamepad reports its whole state).
    pub fn set_held_from(&mut self, source: Source, player: usize, held: u32) {
        if let Some(p) = self.players.get_mut(player) {
            p.set_source(source.index(), held);
        }
    }

    /// What `source` holds for `player` now.
    pub fn held_from(&self, source: Source, player: usize) -> u32 {
        self.players
            .get(player)
            .map_or(0, |p| p.by_source[source.index()])
    }

    /// Records a key going down or up.
    pub fn set_key(&mut self, key: Key, down: bool) {
        let k = &mut self.keys;
        let bit = key.bit();
        k.set_held(if down { k.held | bit } else { k.held & !bit });
    }

    /// Whether the host says `key` is physically held right now (not what an update sees).
    pub fn key_held_now(&self, key: Key) -> bool {
        self.keys.held & key.bit() != 0
    }

    /// Appends typed text for the next update. Control characters are skipped; text beyond
    /// [`INPUT_STRING_CAPACITY`] bytes is dropped.
    pub fn push_text(&mut self, text: &str) {
        for c in text.chars().filter(|c| !c.is_control()) {
            if self.text_pending.len() + c.len_utf8() > INPUT_STRING_CAPACITY {
                break;
            }
            self.text_pending.push(c);
        }
    }

    /// Records where the pointer is, in display pixels.
    pub fn set_pointer_pos(&mut self, x: i32, y: i32) {
        self.pointer.latest = (x, y);
        self.pointer.active = true;
    }

    /// Records that the pointer left the display (its last position is kept).
    pub fn set_pointer_inactive(&mut self) {
        self.pointer.active = false;
    }

    /// Adds wheel movement (in lines; positive is right and down).
    pub fn add_wheel(&mut self, dx: f32, dy: f32) {
        if dx.is_finite() && dy.is_finite() {
            self.pointer.wheel_pending.0 += dx;
            self.pointer.wheel_pending.1 += dy;
        }
    }

    /// Records a raw axis reading for `player` (sticks -1..1, triggers 0..1). Out-of-range players
    /// or axes are ignored.
    pub fn set_axis(&mut self, player: usize, axis: usize, value: f32) {
        if let Some(a) = self
            .axes_latest
            .get_mut(player)
            .and_then(|p| p.get_mut(axis))
        {
            *a = if value.is_finite() { value } else { 0.0 };
        }
    }

    /// Records whether a gamepad is connected for `player`. Disconnecting releases its buttons and
    /// centres its axes.
    pub fn set_gamepad_connected(&mut self, player: usize, connected: bool) {
        let Some(slot) = self.pads.get_mut(player) else {
            return;
        };
        *slot = connected;
        if !connected {
            self.set_held_from(Source::Gamepad, player, 0);
            self.axes_latest[player] = [0.0; AXES];
        }
    }

    /// Called by the host as each update begins: the edges collected so far become visible.
    pub fn begin_update(&mut self) {
        self.updates += 1;
        let n = self.updates;
        for p in &mut self.players {
            p.edges.begin_update(n);
        }
        self.keys.begin_update(n);
        let ptr = &mut self.pointer;
        ptr.delta = if ptr.seen {
            (ptr.latest.0 - ptr.pos.0, ptr.latest.1 - ptr.pos.1)
        } else {
            (0, 0)
        };
        ptr.seen = true;
        ptr.pos = ptr.latest;
        ptr.wheel = std::mem::take(&mut ptr.wheel_pending);
        ptr.active_seen = ptr.active;
        self.axes = self.axes_latest;
        self.pads_seen = self.pads;
        std::mem::swap(&mut self.text, &mut self.text_pending);
        self.text_pending.clear();
    }

    /// Exactly what the current update sees (call it after [`Input::begin_update`]): every
    /// query an update can make answers from this and the repeat counters, which
    /// [`Input::begin_update_from`] rebuilds. Never allocates.
    pub fn visible(&self) -> TickInput {
        let mut tick = TickInput::default();
        tick.keys_down = self.keys.down;
        tick.keys_pressed = self.keys.pressed;
        tick.keys_released = self.keys.released;
        tick.pointer_pos = self.pointer.pos;
        tick.pointer_delta = self.pointer.delta;
        tick.pointer_wheel = self.pointer.wheel;
        tick.pointer_active = self.pointer.active_seen;
        tick.axes = self.axes;
        tick.pads = self.pads_seen;
        for (b, p) in tick.buttons.iter_mut().zip(&self.players) {
            *b = TickButtons {
                down: p.edges.down,
                pressed: p.edges.pressed,
                released: p.edges.released,
            };
        }
        tick.set_text(&self.text);
        tick
    }

    /// Begins the next update as [`Input::begin_update`] does, except that the update sees
    /// exactly `tick` instead of what the host fed since the previous update (a replay). The
    /// repeat counters move as they would have live, so `is_pressed_repeat` answers the same.
    ///
    /// Edges the host fed meanwhile are dropped; what it holds is kept, so live input carries
    /// on from the host's state once the replay stops.
    pub fn begin_update_from(&mut self, tick: &TickInput) {
        self.updates += 1;
        let n = self.updates;
        for (p, b) in self.players.iter_mut().zip(&tick.buttons) {
            p.edges.replay(b.down, b.pressed, b.released, n);
        }
        self.keys
            .replay(tick.keys_down, tick.keys_pressed, tick.keys_released, n);
        let ptr = &mut self.pointer;
        ptr.pos = tick.pointer_pos;
        ptr.delta = tick.pointer_delta;
        ptr.wheel = tick.pointer_wheel;
        ptr.wheel_pending = (0.0, 0.0);
        ptr.active_seen = tick.pointer_active;
        ptr.seen = true;
        self.axes = tick.axes;
        self.pads_seen = tick.pads;
        self.text.clear();
        self.text.push_str(tick.text());
        self.text_pending.clear();
    }

    /// Forgets every edge, held button and key, and typed text (used when replaying from the
    /// start). Keeps the text buffers.
    pub fn clear(&mut self) {
        let mut text = std::mem::take(&mut self.text);
        let mut pending = std::mem::take(&mut self.text_pending);
        text.clear();
        pending.clear();
        *self = Input::blank(text, pending);
    }

    fn blank(text: String, text_pending: String) -> Input {
        Input {
            updates: 0,
            players: [PlayerButtons::default(); PLAYERS],
            keys: Edges::default(),
            pointer: Pointer::default(),
            axes_latest: [[0.0; AXES]; PLAYERS],
            axes: [[0.0; AXES]; PLAYERS],
            pads: [false; PLAYERS],
            pads_seen: [false; PLAYERS],
            text_pending,
            text,
        }
    }

    fn player(&self, player: usize) -> PlayerButtons {
        self.players.get(player).copied().unwrap_or_default()
    }

    /// Whether any button of the mask is held in this update.
    pub fn is_down(&self, buttons: u32, player: usize) -> bool {
        self.player(player).edges.down & buttons != 0
    }

    /// Whether any button of the mask went down since the previous update.
    pub fn is_pressed(&self, buttons: u32, player: usize) -> bool {
        self.player(player).edges.pressed & buttons != 0
    }

    /// Like [`Input::is_pressed`], and also every `rate` updates while a button of the mask stays
    /// held (the press at update `n` fires again at `n + rate`, `n + 2 rate`, ...). `rate` 0 is
    /// plain `is_pressed`.
    pub fn is_pressed_repeat(&self, buttons: u32, player: usize, rate: u64) -> bool {
        self.players
            .get(player)
            .is_some_and(|p| p.pressed_repeat(buttons, self.updates, rate))
    }

    /// Whether any button of the mask came up since the previous update.
    pub fn is_released(&self, buttons: u32, player: usize) -> bool {
        self.player(player).edges.released & buttons != 0
    }

    /// Whether `key` is held in this update.
    pub fn is_key_down(&self, key: Key) -> bool {
        self.keys.down & key.bit() != 0
    }

    /// Whether `key` went down since the previous update.
    pub fn is_key_pressed(&self, key: Key) -> bool {
        self.keys.pressed & key.bit() != 0
    }

    /// Like [`Input::is_key_pressed`], repeating every `rate` updates while held.
    pub fn is_key_pressed_repeat(&self, key: Key, rate: u64) -> bool {
        self.keys
            .repeats(key as usize, key.bit(), self.updates, rate)
    }

    /// Whether `key` came up since the previous update.
    pub fn is_key_released(&self, key: Key) -> bool {
        self.keys.released & key.bit() != 0
    }

    /// Whether any key is held.
    pub fn is_any_key_down(&self) -> bool {
        self.keys.down != 0
    }

    /// Whether any key went down since the previous update.
    pub fn is_any_key_pressed(&self) -> bool {
        self.keys.pressed != 0
    }

    /// Like [`Input::is_any_key_pressed`], also firing for any key held for a multiple of `rate`
    /// updates.
    pub fn is_any_key_pressed_repeat(&self, rate: u64) -> bool {
        let k = &self.keys;
        let mut fires = false;
        (k.pressed | k.down).each(|i| fires |= k.repeats(i, 1 << i, self.updates, rate));
        fires
    }

    /// Whether a key came up since the previous update and now no key at all is held (the moment
    /// the keyboard went quiet).
    pub fn is_any_key_released(&self) -> bool {
        self.keys.released != 0 && self.keys.down == 0
    }

    /// Text typed since the previous update.
    pub fn input_string(&self) -> &str {
        &self.text
    }

    /// The pointer's position in display pixels (clamped to the display by the host).
    pub fn pointer_pos(&self) -> (i32, i32) {
        self.pointer.pos
    }

    /// How far the pointer moved since the previous update, in display pixels.
    pub fn pointer_delta(&self) -> (i32, i32) {
        self.pointer.delta
    }

    /// Wheel movement since the previous update, in lines (positive is right and down).
    pub fn pointer_wheel(&self) -> (f32, f32) {
        self.pointer.wheel
    }

    /// Whether the pointer was over the display as this update began.
    pub fn is_pointer_active(&self) -> bool {
        self.pointer.active_seen
    }

    /// An axis of a player's gamepad: sticks -1..1 after [`STICK_DEAD_ZONE`], triggers 0..1. Reads
    /// 0 for unknown players and axes.
    pub fn axis(&self, axis: usize, player: usize) -> f32 {
        let raw = self
            .axes
            .get(player)
            .and_then(|p| p.get(axis))
            .copied()
            .unwrap_or(0.0);
        match axis {
            AXIS_TRIGGER_L | AXIS_TRIGGER_R => raw.clamp(0.0, 1.0),
            _ => stick_with_dead_zone(raw),
        }
    }

    /// Whether a gamepad was connected for `player` as this update began.
    pub fn is_gamepad_connected(&self, player: usize) -> bool {
        self.pads_seen.get(player).copied().unwrap_or(false)
    }

    /// How many gamepads were connected as this update began.
    pub fn gamepad_count(&self) -> usize {
        self.pads_seen.iter().filter(|&&c| c).count()
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

    #[test]
    fn sources_hold_a_button_together() {
        let mut i = Input::default();
        i.set_buttons_from(Source::Keyboard, 0, BTN_A, true);
        i.set_buttons_from(Source::Gamepad, 0, BTN_A, true);
        i.set_buttons_from(Source::Keyboard, 0, BTN_A, false);
        i.begin_update();
        assert!(i.is_down(BTN_A, 0));
        assert!(i.is_pressed(BTN_A, 0));
        assert!(!i.is_released(BTN_A, 0), "the pad still holds it");
        i.set_held_from(Source::Gamepad, 0, 0);
        i.begin_update();
        assert!(i.is_released(BTN_A, 0));
    }

    #[test]
    fn repeat_fires_on_the_press_then_every_rate_updates() {
        let mut i = Input::default();
        i.set_buttons(0, BTN_DOWN, true);
        let fired: Vec<bool> = (0..10)
            .map(|_| {
                i.begin_update();
                i.is_pressed_repeat(BTN_DOWN | BTN_UP, 0, 4)
            })
            .collect();
        let want = [
            true, false, false, false, true, false, false, false, true, false,
        ];
        assert_eq!(fired, want);
        i.set_buttons(0, BTN_DOWN, false);
        i.begin_update();
        assert!(!i.is_pressed_repeat(BTN_DOWN, 0, 1));
        assert!(!i.is_pressed_repeat(BTN_DOWN, 7, 1), "unknown player");
    }

    #[test]
    fn keys_follow_the_same_edges_and_repeat() {
        let mut i = Input::default();
        i.set_key(Key::KeyW, true);
        i.set_key(Key::KeyW, false);
        i.begin_update();
        assert!(i.is_key_pressed(Key::KeyW) && i.is_key_released(Key::KeyW));
        assert!(
            i.is_key_down(Key::KeyW),
            "a tap is down for the update that sees it"
        );
        assert!(i.is_any_key_pressed());
        i.begin_update();
        assert!(!i.is_key_pressed(Key::KeyW) && !i.is_any_key_down());
        i.set_key(Key::Space, true);
        let fired: Vec<bool> = (0..7)
            .map(|_| {
                i.begin_update();
                i.is_key_pressed_repeat(Key::Space, 3)
            })
            .collect();
        assert_eq!(fired, [true, false, false, true, false, false, true]);
        assert!(i.is_any_key_pressed_repeat(3) == i.is_key_pressed_repeat(Key::Space, 3));
    }

    #[test]
    fn any_key_released_waits_for_the_last_key() {
        let mut i = Input::default();
        i.set_key(Key::KeyA, true);
        i.set_key(Key::KeyB, true);
        i.begin_update();
        i.set_key(Key::KeyA, false);
        i.begin_update();
        assert!(!i.is_any_key_released(), "B still held");
        i.set_key(Key::KeyB, false);
        i.begin_update();
        assert!(i.is_any_key_released());
    }

    #[test]
    fn pointer_levels_are_sampled_per_update() {
        let mut i = Input::default();
        i.set_pointer_pos(10, 20);
        i.begin_update();
        assert_eq!((i.pointer_pos(), i.pointer_delta()), ((10, 20), (0, 0)));
        i.set_pointer_pos(12, 21);
        i.set_pointer_pos(15, 25);
        i.add_wheel(0.0, 1.0);
        i.add_wheel(0.0, 2.0);
        i.begin_update();
        assert_eq!(i.pointer_delta(), (5, 5));
        assert_eq!(i.pointer_wheel(), (0.0, 3.0));
        i.begin_update();
        assert_eq!((i.pointer_delta(), i.pointer_wheel()), ((0, 0), (0.0, 0.0)));
        assert!(i.is_pointer_active());
    }

    #[test]
    fn sticks_have_a_renormalised_dead_zone_and_triggers_clamp() {
        assert_eq!(stick_with_dead_zone(0.7), 0.0);
        assert_eq!(stick_with_dead_zone(-0.75), 0.0);
        assert!((stick_with_dead_zone(0.875) - 0.5).abs() < 1e-6);
        assert!((stick_with_dead_zone(-1.0) + 1.0).abs() < 1e-6);
        assert_eq!(stick_with_dead_zone(f32::NAN), 0.0);
        let mut i = Input::default();
        i.set_gamepad_connected(1, true);
        i.set_axis(1, AXIS_LEFT_X, -0.875);
        i.set_axis(1, AXIS_TRIGGER_R, 1.5);
        assert_eq!(i.axis(AXIS_LEFT_X, 1), 0.0, "not before the next update");
        i.begin_update();
        assert!((i.axis(AXIS_LEFT_X, 1) + 0.5).abs() < 1e-6);
        assert_eq!(i.axis(AXIS_TRIGGER_R, 1), 1.0);
        assert_eq!(i.gamepad_count(), 1);
        i.set_gamepad_connected(1, false);
        i.begin_update();
        assert_eq!(i.axis(AXIS_LEFT_X, 1), 0.0);
        assert!(!i.is_gamepad_connected(1));
    }

    #[test]
    fn typed_text_reaches_one_update_and_is_bounded() {
        let mut i = Input::default();
        i.push_text("hé");
        i.push_text("\u{8}");
        i.begin_update();
        assert_eq!(i.input_string(), "hé");
        i.begin_update();
        assert_eq!(i.input_string(), "");
        i.push_text(&"x".repeat(100));
        i.begin_update();
        assert_eq!(i.input_string().len(), INPUT_STRING_CAPACITY);
    }

    #[derive(Debug, Clone)]
    enum Op {
        Buttons(usize, usize, u32, bool),
        Key(usize, bool),
        Text(String),
        Pointer(i32, i32),
        PointerLeft,
        Wheel(f32, f32),
        Axis(usize, usize, f32),
        Pad(usize, bool),
        Update,
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        let sources = 0..SOURCES;
        prop_oneof![
            (sources, 0..PLAYERS + 1, any::<u32>(), any::<bool>())
                .prop_map(|(s, p, m, d)| Op::Buttons(s, p, m & 0x3ffff, d)),
            (0..KEY_COUNT, any::<bool>()).prop_map(|(k, d)| Op::Key(k, d)),
            "[a-zé\u{8}]{0,5}".prop_map(Op::Text),
            (-5..300i32, -5..200i32).prop_map(|(x, y)| Op::Pointer(x, y)),
            Just(Op::PointerLeft),
            (-2.0..2.0f32, -2.0..2.0f32).prop_map(|(x, y)| Op::Wheel(x, y)),
            (0..PLAYERS, 0..AXES, -1.5..1.5f32).prop_map(|(p, a, v)| Op::Axis(p, a, v)),
            (0..PLAYERS, any::<bool>()).prop_map(|(p, c)| Op::Pad(p, c)),
            Just(Op::Update),
            Just(Op::Update),
            Just(Op::Update),
        ]
    }

    fn apply(i: &mut Input, op: &Op) {
        let sources = [
            Source::Keyboard,
            Source::Gamepad,
            Source::Pointer,
            Source::Direct,
        ];
        match op {
            Op::Buttons(s, p, m, d) => i.set_buttons_from(sources[*s], *p, *m, *d),
            Op::Key(k, d) => i.set_key(Key::ALL[*k], *d),
            Op::Text(t) => i.push_text(t),
            Op::Pointer(x, y) => i.set_pointer_pos(*x, *y),
            Op::PointerLeft => i.set_pointer_inactive(),
            Op::Wheel(x, y) => i.add_wheel(*x, *y),
            Op::Axis(p, a, v) => i.set_axis(*p, *a, *v),
            Op::Pad(p, c) => i.set_gamepad_connected(*p, *c),
            Op::Update => {}
        }
    }

    /// Every answer an update can get from the input, as text.
    fn answers(i: &Input) -> String {
        let mut out = String::new();
        for p in 0..=PLAYERS {
            for b in 0..BUTTON_COUNT {
                let m = 1 << b;
                out.push_str(&format!(
                    "{}{}{}",
                    u8::from(i.is_down(m, p)),
                    u8::from(i.is_pressed(m, p)),
                    u8::from(i.is_released(m, p))
                ));
                for rate in 0..5 {
                    out.push(if i.is_pressed_repeat(m, p, rate) {
                        '1'
                    } else {
                        '0'
                    });
                }
            }
            out.push_str(&format!(
                "|{}{}|",
                i.is_pressed_repeat(BTN_ABXY | BTN_UP, p, 3),
                i.is_gamepad_connected(p)
            ));
            for a in 0..=AXES {
                out.push_str(&format!("{},", i.axis(a, p)));
            }
        }
        for &k in Key::ALL.iter() {
            out.push_str(&format!(
                "{}{}{}",
                u8::from(i.is_key_down(k)),
                u8::from(i.is_key_pressed(k)),
                u8::from(i.is_key_released(k))
            ));
            for rate in 0..5 {
                out.push(if i.is_key_pressed_repeat(k, rate) {
                    '1'
                } else {
                    '0'
                });
            }
        }
        for rate in 0..5 {
            out.push_str(&format!("{}", i.is_any_key_pressed_repeat(rate)));
        }
        out.push_str(&format!(
            "|{}{}{}|{:?}|{:?}{:?}{:?}{}|{}",
            i.is_any_key_down(),
            i.is_any_key_pressed(),
            i.is_any_key_released(),
            i.input_string(),
            i.pointer_pos(),
            i.pointer_delta(),
            i.pointer_wheel(),
            i.is_pointer_active(),
            i.gamepad_count()
        ));
        out
    }

    proptest::proptest! {
        #[test]
        fn a_captured_tick_restored_answers_every_query_the_same(
            live_ops in proptest::collection::vec(op(), 0..120),
            noise in proptest::collection::vec(op(), 0..120),
        ) {
            let mut live = Input::default();
            let mut replayed = Input::default();
            let mut noise = noise.iter().cycle();
            for op in &live_ops {
                apply(&mut live, op);
                if let Some(n) = noise.next() {
                    apply(&mut replayed, n);
                }
                if matches!(op, Op::Update) {
                    live.begin_update();
                    let tick = live.visible();
                    replayed.begin_update_from(&tick);
                    proptest::prop_assert_eq!(answers(&live), answers(&replayed));
                    proptest::prop_assert_eq!(replayed.visible(), tick);
                }
            }
        }
    }

    #[test]
    fn a_replayed_held_button_repeats_as_it_did_live() {
        let mut live = Input::default();
        let mut replayed = Input::default();
        live.set_buttons(0, BTN_DOWN, true);
        for _ in 0..9 {
            live.begin_update();
            replayed.begin_update_from(&live.visible());
            assert_eq!(
                live.is_pressed_repeat(BTN_DOWN, 0, 4),
                replayed.is_pressed_repeat(BTN_DOWN, 0, 4)
            );
        }
    }
}
