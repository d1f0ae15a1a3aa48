//! What the command-line tests share: running `bt` and reading what it printed (at the end, or
//! line by line as it runs), comparing a picture it wrote with a golden one, a cart made by
//! `bt new` and built, and (in `x11`) a private X server and xdotool for the tests that open
//! windows.
#![allow(dead_code, reason = "each test file uses some of these")]

use std::io::{BufRead as _, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use bt_test_support::{golden, ScratchDir};
use x11::{window_id, Killed, Xvfb};

pub mod x11;

/// The `bt` binary, ready for arguments.
pub fn bt_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
}

/// The names in `dir`, sorted.
pub fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `bt` with `args` and waits for it.
pub fn bt(args: &[&str]) -> Output {
    bt_command().args(args).output().expect("bt runs")
}

/// What it printed to stdout, lossily decoded.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed to stderr, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `command` and waits at most `limit` for it; past that it is killed and the test fails,
/// so a `bt` that would read or run for ever cannot hang the suite or eat the machine's memory.
pub fn output_within(command: &mut Command, limit: std::time::Duration) -> Output {
    use std::process::Stdio;
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bt runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait for bt").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("bt's output")
}

/// Set in the child process [`peak_rss_kib_of`] starts: the test it runs does its work and
/// reports its peak memory instead of checking it.
const MEASURED_CHILD: &str = "BT_TEST_MEASURED_CHILD";

/// Whether this process is the child [`peak_rss_kib_of`] started, which does the work.
pub fn is_measured_child() -> bool {
    std::env::var_os(MEASURED_CHILD).is_some()
}

/// In the measured child: prints the process's peak resident memory (`VmHWM` of
/// `/proc/self/status`, in KiB) for the parent to read.
pub fn report_peak_rss() {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("a VmHWM line");
    println!("peak-rss {}", line.trim_start_matches("VmHWM:").trim());
}

/// Runs the test `name` of this test binary again in a child process of its own, where
/// [`is_measured_child`] is true, and returns the peak resident memory in KiB it reported:
/// a measure of one piece of work alone, not of the tests around it. Memory, not time.
pub fn peak_rss_kib_of(name: &str) -> u64 {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([name, "--exact", "--nocapture", "--test-threads", "1"])
        .env(MEASURED_CHILD, "1")
        .output()
        .expect("the test binary runs");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let kib = text
        .lines()
        .find_map(|l| l.split("peak-rss ").nth(1))
        .and_then(|v| v.trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak-rss line in {text}"));
    println!("{name}: peak resident memory {kib} KiB");
    kib
}

/// The golden picture `name` in `tests/golden/`.
pub fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Runs `bt ARGS -o FILE` and compares the picture it wrote with `tests/golden/NAME`, pixel
/// by pixel, under the golden rule every BT test follows.
#[track_caller]
pub fn check_golden(args: &[&str], name: &str) {
    let dir = ScratchDir::new("cli");
    let out = dir.join(name);
    let mut full: Vec<&str> = args.to_vec();
    let out_str = out.to_str().unwrap();
    full.extend(["-o", out_str]);
    let o = bt(&full);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = image::open(&out).unwrap().to_rgba8();
    golden::assert_matches(
        &golden(name),
        golden::Rgba {
            width: got.width(),
            height: got.height(),
            pixels: got.as_raw(),
        },
    );
}

/// Lines a child prints on one of its pipes, as they come.
pub fn lines(pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The first line with `prefix`, waiting at most `limit`; every line seen goes into `seen`.
pub fn wait_for(
    rx: &Receiver<String>,
    prefix: &str,
    limit: Duration,
    seen: &mut Vec<String>,
) -> Option<String> {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        match rx.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if line.starts_with(prefix) {
                    return Some(line);
                }
            }
            Err(_) => return None,
        }
    }
}

/// A cart made by `bt new NAME` in `dir` and built; its folder and its program.
pub fn new_built_cart(dir: &ScratchDir, name: &str) -> (PathBuf, PathBuf) {
    let made = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .args(["new", name, "--path"])
        .arg(dir.path())
        // The shared build folder of the carts the tests make (see new_cart.rs).
        .env(
            "XDG_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("bt-cache"),
        )
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let cart = dir.join(name);
    // Built in this test's profile, into the cart's own target folder (its .cargo/config.toml;
    // this test's CARGO_TARGET_DIR would override it).
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(&cart)
        .args(["build", "--quiet"])
        .env_remove("CARGO_TARGET_DIR");
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        build.arg("--release");
        "release"
    };
    let built = build.output().unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let binary = cart.join("target").join(profile).join(name);
    (cart, binary)
}

/// `bt` (or a cart crate's own program) in a window under Xvfb, from its first frame on, its
/// output read line by line; killed when dropped.
pub struct Running {
    pub child: Killed,
    pub out: Receiver<String>,
    pub err: Receiver<String>,
    pub display: String,
    /// The X11 window id, as the window announced it.
    pub window: String,
}

impl Running {
    /// Starts `bt` (a command with both output streams piped) and waits (60 s at most) for the window of `cart` to show its first frame.
    pub fn start(x: &Xvfb, mut bt: Command, cart: &str) -> Running {
        let mut child = bt.spawn().expect("bt starts");
        let out = lines(child.stdout.take().expect("piped"));
        let err = lines(child.stderr.take().expect("piped"));
        let mut child = Killed(child);
        let mut seen = Vec::new();
        let announced = format!("running {cart}");
        let Some(line) = wait_for(&out, &announced, Duration::from_secs(60), &mut seen) else {
            let status = child.0.try_wait().ok().flatten();
            let stderr = err.try_iter().collect::<Vec<_>>().join("\n");
            panic!(
                "bt run opened no window within 60 s (exit {status:?}); stdout {seen:?}; \
                 stderr:\n{stderr}"
            );
        };
        Running {
            child,
            out,
            err,
            display: x.display.clone(),
            window: window_id(&line),
        }
    }
}
