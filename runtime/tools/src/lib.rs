//! BT's tools on a run, above the console and its host: the HTML timing report and its sensor
//! plots, GIF animations, and the sound and sprite editors (carts of BT's own).
//!
//! It stands on `bt-engine`, `bt-timing` and `bt-host`; the window and the command line use it.
//! Nothing below it knows it: the host's F8 report and F10 recording reach these tools only
//! through what the platform above hands the host.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// The layer below, by its own module names (`crate::engine`, `crate::config`...).
use bt_engine::*;

pub mod edit;
pub mod map_edit;
pub mod sound_edit;
pub mod sprite_edit;
pub mod tiled_doc;

/// Files made from a run: the console's own outputs (`png`, `wav`, `safe_write`) and
/// GIF animations ([`gif`]), a tool's.
pub mod export {
    pub use bt_engine::export::*;
    pub mod gif;
}

/// What a run's timing looked like: `bt-timing`'s figures, and the report drawn from them.
pub mod timing {
    pub use bt_timing::*;
    pub mod report;
    pub mod sensors;
}
