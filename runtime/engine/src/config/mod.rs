//! Configuration a cart brings or a user sets: `cart.toml` manifests and user config files with
//! their settings layers and palette files, [`assets`] (where a cart's files come from and the
//! decoders that read them), the PNG decoder for sprite sheets, the readers of a
//! cart's data files ([`data_file`]), sample clips ([`clip`]) and Tiled maps ([`tiled`]), and
//! [`read::read_file`], the
//! one way every reader of a user's file reads it (a size cap, and no FIFO or device).

pub mod asset_pack;
pub mod assets;
pub mod clip;
pub mod data_file;
pub mod manifest;
pub mod png_loader;
pub mod read;
#[cfg(feature = "tiled")]
pub mod tiled;
