//! The `audio-buses` desk through the cart harness: the arrows fade the bus they pick a step
//! along its curve, B mutes it, X turns the ducking off, and the blips duck the music.

use bt::{Button, Player};
use bt_cart_audio::buses::Buses;
use bt_runtime::harness::CartTest;

fn state(t: &CartTest) -> String {
    t.test_state().unwrap()
}

fn tap(t: &mut CartTest, button: Button) {
    t.press(button, Player::ONE);
    t.run(1);
    t.release(button, Player::ONE);
}

#[test]
fn the_arrows_fade_the_picked_bus_a_step_and_b_mutes_it() {
    let mut t = CartTest::new(Buses::default).unwrap();
    t.run(2);
    assert!(
        state(&t).starts_with("selected=music levels=255,255,255 heard=255,255,255 muted=0,0,0")
    );
    tap(&mut t, Button::LEFT);
    // A quarter of a second, 15 updates, along a sine curve: part way after 5, there after 15.
    t.run(4);
    let part: u32 = state(&t)
        .split("levels=255,")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!((224..255).contains(&part), "{}", state(&t));
    t.run(10);
    assert!(state(&t).contains("levels=255,223,255"), "{}", state(&t));
    tap(&mut t, Button::DOWN);
    tap(&mut t, Button::B);
    assert!(
        state(&t).starts_with("selected=sfx levels=255,223,255 heard=255,223,0 muted=0,0,1"),
        "{}",
        state(&t)
    );
    tap(&mut t, Button::B);
    assert!(
        state(&t).contains("heard=255,223,255 muted=0,0,0"),
        "{}",
        state(&t)
    );
    // Up twice from sfx is main; right at full stays full.
    tap(&mut t, Button::UP);
    tap(&mut t, Button::UP);
    tap(&mut t, Button::RIGHT);
    t.run(20);
    assert!(
        state(&t).starts_with("selected=main levels=255,223,255"),
        "{}",
        state(&t)
    );
}

#[test]
fn the_blips_duck_the_music_until_x_turns_the_ducking_off() {
    let mut t = CartTest::new(Buses::default).unwrap();
    // The first blip plays at tick 45 and lasts 0.12 s.
    t.run_to(47);
    assert!(
        state(&t).ends_with("ducking=on ducked=yes"),
        "{}",
        state(&t)
    );
    t.run_to(80);
    assert!(state(&t).ends_with("ducking=on ducked=no"), "{}", state(&t));
    tap(&mut t, Button::X);
    t.run_to(137);
    assert!(
        state(&t).ends_with("ducking=off ducked=no"),
        "{}",
        state(&t)
    );
}
