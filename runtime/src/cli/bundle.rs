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
//! trailer       u64 entry count, u64 payload length (entries and cart name),
//!               u64 FNV-1a of the payload, "BT-BUNDLE-2\0"
//! ```
//!
//! The cache is the user's own: `$XDG_CACHE_HOME/bt/games` or `~/.cache/bt/games`, never a
//! folder every user can write (without either, the game refuses to start). Before a game
//! runs from it, the folders `bt` and `games` are checked to be real folders of the user's
//! that no one else can write, and the game's folder to hold exactly the bundle's files with
//! exactly its bytes; anything else (a file changed, added or gone, a link) is moved aside and
//! the game unpacked afresh. Folders not used for [`PRUNE_AFTER_DAYS`] days are removed.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Component, Path, PathBuf};

use crate::config::read::{open_file, read_named, FileError};
use crate::quote::path as shown;

/// The last bytes of a binary with a bundle.
const MAGIC: &[u8; 12] = b"BT-BUNDLE-2\0";
/// The trailer's size: entry count, payload length, checksum, magic.
const TRAILER: u64 = 8 + 8 + 8 + MAGIC.len() as u64;
/// A cache folder of a game not run for this many days is removed by the next game that
/// starts: an old version of a game is never run again once the new one replaced it.
pub const PRUNE_AFTER_DAYS: u64 = 30;
/// A half-unpacked folder (`.unpacking-*`) older than this many seconds belongs to a game that
/// was stopped while unpacking; one that unpacks 256 MiB takes far less.
const STALE_STAGING_SECONDS: u64 = 3600;
/// The largest bundle unpacked, in bytes: far above any cart's assets, far below memory.
pub const MAX_BUNDLE_BYTES: u64 = 256 * 1024 * 1024;
/// The most files a bundle holds, and a web page's asset folder: far more than a cart's
/// assets, few enough that unpacking or building them in stays quick (`bt web` refuses more,
/// as `bt export` does, before anything is built).
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
        let sum = fnv64(&out);
        out.extend_from_slice(&(self.files.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload.to_le_bytes());
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(MAGIC);
        out
    }

    /// Reads the bundle at the end of the file `path`, if it has one.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read, or when its trailer promises a bundle
    /// that is not there whole (cut short, too large, a name that leaves its folder).
    pub fn read_from(path: &Path) -> Result<Option<Bundle>, String> {
        let fail = |what: String| format!("{}: {what}", crate::quote::path(path));
        // Any length: only the trailer and the payload it claims (checked against
        // MAX_BUNDLE_BYTES) are read.
        let (mut file, len) = open_file(path, u64::MAX).map_err(|why| {
            FileError {
                what: "game file",
                path: path.to_path_buf(),
                why,
            }
            .to_string()
        })?;
        if len < TRAILER {
            return Ok(None);
        }
        let mut trailer = [0u8; TRAILER as usize];
        file.seek(SeekFrom::Start(len - TRAILER))
            .and_then(|_| file.read_exact(&mut trailer))
            .map_err(|e| fail(e.to_string()))?;
        if &trailer[24..] != MAGIC {
            // The end of a trailer without its last bytes: a game file cut short.
            if let Some(cut) = (4..MAGIC.len())
                .rev()
                .find(|&k| trailer.ends_with(&MAGIC[..k]))
            {
                return Err(fail(format!(
                    "the bundled game is damaged: the file ends {} byte(s) short of its end \
                     (copy it again)",
                    MAGIC.len() - cut
                )));
            }
            return Ok(None);
        }
        let count = u64::from_le_bytes(trailer[..8].try_into().expect("8 bytes"));
        let payload = u64::from_le_bytes(trailer[8..16].try_into().expect("8 bytes"));
        let sum = u64::from_le_bytes(trailer[16..24].try_into().expect("8 bytes"));
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
        if fnv64(&bytes) != sum {
            return Err(fail(
                "the bundled game is damaged: its files do not match the checksum it was \
                 written with (the file was cut or changed; copy it again)"
                    .into(),
            ));
        }
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
        let mut h: u64 = FNV_START;
        let mut eat = |bytes: &[u8]| h = fnv64_on(h, bytes);
        for (name, bytes) in &self.files {
            eat(name.as_bytes());
            eat(&(bytes.len() as u64).to_le_bytes());
            eat(bytes);
        }
        eat(self.cart.as_bytes());
        h
    }

    /// Unpacks the files into `<base>/bt/games/NAME-HASH/` unless a copy holding exactly
    /// them is there already, and returns that folder. `bt` and `games` are made private to
    /// the user (and refused when they are not the user's own folders); a folder at the game's
    /// name that holds anything else is moved aside and removed. The files are written to a
    /// fresh folder beside it and renamed into place, so a copy is never half there. Game
    /// folders not used for [`PRUNE_AFTER_DAYS`] days are removed.
    ///
    /// # Errors
    /// A message naming the folder when it cannot be made, checked or written.
    pub fn unpack_into(&self, base: &Path, name: &str) -> Result<PathBuf, String> {
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
        let cache = base.join("bt").join("games");
        std::fs::create_dir_all(base)
            .map_err(|e| format!("making the cache folder {}: {e}", crate::quote::path(base)))?;
        private_folder(&base.join("bt"))?;
        private_folder(&cache)?;
        let dir = cache.join(format!("{safe}-{:016x}", self.hash()));
        let fail =
            |e: io::Error| format!("unpacking the game into {}: {e}", crate::quote::path(&dir));
        if std::fs::symlink_metadata(&dir).is_ok() {
            if self.is_unpacked_in(&dir) {
                prune(&cache, &dir);
                return Ok(dir);
            }
            // Changed, half removed or not ours: out of the way, then unpacked afresh.
            let aside = cache.join(format!(
                ".stale-{:016x}-{}",
                self.hash(),
                std::process::id()
            ));
            std::fs::rename(&dir, &aside).map_err(fail)?;
            remove_any(&aside);
        }
        let staging = tempfile::Builder::new()
            .prefix(".unpacking-")
            .tempdir_in(&cache)
            .map_err(|e| crate::export::safe_write::takes_no_file(&cache, &e))
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
            }
            // Another copy of the game unpacked it first.
            Err(_) if self.is_unpacked_in(&dir) => {}
            Err(e) => return Err(fail(e)),
        }
        prune(&cache, &dir);
        Ok(dir)
    }

    /// Whether `dir` is a folder of the user's holding exactly this bundle's files, each a
    /// plain file with exactly its bytes, and nothing else but folders.
    fn is_unpacked_in(&self, dir: &Path) -> bool {
        let Ok(meta) = std::fs::symlink_metadata(dir) else {
            return false;
        };
        if !meta.is_dir() || !is_private(&meta) {
            return false;
        }
        let wanted: std::collections::HashMap<&str, &[u8]> = self
            .files
            .iter()
            .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
            .collect();
        let mut found = 0;
        let mut pending = vec![(dir.to_path_buf(), String::new())];
        while let Some((folder, prefix)) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                return false;
            };
            for entry in entries {
                let Ok(entry) = entry else { return false };
                let Ok(kind) = entry.file_type() else {
                    return false;
                };
                let name = entry.file_name();
                let Some(name) = name.to_str() else {
                    return false;
                };
                let rel = format!("{prefix}{name}");
                if kind.is_dir() {
                    pending.push((entry.path(), format!("{rel}/")));
                    continue;
                }
                let Some(want) = wanted.get(rel.as_str()) else {
                    return false;
                };
                if !kind.is_file() || !same_bytes(&entry.path(), want) {
                    return false;
                }
                found += 1;
            }
        }
        found == wanted.len()
    }
}

/// Whether the file at `path` holds exactly `want`, read a piece at a time.
fn same_bytes(path: &Path, mut want: &[u8]) -> bool {
    let Ok((mut file, len)) = open_file(path, want.len() as u64) else {
        return false;
    };
    if len != want.len() as u64 {
        return false;
    }
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return want.is_empty(),
            Ok(n) if n <= want.len() && buffer[..n] == want[..n] => want = &want[n..],
            _ => return false,
        }
    }
}

/// Makes `folder` when missing, private to the user, and checks one that is there: a real
/// folder (not a link), the user's own, that no one else can write (tightened when it is the
/// user's own and others could).
fn private_folder(folder: &Path) -> Result<(), String> {
    let shown = crate::quote::path(folder);
    match std::fs::symlink_metadata(folder) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(folder) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(format!("making the cache folder {shown}: {e}")),
            }
        }
        Err(e) => return Err(format!("the cache folder {shown}: {e}")),
        Ok(_) => {}
    }
    let meta =
        std::fs::symlink_metadata(folder).map_err(|e| format!("the cache folder {shown}: {e}"))?;
    if !meta.is_dir() {
        return Err(format!(
            "the cache folder {shown} is a link or a file, not a folder: a game unpacks only \
             into a folder of the user's own (remove it, and the game makes the folder)"
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let me = own_uid().map_err(|e| format!("the cache folder {shown}: {e}"))?;
        if meta.uid() != me {
            return Err(format!(
                "the cache folder {shown} belongs to another user (uid {}), who could change \
                 the game's files; remove it, or set XDG_CACHE_HOME to a folder of your own",
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 {
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("making the cache folder {shown} private: {e}"))?;
        }
    }
    Ok(())
}

/// Whether a folder is the user's own and no one else can write it.
fn is_private(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        own_uid().is_ok_and(|me| meta.uid() == me) && meta.mode() & 0o022 == 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// The user this process runs as: the owner of a file it makes.
#[cfg(unix)]
fn own_uid() -> io::Result<u32> {
    use std::os::unix::fs::MetadataExt;
    Ok(tempfile::tempfile()?.metadata()?.uid())
}

/// Removes a file or folder, whatever it is, as far as it can.
fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Marks `used` as used now and removes from `cache` what is no longer needed: game folders
/// not used for [`PRUNE_AFTER_DAYS`] days, folders moved aside, and half-unpacked folders a
/// stopped game left. Failures are ignored: the cache only saves time.
fn prune(cache: &Path, used: &Path) {
    let now = std::time::SystemTime::now();
    // A folder, opened only to set its time: no bytes are read.
    if let Ok(folder) = File::open(used) {
        let _ = folder.set_modified(now);
    }
    let Ok(entries) = std::fs::read_dir(cache) else {
        return;
    };
    let age = |path: &Path| {
        std::fs::symlink_metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .map_or(0, |d| d.as_secs())
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path == used {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = if name.starts_with(".stale-") {
            true
        } else if name.starts_with(".unpacking-") {
            age(&path) > STALE_STAGING_SECONDS
        } else {
            age(&path) > PRUNE_AFTER_DAYS * 24 * 3600
        };
        if old {
            remove_any(&path);
        }
    }
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, of `bytes`, going on from `h`.
fn fnv64_on(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// FNV-1a, 64 bits, of `bytes`: enough to tell a damaged game file from a good one.
fn fnv64(bytes: &[u8]) -> u64 {
    fnv64_on(FNV_START, bytes)
}

/// A name with only normal parts: no root, no `..`, no `.`, nothing empty.
fn is_relative_inside(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        && !name.split('/').any(str::is_empty)
}

/// The user's cache folder, which bundles unpack under (in `bt/games`): `$XDG_CACHE_HOME`
/// when that is absolute, else `$HOME/.cache`. `None` without either: a game never unpacks
/// into a folder other users can write, such as the system's temporary folder.
pub fn cache_base() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    cache_base_from(var("XDG_CACHE_HOME"), var("HOME"))
}

fn cache_base_from(cache_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    cache_home
        .filter(|p| p.is_absolute())
        .or_else(|| home.filter(|p| p.is_absolute()).map(|h| h.join(".cache")))
}

/// Why a game cannot start without a cache folder of the user's.
pub const NO_CACHE: &str = "no private folder to unpack the game into: set HOME (or \
                            XDG_CACHE_HOME to a folder of your own)";

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
            let entries = std::fs::read_dir(&folder)
                .map_err(|e| format!("{}: {e}", crate::quote::path(&folder)))?;
            for entry in entries {
                let entry = entry.map_err(|e| format!("{}: {e}", crate::quote::path(&folder)))?;
                let path = entry.path();
                let kind = entry
                    .file_type()
                    .map_err(|e| format!("{}: {e}", crate::quote::path(&path)))?;
                // A link to a folder is never walked: it could lead out of the cart's folder,
                // or back up into it, round and round.
                if kind.is_symlink() && path.is_dir() {
                    return Err(link_to_folder(&path));
                }
                if kind.is_dir() {
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
    // Refused here, not by the game when it starts.
    if paths.len() as u64 > MAX_BUNDLE_FILES {
        return Err(format!(
            "the cart's folder {} gives {} files to carry (cart.toml and the asset folder); a \
             game file carries at most {MAX_BUNDLE_FILES}",
            shown(dir),
            paths.len()
        ));
    }
    let mut bundle = Bundle::default();
    let mut total = 0u64;
    let real_dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    for path in paths {
        let rel = path.strip_prefix(dir).map_err(|_| {
            format!(
                "{} is outside the cart's folder {}, so it cannot go into the game",
                crate::quote::path(&path),
                crate::quote::path(dir)
            )
        })?;
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        check_inside(&real_dir, &path)?;
        let bytes = read_named("cart file", &path, MAX_BUNDLE_BYTES).map_err(|e| e.to_string())?;
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

/// Refuses a file that, once its links are followed, is not inside the folder `real_dir`
/// (already without links): a link to `/etc/passwd` in a cart's assets must not put that file
/// into the game. A link that stays inside is packed as the file it leads to.
///
/// # Errors
/// A message naming the file and where it leads.
pub(crate) fn check_inside(real_dir: &Path, path: &Path) -> Result<(), String> {
    let refused = |why: String| format!("cart file {}: could not read it: {why}", shown(path));
    let real = path.canonicalize().map_err(|e| refused(e.to_string()))?;
    if real.starts_with(real_dir) {
        return Ok(());
    }
    Err(refused(format!(
        "a link leading to {}, outside {}, the folder that is packed (copy the file in to pack \
         it)",
        crate::quote::path(&real),
        crate::quote::path(real_dir)
    )))
}

/// The refusal of a link to a folder among a cart's assets.
pub(crate) fn link_to_folder(path: &Path) -> String {
    let to = std::fs::read_link(path).map_or_else(|_| "?".into(), |t| crate::quote::path(&t));
    format!(
        "{} is a link to the folder {to}: links to folders are not packed (they may lead \
         outside the cart's folder or round in a loop); copy the folder in instead",
        crate::quote::path(path)
    )
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
        assert_eq!(dir.parent().unwrap(), cache.path().join("bt/games"));
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
        let names: Vec<_> = std::fs::read_dir(dir.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "no staging folder left behind");
        let mut changed = b.clone();
        changed.files[1].1.push(7);
        assert_ne!(changed.unpack_into(cache.path(), "my game!").unwrap(), dir);
    }

    #[test]
    fn a_game_file_cut_by_its_last_byte_is_called_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("game");
        let mut bytes = b"\x7fELF pretend program".to_vec();
        bytes.extend(sample().to_bytes());
        bytes.pop();
        std::fs::write(&exe, &bytes).unwrap();
        let err = Bundle::read_from(&exe).unwrap_err();
        assert_eq!(
            err,
            format!(
                "{}: the bundled game is damaged: the file ends 1 byte(s) short of its end \
                 (copy it again)",
                exe.display()
            )
        );
    }

    #[test]
    fn a_game_file_missing_bytes_in_its_middle_fails_its_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("game");
        let mut bytes = vec![b'x'; 4096];
        let bundle = sample().to_bytes();
        bytes.extend(&bundle);
        // A piece of the first file name gone: the trailer still fits inside the program.
        bytes.drain(4096 + 4..4096 + 10);
        std::fs::write(&exe, &bytes).unwrap();
        let err = Bundle::read_from(&exe).unwrap_err();
        assert!(
            err.contains("the bundled game is damaged: its files do not match the checksum"),
            "{err}"
        );
        assert!(!err.contains("file name"), "{err}");
    }

    #[test]
    fn a_changed_planted_or_half_removed_copy_is_unpacked_afresh() {
        let cache = tempfile::tempdir().unwrap();
        let b = sample();
        let dir = b.unpack_into(cache.path(), "g").unwrap();
        let good = |dir: &Path| {
            assert_eq!(
                std::fs::read(dir.join("assets/sheet.png")).unwrap(),
                [0, 1, 2, 255]
            );
            assert!(dir.join("cart.toml").is_file());
            assert!(!dir.join("assets/planted.png").exists());
        };
        type Harm<'a> = (&'a str, &'a dyn Fn(&Path));
        let harms: [Harm; 5] = [
            ("a byte changed", &|d| {
                std::fs::write(d.join("assets/sheet.png"), [0, 1, 2, 254]).unwrap()
            }),
            ("a file planted", &|d| {
                std::fs::write(d.join("assets/planted.png"), [9]).unwrap()
            }),
            ("a file removed", &|d| {
                std::fs::remove_file(d.join("cart.toml")).unwrap()
            }),
            ("a folder removed", &|d| {
                std::fs::remove_dir_all(d.join("assets")).unwrap()
            }),
            ("the folder a link", &|d| {
                let elsewhere = d.with_file_name("elsewhere");
                std::fs::rename(d, &elsewhere).unwrap();
                #[cfg(unix)]
                std::os::unix::fs::symlink(&elsewhere, d).unwrap();
            }),
        ];
        for (what, harm) in harms {
            harm(&dir);
            assert_eq!(b.unpack_into(cache.path(), "g").unwrap(), dir, "{what}");
            good(&dir);
            assert!(
                !std::fs::symlink_metadata(&dir).unwrap().is_symlink(),
                "{what}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_cache_folders_are_private_and_a_link_in_their_place_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let cache = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let games = cache.path().join("bt/games");
        sample().unpack_into(cache.path(), "g").unwrap();
        assert_eq!(mode(&cache.path().join("bt")), 0o700);
        assert_eq!(mode(&games), 0o700);
        std::fs::set_permissions(&games, std::fs::Permissions::from_mode(0o777)).unwrap();
        sample().unpack_into(cache.path(), "g").unwrap();
        assert_eq!(mode(&games), 0o700, "made private again");

        let other = tempfile::tempdir().unwrap();
        std::fs::remove_dir_all(&games).unwrap();
        std::os::unix::fs::symlink(other.path(), &games).unwrap();
        let err = sample().unpack_into(cache.path(), "g").unwrap_err();
        assert_eq!(
            err,
            format!(
                "the cache folder {} is a link or a file, not a folder: a game unpacks only \
                 into a folder of the user's own (remove it, and the game makes the folder)",
                games.display()
            )
        );
        assert_eq!(std::fs::read_dir(other.path()).unwrap().count(), 0);
    }

    #[test]
    fn folders_no_game_used_for_a_month_and_stopped_unpackings_are_removed() {
        let cache = tempfile::tempdir().unwrap();
        let games = cache.path().join("bt/games");
        sample().unpack_into(cache.path(), "g").unwrap();
        let long_ago = |days: u64| {
            std::time::SystemTime::now() - std::time::Duration::from_secs(days * 24 * 3600)
        };
        let made = |name: &str, days: u64| {
            let path = games.join(name);
            std::fs::create_dir_all(path.join("assets")).unwrap();
            std::fs::write(path.join("assets/x"), [1]).unwrap();
            File::open(&path)
                .unwrap()
                .set_modified(long_ago(days))
                .unwrap();
            path
        };
        let old = made("old-0000000000000001", PRUNE_AFTER_DAYS + 1);
        let recent = made("recent-0000000000000002", PRUNE_AFTER_DAYS - 1);
        let stopped = made(".unpacking-abc", 1);
        let used = sample().unpack_into(cache.path(), "g").unwrap();
        assert!(!old.exists() && !stopped.exists());
        assert!(recent.exists() && used.exists());
    }

    #[test]
    fn without_home_there_is_no_cache_folder() {
        let abs = |p: &str| Some(PathBuf::from(p));
        assert_eq!(cache_base_from(None, None), None);
        assert_eq!(cache_base_from(abs("relative"), None), None);
        assert_eq!(cache_base_from(None, abs("/home/u")), abs("/home/u/.cache"));
        assert_eq!(cache_base_from(abs("/c"), abs("/home/u")), abs("/c"));
    }

    #[test]
    fn a_cart_of_more_files_than_a_game_carries_is_refused_at_export() {
        let dir = tempfile::tempdir().unwrap();
        let assets = dir.path().join("assets");
        std::fs::create_dir_all(&assets).unwrap();
        for k in 0..MAX_BUNDLE_FILES {
            std::fs::write(assets.join(k.to_string()), [1]).unwrap();
        }
        let b = collect(dir.path(), Some(&assets), &[]).unwrap();
        assert_eq!(b.files.len() as u64, MAX_BUNDLE_FILES);
        std::fs::write(dir.path().join("cart.toml"), "").unwrap();
        let err = collect(dir.path(), Some(&assets), &[]).unwrap_err();
        assert_eq!(
            err,
            format!(
                "the cart's folder {} gives 10001 files to carry (cart.toml and the asset \
                 folder); a game file carries at most 10000",
                dir.path().display()
            )
        );
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
