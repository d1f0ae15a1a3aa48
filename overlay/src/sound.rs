//! The sound row: a level meter per channel, a level bar per bus, then the voices in use, notes
//! cut off, and (with a device) underruns, skipped updates and latency.

use std::fmt::Write as _;

use bt::host::Framebuffer;
use bt::sound::{SoundMeter, CHANNELS};
use bt::{OverlayColors, Rect};

use crate::text::{segments, text_width, Ms};
use crate::{BAR_HEIGHT, EDGE_MARGIN};

/// What the host's audio device reports, for the sound row. A headless host has none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SoundDevice {
    /// Times the device found no sound queued while the game played.
    pub underruns: u32,
    /// Updates whose sound was not heard: it came late and was skipped, or the update cap threw
    /// their time away.
    pub skipped_ticks: u64,
    /// From an update to its sound leaving the device, in ms (a recent mean).
    pub latency_ms: f64,
}

/// A channel's level from [`METER_FLOOR_DB`] below full scale up to full scale fills its bar.
pub const METER_FLOOR_DB: f64 = 48.0;
/// A channel at or above this fraction of full scale shows in the warning tint.
pub const METER_WARNING: f64 = 0.7;
/// Frames a new underrun, skip or clipped sample keeps its tint: one second at 60 frames a second.
pub const ALERT_FRAMES: u32 = 60;

/// Width of one channel's level bar, and the gap after it.
const METER_BAR: i32 = 3;
const METER_GAP: i32 = 1;
/// Width of one bus's level bar, and the gap after it: narrower than a channel's, and after a
/// wider gap, so the two groups read apart.
const BUS_BAR: i32 = 2;
const BUS_GAP: i32 = 1;
const BUS_GROUP_GAP: i32 = 2;
/// The label before the meter.
const LABEL: &str = "Sound";

/// What the row remembers between frames, to tint what just changed.
#[derive(Debug, Default)]
pub(crate) struct SoundRow {
    meter: SoundMeter,
    device: Option<SoundDevice>,
    /// The counts when their tint last started, and frames the tint has left.
    seen_clipped: u64,
    seen_trouble: u64,
    clip_alert: u32,
    device_alert: u32,
}

impl SoundRow {
    /// Takes the synthesiser's meter after a frame's updates.
    pub fn set_meter(&mut self, meter: SoundMeter) {
        if meter.clipped > self.seen_clipped {
            self.clip_alert = ALERT_FRAMES;
        }
        self.seen_clipped = meter.clipped;
        self.meter = meter;
    }

    /// Takes the device's figures (none for a headless host).
    pub fn set_device(&mut self, device: Option<SoundDevice>) {
        if let Some(d) = device {
            let trouble = u64::from(d.underruns) + d.skipped_ticks;
            if trouble > self.seen_trouble {
                self.device_alert = ALERT_FRAMES;
            }
            self.seen_trouble = trouble;
        }
        self.device = device;
    }

    /// Whether there is a row to draw: the cart defined sound.
    pub fn shown(&self) -> bool {
        self.meter.in_use
    }

    /// One frame passed: tints fade.
    pub fn tick(&mut self) {
        self.clip_alert = self.clip_alert.saturating_sub(1);
        self.device_alert = self.device_alert.saturating_sub(1);
    }

    /// Draws the row's contents on a bar already filled at `y`, `w` pixels wide.
    pub fn draw(&self, fb: &mut Framebuffer, y: i32, w: i32, line: &mut String, c: &OverlayColors) {
        let mut x = EDGE_MARGIN;
        fb.print(x, y, LABEL, c.text);
        x += text_width(LABEL) + 4;
        for &peak in &self.meter.peaks {
            let level = meter_level(peak);
            let full = BAR_HEIGHT - 2;
            let filled = (level * f64::from(full)).round() as i32;
            fb.draw_rect_fill(Rect::new(x, y + 1, METER_BAR, full), c.gap);
            let ink = if self.clip_alert > 0 {
                // The mix clipped: channels add up past full scale, whichever are loud.
                c.error
            } else if f64::from(peak) >= METER_WARNING * 32_767.0 {
                c.warning
            } else {
                c.text
            };
            if filled > 0 {
                fb.draw_rect_fill(Rect::new(x, y + 1 + full - filled, METER_BAR, filled), ink);
            }
            x += METER_BAR + METER_GAP;
        }
        x += BUS_GROUP_GAP;
        for &volume in &self.meter.buses {
            let full = BAR_HEIGHT - 2;
            let filled = bus_fill(volume, full);
            fb.draw_rect_fill(Rect::new(x, y + 1, BUS_BAR, full), c.gap);
            if filled > 0 {
                let top = y + 1 + full - filled;
                fb.draw_rect_fill(Rect::new(x, top, BUS_BAR, filled), c.tag);
            }
            x += BUS_BAR + BUS_GAP;
        }
        x += 4;
        let room = w - x - EDGE_MARGIN;
        sound_text(line, &self.meter, self.device.as_ref(), false);
        if text_width(line) > room {
            sound_text(line, &self.meter, self.device.as_ref(), true);
        }
        let ink = if self.device_alert > 0 || self.clip_alert > 0 {
            c.warning
        } else {
            c.text
        };
        fb.set_clip(Rect::new(0, y, (w - EDGE_MARGIN + 1).max(0), BAR_HEIGHT));
        segments(fb, x, y, line, ink, c.gap);
        fb.reset_clip();
    }
}

/// How much of a meter bar a channel's peak fills, on a decibel scale from [`METER_FLOOR_DB`]
/// below full scale (empty) to full scale (full).
pub fn meter_level(peak: u16) -> f64 {
    if peak == 0 {
        return 0.0;
    }
    let db = 20.0 * (f64::from(peak) / 32_767.0).log10();
    ((db + METER_FLOOR_DB) / METER_FLOOR_DB).clamp(0.0, 1.0)
}

/// Pixels of a bus bar `full` high that a bus at `volume` (0 to 255) fills: in a straight
/// line, as the volume is set, so a fade is seen moving evenly; any sound at all shows a pixel.
pub(crate) fn bus_fill(volume: u8, full: i32) -> i32 {
    if volume == 0 {
        0
    } else {
        (i32::from(volume) * full / 255).max(1)
    }
}

/// The bus bars' width, gaps included: for tests of where the row's parts sit.
#[cfg(test)]
pub(crate) const BUS_BARS_WIDTH: i32 =
    BUS_GROUP_GAP + bt::sound::BUSES as i32 * (BUS_BAR + BUS_GAP);

/// The row's text: `2/4 voices|cut 1|clip 0|xrun 0|skip 3|lat 38.0ms`, or, when `short`,
/// `2/4|c1|x0|s3|38.0ms`. Without a device the last three are left out.
pub(crate) fn sound_text(
    out: &mut String,
    meter: &SoundMeter,
    device: Option<&SoundDevice>,
    short: bool,
) {
    out.clear();
    let (voices, cut, clip) = (meter.voices, meter.stolen, meter.clipped);
    if short {
        let _ = write!(out, "{voices}/{CHANNELS}|c{cut}");
    } else {
        let _ = write!(out, "{voices}/{CHANNELS} voices|cut {cut}|clip {clip}");
    }
    let Some(d) = device else { return };
    let (xrun, skip, lat) = (d.underruns, d.skipped_ticks, Ms(d.latency_ms));
    if short {
        let _ = write!(out, "|x{xrun}|s{skip}|{lat}");
    } else {
        let _ = write!(out, "|xrun {xrun}|skip {skip}|lat {lat}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_decibels_from_the_floor_to_full_scale() {
        assert_eq!(meter_level(0), 0.0);
        assert_eq!(meter_level(32_767), 1.0);
        // Half the amplitude is 6 dB down: an eighth of the 48 dB bar.
        assert!((meter_level(16_384) - (1.0 - 6.02 / 48.0)).abs() < 0.01);
        // At the floor and below, empty.
        assert_eq!(meter_level(1), 0.0);
    }

    #[test]
    fn the_text_names_each_figure_and_shortens_when_narrow() {
        let meter = SoundMeter {
            voices: 2,
            stolen: 1,
            clipped: 5,
            in_use: true,
            ..SoundMeter::default()
        };
        let device = SoundDevice {
            underruns: 4,
            skipped_ticks: 3,
            latency_ms: 38.04,
        };
        let mut line = String::new();
        sound_text(&mut line, &meter, Some(&device), false);
        assert_eq!(line, "2/4 voices|cut 1|clip 5|xrun 4|skip 3|lat 38.0ms");
        sound_text(&mut line, &meter, Some(&device), true);
        assert_eq!(line, "2/4|c1|x4|s3|38.0ms");
        sound_text(&mut line, &meter, None, false);
        assert_eq!(line, "2/4 voices|cut 1|clip 5");
    }

    #[test]
    fn new_trouble_tints_for_a_second_then_fades() {
        let mut row = SoundRow::default();
        let device = SoundDevice::default();
        row.set_device(Some(device));
        assert_eq!(row.device_alert, 0);
        row.set_device(Some(SoundDevice {
            underruns: 1,
            ..device
        }));
        assert_eq!(row.device_alert, ALERT_FRAMES);
        for _ in 0..ALERT_FRAMES {
            row.tick();
        }
        assert_eq!(row.device_alert, 0);
        // The same count again is no news.
        row.set_device(Some(SoundDevice {
            underruns: 1,
            ..device
        }));
        assert_eq!(row.device_alert, 0);
    }
}
