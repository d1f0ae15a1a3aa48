//! The input rules, tested through [`Input`] as a host and an update use it.

use super::buttons::SOURCES;
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
        (sources, 0..PLAYERS, any::<u32>(), any::<bool>()).prop_map(|(s, p, m, d)| Op::Buttons(
            s,
            p,
            m & 0x3ffff,
            d
        )),
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
