//! `bt new`: a cart crate of one's own, outside BT's tree, that builds and runs the first time.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::new_workspace::{make_links, mirror_of, MirrorError};

/// The BT checkout this binary was built from; new carts depend on it by path.
pub const BT_ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Why `bt new` made nothing.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum NewCartError {
    /// The name cannot be a cart's (or a Rust crate's) name.
    #[error(
        "'{0}' cannot name a cart: use 1 to 64 lowercase letters, digits, '-' and '_', \
         starting with a letter"
    )]
    BadName(String),
    /// A name of the right characters that no cart crate can have.
    #[error("'{name}' cannot name a cart: it is {why}")]
    Reserved {
        /// The name.
        name: String,
        /// Why not.
        why: &'static str,
    },
    /// Something is already at the cart's path.
    #[error("{} already exists; bt new never writes over anything (pick another name or --path)", .0.display())]
    Exists(PathBuf),
    /// The folder to make it in is not there.
    #[error(
        "the folder {} does not exist: make it first (mkdir -p {}), or give another --path",
        .0.display(),
        .0.display()
    )]
    NoParent(PathBuf),
    /// Writing failed; nothing was left behind.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl From<MirrorError> for NewCartError {
    fn from(e: MirrorError) -> NewCartError {
        NewCartError::Write {
            path: e.path,
            source: e.source,
        }
    }
}

/// Whether `name` can name a cart: `[a-z][a-z0-9_-]{0,63}`.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= 64
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// The title a name suggests: `space-miner` gives `Space Miner`.
fn title_of(name: &str) -> String {
    name.split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Makes the cart crate `parent/name` with a starter game, and returns its path. The files are
/// written into a fresh hidden folder first and moved into place at the end, so a failure
/// leaves nothing behind and nothing that existed is touched.
///
/// # Errors
/// A [`NewCartError`]: a bad name, something already at the path, a missing parent folder, a
/// write that failed.
pub fn new_cart(name: &str, parent: &Path) -> Result<PathBuf, NewCartError> {
    if !valid_name(name) {
        return Err(NewCartError::BadName(crate::quote::excerpt(name)));
    }
    if let Some(why) = reserved(name) {
        return Err(NewCartError::Reserved {
            name: name.to_string(),
            why,
        });
    }
    if !parent.is_dir() {
        return Err(NewCartError::NoParent(parent.to_path_buf()));
    }
    let parent = parent
        .canonicalize()
        .map_err(|source| NewCartError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    let dir = parent.join(name);
    if dir.symlink_metadata().is_ok() {
        return Err(NewCartError::Exists(dir));
    }
    let root = Path::new(BT_ROOT)
        .canonicalize()
        .unwrap_or_else(|_| PathBuf::from(BT_ROOT));
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{title}}", &title_of(name))
            .replace("{{bt_root}}", &root.to_string_lossy())
    };
    let files: [(&str, Vec<u8>); 9] = [
        (
            "Cargo.toml",
            fill(include_str!("../../templates/starter/Cargo.toml.in")).into(),
        ),
        (
            "cart.toml",
            fill(include_str!("../../templates/starter/cart.toml.in")).into(),
        ),
        (
            "README.md",
            fill(include_str!("../../templates/starter/README.md.in")).into(),
        ),
        (
            ".gitignore",
            fill(include_str!("../../templates/starter/gitignore.in")).into(),
        ),
        (
            ".cargo/config.toml",
            fill(include_str!("../../templates/starter/cargo-config.toml.in")).into(),
        ),
        (
            "src/main.rs",
            fill(include_str!("../../templates/starter/main.rs.in")).into(),
        ),
        (
            "src/lib.rs",
            fill(include_str!("../../templates/starter/lib.rs.in")).into(),
        ),
        (
            "tests/golden.rs",
            fill(include_str!("../../templates/starter/golden.rs.in")).into(),
        ),
        ("assets/sprites.png", starter_sheet()),
    ];
    let mirror = mirror_of(&root)?;
    let mirror_files: Vec<(&str, Vec<u8>)> = mirror
        .files
        .iter()
        .map(|(path, bytes)| (path.as_str(), bytes.clone()))
        .collect();
    let staging = make_staging(&parent, name)?;
    // The staging folder exists already (made exclusively above): fill it.
    let written = write_all_into(&staging, &files)
        .and_then(|()| write_all_into(&staging, &mirror_files))
        .and_then(|()| Ok(make_links(&staging, &root, &mirror.links)?))
        .and_then(|()| {
            // A rename onto an existing folder would fail (or replace an empty one): check again
            // at the last moment.
            if dir.symlink_metadata().is_ok() {
                return Err(NewCartError::Exists(dir.clone()));
            }
            std::fs::rename(&staging, &dir).map_err(|source| NewCartError::Write {
                path: dir.clone(),
                source,
            })
        });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    written.map(|()| dir)
}

/// Makes the hidden folder the files are written into, under a name nothing has: one that
/// exists already (left by another run, or someone's own) is passed over, never used or
/// removed, so a failure removes only what this run made.
fn make_staging(parent: &Path, name: &str) -> Result<PathBuf, NewCartError> {
    let pid = std::process::id();
    let mut last = None;
    for n in 0..100 {
        let staging = parent.join(format!(".{name}.bt-new-{pid}-{n}"));
        match std::fs::create_dir(&staging) {
            Ok(()) => return Ok(staging),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(staging),
            Err(source) => {
                return Err(NewCartError::Write {
                    path: staging,
                    source,
                })
            }
        }
    }
    Err(NewCartError::Write {
        path: last.unwrap_or_else(|| parent.to_path_buf()),
        source: std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "a hundred staging folders of that name exist",
        ),
    })
}

/// Names a cart cannot have although they are made of the right characters: Rust's keywords
/// (the crate's name is a Rust name), the crates every cart links (`std`, `core`, `alloc`,
/// `proc_macro`, `test`, `bt`, `bt_runtime`), the folders Cargo keeps its output in, and the
/// names Windows reserves for devices.
const RESERVED_NAMES: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "crate",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "async",
    "await",
    "dyn",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "test",
    "bt",
    "bt_runtime",
    "build",
    "deps",
    "examples",
    "incremental",
    "con",
    "prn",
    "aux",
    "nul",
    "com1",
    "com2",
    "com3",
    "com4",
    "com5",
    "com6",
    "com7",
    "com8",
    "com9",
    "lpt1",
    "lpt2",
    "lpt3",
    "lpt4",
    "lpt5",
    "lpt6",
    "lpt7",
    "lpt8",
    "lpt9",
];

/// Why `name` cannot name a cart although its characters are right, if it cannot.
fn reserved(name: &str) -> Option<&'static str> {
    let as_crate = name.replace('-', "_");
    RESERVED_NAMES
        .iter()
        .find(|r| **r == as_crate)
        .map(|r| match *r {
            "std" | "core" | "alloc" | "proc_macro" | "test" | "bt" | "bt_runtime" => {
                "the name of a crate every cart links"
            }
            "build" | "deps" | "examples" | "incremental" => "a folder Cargo keeps its output in",
            "con" | "prn" | "aux" | "nul" => "a name Windows reserves for a device",
            r if r.len() == 4 && (r.starts_with("com") || r.starts_with("lpt")) => {
                "a name Windows reserves for a device"
            }
            _ => "a Rust keyword, which no crate can be named",
        })
}

/// Writes `files` into the existing folder `staging`.
fn write_all_into(staging: &Path, files: &[(&str, Vec<u8>)]) -> Result<(), NewCartError> {
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |source| NewCartError::Write { path, source }
    };
    for (name, bytes) in files {
        let path = staging.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(fail(folder))?;
        }
        let mut file = std::fs::File::create_new(&path).map_err(fail(&path))?;
        file.write_all(bytes).map_err(fail(&path))?;
    }
    Ok(())
}

/// The starter's sprite sheet, drawn here as text so it needs no binary file in BT's tree:
/// a robot, then three frames of a turning coin, 8×8 each.
const SHEET: [&str; 8] = [
    "..cccc.. ..yyyy.. ...yy... ...yy...",
    ".cwwwwc. .yYYYYy. ..yYYy.. ...yy...",
    ".cwbwbc. yYyyyyYy ..yYYy.. ...yy...",
    ".cwwwwc. yYyYYyYy ..yYYy.. ...yy...",
    "..cccc.. yYyYYyYy ..yYYy.. ...yy...",
    ".gccccg. yYyyyyYy ..yYYy.. ...yy...",
    ".gc..cg. .yYYYYy. ..yYYy.. ...yy...",
    "..c..c.. ..yyyy.. ...yy... ...yy...",
];

/// The colour of each letter in [`SHEET`]; `.` is see-through.
fn sheet_color(c: u8) -> [u8; 4] {
    match c {
        b'c' => [0x29, 0xad, 0xff, 0xff],
        b'w' => [0xff, 0xf1, 0xe8, 0xff],
        b'b' => [0x1d, 0x2b, 0x53, 0xff],
        b'g' => [0x83, 0x76, 0x9c, 0xff],
        b'y' => [0xff, 0xa3, 0x00, 0xff],
        b'Y' => [0xff, 0xec, 0x27, 0xff],
        _ => [0, 0, 0, 0],
    }
}

/// [`SHEET`] as PNG bytes.
fn starter_sheet() -> Vec<u8> {
    let rows: Vec<Vec<u8>> = SHEET
        .iter()
        .map(|r| r.bytes().filter(|&b| b != b' ').collect())
        .collect();
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let rgba: Vec<u8> = rows
        .iter()
        .flatten()
        .flat_map(|&c| sheet_color(c))
        .collect();
    let mut png = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new(&mut png);
    // Encoding a fixed, valid 32×8 picture into memory cannot fail.
    let _ = image::ImageEncoder::write_image(encoder, &rgba, w, h, image::ExtendedColorType::Rgba8);
    png
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bt-new-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name("space-miner2"));
        for bad in ["", "2fast", "Game", "my game", "a/b", "..", &"x".repeat(65)] {
            assert!(!valid_name(bad), "{bad:?}");
            assert!(matches!(
                new_cart(bad, Path::new(".")),
                Err(NewCartError::BadName(_))
            ));
        }
        assert_eq!(title_of("space-miner_2"), "Space Miner 2");
    }

    #[test]
    fn makes_every_file_with_the_names_filled_in() {
        let parent = scratch("files");
        let dir = new_cart("space-miner", &parent).unwrap();
        for f in [
            "Cargo.toml",
            "cart.toml",
            "src/main.rs",
            "src/lib.rs",
            "tests/golden.rs",
            "assets/sprites.png",
            "README.md",
            ".cargo/config.toml",
            ".gitignore",
            ".bt/Cargo.toml",
            ".bt/Cargo.lock",
        ] {
            assert!(dir.join(f).is_file(), "{f}");
        }
        assert!(
            dir.join(".bt/runtime/src/lib.rs").is_file(),
            "the links reach BT"
        );
        let main = std::fs::read_to_string(dir.join("src/main.rs")).unwrap();
        assert!(main.contains("space_miner::Game::default"), "{main}");
        let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(cargo.contains("name = \"space-miner\""));
        assert!(!cargo.contains("{{"), "a placeholder left: {cargo}");
        let manifest = crate::config::manifest::load(&dir).unwrap().unwrap();
        assert_eq!(manifest.cart.title.as_deref(), Some("Space Miner"));
        let sheet = image::open(dir.join("assets/sprites.png")).unwrap();
        assert_eq!((sheet.width(), sheet.height()), (32, 8));
        let leftovers: Vec<_> = std::fs::read_dir(&parent).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "only the cart's folder");
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn names_no_crate_can_have_are_refused_with_the_reason() {
        for (name, why) in [
            ("fn", "a Rust keyword"),
            ("self", "a Rust keyword"),
            ("async", "a Rust keyword"),
            ("dyn", "a Rust keyword"),
            ("std", "a crate every cart links"),
            ("bt", "a crate every cart links"),
            ("bt-runtime", "a crate every cart links"),
            ("build", "a folder Cargo keeps"),
            ("con", "Windows reserves"),
            ("lpt1", "Windows reserves"),
        ] {
            let e = new_cart(name, Path::new(".")).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("'{name}' cannot name a cart: it is")),
                "{e}"
            );
            assert!(e.contains(why), "{e}");
        }
        assert!(reserved("fnord").is_none() && reserved("builder").is_none());
    }

    #[test]
    fn a_staging_folder_someone_left_is_never_removed() {
        let parent = scratch("staging");
        let pid = std::process::id();
        let theirs = [
            format!(".game.bt-new-{pid}"),
            format!(".game.bt-new-{pid}-0"),
        ];
        for name in &theirs {
            std::fs::create_dir(parent.join(name)).unwrap();
            std::fs::write(parent.join(name).join("precious.txt"), "mine").unwrap();
        }
        new_cart("game", &parent).unwrap();
        for name in &theirs {
            let kept = std::fs::read_to_string(parent.join(name).join("precious.txt"));
            assert_eq!(kept.unwrap(), "mine", "{name}");
        }
        // The cart, and their two folders: no folder of this run's is left.
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 3);
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn never_writes_over_what_is_there() {
        let parent = scratch("exists");
        std::fs::create_dir(parent.join("taken")).unwrap();
        std::fs::write(parent.join("taken/keep.txt"), "mine").unwrap();
        let err = new_cart("taken", &parent).unwrap_err();
        assert!(err.to_string().contains("taken already exists"), "{err}");
        assert_eq!(
            std::fs::read_to_string(parent.join("taken/keep.txt")).unwrap(),
            "mine"
        );
        std::fs::write(parent.join("file"), "x").unwrap();
        assert!(matches!(
            new_cart("file", &parent),
            Err(NewCartError::Exists(_))
        ));
        let missing = parent.join("missing");
        let err = new_cart("x", &missing).unwrap_err();
        assert!(matches!(err, NewCartError::NoParent(_)));
        assert_eq!(
            err.to_string(),
            format!(
                "the folder {0} does not exist: make it first (mkdir -p {0}), or give another --path",
                missing.display()
            )
        );
        assert!(!missing.exists(), "nothing is made when refusing");
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
