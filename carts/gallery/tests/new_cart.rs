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
    let out = Command::new(env!("CARGO_BIN_EXE_bt"))
        .args(["new", "my-game", "--path"])
        .arg(parent.path())
        .output()
        .unwrap();
    ok("bt new", &out);
    let dir = parent.join("my-game");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("cargo run --release -- run"), "{said}");

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
}

/// `cargo run -- ARGS` in the cart's folder; its stdout.
fn run_cart(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["run", "--quiet", "--"];
    all.extend(args);
    let out = cargo(dir, &all);
    ok(&format!("cargo run -- {}", args.join(" ")), &out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}
