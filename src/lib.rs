//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! `run` is the whole program behind `main`: it returns the exit code (0 all holds, 1 a check
//! failed, 2 usage or input error), and `Error` says what ended a run early.

pub mod bench;
pub mod capture;
pub mod cli;
pub mod diff;
pub mod fleet;
pub mod natural;
pub mod output;
pub mod preflight;
pub mod probe;
pub mod profile;
pub mod redact;
pub mod render;
pub mod source;
pub mod spec;
pub mod units;
pub mod verify;

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
    /// `capture` or `-o` would overwrite something.
    #[error("'{0}' exists; choose another name or pass --force")]
    WouldOverwrite(PathBuf),
    /// A profile could not be read or is malformed (already placed at file:line:column).
    #[error("{0}")]
    Profile(#[from] profile::ProfileError),
    /// A report given to `diff` could not be read.
    #[error("{path}: {detail}")]
    Report { path: PathBuf, detail: String },
    /// `fleet` found no report at all under the paths given.
    #[error("no reports (*.json files or sysroots) found in {}", .0.iter().map(|p| format!("'{}'", p.display())).collect::<Vec<_>>().join(", "))]
    NoReports(Vec<PathBuf>),
    /// A name that is not a built-in profile.
    #[error("no built-in profile '{0}'; `rigcheck profiles` lists them")]
    NoSuchProfile(String),
    /// A capture was stopped by a signal; nothing was left behind.
    #[error("capture interrupted; the partial capture was removed")]
    Interrupted,
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
        Some(Command::Preflight(args)) => preflight::run(cli.sysroot.as_deref(), &args, color),
        Some(Command::Bench(args)) => bench::run_command(cli.sysroot.as_deref(), &args),
        Some(Command::Inventory(args)) => inventory(cli.sysroot.as_deref(), &args, color),
        Some(Command::Verify(args)) => {
            let profile = profile::load(&args.profile)?;
            let spec = probe::inventory(&open_source(cli.sysroot.as_deref())?);
            let report = verify::verify(&spec, &profile, args.strict);
            let mut buf = Vec::new();
            render::verify::write(&report, args.format, color, &mut buf).map_err(|e| {
                Error::Io {
                    path: "<output>".into(),
                    source: e,
                }
            })?;
            emit(&buf)?;
            Ok(report.exit_code())
        }
        Some(Command::Profiles(args)) => match args.action {
            None => {
                let mut out = String::new();
                for (name, text) in profile::BUILTIN {
                    let p = profile::parse(text, name, name)?;
                    out.push_str(&format!("{name}\t{}\n", p.description.unwrap_or_default()));
                }
                emit(out.as_bytes())
            }
            Some(cli::ProfilesAction::Show { name }) => {
                match profile::BUILTIN.iter().find(|(n, _)| *n == name) {
                    Some((_, text)) => emit(text.as_bytes()),
                    None => Err(Error::NoSuchProfile(name)),
                }
            }
        },
        Some(Command::Profile(args)) => match args.action {
            cli::ProfileAction::New {
                name,
                output,
                force,
            } => {
                let spec = probe::inventory(&open_source(cli.sysroot.as_deref())?);
                let name = name
                    .or_else(|| spec.hostname.clone())
                    .unwrap_or_else(|| "my-machine".into());
                let text = profile::from_spec(&spec, &name);
                match output {
                    Some(path) => {
                        output::write_atomic(&path, text.as_bytes(), force)?;
                        Ok(0)
                    }
                    None => emit(text.as_bytes()),
                }
            }
        },
        Some(Command::Diff(args)) => {
            let a = load_report(&args.before)?;
            let b = load_report(&args.after)?;
            let changes = diff::diff(&a, &b);
            let mut buf = Vec::new();
            render::diff::write(&changes, args.format, &mut buf).map_err(|e| Error::Io {
                path: "<output>".into(),
                source: e,
            })?;
            emit(&buf)?;
            Ok(u8::from(diff::has_hardware_changes(&changes)))
        }
        Some(Command::Sheet(args)) => sheet(cli.sysroot.as_deref(), &args),
        Some(Command::Fleet(args)) => {
            let profile = match &args.profile {
                Some(p) => Some(profile::load(p)?),
                None => None,
            };
            let fleet = fleet::load(&args.reports, profile.as_ref(), args.strict);
            if fleet.hosts.is_empty() && fleet.errors.is_empty() {
                return Err(Error::NoReports(args.reports.clone()));
            }
            let mut buf = Vec::new();
            render::fleet::write(&fleet, args.format, color, &mut buf).map_err(|e| Error::Io {
                path: "<output>".into(),
                source: e,
            })?;
            emit(&buf)?;
            Ok(fleet.exit_code())
        }
        None => inventory(cli.sysroot.as_deref(), &cli.inventory, color),
    }
}

fn inventory(sysroot: Option<&Path>, args: &cli::InventoryArgs, color: bool) -> Result<u8, Error> {
    let src = open_source(sysroot)?;
    let mut spec = probe::inventory(&src);
    let checked = match &args.profile {
        Some(p) => {
            let report = verify::verify(&spec, &profile::load(p)?, false);
            if !matches!(args.format, cli::Format::Prometheus | cli::Format::Nfd) {
                eprintln!(
                    "rigcheck: --profile only shows in prometheus and nfd output; \
                     `rigcheck verify --profile {p}` prints the check"
                );
            }
            Some(report)
        }
        None => None,
    };
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    render::inventory_checked(&spec, args.format, checked.as_ref(), color, &mut buf).map_err(
        |e| Error::Io {
            path: "<output>".into(),
            source: e,
        },
    )?;
    emit(&buf)
}

fn sheet(sysroot: Option<&Path>, args: &cli::SheetArgs) -> Result<u8, Error> {
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let mut spec = match &args.report {
        Some(path) => load_report(path)?,
        None => probe::inventory(&open_source(sysroot)?),
    };
    // The order is checked before redaction: serials are never part of an order, but the
    // check must see the machine as it is.
    let checked =
        profile.map(|p| render::sheet::Verify::from_report(&verify::verify(&spec, &p, false)));
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    render::sheet::write(&spec, checked.as_ref(), args.format, &mut buf).map_err(|e| {
        Error::Io {
            path: "<output>".into(),
            source: e,
        }
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

/// A report for `diff`: a JSON file written by `--format json`, or a sysroot directory.
pub fn load_report(path: &Path) -> Result<spec::Spec, Error> {
    if path.is_dir() {
        return Ok(probe::inventory(&open_source(Some(path))?));
    }
    let bytes = read_input(path).map_err(|e| Error::Report {
        path: path.into(),
        detail: e.to_string(),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| Error::Report {
        path: path.into(),
        detail: format!("not a rigcheck JSON report: {e}"),
    })
}

/// Reads a file named by the user (report, profile), bounded like every sysroot read: a
/// 10 GB file or `/dev/zero` is refused after `MAX_READ_BYTES`, not read whole. Named pipes
/// are read, so `<(ssh host rigcheck --format json)` works.
pub fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut buf = Vec::new();
    file.take(source::MAX_READ_BYTES + 1)
        .read_to_end(&mut buf)?;
    if buf.len() as u64 > source::MAX_READ_BYTES {
        return Err(io::Error::other(format!(
            "larger than {} MiB: not a rigcheck file",
            source::MAX_READ_BYTES / (1024 * 1024)
        )));
    }
    Ok(buf)
}

/// Writes to stdout; a closed pipe (`rigcheck | head`) ends quietly with 0.
pub(crate) fn emit(bytes: &[u8]) -> Result<u8, Error> {
    let safe = terminal_safe(bytes);
    let mut out = io::stdout().lock();
    match out.write_all(&safe).and_then(|_| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
    }
}

/// Replaces control characters that came from the machine's files (a DMI string in a
/// stranger's capture can hold `ESC ]` or `ESC [2J`) so they cannot drive the terminal.
/// Kept: newline, tab, and the colour sequences (`ESC [ digits ; m`) the renderers write.
pub fn terminal_safe(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let is_bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.into();
    };
    if !text.chars().any(is_bad) {
        return bytes.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' {
            let sgr_len = rest[1..]
                .strip_prefix('[')
                .and_then(|r| r.find(|ch: char| !(ch.is_ascii_digit() || ch == ';')))
                .filter(|&n| rest.as_bytes().get(2 + n) == Some(&b'm'))
                .map(|n| 3 + n);
            if let Some(n) = sgr_len {
                out.push_str(&rest[..n]);
                rest = &rest[n..];
                continue;
            }
        }
        out.push(if is_bad(c) { '\u{fffd}' } else { c });
        rest = &rest[c.len_utf8()..];
    }
    out.into_bytes().into()
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
