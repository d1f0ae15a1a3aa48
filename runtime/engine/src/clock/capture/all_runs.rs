//! `capture:FILE.json#all`: a CapFrameX file's runs played end to end, as one run, the way
//! CapFrameX's aggregation reads a record (every run's frames, one after the other).

use super::{Stream, RUN};

/// The selector that plays every run of a CapFrameX file end to end.
pub(super) const ALL_RUNS: &str = "all";

/// Whether `selector` asks for every run end to end.
pub(super) fn wants_all(selector: Option<&str>) -> bool {
    selector.is_some_and(|s| s.trim().eq_ignore_ascii_case(ALL_RUNS))
}

/// `runs` (at least one), in order, as one stream. A column is kept when every run has it;
/// a count (frames never displayed, tearing, V-Sync off) when every run gives it; a sensor
/// continues from one run to the next, its times moved on by the runs before. The present
/// modes are not joined: a joined run says no change of mode.
pub(super) fn join(runs: Vec<Stream>) -> Stream {
    let count = runs.len();
    if count == 1 {
        return runs.into_iter().next().unwrap_or_default();
    }
    let vectors = |get: fn(&Stream) -> Option<&Vec<f64>>| -> Option<Vec<f64>> {
        let parts: Option<Vec<&Vec<f64>>> = runs.iter().map(get).collect();
        parts.map(|parts| parts.into_iter().flatten().copied().collect())
    };
    let counts = |get: fn(&Stream) -> Option<usize>| -> Option<usize> {
        runs.iter().map(get).sum::<Option<usize>>()
    };
    let latency_column = runs[0].latency_ms.as_ref().map(|(name, _)| name.clone());
    let latency_ms = latency_column.and_then(|name| {
        let parts: Option<Vec<&Vec<f64>>> = runs
            .iter()
            .map(|r| {
                r.latency_ms
                    .as_ref()
                    .filter(|(n, _)| *n == name)
                    .map(|(_, v)| v)
            })
            .collect();
        parts.map(|parts| (name, parts.into_iter().flatten().copied().collect()))
    });
    let mut sensors = Vec::new();
    let mut offset_s = 0.0;
    for run in &runs {
        super::sensors::append(&mut sensors, run.sensors.clone(), offset_s);
        offset_s += run.frames_ms.iter().sum::<f64>() / 1000.0;
    }
    Stream {
        process: runs[0].process.clone(),
        process_id: runs[0].process_id.clone(),
        swap_chain: format!("{RUN}1 to {count}, end to end"),
        frames_ms: runs
            .iter()
            .flat_map(|r| r.frames_ms.iter().copied())
            .collect(),
        display_ms: vectors(|r| r.display_ms.as_ref()),
        not_displayed: counts(|r| r.not_displayed),
        tearing_frames: counts(|r| r.tearing_frames),
        sync_off_frames: counts(|r| r.sync_off_frames),
        cpu_busy_ms: vectors(|r| r.cpu_busy_ms.as_ref()),
        gpu_busy_ms: vectors(|r| r.gpu_busy_ms.as_ref()),
        latency_ms,
        click_ms: vectors(|r| r.click_ms.as_ref()),
        sensors,
        ..Stream::default()
    }
}

#[cfg(test)]
mod tests {
    use crate::clock::capture::Capture;

    #[test]
    fn all_plays_every_run_end_to_end_keeping_the_columns_every_run_has() {
        let runs = r#"{"Info": {"ProcessName": "game.exe"}, "Runs": [
            {"CaptureData": {"MsBetweenPresents": [16.7, 16.7],
                             "MsBetweenDisplayChange": [16.7, 16.7],
                             "MsUntilDisplayed": [5.0, 6.0], "Dropped": [false, true]}},
            {"CaptureData": {"MsBetweenPresents": [33.3, 33.3, 50.0],
                             "MsUntilDisplayed": [7.0, 8.0, 9.0],
                             "Dropped": [false, false, false]}}]}"#;
        let c = Capture::parse(runs, "runs.json", Some("ALL")).unwrap();
        assert_eq!(c.frames_ms(), [16.7, 16.7, 33.3, 33.3, 50.0]);
        let s = c.stream();
        assert_eq!(s.name(), "game.exe run 1 to 2, end to end");
        // Only run 1 has display times: none are kept. Both say what was never displayed.
        assert_eq!(s.display_ms, None);
        assert_eq!(s.not_displayed, Some(1));
        let (column, latency) = s.latency_ms.clone().unwrap();
        assert_eq!(column, "MsUntilDisplayed");
        assert!(latency[1].is_nan(), "a dropped frame has no latency");
        assert_eq!(latency[2..], [7.0, 8.0, 9.0]);
        assert!(c.describe().contains("(5 frames)"), "{}", c.describe());
        assert!(!c.describe().contains("also holds"), "{}", c.describe());
        // A bad value in any run stops the whole: every run is played.
        let bad = runs.replace("50.0", "\"x\"");
        let e = Capture::parse(&bad, "runs.json", Some("all")).unwrap_err();
        assert!(
            e.to_string()
                .contains("Runs[1].CaptureData.MsBetweenPresents"),
            "{e}"
        );
    }
}
