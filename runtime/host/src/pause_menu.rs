//! The pause menu of `bt run`: P opens it over the frame (as PICO-8's Enter or P does; here
//! Enter is Start and Escape is Select in the default key map, so they stay the game's), with
//! Continue, the cart's own items ([`bt::Update::set_menu_item`]), an Effects switch when the
//! cart has set post-process effects, Restart and Quit.
//!
//! A cart's item, chosen, closes the menu and reaches the cart as input of the next update
//! ([`bt::Update::chosen_menu_item`]), so a recording replays it exactly.
//!
//! The menu belongs to the host, not the cart. Opening it pauses the engine, and pausing is not
//! a tick: no update runs, the clock restarts on resuming ([`crate::Engine::resume`]), so the
//! ticks and pixels after it are those of a run that never paused. The menu is drawn over the
//! framebuffer, and the picture under it is kept and put back when it closes, so a cart that
//! draws over its last frame, or reads its pixels, never sees the menu. Keys pressed while it
//! is open reach the menu only: one still held when it closes reaches the cart once let go
//! and pressed again.

use bt::host::Framebuffer;
use bt::limits::{GLYPH_ADVANCE, LINE_HEIGHT};
use bt::{Key, OverlayColors, Rect};

/// What a player can choose in the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MenuChoice {
    /// Close the menu and play on.
    Continue,
    /// Start the cart again from its boot (its seed, tick 0).
    Restart,
    /// Close the window.
    Quit,
    /// Turn the post-process stack off or on (as Shift+F11 does); the menu stays open. Listed
    /// only when the cart has set effects.
    Effects,
    /// The cart's own item in this slot.
    Cart(usize),
}

/// The host's items, top to bottom, with their labels: the cart's go after the first.
pub const ITEMS: [(MenuChoice, &str); 3] = [
    (MenuChoice::Continue, "Continue"),
    (MenuChoice::Restart, "Restart"),
    (MenuChoice::Quit, "Quit"),
];

/// The key that opens the menu, and closes it again.
pub const MENU_KEY: Key = Key::KeyP;

/// Pixels between the menu's edge and its text.
const PADDING: i32 = 4;

/// What a key did to the open menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuInput {
    /// The selection moved, or the key meant nothing to the menu: draw it again.
    Moved,
    /// The player chose an item.
    Chose(MenuChoice),
}

/// Which way a key moves or acts in the menu: the arrows and the player's own up and down,
/// Enter, Space and the player's A or Start to choose, P or Escape to continue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuKey {
    /// One item up.
    Up,
    /// One item down.
    Down,
    /// Take the selected item.
    Choose,
    /// Close the menu, as Continue.
    Close,
    /// Nothing.
    Other,
}

/// The open menu: its items, the selected one and the picture under it.
#[derive(Debug, Clone)]
pub struct PauseMenu {
    items: Vec<(MenuChoice, String)>,
    selected: usize,
    under: Framebuffer,
}

impl PauseMenu {
    /// The menu over `fb` with the cart's items `cart` (`(slot, label)`), Continue selected;
    /// `fb` as it is now is what closing puts back. `effects` is whether the post-process
    /// stack is on, when the cart has set effects (an Effects item then follows the cart's),
    /// else `None`.
    pub fn open<'a>(
        fb: &Framebuffer,
        cart: impl IntoIterator<Item = (usize, &'a str)>,
        effects: Option<bool>,
    ) -> PauseMenu {
        let mut items = vec![(ITEMS[0].0, ITEMS[0].1.to_string())];
        items.extend(
            cart.into_iter()
                .map(|(slot, label)| (MenuChoice::Cart(slot), label.to_string())),
        );
        if let Some(on) = effects {
            items.push((MenuChoice::Effects, effects_label(on)));
        }
        items.extend(ITEMS[1..].iter().map(|&(c, l)| (c, l.to_string())));
        PauseMenu {
            items,
            selected: 0,
            under: fb.clone(),
        }
    }

    /// The item selected now.
    pub fn selected(&self) -> MenuChoice {
        self.items[self.selected].0
    }

    /// The items' labels, top to bottom.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|(_, l)| l.as_str())
    }

    /// What `key` does.
    pub fn press(&mut self, key: MenuKey) -> MenuInput {
        let n = self.items.len();
        match key {
            MenuKey::Up => self.selected = (self.selected + n - 1) % n,
            MenuKey::Down => self.selected = (self.selected + 1) % n,
            MenuKey::Choose => return MenuInput::Chose(self.selected()),
            MenuKey::Close => return MenuInput::Chose(MenuChoice::Continue),
            MenuKey::Other => {}
        }
        MenuInput::Moved
    }

    /// Says on the Effects item whether the stack is now `on`.
    pub fn set_effects(&mut self, on: bool) {
        for (choice, label) in &mut self.items {
            if *choice == MenuChoice::Effects {
                *label = effects_label(on);
            }
        }
    }

    /// Takes the picture under the menu anew: after the frame was drawn again while the menu
    /// is open (the overlay changed, assets reloaded).
    pub fn retake(&mut self, fb: &Framebuffer) {
        self.under.clone_from(fb);
    }

    /// Puts back the picture the menu covers.
    pub fn restore(&self, fb: &mut Framebuffer) {
        fb.clone_from(&self.under);
    }

    /// Draws the picture under the menu and the menu over it, centred, in the overlay's
    /// colours: a panel of the bar colour, the items in the text colour, the selected one
    /// on a bar of the text colour in the bar's, after a `>`.
    pub fn draw(&self, fb: &mut Framebuffer, colors: &OverlayColors) {
        self.restore(fb);
        let cart_clip = fb.clip();
        fb.reset_clip();
        let rect = self.rect(fb.width(), fb.height());
        fb.draw_rect_fill(rect, colors.bar);
        fb.draw_rect(rect, colors.text);
        for (i, (_, label)) in self.items.iter().enumerate() {
            let y = rect.y + PADDING + i as i32 * LINE_HEIGHT;
            let x = rect.x + PADDING;
            if i == self.selected {
                let row = Rect::new(rect.x + 1, y - 1, rect.w - 2, LINE_HEIGHT);
                fb.draw_rect_fill(row, colors.text);
                fb.print(x, y, format_args!("> {label}"), colors.bar);
            } else {
                fb.print(x, y, format_args!("  {label}"), colors.text);
            }
        }
        fb.set_clip(cart_clip);
    }

    /// Where the menu goes on a `width` × `height` display: centred, as wide as its longest
    /// item with `> ` before it, one line per item; on a display too small, its top-left
    /// corner.
    pub fn rect(&self, width: u32, height: u32) -> Rect {
        let longest = self.labels().map(|l| l.chars().count()).max().unwrap_or(0) as i32 + 2;
        let w = longest * GLYPH_ADVANCE + 2 * PADDING;
        let h = self.items.len() as i32 * LINE_HEIGHT + 2 * PADDING - 1;
        let x = ((width as i32 - w) / 2).max(0);
        let y = ((height as i32 - h) / 2).max(0);
        Rect::new(x, y, w, h)
    }
}

/// The Effects item's label when the stack is `on`.
fn effects_label(on: bool) -> String {
    format!("Effects: {}", if on { "on" } else { "off" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_wraps_around_and_close_is_continue() {
        let mut m = PauseMenu::open(&Framebuffer::new(8, 8), [], None);
        assert_eq!(m.selected(), MenuChoice::Continue);
        assert_eq!(m.press(MenuKey::Up), MenuInput::Moved);
        assert_eq!(m.selected(), MenuChoice::Quit);
        m.press(MenuKey::Down);
        m.press(MenuKey::Down);
        assert_eq!(
            m.press(MenuKey::Choose),
            MenuInput::Chose(MenuChoice::Restart)
        );
        assert_eq!(
            m.press(MenuKey::Close),
            MenuInput::Chose(MenuChoice::Continue)
        );
        assert_eq!(m.press(MenuKey::Other), MenuInput::Moved);
    }

    #[test]
    fn the_menu_fits_a_128_display_and_closing_puts_the_picture_back() {
        let mut fb = Framebuffer::new(128, 128);
        fb.clear(3);
        fb.draw_pixel(64, 64, 9);
        let before = fb.clone();
        // The cart's items at their longest.
        let long = "x".repeat(bt::limits::MENU_LABEL_CHARS);
        let cart = (0..bt::limits::MENU_ITEMS).map(|slot| (slot, long.as_str()));
        let m = PauseMenu::open(&fb, cart, None);
        let r = m.rect(128, 128);
        assert!(
            r.x >= 0 && r.y >= 0 && r.x + r.w <= 128 && r.y + r.h <= 128,
            "{r:?}"
        );
        m.draw(&mut fb, &OverlayColors::default());
        assert_ne!(fb.pixels(), before.pixels(), "the menu shows");
        // Only inside its rectangle.
        for y in 0..128 {
            for x in 0..128 {
                if !r.contains(x, y) {
                    assert_eq!(fb.get(x, y), before.get(x, y), "({x}, {y})");
                }
            }
        }
        m.restore(&mut fb);
        assert_eq!(fb.pixels(), before.pixels());
    }

    #[test]
    fn the_cart_s_items_go_between_continue_and_restart() {
        let mut m = PauseMenu::open(&Framebuffer::new(8, 8), [(2, "Easy mode")], None);
        let labels: Vec<&str> = m.labels().collect();
        assert_eq!(labels, ["Continue", "Easy mode", "Restart", "Quit"]);
        m.press(MenuKey::Down);
        assert_eq!(
            m.press(MenuKey::Choose),
            MenuInput::Chose(MenuChoice::Cart(2))
        );
    }

    #[test]
    fn a_cart_with_effects_gets_a_switch_after_its_own_items() {
        let mut m = PauseMenu::open(&Framebuffer::new(8, 8), [(0, "Easy mode")], Some(true));
        let labels: Vec<&str> = m.labels().collect();
        assert_eq!(
            labels,
            ["Continue", "Easy mode", "Effects: on", "Restart", "Quit"]
        );
        m.press(MenuKey::Up);
        m.press(MenuKey::Up);
        m.press(MenuKey::Up);
        assert_eq!(
            m.press(MenuKey::Choose),
            MenuInput::Chose(MenuChoice::Effects)
        );
        m.set_effects(false);
        assert_eq!(m.labels().nth(2), Some("Effects: off"));
        assert_eq!(m.selected(), MenuChoice::Effects, "the selection stays");
    }

    #[test]
    fn the_menu_keeps_the_cart_s_clip() {
        let mut fb = Framebuffer::new(64, 64);
        fb.set_clip(Rect::new(0, 0, 4, 4));
        PauseMenu::open(&fb, [], None).draw(&mut fb, &OverlayColors::default());
        assert_eq!(fb.clip(), Rect::new(0, 0, 4, 4));
    }
}
