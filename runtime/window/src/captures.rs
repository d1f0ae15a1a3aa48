//! The captures folder: where a native host keeps the files to keep the
//! [`Host`](crate::host::Host) puts in its outbox ([`crate::host::outbox`]), each under the
//! first free number, never over a file that is there.

use std::path::{Path, PathBuf};

use crate::export::safe_write::write_new;
use crate::host::OutFile;

/// The highest number a capture takes.
const MAX_NUMBER: u32 = 9999;

/// Writes `files` into `folder` (made when missing) under their numbered names
/// ([`OutFile::numbered_name`]), all with the first number none of them takes, as every output
/// is written (see [`crate::export::safe_write`]): never over a file, even one made at the same
/// moment by another program. Returns the paths written, in order.
///
/// # Errors
/// A message naming the folder or file that could not be written, or a folder whose numbers
/// are all taken.
pub fn save_numbered(folder: &Path, files: &[OutFile]) -> Result<Vec<PathBuf>, String> {
    if let Some(file) = files.iter().find(|f| f.numbered_name(1).is_none()) {
        return Err(format!(
            "{:?} replaces a file at its path: it takes no number in {}",
            file.kind,
            crate::quote::path(folder)
        ));
    }
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot create {}: {e}", crate::quote::path(folder)))?;
    'numbers: for n in 1..=MAX_NUMBER {
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|f| folder.join(f.numbered_name(n).unwrap_or_default()))
            .collect();
        if paths.iter().any(|p| p.symlink_metadata().is_ok()) {
            continue;
        }
        for (file, path) in files.iter().zip(&paths) {
            let written =
                write_new(path, file.kind.format(), &file.bytes).map_err(|e| e.to_string())?;
            if !written {
                // Taken since the look above: the next number.
                continue 'numbers;
            }
        }
        return Ok(paths);
    }
    Err(format!(
        "{} holds {MAX_NUMBER} captures already",
        crate::quote::path(folder)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::FileKind;

    #[test]
    fn files_of_one_save_share_the_first_number_none_of_them_takes() {
        let dir = tempfile::tempdir().unwrap();
        let timings = [
            OutFile::keep(FileKind::TimingReport, "c-timings", b"<html>".to_vec(), 1),
            OutFile::keep(FileKind::TimingTrace, "c-timings", b"{}".to_vec(), 1),
        ];
        std::fs::write(dir.path().join("c-timings-0001.json"), "mine").unwrap();
        let first = save_numbered(dir.path(), &timings).unwrap();
        assert_eq!(
            first,
            [
                dir.path().join("c-timings-0002.html"),
                dir.path().join("c-timings-0002.json")
            ]
        );
        let second = save_numbered(dir.path(), &timings).unwrap();
        assert!(second[0].ends_with("c-timings-0003.html"), "{second:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("c-timings-0001.json")).unwrap(),
            "mine",
            "never over a file that is there"
        );
        assert_eq!(std::fs::read(&first[0]).unwrap(), b"<html>");
    }
}
