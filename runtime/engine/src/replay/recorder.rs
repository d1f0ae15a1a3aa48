//! The recorder: what each update saw, run-length encoded, and stored compactly.
//!
//! A run is its count and its tick, the tick as a few bytes: a mask of the fields not at
//! their default, then those fields as variable-length integers (floats as their 4 bytes).
//! An idle tick is 2 bytes, a held button 3 or 4; a whole `TickInput` is over 300. So a
//! replay in memory takes about what its file does, or less, however its runs are made.

use bt::host::{TickButtons, TickInput};
use bt::limits::{AXES, PLAYERS};

/// Runs the recorder reserves up front, so a recording session grows its storage only after a
/// thousand changes of input.
const RESERVED_RUNS: usize = 1024;

/// Bytes reserved per reserved run: a tick with a few buttons and the pointer.
const RESERVED_BYTES_PER_RUN: usize = 16;

/// Records what each update saw, run-length encoded: consecutive identical ticks are stored
/// once with a count, so storage grows only when input changes. Recording a tick never
/// allocates unless it starts a run beyond the storage already reserved.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorder {
    /// How many updates each run covers.
    counts: Vec<u64>,
    /// The runs' ticks, encoded one after another.
    bytes: Vec<u8>,
    /// The last run's tick, to compare the next with.
    last: TickInput,
    ticks: u64,
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder::new()
    }
}

impl Recorder {
    /// An empty recording, with room for a thousand changes of input.
    pub fn new() -> Recorder {
        Recorder {
            counts: Vec::with_capacity(RESERVED_RUNS),
            bytes: Vec::with_capacity(RESERVED_RUNS * RESERVED_BYTES_PER_RUN),
            last: TickInput::default(),
            ticks: 0,
        }
    }

    /// Adds the next update's input.
    pub fn record(&mut self, tick: &TickInput) {
        self.push_run(tick, 1);
    }

    /// Adds `count` updates that all saw `tick` (a run as a file stores it); joins the last
    /// run when it saw the same. Saturates at `u64::MAX` ticks (a file checks its sum first).
    pub(super) fn push_run(&mut self, tick: &TickInput, count: u64) {
        self.ticks = self.ticks.saturating_add(count);
        if let Some(last) = self.counts.last_mut() {
            if self.last == *tick {
                *last = last.saturating_add(count);
                return;
            }
        }
        self.counts.push(count);
        encode(tick, &mut self.bytes);
        self.last = *tick;
    }

    /// A recording of no runs that says it is `ticks` long: a generated replay's, whose ticks
    /// its player makes.
    pub(super) fn set_ticks_of_script(&mut self, ticks: u64) {
        self.clear();
        self.ticks = ticks;
    }

    /// Updates recorded.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Runs of identical ticks stored.
    pub fn runs(&self) -> usize {
        self.counts.len()
    }

    /// Forgets everything (a seek from the start begins the run again).
    pub fn clear(&mut self) {
        self.counts.clear();
        self.bytes.clear();
        self.last = TickInput::default();
        self.ticks = 0;
    }

    /// Keeps the first `ticks` updates and forgets the rest (a run that went back to an
    /// earlier update records on from there). Past the end, nothing changes.
    pub fn truncate(&mut self, ticks: u64) {
        if ticks >= self.ticks {
            return;
        }
        let (mut at, mut sum) = (0, 0u64);
        for run in 0..self.counts.len() {
            let mut tick = TickInput::default();
            let next = decode(&self.bytes, at, &mut tick);
            if sum + self.counts[run] >= ticks {
                if ticks == sum {
                    // This run starts exactly where the recording ends: it goes too.
                    self.counts.truncate(run);
                    self.bytes.truncate(at);
                } else {
                    self.counts[run] = ticks - sum;
                    self.counts.truncate(run + 1);
                    self.bytes.truncate(next);
                    self.last = tick;
                }
                break;
            }
            sum += self.counts[run];
            self.last = tick;
            at = next;
        }
        if self.counts.is_empty() {
            self.last = TickInput::default();
        }
        self.ticks = ticks;
    }

    /// Puts the ticks of updates `from + 1 ..= from + count` (counted from 1, as
    /// `updates_since_init` counts them) into `out`, replacing what it held; fewer when the
    /// recording ends first. Runs before `from` are skipped by their counts, not decoded one
    /// tick at a time.
    pub(crate) fn read_into(&self, from: u64, count: usize, out: &mut Vec<TickInput>) {
        out.clear();
        let mut skip = from;
        for (tick, run) in self.each_run() {
            if out.len() >= count {
                break;
            }
            let usable = run.saturating_sub(skip);
            skip = skip.saturating_sub(run);
            let take = usize::try_from(usable)
                .unwrap_or(usize::MAX)
                .min(count - out.len());
            out.extend(std::iter::repeat_n(tick, take));
        }
    }

    /// Every recorded tick in order, one item per update.
    pub fn iter(&self) -> impl Iterator<Item = TickInput> + '_ {
        self.each_run()
            .flat_map(|(tick, count)| std::iter::repeat_n(tick, count as usize))
    }

    /// The runs in order, `(tick, updates)`.
    pub(super) fn each_run(&self) -> impl Iterator<Item = (TickInput, u64)> + '_ {
        let mut at = 0;
        self.counts.iter().map(move |&count| {
            let mut tick = TickInput::default();
            at = decode(&self.bytes, at, &mut tick);
            (tick, count)
        })
    }
}

/// Where a player is in a recording: hands out its ticks one update at a time, decoding each
/// run once, without allocating.
#[derive(Debug, Clone, Default)]
pub(super) struct Cursor {
    run: usize,
    at: usize,
    used: u64,
    tick: TickInput,
}

impl Cursor {
    /// The next update's input from `rec`, or `None` once it is over.
    pub(super) fn next<'a>(&'a mut self, rec: &Recorder) -> Option<&'a TickInput> {
        loop {
            let count = *rec.counts.get(self.run)?;
            if self.used == 0 {
                self.tick = TickInput::default();
                self.at = decode(&rec.bytes, self.at, &mut self.tick);
            }
            if self.used < count {
                self.used += 1;
                return Some(&self.tick);
            }
            self.run += 1;
            self.used = 0;
        }
    }
}

const BUTTONS: u16 = 1 << 0;
const KEYS: u16 = 1 << 1;
const POINTER_POS: u16 = 1 << 2;
const POINTER_DELTA: u16 = 1 << 3;
const WHEEL: u16 = 1 << 4;
const ACTIVE: u16 = 1 << 5;
const AXES_SET: u16 = 1 << 6;
const PADS: u16 = 1 << 7;
const TEXT: u16 = 1 << 8;
const MENU: u16 = 1 << 9;
const TOUCH: u16 = 1 << 10;
const MOTION: u16 = 1 << 11;

fn put_varint(mut v: u128, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_signed(v: i32, out: &mut Vec<u8>) {
    put_varint(u128::from(((v << 1) ^ (v >> 31)) as u32), out);
}

fn encode(t: &TickInput, out: &mut Vec<u8>) {
    let d = TickInput::default();
    let mut mask = 0u16;
    let buttons = t.buttons != d.buttons;
    let keys = (t.keys_down, t.keys_pressed, t.keys_released) != (0, 0, 0);
    let axes = t.axes != d.axes;
    for (set, bit) in [
        (buttons, BUTTONS),
        (keys, KEYS),
        (t.pointer_pos != d.pointer_pos, POINTER_POS),
        (t.pointer_delta != d.pointer_delta, POINTER_DELTA),
        (t.pointer_wheel != d.pointer_wheel, WHEEL),
        (t.pointer_active, ACTIVE),
        (axes, AXES_SET),
        (t.pads != d.pads, PADS),
        (!t.text().is_empty(), TEXT),
        (t.menu_item != 0, MENU),
        (has_touch(t), TOUCH),
        (t.reduced_motion, MOTION),
    ] {
        if set {
            mask |= bit;
        }
    }
    out.extend_from_slice(&mask.to_le_bytes());
    if buttons {
        for b in &t.buttons {
            for v in [b.down, b.pressed, b.released] {
                put_varint(u128::from(v), out);
            }
        }
    }
    if keys {
        for v in [t.keys_down, t.keys_pressed, t.keys_released] {
            put_varint(v, out);
        }
    }
    if mask & POINTER_POS != 0 {
        put_signed(t.pointer_pos.0, out);
        put_signed(t.pointer_pos.1, out);
    }
    if mask & POINTER_DELTA != 0 {
        put_signed(t.pointer_delta.0, out);
        put_signed(t.pointer_delta.1, out);
    }
    if mask & WHEEL != 0 {
        out.extend_from_slice(&t.pointer_wheel.0.to_bits().to_le_bytes());
        out.extend_from_slice(&t.pointer_wheel.1.to_bits().to_le_bytes());
    }
    if axes {
        for v in t.axes.iter().flatten() {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    if mask & PADS != 0 {
        let bits = t
            .pads
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &on)| acc | (u8::from(on) << i));
        out.push(bits);
    }
    if mask & TEXT != 0 {
        let text = t.text().as_bytes();
        put_varint(text.len() as u128, out);
        out.extend_from_slice(text);
    }
    if mask & MENU != 0 {
        out.push(t.menu_item);
    }
    if mask & TOUCH != 0 {
        out.extend_from_slice(&[t.touch_down, t.touch_pressed, t.touch_released]);
        for &(x, y) in t.touch_pos.iter().chain(&t.touch_delta) {
            put_signed(x, out);
            put_signed(y, out);
        }
    }
}

/// Whether a tick holds anything of the touch slots (a file of layout 3 then).
pub(super) fn has_touch(t: &TickInput) -> bool {
    let d = TickInput::default();
    (t.touch_down, t.touch_pressed, t.touch_released) != (0, 0, 0)
        || t.touch_pos != d.touch_pos
        || t.touch_delta != d.touch_delta
}

/// Reads bytes the encoder wrote: never out of step, since nothing else writes them.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn varint(&mut self) -> u128 {
        let mut v = 0u128;
        let mut shift = 0;
        loop {
            let b = self.byte();
            if shift < 128 {
                v |= u128::from(b & 0x7f) << shift;
            }
            if b & 0x80 == 0 {
                return v;
            }
            shift += 7;
        }
    }

    fn signed(&mut self) -> i32 {
        let z = self.varint() as u32;
        ((z >> 1) as i32) ^ -((z & 1) as i32)
    }

    fn float(&mut self) -> f32 {
        f32::from_bits(u32::from_le_bytes([
            self.byte(),
            self.byte(),
            self.byte(),
            self.byte(),
        ]))
    }
}

/// Decodes the tick at `at` into `t` (at its default), returning where the next begins.
fn decode(bytes: &[u8], at: usize, t: &mut TickInput) -> usize {
    let mut r = Reader { bytes, at };
    let mask = u16::from_le_bytes([r.byte(), r.byte()]);
    if mask & BUTTONS != 0 {
        for b in t.buttons.iter_mut() {
            *b = TickButtons {
                down: r.varint() as u32,
                pressed: r.varint() as u32,
                released: r.varint() as u32,
            };
        }
    }
    if mask & KEYS != 0 {
        t.keys_down = r.varint();
        t.keys_pressed = r.varint();
        t.keys_released = r.varint();
    }
    if mask & POINTER_POS != 0 {
        t.pointer_pos = (r.signed(), r.signed());
    }
    if mask & POINTER_DELTA != 0 {
        t.pointer_delta = (r.signed(), r.signed());
    }
    if mask & WHEEL != 0 {
        t.pointer_wheel = (r.float(), r.float());
    }
    t.pointer_active = mask & ACTIVE != 0;
    t.reduced_motion = mask & MOTION != 0;
    if mask & AXES_SET != 0 {
        for v in t.axes.iter_mut().flatten() {
            *v = r.float();
        }
    }
    if mask & PADS != 0 {
        let bits = r.byte();
        for (i, pad) in t.pads.iter_mut().enumerate() {
            *pad = bits & (1 << i) != 0;
        }
    }
    if mask & TEXT != 0 {
        let len = r.varint() as usize;
        let start = r.at.min(bytes.len());
        let end = (start + len).min(bytes.len());
        t.set_text(std::str::from_utf8(&bytes[start..end]).unwrap_or_default());
        r.at = start + len;
    }
    if mask & MENU != 0 {
        t.menu_item = r.byte();
    }
    if mask & TOUCH != 0 {
        t.touch_down = r.byte();
        t.touch_pressed = r.byte();
        t.touch_released = r.byte();
        for p in t.touch_pos.iter_mut().chain(t.touch_delta.iter_mut()) {
            *p = (r.signed(), r.signed());
        }
    }
    r.at
}

// The pads fit the byte they are stored in.
const _: () = assert!(PLAYERS <= 8);
const _: () = assert!(AXES * PLAYERS < 64);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_tick_survives_its_encoding(
            buttons in proptest::array::uniform4(proptest::array::uniform3(any::<u32>())),
            keys in proptest::array::uniform3(any::<u128>()),
            pos in any::<(i32, i32)>(),
            delta in any::<(i32, i32)>(),
            wheel in (-1e6f32..1e6, -1e6f32..1e6),
            active in any::<bool>(),
            axis in -1.0f32..1.0,
            pads in proptest::array::uniform4(any::<bool>()),
            text in "[a-zé]{0,6}",
            menu_item in 0u8..=3,
            touch in proptest::array::uniform3(0u8..8),
            touch_pos in any::<(i32, i32)>(),
        ) {
            let mut t = TickInput::default();
            t.buttons = buttons.map(|[down, pressed, released]| TickButtons { down, pressed, released });
            [t.keys_down, t.keys_pressed, t.keys_released] = keys;
            t.pointer_pos = pos;
            t.pointer_delta = delta;
            t.pointer_wheel = wheel;
            t.pointer_active = active;
            t.axes[1][2] = axis;
            t.pads = pads;
            t.set_text(&text);
            t.menu_item = menu_item;
            t.reduced_motion = active;
            [t.touch_down, t.touch_pressed, t.touch_released] = touch;
            t.touch_pos[2] = touch_pos;
            t.touch_delta[0] = (touch_pos.1, -3);
            let mut rec = Recorder::new();
            rec.record(&TickInput::default());
            rec.record(&t);
            rec.record(&t);
            let back: Vec<TickInput> = rec.iter().collect();
            prop_assert_eq!(back, vec![TickInput::default(), t, t]);
            let mut cursor = Cursor::default();
            prop_assert_eq!(cursor.next(&rec), Some(&TickInput::default()));
            prop_assert_eq!(cursor.next(&rec), Some(&t));
        }
    }

    #[test]
    fn an_idle_run_takes_two_bytes_and_its_count() {
        let mut rec = Recorder::new();
        for _ in 0..1000 {
            rec.record(&TickInput::default());
        }
        assert_eq!((rec.runs(), rec.bytes.len()), (1, 2));
    }

    #[test]
    fn truncating_keeps_the_first_ticks_and_records_on_from_there() {
        let ticks: Vec<TickInput> = (0..40u8)
            .map(|i| {
                let mut t = TickInput::default();
                t.pointer_pos = (i32::from(i / 7), 0);
                t
            })
            .collect();
        for keep in [0, 1, 6, 7, 8, 20, 39, 40, 55] {
            let mut rec = Recorder::new();
            ticks.iter().for_each(|t| rec.record(t));
            rec.truncate(keep);
            let kept = keep.min(40) as usize;
            assert_eq!(rec.ticks(), kept as u64);
            assert_eq!(rec.iter().collect::<Vec<_>>(), ticks[..kept], "keep {keep}");
            // Recording on joins the last run when it saw the same, as if never cut.
            ticks[kept..].iter().for_each(|t| rec.record(t));
            let mut whole = Recorder::new();
            ticks.iter().for_each(|t| whole.record(t));
            assert_eq!(rec, whole, "keep {keep}");
        }
    }
}
