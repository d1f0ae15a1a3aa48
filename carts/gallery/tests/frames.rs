//! `bt frames`: a numbered PNG sequence, each file the picture `bt shot --at` saves at its time,
//! in a folder that appears whole or not at all.

mod support;

use std::path::Path;

use bt_test_support::ScratchDir;
use support::{bt, names, stderr, stdout};

/// `bt frames ARGS -o OUT`, unless `args` name the output themselves.
fn frames(args: &[&str], out: &Path) -> std::process::Output {
    let mut all = vec!["frames"];
    all.extend_from_slice(args);
    if !args.contains(&"-o") {
        all.extend_from_slice(&["-o", out.to_str().unwrap()]);
    }
    bt(&all)
}

#[test]
fn every_frame_is_the_shot_at_its_time_and_to_is_included() {
    let dir = ScratchDir::new("frames");
    let out = dir.join("hello");
    let o = frames(
        &["hello", "--from", "1", "--to", "1.3", "--every", "0.1"],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        names(&out),
        [
            "frame_00000.png",
            "frame_00001.png",
            "frame_00002.png",
            "frame_00003.png"
        ],
        "1, 1.1, 1.2 and 1.3 s: a `to` the steps reach is included"
    );
    assert!(
        stdout(&o).starts_with(&format!("wrote 4 frames to {}", out.display())),
        "{}",
        stdout(&o)
    );
    for (k, at) in ["1", "1.1", "1.2", "1.3"].iter().enumerate() {
        let shot = dir.join(format!("shot-{k}.png"));
        let s = bt(&["shot", "hello", "--at", at, "-o", shot.to_str().unwrap()]);
        assert!(s.status.success(), "{}", stderr(&s));
        assert_eq!(
            std::fs::read(out.join(format!("frame_{k:05}.png"))).unwrap(),
            std::fs::read(&shot).unwrap(),
            "frame {k} is `bt shot --at {at}`, byte for byte"
        );
    }
    assert_eq!(names(dir.path()).len(), 5, "no staging folder is left");
}

#[test]
fn bad_ranges_are_refused_naming_the_flag_and_value_before_any_work() {
    let dir = ScratchDir::new("frames-bad");
    let out = dir.join("out");
    for (args, says) in [
        (
            vec!["hello", "--from", "3", "--to", "2", "--every", "1"],
            "--to 2 is before --from 3",
        ),
        (
            vec!["hello", "--to", "2", "--every", "0"],
            "'--every <SECONDS>': 0 is no step forward",
        ),
        (
            vec!["hello", "--to", "2", "--every", "-0.5"],
            "'--every <SECONDS>': -0.5 is no step forward",
        ),
        (
            vec!["hello", "--to", "2", "--every", "NaN"],
            "'--every <SECONDS>': 'NaN' is not a number",
        ),
        (
            vec!["hello", "--to", "1", "--every", "1", "-o", "-"],
            "-o -: bt frames writes a folder of files, not a stream",
        ),
        (
            vec!["hello", "--to", "1000", "--every", "0.001"],
            "--from 0 --to 1000 --every 0.001 makes 1000001 frames; bt frames writes at most 100000",
        ),
    ] {
        let o = frames(&args, &out);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
    assert!(names(dir.path()).is_empty(), "nothing was made");
}

#[test]
fn a_folder_with_files_is_never_touched_and_a_failed_run_leaves_nothing() {
    let dir = ScratchDir::new("frames-keep");
    let full = dir.join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("mine.txt"), b"precious").unwrap();
    let o = frames(&["hello", "--to", "1", "--every", "0.5"], &full);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("full: the folder is not empty"), "{err}");
    assert_eq!(names(&full), ["mine.txt"]);

    // An empty folder is filled.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = frames(&["hello", "--to", "0.5", "--every", "0.5"], &empty);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&empty), ["frame_00000.png", "frame_00001.png"]);

    // A cart that panics part way: no folder, and no staging folder beside it.
    let broken = dir.join("broken");
    let o = frames(
        &[
            "panic",
            "--arg",
            "panic_at=30",
            "--to",
            "2",
            "--every",
            "0.25",
        ],
        &broken,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("frame 3 (at 0.75 s)"), "{}", stderr(&o));
    assert_eq!(names(dir.path()), ["empty", "full"]);
}

#[test]
fn overlay_frames_draw_the_overlay_over_the_same_cart_pictures() {
    let dir = ScratchDir::new("frames-overlay");
    let (plain, drawn) = (dir.join("plain"), dir.join("drawn"));
    let range = ["timers", "--from", "2", "--to", "2.5", "--every", "0.25"];
    let o = frames(&range, &plain);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut with = range.to_vec();
    with.extend(["--overlay", "--fixed-costs"]);
    let o = frames(&with, &drawn);
    assert!(o.status.success(), "{}", stderr(&o));
    let rgba = |path: &Path| image::open(path).unwrap().to_rgba8();
    for name in names(&plain) {
        let (p, d) = (rgba(&plain.join(&name)), rgba(&drawn.join(&name)));
        let row = |img: &image::RgbaImage, y: u32| {
            (0..img.width())
                .map(|x| img.get_pixel(x, y).0)
                .collect::<Vec<_>>()
        };
        assert_ne!(row(&p, 20), row(&d, 20), "{name}: the metrics row is drawn");
        assert_eq!(
            row(&p, 120),
            row(&d, 120),
            "{name}: the cart's picture is the same"
        );
    }
    // The first frame is what `bt shot --overlay` saves at its time.
    let shot = dir.join("shot.png");
    let o = bt(&[
        "shot",
        "timers",
        "--at",
        "2",
        "--overlay",
        "--fixed-costs",
        "-o",
        shot.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&shot).unwrap(),
        std::fs::read(drawn.join("frame_00000.png")).unwrap()
    );
}
