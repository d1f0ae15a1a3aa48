//! The cart crate as a page's build sees it: for a cart outside BT's tree (one `bt new` made),
//! a manifest of its own beside the shared web build, naming every crate by its real path.
//!
//! Why: Cargo names each compiled library by a hash of its package, and for a package on a
//! local path outside the building workspace that hash covers the path as written. A cart `bt
//! new` made reaches BT through its own `.bt/` links (`<cart>/.bt/cart-api`), so a page that
//! took the cart's manifest as it is would compile `bt`, `bt-overlay`, `bt-runtime` and
//! `bt-web` again for every cart, each under its own path, though they are the same files.
//! The view's manifest is the cart's with each path resolved through its links
//! (`/home/me/bt/cart-api`), the one every page, a bundled cart's too, names BT's crates by,
//! so the libraries compiled for one page serve all of them. The cart's library itself is
//! named by its real source file, and the view's folder by a hash of the cart's real folder:
//! two carts of one name never share a library.

use std::path::{Path, PathBuf};

use crate::config::read::{read_text, MAX_TEXT_FILE};

/// The tables of a manifest that name dependencies, at its top and under each `[target.X]`.
const DEPENDENCY_TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// Writes the view of the cart crate in `cart_dir` (its `Cargo.toml` is `text`) into
/// `views/<package>-<hash>`, unchanged files left alone, and returns that folder.
pub(super) fn write(
    cart_dir: &Path,
    package: &str,
    text: &str,
    views: &Path,
) -> Result<PathBuf, String> {
    let real = cart_dir
        .canonicalize()
        .map_err(|e| format!("the cart's folder {}: {e}", crate::quote::path(cart_dir)))?;
    let manifest = manifest(&real, text)?;
    let dir = views.join(crate::cli::new_cache::folder_key(package, &real));
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("writing {}: {e}", crate::quote::path(&dir)))?;
    let path = dir.join("Cargo.toml");
    // Unchanged, it keeps its time, so cargo sees nothing to rebuild.
    if read_text(&path, MAX_TEXT_FILE).ok().as_deref() != Some(manifest.as_str()) {
        std::fs::write(&path, manifest)
            .map_err(|e| format!("writing {}: {e}", crate::quote::path(&path)))?;
    }
    Ok(dir)
}

/// The view's manifest: the cart's package and its library, from their real paths, with what
/// a workspace gives it (`x.workspace = true`) filled in from the cart's workspace, and
/// nothing a page does not build (programs, tests, examples, the workspace's own tables).
fn manifest(cart_dir: &Path, text: &str) -> Result<String, String> {
    let where_ = || crate::quote::path(&cart_dir.join("Cargo.toml"));
    let mut table: toml::Table =
        toml::from_str(text).map_err(|e| format!("{}: not valid TOML: {e}", where_()))?;
    let workspace = workspace_of(cart_dir, &table);
    for key in [
        "workspace",
        "profile",
        "patch",
        "replace",
        "lints",
        "bin",
        "test",
        "bench",
        "example",
    ] {
        table.remove(key);
    }
    let package = table
        .get_mut("package")
        .and_then(toml::Value::as_table_mut)
        .ok_or_else(|| format!("{}: no [package]", where_()))?;
    for key in ["workspace", "readme", "license-file", "include", "exclude"] {
        package.remove(key);
    }
    for (key, value) in package.iter_mut() {
        if inherits(value) {
            *value = workspace
                .as_ref()
                .and_then(|(_, ws)| {
                    ws.get("workspace")?
                        .get("package")?
                        .get(key.as_str())
                        .cloned()
                })
                .ok_or_else(|| {
                    format!(
                        "{}: package.{key} comes from a workspace that does not set it",
                        where_()
                    )
                })?;
        }
    }
    for key in ["autobins", "autoexamples", "autotests", "autobenches"] {
        package.insert(key.into(), false.into());
    }
    let build = match package.get("build") {
        Some(toml::Value::String(file)) => Some(cart_dir.join(file)),
        Some(_) => None,
        None => Some(cart_dir.join("build.rs")).filter(|p| p.is_file()),
    };
    match build {
        Some(file) => package.insert("build".into(), text_of(&file).into()),
        None => package.insert("build".into(), false.into()),
    };
    let lib = table
        .entry("lib")
        .or_insert_with(|| toml::Table::new().into());
    if let Some(lib) = lib.as_table_mut() {
        let file = lib
            .get("path")
            .and_then(toml::Value::as_str)
            .unwrap_or("src/lib.rs");
        let file = cart_dir.join(file);
        lib.insert("path".into(), text_of(&file).into());
    }
    resolve_dependencies(&mut table, cart_dir, workspace.as_ref())
        .map_err(|e| format!("{}: {e}", where_()))?;
    let mut out = String::from(
        "# Made by `bt web`: the cart's manifest with every path made real, so its page names \
         BT's\n# crates as every other page does. Rewritten on every export.\n",
    );
    write_table(&table, &mut out);
    Ok(out)
}

/// `table` as TOML: its plain values first, then each table as a section whose values are
/// written inline (BT builds `toml` to read only).
fn write_table(table: &toml::Table, out: &mut String) {
    for (key, value) in table.iter().filter(|(_, v)| !v.is_table()) {
        out.push_str(&format!("{} = {}\n", quoted(key), inline(value)));
    }
    for (key, value) in table.iter() {
        if let toml::Value::Table(section) = value {
            out.push_str(&format!("\n[{}]\n", quoted(key)));
            for (key, value) in section {
                out.push_str(&format!("{} = {}\n", quoted(key), inline(value)));
            }
        }
    }
}

/// A value as TOML writes it on one line.
fn inline(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => quoted(text),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(x) if x.is_nan() => "nan".to_string(),
        toml::Value::Float(x) if x.is_infinite() => {
            (if *x > 0.0 { "inf" } else { "-inf" }).to_string()
        }
        toml::Value::Float(x) => format!("{x:?}"),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        toml::Value::Table(table) => {
            let pairs: Vec<String> = table
                .iter()
                .map(|(k, v)| format!("{} = {}", quoted(k), inline(v)))
                .collect();
            format!("{{ {} }}", pairs.join(", "))
        }
    }
}

/// `text` as a TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a manifest's value is `{ workspace = true }` (with other keys or not).
fn inherits(value: &toml::Value) -> bool {
    value.get("workspace").and_then(toml::Value::as_bool) == Some(true)
}

/// The folder and manifest of the cart's workspace: the one `package.workspace` names, else
/// the nearest folder above the cart whose `Cargo.toml` has a `[workspace]`.
fn workspace_of(cart_dir: &Path, table: &toml::Table) -> Option<(PathBuf, toml::Table)> {
    let read = |dir: &Path| {
        let text = read_text(&dir.join("Cargo.toml"), MAX_TEXT_FILE).ok()?;
        let table: toml::Table = toml::from_str(&text).ok()?;
        table.contains_key("workspace").then_some(table)
    };
    let named = table
        .get("package")
        .and_then(|p| p.get("workspace"))
        .and_then(toml::Value::as_str);
    if let Some(named) = named {
        let dir = cart_dir.join(named);
        return read(&dir).map(|ws| (dir, ws));
    }
    cart_dir
        .ancestors()
        .skip(1)
        .find_map(|dir| read(dir).map(|ws| (dir.to_path_buf(), ws)))
}

/// Every dependency table of `table`, at its top and under `[target.X]`: an inherited entry
/// takes the workspace's, and each `path` becomes the real path it leads to.
fn resolve_dependencies(
    table: &mut toml::Table,
    dir: &Path,
    workspace: Option<&(PathBuf, toml::Table)>,
) -> Result<(), String> {
    let mut tables: Vec<&mut toml::Table> = Vec::new();
    let (top, rest): (Vec<_>, Vec<_>) = table
        .iter_mut()
        .partition(|(key, _)| DEPENDENCY_TABLES.contains(&key.as_str()));
    tables.extend(top.into_iter().filter_map(|(_, v)| v.as_table_mut()));
    for (key, value) in rest {
        if key == "target" {
            for (_, platform) in value.as_table_mut().into_iter().flatten() {
                for (name, deps) in platform.as_table_mut().into_iter().flatten() {
                    if DEPENDENCY_TABLES.contains(&name.as_str()) {
                        tables.extend(deps.as_table_mut());
                    }
                }
            }
        }
    }
    for deps in tables {
        for (name, dep) in deps.iter_mut() {
            if inherits(dep) {
                *dep = inherited(name, dep, workspace)?;
            } else if let Some(path) = dep.get("path").and_then(toml::Value::as_str) {
                let real = real_path(&dir.join(path));
                dep.as_table_mut()
                    .map(|t| t.insert("path".into(), real.into()));
            }
        }
    }
    Ok(())
}

/// The workspace's entry for the dependency `name`, with the member's own keys (`features`
/// added to the workspace's, `optional`) and its `path` made real.
fn inherited(
    name: &str,
    member: &toml::Value,
    workspace: Option<&(PathBuf, toml::Table)>,
) -> Result<toml::Value, String> {
    let (ws_dir, ws) = workspace
        .ok_or_else(|| format!("dependency {name} comes from a workspace that is not there"))?;
    let mut dep = match ws
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.get(name))
    {
        Some(toml::Value::Table(t)) => t.clone(),
        Some(toml::Value::String(version)) => {
            toml::Table::from_iter([("version".to_string(), version.clone().into())])
        }
        _ => {
            return Err(format!(
                "dependency {name} comes from the workspace, which does not name it"
            ))
        }
    };
    if let Some(path) = dep.get("path").and_then(toml::Value::as_str) {
        let real = real_path(&ws_dir.join(path));
        dep.insert("path".into(), real.into());
    }
    for (key, value) in member.as_table().into_iter().flatten() {
        match (key.as_str(), value, dep.get_mut(key)) {
            ("workspace", ..) => {}
            ("features", toml::Value::Array(more), Some(toml::Value::Array(have))) => {
                have.extend(more.iter().cloned());
            }
            _ => {
                dep.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(dep.into())
}

/// `path` with every link in it followed, as text; as it is when it does not exist (cargo then
/// names it).
fn real_path(path: &Path) -> String {
    text_of(&path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
}

fn text_of(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cart folder beside a BT tree it reaches through `.bt/` links, as `bt new` makes it.
    #[cfg(unix)]
    fn cart_with_links(what: &str) -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(format!("bt-web-view-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let bt = base.join("bt");
        let cart = base.join("cart");
        for dir in [bt.join("cart-api"), bt.join("runtime"), cart.join(".bt")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::create_dir_all(cart.join("src")).unwrap();
        std::fs::write(cart.join("src/lib.rs"), "").unwrap();
        std::os::unix::fs::symlink(bt.join("cart-api"), cart.join(".bt/cart-api")).unwrap();
        std::os::unix::fs::symlink(bt.join("runtime"), cart.join(".bt/runtime")).unwrap();
        std::fs::write(
            cart.join(".bt/Cargo.toml"),
            "[workspace]\nmembers = [\"..\"]\n[workspace.package]\nversion = \"0.3.0\"\n\
             [workspace.dependencies]\nbt = { path = \"cart-api\", features = [\"a\"] }\n",
        )
        .unwrap();
        (base.canonicalize().unwrap(), cart.canonicalize().unwrap())
    }

    #[cfg(unix)]
    #[test]
    fn the_view_names_bts_crates_by_their_real_paths_and_the_cart_by_its_source() {
        let (base, cart) = cart_with_links("starter");
        let text = "[package]\nname = \"c\"\nversion = \"0.1.0\"\nworkspace = \".bt\"\n\n\
                    [dependencies]\nbt = { path = \".bt/cart-api\" }\n\n\
                    [target.'cfg(not(target_family = \"wasm\"))'.dependencies]\n\
                    bt-runtime = { path = \".bt/runtime\" }\n\n[[bin]]\nname = \"c\"\n";
        let view: toml::Table = toml::from_str(&manifest(&cart, text).unwrap()).unwrap();
        let bt = base.join("bt");
        assert_eq!(
            view["dependencies"]["bt"]["path"].as_str(),
            Some(bt.join("cart-api").to_str().unwrap())
        );
        assert_eq!(
            view["target"]["cfg(not(target_family = \"wasm\"))"]["dependencies"]["bt-runtime"]
                ["path"]
                .as_str(),
            Some(bt.join("runtime").to_str().unwrap())
        );
        assert_eq!(
            view["lib"]["path"].as_str(),
            Some(cart.join("src/lib.rs").to_str().unwrap())
        );
        assert!(view["package"].get("workspace").is_none(), "{view:?}");
        assert!(view.get("bin").is_none(), "{view:?}");
        assert_eq!(view["package"]["autobins"].as_bool(), Some(false));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn what_a_cart_takes_from_its_workspace_is_filled_in() {
        let (base, cart) = cart_with_links("inherit");
        let text = "[package]\nname = \"c\"\nversion.workspace = true\nworkspace = \".bt\"\n\
                    [dependencies]\nbt = { workspace = true, features = [\"b\"] }\n";
        let view: toml::Table = toml::from_str(&manifest(&cart, text).unwrap()).unwrap();
        assert_eq!(view["package"]["version"].as_str(), Some("0.3.0"));
        let bt = &view["dependencies"]["bt"];
        assert_eq!(
            bt["path"].as_str(),
            Some(base.join("bt/cart-api").to_str().unwrap())
        );
        assert_eq!(bt["features"].as_array().unwrap().len(), 2, "{bt:?}");
        assert!(bt.get("workspace").is_none(), "{bt:?}");
        let missing = "[package]\nname = \"c\"\nedition.workspace = true\nworkspace = \".bt\"\n";
        let err = manifest(&cart, missing).unwrap_err();
        assert!(
            err.ends_with("package.edition comes from a workspace that does not set it"),
            "{err}"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
