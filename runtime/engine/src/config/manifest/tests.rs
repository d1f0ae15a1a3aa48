//! Tests of manifests, user config files, palettes and the settings layers.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

const PATH: &str = "/carts/demo/cart.toml";

/// A scratch folder under the temp dir, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bt-manifest-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn err(text: &str) -> String {
    parse(text, Path::new(PATH)).unwrap_err().to_string()
}

fn user_err(text: &str) -> String {
    parse_user_config(text, Path::new("/u/config.toml"))
        .unwrap_err()
        .to_string()
}

use crate::config::png_loader::tests::png;

#[test]
fn a_full_manifest_reads_back() {
    let text = "[cart]\nname = \"my-game_2\"\ntitle = \"My Game\"\nversion = \"0.1.0\"\n\
        author = \"Ada\"\ndescription = \"A game.\"\ntarget_fps = 30\nseed = 42\n\
        assets = \"gfx/sprites\"\n\n[display]\nwidth = 160\nheight = 120\nscale = 4\n\
        palette = \"pal/main.hex\"\noutput_scale = 3\neffects = false\n\n\
        [overlay]\nenabled = true\nvisible = true\nchart = false\ndiagnostics = true\n\
        palette = false\n";
    let m = parse(text, Path::new(PATH)).unwrap();
    let cart = CartInfo {
        name: Some("my-game_2".into()),
        title: Some("My Game".into()),
        version: Some("0.1.0".into()),
        author: Some("Ada".into()),
        description: Some("A game.".into()),
    };
    let settings = SettingsPatch {
        title: Some("My Game".into()),
        width: Some(160),
        height: Some(120),
        target_fps: Some(30.0),
        seed: Some(42),
        palette: Some(PaletteSource::File("/carts/demo/pal/main.hex".into())),
        window_scale: Some(4),
        output_scale: Some(3),
        effects: Some(false),
        overlay_enabled: Some(true),
        overlay_visible: Some(true),
        timing_chart: Some(false),
        overlay_diagnostics: Some(true),
        overlay_palette_grid: Some(false),
        reduced_motion: None,
    };
    let assets = Some(PathBuf::from("/carts/demo/gfx/sprites"));
    let want = Manifest {
        path: PATH.into(),
        cart,
        settings,
        assets,
    };
    assert_eq!(m, want);
    let empty = parse("", Path::new(PATH)).unwrap();
    assert_eq!(
        empty,
        Manifest {
            path: PATH.into(),
            ..Manifest::default()
        }
    );
    let m = parse(
        "[cart]\ntarget_fps = 0.5\n[display]\npalette = \"nes\"",
        Path::new(PATH),
    );
    let s = m.unwrap().settings;
    assert_eq!(
        (s.target_fps, s.palette),
        (Some(0.5), Some(PaletteSource::Preset("nes".into())))
    );
}

#[test]
fn bad_names_and_text_are_placed_and_excerpted() {
    assert_eq!(
        err("[cart]\nname = \"My Game\""),
        "/carts/demo/cart.toml:2:8: cart.name: must be 1 to 64 of a-z, 0-9, '-' and '_', \
         starting with a letter, got \"My Game\""
    );
    for bad in ["\"\"", "\"1up\"", "\"-x\"", "\"caf\u{e9}\"", "7"] {
        assert!(
            err(&format!("[cart]\nname = {bad}")).contains(":2:8: cart.name: "),
            "{bad}"
        );
    }
    let long = format!("[cart]\nname = \"{}\"", "a".repeat(65));
    assert!(err(&long).contains("cart.name"));
    let e = err(&format!("[cart]\ntitle = \"{}\"", "x".repeat(5000)));
    let want = "/carts/demo/cart.toml:2:9: cart.title: must be one line of 1 to 64";
    assert!(e.starts_with(want), "{e}");
    assert!(e.ends_with("… (5000 characters)") && e.len() < 200, "{e}");
    assert!(err("[cart]\ntitle = \"bell\\u0007\"").contains("got \"bell\\u{7}\""));
    assert!(err("[cart]\n  description = \"a\\nb\"").contains(":2:17: cart.description: "));
    assert!(
        err("[cart]\nversion = \"\"").contains(":2:11: cart.version: must be one line of 1 to 32")
    );
    assert!(err(&format!("[cart]\nauthor = \"{}\"", "a".repeat(129))).contains("at most 128"));
}

#[test]
fn numbers_are_range_checked() {
    assert_eq!(
        err("[cart]\nseed = -1"),
        "/carts/demo/cart.toml:2:8: cart.seed: must be a whole number from 0 to \
         9223372036854775807, got -1"
    );
    // Past what TOML holds: the key is named, and the largest number a file can give.
    let e = err("[cart]\nseed = 18446744073709551615");
    assert!(
        e.contains("cart.toml:2:") && e.contains("\"seed\": a whole number past the largest"),
        "{e}"
    );
    assert!(e.contains("9223372036854775807"), "{e}");
    assert!(err("[cart]\nseed = 1.5").ends_with("got 1.5"));
    for (bad, got) in [
        ("0", "0"),
        ("10001", "10001"),
        ("nan", "NaN"),
        ("\"fast\"", "\"fast\""),
    ] {
        let e = err(&format!("[cart]\ntarget_fps = {bad}"));
        assert_eq!(
            e,
            format!(
                "/carts/demo/cart.toml:2:14: cart.target_fps: must be a number from 0.001 to \
                 10000, got {got}"
            )
        );
    }
    assert_eq!(
        err("[display]\nwidth = 0"),
        "/carts/demo/cart.toml:2:9: display.width: must be a whole number from 1 to 8192, got 0"
    );
    assert!(err("[display]\nheight = 8193").contains(":2:10: display.height: "));
    assert_eq!(
        err("[display]\nwidth = 8192\nheight = 8192"),
        "/carts/demo/cart.toml:3:10: display: 8192x8192 is 67108864 pixels; the most is \
         16777216"
    );
    for bad in ["0", "17"] {
        let e = err(&format!("[display]\nscale = {bad}"));
        assert!(e.ends_with(&format!(
            "display.scale: must be a whole number from 1 to 16, got {bad}"
        )));
        assert!(e.contains(":2:9:"), "{e}");
    }
    assert!(
        err("[overlay]\nchart = 1").contains(":2:9: overlay.chart: must be true or false, got 1")
    );
}

#[test]
fn wrong_types_name_the_field() {
    assert_eq!(
        err("[display]\nwidth = \"wide\""),
        "/carts/demo/cart.toml:2:9: display.width: must be a whole number from 1 to 8192, \
         got \"wide\""
    );
    assert!(err("[display]\nwidth = [1, 2]").ends_with("got an array"));
    let e = err("display = 5");
    assert!(
        e.starts_with("/carts/demo/cart.toml:1:11: ") && e.ends_with("expected a table"),
        "{e}"
    );
    assert!(!e.contains("Raw") && !e.contains('\n'), "{e}");
}

#[test]
fn unknown_fields_are_named_with_their_table() {
    assert_eq!(
        err("[display]\nwidth = 1\ncolour = 3"),
        "/carts/demo/cart.toml:3:1: unknown field 'colour' in [display]; expected one of \
         width, height, scale, palette, output_scale, effects"
    );
    assert!(err("[cart]\nnmae = \"x\"").ends_with(
        ":2:1: unknown field 'nmae' in [cart]; expected one of name, title, version, \
             author, description, target_fps, seed, assets"
    ));
    assert!(err("[overlay]\nshown = true").ends_with(
        ":2:1: unknown field 'shown' in [overlay]; expected one of enabled, visible, chart, \
         diagnostics, palette"
    ));
    assert!(err("[sound]\nvolume = 3")
        .ends_with(":1:2: unknown table 'sound'; expected one of cart, display, overlay"));
    let e = err(&format!("[cart]\n\"{}\" = 1", "k".repeat(300)));
    assert!(e.contains("unknown field \"kkkk") && e.len() < 250, "{e}");
}

#[test]
fn syntax_errors_give_toml_position_on_one_line() {
    let e = err("[cart]\ntitle = \"x\"\n[display\nwidth = 1");
    assert!(e.starts_with("/carts/demo/cart.toml:3:9: "), "{e}");
    assert!(!e.contains('\n'), "{e}");
    assert!(err("[cart]\nseed = 1\nseed = 2").starts_with("/carts/demo/cart.toml:3:1: "));
}

#[test]
fn assets_and_palette_files_stay_inside_the_cart() {
    for bad in ["/abs", "../up", "a/../b", "..", "", "\\\\server\\x"] {
        let e = err(&format!("[cart]\nassets = {bad:?}"));
        assert!(
            e.contains(":2:10: cart.assets: must be a folder inside"),
            "{bad}: {e}"
        );
    }
    let m = parse("[cart]\nassets = \"./gfx\"", Path::new("cart.toml")).unwrap();
    assert_eq!(m.assets, Some(PathBuf::from("./gfx")));
    assert!(err("[display]\npalette = \"../p.png\"").contains("display.palette: a palette file"));
    assert_eq!(
        err("[display]\npalette = \"pico9\""),
        "/carts/demo/cart.toml:2:11: display.palette: unknown preset \"pico9\"; use one of \
         pico8, cga, c64, gameboy, nes, vga or a .png or .hex file"
    );
    let e = load_palette(&PaletteSource::Preset("amiga".into())).unwrap_err();
    assert!(e
        .to_string()
        .ends_with("the presets are pico8, cga, c64, gameboy, nes, vga"));
}

#[test]
fn user_config_allows_only_its_five_fields() {
    let p = parse_user_config(
        "[display]\nscale = 2\nreduced_motion = true\n[overlay]\nvisible = true\nchart = true",
        Path::new("c"),
    );
    let want = SettingsPatch {
        window_scale: Some(2),
        reduced_motion: Some(true),
        overlay_visible: Some(true),
        timing_chart: Some(true),
        ..SettingsPatch::default()
    };
    assert_eq!(p.unwrap(), want);
    assert_eq!(
        user_err("[display]\nwidth = 100"),
        "/u/config.toml:2:1: unknown field 'width' in [display]; expected one of scale, \
         effects, reduced_motion (the user config sets only display.scale, display.effects, \
         display.reduced_motion, overlay.visible and overlay.chart)"
    );
    assert!(user_err("[overlay]\nenabled = false").contains("expected visible or chart"));
    assert!(user_err("[cart]\ntitle = \"x\"")
        .contains(":1:2: unknown table 'cart'; expected display or overlay"));
    assert!(user_err("[display]\nscale = 17").starts_with("/u/config.toml:2:9: display.scale: "));
}

#[test]
fn user_config_path_follows_xdg() {
    let p = |x: Option<&str>, h: Option<&str>| {
        config_dir_from(x.map(PathBuf::from), h.map(PathBuf::from)).map(|d| d.join("config.toml"))
    };
    assert_eq!(
        p(Some("/x"), Some("/h")),
        Some(PathBuf::from("/x/bt/config.toml"))
    );
    assert_eq!(
        p(Some("rel"), Some("/h")),
        Some(PathBuf::from("/h/.config/bt/config.toml"))
    );
    assert_eq!(
        p(Some(""), Some("/h")),
        Some(PathBuf::from("/h/.config/bt/config.toml"))
    );
    assert_eq!(p(None, Some("")), None);
    assert_eq!(p(Some("rel"), None), None);
}

#[test]
fn hex_palettes_name_the_file_and_line() {
    let dir = Scratch::new();
    let good = dir.write("p.hex", b"; comment\n\nff004d\n#1D2B53\n  000000  \n");
    let pal = load_palette(&PaletteSource::File(good)).unwrap();
    let want = [
        Color32::hex(0xff004d),
        Color32::hex(0x1d2b53),
        Color32::hex(0),
    ];
    assert_eq!(&pal.colors()[..3], want);
    assert_eq!(pal.len(), MANIFEST_PALETTE_SLOTS, "the rest are free slots");
    let bad = dir.write("bad.hex", b"ff004d\n\n; x\nff00zz\n");
    let e = load_palette(&PaletteSource::File(bad.clone()))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{}:4: expected RRGGBB or #RRGGBB, got \"ff00zz\"",
            bad.display()
        )
    );
    let many: String = (0..257).map(|i| format!("{i:06x}\n")).collect();
    let e = load_palette(&PaletteSource::File(dir.write("m.hex", many.as_bytes()))).unwrap_err();
    assert!(
        e.to_string().ends_with("m.hex:257: more than 256 colours"),
        "{e}"
    );
    let e = load_palette(&PaletteSource::File(dir.write("one.hex", b"ffffff"))).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("one.hex: has 1 colours; a palette needs 2 to 256"),
        "{e}"
    );
    let missing = dir.0.join("none.hex");
    let e = load_palette(&PaletteSource::File(missing.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "palette file {}: could not read it: ",
            missing.display()
        )),
        "{e}"
    );
}

#[test]
fn png_palettes_of_impossible_sizes_are_refused_from_the_header() {
    let dir = Scratch::new();
    for (w, h) in [(0, 5), (4_294_967_295, 4_294_967_295)] {
        let path = dir.write(
            "p.png",
            &crate::config::png_loader::tests::header_only(w, h),
        );
        let e = load_palette(&PaletteSource::File(path)).unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "p.png: the image is {w}x{h}; a palette image has 1 to 1048576 pixels"
            )),
            "{e}"
        );
    }
}

#[test]
fn png_palettes_take_distinct_colours_in_reading_order() {
    let dir = Scratch::new();
    let rgba = [
        9, 9, 9, 255, 1, 2, 3, 255, 0, 0, 0, 0, 9, 9, 9, 255, 4, 5, 6, 128, 1, 2, 3, 255,
    ];
    let path = dir.write("p.png", &png(3, 2, &rgba));
    let pal = load_palette(&PaletteSource::File(path)).unwrap();
    assert_eq!(
        &pal.colors()[..3],
        [
            Color32::rgb(9, 9, 9),
            Color32::rgb(1, 2, 3),
            Color32::rgb(4, 5, 6)
        ]
    );
    let many: Vec<u8> = (0..257u32)
        .flat_map(|i| [(i % 256) as u8, (i / 256) as u8, 0, 255])
        .collect();
    let e = load_palette(&PaletteSource::File(
        dir.write("m.png", &png(257, 1, &many)),
    ))
    .unwrap_err();
    assert!(
        e.to_string()
            .ends_with("m.png: more than 256 distinct colours"),
        "{e}"
    );
    let fake = dir.write("fake.png", b"GIF89a not a png");
    let e = load_palette(&PaletteSource::File(fake)).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("fake.png: not a PNG image (no PNG signature)"),
        "{e}"
    );
    let cut = png(3, 2, &rgba)[..40].to_vec();
    let e = load_palette(&PaletteSource::File(dir.write("cut.png", &cut))).unwrap_err();
    assert!(e.to_string().contains("cut.png: not a readable PNG"), "{e}");
    let e = load_palette(&PaletteSource::File(dir.write("x.gif", b""))).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("x.gif: a palette file must end .png or .hex"),
        "{e}"
    );
}

#[test]
fn load_reads_limits_and_places_bad_utf8() {
    let dir = Scratch::new();
    assert!(load(&dir.0).unwrap().is_none());
    assert!(load_user_config(&dir.0.join("config.toml"))
        .unwrap()
        .is_none());
    let path = dir.write(MANIFEST_FILE, b"[cart]\ntitle = \"T\"\n");
    let m = load(&dir.0).unwrap().unwrap();
    assert_eq!(
        (m.path, m.cart.title),
        (path.clone(), Some("T".to_string()))
    );
    let big = vec![b'#'; MAX_MANIFEST_BYTES as usize + 1];
    dir.write(MANIFEST_FILE, &big);
    let e = load(&dir.0).unwrap_err();
    assert!(
        matches!(
            e,
            ManifestError::TooLarge {
                size: 65537,
                limit: 65536,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().starts_with(&format!(
        "cart manifest {}: could not read it: 65537 bytes",
        path.display()
    )));
    let user = dir.write("config.toml", &big);
    assert!(matches!(
        load_user_config(&user),
        Err(ManifestError::TooLarge { .. })
    ));
    dir.write(MANIFEST_FILE, b"[cart]\ntitle = \"ab\xff\"");
    let e = load(&dir.0).unwrap_err().to_string();
    assert_eq!(e, format!("{}:2:12: not UTF-8 text", path.display()));
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(matches!(load(&dir.0), Err(ManifestError::Read { .. })));
}

#[test]
fn layers_resolve_in_order_with_provenance() {
    let dir = Scratch::new();
    let hex = dir.write("p.hex", b"000000\nffffff\n");
    let configured = Settings::default().title("Configured").target_fps(30.0);
    let manifest = SettingsPatch {
        title: Some("Manifest".into()),
        width: Some(160),
        target_fps: Some(50.0),
        palette: Some(PaletteSource::File(hex.clone())),
        window_scale: Some(2),
        ..SettingsPatch::default()
    };
    let user = SettingsPatch {
        window_scale: Some(3),
        overlay_visible: Some(true),
        ..SettingsPatch::default()
    };
    let cli = SettingsPatch {
        window_scale: Some(5),
        seed: Some(7),
        ..SettingsPatch::default()
    };
    let (m_path, u_path) = (Path::new("/c/cart.toml"), Path::new("/u/config.toml"));
    let layers = [
        (Layer::CommandLine, None, &cli),
        (Layer::Manifest, Some(m_path), &manifest),
        (Layer::UserConfig, Some(u_path), &user),
    ];
    let (s, rows) = resolve(configured, &layers).unwrap();
    assert_eq!(
        (s.title.as_str(), s.width, s.height, s.target_fps),
        ("Manifest", 160, 240, 50.0)
    );
    assert_eq!(
        (s.window_scale, s.seed, s.overlay.visible_at_start),
        (Some(5), Some(7), true)
    );
    assert_eq!(
        &s.palette.colors()[..2],
        [Color32::hex(0), Color32::hex(0xffffff)]
    );
    let got: Vec<(&str, &str, Layer)> = rows
        .iter()
        .map(|r| (r.field, r.value.as_str(), r.layer))
        .collect();
    let hex_text = hex.display().to_string();
    let want = [
        ("cart.title", "\"Manifest\"", Layer::Manifest),
        ("display.width", "160", Layer::Manifest),
        ("display.height", "240", Layer::Default),
        ("display.scale", "5", Layer::CommandLine),
        ("display.palette", hex_text.as_str(), Layer::Manifest),
        ("display.output_scale", "2", Layer::Default),
        ("display.effects", "true", Layer::Default),
        ("cart.target_fps", "50", Layer::Manifest),
        ("cart.seed", "7", Layer::CommandLine),
        ("overlay.enabled", "true", Layer::Default),
        ("overlay.visible", "true", Layer::UserConfig),
        ("overlay.chart", "false", Layer::Default),
        ("overlay.diagnostics", "false", Layer::Default),
        ("overlay.palette", "false", Layer::Default),
    ];
    assert_eq!(got, want);
    assert_eq!(rows[0].origin.as_deref(), Some(m_path));
    assert_eq!(rows[10].origin.as_deref(), Some(u_path));
    let table = format_provenance(&rows);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 15);
    assert!(
        lines[0].starts_with("field                 value  "),
        "{table}"
    );
    assert!(lines[3].starts_with("display.height        240  ") && lines[3].ends_with("  default"));
    assert!(
        lines[1].starts_with("cart.title            \"Manifest\"  "),
        "{table}"
    );
    assert!(
        lines[1].ends_with("  cart.toml (/c/cart.toml), over configure()'s \"Configured\""),
        "{table}"
    );
    assert!(lines[2].ends_with("  cart.toml (/c/cart.toml)"), "{table}");
    assert!(
        lines[11].ends_with("  user config (/u/config.toml)"),
        "{table}"
    );
    assert!(lines[4].ends_with("  command line"), "{table}");
    let from_column = |l: &str| l.find(['d', 'c', 'u', 'f']).map(|_| l.rfind("  ").unwrap());
    assert!(
        lines
            .iter()
            .all(|l| from_column(l) == from_column(lines[0])),
        "{table}"
    );

    let (_, rows) = resolve(Settings::default().title("C").palette(Palette::cga()), &[]).unwrap();
    assert_eq!(
        (rows[0].layer, rows[4].value.as_str()),
        (Layer::Configure, "cga")
    );
    assert_eq!(
        (rows[3].value.as_str(), rows[8].value.as_str()),
        ("auto", "none")
    );
    assert!(format_provenance(&rows).contains("configure()"));
}

#[test]
fn a_configure_value_equal_to_the_default_is_labelled_configure_not_default() {
    let configured = Settings::default()
        .display(320, 240)
        .title("BT")
        .overlay_visible(false);
    let (_, rows) = resolve(configured, &[]).unwrap();
    let layer = |field: &str| rows.iter().find(|r| r.field == field).unwrap().layer;
    for field in [
        "cart.title",
        "display.width",
        "display.height",
        "overlay.visible",
    ] {
        assert_eq!(layer(field), Layer::Configure, "{field}");
    }
    for field in ["cart.target_fps", "overlay.chart", "display.palette"] {
        assert_eq!(layer(field), Layer::Default, "{field}");
    }
    let table = format_provenance(&rows);
    let width = table
        .lines()
        .find(|l| l.starts_with("display.width"))
        .unwrap();
    assert!(width.ends_with("  configure()"), "{table}");

    // A field written directly is not seen as set, but a value other than the default's tells.
    let mut direct = Settings::default();
    direct.width = 100;
    let (_, rows) = resolve(direct, &[]).unwrap();
    assert_eq!(rows[1].layer, Layer::Configure);
}

#[test]
fn cart_toml_over_a_different_configure_value_is_said_naming_both_values_and_the_file() {
    let configured = Settings::default()
        .display(160, 120)
        .title("BT")
        .target_fps(30.0);
    let manifest = SettingsPatch {
        title: Some("Space Miner".into()),
        width: Some(240),
        height: Some(120),
        ..SettingsPatch::default()
    };
    let cli = SettingsPatch {
        width: Some(200),
        ..SettingsPatch::default()
    };
    let path = Path::new("/c/cart.toml");
    let layers = [
        (Layer::Manifest, Some(path), &manifest),
        (Layer::CommandLine, None, &cli),
    ];
    let (s, rows) = resolve(configured, &layers).unwrap();
    assert_eq!(
        (s.width, s.height, s.title.as_str()),
        (200, 120, "Space Miner")
    );
    let warnings: Vec<String> = rows
        .iter()
        .filter_map(Provenance::override_warning)
        .collect();
    assert_eq!(
        warnings,
        [
            "/c/cart.toml sets cart.title = \"Space Miner\", the cart's configure() \"BT\": \
             cart.toml wins; take the line out of it for configure()'s to count",
            "/c/cart.toml sets display.width = 240, the cart's configure() 160: cart.toml wins; \
             take the line out of it for configure()'s to count",
        ],
        "the same height in both, and a target_fps only configure() sets, say nothing"
    );
    // The command line's width is the one used; bt config says so, and that cart.toml's
    // replaced configure()'s.
    let width = &rows[1];
    assert_eq!(
        (width.layer, width.value.as_str()),
        (Layer::CommandLine, "200")
    );

    let same = SettingsPatch {
        width: Some(160),
        ..SettingsPatch::default()
    };
    let (_, rows) = resolve(
        Settings::default().display(160, 120),
        &[(Layer::Manifest, Some(path), &same)],
    )
    .unwrap();
    assert!(rows.iter().all(|r| r.override_warning().is_none()));
}

#[test]
fn resolve_validates_and_names_palette_files() {
    let tall = Settings::default().display(320, 8192);
    let wide = SettingsPatch {
        width: Some(8192),
        ..SettingsPatch::default()
    };
    let e = resolve(tall, &[(Layer::Manifest, None, &wide)]).unwrap_err();
    assert!(
        matches!(
            e,
            ManifestError::Settings(SettingsError::DisplayArea { .. })
        ),
        "{e}"
    );
    let missing = SettingsPatch {
        palette: Some(PaletteSource::File("/nowhere/p.png".into())),
        ..SettingsPatch::default()
    };
    let e = resolve(Settings::default(), &[(Layer::CommandLine, None, &missing)]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("palette file /nowhere/p.png: could not read it"),
        "{e}"
    );
    let mut s = Settings::default();
    assert!(missing.apply(&mut s).is_err());
    assert_eq!(s, Settings::default());
}
