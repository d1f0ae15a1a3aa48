//! The engine's promises, end to end: clocks, `run` versus `advance`, `render_at`, pausing,
//! stepping, input edges and determinism. Test carts of their own, and three of the example
//! carts (dev-dependencies: the library bundles none); `carts/gallery/tests/every_cart.rs` holds
//! the promises checked on every bundled cart.

use std::cell::RefCell;
use std::rc::Rc;

use bt::{Button, Cart, Player, Render, Settings, Update};
use bt_runtime::engine::Origin;
use bt_runtime::engine::MAX_SEEK_UPDATES;
use bt_runtime::{
    ConstantClock, Engine, EngineError, EngineOptions, FrameReport, JitterClock, SequenceClock,
    TimeError, MAX_STEPS,
};
use bt_test_support::ScratchDir;

const IV60: f64 = 1000.0 / 60.0;

/// What the fixed-step loop decided for a frame: updates, `render_alpha`, clamped, time lost.
fn loop_outcome(r: &FrameReport) -> (u32, f64, bool, f64) {
    let s = &r.stats;
    (s.updates, r.render_alpha, s.clamped, s.discarded_ms)
}

/// One of the example carts the runtime's tests use, by name.
struct Example {
    build: fn() -> Box<dyn Cart>,
}

fn example(name: &str) -> Example {
    let build: fn() -> Box<dyn Cart> = match name {
        "hello" => bt_cart_hello::cart,
        "timers" => bt_cart_timers::cart,
        "palette" => bt_cart_palette::cart,
        _ => panic!("no example cart {name:?} in the runtime's tests"),
    };
    Example { build }
}

fn bundled(name: &str) -> Engine {
    let cart = example(name);
    let options = EngineOptions {
        overlay: false,
        // Enough bunnies to overlap and bounce, few enough to replay quickly.
        args: vec![("sprites".into(), "100".into())],
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.build), options).expect("cart boots")
}

/// What the probe cart saw in one update.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    ticks: u64,
    roll: u32,
    pressed: bool,
    down: bool,
}

/// A cart that logs every update: its tick, a random roll, and button A's state.
struct Probe {
    log: Rc<RefCell<Vec<Seen>>>,
    reset_at: Option<u64>,
}

impl Cart for Probe {
    fn configure(&self) -> Settings {
        Settings::default().display(16, 16)
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let seen = Seen {
            ticks: ctx.ticks(),
            roll: ctx.rng_mut().next_u32(),
            pressed: ctx.is_pressed(Button::A, Player::ONE),
            down: ctx.is_down(Button::A, Player::ONE),
        };
        if Some(seen.ticks) == self.reset_at {
            ctx.reset_ticks();
        }
        self.log.borrow_mut().push(seen);
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear((ctx.ticks() % 16) as u8);
    }
}

fn probe(reset_at: Option<u64>) -> (Engine, Rc<RefCell<Vec<Seen>>>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let shared = Rc::clone(&log);
    let factory = Box::new(move || {
        Box::new(Probe {
            log: Rc::clone(&shared),
            reset_at,
        }) as Box<dyn Cart>
    });
    let engine = Engine::new(factory, EngineOptions::default()).expect("probe boots");
    (engine, log)
}

#[test]
fn run_and_advance_ask_the_clock_identically() {
    let clocks = || {
        vec![
            Box::new(ConstantClock::new(7.0).unwrap()) as Box<dyn bt_runtime::Clock>,
            Box::new(SequenceClock::new(vec![16.0, 33.0, 5.0, 120.0]).unwrap()),
            Box::new(JitterClock::new(2.0, 90.0, 11.0).unwrap()),
        ]
    };
    for (a, b) in clocks().into_iter().zip(clocks()) {
        let mut stepped = bundled("hello");
        let mut driven = bundled("hello");
        stepped.set_clock(a);
        driven.set_clock(b);
        for i in 0..300u32 {
            stepped.advance(1);
            // Real hosts pass real timestamps; these clocks must not care.
            driven.run(f64::from(i) * 3.7 + 1000.0);
            assert_eq!(
                stepped.last_frame().stats.ticks,
                driven.last_frame().stats.ticks,
                "frame {i}"
            );
            assert_eq!(
                loop_outcome(stepped.last_frame()),
                loop_outcome(driven.last_frame()),
                "frame {i}"
            );
            assert_eq!(stepped.framebuffer(), driven.framebuffer(), "frame {i}");
        }
    }
}

#[test]
fn engine_caps_a_hitch_at_eight_updates_and_reports_the_loss() {
    let mut e = bundled("hello");
    e.set_clock(Box::new(SequenceClock::new(vec![IV60, 500.0]).unwrap()));
    e.advance(2);
    let t = e.last_frame().stats;
    assert_eq!(t.updates, MAX_STEPS);
    assert!(t.clamped);
    assert!((t.discarded_ms - (500.0 - 8.0 * IV60)).abs() < 1e-9);
    assert_eq!(e.ticks(), 9);
}

#[test]
fn render_at_matches_live_play_under_a_multi_step_clock() {
    // 50 ms is exactly three updates at 60 fps: every frame runs 3 and leaves no leftover.
    let mut live = bundled("hello");
    live.set_clock(Box::new(ConstantClock::new(50.0).unwrap()));
    live.advance(64);
    assert_eq!(live.updates_since_init(), 192);
    let mut seek = bundled("hello");
    seek.render_at(3.2, Origin::Start).unwrap();
    assert_eq!(seek.framebuffer(), live.framebuffer());
}

#[test]
fn render_at_from_current_goes_forward_and_back() {
    let mut a = bundled("hello");
    a.render_at(2.0, Origin::Start).unwrap();
    a.render_at(3.0, Origin::Current).unwrap();
    let mut b = bundled("hello");
    b.render_at(3.0, Origin::Start).unwrap();
    assert_eq!(a.framebuffer(), b.framebuffer());

    // Behind the current tick: the frame a seek from the start gives.
    a.render_at(1.0, Origin::Current).unwrap();
    assert_eq!(a.updates_since_init(), 60);
    b.render_at(1.0, Origin::Start).unwrap();
    assert_eq!(a.framebuffer(), b.framebuffer());
    assert_eq!(a.ticks(), b.ticks());
}

#[test]
fn render_at_rounds_to_the_nearest_tick() {
    let mut e = bundled("hello");
    e.render_at(3.2, Origin::Start).unwrap();
    assert_eq!(e.updates_since_init(), 192);
    e.render_at(0.0083, Origin::Start).unwrap();
    assert_eq!(e.updates_since_init(), 0);
    e.render_at(0.0084, Origin::Start).unwrap();
    assert_eq!(e.updates_since_init(), 1);
}

#[test]
fn render_at_is_the_seek_to_the_update_its_seconds_round_to() {
    let mut by_time = bundled("hello");
    let mut by_tick = bundled("hello");
    for (seconds, tick) in [(0.0, 0), (0.0084, 1), (3.2, 192), (0.125, 8)] {
        assert_eq!(by_time.tick_at(seconds), Ok(tick), "{seconds}");
        by_time.render_at(seconds, Origin::Start).unwrap();
        by_tick
            .render_at_tick(tick, Origin::Start, |_, _| {})
            .unwrap();
        assert_eq!(by_time.updates_since_init(), tick);
        assert_eq!(by_time.framebuffer(), by_tick.framebuffer(), "{seconds}");
    }
    // The seek would start from the last snapshot kept on the way, after update 192.
    assert_eq!(by_tick.snapshots().span, Some((0, 192)));
    assert_eq!(
        by_tick.render_at_tick(MAX_SEEK_UPDATES + 193, Origin::Start, |_, _| {}),
        Err(EngineError::TooFar {
            target: MAX_SEEK_UPDATES + 193,
            from: 192
        })
    );
    // From the current update, the distance counts from there.
    by_tick
        .render_at_tick(100, Origin::Start, |_, _| {})
        .unwrap();
    assert_eq!(
        by_tick.render_at_tick(MAX_SEEK_UPDATES + 101, Origin::Current, |_, _| {}),
        Err(EngineError::TooFar {
            target: MAX_SEEK_UPDATES + 101,
            from: 100
        })
    );
}

#[test]
fn render_at_refuses_bad_seconds() {
    let mut e = bundled("hello");
    for bad in [-0.5, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            e.render_at(bad, Origin::Start),
            Err(EngineError::Time(TimeError::Seconds(_)))
        ));
    }
    assert!(matches!(
        e.render_at(1e300, Origin::Start),
        Err(EngineError::Time(TimeError::Beyond { .. }))
    ));
    // 60,000,000 updates: past what one seek replays.
    assert_eq!(
        e.render_at(1e6, Origin::Start),
        Err(EngineError::TooFar {
            target: 60_000_000,
            from: 0
        })
    );
    let msg = e.render_at(-2.0, Origin::Start).unwrap_err().to_string();
    assert_eq!(
        msg,
        "render_at: seconds must be finite and not negative, got -2"
    );
}

#[test]
fn paused_engine_renders_nothing_until_resumed() {
    let mut e = bundled("hello");
    e.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    e.render_at(1.0, Origin::Start).unwrap();
    let paused = e.framebuffer().clone();
    assert!(e.is_paused());
    assert_eq!(e.advance(30), 0);
    assert_eq!(e.framebuffer(), &paused);
    assert_eq!(e.updates_since_init(), 60);
    e.resume();
    assert!(!e.is_paused());
    assert_eq!(e.advance(30), 30);
    assert_eq!(e.updates_since_init(), 90);
    // Continuing from the paused frame is the same as never having stopped.
    let mut straight = bundled("hello");
    straight.render_at(1.5, Origin::Start).unwrap();
    assert_eq!(straight.framebuffer(), e.framebuffer());
}

#[test]
fn step_pauses_a_running_engine_and_refuses_too_many_updates() {
    let mut e = bundled("hello");
    e.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    e.advance(10);
    let err = e.step(MAX_SEEK_UPDATES + 1).unwrap_err();
    assert_eq!(err, EngineError::Steps(MAX_SEEK_UPDATES + 1));
    assert_eq!(
        err.to_string(),
        "step 10000001 updates: one step runs at most 10000000"
    );
    assert!(!e.is_paused(), "a refused step changes nothing");
    assert_eq!(e.updates_since_init(), 10);

    e.step(2).unwrap();
    assert!(e.is_paused());
    assert_eq!(e.updates_since_init(), 12);
    assert_eq!(e.advance(5), 0, "stays paused");
    e.step(0).unwrap();
    assert_eq!(e.updates_since_init(), 12, "step(0) only renders");
    e.resume();
    assert_eq!(e.advance(5), 5);
    assert_eq!(e.updates_since_init(), 17);
}

#[test]
fn step_keeps_its_tags_off_the_chart() {
    let mut e = with_overlay("timers");
    // Six updates before the first wave at tick 120.
    e.render_at(1.9, Origin::Start).unwrap();
    e.step(10).unwrap();
    let tags: Vec<(u64, &str)> = e
        .last_frame_tags()
        .iter()
        .map(|t| (t.tick, t.label.as_str()))
        .collect();
    assert_eq!(tags, [(120, "Wave")]);
    assert_eq!(chart_labels(&e), ["Start", "Round 1"], "init's tag only");
}

#[test]
fn redraw_draws_the_same_state_again_and_runs_no_update() {
    let mut e = with_overlay("hello");
    e.render_at(1.0, Origin::Start).unwrap();
    let before = e.framebuffer().clone();
    let counters = |e: &Engine| (e.ticks(), e.updates_since_init(), e.frames());
    let at = counters(&e);
    e.redraw().unwrap();
    assert_eq!(e.framebuffer(), &before);
    assert_eq!(counters(&e), at, "no tick, no update, no frame");
    assert!(e.is_paused());

    // With the overlay shown, the frame is the one a seek with the overlay shown draws.
    e.overlay_mut().unwrap().set_visible(true);
    e.redraw().unwrap();
    assert_ne!(e.framebuffer(), &before);
    assert_eq!(counters(&e), at);
    let mut seek = with_overlay("hello");
    seek.overlay_mut().unwrap().set_visible(true);
    seek.render_at(1.0, Origin::Start).unwrap();
    assert_eq!(e.framebuffer(), seek.framebuffer());
    // And the one the old way drew: a seek from the current tick to where it already is.
    seek.render_at(1.0, Origin::Current).unwrap();
    assert_eq!(e.framebuffer(), seek.framebuffer());

    // A running engine keeps running.
    let mut live = bundled("hello");
    live.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    live.advance(10);
    let at = counters(&live);
    live.redraw().unwrap();
    assert!(!live.is_paused());
    assert_eq!(counters(&live), at);
    assert_eq!(live.advance(1), 1);
}

#[test]
fn same_seed_and_input_give_the_same_updates_under_any_clock() {
    let script = |engine: &mut Engine, log: &Rc<RefCell<Vec<Seen>>>, steps: u64| {
        // Press A at update 10 and release at update 40, whenever those updates run.
        while (log.borrow().len() as u64) < steps {
            let n = log.borrow().len() as u64;
            let input = engine.console_mut().input_mut();
            if n == 10 {
                input.set_buttons(Button::A, Player::ONE, true);
            }
            if n == 40 {
                input.set_buttons(Button::A, Player::ONE, false);
            }
            engine.advance(1);
        }
    };
    let (mut steady, steady_log) = probe(None);
    steady.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    script(&mut steady, &steady_log, 200);
    let (mut jittery, jittery_log) = probe(None);
    jittery.set_clock(Box::new(JitterClock::new(1.0, 16.0, 3.0).unwrap()));
    script(&mut jittery, &jittery_log, 200);
    let a = steady_log.borrow();
    let b = jittery_log.borrow();
    assert_eq!(a[..200], b[..200]);
    assert!(a[10].pressed && a[10].down && !a[11].pressed && a[39].down && !a[40].down);
}

#[test]
fn a_tap_on_a_frame_without_updates_reaches_the_next_update_once() {
    let (mut e, log) = probe(None);
    // 120 Hz host, 60 fps cart: every other frame runs no update.
    e.set_clock(Box::new(ConstantClock::new(IV60 / 2.0).unwrap()));
    e.advance(1);
    assert_eq!(e.last_frame().stats.updates, 0);
    e.console_mut()
        .input_mut()
        .set_buttons(Button::A, Player::ONE, true);
    e.console_mut()
        .input_mut()
        .set_buttons(Button::A, Player::ONE, false);
    e.advance(1);
    e.advance(2);
    let log = log.borrow();
    let presses: Vec<bool> = log.iter().map(|s| s.pressed).collect();
    assert_eq!(presses, [true, false]);
}

#[test]
fn ticks_reset_makes_the_next_update_see_zero_and_render_at_counts_updates() {
    let (mut e, log) = probe(Some(5));
    e.set_clock(Box::new(ConstantClock::new(4.0 * IV60).unwrap()));
    e.advance(3);
    let ticks: Vec<u64> = log.borrow().iter().map(|s| s.ticks).collect();
    assert_eq!(ticks, [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
    assert_eq!(e.updates_since_init(), 12);
    log.borrow_mut().clear();
    e.render_at(0.2, Origin::Start).unwrap();
    assert_eq!(
        log.borrow().len(),
        12,
        "render_at counts updates, not ticks"
    );
    assert_eq!(e.ticks(), 0, "the twelfth update asked for a reset again");
}

#[test]
fn replay_from_start_rebuilds_the_cart_and_reseeds() {
    let (mut e, log) = probe(None);
    e.render_at(0.5, Origin::Start).unwrap();
    let first: Vec<Seen> = log.borrow().clone();
    log.borrow_mut().clear();
    e.render_at(0.5, Origin::Start).unwrap();
    assert_eq!(*log.borrow(), first);
}

#[test]
fn seeds_change_the_picture_and_repeat_it() {
    let shot = |seed| {
        let cart = example("hello");
        let options = EngineOptions {
            seed: Some(seed),
            overlay: false,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(Box::new(cart.build), options).unwrap();
        e.render_at(1.0, Origin::Start).unwrap();
        e.framebuffer().clone()
    };
    assert_eq!(shot(5), shot(5));
    assert_ne!(shot(5), shot(6));
}

#[test]
fn bad_overrides_are_named() {
    let cart = example("hello");
    let options = EngineOptions {
        target_fps: Some(0.0),
        ..EngineOptions::default()
    };
    let err = Engine::new(Box::new(cart.build), options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cart settings: target_fps must be between 0.001 and 10000 updates a second, got 0"
    );
    let options = EngineOptions {
        host_hz: -1.0,
        ..EngineOptions::default()
    };
    let err = Engine::new(Box::new(cart.build), options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "host_hz must be from 0.001 to 100000, got -1"
    );
}

#[test]
fn failing_init_is_reported_with_the_cart_message() {
    struct Broken;
    impl Cart for Broken {
        fn init(&mut self, _: &mut Update<'_>) -> Result<(), bt::CartError> {
            Err(bt::CartError::msg("no level data"))
        }
        fn update(&mut self, _: &mut Update<'_>) {}
        fn render(&self, _: &mut Render<'_>) {}
    }
    let err = Engine::new(
        Box::new(|| Box::new(Broken) as Box<dyn Cart>),
        EngineOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "cart init failed: no level data");
}

#[test]
fn a_replay_whose_init_fails_stays_paused() {
    struct FailsSecondTime {
        boots: Rc<RefCell<u32>>,
    }
    impl Cart for FailsSecondTime {
        fn init(&mut self, _: &mut Update<'_>) -> Result<(), bt::CartError> {
            *self.boots.borrow_mut() += 1;
            if *self.boots.borrow() == 2 {
                return Err(bt::CartError::msg("disk gone"));
            }
            Ok(())
        }
        fn update(&mut self, _: &mut Update<'_>) {}
        fn render(&self, _: &mut Render<'_>) {}
    }
    let boots = Rc::new(RefCell::new(0));
    let shared = Rc::clone(&boots);
    let factory = Box::new(move || {
        Box::new(FailsSecondTime {
            boots: Rc::clone(&shared),
        }) as Box<dyn Cart>
    });
    let mut e = Engine::new(factory, EngineOptions::default()).unwrap();
    let err = e.render_at(1.0, Origin::Start).unwrap_err();
    assert_eq!(err.to_string(), "cart init failed: disk gone");
    e.resume();
    assert!(e.is_paused(), "a cart whose init failed must not run");
    assert!(e.render_at(2.0, Origin::Current).is_err());
    assert!(e.step(1).is_err(), "nor step");
    assert!(e.redraw().is_err(), "nor be drawn");
    assert_eq!(e.updates_since_init(), 0);
    e.render_at(1.0, Origin::Start).unwrap();
    e.resume();
    assert!(!e.is_paused());
}

#[test]
fn changing_host_hz_keeps_host_time_moving_forward() {
    struct Stamps(Rc<RefCell<Vec<f64>>>);
    impl bt_runtime::Clock for Stamps {
        fn delta(&mut self, now_ms: f64) -> Option<f64> {
            self.0.borrow_mut().push(now_ms);
            Some(1.0)
        }
    }
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut e = bundled("hello");
    e.set_clock(Box::new(Stamps(Rc::clone(&seen))));
    e.advance(3);
    e.set_host_hz(10.0).unwrap();
    e.advance(2);
    let stamps = seen.borrow();
    let want = [
        0.0,
        1000.0 / 60.0,
        2000.0 / 60.0,
        3000.0 / 60.0,
        3000.0 / 60.0 + 100.0,
    ];
    for (got, want) in stamps.iter().zip(want) {
        assert!((got - want).abs() < 1e-9, "{stamps:?}");
    }
}

#[test]
fn palette_effects_look_the_same_at_any_refresh_rate() {
    // The same simulated seconds on a 30 Hz, a 60 Hz and a 144 Hz display: effects follow
    // updates, not frames, so the palette agrees whenever the update count does.
    let run = |host_hz: f64| {
        let mut e = bundled("palette");
        e.set_clock(Box::new(ConstantClock::new(1000.0 / host_hz).unwrap()));
        while e.updates_since_init() < 150 {
            e.advance(1);
        }
        (e.updates_since_init(), e.palette().clone())
    };
    let (u30, p30) = run(30.0);
    let (u60, p60) = run(60.0);
    let (u144, p144) = run(144.0);
    assert_eq!((u30, u60, u144), (150, 150, 150));
    assert_eq!(p30, p60);
    assert_eq!(p60, p144);
}

/// A cart that loads the sheet at `path` in `init` and draws it at the origin.
struct Loader {
    path: String,
    sheet: Option<bt::SpriteSheet>,
}

impl Cart for Loader {
    fn configure(&self) -> Settings {
        Settings::default().display(8, 8)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        self.sheet = Some(ctx.load_image(&self.path, 16 - 2)?);
        Ok(())
    }

    fn update(&mut self, _: &mut Update<'_>) {}

    fn render(&self, ctx: &mut Render<'_>) {
        if let Some(sheet) = &self.sheet {
            ctx.draw_sprite(sheet, bt::Rect::new(0, 0, 2, 1), 0, 0, Default::default());
        }
    }
}

fn loader(path: &str) -> Result<Engine, EngineError> {
    let path = path.to_string();
    let factory = Box::new(move || {
        Box::new(Loader {
            path: path.clone(),
            sheet: None,
        }) as Box<dyn Cart>
    });
    Engine::new(factory, EngineOptions::default())
}

#[test]
fn carts_load_png_files_through_the_host_and_errors_name_the_file() {
    let dir = ScratchDir::new("engine");
    let png = dir.join("two.png");
    bt_runtime::export::png::save_png(
        &{
            let mut fb = bt::host::Framebuffer::new(2, 1);
            fb.draw_pixel(0, 0, 8);
            fb.draw_pixel(1, 0, 12);
            fb
        },
        &bt::Palette::pico8(),
        1,
        &png,
    )
    .unwrap();
    let mut e = loader(png.to_str().unwrap()).unwrap();
    e.render_at(0.0, Origin::Start).unwrap();
    assert_eq!(e.framebuffer().get(0, 0), Some(14));
    assert_eq!(e.framebuffer().get(1, 0), Some(15));
    assert_eq!(e.palette().get(14), bt::Palette::pico8().get(8));

    let missing = dir.join("missing.png");
    let err = loader(missing.to_str().unwrap()).unwrap_err().to_string();
    assert_eq!(
        err,
        format!("cart init failed: {}: file not found", missing.display())
    );
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a picture").unwrap();
    let err = loader(text.to_str().unwrap()).unwrap_err().to_string();
    assert!(err.contains("notes.txt: not a PNG image"), "{err}");
}

fn with_overlay(name: &str) -> Engine {
    let cart = example(name);
    Engine::new(Box::new(cart.build), EngineOptions::default()).expect("cart boots")
}

fn chart_labels(e: &Engine) -> Vec<String> {
    e.overlay()
        .expect("an overlay")
        .tags()
        .map(|t| t.label.to_string())
        .collect()
}

#[test]
fn init_tags_belong_to_the_first_frame_and_its_chart_column() {
    let mut e = with_overlay("timers");
    e.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    e.advance(1);
    let labels: Vec<&str> = e
        .last_frame_tags()
        .iter()
        .map(|t| t.label.as_str())
        .collect();
    assert_eq!(labels, ["Round 1"]);
    assert!(chart_labels(&e).contains(&"Round 1".to_string()));
    e.advance(1);
    assert!(e.last_frame_tags().is_empty());
}

#[test]
fn a_seek_keeps_its_replayed_tags_off_the_chart_and_out_of_the_next_frame() {
    let mut e = with_overlay("timers");
    e.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    e.render_at(12.5, Origin::Start).unwrap();
    // The replay placed these on its way to update 750 (the round restarts at 600).
    let replayed: Vec<(u64, &str)> = e
        .last_frame_tags()
        .iter()
        .map(|t| (t.tick, t.label.as_str()))
        .collect();
    assert_eq!(
        replayed,
        [
            (0, "Round 1"),
            (120, "Wave"),
            (240, "Wave"),
            (360, "Wave"),
            (480, "Wave"),
            (599, "Round 2"),
            (120, "Wave")
        ]
    );
    assert_eq!(
        chart_labels(&e),
        ["Start", "Round 1"],
        "the chart restarts with init's tags, as at boot, and none of the updates'"
    );
    e.resume();
    e.advance(1);
    assert!(e.last_frame_tags().is_empty(), "{:?}", e.last_frame_tags());
}

#[test]
fn a_forced_overlay_still_gets_the_boot_tags() {
    let mut e = bundled("timers");
    assert!(e.overlay().is_none());
    e.overlay_forced();
    assert!(chart_labels(&e).contains(&"Round 1".to_string()));
}

/// A cart that scrolls its camera and draws one pixel at world (100, 160).
struct Scroller {
    settings: Settings,
}

impl Cart for Scroller {
    fn configure(&self) -> Settings {
        self.settings.clone()
    }
    fn update(&mut self, ctx: &mut Update<'_>) {
        ctx.set_camera(90, 60);
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(3);
        ctx.draw_pixel(100, 160, 9);
    }
}

fn scroller(settings: Settings) -> Engine {
    let factory = move || {
        Box::new(Scroller {
            settings: settings.clone(),
        }) as Box<dyn Cart>
    };
    let mut e = Engine::new(Box::new(factory), EngineOptions::default()).unwrap();
    e.set_clock(Box::new(ConstantClock::new(IV60).unwrap()));
    e
}

#[test]
fn the_overlay_draws_in_screen_space_and_leaves_the_cart_camera_alone() {
    let mut e = scroller(Settings::default().overlay_visible(true));
    for _ in 0..3 {
        e.advance(1);
        let bar = e.overlay().unwrap().colors().bar;
        let fb = e.framebuffer();
        assert_eq!(
            fb.get(319, 0),
            Some(bar),
            "title bar at the top of the screen"
        );
        assert_eq!(
            fb.get(10, 100),
            Some(9),
            "the cart's pixel, through its camera"
        );
        assert_eq!(fb.get(11, 100), Some(3));
        assert_eq!(
            e.console_mut().camera(),
            (90, 60),
            "the cart's camera is kept"
        );
    }
    assert!(
        e.overlay().unwrap().last().draw_counts.total() == 2,
        "clear and one pixel"
    );
}

#[test]
fn a_disabled_overlay_draws_nothing_at_all() {
    let mut off = scroller(
        Settings::default()
            .overlay_enabled(false)
            .overlay_visible(true),
    );
    off.advance(2);
    assert!(off.overlay().is_none());
    let fb = off.framebuffer();
    let ink: Vec<u8> = fb.pixels().iter().copied().filter(|&p| p != 3).collect();
    assert_eq!(ink, [9], "only the cart's own pixel on its clear colour");
    // Hidden but enabled, the hint sits in the corner: the difference is the overlay's.
    let mut hidden = scroller(Settings::default());
    hidden.advance(2);
    assert_ne!(hidden.framebuffer(), off.framebuffer());
}

#[test]
fn a_long_seek_reports_how_far_it_has_come() {
    let mut e = bundled("hello");
    let mut seen = Vec::new();
    e.render_at_tick(3000, Origin::Start, |done, total| seen.push((done, total)))
        .unwrap();
    assert_eq!(seen, [(1024, 3000), (2048, 3000)]);
    assert_eq!(e.updates_since_init(), 3000);
}

#[test]
fn present_fps_is_frames_over_the_elapsed_time_of_the_last_second() {
    // Uneven frames: an average of per-frame rates would say far more than the truth.
    for steps in [
        vec![16.7, 16.7, 50.0, 8.3, 400.0],
        vec![5.0, 40.0, 12.0, 33.0],
        vec![1000.0 / 60.0],
    ] {
        let mut engine = bundled("hello");
        engine.overlay_forced();
        engine.set_clock(Box::new(SequenceClock::new(steps.clone()).unwrap()));
        let mut deltas = Vec::new();
        for _ in 0..240 {
            if engine.advance(1) == 1 {
                deltas.push(engine.last_frame().stats.delta_ms);
            }
        }
        // The newest frames whose deltas add up to at most a second (at least one).
        let (mut n, mut sum) = (0, 0.0);
        for d in deltas.iter().rev() {
            if n > 0 && sum + d > 1000.0 {
                break;
            }
            n += 1;
            sum += d;
        }
        let truth = n as f64 * 1000.0 / sum;
        let shown = engine.overlay().unwrap().present_fps();
        assert!(
            (shown - truth).abs() < 1e-9,
            "{steps:?}: overlay says {shown}, the frames say {truth}"
        );
    }
}

#[test]
fn resuming_under_a_wall_clock_owes_nothing_for_the_pause() {
    let mut e = bundled("hello");
    e.set_clock(Box::new(bt_runtime::WallClock::default()));
    e.run(0.0);
    assert_eq!(e.run(IV60).map(|r| r.stats.updates), Some(1));
    e.pause();
    assert!(e.run(500.0).is_none());
    e.resume();
    // A second after the last frame: no catching up with six updates at once (the clock's
    // 100 ms cap), no time thrown away.
    let first = e.run(1000.0 + IV60).expect("a frame");
    assert_eq!((first.stats.updates, first.stats.discarded_ms), (0, 0.0));
    let next = e.run(1000.0 + 2.0 * IV60).expect("a frame");
    assert_eq!(next.stats.updates, 1);
}
