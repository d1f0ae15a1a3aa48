//! What a cart's own tests can do through `CartTest`: boot with arguments, and choose a
//! pause-menu item as a player would.

use bt::{Cart, CartError, Render, Update};
use bt_runtime::harness::CartTest;

/// Moves `speed` pixels an update (a cart argument, 1 by default) and offers a pause-menu item
/// that sends it back to the start.
#[derive(Default)]
struct Mover {
    speed: i32,
    x: i32,
    restarts: u32,
}

impl Cart for Mover {
    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.speed = ctx.arg_or("speed", 1)?;
        ctx.set_menu_item(0, "back to start");
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.chosen_menu_item() == Some(0) {
            self.x = 0;
            self.restarts += 1;
        } else {
            self.x += self.speed;
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        ctx.draw_pixel(self.x, 0, 7);
    }

    fn test_state(&self) -> Option<String> {
        Some(format!(
            "{{\"x\":{},\"restarts\":{}}}",
            self.x, self.restarts
        ))
    }
}

/// Offers nothing to read.
#[derive(Default)]
struct Silent;

impl Cart for Silent {
    fn update(&mut self, _ctx: &mut Update<'_>) {}
    fn render(&self, _ctx: &mut Render<'_>) {}
}

#[test]
fn a_test_reads_what_the_cart_says_of_its_state() {
    let mut test = CartTest::with_args(Mover::default, &[("speed", "3")]).unwrap();
    assert_eq!(
        test.test_state().as_deref(),
        Some(r#"{"x":0,"restarts":0}"#)
    );
    test.run(5);
    assert_eq!(
        test.test_state().as_deref(),
        Some(r#"{"x":15,"restarts":0}"#)
    );
    test.choose_menu_item(0);
    test.run(1);
    assert_eq!(
        test.test_state().as_deref(),
        Some(r#"{"x":0,"restarts":1}"#)
    );

    let mut silent = CartTest::new(Silent::default).unwrap();
    silent.run(5);
    assert_eq!(silent.test_state(), None, "the default offers nothing");
}

#[test]
fn a_test_boots_the_cart_with_arguments() {
    let mut plain = CartTest::new(Mover::default).unwrap();
    let mut fast = CartTest::with_args(Mover::default, &[("speed", "3")]).unwrap();
    plain.run(5);
    fast.run(5);
    assert_eq!(plain.pixel(5, 0), 7, "speed 1 by default");
    assert_eq!(fast.pixel(15, 0), 7, "speed 3 from the argument");
    assert_eq!(fast.pixel(5, 0), 0);
}

#[test]
fn a_bad_argument_fails_the_boot_with_the_carts_message() {
    let Err(err) = CartTest::with_args(Mover::default, &[("speed", "fast")]) else {
        panic!("a speed of 'fast' booted");
    };
    let said = err.to_string();
    assert!(said.contains("speed") && said.contains("fast"), "{said}");
}

#[test]
fn a_chosen_menu_item_is_seen_by_exactly_one_update() {
    let mut test = CartTest::new(Mover::default).unwrap();
    test.run(4);
    assert_eq!(test.pixel(4, 0), 7);
    test.choose_menu_item(0);
    test.run(1);
    assert_eq!(test.pixel(0, 0), 7, "the choice sent the mover back");
    test.run(2);
    assert_eq!(test.pixel(2, 0), 7, "and only once: it moves on from there");
    // A slot past the menu's is ignored.
    test.choose_menu_item(bt::limits::MENU_ITEMS);
    test.run(1);
    assert_eq!(test.pixel(3, 0), 7);
}
