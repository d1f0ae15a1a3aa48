//! `bt sprite-edit` as a player runs it: bad sheets refused in one line before a window opens,
//! and a pencil click saved by Ctrl+S in a real window (a private X server driven by xdotool).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use bt_runtime::sprite_edit::{layout, rgba_png, Sheet};
use bt_test_support::ScratchDir;
use support::x11::{on_path, start_xvfb, xdotool};
use support::{bt_command, stderr, wait_for, Running};

mod support;

/// An indexed 16x16 sheet of black with one white pixel at (15, 15), made as `--convert` makes
/// one: PICO-8's palette, then white.
fn sheet() -> Vec<u8> {
    let rgba: Vec<u8> = (0..256)
        .flat_map(|i| if i == 255 { [255; 4] } else { [0, 0, 0, 255] })
        .collect();
    let (sheet, _) = Sheet::convert("sheet.png", &rgba_png(16, 16, &rgba), &[]).unwrap();
    sheet.encode().unwrap()
}

#[test]
fn bad_sheets_are_refused_in_one_line_before_a_window_opens() {
    let dir = ScratchDir::new("sprite-edit-refusals");
    let rgb = [[1u8, 2, 3, 255]; 4].concat();
    std::fs::write(dir.join("colours.png"), rgba_png(2, 2, &rgb)).unwrap();
    std::fs::write(dir.join("notes.png"), "not a picture").unwrap();
    std::fs::create_dir(dir.join("sheets")).unwrap();
    let cases = [
        (
            "colours.png",
            "bt: error: colours.png: not an indexed PNG (it stores RGBA colours); the editor \
             keeps palette numbers: pass --convert",
        ),
        ("notes.png", "bt: error: notes.png: not a PNG image"),
        (
            "sheets",
            "bt: error: sprite sheet sheets: could not read it",
        ),
        (
            "hello",
            "bt: error: the cart 'hello' has no asset folder, so no sprite sheet",
        ),
        (
            "helo",
            "bt: error: helo: no such file, and not a cart (no cart named 'helo'",
        ),
    ];
    for (arg, want) in cases {
        let o = bt_command()
            .current_dir(dir.path())
            .args(["sprite-edit", arg])
            .output()
            .expect("bt runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{arg}: {err}");
        assert!(err.starts_with(want), "{arg}:\n{err}\nwanted {want}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn a_pencil_click_and_ctrl_s_save_the_sheet_in_a_real_window() {
    if let Some(tool) = ["Xvfb", "xdotool"].iter().find(|t| !on_path(t)) {
        eprintln!("skipped: {tool} is not installed");
        return;
    }
    let x = start_xvfb().expect("an X server");
    let dir = ScratchDir::new("sprite-edit-window");
    let path = dir.join("sheet.png");
    let original = sheet();
    std::fs::write(&path, &original).unwrap();
    let mut bt = bt_command();
    bt.arg("sprite-edit")
        .arg(&path)
        .args(["--scale", "1", "--mute", "--exit-after", "20"])
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", dir.path())
        .env("XDG_CONFIG_HOME", dir.join("config"))
        // No Vulkan driver can be found: the window presents on the CPU and needs none.
        .env("VK_ICD_FILENAMES", dir.join("no-vulkan-driver.json"))
        .env("VK_DRIVER_FILES", dir.join("no-vulkan-driver.json"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let run = Running::start(&x, bt, "sprite-edit");
    // Sheet pixel (2, 3) of the first sprite, at the middle of its square on the canvas.
    let z = layout::zoom_for(8, 8);
    let (px, py) = (
        layout::CANVAS.x + 2 * z + z / 2,
        layout::CANVAS.y + 3 * z + z / 2,
    );
    let (px, py) = (px.to_string(), py.to_string());
    xdotool(&run.display, &["windowfocus", "--sync", &run.window]);
    xdotool(
        &run.display,
        &["mousemove", "--window", &run.window, &px, &py],
    );
    std::thread::sleep(Duration::from_millis(200));
    xdotool(&run.display, &["click", "1"]);
    std::thread::sleep(Duration::from_millis(200));
    xdotool(&run.display, &["key", "ctrl+s"]);
    let mut seen = Vec::new();
    let wrote = wait_for(&run.out, "wrote ", Duration::from_secs(15), &mut seen);
    assert!(wrote.is_some(), "no save reported; stdout {seen:?}");
    let saved = Sheet::read("sheet.png", std::fs::read(&path).unwrap()).unwrap();
    let before = Sheet::read("sheet.png", original).unwrap();
    let changed: Vec<(usize, u8)> = saved
        .pixels()
        .iter()
        .enumerate()
        .filter(|&(i, &p)| p != before.pixels()[i])
        .map(|(i, &p)| (i, p))
        .collect();
    assert_eq!(changed, [(3 * 16 + 2, 1)], "one pixel, in colour 1");
    assert_eq!(saved.colors(), before.colors(), "the palette kept");
    assert!(Path::new(&path).is_file());
}
