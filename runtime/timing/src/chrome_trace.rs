//! A timeline as Chrome Trace Event JSON, which Perfetto (ui.perfetto.dev), speedscope and
//! `chrome://tracing` open.
//!
//! Every boundary is a whole number of microseconds, computed once from the clock's timeline,
//! so a frame ends exactly where the next begins and nothing a frame holds overhangs it: viewers
//! that build a stack from the slices (speedscope) see strict nesting.
//!
//! - Each frame is a complete (`"X"`) slice `frame`, as long as its delta, with the delta,
//!   updates, ticks, render alpha and missed refreshes as arguments.
//! - Inside it, at its end (where the loop runs its work, once the delta has passed: the
//!   updates a stall makes the loop catch up on come after the stall, not before), an `updates`
//!   slice as long as the updates were measured to take, holding one `update` slice per update,
//!   and a `render` slice. The updates are measured together, so each `update` is an even share
//!   of their total and says so (`"duration": "even share"`). Work longer than the frame is
//!   shortened to fit it, the updates and the render in proportion, neither left out for the
//!   other (updates measured to fill the frame still leave the render its share). The costs are measured on the machine that ran the cart; for a
//!   capture's frames they are the cart's costs, not the captured program's.
//! - Counter tracks (`"C"`): frame time, updates, render alpha, time thrown away and missed
//!   refreshes; for a capture, also its displayed interval, the captured program's CPU and
//!   GPU busy times, its display latency, click to photon and each further latency under its
//!   column's name, and whether each frame was generated, where it has them
//!   ([`crate::captured::write_trace_events`]).
//! - Instants (`"i"`): for a capture with present modes, the mode at the first frame and at
//!   each change.
//! - Instants (`"i"`): clamps, missed refreshes and the cart's tags (a tag at its frame's
//!   updates).
//! - `process_name` and `thread_name` metadata name the run and its one thread.
//!
//! A slice that would be shorter than a microsecond (a render measured at 0.3 us, a frame with
//! a delta of 0) is left out: viewers that build a stack close the wrong slice when a zero-length
//! one sits on a boundary. Its frame's arguments and counters still say what it did.

use std::io::{self, Write};

use crate::timeline::{FrameSource, Timeline};

impl Timeline {
    /// Writes the frames as Chrome Trace Event JSON ([`write()`]). The writer lives here, with
    /// the format, so the timeline knows nothing of the files made from it.
    ///
    /// # Errors
    /// Any write error.
    pub fn write_chrome_trace(&self, out: &mut impl Write, title: &str) -> io::Result<()> {
        write(self, out, title)
    }
}

/// The process and thread ids every event carries.
const PID: u32 = 1;
const TID: u32 = 1;

/// Whole microseconds of `ms` from the timeline's start (never negative; 0 for NaN).
fn us(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        (ms * 1000.0).round() as u64
    } else {
        0
    }
}

/// Whole microseconds a duration of `ms` takes.
fn dur_us(ms: f64) -> u64 {
    us(ms)
}

/// A number as JSON allows it (no NaN or infinity).
fn num(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// Writes a JSON string literal.
pub(crate) fn json_str(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    for c in text.chars() {
        match c {
            '"' => out.write_all(b"\\\"")?,
            '\\' => out.write_all(b"\\\\")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => write!(out, "{c}")?,
        }
    }
    out.write_all(b"\"")
}

/// A complete slice; none when it is shorter than a microsecond: a zero-length slice on a
/// frame's boundary makes viewers that build a stack (speedscope) close the wrong slice.
fn slice(out: &mut impl Write, name: &str, ts: u64, dur: u64, args: &str) -> io::Result<()> {
    if dur == 0 {
        return Ok(());
    }
    write!(
        out,
        ",\n{{\"ph\":\"X\",\"name\":\"{name}\",\"cat\":\"{name}\",\"pid\":{PID},\"tid\":{TID},\
         \"ts\":{ts},\"dur\":{dur},\"args\":{{{args}}}}}"
    )
}

/// A counter sample.
fn counter(out: &mut impl Write, name: &str, ts: u64, value: f64) -> io::Result<()> {
    write!(
        out,
        ",\n{{\"ph\":\"C\",\"name\":\"{name}\",\"pid\":{PID},\"ts\":{ts},\
         \"args\":{{\"value\":{}}}}}",
        num(value)
    )
}

/// The updates' and the render's slices, in microseconds, for work measured at `update` and
/// `render` in a frame of `frame`: as measured when they fit, else shortened in proportion,
/// each measured at a microsecond or more kept at one at least (the render first, in a frame
/// of one microsecond), so updates that fill the frame never leave the render out.
fn fit_work(update: u64, render: u64, frame: u64) -> (u64, u64) {
    if update + render <= frame {
        return (update, render);
    }
    let (least_update, least_render) = (update.min(1), render.min(1));
    if frame < least_update + least_render {
        return (0, frame.min(render));
    }
    let share = render as f64 * frame as f64 / (update + render) as f64;
    let render = (share.round() as u64).clamp(least_render, frame - least_update);
    (frame - render, render)
}

/// Writes `t` as Chrome Trace Event JSON titled `title` (see the module).
///
/// # Errors
/// Any write error.
pub fn write(t: &Timeline, out: &mut impl Write, title: &str) -> io::Result<()> {
    out.write_all(b"{\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":")?;
    json_str(out, title)?;
    out.write_all(b"},\"traceEvents\":[\n")?;
    write!(
        out,
        "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{PID},\"tid\":{TID},\"args\":{{\"name\":"
    )?;
    json_str(out, title)?;
    out.write_all(b"}}")?;
    let thread = match t.source() {
        FrameSource::Clock => "loop: frames on the clock's time, work as measured",
        FrameSource::Capture { .. } => {
            "loop: frames from the capture, work as measured on this machine"
        }
    };
    write!(
        out,
        ",\n{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{PID},\"tid\":{TID},\
         \"args\":{{\"name\":\"{thread}\"}}}}"
    )?;
    let mut tags = t.tags().peekable();
    let first_frame = t.frames().next().map(|f| f.frame);
    for f in t.frames() {
        let s = f;
        // The frame's bounds, each computed once: the next frame starts at this `end`.
        let start = us(f.start_ms);
        let end = us(f.start_ms + s.delta_ms.max(0.0)).max(start);
        let frame_dur = end - start;
        slice(
            out,
            "frame",
            start,
            frame_dur,
            &format!(
                "\"frame\":{},\"delta_ms\":{},\"updates\":{},\"ticks\":{},\"render_alpha\":{},\
                 \"missed_refreshes\":{}",
                f.frame,
                num(s.delta_ms),
                s.updates,
                s.ticks,
                num(s.render_alpha),
                f.missed
            ),
        )?;
        // The work, at the frame's end, shortened to fit it: updates first, then render.
        let measured_updates = if s.updates > 0 {
            dur_us(s.update_ms)
        } else {
            0
        };
        let (update_dur, render_dur) = fit_work(measured_updates, dur_us(s.render_ms), frame_dur);
        let work_start = end - update_dur - render_dur;
        let first_tick = s.ticks.saturating_sub(u64::from(s.updates));
        if s.updates > 0 {
            slice(
                out,
                "updates",
                work_start,
                update_dur,
                &format!(
                    "\"updates\":{},\"measured_ms\":{}",
                    s.updates,
                    num(s.update_ms)
                ),
            )?;
            let n = u64::from(s.updates);
            let (share, extra) = (update_dur / n, update_dur % n);
            let mut at = work_start;
            for i in 0..n {
                let dur = share + u64::from(i < extra);
                slice(
                    out,
                    "update",
                    at,
                    dur,
                    &format!(
                        "\"tick\":{},\"duration\":\"even share of the measured total\"",
                        first_tick + i
                    ),
                )?;
                at += dur;
            }
        }
        slice(
            out,
            "render",
            work_start + update_dur,
            render_dur,
            &format!(
                "\"tick\":{},\"draw_calls\":{},\"measured_ms\":{}",
                s.ticks,
                s.draw_calls,
                num(s.render_ms)
            ),
        )?;
        counter(out, "frame time (ms)", start, s.delta_ms)?;
        counter(out, "updates", start, f64::from(s.updates))?;
        counter(out, "render_alpha", start, f.render_alpha)?;
        counter(out, "thrown away (ms)", start, s.discarded_ms)?;
        counter(out, "missed refreshes", start, f64::from(f.missed))?;
        // The captured program's own figures, where the capture has them.
        if let Some(d) = t.source().display_ms(f.frame) {
            counter(out, "displayed interval (ms)", start, d)?;
        }
        let (cpu, gpu) = t.source().busy_ms(f.frame);
        let (latency, click) = t.source().latency_ms(f.frame);
        for (name, ms) in [
            ("CPU busy (ms)", cpu),
            ("GPU busy (ms)", gpu),
            ("display latency (ms)", latency),
            ("click to photon (ms)", click),
        ] {
            if let Some(ms) = ms.filter(|ms| ms.is_finite()) {
                counter(out, name, start, ms)?;
            }
        }
        let first = first_frame == Some(f.frame);
        crate::captured::write_trace_events(out, t.source(), f.frame, first, start, PID, TID)?;
        if s.clamped {
            write!(
                out,
                ",\n{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"clamp\",\"cat\":\"clamp\",\"pid\":{PID},\
                 \"tid\":{TID},\"ts\":{work_start},\"args\":{{\"discarded_ms\":{}}}}}",
                num(s.discarded_ms)
            )?;
        }
        if f.missed > 0 {
            write!(
                out,
                ",\n{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"missed refresh\",\"cat\":\"missed\",\
                 \"pid\":{PID},\"tid\":{TID},\"ts\":{start},\"args\":{{\"missed_refreshes\":{}}}}}",
                f.missed
            )?;
        }
        while let Some(tag) = tags.next_if(|tag| tag.frame <= f.frame) {
            write!(
                out,
                ",\n{{\"ph\":\"i\",\"s\":\"p\",\"cat\":\"tag\",\"pid\":{PID},\"tid\":{TID},\"name\":"
            )?;
            json_str(out, &tag.label)?;
            write!(
                out,
                ",\"ts\":{work_start},\"args\":{{\"tick\":{},\"frame\":{}}}}}",
                tag.tick, tag.frame
            )?;
        }
    }
    out.write_all(b"\n]}\n")?;
    out.flush()
}

/// Checks that the complete (`"X"`) slices of the Chrome trace `json` nest as a viewer that
/// builds a stack from them (speedscope) needs: every `ts` and `dur` a whole number of
/// microseconds, and every slice, taken by start and longest first, either starting once the
/// slice it would sit in has ended or ending within it. For tests of [`write`] and of the
/// commands that print its traces.
///
/// # Errors
/// One line naming the first bad event (its place in `traceEvents`, its name, `ts` and `dur`)
/// and what is wrong with it; or saying the text is not a trace.
#[doc(hidden)]
pub fn check_nesting(json: &str) -> Result<(), String> {
    let trace: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let events = trace["traceEvents"]
        .as_array()
        .ok_or("no traceEvents array")?;
    // (start, end, place in traceEvents) of every complete slice.
    let mut slices = Vec::new();
    for (i, e) in events.iter().enumerate().filter(|(_, e)| e["ph"] == "X") {
        let whole = |key: &str| {
            e[key].as_u64().ok_or_else(|| {
                format!(
                    "event {i} {}: {key} is not a whole number of microseconds: {}",
                    e["name"], e[key]
                )
            })
        };
        let (ts, dur) = (whole("ts")?, whole("dur")?);
        let end = ts
            .checked_add(dur)
            .ok_or_else(|| format!("event {i} {}: ts {ts} + dur {dur} overflows", e["name"]))?;
        slices.push((ts, end, i));
    }
    let describe = |(ts, end, i): (u64, u64, usize)| {
        format!(
            "event {i} {} (ts {ts}, dur {})",
            events[i]["name"],
            end - ts
        )
    };
    slices.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut stack: Vec<(u64, u64, usize)> = Vec::new();
    for s in slices {
        while stack.last().is_some_and(|top| s.0 >= top.1) {
            stack.pop();
        }
        if let Some(&top) = stack.last() {
            if s.1 > top.1 {
                return Err(format!(
                    "{} overhangs {}, which it starts inside",
                    describe(s),
                    describe(top)
                ));
            }
        }
        stack.push(s);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FrameReport;
    use bt::Tag;
    use bt_overlay::FrameStats;
    use serde_json::Value;

    /// Frames whose float deltas do not sum exactly (16.7 ten times is not 167), a stall the
    /// cap clamps, a frame with no update, and work longer than its frame.
    fn sample() -> Timeline {
        let mut t = Timeline::new(1000.0 / 60.0);
        let mut ticks = 0;
        let frames = [
            (16.7, 1),
            (16.7, 1),
            (16.7, 1),
            (50.0, 3),
            (8.3, 0),
            (16.7, 1),
            (0.1, 0),
            (418.0, 8),
            (16.7, 1),
            (16.7, 1),
        ];
        for (i, &(delta_ms, updates)) in frames.iter().enumerate() {
            ticks += u64::from(updates);
            let stats = FrameStats {
                delta_ms,
                updates,
                ticks,
                update_ms: 1.1 * f64::from(updates),
                render_ms: if i == 6 { 5.0 } else { 2.3 },
                clamped: updates == 8,
                discarded_ms: if updates == 8 { 284.7 } else { 0.0 },
                ..FrameStats::default()
            };
            let report = FrameReport {
                frame: i as u64,
                render_alpha: 0.25,
                stats,
            };
            let tags = if i == 7 {
                vec![Tag {
                    tick: ticks,
                    label: "Boss \"1\"".into(),
                }]
            } else {
                vec![]
            };
            t.record(&report, u32::from(delta_ms > 40.0) * 2, &tags);
        }
        t
    }

    fn events(t: &Timeline) -> Vec<Value> {
        let mut out = Vec::new();
        t.write_chrome_trace(&mut out, "demo").unwrap();
        let v: Value = serde_json::from_slice(&out).expect("valid JSON");
        assert_eq!(v["otherData"]["title"], "demo");
        v["traceEvents"].as_array().unwrap().clone()
    }

    fn int(e: &Value, key: &str) -> u64 {
        e[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key} is not a whole number in {e}"))
    }

    #[test]
    fn slices_nest_strictly_on_whole_microseconds() {
        let mut out = Vec::new();
        sample().write_chrome_trace(&mut out, "demo").unwrap();
        check_nesting(std::str::from_utf8(&out).unwrap()).unwrap();
        let events = events(&sample());
        // Frames abut exactly, and lie where the clock put them.
        let frames: Vec<&Value> = events.iter().filter(|e| e["name"] == "frame").collect();
        assert_eq!(frames.len(), 10);
        for pair in frames.windows(2) {
            assert_eq!(int(pair[0], "ts") + int(pair[0], "dur"), int(pair[1], "ts"));
        }
        let mut clock = 0.0;
        for f in &frames {
            assert_eq!(int(f, "ts"), (clock * 1000.0_f64).round() as u64);
            clock += f["args"]["delta_ms"].as_f64().unwrap();
        }
    }

    /// A trace holding the complete slices `(name, ts, dur)`, written as JSON numbers.
    fn trace_of(slices: &[(&str, &str, &str)]) -> String {
        let events: Vec<String> = slices
            .iter()
            .map(|(name, ts, dur)| {
                format!("{{\"ph\":\"X\",\"name\":\"{name}\",\"ts\":{ts},\"dur\":{dur}}}")
            })
            .collect();
        format!(
            "{{\"traceEvents\":[{{\"ph\":\"M\",\"name\":\"process_name\"}},{}]}}",
            events.join(",")
        )
    }

    #[test]
    fn the_nesting_check_names_the_first_slice_that_overhangs_or_is_not_whole() {
        // Abutting frames, work inside them, a slice ending where its frame ends: fine.
        let good = [
            ("frame", "0", "100"),
            ("render", "60", "40"),
            ("frame", "100", "100"),
            ("update", "100", "10"),
        ];
        assert_eq!(check_nesting(&trace_of(&good)), Ok(()));
        // A render running 5 us past its frame's end; listed out of order on purpose.
        let overhang = [
            ("frame", "100", "100"),
            ("frame", "0", "100"),
            ("render", "60", "45"),
        ];
        assert_eq!(
            check_nesting(&trace_of(&overhang)),
            Err(
                "event 3 \"render\" (ts 60, dur 45) overhangs event 2 \"frame\" \
                 (ts 0, dur 100), which it starts inside"
                    .into()
            )
        );
        let fraction = [("frame", "0", "100"), ("render", "60.5", "10")];
        assert_eq!(
            check_nesting(&trace_of(&fraction)),
            Err("event 2 \"render\": ts is not a whole number of microseconds: 60.5".into())
        );
        let negative = [("frame", "0", "-1")];
        assert!(check_nesting(&trace_of(&negative))
            .unwrap_err()
            .starts_with("event 1 \"frame\": dur is not a whole number"));
        assert_eq!(
            check_nesting("{\"events\":[]}"),
            Err("no traceEvents array".into())
        );
        assert!(check_nesting("[").unwrap_err().starts_with("not JSON: "));
    }

    #[test]
    fn the_work_sits_at_the_end_of_its_frame_and_updates_share_their_total() {
        let events = events(&sample());
        let named = |n: &str| -> Vec<&Value> { events.iter().filter(|e| e["name"] == n).collect() };
        let (frames, updates, update, render) = (
            named("frame"),
            named("updates"),
            named("update"),
            named("render"),
        );
        assert_eq!(update.len(), 1 + 1 + 1 + 3 + 1 + 8 + 1 + 1);
        assert_eq!(render.len(), 10);
        // The stall: its eight catch-up updates come at its end, then its render.
        let stall = frames[7];
        let stall_end = int(stall, "ts") + int(stall, "dur");
        assert_eq!(int(render[7], "ts") + int(render[7], "dur"), stall_end);
        let group = updates.iter().find(|u| u["args"]["updates"] == 8).unwrap();
        assert_eq!(int(group, "dur"), 8800);
        assert_eq!(int(group, "ts") + 8800, int(render[7], "ts"));
        assert!(
            int(group, "ts") > int(stall, "ts") + 400_000,
            "not at the stall's start"
        );
        let shares: Vec<&&Value> = update
            .iter()
            .filter(|u| int(u, "ts") >= int(group, "ts") && int(u, "ts") < int(render[7], "ts"))
            .collect();
        assert_eq!(shares.len(), 8);
        assert!(shares.iter().all(|u| int(u, "dur") == 1100));
        assert_eq!(
            shares[0]["args"]["duration"],
            "even share of the measured total"
        );
        // Work longer than its frame (5 ms of render in a 0.1 ms frame) is cut to fit.
        assert_eq!(
            (int(render[6], "ts"), int(render[6], "dur")),
            (int(frames[6], "ts"), 100)
        );
    }

    #[test]
    fn updates_that_fill_their_frame_leave_the_render_its_share() {
        // Updates measured at the whole frame or more (a slow cart under a capture's short
        // frames): the render is still there, shortened with them to fit, never dropped.
        let mut t = Timeline::new(1000.0 / 60.0);
        for (frame, update_ms, render_ms) in [(0, 16.7, 2.3), (1, 30.0, 0.5), (2, 16.0, 0.7)] {
            let stats = FrameStats {
                delta_ms: 16.7,
                updates: 2,
                ticks: 2 * (frame + 1),
                update_ms,
                render_ms,
                ..FrameStats::default()
            };
            let report = FrameReport {
                frame,
                render_alpha: 0.0,
                stats,
            };
            t.record(&report, 0, &[]);
        }
        let mut out = Vec::new();
        t.write_chrome_trace(&mut out, "t").unwrap();
        check_nesting(std::str::from_utf8(&out).unwrap()).unwrap();
        let events = events(&t);
        let named = |n: &str| -> Vec<&Value> {
            events
                .iter()
                .filter(|e| e["ph"] == "X" && e["name"] == n)
                .collect()
        };
        let (frames, updates, render) = (named("frame"), named("updates"), named("render"));
        assert_eq!((render.len(), updates.len()), (3, 3), "{events:?}");
        for ((frame, updates), render) in frames.iter().zip(&updates).zip(&render) {
            let end = int(frame, "ts") + int(frame, "dur");
            // Updates, then render, ending with the frame and filling it.
            assert_eq!(int(render, "ts") + int(render, "dur"), end);
            assert_eq!(int(updates, "ts") + int(updates, "dur"), int(render, "ts"));
            assert!(int(render, "dur") >= 1 && int(updates, "dur") >= 1);
        }
        // In proportion: 2.3 of 19 ms of work in a 16.7 ms frame.
        assert_eq!(
            int(render[0], "dur"),
            (2300.0_f64 * 16_700.0 / 19_000.0).round() as u64
        );
        assert_eq!(
            fit_work(5, 3, 1),
            (0, 1),
            "a microsecond goes to the render"
        );
        assert_eq!(fit_work(5, 0, 3), (3, 0));
    }

    #[test]
    fn no_slice_is_shorter_than_a_microsecond() {
        // A double present with a render measured at 0.4 us, and a first frame of 0 ms.
        let mut t = Timeline::new(1000.0 / 60.0);
        for (frame, delta_ms, render_ms) in [(0, 0.0, 0.02), (1, 1.2, 0.0004), (2, 16.7, 0.02)] {
            let stats = FrameStats {
                delta_ms,
                render_ms,
                ..FrameStats::default()
            };
            t.record(
                &FrameReport {
                    frame,
                    render_alpha: 0.0,
                    stats,
                },
                0,
                &[],
            );
        }
        let events = events(&t);
        let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
        assert!(slices.iter().all(|e| int(e, "dur") > 0), "{slices:?}");
        let names: Vec<&str> = slices.iter().map(|e| e["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["frame", "frame", "render"]);
        let frames = events
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == "updates")
            .count();
        assert_eq!(frames, 3, "every frame keeps its counters");
    }

    #[test]
    fn the_trace_names_its_thread_and_carries_counters_and_instants() {
        let events = events(&sample());
        let meta: Vec<&str> = events
            .iter()
            .filter(|e| e["ph"] == "M")
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(meta, ["process_name", "thread_name"]);
        for name in [
            "frame time (ms)",
            "updates",
            "render_alpha",
            "thrown away (ms)",
            "missed refreshes",
        ] {
            let n = events
                .iter()
                .filter(|e| e["ph"] == "C" && e["name"] == name)
                .count();
            assert_eq!(n, 10, "{name}");
        }
        let instant = |n: &str| {
            events
                .iter()
                .filter(|e| e["ph"] == "i" && e["name"] == n)
                .count()
        };
        assert_eq!(instant("clamp"), 1);
        assert_eq!(instant("missed refresh"), 2);
        assert_eq!(instant("Boss \"1\""), 1);
        let stall_counter = events
            .iter()
            .find(|e| {
                e["ph"] == "C" && e["name"] == "thrown away (ms)" && e["args"]["value"] != 0.0
            })
            .unwrap();
        assert_eq!(stall_counter["args"]["value"], 284.7);
    }
}
