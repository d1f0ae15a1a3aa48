//! Reading a cart's data and map files: capped in size, regular files only, refused before a
//! byte is read when too long.

use std::path::{Component, Path, PathBuf};

use bt::{AssetError, AssetErrorKind};

use super::read::{read_file, ReadError};

/// Reads the file at `path` through [`read_file`] (a regular file only, opened without blocking,
/// at most `limit` bytes, checked before and while reading), with errors as a cart sees them:
/// `name` is what they call the file.
///
/// # Errors
/// An [`AssetError`] naming `name`: [`AssetErrorKind::NotFound`],
/// [`AssetErrorKind::FileTooLarge`] or [`AssetErrorKind::Read`] (saying what the file is when
/// it is not a regular file).
pub fn read_asset_file(name: &str, path: &Path, limit: u64) -> Result<Vec<u8>, AssetError> {
    read_file(path, limit).map_err(|e| {
        let kind = match e {
            ReadError::NotFound => AssetErrorKind::NotFound,
            ReadError::TooLarge { size, limit } => AssetErrorKind::FileTooLarge {
                bytes: size.unwrap_or(limit.saturating_add(1)),
                limit,
            },
            other => AssetErrorKind::Read(other.to_string()),
        };
        AssetError::new(name, kind)
    })
}

/// Where `path`, as a cart or a map names it, lies inside the asset folder `root`: refused with
/// one line naming `path` when it is absolute, when its `..` climb out of the folder, or when
/// it leads through a link to something outside the folder (both sides resolved with
/// [`std::fs::canonicalize`]). A path to nothing is returned for the reader to call missing.
///
/// # Errors
/// [`AssetErrorKind::Read`] naming `path` and saying which of the three it is.
pub fn resolve_in(root: &Path, path: &str) -> Result<PathBuf, AssetError> {
    let outside = |why: &str| {
        AssetError::new(
            path,
            AssetErrorKind::Read(format!(
                "{why}; assets are read only from inside the asset folder"
            )),
        )
    };
    let rel = Path::new(path);
    let mut depth = 0usize;
    for part in rel.components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| outside("its '..' climb out of the folder"))?;
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(outside("an absolute path"));
            }
        }
    }
    let full = root.join(rel);
    if let Ok(target) = full.canonicalize() {
        let base = if root.as_os_str().is_empty() {
            Path::new(".")
        } else {
            root
        };
        if !base.canonicalize().is_ok_and(|b| target.starts_with(b)) {
            return Err(outside("a link leading out of the folder"));
        }
    }
    Ok(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_up_to_the_cap_and_folders_are_refused() {
        let dir = std::env::temp_dir().join(format!("bt-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("level.txt");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(
            read_asset_file("level.txt", &file, 10).unwrap(),
            b"0123456789"
        );
        assert_eq!(
            read_asset_file("level.txt", &file, 9)
                .unwrap_err()
                .to_string(),
            "level.txt: could not read it: 10 bytes is over the limit of 9 bytes"
        );
        assert_eq!(
            read_asset_file("assets", &dir, 9).unwrap_err().to_string(),
            "assets: could not read it: a folder, not a regular file"
        );
        assert_eq!(
            read_asset_file("gone.txt", &dir.join("gone.txt"), 9)
                .unwrap_err()
                .to_string(),
            "gone.txt: file not found"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_stay_inside_the_asset_folder() {
        let dir = bt_test_support::ScratchDir::new("data-inside");
        let root = dir.join("assets");
        std::fs::create_dir_all(root.join("maps")).unwrap();
        std::fs::write(root.join("level.txt"), "in").unwrap();
        std::fs::write(dir.join("secret.txt"), "out").unwrap();
        std::os::unix::fs::symlink(dir.join("secret.txt"), root.join("link.txt")).unwrap();
        std::os::unix::fs::symlink(root.join("level.txt"), root.join("maps/same.txt")).unwrap();
        let ok = |p: &str| resolve_in(&root, p).unwrap();
        assert_eq!(ok("level.txt"), root.join("level.txt"));
        assert_eq!(ok("maps/../level.txt"), root.join("maps/../level.txt"));
        assert_eq!(
            ok("maps/same.txt"),
            root.join("maps/same.txt"),
            "a link inside"
        );
        assert_eq!(
            ok("gone.txt"),
            root.join("gone.txt"),
            "missing is the reader's to say"
        );
        let e = |p: &str| resolve_in(&root, p).unwrap_err().to_string();
        assert_eq!(
            e("../secret.txt"),
            "../secret.txt: could not read it: its '..' climb out of the folder; \
             assets are read only from inside the asset folder"
        );
        assert!(e("maps/../../secret.txt").contains("climb out"));
        assert!(e("/etc/passwd").starts_with("/etc/passwd: could not read it: an absolute path"));
        assert!(e("link.txt").starts_with("link.txt: could not read it: a link leading out"));
    }
}
