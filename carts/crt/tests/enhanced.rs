//! The enhanced scene's state machine, through the cart harness: the signal goes steady,
//! warning, burst, recovery and steady again, each state sets the effects it names, and a
//! seeded run repeats its glitches exactly.

use bt::{Effect, EffectKind};
use bt_cart_crt::Crt;
use bt_runtime::harness::CartTest;

/// Each update's signal state and the glitch and interference it set, for `ticks` updates.
fn states(ticks: u64) -> Vec<(String, Option<Effect>, Option<Effect>)> {
    let mut t = CartTest::with_args(Crt::default, &[("scene", "enhanced")]).unwrap();
    (0..ticks)
        .map(|_| {
            t.run(1);
            let state = t.test_state().unwrap();
            let fx = t.engine_mut().console().post_effects();
            (
                state,
                fx.get(EffectKind::Glitch),
                fx.get(EffectKind::Interference),
            )
        })
        .collect()
}

#[test]
fn the_signal_goes_round_its_states_and_each_sets_its_effects() {
    let run = states(900);
    // The order the states come in, each once per spell.
    let mut order: Vec<&str> = Vec::new();
    for (state, ..) in &run {
        if order.last() != Some(&state.as_str()) {
            order.push(state);
        }
    }
    assert!(
        order.len() >= 5,
        "fewer than a whole round in 15 s: {order:?}"
    );
    let round = ["STEADY", "WARNING", "BURST", "RECOVERY"];
    for (i, state) in order.iter().enumerate() {
        assert_eq!(*state, round[i % 4], "state {i} of {order:?}");
    }
    for (state, glitch, interference) in &run {
        let glitch_chance = match glitch {
            Some(Effect::Glitch { chance, .. }) => *chance,
            other => panic!("{state}: glitch {other:?}"),
        };
        let jitter = match interference {
            Some(Effect::Interference { amount }) => *amount,
            other => panic!("{state}: interference {other:?}"),
        };
        match state.as_str() {
            "STEADY" => assert_eq!((glitch_chance, jitter), (0, 0.0)),
            "WARNING" => assert_eq!((glitch_chance, jitter), (0, 0.01)),
            "BURST" => assert_eq!((glitch_chance, jitter), (255, 0.04)),
            _ => assert!(glitch_chance == 0 && jitter <= 0.04, "{state}"),
        }
    }
}

#[test]
fn a_seeded_run_repeats_its_glitches() {
    assert_eq!(states(600), states(600));
}
