//! The carts that ship with BT, by name.

use bt::Cart;
use thiserror::Error;

/// A cart bundled with the runtime.
#[derive(Debug, Clone, Copy)]
pub struct BundledCart {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line saying what it shows.
    pub description: &'static str,
    /// Builds a fresh instance.
    pub build: fn() -> Box<dyn Cart>,
}

/// Every bundled cart, in the order `bt list` prints them.
pub const BUNDLED: &[BundledCart] = &[
    BundledCart {
        name: "hello",
        description: bt_cart_hello::DESCRIPTION,
        build: bt_cart_hello::cart,
    },
    BundledCart {
        name: "timers",
        description: bt_cart_timers::DESCRIPTION,
        build: bt_cart_timers::cart,
    },
    BundledCart {
        name: "primitives",
        description: bt_cart_primitives::DESCRIPTION,
        build: bt_cart_primitives::cart,
    },
    BundledCart {
        name: "sprites",
        description: bt_cart_sprites::DESCRIPTION,
        build: bt_cart_sprites::cart,
    },
    BundledCart {
        name: "palette",
        description: bt_cart_palette::DESCRIPTION,
        build: bt_cart_palette::cart,
    },
    BundledCart {
        name: "starfield",
        description: bt_cart_starfield::DESCRIPTION,
        build: bt_cart_starfield::cart,
    },
    BundledCart {
        name: "tilemap",
        description: bt_cart_tilemap::DESCRIPTION,
        build: bt_cart_tilemap::cart,
    },
    BundledCart {
        name: "bunnymark",
        description: bt_cart_bunnymark::DESCRIPTION,
        build: bt_cart_bunnymark::cart,
    },
    BundledCart {
        name: "snake",
        description: bt_cart_snake::DESCRIPTION,
        build: bt_cart_snake::cart,
    },
    BundledCart {
        name: "keys",
        description: bt_cart_keys::DESCRIPTION,
        build: bt_cart_keys::cart,
    },
    BundledCart {
        name: "paint",
        description: bt_cart_paint::DESCRIPTION,
        build: bt_cart_paint::cart,
    },
];

/// No bundled cart has that name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("no cart named '{name}'; bundled carts: {}", BUNDLED.iter().map(|c| c.name).collect::<Vec<_>>().join(", "))]
pub struct UnknownCart {
    /// The name asked for.
    pub name: String,
}

/// The bundled cart called `name`.
///
/// # Errors
/// [`UnknownCart`], listing the names that exist.
pub fn find(name: &str) -> Result<&'static BundledCart, UnknownCart> {
    BUNDLED
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| UnknownCart {
            name: name.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_cart_lists_the_real_ones() {
        let err = find("helo").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no cart named 'helo'; bundled carts: hello, timers, primitives, sprites, palette, \
             starfield, tilemap, bunnymark, snake, keys, paint"
        );
        assert_eq!(find("timers").unwrap().name, "timers");
    }
}
