//! The PNG loader: any bytes decode into an RGBA picture of the size its header gives, or are
//! refused with an error; a decoded picture then becomes a sprite sheet or is refused.
#![no_main]

use bt::host::ImageLoader;
use bt::{Palette, SpriteSheet};
use bt_runtime::config::assets::{Assets, Paths};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(image) = Assets(Paths).decode("fuzz.png", data) else {
        return;
    };
    assert_eq!(
        image.pixels.len() as u64,
        u64::from(image.width) * u64::from(image.height) * 4,
        "{}x{} picture with {} bytes",
        image.width,
        image.height,
        image.pixels.len()
    );
    let mut palette = Palette::new(256).expect("256 slots");
    let _ = SpriteSheet::from_rgba(
        "fuzz.png",
        image.width,
        image.height,
        &image.pixels,
        &mut palette,
        16,
    );
});
