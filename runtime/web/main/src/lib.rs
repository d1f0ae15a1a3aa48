//! A cart crate's `main.rs` is one call, `bt_runtime::main(env!("CARGO_MANIFEST_DIR"),
//! Game::default)`. `bt web` compiles that same file into the cart's page with this crate
//! standing for `bt_runtime`: here [`main`] runs no command line, it keeps the constructor,
//! and [`build`] makes the cart with it.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::cell::RefCell;
use std::process::ExitCode;

use bt::Cart;

type Constructor = Box<dyn Fn() -> Box<dyn Cart>>;

thread_local! {
    static CONSTRUCTOR: RefCell<Option<Constructor>> = const { RefCell::new(None) };
}

/// Keeps `new`, the cart's constructor, for [`build`]; `cart_dir` is not used (a page has
/// no files: a cart's assets are built into it).
pub fn main<C: Cart + 'static>(cart_dir: &str, new: fn() -> C) -> ExitCode {
    let _ = cart_dir;
    CONSTRUCTOR.with_borrow_mut(|c| *c = Some(Box::new(move || Box::new(new()))));
    ExitCode::SUCCESS
}

/// A fresh cart: runs the crate's `main` (which calls [`main`]) and the constructor it gave.
///
/// # Panics
/// When `crate_main` did not call [`main`].
pub fn build(crate_main: fn() -> ExitCode) -> Box<dyn Cart> {
    let _ = crate_main();
    CONSTRUCTOR.with_borrow(|c| match c {
        Some(new) => new(),
        None => panic!("the cart crate's main did not call bt_runtime::main"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Blank;
    impl Cart for Blank {
        fn update(&mut self, _: &mut bt::Update<'_>) {}
        fn render(&self, ctx: &mut bt::Render<'_>) {
            ctx.clear(3);
        }
    }

    fn crate_main() -> ExitCode {
        main("/nowhere", Blank::default)
    }

    #[test]
    fn a_crates_main_hands_over_its_constructor() {
        let cart = build(crate_main);
        assert_eq!(cart.configure(), Blank.configure());
    }
}
