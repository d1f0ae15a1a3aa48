//! `bt new`: a cart crate of one's own, outside BT's tree, that builds and runs the first time;
//! and `bt attach`, which makes a cart folder's machine-specific parts again after a clone.
//!
//! A cart's folder is portable source: every file `bt new` writes names only paths inside the
//! cart, and git keeps them all. What names this machine (the `.bt` workspace, with its links
//! to the BT checkout and to the shared build folder) is made by [`attach`], which `bt new`
//! runs too, and left out of git by the cart's `.gitignore`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::config::read::{read_text, ReadError, MAX_TEXT_FILE};

use super::new_cache::{build_dir_for, seed, seed_sources, Patience, Seeded};
use super::new_workspace::{make_links, mirror_of, MirrorError, MIRROR_DIR};

/// The BT checkout this binary was built from; new carts depend on it by path.
pub const BT_ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The starter's `.cargo/config.toml`: where Cargo builds (paths inside the cart) and how the
/// system's libraries are linked. `bt attach` writes it into a cart that has none.
const CARGO_CONFIG: &str = include_str!("../../templates/starter/cargo-config.toml.in");

/// The `build-dir` the starter's `.cargo/config.toml` sets: the link to the shared build folder.
const BUILD_DIR_SETTING: &str = ".bt/build";

/// Why `bt new` or `bt attach` made nothing.
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
    #[error("{} already exists; bt new never writes over anything (pick another name or --path)", crate::quote::path(.0))]
    Exists(PathBuf),
    /// The folder to make it in is not there.
    #[error(
        "the folder {} does not exist: make it first (mkdir -p {}), or give another --path",
        crate::quote::path(.0),
        crate::quote::path(.0)
    )]
    NoParent(PathBuf),
    /// `bt attach` was pointed at a folder that is not a cart made by `bt new`.
    #[error(
        "{}: {why}; bt attach works in the folder of a cart made by bt new",
        crate::quote::path(path)
    )]
    NotACart {
        /// The folder, or the file in it that says so.
        path: PathBuf,
        /// What is missing or wrong.
        why: String,
    },
    /// BT's checkout could not be read, or a link or folder of the cart's `.bt` made.
    #[error("the cart's .bt folder: {0}")]
    Mirror(#[from] MirrorError),
    /// Writing failed; nothing was left behind.
    #[error("cannot write {}: {source}", crate::quote::path(path))]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The BT checkout a cart is attached to on this machine, the build folder its carts share,
/// and the build folders that folder is seeded from.
#[derive(Debug, Clone)]
pub(crate) struct Machine {
    /// The BT checkout: `.bt`'s links point into it.
    pub root: PathBuf,
    /// The shared build folder: `.bt/build` points at it.
    pub build: PathBuf,
    /// BT's build folders, copied into `build` where newer.
    pub seeds: Vec<PathBuf>,
    /// Whether seeding waits for a build that holds one of those folders.
    pub patience: Patience,
}

impl Machine {
    /// The checkout this program was built from ([`BT_ROOT`]), its shared build folder in the
    /// user's cache folder, and its build folders.
    pub fn this() -> Machine {
        let root = Path::new(BT_ROOT)
            .canonicalize()
            .unwrap_or_else(|_| PathBuf::from(BT_ROOT));
        Machine {
            build: build_dir_for(&root),
            seeds: seed_sources(&root),
            root,
            patience: Patience::Wait,
        }
    }
}

/// A cart folder with its machine-specific parts made: what `bt new` and `bt attach` did.
#[derive(Debug)]
pub struct Attached {
    /// The cart's folder.
    pub dir: PathBuf,
    /// The cart's package name.
    pub name: String,
    /// The BT checkout its `.bt` links to.
    pub root: PathBuf,
    /// The shared build folder `.bt/build` links to.
    pub build: PathBuf,
    /// What was copied into the shared build folder from BT's build.
    pub seeded: Seeded,
    /// Things to tell the user: a cart made by an older `bt new`, a `.bt` not removed.
    pub notes: Vec<String>,
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

/// Makes the cart crate `parent/name` with a starter game, attached to this machine's BT (see
/// [`attach`]). The files are written into a fresh hidden folder first and moved into place at
/// the end, so a failure leaves nothing behind and nothing that existed is touched.
///
/// # Errors
/// A [`NewCartError`]: a bad name, something already at the path, a missing parent folder, a
/// write that failed, BT's checkout unreadable.
pub fn new_cart(name: &str, parent: &Path) -> Result<Attached, NewCartError> {
    new_cart_on(name, parent, &Machine::this())
}

/// [`new_cart`] attached to `machine`.
pub(crate) fn new_cart_on(
    name: &str,
    parent: &Path,
    machine: &Machine,
) -> Result<Attached, NewCartError> {
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
    // Every file names only paths inside the cart: the folder is the same source anywhere.
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{title}}", &title_of(name))
    };
    let files: [(&str, Vec<u8>); 11] = [
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
        (".cargo/config.toml", fill(CARGO_CONFIG).into()),
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
        ("assets/room.tmj", starter_room().into()),
        (
            "assets/sounds.txt",
            include_str!("../../templates/starter/sounds.txt.in").into(),
        ),
    ];
    let staging = make_staging(&parent, name)?;
    // The staging folder exists already (made exclusively above): fill it.
    let written = write_all_into(&staging, &files)
        .and_then(|()| {
            let mirror = staging.join(MIRROR_DIR);
            std::fs::create_dir(&mirror).map_err(|source| NewCartError::Write {
                path: mirror.clone(),
                source,
            })?;
            make_mirror(&mirror, machine)
        })
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
    written?;
    Ok(Attached {
        dir,
        name: name.to_string(),
        root: machine.root.clone(),
        build: machine.build.clone(),
        seeded: seed(&machine.build, &machine.seeds, machine.patience),
        notes: Vec::new(),
    })
}

/// Fills the empty folder `mirror` (a cart's `.bt`, or the folder that becomes it) with the
/// mirror of `machine`'s BT and the link to its shared build folder.
fn make_mirror(mirror: &Path, machine: &Machine) -> Result<(), NewCartError> {
    let made = mirror_of(&machine.root)?;
    write_all_into(mirror, &made.files)?;
    make_links(mirror, &machine.root, &made.links, &machine.build)?;
    Ok(())
}

/// Makes the machine-specific parts of the cart in `dir` again: its `.bt` workspace, linked to
/// the BT checkout this program was built from and to the build folder that checkout's carts
/// share, which is refreshed with what BT compiled. What a clone of a cart's git repository
/// needs before it builds, and what `cargo clean` undoes (it removes the link `.bt/build`).
///
/// The new `.bt` is made beside the old one and swapped in, so a failure leaves the old one
/// as it was. Nothing else in the cart is changed, except that a cart with no
/// `.cargo/config.toml` gets the starter's.
///
/// # Errors
/// [`NewCartError::NotACart`] when `dir` has no `Cargo.toml` naming `.bt` as its workspace or
/// its `.bt` is not a folder; a [`NewCartError`] for what could not be read or written.
pub fn attach(dir: &Path) -> Result<Attached, NewCartError> {
    attach_on(dir, &Machine::this())
}

/// [`attach`] to `machine`.
pub(crate) fn attach_on(dir: &Path, machine: &Machine) -> Result<Attached, NewCartError> {
    let not_a_cart = |path: &Path, why: &str| NewCartError::NotACart {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let dir = dir
        .canonicalize()
        .map_err(|e| not_a_cart(dir, &format!("no such folder ({e})")))?;
    let manifest_path = dir.join("Cargo.toml");
    let manifest = read_text(&manifest_path, MAX_TEXT_FILE)
        .map_err(|e| not_a_cart(&manifest_path, &format!("cannot be read ({e})")))?;
    let manifest: toml::Table = toml::from_str(&manifest).map_err(|e| {
        let first = e.to_string();
        let first = first.lines().next().unwrap_or_default().to_string();
        not_a_cart(&manifest_path, &format!("not valid TOML ({first})"))
    })?;
    let package = manifest.get("package").and_then(|p| p.as_table());
    let name = package
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .ok_or_else(|| not_a_cart(&manifest_path, "it has no [package] name"))?
        .to_string();
    // The name goes into the workspace bt makes and into paths: what `bt new` refuses, a
    // cart's folder cannot bring in either.
    if !valid_name(&name) {
        return Err(not_a_cart(
            &manifest_path,
            &format!(
                "its [package] name '{}' is not a cart's name (a lowercase letter, then up to 63 \
                 lowercase letters, digits, '-' or '_')",
                crate::quote::excerpt(&name)
            ),
        ));
    }
    if let Some(why) = reserved(&name) {
        return Err(not_a_cart(
            &manifest_path,
            &format!("its [package] name '{name}' is {why}"),
        ));
    }
    if package
        .and_then(|p| p.get("workspace"))
        .and_then(|w| w.as_str())
        != Some(MIRROR_DIR)
    {
        return Err(not_a_cart(
            &manifest_path,
            "its [package] has no `workspace = \".bt\"`",
        ));
    }
    let mirror = dir.join(MIRROR_DIR);
    let old = mirror.symlink_metadata().ok();
    if old.as_ref().is_some_and(|m| !m.is_dir()) {
        return Err(not_a_cart(
            &mirror,
            "a file or a link, not the folder bt makes: move it away first",
        ));
    }
    let staging = make_staging(&dir, "bt")?;
    if let Err(e) = make_mirror(&staging, machine) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    let mut notes = Vec::new();
    // The old `.bt` (its links, and a build folder Cargo made after `cargo clean` took the
    // link) goes to a name of its own and then away; the new one takes its place.
    let retired = match old {
        Some(_) => match retire(&mirror) {
            Ok(to) => Some(to),
            Err(source) => {
                let _ = std::fs::remove_dir_all(&staging);
                return Err(NewCartError::Write {
                    path: mirror,
                    source,
                });
            }
        },
        None => None,
    };
    if let Err(source) = std::fs::rename(&staging, &mirror) {
        if let Some(retired) = &retired {
            let _ = std::fs::rename(retired, &mirror);
        }
        let _ = std::fs::remove_dir_all(&staging);
        return Err(NewCartError::Write {
            path: mirror,
            source,
        });
    }
    if let Some(retired) = retired {
        if let Err(e) = std::fs::remove_dir_all(&retired) {
            notes.push(format!(
                "the old .bt folder, now {}, could not be removed ({e}): remove it",
                crate::quote::path(&retired)
            ));
        }
    }
    notes.extend(check_tracked_files(&dir)?);
    Ok(Attached {
        dir,
        name,
        root: machine.root.clone(),
        build: machine.build.clone(),
        seeded: seed(&machine.build, &machine.seeds, machine.patience),
        notes,
    })
}

/// Moves the folder `path` to an unused hidden name beside it, and returns that name.
fn retire(path: &Path) -> std::io::Result<PathBuf> {
    let pid = std::process::id();
    for n in 0..100 {
        let to = path.with_file_name(format!(".bt.bt-old-{pid}-{n}"));
        if to.symlink_metadata().is_err() {
            std::fs::rename(path, &to)?;
            return Ok(to);
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "a hundred folders named .bt.bt-old-* exist beside it",
    ))
}

/// Checks the files git keeps that say how the cart builds: writes the starter's
/// `.cargo/config.toml` when there is none, and says what a cart made by an older `bt new`
/// lacks (its own build settings are the user's to change).
fn check_tracked_files(dir: &Path) -> Result<Vec<String>, NewCartError> {
    let mut notes = Vec::new();
    let config = dir.join(".cargo/config.toml");
    match read_text(&config, MAX_TEXT_FILE) {
        Err(ReadError::NotFound) => {
            let name = dir.file_name().unwrap_or_default().to_string_lossy();
            write_all_into(
                dir,
                &[(
                    ".cargo/config.toml",
                    CARGO_CONFIG.replace("{{name}}", &name).into(),
                )],
            )?;
            notes.push(format!(
                "wrote {}, the starter's",
                crate::quote::path(&config)
            ));
        }
        Err(e) => notes.push(format!("cannot read {}: {e}", crate::quote::path(&config))),
        Ok(text) => {
            let build_dir = toml::from_str::<toml::Table>(&text).ok().and_then(|t| {
                t.get("build")?
                    .get("build-dir")?
                    .as_str()
                    .map(str::to_string)
            });
            if build_dir.as_deref() != Some(BUILD_DIR_SETTING) {
                notes.push(format!(
                    "{} does not set build-dir = \"{BUILD_DIR_SETTING}\", so builds do not use \
                     the shared build folder: under [build], put target-dir = \"target\" and \
                     build-dir = \"{BUILD_DIR_SETTING}\" (a cart made by an older bt new)",
                    crate::quote::path(&config)
                ));
            }
        }
    }
    let ignore = dir.join(".gitignore");
    let ignored = read_text(&ignore, MAX_TEXT_FILE).is_ok_and(|text| {
        text.lines()
            .any(|l| matches!(l.trim(), "/.bt/" | "/.bt" | ".bt/" | ".bt"))
    });
    if !ignored {
        notes.push(format!(
            "{} does not leave out /.bt/: add that line, since .bt names this machine's paths",
            crate::quote::path(&ignore)
        ));
    }
    Ok(notes)
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
/// BT's own packages besides `bt` and `bt-runtime` (as crate names), and its binaries.
const BT_PACKAGES: &[&str] = &[
    "bt_overlay",
    "bt_engine",
    "bt_timing",
    "bt_host",
    "bt_tools",
    "bt_window",
    "bt_web",
    "bt_web_main",
    "bt_test_support",
    "bt_gallery",
    "bt_test_carts",
];

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
    // The cart's workspace holds BT's packages: a second package of one of their names
    // cannot build, and the page crates `bt web` makes are named `bt-page-<cart>`.
    if BT_PACKAGES.contains(&as_crate.as_str())
        || as_crate.starts_with("bt_cart_")
        || as_crate.starts_with("bt_page_")
    {
        return Some("the name of one of BT's own packages, which a cart's workspace holds too");
    }
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

/// The starter's sprite sheet, 8 × 8 sprites in a row each: the robot, the coin's three turns
/// and a wall, then room for 27 more (the sheet is 64 × 32, four rows of eight). A letter is a
/// PICO-8 colour ([`sheet_number`]), `.` see-through.
const SHEET: [&str; 32] = [
    "..cccc.. ..yyyy.. ...yy... ...yy... llldllld ........ ........ ........",
    ".cwwwwc. .yYYYYy. ..yYYy.. ...yy... llldllld ........ ........ ........",
    ".cwbwbc. yYyyyyYy ..yYYy.. ...yy... dddddddd ........ ........ ........",
    ".cwwwwc. yYyYYyYy ..yYYy.. ...yy... ldllldll ........ ........ ........",
    "..cccc.. yYyYYyYy ..yYYy.. ...yy... ldllldll ........ ........ ........",
    ".gccccg. yYyyyyYy ..yYYy.. ...yy... dddddddd ........ ........ ........",
    ".gc..cg. .yYYYYy. ..yYYy.. ...yy... llldllld ........ ........ ........",
    "..c..c.. ..yyyy.. ...yy... ...yy... llldllld ........ ........ ........",
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
    EMPTY_ROW,
];

/// A row of the sheet with nothing drawn on it yet.
const EMPTY_ROW: &str = "........ ........ ........ ........ ........ ........ ........ ........";

/// The starter's room, one letter a cell of 8 × 8 pixels over the 240 × 160 display: `#` is
/// the wall sprite (4), `.` nothing. The top two rows are under the title, the bottom two
/// hold the hint.
const ROOM: [&str; 20] = [
    "..............................",
    "..............................",
    "##############################",
    "#............................#",
    "#............................#",
    "#............................#",
    "#.....###.............###....#",
    "#.....###.............###....#",
    "#............................#",
    "#............................#",
    "#............................#",
    "#............................#",
    "#.....###.............###....#",
    "#.....###.............###....#",
    "#............................#",
    "#............................#",
    "#............................#",
    "##############################",
    "..............................",
    "..............................",
];

/// [`ROOM`] as a Tiled map (`.tmj`), its tileset the sprite sheet with the wall's flag bits
/// (1, solid) as the `flags` property `bt::map` reads: `bt map-edit` paints it, `bt
/// sprite-edit` sets the flags, and Tiled opens it too.
fn starter_room() -> String {
    let cells: Vec<String> = ROOM
        .iter()
        .flat_map(|row| row.bytes())
        .map(|c| if c == b'#' { "5" } else { "0" }.to_string())
        .collect();
    let (w, h) = (ROOM[0].len(), ROOM.len());
    format!(
        r#"{{ "type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal",
 "renderorder": "right-down", "width": {w}, "height": {h}, "tilewidth": 8, "tileheight": 8,
 "infinite": false, "nextlayerid": 2, "nextobjectid": 1,
 "layers": [
  {{ "type": "tilelayer", "id": 1, "name": "room", "x": 0, "y": 0, "width": {w}, "height": {h},
   "opacity": 1, "visible": true,
   "data": [{}] }}
 ],
 "tilesets": [
  {{ "firstgid": 1, "name": "sprites", "image": "sprites.png", "imagewidth": 64, "imageheight": 32,
   "tilewidth": 8, "tileheight": 8, "tilecount": 32, "columns": 8, "margin": 0, "spacing": 0,
   "tiles": [ {{ "id": 4, "properties": [ {{ "name": "flags", "type": "int", "value": 1 }} ] }} ] }}
 ]
}}
"#,
        cells.join(",")
    )
}

/// The palette number of each letter in [`SHEET`], in the PICO-8 colours the sheet is saved
/// with; `.` is 0, see-through.
fn sheet_number(c: u8) -> u8 {
    match c {
        b'c' => 12,
        b'w' => 7,
        b'b' => 1,
        b'g' => 13,
        b'y' => 9,
        b'Y' => 10,
        b'd' => 5,
        b'l' => 6,
        _ => 0,
    }
}

/// [`SHEET`] as an indexed PNG in the PICO-8 colours, number 0 see-through: the kind of sheet
/// `bt sprite-edit` edits as it is.
fn starter_sheet() -> Vec<u8> {
    let rows: Vec<Vec<u8>> = SHEET
        .iter()
        .map(|r| r.bytes().filter(|&b| b != b' ').collect())
        .collect();
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let numbers: Vec<u8> = rows.iter().flatten().map(|&c| sheet_number(c)).collect();
    let pico8 = bt::Palette::pico8();
    let palette: Vec<[u8; 3]> = (0..16)
        .map(|i| {
            let c = pico8.get(i).unwrap_or_default();
            [c.r, c.g, c.b]
        })
        .collect();
    // Encoding a fixed, valid 64×32 picture into memory cannot fail.
    crate::export::png::encode_indexed_png(&numbers, (w, h), &palette, &[0]).unwrap_or_default()
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

    /// This BT checkout, with a shared build folder of the test's own (beside `parent`, named
    /// after it) that nothing seeds.
    fn machine(parent: &Path) -> Machine {
        let mut name = parent.file_name().unwrap_or_default().to_os_string();
        name.push("-shared-build");
        Machine {
            root: Path::new(BT_ROOT).canonicalize().unwrap(),
            build: parent.with_file_name(name),
            seeds: Vec::new(),
            patience: Patience::PassOver,
        }
    }

    /// Removes a test's folder and its shared build folder.
    fn clean(parent: &Path) {
        std::fs::remove_dir_all(parent).unwrap();
        let _ = std::fs::remove_dir_all(machine(parent).build);
    }

    /// Every file under `dir` but those in `.bt`, relative to it.
    fn tracked(dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut todo = vec![PathBuf::new()];
        while let Some(rel) = todo.pop() {
            for entry in std::fs::read_dir(dir.join(&rel)).unwrap() {
                let entry = entry.unwrap();
                let rel = rel.join(entry.file_name());
                if rel == Path::new(MIRROR_DIR) {
                    continue;
                }
                if entry.file_type().unwrap().is_dir() {
                    todo.push(rel);
                } else {
                    found.push(rel);
                }
            }
        }
        found.sort();
        found
    }

    /// `new_cart` on a machine whose shared build folder is in `parent`.
    fn new_in(name: &str, parent: &Path) -> Result<Attached, NewCartError> {
        new_cart_on(name, parent, &machine(parent))
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name("space-miner2"));
        for bad in ["", "2fast", "Game", "my game", "a/b", "..", &"x".repeat(65)] {
            assert!(!valid_name(bad), "{bad:?}");
            assert!(matches!(
                new_in(bad, Path::new(".")),
                Err(NewCartError::BadName(_))
            ));
        }
        assert_eq!(title_of("space-miner_2"), "Space Miner 2");
    }

    #[test]
    fn makes_every_file_with_the_names_filled_in() {
        let parent = scratch("files");
        let dir = new_in("space-miner", &parent).unwrap().dir;
        for f in [
            "Cargo.toml",
            "cart.toml",
            "src/main.rs",
            "src/lib.rs",
            "tests/golden.rs",
            "assets/sprites.png",
            "assets/room.tmj",
            "assets/sounds.txt",
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
        assert_eq!((sheet.width(), sheet.height()), (64, 32));
        let bytes = std::fs::read(dir.join("assets/sprites.png")).unwrap();
        // IHDR's colour type: 3, palette numbers, so `bt sprite-edit` edits it as it is.
        assert_eq!(bytes[25], 3, "the starter's sheet is an indexed PNG");
        let leftovers: Vec<_> = std::fs::read_dir(&parent).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "only the cart's folder");
        assert_eq!(
            std::fs::read_link(dir.join(".bt/build")).unwrap(),
            machine(&parent).build,
            "the build folder is the shared one"
        );
        assert!(
            dir.join(".bt/docs/getting-started.md").is_file(),
            "BT's guides"
        );
        clean(&parent);
    }

    #[test]
    fn no_file_git_keeps_names_this_machine() {
        let parent = scratch("portable");
        let made = new_in("space-miner", &parent).unwrap();
        let files = tracked(&made.dir);
        assert_eq!(files.len(), 11, "{files:?}");
        let root = made.root.to_string_lossy().into_owned();
        let build = made.build.to_string_lossy().into_owned();
        let home = std::env::var("HOME").unwrap_or_else(|_| "/nowhere/at/all".into());
        for file in files {
            let Ok(text) = std::fs::read_to_string(made.dir.join(&file)) else {
                continue; // the sprite sheet
            };
            for (what, path) in [("BT's checkout", &root), ("the build folder", &build)] {
                assert!(!text.contains(path.as_str()), "{file:?} names {what}");
            }
            assert!(!text.contains(&home), "{file:?} names the home folder");
        }
        let ignore = std::fs::read_to_string(made.dir.join(".gitignore")).unwrap();
        assert!(ignore.lines().any(|l| l == "/.bt/"), "{ignore}");
        let config: toml::Table =
            toml::from_str(&std::fs::read_to_string(made.dir.join(".cargo/config.toml")).unwrap())
                .unwrap();
        assert_eq!(config["build"]["target-dir"].as_str(), Some("target"));
        assert_eq!(config["build"]["build-dir"].as_str(), Some(".bt/build"));
        clean(&parent);
    }

    /// Copies what git keeps of the cart in `from` (all but `.bt`) to the new folder `to`.
    fn copy_tracked(from: &Path, to: &Path) {
        for file in tracked(from) {
            std::fs::create_dir_all(to.join(&file).parent().unwrap()).unwrap();
            std::fs::copy(from.join(&file), to.join(&file)).unwrap();
        }
    }

    #[test]
    fn a_copy_without_its_bt_folder_is_attached_again() {
        let parent = scratch("attach");
        let made = new_in("space-miner", &parent).unwrap();
        let copy = parent.join("elsewhere").join("my-copy");
        copy_tracked(&made.dir, &copy);
        assert!(!copy.join(".bt").exists());
        let attached = attach_on(&copy, &machine(&parent)).unwrap();
        assert_eq!(attached.name, "space-miner");
        assert_eq!(attached.dir, copy.canonicalize().unwrap());
        assert!(attached.notes.is_empty(), "{:?}", attached.notes);
        for same in ["Cargo.toml", "Cargo.lock"] {
            assert_eq!(
                std::fs::read(copy.join(".bt").join(same)).unwrap(),
                std::fs::read(made.dir.join(".bt").join(same)).unwrap(),
                "{same}"
            );
        }
        assert!(copy.join(".bt/cart-api/src/lib.rs").is_file());
        assert!(
            copy.join(".bt/runtime/web").is_dir(),
            "the page crate's folder"
        );
        assert_eq!(
            std::fs::read_link(copy.join(".bt/build")).unwrap(),
            machine(&parent).build
        );
        assert_eq!(
            tracked(&copy),
            tracked(&made.dir),
            "nothing else is written"
        );
        clean(&parent);
    }

    #[test]
    fn attach_puts_back_the_link_cargo_clean_removed() {
        let parent = scratch("reattach");
        let dir = new_in("game", &parent).unwrap().dir;
        // `cargo clean` removes the link; the next build makes a folder of its own there.
        std::fs::remove_file(dir.join(".bt/build")).unwrap();
        std::fs::create_dir_all(dir.join(".bt/build/release/deps")).unwrap();
        std::fs::write(dir.join(".bt/build/release/deps/libx.rlib"), "cold").unwrap();
        attach_on(&dir, &machine(&parent)).unwrap();
        assert_eq!(
            std::fs::read_link(dir.join(".bt/build")).unwrap(),
            machine(&parent).build
        );
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".bt"))
            .collect();
        assert_eq!(names, [".bt"], "no old or half-made .bt is left");
        // Twice in a row is the same as once, and removing the old `.bt` removes its links,
        // never what they point to.
        let kept = machine(&parent).build.join("release/deps/libkept.rlib");
        std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
        std::fs::write(&kept, "shared").unwrap();
        attach_on(&dir, &machine(&parent)).unwrap();
        assert!(dir.join(".bt/runtime/src/lib.rs").is_file());
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "shared");
        clean(&parent);
    }

    #[test]
    fn attach_refuses_a_folder_that_is_not_a_cart_by_name() {
        let parent = scratch("not-a-cart");
        let m = machine(&parent);
        let err = attach_on(&parent.join("missing"), &m)
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing: no such folder"), "{err}");
        let err = attach_on(&parent, &m).unwrap_err().to_string();
        assert!(
            err.contains("Cargo.toml: cannot be read")
                && err.ends_with("bt attach works in the folder of a cart made by bt new"),
            "{err}"
        );
        std::fs::write(parent.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        let err = attach_on(&parent, &m).unwrap_err().to_string();
        assert!(err.contains("no `workspace = \".bt\"`"), "{err}");
        std::fs::write(parent.join("Cargo.toml"), "[package\n").unwrap();
        let err = attach_on(&parent, &m).unwrap_err().to_string();
        assert!(err.contains("not valid TOML"), "{err}");
        // Names `bt new` refuses: one of BT's own packages, or one that is no cart's name.
        for (name, says) in [
            ("bt-runtime", "a crate every cart links"),
            ("bt-overlay", "one of BT's own packages"),
            ("../../x", "is not a cart's name"),
        ] {
            std::fs::write(
                parent.join("Cargo.toml"),
                format!("[package]\nname = \"{name}\"\nworkspace = \".bt\"\n"),
            )
            .unwrap();
            let err = attach_on(&parent, &m).unwrap_err().to_string();
            assert!(err.contains(says), "{name}: {err}");
            assert!(!parent.join(".bt").exists(), "{name}: nothing made");
        }
        // A `.bt` that is a file is someone's: left as it is.
        let dir = new_in("game", &parent).unwrap().dir;
        std::fs::remove_dir_all(dir.join(".bt")).unwrap();
        std::fs::write(dir.join(".bt"), "mine").unwrap();
        let err = attach_on(&dir, &m).unwrap_err().to_string();
        assert!(err.contains(".bt: a file or a link"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join(".bt")).unwrap(), "mine");
        clean(&parent);
    }

    #[test]
    fn attach_says_what_a_cart_of_an_older_bt_new_lacks() {
        let parent = scratch("older");
        let dir = new_in("game", &parent).unwrap().dir;
        std::fs::write(
            dir.join(".cargo/config.toml"),
            "[build]\ntarget-dir = \"/somewhere/bt/target\"\n",
        )
        .unwrap();
        std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
        let notes = attach_on(&dir, &machine(&parent)).unwrap().notes;
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains("does not set build-dir = \".bt/build\""),
            "{notes:?}"
        );
        assert!(notes[1].contains("does not leave out /.bt/"), "{notes:?}");
        // With no .cargo/config.toml at all, the starter's is written.
        std::fs::remove_file(dir.join(".cargo/config.toml")).unwrap();
        let notes = attach_on(&dir, &machine(&parent)).unwrap().notes;
        assert!(notes[0].starts_with("wrote "), "{notes:?}");
        let config = std::fs::read_to_string(dir.join(".cargo/config.toml")).unwrap();
        assert!(config.contains("build-dir = \".bt/build\""), "{config}");
        clean(&parent);
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
            ("bt-overlay", "one of BT's own packages"),
            ("bt_web", "one of BT's own packages"),
            ("bt-test-carts", "one of BT's own packages"),
            ("bt-cart-snake", "one of BT's own packages"),
            ("bt-page-x", "one of BT's own packages"),
            ("build", "a folder Cargo keeps"),
            ("con", "Windows reserves"),
            ("lpt1", "Windows reserves"),
        ] {
            let e = new_in(name, Path::new(".")).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("'{name}' cannot name a cart: it is")),
                "{e}"
            );
            assert!(e.contains(why), "{e}");
        }
        assert!(reserved("fnord").is_none() && reserved("builder").is_none());
        assert!(reserved("bt-carts").is_none() && reserved("btx").is_none());
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
        new_in("game", &parent).unwrap();
        for name in &theirs {
            let kept = std::fs::read_to_string(parent.join(name).join("precious.txt"));
            assert_eq!(kept.unwrap(), "mine", "{name}");
        }
        // The cart, and their two folders: no folder of this run's is left.
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 3);
        clean(&parent);
    }

    #[test]
    fn never_writes_over_what_is_there() {
        let parent = scratch("exists");
        std::fs::create_dir(parent.join("taken")).unwrap();
        std::fs::write(parent.join("taken/keep.txt"), "mine").unwrap();
        let err = new_in("taken", &parent).unwrap_err();
        assert!(err.to_string().contains("taken already exists"), "{err}");
        assert_eq!(
            std::fs::read_to_string(parent.join("taken/keep.txt")).unwrap(),
            "mine"
        );
        std::fs::write(parent.join("file"), "x").unwrap();
        assert!(matches!(
            new_in("file", &parent),
            Err(NewCartError::Exists(_))
        ));
        let missing = parent.join("missing");
        let err = new_in("x", &missing).unwrap_err();
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
