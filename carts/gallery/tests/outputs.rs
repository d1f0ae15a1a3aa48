//! How `bt` writes its output files: never destroying what is at the path, whatever it is.
//!
//! Devices are never written by these tests (a run as root of a broken `bt` would replace
//! `/dev/null` for the whole machine): a FIFO made here stands in for them.

mod support;

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use bt_test_support::ScratchDir;
use support::{bt, bt_command, names, stderr, stdout};

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn shot(out: &Path) -> std::process::Output {
    bt(&["shot", "hello", "--at", "1", "-o", out.to_str().unwrap()])
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(PNG_SIGNATURE) && image::load_from_memory(bytes).is_ok()
}

#[test]
fn a_fifo_output_is_written_to_directly_and_stays_a_fifo() {
    let dir = ScratchDir::new("outputs");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (tx, rx) = mpsc::channel();
    let reading = fifo.clone();
    // A broken bt never opens the FIFO: the reader then waits for ever, and is left behind.
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read(&reading));
    });
    let o = shot(&fifo);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = rx.recv_timeout(Duration::from_secs(10));
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO was replaced"
    );
    let bytes = read.expect("the reader got the picture").unwrap();
    assert!(is_png(&bytes), "{} bytes", bytes.len());
    assert_eq!(names(dir.path()), ["pipe"], "no temporary file beside it");
}

#[test]
fn a_symlinked_output_replaces_its_target_and_keeps_the_link() {
    let dir = ScratchDir::new("outputs");
    std::fs::write(dir.join("target.png"), b"old").unwrap();
    std::os::unix::fs::symlink("target.png", dir.join("link.png")).unwrap();
    // A link to a file that does not exist yet makes that file.
    std::os::unix::fs::symlink("made.png", dir.join("dangling.png")).unwrap();
    for link in ["link.png", "dangling.png"] {
        let o = shot(&dir.join(link));
        assert!(o.status.success(), "{link}: {}", stderr(&o));
        let meta = std::fs::symlink_metadata(dir.join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} is still a link");
    }
    assert!(is_png(&std::fs::read(dir.join("target.png")).unwrap()));
    assert!(is_png(&std::fs::read(dir.join("made.png")).unwrap()));
    assert_eq!(
        names(dir.path()),
        ["dangling.png", "link.png", "made.png", "target.png"]
    );
}

#[test]
fn an_existing_file_keeps_its_permissions_and_a_new_one_gets_the_usual_ones() {
    let dir = ScratchDir::new("outputs");
    let private = dir.join("private.png");
    std::fs::write(&private, b"old").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = shot(&private);
    assert!(o.status.success(), "{}", stderr(&o));
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o600, "mode {mode:o}");
    assert!(is_png(&std::fs::read(&private).unwrap()));

    // A new file gets what any program's new file gets under this umask.
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, b"").unwrap();
    let usual = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o7777;
    let fresh = dir.join("fresh.png");
    let o = shot(&fresh);
    assert!(o.status.success(), "{}", stderr(&o));
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, usual, "mode {mode:o}, usual {usual:o}");
}

#[test]
fn a_hard_linked_output_is_rewritten_in_place() {
    let dir = ScratchDir::new("outputs");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    std::fs::write(&a, b"old").unwrap();
    std::fs::hard_link(&a, &b).unwrap();
    let o = shot(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    let (ma, mb) = (
        std::fs::metadata(&a).unwrap(),
        std::fs::metadata(&b).unwrap(),
    );
    assert_eq!(
        (ma.ino(), ma.nlink()),
        (mb.ino(), 2),
        "still one file, two names"
    );
    assert!(is_png(&std::fs::read(&b).unwrap()));
    assert_eq!(names(dir.path()), ["a.png", "b.png"]);
}

#[test]
fn a_link_placed_where_a_temporary_file_might_go_is_never_followed() {
    let dir = ScratchDir::new("outputs");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"secret").unwrap();
    // The name the temporary file had when it was always the same.
    std::os::unix::fs::symlink(&victim, dir.join(".out.png.bt-tmp")).unwrap();
    let o = shot(&dir.join("out.png"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(&victim).unwrap() == b"secret",
        "the file the link points to was written"
    );
    assert!(is_png(&std::fs::read(dir.join("out.png")).unwrap()));
}

#[test]
fn fifty_shots_of_one_file_at_once_all_succeed() {
    let dir = ScratchDir::new("outputs");
    let out = dir.join("same.png");
    let reference = dir.join("reference.png");
    assert!(shot(&reference).status.success());
    let children: Vec<_> = (0..50)
        .map(|_| {
            bt_command()
                .args(["shot", "hello", "--at", "1", "-o", out.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("bt runs")
        })
        .collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&reference).unwrap()
    );
    assert_eq!(names(dir.path()), ["reference.png", "same.png"]);
}

#[test]
fn a_write_that_fails_part_way_leaves_no_temporary_file_and_the_old_file_alone() {
    // A file-size limit makes the write fail part way, as a full disk does; with SIGXFSZ
    // ignored the write returns an error instead of killing bt.
    let dir = ScratchDir::new("outputs");
    let out = dir.join("keep.png");
    std::fs::write(&out, b"precious").unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f 2; exec '{}' shot hello --at 1 -o '{}'",
            env!("CARGO_BIN_EXE_bt-test-carts"),
            out.display()
        ))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(&format!("bt: error: could not write {}: ", out.display())),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    assert_eq!(names(dir.path()), ["keep.png"]);
}

#[test]
fn stdout_takes_the_picture_when_the_output_is_a_dash() {
    let dir = ScratchDir::new("outputs");
    let file = dir.join("file.png");
    assert!(shot(&file).status.success());
    let o = bt(&["shot", "hello", "--at", "1", "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, std::fs::read(&file).unwrap());
    assert!(
        stderr(&o).contains("wrote - (320x240, after 60 updates, seed 0)"),
        "the report goes to stderr: {}",
        stderr(&o)
    );
}

fn diagnose(png: &str, csv: &str) -> std::process::Output {
    bt(&[
        "diagnose",
        "hello",
        "--clock",
        "constant:16",
        "--frames",
        "30",
        "-o",
        png,
        "--csv",
        csv,
    ])
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_anything_is_written() {
    let dir = ScratchDir::new("outputs");
    let png = dir.join("d.png");
    std::fs::write(&png, b"precious").unwrap();
    std::os::unix::fs::symlink("d.png", dir.join("d.csv")).unwrap();
    let cases = [
        (png.clone(), png.clone()),
        (png.clone(), dir.join("d.csv")),
        (dir.join("./d.png"), dir.join("d.csv")),
    ];
    for (a, b) in cases {
        let o = diagnose(a.to_str().unwrap(), b.to_str().unwrap());
        assert_eq!(o.status.code(), Some(2), "{a:?} {b:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        assert_eq!(std::fs::read(&png).unwrap(), b"precious");
    }
    let o = diagnose("-", "-");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--output and --csv both name -"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
    let o = diagnose(png.to_str().unwrap(), dir.join("d.csv").to_str().unwrap());
    assert!(
        stderr(&o).contains(&format!("--output and --csv both name {}", png.display())),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_second_output_that_cannot_be_written_leaves_the_first_alone() {
    let dir = ScratchDir::new("outputs");
    let png = dir.join("keep.png");
    std::fs::write(&png, b"precious").unwrap();
    let csv = dir.join("missing/d.csv");
    let o = diagnose(png.to_str().unwrap(), csv.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("could not write {}", csv.display())),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&png).unwrap(), b"precious");
    assert_eq!(names(dir.path()), ["keep.png"]);
}

#[test]
fn both_outputs_are_written_when_both_can_be() {
    let dir = ScratchDir::new("outputs");
    let (png, csv) = (dir.join("d.png"), dir.join("d.csv"));
    std::fs::write(&csv, b"old").unwrap();
    let o = diagnose(png.to_str().unwrap(), csv.to_str().unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(is_png(&std::fs::read(&png).unwrap()));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 31, "{text}");
    assert_eq!(names(dir.path()), ["d.csv", "d.png"]);
    assert!(stdout(&o).starts_with("wrote "), "{}", stdout(&o));
}

#[test]
fn a_name_that_does_not_match_the_format_is_refused() {
    let dir = ScratchDir::new("outputs");
    let jpg = dir.join("x.jpg");
    let o = shot(&jpg);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "invalid value '{}' for '--output <OUTPUT>'",
            jpg.display()
        )) && err.contains("must end in .png"),
        "{err}"
    );
    assert!(!jpg.exists());
    let o = diagnose(
        dir.join("d.png").to_str().unwrap(),
        dir.join("d.txt").to_str().unwrap(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("must end in .csv"), "{}", stderr(&o));
    // Every other output checks its name the same way, before any work.
    for (args, rule) in [
        (
            vec!["gif", "hello", "--seconds", "1", "-o", "x.png"],
            "must end in .gif",
        ),
        (
            vec!["wav", "hello", "--seconds", "1", "-o", "x.mp3"],
            "must end in .wav",
        ),
        (
            vec![
                "diagnose",
                "hello",
                "--clock",
                "constant:16",
                "--frames",
                "5",
                "-o",
                "d.png",
                "--report",
                "r.txt",
            ],
            "must end in .html",
        ),
    ] {
        let o = bt_command()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(rule), "{args:?}: {}", stderr(&o));
    }
    // Upper case is the same name.
    let o = shot(&dir.join("UPPER.PNG"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(dir.path()), ["UPPER.PNG"]);
}

#[test]
fn a_gif_written_as_it_is_encoded_keeps_a_link_and_the_files_mode_and_a_failed_one_leaves_the_old_file(
) {
    let dir = ScratchDir::new("outputs-gif");
    let real = dir.join("real.gif");
    std::fs::write(&real, b"old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.gif");
    std::os::unix::fs::symlink("real.gif", &link).unwrap();
    let gif = |cart: &str, seconds: &str| {
        bt(&[
            "gif",
            cart,
            "--seconds",
            seconds,
            "-q",
            "-o",
            link.to_str().unwrap(),
        ])
    };
    // The panic cart panics in its update at tick 100, part way through these frames.
    let o = gif("panic", "3");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read(&real).unwrap(), b"old");
    assert_eq!(
        names(dir.path()),
        ["link.gif", "real.gif"],
        "no temporary file left"
    );

    let o = gif("hello", "1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&real).unwrap().starts_with(b"GIF89a"));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::metadata(&real).unwrap().mode() & 0o777, 0o640);
    let said = stdout(&o);
    let size = std::fs::metadata(&real).unwrap().len();
    assert!(said.contains(&format!("{size} bytes")), "{said}");
    assert_eq!(names(dir.path()), ["link.gif", "real.gif"]);
}

#[cfg(target_os = "linux")]
#[test]
fn an_output_in_a_folder_that_takes_no_file_never_names_a_temporary_file() {
    // /proc takes no new file, whoever runs the test.
    for args in [
        &["shot", "hello", "--at", "1", "-o", "/proc/bt-out.png"][..],
        &["web", "hello", "-o", "/proc/bt-site"][..],
        &[
            "frames",
            "hello",
            "--to",
            "0.1",
            "--every",
            "0.05",
            "-o",
            "/proc/bt-frames",
        ][..],
    ] {
        let o = bt(args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        let out = args.last().unwrap();
        assert!(
            e.starts_with(&format!(
                "bt: error: could not write {out}: the folder /proc takes no new file: "
            )),
            "{args:?}: {e}"
        );
        assert!(
            !e.contains("bt-tmp") && !e.contains("at path"),
            "{args:?}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
    }
}
