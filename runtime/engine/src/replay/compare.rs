//! Two recordings of one run, compared update by update: the two peers of a netplay session,
//! or a run recorded twice. They agree when they start alike (the same cart, seed, arguments,
//! rate, display and save data) and, on every update both hold, saw the same input and stored
//! the same frame hash wherever both stored one.

use std::fmt;

use bt::host::{TickButtons, TickInput};
use bt::limits::PLAYERS;

use super::Replay;

/// The buttons' names, by bit, as a cart names them (`Button::A` is `A`).
const BUTTON_NAMES: [&str; bt::host::BUTTON_COUNT] = [
    "UP",
    "DOWN",
    "LEFT",
    "RIGHT",
    "A",
    "B",
    "X",
    "Y",
    "L",
    "R",
    "START",
    "SELECT",
    "POINTER_A",
    "POINTER_B",
    "POINTER_C",
    "POINTER_D",
    "L2",
    "R2",
];

/// Two recordings that agree on every update they share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    /// Updates the first holds.
    pub first: u64,
    /// Updates the second holds.
    pub second: u64,
    /// Frame hashes compared: those both stored for the same update.
    pub hashes: usize,
}

impl Agreement {
    /// Updates both hold.
    pub fn shared(&self) -> u64 {
        self.first.min(self.second)
    }
}

/// Where two recordings first part.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Difference {
    /// They are not runs of the same start: `field` is the first header field that differs,
    /// with each one's value.
    Start {
        /// The field (`seed`, `cart arguments`, ...).
        field: &'static str,
        /// Its value in the first.
        first: String,
        /// Its value in the second.
        second: String,
    },
    /// Update `update` (counted from 1) saw other input.
    Input {
        /// The update.
        update: u64,
        /// What differs.
        what: InputDifference,
    },
    /// The frame after update `update` has another hash in each.
    Hash {
        /// The update.
        update: u64,
        /// The first's hash.
        first: u64,
        /// The second's hash.
        second: u64,
    },
}

/// What differs in one update's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputDifference {
    /// A player's buttons: `held`, `pressed` or `released`, as bits ([`bt::Button::bits`]).
    Buttons {
        /// The player, from 0.
        player: usize,
        /// `holds`, `presses` or `releases`.
        verb: &'static str,
        /// The first's buttons.
        first: u32,
        /// The second's.
        second: u32,
    },
    /// Another part of the input, named (`the keys`, `player 2's axes`, ...).
    Other(&'static str),
}

/// A set of buttons as a message names them: `A+LEFT`, or `nothing`.
pub struct ButtonNames(pub u32);

impl fmt::Display for ButtonNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 & bt::Button::ALL.bits() == 0 {
            return f.write_str("nothing");
        }
        let mut names = BUTTON_NAMES
            .iter()
            .enumerate()
            .filter(|(bit, _)| self.0 & (1 << bit) != 0)
            .map(|(_, name)| name);
        if let Some(first) = names.next() {
            f.write_str(first)?;
        }
        names.try_for_each(|name| write!(f, "+{name}"))
    }
}

impl Difference {
    /// The difference in one line, the recordings called `first` and `second` (their file
    /// names).
    pub fn describe(&self, first: &str, second: &str) -> String {
        match self {
            Difference::Start {
                field,
                first: a,
                second: b,
            } => format!(
                "{first} and {second} are not recordings of one run: {field} {a} in {first}, \
                 {b} in {second}"
            ),
            Difference::Input {
                update,
                what:
                    InputDifference::Buttons {
                        player,
                        verb,
                        first: a,
                        second: b,
                    },
            } => format!(
                "{first} and {second} differ at update {update}: player {} {verb} {} in \
                 {first}, {} in {second}",
                player + 1,
                ButtonNames(*a),
                ButtonNames(*b)
            ),
            Difference::Input {
                update,
                what: InputDifference::Other(what),
            } => format!(
                "{first} and {second} differ at update {update}, in {what} (the buttons \
                 agree)"
            ),
            Difference::Hash {
                update,
                first: a,
                second: b,
            } => format!(
                "{first} and {second} differ after update {update}: the same input, but the \
                 frame hash {a:016x} in {first}, {b:016x} in {second}"
            ),
        }
    }
}

/// Compares `first` and `second` update by update: the first difference in their start, in an
/// update's input (before the frame hash after that update), or in a frame hash both stored;
/// else how far they agree. Walks their runs of identical input, not every update, so it is
/// quick for any length.
///
/// # Errors
/// The first [`Difference`].
pub fn compare(first: &Replay, second: &Replay) -> Result<Agreement, Difference> {
    start_difference(first, second).map_or(Ok(()), Err)?;
    let shared = first.ticks().min(second.ticks());
    let input = first_input_difference(first, second, shared);
    let hash = first_hash_difference(first, second, shared);
    // An update's input comes before the frame hash taken after it.
    match (input, hash) {
        (Some(i), Some(h)) if h.0 < i.0 => Err(hash_difference(h)),
        (Some((update, what)), _) => Err(Difference::Input { update, what }),
        (None, Some(h)) => Err(hash_difference(h)),
        (None, None) => Ok(Agreement {
            first: first.ticks(),
            second: second.ticks(),
            hashes: shared_hashes(first, second, shared),
        }),
    }
}

fn hash_difference((update, first, second): (u64, u64, u64)) -> Difference {
    Difference::Hash {
        update,
        first,
        second,
    }
}

/// The first header field the two differ in.
fn start_difference(first: &Replay, second: &Replay) -> Option<Difference> {
    let (a, b) = (&first.info, &second.info);
    let differ = |field: &'static str, first: String, second: String| {
        (first != second).then_some(Difference::Start {
            field,
            first,
            second,
        })
    };
    let args = |r: &Replay| {
        let args: Vec<String> = r
            .info
            .args
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("[{}]", args.join(" "))
    };
    // The save data's length, and its first byte that differs from the other's.
    let (save_a, save_b) = (first.boot_save(), second.boot_save());
    let differing = save_a.iter().zip(save_b).position(|(x, y)| x != y);
    let save = |bytes: &[u8]| match (bytes.len(), differing) {
        (0, _) => "none".to_string(),
        (n, Some(i)) => format!("{n} bytes, byte {i} {:#04x}", bytes[i]),
        (n, None) => format!("{n} bytes"),
    };
    differ(
        "cart",
        a.cart.to_ascii_lowercase(),
        b.cart.to_ascii_lowercase(),
    )
    .or_else(|| {
        let version = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_string());
        differ(
            "cart version",
            version(&a.cart_version),
            version(&b.cart_version),
        )
    })
    .or_else(|| differ("seed", a.seed.to_string(), b.seed.to_string()))
    .or_else(|| {
        differ(
            "updates a second",
            a.target_fps.to_string(),
            b.target_fps.to_string(),
        )
    })
    .or_else(|| {
        differ(
            "display",
            format!("{}x{}", a.width, a.height),
            format!("{}x{}", b.width, b.height),
        )
    })
    .or_else(|| differ("cart arguments", args(first), args(second)))
    .or_else(|| differ("save data", save(save_a), save(save_b)))
    .or_else(|| {
        differ(
            "reduced motion at boot",
            a.reduced_motion.to_string(),
            b.reduced_motion.to_string(),
        )
    })
}

/// The first of the `shared` updates whose input differs, and what differs, walking both
/// recordings' runs side by side.
fn first_input_difference(
    first: &Replay,
    second: &Replay,
    shared: u64,
) -> Option<(u64, InputDifference)> {
    let mut a = first.recording().each_run();
    let mut b = second.recording().each_run();
    let (mut run_a, mut run_b) = (a.next()?, b.next()?);
    // Updates before the current runs' overlap starts.
    let mut at = 0u64;
    while at < shared {
        if run_a.0 != run_b.0 {
            return Some((at + 1, input_difference(&run_a.0, &run_b.0)));
        }
        let step = run_a.1.min(run_b.1);
        at += step;
        run_a.1 -= step;
        run_b.1 -= step;
        if run_a.1 == 0 {
            run_a = a.next()?;
        }
        if run_b.1 == 0 {
            run_b = b.next()?;
        }
    }
    None
}

/// What differs between two ticks that are not equal: a player's buttons first, in player
/// order, held before pressed before released; else the first other field.
fn input_difference(a: &TickInput, b: &TickInput) -> InputDifference {
    for player in 0..PLAYERS {
        let (x, y): (&TickButtons, &TickButtons) = (&a.buttons[player], &b.buttons[player]);
        for (verb, first, second) in [
            ("holds", x.down, y.down),
            ("presses", x.pressed, y.pressed),
            ("releases", x.released, y.released),
        ] {
            if first != second {
                return InputDifference::Buttons {
                    player,
                    verb,
                    first,
                    second,
                };
            }
        }
    }
    const AXES: [&str; PLAYERS] = [
        "player 1's axes",
        "player 2's axes",
        "player 3's axes",
        "player 4's axes",
    ];
    let what = if (a.keys_down, a.keys_pressed, a.keys_released)
        != (b.keys_down, b.keys_pressed, b.keys_released)
    {
        "the keys"
    } else if (a.pointer_pos, a.pointer_delta, a.pointer_active)
        != (b.pointer_pos, b.pointer_delta, b.pointer_active)
        || a.pointer_wheel.0.to_bits() != b.pointer_wheel.0.to_bits()
        || a.pointer_wheel.1.to_bits() != b.pointer_wheel.1.to_bits()
    {
        "the pointer"
    } else if (
        a.touch_down,
        a.touch_pressed,
        a.touch_released,
        a.touch_pos,
        a.touch_delta,
    ) != (
        b.touch_down,
        b.touch_pressed,
        b.touch_released,
        b.touch_pos,
        b.touch_delta,
    ) {
        "the touches"
    } else if let Some(p) = (0..PLAYERS).find(|&p| a.axes[p] != b.axes[p]) {
        AXES[p]
    } else if a.pads != b.pads {
        "the connected gamepads"
    } else if a.text() != b.text() {
        "the typed text"
    } else if a.menu_item != b.menu_item {
        "the pause-menu choice"
    } else {
        "the reduced-motion preference"
    };
    InputDifference::Other(what)
}

/// The first update within `shared` for which both stored a hash and the hashes differ:
/// `(update, first's, second's)`.
fn first_hash_difference(first: &Replay, second: &Replay, shared: u64) -> Option<(u64, u64, u64)> {
    both_hashed(first, second, shared).find(|&(_, a, b)| a != b)
}

/// How many updates within `shared` both stored a hash for.
fn shared_hashes(first: &Replay, second: &Replay, shared: u64) -> usize {
    both_hashed(first, second, shared).count()
}

/// The updates within `shared` both stored a hash for, in order, with the two hashes.
fn both_hashed<'a>(
    first: &'a Replay,
    second: &'a Replay,
    shared: u64,
) -> impl Iterator<Item = (u64, u64, u64)> + 'a {
    let b = second.hashes();
    first
        .hashes()
        .iter()
        .take_while(move |&&(at, _)| at <= shared)
        .filter_map(move |&(at, hash)| {
            let i = b.binary_search_by_key(&at, |h| h.0).ok()?;
            Some((at, hash, b[i].1))
        })
}

#[cfg(test)]
mod tests {
    use bt::host::TickInput;
    use bt::Button;

    use super::*;
    use crate::replay::{Recorder, ReplayInfo};

    fn info() -> ReplayInfo {
        ReplayInfo {
            cart: "dot".to_string(),
            cart_version: None,
            seed: 1,
            target_fps: 60.0,
            width: 160,
            height: 120,
            args: Vec::new(),
            hash_every: 10,
            reduced_motion: false,
        }
    }

    /// `ticks` updates, player `player` holding `held` from update `from` on (counted from
    /// 1), and a hash every 10 updates.
    fn run(ticks: u64, player: usize, held: u32, from: u64) -> Replay {
        let mut rec = Recorder::new();
        for update in 1..=ticks {
            let mut tick = TickInput::default();
            if update >= from {
                tick.buttons[player].down = held;
            }
            rec.record(&tick);
        }
        let hashes = (1..=ticks / 10).map(|n| (n * 10, n)).collect();
        Replay::new(info(), rec, hashes)
    }

    #[test]
    fn equal_runs_agree_and_count_the_hashes_compared() {
        let a = run(100, 1, Button::A.bits(), 40);
        assert_eq!(
            compare(&a, &a.clone()),
            Ok(Agreement {
                first: 100,
                second: 100,
                hashes: 10
            })
        );
    }

    #[test]
    fn the_first_update_whose_buttons_differ_is_named_with_its_player() {
        let a = run(100, 1, Button::A.bits(), 40);
        let b = run(100, 1, (Button::A | Button::LEFT).bits(), 57);
        let d = compare(&a, &b).unwrap_err();
        assert_eq!(
            d.describe("a.btr", "b.btr"),
            "a.btr and b.btr differ at update 40: player 2 holds A in a.btr, nothing in b.btr"
        );
        let c = run(100, 1, (Button::A | Button::LEFT).bits(), 40);
        let d = compare(&a, &c).unwrap_err();
        assert!(
            d.describe("a", "c")
                .ends_with("player 2 holds A in a, LEFT+A in c"),
            "{d:?}"
        );
    }

    #[test]
    fn a_difference_past_the_shorter_run_is_not_one() {
        let a = run(100, 0, Button::B.bits(), 90);
        let b = run(80, 0, Button::B.bits(), 90);
        assert_eq!(
            compare(&a, &b),
            Ok(Agreement {
                first: 100,
                second: 80,
                hashes: 8
            })
        );
    }

    #[test]
    fn a_hash_differs_after_its_update_and_input_before_it_comes_first() {
        let a = run(100, 0, 0, 1);
        let mut hashes = a.hashes().to_vec();
        hashes[2].1 = 99;
        let b = Replay::new(info(), a.recording().clone(), hashes);
        assert_eq!(
            compare(&a, &b),
            Err(Difference::Hash {
                update: 30,
                first: 3,
                second: 99
            })
        );
        // The input of update 30 differs too: the input is named, as it came first.
        let mut rec = Recorder::new();
        for update in 1..=100 {
            let mut tick = TickInput::default();
            tick.keys_down = u128::from(update == 30);
            rec.record(&tick);
        }
        let c = Replay::new(info(), rec, b.hashes().to_vec());
        assert_eq!(
            compare(&a, &c),
            Err(Difference::Input {
                update: 30,
                what: InputDifference::Other("the keys")
            })
        );
    }

    #[test]
    fn runs_of_another_start_are_named_by_the_field() {
        let a = run(10, 0, 0, 1);
        let mut b = a.clone();
        b.info.seed = 2;
        assert_eq!(
            compare(&a, &b).unwrap_err().describe("a", "b"),
            "a and b are not recordings of one run: seed 1 in a, 2 in b"
        );
        let c = a.clone().with_boot_save(vec![1, 2, 3]);
        assert!(matches!(
            compare(&a, &c),
            Err(Difference::Start {
                field: "save data",
                ..
            })
        ));
    }
}
