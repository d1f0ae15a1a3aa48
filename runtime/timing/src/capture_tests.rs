//! Captures played through the timeline: the capture clock's columns as the summary and
//! latency figures read them.

use bt_engine::clock::capture::Capture;
use bt_overlay::Refresh;

/// A capture whose display times fit no refresh grid (PresentMon 2, a VRR panel): at frame
/// 180 the game leaves independent flip for the compositor.
const VRR_MODE_CHANGE: &str = include_str!("../../tests/captures/presentmon-vrr-mode-change.csv");
const CAPFRAMEX_VSYNC_OFF: &str = include_str!("../../tests/captures/capframex-vsync-off.json");

fn parse(text: &str, selector: Option<&str>) -> Capture {
    Capture::parse(text, "test", selector).unwrap()
}

#[test]
fn display_times_on_no_grid_make_missed_refreshes_na_with_what_to_give_in_one_line() {
    use crate::engine::FrameReport;
    use crate::timeline::{FrameSource, Timeline};
    let c = parse(VRR_MODE_CHANGE, None);
    assert!(c.refresh_fit().unwrap().share < 0.9);
    assert_eq!(c.refresh(), Refresh::NoGrid, "not the game's own rate");
    let said = c.describe();
    assert!(
        said.contains("--refresh-hz HZ") && said.contains("--vrr MIN-MAX"),
        "{said}"
    );
    assert!(
        said.contains(
            "the present mode changed mid-run: Hardware: Independent Flip, then Composed: Flip \
             from frame 180"
        ),
        "{said}"
    );
    let given = c.describe_refresh_given();
    assert!(
        !given.contains("--refresh-hz") && !given.contains("--vrr"),
        "{given}"
    );
    // The summary of its frames counts no missed refresh, from present or display times.
    let mut t = Timeline::new(1000.0 / 60.0);
    t.set_source(FrameSource::Capture {
        name: said,
        not_displayed: c.stream().not_displayed,
        display_ms: c.stream().display_ms.clone(),
        busy_ms: (None, None),
        latency_ms: None,
        click_ms: None,
        columns: Default::default(),
    });
    t.set_refresh((c.refresh(), c.refresh().hz()));
    for (frame, &delta_ms) in c.frames_ms().iter().enumerate() {
        let stats = bt_overlay::FrameStats {
            delta_ms,
            updates: 1,
            ..Default::default()
        };
        let report = FrameReport {
            frame: frame as u64,
            render_alpha: 0.0,
            stats,
        };
        t.record(&report, 0, &[]);
    }
    let s = t.summary();
    assert_eq!((s.missed_refreshes, s.display_missed), (None, None));
    assert_eq!(s.time_below_refresh, None);
    let text = s.to_text();
    let advice: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("--refresh-hz"))
        .collect();
    assert_eq!(
        advice,
        [
            "missed refreshes n/a (display times fit no refresh grid): give a fixed panel's rate \
          with --refresh-hz HZ, or a variable-refresh panel's range with --vrr MIN-MAX"
        ],
        "{text}"
    );
    // CapFrameX numbers its present modes; a change is said with PresentMon's names.
    let mut json: serde_json::Value = serde_json::from_str(CAPFRAMEX_VSYNC_OFF).unwrap();
    let modes: Vec<u32> = (0..24).map(|i| if i < 12 { 3 } else { 4 }).collect();
    json["Runs"][0]["CaptureData"]["PresentMode"] = serde_json::json!(modes);
    let said = parse(&json.to_string(), None).describe();
    assert!(
        said.contains(
            "the present mode changed mid-run: Hardware: Independent Flip, then Composed: Flip \
             from frame 12"
        ),
        "{said}"
    );
    assert!(!parse(CAPFRAMEX_VSYNC_OFF, None)
        .describe()
        .contains("present mode"));
}

#[test]
fn a_frame_never_displayed_has_no_latency_though_the_file_writes_0() {
    use crate::pacing::Latency;
    // PresentMon 1's columns, as FrameView writes them too: a dropped frame's MsUntilDisplayed
    // (and its display change) is 0.
    let csv = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
               AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,\
               MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed\n\
               game.exe,4242,0x000001A2B3C4D5E0,DXGI,1,0,0,Hardware: Independent Flip,0,0.016,16.7,16.7,0.1,1.9,18.0\n\
               game.exe,4242,0x000001A2B3C4D5E0,DXGI,1,0,0,Hardware: Independent Flip,1,0.018,1.2,0.000,0.1,1.9,0.000\n\
               game.exe,4242,0x000001A2B3C4D5E0,DXGI,1,0,0,Hardware: Independent Flip,0,0.033,15.5,16.7,0.1,1.9,20.0\n\
               game.exe,4242,0x000001A2B3C4D5E0,DXGI,1,0,0,Hardware: Independent Flip,1,0.035,1.3,0.000,0.1,1.9,0.000\n\
               game.exe,4242,0x000001A2B3C4D5E0,DXGI,1,0,0,Hardware: Independent Flip,0,0.050,15.4,16.7,0.1,1.9,19.0\n";
    let c = parse(csv, None);
    let (name, latency) = c.stream().latency_ms.clone().unwrap();
    assert_eq!(name, "MsUntilDisplayed");
    assert_eq!(latency.len(), 5);
    assert!(latency[1].is_nan() && latency[3].is_nan(), "{latency:?}");
    assert_eq!([latency[0], latency[2], latency[4]], [18.0, 20.0, 19.0]);
    let figures = Latency::of(&latency).unwrap();
    assert_eq!((figures.frames, figures.p50_ms), (3, 19.0));
    // CapFrameX keeps the same columns as arrays.
    let json = r#"{"Info": {"ProcessName": "game.exe"}, "Runs": [{"CaptureData": {
        "MsBetweenPresents": [16.7, 1.2, 15.5],
        "MsUntilDisplayed": [18.0, 0.0, 20.0],
        "Dropped": [false, true, false]}}]}"#;
    let c = parse(json, None);
    let latency = &c.stream().latency_ms.as_ref().unwrap().1;
    assert_eq!((latency[0], latency[2]), (18.0, 20.0));
    assert!(latency[1].is_nan(), "{latency:?}");
    assert_eq!(c.stream().not_displayed, Some(1));
}
