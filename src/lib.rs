//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! `run` is the whole program behind `main`: it returns the exit code (0 all holds, 1 a check
//! failed, 2 usage or input error), and `Error` says what ended a run early.

pub mod bench;
pub mod capture;
pub mod cli;
pub mod probe;
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
        Some(Command::Bench(args)) => bench::run_command(cli.sysroot.as_deref(), &args),
        Some(Command::Inventory(args)) => inventory(cli.sysroot.as_deref(), &args, color),
        None => inventory(cli.sysroot.as_deref(), &cli.inventory, color),
    }
}

fn inventory(sysroot: Option<&Path>, args: &cli::InventoryArgs, color: bool) -> Result<u8, Error> {
    let src = open_source(sysroot)?;
    let spec = probe::inventory(&src);
    let mut buf = Vec::new();
    render::inventory(&spec, args.format, color, &mut buf).map_err(|e| Error::Io {
        path: "<output>".into(),
        source: e,
    })?;
    emit(&buf)
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
