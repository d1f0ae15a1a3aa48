//! The host's notice across the top: one bar a line, each line of the text on its own row.

use bt::host::Framebuffer;
use bt::limits::LINE_HEIGHT;
use bt::Settings;
use bt_overlay::{Overlay, BAR_HEIGHT};

fn drawn(notice: &str) -> (Framebuffer, u8) {
    let settings = Settings::default().display(128, 128);
    let mut overlay = Overlay::new(&settings);
    overlay.set_visible(false);
    overlay.set_notice(notice);
    let mut fb = Framebuffer::new(128, 128);
    fb.clear(0);
    overlay.draw(&mut fb);
    (fb, overlay.colors().error)
}

#[test]
fn a_notice_of_three_lines_gets_a_bar_three_lines_tall() {
    let (fb, red) = drawn("reload: …/sprites.png:\nnot a PNG file:\ninvalid signature");
    let bar = BAR_HEIGHT + 2 * LINE_HEIGHT;
    // The left margin shows the bar's colour on every row of it, and not below.
    for y in 0..bar {
        assert_eq!(fb.get(1, y), Some(red), "row {y}");
    }
    assert_ne!(fb.get(1, bar), Some(red));
    // Each line has text on it: pixels of neither the bar nor the cart.
    for line in 0..3 {
        let top = line * LINE_HEIGHT;
        let inked = (top..top + BAR_HEIGHT)
            .any(|y| (0..128).any(|x| !matches!(fb.get(x, y), Some(c) if c == red || c == 0)));
        assert!(inked, "line {line} has text");
    }
}

#[test]
fn a_one_line_notice_keeps_its_one_bar() {
    let (fb, red) = drawn("reload: bad.png: no");
    assert_eq!(fb.get(1, BAR_HEIGHT - 1), Some(red));
    assert_ne!(fb.get(1, BAR_HEIGHT), Some(red));
}
