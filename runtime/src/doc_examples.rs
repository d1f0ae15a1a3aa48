//! The repository README and the guides in `docs/`, compiled as doctests so that their Rust
//! examples cannot drift from the API. `lib.rs` declares it under `#[cfg(doctest)]`, so only
//! `cargo test --doc` builds it.

// Carries `README.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../README.md")]
pub struct Readme;

// Carries `docs/cli.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/cli.md")]
pub struct Cli;

// Carries `docs/clocks.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/clocks.md")]
pub struct Clocks;

// Carries `docs/coming-from-pico8-pyxel.md` as its documentation, so rustdoc compiles and runs
// its examples.
#[doc = include_str!("../../docs/coming-from-pico8-pyxel.md")]
pub struct ComingFrom;

// Carries `docs/coming-from-blit386.md` as its documentation, so rustdoc compiles and runs its
// examples.
#[doc = include_str!("../../docs/coming-from-blit386.md")]
pub struct ComingFromBlit386;

// Carries `docs/drawing.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/drawing.md")]
pub struct Drawing;

// Carries `docs/effects.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/effects.md")]
pub struct Effects;

// Carries `docs/fonts.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/fonts.md")]
pub struct Fonts;

// Carries `docs/game-loop.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/game-loop.md")]
pub struct GameLoop;

// Carries `docs/getting-started.md` as its documentation, so rustdoc compiles and runs its
// examples.
#[doc = include_str!("../../docs/getting-started.md")]
pub struct GettingStarted;

// Carries `docs/input.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/input.md")]
pub struct Input;

// Carries `docs/overlay.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/overlay.md")]
pub struct Overlay;

// Carries `docs/palette.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/palette.md")]
pub struct Palette;

// Carries `docs/random.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/random.md")]
pub struct Random;

// Carries `docs/replays.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/replays.md")]
pub struct Replays;

// Carries `docs/save-data.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/save-data.md")]
pub struct SaveData;

// Carries `docs/sprites.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/sprites.md")]
pub struct Sprites;

// Carries `docs/writing-a-cart.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/writing-a-cart.md")]
pub struct WritingACart;

// Carries `docs/map-editor.md` as its documentation, so rustdoc compiles and runs its
// examples.
#[doc = include_str!("../../docs/map-editor.md")]
pub struct MapEditor;

// Carries `docs/cheatsheet.md` as its documentation, so rustdoc checks its links.
#[doc = include_str!("../../docs/cheatsheet.md")]
pub struct CheatSheet;

// Carries `docs/sound-editor.md` as its documentation, so rustdoc compiles and runs its
// examples.
#[doc = include_str!("../../docs/sound-editor.md")]
pub struct SoundEditor;

// Carries `docs/sound.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/sound.md")]
pub struct Sound;

// Carries `docs/sprite-editor.md` as its documentation, so rustdoc compiles and runs its
// examples.
#[doc = include_str!("../../docs/sprite-editor.md")]
pub struct SpriteEditor;

// Carries `docs/sharing.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/sharing.md")]
pub struct Sharing;

// Carries `docs/time-travel.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/time-travel.md")]
pub struct TimeTravel;

// Carries `docs/web.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/web.md")]
pub struct Web;

// Carries `docs/ui.md` as its documentation, so rustdoc compiles and runs its examples.
#[doc = include_str!("../../docs/ui.md")]
pub struct Ui;
