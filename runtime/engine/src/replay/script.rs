//! Generated input: a seeded script of presses, taps, pointer moves and text that `bt verify`
//! plays into every clock's run, and the replay that carries it (it stores no input: the
//! player makes each tick as it is played).

use bt::host::{Input, Source, TickInput};
use bt::{Button, Key, Player};

use super::{Recorder, Replay, ReplayInfo};

/// A seeded pseudo-random input script, made one tick at a time as it is played, so a script
/// of any length costs the same memory: the d-pad and face buttons pressed, held and let go,
/// keys tapped, the pointer moved and clicked, text typed now and then. The same seed always
/// gives the same ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct InputScript {
    rng: SplitMix,
    input: Input,
    pointer: (i32, i32),
}

const SCRIPT_BUTTONS: [Button; 6] = [
    Button::UP,
    Button::DOWN,
    Button::LEFT,
    Button::RIGHT,
    Button::A,
    Button::B,
];

const SCRIPT_KEYS: [Key; 8] = [
    Key::ArrowUp,
    Key::ArrowDown,
    Key::ArrowLeft,
    Key::ArrowRight,
    Key::Space,
    Key::KeyZ,
    Key::KeyX,
    Key::Enter,
];

impl InputScript {
    /// The script of `seed`, at its first tick.
    pub fn new(seed: u64) -> InputScript {
        InputScript {
            rng: SplitMix(seed ^ 0x5eed_1e55),
            input: Input::default(),
            pointer: (0, 0),
        }
    }

    /// The next update's input.
    pub fn next_tick(&mut self) -> TickInput {
        let (rng, input, pointer) = (&mut self.rng, &mut self.input, &mut self.pointer);
        // About one change every eight ticks: holds long enough to matter, taps too.
        if rng.below(8) == 0 {
            let b = SCRIPT_BUTTONS[rng.below(SCRIPT_BUTTONS.len() as u64) as usize];
            let down = rng.below(2) == 0;
            input.set_buttons_from(Source::Keyboard, b, Player::ONE, down);
        }
        if rng.below(16) == 0 {
            let k = SCRIPT_KEYS[rng.below(SCRIPT_KEYS.len() as u64) as usize];
            input.set_key(k, !input.key_held_now(k));
        }
        if rng.below(6) == 0 {
            pointer.0 = (pointer.0 + rng.below(17) as i32 - 8).clamp(0, 255);
            pointer.1 = (pointer.1 + rng.below(17) as i32 - 8).clamp(0, 255);
            input.set_pointer_pos(pointer.0, pointer.1);
        }
        if rng.below(40) == 0 {
            let down = input.held_from(Source::Pointer, Player::ONE).is_empty();
            input.set_buttons_from(Source::Pointer, bt::Button::POINTER_A, Player::ONE, down);
        }
        if rng.below(200) == 0 {
            input.push_text("bt");
        }
        input.begin_update();
        input.visible()
    }
}

/// The first `ticks` ticks of the script of `seed` ([`InputScript`]), recorded.
pub fn input_script(seed: u64, ticks: u64) -> Recorder {
    let mut script = InputScript::new(seed);
    let mut rec = Recorder::new();
    for _ in 0..ticks {
        rec.record(&script.next_tick());
    }
    rec
}

/// `ticks` updates of the script of `seed` as a replay of `cart`, ready for
/// [`crate::EngineOptions::replay`]. The replay stores no input: its player makes each tick
/// as it is played, so the memory it takes does not grow with `ticks`.
pub fn script_replay(cart: &str, seed: u64, target_fps: f64, ticks: u64) -> Replay {
    let info = ReplayInfo {
        cart: cart.to_string(),
        cart_version: None,
        seed,
        target_fps,
        width: 0,
        height: 0,
        args: Vec::new(),
        hash_every: 1,
        reduced_motion: false,
    };
    Replay::scripted(info, seed, ticks)
}

/// SplitMix64: small, seeded, and the same everywhere.
#[derive(Debug, Clone, PartialEq)]
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
