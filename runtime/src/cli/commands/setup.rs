//! The catalogue and set-up: `bt list`, `bt config`, `bt new`.

use crate::cli::args::{ConfigArgs, NewArgs};
use crate::cli::Offer;

use super::*;

use crate::config::manifest::{self};

pub(super) fn list(offer: &Offer) -> Result<(), String> {
    let carts = offer.list()?;
    let width = carts.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::new();
    for (name, description) in carts {
        text.push_str(&format!("{name:width$}  {description}\n"));
    }
    say(format_args!("{text}"))
}

pub(super) fn config(offer: &Offer, args: ConfigArgs) -> Result<(), String> {
    let session = session(offer, &args.cart, true, args.scale, None, BootSave::Empty)?;
    let mut text = format!("cart {}\n", session.name());
    if let Some(path) = session.manifest_path() {
        text.push_str(&format!("manifest {}\n", path.display()));
    }
    if let Some(a) = session.assets() {
        text.push_str(&format!("assets {}\n", a.display()));
    }
    text.push('\n');
    text.push_str(&manifest::format_provenance(session.provenance()));
    say(format_args!("{text}"))
}

pub(super) fn new(args: NewArgs) -> Result<(), String> {
    let parent = match args.path {
        Some(p) => p,
        None => std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?,
    };
    let dir = crate::cli::new_cart(&args.name, &parent).map_err(|e| e.to_string())?;
    let steps = crate::cli::hint::new_cart_first_steps();
    say(format_args!(
        "made the cart '{name}' in {dir}\n\n\
         Play it in a window, take a screenshot, and run its test:\n\n    \
         cd {dir}\n    \
         {play}\n    \
         {shot}\n    \
         cargo test --release\n\n\
         Its README.md says what each file is for.\n",
        name = args.name,
        dir = dir.display(),
        play = steps[0],
        shot = steps[1],
    ))
}
