//! A game as one file: `bt export` copies the running binary and appends the cart's files
//! (`cart.toml`, its asset folder, a palette file it names) after the program, with a short
//! trailer that says where they begin.
//!
//! An executable may carry bytes past its end; the system's loader never reads them (LÖVE's
//! fused games work the same way). When a binary starts it looks at its own last bytes: with a
//! bundle there, it unpacks the files once into a cache folder named by their hash and runs
//! the cart from there, so the file plays wherever it is copied. Without one it reads the
//! files from the folder it was built in, as during development, where `bt run` reloads them
//! as they change.
//!
//! The layout, all integers little-endian:
//!
//! ```text
//! entries...    u32 name length, name (UTF-8, '/'-separated, relative), u64 size, bytes
//! cart name     u32 length, bytes (the cart an exported gallery runs; empty for a cart crate)
//! trailer       u64 entry count, u64 payload length (entries and cart name), "BT-BUNDLE-1\0"
//! ```

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Component, Path, PathBuf};

/// The last bytes of a binary with a bundle.
const MAGIC: &[u8; 12] = b"BT-BUNDLE-1\0";
/// The trailer's size: entry count, payload length, magic.
const TRAILER: u64 = 8 + 8 + MAGIC.len() as u64;
/// The largest bundle unpacked, in bytes: far above any cart's assets, far below memory.
pub const MAX_BUNDLE_BYTES: u64 = 256 * 1024 * 1024;
/// The most files a bundle holds.
pub const MAX_BUNDLE_FILES: u64 = 10_000;
/// The longest file name inside a bundle, in bytes.
const MAX_NAME_BYTES: u32 = 1024;

/// The files a binary carries: relative names with `/` between parts, and their bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bundle {
    /// Each file's relative name and contents, in the order written.
    pub files: Vec<(String, Vec<u8>)>,
    /// The cart an exported gallery binary runs; empty for a cart crate's own binary.
    pub cart: String,
}

impl Bundle {
    /// The bundle's bytes as appended to a binary, trailer included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, bytes) in &self.files {
            out.extend_from_slice(&(name.len() as u32).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        out.extend_from_slice(&(self.cart.len() as u32).to_le_bytes());
        out.extend_from_slice(self.cart.as_bytes());
        let payload = out.len() as u64;
        out.extend_from_slice(&(self.files.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload.to_le_bytes());
        out.extend_from_slice(MAGIC);
        out
    }

    /// Reads the bundle at the end of the file `path`, if it has one.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read, or when its trailer promises a bundle
    /// that is not there whole (cut short, too large, a name that leaves its folder).
    pub fn read_from(path: &Path) -> Result<Option<Bundle>, String> {
        let fail = |what: String| format!("{}: {what}", path.display());
        let mut file = File::open(path).map_err(|e| fail(e.to_string()))?;
        let len = file.metadata().map_err(|e| fail(e.to_string()))?.len();
        if len < TRAILER {
            return Ok(None);
        }
        let mut trailer = [0u8; TRAILER as usize];
        file.seek(SeekFrom::Start(len - TRAILER))
            .and_then(|_| file.read_exact(&mut trailer))
            .map_err(|e| fail(e.to_string()))?;
        if &trailer[16..] != MAGIC {
            return Ok(None);
        }
        let count = u64::from_le_bytes(trailer[..8].try_into().expect("8 bytes"));
        let payload = u64::from_le_bytes(trailer[8..16].try_into().expect("8 bytes"));
        if payload > MAX_BUNDLE_BYTES || payload > len - TRAILER {
            return Err(fail(format!(
                "the bundled game claims {payload} bytes, more than the file holds or the \
                 {MAX_BUNDLE_BYTES}-byte limit"
            )));
        }
        if count > MAX_BUNDLE_FILES {
            return Err(fail(format!(
                "the bundled game claims {count} files, over the limit of {MAX_BUNDLE_FILES}"
            )));
        }
        let mut bytes = vec![0u8; payload as usize];
        file.seek(SeekFrom::Start(len - TRAILER - payload))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| fail(e.to_string()))?;
        Bundle::parse(&bytes, count)
            .map(Some)
            .map_err(|what| fail(format!("the bundled game is damaged: {what}")))
    }

    /// The entries and cart name of a payload holding `count` files.
    fn parse(mut bytes: &[u8], count: u64) -> Result<Bundle, String> {
        fn take<'a>(bytes: &mut &'a [u8], n: u64) -> Result<&'a [u8], String> {
            let n = usize::try_from(n).map_err(|_| "a length past memory".to_string())?;
            if bytes.len() < n {
                return Err("it ends in the middle of a file".into());
            }
            let (head, rest) = bytes.split_at(n);
            *bytes = rest;
            Ok(head)
        }
        let u32_at = |b: &mut &[u8]| -> Result<u32, String> {
            Ok(u32::from_le_bytes(take(b, 4)?.try_into().expect("4 bytes")))
        };
        let mut bundle = Bundle::default();
        for _ in 0..count {
            let name_len = u32_at(&mut bytes)?;
            if name_len > MAX_NAME_BYTES {
                return Err(format!("a file name of {name_len} bytes"));
            }
            let name = std::str::from_utf8(take(&mut bytes, u64::from(name_len))?)
                .map_err(|_| "a file name that is not UTF-8".to_string())?
                .to_string();
            if !is_relative_inside(&name) {
                return Err(format!(
                    "the file name {} leaves the game's folder",
                    crate::quote::quoted(&name)
                ));
            }
            let size = u64::from_le_bytes(take(&mut bytes, 8)?.try_into().expect("8 bytes"));
            bundle.files.push((name, take(&mut bytes, size)?.to_vec()));
        }
        let cart_len = u32_at(&mut bytes)?;
        if cart_len > MAX_NAME_BYTES {
            return Err(format!("a cart name of {cart_len} bytes"));
        }
        bundle.cart = std::str::from_utf8(take(&mut bytes, u64::from(cart_len))?)
            .map_err(|_| "a cart name that is not UTF-8".to_string())?
            .to_string();
        if !bytes.is_empty() {
            return Err(format!("{} bytes left over after its files", bytes.len()));
        }
        Ok(bundle)
    }

    /// A short hash of every name and byte (FNV-1a, 64 bits): the cache folder's name, so a
    /// changed game unpacks afresh and an unchanged one is unpacked once.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (name, bytes) in &self.files {
            eat(name.as_bytes());
            eat(&(bytes.len() as u64).to_le_bytes());
            eat(bytes);
        }
        eat(self.cart.as_bytes());
        h
    }

    /// Unpacks the files into `cache/NAME-HASH/` unless a complete copy is there already, and
    /// returns that folder. The files are written to a fresh folder beside it and renamed into
    /// place, so a copy is never half there.
    ///
    /// # Errors
    /// A message naming the folder when it cannot be written.
    pub fn unpack_into(&self, cache: &Path, name: &str) -> Result<PathBuf, String> {
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        let dir = cache.join(format!("{safe}-{:016x}", self.hash()));
        if dir.is_dir() {
            return Ok(dir);
        }
        let fail = |e: io::Error| format!("unpacking the game into {}: {e}", dir.display());
        std::fs::create_dir_all(cache).map_err(fail)?;
        let staging = tempfile::Builder::new()
            .prefix(".unpacking-")
            .tempdir_in(cache)
            .map_err(fail)?;
        for (rel, bytes) in &self.files {
            let path = staging.path().join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(fail)?;
            }
            std::fs::write(&path, bytes).map_err(fail)?;
        }
        match std::fs::rename(staging.path(), &dir) {
            Ok(()) => {
                // Renamed away: nothing left for the guard to remove.
                let _ = staging.keep();
                Ok(dir)
            }
            // Another copy of the game unpacked it first.
            Err(_) if dir.is_dir() => Ok(dir),
            Err(e) => Err(fail(e)),
        }
    }
}

/// A name with only normal parts: no root, no `..`, no `.`, nothing empty.
fn is_relative_inside(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        && !name.split('/').any(str::is_empty)
}

/// The folder bundles unpack into: `$XDG_CACHE_HOME/bt/games` when that is absolute, else
/// `$HOME/.cache/bt/games`, else the system's temporary folder.
pub fn cache_dir() -> PathBuf {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    var("XDG_CACHE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| {
            var("HOME")
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir)
        .join("bt")
        .join("games")
}

/// The bundle this very binary carries, if any.
///
/// # Errors
/// As [`Bundle::read_from`], or when the binary's own path is unknown.
pub fn own() -> Result<Option<Bundle>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("finding this program's file: {e}"))?;
    Bundle::read_from(&exe)
}

/// Collects a cart's files for a bundle: `cart.toml`, every file in `assets` (recursively) and
/// the other `extra` files, each named relative to `dir`. Files outside `dir` are refused.
///
/// # Errors
/// A message naming a file that cannot be read, lies outside `dir`, or makes the bundle too
/// large.
pub fn collect(dir: &Path, assets: Option<&Path>, extra: &[PathBuf]) -> Result<Bundle, String> {
    let mut paths: Vec<PathBuf> = Vec::new();
    let manifest = dir.join(crate::config::manifest::MANIFEST_FILE);
    if manifest.is_file() {
        paths.push(manifest);
    }
    if let Some(assets) = assets {
        let mut pending = vec![assets.to_path_buf()];
        while let Some(folder) = pending.pop() {
            let entries =
                std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
            for entry in entries {
                let path = entry
                    .map_err(|e| format!("{}: {e}", folder.display()))?
                    .path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    paths.push(path);
                }
            }
        }
    }
    paths.extend(extra.iter().cloned());
    paths.sort();
    paths.dedup();
    let mut bundle = Bundle::default();
    let mut total = 0u64;
    for path in paths {
        let rel = path.strip_prefix(dir).map_err(|_| {
            format!(
                "{} is outside the cart's folder {}, so it cannot go into the game",
                path.display(),
                dir.display()
            )
        })?;
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = crate::config::read::read_file(&path, MAX_BUNDLE_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        total += bytes.len() as u64;
        if total > MAX_BUNDLE_BYTES {
            return Err(format!(
                "the cart's files come to more than {MAX_BUNDLE_BYTES} bytes, the most a game \
                 file carries"
            ));
        }
        bundle.files.push((name, bytes));
    }
    Ok(bundle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Bundle {
        Bundle {
            files: vec![
                ("cart.toml".into(), b"[cart]\nname = \"x\"\n".to_vec()),
                ("assets/sheet.png".into(), vec![0, 1, 2, 255]),
                ("assets/empty.txt".into(), Vec::new()),
            ],
            cart: "snake".into(),
        }
    }

    #[test]
    fn a_bundle_appended_to_a_program_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("game");
        let mut bytes = b"\x7fELF pretend program".to_vec();
        bytes.extend(sample().to_bytes());
        std::fs::write(&exe, &bytes).unwrap();
        assert_eq!(Bundle::read_from(&exe).unwrap(), Some(sample()));
        std::fs::write(&exe, b"\x7fELF no bundle here at all, only code").unwrap();
        assert_eq!(Bundle::read_from(&exe).unwrap(), None);
    }

    #[test]
    fn a_cut_or_lying_bundle_is_refused_with_the_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("game");
        let good = sample().to_bytes();
        // The payload cut short in the middle: the trailer still claims it all.
        let mut cut = good[..10].to_vec();
        cut.extend_from_slice(&good[good.len() - TRAILER as usize..]);
        std::fs::write(&exe, &cut).unwrap();
        let err = Bundle::read_from(&exe).unwrap_err();
        assert!(err.starts_with(&exe.display().to_string()), "{err}");
        // A name that climbs out of the folder.
        let evil = Bundle {
            files: vec![("../outside".into(), vec![1])],
            cart: String::new(),
        };
        std::fs::write(&exe, evil.to_bytes()).unwrap();
        let err = Bundle::read_from(&exe).unwrap_err();
        assert!(err.contains("leaves the game's folder"), "{err}");
    }

    #[test]
    fn unpacking_writes_every_file_once_and_reuses_the_folder() {
        let cache = tempfile::tempdir().unwrap();
        let b = sample();
        let dir = b.unpack_into(cache.path(), "my game!").unwrap();
        assert!(dir
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("my_game_-"));
        assert_eq!(
            std::fs::read(dir.join("assets/sheet.png")).unwrap(),
            [0, 1, 2, 255]
        );
        assert_eq!(b.unpack_into(cache.path(), "my game!").unwrap(), dir);
        let names: Vec<_> = std::fs::read_dir(cache.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no staging folder left behind");
        let mut changed = b.clone();
        changed.files[1].1.push(7);
        assert_ne!(changed.unpack_into(cache.path(), "my game!").unwrap(), dir);
    }

    #[test]
    fn collect_takes_the_manifest_and_the_asset_tree_and_refuses_outsiders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cart");
        std::fs::create_dir_all(root.join("assets/levels")).unwrap();
        std::fs::write(root.join("cart.toml"), "").unwrap();
        std::fs::write(root.join("assets/levels/one.txt"), "1").unwrap();
        std::fs::write(root.join("assets/sheet.png"), "png").unwrap();
        let b = collect(&root, Some(&root.join("assets")), &[]).unwrap();
        let names: Vec<&str> = b.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["assets/levels/one.txt", "assets/sheet.png", "cart.toml"]
        );
        std::fs::write(dir.path().join("elsewhere.hex"), "000000").unwrap();
        let err = collect(&root, None, &[dir.path().join("elsewhere.hex")]).unwrap_err();
        assert!(err.contains("outside the cart's folder"), "{err}");
    }
}
