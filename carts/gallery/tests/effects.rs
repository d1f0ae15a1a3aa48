//! The post-process stack as a user meets it: `--size output` on `bt shot`, `bt gif` and
//! `bt frames`, golden pictures of the CRT carts, and the output picture of a seek, a step and
//! live play being the same bytes.
//!
//! Golden pictures follow [`bt_test_support::golden`]'s rule (`BT_UPDATE_GOLDEN=1` rewrites
//! them; look at the new PNGs before committing them).

mod support;

use bt_runtime::engine::Origin;
use bt_runtime::{ConstantClock, Engine, EngineOptions};
use bt_test_support::ScratchDir;
use support::{bt, check_golden, stderr, stdout};

fn shot(dir: &ScratchDir, name: &str, args: &[&str]) -> image::RgbaImage {
    let out = dir.join(name);
    let mut full = vec!["shot"];
    full.extend_from_slice(args);
    full.extend(["-o", out.to_str().unwrap()]);
    let o = bt(&full);
    assert!(o.status.success(), "{}", stderr(&o));
    image::open(&out).unwrap().to_rgba8()
}

#[test]
fn golden_pictures_of_the_crt_carts() {
    // The 80x60 logo scaled 3x under its black-and-white tube: phosphor, bloom, curve,
    // scanlines, vignette, flicker and noise at 240x180.
    check_golden(
        &["shot", "crt-logo", "--at", "1", "--size", "output"],
        "crt-logo-1s-output.png",
    );
    // The terminal at tick 280, a tick the PipBoy preset's glitch slips a band of rows: the
    // pixel tier shows at the display's size too; the display tier does not.
    check_golden(
        &["shot", "crt", "--arg", "scene=pipboy", "--at", "4.6666667"],
        "crt-pipboy-280-display.png",
    );
    // The hand-built stack at tick 340, in a burst: the pixel tier's mosaic and glitch bands
    // show at the display's size (the display tier's noise would make an output golden large).
    check_golden(
        &[
            "shot",
            "crt",
            "--arg",
            "scene=enhanced",
            "--at",
            "5.6666667",
        ],
        "crt-enhanced-burst-display.png",
    );
}

#[test]
fn without_display_effects_the_output_picture_is_the_display_scaled() {
    let dir = ScratchDir::new("effects");
    // At 1 s the toggle scene's effects are off (they come on at 2 s).
    let display = shot(&dir, "d.png", &["crt", "--at", "1"]);
    let output = shot(&dir, "o.png", &["crt", "--at", "1", "--size", "output"]);
    assert_eq!((display.width(), display.height()), (320, 240));
    assert_eq!((output.width(), output.height()), (1280, 960));
    for (x, y, px) in output.enumerate_pixels() {
        assert_eq!(px, display.get_pixel(x / 4, y / 4), "at {x},{y}");
    }
    // At 2.5 s the TV preset is on: the output differs from the display scaled, and the
    // display picture is still what the cart drew (no display tier).
    let tv = shot(&dir, "tv.png", &["crt", "--at", "2.5", "--size", "output"]);
    let tv_display = shot(&dir, "tvd.png", &["crt", "--at", "2.5"]);
    let scaled_differs = tv
        .enumerate_pixels()
        .filter(|&(x, y, px)| px != tv_display.get_pixel(x / 4, y / 4))
        .count();
    assert!(
        scaled_differs > 1280 * 960 / 2,
        "{scaled_differs} pixels differ"
    );
    assert_eq!(
        tv.get_pixel(0, 0).0,
        [0, 0, 0, 255],
        "a corner outside the curve"
    );
}

#[test]
fn output_shots_are_the_same_bytes_run_to_run() {
    let dir = ScratchDir::new("effects");
    let args = [
        "crt",
        "--arg",
        "scene=pipboy",
        "--at",
        "4.6833333",
        "--size",
        "output",
    ];
    let a = shot(&dir, "a.png", &args);
    let b = shot(&dir, "b.png", &args);
    assert!(a == b, "two shots of one frame differ");
}

#[test]
fn bad_size_values_are_named() {
    let dir = ScratchDir::new("effects");
    let out = dir.join("x.png");
    let out = out.to_str().unwrap();
    let o = bt(&["shot", "crt", "--at", "1", "--size", "huge", "-o", out]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("'huge'") && stderr(&o).contains("--size"),
        "{}",
        stderr(&o)
    );
    let o = bt(&[
        "shot", "crt", "--at", "1", "--size", "output", "--scale", "2", "-o", out,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--scale 2"), "{}", stderr(&o));
    assert!(!std::path::Path::new(out).exists(), "nothing written");
}

#[test]
fn gif_and_frames_write_the_output_picture_too() {
    let dir = ScratchDir::new("effects");
    let gif = dir.join("logo.gif");
    let o = bt(&[
        "gif",
        "crt-logo",
        "--seconds",
        "0.1",
        "--size",
        "output",
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(&gif).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (240, 180));
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (240, 180));
        frames += 1;
    }
    assert!(frames >= 5, "{frames} frames");

    let folder = dir.join("frames");
    let o = bt(&[
        "frames",
        "crt-logo",
        "--from",
        "0.5",
        "--to",
        "1",
        "--every",
        "0.5",
        "--size",
        "output",
        "-o",
        folder.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("240x180"), "{}", stdout(&o));
    let second = image::open(folder.join("frame_00001.png"))
        .unwrap()
        .to_rgba8();
    let at_one = shot(
        &dir,
        "one.png",
        &["crt-logo", "--at", "1", "--size", "output"],
    );
    assert!(
        second == at_one,
        "frame 1 of the sequence is the shot at 1 s"
    );
}

fn crt(scene: &str) -> Engine {
    let cart = bt_gallery::find("crt").unwrap();
    let options = EngineOptions {
        overlay: false,
        args: vec![("scene".into(), scene.into())],
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.build), options).unwrap()
}

#[test]
fn a_seek_and_live_play_show_the_same_output_picture() {
    // Effects set in update are console state, and animated effects run on the tick: a seek
    // from the start, a seek back to a snapshot and live play give the same bytes.
    for scene in ["toggle", "pipboy"] {
        let mut live = crt(scene);
        live.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
        let mut seek = crt(scene);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut done = 0;
        for target in [1u64, 121, 280, 281, 365, 500] {
            live.advance(target - done);
            done = target;
            seek.render_at_tick(target, Origin::Start, |_, _| {})
                .unwrap();
            assert_eq!(live.render_output(&mut a), seek.render_output(&mut b));
            assert!(a == b, "{scene} at tick {target}");
        }
        // Back to an earlier tick (from a snapshot), then on by steps.
        seek.render_at_tick(270, Origin::Start, |_, _| {}).unwrap();
        seek.step(11).unwrap();
        let mut fresh = crt(scene);
        fresh.render_at_tick(281, Origin::Start, |_, _| {}).unwrap();
        seek.render_output(&mut a);
        fresh.render_output(&mut b);
        assert!(a == b, "{scene}: stepped to 281");
    }
}

#[test]
fn turning_the_stack_off_shows_the_picture_as_drawn() {
    let mut on = crt("enhanced");
    let mut off = crt("enhanced");
    off.set_effects_enabled(false);
    // The enhanced scene's bursts glitch every tick: with the stack off, the framebuffer is
    // what the cart drew.
    let glitched = (100..900).step_by(4).find(|&tick| {
        on.render_at_tick(tick, Origin::Start, |_, _| {}).unwrap();
        off.render_at_tick(tick, Origin::Start, |_, _| {}).unwrap();
        on.framebuffer() != off.framebuffer()
    });
    assert!(glitched.is_some(), "no glitch moved rows in 15 s");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let size = off.render_output(&mut a);
    assert_eq!(size, (1280, 960));
    let fb = off.framebuffer();
    let mut scaled = vec![0u8; 320 * 240 * 4];
    off.palette().write_rgba(fb.pixels(), &mut scaled);
    for (i, px) in a.chunks_exact(4).enumerate() {
        let (x, y) = (i % 1280 / 4, i / 1280 / 4);
        assert_eq!(px, &scaled[(y * 320 + x) * 4..][..4]);
    }
    on.render_output(&mut b);
    assert!(a != b);
}

#[test]
fn settings_can_turn_the_stack_off_for_a_player() {
    // `[display] effects = false` in the player's config (or a cart's) becomes this setting.
    let cart = bt_gallery::find("crt").unwrap();
    let settings = (cart.build)().configure().effects(false);
    let options = EngineOptions {
        overlay: false,
        args: vec![("scene".into(), "pipboy".into())],
        settings: Some(settings),
        ..EngineOptions::default()
    };
    let mut off = Engine::new(Box::new(cart.build), options).unwrap();
    assert!(!off.effects_enabled());
    off.render_at_tick(281, Origin::Start, |_, _| {}).unwrap();
    assert!(
        !off.has_display_tier(),
        "no display tier with the stack off"
    );
    let mut on = crt("pipboy");
    assert!(on.effects_enabled());
    on.render_at_tick(281, Origin::Start, |_, _| {}).unwrap();
    assert!(on.has_display_tier());
}

#[test]
fn the_player_can_put_the_overlay_under_the_effects() {
    // The PipBoy terminal curves its picture (Barrel): past the curve the output is black.
    // The overlay's title bar runs across the display's top-left corner, so over the effects
    // (the default) the output's corner is the bar's colour, and under them it is the
    // curve's black, like the cart's own corner.
    let cart = bt_gallery::find("crt").unwrap();
    let options = EngineOptions {
        overlay: true,
        args: vec![("scene".into(), "pipboy".into())],
        ..EngineOptions::default()
    };
    let mut e = Engine::new(Box::new(cart.build), options).unwrap();
    e.overlay_forced().set_visible(true);
    e.render_at_tick(120, Origin::Start, |_, _| {}).unwrap();
    let (mut over, mut under) = (Vec::new(), Vec::new());
    let (w, _) = e.render_output(&mut over);
    assert!(!e.overlay_under_effects(), "over the effects by default");
    e.set_overlay_under_effects(true);
    e.render_output(&mut under);
    let corner = |rgba: &[u8]| rgba[..3].to_vec();
    assert_ne!(
        corner(&over),
        vec![0, 0, 0],
        "the overlay's bar, undistorted"
    );
    assert_eq!(corner(&under), vec![0, 0, 0], "bent with the picture");
    assert_ne!(over, under);
    // The middle of the screen, between the overlay's bars, is the cart's either way.
    let mid = ((w as usize) * 480 + w as usize / 2) * 4;
    assert_eq!(over[mid..mid + 4], under[mid..mid + 4]);
}

#[test]
fn a_cart_can_ask_for_any_output_size_and_a_linear_filter() {
    let cart = bt_gallery::find("crt").unwrap();
    let settings = (cart.build)()
        .configure()
        .output(1000, 750)
        .upscale(bt::Upscale::Linear);
    let engine = || {
        let options = EngineOptions {
            overlay: false,
            args: vec![("scene".into(), "pipboy".into())],
            settings: Some(settings.clone()),
            ..EngineOptions::default()
        };
        Engine::new(Box::new(cart.build), options).unwrap()
    };
    let (mut a, mut b) = (engine(), engine());
    a.render_at_tick(200, Origin::Start, |_, _| {}).unwrap();
    b.render_at_tick(200, Origin::Start, |_, _| {}).unwrap();
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    assert_eq!(a.output_size(), (1000, 750));
    assert_eq!(a.render_output(&mut pa), (1000, 750));
    b.render_output(&mut pb);
    assert_eq!(pa.len(), 1000 * 750 * 4);
    assert!(pa == pb, "the same bytes for the same tick");
}
