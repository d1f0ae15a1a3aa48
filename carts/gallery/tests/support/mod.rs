//! What the command-line tests share: running `bt` and reading what it printed.
#![allow(dead_code, reason = "each test file uses some of these")]

use std::process::{Command, Output};

/// The `bt` binary, ready for arguments.
pub fn bt_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bt"))
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
