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

use bt::host::{Input, Source, TickInput};
use bt::{Framebuffer, Key, Palette};

use crate::clock::spec::ClockSpec;
use crate::engine::Engine;
use crate::replay::{Recorder, Replay, ReplayInfo};

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

/// A seeded pseudo-random input script of `ticks` updates: the d-pad and face buttons pressed,
/// held and let go, keys tapped, the pointer moved and clicked, text typed now and then. The
/// same seed always gives the same script.
pub fn input_script(seed: u64, ticks: u64) -> Recorder {
    let mut rng = SplitMix(seed ^ 0x5eed_1e55);
    let mut input = Input::default();
    let mut rec = Recorder::new();
    let buttons = [
        bt::BTN_UP,
        bt::BTN_DOWN,
        bt::BTN_LEFT,
        bt::BTN_RIGHT,
        bt::BTN_A,
        bt::BTN_B,
    ];
    let keys = [
        Key::ArrowUp,
        Key::ArrowDown,
        Key::ArrowLeft,
        Key::ArrowRight,
        Key::Space,
        Key::KeyZ,
        Key::KeyX,
        Key::Enter,
    ];
    let mut pointer = (0i32, 0i32);
    for _ in 0..ticks {
        // About one change every eight ticks: holds long enough to matter, taps too.
        if rng.below(8) == 0 {
            let b = buttons[rng.below(buttons.len() as u64) as usize];
            let down = rng.below(2) == 0;
            input.set_buttons_from(Source::Keyboard, 0, b, down);
        }
        if rng.below(16) == 0 {
            let k = keys[rng.below(keys.len() as u64) as usize];
            input.set_key(k, !input.key_held_now(k));
        }
        if rng.below(6) == 0 {
            pointer.0 = (pointer.0 + rng.below(17) as i32 - 8).clamp(0, 255);
            pointer.1 = (pointer.1 + rng.below(17) as i32 - 8).clamp(0, 255);
            input.set_pointer_pos(pointer.0, pointer.1);
        }
        if rng.below(40) == 0 {
            let down = input.held_from(Source::Pointer, 0) == 0;
            input.set_buttons_from(Source::Pointer, 0, bt::BTN_POINTER_A, down);
        }
        if rng.below(200) == 0 {
            input.push_text("bt");
        }
        input.begin_update();
        let tick: TickInput = input.visible();
        rec.record(&tick);
    }
    rec
}

/// The script as a replay of `cart`, ready for [`crate::EngineOptions::replay`].
pub fn script_replay(cart: &str, seed: u64, target_fps: f64, recording: Recorder) -> Replay {
    let info = ReplayInfo {
        cart: cart.to_string(),
        cart_version: None,
        seed,
        target_fps,
        width: 0,
        height: 0,
        args: Vec::new(),
        hash_every: 1,
    };
    Replay::new(info, recording, Vec::new())
}

/// SplitMix64: small, seeded, and the same everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One clock's run: the frame hash after every tick.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockRun {
    /// The clock's name.
    pub clock: String,
    /// The hash after update `i + 1`.
    pub hashes: Vec<u64>,
    /// Frames the clock delivered.
    pub frames: u64,
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
}

/// Builds an engine for one run; called once per run, on the run's own thread.
pub type EngineMaker<'a> = &'a (dyn Fn() -> Result<Engine, String> + Sync);

/// How often [`verify_with_progress`] reports how far the runs have come.
const PROGRESS_PERIOD: Duration = Duration::from_millis(100);

/// Runs `ticks` updates under every case (the first is the reference), hashing the frame after
/// each, on up to `threads` threads; the engines come from `make` with their input already set
/// (a replay in their options).
///
/// # Errors
/// The first error of `make`, or a message naming a clock that stopped delivering updates or
/// under which the cart panicked (the panic's call, tick, message and place).
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
                    let run =
                        run_case(make, case, ticks, None, Some(&updates_done)).map(|(run, _)| run);
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
    let divergence = runs.split_first().and_then(|(reference, others)| {
        others
            .iter()
            .filter_map(|o| {
                let at = reference
                    .hashes
                    .iter()
                    .zip(&o.hashes)
                    .position(|(a, b)| a != b)?;
                Some((at as u64 + 1, o))
            })
            .min_by_key(|(tick, _)| *tick)
            .map(|(tick, o)| Divergence {
                tick,
                reference: reference.clock.clone(),
                other: o.clock.clone(),
            })
    });
    Ok(Verdict { runs, divergence })
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
        let (_, kept) = run_case(make, case, divergence.tick, Some(divergence.tick), None)?;
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

/// One case's run of `ticks` updates, keeping the frame at tick `keep`, and adding the updates
/// it has done to `done` as it goes.
fn run_case(
    make: EngineMaker<'_>,
    case: &ClockCase,
    ticks: u64,
    keep: Option<u64>,
    done: Option<&AtomicU64>,
) -> Result<(ClockRun, Kept), String> {
    let started = Instant::now();
    let mut engine = make()?;
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
        if let Some(panic) = engine.cart_panic() {
            return Err(format!("under {}: {panic}", case.name));
        }
    }
    if let Some(done) = done {
        done.fetch_add(ticks.saturating_sub(counted), Ordering::Relaxed);
    }
    let hashes = engine
        .hashes()
        .iter()
        .take(ticks as usize)
        .map(|&(_, h)| h)
        .collect();
    let kept = engine.kept_frame().cloned();
    Ok((
        ClockRun {
            clock: case.name.clone(),
            hashes,
            frames,
            elapsed: started.elapsed(),
        },
        kept,
    ))
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
