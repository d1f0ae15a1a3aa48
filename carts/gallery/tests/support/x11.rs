//! A private X server (Xvfb) and child processes that cannot outlive a test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Kills its process when dropped.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether `tool` is an executable on the PATH.
pub fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

/// An X server of our own, stopped when dropped.
pub struct Xvfb {
    _server: Killed,
    /// Its display, as `:N`.
    pub display: String,
}

/// Starts Xvfb on a free display (it picks one and prints it).
pub fn start_xvfb() -> Result<Xvfb, String> {
    let mut server = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x1024x24"])
        .args(["-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("Xvfb would not start: {e}"))?;
    let out = server.stdout.take().expect("piped");
    let server = Killed(server);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let number = rx
        .recv_timeout(Duration::from_secs(15))
        .map_err(|_| "Xvfb printed no display number within 15 s".to_string())?;
    Ok(Xvfb {
        _server: server,
        display: format!(":{}", number.trim()),
    })
}

/// Runs xdotool with a deadline of 10 s.
pub fn xdotool(display: &str, args: &[&str]) {
    xdotool_within(display, args, Duration::from_secs(10));
}

/// Runs xdotool (which may chain many commands) with a deadline.
pub fn xdotool_within(display: &str, args: &[&str], limit: Duration) {
    let mut child = Killed(
        Command::new("xdotool")
            .args(args)
            .env("DISPLAY", display)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("xdotool starts"),
    );
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.0.try_wait().expect("xdotool status") {
            assert!(status.success(), "xdotool {args:?} failed: {status}");
            return;
        }
        assert!(
            Instant::now() < deadline,
            "xdotool {args:?} did not finish in {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The window id in `bt run`'s "running ... (..., X11 window N)" line.
pub fn window_id(line: &str) -> String {
    line.rsplit("X11 window ")
        .next()
        .and_then(|s| s.trim_end_matches(')').parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no X11 window id in {line:?}"))
        .to_string()
}
