//! What the command-line tests share: running `bt` and reading what it printed, and (in
//! `x11`) a private X server for the tests that open windows.
#![allow(dead_code, reason = "each test file uses some of these")]

use std::process::{Command, Output};

pub mod x11;

/// The `bt` binary, ready for arguments.
pub fn bt_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bt"))
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
