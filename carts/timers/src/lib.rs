//! `timers`: tick-based timers, chart tags and `reset_ticks`.
//!
//! Three timers fire every 20, 45 and 120 ticks; each draws a bar of the ticks it has left and
//! counts its fires. The 120-tick timer tags the overlay's timing chart. Every 600 ticks (ten
//! seconds at 60 updates a second) a round ends: the cart tags it and resets the tick counter,
//! and the timers, seeing the counter go back, re-base themselves.

use bt::{Cart, CartError, Rect, Render, Settings, Timer, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "three Timers, overlay tags and reset_ticks every 600 ticks";

/// Ticks in a round.
pub const ROUND_TICKS: u64 = 600;

const INTERVALS: [u64; 3] = [20, 45, 120];
const COLORS: [u8; 3] = [8, 11, 12];

/// The cart's state.
#[derive(Debug, Clone, Default)]
pub struct Timers {
    timers: Vec<Timer>,
    fires: [u32; 3],
    flash: [u64; 3],
    round: u32,
}

/// A fresh `timers` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Timers::default())
}

impl Cart for Timers {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Timers").timing_chart(true)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.timers = INTERVALS
            .iter()
            .map(|&i| Timer::new(i, ctx.ticks()))
            .collect::<Result<_, _>>()?;
        self.round = 1;
        ctx.assign_tag("Round 1");
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        for (i, timer) in self.timers.iter_mut().enumerate() {
            if timer.fire_if_elapsed(ctx.ticks()) {
                self.fires[i] += 1;
                self.flash[i] = 6;
                if i == 2 {
                    ctx.assign_tag("Wave");
                }
            } else {
                self.flash[i] = self.flash[i].saturating_sub(1);
            }
        }
        if ctx.ticks() + 1 == ROUND_TICKS {
            self.round += 1;
            ctx.reset_ticks();
            let label = ["Round 2", "Round 3", "Round 4+"][(self.round as usize - 2).min(2)];
            ctx.assign_tag(label);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let ticks = ctx.ticks();
        ctx.print(
            8,
            8,
            format_args!("round {}  tick {:>3}", self.round, ticks),
            7,
        );
        ctx.print(8, 22, format_args!("time {:.2} s", ctx.time_seconds()), 6);
        for (i, timer) in self.timers.iter().enumerate() {
            let y = 60 + i as i32 * 40;
            let interval = timer.interval_ticks();
            let left = timer.remaining_ticks(ticks);
            ctx.print(
                8,
                y,
                format_args!("every {interval:>3}  fired {:>3}", self.fires[i]),
                7,
            );
            let full = 200;
            let filled = (full as u64 * (interval - left) / interval) as i32;
            let bar = Rect::new(8, y + 16, full, 10);
            ctx.draw_rect_fill(Rect::new(bar.x, bar.y, filled, bar.h), COLORS[i]);
            ctx.draw_rect(bar, 5);
            if self.flash[i] > 0 {
                ctx.draw_rect_fill(Rect::new(220, y + 12, 18, 18), 10);
            }
        }
        let round_left = ROUND_TICKS.saturating_sub(ticks);
        ctx.print(8, 200, format_args!("next round in {round_left} ticks"), 13);
    }
}
