//! Reading a cart's data and map files: capped in size, regular files only, refused before a
//! byte is read when too long.

use std::path::Path;

use bt::{AssetError, AssetErrorKind};

use super::read::{read_file, ReadError};

/// Reads the file at `path` through [`read_file`] (a regular file only, opened without blocking,
/// at most `limit` bytes, checked before and while reading), with errors as a cart sees them:
/// `name` is what they call the file.
///
/// # Errors
/// An [`AssetError`] naming `name`: [`AssetErrorKind::NotFound`], [`AssetErrorKind::NotAFile`],
/// [`AssetErrorKind::FileTooLarge`] or [`AssetErrorKind::Read`].
pub fn read_asset_file(name: &str, path: &Path, limit: u64) -> Result<Vec<u8>, AssetError> {
    read_file(path, limit).map_err(|e| {
        let kind = match e {
            ReadError::NotFound => AssetErrorKind::NotFound,
            ReadError::NotAFile(_) => AssetErrorKind::NotAFile,
            ReadError::TooLarge { size, limit } => AssetErrorKind::FileTooLarge {
                bytes: size.unwrap_or(limit.saturating_add(1)),
                limit,
            },
            ReadError::Io(e) => AssetErrorKind::Read(e.to_string()),
        };
        AssetError::new(name, kind)
    })
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
            "level.txt: the file is 10 bytes; the limit is 9"
        );
        assert_eq!(
            read_asset_file("assets", &dir, 9).unwrap_err().to_string(),
            "assets: not a regular file"
        );
        assert_eq!(
            read_asset_file("gone.txt", &dir.join("gone.txt"), 9)
                .unwrap_err()
                .to_string(),
            "gone.txt: file not found"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
