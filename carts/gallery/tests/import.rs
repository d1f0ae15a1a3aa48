//! `bt import` as a user meets it: a PICO-8 cart made for the test, and a Pyxel resource file
//! from Pyxel's examples, turned into sheets, maps and sounds a cart then loads; bad files
//! named with their line or entry; nothing half written.

mod support;

use bt_test_support::ScratchDir;
use support::{bt, names, stderr};

/// A tiny `.p8`: one red sprite, flag 1 on sprite 1, a row of sprite 1 in the map, one sound.
fn p8() -> String {
    let mut s = String::from(
        "pico-8 cartridge // http://www.pico-8.com\nversion 41\n__lua__\n-- code\n__gfx__\n",
    );
    for _ in 0..8 {
        s.push_str(&"0".repeat(8));
        s.push_str(&"8".repeat(8));
        s.push_str(&"0".repeat(112));
        s.push('\n');
    }
    s.push_str("__gff__\n0001");
    s.push_str(&"0".repeat(252));
    s.push_str("\n__map__\n");
    s.push_str(&"01".repeat(128));
    s.push_str("\n__sfx__\n000c0000");
    s.push_str("21340");
    s.push_str(&"00000".repeat(31));
    s.push_str("\n__music__\n04 00414243\n");
    s
}

#[test]
fn import_writes_files_a_cart_can_load() {
    let dir = ScratchDir::new("import");
    let src = dir.join("jump.p8");
    std::fs::write(&src, p8()).unwrap();
    let out = dir.join("assets");
    let o = bt(&["import", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&out), ["jump-sounds.txt", "jump.png", "jump.tmj"]);

    // Loaded as a cart would load them.
    let mut con = bt::host::Console::new(&bt::Settings::default(), 0);
    con.set_image_loader(Box::new(bt_runtime::config::assets::Assets::folder(&out)));
    let mut ctx = con.update_context(0);
    let sheet = ctx.load_image("jump.png", 1).unwrap();
    assert_eq!(sheet.size(), (128, 128));
    assert_eq!(sheet.get(0, 0), Some(0), "colour 0 is see-through");
    assert_ne!(sheet.get(8, 0), Some(0));
    let map = ctx.load_map("jump.tmj").unwrap();
    assert_eq!((map.tile(0, 5, 0), map.flags(1)), (Some(1), 1));
    let bank = ctx.load_sounds("jump-sounds.txt").unwrap();
    assert!(bank.sfx("sfx0").is_some());
    assert!(bank.music("music0").is_some());
}

#[test]
fn a_bad_file_is_named_with_its_line_and_nothing_is_written() {
    let dir = ScratchDir::new("import");
    let src = dir.join("bad.p8");
    std::fs::write(&src, p8().replace("__map__\n01", "__map__\nzz")).unwrap();
    let out = dir.join("assets");
    let o = bt(&["import", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("bad.p8:17: __map__: 'zz"), "{err}");
    assert!(!out.exists(), "no folder, no half files");
    let o = bt(&[
        "import",
        dir.join("missing.p8").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("missing.p8: could not read it: file not found"),
        "{}",
        stderr(&o)
    );
    let other = dir.join("game.p8.png");
    std::fs::write(&other, "PNG").unwrap();
    let o = bt(&[
        "import",
        other.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("game.p8.png: bt import reads PICO-8 carts in their text form (.p8) and Pyxel resource files (.pyxres)"),
        "{}",
        stderr(&o)
    );
}

/// A Pyxel resource file from Pyxel's own examples (see runtime/tests/pyxres/SOURCE).
fn pyxel_platformer() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../runtime/tests/pyxres/platformer.pyxres"
    ))
    .unwrap()
}

#[test]
fn a_pyxres_imports_into_files_a_cart_can_load() {
    let dir = ScratchDir::new("import-pyxres");
    let src = dir.join("jump.pyxres");
    std::fs::write(&src, pyxel_platformer()).unwrap();
    let out = dir.join("assets");
    let args = ["import", src.to_str().unwrap(), "-o", out.to_str().unwrap()];
    let o = bt(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        names(&out),
        ["jump-image0.png", "jump-sounds.txt", "jump-tilemap0.tmj"]
    );

    // Loaded as a cart would load them: the image keeping Pyxel's colour numbers.
    let mut con = bt::host::Console::new(&bt::Settings::default(), 0);
    con.set_image_loader(Box::new(bt_runtime::config::assets::Assets::folder(&out)));
    let mut ctx = con.update_context(0);
    let sheet = ctx.load_image_indexed("jump-image0.png").unwrap();
    assert_eq!(sheet.size(), (256, 256));
    // The image's first row starts with colour 2 (Pyxel's purple) in the file.
    assert_eq!(sheet.get(0, 0), Some(2));
    let map = ctx.load_map("jump-tilemap0.tmj").unwrap();
    assert_eq!(map.size(), (256, 256));
    let bank = ctx.load_sounds("jump-sounds.txt").unwrap();
    assert!(bank.sfx("sound0").is_some());
    assert!(bank.music("music0").is_some());

    // Run again: refused, the files kept, until --force.
    std::fs::write(out.join("jump-sounds.txt"), "edited").unwrap();
    let o = bt(&args);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(out.join("jump-sounds.txt")).unwrap(),
        b"edited"
    );
    let o = bt(&[&args[..], &["--force"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(
        std::fs::read(out.join("jump-sounds.txt")).unwrap(),
        b"edited"
    );
}

#[test]
fn a_bad_pyxres_is_named_and_nothing_is_written() {
    let dir = ScratchDir::new("import-pyxres");
    let out = dir.join("assets");
    let mut cut = pyxel_platformer();
    cut.truncate(cut.len() / 2);
    for (name, bytes, want) in [
        (
            "notzip.pyxres",
            b"PK".to_vec(),
            "notzip.pyxres: not a zip archive",
        ),
        ("cut.pyxres", cut, "cut.pyxres: not a zip archive"),
    ] {
        let src = dir.join(name);
        std::fs::write(&src, bytes).unwrap();
        let o = bt(&["import", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(err.contains(want), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(!out.exists(), "no folder, no half files");
    }
}
