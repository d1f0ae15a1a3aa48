//! Command lines that do not parse, said the way a user can act on: a flag a command does not
//! take is named as such, with the commands that do take it, instead of clap's advice to pass
//! it after `--` (no command here takes a flag-like value there, so that advice never helps).

use std::ffi::OsString;

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;

use super::args::Cli;
use crate::clock::capture::CaptureError;
use crate::clock::spec::SpecError;

/// `e` from parsing `argv`, with the advice to pass an unknown flag after `--` replaced by
/// which command takes it. Other errors come back as they were.
pub(super) fn explained(mut e: clap::Error, argv: &[OsString]) -> clap::Error {
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return e;
    };
    let Some(flag) = flag_name(arg).map(str::to_string) else {
        return e;
    };
    let mut tips: Vec<StyledStr> = match e.remove(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => tips
            .into_iter()
            .filter(|t| !t.to_string().contains("use '-- "))
            .collect(),
        _ => Vec::new(),
    };
    if let Some(sub) = subcommand_of(argv) {
        tips.insert(0, StyledStr::from(flag_elsewhere(&sub, &flag)));
    }
    e.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    e
}

/// The capture file a `--clock capture:FILE` names, when it is what failed (missing, unreadable,
/// not a capture, no stream its selector names): a problem with the file, not with the command
/// line, so not a usage error. A malformed spec (`capture:` with no file) stays one.
pub(super) fn unreadable_capture(e: &clap::Error) -> Option<&CaptureError> {
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    match std::error::Error::source(e)?.downcast_ref::<SpecError>()? {
        SpecError::Capture(capture) => Some(capture),
        _ => None,
    }
}

/// The option's name in `arg` (`--chart=tall` names `chart`, `-x` names `x`); `None` for a
/// bare `-` or `--`.
fn flag_name(arg: &str) -> Option<&str> {
    let name = arg
        .strip_prefix("--")
        .or_else(|| arg.strip_prefix('-'))?
        .split('=')
        .next()?;
    (!name.is_empty()).then_some(name)
}

/// The command `argv` runs, when it names one.
fn subcommand_of(argv: &[OsString]) -> Option<String> {
    let cli = Cli::command();
    argv.iter().skip(1).find_map(|a| {
        let a = a.to_str()?;
        cli.find_subcommand(a).map(|s| s.get_name().to_string())
    })
}

/// `'sub' takes no '--flag'`, and which commands do.
fn flag_elsewhere(sub: &str, flag: &str) -> String {
    let cli = Cli::command();
    let dash = if flag.chars().count() == 1 { "-" } else { "--" };
    let takers: Vec<&str> = cli
        .get_subcommands()
        .filter(|s| {
            s.get_arguments().any(|a| {
                a.get_long() == Some(flag)
                    || (flag.chars().count() == 1 && a.get_short() == flag.chars().next())
            })
        })
        .map(|s| s.get_name())
        .collect();
    let mut line = format!("'{sub}' takes no '{dash}{flag}'");
    match takers.as_slice() {
        [] => {}
        [one] => line.push_str(&format!("; '{one}' does")),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|s| format!("'{s}'")).collect();
            line.push_str(&format!("; {} and '{last}' do", rest.join(", ")));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn message(args: &[&str]) -> String {
        let argv: Vec<OsString> = args.iter().map(OsString::from).collect();
        let e = Cli::try_parse_from(&argv).expect_err("does not parse");
        explained(e, &argv).render().to_string()
    }

    #[test]
    fn a_flag_the_command_does_not_take_is_named_without_the_double_dash_tip() {
        let m = message(&["bt", "replay", "run1.btr", "--chart", "compact"]);
        assert!(!m.contains("-- --chart"), "{m}");
        assert!(m.contains("unexpected argument '--chart'"), "{m}");
        assert!(m.contains("'replay' takes no '--chart'; "), "{m}");
        // The commands that draw the overlay's chart do take it.
        for taker in ["'shot'", "'gif'"] {
            assert!(m.contains(taker), "{m}");
        }
        assert!(m.contains("Usage: bt replay"), "{m}");
    }

    #[test]
    fn a_flag_no_command_takes_is_named_alone() {
        let m = message(&["bt", "replay", "run1.btr", "--nonsense=1"]);
        assert!(m.contains("'replay' takes no '--nonsense'\n"), "{m}");
        assert!(!m.contains("-- --nonsense"), "{m}");
    }

    #[test]
    fn a_near_miss_keeps_clap_s_suggestion() {
        let m = message(&["bt", "replay", "run1.btr", "--verfy"]);
        assert!(m.contains("--verify"), "{m}");
    }

    #[test]
    fn other_errors_are_left_as_clap_says_them() {
        let argv: Vec<OsString> = ["bt", "shot", "--at", "1"].map(OsString::from).to_vec();
        let e = Cli::try_parse_from(&argv).unwrap_err();
        let before = e.render().to_string();
        assert_eq!(explained(e, &argv).render().to_string(), before);
    }
}
