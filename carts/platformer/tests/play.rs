//! The platformer as a player meets it, through the cart harness: scripted input, the frames
//! it draws (golden pictures), and steady frames that allocate nothing.

use bt::{Button, Player};
use bt_runtime::harness::CartTest;
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn started() -> CartTest {
    CartTest::new(bt_cart_platformer::Platformer::default).unwrap()
}

/// Walks right, jumps for the first coins, and walks on to the raised ground.
fn script(t: &mut CartTest) {
    t.run(30);
    t.press(Button::RIGHT, Player::ONE);
    t.run(8);
    t.press(Button::A, Player::ONE);
    t.run(2);
    t.release(Button::A, Player::ONE);
    t.run(60);
}

#[test]
fn the_first_steps_look_as_they_did() {
    let mut t = started();
    t.run(1);
    t.assert_golden("tests/golden/platformer-start.png");
    script(&mut t);
    t.assert_golden("tests/golden/platformer-after-jump.png");
}

#[test]
fn steady_frames_of_play_do_not_allocate() {
    let mut t = started();
    script(&mut t);
    let before = GLOBAL.allocations();
    // Walking, jumping and landing, the camera scrolling, coins glinting, the HUD.
    for i in 0..240 {
        if i % 40 == 0 {
            t.press(Button::A, Player::ONE);
        } else if i % 40 == 2 {
            t.release(Button::A, Player::ONE);
        }
        t.run(1);
    }
    assert_eq!(GLOBAL.allocations() - before, 0);
    assert!(GLOBAL.allocations() > 0, "the counter counts");
}
