//! The overlay and the host's notices are shown in colours of their own: a palette effect of
//! the cart (a flash to one colour) leaves them readable, in every picture the host makes.

use std::time::Duration;

use bt::{Cart, Color32, Render, Settings, Update};
use bt_runtime::{ConstantClock, Engine, EngineOptions};

/// Flashes its whole palette white from the first update on, for a long time, and draws
/// stripes of every colour it has.
struct Flash {
    flash: bool,
}

impl Cart for Flash {
    fn configure(&self) -> Settings {
        Settings::default().display(160, 120).overlay_visible(true)
    }
    fn update(&mut self, ctx: &mut Update<'_>) {
        if self.flash && ctx.ticks() == 0 {
            ctx.flash_palette(Color32::hex(0xffffff), Duration::from_secs(60));
        }
    }
    fn render(&self, ctx: &mut Render<'_>) {
        for x in 0..160 {
            ctx.draw_line((x, 0), (x, 119), (x % 15 + 1) as u8);
        }
    }
}

fn engine(flash: bool) -> Engine {
    let options = EngineOptions {
        seed: Some(1),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(
        Box::new(move || Box::new(Flash { flash }) as Box<dyn Cart>),
        options,
    )
    .unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    engine.advance(10);
    engine
}

/// The RGBA of display pixel `i` in `rgba`, a picture `scale` times the display's size.
fn at(rgba: &[u8], width: usize, scale: usize, i: usize) -> [u8; 4] {
    let (x, y) = (i % width * scale, i / width * scale);
    let start = (y * width * scale + x) * 4;
    rgba[start..start + 4].try_into().unwrap()
}

/// The display pixels the overlay drew in `text` and in `bar` colour on its top bar.
fn text_and_bar(engine: &Engine) -> (Vec<usize>, Vec<usize>) {
    let colors = *engine.overlay().unwrap().colors();
    let layer = engine.overlay_layer().expect("the overlay drew");
    let top_bar = 0..160 * 13;
    let of = |index: u8| -> Vec<usize> {
        top_bar
            .clone()
            .filter(|&i| layer.pixels[i] == index)
            .collect()
    };
    (of(colors.text), of(colors.bar))
}

#[test]
fn the_overlay_stays_readable_when_the_carts_palette_flashes_to_one_colour() {
    let mut engine = engine(true);
    // The cart's pixels all show white.
    let mut display = Vec::new();
    engine.display_rgba(&mut display);
    for x in 0..160 {
        assert_eq!(at(&display, 160, 1, 70 * 160 + x), [255, 255, 255, 255]);
    }
    let (text, bar) = text_and_bar(&engine);
    assert!(!text.is_empty() && !bar.is_empty());
    let mut output = Vec::new();
    let (ow, _) = engine.render_output(&mut output);
    let png = image::load_from_memory(&engine.display_png(2).unwrap())
        .unwrap()
        .to_rgba8();
    for (picture, width, scale) in [
        (&display, 160, 1),
        (&output, 160, (ow / 160) as usize),
        (&png.into_raw(), 160, 2),
    ] {
        let text_colour = at(picture, width, scale, text[0]);
        let bar_colour = at(picture, width, scale, bar[0]);
        assert_ne!(
            text_colour, bar_colour,
            "the overlay's text against its bar"
        );
        assert_ne!(bar_colour, [255, 255, 255, 255], "the bar is not flashed");
    }
    // A notice of the host's reads the same way.
    engine.overlay_mut().unwrap().set_notice("saved");
    engine.draw_overlay();
    engine.display_rgba(&mut display);
    let colors = *engine.overlay().unwrap().colors();
    let layer = engine.overlay_layer().unwrap();
    let notice = |index: u8| (0..160 * 13).find(|&i| layer.pixels[i] == index).unwrap();
    assert_ne!(
        at(&display, 160, 1, notice(colors.text)),
        at(&display, 160, 1, notice(colors.error))
    );
}

#[test]
fn without_a_palette_effect_the_overlay_looks_as_the_palette_shows_its_slots() {
    let mut engine = engine(false);
    let mut display = Vec::new();
    engine.display_rgba(&mut display);
    let mut plain = vec![0; display.len()];
    engine
        .palette()
        .write_rgba(engine.framebuffer().pixels(), &mut plain);
    assert_eq!(display, plain);
    let mut output = Vec::new();
    engine.render_output(&mut output);
    let scaled =
        bt_runtime::export::png::to_rgba(engine.framebuffer(), engine.palette(), 2).unwrap();
    assert_eq!(output, scaled);
}

/// `Flash` with the overlay's palette grid on.
struct Grid;

impl Cart for Grid {
    fn configure(&self) -> Settings {
        Flash { flash: true }.configure().overlay_palette_grid(true)
    }
    fn update(&mut self, ctx: &mut Update<'_>) {
        Flash { flash: true }.update(ctx);
    }
    fn render(&self, ctx: &mut Render<'_>) {
        Flash { flash: true }.render(ctx);
    }
}

#[test]
fn the_palette_grids_swatches_show_the_carts_palette_as_the_frame_shows_it() {
    let mut engine = Engine::new(
        Box::new(|| Box::new(Grid) as Box<dyn Cart>),
        EngineOptions::default(),
    )
    .unwrap();
    engine.set_clock(Box::new(ConstantClock::new(1000.0 / 60.0).unwrap()));
    engine.advance(10);
    let swatches = engine
        .overlay()
        .unwrap()
        .palette_swatches()
        .expect("a grid");
    let layer = engine.overlay_layer().unwrap();
    let fb = engine.framebuffer();
    let mut display = Vec::new();
    engine.display_rgba(&mut display);
    // The second swatch (slot 1) is flashed white like the cart's pixels; slot 0's shows its
    // own colour, as the grid draws it.
    let (x, y) = (swatches.x + 8, swatches.y);
    let i = (y * 160 + x) as usize;
    assert_eq!((fb.pixels()[i], layer.pixels[i]), (1, 0));
    assert_eq!(at(&display, 160, 1, i), [255, 255, 255, 255]);
    let first = (swatches.y * 160 + swatches.x) as usize;
    assert_eq!(fb.pixels()[first], 0);
}

#[test]
fn what_the_host_draws_over_the_overlay_afterwards_is_not_painted_over() {
    let mut engine = engine(true);
    let (text, _) = text_and_bar(&engine);
    let i = text[0];
    let (x, y) = ((i % 160) as i32, (i / 160) as i32);
    // The host draws over one of the overlay's text pixels, as the pause menu does.
    engine.console_mut().framebuffer_mut().draw_pixel(x, y, 3);
    let mut display = Vec::new();
    engine.display_rgba(&mut display);
    assert_eq!(
        at(&display, 160, 1, i),
        [255, 255, 255, 255],
        "the frame's (flashed) colour"
    );
}
