//! `bt map-edit`: the map editor in a window. This file is the platform's side of it: it finds
//! the map, reads it (and its tileset file and picture) as a cart's `load_map` would, and
//! writes what the editor saves; the editor itself is a cart ([`crate::map_edit`]).

use std::path::Path;
use std::sync::Arc;

use bt::limits::{MAX_MAP_CELLS, MAX_MAP_LAYERS};

use crate::cli::args::MapEditArgs;
use crate::cli::editors::Targets;
use crate::cli::Offer;
use crate::config::data_file::{read_asset_file, resolve_in};
use crate::config::tiled::{load_map_in, MAX_MAP_FILE};
use crate::edit::{OpenedFile, OpenedFiles, SaveTarget};
use crate::tiled_doc::TiledDoc;

use super::edited_file::{one_file, run_editor, EditedFile, Wanted};
use super::Failure;

/// The largest tileset picture read: 8192 × 8192 pixels as a PNG is far under this.
const MAX_PICTURE_FILE: u64 = 64 << 20;

pub(super) fn map_edit(offer: &Offer, args: MapEditArgs) -> Result<(), Failure> {
    let path = one_file(offer, args.target.as_deref(), &MAP)?;
    let opened = open(&path)?;
    let mut files = vec![OpenedFile {
        name: path.display().to_string(),
        bytes: Some(opened.bytes.clone()),
    }];
    // The tileset's file and the picture travel by the names the map gives them.
    for (name, bytes) in opened.tileset.iter().chain(&opened.picture) {
        files.push(OpenedFile {
            name: name.clone(),
            bytes: Some(bytes.clone()),
        });
    }
    let file = EditedFile::new(path.clone(), "map", MAX_MAP_FILE, Some(opened.bytes));
    let targets: Targets = Arc::new(move |_| Box::new(file.clone()) as Box<dyn SaveTarget>);
    run_editor(
        "map-edit",
        &OpenedFiles(files),
        targets,
        &args.editor,
        &path,
    )
}

/// A map as opened: its bytes, its tileset file and its picture by the names the map gives
/// them. What the editor makes of them is [`crate::cli::editors::map_editor`]'s.
struct Opened {
    bytes: Vec<u8>,
    tileset: Option<(String, Vec<u8>)>,
    picture: Option<(String, Vec<u8>)>,
}

/// What `bt map-edit` opens from a cart: its one Tiled map.
const MAP: Wanted = Wanted {
    what: "map",
    several: "maps",
    is_one: |path| {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("tmx"))
    },
    none_hint: |_| " (a Tiled map: .tmj or .tmx)".to_string(),
    example: "name one: bt map-edit PATH/level.tmj",
};

/// Reads the map at `path` as a cart's `load_map` reads it from the map's own folder (links
/// out of it, FIFOs and devices refused), then its tileset file and picture beside it.
fn open(path: &Path) -> Result<Opened, String> {
    let shown = crate::quote::path(path);
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let full = resolve_in(folder, &name).map_err(|e| format!("{shown}: {}", e.kind))?;
    let bytes = read_asset_file(&shown, &full, MAX_MAP_FILE).map_err(|e| e.to_string())?;
    let doc = TiledDoc::read(&shown, &bytes).map_err(|e| e.to_string())?;
    let (w, h) = doc.size();
    if u64::from(w) * u64::from(h) > MAX_MAP_CELLS || doc.layers().len() > MAX_MAP_LAYERS {
        return Err(format!(
            "{shown}: {w}x{h} cells in {} layers; BT reads maps of at most {MAX_MAP_CELLS} \
             cells and {MAX_MAP_LAYERS} layers",
            doc.layers().len()
        ));
    }
    if doc.read_only().is_none() {
        // What BT would refuse to read is refused before a window opens.
        load_map_in(folder, &name).map_err(|e| format!("{shown} -> {e}"))?;
    }
    let mut tileset = None;
    let mut image = None;
    let mut beside = folder.to_path_buf();
    if let Some(first) = doc.tilesets().first() {
        image.clone_from(&first.image);
        if let Some(source) = &first.source {
            let file = resolve_in(folder, source).map_err(|e| format!("{shown} -> {e}"))?;
            let tsx = read_asset_file(source, &file, MAX_MAP_FILE).map_err(|e| e.to_string())?;
            let t = TiledDoc::read(source, &tsx).map_err(|e| e.to_string())?;
            image = t.tilesets().first().and_then(|t| t.image.clone());
            if let Some(parent) = Path::new(source).parent() {
                beside = folder.join(parent);
            }
            tileset = Some((source.clone(), tsx));
        }
    }
    let picture = image.and_then(|image| {
        let file = resolve_in(&beside, &image).ok()?;
        match read_asset_file(&image, &file, MAX_PICTURE_FILE) {
            Ok(bytes) => Some((image, bytes)),
            Err(e) => {
                super::note(format_args!("{e}: the tiles show as numbered squares"));
                None
            }
        }
    });
    Ok(Opened {
        bytes,
        tileset,
        picture,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_beyond_bts_limits_are_refused_before_a_window_opens() {
        let dir = bt_test_support::ScratchDir::new("map-edit-open");
        let big = dir.join("big.tmx");
        std::fs::write(
            &big,
            "<map width=\"5000\" height=\"5000\" tilewidth=\"8\" tileheight=\"8\"></map>",
        )
        .unwrap();
        let e = open(&big).err().unwrap();
        assert!(e.contains("5000x5000 cells"), "{e}");
        let level = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../carts/platformer/assets/level2.tmx");
        let opened = open(&level).unwrap();
        assert!(opened.picture.is_some() && opened.tileset.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_maps_folder_or_a_fifo_is_refused() {
        let dir = bt_test_support::ScratchDir::new("map-edit-links");
        std::fs::create_dir_all(dir.join("maps")).unwrap();
        std::fs::write(dir.join("outside.tmx"), "<map/>").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.tmx"), dir.join("maps/link.tmx")).unwrap();
        let e = open(&dir.join("maps/link.tmx")).err().unwrap();
        assert!(e.contains("asset folder"), "{e}");
        let fifo = dir.join("maps/pipe.tmx");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = open(&fifo).err().unwrap();
            assert!(e.starts_with(&crate::quote::path(&fifo)), "{e}");
        }
    }
}
