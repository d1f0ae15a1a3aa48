//! Touch slots: fingers from the platform take the first free slot and keep it, reach the
//! next update with the edge rules of buttons, replay exactly, and a cart's test can touch.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use bt::limits::TOUCH_SLOTS;
use bt::{Cart, Render, Update};
use bt_runtime::harness::CartTest;
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Host, HostEvent, TouchPhase};
use bt_runtime::replay::Replay;
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// Paints where each finger is, in a colour per slot, and logs what every update saw.
#[derive(Default)]
struct Paint {
    dots: Vec<(i32, i32, u8)>,
    log: Rc<RefCell<Vec<String>>>,
}

impl Cart for Paint {
    fn update(&mut self, ctx: &mut Update<'_>) {
        let mut line = String::new();
        for slot in 0..TOUCH_SLOTS {
            if let Some(t) = ctx.touch(slot) {
                let edge = match (t.pressed, t.released) {
                    (true, true) => "tap",
                    (true, false) => "down",
                    (false, true) => "up",
                    _ => "held",
                };
                line.push_str(&format!("{slot}:{edge}@{:?}+{:?} ", t.pos, t.delta));
                if t.down {
                    self.dots.push((t.pos.0, t.pos.1, 8 + slot as u8));
                }
            }
        }
        self.log.borrow_mut().push(line.trim_end().to_string());
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        for &(x, y, c) in &self.dots {
            ctx.draw_pixel(x, y, c);
        }
    }
}

fn engine(replay: Option<Arc<Replay>>) -> (Engine, Rc<RefCell<Vec<String>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = log.clone();
    let factory = move || -> Box<dyn Cart> {
        Box::new(Paint {
            log: shared.clone(),
            ..Paint::default()
        })
    };
    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(32, 32)),
        overlay: false,
        replay,
        ..EngineOptions::default()
    };
    (Engine::new(Box::new(factory), options).unwrap(), log)
}

fn finger(h: &mut Host, id: u64, phase: TouchPhase, x: i32, y: i32) {
    h.handle(HostEvent::Touch { id, phase, x, y });
}

#[test]
fn fingers_take_the_first_free_slot_keep_it_and_replay_exactly() {
    let (mut e, log) = engine(None);
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    e.start_recording(2);
    let mut h = Host::new(e, KeyMap::default(), "paint");
    let mut frame = 0.0;
    let mut next = |h: &mut Host| {
        h.frame(frame);
        frame += 1000.0 / 60.0;
    };
    next(&mut h);
    finger(&mut h, 70, TouchPhase::Started, 1, 2);
    next(&mut h);
    finger(&mut h, 71, TouchPhase::Started, 10, 10);
    finger(&mut h, 70, TouchPhase::Moved, 4, 2);
    next(&mut h);
    // The first finger lifts; a third takes its slot, a fourth and fifth fill the rest, a
    // sixth finds none.
    finger(&mut h, 70, TouchPhase::Ended, 4, 2);
    next(&mut h);
    for (id, x) in [(72, 20), (73, 21), (74, 22)] {
        finger(&mut h, id, TouchPhase::Started, x, 5);
    }
    finger(&mut h, 74, TouchPhase::Moved, 23, 5);
    // A tap shorter than a tick.
    finger(&mut h, 73, TouchPhase::Ended, 21, 5);
    next(&mut h);
    next(&mut h);
    let lines = log.borrow().clone();
    assert_eq!(
        lines,
        [
            "",
            "0:down@(1, 2)+(0, 0)",
            "0:held@(4, 2)+(3, 0) 1:down@(10, 10)+(0, 0)",
            "0:up@(4, 2)+(0, 0) 1:held@(10, 10)+(0, 0)",
            "0:down@(20, 5)+(0, 0) 1:held@(10, 10)+(0, 0) 2:tap@(21, 5)+(0, 0)",
            "0:held@(20, 5)+(0, 0) 1:held@(10, 10)+(0, 0)",
        ]
    );

    let recorded = h.engine().recording("paint", None).unwrap();
    let json = recorded.to_json();
    assert!(json.contains("\"version\":3"), "touches need layout 3");
    let replay = Arc::new(Replay::from_json(&json, Path::new("paint.btr")).unwrap());
    let (mut again, replayed) = engine(Some(replay.clone()));
    again.step(replay.ticks()).unwrap();
    assert_eq!(*replayed.borrow(), lines);
    assert!(!replay.hashes().is_empty());
    assert_eq!(replay.first_mismatch(again.hashes()), None);
}

#[test]
fn losing_focus_lifts_every_finger() {
    let (mut e, log) = engine(None);
    e.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    let mut h = Host::new(e, KeyMap::default(), "paint");
    finger(&mut h, 1, TouchPhase::Started, 3, 3);
    h.frame(0.0);
    h.handle(HostEvent::FocusLost);
    h.frame(1000.0 / 60.0);
    h.frame(2000.0 / 60.0);
    let lines = log.borrow().clone();
    assert_eq!(lines[lines.len() - 2..], ["0:up@(3, 3)+(0, 0)", ""]);
}

#[test]
fn a_carts_test_touches_with_fingers_of_its_own() {
    let mut test = CartTest::new(Paint::default).unwrap();
    test.touch(5, 7, 8);
    test.run(1);
    test.touch(5, 9, 8);
    test.touch(6, 1, 1);
    test.run(1);
    test.lift(5);
    test.run(1);
    test.render();
    assert_eq!(test.pixel(7, 8), 8, "slot 0 painted");
    assert_eq!(test.pixel(9, 8), 8);
    assert_eq!(test.pixel(1, 1), 9, "the second finger took slot 1");
}
