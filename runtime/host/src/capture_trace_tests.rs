//! A window playing a capture traces what `bt trace` traces of it.

use std::sync::Arc;

use bt::{Cart, Render, Update};

use crate::clock::capture::Capture;
use crate::keymap::KeyMap;
use crate::timing::timeline::{FrameSource, Timeline};
use crate::Host;
use crate::{Engine, EngineOptions};

struct Blank;
impl Cart for Blank {
    fn update(&mut self, _ctx: &mut Update<'_>) {}
    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

/// A PresentMon 2 capture with display, busy and latency columns.
const CSV: &str = "Application,ProcessID,SwapChainAddress,MsBetweenPresents,\
                   MsBetweenDisplayChange,MsUntilDisplayed,MsCPUBusy,MsGPUBusy,\
                   MsClickToPhotonLatency\n\
                   game.exe,5120,0x1,16.7,16.7,8.0,5.0,12.0,NA\n\
                   game.exe,5120,0x1,16.6,16.6,8.2,5.1,12.2,30.0\n\
                   game.exe,5120,0x1,16.8,16.8,8.1,5.2,12.1,NA\n";

/// The names of the counter tracks of a Chrome trace, and its title.
fn tracks(json: &[u8]) -> (Vec<String>, String) {
    let trace: serde_json::Value = serde_json::from_slice(json).unwrap();
    let mut names: Vec<String> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "C")
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names.dedup();
    (names, trace["otherData"]["title"].as_str().unwrap().into())
}

#[test]
fn a_window_playing_a_capture_traces_the_tracks_bt_trace_gives_it() {
    let capture = Arc::new(Capture::parse(CSV, "game.csv", None).unwrap());
    let options = EngineOptions {
        overlay: false,
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(Box::new(|| Box::new(Blank) as Box<dyn Cart>), options)
        .expect("a blank cart boots");
    engine.set_clock(Box::new(capture.clock(false)));
    let mut host = Host::new(engine, KeyMap::default(), "hello");
    host.record_whole_run_of_capture(&capture);
    for f in 0..3 {
        host.frame(f64::from(f) * 16.7);
    }
    let mut window = Vec::new();
    let run = host.whole_run().unwrap();
    run.write_chrome_trace(&mut window, host.whole_run_title())
        .unwrap();

    // What bt trace writes of the same frames.
    let mut t = Timeline::new(run.budget_ms());
    t.set_source(FrameSource::of_capture(&capture, capture.describe()));
    for f in run.frames() {
        let report = crate::engine::FrameReport {
            frame: f.frame,
            render_alpha: f.render_alpha,
            stats: f.stats(),
        };
        t.record(&report, 0, &[]);
    }
    let mut traced = Vec::new();
    let title = crate::timing::captured::captured_title(&capture.stream().name(), "hello");
    t.write_chrome_trace(&mut traced, &title).unwrap();

    let (window_tracks, window_title) = tracks(&window);
    assert_eq!((window_tracks.clone(), window_title), tracks(&traced));
    for name in [
        "displayed interval (ms)",
        "CPU busy (ms)",
        "GPU busy (ms)",
        "display latency (ms)",
        "click to photon (ms)",
    ] {
        assert!(
            window_tracks.iter().any(|t| t == name),
            "{name}: {window_tracks:?}"
        );
    }
    assert!(host.whole_run_title().starts_with("game.exe (pid 5120)"));
}
