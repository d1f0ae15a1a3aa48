//! The window's GIF capture allocates nothing per frame: the rolling buffer (`bt run
//! --gif-buffer`) takes each shown frame into a slot made up front, however often the ring
//! wraps, and an F10 recording passes a pool of pictures made when it starts to its encoder.

use std::sync::Arc;

use bt::host::Framebuffer;
use bt::Palette;
use bt_runtime::host::gif_recorder::GifCapture;
use bt_test_support::{CountingAlloc, ScratchDir};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// A capture of a 320x240 display saving into `dir`'s `captures`, with the buffer or not.
fn capture(dir: &ScratchDir, buffer: bool) -> GifCapture {
    GifCapture::new(
        &dir.join("captures"),
        "cart",
        (320, 240),
        buffer,
        Arc::new(|_| {}),
    )
}

/// Sixteen 320x240 pictures, each filled with its own colour.
fn pictures() -> Vec<Framebuffer> {
    (0..16u8)
        .map(|i| {
            let mut fb = Framebuffer::new(320, 240);
            fb.clear(i);
            fb
        })
        .collect()
}

/// The delays of the one GIF saved into `dir`'s `captures`, after checking its size.
fn saved_delays(dir: &ScratchDir) -> Vec<u16> {
    let saved: Vec<_> = std::fs::read_dir(dir.join("captures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(&saved[0]).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (320, 240));
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert!(frame.delay >= 2);
        delays.push(frame.delay);
    }
    delays
}

#[test]
fn the_gif_buffer_allocates_nothing_per_frame() {
    let dir = ScratchDir::new("gif-buffer-alloc");
    let mut capture = capture(&dir, true);
    let frames = pictures();
    let mut palette = Palette::pico8();
    let mut t = 0.0;
    let mut show = |capture: &mut GifCapture, n: u32, palette: &mut Palette| {
        for i in 0..n {
            t += 1000.0 / 60.0;
            if i % 100 == 0 {
                // A palette effect between frames changes the colours shown.
                palette.swap(1, 2).unwrap();
            }
            capture.shown(t, &frames[(i % 16) as usize], palette);
        }
    };
    // A first stretch, so every slot of the ring has been filled once.
    show(&mut capture, 1200, &mut palette);
    assert!(
        GLOBAL.allocations_during(|| drop(vec![0u8; 16])) > 0,
        "the counting allocator is installed"
    );
    // 40 s at 60 frames a second: the 10-second ring wraps four times.
    let made = GLOBAL.allocations_during(|| show(&mut capture, 2400, &mut palette));
    assert_eq!(
        made, 0,
        "allocations while 2,400 frames went into the buffer"
    );
    // Saving copies the buffer once, off the window's frames, and the file holds 10 s.
    capture.save_buffer(t).unwrap();
    capture.finish(t);
    let total: u32 = saved_delays(&dir).into_iter().map(u32::from).sum();
    assert_eq!(total, 1000);
}

#[test]
fn an_f10_recording_allocates_nothing_per_frame_and_keeps_its_length() {
    let dir = ScratchDir::new("gif-recording-alloc");
    let mut capture = capture(&dir, false);
    let frames = pictures();
    let palette = Palette::pico8();
    let mut t = 0.0;
    capture.toggle(t, &frames[0], &palette);
    let mut show = |capture: &mut GifCapture, n: u32| {
        for i in 0..n {
            t += 1000.0 / 60.0;
            capture.shown(t, &frames[(i % 16) as usize], &palette);
        }
    };
    // The pool's pictures have all been filled once.
    show(&mut capture, 120);
    let made = GLOBAL.allocations_during(|| show(&mut capture, 2400));
    assert_eq!(made, 0, "allocations while recording 2,400 frames");
    let end = 2520.0 * 1000.0 / 60.0;
    capture.toggle(end, &frames[0], &palette);
    capture.finish(end);
    let total: u32 = saved_delays(&dir).into_iter().map(u32::from).sum();
    // 42 s recorded, whatever frames the encoder had to leave out.
    assert!(total.abs_diff(4200) <= 1, "{total}");
}
