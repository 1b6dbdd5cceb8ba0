//! The command layer: one module per subcommand, each with `exec(args, global)` returning the
//! exit code. This is the only place that turns command-line arguments into option structs,
//! opens the machine (live or `--sysroot`), reads the user's files and writes the output;
//! everything below it takes plain values.

pub mod bench;
pub mod capture;
pub mod diff;
pub mod fleet;
pub mod inventory;
pub mod preflight;
pub mod profile;
pub mod profiles;
pub mod sheet;
pub mod verify;

use std::io::IsTerminal;
use std::path::Path;

use crate::cli::ColorChoice;
use crate::error::Error;
use crate::fleet::{parse_report, Preflight};
use crate::io::read_input;
use crate::probe;
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
    // Linux captures hold proc/ and sys/; Windows and macOS ones the OS's answers.
    if !dir.join("proc").exists()
        && !dir.join("sys").exists()
        && !dir.join(probe::native::NATIVE_FILE).exists()
    {
        return Err(Error::SysrootEmpty(dir.into()));
    }
    Ok(Source::sysroot(dir))
}

/// A report for `diff`, `sheet --report` and `fleet`: a JSON file written by `--format json`
/// (bare, or wrapped by Ansible's `setup` module), or a sysroot directory, which is probed.
pub fn read_report(path: &Path) -> Result<(Spec, Option<Preflight>), Error> {
    if path.is_dir() {
        return Ok((probe::inventory(&open_source(Some(path))?), None));
    }
    let bad = |detail: String| Error::Report {
        path: path.into(),
        detail,
    };
    let bytes = read_input(path).map_err(|e| bad(e.to_string()))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| bad(format!("not UTF-8: {e}")))?;
    parse_report(text).map_err(bad)
}

/// The machine of a report (see `read_report`), without any preflight result it carries.
pub fn load_report(path: &Path) -> Result<Spec, Error> {
    read_report(path).map(|(spec, _)| spec)
}

/// `--color auto`: a terminal, `NO_COLOR` unset or empty, and `TERM` not `dumb`.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    }
}
