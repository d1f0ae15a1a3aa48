//! A PICO-8 cart's sound effects and music as a `bt-sound 2` file, at PICO-8's own speed and
//! pitch.
//!
//! PICO-8's rules, as its manual and its exported WAV files give them:
//!
//! - a note lasts `speed` steps of 183 samples at 22,050 Hz (written `unit=183/22050`, so a
//!   sound takes the same time at any update rate, and odd speeds are not rounded);
//! - pitch `p` is `440 × 2^((p − 33) / 12)` Hz: BT's pitch `p + 24` (PICO-8's A2, 33, is
//!   BT's A4, 57);
//! - waves 0 to 7 are triangle, tilted saw, saw, square, pulse (31.6 %), organ, noise and
//!   phaser; a custom instrument (8 to 15) plays as the wave of its sound effect's first note;
//! - effects 6 and 7 (arpeggio fast and slow) step through the note's group of four notes,
//!   one note every 4 (fast) or 8 (slow) steps, halved to 2 and 4 at speeds of 8 and below;
//!   vibrato is a quarter semitone either way at 7.5 Hz;
//! - a sound effect loops from its loop start to its loop end when the end is past the start;
//!   a loop end of 0 with a loop start past 0 makes the loop start its length; otherwise all 32
//!   notes play, rests at the end included (a pattern of music lasts that long);
//! - music pattern `n` goes on to `n + 1`, back to the nearest loop start at or before a loop
//!   end (pattern 0 without one), or stops after a stop flag, an empty pattern or pattern 63.
//!
//! Each pattern a tune can start from (the first after a stop, a loop end or an empty pattern,
//! a loop start, and every `music(N)` the Lua code calls) becomes a tune named `musicN`, its
//! patterns listed in the order PICO-8 plays them from there; a call with a fade or a channel
//! mask gets a comment naming the `play_music_with` call that does the same.

use std::fmt::Write as _;

/// PICO-8's note step: 183 samples at 22,050 Hz.
pub(super) const STEP: &str = "183/22050";
/// PICO-8's vibrato: 7.5 Hz, a quarter semitone either way.
const VIBRATO: &str = "vibrato=7.5 vibrato_depth=25";
/// Patterns a PICO-8 cart holds.
const PATTERNS: usize = 64;
/// BT's pitch for PICO-8's pitch 0 (C0 in PICO-8's naming, C2 in BT's).
const PITCH_OFFSET: usize = 24;

const NAMES: [&str; 12] = [
    "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
];
/// PICO-8's waves 0 to 7 in a sound file's words.
const WAVES: [&str; 8] = [
    "tri", "tilt", "saw", "sq", "sq32", "organ", "noise", "phaser",
];

/// One PICO-8 sound effect as the cart stores it: `(speed, loop start, loop end, 32 notes of
/// (pitch, wave, volume, effect))`.
pub(super) type P8Sfx = (u8, u8, u8, Vec<[u8; 4]>);
/// One PICO-8 music pattern: `(flags, each channel's sound effect or none)`.
pub(super) type P8Pattern = (u8, [Option<u8>; 4]);

/// How many notes of `sfx` play, and the note a loop goes back to.
fn extent(sfx: &P8Sfx) -> (usize, Option<usize>) {
    let (_, start, end, ref notes) = *sfx;
    let (start, end) = (usize::from(start), usize::from(end));
    if end > start {
        (end.min(notes.len()), Some(start))
    } else if end == 0 && start > 0 {
        (start.min(notes.len()), None)
    } else {
        (notes.len(), None)
    }
}

/// The step of each PICO-8 arpeggio, in note steps: 4 (fast) or 8 (slow), halved at speeds of
/// 8 and below.
fn arpeggio_step(effect: u8, speed: u8) -> u8 {
    let step = if effect == 6 { 4 } else { 8 };
    if speed <= 8 {
        step / 2
    } else {
        step
    }
}

/// A `music(N, FADE, MASK)` call in the Lua code, its numbers written out (FADE and MASK 0
/// when left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LuaMusic {
    /// The pattern it starts at.
    pub pattern: usize,
    /// The fade in, in milliseconds.
    pub fade_ms: u32,
    /// The channels it keeps for the tune, a bit each.
    pub mask: u8,
}

/// The `music(N, …)` calls the Lua code makes with numbers written out, each once.
pub(super) fn lua_music_starts(text: &str) -> Vec<LuaMusic> {
    let mut in_lua = false;
    let mut starts = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.starts_with("__") && line.ends_with("__") && line.len() > 4 {
            in_lua = line == "__lua__";
            continue;
        }
        if !in_lua {
            continue;
        }
        for (at, _) in line.match_indices("music(") {
            // `sfx_music(` or `mymusic(` are other functions.
            let before = line[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &line[at + "music(".len()..];
            let args: Vec<&str> = rest.split(')').next().unwrap_or("").split(',').collect();
            let number = |k: usize| -> Option<u32> {
                match args.get(k).map(|a| a.trim()) {
                    None if k > 0 => Some(0),
                    Some(a) if !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()) => {
                        a.parse().ok()
                    }
                    _ => None,
                }
            };
            let (Some(pattern), Some(fade_ms), Some(mask)) = (number(0), number(1), number(2))
            else {
                continue;
            };
            let call = LuaMusic {
                pattern: pattern as usize,
                fade_ms,
                mask: (mask & 15) as u8,
            };
            if call.pattern < PATTERNS && !starts.contains(&call) {
                starts.push(call);
            }
        }
    }
    starts
}

/// The `bt-sound 2` text for `sfx` and `music`; `lua_starts` are the code's calls to `music`.
pub(super) fn sounds(sfx: &[P8Sfx], music: &[P8Pattern], lua_starts: &[LuaMusic]) -> String {
    let mut out = format!(
        "bt-sound 2\n# Imported from PICO-8: sound effect N is sfxN, each note step 183 samples \
         at 22,050 Hz\n# (unit={STEP}); tune musicN plays from pattern N, as music(N) does.\n"
    );
    let audible = |s: &P8Sfx| s.3[..extent(s).0].iter().any(|n| n[2] > 0);
    let in_music = |i: usize| {
        music
            .iter()
            .any(|(_, ch)| ch.iter().flatten().any(|&n| usize::from(n) == i))
    };
    let mut defined = [false; 64];
    for (i, s) in sfx.iter().enumerate().take(64) {
        if audible(s) || in_music(i) {
            defined[i] = true;
            write_sfx(&mut out, i, s, sfx);
        }
    }
    write_music(&mut out, music, &defined, lua_starts);
    out
}

fn write_sfx(out: &mut String, i: usize, s: &P8Sfx, all: &[P8Sfx]) {
    let (speed, _, _, ref notes) = *s;
    let (len, loop_start) = extent(s);
    let notes = &notes[..len.max(1)];
    let _ = write!(out, "\nsfx sfx{i} {} unit={STEP}", speed.max(1));
    if let Some(start) = loop_start {
        let _ = write!(out, " loop={start}");
    }
    if notes.iter().any(|n| n[2] > 0 && n[3] == 2) {
        let _ = write!(out, " {VIBRATO}");
    }
    out.push('\n');
    for (k, n) in notes.iter().enumerate() {
        let [pitch, wave, volume, effect] = *n;
        // A rest's pitch still matters to a slide from it and to an arpeggio of its group.
        let slid_from = notes.get(k + 1).is_some_and(|m| m[2] > 0 && m[3] == 1);
        let in_arpeggio = notes
            .iter()
            .skip(k & !3)
            .take(4)
            .any(|m| m[2] > 0 && m[3] >= 6);
        if volume == 0 && !slid_from && !in_arpeggio {
            out.push_str("--\n");
            continue;
        }
        let bt = usize::from(pitch.min(63)) + PITCH_OFFSET;
        let wave = match wave {
            0..=7 => WAVES[usize::from(wave)],
            custom => instrument_wave(all, usize::from(custom - 8)),
        };
        let effect = match effect & 7 {
            1 => " slide".to_string(),
            2 => " vibrato".into(),
            3 => " drop".into(),
            4 => " fadein".into(),
            5 => " fadeout".into(),
            e @ (6 | 7) => format!(" arpgroup:{}", arpeggio_step(e, speed)),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{}{} {wave} {}{effect}",
            NAMES[bt % 12],
            bt / 12,
            volume.min(7)
        );
    }
}

/// The wave a custom instrument (sound effect `k` played as one note's wave) is heard as: its
/// first audible note's wave.
fn instrument_wave(all: &[P8Sfx], k: usize) -> &'static str {
    let first = all
        .get(k)
        .and_then(|s| s.3.iter().find(|n| n[2] > 0))
        .map_or(0, |n| n[1] & 7);
    WAVES[usize::from(first)]
}

/// Whether pattern `p` plays anything: PICO-8 stops its music at one with no channel on.
fn plays(music: &[P8Pattern], p: usize) -> bool {
    music
        .get(p)
        .is_some_and(|(_, ch)| ch.iter().any(Option::is_some))
}

/// The patterns PICO-8 plays from `start`, in order, and where the list loops back to.
fn order_from(music: &[P8Pattern], start: usize) -> (Vec<usize>, Option<usize>) {
    let mut order: Vec<usize> = Vec::new();
    let mut p = start;
    loop {
        if !plays(music, p) {
            return (order, None);
        }
        if let Some(at) = order.iter().position(|&q| q == p) {
            return (order, Some(at));
        }
        order.push(p);
        let flags = music[p].0;
        if flags & 4 != 0 {
            return (order, None);
        }
        p = if flags & 2 != 0 {
            // Back to the nearest loop start at or before this pattern, or to pattern 0.
            (1..=p).rev().find(|&q| music[q].0 & 1 != 0).unwrap_or(0)
        } else {
            p + 1
        };
    }
}

fn write_music(out: &mut String, music: &[P8Pattern], defined: &[bool; 64], lua: &[LuaMusic]) {
    let mut starts: Vec<usize> = (0..music.len().min(PATTERNS))
        .filter(|&p| {
            let after_end = p == 0 || !plays(music, p - 1) || music[p - 1].0 & 6 != 0;
            plays(music, p) && (after_end || music[p].0 & 1 != 0)
        })
        .collect();
    starts.extend(lua.iter().map(|c| c.pattern).filter(|&p| plays(music, p)));
    starts.sort_unstable();
    starts.dedup();
    for start in starts {
        let (order, loop_start) = order_from(music, start);
        out.push('\n');
        for call in lua.iter().filter(|c| c.pattern == start) {
            if call.fade_ms > 0 || call.mask > 0 {
                let reserved: Vec<String> = (0..4)
                    .map(|c| (call.mask & 1 << c != 0).to_string())
                    .collect();
                let _ = writeln!(
                    out,
                    "# The code calls music({start}, {}, {}): play it with play_music_with and \
                     MusicStart {{ fade_in: Fade::millis({}), reserved: [{}] }}.",
                    call.fade_ms,
                    call.mask,
                    call.fade_ms,
                    reserved.join(", ")
                );
            }
        }
        let _ = write!(out, "music music{start}");
        if let Some(at) = loop_start {
            let _ = write!(out, " loop={at}");
        }
        out.push('\n');
        for p in order {
            let names: Vec<String> = music[p]
                .1
                .iter()
                .map(|c| match c {
                    Some(n) if defined.get(usize::from(*n)).copied().unwrap_or(false) => {
                        format!("sfx{n}")
                    }
                    _ => "-".into(),
                })
                .collect();
            let _ = writeln!(out, "{}", names.join(" "));
        }
    }
}

#[cfg(test)]
mod tests {
    //! Imported sound measured in the samples BT makes, against PICO-8's rules worked out
    //! here on their own: a note of speed `s` lasts `s × 183 / 22,050` s, pitch `p` sounds at
    //! `440 × 2^((p − 33) / 12)` Hz, an arpeggio steps through its group every 2, 4 or 8 steps.

    use super::super::P8;
    use bt::host::Console;
    use bt::sound::Channel;
    use bt::Settings;

    /// The sample rate BT renders at.
    const RATE: f64 = 44_100.0;

    /// PICO-8's length of a note of `speed`, in samples at [`RATE`].
    fn rule_note_samples(speed: u32) -> f64 {
        f64::from(speed) * 183.0 / 22_050.0 * RATE
    }

    /// PICO-8's frequency of pitch `p`.
    fn rule_hz(p: u8) -> f64 {
        440.0 * 2f64.powf((f64::from(p) - 33.0) / 12.0)
    }

    /// A note for a test cart: `(pitch, wave, volume, effect)`.
    type TestNote = (u8, u8, u8, u8);
    /// A sound effect for a test cart: `(speed, loop start, loop end, notes)`.
    type TestSfx<'a> = (u8, u8, u8, &'a [TestNote]);

    /// A `.p8` made for the tests: `sfx`, music lines as PICO-8 writes them, and Lua code.
    fn p8(sfx: &[TestSfx<'_>], music: &[&str], lua: &str) -> String {
        let mut s = format!(
            "pico-8 cartridge // http://www.pico-8.com\nversion 41\n__lua__\n{lua}\n__sfx__\n"
        );
        for (speed, start, end, notes) in sfx {
            s.push_str(&format!("00{speed:02x}{start:02x}{end:02x}"));
            for k in 0..32 {
                let (p, w, v, e) = notes.get(k).copied().unwrap_or((0, 0, 0, 0));
                s.push_str(&format!("{p:02x}{w:x}{v:x}{e:x}"));
            }
            s.push('\n');
        }
        s.push_str("__music__\n");
        for line in music {
            s.push_str(line);
            s.push('\n');
        }
        s
    }

    /// The imported sound file of `text`.
    fn import(text: &str) -> String {
        let cart = P8::parse("test.p8", text).unwrap();
        cart.sounds(&super::lua_music_starts(text))
    }

    /// `seconds` of the imported sound effect or tune `name`, started at the first sample, at
    /// `fps` updates a second.
    fn render(sounds: &str, name: &str, fps: f64, seconds: f64) -> Vec<i16> {
        let mut con = Console::new(&Settings::default().target_fps(fps), 1);
        let bank = con
            .init_context()
            .decode_sounds("test-sounds.txt", sounds)
            .unwrap();
        match (bank.sfx(name), bank.music(name)) {
            (Some(id), _) => assert!(con.init_context().play_sfx(id, Some(Channel::ONE)).is_ok()),
            (_, Some(id)) => assert!(con.init_context().play_music(id).is_ok()),
            _ => panic!("no sound called {name} in\n{sounds}"),
        }
        let mut out = Vec::new();
        for tick in 0..(seconds * fps).ceil() as u64 {
            let _ = con.update_context(tick);
            con.step_sound();
            out.extend(con.drain_samples());
        }
        out
    }

    /// Samples where sound starts after at least 40 silent samples (or at the start).
    fn onsets(s: &[i16]) -> Vec<usize> {
        let mut quiet = 40;
        let mut out = Vec::new();
        for (i, &x) in s.iter().enumerate() {
            if x == 0 {
                quiet += 1;
            } else {
                if quiet >= 40 {
                    out.push(i);
                }
                quiet = 0;
            }
        }
        out
    }

    /// The frequency of `s` from its rising zero crossings.
    fn hz(s: &[i16]) -> f64 {
        let ups: Vec<usize> = (1..s.len())
            .filter(|&i| s[i - 1] < 0 && s[i] >= 0)
            .collect();
        assert!(ups.len() >= 3, "too few periods to measure: {}", ups.len());
        (ups.len() - 1) as f64 * RATE / (ups[ups.len() - 1] - ups[0]) as f64
    }

    fn assert_hz(measured: f64, expected: f64, what: &str) {
        assert!(
            (measured / expected - 1.0).abs() < 0.01,
            "{what}: {measured:.1} Hz, PICO-8's rule says {expected:.1} Hz"
        );
    }

    #[test]
    fn notes_last_speed_times_183_samples_at_22050_hz_at_30_and_60_updates_a_second() {
        for speed in [1u8, 5, 9, 16, 33] {
            // Square notes with rests between them: each onset is a note's first sample.
            let notes = [
                (33, 3, 5, 0),
                (0, 0, 0, 0),
                (40, 3, 5, 0),
                (0, 0, 0, 0),
                (45, 3, 5, 0),
            ];
            let sounds = import(&p8(&[(speed, 0, 0, &notes)], &[], ""));
            let seconds = 6.0 * rule_note_samples(u32::from(speed)) / RATE + 0.1;
            let at_60 = render(&sounds, "sfx0", 60.0, seconds);
            let at_30 = render(&sounds, "sfx0", 30.0, seconds);
            assert!(
                at_60 == at_30[..at_60.len()],
                "speed {speed}: 30 and 60 updates differ"
            );
            let on = onsets(&at_60);
            assert_eq!(on.len(), 3, "speed {speed}: {on:?}");
            for (k, &at) in on.iter().enumerate() {
                let rule = 2.0 * k as f64 * rule_note_samples(u32::from(speed));
                assert!(
                    (at as f64 - rule).abs() <= 1.0,
                    "speed {speed}: note {} starts at sample {at}, PICO-8's rule says {rule}",
                    2 * k
                );
            }
        }
    }

    #[test]
    fn each_note_of_a_fast_jump_sounds_at_its_pitch_from_start_to_end() {
        // Four notes of one step each (8.3 ms), a jump of 4 to 9 semitones between each.
        let notes = [(45, 3, 5, 0), (54, 3, 5, 0), (50, 3, 5, 0), (59, 3, 5, 0)];
        let sounds = import(&p8(&[(1, 0, 0, &notes)], &[], ""));
        for fps in [30.0, 60.0] {
            let s = render(&sounds, "sfx0", fps, 0.1);
            let len = rule_note_samples(1) as usize;
            for (k, &(pitch, ..)) in notes.iter().enumerate() {
                // From the note's first sample (after one period to find a crossing) to its
                // last.
                let note = &s[k * len..(k + 1) * len];
                assert_hz(
                    hz(note),
                    rule_hz(pitch),
                    &format!("note {k} at {fps} updates"),
                );
            }
        }
    }

    #[test]
    fn an_arpeggio_steps_through_its_group_of_four_every_2_4_or_8_steps() {
        // Group pitches 33, 37, 40, 45; the first note carries the arpeggio.
        let group = |effect| {
            [
                (33, 3, 5, effect),
                (37, 3, 5, 0),
                (40, 3, 5, 0),
                (45, 3, 5, 0),
            ]
        };
        let pitches = [33, 37, 40, 45];
        // (speed, effect, steps per arpeggio note): fast is 4 steps, slow 8, halved at
        // speeds of 8 and below.
        for (speed, effect, step) in [(16u8, 6u8, 4u32), (16, 7, 8), (8, 6, 2), (8, 7, 4)] {
            let notes = group(effect);
            let sounds = import(&p8(&[(speed, 0, 0, &notes)], &[], ""));
            let s = render(&sounds, "sfx0", 60.0, 0.2);
            let step_len = rule_note_samples(step);
            let steps = u32::from(speed) / step;
            for k in 0..steps {
                let (a, b) = (k as f64 * step_len, (k + 1) as f64 * step_len);
                let window = &s[a.ceil() as usize + 2..b.floor() as usize - 2];
                assert_hz(
                    hz(window),
                    rule_hz(pitches[k as usize % 4]),
                    &format!("speed {speed}, effect {effect}, step {k}"),
                );
            }
        }
    }

    #[test]
    fn picos_waves_and_effects_are_written_as_bt_words() {
        let notes = [
            (24, 0, 5, 0),
            (24, 1, 5, 1),
            (24, 2, 5, 2),
            (24, 3, 5, 3),
            (24, 4, 5, 4),
            (24, 5, 5, 5),
            (24, 6, 5, 6),
            (24, 7, 5, 7),
            (24, 9, 5, 0),
        ];
        let text = p8(&[(12, 0, 0, &notes), (4, 0, 0, &[(30, 5, 3, 0)])], &[], "");
        let sounds = import(&text);
        let body = "C4 tri 5\nC4 tilt 5 slide\nC4 saw 5 vibrato\nC4 sq 5 drop\nC4 sq32 5 fadein\n\
                    C4 organ 5 fadeout\nC4 noise 5 arpgroup:4\nC4 phaser 5 arpgroup:8\nC4 organ 5\n";
        assert!(
            sounds.contains(&format!(
                "sfx sfx0 12 unit=183/22050 vibrato=7.5 vibrato_depth=25\n{body}"
            )),
            "{sounds}"
        );
        bt::sound::SoundFile::parse("test-sounds.txt", &sounds).unwrap();
    }

    #[test]
    fn trailing_rests_are_kept_so_a_pattern_lasts_32_notes() {
        // Pattern 0: sfx 0, one note and 31 rests; pattern 1: sfx 1, one note; stop.
        let text = p8(
            &[(3, 0, 0, &[(33, 3, 5, 0)]), (3, 0, 0, &[(45, 3, 5, 0)])],
            &["00 00414243", "04 01414243"],
            "",
        );
        let sounds = import(&text);
        for fps in [30.0, 60.0] {
            let s = render(&sounds, "music0", fps, 1.2);
            let rule = 32.0 * rule_note_samples(3);
            assert_eq!(onsets(&s).len(), 2, "{fps}");
            let second = onsets(&s)[1] as f64;
            assert!((second - rule).abs() <= 1.0, "{second} vs {rule} at {fps}");
            let note = rule_note_samples(3) as usize;
            assert_hz(
                hz(&s[second as usize..second as usize + note]),
                rule_hz(45),
                "sfx1",
            );
        }
    }

    #[test]
    fn a_pattern_whose_first_channel_loops_lasts_as_its_first_channel_that_does_not() {
        // Channel 0 loops one note of speed 4; channel 1 plays 32 notes of speed 2 and sets
        // the length (64 steps), as in Celeste's music; then pattern 1's note.
        let text = p8(
            &[
                (4, 0, 1, &[(33, 3, 2, 0)]),
                (2, 0, 0, &[(45, 3, 5, 0)]),
                (1, 0, 0, &[(57, 3, 5, 0)]),
            ],
            &["00 00014243", "04 02414243"],
            "",
        );
        let sounds = import(&text);
        let s = render(&sounds, "music0", 60.0, 1.0);
        let rule = 32.0 * rule_note_samples(2);
        let at = rule as usize;
        assert!(
            s[at - 100..at].iter().any(|&x| x != 0),
            "the drone plays on"
        );
        let len = rule_note_samples(1) as usize;
        assert_hz(
            hz(&s[at..at + len]),
            rule_hz(57),
            "pattern 1 starts on time",
        );
    }

    #[test]
    fn tunes_are_named_by_picos_pattern_number_and_follow_its_loops_and_stops() {
        let sfx: &[TestSfx<'_>] = &[
            (8, 0, 0, &[(33, 3, 5, 0)]),
            (8, 0, 0, &[(37, 3, 5, 0)]),
            (8, 0, 0, &[(40, 3, 5, 0)]),
        ];
        // 0 stops; 1 starts a loop that 2 ends; 3 is empty; the code calls music(2).
        let music = ["04 00414243", "01 01414243", "02 02414243", "00 40404040"];
        let sounds = import(&p8(
            sfx,
            &music,
            "function _init()\n  music( 2, 500, 3)\nend",
        ));
        assert!(sounds.contains("\nmusic music0\nsfx0 - - -\n"), "{sounds}");
        assert!(
            sounds.contains(
                "\n# The code calls music(2, 500, 3): play it with play_music_with and MusicStart \
                 { fade_in: Fade::millis(500), reserved: [true, true, false, false] }.\n\
                 music music2"
            ),
            "{sounds}"
        );
        assert!(
            sounds.contains("\nmusic music1 loop=0\nsfx1 - - -\nsfx2 - - -\n"),
            "{sounds}"
        );
        assert!(
            sounds.contains("\nmusic music2 loop=0\nsfx2 - - -\nsfx1 - - -\n"),
            "{sounds}"
        );
        assert!(!sounds.contains("music3"), "{sounds}");
        // music(2) heard: pattern 2's note, then 1's, then 2's again, 32 notes apart.
        let s = render(&sounds, "music2", 60.0, 4.5);
        let pattern = 32.0 * rule_note_samples(8);
        let on = onsets(&s);
        assert!(on.len() >= 3, "{on:?}");
        let note = rule_note_samples(8) as usize;
        for (k, pitch) in [40, 37, 40].into_iter().enumerate() {
            assert!((on[k] as f64 - k as f64 * pattern).abs() <= 1.0, "{on:?}");
            assert_hz(hz(&s[on[k]..on[k] + note]), rule_hz(pitch), "pattern");
        }
    }

    #[test]
    fn music_calls_in_the_code_are_found_by_their_number() {
        let lua = "music(10)\nsfx_music(3)\nmusic (4)\nmusic(-1)\nmymusic(5) music(63, 0, 7)\n\
                   music(n)\nmusic(1, f)\nmusic(10)\nmusic()";
        let text = format!("pico-8 cartridge\n__lua__\n{lua}\n__sfx__\nmusic(7)\n");
        let call = |pattern, fade_ms, mask| super::LuaMusic {
            pattern,
            fade_ms,
            mask,
        };
        assert_eq!(
            super::lua_music_starts(&text),
            [call(10, 0, 0), call(63, 0, 7)]
        );
    }
}
