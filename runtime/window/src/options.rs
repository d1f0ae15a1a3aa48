//! How `bt run` opens and drives its window: [`WindowOptions`], filled by the command line from
//! its flags, and the window's size rules.

use std::path::PathBuf;
use std::sync::Arc;

use crate::clock::spec::ClockSpec;

/// The window the default scale aims to fit: large enough for a clear picture, small enough for
/// a laptop screen with room for the desktop around it.
pub const TARGET_WINDOW: (u32, u32) = (1280, 800);

/// Where F9 screenshots, F10 GIFs and the other captures go when no folder is given.
pub const DEFAULT_CAPTURES: &str = "captures";

/// The longest `bt run --exit-after`: over eleven days.
pub const MAX_EXIT_AFTER_SECONDS: f64 = 1_000_000.0;

/// How `bt run` opens and drives its window, beyond what the cart's
/// [`Session`](crate::session::Session) resolved (its settings, window scale included, its
/// asset folder and save file). The command line fills it from its flags (`WindowArgs` and
/// `bt run`'s own); it holds no parser.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// Record the run into this replay file: written through a temporary file every 10
    /// seconds, and when the window closes or the cart panics.
    pub record: Option<PathBuf>,
    /// The clock [default: wall].
    pub clock: Option<ClockSpec>,
    /// Present as fast as possible instead of waiting for the display's refresh.
    pub no_vsync: bool,
    /// Start with the cart's post-process effects (CRT looks) off; Shift+F11 turns them on.
    pub no_effects: bool,
    /// Open paused on the frame at this many simulated seconds; F5 plays on.
    pub at: Option<f64>,
    /// Start fullscreen (F11 switches).
    pub fullscreen: bool,
    /// Play without sound: no audio device is opened.
    pub mute: bool,
    /// The key-map file, when one was given.
    pub keys: Option<PathBuf>,
    /// Folder for F9 screenshots, F10 GIFs, F8 timings, F2 replays and F3 state files.
    pub captures: PathBuf,
    /// Write every presented frame's time to this CSV file on exit, and print the frame rate
    /// and jitter.
    pub frame_log: Option<PathBuf>,
    /// Close the window this many seconds after it showed its first frame (at most
    /// [`MAX_EXIT_AFTER_SECONDS`]).
    pub exit_after: Option<f64>,
    /// On exit, write every frame of the run as a Chrome trace (open it in Perfetto).
    pub trace_out: Option<PathBuf>,
    /// Do not watch the cart's asset folder and palette file for changes.
    pub no_watch: bool,
    /// The cart is one of BT's editors: P is its key, not the pause menu's.
    pub editor: bool,
    /// Keep the last 10 seconds the window showed (about 40 MB at 320x240); Shift+F10 saves
    /// them as a GIF in the captures folder.
    pub gif_buffer: bool,
    /// Take `bt dev`'s orders on standard input and keep the window's place in this folder
    /// (see [`crate::dev_link`]); `bt dev` passes it, a player never does.
    pub dev_link: Option<PathBuf>,
    /// The capture the clock plays, when it plays one (`--clock capture:FILE`): its own
    /// columns go into `--trace-out`'s trace.
    pub captured: Option<Arc<crate::clock::capture::Capture>>,
    /// Play over the network, as the host or a joiner of a rollback session, or watch one
    /// ([`crate::netplay`]).
    pub net: Option<crate::netplay::NetRole>,
}

impl Default for WindowOptions {
    fn default() -> WindowOptions {
        WindowOptions {
            record: None,
            clock: None,
            no_vsync: false,
            no_effects: false,
            at: None,
            fullscreen: false,
            mute: false,
            keys: None,
            captures: PathBuf::from(DEFAULT_CAPTURES),
            frame_log: None,
            exit_after: None,
            trace_out: None,
            no_watch: false,
            editor: false,
            gif_buffer: false,
            dev_link: None,
            captured: None,
            net: None,
        }
    }
}

/// The largest whole scale at which a `width` × `height` display fits [`TARGET_WINDOW`] (and the
/// monitor, when known), at least 1.
pub fn default_scale(width: u32, height: u32, monitor: Option<(u32, u32)>) -> u32 {
    let (mut bw, mut bh) = TARGET_WINDOW;
    if let Some((mw, mh)) = monitor {
        bw = bw.min(mw);
        bh = bh.min(mh);
    }
    (bw / width.max(1)).min(bh / height.max(1)).max(1)
}

/// The widest or tallest window `bt run` opens, in pixels: already 256 MiB of pixels at that
/// size, and larger, winit failed to convert the size and `bt run` died.
pub const MAX_WINDOW_SIDE: u32 = 8192;

/// `scale`, or the largest smaller one (at least 1) at which a `width` × `height` display fits
/// a window of at most [`MAX_WINDOW_SIDE`] a side.
pub fn largest_window_scale(width: u32, height: u32, scale: u32) -> u32 {
    let fits = MAX_WINDOW_SIDE / width.max(height).max(1);
    scale.min(fits).max(1)
}
