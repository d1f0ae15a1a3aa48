//! `bt new` as a newcomer meets it: a cart crate made outside BT's tree builds, takes a
//! screenshot of its starter game and passes its own tests, with no BT file touched; and as a
//! friend meets it: a clone of the cart's git repository builds after `bt attach`.

use std::path::{Path, PathBuf};
use std::process::Command;

use bt_test_support::ScratchDir;

/// The profile folder this test was built in, and the carts' builds with it.
const PROFILE: &str = if cfg!(debug_assertions) {
    "debug"
} else {
    "release"
};

/// `bt ARGS` (this test's gallery binary), with the user's cache folder in this test build's
/// own scratch folder: the shared build folder of every cart the tests make is there, seeded
/// once from the build folder this binary was built in, and never in the user's home.
fn bt(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(args)
        .current_dir(dir)
        .env(
            "XDG_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("bt-cache"),
        )
        .output()
        .unwrap()
}

/// `bt new NAME --path PARENT`, which must succeed; the cart's folder.
fn new_cart(name: &str, parent: &Path) -> PathBuf {
    let out = bt(&["new", name, "--path", parent.to_str().unwrap()], parent);
    ok("bt new", &out);
    parent.join(name)
}

/// Runs cargo in `dir` in the profile this test was built in, so the cart reuses the
/// libraries already compiled for BT, with the cart's own folders (not this test's
/// `CARGO_TARGET_DIR`, which would override them).
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(dir).arg(args[0]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    cmd.args(&args[1..]);
    // A fresh cart records its golden picture on its first test run; under CI a missing one
    // fails, which is for the cart's own CI, not this first run.
    cmd.env_remove("CI")
        .env_remove("BT_UPDATE_GOLDEN")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("CARGO_BUILD_BUILD_DIR");
    cmd.output().unwrap()
}

fn ok(what: &str, out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_new_cart_builds_shoots_and_passes_its_tests() {
    let parent = ScratchDir::new("new-e2e");
    let out = bt(
        &["new", "my-game", "--path", parent.path().to_str().unwrap()],
        parent.path(),
    );
    ok("bt new", &out);
    let dir = parent.join("my-game");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("cargo run --release -- run"), "{said}");
    // What bt new writes is already formatted: the cart's own `cargo fmt --check` passes.
    let fmt = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&dir)
        .args(["fmt", "--check"])
        .output()
        .unwrap();
    ok("cargo fmt --check in the new cart", &fmt);

    run_cart(&dir, &["shot", "--at", "2", "-o", "a.png"]);
    let picture = image::open(dir.join("a.png")).unwrap().to_rgba8();
    assert_eq!(
        (picture.width(), picture.height()),
        (240, 160),
        "cart.toml's display"
    );
    // The starter draws its title bar in black over a dark blue field.
    assert_eq!(picture.get_pixel(100, 5).0, [0, 0, 0, 255]);
    assert_eq!(picture.get_pixel(100, 80).0, [0x1d, 0x2b, 0x53, 255]);

    // The same picture from the same command: headless shots are reproducible.
    run_cart(&dir, &["shot", "--at", "2", "-o", "b.png"]);
    assert_eq!(
        std::fs::read(dir.join("a.png")).unwrap(),
        std::fs::read(dir.join("b.png")).unwrap()
    );

    let tested = cargo(&dir, &["test", "--quiet"]);
    ok("cargo test in the cart", &tested);
    // A newcomer's first build says nothing to fix: no deprecated name, no unused code.
    let said = String::from_utf8_lossy(&tested.stderr);
    assert!(
        !said.contains("warning"),
        "the starter builds with warnings:\n{said}"
    );
    assert!(
        dir.join("tests/golden/one-second.png").is_file(),
        "the first run records"
    );
    // Run again: now the golden picture is compared, and passes.
    ok("cargo test, second run", &cargo(&dir, &["test", "--quiet"]));

    // The cart's binary answers to its own name (in any case) and refuses another.
    let listed = run_cart(&dir, &["list"]);
    assert!(listed.starts_with("my-game"), "{listed}");
    run_cart(&dir, &["shot", "My-Game", "--at", "0", "-o", "c.png"]);
    let other = cargo(
        &dir,
        &[
            "run", "--quiet", "--", "shot", "snake", "--at", "0", "-o", "d.png",
        ],
    );
    assert!(!other.status.success());
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("runs the cart 'my-game', not 'snake'"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );

    // Any display size the manifest accepts, and any palette: a 1 x 1 display on the default
    // palette runs and shoots.
    let manifest = std::fs::read_to_string(dir.join("cart.toml")).unwrap();
    let tiny = manifest
        .replace("width = 240", "width = 1")
        .replace("height = 160", "height = 1")
        .replace("palette = \"pico8\"\n", "");
    std::fs::write(dir.join("cart.toml"), tiny).unwrap();
    run_cart(&dir, &["shot", "--at", "2", "-o", "tiny.png"]);
    let picture = image::open(dir.join("tiny.png")).unwrap();
    assert_eq!((picture.width(), picture.height()), (1, 1));
    std::fs::write(dir.join("cart.toml"), manifest).unwrap();

    // A game to send: one file, which still plays once the cart's folder is gone.
    let game = parent.join("my-game-to-send");
    let said = run_cart(&dir, &["export", "-o", game.to_str().unwrap()]);
    assert!(said.contains("run it with no arguments to play"), "{said}");
    let moved = parent.join("moved-away");
    std::fs::rename(&dir, &moved).unwrap();
    let cache = parent.join("cache");
    let out = Command::new(&game)
        .args(["shot", "--at", "2", "-o"])
        .arg(parent.join("e.png"))
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    ok("the exported game", &out);
    assert_eq!(
        image::open(parent.join("e.png")).unwrap().to_rgba8(),
        image::open(moved.join("a.png")).unwrap().to_rgba8(),
        "the exported game draws what the cart drew, with its sprite sheet"
    );
    // The plain binary (in the cart's own target folder), its folder gone, says what happened
    // and what to do.
    let plain = moved.join("target").join(PROFILE).join("my-game");
    let out = Command::new(&plain).arg("list").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("which is not there")
            && stderr.contains("`cargo run --release -- export -o game` in the cart's folder"),
        "{stderr}"
    );
}

/// A cart's build compiles only the cart: BT's libraries come from the shared build folder,
/// seeded from what BT compiled, whichever folder the cart is in (its `.bt` workspace gives
/// them the same identity as in BT's own build). Two carts of one name each compile their own
/// and keep their own program.
#[test]
fn a_new_cart_compiles_only_itself_when_bts_libraries_are_built() {
    let parents = [ScratchDir::new("new-reuse"), ScratchDir::new("new-reuse")];
    let name = "same-name";
    for parent in &parents {
        let dir = new_cart(name, parent.path());
        let built = cargo(&dir, &["build", "--offline", "--message-format=json"]);
        ok("cargo build in the cart", &built);
        let compiled = compiled_packages(&built.stdout);
        // Its library and its binary, nothing else: not even the first cart compiles any of
        // BT's crates or their dependencies, though what is built here is the test build's
        // (`cargo test` adds the dev-dependencies, whose features must not change BT's). The
        // second cart of the same name compiles too: it is another package, at another path.
        let own = format!("{}#", url_of(&dir));
        assert!(
            !compiled.is_empty() && compiled.iter().all(|id| id.starts_with(&own)),
            "only {own} should compile, not: {compiled:#?}"
        );
    }
    // Each program is in its own cart's target folder and is that cart's.
    for parent in &parents {
        let dir = parent.join(name);
        let program = dir.join("target").join(PROFILE).join(name);
        let out = Command::new(&program).arg("config").output().unwrap();
        ok("the cart's program", &out);
        let said = String::from_utf8_lossy(&out.stdout);
        let manifest = format!("manifest {}", dir.join("cart.toml").display());
        assert!(said.contains(&manifest), "{manifest} in:\n{said}");
    }
}

/// The `file://` address cargo's package ids give a folder.
fn url_of(dir: &Path) -> String {
    format!("path+file://{}", dir.canonicalize().unwrap().display())
}

/// `git ARGS` in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=BT", "-c", "user.email=bt@example.invalid"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("this test needs git: {e}"));
    ok(&format!("git {}", args.join(" ")), &out);
}

/// What a friend does with a cart's repository: clone it, run `bt attach` in it (nothing else,
/// no argument), and build. The clone has none of the files that name the maker's machine.
#[test]
fn a_clone_of_a_cart_builds_after_bt_attach() {
    let maker = ScratchDir::new("new-clone-maker");
    let dir = new_cart("shared-game", maker.path());
    git(&dir, &["init", "--quiet"]);
    git(&dir, &["add", "--all"]);
    git(&dir, &["commit", "--quiet", "-m", "a game"]);
    let friend = ScratchDir::new("new-clone-friend");
    let clone = friend.join("their-copy");
    git(
        friend.path(),
        &["clone", "--quiet", dir.to_str().unwrap(), "their-copy"],
    );
    assert!(!clone.join(".bt").exists(), "git leaves .bt out");
    assert!(clone.join(".cargo/config.toml").is_file(), "git keeps this");
    for file in [
        "Cargo.toml",
        "README.md",
        ".cargo/config.toml",
        ".gitignore",
    ] {
        let text = std::fs::read_to_string(clone.join(file)).unwrap();
        assert!(
            !text.contains(maker.path().to_str().unwrap()) && !text.contains(&bt_root()),
            "{file} names a folder of the maker's machine:\n{text}"
        );
    }
    // Before: cargo stops at the missing workspace, and the README says what to run.
    let before = cargo(&clone, &["metadata", "--offline", "--format-version=1"]);
    assert!(!before.status.success());
    let readme = std::fs::read_to_string(clone.join("README.md")).unwrap();
    assert!(readme.contains("run `bt attach` here"), "{readme}");

    let out = bt(&["attach"], &clone);
    ok("bt attach", &out);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("attached the cart 'shared-game' in "),
        "{said}"
    );
    let built = cargo(&clone, &["build", "--offline", "--message-format=json"]);
    ok("cargo build in the clone", &built);
    let compiled = compiled_packages(&built.stdout);
    assert!(
        compiled
            .iter()
            .all(|id| id.starts_with(&format!("{}#", url_of(&clone)))),
        "only the clone should compile: {compiled:#?}"
    );
    let shot = clone.join("shot.png");
    let program = clone.join("target").join(PROFILE).join("shared-game");
    let out = Command::new(program)
        .args(["shot", "--at", "2", "-o"])
        .arg(&shot)
        .output()
        .unwrap();
    ok("the clone's program", &out);
    assert!(image::open(&shot).is_ok());
    // The clone's build left the maker's cart and its git status as they were.
    assert!(!dir.join("target").exists());
}

/// `cargo clean` in a cart removes the cart's own target folder and its link to the shared
/// build folder: never BT's build, nor the shared folder's libraries; `bt attach` links it
/// again.
#[test]
fn cargo_clean_in_a_cart_leaves_bts_build_and_the_shared_folder() {
    let parent = ScratchDir::new("new-clean");
    let dir = new_cart("tidy", parent.path());
    let shared = std::fs::read_link(dir.join(".bt/build")).unwrap();
    let libraries = |profile: &str| {
        std::fs::read_dir(shared.join(profile).join("deps"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    let before = libraries(PROFILE);
    assert!(before > 100, "the shared folder is seeded: {before} files");
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    // Plain `cargo clean`: with --release it would clean that profile, through the link.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let clean = Command::new(cargo)
        .current_dir(&dir)
        .arg("clean")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    ok("cargo clean", &clean);
    assert!(!dir.join("target").exists(), "the cart's own programs go");
    assert!(
        dir.join(".bt/build").symlink_metadata().is_err(),
        "the link goes"
    );
    assert!(
        Path::new(env!("CARGO_BIN_EXE_bt-test-carts")).is_file(),
        "BT's stay"
    );
    assert!(
        libraries(PROFILE) >= before,
        "the shared folder keeps its libraries"
    );
    ok(
        "bt attach",
        &bt(&["attach", dir.to_str().unwrap()], parent.path()),
    );
    assert_eq!(std::fs::read_link(dir.join(".bt/build")).unwrap(), shared);
}

/// The BT checkout these tests belong to.
fn bt_root() -> String {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    root.canonicalize().unwrap().to_string_lossy().into_owned()
}

/// The package ids cargo's JSON messages report as compiled rather than fresh.
fn compiled_packages(json: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(json)
        .lines()
        .filter(|l| l.contains("\"reason\":\"compiler-artifact\"") && l.contains("\"fresh\":false"))
        .filter_map(|l| {
            let at = l.find("\"package_id\":\"")? + "\"package_id\":\"".len();
            Some(l[at..].split('"').next()?.to_string())
        })
        .collect()
}

/// `cargo run -- ARGS` in the cart's folder; its stdout.
fn run_cart(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["run", "--quiet", "--"];
    all.extend(args);
    let out = cargo(dir, &all);
    ok(&format!("cargo run -- {}", args.join(" ")), &out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}
