//! Building the cart's program for `bt dev`: Cargo's command, and what `bt dev` reads in its
//! output (the program built, the first error).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What `bt dev` builds: a cart crate's own program, or the gallery's `bt` in BT's workspace.
#[derive(Debug, Clone)]
pub(super) struct Target {
    /// The manifest Cargo builds from. Cargo runs in its folder: Cargo reads its settings
    /// (`.cargo/config.toml`: a cart's build folders and link settings) from the folder it
    /// runs in, not from the manifest's, and a build with other settings compiles every
    /// library again.
    pub manifest: PathBuf,
    /// The package, in a workspace of many.
    pub package: Option<String>,
    /// The program's name: this program's own.
    pub bin: String,
}

impl Target {
    /// `cargo build` of the program, in this program's profile (release, unless this one was
    /// built without optimisations), printing what it built as JSON on stdout and its messages
    /// as text, without colours, on stderr.
    pub fn command(&self, cargo: &Path) -> Command {
        let mut build = Command::new(cargo);
        if let Some(folder) = self.manifest.parent() {
            build.current_dir(folder);
        }
        build
            .arg("build")
            .arg("--manifest-path")
            .arg(&self.manifest)
            .args(["--message-format", "json-render-diagnostics"])
            .args(["--color", "never"]);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        if let Some(package) = &self.package {
            build.args(["--package", package]);
        }
        build.args(["--bin", &self.bin]);
        build
    }
}

/// Cargo: the one that ran this program (`cargo run` says which), else the one on the PATH.
pub(super) fn cargo() -> PathBuf {
    std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from)
}

/// The program a build made: the last artifact with an executable in Cargo's JSON messages.
pub(super) fn executable_in(messages: &str) -> Option<PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
}

/// The first error in Cargo's messages, on one line with its place when it has one, a place in
/// `crate_dir` named from there: `error[E0308]: mismatched types (src/lib.rs:12:5)`.
pub(super) fn first_error(messages: &str, crate_dir: &Path) -> Option<String> {
    let mut lines = messages.lines().map(str::trim_end);
    let error = lines.find(|l| l.starts_with("error"))?;
    let place = lines
        .take(3)
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|p| {
            let inside = Path::new(p).strip_prefix(crate_dir).ok();
            format!(" ({})", inside.map_or(p.into(), |i| i.to_string_lossy()))
        })
        .unwrap_or_default();
    Some(format!("{error}{place}"))
}

/// Cargo's messages without its progress lines (`Compiling`, `Finished` and the like), which
/// say nothing once the build failed.
pub(super) fn without_progress(messages: &str) -> String {
    let progress = [
        "Compiling ",
        "Finished ",
        "Blocking ",
        "Checking ",
        "Building ",
        "Fresh ",
        "Updating ",
        "Locking ",
        "Downloaded ",
        "Downloading ",
    ];
    messages
        .lines()
        .filter(|l| !progress.iter().any(|p| l.trim_start().starts_with(p)))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAILED: &str = "   Compiling robots v0.1.0 (/home/me/robots)
warning: unused variable: `x`
  --> src/lib.rs:3:9
   |
error[E0308]: mismatched types
  --> src/lib.rs:12:5
   |
12 |     let speed: f32 = \"fast\";
   |                ---   ^^^^^^ expected `f32`, found `&str`

error: could not compile `robots` (lib) due to 1 previous error
";

    #[test]
    fn the_first_error_is_one_line_with_its_place() {
        let here = Path::new("/home/me/robots");
        assert_eq!(
            first_error(FAILED, here).as_deref(),
            Some("error[E0308]: mismatched types (src/lib.rs:12:5)")
        );
        let absolute = FAILED.replace("--> src/lib.rs:12", "--> /home/me/robots/src/lib.rs:12");
        assert_eq!(
            first_error(&absolute, here).as_deref(),
            Some("error[E0308]: mismatched types (src/lib.rs:12:5)"),
            "a place in the cart's folder, named from there"
        );
        assert_eq!(
            first_error(&absolute, Path::new("/elsewhere")).as_deref(),
            Some("error[E0308]: mismatched types (/home/me/robots/src/lib.rs:12:5)")
        );
        assert_eq!(
            first_error("error: no matching package named `robot` found\n", here).as_deref(),
            Some("error: no matching package named `robot` found")
        );
        assert_eq!(
            first_error("warning: unused\n   Finished release\n", here),
            None
        );
    }

    #[test]
    fn the_built_program_is_read_from_cargo_s_messages() {
        let messages = r#"{"reason":"compiler-artifact","target":{"name":"bt"},"executable":null}
not json at all
{"reason":"compiler-artifact","target":{"name":"robots"},"executable":"/c/target/release/robots"}
{"reason":"build-finished","success":true}
"#;
        assert_eq!(
            executable_in(messages),
            Some(PathBuf::from("/c/target/release/robots"))
        );
        assert_eq!(executable_in("{\"reason\":\"build-finished\"}"), None);
    }

    #[test]
    fn progress_lines_are_left_out_of_a_failed_build_s_messages() {
        let shown = without_progress(FAILED);
        assert!(!shown.contains("Compiling"), "{shown}");
        assert!(shown.starts_with("warning: unused variable"), "{shown}");
        assert!(shown.contains("error[E0308]"), "{shown}");
    }

    #[test]
    fn the_build_is_of_this_program_in_this_profile() {
        let target = Target {
            manifest: PathBuf::from("/bt/Cargo.toml"),
            package: Some("bt-gallery".into()),
            bin: "bt".into(),
        };
        let build = target.command(Path::new("cargo"));
        let args: Vec<_> = build.get_args().map(|a| a.to_string_lossy()).collect();
        assert_eq!(args[..3], ["build", "--manifest-path", "/bt/Cargo.toml"]);
        assert_eq!(
            build.get_current_dir(),
            Some(Path::new("/bt")),
            "in the manifest's folder, whose .cargo/config.toml applies"
        );
        assert!(args.ends_with(&[
            "--package".into(),
            "bt-gallery".into(),
            "--bin".into(),
            "bt".into()
        ]));
        assert_eq!(args.contains(&"--release".into()), !cfg!(debug_assertions));
    }
}
