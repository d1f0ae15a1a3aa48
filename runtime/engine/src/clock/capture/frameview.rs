//! FrameView's sensor columns: a FrameView log (a PresentMon CSV with FrameView's extra
//! columns) gives the GPU's clock, memory clock, utilisation and temperature
//! (`GPU0Clk(MHz)`, `GPU0MemClk(MHz)`, `GPU0Util(%)`, `GPU0Temp(C)`) and its power (columns
//! naming `Pwr(W)`, as `NV Pwr(W) (API)`) on every row, read here as sensors of the stream
//! played, at each row's `TimeInSeconds` from the stream's first row. A value that is no
//! number (FrameView's `NA`) is no reading. Only the rows where a value changes are kept, with
//! the row before each change, so a reading repeated frame after frame costs nothing and a
//! step stays a step.

use super::sensors::unit_of;
use super::{split_csv, Sensor, Stream};

/// What a FrameView column measures, by its name: (the sensor's kind) or `None` for a column
/// that is no sensor of the GPU.
fn kind_of(column: &str) -> Option<&'static str> {
    let c = column.trim().to_ascii_lowercase();
    if c.contains("pwr(w)") {
        return Some("Power");
    }
    let rest = c.strip_prefix("gpu")?;
    let rest = rest.trim_start_matches(|ch: char| ch.is_ascii_digit());
    if rest.len() == c.len() - 3 {
        // No GPU number: not one of FrameView's per-GPU columns.
        return None;
    }
    match rest {
        "clk(mhz)" | "memclk(mhz)" => Some("Clock"),
        "util(%)" => Some("Load"),
        "temp(c)" => Some("Temperature"),
        _ => None,
    }
}

/// The sensors of `stream` in the comma CSV `text` (see the module); none when its header
/// names no FrameView sensor column or no `TimeInSeconds`.
pub(super) fn sensors(text: &str, stream: &Stream) -> Vec<Sensor> {
    let mut lines = text.lines();
    let Some(header) = lines.find(|l| l.to_ascii_lowercase().contains("msbetweenpresents")) else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    split_csv(header, b',', &mut fields);
    let at = |name: &str| fields.iter().position(|f| f.eq_ignore_ascii_case(name));
    let Some(time) = at("TimeInSeconds") else {
        return Vec::new();
    };
    let (process, process_id, swap_chain) = (
        at("Application").or_else(|| at("ProcessName")),
        at("ProcessID"),
        at("SwapChainAddress"),
    );
    let columns: Vec<(usize, &'static str)> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| kind_of(f).map(|k| (i, k)))
        .collect();
    if columns.is_empty() {
        return Vec::new();
    }
    let mut sensors: Vec<Sensor> = columns
        .iter()
        .map(|&(i, kind)| Sensor {
            name: fields[i].to_string(),
            kind: kind.to_string(),
            unit: unit_of(kind),
            seconds: Vec::new(),
            values: Vec::new(),
        })
        .collect();
    // The last row read of each sensor, kept only when the next one differs.
    let mut last: Vec<Option<(f64, f64)>> = vec![None; columns.len()];
    let mut start_s = None;
    let mut row = Vec::new();
    for line in lines {
        split_csv(line, b',', &mut row);
        let text_of = |at: Option<usize>| at.and_then(|i| row.get(i)).map_or("", |f| *f);
        if text_of(process) != stream.process
            || text_of(process_id) != stream.process_id
            || text_of(swap_chain) != stream.swap_chain
        {
            continue;
        }
        let Some(t) = row.get(time).and_then(|f| f.parse::<f64>().ok()) else {
            continue;
        };
        let at_s = t - *start_s.get_or_insert(t);
        for (k, &(i, _)) in columns.iter().enumerate() {
            let Some(value) = row
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .filter(|v| v.is_finite())
            else {
                continue;
            };
            let sensor = &mut sensors[k];
            match last[k] {
                None => {
                    sensor.seconds.push(at_s);
                    sensor.values.push(value);
                }
                Some((prev_s, prev)) if prev != value => {
                    if sensor.seconds.last() != Some(&prev_s) {
                        sensor.seconds.push(prev_s);
                        sensor.values.push(prev);
                    }
                    sensor.seconds.push(at_s);
                    sensor.values.push(value);
                }
                Some(_) => {}
            }
            last[k] = Some((at_s, value));
        }
    }
    // Each sensor ends at its last reading.
    for (sensor, last) in sensors.iter_mut().zip(last) {
        if let Some((s, v)) = last {
            if sensor.seconds.last() != Some(&s) {
                sensor.seconds.push(s);
                sensor.values.push(v);
            }
        }
    }
    sensors.retain(|s| !s.values.is_empty());
    sensors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::capture::Capture;

    #[test]
    fn frameview_columns_are_told_by_name() {
        assert_eq!(kind_of("GPU0Clk(MHz)"), Some("Clock"));
        assert_eq!(kind_of("GPU1MemClk(MHz)"), Some("Clock"));
        assert_eq!(kind_of("GPU0Util(%)"), Some("Load"));
        assert_eq!(kind_of("GPU0Temp(C)"), Some("Temperature"));
        assert_eq!(kind_of("NV Pwr(W) (API)"), Some("Power"));
        assert_eq!(kind_of("GPU"), None);
        assert_eq!(kind_of("GPUBusy"), None);
        assert_eq!(kind_of("CPUClk(MHz)"), None);
    }

    #[test]
    fn a_frameview_logs_gpu_columns_are_the_played_streams_sensors_kept_where_they_change() {
        let csv = "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents,\
                   GPU0Clk(MHz),GPU0Util(%),GPU0Temp(C),NV Pwr(W) (API)\n\
                   game.exe,7,0x1,10.000,16.7,1900,95,60,NA\n\
                   dwm.exe,9,0x2,10.010,16.7,1200,10,40,100\n\
                   game.exe,7,0x1,10.017,16.7,1900,95,60,220\n\
                   game.exe,7,0x1,10.033,16.7,1900,96,60,220\n\
                   game.exe,7,0x1,10.050,16.7,1950,96,61,225\n";
        let c = Capture::parse(csv, "fv.csv", None).unwrap();
        let sensors = &c.stream().sensors;
        let names: Vec<String> = sensors.iter().map(|s| s.label()).collect();
        assert_eq!(
            names,
            [
                "GPU0Clk(MHz)",
                "GPU0Util(%)",
                "GPU0Temp(C)",
                "NV Pwr(W) (API)"
            ]
        );
        let units: Vec<&str> = sensors.iter().map(|s| s.unit).collect();
        assert_eq!(units, ["MHz", "%", "°C", "W"]);
        // The clock: 1900 from 0 s, held to 0.033 s, 1950 at 0.05 s; the compositor's 1200
        // is not the game's.
        let clock = &sensors[0];
        assert_eq!(clock.values, [1900.0, 1900.0, 1950.0]);
        let s: Vec<f64> = clock.seconds.iter().map(|s| (s * 1000.0).round()).collect();
        assert_eq!(s, [0.0, 33.0, 50.0]);
        // Power: NA is no reading, so it starts at the second row.
        assert_eq!(sensors[3].values, [220.0, 220.0, 225.0]);
    }
}
