//! `bt new` as a newcomer meets it: a cart crate made outside BT's tree builds, takes a
//! screenshot of its starter game and passes its own tests, with no BT file touched.

use std::path::Path;
use std::process::Command;

use bt_test_support::ScratchDir;

/// Runs cargo in `dir` in the profile this test was built in, so the cart reuses the
/// libraries already compiled for BT.
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
    cmd.env_remove("CI").env_remove("BT_UPDATE_GOLDEN");
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
    let out = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["new", "my-game", "--path"])
        .arg(parent.path())
        .output()
        .unwrap();
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

    ok("cargo test in the cart", &cargo(&dir, &["test", "--quiet"]));
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
    // The plain binary, its folder gone, says what happened and what to do.
    let plain = Path::new(env!("CARGO_BIN_EXE_bt-test-carts")).with_file_name("my-game");
    let out = Command::new(&plain).arg("list").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("which is not there")
            && stderr.contains("`cargo run --release -- export -o game` in the cart's folder"),
        "{stderr}"
    );
}

/// A cart's build compiles only the cart: BT's libraries come from what is already compiled,
/// whichever folder the cart is in (its `.bt` workspace gives them the same identity as in
/// BT's own build).
#[test]
fn a_new_cart_compiles_only_itself_when_bts_libraries_are_built() {
    let parent = ScratchDir::new("new-reuse");
    for name in ["first-cart", "second-cart"] {
        let out = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
            .args(["new", name, "--path"])
            .arg(parent.path())
            .output()
            .unwrap();
        ok("bt new", &out);
        let built = cargo(
            &parent.join(name),
            &["build", "--offline", "--message-format=json"],
        );
        ok("cargo build in the cart", &built);
        let compiled = compiled_packages(&built.stdout);
        // Its library and its binary, nothing else: not even the first cart compiles any of
        // BT's crates or their dependencies, though what is built here is the test build's
        // (`cargo test` adds the dev-dependencies, whose features must not change BT's).
        assert!(
            !compiled.is_empty() && compiled.iter().all(|id| id.contains(name)),
            "only {name} should compile, not: {compiled:#?}"
        );
    }
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
