//! Which save data a command's cart boots with, and which file `bt run` writes back to.

use std::path::PathBuf;

use crate::cli::args::CartArgs;
use crate::cli::Chosen;
use crate::save;

/// The save data the cart boots with, and the file to write it back to.
///
/// With `live` (`bt run` playing live): the file `--save` names, else the cart's own save file
/// ([`save::default_path`]); a missing file is empty save data, and the file is the store.
/// Otherwise (every headless command, and `bt run --input`): the file `--save` names, which
/// must exist, read only; without it, `None` (empty save data, or what a replay carries).
pub(super) fn boot(
    args: &CartArgs,
    chosen: &Chosen,
    live: bool,
) -> Result<(Option<Vec<u8>>, Option<PathBuf>), String> {
    if !live {
        let bytes = save::boot_save(args.save.as_deref()).map_err(|e| e.to_string())?;
        return Ok((bytes, None));
    }
    let path = match &args.save {
        Some(path) => path.clone(),
        None => save::default_path(&chosen.name).map_err(|e| e.to_string())?,
    };
    let bytes = save::load(&path).map_err(|e| {
        format!("{e} (it is left as it is: move it aside to start with empty save data)")
    })?;
    Ok((Some(bytes.unwrap_or_default()), Some(path)))
}
