//! `keys`: an input tester. An on-screen keyboard and a pad panel for four players light up what
//! the cart sees in `update`: held keys green, a press yellow for a moment, a release with a red
//! frame. A tap too fast for one tick still flashes, because its press and release both reach the
//! next update; the counters at the top count presses and such one-update taps.

use bt::limits::{KEY_COUNT, PLAYERS};
use bt::{Axis, Button, Cart, Font, Key, Player, Rect, Render, Settings, TextStyle, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "on-screen keyboard and pads lighting held, pressed and released";

/// How long a press or release stays lit, in ticks.
pub const FLASH_TICKS: u64 = 30;

/// Key cap fill colours: idle, held, just pressed.
pub const IDLE: u8 = 5;
/// Fill of a held key.
pub const HELD: u8 = 11;
/// Fill of a key pressed in the last [`FLASH_TICKS`].
pub const PRESSED: u8 = 10;
/// Frame of a key released in the last [`FLASH_TICKS`].
pub const RELEASED: u8 = 8;

const KEY_H: i32 = 15;
const PITCH: i32 = 17;
const TOP: i32 = 30;
const LEFT: i32 = 4;

/// The keyboard rows: each key with its label and width in pixels.
const ROWS: &[&[(Key, &str, i32)]] = &[
    &[
        (Key::Escape, "Es", 16),
        (Key::F1, "1", 14),
        (Key::F2, "2", 14),
        (Key::F3, "3", 14),
        (Key::F4, "4", 14),
        (Key::F5, "5", 14),
        (Key::F6, "6", 14),
        (Key::F7, "7", 14),
        (Key::F8, "8", 14),
        (Key::F9, "9", 14),
        (Key::F10, "10", 14),
        (Key::F11, "11", 14),
        (Key::F12, "12", 14),
    ],
    &[
        (Key::Backquote, "`", 14),
        (Key::Digit1, "1", 14),
        (Key::Digit2, "2", 14),
        (Key::Digit3, "3", 14),
        (Key::Digit4, "4", 14),
        (Key::Digit5, "5", 14),
        (Key::Digit6, "6", 14),
        (Key::Digit7, "7", 14),
        (Key::Digit8, "8", 14),
        (Key::Digit9, "9", 14),
        (Key::Digit0, "0", 14),
        (Key::Minus, "-", 14),
        (Key::Equal, "=", 14),
        (Key::Backspace, "<-", 28),
    ],
    &[
        (Key::Tab, "Tb", 21),
        (Key::KeyQ, "Q", 14),
        (Key::KeyW, "W", 14),
        (Key::KeyE, "E", 14),
        (Key::KeyR, "R", 14),
        (Key::KeyT, "T", 14),
        (Key::KeyY, "Y", 14),
        (Key::KeyU, "U", 14),
        (Key::KeyI, "I", 14),
        (Key::KeyO, "O", 14),
        (Key::KeyP, "P", 14),
        (Key::BracketLeft, "[", 14),
        (Key::BracketRight, "]", 14),
        (Key::Backslash, "\\", 21),
    ],
    &[
        (Key::CapsLock, "Cp", 25),
        (Key::KeyA, "A", 14),
        (Key::KeyS, "S", 14),
        (Key::KeyD, "D", 14),
        (Key::KeyF, "F", 14),
        (Key::KeyG, "G", 14),
        (Key::KeyH, "H", 14),
        (Key::KeyJ, "J", 14),
        (Key::KeyK, "K", 14),
        (Key::KeyL, "L", 14),
        (Key::Semicolon, ";", 14),
        (Key::Quote, "'", 14),
        (Key::Enter, "Ent", 32),
    ],
    &[
        (Key::ShiftLeft, "Sh", 33),
        (Key::KeyZ, "Z", 14),
        (Key::KeyX, "X", 14),
        (Key::KeyC, "C", 14),
        (Key::KeyV, "V", 14),
        (Key::KeyB, "B", 14),
        (Key::KeyN, "N", 14),
        (Key::KeyM, "M", 14),
        (Key::Comma, ",", 14),
        (Key::Period, ".", 14),
        (Key::Slash, "/", 14),
        (Key::ShiftRight, "Sh", 39),
    ],
    &[
        (Key::ControlLeft, "Ct", 20),
        (Key::MetaLeft, "M", 16),
        (Key::AltLeft, "Al", 16),
        (Key::Space, "", 110),
        (Key::AltRight, "Al", 16),
        (Key::MetaRight, "M", 16),
        (Key::ControlRight, "Ct", 20),
    ],
];

/// The arrow keys, drawn to the right of the main block: (key, label, column, row).
const ARROWS: [(Key, &str, i32, i32); 4] = [
    (Key::ArrowUp, "^", 1, 4),
    (Key::ArrowLeft, "<", 0, 5),
    (Key::ArrowDown, "v", 1, 5),
    (Key::ArrowRight, ">", 2, 5),
];

const ARROWS_LEFT: i32 = 262;

/// Where `key` is drawn, if the on-screen keyboard shows it.
pub fn key_rect(key: Key) -> Option<Rect> {
    for (r, row) in ROWS.iter().enumerate() {
        let mut x = LEFT;
        for &(k, _, w) in *row {
            if k == key {
                return Some(Rect::new(x, TOP + r as i32 * PITCH, w, KEY_H));
            }
            x += w + 1;
        }
    }
    ARROWS
        .iter()
        .find(|a| a.0 == key)
        .map(|&(_, _, c, r)| Rect::new(ARROWS_LEFT + c * 16, TOP + r * PITCH, 15, KEY_H))
}

/// The pad buttons shown per player, with labels.
const PAD: [(Button, &str); 18] = [
    (Button::UP, "U"),
    (Button::DOWN, "D"),
    (Button::LEFT, "L"),
    (Button::RIGHT, "R"),
    (Button::A, "A"),
    (Button::B, "B"),
    (Button::X, "X"),
    (Button::Y, "Y"),
    (Button::L, "L1"),
    (Button::R, "R1"),
    (Button::L2, "L2"),
    (Button::R2, "R2"),
    (Button::START, "St"),
    (Button::SELECT, "Se"),
    (Button::POINTER_A, "pA"),
    (Button::POINTER_B, "pB"),
    (Button::POINTER_C, "pC"),
    (Button::POINTER_D, "pD"),
];

const PAD_TOP: i32 = TOP + 6 * PITCH + 6;
const PAD_PITCH_Y: i32 = 15;
const PAD_W: i32 = 14;

/// Where `player`'s pad button `index` is drawn. From 0 to 17 the buttons are up, down, left,
/// right, A, B, X, Y, L, R, L2, R2, start, select, then pointer buttons A to D.
pub fn pad_rect(player: usize, index: usize) -> Rect {
    Rect::new(
        LEFT + 18 + index as i32 * (PAD_W + 1),
        PAD_TOP + player as i32 * PAD_PITCH_Y,
        PAD_W,
        13,
    )
}

/// When an input was last pressed and released, as the updates saw it.
#[derive(Debug, Clone, Copy, Default)]
struct Lit {
    down: bool,
    pressed_at: Option<u64>,
    released_at: Option<u64>,
}

impl Lit {
    fn see(&mut self, tick: u64, down: bool, pressed: bool, released: bool) {
        self.down = down && !(pressed && released);
        if pressed {
            self.pressed_at = Some(tick);
        }
        if released {
            self.released_at = Some(tick);
        }
    }
}

/// The cart's state.
#[derive(Debug, Clone)]
pub struct Keys {
    keys: [Lit; KEY_COUNT],
    pads: [[Lit; PAD.len()]; PLAYERS],
    presses: u64,
    taps: u64,
    last: Option<Key>,
    pointer: (i32, i32),
    sticks: [(f32, f32); PLAYERS],
    connected: [bool; PLAYERS],
    typed: String,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys {
            keys: [Lit::default(); KEY_COUNT],
            pads: [[Lit::default(); PAD.len()]; PLAYERS],
            presses: 0,
            taps: 0,
            last: None,
            pointer: (0, 0),
            sticks: [(0.0, 0.0); PLAYERS],
            connected: [false; PLAYERS],
            typed: String::with_capacity(TYPED_MAX + 8),
        }
    }
}

const TYPED_MAX: usize = 24;

/// A fresh `keys` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Keys::default())
}

fn fill_for(lit: &Lit, now: u64) -> u8 {
    let recent = |t: Option<u64>| t.is_some_and(|t| now.saturating_sub(t) < FLASH_TICKS);
    if recent(lit.pressed_at) {
        PRESSED
    } else if lit.down {
        HELD
    } else {
        IDLE
    }
}

fn released_recently(lit: &Lit, now: u64) -> bool {
    lit.released_at
        .is_some_and(|t| now.saturating_sub(t) < FLASH_TICKS)
}

impl Cart for Keys {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Keys")
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let tick = ctx.ticks();
        for &key in Key::ALL {
            let (p, r) = (ctx.is_key_pressed(key), ctx.is_key_released(key));
            self.keys[key as usize].see(tick, ctx.is_key_down(key), p, r);
            if p {
                self.presses += 1;
                self.last = Some(key);
                if r {
                    self.taps += 1;
                }
            }
        }
        for (row, player) in self.pads.iter_mut().zip(Player::ALL) {
            for (lit, &(mask, _)) in row.iter_mut().zip(PAD.iter()) {
                lit.see(
                    tick,
                    ctx.is_down(mask, player),
                    ctx.is_pressed(mask, player),
                    ctx.is_released(mask, player),
                );
            }
            let i = player.index();
            self.sticks[i] = (ctx.axis(Axis::LeftX, player), ctx.axis(Axis::LeftY, player));
            self.connected[i] = ctx.is_gamepad_connected(player);
        }
        self.pointer = ctx.pointer_pos();
        for c in ctx.input_string().chars() {
            while !self.typed.is_empty() && self.typed.len() + c.len_utf8() > TYPED_MAX {
                self.typed.remove(0);
            }
            self.typed.push(c);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        let now = ctx.ticks();
        ctx.clear(1);
        ctx.print(
            4,
            2,
            format_args!(
                "presses {}  one-update taps {}  last {}",
                self.presses,
                self.taps,
                self.last.map_or("-", Key::code)
            ),
            7,
        );
        ctx.print(4, 15, format_args!("typed: {}", self.typed), 6);
        let cap = |ctx: &mut Render<'_>, rect: Rect, label: &str, lit: &Lit| {
            let fill = fill_for(lit, now);
            ctx.draw_rect_fill(rect, fill);
            if released_recently(lit, now) {
                ctx.draw_rect(rect, RELEASED);
            }
            let ink = if fill == IDLE { 6 } else { 0 };
            let (tw, _) = Font::system().measure(label, TextStyle::new());
            ctx.print(
                rect.x + (rect.w - tw as i32) / 2 + 1,
                rect.y + 1,
                label,
                ink,
            );
        };
        for row in ROWS {
            for &(key, label, _) in *row {
                if let Some(rect) = key_rect(key) {
                    cap(ctx, rect, label, &self.keys[key as usize]);
                }
            }
        }
        for &(key, label, _, _) in &ARROWS {
            if let Some(rect) = key_rect(key) {
                cap(ctx, rect, label, &self.keys[key as usize]);
            }
        }
        for player in 0..PLAYERS {
            let y = PAD_TOP + player as i32 * PAD_PITCH_Y;
            let ink = if self.connected[player] { 11 } else { 6 };
            ctx.print(LEFT, y, format_args!("P{}", player + 1), ink);
            let shown = if player == 0 {
                PAD.len()
            } else {
                PAD.len() - 4
            };
            for (i, &(_, label)) in PAD.iter().enumerate().take(shown) {
                cap(ctx, pad_rect(player, i), label, &self.pads[player][i]);
            }
            let (sx, sy) = self.sticks[player];
            let (cx, cy) = (312, y + 6);
            ctx.draw_rect(Rect::new(cx - 6, cy - 6, 13, 13), 5);
            ctx.draw_rect_fill(
                Rect::new(cx + (sx * 5.0) as i32 - 1, cy + (sy * 5.0) as i32 - 1, 3, 3),
                7,
            );
        }
        let (px, py) = self.pointer;
        ctx.draw_line((px - 3, py), (px + 3, py), 7);
        ctx.draw_line((px, py - 3), (px, py + 3), 7);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawn_key_fits_the_screen_and_no_two_overlap() {
        let rects: Vec<Rect> = Key::ALL.iter().filter_map(|&k| key_rect(k)).collect();
        assert!(rects.len() > 70);
        for (i, a) in rects.iter().enumerate() {
            assert!(a.x >= 0 && a.x + a.w <= 320 && a.y + a.h <= 240, "{a:?}");
            for b in &rects[i + 1..] {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
        let last = pad_rect(3, PAD.len() - 1);
        assert!(last.y + last.h <= 240);
    }
}
