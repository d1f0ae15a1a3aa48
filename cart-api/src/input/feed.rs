//! What the host does to [`Input`]: buttons, keys, text, pointer, touches, axes and pads
//! set as they change; each update begun, or replayed from what an update saw; and the
//! reduced-motion preference and the pause menu's choice.

use super::buttons::PlayerButtons;
use super::edges::Edges;
use super::pointer::{Pointer, Touches};
use super::*;

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

    pub(super) fn blank(text: String, text_pending: String) -> Input {
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
}
