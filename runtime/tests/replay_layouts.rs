//! Replay files of every layout this build reads still load and verify: a version 1 file
//! written before touches were recorded plays to the hashes it holds.

use std::path::Path;
use std::sync::Arc;

use bt::{Button, Cart, Player, Render, Update};
use bt_runtime::replay::Replay;
use bt_runtime::{Engine, EngineOptions};

/// A dot where the pointer is, whose colour counts the clicks.
#[derive(Default)]
struct Dot {
    pos: (i32, i32),
    clicks: u8,
}

impl Cart for Dot {
    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_pressed(Button::POINTER_A, Player::ONE) {
            self.clicks = self.clicks.wrapping_add(1);
        }
        self.pos = ctx.pointer_pos();
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        ctx.draw_pixel(self.pos.0, self.pos.1, 8 + self.clicks % 4);
    }
}

fn dot(replay: Option<Arc<Replay>>) -> Engine {
    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(16, 16)),
        overlay: false,
        seed: Some(3),
        replay,
        ..EngineOptions::default()
    };
    Engine::new(
        Box::new(|| Box::new(Dot::default()) as Box<dyn Cart>),
        options,
    )
    .unwrap()
}

#[test]
fn a_layout_1_file_written_before_touches_still_loads_verifies_and_saves_unchanged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/dot-layout-1.btr");
    let text = std::fs::read_to_string(&path).unwrap();
    let replay = Arc::new(Replay::load(&path).unwrap());
    assert_eq!((replay.ticks(), replay.hashes().len()), (39, 3));
    let mut engine = dot(Some(replay.clone()));
    engine.step(replay.ticks()).unwrap();
    assert_eq!(engine.hashes().len(), 3, "every stored hash was compared");
    assert_eq!(replay.first_mismatch(engine.hashes()), None);
    assert_eq!(
        replay.to_json(),
        text.trim_end(),
        "written again in layout 1, unchanged"
    );
}
