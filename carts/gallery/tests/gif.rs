//! `bt gif`, read back: every delay at least 2 cs and the total the true duration.

use std::process::Command;

use bt_test_support::ScratchDir;

/// `(delays in cs, width, height)` of every frame of the GIF at `path`.
fn frames(path: &std::path::Path) -> (Vec<u16>, u16, u16) {
    let file = std::fs::File::open(path).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file).unwrap();
    let (w, h) = (decoder.width(), decoder.height());
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
    }
    (delays, w, h)
}

#[test]
fn ten_seconds_of_gif_last_ten_seconds_with_no_delay_below_2_cs() {
    let dir = ScratchDir::new("gif");
    for fps in ["60", "50", "30", "144"] {
        let out = dir.join(format!("hello-{fps}.gif"));
        let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
            .args([
                "gif",
                "hello",
                "--fps",
                fps,
                "--from",
                "1",
                "--seconds",
                "10",
                "-o",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (delays, w, h) = frames(&out);
        assert_eq!((w, h), (320, 240));
        assert!(delays.iter().all(|&d| d >= 2), "{fps}: {delays:?}");
        let total: u32 = delays.iter().map(|&d| u32::from(d)).sum();
        assert!(total.abs_diff(1000) <= 1, "{fps}: {total} cs");
    }
}

#[test]
fn a_scaled_gif_is_scaled_and_a_bad_length_is_one_line() {
    let dir = ScratchDir::new("gif-scale");
    let out = dir.join("snake.gif");
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["gif", "snake", "--seconds", "0.5", "--scale", "2", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (delays, w, h) = frames(&out);
    assert_eq!((w, h), (640, 480));
    assert_eq!(delays.len(), 25);
    // The first frame holds the palette indices of the frame `bt shot --at 0` saves.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(&out).unwrap())
        .unwrap();
    let first = decoder.read_next_frame().unwrap().unwrap().buffer.to_vec();
    let cart = bt_gallery::find("snake").unwrap();
    let mut e = bt_runtime::Engine::new(
        Box::new(cart.build),
        bt_runtime::EngineOptions {
            overlay: false,
            ..Default::default()
        },
    )
    .unwrap();
    e.render_at(0.0, bt_runtime::engine::Origin::Start).unwrap();
    let fb = e.framebuffer();
    let want: Vec<u8> = fb
        .pixels()
        .chunks_exact(fb.width() as usize)
        .flat_map(|row| {
            let wide: Vec<u8> = row.iter().flat_map(|&i| [i, i]).collect();
            [wide.clone(), wide].concat()
        })
        .collect();
    assert!(
        first == want,
        "the first frame is the seek's picture, index for index"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["gif", "snake", "--seconds", "900", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a GIF holds 1 to 30000"));
}

/// Every frame of the GIF at `path` as palette indices (frames cover the whole picture).
fn pictures(path: &std::path::Path) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        out.push(frame.buffer.to_vec());
    }
    out
}

#[test]
fn an_overlay_gif_draws_the_overlay_over_the_same_cart_pictures() {
    let dir = ScratchDir::new("gif-overlay");
    let gif = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
            .args(["gif", "timers", "--from", "2", "--seconds", "1"])
            .args(extra)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let plain = gif("plain.gif", &[]);
    let drawn = gif("overlay.gif", &["--overlay", "--fixed-costs"]);
    let again = gif("again.gif", &["--overlay", "--fixed-costs"]);
    assert_eq!(
        std::fs::read(&drawn).unwrap(),
        std::fs::read(&again).unwrap(),
        "--fixed-costs makes the same file every run"
    );
    assert_eq!(
        frames(&plain).0,
        frames(&drawn).0,
        "the same frames and delays"
    );
    let (plain, drawn) = (pictures(&plain), pictures(&drawn));
    assert_eq!(plain.len(), drawn.len());
    let width = 320;
    // The overlay's metrics rows across the top (the bar colour differs from the cart's
    // picture there), and the hint bar along the bottom.
    let row = |picture: &[u8], y: usize| picture[y * width..(y + 1) * width].to_vec();
    for (p, d) in plain.iter().zip(&drawn) {
        assert_ne!(row(p, 20), row(d, 20), "the metrics row is drawn");
        assert_ne!(row(p, 235), row(d, 235), "the hint bar is drawn");
        // Between them the cart's picture is the same: the same updates ran.
        assert_eq!(row(p, 120), row(d, 120));
    }
    // The figures move: the frame count in the overlay changes as the GIF plays.
    assert_ne!(drawn.first(), drawn.last());
}

#[test]
fn every_refusal_of_a_bad_from_names_the_flag_and_its_value() {
    let dir = ScratchDir::new("gif-from");
    let out = dir.join("clip.gif");
    // (the cart and --from with what follows it, the start of the one line said)
    let cases: &[(&[&str], &str)] = &[
        (
            &["hello", "--from", "-1"],
            "error: invalid value '-1' for '--from <FROM>': -1 is not in 0..=10000000000",
        ),
        (
            &["hello", "--from", "abc"],
            "error: invalid value 'abc' for '--from <FROM>': 'abc' is not a number",
        ),
        (
            &["hello", "--from", "1e300"],
            "error: invalid value '1e300' for '--from <FROM>': 1e300 is not in 0..=10000000000",
        ),
        // Past where one seek reaches: the seek's reason, after the flag and the value (once
        // said as `--at`, the flag of `bt shot`, with the overlay on).
        (
            &["hello", "--from", "200000"],
            "bt: error: --from 200000: a seek to update 12000000 would replay 12000000 updates",
        ),
        (
            &["hello", "--from", "200000", "--overlay"],
            "bt: error: --from 200000: a seek to update 11999680 would replay 11999680 updates",
        ),
        // The cart fails on the way to --from.
        (
            &["panic", "--arg", "panic_at=60", "--from", "2"],
            "bt: error: --from 2: cart panicked in update at tick 60",
        ),
    ];
    for &(args, said) in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
            .arg("gif")
            .args(args)
            .args(["--seconds", "1", "-o"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.starts_with(said), "{args:?}: {err}");
        assert!(!err.contains("panicked at"), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} left a file");
    }
    // A cart failing after --from, while the GIF is made, is not blamed on --from.
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["gif", "panic", "--arg", "panic_at=150", "--from", "2"])
        .args(["--seconds", "1", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("bt: error: cart panicked in update at tick 150"),
        "{err}"
    );
    // A clip too long is refused before the seek, naming --seconds.
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["gif", "hello", "--from", "100000", "--seconds", "900", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("bt: error: --seconds 900: 900 s at 60 updates a second makes 45000"),
        "{err}"
    );
}
