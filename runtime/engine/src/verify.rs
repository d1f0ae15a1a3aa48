//! Proof of timing independence: the same cart, with the same input for every tick, run under
//! clocks that deliver time very differently, must draw the same frame after every tick.
//!
//! After each update the frame is rendered with `render_alpha` 0 and hashed
//! ([`crate::replay::frame_hash`]); every run must give the same hash at every tick. A cart
//! that steps its simulation in `render`, reads a clock, or otherwise depends on how many
//! frames were drawn diverges under one of them.
//!
//! Runs are independent, so they go on separate threads; carts are not `Send`, so each thread
//! builds its own engine.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bt::host::Framebuffer;
use bt::Palette;

use crate::clock::spec::ClockSpec;
use crate::engine::Engine;

/// Host ticks a run may take per update before it is given up as stuck: a paced clock on a
/// 240 Hz host needs 4 for a 60 Hz cart; a cart at 1 update a second needs 240.
const HOST_TICKS_PER_UPDATE_LIMIT: u64 = 1024;

/// One way of delivering time: a clock, and the rate the simulated host ticks at.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockCase {
    /// How the clock is written on the command line (`paced:144`).
    pub name: String,
    /// The clock.
    pub spec: ClockSpec,
    /// Simulated host ticks per second.
    pub host_hz: f64,
}

impl ClockCase {
    /// The clock `spec` (as the command line writes it), shown as `name`.
    fn new(name: String, spec: &str, host_hz: f64) -> ClockCase {
        let spec = spec
            .parse()
            .unwrap_or_else(|_| panic!("built-in clock spec '{spec}' parses"));
        ClockCase {
            name,
            spec,
            host_hz,
        }
    }
}

/// The clocks `bt verify` runs a cart at `target_fps` under: a constant clock at the target
/// rate (the reference), a sequence of stutters (5, 50, 16.7 and 200 ms, the last past the
/// catch-up cap), three seeded jitter clocks (1 to 40 ms), and paced clocks on 30, 144 and
/// 240 Hz hosts.
pub fn standard_clocks(target_fps: f64) -> Vec<ClockCase> {
    let interval = 1000.0 / target_fps;
    let mut cases = vec![
        ClockCase::new(
            format!("constant:{interval:.3}"),
            &format!("constant:{interval}"),
            target_fps,
        ),
        ClockCase::new(
            "sequence:5,50,16.7,200".to_string(),
            "sequence:5,50,16.7,200",
            60.0,
        ),
    ];
    for seed in [1, 2, 3] {
        let spec = format!("jitter:1:40:{seed}");
        cases.push(ClockCase::new(spec.clone(), &spec, 60.0));
    }
    for hz in [30, 144, 240] {
        let spec = format!("paced:{hz}");
        cases.push(ClockCase::new(spec.clone(), &spec, f64::from(hz)));
    }
    cases
}

/// Updates whose frame hashes one digest of a [`ClockRun`] sums up. A run keeps one digest per
/// this many updates, not every hash, so its memory grows 8 bytes per 4096 updates (20 KB for
/// the [`MAX_VERIFY_UPDATES`] a run may have); the updates of the first digest that differs are
/// run again to find the exact one.
pub const DIGEST_EVERY: u64 = 4096;

/// The most updates `bt verify` runs under each clock: as many as one seek replays
/// ([`crate::engine::MAX_SEEK_UPDATES`], about 46 hours at 60 updates a second), for the same
/// reason: a run far longer would keep the caller waiting for days.
pub const MAX_VERIFY_UPDATES: u64 = crate::engine::MAX_SEEK_UPDATES;

/// One clock's run: digests of the frame hashes after every tick.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockRun {
    /// The clock's name.
    pub clock: String,
    /// Digest `i` sums up the hashes after updates `i × DIGEST_EVERY + 1` to
    /// `(i + 1) × DIGEST_EVERY` ([`DIGEST_EVERY`]); the last may cover fewer.
    pub digests: Vec<u64>,
    /// Frames the clock delivered.
    pub frames: u64,
    /// The update after which the cart quit (`Update::quit`), when it quit before the run's
    /// length: the run ends there.
    pub quit_at: Option<u64>,
    /// Wall time the run took.
    pub elapsed: Duration,
}

/// Two runs that drew different frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The first tick (updates since init) whose frames differ.
    pub tick: u64,
    /// The reference clock.
    pub reference: String,
    /// The clock that disagrees first.
    pub other: String,
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Every clock's run, in the order of the cases.
    pub runs: Vec<ClockRun>,
    /// The earliest disagreement with the first case, if any.
    pub divergence: Option<Divergence>,
    /// The update after which the cart quit, the same under every clock, when it quit before
    /// the length asked: the updates verified are those that ran, up to it.
    pub quit_at: Option<u64>,
}

/// Builds an engine for one run; called once per run, on the run's own thread.
pub type EngineMaker<'a> = &'a (dyn Fn() -> Result<Engine, String> + Sync);

/// How often [`verify_with_progress`] reports how far the runs have come.
const PROGRESS_PERIOD: Duration = Duration::from_millis(100);

/// Runs `ticks` updates under every case (the first is the reference), hashing the frame after
/// each, on up to `threads` threads; the engines come from `make` with their input already set
/// (a replay in their options).
///
/// A cart that quits (`Update::quit`) ends every run at the update that asked: the updates
/// before are compared, and [`Verdict::quit_at`] says where it quit.
///
/// # Errors
/// The first error of `make`, or a message naming a clock that stopped delivering updates,
/// under which the cart panicked (the panic's call, tick, message and place), or under which
/// it quit after another update than under the first clock.
pub fn verify(
    make: EngineMaker<'_>,
    ticks: u64,
    cases: &[ClockCase],
    threads: usize,
) -> Result<Verdict, String> {
    verify_with_progress(make, ticks, cases, threads, &mut |_, _| {})
}

/// [`verify`], calling `progress(done, total)` on the calling thread about ten times a second
/// while the runs go on: `done` updates of all the runs' `total`.
///
/// # Errors
/// As [`verify`].
pub fn verify_with_progress(
    make: EngineMaker<'_>,
    ticks: u64,
    cases: &[ClockCase],
    threads: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Verdict, String> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let updates_done = AtomicU64::new(0);
    let total = ticks.saturating_mul(cases.len() as u64);
    let results: Mutex<Vec<Option<Result<ClockRun, String>>>> = Mutex::new(vec![None; cases.len()]);
    let workers = threads.clamp(1, cases.len().max(1));
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                // Counted however the worker ends, a panic included, so the wait below ends.
                let _done = Finished(&finished, &caller);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let run = digests_of(make, case, ticks, &updates_done);
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(run);
                    }
                }
            });
        }
        while finished.load(Ordering::Acquire) < workers {
            progress(updates_done.load(Ordering::Relaxed).min(total), total);
            std::thread::park_timeout(PROGRESS_PERIOD);
        }
    });
    let results = results
        .into_inner()
        .map_err(|_| "a verify run panicked".to_string())?;
    let mut runs = Vec::with_capacity(cases.len());
    for r in results {
        runs.push(r.ok_or_else(|| "a verify run panicked".to_string())??);
    }
    let quit_at = runs.first().and_then(|r| r.quit_at);
    if let Some(other) = runs.iter().find(|r| r.quit_at != quit_at) {
        let when = |q: Option<u64>| q.map_or_else(|| "did not quit".to_string(), quit_text);
        return Err(format!(
            "the cart {} under {} but {} under {}: when it quits depends on timing",
            when(quit_at),
            runs[0].clock,
            when(other.quit_at),
            other.clock
        ));
    }
    let divergence = first_divergence(make, quit_at.unwrap_or(ticks), cases, &runs)?;
    Ok(Verdict {
        runs,
        divergence,
        quit_at,
    })
}

/// `quit after update N`, as a verdict says a cart's quit.
fn quit_text(update: u64) -> String {
    format!("quit after update {update}")
}

/// Where the runs first disagree with the first: the first digest that differs, then the exact
/// update within it, from the clocks that differ there run again with every hash of those
/// updates kept.
fn first_divergence(
    make: EngineMaker<'_>,
    ticks: u64,
    cases: &[ClockCase],
    runs: &[ClockRun],
) -> Result<Option<Divergence>, String> {
    let Some((reference, others)) = runs.split_first() else {
        return Ok(None);
    };
    let differs_at = |o: &ClockRun| {
        reference
            .digests
            .iter()
            .zip(&o.digests)
            .position(|(a, b)| a != b)
    };
    let Some(chunk) = others.iter().filter_map(differs_at).min() else {
        return Ok(None);
    };
    let from = chunk as u64 * DIGEST_EVERY + 1;
    let to = (from + DIGEST_EVERY - 1).min(ticks);
    let hashes_of = |case: &ClockCase| -> Result<Vec<u64>, String> {
        let mut kept = Vec::with_capacity((to + 1 - from) as usize);
        run_case(make, case, to, None, None, &mut |tick, hash| {
            if tick >= from {
                kept.push(hash);
            }
        })?;
        Ok(kept)
    };
    let want = hashes_of(&cases[0])?;
    let mut found: Option<(u64, &ClockRun)> = None;
    for (case, o) in cases[1..].iter().zip(others) {
        if differs_at(o) != Some(chunk) {
            continue;
        }
        let got = hashes_of(case)?;
        let at = want.iter().zip(&got).position(|(a, b)| a != b);
        if let Some(at) = at {
            let tick = from + at as u64;
            if found.is_none_or(|(t, _)| tick < t) {
                found = Some((tick, o));
            }
        }
    }
    Ok(found.map(|(tick, o)| Divergence {
        tick,
        reference: reference.clock.clone(),
        other: o.clock.clone(),
    }))
}

/// The frames the two clocks of `divergence` drew at its tick, with their palettes.
///
/// # Errors
/// As [`verify`].
pub fn divergent_frames(
    make: EngineMaker<'_>,
    cases: &[ClockCase],
    divergence: &Divergence,
) -> Result<[(Framebuffer, Palette); 2], String> {
    let frame = |name: &str| -> Result<(Framebuffer, Palette), String> {
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| format!("no clock '{name}'"))?;
        let (_, kept, _) = run_case(
            make,
            case,
            divergence.tick,
            Some(divergence.tick),
            None,
            &mut |_, _| {},
        )?;
        kept.ok_or_else(|| format!("{name} never reached tick {}", divergence.tick))
    };
    Ok([frame(&divergence.reference)?, frame(&divergence.other)?])
}

type Kept = Option<(Framebuffer, Palette)>;

/// Counts a worker as finished and wakes the thread waiting for it, when dropped.
struct Finished<'a>(&'a AtomicUsize, &'a std::thread::Thread);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
        self.1.unpark();
    }
}

/// Updates a run counts between two additions to the shared progress counter.
const PROGRESS_EVERY_UPDATES: u64 = 64;

/// One case's run of `ticks` updates, summed up as digests of [`DIGEST_EVERY`] hashes.
fn digests_of(
    make: EngineMaker<'_>,
    case: &ClockCase,
    ticks: u64,
    done: &AtomicU64,
) -> Result<ClockRun, String> {
    let started = Instant::now();
    let mut digests = Vec::with_capacity(ticks.div_ceil(DIGEST_EVERY) as usize);
    let mut digest = Digest::new();
    let mut last = 0;
    let (frames, _, quit_at) = run_case(make, case, ticks, None, Some(done), &mut |tick, hash| {
        digest.eat(hash);
        last = tick;
        if tick % DIGEST_EVERY == 0 {
            digests.push(std::mem::replace(&mut digest, Digest::new()).0);
        }
    })?;
    // The last stretch, shorter than the others: up to the run's end or the cart's quit.
    if last % DIGEST_EVERY != 0 {
        digests.push(digest.0);
    }
    Ok(ClockRun {
        clock: case.name.clone(),
        digests,
        frames,
        quit_at,
        elapsed: started.elapsed(),
    })
}

/// FNV-1a 64 over a stretch of frame hashes.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn eat(&mut self, hash: u64) {
        for b in hash.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// One case's run of `ticks` updates, handing `(update, frame hash)` of each update to
/// `each` as it comes (nothing is kept), keeping the frame at tick `keep`, and adding the
/// updates it has done to `done` as it goes. Returns the frames the clock delivered, the
/// frame kept, and the update after which the cart quit, when it quit first (the run ends
/// there).
///
/// # Errors
/// A message naming the clock when it stopped delivering updates or the cart panicked.
fn run_case(
    make: EngineMaker<'_>,
    case: &ClockCase,
    ticks: u64,
    keep: Option<u64>,
    done: Option<&AtomicU64>,
    each: &mut dyn FnMut(u64, u64),
) -> Result<(u64, Kept, Option<u64>), String> {
    let mut engine = make()?;
    // The runs only go forward, several at once: snapshots would cost memory for nothing.
    engine.set_snapshot_budget(0);
    engine.log_hashes(1);
    if let Some(tick) = keep {
        engine.keep_frame_at(tick);
    }
    engine
        .set_host_hz(case.host_hz)
        .map_err(|e| format!("{}: {e}", case.name))?;
    engine.set_clock(
        case.spec
            .build()
            .map_err(|e| format!("{}: {e}", case.name))?,
    );
    let limit = ticks.saturating_mul(HOST_TICKS_PER_UPDATE_LIMIT).max(1024);
    let mut host_ticks = 0;
    let mut frames = 0;
    let mut counted = 0;
    while engine.updates_since_init() < ticks {
        if let Some(done) = done {
            let now = engine.updates_since_init();
            if now - counted >= PROGRESS_EVERY_UPDATES {
                done.fetch_add(now - counted, Ordering::Relaxed);
                counted = now;
            }
        }
        if host_ticks >= limit {
            return Err(format!(
                "{}: only {} of {ticks} updates after {limit} host ticks",
                case.name,
                engine.updates_since_init()
            ));
        }
        frames += engine.advance(1);
        host_ticks += 1;
        for &(tick, hash) in engine.hashes() {
            if tick <= ticks {
                each(tick, hash);
            }
        }
        engine.clear_hashes();
        if let Some(panic) = engine.cart_panic() {
            return Err(format!("under {}: {panic}", case.name));
        }
        if engine.quit_at().is_some() {
            break;
        }
    }
    if let Some(done) = done {
        done.fetch_add(ticks.saturating_sub(counted), Ordering::Relaxed);
    }
    let kept = engine.kept_frame().cloned();
    Ok((frames, kept, engine.quit_at()))
}

/// The two frames side by side, `gap` pixels apart, each shown with its own palette, as RGBA
/// rows: what `bt verify` saves as one PNG. Returns `(width, height, rgba)`.
pub fn side_by_side(a: &(Framebuffer, Palette), b: &(Framebuffer, Palette)) -> (u32, u32, Vec<u8>) {
    const GAP: u32 = 4;
    let (w, h) = (
        a.0.width() + GAP + b.0.width(),
        a.0.height().max(b.0.height()),
    );
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    // The gap and any space below the shorter frame: opaque magenta, which no frame mistakes.
    for px in rgba.chunks_exact_mut(4) {
        px.copy_from_slice(&[255, 0, 255, 255]);
    }
    for ((fb, pal), x0) in [(a, 0), (b, a.0.width() + GAP)] {
        let fw = fb.width() as usize;
        let mut row = vec![0u8; fw * 4];
        for (y, indices) in fb.pixels().chunks_exact(fw.max(1)).enumerate() {
            pal.write_rgba(indices, &mut row);
            let start = (y * w as usize + x0 as usize) * 4;
            rgba[start..start + fw * 4].copy_from_slice(&row);
        }
    }
    (w, h, rgba)
}

/// Where two frames differ: the smallest rectangle holding every pixel whose colour is not the
/// same in both (each through its own palette), and how many such pixels there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DifferingArea {
    /// The rectangle's left column.
    pub x: u32,
    /// The rectangle's top row.
    pub y: u32,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// Pixels inside it that differ.
    pub pixels: u64,
}

impl std::fmt::Display for DifferingArea {
    /// `8x7 px at (12, 5)-(19, 11), 38 pixels differ`: the corners inclusive.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{} px at ({}, {})-({}, {}), {} pixel{} differ{}",
            self.width,
            self.height,
            self.x,
            self.y,
            self.x + self.width - 1,
            self.y + self.height - 1,
            self.pixels,
            if self.pixels == 1 { "" } else { "s" },
            if self.pixels == 1 { "s" } else { "" },
        )
    }
}

/// Each frame's colours, row by row, over the larger of the two sizes; a pixel one frame lacks
/// is `None`, and differs from any colour.
fn colour_at(frame: &(Framebuffer, Palette), x: u32, y: u32) -> Option<u32> {
    let (fb, pal) = frame;
    if x >= fb.width() || y >= fb.height() {
        return None;
    }
    let index = fb.pixels()[(y * fb.width() + x) as usize];
    let mut rgba = [0u8; 4];
    pal.write_rgba(&[index], &mut rgba);
    Some(u32::from_le_bytes(rgba))
}

/// Where `a` and `b` differ ([`DifferingArea`]), or `None` when they show the same picture.
pub fn differing_area(
    a: &(Framebuffer, Palette),
    b: &(Framebuffer, Palette),
) -> Option<DifferingArea> {
    let w = a.0.width().max(b.0.width());
    let h = a.0.height().max(b.0.height());
    let (mut x0, mut y0, mut x1, mut y1, mut pixels) = (u32::MAX, u32::MAX, 0, 0, 0u64);
    for y in 0..h {
        for x in 0..w {
            if colour_at(a, x, y) != colour_at(b, x, y) {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
                pixels += 1;
            }
        }
    }
    (pixels > 0).then(|| DifferingArea {
        x: x0,
        y: y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
        pixels,
    })
}

/// The colour the third picture of [`compared`] marks a differing pixel with: full yellow,
/// which its darkened picture never reaches.
pub const MARK: [u8; 4] = [255, 255, 0, 255];

/// The colour of the rectangle [`compared`] draws one pixel outside the differing area.
pub const MARK_FRAME: [u8; 4] = [0, 255, 255, 255];

/// Each channel of the third picture's background is the reference frame's divided by this,
/// so no pixel of it is as bright as [`MARK`] or [`MARK_FRAME`].
const DARKEN: u8 = 4;

/// What `bt verify` saves on a divergence, as RGBA rows: the two frames side by side (as
/// [`side_by_side`]), then a third picture, the first frame darkened, with every pixel that
/// differs in [`MARK`] and a rectangle of [`MARK_FRAME`] just outside the area that holds
/// them. Returns `(width, height, rgba)` and the area, if any pixel differs.
pub fn compared(
    a: &(Framebuffer, Palette),
    b: &(Framebuffer, Palette),
) -> (u32, u32, Vec<u8>, Option<DifferingArea>) {
    const GAP: u32 = 4;
    let (pair_w, h, pair) = side_by_side(a, b);
    let area = differing_area(a, b);
    let third_w = a.0.width().max(b.0.width());
    let w = pair_w + GAP + third_w;
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    for px in rgba.chunks_exact_mut(4) {
        px.copy_from_slice(&[255, 0, 255, 255]);
    }
    let x0 = pair_w + GAP;
    for y in 0..h {
        let row = (y * w * 4) as usize;
        let from = (y * pair_w * 4) as usize;
        rgba[row..row + (pair_w * 4) as usize]
            .copy_from_slice(&pair[from..from + (pair_w * 4) as usize]);
        for x in 0..third_w {
            let at = row + ((x0 + x) * 4) as usize;
            let px = match (colour_at(a, x, y), colour_at(a, x, y) == colour_at(b, x, y)) {
                (_, false) => MARK,
                (Some(c), true) => {
                    let [r, g, b, _] = c.to_le_bytes();
                    [r / DARKEN, g / DARKEN, b / DARKEN, 255]
                }
                (None, true) => [0, 0, 0, 255],
            };
            rgba[at..at + 4].copy_from_slice(&px);
        }
    }
    if let Some(d) = area {
        // The rectangle one pixel outside the area, clipped to the third picture.
        let (left, top) = (i64::from(d.x) - 1, i64::from(d.y) - 1);
        let (right, bottom) = (i64::from(d.x + d.width), i64::from(d.y + d.height));
        for y in top..=bottom {
            for x in left..=right {
                let edge = x == left || x == right || y == top || y == bottom;
                let inside = (0..i64::from(third_w)).contains(&x) && (0..i64::from(h)).contains(&y);
                if edge && inside {
                    let at = ((y as u32 * w + x0 + x as u32) * 4) as usize;
                    rgba[at..at + 4].copy_from_slice(&MARK_FRAME);
                }
            }
        }
    }
    (w, h, rgba, area)
}

#[cfg(test)]
mod difference_tests {
    use super::*;
    use bt::Rect;

    fn frame(w: u32, h: u32) -> (Framebuffer, Palette) {
        let mut fb = Framebuffer::new(w, h);
        fb.clear(1);
        (fb, Palette::pico8())
    }

    #[test]
    fn a_known_divergence_gives_its_bounding_box() {
        let a = frame(64, 32);
        let mut b = frame(64, 32);
        // An 8x7 area at (20, 9), with only its corners and one middle pixel changed.
        for (x, y) in [(20, 9), (27, 9), (20, 15), (27, 15), (23, 12)] {
            b.0.draw_pixel(x, y, 8);
        }
        let area = differing_area(&a, &b).unwrap();
        assert_eq!(
            area,
            DifferingArea {
                x: 20,
                y: 9,
                width: 8,
                height: 7,
                pixels: 5
            }
        );
        assert_eq!(
            area.to_string(),
            "8x7 px at (20, 9)-(27, 15), 5 pixels differ"
        );
        assert_eq!(differing_area(&a, &a.clone()), None);
    }

    #[test]
    fn the_same_colour_from_another_slot_is_no_difference() {
        let a = frame(8, 8);
        let mut b = frame(8, 8);
        let mut pal = Palette::pico8();
        // Slot 9 made the colour of slot 1: drawn with 9, the picture is the same.
        pal.set(9, pal.get(1).unwrap()).unwrap();
        b.1 = pal;
        b.0.draw_rect_fill(Rect::new(0, 0, 8, 8), 9);
        assert_eq!(differing_area(&a, &b), None);
    }

    #[test]
    fn the_third_picture_marks_exactly_the_differing_pixels_and_frames_them() {
        let a = frame(32, 16);
        let mut b = frame(32, 16);
        b.0.draw_rect_fill(Rect::new(10, 4, 3, 2), 8);
        let (w, h, rgba, area) = compared(&a, &b);
        assert_eq!((w, h), (32 * 3 + 8, 16));
        let area = area.unwrap();
        assert_eq!((area.x, area.y, area.width, area.height), (10, 4, 3, 2));
        let px = |x: u32, y: u32| {
            let at = ((y * w + 32 * 2 + 8 + x) * 4) as usize;
            [rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]]
        };
        for y in 0..16 {
            for x in 0..32 {
                let differs = (10..13).contains(&x) && (4..6).contains(&y);
                let framed = (9..=13).contains(&x) && (3..=6).contains(&y) && !differs;
                let want = if differs {
                    Some(MARK)
                } else if framed {
                    Some(MARK_FRAME)
                } else {
                    None
                };
                match want {
                    Some(c) => assert_eq!(px(x, y), c, "({x}, {y})"),
                    None => assert!(
                        px(x, y)[..3].iter().all(|&c| c < 255 / DARKEN + 1),
                        "({x}, {y}) is darkened"
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod quit_tests {
    use super::*;
    use crate::engine::EngineOptions;
    use bt::{Cart, Render, Update};
    use std::cell::Cell;

    /// Quits in update `at`; with `renders`, once it has been drawn that many times instead
    /// (which depends on the clock).
    struct Quitter {
        updates: u64,
        at: u64,
        renders: Option<(u64, Cell<u64>)>,
    }

    impl Cart for Quitter {
        fn update(&mut self, ctx: &mut Update<'_>) {
            self.updates += 1;
            let drawn = self.renders.as_ref().is_some_and(|(n, c)| c.get() >= *n);
            if (self.renders.is_none() && self.updates == self.at) || drawn {
                ctx.quit();
            }
        }
        fn render(&self, ctx: &mut Render<'_>) {
            if let Some((_, c)) = &self.renders {
                c.set(c.get() + 1);
            }
            ctx.clear((self.updates % 16) as u8);
        }
    }

    fn maker(at: u64, renders: Option<u64>) -> impl Fn() -> Result<Engine, String> + Sync {
        move || {
            let options = EngineOptions {
                overlay: false,
                ..EngineOptions::default()
            };
            let cart = move || -> Box<dyn Cart> {
                Box::new(Quitter {
                    updates: 0,
                    at,
                    renders: renders.map(|n| (n, Cell::new(0))),
                })
            };
            Engine::new(Box::new(cart), options).map_err(|e| e.to_string())
        }
    }

    #[test]
    fn a_cart_that_quits_is_verified_up_to_the_update_that_quit() {
        let make = maker(60, None);
        let verdict = verify(&make, 300, &standard_clocks(60.0), 2).unwrap();
        assert_eq!(verdict.quit_at, Some(60));
        assert_eq!(verdict.divergence, None);
        for run in &verdict.runs {
            assert_eq!(run.quit_at, Some(60), "{}", run.clock);
            assert_eq!(run.digests.len(), 1, "{}", run.clock);
        }
    }

    #[test]
    fn a_cart_whose_quit_depends_on_the_clock_is_named_with_both_updates() {
        let make = maker(0, Some(40));
        let err = verify(&make, 300, &standard_clocks(60.0), 2).unwrap_err();
        assert!(err.starts_with("the cart quit after update "), "{err}");
        assert!(err.ends_with("when it quits depends on timing"), "{err}");
    }
}
