//! The `bt` command line, for any set of carts: the gallery of bundled carts passes its list
//! to [`gallery`], and a cart crate's own binary calls [`main`] with its one cart.
//!
//! ```no_run
//! use bt::{Cart, Render, Update};
//!
//! #[derive(Default)]
//! struct Blank;
//!
//! impl Cart for Blank {
//!     fn update(&mut self, _ctx: &mut Update<'_>) {}
//!     fn render(&self, ctx: &mut Render<'_>) {
//!         ctx.clear(1);
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     bt_runtime::main(env!("CARGO_MANIFEST_DIR"), Blank::default)
//! }
//! ```
//!
//! Both give the same commands, flags, messages and exit codes: 0 on success, 1 when the work
//! failed (a bad cart, an unwritable file), 2 for a command line that does not parse.
//!
//! A binary made by `bt export` carries its cart's files ([`bundle`]): it runs the cart from
//! them, and with no arguments it plays it in a window.

pub(crate) mod args;
pub mod bundle;
mod commands;
mod editors;
mod hint;
mod new;
mod new_cache;
mod new_workspace;
mod parse_error;
mod progress;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use bt::Cart;
use clap::Parser;

use crate::catalog::{self, CartEntry};
use crate::config::manifest::{self, Manifest};
use crate::session::MakeCart;

pub use commands::{p8_files, pyxres_files, P8Files};
pub use new::{attach, new_cart, Attached, NewCartError, BT_ROOT};
pub use new_cache::Seeded;

/// Runs the `bt` command line over `carts`, the carts this binary bundles; commands name the
/// cart they run (`bt shot hello --at 3 -o hello.png`).
pub fn gallery(carts: &'static [CartEntry]) -> ExitCode {
    let own = match bundle::own() {
        Ok(own) => own,
        Err(message) => return failed(&message),
    };
    let own = own.filter(|b| !b.cart.is_empty());
    let carts = match &own {
        Some(own) if !own.files.is_empty() => match unpacked_gallery(carts, own) {
            Ok(carts) => carts,
            Err(message) => return failed(&message),
        },
        _ => carts,
    };
    // An exported gallery game names the cart to play when given no arguments.
    let play = own.map(|b| vec!["run".to_string(), b.cart]);
    dispatch(&Offer::Gallery(carts), play)
}

/// `carts` with the asset folder of the cart an exported gallery game plays read from the
/// files the game carries, unpacked into the cache (as a cart crate's game does), not from
/// the folder it was built in, which the machine playing it lacks.
///
/// # Errors
/// A message when there is no cache folder or the files cannot be unpacked.
fn unpacked_gallery(
    carts: &'static [CartEntry],
    own: &bundle::Bundle,
) -> Result<&'static [CartEntry], String> {
    let base = bundle::cache_base().ok_or(bundle::NO_CACHE)?;
    let unpacked = own.unpack_into(&base, &own.cart)?;
    let mut moved = carts.to_vec();
    for entry in moved.iter_mut().filter(|e| e.name == own.cart) {
        // Packed relative to the cart's folder: the asset folder keeps its name.
        let folder = entry.assets.and_then(|a| Path::new(a).file_name());
        if let Some(folder) = folder {
            let assets = unpacked.join(folder).to_string_lossy().into_owned();
            entry.assets = Some(Box::leak(assets.into_boxed_str()));
        }
    }
    // Made once, when the program starts, and used until it ends, as the list it replaces.
    Ok(Box::leak(moved.into_boxed_slice()))
}

/// Runs the `bt` command line for one cart: the cart crate's own binary. `cart_dir` is the
/// crate's folder (pass `env!("CARGO_MANIFEST_DIR")`), where its `cart.toml` and asset folder
/// are read at run time, so editing either needs no rebuild. `new` builds a fresh cart (pass
/// `MyCart::default`, or any `fn() -> MyCart`).
///
/// Commands need no cart name (`cargo run --release -- shot --at 2 -o a.png`); one given must
/// be this cart's.
pub fn main<C: Cart + 'static>(cart_dir: &str, new: fn() -> C) -> ExitCode {
    let mut dir = PathBuf::from(cart_dir);
    let mut play = None;
    match bundle::own() {
        Ok(Some(own)) => {
            let name = std::env::current_exe()
                .ok()
                .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "game".into());
            let Some(base) = bundle::cache_base() else {
                return failed(bundle::NO_CACHE);
            };
            match own.unpack_into(&base, &name) {
                Ok(unpacked) => dir = unpacked,
                Err(message) => return failed(&message),
            }
            play = Some(vec!["run".to_string()]);
        }
        Ok(None) if !dir.is_dir() => {
            let _ = writeln!(
                io::stderr().lock(),
                "bt: note: this program reads its cart.toml and assets from {}, which is not \
                 there (was the folder moved?); `{}` in the cart's folder makes one file that \
                 plays anywhere",
                crate::quote::path(&dir),
                hint::export_in_cart_folder("game")
            );
        }
        Ok(None) => {}
        Err(message) => return failed(&message),
    }
    dispatch(
        &Offer::Single {
            dir,
            make: Arc::new(move || Box::new(new()) as Box<dyn Cart>),
        },
        play,
    )
}

/// Says why the program cannot start, and fails.
fn failed(message: &str) -> ExitCode {
    let _ = writeln!(io::stderr().lock(), "bt: error: {message}");
    ExitCode::FAILURE
}

/// What a binary offers: many carts by name, or one.
enum Offer {
    Gallery(&'static [CartEntry]),
    Single { dir: PathBuf, make: MakeCart },
}

/// The cart a command runs, with what the host knows of it.
pub(crate) struct Chosen {
    name: String,
    description: String,
    make: MakeCart,
    manifest: Option<Manifest>,
    /// The asset folder, when the cart has one.
    assets: Option<PathBuf>,
}

impl Offer {
    /// The cart `name` asks for: required in a gallery, optional (and checked) for one cart.
    fn choose(&self, name: Option<&str>) -> Result<Chosen, String> {
        // An editor's recording names the editor as its cart: it replays from any binary.
        if let Some(make) = name.and_then(editors::replayed_editor) {
            let name = name.unwrap_or_default().to_string();
            return Ok(Chosen {
                description: format!("BT's {name}, replaying a recorded session"),
                name,
                make,
                manifest: None,
                assets: None,
            });
        }
        match self {
            Offer::Gallery(carts) => {
                let Some(name) = name else {
                    return Err(format!(
                        "name a cart to run; carts: {}",
                        catalog::shown(carts).join(", ")
                    ));
                };
                let entry = catalog::find(carts, name).map_err(|e| e.to_string())?;
                let build = entry.build;
                Ok(Chosen {
                    name: entry.name.to_string(),
                    description: entry.description.to_string(),
                    make: Arc::new(build),
                    manifest: None,
                    assets: entry.assets.map(PathBuf::from).filter(|d| d.is_dir()),
                })
            }
            Offer::Single { dir, make } => {
                let manifest = manifest::load(dir).map_err(|e| e.to_string())?;
                let own = single_name(dir, manifest.as_ref());
                if let Some(asked) = name {
                    if !asked.eq_ignore_ascii_case(&own) {
                        return Err(format!(
                            "this binary runs the cart '{own}', not '{}'",
                            crate::quote::excerpt(asked)
                        ));
                    }
                }
                let assets = crate::session::assets_in(dir, manifest.as_ref());
                let description = manifest
                    .as_ref()
                    .and_then(|m| m.cart.description.clone())
                    .unwrap_or_default();
                Ok(Chosen {
                    name: own,
                    description,
                    make: make.clone(),
                    manifest,
                    assets,
                })
            }
        }
    }

    /// `(name, description)` of every cart that is not hidden, for `bt list`.
    fn list(&self) -> Result<Vec<(String, String)>, String> {
        match self {
            Offer::Gallery(carts) => Ok(carts
                .iter()
                .filter(|c| !c.hidden)
                .map(|c| (c.name.to_string(), c.description.to_string()))
                .collect()),
            Offer::Single { .. } => {
                let c = self.choose(None)?;
                Ok(vec![(c.name, c.description)])
            }
        }
    }
}

/// A single cart's name: its manifest's, else its folder's.
fn single_name(dir: &Path, manifest: Option<&Manifest>) -> String {
    manifest
        .and_then(|m| m.cart.name.clone())
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "cart".to_string())
}

/// Parses the command line and runs the command. `play` is what an exported game does when
/// given no arguments at all (play in a window); other binaries print their usage then.
fn dispatch(offer: &Offer, play: Option<Vec<String>>) -> ExitCode {
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if argv.len() == 1 && cfg!(feature = "window") {
        argv.extend(play.into_iter().flatten().map(Into::into));
    }
    let cli = match args::Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(capture) = parse_error::unreadable_capture(&e) {
                // The command line is right; the file it names is not.
                let _ = writeln!(io::stderr().lock(), "bt: error: {capture}");
                return ExitCode::FAILURE;
            }
            return parse_failed(&parse_error::explained(e, &argv));
        }
    };
    if let Err(message) = progress::show_after() {
        let _ = writeln!(io::stderr().lock(), "bt: error: {message}");
        return ExitCode::from(USAGE);
    }
    match commands::run(offer, cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(commands::Failure::Run(message)) => {
            // Nothing more can be done if stderr is gone too; the exit code still tells.
            let _ = writeln!(io::stderr().lock(), "bt: error: {message}");
            ExitCode::FAILURE
        }
        Err(commands::Failure::Usage(message)) => {
            let _ = write!(
                io::stderr().lock(),
                "error: {message}\n\nFor more information, try '--help'.\n"
            );
            ExitCode::from(USAGE)
        }
    }
}

/// The exit code of a command line that does not parse or does not make sense.
const USAGE: u8 = 2;

/// Prints clap's error, help or version text itself: `Parser::parse` would do the same but
/// exit from inside clap. Help asked for and not delivered (stdout full) is a failure; a
/// message that cannot reach stderr changes nothing, and the exit code still tells.
fn parse_failed(e: &clap::Error) -> ExitCode {
    let printed = e.print().and_then(|()| io::stdout().flush());
    let code = u8::try_from(e.exit_code()).unwrap_or(USAGE);
    match printed {
        Err(err) if !e.use_stderr() && err.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(io::stderr().lock(), "bt: error: writing to stdout: {err}");
            ExitCode::FAILURE
        }
        _ => ExitCode::from(code),
    }
}
