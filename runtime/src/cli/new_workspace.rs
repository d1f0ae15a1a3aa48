//! The hidden `.bt` folder of a cart: a Cargo workspace root that mirrors BT's own, so the
//! cart's first build reuses the libraries BT already compiled instead of compiling them again.
//! It is made on each machine (by `bt new`, then by `bt attach` after a clone or a move) and
//! left out of git: it names this machine's BT checkout and build folder.
//!
//! Why a mirror and not just a path dependency: Cargo names each compiled library by a hash of
//! its package, and for a package on a local path that hash covers the path *relative to the
//! workspace root* when the package lies under that root, and the absolute path otherwise. BT's
//! own build sees `cart-api`, `runtime`, `overlay`; a cart depending on them by absolute path is
//! hashed differently, so Cargo compiles `bt`, `bt-overlay` and `bt-runtime` a second time
//! (minutes on a small machine) even with BT's `Cargo.lock`, features and profiles. In the
//! mirror, `.bt/` is the workspace root, `.bt/cart-api` and the rest are links to BT's folders,
//! `.bt/Cargo.toml` is BT's root manifest with the cart added as a member and `.bt/Cargo.lock`
//! is BT's lock: every library then has the same relative path, versions, features, profile and
//! lints as in BT's build, and Cargo finds it already compiled in the build folder `.bt/build`
//! links to, which is seeded from BT's (see `new_cache`). The cart itself lies outside `.bt/`,
//! so its own hash covers its absolute path: two carts of one name never share a library.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::config::read::{read_file, read_text, MAX_TEXT_FILE};

/// The folder, inside the cart, that is the cart's workspace root.
pub const MIRROR_DIR: &str = ".bt";

/// The link in [`MIRROR_DIR`] to the shared build folder: the cart's `.cargo/config.toml`
/// names `.bt/build` as Cargo's `build-dir`.
pub const BUILD_LINK: &str = "build";

/// What goes into the mirror: the files to write and the links to make.
pub struct Mirror {
    /// `Cargo.toml` and, when BT has one, `Cargo.lock`, named inside [`MIRROR_DIR`].
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// Top-level folders of BT (`cart-api`, `runtime`, ..., and `docs` for the guides) to link
    /// from `.bt/`.
    pub links: Vec<String>,
}

/// A file of BT's that could not be read for the mirror, or a link that could not be made.
#[derive(Debug, Error)]
#[error("cannot {action} {}: {source}", crate::quote::path(path))]
pub struct MirrorError {
    /// What was being done: `read`, `make the link`, `make the folder`.
    pub action: &'static str,
    /// The file read or the link made.
    pub path: PathBuf,
    /// What went wrong.
    pub source: std::io::Error,
}

fn failed(path: &Path, why: impl Into<String>) -> MirrorError {
    MirrorError {
        action: "read",
        path: path.to_path_buf(),
        source: std::io::Error::other(why.into()),
    }
}

/// The mirror of the BT checkout at `root`.
///
/// # Errors
/// A [`MirrorError`] naming BT's `Cargo.toml` when it cannot be read or has no `members = [`
/// list to add the cart to.
pub fn mirror_of(root: &Path) -> Result<Mirror, MirrorError> {
    let manifest_path = root.join("Cargo.toml");
    let manifest = read_text(&manifest_path, MAX_TEXT_FILE).map_err(|e| MirrorError {
        action: "read",
        path: manifest_path.clone(),
        source: e.into_io(),
    })?;
    let parsed: toml::Table = toml::from_str(&manifest)
        .map_err(|e| failed(&manifest_path, format!("not valid TOML: {e}")))?;
    let members = parsed
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(|m| m.as_array())
        .ok_or_else(|| failed(&manifest_path, "no [workspace] members list"))?;
    let mut links: Vec<String> = Vec::new();
    for member in members.iter().filter_map(|m| m.as_str()) {
        let top = member.split('/').next().unwrap_or(member).to_string();
        if !top.is_empty() && top != "." && top != ".." && !links.contains(&top) {
            links.push(top);
        }
    }
    // BT's guides, so the cart's README can point at them without naming this machine's paths;
    // and the crates BT builds its own copy of (`[patch.crates-io]`, in `vendor/`), which the
    // manifest names by a path relative to itself.
    for extra in ["docs", "vendor"] {
        if root.join(extra).is_dir() && !links.iter().any(|l| l == extra) {
            links.push(extra.to_string());
        }
    }
    // The cart itself is the mirror's parent folder. Only the members list changes: every
    // other table (dependencies, profiles, lints) stays BT's, byte for byte.
    let marker = "members = [";
    let at = manifest
        .find(marker)
        .ok_or_else(|| failed(&manifest_path, "no `members = [` line"))?
        + marker.len();
    let mut mirrored = String::with_capacity(manifest.len() + 200);
    mirrored.push_str(
        "# Made by `bt new` or `bt attach`: BT's own workspace manifest with this cart added as a\n\
         # member, so the cart builds against BT's libraries exactly as BT does and reuses what BT\n\
         # compiled. The folders beside this file are links into the BT checkout, and `build` is a\n\
         # link to the build folder the carts of that checkout share.\n",
    );
    mirrored.push_str(&manifest[..at]);
    mirrored.push_str("\n    \"..\",");
    mirrored.push_str(&manifest[at..]);
    let mut files = vec![("Cargo.toml", mirrored.into_bytes())];
    if let Ok(lock) = read_file(&root.join("Cargo.lock"), MAX_TEXT_FILE) {
        files.push(("Cargo.lock", lock));
    }
    Ok(Mirror { files, links })
}

/// Makes the mirror's links in the folder `mirror` (a cart's `.bt`, or the folder that becomes
/// it), each pointing at the same folder of `root`, and the link [`BUILD_LINK`] to the shared
/// build folder `build`, which is made if missing.
///
/// # Errors
/// A [`MirrorError`] naming the link or folder that could not be made.
pub fn make_links(
    mirror: &Path,
    root: &Path,
    links: &[String],
    build: &Path,
) -> Result<(), MirrorError> {
    for name in links {
        let link: PathBuf = mirror.join(name);
        let target = root.join(name);
        symlink_dir(&target, &link).map_err(|source| MirrorError {
            action: "make the link",
            path: link,
            source,
        })?;
    }
    std::fs::create_dir_all(build).map_err(|source| MirrorError {
        action: "make the folder",
        path: build.to_path_buf(),
        source,
    })?;
    let link = mirror.join(BUILD_LINK);
    symlink_dir(build, &link).map_err(|source| MirrorError {
        action: "make the link",
        path: link,
        source,
    })
}

#[cfg(unix)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

#[cfg(not(any(unix, windows)))]
fn symlink_dir(_target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("this system has no folder links"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirror_adds_the_cart_to_bts_members_and_changes_nothing_else() {
        // BT's own checkout.
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let mirror = mirror_of(root).unwrap();
        let bt = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let ours = String::from_utf8(mirror.files[0].1.clone()).unwrap();
        let ours: toml::Table = toml::from_str(&ours).unwrap();
        let mut bt: toml::Table = toml::from_str(&bt).unwrap();
        let members = bt["workspace"]["members"].as_array().unwrap().clone();
        let mut with_cart = vec![toml::Value::from("..")];
        with_cart.extend(members);
        bt["workspace"]
            .as_table_mut()
            .unwrap()
            .insert("members".into(), with_cart.into());
        assert_eq!(ours, bt);
        for top in ["cart-api", "runtime", "overlay", "carts", "docs"] {
            assert!(mirror.links.iter().any(|l| l == top), "{:?}", mirror.links);
        }
        assert_eq!(
            mirror.files[1].1,
            std::fs::read(root.join("Cargo.lock")).unwrap(),
            "BT's lock, so the cart resolves the same versions"
        );
    }

    #[test]
    fn a_manifest_without_members_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("bt-mirror-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        let err = mirror_of(&dir).err().unwrap().to_string();
        assert!(
            err.contains("Cargo.toml") && err.contains("members"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
