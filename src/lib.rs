//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! `run` is the whole program behind `main`: it returns the exit code (0 all holds, 1 a check
//! failed, 2 usage or input error), and `Error` says what ended a run early.

pub mod capture;
pub mod cli;
pub mod output;
pub mod probe;
pub mod redact;
pub mod render;
pub mod source;
pub mod spec;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use cli::{Cli, ColorChoice, Command};
use source::Source;

/// What ends a run before it can report (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `--sysroot` names nothing.
    #[error("--sysroot '{0}': no such directory")]
    SysrootMissing(PathBuf),
    /// `--sysroot` names a file.
    #[error("--sysroot '{0}': not a directory")]
    SysrootNotDir(PathBuf),
    /// `--sysroot` holds no recorded machine at all.
    #[error("--sysroot '{0}': holds neither proc/ nor sys/; make one with `rigcheck capture DIR`")]
    SysrootEmpty(PathBuf),
    /// `capture` would overwrite something.
    #[error("'{0}' exists and is not empty; choose a new directory or pass --force")]
    WouldOverwrite(PathBuf),
    /// `sheet -o FILE` would replace a file.
    #[error("'{0}' exists; choose another file or pass --force")]
    OutputExists(PathBuf),
    /// `sheet --profile` before order checks are available.
    #[error("--profile '{0}': order checks are not available in this build")]
    ProfileUnavailable(String),
    /// Writing an output file or capture failed.
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// Runs one command line; returns the exit code.
pub fn run(cli: Cli) -> Result<u8, Error> {
    let color = use_color(cli.color);
    match cli.command {
        Some(Command::Capture(args)) => {
            if cli.sysroot.is_some() {
                eprintln!("rigcheck: capture records the live machine; --sysroot is ignored");
            }
            let summary = capture::capture(&args.dir, args.force)?;
            emit(summary.as_bytes())
        }
        Some(Command::Inventory(args)) => inventory(cli.sysroot.as_deref(), &args, color),
        Some(Command::Sheet(args)) => sheet(cli.sysroot.as_deref(), &args),
        None => inventory(cli.sysroot.as_deref(), &cli.inventory, color),
    }
}

fn inventory(sysroot: Option<&Path>, args: &cli::InventoryArgs, color: bool) -> Result<u8, Error> {
    let src = open_source(sysroot)?;
    let mut spec = probe::inventory(&src);
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    render::inventory(&spec, args.format, color, &mut buf).map_err(|e| Error::Io {
        path: "<output>".into(),
        source: e,
    })?;
    emit(&buf)
}

fn sheet(sysroot: Option<&Path>, args: &cli::SheetArgs) -> Result<u8, Error> {
    if let Some(p) = &args.profile {
        return Err(Error::ProfileUnavailable(p.clone()));
    }
    let src = open_source(sysroot)?;
    let mut spec = probe::inventory(&src);
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    render::sheet::write(&spec, None, args.format, &mut buf).map_err(|e| Error::Io {
        path: "<output>".into(),
        source: e,
    })?;
    match &args.output {
        Some(path) => {
            output::write_atomic(path, &buf, args.force)?;
            Ok(0)
        }
        None => emit(&buf),
    }
}

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
    if !dir.join("proc").exists() && !dir.join("sys").exists() {
        return Err(Error::SysrootEmpty(dir.into()));
    }
    Ok(Source::sysroot(dir))
}

/// Writes to stdout; a closed pipe (`rigcheck | head`) ends quietly with 0.
fn emit(bytes: &[u8]) -> Result<u8, Error> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
    }
}

/// `--color auto`: a terminal, `NO_COLOR` unset or empty, and `TERM` not `dumb`.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    }
}
