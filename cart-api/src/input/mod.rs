//! Input as the simulation sees it: buttons, keys, the pointer, gamepad axes and typed text,
//! collected from the host between updates and handed to the next update that begins.

mod key_map;
mod keys;
mod pad;
mod tick;

pub use key_map::{
    KeyMapError, KeyMapTable, KeySet, BUTTON_NAMES, HOST_KEYS, KEYBOARD_PLAYERS, MAPPABLE_BUTTONS,
};
pub use keys::{Key, UnknownKey, KEY_COUNT};
pub use pad::{Axis, Button, Player, AXES, BUTTON_COUNT, PLAYERS};
pub use tick::{TickButtons, TickInput};

/// Touches a cart can follow at once, each in its own slot (`0..TOUCH_SLOTS`): a finger keeps
/// its slot from touching down to lifting off, and a new finger takes the first free slot. The
/// mouse is not a touch; it is the pointer.
pub const TOUCH_SLOTS: usize = 3;

/// One touch as an update sees it ([`Update::touch`](crate::Update::touch)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Touch {
    /// Where the finger is (or lifted off), in display pixels, clamped to the display.
    pub pos: (i32, i32),
    /// How far it moved since the previous update; `(0, 0)` on the update it touched down.
    pub delta: (i32, i32),
    /// Whether it is on the screen in this update (a tap shorter than a tick is down, pressed
    /// and released in the one update that sees it, as a button is).
    pub down: bool,
    /// Whether it touched down since the previous update.
    pub pressed: bool,
    /// Whether it lifted off since the previous update.
    pub released: bool,
}

/// Stick travel below this fraction reads as 0: worn sticks rarely rest at the centre, and a
/// fantasy console reads sticks as something close to a d-pad. Beyond it the rest of the travel
/// is stretched back to the full 0..1 range.
pub const STICK_DEAD_ZONE: f32 = 0.75;

/// A trigger pulled at least this far counts as its button (`Button::L2`, `Button::R2`) held.
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

/// Whether a pressed-with-repeat check fires: on the press itself, then every `every_ticks`
/// updates while the input stays down. `every_ticks` 0 means no repeat.
fn repeat_fires(pressed: bool, down: bool, since: u64, now: u64, every_ticks: u64) -> bool {
    if pressed {
        return true;
    }
    let held_for = now.saturating_sub(since);
    down && every_ticks > 0 && held_for > 0 && held_for.is_multiple_of(every_ticks)
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

    /// The host holds what the current update sees; pending edges drop.
    fn hold_seen(&mut self) {
        self.held = self.down;
        self.pending_pressed = B::default();
        self.pending_released = B::default();
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
    fn repeats(&self, i: usize, bit: B, now: u64, every_ticks: u64) -> bool {
        let since = self.since.get(i).copied().unwrap_or(now);
        repeat_fires(
            (self.pressed & bit).any(),
            (self.down & bit).any(),
            since,
            now,
            every_ticks,
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

    fn pressed_repeat(&self, mask: u32, now: u64, every_ticks: u64) -> bool {
        let e = &self.edges;
        let mut fires = false;
        (mask & (e.pressed | e.down)).each(|i| fires |= e.repeats(i, 1 << i, now, every_ticks));
        fires
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Pointer {
    /// The latest position the host reported, and whether it reported one at all.
    latest: (i32, i32),
    active: bool,
    /// Motion the host reported while the pointer was locked, since the last update.
    motion_pending: (i32, i32),
    wheel_pending: (f32, f32),
    /// What the current update sees.
    pos: (i32, i32),
    delta: (i32, i32),
    wheel: (f32, f32),
    /// Whether the pointer was over the display as the current update began.
    active_seen: bool,
    seen: bool,
}

/// The touch slots: where each finger is, and the edges of touching down and lifting off.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Touches {
    /// The latest position the host reported for each slot.
    latest: [(i32, i32); TOUCH_SLOTS],
    edges: Edges<u32, TOUCH_SLOTS>,
    /// What the current update sees.
    pos: [(i32, i32); TOUCH_SLOTS],
    delta: [(i32, i32); TOUCH_SLOTS],
}

impl Touches {
    /// Update number `update` begins: positions are sampled, edges become visible.
    fn begin_update(&mut self, update: u64) {
        self.edges.begin_update(update);
        for slot in 0..TOUCH_SLOTS {
            let bit = 1 << slot;
            let e = &self.edges;
            let moved = e.pressed & bit == 0 && (e.down | e.released) & bit != 0;
            let (now, was) = (self.latest[slot], self.pos[slot]);
            self.delta[slot] = if moved {
                (now.0 - was.0, now.1 - was.1)
            } else {
                (0, 0)
            };
            self.pos[slot] = now;
        }
    }

    fn get(&self, slot: usize) -> Option<Touch> {
        let bit = 1u32 << slot.min(31);
        let e = &self.edges;
        (slot < TOUCH_SLOTS && (e.down | e.released) & bit != 0).then(|| Touch {
            pos: self.pos[slot],
            delta: self.delta[slot],
            down: e.down & bit != 0,
            pressed: e.pressed & bit != 0,
            released: e.released & bit != 0,
        })
    }
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
    touches: Touches,
    axes_latest: [[f32; AXES]; PLAYERS],
    axes: [[f32; AXES]; PLAYERS],
    pads: [bool; PLAYERS],
    /// Which gamepads were connected as the current update began.
    pads_seen: [bool; PLAYERS],
    text_pending: String,
    text: String,
    /// The cart's menu item chosen for the next update (slot + 1, 0 for none), and the one the
    /// current update sees.
    menu_pending: u8,
    menu_seen: u8,
    /// The player's reduced-motion preference: as the run booted (what `init` sees, and again
    /// after [`Input::clear`]), as the host last said, as the current update sees it and as
    /// the update before saw it.
    motion_boot: bool,
    motion_latest: bool,
    motion_seen: bool,
    motion_before: bool,
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
    /// Bytes held on the heap: the typed text (a snapshot's size).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.text_pending.capacity() + self.text.capacity()
    }

    /// Records a button change injected directly ([`Source::Direct`]).
    pub fn set_buttons(&mut self, buttons: Button, player: Player, down: bool) {
        self.set_buttons_from(Source::Direct, buttons, player, down);
    }

    /// Records that `source` pressed or let go of the buttons of a set.
    pub fn set_buttons_from(
        &mut self,
        source: Source,
        buttons: Button,
        player: Player,
        down: bool,
    ) {
        let p = &mut self.players[player.index()];
        let s = source.index();
        let held = if down {
            p.by_source[s] | buttons.bits()
        } else {
            p.by_source[s] & !buttons.bits()
        };
        p.set_source(s, held);
    }

    /// Replaces everything `source` holds for `player` with `held` (a key map recomputes the
    /// whole set from the keys down; a gamepad reports its whole state).
    pub fn set_held_from(&mut self, source: Source, held: Button, player: Player) {
        self.players[player.index()].set_source(source.index(), held.bits());
    }

    /// What `source` holds for `player` now.
    pub fn held_from(&self, source: Source, player: Player) -> Button {
        Button::from_bits(self.players[player.index()].by_source[source.index()])
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

    /// Records motion of a locked pointer (see [`crate::Update::set_pointer_locked`]), in
    /// display pixels: it adds to the next update's [`Input::pointer_delta`] without moving
    /// the position, which a locked pointer keeps.
    pub fn add_pointer_motion(&mut self, dx: i32, dy: i32) {
        let m = &mut self.pointer.motion_pending;
        *m = (m.0.saturating_add(dx), m.1.saturating_add(dy));
    }

    /// Records that the pointer left the display (its last position is kept).
    pub fn set_pointer_inactive(&mut self) {
        self.pointer.active = false;
    }

    /// Records touch slot `slot` (below [`TOUCH_SLOTS`]; others are ignored): a finger at
    /// display pixel `Some((x, y))` (touching down when the slot was free), or `None` when it
    /// lifted off. Choosing the slot of each finger is the host's job (the first free one).
    pub fn set_touch(&mut self, slot: usize, at: Option<(i32, i32)>) {
        if slot >= TOUCH_SLOTS {
            return;
        }
        let t = &mut self.touches;
        let bit = 1u32 << slot;
        match at {
            Some(pos) => {
                t.latest[slot] = pos;
                t.edges.set_held(t.edges.held | bit);
            }
            None => t.edges.set_held(t.edges.held & !bit),
        }
    }

    /// Touch slot `slot` as this update sees it: `None` when no finger was on it during the
    /// update and none lifted off it since the previous one.
    pub fn touch(&self, slot: usize) -> Option<Touch> {
        self.touches.get(slot)
    }

    /// Adds wheel movement (in lines; positive is right and down).
    pub fn add_wheel(&mut self, dx: f32, dy: f32) {
        if dx.is_finite() && dy.is_finite() {
            self.pointer.wheel_pending.0 += dx;
            self.pointer.wheel_pending.1 += dy;
        }
    }

    /// Records a raw reading of `player`'s `axis` (sticks -1..1, triggers 0..1; a value that is
    /// not finite reads as 0).
    pub fn set_axis(&mut self, axis: Axis, player: Player, value: f32) {
        self.axes_latest[player.index()][axis.index()] =
            if value.is_finite() { value } else { 0.0 };
    }

    /// Records whether a gamepad is connected for `player`. Disconnecting releases its buttons and
    /// centres its axes.
    pub fn set_gamepad_connected(&mut self, player: Player, connected: bool) {
        self.pads[player.index()] = connected;
        if !connected {
            self.set_held_from(Source::Gamepad, Button::NONE, player);
            self.axes_latest[player.index()] = [0.0; AXES];
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
        let moved = if ptr.seen {
            (ptr.latest.0 - ptr.pos.0, ptr.latest.1 - ptr.pos.1)
        } else {
            (0, 0)
        };
        let motion = std::mem::take(&mut ptr.motion_pending);
        ptr.delta = (
            moved.0.saturating_add(motion.0),
            moved.1.saturating_add(motion.1),
        );
        ptr.seen = true;
        ptr.pos = ptr.latest;
        ptr.wheel = std::mem::take(&mut ptr.wheel_pending);
        ptr.active_seen = ptr.active;
        self.touches.begin_update(n);
        self.axes = self.axes_latest;
        self.pads_seen = self.pads;
        std::mem::swap(&mut self.text, &mut self.text_pending);
        self.text_pending.clear();
        self.menu_seen = std::mem::take(&mut self.menu_pending);
        self.motion_before = self.motion_seen;
        self.motion_seen = self.motion_latest;
    }

    /// Sets the player's reduced-motion preference as the run boots: `init` sees it, and so
    /// does every update until the host says otherwise ([`Input::set_reduced_motion`]). A
    /// replay boots with the recorded run's. It lasts through [`Input::clear`].
    pub fn boot_reduced_motion(&mut self, on: bool) {
        self.motion_boot = on;
        self.motion_latest = on;
        self.motion_seen = on;
        self.motion_before = on;
    }

    /// The player's reduced-motion preference now (a setting, or the browser's
    /// `prefers-reduced-motion` following a change): the next update sees it, and
    /// [`Update::reduced_motion_changed`](crate::Update::reduced_motion_changed) in that update
    /// when it differs from what the update before saw.
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.motion_latest = on;
    }

    /// The reduced-motion preference the host last gave ([`Input::set_reduced_motion`]).
    pub fn reduced_motion_latest(&self) -> bool {
        self.motion_latest
    }

    /// The reduced-motion preference the run booted with ([`Input::boot_reduced_motion`]).
    pub fn reduced_motion_at_boot(&self) -> bool {
        self.motion_boot
    }

    /// Whether the current update (or `init`) sees the player preferring reduced motion.
    pub fn prefers_reduced_motion(&self) -> bool {
        self.motion_seen
    }

    /// Whether the current update sees another reduced-motion preference than the update
    /// before it (or `init`, for the first).
    pub fn reduced_motion_changed(&self) -> bool {
        self.motion_seen != self.motion_before
    }

    /// Records that the player chose the cart's pause-menu item `slot` (below
    /// [`MENU_ITEMS`](crate::limits::MENU_ITEMS); others are ignored): the next update sees it in
    /// [`Update::chosen_menu_item`](crate::Update::chosen_menu_item), once.
    pub fn choose_menu_item(&mut self, slot: usize) {
        if slot < crate::limits::MENU_ITEMS {
            self.menu_pending = slot as u8 + 1;
        }
    }

    /// The cart's pause-menu item the current update sees chosen, if any.
    pub fn chosen_menu_item(&self) -> Option<usize> {
        usize::from(self.menu_seen).checked_sub(1)
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
        let t = &self.touches;
        tick.touch_down = t.edges.down as u8;
        tick.touch_pressed = t.edges.pressed as u8;
        tick.touch_released = t.edges.released as u8;
        tick.touch_pos = t.pos;
        tick.touch_delta = t.delta;
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
        tick.menu_item = self.menu_seen;
        tick.reduced_motion = self.motion_seen;
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
        let t = &mut self.touches;
        let bits = |b: u8| u32::from(b) & ((1 << TOUCH_SLOTS) - 1);
        t.edges.replay(
            bits(tick.touch_down),
            bits(tick.touch_pressed),
            bits(tick.touch_released),
            n,
        );
        t.pos = tick.touch_pos;
        t.delta = tick.touch_delta;
        self.axes = tick.axes;
        self.pads_seen = tick.pads;
        self.text.clear();
        self.text.push_str(tick.text());
        self.text_pending.clear();
        self.menu_seen = tick.menu_item;
        self.menu_pending = 0;
        self.motion_before = self.motion_seen;
        self.motion_seen = tick.reduced_motion;
    }

    /// Makes what the host holds what the last update saw: held buttons, keys and touches,
    /// the pointer's and the touches' places, the axes and the pads. For a host going back to
    /// an update reached by replaying input ([`Input::begin_update_from`] sets only what the
    /// update sees), so that live input after it starts from that update's, as it would have
    /// had it been played live; edges not yet seen are dropped.
    pub fn hold_what_is_seen(&mut self) {
        for p in &mut self.players {
            p.edges.hold_seen();
        }
        self.keys.hold_seen();
        self.touches.edges.hold_seen();
        self.touches.latest = self.touches.pos;
        self.pointer.latest = self.pointer.pos;
        self.pointer.active = self.pointer.active_seen;
        self.axes_latest = self.axes;
        self.pads = self.pads_seen;
    }

    /// Forgets every edge, held button and key, and typed text (used when replaying from the
    /// start). Keeps the text buffers, and the reduced-motion preference the run booted with
    /// (which the updates see again from the start) and the host's latest.
    pub fn clear(&mut self) {
        let mut text = std::mem::take(&mut self.text);
        let mut pending = std::mem::take(&mut self.text_pending);
        text.clear();
        pending.clear();
        let (boot, latest) = (self.motion_boot, self.motion_latest);
        *self = Input::blank(text, pending);
        self.boot_reduced_motion(boot);
        self.motion_latest = latest;
    }

    fn blank(text: String, text_pending: String) -> Input {
        Input {
            updates: 0,
            players: [PlayerButtons::default(); PLAYERS],
            keys: Edges::default(),
            pointer: Pointer::default(),
            touches: Touches::default(),
            axes_latest: [[0.0; AXES]; PLAYERS],
            axes: [[0.0; AXES]; PLAYERS],
            pads: [false; PLAYERS],
            pads_seen: [false; PLAYERS],
            text_pending,
            menu_pending: 0,
            menu_seen: 0,
            motion_boot: false,
            motion_latest: false,
            motion_seen: false,
            motion_before: false,
            text,
        }
    }

    fn player(&self, player: Player) -> &PlayerButtons {
        &self.players[player.index()]
    }

    /// Whether any button of the set is held in this update.
    pub fn is_down(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.down & buttons.bits() != 0
    }

    /// Whether any button of the set went down since the previous update.
    pub fn is_pressed(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.pressed & buttons.bits() != 0
    }

    /// Like [`Input::is_pressed`], and also every `every_ticks` updates while a button of the set
    /// stays held (the press at update `n` fires again at `n + every_ticks`,
    /// `n + 2 every_ticks`, ...). `every_ticks` 0 is
    /// plain `is_pressed`.
    pub fn is_pressed_repeat(&self, buttons: Button, player: Player, every_ticks: u64) -> bool {
        self.player(player)
            .pressed_repeat(buttons.bits(), self.updates, every_ticks)
    }

    /// Whether any button of the set came up since the previous update.
    pub fn is_released(&self, buttons: Button, player: Player) -> bool {
        self.player(player).edges.released & buttons.bits() != 0
    }

    /// Whether `key` is held in this update.
    pub fn is_key_down(&self, key: Key) -> bool {
        self.keys.down & key.bit() != 0
    }

    /// Whether `key` went down since the previous update.
    pub fn is_key_pressed(&self, key: Key) -> bool {
        self.keys.pressed & key.bit() != 0
    }

    /// Like [`Input::is_key_pressed`], repeating every `every_ticks` updates while held.
    pub fn is_key_pressed_repeat(&self, key: Key, every_ticks: u64) -> bool {
        self.keys
            .repeats(key as usize, key.bit(), self.updates, every_ticks)
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

    /// Like [`Input::is_any_key_pressed`], also firing for any key held for a multiple of
    /// `every_ticks` updates.
    pub fn is_any_key_pressed_repeat(&self, every_ticks: u64) -> bool {
        let k = &self.keys;
        let mut fires = false;
        (k.pressed | k.down).each(|i| fires |= k.repeats(i, 1 << i, self.updates, every_ticks));
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

    /// An axis of a player's gamepad: sticks -1..1 after [`STICK_DEAD_ZONE`], triggers 0..1.
    pub fn axis(&self, axis: Axis, player: Player) -> f32 {
        let raw = self.axes[player.index()][axis.index()];
        if axis.is_trigger() {
            raw.clamp(0.0, 1.0)
        } else {
            stick_with_dead_zone(raw)
        }
    }

    /// Whether a gamepad was connected for `player` as this update began.
    pub fn is_gamepad_connected(&self, player: Player) -> bool {
        self.pads_seen[player.index()]
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
        i.set_buttons(Button::A, Player::ONE, true);
        i.set_buttons(Button::A, Player::ONE, false);
        i.begin_update();
        assert!(i.is_pressed(Button::A, Player::ONE));
        assert!(i.is_released(Button::A, Player::ONE));
        i.begin_update();
        assert!(!i.is_pressed(Button::A, Player::ONE));
        assert!(!i.is_down(Button::A, Player::ONE));
    }

    #[test]
    fn held_button_stays_down_but_presses_once() {
        let mut i = Input::default();
        i.set_buttons(Button::LEFT, Player::TWO, true);
        for n in 0..3 {
            i.begin_update();
            assert!(
                i.is_down(Button::LEFT | Button::RIGHT, Player::TWO),
                "mask matches any bit"
            );
            assert_eq!(i.is_pressed(Button::LEFT, Player::TWO), n == 0);
        }
        assert!(
            !i.is_down(Button::LEFT, Player::ONE),
            "other players unaffected"
        );
    }

    #[test]
    fn sources_hold_a_button_together() {
        let mut i = Input::default();
        i.set_buttons_from(Source::Keyboard, Button::A, Player::ONE, true);
        i.set_buttons_from(Source::Gamepad, Button::A, Player::ONE, true);
        i.set_buttons_from(Source::Keyboard, Button::A, Player::ONE, false);
        i.begin_update();
        assert!(i.is_down(Button::A, Player::ONE));
        assert!(i.is_pressed(Button::A, Player::ONE));
        assert!(
            !i.is_released(Button::A, Player::ONE),
            "the pad still holds it"
        );
        i.set_held_from(Source::Gamepad, Button::NONE, Player::ONE);
        i.begin_update();
        assert!(i.is_released(Button::A, Player::ONE));
    }

    #[test]
    fn repeat_fires_on_the_press_then_every_rate_updates() {
        let mut i = Input::default();
        i.set_buttons(Button::DOWN, Player::ONE, true);
        let fired: Vec<bool> = (0..10)
            .map(|_| {
                i.begin_update();
                i.is_pressed_repeat(Button::DOWN | Button::UP, Player::ONE, 4)
            })
            .collect();
        let want = [
            true, false, false, false, true, false, false, false, true, false,
        ];
        assert_eq!(fired, want);
        i.set_buttons(Button::DOWN, Player::ONE, false);
        i.begin_update();
        assert!(!i.is_pressed_repeat(Button::DOWN, Player::ONE, 1));
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
    fn a_locked_pointers_motion_is_its_delta_and_leaves_its_position() {
        let mut i = Input::default();
        i.set_pointer_pos(10, 20);
        i.begin_update();
        i.add_pointer_motion(3, -1);
        i.add_pointer_motion(4, 0);
        i.begin_update();
        assert_eq!((i.pointer_pos(), i.pointer_delta()), ((10, 20), (7, -1)));
        // Motion and a move in one update add up; the next update starts from nothing.
        i.add_pointer_motion(1, 1);
        i.set_pointer_pos(12, 20);
        i.begin_update();
        assert_eq!((i.pointer_pos(), i.pointer_delta()), ((12, 20), (3, 1)));
        i.begin_update();
        assert_eq!(i.pointer_delta(), (0, 0));
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
        i.set_gamepad_connected(Player::TWO, true);
        i.set_axis(Axis::LeftX, Player::TWO, -0.875);
        i.set_axis(Axis::TriggerR, Player::TWO, 1.5);
        assert_eq!(
            i.axis(Axis::LeftX, Player::TWO),
            0.0,
            "not before the next update"
        );
        i.begin_update();
        assert!((i.axis(Axis::LeftX, Player::TWO) + 0.5).abs() < 1e-6);
        assert_eq!(i.axis(Axis::TriggerR, Player::TWO), 1.0);
        assert_eq!(i.gamepad_count(), 1);
        i.set_gamepad_connected(Player::TWO, false);
        i.begin_update();
        assert_eq!(i.axis(Axis::LeftX, Player::TWO), 0.0);
        assert!(!i.is_gamepad_connected(Player::TWO));
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

    #[test]
    fn touches_keep_their_slot_and_follow_the_edge_rules() {
        let mut i = Input::default();
        i.set_touch(1, Some((10, 20)));
        i.begin_update();
        assert_eq!(i.touch(0), None);
        let t = i.touch(1).unwrap();
        assert_eq!(
            (t.pos, t.delta, t.down, t.pressed, t.released),
            ((10, 20), (0, 0), true, true, false)
        );
        i.set_touch(1, Some((12, 25)));
        i.begin_update();
        let t = i.touch(1).unwrap();
        assert_eq!((t.pos, t.delta, t.pressed), ((12, 25), (2, 5), false));
        i.set_touch(1, None);
        i.begin_update();
        let t = i.touch(1).unwrap();
        assert!(t.released && !t.down, "seen lifting off once");
        i.begin_update();
        assert_eq!(i.touch(1), None);
        // A tap shorter than a tick is down, pressed and released in the update that sees it.
        i.set_touch(2, Some((3, 4)));
        i.set_touch(2, None);
        i.set_touch(TOUCH_SLOTS, Some((1, 1)));
        i.begin_update();
        let t = i.touch(2).unwrap();
        assert!(t.down && t.pressed && t.released);
        assert_eq!(i.touch(TOUCH_SLOTS), None, "past the last slot: ignored");
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
        Touch(usize, Option<(i32, i32)>),
        Update,
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        let sources = 0..SOURCES;
        prop_oneof![
            (sources, 0..PLAYERS, any::<u32>(), any::<bool>())
                .prop_map(|(s, p, m, d)| Op::Buttons(s, p, m & 0x3ffff, d)),
            (0..KEY_COUNT, any::<bool>()).prop_map(|(k, d)| Op::Key(k, d)),
            "[a-zé\u{8}]{0,5}".prop_map(Op::Text),
            (-5..300i32, -5..200i32).prop_map(|(x, y)| Op::Pointer(x, y)),
            Just(Op::PointerLeft),
            (-2.0..2.0f32, -2.0..2.0f32).prop_map(|(x, y)| Op::Wheel(x, y)),
            (0..PLAYERS, 0..AXES, -1.5..1.5f32).prop_map(|(p, a, v)| Op::Axis(p, a, v)),
            (0..PLAYERS, any::<bool>()).prop_map(|(p, c)| Op::Pad(p, c)),
            (
                0..TOUCH_SLOTS + 1,
                proptest::option::of((-5..300i32, -5..200i32))
            )
                .prop_map(|(s, at)| Op::Touch(s, at)),
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
            Op::Buttons(s, p, m, d) => {
                i.set_buttons_from(sources[*s], Button::from_bits(*m), Player::ALL[*p], *d);
            }
            Op::Key(k, d) => i.set_key(Key::ALL[*k], *d),
            Op::Text(t) => i.push_text(t),
            Op::Pointer(x, y) => i.set_pointer_pos(*x, *y),
            Op::PointerLeft => i.set_pointer_inactive(),
            Op::Wheel(x, y) => i.add_wheel(*x, *y),
            Op::Axis(p, a, v) => i.set_axis(Axis::ALL[*a], Player::ALL[*p], *v),
            Op::Pad(p, c) => i.set_gamepad_connected(Player::ALL[*p], *c),
            Op::Touch(s, at) => i.set_touch(*s, *at),
            Op::Update => {}
        }
    }

    /// Every answer an update can get from the input, as text.
    fn answers(i: &Input) -> String {
        let mut out = String::new();
        for p in Player::ALL {
            for b in 0..BUTTON_COUNT {
                let m = Button::from_bits(1 << b);
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
                i.is_pressed_repeat(Button::ABXY | Button::UP, p, 3),
                i.is_gamepad_connected(p)
            ));
            for a in Axis::ALL {
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
        for slot in 0..=TOUCH_SLOTS {
            out.push_str(&format!("{:?}", i.touch(slot)));
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
        live.set_buttons(Button::DOWN, Player::ONE, true);
        for _ in 0..9 {
            live.begin_update();
            replayed.begin_update_from(&live.visible());
            assert_eq!(
                live.is_pressed_repeat(Button::DOWN, Player::ONE, 4),
                replayed.is_pressed_repeat(Button::DOWN, Player::ONE, 4)
            );
        }
    }
}
