//! `rigcheck sheet`: a spec sheet (HTML or Markdown) of this machine or a saved report.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::cli::{GlobalArgs, SheetArgs};
use crate::error::Error;
use crate::io::{emit, write_atomic};
use crate::render::sheet::{self, Verify};
use crate::{probe, profile, redact, verify};

/// Writes the sheet to `-o FILE`, or to stdout when it is not a terminal (or `--stdout`).
pub fn exec(args: &SheetArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    // A sheet is a file to keep: 40 KB of HTML scrolling past is no use to anyone.
    if args.output.is_none() && !args.stdout && std::io::stdout().is_terminal() {
        eprintln!(
            "rigcheck: sheet: not writing a spec sheet to the terminal; \
             write it to a file with -o FILE, or print it with --stdout"
        );
        return Ok(ExitCode::from(2));
    }
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let mut spec = match &args.report {
        Some(path) => super::load_report(path)?,
        None => probe::inventory(&super::open_source(global.sysroot.as_deref())?),
    };
    // The order is checked before redaction: serials are never part of an order, but the
    // check must see the machine as it is.
    let checked = profile.map(|p| Verify::from_report(&verify::verify(&spec, &p, false)));
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    sheet::write(&spec, checked.as_ref(), args.format, &mut buf).map_err(Error::output)?;
    match &args.output {
        Some(path) => write_atomic(path, &buf, args.force)?,
        None => emit(&buf)?,
    }
    Ok(ExitCode::SUCCESS)
}
