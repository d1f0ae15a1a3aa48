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
    // Snapshots (a copy of the game every 64 updates, for rewinding) allocate by design; the
    // frames between them are what must not.
    t.engine_mut().set_snapshot_budget(0);
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

#[test]
fn a_new_best_score_is_kept_in_save_data_and_shown() {
    let mut t = started();
    assert_eq!(t.save().get(bt_cart_platformer::BEST_SLOT), 0);
    script(&mut t);
    let best = t.save().get(bt_cart_platformer::BEST_SLOT);
    assert!(best >= 10, "the coins' score is the best so far: {best}");
}

#[test]
fn the_best_score_from_save_data_shows_until_beaten() {
    let mut t = CartTest::with_save(
        bt_cart_platformer::Platformer::default,
        &1234i32.to_le_bytes(),
    )
    .unwrap();
    script(&mut t);
    assert_eq!(t.save().get(bt_cart_platformer::BEST_SLOT), 1234);
    t.assert_golden("tests/golden/platformer-best-1234.png");
    let empty = {
        let mut e = started();
        script(&mut e);
        e.rgba()
    };
    assert_ne!(t.rgba(), empty, "the booted best is on screen");
}
