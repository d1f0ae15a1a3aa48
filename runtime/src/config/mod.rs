//! Configuration a cart brings or a user sets: `cart.toml` manifests and user config files with
//! their settings layers and palette files, the PNG loader for sprite sheets, and the readers
//! of a cart's data files ([`data_file`]) and Tiled maps ([`tiled`]).

pub mod data_file;
pub mod manifest;
pub mod png_loader;
pub mod tiled;
