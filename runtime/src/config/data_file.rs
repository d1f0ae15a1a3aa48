//! Reading a cart's data and map files: capped in size, regular files only, refused before a
//! byte is read when too long.

use std::io::Read;
use std::path::Path;

use bt::{AssetError, AssetErrorKind};

/// Reads the file at `path`, refusing a path that is not a regular file and a file longer
/// than `limit` bytes. The length is checked from the file's metadata before reading and again
/// while reading (a file that grows in between is still cut off at the limit). `name` is what
/// errors call the file.
///
/// # Errors
/// An [`AssetError`] naming `name`: [`AssetErrorKind::NotFound`], [`AssetErrorKind::NotAFile`],
/// [`AssetErrorKind::FileTooLarge`] or [`AssetErrorKind::Read`].
pub fn read_asset_file(name: &str, path: &Path, limit: u64) -> Result<Vec<u8>, AssetError> {
    let fail = |kind| AssetError::new(name, kind);
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::NotFound {
            fail(AssetErrorKind::NotFound)
        } else {
            fail(AssetErrorKind::Read(e.to_string()))
        }
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(fail(AssetErrorKind::NotAFile));
    }
    if meta.len() > limit {
        return Err(fail(AssetErrorKind::FileTooLarge {
            bytes: meta.len(),
            limit,
        }));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(fail(AssetErrorKind::FileTooLarge {
            bytes: bytes.len() as u64,
            limit,
        }));
    }
    Ok(bytes)
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
