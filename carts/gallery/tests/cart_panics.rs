//! A cart that panics: headless commands fail with one line naming the panic and the tick, and
//! the engine stops the cart, keeps the panic and shows it as the overlay's notice.

mod support;

use std::process::Command;

use bt_runtime::engine::Origin;
use bt_runtime::engine::{CartCall, Engine, EngineError, EngineOptions};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::Host;
use bt_runtime::ConstantClock;
use bt_test_support::ScratchDir;
use support::{bt, bt_command, stderr, stdout};

const SOURCE: &str = "carts/gallery/src/panic.rs";

/// The one line `bt` printed on stderr, checked to be the only one and free of Rust's own
/// panic report.
fn one_line(o: &std::process::Output) -> String {
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for noise in ["panicked at", "backtrace", "RUST_BACKTRACE"] {
        assert!(!err.contains(noise), "{noise:?} in {err}");
    }
    err.trim_end().to_string()
}

#[test]
fn a_panic_in_init_update_or_render_fails_a_shot_with_one_line() {
    let dir = ScratchDir::new("cart-panics");
    let out = dir.join("never.png");
    let out = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--arg", "panic_in=init", "--at", "1"],
            "bt: error: cart 'panic': cart panicked in init at tick 0: asked to panic in init (",
        ),
        (
            &["--arg", "panic_at=30", "--at", "1"],
            "bt: error: --at 1: cart panicked in update at tick 30: asked to panic in update at \
             tick 30 (",
        ),
        (
            &[
                "--arg",
                "panic_in=render",
                "--arg",
                "panic_at=60",
                "--at",
                "1",
            ],
            "bt: error: --at 1: cart panicked in render at tick 60: asked to panic in render at \
             tick 60 (",
        ),
    ];
    for (args, want) in cases {
        let mut full = vec!["shot", "panic"];
        full.extend_from_slice(args);
        full.extend(["-o", out]);
        // Asked for, Rust would add a backtrace to its own report of a panic.
        let o = bt_command()
            .args(&full)
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{full:?}: {}", stderr(&o));
        let line = one_line(&o);
        assert!(line.starts_with(want), "{full:?}: {line}");
        assert!(line.contains(SOURCE), "where it panicked: {line}");
    }
    assert!(!dir.join("never.png").exists());
}

#[test]
fn a_panic_fails_trace_diagnose_and_bench_with_one_line() {
    let dir = ScratchDir::new("cart-panics");
    let (png, csv) = (dir.join("d.png"), dir.join("d.csv"));
    let sim = ["--clock", "constant:16.666666666666668", "--frames", "20"];
    let mut trace = vec!["trace", "panic", "--arg", "panic_at=5"];
    trace.extend(sim);
    let mut diagnose = vec!["diagnose", "panic", "--arg", "panic_at=5"];
    diagnose.extend(sim);
    diagnose.extend(["-o", png.to_str().unwrap(), "--csv", csv.to_str().unwrap()]);
    let bench = vec!["bench", "panic", "--arg", "panic_at=5", "--frames", "20"];
    for args in [trace, diagnose, bench] {
        let o = bt(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let line = one_line(&o);
        assert!(
            line.starts_with(
                "bt: error: cart 'panic': cart panicked in update at tick 5: asked to panic in \
                 update at tick 5 ("
            ),
            "{args:?}: {line}"
        );
    }
    assert!(!png.exists() && !csv.exists(), "nothing written");
}

#[test]
fn a_panic_report_that_cannot_be_printed_still_exits_1() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["trace", "panic", "--arg", "panic_at=2"])
        .args(["--clock", "constant:20", "--frames", "5"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn the_test_cart_runs_by_name_but_is_not_listed() {
    let o = bt(&["list"]);
    assert!(!stdout(&o).contains("panic"), "{}", stdout(&o));
    let o = bt(&["shot", "panicc", "--at", "0", "-o", "x.png"]);
    assert!(!stderr(&o).contains("panic,"), "{}", stderr(&o));
    let o = bt(&["config", "panic"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn panicking(args: &[(&str, &str)]) -> Result<Engine, EngineError> {
    let cart = bt_gallery::find("panic").unwrap();
    let options = EngineOptions {
        args: args
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(cart.build), options)?;
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    Ok(engine)
}

#[test]
fn the_engine_stops_a_cart_that_panics_and_keeps_the_panic() {
    let mut e = panicking(&[("panic_at", "5")]).unwrap();
    assert_eq!(e.advance(10), 5, "five frames, then the panic");
    let p = e.cart_panic().expect("the panic is kept").clone();
    assert_eq!((p.call, p.tick), (CartCall::Update, 5));
    assert!(
        p.message
            .starts_with("asked to panic in update at tick 5 ("),
        "{p}"
    );
    assert!(e.is_paused());
    e.resume();
    assert!(e.is_paused(), "a cart that panicked does not resume");
    assert_eq!(e.advance(10), 0);
    for err in [
        e.step(1).unwrap_err(),
        e.redraw().unwrap_err(),
        e.render_at(1.0, Origin::Current).unwrap_err(),
    ] {
        assert_eq!(err, EngineError::Panicked(p.clone()));
    }
    // A replay from the start builds a new cart, which runs until it panics again.
    e.render_at(4.0 / 60.0, Origin::Start).unwrap();
    assert_eq!(e.cart_panic(), None);
    assert_eq!(e.updates_since_init(), 4);
    let err = e.render_at(1.0, Origin::Start).unwrap_err();
    assert_eq!(err.to_string(), p.to_string());

    let e = panicking(&[("panic_in", "render"), ("panic_at", "0")]).map(|mut e| {
        e.advance(1);
        e
    });
    let e = e.unwrap();
    let p = e.cart_panic().unwrap();
    assert_eq!((p.call, p.tick), (CartCall::Render, 1));
    let err = panicking(&[("panic_in", "init")]).unwrap_err();
    assert!(
        matches!(&err, EngineError::Panicked(p) if p.call == CartCall::Init && p.tick == 0),
        "{err}"
    );
}

#[test]
fn the_host_shows_a_cart_panic_as_the_overlay_notice() {
    let e = panicking(&[("panic_at", "3")]).unwrap();
    let mut host = Host::new(e, KeyMap::default(), "panic");
    for n in 0..10 {
        host.frame(n as f64 * 1000.0 / 60.0);
    }
    let notice = host.engine().overlay().expect("an overlay").notice();
    assert!(
        notice.starts_with("cart panicked in update at tick 3: asked to panic in update at tick 3"),
        "{notice:?}"
    );
    // Drawn on the picture: the notice bar across the top, in the overlay's error colour.
    let error = host.engine().overlay().unwrap().colors().error;
    assert_eq!(host.engine().framebuffer().get(2, 2), Some(error));
}

#[test]
#[should_panic(expected = "cart panicked in update at tick 0: asked to panic in update at tick 0")]
fn a_cart_test_fails_with_the_carts_panic() {
    let mut test = bt_runtime::harness::CartTest::new(bt_gallery::panic::Panicky::default).unwrap();
    test.run(1);
}
