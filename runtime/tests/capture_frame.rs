//! A cart that asks for a picture of its frame (`Update::capture_frame`): the host hands over
//! one PNG of the frame the request led to, as F9 would save it, and the game runs the same
//! with or without the request.

use bt::{CaptureSize, Cart, Effect, Render, Settings, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Destination, FileKind, Host};
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// Draws its update count as a colour and, when `capture` is set, asks for pictures in update
/// 10 (twice in the same update) and update 20.
#[derive(Default)]
struct Camera {
    updates: u64,
    capture: bool,
}

impl Cart for Camera {
    fn update(&mut self, ctx: &mut Update<'_>) {
        self.updates += 1;
        if self.capture && self.updates == 10 {
            ctx.capture_frame();
            ctx.capture_frame();
        }
        if self.capture && self.updates == 20 {
            ctx.capture_frame();
        }
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear((self.updates % 15 + 1) as u8);
        ctx.draw_pixel(self.updates as i32, 3, 0);
    }
}

fn host(capture: bool) -> Host {
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let make = move || -> Box<dyn Cart> {
        Box::new(Camera {
            updates: 0,
            capture,
        })
    };
    let mut engine = Engine::new(Box::new(make), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    Host::new(engine, KeyMap::default(), "camera")
}

#[test]
fn the_host_hands_over_one_picture_of_the_frame_each_request_led_to() {
    let mut host = host(true);
    let mut pictures = Vec::new();
    for frame in 0..30 {
        host.frame(f64::from(frame) * 1000.0 / 60.0);
        let files = host.take_outbox();
        assert!(files.len() <= 1, "{files:?}");
        if let Some(file) = files.first() {
            assert_eq!(file.kind, FileKind::Screenshot);
            assert_eq!(file.destination, Destination::Keep("camera.png".into()));
            // It is the frame on screen now, as F9 saves it.
            assert_eq!(file.bytes, host.screenshot().unwrap());
            pictures.push(host.engine().updates_since_init());
        }
        assert!(
            host.take_outbox().is_empty(),
            "each picture is handed over once"
        );
    }
    assert_eq!(
        pictures,
        [10, 20],
        "two requests in one update make one picture"
    );
}

#[test]
fn asking_for_pictures_changes_nothing_the_game_does() {
    let (mut with, mut without) = (host(true), host(false));
    for frame in 0..30 {
        let now = f64::from(frame) * 1000.0 / 60.0;
        with.frame(now);
        without.frame(now);
        assert_eq!(
            with.engine().framebuffer().pixels(),
            without.engine().framebuffer().pixels(),
            "frame {frame}"
        );
    }
    assert_eq!(with.engine().ticks(), without.engine().ticks());
    assert!(without.take_outbox().is_empty());
}

/// Draws a column of every colour it uses at a 6 × 4 display with output scale 3 and
/// scanlines (a display-tier effect), and asks for one picture of each size in update 5.
struct Sized;

impl Cart for Sized {
    fn configure(&self) -> Settings {
        Settings::default().display(6, 4).output_scale(3)
    }
    fn update(&mut self, ctx: &mut Update<'_>) {
        ctx.add_effect(Effect::Scanlines {
            amount: 0.8,
            strength: -8.0,
            density: 0.0,
        });
        if ctx.ticks() == 5 {
            ctx.capture_frame_sized(CaptureSize::Display);
            ctx.capture_frame_sized(CaptureSize::Output);
            ctx.capture_frame_sized(CaptureSize::Display);
        }
    }
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.draw_pixel(2, 1, 7);
    }
}

/// The size and RGBA pixels of a PNG.
fn decode(bytes: &[u8]) -> ((u32, u32), Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    ((info.width, info.height), rgba)
}

#[test]
fn capture_frame_sized_gives_the_display_through_the_palette_and_the_output_with_its_effects() {
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(|| Box::new(Sized) as Box<dyn Cart>), options).unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    let mut host = Host::new(engine, KeyMap::default(), "sized");
    let mut pictures = Vec::new();
    for frame in 0..10 {
        host.frame(f64::from(frame) * 1000.0 / 60.0);
        let before = pictures.len();
        for file in host.take_outbox() {
            pictures.push(decode(&file.bytes));
        }
        if pictures.len() > before {
            // Each is the frame on screen now.
            let engine = host.engine_mut();
            let (w, h) = (engine.framebuffer().width(), engine.framebuffer().height());
            let mut display = vec![0; (w * h * 4) as usize];
            engine
                .palette()
                .write_rgba(engine.framebuffer().pixels(), &mut display);
            let mut output = Vec::new();
            let size = engine.render_output(&mut output);
            assert_eq!(
                pictures[0],
                ((w, h), display),
                "display: the indices through the palette"
            );
            assert_eq!(pictures[1], (size, output), "output: with the display tier");
        }
    }
    assert_eq!(pictures.len(), 2, "one picture of each size asked for");
    assert_eq!(pictures[0].0, (6, 4));
    assert_eq!(
        pictures[1].0,
        (18, 12),
        "the display times the output scale"
    );
    // The scanlines darken the output away from each row's middle: not the display scaled.
    let top_left = &pictures[1].1[..4];
    let middle = &pictures[1].1[(18 * 4)..(18 * 4 + 4)];
    assert_ne!(
        top_left, middle,
        "the display tier's effect is in the output picture"
    );
}

#[test]
fn capture_frame_without_a_size_stays_the_display_picture_f9_takes() {
    let mut host = host(true);
    for frame in 0..12 {
        host.frame(f64::from(frame) * 1000.0 / 60.0);
        if let Some(file) = host.take_outbox().first() {
            let ((w, h), _) = decode(&file.bytes);
            let fb = host.engine().framebuffer();
            assert_eq!((w, h), (fb.width(), fb.height()));
            return;
        }
    }
    panic!("no picture was handed over");
}
