//! `bt export`: the game as one file to give to someone.

use std::path::Path;

use crate::cli::args::ExportArgs;
use crate::cli::bundle::{self, Bundle};
use crate::cli::Offer;
use crate::config::manifest::PaletteSource;
use crate::config::read::read_named;
use crate::export::safe_write::{Format, Output};

use super::*;

pub(super) fn export(offer: &Offer, args: ExportArgs) -> Result<(), Failure> {
    let chosen = offer.choose(args.cart.as_deref())?;
    let mut files = match offer {
        // A gallery cart's asset folder, packed as it lies in the cart's folder.
        Offer::Gallery(_) => match chosen.assets.as_deref() {
            Some(assets) => {
                let dir = assets.parent().unwrap_or(assets);
                bundle::collect(dir, Some(assets), &[])?
            }
            None => Bundle::default(),
        },
        Offer::Single { dir, .. } => {
            let palette = chosen
                .manifest
                .as_ref()
                .and_then(|m| match &m.settings.palette {
                    Some(PaletteSource::File(path)) => Some(path.clone()),
                    _ => None,
                });
            bundle::collect(dir, chosen.assets.as_deref(), palette.as_slice())?
        }
    };
    if matches!(offer, Offer::Gallery(_)) {
        files.cart = chosen.name.clone();
    }
    let exe = std::env::current_exe().map_err(|e| format!("finding this program's file: {e}"))?;
    let program = program_bytes(&exe)?;
    let output = Output::new(&args.output, Format::Any)?;
    if output.is_stdout() {
        return Err(Failure::Usage(
            "the game is a program file: give -o a file name, not '-'".into(),
        ));
    }
    let existed = args.output.exists();
    let mut bytes = program;
    let program_len = bytes.len();
    bytes.extend(files.to_bytes());
    output.write(&bytes)?;
    if !existed {
        make_executable(&args.output)?;
    }
    let carried: usize = files.files.iter().map(|(_, b)| b.len()).sum();
    say(format_args!(
        "wrote {}: the program ({} bytes) with {} file(s) of the cart ({} bytes); run it with no \
         arguments to play '{}'\n",
        crate::quote::path(&args.output),
        program_len,
        files.files.len(),
        carried,
        chosen.name
    ))?;
    if cfg!(debug_assertions) {
        let release = crate::cli::hint::export_from_release(
            &offer.program(),
            &chosen.name,
            &args.output.to_string_lossy(),
        );
        note(format_args!(
            "this is a debug build, slow and large: export from a release build, `{release}`"
        ));
    }
    Ok(())
}

/// This program's own bytes, without a bundle it may already carry (exporting from an exported
/// game gives a game, not a game inside a game).
fn program_bytes(exe: &Path) -> Result<Vec<u8>, String> {
    // Any length: this program's own file, whatever its build.
    let mut bytes = read_named("program", exe, u64::MAX).map_err(|e| e.to_string())?;
    if let Some(own) = Bundle::read_from(exe)? {
        bytes.truncate(bytes.len() - own.to_bytes().len());
    }
    Ok(bytes)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", crate::quote::path(path)))?
        .permissions();
    // Read and run for everyone, written by the owner, as a compiler leaves a program.
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions)
        .map_err(|e| format!("{}: {e}", crate::quote::path(path)))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), String> {
    Ok(())
}
