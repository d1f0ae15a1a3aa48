//! Commands the program prints as advice, written for the way it is started, so each runs as
//! printed: `bt shot snake …` from the gallery, `cargo run --release -- shot …` in a cart
//! crate, `./game shot …` for a game made by `bt export`.
//!
//! Every piece of advice that names a command is made here, and the tests parse each one
//! with the real command line.

use super::Offer;

/// How the running program is started from a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Program {
    /// The `bt` binary of many carts: a command names its cart.
    Gallery,
    /// A cart crate's own binary, run through cargo in the crate's folder.
    CartCrate,
    /// A game made by `bt export`, started by its path (as `./game`).
    Exported(String),
}

impl Program {
    /// `sub` with `args` as typed in a shell, for the cart `cart` (named only where the
    /// program needs it, and not at all when empty): every word quoted when the shell would
    /// split or expand it.
    pub(crate) fn command(&self, cart: &str, sub: &str, args: &[&str]) -> String {
        let mut words: Vec<String> = match self {
            Program::Gallery if cart.is_empty() => vec!["bt".into(), sub.into()],
            Program::Gallery => vec!["bt".into(), sub.into(), shell_word(cart)],
            Program::CartCrate => ["cargo", "run", "--release", "--", sub]
                .map(String::from)
                .to_vec(),
            Program::Exported(exe) => vec![shell_word(exe), sub.into()],
        };
        words.extend(args.iter().map(|a| shell_word(a)));
        words.join(" ")
    }

    /// As [`Program::command`], through a release build: what a debug build advises instead
    /// of itself.
    pub(crate) fn release_command(&self, cart: &str, sub: &str, args: &[&str]) -> String {
        match self {
            Program::Gallery => {
                let mut words = vec!["cargo run --release --bin bt --".to_string(), sub.into()];
                words.push(shell_word(cart));
                words.extend(args.iter().map(|a| shell_word(a)));
                words.join(" ")
            }
            _ => Program::CartCrate.command(cart, sub, args),
        }
    }
}

impl Offer {
    /// How this program is started: a gallery, a cart crate, or a game it exported (which
    /// carries its cart's files). Looked at only when advice is printed.
    pub(crate) fn program(&self) -> Program {
        match self {
            Offer::Gallery(_) => Program::Gallery,
            Offer::Single { .. } => match super::bundle::own() {
                Ok(Some(_)) => Program::Exported(exe_as_typed()),
                _ => Program::CartCrate,
            },
        }
    }
}

/// The running program as a shell in its folder starts it: `./name`.
fn exe_as_typed() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_name().map(|n| n.to_string_lossy().into_owned()))
        .map_or_else(|| "./game".to_string(), |name| format!("./{name}"))
}

/// `word` as one shell word: as it is when no shell would change it, else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// `replay --verify` found a frame that differs: the shot of that moment from the replay.
pub(crate) fn shot_of_replay(program: &Program, cart: &str, replay: &str, seconds: f64) -> String {
    let at = seconds.to_string();
    program.command(
        cart,
        "shot",
        &["--input", replay, "--at", &at, "-o", "diff.png"],
    )
}

/// A debug build was asked to export: the same export from a release build.
pub(crate) fn export_from_release(program: &Program, cart: &str, output: &str) -> String {
    program.release_command(cart, "export", &["-o", output])
}

/// A cart crate's program cannot find its folder: the export that makes a game which needs
/// none, run in the cart's folder.
pub(crate) fn export_in_cart_folder(output: &str) -> String {
    Program::CartCrate.command("", "export", &["-o", output])
}

/// What `bt new` tells its user to try in the new cart's folder.
pub(crate) fn new_cart_first_steps() -> [String; 2] {
    [
        Program::CartCrate.command("", "run", &[]),
        Program::CartCrate.command("", "shot", &["--at", "2", "-o", "shot.png"]),
    ]
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::args::Cli;

    /// A printed command split as a POSIX shell splits it (plain words and single quotes).
    fn shell_split(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\'' => {
                    quoted = !quoted;
                    any = true;
                }
                ' ' if !quoted => {
                    if any || !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                    any = false;
                }
                '\\' if !quoted => word.extend(chars.next()),
                c => word.push(c),
            }
        }
        if any || !word.is_empty() {
            words.push(word);
        }
        words
    }

    /// The arguments the program gets from `line` as its form starts it: after `bt`, after
    /// cargo's `--`, after the game's path.
    fn program_args(program: &Program, line: &str) -> Vec<String> {
        let words = shell_split(line);
        let skip = match program {
            Program::Gallery if words[0] == "bt" => 1,
            Program::Gallery | Program::CartCrate => {
                assert_eq!(words[..3], ["cargo", "run", "--release"], "{line}");
                words.iter().position(|w| w == "--").expect("cargo's --") + 1
            }
            Program::Exported(exe) => {
                assert_eq!(&words[0], exe, "{line}");
                1
            }
        };
        words[skip..].to_vec()
    }

    fn assert_parses(program: &Program, line: &str) {
        let mut argv = vec!["bt".to_string()];
        argv.extend(program_args(program, line));
        if let Err(e) = Cli::try_parse_from(&argv) {
            panic!("`{line}` does not parse: {e}");
        }
    }

    fn forms() -> [Program; 3] {
        [
            Program::Gallery,
            Program::CartCrate,
            Program::Exported("./my game".into()),
        ]
    }

    #[test]
    fn the_shot_of_a_differing_replay_frame_runs_as_printed_in_every_program_form() {
        for program in forms() {
            for replay in ["run1.btr", "my runs/it's.btr"] {
                let line = shot_of_replay(&program, "snake", replay, 2.0);
                assert_parses(&program, &line);
                assert!(line.contains("--at 2 -o diff.png"), "{line}");
            }
        }
        assert_eq!(
            shot_of_replay(&Program::CartCrate, "hello", "run1.btr", 2.0),
            "cargo run --release -- shot --input run1.btr --at 2 -o diff.png"
        );
        assert_eq!(
            shot_of_replay(&Program::Gallery, "snake", "run1.btr", 2.0),
            "bt shot snake --input run1.btr --at 2 -o diff.png"
        );
    }

    #[test]
    fn a_moment_between_seconds_is_printed_exactly_enough_to_seek_to_it() {
        let line = shot_of_replay(&Program::Gallery, "snake", "r.btr", 121.0 / 60.0);
        let at: f64 = shell_split(&line)[6].parse().unwrap();
        assert_eq!(crate::fixed_loop::tick_at(at, 60.0), Ok(121), "{line}");
    }

    #[test]
    fn the_export_advice_runs_as_printed() {
        for program in forms() {
            // Through cargo, whatever the program: the advice is for whoever builds it.
            let through = match program {
                Program::Gallery => Program::Gallery,
                _ => Program::CartCrate,
            };
            assert_parses(&through, &export_from_release(&program, "snake", "snake"));
        }
        assert_eq!(
            export_from_release(&Program::Gallery, "snake", "snake"),
            "cargo run --release --bin bt -- export snake -o snake"
        );
        let moved = export_in_cart_folder("my game");
        assert_eq!(moved, "cargo run --release -- export -o 'my game'");
        assert_parses(&Program::CartCrate, &moved);
    }

    #[test]
    fn a_new_cart_s_first_steps_run_as_printed() {
        for line in new_cart_first_steps() {
            assert_parses(&Program::CartCrate, &line);
        }
    }

    #[test]
    fn shell_words_survive_a_shell() {
        for word in ["plain.btr", "a b", "it's", "$HOME", "", "x;y", "é"] {
            assert_eq!(shell_split(&shell_word(word)), [word], "{word}");
        }
    }
}
