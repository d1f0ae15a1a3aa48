//! A cart that asks for a picture of its frame (`Update::capture_frame`): the host hands over
//! one PNG of the frame the request led to, as F9 would save it, and the game runs the same
//! with or without the request.

use bt::{Cart, Render, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{Host, SaveKind};
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
        if let Some(file) = host.take_capture() {
            assert_eq!(file.kind, SaveKind::Screenshot);
            assert_eq!(file.suggested_name, "camera.png");
            // It is the frame on screen now, as F9 saves it.
            assert_eq!(file.bytes, host.screenshot().unwrap().bytes);
            pictures.push(host.engine().updates_since_init());
        }
        assert!(
            host.take_capture().is_none(),
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
    assert!(without.take_capture().is_none());
}
