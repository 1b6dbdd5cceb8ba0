//! The command layer: one module per subcommand, each with `exec(args, global)` returning the
//! exit code. This is the only place that turns command-line arguments into option structs,
//! opens the machine (live or `--sysroot`), reads the user's files and writes the output;
//! everything below it takes plain values.

pub mod bench;
pub mod capture;
pub mod completions;
pub mod diff;
pub mod fleet;
pub mod inventory;
pub mod man;
pub mod pager;
pub mod preflight;
pub mod profile;
pub mod profiles;
pub mod schema;
pub mod sheet;
pub mod verify;

use clap::ValueEnum;

use crate::cli::{ColorChoice, GlobalArgs};
use rigcheck::error::Error;
use std::process::ExitCode;

use crate::cli::{Cli, Command};
use rigcheck::render::json::Layout;
use rigcheck::render::Term;
pub use rigcheck::report_file::{is_capture, open_source, read_report};

/// Whether to colour: `--color always` or `never` as asked; `auto` colours a terminal
/// unless `NO_COLOR` is set (not empty), `CLICOLOR=0` or `TERM=dumb` (outside CI: with `CI`
/// set a terminal is coloured whatever `TERM` says, as CI logs render colour), and
/// `CLICOLOR_FORCE` (not `0`) colours even a pipe (the conventions anstream follows).
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            // anstream forces colour for any non-empty CLICOLOR_FORCE, `0` included; the
            // convention (bixense.com/clicolors) forces only for a value other than `0`.
            // So with `0` the choice is made as if it were unset.
            let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
            if var("CLICOLOR_FORCE").is_some_and(|v| v == "0") {
                let clicolor = var("CLICOLOR");
                return var("NO_COLOR").is_none()
                    && clicolor.as_ref().is_none_or(|v| v != "0")
                    && std::io::IsTerminal::is_terminal(&std::io::stdout())
                    && (!rigcheck::sys::COLOR_NEEDS_TERM
                        || var("TERM").is_some_and(|t| t != "dumb")
                        || clicolor.is_some()
                        || var("CI").is_some());
            }
            anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
        }
    }
}

/// The width tables are fitted to: `COLUMNS` when set (as `ls` and clap read it), else the
/// terminal on stdout; a pipe or a file gets no limit, so nothing is wrapped there.
pub fn out_width() -> Option<usize> {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0);
    columns.or_else(|| {
        terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0))
    })
}

/// Colour and width for a command's text output.
pub fn term(choice: ColorChoice) -> Term {
    Term {
        color: use_color(choice),
        width: out_width(),
    }
}

/// The output format of `command`: given after its name (`own`), or before it (`rigcheck
/// -f json verify`), where it must be one of the command's formats; `default` when neither.
/// Given in both places with different values, it is refused rather than one silently won.
/// Answered as the library's format (`F` is the command line's copy of it).
pub fn pick_format<F: ValueEnum + Copy + PartialEq + Into<L>, L>(
    command: &str,
    global: &GlobalArgs,
    own: Option<F>,
    default: L,
) -> Result<L, Error> {
    let before = match global.format {
        None => None,
        Some(any) => {
            let written = value_name(&any);
            match F::from_str(&written, false) {
                Ok(f) => Some(f),
                Err(_) => {
                    let valid: Vec<String> = F::value_variants().iter().map(value_name).collect();
                    return Err(Error::Usage(format!(
                        "--format {written}: {command} has no such format; use one of {}",
                        valid.join(", ")
                    )));
                }
            }
        }
    };
    match (before, own) {
        (Some(b), Some(a)) if a != b => Err(Error::Usage(format!(
            "--format: given twice, {} before `{command}` and {} after it; give it once",
            value_name(&b),
            value_name(&a)
        ))),
        (b, a) => Ok(a.or(b).map_or(default, Into::into)),
    }
}

/// The name a format is written with on the command line (`json`, `markdown`).
pub fn value_name<F: ValueEnum>(f: &F) -> String {
    f.to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

/// Refuses what a command with one uncoloured output that reads no sysroot cannot honour:
/// `--sysroot` (`why` says what to do instead), `--format` and `--color always`.
pub fn plain_output(command: &str, global: &GlobalArgs, why: &str) -> Result<(), Error> {
    no_sysroot(command, global, why)?;
    no_format(command, global)?;
    no_color(command, global)
}

/// The JSON layout of `command`'s output: one line with `--compact`, which only a JSON
/// output (`json`) has; with any other format it is refused rather than ignored.
pub fn json_layout(command: &str, compact: bool, json: bool) -> Result<Layout, Error> {
    match (compact, json) {
        (false, _) => Ok(Layout::Pretty),
        (true, true) => Ok(Layout::Compact),
        (true, false) => Err(Error::Usage(format!(
            "--compact: lays out {command}'s JSON on one line; give it with --format json"
        ))),
    }
}

/// Refuses `--format` before a command that has a single output.
pub fn no_format(command: &str, global: &GlobalArgs) -> Result<(), Error> {
    match global.format {
        Some(_) => Err(Error::Usage(format!(
            "--format: {command} has one output and no --format; leave it out"
        ))),
        None => Ok(()),
    }
}

/// Refuses `--sysroot` for a command that does not read a machine through it; `why` says
/// what the command reads instead and what to do.
pub fn no_sysroot(command: &str, global: &GlobalArgs, why: &str) -> Result<(), Error> {
    match &global.sysroot {
        Some(_) => Err(Error::Usage(format!("--sysroot: {command} {why}"))),
        None => Ok(()),
    }
}

/// Refuses `--color always` for a command whose output is never coloured (files, HTML,
/// TOML); `auto` and `never` already hold there.
pub fn no_color(command: &str, global: &GlobalArgs) -> Result<(), Error> {
    match global.color {
        ColorChoice::Always => Err(Error::Usage(format!(
            "--color always: {command} writes no colour; leave --color out"
        ))),
        _ => Ok(()),
    }
}

/// Runs one command line: dispatches to the command's `exec`.
pub fn run(cli: &Cli) -> Result<ExitCode, Error> {
    let g = &cli.global;
    // `--profile` before a command is the inventory's; another command's own `--profile`
    // goes after its name, so a stray one is refused rather than ignored.
    // So do `--section` and `--verbose`.
    if let Some(cmd) = &cli.command {
        let stray = [
            ("--profile", cli.profile.is_some()),
            ("--section", !cli.view.section.is_empty()),
            ("--verbose", cli.view.verbose),
            ("--compact", cli.view.compact),
        ];
        if let Some((flag, _)) = stray.iter().find(|(_, given)| *given) {
            if !matches!(cmd, Command::Inventory(_)) {
                return Err(Error::Usage(format!(
                    "{flag}: before a command it belongs to the inventory; write it after \
                     the command's name"
                )));
            }
        }
    }
    match &cli.command {
        Some(Command::Inventory(args)) => {
            let mut args = args.clone();
            if args.profile.is_some() && cli.profile.is_some() && args.profile != cli.profile {
                return Err(Error::Usage(
                    "--profile: given twice with different values; give it once".into(),
                ));
            }
            args.profile = args.profile.or_else(|| cli.profile.clone());
            if args.view.section.is_empty() {
                args.view.section = cli.view.section.clone();
            }
            args.view.verbose |= cli.view.verbose;
            args.view.compact |= cli.view.compact;
            inventory::exec(&args, g)
        }
        Some(Command::Capture(args)) => capture::exec(args, g),
        Some(Command::Verify(args)) => verify::exec(args, g),
        Some(Command::Profiles(args)) => profiles::exec(args, g),
        Some(Command::Profile(args)) => profile::exec(args, g),
        Some(Command::Diff(args)) => diff::exec(args, g),
        Some(Command::Preflight(args)) => preflight::exec(args, g),
        Some(Command::Sheet(args)) => sheet::exec(args, g),
        Some(Command::Fleet(args)) => fleet::exec(args, g),
        Some(Command::Bench(args)) => bench::exec(args, g),
        Some(Command::Completions(args)) => completions::exec(args, g),
        Some(Command::Man(args)) => man::exec(args, g),
        Some(Command::Schema(args)) => schema::exec(args, g),
        None => inventory::exec(
            &crate::cli::InventoryArgs {
                format: None,
                profile: cli.profile.clone(),
                view: cli.view.clone(),
            },
            g,
        ),
    }
}
