//! The command line's shape: commands, their flags, and the parsers that check each value.
//!
//! A flag several commands take is a group declared once and flattened into each
//! ([`CartArgs`], [`InputArg`], [`WindowArgs`], [`PictureArgs`], [`StartArg`], [`QuietArgs`]...),
//! and means one thing wherever it is taken: `--scale N` draws each display pixel N × N, in a
//! window or in a picture file. `-o` names what a command writes everywhere too; it is
//! declared with each command because each checks the name against its own format (a `.png`,
//! a `.gif`, a `.wav`, a new folder) before anything runs.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use bt::limits::{MAX_TARGET_FPS, MIN_TARGET_FPS};

use crate::clock::spec::{ClockSpec, SpecError, MAX_SPEC_MS, MIN_SPEC_MS};
use crate::engine::{MAX_HOST_HZ, MAX_SEEK_UPDATES, MIN_HOST_HZ};
use crate::export::safe_write::{Format, Output};
use crate::quote::number;
use crate::timing::bench::MAX_FRAMES;

/// BT, a fantasy console: play carts in a window, or capture, trace, diagnose and benchmark
/// them headless.
#[derive(Debug, Parser)]
#[command(name = "bt", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the carts this binary runs.
    List,
    /// Play a cart in a window with keyboard, mouse and gamepads.
    #[cfg(feature = "window")]
    Run(RunArgs),
    /// Play a cart in a window and rebuild it on every save of its source: the new program
    /// plays on from the tick the old one was on, replaying the input so far through the new
    /// code.
    #[cfg(feature = "window")]
    Dev(DevArgs),
    /// Print the key map `bt run` uses, as a key-map file.
    Keys(KeysArgs),
    /// Render the frame at a given time and save it as a PNG (no window or GPU needed).
    Shot(ShotArgs),
    /// Run a cart headless under a clock and print one row per frame.
    Trace(TraceArgs),
    /// Run a cart headless under a clock with the overlay and its timing chart, and save the
    /// last frame (and optionally a per-frame CSV).
    Diagnose(DiagnoseArgs),
    /// Run a cart headless at full speed and report what update, render and present cost.
    Bench(BenchArgs),
    /// Print a cart's resolved settings and where each one came from.
    Config(ConfigArgs),
    /// Make a new cart crate: a starter game, its manifest, a sprite sheet and a test.
    New(NewArgs),
    /// Make a cart folder's `.bt` workspace for this machine's BT, after a clone, a move or
    /// `cargo clean`, and copy what BT compiled into the build folder its carts share.
    Attach(AttachArgs),
    /// Play a replay file (`bt run --record`) in a window, or check it headless with --verify.
    Replay(ReplayArgs),
    /// Save an animated GIF of a stretch of play, headless: the palette's own colours, delays
    /// in whole hundredths that keep to the simulation's time.
    Gif(GifArgs),
    /// Save the frames at --from, --from + --every, ... up to --to as numbered PNG files in a
    /// new folder, headless: each the picture `bt shot --at` saves at its time.
    Frames(FramesArgs),
    /// Prove a cart is independent of timing: the same input under eight very different clocks
    /// must draw the same frame after every tick.
    Verify(VerifyArgs),
    /// Save the sound of a stretch of play as a WAV file, headless: 16-bit stereo (mono with
    /// --mono), the same bytes on every run and under every clock.
    Wav(WavArgs),
    /// Make the game one file to give to someone: this program with the cart's files inside,
    /// which plays wherever it is copied (run it with no arguments to play).
    Export(ExportArgs),
    /// Turn a PICO-8 cart (.p8) or a Pyxel resource file (.pyxres) into BT's files: sheets as
    /// indexed PNGs, maps as Tiled maps, sound effects and music as a bt-sound file.
    Import(ImportArgs),
    /// Turn a cart into a web page: a new folder with index.html, the cart compiled to
    /// WebAssembly and the JavaScript that plays it, for any static web host.
    Web(WebArgs),
    /// Serve the rooms web pages meet in to play together (and, with --site, the page
    /// itself): a WebSocket signalling server speaking matchbox's protocol. See
    /// docs/netplay.md.
    Signal(SignalArgs),
    /// Edit a sound file in a window: sound effects as rows of notes, tunes as their patterns
    /// or sequences; Space plays, Ctrl+S saves (see docs/sound-editor.md for the keys).
    #[cfg(feature = "window")]
    SoundEdit(SoundEditArgs),
    /// Edit a Tiled map in a window, in place: paint, fill, rectangles, copy and paste,
    /// layers; Ctrl+S saves, ? lists the keys (see docs/map-editor.md).
    #[cfg(feature = "window")]
    MapEdit(MapEditArgs),
    /// Edit indexed PNG sprite sheets in a window: a zoomed canvas, drawing tools, selections,
    /// the palette, each sprite's flags and an animation preview; Ctrl+S saves (see
    /// docs/sprite-editor.md for the keys).
    #[cfg(feature = "window")]
    SpriteEdit(SpriteEditArgs),
}

/// Where a recorded output starts: `bt gif`, `bt frames` and `bt wav` take it, declared once
/// here. (`bt diagnose --from` also says where its chart starts, on a recorded run's own
/// timeline: a frame number, or seconds with an `s`.)
#[derive(Debug, Clone, Copy, PartialEq, clap::Args)]
pub struct StartArg {
    /// Simulated seconds since boot where the output starts: its first frame or sample.
    #[arg(long, default_value_t = 0.0, value_parser = seconds_arg, allow_negative_numbers = true)]
    pub from: f64,
}

/// Which picture a command draws and how large: `bt shot`, `bt gif` and `bt frames` take the
/// group, declared once here.
///
/// `--scale N` means one thing wherever it is taken: each pixel of the display is drawn N × N
/// pixels, in a window (`WindowArgs`) or in a picture file (here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct PictureArgs {
    /// Each display pixel drawn N × N in the picture (1 to 16).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16), allow_negative_numbers = true)]
    pub scale: u32,
    /// Which picture: 'display' (the display's pixels, times --scale) or 'output' (the
    /// output size with the cart's post-process effects, as the window shows it).
    #[arg(long, value_enum, default_value_t = SizeArg::Display)]
    pub size: SizeArg,
}

/// `bt sound-edit`: the file to edit and how the window opens.
#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
pub struct SoundEditArgs {
    /// The sound file to edit (made on the first save if it does not exist yet), or a cart
    /// (see `bt list`) whose asset folder holds one sound file; a cart crate's own binary
    /// needs neither.
    pub target: Option<PathBuf>,
    #[command(flatten)]
    pub editor: EditorArgs,
}

/// What every editor of BT's own takes (`bt sound-edit`, `bt sprite-edit`, `bt map-edit`):
/// its window, and a recording of the session.
#[cfg(feature = "window")]
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct EditorArgs {
    /// Record the session to this replay file (.btr): it holds the files as opened and every
    /// key and click; `bt replay EDITOR FILE.btr --verify` checks it headless, with the files
    /// as they were, and writes none.
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub window: WindowArgs,
}

/// `bt map-edit`: the map to edit and how the window opens.
#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
pub struct MapEditArgs {
    /// The map to edit (`.tmj` or `.tmx`), or a cart (see `bt list`) whose asset folder holds
    /// one map; a cart crate's own binary needs neither.
    pub target: Option<PathBuf>,
    #[command(flatten)]
    pub editor: EditorArgs,
}

/// `bt sprite-edit`'s arguments.
#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
pub struct SpriteEditArgs {
    /// The indexed PNG sheet to edit, or a cart (see `bt list`) whose asset folder's PNG
    /// sheets open as tabs; a cart crate's own binary needs neither.
    pub target: Option<PathBuf>,
    /// Open a PNG of colours (RGB, RGBA, grey) by mapping them onto palette numbers: the
    /// cart's palette's numbers (PICO-8's without a cart), its other colours after them, or
    /// with more than 256 colours each pixel's nearest in the cart's palette. Ctrl+S then
    /// writes it as an indexed PNG.
    #[arg(long)]
    pub convert: bool,
    #[command(flatten)]
    pub editor: EditorArgs,
}

/// How a window opens and what it keeps: the flags every windowed command takes (`bt run`,
/// `bt dev`, `bt sound-edit`), declared once here. `bt dev` hands the group on to each program
/// it starts with [`WindowArgs::to_args`].
#[cfg(feature = "window")]
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct WindowArgs {
    /// Window size as a whole multiple of the display (1 to 16) [default: cart.toml, the
    /// user's config, the cart's settings, else the largest that fits 1280x800].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16), allow_negative_numbers = true)]
    pub scale: Option<u32>,
    /// Start fullscreen (F11 switches).
    #[arg(long)]
    pub fullscreen: bool,
    /// Play without sound: no audio device is opened.
    #[arg(long)]
    pub mute: bool,
    /// Key-map file [default: $XDG_CONFIG_HOME/bt/keys.toml or ~/.config/bt/keys.toml, when it
    /// exists].
    #[arg(long)]
    pub keys: Option<PathBuf>,
    /// Folder for F9 screenshots, F10 GIFs, F8 timings, F2 replays and F3 state files.
    #[arg(long, default_value = crate::host::window::DEFAULT_CAPTURES)]
    pub captures: PathBuf,
    /// Present as fast as possible instead of waiting for the display's refresh.
    #[arg(long)]
    pub no_vsync: bool,
    /// Start with the cart's post-process effects (CRT looks) off; Shift+F11 turns them on.
    #[arg(long)]
    pub no_effects: bool,
    /// Do not watch the cart's asset folder and palette file for changes.
    #[arg(long)]
    pub no_watch: bool,
    /// Keep the last 10 seconds the window showed (about 40 MB at 320x240); Shift+F10 saves
    /// them as a GIF in the captures folder.
    #[arg(long)]
    pub gif_buffer: bool,
    /// Write every presented frame's time to this CSV file on exit, and print the frame rate
    /// and jitter.
    #[arg(long, value_parser = csv_output)]
    pub frame_log: Option<PathBuf>,
    #[arg(
        long,
        value_parser = |s: &str| float_in(s, 0.0, crate::host::window::MAX_EXIT_AFTER_SECONDS),
        allow_negative_numbers = true,
        help = in_range(
            "Close the window this many seconds after it showed its first frame",
            0,
            crate::host::window::MAX_EXIT_AFTER_SECONDS,
            ""
        )
    )]
    pub exit_after: Option<f64>,
}

#[cfg(feature = "window")]
impl WindowArgs {
    /// The window's options these flags give; the rest stay at their defaults.
    pub fn options(&self) -> crate::host::window::WindowOptions {
        crate::host::window::WindowOptions {
            no_vsync: self.no_vsync,
            no_effects: self.no_effects,
            fullscreen: self.fullscreen,
            mute: self.mute,
            keys: self.keys.clone(),
            captures: self.captures.clone(),
            frame_log: self.frame_log.clone(),
            exit_after: self.exit_after,
            no_watch: self.no_watch,
            gif_buffer: self.gif_buffer,
            ..crate::host::window::WindowOptions::default()
        }
    }

    /// The flags that parse back to this group, for a program `bt dev` starts: the one place
    /// the group is written out again, so a flag added here travels without a second list.
    pub fn to_args(&self) -> Vec<std::ffi::OsString> {
        let mut out: Vec<std::ffi::OsString> = Vec::new();
        let mut flag = |name: &str, on: bool| {
            if on {
                out.push(name.into());
            }
        };
        flag("--fullscreen", self.fullscreen);
        flag("--mute", self.mute);
        flag("--no-vsync", self.no_vsync);
        flag("--no-effects", self.no_effects);
        flag("--no-watch", self.no_watch);
        flag("--gif-buffer", self.gif_buffer);
        if let Some(scale) = self.scale {
            out.extend(["--scale".into(), scale.to_string().into()]);
        }
        if let Some(keys) = &self.keys {
            out.extend(["--keys".into(), keys.clone().into_os_string()]);
        }
        out.extend(["--captures".into(), self.captures.clone().into_os_string()]);
        if let Some(log) = &self.frame_log {
            out.extend(["--frame-log".into(), log.clone().into_os_string()]);
        }
        if let Some(seconds) = self.exit_after {
            // `{:?}` writes the shortest text that parses back to the same f64.
            out.extend(["--exit-after".into(), format!("{seconds:?}").into()]);
        }
        out
    }
}

/// `bt export`: the cart and the file to write.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The cart to export (see `bt list`); a cart crate's own binary needs none.
    pub cart: Option<String>,
    /// The game file to write (refused if something other than a regular file is there).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// `bt import`: the file to read and the folder to write.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The file to read: a PICO-8 cart in its text form (.p8) or a Pyxel resource file
    /// (.pyxres).
    pub file: PathBuf,
    /// The folder to write into (made if missing); files are named after FILE: NAME.png,
    /// NAME.tmj, NAME-sounds.txt (from a .pyxres, NAME-image0.png, NAME-tilemap0.tmj, …).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Replace files of those names already in the folder (refused without it, as they may
    /// hold the author's edits).
    #[arg(long)]
    pub force: bool,
}

/// `bt web`: the cart, its arguments and the folder to make.
#[derive(Debug, clap::Args)]
pub struct WebArgs {
    /// The cart to export (see `bt list`); a cart crate's own binary needs none.
    pub cart: Option<String>,
    /// A cart argument NAME=VALUE the page boots with (repeatable); a page's address can add
    /// more (`index.html?arg=NAME=VALUE`).
    #[arg(long = "arg", value_name = "NAME=VALUE", value_parser = cart_arg)]
    pub args: Vec<(String, String)>,
    /// The folder to make: new, or empty. It appears only once the page is complete.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Build the page to publish: the module optimised whole (link-time optimisation), smaller
    /// and quicker, at about 15 s more of CPU per change. Without it, the development build,
    /// which rebuilds only the cart.
    #[arg(long)]
    pub release: bool,
    /// After the export, build the page again whenever the cart's code, `cart.toml` or asset
    /// folder changes; the page open in a browser reloads itself after each build.
    #[arg(long)]
    pub watch: bool,
}

/// A replay file whose input a command plays.
#[derive(Debug, clap::Args)]
pub struct InputArg {
    /// Play the input recorded in this replay file (see `bt run --record`): its seed, its cart
    /// arguments, and exactly what every update saw; after its last tick, input is live.
    #[arg(long, value_name = "FILE.btr")]
    pub input: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The cart (a cart crate's own binary needs none), then the replay file.
    #[arg(value_name = "[CART] FILE.btr", num_args = 1..=2, required = true)]
    pub paths: Vec<String>,
    /// Play it headless at full speed instead, check every frame hash it stores, report the
    /// first tick whose frame differs and exit 1 on a mismatch.
    #[arg(long)]
    pub verify: bool,
    /// Boot with the save data in this file instead of the save data the replay carries
    /// (read only; the frames may then differ from the recording's).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// `--overlay`, `--chart` and `--fixed-costs`: the overlay drawn into a picture or a GIF.
#[derive(Debug, Clone, Copy, clap::Args)]
#[command(group(clap::ArgGroup::new("drawn").args(["overlay", "chart"]).multiple(true)))]
pub struct DrawnArgs {
    /// Draw the overlay in. The frames the chart shows (up to one per pixel of width) run live
    /// at the target rate first, so its figures are measured; the cart's pictures are the same.
    #[arg(long)]
    pub overlay: bool,
    /// With --overlay or --chart: chart fixed update and render costs instead of measured
    /// ones, so the output is the same on every run.
    #[arg(long, requires = "drawn")]
    pub fixed_costs: bool,
    /// The overlay's chart (implies --overlay) [default: the cart's settings].
    #[arg(long, value_enum)]
    pub chart: Option<ChartArg>,
}

impl DrawnArgs {
    /// Whether the overlay is to be drawn.
    pub fn wanted(&self) -> bool {
        self.overlay || self.chart.is_some()
    }
}

#[derive(Debug, clap::Args)]
pub struct GifArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub start: StartArg,
    #[arg(
        long,
        value_parser = gif_seconds,
        allow_negative_numbers = true,
        help = in_range("Simulated seconds the GIF lasts", 0.01, MAX_GIF_SECONDS, "")
    )]
    pub seconds: f64,
    #[command(flatten)]
    pub picture: PictureArgs,
    #[command(flatten)]
    pub drawn: DrawnArgs,
    #[command(flatten)]
    pub progress: QuietArgs,
    /// The GIF file to write ('-' for stdout).
    #[arg(short, long, value_parser = gif_output)]
    pub output: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct FramesArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub start: StartArg,
    #[arg(
        long,
        value_parser = seconds_arg,
        allow_negative_numbers = true,
        help = in_range("Simulated seconds of the last frame (included when the step lands on it)", 0, MAX_AT_SECONDS, "")
    )]
    pub to: f64,
    /// Simulated seconds from one frame to the next (above 0; 1/fps gives every update).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, allow_negative_numbers = true)]
    pub every: f64,
    #[command(flatten)]
    pub drawn: DrawnArgs,
    #[command(flatten)]
    pub picture: PictureArgs,
    #[command(flatten)]
    pub progress: QuietArgs,
    /// The folder to make: new, or empty. It appears only once every frame is written.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct WavArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub start: StartArg,
    #[arg(
        long,
        value_parser = wav_seconds,
        allow_negative_numbers = true,
        help = in_range("Simulated seconds the sound lasts", 0.001, MAX_WAV_SECONDS, "")
    )]
    pub seconds: f64,
    /// Run the updates live under this clock, as for `bt trace`, instead of stepping them: the
    /// file is the same either way.
    #[arg(long, value_parser = clock_spec)]
    pub clock: Option<ClockSpec>,
    /// Samples a second (8000 to 192000).
    #[arg(long, default_value_t = bt::sound::DEFAULT_SAMPLE_RATE, value_parser = clap::value_parser!(u32).range(8000..=192_000))]
    pub rate: u32,
    /// Write one channel, each frame's two sides folded into their mean (a cart that never
    /// pans gives either side exactly).
    #[arg(long)]
    pub mono: bool,
    /// The WAV file to write ('-' for stdout).
    #[arg(short, long, value_parser = wav_output)]
    pub output: PathBuf,
    #[command(flatten)]
    pub progress: QuietArgs,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    // With --input the replay's input drives the cart, else a pseudo-random script seeded with
    // --seed.
    #[command(flatten)]
    pub input: InputArg,
    /// Compare the --input replay with this one update by update instead (the two players'
    /// recordings of a netplay run): the first update whose input or frame hash differs, exit
    /// 1; no clocks are run.
    #[arg(long, value_name = "FILE.btr", requires = "input", conflicts_with_all = ["seconds", "diff", "threads"])]
    pub against: Option<PathBuf>,
    /// Simulated seconds to check [default: 10, or the whole replay with --input].
    #[arg(long, value_parser = seconds_arg, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Where to save the two differing frames side by side, and a third picture marking the
    /// pixels that differ, on a divergence [default: CART-divergence.png].
    #[arg(long, value_name = "FILE.png")]
    pub diff: Option<PathBuf>,
    /// Clock runs at once [default: the machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub progress: QuietArgs,
}

/// Which picture of a frame a headless command writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SizeArg {
    /// The display's pixels through the palette (times `--scale`), the overlay drawn on them.
    #[default]
    Display,
    /// The output picture (the display times the cart's output scale) with the post-process
    /// stack's display-tier effects, as the window and the web page show it.
    Output,
}

/// What the overlay's chart area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChartArg {
    /// The compact band under the title row.
    Compact,
    /// The tall chart: frame deltas against the budget, updates per frame, costs, tags.
    Tall,
    /// No chart, the metric rows only.
    Off,
}

impl ChartArg {
    /// The overlay's mode for this choice.
    pub fn mode(self) -> bt_overlay::ChartMode {
        match self {
            ChartArg::Compact => bt_overlay::ChartMode::Compact,
            ChartArg::Tall => bt_overlay::ChartMode::Tall,
            ChartArg::Off => bt_overlay::ChartMode::Off,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Comma-separated values with a header line.
    Csv,
    /// A JSON array of objects.
    Json,
    /// Chrome Trace Event JSON, for Perfetto (ui.perfetto.dev), speedscope or
    /// chrome://tracing: frames as slices with their updates and render nested inside, counter
    /// tracks, and clamps, missed refreshes and tags as events.
    Chrome,
    /// The run's summary as one JSON object: percentiles, 1% and 0.1% lows, stutters, frames
    /// per second over the run, missed refreshes.
    Summary,
}

/// Options every command that runs a cart shares.
#[derive(Debug, clap::Args)]
pub struct CartArgs {
    /// The cart to run (see `bt list`); a cart crate's own binary needs none.
    pub cart: Option<String>,
    #[arg(
        long,
        value_parser = seed_arg,
        allow_negative_numbers = true,
        help = in_range("Random seed", 0, u64::MAX, "[default: the cart's own, else 0]")
    )]
    pub seed: Option<u64>,
    #[arg(
        long,
        value_parser = fps_arg,
        allow_negative_numbers = true,
        help = in_range(
            "Fixed updates per second, overriding the cart's target_fps",
            MIN_TARGET_FPS,
            MAX_TARGET_FPS,
            ""
        )
    )]
    pub fps: Option<f64>,
    /// A cart argument NAME=VALUE, read by the cart (repeatable; see the cart's README).
    #[arg(long = "arg", value_name = "NAME=VALUE", value_parser = cart_arg)]
    pub args: Vec<(String, String)>,
    /// The save data file the cart boots with [default: empty save data; for `bt run`, the
    /// cart's own file, $XDG_DATA_HOME/bt/<cart>/save.bin]. Only `bt run` writes to it.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Tell the cart the player prefers reduced motion (less shake, flashing and fast
    /// movement), as a browser's prefers-reduced-motion does. A replay keeps it.
    #[arg(long)]
    pub reduced_motion: bool,
}

/// Whether long headless work shows its progress.
#[derive(Debug, clap::Args)]
pub struct QuietArgs {
    /// Show no progress bar (one appears on a terminal's stderr when the work takes more than
    /// a second).
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[arg(
        long,
        default_value_t = 300,
        value_parser = |s: &str| whole_in(s, 1, MAX_FRAMES),
        allow_negative_numbers = true,
        help = in_range("Frames to measure, each one update and one render", 1, MAX_FRAMES, "")
    )]
    pub frames: u64,
    #[arg(
        long,
        default_value_t = 10,
        value_parser = |s: &str| whole_in(s, 0, MAX_FRAMES),
        allow_negative_numbers = true,
        help = in_range("Frames to run first without measuring them", 0, MAX_FRAMES, "")
    )]
    pub warmup: u64,
    /// Print exactly one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ShotArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[arg(
        long,
        value_parser = seconds_arg,
        allow_negative_numbers = true,
        required_unless_present = "state",
        help = in_range(
            "Simulated seconds since boot: the frame after round(seconds × fps) updates; with \
             --state, counted from the state's boot too, and at or after the state",
            0,
            MAX_AT_SECONDS,
            "[default with --state: the state's own frame]"
        )
    )]
    pub at: Option<f64>,
    /// Open on this state file (F3 in `bt run` saves one): its run from boot is replayed to
    /// the state, with its seed, update rate, arguments and save data; past it, no input.
    /// Only the build of BT that saved it loads it.
    #[arg(
        long,
        value_name = "FILE.btstate",
        conflicts_with_all = STATE_CONFLICTS
    )]
    pub state: Option<PathBuf>,
    #[command(flatten)]
    pub picture: PictureArgs,
    #[command(flatten)]
    pub drawn: DrawnArgs,
    #[command(flatten)]
    pub progress: QuietArgs,
    /// The PNG file to write ('-' for stdout; see "How outputs are written" in docs/cli.md).
    #[arg(short, long, value_parser = png_output)]
    pub output: PathBuf,
}

#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    // With --at, the replay runs to that time at headless speed and play goes on live.
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Record the run into this replay file: written through a temporary file every 10
    /// seconds, and when the window closes or the cart panics.
    #[arg(long, value_name = "FILE.btr")]
    pub record: Option<PathBuf>,
    /// The clock, as for `bt trace` (see `bt trace --help`) [default: wall].
    #[arg(long, value_parser = clock_spec)]
    pub clock: Option<crate::clock::spec::ClockSpec>,
    #[arg(
        long,
        value_parser = seconds_arg,
        allow_negative_numbers = true,
        help = in_range(
            "Open paused on the frame at this many simulated seconds (as `bt shot --at`); \
             F5 plays on",
            0,
            MAX_AT_SECONDS,
            ""
        )
    )]
    pub at: Option<f64>,
    /// On exit, write every frame of the run as a Chrome trace (open it in Perfetto).
    #[arg(long, value_name = "FILE.json", value_parser = json_output)]
    pub trace_out: Option<PathBuf>,
    /// Take `bt dev`'s orders on standard input and keep the window's place in this folder;
    /// `bt dev` passes it, a player never does.
    #[arg(long, hide = true, value_name = "DIR")]
    pub dev_link: Option<PathBuf>,
    /// Open with the overlay shown and this chart (` cycles the views, F7 the tall chart).
    #[arg(long, value_enum)]
    pub chart: Option<ChartArg>,
    /// Open paused on this state file (F3 saves one in the captures folder): its run from
    /// boot is replayed to the state, with its seed, update rate, arguments and save data
    /// (read only: the run writes no save data). F5 plays on, F1 rewinds. Only the build of
    /// BT that saved it loads it.
    #[arg(
        long,
        value_name = "FILE.btstate",
        conflicts_with_all = RUN_STATE_CONFLICTS
    )]
    pub state: Option<PathBuf>,
    /// Play this replay from boot at headless speed, then go on live from its last update:
    /// how `bt dev` swaps in a new program at the tick the old one was on (its boot save data,
    /// seed and arguments are the replay's).
    #[arg(long, hide = true, value_name = "FILE.btr", conflicts_with_all = ["input", "at"])]
    pub continue_from: Option<PathBuf>,
    /// With --clock capture:FILE: `host` plays one captured frame a host refresh; `real` plays
    /// the capture at its own pace, each frame its captured interval after the one before
    /// (the same frame times either way, so the same updates and pictures) [default: host].
    #[arg(long, value_enum, value_name = "PACE")]
    pub capture_pace: Option<CapturePace>,
    /// Play with friends over the network: wait on this UDP port [default: 7000] for them to
    /// join (`bt run CART --join ADDRESS:PORT`, the line printed says it), and for spectators
    /// (`--spectate`); you are player 1.
    #[arg(
        long,
        value_name = "PORT",
        num_args = 0..=1,
        value_parser = clap::value_parser!(u16).range(1..),
        conflicts_with_all = NETPLAY_CONFLICTS
    )]
    pub host: Option<Option<u16>>,
    /// With --host: players in the game, you counted, 2 to 4 [default: 2]; it starts when
    /// all have joined.
    #[arg(
        long,
        value_name = "N",
        requires = "host",
        value_parser = clap::value_parser!(u8).range(2..=bt::limits::PLAYERS as i64)
    )]
    pub players: Option<u8>,
    /// Join a friend's game (`bt run CART --host` on their machine) at this address, as
    /// HOST:PORT; you take the next free seat (player 2 if you are first).
    #[arg(
        long,
        value_name = "ADDRESS",
        value_parser = join_address,
        conflicts_with_all = NETPLAY_CONFLICTS,
        conflicts_with = "host"
    )]
    pub join: Option<std::net::SocketAddr>,
    /// Watch a friend's game (`bt run CART --host` on their machine) at this address, as
    /// HOST:PORT, from before its last player joins; nothing you press reaches it.
    #[arg(
        long,
        value_name = "ADDRESS",
        value_parser = join_address,
        conflicts_with_all = NETPLAY_CONFLICTS,
        conflicts_with_all = ["host", "join"]
    )]
    pub spectate: Option<std::net::SocketAddr>,
}

/// `bt run`'s flags a netplay run refuses: each would start this peer's run somewhere the
/// other's does not, or drive it by another clock than the session's.
#[cfg(feature = "window")]
const NETPLAY_CONFLICTS: [&str; 7] = [
    "input",
    "at",
    "state",
    "continue_from",
    "clock",
    "capture_pace",
    "dev_link",
];

/// `--join`'s address: HOST:PORT, the host a name or a number, looked up once.
#[cfg(feature = "window")]
pub(crate) fn join_address(s: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let shown = crate::quote::excerpt(s);
    let mut found = s.to_socket_addrs().map_err(|e| {
        format!("'{shown}' is not an address to join ({e}); give HOST:PORT, e.g. 192.168.1.5:7000")
    })?;
    found.next().ok_or_else(|| {
        format!("'{shown}' names no address to join; give HOST:PORT, e.g. 192.168.1.5:7000")
    })
}

/// How `bt run` plays a capture clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CapturePace {
    /// One captured frame a host refresh.
    Host,
    /// Each captured frame its captured interval after the one before.
    Real,
}

#[cfg(feature = "window")]
#[derive(Debug, clap::Args)]
pub struct DevArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    // Handed on to each program dev starts.
    #[command(flatten)]
    pub window: WindowArgs,
    /// When dev ends, keep the recording of the run (from boot, through the last program) in
    /// this replay file.
    #[arg(long, value_name = "FILE.btr")]
    pub record: Option<PathBuf>,
}

/// `bt signal`: where it listens and what it serves.
#[derive(Debug, clap::Args)]
pub struct SignalArgs {
    /// The port to listen on, for the rooms' WebSockets and the site's files alike.
    #[arg(long, default_value_t = bt_net::signal::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on: every network of this machine unless told one (127.0.0.1
    /// keeps it to this machine).
    #[arg(long, default_value = "0.0.0.0")]
    pub address: std::net::IpAddr,
    /// A folder to serve over HTTP on the same port, as a page made by `bt web -o DIR`: the
    /// link to give a friend is then http://ADDRESS:PORT/?room=NAME.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct KeysArgs {
    /// Read this key-map file instead of the default one.
    #[arg(long)]
    pub keys: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    /// Window scale from the command line, as `bt run --scale` would give it (1 to 16).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16), allow_negative_numbers = true)]
    pub scale: Option<u32>,
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The new cart's name: lowercase letters, digits, '-' and '_', starting with a letter.
    pub name: String,
    /// The folder to make it in (the cart goes in DIR/NAME) [default: the working directory].
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct AttachArgs {
    /// The cart's folder, one made by `bt new` [default: the working directory].
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// How `trace` and `diagnose` simulate the host: a clock, and host ticks at a display's rate.
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    #[arg(long, value_parser = clock_spec, help = clock_help())]
    pub clock: ClockSpec,
    #[arg(
        long,
        value_parser = |s: &str| whole_in(s, 0, MAX_HOST_TICKS),
        allow_negative_numbers = true,
        help = in_range(
            "Host ticks to simulate (a paced clock may turn some of them into no frame)",
            0,
            MAX_HOST_TICKS,
            "[default for a capture clock: the capture's length; needed for the others]"
        )
    )]
    pub frames: Option<u64>,
    #[arg(
        long,
        visible_alias = "host-hz",
        value_parser = |s: &str| float_in(s, MIN_HOST_HZ, MAX_HOST_HZ),
        allow_negative_numbers = true,
        help = in_range(
            "The simulated display's refresh rate: the host ticks at it (the first tick at \
             0 ms), and missed refreshes are counted against it",
            MIN_HOST_HZ,
            MAX_HOST_HZ,
            "[default: ticks at 60; refreshes counted against 60 for the wall and paced \
             clocks, a capture's own display timing or an estimate for the others]"
        )
    )]
    pub refresh_hz: Option<f64>,
    /// The display refreshes at a variable rate within this range in Hz (adaptive sync, as
    /// 48-144): frames are graded against the range instead of a refresh grid, and a frame
    /// misses refreshes only when it comes later than the panel can hold a picture.
    #[arg(long, value_name = "MIN-MAX", value_parser = vrr_range)]
    pub vrr: Option<(f64, f64)>,
    /// Play a capture clock again from its start when --frames runs past its end (without
    /// it, that is an error).
    #[arg(long = "loop")]
    pub looped: bool,
}

/// The slowest and fastest rates `--vrr` takes, in Hz.
pub const VRR_HZ: (f64, f64) = (1.0, 1000.0);

/// `--vrr MIN-MAX`: a variable-refresh panel's range in Hz, the slower first.
fn vrr_range(s: &str) -> Result<(f64, f64), String> {
    let (min, max) = s.split_once('-').ok_or_else(|| {
        format!(
            "'{}' is not a range: give the panel's slowest and fastest rates in Hz, as 48-144",
            crate::quote::excerpt(s)
        )
    })?;
    let (min, max) = (
        float_in(min, VRR_HZ.0, VRR_HZ.1)?,
        float_in(max, VRR_HZ.0, VRR_HZ.1)?,
    );
    if min >= max {
        return Err(format!(
            "'{}': the slowest rate comes first and must be below the fastest, as 48-144",
            crate::quote::excerpt(s)
        ));
    }
    Ok((min, max))
}

/// The host rate of a headless run when `--refresh-hz` is not given.
pub const DEFAULT_HOST_HZ: f64 = 60.0;

#[derive(Debug, clap::Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub sim: SimArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: FormatArg,
    #[command(flatten)]
    pub progress: QuietArgs,
}

#[derive(Debug, clap::Args)]
pub struct DiagnoseArgs {
    #[command(flatten)]
    pub cart: CartArgs,
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub sim: SimArgs,
    /// Integer upscale of the PNG (1 to 16).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16), allow_negative_numbers = true)]
    pub scale: u32,
    /// Chart fixed update and render costs instead of measured ones, so the picture is the
    /// same on every run (the CSV still holds measured times).
    #[arg(long)]
    pub fixed_costs: bool,
    /// The chart drawn: the compact band or the tall chart.
    #[arg(long, value_enum, default_value = "compact")]
    pub chart: ChartArg,
    #[command(flatten)]
    pub progress: QuietArgs,
    /// Also write one CSV row per frame to this file ('-' for stdout).
    #[arg(long, value_parser = csv_output)]
    pub csv: Option<PathBuf>,
    /// Also write a report to this HTML file: the summary and plots of frame time, cost and
    /// updates per frame, with clamps, missed refreshes and tags marked (one file, no network
    /// needed).
    #[arg(long, value_name = "FILE.html", value_parser = html_output)]
    pub report: Option<PathBuf>,
    /// Also run the cart under another clock (a capture, or any clock --clock takes) and
    /// compare the runs: their figures side by side, printed (with two runs, B's differences
    /// from A), and with --report a comparison report (every run's frame times, and one chart
    /// with each run's percentile curve) instead of the single run's, and with -o and --chart
    /// tall both screens, A above B, charted on one scale (one --compare only). Give it up to
    /// seven times for runs B to H. --frames, --refresh-hz, --vrr and --loop apply to all.
    #[arg(long, value_name = "CLOCK", value_parser = clock_spec)]
    pub compare: Vec<ClockSpec>,
    /// With --compare: aggregate the runs as CapFrameX does, flagging as an outlier a run
    /// whose P1 lies more than PERCENT percent (1 to 9; 3 when not given, CapFrameX's
    /// default) from the median P1, and giving the figures of all runs' frames end to end,
    /// with and without the outliers.
    #[arg(
        long,
        value_name = "PERCENT",
        num_args = 0..=1,
        value_parser = outlier_percent,
        allow_negative_numbers = true
    )]
    pub aggregate: Option<Option<u32>>,
    /// The PNG file to write ('-' for stdout) [at least one of -o, --csv and --report].
    #[arg(short, long, value_parser = png_output)]
    pub output: Option<PathBuf>,
    /// With --chart tall: the first frame charted, as a frame number (1200) or seconds on the
    /// clock's timeline (12.5s) [default: the window around the longest frame].
    #[arg(long, value_name = "FRAME|SECONDSs", value_parser = chart_point)]
    pub from: Option<ChartPoint>,
    /// With --chart tall: the last frame charted, as --from [default: a chart's width on].
    #[arg(long, value_name = "FRAME|SECONDSs", value_parser = chart_point)]
    pub to: Option<ChartPoint>,
    /// With --chart tall: chart the whole run, each column the worst frame of its share of the
    /// frames, so no stall is lost.
    #[arg(long, conflicts_with_all = ["from", "to"])]
    pub whole: bool,
    /// With --chart tall and a capture that has display times: the bars are display intervals
    /// (from the screen's previous change to the one showing the frame) instead of present
    /// intervals, frames never displayed are hatched, and missed refreshes are counted from
    /// display times.
    #[arg(long)]
    pub display_times: bool,
}

/// A place in a run for `--from` and `--to`: a frame number, or seconds on the clock's
/// timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChartPoint {
    /// A frame, from 0.
    Frame(u64),
    /// Seconds from the run's start.
    Seconds(f64),
}

fn chart_point(s: &str) -> Result<ChartPoint, String> {
    match s.trim().strip_suffix('s') {
        Some(seconds) => seconds_arg(seconds).map(ChartPoint::Seconds),
        None => whole_in(s, 0, MAX_HOST_TICKS)
            .map(ChartPoint::Frame)
            .map_err(|e| format!("{e} (give a frame number, or seconds ending in 's')")),
    }
}

/// The flags `--state` replaces: a state boots as its run did, from its own input, seed,
/// update rate, arguments, save data and reduced-motion preference.
const STATE_CONFLICTS: [&str; 6] = ["input", "seed", "fps", "args", "save", "reduced_motion"];

/// `bt run`'s flags `--state` replaces: those of [`STATE_CONFLICTS`], and the other ways to
/// open at a time.
#[cfg(feature = "window")]
const RUN_STATE_CONFLICTS: [&str; 8] = [
    "input",
    "seed",
    "fps",
    "args",
    "save",
    "reduced_motion",
    "at",
    "continue_from",
];

/// The most host ticks `bt trace` and `bt diagnose` simulate: hours of work, and few enough
/// that simulated host time keeps its precision at the slowest host rate.
pub const MAX_HOST_TICKS: u64 = 1_000_000_000;

/// The largest `--at`: the farthest a seek can reach at the slowest update rate
/// ([`MAX_SEEK_UPDATES`] updates at [`MIN_TARGET_FPS`]). At 60 updates a second a seek reaches
/// at most 166,666 s; the engine says so when asked for more.
pub const MAX_AT_SECONDS: f64 = MAX_SEEK_UPDATES as f64 / MIN_TARGET_FPS;

/// The longest stretch `bt gif` is asked for, in seconds (it then checks the frame count).
pub const MAX_GIF_SECONDS: f64 = 1_000_000.0;

/// The longest sound `bt wav` writes: an hour (635 MB at 44,100 Hz).
pub const MAX_WAV_SECONDS: f64 = 3600.0;

/// A help line ending in the range its value takes, from the same constants its parser checks.
pub(crate) fn in_range(what: &str, min: impl RangeEnd, max: impl RangeEnd, after: &str) -> String {
    let mut line = format!("{what} ({} to {})", min.shown(), max.shown());
    if !after.is_empty() {
        line.push(' ');
        line.push_str(after);
    }
    line
}

/// One end of a range, as help prints it.
pub(crate) trait RangeEnd {
    fn shown(self) -> String;
}

impl RangeEnd for i32 {
    fn shown(self) -> String {
        self.to_string()
    }
}

impl RangeEnd for u64 {
    fn shown(self) -> String {
        self.to_string()
    }
}

impl RangeEnd for f64 {
    fn shown(self) -> String {
        number(self)
    }
}

fn clock_help() -> String {
    format!(
        "The clock: wall[:max_ms], paced:fps[:resync_after], constant:ms, sequence:ms,ms,..., \
         jitter:min_ms:max_ms:seed, or capture:FILE[#SELECTOR] (a PresentMon, FrameView, OCAT, \
         CapFrameX, MangoHud or FRAPS capture, also saved with ';' and decimal commas, or one \
         frame time in ms a line, played frame by frame; SELECTOR \
         names a process by name or id, a swap chain by address or a CapFrameX run by number; \
         without it the stream with the most frames is played, not the compositor dwm.exe \
         unless it is alone, and on a tie the first in the file). Times are {} to {} ms, fps {} \
         to {}, resync_after 1 to {}, seed -2^53 to 2^53",
        number(MIN_SPEC_MS),
        number(MAX_SPEC_MS),
        number(MIN_TARGET_FPS),
        number(MAX_TARGET_FPS),
        u32::MAX
    )
}

/// A number from `min` to `max`; anything else, NaN and infinities too, is named with the range.
pub(crate) fn float_in(s: &str, min: f64, max: f64) -> Result<f64, String> {
    let value: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", crate::quote::excerpt(s)))?;
    if value.is_nan() {
        // "NaN" parses as a float, but no range holds it.
        return Err(format!("'{}' is not a number", crate::quote::excerpt(s)));
    }
    if value < min || value > max {
        return Err(format!(
            "{} is not in {}..={}",
            number(value),
            number(min),
            number(max)
        ));
    }
    Ok(value)
}

/// A whole number from `min` to `max`, said to be out of range when it is a whole number
/// outside it (negative or too large), and not a number otherwise.
/// `--aggregate PERCENT`: an outlier percentage CapFrameX's aggregation offers.
fn outlier_percent(s: &str) -> Result<u32, String> {
    let (min, max) = crate::timing::runs::OUTLIER_PERCENT;
    whole_in(s, u64::from(min), u64::from(max)).map(|n| n as u32)
}

fn whole_in(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let text = s.trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}' is not a whole number",
            crate::quote::excerpt(s)
        ));
    }
    text.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("{} is not in {min}..={max}", crate::quote::excerpt(text)))
}

fn seed_arg(s: &str) -> Result<u64, String> {
    whole_in(s, 0, u64::MAX)
}

fn gif_seconds(s: &str) -> Result<f64, String> {
    float_in(s, 0.01, MAX_GIF_SECONDS)
}

fn wav_seconds(s: &str) -> Result<f64, String> {
    float_in(s, 0.001, MAX_WAV_SECONDS)
}

/// Seconds above 0, up to [`MAX_AT_SECONDS`]: a step between frames.
fn positive_seconds(s: &str) -> Result<f64, String> {
    let backwards =
        |value: f64| format!("{} is no step forward; give seconds above 0", number(value));
    match float_in(s, 0.0, MAX_AT_SECONDS) {
        Ok(value) if value > 0.0 => Ok(value),
        Ok(value) => Err(backwards(value)),
        // Below 0 is a step back; NaN and past the top are out of range, and said so.
        Err(e) => match s.trim().parse::<f64>() {
            Ok(value) if value < 0.0 => Err(backwards(value)),
            _ => Err(e),
        },
    }
}

fn fps_arg(s: &str) -> Result<f64, String> {
    float_in(s, MIN_TARGET_FPS, MAX_TARGET_FPS)
}

/// Parses simulated seconds: from 0 to [`MAX_AT_SECONDS`].
pub fn seconds_arg(s: &str) -> Result<f64, String> {
    float_in(s, 0.0, MAX_AT_SECONDS)
}

/// An output path for a PNG picture: the name must end in `.png` unless it is `-`, a device
/// or a FIFO. Everything else about it is checked when the command runs.
fn png_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Png)
}

fn gif_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Gif)
}

fn wav_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Wav)
}

fn html_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Html)
}

#[cfg(feature = "window")]
pub(crate) fn json_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Json)
}

/// An output path for CSV, as [`png_output`] with `.csv`.
pub(crate) fn csv_output(s: &str) -> Result<PathBuf, String> {
    output_path(s, Format::Csv)
}

fn output_path(s: &str, format: Format) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    Output::check_name(&path, format).map_err(|_| format.name_rule())?;
    Ok(path)
}

fn cart_arg(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("'{}' is not NAME=VALUE", crate::quote::excerpt(s))),
    }
}

pub(crate) fn clock_spec(s: &str) -> Result<ClockSpec, SpecError> {
    s.parse::<ClockSpec>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::capture::Capture;

    #[test]
    fn the_clock_help_describes_the_default_capture_pick_the_reader_makes() {
        // The compositor presented most; two of the game's swap chains tie.
        let csv = "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n\
                   dwm.exe,1308,0x9,16.7\ndwm.exe,1308,0x9,16.7\ndwm.exe,1308,0x9,16.7\n\
                   game.exe,5120,0x2,16.7\ngame.exe,5120,0x1,16.7\n";
        let played = Capture::parse(csv, "pm.csv", None).unwrap();
        assert_eq!(played.stream().swap_chain, "0x2");
        let by_id = Capture::parse(csv, "pm.csv", Some("1308")).unwrap();
        assert_eq!(by_id.stream().process, "dwm.exe");
        let help = clock_help();
        for said in [
            "a process by name or id",
            "not the compositor dwm.exe unless it is alone",
            "on a tie the first in the file",
        ] {
            assert!(help.contains(said), "{help}");
        }
    }
}

#[cfg(all(test, feature = "window"))]
mod window_args_tests {
    use clap::Parser;

    use super::WindowArgs;

    /// The window's flag group alone, as `run`, `dev` and `sound-edit` flatten it.
    #[derive(Debug, Parser)]
    struct Only {
        #[command(flatten)]
        window: WindowArgs,
    }

    fn parse<I: IntoIterator<Item = std::ffi::OsString>>(args: I) -> WindowArgs {
        let all = std::iter::once(std::ffi::OsString::from("bt")).chain(args);
        Only::try_parse_from(all).unwrap().window
    }

    #[test]
    fn the_flags_bt_dev_hands_on_parse_back_to_the_group_it_parsed() {
        let given = [
            "--scale",
            "3",
            "--fullscreen",
            "--mute",
            "--keys",
            "my keys.toml",
            "--captures",
            "shots",
            "--no-vsync",
            "--no-effects",
            "--no-watch",
            "--gif-buffer",
            "--frame-log",
            "frames.csv",
            "--exit-after",
            "0.1",
        ];
        let parsed = parse(given.map(Into::into));
        let defaults = parse([]);
        // Every flag is set away from its default, so one left out of `to_args` shows.
        assert_ne!(parsed.scale, defaults.scale);
        assert_ne!(parsed.captures, defaults.captures);
        assert_eq!(parse(parsed.to_args()), parsed);
        assert_eq!(parse(defaults.to_args()), defaults);
    }
}

#[cfg(all(test, feature = "window"))]
mod netplay_args_tests {
    use clap::Parser;

    use super::{Cli, Command};

    fn run(args: &[&str]) -> Result<super::RunArgs, String> {
        let all = ["bt", "run", "snake"].iter().chain(args);
        match Cli::try_parse_from(all) {
            Ok(Cli {
                command: Command::Run(run),
                ..
            }) => Ok(run),
            Ok(_) => Err("not bt run".to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn host_takes_an_optional_port_and_join_an_address() {
        assert_eq!(run(&["--host"]).unwrap().host, Some(None));
        assert_eq!(run(&["--host", "7100"]).unwrap().host, Some(Some(7100)));
        assert_eq!(
            run(&["--join", "127.0.0.1:7100"]).unwrap().join,
            Some("127.0.0.1:7100".parse().unwrap())
        );
        let plain = run(&[]).unwrap();
        assert_eq!((plain.host, plain.join), (None, None));
    }

    #[test]
    fn a_bad_port_or_address_is_refused_naming_it() {
        let port = run(&["--host", "70000"]).unwrap_err();
        assert!(port.contains("70000"), "{port}");
        let zero = run(&["--host", "0"]).unwrap_err();
        assert!(zero.contains("'0'"), "{zero}");
        for bad in ["nowhere", "127.0.0.1", "127.0.0.1:port"] {
            let said = run(&["--join", bad]).unwrap_err();
            let first = said.lines().next().unwrap();
            assert!(
                first.contains(&format!("'{bad}'")) && first.contains("HOST:PORT"),
                "{first}"
            );
        }
    }

    #[test]
    fn players_are_two_to_four_and_need_host() {
        assert_eq!(run(&["--host"]).unwrap().players, None);
        assert_eq!(run(&["--host", "--players", "3"]).unwrap().players, Some(3));
        assert_eq!(
            run(&["--host", "7100", "--players", "4"]).unwrap().players,
            Some(4)
        );
        for bad in ["1", "5", "0", "two"] {
            let said = run(&["--host", "--players", bad]).unwrap_err();
            let first = said.lines().next().unwrap();
            assert!(
                first.contains(&format!("'{bad}'")) && first.contains("--players"),
                "{first}"
            );
        }
        let alone = run(&["--players", "3"]).unwrap_err();
        assert!(alone.contains("--host"), "{alone}");
    }

    #[test]
    fn spectate_takes_an_address_and_no_seat() {
        assert_eq!(
            run(&["--spectate", "127.0.0.1:7100"]).unwrap().spectate,
            Some("127.0.0.1:7100".parse().unwrap())
        );
        for (flags, other) in [
            (&["--spectate", "127.0.0.1:7000", "--host"][..], "--host"),
            (
                &["--spectate", "127.0.0.1:7000", "--join", "127.0.0.1:7000"][..],
                "--join",
            ),
            (&["--spectate", "127.0.0.1:7000", "--at", "2"][..], "--at"),
        ] {
            let said = run(flags).unwrap_err();
            let first = said.lines().next().unwrap();
            assert!(
                first.contains("cannot be used with") && first.contains(other),
                "{flags:?}: {first}"
            );
        }
        let said = run(&["--spectate", "nowhere"]).unwrap_err();
        assert!(said.contains("'nowhere'"), "{said}");
    }

    #[test]
    fn a_netplay_run_refuses_the_flags_that_would_set_its_run_apart() {
        for (flags, other) in [
            (&["--host", "--input", "a.btr"][..], "--input"),
            (&["--join", "127.0.0.1:7000", "--at", "2"][..], "--at"),
            (&["--host", "--join", "127.0.0.1:7000"][..], "--join"),
            (&["--host", "--clock", "wall"][..], "--clock"),
        ] {
            let said = run(flags).unwrap_err();
            let first = said.lines().next().unwrap();
            assert!(
                first.contains("cannot be used with") && first.contains(other),
                "{flags:?}: {first}"
            );
        }
    }
}
