//! Which saved files are a change to the cart's source: editors write more than the file being
//! saved (swap files, backups, lock links, a probe file), and none of those is worth a build.

use std::path::{Path, PathBuf};

/// How often `bt dev` looks at the source: a save shows within this long. The source is a few
/// files, so a look costs microseconds; a quarter of the asset watcher's interval, since every
/// look saved here comes off the wait from a save to the game playing again.
pub(super) const SOURCE_POLL: std::time::Duration = std::time::Duration::from_millis(60);

/// The folder and files of a cart crate that `bt dev` watches: `src/`, `Cargo.toml`,
/// `cart.toml` and `build.rs` (a file not there yet is watched for appearing).
pub(super) fn watched(crate_dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let files = ["Cargo.toml", "cart.toml", "build.rs"]
        .iter()
        .map(|f| crate_dir.join(f))
        .collect();
    (crate_dir.join("src"), files)
}

/// Whether a change the watcher names (a path inside `src/` with `/` between folders, or a
/// watched file's whole path) is a change to the source: not an editor's swap file (`.x.swp`,
/// `.#x`), backup (`x~`, `x.bak`), temporary file (`x.tmp`) or vim's write probe (`4913`), nor
/// anything in a hidden folder inside `src/` (the folders above a watched file are the cart's
/// own, hidden or not).
pub(super) fn is_source_change(name: &str) -> bool {
    let mut parts = name.split(['/', '\\']).filter(|p| !p.is_empty());
    let Some(file) = parts.next_back() else {
        return false;
    };
    let inside_src = !Path::new(name).is_absolute();
    if inside_src && parts.any(|folder| folder.starts_with('.') && folder != "..") {
        return false;
    }
    let editor_file = file.starts_with('.')
        || file.starts_with('#')
        || file.ends_with('~')
        || file == "4913"
        || [".swp", ".swx", ".swo", ".tmp", ".bak", ".orig"]
            .iter()
            .any(|ext| file.ends_with(ext));
    !editor_file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_files_are_changes() {
        for name in [
            "lib.rs",
            "game/player.rs",
            "/home/me/robots/Cargo.toml",
            "/home/me/robots/cart.toml",
            "/home/me/.games/robots/Cargo.toml",
            "shaders/tile.txt",
        ] {
            assert!(is_source_change(name), "{name}");
        }
    }

    #[test]
    fn editors_own_files_are_not() {
        for name in [
            ".lib.rs.swp",
            "game/.player.rs.swx",
            ".#lib.rs",
            "#lib.rs#",
            "lib.rs~",
            "4913",
            "game/4913",
            "lib.rs.tmp",
            "lib.rs.orig",
            ".idea/workspace.xml",
            "",
        ] {
            assert!(!is_source_change(name), "{name}");
        }
    }

    #[test]
    fn the_crate_s_source_and_manifests_are_watched() {
        let (folder, files) = watched(Path::new("/c"));
        assert_eq!(folder, Path::new("/c/src"));
        assert_eq!(
            files,
            ["/c/Cargo.toml", "/c/cart.toml", "/c/build.rs"].map(PathBuf::from)
        );
    }
}
