//! Invariants of the fixed-step loop for any sequence of frame times.

use bt_runtime::{FixedLoop, TickAction, MAX_STEPS};
use proptest::prelude::*;

proptest! {
    #[test]
    fn time_is_conserved_and_bounds_hold(
        fps in prop::sample::select(vec![24.0, 30.0, 50.0, 60.0, 120.0, 144.0]),
        deltas in prop::collection::vec(0.0f64..400.0, 1..300),
    ) {
        let mut lp = FixedLoop::new(fps).unwrap();
        let interval = 1000.0 / fps;
        let (mut put_in, mut thrown_away, mut ran) = (0.0, 0.0, 0u64);
        for d in deltas {
            put_in += lp.snap(d);
            let mut calls = 0u32;
            let t = lp.frame(d, |_| { calls += 1; TickAction::Advance });
            prop_assert_eq!(calls, t.updates);
            prop_assert!(t.updates <= MAX_STEPS);
            prop_assert!((0.0..1.0).contains(&t.render_alpha), "alpha {}", t.render_alpha);
            prop_assert_eq!(t.clamped, t.discarded_ms > 0.0);
            thrown_away += t.discarded_ms;
            ran += u64::from(t.updates);
            // Whatever went in is either run, thrown away, or still waiting.
            let waiting = put_in - thrown_away - ran as f64 * interval;
            prop_assert!((waiting - lp.accumulator_ms()).abs() < 1e-6 * (1.0 + put_in),
                "waiting {} vs accumulator {}", waiting, lp.accumulator_ms());
            prop_assert!(lp.accumulator_ms() < interval);
        }
        prop_assert_eq!(lp.ticks(), ran);
    }

    #[test]
    fn a_frame_of_whole_intervals_runs_exactly_that_many(k in 1u32..=8, fps in 10.0f64..240.0) {
        let mut lp = FixedLoop::new(fps).unwrap();
        let t = lp.frame(f64::from(k) * 1000.0 / fps, |_| TickAction::Advance);
        prop_assert_eq!(t.updates, k);
        prop_assert!(!t.clamped);
    }
}
