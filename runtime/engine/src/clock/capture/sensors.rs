//! Sensor readings a capture holds beside its frames: CapFrameX's `SensorData2` (each run's
//! sensors, read once a polling period, with the seconds each reading was taken at).
//!
//! `SensorData2` is an object of sensors by key, each `{"Name", "Type", "Values"}`, beside
//! `MeasureTime` (when each reading was taken, in s from the capture's start) and
//! `BetweenMeasureTime` (the time since the reading before). A sensor's unit follows from its
//! type, as CapFrameX's sensor report names them: `Load` in %, `Clock` in MHz, `Temperature` in
//! °C, `Power` in W, and so on.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// One sensor's readings.
#[derive(Debug, Clone, PartialEq)]
pub struct Sensor {
    /// The sensor's name as the file gives it (`GPU Core`, `CPU Total`).
    pub name: String,
    /// What it measures, as the file names it (`Load`, `Clock`, `Temperature`, `Power`).
    pub kind: String,
    /// The unit of its values (`%`, `MHz`, `°C`, `W`), from its kind; empty when unknown.
    pub unit: &'static str,
    /// When each value was read, in s from the capture's start.
    pub seconds: Vec<f64>,
    /// The values, as many as `seconds` (NaN where the file has no number).
    pub values: Vec<f64>,
}

impl Sensor {
    /// How a chart names it: `GPU Core Load`, or the name alone when it already ends with its
    /// kind (`GPU Power`, not `GPU Power Power`) or names its unit (FrameView's
    /// `GPU0Clk(MHz)`).
    pub fn label(&self) -> String {
        let name = self.name.trim();
        if name.is_empty() {
            self.kind.clone()
        } else if name
            .to_ascii_lowercase()
            .ends_with(&self.kind.trim().to_ascii_lowercase())
            || name.contains('(')
        {
            name.to_string()
        } else {
            format!("{name} {}", self.kind)
        }
    }
}

/// The unit of a sensor of `kind`, as CapFrameX's sensor report gives them (its
/// `SensorReport` notes); empty for a kind it does not name.
pub fn unit_of(kind: &str) -> &'static str {
    const UNITS: [(&str, &str); 21] = [
        ("Voltage", "V"),
        ("Current", "A"),
        ("Power", "W"),
        ("Clock", "MHz"),
        ("Temperature", "°C"),
        ("Load", "%"),
        ("Frequency", "Hz"),
        ("Fan", "RPM"),
        ("Flow", "L/h"),
        ("Control", "%"),
        ("Level", "%"),
        ("Factor", "1"),
        ("Data", "GB"),
        ("SmallData", "MB"),
        ("Throughput", "B/s"),
        ("TimeSpan", "s"),
        ("Timing", "ns"),
        ("Energy", "mWh"),
        ("Noise", "dBA"),
        ("Conductivity", "µS/cm"),
        ("Humidity", "%"),
    ];
    UNITS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(kind.trim()))
        .map_or("", |(_, unit)| unit)
}

/// A run's `SensorData2`, as sensors.
#[derive(Debug, Default)]
pub(super) struct SensorData2(pub Vec<Sensor>);

/// The key of the readings' times in `SensorData2`.
const MEASURE_TIME: &str = "MeasureTime";
/// The key of the times between readings: not a sensor, and not needed beside the times.
const BETWEEN_MEASURE_TIME: &str = "BetweenMeasureTime";

/// One entry of `SensorData2`.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Entry {
    #[serde(rename = "Name")]
    name: Option<String>,
    #[serde(rename = "Type")]
    kind: Option<String>,
    #[serde(rename = "Values")]
    values: Values,
}

/// A sensor's values: numbers, NaN for anything else in their place.
#[derive(Default)]
struct Values(Vec<f64>);

/// One value: a number, else NaN (the value skipped).
struct Value(f64);

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sensor reading")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
                Ok(Value(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
                Ok(Value(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
                Ok(Value(v as f64))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
                Ok(Value(f64::NAN))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Value, E> {
                Ok(Value(f64::NAN))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Value, E> {
                Ok(Value(f64::NAN))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Value(f64::NAN))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Value(f64::NAN))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Values {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Values;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of sensor readings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Values, A::Error> {
                let mut values = Vec::new();
                while let Some(Value(v)) = seq.next_element()? {
                    values.push(v);
                }
                Ok(Values(values))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Values, E> {
                Ok(Values::default())
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for SensorData2 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SensorData2;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of sensors")
            }
            fn visit_unit<E: de::Error>(self) -> Result<SensorData2, E> {
                Ok(SensorData2::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SensorData2, A::Error> {
                let mut times = Vec::new();
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key.eq_ignore_ascii_case(BETWEEN_MEASURE_TIME) {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    }
                    let entry: Entry = map.next_value()?;
                    if key.eq_ignore_ascii_case(MEASURE_TIME) {
                        times = entry.values.0;
                    } else {
                        entries.push(entry);
                    }
                }
                let sensors = entries
                    .into_iter()
                    .filter_map(|e| {
                        // Each value beside the time it was read at; values without one are
                        // left out.
                        let n = e.values.0.len().min(times.len());
                        let kind = e.kind.unwrap_or_default();
                        (n > 0).then(|| Sensor {
                            name: e.name.unwrap_or_default(),
                            unit: unit_of(&kind),
                            kind,
                            seconds: times[..n].to_vec(),
                            values: e.values.0[..n].to_vec(),
                        })
                    })
                    .collect();
                Ok(SensorData2(sensors))
            }
        }
        d.deserialize_any(V)
    }
}

/// Adds `more` (a later run's sensors, its times from its own start) to `sensors`, its times
/// moved on by `offset_s`: a sensor of the same name and kind continues, another is added.
pub(super) fn append(sensors: &mut Vec<Sensor>, more: Vec<Sensor>, offset_s: f64) {
    for mut sensor in more {
        for s in &mut sensor.seconds {
            *s += offset_s;
        }
        match sensors
            .iter_mut()
            .find(|s| s.name == sensor.name && s.kind == sensor.kind)
        {
            Some(s) => {
                s.seconds.extend(sensor.seconds);
                s.values.extend(sensor.values);
            }
            None => sensors.push(sensor),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clock::capture::Capture;

    #[test]
    fn capframex_sensor_data_is_read_with_its_times_names_and_units() {
        let json = r#"{"Info": {"ProcessName": "game.exe"}, "Runs": [
            {"CaptureData": {"MsBetweenPresents": [16.7, 16.7]},
             "SensorData2": {
                "MeasureTime": {"Name": "MeasureTime", "Type": "Time", "Values": [0.25, 0.5, 0.75]},
                "BetweenMeasureTime": {"Name": "BetweenMeasureTime", "Type": "Time", "Values": [0.25, 0.25, 0.25]},
                "/gpu/0/load/0": {"Name": "GPU Core", "Type": "Load", "StableIdentifier": "x", "Values": [90, 95.5, null]},
                "/gpu/0/temperature/0": {"Name": "GPU Core", "Type": "Temperature", "Values": [60.0, 61.0, 62.0, 63.0]},
                "/odd/0": {"Name": "Odd", "Type": "Whatever", "Values": []}}}]}"#;
        let c = Capture::parse(json, "s.json", None).unwrap();
        let sensors = &c.stream().sensors;
        assert_eq!(sensors.len(), 2, "an empty sensor is left out: {sensors:?}");
        assert_eq!(sensors[0].label(), "GPU Core Load");
        assert_eq!(sensors[0].unit, "%");
        assert_eq!(sensors[0].seconds, [0.25, 0.5, 0.75]);
        assert_eq!(sensors[0].values[..2], [90.0, 95.5]);
        assert!(sensors[0].values[2].is_nan(), "null is no reading");
        // A value with no time is left out.
        assert_eq!((sensors[1].unit, sensors[1].values.len()), ("°C", 3));
    }

    #[test]
    fn a_files_runs_end_to_end_continue_their_sensors_from_the_runs_before() {
        let json = r#"{"Runs": [
            {"CaptureData": {"MsBetweenPresents": [500, 500]},
             "SensorData2": {"MeasureTime": {"Values": [0.5, 1.0]},
                             "g": {"Name": "GPU Power", "Type": "Power", "Values": [200, 210]}}},
            {"CaptureData": {"MsBetweenPresents": [250, 250]},
             "SensorData2": {"MeasureTime": {"Values": [0.25, 0.5]},
                             "g": {"Name": "GPU Power", "Type": "Power", "Values": [220, 230]},
                             "c": {"Name": "CPU Total", "Type": "Load", "Values": [40, 41]}}}]}"#;
        let c = Capture::parse(json, "s.json", Some("all")).unwrap();
        let sensors = &c.stream().sensors;
        assert_eq!(sensors[0].label(), "GPU Power");
        assert_eq!(
            sensors[0].seconds,
            [0.5, 1.0, 1.25, 1.5],
            "after run 1's 1 s"
        );
        assert_eq!(sensors[0].values, [200.0, 210.0, 220.0, 230.0]);
        assert_eq!(sensors[1].seconds, [1.25, 1.5]);
    }
}
