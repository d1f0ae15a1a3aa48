//! `bt web`: a cart as a web page. The cart is compiled to WebAssembly with the page's
//! interface (`runtime/web`, package `bt-web`), and written with the JavaScript host that plays
//! it into a new folder any static web host serves.
//!
//! The crate that is compiled is made here, beside the build's target folder: a `cdylib` that
//! depends on the cart's crate and on `bt-web`, and calls `bt_web::page!` with the cart. All
//! carts share one target folder, so the standard library for the web (built from source on
//! a toolchain without a prebuilt one) and BT itself compile once.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::args::WebArgs;
use crate::cli::bundle::MAX_BUNDLE_FILES;
use crate::cli::{Offer, BT_ROOT};
use crate::config::asset_pack::PackWriter;
use crate::config::manifest::{carried_manifest, Manifest};
use crate::config::read::{read_file, read_text, FileError, ReadError, MAX_TEXT_FILE};
use crate::export::safe_write::{replace_file, OutputDir};
use crate::session::Session;

use super::{note, say, Failure};

mod view;

/// The page's script, worklet and HTML, built into `bt`.
const HOST_JS: &str = include_str!("../../../web/host/bt.js");
const AUDIO_JS: &str = include_str!("../../../web/host/bt-audio.js");
const INDEX_HTML: &str = include_str!("../../../web/host/index.html");

/// The WebAssembly target.
const TARGET: &str = "wasm32-unknown-unknown";

/// Where Debian's `rust-web-src` puts the standard library's source.
const DEBIAN_STD_SOURCE: &str = "/usr/lib/rustlib/src/rust/library/std";

/// Library features BT or its dependencies use, with the minor version of Rust that made each
/// stable and the package that needs it (`None`: BT's own crates, and every crate gets it): an
/// older compiler (Debian's `rustc-web` is 1.85) has them behind a gate, which the build opens.
/// A gate is opened only where needed: opening one a crate (the standard library) opens itself
/// is an error.
const LATE_FEATURES: [(&str, u32, Option<&str>); 2] = [
    ("unsigned_is_multiple_of", 87, None),
    ("slice_as_chunks", 88, Some("image")),
];

/// Code generation flags every page's module is built with, whichever the toolchain:
/// WebAssembly's 128-bit SIMD, which every current browser runs (see docs/web.md, "The
/// toolchain"). The blitter's row loops are written for the compiler to vectorise; without it
/// each 16-pixel row is sixteen byte-sized steps, and a page holds about an eighth of the
/// sprites at 60 fps (docs/web.md, "Figures"). With `-Zbuild-std` the standard library is
/// built with it too.
const CODEGEN_FLAGS: [&str; 1] = ["-Ctarget-feature=+simd128"];

/// What to install when no toolchain can build for the web.
const INSTALL_HINT: &str = "no Rust toolchain here builds for wasm32-unknown-unknown: run \
    `rustup target add wasm32-unknown-unknown`, or on Debian `apt-get install rustc-web \
    cargo-web rust-web-src` (with rustup's rust-lld as the linker)";

pub(super) fn web(offer: &Offer, args: WebArgs) -> Result<(), Failure> {
    if args.output.as_os_str() == "-" {
        return Err(Failure::Usage(
            "-o -: bt web writes a folder of files, not a stream; name a folder".to_string(),
        ));
    }
    // Checked before any work: a folder with files in it is never touched.
    let mut out = OutputDir::new(&args.output)?;
    // From now on SIGINT and SIGTERM stop the build and remove the staging folder.
    #[cfg(feature = "window")]
    crate::host::signals::install();
    let toolchain = Toolchain::find().ok_or_else(|| INSTALL_HINT.to_string())?;
    let mut watched = args.watch.then(|| Watched::of(offer, &args));
    let page = export(offer, &args, &toolchain)
        .map_err(|e| format!("{e}; {} was not made", crate::quote::path(&args.output)))?;
    for (name, bytes) in &page.files {
        out.write(name, bytes)?;
    }
    if args.watch {
        out.write(BUILD_ID_FILE, b"1")?;
    }
    out.commit()?;
    say(format_args!(
        "wrote {} ({}); try it with `python3 -m http.server -d {}` and http://localhost:8000/\n",
        crate::quote::path(&args.output),
        page.summary,
        crate::quote::path(&args.output)
    ))?;
    let Some(watched) = watched.as_mut() else {
        return Ok(());
    };
    say(format_args!(
        "watching the cart's code and files; the open page reloads after each build (Ctrl-C \
         stops)\n"
    ))?;
    for build_id in 2u64.. {
        if !watched.wait_for_change(offer, &args) {
            return Ok(());
        }
        match export(offer, &args, &toolchain) {
            Ok(page) => {
                for (name, bytes) in &page.files {
                    replace_file(&args.output.join(name), bytes)?;
                }
                // Last, so the page reloads once every file is in place.
                replace_file(
                    &args.output.join(BUILD_ID_FILE),
                    build_id.to_string().as_bytes(),
                )?;
                say(format_args!("rebuilt ({})\n", page.summary))?;
            }
            Err(_) if stop_requested() => return Ok(()),
            // The page stays as it was; the next change builds again.
            Err(e) => note(format_args!(
                "{e}; the page in {} is the last build",
                crate::quote::path(&args.output)
            )),
        }
    }
    Ok(())
}

/// The file a page exported with `--watch` polls, which holds the number of its build: the
/// page reloads when it changes. A page exported without `--watch` has none and polls nothing.
const BUILD_ID_FILE: &str = "bt-build-id";

/// How often `bt web --watch` looks for a change in the cart's files: often enough that the
/// build starts within a moment of a save, seldom enough to cost nothing while idle.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// The files of one export, and what `bt web` says of them.
struct Page {
    files: Vec<(String, Vec<u8>)>,
    summary: String,
}

/// Builds the cart's page: the cart chosen and its settings resolved again, so a change to
/// `cart.toml`, the asset folder or the code reaches every build `--watch` makes.
fn export(offer: &Offer, args: &WebArgs, toolchain: &Toolchain) -> Result<Page, String> {
    let chosen = offer.choose(args.cart.as_deref())?;
    // Resolved here first, as `bt run` would: a cart.toml or cart argument the cart refuses is
    // said now, not after minutes of building, and the page's title is the cart's.
    let session = Session::builder(&chosen.name, chosen.make.clone())
        .manifest(chosen.manifest.clone())
        .assets(chosen.assets.clone())
        .args(args.args.clone())
        .resolve()
        .map_err(|e| e.to_string())?;
    let bundle = Bundle::read(chosen.manifest.as_ref(), chosen.assets.as_deref())?;
    let cart = cart_crate(offer, &chosen.name)?;
    let profile = if args.release {
        PageProfile::Release
    } else {
        PageProfile::Dev
    };
    let wasm = build(
        &cart,
        &chosen.name,
        &bundle,
        toolchain,
        &web_target_dir(),
        profile,
    )?;
    let wasm_name = format!("{}.wasm", chosen.name);
    let summary = format!(
        "index.html, {wasm_name} {} KiB{}, bt.js, bt-audio.js{}",
        wasm.len().div_ceil(1024),
        bundle.summary(),
        profile.note(),
    );
    let index = index_html(
        &session.settings().title,
        &chosen.name,
        &wasm_name,
        &args.args,
        args.watch,
    );
    Ok(Page {
        files: vec![
            (wasm_name, wasm),
            ("bt.js".into(), HOST_JS.as_bytes().to_vec()),
            ("bt-audio.js".into(), AUDIO_JS.as_bytes().to_vec()),
            ("index.html".into(), index.into_bytes()),
        ],
        summary,
    })
}

/// What `bt web --watch` watches: every file of the cart's `src/`, its asset folder and its
/// `cart.toml` and `Cargo.toml`, by name, size and modification time.
struct Watched {
    seen: Vec<(PathBuf, u64, Option<std::time::SystemTime>)>,
}

impl Watched {
    /// The files as they are now.
    fn of(offer: &Offer, args: &WebArgs) -> Watched {
        Watched {
            seen: watched_files(offer, args),
        }
    }

    /// Waits until a watched file changes (`true`), or a signal asks `bt web` to stop
    /// (`false`).
    fn wait_for_change(&mut self, offer: &Offer, args: &WebArgs) -> bool {
        loop {
            if stop_requested() {
                return false;
            }
            std::thread::sleep(WATCH_EVERY);
            let now = watched_files(offer, args);
            if now != self.seen {
                self.seen = now;
                return true;
            }
        }
    }
}

/// The watched files with their sizes and times, sorted (see [`Watched`]).
fn watched_files(
    offer: &Offer,
    args: &WebArgs,
) -> Vec<(PathBuf, u64, Option<std::time::SystemTime>)> {
    let Ok(chosen) = offer.choose(args.cart.as_deref()) else {
        return Vec::new();
    };
    let Ok(cart) = cart_crate(offer, &chosen.name) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut roots = vec![
        cart.dir.join("src"),
        cart.dir.join("cart.toml"),
        cart.dir.join("Cargo.toml"),
    ];
    roots.extend(chosen.assets);
    for root in roots {
        list_files(&root, 0, &mut files);
    }
    files.sort();
    files
}

/// Adds `path` to `files`, or every file under it when it is a folder (to a depth of 16).
fn list_files(
    path: &Path,
    depth: u32,
    files: &mut Vec<(PathBuf, u64, Option<std::time::SystemTime>)>,
) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.is_dir() {
        if depth < 16 {
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                list_files(&entry.path(), depth + 1, files);
            }
        }
    } else {
        files.push((path.to_path_buf(), meta.len(), meta.modified().ok()));
    }
}

/// What a page carries beside the cart, read from the cart's folder at export: its
/// `cart.toml` (in the form [`carried_manifest`] writes) and the files of its asset folder,
/// packed into one blob ([`PackWriter`]).
#[derive(Debug)]
struct Bundle {
    manifest: Option<String>,
    /// The paths in the asset folder of the files packed, sorted.
    names: Vec<String>,
    /// The files, packed.
    pack: Vec<u8>,
    /// The files' total size in bytes.
    bytes: u64,
}

/// The most a page's asset folder may hold: 64 MiB, built into the module the browser
/// downloads before the first frame.
const MAX_PACKED_BYTES: u64 = 64 << 20;

/// The largest page module read back from cargo's build: 1 GiB. A module is a few megabytes;
/// the limit only keeps a file that is not one from filling memory.
const MAX_MODULE_BYTES: u64 = 1 << 30;

impl Bundle {
    /// Reads the manifest and packs every file of the asset folder, refusing before any build
    /// a folder of more than [`MAX_BUNDLE_FILES`] files or [`MAX_PACKED_BYTES`], a file that
    /// is not a regular file (a FIFO, a device, a socket), a link that leads out of the folder
    /// or to a folder, and a name that is not UTF-8.
    fn read(manifest: Option<&Manifest>, assets: Option<&Path>) -> Result<Bundle, String> {
        let manifest = manifest
            .map(carried_manifest)
            .transpose()
            .map_err(|e| e.to_string())?;
        let mut files = Vec::new();
        if let Some(folder) = assets {
            let real_root = folder
                .canonicalize()
                .unwrap_or_else(|_| folder.to_path_buf());
            add_folder(folder, &real_root, folder, &mut files)?;
            files.sort();
        }
        let mut bundle = Bundle {
            manifest,
            names: Vec::with_capacity(files.len()),
            pack: Vec::new(),
            bytes: 0,
        };
        let mut writer = PackWriter::new();
        for (name, path) in files {
            let too_large = |bytes: u64| {
                format!(
                    "the asset folder {} holds {} MiB; a page carries at most {} MiB",
                    assets.map(crate::quote::path).unwrap_or_default(),
                    bytes.div_ceil(1 << 20),
                    MAX_PACKED_BYTES >> 20
                )
            };
            let room = MAX_PACKED_BYTES - bundle.bytes;
            let bytes = match read_file(&path, room) {
                Ok(bytes) => bytes,
                Err(ReadError::TooLarge { size, .. }) => {
                    return Err(too_large(bundle.bytes + size.unwrap_or(room + 1)))
                }
                Err(why) => {
                    return Err(FileError {
                        what: "cart file",
                        path,
                        why,
                    }
                    .to_string())
                }
            };
            bundle.bytes += bytes.len() as u64;
            writer.add(&name, &bytes);
            bundle.names.push(name);
        }
        bundle.pack = writer.into_bytes();
        Ok(bundle)
    }

    /// Whether the asset folder holds a Tiled map or tileset: the page needs the map reader.
    fn has_maps(&self) -> bool {
        self.names.iter().any(|name| is_map_file(name))
    }

    /// Whether the asset folder holds a sample clip (`.wav`, `.ogg`).
    fn has_clips(&self) -> bool {
        self.names.iter().any(|name| is_clip_file(name))
    }

    /// What the page carries, for the line `bt web` prints: `, 5 asset files 36 KiB`.
    fn summary(&self) -> String {
        match self.names.len() {
            0 => String::new(),
            n => format!(
                ", {n} asset file{} {} KiB",
                if n == 1 { "" } else { "s" },
                self.bytes.div_ceil(1024)
            ),
        }
    }

    /// The page crate's `bundle.rs`: the carried manifest and the packed asset folder, each
    /// built in whole, so the source is the same few lines whatever the files are called and
    /// however many there are.
    fn source(&self) -> String {
        let manifest = match &self.manifest {
            Some(_) => "Some(include_str!(\"manifest.json\"))",
            None => "None",
        };
        format!(
            "//! Made by `bt web`: the cart's cart.toml and asset folder.\n\n\
             pub(crate) static MANIFEST: Option<&str> = {manifest};\n\
             pub(crate) static ASSETS: &[u8] = include_bytes!(\"{PACK_FILE}\");\n"
        )
    }
}

/// The page crate's file that holds the packed asset folder.
const PACK_FILE: &str = "assets.pack";

/// Adds to `files` the files under `dir`, named by their path from `root` with `/` between
/// folders; hidden files and folders (an editor's or version control's) stay out. Everything
/// that is not a folder is taken as a file, so reading it refuses what is not a regular file.
fn add_folder(
    root: &Path,
    real_root: &Path,
    dir: &Path,
    files: &mut Vec<(String, PathBuf)>,
) -> Result<(), String> {
    let fail =
        |e: std::io::Error| format!("reading the asset folder {}: {e}", crate::quote::path(dir));
    for entry in std::fs::read_dir(dir).map_err(fail)? {
        let entry = entry.map_err(fail)?;
        let path = entry.path();
        if entry.file_name().as_encoded_bytes().starts_with(b".") {
            continue;
        }
        // A link to a file inside the cart's folder is packed as that file; a link to a
        // folder, or to anything outside, is refused (see `bundle::collect`).
        let link = entry.file_type().map_err(fail)?.is_symlink();
        let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
        if link && is_dir {
            return Err(crate::cli::bundle::link_to_folder(&path));
        }
        if link {
            crate::cli::bundle::check_inside(real_root, &path)?;
        }
        if is_dir {
            add_folder(root, real_root, &path, files)?;
            continue;
        }
        // Any UTF-8 name is carried (the pack holds it as data); `\` ends a folder's name, as
        // the page's loader reads it.
        let Some(name) = path
            .strip_prefix(root)
            .ok()
            .and_then(|p| p.to_str())
            .map(|p| p.replace('\\', "/"))
        else {
            return Err(format!(
                "cart file {}: a page's asset names must be UTF-8; rename it",
                crate::quote::path(&path)
            ));
        };
        if files.len() as u64 >= MAX_BUNDLE_FILES {
            return Err(format!(
                "the asset folder {} holds more than {MAX_BUNDLE_FILES} files, the most a page \
                 (or a game bt export writes) carries",
                crate::quote::path(root)
            ));
        }
        files.push((name, path));
    }
    Ok(())
}

/// The crate a cart is built from: its folder, package name, and how to make the cart.
#[derive(Debug)]
struct CartCrate {
    dir: PathBuf,
    package: String,
    /// The text of its `Cargo.toml`.
    manifest: String,
    /// The BT tree the cart builds against: the folder holding the `cart-api` its `bt`
    /// dependency names (`.bt/` in a cart `bt new` made), else BT's own. The page takes BT's
    /// crates from the same place, so each is one package to Cargo.
    bt_tree: PathBuf,
    /// The expression that names a `fn() -> Box<dyn bt::Cart>`, and whether it needs the
    /// crate's `main.rs` (a cart crate of one's own: its `main` hands the constructor over).
    make: Make,
}

#[derive(Debug)]
enum Make {
    /// A bundled cart: `<crate>::cart`.
    CartFn,
    /// A cart crate's own `main.rs` (its text), which calls
    /// `bt_runtime::main(dir, constructor)`.
    Main(String),
}

fn cart_crate(offer: &Offer, name: &str) -> Result<CartCrate, String> {
    let (dir, make) = match offer {
        // The bundled carts are the packages under BT's `carts/`, each with `pub fn cart()`.
        Offer::Gallery(_) => (bt_root().join("carts").join(name), Make::CartFn),
        Offer::Single { dir, .. } => {
            let main = dir.join("src/main.rs");
            let text = read_text(&main, MAX_TEXT_FILE).map_err(|e| {
                format!(
                    "{}: {e}; bt web takes the cart from the crate's main.rs, which calls \
                     bt_runtime::main",
                    crate::quote::path(&main)
                )
            })?;
            (dir.clone(), Make::Main(text))
        }
    };
    let manifest = dir.join("Cargo.toml");
    let text = read_text(&manifest, MAX_TEXT_FILE).map_err(|e| {
        format!(
            "bt web builds the cart '{name}' from its crate, {}: {e}",
            crate::quote::path(&manifest)
        )
    })?;
    let package = package_name(&text).ok_or_else(|| {
        format!(
            "{}: no [package] name, so bt web cannot depend on it",
            crate::quote::path(&manifest)
        )
    })?;
    // Through the cart's links to the real tree: every page names BT's crates by one path.
    let bt_tree = bt_dependency(&text)
        .and_then(|api| dir.join(api).canonicalize().ok())
        .and_then(|api| api.parent().map(Path::to_path_buf))
        .unwrap_or_else(bt_root);
    Ok(CartCrate {
        dir,
        package,
        manifest: text,
        bt_tree,
        make,
    })
}

/// Whether `name` is a Tiled map or tileset file by its extension.
fn is_map_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| {
            ["tmx", "tmj", "tsx", "tsj"]
                .iter()
                .any(|m| e.eq_ignore_ascii_case(m))
        })
}

/// Whether `name` is a sample clip's file.
fn is_clip_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("wav") || e.eq_ignore_ascii_case("ogg"))
}

/// Whether the cart's code reads Tiled maps: a `load_map` or `decode_map` call anywhere in
/// its `src/`. The Tiled reader is about a quarter of a page's module, so a page leaves it out
/// when neither its code nor its asset folder asks for it; a cart whose code builds the name
/// of the call some other way gets the reader's refusal in the page, which says why.
fn reads_maps(cart_dir: &Path) -> bool {
    code_calls(cart_dir, &["load_map", "decode_map"])
}

/// Whether the cart's code plays sample clips: a `load_clip` or `decode_clip` call anywhere in
/// its `src/`. The clip decoders are about an eighth of a module (151 KB of the jukebox's 1.2 MB);
/// they are left out as the Tiled reader is, and a page without them refuses a clip saying why.
fn plays_clips(cart_dir: &Path) -> bool {
    code_calls(cart_dir, &["load_clip", "decode_clip"])
}

/// Whether any `.rs` file under the cart's `src/` names one of `calls`.
fn code_calls(cart_dir: &Path, calls: &[&str]) -> bool {
    fn any_in(dir: &Path, depth: u32, calls: &[&str]) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|entry| {
            let path = entry.path();
            if path.is_dir() {
                depth < 16 && any_in(&path, depth + 1, calls)
            } else {
                path.extension().is_some_and(|e| e == "rs")
                    && read_text(&path, MAX_TEXT_FILE)
                        .is_ok_and(|t| calls.iter().any(|c| t.contains(c)))
            }
        })
    }
    any_in(&cart_dir.join("src"), 0, calls)
}

/// The path a `Cargo.toml`'s `bt` dependency names (`bt = { path = "..." }`), as written.
fn bt_dependency(text: &str) -> Option<PathBuf> {
    let table: toml::Table = toml::from_str(text).ok()?;
    table
        .get("dependencies")?
        .get("bt")?
        .get("path")?
        .as_str()
        .map(PathBuf::from)
}

/// The `[package]` name in a `Cargo.toml`'s text.
fn package_name(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    table
        .get("package")?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// One folder for every page's build: `BT_WEB_TARGET_DIR`, else `target/web` in BT's tree.
fn web_target_dir() -> PathBuf {
    std::env::var_os("BT_WEB_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| bt_root().join("target").join("web"))
}

/// BT's tree with every link followed: a cart `bt new` made reaches it through its `.bt/`
/// folder, and the page's build names it by its real path, as for every other cart.
fn bt_root() -> PathBuf {
    Path::new(BT_ROOT)
        .canonicalize()
        .unwrap_or_else(|_| PathBuf::from(BT_ROOT))
}

/// A compiler and cargo that build for [`TARGET`], with what they need.
#[derive(Debug)]
struct Toolchain {
    cargo: PathBuf,
    rustc: PathBuf,
    /// Build the standard library from source (`-Zbuild-std`): Debian's `rustc-web` has no
    /// prebuilt one for the web.
    build_std: bool,
    rustflags: Vec<String>,
    /// Flags for one package only, as `(package, flag)`.
    package_flags: Vec<(&'static str, String)>,
}

impl Toolchain {
    /// rustup's target when it is installed, else Debian's web compiler with its source of the
    /// standard library and a `rust-lld` to link with.
    fn find() -> Option<Toolchain> {
        let rustc = std::env::var_os("RUSTC")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("rustc"));
        let cargo = std::env::var_os("CARGO")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("cargo"));
        let sysroot = output(&rustc, &["--print", "sysroot"]).map(PathBuf::from);
        if let Some(sysroot) = &sysroot {
            if sysroot
                .join("lib/rustlib")
                .join(TARGET)
                .join("lib")
                .is_dir()
            {
                return Some(Toolchain {
                    cargo,
                    rustc,
                    build_std: false,
                    rustflags: CODEGEN_FLAGS.map(String::from).to_vec(),
                    package_flags: Vec::new(),
                });
            }
        }
        let debian = Path::new("/usr/bin/rustc");
        if !debian.is_file() || !Path::new(DEBIAN_STD_SOURCE).is_dir() {
            return None;
        }
        let lld = linker(sysroot.as_deref())?;
        let mut rustflags = vec![format!("-Clinker={}", lld.display())];
        rustflags.extend(CODEGEN_FLAGS.map(String::from));
        // Library features BT uses that were stabilised after that compiler; with the
        // standard library built from source they are there, behind a feature gate.
        let minor = output(debian, &["--version"]).and_then(|v| minor_version(&v));
        let mut package_flags = Vec::new();
        for (feature, stable_in, package) in LATE_FEATURES {
            if minor.is_some_and(|m| m < stable_in) {
                let flag = format!("-Zcrate-attr=feature({feature})");
                match package {
                    None => rustflags.push(flag),
                    Some(package) => package_flags.push((package, flag)),
                }
            }
        }
        Some(Toolchain {
            cargo: PathBuf::from("/usr/bin/cargo"),
            rustc: debian.to_path_buf(),
            build_std: true,
            rustflags,
            package_flags,
        })
    }
}

/// `rust-lld`: in the host toolchain's sysroot (rustup ships one), else on the `PATH`.
fn linker(sysroot: Option<&Path>) -> Option<PathBuf> {
    let host = output(Path::new("rustc"), &["--print", "host-tuple"])
        .or_else(|| output(Path::new("rustc"), &["-vV"]).and_then(|v| host_of(&v)))
        .unwrap_or_else(|| "x86_64-unknown-linux-gnu".to_string());
    if let Some(sysroot) = sysroot {
        let lld = sysroot.join("lib/rustlib").join(host).join("bin/rust-lld");
        if lld.is_file() {
            return Some(lld);
        }
    }
    output(Path::new("rust-lld"), &["-flavor", "wasm", "--version"]).map(|_| "rust-lld".into())
}

fn host_of(verbose_version: &str) -> Option<String> {
    verbose_version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
}

/// The minor version in `rustc 1.85.0 (...)`.
fn minor_version(version: &str) -> Option<u32> {
    version
        .split_whitespace()
        .nth(1)?
        .split('.')
        .nth(1)?
        .parse()
        .ok()
}

/// What `program args` prints, trimmed, when it succeeds.
fn output(program: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// How a page's module is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageProfile {
    /// While making the game (`bt web`): the libraries (the standard library, BT's crates)
    /// optimised as for publishing and compiled once for every cart, the cart compiled on its
    /// own, incrementally, and the module linked without link-time optimisation, so a change
    /// costs seconds of CPU, not the whole module optimised again.
    Dev,
    /// To publish (`bt web --release`): the module optimised whole (fat LTO, one codegen unit).
    Release,
}

impl PageProfile {
    /// Cargo's name of the profile, which is also its folder in the target folder.
    fn name(self) -> &'static str {
        match self {
            PageProfile::Dev => "page-dev",
            PageProfile::Release => "release",
        }
    }

    /// What `bt web` says of the build after the files it wrote.
    fn note(self) -> &'static str {
        match self {
            PageProfile::Dev => "; a development build: --release for the page to publish",
            PageProfile::Release => "",
        }
    }
}

/// Writes the page's crate for `cart` under `target_dir`, builds it, and returns the module.
fn build(
    cart: &CartCrate,
    name: &str,
    bundle: &Bundle,
    toolchain: &Toolchain,
    target_dir: &Path,
    profile: PageProfile,
) -> Result<Vec<u8>, String> {
    let root = Path::new(BT_ROOT)
        .canonicalize()
        .map_err(|e| format!("BT's source tree {BT_ROOT}: {e}"))?;
    let krate = format!("bt-page-{}", rust_name(name).replace('_', "-"));
    let dir = target_dir.join("pages").join(&krate);
    let fail =
        |what: &Path, e: std::io::Error| format!("writing {}: {e}", crate::quote::path(what));
    std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
    let features = PageFeatures {
        tiled: bundle.has_maps() || reads_maps(&cart.dir),
        clips: bundle.has_clips() || plays_clips(&cart.dir),
    };
    // A cart crate outside BT's tree is built through a view naming BT's crates by their real
    // paths, so its page reuses the libraries every other page compiled.
    let cart_path = match &cart.make {
        Make::CartFn => cart.dir.clone(),
        Make::Main(_) => view::write(
            &cart.dir,
            &cart.package,
            &cart.manifest,
            &target_dir.join("carts"),
        )?,
    };
    let mut files = page_crate(
        cart,
        &cart_path,
        name,
        &krate,
        features,
        &toolchain.package_flags,
    );
    files.push(("bundle.rs", bundle.source()));
    if let Some(manifest) = &bundle.manifest {
        files.push(("manifest.json", manifest.clone()));
    }
    let mut files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(file, text)| (*file, text.as_bytes()))
        .collect();
    files.push((PACK_FILE, &bundle.pack));
    for (file, bytes) in files {
        let path = dir.join(file);
        // Unchanged files keep their times, so cargo sees nothing to rebuild.
        if read_file(&path, bytes.len() as u64).ok().as_deref() != Some(bytes) {
            std::fs::write(&path, bytes).map_err(|e| fail(&path, e))?;
        }
    }
    // The versions BT's own build uses, so the page builds with what is known to work.
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        if let Err(e) = std::fs::copy(root.join("Cargo.lock"), &lock) {
            return Err(fail(&lock, e));
        }
    }
    let mut command = Command::new(&toolchain.cargo);
    command
        .current_dir(&dir)
        .args(["build", "--profile", profile.name(), "--target", TARGET])
        .env("CARGO_TARGET_DIR", target_dir)
        .env("RUSTC", &toolchain.rustc)
        .env("RUSTFLAGS", toolchain.rustflags.join(" "))
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    if toolchain.build_std {
        command
            .args(["-Zbuild-std=std,panic_abort", "--ignore-rust-version"])
            .env("RUSTC_BOOTSTRAP", "1");
    }
    let status = run_stoppably(&mut command)
        .map_err(|e| format!("running {}: {e}", crate::quote::path(&toolchain.cargo)))?
        .ok_or_else(|| format!("interrupted while building the page of '{name}'"))?;
    if !status.success() {
        return Err(format!(
            "building the page of '{name}' for {TARGET} failed ({status}); the crate is in {}",
            crate::quote::path(&dir)
        ));
    }
    let module = target_dir
        .join(TARGET)
        .join(profile.name())
        .join(format!("{}.wasm", rust_name(&krate)));
    read_file(&module, MAX_MODULE_BYTES)
        .map_err(|e| format!("reading {}: {e}", crate::quote::path(&module)))
}

/// How often a build is looked at for a signal asking `bt web` to stop.
const LOOK_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `command` (cargo) to its end, or until SIGINT or SIGTERM asks `bt web` to stop: then
/// it is stopped with everything it started (each compiler) and `None` returned, so the output
/// folder's staging is removed on the way out rather than left for a build that runs on.
fn run_stoppably(command: &mut Command) -> std::io::Result<Option<std::process::ExitStatus>> {
    // A group of its own, which the stop reaches whole: cargo's compilers with it.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut child = command.spawn()?;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if stop_requested() {
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-TERM", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(LOOK_EVERY);
    }
}

/// Whether SIGINT or SIGTERM asked `bt web` to stop (caught from the start of the command).
#[cfg(feature = "window")]
fn stop_requested() -> bool {
    crate::host::signals::requested()
}

/// Whether a signal asked `bt web` to stop: never caught without the signal handler.
#[cfg(not(feature = "window"))]
fn stop_requested() -> bool {
    false
}

/// A package name as Rust spells the crate.
fn rust_name(package: &str) -> String {
    package.replace('-', "_")
}

/// The parts of the runtime a page takes only when its cart uses them.
#[derive(Debug, Clone, Copy, Default)]
struct PageFeatures {
    /// The Tiled map reader.
    tiled: bool,
    /// The sample clip decoders.
    clips: bool,
}

impl PageFeatures {
    /// `bt-web`'s features as a manifest writes them after the path: `, features = [...]`.
    fn manifest(self) -> String {
        let on: Vec<&str> = [(self.tiled, "\"tiled\""), (self.clips, "\"clips\"")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
        if on.is_empty() {
            String::new()
        } else {
            format!(", features = [{}]", on.join(", "))
        }
    }
}

/// The files of the page's crate: its manifest and its one source file. The page depends on
/// the cart's crate in the folder `cart_path` (the cart's own, or its view).
fn page_crate(
    cart: &CartCrate,
    cart_path: &Path,
    name: &str,
    krate: &str,
    features: PageFeatures,
    package_flags: &[(&str, String)],
) -> Vec<(&'static str, String)> {
    let path = |p: &Path| toml_string(&p.display().to_string());
    let root = &cart.bt_tree;
    let web = root.join("runtime/web");
    let mut manifest = format!(
        "# Made by `bt web`: the page of the cart '{name}'. Rewritten on every export.\n\
         [package]\nname = \"{krate}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\npath = \"lib.rs\"\n\n\
         [dependencies]\nbt = {{ path = {} }}\nbt-web = {{ path = {}{} }}\n{} = {{ path = {} }}\n",
        path(&root.join("cart-api")),
        path(&web),
        features.manifest(),
        cart.package,
        path(cart_path),
    );
    let cart_crate = rust_name(&cart.package);
    let mut files = Vec::new();
    let source = match &cart.make {
        Make::CartFn => format!(
            "//! Made by `bt web`.\nmod bundle;\n\nbt_web::page!({}, {cart_crate}::cart, {BUNDLE});\n",
            toml_string(name)
        ),
        Make::Main(main) => {
            files.push((
                "cart_main.rs",
                main.replacen("fn main(", "pub(crate) fn main(", 1),
            ));
            // The crate's main.rs, with `bt_runtime` standing for a crate whose `main` keeps
            // the constructor instead of running a command line.
            manifest.push_str(&format!(
                "bt_runtime = {{ package = \"bt-web-main\", path = {} }}\n",
                path(&web.join("main"))
            ));
            format!(
                "//! Made by `bt web`.\n\
                 mod bundle;\n\
                 mod cart_main;\n\n\
                 fn make() -> Box<dyn bt::Cart> {{\n    bt_runtime::build(cart_main::main)\n}}\n\n\
                 bt_web::page!({}, make, {BUNDLE});\n",
                toml_string(name)
            )
        }
    };
    // BT's own copy of the Vorbis decoder (its maths through libm), as BT's workspace patches
    // it in: the page decodes a clip to the samples `bt run` hears.
    // And BT's stand-in for js-sys, whose one call GGRS makes on the web (a date for its
    // ping figures) the page's script answers: the real one's wasm-bindgen would leave over
    // half a MiB of descriptions and metadata in the module (runtime/web/js-sys).
    manifest.push_str(&format!(
        "\n[patch.crates-io]\nlewton = {{ path = {} }}\njs-sys = {{ path = {} }}\n",
        path(&root.join("vendor/lewton")),
        path(&root.join("runtime/web/js-sys"))
    ));
    manifest.push_str(&format!(
        "\n# To publish, small and fast: one unit, linked whole; a panic stops the module (no\n\
         # unwinding).\n\
         [profile.release]\nopt-level = 3\nlto = true\ncodegen-units = 1\npanic = \"abort\"\n\n\
         # While making the game: the libraries as optimised as for publishing, compiled once\n\
         # for every cart; the cart alone compiled again, incrementally, and no link-time\n\
         # optimisation.\n\
         [profile.page-dev]\ninherits = \"release\"\nlto = false\ncodegen-units = 16\n\
         incremental = false\n\n\
         [profile.page-dev.package.{}]\nincremental = true\n",
        toml_string(&cart.package)
    ));
    if !package_flags.is_empty() {
        // Cargo's per-package flags (unstable, open on this toolchain as build-std is).
        manifest.insert_str(0, "cargo-features = [\"profile-rustflags\"]\n\n");
        for profile in ["release", "page-dev"] {
            for (package, flag) in package_flags {
                manifest.push_str(&format!(
                    "\n[profile.{profile}.package.{package}]\nrustflags = [{}]\n",
                    toml_string(flag)
                ));
            }
        }
    }
    files.push(("Cargo.toml", manifest));
    files.push(("lib.rs", source));
    files
}

/// The page crate's third argument to `bt_web::page!`, from its `bundle.rs`.
const BUNDLE: &str = "bt_web::Bundle { manifest: bundle::MANIFEST, assets: bundle::ASSETS }";

/// `text` as a quoted TOML (and Rust) string.
fn toml_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The script of a page exported with `--watch`: it reads [`BUILD_ID_FILE`] twice a second
/// and reloads the page when the number in it changes.
const WATCH_SCRIPT: &str = "<script>(() => { let seen; setInterval(async () => { try { \
    const id = await (await fetch(\"bt-build-id\", { cache: \"no-store\" })).text(); \
    if (seen === undefined) seen = id; else if (id !== seen) location.reload(); \
    } catch (e) {} }, 500); })();</script>\n";

/// The page: the template with the cart's title, name, module and arguments, and with
/// `watch`, the script that reloads it after each build.
fn index_html(
    title: &str,
    name: &str,
    wasm: &str,
    args: &[(String, String)],
    watch: bool,
) -> String {
    // JSON inside a script element: `<` escaped so no text can close the element.
    let json = |v: &serde_json::Value| v.to_string().replace('<', "\\u003c");
    let args = serde_json::Value::from(
        args.iter()
            .map(|(k, v)| serde_json::json!([k, v]))
            .collect::<Vec<_>>(),
    );
    fill(
        INDEX_HTML,
        &[
            ("{{title}}", html_escape(title)),
            ("\"{{name}}\"", json(&name.into())),
            ("\"{{wasm}}\"", json(&wasm.into())),
            ("{{args}}", json(&args)),
            (
                "{{watch}}\n",
                if watch { WATCH_SCRIPT } else { "" }.to_string(),
            ),
        ],
    )
}

/// `template` with each of its placeholders replaced by its value, in one pass: a value is
/// never looked at again, so a title or an argument that holds `{{args}}` stays as written.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while !rest.is_empty() {
        match values
            .iter()
            .find(|(placeholder, _)| rest.starts_with(placeholder))
        {
            Some((placeholder, value)) => {
                out.push_str(value);
                rest = &rest[placeholder.len()..];
            }
            None => {
                let next = rest.chars().next().map_or(1, char::len_utf8);
                out.push_str(&rest[..next]);
                rest = &rest[next..];
            }
        }
    }
    out
}

/// `text` as HTML shows it, in an element or an attribute.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::asset_pack::AssetPack;

    #[test]
    fn the_page_names_its_module_and_boots_with_the_arguments_given() {
        let page = index_html(
            "Bunnymark",
            "bunnymark",
            "bunnymark.wasm",
            &[("sprites".into(), "5000".into())],
            false,
        );
        assert!(page.contains("<title>Bunnymark</title>"), "{page}");
        assert!(
            page.contains(r#"name: "bunnymark", wasm: "bunnymark.wasm""#),
            "{page}"
        );
        assert!(page.contains(r#"args: [["sprites","5000"]]"#), "{page}");
    }

    #[test]
    fn only_a_page_exported_to_watch_polls_for_its_next_build() {
        let page = index_html("T", "x", "x.wasm", &[], false);
        assert!(
            !page.contains(BUILD_ID_FILE) && !page.contains("fetch("),
            "{page}"
        );
        assert!(!page.contains("{{watch}}"), "{page}");
        let watched = index_html("T", "x", "x.wasm", &[], true);
        assert!(watched.contains("fetch(\"bt-build-id\""), "{watched}");
        assert!(watched.contains("location.reload()"), "{watched}");
    }

    #[test]
    fn no_argument_can_close_the_pages_script() {
        let page = index_html(
            "<X>",
            "x",
            "x.wasm",
            &[("a".into(), "</script><b>".into())],
            false,
        );
        assert!(page.contains("<title>&lt;X&gt;</title>"), "{page}");
        assert!(!page.contains("</script><b>"), "{page}");
        assert!(page.contains(r#"\u003c/script>\u003cb>"#), "{page}");
    }

    #[test]
    fn package_names_are_read_from_the_manifest() {
        let text = "[package]\nname = \"bt-cart-snake\"\nversion = \"0.1.0\"\n";
        assert_eq!(package_name(text).as_deref(), Some("bt-cart-snake"));
        assert_eq!(package_name("[dependencies]\n"), None);
        assert_eq!(package_name("not toml ["), None);
    }

    #[test]
    fn compiler_versions_are_read_for_the_feature_gates() {
        assert_eq!(
            minor_version("rustc 1.85.0 (4d91de4e4 2025-02-17)"),
            Some(85)
        );
        assert_eq!(
            minor_version("rustc 1.97.0-nightly (e50aa6fba 2026-05-19)"),
            Some(97)
        );
        assert_eq!(minor_version("garbage"), None);
    }

    #[test]
    fn the_page_takes_bts_crates_from_where_the_cart_does() {
        let starter = "[package]\nname = \"x\"\nworkspace = \".bt\"\n\n[dependencies]\n\
                       bt = { path = \".bt/cart-api\" }\n";
        assert_eq!(bt_dependency(starter), Some(PathBuf::from(".bt/cart-api")));
        // A bundled cart inherits it from BT's workspace: BT's own tree.
        let bundled = "[package]\nname = \"y\"\n[dependencies]\nbt.workspace = true\n";
        assert_eq!(bt_dependency(bundled), None);
    }

    #[test]
    fn a_title_or_argument_holding_a_placeholder_shows_as_written() {
        let page = index_html(
            "{{args}} & {{name}} \"{{wasm}}\"",
            "x",
            "x.wasm",
            &[("a".into(), "{{title}}".into())],
            false,
        );
        assert!(
            page.contains("<title>{{args}} &amp; {{name}} &quot;{{wasm}}&quot;</title>"),
            "{page}"
        );
        assert!(
            page.contains(
                r#"name: "x", wasm: "x.wasm", worklet: "bt-audio.js", args: [["a","{{title}}"]] "#
            ),
            "{page}"
        );
        assert_eq!(page.matches("[[\"a\"").count(), 1, "{page}");
    }

    #[test]
    fn the_bundle_builds_in_every_asset_file_under_its_path_in_the_folder() {
        let dir = std::env::temp_dir().join(format!("bt-web-bundle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("maps")).unwrap();
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        std::fs::write(dir.join("sprites.png"), b"png").unwrap();
        std::fs::write(dir.join("maps/level.tmx"), b"tmx").unwrap();
        std::fs::write(dir.join(".git/HEAD"), b"ref").unwrap();
        std::fs::write(dir.join(".notes.swp"), b"x").unwrap();
        let bundle = Bundle::read(None, Some(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(bundle.names, ["maps/level.tmx", "sprites.png"]);
        assert_eq!(bundle.summary(), ", 2 asset files 1 KiB");
        let source = bundle.source();
        assert!(
            source.contains("pub(crate) static MANIFEST: Option<&str> = None;"),
            "{source}"
        );
        let pack = AssetPack::from_packed(bundle.pack.leak()).unwrap();
        assert_eq!(
            pack.paths().collect::<Vec<_>>(),
            ["maps/level.tmx", "sprites.png"]
        );
        assert_eq!(pack.get("maps/level.tmx"), Some(&b"tmx"[..]));
    }

    /// A fresh scratch folder for one test.
    fn scratch(what: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bt-web-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_pages_source_stays_a_few_lines_whatever_the_asset_folder_holds() {
        let dir = scratch("source");
        let few = Bundle::read(None, Some(&dir)).unwrap().source();
        // Names Rust source could not hold, and many files.
        let names = ["a\rb.png", "quote\".txt", "back\\slash", "new\nline.txt"];
        for name in names {
            std::fs::write(dir.join(name), name).unwrap();
        }
        for k in 0..500 {
            std::fs::write(dir.join(format!("{k}.txt")), [k as u8]).unwrap();
        }
        let bundle = Bundle::read(None, Some(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            bundle.source(),
            few,
            "no file's name or number reaches the source"
        );
        let pack = AssetPack::from_packed(bundle.pack.leak()).unwrap();
        assert_eq!(pack.len(), 504);
        assert_eq!(pack.get("a\rb.png"), Some(&b"a\rb.png"[..]));
        assert_eq!(pack.get("quote\".txt"), Some(&b"quote\".txt"[..]));
        assert_eq!(pack.get("back/slash"), Some(&b"back\\slash"[..]));
        assert_eq!(pack.get("499.txt"), Some(&[499u32 as u8][..]));
    }

    #[test]
    fn an_asset_folder_of_more_files_than_a_game_carries_is_refused_before_any_build() {
        let dir = scratch("many");
        for k in 0..MAX_BUNDLE_FILES {
            std::fs::write(dir.join(format!("{k}")), [1]).unwrap();
        }
        assert_eq!(
            Bundle::read(None, Some(&dir)).unwrap().names.len() as u64,
            MAX_BUNDLE_FILES
        );
        std::fs::write(dir.join("one-more"), [1]).unwrap();
        let err = Bundle::read(None, Some(&dir)).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            err,
            format!(
                "the asset folder {} holds more than 10000 files, the most a page (or a game \
                 bt export writes) carries",
                dir.display()
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_device_or_socket_in_the_asset_folder_is_refused_naming_it() {
        let dir = scratch("fifo");
        std::fs::write(dir.join("sheet.png"), b"png").unwrap();
        let fifo = dir.join("pipe\r.png");
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let err = Bundle::read(None, Some(&dir)).unwrap_err();
        assert_eq!(
            err,
            format!(
                "cart file {}/pipe\\r.png: could not read it: a FIFO, not a regular file",
                dir.display()
            )
        );
        std::fs::remove_file(&fifo).unwrap();
        let socket = dir.join("socket");
        let _listening = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let err = Bundle::read(None, Some(&dir)).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            err,
            format!(
                "cart file {}: could not read it: a socket, not a regular file",
                socket.display()
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_asset_name_that_is_not_utf8_is_refused_quoted_on_one_line() {
        use std::os::unix::ffi::OsStrExt;
        let dir = scratch("utf8");
        let name = std::ffi::OsStr::from_bytes(b"bad\xff\n.png");
        std::fs::write(dir.join(name), b"x").unwrap();
        let err = Bundle::read(None, Some(&dir)).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            err,
            format!(
                "cart file {}/bad\u{fffd}\\n.png: a page's asset names must be UTF-8; rename it",
                dir.display()
            )
        );
    }

    #[test]
    fn the_map_reader_goes_only_into_pages_of_carts_that_read_maps() {
        assert!(is_map_file("levels/one.TMX") && is_map_file("a.tmj") && is_map_file("t.tsx"));
        assert!(!is_map_file("sprites.png") && !is_map_file("tmx"));
        let dir = std::env::temp_dir().join(format!("bt-web-maps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/levels")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "fn x() {}").unwrap();
        assert!(!reads_maps(&dir));
        assert!(!plays_clips(&dir));
        std::fs::write(dir.join("src/levels/mod.rs"), "ctx.load_map(\"a.tmx\")?;").unwrap();
        assert!(reads_maps(&dir));
        assert!(
            !plays_clips(&dir),
            "the clip decoders likewise, only when asked for"
        );
        std::fs::write(dir.join("src/sound.rs"), "ctx.decode_clip(\"a\", A)?;").unwrap();
        assert!(plays_clips(&dir));
        assert!(is_clip_file("boom.WAV") && is_clip_file("sfx/theme.ogg"));
        assert!(!is_clip_file("notes.txt") && !is_clip_file("wav"));
        std::fs::remove_dir_all(&dir).unwrap();
        let cart = CartCrate {
            dir: PathBuf::from("/c"),
            package: "c".into(),
            manifest: String::new(),
            bt_tree: PathBuf::from("/bt"),
            make: Make::CartFn,
        };
        let manifest = |tiled, clips| {
            let features = PageFeatures { tiled, clips };
            page_crate(&cart, &cart.dir, "c", "bt-page-c", features, &[])[0]
                .1
                .clone()
        };
        assert!(manifest(true, false)
            .contains("bt-web = { path = \"/bt/runtime/web\", features = [\"tiled\"] }"));
        assert!(manifest(false, false).contains("bt-web = { path = \"/bt/runtime/web\" }"));
        assert!(manifest(true, true).contains(
            "bt-web = { path = \"/bt/runtime/web\", features = [\"tiled\", \"clips\"] }"
        ));
        assert!(
            manifest(false, false)
                .contains("[patch.crates-io]\nlewton = { path = \"/bt/vendor/lewton\" }"),
            "the page decodes Vorbis with BT's copy"
        );
        assert!(
            manifest(false, false).contains("js-sys = { path = \"/bt/runtime/web/js-sys\" }"),
            "GGRS's date comes from the page's script, without wasm-bindgen"
        );
    }

    #[test]
    fn paths_with_quotes_stay_one_string() {
        assert_eq!(toml_string(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
