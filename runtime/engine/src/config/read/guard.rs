//! The guard of the one file gate: a scan of the workspace's source that fails when a file is
//! opened for reading anywhere but in [`super`], or in one of the few places listed here with
//! the reason they open a file themselves.

use std::path::{Path, PathBuf};

/// What opens a file for reading. A builder (`OpenOptions::new()`, `File::options()`) counts
/// only when its chain asks for `.read(true)`: one that only writes is no reader.
const OPENERS: &[&str] = &[
    "File::open(",
    "fs::read(",
    "fs::read_to_string(",
    "image::open(",
    "ImageReader::open(",
    "OpenOptions::new()",
    "File::options()",
];

/// Direct opens that stay outside the gate: `(file, what opens, why)`. Each needs a comment on
/// the line above it saying why, and each must still be found (a stale row fails too).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "runtime/engine/src/save.rs",
        "OpenOptions::new()",
        "the save lock: BT's own lock file, made, locked, and read for at most a line",
    ),
    (
        "runtime/src/cli/new_cache.rs",
        "File::options()",
        "cargo's lock file, opened to be locked, never read",
    ),
    (
        "runtime/src/cli/new_cache.rs",
        "File::open(",
        "cargo's lock file, opened to be locked, never read",
    ),
    (
        "runtime/src/cli/bundle.rs",
        "File::open(",
        "a folder, opened to set its time",
    ),
    (
        "runtime/engine/src/export/safe_write.rs",
        "File::open(",
        "a folder, opened to flush it",
    ),
];

/// What a reader added outside the gate is told to do.
const WHAT_TO_DO: &str = "\
read it through bt_engine::config::read instead: read_named(WHAT, PATH, LIMIT) (or read_file / \
read_text, or open_file for a reader that streams), with a limit of its own, and say a failure \
in the one form FileError shows, `<what> PATH: could not read it: <why>`. A loader a cart calls \
(a new kind of asset, sound clips included) reads through the host's ImageLoader (`read` or \
`read_limited`), which goes through the gate, and marks its errors with \
AssetError::reading(\"<what>\"). Then add a row for the loader to the table of \
`every_loader_refuses_what_it_must_never_read` in carts/gallery/tests/hostile.rs, so it is \
walked through a FIFO, a device, a link out and an oversized file. A file that must be opened \
directly (a lock, a folder, a file under /proc) goes in ALLOWED in \
runtime/engine/src/config/read/guard.rs with its reason and a comment on the line above it.";

/// Every `.rs` file under `dir`, but build output, hidden folders and integration tests (which
/// read the files they wrote).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let skipped = name.starts_with('.')
                || ["target", "tests", "benches", "test-support", "node_modules"]
                    .contains(&name.as_str());
            if !skipped {
                sources(&path, out);
            }
        } else if kind.is_file() && name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The lines of `text` that are not test code, numbered from 1: a `#[cfg(...test...)]` module
/// written inline is left out to its closing brace; comments are left out. The names of test
/// modules in files of their own are put in `test_modules`.
fn code_lines<'a>(text: &'a str, test_modules: &mut Vec<String>) -> Vec<(usize, &'a str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let is_test_cfg = trimmed.starts_with("#[cfg(") && trimmed.contains("test");
        if is_test_cfg {
            if let Some(next) = lines.get(i + 1) {
                let decl = next.trim_start();
                let decl = decl
                    .strip_prefix("pub(crate) ")
                    .or_else(|| decl.strip_prefix("pub(super) "))
                    .or_else(|| decl.strip_prefix("pub "))
                    .unwrap_or(decl);
                if let Some(rest) = decl.strip_prefix("mod ") {
                    if let Some(name) = rest.strip_suffix(';') {
                        test_modules.push(name.trim().to_string());
                        i += 2;
                        continue;
                    }
                    // Inline: to the brace that closes it, at the indent it opened at.
                    let indent = &next[..next.len() - next.trim_start().len()];
                    let close = format!("{indent}}}");
                    i += 2;
                    while i < lines.len() && lines[i] != close {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
            }
        }
        if !trimmed.starts_with("//") {
            out.push((i + 1, line));
        }
        i += 1;
    }
    out
}

/// The folder a file's child modules live in.
fn module_dir(file: &Path) -> PathBuf {
    let stem = file.file_stem().unwrap_or_default().to_string_lossy();
    let parent = file.parent().unwrap_or(Path::new(""));
    if ["mod", "lib", "main"].contains(&stem.as_ref()) {
        parent.to_path_buf()
    } else {
        parent.join(stem.as_ref())
    }
}

/// A place that opens a file: the file (from the workspace's root), the line, what opens.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Opening {
    file: String,
    line: usize,
    opener: &'static str,
    comment_above: bool,
}

/// Every place under `root` that opens a file for reading, the gate's own module aside.
fn openings(root: &Path) -> Vec<Opening> {
    let mut files = Vec::new();
    for top in ["cart-api", "runtime", "overlay", "carts"] {
        sources(&root.join(top), &mut files);
    }
    files.sort();
    let gate = root.join("runtime/engine/src/config/read.rs");
    let mut test_files: Vec<PathBuf> = Vec::new();
    let mut found = Vec::new();
    // Test modules of a file come after it in sorted order only sometimes: two passes.
    let mut texts = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let mut modules = Vec::new();
        let _ = code_lines(&text, &mut modules);
        test_files.extend(modules.iter().flat_map(|m| {
            let dir = module_dir(file);
            [dir.join(format!("{m}.rs")), dir.join(m).join("mod.rs")]
        }));
        texts.push((file.clone(), text));
    }
    for (file, text) in &texts {
        if *file == gate || test_files.contains(file) {
            continue;
        }
        let all: Vec<&str> = text.lines().collect();
        let shown = file
            .strip_prefix(root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        for (number, line) in code_lines(text, &mut Vec::new()) {
            for &opener in OPENERS {
                if !line.contains(opener) {
                    continue;
                }
                if opener.ends_with("()") {
                    // A builder reads only when its chain, to `.open(`, says `.read(true)`.
                    let chain: Vec<&str> = all[number - 1..]
                        .iter()
                        .take(8)
                        .copied()
                        .take_while({
                            let mut open = false;
                            move |l| {
                                let was = open;
                                open = l.contains(".open(");
                                !was
                            }
                        })
                        .collect();
                    if !chain.iter().any(|l| l.contains(".read(true)")) {
                        continue;
                    }
                }
                let above = all[..number - 1]
                    .iter()
                    .rev()
                    .find(|l| !l.trim().is_empty());
                found.push(Opening {
                    file: shown.clone(),
                    line: number,
                    opener,
                    comment_above: above.is_some_and(|l| l.trim_start().starts_with("//")),
                });
            }
        }
    }
    found
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the engine crate is in the workspace's runtime folder")
        .to_path_buf()
}

#[test]
fn no_file_is_opened_for_reading_outside_the_gate() {
    let found = openings(&workspace_root());
    let mut wrong = Vec::new();
    for o in &found {
        let allowed = ALLOWED
            .iter()
            .any(|(file, opener, _)| *file == o.file && *opener == o.opener);
        if !allowed {
            wrong.push(format!(
                "{}:{}: `{}` opens a file for reading outside the file gate",
                o.file, o.line, o.opener
            ));
        } else if !o.comment_above {
            wrong.push(format!(
                "{}:{}: `{}` is allowed outside the gate, but the line above it must be a \
                 comment saying why",
                o.file, o.line, o.opener
            ));
        }
    }
    for (file, opener, why) in ALLOWED {
        if !found.iter().any(|o| o.file == *file && o.opener == *opener) {
            wrong.push(format!(
                "ALLOWED lists `{opener}` in {file} ({why}), which opens nothing there now: \
                 remove the row"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n\nTo fix: {WHAT_TO_DO}",
        wrong.join("\n")
    );
}

#[test]
fn the_guard_finds_each_kind_of_opening_and_skips_test_code() {
    let dir = bt_test_support::ScratchDir::new("gate-guard");
    let src = dir.join("runtime/engine/src");
    std::fs::create_dir_all(src.join("config")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "fn a() { let _ = std::fs::read(\"x\"); }\n\
         // fs::read( in a comment is no opening\n\
         fn b() {\n    let f = std::fs::OpenOptions::new()\n        .read(true)\n        .open(\"y\");\n}\n\
         fn c() {\n    let f = std::fs::OpenOptions::new()\n        .write(true)\n        .open(\"z\");\n}\n\
         #[cfg(test)]\nmod helpers;\n\
         #[cfg(all(test, unix))]\nmod tests {\n    fn t() { std::fs::File::open(\"w\"); }\n}\n\
         fn d() { image::open(\"p.png\"); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("helpers.rs"),
        "fn h() { std::fs::read_to_string(\"h\"); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("config/read.rs"),
        "fn gate() { File::open(\"g\"); }\n",
    )
    .unwrap();
    let found: Vec<(usize, &str)> = openings(dir.path())
        .into_iter()
        .map(|o| {
            assert_eq!(o.file, "runtime/engine/src/lib.rs");
            (o.line, o.opener)
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, "fs::read("),
            (4, "OpenOptions::new()"),
            (19, "image::open(")
        ]
    );
}
