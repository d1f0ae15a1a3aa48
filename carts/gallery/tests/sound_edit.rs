//! What the sound editor saves reaches a running game: the platformer, playing from a copy of
//! its asset folder, reloads the file the editor wrote (as `bt run` does when the file changes)
//! and plays the edited tune. (`carts/gallery/tests/window.rs` saves through the editor in a
//! real window; the file watcher that calls the reload is tested with `bt run` there too.)

use std::path::{Path, PathBuf};

use bt::sound::{Note, Wave};
use bt_runtime::sound_edit::SoundDoc;
use bt_runtime::{Engine, EngineOptions};
use bt_test_support::ScratchDir;
use support::{bt_command, stderr};

mod support;

/// The updates played before the reload, and after it.
const BEFORE: u64 = 30;
const AFTER: u64 = 120;

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The platformer on the asset folder `assets`.
fn platformer(assets: PathBuf) -> Engine {
    let cart = bt_gallery::find("platformer").expect("bundled cart");
    let options = EngineOptions {
        overlay: false,
        assets: Some(assets),
        ..EngineOptions::default()
    };
    Engine::new(Box::new(cart.build), options).expect("the platformer boots")
}

fn samples(e: &mut Engine, updates: u64) -> Vec<i16> {
    e.step(updates).unwrap();
    e.console_mut().drain_samples().collect()
}

/// A copy of the platformer's asset folder, in `dir`.
fn folder(dir: &ScratchDir, name: &str) -> PathBuf {
    let cart = bt_gallery::find("platformer").unwrap();
    let assets = dir.join(name);
    copy_folder(Path::new(cart.assets.unwrap()), &assets);
    assets
}

/// What the platformer plays after `AFTER` updates, having played `BEFORE` on the original
/// music and then reloaded `music.txt` as it is in `assets` (the original, or an edit saved
/// while it played).
fn reloaded(assets: PathBuf, music: &str) -> Vec<i16> {
    let mut game = platformer(assets.clone());
    game.step(BEFORE).unwrap();
    // Saved as the editor saves: a new file renamed over the old.
    bt_runtime::export::safe_write::write_atomically(&assets.join("music.txt"), music.as_bytes())
        .unwrap();
    game.reload_assets_changed(&["music.txt".to_string()])
        .expect("the saved file reloads");
    game.console_mut().drain_samples().for_each(drop);
    samples(&mut game, AFTER)
}

#[test]
fn the_platformer_reloads_the_file_the_editor_saves_and_plays_the_edit() {
    let cart = bt_gallery::find("platformer").unwrap();
    let original =
        std::fs::read_to_string(Path::new(cart.assets.unwrap()).join("music.txt")).unwrap();
    // The edit the editor makes: the tune's first note a sixth lower, on a saw.
    let mut doc = SoundDoc::read("music.txt", &original).unwrap();
    doc.set_note(0, 0, Note::new(52, Wave::Saw, 6));
    let edited = doc.checked_text().unwrap();
    assert_ne!(edited, original);

    let dir = ScratchDir::new("sound-edit-reload");
    let with_edit = reloaded(folder(&dir, "a"), &edited);
    let without = reloaded(folder(&dir, "b"), &original);
    let again = reloaded(folder(&dir, "c"), &edited);
    assert_ne!(with_edit, without, "the reload plays the edited notes");
    assert_eq!(with_edit, again, "and the same ones every time");
    assert!(with_edit.iter().any(|&s| s != 0));
}

#[test]
fn bad_files_are_refused_in_one_line_before_a_window_opens() {
    let dir = ScratchDir::new("sound-edit-refusals");
    std::fs::write(
        dir.join("bad.txt"),
        "bt-sound 2\nsfx a 6\nC4 sq 5\nH4 sq 5\n",
    )
    .unwrap();
    std::fs::write(dir.join("binary.txt"), b"bt-sound 2\n\xff\xfe").unwrap();
    std::fs::create_dir(dir.join("sounds")).unwrap();
    // Run in the scratch folder, naming files as a player does, relative to it.
    let cases = [
        (
            "bad.txt",
            "bt: error: bad.txt:4: pitch: \"H4\" is not a note name (C4, F#3, ...)",
        ),
        (
            "binary.txt",
            "bt: error: binary.txt: not UTF-8 text (invalid byte at offset 11)",
        ),
        (
            "sounds",
            "bt: error: sounds is a folder; name a sound file in it",
        ),
        (
            "no/such/sounds.txt",
            "bt: error: no/such/sounds.txt: there is no folder no/such to make it in",
        ),
        (
            "hello",
            "bt: error: the cart 'hello' has no asset folder, so no sound file; name one to \
             make: bt sound-edit PATH/sounds.txt",
        ),
        (
            "helo",
            "bt: error: helo: no such file, and not a cart (no cart named 'helo'",
        ),
    ];
    for (arg, want) in cases {
        let o = bt_command()
            .current_dir(dir.path())
            .args(["sound-edit", arg])
            .output()
            .expect("bt runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{arg}: {err}");
        assert!(err.starts_with(want), "{arg}:\n{err}\nwanted {want}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
