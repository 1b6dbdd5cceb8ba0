//! Command-line mistakes as clap reports them, in rigcheck's one error shape on one line.

use std::process::ExitCode;

/// Prints a command-line error as clap found it, in rigcheck's one error shape on one line
/// (`rigcheck: <what>: <why>; <fix>`), and returns exit code 2; `--help` and `--version`
/// are printed as clap prints them, with exit code 0.
pub fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    eprintln!("rigcheck: {}", rigcheck::io::error_line(&usage_line(e)));
    ExitCode::from(rigcheck::outcome::EXIT_ERROR)
}

/// The one-line message of a command-line error (without the `rigcheck: ` prefix).
pub fn usage_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind as K, ContextValue as V, ErrorKind};
    let all = |k: K| -> Vec<String> {
        match e.get(k) {
            Some(V::String(s)) => vec![s.clone()],
            Some(V::Strings(v)) => v.clone(),
            Some(V::StyledStr(s)) => vec![s.to_string()],
            Some(V::StyledStrs(v)) => v.iter().map(|s| s.to_string()).collect(),
            Some(V::Number(n)) => vec![n.to_string()],
            _ => Vec::new(),
        }
    };
    let one = |k: K| all(k).into_iter().next();
    // `--format <FORMAT>` → `--format`: the flag as the user writes it.
    let flag = |s: String| s.split_whitespace().next().unwrap_or_default().to_string();
    // The command the error is about, from clap's usage line: `rigcheck verify`.
    let command = one(K::Usage)
        .map(|u| {
            u.split_whitespace()
                .skip_while(|w| *w != "rigcheck")
                .take_while(|w| {
                    !w.starts_with('-') && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "rigcheck".into());
    let help = match command.strip_prefix("rigcheck ") {
        Some(sub) => format!("`rigcheck help {sub}` lists its options"),
        None => "`rigcheck --help` lists the options".to_string(),
    };
    // `verify` rather than `rigcheck verify`: the line already starts with `rigcheck: `.
    let full = command.clone();
    let command = command
        .strip_prefix("rigcheck ")
        .map_or(command.clone(), str::to_string);
    let arg = one(K::InvalidArg).map(flag).unwrap_or_default();
    let value = one(K::InvalidValue).unwrap_or_default();
    match e.kind() {
        ErrorKind::InvalidValue if value.is_empty() => {
            format!("{arg}: needs a value; {help}")
        }
        ErrorKind::InvalidValue => {
            let valid = all(K::ValidValue);
            let fix = match one(K::SuggestedValue) {
                Some(s) => format!("did you mean '{s}'? use one of {}", valid.join(", ")),
                None if valid.is_empty() => help,
                None => format!("use one of {}", valid.join(", ")),
            };
            format!("{arg} '{value}': not a value it takes; {fix}")
        }
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e)
                .map(|s| s.to_string())
                .unwrap_or_else(|| "not valid".into());
            // Our parsers already say `'<value>' ...; <fix>`.
            format!("{arg}: {why}")
        }
        ErrorKind::UnknownArgument => {
            let fix = match one(K::SuggestedArg) {
                Some(s) => format!("did you mean {}?", flag(s)),
                None => help,
            };
            let arg = flag(one(K::InvalidArg).unwrap_or_default());
            format!("{arg}: not an option of {command}; {fix}")
        }
        ErrorKind::InvalidSubcommand => {
            let bad = one(K::InvalidSubcommand).unwrap_or_default();
            let fix = match one(K::SuggestedSubcommand) {
                Some(s) => format!("did you mean '{s}'? `{full} --help` lists the commands"),
                None => format!("`{full} --help` lists the commands"),
            };
            format!("'{bad}': not a command of {command}; {fix}")
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = all(K::InvalidArg)
                .into_iter()
                .map(|m| m.replace(['<', '>'], ""))
                .collect();
            format!("{command}: {} is required; {help}", missing.join(", "))
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // clap prints the help here; its usage line names the command.
            let text = e.render().to_string();
            let named: Vec<&str> = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("Usage: "))
                .map(|u| {
                    u.split_whitespace()
                        .take_while(|w| !w.starts_with(['[', '<', '-']))
                        .collect()
                })
                .unwrap_or_default();
            let full = if named.is_empty() {
                full
            } else {
                named.join(" ")
            };
            let command = full.strip_prefix("rigcheck ").unwrap_or(&full);
            format!("{command}: needs a subcommand; `{full} --help` lists them")
        }
        ErrorKind::ArgumentConflict => {
            let other = one(K::PriorArg).map(flag).unwrap_or_default();
            if other == arg || other.is_empty() {
                format!("{arg}: given more than once; give it once")
            } else {
                format!("{arg}: cannot be used with {other}; give only one of them")
            }
        }
        ErrorKind::TooManyValues | ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            format!("{arg}: wrong number of values; {help}")
        }
        _ => {
            // Anything else clap reports: its first line, in our shape.
            let text = e.render().to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string();
            format!("{command}: {first}; {help}")
        }
    }
}
