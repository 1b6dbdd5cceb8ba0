//! `rigcheck fleet REPORT|DIR...`: find every report under the paths given, read them on all
//! cores, and hand them to `fleet::assemble` to check and group.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{FleetArgs, GlobalArgs};
use rigcheck::error::Error;
use rigcheck::fleet::{self, BadReport, Loaded};
use rigcheck::io::error_line;
use rigcheck::render::fleet::FleetFormat;
use rigcheck::{profile, redact, render};

/// Reads, checks and prints the fleet; exit 1 when a host fails or a report is unreadable,
/// 3 when none does but a host's check is incomplete, 2 when a path given does not exist.
pub fn exec(args: &FleetArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::no_sysroot(
        "fleet",
        global,
        "reads the reports and sysroots given to it; name each sysroot as a REPORT",
    )?;
    let format = super::pick_format("fleet", global, args.format, FleetFormat::Table)?;
    // ndjson is one compact line per host whatever is asked.
    let layout = super::json_layout(
        "fleet",
        args.compact,
        matches!(format, FleetFormat::Json | FleetFormat::Ndjson),
    )?;
    let stdin_reports = args.reports.iter().filter(|p| *p == Path::new("-")).count();
    if stdin_reports > 0 && args.profile.as_deref() == Some("-") {
        return Err(Error::Usage(
            "--profile - and the report '-': both read standard input, which can be read \
             once; give one of them as a file"
                .into(),
        ));
    }
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    // A path typed on the command line that is not there is a mistake in the command, not
    // an unreadable report of the fleet.
    for p in &args.reports {
        if p != Path::new("-") {
            if let Err(e) = std::fs::metadata(p) {
                return Err(Error::Io {
                    path: p.clone(),
                    source: e,
                });
            }
        }
    }
    if stdin_reports > 1 {
        return Err(Error::Usage(
            "fleet: '-' given twice; standard input holds one report".into(),
        ));
    }
    let mut errors = Vec::new();
    let mut inputs = Vec::new();
    for p in &args.reports {
        if p == Path::new("-") {
            inputs.push((p.clone(), None));
            continue;
        }
        collect(p, true, &mut inputs, &mut errors);
    }
    let inputs = one_each(inputs);
    let unknowns = super::verify::unknowns(args.strict, args.allow_unknown);
    // Prometheus writes every fact of every host and --redact scrubs them all: only they
    // keep whole reports.
    let keep = if global.redact || format == FleetFormat::Prometheus {
        fleet::Keep::Reports
    } else {
        fleet::Keep::Rows
    };
    let mut fleet = fleet::assemble(
        inputs,
        |p| load(&p),
        errors,
        profile.as_ref(),
        unknowns,
        keep,
    );
    if fleet.hosts.is_empty() && fleet.errors.is_empty() {
        return Err(Error::NoReports(args.reports.clone()));
    }
    let code = fleet.exit_code();
    if global.redact {
        redact::redact_fleet(&mut fleet);
    }
    let term = super::term(global.color);
    let mut buf = Vec::new();
    match format {
        FleetFormat::Json => render::fleet::write_json(&fleet, layout, &mut buf),
        _ => render::fleet::write_with(&fleet, format, term, args.verbose, &mut buf),
    }
    .map_err(Error::output)?;
    super::pager::emit_paged(&buf, term.color, global.no_pager)?;
    if !fleet.errors.is_empty() {
        eprintln!(
            "rigcheck: {}",
            error_line(&format!(
                "fleet: {} report(s) could not be read, first {}: {}; they are listed with the \
                 output",
                fleet.errors.len(),
                fleet.errors[0].file.display(),
                fleet.errors[0].error
            ))
        );
    }
    Ok(ExitCode::from(code))
}

/// Each report once, however it was named: the same file by a relative and an absolute path,
/// through a link, or inside a capture directory also given, is one host (two would count
/// twice and could tip the majority). Kept as first named, sorted.
fn one_each(inputs: Vec<(PathBuf, Option<Seen>)>) -> Vec<PathBuf> {
    // Each path as `collect` saw it: whether it is a directory (a capture), and where the OS
    // gives one its identity (device and inode), which tells the same file under two names
    // without resolving every path of a fleet of thousands. Paths are resolved only where a
    // directory was given (a file inside it is that host) or there is no identity.
    let any_dir = inputs.iter().any(|(_, seen)| seen.is_some_and(|s| s.dir));
    let mut seen_ids = HashSet::new();
    let mut seen_paths: HashSet<PathBuf> = HashSet::new();
    let mut out: Vec<(PathBuf, PathBuf, bool)> = Vec::new();
    for (p, seen) in inputs {
        let id = seen.and_then(|s| s.id);
        // `-` and a path that cannot be resolved are kept as given.
        let real = if any_dir || id.is_none() {
            std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone())
        } else {
            p.clone()
        };
        let first = match id {
            Some(id) => seen_ids.insert(id),
            None => seen_paths.insert(real.clone()),
        };
        if first {
            out.push((real, p, seen.is_some_and(|s| s.dir)));
        }
    }
    let captures: HashSet<PathBuf> = out
        .iter()
        .filter(|(_, _, dir)| *dir)
        .map(|(real, _, _)| real.clone())
        .collect();
    let mut kept: Vec<PathBuf> = out
        .into_iter()
        .filter(|(real, _, _)| {
            captures.is_empty() || !real.ancestors().skip(1).any(|a| captures.contains(a))
        })
        .map(|(_, shown, _)| shown)
        .collect();
    kept.sort();
    kept
}

/// One report through the command layer's one loader; its failure names the file once.
fn load(path: &Path) -> Result<Loaded, BadReport> {
    match super::read_report(path) {
        Ok((spec, preflight)) => Ok(Loaded {
            file: path.to_path_buf(),
            spec,
            preflight,
        }),
        Err(e) => Err(BadReport {
            file: path.to_path_buf(),
            error: match e {
                Error::Report { detail, .. } => detail,
                other => other.to_string(),
            },
        }),
    }
}

/// What `collect` learned of a path from its one `stat`, which `one_each` reads instead of
/// asking again: whether it is a directory, and the file's identity where the OS gives one.
#[derive(Debug, Clone, Copy)]
struct Seen {
    dir: bool,
    id: Option<(u64, u64)>,
}

impl Seen {
    fn of(meta: &std::fs::Metadata) -> Seen {
        Seen {
            dir: meta.is_dir(),
            id: rigcheck::sys::file_identity(meta),
        }
    }
}

/// Adds `path` (a file, a sysroot, or every `*.json` below a directory) to `out`; a path
/// that cannot be read is a `BadReport`. `named` is true for paths given on the command
/// line, which are taken whatever their extension. Names starting with `.` are skipped in a
/// scan: they are half-written temporary files. Each path goes with what its `stat` said
/// (`Seen`).
fn collect(
    path: &Path,
    named: bool,
    out: &mut Vec<(PathBuf, Option<Seen>)>,
    errors: &mut Vec<BadReport>,
) {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            errors.push(BadReport {
                file: path.into(),
                error: rigcheck::error::describe(&e),
            });
            return;
        }
    };
    if !meta.is_dir() {
        let is_json = path.extension().is_some_and(|e| e == "json");
        // In a scanned directory only plain files: a FIFO named x.json would block.
        if named || (is_json && meta.is_file()) {
            out.push((path.into(), Some(Seen::of(&meta))));
        }
        return;
    }
    // A recorded machine (`rigcheck capture`, Linux or Windows) is read as one report.
    if super::is_capture(path) {
        out.push((path.into(), Some(Seen::of(&meta))));
        return;
    }
    let entries = match std::fs::read_dir(path) {
        Ok(e) => e,
        Err(e) => {
            errors.push(BadReport {
                file: path.into(),
                error: rigcheck::error::describe(&e),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // A symlinked directory may lead back up (`loop -> ..`): not followed in a scan.
        if entry.file_type().is_ok_and(|t| t.is_symlink()) && entry.path().is_dir() {
            continue;
        }
        collect(&entry.path(), false, out, errors);
    }
}
