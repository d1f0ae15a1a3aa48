//! The hidden `.bt` folder of a new cart: a Cargo workspace root that mirrors BT's own, so the
//! cart's first build reuses the libraries BT already compiled instead of compiling them again.
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
//! lints as in BT's build, and Cargo finds it already compiled in BT's `target/`.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// The folder, inside the cart, that is the cart's workspace root.
pub const MIRROR_DIR: &str = ".bt";

/// What goes into the mirror: the files to write and the links to make.
pub struct Mirror {
    /// `.bt/Cargo.toml` and, when BT has one, `.bt/Cargo.lock`.
    pub files: Vec<(String, Vec<u8>)>,
    /// Top-level folders of BT (`cart-api`, `runtime`, ...) to link from `.bt/`.
    pub links: Vec<String>,
}

/// A file of BT's that could not be read for the mirror, or a link of it that could not be
/// made.
#[derive(Debug, Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct MirrorError {
    /// The file read or the link made.
    pub path: PathBuf,
    /// What went wrong.
    pub source: std::io::Error,
}

fn failed(path: &Path, why: impl Into<String>) -> MirrorError {
    MirrorError {
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
    let manifest = std::fs::read_to_string(&manifest_path).map_err(|source| MirrorError {
        path: manifest_path.clone(),
        source,
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
    // The cart itself is the mirror's parent folder. Only the members list changes: every
    // other table (dependencies, profiles, lints) stays BT's, byte for byte.
    let marker = "members = [";
    let at = manifest
        .find(marker)
        .ok_or_else(|| failed(&manifest_path, "no `members = [` line"))?
        + marker.len();
    let mut mirrored = String::with_capacity(manifest.len() + 200);
    mirrored.push_str(
        "# Made by `bt new`: BT's own workspace manifest with this cart added as a member, so\n\
         # the cart builds against BT's libraries exactly as BT does and reuses what BT compiled.\n\
         # The folders beside this file are links into the BT checkout.\n",
    );
    mirrored.push_str(&manifest[..at]);
    mirrored.push_str("\n    \"..\",");
    mirrored.push_str(&manifest[at..]);
    let mut files = vec![(format!("{MIRROR_DIR}/Cargo.toml"), mirrored.into_bytes())];
    if let Ok(lock) = std::fs::read(root.join("Cargo.lock")) {
        files.push((format!("{MIRROR_DIR}/Cargo.lock"), lock));
    }
    Ok(Mirror { files, links })
}

/// Makes the mirror's links in `cart/.bt`, each pointing at the same folder of `root`.
///
/// # Errors
/// A [`MirrorError`] naming the link that could not be made.
pub fn make_links(cart: &Path, root: &Path, links: &[String]) -> Result<(), MirrorError> {
    for name in links {
        let link: PathBuf = cart.join(MIRROR_DIR).join(name);
        let target = root.join(name);
        symlink_dir(&target, &link).map_err(|source| MirrorError { path: link, source })?;
    }
    Ok(())
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
        for top in ["cart-api", "runtime", "overlay", "carts"] {
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
