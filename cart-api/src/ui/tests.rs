use super::*;
use crate::host::Console;
use crate::{Button, Key, Player, Settings};

/// A console and a tick counter, to run a `Ui` through updates by hand.
struct Rig {
    con: Console,
    tick: u64,
}

impl Rig {
    fn new() -> Rig {
        Rig {
            con: Console::new(&Settings::default(), 0),
            tick: 0,
        }
    }

    fn step<R>(&mut self, ui: &mut Ui, declare: impl FnOnce(&mut Ui) -> R) -> R {
        let mut ctx = self.con.update_context(self.tick);
        self.tick += 1;
        ui.frame(&mut ctx, |ui, _| declare(ui))
    }

    fn key(&mut self, key: Key, down: bool) {
        self.con.input_mut().set_key(key, down);
    }

    /// Presses `key` for one update and lets go of it before the next.
    fn tap<R>(&mut self, key: Key, ui: &mut Ui, declare: impl FnOnce(&mut Ui) -> R) -> R {
        self.key(key, true);
        let out = self.step(ui, declare);
        self.key(key, false);
        out
    }

    fn pad(&mut self, button: Button, down: bool) {
        self.con.input_mut().set_buttons(button, Player::ONE, down);
    }

    fn point(&mut self, x: i32, y: i32) {
        self.con.input_mut().set_pointer_pos(x, y);
    }

    fn mouse(&mut self, down: bool) {
        self.con
            .input_mut()
            .set_buttons(Button::POINTER_A, Player::ONE, down);
    }

    /// Points inside `rect`, `dx` pixels from its left edge.
    fn point_in(&mut self, rect: Rect, dx: i32) {
        self.point(rect.x + dx, rect.y + rect.h / 2);
    }
}

#[test]
fn a_click_is_a_press_and_a_release_over_the_same_button() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let form = |ui: &mut Ui| (ui.button("One").clicked(), ui.button("Two").clicked());
    rig.step(&mut ui, form);
    let (one, two) = (ui.rect_of(0).unwrap(), ui.rect_of(1).unwrap());
    rig.point_in(one, 3);
    rig.mouse(true);
    assert_eq!(
        rig.step(&mut ui, form),
        (false, false),
        "pressed, not yet let go"
    );
    rig.mouse(false);
    assert_eq!(rig.step(&mut ui, form), (true, false));
    assert_eq!(
        rig.step(&mut ui, form),
        (false, false),
        "one click is one update"
    );
    // Pressed on one, let go over the other: neither.
    rig.mouse(true);
    rig.step(&mut ui, form);
    rig.point_in(two, 3);
    rig.mouse(false);
    assert_eq!(rig.step(&mut ui, form), (false, false));
    // A tap shorter than an update still clicks.
    rig.mouse(true);
    rig.mouse(false);
    assert_eq!(rig.step(&mut ui, form), (false, true));
    assert_eq!(ui.focus(), Some(1), "a click gives the focus");
}

#[test]
fn tab_and_shift_tab_move_the_focus_round_and_space_or_enter_press() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut ticks = [false; 3];
    let form = |ui: &mut Ui, ticks: &mut [bool; 3]| {
        for (i, t) in ticks.iter_mut().enumerate() {
            ui.checkbox(format_args!("Box {i}"), t);
        }
    };
    rig.step(&mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(ui.focus(), None);
    rig.tap(Key::Tab, &mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(ui.focus(), Some(0));
    rig.tap(Key::Space, &mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(ticks, [true, false, false]);
    rig.key(Key::ShiftLeft, true);
    rig.tap(Key::Tab, &mut ui, |ui| form(ui, &mut ticks));
    rig.key(Key::ShiftLeft, false);
    assert_eq!(
        ui.focus(),
        Some(2),
        "Shift+Tab from the first goes round to the last"
    );
    rig.tap(Key::Enter, &mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(ticks, [true, false, true]);
    rig.tap(Key::Tab, &mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(
        ui.focus(),
        Some(0),
        "Tab from the last goes round to the first"
    );
}

#[test]
fn the_d_pad_moves_the_focus_and_a_presses() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut pressed = [0; 3];
    let form = |ui: &mut Ui, pressed: &mut [i32; 3]| {
        for (i, p) in pressed.iter_mut().enumerate() {
            if ui.button(format_args!("Button {i}")).clicked() {
                *p += 1;
            }
        }
    };
    for button in [Button::DOWN, Button::DOWN, Button::UP, Button::RIGHT] {
        rig.pad(button, true);
        rig.step(&mut ui, |ui| form(ui, &mut pressed));
        rig.pad(button, false);
        rig.step(&mut ui, |ui| form(ui, &mut pressed));
    }
    assert_eq!(ui.focus(), Some(1), "down, down, up, right");
    rig.pad(Button::A, true);
    rig.step(&mut ui, |ui| form(ui, &mut pressed));
    rig.step(&mut ui, |ui| form(ui, &mut pressed));
    assert_eq!(pressed, [0, 1, 0], "a held A presses once");
    // A press on nothing takes the focus away.
    rig.point(300, 230);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut pressed));
    assert_eq!(ui.focus(), None);
}

#[test]
fn a_held_direction_repeats_at_the_repeat_rate() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut v = 0;
    rig.step(&mut ui, |ui| ui.slider("v", &mut v, 0..=100));
    ui.set_focus_to(Some(0));
    rig.key(Key::ArrowRight, true);
    for _ in 0..=2 * input::REPEAT_TICKS {
        rig.step(&mut ui, |ui| ui.slider("v", &mut v, 0..=100));
    }
    assert_eq!(v, 15, "the press and two repeats, 5 each");
}

#[test]
fn a_slider_follows_the_pointer_and_steps_with_the_arrows_within_its_range() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut v = 0.5f32;
    let mut changes = 0;
    let mut form = |ui: &mut Ui, v: &mut f32| {
        changes += i32::from(ui.slider("Volume", v, 0.0..=1.0).changed());
    };
    rig.step(&mut ui, |ui| form(ui, &mut v));
    let track = ui.rect_of(0).unwrap();
    let track_w = ui.theme().field_width;
    rig.point_in(track, 0);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut v));
    assert_eq!(v, 0.0, "pressed at the track's left end");
    // Dragged past the right end, off the widget: still held, clamped.
    rig.point(track.x + track_w + 50, track.y + 40);
    rig.step(&mut ui, |ui| form(ui, &mut v));
    assert_eq!(v, 1.0);
    rig.point(track.x + (track_w - 1) / 2, track.y);
    rig.mouse(false);
    rig.step(&mut ui, |ui| form(ui, &mut v));
    assert!((v - 0.5).abs() < 0.01, "let go half way: {v}");
    rig.tap(Key::ArrowLeft, &mut ui, |ui| form(ui, &mut v));
    assert!((v - 0.45).abs() < 0.01, "a twentieth down: {v}");
    for _ in 0..30 {
        rig.tap(Key::ArrowLeft, &mut ui, |ui| form(ui, &mut v));
        rig.step(&mut ui, |ui| form(ui, &mut v));
    }
    assert_eq!(v, 0.0, "held at the bottom");
    assert_eq!(ui.focus(), Some(0), "left and right belong to the slider");
    // The press, the drag, the release, and ten steps down to 0: none once there.
    assert_eq!(changes, 13);
}

#[test]
#[allow(
    clippy::reversed_empty_ranges,
    reason = "a range the wrong way round is what is tested"
)]
fn ranges_the_wrong_way_round_or_not_finite_keep_the_value_in_order() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let (mut a, mut b, mut c) = (f32::NAN, 50, 3.0f32);
    rig.step(&mut ui, |ui| {
        ui.slider("a", &mut a, 0.0..=1.0);
        ui.slider("b", &mut b, 10..=0);
        ui.number("c", &mut c, f32::NEG_INFINITY..=f32::NAN, f32::INFINITY);
    });
    assert_eq!((a, b, c), (0.0, 10, 0.0));
}

#[test]
fn a_number_field_steps_with_its_arrows_the_keys_and_the_wheel() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut n = 10;
    let form = |ui: &mut Ui, n: &mut i32| ui.number("Lives", n, 0..=12, 2).changed();
    rig.step(&mut ui, |ui| form(ui, &mut n));
    let field = ui.rect_of(0).unwrap();
    let right_arrow = ui.records.list[0].n[3] - 2;
    rig.point_in(field, right_arrow);
    rig.mouse(true);
    assert!(rig.step(&mut ui, |ui| form(ui, &mut n)));
    assert_eq!(n, 12);
    rig.mouse(false);
    rig.step(&mut ui, |ui| form(ui, &mut n));
    rig.point_in(field, 2);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut n));
    assert_eq!(n, 10, "the left arrow");
    rig.mouse(false);
    rig.tap(Key::ArrowLeft, &mut ui, |ui| form(ui, &mut n));
    assert_eq!(n, 8);
    rig.con.input_mut().add_wheel(0.0, 2.0);
    rig.step(&mut ui, |ui| form(ui, &mut n));
    assert_eq!(n, 12, "two lines up");
    rig.con.input_mut().add_wheel(0.0, -1e30);
    rig.step(&mut ui, |ui| form(ui, &mut n));
    assert_eq!(n, 0, "any wheel stays in the range");
}

#[test]
fn a_text_field_takes_typed_text_while_editing_and_enter_submits_it() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut name = String::from("Ada");
    let form = |ui: &mut Ui, name: &mut String| ui.text_field("Name", name, 8);
    rig.step(&mut ui, |ui| form(ui, &mut name));
    rig.con.input_mut().push_text("x");
    rig.tap(Key::Tab, &mut ui, |ui| form(ui, &mut name));
    assert_eq!(name, "Ada", "not editing: typing does nothing");
    assert!(!ui.is_editing());
    rig.tap(Key::Enter, &mut ui, |ui| form(ui, &mut name));
    assert!(ui.is_editing(), "Enter starts editing");
    rig.con.input_mut().push_text(" Lovelace");
    let r = rig.step(&mut ui, |ui| form(ui, &mut name));
    assert!(r.changed());
    assert_eq!(name, "Ada Love", "cut at 8 characters");
    rig.tap(Key::Backspace, &mut ui, |ui| form(ui, &mut name));
    rig.tap(Key::Home, &mut ui, |ui| form(ui, &mut name));
    rig.tap(Key::Delete, &mut ui, |ui| form(ui, &mut name));
    rig.con.input_mut().push_text("É");
    rig.step(&mut ui, |ui| form(ui, &mut name));
    assert_eq!(name, "Éda Lov");
    let r = rig.tap(Key::Enter, &mut ui, |ui| form(ui, &mut name));
    assert!(r.submitted() && !ui.is_editing());
}

#[test]
fn while_editing_buttons_count_only_when_no_key_is_in_play() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut name = String::new();
    let form = |ui: &mut Ui, name: &mut String| {
        let r = ui.text_field("Name", name, 16);
        ui.button("OK");
        r
    };
    rig.step(&mut ui, |ui| form(ui, &mut name));
    let field = ui.rect_of(0).unwrap();
    rig.point_in(field, 4);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut name));
    rig.mouse(false);
    assert!(ui.is_editing(), "a click starts editing");
    // The key map makes Z button A and the down arrow button DOWN: typed, they are text.
    rig.key(Key::KeyZ, true);
    rig.pad(Button::A | Button::DOWN, true);
    rig.con.input_mut().push_text("z");
    let r = rig.step(&mut ui, |ui| form(ui, &mut name));
    rig.key(Key::KeyZ, false);
    rig.pad(Button::A | Button::DOWN, false);
    assert_eq!(name, "z");
    assert!(!r.submitted() && ui.is_editing() && ui.focus() == Some(0));
    rig.step(&mut ui, |ui| form(ui, &mut name));
    // A gamepad's A, no key held: done.
    rig.pad(Button::A, true);
    let r = rig.step(&mut ui, |ui| form(ui, &mut name));
    assert!(r.submitted() && !ui.is_editing());
}

#[test]
fn a_list_moves_its_selection_with_the_arrows_and_keeps_it_in_view() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let items = ["a", "b", "c", "d", "e", "f"];
    let mut state = ListState::default();
    let form = |ui: &mut Ui, s: &mut ListState| ui.list(s, &items, 3);
    rig.step(&mut ui, |ui| form(ui, &mut state));
    ui.set_focus_to(Some(0));
    for _ in 0..4 {
        rig.tap(Key::ArrowDown, &mut ui, |ui| form(ui, &mut state));
    }
    assert_eq!(
        state,
        ListState {
            selected: Some(3),
            scroll: 1
        }
    );
    let r = rig.tap(Key::Enter, &mut ui, |ui| form(ui, &mut state));
    assert!(r.clicked());
    rig.con.input_mut().add_wheel(0.0, -10.0);
    let list = ui.rect_of(0).unwrap();
    rig.point(list.x + 5, list.y + 2);
    rig.step(&mut ui, |ui| form(ui, &mut state));
    assert_eq!(state.scroll, 3, "scrolled to the end");
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut state));
    rig.mouse(false);
    let r = rig.step(&mut ui, |ui| form(ui, &mut state));
    assert!(r.clicked());
    assert_eq!(state.selected, Some(3), "the first row shown");
    // Past the last item the focus moves on (round to the only widget here).
    let mut other = false;
    let form2 = |ui: &mut Ui, s: &mut ListState, o: &mut bool| {
        ui.list(s, &items, 3);
        ui.checkbox("after", o);
    };
    state.selected = Some(5);
    rig.tap(Key::ArrowDown, &mut ui, |ui| {
        form2(ui, &mut state, &mut other)
    });
    assert_eq!(ui.focus(), Some(1));
    // A selection past the items, say after they shrank, moves to the last.
    state.selected = Some(40);
    rig.step(&mut ui, |ui| ui.list(&mut state, &items[..2], 3));
    assert_eq!(
        state,
        ListState {
            selected: Some(1),
            scroll: 0
        }
    );
}

#[test]
fn tabs_and_swatches_choose_with_the_pointer_and_the_arrows() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let (mut tab, mut colour) = (0usize, 8u8);
    let form = |ui: &mut Ui, tab: &mut usize, colour: &mut u8| {
        ui.tabs(tab, &["Basic", "Lists", "More"]);
        ui.swatches(colour, 0..=15, 8);
    };
    rig.step(&mut ui, |ui| form(ui, &mut tab, &mut colour));
    let (bar, grid) = (ui.rect_of(0).unwrap(), ui.rect_of(1).unwrap());
    ui.set_focus_to(Some(0));
    rig.tap(Key::ArrowRight, &mut ui, |ui| {
        form(ui, &mut tab, &mut colour)
    });
    assert_eq!(tab, 1);
    rig.point(bar.right() - 2, bar.y + 3);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut tab, &mut colour));
    rig.mouse(false);
    assert_eq!(tab, 2, "the last tab clicked");
    rig.point(grid.x + 1 + 11 * 2 + 3, grid.y + 1 + 11 + 3);
    rig.mouse(true);
    rig.step(&mut ui, |ui| form(ui, &mut tab, &mut colour));
    rig.mouse(false);
    assert_eq!(colour, 10, "second row, third cell");
    rig.tap(Key::ArrowUp, &mut ui, |ui| form(ui, &mut tab, &mut colour));
    assert_eq!(colour, 2);
    rig.tap(Key::ArrowUp, &mut ui, |ui| form(ui, &mut tab, &mut colour));
    assert_eq!(
        (colour, ui.focus()),
        (2, Some(0)),
        "past the top row: the focus moves"
    );
}

#[test]
fn a_tooltip_shows_once_the_pointer_rests_on_its_widget() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let form = |ui: &mut Ui| {
        ui.button("Save");
        ui.tooltip("Writes the level");
    };
    rig.step(&mut ui, form);
    let save = ui.rect_of(0).unwrap();
    rig.point_in(save, 2);
    let tips = |ui: &Ui| {
        ui.records
            .list
            .iter()
            .filter(|r| r.kind == record::Kind::Tooltip)
            .count()
    };
    for _ in 0..TOOLTIP_TICKS {
        rig.step(&mut ui, form);
        assert_eq!(tips(&ui), 0);
    }
    rig.step(&mut ui, form);
    assert_eq!(tips(&ui), 1);
    rig.point(300, 200);
    rig.step(&mut ui, form);
    assert_eq!(tips(&ui), 0, "gone when the pointer leaves");
}

#[test]
fn widgets_past_the_room_are_counted_and_still_work_and_text_is_cut() {
    let (mut rig, mut ui) = (Rig::new(), Ui::with_capacity(2, 8));
    let mut ticks = [false; 4];
    let form = |ui: &mut Ui, t: &mut [bool; 4]| {
        for b in t.iter_mut() {
            ui.checkbox("a long label", b);
        }
    };
    rig.step(&mut ui, |ui| form(ui, &mut ticks));
    assert_eq!((ui.records.list.len(), ui.dropped()), (2, 2));
    assert_eq!(ui.records.text, "a long l");
    ui.set_focus_to(Some(3));
    rig.tap(Key::Space, &mut ui, |ui| form(ui, &mut ticks));
    assert_eq!(ticks, [false, false, false, true]);
}

#[test]
fn rows_lay_widgets_across_and_columns_down() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    rig.step(&mut ui, |ui| {
        ui.row(|ui| {
            ui.button("A");
            ui.button("B");
        });
        ui.button("C");
        ui.area(200, 100, |ui| ui.button("D"));
        ui.button("E");
    });
    let r: Vec<Rect> = (0..5).map(|i| ui.rect_of(i).unwrap()).collect();
    let (pad, gap, h) = (4, 3, widgets::WIDGET_HEIGHT);
    assert_eq!(r[0], Rect::new(pad, pad, 6 + 2 * pad, h));
    assert_eq!(r[1].position(), (r[0].right() + gap, pad).into());
    assert_eq!(r[2].position(), (pad, pad + h + gap).into());
    assert_eq!(r[3].position(), (200, 100).into());
    assert_eq!(
        r[4].position(),
        (pad, r[2].bottom() + gap).into(),
        "an area takes no room"
    );
}

#[test]
fn a_copy_goes_on_as_the_original_does() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut name = String::from("ab");
    rig.step(&mut ui, |ui| ui.text_field("", &mut name, 8));
    ui.set_focus_to(Some(0));
    rig.tap(Key::Enter, &mut ui, |ui| ui.text_field("", &mut name, 8));
    rig.tap(Key::ArrowLeft, &mut ui, |ui| {
        ui.text_field("", &mut name, 8)
    });
    let (mut copy, mut copy_name) = (ui.clone(), name.clone());
    for (ui, name) in [(&mut ui, &mut name), (&mut copy, &mut copy_name)] {
        let mut rig = Rig::new();
        rig.con.input_mut().push_text("X");
        rig.step(ui, |ui| ui.text_field("", name, 8));
    }
    assert_eq!((name.as_str(), copy_name.as_str()), ("aXb", "aXb"));
}

#[test]
fn drawing_shows_the_focus_ring_and_a_ticked_box_and_keeps_the_clip() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut on = true;
    let mut name = String::from("a name longer than its field");
    let form = |ui: &mut Ui, on: &mut bool, name: &mut String| {
        ui.checkbox("On", on);
        ui.text_field("Name", name, 40);
    };
    rig.step(&mut ui, |ui| form(ui, &mut on, &mut name));
    ui.set_focus_to(Some(0));
    rig.step(&mut ui, |ui| form(ui, &mut on, &mut name));
    let b = ui.rect_of(0).unwrap();
    let field = ui.rect_of(1).unwrap();
    let t = *ui.theme();
    let clip = Rect::new(0, 0, 200, 200);
    let mut ctx = rig.con.render_context(0, 0.0);
    ctx.set_clip(clip);
    ui.draw(&mut ctx);
    assert_eq!(ctx.clip(), clip, "the cart's clip is put back");
    let fb = rig.con.framebuffer();
    assert_eq!(fb.get(b.x - 2, b.y - 2), Some(t.focus));
    let centre = (b.x + widgets::BOX / 2, b.y + b.h / 2);
    assert_eq!(fb.get(centre.0, centre.1), Some(t.accent));
    let past_field = t.field_width;
    assert!(
        (0..field.h).all(|dy| fb.get(field.x + past_field - 1, field.y + dy) != Some(t.text)),
        "the long text stays inside its field"
    );
}

#[test]
fn a_list_of_a_hundred_million_items_scrolls_to_its_end_and_draws_its_thumb_there() {
    /// An item that costs no memory, so that a long list does not.
    struct Blank;
    impl std::fmt::Display for Blank {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("-")
        }
    }
    let items: Vec<Blank> = std::iter::repeat_with(|| Blank).take(100_000_000).collect();
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut state = ListState {
        selected: None,
        scroll: usize::MAX,
    };
    rig.step(&mut ui, |ui| ui.list(&mut state, &items, 5));
    assert_eq!(state.scroll, items.len() - 5);
    let list = ui.rect_of(0).unwrap();
    let edge = ui.theme().edge;
    ui.draw(&mut rig.con.render_context(0, 0.0));
    let fb = rig.con.framebuffer();
    let track_x = list.right() - 3;
    assert_eq!(
        fb.get(track_x, list.bottom() - 2),
        Some(edge),
        "the thumb at the end"
    );
    assert_ne!(fb.get(track_x, list.y + 1), Some(edge), "not at the start");
}

#[test]
fn a_touch_is_the_pointer_while_a_finger_is_down() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut on = false;
    rig.step(&mut ui, |ui| ui.checkbox("On", &mut on));
    let b = ui.rect_of(0).unwrap();
    // The mouse rests elsewhere; the finger taps the box.
    rig.point(300, 200);
    rig.con.input_mut().set_touch(0, Some((b.x + 2, b.y + 4)));
    rig.step(&mut ui, |ui| ui.checkbox("On", &mut on));
    assert!(!on, "touched down, not yet lifted");
    rig.con.input_mut().set_touch(0, None);
    rig.step(&mut ui, |ui| ui.checkbox("On", &mut on));
    assert!(on);
}

#[test]
fn the_theme_chooses_the_colours_drawn() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let mut on = true;
    ui.theme_mut().accent = 11;
    ui.theme_mut().padding = 6;
    rig.step(&mut ui, |ui| ui.checkbox("On", &mut on));
    let b = ui.rect_of(0).unwrap();
    assert_eq!(b.position(), (6, 6).into(), "the padding insets the layout");
    ui.draw(&mut rig.con.render_context(0, 0.0));
    let centre = (b.x + widgets::BOX / 2, b.y + b.h / 2);
    assert_eq!(rig.con.framebuffer().get(centre.0, centre.1), Some(11));
}

#[test]
fn a_copys_heap_bytes_are_the_last_updates_widgets_and_text() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    rig.step(&mut ui, |_| {});
    assert_eq!(ui.heap_bytes(), 0);
    rig.step(&mut ui, |ui| {
        ui.label("four");
        ui.button("five!");
    });
    let record = std::mem::size_of::<record::Record>();
    assert_eq!(ui.heap_bytes(), 2 * record + 9);
}

#[test]
fn a_pointer_only_ui_leaves_keys_and_the_gamepad_alone_and_still_answers_the_pointer() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    ui.set_pointer_only(true);
    let mut color = 3u8;
    let mut form = |ui: &mut Ui| ui.swatches(&mut color, 0..=15, 8).changed();
    rig.step(&mut ui, &mut form);
    let at = ui.rect_of(0).unwrap();
    for key in [Key::Tab, Key::ArrowDown, Key::ArrowRight, Key::Enter] {
        rig.tap(key, &mut ui, &mut form);
    }
    rig.pad(Button::DOWN, true);
    rig.step(&mut ui, &mut form);
    rig.pad(Button::DOWN, false);
    assert_eq!(
        ui.focus(),
        None,
        "neither keys nor the gamepad moved the focus"
    );
    // A press on the second swatch picks it.
    rig.point(at.x + 1 + 11 + 5, at.y + 5);
    rig.mouse(true);
    assert!(rig.step(&mut ui, &mut form));
    rig.mouse(false);
    rig.step(&mut ui, &mut form);
    assert_eq!(color, 1);
}

#[test]
fn a_region_takes_the_arrows_while_focused_and_a_press_a_button_took_is_not_its() {
    let (mut rig, mut ui) = (Rig::new(), Ui::new());
    let form = |ui: &mut Ui| {
        let button = ui.button("Play");
        let region = ui.region(100, 60);
        ui.button("Save");
        (button, region)
    };
    rig.step(&mut ui, form);
    let (play, area) = (ui.rect_of(0).unwrap(), ui.rect_of(1).unwrap());
    // A press on the region: pressed, held through a drag, and the focus is its.
    rig.point_in(area, 5);
    rig.mouse(true);
    let (_, region) = rig.step(&mut ui, form);
    assert!(region.pressed() && region.held() && region.hovered());
    assert_eq!(ui.focus(), Some(1));
    rig.point(area.x + 50, area.y + 200);
    let (_, region) = rig.step(&mut ui, form);
    assert!(region.held() && !region.pressed() && !region.hovered());
    rig.mouse(false);
    let (_, region) = rig.step(&mut ui, form);
    assert!(!region.held());
    // While it has the focus the arrows, Enter and Space are the cart's; Tab moves on.
    for key in [Key::ArrowDown, Key::ArrowRight, Key::Enter, Key::Space] {
        rig.tap(key, &mut ui, form);
        rig.step(&mut ui, form);
        assert_eq!(ui.focus(), Some(1), "{key:?}");
    }
    rig.tap(Key::Tab, &mut ui, form);
    assert_eq!(ui.focus(), Some(2));
    // A region declared over a button: the button declared first takes the press.
    let overlap = |ui: &mut Ui| {
        let button = ui.button("Play");
        ui.area(0, 0, |ui| ui.region(200, 200))
            .pressed()
            .then_some(())
            .map_or(button, |_| Response::default())
    };
    rig.point_in(play, 2);
    rig.mouse(true);
    let button = rig.step(&mut ui, overlap);
    assert!(button.pressed(), "the button took the press");
    assert_eq!(ui.focus(), Some(0));
}
