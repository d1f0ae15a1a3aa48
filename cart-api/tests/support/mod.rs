//! What the sound tests share.

use bt::host::Console;
use bt::sound::Frame;
use bt::Update;

/// Runs the updates `ticks` on `con`, calling `calls` in each, and returns the frames of sound
/// they made.
pub fn run(
    con: &mut Console,
    ticks: std::ops::Range<u64>,
    mut calls: impl FnMut(&mut Update<'_>, u64),
) -> Vec<Frame> {
    let mut out = Vec::new();
    for tick in ticks {
        let mut ctx = con.update_context(tick);
        calls(&mut ctx, tick);
        con.step_sound();
        out.extend(con.drain_frames());
    }
    out
}
