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
pub mod preflight;
pub mod profile;
pub mod profiles;
pub mod sheet;
pub mod verify;

use std::path::Path;

use clap::ValueEnum;

use crate::cli::{ColorChoice, GlobalArgs};
use crate::error::Error;
use crate::fleet::{parse_report, Preflight};
use crate::io::read_input_into;
use crate::probe;
use crate::render::Term;
use crate::source::Source;
use crate::spec::Spec;

/// The live host, or the recorded machine under `sysroot` after checking it is one.
pub fn open_source(sysroot: Option<&Path>) -> Result<Source, Error> {
    let Some(dir) = sysroot else {
        return Ok(Source::live());
    };
    match std::fs::metadata(dir) {
        Err(_) => return Err(Error::SysrootMissing(dir.into())),
        Ok(m) if !m.is_dir() => return Err(Error::SysrootNotDir(dir.into())),
        Ok(_) => {}
    }
    if !is_capture(dir) {
        return Err(Error::SysrootEmpty(dir.into()));
    }
    Ok(Source::sysroot(dir))
}

/// Whether `dir` is a recorded machine `--sysroot` replays: Linux captures hold proc/ and
/// sys/, Windows and macOS ones the OS's answers (native.json).
pub fn is_capture(dir: &Path) -> bool {
    dir.join("proc").exists()
        || dir.join("sys").exists()
        || dir.join(probe::native::NATIVE_FILE).exists()
}

/// A report for `diff`, `sheet --report` and `fleet`: a JSON file written by `--format json`
/// (bare, or wrapped by Ansible's `setup` module; `-` reads standard input), or a sysroot
/// directory, which is probed.
pub fn read_report(path: &Path) -> Result<(Spec, Option<Preflight>), Error> {
    let bad = |detail: String| Error::Report {
        path: path.into(),
        detail,
    };
    // One buffer per thread: fleet's workers read thousands of reports each, and a fresh
    // allocation of a report's size per file showed in its profile.
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with_borrow_mut(|bytes| {
        match read_input_into(path, bytes) {
            Ok(()) => {}
            // A directory is a capture, replayed. Asked only when the read fails (a directory
            // opens but does not read on Unix, and does not open on Windows): fleet reads
            // thousands of files, and a `stat` of each before its read would be one call in
            // five.
            Err(_) if path != Path::new("-") && path.is_dir() => {
                return Ok((probe::inventory(&open_source(Some(path))?), None));
            }
            Err(e) => return Err(bad(crate::error::describe(&e))),
        }
        let text = std::str::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8: {e}")))?;
        // A stranger's report may carry escape sequences in any string: cleaned before use.
        parse_report(&crate::text::clean_json(text)).map_err(bad)
    })
}

/// The machine of a report (see `read_report`), without any preflight result it carries.
pub fn load_report(path: &Path) -> Result<Spec, Error> {
    read_report(path).map(|(spec, _)| spec)
}

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
                    && (cfg!(windows)
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
pub fn pick_format<F: ValueEnum + Copy + PartialEq>(
    command: &str,
    global: &GlobalArgs,
    own: Option<F>,
    default: F,
) -> Result<F, Error> {
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
        (b, a) => Ok(a.or(b).unwrap_or(default)),
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
