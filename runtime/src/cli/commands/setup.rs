//! The catalogue and set-up: `bt list`, `bt config`, `bt new`, `bt attach`.

use crate::cli::args::{AttachArgs, ConfigArgs, NewArgs};
use crate::cli::Attached;
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
        text.push_str(&format!("manifest {}\n", crate::quote::path(path)));
    }
    if let Some(a) = session.assets() {
        text.push_str(&format!("assets {}\n", crate::quote::path(a)));
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
    let made = crate::cli::new_cart(&args.name, &parent).map_err(|e| e.to_string())?;
    let steps = crate::cli::hint::new_cart_first_steps();
    say(format_args!(
        "made the cart '{name}' in {dir}\n{build}\n\
         Play it in a window, take a screenshot, and run its test:\n\n    \
         cd {dir}\n    \
         {play}\n    \
         {shot}\n    \
         cargo test --release\n\n\
         Its README.md says what each file is for; on another machine, `bt attach` in its \
         folder makes what git leaves out.\n",
        name = args.name,
        dir = crate::quote::path(&made.dir),
        build = build_report(&made),
        play = steps[0],
        shot = steps[1],
    ))
}

pub(super) fn attach(args: AttachArgs) -> Result<(), String> {
    let dir = match args.dir {
        Some(p) => p,
        None => std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?,
    };
    let attached = crate::cli::attach(&dir).map_err(|e| e.to_string())?;
    let steps = crate::cli::hint::new_cart_first_steps();
    say(format_args!(
        "attached the cart '{name}' in {dir} to BT in {root}\n{build}\n\
         Play it: {play}\n",
        name = attached.name,
        dir = crate::quote::path(&attached.dir),
        root = crate::quote::path(&attached.root),
        build = build_report(&attached),
        play = steps[0],
    ))
}

/// What `bt new` and `bt attach` say of the shared build folder: where it is, what was copied
/// into it, and their notes.
fn build_report(attached: &Attached) -> String {
    let seeded = &attached.seeded;
    let mut text = format!(
        "its builds go to {} (a link in .bt), shared by the carts of this BT; ",
        crate::quote::path(&attached.build)
    );
    if seeded.from.is_empty() && !seeded.notes.is_empty() {
        text.push_str("nothing was copied into it\n");
    } else if seeded.from.is_empty() {
        text.push_str(&format!(
            "BT in {} has no build to copy yet, so the first cart built compiles BT's \
             libraries too (minutes), and the carts after it reuse them\n",
            crate::quote::path(&attached.root)
        ));
    } else if seeded.files == 0 {
        text.push_str("it already holds what BT compiled\n");
    } else {
        let mib = seeded.bytes as f64 / (1024.0 * 1024.0);
        text.push_str(&format!(
            "copied {} files ({mib:.0} MiB) of what BT compiled into it\n",
            seeded.files
        ));
    }
    for line in seeded.notes.iter().chain(&attached.notes) {
        text.push_str(&format!("note: {line}\n"));
    }
    text
}
