//! The widgets cart as a player meets it, through the cart harness: every widget driven by the
//! pointer, the keyboard and a gamepad, the frames it draws (golden pictures), and steady
//! frames that allocate nothing.

use bt::host::Console;
use bt::ui::ListState;
use bt::{Button, Cart, Key, Player, Rect};
use bt_cart_widgets::{id, Values, Widgets, LEVELS};
use bt_runtime::harness::CartTest;
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn started() -> CartTest {
    let mut t = CartTest::new(Widgets::default).unwrap();
    t.run(1);
    t
}

/// Where widget `index` is: the cart's own layout, declared once on a bare console.
fn rect(index: usize) -> Rect {
    let mut cart = Widgets::default();
    let mut con = Console::new(&cart.configure(), 0);
    cart.update(&mut con.update_context(0));
    cart.ui().rect_of(index).expect("the widget is declared")
}

/// What the cart says of itself: its values, the focus and whether a field is being edited.
fn state(t: &CartTest) -> String {
    t.test_state().expect("the cart reports its state")
}

fn expect(values: &Values, focus: Option<usize>, editing: bool) -> String {
    format!("{values:?} focus={focus:?} editing={editing}")
}

/// A click at (`x`, `y`): pressed in one update, let go in the next.
fn click(t: &mut CartTest, x: i32, y: i32) {
    t.pointer_move(x, y);
    t.pointer_button(Button::POINTER_A, true);
    t.run(1);
    t.pointer_button(Button::POINTER_A, false);
    t.run(1);
}

/// A click `dx` pixels into widget `index`, half way down.
fn click_in(t: &mut CartTest, index: usize, dx: i32) {
    let r = rect(index);
    click(t, r.x + dx, r.y + r.h / 2);
}

fn tap_key(t: &mut CartTest, key: Key) {
    t.key(key, true);
    t.run(1);
    t.key(key, false);
    t.run(1);
}

fn tap_button(t: &mut CartTest, button: Button) {
    t.press(button, Player::ONE);
    t.run(1);
    t.release(button, Player::ONE);
    t.run(1);
}

#[test]
fn the_gallery_looks_as_it_did() {
    let t = started();
    t.assert_golden("tests/golden/widgets-start.png");
}

#[test]
fn every_widget_answers_the_pointer() {
    let mut t = started();
    let mut want = Values::default();
    click_in(&mut t, id::TABS, rect(id::TABS).w - 3);
    want.difficulty = 2;
    click_in(&mut t, id::PLAY, 3);
    click_in(&mut t, id::PLAY, 3);
    want.plays = 2;
    click_in(&mut t, id::MUSIC, 2);
    click_in(&mut t, id::EFFECTS, 2);
    (want.music, want.effects) = (false, true);
    // The volume's track, dragged from its left end to its right end.
    let volume = rect(id::VOLUME);
    let track = bt::ui::Theme::default().field_width;
    t.pointer_move(volume.x, volume.y + 4);
    t.pointer_button(Button::POINTER_A, true);
    t.run(1);
    assert!(state(&t).contains("volume: 0,"), "{}", state(&t));
    t.pointer_move(volume.x + track - 1, volume.y + 30);
    t.run(1);
    t.pointer_button(Button::POINTER_A, false);
    t.run(1);
    want.volume = 10;
    click_in(&mut t, id::SPEED, 0);
    want.speed = 0.25;
    // The number field's right arrow, twice, then its left arrow once.
    let lives = rect(id::LIVES);
    let field_right = lives.w - "Lives".len() as i32 * 6 - 4;
    click_in(&mut t, id::LIVES, field_right - 3);
    click_in(&mut t, id::LIVES, field_right - 3);
    click_in(&mut t, id::LIVES, 2);
    want.lives = 4;
    // The name: a click at its end, typing, Enter.
    click_in(&mut t, id::NAME, 60);
    t.type_text("!");
    t.run(1);
    tap_key(&mut t, Key::Enter);
    want.name = "Ada!".into();
    want.names_entered = 1;
    // The list: the wheel scrolls it to the end, a click on its third row chooses "7 Glacier".
    let list = rect(id::LEVELS);
    t.pointer_move(list.x + 10, list.y + 10);
    t.engine_mut()
        .console_mut()
        .input_mut()
        .add_wheel(0.0, -20.0);
    t.run(1);
    click(&mut t, list.x + 10, list.y + 1 + 2 * 14 + 5);
    want.level = ListState {
        selected: Some(6),
        scroll: 4,
    };
    want.levels_chosen = 1;
    assert_eq!(LEVELS[6], "7 Glacier");
    // The swatches: the second row's first colour, 9.
    let grid = rect(id::COLOUR);
    click(&mut t, grid.x + 4, grid.y + 1 + 11 + 4);
    want.colour = 9;
    assert_eq!(state(&t), expect(&want, Some(id::COLOUR), false));
    t.assert_golden("tests/golden/widgets-after-pointer.png");

    // Reset puts every value back.
    click_in(&mut t, id::RESET, 3);
    assert_eq!(
        state(&t),
        expect(&Values::default(), Some(id::RESET), false)
    );
}

#[test]
fn every_widget_answers_the_keyboard() {
    let mut t = started();
    let mut want = Values::default();
    tap_key(&mut t, Key::Tab);
    assert_eq!(state(&t), expect(&want, Some(id::TABS), false));
    tap_key(&mut t, Key::ArrowLeft);
    want.difficulty = 0;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Enter);
    want.plays = 1;
    // Space is button A as well as a key: one press.
    tap_key(&mut t, Key::Space);
    want.plays = 2;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Space);
    want.music = false;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Enter);
    want.effects = true;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::ArrowRight);
    tap_key(&mut t, Key::ArrowRight);
    want.volume = 9;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::ArrowLeft);
    want.speed = 0.9125;
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::ArrowLeft);
    want.lives = 2;
    tap_key(&mut t, Key::Tab);
    assert_eq!(state(&t), expect(&want, Some(id::NAME), false));
    // Editing: Z and X type (they are buttons A and B too), Backspace, Home and Delete edit.
    tap_key(&mut t, Key::Enter);
    assert!(state(&t).ends_with("editing=true"));
    t.key(Key::KeyZ, true);
    t.type_text("z");
    t.run(1);
    t.key(Key::KeyZ, false);
    t.key(Key::KeyX, true);
    t.type_text("x");
    t.run(1);
    t.key(Key::KeyX, false);
    t.run(1);
    t.assert_golden("tests/golden/widgets-editing.png");
    tap_key(&mut t, Key::Backspace);
    tap_key(&mut t, Key::Home);
    tap_key(&mut t, Key::Delete);
    tap_key(&mut t, Key::Enter);
    want.name = "daz".into();
    want.names_entered = 1;
    assert_eq!(state(&t), expect(&want, Some(id::NAME), false));
    tap_key(&mut t, Key::Tab);
    for _ in 0..7 {
        tap_key(&mut t, Key::ArrowDown);
    }
    want.level = ListState {
        selected: Some(7),
        scroll: 2,
    };
    tap_key(&mut t, Key::Enter);
    want.levels_chosen = 1;
    // Colour 10 is the second row's second swatch: up a row, then left.
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::ArrowUp);
    tap_key(&mut t, Key::ArrowLeft);
    want.colour = 1;
    assert_eq!(state(&t), expect(&want, Some(id::COLOUR), false));
    // Shift+Tab goes back; Tab from the last goes round to the first.
    t.key(Key::ShiftLeft, true);
    tap_key(&mut t, Key::Tab);
    t.key(Key::ShiftLeft, false);
    assert!(state(&t).contains(&format!("focus=Some({})", id::LEVELS)));
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Tab);
    assert!(state(&t).contains(&format!("focus=Some({})", id::TABS)));
}

#[test]
fn every_widget_answers_a_gamepad() {
    let mut t = started();
    let mut want = Values::default();
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::RIGHT);
    want.difficulty = 2;
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::A);
    want.plays = 1;
    // Right on a button moves the focus on, as down does.
    tap_button(&mut t, Button::RIGHT);
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::START);
    want.music = false;
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::A);
    want.effects = true;
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::LEFT);
    want.volume = 6;
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::RIGHT);
    want.speed = 1.0875;
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::RIGHT);
    want.lives = 4;
    // A text field takes no text from a gamepad: A starts editing and B ends it.
    tap_button(&mut t, Button::DOWN);
    tap_button(&mut t, Button::A);
    assert!(state(&t).ends_with("editing=true"));
    tap_button(&mut t, Button::B);
    tap_button(&mut t, Button::DOWN);
    // Held down: the selection repeats down the list.
    t.press(Button::DOWN, Player::ONE);
    t.run(8 * 3 + 1);
    t.release(Button::DOWN, Player::ONE);
    t.run(1);
    want.level = ListState {
        selected: Some(4),
        scroll: 0,
    };
    // R moves the focus on too.
    tap_button(&mut t, Button::R);
    tap_button(&mut t, Button::RIGHT);
    want.colour = 11;
    assert_eq!(state(&t), expect(&want, Some(id::COLOUR), false));
    t.assert_golden("tests/golden/widgets-after-gamepad.png");
}

#[test]
fn a_tooltip_shows_when_the_pointer_rests_on_play() {
    let mut t = started();
    let play = rect(id::PLAY);
    t.pointer_move(play.x + 3, play.y + 3);
    t.run(bt::ui::TOOLTIP_TICKS as u64 + 1);
    t.assert_golden("tests/golden/widgets-tooltip.png");
}

#[test]
fn steady_frames_allocate_nothing() {
    let mut t = started();
    // Snapshots (a copy of the game every 64 updates, for rewinding) allocate by design; the
    // frames between them are what must not.
    t.engine_mut().set_snapshot_budget(0);
    // Found before counting: the helper builds a cart of its own to find them.
    let (play, name, list, volume) = (
        rect(id::PLAY),
        rect(id::NAME),
        rect(id::LEVELS),
        rect(id::VOLUME),
    );
    let script = |t: &mut CartTest| {
        click(t, play.x + 3, play.y + 3);
        click(t, name.x + 60, name.y + 3);
        t.type_text("x");
        t.run(1);
        tap_key(t, Key::Backspace);
        tap_key(t, Key::Enter);
        for _ in 0..12 {
            tap_key(t, Key::Tab);
            tap_key(t, Key::ArrowRight);
            tap_button(t, Button::DOWN);
        }
        t.pointer_move(list.x + 10, list.y + 10);
        t.engine_mut()
            .console_mut()
            .input_mut()
            .add_wheel(0.0, -2.0);
        t.run(bt::ui::TOOLTIP_TICKS as u64 + 2);
        t.pointer_move(volume.x + 5, volume.y + 5);
        t.pointer_button(Button::POINTER_A, true);
        t.run(bt::ui::TOOLTIP_TICKS as u64 + 2);
        t.pointer_button(Button::POINTER_A, false);
        t.run(1);
    };
    // The first round may grow buffers (the name's room, the host's text buffer).
    script(&mut t);
    let before = GLOBAL.allocations();
    script(&mut t);
    assert_eq!(GLOBAL.allocations() - before, 0);
    assert!(GLOBAL.allocations() > 0, "the counter counts");
}

#[test]
fn a_saved_state_brings_the_focus_back_with_the_values() {
    let mut t = started();
    tap_key(&mut t, Key::Tab);
    tap_key(&mut t, Key::Tab);
    let saved = t.engine_mut().save_state().expect("the cart can be copied");
    tap_key(&mut t, Key::Enter);
    let pressed = state(&t);
    assert!(pressed.contains("plays: 1,"), "{pressed}");
    tap_key(&mut t, Key::Tab);
    t.engine_mut().load_state(&saved).unwrap();
    t.engine_mut().resume();
    tap_key(&mut t, Key::Enter);
    assert_eq!(state(&t), pressed, "Enter pressed Play again");
}
