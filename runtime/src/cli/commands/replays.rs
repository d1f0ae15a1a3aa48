//! Replays and proofs: `bt replay`, `bt verify`.

use std::path::Path;
use std::sync::Arc;

use crate::cli::args::{CartArgs, ReplayArgs, VerifyArgs};
use crate::cli::progress::Progress;
use crate::cli::Offer;

use super::*;

use crate::export::safe_write::write_atomically;
use crate::verify;
use crate::Engine;

pub(super) fn replay(offer: &Offer, args: ReplayArgs) -> Result<(), String> {
    let (cart, file) = match args.paths.as_slice() {
        [file] => (None, file),
        [cart, file] => (Some(cart.clone()), file),
        _ => return Err("give the cart and the replay file".to_string()),
    };
    let path = Path::new(file);
    let cart_args = CartArgs {
        cart,
        seed: None,
        fps: None,
        args: Vec::new(),
        save: args.save.clone(),
        // The replay boots with the recorded run's preference, and its updates carry theirs.
        reduced_motion: false,
    };
    if !args.verify {
        return replay_in_window(offer, cart_args, path);
    }
    let (mut engine, session) = engine(offer, &cart_args, false, None, Some(path))?;
    let replay = engine
        .replay()
        .cloned()
        .ok_or_else(|| "no replay".to_string())?;
    let ticks = replay.ticks();
    if ticks > crate::engine::MAX_SEEK_UPDATES {
        return Err(format!(
            "{}: a replay of {ticks} updates; --verify replays at most {} (as one seek does)",
            crate::quote::path(path),
            crate::engine::MAX_SEEK_UPDATES
        ));
    }
    let stepped = engine.step(ticks);
    if let Some(m) = replay.first_mismatch(engine.hashes()) {
        let shot = crate::cli::hint::shot_of_replay(
            &offer.program(),
            session.name(),
            &path.to_string_lossy(),
            m.tick as f64 / replay.info.target_fps,
        );
        return Err(format!(
            "{}: the frame after update {} differs from the recording (hash {:016x}, recorded \
             {:016x}); `{shot}` shows it",
            crate::quote::path(path),
            m.tick,
            m.actual,
            m.expected,
        ));
    }
    let compared = replay.hashes_up_to(engine.updates_since_init());
    let played = engine.updates_since_init();
    match (replay.panic(), engine.cart_panic(), stepped) {
        (None, None, Ok(())) => say(format_args!(
            "{}: {ticks} updates replayed, all {compared} frame hashes match{}\n",
            crate::quote::path(path),
            engine.quit_at().map_or(String::new(), |at| format!(
                "; the cart quit after update {at}"
            )),
        )),
        (Some(recorded), Some(now), _) if recorded.matches(now, played) => Err(format!(
            "{}: the recording ended in a panic, and replaying it reproduces it \
             ({compared} frame hashes match before it): {recorded}",
            crate::quote::path(path),
        )),
        (Some(recorded), Some(now), _) => Err(format!(
            "{}: the recording ended in a panic ({recorded}), but replaying it panicked \
             differently after {played} updates: {now}",
            crate::quote::path(path),
        )),
        (Some(recorded), None, _) => Err(format!(
            "{}: the recording ended in a panic ({recorded}), but replaying its {ticks} updates \
             did not panic: the build does not reproduce it",
            crate::quote::path(path),
        )),
        (None, Some(now), _) => Err(format!(
            "{}: replaying it, after {played} updates: {now}",
            crate::quote::path(path)
        )),
        (None, None, Err(e)) => Err(format!("{}: {e}", crate::quote::path(path))),
    }
}

#[cfg(feature = "window")]
pub(super) fn replay_in_window(offer: &Offer, cart: CartArgs, path: &Path) -> Result<(), String> {
    let (engine, session) = engine(offer, &cart, true, None, Some(path))?;
    // A replay plays what was recorded: its assets are not reloaded as it goes.
    let options = crate::host::window::WindowOptions {
        no_watch: true,
        ..crate::host::window::WindowOptions::default()
    };
    crate::host::window::run_cart(engine, &session, &options)
}

#[cfg(not(feature = "window"))]
pub(super) fn replay_in_window(_: &Offer, _: CartArgs, _: &Path) -> Result<(), String> {
    Err("this bt has no window; `bt replay --verify` plays a replay headless".to_string())
}

/// Updates `bt verify` checks without `--seconds` and `--input`: 10 s.
pub(super) const VERIFY_DEFAULT_SECONDS: f64 = 10.0;

pub(super) fn verify(offer: &Offer, args: VerifyArgs) -> Result<(), String> {
    let input = args.input.input.as_deref();
    if let (Some(first), Some(second)) = (input, &args.against) {
        return compare_replays(offer, &args.cart, first, second);
    }
    let (first, mut session) = engine(offer, &args.cart, false, None, input)?;
    let fps = first.settings().target_fps;
    // `--seconds` as updates, by the rule every seek counts with.
    let asked = args
        .seconds
        .map(|s| {
            let ticks = first.tick_at(s);
            ticks.map_err(|e| format!("--seconds {}: {e}", crate::quote::number(s)))
        })
        .transpose()?;
    let replay = match first.replay() {
        Some(r) => r.clone(),
        None => {
            let ticks = match asked {
                Some(ticks) => ticks,
                None => first
                    .tick_at(VERIFY_DEFAULT_SECONDS)
                    .map_err(|e| e.to_string())?,
            };
            let mut script = crate::replay::script_replay(session.name(), first.seed(), fps, ticks);
            // `--reduced-motion` holds in every clock's run.
            script.info.reduced_motion = first.console().input().reduced_motion_at_boot();
            script
        }
    };
    let ticks = match asked {
        Some(ticks) => ticks.min(replay.ticks().max(1)),
        None => replay.ticks(),
    };
    if ticks == 0 {
        return Err("nothing to verify: 0 updates".to_string());
    }
    if ticks > verify::MAX_VERIFY_UPDATES {
        let asked = match (args.seconds, input) {
            (Some(s), _) => format!("--seconds {}", crate::quote::number(s)),
            (None, Some(path)) => format!("{} ({} updates)", crate::quote::path(path), ticks),
            (None, None) => "the default length".to_string(),
        };
        return Err(format!(
            "{asked}: {ticks} updates; bt verify runs at most {} under each clock ({} s at {} \
             updates a second)",
            verify::MAX_VERIFY_UPDATES,
            crate::quote::number(verify::MAX_VERIFY_UPDATES as f64 / fps),
            crate::quote::number(fps)
        ));
    }
    let recorded_panic = replay.panic().cloned();
    drop(first);
    let name = session.name().to_string();
    // Every clock's run boots as the first engine did (the seed, the arguments, `--save` or
    // the replay's save data) and plays the same input.
    if session.replay().is_none() {
        session.set_replay(Arc::new(replay));
    }
    // Every engine boots through the session, as every front end's does; the verdict names
    // the cart once, so the engine's own error is kept without the session's prefix.
    let make = move || -> Result<Engine, String> {
        session.engine().map_err(|e| match e {
            crate::session::SessionError::Engine { error, .. } => error.to_string(),
            other => other.to_string(),
        })
    };
    let cases = verify::standard_clocks(fps);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let started = std::time::Instant::now();
    let mut progress = Progress::new(
        format!("checking {} clocks", cases.len()),
        args.progress.quiet,
    );
    if let (Some(recorded), Some(path)) = (&recorded_panic, input) {
        note(format_args!(
            "{}: the recording ended in a panic: {recorded}",
            crate::quote::path(path)
        ));
    }
    let verdict =
        verify::verify_with_progress(&make, ticks, &cases, threads, &mut |done, total| {
            progress.set(done, total);
        })
        .map_err(|e| format!("cart '{name}': {e}"))?;
    drop(progress);
    // A cart that quit ended every run there: the updates that ran are those verified.
    if let Some(at) = verdict.quit_at {
        note(format_args!(
            "the cart quit after update {at} ({} s): the runs end there, and the {at} updates \
             that ran are verified",
            crate::quote::number(at as f64 / fps)
        ));
    }
    let ticks = verdict.quit_at.unwrap_or(ticks);
    let mut text = format!(
        "{}: {ticks} updates ({:.1} s) under {} clocks, the frame hashed after every update\n",
        name,
        ticks as f64 / fps,
        cases.len()
    );
    for run in &verdict.runs {
        text.push_str(&format!(
            "  {:<24} {:>7} frames  {:>8.2} s\n",
            run.clock,
            run.frames,
            run.elapsed.as_secs_f64()
        ));
    }
    let Some(d) = verdict.divergence else {
        text.push_str(&format!(
            "every clock drew the same frame at every tick ({:.2} s)\n",
            started.elapsed().as_secs_f64()
        ));
        return say(format_args!("{text}"));
    };
    say(format_args!("{text}"))?;
    let out = args
        .diff
        .unwrap_or_else(|| format!("{name}-divergence.png").into());
    let frames = verify::divergent_frames(&make, &cases, &d)?;
    let area = save_compared(&frames, &out)?;
    let area = area.map_or_else(
        || "the same colours, from different palette slots".to_string(),
        |a| a.to_string(),
    );
    Err(format!(
        "the frames differ after update {} ({:.3} s): {} and {} drew different pictures, \
         {area} (left and right in {}, the differing pixels marked in yellow on the third); \
         the cart depends on timing",
        d.tick,
        d.tick as f64 / fps,
        d.reference,
        d.other,
        crate::quote::path(&out)
    ))
}

/// `bt verify --input FIRST --against SECOND`: the two recordings compared update by update
/// ([`crate::replay::compare`]), each read and checked against the cart as `--input` is.
fn compare_replays(
    offer: &Offer,
    cart: &CartArgs,
    first: &Path,
    second: &Path,
) -> Result<(), String> {
    let read = |path: &Path| -> Result<Arc<crate::replay::Replay>, String> {
        let session = session(offer, cart, false, None, Some(path), boot_save(cart, false))?;
        session
            .replay()
            .cloned()
            .ok_or_else(|| format!("{}: no replay", crate::quote::path(path)))
    };
    let (a, b) = (read(first)?, read(second)?);
    let (name_a, name_b) = (crate::quote::path(first), crate::quote::path(second));
    let agreed = crate::replay::compare(&a, &b).map_err(|d| d.describe(&name_a, &name_b))?;
    let hashes = match agreed.hashes {
        1 => "1 frame hash compared".to_string(),
        n => format!("{n} frame hashes compared"),
    };
    if agreed.first == agreed.second {
        say(format_args!(
            "{name_a} and {name_b} agree on all {} updates ({hashes})\n",
            agreed.first
        ))
    } else {
        say(format_args!(
            "{name_a} has {} updates, {name_b} {}: the {} they share agree ({hashes})\n",
            agreed.first,
            agreed.second,
            agreed.shared()
        ))
    }
}

/// Saves the two frames and the picture marking where they differ ([`verify::compared`]) as
/// one PNG at `path`; returns the area that differs.
pub(super) fn save_compared(
    frames: &[(bt::host::Framebuffer, bt::Palette); 2],
    path: &Path,
) -> Result<Option<verify::DifferingArea>, String> {
    let (w, h, rgba, area) = verify::compared(&frames[0], &frames[1]);
    let png = crate::export::png::encode_rgba_png(&rgba, w, h)
        .map_err(|e| format!("{}: {e}", crate::quote::path(path)))?;
    write_atomically(path, &png).map_err(|e| e.to_string())?;
    Ok(area)
}
