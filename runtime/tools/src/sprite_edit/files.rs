//! The editor made from the files it opened: PNG sheets, each followed by the Tiled files
//! holding its sprites' flags, as `bt sprite-edit` opens them and a replay of its session
//! opens them again.

use crate::edit::{OpenedFiles, SaveTarget};
use crate::tiled_doc::TiledDoc;

use super::{FlagStore, Sheet, SheetTab};

/// A Tiled file holding a sheet's flags, and where it saves.
type Home = (TiledDoc, Box<dyn SaveTarget>);

/// Whether `name` is a Tiled file (`.tmx`, `.tmj`, `.tsx`, `.tsj`), which holds flags, rather
/// than a sheet.
pub fn is_tiled_file(name: &str) -> bool {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    matches!(ext.as_str(), "tmx" | "tmj" | "tsx" | "tsj")
}

/// The editor's tabs for `files`: each sheet (any file that is not a Tiled file), with the
/// Tiled files after it as the homes of its flags, file `i` saving to `targets(i)`. The first
/// home gives the flags shown and its tile size.
///
/// # Errors
/// One line naming a file that is not an indexed PNG, or a Tiled file that does not read or
/// comes before any sheet.
pub fn tabs(
    files: &OpenedFiles,
    targets: &dyn Fn(usize) -> Box<dyn SaveTarget>,
) -> Result<Vec<SheetTab>, String> {
    let mut opened: Vec<(Sheet, usize, Vec<Home>)> = Vec::new();
    for (i, file) in files.0.iter().enumerate() {
        let bytes = file.bytes.clone().unwrap_or_default();
        if is_tiled_file(&file.name) {
            let doc = TiledDoc::read(&file.name, &bytes).map_err(|e| e.to_string())?;
            let Some((_, _, homes)) = opened.last_mut() else {
                return Err(format!("{}: a Tiled file before any sheet", file.name));
            };
            homes.push((doc, targets(i)));
        } else {
            let sheet = Sheet::read(&file.name, bytes).map_err(|e| e.to_string())?;
            opened.push((sheet, i, Vec::new()));
        }
    }
    if opened.is_empty() {
        return Err("no sprite sheet to edit".into());
    }
    Ok(opened
        .into_iter()
        .map(|(sheet, i, homes)| {
            let tab = SheetTab::new(sheet, targets(i));
            let Some((first, _)) = homes.first() else {
                return tab;
            };
            let tile = first.tile_size();
            let sheet = tab.sheet();
            let count = (sheet.width() / tile.0.max(1)) * (sheet.height() / tile.1.max(1));
            let flags: Vec<u8> = (0..count).map(|id| first.tile_flags(id)).collect();
            let store = TilesetFlags {
                saved: flags.clone(),
                homes,
            };
            tab.with_flags(tile, &flags, Box::new(store))
        })
        .collect())
}

/// The Tiled files whose tileset's picture is a sheet: its sprites' flags are saved to each,
/// only the tiles whose flags were edited, so flags another file gives differently stay.
pub struct TilesetFlags {
    homes: Vec<Home>,
    /// The flags as last saved (or read from the first file).
    saved: Vec<u8>,
}

impl FlagStore for TilesetFlags {
    fn save(&mut self, flags: &[u8]) -> Result<(), String> {
        for (doc, target) in &mut self.homes {
            for (id, (&now, &was)) in flags.iter().zip(&self.saved).enumerate() {
                if now != was {
                    doc.set_tile_flags(id as u32, now)
                        .map_err(|e| e.to_string())?;
                }
            }
            if doc.is_edited() {
                let bytes = doc.to_bytes().map_err(|e| e.to_string())?;
                target.save(&bytes)?;
                doc.saved().map_err(|e| e.to_string())?;
            }
        }
        self.saved = flags.to_vec();
        Ok(())
    }
}
