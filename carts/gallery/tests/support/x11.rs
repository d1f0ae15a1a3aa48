//! A private X server (Xvfb) and child processes that cannot outlive a test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

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
