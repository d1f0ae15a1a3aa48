//! How fast a held rewind draws on every bundled cart: each cart plays 20 seconds with
//! scripted input (arrows, buttons, the pointer), then goes back one update at a time, as F1
//! held at 1x does, to the start. Every step restores a state and renders it; every 64 steps
//! also step a stretch of updates forward from a snapshot. The figure is pictures drawn a
//! second, which must stay above 60 for the rewind to show every update at 1x. Figures are
//! in docs/time-travel.md.
//!
//! `cargo bench -p bt-gallery --bench rewind`

use std::time::Instant;

use bt::{Button, Key, Player};
use bt_runtime::{Engine, EngineOptions};

/// Updates played before rewinding: 20 seconds at 60 a second.
const PLAYED: u64 = 1200;

fn feed(e: &mut Engine, update: u64) {
    let input = e.console_mut().input_mut();
    let phase = update / 40 % 4;
    for (i, b) in [Button::RIGHT, Button::DOWN, Button::LEFT, Button::UP]
        .into_iter()
        .enumerate()
    {
        input.set_buttons(b, Player::ONE, phase == i as u64);
    }
    input.set_buttons(Button::A, Player::ONE, update % 23 < 3);
    let angle = update as f32 / 15.0;
    input.set_pointer_pos(
        80 + (angle.cos() * 40.0) as i32,
        60 + (angle.sin() * 30.0) as i32,
    );
    input.set_buttons(Button::POINTER_A, Player::ONE, update % 50 < 30);
    input.set_key(Key::KeyZ, update % 31 < 4);
}

fn main() {
    // `cargo test --benches` runs this once with `--bench` absent: a quick pass, no figures.
    let quick = !std::env::args().any(|a| a == "--bench");
    let played = if quick { 130 } else { PLAYED };
    println!("{:<14} {:>12} {:>14}", "cart", "pictures/s", "worst ms");
    let mut slowest = f64::INFINITY;
    for entry in bt_gallery::CARTS {
        let options = EngineOptions {
            overlay: false,
            assets: entry.assets.map(std::path::PathBuf::from),
            ..EngineOptions::default()
        };
        let mut e = Engine::new(Box::new(entry.build), options).expect("cart boots");
        for update in 0..played {
            feed(&mut e, update);
            e.step(1).expect("plays");
        }
        let mut worst: f64 = 0.0;
        let started = Instant::now();
        let mut pictures = 0u64;
        while e.updates_since_init() > 0 {
            let one = Instant::now();
            e.go_back(1).expect("goes back");
            worst = worst.max(one.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(e.framebuffer().pixels()[0]);
            pictures += 1;
        }
        let rate = pictures as f64 / started.elapsed().as_secs_f64();
        slowest = slowest.min(rate);
        println!("{:<14} {:>12.0} {:>14.2}", entry.name, rate, worst);
    }
    println!("slowest: {slowest:.0} pictures a second");
}
