//! Configuration a cart brings or a user sets: `cart.toml` manifests and user config files with
//! their settings layers and palette files, and the PNG loader for sprite sheets.

pub mod manifest;
pub mod png_loader;
